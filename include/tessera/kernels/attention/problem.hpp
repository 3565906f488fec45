// The attention forward's problem (docs/attention.md), plain C++: no CUDA header, so that the
// launcher (kernels/attention/forward.cuh), the device code (the mask's enum) and the JIT's host side
// (jit/attention_sm90.hpp) share one definition and one set of checks.
//   AttentionCausal                         none, top_left, bottom_right
//   AttentionStrides, attention_dense_strides(heads, seq, head_dim)
//                                           a tensor's strides in elements (batch, head, seq, dim)
//   AttentionProblem<T>                     Q, K, V, O (batch, heads, seq, head_dim) with strides in
//                                           elements, LSE, the scale and the causal mask; or
//                                           variable-length batches packed along seq (cu_seqlens)
//   attention_scale(problem)                the scale the kernel uses
//   AttentionSm90Shape, attention_sm90_shape(problem, bm)
//                                           the problem's sizes as the Hopper kernel reads them
//                                           (both of its launchers, nvcc's and the JIT's, fill it here)
//   attention_sm90_extents(problem, bm), attention_sm90_persistent(seq_k),
//   attention_sm90_grid(tiles, sms, persistent)
//                                           the rest both launchers derive: the maps' extents, O's
//                                           and LSE's strides, the tiles; the schedule and the grid
//   check_attention_problem(fn, problem)    std::invalid_argument naming the broken rule and values
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the checks' messages
#include <cmath>
#include <cstdint>
#include <cstdlib>
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
//
// Variable-length batches (FlashAttention's varlen layout), when cu_seqlens_q is not null: the
// batch's sequences are packed along seq. Q and O are (total_q, heads_q, head_dim), K and V
// (total_k, heads_kv, head_dim): their strides' `seq` and `head` are used, `batch` is not.
// Sequence b is rows cu_seqlens_q[b] .. cu_seqlens_q[b + 1] - 1 of Q and O and rows
// cu_seqlens_k[b] .. cu_seqlens_k[b + 1] - 1 of K and V (device arrays of batch + 1 ints,
// nondecreasing, from 0 to total_q and total_k; sequences may be empty). seq_q and seq_k are the
// longest sequences (max_seqlen in FlashAttention's API): the grid covers seq_q rows a sequence, and
// rows past it are not computed. The mask and its alignment apply within each sequence. LSE is
// (heads_q, total_q) fp32 contiguous.
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
  int const* cu_seqlens_q = nullptr;  // varlen: batch + 1 offsets into Q/O's rows (device memory)
  int const* cu_seqlens_k = nullptr;  // varlen: batch + 1 offsets into K/V's rows (device memory)
  int total_q = 0, total_k = 0;       // varlen: the rows of Q/O and of K/V
};

// Whether p packs variable-length sequences (cu_seqlens_q given).
template <class T>
bool attention_varlen(AttentionProblem<T> const& p) {
  return p.cu_seqlens_q != nullptr;
}

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
//   the grid: m-blocks x heads_q x batch blocks below 2^31;
//   varlen (cu_seqlens_q given): cu_seqlens_k given too, both 4-byte aligned; total_q, total_k >= 1
//   (a batch without queries or keys needs no launch); seq_q <= total_q and seq_k <= total_k; the
//   strides as above with the packed rows' extent total_q or total_k and the batch stride unused.
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
  bool const varlen = p.cu_seqlens_q != nullptr;
  if (varlen != (p.cu_seqlens_k != nullptr))
    fail(std::string("cu_seqlens_q and cu_seqlens_k must be given together (got cu_seqlens_q ") +
         (varlen ? "set" : "null") + ", cu_seqlens_k " + (varlen ? "null" : "set") + ")");
  if (varlen) {
    pointer("cu_seqlens_q", p.cu_seqlens_q, 4);
    pointer("cu_seqlens_k", p.cu_seqlens_k, 4);
    sizes("total_q", p.total_q);
    sizes("total_k", p.total_k);
    if (p.seq_q > p.total_q || p.seq_k > p.total_k)
      fail("the longest sequences cannot exceed the packed rows (got seq_q = " + std::to_string(p.seq_q) +
           ", total_q = " + std::to_string(p.total_q) + ", seq_k = " + std::to_string(p.seq_k) +
           ", total_k = " + std::to_string(p.total_k) + ")");
  }
  int const rows_q = varlen ? p.total_q : p.seq_q, rows_k = varlen ? p.total_k : p.seq_k;
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
    if (!varlen) one("batch", s.batch, p.batch);
    one("head", s.head, heads);
    one("seq", s.seq, seq);
    if (seq > 1 && s.seq < p.head_dim)
      fail(std::string(name) + "'s seq stride must be >= head_dim = " + std::to_string(p.head_dim) + " (got " +
           std::to_string(s.seq) + ")");
  };
  strides("q", p.q_strides, p.heads_q, rows_q);
  strides("k", p.k_strides, p.heads_kv, rows_k);
  strides("v", p.v_strides, p.heads_kv, rows_k);
  strides("o", p.o_strides, p.heads_q, rows_q);
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

