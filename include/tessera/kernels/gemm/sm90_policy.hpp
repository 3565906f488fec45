// gemm_sm90's host policy: which configuration runs a problem, how stream-K shares out its tiles,
// the raster group's height, and the switch for programmatic dependent launch. Plain C++ (no CUDA
// header): a caller that compiles the kernels at run time (the JIT) asks the same policy as the
// launchers of kernels/gemm_sm90.cuh. The measurements behind each rule are in
// docs/performance/log.md, under the headings each function names.
//   gemm_sm90_pick(m, n, k, plain16, sms)     the configuration for a row-major m x n D
//   gemm_sm90_pick_data_parallel(...)          the same without stream-K (what runs where a
//                                              stream-K launch is refused; the fp8 JIT's choice)
//   gemm_sm90_stream_k_plan                    a stream-K launch's blocks and tiles shared out
//   gemm_sm90_stream_k_tiles / _pays, gemm_sm90_pingpong_pays, gemm_sm90_wave_use,
//   gemm_sm90_wide_pays, gemm_sm90_split_pays  the rules gemm_sm90_pick combines
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

// The configurations gemm_sm90 picks from (TESSERA_GEMM_SM90_CHOICES, in its order), then `tall`,
// which gemm_sm90 never picks: the block-scaled fp8 kernel's tile (GemmSm90PersistentTall, 192 x
// 128; the fp8 JIT names its kernels by these values too). New ones go at the end: the JIT numbers
// its programs by these values (jit/gemm_sm90.hpp, GemmSm90JitKernel).
enum class GemmSm90Pick {
  large,
  medium,
  small,
  wide,
  pingpong,
  stream_k,
  stream_k_medium,
  stream_k_small,
  stream_k_narrow,
  tall
};

inline char const* to_string(GemmSm90Pick p) {
  switch (p) {
    case GemmSm90Pick::large: return "persistent 128x256";
    case GemmSm90Pick::medium: return "persistent 128x128";
    case GemmSm90Pick::small: return "persistent 64x128";
    case GemmSm90Pick::wide: return "persistent 128x192";
    case GemmSm90Pick::pingpong: return "ping-pong 128x128";
    case GemmSm90Pick::stream_k: return "stream-K 128x256";
    case GemmSm90Pick::stream_k_medium: return "stream-K 128x128";
    case GemmSm90Pick::stream_k_small: return "stream-K 64x128";
    case GemmSm90Pick::stream_k_narrow: return "stream-K 128x64";
    case GemmSm90Pick::tall: return "persistent 192x128 (block-scaled fp8)";
  }
  return "invalid";
}

