// Host tests for include/tessera/arch/copy_sm90.hpp: operand types of every stmatrix variant; the
// header compiles without CUDA, and calling an instruction on the host stops with a message (the
// GPU behaviour is tested in tests/arch_cuda/copy_sm90.cu).
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/arch/copy_sm90.hpp"

using namespace tessera;

TEST(ArchCopySm90, OperandsAreOneRegisterPerMatrixAndARow) {
  static_assert(std::is_same_v<SM90_U32x1_STSM_N::SRegisters, std::uint32_t[1]>);
  static_assert(std::is_same_v<SM90_U32x2_STSM_N::SRegisters, std::uint32_t[2]>);
  static_assert(std::is_same_v<SM90_U32x4_STSM_N::SRegisters, std::uint32_t[4]>);
  static_assert(std::is_same_v<SM90_U32x4_STSM_N::DRegisters, uint128_t[1]>);
  static_assert(std::is_same_v<SM90_U16x2_STSM_T::SRegisters, std::uint32_t[1]>);
  static_assert(std::is_same_v<SM90_U16x4_STSM_T::SRegisters, std::uint32_t[2]>);
  static_assert(std::is_same_v<SM90_U16x8_STSM_T::SRegisters, std::uint32_t[4]>);
  static_assert(std::is_same_v<SM90_U16x8_STSM_T::DRegisters, uint128_t[1]>);
}

TEST(ArchCopySm90DeathTest, CallingOnTheHostStops) {
  uint128_t row{};
  std::uint32_t const r = 0;
  EXPECT_DEATH(SM90_U32x1_STSM_N::copy(r, row), "SM90_U32x1_STSM_N::copy \\(stmatrix\\) runs only on the device");
  EXPECT_DEATH(SM90_U16x8_STSM_T::copy(r, r, r, r, row),
               "SM90_U16x8_STSM_T::copy \\(stmatrix.trans\\) runs only on the device");
}
