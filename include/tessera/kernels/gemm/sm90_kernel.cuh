// The Hopper GEMM's kernels (device code; NVRTC compiles it): the ladder of kernels/gemm_sm90.cuh
// (its launchers, and its file comment says what each step adds) as roles on the warp-specialized
// skeleton (sm90/warp_specialized.cuh), and step 1's one-warpgroup kernel on the same pieces.
//   GemmSm90Storage<Cfg, T>          the shared storage: Stages x A (BM x BK), Stages x B (BN x BK),
//                                    the epilogue's buffers, the ring's and the turn's barriers
//   GemmSm90Params, GemmSm90Maps<Cfg, T, TOut, AK, BK>
//                                    the kernel's arguments: sizes, epilogue, where D goes, the
//                                    raster, stream-K's workspace; the TMA atoms
//   gemm_sm90_produce                the producer: its tiles' k-tiles into the ring (one thread)
//   gemm_sm90_consume_ktiles         a consumer's k-loop: wait, wgmma, release one stage behind
//   gemm_sm90_consume_ktiles_block   the fp8 block-scaled k-loop (GemmSm90BlockScaled): each k-tile
//                                    into a second set of accumulators, promoted with its scales
//   gemm_sm90_scale_acc              the fp8 per-tensor / per-row-and-column scales
//   gemm_sm90_store / _store_tma     the epilogue from registers / through shared memory and TMA
//   GemmSm90StorePath<E, HasTma>     where D goes: chosen while the kernel runs, or fixed by the
//                                    epilogue form it was compiled for (GemmSm90Epilogue)
//   GemmSm90WsRoles                  steps 2, 3, 3d: BM/64 consumer warpgroups split a tile's rows
//   GemmSm90PingpongRoles            step 3c: two consumer warpgroups take whole tiles in turn
//                                    (pipeline/ordered_barrier.hpp orders their main loops)
//                                    (both: <Cfg, T, TOut, AK, BK, E = GemmSm90Epilogue::any>)
//   gemm_sm90_kernel                 step 1: one warpgroup loads and multiplies
//   GemmSm90Kernel<Cfg, T, TOut, AK, BK>
//                                    a configuration's kernel as a type: function() (nvcc's),
//                                    name() (a run-time compiler's name expression)
//
// 8-bit floats (T = float_e4m3_t or float_e5m2_t, K-major operands only): the same kernels on
// the same layouts. An fp8 operand is moved and laid out as pairs of elements, 16-bit units
// (gemm_sm90_unit_t: the stage layouts, the TMA boxes, the descriptors and Cfg::BK count units, so
// a k-tile of BK = 64 units is 128 elements, one 128-byte swizzle span as for 16-bit types, and K
// in GemmSm90Params is K / 2); only the wgmma differs (m64nNk32, 32 bytes of K as m64nNk16's).
// The product's fp32 scales (GemmSm90Scales: one per tensor, or per row of A and column of B) are
// applied to the accumulators before the epilogue (gemm_sm90_scale_acc).
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

#if !defined(__CUDACC_RTC__)
#include <string>
#endif

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/arch/util.hpp"
#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/gemm/sm90_config.hpp"
#include "tessera/kernels/gemm_epilogue.cuh"
#include "tessera/pipeline/ordered_barrier.hpp"
#include "tessera/pipeline/tma_pipeline.hpp"
#include "tessera/pipeline/tma_store_ring.cuh"
#include "tessera/sm90/shared_storage.hpp"
#include "tessera/sm90/tile_scheduler.hpp"
#include "tessera/sm90/warp_specialized.cuh"
#include "tessera/tensor/tensor.hpp"

