// SGEMM in fp32: C = alpha * A * B + beta * C, a ladder of kernels written with Tessera's tensors.
//
//   v1  2D block tiling (seed 004): local_tile / local_partition, (64,64,8) tiles, (8,8) per thread.
//   v2  + 128-bit global loads, A transposed in shared memory, (128,128,8) tiles.
//   v3  + double buffering (two shared stages, next tile's loads in flight).
//   v4  + warp tiling (conflict-free 128-bit shared reads).
//   v5  tuned: 128 threads with (16,8) values each, BK = 16, grouped block order, unpredicated
//       interior tiles.
// Each version accepts any M, N, K and row- or column-major A, B and C (sgemm_common.cuh).
// Measured against cuBLAS in docs/performance.md ("SGEMM").
#pragma once

#include "tessera/kernels/sgemm_common.cuh"
#include "tessera/kernels/sgemm_tiled.cuh"
#include "tessera/kernels/sgemm_v1_blocktile.cuh"

namespace tessera::kernels {

using SgemmV2 = SgemmTiledConfig<128, 128, 8, false, 1, false>;
using SgemmV3 = SgemmTiledConfig<128, 128, 8, false, 2, false>;
using SgemmV4 = SgemmTiledConfig<128, 128, 8, true, 2, false>;
// v5: 128 threads (4 warps of (128,32)), (16,8) values per thread: 6 shared reads per 128 FMAs
// instead of 4 per 64, up to 255 registers with 2 blocks per SM; BK = 16 (half the barriers and
// tile loads per FMA); grouped block order; interior tiles loaded without predicates.
using SgemmV5 = SgemmTiledConfig<128, 128, 16, true, 2, true, 16, 8, true>;

// Tuning candidates measured beside the ladder (docs/performance.md, "SGEMM").
using SgemmCandidateV4Fast = SgemmTiledConfig<128, 128, 8, true, 2, false, 8, 8, true>;     // v4 + fast path
using SgemmCandidate16x8 = SgemmTiledConfig<128, 128, 8, true, 2, true, 16, 8, true>;       // v5 with BK = 8
using SgemmCandidateBk8 = SgemmTiledConfig<128, 128, 8, true, 2, true, 8, 16, true>;        // (8,16), BK = 8
using SgemmCandidateBk16x8x16 = SgemmTiledConfig<128, 128, 16, true, 2, true, 8, 16, true>;  // v5 with (8,16)

inline constexpr int kSgemmVersions = 5;

// K == 0: C = beta * C (A and B are not read), one thread per element of the row-major (M,N) C.
// (A template so that the header may be included by several translation units.)
template <class T>
__global__ void sgemm_scale_c_kernel(int M, int N, T beta, T* C, int ldc) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(M) * N) return;
  T& c = C[(i / N) * ldc + i % N];
  c = beta == T(0) ? T(0) : beta * c;
}

// The name of version v (1..5): "sgemm_v1_blocktile", ...
inline char const* sgemm_version_name(int v) {
  switch (v) {
    case 1: return "sgemm_v1_blocktile";
    case 2: return "sgemm_v2_vectorized";
    case 3: return "sgemm_v3_double_buffer";
    case 4: return "sgemm_v4_warp_tile";
    case 5: return "sgemm_v5_tuned";
    default: return "sgemm_unknown";
  }
}

// Runs the tiled kernel with configuration Cfg (any SgemmTiledConfig) on stream, with the
// checks and the column-major-C handling of sgemm().
template <class Cfg>
cudaError_t sgemm_tiled(SgemmProblem const& problem, cudaStream_t stream = nullptr);

// Runs version v (1..5) of the ladder on stream; asynchronous like a kernel launch. Returns
// cudaErrorInvalidValue for an invalid problem or version, else the launch's error.
inline cudaError_t sgemm(int version, SgemmProblem const& problem, cudaStream_t stream = nullptr) {
  if (cudaError_t const e = detail::check_problem(problem); e != cudaSuccess) return e;
  if (version < 1 || version > kSgemmVersions) return cudaErrorInvalidValue;
  SgemmProblem const p = detail::as_row_major_c(problem);
  if (p.m == 0 || p.n == 0) return cudaSuccess;
  if (p.k == 0) {
    long long const count = static_cast<long long>(p.m) * p.n;
    sgemm_scale_c_kernel<float><<<static_cast<unsigned>((count + 255) / 256), 256, 0, stream>>>(p.m, p.n, p.beta, p.c, p.ldc);
    return cudaGetLastError();
  }
  switch (version) {
    case 1: launch_sgemm_v1(p, stream); break;
    case 2: launch_sgemm_tiled<SgemmV2>(p, stream); break;
    case 3: launch_sgemm_tiled<SgemmV3>(p, stream); break;
    case 4: launch_sgemm_tiled<SgemmV4>(p, stream); break;
    default: launch_sgemm_tiled<SgemmV5>(p, stream); break;
  }
  return cudaGetLastError();
}

template <class Cfg>
cudaError_t sgemm_tiled(SgemmProblem const& problem, cudaStream_t stream) {
  if (cudaError_t const e = detail::check_problem(problem); e != cudaSuccess) return e;
  SgemmProblem const p = detail::as_row_major_c(problem);
  if (p.m == 0 || p.n == 0) return cudaSuccess;
  if (p.k == 0) return sgemm(1, problem, stream);  // C = beta C
  launch_sgemm_tiled<Cfg>(p, stream);
  return cudaGetLastError();
}

}  // namespace tessera::kernels
