// Attention forward on Hopper (docs/attention.md): the problem, its checks and the launcher of the
// kernel of kernels/attention/forward_sm90.cuh.
//   attention_forward_sm90(problem, stream) O = softmax(scale Q K^T [+ mask]) V and LSE
// The problem and its checks (AttentionProblem<T>, check_attention_problem) are in
// kernels/attention/problem.hpp, plain C++: the JIT's host side (jit/attention_sm90.hpp) uses them as
// they are.
// The kernel's device code compiles under NVRTC; this header's host part does not (it is skipped
// there).
#pragma once

#include "tessera/kernels/attention/forward_sm90.cuh"
#include "tessera/kernels/attention/problem.hpp"

#if !defined(__CUDACC_RTC__)  // host only: the problem's checks and the launcher
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "tessera/sm90/launch.cuh"

namespace tessera::kernels {

namespace detail {

// The 4-D tensor map of a (batch, heads, seq, head_dim) tensor read in boxes of 64 x rows with the
// 128-byte swizzle (the tiles of attention_sm90_rows_layout). A stride over an extent of 1 is never
// followed: it is replaced by one past the whole tensor (TMA checks every stride; the problem's may
// be anything there).
template <class T>
TmaDescriptor attention_sm90_tma(T const* ptr, int batch, int heads, int seq, int head_dim, AttentionStrides const& s,
                                 int rows) {
  std::uint64_t span = std::uint64_t(head_dim) * sizeof(T);  // bytes the used strides reach
  auto const reach = [&](long long stride, int extent) {
    if (extent > 1) span = std::max(span, std::uint64_t(stride) * std::uint64_t(extent) * sizeof(T));
  };
  reach(s.seq, seq);
  reach(s.head, heads);
  reach(s.batch, batch);
  auto const bytes = [&](long long stride, int extent) {
    return extent > 1 ? std::uint64_t(stride) * sizeof(T) : (span + 15) / 16 * 16;
  };
  std::uint64_t const dims[4] = {std::uint64_t(head_dim), std::uint64_t(seq), std::uint64_t(heads),
                                 std::uint64_t(batch)};
  std::uint64_t const strides[3] = {bytes(s.seq, seq), bytes(s.head, heads), bytes(s.batch, batch)};
  std::uint32_t const box[4] = {64, std::uint32_t(rows), 1, 1};
  return make_tma_desc_4d(ptr, int(sizeof(T)), dims, strides, box, TmaSwizzle::b128);
}

// The kernel of configuration Cfg, launched: one block per query tile (m-blocks x heads_q x batch;
// varlen: m-blocks of the longest sequence, each tile past its own sequence's end returns at once),
// its two arguments the values (AttentionSm90Params) and the tensor maps (AttentionSm90Maps).
// The grid: for a configuration whose blocks loop over tiles (Cfg::kPersistent), at most one block
// an SM (attention_sm90_grid), max_blocks > 0 capping it further (tests: many tiles a block); else
// one block a tile. The tile order: causal, in groups of order_pairs (sequence, head) pairs (a
// divisor of batch heads_q; tests), or for order_pairs 0 of attention_sm90_causal_group's choice;
// without a mask the m-block fastest (attention_sm90_order).
template <class Cfg, class T>
cudaError_t attention_sm90_launch(AttentionProblem<T> const& p, cudaStream_t stream, int max_blocks = 0,
                                  long long order_pairs = 0) {
  using Roles = AttentionSm90Roles<Cfg, T>;
  constexpr int BM = Cfg::BM, BN = Cfg::BN;
  AttentionSm90Extents const e = attention_sm90_extents(p, BM);  // varlen: one batch of the packed rows
  AttentionSm90Maps<T> maps{};
  maps.q = attention_sm90_tma(p.q, e.batch, p.heads_q, e.rows_q, p.head_dim, p.q_strides, BM);
  maps.k = attention_sm90_tma(p.k, e.batch, p.heads_kv, e.rows_k, p.head_dim, p.k_strides, BN);
  maps.v = attention_sm90_tma(p.v, e.batch, p.heads_kv, e.rows_k, p.head_dim, p.v_strides, BN);
  AttentionSm90Params<T> params{};
  params.o = p.o;
  params.o_batch = e.o_batch;
  params.o_head = p.o_strides.head;
  params.o_seq = p.o_strides.seq;
  params.lse = p.lse;
  params.lse_head = e.lse_head;
  params.shape = e.shape;
  params.scale = attention_scale(p);
  params.scale_log2 = params.scale * 1.4426950408889634f;
  params.tiles = int(e.tiles);

  constexpr int smem = sm90::shared_storage_bytes<typename Roles::Storage>();
  static_assert(smem <= 227 * 1024, "attention_forward_sm90: the configuration's shared storage exceeds 227 KB");
  auto const kernel = sm90::warp_specialized_kernel<Roles>;
  int device = 0, sms = 0;
  if (cudaError_t const e = sm90::current_device(device, sms); e != cudaSuccess) return e;
  if (cudaError_t const e = sm90::raise_shared_limit<Roles>(reinterpret_cast<void const*>(kernel), smem, device);
      e != cudaSuccess)
    return e;
  long long grid = attention_sm90_grid(e.tiles, sms, Cfg::kPersistent);
  if (Cfg::kPersistent && max_blocks > 0 && grid > max_blocks) grid = max_blocks;
  if (params.shape.causal && order_pairs == 0)  // persistent: the blocks that take turns are the grid's
    order_pairs =
        attention_sm90_causal_group(params.shape, p.head_dim, Cfg::kPersistent ? int(grid) : sms, Cfg::kPersistent);
  attention_sm90_order(params.shape, order_pairs);
  unsigned const blocks = unsigned(grid);
  sm90::Launch config{dim3(blocks), dim3(Roles::kThreads), smem, stream};
  return cudaLaunchKernelEx(&config.config(), kernel, params, maps);  // the values by value, the maps in place
}

}  // namespace detail

// attention_forward_sm90(problem, stream): O and LSE of `problem` (AttentionProblem), by the kernel
// of forward_sm90.cuh for its head_dim, one tile per 128 query rows of a (batch, head): the
// overlap loop for head_dim 128 and 256 and the plain loop for 64 (as the JIT's
// attention_sm90_default_loop says), persistent for short tiles (attention_sm90_persistent(seq_k):
// AttentionSm90Config<D, false, overlap, true>, at most one block an SM), else one block a tile.
// Pre: check_attention_problem passes (else invalid_argument, before anything runs); a device of
// compute capability 9.0 (the sm_90a build). Returns the launch's error (asynchronous errors surface
// at the next synchronization).
template <class T>
cudaError_t attention_forward_sm90(AttentionProblem<T> const& problem, cudaStream_t stream = nullptr) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "attention_forward_sm90: Q, K, V and O must be half_t or bfloat16_t");
  check_attention_problem("attention_forward_sm90", problem);
  using detail::attention_sm90_launch;
  bool const persistent = attention_sm90_persistent(problem.seq_k);
  switch (problem.head_dim) {
    case 64:
      return persistent ? attention_sm90_launch<AttentionSm90Config<64, false, false, true>, T>(problem, stream)
                        : attention_sm90_launch<AttentionSm90Config<64>, T>(problem, stream);
    case 128:
      return persistent ? attention_sm90_launch<AttentionSm90Config<128, false, true, true>, T>(problem, stream)
                        : attention_sm90_launch<AttentionSm90Config<128, false, true>, T>(problem, stream);
    default:
      return persistent ? attention_sm90_launch<AttentionSm90Config<256, false, true, true>, T>(problem, stream)
                        : attention_sm90_launch<AttentionSm90Config<256, false, true>, T>(problem, stream);
  }
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
