// A ring of shared-memory buffers that a group of threads (a warpgroup) fills and one of its
// threads stores to global memory with TMA stores: the epilogue's staging, so that the group goes
// on (to its next tile's main loop) while its stores run, and rewrites a buffer only once the
// store issued from it has read it.
//   TmaStoreRing<Slots, SlotBytes>{base}   Slots buffers of SlotBytes at `base` (shared memory)
//     slot()                                 the buffer the group writes next
//     wait_free()                            the storing thread, before the group writes slot():
//                                            waits until the store issued from that buffer Slots
//                                            stores ago has read it (none before the first lap)
//     commit()                               the storing thread, after issuing slot()'s stores:
//                                            they form one bulk group (tma_store_commit)
//     advance()                              every thread of the group: the next buffer
//     drain()                                the storing thread, before the block exits: every
//                                            store issued has read its buffer
// The group's threads meet (a named barrier) between wait_free and their writes, and again,
// after fence_view_async_shared, between their writes and the stores; the ring leaves those to
// the caller, who knows the group.
//
// Example (two 8 KB buffers, one box a step):
//   TmaStoreRing<2, 8192> ring{buf};
//   for (step ...) { if (lt == 0) ring.wait_free(); named_barrier_sync(id, 128);
//                    <write ring.slot()>; fence_view_async_shared(); named_barrier_sync(id, 128);
//                    if (lt == 0) { <TMA store from ring.slot()>; ring.commit(); } ring.advance(); }
//   if (lt == 0) ring.drain();
#pragma once

#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

template <int Slots, int SlotBytes>
struct TmaStoreRing {
  static_assert(Slots >= 1 && Slots <= 8, "TmaStoreRing: 1 to 8 buffers");
  static_assert(SlotBytes % 128 == 0, "TmaStoreRing: a buffer keeps the 128-byte alignment of TMA boxes");
  static constexpr int kBytes = Slots * SlotBytes;
  unsigned char* base;
  int count = 0;  // stores issued so far (the same in every thread of the group)

  TESSERA_HOST_DEVICE unsigned char* slot() const { return base + (count % Slots) * SlotBytes; }
  __device__ void wait_free() const {
    if (count >= Slots) tma_store_wait_read<Slots - 1>();
  }
  __device__ void commit() const { tma_store_commit(); }
  TESSERA_HOST_DEVICE void advance() { ++count; }
  __device__ void drain() const { tma_store_wait_read<0>(); }
};

}  // namespace tessera
