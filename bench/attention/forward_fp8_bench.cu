// tessera-attention-forward-fp8-bench: attention_forward_fp8_sm90 (kernels/attention/forward_fp8.cuh)
// and the bf16 forward attention_forward_sm90 (forward.cuh) timed on the same shapes, the
// FlashAttention-3 sweep (batch x seq = 16k tokens, heads x head_dim = 2048; head_dim 128 and 256,
// seq 1k, 4k, 16k, causal (bottom-right) and not), each verified first.
//
// Per shape: Q, K, V uniform in [-1, 1] (bf16), and their e4m3 copies with per-tensor descales
// (e4m3(448 x), descale 1/448); one call of each, then sampled rows of (batch 0, head 0) checked
// against a double-precision host recomputation: fp8 against the dequantized e4m3 inputs with the
// bound of tests/kernels/attention_forward_fp8.cu (reported as the worst |error| / bound), bf16
// against the bf16 inputs with the bf16 test's 1e-2 (reported as |error| / 1e-2); above 1 the line
// says FAILED. Then bursts: `--warmup` calls, `--iters` timed back to back with CUDA events around
// each, the median of `--repeats` bursts after `--rest` ms idle. fp8 is timed whole (the transposing
// pass of V and the kernel: what a caller pays) and the kernel alone (fp8_kernel). TFLOP/s counts
// 4 b h s^2 d (halved for causal). One line per shape and kind:
//   fwd fp8 d=128 seq=4096 causal=0 b=4 h=16 ms=0.321 tflops=856.2 verify=0.12
//   fwd fp8_kernel ...   fwd bf16 ...   and `ratio fp8/bf16 d=128 seq=4096 causal=0 1.52`
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common.cuh"
#include "tessera/kernels/attention/forward_fp8.cuh"

namespace {

using tessera::bfloat16_t;
using tessera::float_e4m3_t;
using tessera::bench::attention::ck;
using tessera::bench::attention::Dev;
using tessera::bench::attention::time_ms;
using tessera::kernels::AttentionCausal;
using tessera::kernels::AttentionFp8Problem;
using tessera::kernels::AttentionFp8ScaleKind;
using tessera::kernels::AttentionProblem;

// x uniform in [-1, 1] from (seed, index); bf16 and its e4m3(448 x) copy.
__global__ void fill(bfloat16_t* b, float_e4m3_t* e, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += gridDim.x * std::size_t(blockDim.x)) {
    std::uint32_t h = std::uint32_t(i) * 2654435761u ^ seed * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    float const x = float(int(h % 2001u) - 1000) / 1000.0f;
    b[i] = bfloat16_t(x);
    e[i] = float_e4m3_t(448.0f * x);
  }
}

