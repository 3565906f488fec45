// The device checks of the tensor-core GEMMs (gemm_sm80.cu, gemm_sm90.cu): D = act(alpha A B + beta C + bias)
// against cublasGemmEx (fp32 compute, fp32 output) on the same inputs, the bias and the activation
// applied on the host in double, for bf16 and fp16 inputs with fp32 and 16-bit outputs.
//
// Sweep: sizes with 1, primes and non-multiples of every tile (1x1x1 ... 1000x1000x1000); A, B and
// C/D each row- or column-major; leading dimensions tight or padded by one element (rows not
// 16-byte aligned: the packed path) and pointers offset by one element; beta = 0 over a poisoned D
// (C is not read, every element is written) and beta != 0 with C separate from D; a per-column bias
// with each activation in turn (relu, gelu, gelu_tanh). Tolerance, per element
// (support/gemm_reference.hpp), for z = alpha A B + beta C + bias and D_ref = act(z):
//   e_z = 2 (K + 2) eps_fp32 (|alpha| sum_k |A_ik B_kj| + |beta C_ij|) + 2 eps_fp32 |bias_j|
//   |D - D_ref| <= L e_z + 8 eps_fp32 (|z| + |D_ref|) + u_out |D_ref| + underflow_out
// with L = 1 without an activation, 1.13 with one (the largest slope of gelu; relu's is 1); the
// 8 eps_fp32 term covers the activations' own error (within 2e-7 absolute, gemm_epilogue.cuh).
// Elements of the padding between rows of D must stay untouched.
//
// Launch is the GEMM under test: Launch::run(problem) returns its cudaError_t. Without a GPU every
// device test is skipped with the reason; the files must still compile.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/cuda_check.hpp"
#include "support/gemm_reference.hpp"
#include "support/gpu_skip.hpp"
#include "tessera/kernels/gemm_problem.hpp"

namespace tessera::test::gemm {

using tessera::bfloat16_t;
using tessera::half_t;
using tessera::Major;
using tessera::kernels::GemmProblem;
using tessera::test::DeviceBuffer;

struct Shape {
  int m, n, k;
};
struct Variant {
  Major a, b, cd;
  int pad;     // leading-dimension padding (elements)
  int offset;  // pointer offset (elements): 1 = not 16-byte aligned
  float beta;
  bool bias = false;
  tessera::kernels::GemmActivation act = tessera::kernels::GemmActivation::none;
};

// The activation in double (GemmActivation's definitions).
inline double activate_reference(tessera::kernels::GemmActivation a, double z) {
  using tessera::kernels::GemmActivation;
  switch (a) {
    case GemmActivation::relu: return z > 0.0 ? z : 0.0;
    case GemmActivation::gelu: return 0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0)));
    case GemmActivation::gelu_tanh:
      return 0.5 * z * (1.0 + std::tanh(std::sqrt(2.0 / 3.14159265358979323846) * (z + 0.044715 * z * z * z)));
    case GemmActivation::none: break;
  }
  return z;
}

// Storage of an (R,C) matrix: its major and a padded leading dimension.
struct Storage {
  int rows, cols, ld;
  Major major;
  std::size_t elements() const { return std::size_t(major == Major::row ? rows : cols) * std::size_t(ld); }
  bool is_padding(std::size_t i) const { return int(i % std::size_t(ld)) >= (major == Major::row ? cols : rows); }
};
inline Storage make_storage(int rows, int cols, Major major, int pad) {
  return Storage{rows, cols, (major == Major::row ? cols : rows) + pad, major};
}

template <class T>
char const* type_name() {
  if constexpr (std::is_same_v<T, half_t>) return "fp16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bf16";
  else return "fp32";
}

