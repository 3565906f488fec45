// tessera-attention-backward-bench: attention_backward_sm90 (kernels/attention/backward.cuh) timed on
// the FlashAttention-3 sweep (bf16, batch x seq = 16k tokens, heads x head_dim = 2048; head_dim 64
// and 128, seq 1k, 4k, 16k, causal and not), each shape verified first. cuDNN's backward is timed
// by bench/attention/backward_cudnn.py (PyTorch SDPA, cuDNN backend) on the same shapes, which reads
// this program's output and prints the ratios; both run in one device call (bench/attention/
// README in docs/attention.md, "Backward").
//
// Per shape: Q, K, V, dO uniform in [-1, 1]; O and LSE from attention_forward_sm90; one backward,
// then sampled rows checked against an fp32 host recomputation from the same inputs (dQ of 4 query
// rows, dK and dV of 4 key rows, of (batch 0, head 0); error bound as tests/kernels/
// attention_backward.cu's, here reported as the worst |error| / bound, failing above 1); then bursts:
// `--warmup` backward passes, `--iters` timed back to back with CUDA events around each, the median
// of `--repeats` bursts after `--rest` ms idle. TFLOP/s counts the backward as 2.5 times the
// forward's 4 b h s^2 d (halved for causal). One line per shape:
//   bwd bf16 d=128 seq=4096 causal=0 b=4 h=16 ms=1.234 tflops=456.7 verify=0.12
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "common.cuh"
#include "tessera/kernels/attention/backward.cuh"

