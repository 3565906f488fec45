// attention_backward_sm90 (kernels/attention/backward.cuh) against an fp32 reference on the GPU:
// head_dim 64 and 128, both 16-bit types, no mask and both causal alignments, GQA ratios 1 and 4
// (and MQA), sequence lengths 1, 2, 17, 113, 128, 255 and 1000 (equal and different for Q and K);
// Q, O, dO, dQ in (batch, head, seq, d) with rows padded by 8 elements, K, V in (batch, seq, head, d),
// dK, dV in (batch, head, seq, d) padded. dV, dK and dQ are checked in that order, so that the first
// failure says which product is wrong: dV = P^T dO needs only P (S, the mask, the LSE, the exp2)
// and the P^T dO wgmma; dK = scale dS^T Q adds dP, D and dS; dQ = scale dS K adds dS^T's trip
// through shared memory, the dQ wgmma, the atomics and the postprocessing. The padding after every
// row of dQ, dK, dV must stay untouched. The problem's checks run without a GPU.
//
// The inputs the backward reads are the reference forward's: O (fp32, rounded to the type) and LSE
// (fp32) computed exactly from Q, K, V; the reference gradients are then exact functions of the
// same inputs (P = exp(scale q.k - LSE), D = dO . O with the rounded O, dS = P (dP - D)), in fp32.
// Error bound (u = 2^-8 for bf16, 2^-11 for fp16: twice the unit roundoff): the kernel rounds P and
// dS to the type before the products dV = P^T dO, dK = scale dS^T Q, dQ = scale dS K (each product of
// two 16-bit values is exact in fp32), a relative error of u/2 on each term, so at most u/2 M with
// M the sum of the terms' magnitudes (the reference's, e.g. sum_i P_ij |dO_ix|); rounding the result
// adds u/2 |ref|; dS's fp32 inputs (dP, D: sums of head_dim products in another order, ex2.approx)
// add about 2^-20 M_E with M_E = scale sum P (|dP| + |D|) |Q| (the magnitudes before dP - D
// cancels). Held to |got - ref| <= u M + u |ref| + 1e-5 M_E + 1e-4 (twice the estimate, and an
// absolute floor for the fp32 sums).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attention_cases.hpp"
#include "support/cuda_check.hpp"
#include "support/gpu_skip.hpp"
#include "tessera/kernels/attention/backward.cuh"

namespace {

using tessera::bfloat16_t;
using tessera::half_t;
using tessera::kernels::AttentionBackwardProblem;
using tessera::kernels::AttentionCausal;
using tessera::kernels::AttentionProblem;
using tessera::kernels::AttentionStrides;
using tessera::test::check;
using tessera::test::DeviceBuffer;
using tessera::test::attention::Case;
using tessera::test::attention::sentinel;
using tessera::test::attention::seq_pairs;

// The sizes of a reference run (plain values for the reference kernels). LSE's element of (b, h,
// i) is (b heads_q + h) lse_head + i (seq_q; a sequence of a varlen batch: total_q, the pointer at
// its first row).
struct RefShape {
  int batch, heads_q, heads_kv, seq_q, seq_k, d;
  int causal, bottom_right;
  float scale;
  long long lse_head;
};

__device__ __host__ inline bool visible(RefShape const& s, int i, int j) {
  if (j >= s.seq_k) return false;
  if (!s.causal) return true;
  int const diag = s.bottom_right ? s.seq_k - s.seq_q : 0;
  return j <= i + diag;
}

// The forward, exact: one thread a (batch, head, query row): LSE (natural log; -inf for a row that
// sees no key) and O (fp32, rounded to T into o at the problem's strides; 0 for such a row).
template <class T>
__global__ void ref_forward(AttentionProblem<T> p, RefShape s, float* lse) {
  long long const idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)s.batch * s.heads_q * s.seq_q) return;
  int const i = int(idx % s.seq_q), h = int(idx / s.seq_q % s.heads_q), b = int(idx / s.seq_q / s.heads_q);
  int const hk = h / (s.heads_q / s.heads_kv);
  T const* qi = p.q + b * p.q_strides.batch + h * p.q_strides.head + i * p.q_strides.seq;
  auto const score = [&](int j) {
    T const* kj = p.k + b * p.k_strides.batch + hk * p.k_strides.head + j * p.k_strides.seq;
    float acc = 0.0f;
    for (int x = 0; x < s.d; ++x) acc += float(qi[x]) * float(kj[x]);
    return s.scale * acc;
  };
  float mx = -INFINITY;
  for (int j = 0; j < s.seq_k; ++j)
    if (visible(s, i, j)) mx = fmaxf(mx, score(j));
  float acc[128];
  for (int x = 0; x < s.d; ++x) acc[x] = 0.0f;
  float sum = 0.0f;
  if (mx != -INFINITY) {
    for (int j = 0; j < s.seq_k; ++j) {
      if (!visible(s, i, j)) continue;
      float const pj = expf(score(j) - mx);
      sum += pj;
      T const* vj = p.v + b * p.v_strides.batch + hk * p.v_strides.head + j * p.v_strides.seq;
      for (int x = 0; x < s.d; ++x) acc[x] += pj * float(vj[x]);
    }
  }
  T* oi = p.o + b * p.o_strides.batch + h * p.o_strides.head + i * p.o_strides.seq;
  for (int x = 0; x < s.d; ++x) oi[x] = T(sum > 0.0f ? acc[x] / sum : 0.0f);
  lse[((long long)b * s.heads_q + h) * s.lse_head + i] = sum > 0.0f ? mx + logf(sum) : -INFINITY;
}

