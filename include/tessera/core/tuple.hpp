// tuple: a minimal constexpr tuple usable in host and device code. A tuple whose elements are
// all empty types (static integers, tuples of them) is itself empty, so static shapes, strides
// and layouts cost no storage and no registers.
#pragma once

#include "tessera/core/integer.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

namespace detail {
// One element of a tuple. Empty element types store nothing and are rebuilt on access.
template <std::size_t I, class T, bool = std::is_empty_v<T>>
struct tuple_leaf {
  T value_;
  TESSERA_HOST_DEVICE constexpr tuple_leaf() : value_{} {}
  TESSERA_HOST_DEVICE constexpr tuple_leaf(T const& v) : value_(v) {}
  TESSERA_HOST_DEVICE constexpr T& get() { return value_; }
  TESSERA_HOST_DEVICE constexpr T const& get() const { return value_; }
};
template <std::size_t I, class T>
struct tuple_leaf<I, T, true> {
  constexpr tuple_leaf() = default;
  TESSERA_HOST_DEVICE constexpr tuple_leaf(T const&) {}
  TESSERA_HOST_DEVICE constexpr T get() const { return T{}; }
};

template <class Seq, class... Ts>
struct tuple_base;
template <std::size_t... Is, class... Ts>
struct tuple_base<std::index_sequence<Is...>, Ts...> : tuple_leaf<Is, Ts>... {
  constexpr tuple_base() = default;
  TESSERA_HOST_DEVICE constexpr tuple_base(Ts const&... vs)
    requires(sizeof...(Ts) > 0)
      : tuple_leaf<Is, Ts>(vs)... {}
};
}  // namespace detail

template <class... Ts>
struct tuple : detail::tuple_base<std::index_sequence_for<Ts...>, Ts...> {
  using base = detail::tuple_base<std::index_sequence_for<Ts...>, Ts...>;
  constexpr tuple() = default;
  TESSERA_HOST_DEVICE constexpr tuple(Ts const&... vs)
    requires(sizeof...(Ts) > 0)
      : base(vs...) {}
};

template <class T>
struct is_tuple : std::false_type {};
template <class... Ts>
struct is_tuple<tuple<Ts...>> : std::true_type {};
template <class T>
inline constexpr bool is_tuple_v = is_tuple<std::remove_cvref_t<T>>::value;

template <class T>
struct tuple_size;
template <class... Ts>
struct tuple_size<tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <class T>
inline constexpr std::size_t tuple_size_v = tuple_size<std::remove_cvref_t<T>>::value;

template <std::size_t I, class T>
struct tuple_element;
template <std::size_t I, class T0, class... Ts>
struct tuple_element<I, tuple<T0, Ts...>> : tuple_element<I - 1, tuple<Ts...>> {};
template <class T0, class... Ts>
struct tuple_element<0, tuple<T0, Ts...>> {
  using type = T0;
};
template <std::size_t I, class T>
using tuple_element_t = typename tuple_element<I, std::remove_cvref_t<T>>::type;

// get<I>(t): element I of a tuple. For a non-tuple (an integer), get<0> is the value itself,
// so algorithms can treat an integer as a rank-1 IntTuple.
template <std::size_t I, class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) get(T&& t) {
  using U = std::remove_cvref_t<T>;
  if constexpr (is_tuple_v<U>) {
    static_assert(I < tuple_size_v<U>, "get<I>: index I is out of range for this tuple");
    using E = tuple_element_t<I, U>;
    return static_cast<detail::tuple_leaf<I, E> const&>(t).get();
  } else {
    static_assert(I == 0, "get<I>: an integer has a single mode, use get<0>");
    return U(t);
  }
}

// Nested access: get<I, J, K>(t) == get<K>(get<J>(get<I>(t))).
template <std::size_t I0, std::size_t I1, std::size_t... Is, class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) get(T&& t) {
  return get<I1, Is...>(get<I0>(static_cast<T&&>(t)));
}

// make_tuple(2, _4{}) == (2,_4): a tuple of the given values (static ones stay empty).
template <class... Ts>
TESSERA_HOST_DEVICE constexpr tuple<Ts...> make_tuple(Ts const&... ts) {
  return tuple<Ts...>(ts...);
}

