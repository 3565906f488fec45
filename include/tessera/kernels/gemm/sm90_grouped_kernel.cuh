// The Hopper grouped GEMM's kernel (device code): D_g = alpha A_g B_g for the groups g of a
// mixture-of-experts layer, in one launch, as roles on the warp-specialized skeleton
// (sm90/warp_specialized.cuh) beside the GEMM's (kernels/gemm/sm90_kernel.cuh), whose pieces it
// runs: the shared storage and ring (GemmSm90Storage, TmaPipeline), the consumers' k-loop
// (gemm_sm90_consume_ktiles) and the epilogue through shared memory and TMA (gemm_sm90_store_tma).
// What differs is the schedule and the addresses:
//   * the groups' rows lie in one packed A (rows x K, row-major) and one packed D (rows x N): group g
//     owns rows [begin_g, end_g) of both (the tokens of an expert, contiguous; or a fixed-capacity
//     slot g of `capacity` rows of which the first masked_m[g] are valid). B is one tensor of G
//     matrices (G x N x K, K-major, or G x K x N, N-major);
//   * gemm_sm90_grouped_prepare (one block, before the kernel) turns the groups' row counts into
//     GemmSm90GroupedRows: each group's [begin, end) and the prefix sums of its tiles (ceil(rows /
//     BM) x ceil(N / BN) a group; an empty group has none), which sm90::GroupedScheduler walks: a
//     persistent block takes global tiles blockIdx, + gridDim, ..., and locate(tile) names the
//     group (a bisection over the prefix sums, read through the L1 cache);
//   * A: one 2-D tensor map over the packed A. A tile starting at row begin_g + BM bm may read rows of
//     the next group (or zeros past the end of A): those rows' sums are never stored;
//   * B: one 4-D tensor map (inner, outer, group, 1), so that TMA bounds every group's matrix: a
//     k-tile past K reads zeros, never the next group's weights (which, times A's zeros, could make
//     NaN of an Inf);
//   * a consumer warpgroup whose 64 rows of a tile lie past the group's end (the lower half of a
//     group's last, partial row block) skips the tile's wgmmas: it waits for each stage and releases
//     it at once;
//   * D: the consumer warpgroup's 64 rows of a tile go through the TMA-store epilogue when they lie
//     inside the group (the packed D's tensor map clips only at the matrix's end, not at a group's),
//     else (a group's last, partial row block) from registers, each element predicated on
//     m < end_g. A D that TMA cannot address is stored from registers throughout.
// Tiles of a group are taken row block fastest (bm = t % tiles_m): the blocks running at once share
// B's column tiles (the weights, the larger operand) in L2.
// 8-bit floats (T = float_e4m3_t or float_e5m2_t, B K-major): the GEMM's units (gemm_sm90_unit_t:
// element pairs; K and the maps in units) and its scales (gemm_sm90_scale_acc) before the epilogue,
// A's per tensor or per packed row, B's per group or per group and column.
#pragma once

#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/arch/copy_sm90_tma_4d.cuh"
#include "tessera/kernels/gemm/sm90_kernel.cuh"
#include "tessera/sm90/tile_scheduler.hpp"