// P, dS (and P (|dP| + |D|), for the bound; S = q.k, -inf where masked, and dP = dO.v, for the
// debug tile) of every (batch, head, query i, key j): one thread a query row, from the given O (as
// the type) and LSE. Buffers (batch heads_q, seq_q, seq_k) fp32.
template <class T>
__global__ void ref_probs(AttentionBackwardProblem<T> p, RefShape s, float const* lse, float* prob, float* ds,
                          float* mag, float* raw_s, float* raw_dp) {
  long long const idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)s.batch * s.heads_q * s.seq_q) return;
  int const i = int(idx % s.seq_q), h = int(idx / s.seq_q % s.heads_q), b = int(idx / s.seq_q / s.heads_q);
  int const hk = h / (s.heads_q / s.heads_kv);
  AttentionProblem<T> const& f = p.fwd;
  T const* qi = f.q + b * f.q_strides.batch + h * f.q_strides.head + i * f.q_strides.seq;
  T const* oi = f.o + b * f.o_strides.batch + h * f.o_strides.head + i * f.o_strides.seq;
  T const* doi = p.dout + b * p.dout_strides.batch + h * p.dout_strides.head + i * p.dout_strides.seq;
  float dsum = 0.0f;
  for (int x = 0; x < s.d; ++x) dsum += float(doi[x]) * float(oi[x]);
  float const l = lse[((long long)b * s.heads_q + h) * s.lse_head + i];
  for (int j = 0; j < s.seq_k; ++j) {
    T const* kj = f.k + b * f.k_strides.batch + hk * f.k_strides.head + j * f.k_strides.seq;
    T const* vj = f.v + b * f.v_strides.batch + hk * f.v_strides.head + j * f.v_strides.seq;
    float sc = 0.0f, dp = 0.0f;
    for (int x = 0; x < s.d; ++x) {
      sc += float(qi[x]) * float(kj[x]);
      dp += float(doi[x]) * float(vj[x]);
    }
    float const pij = visible(s, i, j) && l != -INFINITY ? expf(s.scale * sc - l) : 0.0f;
    prob[idx * s.seq_k + j] = pij;
    raw_s[idx * s.seq_k + j] = visible(s, i, j) ? sc : -INFINITY;
    raw_dp[idx * s.seq_k + j] = dp;
    ds[idx * s.seq_k + j] = pij * (dp - dsum);
    mag[idx * s.seq_k + j] = pij * (fabsf(dp) + fabsf(dsum));
  }
}

// dQ = scale dS K: one thread an element; out[0] the value, out[1] scale sum |dS| |K|, out[2]
// scale sum P (|dP| + |D|) |K|. Layout (batch heads_q seq_q d, 3).
template <class T>
__global__ void ref_dq(AttentionBackwardProblem<T> p, RefShape s, float const* ds, float const* mag, float* out) {
  long long const idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)s.batch * s.heads_q * s.seq_q * s.d) return;
  int const x = int(idx % s.d);
  long long const row = idx / s.d;  // (b, h, i)
  int const h = int(row / s.seq_q % s.heads_q), b = int(row / s.seq_q / s.heads_q);
  int const hk = h / (s.heads_q / s.heads_kv);
  AttentionProblem<T> const& f = p.fwd;
  float v = 0.0f, m = 0.0f, me = 0.0f;
  for (int j = 0; j < s.seq_k; ++j) {
    float const k = float(f.k[b * f.k_strides.batch + hk * f.k_strides.head + j * f.k_strides.seq + x]);
    v += ds[row * s.seq_k + j] * k;
    m += fabsf(ds[row * s.seq_k + j] * k);
    me += mag[row * s.seq_k + j] * fabsf(k);
  }
  out[3 * idx] = s.scale * v;
  out[3 * idx + 1] = s.scale * m;
  out[3 * idx + 2] = s.scale * me;
}

// dK = scale sum dS^T Q and dV = sum P^T dO over the group's query heads: one thread an element of
// (batch, heads_kv, seq_k, d); out_k, out_v as ref_dq's (value, magnitude, magnitude before the
// cancellation; dV's third is 0).
template <class T>
__global__ void ref_dkdv(AttentionBackwardProblem<T> p, RefShape s, float const* prob, float const* ds,
                         float const* mag, float* out_k, float* out_v) {
  long long const idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)s.batch * s.heads_kv * s.seq_k * s.d) return;
  int const x = int(idx % s.d);
  int const j = int(idx / s.d % s.seq_k), hk = int(idx / s.d / s.seq_k % s.heads_kv);
  int const b = int(idx / s.d / s.seq_k / s.heads_kv);
  int const group = s.heads_q / s.heads_kv;
  AttentionProblem<T> const& f = p.fwd;
  float vk = 0.0f, mk = 0.0f, mek = 0.0f, vv = 0.0f, mv = 0.0f;
  for (int g = 0; g < group; ++g) {
    int const h = hk * group + g;
    for (int i = 0; i < s.seq_q; ++i) {
      long long const at = (((long long)b * s.heads_q + h) * s.seq_q + i) * s.seq_k + j;
      float const q = float(f.q[b * f.q_strides.batch + h * f.q_strides.head + i * f.q_strides.seq + x]);
      float const dout = float(p.dout[b * p.dout_strides.batch + h * p.dout_strides.head + i * p.dout_strides.seq + x]);
      vk += ds[at] * q;
      mk += fabsf(ds[at] * q);
      mek += mag[at] * fabsf(q);
      vv += prob[at] * dout;
      mv += fabsf(prob[at] * dout);
    }
  }
  out_k[3 * idx] = s.scale * vk;
  out_k[3 * idx + 1] = s.scale * mk;
  out_k[3 * idx + 2] = s.scale * mek;
  out_v[3 * idx] = vv;
  out_v[3 * idx + 1] = mv;
  out_v[3 * idx + 2] = 0.0f;
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint32_t& x) {
  std::vector<T> v(n);
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = T(float(int(x >> 8) % 2001 - 1000) / 1000.0f);  // [-1, 1]
  }
  return v;
}

