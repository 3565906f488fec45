// Swizzle<B,M,S>: the bit permutation x ^ ((x >> S) & mask) with mask = ((1<<B)-1) << M, used to
// spread shared-memory accesses over banks; and ComposedLayout F o offset o L, a layout whose
// offsets go through F (a swizzled layout). Prints `Sw<3,3,3>` and `Sw<3,3,3> o _0 o L`.
#pragma once

#include "tessera/core/product.hpp"
#include "tessera/core/recast.hpp"

namespace tessera {

// Swizzle<B,M,S>: y = x ^ ((x >> S) & (((1<<B)-1) << M)) for S >= 0; for S < 0 the B bits at M
// are xored into the bits at M-S: y = x ^ ((x & (((1<<B)-1) << M)) << -S).
// Pre: B >= 0, M >= 0, |S| >= B (the bits read and the bits written do not overlap).
// Swizzle<3,3,3>: 0, 8, 64, 72, 127 -> 0, 8, 72, 64, 119.
template <int B, int M, int S>
struct Swizzle {
  static_assert(B >= 0 && M >= 0, "Swizzle<B,M,S>: B and M must be non-negative");
  static_assert((S < 0 ? -S : S) >= B,
                "Swizzle<B,M,S>: |S| must be >= B so the source and destination bits do not overlap");
  static constexpr int num_bits = B;
  static constexpr int num_base = M;
  static constexpr int num_shft = S;
  static constexpr long long zzz_mask = ((1LL << B) - 1) << M;
  // The bits the swizzle reads and the bits it writes (xors into): disjoint runs of B bits.
  // Swizzle<3,4,3>: read 0b1110000000 (bits 7..9), write 0b0001110000 (bits 4..6).
  static constexpr long long read_mask = S >= 0 ? zzz_mask << S : zzz_mask;
  static constexpr long long write_mask = S >= 0 ? zzz_mask : zzz_mask << -S;

  template <Integer T>
  TESSERA_HOST_DEVICE constexpr auto operator()(T const& x) const {
    if constexpr (is_static_int_v<T>) {
      return C<static_cast<typename T::value_type>(apply(T::value))>{};
    } else {
      return static_cast<T>(apply(static_cast<long long>(x)));  // wide enough for any integer type
    }
  }
  // apply(x): the swizzle of an integer, in x's own type (32-bit offsets stay 32-bit).
  template <class I>
  TESSERA_HOST_DEVICE static constexpr I apply(I x) {
    constexpr I mask = static_cast<I>(zzz_mask);
    if constexpr (S >= 0) {
      return x ^ ((x >> S) & mask);
    } else {
      return x ^ ((x & mask) << -S);
    }
  }
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    k.put("Sw<");
    k.put_int(B);
    k.put(",");
    k.put_int(M);
    k.put(",");
    k.put_int(S);
    k.put(">");
  }
};

template <class T>
struct is_swizzle : std::false_type {};
template <int B, int M, int S>
struct is_swizzle<Swizzle<B, M, S>> : std::true_type {};
template <class T>
inline constexpr bool is_swizzle_v = is_swizzle<std::remove_cvref_t<T>>::value;

namespace detail {
constexpr int popcount_ull(unsigned long long x) {
  int n = 0;
  for (; x != 0; x &= x - 1) ++n;
  return n;
}
constexpr int trailing_zeros_ull(unsigned long long x) {
  if (x == 0) return 0;
  int n = 0;
  for (; (x & 1ULL) == 0; x >>= 1) ++n;
  return n;
}
// Whether the set bits of x form one run (x == 0 counts as one).
constexpr bool one_run_ull(unsigned long long x) {
  if (x == 0) return true;
  unsigned long long const low = x >> trailing_zeros_ull(x);
  return (low & (low + 1)) == 0;
}
}  // namespace detail

