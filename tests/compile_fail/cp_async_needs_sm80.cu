// Compile-fail case: cp.async (sm_80) used in device code built for sm_75.
//
// SM80_CP_ASYNC_CACHEALWAYS_ZFILL wraps cp.async.ca with a src-size operand, which sm_75 lacks; its
// use must fail in the sm_75 device pass naming the instruction, sm_80 and the -gencode to build
// for. (cp_async_fence and the waits fail the same way; the first message is checked.)
// Control: the same kernel with a plain UniversalCopy compiles for sm_75.
// CUDA-ARCH: 75
// EXPECT-ERROR: SM80_CP_ASYNC_CACHEALWAYS_ZFILL: cp.async needs sm_80 or newer; build for -gencode arch=compute_80 or later
#include <cstdint>

#include "tessera/arch/copy.hpp"
#include "tessera/arch/copy_sm80.hpp"

using namespace tessera;

__global__ void kernel(std::uint32_t const* g, std::uint32_t* out) {
  __shared__ std::uint32_t s[32];
#ifndef TESSERA_CONTROL
  SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint32_t>::copy(g[threadIdx.x], s[threadIdx.x], threadIdx.x < 16);
  cp_async_wait_all();
#else
  UniversalCopy<std::uint32_t>::copy(g[threadIdx.x], s[threadIdx.x]);
#endif
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}
