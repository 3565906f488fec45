// attention_forward_fp8_sm90 (kernels/attention/forward_fp8.cuh) against a double-precision reference
// on the GPU from the dequantized e4m3 inputs: head_dim 128 and 256, no mask and both causal
// alignments, GQA ratios 1 and 4 (and multi-query), sequence lengths 1, 2, 17, 113, 128, 255 and
// 1000 (equal and different for Q and K), per-tensor and per-(batch, head) descales, the plain and
// the overlap loop, persistent blocks with many tiles each; Q and O in (batch, head, seq, d) with
// padded rows, K and V in (batch, seq, head, d). Before the kernel, the transposing pass alone
// (V^T's bytes in attention_fp8_pv_key's order). Without a GPU these skip; the host tests (the
// problem's checks, the key order, the e4m3 packing) run anywhere.
//
// The error bound (derived in docs/attention.md, "FP8 forward"), per element (i, d) of O, with the
// reference's softmax weights w_j (exact scores s_j of the dequantized inputs), A = sum_j w_j |v_jd|,
// Vmax = max_j |v_jd| over the n keys row i sees, and E = max_j 2^-8 |scale dq dk| sum_x |q8_x k8_jx|
// (the fp8 wgmma's accumulation bound on each score, docs/gemm-fp8.md):
//   |O - ref| <= (1 + 2^-8) B + 2^-8 |ref|,   B = A (e^{2E} (1 + 2^-4) (1 + 2^-8) - 1) + 2^-18 n Vmax
//              + 1e-5 A + 1e-6
// (P's e4m3 rounding: 2^-4 relative, 2^-10 absolute on 2^8 p over a row sum >= 2^8; the scores'
// error moving the weights by e^{2E}; P V's fp8 accumulation 2^-8; O's bf16 rounding 2^-8;
// ex2.approx and the fp32 sums in the 1e-5 slack), and |LSE - ref| <= E + 1e-4 + 1e-5 |ref|.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention_cases.hpp"
#include "support/cuda_check.hpp"
#include "support/gpu_skip.hpp"
#include "tessera/kernels/attention/forward_fp8.cuh"

