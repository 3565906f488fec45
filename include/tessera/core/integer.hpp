// Integers: static (the value is part of the type, C<8> = Int<8> = _8) and dynamic (any
// integral type). Arithmetic on two static integers is static; a few absorbing rules keep
// results static with one dynamic operand (`_0 * x == _0`, `x % _1 == _0`, see docs/algebra.md).
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// A static integer: the value lives in the type, objects are empty.
template <auto v>
struct C {
  using type = C;
  using value_type = decltype(v);
  static constexpr value_type value = v;
  TESSERA_HOST_DEVICE constexpr operator value_type() const noexcept { return v; }
  TESSERA_HOST_DEVICE constexpr value_type operator()() const noexcept { return v; }
};

template <int v>
using Int = C<v>;
template <bool b>
using Bool = C<b>;
using true_type = C<true>;
using false_type = C<false>;

using _m1 = Int<-1>;
using _0 = Int<0>;
using _1 = Int<1>;
using _2 = Int<2>;
using _3 = Int<3>;
using _4 = Int<4>;
using _5 = Int<5>;
using _6 = Int<6>;
using _7 = Int<7>;
using _8 = Int<8>;
using _9 = Int<9>;
using _10 = Int<10>;
using _12 = Int<12>;
using _16 = Int<16>;
using _24 = Int<24>;
using _32 = Int<32>;
using _64 = Int<64>;
using _128 = Int<128>;
using _256 = Int<256>;
using _512 = Int<512>;
using _1024 = Int<1024>;

// ---- traits ---------------------------------------------------------------------------------

template <class T>
struct is_static_int : std::false_type {};
template <auto v>
struct is_static_int<C<v>> : std::true_type {};

template <class T>
inline constexpr bool is_static_int_v = is_static_int<std::remove_cvref_t<T>>::value;

template <class T>
inline constexpr bool is_dynamic_int_v =
    std::is_integral_v<std::remove_cvref_t<T>> && !std::is_same_v<std::remove_cvref_t<T>, bool>;

// An integer of the algebra: static C<v> or a dynamic integral type.
template <class T>
concept Integer = is_static_int_v<T> || is_dynamic_int_v<T>;

// is_static_v: true for types that carry all their values (static integers, empty tuples of
// them, static layouts). Specialized for tuples in tuple.hpp via the empty-type property.
template <class T>
struct is_static : std::bool_constant<std::is_empty_v<std::remove_cvref_t<T>>> {};
template <class T>
inline constexpr bool is_static_v = is_static<std::remove_cvref_t<T>>::value;

template <auto n, class T>
inline constexpr bool is_constant_v = [] {
  if constexpr (is_static_int_v<T>) {
    return std::remove_cvref_t<T>::value == n;
  } else {
    return false;
  }
}();

// The value of an integer, static or dynamic.
template <Integer T>
TESSERA_HOST_DEVICE constexpr auto value_of(T const& x) {
  if constexpr (is_static_int_v<T>) {
    return std::remove_cvref_t<T>::value;
  } else {
    return x;
  }
}

// ---- arithmetic on static integers ----------------------------------------------------------
// Two static operands give a static result; mixed operands fall back to the built-in operators
// through C's conversion, except for the absorbing rules below.

// clang-format off
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a + b)> operator+(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a - b)> operator-(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a * b)> operator*(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a / b)> operator/(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a % b)> operator%(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a & b)> operator&(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a | b)> operator|(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a ^ b)> operator^(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a << b)> operator<<(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a >> b)> operator>>(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a == b)> operator==(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a != b)> operator!=(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a < b)> operator<(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a <= b)> operator<=(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a > b)> operator>(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a >= b)> operator>=(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a && b)> operator&&(C<a>, C<b>) { return {}; }
template <auto a, auto b> TESSERA_HOST_DEVICE constexpr C<(a || b)> operator||(C<a>, C<b>) { return {}; }
// clang-format on

template <auto a>
TESSERA_HOST_DEVICE constexpr C<-a> operator-(C<a>) {
  return {};
}
template <auto a>
TESSERA_HOST_DEVICE constexpr C<!a> operator!(C<a>) {
  return {};
}

// Absorbing rules: a static result although one operand is dynamic.
template <auto a, class U>
  requires(a == 0 && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator*(C<a>, U) {
  return {};
}
template <class U, auto a>
  requires(a == 0 && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator*(U, C<a>) {
  return {};
}
template <auto a, class U>
  requires(a == 0 && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator/(C<a>, U) {
  return {};
}
template <auto a, class U>
  requires(a == 0 && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator%(C<a>, U) {
  return {};
}
template <class U, auto a>
  requires((a == 1 || a == -1) && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator%(U, C<a>) {
  return {};
}
template <auto a, class U>
  requires(a == 0 && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator&(C<a>, U) {
  return {};
}
template <class U, auto a>
  requires(a == 0 && is_dynamic_int_v<U>)
TESSERA_HOST_DEVICE constexpr C<0> operator&(U, C<a>) {
  return {};
}

// ---- integer functions (static in, static out) ----------------------------------------------

// min/max/abs/signum of integers: static when every operand is static. min(_2, _3) == _2;
// min(_2, 5) == 2 (dynamic, of the common type).
template <Integer A, Integer B>
TESSERA_HOST_DEVICE constexpr auto min(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    return C<(A::value < B::value ? A::value : B::value)>{};
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    return R(a) < R(b) ? R(a) : R(b);
  }
}

template <Integer A, Integer B>
TESSERA_HOST_DEVICE constexpr auto max(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    return C<(A::value < B::value ? B::value : A::value)>{};
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    return R(a) < R(b) ? R(b) : R(a);
  }
}

// abs(_-4) == _4; abs(-4) == 4.
template <Integer A>
TESSERA_HOST_DEVICE constexpr auto abs(A const& a) {
  if constexpr (is_static_int_v<A>) {
    return C<(A::value < 0 ? -A::value : A::value)>{};
  } else {
    return a < 0 ? -a : a;
  }
}

// signum(x) in {-1, 0, 1}, of x's type. signum(_-4) == _-1.
template <Integer A>
TESSERA_HOST_DEVICE constexpr auto signum(A const& a) {
  if constexpr (is_static_int_v<A>) {
    return C<(A::value > 0) - (A::value < 0)>{};
  } else {
    return static_cast<A>((a > 0) - (a < 0));
  }
}

// A static integer from a compile-time value: `Int<3>{} == static_int<3>`.
template <auto v>
inline constexpr C<v> static_int{};

namespace literals {
// 12_c is C<12>: a static integer literal.
template <char... cs>
constexpr auto operator""_c() {
  constexpr long long v = [] {
    long long r = 0;
    ((r = r * 10 + (cs - '0')), ...);
    return r;
  }();
  if constexpr (v <= 2147483647LL) {
    return C<static_cast<int>(v)>{};
  } else {
    return C<v>{};
  }
}
}  // namespace literals

}  // namespace tessera
