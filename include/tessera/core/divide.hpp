// Division of a layout by a tiler: logical, zipped, tiled and flat divide. Mode 0 of a divided
// layout is "the element inside a tile", mode 1 "which tile". Semantics: docs/algebra.md.
#pragma once

#include "tessera/core/complement.hpp"

namespace tessera {

namespace detail {
// Applies f(layout<i>(a), get<i>(tiler)) for the tiler's modes and keeps A's trailing modes.
template <class S, class D, class T, class F>
TESSERA_HOST_DEVICE constexpr auto per_mode(Layout<S, D> const& a, T const& tiler, F&& f, const char*) {
  constexpr int RT = tuple_size_v<T>;
  static_assert(RT <= rank_v<S>,
                "divide/product: the tiler has more modes than the layout; give one tile per mode at most");
  return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
    return make_layout(f(layout<int(Is)>(a), get<Is>(tiler))..., layout<int(RT + Js)>(a)...);
  }(std::make_index_sequence<RT>{}, std::make_index_sequence<rank_v<S> - RT>{});
}

template <class... Ls>
TESSERA_HOST_DEVICE constexpr auto layouts_to_layout(tuple<Ls...> const& t) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_layout(get<Is>(t)...);
  }(std::index_sequence_for<Ls...>{});
}
TESSERA_HOST_DEVICE constexpr auto layouts_to_layout(tuple<> const&) { return make_layout(tuple<>{}, tuple<>{}); }
// zip2_by(L, guide): L divided (or producted) per mode by the tiler `guide`, each mode guided by a
// layout or integer a (tile, rest) pair, regrouped as ((tiles...), (rests..., trailing...)); a
// nested tiler regroups its mode the same way first. A guide that is no tuple leaves L (a pair) as
// it is. zip2_by(((_4,_2)):((_1,_4)), (_4)) == ((_4),(_2)):((_1),(_4)).
template <class S, class D, class G>
TESSERA_HOST_DEVICE constexpr auto zip2_by(Layout<S, D> const& l, G const& guide) {
  if constexpr (is_tuple_v<G>) {
    constexpr int GR = tuple_size_v<G>;
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      auto split = make_tuple(zip2_by(layout<int(Is)>(l), get<Is>(guide))...);
      return make_layout(make_layout(layout<0>(get<Is>(split))...),
                         make_layout(layout<1>(get<Is>(split))..., layout<int(GR + Js)>(l)...));
    }(std::make_index_sequence<GR>{}, std::make_index_sequence<rank_v<S> - GR>{});
  } else {
    return l;
  }
}
}  // namespace detail

// logical_divide(A, T) = A o (T, complement(T, size(A))) for a layout T; per mode for a tiler
// (trailing modes of A kept); an integer n means n:_1.
// logical_divide((_4,_2,_3):(_2,_1,_8), _4:_2) == ((_2,_2),(_2,_3)):((_4,_1),(_2,_8)).
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto logical_divide(Layout<S, D> const& a, T const& tiler) {
  if constexpr (is_layout_v<T>) {
    return composition(a, make_layout(tiler, complement(tiler, size(a))));
  } else if constexpr (is_tuple_v<T>) {
    return detail::per_mode(
        a, tiler, [](auto const& m, auto const& t) { return logical_divide(m, t); }, "logical_divide");
  } else {
    static_assert(Integer<T>, "logical_divide: the tiler must be a layout, a tuple of tiles or an integer");
    return logical_divide(a, make_layout(tiler));
  }
}

