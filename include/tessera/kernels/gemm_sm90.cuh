// Hopper GEMMs (docs/performance.md, "Hopper GEMM"), a ladder kept step by step:
//   gemm_sm90_tma<Cfg, T, TOut>(problem, stream)  step 1: TMA loads into a ring of shared-memory
//                                                 stages completing on mbarriers, wgmma from shared
//                                                 memory, one warpgroup (GemmSm90Config)
//   gemm_sm90_ws<Cfg, T, TOut>(problem, stream)   step 2: warp-specialized: a producer warpgroup
//                                                 (few registers, setmaxnreg) issues the TMA loads,
//                                                 BM/64 consumer warpgroups the wgmmas; full and
//                                                 empty barriers per stage (GemmSm90WsConfig)
//   gemm_sm90_persistent<Cfg, T, TOut>(...)       step 3 (first part): step 2 with one block per SM
//                                                 walking the tiles; the producer runs on into the
//                                                 next tile while the consumers store the last,
//                                                 through shared memory (stmatrix) and TMA stores
//                                                 that run on into the next tile's main loop
//   gemm_sm90_cluster<Cfg, T, TOut>(...)          step 3 (second part): clusters of 2 x 1 blocks
//                                                 along M share B's tile: each block loads half of
//                                                 it and multicasts it to both; a stage is refilled
//                                                 once the consumers of both blocks released it
//   gemm_sm90_pingpong<Cfg, T, TOut>(...)         step 3c: persistent, two consumer warpgroups
//                                                 each owning whole 128 x 128 tiles in turn: one
//                                                 stores while the other multiplies
//   gemm_sm90_stream_k<Cfg, T, TOut>(...)         step 3d: step 3a whose blocks share out the k-tiles
//                                                 of a partial last wave of tiles (stream-K), so
//                                                 that no SM idles at the end
//   gemm_sm90<T, TOut>(problem, stream)           the kernel and tile for the shape (the rule:
//                                                 above gemm_sm90): gemm_sm90_persistent (as fast
//                                                 as the cluster kernel, and simpler) with the
//                                                 tile that keeps the SMs busiest, else the
//                                                 ping-pong kernel or stream-K
// D = act(alpha A B + beta C + bias) (GemmProblem) for T = half_t or bfloat16_t, fp32 accumulation,
// TOut = float, half_t or bfloat16_t; any M, N, K >= 1 (TMA reads zeros outside the matrices, the
// epilogue stores only inside D); A and B row- or column-major. Operands TMA cannot address (not
// 16-byte aligned, or a row pitch or row length that is not a multiple of 16 bytes:
// gemm_sm90_tma_addressable) are first packed into aligned buffers; a D that TMA cannot address is
// stored from registers (GemmEpilogue::store_pair).
// Every kernel runs on one TmaPipeline (algorithm/pipeline.hpp): full and empty barriers per stage.
// The persistent kernels (3a-3d) are launched with programmatic dependent launch: their set-up
// overlaps the end of the stream's previous kernel, and each thread waits for that kernel before
// its first access of global memory (gemm_sm90_dependent_launch; TESSERA_GEMM_SM90_PDL=0 turns it
// off: gemm_sm90_dependent_launch_enabled).
//
// Step 1's block (one warpgroup, 128 threads) computes a BM x BN tile of D:
//   * stage s holds A's BM x BK and B's BN x BK tiles in the canonical 128-byte-swizzled layouts
//     of atom/mma_traits_sm90.hpp (K-major or MN-major after the operand's major), written by TMA
//     boxes of 64 contiguous elements (one swizzle span) and completing on full[s];
//   * thread 0 keeps Stages k-tiles in flight: after the wgmmas of k-tile kt are issued and those of
//     kt-1 have retired (warpgroup_wait<1>), k-tile kt-1+Stages is loaded into kt-1's stage;
//   * per k-tile, BK/16 x BM/64 wgmma m64nBNk16 with descriptors from make_gmma_desc;
//   * the accumulators are partitioned by the tiled MMA of the wgmma atom (partition_C), which
//     gives each thread's (m, n) for the epilogue.
// Step 2's block (1 + BM/64 warpgroups) computes a BM x BN tile: warpgroup 0 drops to 40
// registers and one of its threads loads k-tile kt into stage kt % Stages once empty[stage] says
// the consumers are done with it; consumer warpgroup w (232 registers) owns rows 64 (w-1) ..,
// waits on full[stage], issues BK/16 wgmma m64nBNk16, and after warpgroup_wait<1> releases the
// previous k-tile's stage (one arrival per consumer warpgroup on its empty barrier).
// Step 3's epilogue (gemm_sm90_store_tma): each consumer warpgroup writes its 64 x BN accumulators,
// converted, chunk by chunk (64 rows x 128 bytes) into one of its two shared-memory buffers with
// stmatrix, and one thread stores the chunk with a TMA store; the warpgroup goes on to its next
// tile without waiting for the stores, and reuses a buffer once the store from it has read it. A
// chunk's values (beta C, bias, activation: GemmEpilogue::fragment_values) are computed before the
// wait for its buffer; where the chunk lies inside D, C and bias are read a pair per load.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the launchers, their policy and workspaces
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>
#endif

#include "tessera/algorithm/pipeline.hpp"
#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/arch/util.hpp"
#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/gemm_epilogue.cuh"
#include "tessera/kernels/gemm_problem.hpp"
#include "tessera/tensor/tensor.hpp"

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

// GemmSm90WsConfig<BM, BN, BK, Stages, Persistent>: the warp-specialized kernel's tile; BM/64
// consumer warpgroups of 64 x BN each. Persistent: one block per SM walks the tiles (step 3),
// else one block per tile (step 2).
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
  static_assert(BM % 64 == 0 && BM >= 64 && BM <= 128,
                "GemmSm90WsConfig: BM must be 64 or 128 (one or two consumer warpgroups)");
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

// GemmSm90PingpongConfig<BM, BN, BK, Stages>: persistent, a producer and two consumer warpgroups
// each owning whole BM x BN tiles, taking the block's tiles in turn (step 3c).
template <int BM_, int BN_, int BK_, int Stages_>
struct GemmSm90PingpongConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr bool Persistent = true, Pingpong = true;
  static constexpr int ClusterM = 1;
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

// The wgmma for the input type, N = BN, with the operands' majors.
template <class T, int BN, GmmaMajor MA, GmmaMajor MB>
struct GemmSm90Op;
#define TESSERA_GEMM_SM90_OP(N)                           \
  template <GmmaMajor MA, GmmaMajor MB>                   \
  struct GemmSm90Op<bfloat16_t, N, MA, MB> {              \
    using type = SM90_64x##N##x16_F32BF16BF16_SS<MA, MB>; \
  };                                                      \
  template <GmmaMajor MA, GmmaMajor MB>                   \
  struct GemmSm90Op<half_t, N, MA, MB> {                  \
    using type = SM90_64x##N##x16_F32F16F16_SS<MA, MB>;   \
  };
TESSERA_GEMM_SM90_OP(64)
TESSERA_GEMM_SM90_OP(128)
TESSERA_GEMM_SM90_OP(192)
TESSERA_GEMM_SM90_OP(256)
#undef TESSERA_GEMM_SM90_OP

// The stage layout of an operand tile (BP x BK), (p,k) -> element offset, without its swizzle:
// K-major: rows of 64 K-elements; MN-major: K-rows of 64 P-elements, the K groups of one 64-wide
// P chunk consecutive (what one TMA box of 64 x BK writes).
template <int BP, int BK, bool KMajor>
TESSERA_HOST_DEVICE constexpr auto gemm_sm90_stage_layout() {
  if constexpr (KMajor) {
    return tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<Int<BP>, Int<BK>>{});
  } else {
    return tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<Int<BP>, Int<BK>>{}, LayoutRight{});
  }
}

// The shared-memory box of one TMA load of an operand tile (BP x BK) as TMA writes it (the stage
// layout with its 128-byte swizzle, copy_traits_sm90_tma.cuh): K-major, BP rows of 64 K-elements
// (the whole tile, or a cluster block's share of its rows); MN-major, one 64-wide P chunk of BK
// K-rows. The host builds the tensor maps from these, the kernel's descriptors from the same stage
// layouts.
template <int BP, int BK, bool KMajor>
TESSERA_HOST_DEVICE constexpr auto gemm_sm90_load_box() {
  return make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, gemm_sm90_stage_layout<(KMajor ? BP : 64), BK, KMajor>());
}

// The shared-memory box of one TMA store of the epilogue: 64 rows x 128 bytes of D, row-major,
// 128-byte swizzled ((64, 64) of 16-bit elements, (64, 32) of fp32), (row, column) -> element offset.
template <class TOut>
TESSERA_HOST_DEVICE constexpr auto gemm_sm90_epilogue_box() {
  constexpr int CW = 128 / int(sizeof(TOut));
  constexpr int M = sizeof(TOut) == 2 ? 3 : 2;  // 16-byte units
  return make_composed_layout(Swizzle<3, M, 3>{}, _0{}, Layout<Shape<_64, Int<CW>>, Stride<Int<CW>, _1>>{});
}

// The bytes of one stage (A's BM x BK and B's BN x BK tiles): what its full barrier waits for.
template <class Cfg, class T>
inline constexpr std::uint32_t kGemmSm90StageBytes = std::uint32_t((Cfg::BM + Cfg::BN) * Cfg::BK * sizeof(T));

// The kernels' TMA atoms: A's tile (BM x BK) and B's (BN x BK, a cluster block's share of it when
// ClusterM > 1, multicast) in the boxes of gemm_sm90_load_box; D in the epilogue's boxes.
template <class Cfg, class T, bool KMajor>
using GemmSm90TmaA = TmaCopy<SM90_TMA_LOAD, T, decltype(gemm_sm90_load_box<Cfg::BM, Cfg::BK, KMajor>())>;
template <class Cfg, class T, bool KMajor, int CM = 1>
using GemmSm90TmaB = TmaCopy<std::conditional_t<(CM > 1), SM90_TMA_LOAD_MULTICAST, SM90_TMA_LOAD>, T,
                             decltype(gemm_sm90_load_box<Cfg::BN / CM, Cfg::BK, KMajor>())>;
template <class TOut>
using GemmSm90TmaD = TmaCopy<SM90_TMA_STORE, TOut, decltype(gemm_sm90_epilogue_box<TOut>())>;

