// Layout: a function from coordinates to offsets, given by a Shape and a congruent Stride
// (`(_2,4):(4,_1)`). A layout whose shape and stride are all static is an empty type: it costs
// nothing at run time and the algebra on it runs at compile time.
#pragma once

#include "tessera/core/arithmetic_tuple.hpp"

namespace tessera {

struct LayoutLeft {};   // column-major: leftmost mode fastest
struct LayoutRight {};  // row-major: rightmost mode fastest

// The same two orders as a run-time value, for a matrix whose order is known only at run time
// (the kernels' host APIs): Major::row is LayoutRight, element (r,c) at r*ld + c; Major::col is
// LayoutLeft, element (r,c) at r + c*ld.
enum class Major { row, col };

template <class Shape, class Stride>
struct Layout;

template <class T>
struct is_layout : std::false_type {};
template <class S, class D>
struct is_layout<Layout<S, D>> : std::true_type {};
template <class T>
inline constexpr bool is_layout_v = is_layout<std::remove_cvref_t<T>>::value;

// ---- compact strides -------------------------------------------------------------------------

namespace detail {
template <class Shape, class Current>
TESSERA_HOST_DEVICE constexpr auto compact_left(Shape const& shape, Current const& current) {
  if constexpr (is_tuple_v<Shape>) {
    auto r = fold(shape, make_tuple(tuple<>{}, current), [](auto const& acc, auto const& s) {
      return make_tuple(append(get<0>(acc), compact_left(s, get<1>(acc))), get<1>(acc) * product(s));
    });
    return get<0>(r);
  } else if constexpr (is_constant_v<1, Shape>) {
    return _0{};
  } else {
    return current;
  }
}
template <class Shape, class Current>
TESSERA_HOST_DEVICE constexpr auto compact_right(Shape const& shape, Current const& current) {
  if constexpr (is_tuple_v<Shape>) {
    auto r = fold(reverse(shape), make_tuple(tuple<>{}, current), [](auto const& acc, auto const& s) {
      return make_tuple(prepend(get<0>(acc), compact_right(s, get<1>(acc))), get<1>(acc) * product(s));
    });
    return get<0>(r);
  } else if constexpr (is_constant_v<1, Shape>) {
    return _0{};
  } else {
    return current;
  }
}
}  // namespace detail

// compact_col_major(shape, start = _1): exclusive prefix products from the left; a static size-1
// leaf gets stride _0. compact_col_major((2,3,5,7)) == (_1,2,6,30).
template <class Shape, class Start = _1>
TESSERA_HOST_DEVICE constexpr auto compact_col_major(Shape const& shape, Start const& start = {}) {
  return detail::compact_left(shape, start);
}
// compact_row_major(shape, start = _1): the same from the right. compact_row_major((2,3,4)) == (12,4,_1).
template <class Shape, class Start = _1>
TESSERA_HOST_DEVICE constexpr auto compact_row_major(Shape const& shape, Start const& start = {}) {
  return detail::compact_right(shape, start);
}

// crd2idx(c, shape): the column-major (colexicographic) index of coordinate c in shape, i.e.
// crd2idx(c, shape, compact_col_major(shape)). Post: idx2crd(crd2idx(c, s), s) == c for c in s's domain.
// crd2idx((1,(1,2)), (3,(2,3))) == 16.
template <class Crd, class Shape>
TESSERA_HOST_DEVICE constexpr auto crd2idx(Crd const& c, Shape const& shape) {
  return crd2idx(c, shape, compact_col_major(shape));
}

// crd2crd(c, src, dst): the coordinate c of shape src re-expressed in shape dst through their common
// column-major index: idx2crd(crd2idx(c, src), dst), mode by mode where c, src and dst are all
// tuples (of one rank). Pre: c is in src's domain; dst's last mode takes what is left (as idx2crd).
// crd2crd((1,2), (2,3), 6) == 5; crd2crd(5, 6, (2,3)) == (1,2); crd2crd((1,(1,2)), (3,(2,3)), (3,6)) == (1,5).
template <class Crd, class SrcShape, class DstShape>
TESSERA_HOST_DEVICE constexpr auto crd2crd(Crd const& c, SrcShape const& src, DstShape const& dst) {
  if constexpr (is_tuple_v<Crd> && is_tuple_v<SrcShape> && is_tuple_v<DstShape>) {
    static_assert(tuple_size_v<Crd> == tuple_size_v<SrcShape> && tuple_size_v<Crd> == tuple_size_v<DstShape>,
                  "crd2crd(c, src, dst): a tuple coordinate needs src and dst shapes of its rank");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(crd2crd(get<Is>(c), get<Is>(src), get<Is>(dst))...);
    }(std::make_index_sequence<tuple_size_v<Crd>>{});
  } else {
    return idx2crd(crd2idx(c, src), dst);
  }
}

