// The Hopper GEMM's configurations (the tile, the ring's depth, the kernel of the ladder that runs
// them: kernels/gemm_sm90.cuh), the list gemm_sm90 chooses from, and their C++ names as a
// run-time compiler instantiates them. Plain C++: no CUDA header, so that host policy
// (kernels/gemm/sm90_policy.hpp) and the JIT can name a configuration without the kernels.
//   GemmSm90Config<BM, BN, BK, Stages>         step 1: one warpgroup loads and multiplies
//   GemmSm90WsConfig<BM, BN, BK, Stages, Persistent, ClusterM, StreamK>
//                                              steps 2, 3, 3d: warp-specialized, BM/64 consumer
//                                              warpgroups splitting the tile's rows
//   GemmSm90PingpongConfig<BM, BN, BK, Stages> step 3c: two consumer warpgroups taking whole tiles
//                                              in turn
//   GemmSm90Epilogue                           the epilogue a kernel is compiled for: any problem's
//                                              (chosen while it runs) or one form's (the JIT's)
//   TESSERA_GEMM_SM90_CHOICES(X), GemmSm90Choices   the configurations gemm_sm90 runs
//   gemm_sm90_config_name<Cfg>()               "tessera::kernels::GemmSm90WsConfig<128, 256, 64, 4,
//                                              true, 1, false>" (host)
#pragma once

#if !defined(__CUDACC_RTC__)
#include <string>
#include <tuple>
#endif

#include "tessera/core/numeric.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera::kernels {

// GemmSm90Config<BM, BN, BK, Stages>: the block tile and the depth of the shared-memory ring.
template <int BM_, int BN_, int BK_, int Stages_>
struct GemmSm90Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr int kThreads = 128;      // one warpgroup
  static constexpr int kEpilogueBytes = 0;  // stores D from registers
  static_assert(BM % 64 == 0 && BM <= 256, "GemmSm90Config: BM must be a multiple of 64 (the wgmma's M), at most 256");
  static_assert(BN % 64 == 0 && BN <= 256,
                "GemmSm90Config: BN must be 64, 128, 192 or 256 (whole 64-element swizzle spans)");
  static_assert(BK == 64, "GemmSm90Config: BK must be 64 (one 128-byte swizzle span of 16-bit elements)");
  static_assert(Stages >= 2, "GemmSm90Config: at least two stages");
  static_assert(BM / 64 * BN / 2 <= 128, "GemmSm90Config: the accumulators exceed 128 registers a thread");
};

using GemmSm90Default = GemmSm90Config<128, 128, 64, 4>;

// BK counts 16-bit units of K: 64 elements of a 16-bit type, 128 of an 8-bit float (whose elements
// the kernels move in pairs: kernels/gemm/sm90_kernel.cuh, gemm_sm90_unit_t); either is one
// 128-byte swizzle span, and a configuration's shared-memory plan is the same for both.
// GemmSm90WsConfig<BM, BN, BK, Stages, Persistent>: the warp-specialized kernel's tile; BM/64
// consumer warpgroups of 64 x BN each. Persistent: one block per SM walks the tiles (step 3),
// else one block per tile (step 2).
// BM = 192: three consumer warpgroups (512 threads; the register file then allows them 160
// registers a thread, so BN <= 128: the accumulators take BN/2 of them).
// ClusterM: blocks of a cluster along M (1 or 2); they share B's tile, each loading 1/ClusterM of
// it and multicasting it to all (step 3).
// StreamK: the persistent blocks share the last tiles' k-tiles evenly (stream-K, step 3d:
// gemm_sm90_stream_k_tiles says how many tiles), so that no SM idles through a partial last wave.
template <int BM_, int BN_, int BK_, int Stages_, bool Persistent_ = false, int ClusterM_ = 1, bool StreamK_ = false>
struct GemmSm90WsConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr bool Persistent = Persistent_;
  static constexpr int ClusterM = ClusterM_;
  static constexpr bool StreamK = StreamK_;
  static_assert(ClusterM == 1 || ClusterM == 2, "GemmSm90WsConfig: ClusterM must be 1 or 2");
  static_assert(!StreamK || (Persistent && ClusterM == 1),
                "GemmSm90WsConfig: stream-K needs a persistent kernel without clusters");
  static constexpr int kConsumers = BM / 64;
  static constexpr int kThreads = 128 * (1 + kConsumers);
  // The persistent kernels store D through shared memory (two 8 KB chunk buffers per consumer
  // warpgroup) and TMA where D is TMA-addressable; step 2 stores from registers.
  static constexpr int kEpilogueBytes = Persistent ? kConsumers * 2 * 8192 : 0;
  static_assert(BM % 64 == 0 && BM >= 64 && BM <= 192,
                "GemmSm90WsConfig: BM must be 64, 128 or 192 (one to three consumer warpgroups)");
  static_assert(BM < 192 || BN <= 128,
                "GemmSm90WsConfig: BM = 192 (three consumer warpgroups of 160 registers) takes BN <= 128");
  static_assert(BN % 64 == 0 && BN <= 256, "GemmSm90WsConfig: BN must be 64, 128, 192 or 256");
  static_assert(BK == 64, "GemmSm90WsConfig: BK must be 64 (one 128-byte swizzle span of 16-bit elements)");
  static_assert(Stages >= 2, "GemmSm90WsConfig: at least two stages");
};

