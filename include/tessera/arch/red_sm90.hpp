// Reductions into global memory without a returned value (PTX red), the vector forms of sm_90:
//   red_add_v2_f32(p, a, b)   p[0] += a, p[1] += b as one red.global.add.v2.f32 (relaxed, gpu scope)
// The attention backward accumulates dQ in fp32 with it (kernels/attention/backward_sm90.cuh).
// Pre: p points to global memory, 8-byte aligned. Built for an architecture below sm_90, a use fails
// to compile.
#pragma once

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

template <class Unused = void>
TESSERA_HOST_DEVICE void red_add_v2_f32(float* p, float a, float b) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("red.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(p), "f"(a), "f"(b) : "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("red_add_v2_f32");
#else
  detail::device_only("red_add_v2_f32", p, a, b);
#endif
}

}  // namespace tessera
