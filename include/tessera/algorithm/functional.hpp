// Element-wise algorithms over tensors: fill, clear, axpby, for_each, transform (unary and binary),
// reduce. Each visits the elements in the tensor's 1-D index order (t(0), t(1), ...); loops over
// static sizes unroll. And the function objects CuTe's algorithms take (plus, multiplies, max_fn,
// ...): each is an empty struct whose call operator applies one operator to its arguments, on host
// and device, and returns what the operator returns (static integers stay static: plus{}(_2{}, _3{})
// is _5).
#pragma once

#include "tessera/tensor/tensor.hpp"

namespace tessera {

namespace detail {
// f(i) for i in [0, n): unrolled when n is static.
template <class N, class F>
TESSERA_HOST_DEVICE constexpr void loop(N const& n, F&& f) {
  if constexpr (is_static_int_v<N>) {
    TESSERA_UNROLL
    for (int i = 0; i < int(N::value); ++i) {
      f(i);
    }
  } else {
    for (N i = 0; i < n; ++i) {
      f(i);
    }
  }
}
// Checks that two tensors have the same number of elements (statically when both are static).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr void require_same_size(A const& a, B const& b) {
  TESSERA_REQUIRE(size(a) == size(b),
                  "tensor algorithm: the tensors must have the same number of elements; partition "
                  "both the same way or slice one of them (got the two layouts)",
                  a.layout(), b.layout());
}
}  // namespace detail

// ---- function objects --------------------------------------------------------------------------
// Pre: the operator applies to the arguments. Post: the operator's result, forwarded as it is.
// Example: plus{}(2, 3) == 5; max_fn{}(_2{}, _3{}) == _3; negate{}(2.5f) == -2.5f.

// identity{}(x) == x (forwarded: an lvalue stays an lvalue).
struct identity {
  template <class T>
  TESSERA_HOST_DEVICE constexpr T&& operator()(T&& x) const {
    return std::forward<T>(x);
  }
};
// constant_fn<R>{r}(args...) == r, whatever the arguments.
template <class R>
struct constant_fn {
  R r;
  template <class... Ts>
  TESSERA_HOST_DEVICE constexpr R operator()(Ts&&...) const {
    return r;
  }
};

// Unary operators: unary_plus (+x), negate (-x), bit_not (~x), logical_not (!x), abs_fn (|x|).
struct unary_plus {
  template <class T>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(T&& x) const {
    return +std::forward<T>(x);
  }
};
struct negate {
  template <class T>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(T&& x) const {
    return -std::forward<T>(x);
  }
};
struct bit_not {
  template <class T>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(T&& x) const {
    return ~std::forward<T>(x);
  }
};
struct logical_not {
  template <class T>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(T&& x) const {
    return !std::forward<T>(x);
  }
};
// abs_fn{}(x): tessera::abs for integers (static stays static), x < 0 ? -x : x otherwise.
struct abs_fn {
  template <class T>
  TESSERA_HOST_DEVICE constexpr auto operator()(T const& x) const {
    if constexpr (Integer<T>) {
      return abs(x);
    } else {
      return x < T(0) ? -x : x;
    }
  }
};

// Binary operators, a OP b: plus, minus, multiplies, divides, modulus, bit_and, bit_or, bit_xor,
// left_shift, right_shift, logical_and, logical_or, equal_to, not_equal_to, greater, less,
// greater_equal, less_equal. (Written out one by one: no macro generates their bodies.)
struct plus {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) + std::forward<B>(b);
  }
};
struct minus {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) - std::forward<B>(b);
  }
};
struct multiplies {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) * std::forward<B>(b);
  }
};
struct divides {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) / std::forward<B>(b);
  }
};
struct modulus {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) % std::forward<B>(b);
  }
};
struct bit_and {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) & std::forward<B>(b);
  }
};
struct bit_or {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) | std::forward<B>(b);
  }
};
struct bit_xor {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) ^ std::forward<B>(b);
  }
};
struct left_shift {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) << std::forward<B>(b);
  }
};
struct right_shift {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) >> std::forward<B>(b);
  }
};
struct logical_and {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) && std::forward<B>(b);
  }
};
struct logical_or {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) || std::forward<B>(b);
  }
};
struct equal_to {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) == std::forward<B>(b);
  }
};
struct not_equal_to {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) != std::forward<B>(b);
  }
};
struct greater {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) > std::forward<B>(b);
  }
};
struct less {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) < std::forward<B>(b);
  }
};
struct greater_equal {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) >= std::forward<B>(b);
  }
};
struct less_equal {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) <= std::forward<B>(b);
  }
};