namespace tessera::kernels {
namespace detail {

// What gemm_sm90_grouped_prepare writes for the kernel (device memory, groups + 1 and groups
// entries): tile_offsets[g] the first global tile of group g (tile_offsets[groups]: all tiles),
// begin[g] and end[g] its rows in the packed A and D.
struct GemmSm90GroupedRows {
  int* tile_offsets = nullptr;
  int* begin = nullptr;
  int* end = nullptr;
};

// How the groups' rows are given (GemmGroupedForm's device side): offsets (groups + 1 values, group g
// rows [rows[g], rows[g + 1])), ends (groups values, group g rows [rows[g - 1], rows[g]), rows[-1] =
// 0: torch._grouped_mm's `offs`), masked (groups values, group g rows [g capacity, g capacity +
// rows[g])). Every bound is clamped into [0, total] and every group into [its begin, ...): a bad
// array cannot make the kernel read or write outside A and D.
enum class GemmSm90RowsForm { offsets, ends, masked };

// One block of kPrepareThreads threads: thread t takes groups [t chunk, (t + 1) chunk), counts
// their tiles, and the block's exclusive scan of the counts gives the prefix sums.
inline constexpr int kGemmSm90PrepareThreads = 256;
template <class Unused = void>
__global__ void __launch_bounds__(kGemmSm90PrepareThreads)
    gemm_sm90_grouped_prepare(int const* rows, GemmSm90RowsForm form, int groups, int total, int capacity, int bm,
                              int tiles_n, GemmSm90GroupedRows out) {
  __shared__ int sums[kGemmSm90PrepareThreads];
  int const t = int(threadIdx.x);
  int const chunk = (groups + kGemmSm90PrepareThreads - 1) / kGemmSm90PrepareThreads;
  int const g0 = min(groups, t * chunk), g1 = min(groups, g0 + chunk);
  auto const clamp = [&](int v, int lo) { return v < lo ? lo : v > total ? total : v; };
  auto const bounds = [&](int g, int& b, int& e) {
    if (form == GemmSm90RowsForm::masked) {
      b = min(total, g * capacity);
      int const n = rows[g];
      e = clamp(b + (n < 0 ? 0 : n > capacity ? capacity : n), b);
    } else if (form == GemmSm90RowsForm::offsets) {
      b = clamp(rows[g], 0);
      e = clamp(rows[g + 1], b);
    } else {
      b = g == 0 ? 0 : clamp(rows[g - 1], 0);
      e = clamp(rows[g], b);
    }
  };
  int count = 0;
  for (int g = g0; g < g1; ++g) {
    int b = 0, e = 0;
    bounds(g, b, e);
    out.begin[g] = b;
    out.end[g] = e;
    count += (e - b + bm - 1) / bm * tiles_n;
  }
  sums[t] = count;
  __syncthreads();
  for (int d = 1; d < kGemmSm90PrepareThreads; d *= 2) {  // inclusive scan (Hillis-Steele)
    int const v = t >= d ? sums[t - d] : 0;
    __syncthreads();
    sums[t] += v;
    __syncthreads();
  }
  int base = sums[t] - count;  // exclusive
  for (int g = g0; g < g1; ++g) {
    out.tile_offsets[g] = base;
    base += (out.end[g] - out.begin[g] + bm - 1) / bm * tiles_n;
  }
  if (t == kGemmSm90PrepareThreads - 1) out.tile_offsets[groups] = sums[t];
}

// The grouped kernel's arguments: the groups, N and K (K in units of gemm_sm90_unit_t<T>), the
// epilogue (alpha; d, ldd, pairs_aligned for the register store), where D goes, the prepared rows;
// for 8-bit floats the scales: A's one or per packed row (scales.a, a_step 0 or 1), B's per group,
// one or per column (scales.b + b_group_step g, b_step 0 or 1).
template <class TOut>
struct GemmSm90GroupedParams {
  int groups, N, K;
  GemmEpilogue<TOut> ep;
  bool tma_store_d;
  GemmSm90GroupedRows rows;
  GemmSm90Scales scales;
  int b_group_step;
};
// A (rows, K) in the GEMM's A box; B (G, outer, inner) in 4-D boxes of one group's matrix (K-major:
// BN rows of 64 K-elements; N-major: 64 columns of BK K-rows, BN/64 of them a stage); D (rows, N) in
// the epilogue's boxes (an empty descriptor when D is stored from registers).
template <class Cfg, class T, class TOut>
struct GemmSm90GroupedMaps {
  GemmSm90TmaA<Cfg, T, true> tma_a;
  TmaDescriptor b;
  GemmSm90TmaD<TOut> tma_d;
};

// The roles (see the file comment): a producer warpgroup (one thread loads) and BM/64 consumer
// warpgroups, consumer c owning rows 64 c .. 64 c + 63 of each tile; persistent, no clusters, no
// stream-K (Cfg: a persistent GemmSm90WsConfig with ClusterM 1).
template <class Cfg, class T, class TOut, bool BKMajor>
struct GemmSm90GroupedRoles {
  static_assert(is_ws_config<Cfg> && gemm_sm90_persistent_config<Cfg> && Cfg::ClusterM == 1 && !Cfg::StreamK &&
                    Cfg::kEpilogueBytes > 0,
                "GemmSm90GroupedRoles: give a persistent GemmSm90WsConfig without clusters or stream-K");
  static_assert(!is_fp8_v<T> || BKMajor, "GemmSm90GroupedRoles: fp8 B must be K-major (the only fp8 form of wgmma)");
  static constexpr int kConsumers = Cfg::kConsumers, kThreads = Cfg::kThreads;
  static constexpr int kProducerRegs = 40, kConsumerRegs = 232;
  static constexpr int kClusterSize = 1;
  using Params = GemmSm90GroupedParams<TOut>;
  using Maps = GemmSm90GroupedMaps<Cfg, T, TOut>;
  using Storage = GemmSm90Storage<Cfg, T>;
  using Pipe = TmaPipeline<Cfg::Stages>;
  using U = gemm_sm90_unit_t<T>;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;

