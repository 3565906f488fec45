// cp_async.hpp -- PTX wrappers for the sm_80+ asynchronous global -> shared copy (cp.async).
//   cp_async_cg<16>(smem, gmem): one 16-byte copy that bypasses L1 (.cg; only 16 bytes allowed)
//   cp_async_ca<B>(smem, gmem):  one B-byte copy (B = 4, 8, 16) cached in L1 (.ca)
//   cp_async_commit():           closes the thread's current group of copies
//   cp_async_wait_all():         waits until every copy this thread issued has landed
//   cp_async_wait_group<N>():    waits until at most N of this thread's groups are pending
// The copies are per thread: other threads see the data only after wait + a barrier
// (__syncthreads). Pre: smem points into shared memory, gmem into global memory, both aligned to
// the copy size. On architectures below sm_80 these functions trap.
#pragma once

#include <cstdint>

namespace tessera::arch {

#if defined(__CUDACC__)

// The 32-bit shared-state-space address of a generic pointer into shared memory.
__device__ __forceinline__ std::uint32_t smem_address(void const* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

template <int Bytes>
__device__ __forceinline__ void cp_async_ca(void* smem, void const* gmem) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp_async_ca<Bytes>: cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_address(smem)), "l"(gmem), "n"(Bytes)
               : "memory");
#else
  __trap();
#endif
}

template <int Bytes>
__device__ __forceinline__ void cp_async_cg(void* smem, void const* gmem) {
  static_assert(Bytes == 16, "cp_async_cg<Bytes>: cp.async.cg (L1 bypass) copies exactly 16 bytes; use cp_async_ca for 4 or 8");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_address(smem)), "l"(gmem) : "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#else
  __trap();
#endif
}

template <int N>
__device__ __forceinline__ void cp_async_wait_group() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#else
  __trap();
#endif
}

#endif  // __CUDACC__

}  // namespace tessera::arch