// max_fn{}(a, b), min_fn{}(a, b): tessera::max/min for integers (static when both are), else
// a < b ? b : a (max) and b < a ? b : a (min), as std::max/std::min: a when they compare equal.
struct max_fn {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const {
    if constexpr (Integer<A> && Integer<B>) {
      return max(a, b);
    } else {
      return a < b ? b : a;
    }
  }
};
struct min_fn {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const {
    if constexpr (Integer<A> && Integer<B>) {
      return min(a, b);
    } else {
      return b < a ? b : a;
    }
  }
};

// Compound assignments, a OP= b, returning what the operator returns (a, as an lvalue):
// plus_assign, minus_assign, multiplies_assign, divides_assign, modulus_assign, bit_and_assign,
// bit_or_assign, bit_xor_assign, left_shift_assign, right_shift_assign.
// Example: float x = 2; plus_assign{}(x, 3.0f) leaves x == 5 and returns x.
struct plus_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) += std::forward<B>(b);
  }
};
struct minus_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) -= std::forward<B>(b);
  }
};
struct multiplies_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) *= std::forward<B>(b);
  }
};
struct divides_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) /= std::forward<B>(b);
  }
};
struct modulus_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) %= std::forward<B>(b);
  }
};
struct bit_and_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) &= std::forward<B>(b);
  }
};
struct bit_or_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) |= std::forward<B>(b);
  }
};
struct bit_xor_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) ^= std::forward<B>(b);
  }
};
struct left_shift_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) <<= std::forward<B>(b);
  }
};
struct right_shift_assign {
  template <class A, class B>
  TESSERA_HOST_DEVICE constexpr decltype(auto) operator()(A&& a, B&& b) const {
    return std::forward<A>(a) >>= std::forward<B>(b);
  }
};

