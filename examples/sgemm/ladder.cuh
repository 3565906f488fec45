// The SGEMM ladder: five steps from a block-tiled kernel written the way the layout algebra
// suggests to the tuned kernel behind kernels::sgemm, one idea per step (examples/README.md):
//
//   v1  2D block tiling: local_tile / local_partition, (64,64,8) tiles, (8,8) values per thread
//       (v1_blocktile.cuh).
//   v2  + 128-bit global loads, A transposed in shared memory, (128,128,8) tiles.
//   v3  + double buffering (two shared stages, the next tile's loads in flight).
//   v4  + warp tiling (conflict-free 128-bit shared reads).
//   v5  tuned: 128 threads with (16,8) values each, BK = 16, grouped block order, unpredicated
//       interior tiles -- kernels::SgemmTuned, what kernels::sgemm runs.
// v2..v5 are configurations of the library's tiled kernel (include/tessera/kernels/sgemm_tiled.cuh).
// Each accepts any M, N, K and row- or column-major A, B and C.
#pragma once

#include <stdexcept>
#include <string>

#include "tessera/kernels/sgemm.cuh"
#include "v1_blocktile.cuh"

namespace tessera::examples {

using SgemmV2 = kernels::SgemmTiledConfig<128, 128, 8, false, 1, false>;
using SgemmV3 = kernels::SgemmTiledConfig<128, 128, 8, false, 2, false>;
using SgemmV4 = kernels::SgemmTiledConfig<128, 128, 8, true, 2, false>;
using SgemmV5 = kernels::SgemmTuned;

// Tuning candidates measured beside the ladder (docs/performance/log.md, "SGEMM").
using SgemmCandidateV4Fast = kernels::SgemmTiledConfig<128, 128, 8, true, 2, false, 8, 8, true>;      // v4 + fast path
using SgemmCandidate16x8 = kernels::SgemmTiledConfig<128, 128, 8, true, 2, true, 16, 8, true>;        // v5 with BK = 8
using SgemmCandidateBk8 = kernels::SgemmTiledConfig<128, 128, 8, true, 2, true, 8, 16, true>;         // (8,16), BK = 8
using SgemmCandidateBk16x8x16 = kernels::SgemmTiledConfig<128, 128, 16, true, 2, true, 8, 16, true>;  // v5 with (8,16)

inline constexpr int kSgemmSteps = 5;

// The name of step v (1..5): "sgemm_v1_blocktile", ...
inline char const* sgemm_step_name(int v) {
  switch (v) {
    case 1: return "sgemm_v1_blocktile";
    case 2: return "sgemm_v2_vectorized";
    case 3: return "sgemm_v3_double_buffer";
    case 4: return "sgemm_v4_warp_tile";
    case 5: return "sgemm_v5_tuned";
    default: return "sgemm_unknown";
  }
}

// sgemm_step(v, problem, stream): runs step v (1..5) of the ladder; asynchronous like a launch.
// Throws std::invalid_argument for a step outside 1..5 or an invalid problem; returns the launch's
// error. Compiled once, in ladder.cu (tessera::example_sgemm), for the example programs,
// tessera-bench and the tests.
cudaError_t sgemm_step(int v, kernels::SgemmProblem const& problem, cudaStream_t stream = nullptr);

}  // namespace tessera::examples
