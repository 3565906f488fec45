// IntTuple: an integer (static or dynamic) or a tuple of IntTuples, e.g. ((2,_3),4).
// Shapes, strides and coordinates are IntTuples. This header holds their structure queries
// (rank, depth, size), their arithmetic (shape_div, ceil_div, inner_product, prefix_product)
// and the coordinate maps idx2crd / crd2idx. Semantics: docs/algebra.md.
#pragma once

#include "tessera/core/error.hpp"

namespace tessera {

template <class T>
concept IntTuple = Integer<T> || is_tuple_v<T>;

// Names for tuples by role, so that a static layout reads as its notation:
// Layout<Shape<Shape<_4,_8>,_2>, Stride<Stride<_16,_1>,_8>> is ((_4,_8),_2):((_16,_1),_8).
// All three are tuple<Ts...>; the name only says what the tuple is used for.
template <class... Ts>
using Shape = tuple<Ts...>;
template <class... Ts>
using Stride = tuple<Ts...>;
template <class... Ts>
using Coord = tuple<Ts...>;

// `_`: the slicing marker, keeps a mode in a coordinate (`A(2,_)`).
struct Underscore {
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const {
    k.put("_");
  }
};
TESSERA_INLINE_CONSTANT Underscore _{};

// ---- static-aware booleans --------------------------------------------------------------------

// and_(a, b): static when decidable from the types (a static false decides alone).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto and_(A const& a, B const& b) {
  if constexpr (is_constant_v<false, A> || is_constant_v<false, B>) {
    return false_type{};
  } else if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    return true_type{};
  } else if constexpr (is_static_int_v<A>) {
    return static_cast<bool>(b);
  } else if constexpr (is_static_int_v<B>) {
    return static_cast<bool>(a);
  } else {
    return static_cast<bool>(a) && static_cast<bool>(b);
  }
}
// or_(a, b): static when decidable from the types (a static true decides alone).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto or_(A const& a, B const& b) {
  if constexpr (is_constant_v<true, A> || is_constant_v<true, B>) {
    return true_type{};
  } else if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    return false_type{};
  } else if constexpr (is_static_int_v<A>) {
    return static_cast<bool>(b);
  } else if constexpr (is_static_int_v<B>) {
    return static_cast<bool>(a);
  } else {
    return static_cast<bool>(a) || static_cast<bool>(b);
  }
}

// ---- structure -------------------------------------------------------------------------------

// rank(t): number of top-level modes; an integer has rank 1. rank((2,(3,4))) == _2.
template <class T>
TESSERA_HOST_DEVICE constexpr auto rank(T const&) {
  if constexpr (is_tuple_v<T>) {
    return C<int(tuple_size_v<T>)>{};
  } else {
    return _1{};
  }
}
template <class T>
inline constexpr int rank_v = decltype(rank(std::declval<T>()))::value;

// depth(t): nesting depth; an integer has depth 0. depth((2,(3,4))) == _2.
template <class T>
TESSERA_HOST_DEVICE constexpr auto depth(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, _1{}, [](auto d, auto const& x) { return max(d, depth(x) + _1{}); });
  } else {
    return _0{};
  }
}

// product(t): product of all leaves; product(()) == _1. Static iff every leaf is static.
template <class T>
TESSERA_HOST_DEVICE constexpr auto product(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, _1{}, [](auto const& p, auto const& x) { return p * product(x); });
  } else {
    return t;
  }
}
// size(t) of an IntTuple is its product.
template <IntTuple T>
TESSERA_HOST_DEVICE constexpr auto size(T const& t) {
  return product(t);
}

// product_each(t) = (product(t0), product(t1), ...). product_each(((2,3),4)) == (6,4).
template <class T>
TESSERA_HOST_DEVICE constexpr auto product_each(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return transform(t, [](auto const& x) { return product(x); });
  } else {
    return t;
  }
}

// sum(t): sum of all leaves.
template <class T>
TESSERA_HOST_DEVICE constexpr auto sum(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, _0{}, [](auto const& p, auto const& x) { return p + sum(x); });
  } else {
    return t;
  }
}

