// The attention forward kernel for Hopper (sm_90a; device code, NVRTC compiles it), as roles on the
// warp-specialized skeleton (sm90/warp_specialized.cuh); its launcher is kernels/attention/forward.cuh
// and its guide docs/attention.md.
//   O = softmax(scale Q K^T [+ causal mask]) V,  LSE = log(sum_j exp(scale q_i . k_j)) (natural log)
// for Q (batch, heads_q, seq_q, D), K and V (batch, heads_kv, seq_k, D), O like Q, 16-bit inputs
// (half_t, bfloat16_t), fp32 accumulation, D = 64, 128 or 256.
//   AttentionCausal (problem.hpp)    none, top_left (PyTorch's is_causal: key j visible to query i iff
//                                    j <= i), bottom_right (FlashAttention's: j <= i + seq_k - seq_q)
//   AttentionSm90Config<D[, Pingpong[, Overlap[, Persistent]]]>
//                                    the tile: BM = 128 query rows (two consumer warpgroups of 64),
//                                    BN keys a step (128; 64 for D = 256), 2 stages of K and V; the
//                                    consumers side by side, or taking turns (ping-pong), or
//                                    each overlapping its softmax with its products (overlap); a
//                                    block a tile, or looping over tiles (persistent)
//   attention_sm90_tile, attention_sm90_key_limit, attention_sm90_needs_mask
//                                    a block's tile: (m-block, head, batch or sequence) and the K
//                                    blocks it visits; the keys a query sees in a block; whether a
//                                    block needs the mask (the sizes, AttentionSm90Shape, are in
//                                    problem.hpp)
//   AttentionSm90Storage<Cfg, T>     the shared storage: Q (BM x D), 2 stages of K and of V (BN x D),
//                                    the barriers
//   AttentionSm90Params<T>           the kernel's values, passed by value: where O and LSE go, the
//                                    shape, the scale
//   AttentionSm90Maps<T>             what it hands to TMA by address, a __grid_constant__: the 4-D
//                                    tensor maps of Q, K, V
//   AttentionSm90Roles<Cfg, T>       the roles: the block's tile planned before the split; one
//                                    producer thread loads Q once and K, V through two TMA rings;
//                                    each consumer warpgroup owns 64 rows of the tile
//
// A block computes BM x D tiles of O (one (batch, head), rows m BM .. each): tile blockIdx.x, then
// (Cfg::kPersistent: the launcher's grid is at most one block an SM) every gridDim.x-th,
// each tile's K blocks in descending order (the masked ones, the ragged end of seq_k and the causal
// diagonal, come first). The K/V rings run on across tiles, and Q's buffer is released (q_empty)
// when both consumers' last Q K^T has completed, so the next tile's loads overlap this one's last
// P V and epilogue:
//
//        K block n (BN keys, D)      V block n (BN keys, D)
//   smem  [Q: BM x D]  [K stage 0][K stage 1]  [V stage 0][V stage 1]    (128-byte swizzled)
//                 ^           ^  full/empty barriers   ^
//   warpgroup 0  (producer, 24 registers): thread 0 issues TMA: Q once a tile (after q_empty), then
//                                          K(n), V(n) into the rings' next stages (n = n_blocks - 1 - i)
//   warpgroup 1  (consumer 0, 240 registers): rows  0..63 of the tile   S = Q K^T (SS wgmma, fp32),
//   warpgroup 2  (consumer 1, 240 registers): rows 64..127 of the tile  online softmax, P = bf16/fp16
//                                          in registers, O += P V (RS wgmma), O / rowsum at the end
//   (D = 256 persistent: 40 and 232 registers; Cfg::kProducerRegs, kConsumerRegs)
//
// Per consumer thread (lane l of warp w of the warpgroup, g = l / 4, t = l % 4), every fragment is
// the wgmma accumulator layout: value 4 j + 2 h + e of S (BN/2 values) or O (D/2 values) is row
// 16 w + g + 8 h of the warpgroup's 64, column 8 j + 2 t + e. The P operand of the RS wgmma for keys
// 16 kk .. 16 kk + 15 is S's values 8 kk .. 8 kk + 7 packed in pairs (register i = values 8 kk + 2 i,
// + 1, the lower column in the low half): the conversion moves no data between threads.
//
// Step i of a consumer (K block n): wait K[i % 2]; S = Q K^T (D/16 wgmma m64nBNk16, zero-initialized
// by the first); wait; release K; mask (blocks that reach past seq_k or cross the diagonal only);
// row max (quad shuffles), alpha = 2^((m_old - m_new) scale log2 e), P = 2^(S scale log2 e - m_new
// scale log2 e), row sums (per thread; reduced once at the end), O *= alpha; wait V[i % 2]; O += P V
// (BN/16 wgmma m64nDk16); wait; release V. Rows with no visible key keep max = -inf (used as 0 in
// the exponent), so their P is 0, and end with O = 0 and LSE = -inf.
//
// Variable-length batches (AttentionSm90Shape::cu_seqlens_q set): the tensor maps span the packed
// rows (one batch), a tile reads its sequence's offsets and lengths in the plan, and its TMA boxes
// start at the sequence's first row. A box that reaches past the sequence reads the next one's rows
// (zeros past the tensor): past seq_k they are masked like the ragged end of a fixed-length K, past
// seq_q they are computed and not stored.
#pragma once

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/arch/copy_sm90_tma_4d.cuh"
#include "tessera/arch/mma_sm90.hpp"
#include "tessera/arch/sfu.hpp"
#include "tessera/arch/util.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/product.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/attention/problem.hpp"
#include "tessera/pipeline/ordered_barrier.hpp"
#include "tessera/pipeline/tma_pipeline.hpp"
#include "tessera/sm90/shared_storage.hpp"
#include "tessera/sm90/warp_specialized.cuh"

