// The attention backward's main kernel for Hopper (sm_90a; device code), as roles on the
// warp-specialized skeleton (sm90/warp_specialized.cuh); its launcher, with the preprocessing and
// postprocessing kernels, is kernels/attention/backward.cuh and its guide docs/attention.md
// ("Backward").
//   Given Q, K, V, dO, LSE (the forward's, natural log) and D = rowsum(dO o O), for each block of BN
//   keys of one (batch, key/value head) and every m-block of BM queries of each query head of its
//   group:
//     S^T  = K Q^T                  (SS wgmma, the warpgroup's 64 keys x BM queries, fp32)
//     dP^T = V dO^T                 (SS wgmma)
//     P^T  = 2^(S^T scale log2 e - LSE log2 e)     (recomputed; masked entries 0)
//     dS^T = P^T o (dP^T - D)
//     dV  += P^T dO                 (RS wgmma: P^T from registers, dO's stage as an MN-major B)
//     dK  += dS^T Q                 (RS wgmma: dS^T from registers, Q's stage as an MN-major B)
//     dQ  += dS K                   (SS wgmma: dS^T through shared memory as an MN-major A, K's tile
//                                    as an MN-major B; added into the workspace's fp32 accumulator
//                                    by a TMA reduce-add of the share staged in shared memory
//                                    (DqTma, the default) or by red.global.add.v2.f32 atomics; the
//                                    postprocessing applies scale)
//   dK (times scale) and dV stay in registers across the loop and are stored once at the end.
//   AttentionBwdSm90Config<D>        the tile: BN = 128 keys a block (two consumer warpgroups of 64
//                                    keys), BM = 64 queries a step, 2 stages of (Q, dO, LSE, D)
//   AttentionBwdSm90Tile             a block's work: key block n of head hk of batch b, the first
//                                    m-block that sees one of its keys, the steps
//   AttentionBwdSm90Storage          K, V (loaded once), the Q/dO/LSE/D stages, dS^T (two buffers)
//   AttentionBwdSm90Params<T>        the values, by value: dK, dV, the dQ accumulator, the shape
//   AttentionBwdSm90Maps<T>          the tensor maps: Q, K, V, dO (4-D, as the forward's), LSE log2 e
//                                    and D (2-D over the workspace's padded rows), __grid_constant__
//   AttentionBwdSm90Roles<Cfg, T>    the roles: one producer thread; two consumer warpgroups
//
//   smem [DqTma: dQ share 0, 1: 2 boxes of BM x 32 fp32 each] [K: BN x D] [V: BN x D]
//        [Q stage 0, 1: BM x D] [dO stage 0, 1] [dS^T buffer 0, 1: BN x BM]
//        [LSE log2 e, D: stage 0, 1 x BM fp32] [barriers]                (tiles 128-byte swizzled)
//   warpgroup 0  (producer, 24 registers): thread 0 loads K, V once (kv_full), then for each query
//                head h of the group and each m-block m >= m_first: Q, dO (rows m BM .. of head h),
//                LSE log2 e and D (the workspace's rows) into the ring's next stage
//   warpgroup c = 1, 2 (consumer c - 1, 240 registers): keys 64 (c - 1) .. of the block; dK and dV
//                (64 x D each) in registers; its dQ share of each step over all BN keys (dS^T of
//                both warpgroups, met at a named barrier, is the A operand of either): D = 128,
//                columns 64 (c - 1) .. + 63; D = 64, the whole 64 x 64 tile every other step
//
// Per consumer thread (lane l of warp w of the warpgroup, g = l / 4, t = l % 4), every fragment is
// the wgmma accumulator layout (atom/mma_traits_sm90.hpp, CLayout): value 4 j + 2 h + e of S^T or
// dP^T (BM/2 values) is key 16 w + g + 8 h of the warpgroup's 64, query 8 j + 2 t + e of the
// m-block; of dK, dV (D/2 values) key 16 w + g + 8 h, column 8 j + 2 t + e; of the dQ share (32
// values) query 16 w + g + 8 h, column dq0 + 8 j + 2 t + e. P^T and dS^T, packed in pairs
// (register 4 kk + i holds values 8 kk + 2 i, 8 kk + 2 i + 1), are the A fragments of the RS
// wgmmas over queries 16 kk .. 16 kk + 15 (as the forward's P), with no data moved between threads.
//
// Masking: an entry (key j, query i) is kept iff j < seq_k and (causal) j <= i + diag; rows past
// seq_q need no mask: the workspace's LSE log2 e is +inf there (P = 0) and D is 0. A query that sees
// no key (LSE = -inf) gets +inf too, so its P and dS are 0 and its dQ is 0.
#pragma once

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/arch/copy_sm90_tma_4d.cuh"
#include "tessera/arch/mma_sm90.hpp"
#include "tessera/arch/red_sm90.hpp"
#include "tessera/arch/sfu.hpp"
#include "tessera/arch/smem.hpp"
#include "tessera/arch/util.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/kernels/attention/backward_problem.hpp"
#include "tessera/kernels/attention/forward_sm90.cuh"
#include "tessera/pipeline/tma_pipeline.hpp"
#include "tessera/sm90/shared_storage.hpp"
#include "tessera/sm90/warp_specialized.cuh"

