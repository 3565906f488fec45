// SGEMM ladder, step 1: 2D block tiling (docs/background.md, "SGEMM"), written with local_tile /
// local_partition.
//
// A block computes a (BM,BN) = (64,64) tile of C from (BM,BK) tiles of A and (BK,BN) tiles of B,
// BK = 8, staged through shared memory; each of its 64 threads computes a (TM,TN) = (8,8) tile of
// C as a sum of outer products of a (TM,1) column of sA and a (1,TN) row of sB. Any M, N, K: the
// loads are predicated with an identity tensor partitioned like the data (out-of-range elements
// are loaded as 0) and so is the store of C. Row- or column-major A and B (template flags); C is
// row-major here (the launcher turns a column-major C into a row-major C^T).
#pragma once

#include "tessera/kernels/sgemm.cuh"

namespace tessera::examples {

using kernels::make_matrix_layout;
using kernels::SgemmProblem;

namespace v1 {
using BM = _64;
using BN = _64;
using BK = _8;
using TM = _8;
using TN = _8;
inline constexpr int kThreads = (BM::value / TM::value) * (BN::value / TN::value);  // 64
}  // namespace v1

// C = alpha * A * B + beta * C. Grid (ceil(N/BN), ceil(M/BM)), block v1::kThreads.
template <bool ARowMajor, bool BRowMajor>
__global__ void __launch_bounds__(v1::kThreads)
    sgemm_v1_blocktile_kernel(int M, int N, int K, float alpha, float const* A, int lda, float const* B, int ldb,
                              float beta, float* C, int ldc) {
  using namespace v1;
  auto mA = make_tensor(make_gmem_ptr(A), make_matrix_layout<ARowMajor>(M, K, lda));  // (M,K)
  auto mB = make_tensor(make_gmem_ptr(B), make_matrix_layout<BRowMajor>(K, N, ldb));  // (K,N)
  auto mC = make_tensor(make_gmem_ptr(C), make_matrix_layout<true>(M, N, ldc));       // (M,N)
  auto cA = make_identity_tensor(make_shape(M, K));                                   // (M,K) -> (m,k)
  auto cB = make_identity_tensor(make_shape(K, N));                                   // (K,N) -> (k,n)
  auto cC = make_identity_tensor(make_shape(M, N));                                   // (M,N) -> (m,n)

  int const bm = static_cast<int>(blockIdx.y);
  int const bn = static_cast<int>(blockIdx.x);
  auto gA = local_tile(mA, make_shape(BM{}, BK{}), make_coord(bm, Underscore{}));       // (BM,BK,k)
  auto gB = local_tile(mB, make_shape(BK{}, BN{}), make_coord(Underscore{}, bn));       // (BK,BN,k)
  auto gC = local_tile(mC, make_shape(BM{}, BN{}), make_coord(bm, bn));                 // (BM,BN)
  auto tileA_c = local_tile(cA, make_shape(BM{}, BK{}), make_coord(bm, Underscore{}));  // (BM,BK,k) -> (m,k)
  auto tileB_c = local_tile(cB, make_shape(BK{}, BN{}), make_coord(Underscore{}, bn));  // (BK,BN,k) -> (k,n)
  auto tileC_c = local_tile(cC, make_shape(BM{}, BN{}), make_coord(bm, bn));            // (BM,BN) -> (m,n)

  // Shared memory, row-major (as in the published program).
  auto sA_layout = make_layout(make_shape(BM{}, BK{}), LayoutRight{});  // (m,k) -> smem offset
  auto sB_layout = make_layout(make_shape(BK{}, BN{}), LayoutRight{});  // (k,n) -> smem offset
  __shared__ alignas(16) float smem_a[decltype(cosize(sA_layout))::value];
  __shared__ alignas(16) float smem_b[decltype(cosize(sB_layout))::value];
  auto sA = make_tensor(make_smem_ptr(smem_a), sA_layout);  // (BM,BK)
  auto sB = make_tensor(make_smem_ptr(smem_b), sB_layout);  // (BK,BN)

  // Load partitions: consecutive threads walk the contiguous mode of each operand (coalesced).
  auto thrA = [] {
    if constexpr (ARowMajor) {
      return make_layout(make_shape(_8{}, _8{}), LayoutRight{});  // (m,k) -> thread, k fastest
    } else {
      return make_layout(make_shape(_8{}, _8{}), LayoutLeft{});  // (m,k) -> thread, m fastest
    }
  }();
  auto thrB = [] {
    if constexpr (BRowMajor) {
      return make_layout(make_shape(_1{}, _64{}), LayoutRight{});  // (k,n) -> thread, n fastest
    } else {
      return make_layout(make_shape(_8{}, _8{}), LayoutLeft{});  // (k,n) -> thread, k fastest
    }
  }();
  int const tid = static_cast<int>(threadIdx.x);
  auto tAgA = local_partition(gA, thrA, tid);       // (BM/8,BK/8,k) or (BM/8,1,k)
  auto tAcA = local_partition(tileA_c, thrA, tid);  // same shape -> (m,k)
  auto tAsA = local_partition(sA, thrA, tid);       // (BM/8,BK/8)
  auto tBgB = local_partition(gB, thrB, tid);       // (BK/tk,BN/tn,k)
  auto tBcB = local_partition(tileB_c, thrB, tid);  // same shape -> (k,n)
  auto tBsB = local_partition(sB, thrB, tid);       // (BK/tk,BN/tn)

  // Compute partition: thread (row, col) of the (BM/TM,BN/TN) = (8,8) row-major thread grid.
  auto thrC = make_layout(make_shape(Int<BM::value / TM::value>{}, Int<BN::value / TN::value>{}),
                          LayoutRight{});  // (r,c) -> thread
  auto tc = thread_coord(thrC, tid);
  int const thread_row = get<0>(tc);
  int const thread_col = get<1>(tc);
  auto tCsA = local_tile(sA, make_shape(TM{}, _1{}), make_coord(thread_row, Underscore{}));     // (TM,1,BK)
  auto tCsB = local_tile(sB, make_shape(_1{}, TN{}), make_coord(Underscore{}, thread_col));     // (1,TN,BK)
  auto tCgC = local_tile(gC, make_shape(TM{}, TN{}), make_coord(thread_row, thread_col));       // (TM,TN)
  auto tCcC = local_tile(tileC_c, make_shape(TM{}, TN{}), make_coord(thread_row, thread_col));  // (TM,TN) -> (m,n)

  auto rC = make_tensor<float>(make_shape(TM{}, TN{}));  // (TM,TN) accumulators
  auto rA = make_tensor<float>(make_shape(TM{}));        // (TM)
  auto rB = make_tensor<float>(make_shape(TN{}));        // (TN)
  clear(rC);

  auto shapeMK = make_shape(M, K);
  auto shapeKN = make_shape(K, N);
  int const k_tiles = static_cast<int>(size<2>(gA));
  for (int kt = 0; kt < k_tiles; ++kt) {
    auto tAgA_k = tAgA(Underscore{}, Underscore{}, kt);  // (BM/8,BK/8)
    auto tAcA_k = tAcA(Underscore{}, Underscore{}, kt);  // (BM/8,BK/8) -> (m,k)
    TESSERA_UNROLL
    for (int i = 0; i < decltype(size(tAsA))::value; ++i) {
      tAsA(i) = elem_less(tAcA_k(i), shapeMK) ? tAgA_k(i) : 0.0f;
    }
    auto tBgB_k = tBgB(Underscore{}, Underscore{}, kt);  // (BK/tk,BN/tn)
    auto tBcB_k = tBcB(Underscore{}, Underscore{}, kt);  // (BK/tk,BN/tn) -> (k,n)
    TESSERA_UNROLL
    for (int i = 0; i < decltype(size(tBsB))::value; ++i) {
      tBsB(i) = elem_less(tBcB_k(i), shapeKN) ? tBgB_k(i) : 0.0f;
    }
    __syncthreads();

    TESSERA_UNROLL
    for (int kk = 0; kk < BK::value; ++kk) {
      copy(tCsA(Underscore{}, Underscore{}, kk), rA);  // (TM,1) -> (TM)
      copy(tCsB(Underscore{}, Underscore{}, kk), rB);  // (1,TN) -> (TN)
      TESSERA_UNROLL
      for (int i = 0; i < TM::value; ++i) {
        TESSERA_UNROLL
        for (int j = 0; j < TN::value; ++j) {
          rC(i, j) += rA(i) * rB(j);
        }
      }
    }
    __syncthreads();
  }

  auto shapeMN = make_shape(M, N);
  TESSERA_UNROLL
  for (int i = 0; i < TM::value; ++i) {
    TESSERA_UNROLL
    for (int j = 0; j < TN::value; ++j) {
      if (elem_less(tCcC(i, j), shapeMN)) {
        float& c = tCgC(i, j);
        c = beta == 0.0f ? alpha * rC(i, j) : alpha * rC(i, j) + beta * c;
      }
    }
  }
}

// Launches v1 for a row-major-C problem (kernels::launch_sgemm makes every problem one).
inline void launch_sgemm_v1(SgemmProblem const& p, cudaStream_t stream) {
  dim3 const grid(static_cast<unsigned>((p.n + v1::BN::value - 1) / v1::BN::value),
                  static_cast<unsigned>((p.m + v1::BM::value - 1) / v1::BM::value));
  auto launch = [&](auto kernel) {
    kernel<<<grid, v1::kThreads, 0, stream>>>(p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc);
  };
  bool const ar = p.a_major == Major::row;
  bool const br = p.b_major == Major::row;
  if (ar && br) launch(sgemm_v1_blocktile_kernel<true, true>);
  if (ar && !br) launch(sgemm_v1_blocktile_kernel<true, false>);
  if (!ar && br) launch(sgemm_v1_blocktile_kernel<false, true>);
  if (!ar && !br) launch(sgemm_v1_blocktile_kernel<false, false>);
}

}  // namespace tessera::examples