namespace tessera::kernels {

// The tile for head dimension D: BM = 128 query rows (two consumer warpgroups of 64 rows), BN keys
// a step, Stages stages of K and of V. Shared memory (16-bit): Q BM D + 2 Stages BN D elements:
// 80 KB (D = 64), 160 KB (128), 192 KB (256, BN = 64). Registers a consumer thread: O D/2, S BN/2,
// P BN/4 (128, 160, 176). The main loop (AttentionSm90Roles::mainloop*): the two consumer
// warpgroups side by side (the plain loop), or taking turns issuing their wgmmas (PingpongLoop:
// mainloop_pingpong; D <= 128), or each overlapping its softmax with its products (OverlapLoop,
// FlashAttention-3's overlap inside a warpgroup: mainloop_overlap; S of the next block, P of this
// one and O live at once: O D/2 + S BN/2 + P BN/4 = 160 registers for D = 128, 176 for D = 256).
// PersistentLoop: a block loops over tiles (blockIdx.x, + gridDim.x, ...: the persistent schedule,
// at most one block an SM, attention_sm90_persistent and attention_sm90_grid); without it a block
// computes one tile, and the loop's state leaves the main loop's registers alone (the loop cost
// D = 64's plain loop 9 % at seq 16k on the H200: uniform values moved to vector registers).
template <int D, bool PingpongLoop = false, bool OverlapLoop = false, bool PersistentLoop = false>
struct AttentionSm90Config {
  static_assert(D == 64 || D == 128 || D == 256, "AttentionSm90Config: head_dim must be 64, 128 or 256");
  static_assert(
      !PingpongLoop || D <= 128,
      "AttentionSm90Config: no ping-pong for head_dim 256 (S, P and O of both turns do not fit the registers)");
  static_assert(!(PingpongLoop && OverlapLoop),
                "AttentionSm90Config: the ping-pong and overlap loops exclude each other");
  static constexpr int kHeadDim = D;
  static constexpr bool Pingpong = PingpongLoop;
  static constexpr bool Overlap = OverlapLoop;
  static constexpr bool kPersistent = PersistentLoop;
  static constexpr int BM = 128;
  static constexpr int BN = D == 256 ? 64 : 128;
  static constexpr int Stages = 2;
  static constexpr int kConsumers = BM / 64;
  // setmaxnreg's split (the block's 384 x 168 registers: 128 kProducerRegs + 256 kConsumerRegs <=
  // 64512). The producer's tile loop for D = 256 (four boxes a K or V stage) needs more than 24
  // registers (ptxas spilled one); its consumers peak at R229 of 232 (ptxas 13.0).
  static constexpr int kProducerRegs = D == 256 && PersistentLoop ? 40 : 24;
  static constexpr int kConsumerRegs = D == 256 && PersistentLoop ? 232 : 240;
};

// One block's work: query rows m BM .. m BM + BM - 1 of head h of sequence b, against K blocks
// 0 .. n_blocks - 1 (BN keys each; visited from the last down). n_blocks == 0: no query of the tile
// sees a key (O = 0, LSE = -inf), or the tile lies past its sequence's end (varlen: nothing to do).
// seq_q, seq_k: the sequence's lengths; diag: key j is visible to query i iff j <= i + diag (causal
// only: seq_k - seq_q when bottom-right aligned, else 0); q_row, k_row: the sequence's first row in
// Q/O and in K/V along seq (varlen: cu_seqlens; else 0). b is the tensors' batch coordinate: the
// batch index, or 0 for varlen, whose one batch holds every sequence.
struct AttentionSm90Tile {
  int m, h, b, n_blocks;
  int seq_q, seq_k, diag;
  int q_row, k_row;
};

// attention_sm90_tile<BM, BN>(shape, tile): the work of block `tile` of the grid (m_blocks heads_q
// batch blocks), in the shape's order (attention_sm90_order; three multiplies, no division): tile
// (g m_blocks + i) pairs + j is m-block i of (sequence, head) pair g pairs + j, causal m-block
// m_blocks - 1 - i (descending, so that a group's longest tiles start first). Without a mask the
// launchers' groups are single pairs (the m-block fastest: the query tiles of one head run
// together and share its K and V in L2); causal, groups of pairs whose K and V fit a part of the L2
// (attention_sm90_causal_group), or all pairs (the m-block slowest). A causal tile visits the K
// blocks up to its last query's last visible key. Varlen (shape.cu_seqlens_q set), the sequence's
// rows and lengths are read from the offsets (device memory in the kernel; any memory the caller
// can read).
// Example (BM = BN = 128, seq_q = seq_k = 1000, 2 heads, 1 batch, top_left, no groups): tile 0 is
// m = 7, h = 0, visiting 8 K blocks; tile 15 is m = 0, h = 1, visiting 1. In groups of 1 pair:
// tile 7 is m = 0, h = 0; tile 8 is m = 7, h = 1.
template <int BM, int BN>
TESSERA_HOST_DEVICE constexpr AttentionSm90Tile attention_sm90_tile(AttentionSm90Shape const& s, int tile) {
  int const q = s.order_pairs.quotient(tile);  // g m_blocks + i
  int const g = s.order_m.quotient(q);
  int const i = q - g * s.order_m.d;
  int const bh = g * s.order_pairs.d + (tile - q * s.order_pairs.d);  // the pair: sequence heads_q + head
  int const b = s.order_heads.quotient(bh);
  int const m = s.causal ? s.order_m.d - 1 - i : i;
  AttentionSm90Tile w{m, bh - b * s.order_heads.d, b, 0, s.seq_q, s.seq_k, 0, 0, 0};
  if (s.cu_seqlens_q != nullptr) {
    w.q_row = s.cu_seqlens_q[w.b];
    w.seq_q = s.cu_seqlens_q[w.b + 1] - w.q_row;
    w.k_row = s.cu_seqlens_k[w.b];
    w.seq_k = s.cu_seqlens_k[w.b + 1] - w.k_row;
    w.b = 0;
  }
  if (s.causal && s.bottom_right) w.diag = w.seq_k - w.seq_q;
  if (m * BM >= w.seq_q || w.seq_k <= 0) return w;  // past the sequence, or no key: n_blocks 0
  int n_blocks = (w.seq_k + BN - 1) / BN;
  if (s.causal) {
    int const last_row = ((m + 1) * BM < w.seq_q ? (m + 1) * BM : w.seq_q) - 1;
    int const last_key = last_row + w.diag;  // the last key the tile's last query sees
    int const reach = last_key < 0 ? 0 : last_key / BN + 1;
    n_blocks = reach < n_blocks ? reach : n_blocks;
  }
  w.n_blocks = n_blocks;
  return w;
}

// attention_sm90_key_limit<BN>(tile, causal, n, row): the keys of K block n (columns n BN ..) that
// query `row` of the tile's sequence sees are the block's columns c < the returned limit (<= 0:
// none; >= BN: all): they are keys (< seq_k) and, causal, on or below the diagonal (<= row + diag).
// Example (BN = 128, seq_k = 200, top_left): block 1, row 150 -> min(200 - 128, 151 - 128) = 23
// (keys 128 .. 150).
template <int BN>
TESSERA_HOST_DEVICE constexpr int attention_sm90_key_limit(AttentionSm90Tile const& w, bool causal, int n, int row) {
  int limit = w.seq_k - n * BN;
  if (causal) {
    int const diag_limit = row + w.diag + 1 - n * BN;
    limit = diag_limit < limit ? diag_limit : limit;
  }
  return limit;
}

// attention_sm90_needs_mask<BM, BN>(tile, causal, n): whether some query of the tile misses some
// column of K block n (the block reaches past seq_k, or past the diagonal of the tile's first row);
// the kernel masks only those blocks. Example (BM = BN = 128, seq_q = seq_k = 256, top_left): block
// 0 of m-block 1 needs none, block 1 does (the diagonal).
template <int BM, int BN>
TESSERA_HOST_DEVICE constexpr bool attention_sm90_needs_mask(AttentionSm90Tile const& w, bool causal, int n) {
  return (n + 1) * BN > w.seq_k || (causal && (n + 1) * BN - 1 > w.m * BM + w.diag);
}

namespace detail {

// The wgmmas: S = Q K^T (N = BN, both operands K-major in shared memory) and O += P V (P from
// registers, V's tile (BN keys, D) read as the MN-major B of a (D, BN) operand).
template <class T, int N>
struct AttentionSm90SsOp;
template <class T, int N>
struct AttentionSm90RsOp;
// One specialization of each for N and the two 16-bit types.
#define TESSERA_ATTENTION_SM90_SS_OP(N)                                       \
  template <>                                                                 \
  struct AttentionSm90SsOp<bfloat16_t, N> {                                   \
    using type = SM90_64x##N##x16_F32BF16BF16_SS<GmmaMajor::K, GmmaMajor::K>; \
  };                                                                          \
  template <>                                                                 \
  struct AttentionSm90SsOp<half_t, N> {                                       \
    using type = SM90_64x##N##x16_F32F16F16_SS<GmmaMajor::K, GmmaMajor::K>;   \
  };
#define TESSERA_ATTENTION_SM90_RS_OP(N)                                        \
  template <>                                                                  \
  struct AttentionSm90RsOp<bfloat16_t, N> {                                    \
    using type = SM90_64x##N##x16_F32BF16BF16_RS<GmmaMajor::K, GmmaMajor::MN>; \
  };                                                                           \
  template <>                                                                  \
  struct AttentionSm90RsOp<half_t, N> {                                        \
    using type = SM90_64x##N##x16_F32F16F16_RS<GmmaMajor::K, GmmaMajor::MN>;   \
  };
TESSERA_ATTENTION_SM90_SS_OP(64)
TESSERA_ATTENTION_SM90_SS_OP(128)
TESSERA_ATTENTION_SM90_RS_OP(64)
TESSERA_ATTENTION_SM90_RS_OP(128)
TESSERA_ATTENTION_SM90_RS_OP(256)
#undef TESSERA_ATTENTION_SM90_SS_OP
#undef TESSERA_ATTENTION_SM90_RS_OP

// A tile of R rows (queries or keys) x D, (row, d) -> element offset, without its 128-byte swizzle:
// D/64 chunks of R rows x 64 contiguous elements (the canonical K-major wgmma layout), chunk c
// written by one TMA box (64 x R) at element c R 64. The same bytes read as (d, key) are the
// canonical MN-major layout of V as PV's B operand (attention_sm90_v_layout).
template <int R, int D>
TESSERA_HOST_DEVICE constexpr auto attention_sm90_rows_layout() {
  return tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<Int<R>, Int<D>>{});
}
// V's stage as PV's B operand (N = D, K = BN keys): (d, key) -> element offset, the same bytes as
// attention_sm90_rows_layout<BN, D>: key-rows of 64 d-elements, 64-wide d chunks BN 64 apart.
template <int BN, int D>
TESSERA_HOST_DEVICE constexpr auto attention_sm90_v_layout() {
  return tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<Int<D>, Int<BN>>{}, LayoutRight{});
}

