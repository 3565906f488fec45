// Host tests for include/tessera/arch/copy.hpp: UniversalCopy's operands and the copy itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/arch/copy.hpp"

using namespace tessera;

TEST(ArchCopy, UniversalCopyOperands) {
  static_assert(std::is_same_v<UniversalCopy<float>::SRegisters, float[1]>);
  static_assert(std::is_same_v<UniversalCopy<float>::DRegisters, float[1]>);
  static_assert(std::is_same_v<UniversalCopy<std::uint32_t, std::uint64_t>::DRegisters, std::uint64_t[1]>);
  static_assert(std::is_same_v<UniversalCopy<uint128_t>::SRegisters, uint128_t[1]>);
}

TEST(ArchCopy, UniversalCopyCopies) {
  std::uint8_t b = 0;
  UniversalCopy<std::uint8_t>::copy(std::uint8_t(0xab), b);
  EXPECT_EQ(b, 0xab);
  uint128_t const src{0x0123456789abcdefull, 0xfedcba9876543210ull};
  uint128_t dst{};
  UniversalCopy<uint128_t>::copy(src, dst);
  EXPECT_EQ(dst, src);
  std::uint64_t wide = 0;
  UniversalCopy<std::uint32_t, std::uint64_t>::copy(0xffffffffu, wide);  // converts, as dst = src
  EXPECT_EQ(wide, 0xffffffffull);
  static_assert([] {
    half_t h{};
    UniversalCopy<half_t>::copy(half_t(2.0f), h);
    return h.raw() == 0x4000;
  }());
}