namespace {

using tessera::bfloat16_t;
using tessera::float_e4m3_t;
using tessera::kernels::AttentionCausal;
using tessera::kernels::AttentionFp8Descale;
using tessera::kernels::AttentionFp8Problem;
using tessera::kernels::AttentionFp8ScaleKind;
using tessera::kernels::AttentionStrides;
using tessera::test::check;
using tessera::test::DeviceBuffer;
using tessera::test::attention::Case;
using tessera::test::attention::seq_pairs;

// ---- host tests -----------------------------------------------------------------------------------

TEST(AttentionFp8Host, PvKeyIsAPermutationOfEachBlockOf32) {
  for (int block = 0; block < 4; ++block) {
    std::vector<int> seen(32, 0);
    for (int c = 0; c < 32; ++c) {
      int const key = tessera::kernels::attention_fp8_pv_key(32 * block + c);
      ASSERT_GE(key, 32 * block);
      ASSERT_LT(key, 32 * block + 32);
      ++seen[std::size_t(key - 32 * block)];
    }
    for (int n : seen) EXPECT_EQ(n, 1);
  }
  // the examples of its comment
  int const first[8] = {0, 1, 8, 9, 2, 3, 10, 11};
  for (int c = 0; c < 8; ++c) EXPECT_EQ(tessera::kernels::attention_fp8_pv_key(c), first[c]);
  EXPECT_EQ(tessera::kernels::attention_fp8_pv_key(16), 16);
  EXPECT_EQ(tessera::kernels::attention_fp8_pv_key(31), 31);
}

// The kernel's packing of P matches the key order: the value that byte i of register h + 2 u of
// k-step kk holds (pack_p) is S's column 8 j + 2 t + e, and attention_fp8_pv_key of the operand's
// column 16 u + 4 t + i must be that column (within the block of 32).
TEST(AttentionFp8Host, PackedPFollowsTheKeyOrder) {
  for (int t = 0; t < 4; ++t)
    for (int u = 0; u < 2; ++u)
      for (int i = 0; i < 4; ++i) {
        int const v = 4 * (2 * u + (i >> 1)) + (i & 1);  // S's value (h = 0, kk = 0)
        int const j = v / 4, e = v % 2;
        int const column = 8 * j + 2 * t + e;
        EXPECT_EQ(tessera::kernels::attention_fp8_pv_key(16 * u + 4 * t + i), column) << "t " << t << " u " << u;
      }
}

TEST(AttentionFp8Host, PacksFourE4m3LowestFirst) {
  EXPECT_EQ(tessera::cvt_e4m3x4(1.0f, 0.5f, -2.0f, 1000.0f), 0x7ec03038u);
  EXPECT_EQ(tessera::cvt_e4m3x4(256.0f, 0.0f, 0.0f, 0.0f), std::uint32_t(float_e4m3_t(256.0f).raw()));
  EXPECT_EQ(float(float_e4m3_t(256.0f)), 256.0f);  // 2^8 p <= 256 is in range
}

AttentionFp8Problem valid_problem() {
  alignas(16) static unsigned char storage[128];  // aligned host addresses: the checks read values only
  AttentionFp8Problem p;
  p.q = reinterpret_cast<float_e4m3_t const*>(storage);
  p.k = reinterpret_cast<float_e4m3_t const*>(storage + 16);
  p.v = reinterpret_cast<float_e4m3_t const*>(storage + 32);
  p.o = reinterpret_cast<bfloat16_t*>(storage + 48);
  p.batch = 2;
  p.heads_q = 8;
  p.heads_kv = 2;
  p.seq_q = 100;
  p.seq_k = 300;
  p.head_dim = 128;
  p.q_strides = p.o_strides = tessera::kernels::attention_dense_strides(8, 100, 128);
  p.k_strides = p.v_strides = tessera::kernels::attention_dense_strides(2, 300, 128);
  p.workspace = storage + 64;
  p.workspace_bytes = tessera::kernels::attention_fp8_workspace_bytes(p);
  return p;
}

std::string message(AttentionFp8Problem const& p) {
  try {
    tessera::kernels::check_attention_fp8_problem("attention_forward_fp8_sm90", p);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(AttentionFp8Host, ChecksNameTheRule) {
  EXPECT_EQ(message(valid_problem()), "");
  EXPECT_EQ(tessera::kernels::attention_fp8_vt_seq(1), 64);
  EXPECT_EQ(tessera::kernels::attention_fp8_vt_seq(1000), 1024);
  {
    AttentionFp8Problem p = valid_problem();
    p.batch = 2;
    p.heads_kv = 8;
    p.head_dim = 128;
    p.seq_k = 1000;
    EXPECT_EQ(tessera::kernels::attention_fp8_workspace_bytes(p), 2097152u);
  }
  AttentionFp8Problem p = valid_problem();
  p.head_dim = 64;
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: head_dim must be 128 or 256 for e4m3 (got 64; the 16-bit forward, "
            "attention_forward_sm90, takes 64)");
  p = valid_problem();
  p.heads_kv = 3;
  EXPECT_EQ(message(p), "attention_forward_fp8_sm90: heads_kv must divide heads_q (got heads_q = 8, heads_kv = 3)");
  p = valid_problem();
  p.k_strides.seq = 136;  // a multiple of 8 elements but not of 16 bytes... of 16 elements (e4m3)
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: k's seq stride must be a positive multiple of 16 elements (16 bytes, for "
            "TMA) (got 136)");
  p = valid_problem();
  p.o_strides.seq = 132;
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: o's seq stride must be a positive multiple of 8 elements (16 bytes of bf16) "
            "(got 132)");
  p = valid_problem();
  p.o = nullptr;
  EXPECT_EQ(message(p), "attention_forward_fp8_sm90: o must not be null");
  p = valid_problem();
  p.descale_k = AttentionFp8Descale{AttentionFp8ScaleKind::head, nullptr};
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: descale_k.data must not be null for kind head (use kind none for no descale)");
  p = valid_problem();
  p.workspace = nullptr;
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: workspace must not be null (V's transposed copy: "
            "attention_fp8_workspace_bytes(problem) = 163840 bytes of device memory)");
  p = valid_problem();
  p.workspace_bytes -= 1;
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: workspace_bytes must be >= attention_fp8_workspace_bytes(problem) = 163840 "
            "(got 163839)");
  p = valid_problem();
  p.scale = -1.0f;
  EXPECT_EQ(message(p),
            "attention_forward_fp8_sm90: scale must be 0 (1/sqrt(head_dim)) or positive and finite (got -1.000000)");
}

// ---- GPU tests --------------------------------------------------------------------------------------

