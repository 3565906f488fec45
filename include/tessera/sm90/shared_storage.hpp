// The typed plan of a Hopper kernel's dynamic shared memory: a kernel names its shared storage as
// one struct (its stages, epilogue buffers, barriers: each a member), and this header places the
// struct in the block's dynamic shared memory and says how many bytes to ask the launch for. One
// place computes the carve and its bytes.
//   shared_storage<S>()          the block's S, at the first 1024-byte boundary of the dynamic
//                                shared memory (the alignment of 128-byte swizzle atoms and TMA boxes)
//   shared_storage_bytes<S>()    the dynamic shared memory a launch gives the block: sizeof(S) and
//                                the room to align it
//   SmemBytes<N>                 N bytes inside a storage struct (an epilogue's buffers; N may be 0)
// Members whose start must be 1024-byte aligned (swizzled stages) come first and have sizes that
// keep the next one aligned; the storage struct states that with a static_assert.
//
// Example:
//   struct Storage { half_t a[4][128 * 64]; half_t b[4][256 * 64]; SmemBytes<32768> epilogue;
//                    std::uint64_t bars[8]; };
//   auto& s = sm90::shared_storage<Storage>();     // device
//   launch with sm90::shared_storage_bytes<Storage>() bytes   // 229 KB + 1 KB of alignment room
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// N bytes of a shared-storage struct, 128-byte aligned (a TMA box's alignment); N == 0 takes one
// 128-byte unit so that the members after it keep their places' arithmetic simple.
template <int N>
struct SmemBytes {
  static_assert(N >= 0 && N % 128 == 0, "SmemBytes: a multiple of 128 bytes");
  alignas(128) unsigned char bytes[N > 0 ? N : 128];
  TESSERA_HOST_DEVICE unsigned char* data() { return bytes; }
};

namespace sm90 {

inline constexpr int kSharedStorageAlign = 1024;

template <class S>
TESSERA_HOST_DEVICE constexpr int shared_storage_bytes() {
  static_assert(alignof(S) <= kSharedStorageAlign, "shared_storage: at most 1024-byte alignment");
  return int(sizeof(S)) + kSharedStorageAlign;
}

#if defined(__CUDACC__)
template <class S>
__device__ __forceinline__ S& shared_storage() {
  extern __shared__ unsigned char tessera_sm90_smem[];
  auto const p = (reinterpret_cast<std::uintptr_t>(tessera_sm90_smem) + (kSharedStorageAlign - 1)) &
                 ~std::uintptr_t(kSharedStorageAlign - 1);
  return *reinterpret_cast<S*>(p);
}
#endif

}  // namespace sm90
}  // namespace tessera
