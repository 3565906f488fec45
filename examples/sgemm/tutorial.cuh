// The CuTe tutorial's first SGEMM written with Tessera, line for line in the tutorial's style: one
// kernel, templated on the problem's strides and on static shared-memory and thread layouts, with
// two host configurations (docs/from-cute.md, "Porting CuTe code"):
//
//   NT  A (M,K) M-major, B (N,K) N-major; shared tiles M-/N-major; (32,8) M-/N-major copy threads
//   TN  A (M,K) K-major, B (N,K) K-major; shared tiles K-major;    (32,8) K-major copy threads
//
// Both: (BLK_M,BLK_N,BLK_K) = (128,128,8) block tiles, C (M,N) M-major, 256 threads laid out
// (16,16) M-major for the math, `copy` global -> shared over local_partitions, `gemm` shared ->
// registers over local_partitions, `axpby` into C. No predication: M and N must be multiples of 128
// and K of 8 (the launcher checks). Kept in `tessera-bench` (sgemm_tutorial_nt / _tn) so that the
// cost of writing a kernel this way stays measured.
#pragma once

#include <stdexcept>
#include <string>

#include "tessera/kernels/sgemm_problem.hpp"
#include "tessera/tessera.hpp"

namespace tessera::examples {

template <class ProblemShape, class CtaTiler, class AStride, class ASmemLayout, class AThreadLayout, class BStride,
          class BSmemLayout, class BThreadLayout, class CStride, class CThreadLayout>
__global__ void __launch_bounds__(size_v<CThreadLayout>)
    sgemm_tutorial_kernel(ProblemShape shape_MNK, CtaTiler cta_tiler, float const* A, AStride dA, ASmemLayout sA_layout,
                          AThreadLayout tA, float const* B, BStride dB, BSmemLayout sB_layout, BThreadLayout tB,
                          float* C, CStride dC, CThreadLayout tC, float alpha, float beta) {
  // The tile contracts, checked at compile time.
  TESSERA_STATIC_ASSERT_V(rank(shape_MNK) == _3{}, "(M,N,K)");
  TESSERA_STATIC_ASSERT_V(rank(cta_tiler) == _3{}, "(BLK_M,BLK_N,BLK_K)");
  TESSERA_STATIC_ASSERT_V(size<0>(sA_layout) == size<0>(cta_tiler), "BLK_M");
  TESSERA_STATIC_ASSERT_V(size<1>(sA_layout) == size<2>(cta_tiler), "BLK_K");
  TESSERA_STATIC_ASSERT_V(size<0>(sB_layout) == size<1>(cta_tiler), "BLK_N");
  TESSERA_STATIC_ASSERT_V(size<1>(sB_layout) == size<2>(cta_tiler), "BLK_K");
  TESSERA_STATIC_ASSERT_V(size(tA) == size(tC), "the copy of A uses every thread");
  TESSERA_STATIC_ASSERT_V(size(tB) == size(tC), "the copy of B uses every thread");
  TESSERA_STATIC_ASSERT_V(size<0>(cta_tiler) % size<0>(tA) == _0{}, "BLK_M / THR_M");
  TESSERA_STATIC_ASSERT_V(size<2>(cta_tiler) % size<1>(tA) == _0{}, "BLK_K / THR_K");
  TESSERA_STATIC_ASSERT_V(size<1>(cta_tiler) % size<0>(tB) == _0{}, "BLK_N / THR_N");
  TESSERA_STATIC_ASSERT_V(size<2>(cta_tiler) % size<1>(tB) == _0{}, "BLK_K / THR_K");
  TESSERA_STATIC_ASSERT_V(size<0>(cta_tiler) % size<0>(tC) == _0{}, "BLK_M / THR_M");
  TESSERA_STATIC_ASSERT_V(size<1>(cta_tiler) % size<1>(tC) == _0{}, "BLK_N / THR_N");

  // The whole problem.
  auto mA = make_tensor(make_gmem_ptr(A), select<0, 2>(shape_MNK), dA);  // (M,K)
  auto mB = make_tensor(make_gmem_ptr(B), select<1, 2>(shape_MNK), dB);  // (N,K)
  auto mC = make_tensor(make_gmem_ptr(C), select<0, 1>(shape_MNK), dC);  // (M,N)

  // This block's tiles.
  auto cta_coord = make_coord(int(blockIdx.x), int(blockIdx.y), _);   // (m,n,k)
  auto gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  auto gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  auto gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)

  // Shared memory.
  __shared__ float smemA[cosize_v<ASmemLayout>];
  __shared__ float smemB[cosize_v<BSmemLayout>];
  auto sA = make_tensor(make_smem_ptr(smemA), sA_layout);  // (BLK_M,BLK_K)
  auto sB = make_tensor(make_smem_ptr(smemB), sB_layout);  // (BLK_N,BLK_K)

  // The copies global -> shared: thread i's elements under the thread layouts tA, tB.
  int const tid = int(threadIdx.x);
  auto tAgA = local_partition(gA, tA, tid);  // (THR_M,THR_K,k)
  auto tAsA = local_partition(sA, tA, tid);  // (THR_M,THR_K)
  auto tBgB = local_partition(gB, tB, tid);  // (THR_N,THR_K,k)
  auto tBsB = local_partition(sB, tB, tid);  // (THR_N,THR_K)

