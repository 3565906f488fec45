// The attention forward's problem (docs/attention.md), plain C++: no CUDA header, so that the
// launcher (kernels/attention/forward.cuh), the device code (the mask's enum) and the JIT's host side
// (jit/attention_sm90.hpp) share one definition and one set of checks.
//   AttentionCausal                         none, top_left, bottom_right
//   AttentionStrides, attention_dense_strides(heads, seq, head_dim)
//                                           a tensor's strides in elements (batch, head, seq, dim)
//   AttentionProblem<T>                     Q, K, V, O (batch, heads, seq, head_dim) with strides in
//                                           elements, LSE, the scale and the causal mask
//   attention_scale(problem)                the scale the kernel uses
//   check_attention_problem(fn, problem)    std::invalid_argument naming the broken rule and values
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the checks' messages
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#endif

namespace tessera::kernels {

// Which keys a query sees: all of them, or those on and below the diagonal of the seq_q x seq_k
// score matrix aligned at its top-left corner (query i sees keys j <= i; PyTorch's is_causal) or
// at its bottom-right corner (j <= i + seq_k - seq_q; FlashAttention's causal). The two are the
// same when seq_q == seq_k. Queries that see no key (bottom_right with seq_q > seq_k) get O = 0
// and LSE = -inf.
enum class AttentionCausal : int { none = 0, top_left = 1, bottom_right = 2 };

#if !defined(__CUDACC_RTC__)
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
// AttentionCausal. T: half_t or bfloat16_t (any 2-byte element type: the checks need only its
// size); fp32 accumulation.
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

#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