using GemmSm90WsDefault = GemmSm90WsConfig<128, 256, 64, 4>;
using GemmSm90PersistentDefault = GemmSm90WsConfig<128, 256, 64, 4, true>;
using GemmSm90ClusterDefault = GemmSm90WsConfig<128, 256, 64, 4, true, 2>;
// Smaller tiles for problems with fewer 128x256 tiles than SMs (gemm_sm90 picks them).
using GemmSm90PersistentMedium = GemmSm90WsConfig<128, 128, 64, 6, true>;
using GemmSm90PersistentSmall = GemmSm90WsConfig<64, 128, 64, 8, true>;
// 128x192 tiles (four stages: five would exceed the shared memory) for problems whose 128x256 tiles
// leave much of their last wave idle while 128x192 tiles fill it (3072^3: 2.18 waves of 128x256
// tiles, 2.91 of 128x192).
using GemmSm90PersistentWide = GemmSm90WsConfig<128, 192, 64, 4, true>;
// The persistent kernels with stream-K (step 3d).
using GemmSm90StreamKDefault = GemmSm90WsConfig<128, 256, 64, 4, true, 1, true>;
using GemmSm90StreamKMedium = GemmSm90WsConfig<128, 128, 64, 6, true, 1, true>;
// Stream-K for problems with fewer tiles than SMs and long K (gemm_sm90_pick's split: every tile's
// k-tiles shared over up to twice as many blocks as tiles, kernels/gemm/sm90_policy.hpp,
// gemm_sm90_stream_k_plan), beside GemmSm90StreamKMedium (D of 65-128 columns) and
// GemmSm90StreamKDefault (129-256 columns):
//   GemmSm90StreamKNarrow  128 x 64 tiles for a D of 64 columns or fewer (the narrowest tile of the
//                          epilogue's 64-column steps): 16 KB of A a stage, 8 stages of 24 KB
//   GemmSm90StreamKSmall   64 x 128 tiles for a D of few rows (where gemm_sm90 runs 64x128 tiles),
//                          8 stages of 24 KB
using GemmSm90StreamKNarrow = GemmSm90WsConfig<128, 64, 64, 8, true, 1, true>;
using GemmSm90StreamKSmall = GemmSm90WsConfig<64, 128, 64, 8, true, 1, true>;

// GemmSm90BlockScaled<Cfg>: the persistent configuration Cfg run with fp8 block scales
// (gemm_sm90_fp8_block: A's per 1 x 128 block, B's per 128 x 128): each consumer warpgroup
// multiplies a k-tile (128 fp8 elements of K) into a second set of accumulators and adds them into
// its fp32 ones times the k-tile's scales, so it holds two sets (2 x BN/2 registers a thread). BN
// divides 128 (one B scale covers a tile's columns), or is 192 (2 x 96 registers; a tile's columns
// meet two 128-column blocks of B, two scales a k-tile). Clusters (ClusterM = 2: B multicast) are
// allowed; stream-K is not.
template <class Cfg>
struct GemmSm90BlockScaled : Cfg {
  static constexpr bool BlockScaled = true;
  static_assert(Cfg::kThreads > 128 && Cfg::Persistent && !Cfg::StreamK,
                "GemmSm90BlockScaled: give a persistent GemmSm90WsConfig without stream-K");
  static_assert(128 % Cfg::BN == 0 || (Cfg::BN == 192 && Cfg::BM <= 128),
                "GemmSm90BlockScaled: BN must divide 128 (one B scale per tile and k-tile), or be 192 with at most "
                "two consumer warpgroups (two B scales; two sets of accumulators must fit in registers)");
};
// Configurations for the block-scaled kernel, gemm_sm90_fp8_block<Cfg> (docs/gemm-fp8.md, "Block
// scaling": what each is for and their figures on the H200):
//   GemmSm90PersistentTall   192 x 128 tiles, three consumer warpgroups of 64 x 128 (three k-tile
//                            batches in flight on the SM, not two); 4 stages of 40 KB (five exceed
//                            the shared memory beside the three warpgroups' 48 KB of epilogue
//                            buffers). The default: fastest of the four on the H200 (2026-11-28:
//                            +10 % at 4096^3 and +28 % at 8192^3 over 128 x 128)
//   GemmSm90PersistentMedium 128 x 128 tiles, two consumer warpgroups of 64 x 128, 6 stages
//   GemmSm90PersistentWide   128 x 192 tiles (two B scales a tile), 4 stages of 40 KB
//   GemmSm90ClusterMedium    128 x 128 tiles in clusters of two along M, B's tile multicast (each
//                            block loads half of it), 6 stages
using GemmSm90PersistentTall = GemmSm90WsConfig<192, 128, 64, 4, true>;
using GemmSm90ClusterMedium = GemmSm90WsConfig<128, 128, 64, 6, true, 2>;
// The block-scaled default: 192 x 128 tiles.
using GemmSm90Fp8BlockDefault = GemmSm90BlockScaled<GemmSm90PersistentTall>;

