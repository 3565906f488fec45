// gemm over tensors, dispatched on the operands' ranks as CuTe's is. The modes name the roles:
// M, N the rows and columns of the product, K the reduction, V an element-wise vector mode (the
// values one thread holds per MMA, mode 0 of what partition_A/B/C produce).
//   gemm(D, A, B, C): D = A*B + C           gemm(A, B, C) = gemm(C, A, B, C): C += A*B
//   (V)x(V)=>(V)                 D(v)     = A(v) * B(v) + C(v)
//   (M)x(N)=>(M,N)               D(m,n)   = A(m) * B(n) + C(m,n)               (outer product)
//   (M,K)x(N,K)=>(M,N)           D(m,n)   = sum_k A(m,k) * B(n,k) + C(m,n)
//   (V,M)x(V,N)=>(V,M,N)         D(v,m,n) = A(v,m) * B(v,n) + C(v,m,n)
//   (V,M,K)x(V,N,K)=>(V,M,N)     D(v,m,n) = sum_k A(v,m,k) * B(v,n,k) + C(v,m,n)
// A batch of products, (M,K,L)x(N,K,L)=>(M,N,L), is batched_gemm (rank-3 operands of gemm are
// fragments, as in CuTe). Each operand may be strided any way its layout says (a (K,N) tensor is
// passed as the (N,K) view select<1,0> of its layout). The tiled-MMA overloads gemm(mma, D, A, B,
// C) live in atom/mma_atom.hpp.
#pragma once

#include "tessera/algorithm/functional.hpp"

