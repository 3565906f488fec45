// Products of layouts: logical, zipped, tiled, flat, blocked and raked products,
// make_ordered_layout, tile_to_shape and make_layout_tv. Semantics: docs/algebra.md.
#pragma once

#include "tessera/core/divide.hpp"

namespace tessera {

// logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B): B's layout of copies of A.
// Per mode for a tuple B. Pre: cosize(B) >= 1 (only negative strides make it smaller:
// logical_product(_4:_1, _2:_-1) is an error whose fix is B with non-negative strides, _2:_1).
// logical_product((_2,_2):(_4,_1), _6:_1) == ((_2,_2),(_2,_3)):((_4,_1),(_2,_8)).
template <class S, class D, class B>
TESSERA_HOST_DEVICE constexpr auto logical_product(Layout<S, D> const& a, B const& b) {
  if constexpr (is_layout_v<B>) {
    TESSERA_REQUIRE(cosize(b) >= _1{},
                    "logical_product: B has cosize < 1 (its negative strides reach below offset 0), "
                    "so the copies of A have no room (the codomain size(A)*cosize(B) is empty); give "
                    "B non-negative strides (reverse its negative modes, e.g. _2:_-1 -> _2:_1)",
                    b, a);
    using room_t = decltype(cosize(b) >= _1{});
    if constexpr (is_static_v<room_t> && !detail::static_truth<room_t>()) {
      return a;  // not reached: the static_assert above failed; this keeps complement's from repeating it
    } else {
      return make_layout(a, composition(complement(a, size(a) * cosize(b)), b));
    }
  } else if constexpr (is_tuple_v<B>) {
    return detail::per_mode(
        a, b, [](auto const& m, auto const& t) { return logical_product(m, t); }, "logical_product");
  } else {
    static_assert(Integer<B>, "logical_product: B must be a layout, a tuple of layouts or an integer");
    return logical_product(a, make_layout(b));
  }
}

// zipped_product(A, B) = ((A modes...), (products..., trailing...)); tiled_ and flat_ likewise.
template <class S, class D, class B>
TESSERA_HOST_DEVICE constexpr auto zipped_product(Layout<S, D> const& a, B const& b) {
  return detail::zip2_by(logical_product(a, b), b);
}
// tiled_product(A, B) = ((A modes...), products..., trailing...); flat_product(A, B) = (A modes...,
// products..., trailing...): zipped_product with its modes split like tiled/flat_divide.
template <class S, class D, class B>
TESSERA_HOST_DEVICE constexpr auto tiled_product(Layout<S, D> const& a, B const& b) {
  return detail::split_tiled(zipped_product(a, b));
}
template <class S, class D, class B>
TESSERA_HOST_DEVICE constexpr auto flat_product(Layout<S, D> const& a, B const& b) {
  return detail::split_flat(zipped_product(a, b));
}

namespace detail {
template <bool Raked, class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto zip_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  constexpr int R = rank_v<SA> > rank_v<SB> ? rank_v<SA> : rank_v<SB>;
  auto p = logical_product(append<R>(a), append<R>(b));
  // At R == 1 with an integer first part (B's copies for raked, A for blocked) unpadded, the
  // result is the one mode (first, second), the second part kept whole (a tuple stays one).
  using First = std::remove_cvref_t<decltype(layout<(Raked ? 1 : 0)>(logical_product(a, b)))>;
  if constexpr (R == 1 && !is_tuple_v<typename First::shape_type>) {
    auto q = logical_product(a, b);
    return make_layout(make_layout(layout<(Raked ? 1 : 0)>(q), layout<(Raked ? 0 : 1)>(q)));
  } else
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      if constexpr (Raked) {
        return make_layout(make_layout(layout<1, int(Is)>(p), layout<0, int(Is)>(p))...);
      } else {
        return make_layout(make_layout(layout<0, int(Is)>(p), layout<1, int(Is)>(p))...);
      }
    }(std::make_index_sequence<R>{});
}
}  // namespace detail

// blocked_product(A, B): B's arrangement of whole blocks A, zipped per mode as (A_i, B_i).
// blocked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) == ((_2,_3),(_5,_4)):((_5,_10),(_1,_30)).
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto blocked_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return detail::zip_product<false>(a, b);
}
// raked_product(A, B): A's elements interleaved ("raked") across B, zipped per mode as (B_i, A_i).
// raked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) == ((_3,_2),(_4,_5)):((_10,_5),(_30,_1)).
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto raked_product(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return detail::zip_product<true>(a, b);
}

