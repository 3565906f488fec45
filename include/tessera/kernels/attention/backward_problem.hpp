// The attention backward's problem (docs/attention.md, "Backward"), plain C++: no CUDA header.
//   AttentionBackwardProblem<T>                 the forward's problem (Q, K, V, O, LSE, sizes, strides,
//                                               scale, mask) with dO, dQ, dK, dV and the workspace
//   attention_backward_rows_pad(seq_q)          the workspace's rows a (batch, head): seq_q rounded
//                                               up to 128
//   attention_backward_workspace_bytes(problem) the workspace the caller allocates
//   check_attention_backward_problem(fn, p)     std::invalid_argument naming the broken rule and values
#pragma once

#include "tessera/kernels/attention/problem.hpp"

// The first workspace row of sequence b of a variable-length batch whose first packed query row is
// first_q: first_q rounded up to a multiple of 4 (the preprocessing's LSE log2 e and D rows are read
// by TMA in boxes of 64 fp32 values, whose first element must be 16-byte aligned: an unaligned start
// is an illegal instruction) plus 68 b (64 rows of padding a sequence, which the last m-block of 64
// queries may reach, and 4 for the rounding). Nondecreasing in b for nondecreasing first_q;
// sequence b's rows row0 .. row0 + ceil(len / 64) 64 - 1 end before sequence b + 1's first row.
// Example: (5, 1) -> 76; (130, 2) -> 268.
namespace tessera::kernels {
TESSERA_HOST_DEVICE constexpr long long attention_backward_varlen_row0(long long first_q, int b) {
  return (first_q + 3) / 4 * 4 + 68LL * b;
}
}  // namespace tessera::kernels