// Compares one gradient (got: the kernel's, row (b, h, i) of d elements at got.data() + at(b, h, i),
// with 8 elements of padding after it; ref: (value, magnitude, magnitude before cancellation)
// triples in (batch, heads, seq) order, unpadded). Returns "" or the first mismatches (up to 4),
// with their count, the worst error against its bound and where the mismatches lie (the rows and
// columns modulo 64 and 8, to tell a fragment-layout error from a masking error).
template <class T, class At>
std::string compare(char const* what, std::vector<T> const& got, std::vector<float> const& ref, int heads, int seq,
                    int d, At const& at, int batch, std::string const& name) {
  float const u = std::is_same_v<T, bfloat16_t> ? 1.0f / 256 : 1.0f / 2048;
  long long bad = 0, rows_bad = 0;
  std::string first;
  double worst = 0.0;
  std::vector<int> row_mod(64, 0), col_mod(8, 0);
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < seq; ++i) {
        long long const r = ((long long)b * heads + h) * seq + i;
        T const* g = got.data() + at(b, h, i);
        bool row_ok = true;
        for (int x = 0; x < d; ++x) {
          float const want = ref[3 * (r * d + x)], m = ref[3 * (r * d + x) + 1], me = ref[3 * (r * d + x) + 2];
          float const tol = u * m + u * std::fabs(want) + 1e-5f * me + 1e-4f;
          float const have = float(g[x]);
          double const err = std::fabs(double(have) - double(want));
          if (!(err <= tol)) {
            ++bad;
            row_ok = false;
            ++row_mod[i % 64];
            ++col_mod[x % 8];
            if (bad <= 4) {
              char buf[256];
              std::snprintf(buf, sizeof buf,
                            "\n  %s[b %d, head %d, row %d, col %d] = %.6g, reference %.6g (bound %.3g)", what, b, h, i,
                            x, double(have), double(want), double(tol));
              first += buf;
            }
          }
          if (err > 0 && tol > 0) worst = std::max(worst, err / tol);
        }
        for (int x = d; x < d + 8; ++x)
          if (g[x].raw() != sentinel<T>().raw()) {
            ++bad;
            row_ok = false;
            if (bad <= 4)
              first += "\n  " + std::string(what) + "[b " + std::to_string(b) + ", head " + std::to_string(h) +
                       ", row " + std::to_string(i) + "]: the padding after the row was written";
          }
        if (!row_ok) ++rows_bad;
      }
  if (bad == 0) return "";
  std::string where = "\n  rows mod 64 with mismatches:";
  for (int k = 0; k < 64; ++k)
    if (row_mod[std::size_t(k)] > 0) where += " " + std::to_string(k);
  where += "; columns mod 8:";
  for (int k = 0; k < 8; ++k)
    if (col_mod[std::size_t(k)] > 0) where += " " + std::to_string(k);
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: %s wrong in %lld elements of %lld rows (worst error / bound %.3g)", name.c_str(),
                what, bad, rows_bad, worst);
  return std::string(buf) + first + where;
}