namespace tessera::kernels {
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
// 8-bit floats: m64nNk32, K-major only (the ops' own static_assert says so for another major).
#define TESSERA_GEMM_SM90_OP_FP8(N)                       \
  template <GmmaMajor MA, GmmaMajor MB>                   \
  struct GemmSm90Op<float_e4m3_t, N, MA, MB> {            \
    using type = SM90_64x##N##x32_F32E4M3E4M3_SS<MA, MB>; \
  };                                                      \
  template <GmmaMajor MA, GmmaMajor MB>                   \
  struct GemmSm90Op<float_e5m2_t, N, MA, MB> {            \
    using type = SM90_64x##N##x32_F32E5M2E5M2_SS<MA, MB>; \
  };
TESSERA_GEMM_SM90_OP_FP8(64)
TESSERA_GEMM_SM90_OP_FP8(128)
TESSERA_GEMM_SM90_OP_FP8(192)
TESSERA_GEMM_SM90_OP_FP8(256)
#undef TESSERA_GEMM_SM90_OP_FP8

// gemm_sm90_unit_t<T>: what the kernels move and lay out for an operand of type T: T itself for the
// 16-bit types, a pair of elements (16 bits) for the 8-bit floats. The canonical 128-byte-swizzled
// K-major layouts are the same in bytes for any element width, and a pair of fp8 elements along K
// is one 16-bit element of them; so are the TMA boxes (an fp8 matrix (M,K) with leading dimension
// ld is TMA'd as a 16-bit matrix (M,K/2) with ld/2) and the wgmma descriptors. Pre (fp8): K and ld
// even (the launcher asks for multiples of 16).
template <class T>
struct gemm_sm90_unit {
  using type = T;
};
template <>
struct gemm_sm90_unit<float_e4m3_t> {
  using type = std::uint16_t;
};
template <>
struct gemm_sm90_unit<float_e5m2_t> {
  using type = std::uint16_t;
};
template <class T>
using gemm_sm90_unit_t = typename gemm_sm90_unit<T>::type;
// Elements of T per unit: 1, or 2 for the 8-bit floats.
template <class T>
inline constexpr int kGemmSm90PerUnit = int(sizeof(gemm_sm90_unit_t<T>) / sizeof(T));

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

// The bytes of one stage (A's BM x BK and B's BN x BK tiles, BK in units): what its full barrier
// waits for.
template <class Cfg, class T>
inline constexpr std::uint32_t kGemmSm90StageBytes =
    std::uint32_t((Cfg::BM + Cfg::BN) * Cfg::BK * sizeof(gemm_sm90_unit_t<T>));

// The kernels' TMA atoms: A's tile (BM x BK) and B's (BN x BK, a cluster block's share of it when
// ClusterM > 1, multicast) in the boxes of gemm_sm90_load_box; D in the epilogue's boxes.
template <class Cfg, class T, bool KMajor>
using GemmSm90TmaA =
    TmaCopy<SM90_TMA_LOAD, gemm_sm90_unit_t<T>, decltype(gemm_sm90_load_box<Cfg::BM, Cfg::BK, KMajor>())>;
template <class Cfg, class T, bool KMajor, int CM = 1>
using GemmSm90TmaB = TmaCopy<std::conditional_t<(CM > 1), SM90_TMA_LOAD_MULTICAST, SM90_TMA_LOAD>, gemm_sm90_unit_t<T>,
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
                                     GemmSm90TmaB<Cfg, T, BKMajor, CM> const& tma_b, std::uint64_t* bar,
                                     gemm_sm90_unit_t<T>* a, gemm_sm90_unit_t<T>* b, int kt, int bm, int bn, int M,
                                     int N, int K, std::uint32_t rank = 0) {
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
// m0 + 64 i, columns n0 .., are written step by step into the warpgroup's two 8 KB buffers (`ring`),
// each holding one TMA box of 64 rows x 128 bytes (64 columns of a 16-bit TOut, 32 of fp32) in the
// box's 128-byte-swizzled layout (gemm_sm90_epilogue_box), and stored by one TMA store per box; the
// TMA clips what lies outside D. A step is 64 columns: one box of a 16-bit TOut (written by
// stmatrix.x4, 16 x 16 elements a warp; the buffers alternate) or two boxes of fp32 (8-byte
// stores; both buffers). The stores run on while the warpgroup goes on (to the next tile's main
// loop); a buffer is rewritten only once the store issued from it has read it (the ring:
// pipeline/tma_store_ring.cuh). lt: the thread's index in the warpgroup; bar_id: a named barrier of
// the warpgroup's 128 threads. The steps are one loop of few iterations that the compiler unrolls
// (the accumulators must be indexed by constants: a run-time index would put them in local memory).
// Accumulator fragment (wgmma m64nN, fp32): value 4j + r of lane l in warp w of the warpgroup is
// (row 16 w + l/4 + 8 (r/2), column 8 j + 2 (l%4) + r%2) of the 64 x N tile (the CLayout of
// atom/mma_traits_sm90.hpp).
// A warpgroup's ring of epilogue buffers: two 8 KB buffers a 16-bit TOut alternates, one 16 KB step
// of fp32 (both buffers).
template <class TOut>
using GemmSm90StoreRing = TmaStoreRing<sizeof(TOut) == 2 ? 2 : 1, sizeof(TOut) == 2 ? 8192 : 16384>;

template <class TOut, int MBLK, int BN, bool Lean = false, GemmSm90Epilogue E = GemmSm90Epilogue::any>
__device__ __forceinline__ void gemm_sm90_store_tma(float const (&acc)[MBLK][BN / 2], GemmEpilogue<TOut> const& ep,
                                                    GemmSm90TmaD<TOut> const& tma_d, GemmSm90StoreRing<TOut>& ring,
                                                    int m0, int n0, int M, int N, int lt, std::uint32_t bar_id) {
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
      unsigned char* b = ring.slot();
      if (lt == 0) ring.wait_free();  // the buffers about to be written have been read by their last stores
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
        // the step's 64 x 64 of D: P boxes of 64 x CW, 8 KB apart, at row mr(step) (any row: the
        // grouped GEMM's tiles start at a group's first row) and columns n0 + 64 c + CW p
        TESSERA_UNROLL
        for (int p = 0; p < P; ++p)
          SM90_TMA_STORE_2D::copy(tma_d.get_tma_descriptor(), b + p * 8192, n0 + SW * c + CW * p, mr(step));
        ring.commit();
      }
      ring.advance();
    }
  };
  // plain or the whole epilogue: fixed when the kernel was compiled for one form (E), else ep's
  using Plain = std::integral_constant<Mode, Mode::plain>;
  using General = std::integral_constant<Mode, Lean ? Mode::lean : Mode::early>;
  static_assert(E != GemmSm90Epilogue::registers, "gemm_sm90_store_tma: a kernel compiled to store D from registers");
  if constexpr (E == GemmSm90Epilogue::tma_plain) {
    steps(Plain{});
  } else if constexpr (E == GemmSm90Epilogue::tma) {
    steps(General{});
  } else if (ep.plain) {
    steps(Plain{});
  } else {
    steps(General{});
  }
}

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

// What a stream-K launch passes its blocks: the workspace (a slot of fp32 partial sums, kConsumers
// x 128 x BN/2 values, and a flag per consumer warpgroup, for each block), the launch's epoch
// (the value a flag is raised to: never 0, new for each launch), and the tiles shared out.
struct GemmSm90StreamK {
  float* partials = nullptr;
  std::uint32_t* flags = nullptr;
  std::uint32_t epoch = 0;
  int tiles = 0;
};

// Stream-K's hand-over (sm90::StreamKScheduler): a contributing warpgroup writes its accumulators
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

// ---- the fp8 product's scales ----------------------------------------------------------------

// The scales of an fp8 GEMM (GemmFp8Problem's, in the row-major-D form): element (m, n) of the
// product is multiplied by sa(m) sb(n), sa(m) = a[m a_step] and sb(n) = b[n b_step] (step 0: one
// scale for the whole operand; 1: one per row of A, per column of B); a null pointer is a scale of 1.
struct GemmSm90Scales {
  float const* a = nullptr;
  float const* b = nullptr;
  int a_step = 0, b_step = 0;
};

// acc *= sa(m) sb(n) for one warpgroup's 64 x NV*2 accumulator block whose first element is (m0, n0)
// (the fragment: value 4 j + 2 h + e of lane l in warp w is (m0 + 16 w + l/4 + 8 h, n0 + 8 j +
// 2 (l%4) + e)); scales are read at coordinates clamped into D (last_m, last_n: the values outside
// D are never stored). One multiply per value by a uniform scale when B has one; otherwise B's
// column scales are read Pairs column pairs at a time (4: 8 loads), all issued before the first is
// used (few registers beside the accumulators, which are indexed by constants only).
template <int Pairs = 4, int NV>
__device__ __forceinline__ void gemm_sm90_scale_acc(float (&acc)[NV], GemmSm90Scales const& s, int m0, int n0,
                                                    int last_m, int last_n, int lt) {
  static_assert(NV % (4 * Pairs) == 0, "gemm_sm90_scale_acc: whole groups of Pairs column pairs");
  int const w = lt / 32, l = lt % 32;
  int const m = m0 + 16 * w + l / 4, n = n0 + 2 * (l % 4);
  float sa0 = 1.0f, sa1 = 1.0f;  // rows m, m + 8
  if (s.a != nullptr) {
    sa0 = __ldg(s.a + min(m, last_m) * s.a_step);
    sa1 = __ldg(s.a + min(m + 8, last_m) * s.a_step);
  }
  if (s.b == nullptr || s.b_step == 0) {
    float const sb = s.b != nullptr ? __ldg(s.b) : 1.0f;
    sa0 *= sb;
    sa1 *= sb;
    TESSERA_UNROLL
    for (int v = 0; v < NV; ++v) acc[v] *= v % 4 < 2 ? sa0 : sa1;
    return;
  }
  TESSERA_UNROLL
  for (int j0 = 0; j0 < NV / 4; j0 += Pairs) {  // column pairs j0 .. j0 + Pairs - 1
    float sb[2 * Pairs];
    TESSERA_UNROLL
    for (int q = 0; q < 2 * Pairs; ++q) sb[q] = __ldg(s.b + min(n + 8 * (j0 + q / 2) + q % 2, last_n));
    TESSERA_UNROLL
    for (int q = 0; q < 4 * Pairs; ++q) {  // value 4 (j0 + q/4) + 2 h + e, h = q/2 % 2, e = q % 2
      int const jj = q / 4, h = q / 2 % 2, e = q % 2;
      acc[4 * j0 + q] *= (h == 0 ? sa0 : sa1) * sb[2 * jj + e];
    }
  }
}

