// Tests for include/tessera/atom/mma_atom.hpp: TiledMMA's thread-value layouts and partitions.
// Exact values are those the reference implementation (CuTe) prints for the same TiledMMA; the laws
// hold for every thread: get_layoutX_TV is a bijection onto the tile, partition_X of the tile's
// index tensor holds exactly the indices get_layoutX_TV gives the thread, and the fragments are
// laid out like the partitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tessera/algorithm/functional.hpp"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"
#include "tessera/core/print.hpp"
#include "tv_laws.hpp"

using namespace tessera;

namespace {

// The reference's example: 2x2 warps of m16n8k16, a 32x32x16 tile (two n8 atoms per warp).
constexpr auto mma_2x2 =
    make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, make_tile(_32{}, _32{}, _16{}));
// Row-major warps and an N permutation that interleaves the two n8 atoms of a warp.
constexpr auto mma_perm =
    make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN{}, make_layout(Shape<_2, _2, _1>{}, LayoutRight{}),
                   make_tile(_32{}, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>{}, _16{}));

TEST(TiledMMA, LayoutsEqualTheReference) {
  EXPECT_EQ(to_string(mma_2x2.get_layoutA_TV()),
            "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))");
  EXPECT_EQ(to_string(mma_2x2.get_layoutB_TV()),
            "((_4,_8,_2,_2),((_2,_2),(_2,_1))):((_64,_1,_0,_8),((_32,_256),(_16,_0)))");
  EXPECT_EQ(to_string(mma_2x2.get_layoutC_TV()),
            "((_4,_8,_2,_2),((_2,_2),(_1,_2))):((_64,_1,_16,_256),((_32,_8),(_0,_512)))");
  EXPECT_EQ(to_string(mma_perm.get_layoutA_TV()),
            "(((_4,_8),_2,_2),((_2,_2,_2),(_1,_1))):(((_64,_1),_0,_16),((_32,_8,_256),(_0,_0)))");
  EXPECT_EQ(to_string(mma_perm.get_layoutB_TV()),
            "(((_4,_8),_2,_2),((_2,_2),(_2,_1))):(((_64,_1),_16,_0),((_32,_256),(_8,_0)))");
  EXPECT_EQ(to_string(mma_perm.get_layoutC_TV()),
            "(((_4,_8),_2,_2),((_2,_2),(_1,_2))):(((_64,_1),_512,_16),((_32,_8),(_0,_256)))");
  EXPECT_EQ(int(size(mma_2x2.get_thr_layout_vmnk())), 128);
  EXPECT_EQ(int(tile_size<0>(mma_2x2)), 32);
  EXPECT_EQ(int(tile_size<1>(mma_2x2)), 32);
  EXPECT_EQ(int(tile_size<2>(mma_2x2)), 16);
}

TEST(TiledMMA, PartitionsAndFragmentsEqualTheReference) {
  auto sA = make_layout(make_shape(_128{}, _32{}), LayoutRight{});  // (m,k) -> offset, K-major
  auto thr = mma_2x2.get_slice(37);
  auto tCsA = thr.partition_A(make_tensor(make_counting_iterator(0), sA));  // (MMA,MMA_M,MMA_K)
  EXPECT_EQ(to_string(tCsA.layout()), "((_2,_2,_2),_4,_2):((_1,_256,_8),_1024,_16)");
  EXPECT_EQ(tCsA(0), 546);
  auto tCrA = thr.partition_fragment_A(make_tensor(make_counting_iterator(0), sA));
  EXPECT_EQ(to_string(tCrA.layout()), "((_2,_2,_2),_4,_2):((_1,_2,_4),_16,_8)");
  static_assert(std::is_same_v<decltype(tCrA)::value_type, half_t>);
  auto sB = make_layout(make_shape(_128{}, _32{}));  // (n,k) -> offset, N-major
  auto tCrB = thr.partition_fragment_B(make_tensor(make_counting_iterator(0), sB));
  EXPECT_EQ(to_string(tCrB.layout()), "((_2,_2),_8,_2):((_1,_2),_4,_32)");
  auto tCgC = thr.partition_C(make_tensor(make_counting_iterator(0), make_layout(make_shape(_128{}, _128{}))));
  EXPECT_EQ(to_string(tCgC.layout()), "((_2,_2),_4,_8):((_128,_8),_32,_2048)");
  EXPECT_EQ(tCgC(0), 273);
}