// GemmSm90Epilogue: what a warp-specialized kernel's epilogue is compiled for. `any` (nvcc's
// instances): one kernel serves every problem and chooses while it runs where D goes (through
// shared memory and TMA, or from registers: GemmSm90Params::tma_store_d) and whether the epilogue
// is plain (D = alpha acc: GemmEpilogue::plain). The others fix that choice, for a compiler that
// knows the problem (the JIT, jit/gemm_sm90.hpp), and the paths not taken are not compiled:
//   tma_plain   D through TMA, D = alpha acc
//   tma         D through TMA, the whole epilogue (beta C, bias, activation: read while it runs)
//   registers   D from registers (D that TMA cannot address); plain or not while it runs
// A kernel of a fixed form is launched only for problems of that form (the JIT's host side refuses
// others). The 128x256 persistent kernel in bf16: any 17.9k SASS instructions, tma_plain 1.0k.
enum class GemmSm90Epilogue { any, tma_plain, tma, registers };

// GemmSm90PingpongConfig<BM, BN, BK, Stages>: persistent, a producer and two consumer warpgroups
// each owning whole BM x BN tiles, taking the block's tiles in turn (step 3c).
template <int BM_, int BN_, int BK_, int Stages_>
struct GemmSm90PingpongConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr bool Persistent = true, Pingpong = true;
  static constexpr int ClusterM = 1;
  static constexpr int kConsumers = 2;
  static constexpr int kThreads = 384;
  static constexpr int kEpilogueBytes = 2 * 2 * 8192;  // two 8 KB chunk buffers per consumer warpgroup
  static_assert(BM % 64 == 0 && BM / 64 * BN / 2 <= 128,
                "GemmSm90PingpongConfig: a warpgroup's accumulators exceed 128 registers");
  static_assert(BN % 64 == 0 && BN <= 256, "GemmSm90PingpongConfig: BN must be 64, 128, 192 or 256");
  static_assert(BK == 64, "GemmSm90PingpongConfig: BK must be 64 (one 128-byte swizzle span of 16-bit elements)");
  static_assert(Stages >= 2, "GemmSm90PingpongConfig: at least two stages");
};

using GemmSm90PingpongDefault = GemmSm90PingpongConfig<128, 128, 64, 6>;

namespace detail {
template <class Cfg>
inline constexpr bool is_pingpong_config = requires { Cfg::Pingpong; };
template <class Cfg>
inline constexpr bool is_ws_config = Cfg::kThreads > 128 && !is_pingpong_config<Cfg>;
// Blocks of a cluster along M (1 for the kernels without clusters).
template <class Cfg>
inline constexpr int gemm_sm90_cluster_m = [] {
  if constexpr (is_ws_config<Cfg>) return Cfg::ClusterM;
  return 1;
}();
// Whether the blocks share the last tiles' k-tiles out (stream-K).
template <class Cfg>
inline constexpr bool gemm_sm90_stream_k_config = [] {
  if constexpr (is_ws_config<Cfg>) return Cfg::StreamK;
  return false;
}();
// Whether the kernel promotes each k-tile's sums with fp8 block scales (GemmSm90BlockScaled).
template <class Cfg>
inline constexpr bool gemm_sm90_block_scaled_config = requires { Cfg::BlockScaled; };
// Whether one block per SM walks the tiles.
template <class Cfg>
inline constexpr bool gemm_sm90_persistent_config = [] {
  if constexpr (is_pingpong_config<Cfg>) return true;
  else if constexpr (is_ws_config<Cfg>) return Cfg::Persistent;
  else return false;
}();
}  // namespace detail

