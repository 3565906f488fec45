// The FP8 attention forward's problem (docs/attention.md, "FP8 forward"), plain C++: no CUDA header,
// so that the launcher (kernels/attention/forward_fp8.cuh) and the device code share one definition.
//   AttentionFp8ScaleKind, AttentionFp8Descale
//                                   a tensor's descale factors: none, one for the tensor, or one per
//                                   (batch, head)
//   AttentionFp8Problem             Q, K, V in e4m3 (batch, heads, seq, head_dim) with strides in
//                                   elements, their descales, O in bf16, LSE in fp32, the scale, the
//                                   causal mask, and the workspace of V's transposed copy
//   attention_fp8_vt_seq(seq_k), attention_fp8_workspace_bytes(problem)
//                                   the transposed copy's padded key count and its bytes
//   attention_fp8_pv_key(c)         which key of a block of 32 column c of P's wgmma operand holds
//                                   (the order in which the copy stores V's keys)
//   check_attention_fp8_problem(fn, problem)
//                                   std::invalid_argument naming the broken rule and its values
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/kernels/attention/problem.hpp"

#if !defined(__CUDACC_RTC__)  // host only: the checks' messages
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#endif

namespace tessera::kernels {

// How a tensor's e4m3 values are dequantized: x = descale * e4m3 value, with descale
//   none     1 (data unused)
//   tensor   data[0]
//   head     data[b heads + h] for batch b and head h of the tensor (heads_q heads for Q, heads_kv
//            for K and V): FlashAttention-3's per-head descales, (batch, heads) fp32 contiguous
// data: fp32 in device memory, read by the kernel (positive finite values expected; not checked).
enum class AttentionFp8ScaleKind : int { none = 0, tensor = 1, head = 2 };
struct AttentionFp8Descale {
  AttentionFp8ScaleKind kind = AttentionFp8ScaleKind::none;
  float const* data = nullptr;
};

// attention_fp8_pv_key(c): the key, within its block of 32, whose row of V is column c (0..31 of
// the block) of the transposed copy, so that P's wgmma operand needs no data moved between threads.
// The accumulator fragment of S gives thread t of a quad the columns 8 j + 2 t + e of a row; the
// 8-bit A fragment of wgmma m64nNk32 wants columns 4 t + i and 16 + 4 t + i (i = 0..3) of it. The
// kernel packs the thread's own S values 2t, 2t+1, 8+2t, 9+2t (and 16 + those) as operand columns
// 4t .. 4t+3 (16 + 4t ..), and V's copy lists its keys in that order: a permutation of the keys
// of the sum P V, which leaves the product unchanged.
// Example: c = 0..7 -> 0, 1, 8, 9, 2, 3, 10, 11; c = 16 -> 16; c = 31 -> 31.
TESSERA_HOST_DEVICE constexpr int attention_fp8_pv_key(int c) {
  int const u = (c >> 4) & 1, t = (c >> 2) & 3, i = c & 3;
  return (c & ~31) + 16 * u + 8 * (i >> 1) + 2 * t + (i & 1);
}

#if !defined(__CUDACC_RTC__)
// One FP8 attention forward: O = softmax(scale (dq Q)(dk K)^T [+ causal mask]) (dv V) and LSE, for
//   Q  (batch, heads_q,  seq_q, head_dim)   e4m3 at q, strides q_strides (elements = bytes)
//   K  (batch, heads_kv, seq_k, head_dim)   e4m3 at k, strides k_strides
//   V  (batch, heads_kv, seq_k, head_dim)   e4m3 at v, strides v_strides
//   O  (batch, heads_q,  seq_q, head_dim)   bf16 at o, strides o_strides (bf16 elements)
//   LSE (batch, heads_q, seq_q) fp32 contiguous at lse (natural log of the row sums of the
//       dequantized scores; -inf for a query that sees no key); null: not written
//   dq, dk, dv: descale_q, descale_k, descale_v (AttentionFp8Descale)
// head_dim 128 or 256; GQA/MQA, scale and causal as AttentionProblem (problem.hpp). No variable-length
// batches. The workspace (device memory, 16-byte aligned, attention_fp8_workspace_bytes(problem)
// bytes) receives V's transposed copy (batch, heads_kv, head_dim, attention_fp8_vt_seq(seq_k)),
// which the launcher writes first on the same stream; it may be reused once the call has run.
struct AttentionFp8Problem {
  float_e4m3_t const* q = nullptr;
  float_e4m3_t const* k = nullptr;
  float_e4m3_t const* v = nullptr;
  bfloat16_t* o = nullptr;
  float* lse = nullptr;
  int batch = 1, heads_q = 1, heads_kv = 1, seq_q = 1, seq_k = 1, head_dim = 128;
  AttentionStrides q_strides, k_strides, v_strides, o_strides;
  float scale = 0.0f;  // 0: 1/sqrt(head_dim)
  AttentionCausal causal = AttentionCausal::none;
  AttentionFp8Descale descale_q, descale_k, descale_v;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// attention_fp8_vt_seq(seq_k): the keys a row of V's transposed copy holds, seq_k rounded up to 64
// (the transposing pass's tile; keys past seq_k are zeros). Example: 1 -> 64; 1000 -> 1024.
inline long long attention_fp8_vt_seq(int seq_k) { return (static_cast<long long>(seq_k) + 63) / 64 * 64; }

// attention_fp8_workspace_bytes(p): the bytes of V's transposed copy, batch heads_kv head_dim
// attention_fp8_vt_seq(seq_k). Example: batch 2, heads_kv 8, head_dim 128, seq_k 1000 -> 2097152.
inline std::size_t attention_fp8_workspace_bytes(AttentionFp8Problem const& p) {
  return std::size_t(p.batch) * std::size_t(p.heads_kv) * std::size_t(p.head_dim) *
         std::size_t(attention_fp8_vt_seq(p.seq_k));
}

// The scale the kernel multiplies the scores by before the descales: problem.scale, or
// 1/sqrt(head_dim) when it is 0.
inline float attention_fp8_scale(AttentionFp8Problem const& p) {
  return p.scale == 0.0f ? 1.0f / std::sqrt(float(p.head_dim)) : p.scale;
}

// attention_fp8_view(p): p's Q, K and V as an AttentionProblem<float_e4m3_t> (O pointing at Q with
// Q's strides: a stand-in, never written), for the rules and the sizes the FP8 forward shares with
// the 16-bit one (check_attention_problem, attention_sm90_extents).
inline AttentionProblem<float_e4m3_t> attention_fp8_view(AttentionFp8Problem const& p) {
  AttentionProblem<float_e4m3_t> v;
  v.q = p.q;
  v.k = p.k;
  v.v = p.v;
  v.o = const_cast<float_e4m3_t*>(p.q);
  v.lse = p.lse;
  v.batch = p.batch;
  v.heads_q = p.heads_q;
  v.heads_kv = p.heads_kv;
  v.seq_q = p.seq_q;
  v.seq_k = p.seq_k;
  v.head_dim = p.head_dim;
  v.q_strides = p.q_strides;
  v.k_strides = p.k_strides;
  v.v_strides = p.v_strides;
  v.o_strides = p.q_strides;
  v.scale = p.scale;
  v.causal = p.causal;
  return v;
}

// check_attention_fp8_problem(fn, p): throws std::invalid_argument("<fn>: <rule> (<values>)") for
// the first rule p breaks:
//   head_dim 128 or 256;
//   the 16-bit forward's rules for Q, K and V (check_attention_problem: sizes >= 1, heads_kv divides
//   heads_q, pointers not null and 16-byte aligned, head_dim's stride 1, the other strides
//   positive multiples of 16 elements, which are 16 bytes here, and seq strides >= head_dim; the
//   scale; the mask; the grid);
//   o not null, 16-byte aligned, its head_dim stride 1, its other strides positive multiples of 8
//   (bf16) elements where their extent is > 1, its seq stride >= head_dim;
//   each descale's kind one of AttentionFp8ScaleKind's values, its data not null (unless none) and
//   4-byte aligned;
//   workspace not null, 16-byte aligned, workspace_bytes >= attention_fp8_workspace_bytes(p).
// Example: head_dim 64 -> "attention_forward_fp8_sm90: head_dim must be 128 or 256 for e4m3 (got 64;
// the 16-bit forward, attention_forward_sm90, takes 64)".
inline void check_attention_fp8_problem(char const* fn, AttentionFp8Problem const& p) {
  auto fail = [&](std::string const& what) { throw std::invalid_argument(std::string(fn) + ": " + what); };
  if (p.head_dim != 128 && p.head_dim != 256)
    fail("head_dim must be 128 or 256 for e4m3 (got " + std::to_string(p.head_dim) +
         (p.head_dim == 64 ? "; the 16-bit forward, attention_forward_sm90, takes 64)" : ")"));
  check_attention_problem(fn, attention_fp8_view(p));
  if (p.o == nullptr) fail("o must not be null");
  if (reinterpret_cast<std::uintptr_t>(p.o) % 16 != 0)
    fail("o must be 16-byte aligned (got address " + std::to_string(reinterpret_cast<std::uintptr_t>(p.o)) + ")");
  AttentionStrides const& s = p.o_strides;
  if (s.dim != 1) fail("o's head_dim stride must be 1 (got " + std::to_string(s.dim) + ")");
  auto const one = [&](char const* mode, long long stride, int extent) {
    if (extent > 1 && (stride <= 0 || stride % 8 != 0))
      fail(std::string("o's ") + mode + " stride must be a positive multiple of 8 elements (16 bytes of bf16) (got " +
           std::to_string(stride) + ")");
  };
  one("batch", s.batch, p.batch);
  one("head", s.head, p.heads_q);
  one("seq", s.seq, p.seq_q);
  if (p.seq_q > 1 && s.seq < p.head_dim)
    fail("o's seq stride must be >= head_dim = " + std::to_string(p.head_dim) + " (got " + std::to_string(s.seq) + ")");
  auto const descale = [&](char const* name, AttentionFp8Descale const& d) {
    if (d.kind != AttentionFp8ScaleKind::none && d.kind != AttentionFp8ScaleKind::tensor &&
        d.kind != AttentionFp8ScaleKind::head)
      fail(std::string(name) + ".kind must be AttentionFp8ScaleKind::none, tensor or head (got " +
           std::to_string(int(d.kind)) + ")");
    if (d.kind == AttentionFp8ScaleKind::none) return;
    if (d.data == nullptr)
      fail(std::string(name) + ".data must not be null for kind " +
           (d.kind == AttentionFp8ScaleKind::tensor ? "tensor" : "head") + " (use kind none for no descale)");
    if (reinterpret_cast<std::uintptr_t>(d.data) % 4 != 0)
      fail(std::string(name) + ".data must be 4-byte aligned (got address " +
           std::to_string(reinterpret_cast<std::uintptr_t>(d.data)) + ")");
  };
  descale("descale_q", p.descale_q);
  descale("descale_k", p.descale_k);
  descale("descale_v", p.descale_v);
  std::size_t const need = attention_fp8_workspace_bytes(p);
  if (p.workspace == nullptr)
    fail("workspace must not be null (V's transposed copy: attention_fp8_workspace_bytes(problem) = " +
         std::to_string(need) + " bytes of device memory)");
  if (reinterpret_cast<std::uintptr_t>(p.workspace) % 16 != 0)
    fail("workspace must be 16-byte aligned (got address " +
         std::to_string(reinterpret_cast<std::uintptr_t>(p.workspace)) + ")");
  if (p.workspace_bytes < need)
    fail("workspace_bytes must be >= attention_fp8_workspace_bytes(problem) = " + std::to_string(need) + " (got " +
         std::to_string(p.workspace_bytes) + ")");
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
