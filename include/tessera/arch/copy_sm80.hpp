// sm_80 asynchronous copies, global -> shared, that bypass registers (PTX cp.async):
//   SM80_CP_ASYNC_CACHEALWAYS<S, D>        cp.async.ca: 4, 8 or 16 bytes, cached in L1 and L2
//   SM80_CP_ASYNC_CACHEGLOBAL<S, D>        cp.async.cg: 16 bytes, cached in L2 only
//   SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>  the same with a predicate: false reads 0 bytes from
//   SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>  global memory and fills the destination with zeros
//   cp_async_fence()                       cp.async.commit_group: closes this thread's group
//   cp_async_wait<N>()                     cp.async.wait_group N: at most N groups still pending
//   cp_async_wait_all()                    cp.async.wait_all: commits, then waits for everything
// The copies are per thread and asynchronous: a thread sees its own data after the wait, other
// threads after the wait and a barrier (__syncthreads). The copy operands are the source element
// in global memory and the destination element in shared memory (SRegisters = S[1],
// DRegisters = D[1]); their traits are in atom/copy_traits_sm80.hpp. Pre for every copy: the
// source lies in global and the destination in shared memory, both aligned to sizeof(S). Built for
// an architecture below sm_80, a use of any of these fails to compile (arch/util.hpp).
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/integer.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

// SM80_CP_ASYNC_CACHEALWAYS<S, D = S>: smem_dst = gmem_src, asynchronously, through L1.
// Pre: sizeof(S) == sizeof(D) in {4, 8, 16} (checked at compile time); see the file comment.
// Post: after cp_async_fence() and cp_async_wait<0>() smem_dst holds the bytes of gmem_src.
// Example: SM80_CP_ASYNC_CACHEALWAYS<uint32_t>::copy(gmem[i], smem[i]) copies 4 bytes.
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEALWAYS {
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_CACHEALWAYS<S, D>: S and D must have the same size");
  static_assert(sizeof(S) == 4 || sizeof(S) == 8 || sizeof(S) == 16,
                "SM80_CP_ASYNC_CACHEALWAYS<S, D>: cp.async.ca copies 4, 8 or 16 bytes; use S = uint32_t, "
                "uint64_t or uint128_t");

  using SRegisters = S[1];
  using DRegisters = D[1];

  TESSERA_HOST_DEVICE static void copy(S const& gmem_src, D& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n"
                 :
                 : "r"(smem_address(&smem_dst)), "l"(&gmem_src), "n"(int(sizeof(S)))
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<S>,
                  "SM80_CP_ASYNC_CACHEALWAYS: cp.async needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_CP_ASYNC_CACHEALWAYS::copy (cp.async.ca)", gmem_src, smem_dst);
#endif
  }
};

// SM80_CP_ASYNC_CACHEGLOBAL<S, D = S>: smem_dst = gmem_src, asynchronously, bypassing L1.
// Pre: sizeof(S) == sizeof(D) == 16 (checked at compile time); see the file comment.
// Post: as SM80_CP_ASYNC_CACHEALWAYS. Example: SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::copy(g, s).
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEGLOBAL {
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_CACHEGLOBAL<S, D>: S and D must have the same size");
  static_assert(sizeof(S) == 16,
                "SM80_CP_ASYNC_CACHEGLOBAL<S, D>: cp.async.cg copies exactly 16 bytes (S = uint128_t); use "
                "SM80_CP_ASYNC_CACHEALWAYS for 4 or 8 bytes");

  using SRegisters = S[1];
  using DRegisters = D[1];

  TESSERA_HOST_DEVICE static void copy(S const& gmem_src, D& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
                 :
                 : "r"(smem_address(&smem_dst)), "l"(&gmem_src)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<S>,
                  "SM80_CP_ASYNC_CACHEGLOBAL: cp.async needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_CP_ASYNC_CACHEGLOBAL::copy (cp.async.cg)", gmem_src, smem_dst);
#endif
  }
};

// SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D = S>: smem_dst = pred ? gmem_src : 0, asynchronously.
// The predicate is the instruction's src-size operand (sizeof(S) or 0 bytes read from gmem_src),
// so a false predicate reads no global memory and leaves zeros in smem_dst.
// Pre and Post otherwise as SM80_CP_ASYNC_CACHEALWAYS. Example: copy(gmem[i], smem[i], i < n).
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL {
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>: S and D must have the same size");
  static_assert(sizeof(S) == 4 || sizeof(S) == 8 || sizeof(S) == 16,
                "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>: cp.async.ca copies 4, 8 or 16 bytes; use S = uint32_t, "
                "uint64_t or uint128_t");

  using SRegisters = S[1];
  using DRegisters = D[1];

  TESSERA_HOST_DEVICE static void copy(S const& gmem_src, D& smem_dst, bool pred) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    int const src_size = pred ? int(sizeof(S)) : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n"
                 :
                 : "r"(smem_address(&smem_dst)), "l"(&gmem_src), "n"(int(sizeof(S))), "r"(src_size)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<S>,
                  "SM80_CP_ASYNC_CACHEALWAYS_ZFILL: cp.async needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_CP_ASYNC_CACHEALWAYS_ZFILL::copy (cp.async.ca with src-size)", gmem_src, smem_dst, pred);
#endif
  }
};

// SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D = S>: smem_dst = pred ? gmem_src : 0, asynchronously,
// bypassing L1. Pre: sizeof(S) == sizeof(D) == 16. Post and predicate as the _ZFILL above.
template <class S, class D = S>
struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL {
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>: S and D must have the same size");
  static_assert(sizeof(S) == 16,
                "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>: cp.async.cg copies exactly 16 bytes (S = uint128_t); use "
                "SM80_CP_ASYNC_CACHEALWAYS_ZFILL for 4 or 8 bytes");

  using SRegisters = S[1];
  using DRegisters = D[1];

  TESSERA_HOST_DEVICE static void copy(S const& gmem_src, D& smem_dst, bool pred) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    int const src_size = pred ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :
                 : "r"(smem_address(&smem_dst)), "l"(&gmem_src), "r"(src_size)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<S>,
                  "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL: cp.async needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy (cp.async.cg with src-size)", gmem_src, smem_dst, pred);
#endif
  }
};

// cp_async_fence(): closes the calling thread's current group of cp.async copies (commit_group).
// Pre: none. Post: the copies issued since the last fence form one group that cp_async_wait<N>
// counts. On the host there are no asynchronous copies and it does nothing.
template <class Unused = void>
TESSERA_HOST_DEVICE void cp_async_fence() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<Unused>,
                "cp_async_fence: cp.async.commit_group needs sm_80 or newer; "
                "build for -gencode arch=compute_80 or later");
#endif
}

// cp_async_wait<N>(): waits until at most N of the calling thread's committed groups are pending
// (wait_group N). Pre: N >= 0. Post: the copies of every older group have landed. Example: with
// two stages in flight, cp_async_wait<1>() waits for the older one. On the host it does nothing.
template <int N>
TESSERA_HOST_DEVICE void cp_async_wait() {
  static_assert(N >= 0, "cp_async_wait<N>: N counts pending groups and must be >= 0");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<C<N>>,
                "cp_async_wait: cp.async.wait_group needs sm_80 or newer; "
                "build for -gencode arch=compute_80 or later");
#endif
}

// cp_async_wait_all(): commits the calling thread's open copies and waits for all of its copies
// (wait_all). Pre: none. Post: every cp.async this thread issued has landed. Host: does nothing.
template <class Unused = void>
TESSERA_HOST_DEVICE void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#elif defined(__CUDA_ARCH__)
  static_assert(detail::always_false<Unused>,
                "cp_async_wait_all: cp.async.wait_all needs sm_80 or newer; "
                "build for -gencode arch=compute_80 or later");
#endif
}

}  // namespace tessera
