// Tests for include/tessera/atom/copy_traits_sm80.hpp: the cp.async variants have the layouts of
// UniversalCopy of their width (one thread, the value's bits in order), and the zero-filling ones
// carry their predicate.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/core/print.hpp"
#include "tv_laws.hpp"

using namespace tessera;
using tessera::test::register_bits_v;

namespace {
template <class Op, class S>
void expect_same_layouts_as_universal_copy() {
  using T = Copy_Traits<Op>;
  using U = Copy_Traits<UniversalCopy<S>>;
  static_assert(std::is_same_v<typename T::ThrID, Layout<_1>>);
  static_assert(std::is_same_v<typename T::SrcLayout, typename U::SrcLayout>);
  static_assert(std::is_same_v<typename T::DstLayout, typename U::DstLayout>);
  static_assert(std::is_same_v<typename T::RefLayout, typename T::SrcLayout>);
  static_assert(decltype(size<1>(typename T::SrcLayout{}))::value == register_bits_v<typename Op::SRegisters>);
  static_assert(decltype(size<1>(typename T::DstLayout{}))::value == register_bits_v<typename Op::DRegisters>);
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::SrcLayout{}));
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::DstLayout{}));
}
}  // namespace

TEST(CopyTraitsSm80, LayoutsPrint) {
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>>::SrcLayout{}), "(_1,_32):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>>::DstLayout{}), "(_1,_64):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>>::RefLayout{}), "(_1,_128):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>::DstLayout{}), "(_1,_128):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint32_t>>::SrcLayout{}), "(_1,_32):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>::SrcLayout{}), "(_1,_128):(_0,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>::ThrID{}), "_1:_0");
}

TEST(CopyTraitsSm80, SameLayoutsAsUniversalCopyOfTheirWidth) {
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>, std::uint32_t>();
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>, std::uint64_t>();
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, uint128_t>();
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, uint128_t>();
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint32_t>, std::uint32_t>();
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>, uint128_t>();
  expect_same_layouts_as_universal_copy<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, uint128_t>();
}

TEST(CopyTraitsSm80, ZfillTraitsCarryThePredicate) {
  constexpr Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint64_t>> t{};
  static_assert(t.pred);               // copy by default
  static_assert(!t.with(false).pred);  // with(p) sets it
  static_assert(t.with(false).with(true).pred);
  Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>> g;
  EXPECT_TRUE(g.pred);
  EXPECT_FALSE(g.with(false).pred);
  // The plain variants hold nothing.
  static_assert(std::is_empty_v<Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>>>);
  static_assert(std::is_empty_v<Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>>);
}