// Runs one case: the reference forward (O, LSE), the backward, the reference gradients; returns ""
// or the first wrong gradient's report (dV, then dK, then dQ). debug: run the Debug kernel and
// compare block 0's first step (keys 0..127 of batch 0, key/value head 0; queries 0..63 of the
// first m-block of query head 0: the case must have m_first = 0 there) S^T, dP^T, P^T, dS^T
// before the gradients. first_step: run the step before the lean one (AttentionBwdSm90Config's Lean =
// false, overlapped for head_dim 128: the default until the lean step was measured) instead of
// attention_backward_sm90's configuration (the lean step, dQ by TMA reduce-add). atomics: the lean
// step in the plain order with DqTma = false (dQ by red.global.add.v2.f32: the default until the
// TMA reduce-add).
template <class T>
std::string run_case(Case const& c, bool debug = false, bool first_step = false, bool atomics = false) {
  int const d = c.head_dim;
  AttentionStrides const qo{(long long)c.heads_q * c.seq_q * (d + 8), (long long)c.seq_q * (d + 8), d + 8, 1};
  AttentionStrides const kv{(long long)c.seq_k * c.heads_kv * d, d, (long long)c.heads_kv * d, 1};
  AttentionStrides const dkv{(long long)c.heads_kv * c.seq_k * (d + 8), (long long)c.seq_k * (d + 8), d + 8, 1};
  std::size_t const nq = std::size_t(c.batch) * qo.batch, nk = std::size_t(c.batch) * kv.batch;
  std::size_t const ndk = std::size_t(c.batch) * dkv.batch;
  std::size_t const rows = std::size_t(c.batch) * c.heads_q * c.seq_q;
  std::uint32_t x = 0x9e3779b9u ^ std::uint32_t(c.seq_q * 131 + c.seq_k * 7 + d + c.heads_kv * 1009);
  DeviceBuffer<T> q(nq), k(nk), v(nk), o(nq), dout(nq), dq(nq), dk(ndk), dv(ndk);
  q.upload(random_values<T>(nq, x));
  k.upload(random_values<T>(nk, x));
  v.upload(random_values<T>(nk, x));
  dout.upload(random_values<T>(nq, x));
  std::vector<T> const fill_q(nq, sentinel<T>()), fill_k(ndk, sentinel<T>());
  o.upload(fill_q);
  dq.upload(fill_q);
  dk.upload(fill_k);
  dv.upload(fill_k);
  DeviceBuffer<float> lse(rows);

  AttentionBackwardProblem<T> p;
  AttentionProblem<T>& f = p.fwd;
  f.q = q.get();
  f.k = k.get();
  f.v = v.get();
  f.o = o.get();
  f.lse = lse.get();
  f.batch = c.batch;
  f.heads_q = c.heads_q;
  f.heads_kv = c.heads_kv;
  f.seq_q = c.seq_q;
  f.seq_k = c.seq_k;
  f.head_dim = d;
  f.q_strides = f.o_strides = qo;
  f.k_strides = f.v_strides = kv;
  f.causal = c.causal;
  f.scale = c.scale;
  p.dout = dout.get();
  p.dq = dq.get();
  p.dk = dk.get();
  p.dv = dv.get();
  p.dout_strides = p.dq_strides = qo;
  p.dk_strides = p.dv_strides = dkv;
  std::size_t const ws_bytes = tessera::kernels::attention_backward_workspace_bytes(p);
  DeviceBuffer<float> ws((ws_bytes + 3) / 4);
  check(cudaMemset(ws.get(), 0xff, ws.bytes()), "cudaMemset");  // NaNs: the preprocessing must write what is read
  p.workspace = ws.get();
  p.workspace_bytes = ws_bytes;

  RefShape const s{c.batch,
                   c.heads_q,
                   c.heads_kv,
                   c.seq_q,
                   c.seq_k,
                   d,
                   c.causal != AttentionCausal::none ? 1 : 0,
                   c.causal == AttentionCausal::bottom_right ? 1 : 0,
                   tessera::kernels::attention_scale(f),
                   c.seq_q};
  unsigned const row_blocks = unsigned((rows + 127) / 128);
  ref_forward<T><<<row_blocks, 128>>>(f, s, lse.get());
  check(cudaGetLastError(), "ref_forward");
  constexpr int BN = 128, BM = 64;
  DeviceBuffer<float> dbg(4 * BN * BM);
  if (debug) {
    tessera::kernels::check_attention_backward_problem("attention_backward_sm90 (debug)", p);
    check(cudaMemset(dbg.get(), 0xff, dbg.bytes()), "cudaMemset");
    using tessera::kernels::AttentionBwdSm90Config;
    using tessera::kernels::detail::attention_bwd_sm90_launch;
    check(d == 64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, true>, T>(p, nullptr, dbg.get())
                  : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, true>, T>(p, nullptr, dbg.get()),
          "attention_bwd_sm90_launch (debug)");
  } else if (first_step) {
    tessera::kernels::check_attention_backward_problem("attention_backward_sm90 (first step)", p);
    using tessera::kernels::AttentionBwdSm90Config;
    using tessera::kernels::detail::attention_bwd_sm90_launch;
    check(d == 64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, false, 2, false>, T>(p, nullptr)
                  : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, true, 2, false>, T>(p, nullptr),
          "attention_bwd_sm90_launch (first step)");
  } else if (atomics) {
    tessera::kernels::check_attention_backward_problem("attention_backward_sm90 (atomics)", p);
    using tessera::kernels::AttentionBwdSm90Config;
    using tessera::kernels::detail::attention_bwd_sm90_launch;
    check(d == 64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, false, 2, true, false>, T>(
                        p, nullptr)
                  : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, false, 2, true, false>, T>(
                        p, nullptr),
          "attention_bwd_sm90_launch (atomics)");
  } else {
    check(tessera::kernels::attention_backward_sm90(p, nullptr), "attention_backward_sm90");
  }
  check(cudaGetLastError(), "attention_backward_sm90");

  std::size_t const pairs = rows * std::size_t(c.seq_k);
  DeviceBuffer<float> prob(pairs), ds(pairs), mag(pairs), raw_s(pairs), raw_dp(pairs);
  std::size_t const n_dq = rows * std::size_t(d), n_dk = std::size_t(c.batch) * c.heads_kv * c.seq_k * d;
  DeviceBuffer<float> ref_q(3 * n_dq), ref_k(3 * n_dk), ref_v(3 * n_dk);
  ref_probs<T><<<row_blocks, 128>>>(p, s, lse.get(), prob.get(), ds.get(), mag.get(), raw_s.get(), raw_dp.get());
  ref_dq<T><<<unsigned((n_dq + 127) / 128), 128>>>(p, s, ds.get(), mag.get(), ref_q.get());
  ref_dkdv<T><<<unsigned((n_dk + 127) / 128), 128>>>(p, s, prob.get(), ds.get(), mag.get(), ref_k.get(), ref_v.get());
  check(cudaGetLastError(), "reference");
  check(cudaDeviceSynchronize(), "synchronize");

  std::string const name = c.name();
  if (debug) {  // the tile: S^T, dP^T, P^T, dS^T [key][query] against the reference's [query][key] of head 0
    std::vector<float> const got = dbg.download(), rs = raw_s.download(), rdp = raw_dp.download(), rp = prob.download(),
                             rds = ds.download();
    char const* names[4] = {"S^T", "dP^T", "P^T", "dS^T"};
    std::string report;
    int bad = 0;
    for (int what = 0; what < 4; ++what)
      for (int key = 0; key < BN; ++key)
        for (int qi = 0; qi < BM; ++qi) {
          bool const inside = key < c.seq_k && qi < c.seq_q;
          if (!inside) continue;  // past the sequences: not compared (masked S^T, zero P^T)
          std::size_t const at = std::size_t(qi) * c.seq_k + key;
          float const want = what == 0 ? rs[at] : what == 1 ? rdp[at] : what == 2 ? rp[at] : rds[at];
          float const have = got[std::size_t(what) * BN * BM + std::size_t(key) * BM + qi];
          float const tol = what == 2 ? 1e-5f + 1e-4f * std::fabs(want) : 1e-3f + 1e-3f * std::fabs(want);
          bool const ok =
              std::isinf(want) ? (std::isinf(have) && (have < 0) == (want < 0)) : std::fabs(have - want) <= tol;
          if (!ok && ++bad <= 6) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "\n  %s[key %d, query %d] = %.6g, reference %.6g", names[what], key, qi,
                          double(have), double(want));
            report += buf;
          }
        }
    if (bad > 0) return name + ": the debug tile differs in " + std::to_string(bad) + " entries" + report;
  }
  auto const kv_at = [&](int b, int h, int i) { return b * dkv.batch + h * dkv.head + i * dkv.seq; };
  auto const q_at = [&](int b, int h, int i) { return b * qo.batch + h * qo.head + i * qo.seq; };
  std::string err = compare<T>("dV", dv.download(), ref_v.download(), c.heads_kv, c.seq_k, d, kv_at, c.batch, name);
  if (err.empty())
    err = compare<T>("dK", dk.download(), ref_k.download(), c.heads_kv, c.seq_k, d, kv_at, c.batch, name);
  if (err.empty()) err = compare<T>("dQ", dq.download(), ref_q.download(), c.heads_q, c.seq_q, d, q_at, c.batch, name);
  return err;
}