// The reference: one thread per (batch, head, query row), in double from the dequantized inputs; O
// and its bound (the file's comment) as (batch, heads_q, seq_q, d), LSE and its bound per row. w:
// scratch of seq_k doubles a row (the row's softmax weights, computed once: the output's columns
// then cost seq_k each, not seq_k d).
__global__ void attention_fp8_reference(AttentionFp8Problem p, float scale, float const* dq, float const* dk,
                                        float const* dv, float* o, float* o_bound, float* lse, float* lse_bound,
                                        double* w) {
  long long const idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)p.batch * p.heads_q * p.seq_q) return;
  int const i = int(idx % p.seq_q), h = int(idx / p.seq_q % p.heads_q), b = int(idx / p.seq_q / p.heads_q);
  int const hk = h / (p.heads_q / p.heads_kv), d = p.head_dim;
  auto const ds = [&](float const* s, AttentionFp8Descale const& k, int head, int heads) {
    return k.kind == AttentionFp8ScaleKind::none
               ? 1.0
               : double(s[k.kind == AttentionFp8ScaleKind::tensor ? 0 : b * heads + head]);
  };
  double const sq = ds(dq, p.descale_q, h, p.heads_q), sk = ds(dk, p.descale_k, hk, p.heads_kv),
               sv = ds(dv, p.descale_v, hk, p.heads_kv);
  double const se = double(scale) * sq * sk;
  int const diag = p.causal == AttentionCausal::bottom_right ? p.seq_k - p.seq_q : 0;
  int const keys = p.causal == AttentionCausal::none ? p.seq_k : min(p.seq_k, max(0, i + diag + 1));
  float_e4m3_t const* qi = p.q + b * p.q_strides.batch + h * p.q_strides.head + i * p.q_strides.seq;
  auto const kv = [&](float_e4m3_t const* base, AttentionStrides const& s, int j) {
    return base + b * s.batch + hk * s.head + j * s.seq;
  };
  auto const score = [&](int j, double& mag) {
    float_e4m3_t const* kj = kv(p.k, p.k_strides, j);
    double s = 0.0, m = 0.0;
    for (int x = 0; x < d; ++x) {
      double const prod = double(float(qi[x])) * double(float(kj[x]));
      s += prod;
      m += fabs(prod);
    }
    mag = m * fabs(se) * 0x1p-8;
    return se * s;
  };
  float* oi = o + idx * d;
  float* bi = o_bound + idx * d;
  if (keys == 0) {
    for (int x = 0; x < d; ++x) oi[x] = bi[x] = 0.0f;
    lse[idx] = -INFINITY;
    lse_bound[idx] = 0.0f;
    return;
  }
  double mx = -INFINITY, e_max = 0.0;
  for (int j = 0; j < keys; ++j) {
    double mag;
    mx = fmax(mx, score(j, mag));
    e_max = fmax(e_max, mag);
  }
  double* const wi = w + idx * p.seq_k;
  double sum = 0.0;
  for (int j = 0; j < keys; ++j) {
    double mag;
    wi[j] = exp(score(j, mag) - mx);
    sum += wi[j];
  }
  for (int j = 0; j < keys; ++j) wi[j] /= sum;
  double const grow = exp(2.0 * e_max) * (1.0 + 0x1p-4) * (1.0 + 0x1p-8) - 1.0;
  for (int x = 0; x < d; ++x) {  // one column at a time: no array of head_dim doubles a thread
    double acc = 0.0, a = 0.0, vmax = 0.0;
    for (int j = 0; j < keys; ++j) {
      double const vj = sv * double(float(kv(p.v, p.v_strides, j)[x]));
      acc += wi[j] * vj;
      a += wi[j] * fabs(vj);
      vmax = fmax(vmax, fabs(vj));
    }
    double const bnd = a * grow + 0x1p-18 * keys * vmax + 1e-5 * a + 1e-6;
    oi[x] = float(acc);
    bi[x] = float((1.0 + 0x1p-8) * bnd + 0x1p-8 * fabs(acc));
  }
  double const l = mx + log(sum);
  lse[idx] = float(l);
  lse_bound[idx] = float(e_max + 1e-4 + 1e-5 * fabs(l));
}

enum class Loop { launcher, plain, overlap };

