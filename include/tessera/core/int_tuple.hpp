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
    return fold(transform(a, b, [](auto const& x, auto const& y) { return inner_product(x, y); }), _0{},
                [](auto const& s, auto const& x) { return s + x; });
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
    return fold(t, tuple<>{}, [](auto const& acc, auto const& x) { return tuple_cat(acc, flatten_to_tuple(x)); });
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

// insert<N>(t, x): t with x inserted as mode N (0 <= N <= rank(t)); the modes from N on move up.
// Pre: t is a tuple. Post: rank grows by one, get<N>(result) == x.
// insert<1>((2,3,5), _4) == (2,_4,3,5).
template <int N, class T, class X>
TESSERA_HOST_DEVICE constexpr auto insert(T const& t, X const& x) {
  static_assert(is_tuple_v<T>, "insert<N>(t, x): t must be a tuple; wrap an integer first: insert<N>(wrap(t), x)");
  static_assert(0 <= N && N <= rank_v<T>, "insert<N>(t, x): need 0 <= N <= rank(t)");
  return tuple_cat(take<0, N>(t), make_tuple(x), take<N, rank_v<T>>(t));
}

// replace_front(t, x) / replace_back(t, x): t with its first / last top-level mode replaced by x;
// for an integer t, x itself. Post: rank unchanged for a tuple.
// replace_front((2,(3,4)), _8) == (_8,(3,4)); replace_back((2,(3,4)), _8) == (2,_8); replace_back(5, 7) == 7.
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto replace_front(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> >= 1, "replace_front: the empty tuple has no first mode");
    return replace<0>(t, x);
  } else {
    return x;
  }
}
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto replace_back(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> >= 1, "replace_back: the empty tuple has no last mode");
    return replace<rank_v<T> - 1>(t, x);
  } else {
    return x;
  }
}

// front(t) / back(t): the first / last leaf of t, descending through nested tuples; an integer is
// its own front and back. Pre: no empty tuple on the way. front(((2,3),4)) == 2; back((2,(3,4))) == 4.
template <class T>
TESSERA_HOST_DEVICE constexpr auto front(T const& t) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> >= 1, "front: the empty tuple has no first element");
    return front(get<0>(t));
  } else {
    return t;
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr auto back(T const& t) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> >= 1, "back: the empty tuple has no last element");
    return back(get<rank_v<T> - 1>(t));
  } else {
    return t;
  }
}

// apply(t, f) = f(t0, t1, ..., tn-1): the top-level modes as the arguments of f.
// apply((2,3,4), [](auto... x) { return (x + ...); }) == 9.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr decltype(auto) apply(T const& t, F&& f) {
  static_assert(is_tuple_v<T>, "apply(t, f): t must be a tuple (its modes become f's arguments)");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) -> decltype(auto) {
    return f(get<Is>(t)...);
  }(std::make_index_sequence<tuple_size_v<T>>{});
}

// zip(t): transposes a tuple of equal-rank tuples: ((a,b,c),(A,B,C)) -> ((a,A),(b,B),(c,C)). A
// tuple whose first mode is not a tuple is wrapped, (a,b) -> ((a,b)); an integer stays as it is.
// zip(t0, t1, ...) = zip((t0, t1, ...)). Pre: every mode of t has the rank of the first.
// Post: get<j>(get<i>(result)) == get<i>(get<j>(t)). zip((2,3),(4,5)) == ((2,4),(3,5)).
template <class T>
TESSERA_HOST_DEVICE constexpr auto zip(T const& t) {
  if constexpr (!is_tuple_v<T>) {
    return t;
  } else if constexpr (tuple_size_v<T> == 0) {
    return tuple<>{};
  } else if constexpr (!is_tuple_v<tuple_element_t<0, T>>) {
    return make_tuple(t);
  } else {
    constexpr int R0 = tuple_size_v<tuple_element_t<0, T>>;
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      static_assert(((is_tuple_v<tuple_element_t<Is, T>> && rank_v<tuple_element_t<Is, T>> == R0) && ...),
                    "zip: every mode must be a tuple of the same rank as the first (pad them with append<N>)");
      auto column = [&](auto j) { return make_tuple(get<decltype(j)::value>(get<Is>(t))...); };
      return [&]<std::size_t... Js>(std::index_sequence<Js...>) {
        return make_tuple(column(C<int(Js)>{})...);
      }(std::make_index_sequence<R0>{});
    }(std::make_index_sequence<tuple_size_v<T>>{});
  }
}
template <class T0, class T1, class... Ts>
TESSERA_HOST_DEVICE constexpr auto zip(T0 const& t0, T1 const& t1, Ts const&... ts) {
  return zip(make_tuple(t0, t1, ts...));
}

