// Identity (coordinate) tensors and the partial-tile idiom: a tile that overhangs the tensor's
// edge is copied with copy_if, the predicate being elem_less(coordinate, shape) evaluated on the
// identity tensor partitioned exactly like the data.
#include "tensor_test_util.hpp"

#include <vector>

using namespace tessera;
using tessera::test::v;

TEST(Identity, ElementsAreTheirCoordinates) {
  auto c = make_identity_tensor(make_shape(4, _8{}));  // (m,n) -> (m,n)
  EXPECT_PRINTS(c, "counting_iter((_0,_0)) o (4,_8):(_1@0,_1@1)");
  for (int n = 0; n < 8; ++n)
    for (int m = 0; m < 4; ++m) {
      auto x = c(m, n);
      EXPECT_EQ(v(get<0>(x)), m);
      EXPECT_EQ(v(get<1>(x)), n);
    }
  // Tiled and partitioned like data, it gives the global coordinate of every element.
  auto cM = make_identity_tensor(make_shape(100, 37));                    // (M,N) -> (m,n)
  auto cta = local_tile(cM, make_shape(_32{}, _16{}), make_coord(3, 2));  // (32,16)
  auto thr = make_layout(make_shape(_8{}, _4{}), LayoutRight{});          // (8,4) -> thr
  auto tc = local_partition(cta, thr, 9);                                 // (4,4)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      auto x = tc(i, j);
      EXPECT_EQ(v(get<0>(x)), 3 * 32 + 9 / 4 + 8 * i);
      EXPECT_EQ(v(get<1>(x)), 2 * 16 + 9 % 4 + 4 * j);
    }
}

TEST(Identity, PartialTileCopyWithPredicates) {
  // A 100 x 37 row-major matrix copied tile by tile (32 x 16 tiles, 8 x 4 threads); the last
  // row and column of tiles overhang the edge.
  const int M = 100, N = 37;
  std::vector<float> src(M * N), dst(M * N, -1.0f);
  for (int i = 0; i < M * N; ++i) src[std::size_t(i)] = float(i);
  auto shape_mn = make_shape(M, N);
  auto mS = make_tensor(make_gmem_ptr(src.data()), make_layout(shape_mn, LayoutRight{}));  // (M,N)
  auto mD = make_tensor(make_gmem_ptr(dst.data()), make_layout(shape_mn, LayoutRight{}));  // (M,N)
  auto cMN = make_identity_tensor(shape_mn);                                               // (M,N) -> (m,n)
  auto tile = make_shape(_32{}, _16{});
  auto thr = make_layout(make_shape(_8{}, _4{}), LayoutRight{});  // (8,4) -> thr
  // Dividing by a tile that does not divide the extents rounds the tile counts up: the last
  // tiles overhang, and their overhanging elements must not be touched.
  auto all_tiles = local_tile(mS, tile, make_coord(_, _));  // (32,16,tiles_m,tiles_n)
  EXPECT_PRINTS(all_tiles.layout(), "(_32,_16,4,3):(37,_1,1184,_16)");
  int copied = 0;
  for (int bm = 0; bm < ceil_div(M, 32); ++bm)
    for (int bn = 0; bn < ceil_div(N, 16); ++bn) {
      auto gS = local_tile(mS, tile, make_coord(bm, bn));   // (32,16)
      auto gD = local_tile(mD, tile, make_coord(bm, bn));   // (32,16)
      auto gC = local_tile(cMN, tile, make_coord(bm, bn));  // (32,16) -> (m,n)
      for (int tid = 0; tid < 32; ++tid) {
        auto tSgS = local_partition(gS, thr, tid);                // (4,4)
        auto tDgD = local_partition(gD, thr, tid);                // (4,4)
        auto tCgC = local_partition(gC, thr, tid);                // (4,4) -> (m,n)
        auto pred = make_tensor<bool>(make_layout(shape(tCgC)));  // (4,4)
        for (int i = 0; i < int(size(pred)); ++i) {
          pred(i) = elem_less(tCgC(i), shape_mn);
          copied += pred(i) ? 1 : 0;
        }
        copy_if(pred, tSgS, tDgD);
      }
    }
  EXPECT_EQ(copied, M * N);
  EXPECT_EQ(src, dst);
}
