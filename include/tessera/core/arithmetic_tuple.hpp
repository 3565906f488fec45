// Basis-vector strides: ScaledBasis<T,N> is the value T along coordinate mode N (E<N> = 1 along
// mode N, printed `_1@N`), and ArithmeticTuple is a tuple that adds element-wise. A layout whose
// strides are basis elements maps a coordinate to a coordinate: make_identity_layout((M,N)) is
// (M,N):(_1@0,_1@1), and evaluating it at (m,n) gives the ArithmeticTuple (m,n). Dividing and
// partitioning such a layout exactly like a data layout yields, for every element a thread holds,
// its coordinate in the whole tensor: the basis of predication (elem_less(coord, shape)).
#pragma once

#include "tessera/core/int_tuple.hpp"

namespace tessera {

// ---- ArithmeticTuple ---------------------------------------------------------------------------

// A tuple with element-wise +. It is a tuple for every algebra function (get, rank, elem_less).
template <class... Ts>
struct ArithmeticTuple : tuple<Ts...> {
  using tuple<Ts...>::tuple;
  TESSERA_HOST_DEVICE constexpr ArithmeticTuple(tuple<Ts...> const& t) : tuple<Ts...>(t) {}
};
template <class... Ts>
struct is_tuple<ArithmeticTuple<Ts...>> : std::true_type {};
template <class... Ts>
struct tuple_size<ArithmeticTuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <std::size_t I, class... Ts>
struct tuple_element<I, ArithmeticTuple<Ts...>> : tuple_element<I, tuple<Ts...>> {};

template <class... Ts>
TESSERA_HOST_DEVICE constexpr ArithmeticTuple<Ts...> make_arithmetic_tuple(Ts const&... ts) {
  return ArithmeticTuple<Ts...>(ts...);
}
template <class T>
struct is_arithmetic_tuple : std::false_type {};
template <class... Ts>
struct is_arithmetic_tuple<ArithmeticTuple<Ts...>> : std::true_type {};
template <class T>
inline constexpr bool is_arithmetic_tuple_v = is_arithmetic_tuple<std::remove_cvref_t<T>>::value;

// ---- ScaledBasis ---------------------------------------------------------------------------------

namespace detail {
// The value of a basis element; nothing is stored for a static value.
template <class T, bool = std::is_empty_v<T>>
struct basis_value {
  T v_{};
  constexpr basis_value() = default;
  TESSERA_HOST_DEVICE constexpr explicit basis_value(T const& v) : v_(v) {}
  TESSERA_HOST_DEVICE constexpr T value() const { return v_; }
};
template <class T>
struct basis_value<T, true> {
  constexpr basis_value() = default;
  TESSERA_HOST_DEVICE constexpr explicit basis_value(T const&) {}
  TESSERA_HOST_DEVICE constexpr T value() const { return T{}; }
};
}  // namespace detail

// ScaledBasis<T,N>: the value T in coordinate mode N. Static (an empty type) when T is.
template <class T, int N>
struct ScaledBasis : detail::basis_value<T> {
  static_assert(N >= 0, "ScaledBasis<T,N>: the mode N must be >= 0");
  static constexpr int mode = N;
  constexpr ScaledBasis() = default;
  TESSERA_HOST_DEVICE constexpr explicit ScaledBasis(T const& v) : detail::basis_value<T>(v) {}
  template <class Sink>
  TESSERA_HOST_DEVICE void write_to(Sink& k) const;  // `_1@0`, defined in print.hpp's terms below
};
// E<N>: the unit basis element of mode N (stride of mode N in an identity layout).
template <int N>
using E = ScaledBasis<_1, N>;

template <class T>
struct is_scaled_basis : std::false_type {};
template <class T, int N>
struct is_scaled_basis<ScaledBasis<T, N>> : std::true_type {};
template <class T>
inline constexpr bool is_scaled_basis_v = is_scaled_basis<std::remove_cvref_t<T>>::value;

template <class T, int N>
TESSERA_HOST_DEVICE constexpr auto make_scaled_basis(T const& v) {
  return ScaledBasis<T, N>(v);
}

// A stride leaf: an integer or a basis element. Strides are tuples of these.
template <class T>
concept StrideLeaf = Integer<T> || is_scaled_basis_v<T>;
template <class T>
concept StrideTuple = StrideLeaf<T> || is_tuple_v<T>;

// integer * basis and basis * integer scale the value (static rules of the integers apply).
template <Integer I, class T, int N>
TESSERA_HOST_DEVICE constexpr auto operator*(I const& i, ScaledBasis<T, N> const& b) {
  return make_scaled_basis<decltype(i * b.value()), N>(i * b.value());
}
template <class T, int N, Integer I>
TESSERA_HOST_DEVICE constexpr auto operator*(ScaledBasis<T, N> const& b, I const& i) {
  return make_scaled_basis<decltype(b.value() * i), N>(b.value() * i);
}

namespace detail {
// The ArithmeticTuple of rank R holding b's value at its mode and _0 elsewhere.
template <int R, class T, int N>
TESSERA_HOST_DEVICE constexpr auto basis_to_tuple(ScaledBasis<T, N> const& b) {
  static_assert(N < R, "basis_to_tuple: the rank must exceed the basis mode");
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_arithmetic_tuple([&] {
      if constexpr (int(Is) == N) {
        return b.value();
      } else {
        return _0{};
      }
    }()...);
  }(std::make_index_sequence<R>{});
}
template <class T>
inline constexpr int arith_rank = 1;
template <class... Ts>
inline constexpr int arith_rank<ArithmeticTuple<Ts...>> = sizeof...(Ts);
template <class T, int N>
inline constexpr int arith_rank<ScaledBasis<T, N>> = N + 1;

// x as an ArithmeticTuple of rank R (x a basis element or an ArithmeticTuple of rank <= R).
template <int R, class X>
TESSERA_HOST_DEVICE constexpr auto as_arith(X const& x) {
  if constexpr (is_scaled_basis_v<X>) {
    return basis_to_tuple<R>(x);
  } else {
    constexpr int RX = tuple_size_v<X>;
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_arithmetic_tuple([&] {
        if constexpr (int(Is) < RX) {
          return get<Is>(x);
        } else {
          return _0{};
        }
      }()...);
    }(std::make_index_sequence<R>{});
  }
}
template <class X>
inline constexpr bool is_arith_v = is_scaled_basis_v<X> || is_arithmetic_tuple_v<X>;
template <class A, class B>
TESSERA_HOST_DEVICE constexpr bool same_basis_mode() {
  if constexpr (is_scaled_basis_v<A> && is_scaled_basis_v<B>) {
    return A::mode == B::mode;
  } else {
    return false;
  }
}
}  // namespace detail

