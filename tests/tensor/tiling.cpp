// local_tile / inner_partition / outer_partition / local_partition against brute-force
// enumeration, for static, dynamic and mixed layouts, and the shapes of the SGEMM tutorial (docs/background.md).
#include "tensor_test_util.hpp"

#include <set>
#include <type_traits>
#include <vector>

using namespace tessera;
using tessera::test::offsets;
using tessera::test::v;

namespace {

// local_tile(m, (BM,BK), (bm,_)) == (BM,BK,k) with element (i,j,kb) == m(bm*BM+i, kb*BK+j).
template <class M, class K, class BM, class BK, class Order>
void check_local_tile_mk(M m, K k, BM bm_tile, BK bk_tile, Order order) {
  auto mA = offsets(make_layout(make_shape(m, k), order));  // (m,k) -> offset
  long long tiles_m = v(m) / v(bm_tile), tiles_k = v(k) / v(bk_tile);
  for (long long bm = 0; bm < tiles_m; ++bm) {
    auto gA = local_tile(mA, make_shape(bm_tile, bk_tile), make_coord(bm, _));  // (BM,BK,k)
    static_assert(decltype(gA)::rank == 3);
    ASSERT_EQ(v(size<0>(gA)), v(bm_tile));
    ASSERT_EQ(v(size<1>(gA)), v(bk_tile));
    ASSERT_EQ(v(size<2>(gA)), tiles_k);
    for (long long kb = 0; kb < tiles_k; ++kb)
      for (long long j = 0; j < v(bk_tile); ++j)
        for (long long i = 0; i < v(bm_tile); ++i)
          ASSERT_EQ(gA(i, j, kb), mA(bm * v(bm_tile) + i, kb * v(bk_tile) + j))
              << bm << " " << i << " " << j << " " << kb;
  }
  // Both tile coordinates fixed: one (BM,BK) tile.
  auto g = local_tile(mA, make_shape(bm_tile, bk_tile), make_coord(tiles_m - 1, tiles_k - 1));
  static_assert(decltype(g)::rank == 2);
  for (long long j = 0; j < v(bk_tile); ++j)
    for (long long i = 0; i < v(bm_tile); ++i)
      ASSERT_EQ(g(i, j), mA((tiles_m - 1) * v(bm_tile) + i, (tiles_k - 1) * v(bk_tile) + j));
}

// local_partition(t, thr, i): element (a,b,rest) == t(c0 + T0*a, c1 + T1*b, rest) with
// thr(c0,c1) == i; over all threads every element is visited exactly once.
template <class T, class S, class D>
void check_local_partition_2d(T const& t, Layout<S, D> const& thr) {
  long long T0 = v(size<0>(thr)), T1 = v(size<1>(thr));
  std::multiset<long long> seen;
  for (long long tid = 0; tid < v(size(thr)); ++tid) {
    long long c0 = -1, c1 = -1;
    for (long long a = 0; a < T0; ++a)
      for (long long b = 0; b < T1; ++b)
        if (v(thr(a, b)) == tid) c0 = a, c1 = b;
    ASSERT_GE(c0, 0);
    auto part = local_partition(t, thr, tid);
    ASSERT_EQ(v(size<0>(part)), v(size<0>(t)) / T0);
    ASSERT_EQ(v(size<1>(part)), v(size<1>(t)) / T1);
    for (long long a = 0; a < v(size<0>(part)); ++a)
      for (long long b = 0; b < v(size<1>(part)); ++b) {
        if constexpr (T::rank == 3) {
          for (long long r = 0; r < v(size<2>(t)); ++r) {
            ASSERT_EQ(part(a, b, r), t(c0 + T0 * a, c1 + T1 * b, r));
            seen.insert(part(a, b, r));
          }
        } else {
          ASSERT_EQ(part(a, b), t(c0 + T0 * a, c1 + T1 * b));
          seen.insert(part(a, b));
        }
      }
  }
  ASSERT_EQ(static_cast<long long>(seen.size()), v(size(t)));
  ASSERT_EQ(static_cast<long long>(std::set<long long>(seen.begin(), seen.end()).size()), v(size(t)));
}

}  // namespace