// One thread: k-tile kt of the block (bm, bn) into the stage (a, b), completing on `bar` (which
// expects kGemmSm90StageBytes: TmaPipeline::producer_expect). tma_partition cuts each stage tile
// into the atoms' boxes (one K-major box, or 64-wide chunks of an MN-major tile). With a cluster
// (CM > 1) the block loads only its share of B's boxes, multicast to every block of the cluster;
// its barrier still expects the whole stage.
template <class Cfg, class T, bool AKMajor, bool BKMajor, int CM = 1>
__device__ void gemm_sm90_load_stage(GemmSm90TmaA<Cfg, T, AKMajor> const& tma_a,
                                     GemmSm90TmaB<Cfg, T, BKMajor, CM> const& tma_b, std::uint64_t* bar, T* a, T* b,
                                     int kt, int bm, int bn, int M, int N, int K, std::uint32_t rank = 0) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  auto const gA = local_tile(tma_a.get_tma_tensor(make_shape(M, K)), Shape<Int<BM>, Int<BK>>{},
                             make_coord(bm, kt));  // (BM,BK) -> (m,k)
  auto const gB = local_tile(tma_b.get_tma_tensor(make_shape(N, K)), Shape<Int<BN>, Int<BK>>{},
                             make_coord(bn, kt));                                            // (BN,BK) -> (n,k)
  auto const sA = make_tensor(make_smem_ptr(a), gemm_sm90_stage_layout<BM, BK, AKMajor>());  // (BM,BK) -> smem
  auto const sB = make_tensor(make_smem_ptr(b), gemm_sm90_stage_layout<BN, BK, BKMajor>());  // (BN,BK) -> smem
  auto const [tAgA, tAsA] = tma_partition(tma_a, sA, gA);                                    // (BOX,BOXES)
  copy(tma_a.with(bar), tAgA, tAsA);
  if constexpr (CM > 1) {
    auto const [tBgB, tBsB] = tma_partition(tma_b, sB, gB, int(rank), Int<CM>{});  // (BOX,BOXES/CM): this block's share
    copy(tma_b.with(bar, std::uint16_t((1u << CM) - 1)), tBgB, tBsB);
  } else {
    auto const [tBgB, tBsB] = tma_partition(tma_b, sB, gB);
    copy(tma_b.with(bar), tBgB, tBsB);
  }
}

// The epilogue of one thread's accumulators from registers: acc[v] is value v of the thread's
// partition tCcD (v) -> (m, n) of D's coordinates; values 2j and 2j+1 are neighbouring columns of
// one row (the wgmma accumulator layout), stored as one pair (GemmEpilogue::store_pair); only
// elements inside D are stored.
template <int NV, class TOut, class Coords>
__device__ __forceinline__ void gemm_sm90_store(float const (&acc)[NV], Coords const& tCcD, int M, int N,
                                                GemmEpilogue<TOut> const& ep) {
  ep.template store<NV>([&](int v) { return acc[v]; }, [&](int v) { return tCcD(v); }, M, N);
}

// The epilogue through shared memory: a warpgroup's accumulators, MBLK tiles of 64 x BN at rows
// m0 + 64 i, columns n0 .., are written step by step into the warpgroup's two 8 KB buffers (`buf`),
// each holding one TMA box of 64 rows x 128 bytes (64 columns of a 16-bit TOut, 32 of fp32) in the
// box's 128-byte-swizzled layout (gemm_sm90_epilogue_box), and stored by one TMA store per box; the
// TMA clips what lies outside D. A step is 64 columns: one box of a 16-bit TOut (written by
// stmatrix.x4, 16 x 16 elements a warp; the buffers alternate) or two boxes of fp32 (8-byte
// stores; both buffers). The stores run on while the warpgroup goes on (to the next tile's main
// loop); a buffer is rewritten only once the store issued from it has read it (`count`: steps this
// warpgroup has stored so far). lt: the thread's index in the warpgroup; bar_id: a named barrier of
// the warpgroup's 128 threads. The steps are one loop of few iterations that the compiler unrolls
// (the accumulators must be indexed by constants: a run-time index would put them in local memory).
// Accumulator fragment (wgmma m64nN, fp32): value 4j + r of lane l in warp w of the warpgroup is
// (row 16 w + l/4 + 8 (r/2), column 8 j + 2 (l%4) + r%2) of the 64 x N tile (the CLayout of
// atom/mma_traits_sm90.hpp).
template <class TOut, int MBLK, int BN, bool Lean = false>
__device__ __forceinline__ void gemm_sm90_store_tma(float const (&acc)[MBLK][BN / 2], GemmEpilogue<TOut> const& ep,
                                                    GemmSm90TmaD<TOut> const& tma_d, unsigned char* buf, int m0, int n0,
                                                    int M, int N, int lt, std::uint32_t bar_id, int& count) {
  constexpr int CW = 128 / int(sizeof(TOut));   // columns of a box
  constexpr int P = sizeof(TOut) == 2 ? 1 : 2;  // boxes a step
  constexpr int SW = CW * P;                    // columns of a step: 64
  static_assert(SW == 64 && BN % SW == 0, "gemm_sm90_store_tma: BN must be a multiple of 64");
  constexpr auto box = gemm_sm90_epilogue_box<TOut>();  // (row, column) of a box -> element offset in a buffer
  int const w = lt / 32, l = lt % 32;
  // Step s: rows mr(s) = m0 + 64 i .., columns 64 c .. of the warpgroup's tile (i, c from s); this
  // thread's values are a fragment of 8 column pairs from (m(s), n(s)) (GemmEpilogue's fragment).
  constexpr int Steps = MBLK * (BN / SW);
  auto const mr = [&](int s) { return m0 + 64 * (s / (BN / SW)); };
  auto const m_of = [&](int s) { return mr(s) + 16 * w + l / 4; };
  auto const n_of = [&](int s) { return n0 + 64 * (s % (BN / SW)) + 2 * (l % 4); };
  auto const inside = [&](int s) { return ep.fragment_inside(mr(s), n0 + 64 * (s % (BN / SW)), 64, 64); };
  // How a step's values are computed, one loop each (a register allocation each):
  //   plain  D = alpha acc: each chunk just before it is stored (computing the chunks before the
  //          wait measured slower for this mode: docs/performance/log.md, "The fused epilogue")
  //   lean   GemmEpilogue::values, each chunk just before it is stored (a kernel short of registers:
  //          the ping-pong kernel)
  //   early  fragment_values; a 16-bit TOut loads the step's bias first and computes every chunk
  //          before the wait for the buffer (their loads and arithmetic overlap it), fp32 (twice the
  //          registers) each chunk with its bias just before it is stored
  enum class Mode { plain, lean, early };
  auto const steps = [&](auto mode_tag) {
    constexpr Mode mode = decltype(mode_tag)::value;
    [[maybe_unused]] typename GemmEpilogue<TOut>::Pair bv[8];  // the step's bias (early, 16-bit TOut)
    TESSERA_UNROLL
    for (int step = 0; step < Steps; ++step) {
      int const i = step / (BN / SW), c = step % (BN / SW);
      // 8 values at a time (two column pairs of two rows: chunk bb = values 8 bb .. 8 bb + 7), few
      // registers live beside the accumulators. (The coordinates are computed where they are used:
      // held across the step's barriers they would take registers the ping-pong kernel lacks.)
      auto const chunk = [&](float(&x)[8], int bb) {
        auto const src = [&](int k) { return acc[i][32 * c + 8 * bb + k]; };
        if constexpr (mode == Mode::plain) {
          TESSERA_UNROLL
          for (int k = 0; k < 8; ++k) x[k] = ep.alpha * src(k);
        } else {
          int m = m_of(step), n = n_of(step);  // x[0]'s element
          // lean: the chunk's C and bias addresses are computed here, not all up front (where the
          // ping-pong kernel with a 16-bit TOut had them spill)
          if constexpr (mode == Mode::lean) schedule_here(m, n);
          auto const crd =
              [&](int k) {  // value 32 c + 8 bb + k = 4 j + r: (row 16 w + l/4 + 8 (r/2), column 8 j + 2 (l%4) + r%2)
                return make_coord(m + 8 * (k % 4 / 2), n + 16 * bb + 8 * (k / 4) + k % 2);
              };
          if constexpr (mode == Mode::lean) {
            ep.values(x, src, crd);
          } else if constexpr (sizeof(TOut) == 2) {
            ep.template fragment_values<2>(x, src, crd, m, n + 16 * bb, inside(step), bv, 2 * bb);
          } else {  // fp32: the chunk's own bias, loaded here (a step's would take 16 registers)
            bool const in = inside(step);
            typename GemmEpilogue<TOut>::Pair b2[2];
            if (in) ep.fragment_bias(b2, m, n + 16 * bb);
            ep.template fragment_values<2>(x, src, crd, m, n + 16 * bb, in, b2, 0);
          }
        }
      };
      // A 16-bit TOut: chunks kept converted, as stmatrix's registers: r[4 bb + q] holds matrix q of
      // block bb (rows 8 (q%2) .., columns 8 (q/2) .. of the warp's 16 x 16 block bb: values
      // 8 bb + 4 (q/2) + 2 (q%2) + e).
      [[maybe_unused]] std::uint32_t r[16];
      auto const convert = [&](int bb) {
        if constexpr (sizeof(TOut) == 2) {
          float x[8];
          chunk(x, bb);
          TESSERA_UNROLL
          for (int q = 0; q < 4; ++q) {
            int const k = 4 * (q / 2) + 2 * (q % 2);
            TOut const x0 = from_float<TOut>(x[k]), x1 = from_float<TOut>(x[k + 1]);
            r[4 * bb + q] = std::uint32_t(__builtin_bit_cast(std::uint16_t, x0)) |
                            (std::uint32_t(__builtin_bit_cast(std::uint16_t, x1)) << 16);
          }
        }
      };
      if constexpr (mode == Mode::early && sizeof(TOut) == 2) {
        if (inside(step)) ep.fragment_bias(bv, m_of(step), n_of(step));
        TESSERA_UNROLL
        for (int bb = 0; bb < 4; ++bb) convert(bb);
      }
      unsigned char* b = P == 1 ? buf + (count & 1) * 8192 : buf;
      if (lt == 0) {  // the buffers about to be written have been read by their last stores
        if constexpr (P == 1) {
          if (count >= 2) tma_store_wait_read<1>();
        } else {
          if (count >= 1) tma_store_wait_read<0>();
        }
      }
      named_barrier_sync(bar_id, 128);
      if constexpr (sizeof(TOut) == 2) {
        TESSERA_UNROLL
        for (int bb = 0; bb < 4; ++bb) {  // 16 x 16 blocks of the warp's 16 rows
          if constexpr (mode != Mode::early) convert(bb);
          int const q = l / 8;  // this lane gives the address of row l%8 of matrix q: 8 elements, 16 bytes
          int const row = 16 * w + 8 * (q % 2) + l % 8, col = 16 * bb + 8 * (q / 2);
          auto* dst = reinterpret_cast<uint128_t*>(b + int(box(row, col)) * int(sizeof(TOut)));
          SM90_U32x4_STSM_N::copy(r[4 * bb], r[4 * bb + 1], r[4 * bb + 2], r[4 * bb + 3], *dst);
        }
      } else {
        TESSERA_UNROLL
        for (int bb = 0; bb < 4; ++bb) {  // chunk bb: column blocks j = 2 bb, 2 bb + 1, in box p = j / 4 at g = j % 4
          float x[8];
          chunk(x, bb);
          TESSERA_UNROLL
          for (int k = 0; k < 8; k += 2) {  // values k, k + 1: row 8 h, columns 8 g + 2 (l%4) .. of box p
            int const j = 2 * bb + k / 4, h = k % 4 / 2, p = j / 4, g = j % 4;
            int const row = 16 * w + l / 4 + 8 * h, col = 8 * g + 2 * (l % 4);
            *reinterpret_cast<float2*>(b + p * 8192 + int(box(row, col)) * int(sizeof(TOut))) = float2{x[k], x[k + 1]};
          }
        }
      }
      fence_view_async_shared();  // the writes above are read next by the TMA (async proxy)
      named_barrier_sync(bar_id, 128);
      if (lt == 0) {
        // the step's 64 x 64 of D: P boxes of 64 x CW, 8 KB apart
        using StepLayout =
            Layout<Shape<_64, Shape<Int<CW>, Int<P>>>, Stride<Int<CW>, Stride<_1, Int<8192 / int(sizeof(TOut))>>>>;
        auto const sD = make_tensor(make_smem_ptr(reinterpret_cast<TOut*>(b)), StepLayout{});  // (64,64) -> smem
        auto const gD = local_tile(tma_d.get_tma_tensor(make_shape(M, N)), Shape<_64, _64>{},
                                   make_coord(mr(step) / 64, n0 / SW + c));
        auto const [tDgD, tDsD] = tma_partition(tma_d, sD, gD);  // (BOX,P)
        copy(tma_d, tDsD, tDgD);
        tma_store_commit();
      }
      ++count;
    }
  };
  if (ep.plain) {
    steps(std::integral_constant<Mode, Mode::plain>{});
  } else if constexpr (Lean) {
    steps(std::integral_constant<Mode, Mode::lean>{});
  } else {
    steps(std::integral_constant<Mode, Mode::early>{});
  }
}