// Sums of basis elements and ArithmeticTuples: element-wise, the shorter padded with _0.
// 2@0 + 3@1 == (2,3); (1,2) + 5@1 == (1,7); same-mode basis elements stay a basis element.
template <class A, class B>
  requires(detail::is_arith_v<A> && detail::is_arith_v<B>)
TESSERA_HOST_DEVICE constexpr auto operator+(A const& a, B const& b) {
  if constexpr (detail::same_basis_mode<A, B>()) {
    return make_scaled_basis<decltype(a.value() + b.value()), A::mode>(a.value() + b.value());
  } else {
    constexpr int R = detail::arith_rank<A> > detail::arith_rank<B> ? detail::arith_rank<A> : detail::arith_rank<B>;
    auto x = detail::as_arith<R>(a);
    auto y = detail::as_arith<R>(b);
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_arithmetic_tuple((get<Is>(x) + get<Is>(y))...);
    }(std::make_index_sequence<R>{});
  }
}
// _0 is the neutral element of the sums (crd2idx starts its sums at _0).
template <class B>
  requires detail::is_arith_v<B>
TESSERA_HOST_DEVICE constexpr B operator+(_0, B const& b) {
  return b;
}
template <class A>
  requires detail::is_arith_v<A>
TESSERA_HOST_DEVICE constexpr A operator+(A const& a, _0) {
  return a;
}