// transform_leaf(t, f): f applied to every leaf, structure kept.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto transform_leaf(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return transform(t, [&](auto const& x) { return transform_leaf(x, f); });
  } else {
    return f(t);
  }
}
template <class A, class B, class F>
TESSERA_HOST_DEVICE constexpr auto transform_leaf(A const& a, B const& b, F&& f) {
  if constexpr (is_tuple_v<A>) {
    return transform(a, b, [&](auto const& x, auto const& y) { return transform_leaf(x, y, f); });
  } else {
    return f(a, b);
  }
}

// inner_product(a, b) = sum of a_i * b_i over congruent leaves. inner_product((2,3),(4,5)) == 23.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>,
                  "inner_product: the two IntTuples must be congruent (same nesting and rank)");
    return fold(transform(a, b, [](auto const& x, auto const& y) { return inner_product(x, y); }),
                _0{}, [](auto const& s, auto const& x) { return s + x; });
  } else {
    static_assert(!is_tuple_v<B>, "inner_product: an integer paired with a tuple; make them congruent");
    return a * b;
  }
}

// ---- sub-tuples ------------------------------------------------------------------------------

// wrap(t): t if it is a tuple, else (t).
template <class T>
TESSERA_HOST_DEVICE constexpr auto wrap(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return t;
  } else {
    return make_tuple(t);
  }
}
// unwrap(t): the element of a rank-1 tuple (recursively), else t.
template <class T>
TESSERA_HOST_DEVICE constexpr auto unwrap(T const& t) {
  if constexpr (is_tuple_v<T>) {
    if constexpr (tuple_size_v<T> == 1) {
      return unwrap(get<0>(t));
    } else {
      return t;
    }
  } else {
    return t;
  }
}

// make_seq_tuple<N>(): the tuple (_0, _1, ..., _{N-1}).
template <int N>
TESSERA_HOST_DEVICE constexpr auto make_seq_tuple() {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(C<int(Is)>{}...);
  }(std::make_index_sequence<N>{});
}

// select<I...>(t) = (t_I...). select<1,3>((2,3,5,7)) == (3,7).
template <int... Is, class T>
TESSERA_HOST_DEVICE constexpr auto select(T const& t) {
  return make_tuple(get<Is>(t)...);
}

// take<B,E>(t) = modes [B,E). take<1,3>((2,3,5,7)) == (3,5).
template <int B, int E, class T>
TESSERA_HOST_DEVICE constexpr auto take(T const& t) {
  static_assert(0 <= B && B <= E && E <= rank_v<T>, "take<B,E>: need 0 <= B <= E <= rank");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(get<B + Is>(t)...);
  }(std::make_index_sequence<E - B>{});
}

// group<B,E>(t): modes [B,E) become one mode. group<0,2>((2,3,5,7)) == ((2,3),5,7).
template <int B, int E, class T>
TESSERA_HOST_DEVICE constexpr auto group(T const& t) {
  static_assert(0 <= B && B <= E && E <= rank_v<T>, "group<B,E>: need 0 <= B <= E <= rank");
  return tuple_cat(take<0, B>(t), make_tuple(take<B, E>(t)), take<E, rank_v<T>>(t));
}

// flatten(t): the tuple of all leaves; an integer stays an integer.
template <class T>
TESSERA_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, tuple<>{}, [](auto const& acc, auto const& x) {
      return tuple_cat(acc, flatten_to_tuple(x));
    });
  } else {
    return make_tuple(t);
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr auto flatten(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return flatten_to_tuple(t);
  } else {
    return t;
  }
}

// append(t, x), prepend(t, x); an integer t is first wrapped: append(2, 3) == (2,3).
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  return tuple_cat(wrap(t), make_tuple(x));
}
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  return tuple_cat(make_tuple(x), wrap(t));
}
// append<N>(t, x): pads t with copies of x up to rank N (no-op if rank(t) >= N).
template <int N, class T, class X>
TESSERA_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (rank_v<T> >= N) {
    return wrap(t);
  } else {
    return append<N>(append(t, x), x);
  }
}