// Folds of a binary function object Op over one or more arguments, as C++'s fold expressions over
// Op's operator (CuTe's NAME_unary_rfold, ... are these with Op = NAME):
//   unary_rfold<Op>{}(t0, ..., tn)      = t0 OP (t1 OP (... OP tn))
//   unary_lfold<Op>{}(t0, ..., tn)      = ((t0 OP t1) OP ...) OP tn
//   binary_rfold<Op>{}(u, t0, ..., tn)  = t0 OP (... OP (tn OP u))
//   binary_lfold<Op>{}(u, t0, ..., tn)  = ((u OP t0) OP ...) OP tn
// The result is returned by value; with an assignment Op the lvalues are assigned in place along
// the way, as the fold expression would. Pre: Op applies at each step.
// Example: unary_rfold<minus>{}(10, 4, 3) == 9, unary_lfold<minus>{}(10, 4, 3) == 3,
//          binary_rfold<minus>{}(1, 10, 4) == 7, binary_lfold<minus>{}(1, 10, 4) == -13.
namespace detail {
template <class Op, class T>
TESSERA_HOST_DEVICE constexpr T rfold(T&& t) {  // an lvalue stays a reference, a temporary is moved out
  return std::forward<T>(t);
}
template <class Op, class T, class U, class... R>
TESSERA_HOST_DEVICE constexpr decltype(auto) rfold(T&& t, U&& u, R&&... r) {
  return Op{}(std::forward<T>(t), rfold<Op>(std::forward<U>(u), std::forward<R>(r)...));
}
template <class Op, class T>
TESSERA_HOST_DEVICE constexpr T lfold(T&& t) {  // an lvalue stays a reference, a temporary is moved out
  return std::forward<T>(t);
}
template <class Op, class T, class U, class... R>
TESSERA_HOST_DEVICE constexpr decltype(auto) lfold(T&& t, U&& u, R&&... r) {
  return lfold<Op>(Op{}(std::forward<T>(t), std::forward<U>(u)), std::forward<R>(r)...);
}
}  // namespace detail
template <class Op>
struct unary_rfold {
  template <class T, class... R>
  TESSERA_HOST_DEVICE constexpr auto operator()(T&& t, R&&... r) const {
    return detail::rfold<Op>(std::forward<T>(t), std::forward<R>(r)...);
  }
};
template <class Op>
struct unary_lfold {
  template <class T, class... R>
  TESSERA_HOST_DEVICE constexpr auto operator()(T&& t, R&&... r) const {
    return detail::lfold<Op>(std::forward<T>(t), std::forward<R>(r)...);
  }
};
template <class Op>
struct binary_rfold {
  template <class U, class... T>
  TESSERA_HOST_DEVICE constexpr auto operator()(U&& u, T&&... t) const {
    return detail::rfold<Op>(std::forward<T>(t)..., std::forward<U>(u));
  }
};
template <class Op>
struct binary_lfold {
  template <class U, class... T>
  TESSERA_HOST_DEVICE constexpr auto operator()(U&& u, T&&... t) const {
    return detail::lfold<Op>(std::forward<U>(u), std::forward<T>(t)...);
  }
};
// CuTe's names for the folds of each binary operator above: plus_unary_rfold, ..., less_equal_binary_lfold.
using plus_unary_rfold = unary_rfold<plus>;
using plus_unary_lfold = unary_lfold<plus>;
using plus_binary_rfold = binary_rfold<plus>;
using plus_binary_lfold = binary_lfold<plus>;
using minus_unary_rfold = unary_rfold<minus>;
using minus_unary_lfold = unary_lfold<minus>;
using minus_binary_rfold = binary_rfold<minus>;
using minus_binary_lfold = binary_lfold<minus>;
using multiplies_unary_rfold = unary_rfold<multiplies>;
using multiplies_unary_lfold = unary_lfold<multiplies>;
using multiplies_binary_rfold = binary_rfold<multiplies>;
using multiplies_binary_lfold = binary_lfold<multiplies>;
using divides_unary_rfold = unary_rfold<divides>;
using divides_unary_lfold = unary_lfold<divides>;
using divides_binary_rfold = binary_rfold<divides>;
using divides_binary_lfold = binary_lfold<divides>;
using modulus_unary_rfold = unary_rfold<modulus>;
using modulus_unary_lfold = unary_lfold<modulus>;
using modulus_binary_rfold = binary_rfold<modulus>;
using modulus_binary_lfold = binary_lfold<modulus>;
using plus_assign_unary_rfold = unary_rfold<plus_assign>;
using plus_assign_unary_lfold = unary_lfold<plus_assign>;
using plus_assign_binary_rfold = binary_rfold<plus_assign>;
using plus_assign_binary_lfold = binary_lfold<plus_assign>;
using minus_assign_unary_rfold = unary_rfold<minus_assign>;
using minus_assign_unary_lfold = unary_lfold<minus_assign>;
using minus_assign_binary_rfold = binary_rfold<minus_assign>;
using minus_assign_binary_lfold = binary_lfold<minus_assign>;
using multiplies_assign_unary_rfold = unary_rfold<multiplies_assign>;
using multiplies_assign_unary_lfold = unary_lfold<multiplies_assign>;
using multiplies_assign_binary_rfold = binary_rfold<multiplies_assign>;
using multiplies_assign_binary_lfold = binary_lfold<multiplies_assign>;
using divides_assign_unary_rfold = unary_rfold<divides_assign>;
using divides_assign_unary_lfold = unary_lfold<divides_assign>;
using divides_assign_binary_rfold = binary_rfold<divides_assign>;
using divides_assign_binary_lfold = binary_lfold<divides_assign>;
using modulus_assign_unary_rfold = unary_rfold<modulus_assign>;
using modulus_assign_unary_lfold = unary_lfold<modulus_assign>;
using modulus_assign_binary_rfold = binary_rfold<modulus_assign>;
using modulus_assign_binary_lfold = binary_lfold<modulus_assign>;
using bit_and_unary_rfold = unary_rfold<bit_and>;
using bit_and_unary_lfold = unary_lfold<bit_and>;
using bit_and_binary_rfold = binary_rfold<bit_and>;
using bit_and_binary_lfold = binary_lfold<bit_and>;
using bit_or_unary_rfold = unary_rfold<bit_or>;
using bit_or_unary_lfold = unary_lfold<bit_or>;
using bit_or_binary_rfold = binary_rfold<bit_or>;
using bit_or_binary_lfold = binary_lfold<bit_or>;
using bit_xor_unary_rfold = unary_rfold<bit_xor>;
using bit_xor_unary_lfold = unary_lfold<bit_xor>;
using bit_xor_binary_rfold = binary_rfold<bit_xor>;
using bit_xor_binary_lfold = binary_lfold<bit_xor>;
using left_shift_unary_rfold = unary_rfold<left_shift>;
using left_shift_unary_lfold = unary_lfold<left_shift>;
using left_shift_binary_rfold = binary_rfold<left_shift>;
using left_shift_binary_lfold = binary_lfold<left_shift>;
using right_shift_unary_rfold = unary_rfold<right_shift>;
using right_shift_unary_lfold = unary_lfold<right_shift>;
using right_shift_binary_rfold = binary_rfold<right_shift>;
using right_shift_binary_lfold = binary_lfold<right_shift>;
using bit_and_assign_unary_rfold = unary_rfold<bit_and_assign>;
using bit_and_assign_unary_lfold = unary_lfold<bit_and_assign>;
using bit_and_assign_binary_rfold = binary_rfold<bit_and_assign>;
using bit_and_assign_binary_lfold = binary_lfold<bit_and_assign>;
using bit_or_assign_unary_rfold = unary_rfold<bit_or_assign>;
using bit_or_assign_unary_lfold = unary_lfold<bit_or_assign>;
using bit_or_assign_binary_rfold = binary_rfold<bit_or_assign>;
using bit_or_assign_binary_lfold = binary_lfold<bit_or_assign>;
using bit_xor_assign_unary_rfold = unary_rfold<bit_xor_assign>;
using bit_xor_assign_unary_lfold = unary_lfold<bit_xor_assign>;
using bit_xor_assign_binary_rfold = binary_rfold<bit_xor_assign>;
using bit_xor_assign_binary_lfold = binary_lfold<bit_xor_assign>;
using left_shift_assign_unary_rfold = unary_rfold<left_shift_assign>;
using left_shift_assign_unary_lfold = unary_lfold<left_shift_assign>;
using left_shift_assign_binary_rfold = binary_rfold<left_shift_assign>;
using left_shift_assign_binary_lfold = binary_lfold<left_shift_assign>;
using right_shift_assign_unary_rfold = unary_rfold<right_shift_assign>;
using right_shift_assign_unary_lfold = unary_lfold<right_shift_assign>;
using right_shift_assign_binary_rfold = binary_rfold<right_shift_assign>;
using right_shift_assign_binary_lfold = binary_lfold<right_shift_assign>;
using logical_and_unary_rfold = unary_rfold<logical_and>;
using logical_and_unary_lfold = unary_lfold<logical_and>;
using logical_and_binary_rfold = binary_rfold<logical_and>;
using logical_and_binary_lfold = binary_lfold<logical_and>;
using logical_or_unary_rfold = unary_rfold<logical_or>;
using logical_or_unary_lfold = unary_lfold<logical_or>;
using logical_or_binary_rfold = binary_rfold<logical_or>;
using logical_or_binary_lfold = binary_lfold<logical_or>;
using equal_to_unary_rfold = unary_rfold<equal_to>;
using equal_to_unary_lfold = unary_lfold<equal_to>;
using equal_to_binary_rfold = binary_rfold<equal_to>;
using equal_to_binary_lfold = binary_lfold<equal_to>;
using not_equal_to_unary_rfold = unary_rfold<not_equal_to>;
using not_equal_to_unary_lfold = unary_lfold<not_equal_to>;
using not_equal_to_binary_rfold = binary_rfold<not_equal_to>;
using not_equal_to_binary_lfold = binary_lfold<not_equal_to>;
using greater_unary_rfold = unary_rfold<greater>;
using greater_unary_lfold = unary_lfold<greater>;
using greater_binary_rfold = binary_rfold<greater>;
using greater_binary_lfold = binary_lfold<greater>;
using less_unary_rfold = unary_rfold<less>;
using less_unary_lfold = unary_lfold<less>;
using less_binary_rfold = binary_rfold<less>;
using less_binary_lfold = binary_lfold<less>;
using greater_equal_unary_rfold = unary_rfold<greater_equal>;
using greater_equal_unary_lfold = unary_lfold<greater_equal>;
using greater_equal_binary_rfold = binary_rfold<greater_equal>;
using greater_equal_binary_lfold = binary_lfold<greater_equal>;
using less_equal_unary_rfold = unary_rfold<less_equal>;
using less_equal_unary_lfold = unary_lfold<less_equal>;
using less_equal_binary_rfold = binary_rfold<less_equal>;
using less_equal_binary_lfold = binary_lfold<less_equal>;

