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
//   AttentionSm90Divisor, attention_sm90_divisor(d), attention_sm90_order(shape, pairs)
//                                           the tile order's divisions as multiplies; its groups
//   attention_sm90_causal_group(shape, head_dim, sms, persistent)
//                                           how many (sequence, head) pairs a group of the causal
//                                           order: K and V in the L2 (TESSERA_ATTENTION_CAUSAL_ORDER)
//   attention_sm90_extents(problem, bm), attention_sm90_persistent(seq_k),
//   attention_sm90_grid(tiles, sms, persistent)
//                                           the rest both launchers derive: the maps' extents, O's
//                                           and LSE's strides, the tiles; the schedule and the grid
//   check_attention_problem(fn, problem)    std::invalid_argument naming the broken rule and values
#pragma once

#include "tessera/core/config.hpp"

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

// AttentionSm90Divisor: the quotient n / d of 0 <= n < 2^31 by a d in [1, 2^31) fixed on the host,
// as a multiply and a shift (the kernel's tile order, attention_sm90_tile: an integer division by
// a run-time value takes ~20 instructions and the registers that the producer, 24 of them, lacks).
// attention_sm90_divisor(d) sets l = ceil(log2 d) and mul = ceil(2^(31 + l) / d) (< 2^32); since
// mul d - 2^(31 + l) < d <= 2^l, n / d = floor(n mul / 2^(31 + l)) for every n < 2^31 (Granlund
// and Montgomery, "Division by invariant integers using multiplication", 1994, theorem 4.2), which
// is the high word of (2 n) mul shifted right by l. The default is d = 1.
// Example: d = 7: l = 3, mul = 2454267027; quotient(100) = (200 mul >> 32) >> 3 = 114 >> 3 = 14.
struct AttentionSm90Divisor {
  int d = 1;
  unsigned mul = 1u << 31;
  int shift = 0;
  TESSERA_HOST_DEVICE constexpr int quotient(int n) const {
    return int(unsigned((static_cast<unsigned long long>(2u * unsigned(n)) * mul) >> 32) >> shift);
  }
};

// The problem's sizes as the Hopper kernel (forward_sm90.cuh) reads them, in its first argument:
// plain data, filled on the host by attention_sm90_shape.
//   group: query heads a key/value head (heads_q / heads_kv); m_blocks: query tiles a (sequence,
//   head), ceil(seq_q / BM); causal and bottom_right: the mask and its alignment (the diagonal of a
//   sequence is j <= i + seq_k - seq_q when bottom_right, j <= i otherwise); cu_seqlens_q/_k: the
//   varlen offsets (null: every sequence is seq_q x seq_k).
//   order_pairs, order_m, order_heads: the tile order (attention_sm90_tile) as divisors, set by
//   attention_sm90_order from the sizes above (call it again after changing them): tile
//   (g m_blocks + i) pairs + j is m-block i (causal: m_blocks - 1 - i) of (sequence, head) pair
//   g pairs + j, where pairs = order_pairs.d divides batch heads_q; order_m.d = m_blocks,
//   order_heads.d = heads_q (the pair's sequence and head).
struct AttentionSm90Shape {
  int batch = 1, heads_q = 1, group = 1;
  int seq_q = 1, seq_k = 1;
  int m_blocks = 1;
  bool causal = false, bottom_right = false;
  int const* cu_seqlens_q = nullptr;
  int const* cu_seqlens_k = nullptr;
  AttentionSm90Divisor order_pairs, order_m, order_heads;
};

#if !defined(__CUDACC_RTC__)
// attention_sm90_divisor(d): the AttentionSm90Divisor of d (its comment says how). Throws
// std::invalid_argument unless 1 <= d < 2^31. Example: 1 -> {1, 2^31, 0}; 7 -> {7, 2454267027, 3}.
inline AttentionSm90Divisor attention_sm90_divisor(long long d) {
  if (d < 1 || d >= (1LL << 31))
    throw std::invalid_argument("attention_sm90_divisor: the divisor must be in [1, 2^31) (got " + std::to_string(d) +
                                ")");
  int l = 0;
  while ((1LL << l) < d) ++l;
  unsigned long long const mul =
      ((1ULL << (31 + l)) + static_cast<unsigned long long>(d) - 1) / static_cast<unsigned long long>(d);
  return {int(d), unsigned(mul), l};
}

