// The L2 prefetch instruction: prefetch.global.L2 [addr], a hint that brings the cache line of a
// global-memory address into L2 ahead of a load. No registers, no result, no ordering: a program
// is correct with or without it. Every architecture Tessera builds for has it; on the host it does
// nothing (there is no L2 of the GPU to warm), so host code that prefetches runs unchanged.
#pragma once

#include "tessera/core/config.hpp"

namespace tessera {

// prefetch_l2(p): asks the GPU to bring the line holding *p into L2.
// Pre: p points into global memory (a cudaMalloc'd buffer or a __device__ array); it is not read.
// Post: nothing observable; a later load of *p may hit in L2. On the host: no effect.
// Example: prefetch_l2(&gA[k + 64]) one tile ahead of the loads of gA[k ...].
TESSERA_HOST_DEVICE void prefetch_l2(void const* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];\n" : : "l"(p) : "memory");
#else
  (void)p;
#endif
}

}  // namespace tessera
