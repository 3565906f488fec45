// Tests for include/tessera/atom/copy_traits_sm90.hpp (stmatrix): the layouts print as CuTe's, are
// ldmatrix's with source and destination exchanged, and equal the PTX ISA's fragment description
// (ptx_fragments.hpp) bit by bit.
#include <gtest/gtest.h>

#include <type_traits>

#include "m8n8_laws.hpp"
#include "tessera/atom/copy_traits_sm90.hpp"
#include "tessera/core/print.hpp"
#include "tv_laws.hpp"

using namespace tessera;
using tessera::test::register_bits_v;

namespace {
template <class Op, class Ldsm>
void expect_stsm_laws(int matrices, bool trans) {
  using T = Copy_Traits<Op>;
  SCOPED_TRACE(to_string(typename T::SrcLayout{}));
  static_assert(std::is_same_v<typename T::ThrID, Layout<_32>>);
  static_assert(std::is_same_v<typename T::RefLayout, typename T::SrcLayout>);
  // The mirror of ldmatrix of the same shape.
  static_assert(std::is_same_v<typename T::SrcLayout, typename Copy_Traits<Ldsm>::DstLayout>);
  static_assert(std::is_same_v<typename T::DstLayout, typename Copy_Traits<Ldsm>::SrcLayout>);
  // Widths: `matrices` 32-bit registers in, a 128-bit row out, per lane.
  static_assert(decltype(size<1>(typename T::SrcLayout{}))::value == register_bits_v<typename Op::SRegisters>);
  static_assert(decltype(size<1>(typename T::DstLayout{}))::value == register_bits_v<typename Op::DRegisters>);
  // Against the ISA (stmatrix's fragments are ldmatrix's).
  tessera::test::expect_registers_layout_matches_isa(typename T::SrcLayout{}, matrices, trans);
  tessera::test::expect_rows_layout_matches_isa(typename T::DstLayout{}, matrices);
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::SrcLayout{}));
  if (matrices == 4) {
    EXPECT_TRUE(tessera::test::is_bijection_onto_tile(typename T::DstLayout{}));
  } else {
    EXPECT_TRUE(tessera::test::is_broadcast_of_first_threads(typename T::DstLayout{}, 8 * matrices));
  }
}
}  // namespace

TEST(CopyTraitsSm90, LayoutsPrintAsSpecified) {
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x1_STSM_N>::ThrID{}), "_32:_1");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x1_STSM_N>::SrcLayout{}), "(_32,_32):(_32,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x1_STSM_N>::DstLayout{}), "((_8,_4),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x2_STSM_N>::SrcLayout{}), "(_32,(_32,_2)):(_32,(_1,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x2_STSM_N>::DstLayout{}), "((_16,_2),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x4_STSM_N>::SrcLayout{}), "(_32,(_32,_4)):(_32,(_1,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U32x4_STSM_N>::DstLayout{}), "(_32,_128):(_128,_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U16x2_STSM_T>::SrcLayout{}), "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U16x2_STSM_T>::DstLayout{}), "((_8,_4),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U16x4_STSM_T>::SrcLayout{}),
            "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U16x4_STSM_T>::DstLayout{}), "((_16,_2),_128):((_128,_0),_1)");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U16x8_STSM_T>::SrcLayout{}),
            "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))");
  EXPECT_EQ(to_string(Copy_Traits<SM90_U16x8_STSM_T>::DstLayout{}), "(_32,_128):(_128,_1)");
}

TEST(CopyTraitsSm90, NonTransposedMatchTheIsa) {
  expect_stsm_laws<SM90_U32x1_STSM_N, SM75_U32x1_LDSM_N>(1, false);
  expect_stsm_laws<SM90_U32x2_STSM_N, SM75_U32x2_LDSM_N>(2, false);
  expect_stsm_laws<SM90_U32x4_STSM_N, SM75_U32x4_LDSM_N>(4, false);
}

TEST(CopyTraitsSm90, TransposedMatchTheIsa) {
  expect_stsm_laws<SM90_U16x2_STSM_T, SM75_U16x2_LDSM_T>(1, true);
  expect_stsm_laws<SM90_U16x4_STSM_T, SM75_U16x4_LDSM_T>(2, true);
  expect_stsm_laws<SM90_U16x8_STSM_T, SM75_U16x8_LDSM_T>(4, true);
}