// zipped_divide(A, T) = ((tiles...), (rests..., trailing...)).
// zipped_divide((2048,2048):(2048,_1), (_1,_4)) == ((_1,_4),(2048,512)):((_0,_1),(2048,_4)).
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto zipped_divide(Layout<S, D> const& a, T const& tiler) {
  return detail::zip2_by(logical_divide(a, tiler), tiler);
}
namespace detail {
// The top-level modes of a layout as a tuple of layouts (an integer layout is one mode).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto modes_of(Layout<S, D> const& l) {
  if constexpr (is_tuple_v<S>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(layout<int(Is)>(l)...);
    }(std::make_index_sequence<tuple_size_v<S>>{});
  } else {
    return make_tuple(l);
  }
}
// The modes of a layout of rank > 1; a layout of rank 1 (an integer or a rank-1 tuple) stays one
// mode as it is, so a rank-1 tuple keeps its parentheses.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto modes_or_whole(Layout<S, D> const& l) {
  if constexpr (rank_v<S> != 1) {
    return modes_of(l);
  } else {
    return make_tuple(l);
  }
}
// tiled: mode 1 of z split into its modes; flat: both modes split (a mode of rank 1 kept whole).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto split_tiled(Layout<S, D> const& z) {
  return layouts_to_layout(tuple_cat(make_tuple(layout<0>(z)), modes_or_whole(layout<1>(z))));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto split_flat(Layout<S, D> const& z) {
  return layouts_to_layout(tuple_cat(modes_or_whole(layout<0>(z)), modes_or_whole(layout<1>(z))));
}
}  // namespace detail

// tiled_divide(A, T) = ((tiles...), rests..., trailing...).
// tiled_divide((_9,(_4,_8)):(_59,(_13,_1)), [_3:_3, (_2,_4):(_1,_8)]) == ((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1)).
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto tiled_divide(Layout<S, D> const& a, T const& tiler) {
  return detail::split_tiled(zipped_divide(a, tiler));
}
// flat_divide(A, T) = (tiles..., rests..., trailing...).
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto flat_divide(Layout<S, D> const& a, T const& tiler) {
  return detail::split_flat(zipped_divide(a, tiler));
}

// tile_unzip(L, tiler): a layout that has a (tile, rest) pair at every mode the tiler covers (what
// logical_divide and logical_product return) regrouped as ((tiles...), (rests..., trailing...)),
// following the tiler's profile. zipped_divide(A, T) == tile_unzip(logical_divide(A, T), T).
// tile_unzip(((_2,_4),(_3,_5)):((_1,_2),(_8,_24)), (_2,_3)) == ((_2,_3),(_4,_5)):((_1,_8),(_2,_24)).
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto tile_unzip(Layout<S, D> const& l, T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    static_assert(tuple_size_v<T> <= rank_v<S>,
                  "tile_unzip(L, tiler): the tiler has more modes than L; give one tile per mode at most");
  }
  return detail::zip2_by(l, tiler);
}

namespace detail {
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto evenly_divides_mode(A const& a, B const& b) {
  if constexpr (std::is_same_v<B, Underscore>) {
    return true_type{};
  } else if constexpr (is_tuple_v<B>) {
    if constexpr (tuple_size_v<B> > rank_v<A>) {
      return false_type{};
    } else {
      return fold(make_seq_tuple<int(tuple_size_v<B>)>(), true_type{}, [&](auto const& acc, auto i) {
        return and_(acc, evenly_divides_mode(get<decltype(i)::value>(a), get<decltype(i)::value>(b)));
      });
    }
  } else if constexpr (is_layout_v<B>) {
    return size(a) == size(b) * size(complement(b, size(a)));
  } else {
    static_assert(Integer<B>,
                  "evenly_divides(shape, tiler): each tile must be an integer, a layout, a tuple of them or _");
    return size(a) == b * size(ceil_div(a, b));
  }
}
}  // namespace detail

// evenly_divides(shape, tiler): does the tiler cut shape (or a layout's shape) into whole tiles,
// mode by mode, with nothing left over? An integer tile b divides a mode a when size(a) ==
// b * size(ceil_div(a, b)); a layout tile when size(a) == size(b) * size(complement(b, size(a)));
// `_` always; a tiler with more modes than the shape never. Static when decidable.
// Post: if true, logical_divide(make_layout(shape), tiler) has no padded tile.
// evenly_divides((_8,_6), (_4,_3)) == _true; evenly_divides((8,6), (_4,_4)) == false;
// evenly_divides((_4,_6), _8) == _true (8 = 4 * 2 along the mode's colexicographic order).
template <class A, class T>
TESSERA_HOST_DEVICE constexpr auto evenly_divides(A const& a, T const& tiler) {
  if constexpr (is_layout_v<A>) {
    return detail::evenly_divides_mode(a.shape(), tiler);
  } else {
    static_assert(IntTuple<A>, "evenly_divides(shape, tiler): shape must be an IntTuple or a layout");
    return detail::evenly_divides_mode(a, tiler);
  }
}

}  // namespace tessera