namespace detail {
// The permutation sorting a static tuple type, and its inverse, entry by entry (integral constants
// that device code may use; a std::array's operator[] is host-only under nvcc).
template <class T, std::size_t I>
inline constexpr int sort_perm_at = static_sort_order<T>()[I];
template <class T, std::size_t I>
inline constexpr int sort_inverse_at = [] {
  auto p = static_sort_order<T>();
  auto v = p;
  for (int i = 0; i < int(p.size()); ++i) v[p[i]] = i;
  return v[I];
}();
// The flat offset of mode I of a tuple type T whose leaves are numbered from Offset.
template <int Offset, class T, std::size_t I>
inline constexpr int leaf_offset_at = [] {
  int acc = Offset;
  [&]<std::size_t... Js>(std::index_sequence<Js...>) {
    ((acc += tuple_size_v<decltype(flatten_to_tuple(std::declval<tuple_element_t<Js, T>>()))>), ...);
  }(std::make_index_sequence<I>{});
  return acc;
}();
// Rebuilds a flat tuple f into the nesting profile of t.
template <int Offset, class T, class F>
TESSERA_HOST_DEVICE constexpr auto unflatten_at(T const& t, F const& f) {
  if constexpr (is_tuple_v<T>) {
    constexpr int R = tuple_size_v<T>;
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(unflatten_at<leaf_offset_at<Offset, T, Is>>(get<Is>(t), f)...);
    }(std::make_index_sequence<R>{});
  } else {
    return get<Offset>(f);
  }
}
}  // namespace detail

// make_ordered_layout(shape, order): compact layout whose leaf with the smallest order has the
// smallest stride (ties by position); static size-1 leaves get _0. order: static, congruent with
// shape or flat with one entry per leaf.
// make_ordered_layout((_2,_2,_2,_2), (_0,_2,_3,_1)) == (_2,_2,_2,_2):(_1,_4,_8,_2).
template <IntTuple Shape, IntTuple Order>
TESSERA_HOST_DEVICE constexpr auto make_ordered_layout(Shape const& shape, Order const& order) {
  auto fs = flatten_to_tuple(shape);
  auto fo = flatten_to_tuple(order);
  using FO = decltype(fo);
  constexpr int R = tuple_size_v<decltype(fs)>;
  static_assert(tuple_size_v<FO> == R, "make_ordered_layout: the order needs one entry per shape leaf");
  static_assert(is_static_v<FO>, "make_ordered_layout: the order must be static (e.g. (_1,_0))");
  // Strides in sorted order are running products; then put back in leaf order.
  auto sorted = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(get<detail::sort_perm_at<FO, Is>>(fs)...);
  }(std::make_index_sequence<R>{});
  auto sorted_strides = compact_col_major(sorted);
  auto flat_strides = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(get<detail::sort_inverse_at<FO, Is>>(sorted_strides)...);
  }(std::make_index_sequence<R>{});
  if constexpr (is_tuple_v<Shape>) {
    return make_layout(shape, detail::unflatten_at<0>(shape, flat_strides));
  } else {
    return make_layout(shape, get<0>(flat_strides));
  }
}
// make_ordered_layout(shape, LayoutLeft{} / LayoutRight{}) == make_layout(shape, LayoutLeft{} / LayoutRight{}).
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_ordered_layout(Shape const& shape, LayoutLeft) {
  return make_layout(shape, LayoutLeft{});
}
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_ordered_layout(Shape const& shape, LayoutRight) {
  return make_layout(shape, LayoutRight{});
}

// tile_to_shape(block, shape, order = LayoutLeft): repeats block (blocked_product) to cover shape;
// the copies are ordered by `order`. Pre: each mode of shape is a multiple of block's.
// tile_to_shape((_8,_8):(_8,_1), (_64,_32)) == ((_8,_8),(_8,_4)):((_8,_64),(_1,_512)).
template <class S, class D, IntTuple Shape, class Order = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, Shape const& trg, Order const& order = {}) {
  constexpr int R = rank_v<Shape>;
  static_assert(rank_v<S> <= R, "tile_to_shape: the block has more modes than the target shape");
  auto padded = append<R>(block);
  auto block_shape = product_each(padded.shape());
  auto target_shape = product_each(wrap(trg));
  for_each_index<R>([&](auto i) {
    constexpr int I = decltype(i)::value;
    TESSERA_REQUIRE(get<I>(target_shape) % get<I>(block_shape) == _0{},
                    "tile_to_shape: a mode of the target shape is not a multiple of the block's; "
                    "pad the target shape or use a block that divides it",
                    block, trg);
  });
  auto n = transform(target_shape, block_shape, [](auto const& t, auto const& b) { return t / b; });
  return blocked_product(padded, make_ordered_layout(n, order));
}

// make_layout_tv(thr, val) = (tiler, tv): the (m,n) tile covered when every thread of `thr`
// holds a `val` block, and the (thread, value) -> index-in-tile layout.
// make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1)) == ((_16,_256), ((_32,_4),(_8,_4)):((_128,_4),(_16,_1))).
template <class ST, class DT, class SV, class DV>
TESSERA_HOST_DEVICE constexpr auto make_layout_tv(Layout<ST, DT> const& thr, Layout<SV, DV> const& val) {
  auto mn = raked_product(thr, val);
  auto tiler = product_each(mn.shape());
  auto tv = composition(right_inverse(mn), make_layout(make_tuple(size(thr), size(val))));
  return make_tuple(tiler, tv);
}

}  // namespace tessera