template <class T>
void sweep(int head_dim, bool first_step = false, bool atomics = false) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (auto [sq, sk] : seq_pairs())
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right})
      for (int ratio : {1, 4}) {
        int const batch = sq >= 1000 || sk >= 1000 ? 1 : 2;
        Case const c{batch, 4, 4 / ratio, sq, sk, head_dim, causal};
        std::string const err = run_case<T>(c, false, first_step, atomics);
        ASSERT_EQ(err, "") << c.name();
      }
}

TEST(AttentionBackwardSm90Sweep, Bf16D64) { sweep<bfloat16_t>(64); }
TEST(AttentionBackwardSm90Sweep, Bf16D128) { sweep<bfloat16_t>(128); }
TEST(AttentionBackwardSm90Sweep, Fp16D64) { sweep<half_t>(64); }
TEST(AttentionBackwardSm90Sweep, Fp16D128) { sweep<half_t>(128); }
// The step before the lean one (Lean = false: descriptors and offsets recomputed each step; the debug
// dumps use it): the same sweep, then the small and long cases below.
TEST(AttentionBackwardSm90FirstStepSweep, Bf16D64) { sweep<bfloat16_t>(64, true); }
TEST(AttentionBackwardSm90FirstStepSweep, Bf16D128) { sweep<bfloat16_t>(128, true); }
TEST(AttentionBackwardSm90FirstStepSweep, Fp16D64) { sweep<half_t>(64, true); }
TEST(AttentionBackwardSm90FirstStepSweep, Fp16D128) { sweep<half_t>(128, true); }
// The lean step with the dQ atomics (DqTma = false; the default before the TMA reduce-add).
TEST(AttentionBackwardSm90AtomicsSweep, Bf16D64) { sweep<bfloat16_t>(64, false, true); }
TEST(AttentionBackwardSm90AtomicsSweep, Bf16D128) { sweep<bfloat16_t>(128, false, true); }

// Small cases (the sanitizers' filter: *Small*): both head_dims, masks, GQA 2, a chosen scale;
// the default configuration (the lean step, dQ by TMA reduce-add), then the first step, then the
// lean step with the dQ atomics.
TEST(AttentionBackwardSm90, SmallCases) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (int path : {0, 1, 2})
    for (int d : {64, 128})
      for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::bottom_right}) {
        Case const c{1, 2, 1, 70, 150, d, causal, 0.3f};
        std::string const err = run_case<bfloat16_t>(c, false, path == 1, path == 2);
        ASSERT_EQ(err, "") << c.name() << (path == 1 ? " (first step)" : path == 2 ? " (atomics)" : "");
      }
}

// The debug kernel's dump of block 0's first step (S^T, dP^T, P^T, dS^T of keys 0..127 x queries
// 0..63), then its gradients: the products one by one, for a failure of the sweep. Bottom-right
// causal with seq_k > seq_q: block 0's first m-block is 0, and the mask cuts the tile.
TEST(AttentionBackwardSm90, DebugTile) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (int d : {64, 128})
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::bottom_right}) {
      Case const c{1, 2, 1, 100, 150, d, causal};
      std::string const err = run_case<bfloat16_t>(c, true);
      ASSERT_EQ(err, "") << c.name();
    }
}

// Multi-query attention (8 query heads on one key/value head) and a longer causal case of many key
// and query blocks.
TEST(AttentionBackwardSm90, MultiQueryAndLong) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (Case const& c :
       {Case{2, 8, 1, 300, 257, 128, AttentionCausal::none}, Case{1, 8, 1, 129, 300, 64, AttentionCausal::bottom_right},
        Case{1, 2, 2, 1024, 1024, 128, AttentionCausal::top_left},
        Case{1, 2, 1, 777, 1500, 64, AttentionCausal::top_left}}) {
    for (bool first_step : {false, true}) {
      std::string const err = run_case<bfloat16_t>(c, false, first_step);
      ASSERT_EQ(err, "") << c.name() << (first_step ? " (first step)" : "");
    }
  }
}

// ---- variable-length batches -------------------------------------------------------------------