// ---- the skeleton's pieces for the GEMM -----------------------------------------------------

// The shared storage (sm90::shared_storage): the stages first (each a whole number of 1024-byte
// swizzle atoms, so every stage starts aligned), the epilogue's 8 KB buffers (two per consumer
// warpgroup; none for the kernels that store from registers), the ring's full and empty barriers,
// and the ping-pong's two turn barriers.
// (fp8: in units, gemm_sm90_unit_t: the plan in bytes is the 16-bit types'.)
template <class Cfg, class T>
struct GemmSm90Storage {
  using U = gemm_sm90_unit_t<T>;
  static constexpr int kStageA = Cfg::BM * Cfg::BK, kStageB = Cfg::BN * Cfg::BK;  // units
  static_assert(kStageA * sizeof(U) % 1024 == 0 && kStageB * sizeof(U) % 1024 == 0,
                "GemmSm90Storage: a stage must keep the 1024-byte alignment of the swizzle atoms");
  U a[Cfg::Stages * kStageA];
  U b[Cfg::Stages * kStageB];
  SmemBytes<Cfg::kEpilogueBytes> epilogue;
  std::uint64_t pipeline[TmaPipeline<Cfg::Stages>::kBarriers];
  std::uint64_t order[OrderedBarrier<2>::kBarriers];

  __device__ U* stage_a(int s) { return a + s * kStageA; }
  __device__ U* stage_b(int s) { return b + s * kStageB; }
  // Consumer warpgroup c's (0-based) two chunk buffers.
  __device__ unsigned char* epilogue_buffers(int c) { return epilogue.data() + c * 2 * 8192; }
};

template <class Cfg, class T>
constexpr int gemm_sm90_smem_bytes() {
  return sm90::shared_storage_bytes<GemmSm90Storage<Cfg, T>>();
}

// The kernel's arguments (sm90/warp_specialized.cuh says why two): the values, by value, and the
// TMA atoms, a __grid_constant__ (their descriptors are used where they lie).
// tma_store_d: the consumers store D through shared memory and TMA (gemm_sm90_store_tma: configs
// with epilogue buffers, where D is TMA-addressable), else from registers (a run-time choice: one
// kernel, not two, to compile). raster: the rows of tiles per raster group (gemm_block_coord; the
// launcher's choice is gemm_sm90_raster_rows). sk: stream-K's workspace (Cfg::StreamK). K counts
// units of gemm_sm90_unit_t<T> (elements, or element pairs for fp8). scales: the fp8 product's
// scales (read by the fp8 kernels only; the same layout for every type: jit/gemm_sm90.hpp copies it).
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
struct GemmSm90Params {
  int M, N, K;
  GemmEpilogue<TOut> ep;
  bool tma_store_d;
  int raster;
  GemmSm90StreamK sk;
  GemmSm90Scales scales;
};
// Where a kernel compiled for epilogue form E (GemmSm90Epilogue), with the TMA-store path in its
// configuration or not (HasTma), stores D: fixed by E, or p.tma_store_d's choice for `any`. kTma,
// kRegisters: whether each path is compiled at all.
template <GemmSm90Epilogue E, bool HasTma>
struct GemmSm90StorePath {
  static_assert(HasTma || E == GemmSm90Epilogue::any || E == GemmSm90Epilogue::registers,
                "GemmSm90StorePath: a TMA-stored epilogue needs a configuration with epilogue buffers");
  static constexpr bool kTma = HasTma && E != GemmSm90Epilogue::registers;
  static constexpr bool kRegisters = E == GemmSm90Epilogue::any || E == GemmSm90Epilogue::registers;
  __device__ __forceinline__ static bool tma(bool tma_store_d) {
    if constexpr (!kTma) return false;
    else if constexpr (!kRegisters) return true;
    else return tma_store_d;
  }
};

// A (M,K), B as (N,K) (a cluster block's share, multicast, with ClusterM > 1) and D (M,N) in the
// kernel's boxes (gemm_sm90_load_box, gemm_sm90_epilogue_box); tma_d is unused (an empty
// descriptor) where D is stored from registers.
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
struct GemmSm90Maps {
  GemmSm90TmaA<Cfg, T, AKMajor> tma_a;
  GemmSm90TmaB<Cfg, T, BKMajor, gemm_sm90_cluster_m<Cfg>> tma_b;
  GemmSm90TmaD<TOut> tma_d;
};

// The producer (one thread): the k-tiles of each piece of `sched` into the ring, in order, each
// once its stage is free; with a cluster (CM > 1) the block's tile row is CM bmc + rank. Lets the
// stream's next grid launch once the last load is issued (programmatic dependent launch: that
// grid's blocks take SMs only as this grid's leave, and wait for its completion themselves).
template <class Cfg, class T, class TOut, bool AK, bool BK, class Sched>
__device__ __forceinline__ void gemm_sm90_produce(GemmSm90Params<Cfg, T, TOut, AK, BK> const& p,
                                                  GemmSm90Maps<Cfg, T, TOut, AK, BK> const& maps,
                                                  GemmSm90Storage<Cfg, T>& s, Sched const& sched, int tiles_m,
                                                  int tiles_n, std::uint32_t rank) {
  constexpr int CM = gemm_sm90_cluster_m<Cfg>;
  TmaPipeline<Cfg::Stages, CM> const pipe{s.pipeline};
  PipelineState<Cfg::Stages> st;
  sched.for_each([&](sm90::TileWork const& w, auto) {
    int bmc = 0, bn = 0;
    gemm_block_coord(w.tile, tiles_m, tiles_n, bmc, bn, p.raster);
    int const bm = bmc * CM + int(rank);
    for (int kt = w.k0; kt < w.k1; ++kt, ++st) {
      pipe.producer_acquire(st);
      std::uint64_t* bar = pipe.producer_expect(st, kGemmSm90StageBytes<Cfg, T>);
      gemm_sm90_load_stage<Cfg, T, AK, BK, CM>(maps.tma_a, maps.tma_b, bar, s.stage_a(st.index), s.stage_b(st.index),
                                               kt, bm, bn, p.M, p.N, p.K, rank);
    }
  });
  grid_dependents_launch();
}