// compact_major<Major>(shape, current = _1): compact_col_major (Major = LayoutLeft) or
// compact_row_major (LayoutRight) starting at current; a tuple current (congruent to shape's top
// level) starts each mode at its own value. compact_major<LayoutRight>((2,3)) == (3,_1);
// compact_major<LayoutLeft>((2,3), (_1,10)) == (_1,10).
template <class Major, class Shape, class Current = _1>
TESSERA_HOST_DEVICE constexpr auto compact_major(Shape const& shape, Current const& current = {}) {
  static_assert(std::is_same_v<Major, LayoutLeft> || std::is_same_v<Major, LayoutRight>,
                "compact_major<Major>: Major must be LayoutLeft (column-major) or LayoutRight (row-major)");
  if constexpr (is_tuple_v<Current>) {
    static_assert(is_tuple_v<Shape> && tuple_size_v<Shape> == tuple_size_v<Current>,
                  "compact_major(shape, current): a tuple current needs a shape of the same rank");
    return transform(shape, current, [](auto const& s, auto const& c) { return compact_major<Major>(s, c); });
  } else if constexpr (std::is_same_v<Major, LayoutLeft>) {
    return detail::compact_left(shape, current);
  } else {
    return detail::compact_right(shape, current);
  }
}

namespace detail {
// The sub-shapes of shape at the leaves of order (order weakly congruent to shape), flat.
template <class Shape, class Order>
TESSERA_HOST_DEVICE constexpr auto leaves_like(Shape const& shape, Order const& order) {
  if constexpr (is_tuple_v<Order>) {
    static_assert(
        is_tuple_v<Shape> && tuple_size_v<Shape> == tuple_size_v<Order>,
        "compact_order(shape, order): order must be weakly congruent to shape (same rank at every tuple of order)");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return tuple_cat(tuple<>{}, leaves_like(get<Is>(shape), get<Is>(order))...);
    }(std::make_index_sequence<tuple_size_v<Order>>{});
  } else {
    return make_tuple(shape);
  }
}
// The rank of each flat order entry: static entries keep their value, dynamic ones rank after every
// static one, in position order (CuTe's rule); ties are broken by position.
template <class T>
inline constexpr long long order_static_value = [] {
  if constexpr (is_static_int_v<T>) {
    return (long long)T::value;
  } else {
    return 0LL;
  }
}();
template <class FlatOrder>
struct order_ranks {
  static constexpr int n = int(tuple_size_v<FlatOrder>);
  struct keys_t {
    long long v[n + 1];
  };
  static constexpr keys_t keys = []<std::size_t... Is>(std::index_sequence<Is...>) {
    constexpr bool is_st[] = {is_static_int_v<tuple_element_t<Is, FlatOrder>>..., false};
    constexpr long long val[] = {order_static_value<tuple_element_t<Is, FlatOrder>>..., 0};
    long long mx = 0;
    for (int i = 0; i < n; ++i) {
      if (is_st[i] && val[i] > mx) mx = val[i];
    }
    keys_t a{};
    for (int i = 0; i < n; ++i) {
      a.v[i] = is_st[i] ? val[i] : mx + 1 + i;
    }
    return a;
  }(std::make_index_sequence<n>{});
  // Does entry j come before entry k?
  TESSERA_HOST_DEVICE static constexpr bool before(int j, int k) {
    return keys.v[j] < keys.v[k] || (keys.v[j] == keys.v[k] && j < k);
  }
};
}  // namespace detail

