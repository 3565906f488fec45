// Tests of include/tessera/kernels/gemm/sm90_policy.hpp on the host: gemm_sm90's rules (stream-K,
// the ping-pong kernel, 128x192 tiles, the raster group), their refusals of zero counts, and the
// configuration gemm_sm90_pick gives each shape class, with the rules' worked examples. The
// kernels themselves: tests/kernels/gemm_sm90.cu (on a GPU).
#include <gtest/gtest.h>

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

}  // namespace
