// Tests of include/tessera/kernels/gemm/sm90_policy.hpp on the host: gemm_sm90's rules (stream-K,
// the ping-pong kernel, 128x192 tiles, the raster group, the split of every tile where there are
// fewer tiles than SMs), their refusals of zero counts, and the configuration gemm_sm90_pick gives
// each shape class (the shape suite's included), with the rules' worked examples. The
// kernels themselves: tests/kernels/gemm_sm90.cu (on a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tessera/kernels/gemm/sm90_policy.hpp"

namespace {

// The group height that reads the fewest operand bytes per wave: sqrt(units bn / bm), at least 1.
TEST(GemmSm90Policy, RasterRowsFollowTheTileShape) {
  using tessera::kernels::detail::gemm_sm90_raster_rows;
  EXPECT_EQ(gemm_sm90_raster_rows(132, 128, 256), 16);
  EXPECT_EQ(gemm_sm90_raster_rows(132, 128, 128), 11);
  EXPECT_EQ(gemm_sm90_raster_rows(66, 256, 256), 8);
  EXPECT_EQ(gemm_sm90_raster_rows(132, 64, 128), 16);
  EXPECT_EQ(gemm_sm90_raster_rows(1, 256, 64), 1);
  EXPECT_EQ(gemm_sm90_raster_rows(2, 128, 128), 1);
}

// gemm_sm90 runs stream-K where whole waves of 128x256 tiles would leave over a twentieth of the slots idle.
TEST(GemmSm90Policy, StreamKIsChosenForPartialWaves) {
  using tessera::kernels::detail::gemm_sm90_stream_k_pays;
  EXPECT_TRUE(gemm_sm90_stream_k_pays(288, 48, 132));     // 3072^3: 73 % of 3 waves busy
  EXPECT_TRUE(gemm_sm90_stream_k_pays(800, 80, 132));     // 5120^3: 87 % of 7 waves
  EXPECT_TRUE(gemm_sm90_stream_k_pays(180, 16, 132));     // 2304 x 2560 x 1024 (ManyTilesPerBlock)
  EXPECT_TRUE(gemm_sm90_stream_k_pays(221, 4, 132));      // 1537 x 4100 x 200 (ManyTilesPerBlock)
  EXPECT_FALSE(gemm_sm90_stream_k_pays(512, 64, 132));    // 4096^3: 97 %
  EXPECT_FALSE(gemm_sm90_stream_k_pays(1152, 96, 132));   // 6144^3: 97 %
  EXPECT_FALSE(gemm_sm90_stream_k_pays(2048, 128, 132));  // 8192^3: 97 %
  EXPECT_TRUE(gemm_sm90_stream_k_pays(968, 88, 132));     // 5632^3: 92 %
  EXPECT_FALSE(gemm_sm90_stream_k_pays(3200, 160, 132));  // 10240^3: 97 %
  EXPECT_FALSE(gemm_sm90_stream_k_pays(128, 32, 132));    // 2048^3: one wave
  EXPECT_FALSE(gemm_sm90_stream_k_pays(264, 64, 132));    // whole waves
  EXPECT_FALSE(gemm_sm90_stream_k_pays(288, 3, 132));     // too few k-tiles for the fix-up
  EXPECT_FALSE(gemm_sm90_stream_k_pays(1LL << 31, 64, 132));
  for (long long tiles = 1; tiles < 2000; ++tiles)
    for (int k_tiles : {1, 4, 64})
      if (gemm_sm90_stream_k_pays(tiles, k_tiles, 132)) {
        long long const waves = (tiles + 131) / 132;
        EXPECT_LT(double(tiles) / double(waves * 132), 0.95) << tiles;
        EXPECT_GT(tessera::kernels::detail::gemm_sm90_stream_k_tiles(int(tiles), k_tiles, 132), 0) << tiles;
      }
}

TEST(GemmSm90Policy, PingpongIsChosenForFewPartialWavesOfPlainProducts) {
  using tessera::kernels::detail::gemm_sm90_pingpong_pays;
  using tessera::kernels::detail::gemm_sm90_stream_k_pays;
  EXPECT_TRUE(gemm_sm90_pingpong_pays(288, 48, 132, true));    // 3072^3, 4096 x 2304 x K
  EXPECT_TRUE(gemm_sm90_pingpong_pays(162, 36, 132, true));    // 2304^3: 1.2 waves
  EXPECT_TRUE(gemm_sm90_pingpong_pays(450, 60, 132, true));    // 3840^3: 3.4 waves
  EXPECT_TRUE(gemm_sm90_pingpong_pays(192, 64, 132, true));    // 1536 x 4096 x 4096
  EXPECT_FALSE(gemm_sm90_pingpong_pays(288, 48, 132, false));  // beta, bias, activation or fp32 out
  EXPECT_FALSE(gemm_sm90_pingpong_pays(800, 80, 132, true));   // 5120^3: 6 waves (stream-K)
  EXPECT_FALSE(gemm_sm90_pingpong_pays(512, 64, 132, true));   // 4096^3: whole waves (persistent)
  EXPECT_FALSE(gemm_sm90_pingpong_pays(392, 56, 132, true));   // 3584^3: 99 % of 3 waves busy
  EXPECT_FALSE(gemm_sm90_pingpong_pays(288, 3, 132, true));    // too few k-tiles: persistent
  // A zero count is refused (it would divide by zero), naming the function and the counts.
  auto refusal = [](auto&& f) -> std::string {
    try {
      (void)f();
    } catch (std::invalid_argument const& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(refusal([] { return gemm_sm90_pingpong_pays(288, 48, 0, true); }),
            "gemm_sm90_pingpong_pays: tiles, k_tiles and units must be >= 1, got 288, 48, 0");
  EXPECT_EQ(refusal([] { return gemm_sm90_stream_k_pays(288, 48, 0); }),
            "gemm_sm90_stream_k_pays: tiles, k_tiles and units must be >= 1, got 288, 48, 0");
  EXPECT_EQ(refusal([] { return gemm_sm90_stream_k_pays(0, 48, 132); }),
            "gemm_sm90_stream_k_pays: tiles, k_tiles and units must be >= 1, got 0, 48, 132");
  EXPECT_EQ(refusal([] { return tessera::kernels::detail::gemm_sm90_stream_k_tiles(288, 0, 132); }),
            "gemm_sm90_stream_k_tiles: tiles, k_tiles and units must be >= 1, got 288, 0, 132");
  for (long long tiles = 1; tiles < 2000; ++tiles)
    for (int k_tiles : {1, 4, 64})
      if (gemm_sm90_pingpong_pays(tiles, k_tiles, 132, true)) {
        EXPECT_LE(tiles, 4 * 132) << tiles;
        EXPECT_TRUE(gemm_sm90_stream_k_pays(tiles, k_tiles, 132)) << tiles;
      }
}

TEST(GemmSm90Policy, WideTilesAreChosenWhereTheyFillTheWaves) {
  using tessera::kernels::detail::gemm_sm90_wave_use;
  using tessera::kernels::detail::gemm_sm90_wide_pays;
  EXPECT_NEAR(gemm_sm90_wave_use(3072, 3072, 128, 256, 132), 288.0 / 396.0, 1e-12);  // 288 tiles, 3 waves
  EXPECT_NEAR(gemm_sm90_wave_use(3072, 3072, 128, 192, 132), 384.0 / 396.0, 1e-12);
  EXPECT_NEAR(gemm_sm90_wave_use(100, 100, 128, 128, 1), 10000.0 / 16384.0, 1e-12);  // padding counts
  EXPECT_DOUBLE_EQ(gemm_sm90_wave_use(1024, 2048, 128, 256, 64), 1.0);               // 64 tiles, 1 wave
  EXPECT_TRUE(gemm_sm90_wide_pays(3072, 3072, 132, false));                          // 0.97 against 0.73
  EXPECT_TRUE(gemm_sm90_wide_pays(3072, 3072, 132, true));                           // and 0.87 for 128x128
  EXPECT_TRUE(gemm_sm90_wide_pays(4096, 2304, 132, false));
  EXPECT_TRUE(gemm_sm90_wide_pays(1536, 4096, 132, true));    // 0.97, as 128x128
  EXPECT_TRUE(gemm_sm90_wide_pays(2304, 2304, 132, true));    // 0.82, as 128x128
  EXPECT_FALSE(gemm_sm90_wide_pays(2304, 2304, 132, false));  // 0.82 < 0.95: stream-K
  EXPECT_FALSE(gemm_sm90_wide_pays(2560, 2560, 132, true));   // 0.67 < 0.76 for 128x256
  EXPECT_FALSE(gemm_sm90_wide_pays(3840, 3840, 132, true));   // 0.91 < 0.97 for 128x128
  EXPECT_FALSE(gemm_sm90_wide_pays(5120, 5120, 132, false));  // 0.90
  EXPECT_FALSE(gemm_sm90_wide_pays(4096, 4096, 132, true));   // 128x256 tiles fill 0.97
  EXPECT_FALSE(gemm_sm90_wide_pays(8192, 8192, 132, false));  // 0.97 too (0.985 with 128x192)
  try {
    (void)gemm_sm90_wave_use(0, 64, 128, 256, 132);
    ADD_FAILURE() << "m = 0 was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()),
              "gemm_sm90_wave_use: m, n, bm, bn and units must be >= 1, got 0, 64, 128, 256, 132");
  }
  EXPECT_THROW(gemm_sm90_wide_pays(3072, 3072, 0, true), std::invalid_argument);
  // Never wider tiles that fill less than 128x256 tiles, nor where 128x256 tiles fill 95 %.
  for (int m = 128; m <= 8192; m += 384)
    for (int n = 128; n <= 8192; n += 320)
      for (bool versus_pingpong : {false, true})
        if (gemm_sm90_wide_pays(m, n, 132, versus_pingpong)) {
          double const large = gemm_sm90_wave_use(m, n, 128, 256, 132), wide = gemm_sm90_wave_use(m, n, 128, 192, 132);
          EXPECT_LT(large, 0.95) << m << "x" << n;
          EXPECT_GT(wide, large) << m << "x" << n;
        }
}

// The configuration for each shape class on 132 SMs (the examples of gemm_sm90_pick's contract),
// and on 1 SM (every tile count "fills" it: the 128x256 tiles, never stream-K with one unit).
TEST(GemmSm90Policy, PickFollowsTheRules) {
  using tessera::kernels::gemm_sm90_pick;
  using tessera::kernels::GemmSm90Pick;
  EXPECT_EQ(gemm_sm90_pick(4096, 4096, 4096, true, 132), GemmSm90Pick::large);  // whole waves
  EXPECT_EQ(gemm_sm90_pick(8192, 8192, 8192, false, 132), GemmSm90Pick::large);
  EXPECT_EQ(gemm_sm90_pick(3072, 3072, 3072, true, 132), GemmSm90Pick::wide);       // 0.97 against 0.73
  EXPECT_EQ(gemm_sm90_pick(2304, 2304, 2304, true, 132), GemmSm90Pick::wide);       // as 128x128, 0.82
  EXPECT_EQ(gemm_sm90_pick(2304, 2304, 2304, false, 132), GemmSm90Pick::stream_k);  // no ping-pong: stream-K
  EXPECT_EQ(gemm_sm90_pick(3840, 3840, 3840, true, 132), GemmSm90Pick::pingpong);   // 3.4 waves
  EXPECT_EQ(gemm_sm90_pick(5120, 5120, 5120, true, 132), GemmSm90Pick::stream_k);   // 6 waves
  EXPECT_EQ(gemm_sm90_pick(5120, 5120, 128, true, 132), GemmSm90Pick::large);       // 2 k-tiles: no fix-up
  EXPECT_EQ(gemm_sm90_pick(1536, 1536, 1536, true, 132), GemmSm90Pick::medium);     // 72 large tiles
  EXPECT_EQ(gemm_sm90_pick(256, 256, 256, true, 132), GemmSm90Pick::small);         // 4 medium tiles
  EXPECT_EQ(gemm_sm90_pick(1, 1, 1, false, 132), GemmSm90Pick::small);
  EXPECT_EQ(gemm_sm90_pick(300, 300, 300, true, 1), GemmSm90Pick::large);
  EXPECT_STREQ(tessera::kernels::to_string(GemmSm90Pick::pingpong), "ping-pong 128x128");
  try {
    (void)gemm_sm90_pick(64, 0, 64, true, 132);
    ADD_FAILURE() << "n = 0 was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm90_pick: m, n, k and sms must be >= 1, got 64, 0, 64, 132");
  }
  // Where it picks stream-K, the 128x256 tiles' waves leave over a twentieth of the slots idle.
  for (int m = 256; m <= 8192; m += 448)
    for (int n = 256; n <= 8192; n += 576)
      if (gemm_sm90_pick(m, n, 4096, false, 132) == GemmSm90Pick::stream_k) {
        long long const tiles = ((m + 127) / 128) * ((n + 255) / 256), waves = (tiles + 131) / 132;
        EXPECT_LT(double(tiles) / double(waves * 132), 0.95) << m << "x" << n;
      }
}

// gemm_sm90_stream_k_plan: with as many tiles as SMs or more, a block per SM and the last-wave
// split (gemm_sm90_stream_k_tiles, unchanged); with fewer, every tile shared over up to twice as
// many blocks (16 k-tiles or more: each block's share half a tile and 8 k-tiles or more), else a
// block a tile.
TEST(GemmSm90Policy, StreamKPlanSplitsEveryTileOfAPartialWave) {
  using tessera::kernels::detail::gemm_sm90_stream_k_plan;
  using tessera::kernels::detail::gemm_sm90_stream_k_tiles;
  using Plan = tessera::kernels::detail::GemmSm90StreamKPlan;
  EXPECT_EQ(gemm_sm90_stream_k_plan(512, 64, 132), (Plan{132, 116}));   // 4096^3, 128x256: the last 0.88 wave
  EXPECT_EQ(gemm_sm90_stream_k_plan(264, 64, 132), (Plan{132, 0}));     // whole waves
  EXPECT_EQ(gemm_sm90_stream_k_plan(64, 128, 132), (Plan{128, 64}));    // 8192 x 16 x 8192 in 128x64 tiles
  EXPECT_EQ(gemm_sm90_stream_k_plan(64, 256, 132), (Plan{128, 64}));    // 8192 x 64 x 16384
  EXPECT_EQ(gemm_sm90_stream_k_plan(96, 192, 132), (Plan{132, 96}));    // 12288 x 256 x 12288 in 128x256 tiles
  EXPECT_EQ(gemm_sm90_stream_k_plan(128, 128, 132), (Plan{132, 128}));  // 16384 x 128 x 8192 (not chosen)
  EXPECT_EQ(gemm_sm90_stream_k_plan(4, 1000, 132), (Plan{8, 4}));       // at most twice the tiles
  EXPECT_EQ(gemm_sm90_stream_k_plan(64, 15, 132), (Plan{64, 0}));       // too few k-tiles: a block a tile
  EXPECT_EQ(gemm_sm90_stream_k_plan(3, 1 << 30, 132), (Plan{3, 0}));    // iterations beyond an int
  EXPECT_EQ(gemm_sm90_stream_k_plan(6, 16, 5), (Plan{5, 6}));           // as many tiles as SMs or more: as before
  try {
    (void)gemm_sm90_stream_k_plan(64, 0, 132);
    ADD_FAILURE() << "k_tiles = 0 was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm90_stream_k_plan: tiles, k_tiles and units must be >= 1, got 64, 0, 132");
  }
  for (int sms : {1, 2, 5, 7, 132})
    for (long long tiles = 1; tiles <= 300; ++tiles)
      for (int k_tiles : {1, 4, 15, 16, 17, 64, 1000}) {
        Plan const plan = gemm_sm90_stream_k_plan(tiles, k_tiles, sms);
        std::string const where =
            std::to_string(tiles) + " tiles, " + std::to_string(k_tiles) + " k-tiles, " + std::to_string(sms) + " SMs";
        ASSERT_TRUE(plan.units >= 1 && plan.units <= sms) << where;
        if (tiles >= sms) {
          EXPECT_EQ(plan, (Plan{sms, gemm_sm90_stream_k_tiles(int(tiles), k_tiles, sms)})) << where;
        } else if (plan.tiles == 0) {
          EXPECT_EQ(plan.units, tiles) << where;
          EXPECT_LT(k_tiles, 16) << where;
        } else {
          EXPECT_EQ(plan.tiles, tiles) << where;
          EXPECT_GT(plan.units, tiles) << where;
          EXPECT_LE(plan.units, 2 * tiles) << where;
          double const share = double(tiles) * k_tiles / plan.units;
          EXPECT_GE(share, 0.5 * k_tiles) << where;
          EXPECT_GE(share, 8.0) << where;
        }
      }
}

