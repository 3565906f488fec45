// Tests for include/tessera/atom/copy_atom.hpp: tiled copies, their partitions and retiling. Exact
// values are those the reference implementation (CuTe) prints for the same copies; the laws: a
// thread's source and destination partitions hold the same tile coordinates, and retiling a
// TiledMMA's fragment with make_tiled_copy_A/B gives every copy value the register the MMA expects.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/copy_traits_sm75.hpp"
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"
#include "tessera/core/print.hpp"

using namespace tessera;

namespace {

constexpr auto mma =
    make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, make_tile(_32{}, _32{}, _16{}));

TEST(TiledCopy, MakeTiledCopyEqualsTheReference) {
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                             Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
  EXPECT_EQ(to_string(decltype(g2s)::TiledLayout_TV{}), "((_4,_32),_8):((_256,_1),_32)");
  EXPECT_EQ(to_string(g2s.get_layoutS_TV()), "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))");
  auto sA = make_layout(make_shape(_128{}, _32{}), LayoutRight{});
  auto part = g2s.get_slice(5).partition_S(make_tensor(make_counting_iterator(0), sA));  // (CPY,CPY_M,CPY_K)
  EXPECT_EQ(to_string(part.layout()), "((_8,_1),_4,_1):((_1,_0),_1024,_0)");
  EXPECT_EQ(part(0), 40);
}

TEST(TiledCopy, CopiesFromATiledMMAEqualTheReference) {
  auto cpA = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  EXPECT_EQ(to_string(decltype(cpA)::TiledLayout_TV{}),
            "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))");
  EXPECT_EQ(to_string(decltype(cpA)::Tiler_MN{}), "(_32,_16)");
  EXPECT_EQ(to_string(cpA.get_layoutS_TV()), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
  EXPECT_EQ(to_string(cpA.get_layoutD_TV()), "((_4,_8,_2,_2),((_2,_2,_2),_1)):((_64,_1,_16,_0),((_32,_8,_256),_0))");
  auto sA = make_layout(make_shape(_128{}, _32{}), LayoutRight{});
  auto tXsA = cpA.get_slice(37).partition_S(make_tensor(make_counting_iterator(0), sA));
  EXPECT_EQ(to_string(tXsA.layout()), "((_8,_1),_4,_2):((_1,_0),_1024,_16)");
  EXPECT_EQ(tXsA(0), 672);
  auto tCrA = mma.get_slice(37).partition_fragment_A(make_tensor(make_counting_iterator(0), sA));
  EXPECT_EQ(to_string(cpA.get_slice(37).retile_D(tCrA).layout()), "((_8,_1),_4,_2):((_1,_0),_16,_8)");

  auto cpB = make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma);
  EXPECT_EQ(to_string(decltype(cpB)::TiledLayout_TV{}),
            "((_4,_8,_2,_2),((_2,_2),(_2,_1))):((_64,_1,_0,_8),((_32,_256),(_16,_0)))");
  auto sB = make_layout(make_shape(_128{}, _32{}));
  auto tXsB = cpB.get_slice(37).partition_S(make_tensor(make_counting_iterator(0), sB));
  EXPECT_EQ(to_string(tXsB.layout()), "((_8,_1),_4,_2):((_1,_0),_32,_2048)");
  EXPECT_EQ(tXsB(0), 640);
  auto tCrB = mma.get_slice(37).partition_fragment_B(make_tensor(make_counting_iterator(0), sB));
  EXPECT_EQ(to_string(cpB.get_slice(37).retile_D(tCrB).layout()), "((_8,_1),_4,_2):((_1,_0),_8,_32)");

  auto cpC = make_tiled_copy_C(Copy_Atom<UniversalCopy<std::uint32_t>, half_t>{}, mma);
  EXPECT_EQ(to_string(decltype(cpC)::TiledLayout_TV{}),
            "((_4,_8,_2,_2),((_2,_2),(_1,_2))):((_64,_1,_16,_256),((_32,_8),(_0,_512)))");
  EXPECT_EQ(to_string(decltype(cpC)::Tiler_MN{}), "(_32,_32)");
}