namespace tessera {

namespace detail {
// Checks that two extents that play the same role (named by `what`) agree.
template <class X, class Y>
TESSERA_HOST_DEVICE constexpr void require_extent(X const& x, Y const& y, const char* what) {
  (void)what;
  TESSERA_REQUIRE(x == y,
                  "gemm: two modes that must match differ (M of A and C, N of B and C, K of A and B, V "
                  "of all, L of all for batched_gemm); check which mode of each tensor is which; "
                  "rank-3 operands are (V,M,K)x(V,N,K)=>(V,M,N) fragments, a batch is batched_gemm",
                  x, y);
}

// C(m,n) += sum_k A(m,k) * B(n,k): k outermost; then the rows one at a time and, along each row,
// the columns in serpentine order (forward for even rows, backward for odd ones). Each C(m,n) sums
// over k in order, whatever the walk. The walk decides the schedule ptxas makes of a thread's
// shared-memory reads: B's values of a k step are read first and stay in registers while A's are
// streamed, one value per row. With the CuTe tutorial's TN tiles (examples/sgemm/tutorial.cuh)
// that keeps the conflict-free reads in the batch and streams the bank-conflicted ones; columns
// outermost, or rows in pairs (CuTe's walk of 32-bit (M)x(N) products), measured slower there
// (docs/performance/log.md, "The CuTe tutorial's SGEMM").
template <class TA, class TB, class TC>
TESSERA_HOST_DEVICE constexpr void gemm_mk_nk(TA const& A, TB const& B, TC& C) {
  auto const mm = size<0>(C);
  auto const nn = size<1>(C);
  detail::loop(size<1>(A), [&](auto k) {
    detail::loop(mm, [&](auto m) {
      detail::loop(nn, [&](auto n0) {
        auto const n = (m & 1) ? nn - 1 - n0 : n0;
        C(m, n) += A(m, k) * B(n, k);
      });
    });
  });
}

// D(v,m,n) = A(v,m) * B(v,n) + C(v,m,n): m outermost, n serpentine (B's values stay in registers
// from one m to the next).
template <class TD, class TA, class TB, class TC>
TESSERA_HOST_DEVICE constexpr void gemm_vm_vn(TD& D, TA const& A, TB const& B, TC const& C) {
  auto const nn = size<1>(B);
  detail::loop(size<1>(A), [&](auto m) {
    detail::loop(nn, [&](auto n0) {
      auto const n = (m & 1) ? decltype(n0)(nn - 1 - n0) : n0;
      detail::loop(size<0>(D), [&](auto v) { D(v, m, n) = A(v, m) * B(v, n) + C(v, m, n); });
    });
  });
}

// The extent checks of each form (static extents are checked at compile time).
template <class TD, class TA, class TB, class TC>
TESSERA_HOST_DEVICE constexpr void gemm_check(TD const& D, TA const& A, TB const& B, TC const& C) {
  constexpr int RA = std::remove_cvref_t<TA>::rank;
  constexpr int RB = std::remove_cvref_t<TB>::rank;
  constexpr int RC = std::remove_cvref_t<TC>::rank;
  constexpr int RD = std::remove_cvref_t<TD>::rank;
  static_assert(RD == RC, "gemm(D, A, B, C): D and C must have the same rank (D = A*B + C)");
  if constexpr (RD == RC) {
    [&]<int... Is>(std::integer_sequence<int, Is...>) {
      (detail::require_extent(size<Is>(D), size<Is>(C), "D"), ...);
    }(std::make_integer_sequence<int, RC>{});
  }
  if constexpr (RA == 1 && RB == 1 && RC == 1) {
    detail::require_extent(size(A), size(C), "V");
    detail::require_extent(size(B), size(C), "V");
  } else if constexpr (RA == 1 && RB == 1 && RC == 2) {
    detail::require_extent(size(A), size<0>(C), "M");
    detail::require_extent(size(B), size<1>(C), "N");
  } else if constexpr (RA == 2 && RB == 2 && RC == 2) {
    detail::require_extent(size<0>(A), size<0>(C), "M");
    detail::require_extent(size<0>(B), size<1>(C), "N");
    detail::require_extent(size<1>(A), size<1>(B), "K");
  } else if constexpr ((RA == 2 && RB == 2 && RC == 3) || (RA == 3 && RB == 3 && RC == 3)) {
    detail::require_extent(size<0>(A), size<0>(C), "V");
    detail::require_extent(size<0>(B), size<0>(C), "V");
    detail::require_extent(size<1>(A), size<1>(C), "M");
    detail::require_extent(size<1>(B), size<2>(C), "N");
    if constexpr (RA == 3) detail::require_extent(size<2>(A), size<2>(B), "K");
  } else {
    static_assert(RA < 0,
                  "gemm: unsupported ranks; use (V)x(V)=>(V), (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N), "
                  "(V,M)x(V,N)=>(V,M,N) or (V,M,K)x(V,N,K)=>(V,M,N) (group_modes can merge extra "
                  "modes; a batch (M,K,L)x(N,K,L)=>(M,N,L) is batched_gemm)");
  }
}
}  // namespace detail

// gemm(D, A, B, C): D = A*B + C, the form chosen by the ranks as the table above says.
// Pre: the extents that share a role agree (M, N, K, V), rank(D) == rank(C), size(D) == size(C);
//      D may be C (then it accumulates), but D overlapping A or B otherwise is undefined.
// Post: D holds A*B + C; C is read before D is written at each element.
// Example: A (2,3) = [[1,2,3],[4,5,6]], B (1,3) = [[1,1,1]], C (2,1) = [[1],[1]]
//          -> D (2,1) = [[7],[16]].
template <class TD, class TA, class TB, class TC>
  requires(is_tensor_v<TD> && is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
TESSERA_HOST_DEVICE constexpr void gemm(TD&& D, TA const& A, TB const& B, TC const& C) {
  detail::gemm_check(D, A, B, C);
  constexpr int RA = std::remove_cvref_t<TA>::rank;
  constexpr int RC = std::remove_cvref_t<TC>::rank;
  if constexpr (RA == 1 && RC == 1) {
    detail::loop(size(D), [&](auto v) { D(v) = A(v) * B(v) + C(v); });
  } else if constexpr (RA == 1) {
    detail::loop(size<1>(D),
                 [&](auto n) { detail::loop(size<0>(D), [&](auto m) { D(m, n) = A(m) * B(n) + C(m, n); }); });
  } else if constexpr (RA == 2 && RC == 2) {
    detail::loop(size(D), [&](auto i) { D(i) = C(i); });
    detail::gemm_mk_nk(A, B, D);
  } else if constexpr (RA == 2) {
    detail::gemm_vm_vn(D, A, B, C);
  } else {
    // (V,M,K): k = 0 adds C, every later k accumulates into D (extents are >= 1, so K is).
    detail::loop(size<2>(A), [&](auto k) {
      if (k == 0) {
        detail::gemm_vm_vn(D, A(Underscore{}, Underscore{}, k), B(Underscore{}, Underscore{}, k), C);
      } else {
        detail::gemm_vm_vn(D, A(Underscore{}, Underscore{}, k), B(Underscore{}, Underscore{}, k), D);
      }
    });
  }
}

// gemm(A, B, C) = gemm(C, A, B, C): C += A*B, every form of the table above.
// Pre, Post: those of gemm(D, A, B, C) with D = C.
// Example: A (2,3) = [[1,2,3],[4,5,6]], B (1,3) = [[1,1,1]], C (2,1) = 0 -> C = [[6],[15]].
template <class TA, class TB, class TC>
  requires(is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
TESSERA_HOST_DEVICE constexpr void gemm(TA const& A, TB const& B, TC&& C) {
  constexpr int RA = std::remove_cvref_t<TA>::rank;
  constexpr int RC = std::remove_cvref_t<TC>::rank;
  if constexpr (RA == 2 && RC == 2) {
    // The SGEMM kernels' path: accumulate in place, no copy of C.
    detail::gemm_check(C, A, B, C);
    detail::gemm_mk_nk(A, B, C);
  } else {
    gemm(C, A, B, C);
  }
}

// batched_gemm(D, A, B, C): (M,K,L)x(N,K,L)=>(M,N,L), D(_,_,l) = A(_,_,l) * B(_,_,l) + C(_,_,l) for
// every l, each product the (M,K)x(N,K)=>(M,N) form of gemm. batched_gemm(A, B, C): C += A*B.
// Pre: rank 3 operands; M, N, K agree as for gemm and L agrees in all four.
// Post: each slice l as gemm leaves it.
// Example: A (1,2,2) = [[[1,2]],[[3,4]]] as (m,k,l) -> A(0,k,0) = k+1, A(0,k,1) = k+3; B all ones
//          (1,2,2); C zeros (1,1,2) -> C(0,0,0) = 3, C(0,0,1) = 7.
template <class TD, class TA, class TB, class TC>
  requires(is_tensor_v<TD> && is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
TESSERA_HOST_DEVICE constexpr void batched_gemm(TD&& D, TA const& A, TB const& B, TC const& C) {
  static_assert(std::remove_cvref_t<TA>::rank == 3 && std::remove_cvref_t<TB>::rank == 3 &&
                    std::remove_cvref_t<TC>::rank == 3 && std::remove_cvref_t<TD>::rank == 3,
                "batched_gemm: the operands must be (M,K,L), (N,K,L), (M,N,L) and (M,N,L); for one "
                "product use gemm (group_modes can merge extra batch modes into L)");
  detail::require_extent(size<2>(A), size<2>(C), "L");
  detail::require_extent(size<2>(B), size<2>(C), "L");
  detail::require_extent(size<2>(D), size<2>(C), "L");
  detail::loop(size<2>(C), [&](auto l) {
    gemm(D(Underscore{}, Underscore{}, l), A(Underscore{}, Underscore{}, l), B(Underscore{}, Underscore{}, l),
         C(Underscore{}, Underscore{}, l));
  });
}
template <class TA, class TB, class TC>
  requires(is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>)
TESSERA_HOST_DEVICE constexpr void batched_gemm(TA const& A, TB const& B, TC&& C) {
  static_assert(
      std::remove_cvref_t<TA>::rank == 3 && std::remove_cvref_t<TB>::rank == 3 && std::remove_cvref_t<TC>::rank == 3,
      "batched_gemm: the operands must be (M,K,L), (N,K,L) and (M,N,L); for one product "
      "use gemm (group_modes can merge extra batch modes into L)");
  detail::require_extent(size<2>(A), size<2>(C), "L");
  detail::require_extent(size<2>(B), size<2>(C), "L");
  detail::loop(size<2>(C), [&](auto l) {
    gemm(A(Underscore{}, Underscore{}, l), B(Underscore{}, Underscore{}, l), C(Underscore{}, Underscore{}, l));
  });
}

}  // namespace tessera
