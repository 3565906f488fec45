// The special-function unit's approximations, one MUFU instruction each (the flush-to-zero forms:
// no denormal fix-up around them, which CUDA's __expf and __frcp_rn add):
//   ex2_approx(x)   2^x, relative error <= 2^-22 (PTX ex2.approx.ftz.f32); 2^-inf = 0, 2^inf = inf
//   rcp_approx(x)   1/x, at most 1 ulp off (PTX rcp.approx.ftz.f32); 1/inf = 0, 1/0 = inf
// For epilogues that evaluate an activation per output element: CUDA's exact forms are a branch
// and a slow path per call, which keeps the compiler from interleaving independent elements.
// Example: ex2_approx(3.0f) == 8.0f, rcp_approx(4.0f) == 0.25f. Every architecture has them; in
// host code the bodies stop with a message (detail::device_only, arch/util.hpp).
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/config.hpp"

namespace tessera {

template <class Unused = void>
TESSERA_HOST_DEVICE float ex2_approx(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  detail::device_only("ex2_approx (ex2.approx.ftz.f32)", x);
#endif
}

template <class Unused = void>
TESSERA_HOST_DEVICE float rcp_approx(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  detail::device_only("rcp_approx (rcp.approx.ftz.f32)", x);
#endif
}

}  // namespace tessera