namespace {

using tessera::bfloat16_t;
using tessera::bench::attention::ck;
using tessera::bench::attention::Dev;
using tessera::bench::attention::time_ms;
using tessera::kernels::AttentionBackwardProblem;
using tessera::kernels::AttentionCausal;
using tessera::kernels::AttentionProblem;

// Worst |got - ref| / bound over sampled rows of (batch 0, head 0) (contiguous (b, h, s, d) tensors).
double verify(AttentionBackwardProblem<bfloat16_t> const& p, Dev<bfloat16_t> const& q, Dev<bfloat16_t> const& k,
              Dev<bfloat16_t> const& v, Dev<bfloat16_t> const& o, Dev<bfloat16_t> const& dout, Dev<float> const& lse,
              Dev<bfloat16_t> const& dq, Dev<bfloat16_t> const& dk, Dev<bfloat16_t> const& dv) {
  AttentionProblem<bfloat16_t> const& f = p.fwd;
  int const sq = f.seq_q, sk = f.seq_k, d = f.head_dim;
  auto slice = [&](Dev<bfloat16_t> const& t, int seq) {  // (batch 0, head 0): the first seq d elements
    std::vector<bfloat16_t> h(std::size_t(seq) * d);
    ck(cudaMemcpy(h.data(), t.p, h.size() * sizeof(bfloat16_t), cudaMemcpyDeviceToHost), "download");
    std::vector<float> r(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) r[i] = float(h[i]);
    return r;
  };
  std::vector<float> const Q = slice(q, sq), K = slice(k, sk), V = slice(v, sk), O = slice(o, sq), dO = slice(dout, sq),
                           gQ = slice(dq, sq), gK = slice(dk, sk), gV = slice(dv, sk);
  std::vector<float> L(static_cast<std::size_t>(sq));
  ck(cudaMemcpy(L.data(), lse.p, L.size() * sizeof(float), cudaMemcpyDeviceToHost), "download");
  float const scale = tessera::kernels::attention_scale(f);
  bool const causal = f.causal != AttentionCausal::none;
  int const diag = f.causal == AttentionCausal::bottom_right ? sk - sq : 0;
  auto dot = [&](float const* a, float const* b) {
    double s = 0;
    for (int x = 0; x < d; ++x) s += double(a[x]) * b[x];
    return s;
  };
  auto prob = [&](int i, int j) {
    if (causal && j > i + diag) return 0.0;
    return std::isinf(L[std::size_t(i)])
               ? 0.0
               : std::exp(scale * dot(&Q[std::size_t(i) * d], &K[std::size_t(j) * d]) - L[std::size_t(i)]);
  };
  auto dsum = [&](int i) { return dot(&dO[std::size_t(i) * d], &O[std::size_t(i) * d]); };
  double worst = 0;
  auto judge = [&](double got, double ref, double mag) {
    double const tol = mag / 256 + std::fabs(ref) / 256 + 1e-3;
    worst = std::max(worst, std::fabs(got - ref) / tol);
  };
  for (int i : {0, sq / 3, sq / 2 + 1, sq - 1}) {  // dQ rows
    double const Di = dsum(i);
    std::vector<double> acc(std::size_t(d), 0.0), mag(std::size_t(d), 0.0);
    for (int j = 0; j < sk; ++j) {
      double const pij = prob(i, j);
      if (pij == 0) continue;
      double const ds = pij * (dot(&dO[std::size_t(i) * d], &V[std::size_t(j) * d]) - Di);
      for (int x = 0; x < d; ++x) {
        acc[std::size_t(x)] += ds * K[std::size_t(j) * d + x];
        mag[std::size_t(x)] += std::fabs(ds * K[std::size_t(j) * d + x]);
      }
    }
    for (int x = 0; x < d; ++x)
      judge(gQ[std::size_t(i) * d + x], scale * acc[std::size_t(x)], scale * mag[std::size_t(x)]);
  }
  std::vector<double> D(static_cast<std::size_t>(sq));
  for (int i = 0; i < sq; ++i) D[std::size_t(i)] = dsum(i);
  for (int j : {0, sk / 3, sk / 2 + 1, sk - 1}) {  // dK, dV rows (group 1 in the sweep: head 0 only)
    std::vector<double> ak(std::size_t(d), 0.0), mk(std::size_t(d), 0.0), av(std::size_t(d), 0.0),
        mv(std::size_t(d), 0.0);
    for (int i = 0; i < sq; ++i) {
      double const pij = prob(i, j);
      if (pij == 0) continue;
      double const ds = pij * (dot(&dO[std::size_t(i) * d], &V[std::size_t(j) * d]) - D[std::size_t(i)]);
      for (int x = 0; x < d; ++x) {
        ak[std::size_t(x)] += ds * Q[std::size_t(i) * d + x];
        mk[std::size_t(x)] += std::fabs(ds * Q[std::size_t(i) * d + x]);
        av[std::size_t(x)] += pij * dO[std::size_t(i) * d + x];
        mv[std::size_t(x)] += std::fabs(pij * dO[std::size_t(i) * d + x]);
      }
    }
    for (int x = 0; x < d; ++x) {
      judge(gK[std::size_t(j) * d + x], scale * ak[std::size_t(x)], scale * mk[std::size_t(x)]);
      judge(gV[std::size_t(j) * d + x], av[std::size_t(x)], mv[std::size_t(x)]);
    }
  }
  return worst;
}

__global__ void fill(bfloat16_t* p, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint32_t x = std::uint32_t(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    p[i] = bfloat16_t(float(x % 2001u) / 1000.0f - 1.0f);
  }
}

// The backward of `p` by configuration `variant` (--variant; AttentionBwdSm90Config's choices
// compared on the device): 0 attention_backward_sm90's (the lean step, plain order, dQ by TMA
// reduce-add); the step before the lean one (Lean = false): 1 plain order, 2 overlapped, two stages
// each, 3 overlapped, three stages; the lean step with the dQ atomics (DqTma = false: the default
// before the TMA reduce-add): 4 plain order, 5 overlapped; 6 the lean step, plain order, dQ by TMA
// reduce-add (DqTma = true: = 0, through the configuration).
cudaError_t backward(AttentionBackwardProblem<bfloat16_t> const& p, int variant) {
  using tessera::kernels::AttentionBwdSm90Config;
  using tessera::kernels::detail::attention_bwd_sm90_launch;
  using T = bfloat16_t;
  bool const d64 = p.fwd.head_dim == 64;
  switch (variant) {
    case 1:
      return d64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, false, 2, false>, T>(p, nullptr)
                 : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, false, 2, false>, T>(p, nullptr);
    case 2:
      return d64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, true, 2, false>, T>(p, nullptr)
                 : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, true, 2, false>, T>(p, nullptr);
    case 3:
      return d64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, true, 3, false>, T>(p, nullptr)
                 : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, true, 3, false>, T>(p, nullptr);
    case 4:
      return d64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, false, 2, true, false>, T>(
                       p, nullptr)
                 : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, false, 2, true, false>, T>(
                       p, nullptr);
    case 5:
      return d64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, true, 2, true, false>, T>(p,
                                                                                                                nullptr)
                 : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, true, 2, true, false>, T>(
                       p, nullptr);
    case 6:
      return d64 ? attention_bwd_sm90_launch<AttentionBwdSm90Config<64, false, false, false, 2, true, true>, T>(p,
                                                                                                                nullptr)
                 : attention_bwd_sm90_launch<AttentionBwdSm90Config<128, false, false, false, 2, true, true>, T>(
                       p, nullptr);
    default: return tessera::kernels::attention_backward_sm90(p, nullptr);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int warmup = 3, iters = 10, repeats = 3, rest_ms = 200, variant = 0;
  std::vector<int> dims{64, 128}, seqs{1024, 4096, 16384};
  for (int a = 1; a + 1 < argc; a += 2) {
    std::string const k = argv[a];
    int const v = std::atoi(argv[a + 1]);
    if (k == "--warmup") warmup = v;
    else if (k == "--iters") iters = v;
    else if (k == "--repeats") repeats = v;
    else if (k == "--rest") rest_ms = v;
    else if (k == "--head-dim") dims = {v};
    else if (k == "--seq") seqs = {v};
    else if (k == "--variant") variant = v;
  }
  for (int d : dims)
    for (int seq : seqs)
      for (int causal : {0, 1}) {
        int const batch = 16384 / seq, heads = 2048 / d;
        std::size_t const n = std::size_t(batch) * heads * seq * d;
        Dev<bfloat16_t> q(n), k(n), v(n), o(n), dout(n), dq(n), dk(n), dv(n);
        Dev<float> lse(std::size_t(batch) * heads * seq);
        fill<<<1024, 256>>>(q.p, n, 1u);
        fill<<<1024, 256>>>(k.p, n, 2u);
        fill<<<1024, 256>>>(v.p, n, 3u);
        fill<<<1024, 256>>>(dout.p, n, 4u);
        AttentionBackwardProblem<bfloat16_t> p;
        AttentionProblem<bfloat16_t>& f = p.fwd;
        f.q = q.p;
        f.k = k.p;
        f.v = v.p;
        f.o = o.p;
        f.lse = lse.p;
        f.batch = batch;
        f.heads_q = f.heads_kv = heads;
        f.seq_q = f.seq_k = seq;
        f.head_dim = d;
        f.q_strides = f.k_strides = f.v_strides = f.o_strides =
            tessera::kernels::attention_dense_strides(heads, seq, d);
        f.causal = causal ? AttentionCausal::bottom_right : AttentionCausal::none;
        p.dout = dout.p;
        p.dq = dq.p;
        p.dk = dk.p;
        p.dv = dv.p;
        p.dout_strides = p.dq_strides = p.dk_strides = p.dv_strides = f.q_strides;
        p.workspace_bytes = tessera::kernels::attention_backward_workspace_bytes(p);
        Dev<unsigned char> ws(p.workspace_bytes);
        p.workspace = ws.p;
        ck(tessera::kernels::attention_forward_sm90(f, nullptr), "attention_forward_sm90");
        ck(backward(p, variant), "attention_backward_sm90");
        ck(cudaDeviceSynchronize(), "backward");
        double const ver = verify(p, q, k, v, o, dout, lse, dq, dk, dv);
        double const ms = time_ms([&] { return backward(p, variant); }, warmup, iters, repeats, rest_ms);
        double const flops = 2.5 * 4.0 * batch * heads * double(seq) * seq * d / (causal ? 2 : 1);
        std::printf("bwd bf16 d=%d seq=%d causal=%d b=%d h=%d ms=%.4f tflops=%.1f verify=%.3g variant=%d%s\n", d, seq,
                    causal, batch, heads, ms, flops / (ms * 1e-3) / 1e12, ver, variant, ver <= 1.0 ? "" : " FAILED");
        std::fflush(stdout);
      }
  return 0;
}