// The problem's sizes as the Hopper kernel (forward_sm90.cuh) reads them, in its first argument:
// plain data, filled on the host by attention_sm90_shape.
//   group: query heads a key/value head (heads_q / heads_kv); m_blocks: query tiles a (sequence,
//   head), ceil(seq_q / BM); causal and bottom_right: the mask and its alignment (the diagonal of a
//   sequence is j <= i + seq_k - seq_q when bottom_right, j <= i otherwise); cu_seqlens_q/_k: the
//   varlen offsets (null: every sequence is seq_q x seq_k).
struct AttentionSm90Shape {
  int batch = 1, heads_q = 1, group = 1;
  int seq_q = 1, seq_k = 1;
  int m_blocks = 1;
  bool causal = false, bottom_right = false;
  int const* cu_seqlens_q = nullptr;
  int const* cu_seqlens_k = nullptr;
};

#if !defined(__CUDACC_RTC__)
// attention_sm90_shape(p, bm): p's AttentionSm90Shape for query tiles of bm rows.
// Example: batch 2, heads 16 / 4, seq_q 1000, bm 128, causal bottom_right -> group 4, m_blocks 8,
// causal and bottom_right set, no offsets.
template <class T>
AttentionSm90Shape attention_sm90_shape(AttentionProblem<T> const& p, int bm) {
  AttentionSm90Shape s;
  s.batch = p.batch;
  s.heads_q = p.heads_q;
  s.group = p.heads_q / p.heads_kv;
  s.seq_q = p.seq_q;
  s.seq_k = p.seq_k;
  s.m_blocks = (p.seq_q + bm - 1) / bm;
  s.causal = p.causal != AttentionCausal::none;
  s.bottom_right = p.causal == AttentionCausal::bottom_right;
  s.cu_seqlens_q = p.cu_seqlens_q;
  s.cu_seqlens_k = p.cu_seqlens_k;
  return s;
}
// attention_sm90_extents(p, bm): what both launchers of the Hopper kernel (forward.cuh, the JIT's
// jit/attention_sm90.hpp) derive from p for query tiles of bm rows: the extents their tensor maps
// span (batch, rows of Q and O, rows of K and V: p's, or for varlen one batch of the packed rows),
// O's batch stride as the kernel reads it (0 for varlen: the sequence's rows locate it), the
// elements between two heads' LSE rows (seq_q; varlen total_q), the query tiles of the grid
// (m-blocks heads_q batch) and the kernel's shape (attention_sm90_shape). Pre: p passes
// check_attention_problem.
// Example: batch 2, heads_q 8, seq_q 1000, seq_k 300, bm 128 -> {batch 2, rows_q 1000, rows_k 300,
// o_batch p.o_strides.batch, lse_head 1000, tiles 8 * 8 * 2}; varlen with batch 3, total_q 700,
// total_k 900, seq_q 400 -> {1, 700, 900, 0, 700, 4 * 8 * 3}.
struct AttentionSm90Extents {
  int batch = 1, rows_q = 1, rows_k = 1;
  long long o_batch = 0, lse_head = 1, tiles = 1;
  AttentionSm90Shape shape;
};
template <class T>
AttentionSm90Extents attention_sm90_extents(AttentionProblem<T> const& p, int bm) {
  bool const varlen = attention_varlen(p);
  AttentionSm90Extents e;
  e.batch = varlen ? 1 : p.batch;
  e.rows_q = varlen ? p.total_q : p.seq_q;
  e.rows_k = varlen ? p.total_k : p.seq_k;
  e.o_batch = varlen ? 0 : p.o_strides.batch;
  e.lse_head = e.rows_q;
  e.shape = attention_sm90_shape(p, bm);
  e.tiles = (long long)e.shape.m_blocks * p.heads_q * p.batch;
  return e;
}

// attention_sm90_persistent(seq_k): whether the Hopper kernel runs persistent for tiles of up to
// seq_k keys (the kernel AttentionSm90Config<..., true>: at most one block an SM, each looping over
// every gridDim.x-th tile, a tile's loads overlapping the previous one's epilogue). Short tiles
// (seq_k <= 2048): yes (+7-20 % at seq 1k on the H200). Longer ones: no, one block a tile, which the
// hardware hands to SMs as they free up (a causal batch's tiles differ in length, and that dynamic
// balance beat the persistent blocks' static one by 13 % at seq 16k, head_dim 128:
// docs/performance.md). TESSERA_ATTENTION_PERSISTENT=0 (never) or 1 (always) overrides the rule
// (read once per process; an A/B switch). Example: 1024 -> true; 4096 -> false.
inline bool attention_sm90_persistent(int seq_k) {
  static int const mode = [] {  // -1: the rule; 0 never; 1 always
    char const* v = std::getenv("TESSERA_ATTENTION_PERSISTENT");
    if (v == nullptr) return -1;
    return std::string(v) == "0" ? 0 : std::string(v) == "1" ? 1 : -1;
  }();
  return mode == 1 || (mode == -1 && seq_k <= 2048);
}

// attention_sm90_grid(tiles, sms, persistent): the blocks of the Hopper kernel's launch for `tiles`
// query tiles on a GPU of `sms` SMs: persistent (a kernel whose blocks loop over tiles), at most one
// block an SM; else one block a tile. sms < 1: one block a tile.
// Example: 4096 tiles, 132 SMs, persistent -> 132; 100 tiles -> 100; not persistent -> 4096.
inline long long attention_sm90_grid(long long tiles, int sms, bool persistent) {
  if (!persistent || sms < 1) return tiles;
  return tiles < sms ? tiles : sms;
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
