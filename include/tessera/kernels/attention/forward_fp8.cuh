// The FP8 attention forward on Hopper (docs/attention.md, "FP8 forward"): the launcher of the kernel
// of kernels/attention/forward_fp8_sm90.cuh.
//   attention_forward_fp8_sm90(problem, stream)   V's transposed copy into the workspace, then
//                                                 O (bf16) and LSE from e4m3 Q, K, V
// The problem and its checks (AttentionFp8Problem, check_attention_fp8_problem,
// attention_fp8_workspace_bytes) are in kernels/attention/problem_fp8.hpp, plain C++.
#pragma once

#include "tessera/kernels/attention/forward.cuh"
#include "tessera/kernels/attention/forward_fp8_sm90.cuh"
#include "tessera/kernels/attention/problem_fp8.hpp"

#if !defined(__CUDACC_RTC__)  // host only: the launcher
#include <cuda_runtime.h>

#include <cstdint>

namespace tessera::kernels {

namespace detail {

// attention_fp8_transpose_launch(p, stream): V -> the workspace's V^T (attention_fp8_transpose_v),
// one block per 64 keys x 64 d of each (batch, head). Pre: check_attention_fp8_problem passes.
inline cudaError_t attention_fp8_transpose_launch(AttentionFp8Problem const& p, cudaStream_t stream) {
  long long const vt_seq = attention_fp8_vt_seq(p.seq_k);
  dim3 const grid(unsigned(vt_seq / 64), unsigned(p.head_dim / 64), unsigned(p.batch * p.heads_kv));
  if (grid.z > 65535u) return cudaErrorInvalidConfiguration;
  attention_fp8_transpose_v<float_e4m3_t>
      <<<grid, 256, 0, stream>>>(p.v, p.v_strides.batch, p.v_strides.head, p.v_strides.seq,
                                 static_cast<std::uint8_t*>(p.workspace), p.heads_kv, p.seq_k, p.head_dim, vt_seq);
  return cudaGetLastError();
}

// The maps and values of the main kernel, then its launch (the grid as attention_sm90_launch's:
// persistent blocks for Cfg::kPersistent, the causal order's groups of attention_sm90_causal_group
// with K and V counted at one byte an element). order_pairs > 0: the causal order in groups of that
// many (sequence, head) pairs (tests); max_blocks > 0 caps a persistent grid (tests).
template <class Cfg>
cudaError_t attention_fp8_sm90_launch(AttentionFp8Problem const& p, cudaStream_t stream, int max_blocks = 0,
                                      long long order_pairs = 0) {
  using Roles = AttentionFp8Sm90Roles<Cfg>;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, D = Cfg::kHeadDim;
  AttentionSm90Extents const e = attention_sm90_extents(attention_fp8_view(p), BM);
  // Q and K as 16-bit units: half the head_dim and the strides (multiples of 16 bytes: even)
  auto const units = [](AttentionStrides const& s) { return AttentionStrides{s.batch / 2, s.head / 2, s.seq / 2, 1}; };
  using U = bfloat16_t;  // a 16-bit unit type for the maps (only its size matters)
  AttentionFp8Sm90Maps maps{};
  maps.q =
      attention_sm90_tma(reinterpret_cast<U const*>(p.q), p.batch, p.heads_q, p.seq_q, D / 2, units(p.q_strides), BM);
  maps.k =
      attention_sm90_tma(reinterpret_cast<U const*>(p.k), p.batch, p.heads_kv, p.seq_k, D / 2, units(p.k_strides), BN);
  long long const vt_seq = attention_fp8_vt_seq(p.seq_k);  // V^T (batch, heads_kv, D, vt_seq) bytes
  AttentionStrides const vt{(long long)p.heads_kv * D * vt_seq / 2, (long long)D * vt_seq / 2, vt_seq / 2, 1};
  maps.vt = attention_sm90_tma(static_cast<U const*>(p.workspace), p.batch, p.heads_kv, D, int(vt_seq / 2), vt, D);

  AttentionFp8Sm90Params params{};
  params.o = p.o;
  params.o_batch = p.o_strides.batch;
  params.o_head = p.o_strides.head;
  params.o_seq = p.o_strides.seq;
  params.lse = p.lse;
  params.lse_head = e.lse_head;
  params.shape = e.shape;
  params.scale = attention_fp8_scale(p);
  params.scale_log2 = params.scale * 1.4426950408889634f;
  params.descale_q = p.descale_q;
  params.descale_k = p.descale_k;
  params.descale_v = p.descale_v;
  params.heads_kv = p.heads_kv;
  params.tiles = int(e.tiles);

  constexpr int smem = sm90::shared_storage_bytes<typename Roles::Storage>();
  static_assert(smem <= 227 * 1024, "attention_forward_fp8_sm90: the configuration's shared storage exceeds 227 KB");
  auto const kernel = sm90::warp_specialized_kernel<Roles>;
  int device = 0, sms = 0;
  if (cudaError_t const err = sm90::current_device(device, sms); err != cudaSuccess) return err;
  if (cudaError_t const err = sm90::raise_shared_limit<Roles>(reinterpret_cast<void const*>(kernel), smem, device);
      err != cudaSuccess)
    return err;
  long long grid = attention_sm90_grid(e.tiles, sms, Cfg::kPersistent);
  if (Cfg::kPersistent && max_blocks > 0 && grid > max_blocks) grid = max_blocks;
  if (params.shape.causal && order_pairs == 0)  // K and V^T: one byte an element, the 16-bit rule's D / 2
    order_pairs =
        attention_sm90_causal_group(params.shape, D / 2, Cfg::kPersistent ? int(grid) : sms, Cfg::kPersistent);
  attention_sm90_order(params.shape, order_pairs);
  sm90::Launch config{dim3(unsigned(grid)), dim3(Roles::kThreads), smem, stream};
  return cudaLaunchKernelEx(&config.config(), kernel, params, maps);
}

// The whole forward with configuration Cfg: the transposing pass, then the kernel.
template <class Cfg>
cudaError_t attention_fp8_sm90_run(AttentionFp8Problem const& p, cudaStream_t stream, int max_blocks = 0,
                                   long long order_pairs = 0) {
  if (cudaError_t const err = attention_fp8_transpose_launch(p, stream); err != cudaSuccess) return err;
  return attention_fp8_sm90_launch<Cfg>(p, stream, max_blocks, order_pairs);
}

}  // namespace detail

// attention_forward_fp8_sm90(problem, stream): O (bf16) and LSE of `problem` (AttentionFp8Problem,
// e4m3 Q, K, V with their descales): V's transposed copy into problem.workspace, then the kernel of
// forward_fp8_sm90.cuh for its head_dim, both on `stream`: the overlap loop for head_dim 128, the
// plain loop for 256 (its overlap loop spills), persistent for short
// tiles (attention_sm90_persistent(seq_k), as the 16-bit forward), else one block a tile.
// Pre: check_attention_fp8_problem passes (else invalid_argument, before anything runs); a device
// of compute capability 9.0 (the sm_90a build). Returns the first launch error (asynchronous
// errors surface at the next synchronization).
inline cudaError_t attention_forward_fp8_sm90(AttentionFp8Problem const& problem, cudaStream_t stream = nullptr) {
  check_attention_fp8_problem("attention_forward_fp8_sm90", problem);
  using detail::attention_fp8_sm90_run;
  bool const persistent = attention_sm90_persistent(problem.seq_k);
  if (problem.head_dim == 128)
    return persistent ? attention_fp8_sm90_run<AttentionFp8Sm90Config<128, true, true>>(problem, stream)
                      : attention_fp8_sm90_run<AttentionFp8Sm90Config<128, true>>(problem, stream);
  return persistent ? attention_fp8_sm90_run<AttentionFp8Sm90Config<256, false, true>>(problem, stream)
                    : attention_fp8_sm90_run<AttentionFp8Sm90Config<256>>(problem, stream);
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
