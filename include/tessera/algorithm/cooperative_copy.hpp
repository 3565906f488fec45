// cooperative_copy<NumThreads, MaxVecBits>(tid, src, dst): NumThreads threads copy src to dst
// together, each moving its share, vectorized as copy is (algorithm/copy.hpp) up to MaxVecBits
// bits per access: the vectors (or elements) of the copy are dealt round-robin, vector j to thread
// j % NumThreads, so consecutive threads touch consecutive vectors (coalesced global accesses).
#pragma once

#include "tessera/algorithm/copy.hpp"

namespace tessera {

namespace detail {
// This thread's W-bit vectors of the copy, when the layouts and pointers allow W (as copy
// decides); returns false, copying nothing, otherwise.
template <int W, int NumThreads, class Src, class Dst>
TESSERA_HOST_DEVICE bool cooperative_copy_vectorized(unsigned tid, Src const& src, Dst& dst) {
  using S = std::remove_cvref_t<Src>;
  using D = std::remove_cvref_t<Dst>;
  if constexpr (!static_vector_ok<W, S, D>()) {
    return false;
  } else {
    if (!can_vectorize<W>(src, dst)) return false;
    for (int j = int(tid); j < vector_blocks<W, S, D>(); j += NumThreads) copy_vector_block<W>(src, dst, j);
    return true;
  }
}
}  // namespace detail

// cooperative_copy<NumThreads, MaxVecBits = 128>(tid, src, dst): this thread's share of
// dst(i) = src(i). With W the widest of 128/64/32/16/8 bits, at most MaxVecBits, that copy would
// use for (src, dst) (static layouts, every vector contiguous in both, pointers aligned: checked
// at run time, the same answer in every thread), thread tid moves vectors tid, tid + NumThreads,
// ...; without one it moves elements tid, tid + NumThreads, ....
// Pre: 0 <= tid < NumThreads; size(src) == size(dst); every thread of the group passes the same
//      tensors (a block-wide view, not a per-thread partition); MaxVecBits in {8,16,32,64,128}.
// Post: once all NumThreads threads have returned (and synchronized, e.g. __syncthreads()), dst
//      equals src; each element is written by exactly one thread.
// Example: 32 threads, two 16-byte aligned (_16,_8) float tiles: 32 vectors of 4 floats, thread 3
//      copies elements 12..15; with MaxVecBits = 32, thread 3 copies elements 3, 35, 67, 99.
template <int NumThreads, int MaxVecBits = 128, class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
TESSERA_HOST_DEVICE void cooperative_copy(unsigned tid, Src const& src, Dst&& dst) {
  static_assert(NumThreads > 0, "cooperative_copy<NumThreads, MaxVecBits>: NumThreads must be at least 1");
  static_assert(MaxVecBits == 8 || MaxVecBits == 16 || MaxVecBits == 32 || MaxVecBits == 64 || MaxVecBits == 128,
                "cooperative_copy<NumThreads, MaxVecBits>: MaxVecBits must be 8, 16, 32, 64 or 128 (the "
                "widest access allowed, in bits)");
  detail::require_same_size(src, dst);
  TESSERA_REQUIRE(tid < unsigned(NumThreads),
                  "cooperative_copy<NumThreads>: the thread index must be below NumThreads; pass "
                  "threadIdx.x of a block of NumThreads threads (got tid, NumThreads)",
                  tid, NumThreads);
  if ((MaxVecBits >= 128 && detail::cooperative_copy_vectorized<128, NumThreads>(tid, src, dst)) ||
      (MaxVecBits >= 64 && detail::cooperative_copy_vectorized<64, NumThreads>(tid, src, dst)) ||
      (MaxVecBits >= 32 && detail::cooperative_copy_vectorized<32, NumThreads>(tid, src, dst)) ||
      (MaxVecBits >= 16 && detail::cooperative_copy_vectorized<16, NumThreads>(tid, src, dst)) ||
      detail::cooperative_copy_vectorized<8, NumThreads>(tid, src, dst)) {
    return;
  }
  auto const n = static_cast<long long>(size(dst));
  for (long long i = tid; i < n; i += NumThreads) {
    dst(i) = src(i);
  }
}

}  // namespace tessera
