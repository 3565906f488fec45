// attention_forward_sm90 (kernels/attention/forward.cuh) against an fp32 reference on the GPU: every
// head_dim, both 16-bit types, no mask and both causal alignments, GQA ratios 1 and 4, sequence
// lengths 1, 2, 17, 113, 128, 255 and 1000 (equal and different for Q and K), Q and O in
// (batch, head, seq, d) with padded rows, K and V in (batch, seq, head, d); variable-length batches
// (cu_seqlens) with empty sequences; O and LSE checked, and the padding between O's rows left
// untouched. The problem's checks run without a GPU.
//
// The reference (attention_reference) computes each query row in fp32 from the same 16-bit inputs:
// scores scale q.k, exact expf, O = sum p v / sum p, LSE = max + log(sum p). Error bound, inputs in
// [-1, 1]: O is a convex combination of V's rows (|O| <= 1); the kernel rounds P (values in [0, 1])
// to the 16-bit type before P V, a relative error of at most u = 2^-8 (bf16) or 2^-11 (fp16) on each
// term, so at most u sum p |v| / sum p <= u on O; rounding O to the type adds u/2; ex2.approx
// (2^-22 relative), the fp32 sums' order and the scores' accumulation order add far less. Bounds
// used: max |O - ref| <= 1e-2 (bf16: 2^-8 + 2^-9 = 5.9e-3 with room) and 2e-3 (fp16: 7.3e-4);
// |LSE - ref| <= 1e-3 (fp32 throughout; the row sum is relative-exact to ~1e-6, the max exact).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attention_cases.hpp"
#include "support/cuda_check.hpp"
#include "support/gpu_skip.hpp"
#include "tessera/kernels/attention/forward.cuh"

namespace {

using tessera::bfloat16_t;
using tessera::half_t;
using tessera::kernels::AttentionCausal;
using tessera::kernels::AttentionProblem;
using tessera::kernels::AttentionStrides;
using tessera::test::check;
using tessera::test::DeviceBuffer;
using tessera::test::attention::Case;
using tessera::test::attention::sentinel;
using tessera::test::attention::seq_pairs;

// The reference: one thread per (batch, head, query row); O fp32 contiguous (batch, heads_q, seq_q, d).
template <class T>
__global__ void attention_reference(AttentionProblem<T> p, float scale, float* o, float* lse) {
  long long const idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)p.batch * p.heads_q * p.seq_q) return;
  int const i = int(idx % p.seq_q), h = int(idx / p.seq_q % p.heads_q), b = int(idx / p.seq_q / p.heads_q);
  int const hk = h / (p.heads_q / p.heads_kv), d = p.head_dim;
  int const diag = p.causal == AttentionCausal::bottom_right ? p.seq_k - p.seq_q : 0;
  int const keys = p.causal == AttentionCausal::none ? p.seq_k : min(p.seq_k, max(0, i + diag + 1));
  T const* qi = p.q + b * p.q_strides.batch + h * p.q_strides.head + i * p.q_strides.seq;
  auto const score = [&](int j) {
    T const* kj = p.k + b * p.k_strides.batch + hk * p.k_strides.head + j * p.k_strides.seq;
    float s = 0.0f;
    for (int x = 0; x < d; ++x) s += float(qi[x]) * float(kj[x]);
    return scale * s;
  };
  float* oi = o + idx * d;
  float acc[256];
  for (int x = 0; x < d; ++x) acc[x] = 0.0f;
  if (keys == 0) {
    for (int x = 0; x < d; ++x) oi[x] = 0.0f;
    lse[idx] = -INFINITY;
    return;
  }
  float mx = -INFINITY;
  for (int j = 0; j < keys; ++j) mx = fmaxf(mx, score(j));
  float sum = 0.0f;
  for (int j = 0; j < keys; ++j) {
    float const pj = expf(score(j) - mx);
    sum += pj;
    T const* vj = p.v + b * p.v_strides.batch + hk * p.v_strides.head + j * p.v_strides.seq;
    for (int x = 0; x < d; ++x) acc[x] += pj * float(vj[x]);
  }
  for (int x = 0; x < d; ++x) oi[x] = acc[x] / sum;
  lse[idx] = mx + logf(sum);
}

// The kernel under test: the launcher's (attention_forward_sm90: its main loop for the head_dim,
// persistent for seq_k <= 2048), or a chosen main loop with one block a tile: the plain loop, the
// ping-pong loop (head_dim 64 and 128) or the intra-warpgroup overlap.
enum class Loop { launcher, plain, pingpong, overlap };

// max_blocks > 0: the persistent kernel of the launcher's loop (or of the ping-pong loop, head_dim
// 128) with at most that many blocks, each looping over many tiles whatever the GPU's SM count;
// 0: the launcher's grid. order_pairs > 0 (causal, not Loop::launcher without max_blocks): the
// tile order in groups of that many (sequence, head) pairs (attention_sm90_order); 0: the
// launcher's choice.
template <class T>
cudaError_t launch(AttentionProblem<T> const& p, Loop loop, int max_blocks = 0, long long order_pairs = 0) {
  using namespace tessera::kernels;
  using detail::attention_sm90_launch;
  if (loop == Loop::launcher && max_blocks == 0)
    return order_pairs == 0 ? attention_forward_sm90(p, nullptr) : cudaErrorInvalidValue;
  check_attention_problem("attention_forward_sm90", p);
  int const d = p.head_dim;
  long long const g = order_pairs;
  if (max_blocks > 0) {
    int const mb = max_blocks;
    if (loop == Loop::pingpong)
      return d == 128 ? attention_sm90_launch<AttentionSm90Config<128, true, false, true>, T>(p, nullptr, mb, g)
                      : cudaErrorInvalidValue;
    if (loop != Loop::launcher) return cudaErrorInvalidValue;
    if (d == 64) return attention_sm90_launch<AttentionSm90Config<64, false, false, true>, T>(p, nullptr, mb, g);
    if (d == 128) return attention_sm90_launch<AttentionSm90Config<128, false, true, true>, T>(p, nullptr, mb, g);
    return attention_sm90_launch<AttentionSm90Config<256, false, true, true>, T>(p, nullptr, mb, g);
  }
  if (loop == Loop::pingpong)
    return d == 64 ? attention_sm90_launch<AttentionSm90Config<64, true>, T>(p, nullptr, 0, g)
                   : attention_sm90_launch<AttentionSm90Config<128, true>, T>(p, nullptr, 0, g);
  if (loop == Loop::plain) {
    if (d == 64) return attention_sm90_launch<AttentionSm90Config<64>, T>(p, nullptr, 0, g);
    if (d == 128) return attention_sm90_launch<AttentionSm90Config<128>, T>(p, nullptr, 0, g);
    return attention_sm90_launch<AttentionSm90Config<256>, T>(p, nullptr, 0, g);
  }
  if (d == 64) return attention_sm90_launch<AttentionSm90Config<64, false, true>, T>(p, nullptr, 0, g);
  if (d == 128) return attention_sm90_launch<AttentionSm90Config<128, false, true>, T>(p, nullptr, 0, g);
  return attention_sm90_launch<AttentionSm90Config<256, false, true>, T>(p, nullptr, 0, g);
}