// The shared storage: Q's tile, the K and V stages (each a whole number of 1024-byte swizzle atoms,
// so every tile starts aligned), the two rings' barriers and Q's.
template <class Cfg, class T>
struct AttentionSm90Storage {
  static constexpr int D = Cfg::kHeadDim, kQ = Cfg::BM * D, kKV = Cfg::BN * D;  // elements
  static_assert(kQ * sizeof(T) % 1024 == 0 && kKV * sizeof(T) % 1024 == 0,
                "AttentionSm90Storage: tiles must keep the 1024-byte alignment of the swizzle atoms");
  T q[kQ];
  T k[Cfg::Stages * kKV];
  T v[Cfg::Stages * kKV];
  std::uint64_t k_ring[TmaPipeline<Cfg::Stages>::kBarriers];
  std::uint64_t v_ring[TmaPipeline<Cfg::Stages>::kBarriers];
  std::uint64_t q_full;   // Q's tile has landed (one phase a tile the block computes)
  std::uint64_t q_empty;  // both consumer warpgroups are done reading Q (the next tile's may land)
  std::uint64_t order[OrderedBarrier<2>::kBarriers];  // the ping-pong's turns (Cfg::Pingpong)

  __device__ T* k_stage(int s) { return k + s * kKV; }
  __device__ T* v_stage(int s) { return v + s * kKV; }
};