// Equality of basis elements: same mode and equal values (static when decidable).
template <class T, int N, class U, int M>
TESSERA_HOST_DEVICE constexpr auto operator==(ScaledBasis<T, N> const& a, ScaledBasis<U, M> const& b) {
  if constexpr (N != M) {
    return false_type{};
  } else {
    return a.value() == b.value();
  }
}
template <class T, int N, Integer I>
TESSERA_HOST_DEVICE constexpr auto operator==(ScaledBasis<T, N> const&, I const&) {
  return false_type{};
}
template <Integer I, class T, int N>
TESSERA_HOST_DEVICE constexpr auto operator==(I const&, ScaledBasis<T, N> const&) {
  return false_type{};
}

template <class T, int N>
template <class Sink>
TESSERA_HOST_DEVICE void ScaledBasis<T, N>::write_to(Sink& k) const {
  if constexpr (is_static_int_v<T>) {
    k.put("_");
    k.put_int(static_cast<long long>(T::value));
  } else {
    k.put_int(static_cast<long long>(this->value()));
  }
  k.put("@");
  k.put_int(N);
}

// make_identity_layout(shape): the layout mapping each coordinate to itself, as an ArithmeticTuple
// with one entry per top-level mode (a nested mode gives its 1-D index). An integer shape gives
// the plain n:_1. make_identity_layout((M,N)) == (M,N):(_1@0,_1@1); evaluated at (2,3): (2,3).
namespace detail {
// The strides of top-level mode I of an identity layout: its prefix products along E<I>.
template <int I, class Mode>
TESSERA_HOST_DEVICE constexpr auto identity_mode_strides(Mode const& mode) {
  return transform_leaf(prefix_product(mode),
                        [](auto const& d) { return make_scaled_basis<std::remove_cvref_t<decltype(d)>, I>(d); });
}
template <class Shape, std::size_t... Is>
TESSERA_HOST_DEVICE constexpr auto identity_strides(Shape const& shape, std::index_sequence<Is...>) {
  return make_tuple(identity_mode_strides<int(Is)>(get<Is>(shape))...);
}
}  // namespace detail

template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_identity_strides(Shape const& shape) {
  if constexpr (is_tuple_v<Shape>) {
    return detail::identity_strides(shape, std::make_index_sequence<tuple_size_v<Shape>>{});
  } else {
    return _1{};
  }
}

// make_basis_like(shape): a basis element per top-level mode, E<i> for mode i, so that
// crd2idx(c, shape, make_basis_like(shape)) is c as an ArithmeticTuple; an integer shape gives _1
// (CuTe's E<>, the scalar unit). Pre: each mode of shape is an integer (Tessera's basis elements
// name one mode; CuTe's nested E<i,j> are not represented). make_basis_like((4,8)) == (_1@0,_1@1).
template <IntTuple Shape>
TESSERA_HOST_DEVICE constexpr auto make_basis_like([[maybe_unused]] Shape const& shape) {
  if constexpr (is_tuple_v<Shape>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      static_assert((!is_tuple_v<tuple_element_t<Is, Shape>> && ...),
                    "make_basis_like: a nested mode would need a nested basis element (CuTe's E<i,j>), which "
                    "Tessera does not have; flatten the shape or use make_identity_layout");
      return make_tuple(E<int(Is)>{}...);
    }(std::make_index_sequence<tuple_size_v<Shape>>{});
  } else {
    return _1{};
  }
}

// basis_get(b, t): the part of t that the basis element b selects, get<N>(t) for b = v@N; t itself
// when b is not a basis element (an integer stride). basis_get(_1@1, (2,(3,4))) == (3,4);
// basis_get(_4, (2,3)) == (2,3).
template <class B, class T>
TESSERA_HOST_DEVICE constexpr auto basis_get(B const&, T const& t) {
  if constexpr (is_scaled_basis_v<B>) {
    return get<std::remove_cvref_t<B>::mode>(t);
  } else {
    return t;
  }
}

}  // namespace tessera