// The device side of a run: Q, K, V (nq, nk, nk elements, uniform in [-1, 1] from `seed`), O (the
// sentinel everywhere, so that a stray write shows), LSE (rows, zeros) and the reference's O and
// LSE; bind(p) points p at them.
template <class T>
struct Buffers {
  DeviceBuffer<T> q, k, v, o;
  DeviceBuffer<float> lse, ref_o, ref_lse;
  Buffers(std::size_t nq, std::size_t nk, std::size_t rows, int d, std::uint32_t seed)
      : q(nq), k(nk), v(nk), o(nq), lse(rows), ref_o(rows * std::size_t(d)), ref_lse(rows) {
    std::vector<T> hq(nq), hk(nk), hv(nk), ho(nq, sentinel<T>());
    std::uint32_t x = seed;
    auto rnd = [&] {
      x = x * 1664525u + 1013904223u;
      return T(float(int(x >> 8) % 2001 - 1000) / 1000.0f);  // [-1, 1]
    };
    for (auto& e : hq) e = rnd();
    for (auto& e : hk) e = rnd();
    for (auto& e : hv) e = rnd();
    q.upload(hq);
    k.upload(hk);
    v.upload(hv);
    o.upload(ho);
    check(cudaMemset(lse.get(), 0, lse.bytes()), "cudaMemset");
  }
  void bind(AttentionProblem<T>& p) {
    p.q = q.get();
    p.k = k.get();
    p.v = v.get();
    p.o = o.get();
    p.lse = lse.get();
  }
};

// One row of O as the kernel wrote it (d values at got, then 8 elements of padding) and its LSE
// against the reference's: "" or the first mismatch, after where(). Bounds: the file's comment.
template <class T, class Where>
std::string compare_row(T const* got, float const* want, float got_lse, float want_lse, int d, Where&& where) {
  float const tol = std::is_same_v<T, bfloat16_t> ? 1e-2f : 2e-3f;
  for (int e = 0; e < d; ++e) {
    float const g = float(got[e]), w = want[e];
    if (!(std::fabs(g - w) <= tol))
      return where() + " column " + std::to_string(e) + ": O = " + std::to_string(g) + ", reference " +
             std::to_string(w);
  }
  for (int e = d; e < d + 8; ++e)
    if (got[e].raw() != sentinel<T>().raw()) return where() + ": the padding after the row was written";
  bool const ok = std::isinf(want_lse) ? (std::isinf(got_lse) && got_lse < 0) : std::fabs(got_lse - want_lse) <= 1e-3f;
  if (!ok) return where() + ": LSE = " + std::to_string(got_lse) + ", reference " + std::to_string(want_lse);
  return "";
}

// Runs one case and compares; returns an empty string or the first mismatch.
template <class T>
std::string run_case(Case const& c, Loop loop = Loop::launcher, int max_blocks = 0, long long order_pairs = 0) {
  int const d = c.head_dim;
  // Q, O: (batch, head, seq, d) with rows padded by 8 elements; K, V: (batch, seq, head, d).
  AttentionStrides const qo{(long long)c.heads_q * c.seq_q * (d + 8), (long long)c.seq_q * (d + 8), d + 8, 1};
  AttentionStrides const kv{(long long)c.seq_k * c.heads_kv * d, d, (long long)c.heads_kv * d, 1};
  std::size_t const nq = std::size_t(c.batch) * qo.batch, nk = std::size_t(c.batch) * kv.batch;
  std::size_t const rows = std::size_t(c.batch) * c.heads_q * c.seq_q;
  Buffers<T> buf(nq, nk, rows, d, 0x9e3779b9u ^ std::uint32_t(c.seq_q * 131 + c.seq_k * 7 + d));
  AttentionProblem<T> p;
  buf.bind(p);
  p.batch = c.batch;
  p.heads_q = c.heads_q;
  p.heads_kv = c.heads_kv;
  p.seq_q = c.seq_q;
  p.seq_k = c.seq_k;
  p.head_dim = d;
  p.q_strides = qo;
  p.o_strides = qo;
  p.k_strides = kv;
  p.v_strides = kv;
  p.causal = c.causal;
  p.scale = c.scale;
  check(launch(p, loop, max_blocks, order_pairs), "attention_forward_sm90");
  attention_reference<T><<<unsigned((rows + 127) / 128), 128>>>(p, tessera::kernels::attention_scale(p),
                                                                buf.ref_o.get(), buf.ref_lse.get());
  check(cudaGetLastError(), "attention_reference");
  check(cudaDeviceSynchronize(), "synchronize");

  std::vector<T> const got = buf.o.download();
  std::vector<float> const want = buf.ref_o.download(), got_lse = buf.lse.download(), want_lse = buf.ref_lse.download();
  for (std::size_t r = 0; r < rows; ++r) {
    int const i = int(r % c.seq_q), h = int(r / c.seq_q % c.heads_q), b = int(r / c.seq_q / c.heads_q);
    std::size_t const base = std::size_t(b * qo.batch + h * qo.head + i * qo.seq);
    std::string const err = compare_row(got.data() + base, want.data() + r * d, got_lse[r], want_lse[r], d, [&] {
      return c.name() + ": batch " + std::to_string(b) + " head " + std::to_string(h) + " row " + std::to_string(i);
    });
    if (!err.empty()) return err;
  }
  return "";
}

template <class T>
void sweep(int head_dim, Loop loop = Loop::launcher) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (auto [sq, sk] : seq_pairs())
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right})
      for (int ratio : {1, 4}) {
        int const batch = sq >= 1000 || sk >= 1000 ? 1 : 2;
        Case const c{batch, 4, 4 / ratio, sq, sk, head_dim, causal};
        std::string const err = run_case<T>(c, loop);
        ASSERT_EQ(err, "") << c.name();
      }
}