// gemm_sm90_split_pays: the contract's examples, and never where the plan shares nothing out.
TEST(GemmSm90Policy, SplitPaysWhereItShortensTheCriticalPath) {
  using tessera::kernels::detail::gemm_sm90_split_pays;
  using tessera::kernels::detail::gemm_sm90_stream_k_plan;
  EXPECT_TRUE(gemm_sm90_split_pays(8192, 16, 128, 64, 128, 64, 128, 132));       // 540,672 against 1,048,576
  EXPECT_TRUE(gemm_sm90_split_pays(12288, 256, 128, 256, 192, 128, 128, 132));   // 4.65 M against 6.29 M
  EXPECT_FALSE(gemm_sm90_split_pays(16384, 128, 128, 128, 128, 128, 128, 132));  // 2.08 M against 2.10 M
  EXPECT_TRUE(gemm_sm90_split_pays(16, 8192, 64, 128, 128, 64, 128, 132));       // 64 tiles on 128 blocks
  EXPECT_FALSE(gemm_sm90_split_pays(1000, 100, 128, 128, 16, 64, 128, 132));     // as many blocks as 64x128 tiles
  EXPECT_FALSE(gemm_sm90_split_pays(8192, 16, 128, 64, 8, 64, 128, 132));        // 8 k-tiles: nothing shared out
  EXPECT_FALSE(gemm_sm90_split_pays(40000, 64, 128, 64, 128, 128, 128, 132));    // more tiles than SMs
  try {
    (void)gemm_sm90_split_pays(8192, 16, 128, 64, 128, 64, 128, 0);
    ADD_FAILURE() << "sms = 0 was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()),
              "gemm_sm90_split_pays: m, n, bm, bn, k_tiles, dp_bm, dp_bn and sms must be >= 1, got 8192, 16, 128, 64, "
              "128, 64, 128, 0");
  }
  for (long long m : {16, 64, 1000, 4096, 8192, 16384})
    for (int k_tiles : {8, 16, 64, 256})
      if (gemm_sm90_split_pays(m, 64, 128, 64, k_tiles, 64, 128, 132)) {
        EXPECT_GT(gemm_sm90_stream_k_plan((m + 127) / 128, k_tiles, 132).tiles, 0) << m << " " << k_tiles;
      }
}

