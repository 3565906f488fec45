// Element-wise algorithms over tensors: fill, clear, axpby, transform, reduce. Each visits the
// elements in the tensor's 1-D index order (t(0), t(1), ...); loops over static sizes unroll.
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

// transform(t, f): t(i) = f(t(i)) in place. transform(in, out, f): out(i) = f(in(i)).
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

// reduce(t, init, op): op(...op(op(init, t(0)), t(1))..., t(n-1)). reduce(t, 0, plus) is the sum.
template <class Tn, class V, class Op>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE constexpr V reduce(Tn const& t, V init, Op&& op) {
  detail::loop(size(t), [&](auto i) { init = op(init, t(i)); });
  return init;
}

}  // namespace tessera