TEST(LocalTile, StaticDynamicMixedAgainstEnumeration) {
  check_local_tile_mk(_64{}, _32{}, _16{}, _8{}, LayoutRight{});  // static
  check_local_tile_mk(64, 32, 16, 8, LayoutRight{});              // dynamic
  check_local_tile_mk(96, 40, _32{}, _8{}, LayoutLeft{});         // mixed: dynamic tensor, static tile
  check_local_tile_mk(48, _24{}, 16, _4{}, LayoutLeft{});         // mixed extents
}

TEST(LocalTile, Seed004Shapes) {
  // The SGEMM tutorial: BM = BN = 64, BK = 8, TM = TN = 8, M = N = K = 4096 (row-major A, B, C).
  constexpr int M = 4096, N = 4096, K = 4096;
  auto BM = _64{};
  auto BN = _64{};
  auto BK = _8{};
  auto mA = offsets(make_layout(make_shape(M, K), LayoutRight{}));  // (M,K) -> offset
  auto mB = offsets(make_layout(make_shape(K, N), LayoutRight{}));  // (K,N) -> offset
  auto mC = offsets(make_layout(make_shape(M, N), LayoutRight{}));  // (M,N) -> offset
  int by = 5, bx = 7;
  auto gA = local_tile(mA, make_shape(BM, BK), make_coord(by, _));   // (BM,BK,k)
  auto gB = local_tile(mB, make_shape(BK, BN), make_coord(_, bx));   // (BK,BN,k)
  auto gC = local_tile(mC, make_shape(BM, BN), make_coord(by, bx));  // (BM,BN)
  EXPECT_PRINTS(gA.layout(), "(_64,_8,512):(4096,_1,_8)");
  EXPECT_PRINTS(gB.layout(), "(_8,_64,512):(4096,_1,32768)");
  EXPECT_PRINTS(gC.layout(), "(_64,_64):(4096,_1)");
  EXPECT_EQ(gA(0, 0, 0), by * 64 * K);
  EXPECT_EQ(gB(0, 0, 3), 3 * 8 * N + bx * 64);
  EXPECT_EQ(gC(2, 3), (by * 64 + 2) * N + bx * 64 + 3);

  // Shared memory tiles and the thread layouts of the tutorial.
  auto sA = offsets(make_layout(make_shape(BM, BK), LayoutRight{}));           // (BM,BK) -> smem offset
  auto sB = offsets(make_layout(make_shape(BK, BN), LayoutRight{}));           // (BK,BN) -> smem offset
  auto A_thread_layout = make_layout(make_shape(_8{}, _8{}), LayoutRight{});   // (8,8) -> thr
  auto B_thread_layout = make_layout(make_shape(_1{}, _64{}), LayoutRight{});  // (1,64) -> thr
  auto tAgA = local_partition(gA, A_thread_layout, 10);                        // (8,1,k)
  auto tAsA = local_partition(sA, A_thread_layout, 10);                        // (8,1)
  auto tBgB = local_partition(gB, B_thread_layout, 10);                        // (8,1,k)
  auto tBsB = local_partition(sB, B_thread_layout, 10);                        // (8,1)
  EXPECT_PRINTS(tAgA.layout(), "(_8,_1,512):(32768,_0,_8)");
  EXPECT_PRINTS(tAsA.layout(), "(_8,_1):(_64,_0)");
  EXPECT_PRINTS(tBgB.layout(), "(_8,_1,512):(4096,_0,32768)");
  EXPECT_PRINTS(tBsB.layout(), "(_8,_1):(_64,_0)");
  check_local_partition_2d(gA, A_thread_layout);
  check_local_partition_2d(sA, A_thread_layout);
  check_local_partition_2d(sB, B_thread_layout);

  // Per-thread smem reads: (TM,1,BK) and (1,TN,BK); gmem writes (TM,TN).
  auto TM = _8{};
  auto TN = _8{};
  int thread_row = 3, thread_col = 6;
  auto sA_to_r = local_tile(sA, make_shape(TM, _1{}), make_coord(thread_row, _));         // (TM,1,BK)
  auto sB_to_r = local_tile(sB, make_shape(_1{}, TN), make_coord(_, thread_col));         // (1,TN,BK)
  auto gC_to_w = local_tile(gC, make_shape(TM, TN), make_coord(thread_row, thread_col));  // (TM,TN)
  EXPECT_PRINTS(sA_to_r.layout(), "(_8,_1,_8):(_8,_0,_1)");
  EXPECT_PRINTS(sB_to_r.layout(), "(_1,_8,_8):(_0,_1,_64)");
  EXPECT_PRINTS(gC_to_w.layout(), "(_8,_8):(4096,_1)");
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(sA_to_r(i, 0, k), (thread_row * 8 + i) * 8 + k);  // As[(threadRow*TM + i)*BK + dotIdx]
      EXPECT_EQ(sB_to_r(0, i, k), k * 64 + thread_col * 8 + i);   // Bs[dotIdx*BN + threadCol*TN + i]
    }
}

