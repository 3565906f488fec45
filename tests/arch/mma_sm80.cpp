// Host tests for include/tessera/arch/mma_sm80.hpp: register types and counts of every mma.sync, as
// the PTX ISA gives them; calling one on the host stops with a message (the GPU behaviour is tested
// in tests/arch_cuda/mma_sm80.cu).
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/arch/mma_sm80.hpp"

using namespace tessera;
using u32 = std::uint32_t;

template <class Op, class D, class A, class B, class C>
constexpr bool registers_are =
    std::is_same_v<typename Op::DRegisters, D> && std::is_same_v<typename Op::ARegisters, A> &&
    std::is_same_v<typename Op::BRegisters, B> && std::is_same_v<typename Op::CRegisters, C>;

TEST(ArchMmaSm80, RegistersAsTheIsaGivesThem) {
  // m16n8k16 f16/bf16: A four .f16x2/.bf16x2, B two, C/D four .f32.
  static_assert(registers_are<SM80_16x8x16_F32F16F16F32_TN, float[4], u32[4], u32[2], float[4]>);
  static_assert(registers_are<SM80_16x8x16_F32BF16BF16F32_TN, float[4], u32[4], u32[2], float[4]>);
  // m16n8k8 tf32: A four .b32 (one tf32 each), B two, C/D four .f32.
  static_assert(registers_are<SM80_16x8x8_F32TF32TF32F32_TN, float[4], u32[4], u32[2], float[4]>);
  // f16 accumulators: two .f16x2 registers for C and D.
  static_assert(registers_are<SM80_16x8x8_F16F16F16F16_TN, u32[2], u32[2], u32[1], u32[2]>);
  static_assert(registers_are<SM80_16x8x16_F16F16F16F16_TN, u32[2], u32[4], u32[2], u32[2]>);
}

TEST(ArchMmaSm80DeathTest, CallingOnTheHostStops) {
  float d[4] = {};
  u32 const a = 0;
  EXPECT_DEATH(SM80_16x8x16_F32F16F16F32_TN::fma(d[0], d[1], d[2], d[3], a, a, a, a, a, a, d[0], d[1], d[2], d[3]),
               "SM80_16x8x16_F32F16F16F32_TN::fma \\(mma.sync.m16n8k16\\) runs only on the device");
  u32 h[2] = {};
  EXPECT_DEATH(SM80_16x8x8_F16F16F16F16_TN::fma(h[0], h[1], a, a, a, h[0], h[1]),
               "SM80_16x8x8_F16F16F16F16_TN::fma \\(mma.sync.m16n8k8\\) runs only on the device");
}