TEST(AttentionForwardSm90Sweep, Bf16D64) { sweep<bfloat16_t>(64); }
TEST(AttentionForwardSm90Sweep, Bf16D128) { sweep<bfloat16_t>(128); }
TEST(AttentionForwardSm90Sweep, Bf16D256) { sweep<bfloat16_t>(256); }
TEST(AttentionForwardSm90Sweep, Fp16D64) { sweep<half_t>(64); }
TEST(AttentionForwardSm90Sweep, Fp16D128) { sweep<half_t>(128); }
TEST(AttentionForwardSm90Sweep, Fp16D256) { sweep<half_t>(256); }
TEST(AttentionForwardSm90Sweep, PingpongBf16D64) { sweep<bfloat16_t>(64, Loop::pingpong); }
TEST(AttentionForwardSm90Sweep, PingpongBf16D128) { sweep<bfloat16_t>(128, Loop::pingpong); }
TEST(AttentionForwardSm90Sweep, PingpongFp16D128) { sweep<half_t>(128, Loop::pingpong); }
TEST(AttentionForwardSm90Sweep, OverlapBf16D64) { sweep<bfloat16_t>(64, Loop::overlap); }
TEST(AttentionForwardSm90Sweep, OverlapBf16D128) { sweep<bfloat16_t>(128, Loop::overlap); }
TEST(AttentionForwardSm90Sweep, OverlapFp16D64) { sweep<half_t>(64, Loop::overlap); }
TEST(AttentionForwardSm90Sweep, OverlapFp16D128) { sweep<half_t>(128, Loop::overlap); }
TEST(AttentionForwardSm90Sweep, OverlapBf16D256) { sweep<bfloat16_t>(256, Loop::overlap); }
TEST(AttentionForwardSm90Sweep, OverlapFp16D256) { sweep<half_t>(256, Loop::overlap); }
TEST(AttentionForwardSm90Sweep, PlainBf16D64) { sweep<bfloat16_t>(64, Loop::plain); }
TEST(AttentionForwardSm90Sweep, PlainFp16D128) { sweep<half_t>(128, Loop::plain); }
TEST(AttentionForwardSm90Sweep, PlainBf16D256) { sweep<bfloat16_t>(256, Loop::plain); }

// ---- variable-length batches ----------------------------------------------------------------------

// Runs a varlen problem: sequences of lens_q[b] queries and lens_k[b] keys packed into Q, O
// (total_q, heads_q, d) with rows padded by 8 elements and K, V (total_k, heads_kv, d); each
// sequence compared with the reference run on it alone (a fixed-length problem over its rows), O
// and LSE ((heads_q, total_q)), and the padding left untouched. Returns "" or the first mismatch.
template <class T>
std::string run_varlen_case(std::vector<int> const& lens_q, std::vector<int> const& lens_k, int heads_q, int heads_kv,
                            int d, AttentionCausal causal, Loop loop = Loop::launcher, int max_blocks = 0) {
  int const batch = int(lens_q.size());
  std::vector<int> cu_q(1, 0), cu_k(1, 0);
  for (int b = 0; b < batch; ++b) {
    cu_q.push_back(cu_q.back() + lens_q[std::size_t(b)]);
    cu_k.push_back(cu_k.back() + lens_k[std::size_t(b)]);
  }
  int const total_q = cu_q.back(), total_k = cu_k.back();
  int const max_q = *std::max_element(lens_q.begin(), lens_q.end());
  int const max_k = *std::max_element(lens_k.begin(), lens_k.end());
  AttentionStrides const qo{0, d + 8, (long long)heads_q * (d + 8), 1};
  AttentionStrides const kv{0, d, (long long)heads_kv * d, 1};
  std::size_t const nq = std::size_t(total_q) * qo.seq, nk = std::size_t(total_k) * kv.seq;
  std::size_t const rows = std::size_t(heads_q) * total_q;
  Buffers<T> buf(nq, nk, rows, d, 0x85ebca6bu ^ std::uint32_t(total_q * 131 + total_k * 7 + d));
  DeviceBuffer<int> dcu_q(cu_q.size()), dcu_k(cu_k.size());
  dcu_q.upload(cu_q);
  dcu_k.upload(cu_k);
  AttentionProblem<T> p;
  buf.bind(p);
  p.batch = batch;
  p.heads_q = heads_q;
  p.heads_kv = heads_kv;
  p.seq_q = max_q;
  p.seq_k = max_k;
  p.head_dim = d;
  p.q_strides = p.o_strides = qo;
  p.k_strides = p.v_strides = kv;
  p.causal = causal;
  p.cu_seqlens_q = dcu_q.get();
  p.cu_seqlens_k = dcu_k.get();
  p.total_q = total_q;
  p.total_k = total_k;
  check(launch(p, loop, max_blocks), "attention_forward_sm90 (varlen)");
  // The reference, one sequence at a time: its rows as a batch of one; O (heads_q, seq, d) and LSE
  // (heads_q, seq) at the sequence's first row of a reference laid out as (sequence rows, ...).
  float const scale = tessera::kernels::attention_scale(p);
  std::vector<std::size_t> ref_at(std::size_t(batch) + 1, 0);  // the reference's row of sequence b
  for (int b = 0; b < batch; ++b) {
    int const sq = lens_q[std::size_t(b)], sk = lens_k[std::size_t(b)];
    ref_at[std::size_t(b) + 1] = ref_at[std::size_t(b)] + std::size_t(heads_q) * sq;
    if (sq == 0) continue;
    AttentionProblem<T> one = p;
    one.cu_seqlens_q = one.cu_seqlens_k = nullptr;
    one.batch = 1;
    one.seq_q = sq;
    one.seq_k = sk;
    one.q = buf.q.get() + std::size_t(cu_q[std::size_t(b)]) * qo.seq;
    one.k = buf.k.get() + std::size_t(cu_k[std::size_t(b)]) * kv.seq;
    one.v = buf.v.get() + std::size_t(cu_k[std::size_t(b)]) * kv.seq;
    std::size_t const at = ref_at[std::size_t(b)];
    attention_reference<T><<<unsigned((std::size_t(heads_q) * sq + 127) / 128), 128>>>(
        one, scale, buf.ref_o.get() + at * d, buf.ref_lse.get() + at);
    check(cudaGetLastError(), "attention_reference");
  }
  check(cudaDeviceSynchronize(), "synchronize");

  std::vector<T> const got = buf.o.download();
  std::vector<float> const want = buf.ref_o.download(), got_lse = buf.lse.download(), want_lse = buf.ref_lse.download();
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads_q; ++h)
      for (int i = 0; i < lens_q[std::size_t(b)]; ++i) {
        std::size_t const r = ref_at[std::size_t(b)] + std::size_t(h) * lens_q[std::size_t(b)] + i;  // reference row
        int const row = cu_q[std::size_t(b)] + i;                                                    // packed row
        std::size_t const base = std::size_t(row) * qo.seq + std::size_t(h) * qo.head;
        std::string const err = compare_row(
            got.data() + base, want.data() + r * d, got_lse[std::size_t(h) * total_q + row], want_lse[r], d, [&] {
              return "sequence " + std::to_string(b) + " (" + std::to_string(lens_q[std::size_t(b)]) + " x " +
                     std::to_string(lens_k[std::size_t(b)]) + ") head " + std::to_string(h) + " row " +
                     std::to_string(i);
            });
        if (!err.empty()) return err;
      }
  return "";
}