// make_swizzle<Y, Z>(): the swizzle that xors the bits of mask Y (read) into the bits of mask Z
// (written), lowest bit of Y into lowest bit of Z.
// Pre: Y and Z are runs of set bits of the same length, disjoint (a count of 0 gives Sw<0,0,0>,
//      the identity). Post: sw.read_mask == Y, sw.write_mask == Z.
// Example: make_swizzle<0b1000, 0b0100>() == Sw<1,2,1>; make_swizzle<0b11000000, 0b00000110>()
//          == Sw<2,1,5>; make_swizzle<0b0100, 0b1000>() == Sw<1,2,-1>.
template <unsigned long long Y, unsigned long long Z>
TESSERA_HOST_DEVICE constexpr auto make_swizzle() {
  constexpr int by = detail::popcount_ull(Y);
  constexpr int bz = detail::popcount_ull(Z);
  static_assert(by == bz,
                "make_swizzle<Y, Z>: Y (the bits read) and Z (the bits written) must have the same "
                "number of set bits; each bit of Y is xored into one bit of Z");
  static_assert(detail::one_run_ull(Y) && detail::one_run_ull(Z),
                "make_swizzle<Y, Z>: Y and Z must each be one run of consecutive set bits (a "
                "Swizzle<B,M,S> moves B consecutive bits); split a scattered mask into several swizzles");
  static_assert((Y & Z) == 0,
                "make_swizzle<Y, Z>: Y and Z overlap; the bits read and the bits written must be "
                "disjoint (|S| >= B)");
  if constexpr (by == 0) {
    return Swizzle<0, 0, 0>{};
  } else {
    constexpr int ty = detail::trailing_zeros_ull(Y);
    constexpr int tz = detail::trailing_zeros_ull(Z);
    return Swizzle<by, (ty < tz ? ty : tz), ty - tz>{};
  }
}

// composition(Sw0, Sw1): the swizzle x -> Sw0(Sw1(x)), one Swizzle (as CuTe's).
// Pre: the same shift S; Sw0 reads no bit that Sw1 writes (otherwise the composite is not a xor of
//      fixed bits into fixed bits: refused); the read bits of both xor to one run (make_swizzle).
// Post: composition(Sw0, Sw1)(x) == Sw0(Sw1(x)) for every x >= 0.
// Example: composition(Sw<1,4,3>, Sw<2,2,3>) == Sw<3,2,3>; composition(Sw<3,3,3>, Sw<3,3,3>) ==
//          Sw<0,0,0> (a swizzle is its own inverse).
template <int B0, int M0, int S0, int B1, int M1, int S1>
TESSERA_HOST_DEVICE constexpr auto composition(Swizzle<B0, M0, S0> const&, Swizzle<B1, M1, S1> const&) {
  using Sw0 = Swizzle<B0, M0, S0>;
  using Sw1 = Swizzle<B1, M1, S1>;
  if constexpr (B0 == 0) {
    return Sw1{};
  } else if constexpr (B1 == 0) {
    return Sw0{};
  } else {
    static_assert(S0 == S1,
                  "composition(Sw<B0,M0,S0>, Sw<B1,M1,S1>): the shifts differ; only swizzles with the same "
                  "S compose into one swizzle (keep them as a composed function instead)");
    static_assert((Sw0::read_mask & Sw1::write_mask) == 0,
                  "composition(Sw0, Sw1): Sw0 reads bits that Sw1 writes, so Sw0 o Sw1 is not one "
                  "swizzle; compose in the other order or keep both");
    return make_swizzle<static_cast<unsigned long long>(Sw0::read_mask ^ Sw1::read_mask),
                        static_cast<unsigned long long>(Sw0::write_mask ^ Sw1::write_mask)>();
  }
}