TEST(LocalTile, ProjectionStep) {
  // One (BM,BN,BK) tiler for A, B and C; each sees its modes through a step.
  auto tiler = make_shape(_32{}, _16{}, _8{});                // (BM,BN,BK)
  auto coord = make_coord(2, 3, _);                           // (bm,bn,_)
  auto mA = offsets(make_layout(make_shape(128, 64)));        // (M,K) -> offset
  auto mB = offsets(make_layout(make_shape(96, 64)));         // (N,K) -> offset
  auto mC = offsets(make_layout(make_shape(128, 96)));        // (M,N) -> offset
  auto gA = local_tile(mA, tiler, coord, Step<_1, X, _1>{});  // (BM,BK,k)
  auto gB = local_tile(mB, tiler, coord, Step<X, _1, _1>{});  // (BN,BK,k)
  auto gC = local_tile(mC, tiler, coord, Step<_1, _1, X>{});  // (BM,BN)
  EXPECT_PRINTS(gA.layout(), to_string(local_tile(mA, make_shape(_32{}, _8{}), make_coord(2, _)).layout()));
  EXPECT_PRINTS(gA.layout(), "(_32,_8,8):(_1,128,1024)");
  EXPECT_PRINTS(gB.layout(), "(_16,_8,8):(_1,96,768)");
  EXPECT_PRINTS(gC.layout(), "(_32,_16):(_1,128)");
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < 32; ++i) ASSERT_EQ(gA(i, j, k), mA(2 * 32 + i, k * 8 + j));
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 32; ++i) ASSERT_EQ(gC(i, j), mC(2 * 32 + i, 3 * 16 + j));
  EXPECT_PRINTS(dice(Step<_1, X, _1>{}, make_shape(64, 64, 8)), "(64,8)");
}

TEST(LocalPartition, StaticDynamicMixedAgainstEnumeration) {
  auto col = make_layout(make_shape(_4{}, _8{}));                 // (4,8) -> thr, column-major
  auto row = make_layout(make_shape(_4{}, _8{}), LayoutRight{});  // (4,8) -> thr, row-major
  auto dyn = make_layout(make_shape(4, 2), LayoutRight{});        // dynamic thread layout
  auto t_static = offsets(make_layout(make_shape(_16{}, _32{}), LayoutRight{}));
  auto t_dynamic = offsets(make_layout(make_shape(16, 32)));
  auto t_mixed = offsets(make_layout(make_shape(_16{}, 24), make_stride(24, _1{})));
  auto t_3d = offsets(make_layout(make_shape(8, _16{}, 3)));
  check_local_partition_2d(t_static, col);
  check_local_partition_2d(t_static, row);
  check_local_partition_2d(t_dynamic, col);
  check_local_partition_2d(t_dynamic, dyn);
  check_local_partition_2d(t_mixed, row);
  check_local_partition_2d(t_mixed, dyn);
  check_local_partition_2d(t_3d, col);
  check_local_partition_2d(t_3d, dyn);
}

TEST(LocalPartition, ProjectionStep) {
  // A (16,16) thread grid over C (M,N); A (M,K) takes the thread's m, B (N,K) its n.
  auto thr = make_layout(make_shape(_16{}, _16{}));         // (tm,tn) -> thr
  auto sA = offsets(make_layout(make_shape(_64{}, _8{})));  // (BM,BK)
  auto sB = offsets(make_layout(make_shape(_64{}, _8{})));  // (BN,BK)
  for (int tid = 0; tid < 256; ++tid) {
    int tm = tid % 16, tn = tid / 16;
    auto tCsA = local_partition(sA, thr, tid, Step<_1, X>{});  // (BM/16,BK)
    auto tCsB = local_partition(sB, thr, tid, Step<X, _1>{});  // (BN/16,BK)
    ASSERT_EQ(v(size<0>(tCsA)), 4);
    ASSERT_EQ(v(size<1>(tCsA)), 8);
    for (int k = 0; k < 8; ++k)
      for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(tCsA(i, k), sA(tm + 16 * i, k));
        ASSERT_EQ(tCsB(i, k), sB(tn + 16 * i, k));
      }
  }
}