// Varlen batches: empty sequences (of queries, of keys, of both), lengths of 1, primes, tile
// multiples and ragged ones, Q and K lengths different, every mask, GQA ratios 1 and 4.
template <class T>
void varlen_sweep(int head_dim, Loop loop = Loop::launcher) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  std::vector<std::pair<std::vector<int>, std::vector<int>>> const batches = {
      {{1, 17, 128, 0, 255, 300}, {1, 17, 128, 5, 255, 300}},  // equal lengths, an empty query sequence
      {{113, 0, 2, 300, 129}, {1000, 0, 64, 7, 0}},            // different; empty on both sides; no key
      {{5}, {1}},                                              // one sequence
  };
  for (auto const& [lq, lk] : batches)
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right})
      for (int ratio : {1, 4}) {
        std::string const err = run_varlen_case<T>(lq, lk, 4, 4 / ratio, head_dim, causal, loop);
        ASSERT_EQ(err, "") << "head_dim " << head_dim << " causal " << int(causal) << " ratio " << ratio;
      }
}

TEST(AttentionForwardSm90Varlen, Bf16D64) { varlen_sweep<bfloat16_t>(64); }
TEST(AttentionForwardSm90Varlen, Bf16D128) { varlen_sweep<bfloat16_t>(128); }
TEST(AttentionForwardSm90Varlen, Fp16D128) { varlen_sweep<half_t>(128); }
TEST(AttentionForwardSm90Varlen, Bf16D256) { varlen_sweep<bfloat16_t>(256); }
TEST(AttentionForwardSm90Varlen, Fp16D64Overlap) { varlen_sweep<half_t>(64, Loop::overlap); }
TEST(AttentionForwardSm90Varlen, Bf16D128Pingpong) { varlen_sweep<bfloat16_t>(128, Loop::pingpong); }
TEST(AttentionForwardSm90Varlen, Bf16D256Overlap) { varlen_sweep<bfloat16_t>(256, Loop::overlap); }
TEST(AttentionForwardSm90Varlen, Fp16D64Plain) { varlen_sweep<half_t>(64, Loop::plain); }

// The persistent schedule with many tiles a block (5 blocks; the launcher gives one a SM): each
// block's rings, Q's full/empty barriers and the ping-pong's turns run on across its tiles, tiles
// that see no key or lie past their sequence among them.
template <class T>
void persistent_sweep(int head_dim, Loop loop) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right}) {
    for (auto [sq, sk] : std::vector<std::pair<int, int>>{{255, 255}, {1000, 113}, {17, 300}, {300, 1000}}) {
      Case const c{3, 4, 2, sq, sk, head_dim, causal};
      ASSERT_EQ(run_case<T>(c, loop, 5), "") << c.name() << " (5 blocks)";
    }
    ASSERT_EQ(run_varlen_case<T>({130, 0, 1, 300, 129, 7}, {128, 9, 0, 200, 500, 7}, 4, 1, head_dim, causal, loop, 3),
              "")
        << "varlen, causal " << int(causal) << " (3 blocks)";
  }
}

// The launcher's persistent kernels (AttentionSm90Config<D, ..., true>: the plain loop for head_dim
// 64, the overlap loop for 128 and 256) and the ping-pong loop's for 128.
TEST(AttentionForwardSm90Persistent, Bf16D64) { persistent_sweep<bfloat16_t>(64, Loop::launcher); }
TEST(AttentionForwardSm90Persistent, Bf16D128) { persistent_sweep<bfloat16_t>(128, Loop::launcher); }
TEST(AttentionForwardSm90Persistent, Fp16D128) { persistent_sweep<half_t>(128, Loop::launcher); }
TEST(AttentionForwardSm90Persistent, Bf16D256) { persistent_sweep<bfloat16_t>(256, Loop::launcher); }
TEST(AttentionForwardSm90Persistent, Fp16D256) { persistent_sweep<half_t>(256, Loop::launcher); }
TEST(AttentionForwardSm90Persistent, PingpongBf16D128) { persistent_sweep<bfloat16_t>(128, Loop::pingpong); }

// A few seconds under compute-sanitizer: ragged lengths, both alignments (with rows that see no key:
// bottom_right with seq_q > seq_k), GQA, both types.
TEST(AttentionForwardSm90Small, RaggedCausalGqa) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  EXPECT_EQ(run_case<bfloat16_t>({1, 2, 1, 17, 113, 64, AttentionCausal::top_left}), "");
  EXPECT_EQ(run_case<bfloat16_t>({1, 2, 1, 150, 17, 64, AttentionCausal::bottom_right}), "");
  EXPECT_EQ(run_case<half_t>({2, 2, 2, 2, 130, 128, AttentionCausal::none, 0.3f}), "");
  EXPECT_EQ(run_case<half_t>({1, 1, 1, 1, 1, 256, AttentionCausal::bottom_right}), "");
  EXPECT_EQ(run_case<bfloat16_t>({1, 2, 2, 200, 300, 128, AttentionCausal::bottom_right}, Loop::pingpong), "");
  EXPECT_EQ(run_case<bfloat16_t>({1, 2, 2, 200, 300, 128, AttentionCausal::bottom_right}, Loop::overlap), "");
  EXPECT_EQ(run_case<half_t>({1, 2, 1, 150, 400, 64, AttentionCausal::top_left}, Loop::overlap), "");
  EXPECT_EQ(run_case<bfloat16_t>({1, 2, 1, 150, 200, 256, AttentionCausal::top_left}, Loop::overlap), "");
  EXPECT_EQ(run_varlen_case<bfloat16_t>({3, 0, 130}, {140, 2, 0}, 2, 1, 128, AttentionCausal::bottom_right), "");
  EXPECT_EQ(run_varlen_case<half_t>({70, 1}, {9, 200}, 2, 2, 64, AttentionCausal::top_left), "");
  // persistent: 2 blocks over 12 and 8 tiles
  EXPECT_EQ(run_case<bfloat16_t>({1, 4, 2, 300, 200, 128, AttentionCausal::top_left}, Loop::launcher, 2), "");
  EXPECT_EQ(run_case<half_t>({1, 4, 2, 300, 200, 256, AttentionCausal::bottom_right}, Loop::launcher, 2), "");
  EXPECT_EQ(run_case<bfloat16_t>({1, 4, 4, 250, 130, 64, AttentionCausal::none}, Loop::launcher, 2), "");
  EXPECT_EQ(run_case<bfloat16_t>({1, 4, 2, 250, 200, 128, AttentionCausal::none}, Loop::pingpong, 2), "");
  EXPECT_EQ(
      run_varlen_case<half_t>({130, 0, 70}, {9, 5, 300}, 2, 1, 128, AttentionCausal::bottom_right, Loop::launcher, 2),
      "");
}