// attention_sm90_order(s, pairs): sets s's tile order (AttentionSm90Shape::order_pairs, order_m,
// order_heads) from its sizes, in groups of `pairs` (sequence, head) pairs (a divisor of batch
// heads_q), or, for pairs <= 0, the order without groups: without a mask the m-block fastest (pairs
// 1: a head's query tiles run together and share its K and V in L2), causal the m-block slowest
// (pairs = batch heads_q: the m-blocks descending over every pair, the longest tiles first).
// Throws std::invalid_argument if pairs > 0 does not divide batch heads_q.
// Example: batch 2, heads_q 3, m_blocks 4, causal, pairs 2: tiles 0..7 are pairs 0 and 1 at
// m = 3, 3, 2, 2, .., 0, 0; tiles 8..15 pairs 2 and 3; pairs 0: tiles 0..5 are every pair at m = 3.
inline void attention_sm90_order(AttentionSm90Shape& s, long long pairs) {
  long long const all = (long long)s.batch * s.heads_q;
  if (pairs <= 0) pairs = s.causal ? all : 1;
  if (all % pairs != 0)
    throw std::invalid_argument("attention_sm90_order: a group's (sequence, head) pairs (" + std::to_string(pairs) +
                                ") must divide batch heads_q = " + std::to_string(all));
  s.order_pairs = attention_sm90_divisor(pairs);
  s.order_m = attention_sm90_divisor(s.m_blocks);
  s.order_heads = attention_sm90_divisor(s.heads_q);
}

// attention_sm90_shape(p, bm): p's AttentionSm90Shape for query tiles of bm rows, in the order
// without groups (attention_sm90_order(s, 0); the launchers then set the causal order's groups).
// Example: batch 2, heads 16 / 4, seq_q 1000, bm 128, causal bottom_right -> group 4, m_blocks 8,
// causal and bottom_right set, no offsets, order_pairs 32.
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
  attention_sm90_order(s, 0);
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

// attention_sm90_heaviest_block(tiles, m_blocks, pairs, sms): the heaviest block's work when `sms`
// persistent blocks take a causal problem's tiles in groups of `pairs` (sequence, head) pairs
// (attention_sm90_order; pairs divides sms) statically, block x tiles x, x + sms, ...: a tile of
// m-block m counted m + 2 (its K blocks at seq_q = seq_k, one for its loads and epilogue). Block
// x's k-th tile is m-block index (x / pairs + k sms / pairs) mod m_blocks of its group, a sequence
// of period p <= m_blocks, so that each of the sms / pairs kinds of block costs O(m_blocks).
// Example: 2048 tiles, 8 m-blocks, groups of 4, 132 SMs (step 33 mod 8 = 1): blocks 0..67 take 16
// tiles, every index twice, 2 (2 + .. + 9) = 88; the others 15, at most 86 -> 88.
inline long long attention_sm90_heaviest_block(long long tiles, int m_blocks, long long pairs, int sms) {
  long long const per = tiles / sms, extra = tiles % sms, step = (sms / pairs) % m_blocks;
  long long worst = 0;
  for (long long u = 0; u < sms / pairs; ++u) {
    long long const n = per + (u * pairs < extra ? 1 : 0);  // the tiles of block u pairs (the most of its kind)
    auto const cost = [&](long long k) { return m_blocks + 1 - (u + k * step) % m_blocks; };
    long long period = 1;
    while ((period * step) % m_blocks != 0) ++period;
    long long cycle = 0, rest = 0;
    for (long long k = 0; k < period; ++k) cycle += cost(k);
    for (long long k = 0; k < n % period; ++k) rest += cost(k);
    long long const w = n / period * cycle + rest;
    worst = w > worst ? w : worst;
  }
  return worst;
}

