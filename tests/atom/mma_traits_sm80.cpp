// Tests for include/tessera/atom/mma_traits_sm80.hpp: every layout prints as CuTe's, equals the PTX
// ISA's fragment formulas (ptx_fragments.hpp) for every lane and element, is a bijection onto its
// tile, and the value counts times the value widths equal the register widths.
#include <gtest/gtest.h>

#include <type_traits>

#include "ptx_fragments.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"
#include "tessera/core/print.hpp"
#include "tv_laws.hpp"

using namespace tessera;
namespace ptx = tessera::test::ptx;
using tessera::test::register_bits_v;

namespace {
using Fragment = ptx::RowCol (*)(int lane, int i);

// The traits of Op against the ISA: A (M x K) element i of lane t at (row m, col k) must be
// ALayout(t, i) == m + k*M; B (K x N in the ISA) element (row k, col n) at BLayout(t, i) == n + k*N;
// C element (row m, col n) at CLayout(t, i) == m + n*M.
template <class Op>
void expect_mma_laws(Fragment a, Fragment b) {
  using T = MMA_Traits<Op>;
  int const M = get<0>(typename T::Shape_MNK{});
  int const N = get<1>(typename T::Shape_MNK{});
  int const K = get<2>(typename T::Shape_MNK{});
  typename T::ALayout const al{};
  typename T::BLayout const bl{};
  typename T::CLayout const cl{};
  static_assert(std::is_same_v<typename T::ThrID, Layout<_32>>);
  // Every lane holds its share; sizes cover the tiles.
  ASSERT_EQ(int(size<0>(al)), 32);
  ASSERT_EQ(int(size<0>(bl)), 32);
  ASSERT_EQ(int(size<0>(cl)), 32);
  ASSERT_EQ(int(size(al)), M * K);
  ASSERT_EQ(int(size(bl)), N * K);
  ASSERT_EQ(int(size(cl)), M * N);
  // Value counts times value widths are the register widths.
  static_assert(decltype(size<1>(al))::value * sizeof_bits_v<typename T::ValTypeA> ==
                register_bits_v<typename Op::ARegisters>);
  static_assert(decltype(size<1>(bl))::value * sizeof_bits_v<typename T::ValTypeB> ==
                register_bits_v<typename Op::BRegisters>);
  static_assert(decltype(size<1>(cl))::value * sizeof_bits_v<typename T::ValTypeC> ==
                register_bits_v<typename Op::CRegisters>);
  static_assert(decltype(size<1>(cl))::value * sizeof_bits_v<typename T::ValTypeD> ==
                register_bits_v<typename Op::DRegisters>);
  // The ISA's fragments, element by element.
  for (int t = 0; t < 32; ++t) {
    for (int i = 0; i < int(size<1>(al)); ++i) {
      ptx::RowCol const e = a(t, i);
      ASSERT_EQ(int(al(t, i)), e.row + e.col * M) << to_string(al) << " lane " << t << " a" << i;
    }
    for (int i = 0; i < int(size<1>(bl)); ++i) {
      ptx::RowCol const e = b(t, i);  // row k, col n
      ASSERT_EQ(int(bl(t, i)), e.col + e.row * N) << to_string(bl) << " lane " << t << " b" << i;
    }
    for (int i = 0; i < int(size<1>(cl)); ++i) {
      ptx::RowCol const e = ptx::m16n8_c(t, i);
      ASSERT_EQ(int(cl(t, i)), e.row + e.col * M) << to_string(cl) << " lane " << t << " c" << i;
    }
  }
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(al));
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(bl));
  EXPECT_TRUE(tessera::test::is_bijection_onto_tile(cl));
}

template <class T, class D, class A, class B, class C>
constexpr bool value_types_are = std::is_same_v<typename T::ValTypeD, D> && std::is_same_v<typename T::ValTypeA, A> &&
                                 std::is_same_v<typename T::ValTypeB, B> && std::is_same_v<typename T::ValTypeC, C>;
}  // namespace

TEST(MmaTraitsSm80, ValueTypesAndShapes) {
  static_assert(value_types_are<MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>, float, half_t, half_t, float>);
  static_assert(value_types_are<MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>, float, bfloat16_t, bfloat16_t, float>);
  static_assert(value_types_are<MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>, float, tfloat32_t, tfloat32_t, float>);
  static_assert(value_types_are<MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>, half_t, half_t, half_t, half_t>);
  static_assert(value_types_are<MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>, half_t, half_t, half_t, half_t>);
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::Shape_MNK{}), "(_16,_8,_16)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>::Shape_MNK{}), "(_16,_8,_16)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::Shape_MNK{}), "(_16,_8,_16)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>::Shape_MNK{}), "(_16,_8,_8)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>::Shape_MNK{}), "(_16,_8,_8)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::ThrID{}), "_32:_1");
}

TEST(MmaTraitsSm80, LayoutsPrintAsSpecified) {
  std::string const c16x8 = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";
  // m16n8k16 with f16 or bf16 inputs: the same layouts whatever the accumulator.
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::ALayout{}),
            "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::BLayout{}), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::CLayout{}), c16x8);
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>::ALayout{}),
            "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>::BLayout{}), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>::CLayout{}), c16x8);
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::ALayout{}),
            "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::BLayout{}), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::CLayout{}), c16x8);
  // m16n8k8 with f16.
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>::ALayout{}), c16x8);
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>::BLayout{}), "((_4,_8),_2):((_16,_1),_8)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>::CLayout{}), c16x8);
  // m16n8k8 with tf32.
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>::ALayout{}), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>::BLayout{}), "((_4,_8),_2):((_8,_1),_32)");
  EXPECT_EQ(to_string(MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>::CLayout{}), c16x8);
}

TEST(MmaTraitsSm80, M16N8K16MatchesTheIsa) {
  expect_mma_laws<SM80_16x8x16_F32F16F16F32_TN>(ptx::m16n8k16_a_f16, ptx::m16n8k16_b_f16);
  expect_mma_laws<SM80_16x8x16_F32BF16BF16F32_TN>(ptx::m16n8k16_a_f16, ptx::m16n8k16_b_f16);
  expect_mma_laws<SM80_16x8x16_F16F16F16F16_TN>(ptx::m16n8k16_a_f16, ptx::m16n8k16_b_f16);
}

TEST(MmaTraitsSm80, M16N8K8MatchesTheIsa) {
  expect_mma_laws<SM80_16x8x8_F16F16F16F16_TN>(ptx::m16n8k8_a_f16, ptx::m16n8k8_b_f16);
  expect_mma_laws<SM80_16x8x8_F32TF32TF32F32_TN>(ptx::m16n8k8_a_tf32, ptx::m16n8k8_b_tf32);
}

// The worked example of docs/atoms.md: lane 5 holds c0..c3 at rows 1, 1, 9, 9 and columns 2, 3, 2, 3.
TEST(MmaTraitsSm80, AccumulatorWorkedExample) {
  auto const c = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::CLayout{};  // (thr,val) -> m + 16 n
  EXPECT_EQ(int(c(5, 0)), 1 + 16 * 2);
  EXPECT_EQ(int(c(5, 1)), 1 + 16 * 3);
  EXPECT_EQ(int(c(5, 2)), 9 + 16 * 2);
  EXPECT_EQ(int(c(5, 3)), 9 + 16 * 3);
}