namespace detail {
// (the part of flat tuple f from leaf Offset shaped like profile p, the next unused leaf index).
template <int Offset, class F, class P>
TESSERA_HOST_DEVICE constexpr auto unflatten_from(F const& f, P const& p) {
  if constexpr (is_tuple_v<P>) {
    return fold(p, make_tuple(tuple<>{}, C<Offset>{}), [&](auto const& acc, auto const& pi) {
      constexpr int O = decltype(get<1>(acc))::value;
      auto sub = unflatten_from<O>(f, pi);
      return make_tuple(append(get<0>(acc), get<0>(sub)), get<1>(sub));
    });
  } else {
    static_assert(Offset < rank_v<F>, "unflatten: the flat tuple has fewer elements than the profile has leaves");
    return make_tuple(get<Offset>(f), C<Offset + 1>{});
  }
}
}  // namespace detail

// unflatten(f, profile): the flat tuple f regrouped with the nesting of profile (only the profile's
// structure matters, not its values). Pre: f is flat and has as many elements as profile has
// leaves. Post: congruent(result, profile), flatten(result) == f.
// unflatten((2,3,4,5), ((_,_),(_,_))) == ((2,3),(4,5)); unflatten((2,3,4), (1,(1,1))) == (2,(3,4)).
template <class F, class P>
TESSERA_HOST_DEVICE constexpr auto unflatten(F const& f, P const& profile) {
  static_assert(!is_tuple_v<F> || decltype(depth(f))::value <= 1,
                "unflatten(f, profile): f must be flat (no nested tuples); flatten it first");
  auto ft = wrap(f);
  constexpr int leaves = tuple_size_v<decltype(flatten_to_tuple(profile))>;
  static_assert(leaves == rank_v<decltype(ft)>,
                "unflatten(f, profile): f must have exactly as many elements as profile has leaves");
  return get<0>(detail::unflatten_from<0>(ft, profile));
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
      return fold(transform(a, b, [](auto const& x, auto const& y) { return compatible(x, y); }), true_type{},
                  [](auto const& acc, auto const& v) { return and_(acc, v); });
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
      return fold(transform(a, b, [](auto const& x, auto const& y) { return equal(x, y); }), true_type{},
                  [](auto const& acc, auto const& v) { return and_(acc, v); });
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

// ---- searching ------------------------------------------------------------------------------

// find_if(t, f): the index of the first top-level mode x with f(x) statically true, as a static
// integer; rank(t) when there is none. For an integer t: _0 if f(t) is statically true, else _1.
// Pre: f returns a static boolean (C<true>/C<false>) for every mode.
// find_if((2,_1,_3), [](auto x) { return C<is_static_v<decltype(x)>>{}; }) == _1.
namespace detail {
template <class R>
inline constexpr bool static_true_v = [] {
  if constexpr (is_static_int_v<R>) {
    return bool(R::value);
  } else {
    return false;
  }
}();
}  // namespace detail
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto find_if(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      constexpr bool hits[] = {detail::static_true_v<decltype(f(get<Is>(t)))>..., true};
      constexpr int n = int(sizeof...(Is));
      constexpr int found = [&] {
        for (int i = 0; i < n; ++i) {
          if (hits[i]) return i;
        }
        return n;
      }();
      return C<found>{};
    }(std::make_index_sequence<tuple_size_v<T>>{});
  } else {
    return C<(detail::static_true_v<decltype(f(t))> ? 0 : 1)>{};
  }
}
// find(t, x): the index of the first top-level mode statically equal to x (find_if with ==), as a
// static integer, rank(t) if none. find((_2,_1,_3), _1) == _1; find((2,_1), _4) == _2.
template <class T, class X>
TESSERA_HOST_DEVICE constexpr auto find(T const& t, X const& x) {
  return find_if(t, [&](auto const& v) { return equal(v, x); });
}