namespace tessera::kernels {

// The backward's tile for head dimension D (64 or 128): BN = 128 keys a block (two consumer
// warpgroups of 64 keys each), BM = 64 queries a step, two stages of (Q, dO, LSE, D).
// Registers a consumer thread: dK and dV D/2 each, S^T and dP^T BM/2 each (then P^T, dS^T packed,
// BM/4 each), the dQ share 32: at most D + BM = 192 accumulators live at once (D = 128).
// Shared memory: K, V 2 BN D, Q, dO 2 x 2 BM D, dS^T 2 BN BM 16-bit elements: 160 KB (D = 128),
// 96 KB (D = 64). BM = 128 for D = 64 (FA3's tile: half the dQ atomics for the work) spilled 784
// bytes: S^T, dP^T (64 registers each), dK, dV and the RS operands do not fit 240 registers.
// Head dimension 256 is not built: dK and dV alone would take 256 registers a thread.
// Debug (tests only): block 0 also writes S^T (masked entries -inf), dP^T, P^T and dS^T of its
// first step in fp32 to AttentionBwdSm90Params::debug, [4][BN keys][BM queries] in that order.
// Varlen: variable-length batches (cu_seqlens; the tensors packed along seq as one batch).
// Overlap: S^T's wgmmas waited for alone, P^T made (fp32, and packed) and dV's wgmma issued while
// dP^T's run, dS^T made while dV's run; else one wait for S^T and dP^T, dV and dK issued together
// after both are made. (Making P^T between the two waits without issuing dV gains nothing: ptxas
// hoists the second wait above it.) Off by default: with the lean step it is within +-1 % of the
// plain order for head_dim 64 and 128 (H200, 2026-11-28); before the lean step it gave head_dim
// 128 +1 to +3.5 %. StageCount: the (Q, dO, LSE, D) ring's depth (3: within +-1.5 % of 2 on the
// same sweep).
// Lean (the default; not with Debug): the step's integer work cut. Every wgmma descriptor is a
// compile-time constant (make_gmma_desc at shared address 0) plus a start-address field added in
// its low word: the warpgroup's K, V and dQ-column bases (address >> 4) are computed once, before
// the loop, from a warp-uniform consumer index (uniform registers); a step adds its stage's and
// dS^T buffer's offsets (index x bytes >> 4) and each k-block's constant. dS^T's store addresses
// are one per-thread base XOR a constant per 16-byte unit (the 128-byte swizzle), LSE log2 e and D
// read at one base plus the stage's offset, the dQ atomics at the head's accumulator (uniform, set
// once a query head) plus a per-thread 32-bit offset advanced by BM D floats a step (no 64-bit
// multiply in the loop; the checks refuse a head whose accumulator has 2^32 floats or more).
// H200, 2026-11-28: head_dim 64 +6 to +8 % over the step before it, 128 within +-1 %. Lean = false
// is that step (descriptors and offsets recomputed each step), which the debug dumps use.
// DqTma (the default with Lean; Lean only): the dQ share goes into the accumulator by TMA instead
// of 16 red.global.add.v2.f32 a thread (whose issue queue, LG throttle, held ~a fifth of the
// consumers' time in Nsight Compute, head_dim 128, seq 4096, H200): each consumer warpgroup writes
// its share (64 queries x 64 columns, fp32) into its own shared buffer, two boxes of 64 rows x 32
// floats in the 128-byte swizzle (a warp's 8-byte stores: two wavefronts, the fewest for 256
// bytes), fence.proxy.async, meets its own named barrier, and one thread issues two
// cp.reduce.async.bulk.tensor.2d .add through a tensor map over the accumulator (rows of D floats)
// and commits them; it waits for their reads (cp.async.bulk.wait_group.read 0) before the next
// step's consumer barrier, after which the buffer is written again. 32 KB more shared memory.
// Built; not yet run on a GPU (2026-11-28).
template <int D, bool Debug = false, bool Varlen = false, bool Overlap = false, int StageCount = 2, bool Lean = !Debug,
          bool DqTma = Lean>
struct AttentionBwdSm90Config {
  static_assert(D == 64 || D == 128, "AttentionBwdSm90Config: the backward supports head_dim 64 and 128");
  static constexpr int kHeadDim = D;
  static constexpr bool kDebug = Debug;
  static constexpr bool kVarlen = Varlen;
  static constexpr bool kOverlap = Overlap;
  static constexpr bool kLean = Lean;
  static_assert(!(Lean && Debug), "AttentionBwdSm90Config: Lean has no debug dumps (use Debug with Lean = false)");
  static constexpr bool kDqTma = DqTma;
  static_assert(!DqTma || Lean,
                "AttentionBwdSm90Config: DqTma is built on the lean step (set Lean = true, or DqTma = false)");
  static constexpr int BN = 128;
  static constexpr int BM = 64;
  static constexpr int Stages = StageCount;
  static constexpr int kConsumers = 2;
  static constexpr int kProducerRegs = 24;
  static constexpr int kConsumerRegs = 240;
};

// A block's work: keys n BN .. n BN + BN - 1 of key/value head hk of batch b, against query
// m-blocks m_first .. m_blocks - 1 of each of the group's query heads (steps = group (m_blocks -
// m_first), 0 when no query sees a key of the block: dK = dV = 0). diag: key j is visible to query
// i iff j <= i + diag (causal only). Varlen only (else unused): b is 0 (the tensors' one batch) and
// the sequence's rows and lengths: Q's first row q_row, K's k_row, seq_q, seq_k, m_blocks; its first
// row in the workspace ws_row0 (attention_backward_varlen_row0: 16-byte aligned, 64 rows of padding);
// store: the block holds keys of the sequence (else it writes nothing).
struct AttentionBwdSm90Tile {
  int n, hk, b, m_first, steps, diag;
  int q_row, k_row, seq_q, seq_k, m_blocks, ws_row0;
  bool store;
};

// The kernel's values (by value: ptxas keeps them in uniform registers). dk, dv: (batch, heads_kv,
// seq_k, D) with strides in elements; dq_accum: fp32 (batch heads_q, rows_pad, D), rows_pad a
// multiple of 128 >= seq_q (the workspace); blocks: n_blocks heads_kv batch. Varlen: cu_seqlens_q,
// cu_seqlens_k (batch + 1 offsets each), seq_q, seq_k the longest sequences, dq_accum (heads_q,
// rows_pad, D) with rows_pad >= total_q + 64 batch (sequence b from row cu_seqlens_q[b] + 64 b).
template <class T>
struct AttentionBwdSm90Params {
  T* dk;
  long long dk_batch, dk_head, dk_seq;
  T* dv;
  long long dv_batch, dv_head, dv_seq;
  float* dq_accum;
  int rows_pad;
  int batch, heads_q, heads_kv, group, seq_q, seq_k, m_blocks, n_blocks;
  int causal, bottom_right;
  float scale, scale_log2;
  float* debug;             // Cfg::kDebug only: block 0's first step's S^T, dP^T, P^T, dS^T (fp32, 4 x BN x BM)
  int const* cu_seqlens_q;  // Cfg::kVarlen only
  int const* cu_seqlens_k;
};

// The tensor maps: q, k, v, dout 4-D (D, seq, heads, batch) in boxes of 64 x BM (Q, dO) or 64 x BN
// (K, V), 128-byte swizzle; lse2 and dsum 2-D (rows_pad, batch heads_q) fp32 in boxes of BM x 1.
template <class T>
struct AttentionBwdSm90Maps {
  TmaDescriptor q, k, v, dout, lse2, dsum;
};

// DqTma's maps: the six above and dq, the fp32 accumulator as a 2-D matrix (D floats a row, rows
// batch heads_q rows_pad; varlen heads_q rows_pad) in boxes of 32 x BM (128 bytes x 64 rows),
// 128-byte swizzle: the reduce-add's destination.
template <class T>
struct AttentionBwdSm90DqMaps : AttentionBwdSm90Maps<T> {
  TmaDescriptor dq;
};

// DqTma's staging (first in the storage: 1024-byte aligned): per consumer warpgroup one dQ share
// of BM = 64 queries x 64 columns fp32, as two boxes of 64 rows x 32 floats (128 bytes), each in
// the 128-byte swizzle (16-byte unit u of row r stored at unit u ^ r % 8); without DqTma an empty
// base (no bytes).
template <bool DqTma, int Consumers>
struct AttentionBwdSm90DqStage {};
template <int Consumers>
struct AttentionBwdSm90DqStage<true, Consumers> {
  static constexpr int kShareFloats = 64 * 64;  // (64 queries, 64 columns): two boxes of 64 x 32
  alignas(1024) float dq_share[Consumers * kShareFloats];
};

template <class Cfg, class T>
struct AttentionBwdSm90Storage : AttentionBwdSm90DqStage<Cfg::kDqTma, Cfg::kConsumers> {
  static constexpr int D = Cfg::kHeadDim, BM = Cfg::BM, BN = Cfg::BN, Stages = Cfg::Stages;
  static constexpr int kQ = BM * D, kKV = BN * D, kDS = BN * BM;  // elements
  static_assert(kQ * sizeof(T) % 1024 == 0 && kKV * sizeof(T) % 1024 == 0 && kDS * sizeof(T) % 1024 == 0,
                "AttentionBwdSm90Storage: tiles must keep the 1024-byte alignment of the swizzle atoms");
  T k[kKV];
  T v[kKV];
  T q[Stages * kQ];
  T dout[Stages * kQ];
  T ds[2 * kDS];                         // dS^T (BN keys x BM queries), two buffers (steps alternate)
  alignas(128) float lse2[Stages * BM];  // LSE log2 e of the stage's queries (+inf: no P)
  alignas(128) float dsum[Stages * BM];  // D of the stage's queries
  std::uint64_t ring[TmaPipeline<Stages>::kBarriers];
  std::uint64_t kv_full;