// The block's dynamic shared memory: Stages x A (BM x BK), Stages x B (BN x BK), 1024-byte aligned
// (the swizzle atoms' alignment), the epilogue's chunk buffers (Cfg::kEpilogueBytes, 8 KB each), then
// the barriers (gemm_sm90_smem_bytes reserves 2 Stages + 2).
template <class Cfg, class T>
struct GemmSm90Smem {
  static constexpr int kStageA = Cfg::BM * Cfg::BK, kStageB = Cfg::BN * Cfg::BK;  // elements
  static_assert(kStageA * sizeof(T) % 1024 == 0 && kStageB * sizeof(T) % 1024 == 0,
                "GemmSm90Smem: a stage must keep the 1024-byte alignment of the swizzle atoms");
  T* a;
  T* b;
  unsigned char* epilogue;  // Cfg::kEpilogueBytes: 8 KB buffers, two per consumer warpgroup
  std::uint64_t* bars;

  __device__ static GemmSm90Smem carve() {
    extern __shared__ unsigned char gemm_sm90_smem[];
    auto* base = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(gemm_sm90_smem) + 1023) &
                                                  ~std::uintptr_t(1023));
    T* a = reinterpret_cast<T*>(base);
    T* b = a + Cfg::Stages * kStageA;
    auto* epilogue = reinterpret_cast<unsigned char*>(b + Cfg::Stages * kStageB);
    return {a, b, epilogue, reinterpret_cast<std::uint64_t*>(epilogue + Cfg::kEpilogueBytes)};
  }
  __device__ T* stage_a(int s) const { return a + s * kStageA; }
  __device__ T* stage_b(int s) const { return b + s * kStageB; }
  // Consumer warpgroup w's (0-based) two chunk buffers.
  __device__ unsigned char* epilogue_buffers(int w) const { return epilogue + w * 2 * 8192; }
};

// The wgmma accumulators of a warpgroup: MBLK tiles of 64 x BN, BN/2 registers each. Kept in
// registers across the asynchronous wgmmas by warpgroup_fence_operand on every one of them.
template <int MBLK, int BN>
__device__ void gemm_sm90_fence_acc(float (&acc)[MBLK][BN / 2]) {
  TESSERA_UNROLL
  for (int i = 0; i < MBLK; ++i) {
    TESSERA_UNROLL
    for (int j = 0; j < BN / 2; ++j) warpgroup_fence_operand(acc[i][j]);
  }
}

// One k-tile of a warpgroup's wgmmas, committed as one batch: for each k-block of 16 and each of
// the MBLK row blocks (rows row0 + 64 i of the stage's A), acc[i] (+)= A_i B. `first`: the
// accumulators are overwritten by the first k-block (scale-d = 0) instead of being zeroed before,
// which would make ptxas serialize the wgmmas (warning C7515). a_stage, b_stage: the stage's
// shared-window byte addresses.
template <class Op, GmmaMajor MA, GmmaMajor MB, int BK, int BN, int MBLK, class LA, class LB>
__device__ void gemm_sm90_mma_ktile(float (&acc)[MBLK][BN / 2], std::uint32_t a_stage, std::uint32_t b_stage,
                                    LA const& sA_layout, LB const& sB_layout, int row0, bool first) {
  gemm_sm90_fence_acc<MBLK, BN>(acc);
  warpgroup_arrive();
  TESSERA_UNROLL
  for (int kb = 0; kb < BK / 16; ++kb) {
    std::uint64_t const db = make_gmma_desc<MB, BN>(b_stage, sB_layout, 0, 16 * kb);
    TESSERA_UNROLL
    for (int i = 0; i < MBLK; ++i) {
      std::uint64_t const da = make_gmma_desc<MA, 64>(a_stage, sA_layout, row0 + 64 * i, 16 * kb);
      Op::fma(da, db, acc[i], first && kb == 0 ? GmmaScale::zero : GmmaScale::one);
    }
  }
  warpgroup_commit_batch();
  gemm_sm90_fence_acc<MBLK, BN>(acc);
}

// ---- stream-K (step 3d) ----------------------------------------------------------------------
// With T tiles on G persistent blocks, T % G tiles make a last wave that leaves SMs idle (at 4096^3
// with 128x256 tiles: 512 tiles on 132 SMs, 3.88 waves run as 4). Stream-K hands the k-tiles of
// the last S tiles out evenly: the S tiles' k-tiles, in tile order, form one range of S * KT
// iterations, and block b takes iterations [S KT b / G, S KT (b + 1) / G). A block's range starts
// in one tile and may end in a later one, so a tile's iterations may be split over consecutive
// blocks: the block holding the tile's k-tile 0 owns it (its last piece of work); each other block
// holding part of it (its first piece of work, which starts inside the tile) writes its fp32
// accumulators to a workspace slot of its own and raises its flag; the owner waits for those
// flags, adds the partial sums to its accumulators and runs the epilogue. Every block does its
// stream-K work first, then its whole tiles (tiles S + b, S + b + G, ...), so that the waits fall
// in the middle of the run and every block ends on whole tiles.
//
#if !defined(__CUDACC_RTC__)  // host only: gemm_sm90's choice of kernel
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

// gemm_sm90_stream_k_tiles(tiles, k_tiles, units): S, the tiles shared out (0: none). A block's
// share is kept at half a tile or more (a tile then has at most three pieces and its owner adds at
// most two partial sums): S = T % G when that is at least G / 2, else T % G + G (one whole wave
// more) when T >= 2 G, else T (fewer than 1.5 G tiles). None when the tiles divide into whole
// waves, when there are fewer tiles than blocks, or when K has fewer than 4 k-tiles (the fix-up
// would cost more than it saves), or when S k-tiles would not count in an int.
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
// (writing and reading partial sums) costs; with whole waves 97 % busy (4096^3, 6144^3 on 132
// SMs) the fix-up loses (measured on an H200: docs/performance/log.md, "Step 3d, stream-K").
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
// its two consumer warpgroups overlap one tile's stores with the other's multiplies; that beat
// stream-K's fix-up on most such shapes, by far on two that are not squares; at six waves stream-K
// won (measured on an H200: docs/performance/log.md, "The ping-pong kernel for few partial waves").
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
// waves best wins; 128x192 tiles lost where 128x128 tiles fill more, and where they fill under 95 %
// to stream-K (measured on an H200: docs/performance/log.md, "128x192 tiles", 2026-11-24).
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
#endif  // !__CUDACC_RTC__

// One piece of a block's work: k-tiles [k0, k1) of tile `tile` (the raster index).
struct GemmSm90Work {
  int tile, k0, k1;
};

// The work of block `unit` of `units` (gemm_sm90_stream_k_tiles's split; sk_tiles = 0: whole tiles
// unit, unit + units, ...): for_each(f) calls f(GemmSm90Work, phase) for each piece in the order
// the block does it, in two loops: its stream-K pieces (phase std::true_type), then its whole tiles
// (std::false_type). A kernel's loop body is compiled once for each: the whole-tile copy carries no
// stream-K code or state.
// begin(u): the first stream-K iteration of block u (iteration i is k-tile i % k_tiles of tile
// i / k_tiles).
struct GemmSm90Schedule {
  int tiles, k_tiles, units, unit, sk_tiles;

  TESSERA_HOST_DEVICE int begin(int u) const { return int((long long)sk_tiles * k_tiles * u / units); }
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // f may be a host-only function object (the host tests' lambdas)
#endif
  template <class F>
  TESSERA_HOST_DEVICE void for_each(F&& f) const {
    int const end = begin(unit + 1);
    for (int it = begin(unit); it < end;) {
      int const t = it / k_tiles, t0 = t * k_tiles;
      int const e = end < t0 + k_tiles ? end : t0 + k_tiles;
      f(GemmSm90Work{t, it - t0, e - t0}, std::true_type{});
      it = e;
    }
    for (int tile = sk_tiles + unit; tile < tiles; tile += units) f(GemmSm90Work{tile, 0, k_tiles}, std::false_type{});
  }
  // Whether w is a partial piece that this block owns (k-tile 0 of a tile split over blocks) or
  // one that it hands to the owner (starting inside the tile).
  TESSERA_HOST_DEVICE static bool owns_split(GemmSm90Work const& w, int k_tiles) { return w.k0 == 0 && w.k1 < k_tiles; }
  TESSERA_HOST_DEVICE static bool contributes(GemmSm90Work const& w) { return w.k0 > 0; }
  // The blocks that hand parts of tile t to its owner (this block): u = unit + 1, ... while their
  // ranges start inside t, skipping empty ranges. for_each_contributor(f) calls f(u) for each.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // f may be a host-only function object (the host tests' lambdas)
#endif
  template <class F>
  TESSERA_HOST_DEVICE void for_each_contributor(int t, F&& f) const {
    int const t_end = (t + 1) * k_tiles;
    for (int u = unit + 1; u < units && begin(u) < t_end; ++u)
      if (begin(u + 1) > begin(u)) f(u);
  }
};

// What a stream-K launch passes its blocks: the workspace (a slot of fp32 partial sums, kConsumers
// x 128 x BN/2 values, and a flag per consumer warpgroup, for each block), the launch's epoch
// (the value a flag is raised to: never 0, new for each launch), and the tiles shared out.
struct GemmSm90StreamK {
  float* partials = nullptr;
  std::uint32_t* flags = nullptr;
  std::uint32_t epoch = 0;
  int tiles = 0;
};