  struct Plan {
    int tiles_n, k_tiles;
  };
  __device__ __forceinline__ static Plan plan(Params const& p) {
    return Plan{(p.N + BN - 1) / BN, (p.K + BK - 1) / BK};
  }
  __device__ __forceinline__ static sm90::GroupedScheduler schedule(Params const& p, Plan const& g) {
    return sm90::GroupedScheduler{p.rows.tile_offsets, p.groups, g.k_tiles, int(gridDim.x), int(blockIdx.x)};
  }
  // Global tile `tile` as (group, its first row in the packed matrices, its row end, column tile).
  struct Where {
    int group, row, end, bn;
  };
  __device__ __forceinline__ static Where where(Params const& p, Plan const& g, sm90::GroupedScheduler const& s,
                                                int tile) {
    sm90::GroupTile const gt = s.locate(tile);
    int const b = __ldg(p.rows.begin + gt.group), e = __ldg(p.rows.end + gt.group);
    int const tiles_m = (e - b + BM - 1) / BM;
    return Where{gt.group, b + BM * (gt.tile % tiles_m), e, gt.tile / tiles_m};
  }

  __device__ __forceinline__ static void setup(Params const& p, Maps const& maps, Storage& s) {
    tma_prefetch_desc(maps.tma_a.get_tma_descriptor());
    tma_prefetch_desc(&maps.b);
    if (p.tma_store_d) tma_prefetch_desc(maps.tma_d.get_tma_descriptor());
    Pipe{s.pipeline}.init(kConsumers);
  }

  __device__ __forceinline__ static void produce(Params const& p, Maps const& maps, Plan const& g, Storage& s, int lt) {
    if (lt != 0) return;
    auto const sched = schedule(p, g);
    Pipe const pipe{s.pipeline};
    PipelineState<Cfg::Stages> st;
    sched.for_each([&](sm90::TileWork const& w, auto) {
      Where const at = where(p, g, sched, w.tile);
      for (int kt = w.k0; kt < w.k1; ++kt, ++st) {
        pipe.producer_acquire(st);
        std::uint64_t* bar = pipe.producer_expect(st, kGemmSm90StageBytes<Cfg, T>);
        SM90_TMA_LOAD_2D::copy(maps.tma_a.get_tma_descriptor(), bar, s.stage_a(st.index), BK * kt, at.row);
        U* const b = s.stage_b(st.index);
        if constexpr (BKMajor) {  // one box: BN rows (columns of B) of 64 K-elements
          SM90_TMA_LOAD_4D::copy(&maps.b, bar, b, BK * kt, BN * at.bn, at.group, 0);
        } else {  // BN/64 boxes of 64 columns x BK K-rows, each a 64-wide chunk of the stage
          TESSERA_UNROLL
          for (int c = 0; c < BN / 64; ++c)
            SM90_TMA_LOAD_4D::copy(&maps.b, bar, b + c * 64 * BK, BN * at.bn + 64 * c, BK * kt, at.group, 0);
        }
      }
    });
    grid_dependents_launch();
  }

