// Host tests for include/tessera/arch/copy_sm80.hpp: operand types of the cp.async variants, the
// host behaviour (fence and waits do nothing, a copy stops with a message); the GPU behaviour is
// tested in tests/arch_cuda/copy_sm80.cu.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/arch/copy_sm80.hpp"

using namespace tessera;

TEST(ArchCopySm80, OperandsAreOneValueEach) {
  static_assert(std::is_same_v<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>::SRegisters, std::uint32_t[1]>);
  static_assert(std::is_same_v<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>::DRegisters, std::uint64_t[1]>);
  static_assert(std::is_same_v<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::SRegisters, uint128_t[1]>);
  static_assert(std::is_same_v<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>::DRegisters, uint128_t[1]>);
  static_assert(std::is_same_v<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t, uint128_t>::DRegisters, uint128_t[1]>);
}

TEST(ArchCopySm80, FenceAndWaitsDoNothingOnTheHost) {
  cp_async_fence();
  cp_async_wait<0>();
  cp_async_wait<3>();
  cp_async_wait_all();
  SUCCEED();
}

TEST(ArchCopySm80DeathTest, CopyingOnTheHostStops) {
  uint128_t const src{};
  uint128_t dst{};
  EXPECT_DEATH(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::copy(src, dst),
               "SM80_CP_ASYNC_CACHEGLOBAL::copy \\(cp.async.cg\\) runs only on the device");
  EXPECT_DEATH(SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>::copy(src, dst, false),
               "cp.async.ca with src-size\\) runs only on the device");
}