// Programmatic dependent launch (gemm_sm90_dependent_launch_enabled: the persistent kernels'
// launches): a kernel's set-up (shared-memory carve-up, barrier initialization, the descriptors'
// prefetch) may run while the stream's previous grid finishes; every thread waits for that grid
// here, before any access of global memory. The producer lets the stream's next grid launch once
// it has issued its last load (grid_dependents_launch): that grid's blocks take SMs only as this
// grid's blocks leave, and wait for this grid's completion themselves. A no-op in a grid launched
// without the attribute.
__device__ __forceinline__ void gemm_sm90_dependent_launch() { grid_dependency_wait(); }

template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(128, 1)
    gemm_sm90_kernel(int M, int N, int K, GemmEpilogue<TOut> const ep,
                     __grid_constant__ GemmSm90TmaA<Cfg, T, AKMajor> const tma_a,
                     __grid_constant__ GemmSm90TmaB<Cfg, T, BKMajor> const tma_b) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages;
  constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
  constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
  using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, AKMajor>();  // (BM,BK) -> offset
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, BKMajor>();  // (BN,BK) -> offset
  constexpr int kStageA = BM * BK, kStageB = BN * BK;                    // elements
  constexpr int MB_ = BM / 64;                                           // wgmmas along M

  int const tid = int(threadIdx.x);
  int const tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  int bm = 0, bn = 0;
  gemm_block_coord(int(blockIdx.x), tiles_m, tiles_n, bm, bn);
  int const k_tiles = (K + BK - 1) / BK;

  // ---- shared memory: Stages x (A, B) and the ring's barriers -----------------------------------
  // The one warpgroup both loads and multiplies: thread 0 refills a stage once a block barrier says
  // every warp is past the wgmmas that read it, so the ring's full barriers are used and its empty
  // ones are not (an arrival and a wait on them per k-tile, in the warp that also issues the
  // wgmmas, measured much slower: docs/performance/log.md, "Figures moved from code comments").
  auto const sm = GemmSm90Smem<Cfg, T>::carve();
  TmaPipeline<Stages> const pipe{sm.bars};
  if (tid == 0) {
    tma_prefetch_desc(tma_a.get_tma_descriptor());
    tma_prefetch_desc(tma_b.get_tma_descriptor());
    pipe.init(1);
  }
  __syncthreads();
  gemm_sm90_dependent_launch();

  // Thread 0: k-tile kt into its stage (free: see above).
  auto load = [&](int kt) {
    auto const st = PipelineState<Stages>::at(kt);
    std::uint64_t* bar = pipe.producer_expect(st, kGemmSm90StageBytes<Cfg, T>);
    gemm_sm90_load_stage<Cfg, T, AKMajor, BKMajor>(tma_a, tma_b, bar, sm.stage_a(st.index), sm.stage_b(st.index), kt,
                                                   bm, bn, M, N, K);
  };
  if (tid == 0) {
    for (int kt = 0; kt < Stages && kt < k_tiles; ++kt) load(kt);
  }

  // ---- the accumulators: BM/64 wgmma tiles of 64 x BN, BN/2 registers each -------------------
  float acc[MB_][BN / 2];  // not initialized: the first k-block overwrites them
  std::uint32_t const a_base = smem_address(sm.a), b_base = smem_address(sm.b);

  // ---- main loop -----------------------------------------------------------------------------
  PipelineState<Stages> st;
  for (int kt = 0; kt < k_tiles; ++kt, ++st) {
    pipe.consumer_wait(st);
    gemm_sm90_mma_ktile<Op, MA, MB, BK, BN>(acc, a_base + std::uint32_t(st.index * kStageA * sizeof(T)),
                                            b_base + std::uint32_t(st.index * kStageB * sizeof(T)), sA_layout,
                                            sB_layout, 0, kt == 0);
    warpgroup_wait<1>();  // k-tile kt-1's wgmmas have retired: its stage may be refilled
    if (kt >= 1 && kt - 1 + Stages < k_tiles) {
      __syncthreads();  // every warp of the warpgroup is past its wait
      if (tid == 0) load(kt - 1 + Stages);
    }
  }
  warpgroup_wait<0>();
  gemm_sm90_fence_acc<MB_, BN>(acc);

  // ---- epilogue: D = act(alpha acc + beta C + bias), each thread its (m, n) from the tiled MMA --
  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  auto thr_mma = mma.get_slice(tid);
  auto cD = make_identity_tensor(make_shape(M, N));                                 // (M,N) -> (m,n)
  auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));  // (BM,BN) -> (m,n)
  auto tCcD = thr_mma.partition_C(gcD);                                             // (V,MB_,1) -> (m,n)
  static_assert(decltype(size<0>(tCcD.layout()))::value == BN / 2 && decltype(size<1>(tCcD.layout()))::value == MB_,
                "gemm_sm90_kernel: the tiled MMA's partition of C must match the wgmma accumulators");
  TESSERA_UNROLL
  for (int mi = 0; mi < MB_; ++mi) gemm_sm90_store(acc[mi], tCcD(_, mi, 0), M, N, ep);
}

// Stream-K's hand-over (GemmSm90Schedule): a contributing warpgroup writes its accumulators
// (BN/2 values a thread) into its slot, value 4 q + e of thread lt at float4 q * 128 + lt (each
// store instruction of the warpgroup writes 2 KB contiguously), meets its threads at barrier
// bar_id, and one thread raises the flag to the launch's epoch (release: the warpgroup's stores
// are visible before it). The owner's warpgroup waits for the flag (acquire), lowers it again for
// the next launch, and adds the slot to its accumulators (loads that bypass L1: the slot was
// written by another SM).
template <int NV>
__device__ __forceinline__ void gemm_sm90_stream_k_publish(float const (&acc)[NV], float* slot, std::uint32_t* flag,
                                                           std::uint32_t epoch, int lt, std::uint32_t bar_id) {
  static_assert(NV % 4 == 0, "gemm_sm90_stream_k_publish: whole float4s");
  auto* dst = reinterpret_cast<float4*>(slot);
  TESSERA_UNROLL
  for (int q = 0; q < NV / 4; ++q)
    __stcg(dst + q * 128 + lt, make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]));
  named_barrier_sync(bar_id, 128);
  if (lt == 0) store_release_gpu(flag, epoch);
}
template <int NV>
__device__ __forceinline__ void gemm_sm90_stream_k_add(float (&acc)[NV], float const* slot, std::uint32_t* flag,
                                                       std::uint32_t epoch, int lt, std::uint32_t bar_id) {
  if (lt == 0) {
    while (load_acquire_gpu(flag) != epoch) __nanosleep(64);
    store_release_gpu(flag, 0u);
  }
  named_barrier_sync(bar_id, 128);
  auto const* src = reinterpret_cast<float4 const*>(slot);
  TESSERA_UNROLL
  for (int q = 0; q < NV / 4; ++q) {
    // At most 8 loads in flight (32 registers beside the accumulators): the compiler may not move
    // loads across the empty asm, which would otherwise issue them all first and spill.
    if (q % 8 == 0) asm volatile("" ::: "memory");
    float4 const v = __ldcg(src + q * 128 + lt);
    acc[4 * q] += v.x;
    acc[4 * q + 1] += v.y;
    acc[4 * q + 2] += v.z;
    acc[4 * q + 3] += v.w;
  }
}