  __device__ T* q_stage(int s) { return q + s * kQ; }
  __device__ T* dout_stage(int s) { return dout + s * kQ; }
  __device__ T* ds_buffer(int i) { return ds + i * kDS; }
};

namespace detail {

// dQ's wgmma: dS (64 queries x 16 keys, MN-major in shared memory: dS^T's rows are keys) times K
// (64 columns of D x 16 keys, MN-major: K's rows are keys), N = 64.
template <class T>
struct AttentionBwdSm90DqOp;
template <>
struct AttentionBwdSm90DqOp<bfloat16_t> {
  using type = SM90_64x64x16_F32BF16BF16_SS<GmmaMajor::MN, GmmaMajor::MN>;
};
template <>
struct AttentionBwdSm90DqOp<half_t> {
  using type = SM90_64x64x16_F32F16F16_SS<GmmaMajor::MN, GmmaMajor::MN>;
};

// The named barrier the two consumer warpgroups meet at once both wrote their dS^T (ids 1..15;
// the skeleton uses none).
inline constexpr std::uint32_t kAttentionBwdDsBarrier = 1;
// DqTma: consumer warpgroup c's own barrier (id 2 + c), between its threads' writes of the dQ share
// and the reduce-add that reads it.
inline constexpr std::uint32_t kAttentionBwdDqBarrier0 = 2;

template <class Cfg, class T>
struct AttentionBwdSm90Roles {
  static constexpr int D = Cfg::kHeadDim, BM = Cfg::BM, BN = Cfg::BN, Stages = Cfg::Stages;
  static constexpr int kConsumers = Cfg::kConsumers, kThreads = 128 * (1 + kConsumers);
  static constexpr int kProducerRegs = Cfg::kProducerRegs, kConsumerRegs = Cfg::kConsumerRegs;
  static constexpr int kClusterSize = 1;
  using Params = AttentionBwdSm90Params<T>;
  using Maps = std::conditional_t<Cfg::kDqTma, AttentionBwdSm90DqMaps<T>, AttentionBwdSm90Maps<T>>;
  using Storage = AttentionBwdSm90Storage<Cfg, T>;
  using Pipe = TmaPipeline<Stages>;
  using SsOp = typename AttentionSm90SsOp<T, BM>::type;  // S^T, dP^T: N = BM queries, both K-major
  using RsOp = typename AttentionSm90RsOp<T, D>::type;   // dV, dK: N = D, B MN-major
  using DqOp = typename AttentionBwdSm90DqOp<T>::type;   // dQ share: N = 64, A and B MN-major
  static constexpr std::uint32_t kKVBytes = std::uint32_t(BN * D * sizeof(T));
  static constexpr std::uint32_t kStepBytes = std::uint32_t(2 * BM * D * sizeof(T) + 2 * BM * sizeof(float));
  // The dQ tile of a step (BM = 64 query rows x D) over the block's BN keys (both warpgroups'
  // dS^T), in 64 x 64 shares: D = 128, consumer c takes columns 64 c .. 64 c + 63; D = 64, the one
  // share goes to consumer (step % 2), the steps alternating (half the atomics of a share each).
  static constexpr int kDqShares = D / 64;
  static_assert(BM == 64 && (D == 64 || D == 128), "AttentionBwdSm90Roles: the dQ shares are 64 x 64");
  static_assert(BN == 64 * kConsumers, "AttentionBwdSm90Roles: each consumer warpgroup owns 64 keys");

  __device__ __forceinline__ static void setup(Params const&, Maps const& maps, Storage& s) {
    tma_prefetch_desc(&maps.q);
    tma_prefetch_desc(&maps.k);
    tma_prefetch_desc(&maps.v);
    tma_prefetch_desc(&maps.dout);
    tma_prefetch_desc(&maps.lse2);
    tma_prefetch_desc(&maps.dsum);
    if constexpr (Cfg::kDqTma) tma_prefetch_desc(&maps.dq);
    Pipe{s.ring}.init(kConsumers);
    mbarrier_init(&s.kv_full, 1);
    fence_barrier_init();
  }

  // The block's work (every thread, before the role split: uniform registers). Blocks are numbered
  // key block fastest, then key/value head, then batch (a head's key blocks run together and share
  // its Q and dO in L2).
  __device__ __forceinline__ static AttentionBwdSm90Tile plan(Params const& p) {
    int const x = int(blockIdx.x);
    int const nh = x / p.n_blocks;
    AttentionBwdSm90Tile w{x - nh * p.n_blocks, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, true};
    w.b = nh / p.heads_kv;
    w.hk = nh - w.b * p.heads_kv;
    if constexpr (Cfg::kVarlen) {
      int const sb = w.b;  // the sequence
      w.q_row = p.cu_seqlens_q[sb];
      w.seq_q = p.cu_seqlens_q[sb + 1] - w.q_row;
      w.k_row = p.cu_seqlens_k[sb];
      w.seq_k = p.cu_seqlens_k[sb + 1] - w.k_row;
      w.m_blocks = (w.seq_q + BM - 1) / BM;
      w.ws_row0 = int(attention_backward_varlen_row0(w.q_row, sb));
      w.store = w.n * BN < w.seq_k;
      w.b = 0;
    }
    if (p.causal) {
      w.diag = p.bottom_right ? seq_k(p, w) - seq_q(p, w) : 0;
      int const first_query = w.n * BN - w.diag;  // the first query that sees key n BN
      w.m_first = first_query <= 0 ? 0 : first_query / BM;
    }
    w.steps = w.store && w.m_first < m_blocks(p, w) ? p.group * (m_blocks(p, w) - w.m_first) : 0;
    return w;
  }

  // The sequence's lengths, m-blocks and first rows: the problem's (fixed length; rows 0) or the
  // tile's (varlen).
  __device__ __forceinline__ static int seq_q(Params const& p, AttentionBwdSm90Tile const& w) {
    if constexpr (Cfg::kVarlen) return w.seq_q;
    return p.seq_q;
  }
  __device__ __forceinline__ static int seq_k(Params const& p, AttentionBwdSm90Tile const& w) {
    if constexpr (Cfg::kVarlen) return w.seq_k;
    return p.seq_k;
  }
  __device__ __forceinline__ static int m_blocks(Params const& p, AttentionBwdSm90Tile const& w) {
    if constexpr (Cfg::kVarlen) return w.m_blocks;
    return p.m_blocks;
  }
  __device__ __forceinline__ static int q_row(AttentionBwdSm90Tile const& w) {
    if constexpr (Cfg::kVarlen) return w.q_row;
    return 0;
  }
  __device__ __forceinline__ static int k_row(AttentionBwdSm90Tile const& w) {
    if constexpr (Cfg::kVarlen) return w.k_row;
    return 0;
  }
  __device__ __forceinline__ static int ws_row0(AttentionBwdSm90Tile const& w) {
    if constexpr (Cfg::kVarlen) return w.ws_row0;
    return 0;
  }

