// Tests for include/tessera/atom/mma_traits_sm90.hpp: the wgmma layouts print as CuTe's, the
// accumulator layout equals the PTX ISA's fragment of the m64nNk16 f32 accumulators for every
// thread and register (every N), it is a bijection onto the 64 x N tile, and the matrix
// descriptors built from the canonical stage layouts have the fields the ISA defines.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/core/print.hpp"

using namespace tessera;

namespace {

// The ISA's wgmma accumulator fragment (f32, m64nNk16): register i of thread t (warp w = t/32,
// lane l = t%32) holds row 16 w + l/4 + 8 ((i%4)/2), column 2 (l%4) + i%2 + 8 (i/4).
std::pair<int, int> ptx_c(int t, int i) {
  int const w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((i % 4) / 2), 2 * (l % 4) + i % 2 + 8 * (i / 4)};
}

template <class Op>
void expect_accumulators_match_ptx() {
  using T = MMA_Traits<Op>;
  constexpr int N = int(get<1>(typename T::Shape_MNK{}));
  typename T::CLayout const c{};
  std::set<int> seen;
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < N / 2; ++i) {
      auto const [m, n] = ptx_c(t, i);
      int const idx = int(c(t, i));
      ASSERT_EQ(idx, m + 64 * n) << "N = " << N << ", thread " << t << ", register " << i;
      seen.insert(idx);
    }
  EXPECT_EQ(int(seen.size()), 64 * N) << "N = " << N << ": CLayout is not a bijection onto the 64 x N tile";
  EXPECT_EQ(int(size<1>(c)), int(std::extent_v<typename Op::CRegisters>)) << "values a thread = its f32 registers";
}

// The ISA's register fragment of A for wgmma with A in registers (16-bit, m64k16): register j
// (two elements, value 2j + e) of thread t holds row 16 w + l/4 + 8 (j%2), column 2 (l%4) + e + 8 (j/2).
template <class Op>
void expect_register_a_matches_ptx() {
  using T = MMA_Traits<Op>;
  typename T::ALayout const a{};
  std::set<int> seen;
  for (int t = 0; t < 128; ++t)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 2; ++e) {
        int const w = t / 32, l = t % 32;
        int const m = 16 * w + l / 4 + 8 * (j % 2), k = 2 * (l % 4) + e + 8 * (j / 2);
        int const idx = int(a(t, 2 * j + e));
        ASSERT_EQ(idx, m + 64 * k) << "thread " << t << ", register " << j << ", element " << e;
        seen.insert(idx);
      }
  EXPECT_EQ(int(seen.size()), 64 * 16) << "ALayout is not a bijection onto the 64 x 16 tile of A";
  EXPECT_EQ(int(size<1>(a)), 2 * int(std::extent_v<typename Op::ARegisters>)) << "values a thread = two a register";
}

TEST(MmaTraitsSm90, RegisterALayoutMatchesPtxFragment) {
  using T = MMA_Traits<SM90_64x128x16_F32BF16BF16_RS<>>;
  EXPECT_EQ(to_string(T::ALayout{}), "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))");
  EXPECT_EQ(to_string(T::BLayout{}), "(_128,(_128,_16)):(_0,(_1,_128))");
  EXPECT_EQ(to_string(T::CLayout{}), "((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))");
  static_assert(std::is_same_v<MMA_Traits<SM90_64x64x16_F32F16F16_RS<>>::ValTypeA, half_t>);
  static_assert(MMA_Traits<SM90_64x64x16_F32F16F16_RS<GmmaMajor::K, GmmaMajor::MN>>::MajorB == GmmaMajor::MN);
  expect_register_a_matches_ptx<SM90_64x8x16_F32BF16BF16_RS<>>();
  expect_register_a_matches_ptx<SM90_64x256x16_F32F16F16_RS<>>();
  expect_accumulators_match_ptx<SM90_64x96x16_F32F16F16_RS<>>();
}