// A varlen batch: sequences of lens_q[b] queries and lens_k[b] keys packed into Q, O, dO, dQ
// (total_q, heads_q, d) and dK, dV (total_k, heads_kv, d), rows padded by 8 elements, K, V (total_k,
// heads_kv, d); O and LSE ((heads_q, total_q)) from the reference forward run on each sequence
// alone; one backward over the batch; each sequence's gradients compared with the reference run on
// it alone (a fixed-length problem over its rows; empty sequences: their keys' dK = dV = 0, their
// queries' dQ = 0), dV, dK, dQ in that order. Returns "" or the first mismatch. first_step (bf16
// only): the step before the lean one (Lean = false, overlapped for head_dim 128); atomics (bf16
// only): the lean step with the dQ atomics (DqTma = false).
template <class T>
std::string run_varlen_case(std::vector<int> const& lens_q, std::vector<int> const& lens_k, int heads_q, int heads_kv,
                            int d, AttentionCausal causal, bool first_step = false, bool atomics = false) {
  int const batch = int(lens_q.size());
  std::vector<int> cu_q(1, 0), cu_k(1, 0);
  for (int b = 0; b < batch; ++b) {
    cu_q.push_back(cu_q.back() + lens_q[std::size_t(b)]);
    cu_k.push_back(cu_k.back() + lens_k[std::size_t(b)]);
  }
  int const total_q = cu_q.back(), total_k = cu_k.back();
  AttentionStrides const qo{0, d + 8, (long long)heads_q * (d + 8), 1};
  AttentionStrides const kv{0, d, (long long)heads_kv * d, 1};
  AttentionStrides const dkv{0, d + 8, (long long)heads_kv * (d + 8), 1};
  std::size_t const nq = std::size_t(total_q) * qo.seq, nk = std::size_t(total_k) * kv.seq;
  std::size_t const ndk = std::size_t(total_k) * dkv.seq;
  std::uint32_t x = 0x85ebca6bu ^ std::uint32_t(total_q * 131 + total_k * 7 + d);
  DeviceBuffer<T> q(nq), k(nk), v(nk), o(nq), dout(nq), dq(nq), dk(ndk), dv(ndk);
  q.upload(random_values<T>(nq, x));
  k.upload(random_values<T>(nk, x));
  v.upload(random_values<T>(nk, x));
  dout.upload(random_values<T>(nq, x));
  std::vector<T> const fill_q(nq, sentinel<T>()), fill_k(ndk, sentinel<T>());
  o.upload(fill_q);
  dq.upload(fill_q);
  dk.upload(fill_k);
  dv.upload(fill_k);
  DeviceBuffer<float> lse(std::size_t(heads_q) * total_q);
  DeviceBuffer<int> dcu_q(cu_q.size()), dcu_k(cu_k.size());
  dcu_q.upload(cu_q);
  dcu_k.upload(cu_k);

  AttentionBackwardProblem<T> p;
  AttentionProblem<T>& f = p.fwd;
  f.q = q.get();
  f.k = k.get();
  f.v = v.get();
  f.o = o.get();
  f.lse = lse.get();
  f.batch = batch;
  f.heads_q = heads_q;
  f.heads_kv = heads_kv;
  f.seq_q = std::max(1, *std::max_element(lens_q.begin(), lens_q.end()));
  f.seq_k = std::max(1, *std::max_element(lens_k.begin(), lens_k.end()));
  f.head_dim = d;
  f.q_strides = f.o_strides = qo;
  f.k_strides = f.v_strides = kv;
  f.causal = causal;
  f.cu_seqlens_q = dcu_q.get();
  f.cu_seqlens_k = dcu_k.get();
  f.total_q = total_q;
  f.total_k = total_k;
  p.dout = dout.get();
  p.dq = dq.get();
  p.dk = dk.get();
  p.dv = dv.get();
  p.dout_strides = p.dq_strides = qo;
  p.dk_strides = p.dv_strides = dkv;
  std::size_t const ws_bytes = tessera::kernels::attention_backward_workspace_bytes(p);
  DeviceBuffer<float> ws((ws_bytes + 3) / 4);
  check(cudaMemset(ws.get(), 0xff, ws.bytes()), "cudaMemset");
  p.workspace = ws.get();
  p.workspace_bytes = ws_bytes;
  float const scale = tessera::kernels::attention_scale(f);

  // sequence b as a fixed-length problem of one batch over its rows (pointers at its first row)
  auto const view = [&](int b) {
    AttentionBackwardProblem<T> one = p;
    long long const r0 = cu_q[std::size_t(b)], k0 = cu_k[std::size_t(b)];
    one.fwd.q = f.q + r0 * qo.seq;
    one.fwd.o = f.o + r0 * qo.seq;
    one.fwd.k = f.k + k0 * kv.seq;
    one.fwd.v = f.v + k0 * kv.seq;
    one.fwd.lse = f.lse + r0;
    one.fwd.cu_seqlens_q = one.fwd.cu_seqlens_k = nullptr;
    one.fwd.batch = 1;
    one.fwd.seq_q = lens_q[std::size_t(b)];
    one.fwd.seq_k = lens_k[std::size_t(b)];
    one.dout = p.dout + r0 * qo.seq;
    RefShape const s{1,
                     heads_q,
                     heads_kv,
                     one.fwd.seq_q,
                     one.fwd.seq_k,
                     d,
                     causal != AttentionCausal::none ? 1 : 0,
                     causal == AttentionCausal::bottom_right ? 1 : 0,
                     scale,
                     total_q};
    return std::make_pair(one, s);
  };
  for (int b = 0; b < batch; ++b) {
    auto const [one, s] = view(b);
    long long const rows = (long long)heads_q * s.seq_q;
    if (rows > 0) ref_forward<T><<<unsigned((rows + 127) / 128), 128>>>(one.fwd, s, one.fwd.lse);
  }
  check(cudaGetLastError(), "ref_forward");
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    if (first_step) {
      tessera::kernels::check_attention_backward_problem("attention_backward_sm90 (varlen, first step)", p);
      using tessera::kernels::AttentionBwdSm90Config;
      using tessera::kernels::detail::attention_bwd_sm90_launch;
      check(d == 64
                ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, true, false, 2, false>, T>(p, nullptr)
                : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, true, true, 2, false>, T>(p, nullptr),
            "attention_bwd_sm90_launch (varlen, first step)");
    } else if (atomics) {
      tessera::kernels::check_attention_backward_problem("attention_backward_sm90 (varlen, atomics)", p);
      using tessera::kernels::AttentionBwdSm90Config;
      using tessera::kernels::detail::attention_bwd_sm90_launch;
      check(d == 64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, true, false, 2, true, false>, T>(
                          p, nullptr)
                    : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, true, false, 2, true, false>, T>(
                          p, nullptr),
            "attention_bwd_sm90_launch (varlen, atomics)");
    }
  }
  if (!first_step && !atomics)
    check(tessera::kernels::attention_backward_sm90(p, nullptr), "attention_backward_sm90 (varlen)");
  check(cudaGetLastError(), "attention_backward_sm90 (varlen)");
  check(cudaDeviceSynchronize(), "synchronize");
  std::vector<T> const got_q = dq.download(), got_k = dk.download(), got_v = dv.download();

  std::string const name = "varlen batch " + std::to_string(batch) + " hq" + std::to_string(heads_q) + " hkv" +
                           std::to_string(heads_kv) + " d" + std::to_string(d) + " causal " +
                           std::to_string(int(causal));
  for (int b = 0; b < batch; ++b) {
    auto const [one, s] = view(b);
    std::size_t const rows = std::size_t(heads_q) * s.seq_q, pairs = rows * std::size_t(s.seq_k);
    DeviceBuffer<float> prob(pairs), ds(pairs), mag(pairs), raw_s(pairs), raw_dp(pairs);
    std::size_t const n_dq = rows * std::size_t(d), n_dk = std::size_t(heads_kv) * s.seq_k * d;
    DeviceBuffer<float> ref_q(3 * n_dq), ref_k(3 * n_dk), ref_v(3 * n_dk);
    if (rows > 0) {
      ref_probs<T><<<unsigned((rows + 127) / 128), 128>>>(one, s, one.fwd.lse, prob.get(), ds.get(), mag.get(),
                                                          raw_s.get(), raw_dp.get());
      ref_dq<T><<<unsigned((n_dq + 127) / 128), 128>>>(one, s, ds.get(), mag.get(), ref_q.get());
    }
    if (n_dk > 0)
      ref_dkdv<T>
          <<<unsigned((n_dk + 127) / 128), 128>>>(one, s, prob.get(), ds.get(), mag.get(), ref_k.get(), ref_v.get());
    check(cudaGetLastError(), "reference (varlen)");
    check(cudaDeviceSynchronize(), "synchronize");
    long long const r0 = cu_q[std::size_t(b)], k0 = cu_k[std::size_t(b)];
    auto const kv_at = [&](int, int h, int i) { return (k0 + i) * dkv.seq + h * dkv.head; };
    auto const q_at = [&](int, int h, int i) { return (r0 + i) * qo.seq + h * qo.head; };
    std::string const where = name + ", sequence " + std::to_string(b) + " (" + std::to_string(s.seq_q) + " queries, " +
                              std::to_string(s.seq_k) + " keys)";
    std::string err = compare<T>("dV", got_v, ref_v.download(), heads_kv, s.seq_k, d, kv_at, 1, where);
    if (err.empty()) err = compare<T>("dK", got_k, ref_k.download(), heads_kv, s.seq_k, d, kv_at, 1, where);
    if (err.empty()) err = compare<T>("dQ", got_q, ref_q.download(), heads_q, s.seq_q, d, q_at, 1, where);
    if (!err.empty()) return err;
  }
  return "";
}