// fill(t, v): every element of t becomes v. clear(t): every element becomes the value type's zero.
template <class Tn, class V>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE constexpr void fill(Tn&& t, V const& v) {
  detail::loop(size(t), [&](auto i) { t(i) = v; });
}
template <class Tn>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE constexpr void clear(Tn&& t) {
  fill(t, typename std::remove_cvref_t<Tn>::value_type{});
}

// axpby(a, x, b, y): y(i) = a*x(i) + b*y(i) for every i; when b == 0, y(i) = a*x(i) and y is not
// read (as BLAS's beta = 0: y may hold garbage, NaN included, e.g. an output never initialized).
// Pre: size(x) == size(y).
template <class A, class Tx, class B, class Ty>
  requires(is_tensor_v<Tx> && is_tensor_v<Ty>)
TESSERA_HOST_DEVICE constexpr void axpby(A const& a, Tx const& x, B const& b, Ty&& y) {
  detail::require_same_size(x, y);
  if constexpr (is_constant_v<0, B>) {
    detail::loop(size(y), [&](auto i) { y(i) = a * x(i); });
  } else {
    bool const b_zero = b == B(0);
    detail::loop(size(y), [&](auto i) { y(i) = b_zero ? a * x(i) : a * x(i) + b * y(i); });
  }
}