// replace<I>(t, x): t with mode I replaced by x.
template <int I, class T, class X>
TESSERA_HOST_DEVICE constexpr auto replace(T const& t, X const& x) {
  return tuple_cat(take<0, I>(t), make_tuple(x), take<I + 1, rank_v<T>>(t));
}
// remove<I>(t): t without mode I.
template <int I, class T>
TESSERA_HOST_DEVICE constexpr auto remove(T const& t) {
  return tuple_cat(take<0, I>(t), take<I + 1, rank_v<T>>(t));
}
// reverse(t) of the top-level modes.
template <class T>
TESSERA_HOST_DEVICE constexpr auto reverse(T const& t) {
  if constexpr (is_tuple_v<T>) {
    constexpr int R = rank_v<T>;
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(get<R - 1 - Is>(t)...);
    }(std::make_index_sequence<R>{});
  } else {
    return t;
  }
}

// repeat<N>(x) = (x, x, ..., x); repeat_like(t, x): x at every leaf of t,
// repeat_like((1,(2,3)), _0) == (_0,(_0,_0)).
template <int N, class X>
TESSERA_HOST_DEVICE constexpr auto repeat(X const& x) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple((void(Is), x)...);
  }(std::make_index_sequence<N>{});
}
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto repeat_like(T const& t, X const& x) {
  return transform_leaf(t, [&](auto const&) { return x; });
}

// ---- profile comparisons ---------------------------------------------------------------------

// congruent(a, b): same nesting profile (always static).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto congruent(A const&, B const&) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> == tuple_size_v<B>) {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return C<(decltype(congruent(std::declval<tuple_element_t<Is, A>>(),
                                     std::declval<tuple_element_t<Is, B>>()))::value &&
                  ... && true)>{};
      }(std::make_index_sequence<tuple_size_v<A>>{});
    } else {
      return false_type{};
    }
  } else {
    return C<(!is_tuple_v<A> && !is_tuple_v<B>)>{};
  }
}

// weakly_congruent(a, b): an integer in a matches any sub-tuple of b (always static).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto weakly_congruent(A const&, B const&) {
  if constexpr (!is_tuple_v<A>) {
    return true_type{};
  } else if constexpr (!is_tuple_v<B>) {
    return false_type{};
  } else if constexpr (tuple_size_v<A> != tuple_size_v<B>) {
    return false_type{};
  } else {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return C<(decltype(weakly_congruent(std::declval<tuple_element_t<Is, A>>(),
                                          std::declval<tuple_element_t<Is, B>>()))::value &&
                ... && true)>{};
    }(std::make_index_sequence<tuple_size_v<A>>{});
  }
}

// compatible(a, b): size(a) == size(b) and every coordinate of a is a coordinate of b.
// 24 ~ (4,6) ~ ((2,2),6). Static when decidable from the types.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto compatible(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> == tuple_size_v<B>) {
      return fold(transform(a, b, [](auto const& x, auto const& y) { return compatible(x, y); }),
                  true_type{}, [](auto const& acc, auto const& v) { return and_(acc, v); });
    } else {
      return false_type{};
    }
  } else if constexpr (is_tuple_v<A>) {
    return false_type{};
  } else {
    return a == size(b);
  }
}

// Equality of IntTuples: same structure and values (static when decidable).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto equal(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> == tuple_size_v<B>) {
      return fold(transform(a, b, [](auto const& x, auto const& y) { return equal(x, y); }),
                  true_type{}, [](auto const& acc, auto const& v) { return and_(acc, v); });
    } else {
      return false_type{};
    }
  } else if constexpr (is_tuple_v<A> || is_tuple_v<B>) {
    return false_type{};
  } else {
    return a == b;
  }
}
template <class... As, class... Bs>
TESSERA_HOST_DEVICE constexpr auto operator==(tuple<As...> const& a, tuple<Bs...> const& b) {
  return equal(a, b);
}
template <class... As, class... Bs>
TESSERA_HOST_DEVICE constexpr auto operator!=(tuple<As...> const& a, tuple<Bs...> const& b) {
  return !equal(a, b);
}

// ---- division --------------------------------------------------------------------------------

