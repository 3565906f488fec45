// prefetch(t) and cooperative_prefetch<NumThreads, FetchBytes>(tid, t): L2 prefetch hints for the
// elements of a global-memory tensor, one prefetch_l2 per FetchBytes-byte run of contiguous
// elements in 1-D index order (per element when the layout proves no contiguous run). A hint only: the tensor is
// not read or written, and on the host nothing happens.
#pragma once

#include "tessera/algorithm/functional.hpp"
#include "tessera/arch/prefetch.hpp"

namespace tessera {

namespace detail {
// The number R of consecutive 1-D indices of t that one prefetch covers: the largest R with
// R * bits(T) <= FetchBytes * 8 that divides size(t) and for which every block of R indices
// [jR, jR + R) has consecutive offsets (checked over the whole layout at compile time; static
// layouts up to 2^15 elements, else 1).
template <int FetchBytes, class Tn>
TESSERA_HOST_DEVICE constexpr int prefetch_run() {
  using L = typename Tn::layout_type;
  if constexpr (!is_static_v<L> || !PointerIterator<typename Tn::iterator>) {
    return 1;
  } else {
    constexpr long long n = static_cast<long long>(decltype(size(L{}))::value);
    constexpr int bits = sizeof_bits_v<typename Tn::value_type>;
    if (n > (1 << 15)) return 1;
    L l{};
    for (long long r = (FetchBytes * 8LL) / bits; r > 1; --r) {
      if (n % r != 0) continue;
      bool ok = true;
      for (long long i = 1; i < n && ok; ++i) {
        if (i % r != 0) ok = static_cast<long long>(l(i)) == static_cast<long long>(l(i - 1)) + 1;
      }
      if (ok) return int(r);
    }
    return 1;
  }
}
}  // namespace detail

// cooperative_prefetch<NumThreads, FetchBytes = 64>(tid, t): thread tid of NumThreads issues the
// prefetches of runs tid, tid + NumThreads, ... of t (each run R consecutive indices, R as above).
// Pre: 0 <= tid < NumThreads; t's iterator is a pointer into global memory; every thread of the
// group passes the same t. Post: nothing observable (a hint). Example: 128 threads over a
// (_128,_8):(_1,_128) float tile, FetchBytes 64: runs of 16 floats, 64 prefetches, thread 5 issues
// the one at element 80.
template <int NumThreads, int FetchBytes = 64, class Tn>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE void cooperative_prefetch(unsigned tid, Tn const& t) {
  static_assert(NumThreads > 0, "cooperative_prefetch<NumThreads>: NumThreads must be at least 1");
  static_assert(FetchBytes > 0, "cooperative_prefetch<NumThreads, FetchBytes>: FetchBytes must be at least 1");
  using T = std::remove_cvref_t<Tn>;
  static_assert(PointerIterator<typename T::iterator>,
                "prefetch: the tensor must sit on memory (a global-memory pointer); a counting or "
                "coordinate tensor has no address to prefetch");
  constexpr int run = detail::prefetch_run<FetchBytes, T>();
  long long const runs = static_cast<long long>(size(t)) / run;
  for (long long j = tid; j < runs; j += NumThreads) {
    prefetch_l2(raw_pointer(t.data() + t.layout()(j * run)));
  }
}

// prefetch(t) = cooperative_prefetch<1>(0, t): one thread prefetches all of t.
// Pre: t's iterator is a pointer into global memory. Post: nothing observable (a hint).
// Example: prefetch(gA(_, _, k + 1)) before the loads of k-tile k.
template <class Tn>
  requires is_tensor_v<Tn>
TESSERA_HOST_DEVICE void prefetch(Tn const& t) {
  cooperative_prefetch<1>(0u, t);
}

}  // namespace tessera