// compact_order(shape, order): compact strides for shape in which the parts of shape at the leaves
// of order are laid out in increasing order (the smallest order gets stride _1, the next starts
// after it, ...), each part column-major inside. order: weakly congruent to shape; a static entry
// is its value, a dynamic entry comes after every static one (in position order); equal entries are
// taken in position order. compact_order(shape, LayoutLeft{}/LayoutRight{}) = compact_major.
// Post: make_layout(shape, result) is compact (a bijection onto [0, size(shape))).
// compact_order((2,3,4), (_1,_2,_0)) == (4,8,_1); compact_order(((2,3),4), (_1,_0)) == ((4,8),_1).
// Tessera rule: CuTe gives equal static entries the same start (the layout is not compact then).
template <class Shape, class Order>
TESSERA_HOST_DEVICE constexpr auto compact_order(Shape const& shape, Order const& order) {
  if constexpr (std::is_same_v<Order, LayoutLeft> || std::is_same_v<Order, LayoutRight>) {
    return compact_major<Order>(shape);
  } else {
    auto subs = detail::leaves_like(shape, order);
    using FO = decltype(flatten_to_tuple(order));
    using R = detail::order_ranks<FO>;
    constexpr int N = R::n;
    auto pieces = [&]<std::size_t... Ks>(std::index_sequence<Ks...>) {
      auto start_of = [&](auto k) {
        constexpr int K = decltype(k)::value;
        return [&]<std::size_t... Js>(std::index_sequence<Js...>) {
          return (_1{} * ... * [&] {
            if constexpr (R::before(int(Js), K)) {
              return product(get<Js>(subs));
            } else {
              return _1{};
            }
          }());
        }(std::make_index_sequence<N>{});
      };
      return make_tuple(compact_col_major(get<Ks>(subs), start_of(C<int(Ks)>{}))...);
    }(std::make_index_sequence<N>{});
    if constexpr (is_tuple_v<Order>) {
      return get<0>(detail::unflatten_from<0>(pieces, order));
    } else {
      return get<0>(pieces);
    }
  }
}

// ---- validation ------------------------------------------------------------------------------

namespace detail {
// Leaves of an IntTuple as int64 values, for validation on the host.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr void for_each_leaf(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    for_each(t, [&](auto const& x) { for_each_leaf(x, f); });
  } else {
    f(t);
  }
}
template <class T>
struct leaf_common;
template <class T>
  requires(!is_tuple_v<T>)
struct leaf_common<T> {
  using type = decltype(value_of(std::declval<T>()));
};
template <class... Ts>
struct leaf_common<tuple<Ts...>> {
  using type = std::common_type_t<int, typename leaf_common<Ts>::type...>;
};
template <class T>
using leaf_common_t = typename leaf_common<std::remove_cvref_t<T>>::type;

// The largest value of integer type T, as long long (saturated for 64-bit unsigned types).
template <class T>
inline constexpr long long max_of =
    std::is_signed_v<T> ? static_cast<long long>((1ULL << (8 * sizeof(T) - 1)) - 1)
                        : (sizeof(T) >= sizeof(long long) ? 0x7fffffffffffffffLL
                                                          : static_cast<long long>((1ULL << (8 * sizeof(T))) - 1));

// Checks a dynamic layout: shape leaves >= 1, size and largest offset fit the index types.
template <class Shape, class Stride>
TESSERA_HOST_DEVICE constexpr void validate_layout(Shape const& shape, Stride const& stride);
}  // namespace detail

// ---- the Layout type -------------------------------------------------------------------------

template <class Shape, class Stride = decltype(compact_col_major(std::declval<Shape>()))>
struct Layout : private tuple<Shape, Stride> {
  static_assert(IntTuple<Shape> && StrideTuple<Stride>,
                "Layout: the shape must be an IntTuple and the stride an IntTuple or basis elements (E<i>)");
  static_assert(decltype(congruent(std::declval<Shape>(), std::declval<Stride>()))::value,
                "Layout: shape and stride must be congruent (same nesting, one stride per shape leaf)");
  using shape_type = Shape;
  using stride_type = Stride;
  using base = tuple<Shape, Stride>;

  constexpr Layout() = default;
  TESSERA_HOST_DEVICE constexpr Layout(Shape const& s, Stride const& d) : base(s, d) {
    if constexpr (!is_static_v<Shape> || !is_static_v<Stride>) {
      detail::validate_layout(s, d);
    }
  }
  TESSERA_HOST_DEVICE constexpr explicit Layout(Shape const& s)
    requires(std::is_same_v<Stride, decltype(compact_col_major(std::declval<Shape>()))>)
      : Layout(s, compact_col_major(s)) {}

  TESSERA_HOST_DEVICE constexpr decltype(auto) shape() const { return get<0>(static_cast<base const&>(*this)); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) stride() const { return get<1>(static_cast<base const&>(*this)); }

  // L(c): the offset of a 1-D index, an R-D or a natural coordinate; with `_` inside, the slice.
  template <class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(Cs const&... cs) const;