// The kernel's two arguments (sm90/warp_specialized.cuh). AttentionSm90Params, the values it reads,
// goes by value: no address of it is taken, so ptxas keeps the shape and the scale, read for every
// tile and K block, in uniform registers. o: O's element (0, 0, 0, 0); O's strides in elements
// (head_dim's is 1). lse: fp32 (batch, heads_q, seq_q) contiguous (varlen: (heads_q, total_q)), or
// null (not written); lse_head: the elements between two heads' LSE rows (seq_q; varlen: total_q).
// scale_log2 = scale log2(e).
template <class T>
struct AttentionSm90Params {
  T* o;
  long long o_batch, o_head, o_seq;
  float* lse;
  long long lse_head;
  AttentionSm90Shape shape;
  float scale, scale_log2;
  int tiles;  // the query tiles of the problem (m_blocks heads_q batch); blocks loop over them
};

// AttentionSm90Maps, what the kernel hands to TMA by address, goes as a __grid_constant__ (the
// tensor maps are used where they lie). q, k, v: 4-D tensor maps (D, seq, heads, batch) of boxes
// 64 x BM (Q) or 64 x BN (K, V) with the 128-byte swizzle.
template <class T>
struct AttentionSm90Maps {
  TmaDescriptor q, k, v;
};

// Two 16-bit values in one register, `lo` in the low half (the lower column of a pair).
template <class T>
__device__ __forceinline__ std::uint32_t attention_sm90_pack(float lo, float hi) {
  return std::uint32_t(T(lo).raw()) | (std::uint32_t(T(hi).raw()) << 16);
}

template <int N>
__device__ __forceinline__ void attention_sm90_fence(float (&r)[N]) {
  TESSERA_UNROLL
  for (int i = 0; i < N; ++i) warpgroup_fence_operand(r[i]);
}

template <class Cfg, class T>
struct AttentionSm90Roles {
  static constexpr int D = Cfg::kHeadDim, BM = Cfg::BM, BN = Cfg::BN, Stages = Cfg::Stages;
  static constexpr int kConsumers = Cfg::kConsumers, kThreads = 128 * (1 + kConsumers);
  static constexpr int kProducerRegs = Cfg::kProducerRegs, kConsumerRegs = Cfg::kConsumerRegs;
  static constexpr int kClusterSize = 1;
  using Params = AttentionSm90Params<T>;
  using Maps = AttentionSm90Maps<T>;
  using Storage = AttentionSm90Storage<Cfg, T>;
  using Pipe = TmaPipeline<Stages>;
  using SsOp = typename AttentionSm90SsOp<T, BN>::type;
  using RsOp = typename AttentionSm90RsOp<T, D>::type;
  static constexpr std::uint32_t kQBytes = std::uint32_t(BM * D * sizeof(T));
  static constexpr std::uint32_t kKVBytes = std::uint32_t(BN * D * sizeof(T));
  static_assert(BN % 16 == 0 && D % 64 == 0, "AttentionSm90Roles: BN a multiple of 16 (PV's K), D of 64");

  // One thread: the rings (one arrival per consumer warpgroup releases a stage) and Q's barrier.
  __device__ __forceinline__ static void setup(Params const&, Maps const& maps, Storage& s) {
    tma_prefetch_desc(&maps.q);
    tma_prefetch_desc(&maps.k);
    tma_prefetch_desc(&maps.v);
    Pipe{s.k_ring}.init(kConsumers);
    Pipe{s.v_ring}.init(kConsumers);
    mbarrier_init(&s.q_full, 1);
    mbarrier_init(&s.q_empty, kConsumers);
    if constexpr (Cfg::Pingpong) OrderedBarrier<2>{s.order}.init();
    fence_barrier_init();
  }

