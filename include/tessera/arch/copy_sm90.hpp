// sm_90 warp-wide matrix stores, registers -> shared memory (PTX stmatrix.sync.aligned.m8n8.b16),
// the mirror of ldmatrix (arch/copy_sm75.hpp): one stmatrix stores 1, 2 or 4 matrices of 8x8
// 16-bit elements, each row 16 contiguous bytes:
//   SM90_U32x1_STSM_N  .x1          1 matrix,  1 register per thread
//   SM90_U32x2_STSM_N  .x2          2 matrices, 2 registers
//   SM90_U32x4_STSM_N  .x4          4 matrices, 4 registers
//   SM90_U16x2_STSM_T  .x1.trans    the same, each matrix transposed on the way
//   SM90_U16x4_STSM_T  .x2.trans
//   SM90_U16x8_STSM_T  .x4.trans
// Register i of thread t holds two elements of matrix i (without .trans row t/4, columns 2(t%4)
// and 2(t%4)+1, low half first; with .trans rows 2(t%4) and 2(t%4)+1 of column t/4 of the matrix
// as stored); the destination operand is the thread's row, a uint128_t in shared memory
// (DRegisters = uint128_t[1]): threads 8i..8i+7 name the rows 0..7 of matrix i (for .x1 and .x2
// the upper threads' rows are not used). The exact maps are the traits in
// atom/copy_traits_sm90.hpp. The instruction is warp-wide: all 32 threads execute it together.
// Pre: every row 16-byte aligned in shared memory. Built for an architecture below sm_90, a use
// fails to compile (arch/util.hpp).
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// SM90_U32x1_STSM_N: stmatrix.x1: one 8x8 matrix from src, the thread's two elements of it.
// Pre: see the file comment. Post: the matrix row t/4, columns 2(t%4) and 2(t%4)+1, holds src's low
// and high 16 bits, for every thread t.
struct SM90_U32x1_STSM_N {
  using SRegisters = std::uint32_t[1];
  using DRegisters = uint128_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(std::uint32_t const& src, uint128_t& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n"
                 :
                 : "r"(smem_address(&smem_dst)), "r"(src)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_U32x1_STSM_N: stmatrix needs sm_90 or newer; "
                  "build for -gencode arch=compute_90 or later");
#else
    detail::device_only("SM90_U32x1_STSM_N::copy (stmatrix)", src, smem_dst);
#endif
  }
};

// SM90_U32x2_STSM_N: stmatrix.x2: two 8x8 matrices, src_i holding the thread's elements of matrix i.
// Pre/Post: as SM90_U32x1_STSM_N, per matrix.
struct SM90_U32x2_STSM_N {
  using SRegisters = std::uint32_t[2];
  using DRegisters = uint128_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(std::uint32_t const& src0, std::uint32_t const& src1, uint128_t& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n"
                 :
                 : "r"(smem_address(&smem_dst)), "r"(src0), "r"(src1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_U32x2_STSM_N: stmatrix needs sm_90 or newer; "
                  "build for -gencode arch=compute_90 or later");
#else
    detail::device_only("SM90_U32x2_STSM_N::copy (stmatrix)", src0, src1, smem_dst);
#endif
  }
};

// SM90_U32x4_STSM_N: stmatrix.x4: four 8x8 matrices, src_i holding the thread's elements of matrix i.
// Pre/Post: as SM90_U32x1_STSM_N, per matrix.
struct SM90_U32x4_STSM_N {
  using SRegisters = std::uint32_t[4];
  using DRegisters = uint128_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(std::uint32_t const& src0, std::uint32_t const& src1, std::uint32_t const& src2,
                                       std::uint32_t const& src3, uint128_t& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :
                 : "r"(smem_address(&smem_dst)), "r"(src0), "r"(src1), "r"(src2), "r"(src3)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_U32x4_STSM_N: stmatrix needs sm_90 or newer; "
                  "build for -gencode arch=compute_90 or later");
#else
    detail::device_only("SM90_U32x4_STSM_N::copy (stmatrix)", src0, src1, src2, src3, smem_dst);
#endif
  }
};

// SM90_U16x2_STSM_T: stmatrix.x1.trans: one 8x8 matrix, transposed. Pre: see the file comment.
// Post: rows 2(t%4) and 2(t%4)+1 of column t/4 of the stored matrix hold src's low and high 16 bits.
struct SM90_U16x2_STSM_T {
  using SRegisters = std::uint32_t[1];
  using DRegisters = uint128_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(std::uint32_t const& src, uint128_t& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n"
                 :
                 : "r"(smem_address(&smem_dst)), "r"(src)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_U16x2_STSM_T: stmatrix needs sm_90 or newer; "
                  "build for -gencode arch=compute_90 or later");
#else
    detail::device_only("SM90_U16x2_STSM_T::copy (stmatrix.trans)", src, smem_dst);
#endif
  }
};

// SM90_U16x4_STSM_T: stmatrix.x2.trans: two 8x8 matrices, transposed, src_i for matrix i.
// Pre/Post: as SM90_U16x2_STSM_T, per matrix.
struct SM90_U16x4_STSM_T {
  using SRegisters = std::uint32_t[2];
  using DRegisters = uint128_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(std::uint32_t const& src0, std::uint32_t const& src1, uint128_t& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n"
                 :
                 : "r"(smem_address(&smem_dst)), "r"(src0), "r"(src1)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_U16x4_STSM_T: stmatrix needs sm_90 or newer; "
                  "build for -gencode arch=compute_90 or later");
#else
    detail::device_only("SM90_U16x4_STSM_T::copy (stmatrix.trans)", src0, src1, smem_dst);
#endif
  }
};

// SM90_U16x8_STSM_T: stmatrix.x4.trans: four 8x8 matrices, transposed, src_i for matrix i.
// Pre/Post: as SM90_U16x2_STSM_T, per matrix.
struct SM90_U16x8_STSM_T {
  using SRegisters = std::uint32_t[4];
  using DRegisters = uint128_t[1];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void copy(std::uint32_t const& src0, std::uint32_t const& src1, std::uint32_t const& src2,
                                       std::uint32_t const& src3, uint128_t& smem_dst) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :
                 : "r"(smem_address(&smem_dst)), "r"(src0), "r"(src1), "r"(src2), "r"(src3)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM90_U16x8_STSM_T: stmatrix needs sm_90 or newer; "
                  "build for -gencode arch=compute_90 or later");
#else
    detail::device_only("SM90_U16x8_STSM_T::copy (stmatrix.trans)", src0, src1, src2, src3, smem_dst);
#endif
  }
};

}  // namespace tessera