// The tile configurations gemm_sm90 chooses from: TESSERA_GEMM_SM90_CHOICES(X) expands X(Cfg) for
// each, GemmSm90Choices is the same list as a std::tuple. gemm_sm90 runs no other configuration
// (detail::gemm_sm90_choice checks at compile time), so a program that compiles gemm_sm90's kernels
// in other translation units declares exactly these extern: the project's compiled instances
// (instances/table.txt's `choices`, declared by instances/gemm_sm90.hpp) expand this list.
#define TESSERA_GEMM_SM90_CHOICES(X) \
  X(GemmSm90PersistentDefault)       \
  X(GemmSm90PersistentMedium)        \
  X(GemmSm90PersistentSmall)         \
  X(GemmSm90PersistentWide)          \
  X(GemmSm90PingpongDefault)         \
  X(GemmSm90StreamKDefault)          \
  X(GemmSm90StreamKMedium)           \
  X(GemmSm90StreamKSmall)            \
  X(GemmSm90StreamKNarrow)

#if !defined(__CUDACC_RTC__)
namespace detail {
template <class First, class... Rest>
struct gemm_sm90_drop_first {
  using type = std::tuple<Rest...>;
};
}  // namespace detail
#define TESSERA_GEMM_SM90_CHOICE_TYPE(Cfg) , Cfg
using GemmSm90Choices =
    typename detail::gemm_sm90_drop_first<void TESSERA_GEMM_SM90_CHOICES(TESSERA_GEMM_SM90_CHOICE_TYPE)>::type;
#undef TESSERA_GEMM_SM90_CHOICE_TYPE

namespace detail {
// Whether Cfg is one of the configurations of List (a std::tuple).
template <class Cfg, class List>
inline constexpr bool gemm_sm90_listed = false;
template <class Cfg, class... Cs>
inline constexpr bool gemm_sm90_listed<Cfg, std::tuple<Cs...>> = (std::is_same_v<Cfg, Cs> || ...);

// The C++ name of an epilogue form, as a run-time compiler instantiates it (the qualified enumerator).
// Pre: none (a value outside the enumeration is named as `any`). Post: a name of one enumerator.
// Example: GemmSm90Epilogue::tma_plain gives "tessera::kernels::GemmSm90Epilogue::tma_plain".
inline std::string gemm_sm90_epilogue_name(GemmSm90Epilogue e) {
  switch (e) {
    case GemmSm90Epilogue::tma_plain: return "tessera::kernels::GemmSm90Epilogue::tma_plain";
    case GemmSm90Epilogue::tma: return "tessera::kernels::GemmSm90Epilogue::tma";
    case GemmSm90Epilogue::registers: return "tessera::kernels::GemmSm90Epilogue::registers";
    case GemmSm90Epilogue::any: break;
  }
  return "tessera::kernels::GemmSm90Epilogue::any";
}
// The C++ names of an element type and a configuration, as a run-time compiler instantiates them.
template <class T>
std::string gemm_sm90_type_name() {
  if constexpr (std::is_same_v<T, half_t>) return "tessera::half_t";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "tessera::bfloat16_t";
  else if constexpr (std::is_same_v<T, float_e4m3_t>) return "tessera::float_e4m3_t";
  else if constexpr (std::is_same_v<T, float_e5m2_t>) return "tessera::float_e5m2_t";
  else {
    static_assert(std::is_same_v<T, float>,
                  "gemm_sm90_type_name: half_t, bfloat16_t, float_e4m3_t, float_e5m2_t or float");
    return "float";
  }
}
template <class Cfg>
std::string gemm_sm90_config_name() {
  auto n = [](auto... v) {
    std::string s;
    ((s += (s.empty() ? "" : ", ") + std::to_string(v)), ...);
    return s;
  };
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  if constexpr (is_pingpong_config<Cfg>)
    return "tessera::kernels::GemmSm90PingpongConfig<" + n(Cfg::BM, Cfg::BN, Cfg::BK, Cfg::Stages) + ">";
  else if constexpr (is_ws_config<Cfg>)
    return "tessera::kernels::GemmSm90WsConfig<" + n(Cfg::BM, Cfg::BN, Cfg::BK, Cfg::Stages) + ", " +
           b(Cfg::Persistent) + ", " + n(Cfg::ClusterM) + ", " + b(Cfg::StreamK) + ">";
  else return "tessera::kernels::GemmSm90Config<" + n(Cfg::BM, Cfg::BN, Cfg::BK, Cfg::Stages) + ">";
}
}  // namespace detail
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