  // Offset -> coordinate, for a compact layout (a bijection of its domain onto [0, size)):
  //   get_hier_coord(i): the natural coordinate c (congruent with the shape) with L(c) == i;
  //   get_flat_coord(i): one 1-D index per top-level mode (an integer for a rank-1 layout);
  //   get_1d_coord(i):   the column-major 1-D index of that coordinate.
  // Pre: i is an offset of L and L is compact there (checked: a static error, or layout_error on
  // the host, when L(result) != i). Post: L(result) == i for all three.
  // For (2,4):(4,1) and i = 7: (1,3), (1,3) and 7; for ((2,2),3):((1,6),2) and i = 7: ((1,1),0),
  // (3,0) and 3.
  template <Integer I>
  TESSERA_HOST_DEVICE constexpr auto get_hier_coord(I const& i) const;
  template <Integer I>
  TESSERA_HOST_DEVICE constexpr auto get_flat_coord(I const& i) const;
  template <Integer I>
  TESSERA_HOST_DEVICE constexpr auto get_1d_coord(I const& i) const;

  // with_shape(shape) / with_shape(s0, s1, ...): this layout read through a new shape, i.e.
  // composition(L, make_layout(shape)) (defined with composition, core/composition.hpp).
  // Pre: composition's. Post: shape(result) == shape (compatible), result(i) == L(i).
  // (_32:_1).with_shape(_4, _8) == (_4,_8):(_1,_4); ((_4,_8):(_8,_1)).with_shape(_32) == (_4,_8):(_8,_1).
  template <class NewShape>
  TESSERA_HOST_DEVICE constexpr auto with_shape(NewShape const& shape) const;
  template <class S0, class S1, class... Ss>
  TESSERA_HOST_DEVICE constexpr auto with_shape(S0 const& s0, S1 const& s1, Ss const&... ss) const;

  // The reference notation shape:stride, e.g. `(_2,4):(4,_1)` (print.hpp, error messages).
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    detail::write(k, shape());
    k.put(":");
    detail::write(k, stride());
  }
};

template <class S, class D>
Layout(S const&, D const&) -> Layout<S, D>;

// make_layout(shape): column-major compact layout. make_layout((2,3,5,7)) == (2,3,5,7):(_1,2,6,30).
// make_layout(shape, stride): the layout shape:stride (congruent).
// make_layout(shape, LayoutLeft{} / LayoutRight{}): compact column- / row-major.
// make_layout(L0, L1, ...): concatenation, mode i is Li.
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_layout(Shape const& shape) {
  return Layout<Shape, decltype(compact_col_major(shape))>(shape, compact_col_major(shape));
}
template <IntTuple Shape, StrideTuple Stride>
TESSERA_HOST_DEVICE constexpr auto make_layout(Shape const& shape, Stride const& stride) {
  return Layout<Shape, Stride>(shape, stride);
}
// make_identity_layout(shape): coordinate -> the same coordinate, as an ArithmeticTuple
// (arithmetic_tuple.hpp). make_identity_layout((4,8)) == (4,8):(_1@0,_1@1).
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_identity_layout(Shape const& shape) {
  return make_layout(shape, make_identity_strides(shape));
}
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_layout(Shape const& shape, LayoutLeft) {
  return make_layout(shape, compact_col_major(shape));
}
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_layout(Shape const& shape, LayoutRight) {
  return make_layout(shape, compact_row_major(shape));
}
template <class S0, class D0, class... Ls>
  requires(is_layout_v<Ls> && ...)
TESSERA_HOST_DEVICE constexpr auto make_layout(Layout<S0, D0> const& l0, Ls const&... ls) {
  return make_layout(make_tuple(l0.shape(), ls.shape()...), make_tuple(l0.stride(), ls.stride()...));
}

// ---- queries ---------------------------------------------------------------------------------

// rank/depth/size of a layout are those of its shape: rank((_2,(3,4)):(...)) == _2, size == 24.
// size<I>(L) is the size of mode I. shape<I...>(L) / stride<I...>(L) access (nested) modes.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) {
  return rank(l.shape());
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) {
  return depth(l.shape());
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) {
  return product(l.shape());
}
// rank<I...>(L) / depth<I...>(L) / size<I...>(L): of the (nested) mode I...:
// size<1, 0>((2,(3,4)):(_1,(2,6))) == 3; rank<1>(...) == _2.
template <int I0, int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) {
  return rank(get<I0, Is...>(l.shape()));
}
template <int I0, int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) {
  return depth(get<I0, Is...>(l.shape()));
}
template <int I0, int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) {
  return product(get<I0, Is...>(l.shape()));
}
template <int I, class T>
  requires IntTuple<T>