// Worst |error| / bound over sampled query rows of (batch 0, head 0) (contiguous (b, h, s, d)).
// fp8: inputs e4m3 x descale, the bound of the fp8 test; bf16: the bf16 inputs, bound 1e-2.
double verify(bool fp8, int seq, int d, bool causal, float scale, Dev<bfloat16_t> const& qb, Dev<bfloat16_t> const& kb,
              Dev<bfloat16_t> const& vb, Dev<float_e4m3_t> const& q8, Dev<float_e4m3_t> const& k8,
              Dev<float_e4m3_t> const& v8, Dev<bfloat16_t> const& o) {
  std::size_t const n = std::size_t(seq) * d;
  std::vector<double> Q(n), K(n), V(n);
  double const ds = fp8 ? 1.0 / 448.0 : 1.0;
  if (fp8) {
    auto const a = q8.first(n), b = k8.first(n), c = v8.first(n);
    for (std::size_t i = 0; i < n; ++i) {
      Q[i] = ds * double(float(a[i]));
      K[i] = ds * double(float(b[i]));
      V[i] = ds * double(float(c[i]));
    }
  } else {
    auto const a = qb.first(n), b = kb.first(n), c = vb.first(n);
    for (std::size_t i = 0; i < n; ++i) {
      Q[i] = double(float(a[i]));
      K[i] = double(float(b[i]));
      V[i] = double(float(c[i]));
    }
  }
  std::vector<bfloat16_t> const O = o.first(n);
  double worst = 0.0;
  for (int i : {0, 1, seq / 3, seq / 2 + 7, seq - 1}) {
    int const keys = causal ? i + 1 : seq;
    std::vector<double> s(static_cast<std::size_t>(keys));
    double mx = -INFINITY, e_max = 0.0;
    for (int j = 0; j < keys; ++j) {
      double acc = 0, m = 0;
      for (int x = 0; x < d; ++x) {
        double const pr = Q[std::size_t(i) * d + x] * K[std::size_t(j) * d + x];
        acc += pr;
        m += std::fabs(pr);
      }
      s[std::size_t(j)] = scale * acc;
      e_max = std::max(e_max, 0x1p-8 * scale * m);
      mx = std::max(mx, s[std::size_t(j)]);
    }
    double sum = 0;
    for (int j = 0; j < keys; ++j) sum += std::exp(s[std::size_t(j)] - mx);
    double const grow = std::exp(2.0 * e_max) * (1.0 + 0x1p-4) * (1.0 + 0x1p-8) - 1.0;
    for (int x = 0; x < d; ++x) {
      double acc = 0, a = 0, vmax = 0;
      for (int j = 0; j < keys; ++j) {
        double const w = std::exp(s[std::size_t(j)] - mx) / sum, v = V[std::size_t(j) * d + x];
        acc += w * v;
        a += w * std::fabs(v);
        vmax = std::max(vmax, std::fabs(v));
      }
      double const b = a * grow + 0x1p-18 * keys * vmax + 1e-5 * a + 1e-6;
      double const bound = fp8 ? (1.0 + 0x1p-8) * b + 0x1p-8 * std::fabs(acc) : 1e-2;
      worst = std::max(worst, std::fabs(double(float(O[std::size_t(i) * d + x])) - acc) / bound);
    }
  }
  return worst;
}