// A consumer warpgroup's k-loop over k-tiles [k0, k1) of a piece, continuing the ring at `st`:
// waits for each stage, issues its wgmmas (rows row0 + 64 i of the stage's A into acc[i]), and
// once they retire (warpgroup_wait<1>, at the next k-tile) releases the stage before; after the
// last k-tile is issued, calls issued() (the ping-pong's hand-over of its turn), waits for all
// wgmmas and releases the last stage. lt: the thread in the warpgroup (thread 0 releases).
template <class Cfg, class T, bool AKMajor, bool BKMajor, int MBLK, class Pipe, class Issued>
__device__ __forceinline__ void gemm_sm90_consume_ktiles(float (&acc)[MBLK][Cfg::BN / 2], Pipe const& pipe,
                                                         PipelineState<Cfg::Stages>& st, int k0, int k1,
                                                         std::uint32_t a_base, std::uint32_t b_base, int row0, int lt,
                                                         Issued&& issued) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
  constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
  using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, AKMajor>();
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, BKMajor>();
  constexpr int kStageA = BM * BK, kStageB = BN * BK;
  PipelineState<Cfg::Stages> prev;
  for (int kt = k0; kt < k1; ++kt) {
    pipe.consumer_wait(st);
    gemm_sm90_mma_ktile<Op, MA, MB, BK, BN>(
        acc, a_base + std::uint32_t(st.index * kStageA * sizeof(gemm_sm90_unit_t<T>)),
        b_base + std::uint32_t(st.index * kStageB * sizeof(gemm_sm90_unit_t<T>)), sA_layout, sB_layout, row0, kt == k0);
    warpgroup_wait<1>();  // the previous k-tile's wgmmas have retired: release its stage
    if (kt > k0 && lt == 0) pipe.consumer_release(prev);
    prev = st;
    ++st;
  }
  issued();
  warpgroup_wait<0>();
  gemm_sm90_fence_acc<MBLK, BN>(acc);
  if (lt == 0) pipe.consumer_release(prev);  // the piece's last stage
}

// A true that ptxas cannot see through. A k-tile whose first wgmma overwrites its accumulators
// (scale-d = 0) must say so by a run-time predicate: with a compile-time zero, ptxas waits for each
// wgmma of the batch before issuing the next (WARPGROUP.DEPBAR after every QGMMA in the SASS of the
// block-scaled kernel) and warns of nothing. (The block-scaled kernel measured no faster without
// that wait on the H200: it is bound elsewhere, docs/gemm-fp8.md says where.) A constant
// moved through inline PTX is folded by ptxas; the dynamic shared-memory size is not, and it is
// never 0 in these kernels (their shared storage is dynamic).
__device__ __forceinline__ bool gemm_sm90_runtime_true() {
  unsigned v;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v));
  return v != 0u;
}

// The block-scaled k-loop (GemmSm90BlockScaled; fp8 with DeepSeek-V3's scales): k-tile kt is
// multiplied into `sums` by its own wgmmas (the tensor cores' fp8 accumulation over 128 elements of
// K only), waited for, its stage released, and added into the fp32 accumulators acc times its
// scales, sa(m, kt) = s.a[kt s.a_step + m] (A's 1 x 128 blocks; a_step = M) and
// sb(nb, kt) = s.b[nb s.b_step + kt] (B's 128 x 128 blocks, nb = n / 128; b_step = ceil(K/128)):
// partial sums promoted to fp32 every 128 of K. m0, n0: the warpgroup's first row and the tile's
// first column; rows are clamped into D (last_m), B's column blocks too (last_n). BN divides 128:
// one B block covers the tile's columns. BN = 192: the tile's columns meet two blocks, n0 / 128
// and the next, whose boundary lies 128 - n0 % 128 columns in (128 or 64: n0 is a multiple of 64),
// at a whole 8-column fragment j of the accumulators; the two cases are two copies of the
// promotion, the fragment's block a constant in each (a uniform branch a k-tile, no selects).
// A k-tile's scales are loaded a k-tile ahead (their latency hidden by its wgmmas); while one
// warpgroup adds, the others' wgmmas may run. Tried (docs/gemm-fp8.md, "Block scales"): the two
// warpgroups issuing their k-tiles in turn (measured slower), and a second set of sums so that
// k-tile kt + 1's wgmmas run while kt's are added (it spills at 232 and 240 registers, or, with the
// loop's last trips not peeled off, ptxas waits for each wgmma).
template <class Cfg, class T, int MBLK, class Pipe>
__device__ __forceinline__ void gemm_sm90_consume_ktiles_block(float (&acc)[MBLK][Cfg::BN / 2], Pipe const& pipe,
                                                               PipelineState<Cfg::Stages>& st, int k0, int k1,
                                                               std::uint32_t a_base, std::uint32_t b_base, int row0,
                                                               int lt, GemmSm90Scales const& s, int m0, int n0,
                                                               int last_m, int last_n) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  constexpr bool kTwoB = BN > 128;  // two B blocks a tile (BN = 192)
  static_assert(is_fp8_v<T> && (128 % BN == 0 || BN == 192) && BK * kGemmSm90PerUnit<T> == 128,
                "gemm_sm90_consume_ktiles_block: fp8, a k-tile of 128 elements, BN dividing 128 or 192");
  constexpr int NB = kTwoB ? 2 : 1;  // B blocks (scales) a tile
  using Op = typename GemmSm90Op<T, BN, GmmaMajor::K, GmmaMajor::K>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, true>();
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, true>();
  constexpr int kStageA = BM * BK, kStageB = BN * BK;
  constexpr int U = int(sizeof(gemm_sm90_unit_t<T>));
  int const m = m0 + 16 * (lt / 32) + (lt % 32) / 4;  // this thread's rows: m + 64 i, m + 64 i + 8
  // B's blocks of the tile's columns: n0 / 128 (and the next, clamped into D's: columns past D are
  // never stored)
  float const* sb_row[NB];
  sb_row[0] = s.b + (n0 / 128) * s.b_step;
  if constexpr (kTwoB) sb_row[NB - 1] = s.b + min(n0 / 128 + 1, last_n / 128) * s.b_step;
  TESSERA_UNROLL
  for (int i = 0; i < MBLK; ++i) {
    TESSERA_UNROLL
    for (int v = 0; v < BN / 2; ++v) acc[i][v] = 0.0f;
  }
  // A k-tile's scales for this thread's rows, sa(m, kt) sb(nb, kt): [i][b][0] row m + 64 i of B
  // block b, [i][b][1] row + 8.
  auto load_scales = [&](int kt, float(&sc)[MBLK][NB][2]) __attribute__((always_inline)) {
    float sb[NB];
    TESSERA_UNROLL
    for (int b = 0; b < NB; ++b) sb[b] = __ldg(sb_row[b] + kt);
    TESSERA_UNROLL
    for (int i = 0; i < MBLK; ++i) {
      float const sa0 = __ldg(s.a + std::int64_t(kt) * s.a_step + min(m + 64 * i, last_m));
      float const sa1 = __ldg(s.a + std::int64_t(kt) * s.a_step + min(m + 64 * i + 8, last_m));
      TESSERA_UNROLL
      for (int b = 0; b < NB; ++b) sc[i][b][0] = sb[b] * sa0, sc[i][b][1] = sb[b] * sa1;
    }
  };
  // acc += sums times the scales; fragment j (columns 8 j ..) takes B block j < JB ? 0 : 1.
  auto const promote = [&](auto jb, float const(&sums)[MBLK][BN / 2], float const(&sc)[MBLK][NB][2])
      __attribute__((always_inline)) {
    constexpr int JB = decltype(jb)::value;
    TESSERA_UNROLL
    for (int i = 0; i < MBLK; ++i) {
      TESSERA_UNROLL
      for (int v = 0; v < BN / 2; ++v)
        acc[i][v] = fmaf(sums[i][v], sc[i][v / 4 < JB ? 0 : NB - 1][v % 4 < 2 ? 0 : 1], acc[i][v]);
    }
  };
  bool const fresh = gemm_sm90_runtime_true();  // each k-tile's sums start at its first k-block
  float sums[MBLK][BN / 2];
  float sc[MBLK][NB][2], sc_next[MBLK][NB][2];
  if (k0 < k1) load_scales(k0, sc);
  for (int kt = k0; kt < k1; ++kt) {
    bool const more = kt + 1 < k1;
    if (more) load_scales(kt + 1, sc_next);
    pipe.consumer_wait(st);
    gemm_sm90_mma_ktile<Op, GmmaMajor::K, GmmaMajor::K, BK, BN>(sums, a_base + std::uint32_t(st.index * kStageA * U),
                                                                b_base + std::uint32_t(st.index * kStageB * U),
                                                                sA_layout, sB_layout, row0, fresh);
    warpgroup_wait<0>();
    gemm_sm90_fence_acc<MBLK, BN>(sums);
    if (lt == 0) pipe.consumer_release(st);  // the stage's wgmmas have retired
    ++st;
    if constexpr (!kTwoB) {
      promote(Int<BN / 8>{}, sums, sc);  // every fragment in block 0
    } else if (n0 % 128 == 0) {
      promote(Int<16>{}, sums, sc);  // columns 0-127 of the tile in block n0 / 128, 128 .. in the next
    } else {
      promote(Int<8>{}, sums, sc);  // n0 % 128 = 64: columns 0-63, then 64 ..
    }
    if (more) {
      TESSERA_UNROLL
      for (int i = 0; i < MBLK; ++i) {
        TESSERA_UNROLL
        for (int b = 0; b < NB; ++b) sc[i][b][0] = sc_next[i][b][0], sc[i][b][1] = sc_next[i][b][1];
      }
    }
  }
}