TEST(Partition, InnerOuterAgainstEnumeration) {
  auto t = offsets(make_layout(make_shape(12, _8{}), make_stride(_1{}, 20)));  // (12,8) padded
  auto tiler = make_shape(_4{}, _2{});
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 2; ++b) {
      auto o = outer_partition(t, tiler, make_coord(a, b));  // (3,4)
      ASSERT_EQ(v(size(o)), 12);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) ASSERT_EQ(o(i, j), t(a + 4 * i, b + 2 * j));
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      auto in = inner_partition(t, tiler, make_coord(i, j));  // (4,2)
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 2; ++b) ASSERT_EQ(in(a, b), t(4 * i + a, 2 * j + b));
    }
  // thread_coord inverts the thread layout.
  auto thr = make_layout(make_shape(_8{}, _8{}), LayoutRight{});
  EXPECT_PRINTS(thread_coord(thr, 10), "(1,2)");
  auto nested = make_layout(make_shape(make_shape(_2{}, _4{}), _4{}), make_stride(make_stride(_4{}, _1{}), _8{}));
  for (int i = 0; i < 32; ++i) {
    auto c = thread_coord(nested, i);
    EXPECT_EQ(v(nested(make_coord(get<0>(c), get<1>(c)))), i);
  }
  // A signed index (int(threadIdx.x)) is divided as unsigned where the stride is static: same
  // coordinate and type as the signed arithmetic for every index >= 0, dynamic shapes too.
  auto dyn = make_layout(make_shape(make_shape(2, _4{}), 4), make_stride(make_stride(_4{}, _1{}), _8{}));
  for (int i = 0; i < 32; ++i) {
    auto c = thread_coord(dyn, i);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<1>(c))>, decltype((i / _8{}) % 4)>);
    EXPECT_EQ(v(get<1>(c)), (i / 8) % 4);
    EXPECT_EQ(v(dyn(make_coord(get<0>(c), get<1>(c)))), i);
    EXPECT_EQ(detail::thread_index_div_mod(i, _8{}, 4), (i / 8) % 4);
  }
  EXPECT_EQ(detail::thread_index_div_mod(13, _8{}, 4), 1);
}

// A tiler that does not divide the extent rounds the tile count up; the last tiles overhang (their
// coordinates past the extent are the caller's to predicate). 100 x 37 by 32 x 16: 4 x 3 tiles.
TEST(Partition, NonDividingTilersRoundTheTileCountUp) {
  auto t = offsets(make_layout(make_shape(100, 37)));                                          // (m,n) -> m + 100 n
  auto all = local_tile(t, make_shape(_32{}, _16{}), make_coord(Underscore{}, Underscore{}));  // (32,16,4,3)
  EXPECT_EQ(v(size<0>(all)), 32);
  EXPECT_EQ(v(size<1>(all)), 16);
  EXPECT_EQ(v(size<2>(all)), 4);
  EXPECT_EQ(v(size<3>(all)), 3);
  for (int bm = 0; bm < 4; ++bm)
    for (int bn = 0; bn < 3; ++bn)
      for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 16; ++j)
          if (32 * bm + i < 100 && 16 * bn + j < 37) ASSERT_EQ(all(i, j, bm, bn), t(32 * bm + i, 16 * bn + j));
  // local_partition likewise: 10 x 6 among (4,4) threads gives each thread ceil(10/4) x ceil(6/4).
  auto s = offsets(make_layout(make_shape(10, 6)));
  auto part = local_partition(s, make_layout(make_shape(_4{}, _4{})), 5);  // thread 5 = (1,1)
  EXPECT_EQ(v(size<0>(part)), 3);
  EXPECT_EQ(v(size<1>(part)), 2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      if (1 + 4 * i < 10 && 1 + 4 * j < 6) ASSERT_EQ(part(i, j), s(1 + 4 * i, 1 + 4 * j));
}