TESSERA_HOST_DEVICE constexpr auto size(T const& t) {
  return product(get<I>(t));
}
template <int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr decltype(auto) shape(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l.shape();
  } else {
    return get<Is...>(l.shape());
  }
}
template <int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr decltype(auto) stride(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l.stride();
  } else {
    return get<Is...>(l.stride());
  }
}
// layout<I...>(L): the sub-layout at mode I (nested indices allowed).
template <int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l;
  } else {
    return make_layout(get<Is...>(l.shape()), get<Is...>(l.stride()));
  }
}
// get<I...>(L): the same sub-layout as layout<I...>(L). get<1>((2,(3,4)):(_1,(2,6))) == (3,4):(2,6).
template <std::size_t I, class L>
  requires is_layout_v<L>
TESSERA_HOST_DEVICE constexpr auto get(L&& l) {
  return layout<int(I)>(l);
}
// cosize(L) = L(size(L) - 1) + 1: one past the largest offset (non-negative strides).
// cosize<I...>(L) is the cosize of the sub-layout at mode I...
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  return l(size(l) - _1{}) + _1{};
}
template <int I0, int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  return cosize(layout<I0, Is...>(l));
}

// size_v<L> / cosize_v<L> / depth_v<L>: the size, cosize and depth of a static layout type L (or of
// a composed layout, for size and cosize) as constants, e.g. for an array bound:
// float smem[cosize_v<decltype(sA_layout)>]. cosize_v<Layout<Shape<_8,_4>, Stride<_1,_16>>> == 56.
namespace detail {
template <class L>
TESSERA_HOST_DEVICE constexpr long long static_query_value(auto q) {
  static_assert(is_static_int_v<decltype(q)>,
                "size_v/cosize_v/depth_v<L>: the value is not static; L must be a layout type built from "
                "static integers (_8, Int<N>); for a dynamic layout call size(l) / cosize(l) at run time");
  if constexpr (is_static_int_v<decltype(q)>) {
    return decltype(q)::value;
  } else {
    return 0;
  }
}
}  // namespace detail
template <class L>
inline constexpr auto size_v = detail::static_query_value<L>(decltype(size(std::declval<L const&>())){});
template <class L>
inline constexpr auto cosize_v = detail::static_query_value<L>(decltype(cosize(std::declval<L const&>())){});
template <class L>
inline constexpr int depth_v = int(detail::static_query_value<L>(decltype(depth(std::declval<L const&>())){}));

template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return and_(equal(a.shape(), b.shape()), equal(a.stride(), b.stride()));
}
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto operator!=(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return !(a == b);
}

// ---- sub-layouts -----------------------------------------------------------------------------

// Sub-layouts act on shape and stride together, like the IntTuple functions of the same names:
// select<1,3>((2,3,5,7):(_1,2,6,30)) == (3,7):(2,30); take<1,3>(...) == (3,5):(2,6);
// group<0,2>(...) == ((2,3),5,7):((_1,2),6,30); flatten, append and prepend likewise.
template <int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto select(Layout<S, D> const& l) {
  return make_layout(select<Is...>(l.shape()), select<Is...>(l.stride()));
}
template <int B, int E, class S, class D>
TESSERA_HOST_DEVICE constexpr auto take(Layout<S, D> const& l) {
  return make_layout(take<B, E>(l.shape()), take<B, E>(l.stride()));
}
template <int B, int E, class S, class D>
TESSERA_HOST_DEVICE constexpr auto group(Layout<S, D> const& l) {
  return make_layout(group<B, E>(l.shape()), group<B, E>(l.stride()));
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto flatten(Layout<S, D> const& l) {
  return make_layout(flatten(l.shape()), flatten(l.stride()));
}
template <class S, class D, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S1, D1> const& x) {
  return make_layout(append(l.shape(), x.shape()), append(l.stride(), x.stride()));
}
template <class S, class D, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, Layout<S1, D1> const& x) {
  return make_layout(prepend(l.shape(), x.shape()), prepend(l.stride(), x.stride()));
}
// append<N>(L, x = _1:_0): pad L with x to rank N.
template <int N, class S, class D, class S1 = _1, class D1 = _0>
TESSERA_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S1, D1> const& x = {}) {
  return make_layout(append<N>(l.shape(), x.shape()), append<N>(l.stride(), x.stride()));
}
// transform_layout(L, f): f applied to each top-level mode (as a layout), results concatenated.
template <class S, class D, class F>
TESSERA_HOST_DEVICE constexpr auto transform_layout(Layout<S, D> const& l, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_layout(f(layout<int(Is)>(l))...);
  }(std::make_index_sequence<rank_v<S>>{});
}