// Steps 2, 3 and 3d (warp-specialized; see the file comment): a producer warpgroup and BM/64
// consumer warpgroups, consumer c owning rows 64 c .. 64 c + 63 of each tile. Tiles of CM x 1
// blocks with a cluster: the cluster's blocks take rows bm = CM bmc + rank (a block past the last
// row reads zeros and stores nothing, but still loads its share of B for the others). The block's
// work: whole tiles blockIdx / CM, + gridDim / CM, ..., after its share of the stream-K
// iterations (Cfg::StreamK: sm90::StreamKScheduler).
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor, GemmSm90Epilogue E = GemmSm90Epilogue::any>
struct GemmSm90WsRoles {
  static constexpr int kConsumers = Cfg::kConsumers, kThreads = Cfg::kThreads;
  // Three consumer warpgroups (BM = 192, 512 threads): 32 + 3 x 160 registers fill the register
  // file (128 x 512 = 65536), as FlashAttention-3's three-warpgroup kernels split it.
  static constexpr int kProducerRegs = kConsumers == 3 ? 32 : 40, kConsumerRegs = kConsumers == 3 ? 160 : 232;
  // Few registers beside the k-loop: three consumer warpgroups (160 registers), or the block-scaled
  // kernel's two sets of 96 accumulators (BN = 192). Its epilogue is then computed lean (each chunk
  // just before its store) from offsets computed each tile (see there): both spilled otherwise.
  static constexpr bool kTight = kConsumers == 3 || (gemm_sm90_block_scaled_config<Cfg> && Cfg::BN > 128);
  static constexpr int kClusterSize = Cfg::ClusterM;
  static constexpr bool TmaStoreD = Cfg::kEpilogueBytes > 0;  // whether the configuration has the TMA-store path
  static_assert(!TmaStoreD || Cfg::kEpilogueBytes >= kConsumers * 2 * 8192,
                "GemmSm90WsRoles: too little shared memory for the TMA-store epilogue");
  using Store = GemmSm90StorePath<E, TmaStoreD>;
  using Params = GemmSm90Params<Cfg, T, TOut, AKMajor, BKMajor>;
  using Maps = GemmSm90Maps<Cfg, T, TOut, AKMajor, BKMajor>;
  using Storage = GemmSm90Storage<Cfg, T>;
  using Pipe = TmaPipeline<Cfg::Stages, Cfg::ClusterM>;

  // The block's grid of tiles (sm90::RolesWithPlan: computed before the split, so it stays in
  // uniform registers).
  struct Plan {
    int tiles_mc, tiles_n, first_tile, tile_step, k_tiles;
    std::uint32_t rank;
  };
  __device__ __forceinline__ static Plan plan(Params const& p) {
    constexpr int CM = Cfg::ClusterM;
    std::uint32_t const rank = CM > 1 ? cluster_ctarank() : 0u;
    int const tiles_m = (p.M + Cfg::BM - 1) / Cfg::BM;
    return Plan{(tiles_m + CM - 1) / CM, (p.N + Cfg::BN - 1) / Cfg::BN, int(blockIdx.x) / CM,
                int(gridDim.x) / CM,     (p.K + Cfg::BK - 1) / Cfg::BK, rank};
  }
  __device__ __forceinline__ static sm90::StreamKScheduler schedule(Params const& p, Plan const& g) {
    return sm90::StreamKScheduler{g.tiles_mc * g.tiles_n, g.k_tiles, g.tile_step, g.first_tile,
                                  Cfg::StreamK ? p.sk.tiles : 0};
  }