// The causal order in groups of (sequence, head) pairs (attention_sm90_order), forced (the
// launchers group only problems whose K and V exceed 16 MB): 6 pairs of 3 m-blocks in groups of 1,
// 2 and 3, persistent on 4 blocks (so that a block's tiles cross groups) and one block a tile.
TEST(AttentionForwardSm90Small, CausalGroups) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (long long g : {1, 2, 3}) {
    EXPECT_EQ(run_case<bfloat16_t>({2, 3, 3, 300, 300, 128, AttentionCausal::top_left}, Loop::launcher, 4, g), "") << g;
    EXPECT_EQ(run_case<half_t>({2, 3, 1, 300, 250, 64, AttentionCausal::bottom_right}, Loop::launcher, 4, g), "") << g;
  }
  EXPECT_EQ(run_case<bfloat16_t>({2, 3, 3, 300, 300, 256, AttentionCausal::top_left}, Loop::launcher, 4, 2), "");
  EXPECT_EQ(run_case<bfloat16_t>({2, 3, 3, 300, 300, 128, AttentionCausal::top_left}, Loop::overlap, 0, 2), "");
  EXPECT_EQ(run_case<half_t>({2, 3, 1, 300, 250, 64, AttentionCausal::bottom_right}, Loop::plain, 0, 3), "");
}

// ---- the kernel's index arithmetic against the library's layouts (host only, no GPU) --------------

// The fragments the consumer indexes by hand are the wgmma atoms' layouts (atom/mma_traits_sm90.hpp,
// themselves tested against the PTX ISA): value 4 j + r of an m64nN accumulator is row
// 16 w + g + 8 (r/2), column 8 j + 2 t + r%2 (softmax, mask, epilogue); and the RS wgmma's A values
// 2 q, 2 q + 1 for keys 16 kk .. are S's values 8 kk + 2 q, + 1 (the P conversion).
template <int N>
void expect_accumulator_formula() {
  using CN = typename tessera::detail::SM90_CLayout<N>::type;  // (thr,val) -> m + 64 n
  for (int thr = 0; thr < 128; ++thr)
    for (int v = 0; v < N / 2; ++v) {
      int const w = thr / 32, g = thr % 32 / 4, t = thr % 4, j = v / 4, r = v % 4;
      int const mn = int(CN{}(thr, v));
      ASSERT_EQ(mn % 64, 16 * w + g + 8 * (r / 2)) << "N " << N << " thread " << thr << " value " << v;
      ASSERT_EQ(mn / 64, 8 * j + 2 * t + r % 2) << "N " << N << " thread " << thr << " value " << v;
    }
}

TEST(AttentionForwardSm90Layouts, AccumulatorFragment) {
  expect_accumulator_formula<64>();
  expect_accumulator_formula<128>();
  expect_accumulator_formula<256>();
}

TEST(AttentionForwardSm90Layouts, PIsTheAccumulatorOfS) {
  using A = tessera::MMA_Traits<tessera::SM90_64x128x16_F32BF16BF16_RS<>>::ALayout;  // (thr,val) -> m + 64 k
  using S = tessera::MMA_Traits<tessera::SM90_64x128x16_F32BF16BF16_SS<>>::CLayout;  // (thr,val) -> m + 64 n
  for (int thr = 0; thr < 128; ++thr)
    for (int kk = 0; kk < 128 / 16; ++kk)
      for (int v = 0; v < 8; ++v) {  // A's value v = 2 q + e: register q, half e
        int const a = int(A{}(thr, v)), sv = int(S{}(thr, 8 * kk + v));
        ASSERT_EQ(a % 64, sv % 64) << "thread " << thr << " k-step " << kk << " value " << v;
        ASSERT_EQ(a / 64 + 16 * kk, sv / 64) << "thread " << thr << " k-step " << kk << " value " << v;
      }
}

// V's stage read as PV's MN-major B is the same bytes as a K tile, and a tile's chunk c (64 columns)
// starts at c R 64, where the producer's TMA box c writes it.
TEST(AttentionForwardSm90Layouts, StageLayouts) {
  using namespace tessera::kernels::detail;
  constexpr auto rows = attention_sm90_rows_layout<64, 256>();  // (key, d) -> offset
  constexpr auto v = attention_sm90_v_layout<64, 256>();        // (d, key) -> offset
  for (int key = 0; key < 64; ++key)
    for (int d = 0; d < 256; ++d) {
      ASSERT_EQ(int(v(d, key)), int(rows(key, d))) << "key " << key << " d " << d;
      ASSERT_EQ(int(rows(key, d)), d / 64 * 64 * 64 + key * 64 + d % 64) << "key " << key << " d " << d;
    }
}

TEST(AttentionForwardSm90Layouts, Tiles) {
  using tessera::kernels::attention_sm90_tile;
  tessera::kernels::AttentionSm90Shape s;
  s.batch = 2;
  s.heads_q = 3;
  s.seq_q = 300;
  s.seq_k = 200;
  s.m_blocks = 3;
  tessera::kernels::attention_sm90_order(s, 0);
  // no mask: m fastest, every tile visits ceil(200 / 128) = 2 blocks
  auto t = attention_sm90_tile<128, 128>(s, 7);
  EXPECT_EQ(t.m, 1);
  EXPECT_EQ(t.h, 2);
  EXPECT_EQ(t.b, 0);
  EXPECT_EQ(t.n_blocks, 2);
  EXPECT_EQ(t.seq_q, 300);
  EXPECT_EQ(t.seq_k, 200);
  EXPECT_EQ(t.q_row, 0);
  EXPECT_EQ(t.k_row, 0);
  // bottom_right, diag = 200 - 300: m-blocks descending, slowest; m = 0 (rows 0..127) sees keys <= 27
  s.causal = true;
  s.bottom_right = true;
  tessera::kernels::attention_sm90_order(s, 0);
  t = attention_sm90_tile<128, 128>(s, 6 * 2 + 5);
  EXPECT_EQ(t.m, 0);
  EXPECT_EQ(t.h, 2);
  EXPECT_EQ(t.b, 1);
  EXPECT_EQ(t.diag, -100);
  EXPECT_EQ(t.n_blocks, 1);
  // m = 2 (rows 256..299): last key 199, 2 blocks
  t = attention_sm90_tile<128, 128>(s, 0);
  EXPECT_EQ(t.m, 2);
  EXPECT_EQ(t.n_blocks, 2);
  // diag = 100 - 300: rows 0..127 see no key (an empty tile: O = 0, LSE = -inf)
  s.seq_k = 100;
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 12).n_blocks), 0);
  // top_left: diag 0 whatever the lengths
  s.bottom_right = false;
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 12).diag), 0);
}