namespace detail {
// Integer shape_div with Tessera's rule: b | a -> a/b; a | b -> 1; otherwise an error.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto shape_div_int(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    static_assert(B::value != 0 && (A::value % B::value == 0 || (A::value != 0 && B::value % A::value == 0)),
                  "shape_div: the two integers do not divide one another; pick sizes where one "
                  "divides the other (e.g. pad the shape to a multiple of the tile)");
    if constexpr (A::value % B::value == 0) {
      return C<A::value / B::value>{};
    } else {
      return C<(A::value / B::value != 0 ? A::value / B::value : ((A::value < 0) != (B::value < 0) ? -1 : 1))>{};
    }
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    R const x = R(a), y = R(b);
    TESSERA_REQUIRE(y != 0 && (x % y == 0 || (x != 0 && y % x == 0)),
                    "shape_div: the two integers do not divide one another; pick sizes where one "
                    "divides the other (e.g. pad the shape to a multiple of the tile)",
                    x, y);
    // As the static branch: x / y when y divides x (0 for x == 0), else the sign of x / y.
    return (x % y == 0) ? R(x / y) : R((x < 0) != (y < 0) ? -1 : 1);
  }
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto ceil_div_int(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    static_assert(B::value > 0, "ceil_div: the divisor must be positive");
    return C<(A::value + B::value - 1) / B::value>{};
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    R const x = R(a), y = R(b);
    TESSERA_REQUIRE(y > 0, "ceil_div: the divisor must be positive", x, y);
    return R((x + y - 1) / y);
  }
}
}  // namespace detail

// shape_div(a, b): exact "a / b" for shapes. Tuple/tuple: leafwise. Tuple/int: folds left to
// right, each mode divided by what remains. Int/tuple: a / product(b).
// shape_div((4,6), 8) == (1,3); shape_div(3, 6) == 1.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> == tuple_size_v<B>, "shape_div: the two tuples must have the same rank");
    return transform(a, b, [](auto const& x, auto const& y) { return shape_div(x, y); });
  } else if constexpr (is_tuple_v<A>) {
    auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& acc, auto const& ai) {
      return make_tuple(append(get<0>(acc), shape_div(ai, get<1>(acc))), shape_div(get<1>(acc), ai));
    });
    return get<0>(r);
  } else if constexpr (is_tuple_v<B>) {
    return shape_div(a, product(b));
  } else {
    return detail::shape_div_int(a, b);
  }
}

// ceil_div(a, b): rounding-up division with shape_div's structure: for a tuple a and integer b, mode i takes ceil_div(a_i, rest), rest = ceil_div(rest, a_i).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> == tuple_size_v<B>, "ceil_div: the two tuples must have the same rank");
    return transform(a, b, [](auto const& x, auto const& y) { return ceil_div(x, y); });
  } else if constexpr (is_tuple_v<A>) {
    auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& acc, auto const& ai) {
      return make_tuple(append(get<0>(acc), ceil_div(ai, get<1>(acc))), ceil_div(get<1>(acc), ai));
    });
    return get<0>(r);
  } else if constexpr (is_tuple_v<B>) {
    return ceil_div(a, product(b));
  } else {
    return detail::ceil_div_int(a, b);
  }
}

// prefix_product(t, init): exclusive products, colexicographic, nested like t.
// prefix_product((2,(3,4))) == (_1,(2,6)).
template <class T, class Init = _1>
TESSERA_HOST_DEVICE constexpr auto prefix_product(T const& t, Init const& init = {}) {
  if constexpr (is_tuple_v<T>) {
    auto r = fold(t, make_tuple(tuple<>{}, init), [](auto const& acc, auto const& x) {
      return make_tuple(append(get<0>(acc), prefix_product(x, get<1>(acc))), get<1>(acc) * product(x));
    });
    return get<0>(r);
  } else {
    return init;
  }
}

// ---- coordinates -----------------------------------------------------------------------------