// Step 2: warp-specialized (see the file comment). Block: 128 (1 + BM/64) threads. tma_store_d: the
// consumers store D through shared memory and TMA (gemm_sm90_store_tma: configs with epilogue
// buffers, where D is TMA-addressable), else from registers (a run-time choice: one kernel, not
// two, to compile). raster: the rows of tiles per raster group (gemm_block_coord; the launcher's
// choice is gemm_sm90_raster_rows).
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_sm90_ws_kernel(int M, int N, int K, GemmEpilogue<TOut> const ep,
                        __grid_constant__ GemmSm90TmaA<Cfg, T, AKMajor> const tma_a,
                        __grid_constant__ GemmSm90TmaB<Cfg, T, BKMajor, Cfg::ClusterM> const tma_b,
                        __grid_constant__ GemmSm90TmaD<TOut> const tma_d, bool const tma_store_d, int const raster,
                        GemmSm90StreamK const sk) {
  constexpr bool TmaStoreD = Cfg::kEpilogueBytes > 0;  // whether the kernel has the TMA-store path
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages, kConsumers = Cfg::kConsumers;
  constexpr int CM = Cfg::ClusterM;
  constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
  constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
  using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, AKMajor>();
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, BKMajor>();
  constexpr int kStageA = BM * BK, kStageB = BN * BK;
  static_assert(!TmaStoreD || Cfg::kEpilogueBytes >= kConsumers * 2 * 8192,
                "gemm_sm90_ws_kernel: too little shared memory for the TMA-store epilogue");

  int const tid = int(threadIdx.x);
  int const warpgroup = tid / 128;
  // Tiles of CM x 1 blocks: the cluster's blocks take rows bm = CM bmc + rank (a block past the
  // last row reads zeros and stores nothing, but still loads its share of B for the others).
  std::uint32_t const rank = CM > 1 ? cluster_ctarank() : 0u;
  int const tiles_m = (M + BM - 1) / BM, tiles_mc = (tiles_m + CM - 1) / CM, tiles_n = (N + BN - 1) / BN;
  int const tiles = tiles_mc * tiles_n;
  int const first_tile = int(blockIdx.x) / CM, tile_step = int(gridDim.x) / CM;
  int const k_tiles = (K + BK - 1) / BK;
  // The block's work: whole tiles first_tile, first_tile + tile_step, ..., after its share of the
  // stream-K iterations (Cfg::StreamK).
  GemmSm90Schedule const sched{tiles, k_tiles, tile_step, first_tile, Cfg::StreamK ? sk.tiles : 0};

  // The ring: full[s] on the producer's loads, empty[s] on one arrival per consumer warpgroup of
  // every block of the cluster (the multicast writes into all of them).
  auto const sm = GemmSm90Smem<Cfg, T>::carve();
  TmaPipeline<Stages, CM> const pipe{sm.bars};
  if (tid == 0) {
    tma_prefetch_desc(tma_a.get_tma_descriptor());
    tma_prefetch_desc(tma_b.get_tma_descriptor());
    if (TmaStoreD && tma_store_d) tma_prefetch_desc(tma_d.get_tma_descriptor());
    pipe.init(kConsumers);
  }
  if constexpr (CM > 1) {
    cluster_sync();  // the peers' barriers are initialized before any multicast or remote arrival
  } else {
    __syncthreads();
  }
  gemm_sm90_dependent_launch();

  // The ring runs on across the block's tiles: its i-th k-tile (over all tiles) is
  // PipelineState::at(i).
  if (warpgroup == 0) {
    // ---- producer: runs ahead into the next tile while the consumers store the last ----------
    warpgroup_reg_dealloc<40>();
    if (tid == 0) {
      PipelineState<Stages> st;
      sched.for_each([&](GemmSm90Work const& w, auto) {
        int bmc = 0, bn = 0;
        gemm_block_coord(w.tile, tiles_mc, tiles_n, bmc, bn, raster);
        int const bm = bmc * CM + int(rank);
        for (int kt = w.k0; kt < w.k1; ++kt, ++st) {
          pipe.producer_acquire(st);
          std::uint64_t* bar = pipe.producer_expect(st, kGemmSm90StageBytes<Cfg, T>);
          gemm_sm90_load_stage<Cfg, T, AKMajor, BKMajor, CM>(tma_a, tma_b, bar, sm.stage_a(st.index),
                                                             sm.stage_b(st.index), kt, bm, bn, M, N, K, rank);
        }
      });
      grid_dependents_launch();  // the block's last load is issued (gemm_sm90_dependent_launch)
    }
  } else {
    // ---- consumers: warpgroup w owns rows 64 (w - 1) .. 64 w - 1 of each tile ----------------
    warpgroup_reg_alloc<232>();
    int const row0 = 64 * (warpgroup - 1);
    int const lt = tid % 128;  // the thread in its warpgroup
    float acc[1][BN / 2];      // not initialized: each tile's first k-block overwrites them
    std::uint32_t const a_base = smem_address(sm.a), b_base = smem_address(sm.b);
    auto mma = make_tiled_mma(MMA_Atom<Op>{}, Layout<Shape<Int<kConsumers>, _1, _1>>{});
    auto thr_mma = mma.get_slice(tid - 128);
    auto cD = make_identity_tensor(make_shape(M, N));
    int stored = 0;  // chunks this warpgroup has stored through TMA
    PipelineState<Stages> st, prev;
    // (The piece's body is inlined into both of for_each's loops: a call would put acc in local memory.)
    sched.for_each([&](GemmSm90Work const& w, auto phase) __attribute__((always_inline)) {
      constexpr bool sk_phase = Cfg::StreamK && decltype(phase)::value;
      int bmc = 0, bn = 0;
      gemm_block_coord(w.tile, tiles_mc, tiles_n, bmc, bn, raster);
      int const bm = bmc * CM + int(rank);
      for (int kt = w.k0; kt < w.k1; ++kt) {
        pipe.consumer_wait(st);
        gemm_sm90_mma_ktile<Op, MA, MB, BK, BN>(acc, a_base + std::uint32_t(st.index * kStageA * sizeof(T)),
                                                b_base + std::uint32_t(st.index * kStageB * sizeof(T)), sA_layout,
                                                sB_layout, row0, kt == w.k0);
        warpgroup_wait<1>();  // the previous k-tile's wgmmas have retired: release its stage
        if (kt > w.k0 && lt == 0) pipe.consumer_release(prev);
        prev = st;
        ++st;
      }
      warpgroup_wait<0>();
      gemm_sm90_fence_acc<1, BN>(acc);
      if (lt == 0) pipe.consumer_release(prev);  // the piece's last stage

      if constexpr (sk_phase) {  // a tile split over blocks: hand this part over, or add the others'
        auto const slot = [&](int u) {
          return sk.partials + (std::size_t(u) * kConsumers + std::size_t(warpgroup - 1)) * (128 * BN / 2);
        };
        auto const flag = [&](int u) { return sk.flags + (u * kConsumers + warpgroup - 1); };
        if (GemmSm90Schedule::contributes(w)) {
          gemm_sm90_stream_k_publish(acc[0], slot(first_tile), flag(first_tile), sk.epoch, lt,
                                     std::uint32_t(warpgroup));
          return;
        }
        if (GemmSm90Schedule::owns_split(w, k_tiles))
          sched.for_each_contributor(w.tile, [&](int u) {
            gemm_sm90_stream_k_add(acc[0], slot(u), flag(u), sk.epoch, lt, std::uint32_t(warpgroup));
          });
      }

      // ---- epilogue (the producer is already loading the next tile) -----------------------------
      auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));
      auto tCcD = thr_mma.partition_C(gcD);  // (V,1,1) -> (m,n)
      static_assert(decltype(size(tCcD.layout()))::value == BN / 2,
                    "gemm_sm90_ws_kernel: the tiled MMA's partition of C must match the wgmma accumulators");
      // (The stream-K copy computes each chunk's values just before its store, Lean: fewer registers
      // live beside its schedule.)
      if (TmaStoreD && tma_store_d) {
        if constexpr (TmaStoreD)
          gemm_sm90_store_tma<TOut, 1, BN, sk_phase>(acc, ep, tma_d, sm.epilogue_buffers(warpgroup - 1), bm * BM + row0,
                                                     bn * BN, M, N, lt, std::uint32_t(warpgroup), stored);
      } else {
        gemm_sm90_store(acc[0], tCcD(_, 0, 0), M, N, ep);
      }
    });
    // Before the block exits (and its shared memory goes), the last stores have read their
    // sources; their writes to D need not be waited for (they are visible when the grid ends).
    if (TmaStoreD && tma_store_d && lt == 0) tma_store_wait_read<0>();
  }
  // No block of a cluster leaves while a peer may still arrive on its barriers.
  if constexpr (CM > 1) cluster_sync();
}

// Step 3c: ping-pong. The producer loads the block's tiles one after the other through the ring;
// consumer warpgroup w takes the block's tiles j with j % 2 == w - 1, so that while one runs its
// main loop the other stores its last tile. The main loops take turns (turn[w]: the other
// warpgroup has waited for all k-tiles of the block's previous tile): a warpgroup that skipped a
// tile must not wait on a stage's full barrier two phases ahead, where the barrier's parity
// would answer for the wrong phase. tma_store_d and raster as for gemm_sm90_ws_kernel.
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(384, 1)
    gemm_sm90_pingpong_kernel(int M, int N, int K, GemmEpilogue<TOut> const ep,
                              __grid_constant__ GemmSm90TmaA<Cfg, T, AKMajor> const tma_a,
                              __grid_constant__ GemmSm90TmaB<Cfg, T, BKMajor> const tma_b,
                              __grid_constant__ GemmSm90TmaD<TOut> const tma_d, bool const tma_store_d,
                              int const raster) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages;
  constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
  constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
  using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, AKMajor>();
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, BKMajor>();
  constexpr int kStageA = BM * BK, kStageB = BN * BK;
  constexpr int MB_ = BM / 64;

  int const tid = int(threadIdx.x);
  int const warpgroup = tid / 128;
  int const tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tiles = tiles_m * tiles_n;
  int const k_tiles = (K + BK - 1) / BK;

  auto const sm = GemmSm90Smem<Cfg, T>::carve();
  TmaPipeline<Stages> const pipe{sm.bars};  // empty[s]: the one consumer warpgroup that used the stage
  std::uint64_t* turn = sm.bars + TmaPipeline<Stages>::kBarriers;  // turn[w]: warpgroup w may start its next main loop
  if (tid == 0) {
    tma_prefetch_desc(tma_a.get_tma_descriptor());
    tma_prefetch_desc(tma_b.get_tma_descriptor());
    if (tma_store_d) tma_prefetch_desc(tma_d.get_tma_descriptor());
    pipe.init(1);
    mbarrier_init(&turn[0], 1);
    mbarrier_init(&turn[1], 1);
    fence_barrier_init();
  }
  __syncthreads();
  gemm_sm90_dependent_launch();

  if (warpgroup == 0) {
    warpgroup_reg_dealloc<40>();
    if (tid == 0) {
      PipelineState<Stages> st;
      for (int tile = int(blockIdx.x); tile < tiles; tile += int(gridDim.x)) {
        int bm = 0, bn = 0;
        gemm_block_coord(tile, tiles_m, tiles_n, bm, bn, raster);
        for (int kt = 0; kt < k_tiles; ++kt, ++st) {
          pipe.producer_acquire(st);
          std::uint64_t* bar = pipe.producer_expect(st, kGemmSm90StageBytes<Cfg, T>);
          gemm_sm90_load_stage<Cfg, T, AKMajor, BKMajor>(tma_a, tma_b, bar, sm.stage_a(st.index), sm.stage_b(st.index),
                                                         kt, bm, bn, M, N, K);
        }
      }
      grid_dependents_launch();  // the block's last load is issued (gemm_sm90_dependent_launch)
    }
  } else {
    warpgroup_reg_alloc<232>();
    int const me = warpgroup - 1;  // 0 or 1
    int const lt = tid % 128;
    float acc[MB_][BN / 2];  // not initialized: each tile's first k-block overwrites them
    std::uint32_t const a_base = smem_address(sm.a), b_base = smem_address(sm.b);
    auto mma = make_tiled_mma(MMA_Atom<Op>{});
    auto thr_mma = mma.get_slice(lt);
    auto cD = make_identity_tensor(make_shape(M, N));
    int j = me;  // the block's tile index
    std::uint32_t turns = 0;
    int stored = 0;
    for (int tile = int(blockIdx.x) + me * int(gridDim.x); tile < tiles; tile += 2 * int(gridDim.x), j += 2) {
      int bm = 0, bn = 0;
      gemm_block_coord(tile, tiles_m, tiles_n, bm, bn, raster);
      if (j >= 1) mbarrier_wait(&turn[me], (turns++) & 1);  // the other's main loop of tile j-1 is past its waits
      auto st = PipelineState<Stages>::at(j * k_tiles);     // the ring's position of this tile's first k-tile
      PipelineState<Stages> prev;
      for (int kt = 0; kt < k_tiles; ++kt) {
        pipe.consumer_wait(st);
        gemm_sm90_mma_ktile<Op, MA, MB, BK, BN>(acc, a_base + std::uint32_t(st.index * kStageA * sizeof(T)),
                                                b_base + std::uint32_t(st.index * kStageB * sizeof(T)), sA_layout,
                                                sB_layout, 0, kt == 0);
        warpgroup_wait<1>();
        if (kt >= 1 && lt == 0) pipe.consumer_release(prev);
        prev = st;
        ++st;
      }
      if (lt == 0) mbarrier_arrive(&turn[1 - me]);  // the other warpgroup's turn
      warpgroup_wait<0>();
      gemm_sm90_fence_acc<MB_, BN>(acc);
      if (lt == 0) pipe.consumer_release(prev);

      auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));
      auto tCcD = thr_mma.partition_C(gcD);  // (V,MB_,1) -> (m,n)
      if (tma_store_d) {
        gemm_sm90_store_tma<TOut, MB_, BN, true>(acc, ep, tma_d, sm.epilogue_buffers(me), bm * BM, bn * BN, M, N, lt,
                                                 std::uint32_t(1 + me), stored);
      } else {
        // Each value's coordinates computed where they are used (schedule_here), as in the lean
        // path of gemm_sm90_store_tma: computed up front, their addresses spill.
        TESSERA_UNROLL
        for (int mi = 0; mi < MB_; ++mi) {
          auto const crd = tCcD(_, mi, 0);
          auto const coord = [&](int v) {
            int m = get<0>(crd(v)), n = get<1>(crd(v));
            schedule_here(m, n);
            return make_coord(m, n);
          };
          ep.template store<BN / 2>([&](int v) { return acc[mi][v]; }, coord, M, N);
        }
      }
    }
    if (tma_store_d && lt == 0) tma_store_wait_read<0>();  // as in gemm_sm90_ws_kernel
  }
}

