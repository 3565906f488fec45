// sm_80 warp-wide tensor-core multiply-accumulates (PTX mma.sync.aligned ... .row.col): the 32
// threads of a warp together compute D = A * B + C for one M x N x K tile, each thread holding a
// fragment of A (M x K), B (K x N; "TN": both A and B are K-major, B read as N x K), C and D
// (M x N) in its registers:
//   SM80_16x8x16_F32F16F16F32_TN    m16n8k16, f16 inputs, f32 accumulators
//   SM80_16x8x16_F32BF16BF16F32_TN  m16n8k16, bf16 inputs, f32 accumulators
//   SM80_16x8x8_F32TF32TF32F32_TN   m16n8k8, tf32 inputs, f32 accumulators
//   SM80_16x8x8_F16F16F16F16_TN     m16n8k8, f16 inputs and accumulators
//   SM80_16x8x16_F16F16F16F16_TN    m16n8k16, f16 inputs and accumulators
// Register types, as the PTX ISA gives them: a uint32_t holds two f16 or bf16 elements (the
// lower-numbered one in the low 16 bits) or one tf32 (float bits, core/numeric.hpp's tfloat32_t);
// f32 accumulators are floats, f16 accumulators two f16 packed in a uint32_t. Which element of
// which matrix each register of each thread holds is given by the traits in
// atom/mma_traits_sm80.hpp (ALayout, BLayout, CLayout). Every fma is warp-wide: all 32 threads
// execute it together. Pre for every fma: each thread's registers hold its fragments. Post: the D
// registers hold the thread's fragment of A * B + C (products and sums in the accumulator type).
// Built for an architecture below sm_80, a use fails to compile (arch/util.hpp).
#pragma once

#include "tessera/arch/util.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// SM80_16x8x16_F32F16F16F32_TN: 16x8 f32 += (16x16 f16) * (16x8 f16); per thread 4 f32 accumulators
// and 4 A and 2 B registers of two f16 each.
struct SM80_16x8x16_F32F16F16F32_TN {
  using DRegisters = float[4];
  using ARegisters = std::uint32_t[4];
  using BRegisters = std::uint32_t[2];
  using CRegisters = float[4];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void fma(float& d0, float& d1, float& d2, float& d3, std::uint32_t const& a0,
                                      std::uint32_t const& a1, std::uint32_t const& a2, std::uint32_t const& a3,
                                      std::uint32_t const& b0, std::uint32_t const& b1, float const& c0,
                                      float const& c1, float const& c2, float const& c3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM80_16x8x16_F32F16F16F32_TN: mma.sync.m16n8k16 needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_16x8x16_F32F16F16F32_TN::fma (mma.sync.m16n8k16)", d0, d1, d2, d3, a0, a1, a2, a3, b0, b1,
                        c0, c1, c2, c3);
#endif
  }
};

// SM80_16x8x16_F32BF16BF16F32_TN: 16x8 f32 += (16x16 bf16) * (16x8 bf16); registers as
// SM80_16x8x16_F32F16F16F32_TN, with bf16 in the A and B registers.
struct SM80_16x8x16_F32BF16BF16F32_TN {
  using DRegisters = float[4];
  using ARegisters = std::uint32_t[4];
  using BRegisters = std::uint32_t[2];
  using CRegisters = float[4];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void fma(float& d0, float& d1, float& d2, float& d3, std::uint32_t const& a0,
                                      std::uint32_t const& a1, std::uint32_t const& a2, std::uint32_t const& a3,
                                      std::uint32_t const& b0, std::uint32_t const& b1, float const& c0,
                                      float const& c1, float const& c2, float const& c3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM80_16x8x16_F32BF16BF16F32_TN: mma.sync.m16n8k16 needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_16x8x16_F32BF16BF16F32_TN::fma (mma.sync.m16n8k16)", d0, d1, d2, d3, a0, a1, a2, a3, b0,
                        b1, c0, c1, c2, c3);
#endif
  }
};

// SM80_16x8x8_F32TF32TF32F32_TN: 16x8 f32 += (16x8 tf32) * (8x8 tf32); per thread 4 f32 accumulators
// and 4 A and 2 B registers of one tf32 each (float bits; the low 13 mantissa bits are ignored).
struct SM80_16x8x8_F32TF32TF32F32_TN {
  using DRegisters = float[4];
  using ARegisters = std::uint32_t[4];
  using BRegisters = std::uint32_t[2];
  using CRegisters = float[4];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void fma(float& d0, float& d1, float& d2, float& d3, std::uint32_t const& a0,
                                      std::uint32_t const& a1, std::uint32_t const& a2, std::uint32_t const& a3,
                                      std::uint32_t const& b0, std::uint32_t const& b1, float const& c0,
                                      float const& c1, float const& c2, float const& c3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM80_16x8x8_F32TF32TF32F32_TN: mma.sync.m16n8k8 needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_16x8x8_F32TF32TF32F32_TN::fma (mma.sync.m16n8k8)", d0, d1, d2, d3, a0, a1, a2, a3, b0, b1,
                        c0, c1, c2, c3);
#endif
  }
};

// SM80_16x8x8_F16F16F16F16_TN: 16x8 f16 += (16x8 f16) * (8x8 f16); per thread 2 accumulator, 2 A and 1
// B register, each two f16.
struct SM80_16x8x8_F16F16F16F16_TN {
  using DRegisters = std::uint32_t[2];
  using ARegisters = std::uint32_t[2];
  using BRegisters = std::uint32_t[1];
  using CRegisters = std::uint32_t[2];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void fma(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t const& a0,
                                      std::uint32_t const& a1, std::uint32_t const& b0, std::uint32_t const& c0,
                                      std::uint32_t const& c1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
        "{%0, %1}, {%2, %3}, {%4}, {%5, %6};\n"
        : "=r"(d0), "=r"(d1)
        : "r"(a0), "r"(a1), "r"(b0), "r"(c0), "r"(c1));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM80_16x8x8_F16F16F16F16_TN: mma.sync.m16n8k8 needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_16x8x8_F16F16F16F16_TN::fma (mma.sync.m16n8k8)", d0, d1, a0, a1, b0, c0, c1);
#endif
  }
};

// SM80_16x8x16_F16F16F16F16_TN: 16x8 f16 += (16x16 f16) * (16x8 f16); per thread 2 accumulator, 4 A
// and 2 B registers, each two f16.
struct SM80_16x8x16_F16F16F16F16_TN {
  using DRegisters = std::uint32_t[2];
  using ARegisters = std::uint32_t[4];
  using BRegisters = std::uint32_t[2];
  using CRegisters = std::uint32_t[2];

  template <class Unused = void>
  TESSERA_HOST_DEVICE static void fma(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t const& a0,
                                      std::uint32_t const& a1, std::uint32_t const& a2, std::uint32_t const& a3,
                                      std::uint32_t const& b0, std::uint32_t const& b1, std::uint32_t const& c0,
                                      std::uint32_t const& c1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
        "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"
        : "=r"(d0), "=r"(d1)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1));
#elif defined(__CUDA_ARCH__)
    static_assert(detail::always_false<Unused>,
                  "SM80_16x8x16_F16F16F16F16_TN: mma.sync.m16n8k16 needs sm_80 or newer; "
                  "build for -gencode arch=compute_80 or later");
#else
    detail::device_only("SM80_16x8x16_F16F16F16F16_TN::fma (mma.sync.m16n8k16)", d0, d1, a0, a1, a2, a3, b0, b1, c0,
                        c1);
#endif
  }
};

}  // namespace tessera