  __device__ __forceinline__ static void consume(Params const& p, Maps const& maps, Plan const& g, Storage& s, int c,
                                                 int lt) {
    auto const sched = schedule(p, g);
    Pipe const pipe{s.pipeline};
    int const row0 = 64 * c;
    std::uint32_t const bar_id = std::uint32_t(1 + c);  // the warpgroup's named barrier
    float acc[1][BN / 2];                               // not initialized: each tile's first k-block overwrites them
    std::uint32_t const a_base = smem_address(s.a), b_base = smem_address(s.b);
    GemmSm90StoreRing<TOut> ring{s.epilogue_buffers(c)};
    PipelineState<Cfg::Stages> st;
    int const w = lt / 32, l = lt % 32;
    sched.for_each([&](sm90::TileWork const& wk, auto) __attribute__((always_inline)) {
      Where const at = where(p, g, sched, wk.tile);
      int const m0 = at.row + row0, n0 = BN * at.bn;  // this warpgroup's 64 x BN block of D
      if (m0 >= at.end) {
        // Past the group's rows (the lower half of a group's last row block): nothing to compute or
        // store. One thread takes the stages and hands them back unread, so the other warpgroup's
        // wgmmas have the tensor cores alone (such a tile costs about half a full one); the others
        // only count them. Only that thread waits on the stages: had every thread waited and one
        // released, a thread still spinning on k-tile j's barrier once the producer had refilled the
        // stage would see the parity of k-tile j + Stages and stay a round behind (a hang, seen on the
        // H200 in back-to-back launches). The named barrier then holds the warpgroup together, so
        // that all of it waits for its next tile's stages from the same point.
        for (int kt = wk.k0; kt < wk.k1; ++kt, ++st) {
          if (lt == 0) {
            pipe.consumer_wait(st);
            pipe.consumer_release(st);
          }
        }
        named_barrier_sync(bar_id, 128);
        return;
      }
      gemm_sm90_consume_ktiles<Cfg, T, true, BKMajor>(acc, pipe, st, wk.k0, wk.k1, a_base, b_base, row0, lt, [] {});
      if constexpr (is_fp8_v<T>) {  // A's scales by packed row, B's of the group
        GemmSm90Scales sc = p.scales;
        if (sc.b != nullptr) sc.b += std::ptrdiff_t(at.group) * p.b_group_step;
        gemm_sm90_scale_acc(acc[0], sc, m0, n0, at.end - 1, p.N - 1, lt);
      }
      if (p.tma_store_d && m0 + 64 <= at.end) {
        // inside the group: TMA clips only at D's last column (and row)
        gemm_sm90_store_tma<TOut, 1, BN, false, GemmSm90Epilogue::tma_plain>(acc, p.ep, maps.tma_d, ring, m0, n0,
                                                                             at.end, p.N, lt, bar_id);
      } else {
        // the group's last rows: value 4 j + r of the fragment is (m0 + 16 w + l/4 + 8 (r/2),
        // n0 + 8 j + 2 (l%4) + r%2); rows at or past the group's end are not stored
        p.ep.template store<BN / 2>([&](int v) { return acc[0][v]; },
                                    [&](int v) {
                                      int m = m0 + 16 * w + l / 4 + 8 * (v % 4 / 2),
                                          n = n0 + 8 * (v / 4) + 2 * (l % 4) + v % 2;
                                      schedule_here(m, n);
                                      return make_coord(m, n);
                                    },
                                    at.end, p.N);
      }
    });
    if (p.tma_store_d && lt == 0) ring.drain();  // the last stores have read their buffers
  }
};

// GemmSm90GroupedKernel<Cfg, T, TOut, BK>: the grouped kernel as a type (GemmSm90Kernel's form).
template <class Cfg, class T, class TOut, bool BKMajor>
struct GemmSm90GroupedKernel {
  using Roles = GemmSm90GroupedRoles<Cfg, T, TOut, BKMajor>;
  using Params = typename Roles::Params;
  using Maps = typename Roles::Maps;
#if !defined(__CUDACC_RTC__)
  static auto function() { return sm90::warp_specialized_kernel<Roles>; }
#endif
};

}  // namespace detail
}  // namespace tessera::kernels