TEST(MmaTraitsSm90, LayoutsPrintAsCuTe) {
  using T = MMA_Traits<SM90_64x128x16_F32BF16BF16_SS<>>;
  // The example, from CuTe's traits.
  EXPECT_EQ(to_string(T::CLayout{}), "((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))");
  EXPECT_EQ(to_string(T::ALayout{}), "(_128,(_64,_16)):(_0,(_1,_64))");
  EXPECT_EQ(to_string(T::BLayout{}), "(_128,(_128,_16)):(_0,(_1,_128))");
  EXPECT_EQ(to_string(T::ThrID{}), "_128:_1");
  EXPECT_EQ(to_string(T::Shape_MNK{}), "(_64,_128,_16)");
  EXPECT_EQ(to_string(MMA_Traits<SM90_64x8x16_F32F16F16_SS<>>::CLayout{}),
            "((_4,_8,_4),(_2,_2)):((_128,_1,_16),(_64,_8))");
  static_assert(std::is_same_v<MMA_Traits<SM90_64x64x16_F32F16F16_SS<>>::ValTypeA, half_t>);
  static_assert(std::is_same_v<MMA_Traits<SM90_64x64x16_F32BF16BF16_SS<>>::ValTypeB, bfloat16_t>);
  static_assert(MMA_Traits<SM90_64x64x16_F32F16F16_SS<GmmaMajor::MN, GmmaMajor::K>>::MajorA == GmmaMajor::MN);
}

TEST(MmaTraitsSm90, AccumulatorsAreThePtxFragmentForEveryN) {
  expect_accumulators_match_ptx<SM90_64x8x16_F32BF16BF16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x16x16_F32BF16BF16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x24x16_F32F16F16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x64x16_F32F16F16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x96x16_F32BF16BF16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x128x16_F32BF16BF16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x200x16_F32F16F16_SS<>>();
  expect_accumulators_match_ptx<SM90_64x256x16_F32BF16BF16_SS<>>();
}

// The 8-bit forms (m64nNk32): the same accumulator fragment, K = 32, the operands' types.
TEST(MmaTraitsSm90, Fp8FormsShareTheAccumulatorsAndTakeK32) {
  expect_accumulators_match_ptx<SM90_64x8x32_F32E4M3E4M3_SS<>>();
  expect_accumulators_match_ptx<SM90_64x128x32_F32E5M2E5M2_SS<>>();
  expect_accumulators_match_ptx<SM90_64x256x32_F32E4M3E5M2_SS<>>();
  using T = MMA_Traits<SM90_64x256x32_F32E5M2E4M3_SS<>>;
  static_assert(std::is_same_v<T::Shape_MNK, Shape<_64, _256, _32>>);
  static_assert(std::is_same_v<T::ValTypeA, float_e5m2_t> && std::is_same_v<T::ValTypeB, float_e4m3_t>);
  EXPECT_EQ(to_string(T::ALayout{}), "(_128,(_64,_32)):(_0,(_1,_64))");
}

TEST(MmaTraitsSm90, DescriptorBits) {
  // start address, LBO, SBO in 16-byte units at bits 0, 16, 32; 128-byte swizzle = 1 at bit 62
  EXPECT_EQ(gmma_desc_bits(0x400, 16, 1024), (std::uint64_t(1) << 62) | (std::uint64_t(64) << 32) | (1u << 16) | 0x40u);
  EXPECT_EQ(gmma_desc_bits(0x3FFF0, 0, 0) & 0x3FFFu, 0x3FFFu);  // 18-bit shared address, 4 low bits dropped
  // the layout type at bits 62-63: 0 unswizzled, 1 128-byte, 2 64-byte, 3 32-byte
  EXPECT_EQ(gmma_desc_bits(0, 0, 0, 0) >> 62, 0u);
  EXPECT_EQ(gmma_desc_bits(0, 0, 0, 3) >> 62, 1u);
  EXPECT_EQ(gmma_desc_bits(0, 0, 0, 2) >> 62, 2u);
  EXPECT_EQ(gmma_desc_bits(0, 0, 0, 1) >> 62, 3u);
}