  // The ring: full[s] on the producer's loads, empty[s] on one arrival per consumer warpgroup of
  // every block of the cluster (the multicast writes into all of them).
  __device__ __forceinline__ static void setup(Params const& p, Maps const& maps, Storage& s) {
    tma_prefetch_desc(maps.tma_a.get_tma_descriptor());
    tma_prefetch_desc(maps.tma_b.get_tma_descriptor());
    if (Store::tma(p.tma_store_d)) tma_prefetch_desc(maps.tma_d.get_tma_descriptor());
    Pipe{s.pipeline}.init(kConsumers);
  }

  // The ring runs on across the block's tiles: its i-th k-tile (over all tiles) is
  // PipelineState::at(i); the producer runs ahead into the next tile while the consumers store.
  __device__ __forceinline__ static void produce(Params const& p, Maps const& maps, Plan const& g, Storage& s, int lt) {
    if (lt != 0) return;
    gemm_sm90_produce(p, maps, s, schedule(p, g), g.tiles_mc, g.tiles_n, g.rank);
  }

  __device__ __forceinline__ static void consume(Params const& p, Maps const& maps, Plan const& g, Storage& s, int c,
                                                 int lt) {
    constexpr int BM = Cfg::BM, BN = Cfg::BN, CM = Cfg::ClusterM;
    constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
    constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
    using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
    auto const sched = schedule(p, g);
    Pipe const pipe{s.pipeline};
    int const row0 = 64 * c;
    std::uint32_t const bar_id = std::uint32_t(1 + c);  // the warpgroup's named barrier
    float acc[1][BN / 2];                               // not initialized: each piece's first k-block overwrites them
    std::uint32_t const a_base = smem_address(s.a), b_base = smem_address(s.b);
    // The tiled MMA's partition of D's coordinates, for the register store only: a kernel without
    // that store does not instantiate it (a third of the kernel's front-end time). (Where it is,
    // where nvcc's instances have always computed it: ptxas allocates registers after it.)
    auto thr_mma = [&] {
      if constexpr (Store::kRegisters && !kTight)  // (kTight: in the epilogue, see there)
        return make_tiled_mma(MMA_Atom<Op>{}, Layout<Shape<Int<kConsumers>, _1, _1>>{}).get_slice(c * 128 + lt);
      else return 0;
    }();
    auto cD = [&] {
      if constexpr (Store::kRegisters) return make_identity_tensor(make_shape(p.M, p.N));
      else return 0;
    }();
    GemmSm90StoreRing<TOut> ring{s.epilogue_buffers(c)};
    PipelineState<Cfg::Stages> st;
    // (The piece's body is inlined into both of for_each's loops: a call would put acc in local memory.)
    sched.for_each([&](sm90::TileWork const& w, auto phase) __attribute__((always_inline)) {
      constexpr bool sk_phase = Cfg::StreamK && decltype(phase)::value;
      int bmc = 0, bn = 0;
      gemm_block_coord(w.tile, g.tiles_mc, g.tiles_n, bmc, bn, p.raster);
      int const bm = bmc * CM + int(g.rank);
      if constexpr (gemm_sm90_block_scaled_config<Cfg>)
        gemm_sm90_consume_ktiles_block<Cfg, T>(acc, pipe, st, w.k0, w.k1, a_base, b_base, row0, lt, p.scales,
                                               bm * BM + row0, bn * BN, p.M - 1, p.N - 1);
      else
        gemm_sm90_consume_ktiles<Cfg, T, AKMajor, BKMajor>(acc, pipe, st, w.k0, w.k1, a_base, b_base, row0, lt, [] {});

      if constexpr (sk_phase) {  // a tile split over blocks: hand this part over, or add the others'
        auto const slot = [&](int u) {
          return p.sk.partials + (std::size_t(u) * kConsumers + std::size_t(c)) * (128 * BN / 2);
        };
        auto const flag = [&](int u) { return p.sk.flags + (u * kConsumers + c); };
        if (sm90::StreamKScheduler::contributes(w)) {
          gemm_sm90_stream_k_publish(acc[0], slot(g.first_tile), flag(g.first_tile), p.sk.epoch, lt, bar_id);
          return;
        }
        if (sm90::StreamKScheduler::owns_split(w, g.k_tiles))
          sched.for_each_contributor(
              w.tile, [&](int u) { gemm_sm90_stream_k_add(acc[0], slot(u), flag(u), p.sk.epoch, lt, bar_id); });
      }

      if constexpr (is_fp8_v<T> && !gemm_sm90_block_scaled_config<Cfg>)  // after the stream-K sum (linear)
        gemm_sm90_scale_acc(acc[0], p.scales, bm * BM + row0, bn * BN, p.M - 1, p.N - 1, lt);

      // ---- epilogue (the producer is already loading the next tile) -----------------------------
      // (The stream-K copy computes each chunk's values just before its store, Lean: fewer registers
      // live beside its schedule.)
      // kTight: the epilogue's thread-constant offsets (its stmatrix addresses, the register
      // store's coordinates) are computed from a thread index taken as new here, each tile, not
      // once before the tiles and held across the k-loop, where the block-scaled loop's two sets
      // of accumulators leave no registers for them (they spilled).
      int lt_e = lt;
      (void)lt_e;  // (a kernel of neither store path's use of it: the one-warpgroup ladder step)
      if constexpr (kTight) schedule_here(lt_e);
      auto const store_tma = [&]() __attribute__((always_inline)) {
        if constexpr (Store::kTma)
          gemm_sm90_store_tma<TOut, 1, BN, sk_phase || kTight, E>(acc, p.ep, maps.tma_d, ring, bm * BM + row0, bn * BN,
                                                                  p.M, p.N, lt_e, bar_id);
      };
      if constexpr (Store::kRegisters) {
        auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));
        auto tCcD = [&] {  // (V,1,1) -> (m,n)
          if constexpr (kTight)
            return make_tiled_mma(MMA_Atom<Op>{}, Layout<Shape<Int<kConsumers>, _1, _1>>{})
                .get_slice(c * 128 + lt_e)
                .partition_C(gcD);
          else return thr_mma.partition_C(gcD);
        }();
        static_assert(decltype(size(tCcD.layout()))::value == BN / 2,
                      "GemmSm90WsRoles: the tiled MMA's partition of C must match the wgmma accumulators");
        if (Store::tma(p.tma_store_d)) store_tma();
        else gemm_sm90_store(acc[0], tCcD(_, 0, 0), p.M, p.N, p.ep);
      } else {
        store_tma();
      }
    });
    // Before the block exits (and its shared memory goes), the last stores have read their
    // sources; their writes to D need not be waited for (they are visible when the grid ends).
    if (Store::tma(p.tma_store_d) && lt == 0) ring.drain();
  }
};

