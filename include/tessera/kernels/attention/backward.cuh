// Attention backward on Hopper (docs/attention.md, "Backward"): the launcher of three kernels on
// the caller's stream.
//   attention_backward_sm90(problem, stream)   dQ, dK, dV of AttentionBackwardProblem<T>
//     1. attention_bwd_preprocess: a warp a (batch, head, padded row): D = rowsum(dO o O) (fp32),
//        LSE log2 e (+inf for rows past seq_q and rows that see no key), the row of the fp32 dQ
//        accumulator zeroed;
//     2. the main kernel (backward_sm90.cuh): a block a (key block, key/value head, batch);
//     3. attention_bwd_postprocess: dQ = scale * accumulator, converted, at dq's strides.
// The workspace (accumulator, LSE log2 e, D) is the caller's: attention_backward_workspace_bytes.
#pragma once

#include "tessera/kernels/attention/backward_problem.hpp"
#include "tessera/kernels/attention/backward_sm90.cuh"
#include "tessera/kernels/attention/forward.cuh"

// The pre- and postprocessing kernels are device code that NVRTC compiles too (the JIT's
// jit/attention_bwd_sm90.hpp); the launcher below is host code for nvcc.
namespace tessera::kernels::detail {

// The preprocessing's arguments: O and dO (strides in elements), the forward's LSE ((batch heads_q,
// seq_q) contiguous), the workspace's three parts, and the sizes.
template <class T>
struct AttentionBwdPreParams {
  T const* o;
  long long o_batch, o_head, o_seq;
  T const* dout;
  long long do_batch, do_head, do_seq;
  float const* lse;
  float* lse2;
  float* dsum;
  float* dq_accum;
  int heads_q, seq_q, rows_pad, d;
  long long rows;           // batch heads_q rows_pad (varlen: heads_q rows_pad)
  int const* cu_seqlens_q;  // varlen: batch + 1 offsets (null: fixed length)
  int batch, total_q;
};

// Varlen: the sequence of `row`: with ws false, the largest b < batch with cu[b] <= row (the
// sequence holding a packed row, empty sequences skipped: cu nondecreasing from 0); with ws true,
// the largest b < batch with attention_backward_varlen_row0(cu[b], b) <= row (the sequence whose
// workspace rows, its own and its padding, hold the row).
__device__ __forceinline__ int attention_bwd_sequence_of(int const* cu, int batch, bool ws, long long row) {
  int lo = 0, hi = batch;  // start(lo) <= row; hi == batch or start(hi) > row
  while (hi - lo > 1) {
    int const mid = (lo + hi) / 2;
    if ((ws ? attention_backward_varlen_row0(cu[mid], mid) : (long long)cu[mid]) <= row) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// One warp a padded row r of the workspace (row i = r % rows_pad of (batch, head) bh = r / rows_pad).
template <class T>
__global__ void __launch_bounds__(256) attention_bwd_preprocess(AttentionBwdPreParams<T> const p) {
  long long const r = (long long)blockIdx.x * 8 + threadIdx.x / 32;
  int const lane = int(threadIdx.x % 32);
  if (r >= p.rows) return;
  long long const bh = r / p.rows_pad;
  int const i = int(r - bh * p.rows_pad);
  int b = int(bh / p.heads_q), h = int(bh - (long long)b * p.heads_q);
  bool valid = i < p.seq_q;
  long long row = i, lse_at = bh * p.seq_q + i;  // the row in O and dO; LSE's element
  if (p.cu_seqlens_q != nullptr) {               // varlen: bh is the head, i the padded row of its workspace
    h = int(bh);
    int const sb = attention_bwd_sequence_of(p.cu_seqlens_q, p.batch, true, i);
    int const first = p.cu_seqlens_q[sb], at = int(i - attention_backward_varlen_row0(first, sb));
    valid = at < p.cu_seqlens_q[sb + 1] - first;
    b = 0;
    row = first + at;
    lse_at = (long long)h * p.total_q + first + at;
  }
  float acc = 0.0f;
  if (valid) {
    T const* const o = p.o + b * p.o_batch + h * p.o_head + row * p.o_seq;
    T const* const dout = p.dout + b * p.do_batch + h * p.do_head + row * p.do_seq;
    for (int x = 2 * lane; x < p.d; x += 64) acc += float(o[x]) * float(dout[x]) + float(o[x + 1]) * float(dout[x + 1]);
  }
  TESSERA_UNROLL
  for (int s = 16; s >= 1; s /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, s);
  if (lane == 0) {
    float l = __int_as_float(0x7f800000);  // +inf: P = 0
    if (valid) {
      float const lse = p.lse[lse_at];
      if (lse != __int_as_float(0xff800000)) l = lse * 1.4426950408889634f;
    }
    p.lse2[r] = l;
    p.dsum[r] = valid ? acc : 0.0f;
  }
  float* const dq = p.dq_accum + r * p.d;
  for (int x = 4 * lane; x < p.d; x += 128) *reinterpret_cast<float4*>(dq + x) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

// dQ = scale * accumulator: a thread a pair of columns (grid-stride).
template <class T>
struct AttentionBwdPostParams {
  float const* dq_accum;
  T* dq;
  long long dq_batch, dq_head, dq_seq;
  int heads_q, seq_q, rows_pad, d;
  long long pairs;  // batch heads_q seq_q d / 2 (varlen: heads_q total_q d / 2)
  float scale;
  int const* cu_seqlens_q;  // varlen (null: fixed length)
  int batch, total_q;
};

template <class T>
__global__ void __launch_bounds__(256) attention_bwd_postprocess(AttentionBwdPostParams<T> const p) {
  int const half = p.d / 2;
  for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < p.pairs;
       idx += (long long)gridDim.x * blockDim.x) {
    long long const row = idx / half;  // bh seq_q + i (varlen: h total_q + packed row)
    int const x = 2 * int(idx - row * half);
    int const rows = p.cu_seqlens_q != nullptr ? p.total_q : p.seq_q;
    long long const bh = row / rows;
    int const i = int(row - bh * rows);
    int b = int(bh / p.heads_q), h = int(bh - (long long)b * p.heads_q);
    long long ws = bh * p.rows_pad + i;  // the accumulator's row
    if (p.cu_seqlens_q != nullptr) {     // varlen: sequence sb's rows from attention_backward_varlen_row0
      h = int(bh);
      b = 0;
      int const sb = attention_bwd_sequence_of(p.cu_seqlens_q, p.batch, false, i);
      int const first = p.cu_seqlens_q[sb];
      ws = bh * p.rows_pad + attention_backward_varlen_row0(first, sb) + (i - first);
    }
    float2 const v = *reinterpret_cast<float2 const*>(p.dq_accum + ws * p.d + x);
    *reinterpret_cast<std::uint32_t*>(p.dq + b * p.dq_batch + h * p.dq_head + (long long)i * p.dq_seq + x) =
        attention_sm90_pack<T>(v.x * p.scale, v.y * p.scale);
  }
}

}  // namespace tessera::kernels::detail

#if !defined(__CUDACC_RTC__)
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/sm90/launch.cuh"

namespace tessera::kernels {

namespace detail {

// The three launches for configuration Cfg (pre: the problem passed its checks).
// debug: Cfg::kDebug's dump of block 0's first step (4 BN BM floats; tests), else null.
template <class Cfg, class T>
cudaError_t attention_bwd_sm90_launch(AttentionBackwardProblem<T> const& p, cudaStream_t stream,
                                      float* debug = nullptr) {
  using Roles = AttentionBwdSm90Roles<Cfg, T>;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, D = Cfg::kHeadDim;
  AttentionProblem<T> const& f = p.fwd;
  bool const varlen = attention_varlen(f);
  if (varlen != Cfg::kVarlen) return cudaErrorInvalidValue;  // the configuration must match the problem
  // fixed length: batch heads_q runs of rows_pad rows; varlen: heads_q runs of the packed sequences' rows
  long long const rows_pad =
      varlen ? attention_backward_varlen_rows(f.total_q, f.batch) : attention_backward_rows_pad(f.seq_q);
  // Lean: a thread's dQ offset within its head's accumulator is 32-bit (rows_pad D floats)
  if (Cfg::kLean && rows_pad * D >= (1LL << 32)) return cudaErrorInvalidValue;
  // DqTma: the reduce-add's row coordinate (bh rows_pad + row) is a 32-bit signed int
  if (Cfg::kDqTma && (varlen ? (long long)f.heads_q : (long long)f.batch * f.heads_q) * rows_pad >= (1LL << 31))
    return cudaErrorInvalidValue;
  long long const bh = varlen ? f.heads_q : (long long)f.batch * f.heads_q;
  int const t_batch = varlen ? 1 : f.batch, t_rows_q = varlen ? f.total_q : f.seq_q,
            t_rows_k = varlen ? f.total_k : f.seq_k;  // the tensor maps' extents
  float* const dq_accum = static_cast<float*>(p.workspace);
  float* const lse2 = dq_accum + bh * rows_pad * D;
  float* const dsum = lse2 + bh * rows_pad;
  float const scale = attention_scale(f);

  AttentionBwdPreParams<T> pre{f.o,
                               f.o_strides.batch,
                               f.o_strides.head,
                               f.o_strides.seq,
                               p.dout,
                               p.dout_strides.batch,
                               p.dout_strides.head,
                               p.dout_strides.seq,
                               f.lse,
                               lse2,
                               dsum,
                               dq_accum,
                               f.heads_q,
                               f.seq_q,
                               int(rows_pad),
                               D,
                               bh * rows_pad,
                               f.cu_seqlens_q,
                               f.batch,
                               f.total_q};
  attention_bwd_preprocess<T><<<unsigned((pre.rows + 7) / 8), 256, 0, stream>>>(pre);
  if (cudaError_t const e = cudaGetLastError(); e != cudaSuccess) return e;

  typename Roles::Maps maps{};
  maps.q = attention_sm90_tma(f.q, t_batch, f.heads_q, t_rows_q, D, f.q_strides, BM);
  maps.dout = attention_sm90_tma(p.dout, t_batch, f.heads_q, t_rows_q, D, p.dout_strides, BM);
  maps.k = attention_sm90_tma(f.k, t_batch, f.heads_kv, t_rows_k, D, f.k_strides, BN);
  maps.v = attention_sm90_tma(f.v, t_batch, f.heads_kv, t_rows_k, D, f.v_strides, BN);
  maps.lse2 = make_tma_desc_2d(lse2, 4, std::uint64_t(rows_pad), std::uint64_t(bh), std::uint64_t(rows_pad), BM, 1,
                               TmaSwizzle::none);
  maps.dsum = make_tma_desc_2d(dsum, 4, std::uint64_t(rows_pad), std::uint64_t(bh), std::uint64_t(rows_pad), BM, 1,
                               TmaSwizzle::none);
  // DqTma: the accumulator as bh rows_pad rows of D floats, in boxes of 32 floats x BM rows (128
  // bytes: the 128-byte swizzle's span), the dQ shares' reduce-adds; declared fp32 (the adds' type)
  if constexpr (Cfg::kDqTma)
    maps.dq = make_tma_desc_2d(dq_accum, 4, std::uint64_t(D), std::uint64_t(bh * rows_pad), std::uint64_t(D), 32, BM,
                               TmaSwizzle::b128, TmaData::f32);
  AttentionBwdSm90Params<T> params{};
  params.dk = p.dk;
  params.dk_batch = p.dk_strides.batch;
  params.dk_head = p.dk_strides.head;
  params.dk_seq = p.dk_strides.seq;
  params.dv = p.dv;
  params.dv_batch = p.dv_strides.batch;
  params.dv_head = p.dv_strides.head;
  params.dv_seq = p.dv_strides.seq;
  params.dq_accum = dq_accum;
  params.rows_pad = int(rows_pad);
  params.batch = f.batch;
  params.heads_q = f.heads_q;
  params.heads_kv = f.heads_kv;
  params.group = f.heads_q / f.heads_kv;
  params.seq_q = f.seq_q;
  params.seq_k = f.seq_k;
  params.m_blocks = (f.seq_q + BM - 1) / BM;
  params.n_blocks = (f.seq_k + BN - 1) / BN;
  params.causal = f.causal != AttentionCausal::none ? 1 : 0;
  params.bottom_right = f.causal == AttentionCausal::bottom_right ? 1 : 0;
  params.scale = scale;
  params.scale_log2 = scale * 1.4426950408889634f;
  params.debug = debug;
  params.cu_seqlens_q = f.cu_seqlens_q;
  params.cu_seqlens_k = f.cu_seqlens_k;
  if (varlen) params.dk_batch = params.dv_batch = 0;  // one batch of packed rows

  constexpr int smem = sm90::shared_storage_bytes<typename Roles::Storage>();
  static_assert(smem <= 227 * 1024, "attention_backward_sm90: the configuration's shared storage exceeds 227 KB");
  auto const kernel = sm90::warp_specialized_kernel<Roles>;
  int device = 0, sms = 0;
  if (cudaError_t const e = sm90::current_device(device, sms); e != cudaSuccess) return e;
  if (cudaError_t const e = sm90::raise_shared_limit<Roles>(reinterpret_cast<void const*>(kernel), smem, device);
      e != cudaSuccess)
    return e;
  unsigned const blocks = unsigned((long long)params.n_blocks * f.heads_kv * f.batch);
  sm90::Launch config{dim3(blocks), dim3(Roles::kThreads), smem, stream};
  if (cudaError_t const e = cudaLaunchKernelEx(&config.config(), kernel, params, maps); e != cudaSuccess) return e;

  AttentionBwdPostParams<T> post{dq_accum,
                                 p.dq,
                                 varlen ? 0 : p.dq_strides.batch,
                                 p.dq_strides.head,
                                 p.dq_strides.seq,
                                 f.heads_q,
                                 f.seq_q,
                                 int(rows_pad),
                                 D,
                                 bh * t_rows_q * (D / 2),
                                 scale,
                                 f.cu_seqlens_q,
                                 f.batch,
                                 f.total_q};
  long long const want = (post.pairs + 255) / 256;
  unsigned const post_blocks = unsigned(want < 8LL * (sms > 0 ? sms : 132) ? want : 8LL * (sms > 0 ? sms : 132));
  attention_bwd_postprocess<T><<<post_blocks, 256, 0, stream>>>(post);
  return cudaGetLastError();
}

}  // namespace detail

// attention_backward_sm90(problem, stream): dQ, dK and dV of `problem` (AttentionBackwardProblem:
// the forward's problem, its O and LSE, dO, the outputs and the caller's workspace), by the
// preprocessing, the main kernel of backward_sm90.cuh for its head_dim (64 or 128) and the
// postprocessing, queued on `stream`. Pre: check_attention_backward_problem passes (else
// invalid_argument, before anything runs); a device of compute capability 9.0 (the sm_90a build).
// Returns the first launch error (asynchronous errors surface at the next synchronization).
template <class T>
cudaError_t attention_backward_sm90(AttentionBackwardProblem<T> const& problem, cudaStream_t stream = nullptr) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "attention_backward_sm90: Q, K, V, O, dO and the gradients must be half_t or bfloat16_t");
  check_attention_backward_problem("attention_backward_sm90", problem);
  using detail::attention_bwd_sm90_launch;
  if (attention_varlen(problem.fwd))
    return problem.fwd.head_dim == 64
               ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, true>, T>(problem, stream)
               : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, true>, T>(problem, stream);
  if (problem.fwd.head_dim == 64) return attention_bwd_sm90_launch<AttentionBwdSm90Config<64>, T>(problem, stream);
  return attention_bwd_sm90_launch<AttentionBwdSm90Config<128>, T>(problem, stream);
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
