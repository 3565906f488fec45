// gemm_sm90's host policy: which configuration runs a problem, how stream-K shares out its tiles,
// the raster group's height, and the switch for programmatic dependent launch. Plain C++ (no CUDA
// header): a caller that compiles the kernels at run time (the JIT) asks the same policy as the
// launchers of kernels/gemm_sm90.cuh. The measurements behind each rule are in
// docs/performance/log.md, under the headings each function names.
//   gemm_sm90_pick(m, n, k, plain16, sms)     the configuration for a row-major m x n D
//   gemm_sm90_stream_k_tiles / _pays, gemm_sm90_pingpong_pays, gemm_sm90_wave_use,
//   gemm_sm90_wide_pays                        the rules gemm_sm90_pick combines
//   gemm_sm90_raster_rows(units, bm, bn)       rows of tiles per raster group
//   gemm_sm90_dependent_launch_enabled()       TESSERA_GEMM_SM90_PDL (read once)
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/kernels/gemm/sm90_policy.hpp: host only (the launchers' policy)"
#endif

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "tessera/kernels/gemm/sm90_config.hpp"

namespace tessera::kernels {

// The configurations gemm_sm90 picks from (TESSERA_GEMM_SM90_CHOICES, in its order).
enum class GemmSm90Pick { large, medium, small, wide, pingpong, stream_k };

inline char const* to_string(GemmSm90Pick p) {
  switch (p) {
    case GemmSm90Pick::large: return "persistent 128x256";
    case GemmSm90Pick::medium: return "persistent 128x128";
    case GemmSm90Pick::small: return "persistent 64x128";
    case GemmSm90Pick::wide: return "persistent 128x192";
    case GemmSm90Pick::pingpong: return "ping-pong 128x128";
    case GemmSm90Pick::stream_k: return "stream-K 128x256";
  }
  return "invalid";
}

namespace detail {

// gemm_sm90_check_counts(fn, tiles, k_tiles, units): the tile, k-tile and block counts of the
// schedule's helpers below. Pre: none. Post: returns when all three are >= 1, else throws
// std::invalid_argument naming fn and the three counts (a 0 would divide by zero).
// Example: ("gemm_sm90_stream_k_pays", 288, 48, 0) throws "gemm_sm90_stream_k_pays: tiles, k_tiles
// and units must be >= 1, got 288, 48, 0".
inline void gemm_sm90_check_counts(char const* fn, long long tiles, long long k_tiles, long long units) {
  if (tiles < 1 || k_tiles < 1 || units < 1)
    throw std::invalid_argument(std::string(fn) + ": tiles, k_tiles and units must be >= 1, got " +
                                std::to_string(tiles) + ", " + std::to_string(k_tiles) + ", " + std::to_string(units));
}

// gemm_sm90_stream_k_tiles(tiles, k_tiles, units): S, the tiles shared out (0: none; the schedule:
// sm90::StreamKScheduler). A block's share is kept at half a tile or more (a tile then has at most
// three pieces and its owner adds at most two partial sums): S = T % G when that is at least G / 2,
// else T % G + G (one whole wave more) when T >= 2 G, else T (fewer than 1.5 G tiles). None when
// the tiles divide into whole waves, when there are fewer tiles than blocks, or when K has fewer
// than 4 k-tiles (the fix-up would cost more than it saves), or when S k-tiles would not count in
// an int.
// Pre: tiles, k_tiles, units >= 1 (else std::invalid_argument). Post: 0 <= S <= tiles, S * k_tiles < 2^31.
// Example: 512 tiles, 64 k-tiles, 132 blocks: 116 tiles shared out, 56.2 k-tiles a block.
inline int gemm_sm90_stream_k_tiles(int tiles, int k_tiles, int units) {
  gemm_sm90_check_counts("gemm_sm90_stream_k_tiles", tiles, k_tiles, units);
  if (tiles <= units || tiles % units == 0 || k_tiles < 4) return 0;
  int const r = tiles % units;
  int const s = 2 * r >= units ? r : tiles >= 2 * units ? r + units : tiles;
  return (long long)s * k_tiles < (1LL << 31) ? s : 0;
}

// gemm_sm90_stream_k_pays(tiles, k_tiles, units): whether gemm_sm90 runs stream-K rather than the
// data-parallel persistent kernel: when whole waves of tiles would leave more than a twentieth of
// the blocks' slots idle (tiles / (units * waves) < 0.95) and gemm_sm90_stream_k_tiles shares tiles
// out. Why a twentieth: with more idle slots the last wave's SMs gain more than stream-K's fix-up
// (writing and reading partial sums) costs; with whole waves nearly busy the fix-up loses
// (docs/performance/log.md, "Step 3d, stream-K").
// Pre: tiles, k_tiles, units >= 1 (else std::invalid_argument). Post: true only if tiles > units and
// gemm_sm90_stream_k_tiles(tiles, k_tiles, units) > 0.
// Example: 288 tiles, 48 k-tiles, 132 blocks: 3 waves with 288 of 396 slots busy (73 %): true;
// 512 tiles on 132 blocks: 512 of 528 (97 %): false.
inline bool gemm_sm90_stream_k_pays(long long tiles, int k_tiles, int units) {
  gemm_sm90_check_counts("gemm_sm90_stream_k_pays", tiles, k_tiles, units);
  if (tiles <= units || tiles >= (1LL << 31)) return false;
  long long const waves = (tiles + units - 1) / units;
  return tiles * 20 < waves * units * 19 && gemm_sm90_stream_k_tiles(int(tiles), k_tiles, units) > 0;
}

// gemm_sm90_pingpong_pays(tiles, k_tiles, units, plain16): whether gemm_sm90 runs the ping-pong
// kernel (128x128 tiles, two consumer warpgroups taking a block's tiles in turn) where stream-K
// would pay (gemm_sm90_stream_k_pays, on 128x256 tiles) and those tiles make at most four waves,
// for a plain epilogue (D = alpha A B) with 16-bit output (plain16: where it was measured; its fused
// epilogue is the lean one). Why: on one to four partial waves its smaller tiles fill the SMs, and
// its two consumer warpgroups overlap one tile's stores with the other's multiplies
// (docs/performance/log.md, "The ping-pong kernel for few partial waves").
// Pre: tiles, k_tiles, units >= 1 (else std::invalid_argument). Post: true only if plain16 and
// gemm_sm90_stream_k_pays(...).
// Example: 288 tiles (3072^3), 48 k-tiles, 132 blocks, plain16: true; 800 tiles (5120^3): false.
inline bool gemm_sm90_pingpong_pays(long long tiles, int k_tiles, int units, bool plain16) {
  gemm_sm90_check_counts("gemm_sm90_pingpong_pays", tiles, k_tiles, units);
  return plain16 && tiles <= 4LL * units && gemm_sm90_stream_k_pays(tiles, k_tiles, units);
}

// gemm_sm90_wave_use(m, n, bm, bn, units): the share of the tile slots that D's m x n elements
// fill when bm x bn tiles run in whole waves of `units` blocks (the padding of the last row and
// column of tiles and the idle slots of the last wave are the loss).
// Pre: m, n, bm, bn, units >= 1 (else std::invalid_argument). Post: 0 < result <= 1.
// Example: 3072 x 3072, 128x256 tiles, 132 blocks: 288 tiles, 3 waves: 0.727; 128x192: 384 tiles,
// 3 waves: 0.970.
inline double gemm_sm90_wave_use(long long m, long long n, int bm, int bn, int units) {
  if (m < 1 || n < 1 || bm < 1 || bn < 1 || units < 1)
    throw std::invalid_argument("gemm_sm90_wave_use: m, n, bm, bn and units must be >= 1, got " + std::to_string(m) +
                                ", " + std::to_string(n) + ", " + std::to_string(bm) + ", " + std::to_string(bn) +
                                ", " + std::to_string(units));
  long long const tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
  long long const waves = (tiles + units - 1) / units;
  return double(m) * double(n) / (double(waves) * units * bm * bn);
}

// gemm_sm90_wide_pays(m, n, units, versus_pingpong): whether gemm_sm90 runs the persistent kernel
// with 128x192 tiles (GemmSm90PersistentWide) on a row-major m x n D: when 128x256 tiles leave more
// than a twentieth of their waves' slots idle (gemm_sm90_wave_use < 0.95), 128x192 tiles fill more
// of theirs, and either that is 95 % or more, or, where the ping-pong kernel (128x128 tiles) is the
// other choice (versus_pingpong: what gemm_sm90_pingpong_pays says), at least as much as 128x128
// tiles fill. Why: idle slots of the last wave are SMs doing nothing, so the tile that fills the
// waves best wins (docs/performance/log.md, "128x192 tiles").
// Pre: m, n, units >= 1 (else std::invalid_argument). Post: true only if
// gemm_sm90_wave_use(m, n, 128, 256, units) < 0.95 and gemm_sm90_wave_use(m, n, 128, 192, units)
// is larger.
// Example: 3072 x 3072 on 132 blocks: true either way; 2304 x 2304: true versus the ping-pong kernel
// (0.818 = 0.818), else false (below 0.95: stream-K); 2560 x 2560: false (0.67 < 0.76 for 128x256).
inline bool gemm_sm90_wide_pays(long long m, long long n, int units, bool versus_pingpong) {
  double const large = gemm_sm90_wave_use(m, n, 128, 256, units), wide = gemm_sm90_wave_use(m, n, 128, 192, units);
  if (large >= 0.95 || wide <= large) return false;
  return wide >= 0.95 || (versus_pingpong && wide >= gemm_sm90_wave_use(m, n, 128, 128, units));
}

// gemm_sm90_raster_rows(units, bm, bn): the rows of block tiles in a raster group
// (gemm_block_coord) for `units` tiles in flight (one per SM, or per cluster) of bm x bn: a wave
// then covers about g rows by units / g columns of tiles and reads, per k step, g panels of A (bm
// rows each) and units / g panels of B (bn columns each); g = sqrt(units bn / bm) reads the fewest
// bytes (docs/performance/log.md, "The raster group"). Pre: units, bm, bn >= 1. Post: >= 1.
// Example: 132 SMs: 16 for 128x256 tiles, 11 for 128x128, 8 for 2x1 clusters of 128x256.
inline int gemm_sm90_raster_rows(int units, int bm, int bn) {
  double const g = std::sqrt(double(units) * double(bn) / double(bm));
  return g < 1.5 ? 1 : int(g + 0.5);
}

// Whether the persistent kernels are launched with programmatic dependent launch (their set-up
// overlaps the end of the stream's previous grid, which each of their threads still waits for
// before touching global memory). On unless the environment variable TESSERA_GEMM_SM90_PDL is 0
// when first asked (read once per process: an A/B switch for benchmarks).
// Example: TESSERA_GEMM_SM90_PDL=0 tessera-bench ... times the launches without it.
inline bool gemm_sm90_dependent_launch_enabled() {
  static bool const enabled = [] {
    char const* v = std::getenv("TESSERA_GEMM_SM90_PDL");
    return v == nullptr || std::string(v) != "0";
  }();
  return enabled;
}

}  // namespace detail

// gemm_sm90_pick(m, n, k, plain16, sms): the configuration gemm_sm90 runs for a row-major m x n D
// (a column-major D is computed transposed: pass n, m) with depth k on `sms` SMs; plain16: the
// epilogue is D = alpha A B (gemm_epilogue_plain) and D has 16-bit elements. The rule: the largest
// tile of 128x256, 128x128 and 64x128 that still gives (nearly: 90 %) every SM a tile, 64x128 when
// none does. Where whole waves of 128x256 tiles would leave SMs idle: 128x192 tiles where they fill
// the waves (gemm_sm90_wide_pays); else, where 128x256 tiles make at most four waves, a plain
// 16-bit product takes the ping-pong kernel (gemm_sm90_pingpong_pays); else stream-K
// (gemm_sm90_stream_k_pays; the launcher falls back to `large` when its cooperative launch is
// refused or its workspace cannot be had).
// Pre: m, n, k, sms >= 1 (else std::invalid_argument).
// Example: on 132 SMs, 4096^3: large; 3072^3: wide; 1536^3: medium; 256^3: small.
inline GemmSm90Pick gemm_sm90_pick(long long m, long long n, long long k, bool plain16, int sms) {
  if (m < 1 || n < 1 || k < 1 || sms < 1)
    throw std::invalid_argument("gemm_sm90_pick: m, n, k and sms must be >= 1, got " + std::to_string(m) + ", " +
                                std::to_string(n) + ", " + std::to_string(k) + ", " + std::to_string(sms));
  using Large = GemmSm90PersistentDefault;
  using Medium = GemmSm90PersistentMedium;
  using StreamK = GemmSm90StreamKDefault;
  using Wide = GemmSm90PersistentWide;
  using Pingpong = GemmSm90PingpongDefault;
  static_assert(StreamK::BM == Large::BM && StreamK::BN == Large::BN, "stream-K stands in for the 128x256 tiles");
  static_assert(Wide::BM == 128 && Wide::BN == 192 && Pingpong::BM == 128 && Pingpong::BN == 128 && Large::BN == 256,
                "gemm_sm90_wide_pays and gemm_sm90_pingpong_pays compare these tiles");
  auto tiles = [&](int bm, int bn) { return ((m + bm - 1) / bm) * ((n + bn - 1) / bn); };
  auto enough = [&](int bm, int bn) { return tiles(bm, bn) * 10 >= 9LL * sms; };
  if (enough(Large::BM, Large::BN)) {
    long long const k_tiles_ll = (k + StreamK::BK - 1) / StreamK::BK;
    int const k_tiles = k_tiles_ll > (1LL << 30) ? (1 << 30) : int(k_tiles_ll);
    long long const large_tiles = tiles(StreamK::BM, StreamK::BN);
    // The ping-pong kernel, where it pays, is what 128x192 tiles must beat.
    bool const pingpong = detail::gemm_sm90_pingpong_pays(large_tiles, k_tiles, sms, plain16);
    if (detail::gemm_sm90_wide_pays(m, n, sms, pingpong)) return GemmSm90Pick::wide;
    if (pingpong) return GemmSm90Pick::pingpong;
    if (detail::gemm_sm90_stream_k_pays(large_tiles, k_tiles, sms)) return GemmSm90Pick::stream_k;
    return GemmSm90Pick::large;
  }
  if (enough(Medium::BM, Medium::BN)) return GemmSm90Pick::medium;
  return GemmSm90Pick::small;
}

}  // namespace tessera::kernels