  // R rows row0 .. of (head, batch) of a 4-D map into a tile laid out as
  // attention_sm90_rows_layout<R, D>: D/64 boxes of 64 x R, completing on bar.
  template <int R>
  __device__ __forceinline__ static void load_rows(TmaDescriptor const* desc, std::uint64_t* bar, T* dst, int row0,
                                                   int head, int batch) {
    TESSERA_UNROLL
    for (int c = 0; c < D / 64; ++c) SM90_TMA_LOAD_4D::copy(desc, bar, dst + c * R * 64, 64 * c, row0, head, batch);
  }

  // Thread 0 of the producer warpgroup: K and V once, then Q, dO, LSE log2 e and D of every step.
  __device__ __forceinline__ static void produce(Params const& p, Maps const& maps, AttentionBwdSm90Tile const& w,
                                                 Storage& s, int lt) {
    if (lt != 0 || w.steps == 0) return;
    mbarrier_arrive_expect_tx(&s.kv_full, 2 * kKVBytes);
    load_rows<BN>(&maps.k, &s.kv_full, s.k, k_row(w) + w.n * BN, w.hk, w.b);
    load_rows<BN>(&maps.v, &s.kv_full, s.v, k_row(w) + w.n * BN, w.hk, w.b);
    Pipe const ring{s.ring};
    PipelineState<Stages> st;
    // one loop over the steps (query head h, m-block m), so that the producer's 24 registers hold it
    int h = w.hk * p.group, m = w.m_first;
    for (int i = 0; i < w.steps; ++i, ++st) {
      ring.producer_acquire(st);
      std::uint64_t* const bar = ring.producer_expect(st, kStepBytes);
      load_rows<BM>(&maps.q, bar, s.q_stage(st.index), q_row(w) + m * BM, h, w.b);
      load_rows<BM>(&maps.dout, bar, s.dout_stage(st.index), q_row(w) + m * BM, h, w.b);
      SM90_TMA_LOAD_2D::copy(&maps.lse2, bar, s.lse2 + st.index * BM, ws_row0(w) + m * BM, w.b * p.heads_q + h);
      SM90_TMA_LOAD_2D::copy(&maps.dsum, bar, s.dsum + st.index * BM, ws_row0(w) + m * BM, w.b * p.heads_q + h);
      if (++m == m_blocks(p, w)) {
        m = w.m_first;
        ++h;
      }
    }
  }

  // ---- Lean (Cfg::kLean): descriptors and offsets from loop-invariant bases ----
  // A descriptor (PTX ISA, "Matrix Descriptor Format": bits 0-13 start address >> 4, 16-29 leading
  // byte offset >> 4, 32-45 stride byte offset >> 4, 62-63 swizzle) whose start address is a run-time
  // base: make_gmma_desc at address 0 (a constant: offsets, swizzle, the block's own offset in its
  // low word) plus `field` = base >> 4 in the low 32 bits. No carry leaves bits 0-13: the sum is
  // the block's shared-window address >> 4, below 2^14 (the window is below 256 KB; asserted on
  // the storage's size below).
  __device__ __forceinline__ static std::uint64_t lean_desc(std::uint64_t desc0, std::uint32_t field) {
    return (std::uint64_t(std::uint32_t(desc0 >> 32)) << 32) | std::uint32_t(std::uint32_t(desc0) + field);
  }
  static_assert(sizeof(Storage) < (1u << 18), "Lean: a descriptor's start-address field holds addresses < 256 KB");
  // The start-address steps, bytes >> 4 (every tile a whole number of 1024-byte swizzle atoms): the
  // warpgroup's 64 key rows of K or V (S^T, dP^T's A), the dQ share's 64 columns of K^T (D = 128),
  // a stage of Q or dO, a dS^T buffer. lean_steps_exact: make_gmma_desc at every k-block of the
  // shifted block is the unshifted one plus the step (the layouts are linear in the shift).
  static constexpr std::uint32_t kLeanRows64 =
      std::uint32_t(attention_sm90_rows_layout<BN, D>()(64, 0) * sizeof(T)) >> 4;
  static constexpr std::uint32_t kLeanCols64 =
      D == 128 ? std::uint32_t(attention_sm90_v_layout<BN, D>()(64 % D, 0) * sizeof(T)) >> 4 : 0u;
  static constexpr std::uint32_t kLeanStage = std::uint32_t(BM * D * sizeof(T)) >> 4;
  static constexpr std::uint32_t kLeanDsBuf = std::uint32_t(BN * BM * sizeof(T)) >> 4;
  static constexpr bool lean_steps_exact() {
    constexpr auto sA = attention_sm90_rows_layout<BN, D>();
    constexpr auto sKt = attention_sm90_v_layout<BN, D>();
    bool ok = true;
    for (int kk = 0; kk < D / 16; ++kk)
      ok = ok && make_gmma_desc<GmmaMajor::K, 64>(0u, sA, 64, 16 * kk) ==
                     make_gmma_desc<GmmaMajor::K, 64>(0u, sA, 0, 16 * kk) + kLeanRows64;
    for (int kk = 0; D == 128 && kk < BN / 16; ++kk)
      ok = ok && make_gmma_desc<GmmaMajor::MN, 64>(0u, sKt, 64 % D, 16 * kk) ==
                     make_gmma_desc<GmmaMajor::MN, 64>(0u, sKt, 0, 16 * kk) + kLeanCols64;
    return ok;
  }
  static_assert(lean_steps_exact(), "Lean: a warpgroup's or dQ share's descriptors are not the base's plus a step");
  // dS^T's rows layout (BN keys x BM queries): 64-element rows, so a thread's store address is
  // 128 key + 16 ((8 j) / 8 ^ key % 8) + 4 t bytes after the buffer (Sw<3,3,3> on element offsets).
  static_assert(attention_sm90_rows_layout<BN, BM>()(1, 0) == 64 && attention_sm90_rows_layout<BN, BM>()(0, 1) == 1 &&
                    attention_sm90_rows_layout<BN, BM>()(8, 8) == 520,
                "Lean: dS^T's store addresses assume 64-element rows");

