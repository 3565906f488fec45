// Shared-memory accesses by 32-bit shared-window address (as smem_address gives it), for kernels
// whose shared storage is reached through a generic pointer (sm90::shared_storage): the compiler
// otherwise addresses it with 64-bit generic pointers, two registers an address.
//   st_shared_b32(addr, v)     *(uint32_t*)addr = v     (st.shared.b32; addr 4-byte aligned)
//   st_shared_v2_f32(addr, a, b)  ((float*)addr)[0, 1] = a, b  (st.shared.v2.f32; addr 8-byte aligned)
//   ld_shared_v2_f32(addr)     *(float2*)addr           (ld.shared.v2.f32; addr 8-byte aligned;
//                              volatile: kept in program order with the other accesses here, so
//                              that a loop's loads are not all hoisted into registers at once)
// The attention backward writes dS^T and its dQ shares with them (kernels/attention/backward_sm90.cuh).
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

template <class Unused = void>
TESSERA_HOST_DEVICE void st_shared_b32(std::uint32_t addr, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(v) : "memory");
#else
  detail::device_only("st_shared_b32", addr, v);
#endif
}

template <class Unused = void>
TESSERA_HOST_DEVICE void st_shared_v2_f32(std::uint32_t addr, float a, float b) {
#if defined(__CUDA_ARCH__)
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(a), "f"(b) : "memory");
#else
  detail::device_only("st_shared_v2_f32", addr, a, b);
#endif
}

template <class Unused = void>
TESSERA_HOST_DEVICE float2 ld_shared_v2_f32(std::uint32_t addr) {
  float2 v{};
#if defined(__CUDA_ARCH__)
  asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];\n" : "=f"(v.x), "=f"(v.y) : "r"(addr) : "memory");
#else
  detail::device_only("ld_shared_v2_f32", addr);
#endif
  return v;
}
}  // namespace tessera