// ---- coordinates and slicing -----------------------------------------------------------------

template <class T>
inline constexpr bool has_underscore_v = [] {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<U, Underscore>) {
    return true;
  } else if constexpr (is_tuple_v<U>) {
    return []<class... Ts>(tuple<Ts...>*) { return (has_underscore_v<Ts> || ... || false); }((U*)nullptr);
  } else {
    return false;
  }
}();

namespace detail {
template <class Crd, class T>
TESSERA_HOST_DEVICE constexpr auto slice_impl(Crd const& c, T const& t);
// The kept pieces of one mode, as a tuple to concatenate.
template <class Crd, class T>
TESSERA_HOST_DEVICE constexpr auto lslice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    return slice_impl(c, t);
  } else if constexpr (std::is_same_v<Crd, Underscore>) {
    return make_tuple(t);
  } else {
    return tuple<>{};
  }
}
template <class Crd, class T>
TESSERA_HOST_DEVICE constexpr auto slice_impl(Crd const& c, T const& t) {
  static_assert(is_tuple_v<T> && tuple_size_v<Crd> == tuple_size_v<T>,
                "slice: the coordinate must have the same rank as the sliced shape at every tuple");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return tuple_cat(tuple<>{}, lslice(get<Is>(c), get<Is>(t))...);
  }(std::make_index_sequence<tuple_size_v<Crd>>{});
}
// The coordinate with every `_` replaced by 0.
template <class Crd>
TESSERA_HOST_DEVICE constexpr auto underscore_to_zero(Crd const& c) {
  if constexpr (is_tuple_v<Crd>) {
    return transform(c, [](auto const& x) { return underscore_to_zero(x); });
  } else if constexpr (std::is_same_v<Crd, Underscore>) {
    return _0{};
  } else {
    return c;
  }
}
}  // namespace detail

// slice(c, t): the modes of t where c has `_`. slice((2,_), (3,(2,5))) == ((2,5)).
template <class Crd, class T>
TESSERA_HOST_DEVICE constexpr auto slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    return detail::slice_impl(c, t);
  } else if constexpr (std::is_same_v<Crd, Underscore>) {
    return t;
  } else {
    return tuple<>{};
  }
}
// slice(c, L): the layout of the modes kept by `_`; the fixed part's offset is dropped (see
// slice_and_offset). ((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100)) sliced by (2,_) is
// ((_2,_5,_2)):((_2,_13,_100)).
template <class Crd, class S, class D>
TESSERA_HOST_DEVICE constexpr auto slice(Crd const& c, Layout<S, D> const& l) {
  return make_layout(slice(c, l.shape()), slice(c, l.stride()));
}
// slice_and_offset(c, L) = (slice(c, L), L(c with _ -> 0)).
template <class Crd, class S, class D>
TESSERA_HOST_DEVICE constexpr auto slice_and_offset(Crd const& c, Layout<S, D> const& l) {
  return make_tuple(slice(c, l), crd2idx(detail::underscore_to_zero(c), l.shape(), l.stride()));
}

template <class Shape, class Stride>
template <class... Cs>
TESSERA_HOST_DEVICE constexpr auto Layout<Shape, Stride>::operator()(Cs const&... cs) const {
  static_assert(sizeof...(Cs) >= 1, "Layout::operator(): give a 1-D index or a coordinate");
  if constexpr (sizeof...(Cs) == 1) {
    if constexpr (has_underscore_v<Cs...>) {
      return slice(cs..., *this);
    } else {
      return crd2idx(cs..., shape(), stride());
    }
  } else {
    return (*this)(make_tuple(cs...));
  }
}

// ---- validation (definition) -----------------------------------------------------------------