TEST(AttentionBackwardSm90Varlen, EmptyAndRaggedSequences) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (int d : {64, 128})
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right}) {
      std::string err = run_varlen_case<bfloat16_t>({0, 5, 130, 64, 1}, {3, 0, 200, 64, 17}, 4, 1, d, causal);
      ASSERT_EQ(err, "");
      err = run_varlen_case<bfloat16_t>({300, 17}, {129, 400}, 2, 2, d, causal);
      ASSERT_EQ(err, "");
    }
  std::string const err = run_varlen_case<half_t>({77, 0, 256}, {77, 9, 100}, 4, 2, 128, AttentionCausal::bottom_right);
  ASSERT_EQ(err, "");
}

// The same ragged batches through the first step (bf16).
TEST(AttentionBackwardSm90FirstStepVarlen, EmptyAndRaggedSequences) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (int d : {64, 128})
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::top_left, AttentionCausal::bottom_right}) {
      std::string err = run_varlen_case<bfloat16_t>({0, 5, 130, 64, 1}, {3, 0, 200, 64, 17}, 4, 1, d, causal, true);
      ASSERT_EQ(err, "") << "(first step)";
      err = run_varlen_case<bfloat16_t>({300, 17}, {129, 400}, 2, 2, d, causal, true);
      ASSERT_EQ(err, "") << "(first step)";
    }
}

// The same ragged batches through the lean step with the dQ atomics (bf16).
TEST(AttentionBackwardSm90AtomicsVarlen, EmptyAndRaggedSequences) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (int d : {64, 128})
    for (AttentionCausal causal : {AttentionCausal::none, AttentionCausal::bottom_right}) {
      std::string err =
          run_varlen_case<bfloat16_t>({0, 5, 130, 64, 1}, {3, 0, 200, 64, 17}, 4, 1, d, causal, false, true);
      ASSERT_EQ(err, "") << "(atomics)";
      err = run_varlen_case<bfloat16_t>({300, 17}, {129, 400}, 2, 2, d, causal, false, true);
      ASSERT_EQ(err, "") << "(atomics)";
    }
}

// The varlen test's features one at a time (each its own test, so that a fault names the feature):
// one sequence, two sequences (the second's rows after the first's), an empty sequence of queries,
// one of keys, a one-query tail past the last 64-row block, and a GQA group.
TEST(AttentionBackwardSm90VarlenParts, OneSequence) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(run_varlen_case<bfloat16_t>({130}, {200}, 2, 2, 64, AttentionCausal::none), "");
}
TEST(AttentionBackwardSm90VarlenParts, TwoSequences) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(run_varlen_case<bfloat16_t>({64, 64}, {64, 64}, 2, 2, 64, AttentionCausal::none), "");
}
TEST(AttentionBackwardSm90VarlenParts, EmptyQueries) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(run_varlen_case<bfloat16_t>({0, 64}, {3, 64}, 2, 2, 64, AttentionCausal::none), "");
}
TEST(AttentionBackwardSm90VarlenParts, EmptyKeys) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(run_varlen_case<bfloat16_t>({5, 64}, {0, 64}, 2, 2, 64, AttentionCausal::none), "");
}
TEST(AttentionBackwardSm90VarlenParts, ShortTail) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(run_varlen_case<bfloat16_t>({64, 1}, {64, 17}, 2, 2, 64, AttentionCausal::none), "");
}
TEST(AttentionBackwardSm90VarlenParts, GroupOfFour) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(run_varlen_case<bfloat16_t>({130, 64}, {200, 64}, 4, 1, 128, AttentionCausal::bottom_right), "");
}

