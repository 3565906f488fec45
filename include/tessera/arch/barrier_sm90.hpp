// sm_90 synchronization for asynchronous copies and MMAs: shared-memory transaction barriers
// (PTX mbarrier), the proxy fence, and warp election.
//   mbarrier_init(bar, count)            count arrivals complete a phase
//   mbarrier_arrive(bar)                 one arrival
//   mbarrier_arrive_expect_tx(bar, n)    one arrival, and n more bytes the phase waits for (a TMA
//                                        load completes them: arch/copy_sm90_tma.cuh)
//   mbarrier_wait(bar, phase)            spin until the phase with parity `phase` has completed
//   fence_barrier_init()                 make initialized barriers visible to the async proxy
//   fence_view_async_shared()            fence.proxy.async.shared::cta: shared memory written by
//                                        ordinary stores, read next by TMA or wgmma
//   elect_one_sync()                     true in exactly one lane of the warp
//   cluster_ctarank(), cluster_sync()    the block's rank in its cluster; all threads of all the
//                                        cluster's blocks meet (barrier.cluster arrive + wait)
//   mbarrier_arrive_cluster(bar, cta)    one arrival on the barrier at bar's offset in block `cta`
//                                        of the cluster (the peer's copy of this block's barrier)
//   named_barrier_sync(id, n)           bar.sync: the n threads (a multiple of 32) that use
//                                        barrier id (1..15; 0 is __syncthreads's) meet
//   named_barrier_arrive(id, n)         bar.arrive: counts this warp's threads towards the n of
//                                        barrier id without waiting (a producer of a hand-over)
//   store_release_gpu(flag, v), load_acquire_gpu(flag)
//                                        a 32-bit word in global memory written with release and
//                                        read with acquire semantics at GPU scope: one block
//                                        publishes data to another (bar.sync the writers, then one
//                                        of them stores the flag; the reader spins on it, then
//                                        bar.syncs its readers)
//   grid_dependency_wait(), grid_dependents_launch()
//                                       programmatic dependent launch (griddepcontrol): wait until
//                                       the grids this one depends on have completed and their
//                                       writes are visible; let the next grid start launching
//   warpgroup_reg_alloc<N>() / warpgroup_reg_dealloc<N>()
//                                        setmaxnreg (sm_90a): the warpgroup's registers a thread
//                                        grow to / shrink to N (warp specialization)
// A barrier is a 64-bit word in shared memory (std::uint64_t, 8-byte aligned). Phases alternate
// parity 0, 1, 0, ...: a waiter tracks the parity it expects and flips it after each wait. Built
// for an architecture below sm_90, a use fails to compile.
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TESSERA_SM90_AVAILABLE 1
#endif

#define TESSERA_SM90_ONLY(what)                                                \
  static_assert(detail::always_false<Unused>, what                             \
                ": needs sm_90 or newer; build for -gencode arch=compute_90a " \
                "(or compute_90) or later")

// mbarrier_init(bar, count): the barrier's first phase completes after `count` arrivals (and the
// transaction bytes announced for it). Pre: one thread initializes; fence_barrier_init() and a
// block barrier before any other thread uses it.
template <class Unused = void>
TESSERA_HOST_DEVICE void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(bar)), "r"(count) : "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("mbarrier_init");
#else
  detail::device_only("mbarrier_init", bar, count);
#endif
}

// fence_barrier_init(): orders the initializations of barriers before their use by the TMA unit.
template <class Unused = void>
TESSERA_HOST_DEVICE void fence_barrier_init() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("fence_barrier_init");
#else
  detail::device_only("fence_barrier_init");
#endif
}

// mbarrier_arrive(bar): one arrival on the current phase.
template <class Unused = void>
TESSERA_HOST_DEVICE void mbarrier_arrive(std::uint64_t* bar) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_address(bar)) : "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("mbarrier_arrive");
#else
  detail::device_only("mbarrier_arrive", bar);
#endif
}

// mbarrier_arrive_expect_tx(bar, bytes): one arrival, and the current phase also waits for
// `bytes` bytes of transactions (the TMA loads that name this barrier).
template <class Unused = void>
TESSERA_HOST_DEVICE void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_address(bar)), "r"(bytes)
               : "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("mbarrier_arrive_expect_tx");
#else
  detail::device_only("mbarrier_arrive_expect_tx", bar, bytes);
