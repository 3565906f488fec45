// gemm over tensors, C += A * B with the modes naming the roles (M,N rows and columns of C, K
// the reduction, L a batch, V an element-wise vector):
//   (V)x(V)=>(V)                 C(v)     += A(v) * B(v)
//   (M)x(N)=>(M,N)               C(m,n)   += A(m) * B(n)            (outer product)
//   (M,K)x(N,K)=>(M,N)           C(m,n)   += sum_k A(m,k) * B(n,k)
//   (M,K,L)x(N,K,L)=>(M,N,L)     C(m,n,l) += sum_k A(m,k,l) * B(n,k,l)
// The modes name the roles, whatever the strides: A is (M,K) and B is (N,K), each M-, N- or K-major
// or anything else its layout says (a (K,N) tensor is passed as a view with its modes swapped,
// select<1,0> of its layout).
#pragma once

#include "tessera/algorithm/functional.hpp"

namespace tessera {

namespace detail {
template <class A, class B>
TESSERA_HOST_DEVICE constexpr void require_extent(A const& a, B const& b, const char*) {
  TESSERA_REQUIRE(a == b,
                  "gemm: the modes that must match (M of A and C, N of B and C, K of A and B, L of "
                  "all three) differ; check which mode of each tensor is which",
                  a, b);
}
}  // namespace detail

// gemm(A, B, C): C += A * B as the table above says, dispatched on the ranks of A, B and C.
// Example: A (2,3) = [[1,2,3],[4,5,6]], B (1,3) = [[1,1,1]], C (2,1) = 0 -> C = [[6],[15]].
template <class TA, class TB, class TC>
  requires(is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
TESSERA_HOST_DEVICE constexpr void gemm(TA const& A, TB const& B, TC&& C) {
  constexpr int RA = std::remove_cvref_t<TA>::rank;
  constexpr int RB = std::remove_cvref_t<TB>::rank;
  constexpr int RC = std::remove_cvref_t<TC>::rank;
  if constexpr (RA == 1 && RB == 1 && RC == 1) {
    detail::require_extent(size(A), size(C), "V");
    detail::require_extent(size(B), size(C), "V");
    detail::loop(size(C), [&](auto v) { C(v) += A(v) * B(v); });
  } else if constexpr (RA == 1 && RB == 1 && RC == 2) {
    detail::require_extent(size(A), size<0>(C), "M");
    detail::require_extent(size(B), size<1>(C), "N");
    detail::loop(size<1>(C), [&](auto n) {
      detail::loop(size<0>(C), [&](auto m) { C(m, n) += A(m) * B(n); });
    });
  } else if constexpr (RA == 2 && RB == 2 && RC == 2) {
    detail::require_extent(size<0>(A), size<0>(C), "M");
    detail::require_extent(size<0>(B), size<1>(C), "N");
    detail::require_extent(size<1>(A), size<1>(B), "K");
    detail::loop(size<1>(A), [&](auto k) {
      detail::loop(size<1>(C), [&](auto n) {
        detail::loop(size<0>(C), [&](auto m) { C(m, n) += A(m, k) * B(n, k); });
      });
    });
  } else if constexpr (RA == 3 && RB == 3 && RC == 3) {
    detail::require_extent(size<2>(A), size<2>(C), "L");
    detail::require_extent(size<2>(B), size<2>(C), "L");
    detail::loop(size<2>(C), [&](auto l) { gemm(A(Underscore{}, Underscore{}, l), B(Underscore{}, Underscore{}, l), C(Underscore{}, Underscore{}, l)); });
  } else {
    static_assert(RA < 0,
                  "gemm: unsupported ranks; use (V)x(V)=>(V), (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N) or "
                  "(M,K,L)x(N,K,L)=>(M,N,L) (group_modes can merge extra modes)");
  }
}

}  // namespace tessera
