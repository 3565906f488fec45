// tests/jit/gemm_sm90_fp8_gpu.cpp -- gemm_sm90_fp8 and gemm_sm90_fp8_block through the JIT
// (jit/gemm_sm90_fp8.hpp: NVRTC, the CUDA-free host side, the driver's launch) on a GPU, against a
// double-precision reference on the host from the dequantized operands, within the bound of
// docs/gemm-fp8.md: |D - ref| <= u_out |ref| + 2^-8 sum_k |sa A sb B|. Every kind of scale, both
// fp8 types, odd sizes, a bias, a column-major D. Skipped, saying why, without a GPU or NVRTC
// (gemm_sm90_fp8.cpp tests the host side and the compiles without one).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/gemm_sm90_fp8.hpp"

namespace tessera::jit {
namespace {

using kernels::GemmFp8Problem;
using kernels::GemmScaleKind;

template <class T>
struct Buffer {
  T* p = nullptr;
  std::size_t n;
  explicit Buffer(std::vector<T> const& host) : n(host.size()) {
    EXPECT_EQ(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), cudaSuccess);
    if (n > 0) {
      EXPECT_EQ(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    }
  }
  ~Buffer() { cudaFree(p); }
  Buffer(Buffer const&) = delete;
  std::vector<T> download() const {
    std::vector<T> h(n);
    EXPECT_EQ(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }
};

int sms() {
  int device = 0, count = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  return count;
}

struct Case {
  int m, n, k;
  GemmScaleKind a_kind, b_kind;
  bool col_d = false, bias = false;
};

// Runs one case through the JIT and checks every element against the host's double reference.
template <class T, class TOut>
void run_case(Case const& c) {
  SCOPED_TRACE("m n k = " + std::to_string(c.m) + " " + std::to_string(c.n) + " " + std::to_string(c.k) + ", scales " +
               kernels::to_string(c.a_kind) + " x " + kernels::to_string(c.b_kind));
  std::mt19937 rng(unsigned(c.m * 31 + c.n * 7 + c.k));
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> half_to_3_2(0.5f, 1.5f);
  int const m = c.m, n = c.n, k = c.k, kb = (k + 127) / 128, nb = (n + 127) / 128;
  std::vector<T> a(std::size_t(m) * k), b(std::size_t(n) * k);  // A row-major, B column-major: both (., K)
  for (auto& x : a) x = T(normal(rng));
  for (auto& x : b) x = T(normal(rng));
  auto const count = [&](GemmScaleKind kind, bool is_a) -> std::size_t {
    switch (kind) {
      case GemmScaleKind::tensor: return 1;
      case GemmScaleKind::vector: return std::size_t(is_a ? m : n);
      case GemmScaleKind::block: return std::size_t(is_a ? kb * m : nb * kb);
      case GemmScaleKind::none: break;
    }
    return 0;
  };
  std::vector<float> sa(count(c.a_kind, true)), sb(count(c.b_kind, false));
  for (auto& x : sa) x = half_to_3_2(rng);
  for (auto& x : sb) x = half_to_3_2(rng);
  std::vector<TOut> bias(c.bias ? std::size_t(n) : 0);
  for (auto& x : bias) x = TOut(float(int(rng() % 17) - 8));
  // the scale of A(i, kk) and B(kk, j)
  auto const scale_a = [&](int i, int kk) -> double {
    switch (c.a_kind) {
      case GemmScaleKind::tensor: return sa[0];
      case GemmScaleKind::vector: return sa[std::size_t(i)];
      case GemmScaleKind::block: return sa[std::size_t(kk / 128) * m + i];
      case GemmScaleKind::none: break;
    }
    return 1.0;
  };
  auto const scale_b = [&](int kk, int j) -> double {
    switch (c.b_kind) {
      case GemmScaleKind::tensor: return sb[0];
      case GemmScaleKind::vector: return sb[std::size_t(j)];
      case GemmScaleKind::block: return sb[std::size_t(j / 128) * kb + kk / 128];
      case GemmScaleKind::none: break;
    }
    return 1.0;
  };
  Buffer<T> da(a), db(b);
  Buffer<float> dsa(sa), dsb(sb);
  Buffer<TOut> dbias(bias);
  Buffer<TOut> dd(std::vector<TOut>(std::size_t(m) * n, TOut(std::nanf(""))));
  GemmFp8Problem<T, TOut> p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = da.p;
  p.lda = k;
  p.a_major = Major::row;
  p.b = db.p;
  p.ldb = k;
  p.b_major = Major::col;
  p.d = dd.p;
  p.cd_major = c.col_d ? Major::col : Major::row;
  p.ldd = c.col_d ? m : n;
  p.bias = c.bias ? dbias.p : nullptr;
  p.scale_a = {c.a_kind, c.a_kind == GemmScaleKind::none ? nullptr : dsa.p};
  p.scale_b = {c.b_kind, c.b_kind == GemmScaleKind::none ? nullptr : dsb.p};
  int const units = sms();
  GemmSm90Fp8JitKernel const kernel = gemm_sm90_fp8_jit_kernel(p, units);
  CompileOptions o;
  o.arch = 90;
  Program const program =
      compile(gemm_sm90_fp8_jit_source(kernel, gemm_sm90_jit_descriptor_align()), gemm_sm90_fp8_jit_names(kernel), o);
  gemm_sm90_fp8_jit_launch(p, program.kernel(0), nullptr, units);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<TOut> const d = dd.download();
  double const u_out = sizeof(TOut) == 4              ? std::ldexp(1.0, -24)
                       : std::is_same_v<TOut, half_t> ? std::ldexp(1.0, -11)
                                                      : std::ldexp(1.0, -8);
  double worst = 0;
  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = c.bias ? double(float(bias[std::size_t(j)])) : 0.0, acc = 0;
      for (int kk = 0; kk < k; ++kk) {
        double const t = double(float(a[std::size_t(i) * k + kk])) * scale_a(i, kk) *
                         double(float(b[std::size_t(j) * k + kk])) * scale_b(kk, j);
        ref += t;
        acc += std::fabs(t);
      }
      double const got = double(float(d[c.col_d ? std::size_t(j) * m + i : std::size_t(i) * n + j]));
      double const bound = u_out * std::fabs(ref) + std::ldexp(acc, -8) + 1e-30;
      double const ratio = std::fabs(got - ref) / bound;
      if (!(ratio <= 1.0) && bad++ < 5)
        ADD_FAILURE() << "D(" << i << ", " << j << ") = " << got << ", expected " << ref << " within " << bound;
      if (ratio > worst) worst = ratio;
    }
  EXPECT_EQ(bad, 0);
  std::printf("  %dx%dx%d %s x %s: largest error %.3f of the bound\n", m, n, k, kernels::to_string(c.a_kind),
              kernels::to_string(c.b_kind), worst);
}

TEST(JitGemmSm90Fp8Gpu, EveryKindOfScaleAgainstTheHost) {
  TESSERA_REQUIRE_GPU();
  using K = GemmScaleKind;
  for (Case const& c : std::vector<Case>{{300, 520, 256, K::tensor, K::tensor},
                                         {129, 77, 400, K::vector, K::vector},
                                         {64, 200, 128, K::vector, K::tensor, true},
                                         {1, 1, 16, K::none, K::vector},
                                         {256, 264, 384, K::block, K::block, false, true},
                                         {100, 130, 272, K::block, K::block}})
    run_case<float_e4m3_t, bfloat16_t>(c);
}

TEST(JitGemmSm90Fp8Gpu, E5m2AndOtherOutputs) {
  TESSERA_REQUIRE_GPU();
  using K = GemmScaleKind;
  run_case<float_e5m2_t, float>({200, 136, 512, K::tensor, K::vector, false, true});
  run_case<float_e5m2_t, half_t>({96, 64, 256, K::block, K::block});
  run_case<float_e4m3_t, half_t>({130, 72, 160, K::vector, K::vector, true, true});
}

}  // namespace
}  // namespace tessera::jit
