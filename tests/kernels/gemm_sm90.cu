// Device tests of include/tessera/kernels/gemm_sm90.cuh against cublasGemmEx (the sweep and the
// tolerance: gemm_check.hpp): gemm_sm90 (the kernel chosen for the shape: the small and large
// sizes take the persistent 64x128 and 128x128 tiles, the many-tile sizes 128x256) and
// gemm_sm90_cluster on the whole sweep and on several tiles per block, gemm_sm90_persistent with
// its 128x256 tiles on all sizes, steps 1 and 2 (gemm_sm90_tma, gemm_sm90_ws) on the small
// sizes and one large type pair, step 3c (gemm_sm90_pingpong) on the small, large and many-tile
// sizes; and the host-side refusal of invalid problems.
#include "gemm_check.hpp"
#include "tessera/kernels/gemm_sm90.cuh"

namespace {

using namespace tessera::test::gemm;

struct Sm90 {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90(p);
  }
};
using GemmSm90 = GemmDeviceTest<Sm90>;
struct Sm90Tma {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_tma(p);
  }
};
using GemmSm90Tma = GemmDeviceTest<Sm90Tma>;
struct Sm90Ws {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_ws(p);
  }
};
using GemmSm90Ws = GemmDeviceTest<Sm90Ws>;
struct Sm90Cluster {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_cluster(p);
  }
};
using GemmSm90Cluster = GemmDeviceTest<Sm90Cluster>;
struct Sm90Persistent {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_persistent(p);
  }
};
using GemmSm90Persistent = GemmDeviceTest<Sm90Persistent>;
struct Sm90Pingpong {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_pingpong(p);
  }
};
using GemmSm90Pingpong = GemmDeviceTest<Sm90Pingpong>;

// Small sizes: every variant (compute-sanitizer runs these: --gtest_filter='*Small*').
TEST_F(GemmSm90, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90, SmallFp16ToFp32) { this->template sweep<half_t, float>(kSmall, true); }
// Large sizes, tight layouts.
TEST_F(GemmSm90, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }
TEST_F(GemmSm90, LargeFp16ToFp32) { this->template sweep<half_t, float>(kLarge, false); }

// More tiles than SMs: the persistent blocks walk several tiles each (the ring's phases run on
// across tiles, the producer loads the next tile during the epilogue).
// With clusters of two blocks along M, an odd number of block rows leaves the last cluster's second
// block outside D (1537 rows: 13 block rows).
// K longer than the ring (16 k-tiles) with several tiles a block: the ping-pong warpgroups skip
// each other's tiles in the ring.
// 1536 x 1536 has 72 tiles of 128x256 and 144 of 128x128: gemm_sm90 takes the 128x128 kernel.
std::vector<Shape> const kManyTiles = {{2048, 2560, 64}, {1537, 4100, 200}, {4096, 4096, 16}, {2304, 2560, 1024},
                                       {1536, 1536, 256}};
TEST_F(GemmSm90, ManyTilesPerBlock) { this->template sweep<bfloat16_t, bfloat16_t>(kManyTiles, false); }
TEST_F(GemmSm90Cluster, ManyTilesPerBlock) { this->template sweep<half_t, float>(kManyTiles, false); }
TEST_F(GemmSm90Cluster, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Cluster, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Cluster, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90Cluster, LargeFp16ToFp32) { this->template sweep<half_t, float>(kLarge, false); }
TEST_F(GemmSm90Persistent, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Persistent, LargeFp16ToFp16) { this->template sweep<half_t, half_t>(kLarge, false); }
TEST_F(GemmSm90Persistent, ManyTilesPerBlock) { this->template sweep<bfloat16_t, bfloat16_t>(kManyTiles, false); }
TEST_F(GemmSm90Pingpong, ManyTilesPerBlock) { this->template sweep<bfloat16_t, float>(kManyTiles, false); }
TEST_F(GemmSm90Pingpong, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Pingpong, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Pingpong, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }

TEST_F(GemmSm90Tma, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Tma, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Tma, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }
TEST_F(GemmSm90Ws, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Ws, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Ws, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }

// Invalid problems are refused before any launch, with a message naming the violation.
TEST(GemmSm90Host, InvalidProblemsAreRefused) {
  GemmProblem<half_t, float> p;
  p.m = 4;
  p.n = 4;
  p.k = 8;
  half_t dummy[1];
  float out[1];
  p.a = dummy;
  p.lda = 3;  // < K for a row-major A
  p.b = dummy;
  p.ldb = 4;
  p.d = out;
  p.ldd = 4;
  try {
    (void)tessera::kernels::gemm_sm90(p);
    ADD_FAILURE() << "lda < K was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm90: lda = 3 is too small for the row-major 4x8 matrix A; ld must be >= 8");
  }
  p.lda = 8;
  p.k = 0;
  EXPECT_THROW((void)tessera::kernels::gemm_sm90(p), std::invalid_argument);
  p.k = 8;
  p.beta = 1.0f;  // C needed but null
  EXPECT_THROW((void)tessera::kernels::gemm_sm90(p), std::invalid_argument);
  p.beta = 0.0f;
  p.activation = static_cast<tessera::kernels::GemmActivation>(7);
  try {
    (void)tessera::kernels::gemm_sm90(p);
    ADD_FAILURE() << "activation 7 was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm90: activation 7 is not a GemmActivation (none, relu, gelu, gelu_tanh)");
  }
}

// The raster: every block index below tiles_m * tiles_n names a distinct tile, for any group height
// (uneven last groups included), and consecutive indices of a group walk its rows first.
TEST(GemmSm90Host, RasterGroupsCoverEveryTileOnce) {
  for (int tiles_m : {1, 3, 10, 16, 33}) {
    for (int tiles_n : {1, 2, 7, 16}) {
      for (int group : {1, 4, 8, 11, 16, 64}) {
        std::vector<int> seen(std::size_t(tiles_m * tiles_n), 0);
        for (int bid = 0; bid < tiles_m * tiles_n; ++bid) {
          int bm = -1, bn = -1;
          tessera::kernels::detail::gemm_block_coord(bid, tiles_m, tiles_n, bm, bn, group);
          ASSERT_TRUE(bm >= 0 && bm < tiles_m && bn >= 0 && bn < tiles_n) << bid << " of " << tiles_m << "x" << tiles_n << " g" << group;
          ++seen[std::size_t(bm * tiles_n + bn)];
        }
        for (int c : seen) EXPECT_EQ(c, 1) << tiles_m << "x" << tiles_n << " group " << group;
      }
    }
  }
  int bm = 0, bn = 0;
  tessera::kernels::detail::gemm_block_coord(17, 32, 16, bm, bn, 16);  // group 0, column 1, row 1
  EXPECT_EQ(bm, 1);
  EXPECT_EQ(bn, 1);
  tessera::kernels::detail::gemm_block_coord(25, 10, 3, bm, bn);  // default 8: the last group's rows 8, 9
  EXPECT_EQ(bm, 9);
  EXPECT_EQ(bn, 0);
}

// The group height that reads the fewest operand bytes per wave: sqrt(units bn / bm), at least 1.
TEST(GemmSm90Host, RasterRowsFollowTheTileShape) {
  using tessera::kernels::detail::gemm_sm90_raster_rows;
  EXPECT_EQ(gemm_sm90_raster_rows(132, 128, 256), 16);
  EXPECT_EQ(gemm_sm90_raster_rows(132, 128, 128), 11);
  EXPECT_EQ(gemm_sm90_raster_rows(66, 256, 256), 8);
  EXPECT_EQ(gemm_sm90_raster_rows(132, 64, 128), 16);
  EXPECT_EQ(gemm_sm90_raster_rows(1, 256, 64), 1);
  EXPECT_EQ(gemm_sm90_raster_rows(2, 128, 128), 1);
}

}  // namespace