#if !defined(__CUDACC_RTC__)
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera::kernels {

// One attention backward: dQ, dK, dV of O = softmax(scale Q K^T [+ mask]) V for the upstream
// gradient dO, given the forward's inputs and outputs:
//   fwd        Q, K, V, O (read), LSE (read: the forward's natural-log LSE, (batch, heads_q, seq_q)
//              fp32 contiguous), the sizes, strides, scale and mask, as the forward took them
//              (fwd.o and fwd.lse must be what the forward wrote for these Q, K, V)
//   dout       dO, (batch, heads_q, seq_q, head_dim) at dout_strides (read by TMA, like Q)
//   dq         dQ like Q at dq_strides;  dk, dv like K and V at dk_strides, dv_strides
//   workspace  device memory of attention_backward_workspace_bytes(problem) bytes, 16-byte
//              aligned, owned by the caller (its contents on entry do not matter; the preprocessing
//              writes all of it that is read): the fp32 dQ accumulator (batch heads_q rows_pad
//              head_dim), LSE log2 e and D = rowsum(dO o O) (batch heads_q rows_pad each)
// GQA/MQA: dK and dV of a key/value head are summed over the query heads of its group.
// T: half_t or bfloat16_t; fp32 accumulation.
template <class T>
struct AttentionBackwardProblem {
  AttentionProblem<T> fwd;
  T const* dout = nullptr;
  T* dq = nullptr;
  T* dk = nullptr;
  T* dv = nullptr;
  AttentionStrides dout_strides, dq_strides, dk_strides, dv_strides;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// The workspace's rows a (batch, head): seq_q rounded up to 128 (a whole number of the kernel's
// m-blocks of 64 queries). Example: 1000 -> 1024; 1 -> 128.
inline long long attention_backward_rows_pad(int seq_q) { return (seq_q + 127LL) / 128 * 128; }

// The workspace's rows a head for variable-length batches: sequence b from row
// attention_backward_varlen_row0(cu_seqlens_q[b], b) (its rows and at least 64 of padding after
// them), attention_backward_varlen_row0(total_q, batch) rounded up to 128. Example: total_q 1000,
// batch 3 -> 1280.
inline long long attention_backward_varlen_rows(int total_q, int batch) {
  return (attention_backward_varlen_row0(total_q, batch) + 127LL) / 128 * 128;
}

// The bytes of the workspace: (head_dim + 2) fp32 values a padded row, batch heads_q
// attention_backward_rows_pad(seq_q) rows (varlen: heads_q attention_backward_varlen_rows(total_q,
// batch)). Example: batch 2, heads_q 8, seq_q 1000, head_dim 128 -> 16 * 1024 * 130 * 4 = 8519680.
template <class T>
std::size_t attention_backward_workspace_bytes(AttentionBackwardProblem<T> const& p) {
  AttentionProblem<T> const& f = p.fwd;
  std::size_t const rows =
      f.cu_seqlens_q != nullptr
          ? std::size_t(f.heads_q) * std::size_t(attention_backward_varlen_rows(f.total_q, f.batch))
          : std::size_t(f.batch) * std::size_t(f.heads_q) * std::size_t(attention_backward_rows_pad(f.seq_q));
  return rows * (std::size_t(f.head_dim) + 2) * sizeof(float);
}

// check_attention_backward_problem(fn, p): throws std::invalid_argument("<fn>: <rule> (<values>)")
// for the first rule p breaks: the forward's (check_attention_problem on p.fwd), then
//   head_dim 64 or 128 (256: not in this version); lse given (the forward's); dout, dq, dk, dv not
//   null and 16-byte aligned; their strides as Q's, K's and V's (head_dim's 1, the others positive
//   multiples of 8 elements where the extent is > 1, seq >= head_dim; varlen: the packed rows'
//   extents, the batch stride unused); the workspace not null, 16-byte aligned and at least
//   attention_backward_workspace_bytes; a head's dQ accumulator (its padded rows x head_dim floats)
//   < 2^32 (the lean step's 32-bit offsets); batch heads_kv ceil(seq_k / 128) < 2^31 (the grid).
// Variable-length batches (fwd.cu_seqlens_q set) as the forward takes them: dO and dQ packed like Q,
// dK and dV like K; the offsets are read by the kernels, not checked here.
// Example: head_dim 256 -> "attention_backward_sm90: head_dim must be 64 or 128 (got 256; the
// backward of head_dim 256 is not built yet)".
template <class T>
void check_attention_backward_problem(char const* fn, AttentionBackwardProblem<T> const& p) {
  check_attention_problem(fn, p.fwd);
  auto fail = [&](std::string const& what) { throw std::invalid_argument(std::string(fn) + ": " + what); };
  AttentionProblem<T> const& f = p.fwd;
  if (f.head_dim != 64 && f.head_dim != 128)
    fail("head_dim must be 64 or 128 (got " + std::to_string(f.head_dim) +
         "; the backward of head_dim 256 is not built yet)");
  if (f.lse == nullptr) fail("fwd.lse must be the forward's LSE (got null): run the forward with lse set");
  auto const pointer = [&](char const* name, void const* ptr) {
    if (ptr == nullptr) fail(std::string(name) + " must not be null");
    if (reinterpret_cast<std::uintptr_t>(ptr) % 16 != 0)
      fail(std::string(name) + " must be 16-byte aligned (got address " +
           std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) + ")");
  };
  pointer("dout", p.dout);
  pointer("dq", p.dq);
  pointer("dk", p.dk);
  pointer("dv", p.dv);
  constexpr long long unit = 16 / sizeof(T);
  bool const varlen = f.cu_seqlens_q != nullptr;
  auto const strides = [&](char const* name, AttentionStrides const& s, int heads, int seq) {
    if (s.dim != 1) fail(std::string(name) + "'s head_dim stride must be 1 (got " + std::to_string(s.dim) + ")");
    auto const one = [&](char const* mode, long long stride, int extent) {
      if (extent > 1 && (stride <= 0 || stride % unit != 0))
        fail(std::string(name) + "'s " + mode + " stride must be a positive multiple of " + std::to_string(unit) +
             " elements (16 bytes) (got " + std::to_string(stride) + ")");
    };
    if (!varlen) one("batch", s.batch, f.batch);
    one("head", s.head, heads);
    one("seq", s.seq, seq);
    if (seq > 1 && s.seq < f.head_dim)
      fail(std::string(name) + "'s seq stride must be >= head_dim = " + std::to_string(f.head_dim) + " (got " +
           std::to_string(s.seq) + ")");
  };
  int const rows_q = varlen ? f.total_q : f.seq_q, rows_k = varlen ? f.total_k : f.seq_k;
  strides("dout", p.dout_strides, f.heads_q, rows_q);
  strides("dq", p.dq_strides, f.heads_q, rows_q);
  strides("dk", p.dk_strides, f.heads_kv, rows_k);
  strides("dv", p.dv_strides, f.heads_kv, rows_k);
  if (p.workspace == nullptr)
    fail("workspace must not be null: allocate attention_backward_workspace_bytes(problem) = " +
         std::to_string(attention_backward_workspace_bytes(p)) + " bytes of device memory");
  if (reinterpret_cast<std::uintptr_t>(p.workspace) % 16 != 0)
    fail("workspace must be 16-byte aligned (got address " +
         std::to_string(reinterpret_cast<std::uintptr_t>(p.workspace)) + ")");
  if (p.workspace_bytes < attention_backward_workspace_bytes(p))
    fail("workspace_bytes must be at least attention_backward_workspace_bytes(problem) = " +
         std::to_string(attention_backward_workspace_bytes(p)) + " (got " + std::to_string(p.workspace_bytes) + ")");
  // The default (lean) step addresses a thread's dQ accumulator within its head at a 32-bit offset.
  long long const head_floats =
      (varlen ? attention_backward_varlen_rows(f.total_q, f.batch) : attention_backward_rows_pad(f.seq_q)) * f.head_dim;
  if (head_floats >= (1LL << 32))
    fail("too many query rows a head: the dQ accumulator's padded rows x head_dim = " + std::to_string(head_floats) +
         " floats must be < 2^32 (the " + (varlen ? "varlen batch's total_q" : std::string("seq_q")) + " of " +
         std::to_string(varlen ? f.total_q : f.seq_q) + " is too long)");
  long long const blocks = (long long)((f.seq_k + 127) / 128) * f.heads_kv * f.batch;
  if (blocks >= (1LL << 31))
    fail("too many key blocks: ceil(seq_k / 128) heads_kv batch = " + std::to_string(blocks) + " must be < 2^31");
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