// attention_sm90_causal_group_from(mode, s, head_dim, sms, persistent): the (sequence, head) pairs
// a group of the causal tile order (attention_sm90_order) for shape s (causal, head_dim wide) on a
// GPU of `sms` SMs, by the persistent kernel or one block a tile, as the switch's value `mode` asks:
//   null or "auto": the rule below; "off": batch heads_q (no groups: the order of the versions
//   measured before); a positive number n: the largest divisor of batch heads_q up to n.
// The rule: with the m-block slowest over every pair, a wave of tiles reads the K and V of every
// pair, and once they exceed the L2 (50 MB on the H100 and H200; 128 MB at seq 1k, head_dim 128)
// each m-block reads them from HBM again. In groups whose K and V (2 seq_k head_dim 2 bytes a
// key/value head, shared by `group` query heads) take at most 16 MB, a pair's tiles run close
// together and share them in L2: the largest such divisor of batch heads_q that keeps the blocks
// balanced. One block a tile (the hardware hands them out as SMs free up), a group of at least half
// a wave of tiles (pairs m_blocks >= sms / 2: smaller groups left 5-14 % idle at the end in a
// simulation). Persistent (sms blocks, block x computing tiles x, x + sms, ...: a static
// assignment), a divisor of sms whose heaviest block (attention_sm90_heaviest_block) does at most
// 3 % more than ceil(tiles / sms) tiles of the average cost. None of them, every pair's K and V
// within 16 MB, or no more tiles than SMs (sms < 1: unknown): batch heads_q (no groups). Throws
// std::invalid_argument for another mode.
// Examples (132 SMs, causal): batch 16, heads 16, seq 1024, head_dim 128 (512 KB a pair, 2048
// tiles): persistent -> 4 (the heaviest block 88 = 16 tiles of 5.5); one block a tile -> 32. Batch 4,
// heads 16, seq 4096, head_dim 128, one block a tile -> 8. Batch 1, heads 4, seq 1024 -> 4.
inline long long attention_sm90_causal_group_from(char const* mode, AttentionSm90Shape const& s, int head_dim, int sms,
                                                  bool persistent) {
  long long const all = (long long)s.batch * s.heads_q;
  std::string const m = mode == nullptr ? "auto" : mode;
  if (m == "off") return all;
  if (m != "auto") {
    char* end = nullptr;
    long long const n = std::strtoll(m.c_str(), &end, 10);
    if (end == m.c_str() || *end != '\0' || n < 1)
      throw std::invalid_argument(
          "TESSERA_ATTENTION_CAUSAL_ORDER must be auto, off or a positive number of (sequence, head) pairs (got '" + m +
          "')");
    long long g = n < all ? n : all;
    while (all % g != 0) --g;
    return g;
  }
  constexpr long long budget = 16LL << 20;
  long long const pair_bytes = 4LL * s.seq_k * head_dim / (s.group > 0 ? s.group : 1);
  long long const tiles = all * s.m_blocks;
  if (sms < 1 || tiles <= sms || all * pair_bytes <= budget) return all;
  long long g = budget / (pair_bytes > 0 ? pair_bytes : 1);
  if (g > all) g = all;
  if (persistent && g > sms) g = sms;
  // persistent: the bound, the most tiles a block takes at the average cost, ceil(tiles / sms) total / tiles
  long long const total = all * (s.m_blocks * (s.m_blocks + 3LL) / 2);  // the tiles' m + 2
  long long const most = (tiles + sms - 1) / sms;
  for (; g >= 1; --g) {
    if (all % g != 0) continue;
    if (!persistent) return 2 * g * s.m_blocks >= sms ? g : all;
    if (sms % g == 0 && attention_sm90_heaviest_block(tiles, s.m_blocks, g, sms) * tiles * 100 <= 103 * most * total)
      return g;
  }
  return all;
}

// attention_sm90_causal_group(s, head_dim, sms, persistent): attention_sm90_causal_group_from with
// the environment's TESSERA_ATTENTION_CAUSAL_ORDER, an A/B switch read at every causal launch (unlike
// the others, read once per process), so that one process can time both orders interleaved.
inline long long attention_sm90_causal_group(AttentionSm90Shape const& s, int head_dim, int sms, bool persistent) {
  return attention_sm90_causal_group_from(std::getenv("TESSERA_ATTENTION_CAUSAL_ORDER"), s, head_dim, sms, persistent);
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