TEST(MmaTraitsSm90, TheAtomsOfEveryForm) {
  static_assert(std::is_same_v<GmmaLayoutAtom<GmmaMajor::K, 3>, GmmaLayoutKSw128Atom>);
  static_assert(std::is_same_v<GmmaLayoutAtom<GmmaMajor::MN, 3>, GmmaLayoutMNSw128Atom>);
  EXPECT_EQ(to_string(GmmaLayoutAtom<GmmaMajor::K, 2>{}), "Sw<2,3,3> o _0 o (_8,_32):(_32,_1)");
  EXPECT_EQ(to_string(GmmaLayoutAtom<GmmaMajor::MN, 1>{}), "Sw<1,3,3> o _0 o (_16,_8):(_1,_16)");
  EXPECT_EQ(to_string(GmmaLayoutAtom<GmmaMajor::K, 0>{}), "(_8,_8):(_8,_1)");
  EXPECT_EQ(to_string(GmmaLayoutAtom<GmmaMajor::K, 3, 4>{}), "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)");
  EXPECT_EQ(to_string(GmmaLayoutAtom<GmmaMajor::K, 3, 1>{}), "Sw<3,4,3> o _0 o (_8,_128):(_128,_1)");
}

TEST(MmaTraitsSm90, DescriptorsOfEverySwizzle) {
  // K-major 64-byte: rows of 32 halves, 8-row groups 512 bytes apart; block (0, 16) at byte 32
  constexpr auto k64 = tile_to_shape(GmmaLayoutAtom<GmmaMajor::K, 2>{}, Shape<_64, _32>{});
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64>(0, k64, 0, 16)), gmma_desc_bits(32, 16, 512, 2));
  // the same stage without its swizzle, the swizzle given as a template argument
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64, 2, 2>(0, k64.inner(), 0, 16)), gmma_desc_bits(32, 16, 512, 2));
  // K-major 32-byte: rows of 16 halves, groups 256 bytes apart; block (64, 0) at byte 64 * 32
  constexpr auto k32 = tile_to_shape(GmmaLayoutAtom<GmmaMajor::K, 1>{}, Shape<_128, _16>{});
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64>(0x400, k32, 64, 0)), gmma_desc_bits(0x400 + 2048, 16, 256, 1));
  // K-major unswizzled: core matrices of 128 bytes, 8 down MN (SBO 128), columns of them 1024 apart (LBO)
  constexpr auto k0 = tile_to_shape(GmmaLayoutAtom<GmmaMajor::K, 0>{}, Shape<_64, _32>{});
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64, 2, 0>(0, k0, 0, 16)), gmma_desc_bits(2048, 1024, 128, 0));
  // MN-major 64-byte: 32-element chunks (LBO 2048 bytes: 4 K groups of 512 each between them)
  constexpr auto mn64 =
      make_composed_layout(Swizzle<2, 3, 3>{}, _0{},
                           tile_to_shape(GmmaLayoutAtom<GmmaMajor::MN, 2>{}.inner(), Shape<_64, _32>{}, LayoutRight{}));
  EXPECT_EQ((make_gmma_desc<GmmaMajor::MN, 64>(0, mn64, 0, 16)), gmma_desc_bits(1024, 2048, 512, 2));
  // MN-major unswizzled: 8-element units of MN 512 bytes apart (SBO), 8-row K groups 128 (LBO)
  constexpr auto mn0 = tile_to_shape(GmmaLayoutAtom<GmmaMajor::MN, 0>{}, Shape<_64, _32>{}, LayoutRight{});
  EXPECT_EQ((make_gmma_desc<GmmaMajor::MN, 64, 2, 0>(0, mn0, 0, 16)), gmma_desc_bits(256, 128, 512, 0));
  // tf32 (4-byte) and 8-bit K-major under the 128-byte swizzle: K blocks of 8 and 32 elements (32 bytes)
  constexpr auto tf32 = tile_to_shape(GmmaLayoutAtom<GmmaMajor::K, 3, 4>{}, Shape<_64, _32>{});
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64, 4>(0, tf32, 0, 8)), gmma_desc_bits(32, 16, 1024, 3));
  constexpr auto fp8 = tile_to_shape(GmmaLayoutAtom<GmmaMajor::K, 3, 1>{}, Shape<_64, _128>{});
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64, 1>(0, fp8, 0, 32)), gmma_desc_bits(32, 16, 1024, 3));
  // compile-time too
  static_assert(make_gmma_desc<GmmaMajor::K, 64>(0, k64, 0, 16) == gmma_desc_bits(32, 16, 512, 2));
}