#endif
}

// mbarrier_try_wait(bar, phase): true when the phase of parity `phase` has completed (the
// instruction may suspend the thread for a while before answering false).
template <class Unused = void>
TESSERA_HOST_DEVICE bool mbarrier_try_wait(std::uint64_t* bar, std::uint32_t phase) {
#if defined(TESSERA_SM90_AVAILABLE)
  std::uint32_t done = 0;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(smem_address(bar)), "r"(phase)
      : "memory");
  return done != 0;
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("mbarrier_try_wait");
  return false;
#else
  detail::device_only("mbarrier_try_wait", bar, phase);
#endif
}

// mbarrier_wait(bar, phase): returns once the phase of parity `phase` has completed.
template <class Unused = void>
TESSERA_HOST_DEVICE void mbarrier_wait(std::uint64_t* bar, std::uint32_t phase) {
  while (!mbarrier_try_wait<Unused>(bar, phase)) {
  }
}

// fence_view_async_shared(): shared memory this thread wrote with ordinary stores becomes visible
// to the async proxy (TMA stores, wgmma operands). Pre: then a barrier among the writers before
// the asynchronous reader is started.
template <class Unused = void>
TESSERA_HOST_DEVICE void fence_view_async_shared() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("fence_view_async_shared");
#else
  detail::device_only("fence_view_async_shared");
#endif
}

// named_barrier_sync(id, n): waits until n threads have arrived at barrier `id` (bar.sync id, n):
// a subset of the block (e.g. one warpgroup, n = 128) meets without stopping the others. Pre:
// 1 <= id <= 15 (id 0 is __syncthreads's), n a multiple of 32, every warp of the subset arrives.
template <class Unused = void>
TESSERA_HOST_DEVICE void named_barrier_sync(std::uint32_t id, std::uint32_t n) {
#if defined(__CUDA_ARCH__)
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(n) : "memory");
#else
  detail::device_only("named_barrier_sync", id, n);
#endif
}

// named_barrier_arrive(id, n): this warp's threads count towards the n of barrier `id` (bar.arrive
// id, n) and go on: the other side of a named_barrier_sync, for a hand-over in one direction (the
// arriving warps signal, the syncing ones wait). Pre: as named_barrier_sync; n counts the arriving
// and the waiting threads together.
template <class Unused = void>
TESSERA_HOST_DEVICE void named_barrier_arrive(std::uint32_t id, std::uint32_t n) {
#if defined(__CUDA_ARCH__)
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(n) : "memory");
#else
  detail::device_only("named_barrier_arrive", id, n);
#endif
}

// store_release_gpu(flag, v): *flag = v with release semantics at GPU scope: the writes of this
// thread, and those of threads that met it at a barrier before, are visible to any thread that
// reads v with load_acquire_gpu. load_acquire_gpu(flag): *flag with acquire semantics at GPU scope.
// Pre: flag in global memory, 4-byte aligned.
template <class Unused = void>
TESSERA_HOST_DEVICE void store_release_gpu(std::uint32_t* flag, std::uint32_t v) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(v) : "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("store_release_gpu");
#else
  detail::device_only("store_release_gpu", flag, v);
#endif
}
template <class Unused = void>
TESSERA_HOST_DEVICE std::uint32_t load_acquire_gpu(std::uint32_t const* flag) {
#if defined(TESSERA_SM90_AVAILABLE)
  std::uint32_t v = 0;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(flag) : "memory");
  return v;
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("load_acquire_gpu");
  return 0;
#else
  detail::device_only("load_acquire_gpu", flag);
#endif
}

// Programmatic dependent launch. A grid launched with cudaLaunchAttributeProgrammaticStreamSerialization
// may start while the grid before it in the stream still runs (once that grid's blocks have all
// called grid_dependents_launch() or exited): it sets itself up meanwhile and calls
// grid_dependency_wait() before its first access of global memory that the earlier grid may write
// or read. grid_dependency_wait(): returns once the grids this one depends on have completed and
// their memory operations are visible to it (at once in a grid launched without the attribute).
// grid_dependents_launch(): this block no longer holds back the launch of the next grid (which
// still waits for this one's completion in its own grid_dependency_wait). Pre: none; each is a
// no-op where nothing depends. Example: kernels/gemm_sm90.cuh's persistent kernels.
template <class Unused = void>
TESSERA_HOST_DEVICE void grid_dependency_wait() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("grid_dependency_wait");
#else
  detail::device_only("grid_dependency_wait (griddepcontrol.wait)");