  // The loop-invariant bases of a consumer warpgroup (warp-uniform, all but ds_st) and of its
  // thread (ds_st), computed once before the step loop.
  struct LeanBase {
    std::uint32_t k_a, v_a;  // start-address fields of the warpgroup's 64 rows of K, V (S^T, dP^T's A)
    std::uint32_t k_dq;      // of K^T's dQ-share columns (the dQ wgmma's B)
    std::uint32_t q0, do0;   // of Q's, dO's stage 0 (a stage: + kLeanStage)
    std::uint32_t ds0;       // of dS^T's buffer 0 (a buffer: + kLeanDsBuf)
    std::uint32_t lse;       // byte address of LSE log2 e of stage 0's first query (D's: + kLeanDsumOff)
    std::uint32_t ds_st;     // byte address of this thread's first dS^T pair in buffer 0 (key row r, 16 (r % 8) + 4 t)
    std::uint32_t dq_st;     // DqTma: byte address of this thread's first dQ pair in its warpgroup's share
  };
  // LSE log2 e of query 2 t of stage 0 (bytes): t read off ds_st's bits 2-3 (a register fewer)
  __device__ __forceinline__ static std::uint32_t lean_lse(LeanBase const& b) { return b.lse + 2u * (b.ds_st & 12u); }
  // D's array follows LSE log2 e's (both Stages BM floats, 128-byte aligned)
  static constexpr std::uint32_t kLeanDsumOff = std::uint32_t((Stages * BM * 4 + 127) / 128 * 128);
  __device__ __forceinline__ static LeanBase lean_base(Storage& s, int c, int lt) {
    int const warp = lt / 32, lane = lt % 32, g = lane / 4, t = lane % 4;
    LeanBase b;
    b.k_a = (smem_address(s.k) >> 4) + std::uint32_t(c) * kLeanRows64;
    b.v_a = (smem_address(s.v) >> 4) + std::uint32_t(c) * kLeanRows64;
    b.k_dq = (smem_address(s.k) >> 4) + std::uint32_t(c) * kLeanCols64;
    b.q0 = smem_address(s.q_stage(0)) >> 4;
    b.do0 = smem_address(s.dout_stage(0)) >> 4;
    b.ds0 = smem_address(s.ds_buffer(0)) >> 4;
    b.lse = smem_address(s.lse2);
    b.ds_st = smem_address(s.ds_buffer(0)) + 128u * std::uint32_t(64 * c + 16 * warp + g) + 16u * std::uint32_t(g) +
              4u * std::uint32_t(t);
    b.dq_st = 0;
    if constexpr (Cfg::kDqTma) b.dq_st = dq_share_address(s, c) + dq_stage_offset(warp, g, t);
    return b;
  }

  // ---- DqTma (Cfg::kDqTma): the dQ share through shared memory and a TMA reduce-add ----
  // Warpgroup c's share buffer: box i (columns 32 i .. 32 i + 31 of the share) at + 8192 i, a box
  // (64 query rows, 32 floats) -> byte 128 r + 16 (u ^ r % 8) + b % 16 for byte b = 4 column of the
  // row, u = b / 16 (the tensor map's 128-byte swizzle; the buffer 1024-byte aligned).
  static constexpr std::uint32_t kDqShareBytes = 64u * 64u * 4u, kDqBoxBytes = 64u * 32u * 4u;
  template <class S>
  __device__ __forceinline__ static std::uint32_t dq_share_address(S& s, int c) {
    return smem_address(s.dq_share) + std::uint32_t(c) * kDqShareBytes;
  }
  // The thread's first pair (query row 16 w + g, columns 2 t, 2 t + 1 of box 0): unit (t / 2) ^ g.
  // Value 4 j + 2 h + e (row + 8 h, column 8 j + 2 t + e) is then at that offset XOR 32 (j % 4)
  // (unit 2 (j % 4) + t / 2, swizzled by g), + 1024 h (8 rows), + 8192 (j / 4) (the box).
  __device__ __forceinline__ static std::uint32_t dq_stage_offset(int warp, int g, int t) {
    return 128u * std::uint32_t(16 * warp + g) + 16u * std::uint32_t((t >> 1) ^ g) + 8u * std::uint32_t(t & 1);
  }
  static_assert(sizeof(AttentionBwdSm90DqStage<true, 2>) == 2 * kDqShareBytes,
                "DqTma: a warpgroup's share is 64 x 64 fp32 (two boxes of 64 x 32)");
  // A warp's 8-byte stores for one (j, h): 8 rows (g) x 4 pairs (t); the 16 threads of t / 2 = 0
  // fill each row's unit (2 (j % 4)) ^ g: 8 distinct units, all 32 banks; t / 2 = 1 the other 8.
  // Two wavefronts for the warp's 256 bytes: no bank conflict.
  __device__ __forceinline__ static void stage_dq(std::uint32_t dq_st, float (&dq)[32]) {
    TESSERA_UNROLL
    for (int j = 0; j < 8; ++j) {
      TESSERA_UNROLL
      for (int h = 0; h < 2; ++h)
        st_shared_v2_f32(
            (dq_st ^ (32u * std::uint32_t(j % 4))) + 1024u * std::uint32_t(h) + 8192u * std::uint32_t(j / 4),
            dq[4 * j + 2 * h], dq[4 * j + 2 * h + 1]);
    }
  }

  // acc = A B^T for the warpgroup's 64 keys (rows 64 c .. of a BN x D tile at a_addr: K or V)
  // against the stage's BM rows (Q or dO): D/16 wgmmas m64nBMk16, both K-major, the first
  // overwriting acc; committed as one batch.
  // Lean: a_addr, b_addr are start-address fields (LeanBase: the warpgroup's rows included in
  // a_addr), c unused.
  template <bool Lean = false>
  __device__ __forceinline__ static void issue_keys_by_queries(float (&acc)[BM / 2], std::uint32_t a_addr,
                                                               std::uint32_t b_addr, int c) {
    constexpr auto sA = attention_sm90_rows_layout<BN, D>();  // (BN,D) -> offset
    constexpr auto sB = attention_sm90_rows_layout<BM, D>();  // (BM,D) -> offset
    attention_sm90_fence(acc);
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kk = 0; kk < D / 16; ++kk) {
      std::uint64_t da, db;
      if constexpr (Lean) {
        da = lean_desc(make_gmma_desc<GmmaMajor::K, 64>(0u, sA, 0, 16 * kk), a_addr);
        db = lean_desc(make_gmma_desc<GmmaMajor::K, BM>(0u, sB, 0, 16 * kk), b_addr);
      } else {
        da = make_gmma_desc<GmmaMajor::K, 64>(a_addr, sA, 64 * c, 16 * kk);
        db = make_gmma_desc<GmmaMajor::K, BM>(b_addr, sB, 0, 16 * kk);
      }
      SsOp::fma(da, db, acc, kk == 0 ? GmmaScale::zero : GmmaScale::one);
    }
    warpgroup_commit_batch();
  }

  // acc += X^T Y for X^T in registers (packed P^T or dS^T: 64 keys x BM queries) and Y the stage's
  // BM x D tile at y_addr (dO or Q) read as the MN-major B of a (D, BM) operand: BM/16 wgmmas
  // m64nDk16. Not committed.
  // Lean: y_addr is the stage's start-address field.
  template <bool Lean = false>
  __device__ __forceinline__ static void issue_rs(float (&acc)[D / 2], float (&xa)[BM / 4], std::uint32_t y_addr) {
    constexpr auto sY = attention_sm90_v_layout<BM, D>();  // (D,BM) -> offset
    TESSERA_UNROLL
    for (int kk = 0; kk < BM / 16; ++kk) {
      std::uint64_t const db = Lean ? lean_desc(make_gmma_desc<GmmaMajor::MN, D>(0u, sY, 0, 16 * kk), y_addr)
                                    : make_gmma_desc<GmmaMajor::MN, D>(y_addr, sY, 0, 16 * kk);
      RsOp::fma(__float_as_uint(xa[4 * kk]), __float_as_uint(xa[4 * kk + 1]), __float_as_uint(xa[4 * kk + 2]),
                __float_as_uint(xa[4 * kk + 3]), db, acc, GmmaScale::one);
    }
  }

  // A dQ share: acc = dS K[:, dq0 .. dq0 + 63] over the block's BN keys; dS read from dS^T's buffer
  // (BN keys x BM queries, rows layout) as the MN-major A of a (BM, BN) operand, K's tile as the
  // MN-major B of a (D, BN) operand: BN/16 wgmmas m64n64k16. Committed.
  // Lean: ds_addr and k_addr are start-address fields (the share's columns included in k_addr),
  // dq0 unused.
  template <bool Lean = false>
  __device__ __forceinline__ static void issue_dq(float (&acc)[32], std::uint32_t ds_addr, std::uint32_t k_addr,
                                                  int dq0) {
    constexpr auto sDs = attention_sm90_v_layout<BN, BM>();  // (BM queries, BN keys) -> offset
    constexpr auto sKt = attention_sm90_v_layout<BN, D>();   // (D, BN keys) -> offset
    attention_sm90_fence(acc);
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kk = 0; kk < BN / 16; ++kk) {
      std::uint64_t da, db;
      if constexpr (Lean) {
        da = lean_desc(make_gmma_desc<GmmaMajor::MN, 64>(0u, sDs, 0, 16 * kk), ds_addr);
        db = lean_desc(make_gmma_desc<GmmaMajor::MN, 64>(0u, sKt, 0, 16 * kk), k_addr);
      } else {
        da = make_gmma_desc<GmmaMajor::MN, 64>(ds_addr, sDs, 0, 16 * kk);
        db = make_gmma_desc<GmmaMajor::MN, 64>(k_addr, sKt, dq0, 16 * kk);
      }
      DqOp::fma(da, db, acc, kk == 0 ? GmmaScale::zero : GmmaScale::one);
    }
    warpgroup_commit_batch();
  }

  // Whether some entry of (key block n, m-block m) is masked: the block reaches past seq_k, or
  // (causal) its last key lies above the diagonal of the m-block's first query.
  __device__ __forceinline__ static bool needs_mask(Params const& p, AttentionBwdSm90Tile const& w, int m) {
    return (w.n + 1) * BN > seq_k(p, w) || (p.causal && (w.n + 1) * BN - 1 > m * BM + w.diag);
  }

  // -inf where (key key0 + 8 h, query m BM + 8 j + 2 t + e) is not visible (value 4 j + 2 h + e).
  __device__ __forceinline__ static void mask(float (&sc)[BM / 2], Params const& p, AttentionBwdSm90Tile const& w,
                                              int m, int key0, int t) {
    float const neg_inf = __int_as_float(0xff800000);
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      int const key = key0 + 8 * h;
      // visible iff key < seq_k and (causal) query >= key - diag: column 8 j + e >= first
      int const first = key >= seq_k(p, w) ? BM : p.causal ? key - w.diag - m * BM - 2 * t : -BM;
      TESSERA_UNROLL
      for (int j = 0; j < BM / 8; ++j) {
        TESSERA_UNROLL
        for (int e = 0; e < 2; ++e)
          if (8 * j + e < first) sc[4 * j + 2 * h + e] = neg_inf;
      }
    }
  }

  // One step: the m-block m of query head h (batch-head row bh), stage st, dS^T buffer `buf`.
  // Lean: lb the warpgroup's bases (lean_base); the thread's first dQ accumulator element of the
  // step is dq_head[dq_off] (bh unused; m only in the mask). DqTma: dq_off is the step's first row
  // of the accumulator as dq_map's matrix (dq_head unused).
  __device__ __forceinline__ static void step(Params const& p, AttentionBwdSm90Tile const& w, Storage& s, int cw,
                                              int lt, int m, int bh_in, PipelineState<Stages> st, int buf,
                                              float (&dk)[D / 2], float (&dv)[D / 2], bool dump,
                                              LeanBase const& lb = {}, float* dq_head = nullptr,
                                              std::uint32_t dq_off = 0, TmaDescriptor const* dq_map = nullptr) {
    constexpr bool Lean = Cfg::kLean;
    int l = lt, c = cw, bh = bh_in;
    // the thread's indices (and what derives from them) recomputed each step, not kept live across
    // the loop (Lean: the thread's only; c is warp-uniform)
    if constexpr (Lean) schedule_here(l);
    else schedule_here(l, c, bh);
    int const warp = l / 32, lane = l % 32, g = lane / 4, t = lane % 4;
    Pipe const ring{s.ring};
    // the operands' shared addresses (Lean: start-address fields of the stage, buffer, warpgroup)
    std::uint32_t k_addr, v_addr, q_addr, do_addr;
    if constexpr (Lean) {
      k_addr = lb.k_a;
      v_addr = lb.v_a;
      q_addr = lb.q0 + std::uint32_t(st.index) * kLeanStage;
      do_addr = lb.do0 + std::uint32_t(st.index) * kLeanStage;
    } else {
      k_addr = smem_address(s.k);
      v_addr = smem_address(s.v);
      q_addr = smem_address(s.q_stage(st.index));
      do_addr = smem_address(s.dout_stage(st.index));
      // taken as new each step: the descriptors built from them are not hoisted out of the loop and
      // kept live across it (32 registers of K's and V's, which spilled)
      schedule_here(k_addr, v_addr, q_addr, do_addr);
    }

    float sc[BM / 2];  // S^T, then P^T (fp32)
    float dp[BM / 2];  // dP^T, then dS^T (fp32)
    ring.consumer_wait(st);
    issue_keys_by_queries<Lean>(sc, k_addr, q_addr, c);
    issue_keys_by_queries<Lean>(dp, v_addr, do_addr, c);
    if constexpr (Cfg::kOverlap) {
      warpgroup_wait<1>();  // S^T (dP^T's wgmmas still running)
      attention_sm90_fence(sc);
    } else {
      warpgroup_wait<0>();
      attention_sm90_fence(sc);
      attention_sm90_fence(dp);
    }
    int const key0 = w.n * BN + 64 * c + 16 * warp + g;  // this thread's keys: key0, key0 + 8
    if (needs_mask(p, w, m)) mask(sc, p, w, m, key0, t);
    // LSE log2 e and D of queries 2 t, 2 t + 1 (+ 8 j: 32 bytes), by 32-bit shared addresses
    std::uint32_t const lse2 =
        Lean ? lean_lse(lb) + std::uint32_t(st.index) * (BM * 4) : smem_address(s.lse2 + st.index * BM + 2 * t);
    std::uint32_t const dsum = Lean ? lse2 + kLeanDsumOff : smem_address(s.dsum + st.index * BM + 2 * t);
    float pa[BM / 4], dsa[BM / 4];  // P^T, dS^T packed: the RS wgmmas' A; register q = values 2 q, 2 q + 1
    if constexpr (Cfg::kOverlap) {
      // P^T (fp32 in sc, packed in pa) while dP^T's wgmmas run, then dV's wgmma
      TESSERA_UNROLL
      for (int j = 0; j < BM / 8; ++j) {
        float2 const ls = ld_shared_v2_f32(lse2 + 32 * j);  // queries 8 j + 2 t, + 1
        TESSERA_UNROLL
        for (int h = 0; h < 2; ++h) {
          int const v = 4 * j + 2 * h;
          if constexpr (Cfg::kDebug) {
            if (dump) {
              int const at = (64 * c + 16 * warp + g + 8 * h) * BM + 8 * j + 2 * t;
              p.debug[at] = sc[v];
              p.debug[at + 1] = sc[v + 1];
            }
          }
          sc[v] = ex2_approx(fmaf(sc[v], p.scale_log2, -ls.x));
          sc[v + 1] = ex2_approx(fmaf(sc[v + 1], p.scale_log2, -ls.y));
          pa[2 * j + h] = __uint_as_float(attention_sm90_pack<T>(sc[v], sc[v + 1]));
        }
      }
      attention_sm90_fence(dv);
      attention_sm90_fence(pa);
      warpgroup_arrive();
      issue_rs<Lean>(dv, pa, do_addr);
      warpgroup_commit_batch();
      warpgroup_wait<1>();  // dP^T (dV's wgmmas still running)
      attention_sm90_fence(dp);
    }
    if constexpr (Cfg::kDebug) {
      if (dump) {
        TESSERA_UNROLL
        for (int v = 0; v < BM / 2; ++v) {  // value v = 4 j + 2 h + e
          int const at = (64 * c + 16 * warp + g + 8 * (v / 2 % 2)) * BM + 8 * (v / 4) + 2 * t + v % 2;
          if constexpr (!Cfg::kOverlap) p.debug[at] = sc[v];
          p.debug[BN * BM + at] = dp[v];
        }
      }
    }
    // P^T = 2^(S^T scale log2 e - LSE log2 e), dS^T = P^T (dP^T - D), packed as they are made
    // (register q = 2 j + h: values 4 j + 2 h, + 1), so that S^T and dP^T die as P^T, dS^T grow.
    // dS^T also goes into the buffer (rows layout BN x BM, 128-byte swizzle, Sw<3,3,3> on element
    // offsets) as it is made: register 2 j + h holds (key 64 c + 16 w + g + 8 h, queries 8 j + 2 t,
    // + 1); a warp's 32-bit stores for one register hit 8 rows x 4 columns of distinct 16-byte
    // units after the swizzle: no bank conflict.
    constexpr auto sDsRows = attention_sm90_rows_layout<BN, BM>();  // (BN keys, BM queries) -> offset
    std::uint32_t const ds = Lean ? lb.ds_st + std::uint32_t(buf) * (kLeanDsBuf << 4) : smem_address(s.ds_buffer(buf));
    int ds_row = 64 * c + 16 * warp + g, ds_col = 2 * t;
    // the stores' offsets computed here, not kept live across the loop (Lean: from the one base)
    if constexpr (!Lean) schedule_here(ds_row, ds_col);
    TESSERA_UNROLL
    for (int j = 0; j < BM / 8; ++j) {
      // queries 8 j + 2 t, + 1 (no Overlap: P^T made here; plain loads, which ptxas may hoist: the
      // ordered ones spill the debug tile of head_dim 128)
      float2 ls{}, dd;
      if constexpr (Cfg::kOverlap) {
        dd = ld_shared_v2_f32(dsum + 32 * j);
      } else if constexpr (Lean) {
        ls = ld_shared_v2_f32(lse2 + 32 * j);
        dd = ld_shared_v2_f32(dsum + 32 * j);
      } else {
        ls = *reinterpret_cast<float2 const*>(s.lse2 + st.index * BM + 2 * t + 8 * j);
        dd = *reinterpret_cast<float2 const*>(s.dsum + st.index * BM + 2 * t + 8 * j);
      }
      TESSERA_UNROLL
      for (int h = 0; h < 2; ++h) {
        int const v = 4 * j + 2 * h;
        float p0 = sc[v], p1 = sc[v + 1];
        if constexpr (!Cfg::kOverlap) {
          p0 = ex2_approx(fmaf(p0, p.scale_log2, -ls.x));
          p1 = ex2_approx(fmaf(p1, p.scale_log2, -ls.y));
          pa[2 * j + h] = __uint_as_float(attention_sm90_pack<T>(p0, p1));
        }
        dsa[2 * j + h] = __uint_as_float(attention_sm90_pack<T>(p0 * (dp[v] - dd.x), p1 * (dp[v + 1] - dd.y)));
        if constexpr (Lean) {
          // bits 4-6 of ds are key % 8: the XOR swizzles unit j; + 8 h keys = + 1024 bytes
          st_shared_b32((ds ^ (16u * j)) + 1024u * h, __float_as_uint(dsa[2 * j + h]));
        } else {
          int const off = int(sDsRows(ds_row + 8 * h, 8 * j + ds_col));
          st_shared_b32(ds + 2 * std::uint32_t(off ^ (((off >> 6) & 7) << 3)), __float_as_uint(dsa[2 * j + h]));
        }
        if constexpr (Cfg::kDebug) {
          if (dump) {
            int const at = (64 * c + 16 * warp + g + 8 * h) * BM + 8 * j + 2 * t;
            p.debug[2 * BN * BM + at] = p0;
            p.debug[2 * BN * BM + at + 1] = p1;
            p.debug[3 * BN * BM + at] = p0 * (dp[v] - dd.x);
            p.debug[3 * BN * BM + at + 1] = p1 * (dp[v + 1] - dd.y);
          }
        }
      }
    }
    fence_view_async_shared();  // the stores, visible to the dQ wgmmas (the async proxy)

    // dV += P^T dO (unless issued already), dK += dS^T Q: one batch.
    attention_sm90_fence(dv);
    attention_sm90_fence(dk);
    attention_sm90_fence(pa);
    attention_sm90_fence(dsa);
    warpgroup_arrive();
    if constexpr (!Cfg::kOverlap) issue_rs<Lean>(dv, pa, do_addr);
    issue_rs<Lean>(dk, dsa, q_addr);
    warpgroup_commit_batch();

    // Both warpgroups' dS^T are in the buffer; once dV and dK are done (P^T and dS^T's registers
    // free, the stage's Q and dO released), this warpgroup's dQ share, if it has one this step.
    // DqTma: the reduce-adds this warpgroup issued from its share buffer (the step before) have read
    // it before any of its threads passes the barrier and writes it again.
    if constexpr (Cfg::kDqTma) {
      if (lt == 0) tma_store_wait_read<0>();
    }
    named_barrier_sync(kAttentionBwdDsBarrier, 128 * kConsumers);
    int const dq0 = kDqShares == 1 ? 0 : 64 * c;
    std::uint32_t const dq_a = Lean ? lb.ds0 + std::uint32_t(buf) * kLeanDsBuf : smem_address(s.ds_buffer(buf));
    std::uint32_t const dq_b = Lean ? lb.k_dq : k_addr;
    float dq[32];
    if constexpr (kDqShares == 2) {
      // D = 128: the share is queued behind dV and dK (no gap on the tensor cores), the stage
      // released as soon as those two are done.
      issue_dq<Lean>(dq, dq_a, dq_b, dq0);
      warpgroup_wait<1>();
    } else {
      warpgroup_wait<0>();  // D = 64: a wgmma under a branch (the turns) would be serialized by ptxas
    }
    attention_sm90_fence(dv);
    attention_sm90_fence(dk);
    attention_sm90_fence(pa);
    attention_sm90_fence(dsa);
    if (lt == 0) ring.consumer_release(st);
    if constexpr (kDqShares == 1) {
      if (c != buf) return;  // the other warpgroup's turn
      issue_dq<Lean>(dq, dq_a, dq_b, dq0);
    }
    warpgroup_wait<0>();
    attention_sm90_fence(dq);
    // value 4 j + 2 h + e: query m BM + 16 w + g + 8 h, column dq0 + 8 j + 2 t + e
    if constexpr (Cfg::kDqTma) {
      // into the share buffer, visible to the async proxy; the warpgroup meets; one thread adds
      // the two boxes (columns dq0 .., dq0 + 32 ..; rows dq_off ..) into the accumulator
      stage_dq(lb.dq_st, dq);
      fence_view_async_shared();
      named_barrier_sync(kAttentionBwdDqBarrier0 + std::uint32_t(c), 128);
      if (lt == 0) {
        std::uint32_t const share = dq_share_address(s, c);
        SM90_TMA_REDUCE_ADD_2D::copy(dq_map, share, dq0, int(dq_off));
        SM90_TMA_REDUCE_ADD_2D::copy(dq_map, share + kDqBoxBytes, dq0 + 32, int(dq_off));
        tma_store_commit();
      }
    } else if constexpr (Lean) {
      add_dq(dq_head + dq_off, dq);
    } else {
      float* const row =
          p.dq_accum + (std::int64_t(bh) * p.rows_pad + ws_row0(w) + m * BM + 16 * warp + g) * D + dq0 + 2 * t;
      add_dq(row, dq);
    }
  }

  // A dQ share into the accumulator: value 4 j + 2 h + e at row + 8 h D + 8 j + e (row: the thread's
  // first query row, its first column dq0 + 2 t).
  __device__ __forceinline__ static void add_dq(float* row, float (&dq)[32]) {
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      TESSERA_UNROLL
      for (int j = 0; j < 8; ++j) red_add_v2_f32(row + 8 * h * D + 8 * j, dq[4 * j + 2 * h], dq[4 * j + 2 * h + 1]);
    }
  }

  // Consumer warpgroup c: keys 64 c .. of the block. dK and dV accumulate over every step; the
  // steps run over the group's query heads, then the m-blocks; dS^T's buffers alternate.
  __device__ __forceinline__ static void consume(Params const& p, Maps const& maps, AttentionBwdSm90Tile const& w,
                                                 Storage& s, int c, int lt) {
    float dk[D / 2], dv[D / 2];
    TESSERA_UNROLL
    for (int r = 0; r < D / 2; ++r) dk[r] = dv[r] = 0.0f;
    if (w.steps > 0) {
      mbarrier_wait(&s.kv_full, 0);
      PipelineState<Stages> st;
      int buf = 0;
      bool dump = Cfg::kDebug && blockIdx.x == 0;  // the first step of block 0 (Cfg::kDebug)
      if constexpr (Cfg::kLean) {
        // the consumer index made warp-uniform (a shuffle from lane 0), so that the bases it enters
        // stay in uniform registers
        int const cu = __shfl_sync(0xffffffffu, c, 0);
        LeanBase const lb = lean_base(s, cu, lt);
        int const warp = lt / 32, g = lt % 32 / 4, t = lt % 4;
        for (int gq = 0; gq < p.group; ++gq) {
          int const bh = w.b * p.heads_q + w.hk * p.group + gq;
          // the head's accumulator (uniform) and the thread's first element of the head's first step
          // (query m_first BM + 16 w + g, column dq0 + 2 t: 32-bit, as a head's rows_pad D floats),
          // then BM rows of D floats a step
          // (DqTma: the step's first row of the accumulator's matrix, bh rows_pad + ws_row0 + m BM,
          // advanced by BM rows a step)
          float* const dq_head = p.dq_accum + std::int64_t(bh) * p.rows_pad * D;
          std::uint32_t dq_off = Cfg::kDqTma
                                     ? std::uint32_t(bh * p.rows_pad + ws_row0(w) + w.m_first * BM)
                                     : std::uint32_t(ws_row0(w) + w.m_first * BM + 16 * warp + g) * std::uint32_t(D) +
                                           std::uint32_t((kDqShares == 1 ? 0 : 64 * cu) + 2 * t);
          constexpr std::uint32_t kDqAdvance = Cfg::kDqTma ? BM : BM * D;
          TmaDescriptor const* dq_map = nullptr;
          if constexpr (Cfg::kDqTma) dq_map = &maps.dq;
          for (int m = w.m_first; m < m_blocks(p, w); ++m, ++st, buf ^= 1, dq_off += kDqAdvance)
            step(p, w, s, cu, lt, m, bh, st, buf, dk, dv, false, lb, dq_head, dq_off, dq_map);
        }
        // DqTma: the last reduce-adds done (their source read, their adds performed) before the
        // block exits
        if constexpr (Cfg::kDqTma) {
          if (lt == 0) tma_store_wait<0>();
        }
      } else {
        for (int gq = 0; gq < p.group; ++gq) {
          int const bh = w.b * p.heads_q + w.hk * p.group + gq;
          for (int m = w.m_first; m < m_blocks(p, w); ++m, ++st, buf ^= 1) {
            step(p, w, s, c, lt, m, bh, st, buf, dk, dv, dump);
            dump = false;
          }
        }
      }
    }
    // dK (times scale) and dV, converted, stored from registers: pairs of elements, keys < seq_k.
    int const warp = lt / 32, lane = lt % 32, g = lane / 4, t = lane % 4;
    if (!w.store) return;  // varlen: no key of the sequence in the block
    T* const dk_bh = p.dk + w.b * p.dk_batch + w.hk * p.dk_head + std::int64_t(k_row(w)) * p.dk_seq;
    T* const dv_bh = p.dv + w.b * p.dv_batch + w.hk * p.dv_head + std::int64_t(k_row(w)) * p.dv_seq;
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      int const key = w.n * BN + 64 * c + 16 * warp + g + 8 * h;
      if (key < seq_k(p, w)) {
        T* const dk_row = dk_bh + std::int64_t(key) * p.dk_seq + 2 * t;
        T* const dv_row = dv_bh + std::int64_t(key) * p.dv_seq + 2 * t;
        TESSERA_UNROLL
        for (int j = 0; j < D / 8; ++j) {
          *reinterpret_cast<std::uint32_t*>(dk_row + 8 * j) =
              attention_sm90_pack<T>(dk[4 * j + 2 * h] * p.scale, dk[4 * j + 2 * h + 1] * p.scale);
          *reinterpret_cast<std::uint32_t*>(dv_row + 8 * j) =
              attention_sm90_pack<T>(dv[4 * j + 2 * h], dv[4 * j + 2 * h + 1]);
        }
      }
    }
  }
};

}  // namespace detail
}  // namespace tessera::kernels
