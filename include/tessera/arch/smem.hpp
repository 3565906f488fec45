// Shared-memory accesses by 32-bit shared-window address (as smem_address gives it), for kernels
// whose shared storage is reached through a generic pointer (sm90::shared_storage): the compiler
// otherwise addresses it with 64-bit generic pointers, two registers an address.
//   st_shared_b32(addr, v)     *(uint32_t*)addr = v     (st.shared.b32; addr 4-byte aligned)
// The attention backward writes dS^T with it (kernels/attention/backward_sm90.cuh).
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
}  // namespace tessera
