// SGEMM in fp32: C = alpha * A * B + beta * C for any M, N, K >= 0 and row- or column-major A, B and
// C (SgemmProblem, sgemm_problem.hpp), on CUDA cores (no TF32). The kernel is the block-tiled one
// of sgemm_tiled.cuh in its tuned configuration; examples/sgemm/ builds it up step by step.
// Measured against cuBLAS in docs/performance.md ("SGEMM").
//
//   sgemm(problem, stream)              the tuned kernel
//   sgemm_tiled<Cfg>(problem, stream)   any SgemmTiledConfig
//   launch_sgemm(fn, problem, stream, launch)  the frame every SGEMM launcher shares
// Each validates the problem first (std::invalid_argument naming the violated precondition) and
// returns the launch's cudaError_t (docs/errors.md).
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the launchers
#include <cuda_runtime.h>
#endif

#include "tessera/kernels/sgemm_problem.hpp"
#include "tessera/kernels/sgemm_tiled.cuh"

namespace tessera::kernels {

// What sgemm() runs: 128 threads with (16,8) values each, BK = 16, warp tiling, two stages,
// grouped block order, unpredicated interior tiles (sgemm_tiled.cuh).
using SgemmTuned = SgemmTiledConfig<128, 128, 16, true, 2, true, 16, 8, true>;

namespace detail {
// K == 0: C = beta * C (A and B are not read), one thread per element of the row-major (M,N) C.
// (A template so that the header may be included by several translation units.)
template <class T>
__global__ void sgemm_scale_c_kernel(int M, int N, T beta, T* C, int ldc) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(M) * N) return;
  T& c = C[(i / N) * ldc + i % N];
  c = beta == T(0) ? T(0) : beta * c;
}
}  // namespace detail

#if !defined(__CUDACC_RTC__)  // host only: the launchers (a run-time compiled kernel is launched by its caller)
// launch_sgemm(fn, problem, stream, launch): validates problem (errors name fn), turns a
// column-major C into the row-major C^T = B^T A^T, handles the empty cases (M or N = 0: nothing;
// K = 0: C = beta C) and otherwise calls launch(row_major_problem, stream), which launches one
// kernel. Returns the launch's error.
template <class Launch>
cudaError_t launch_sgemm(char const* fn, SgemmProblem const& problem, cudaStream_t stream, Launch&& launch) {
  detail::check_sgemm_problem(fn, problem);
  SgemmProblem const p = detail::as_row_major_c(problem);
  if (p.m == 0 || p.n == 0) return cudaSuccess;
  if (p.k == 0) {
    long long const count = static_cast<long long>(p.m) * p.n;
    detail::sgemm_scale_c_kernel<float>
        <<<static_cast<unsigned>((count + 255) / 256), 256, 0, stream>>>(p.m, p.n, p.beta, p.c, p.ldc);
  } else {
    launch(p, stream);
  }
  return cudaGetLastError();
}

// sgemm_tiled<Cfg>(problem, stream): the tiled kernel with configuration Cfg.
template <class Cfg>
cudaError_t sgemm_tiled(SgemmProblem const& problem, cudaStream_t stream = nullptr) {
  return launch_sgemm("sgemm_tiled", problem, stream,
                      [](SgemmProblem const& p, cudaStream_t s) { launch_sgemm_tiled<Cfg>(p, s); });
}

// sgemm(problem, stream): C = alpha A B + beta C with the tuned kernel; asynchronous like a launch.
inline cudaError_t sgemm(SgemmProblem const& problem, cudaStream_t stream = nullptr) {
  return launch_sgemm("sgemm", problem, stream,
                      [](SgemmProblem const& p, cudaStream_t s) { launch_sgemm_tiled<SgemmTuned>(p, s); });
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