#endif
}
template <class Unused = void>
TESSERA_HOST_DEVICE void grid_dependents_launch() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("grid_dependents_launch");
#else
  detail::device_only("grid_dependents_launch (griddepcontrol.launch_dependents)");
#endif
}

// elect_one_sync(): true in exactly one active lane of the warp (elect.sync). Pre: the whole warp
// executes it.
template <class Unused = void>
TESSERA_HOST_DEVICE bool elect_one_sync() {
#if defined(TESSERA_SM90_AVAILABLE)
  std::uint32_t elected = 0;
  asm volatile(
      "{\n.reg .b32 r;\n.reg .pred p;\n"
      "elect.sync r|p, 0xffffffff;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(elected));
  return elected != 0;
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("elect_one_sync");
  return false;
#else
  detail::device_only("elect_one_sync");
#endif
}

// cluster_ctarank(): this block's rank in its thread-block cluster (0 without a cluster launch).
template <class Unused = void>
TESSERA_HOST_DEVICE std::uint32_t cluster_ctarank() {
#if defined(TESSERA_SM90_AVAILABLE)
  std::uint32_t r = 0;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("cluster_ctarank");
  return 0;
#else
  detail::device_only("cluster_ctarank");
#endif
}

// cluster_sync(): every thread of every block of the cluster arrives, then waits for all (release
// / acquire: shared-memory writes before it are visible cluster-wide after it).
template <class Unused = void>
TESSERA_HOST_DEVICE void cluster_sync() {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("cluster_sync");
#else
  detail::device_only("cluster_sync");
#endif
}

// mbarrier_arrive_cluster(bar, cta): one arrival on the barrier at the same shared-memory offset
// as `bar` in block `cta` of the cluster (cta may be this block). The arrival has the default
// (CTA-scope) release semantics: a cluster-scope release would first wait for all of the thread's
// outstanding memory operations (Nsight Compute: "membar" stalls), and a consumer that releases a
// stage has already waited for the reads (the wgmmas) the release orders.
template <class Unused = void>
TESSERA_HOST_DEVICE void mbarrier_arrive_cluster(std::uint64_t* bar, std::uint32_t cta) {
#if defined(TESSERA_SM90_AVAILABLE)
  asm volatile(
      "{\n.reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem_address(bar)),
      "r"(cta)
      : "memory");
#elif defined(__CUDA_ARCH__)
  TESSERA_SM90_ONLY("mbarrier_arrive_cluster");
#else
  detail::device_only("mbarrier_arrive_cluster", bar, cta);
#endif
}

// warpgroup_reg_alloc<N>() / warpgroup_reg_dealloc<N>(): setmaxnreg.inc / .dec: every thread of
// the warpgroup may use N registers from here on. Pre: the kernel has a register cap at entry
// (__launch_bounds__(threads, 1)); N a multiple of 8 in [24, 256]; all threads of the warpgroup
// execute it; the increases of all warpgroups fit the registers the decreases free.
template <int N>
TESSERA_HOST_DEVICE void warpgroup_reg_alloc() {
  static_assert(N % 8 == 0 && N >= 24 && N <= 256, "warpgroup_reg_alloc<N>: N must be a multiple of 8 in [24, 256]");
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<std::integral_constant<int, N>>,
                "warpgroup_reg_alloc: setmaxnreg needs sm_90a; build for -gencode=arch=compute_90a,code=sm_90a");
#else
  detail::device_only("warpgroup_reg_alloc (setmaxnreg.inc)");
#endif
}
template <int N>
TESSERA_HOST_DEVICE void warpgroup_reg_dealloc() {
  static_assert(N % 8 == 0 && N >= 24 && N <= 256, "warpgroup_reg_dealloc<N>: N must be a multiple of 8 in [24, 256]");
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<std::integral_constant<int, N>>,
                "warpgroup_reg_dealloc: setmaxnreg needs sm_90a; build for -gencode=arch=compute_90a,code=sm_90a");
#else
  detail::device_only("warpgroup_reg_dealloc (setmaxnreg.dec)");
#endif
}

#undef TESSERA_SM90_ONLY

}  // namespace tessera