// any_of(t, f) / all_of(t, f) / none_of(t, f) over the top-level modes of t (t itself for an
// integer). Static when decidable from the types (a static true decides any_of, a static false
// all_of), dynamic bool otherwise. any_of((_1,x), is one) == _true; all_of((), f) == _true.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto any_of(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, false_type{}, [&](auto const& acc, auto const& x) { return or_(acc, f(x)); });
  } else {
    return f(t);
  }
}
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto all_of(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return fold(t, true_type{}, [&](auto const& acc, auto const& x) { return and_(acc, f(x)); });
  } else {
    return f(t);
  }
}
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto none_of(T const& t, F&& f) {
  return !any_of(t, f);
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

// round_up(a, b): a rounded up to a multiple of b. Integers: ceil_div(a, b) * b (Pre: b > 0).
// Tuples: mode by mode, b's missing trailing modes count as _1 (Pre: rank(a) >= rank(b)).
// Post: result >= a leafwise, b divides each result leaf. Static iff both operands are.
// round_up(13, _4) == 16; round_up((_5,(7,_8)), (_4,(2,_3))) == (_8,(8,_9)); round_up((5,6), (4)) == (8,6).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto round_up(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> >= tuple_size_v<B>,
                  "round_up(a, b): b has more modes than a; give b at most rank(a) modes (missing ones count as _1)");
    return transform(a, append<int(tuple_size_v<A>)>(b, _1{}),
                     [](auto const& x, auto const& y) { return round_up(x, y); });
  } else {
    static_assert(!is_tuple_v<A> && !is_tuple_v<B>,
                  "round_up(a, b): a tuple paired with an integer; round a tuple by a tuple of per-mode multiples");
    if constexpr (is_static_int_v<B>) {
      static_assert(B::value > 0, "round_up(a, b): the multiple b must be positive");
    } else {
      TESSERA_REQUIRE(b > 0, "round_up(a, b): the multiple b must be positive", a, b);
    }
    return detail::ceil_div_int(a, b) * b;
  }
}

// elem_scale(a, b): a with each leaf multiplied by the size of its counterpart in b (b is
// weakly congruent: a leaf of a may face a sub-tuple of b). Post: congruent(result, a).
// elem_scale((2,3), (4,(2,3))) == (8,18); elem_scale(_2, (_3,_4)) == _24.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_scale(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>,
                  "elem_scale(a, b): a tuple a needs a tuple b of the same rank (b weakly congruent to a)");
    return transform(a, b, [](auto const& x, auto const& y) { return elem_scale(x, y); });
  } else {
    return a * product(b);
  }
}

