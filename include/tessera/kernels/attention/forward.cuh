// Attention forward on Hopper (docs/attention.md): the problem, its checks and the launcher of the
// kernel of kernels/attention/forward_sm90.cuh.
//   AttentionProblem<T>                     Q, K, V, O (batch, heads, seq, head_dim) with strides in
//                                           elements, LSE, the scale and the causal mask
//   check_attention_problem(fn, problem)    std::invalid_argument naming the broken rule and values
//   attention_forward_sm90(problem, stream) O = softmax(scale Q K^T [+ mask]) V and LSE
// The kernel's device code compiles under NVRTC; this header's host part does not (it is skipped
// there).
#pragma once

#include "tessera/kernels/attention/forward_sm90.cuh"

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

// A tensor's strides in elements along (batch, head, seq, head_dim); head_dim's must be 1.
struct AttentionStrides {
  long long batch = 0, head = 0, seq = 0, dim = 1;
};

// attention_dense_strides(heads, seq, head_dim): the strides of a contiguous (batch, heads, seq,
// head_dim) tensor. Example: attention_dense_strides(8, 1000, 128) == {1024000, 128000, 128}.
inline AttentionStrides attention_dense_strides(int heads, int seq, int head_dim) {
  return AttentionStrides{(long long)heads * seq * head_dim, (long long)seq * head_dim, head_dim, 1};
}

// One attention forward: O = softmax(scale Q K^T [+ causal mask]) V and LSE, for
//   Q  (batch, heads_q,  seq_q, head_dim)   at q, strides q_strides
//   K  (batch, heads_kv, seq_k, head_dim)   at k, strides k_strides
//   V  (batch, heads_kv, seq_k, head_dim)   at v, strides v_strides
//   O  (batch, heads_q,  seq_q, head_dim)   at o, strides o_strides
//   LSE (batch, heads_q, seq_q) fp32 contiguous at lse: log(sum_j exp(scale q_i . k_j)) over the
//       keys query i sees (natural log; -inf for a query that sees none); null: not written.
// Query head h reads key/value head h / (heads_q / heads_kv) (grouped-query attention; heads_kv ==
// 1 is multi-query). scale: 0 means 1/sqrt(head_dim); otherwise positive and finite. causal:
// AttentionCausal (forward_sm90.cuh). T: half_t or bfloat16_t; fp32 accumulation.
template <class T>
struct AttentionProblem {
  T const* q = nullptr;
  T const* k = nullptr;
  T const* v = nullptr;
  T* o = nullptr;
  float* lse = nullptr;
  int batch = 1, heads_q = 1, heads_kv = 1, seq_q = 1, seq_k = 1, head_dim = 128;
  AttentionStrides q_strides, k_strides, v_strides, o_strides;
  float scale = 0.0f;
  AttentionCausal causal = AttentionCausal::none;
};

// The scale the kernel uses: problem.scale, or 1/sqrt(head_dim) when it is 0.
template <class T>
float attention_scale(AttentionProblem<T> const& p) {
  return p.scale == 0.0f ? 1.0f / std::sqrt(float(p.head_dim)) : p.scale;
}