// The divisor's quotient is n / d: every n < 5000 for d < 300, then powers of two, their
// neighbours and the extremes (n up to 2^31 - 1, d up to 2^31 - 1), with pseudo-random n.
TEST(AttentionForwardSm90Layouts, DivisorIsDivision) {
  using tessera::kernels::attention_sm90_divisor;
  for (int d = 1; d < 300; ++d) {
    auto const v = attention_sm90_divisor(d);
    for (int n = 0; n < 5000; ++n) ASSERT_EQ(v.quotient(n), n / d) << n << " / " << d;
  }
  std::vector<long long> ds;
  for (int l = 0; l < 31; ++l)
    for (long long e : {-1, 0, 1}) ds.push_back((1LL << l) + e);
  for (long long d : {3LL, 7LL, 132LL, 641LL, 1000003LL, 2147483647LL}) ds.push_back(d);
  std::uint32_t x = 12345;
  for (long long d : ds) {
    if (d < 1 || d >= (1LL << 31)) continue;
    auto const v = attention_sm90_divisor(d);
    ASSERT_LT(v.shift, 32) << d;
    for (long long n : {0LL, 1LL, d - 1, d, d + 1, 2 * d - 1, 2147483647LL, 2147483646LL}) {
      if (n < 0 || n > 2147483647LL) continue;
      ASSERT_EQ(v.quotient(int(n)), n / d) << n << " / " << d;
    }
    for (int k = 0; k < 2000; ++k) {
      x = x * 1664525u + 1013904223u;
      int const n = int(x >> 1);
      ASSERT_EQ(v.quotient(n), n / d) << n << " / " << d;
    }
  }
  EXPECT_EQ(attention_sm90_divisor(7).mul, 2454267027u);  // the comment's example
  EXPECT_EQ(attention_sm90_divisor(7).shift, 3);
  EXPECT_EQ(attention_sm90_divisor(7).quotient(100), 14);
  EXPECT_THROW(attention_sm90_divisor(0), std::invalid_argument);
  EXPECT_THROW(attention_sm90_divisor(1LL << 31), std::invalid_argument);
}

// The tile order (attention_sm90_order): for every group size dividing the pairs, the tiles cover
// each (m-block, pair) once; group after group, each with its m-blocks (causal: descending)
// slowest and its pairs fastest; groups of every pair (the order without groups, causal) and of one
// pair (without a mask) are the orders of the versions before.
TEST(AttentionForwardSm90Layouts, TileOrder) {
  using tessera::kernels::attention_sm90_order;
  using tessera::kernels::attention_sm90_tile;
  tessera::kernels::AttentionSm90Shape s;
  s.batch = 2;
  s.heads_q = 6;  // 12 pairs
  s.seq_q = s.seq_k = 500;
  s.m_blocks = 4;
  int const pairs = 12, tiles = pairs * s.m_blocks;
  for (bool causal : {false, true})
    for (int g : {0, 1, 2, 3, 4, 6, 12}) {
      s.causal = causal;
      attention_sm90_order(s, g);
      int const size = g > 0 ? g : causal ? pairs : 1;
      std::vector<int> seen(std::size_t(tiles), 0);
      for (int i = 0; i < tiles; ++i) {
        auto const t = attention_sm90_tile<128, 128>(s, i);
        std::string const where =
            "causal " + std::to_string(causal) + " group " + std::to_string(g) + " tile " + std::to_string(i);
        int const bh = t.b * s.heads_q + t.h;
        ASSERT_TRUE(t.m >= 0 && t.m < s.m_blocks && bh >= 0 && bh < pairs && t.h < s.heads_q) << where;
        ++seen[std::size_t(t.m * pairs + bh)];
        int const first = i / (size * s.m_blocks) * size;  // the group's first pair
        int const r = i - first * s.m_blocks;              // the tile within its group
        EXPECT_EQ(bh, first + r % size) << where;
        EXPECT_EQ(t.m, causal ? s.m_blocks - 1 - r / size : r / size) << where;
        if (causal && size == pairs) {  // no groups: the m-block slowest over every pair
          EXPECT_EQ(t.m, s.m_blocks - 1 - i / pairs) << where;
          EXPECT_EQ(bh, i % pairs) << where;
        }
        if (!causal && size == 1) {  // the m-block fastest
          EXPECT_EQ(t.m, i % s.m_blocks) << where;
          EXPECT_EQ(bh, i / s.m_blocks) << where;
        }
      }
      for (int v : seen) ASSERT_EQ(v, 1) << "causal " << causal << " group " << g;
    }
  // the comment's example: batch 2, heads 3, 4 m-blocks, causal, groups of 2
  s.heads_q = 3;
  s.causal = true;
  attention_sm90_order(s, 2);
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 3).m), 2);
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 3).h), 1);
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 9).m), 3);  // pair 3: sequence 1, head 0
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 9).b), 1);
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 9).h), 0);
  EXPECT_THROW(attention_sm90_order(s, 4), std::invalid_argument);  // 4 does not divide 6 pairs
}

// The causal order's groups (attention_sm90_causal_group_from): the comment's examples; the switch's
// values; and, persistent, a static assignment as balanced as without groups.
TEST(AttentionForwardSm90Layouts, CausalGroups) {
  using tessera::kernels::attention_sm90_causal_group_from;
  using tessera::kernels::attention_sm90_order;
  auto const shape = [](int batch, int heads, int seq, int group = 1) {
    tessera::kernels::AttentionSm90Shape s;
    s.batch = batch;
    s.heads_q = heads;
    s.group = group;
    s.seq_q = s.seq_k = seq;
    s.m_blocks = (seq + 127) / 128;
    s.causal = true;
    return s;
  };
  auto const s1k = shape(16, 16, 1024);
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, s1k, 128, 132, true), 4);
  EXPECT_EQ(attention_sm90_causal_group_from("auto", s1k, 128, 132, false), 32);
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(4, 16, 4096), 128, 132, false), 8);
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(1, 4, 1024), 128, 132, true), 4);          // 32 tiles
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(16, 16, 1024, 4), 128, 132, false), 128);  // GQA 4
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(2, 8, 1024), 128, 132, false), 16);        // 8 MB in all
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, s1k, 128, 0, false), 256);                       // SMs unknown
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(4, 16, 4096), 256, 132, false), 4);
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(16, 7, 1536), 128, 132, true), 112);  // none balances
  EXPECT_EQ(attention_sm90_causal_group_from(nullptr, shape(3, 5, 16384), 128, 132, false), 1);   // 8 MB a pair
  EXPECT_EQ(attention_sm90_causal_group_from("off", s1k, 128, 132, true), 256);
  EXPECT_EQ(attention_sm90_causal_group_from("8", s1k, 128, 132, true), 8);
  EXPECT_EQ(attention_sm90_causal_group_from("12", s1k, 128, 132, true), 8);  // the largest divisor up to 12
  EXPECT_EQ(attention_sm90_causal_group_from("1000", s1k, 128, 132, true), 256);
  EXPECT_THROW(attention_sm90_causal_group_from("0", s1k, 128, 132, true), std::invalid_argument);
  EXPECT_THROW(attention_sm90_causal_group_from("Auto", s1k, 128, 132, true), std::invalid_argument);
  EXPECT_THROW(attention_sm90_causal_group_from("4x", s1k, 128, 132, true), std::invalid_argument);
  // persistent: the heaviest block's work (a tile of m-block m costs m + 2), walked tile by tile, is
  // attention_sm90_heaviest_block's for every group size dividing both counts; the chosen groups'
  // is within 3 % of the order without groups', over the sweep's seq-1k and seq-2k shapes and a
  // few others, on 132, 114 and 78 SMs
  for (int sms : {132, 114, 78})
    for (auto [batch, heads, seq, d] : std::vector<std::array<int, 4>>{{16, 32, 1024, 64},
                                                                       {16, 16, 1024, 128},
                                                                       {16, 8, 1024, 256},
                                                                       {8, 32, 2048, 64},
                                                                       {8, 16, 2048, 128},
                                                                       {8, 8, 2048, 256},
                                                                       {7, 12, 1536, 128},
                                                                       {64, 12, 640, 64},
                                                                       {3, 40, 2048, 128}}) {
      auto s = shape(batch, heads, seq);
      int const tiles = s.batch * s.heads_q * s.m_blocks;
      auto const heaviest = [&](long long pairs) {
        attention_sm90_order(s, pairs);
        std::vector<long long> work(std::size_t(sms), 0);
        for (int t = 0; t < tiles; ++t)
          work[std::size_t(t % sms)] += tessera::kernels::attention_sm90_tile<128, 128>(s, t).m + 2;
        return *std::max_element(work.begin(), work.end());
      };
      std::string const where = "sms " + std::to_string(sms) + " batch " + std::to_string(batch) + " heads " +
                                std::to_string(heads) + " seq " + std::to_string(seq) + " d " + std::to_string(d);
      for (int g = 1; g <= sms; ++g)
        if (sms % g == 0 && (batch * heads) % g == 0)
          ASSERT_EQ(tessera::kernels::attention_sm90_heaviest_block(tiles, s.m_blocks, g, sms), heaviest(g))
              << where << " group " << g;
      long long const g = attention_sm90_causal_group_from(nullptr, s, d, sms, true);
      long long const grouped = heaviest(g), plain = heaviest(0);
      EXPECT_LE(grouped * 100, plain * 103) << where << " group " << g;
      if (sms == 132)
        std::printf("  %s: groups of %lld, heaviest %lld (none: %lld)\n", where.c_str(), g, grouped, plain);
    }
  EXPECT_EQ(tessera::kernels::attention_sm90_heaviest_block(2048, 8, 4, 132), 88);  // the comment's example
}