// filter_zeros(a, b): b with every part that faces a static _0 in a replaced by _1 (a whole sub-tuple
// of b facing a _0 leaf becomes _1s of its profile); filter_zeros(t) = filter_zeros(t, t).
// Pre: a weakly congruent to b. Post: congruent(result, b). Used on (stride, shape): the modes of
// stride _0 get size _1. filter_zeros((_0,2,(_0,3)), (4,5,(6,7))) == (_1,5,(_1,7)).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto filter_zeros(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>,
                  "filter_zeros(a, b): a tuple a needs a tuple b of the same rank (a weakly congruent to b)");
    return transform(a, b, [](auto const& x, auto const& y) { return filter_zeros(x, y); });
  } else if constexpr (is_constant_v<0, A>) {
    return repeat_like(b, _1{});
  } else {
    return b;
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr auto filter_zeros(T const& t) {
  return filter_zeros(t, t);
}

// ---- integer functions: gcd, lcm, bit_width, log_2 -------------------------------------------

namespace detail {
template <class T>
TESSERA_HOST_DEVICE constexpr T abs_value(T a) {
  if constexpr (std::is_signed_v<T>) {
    return a < 0 ? T(-a) : a;
  } else {
    return a;
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr T gcd_value(T a, T b) {
  a = abs_value(a);
  b = abs_value(b);
  while (b != 0) {
    T const r = T(a % b);
    a = b;
    b = r;
  }
  return a;
}
template <class T>
TESSERA_HOST_DEVICE constexpr T lcm_value(T a, T b) {
  if (a == 0 || b == 0) return T(0);
  return T(abs_value(a) / gcd_value(a, b) * abs_value(b));
}
template <class T>
TESSERA_HOST_DEVICE constexpr T bit_width_value(T x) {
  T n = 0;
  while (x != 0) {
    x = T(x >> 1);
    ++n;
  }
  return n;
}
}  // namespace detail

// gcd(a, b): the greatest common divisor, >= 0 (gcd(0, 0) == 0). lcm(a, b): the least common
// multiple, >= 0 (0 if either is 0). Static iff both are static (then computed at compile time).
// gcd(_12, _18) == _6; gcd(12, _18) == 6; lcm(_4, _6) == _12. (CuTe: the same on positive operands.)
template <Integer A, Integer B>
TESSERA_HOST_DEVICE constexpr auto gcd(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    using R = std::common_type_t<typename A::value_type, typename B::value_type>;
    return C<detail::gcd_value<R>(R(A::value), R(B::value))>{};
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    return detail::gcd_value<R>(R(a), R(b));
  }
}
template <Integer A, Integer B>
TESSERA_HOST_DEVICE constexpr auto lcm(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    using R = std::common_type_t<typename A::value_type, typename B::value_type>;
    return C<detail::lcm_value<R>(R(A::value), R(B::value))>{};
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    return detail::lcm_value<R>(R(a), R(b));
  }
}

// gcd(t) / gcd(t0, t1, ...): the gcd of every leaf of the IntTuples given (CuTe's variadic form):
// gcd((_4,(_8,_12))) == _4; gcd(_6, (_4,10)) == 2. gcd of a single integer is that integer.
template <Integer A>
TESSERA_HOST_DEVICE constexpr auto gcd(A const& a) {
  return a;
}
template <class T>
  requires is_tuple_v<T>
TESSERA_HOST_DEVICE constexpr auto gcd(T const& t) {
  static_assert(tuple_size_v<T> >= 1, "gcd: the empty tuple has no gcd");
  return fold(take<1, int(tuple_size_v<T>)>(t), gcd(get<0>(t)),
              [](auto const& g, auto const& x) { return gcd(g, gcd(x)); });
}
template <class A, class B, class... Ts>
  requires(!(Integer<A> && Integer<B> && sizeof...(Ts) == 0))
TESSERA_HOST_DEVICE constexpr auto gcd(A const& a, B const& b, Ts const&... ts) {
  if constexpr (sizeof...(Ts) == 0) {
    return gcd(gcd(a), gcd(b));
  } else {
    return gcd(gcd(a), gcd(b, ts...));
  }
}

// bit_width(x): the number of bits needed for x (0 for 0): bit_width(_8) == _4, bit_width(7) == 3.
// log_2(x) = bit_width(x) - 1, the floor of log2 x: log_2(_8) == _3, log_2(9) == 3.
// Pre: x >= 0 (bit_width), x > 0 (log_2). Static iff x is; a dynamic result has x's type (log_2: int).
template <Integer T>
TESSERA_HOST_DEVICE constexpr auto bit_width(T const& x) {
  if constexpr (is_static_int_v<T>) {
    static_assert(T::value >= 0, "bit_width(x): x must be >= 0 (bit_width counts the bits of a non-negative value)");
    return C<detail::bit_width_value(T::value)>{};
  } else {
    TESSERA_REQUIRE(x >= 0, "bit_width(x): x must be >= 0 (bit_width counts the bits of a non-negative value)", x);
    return detail::bit_width_value(x);
  }
}
template <Integer T>
TESSERA_HOST_DEVICE constexpr auto log_2(T const& x) {
  if constexpr (is_static_int_v<T>) {
    static_assert(T::value > 0, "log_2(x): x must be positive; log_2 is the floor of log2 x, undefined for x <= 0");
    return C<int(detail::bit_width_value(T::value)) - 1>{};
  } else {
    TESSERA_REQUIRE(x > 0, "log_2(x): x must be positive; log_2 is the floor of log2 x, undefined for x <= 0", x);
    return int(detail::bit_width_value(x)) - 1;
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
        return make_tuple(get<0>(acc) + crd2idx(get<1>(acc) % sz, get<I>(shape), get<I>(stride)), get<1>(acc) / sz);
      });
      return get<0>(r) + crd2idx(get<1>(r), get<R - 1>(shape), get<R - 1>(stride));
    }
  } else {
    return c * stride;
  }
}