// for_each(t, f): f(t(i)) for every i, in 1-D index order (f may modify the element it is given).
// Pre: f takes an element. Post: f has been called size(t) times.
// Example: for_each over (_4):(_1) holding 1,2,3,4 with f = [&](int x) { s += x; } -> s == 10.
template <class Tn, class F>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE constexpr void for_each(Tn&& t, F&& f) {
  detail::loop(size(t), [&](auto i) { f(t(i)); });
}

// transform(t, f): t(i) = f(t(i)) in place. transform(in, out, f): out(i) = f(in(i)).
// transform(a, b, out, f): out(i) = f(a(i), b(i)) (binary; out may be a or b).
// Pre: the tensors have the same size. Post: out(i) as the formula says, for every i.
// Example: transform(a, b, out, plus{}) with a = 1,2,3 and b = 10,20,30 -> out = 11,22,33.
template <class Tn, class F>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE constexpr void transform(Tn&& t, F&& f) {
  detail::loop(size(t), [&](auto i) { t(i) = f(t(i)); });
}
template <class Ti, class To, class F>
  requires(is_tensor_v<Ti> && is_tensor_v<To>)
TESSERA_HOST_DEVICE constexpr void transform(Ti const& in, To&& out, F&& f) {
  detail::require_same_size(in, out);
  detail::loop(size(out), [&](auto i) { out(i) = f(in(i)); });
}
template <class Ta, class Tb, class To, class F>
  requires(is_tensor_v<Ta> && is_tensor_v<Tb> && is_tensor_v<To>)
TESSERA_HOST_DEVICE constexpr void transform(Ta const& a, Tb const& b, To&& out, F&& f) {
  detail::require_same_size(a, out);
  detail::require_same_size(b, out);
  detail::loop(size(out), [&](auto i) { out(i) = f(a(i), b(i)); });
}

// reduce(t, init, op): op(...op(op(init, t(0)), t(1))..., t(n-1)). reduce(t, 0, plus) is the sum.
template <class Tn, class V, class Op>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE constexpr V reduce(Tn const& t, V init, Op&& op) {
  detail::loop(size(t), [&](auto i) { init = op(init, t(i)); });
  return init;
}

}  // namespace tessera
