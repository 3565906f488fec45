// Compile-fail case: stmatrix (sm_90) used in device code built for sm_80.
//
// SM90_U32x4_STSM_N wraps stmatrix.sync.aligned.m8n8.x4, which sm_80 lacks; its use must fail in
// the sm_80 device pass naming the instruction, sm_90 and the -gencode to build for. ldmatrix and
// cp.async in the same kernel are fine on sm_80.
// Control: the same kernel without the stmatrix compiles for sm_80.
// CUDA-ARCH: 80
// EXPECT-ERROR: SM90_U32x4_STSM_N: stmatrix needs sm_90 or newer; build for -gencode arch=compute_90 or later
#include <cstdint>

#include "tessera/arch/copy_sm75.hpp"
#include "tessera/arch/copy_sm80.hpp"
#include "tessera/arch/copy_sm90.hpp"

using namespace tessera;

__global__ void kernel(uint128_t const* g, std::uint32_t* out) {
  __shared__ uint128_t rows[32];
  SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::copy(g[threadIdx.x], rows[threadIdx.x]);
  cp_async_wait_all();
  __syncthreads();
  std::uint32_t r[4];
  SM75_U32x4_LDSM_N::copy(rows[threadIdx.x], r[0], r[1], r[2], r[3]);
#ifndef TESSERA_CONTROL
  SM90_U32x4_STSM_N::copy(r[0], r[1], r[2], r[3], rows[threadIdx.x]);
#endif
  out[threadIdx.x] = r[0] + r[1] + r[2] + r[3];
}