namespace detail {
// True when every stride leaf is an integer (not a basis element).
template <class T>
inline constexpr bool integer_strides_v = [] {
  if constexpr (is_tuple_v<T>) {
    return []<class... Ts>(tuple<Ts...>*) { return (integer_strides_v<Ts> && ... && true); }((T*)nullptr);
  } else {
    return Integer<T>;
  }
}();
template <class T, bool = integer_strides_v<T>>
struct offset_common {
  using type = leaf_common_t<T>;
};
template <class T>
struct offset_common<T, false> {
  using type = long long;  // basis strides: offsets are coordinates, checked per mode by the shape
};

template <class Shape, class Stride>
TESSERA_HOST_DEVICE constexpr void validate_layout(Shape const& shape, Stride const& stride) {
#if !defined(__CUDA_ARCH__)
  using shape_t = leaf_common_t<Shape>;
  using offset_t = std::common_type_t<shape_t, typename offset_common<Stride>::type>;
  long long sz = 1, max_off = 0;
  bool size_overflow = false, offset_overflow = false, bad_shape = false;
  auto fs = flatten_to_tuple(shape);
  auto fd = flatten_to_tuple(stride);
  for_each(transform(fs, fd, [](auto const& s, auto const& d) { return make_tuple(s, d); }), [&](auto const& sd) {
    long long s = static_cast<long long>(get<0>(sd));
    long long d = 0;
    if constexpr (Integer<std::remove_cvref_t<decltype(get<1>(sd))>>) {
      d = static_cast<long long>(get<1>(sd));
    }
    if (s < 1) {
      bad_shape = true;
      return;
    }
    long long term = 0;
    size_overflow |= __builtin_mul_overflow(sz, s, &sz);
    offset_overflow |= __builtin_mul_overflow(s - 1, d < 0 ? -d : d, &term);
    offset_overflow |= __builtin_add_overflow(max_off, term, &max_off);
  });
  TESSERA_REQUIRE(!bad_shape,
                  "make_layout: every shape entry must be >= 1; an empty extent has no layout "
                  "(handle the empty problem before building the layout)",
                  shape, stride);
  TESSERA_REQUIRE(!size_overflow && sz <= max_of<shape_t>,
                  "make_layout: the layout's size does not fit the integer type of its shape; "
                  "use 64-bit shape integers (e.g. int64_t)",
                  shape, stride);
  TESSERA_REQUIRE(!offset_overflow && max_off <= max_of<offset_t>,
                  "make_layout: the layout's largest offset does not fit the integer type of its "
                  "shape and stride; use 64-bit integers (e.g. int64_t strides)",
                  shape, stride);
#else
  // Device (checks on in debug builds only): shape entries must be positive.
  for_each(flatten_to_tuple(shape), [&](auto const& s) {
    TESSERA_REQUIRE(s >= 1, "make_layout: every shape entry must be >= 1", shape, stride);
  });
#endif
}
}  // namespace detail

// ---- offsets to coordinates (compact layouts) -------------------------------------------------

template <class Shape, class Stride>
template <Integer I>
TESSERA_HOST_DEVICE constexpr auto Layout<Shape, Stride>::get_hier_coord(I const& i) const {
  static_assert(detail::integer_strides_v<Stride>,
                "get_hier_coord: the layout's strides must be integers (a basis-stride layout has no 1-D offsets)");
  auto c = idx2crd(i, shape(), stride());
  TESSERA_REQUIRE(crd2idx(c, shape(), stride()) == i,
                  "get_hier_coord/get_flat_coord/get_1d_coord: the offset is not reached by the layout at the "
                  "coordinate found; these need a compact layout (a bijection onto [0, size)) and an offset in "
                  "its image; make the layout compact (make_layout_like) or use a coordinate",
                  i, *this);
  return c;
}
template <class Shape, class Stride>
template <Integer I>
TESSERA_HOST_DEVICE constexpr auto Layout<Shape, Stride>::get_flat_coord(I const& i) const {
  if constexpr (rank_v<Shape> == 1) {
    return crd2crd(get_hier_coord(i), shape(), _1{});
  } else {
    return crd2crd(get_hier_coord(i), shape(), repeat<rank_v<Shape>>(_1{}));
  }
}
template <class Shape, class Stride>
template <Integer I>
TESSERA_HOST_DEVICE constexpr auto Layout<Shape, Stride>::get_1d_coord(I const& i) const {
  return crd2idx(get_hier_coord(i), shape());
}

// ---- more layout functions ---------------------------------------------------------------------

// make_layout_like(L): the compact layout of L's shape whose modes follow the order of L's strides
// (compact_order with the strides as the order); static _0-stride modes stay _0 (they take no
// room). Pre: integer strides. Post: same shape as L; compact on the modes of non-zero stride.
// make_layout_like((_2,_2,_2,_2):(_0,_2,_4,_1)) == (_2,_2,_2,_2):(_0,_2,_4,_1);
// make_layout_like((2,3,4,5):(_0,42,_1,_0)) == (2,3,4,5):(_0,4,_1,_0).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_layout_like(Layout<S, D> const& l) {
  static_assert(detail::integer_strides_v<D>,
                "make_layout_like: the strides must be integers (they give the order of the modes)");
  return make_layout(l.shape(), compact_order(filter_zeros(l.stride(), l.shape()), l.stride()));
}