template <class Cfg, class T>
constexpr int gemm_sm90_smem_bytes() {
  return Cfg::Stages * (Cfg::BM + Cfg::BN) * Cfg::BK * int(sizeof(T)) + Cfg::kEpilogueBytes +
         (2 * Cfg::Stages + 2) * 8 + 1024;
}

#if !defined(__CUDACC_RTC__)  // host only: the launch, its workspaces and the device queries
// TMA addresses a matrix directly when it starts 16-byte aligned and both its row pitch and its
// row length (the contiguous extent) are multiples of 16 bytes. The row length because a TMA store
// bounds a row in whole 16-byte units: on the H200 a store into a row that ends inside a unit also
// wrote the rest of that unit (the padding after the row); loads are held to the same rule (a
// packed operand's rows are padded with zeros to whole units).
template <class T>
bool gemm_sm90_tma_addressable(T const* p, int ld, int contiguous) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && (std::size_t(ld) * sizeof(T)) % 16 == 0 &&
         (std::size_t(contiguous) * sizeof(T)) % 16 == 0;
}

// Whether the persistent kernels (gemm_sm90's, the ping-pong and cluster kernels) are launched with
// programmatic dependent launch (cudaLaunchAttributeProgrammaticStreamSerialization): their set-up
// overlaps the end of the stream's previous grid, which each of their threads still waits for
// before touching global memory (gemm_sm90_dependent_launch). On unless the environment variable
// TESSERA_GEMM_SM90_PDL is 0 when first asked (read once per process: an A/B switch for
// benchmarks). Pre: none. Example: TESSERA_GEMM_SM90_PDL=0 tessera-bench ... times the launches
// without it.
inline bool gemm_sm90_dependent_launch_enabled() {
  static bool const enabled = [] {
    char const* v = std::getenv("TESSERA_GEMM_SM90_PDL");
    return v == nullptr || std::string(v) != "0";
  }();
  return enabled;
}

// The current device and its SM count, asked of the runtime once per device (every launch needs
// them; the attribute query is not free).
inline cudaError_t gemm_sm90_device(int& device, int& sms) {
  static std::atomic<int> cached[64] = {};  // SM counts of devices 0..63; 0: not asked yet
  if (cudaError_t const e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (device >= 0 && device < 64 && (sms = cached[device].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  if (cudaError_t const e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device); e != cudaSuccess)
    return e;
  if (device >= 0 && device < 64) cached[device].store(sms, std::memory_order_relaxed);
  return cudaSuccess;
}

// The rows of block tiles in a raster group (gemm_block_coord) for `units` tiles in flight (one per
// SM, or per cluster) of bm x bn: a wave then covers about g rows by units / g columns of tiles and
// reads, per k step, g panels of A (bm rows each) and units / g panels of B (bn columns each);
// g = sqrt(units bn / bm) reads the fewest bytes. 132 SMs: 16 for 128x256 tiles (faster than 8 in
// bursts on an H200, the same sustained: docs/performance/log.md, "The raster group"), 11 for
// 128x128, 8 for 2x1 clusters of 128x256.
// Pre: units, bm, bn >= 1. Post: >= 1.
inline int gemm_sm90_raster_rows(int units, int bm, int bn) {
  double const g = std::sqrt(double(units) * double(bn) / double(bm));
  return g < 1.5 ? 1 : int(g + 0.5);
}

// The stream-K workspace of one (device, stream): the partial sums and flags of GemmSm90StreamK,
// allocated on the stream (stream-ordered, flags zeroed) at its first stream-K launch and grown
// when a launch needs more, then kept, as a library handle keeps its workspace: the launches of one
// stream run one after the other, so they can share it; launches on different streams never do.
// A stream is told apart by its id (cudaStreamGetId: unique per stream, also for the per-thread
// default stream and for a handle value that a destroyed stream's successor reuses), not by its
// handle. launch(device, stream, bytes, flags, sk, f) fills sk and calls f() (the kernel launch)
// with the registry locked, so that no other thread grows or frees the workspace between the two.
// Each launch gets a new epoch (never 0): a flag left raised by an earlier launch does not count.
// The owner lowers each flag it consumed. A launch captured into a CUDA graph gets no workspace
// (sk.tiles = 0: the kernel runs without stream-K): the graph may be replayed on another stream,
// beside this stream's own launches. Memory: a workspace per stream that ran a stream-K launch,
// at most kKeep per device: a stream's first launch beyond them frees the workspace of the device's
// least recently launched stream whose launches have completed, or, when all are still running, of
// the least recently launched one (stream-ordered after that stream's last launch, through an event
// recorded after each launch: the stream may have been destroyed since; if it launches again it
// gets a new workspace). All are freed by gemm_sm90_release_workspaces() (which synchronizes each
// device first: not while a graph is being captured). Pre: partial_bytes >= 1, flags >= 1.
struct GemmSm90Workspaces {
  static constexpr int kKeep = 8;
  struct Entry {
    int device;
    unsigned long long stream_id;
    unsigned char* mem;
    std::size_t bytes;
    std::uint32_t epoch;
    cudaEvent_t done;             // recorded after the entry's last launch
    unsigned long long last_use;  // the launch count when it was last used
  };
  std::mutex mutex;
  std::vector<Entry> entries;
  unsigned long long launches = 0;

  // count(device): the workspaces held for a device. Post: 0 <= result <= kKeep.
  // Example: after launches on 3 streams of device 0, count(0) == 3.
  int count(int device) {
    std::lock_guard<std::mutex> lock(mutex);
    return int(std::count_if(entries.begin(), entries.end(), [&](Entry const& x) { return x.device == device; }));
  }

  static GemmSm90Workspaces& get() {
    static GemmSm90Workspaces w;
    return w;
  }
  template <class Launch>
  cudaError_t launch(int device, cudaStream_t stream, std::size_t partial_bytes, int flags, GemmSm90StreamK& sk,
                     Launch&& f) {
    std::size_t const flag_bytes = (std::size_t(flags) * sizeof(std::uint32_t) + 255) / 256 * 256;
    std::size_t const need = flag_bytes + partial_bytes;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaError_t const err = cudaStreamIsCapturing(stream, &capture); err != cudaSuccess) return err;
    if (capture != cudaStreamCaptureStatusNone) {
      sk = GemmSm90StreamK{};
      return f();
    }
    unsigned long long id = 0;
    if (cudaError_t const err = cudaStreamGetId(stream, &id); err != cudaSuccess) return err;
    std::lock_guard<std::mutex> lock(mutex);
    auto find = [&]() -> Entry* {
      for (auto& x : entries)
        if (x.device == device && x.stream_id == id) return &x;
      return nullptr;
    };
    Entry* e = find();
    if (e == nullptr) {
      if (cudaError_t const err = evict_beyond(device, kKeep - 1, stream); err != cudaSuccess) return err;
      cudaEvent_t done = nullptr;
      if (cudaError_t const err = cudaEventCreateWithFlags(&done, cudaEventDisableTiming); err != cudaSuccess)
        return err;
      entries.push_back(Entry{device, id, nullptr, 0, 0, done, 0});
      e = &entries.back();
    }
    if (e->bytes < need) {
      unsigned char* mem = nullptr;
      if (cudaError_t const err = cudaMallocAsync(reinterpret_cast<void**>(&mem), need, stream); err != cudaSuccess)
        return err;
      if (cudaError_t const err = cudaMemsetAsync(mem, 0, flag_bytes, stream); err != cudaSuccess) {
        (void)cudaFreeAsync(mem, stream);
        return err;
      }
      if (e->mem != nullptr) (void)cudaFreeAsync(e->mem, stream);  // after the launches queued on it
      e->mem = mem;
      e->bytes = need;
    }
    if (++e->epoch == 0) e->epoch = 1;
    e->last_use = ++launches;
    sk.flags = reinterpret_cast<std::uint32_t*>(e->mem);
    sk.partials = reinterpret_cast<float*>(e->mem + flag_bytes);
    sk.epoch = e->epoch;
    cudaError_t const launched = f();
    if (launched != cudaSuccess) return launched;
    return cudaEventRecord(e->done, stream);
  }

  // evict_beyond(device, keep, stream): frees workspaces of `device` until it holds at most `keep`,
  // on `stream`: first the least recently used of those whose launches have all completed (freed
  // at once), else the least recently used one, after its stream's last launch (`stream` waits for
  // its event: a dependency on another stream's work only when every workspace is still in use).
  // Pre: the registry is locked, keep >= 0. Post: count(device) <= keep, or the CUDA error that
  // stopped it. Example: 8 held, keep 7, the one with the smallest last_use still running, the
  // others idle: the idle one with the smallest last_use is freed and `stream` waits for nothing.
  cudaError_t evict_beyond(int device, int keep, cudaStream_t stream) {
    for (;;) {
      int held = 0;
      auto oldest = entries.end(), oldest_idle = entries.end();
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it->device != device) continue;
        ++held;
        if (oldest == entries.end() || it->last_use < oldest->last_use) oldest = it;
      }
      if (held <= keep) return cudaSuccess;
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it->device != device || (oldest_idle != entries.end() && it->last_use >= oldest_idle->last_use)) continue;
        cudaError_t const before = cudaPeekAtLastError();
        cudaError_t const state = cudaEventQuery(it->done);
        if (state == cudaSuccess) {
          oldest_idle = it;
        } else if (state == cudaErrorNotReady) {
          // "not ready" is an answer, not an error to leave behind (a runtime that records it as
          // the last error); an earlier error of the caller's stays
          if (before == cudaSuccess && cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
        } else {
          return state;
        }
      }
      bool const idle = oldest_idle != entries.end();
      auto const victim = idle ? oldest_idle : oldest;
      if (!idle) {
        if (cudaError_t const err = cudaStreamWaitEvent(stream, victim->done, 0); err != cudaSuccess) return err;
      }
      if (victim->mem != nullptr) {
        if (cudaError_t const err = cudaFreeAsync(victim->mem, stream); err != cudaSuccess) return err;
      }
      (void)cudaEventDestroy(victim->done);  // released once the recorded work completes
      entries.erase(victim);
    }
  }
  cudaError_t release_all() {
    std::lock_guard<std::mutex> lock(mutex);
    cudaError_t result = cudaSuccess;
    int current = 0;
    if (cudaError_t const err = cudaGetDevice(&current); err != cudaSuccess) return err;
    std::vector<Entry> kept;  // those that could not be freed stay registered
    for (auto& x : entries) {
      cudaError_t err = cudaSetDevice(x.device);
      if (err == cudaSuccess) err = cudaDeviceSynchronize();
      if (err == cudaSuccess && x.mem != nullptr) err = cudaFree(x.mem);
      if (err == cudaSuccess) err = cudaEventDestroy(x.done);
      if (err != cudaSuccess) {
        kept.push_back(x);
        if (result == cudaSuccess) result = err;
      }
    }
    entries = std::move(kept);
    if (cudaError_t const err = cudaSetDevice(current); err != cudaSuccess && result == cudaSuccess) result = err;
    return result;
  }
};