  // The rows row0 .. row0 + R - 1 of (head, batch) of a tensor map into a tile laid out as
  // attention_sm90_rows_layout<R, D>: D/64 boxes of 64 x R, completing on `bar`.
  template <int R>
  __device__ __forceinline__ static void load_rows(TmaDescriptor const* desc, std::uint64_t* bar, T* dst, int row0,
                                                   int head, int batch) {
    TESSERA_UNROLL
    for (int c = 0; c < D / 64; ++c) SM90_TMA_LOAD_4D::copy(desc, bar, dst + c * R * 64, 64 * c, row0, head, batch);
  }

  // The block's tile, w of produce and consume (sm90::RolesWithPlan: every thread computes it before
  // the role split, so that it stays in uniform registers; computed inside the roles, it was kept in
  // vector registers, reloading the shape with LDC).
  __device__ __forceinline__ static AttentionSm90Tile plan(Params const& p) {
    return attention_sm90_tile<BM, BN>(p.shape, int(blockIdx.x));
  }

  // Thread 0 of the producer warpgroup, for each tile the block computes (blockIdx.x, + gridDim.x,
  // ...; the first is the plan w0): Q once the consumers are done with the previous tile's
  // (q_empty), then K and V of block n_blocks - 1 - i into the rings, the ring positions running
  // on across tiles (so the next tile's first stages load while the consumers finish this one).
  __device__ __forceinline__ static void produce(Params const& p, Maps const& maps, AttentionSm90Tile const& w0,
                                                 Storage& s, int lt) {
    if (lt != 0) return;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    PipelineState<Stages> st;
    std::uint32_t loaded = 0;  // tiles whose Q was loaded
    AttentionSm90Tile w = w0;
    for (int tile = int(blockIdx.x);;) {
      if (w.n_blocks > 0) {
        if (loaded > 0) mbarrier_wait(&s.q_empty, (loaded - 1) & 1u);
        ++loaded;
        int const head_kv = w.h / p.shape.group;
        mbarrier_arrive_expect_tx(&s.q_full, kQBytes);
        load_rows<BM>(&maps.q, &s.q_full, s.q, w.q_row + w.m * BM, w.h, w.b);
        for (int i = 0; i < w.n_blocks; ++i, ++st) {
          int const n = w.n_blocks - 1 - i;
          k_ring.producer_acquire(st);
          load_rows<BN>(&maps.k, k_ring.producer_expect(st, kKVBytes), s.k_stage(st.index), w.k_row + n * BN, head_kv,
                        w.b);
          v_ring.producer_acquire(st);
          load_rows<BN>(&maps.v, v_ring.producer_expect(st, kKVBytes), s.v_stage(st.index), w.k_row + n * BN, head_kv,
                        w.b);
        }
      }
      tile += int(gridDim.x);
      if (!Cfg::kPersistent || tile >= p.tiles) break;
      w = attention_sm90_tile<BM, BN>(p.shape, tile);
    }
  }