// ---- generic tuple algorithms ---------------------------------------------------------------

// for_each(t, f): f(get<i>(t)) for every element, in order.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr void for_each(T const& t, F&& f) {
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    (f(get<Is>(t)), ...);
  }(std::make_index_sequence<tuple_size_v<T>>{});
}

// for_each_index<N>(f): f(C<i>{}) for i in [0, N).
template <std::size_t N, class F>
TESSERA_HOST_DEVICE constexpr void for_each_index(F&& f) {
  [&]<std::size_t... Is>(std::index_sequence<Is...>) { (f(C<int(Is)>{}), ...); }(std::make_index_sequence<N>{});
}

// transform(t, f) = (f(t0), f(t1), ...); transform(a, b, f) = (f(a0,b0), ...).
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto transform(T const& t, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(f(get<Is>(t))...);
  }(std::make_index_sequence<tuple_size_v<T>>{});
}
template <class A, class B, class F>
TESSERA_HOST_DEVICE constexpr auto transform(A const& a, B const& b, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(f(get<Is>(a), get<Is>(b))...);
  }(std::make_index_sequence<tuple_size_v<A>>{});
}

namespace detail {
template <class V, class F>
TESSERA_HOST_DEVICE constexpr auto fold_impl(V const& v, F&) {
  return v;
}
template <class V, class F, class X, class... Xs>
TESSERA_HOST_DEVICE constexpr auto fold_impl(V const& v, F& f, X const& x, Xs const&... xs) {
  return fold_impl(f(v, x), f, xs...);
}
}  // namespace detail

// fold(t, init, f) = f(...f(f(init, t0), t1)..., tn-1).
template <class T, class V, class F>
TESSERA_HOST_DEVICE constexpr auto fold(T const& t, V const& init, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return detail::fold_impl(init, f, get<Is>(t)...);
  }(std::make_index_sequence<tuple_size_v<T>>{});
}

// tuple_cat(a, b): the elements of a then b.
template <class... As, class... Bs>
TESSERA_HOST_DEVICE constexpr auto tuple_cat(tuple<As...> const& a, tuple<Bs...> const& b) {
  return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
    return tuple<As..., Bs...>(get<Is>(a)..., get<Js>(b)...);
  }(std::index_sequence_for<As...>{}, std::index_sequence_for<Bs...>{});
}
template <class A, class B, class... Rest>
TESSERA_HOST_DEVICE constexpr auto tuple_cat(A const& a, B const& b, Rest const&... rest) {
  if constexpr (sizeof...(Rest) == 0) {
    return tuple_cat(a, b);
  } else {
    return tuple_cat(tuple_cat(a, b), rest...);
  }
}
TESSERA_HOST_DEVICE constexpr tuple<> tuple_cat() { return {}; }
template <class... As>
TESSERA_HOST_DEVICE constexpr auto tuple_cat(tuple<As...> const& a) {
  return a;
}

}  // namespace tessera

// Structured bindings over tuples: auto const [a, b] = t (get<I> is found by argument-dependent
// lookup). The bindings are const: get<I> returns a const reference (or, for a static element, a
// value), so a non-const `auto [a, b] = t` does not compile.
template <class... Ts>
struct std::tuple_size<tessera::tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <std::size_t I, class... Ts>
struct std::tuple_element<I, tessera::tuple<Ts...>> {
  using type = tessera::tuple_element_t<I, tessera::tuple<Ts...>>;
};
#if defined(__CUDACC_RTC__)
// The const forms, which `auto const [a, b] = t` needs. The host's <utility> provides them for
// every type; libcu++ under NVRTC (core/stdlib.hpp) declares only the primary templates.
template <class... Ts>
struct std::tuple_size<const tessera::tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <std::size_t I, class... Ts>
struct std::tuple_element<I, const tessera::tuple<Ts...>> {
  using type = const tessera::tuple_element_t<I, tessera::tuple<Ts...>>;
};
#endif  // __CUDACC_RTC__