// Whether a pick's configuration is a stream-K one (a cooperative launch with a workspace).
constexpr bool gemm_sm90_pick_is_stream_k(GemmSm90Pick p) {
  return p == GemmSm90Pick::stream_k || p == GemmSm90Pick::stream_k_medium || p == GemmSm90Pick::stream_k_small ||
         p == GemmSm90Pick::stream_k_narrow;
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

// A stream-K launch: the blocks it starts (units) and the tiles whose k-tiles they share out
// (tiles: sm90::StreamKScheduler's sk_tiles; 0: none, every block takes whole tiles).
struct GemmSm90StreamKPlan {
  int units = 0, tiles = 0;
  friend bool operator==(GemmSm90StreamKPlan const&, GemmSm90StreamKPlan const&) = default;
};

// gemm_sm90_stream_k_plan(tiles, k_tiles, sms): how a stream-K configuration runs `tiles` tiles of
// `k_tiles` k-tiles on `sms` SMs. As many tiles as SMs or more: a block per SM, sharing out
// gemm_sm90_stream_k_tiles's last tiles. Fewer tiles than SMs (a partial single wave: a narrow D,
// few output tiles, often long K): with 16 k-tiles or more, every tile shared out over
// min(sms, 2 tiles) blocks, so that each block's share is half a tile or more and 8 k-tiles or more
// (a tile in at most three pieces, its owner adding at most two partial sums, as in the last-wave
// split); with fewer k-tiles, a block a tile and nothing shared. Not more blocks than twice the
// tiles: more pieces a tile would make the owner add more partial sums, one after the other; where
// fewer than half the SMs get work that way, the split still has at least as many blocks as tiles
// of the data-parallel kernels (gemm_sm90_split_pays compares them).
// Pre: tiles, k_tiles, sms >= 1 (else std::invalid_argument). Post: 1 <= units <= sms; tiles == 0
// or tiles * k_tiles < 2^31; with fewer tiles than SMs, tiles is 0 or all of them.
// Example: 64 tiles (8192 x 16 x 8192 in 128x64 tiles), 128 k-tiles, 132 SMs: 128 blocks share all
// 64 tiles (64 k-tiles a block); 96 tiles (12288 x 256 x 12288 in 128x256 tiles), 192 k-tiles: 132
// blocks, 139.6 k-tiles each; 512 tiles, 64 k-tiles: 132 blocks, the last 116 tiles shared out.
inline GemmSm90StreamKPlan gemm_sm90_stream_k_plan(long long tiles, int k_tiles, int sms) {
  gemm_sm90_check_counts("gemm_sm90_stream_k_plan", tiles, k_tiles, sms);
  if (tiles >= sms) return {sms, tiles < (1LL << 31) ? gemm_sm90_stream_k_tiles(int(tiles), k_tiles, sms) : 0};
  int const t = int(tiles);
  if (k_tiles < 16 || (long long)t * k_tiles >= (1LL << 31)) return {t, 0};
  return {sms < 2 * t ? sms : 2 * t, t};
}

// gemm_sm90_split_pays(m, n, bm, bn, k_tiles, dp_bm, dp_bn, sms): whether gemm_sm90 runs an m x n D
// as bm x bn tiles with every tile's k-tiles shared out (gemm_sm90_stream_k_plan with fewer tiles
// than SMs) rather than as the data-parallel persistent kernel's dp_bm x dp_bn tiles: when the
// plan shares them out and its critical path is a tenth or more shorter. The critical path in
// multiply-adds of one block: the split's k-tiles a block (rounded up) plus two (the owner adds up
// to two partial sums, each counted as a k-tile) times bm bn, against the data-parallel kernel's
// waves times k_tiles times dp_bm dp_bn. (Narrow problems are often bound by reading the wide
// operand rather than by the multiplies; the count is the proxy: a split runs on more SMs, whose
// loads are more bytes in flight, and a narrower tile wastes fewer of a stage's bytes.)
// Pre: m, n, bm, bn, k_tiles, dp_bm, dp_bn, sms >= 1 (else std::invalid_argument).
// Post: true only if gemm_sm90_stream_k_plan(tiles, k_tiles, sms).tiles > 0 for the bm x bn tiles.
// Example on 132 SMs: 8192 x 16 x 8192 (128 k-tiles) as 128x64 tiles against 64x128: 64 tiles on
// 128 blocks, (64 + 2) x 8192 = 540,672 against 1 wave x 128 x 8192 = 1,048,576: true;
// 12288 x 256 x 12288 (192 k-tiles) as 128x256 against 128x128 (192 tiles, 2 waves): 96 tiles on
// 132 blocks, (140 + 2) x 32768 = 4.65 M against 2 x 192 x 16384 = 6.29 M: true; 16384 x 128 x 8192 as
// 128x128 against 128x128 (128 tiles, 1 wave): (125 + 2) x 16384 against 128 x 16384: false.
inline bool gemm_sm90_split_pays(long long m, long long n, int bm, int bn, int k_tiles, int dp_bm, int dp_bn, int sms) {
  if (m < 1 || n < 1 || bm < 1 || bn < 1 || k_tiles < 1 || dp_bm < 1 || dp_bn < 1 || sms < 1)
    throw std::invalid_argument("gemm_sm90_split_pays: m, n, bm, bn, k_tiles, dp_bm, dp_bn and sms must be >= 1, got " +
                                std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(bm) + ", " +
                                std::to_string(bn) + ", " + std::to_string(k_tiles) + ", " + std::to_string(dp_bm) +
                                ", " + std::to_string(dp_bn) + ", " + std::to_string(sms));
  long long const tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
  if (tiles >= sms) return false;
  GemmSm90StreamKPlan const plan = gemm_sm90_stream_k_plan(tiles, k_tiles, sms);
  if (plan.tiles == 0) return false;
  long long const share = (tiles * k_tiles + plan.units - 1) / plan.units;
  long long const dp_tiles = ((m + dp_bm - 1) / dp_bm) * ((n + dp_bn - 1) / dp_bn);
  long long const dp_waves = (dp_tiles + sms - 1) / sms;
  double const split = double(share + 2) * double(bm) * double(bn);
  double const dp = double(dp_waves) * double(k_tiles) * double(dp_bm) * double(dp_bn);
  return split <= 0.9 * dp;
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

namespace detail {
// gemm_sm90_pick_whole(m, n, k_tiles, plain16, sms): gemm_sm90_pick's rule for problems with enough
// tiles (every rule but the split; gemm_sm90_pick says what it does). Pre: as gemm_sm90_pick's
// (checked there).
inline GemmSm90Pick gemm_sm90_pick_whole(long long m, long long n, int k_tiles, bool plain16, int sms) {
  using Large = GemmSm90PersistentDefault;
  using Medium = GemmSm90PersistentMedium;
  using StreamK = GemmSm90StreamKDefault;
  using Wide = GemmSm90PersistentWide;
  using Pingpong = GemmSm90PingpongDefault;
  static_assert(StreamK::BM == Large::BM && StreamK::BN == Large::BN, "stream-K stands in for the 128x256 tiles");
  static_assert(GemmSm90StreamKMedium::BM == Medium::BM && GemmSm90StreamKMedium::BN == Medium::BN,
                "128x128 stream-K stands in for the 128x128 tiles");
  static_assert(Wide::BM == 128 && Wide::BN == 192 && Pingpong::BM == 128 && Pingpong::BN == 128 && Large::BN == 256,
                "gemm_sm90_wide_pays and gemm_sm90_pingpong_pays compare these tiles");
  auto tiles = [&](int bm, int bn) { return ((m + bm - 1) / bm) * ((n + bn - 1) / bn); };
  auto enough = [&](int bm, int bn) { return tiles(bm, bn) * 10 >= 9LL * sms; };
  if (enough(Large::BM, Large::BN)) {
    long long const large_tiles = tiles(StreamK::BM, StreamK::BN);
    // The ping-pong kernel, where it pays, is what 128x192 tiles must beat.
    bool const pingpong = gemm_sm90_pingpong_pays(large_tiles, k_tiles, sms, plain16);
    if (gemm_sm90_wide_pays(m, n, sms, pingpong)) return GemmSm90Pick::wide;
    if (pingpong) return GemmSm90Pick::pingpong;
    // A D of 128 columns or fewer: 128x128 tiles are as many as 128x256 ones, with half the
    // multiplies (the other half are of columns past D) and six stages, not four.
    bool const narrow = n <= Medium::BN;
    if (gemm_sm90_stream_k_pays(large_tiles, k_tiles, sms))
      return narrow ? GemmSm90Pick::stream_k_medium : GemmSm90Pick::stream_k;
    return narrow ? GemmSm90Pick::medium : GemmSm90Pick::large;
  }
  if (enough(Medium::BM, Medium::BN)) return GemmSm90Pick::medium;
  return GemmSm90Pick::small;
}

// The tile of a data-parallel pick's configuration, (BM, BN).
inline void gemm_sm90_pick_tile(GemmSm90Pick p, int& bm, int& bn) {
  auto set = [&](auto cfg) {
    bm = decltype(cfg)::BM;
    bn = decltype(cfg)::BN;
  };
  switch (p) {
    case GemmSm90Pick::medium:
    case GemmSm90Pick::stream_k_medium: set(GemmSm90PersistentMedium{}); return;
    case GemmSm90Pick::small:
    case GemmSm90Pick::stream_k_small: set(GemmSm90PersistentSmall{}); return;
    case GemmSm90Pick::wide: set(GemmSm90PersistentWide{}); return;
    case GemmSm90Pick::pingpong: set(GemmSm90PingpongDefault{}); return;
    case GemmSm90Pick::stream_k_narrow: set(GemmSm90StreamKNarrow{}); return;
    case GemmSm90Pick::tall: set(GemmSm90PersistentTall{}); return;
    case GemmSm90Pick::large:
    case GemmSm90Pick::stream_k: break;
  }
  set(GemmSm90PersistentDefault{});
}

inline void gemm_sm90_check_pick(char const* fn, long long m, long long n, long long k, int sms) {
  if (m < 1 || n < 1 || k < 1 || sms < 1)
    throw std::invalid_argument(std::string(fn) + ": m, n, k and sms must be >= 1, got " + std::to_string(m) + ", " +
                                std::to_string(n) + ", " + std::to_string(k) + ", " + std::to_string(sms));
}
inline int gemm_sm90_k_tiles(long long k) {
  long long const k_tiles = (k + GemmSm90StreamKDefault::BK - 1) / GemmSm90StreamKDefault::BK;
  return k_tiles > (1LL << 30) ? (1 << 30) : int(k_tiles);
}
}  // namespace detail

// gemm_sm90_pick(m, n, k, plain16, sms): the configuration gemm_sm90 runs for a row-major m x n D
// (a column-major D is computed transposed: pass n, m) with depth k on `sms` SMs; plain16: the
// epilogue is D = alpha A B (gemm_epilogue_plain) and D has 16-bit elements. The rule: the largest
// tile of 128x256, 128x128 and 64x128 that still gives (nearly: 90 %) every SM a tile, 64x128 when
// none does; 128x128 for 128x256 where D has 128 columns or fewer (as many tiles, half the
// multiplies). Where whole waves of 128x256 tiles would leave SMs idle: 128x192 tiles where they
// fill the waves (gemm_sm90_wide_pays); else, where 128x256 tiles make at most four waves, a plain
// 16-bit product takes the ping-pong kernel (gemm_sm90_pingpong_pays); else stream-K
// (gemm_sm90_stream_k_pays; 128x128 tiles for 128 columns or fewer). Then the split, for problems
// with fewer tiles than SMs (gemm_sm90_split_pays: every tile's k-tiles shared over up to twice as
// many blocks, gemm_sm90_stream_k_plan, where that shortens the critical path by a tenth): a D of
// 256 columns or fewer in one column of 128-row tiles as wide as D needs (128x64: stream_k_narrow,
// 128x128: stream_k_medium, 128x256: stream_k), or, where the rule gave 64x128 tiles, those
// (stream_k_small). A stream-K launch that is refused falls back to gemm_sm90_pick_data_parallel's
// choice.
// Pre: m, n, k, sms >= 1 (else std::invalid_argument).
// Example: on 132 SMs, 4096^3: large; 3072^3: wide; 1536^3: medium; 256^3: small; 16384 x 128 x
// 8192: medium; 8192 x 16 x 8192: stream_k_narrow; 12288 x 256 x 12288: stream_k (96 tiles shared
// by 132 blocks); 16 x 8192 x 8192: stream_k_small.
inline GemmSm90Pick gemm_sm90_pick(long long m, long long n, long long k, bool plain16, int sms) {
  detail::gemm_sm90_check_pick("gemm_sm90_pick", m, n, k, sms);
  int const k_tiles = detail::gemm_sm90_k_tiles(k);
  GemmSm90Pick const whole = detail::gemm_sm90_pick_whole(m, n, k_tiles, plain16, sms);
  if (gemm_sm90_pick_is_stream_k(whole) || whole == GemmSm90Pick::pingpong) return whole;  // more tiles than SMs
  int dp_bm = 0, dp_bn = 0;
  detail::gemm_sm90_pick_tile(whole, dp_bm, dp_bn);
  if (n <= GemmSm90StreamKDefault::BN) {  // narrow N: one column of tiles
    GemmSm90Pick const split = n <= GemmSm90StreamKNarrow::BN   ? GemmSm90Pick::stream_k_narrow
                               : n <= GemmSm90StreamKMedium::BN ? GemmSm90Pick::stream_k_medium
                                                                : GemmSm90Pick::stream_k;
    int bm = 0, bn = 0;
    detail::gemm_sm90_pick_tile(split, bm, bn);
    if (detail::gemm_sm90_split_pays(m, n, bm, bn, k_tiles, dp_bm, dp_bn, sms)) return split;
  }
  if (whole == GemmSm90Pick::small &&
      detail::gemm_sm90_split_pays(m, n, dp_bm, dp_bn, k_tiles, dp_bm, dp_bn, sms))  // few rows, or few tiles
    return GemmSm90Pick::stream_k_small;
  return whole;
}

// gemm_sm90_pick_data_parallel(m, n, k, plain16, sms): gemm_sm90_pick without stream-K: its choice
// where that is not stream-K, else the data-parallel kernel of the rule for enough tiles (128x256 for
// stream_k's last-wave split, 128x128 for stream_k_medium's; for a split of every tile, the tile the
// rule gives: 128x256, 128x128 or 64x128). What gemm_sm90 runs where a stream-K launch is refused
// (its cooperative launch, or its workspace), and the fp8 JIT's choice (no fp8 stream-K kernel).
// Pre: as gemm_sm90_pick. Post: not a stream-K pick.
// Example: on 132 SMs, 5120^3: large (gemm_sm90_pick: stream_k); 8192 x 16 x 8192: small.
inline GemmSm90Pick gemm_sm90_pick_data_parallel(long long m, long long n, long long k, bool plain16, int sms) {
  detail::gemm_sm90_check_pick("gemm_sm90_pick_data_parallel", m, n, k, sms);
  GemmSm90Pick const whole = detail::gemm_sm90_pick_whole(m, n, detail::gemm_sm90_k_tiles(k), plain16, sms);
  if (whole == GemmSm90Pick::stream_k) return GemmSm90Pick::large;
  if (whole == GemmSm90Pick::stream_k_medium) return GemmSm90Pick::medium;
  return whole;
}

}  // namespace tessera::kernels