// For every thread: the indices its partition of the tile holds are exactly those its row of the
// TV layout names, and the TV layout covers the tile once.
template <class MMA>
void expect_partition_laws(MMA const& mma) {
  auto ref_a = make_layout(make_shape(tile_size<0>(mma), tile_size<2>(mma)));  // (M,K) -> index
  auto ref_c = make_layout(make_shape(tile_size<0>(mma), tile_size<1>(mma)));  // (M,N) -> index
  auto a_tv = mma.get_layoutA_TV();
  auto c_tv = mma.get_layoutC_TV();
  EXPECT_TRUE(test::is_bijection_onto_tile(c_tv));
  // A's TV layout covers the tile once per warp column (threads along N share A).
  int const threads = int(size<0>(a_tv));
  for (int t = 0; t < threads; ++t) {
    auto pa = mma.get_slice(t).partition_A(make_tensor(make_counting_iterator(0), ref_a));
    auto pc = mma.get_slice(t).partition_C(make_tensor(make_counting_iterator(0), ref_c));
    std::vector<int> got_a, want_a, got_c, want_c;
    for (int i = 0; i < int(size(pa)); ++i) got_a.push_back(int(pa(i)));
    for (int v = 0; v < int(size<1>(a_tv)); ++v) want_a.push_back(int(a_tv(t, v)));
    for (int i = 0; i < int(size(pc)); ++i) got_c.push_back(int(pc(i)));
    for (int v = 0; v < int(size<1>(c_tv)); ++v) want_c.push_back(int(c_tv(t, v)));
    std::sort(got_a.begin(), got_a.end());
    std::sort(want_a.begin(), want_a.end());
    std::sort(got_c.begin(), got_c.end());
    std::sort(want_c.begin(), want_c.end());
    EXPECT_EQ(got_a, want_a) << "thread " << t;
    EXPECT_EQ(got_c, want_c) << "thread " << t;
  }
}

TEST(TiledMMA, PartitionsHoldWhatTheTVLayoutsSay) {
  expect_partition_laws(mma_2x2);
  expect_partition_laws(mma_perm);
  expect_partition_laws(make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_4, _1, _1>>{}));
}

// gemm over register fragments with the universal FMA: (V,M,K) x (V,N,K) -> (V,M,N) is a matrix
// product.
TEST(TiledMMA, GemmOverFragmentsIsAMatrixProduct) {
  auto a = make_tensor<float>(make_shape(_1{}, _3{}, _4{}));  // (V,M,K)
  auto b = make_tensor<float>(make_shape(_1{}, _2{}, _4{}));  // (V,N,K)
  auto c = make_tensor<float>(make_shape(_1{}, _3{}, _2{}));  // (V,M,N)
  for (int m = 0; m < 3; ++m)
    for (int k = 0; k < 4; ++k) a(0, m, k) = float(m + 2 * k);
  for (int n = 0; n < 2; ++n)
    for (int k = 0; k < 4; ++k) b(0, n, k) = float(1 + n - k);
  clear(c);
  gemm(MMA_Atom<UniversalFMA<float>>{}, c, a, b, c);
  for (int m = 0; m < 3; ++m)
    for (int n = 0; n < 2; ++n) {
      float want = 0;
      for (int k = 0; k < 4; ++k) want += float(m + 2 * k) * float(1 + n - k);
      EXPECT_EQ(c(0, m, n), want) << m << "," << n;
    }
}

}  // namespace
