// Tests for include/tessera/atom/copy_traits_sm75.hpp (ldmatrix): the layouts print as CuTe's, equal
// the PTX ISA's fragment description (ptx_fragments.hpp) bit by bit, cover the tile once (the row
// side of .x1/.x2 as a documented broadcast of the lower lanes), and match the register widths.
#include <gtest/gtest.h>

#include <type_traits>

#include "m8n8_laws.hpp"
#include "tessera/atom/copy_traits_sm75.hpp"
#include "tessera/core/print.hpp"
#include "tv_laws.hpp"

using namespace tessera;
using tessera::test::register_bits_v;

namespace {
template <class Op>
void expect_ldsm_laws(int matrices, bool trans) {
  using T = Copy_Traits<Op>;
  SCOPED_TRACE(to_string(typename T::DstLayout{}));
  static_assert(std::is_same_v<typename T::ThrID, Layout<_32>>);
  static_assert(std::is_same_v<typename T::RefLayout, typename T::DstLayout>);
  // Widths: a 128-bit row pointer in, `matrices` 32-bit registers out, per lane.
  static_assert(decltype(size<1>(typename T::SrcLayout{}))::value == register_bits_v<typename Op::SRegisters>);
  static_assert(decltype(size<1>(typename T::DstLayout{}))::value == register_bits_v<typename Op::DRegisters>);
  static_assert(decltype(size<0>(typename T::DstLayout{}))::value == 32 &&
                decltype(size<0>(typename T::SrcLayout{}))::value == 32);
  EXPECT_EQ(int(size<1>(typename T::DstLayout{})), 32 * matrices);
  // Against the ISA.
  tessera::test::expect_rows_layout_matches_isa(typename T::SrcLayout{}, matrices);
  tessera::test::expect_registers_layout_matches_isa(typename T::DstLayout{}, matrices, trans);
  // Bijections: the registers cover the tile once; the rows too, for the lanes that name them.
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::DstLayout{}));
  if (matrices == 4) {
    EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::SrcLayout{}));
  } else {
    EXPECT_TRUE(tessera::test::is_broadcast_of_first_threads(typename T::SrcLayout{}, 8 * matrices));
  }
}
}  // namespace

TEST(CopyTraitsSm75, LayoutsPrintAsSpecified) {
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x1_LDSM_N>::ThrID{}), "_32:_1");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x1_LDSM_N>::SrcLayout{}), "((_8,_4),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x1_LDSM_N>::DstLayout{}), "(_32,_32):(_32,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x2_LDSM_N>::SrcLayout{}), "((_16,_2),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x2_LDSM_N>::DstLayout{}), "(_32,(_32,_2)):(_32,(_1,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x4_LDSM_N>::SrcLayout{}), "(_32,_128):(_128,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U32x4_LDSM_N>::DstLayout{}), "(_32,(_32,_4)):(_32,(_1,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U16x2_LDSM_T>::SrcLayout{}), "((_8,_4),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U16x2_LDSM_T>::DstLayout{}), "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U16x4_LDSM_T>::SrcLayout{}), "((_16,_2),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U16x4_LDSM_T>::DstLayout{}),
            "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U16x8_LDSM_T>::SrcLayout{}), "(_32,_128):(_128,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM75_U16x8_LDSM_T>::DstLayout{}),
            "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))");
}

TEST(CopyTraitsSm75, NonTransposedMatchTheIsa) {
  expect_ldsm_laws<SM75_U32x1_LDSM_N>(1, false);
  expect_ldsm_laws<SM75_U32x2_LDSM_N>(2, false);
  expect_ldsm_laws<SM75_U32x4_LDSM_N>(4, false);
}

TEST(CopyTraitsSm75, TransposedMatchTheIsa) {
  expect_ldsm_laws<SM75_U16x2_LDSM_T>(1, true);
  expect_ldsm_laws<SM75_U16x4_LDSM_T>(2, true);
  expect_ldsm_laws<SM75_U16x8_LDSM_T>(4, true);
}

// The register layout of .x4 can also be written with the thread mode split as (t%4, t/4):
// ((_4,_8),(_32,_4)):((_32,_128),(_1,_1024)) is the same function as (_32,(_32,_4)):(_32,(_1,_1024)).
TEST(CopyTraitsSm75, SplitThreadModeIsTheSameFunction) {
  auto const split = make_layout(make_tuple(make_tuple(_4{}, _8{}), make_tuple(_32{}, _4{})),
                                 make_tuple(make_tuple(_32{}, _128{}), make_tuple(_1{}, _1024{})));
  auto const dst = Copy_Traits<SM75_U32x4_LDSM_N>::DstLayout{};
  for (int i = 0; i < int(size(dst)); ++i) ASSERT_EQ(int(split(i)), int(dst(i))) << i;
}
