// sm_75 warp-wide matrix loads, shared memory -> registers (PTX ldmatrix.sync.aligned.m8n8.b16).
// One ldmatrix loads 1, 2 or 4 matrices of 8x8 16-bit elements, each row 16 contiguous bytes:
//   SM75_U32x1_LDSM_N  .x1          1 matrix,  1 register per thread
//   SM75_U32x2_LDSM_N  .x2          2 matrices, 2 registers
//   SM75_U32x4_LDSM_N  .x4          4 matrices, 4 registers
//   SM75_U16x2_LDSM_T  .x1.trans    the same, each matrix transposed on the way
//   SM75_U16x4_LDSM_T  .x2.trans
//   SM75_U16x8_LDSM_T  .x4.trans
// The source operand is the thread's row: a uint128_t in shared memory (SRegisters =
// uint128_t[1]); threads 8i..8i+7 name the rows 0..7 of matrix i (for .x1 and .x2 the upper
// threads repeat the lower threads' rows). Register i of thread t receives two elements of matrix
// i: without .trans row t/4, columns 2(t%4) and 2(t%4)+1 (low half first); with .trans row
// 2(t%4) and 2(t%4)+1 of column t/4 of the matrix as stored. The exact maps are the traits in
// atom/copy_traits_sm75.hpp. The instruction is warp-wide: all 32 threads execute it together,
// with the same qualifiers. Pre: every row 16-byte aligned in shared memory. Built for an
// architecture below sm_75, a use fails to compile (arch/util.hpp).
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// SM75_U32x1_LDSM_N: ldmatrix.x1: one 8x8 matrix; dst = the thread's two elements of it.
// Pre: see the file comment (warp-wide, rows 16-byte aligned in shared memory). Post: dst holds
// row t/4, columns 2(t%4) (low 16 bits) and 2(t%4)+1 (high 16 bits) of the matrix.
struct SM75_U32x1_LDSM_N {
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(uint128_t const& smem_src, std::uint32_t& dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(dst) : "r"(smem_address(&smem_src)));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM75_U32x1_LDSM_N: ldmatrix needs sm_75 or newer; "
                  "build for -gencode arch=compute_75 or later");
#else
    detail::device_only("SM75_U32x1_LDSM_N::copy (ldmatrix)", smem_src, dst);
#endif
  }
};

// SM75_U32x2_LDSM_N: ldmatrix.x2: two 8x8 matrices; dst_i = the thread's two elements of matrix i.
// Pre/Post: as SM75_U32x1_LDSM_N, per matrix (threads 0..7 name matrix 0's rows, 8..15 matrix 1's).
struct SM75_U32x2_LDSM_N {
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[2];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(uint128_t const& smem_src, std::uint32_t& dst0, std::uint32_t& dst1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(dst0), "=r"(dst1)
                 : "r"(smem_address(&smem_src)));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM75_U32x2_LDSM_N: ldmatrix needs sm_75 or newer; "
                  "build for -gencode arch=compute_75 or later");
#else
    detail::device_only("SM75_U32x2_LDSM_N::copy (ldmatrix)", smem_src, dst0, dst1);
#endif
  }
};

// SM75_U32x4_LDSM_N: ldmatrix.x4: four 8x8 matrices; dst_i = the thread's two elements of matrix i.
// Pre/Post: as SM75_U32x1_LDSM_N, per matrix (threads 8i..8i+7 name the rows of matrix i).
struct SM75_U32x4_LDSM_N {
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[4];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(uint128_t const& smem_src, std::uint32_t& dst0, std::uint32_t& dst1,
                                       std::uint32_t& dst2, std::uint32_t& dst3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(dst0), "=r"(dst1), "=r"(dst2), "=r"(dst3)
                 : "r"(smem_address(&smem_src)));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM75_U32x4_LDSM_N: ldmatrix needs sm_75 or newer; "
                  "build for -gencode arch=compute_75 or later");
#else
    detail::device_only("SM75_U32x4_LDSM_N::copy (ldmatrix)", smem_src, dst0, dst1, dst2, dst3);
#endif
  }
};

// SM75_U16x2_LDSM_T: ldmatrix.x1.trans: one 8x8 matrix, transposed; dst = two 16-bit elements.
// Pre: as SM75_U32x1_LDSM_N. Post: dst holds rows 2(t%4) (low 16 bits) and 2(t%4)+1 (high 16
// bits) of column t/4 of the matrix as stored.
struct SM75_U16x2_LDSM_T {
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(uint128_t const& smem_src, std::uint32_t& dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                 : "=r"(dst)
                 : "r"(smem_address(&smem_src)));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM75_U16x2_LDSM_T: ldmatrix needs sm_75 or newer; "
                  "build for -gencode arch=compute_75 or later");
#else
    detail::device_only("SM75_U16x2_LDSM_T::copy (ldmatrix.trans)", smem_src, dst);
#endif
  }
};

// SM75_U16x4_LDSM_T: ldmatrix.x2.trans: two 8x8 matrices, transposed; dst_i from matrix i.
// Pre/Post: as SM75_U16x2_LDSM_T, per matrix.
struct SM75_U16x4_LDSM_T {
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[2];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(uint128_t const& smem_src, std::uint32_t& dst0, std::uint32_t& dst1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(dst0), "=r"(dst1)
                 : "r"(smem_address(&smem_src)));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM75_U16x4_LDSM_T: ldmatrix needs sm_75 or newer; "
                  "build for -gencode arch=compute_75 or later");
#else
    detail::device_only("SM75_U16x4_LDSM_T::copy (ldmatrix.trans)", smem_src, dst0, dst1);
#endif
  }
};

// SM75_U16x8_LDSM_T: ldmatrix.x4.trans: four 8x8 matrices, transposed; dst_i from matrix i.
// Pre/Post: as SM75_U16x2_LDSM_T, per matrix.
struct SM75_U16x8_LDSM_T {
  using SRegisters = uint128_t[1];
  using DRegisters = std::uint32_t[4];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(uint128_t const& smem_src, std::uint32_t& dst0, std::uint32_t& dst1,
                                       std::uint32_t& dst2, std::uint32_t& dst3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(dst0), "=r"(dst1), "=r"(dst2), "=r"(dst3)
                 : "r"(smem_address(&smem_src)));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM75_U16x8_LDSM_T: ldmatrix needs sm_75 or newer; "
                  "build for -gencode arch=compute_75 or later");
#else
    detail::device_only("SM75_U16x8_LDSM_T::copy (ldmatrix.trans)", smem_src, dst0, dst1, dst2, dst3);
#endif
  }
};

}  // namespace tessera