// check_attention_problem(fn, p): throws std::invalid_argument("<fn>: <rule> (<values>)") for the
// first rule p breaks:
//   sizes: batch, heads_q, heads_kv, seq_q, seq_k >= 1; head_dim 64, 128 or 256;
//   heads_kv divides heads_q;
//   q, k, v, o not null and 16-byte aligned (TMA); lse 4-byte aligned (or null);
//   head_dim's stride (AttentionStrides::dim) 1 in Q, K, V and O;
//   every other stride of Q, K, V, O a positive multiple of 8 elements (16 bytes: TMA's strides) where
//   its extent is > 1 (a stride over an extent of 1 is never used), and seq strides >= head_dim
//   (rows do not overlap);
//   scale 0 (the default) or positive and finite; causal one of AttentionCausal's values;
//   the grid: m-blocks x heads_q x batch blocks below 2^31.
// Example: head_dim 96 -> "attention_forward_sm90: head_dim must be 64, 128 or 256 (got 96)".
template <class T>
void check_attention_problem(char const* fn, AttentionProblem<T> const& p) {
  auto fail = [&](std::string const& what) { throw std::invalid_argument(std::string(fn) + ": " + what); };
  auto const sizes = [&](char const* name, int v) {
    if (v < 1) fail(std::string(name) + " must be >= 1 (got " + std::to_string(v) + ")");
  };
  sizes("batch", p.batch);
  sizes("heads_q", p.heads_q);
  sizes("heads_kv", p.heads_kv);
  sizes("seq_q", p.seq_q);
  sizes("seq_k", p.seq_k);
  if (p.head_dim != 64 && p.head_dim != 128 && p.head_dim != 256)
    fail("head_dim must be 64, 128 or 256 (got " + std::to_string(p.head_dim) + ")");
  if (p.heads_q % p.heads_kv != 0)
    fail("heads_kv must divide heads_q (got heads_q = " + std::to_string(p.heads_q) +
         ", heads_kv = " + std::to_string(p.heads_kv) + ")");
  auto const pointer = [&](char const* name, void const* ptr, int align) {
    if (ptr == nullptr) fail(std::string(name) + " must not be null");
    if (reinterpret_cast<std::uintptr_t>(ptr) % std::uintptr_t(align) != 0)
      fail(std::string(name) + " must be " + std::to_string(align) + "-byte aligned (got address " +
           std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) + ")");
  };
  pointer("q", p.q, 16);
  pointer("k", p.k, 16);
  pointer("v", p.v, 16);
  pointer("o", p.o, 16);
  if (p.lse != nullptr) pointer("lse", p.lse, 4);
  constexpr long long unit = 16 / sizeof(T);  // elements of 16 bytes
  auto const strides = [&](char const* name, AttentionStrides const& s, int heads, int seq) {
    if (s.dim != 1)
      fail(std::string(name) + "'s head_dim stride must be 1 (TMA reads contiguous rows) (got " +
           std::to_string(s.dim) + ")");
    auto const one = [&](char const* mode, long long stride, int extent) {
      if (extent > 1 && (stride <= 0 || stride % unit != 0))
        fail(std::string(name) + "'s " + mode + " stride must be a positive multiple of " + std::to_string(unit) +
             " elements (16 bytes, for TMA) (got " + std::to_string(stride) + ")");
    };
    one("batch", s.batch, p.batch);
    one("head", s.head, heads);
    one("seq", s.seq, seq);
    if (seq > 1 && s.seq < p.head_dim)
      fail(std::string(name) + "'s seq stride must be >= head_dim = " + std::to_string(p.head_dim) + " (got " +
           std::to_string(s.seq) + ")");
  };
  strides("q", p.q_strides, p.heads_q, p.seq_q);
  strides("k", p.k_strides, p.heads_kv, p.seq_k);
  strides("v", p.v_strides, p.heads_kv, p.seq_k);
  strides("o", p.o_strides, p.heads_q, p.seq_q);
  if (!(p.scale == 0.0f || (p.scale > 0.0f && p.scale <= std::numeric_limits<float>::max())))
    fail("scale must be 0 (1/sqrt(head_dim)) or positive and finite (got " + std::to_string(p.scale) + ")");
  if (p.causal != AttentionCausal::none && p.causal != AttentionCausal::top_left &&
      p.causal != AttentionCausal::bottom_right)
    fail("causal must be AttentionCausal::none, top_left or bottom_right (got " + std::to_string(int(p.causal)) + ")");
  long long const blocks = (long long)((p.seq_q + 127) / 128) * p.heads_q * p.batch;
  if (blocks >= (1LL << 31))
    fail("too many query tiles: ceil(seq_q / 128) heads_q batch = " + std::to_string(blocks) + " must be < 2^31");
}

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