// Step 3c: ping-pong. The producer loads the block's tiles one after the other through the ring;
// consumer warpgroup c takes the block's tiles j with j % 2 == c, so that while one runs its main
// loop the other stores its last tile. The main loops take turns (OrderedBarrier<2>: a warpgroup
// starts its main loop once the other has waited for all k-tiles of the block's previous tile): a
// warpgroup that skipped a tile must not wait on a stage's full barrier two phases ahead, where
// the barrier's parity would answer for the wrong phase.
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor, GemmSm90Epilogue E = GemmSm90Epilogue::any>
struct GemmSm90PingpongRoles {
  static constexpr int kConsumers = 2, kThreads = 384;
  static constexpr int kProducerRegs = 40, kConsumerRegs = 232;
  static constexpr int kClusterSize = 1;
  using Store = GemmSm90StorePath<E, true>;
  using Params = GemmSm90Params<Cfg, T, TOut, AKMajor, BKMajor>;
  using Maps = GemmSm90Maps<Cfg, T, TOut, AKMajor, BKMajor>;
  using Storage = GemmSm90Storage<Cfg, T>;
  using Pipe = TmaPipeline<Cfg::Stages>;  // empty[s]: the one consumer warpgroup that used the stage

  __device__ __forceinline__ static void setup(Params const& p, Maps const& maps, Storage& s) {
    tma_prefetch_desc(maps.tma_a.get_tma_descriptor());
    tma_prefetch_desc(maps.tma_b.get_tma_descriptor());
    if (Store::tma(p.tma_store_d)) tma_prefetch_desc(maps.tma_d.get_tma_descriptor());
    Pipe{s.pipeline}.init(1);
    OrderedBarrier<2>{s.order}.init();
  }

  // The grid of tiles (computed before the split: sm90::RolesWithPlan).
  struct Plan {
    int tiles_m, tiles_n, k_tiles;
  };
  __device__ __forceinline__ static Plan plan(Params const& p) {
    return Plan{(p.M + Cfg::BM - 1) / Cfg::BM, (p.N + Cfg::BN - 1) / Cfg::BN, (p.K + Cfg::BK - 1) / Cfg::BK};
  }

  __device__ __forceinline__ static void produce(Params const& p, Maps const& maps, Plan const& g, Storage& s, int lt) {
    if (lt != 0) return;
    sm90::StreamKScheduler const sched{g.tiles_m * g.tiles_n, g.k_tiles, int(gridDim.x), int(blockIdx.x), 0};
    gemm_sm90_produce(p, maps, s, sched, g.tiles_m, g.tiles_n, 0u);
  }

  __device__ __forceinline__ static void consume(Params const& p, Maps const& maps, Plan const& g, Storage& s, int c,
                                                 int lt) {
    constexpr int BM = Cfg::BM, BN = Cfg::BN;
    constexpr int MB_ = BM / 64;
    constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
    constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
    using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
    int const tiles_m = g.tiles_m, tiles_n = g.tiles_n, k_tiles = g.k_tiles;
    // This warpgroup's tiles: the block's tiles j = c, c + 2, ... (the persistent schedule of
    // 2 gridDim units, this one unit blockIdx + c gridDim).
    int const grid = int(gridDim.x);
    sm90::StreamKScheduler const sched{tiles_m * tiles_n, k_tiles, 2 * grid, int(blockIdx.x) + c * grid, 0};
    Pipe const pipe{s.pipeline};
    OrderedBarrier<2> const order{s.order};
    OrderedTurn turn = order.turn(c);
    float acc[MB_][BN / 2];  // not initialized: each tile's first k-block overwrites them
    std::uint32_t const a_base = smem_address(s.a), b_base = smem_address(s.b);
    // the register store's partition of D's coordinates, only where there is one (as GemmSm90WsRoles)
    auto thr_mma = [&] {
      if constexpr (Store::kRegisters) return make_tiled_mma(MMA_Atom<Op>{}).get_slice(lt);
      else return 0;
    }();
    auto cD = [&] {
      if constexpr (Store::kRegisters) return make_identity_tensor(make_shape(p.M, p.N));
      else return 0;
    }();
    GemmSm90StoreRing<TOut> ring{s.epilogue_buffers(c)};
    int j = c;  // the block's tile index
    sched.for_each([&](sm90::TileWork const& w, auto) __attribute__((always_inline)) {
      int bm = 0, bn = 0;
      gemm_block_coord(w.tile, tiles_m, tiles_n, bm, bn, p.raster);
      order.enter(turn);                                      // the other's main loop of tile j-1 is past its waits
      auto st = PipelineState<Cfg::Stages>::at(j * k_tiles);  // the ring's position of this tile's first k-tile
      gemm_sm90_consume_ktiles<Cfg, T, AKMajor, BKMajor>(acc, pipe, st, 0, k_tiles, a_base, b_base, 0, lt, [&] {
        if (lt == 0) order.leave(turn);  // the other warpgroup's turn
      });
      j += 2;
      if constexpr (is_fp8_v<T>) {
        TESSERA_UNROLL
        for (int mi = 0; mi < MB_; ++mi)
          gemm_sm90_scale_acc(acc[mi], p.scales, bm * BM + 64 * mi, bn * BN, p.M - 1, p.N - 1, lt);
      }

      auto const store_tma = [&]() __attribute__((always_inline)) {
        if constexpr (Store::kTma)
          gemm_sm90_store_tma<TOut, MB_, BN, true, E>(acc, p.ep, maps.tma_d, ring, bm * BM, bn * BN, p.M, p.N, lt,
                                                      std::uint32_t(1 + c));
      };
      if constexpr (Store::kRegisters) {
        auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));
        auto tCcD = thr_mma.partition_C(gcD);  // (V,MB_,1) -> (m,n)
        if (Store::tma(p.tma_store_d)) {
          store_tma();
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
            p.ep.template store<BN / 2>([&](int v) { return acc[mi][v]; }, coord, p.M, p.N);
          }
        }
      } else {
        store_tma();
      }
    });
    if (Store::tma(p.tma_store_d) && lt == 0) ring.drain();  // as in GemmSm90WsRoles
  }
};