// Varlen: a tile reads its sequence's rows and lengths from the offsets; the tensors' batch
// coordinate is 0; a tile past its sequence's end, or a sequence without keys, visits no block.
TEST(AttentionForwardSm90Layouts, VarlenTiles) {
  using tessera::kernels::attention_sm90_tile;
  int const cu_q[4] = {0, 300, 300, 350};  // sequences of 300, 0 and 50 queries
  int const cu_k[4] = {0, 100, 400, 400};  // of 100, 300 and 0 keys
  tessera::kernels::AttentionSm90Shape s;
  s.batch = 3;
  s.heads_q = 2;
  s.seq_q = 300;  // the longest
  s.seq_k = 300;
  s.m_blocks = 3;
  s.cu_seqlens_q = cu_q;
  s.cu_seqlens_k = cu_k;
  tessera::kernels::attention_sm90_order(s, 0);
  // no mask, m fastest: tile 3 is m 0 of (sequence 0, head 1)
  auto t = attention_sm90_tile<128, 128>(s, 3);
  EXPECT_EQ(t.m, 0);
  EXPECT_EQ(t.h, 1);
  EXPECT_EQ(t.b, 0);
  EXPECT_EQ(t.q_row, 0);
  EXPECT_EQ(t.k_row, 0);
  EXPECT_EQ(t.seq_q, 300);
  EXPECT_EQ(t.seq_k, 100);
  EXPECT_EQ(t.n_blocks, 1);
  // sequence 1 has no query: every tile of it is empty
  for (int tile = 6; tile < 12; ++tile) EXPECT_EQ((attention_sm90_tile<128, 128>(s, tile).n_blocks), 0) << tile;
  // sequence 2: 50 queries at row 300, no key: empty too; its m = 1 tile lies past the sequence
  t = attention_sm90_tile<128, 128>(s, 12);
  EXPECT_EQ(t.q_row, 300);
  EXPECT_EQ(t.k_row, 400);
  EXPECT_EQ(t.seq_q, 50);
  EXPECT_EQ(t.seq_k, 0);
  EXPECT_EQ(t.n_blocks, 0);
  // causal bottom_right: sequence 0's diag is 100 - 300; m = 2 (rows 256..299) sees keys <= 99
  s.causal = true;
  s.bottom_right = true;
  tessera::kernels::attention_sm90_order(s, 0);
  t = attention_sm90_tile<128, 128>(s, 0);  // m = 2, (sequence 0, head 0)
  EXPECT_EQ(t.m, 2);
  EXPECT_EQ(t.diag, -200);
  EXPECT_EQ(t.n_blocks, 1);
  // m = 1 of sequence 0 (rows 128..255) sees keys <= 55: 1 block; m = 0 sees none
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 6).n_blocks), 1);
  EXPECT_EQ((attention_sm90_tile<128, 128>(s, 12).n_blocks), 0);
}

// The blocks a tile visits, the keys the mask leaves and the blocks it skips, against the
// definition (key j visible to query i iff j < seq_k and, causal, j <= i + diag), for every query
// and key of a sweep of shapes: a visible key lies in a visited block and is left unmasked; a
// hidden key of a visited block is masked; a block the kernel does not mask hides nothing.
template <int BM, int BN>
void expect_masks_match_definition() {
  using namespace tessera::kernels;
  for (int sq : {1, 2, 17, 113, 128, 255, 300})
    for (int sk : {1, 2, 17, 113, 128, 255, 300})
      for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right}) {
        AttentionSm90Shape s;
        s.seq_q = sq;
        s.seq_k = sk;
        s.m_blocks = (sq + BM - 1) / BM;
        s.causal = causal != AttentionCausal::none;
        s.bottom_right = causal == AttentionCausal::bottom_right;
        attention_sm90_order(s, 0);
        int const diag = causal == AttentionCausal::bottom_right ? sk - sq : 0;
        for (int tile = 0; tile < s.m_blocks; ++tile) {
          AttentionSm90Tile const w = attention_sm90_tile<BM, BN>(s, tile);
          for (int row = w.m * BM; row < std::min((w.m + 1) * BM, sq); ++row)
            for (int col = 0; col < (sk + BN - 1) / BN * BN; ++col) {
              bool const visible = col < sk && (!s.causal || col <= row + diag);
              int const n = col / BN;
              std::string const where = "BM " + std::to_string(BM) + " BN " + std::to_string(BN) + " seq_q " +
                                        std::to_string(sq) + " seq_k " + std::to_string(sk) + " causal " +
                                        std::to_string(int(causal)) + " row " + std::to_string(row) + " key " +
                                        std::to_string(col);
              if (n >= w.n_blocks) {
                ASSERT_FALSE(visible) << where << ": a visible key in a block the tile skips";
                continue;
              }
              ASSERT_EQ(col % BN < attention_sm90_key_limit<BN>(w, s.causal, n, row), visible) << where;
              if (!attention_sm90_needs_mask<BM, BN>(w, s.causal, n)) ASSERT_TRUE(visible) << where << ": not masked";
            }
        }
      }
}