// ---- the problem's checks (no GPU) ------------------------------------------------------------

AttentionBackwardProblem<bfloat16_t> valid_problem() {
  auto* const fake = reinterpret_cast<bfloat16_t*>(std::uintptr_t(1) << 20);  // aligned, never read
  AttentionBackwardProblem<bfloat16_t> p;
  AttentionProblem<bfloat16_t>& f = p.fwd;
  f.q = f.k = f.v = fake;
  f.o = fake;
  f.lse = reinterpret_cast<float*>(fake);
  f.batch = 2;
  f.heads_q = 8;
  f.heads_kv = 2;
  f.seq_q = 1000;
  f.seq_k = 300;
  f.head_dim = 128;
  f.q_strides = f.o_strides = tessera::kernels::attention_dense_strides(8, 1000, 128);
  f.k_strides = f.v_strides = tessera::kernels::attention_dense_strides(2, 300, 128);
  p.dout = p.dq = fake;
  p.dk = p.dv = fake;
  p.dout_strides = p.dq_strides = f.q_strides;
  p.dk_strides = p.dv_strides = f.k_strides;
  p.workspace = fake;
  p.workspace_bytes = tessera::kernels::attention_backward_workspace_bytes(p);
  return p;
}

std::string check_message(AttentionBackwardProblem<bfloat16_t> const& p) {
  try {
    tessera::kernels::check_attention_backward_problem("attention_backward_sm90", p);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(AttentionBackwardSm90Checks, ValidProblemPasses) {
  EXPECT_EQ(check_message(valid_problem()), "");
  EXPECT_EQ(tessera::kernels::attention_backward_workspace_bytes(valid_problem()), std::size_t(2) * 8 * 1024 * 130 * 4);
}

// The varlen workspace's rows (no GPU): each sequence's first row 16-byte aligned (TMA reads its
// LSE log2 e and D from there), and its rows with the last m-block's reach (ceil(len / 64) 64) end
// before the next sequence's first row and inside attention_backward_varlen_rows.
TEST(AttentionBackwardSm90Checks, VarlenWorkspaceRows) {
  using tessera::kernels::attention_backward_varlen_row0;
  EXPECT_EQ(attention_backward_varlen_row0(5, 1), 76);
  EXPECT_EQ(attention_backward_varlen_row0(130, 2), 268);
  EXPECT_EQ(tessera::kernels::attention_backward_varlen_rows(1000, 3), 1280);
  for (int first = 0; first < 200; ++first)
    for (int len = 0; len < 200; ++len)
      for (int b = 0; b < 3; ++b) {
        long long const r0 = attention_backward_varlen_row0(first, b);
        ASSERT_EQ(r0 % 4, 0) << first << " " << b;
        long long const reach = r0 + (len + 63) / 64 * 64;  // one past the last row a step reads
        ASSERT_LE(reach, attention_backward_varlen_row0(first + len, b + 1)) << first << " " << len << " " << b;
        ASSERT_LE(reach, tessera::kernels::attention_backward_varlen_rows(first + len, b + 1));
      }
}

TEST(AttentionBackwardSm90Checks, Messages) {
  auto p = valid_problem();
  p.fwd.head_dim = 256;
  p.fwd.q_strides = p.fwd.o_strides = p.dout_strides = p.dq_strides =
      tessera::kernels::attention_dense_strides(8, 1000, 256);
  p.fwd.k_strides = p.fwd.v_strides = p.dk_strides = p.dv_strides =
      tessera::kernels::attention_dense_strides(2, 300, 256);
  EXPECT_EQ(check_message(p),
            "attention_backward_sm90: head_dim must be 64 or 128 (got 256; the backward of head_dim 256 is not built "
            "yet)");
  p = valid_problem();
  p.fwd.lse = nullptr;
  EXPECT_EQ(check_message(p),
            "attention_backward_sm90: fwd.lse must be the forward's LSE (got null): run the forward with lse set");
  p = valid_problem();
  p.dk = nullptr;
  EXPECT_EQ(check_message(p), "attention_backward_sm90: dk must not be null");
  p = valid_problem();
  p.dq_strides.seq = 130;
  EXPECT_EQ(check_message(p),
            "attention_backward_sm90: dq's seq stride must be a positive multiple of 8 elements (16 bytes) (got 130)");
  p = valid_problem();
  p.workspace_bytes -= 4;
  EXPECT_EQ(check_message(p),
            "attention_backward_sm90: workspace_bytes must be at least attention_backward_workspace_bytes(problem) = " +
                std::to_string(p.workspace_bytes + 4) + " (got " + std::to_string(p.workspace_bytes) + ")");
  p = valid_problem();
  p.workspace = nullptr;
  EXPECT_EQ(check_message(p).rfind("attention_backward_sm90: workspace must not be null: allocate", 0), 0u);
  p = valid_problem();
  p.fwd.batch = 1;
  p.fwd.seq_q = 1 << 25;  // 2^25 padded rows x 128 floats: the lean step's 32-bit dQ offsets overflow
  p.fwd.q_strides = p.fwd.o_strides = p.dout_strides = p.dq_strides =
      tessera::kernels::attention_dense_strides(8, 1 << 25, 128);
  p.workspace_bytes = tessera::kernels::attention_backward_workspace_bytes(p);
  EXPECT_EQ(check_message(p),
            "attention_backward_sm90: too many query rows a head: the dQ accumulator's padded rows x head_dim = "
            "4294967296 floats must be < 2^32 (the seq_q of 33554432 is too long)");
  p.fwd.seq_q = (1 << 25) - 128;
  p.workspace_bytes = tessera::kernels::attention_backward_workspace_bytes(p);
  EXPECT_EQ(check_message(p), "");
  p = valid_problem();
  p.fwd.heads_kv = 3;
  EXPECT_EQ(check_message(p), "attention_backward_sm90: heads_kv must divide heads_q (got heads_q = 8, heads_kv = 3)");
}

}  // namespace