// Step 1 (see the file comment): one warpgroup loads and multiplies a BM x BN tile; not
// warp-specialized, so it runs on the skeleton's pieces (storage, ring) but not its template.
template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(128, 1)
    gemm_sm90_kernel(GemmSm90Params<Cfg, T, TOut, AKMajor, BKMajor> const p,
                     __grid_constant__ GemmSm90Maps<Cfg, T, TOut, AKMajor, BKMajor> const maps) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages;
  constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
  constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
  using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, AKMajor>();  // (BM,BK) -> offset
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, BKMajor>();  // (BN,BK) -> offset
  constexpr int kStageA = BM * BK, kStageB = BN * BK;                    // elements
  constexpr int MB_ = BM / 64;                                           // wgmmas along M

  int const tid = int(threadIdx.x);
  int const tiles_m = (p.M + BM - 1) / BM, tiles_n = (p.N + BN - 1) / BN;
  int bm = 0, bn = 0;
  gemm_block_coord(int(blockIdx.x), tiles_m, tiles_n, bm, bn);
  int const k_tiles = (p.K + BK - 1) / BK;

  // ---- shared memory: Stages x (A, B) and the ring's barriers -----------------------------------
  // The one warpgroup both loads and multiplies: thread 0 refills a stage once a block barrier says
  // every warp is past the wgmmas that read it, so the ring's full barriers are used and its empty
  // ones are not (an arrival and a wait on them per k-tile, in the warp that also issues the
  // wgmmas, measured much slower: docs/performance/log.md, "Figures moved from code comments").
  auto& s = sm90::shared_storage<GemmSm90Storage<Cfg, T>>();
  TmaPipeline<Stages> const pipe{s.pipeline};
  if (tid == 0) {
    tma_prefetch_desc(maps.tma_a.get_tma_descriptor());
    tma_prefetch_desc(maps.tma_b.get_tma_descriptor());
    pipe.init(1);
  }
  __syncthreads();
  grid_dependency_wait();  // a no-op unless launched with programmatic dependent launch

  // Thread 0: k-tile kt into its stage (free: see above).
  auto load = [&](int kt) {
    auto const st = PipelineState<Stages>::at(kt);
    std::uint64_t* bar = pipe.producer_expect(st, kGemmSm90StageBytes<Cfg, T>);
    gemm_sm90_load_stage<Cfg, T, AKMajor, BKMajor>(maps.tma_a, maps.tma_b, bar, s.stage_a(st.index),
                                                   s.stage_b(st.index), kt, bm, bn, p.M, p.N, p.K);
  };
  if (tid == 0) {
    for (int kt = 0; kt < Stages && kt < k_tiles; ++kt) load(kt);
  }

  // ---- the accumulators: BM/64 wgmma tiles of 64 x BN, BN/2 registers each -------------------
  float acc[MB_][BN / 2];  // not initialized: the first k-block overwrites them
  std::uint32_t const a_base = smem_address(s.a), b_base = smem_address(s.b);

  // ---- main loop -----------------------------------------------------------------------------
  PipelineState<Stages> st;
  for (int kt = 0; kt < k_tiles; ++kt, ++st) {
    pipe.consumer_wait(st);
    gemm_sm90_mma_ktile<Op, MA, MB, BK, BN>(
        acc, a_base + std::uint32_t(st.index * kStageA * sizeof(gemm_sm90_unit_t<T>)),
        b_base + std::uint32_t(st.index * kStageB * sizeof(gemm_sm90_unit_t<T>)), sA_layout, sB_layout, 0, kt == 0);
    warpgroup_wait<1>();  // k-tile kt-1's wgmmas have retired: its stage may be refilled
    if (kt >= 1 && kt - 1 + Stages < k_tiles) {
      __syncthreads();  // every warp of the warpgroup is past its wait
      if (tid == 0) load(kt - 1 + Stages);
    }
  }
  warpgroup_wait<0>();
  gemm_sm90_fence_acc<MB_, BN>(acc);
  if constexpr (is_fp8_v<T>) {
    TESSERA_UNROLL
    for (int mi = 0; mi < MB_; ++mi)
      gemm_sm90_scale_acc(acc[mi], p.scales, bm * BM + 64 * mi, bn * BN, p.M - 1, p.N - 1, tid);
  }

  // ---- epilogue: D = act(alpha acc + beta C + bias), each thread its (m, n) from the tiled MMA --
  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  auto thr_mma = mma.get_slice(tid);
  auto cD = make_identity_tensor(make_shape(p.M, p.N));                             // (M,N) -> (m,n)
  auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));  // (BM,BN) -> (m,n)
  auto tCcD = thr_mma.partition_C(gcD);                                             // (V,MB_,1) -> (m,n)
  static_assert(decltype(size<0>(tCcD.layout()))::value == BN / 2 && decltype(size<1>(tCcD.layout()))::value == MB_,
                "gemm_sm90_kernel: the tiled MMA's partition of C must match the wgmma accumulators");
  TESSERA_UNROLL
  for (int mi = 0; mi < MB_; ++mi) gemm_sm90_store(acc[mi], tCcD(_, mi, 0), p.M, p.N, p.ep);
}

}  // namespace detail

// GemmSm90Kernel<Cfg, T, TOut, AK, BK>: one kernel of gemm_sm90, as a type. function() is the kernel
// nvcc compiled (naming it compiles it); name() its C++ name, as a run-time compiler instantiates
// it: for GemmSm90PersistentDefault, bf16, K-major operands, "tessera::sm90::warp_specialized_kernel<
// tessera::kernels::detail::GemmSm90WsRoles<tessera::kernels::GemmSm90WsConfig<128, 256, 64, 4,
// true, 1, false>, tessera::bfloat16_t, tessera::bfloat16_t, true, true> >".
template <class Cfg, class T, class TOut, bool AK, bool BK>
struct GemmSm90Kernel {
  using Params = detail::GemmSm90Params<Cfg, T, TOut, AK, BK>;
  using Maps = detail::GemmSm90Maps<Cfg, T, TOut, AK, BK>;
  using Roles = std::conditional_t<detail::is_pingpong_config<Cfg>, detail::GemmSm90PingpongRoles<Cfg, T, TOut, AK, BK>,
                                   detail::GemmSm90WsRoles<Cfg, T, TOut, AK, BK>>;
#if !defined(__CUDACC_RTC__)
  static auto function() {
    if constexpr (detail::is_pingpong_config<Cfg> || detail::is_ws_config<Cfg>)
      return sm90::warp_specialized_kernel<Roles>;
    else return detail::gemm_sm90_kernel<Cfg, T, TOut, AK, BK>;
  }
  static std::string const& name() {
    static std::string const n = [] {
      std::string const args = detail::gemm_sm90_config_name<Cfg>() + ", " + detail::gemm_sm90_type_name<T>() + ", " +
                               detail::gemm_sm90_type_name<TOut>() + ", " + (AK ? "true" : "false") + ", " +
                               (BK ? "true" : "false");
      if constexpr (detail::is_pingpong_config<Cfg>)
        return "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90PingpongRoles<" + args + "> >";
      else if constexpr (detail::is_ws_config<Cfg>)
        return "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<" + args + "> >";
      else return "tessera::kernels::detail::gemm_sm90_kernel<" + args + ">";
    }();
    return n;
  }
#endif
};

}  // namespace tessera::kernels