  // The math: thread i's rows of sA, rows of sB and (m,n) elements of C under tC.
  auto tCsA = local_partition(sA, tC, tid, Step<_1, X>{});   // (THR_M,BLK_K)
  auto tCsB = local_partition(sB, tC, tid, Step<X, _1>{});   // (THR_N,BLK_K)
  auto tCgC = local_partition(gC, tC, tid, Step<_1, _1>{});  // (THR_M,THR_N)
  auto tCrC = make_tensor_like(tCgC);                        // (THR_M,THR_N) accumulators
  clear(tCrC);

  int const k_tiles = int(size<2>(tAgA));
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    copy(tAgA(_, _, k_tile), tAsA);  // (THR_M,THR_K) -> (THR_M,THR_K)
    copy(tBgB(_, _, k_tile), tBsB);  // (THR_N,THR_K) -> (THR_N,THR_K)
    cp_async_fence();                // the tutorial's fences: nothing asynchronous is in flight here, they
    cp_async_wait<0>();              // are where a cp.async version waits
    __syncthreads();
    gemm(tCsA, tCsB, tCrC);  // (THR_M,BLK_K) x (THR_N,BLK_K) => (THR_M,THR_N)
    __syncthreads();
  }
  axpby(alpha, tCrC, beta, tCgC);
}

// The tutorial's two configurations, for an SgemmProblem whose C is column-major (M-major):
//   nt: A column-major (M-major), B row-major (as (N,K): N-major);
//   tn: A row-major (K-major), B column-major (as (N,K): K-major).
// Pre: M, N multiples of 128, K of 8; the majors above (std::invalid_argument otherwise).
enum class TutorialVariant { nt, tn };

inline void check_tutorial_problem(kernels::SgemmProblem const& p, TutorialVariant v) {
  char const* name = v == TutorialVariant::nt ? "sgemm_tutorial_nt" : "sgemm_tutorial_tn";
  Major const a = v == TutorialVariant::nt ? Major::col : Major::row;
  Major const b = v == TutorialVariant::nt ? Major::row : Major::col;
  if (p.c_major != Major::col || p.a_major != a || p.b_major != b) {
    throw std::invalid_argument(
        std::string(name) + ": needs a column-major C and " +
        (v == TutorialVariant::nt ? "a column-major A, a row-major B" : "a row-major A, a column-major B"));
  }
  if (p.m % 128 != 0 || p.n % 128 != 0 || p.k % 8 != 0) {
    throw std::invalid_argument(
        std::string(name) + ": the tutorial kernel is unpredicated; M and N must be multiples of 128 and K of 8, got " +
        std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k));
  }
}

// Launches the tutorial kernel on p (asynchronous); returns the launch's error.
inline cudaError_t launch_sgemm_tutorial(kernels::SgemmProblem const& p, TutorialVariant v, cudaStream_t stream) {
  check_tutorial_problem(p, v);
  auto prob_shape = make_shape(p.m, p.n, p.k);                    // (M,N,K)
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<8>{});  // (BLK_M,BLK_N,BLK_K)
  auto dC = make_stride(Int<1>{}, p.ldc);                         // (dM,dN)
  auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}));        // (m,n) -> thread, M-major
  dim3 const block(size_v<decltype(tC)>);
  dim3 const grid(unsigned(p.m / 128), unsigned(p.n / 128));
  if (v == TutorialVariant::nt) {
    auto dA = make_stride(Int<1>{}, p.lda);                   // (dM,dK)
    auto dB = make_stride(Int<1>{}, p.ldb);                   // (dN,dK)
    auto sA = make_layout(make_shape(Int<128>{}, Int<8>{}));  // (m,k) -> smem offset, M-major
    auto sB = make_layout(make_shape(Int<128>{}, Int<8>{}));  // (n,k) -> smem offset, N-major
    auto tA = make_layout(make_shape(Int<32>{}, Int<8>{}));   // (m,k) -> thread, M-major
    auto tB = make_layout(make_shape(Int<32>{}, Int<8>{}));   // (n,k) -> thread, N-major
    sgemm_tutorial_kernel<<<grid, block, 0, stream>>>(prob_shape, cta_tiler, p.a, dA, sA, tA, p.b, dB, sB, tB, p.c, dC,
                                                      tC, p.alpha, p.beta);
  } else {
    auto dA = make_stride(p.lda, Int<1>{});                                  // (dM,dK)
    auto dB = make_stride(p.ldb, Int<1>{});                                  // (dN,dK)
    auto sA = make_layout(make_shape(Int<128>{}, Int<8>{}), LayoutRight{});  // (m,k) -> smem offset, K-major
    auto sB = make_layout(make_shape(Int<128>{}, Int<8>{}), LayoutRight{});  // (n,k) -> smem offset, K-major
    auto tA = make_layout(make_shape(Int<32>{}, Int<8>{}), LayoutRight{});   // (m,k) -> thread, K-major
    auto tB = make_layout(make_shape(Int<32>{}, Int<8>{}), LayoutRight{});   // (n,k) -> thread, K-major
    sgemm_tutorial_kernel<<<grid, block, 0, stream>>>(prob_shape, cta_tiler, p.a, dA, sA, tA, p.b, dB, sB, tB, p.c, dC,
                                                      tC, p.alpha, p.beta);
  }
  return cudaGetLastError();
}

}  // namespace tessera::examples