// ComposedLayout: c -> outer(offset + inner(c)). Shape and size are the inner layout's.
template <class Outer, class Offset, class Inner>
struct ComposedLayout : private tuple<Outer, Offset, Inner> {
  using base = tuple<Outer, Offset, Inner>;
  constexpr ComposedLayout() = default;
  TESSERA_HOST_DEVICE constexpr ComposedLayout(Outer const& o, Offset const& off, Inner const& in) : base(o, off, in) {}
  TESSERA_HOST_DEVICE constexpr decltype(auto) outer() const { return get<0>(static_cast<base const&>(*this)); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) offset() const { return get<1>(static_cast<base const&>(*this)); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) inner() const { return get<2>(static_cast<base const&>(*this)); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const { return inner().shape(); }

  // F(offset + L(c)); with `_` in c, the composed layout of the slice (the fixed part's offset
  // moves into `offset`).
  template <class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(Cs const&... cs) const {
    if constexpr (sizeof...(Cs) > 1) {
      return (*this)(make_tuple(cs...));
    } else if constexpr ((has_underscore_v<Cs> || ...)) {
      auto so = slice_and_offset(cs..., inner());
      return ComposedLayout<Outer, decltype(offset() + get<1>(so)), decltype(get<0>(so))>(
          outer(), offset() + get<1>(so), get<0>(so));
    } else {
      return outer()(offset() + inner()(cs...));
    }
  }
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const;
};

template <class T>
struct is_composed_layout : std::false_type {};
template <class O, class F, class I>
struct is_composed_layout<ComposedLayout<O, F, I>> : std::true_type {};

template <class O, class F, class I>
template <class Sink>
TESSERA_HOST_DEVICE void ComposedLayout<O, F, I>::write_to(Sink& k) const {
  detail::write(k, outer());
  k.put(" o ");
  detail::write(k, offset());
  k.put(" o ");
  detail::write(k, inner());
}

// make_composed_layout(F, offset, L) = F o offset o L.
template <class O, class F, class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_composed_layout(O const& outer, F const& offset, Layout<S, D> const& inner) {
  return ComposedLayout<O, F, Layout<S, D>>(outer, offset, inner);
}
// composition(Swizzle, L) = Sw o _0 o L.
template <int B, int M, int S, class LS, class LD>
TESSERA_HOST_DEVICE constexpr auto composition(Swizzle<B, M, S> const& sw, Layout<LS, LD> const& l) {
  return make_composed_layout(sw, _0{}, l);
}
// composition(F o off o L, B) = F o off o (L o B): right operands act on the inner layout.
template <class O, class F, class I, class B>
TESSERA_HOST_DEVICE constexpr auto composition(ComposedLayout<O, F, I> const& c, B const& b) {
  return make_composed_layout(c.outer(), c.offset(), composition(c.inner(), b));
}

// shape/size/rank/depth/cosize of a composed layout are those of its inner layout, with indices
// those of the inner layout's mode (size<1>(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)) == _64). (cosize
// assumes the outer function keeps offsets below the inner cosize, as a swizzle of an aligned
// block does.) A composed layout has no stride: its offsets are not a linear function.
template <int... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(ComposedLayout<O, F, I> const& c) {
  return shape<Is...>(c.inner());
}
template <int... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto size(ComposedLayout<O, F, I> const& c) {
  if constexpr (sizeof...(Is) == 0) {
    return size(c.inner());
  } else {
    return size<Is...>(c.inner());
  }
}
template <int... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto rank(ComposedLayout<O, F, I> const& c) {
  if constexpr (sizeof...(Is) == 0) {
    return rank(c.inner());
  } else {
    return rank<Is...>(c.inner());
  }
}
template <int... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto depth(ComposedLayout<O, F, I> const& c) {
  if constexpr (sizeof...(Is) == 0) {
    return depth(c.inner());
  } else {
    return depth<Is...>(c.inner());
  }
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto cosize(ComposedLayout<O, F, I> const& c) {
  return cosize(c.inner());
}
// layout<I...>(c) / get<I...>(c): outer o offset o (mode I... of the inner layout), the composed
// layout of one mode (the other modes at coordinate 0).
template <int... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto layout(ComposedLayout<O, F, I> const& c) {
  return make_composed_layout(c.outer(), c.offset(), layout<Is...>(c.inner()));
}
template <std::size_t J, class CL>
  requires is_composed_layout<std::remove_cvref_t<CL>>::value
TESSERA_HOST_DEVICE constexpr auto get(CL&& c) {
  return layout<int(J)>(c);
}

// Divides, products, tile_to_shape, tile_unzip and zip of a composed layout act on its inner
// layout: op(outer o offset o inner, t) == outer o offset o op(inner, t).
// clang-format off
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto logical_divide(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), logical_divide(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), zipped_divide(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), tiled_divide(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto flat_divide(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), flat_divide(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto logical_product(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), logical_product(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_product(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), zipped_product(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto tiled_product(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), tiled_product(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto flat_product(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), flat_product(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto blocked_product(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), blocked_product(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto raked_product(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), raked_product(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), tile_to_shape(c.inner(), t)); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto tile_unzip(ComposedLayout<O, F, I> const& c, T const& t) { return make_composed_layout(c.outer(), c.offset(), tile_unzip(c.inner(), t)); }
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto zip(ComposedLayout<O, F, I> const& c) { return make_composed_layout(c.outer(), c.offset(), zip(c.inner())); }
// clang-format on

// ---- the rest of CuTe's functions on composed layouts ----------------------------------------
// Each acts on the inner layout where the swizzle commutes with it, so that the result, evaluated
// at every coordinate, agrees with the composed function (tests/core/swizzle.cpp checks each law
// element by element).

// stride(c): refused at compile time. A composed layout's offsets are F(offset + L(c)), not a
// linear function of c, so it has no stride; stride(get_nonswizzle_portion(c)) is L's.
template <int... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto stride(ComposedLayout<O, F, I> const&) {
  static_assert(detail::always_false<O>,
                "stride: a composed (swizzled) layout has no stride; its offsets are F(offset + L(c)). "
                "Use stride(get_nonswizzle_portion(c)) for the inner layout's strides");
}

// take<B,E>(c), flatten(c), append<N>(c[, x]), append(c, x), group<B,E>(c): F o offset o op(L).
// Pre/Post: those of op on L; the coordinates they keep evaluate as before.
// Example: take<0,1>(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)) == Sw<3,3,3> o _0 o (_8):(_64).
template <int B, int E, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto take(ComposedLayout<O, F, I> const& c) {
  return make_composed_layout(c.outer(), c.offset(), take<B, E>(c.inner()));
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto flatten(ComposedLayout<O, F, I> const& c) {
  return make_composed_layout(c.outer(), c.offset(), flatten(c.inner()));
}
template <int N, class O, class F, class I, class S1 = _1, class D1 = _0>
TESSERA_HOST_DEVICE constexpr auto append(ComposedLayout<O, F, I> const& c, Layout<S1, D1> const& x = {}) {
  return make_composed_layout(c.outer(), c.offset(), append<N>(c.inner(), x));
}
template <class O, class F, class I, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto append(ComposedLayout<O, F, I> const& c, Layout<S1, D1> const& x) {
  return make_composed_layout(c.outer(), c.offset(), append(c.inner(), x));
}
template <int B, int E, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto group(ComposedLayout<O, F, I> const& c) {
  return make_composed_layout(c.outer(), c.offset(), group<B, E>(c.inner()));
}

// slice_and_offset(crd, c) = (F o (offset + L(fixed part)) o slice(crd, L), _0): the offset of the
// fixed modes moves inside the swizzle (it cannot leave it: F(a + b) != F(a) + b). slice(crd, c) is
// its first element. domain_offset(crd, c) = (F o (offset + L(crd)) o L, _0).
// Post: slice(crd, c)(k) == c(crd with its `_` filled by k) for every k.
// Example: slice(make_coord(_, 1), Sw<3,3,3> o _0 o (_8,_64):(_64,_1)) == Sw<3,3,3> o 1 o (_8):(_64).
template <class Crd, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto slice_and_offset(Crd const& crd, ComposedLayout<O, F, I> const& c) {
  auto so = slice_and_offset(crd, c.inner());
  return make_tuple(make_composed_layout(c.outer(), c.offset() + get<1>(so), get<0>(so)), _0{});
}
template <class Crd, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto slice(Crd const& crd, ComposedLayout<O, F, I> const& c) {
  return get<0>(slice_and_offset(crd, c));
}
template <class Crd, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Crd const& crd, ComposedLayout<O, F, I> const& c) {
  return make_tuple(make_composed_layout(c.outer(), c.offset() + c.inner()(crd), c.inner()), _0{});
}

// coalesce(c), coalesce(c, profile), filter(c): F o offset o op(L) (op keeps L's function on
// [0, size), so the composed function is unchanged).
// Example: coalesce(Sw<3,3,3> o _0 o (_8,_8):(_1,_8)) == Sw<3,3,3> o _0 o _64:_1.
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto coalesce(ComposedLayout<O, F, I> const& c) {
  return make_composed_layout(c.outer(), c.offset(), coalesce(c.inner()));
}
template <class O, class F, class I, class P>
TESSERA_HOST_DEVICE constexpr auto coalesce(ComposedLayout<O, F, I> const& c, P const& profile) {
  return make_composed_layout(c.outer(), c.offset(), coalesce(c.inner(), profile));
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto filter(ComposedLayout<O, F, I> const& c) {
  return make_composed_layout(c.outer(), c.offset(), filter(c.inner()));
}

// complement(c, cotarget) = complement(L, cotarget), a plain layout in the swizzle's input space
// (as CuTe's): offset + (L, complement(c)) covers [offset, offset + cotarget) once, so F o offset o
// (L, complement(c)) covers F of that range once. complement(c) = complement(L, cosize(L)).
// Pre, Post: those of complement(L, cotarget).
// Example: complement(Sw<3,3,3> o _0 o (_8,_8):(_1,_16), _128) == _2:_8.
template <class O, class F, class I, class M>
TESSERA_HOST_DEVICE constexpr auto complement(ComposedLayout<O, F, I> const& c, M const& cotarget) {
  return complement(c.inner(), cotarget);
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto complement(ComposedLayout<O, F, I> const& c) {
  return complement(c.inner(), cosize(c.inner()));
}

namespace detail {
// The span 2^k of a swizzle: every bit it reads or writes is below k (0 for the identity).
template <int B, int M, int S>
inline constexpr long long swizzle_span = B == 0 ? 1 : 1LL << (M + B + (S < 0 ? -S : S));
}  // namespace detail

// composition(L, sw): the layout L o sw as a swizzled layout sw' o _0 o L (the swizzle moved to the
// other side), sw' = make_swizzle<L(sw.read_mask), L(sw.write_mask)> as CuTe's.
// Pre: L is static, its size is a multiple of sw's span 2^(M+B+|S|) (sw maps [0, size) onto itself)
//      and at most 2^16, and L(sw(x)) == sw'(L(x)) for every x < size(L) (checked at compile time;
//      it holds when L maps each bit sw touches to one bit, e.g. L's strides are powers of two).
// Post: composition(L, sw)(x) == L(sw(x)) for every x < size(L).
// Example: composition((_8,_8):(_8,_1), Sw<3,0,3>) == Sw<3,0,-3> o _0 o (_8,_8):(_8,_1) (the
//          transpose swaps the bit fields, so the swizzle xors the other way).
template <class LS, class LD, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& l, Swizzle<B, M, S> const&) {
  using L = Layout<LS, LD>;
  using Sw = Swizzle<B, M, S>;
  static_assert(is_static_v<L>,
                "composition(L, Swizzle): L must be static (the swizzle it becomes is computed and "
                "checked at compile time)");
  constexpr long long n = static_cast<long long>(decltype(size(L{}))::value);
  constexpr long long span = detail::swizzle_span<B, M, S>;
  static_assert(n % span == 0,
                "composition(L, Swizzle<B,M,S>): size(L) must be a multiple of the swizzle's span "
                "2^(M+B+|S|), so that the swizzle maps L's domain onto itself; use a larger L or a "
                "smaller swizzle");
  static_assert(n <= (1 << 16), "composition(L, Swizzle): L is too large to verify (size > 65536)");
  if constexpr (B == 0) {
    return make_composed_layout(Swizzle<0, 0, 0>{}, _0{}, l);
  } else {
    constexpr long long y = static_cast<long long>(L{}(Sw::read_mask));
    constexpr long long z = static_cast<long long>(L{}(Sw::write_mask));
    static_assert(y >= 0 && z >= 0,
                  "composition(L, Swizzle): L maps the swizzle's bits to negative offsets; use a layout "
                  "with non-negative strides");
    constexpr auto sw2 = make_swizzle<static_cast<unsigned long long>(y), static_cast<unsigned long long>(z)>();
    constexpr bool commutes = [] {
      L a{};
      for (long long x = 0; x < n; ++x) {
        if (static_cast<long long>(a(Sw::apply(x))) != decltype(sw2)::apply(static_cast<long long>(a(x)))) return false;
      }
      return true;
    }();
    static_assert(commutes,
                  "composition(L, Swizzle): L does not commute with the swizzle (L(sw(x)) is not a "
                  "swizzle of L(x) for some x), so L o sw is no swizzled layout; this happens when L "
                  "does not map the swizzle's bits to single bits");
    return make_composed_layout(sw2, _0{}, l);
  }
}

// right_inverse(c), left_inverse(c) for c = sw o _0 o L: inverse(L) o sw, given as the swizzled
// layout composition(inverse(L), sw) (as CuTe's, with its conditions checked).
// Pre: offset _0 (with an offset the inverse is no swizzled layout); the preconditions of
//      composition(inverse(L), sw). Post: c(right_inverse(c)(i)) == i for i < size of the result;
//      left_inverse(c)(c(i)) == i for i < size(c).
// Example: right_inverse(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)) == Sw<3,0,-6> o _0 o (_64,_8):(_8,_1).
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto right_inverse(ComposedLayout<O, F, I> const& c) {
  static_assert(is_swizzle_v<O>, "right_inverse(c): the outer function must be a Swizzle");
  static_assert(is_constant_v<0, F>,
                "right_inverse(sw o offset o L): the offset must be _0 (slice the layout before "
                "swizzling, or invert sw o L and subtract the offset yourself)");
  return composition(right_inverse(c.inner()), c.outer());
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto left_inverse(ComposedLayout<O, F, I> const& c) {
  static_assert(is_swizzle_v<O>, "left_inverse(c): the outer function must be a Swizzle");
  static_assert(is_constant_v<0, F>,
                "left_inverse(sw o offset o L): the offset must be _0 (slice the layout before "
                "swizzling, or invert sw o L and subtract the offset yourself)");
  return composition(left_inverse(c.inner()), c.outer());
}
// right_inverse(sw) == left_inverse(sw) == sw: a swizzle is its own inverse.
template <int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto right_inverse(Swizzle<B, M, S> const& sw) {
  return sw;
}
template <int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto left_inverse(Swizzle<B, M, S> const& sw) {
  return sw;
}

namespace detail {
template <int N>
constexpr int log2_exact() {
  static_assert(N >= 1 && (N & (N - 1)) == 0,
                "upcast/downcast of a swizzle: N must be a power of two (a swizzle moves whole bits)");
  int k = 0;
  while ((1 << k) < N) ++k;
  return k;
}
}  // namespace detail

// upcast<N>(sw): the swizzle of offsets counted in units N times wider: Sw<B, M - log2 N, S>.
// downcast<N>(sw): in units N times narrower: Sw<B, M + log2 N, S>.
// Pre: N a power of two; for upcast, log2 N <= M (the swizzle writes no bit below the wide unit;
//      otherwise it permutes the N narrow elements inside each wide one, which a wide access would
//      reorder: CuTe drops that permutation, Tessera refuses). Post: upcast<N>(sw)(x) ==
//      sw(x*N)/N and downcast<N>(sw)(x) == sw(x/N)*N + x%N for every x >= 0.
// Example: upcast<2>(Sw<3,4,3>) == Sw<3,3,3>; downcast<2>(Sw<3,3,3>) == Sw<3,4,3>.
template <int N, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto upcast(Swizzle<B, M, S> const&) {
  constexpr int k = detail::log2_exact<N>();
  if constexpr (B == 0) {
    return Swizzle<0, 0, 0>{};
  } else {
    static_assert(k <= M,
                  "upcast<N>(Swizzle<B,M,S>): the swizzle writes bits below log2(N), so it permutes the N "
                  "elements inside each wider element and a wide access would reorder them; upcast by at "
                  "most 2^M");
    return Swizzle<B, M - k, S>{};
  }
}
template <int N, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto downcast(Swizzle<B, M, S> const&) {
  constexpr int k = detail::log2_exact<N>();
  if constexpr (B == 0) {
    return Swizzle<0, 0, 0>{};
  } else {
    return Swizzle<B, M + k, S>{};
  }
}

// upcast<N>(c) = upcast<N>(sw) o offset/N o upcast<N>(L); downcast<N>(c) = downcast<N>(sw) o
// offset*N o downcast<N>(L). recast<FromBits, ToBits>(c): upcast or downcast by the ratio.
// Pre: those of upcast/downcast of sw and of L; for upcast, N divides the offset.
// Post: upcast<N>(c)(j) * N == c(the first of the N elements j groups); downcast<N>(c) covers
//       c's offsets each widened to N consecutive ones.
// Example: upcast<2>(Sw<3,4,3> o _0 o (_8,_64):(_64,_1)) == Sw<3,3,3> o _0 o (_8,_32):(_32,_1).
template <int N, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto upcast(ComposedLayout<O, F, I> const& c) {
  static_assert(is_swizzle_v<O>, "upcast<N>(c): the outer function must be a Swizzle");
  if constexpr (is_static_int_v<F>) {
    static_assert(F::value % N == 0,
                  "upcast<N>(sw o offset o L): N must divide the offset (the composed layout must "
                  "start on a wide element); slice on a coordinate aligned to N");
    return make_composed_layout(upcast<N>(c.outer()), C<F::value / N>{}, upcast<N>(c.inner()));
  } else {
    TESSERA_REQUIRE(c.offset() % N == 0,
                    "upcast<N>(sw o offset o L): N must divide the offset (the composed layout must "
                    "start on a wide element); slice on a coordinate aligned to N (got offset, N)",
                    c.offset(), N);
    return make_composed_layout(upcast<N>(c.outer()), c.offset() / N, upcast<N>(c.inner()));
  }
}
template <int N, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto downcast(ComposedLayout<O, F, I> const& c) {
  static_assert(is_swizzle_v<O>, "downcast<N>(c): the outer function must be a Swizzle");
  return make_composed_layout(downcast<N>(c.outer()), c.offset() * C<N>{}, downcast<N>(c.inner()));
}
template <int FromBits, int ToBits, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto recast(ComposedLayout<O, F, I> const& c) {
  static_assert(FromBits > 0 && ToBits > 0, "recast<FromBits, ToBits>: the widths must be positive");
  static_assert(FromBits % ToBits == 0 || ToBits % FromBits == 0,
                "recast<FromBits, ToBits>(c): one width must divide the other");
  if constexpr (FromBits == ToBits) {
    return c;
  } else if constexpr (ToBits > FromBits) {
    return upcast<ToBits / FromBits>(c);
  } else {
    return downcast<FromBits / ToBits>(c);
  }
}

// get_swizzle_portion(x): the swizzle of a swizzled layout; of a plain layout the identity swizzle
// Sw<0,4,3> (as CuTe's). get_nonswizzle_portion(x): the inner layout L of sw o offset o L (the
// offset is dropped, as in CuTe), a plain layout itself.
// Example: get_swizzle_portion(Sw<3,3,3> o _0 o L) == Sw<3,3,3>; get_nonswizzle_portion(..) == L.
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto get_swizzle_portion(ComposedLayout<O, F, I> const& c) {
  return c.outer();
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto get_swizzle_portion(Layout<S, D> const&) {
  return Swizzle<0, 4, 3>{};
}
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto get_nonswizzle_portion(ComposedLayout<O, F, I> const& c) {
  return c.inner();
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto get_nonswizzle_portion(Layout<S, D> const& l) {
  return l;
}

namespace detail {
// The largest power of two dividing a static offset (_0: no bound, 2^30), _1 for a dynamic one.
template <class F>
TESSERA_HOST_DEVICE constexpr auto offset_alignment() {
  if constexpr (!is_static_int_v<F>) {
    return _1{};
  } else if constexpr (F::value == 0) {
    return C<(1 << 30)>{};
  } else {
    return C<(F::value & -F::value)>{};
  }
}
}  // namespace detail

// max_common_vector(a, b) with a swizzled operand: the elements that one vector access moves
// between them. A swizzle keeps runs inside aligned blocks of 2^M together, so a swizzled operand
// bounds the plain answer by 2^M and by the alignment of its offset; two operands with the same
// swizzle and the same static offset permute the same way, and the inner layouts' answer stands
// (as CuTe's).
// Example: max_common_vector(Sw<3,2,3> o _0 o (_64):(_1), (_64):(_1)) == _4;
//          max_common_vector(Sw<3,2,3> o _0 o (_64):(_1), the same) == _64.
// max_common_layout(a, b) with a swizzled operand (either order; CuTe defines no form with two):
// the inner layouts' common layout, cut to its first n elements when it is longer, n = min(2^M,
// the largest power of two dividing a static offset; 1 for a dynamic one): the swizzle keeps a run
// contiguous only inside an aligned block of 2^M. As CuTe's where the offset is aligned to 2^M
// (CuTe does not look at the offset).
// Example: max_common_layout(Sw<3,2,3> o _0 o (_64):(_1), (_64):(_1)) == _4:_1;
//          max_common_layout(Sw<3,2,3> o _2 o (_64):(_1), (_64):(_1)) == _2:_1.
template <class O, class F, class I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(ComposedLayout<O, F, I> const& a, Layout<S, D> const& b) {
  static_assert(is_swizzle_v<O>, "max_common_layout: the outer function must be a Swizzle");
  auto common = max_common_layout(a.inner(), b);
  constexpr auto n = min(C<(1 << O::num_base)>{}, detail::offset_alignment<F>());
  using N = decltype(size(common));
  constexpr long long cut = decltype(n)::value;
  if constexpr (!is_static_int_v<N>) {
    return composition(common, make_layout(n));
  } else if constexpr (cut < static_cast<long long>(N::value)) {
    return composition(common, make_layout(n));
  } else {
    return common;
  }
}
template <class S, class D, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(Layout<S, D> const& a, ComposedLayout<O, F, I> const& b) {
  return max_common_layout(b, a);
}

template <class O, class F, class I, class S, class D>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(ComposedLayout<O, F, I> const& a, Layout<S, D> const& b) {
  static_assert(is_swizzle_v<O>, "max_common_vector: the outer function must be a Swizzle");
  return min(min(max_common_vector(a.inner(), b), C<(1 << O::num_base)>{}), detail::offset_alignment<F>());
}
template <class S, class D, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(Layout<S, D> const& a, ComposedLayout<O, F, I> const& b) {
  return max_common_vector(b, a);
}
template <class O0, class F0, class I0, class O1, class F1, class I1>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(ComposedLayout<O0, F0, I0> const& a,
                                                     ComposedLayout<O1, F1, I1> const& b) {
  static_assert(is_swizzle_v<O0> && is_swizzle_v<O1>, "max_common_vector: the outer functions must be Swizzles");
  auto v = max_common_vector(a.inner(), b.inner());
  if constexpr (std::is_same_v<O0, O1> && is_static_int_v<F0> && std::is_same_v<F0, F1>) {
    return v;
  } else {
    return min(min(min(v, C<(1 << O0::num_base)>{}), C<(1 << O1::num_base)>{}),
               min(detail::offset_alignment<F0>(), detail::offset_alignment<F1>()));
  }
}

#if !defined(__CUDACC_RTC__)  // host only: streams (core/print.hpp)
template <int B, int M, int S>
std::ostream& operator<<(std::ostream& os, Swizzle<B, M, S> const& x) {
  return os << to_string(x);
}
template <class O, class F, class I>
std::ostream& operator<<(std::ostream& os, ComposedLayout<O, F, I> const& x) {
  return os << to_string(x);
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera
