// The FP8 attention forward kernel for Hopper (sm_90a; device code), as roles on the warp-specialized
// skeleton (sm90/warp_specialized.cuh), beside the 16-bit one (forward_sm90.cuh, whose tile plan,
// mask limits and 4-D tensor maps it shares); its launcher is kernels/attention/forward_fp8.cuh and
// its guide docs/attention.md, "FP8 forward".
//   O = softmax(scale dq dk Q K^T [+ causal mask]) dv V,  LSE = log(sum_j exp(scale dq dk q_i . k_j))
// for Q (batch, heads_q, seq_q, D), K and V (batch, heads_kv, seq_k, D) in e4m3 with descales dq,
// dk, dv (per tensor or per (batch, head)), O (batch, heads_q, seq_q, D) in bf16, LSE fp32; D = 128
// or 256.
//   AttentionFp8Sm90Config<D[, Overlap[, Persistent]]>
//                                    the tile: BM = 128 query rows (two consumer warpgroups of 64),
//                                    BN = 128 keys a step, 2 stages of K and of V^T; the plain loop or
//                                    FlashAttention-3's intra-warpgroup overlap; a block a tile or
//                                    looping over tiles
//   AttentionFp8Sm90Storage<Cfg>     Q (BM x D bytes), 2 stages of K (BN x D) and of V^T (D x BN)
//   AttentionFp8Sm90Params           O, LSE, the shape, the scale, the descales
//   AttentionFp8Sm90Maps             the 4-D tensor maps of Q, K and V's transposed copy
//   attention_fp8_transpose_v        the pass before the kernel: V (.., seq_k, D) -> V^T (.., D,
//                                    vt_seq), keys in attention_fp8_pv_key's order, zeros past seq_k
//   AttentionFp8Sm90Roles<Cfg>       the roles
//
// Why V is transposed first: wgmma takes 8-bit operands K-major only. S = Q K^T reduces over d,
// which Q and K have contiguous; O = P V reduces over keys, so its B operand (V) must have the keys
// contiguous: V^T. A pass before the kernel writes that copy (2 bytes of traffic an element of V,
// counted in the launcher's time); the producer then loads V^T tiles with TMA as it loads K.
//
// Shared-memory tiles are handled as 16-bit units (pairs of e4m3 along the contiguous mode, as the
// fp8 GEMM does, kernels/gemm/sm90_kernel.cuh): a K-major row of D e4m3 is D/2 units, so Q's and K's
// tiles are the 16-bit kernel's attention_sm90_rows_layout<R, D/2> (128-byte swizzle, D/128 chunks
// of 64 units), and a k-block of 32 e4m3 is 16 units, the 16-bit kernel's k-block; V^T's stage is
// attention_sm90_rows_layout<D, BN/2>: D rows of BN = 128 keys, one chunk.
//
// Per consumer thread (lane l of warp w of the warpgroup, g = l / 4, t = l % 4): S's fragment is the
// wgmma accumulator layout, value 4 j + 2 h + e = row 16 w + g + 8 h, key column 8 j + 2 t + e. P's
// operand for k-step kk (keys 32 kk ..) is four registers, register h + 2 u holding the e4m3 of S's
// values 4 (4 kk + 2 u + (i >> 1)) + 2 h + (i & 1) in byte i: the thread's own values, no shuffle;
// the operand's column 16 u + 4 t + i is then key 32 kk + attention_fp8_pv_key(16 u + 4 t + i), the
// order in which V^T lists the keys.
//
// P is quantized as 2^8 p (p = exp(s - max) in [0, 1]; 2^8 p <= 256 < 448): the scaling moves P's
// values out of e4m3's subnormals (below 2^-6) down to 2^-14, and the row sums (fp32, of the
// unquantized values) carry the same 2^8, so O = sum P V / sum P needs no correction; LSE subtracts
// 8 ln 2. The descales fold into the exponent's scale (dq dk scale log2 e, one FFMA a score as in the
// 16-bit kernel) and into O's normalisation (dv / rowsum).
#pragma once

#include "tessera/arch/cvt_fp8.hpp"
#include "tessera/arch/mma_sm90_fp8.hpp"
#include "tessera/arch/mma_sm90_fp8_rs.hpp"
#include "tessera/kernels/attention/forward_sm90.cuh"
#include "tessera/kernels/attention/problem_fp8.hpp"

namespace tessera::kernels {

// The tile for head dimension D: BM = 128 query rows (two consumer warpgroups of 64 rows), BN = 128
// keys a step, 2 stages of K and of V^T. Shared memory: Q BM D + 2 Stages BN D bytes: 80 KB (D =
// 128), 160 KB (256). Registers a consumer thread: O D/2, S BN/2 = 64, P BN/8 = 16 (packed e4m3).
// OverlapLoop: FlashAttention-3's overlap inside a warpgroup (S of the next block, P of this one
// and O live at once: 144 registers for D = 128; D = 256's 208 spilled); PersistentLoop: blocks loop over tiles (attention_sm90_persistent decides).
template <int D, bool OverlapLoop = false, bool PersistentLoop = false>
struct AttentionFp8Sm90Config {
  static_assert(D == 128 || D == 256, "AttentionFp8Sm90Config: head_dim must be 128 or 256");
  static_assert(!(D == 256 && OverlapLoop),
                "AttentionFp8Sm90Config: no overlap loop for head_dim 256 (O 128, S 64 and P 16 registers spilled "
                "108 bytes and serialized the wgmmas); use the plain loop");
  static constexpr int kHeadDim = D;
  static constexpr bool Overlap = OverlapLoop;
  static constexpr bool kPersistent = PersistentLoop;
  static constexpr int BM = 128;
  static constexpr int BN = 128;
  static constexpr int Stages = 2;
  static constexpr int kConsumers = BM / 64;
  static constexpr int kProducerRegs = D == 256 && PersistentLoop ? 40 : 24;
  static constexpr int kConsumerRegs = D == 256 && PersistentLoop ? 232 : 240;
};

namespace detail {

// The shared storage in 16-bit units (pairs of e4m3): Q's tile (BM rows of D/2 units), the K stages
// (BN rows of D/2), the V^T stages (D rows of BN/2), the barriers.
template <class Cfg>
struct AttentionFp8Sm90Storage {
  static constexpr int D = Cfg::kHeadDim, kQ = Cfg::BM * D / 2, kKV = Cfg::BN * D / 2;  // units
  static_assert(kQ * 2 % 1024 == 0 && kKV * 2 % 1024 == 0,
                "AttentionFp8Sm90Storage: tiles must keep the 1024-byte alignment of the swizzle atoms");
  std::uint16_t q[kQ];
  std::uint16_t k[Cfg::Stages * kKV];
  std::uint16_t vt[Cfg::Stages * kKV];
  std::uint64_t k_ring[TmaPipeline<Cfg::Stages>::kBarriers];
  std::uint64_t v_ring[TmaPipeline<Cfg::Stages>::kBarriers];
  std::uint64_t q_full;   // Q's tile has landed (one phase a tile the block computes)
  std::uint64_t q_empty;  // both consumer warpgroups are done reading Q

  __device__ std::uint16_t* k_stage(int s) { return k + s * kKV; }
  __device__ std::uint16_t* vt_stage(int s) { return vt + s * kKV; }
};

// The kernel's values (by value, as AttentionSm90Params): O (bf16) and its strides in elements, LSE
// (fp32 (batch, heads_q, seq_q), or null) and the elements between two heads' rows, the shape, the
// scale (the caller's, before the descales) and scale log2 e, the three descales, heads_kv (the
// per-head descales of K and V), the query tiles.
struct AttentionFp8Sm90Params {
  bfloat16_t* o;
  long long o_batch, o_head, o_seq;
  float* lse;
  long long lse_head;
  AttentionSm90Shape shape;
  float scale, scale_log2;
  AttentionFp8Descale descale_q, descale_k, descale_v;
  int heads_kv;
  int tiles;
};

// The tensor maps (a __grid_constant__): Q and K as 4-D maps of 16-bit units (D/2, seq, heads,
// batch) in boxes of 64 x BM or 64 x BN units; V^T (vt_seq/2, D, heads_kv, batch) in boxes of
// 64 x D units (BN keys of D rows); all with the 128-byte swizzle.
struct AttentionFp8Sm90Maps {
  TmaDescriptor q, k, vt;
};

// The descale of (batch b, head h) of a tensor of `heads` heads (AttentionFp8ScaleKind).
__device__ __forceinline__ float attention_fp8_descale(AttentionFp8Descale const& d, int b, int h, int heads) {
  if (d.kind == AttentionFp8ScaleKind::none) return 1.0f;
  return __ldg(d.data + (d.kind == AttentionFp8ScaleKind::tensor ? 0 : b * heads + h));
}

// The transposing pass: block (x, y, z) = keys 64 x .., d 64 y .., (batch, head) z = b heads_kv + h.
// vt[((b heads_kv + h) D + d) vt_seq + 64 x + c] = V(b, h, 64 x + attention_fp8_pv_key(c), d) for c
// < 64 (the permutation stays inside blocks of 32), zero for keys >= seq_k. 256 threads: each loads
// 16 bytes of a key row, and stores 16 bytes of a d row. (A template, so that every translation
// unit that includes the header may define it: T is float_e4m3_t.)
template <class T>
__global__ void __launch_bounds__(256)
    attention_fp8_transpose_v(T const* v, long long v_batch, long long v_head, long long v_seq, std::uint8_t* vt,
                              int heads_kv, int seq_k, int d, long long vt_seq) {
  __shared__ alignas(16) std::uint8_t tile[64][80];  // (key, d) bytes; rows padded to 80
  int const tid = int(threadIdx.x);
  int const key0 = 64 * int(blockIdx.x), d0 = 64 * int(blockIdx.y);
  int const bh = int(blockIdx.z), b = bh / heads_kv, h = bh - b * heads_kv;
  {
    int const key = tid / 4, part = tid % 4;  // 16 bytes of key row `key`
    uint4 x = make_uint4(0u, 0u, 0u, 0u);
    if (key0 + key < seq_k)
      x = *reinterpret_cast<uint4 const*>(reinterpret_cast<std::uint8_t const*>(v) + b * v_batch + h * v_head +
                                          (key0 + key) * v_seq + d0 + 16 * part);
    *reinterpret_cast<uint4*>(&tile[key][16 * part]) = x;
  }
  __syncthreads();
  int const row = tid / 4, part = tid % 4;  // d row `row`, columns 16 part ..
  std::uint32_t w[4];
  TESSERA_UNROLL
  for (int q = 0; q < 4; ++q) {
    std::uint32_t x = 0;
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) x |= std::uint32_t(tile[attention_fp8_pv_key(16 * part + 4 * q + i)][row]) << (8 * i);
    w[q] = x;
  }
  *reinterpret_cast<uint4*>(vt + ((long long)bh * d + d0 + row) * vt_seq + key0 + 16 * part) =
      make_uint4(w[0], w[1], w[2], w[3]);
}

template <class Cfg>
struct AttentionFp8Sm90Roles {
  static constexpr int D = Cfg::kHeadDim, BM = Cfg::BM, BN = Cfg::BN, Stages = Cfg::Stages;
  static constexpr int kConsumers = Cfg::kConsumers, kThreads = 128 * (1 + kConsumers);
  static constexpr int kProducerRegs = Cfg::kProducerRegs, kConsumerRegs = Cfg::kConsumerRegs;
  static constexpr int kClusterSize = 1;
  using Params = AttentionFp8Sm90Params;
  using Maps = AttentionFp8Sm90Maps;
  using Storage = AttentionFp8Sm90Storage<Cfg>;
  using Pipe = TmaPipeline<Stages>;
  using SsOp = SM90_64x128x32_F32E4M3E4M3_SS<>;  // S = Q K^T: N = BN = 128
  using RsOp = std::conditional_t<D == 128, SM90_64x128x32_F32E4M3E4M3_RS<>, SM90_64x256x32_F32E4M3E4M3_RS<>>;
  static constexpr std::uint32_t kQBytes = std::uint32_t(BM * D);
  static constexpr std::uint32_t kKVBytes = std::uint32_t(BN * D);
  static_assert(BN == 128, "AttentionFp8Sm90Roles: SsOp and V^T's one-box stage assume BN = 128");
  static constexpr float kPScaleLog2 = 8.0f;  // P is quantized as 2^8 p

  __device__ __forceinline__ static void setup(Params const&, Maps const& maps, Storage& s) {
    tma_prefetch_desc(&maps.q);
    tma_prefetch_desc(&maps.k);
    tma_prefetch_desc(&maps.vt);
    Pipe{s.k_ring}.init(kConsumers);
    Pipe{s.v_ring}.init(kConsumers);
    mbarrier_init(&s.q_full, 1);
    mbarrier_init(&s.q_empty, kConsumers);
    fence_barrier_init();
  }

  // Rows row0 .. row0 + R - 1 of (head, batch) of Q's or K's map: D/128 boxes of 64 units x R rows.
  template <int R>
  __device__ __forceinline__ static void load_rows(TmaDescriptor const* desc, std::uint64_t* bar, std::uint16_t* dst,
                                                   int row0, int head, int batch) {
    TESSERA_UNROLL
    for (int c = 0; c < D / 128; ++c) SM90_TMA_LOAD_4D::copy(desc, bar, dst + c * R * 64, 64 * c, row0, head, batch);
  }

  __device__ __forceinline__ static AttentionSm90Tile plan(Params const& p) {
    return attention_sm90_tile<BM, BN>(p.shape, int(blockIdx.x));
  }

  // Thread 0 of the producer warpgroup, each tile the block computes: Q once the consumers are done
  // with the previous tile's (q_empty), then K(n) and V^T(n) of block n = n_blocks - 1 - i into the
  // rings (V^T's box: keys n BN .. of every d row).
  __device__ __forceinline__ static void produce(Params const& p, Maps const& maps, AttentionSm90Tile const& w0,
                                                 Storage& s, int lt) {
    if (lt != 0) return;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    PipelineState<Stages> st;
    std::uint32_t loaded = 0;
    AttentionSm90Tile w = w0;
    for (int tile = int(blockIdx.x);;) {
      if (w.n_blocks > 0) {
        if (loaded > 0) mbarrier_wait(&s.q_empty, (loaded - 1) & 1u);
        ++loaded;
        int const head_kv = w.h / p.shape.group;
        mbarrier_arrive_expect_tx(&s.q_full, kQBytes);
        load_rows<BM>(&maps.q, &s.q_full, s.q, w.m * BM, w.h, w.b);
        for (int i = 0; i < w.n_blocks; ++i, ++st) {
          int const n = w.n_blocks - 1 - i;
          k_ring.producer_acquire(st);
          load_rows<BN>(&maps.k, k_ring.producer_expect(st, kKVBytes), s.k_stage(st.index), n * BN, head_kv, w.b);
          v_ring.producer_acquire(st);
          SM90_TMA_LOAD_4D::copy(&maps.vt, v_ring.producer_expect(st, kKVBytes), s.vt_stage(st.index), n * BN / 2, 0,
                                 head_kv, w.b);
        }
      }
      tile += int(gridDim.x);
      if (!Cfg::kPersistent || tile >= p.tiles) break;
      w = attention_sm90_tile<BM, BN>(p.shape, tile);
    }
  }

  // S = Q K^T for the warpgroup's 64 rows against the stage's BN keys: D/32 wgmma m64n128k32, the
  // first overwriting S, one batch.
  __device__ __forceinline__ static void issue_qk(float (&sc)[BN / 2], std::uint32_t q_addr, std::uint32_t k_addr,
                                                  int c) {
    constexpr auto sQ = attention_sm90_rows_layout<BM, D / 2>();  // (BM,D/2) -> unit offset
    constexpr auto sK = attention_sm90_rows_layout<BN, D / 2>();  // (BN,D/2) -> unit offset
    attention_sm90_fence(sc);
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kk = 0; kk < D / 32; ++kk) {
      std::uint64_t const da = make_gmma_desc<GmmaMajor::K, 64>(q_addr, sQ, 64 * c, 16 * kk);
      std::uint64_t const db = make_gmma_desc<GmmaMajor::K, BN>(k_addr, sK, 0, 16 * kk);
      SsOp::fma(da, db, sc, kk == 0 ? GmmaScale::zero : GmmaScale::one);
    }
    warpgroup_commit_batch();
  }

  // O += P V (first: O = P V): BN/32 wgmma m64nDk32, P's registers 4 kk .. 4 kk + 3 for the keys
  // 32 kk .. (in attention_fp8_pv_key's order, as V^T's stage lists them).
  __device__ __forceinline__ static void issue_pv(float (&o)[D / 2], float (&pa)[BN / 8], std::uint32_t v_addr,
                                                  bool first) {
    constexpr auto sVt = attention_sm90_rows_layout<D, BN / 2>();  // (D,BN/2) -> unit offset
    attention_sm90_fence(o);
    attention_sm90_fence(pa);
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kk = 0; kk < BN / 32; ++kk) {
      std::uint64_t const db = make_gmma_desc<GmmaMajor::K, D>(v_addr, sVt, 0, 16 * kk);
      RsOp::fma(__float_as_uint(pa[4 * kk]), __float_as_uint(pa[4 * kk + 1]), __float_as_uint(pa[4 * kk + 2]),
                __float_as_uint(pa[4 * kk + 3]), db, o, first && kk == 0 ? GmmaScale::zero : GmmaScale::one);
    }
    warpgroup_commit_batch();
  }

  // -inf where key n BN + 8 j + 2 t + e is not seen by row `row0 + 8 h` (attention_sm90_key_limit).
  __device__ __forceinline__ static void mask(float (&sc)[BN / 2], AttentionSm90Tile const& w, bool causal, int n,
                                              int row0, int t) {
    float const neg_inf = __int_as_float(0xff800000);
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      int const limit = attention_sm90_key_limit<BN>(w, causal, n, row0 + 8 * h) - 2 * t;
      TESSERA_UNROLL
      for (int j = 0; j < BN / 8; ++j) {
        TESSERA_UNROLL
        for (int e = 0; e < 2; ++e)
          if (8 * j + e >= limit) sc[4 * j + 2 * h + e] = neg_inf;
      }
    }
  }

  // The online softmax of one block (the 16-bit kernel's, with P scaled by 2^8): row maxima over the
  // quad, alpha[h] = 2^((old max - new max) sl2), S := P = 2^(S sl2 - max sl2 + 8), the thread's
  // running row sums (of the fp32 P). sl2 = scale dq dk log2 e. A row with no visible key keeps
  // max = -inf, used as 0 in the exponents (P and alpha 0).
  __device__ __forceinline__ static void softmax(float (&sc)[BN / 2], float (&row_max)[2], float (&row_sum)[2],
                                                 float (&alpha)[2], float sl2) {
    float const neg_inf = __int_as_float(0xff800000);
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      float mx = row_max[h];
      TESSERA_UNROLL
      for (int j = 0; j < BN / 8; ++j) mx = fmaxf(mx, fmaxf(sc[4 * j + 2 * h], sc[4 * j + 2 * h + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      float const mc = (mx == neg_inf ? 0.0f : mx) * sl2;
      alpha[h] = ex2_approx(row_max[h] * sl2 - mc);
      row_max[h] = mx;
      float const off = kPScaleLog2 - mc;
      float sum = 0.0f;
      TESSERA_UNROLL
      for (int j = 0; j < BN / 8; ++j) {
        TESSERA_UNROLL
        for (int e = 0; e < 2; ++e) {
          float const x = ex2_approx(fmaf(sc[4 * j + 2 * h + e], sl2, off));
          sc[4 * j + 2 * h + e] = x;
          sum += x;
        }
      }
      row_sum[h] = row_sum[h] * alpha[h] + sum;
    }
  }

  __device__ __forceinline__ static void rescale(float (&o)[D / 2], float const (&alpha)[2]) {
    TESSERA_UNROLL
    for (int j = 0; j < D / 8; ++j) {
      TESSERA_UNROLL
      for (int r = 0; r < 4; ++r) o[4 * j + r] *= alpha[r / 2];
    }
  }

  // P as the RS wgmma's A (the file's comment): register 4 kk + h + 2 u, byte i = S's value
  // 4 (4 kk + 2 u + (i >> 1)) + 2 h + (i & 1), in e4m3; the registers' bits kept in floats, as the
  // 16-bit kernel keeps P, so that attention_sm90_fence holds them across the asynchronous wgmma.
  __device__ __forceinline__ static void pack_p(float (&pa)[BN / 8], float const (&sc)[BN / 2]) {
    TESSERA_UNROLL
    for (int kk = 0; kk < BN / 32; ++kk) {
      TESSERA_UNROLL
      for (int u = 0; u < 2; ++u) {
        TESSERA_UNROLL
        for (int h = 0; h < 2; ++h) {
          int const v0 = 4 * (4 * kk + 2 * u) + 2 * h;  // S's value of byte 0; byte 2 is v0 + 4
          pa[4 * kk + h + 2 * u] = __uint_as_float(cvt_e4m3x4(sc[v0], sc[v0 + 1], sc[v0 + 4], sc[v0 + 5]));
        }
      }
    }
  }

  // The plain loop: wait K, S = Q K^T, release K (after the tile's last, Q), mask, softmax, pack P,
  // wait V^T, O += P V, release V^T.
  __device__ __forceinline__ static void mainloop(Params const& p, Storage& s, AttentionSm90Tile const& w, int c,
                                                  int lt, int row0, float sl2, float (&o)[D / 2], float (&row_max)[2],
                                                  float (&row_sum)[2], PipelineState<Stages>& st) {
    AttentionSm90Shape const& sh = p.shape;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    std::uint32_t const q_addr = smem_address(s.q);
    for (int i = 0; i < w.n_blocks; ++i, ++st) {
      int const n = w.n_blocks - 1 - i;
      float sc[BN / 2];
      k_ring.consumer_wait(st);
      issue_qk(sc, q_addr, smem_address(s.k_stage(st.index)), c);
      warpgroup_wait<0>();
      attention_sm90_fence(sc);
      if (lt == 0) {
        k_ring.consumer_release(st);
        if (i + 1 == w.n_blocks) mbarrier_arrive(&s.q_empty);
      }
      if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, n)) mask(sc, w, sh.causal, n, row0, lt % 4);
      float alpha[2];
      softmax(sc, row_max, row_sum, alpha, sl2);
      if (i > 0) rescale(o, alpha);
      float pa[BN / 8];
      pack_p(pa, sc);
      v_ring.consumer_wait(st);
      issue_pv(o, pa, smem_address(s.vt_stage(st.index)), i == 0);
      warpgroup_wait<0>();
      attention_sm90_fence(o);
      attention_sm90_fence(pa);
      if (lt == 0) v_ring.consumer_release(st);
    }
  }

  // The overlap loop (the 16-bit kernel's mainloop_overlap, whose comment says why K's release sits
  // behind a predicate on the row sums): S(i+1) = Q K(i+1)^T is issued, then O += P(i) V(i); the
  // softmax of S(i+1) runs while P(i) V(i) does.
  __device__ __forceinline__ static void mainloop_overlap(Params const& p, Storage& s, AttentionSm90Tile const& w,
                                                          int c, int lt, int row0, float sl2, float (&o)[D / 2],
                                                          float (&row_max)[2], float (&row_sum)[2],
                                                          PipelineState<Stages>& st) {
    AttentionSm90Shape const& sh = p.shape;
    Pipe const k_ring{s.k_ring}, v_ring{s.v_ring};
    std::uint32_t const q_addr = smem_address(s.q);
    float sc[BN / 2];  // S of block i + 1, then its P (fp32)
    float pa[BN / 8];  // P of block i, packed e4m3 (bit patterns): PV's A operand
    float alpha[2];
    k_ring.consumer_wait(st);
    issue_qk(sc, q_addr, smem_address(s.k_stage(st.index)), c);
    warpgroup_wait<0>();
    attention_sm90_fence(sc);
    if (lt == 0) k_ring.consumer_release(st);
    if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, w.n_blocks - 1))
      mask(sc, w, sh.causal, w.n_blocks - 1, row0, lt % 4);
    softmax(sc, row_max, row_sum, alpha, sl2);
    pack_p(pa, sc);
    for (int i = 0; i + 1 < w.n_blocks; ++i, ++st) {
      int const n_next = w.n_blocks - 2 - i;
      PipelineState<Stages> next = st;
      ++next;
      k_ring.consumer_wait(next);
      issue_qk(sc, q_addr, smem_address(s.k_stage(next.index)), c);
      if (i > 0) rescale(o, alpha);
      v_ring.consumer_wait(st);
      issue_pv(o, pa, smem_address(s.vt_stage(st.index)), i == 0);
      warpgroup_wait<1>();  // S(i+1) is done; P(i) V(i) may still run
      attention_sm90_fence(sc);
      if (attention_sm90_needs_mask<BM, BN>(w, sh.causal, n_next)) mask(sc, w, sh.causal, n_next, row0, lt % 4);
      softmax(sc, row_max, row_sum, alpha, sl2);
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
    if (lt == 0) mbarrier_arrive(&s.q_empty);
    if (w.n_blocks > 1) rescale(o, alpha);
    v_ring.consumer_wait(st);
    issue_pv(o, pa, smem_address(s.vt_stage(st.index)), w.n_blocks == 1);
    warpgroup_wait<0>();
    attention_sm90_fence(o);
    attention_sm90_fence(pa);
    if (lt == 0) v_ring.consumer_release(st);
    ++st;
  }

  __device__ __forceinline__ static void consume(Params const& p, Maps const&, AttentionSm90Tile const& w0, Storage& s,
                                                 int c, int lt) {
    PipelineState<Stages> st;
    std::uint32_t loaded = 0;
    AttentionSm90Tile w = w0;
    for (int tile = int(blockIdx.x);;) {
      consume_tile(p, w, s, c, lt, st, loaded);
      tile += int(gridDim.x);
      if (!Cfg::kPersistent || tile >= p.tiles) break;
      w = attention_sm90_tile<BM, BN>(p.shape, tile);
    }
  }

  __device__ __forceinline__ static void consume_tile(Params const& p, AttentionSm90Tile const& w, Storage& s, int c,
                                                      int lt, PipelineState<Stages>& st, std::uint32_t& loaded) {
    AttentionSm90Shape const& sh = p.shape;
    int const warp = lt / 32, lane = lt % 32, g = lane / 4, t = lane % 4;
    int const row0 = w.m * BM + 64 * c + 16 * warp + g;
    float const neg_inf = __int_as_float(0xff800000);
    int const head_kv = w.h / sh.group;
    float const dqk = attention_fp8_descale(p.descale_q, w.b, w.h, sh.heads_q) *
                      attention_fp8_descale(p.descale_k, w.b, head_kv, p.heads_kv);

    float o[D / 2];
    float row_max[2] = {neg_inf, neg_inf}, row_sum[2] = {0.0f, 0.0f};
    if (w.n_blocks > 0) {
      mbarrier_wait(&s.q_full, loaded & 1u);
      ++loaded;
      if constexpr (Cfg::Overlap) {
        mainloop_overlap(p, s, w, c, lt, row0, p.scale_log2 * dqk, o, row_max, row_sum, st);
      } else {
        mainloop(p, s, w, c, lt, row0, p.scale_log2 * dqk, o, row_max, row_sum, st);
      }
    } else {
      TESSERA_UNROLL
      for (int r = 0; r < D / 2; ++r) o[r] = 0.0f;
    }

    // O dv / rowsum, LSE = max scale dq dk + log(rowsum) - 8 ln 2 (the row sums reduced over the quad).
    float const dv = attention_fp8_descale(p.descale_v, w.b, head_kv, p.heads_kv);
    bfloat16_t* const o_bh = p.o + w.b * p.o_batch + w.h * p.o_head;
    float* const lse_bh = p.lse == nullptr ? nullptr : p.lse + (std::int64_t(w.b) * sh.heads_q + w.h) * p.lse_head;
    TESSERA_UNROLL
    for (int h = 0; h < 2; ++h) {
      float sum = row_sum[h];
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      bool const none = !(sum > 0.0f);
      float const inv = none ? 0.0f : dv / sum;
      float const lse = none ? neg_inf : row_max[h] * (p.scale * dqk) + logf(sum) - kPScaleLog2 * 0.6931471805599453f;
      int const row = row0 + 8 * h;
      if (row < w.seq_q) {
        bfloat16_t* const o_row = o_bh + std::int64_t(row) * p.o_seq + 2 * t;
        TESSERA_UNROLL
        for (int j = 0; j < D / 8; ++j)
          *reinterpret_cast<std::uint32_t*>(o_row + 8 * j) =
              attention_sm90_pack<bfloat16_t>(o[4 * j + 2 * h] * inv, o[4 * j + 2 * h + 1] * inv);
        if (t == 0 && lse_bh != nullptr) lse_bh[row] = lse;
      }
    }
  }
};

}  // namespace detail
}  // namespace tessera::kernels