// The shape suite (bench/gemm_suite.cpp) on 132 SMs, as tessera-bench asks (plain 16-bit products):
// the narrow shapes of 64 columns or fewer and of 16 or 64 rows split every tile, 12288 x 256 x
// 12288 shares its 96 tiles of 128x256 over 132 blocks, 16384 x 128 x 8192 takes 128x128 tiles;
// every other shape keeps the configuration of the run of record (docs/performance.md, 2026-11-27).
// The data-parallel choice is what ran there, but for 16384 x 128 x 8192 (128x256 then).
TEST(GemmSm90Policy, PickOnTheShapeSuite) {
  using tessera::kernels::gemm_sm90_pick;
  using tessera::kernels::gemm_sm90_pick_data_parallel;
  using P = tessera::kernels::GemmSm90Pick;
  struct Case {
    long long m, n, k;
    P pick, data_parallel;
  };
  Case const cases[] = {
      {4096, 4096, 4096, P::large, P::large},
      {8192, 8192, 8192, P::large, P::large},
      {8192, 8192, 64, P::large, P::large},
      {8192, 8192, 128, P::large, P::large},
      {8192, 8192, 256, P::large, P::large},
      {8192, 8192, 512, P::large, P::large},
      {4096, 4096, 512, P::large, P::large},
      {16384, 8192, 256, P::large, P::large},
      {10240, 10240, 1024, P::large, P::large},
      {16, 8192, 8192, P::stream_k_small, P::small},   // 64 tiles on 128 blocks, 64 k-tiles each
      {64, 8192, 16384, P::stream_k_small, P::small},  // 64 tiles on 128 blocks, 128 k-tiles each
      {128, 16384, 4096, P::medium, P::medium},
      {256, 8192, 16384, P::medium, P::medium},
      {8192, 16, 8192, P::stream_k_narrow, P::small},   // 64 tiles on 128 blocks; was 128 tiles of 64x128
      {8192, 64, 16384, P::stream_k_narrow, P::small},  // the same with 128 k-tiles a block, not 256
      {16384, 128, 8192, P::medium, P::medium},         // the same 128 tiles as 128x256, half the multiplies
      {12288, 256, 12288, P::stream_k, P::medium},      // 96 tiles on 132 blocks; was 192 tiles in 2 waves
      {3000, 5000, 4000, P::wide, P::wide},
      {1000, 1000, 1000, P::small, P::small},
      {2049, 2049, 2049, P::wide, P::wide},
      {4095, 4095, 4095, P::large, P::large},
      {7000, 3000, 1001, P::large, P::large},
      {1024, 6144, 4096, P::wide, P::wide},
      {1024, 4096, 4096, P::large, P::large},
      {1024, 28672, 4096, P::large, P::large},
      {1024, 4096, 14336, P::large, P::large},
      {1024, 10240, 8192, P::pingpong, P::pingpong},
      {1024, 8192, 8192, P::large, P::large},
      {1024, 28672, 8192, P::large, P::large},
      {1024, 8192, 28672, P::large, P::large},
      {8192, 6144, 4096, P::large, P::large},
      {8192, 4096, 4096, P::large, P::large},
      {8192, 28672, 4096, P::large, P::large},
      {8192, 4096, 14336, P::large, P::large},
      {8192, 10240, 8192, P::large, P::large},
      {8192, 28672, 8192, P::large, P::large},
      {8192, 8192, 28672, P::large, P::large},
      {512, 12288, 4096, P::wide, P::wide},
  };
  for (Case const& c : cases) {
    std::string const where = std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
    EXPECT_STREQ(tessera::kernels::to_string(gemm_sm90_pick(c.m, c.n, c.k, true, 132)),
                 tessera::kernels::to_string(c.pick))
        << where;
    EXPECT_STREQ(tessera::kernels::to_string(gemm_sm90_pick_data_parallel(c.m, c.n, c.k, true, 132)),
                 tessera::kernels::to_string(c.data_parallel))
        << where;
  }
  EXPECT_STREQ(tessera::kernels::to_string(P::stream_k_narrow), "stream-K 128x64");
  EXPECT_STREQ(tessera::kernels::to_string(P::stream_k_small), "stream-K 64x128");
  EXPECT_STREQ(tessera::kernels::to_string(P::stream_k_medium), "stream-K 128x128");
  EXPECT_THROW((void)gemm_sm90_pick_data_parallel(0, 64, 64, true, 132), std::invalid_argument);
}