// The run: the launcher, or a chosen loop (one block a tile; max_blocks > 0: persistent with at
// most that many blocks).
cudaError_t launch(AttentionFp8Problem const& p, Loop loop, int max_blocks = 0) {
  using namespace tessera::kernels;
  using detail::attention_fp8_sm90_run;
  if (loop == Loop::launcher && max_blocks == 0) return attention_forward_fp8_sm90(p, nullptr);
  check_attention_fp8_problem("attention_forward_fp8_sm90", p);
  bool const d128 = p.head_dim == 128;
  if (max_blocks > 0)
    return d128 ? attention_fp8_sm90_run<AttentionFp8Sm90Config<128, true, true>>(p, nullptr, max_blocks)
                : attention_fp8_sm90_run<AttentionFp8Sm90Config<256, false, true>>(p, nullptr, max_blocks);
  if (loop == Loop::plain)
    return d128 ? attention_fp8_sm90_run<AttentionFp8Sm90Config<128>>(p, nullptr)
                : attention_fp8_sm90_run<AttentionFp8Sm90Config<256>>(p, nullptr);
  return d128 ? attention_fp8_sm90_run<AttentionFp8Sm90Config<128, true>>(p, nullptr) : cudaErrorInvalidValue;
}

std::uint32_t next(std::uint32_t& x) {
  x = x * 1664525u + 1013904223u;
  return x >> 8;
}

// e4m3 values of x in [-1, 1] quantized with amax 448: e4m3(448 x r) for a per-head range r.
std::vector<float_e4m3_t> random_e4m3(std::size_t n, std::uint32_t seed) {
  std::vector<float_e4m3_t> v(n);
  std::uint32_t x = seed;
  for (auto& e : v) e = float_e4m3_t(448.0f * float(int(next(x) % 2001) - 1000) / 1000.0f);
  return v;
}

// Descales: tensor: one value; head: (batch, heads), values 2^k / 448 for k in -1..1.
std::vector<float> descales(AttentionFp8ScaleKind kind, int batch, int heads, std::uint32_t seed) {
  if (kind == AttentionFp8ScaleKind::tensor) return {1.0f / 448.0f};
  std::vector<float> v(std::size_t(batch) * heads);
  std::uint32_t x = seed;
  for (auto& e : v) e = std::ldexp(1.0f, int(next(x) % 3) - 1) / 448.0f;
  return v;
}

// A NaN in bf16: never a result.
bfloat16_t sentinel() { return bfloat16_t::bitcast(0x7fff); }

