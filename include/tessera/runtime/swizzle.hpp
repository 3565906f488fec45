// tessera/runtime/swizzle.hpp -- swizzles and composed layouts `F o offset o L` of the run-time
// twin (twin of core/swizzle.hpp).
//
//   Swizzle        Sw<B,M,S>: x ^ ((x >> S) & mask)     Sw<3,3,3>
//   ComposedLayout c -> swizzle(offset + L(c))           Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
//
// Composition with a right operand, slicing (the offset absorbs the fixed part), divides,
// products and tile_to_shape act on L. Also here, as in the core: make_swizzle_from_masks(Y, Z),
// composition(Sw0, Sw1), complement, upcast/downcast of swizzles and composed layouts,
// get_swizzle_portion, get_nonswizzle_portion and max_common_vector with a swizzled operand, and
// the rest of the core's functions on composed layouts: layout/get of a mode, append, slice and
// slice_and_offset, domain_offset, composition(L, Sw), right_inverse, left_inverse and recast.
// `tessera eval` and the Python package take them all (docs/eval.md).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/swizzle.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <algorithm>
#include <cstdint>
#include <string>

#include "tessera/runtime/product.hpp"
#include "tessera/runtime/recast.hpp"

namespace tessera::rt {

// Sw<B,M,S>: x ^ ((x >> S) & (((1 << B) - 1) << M)), S < 0 shifts left.
struct Swizzle {
  int bits = 0;
  int base = 0;
  int shift = 0;
};

inline std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

// c -> swizzle(offset + inner(c)).
struct ComposedLayout {
  Swizzle swizzle;
  Int offset;
  Layout inner;
};

inline std::string to_string(const ComposedLayout& c) {
  return to_string(c.swizzle) + " o " + to_string(c.offset) + " o " + to_string(c.inner);
}

// make_swizzle(B, M, S): Pre: 0 <= B, 0 <= M, |S| >= B, B + M + |S| <= 62 (fits int64).
// make_swizzle(3,3,3) = Sw<3,3,3>.
inline Swizzle make_swizzle(std::int64_t b, std::int64_t m, std::int64_t s) {
  const std::int64_t as = s < 0 ? -s : s;
  if (b < 0 || m < 0 || as < b || b + m + as > 62)
    fail("swizzle: Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) +
         "> is invalid; need B >= 0, M >= 0, |S| >= B and B + M + |S| <= 62");
  return Swizzle{static_cast<int>(b), static_cast<int>(m), static_cast<int>(s)};
}

// apply(sw, x) = x ^ ((x >> S) & mask) with mask = ((1 << B) - 1) << M for S >= 0, and
// x ^ ((x & mask) << -S) for S < 0; static iff x is.
// Sw<3,3,3>: 0, 8, 64, 72, 127 -> 0, 8, 72, 64, 119.
inline Int apply(const Swizzle& sw, Int x) {
  const std::uint64_t ux = static_cast<std::uint64_t>(x.value);
  const std::uint64_t mask = ((std::uint64_t{1} << sw.bits) - 1) << sw.base;
  const std::uint64_t moved = sw.shift >= 0 ? ((ux >> sw.shift) & mask) : ((ux & mask) << -sw.shift);
  return Int{static_cast<std::int64_t>(ux ^ moved), x.is_static};
}

// composition(sw, L) = sw o _0 o L. composition(Sw<3,3,3>, (_8,_64):(_64,_1)) = Sw<3,3,3> o _0 o (_8,_64):(_64,_1).
inline ComposedLayout composition(const Swizzle& sw, const Layout& l) { return ComposedLayout{sw, S(0), l}; }

// Evaluation: c -> sw(offset + L(c)).
inline Int evaluate(const ComposedLayout& c, const IntTuple& crd) {
  return apply(c.swizzle, c.offset + evaluate(c.inner, crd));
}

// slice(c, F o off o L) = F o (off + L(c with `_` -> _0)) o slice(c, L).
inline ComposedLayout slice(const IntTuple& crd, const ComposedLayout& c) {
  return ComposedLayout{c.swizzle, c.offset + slice_offset(crd, c.inner), slice(crd, c.inner)};
}

// Apply a layout operation to the inner layout: F o off o op(L, args...).
template <class Op>
ComposedLayout on_inner(const ComposedLayout& c, Op op) {
  return ComposedLayout{c.swizzle, c.offset, op(c.inner)};
}

// size/rank/depth/cosize of a composed layout are those of its inner layout (cosize assumes the
// swizzle keeps offsets below the inner cosize, as a swizzle of an aligned block does).
inline Int size(const ComposedLayout& c) { return size(c.inner); }
inline Int cosize(const ComposedLayout& c) { return cosize(c.inner); }
inline Int rank(const ComposedLayout& c) { return rank(c.inner); }
inline Int depth(const ComposedLayout& c) { return depth(c.inner); }

// The bits a swizzle reads and the bits it writes (core: Swizzle::read_mask / write_mask).
inline std::uint64_t read_mask(const Swizzle& s) {
  const std::uint64_t m = ((std::uint64_t{1} << s.bits) - 1) << s.base;
  return s.shift >= 0 ? m << s.shift : m;
}
inline std::uint64_t write_mask(const Swizzle& s) {
  const std::uint64_t m = ((std::uint64_t{1} << s.bits) - 1) << s.base;
  return s.shift >= 0 ? m : m << -s.shift;
}

// make_swizzle_from_masks(Y, Z) (core: make_swizzle<Y, Z>()): xors the bits of Y into those of Z.
// Pre: Y and Z runs of set bits of the same length, disjoint. make_swizzle_from_masks(8, 4) = Sw<1,2,1>.
inline Swizzle make_swizzle_from_masks(std::uint64_t y, std::uint64_t z) {
  auto popcount = [](std::uint64_t x) {
    int n = 0;
    for (; x != 0; x &= x - 1) ++n;
    return n;
  };
  auto tz = [](std::uint64_t x) {
    int n = 0;
    if (x == 0) return 0;
    for (; (x & 1) == 0; x >>= 1) ++n;
    return n;
  };
  auto one_run = [&](std::uint64_t x) {
    if (x == 0) return true;
    const std::uint64_t low = x >> tz(x);
    return (low & (low + 1)) == 0;
  };
  const std::string args = "make_swizzle<" + std::to_string(y) + ", " + std::to_string(z) + ">: ";
  if (popcount(y) != popcount(z))
    fail(args + "Y (the bits read) and Z (the bits written) must have the same number of set bits");
  if (!one_run(y) || !one_run(z))
    fail(args + "Y and Z must each be one run of consecutive set bits; split a scattered mask into several swizzles");
  if ((y & z) != 0) fail(args + "Y and Z overlap; the bits read and the bits written must be disjoint");
  if (y == 0) return Swizzle{0, 0, 0};
  const int ty = tz(y), tzz = tz(z);
  return make_swizzle(popcount(y), ty < tzz ? ty : tzz, ty - tzz);
}

// composition(Sw0, Sw1): x -> Sw0(Sw1(x)) as one swizzle. Pre: the same shift; Sw0 reads no bit
// Sw1 writes. composition(Sw<1,4,3>, Sw<2,2,3>) = Sw<3,2,3>.
inline Swizzle composition(const Swizzle& a, const Swizzle& b) {
  if (a.bits == 0) return b;
  if (b.bits == 0) return a;
  if (a.shift != b.shift)
    fail("composition(" + to_string(a) + ", " + to_string(b) +
         "): the shifts differ; only swizzles with the same S "
         "compose into one swizzle (keep them as a composed function instead)");
  if ((read_mask(a) & write_mask(b)) != 0)
    fail("composition(" + to_string(a) + ", " + to_string(b) +
         "): Sw0 reads bits that Sw1 writes, so Sw0 o Sw1 is "
         "not one swizzle; compose in the other order or keep both");
  return make_swizzle_from_masks(read_mask(a) ^ read_mask(b), write_mask(a) ^ write_mask(b));
}

// get_swizzle_portion(c) = its swizzle (of a plain layout: Sw<0,4,3>, the identity);
// get_nonswizzle_portion(c) = its inner layout.
inline Swizzle get_swizzle_portion(const ComposedLayout& c) { return c.swizzle; }
inline Swizzle get_swizzle_portion(const Layout&) { return Swizzle{0, 4, 3}; }
inline Layout get_nonswizzle_portion(const ComposedLayout& c) { return c.inner; }
inline Layout get_nonswizzle_portion(const Layout& l) { return l; }

// complement(F o off o L[, cotarget]) = complement(L[, cotarget]) (in F's input space).
inline Layout complement(const ComposedLayout& c, const IntTuple& cotarget) { return complement(c.inner, cotarget); }
inline Layout complement(const ComposedLayout& c) { return complement(c.inner, cosize(c.inner)); }

namespace detail {
inline int log2_exact(std::int64_t n, const char* what) {
  if (n < 1 || (n & (n - 1)) != 0)
    fail(std::string(what) + ": N = " + std::to_string(n) + " must be a power of two (a swizzle moves whole bits)");
  int k = 0;
  while ((std::int64_t{1} << k) < n) ++k;
  return k;
}
}  // namespace detail

// upcast(sw, N) = Sw<B, M - log2 N, S> (refused when log2 N > M: the swizzle would permute the N
// elements inside a wide one); downcast(sw, N) = Sw<B, M + log2 N, S>.
inline Swizzle upcast(const Swizzle& s, std::int64_t n) {
  const int k = detail::log2_exact(n, "upcast");
  if (s.bits == 0) return Swizzle{0, 0, 0};
  if (k > s.base)
    fail("upcast<" + std::to_string(n) + ">(" + to_string(s) +
         "): the swizzle writes bits below log2(N), so it permutes "
         "the N elements inside each wider element and a wide access would reorder them; upcast by at most 2^M");
  return Swizzle{s.bits, s.base - k, s.shift};
}
inline Swizzle downcast(const Swizzle& s, std::int64_t n) {
  const int k = detail::log2_exact(n, "downcast");
  if (s.bits == 0) return Swizzle{0, 0, 0};
  return Swizzle{s.bits, s.base + k, s.shift};
}
// upcast(c, N) = upcast(sw) o off/N o upcast(L) (N must divide off); downcast(c, N) = downcast(sw)
// o off*N o downcast(L).
inline ComposedLayout upcast(const ComposedLayout& c, std::int64_t n) {
  if (n >= 1 && c.offset.value % n != 0)
    fail("upcast<" + std::to_string(n) + ">(sw o offset o L): N must divide the offset (got offset " +
         std::to_string(c.offset.value) + "); slice on a coordinate aligned to N");
  const Swizzle sw = upcast(c.swizzle, n);
  return ComposedLayout{sw, Int{c.offset.value / n, c.offset.is_static}, upcast(c.inner, n)};
}
inline ComposedLayout downcast(const ComposedLayout& c, std::int64_t n) {
  const Swizzle sw = downcast(c.swizzle, n);
  return ComposedLayout{sw, Int{c.offset.value * n, c.offset.is_static}, downcast(c.inner, n)};
}

// max_common_vector with a swizzled operand: min(the inner layouts' answer, 2^M, the largest power
// of two dividing a static offset; _1 for a dynamic one); equal swizzles and equal static offsets:
// the inner layouts' answer.
inline Int max_common_vector(const ComposedLayout& a, const Layout& b) {
  const Int v = max_common_vector(a.inner, b);
  std::int64_t r = v.value;
  r = std::min<std::int64_t>(r, std::int64_t{1} << a.swizzle.base);
  if (!a.offset.is_static) r = 1;
  else if (a.offset.value != 0) r = std::min<std::int64_t>(r, a.offset.value & -a.offset.value);
  return Int{r, v.is_static};
}
inline Int max_common_vector(const Layout& a, const ComposedLayout& b) { return max_common_vector(b, a); }
inline Int max_common_vector(const ComposedLayout& a, const ComposedLayout& b) {
  const Int v = max_common_vector(a.inner, b.inner);
  const bool same = a.swizzle.bits == b.swizzle.bits && a.swizzle.base == b.swizzle.base &&
                    a.swizzle.shift == b.swizzle.shift && a.offset.is_static && b.offset.is_static &&
                    a.offset.value == b.offset.value;
  if (same) return v;
  // min(v, 2^Ma, 2^Mb, the offsets' alignments): both bounds on the inner layouts' answer v (as the
  // core, which computes v once, in the order (a, b)).
  auto bound = [](const ComposedLayout& c, std::int64_t r) {
    r = std::min<std::int64_t>(r, std::int64_t{1} << c.swizzle.base);
    if (!c.offset.is_static) return std::int64_t{1};
    if (c.offset.value != 0) r = std::min<std::int64_t>(r, c.offset.value & -c.offset.value);
    return r;
  };
  return Int{bound(b, bound(a, v.value)), v.is_static};
}

// max_common_layout with a swizzled operand (either order): the inner layouts' common layout cut
// to its first n = min(2^M, the largest power of two dividing a static offset; 1 for a dynamic
// one) elements when longer. max_common_layout(Sw<3,2,3> o _0 o _64:_1, _64:_1) = _4:_1.
inline Layout max_common_layout(const ComposedLayout& a, const Layout& b) {
  const Layout common = max_common_layout(a.inner, b);
  std::int64_t n = std::int64_t{1} << a.swizzle.base;
  if (!a.offset.is_static) n = 1;
  else if (a.offset.value != 0) n = std::min<std::int64_t>(n, a.offset.value & -a.offset.value);
  const Int sz = size(common);
  if (!sz.is_static || n < sz.value) return composition(common, Layout{S(n), S(1)});
  return common;
}
inline Layout max_common_layout(const Layout& a, const ComposedLayout& b) { return max_common_layout(b, a); }

// zip(c) = F o off o zip(L); tile_unzip(c, T) = F o off o tile_unzip(L, T).
inline ComposedLayout zip(const ComposedLayout& c) {
  return on_inner(c, [](const Layout& l) { return zip(l); });
}
inline ComposedLayout tile_unzip(const ComposedLayout& c, const Layout& t) {
  return on_inner(c, [&](const Layout& l) { return tile_unzip(l, t); });
}
inline ComposedLayout tile_unzip(const ComposedLayout& c, const Tiler& t) {
  return on_inner(c, [&](const Layout& l) { return tile_unzip(l, t); });
}

// ---- the rest of the core's functions on composed layouts ------------------------------------

// layout(c, i...) = F o off o layout(L, i...): one mode, the others at coordinate 0.
// layout(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), 1) = Sw<3,3,3> o _0 o _64:_1.
inline ComposedLayout layout(const ComposedLayout& c, std::int64_t i) {
  return on_inner(c, [&](const Layout& l) { return layout(l, i); });
}

// append(c, x[, N]) = F o off o append(L, x[, N]).
inline ComposedLayout append(const ComposedLayout& c, const Layout& x) {
  return on_inner(c, [&](const Layout& l) { return append(l, x); });
}
inline ComposedLayout append(const ComposedLayout& c, const Layout& x, std::int64_t n) {
  return on_inner(c, [&](const Layout& l) { return append(l, x, n); });
}

// domain_offset(crd, c) = F o (off + L(crd)) o L: the offset moves inside the swizzle (as the
// core's, which pairs it with _0). domain_offset(1, Sw<3,3,3> o _0 o _64:_1) = Sw<3,3,3> o 1 o _64:_1.
inline ComposedLayout domain_offset(const IntTuple& crd, const ComposedLayout& c) {
  return ComposedLayout{c.swizzle, c.offset + evaluate(c.inner, crd), c.inner};
}

// composition(L, sw): L o sw as the swizzled layout sw' o _0 o L, sw' the swizzle from the masks
// L(read_mask(sw)), L(write_mask(sw)) (core: composition(Layout, Swizzle)).
// Pre: L static, size(L) a multiple of sw's span 2^(M+B+|S|) and at most 65536, L maps the masks to
// non-negative offsets, and L(sw(x)) == sw'(L(x)) for every x < size(L).
// composition((_8,_8):(_8,_1), Sw<3,0,3>) = Sw<3,0,-3> o _0 o (_8,_8):(_8,_1).
inline ComposedLayout composition(const Layout& l, const Swizzle& sw) {
  const std::string what = "composition(" + to_string(l) + ", " + to_string(sw) + "): ";
  if (!detail::all_static(l.shape) || !detail::all_static(l.stride))
    fail(what +
         "L must be static (the swizzle it becomes is computed and checked at compile time in the core); "
         "use a layout of static integers");
  const std::int64_t n = size(l).value;
  const std::int64_t span =
      sw.bits == 0 ? 1 : std::int64_t{1} << (sw.base + sw.bits + (sw.shift < 0 ? -sw.shift : sw.shift));
  if (n % span != 0)
    fail(what + "size(L) = " + std::to_string(n) +
         " must be a multiple of the swizzle's span 2^(M+B+|S|) = " + std::to_string(span) +
         ", so that the swizzle maps L's domain onto itself; use a larger L or a smaller swizzle");
  if (n > (std::int64_t{1} << 16)) fail(what + "L is too large to verify (size " + std::to_string(n) + " > 65536)");
  if (sw.bits == 0) return ComposedLayout{Swizzle{0, 0, 0}, S(0), l};
  const std::int64_t y = evaluate(l, IntTuple(D(static_cast<std::int64_t>(read_mask(sw))))).value;
  const std::int64_t z = evaluate(l, IntTuple(D(static_cast<std::int64_t>(write_mask(sw))))).value;
  if (y < 0 || z < 0)
    fail(what + "L maps the swizzle's bits to negative offsets (" + std::to_string(y) + ", " + std::to_string(z) +
         "); use a layout with non-negative strides");
  const Swizzle sw2 = make_swizzle_from_masks(static_cast<std::uint64_t>(y), static_cast<std::uint64_t>(z));
  for (std::int64_t x = 0; x < n; ++x) {
    const std::int64_t lhs = evaluate(l, IntTuple(apply(sw, D(x)))).value;
    const std::int64_t rhs = apply(sw2, evaluate(l, IntTuple(D(x)))).value;
    if (lhs != rhs)
      fail(what + "L does not commute with the swizzle (L(sw(" + std::to_string(x) + ")) = " + std::to_string(lhs) +
           " but " + to_string(sw2) + "(L(" + std::to_string(x) + ")) = " + std::to_string(rhs) +
           "), so L o sw is no swizzled layout; this happens when L does not map the swizzle's bits to single bits");
  }
  return ComposedLayout{sw2, S(0), l};
}

// right_inverse(sw o _0 o L) = composition(right_inverse(L), sw); left_inverse likewise. Pre: the
// offset is a static _0 (with an offset the inverse is no swizzled layout); those of composition(L, sw).
// right_inverse(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)) = Sw<3,0,-6> o _0 o (_64,_8):(_8,_1).
// A swizzle is its own inverse: right_inverse(sw) = left_inverse(sw) = sw.
namespace detail {
inline void require_zero_offset(const char* fn, const ComposedLayout& c) {
  if (!c.offset.is_static || c.offset.value != 0)
    fail(std::string(fn) + "(sw o offset o L): the offset must be _0, got " + to_string(c.offset) + " in " +
         to_string(c) + " (slice the layout before swizzling, or invert sw o L and subtract the offset yourself)");
}
}  // namespace detail
inline ComposedLayout right_inverse(const ComposedLayout& c) {
  detail::require_zero_offset("right_inverse", c);
  // The compile-time algebra's right inverse (it stops at a dynamic stride, as the core's does), so
  // that a non-static L gives the core's answer: a static inverse composes, a dynamic one is refused.
  return composition(right_inverse_static(c.inner), c.swizzle);
}
inline ComposedLayout left_inverse(const ComposedLayout& c) {
  detail::require_zero_offset("left_inverse", c);
  return composition(left_inverse(c.inner), c.swizzle);
}
inline Swizzle right_inverse(const Swizzle& s) { return s; }
inline Swizzle left_inverse(const Swizzle& s) { return s; }

// recast(c, from_bits, to_bits): c unchanged for equal widths, upcast(c, to/from) or
// downcast(c, from/to). recast(Sw<3,4,3> o _0 o (_8,_64):(_64,_1), 16, 32) = Sw<3,3,3> o _0 o (_8,_32):(_32,_1).
inline ComposedLayout recast(const ComposedLayout& c, std::int64_t from_bits, std::int64_t to_bits) {
  if (from_bits < 1 || to_bits < 1)
    fail("recast: bit widths must be >= 1, got " + std::to_string(from_bits) + " and " + std::to_string(to_bits));
  if (from_bits % to_bits != 0 && to_bits % from_bits != 0)
    fail("recast: " + std::to_string(from_bits) + " and " + std::to_string(to_bits) +
         " bits do not divide one another; use widths that divide one another");
  if (from_bits == to_bits) return c;
  if (to_bits > from_bits) return upcast(c, to_bits / from_bits);
  return downcast(c, from_bits / to_bits);
}

}  // namespace tessera::rt
