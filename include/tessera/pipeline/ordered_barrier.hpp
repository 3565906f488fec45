// Groups of threads (consumer warpgroups) that enter a section one after the other, in a fixed
// cyclic order 0, 1, ..., Groups - 1, 0, 1, ...: the ping-pong of two consumer warpgroups, where
// one issues its main loop's matrix products while the other runs its epilogue (or its softmax).
//   OrderedBarrier<Groups>{bars}      Groups mbarriers at `bars` (kBarriers 64-bit words of shared
//                                     memory); turn[g] completes when group g - 1 leaves
//     init()                            one thread; the block syncs before any other use
//     turn(g)                           group g's position in the order (an OrderedTurn, kept by
//                                       every thread of the group)
//     enter(t)                          wait until group g - 1 has left its section for the
//                                       entry this one follows (group 0's first entry is free)
//     leave(t)                          one thread of the group: the next group may enter
// Entry n of group g follows entry n of group g - 1 (for g = 0: entry n - 1 of the last group).
// Pre: a group leaves once after each entry; a group that stops (no more tiles) stops for good,
// after its last leave (nobody waits for it then). An mbarrier answers a parity, so a group must
// not run two entries ahead of the one it waits for: the cyclic order keeps it from doing so.
//
// Example (two consumer warpgroups taking a block's tiles in turn):
//   OrderedBarrier<2> order{bars};  if (tid == 0) order.init();  ... __syncthreads();
//   auto t = order.turn(w);                       // w = 0 or 1
//   for (tile j = w; ...; j += 2) { order.enter(t); <issue main loop>; if (lt == 0) order.leave(t);
//                                   <finish the tile> }
#pragma once

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// A group's place in an OrderedBarrier: its index and the entries it has made.
struct OrderedTurn {
  int group = 0;
  std::uint32_t entries = 0;
};

template <int Groups>
struct OrderedBarrier {
  static_assert(Groups >= 2 && Groups <= 8, "OrderedBarrier: 2 to 8 groups");
  static constexpr int kBarriers = Groups;
  std::uint64_t* bars;

  // One thread: turn[g] completes on one arrival (group g - 1 leaving).
  TESSERA_HOST_DEVICE void init() const {
    for (int g = 0; g < Groups; ++g) mbarrier_init(bars + g, 1);
    fence_barrier_init();
  }
  TESSERA_HOST_DEVICE static constexpr OrderedTurn turn(int group) { return OrderedTurn{group, 0}; }
  // The parity that entry t.entries of group t.group waits for on turn[group] (-1: none):
  // group 0's entry n waits for the last group's leaving n - 1 (phase n - 1 of turn[0]); group g's
  // entry n for group g - 1's leaving n (phase n of turn[g]).
  TESSERA_HOST_DEVICE static constexpr int parity(OrderedTurn const& t) {
    if (t.group == 0) return t.entries == 0 ? -1 : int((t.entries - 1) & 1u);
    return int(t.entries & 1u);
  }
  TESSERA_HOST_DEVICE void enter(OrderedTurn& t) const {
    int const p = parity(t);
    if (p >= 0) mbarrier_wait(bars + t.group, std::uint32_t(p));
    ++t.entries;
  }
  // One thread of the group, once the section's work is issued.
  TESSERA_HOST_DEVICE void leave(OrderedTurn const& t) const { mbarrier_arrive(bars + (t.group + 1) % Groups); }
};

}  // namespace tessera