  // S = Q K^T for the warpgroup's 64 rows (rows 64 c .. of Q's tile) against the stage's BN keys:
  // D/16 wgmmas, the first overwriting S (scale-d 0), committed as one batch.
  __device__ __forceinline__ static void issue_qk(float (&sc)[BN / 2], std::uint32_t q_addr, std::uint32_t k_addr,
                                                  int c) {
    constexpr auto sQ = attention_sm90_rows_layout<BM, D>();  // (BM,D) -> offset
    constexpr auto sK = attention_sm90_rows_layout<BN, D>();  // (BN,D) -> offset
    attention_sm90_fence(sc);
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kk = 0; kk < D / 16; ++kk) {
      std::uint64_t const da = make_gmma_desc<GmmaMajor::K, 64>(q_addr, sQ, 64 * c, 16 * kk);
      std::uint64_t const db = make_gmma_desc<GmmaMajor::K, BN>(k_addr, sK, 0, 16 * kk);
      SsOp::fma(da, db, sc, kk == 0 ? GmmaScale::zero : GmmaScale::one);
    }
    warpgroup_commit_batch();
  }

  // O += P V (first: O = P V): BN/16 wgmmas, P's registers 4 kk .. 4 kk + 3 for keys 16 kk ..
  __device__ __forceinline__ static void issue_pv(float (&o)[D / 2], float (&pa)[BN / 4], std::uint32_t v_addr,
                                                  bool first) {
    constexpr auto sV = attention_sm90_v_layout<BN, D>();  // (D,BN) -> offset
    attention_sm90_fence(o);
    attention_sm90_fence(pa);
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kk = 0; kk < BN / 16; ++kk) {
      std::uint64_t const db = make_gmma_desc<GmmaMajor::MN, D>(v_addr, sV, 0, 16 * kk);
      RsOp::fma(__float_as_uint(pa[4 * kk]), __float_as_uint(pa[4 * kk + 1]), __float_as_uint(pa[4 * kk + 2]),
                __float_as_uint(pa[4 * kk + 3]), db, o, first && kk == 0 ? GmmaScale::zero : GmmaScale::one);
    }
    warpgroup_commit_batch();
  }

  // -inf where key n BN + 8 j + 2 t + e is not seen by row `row0 + 8 h` (value 4 j + 2 h + e):
  // attention_sm90_key_limit.
  __device__ __forceinline__ static void mask(float (&sc)[BN / 2], AttentionSm90Tile const& w, bool causal, int n,
                                              int row0, int t) {
    float const neg_inf = __int_as_float(0xff800000);
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      int const limit =
          attention_sm90_key_limit<BN>(w, causal, n, row0 + 8 * h) - 2 * t;  // from this thread's first column
      TESSERA_UNROLL
      for (int j = 0; j < BN / 8; ++j) {
        TESSERA_UNROLL
        for (int e = 0; e < 2; ++e)
          if (8 * j + e >= limit) sc[4 * j + 2 * h + e] = neg_inf;
      }
    }
  }

  // The online softmax of one block, rows h = 0, 1 (values 4 j + 2 h + e of S): the row maxima
  // (over the quad), alpha[h] = 2^((old max - new max) scale log2 e), S := P = 2^(S scale log2 e -
  // max scale log2 e), the thread's running row sums. A row with no visible key yet keeps max =
  // -inf, used as 0 in the exponents (so its P and alpha are 0, never NaN).
  __device__ __forceinline__ static void softmax(float (&sc)[BN / 2], float (&row_max)[2], float (&row_sum)[2],
                                                 float (&alpha)[2], float scale_log2) {
    float const neg_inf = __int_as_float(0xff800000);
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      float mx = row_max[h];
      TESSERA_UNROLL
      for (int j = 0; j < BN / 8; ++j) mx = fmaxf(mx, fmaxf(sc[4 * j + 2 * h], sc[4 * j + 2 * h + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      float const mc = (mx == neg_inf ? 0.0f : mx) * scale_log2;
      alpha[h] = ex2_approx(row_max[h] * scale_log2 - mc);
      row_max[h] = mx;
      float sum = 0.0f;
      TESSERA_UNROLL
      for (int j = 0; j < BN / 8; ++j) {
        TESSERA_UNROLL
        for (int e = 0; e < 2; ++e) {
          float const x = ex2_approx(fmaf(sc[4 * j + 2 * h + e], scale_log2, -mc));
          sc[4 * j + 2 * h + e] = x;
          sum += x;
        }
      }
      row_sum[h] = row_sum[h] * alpha[h] + sum;
    }
  }

  // O's rows scaled by alpha (value 4 j + r is in row r / 2).
  __device__ __forceinline__ static void rescale(float (&o)[D / 2], float const (&alpha)[2]) {
    TESSERA_UNROLL
    for (int j = 0; j < D / 8; ++j) {
      TESSERA_UNROLL
      for (int r = 0; r < 4; ++r) o[4 * j + r] *= alpha[r / 2];
    }
  }

  // P as the RS wgmma's A: register 4 kk + q holds values 8 kk + 2 q, 8 kk + 2 q + 1 of S (keys
  // 16 kk ..: the A fragment of a 64 x 16 tile is the accumulator fragment of its columns).
  __device__ __forceinline__ static void pack_p(float (&pa)[BN / 4], float const (&sc)[BN / 2]) {
    TESSERA_UNROLL
    for (int q = 0; q < BN / 4; ++q) pa[q] = __uint_as_float(attention_sm90_pack<T>(sc[2 * q], sc[2 * q + 1]));
  }

  // The main loop, one block after the other: wait K, S = Q K^T, release K (and, after the last
  // block's, Q: q_empty), softmax, wait V, O += P V, release V (the two consumer warpgroups run it
  // side by side). Every main loop releases Q once its last Q K^T has completed, so that the next
  // tile's Q (persistent) loads under this tile's last P V and epilogue.
  __device__ __forceinline__ static void mainloop(Params const& p, Storage& s, AttentionSm90Tile const& w, int c,
                                                  int lt, int row0, float (&o)[D / 2], float (&row_max)[2],
                                                  float (&row_sum)[2], PipelineState<Stages>& st) {
    AttentionSm90Shape const& sh = p.shape;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    std::uint32_t const q_addr = smem_address(s.q);
    for (int i = 0; i < w.n_blocks; ++i, ++st) {
      int const n = w.n_blocks - 1 - i;
      float sc[BN / 2];  // S = Q K^T of the block, then P (fp32)
      k_ring.consumer_wait(st);
      issue_qk(sc, q_addr, smem_address(s.k_stage(st.index)), c);
      warpgroup_wait<0>();
      attention_sm90_fence(sc);
      if (lt == 0) {
        k_ring.consumer_release(st);
        if (i + 1 == w.n_blocks) mbarrier_arrive(&s.q_empty);  // the tile's last read of Q is done
      }
      if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, n)) mask(sc, w, sh.causal, n, row0, lt % 4);
      float alpha[2];
      softmax(sc, row_max, row_sum, alpha, p.scale_log2);
      if (i > 0) rescale(o, alpha);
      float pa[BN / 4];
      pack_p(pa, sc);
      v_ring.consumer_wait(st);
      issue_pv(o, pa, smem_address(s.v_stage(st.index)), i == 0);
      warpgroup_wait<0>();
      attention_sm90_fence(o);
      attention_sm90_fence(pa);
      if (lt == 0) v_ring.consumer_release(st);
    }
  }

  // The ping-pong main loop (Cfg::Pingpong): the two consumer warpgroups take turns issuing their
  // wgmmas (OrderedBarrier<2>), so that one's softmax runs while the other's products occupy the
  // tensor cores. A warpgroup's turns over a tile: [Q K(0)^T], [P(0) V(0), Q K(1)^T], ...,
  // [P(n-1) V(n-1)]: n_blocks + 1 turns for both (they work on the same tile). Its waits on the
  // rings come before it takes its turn.
  __device__ __forceinline__ static void mainloop_pingpong(Params const& p, Storage& s, AttentionSm90Tile const& w,
                                                           int c, int lt, int row0, float (&o)[D / 2],
                                                           float (&row_max)[2], float (&row_sum)[2],
                                                           PipelineState<Stages>& st, OrderedTurn& turn) {
    AttentionSm90Shape const& sh = p.shape;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    OrderedBarrier<2> const order{s.order};
    std::uint32_t const q_addr = smem_address(s.q);
    float sc[BN / 2];  // S of block i, then its P (fp32); st: the ring position of block i (K and V)
    k_ring.consumer_wait(st);
    order.enter(turn);
    issue_qk(sc, q_addr, smem_address(s.k_stage(st.index)), c);
    if (lt == 0) order.leave(turn);
    warpgroup_wait<0>();
    attention_sm90_fence(sc);
    if (lt == 0) k_ring.consumer_release(st);
    for (int i = 0; i < w.n_blocks; ++i) {
      int const n = w.n_blocks - 1 - i;
      bool const more = i + 1 < w.n_blocks;
      if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, n)) mask(sc, w, sh.causal, n, row0, lt % 4);
      float alpha[2];
      softmax(sc, row_max, row_sum, alpha, p.scale_log2);
      if (i > 0) rescale(o, alpha);
      float pa[BN / 4];
      pack_p(pa, sc);
      PipelineState<Stages> next = st;
      ++next;
      v_ring.consumer_wait(st);
      if (more) k_ring.consumer_wait(next);
      order.enter(turn);
      issue_pv(o, pa, smem_address(s.v_stage(st.index)), i == 0);
      if (more) issue_qk(sc, q_addr, smem_address(s.k_stage(next.index)), c);
      if (lt == 0) order.leave(turn);
      warpgroup_wait<0>();
      attention_sm90_fence(o);
      attention_sm90_fence(pa);
      attention_sm90_fence(sc);
      if (lt == 0) {
        v_ring.consumer_release(st);
        if (more) k_ring.consumer_release(next);
      }
      st = next;
    }
    if (lt == 0) mbarrier_arrive(&s.q_empty);  // (its last Q K^T completed with the last-but-one turn)
  }

  // The overlap main loop (Cfg::Overlap, FlashAttention-3's intra-warpgroup pipelining). Block i is
  // K block n_blocks - 1 - i at ring position i. The prologue: S(0) = Q K(0)^T, its mask and softmax,
  // P(0). Step i = 0 .. n_blocks - 2: issue S(i+1) = Q K(i+1)^T (SS, async); O *= alpha(i) (the
  // rescale for block i's row maxima, before P(i) V(i) is added: O is not in flight then); issue
  // O += P(i) V(i) (RS, async); wait for S(i+1) only (warpgroup_wait<1>: the groups retire in order);
  // mask and softmax S(i+1) (alpha(i+1)) while P(i) V(i) runs; release K(i+1); wait for P(i) V(i)
  // (warpgroup_wait<0>); release V(i); pack P(i+1). The epilogue: O *= alpha, the last P V. Live at
  // once: O (D/2), S(i+1) (BN/2) and P(i) (BN/4, packed): 160 registers for D = 128.
  //   ptxas places a wgmma wait anywhere above where the PTX has it (waiting early is always safe):
  // the wait, with nothing to hold it, lands at the softmax's first shuffle and nothing overlaps. K's
  // release, a memory operation ptxas keeps before the wait, goes after the softmax with a predicate
  // that reads its row sums (always true: they are sums of 2^x >= 0, and !(NaN < 0) holds), so that
  // the softmax comes before the wait in the SASS.
  __device__ __forceinline__ static void mainloop_overlap(Params const& p, Storage& s, AttentionSm90Tile const& w,
                                                          int c, int lt, int row0, float (&o)[D / 2],
                                                          float (&row_max)[2], float (&row_sum)[2],
                                                          PipelineState<Stages>& st) {
    AttentionSm90Shape const& sh = p.shape;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    std::uint32_t const q_addr = smem_address(s.q);
    float sc[BN / 2];  // S of block i + 1, then its P (fp32); st: the ring position of block i (K and V)
    float pa[BN / 4];  // P of block i, packed: PV's A operand
    float alpha[2];    // the rescale of O for block i's row maxima
    k_ring.consumer_wait(st);
    issue_qk(sc, q_addr, smem_address(s.k_stage(st.index)), c);
    warpgroup_wait<0>();
    attention_sm90_fence(sc);
    if (lt == 0) k_ring.consumer_release(st);
    if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, w.n_blocks - 1))
      mask(sc, w, sh.causal, w.n_blocks - 1, row0, lt % 4);
    softmax(sc, row_max, row_sum, alpha, p.scale_log2);
    pack_p(pa, sc);
    for (int i = 0; i + 1 < w.n_blocks; ++i, ++st) {
      int const n_next = w.n_blocks - 2 - i;  // the K block of block i + 1
      PipelineState<Stages> next = st;
      ++next;
      k_ring.consumer_wait(next);
      issue_qk(sc, q_addr, smem_address(s.k_stage(next.index)), c);
      if (i > 0) rescale(o, alpha);
      v_ring.consumer_wait(st);
      issue_pv(o, pa, smem_address(s.v_stage(st.index)), i == 0);
      warpgroup_wait<1>();  // S(i+1) is done; P(i) V(i) may still run
      attention_sm90_fence(sc);
      if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, n_next)) mask(sc, w, sh.causal, n_next, row0, lt % 4);
      softmax(sc, row_max, row_sum, alpha, p.scale_log2);
      attention_sm90_fence(sc);
      attention_sm90_fence(alpha);
      attention_sm90_fence(row_sum);
      if (lt == 0 && !(row_sum[0] + row_sum[1] < 0.0f)) k_ring.consumer_release(next);
      warpgroup_wait<0>();
      attention_sm90_fence(o);
      attention_sm90_fence(pa);
      if (lt == 0) v_ring.consumer_release(st);
      pack_p(pa, sc);
    }
    if (lt == 0) mbarrier_arrive(&s.q_empty);  // every Q K^T of the tile has completed
    if (w.n_blocks > 1) rescale(o, alpha);
    v_ring.consumer_wait(st);
    issue_pv(o, pa, smem_address(s.v_stage(st.index)), w.n_blocks == 1);
    warpgroup_wait<0>();
    attention_sm90_fence(o);
    attention_sm90_fence(pa);
    if (lt == 0) v_ring.consumer_release(st);
    ++st;
  }

  // Each consumer warpgroup, for each tile the block computes (as the producer: w0, then every
  // gridDim.x-th): wait for Q, the main loop (the ring positions and the ping-pong's turns running on
  // across tiles; it releases Q, q_empty, once its last Q K^T has completed), then the epilogue,
  // while the producer already loads the next tile.
  __device__ __forceinline__ static void consume(Params const& p, Maps const&, AttentionSm90Tile const& w0, Storage& s,
                                                 int c, int lt) {
    PipelineState<Stages> st;
    OrderedTurn turn = OrderedBarrier<2>::turn(c);
    std::uint32_t loaded = 0;  // tiles whose Q was loaded
    AttentionSm90Tile w = w0;
    for (int tile = int(blockIdx.x);;) {
      consume_tile(p, w, s, c, lt, st, turn, loaded);  // turn: the ping-pong's only
      tile += int(gridDim.x);
      if (!Cfg::kPersistent || tile >= p.tiles) break;
      w = attention_sm90_tile<BM, BN>(p.shape, tile);
    }
  }

  __device__ __forceinline__ static void consume_tile(Params const& p, AttentionSm90Tile const& w, Storage& s, int c,
                                                      int lt, PipelineState<Stages>& st, OrderedTurn& turn,
                                                      std::uint32_t& loaded) {
    AttentionSm90Shape const& sh = p.shape;
    int const warp = lt / 32, lane = lt % 32, g = lane / 4, t = lane % 4;
    int const row0 = w.m * BM + 64 * c + 16 * warp + g;  // this thread's rows (of the sequence): row0, row0 + 8
    float const neg_inf = __int_as_float(0xff800000);

    float o[D / 2];  // O's 64 x D accumulators of the warpgroup; written by the first PV
    float row_max[2] = {neg_inf, neg_inf}, row_sum[2] = {0.0f, 0.0f};
    (void)turn;
    if (w.n_blocks > 0) {
      mbarrier_wait(&s.q_full, loaded & 1u);
      ++loaded;
      if constexpr (Cfg::Pingpong) {
        mainloop_pingpong(p, s, w, c, lt, row0, o, row_max, row_sum, st, turn);
      } else if constexpr (Cfg::Overlap) {
        mainloop_overlap(p, s, w, c, lt, row0, o, row_max, row_sum, st);
      } else {
        mainloop(p, s, w, c, lt, row0, o, row_max, row_sum, st);
      }
    } else {
      TESSERA_UNROLL
      for (int r = 0; r < D / 2; ++r) o[r] = 0.0f;
    }

    // O / rowsum, LSE = max scale + log(rowsum) (the row sums reduced over the quad first). The
    // tile's rows of O and LSE are addressed here, after the main loop: computed before it, the two
    // pointers stayed live through it (4 registers; D = 256 persistent spilled them).
    T* const o_bh = p.o + w.b * p.o_batch + w.h * p.o_head + std::int64_t(w.q_row) * p.o_seq;
    float* const lse_bh =
        p.lse == nullptr ? nullptr : p.lse + (std::int64_t(w.b) * sh.heads_q + w.h) * p.lse_head + w.q_row;
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      float sum = row_sum[h];
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      bool const none = !(sum > 0.0f);  // no visible key (or a NaN)
      float const inv = none ? 0.0f : 1.0f / sum;
      float const lse = none ? neg_inf : row_max[h] * p.scale + logf(sum);
      int const row = row0 + 8 * h;
      if (row < w.seq_q) {
        T* const o_row = o_bh + std::int64_t(row) * p.o_seq + 2 * t;
        TESSERA_UNROLL
        for (int j = 0; j < D / 8; ++j)
          *reinterpret_cast<std::uint32_t*>(o_row + 8 * j) =
              attention_sm90_pack<T>(o[4 * j + 2 * h] * inv, o[4 * j + 2 * h + 1] * inv);
        if (t == 0 && lse_bh != nullptr) lse_bh[row] = lse;
      }
    }
  }
};

}  // namespace detail
}  // namespace tessera::kernels
