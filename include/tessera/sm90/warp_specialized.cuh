// The warp-specialized Hopper kernel: one template that every producer/consumer kernel of the
// library runs on (the GEMMs of kernels/gemm/sm90_kernel.cuh; attention next). A kernel supplies
// its roles as a type R; the template owns what every such kernel repeats: placing the shared
// storage, the one-thread set-up and the block (or cluster) barrier after it, the wait for the
// stream's previous grid (programmatic dependent launch), the split into a producer warpgroup
// with few registers and consumer warpgroups with many (setmaxnreg), and, in a cluster, the
// final barrier that keeps a block alive while its peers may still signal its barriers.
//
//   warp_specialized_kernel<R><<<grid, R::kThreads, shared_storage_bytes<R::Storage>()>>>(params, maps)
//
// R provides (all device functions force-inlined, so that a consumer's accumulators stay in
// registers):
//   R::kConsumers                 consumer warpgroups (1 to 3); R::kThreads = 128 (1 + kConsumers)
//   R::kProducerRegs, R::kConsumerRegs
//                                 the registers a thread of each role keeps (setmaxnreg; 24..256,
//                                 multiples of 8; the sum over the block within 64 K)
//   R::kClusterSize               blocks of a cluster (1: none)
//   R::Params                     the values the kernel reads (sizes, strides, pointers, scalars),
//                                 passed by value: nothing takes their address, so ptxas keeps
//                                 what is uniform in uniform registers
//   R::Maps                       what the kernel hands to TMA by address (its tensor maps),
//                                 passed as a __grid_constant__: the descriptors are used where
//                                 they lie. (One __grid_constant__ argument for both would make
//                                 every read of a value a register-addressed parameter load, which
//                                 ptxas keeps in vector registers: the per-tile index arithmetic
//                                 left the uniform datapath and the fp16 8192^3 GEMM lost 1.8 %.)
//   R::Storage                    the shared storage (sm90/shared_storage.hpp)
//   R::setup(params, maps, storage)          thread 0, before the barrier: initializes
//                                            barriers, prefetches descriptors (no global
//                                            memory: the previous grid may still run)
//   R::produce(params, maps, storage, lt)    warpgroup 0 (lt: the thread in it, 0..127)
//   R::consume(params, maps, storage, c, lt) consumer warpgroup c (0 .. kConsumers - 1)
//   R::plan(params)               optional: what both roles derive from the arguments (the grid of
//                                 tiles, the schedule's counts), computed by every thread before
//                                 the split and passed to produce and consume after maps:
//                                 produce(params, maps, plan, storage, lt). Computed inside a
//                                 role, the same values left the uniform datapath (ptxas keeps
//                                 values computed in the role branches in vector registers).
// A role reads global memory only after the template's grid_dependency_wait (both roles run after
// it); the producer calls grid_dependents_launch() once it has issued its last load, if the kernel
// wants the next grid to start early.
#pragma once

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/sm90/shared_storage.hpp"

namespace tessera::sm90 {

// Roles that derive values from the arguments before the split (R::plan).
template <class R>
concept RolesWithPlan = requires(typename R::Params const& p) { R::plan(p); };

template <class R>
__global__ void __launch_bounds__(R::kThreads, 1)
    warp_specialized_kernel(typename R::Params const params, __grid_constant__ typename R::Maps const maps) {
  static_assert(R::kConsumers >= 1 && R::kConsumers <= 3, "warp_specialized_kernel: 1 to 3 consumer warpgroups");
  static_assert(R::kThreads == 128 * (1 + R::kConsumers), "warp_specialized_kernel: kThreads = 128 (1 + kConsumers)");
  static_assert(R::kProducerRegs % 8 == 0 && R::kConsumerRegs % 8 == 0 && R::kProducerRegs >= 24 &&
                    R::kConsumerRegs <= 256 && 128 * (R::kProducerRegs + R::kConsumers * R::kConsumerRegs) <= 65536,
                "warp_specialized_kernel: setmaxnreg counts are multiples of 8 in 24..256 and fit the register file");
  auto& storage = shared_storage<typename R::Storage>();
  int const tid = int(threadIdx.x);
  if (tid == 0) R::setup(params, maps, storage);
  if constexpr (R::kClusterSize > 1) {
    cluster_sync();  // the peers' barriers are initialized before any multicast or remote arrival
  } else {
    __syncthreads();
  }
  grid_dependency_wait();
  int const warpgroup = tid / 128;
  auto const roles = [&](auto const&... plan) __attribute__((always_inline)) {
    if (warpgroup == 0) {
      warpgroup_reg_dealloc<R::kProducerRegs>();
      R::produce(params, maps, plan..., storage, tid);
    } else {
      warpgroup_reg_alloc<R::kConsumerRegs>();
      R::consume(params, maps, plan..., storage, warpgroup - 1, tid % 128);
    }
  };
  if constexpr (RolesWithPlan<R>) {
    roles(R::plan(params));
  } else {
    roles();
  }
  if constexpr (R::kClusterSize > 1) cluster_sync();  // no block leaves while a peer may still signal it
}

}  // namespace tessera::sm90
