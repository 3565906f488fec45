// tessera/runtime/swizzle.hpp -- swizzles and composed layouts `F o offset o L` of the run-time
// twin (twin of core/swizzle.hpp).
//
//   Swizzle        Sw<B,M,S>: x ^ ((x >> S) & mask)     Sw<3,3,3>
//   ComposedLayout c -> swizzle(offset + L(c))           Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
//
// Composition with a right operand, slicing (the offset absorbs the fixed part), divides,
// products and tile_to_shape act on L.
#pragma once

#include <cstdint>
#include <string>

#include "tessera/runtime/product.hpp"

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
inline Int evaluate(const ComposedLayout& c, const IntTuple& crd) { return apply(c.swizzle, c.offset + evaluate(c.inner, crd)); }

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

}  // namespace tessera::rt