template <class Cfg>
inline constexpr bool is_pingpong_config = requires { Cfg::Pingpong; };
template <class Cfg>
inline constexpr bool is_ws_config = Cfg::kThreads > 128 && !is_pingpong_config<Cfg>;

// The C++ names of a configuration and a kernel, as a run-time compiler instantiates them:
// gemm_sm90_kernel_name<GemmSm90PersistentDefault, bfloat16_t, bfloat16_t, true, true>() is
// "tessera::kernels::detail::gemm_sm90_ws_kernel<tessera::kernels::GemmSm90WsConfig<128, 256, 64, 4,
// true, 1, false>, tessera::bfloat16_t, tessera::bfloat16_t, true, true>".
template <class T>
std::string gemm_sm90_type_name() {
  if constexpr (std::is_same_v<T, half_t>) return "tessera::half_t";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "tessera::bfloat16_t";
  else {
    static_assert(std::is_same_v<T, float>, "gemm_sm90_type_name: half_t, bfloat16_t or float");
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
// GemmSm90Kernel<Cfg, T, TOut, AK, BK>: one kernel of gemm_sm90, as a type. function() is the kernel
// nvcc compiled (naming it compiles it); name() its C++ name, as a run-time compiler instantiates
// it: for GemmSm90PersistentDefault, bf16, K-major operands, "tessera::kernels::detail::
// gemm_sm90_ws_kernel<tessera::kernels::GemmSm90WsConfig<128, 256, 64, 4, true, 1, false>,
// tessera::bfloat16_t, tessera::bfloat16_t, true, true>".
template <class Cfg, class T, class TOut, bool AK, bool BK>
struct GemmSm90Kernel {
  static auto function() {
    if constexpr (is_pingpong_config<Cfg>) return gemm_sm90_pingpong_kernel<Cfg, T, TOut, AK, BK>;
    else if constexpr (is_ws_config<Cfg>) return gemm_sm90_ws_kernel<Cfg, T, TOut, AK, BK>;
    else return gemm_sm90_kernel<Cfg, T, TOut, AK, BK>;
  }
  static std::string const& name() {
    static std::string const n = [] {
      std::string const kernel = is_pingpong_config<Cfg> ? "gemm_sm90_pingpong_kernel"
                                 : is_ws_config<Cfg>     ? "gemm_sm90_ws_kernel"
                                                         : "gemm_sm90_kernel";
      return "tessera::kernels::detail::" + kernel + "<" + gemm_sm90_config_name<Cfg>() + ", " +
             gemm_sm90_type_name<T>() + ", " + gemm_sm90_type_name<TOut>() + ", " + (AK ? "true" : "false") + ", " +
             (BK ? "true" : "false") + ">";
    }();
    return n;
  }
};

// How gemm_sm90_launch starts the kernel it has prepared: launch(config, GemmSm90Kernel<...>{},
// args...). The default launches the kernel nvcc compiled (`compiled`: gemm_sm90_launch raises its
// shared-memory limit through the runtime). A launcher with compiled = false starts a run-time
// compiled kernel of the same name instead, with the same configuration and arguments, and raises
// the limit itself (bench/cases/gemm_cases.cu: the JIT's build); nvcc's kernel is then not named,
// so not compiled. Clusters (ClusterM > 1) need the compiled kernel (the occupancy query).
struct GemmSm90Launch {
  static constexpr bool compiled = true;
  template <class Kernel, class... Args>
  cudaError_t operator()(cudaLaunchConfig_t const& config, Kernel, Args const&... args) const {
    return cudaLaunchKernelEx(&config, Kernel::function(), args...);
  }
};

// sms_limit: the persistent blocks at most (0: one per SM).
template <class Cfg, class T, class TOut, bool AK, bool BK, class Launch = GemmSm90Launch>
cudaError_t gemm_sm90_launch(GemmProblem<T, TOut> const& p, GemmEpilogue<TOut> const& ep, cudaStream_t stream,
                             int sms_limit, Launch const& launch = {}) {
  using Kernel = GemmSm90Kernel<Cfg, T, TOut, AK, BK>;
  // The epilogue through shared memory and TMA where the config has the buffers and D is
  // TMA-addressable, else from registers.
  bool const tma_store_d = Cfg::kEpilogueBytes > 0 && gemm_sm90_tma_addressable(p.d, p.ldd, p.n);
  // The tensor maps from the operands' layouts and the boxes the kernel reads and writes
  // (gemm_sm90_load_box, gemm_sm90_epilogue_box): A (M,K), B seen as (N,K), D (M,N).
  constexpr int cm = [] {
    if constexpr (is_ws_config<Cfg>) return Cfg::ClusterM;
    return 1;
  }();
  auto const gA = AK ? make_layout(make_shape(p.m, p.k), make_stride(p.lda, 1))
                     : make_layout(make_shape(p.m, p.k), make_stride(1, p.lda));
  auto const gB = BK ? make_layout(make_shape(p.n, p.k), make_stride(p.ldb, 1))
                     : make_layout(make_shape(p.n, p.k), make_stride(1, p.ldb));
  GemmSm90TmaA<Cfg, T, AK> const ta{make_tma_desc(p.a, gA, gemm_sm90_load_box<Cfg::BM, Cfg::BK, AK>())};
  GemmSm90TmaB<Cfg, T, BK, cm> const tb{make_tma_desc(p.b, gB, gemm_sm90_load_box<Cfg::BN / cm, Cfg::BK, BK>())};
  auto const gD = make_layout(make_shape(p.m, p.n), make_stride(p.ldd, 1));
  GemmSm90TmaD<TOut> const td{tma_store_d ? make_tma_desc(p.d, gD, gemm_sm90_epilogue_box<TOut>()) : TmaDescriptor{}};
  constexpr int smem = gemm_sm90_smem_bytes<Cfg, T>();
  int device = 0, sms = 0;
  if (cudaError_t const e = gemm_sm90_device(device, sms); e != cudaSuccess) return e;
  if (sms_limit > 0) sms = std::min(sms, sms_limit);
  if constexpr (Launch::compiled) {
    // The kernel's shared-memory limit, raised once per device (bit d of `raised`).
    static std::atomic<std::uint64_t> raised{0};
    std::uint64_t const bit = device >= 0 && device < 64 ? std::uint64_t(1) << device : 0;
    if (bit == 0 || (raised.load(std::memory_order_relaxed) & bit) == 0) {
      if (cudaError_t const e =
              cudaFuncSetAttribute(Kernel::function(), cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
          e != cudaSuccess)
        return e;
      raised.fetch_or(bit, std::memory_order_relaxed);
    }
  }
  unsigned const tiles_m = unsigned((p.m + Cfg::BM - 1) / Cfg::BM), tiles_n = unsigned((p.n + Cfg::BN - 1) / Cfg::BN);
  unsigned blocks = (tiles_m + cm - 1) / cm * cm * tiles_n;  // whole clusters
  constexpr bool persistent = [] {
    if constexpr (is_pingpong_config<Cfg>) return true;
    else if constexpr (is_ws_config<Cfg>) return Cfg::Persistent;
    else return false;
  }();
  if constexpr (persistent) {
    // one block per SM (at most one per tile; whole clusters)
    blocks = std::min(blocks, unsigned(sms) / cm * cm);
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(Cfg::kThreads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  // Attributes: the cluster's shape (cm > 1); a persistent kernel's programmatic dependent launch
  // (gemm_sm90_dependent_launch_enabled).
  cudaLaunchAttribute attrs[2]{};
  config.attrs = attrs;
  config.numAttrs = 0;
  if (cm > 1) {
    cudaLaunchAttribute& cluster = attrs[config.numAttrs++];
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = cm;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
  }
  if (persistent && gemm_sm90_dependent_launch_enabled()) {
    cudaLaunchAttribute& pdl = attrs[config.numAttrs++];
    pdl.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    pdl.val.programmaticStreamSerializationAllowed = 1;
  }
  if constexpr (is_ws_config<Cfg>) {
    if constexpr (Cfg::Persistent && cm > 1) {
      // Not every SM can hold a block of a cluster (the GPCs' SM counts need not be multiples of
      // the cluster size): a persistent grid is only as large as the clusters that fit at once.
      static_assert(Launch::compiled, "gemm_sm90_launch: a cluster's occupancy is asked of the compiled kernel");
      int clusters = 0;
      if (cudaError_t const e = cudaOccupancyMaxActiveClusters(&clusters, Kernel::function(), &config);
          e != cudaSuccess)
        return e;
      if (clusters > 0) config.gridDim = dim3(std::min(blocks, unsigned(clusters) * cm));
    }
  }
  if constexpr (is_pingpong_config<Cfg>) {
    int const raster = gemm_sm90_raster_rows(sms / cm, Cfg::BM * cm, Cfg::BN);
    return launch(config, Kernel{}, p.m, p.n, p.k, ep, ta, tb, td, tma_store_d, raster);
  } else if constexpr (is_ws_config<Cfg>) {
    int const raster = gemm_sm90_raster_rows(sms / cm, Cfg::BM * cm, Cfg::BN);
    GemmSm90StreamK sk{};
    if constexpr (Cfg::StreamK) {
      int const units = int(config.gridDim.x);
      sk.tiles = gemm_sm90_stream_k_tiles(int(tiles_m * tiles_n), (p.k + Cfg::BK - 1) / Cfg::BK, units);
      if (sk.tiles > 0) {
        // A block waits for others (the owner of a split tile for its contributors): the launch is
        // cooperative, so that the driver runs every block at once or refuses the launch (another
        // kernel holding SMs, a partitioned GPU) instead of letting it hang.
        // (Without programmatic dependent launch: a cooperative grid starts whole.)
        unsigned const plain_attrs = config.numAttrs;
        cudaLaunchAttribute cooperative{};
        cooperative.id = cudaLaunchAttributeCooperative;
        cooperative.val.cooperative = 1;
        config.attrs = &cooperative;
        config.numAttrs = 1;
        std::size_t const partial_bytes = std::size_t(units) * Cfg::kConsumers * 128 * (Cfg::BN / 2) * sizeof(float);
        return GemmSm90Workspaces::get().launch(device, stream, partial_bytes, units * Cfg::kConsumers, sk, [&] {
          if (sk.tiles == 0) {  // captured into a graph: no stream-K, no waits
            config.attrs = attrs;
            config.numAttrs = plain_attrs;
          }
          return launch(config, Kernel{}, p.m, p.n, p.k, ep, ta, tb, td, tma_store_d, raster, sk);
        });
      }
    }
    return launch(config, Kernel{}, p.m, p.n, p.k, ep, ta, tb, td, tma_store_d, raster, sk);
  } else {
    return launch(config, Kernel{}, p.m, p.n, p.k, ep, ta, tb);
  }
}

// The launchers' common part: checks, row-major D, packing, dispatch on the operands' majors.
template <class Cfg, class T, class TOut, class Launch = GemmSm90Launch>
cudaError_t gemm_sm90_run(char const* fn, GemmProblem<T, TOut> const& problem, cudaStream_t stream, int sms_limit = 0,
                          Launch const& launch = {}) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "gemm_sm90: A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm90: C and D must be float, half_t or bfloat16_t");
  check_gemm_problem(fn, problem);
  GemmProblem<T, TOut> p = gemm_as_row_major_d(problem);
  T* packed[2] = {nullptr, nullptr};
  // Operands TMA cannot address are packed into aligned buffers with rows padded to 8 elements.
  auto pack = [&](T const*& ptr, int& ld, Major major, int rows, int cols, T*& out) -> cudaError_t {
    int const contiguous = major == Major::row ? cols : rows;
    if (gemm_sm90_tma_addressable(ptr, ld, contiguous)) return cudaSuccess;
    int const lines = major == Major::row ? rows : cols;
    int const ld_packed = (contiguous + 7) / 8 * 8;
    std::size_t const count = std::size_t(lines) * std::size_t(ld_packed);
    if (cudaError_t const e = cudaMallocAsync(reinterpret_cast<void**>(&out), count * sizeof(T), stream);
        e != cudaSuccess)
      return e;
    gemm_pack_kernel<T><<<unsigned((count + 255) / 256), 256, 0, stream>>>(ptr, ld, lines, contiguous, out, ld_packed);
    ptr = out;
    ld = ld_packed;
    return cudaGetLastError();
  };
  cudaError_t e = pack(p.a, p.lda, p.a_major, p.m, p.k, packed[0]);
  if (e == cudaSuccess) e = pack(p.b, p.ldb, p.b_major, p.k, p.n, packed[1]);
  if (e == cudaSuccess) {
    bool const ak = p.a_major == Major::row;  // A (M,K) K-major
    bool const bk = p.b_major == Major::col;  // B (K,N) as (N,K): K-major when column-major
    GemmEpilogue<TOut> const ep = make_gemm_epilogue(problem, p);
    if (ak && bk) e = gemm_sm90_launch<Cfg, T, TOut, true, true>(p, ep, stream, sms_limit, launch);
    else if (ak) e = gemm_sm90_launch<Cfg, T, TOut, true, false>(p, ep, stream, sms_limit, launch);
    else if (bk) e = gemm_sm90_launch<Cfg, T, TOut, false, true>(p, ep, stream, sms_limit, launch);
    else e = gemm_sm90_launch<Cfg, T, TOut, false, false>(p, ep, stream, sms_limit, launch);
  }
  for (T* q : packed)
    if (q != nullptr) (void)cudaFreeAsync(q, stream);
  return e;
}
#endif  // !__CUDACC_RTC__

}  // namespace detail

#if !defined(__CUDACC_RTC__)  // host only: the launchers (a run-time compiled kernel is launched by its caller)
// gemm_sm90_tma<Cfg, T, TOut>(problem, stream), gemm_sm90_ws<Cfg, T, TOut>(problem, stream):
// D = alpha A B + beta C by step 1 / step 2 of the ladder (see the file comment); gemm_sm90 is the
// fastest. Pre: the problem passes check_gemm_problem (else invalid_argument naming the problem);
// a device of compute capability 9.0 (the sm_90a build).
template <class Cfg = GemmSm90Default, class T, class TOut>
cudaError_t gemm_sm90_tma(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(!detail::is_ws_config<Cfg>, "gemm_sm90_tma: give a GemmSm90Config");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_tma", problem, stream);
}
template <class Cfg = GemmSm90WsDefault, class T, class TOut>
cudaError_t gemm_sm90_ws(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_ws_config<Cfg> && !Cfg::Persistent,
                "gemm_sm90_ws: give a GemmSm90WsConfig (not persistent)");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_ws", problem, stream);
}
template <class Cfg = GemmSm90PersistentDefault, class T, class TOut>
cudaError_t gemm_sm90_persistent(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_ws_config<Cfg> && Cfg::Persistent && Cfg::ClusterM == 1,
                "gemm_sm90_persistent: give a GemmSm90WsConfig<..., true>");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_persistent", problem, stream);
}
template <class Cfg = GemmSm90PingpongDefault, class T, class TOut>
cudaError_t gemm_sm90_pingpong(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_pingpong_config<Cfg>, "gemm_sm90_pingpong: give a GemmSm90PingpongConfig");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_pingpong", problem, stream);
}
// gemm_sm90_stream_k<Cfg>(problem, stream, sms): step 3d, gemm_sm90_persistent whose blocks share
// the last tiles' k-tiles out evenly (stream-K: gemm_sm90_stream_k_tiles). sms: the persistent
// blocks at most (0: one per SM). Uses the stream's workspace (GemmSm90Workspaces: BM x BN fp32
// values a block, 17 MB for 128x256 tiles on 132 SMs, kept until gemm_sm90_release_workspaces).
template <class Cfg = GemmSm90StreamKDefault, class T, class TOut>
cudaError_t gemm_sm90_stream_k(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr, int sms = 0) {
  static_assert(detail::is_ws_config<Cfg> && Cfg::StreamK,
                "gemm_sm90_stream_k: give a GemmSm90WsConfig<..., true, 1, true>");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_stream_k", problem, stream, sms);
}
// gemm_sm90_release_workspaces(): frees the stream-K workspaces of every stream and device (each
// device is synchronized first); later launches allocate again.
inline cudaError_t gemm_sm90_release_workspaces() { return detail::GemmSm90Workspaces::get().release_all(); }
template <class Cfg = GemmSm90ClusterDefault, class T, class TOut>
cudaError_t gemm_sm90_cluster(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_ws_config<Cfg> && Cfg::Persistent && Cfg::ClusterM > 1,
                "gemm_sm90_cluster: give a GemmSm90WsConfig<..., true, 2>");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_cluster", problem, stream);
}
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
  X(GemmSm90StreamKDefault)

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

