// Host tests for include/tessera/arch/copy_sm75.hpp: operand types of every ldmatrix variant; the
// header compiles without CUDA, and calling an instruction on the host stops with a message (the
// GPU behaviour is tested in tests/arch_cuda/copy_sm75.cu).
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/arch/copy_sm75.hpp"

using namespace tessera;

TEST(ArchCopySm75, OperandsAreARowAndOneRegisterPerMatrix) {
  static_assert(std::is_same_v<SM75_U32x1_LDSM_N::SRegisters, uint128_t[1]>);
  static_assert(std::is_same_v<SM75_U32x1_LDSM_N::DRegisters, std::uint32_t[1]>);
  static_assert(std::is_same_v<SM75_U32x2_LDSM_N::DRegisters, std::uint32_t[2]>);
  static_assert(std::is_same_v<SM75_U32x4_LDSM_N::DRegisters, std::uint32_t[4]>);
  static_assert(std::is_same_v<SM75_U16x2_LDSM_T::SRegisters, uint128_t[1]>);
  static_assert(std::is_same_v<SM75_U16x2_LDSM_T::DRegisters, std::uint32_t[1]>);
  static_assert(std::is_same_v<SM75_U16x4_LDSM_T::DRegisters, std::uint32_t[2]>);
  static_assert(std::is_same_v<SM75_U16x8_LDSM_T::DRegisters, std::uint32_t[4]>);
}

TEST(ArchCopySm75DeathTest, CallingOnTheHostStops) {
  uint128_t row{};
  std::uint32_t r[4] = {};
  EXPECT_DEATH(SM75_U32x4_LDSM_N::copy(row, r[0], r[1], r[2], r[3]),
               "SM75_U32x4_LDSM_N::copy \\(ldmatrix\\) runs only on the device");
  EXPECT_DEATH(SM75_U16x2_LDSM_T::copy(row, r[0]),
               "SM75_U16x2_LDSM_T::copy \\(ldmatrix.trans\\) runs only on the device");
}