// idx2crd(i, shape, stride): the coordinate of offset i in the compact layout shape:stride, every
// mode taking (i / stride) % shape (the last mode reduced too, unlike idx2crd(i, shape)); a static
// size-1 mode gives _0. An integer stride on a tuple shape means compact_col_major(shape, stride);
// a tuple i maps mode by mode. Pre: shape:stride is compact (a bijection onto [0, size)) and i is
// in its image. Post: crd2idx(result, shape, stride) == i.
// idx2crd(7, (2,4), (4,1)) == (1,3); idx2crd(7, (2,4), 1) == (1,3) with col-major strides (1,2).
template <class Idx, class Shape, class Stride>
TESSERA_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, Shape const& shape, Stride const& stride) {
  if constexpr (is_tuple_v<Idx>) {
    static_assert(is_tuple_v<Shape> && is_tuple_v<Stride> && tuple_size_v<Idx> == tuple_size_v<Shape> &&
                      tuple_size_v<Idx> == tuple_size_v<Stride>,
                  "idx2crd(i, shape, stride): a tuple i needs a shape and a stride of the same rank");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(idx2crd(get<Is>(idx), get<Is>(shape), get<Is>(stride))...);
    }(std::make_index_sequence<tuple_size_v<Idx>>{});
  } else if constexpr (is_tuple_v<Shape>) {
    if constexpr (is_tuple_v<Stride>) {
      static_assert(tuple_size_v<Shape> == tuple_size_v<Stride>,
                    "idx2crd(i, shape, stride): the shape and the stride must have the same rank");
      return transform(shape, stride, [&](auto const& s, auto const& d) { return idx2crd(idx, s, d); });
    } else {
      return idx2crd(idx, shape, prefix_product(shape, stride));
    }
  } else {
    static_assert(!is_tuple_v<Stride>, "idx2crd(i, shape, stride): an integer shape needs an integer stride");
    if constexpr (is_constant_v<1, Shape>) {
      return _0{};
    } else {
      if constexpr (is_static_int_v<Stride>) {
        static_assert(Stride::value != 0,
                      "idx2crd(i, shape, stride): a mode of size > 1 has stride 0, so the layout is "
                      "not compact and no coordinate is found; filter_zeros the layout first");
      } else {
        TESSERA_REQUIRE(stride != 0,
                        "idx2crd(i, shape, stride): a mode of size > 1 has stride 0, so the layout is "
                        "not compact and no coordinate is found; filter_zeros the layout first",
                        shape, stride);
      }
      return (idx / stride) % shape;
    }
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

// The other orders, each from its *_less (CuTe's definitions for lex and colex, total orders):
// lex_leq(a, b) = !lex_less(b, a), lex_gtr(a, b) = lex_less(b, a), lex_geq(a, b) = !lex_less(a, b),
// and the same for colex_. Static when the underlying comparison is. lex_leq((1,2),(1,2)) == true.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lex_leq(A const& a, B const& b) {
  return !lex_less(b, a);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lex_gtr(A const& a, B const& b) {
  return lex_less(b, a);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto lex_geq(A const& a, B const& b) {
  return !lex_less(a, b);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto colex_leq(A const& a, B const& b) {
  return !colex_less(b, a);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto colex_gtr(A const& a, B const& b) {
  return colex_less(b, a);
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto colex_geq(A const& a, B const& b) {
  return !colex_less(a, b);
}

namespace detail {
// Every leaf pair (x, y) of a and b (b may have extra top-level modes) satisfies cmp(x, y).
template <class A, class B, class Cmp>
TESSERA_HOST_DEVICE constexpr auto elem_all(A const& a, B const& b, Cmp const& cmp) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_size_v<A> <= tuple_size_v<B>,
                  "elem_leq/elem_gtr/elem_geq: the coordinate has more modes than the bound");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return fold(make_tuple(elem_all(get<Is>(a), get<Is>(b), cmp)...), true_type{},
                  [](auto const& acc, auto const& v) { return and_(acc, v); });
    }(std::make_index_sequence<tuple_size_v<A>>{});
  } else {
    static_assert(!is_tuple_v<B>, "elem_leq/elem_gtr/elem_geq: an integer faces a tuple; make them congruent");
    return cmp(a, b);
  }
}
}  // namespace detail

// elem_leq(a, b) / elem_gtr(a, b) / elem_geq(a, b): every leaf of a is <= / > / >= its counterpart
// in b, with elem_less's structure (b may have extra modes). Static when decidable.
// elem_leq((1,3),(1,4)) == true; elem_geq((_4,_2),(_3,_2)) == _true; elem_gtr((_4,_2),(_3,_2)) == _false.
// Tessera rule: for a tuple of rank >= 2 CuTe defines elem_leq(a, b) as !elem_less(b, a) ("some
// leaf of a is <= b's") and elem_geq as !elem_less(a, b); Tessera's are "every leaf" (elem_gtr
// and every integer case agree with CuTe).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_leq(A const& a, B const& b) {
  return detail::elem_all(a, b, [](auto const& x, auto const& y) { return x <= y; });
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_gtr(A const& a, B const& b) {
  return detail::elem_all(a, b, [](auto const& x, auto const& y) { return x > y; });
}
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto elem_geq(A const& a, B const& b) {
  return detail::elem_all(a, b, [](auto const& x, auto const& y) { return x >= y; });
}

}  // namespace tessera