// The kernel alone (V's transposed copy already in the workspace): the launcher's configuration.
cudaError_t fp8_kernel(AttentionFp8Problem const& p) {
  using namespace tessera::kernels;
  using detail::attention_fp8_sm90_launch;
  bool const persistent = attention_sm90_persistent(p.seq_k);
  if (p.head_dim == 128)
    return persistent ? attention_fp8_sm90_launch<AttentionFp8Sm90Config<128, true, true>>(p, nullptr)
                      : attention_fp8_sm90_launch<AttentionFp8Sm90Config<128, true>>(p, nullptr);
  return persistent ? attention_fp8_sm90_launch<AttentionFp8Sm90Config<256, false, true>>(p, nullptr)
                    : attention_fp8_sm90_launch<AttentionFp8Sm90Config<256>>(p, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  int warmup = 3, iters = 10, repeats = 3, rest_ms = 200;
  std::vector<int> dims{128, 256}, seqs{1024, 4096, 16384};
  for (int a = 1; a + 1 < argc; a += 2) {
    std::string const k = argv[a];
    int const v = std::atoi(argv[a + 1]);
    if (k == "--warmup") warmup = v;
    else if (k == "--iters") iters = v;
    else if (k == "--repeats") repeats = v;
    else if (k == "--rest") rest_ms = v;
    else if (k == "--head-dim") dims = {v};
    else if (k == "--seq") seqs = {v};
  }
  for (int d : dims)
    for (int seq : seqs)
      for (int causal : {0, 1}) {
        int const batch = 16384 / seq, heads = 2048 / d;
        std::size_t const n = std::size_t(batch) * heads * seq * d;
        Dev<bfloat16_t> qb(n), kb(n), vb(n), o8(n), ob(n);
        Dev<float_e4m3_t> q8(n), k8(n), v8(n);
        Dev<float> lse(std::size_t(batch) * heads * seq), descale(1);
        float const inv448 = 1.0f / 448.0f;
        ck(cudaMemcpy(descale.p, &inv448, sizeof(float), cudaMemcpyHostToDevice), "descale");
        fill<<<1024, 256>>>(qb.p, q8.p, n, 1u);
        fill<<<1024, 256>>>(kb.p, k8.p, n, 2u);
        fill<<<1024, 256>>>(vb.p, v8.p, n, 3u);
        AttentionProblem<bfloat16_t> fb;
        fb.q = qb.p;
        fb.k = kb.p;
        fb.v = vb.p;
        fb.o = ob.p;
        fb.lse = lse.p;
        fb.batch = batch;
        fb.heads_q = fb.heads_kv = heads;
        fb.seq_q = fb.seq_k = seq;
        fb.head_dim = d;
        fb.q_strides = fb.k_strides = fb.v_strides = fb.o_strides =
            tessera::kernels::attention_dense_strides(heads, seq, d);
        fb.causal = causal ? AttentionCausal::bottom_right : AttentionCausal::none;
        AttentionFp8Problem f8;
        f8.q = q8.p;
        f8.k = k8.p;
        f8.v = v8.p;
        f8.o = o8.p;
        f8.lse = lse.p;
        f8.batch = batch;
        f8.heads_q = f8.heads_kv = heads;
        f8.seq_q = f8.seq_k = seq;
        f8.head_dim = d;
        f8.q_strides = f8.k_strides = f8.v_strides = f8.o_strides = fb.q_strides;
        f8.causal = fb.causal;
        f8.descale_q = f8.descale_k = f8.descale_v = {AttentionFp8ScaleKind::tensor, descale.p};
        f8.workspace_bytes = tessera::kernels::attention_fp8_workspace_bytes(f8);
        Dev<unsigned char> ws(f8.workspace_bytes);
        f8.workspace = ws.p;
        ck(tessera::kernels::attention_forward_fp8_sm90(f8, nullptr), "attention_forward_fp8_sm90");
        ck(tessera::kernels::attention_forward_sm90(fb, nullptr), "attention_forward_sm90");
        ck(cudaDeviceSynchronize(), "forward");
        float const scale = 1.0f / std::sqrt(float(d));
        double const ver8 = verify(true, seq, d, causal != 0, scale, qb, kb, vb, q8, k8, v8, o8);
        double const verb = verify(false, seq, d, causal != 0, scale, qb, kb, vb, q8, k8, v8, ob);
        double const flops = 4.0 * batch * heads * double(seq) * seq * d / (causal ? 2 : 1);
        double const ms8 = time_ms([&] { return tessera::kernels::attention_forward_fp8_sm90(f8, nullptr); }, warmup,
                                   iters, repeats, rest_ms);
        double const ms8k = time_ms([&] { return fp8_kernel(f8); }, warmup, iters, repeats, rest_ms);
        double const msb = time_ms([&] { return tessera::kernels::attention_forward_sm90(fb, nullptr); }, warmup, iters,
                                   repeats, rest_ms);
        auto const line = [&](char const* kind, double ms, double ver) {
          std::printf("fwd %s d=%d seq=%d causal=%d b=%d h=%d ms=%.4f tflops=%.1f verify=%.3g%s\n", kind, d, seq,
                      causal, batch, heads, ms, flops / (ms * 1e-3) / 1e12, ver, ver <= 1.0 ? "" : " FAILED");
        };
        line("fp8", ms8, ver8);
        line("fp8_kernel", ms8k, ver8);
        line("bf16", msb, verb);
        std::printf("ratio fp8/bf16 d=%d seq=%d causal=%d %.3f (kernel alone %.3f)\n", d, seq, causal, msb / ms8,
                    msb / ms8k);
        std::fflush(stdout);
      }
  return 0;
}