namespace detail {
// A stride sum as a tuple of codomain coordinates: a basis element b@N becomes (0,..,b) of rank N+1.
template <class X>
TESSERA_HOST_DEVICE constexpr auto as_codomain_tuple(X const& x) {
  if constexpr (is_scaled_basis_v<X>) {
    return basis_to_tuple<X::mode + 1>(x);
  } else {
    return x;
  }
}
template <class X>
TESSERA_HOST_DEVICE constexpr auto abs_stride(X const& x) {
  if constexpr (is_scaled_basis_v<X>) {
    return make_scaled_basis<decltype(abs(x.value())), X::mode>(abs(x.value()));
  } else {
    return abs(x);
  }
}
}  // namespace detail

// coshape<I...>(L): the shape of L's codomain: the smallest C with elem_less(|L|(c), C) for every
// coordinate c, i.e. 1 + sum (s_i - 1) * |d_i| per codomain mode. An integer for integer strides
// (cosize for non-negative ones), a tuple for basis strides. coprofile<I...>(L): the codomain's
// profile, _0 at each of its modes. Post: size(coshape(L)) >= every |L(i)| + 1.
// coshape((_4,_8):(_8,_1)) == _32; coshape((4,8):(_1@0,_1@1)) == (4,8); coshape(_4:_-2) == _7;
// coprofile((4,8):(_1@0,_1@1)) == (_0,_0); coprofile((4,8):(1,4)) == _0.
template <int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto coshape(Layout<S, D> const& l) {
  auto sub = layout<Is...>(l);
  auto m1 = transform_leaf(sub.shape(), [](auto const& x) { return x - _1{}; });
  auto d = transform_leaf(sub.stride(), [](auto const& x) { return detail::abs_stride(x); });
  auto co = detail::as_codomain_tuple(inner_product(m1, d));
  return transform_leaf(co, [](auto const& x) { return x + _1{}; });
}
template <int... Is, class S, class D>
TESSERA_HOST_DEVICE constexpr auto coprofile(Layout<S, D> const& l) {
  return repeat_like(detail::as_codomain_tuple(sum(layout<Is...>(l).stride())), _0{});
}

// domain_offset(c, L) = (L, L(c)): the layout to use from coordinate c on and the offset to add
// to the pointer (a hook that composed layouts overload). Post: get<0>(r)(x) + get<1>(r) == L(c) + L(x).
// domain_offset((1,2), (4,8):(_1,4)) == ((4,8):(_1,4), 9).
template <class Crd, class S, class D>
TESSERA_HOST_DEVICE constexpr auto domain_offset(Crd const& c, Layout<S, D> const& l) {
  return make_tuple(l, l(c));
}

// filter_zeros(L): L with every static _0-stride mode given size _1 (same strides); filter_zeros(L,
// profile): the modes where profile has a static _0 given size _1. Post: same values on the
// remaining coordinates; the _0-stride modes no longer count in size.
// filter_zeros((4,(2,3)):(_0,(_1,2))) == (_1,(2,3)):(_0,(_1,2)).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto filter_zeros(Layout<S, D> const& l) {
  return make_layout(filter_zeros(l.stride(), l.shape()), l.stride());
}
template <class S, class D, class P>
TESSERA_HOST_DEVICE constexpr auto filter_zeros(Layout<S, D> const& l, P const& profile) {
  return make_layout(filter_zeros(profile, l.shape()), l.stride());
}

// unflatten(L, profile): the flat layout L regrouped with the nesting of profile (shape and stride
// alike). Pre: L is flat with as many modes as profile has leaves. Post: congruent(shape, profile),
// flatten(result) == L. unflatten((2,3,4):(_1,2,6), (_,(_,_))) == (2,(3,4)):(_1,(2,6)).
template <class S, class D, class P>
TESSERA_HOST_DEVICE constexpr auto unflatten(Layout<S, D> const& l, P const& profile) {
  return make_layout(unflatten(l.shape(), profile), unflatten(l.stride(), profile));
}

// zip(L): L's modes, each a tuple of equal rank, transposed (zip of shape and stride alike);
// zip(A, B) = zip(make_layout(A, B)). Pre: as zip on tuples.
// zip(((_2,_3),(_4,_5)):((_1,_2),(_6,_24))) == ((_2,_4),(_3,_5)):((_1,_6),(_2,_24)).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto zip(Layout<S, D> const& l) {
  return make_layout(zip(l.shape()), zip(l.stride()));
}
template <class SA, class DA, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto zip(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  return make_layout(zip(a.shape(), b.shape()), zip(a.stride(), b.stride()));
}

}  // namespace tessera