// Runs gemm_sm80 and cuBLAS on the same random inputs; checks every element of D.
template <class Launch, class T, class TOut>
void check_gemm(cublasHandle_t handle, Shape s, Variant v, unsigned seed) {
  std::string const what = std::string(type_name<T>()) + "->" + type_name<TOut>() + " " + std::to_string(s.m) + "x" +
                           std::to_string(s.n) + "x" + std::to_string(s.k) +
                           " A=" + (v.a == Major::row ? "row" : "col") + " B=" + (v.b == Major::row ? "row" : "col") +
                           " CD=" + (v.cd == Major::row ? "row" : "col") + " pad=" + std::to_string(v.pad) +
                           " offset=" + std::to_string(v.offset) + " beta=" + std::to_string(v.beta) +
                           (v.bias ? " bias" : "") + " act=" + to_string(v.act);
  SCOPED_TRACE(what);
  Storage const sa = make_storage(s.m, s.k, v.a, v.pad);
  Storage const sb = make_storage(s.k, s.n, v.b, v.pad);
  Storage const sd = make_storage(s.m, s.n, v.cd, v.pad);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  float const alpha = 1.25f;
  std::vector<T> ha(sa.elements()), hb(sb.elements());
  std::vector<TOut> hc(sd.elements()), hd(sd.elements());
  std::vector<float> abs_a(ha.size()), abs_b(hb.size()), ref(sd.elements()), scale_c(sd.elements());
  for (std::size_t i = 0; i < ha.size(); ++i) {
    ha[i] = T(sa.is_padding(i) ? 1e4f : dist(gen));  // padding: large, so that reading it shows
    abs_a[i] = sa.is_padding(i) ? 0.0f : std::fabs(float(ha[i]));
  }
  for (std::size_t i = 0; i < hb.size(); ++i) {
    hb[i] = T(sb.is_padding(i) ? 1e4f : dist(gen));
    abs_b[i] = sb.is_padding(i) ? 0.0f : std::fabs(float(hb[i]));
  }
  TOut const poison = TOut(-7777.0f);
  for (std::size_t i = 0; i < hc.size(); ++i) {
    hc[i] = TOut(sd.is_padding(i) ? 0.0f : dist(gen));
    hd[i] = poison;  // D: poisoned, padding included (it must stay so)
    ref[i] = v.beta != 0.0f && !sd.is_padding(i) ? float(hc[i]) : 0.0f;
    scale_c[i] = std::fabs(v.beta) * std::fabs(ref[i]);
  }
  std::vector<TOut> hbias(std::size_t(s.n));
  for (TOut& x : hbias) x = TOut(dist(gen));
  std::size_t const off = std::size_t(v.offset);
  DeviceBuffer<TOut> dbias(hbias.size());
  DeviceBuffer<T> da(ha.size() + off), db(hb.size() + off);
  DeviceBuffer<TOut> dc(hc.size() + off), dd(hd.size() + off);
  DeviceBuffer<float> dabs_a(abs_a.size()), dabs_b(abs_b.size()), dref(ref.size()), dscale(ref.size());
  auto upload = [&](auto& dev, auto const& host, std::size_t o) {
    ASSERT_EQ(cudaMemcpy(dev.get() + o, host.data(), host.size() * sizeof(host[0]), cudaMemcpyHostToDevice),
              cudaSuccess);
  };
  upload(da, ha, off);
  upload(db, hb, off);
  upload(dc, hc, off);
  upload(dd, hd, off);
  upload(dabs_a, abs_a, 0);
  upload(dabs_b, abs_b, 0);
  upload(dref, ref, 0);
  upload(dscale, scale_c, 0);
  upload(dbias, hbias, 0);

  GemmProblem<T, TOut> p;
  p.m = s.m;
  p.n = s.n;
  p.k = s.k;
  p.alpha = alpha;
  p.a = da.get() + off;
  p.lda = sa.ld;
  p.a_major = v.a;
  p.b = db.get() + off;
  p.ldb = sb.ld;
  p.b_major = v.b;
  p.beta = v.beta;
  p.c = v.beta != 0.0f ? dc.get() + off : nullptr;
  p.ldc = sd.ld;
  p.d = dd.get() + off;
  p.ldd = sd.ld;
  p.cd_major = v.cd;
  p.bias = v.bias ? dbias.get() : nullptr;
  p.activation = v.act;
  ASSERT_EQ(Launch::run(p), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  // Reference: fp32 output, in place over C (as float); scale: |alpha| |A||B| + |beta C|.
  GemmProblem<T, float> r;
  r.m = s.m;
  r.n = s.n;
  r.k = s.k;
  r.alpha = alpha;
  r.a = p.a;
  r.lda = p.lda;
  r.a_major = v.a;
  r.b = p.b;
  r.ldb = p.ldb;
  r.b_major = v.b;
  r.beta = v.beta;
  r.c = dref.get();
  r.ldc = sd.ld;
  r.d = dref.get();
  r.ldd = sd.ld;
  r.cd_major = v.cd;
  ASSERT_EQ(tessera::test::cublas_gemm(handle, r), CUBLAS_STATUS_SUCCESS);
  tessera::kernels::SgemmProblem q;
  q.m = s.m;
  q.n = s.n;
  q.k = s.k;
  q.alpha = std::fabs(alpha);
  q.a = dabs_a.get();
  q.lda = sa.ld;
  q.a_major = v.a;
  q.b = dabs_b.get();
  q.ldb = sb.ld;
  q.b_major = v.b;
  q.beta = 1.0f;
  q.c = dscale.get();
  q.ldc = sd.ld;
  q.c_major = v.cd;
  ASSERT_EQ(tessera::test::cublas_sgemm(handle, q), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  std::vector<TOut> got(hd.size());
  ASSERT_EQ(cudaMemcpy(got.data(), dd.get() + off, got.size() * sizeof(TOut), cudaMemcpyDeviceToHost), cudaSuccess);
  std::vector<float> want = dref.download(), scale = dscale.download();
  double const tol = tessera::test::gemm_tolerance_factor(s.k);
  double const u_out = tessera::test::unit_roundoff<TOut>();
  double const underflow_out = tessera::test::underflow_roundoff<TOut>();
  double const eps32 = std::ldexp(1.0, -24);
  double const slope = v.act == tessera::kernels::GemmActivation::none ? 1.0 : 1.13;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (sd.is_padding(i)) {
      if (std::memcmp(&got[i], &poison, sizeof(TOut)) != 0 && bad++ < 5)
        ADD_FAILURE() << "padding element " << i << " was written";
      continue;
    }
    int const col = int(sd.major == Major::row ? i % std::size_t(sd.ld) : i / std::size_t(sd.ld));  // n of element i
    double const b = v.bias ? double(float(hbias[std::size_t(col)])) : 0.0;
    double const z = double(want[i]) + b;
    double const r = activate_reference(v.act, z);
    double const g = float(got[i]);
    double const err = std::fabs(g - r);
    double const ez = tol * double(scale[i]) + 2 * eps32 * std::fabs(b);
    double const bound =
        slope * ez + 8 * eps32 * (std::fabs(z) + std::fabs(r)) + u_out * std::fabs(r) + underflow_out + 1e-30;
    if (!(err <= bound) && bad++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << g << ", reference " << r << " (cuBLAS " << want[i] << " + bias "
                    << b << "), |diff| " << err << " > " << bound;
    }
  }
  EXPECT_EQ(bad, 0u);
}

inline tessera::kernels::GemmActivation const kActivations[3] = {tessera::kernels::GemmActivation::relu,
                                                                 tessera::kernels::GemmActivation::gelu,
                                                                 tessera::kernels::GemmActivation::gelu_tanh};

template <class Launch>
class GemmDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_EQ(cublasCreate(&handle_), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (handle_ != nullptr) cublasDestroy(handle_);
  }
  template <class T, class TOut>
  void sweep(std::vector<Shape> const& shapes, bool all_variants) {
    unsigned seed = 1;
    for (Shape const s : shapes) {
      for (Major a : {Major::row, Major::col}) {
        for (Major b : {Major::row, Major::col}) {
          for (Major cd : {Major::row, Major::col}) {
            check_gemm<Launch, T, TOut>(handle_, s, Variant{a, b, cd, 0, 0, 0.0f}, seed++);
            if (!all_variants) continue;
            check_gemm<Launch, T, TOut>(handle_, s, Variant{a, b, cd, 1, 0, -0.5f}, seed++);
            check_gemm<Launch, T, TOut>(handle_, s, Variant{a, b, cd, 0, 1, 0.75f}, seed++);
            // bias and an activation, D TMA-addressable (pad 0) and not (pad 1) in turn
            auto const act = kActivations[seed % 3];
            check_gemm<Launch, T, TOut>(
                handle_, s, Variant{a, b, cd, int(seed % 2), 0, seed % 4 == 0 ? 0.5f : 0.0f, true, act}, seed++);
          }
        }
      }
    }
  }
  cublasHandle_t handle_ = nullptr;
};

inline std::vector<Shape> const kSmall = {{1, 1, 1},      {7, 13, 5},     {16, 8, 16}, {64, 64, 32}, {128, 128, 32},
                                          {127, 129, 33}, {257, 131, 72}, {3, 200, 1}, {130, 2, 67}, {136, 264, 40}};
inline std::vector<Shape> const kLarge = {{1000, 1000, 1000}, {512, 384, 256}, {1024, 768, 2048}};

}  // namespace tessera::test::gemm