TEST(AttentionForwardSm90Layouts, MasksMatchDefinition) {
  expect_masks_match_definition<128, 128>();
  expect_masks_match_definition<128, 64>();
}

// The kernel's two arguments (sm90/warp_specialized.cuh): the values (AttentionSm90Params: O, LSE,
// the shape, the scale; 152 bytes) by value, holding no tensor map, so that nothing takes their address and
// ptxas keeps what every tile reads in uniform registers; the three tensor maps (AttentionSm90Maps)
// as the __grid_constant__ TMA reads in place. The block's tile is the roles' plan, computed before
// the role split (uniform too). The launcher passes (params, maps) in that order.
template <class Cfg, class T>
constexpr bool arguments_split() {
  using Roles = tessera::kernels::detail::AttentionSm90Roles<Cfg, T>;
  using P = tessera::kernels::detail::AttentionSm90Params<T>;
  using M = tessera::kernels::detail::AttentionSm90Maps<T>;
  return std::is_same_v<decltype(&tessera::sm90::warp_specialized_kernel<Roles>), void (*)(P, M)> &&
         sizeof(M) == 3 * sizeof(tessera::TmaDescriptor) && sizeof(P) <= 160 && tessera::sm90::RolesWithPlan<Roles> &&
         std::is_same_v<decltype(Roles::plan(std::declval<P const&>())), tessera::kernels::AttentionSm90Tile>;
}

TEST(AttentionForwardSm90Layouts, ArgumentsValuesAndMaps) {
  using tessera::kernels::AttentionSm90Config;
  static_assert(arguments_split<AttentionSm90Config<64>, bfloat16_t>());
  static_assert(arguments_split<AttentionSm90Config<128>, half_t>());
  static_assert(arguments_split<AttentionSm90Config<256>, bfloat16_t>());
  static_assert(arguments_split<AttentionSm90Config<128, true>, bfloat16_t>());
  static_assert(arguments_split<AttentionSm90Config<64, false, true>, half_t>());
  static_assert(arguments_split<AttentionSm90Config<256, false, true, true>, half_t>());
  EXPECT_EQ(sizeof(tessera::kernels::detail::AttentionSm90Params<half_t>), 152u);  // jit/attention_sm90.hpp's copy
}

// ---- the problem's checks (no GPU: they throw before anything runs) --------------------------------

AttentionProblem<bfloat16_t> valid_problem() {
  auto const at = [](std::uintptr_t a) { return reinterpret_cast<bfloat16_t*>(a); };
  AttentionProblem<bfloat16_t> p;
  p.q = at(0x10000);
  p.k = at(0x20000);
  p.v = at(0x30000);
  p.o = at(0x40000);
  p.batch = 2;
  p.heads_q = 8;
  p.heads_kv = 2;
  p.seq_q = 100;
  p.seq_k = 50;
  p.head_dim = 128;
  p.q_strides = p.o_strides = tessera::kernels::attention_dense_strides(8, 100, 128);
  p.k_strides = p.v_strides = tessera::kernels::attention_dense_strides(2, 50, 128);
  return p;
}

std::string check_message(AttentionProblem<bfloat16_t> const& p) {
  try {
    tessera::kernels::check_attention_problem("attention_forward_sm90", p);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(AttentionForwardSm90Checks, ValidProblemPasses) { EXPECT_EQ(check_message(valid_problem()), ""); }

TEST(AttentionForwardSm90Checks, HeadDim) {
  auto p = valid_problem();
  p.head_dim = 96;
  EXPECT_EQ(check_message(p), "attention_forward_sm90: head_dim must be 64, 128 or 256 (got 96)");
  // The launcher checks before it asks the device anything.
  EXPECT_THROW((void)tessera::kernels::attention_forward_sm90(p), std::invalid_argument);
}

TEST(AttentionForwardSm90Checks, HeadDimStride) {
  auto p = valid_problem();
  p.k_strides.dim = 2;
  EXPECT_EQ(check_message(p),
            "attention_forward_sm90: k's head_dim stride must be 1 (TMA reads contiguous rows) (got 2)");
}

TEST(AttentionForwardSm90Checks, HeadsKvDividesHeadsQ) {
  auto p = valid_problem();
  p.heads_kv = 3;
  p.k_strides = p.v_strides = tessera::kernels::attention_dense_strides(3, 50, 128);
  EXPECT_EQ(check_message(p), "attention_forward_sm90: heads_kv must divide heads_q (got heads_q = 8, heads_kv = 3)");
}

TEST(AttentionForwardSm90Checks, Alignment) {
  auto p = valid_problem();
  p.v = reinterpret_cast<bfloat16_t const*>(std::uintptr_t(0x30008));
  EXPECT_EQ(check_message(p), "attention_forward_sm90: v must be 16-byte aligned (got address 196616)");
  p = valid_problem();
  p.q_strides.seq = 132;  // 264 bytes
  EXPECT_EQ(check_message(p),
            "attention_forward_sm90: q's seq stride must be a positive multiple of 8 elements (16 bytes, for TMA) "
            "(got 132)");
  p = valid_problem();
  p.o = nullptr;
  EXPECT_EQ(check_message(p), "attention_forward_sm90: o must not be null");
  p = valid_problem();
  p.batch = 1;
  p.o_strides.batch = 3;  // never followed over one batch: accepted
  EXPECT_EQ(check_message(p), "");
}

TEST(AttentionForwardSm90Checks, Sizes) {
  auto p = valid_problem();
  p.seq_k = 0;
  EXPECT_EQ(check_message(p), "attention_forward_sm90: seq_k must be >= 1 (got 0)");
  p = valid_problem();
  p.batch = -1;
  EXPECT_EQ(check_message(p), "attention_forward_sm90: batch must be >= 1 (got -1)");
  p = valid_problem();
  p.q_strides.seq = 64;  // rows overlap
  EXPECT_EQ(check_message(p), "attention_forward_sm90: q's seq stride must be >= head_dim = 128 (got 64)");
}

TEST(AttentionForwardSm90Checks, Scale) {
  auto p = valid_problem();
  p.scale = -0.5f;
  EXPECT_EQ(check_message(p),
            "attention_forward_sm90: scale must be 0 (1/sqrt(head_dim)) or positive and finite (got -0.500000)");
  p.scale = NAN;
  EXPECT_NE(check_message(p), "");
  p.scale = 0.0f;
  EXPECT_FLOAT_EQ(tessera::kernels::attention_scale(p), 1.0f / std::sqrt(128.0f));
}

}  // namespace
