// Reinterpreting a layout for wider or narrower elements (upcast, downcast, recast) and the
// largest common contiguous piece of two layouts (max_common_layout, max_common_vector).
#pragma once

#include "tessera/core/complement.hpp"
#include "tessera/core/divide.hpp"

namespace tessera {

namespace detail {
template <int N, class Sh, class St>
TESSERA_HOST_DEVICE constexpr auto upcast_leaf(Sh const& s, St const& d) {
  if constexpr (is_constant_v<0, St>) {
    return make_tuple(s, d);
  } else if constexpr (is_static_int_v<St>) {
    return make_tuple(shape_div(s, shape_div(C<N>{}, abs(d))), shape_div(d, C<N>{}));
  } else {
    using T = std::common_type_t<decltype(value_of(s)), St>;
    if (d == 0) return make_tuple(T(s), T(0));  // broadcast mode: unchanged
    return make_tuple(T(shape_div(s, shape_div(C<N>{}, abs(d)))), T(shape_div(d, C<N>{})));
  }
}
template <int N, class Sh, class St>
TESSERA_HOST_DEVICE constexpr auto downcast_leaf(Sh const& s, St const& d) {
  if constexpr (is_constant_v<1, St>) {
    return make_tuple(s * C<N>{}, d);
  } else {
    if constexpr (!is_static_int_v<St>) {
      TESSERA_REQUIRE(d != 1,
                      "downcast: a dynamic stride equal to 1 cannot be widened into the mode's shape; "
                      "make the unit stride static (_1) so the layout's type says it is contiguous",
                      s, d);
    }
    return make_tuple(s, d * C<N>{});
  }
}
template <class S, class D, class F>
TESSERA_HOST_DEVICE constexpr auto transform_modes(Layout<S, D> const& l, F&& f) {
  auto shapes = transform_leaf(l.shape(), l.stride(), [&](auto const& s, auto const& d) { return get<0>(f(s, d)); });
  auto strides = transform_leaf(l.shape(), l.stride(), [&](auto const& s, auto const& d) { return get<1>(f(s, d)); });
  return make_layout(shapes, strides);
}
}  // namespace detail

// upcast<N>(L): the layout over elements N times wider (N consecutive elements become one).
// Pre: each mode's size and stride allow grouping by N. upcast<2>((_4,_8):(_8,_1)) == (_4,_4):(_4,_1).
template <int N, class S, class D>
TESSERA_HOST_DEVICE constexpr auto upcast(Layout<S, D> const& l) {
  static_assert(N >= 1, "upcast<N>: N must be >= 1");
  return detail::transform_modes(l, [](auto const& s, auto const& d) { return detail::upcast_leaf<N>(s, d); });
}
// downcast<N>(L): the layout over elements N times narrower. downcast<2>((_4,_8):(_8,_1)) == (_4,_16):(_16,_1).
template <int N, class S, class D>
TESSERA_HOST_DEVICE constexpr auto downcast(Layout<S, D> const& l) {
  static_assert(N >= 1, "downcast<N>: N must be >= 1");
  return detail::transform_modes(l, [](auto const& s, auto const& d) { return detail::downcast_leaf<N>(s, d); });
}
// recast<FromBits, ToBits>(L): L over FromBits-wide elements seen as ToBits-wide elements.
// recast<16, 32>(L) == upcast<2>(L).
template <int FromBits, int ToBits, class S, class D>
TESSERA_HOST_DEVICE constexpr auto recast(Layout<S, D> const& l) {
  static_assert(FromBits > 0 && ToBits > 0 && (FromBits % ToBits == 0 || ToBits % FromBits == 0),
                "recast: one element width must be a multiple of the other");
  if constexpr (ToBits >= FromBits) {
    return upcast<ToBits / FromBits>(l);
  } else {
    return downcast<FromBits / ToBits>(l);
  }
}

// max_common_layout(A, B): the largest layout R with A(R(i)) == B(R(i)) that is contiguous in
// both, or _1:_0. Useful to find how many elements a copy can move per vector instruction.
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  auto inv = right_inverse(b);
  auto common = coalesce(composition(a, inv));
  using CS = std::remove_cvref_t<decltype(get<0>(common.shape()))>;
  using CD = std::remove_cvref_t<decltype(get<0>(common.stride()))>;
  if constexpr (is_static_int_v<CS> && is_constant_v<1, CD>) {
    return composition(inv, layout<0>(common));
  } else {
    return Layout<_1, _0>{};
  }
}

// max_common_vector(A, B): the largest N such that the coordinates B maps to the offsets 0, 1, ...,
// N-1 are mapped by A to those same offsets (A(right_inverse(B)(n)) == n for every n < N): how many
// elements one vector access of N consecutive offsets moves between A and B. It counts in the
// codomain, not in the coordinates: the coordinates need not be contiguous, and the whole common
// image counts (max_common_vector((_4,_4):(_4,_1), (_4,_4):(_4,_1)) == _16, though no two
// neighbouring coordinates of that transpose are contiguous). Pre: none. Post: a static integer
// N >= 1; _1 when A or B is not static, or when the common part does not start with a static
// stride-1 mode. max_common_vector((_4,_8):(_1,_4), (_4,_8):(_1,_8)) == _4.
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  if constexpr (is_static_v<Layout<SA, DA>> && is_static_v<Layout<SB, DB>>) {
    auto common = coalesce(composition(a, right_inverse(b)));
    using CD = std::remove_cvref_t<decltype(get<0>(common.stride()))>;
    if constexpr (is_constant_v<1, CD>) {
      return get<0>(common.shape());
    } else {
      return _1{};
    }
  } else {
    return _1{};
  }
}

// max_alignment(L): the largest N such that upcast<N>(L) passes its static checks: the number of
// elements that L keeps contiguous from offset 0 on, as far as its static shapes and strides
// tell (dynamic shapes count as _1, dynamic strides as _0, as in CuTe). Static when L's static part
// decides it (always). Post: upcast<N>(L) compiles; N divides size(L) when L is static.
// max_alignment((_4,_8):(_1,_4)) == _32; max_alignment((_4,_8):(_1,_8)) == _4;
// max_alignment((_2,_3,_4):(_1,_4,_16)) == _2; max_alignment((4,_8):(_1,4)) == _1.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto max_alignment(Layout<S, D> const& l) {
  auto flat = coalesce(l);
  auto fs = transform(flatten_to_tuple(flat.shape()), [](auto const& x) {
    if constexpr (is_static_int_v<decltype(x)>) {
      return x;
    } else {
      return _1{};
    }
  });
  auto fd = transform(flatten_to_tuple(flat.stride()), [](auto const& x) {
    if constexpr (is_static_int_v<decltype(x)>) {
      return x;
    } else {
      return _0{};
    }
  });
  auto filtered = make_layout(fs, fd);
  auto permuted = logical_divide(filtered, right_inverse(filtered));
  return gcd(size<0>(permuted), stride<1>(permuted));
}

}  // namespace tessera