// The compile-time check of make_gmma_desc (detail::gmma_desc_violation, whose rule picks the
// static_assert of detail::GmmaDescCheck that fires) names each rule on the layouts the checker's
// tests break it with (tests/tools/check.cpp; tests/compile_fail/make_gmma_desc_not_canonical.cpp
// shows the static_assert firing).
TEST(MmaTraitsSm90, TheCompileTimeCheckNamesEachRule) {
  using detail::gmma_desc_violation;
  using M = GmmaMajor;
  using Canonical = decltype(tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _64>{}));
  static_assert(gmma_desc_violation<M::K, 3, 2, 64, Canonical>.rule == GmmaRule::ok);
  // 8-row groups 1152 bytes apart: not a multiple of the 1024-byte pattern
  using Sbo = Layout<Shape<Shape<_8, _2>, _64>, Stride<Stride<_64, Int<576>>, _1>>;
  static_assert(gmma_desc_violation<M::K, 3, 2, 16, Sbo>.rule == GmmaRule::sbo);
  // MN-major: 64-element chunks 2176 bytes apart
  using Lbo = Layout<Shape<Shape<_64, _2>, _16>, Stride<Stride<_1, Int<1088>>, _64>>;
  static_assert(gmma_desc_violation<M::MN, 3, 2, 128, Lbo>.rule == GmmaRule::lbo);
  // 8-row groups at 0, 512, 2048, 2560 elements: not equally spaced
  using Uneven = Layout<Shape<Shape<_8, Shape<_2, _2>>, _64>, Stride<Stride<_64, Stride<_512, Int<2048>>>, _1>>;
  constexpr GmmaViolation uneven = gmma_desc_violation<M::K, 3, 2, 32, Uneven>;
  static_assert(uneven.rule == GmmaRule::layout && uneven.mn == 16 && uneven.expected == 1024 && uneven.got == 2048);
  // MN-major rows of 144 bytes under the 128-byte swizzle: element (0,1) at 72, the form puts it at 64
  using Wide = Layout<Shape<_64, _16>, Stride<_1, Int<72>>>;
  constexpr GmmaViolation wide = gmma_desc_violation<M::MN, 3, 2, 64, Wide>;
  static_assert(wide.rule == GmmaRule::core && wide.k == 1 && wide.expected == 64 && wide.got == 72);
  static_assert(gmma_desc_violation<M::K, 3, 2, 12, Canonical>.rule == GmmaRule::block);  // MN of 12
  static_assert(gmma_desc_violation<M::MN, 3, 4, 64, Lbo>.rule == GmmaRule::elem);        // MN-major tf32
  static_assert(gmma_desc_violation<M::K, 3, 3, 64, Canonical>.rule == GmmaRule::elem);   // 3-byte elements
}

TEST(MmaTraitsSm90, DescriptorsOfTheCanonicalStages) {
  // A: 128 x 64 K-major: rows of 64 elements (128 bytes), 8-row groups 1024 bytes apart
  constexpr auto sa = tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _64>{});
  EXPECT_EQ(to_string(sa), "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))");
  // block (64, 16): element 64*64 + 16, byte 8224 from the stage's start
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64>(0, sa, 64, 16)), gmma_desc_bits(8224, 16, 1024));
  EXPECT_EQ((make_gmma_desc<GmmaMajor::K, 64>(0x8000, sa, 0, 48)), gmma_desc_bits(0x8000 + 96, 16, 1024));
  // B: 128 x 64 MN-major, K groups of one 64-wide chunk consecutive (two TMA boxes of 64 x 64)
  constexpr auto sb = tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_128, _64>{}, LayoutRight{});
  // (n, k) -> n%64 + 64 k + 4096 (n/64)
  EXPECT_EQ(int(sb(65, 9)), 1 + 64 * 9 + 4096);
  // block (0, 16) of N = 128: 64-element chunks 8192 bytes apart (LBO), 8-row K groups 1024 (SBO)
  EXPECT_EQ((make_gmma_desc<GmmaMajor::MN, 128>(0, sb, 0, 16)), gmma_desc_bits(2048, 8192, 1024));
  // a chunk of 64: no LBO needed
  EXPECT_EQ((make_gmma_desc<GmmaMajor::MN, 64>(0, sb, 64, 0)), gmma_desc_bits(8192, 0, 1024));
}

}  // namespace