// Laws over a grid of shapes on 132 SMs: the data-parallel choice is never stream-K and is the pick
// wherever the pick is not stream-K; a D of 128 columns or fewer never gets tiles wider than 128; a
// split of every tile runs with fewer tiles than SMs on at least as many blocks as the data-parallel
// kernel's tiles (or every SM); with as many tiles as SMs or more, stream-K only where the
// last-wave rule says so (gemm_sm90_stream_k_pays, as before).
TEST(GemmSm90Policy, PickLaws) {
  using tessera::kernels::gemm_sm90_pick;
  using tessera::kernels::gemm_sm90_pick_data_parallel;
  using tessera::kernels::gemm_sm90_pick_is_stream_k;
  using tessera::kernels::GemmSm90Pick;
  using tessera::kernels::detail::gemm_sm90_pick_tile;
  using tessera::kernels::detail::gemm_sm90_stream_k_plan;
  for (long long m : {1, 16, 17, 64, 100, 128, 640, 1000, 4096, 8191, 16384, 40000})
    for (long long n : {1, 8, 16, 17, 64, 100, 128, 200, 256, 257, 1000, 8192})
      for (long long k : {1, 64, 520, 1000, 1024, 4096, 16384})
        for (bool plain16 : {false, true}) {
          std::string const where = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
          GemmSm90Pick const pick = gemm_sm90_pick(m, n, k, plain16, 132);
          GemmSm90Pick const dp = gemm_sm90_pick_data_parallel(m, n, k, plain16, 132);
          ASSERT_FALSE(gemm_sm90_pick_is_stream_k(dp)) << where;
          if (!gemm_sm90_pick_is_stream_k(pick)) {
            EXPECT_EQ(pick, dp) << where;
          }
          int bm = 0, bn = 0, dbm = 0, dbn = 0;
          gemm_sm90_pick_tile(pick, bm, bn);
          gemm_sm90_pick_tile(dp, dbm, dbn);
          if (n <= 128) {
            EXPECT_LE(bn, 128) << where;
          }
          long long const tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
          long long const dp_tiles = ((m + dbm - 1) / dbm) * ((n + dbn - 1) / dbn);
          if (gemm_sm90_pick_is_stream_k(pick) && tiles < 132) {
            auto const plan = gemm_sm90_stream_k_plan(tiles, int((k + 63) / 64), 132);
            EXPECT_EQ(plan.tiles, tiles) << where;
            EXPECT_GE(plan.units, std::min<long long>(dp_tiles, 132)) << where;
          }
          if (gemm_sm90_pick_is_stream_k(pick) && tiles >= 132) {
            EXPECT_TRUE(pick == GemmSm90Pick::stream_k || pick == GemmSm90Pick::stream_k_medium) << where;
            EXPECT_TRUE(tessera::kernels::detail::gemm_sm90_stream_k_pays(tiles, int((k + 63) / 64), 132)) << where;
          }
        }
}

}  // namespace
