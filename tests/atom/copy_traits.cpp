// Tests for include/tessera/atom/copy_traits.hpp: UniversalCopy's thread-value layouts print as
// specified, cover the value's bits once, and match the operand widths.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/atom/copy_traits.hpp"
#include "tessera/core/print.hpp"
#include "tv_laws.hpp"

using namespace tessera;
using tessera::test::register_bits_v;

namespace {
template <class S, class D>
void expect_universal_copy_laws() {
  using Op = UniversalCopy<S, D>;
  using T = Copy_Traits<Op>;
  EXPECT_EQ(to_string(typename T::ThrID{}), "_1:_0");  // one thread (a static size-1 mode has stride _0)
  static_assert(std::is_same_v<typename T::RefLayout, typename T::SrcLayout>);
  static_assert(std::is_empty_v<typename T::SrcLayout> && std::is_empty_v<typename T::DstLayout>);
  // One thread; the value mode runs over the register's bits.
  static_assert(decltype(size<0>(typename T::SrcLayout{}))::value == decltype(size(typename T::ThrID{}))::value);
  static_assert(decltype(size<1>(typename T::SrcLayout{}))::value == register_bits_v<typename Op::SRegisters>);
  static_assert(decltype(size<1>(typename T::DstLayout{}))::value == register_bits_v<typename Op::DRegisters>);
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::SrcLayout{}));
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::DstLayout{}));
}
}  // namespace

TEST(CopyTraits, UniversalCopyLayoutsPrint) {
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<std::uint8_t>>::SrcLayout{}), "(_1,_8):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<std::uint16_t>>::SrcLayout{}), "(_1,_16):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<float>>::SrcLayout{}), "(_1,_32):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<std::uint64_t>>::DstLayout{}), "(_1,_64):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<uint128_t>>::DstLayout{}), "(_1,_128):(_0,_1)");
  // Source and destination widths are independent.
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<std::uint32_t, std::uint64_t>>::SrcLayout{}), "(_1,_32):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<UniversalCopy<std::uint32_t, std::uint64_t>>::DstLayout{}), "(_1,_64):(_0,_1)");
}

TEST(CopyTraits, UniversalCopyLaws) {
  expect_universal_copy_laws<std::uint8_t, std::uint8_t>();
  expect_universal_copy_laws<half_t, half_t>();
  expect_universal_copy_laws<float, float>();
  expect_universal_copy_laws<double, double>();
  expect_universal_copy_laws<uint128_t, uint128_t>();
  expect_universal_copy_laws<std::uint32_t, std::uint64_t>();
}