// The kernel of configuration Cfg, launched: one block per query tile (m-blocks x heads_q x batch),
// its two arguments the values (AttentionSm90Params) and the tensor maps (AttentionSm90Maps).
template <class Cfg, class T>
cudaError_t attention_sm90_launch(AttentionProblem<T> const& p, cudaStream_t stream) {
  using Roles = AttentionSm90Roles<Cfg, T>;
  constexpr int BM = Cfg::BM, BN = Cfg::BN;
  AttentionSm90Maps<T> maps{};
  maps.q = attention_sm90_tma(p.q, p.batch, p.heads_q, p.seq_q, p.head_dim, p.q_strides, BM);
  maps.k = attention_sm90_tma(p.k, p.batch, p.heads_kv, p.seq_k, p.head_dim, p.k_strides, BN);
  maps.v = attention_sm90_tma(p.v, p.batch, p.heads_kv, p.seq_k, p.head_dim, p.v_strides, BN);
  AttentionSm90Params<T> params{};
  params.o = p.o;
  params.o_batch = p.o_strides.batch;
  params.o_head = p.o_strides.head;
  params.o_seq = p.o_strides.seq;
  params.lse = p.lse;
  AttentionSm90Shape& sh = params.shape;
  sh.batch = p.batch;
  sh.heads_q = p.heads_q;
  sh.group = p.heads_q / p.heads_kv;
  sh.seq_q = p.seq_q;
  sh.seq_k = p.seq_k;
  sh.m_blocks = (p.seq_q + BM - 1) / BM;
  sh.causal = p.causal != AttentionCausal::none;
  sh.diag = p.causal == AttentionCausal::bottom_right ? p.seq_k - p.seq_q : 0;
  params.scale = attention_scale(p);
  params.scale_log2 = params.scale * 1.4426950408889634f;

  constexpr int smem = sm90::shared_storage_bytes<typename Roles::Storage>();
  static_assert(smem <= 227 * 1024, "attention_forward_sm90: the configuration's shared storage exceeds 227 KB");
  auto const kernel = sm90::warp_specialized_kernel<Roles>;
  int device = 0, sms = 0;
  if (cudaError_t const e = sm90::current_device(device, sms); e != cudaSuccess) return e;
  if (cudaError_t const e = sm90::raise_shared_limit<Roles>(reinterpret_cast<void const*>(kernel), smem, device);
      e != cudaSuccess)
    return e;
  unsigned const blocks = unsigned(sh.m_blocks) * unsigned(p.heads_q) * unsigned(p.batch);
  sm90::Launch config{dim3(blocks), dim3(Roles::kThreads), smem, stream};
  return cudaLaunchKernelEx(&config.config(), kernel, params, maps);  // the values by value, the maps in place
}

}  // namespace detail

// attention_forward_sm90(problem, stream): O and LSE of `problem` (AttentionProblem), by the kernel
// of forward_sm90.cuh with the tile for its head_dim (AttentionSm90Config<head_dim>), one block per
// 128 query rows of a (batch, head). Pre: check_attention_problem passes (else invalid_argument,
// before anything runs); a device of compute capability 9.0 (the sm_90a build). Returns the
// launch's error (asynchronous errors surface at the next synchronization).
template <class T>
cudaError_t attention_forward_sm90(AttentionProblem<T> const& problem, cudaStream_t stream = nullptr) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "attention_forward_sm90: Q, K, V and O must be half_t or bfloat16_t");
  check_attention_problem("attention_forward_sm90", problem);
  switch (problem.head_dim) {
    case 64: return detail::attention_sm90_launch<AttentionSm90Config<64>, T>(problem, stream);
    case 128: return detail::attention_sm90_launch<AttentionSm90Config<128>, T>(problem, stream);
    default: return detail::attention_sm90_launch<AttentionSm90Config<256>, T>(problem, stream);
  }
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
