// A ring of shared-memory stages filled by TMA and drained by consumers, synchronized by two
// mbarriers per stage (arch/barrier_sm90.hpp): the one pipeline every Hopper GEMM of
// kernels/gemm_sm90.cuh runs on.
//   PipelineState<Stages>           a position in the ring: the stage `index` and the `phase` parity
//                                   of its barriers; ++ moves to the next k-tile; at(i) is the i-th
//   TmaPipeline<Stages, Cluster>    full[s]: the producer's arrival and the bytes of the stage's TMA
//                                   loads; empty[s]: one arrival per consumer (in every block of the
//                                   cluster: a multicast writes into all of them)
//     init(consumers)                 one thread: initializes the 2 Stages barriers at `bars`
//                                     (given at construction), runs fence_barrier_init(); the
//                                     caller then syncs the block (or the cluster) before any
//                                     other use
//     producer_acquire(st)            wait until the consumers released stage st.index
//     producer_expect(st, bytes)      announce the stage's bytes; returns full[st.index], the barrier
//                                     the TMA loads complete on
//     consumer_wait(st)               wait until the stage's loads have landed
//     consumer_release(st)            this consumer is done reading the stage
// The ring runs on across a kernel's tiles: the i-th k-tile the block processes (over all its
// tiles) is PipelineState::at(i). A fresh barrier counts as having completed the phase before its
// first, so the producer's first Stages acquisitions (parity 1) pass at once.
//
// Example (one producer thread, C consumer warpgroups each arriving once per stage):
//   TmaPipeline<4> pipe{bars};                          // bars: 2 x 4 barriers in shared memory
//   if (tid == 0) pipe.init(C);   ... __syncthreads();
//   producer:  for (PipelineState<4> st; ...; ++st) { pipe.producer_acquire(st);
//                 auto* bar = pipe.producer_expect(st, bytes); <TMA loads completing on bar> }
//   consumer:  for (PipelineState<4> st; ...; ++st) { pipe.consumer_wait(st); <wgmma on the stage>
//                 <wait for the wgmmas>; if (leader) pipe.consumer_release(st); }
#pragma once

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// The position of a k-tile in a ring of Stages stages: index = i % Stages, phase = (i / Stages) & 1;
// ++ moves to k-tile i + 1 (at(i + 1) == ++at(i)). Example: PipelineState<4>::at(5) is stage 1 in
// phase 1 (the second lap).
template <int Stages>
struct PipelineState {
  static_assert(Stages >= 1, "PipelineState: at least one stage");
  int index = 0;
  std::uint32_t phase = 0;

  // The state of the i-th k-tile (i >= 0).
  TESSERA_HOST_DEVICE static constexpr PipelineState at(int i) {
    return PipelineState{i % Stages, std::uint32_t((i / Stages) & 1)};
  }
  TESSERA_HOST_DEVICE constexpr PipelineState& operator++() {
    if (++index == Stages) {
      index = 0;
      phase ^= 1u;
    }
    return *this;
  }
  TESSERA_HOST_DEVICE constexpr bool operator==(PipelineState const& o) const {
    return index == o.index && phase == o.phase;
  }
};

// The barriers of the ring: full[Stages] then empty[Stages] at `bars` (2 Stages 64-bit words of
// shared memory). Cluster: blocks of the cluster whose consumers release each stage (a stage that a
// multicast fills in every block is refilled only when all of them are done with it).
template <int Stages, int Cluster = 1>
struct TmaPipeline {
  static_assert(Cluster >= 1 && Cluster <= 16, "TmaPipeline: a cluster has 1 to 16 blocks");
  static constexpr int kBarriers = 2 * Stages;
  std::uint64_t* bars;

  TESSERA_HOST_DEVICE std::uint64_t* full(int s) const { return bars + s; }
  TESSERA_HOST_DEVICE std::uint64_t* empty(int s) const { return bars + Stages + s; }

  // One thread: full[s] completes on the producer's arrival (and the announced bytes), empty[s]
  // on `consumers` arrivals from each block of the cluster.
  TESSERA_HOST_DEVICE void init(int consumers) const {
    for (int s = 0; s < Stages; ++s) {
      mbarrier_init(full(s), 1);
      mbarrier_init(empty(s), std::uint32_t(consumers * Cluster));
    }
    fence_barrier_init();
  }
  TESSERA_HOST_DEVICE void producer_acquire(PipelineState<Stages> st) const {
    mbarrier_wait(empty(st.index), st.phase ^ 1u);
  }
  TESSERA_HOST_DEVICE std::uint64_t* producer_expect(PipelineState<Stages> st, std::uint32_t bytes) const {
    mbarrier_arrive_expect_tx(full(st.index), bytes);
    return full(st.index);
  }
  TESSERA_HOST_DEVICE void consumer_wait(PipelineState<Stages> st) const { mbarrier_wait(full(st.index), st.phase); }
  // One arrival per consumer (e.g. one thread of a warpgroup) on the stage's empty barrier of
  // every block of the cluster. Pre: the consumer's reads of the stage are complete (wgmmas waited).
  TESSERA_HOST_DEVICE void consumer_release(PipelineState<Stages> st) const {
    if constexpr (Cluster > 1) {
      for (int c = 0; c < Cluster; ++c) mbarrier_arrive_cluster(empty(st.index), std::uint32_t(c));
    } else {
      mbarrier_arrive(empty(st.index));
    }
  }
};

}  // namespace tessera