// idx2crd(i, shape): the natural coordinate of 1-D index i, colexicographic; the last mode is
// not reduced. A tuple coordinate is mapped mode by mode. idx2crd(16, (3,(2,3))) == (1,(1,2)).
template <class Idx, class Shape>
TESSERA_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, Shape const& shape) {
  if constexpr (is_tuple_v<Idx>) {
    static_assert(is_tuple_v<Shape> && tuple_size_v<Idx> == tuple_size_v<Shape>,
                  "idx2crd: a tuple coordinate needs a shape of the same rank");
    return transform(idx, shape, [](auto const& i, auto const& s) { return idx2crd(i, s); });
  } else if constexpr (is_tuple_v<Shape>) {
    constexpr int R = tuple_size_v<Shape>;
    if constexpr (R == 0) {
      return tuple<>{};
    } else {
      auto r = fold(take<0, R - 1>(shape), make_tuple(tuple<>{}, idx), [](auto const& acc, auto const& s) {
        auto sz = product(s);
        return make_tuple(append(get<0>(acc), idx2crd(get<1>(acc) % sz, s)), get<1>(acc) / sz);
      });
      return append(get<0>(r), idx2crd(get<1>(r), get<R - 1>(shape)));
    }
  } else {
    return idx;
  }
}

// crd2idx(c, shape, stride): the offset of coordinate c. An integer coordinate on a tuple shape
// is first split as in idx2crd. crd2idx(16, (3,(2,3)), (3,(12,1))) == 17.
template <class Crd, class Shape, class Stride>
TESSERA_HOST_DEVICE constexpr auto crd2idx(Crd const& c, Shape const& shape, Stride const& stride) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<Shape> && tuple_size_v<Crd> == tuple_size_v<Shape>,
                  "crd2idx: a tuple coordinate needs a shape of the same rank (use a 1-D index or a "
                  "coordinate with one entry per mode)");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return (_0{} + ... + crd2idx(get<Is>(c), get<Is>(shape), get<Is>(stride)));
    }(std::make_index_sequence<tuple_size_v<Crd>>{});
  } else if constexpr (is_tuple_v<Shape>) {
    constexpr int R = tuple_size_v<Shape>;
    if constexpr (R == 0) {
      return _0{};
    } else {
      auto r = fold(make_seq_tuple<R - 1>(), make_tuple(_0{}, c), [&](auto const& acc, auto i) {
        constexpr int I = decltype(i)::value;
        auto sz = product(get<I>(shape));
        return make_tuple(get<0>(acc) + crd2idx(get<1>(acc) % sz, get<I>(shape), get<I>(stride)),
                          get<1>(acc) / sz);
      });
      return get<0>(r) + crd2idx(get<1>(r), get<R - 1>(shape), get<R - 1>(stride));
    }
  } else {
    return c * stride;
  }
}


// ---- comparisons -----------------------------------------------------------------------------

// elem_less(a, b): every leaf of a is < its counterpart in b (used for predication).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_less(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> <= tuple_size_v<B>,
                  "elem_less: the coordinate has more modes than the bound");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return fold(make_tuple(elem_less(get<Is>(a), get<Is>(b))...), true_type{},
                  [](auto const& acc, auto const& v) { return and_(acc, v); });
    }(std::make_index_sequence<tuple_size_v<A>>{});
  } else {
    return a < b;
  }
}

namespace detail {
// Leaves I.. of two flat tuples compared lexicographically: a_I < b_I, or a_I == b_I and the rest
// is less. Static when decidable from the types (a static pair that differs decides alone).
template <int I, class FA, class FB>
TESSERA_HOST_DEVICE constexpr auto lex_less_from(FA const& a, FB const& b) {
  if constexpr (I == tuple_size_v<FA>) {
    return false_type{};
  } else {
    return or_(get<I>(a) < get<I>(b), and_(get<I>(a) == get<I>(b), lex_less_from<I + 1>(a, b)));
  }
}
}  // namespace detail

// lex_less(a, b) compares the flattened leaves from the first, colex_less from the last. Pre: the
// same number of leaves. Static when decidable from the types, like compatible:
// lex_less((_1,_2),(_2,_1)) == _true, lex_less((_1,5),(_2,0)) == _true, lex_less((1,5),(2,0)) == true.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lex_less(A const& a, B const& b) {
  auto fa = flatten_to_tuple(a);
  auto fb = flatten_to_tuple(b);
  static_assert(tuple_size_v<decltype(fa)> == tuple_size_v<decltype(fb)>,
                "lex_less: the two IntTuples must have the same number of leaves");
  return detail::lex_less_from<0>(fa, fb);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto colex_less(A const& a, B const& b) {
  return lex_less(reverse(flatten_to_tuple(a)), reverse(flatten_to_tuple(b)));
}

}  // namespace tessera