// Runs one case and compares O and LSE (and O's row padding untouched) with the reference; returns
// "" or the first mismatch. Also the worst |error| / bound seen (out).
std::string run_case(Case const& c, AttentionFp8ScaleKind kind, Loop loop, int max_blocks, double& worst) {
  int const d = c.head_dim;
  // Q: (batch, head, seq, d) rows padded by 16 elements; O likewise (padded by 8 bf16); K, V: (batch,
  // seq, head, d)
  AttentionStrides const qs{(long long)c.heads_q * c.seq_q * (d + 16), (long long)c.seq_q * (d + 16), d + 16, 1};
  AttentionStrides const os{(long long)c.heads_q * c.seq_q * (d + 8), (long long)c.seq_q * (d + 8), d + 8, 1};
  AttentionStrides const kvs{(long long)c.seq_k * c.heads_kv * d, d, (long long)c.heads_kv * d, 1};
  std::size_t const nq = std::size_t(c.batch) * qs.batch, no = std::size_t(c.batch) * os.batch,
                    nk = std::size_t(c.batch) * kvs.batch;
  std::size_t const rows = std::size_t(c.batch) * c.heads_q * c.seq_q;
  std::uint32_t const seed = 0x9e3779b9u ^ std::uint32_t(c.seq_q * 131 + c.seq_k * 7 + d);
  DeviceBuffer<float_e4m3_t> q(nq), k(nk), v(nk);
  DeviceBuffer<bfloat16_t> o(no);
  DeviceBuffer<float> lse(rows), ref_o(rows * d), ref_b(rows * d), ref_lse(rows), ref_lb(rows);
  DeviceBuffer<double> weights(rows * std::size_t(c.seq_k));  // the reference's softmax weights
  q.upload(random_e4m3(nq, seed));
  k.upload(random_e4m3(nk, seed * 3u + 1u));
  v.upload(random_e4m3(nk, seed * 5u + 2u));
  o.upload(std::vector<bfloat16_t>(no, sentinel()));
  check(cudaMemset(lse.get(), 0, lse.bytes()), "cudaMemset");
  std::vector<float> const hq = descales(kind, c.batch, c.heads_q, seed + 11u),
                           hk = descales(kind, c.batch, c.heads_kv, seed + 12u),
                           hv = descales(kind, c.batch, c.heads_kv, seed + 13u);
  DeviceBuffer<float> dq(hq.size()), dk(hk.size()), dv(hv.size());
  dq.upload(hq);
  dk.upload(hk);
  dv.upload(hv);

  AttentionFp8Problem p;
  p.q = q.get();
  p.k = k.get();
  p.v = v.get();
  p.o = o.get();
  p.lse = lse.get();
  p.batch = c.batch;
  p.heads_q = c.heads_q;
  p.heads_kv = c.heads_kv;
  p.seq_q = c.seq_q;
  p.seq_k = c.seq_k;
  p.head_dim = d;
  p.q_strides = qs;
  p.o_strides = os;
  p.k_strides = p.v_strides = kvs;
  p.causal = c.causal;
  p.scale = c.scale;
  p.descale_q = {kind, dq.get()};
  p.descale_k = {kind, dk.get()};
  p.descale_v = {kind, dv.get()};
  DeviceBuffer<std::uint8_t> ws(tessera::kernels::attention_fp8_workspace_bytes(p));
  p.workspace = ws.get();
  p.workspace_bytes = ws.size();
  check(launch(p, loop, max_blocks), "attention_forward_fp8_sm90");
  attention_fp8_reference<<<unsigned((rows + 127) / 128), 128>>>(p, tessera::kernels::attention_fp8_scale(p), dq.get(),
                                                                 dk.get(), dv.get(), ref_o.get(), ref_b.get(),
                                                                 ref_lse.get(), ref_lb.get(), weights.get());
  check(cudaGetLastError(), "attention_fp8_reference");
  check(cudaDeviceSynchronize(), "synchronize");

  std::vector<bfloat16_t> const got = o.download();
  std::vector<float> const want = ref_o.download(), bound = ref_b.download(), got_lse = lse.download(),
                           want_lse = ref_lse.download(), lse_bound = ref_lb.download();
  for (std::size_t r = 0; r < rows; ++r) {
    int const i = int(r % c.seq_q), h = int(r / c.seq_q % c.heads_q), b = int(r / c.seq_q / c.heads_q);
    auto const where = [&] {
      return c.name() + ": batch " + std::to_string(b) + " head " + std::to_string(h) + " row " + std::to_string(i);
    };
    bfloat16_t const* row = got.data() + std::size_t(b * os.batch + h * os.head + i * os.seq);
    for (int x = 0; x < d; ++x) {
      float const g = float(row[x]), w = want[r * d + x], bnd = bound[r * d + x];
      double const err = std::fabs(double(g) - double(w));
      if (!(err <= bnd))
        return where() + " column " + std::to_string(x) + ": O = " + std::to_string(g) + ", reference " +
               std::to_string(w) + ", bound " + std::to_string(bnd);
      if (bnd > 0) worst = std::max(worst, err / bnd);
    }
    for (int x = d; x < d + 8; ++x)
      if (row[x].raw() != sentinel().raw()) return where() + ": the padding after the row was written";
    bool const ok = std::isinf(want_lse[r]) ? (std::isinf(got_lse[r]) && got_lse[r] < 0)
                                            : std::fabs(got_lse[r] - want_lse[r]) <= lse_bound[r];
    if (!ok)
      return where() + ": LSE = " + std::to_string(got_lse[r]) + ", reference " + std::to_string(want_lse[r]) +
             ", bound " + std::to_string(lse_bound[r]);
  }
  return "";
}

void sweep(int head_dim, Loop loop, AttentionFp8ScaleKind kind = AttentionFp8ScaleKind::tensor) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  double worst = 0.0;
  for (auto [sq, sk] : seq_pairs())
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right})
      for (int ratio : {1, 4}) {
        int const batch = sq >= 1000 || sk >= 1000 ? 1 : 2;
        Case const c{batch, 4, 4 / ratio, sq, sk, head_dim, causal};
        std::string const err = run_case(c, kind, loop, 0, worst);
        ASSERT_EQ(err, "") << c.name();
      }
  std::printf("head_dim %d: worst |O - ref| / bound %.3f\n", head_dim, worst);
}