// The law that makes ldmatrix + mma.sync work: simulate the warp-wide instruction on element
// identities -- every lane places its source values at ValLayoutSrc(lane, v) of the instruction's
// tile, then reads its destination values from ValLayoutDst(lane, v) into the fragment slots that
// retile_D names -- and require that every slot holds the element the MMA's partition expects there.
template <class Atom, class CopyT, class Want, class Frag, class Src>
void expect_copy_fills_fragment(CopyT const& cp, int warp, Want const& want_of, Frag const& frag_of,
                                Src const& src_of) {
  using SrcL = typename Atom::ValLayoutSrc;  // (lane,val) -> element of the instruction's tile
  using DstL = typename Atom::ValLayoutDst;  // (lane,val) -> element of the instruction's tile
  constexpr int lanes = 32;
  constexpr int tile = int(decltype(size(DstL{}))::value);
  // The fragment slots of each lane, filled by the simulated instructions.
  std::vector<std::vector<int>> regs(lanes);
  for (int l = 0; l < lanes; ++l) regs[std::size_t(l)].assign(std::size_t(size(frag_of(32 * warp + l))), -1);
  auto src0 = src_of(32 * warp);
  int const calls = int(size(src0)) / int(decltype(size<0>(src0))::value);
  for (int c = 0; c < calls; ++c) {
    std::vector<int> elements(std::size_t(tile), -1);
    for (int l = 0; l < lanes; ++l) {
      auto src = group_modes<1, decltype(src0)::rank>(src_of(32 * warp + l));  // (CPY,calls)
      for (int v = 0; v < int(size<1>(SrcL{})); ++v) elements[std::size_t(SrcL{}(l, v))] = int(src(v, c));
    }
    for (int l = 0; l < lanes; ++l) {
      auto frag = frag_of(32 * warp + l);
      auto dst = group_modes<1, decltype(frag)::rank>(
          make_tensor(make_counting_iterator(0), cp.get_slice(32 * warp + l).retile_D(frag).layout()));
      for (int v = 0; v < int(size<1>(DstL{})); ++v)
        regs[std::size_t(l)][std::size_t(dst(v, c))] = elements[std::size_t(DstL{}(l, v))];
    }
  }
  for (int l = 0; l < lanes; ++l) {
    auto want = want_of(32 * warp + l);
    auto slot = make_tensor(make_counting_iterator(0), frag_of(32 * warp + l).layout());
    for (int i = 0; i < int(size(want)); ++i) {
      ASSERT_EQ(regs[std::size_t(l)][std::size_t(slot(i))], int(want(i)))
          << "warp " << warp << " lane " << l << " value " << i;
    }
  }
}

TEST(TiledCopy, RetiledFragmentsMeetTheMMAsPartition) {
  using AtomA = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
  using AtomB = Copy_Atom<SM75_U16x8_LDSM_T, half_t>;
  auto cpA = make_tiled_copy_A(AtomA{}, mma);
  auto cpB = make_tiled_copy_B(AtomB{}, mma);
  auto sA = make_layout(make_shape(_64{}, _32{}), LayoutRight{});  // (m,k) -> index, K-major
  auto sB = make_layout(make_shape(_64{}, _32{}));                 // (n,k) -> index, N-major
  auto index_a = make_tensor(make_counting_iterator(0), sA);
  auto index_b = make_tensor(make_counting_iterator(0), sB);
  for (int w = 0; w < 4; ++w) {
    expect_copy_fills_fragment<AtomA>(
        cpA, w, [&](int t) { return mma.get_slice(t).partition_A(index_a); },
        [&](int t) { return mma.get_slice(t).partition_fragment_A(index_a); },
        [&](int t) { return cpA.get_slice(t).partition_S(index_a); });
    expect_copy_fills_fragment<AtomB>(
        cpB, w, [&](int t) { return mma.get_slice(t).partition_B(index_b); },
        [&](int t) { return mma.get_slice(t).partition_fragment_B(index_b); },
        [&](int t) { return cpB.get_slice(t).partition_S(index_b); });
  }
}

}  // namespace
