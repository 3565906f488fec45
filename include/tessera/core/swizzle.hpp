// Swizzle<B,M,S>: the bit permutation x ^ ((x >> S) & mask) with mask = ((1<<B)-1) << M, used to
// spread shared-memory accesses over banks; and ComposedLayout F o offset o L, a layout whose
// offsets go through F (a swizzled layout). Prints `Sw<3,3,3>` and `Sw<3,3,3> o _0 o L`.
#pragma once

#include "tessera/core/product.hpp"

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
      return ComposedLayout<Outer, decltype(offset() + get<1>(so)), decltype(get<0>(so))>(outer(), offset() + get<1>(so),
                                                                                           get<0>(so));
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

// Divides, products and tile_to_shape of a composed layout act on its inner layout:
// op(outer o offset o inner, t) == outer o offset o op(inner, t).
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
// clang-format on

template <int B, int M, int S>
std::ostream& operator<<(std::ostream& os, Swizzle<B, M, S> const& x) {
  return os << to_string(x);
}
template <class O, class F, class I>
std::ostream& operator<<(std::ostream& os, ComposedLayout<O, F, I> const& x) {
  return os << to_string(x);
}

}  // namespace tessera