// The transposing pass alone: V^T's bytes against V's in attention_fp8_pv_key's order, zeros past
// seq_k (the first failure names the key and d).
TEST(AttentionFp8Sm90, TransposePass) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (int seq_k : {1, 17, 64, 113, 255}) {
    AttentionFp8Problem p;
    p.batch = 2;
    p.heads_kv = 3;
    p.heads_q = 3;
    p.seq_k = seq_k;
    p.head_dim = 128;
    p.v_strides = {(long long)seq_k * 3 * 128, 128, 3 * 128, 1};  // (batch, seq, head, d)
    std::size_t const nv = std::size_t(2) * p.v_strides.batch;
    std::vector<float_e4m3_t> const hv = random_e4m3(nv, 77u + std::uint32_t(seq_k));
    DeviceBuffer<float_e4m3_t> v(nv);
    v.upload(hv);
    DeviceBuffer<std::uint8_t> ws(tessera::kernels::attention_fp8_workspace_bytes(p));
    check(cudaMemset(ws.get(), 0xff, ws.bytes()), "cudaMemset");
    p.v = v.get();
    p.workspace = ws.get();
    p.workspace_bytes = ws.size();
    check(tessera::kernels::detail::attention_fp8_transpose_launch(p, nullptr), "attention_fp8_transpose_launch");
    check(cudaDeviceSynchronize(), "synchronize");
    std::vector<std::uint8_t> const got = ws.download();
    long long const vs = tessera::kernels::attention_fp8_vt_seq(seq_k);
    for (int b = 0; b < 2; ++b)
      for (int h = 0; h < 3; ++h)
        for (int x = 0; x < 128; ++x)
          for (long long c = 0; c < vs; ++c) {
            int const key = tessera::kernels::attention_fp8_pv_key(int(c));
            std::uint8_t const want =
                key < seq_k ? hv[std::size_t(b * p.v_strides.batch + key * p.v_strides.seq + h * 128 + x)].raw() : 0;
            std::uint8_t const g = got[std::size_t(((b * 3 + h) * 128 + x) * vs + c)];
            ASSERT_EQ(g, want) << "seq_k " << seq_k << " batch " << b << " head " << h << " d " << x << " column " << c
                               << " (key " << key << ")";
          }
  }
}

TEST(AttentionFp8Sm90, SmallCases) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  double worst = 0.0;
  for (int d : {128, 256})
    for (Loop loop : {Loop::plain, Loop::overlap}) {
      if (d == 256 && loop == Loop::overlap) continue;  // no overlap loop for head_dim 256
      for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right})
        for (auto [sq, sk] : std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {17, 17}, {113, 130}, {130, 113}}) {
          Case const c{1, 2, 1, sq, sk, d, causal};
          std::string const err = run_case(c, AttentionFp8ScaleKind::tensor, loop, 0, worst);
          ASSERT_EQ(err, "") << c.name() << (loop == Loop::plain ? " plain" : " overlap");
        }
    }
  std::printf("worst |O - ref| / bound %.3f\n", worst);
}

TEST(AttentionFp8Sm90Sweep, D128) { sweep(128, Loop::launcher); }
TEST(AttentionFp8Sm90Sweep, D256) { sweep(256, Loop::launcher); }
TEST(AttentionFp8Sm90Sweep, PlainD128) { sweep(128, Loop::plain); }
TEST(AttentionFp8Sm90Sweep, PlainD256) { sweep(256, Loop::plain); }
TEST(AttentionFp8Sm90Sweep, OverlapD128) { sweep(128, Loop::overlap); }
TEST(AttentionFp8Sm90Sweep, PerHeadDescalesD128) { sweep(128, Loop::launcher, AttentionFp8ScaleKind::head); }
TEST(AttentionFp8Sm90Sweep, PerHeadDescalesD256) { sweep(256, Loop::plain, AttentionFp8ScaleKind::head); }

// Multi-query attention, a scale of the caller's, no descale, and persistent blocks that loop over
// many tiles (at most 3 blocks), both head_dims.
TEST(AttentionFp8Sm90, MultiQueryPersistentAndScale) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  double worst = 0.0;
  for (int d : {128, 256})
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::bottom_right}) {
      Case c{2, 8, 1, 300, 517, d, causal};
      c.scale = 2e-6f;  // the e4m3 values undescaled (up to 448): scores of the order of the others'
      ASSERT_EQ(run_case(c, AttentionFp8ScaleKind::none, Loop::launcher, 3, worst), "") << c.name();
      c.scale = 0.05f;
      ASSERT_EQ(run_case(c, AttentionFp8ScaleKind::head, Loop::launcher, 0, worst), "") << c.name();
    }
  std::printf("worst |O - ref| / bound %.3f\n", worst);
}

}  // namespace