// gemm_sm90_choice<Cfg>(problem, stream): gemm_sm90's launch of configuration Cfg.
// Pre: Cfg is one of GemmSm90Choices (else it does not compile, naming TESSERA_GEMM_SM90_CHOICES).
// Post: what gemm_sm90_run<Cfg>("gemm_sm90", problem, stream) returns.
// Example: gemm_sm90_choice<GemmSm90PersistentWide>(p, s) launches 128x192 tiles;
// gemm_sm90_choice<GemmSm90Default>(p, s) is a compile-time error (a ladder step, not a choice).
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm90_choice(GemmProblem<T, TOut> const& problem, cudaStream_t stream) {
  static_assert(gemm_sm90_listed<Cfg, GemmSm90Choices>,
                "gemm_sm90 runs a configuration that TESSERA_GEMM_SM90_CHOICES does not list: add it there");
  return gemm_sm90_run<Cfg>("gemm_sm90", problem, stream);
}
}  // namespace detail

// gemm_sm90(problem, stream): gemm_sm90_persistent with the largest tile of 128x256, 128x128 and
// 64x128 that still gives (nearly: 90 %) every SM a tile; the last when none does (fewer tiles
// than SMs starve the GPU). Where whole waves of 128x256 tiles would leave SMs idle:
// - 128x192 tiles (GemmSm90PersistentWide) where they fill the waves (gemm_sm90_wide_pays);
// - else, where 128x256 tiles make at most four waves, a plain epilogue with 16-bit output takes
//   gemm_sm90_pingpong (gemm_sm90_pingpong_pays);
// - else gemm_sm90_stream_k (gemm_sm90_stream_k_pays), with the stream's workspace; when its
//   cooperative launch is refused or its workspace cannot be allocated, the persistent kernel.
// (With whole waves the ping-pong kernel is as fast power-capped but slower at full clock.) The
// figures of each choice: docs/performance.md ("The sweep") and docs/performance/log.md.
template <class T, class TOut>
cudaError_t gemm_sm90(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  detail::check_gemm_problem("gemm_sm90", problem);  // invalid problems throw before the device is asked
  int device = 0, sms = 0;
  if (cudaError_t const e = detail::gemm_sm90_device(device, sms); e != cudaSuccess) return e;
  // the tiles of D as the kernel computes it (row-major: a column-major D is computed transposed)
  long long const m = problem.cd_major == Major::row ? problem.m : problem.n;
  long long const n = problem.cd_major == Major::row ? problem.n : problem.m;
  auto tiles = [&](int bm, int bn) { return ((m + bm - 1) / bm) * ((n + bn - 1) / bn); };
  auto enough = [&](int bm, int bn) { return tiles(bm, bn) * 10 >= 9LL * sms; };
  using Large = GemmSm90PersistentDefault;
  using Medium = GemmSm90PersistentMedium;
  using StreamK = GemmSm90StreamKDefault;
  static_assert(StreamK::BM == Large::BM && StreamK::BN == Large::BN, "stream-K stands in for the 128x256 tiles");
  if (enough(Large::BM, Large::BN)) {
    int const k_tiles = int((problem.k + StreamK::BK - 1) / StreamK::BK);
    bool const plain16 = sizeof(TOut) == 2 && detail::gemm_epilogue_plain(problem);
    long long const large_tiles = tiles(StreamK::BM, StreamK::BN);
    using Wide = GemmSm90PersistentWide;
    using Pingpong = GemmSm90PingpongDefault;
    static_assert(Wide::BM == 128 && Wide::BN == 192 && Pingpong::BM == 128 && Pingpong::BN == 128 && Large::BN == 256,
                  "gemm_sm90_wide_pays and gemm_sm90_pingpong_pays compare these tiles");
    // The ping-pong kernel, where it pays, is what 128x192 tiles must beat.
    bool const pingpong = detail::gemm_sm90_pingpong_pays(large_tiles, k_tiles, sms, plain16);
    if (detail::gemm_sm90_wide_pays(m, n, sms, pingpong)) return detail::gemm_sm90_choice<Wide>(problem, stream);
    if (pingpong) return detail::gemm_sm90_choice<Pingpong>(problem, stream);
    if (detail::gemm_sm90_stream_k_pays(large_tiles, k_tiles, sms)) {
      cudaError_t const e = detail::gemm_sm90_choice<StreamK>(problem, stream);
      if (e != cudaErrorCooperativeLaunchTooLarge && e != cudaErrorMemoryAllocation) return e;
      (void)cudaGetLastError();  // not sticky: run the data-parallel kernel instead
    }
    return detail::gemm_sm90_choice<Large>(problem, stream);
  }
  if (enough(Medium::BM, Medium::BN)) return detail::gemm_sm90_choice<Medium>(problem, stream);
  return detail::gemm_sm90_choice<GemmSm90PersistentSmall>(problem, stream);
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
