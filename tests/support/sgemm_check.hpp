// The SGEMM device check shared by the kernel tests (tests/kernels/sgemm.cu) and the example
// ladder's tests (tests/examples/sgemm_ladder.cu): a kernel against cublasSgemm (default math mode:
// no TF32) on the same inputs.
//
// Sweep: sizes with 1, primes and non-multiples of every tile (1x1x1 ... 1000x1000x1000); A, B and
// C each row- or column-major; leading dimensions tight or padded by one float (no 128-bit
// accesses possible) and pointers offset by one float (misaligned); beta = 0 over a NaN-poisoned C
// (C must not be read, every element must be written) and beta != 0. Tolerance, per element, that
// of support/gemm_reference.hpp:
//   |C - C_ref| <= 2 (K + 2) eps (|alpha| sum_k |A_ik B_kj| + |beta C_ij|)
// (the scale comes from cuBLAS on |A|, |B|, |C|). Elements of the padding between rows must stay
// untouched.
//
// A test file lists its kernels with SGEMM_KERNELS(...) and instantiates SgemmTest over them.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/cuda_check.hpp"
#include "support/gemm_reference.hpp"
#include "support/gpu_skip.hpp"
#include "tessera/kernels/sgemm_problem.hpp"

namespace tessera::test {

using tessera::Major;
using tessera::kernels::SgemmProblem;

struct SgemmShape {
  int m, n, k;
};

// A kernel under test.
struct SgemmKernel {
  std::string name;
  cudaError_t (*run)(SgemmProblem const&);
};

// Storage of an (R,C) matrix with a major and a padding of its leading dimension.
struct Storage {
  int rows, cols, ld;
  Major major;
  std::size_t elements() const { return std::size_t(major == Major::row ? rows : cols) * std::size_t(ld); }
  bool is_padding(std::size_t i) const {  // i beyond the matrix's extent inside its row/column
    return int(i % std::size_t(ld)) >= (major == Major::row ? cols : rows);
  }
};
inline Storage make_storage(int rows, int cols, Major major, int pad) {
  int const minor = major == Major::row ? cols : rows;
  return Storage{rows, cols, (minor > 1 ? minor : 1) + pad, major};
}

struct Variant {
  Major a, b, c;
  int pad;     // leading-dimension padding (floats)
  int offset;  // pointer offset (floats): 1 = misaligned for 128-bit accesses
  float beta;
};

// Runs the kernel and cuBLAS on the same random inputs; checks every element of C.
inline void check_sgemm(cublasHandle_t handle, SgemmKernel const& kernel, SgemmShape s, Variant v, unsigned seed) {
  std::string const what = kernel.name + " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                           std::to_string(s.k) + " A=" + (v.a == Major::row ? "row" : "col") +
                           " B=" + (v.b == Major::row ? "row" : "col") + " C=" + (v.c == Major::row ? "row" : "col") +
                           " pad=" + std::to_string(v.pad) + " offset=" + std::to_string(v.offset) +
                           " beta=" + std::to_string(v.beta);
  SCOPED_TRACE(what);
  Storage const sa = make_storage(s.m, s.k, v.a, v.pad);
  Storage const sb = make_storage(s.k, s.n, v.b, v.pad);
  Storage const sc = make_storage(s.m, s.n, v.c, v.pad);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  float const nan = std::numeric_limits<float>::quiet_NaN();
  float const poison = -12345.0f;  // padding marker
  std::vector<float> ha(sa.elements()), hb(sb.elements()), hc(sc.elements());
  for (std::size_t i = 0; i < ha.size(); ++i) ha[i] = sa.is_padding(i) ? nan : dist(gen);
  for (std::size_t i = 0; i < hb.size(); ++i) hb[i] = sb.is_padding(i) ? nan : dist(gen);
  for (std::size_t i = 0; i < hc.size(); ++i) hc[i] = sc.is_padding(i) ? poison : (v.beta == 0.0f ? nan : dist(gen));
  auto abs_of = [](std::vector<float> x) {
    for (float& e : x) e = std::isnan(e) ? 0.0f : std::fabs(e);
    return x;
  };

  std::size_t const off = std::size_t(v.offset);
  DeviceBuffer<float> da(ha.size() + off), db(hb.size() + off), dc(hc.size() + off), dref(hc.size() + off),
      dscale(hc.size() + off);
  auto upload = [&](DeviceBuffer<float>& d, std::vector<float> const& h) {
    return cudaMemcpy(d.get() + off, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  };
  ASSERT_EQ(upload(da, ha), cudaSuccess);
  ASSERT_EQ(upload(db, hb), cudaSuccess);
  ASSERT_EQ(upload(dc, hc), cudaSuccess);
  std::vector<float> hc_ref = hc;
  if (v.beta == 0.0f) {
    for (std::size_t i = 0; i < hc_ref.size(); ++i) hc_ref[i] = sc.is_padding(i) ? poison : 0.0f;
  }
  ASSERT_EQ(upload(dref, hc_ref), cudaSuccess);

  SgemmProblem p;
  p.m = s.m;
  p.n = s.n;
  p.k = s.k;
  p.alpha = 1.5f;
  p.beta = v.beta;
  p.a = da.get() + off;
  p.lda = sa.ld;
  p.a_major = v.a;
  p.b = db.get() + off;
  p.ldb = sb.ld;
  p.b_major = v.b;
  p.c = dc.get() + off;
  p.ldc = sc.ld;
  p.c_major = v.c;
  ASSERT_EQ(kernel.run(p), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  SgemmProblem r = p;
  r.c = dref.get() + off;
  ASSERT_EQ(cublas_sgemm(handle, r), CUBLAS_STATUS_SUCCESS);
  // The error scale |alpha| |A||B| + |beta| |C|.
  ASSERT_EQ(upload(da, abs_of(ha)), cudaSuccess);
  ASSERT_EQ(upload(db, abs_of(hb)), cudaSuccess);
  ASSERT_EQ(upload(dscale, abs_of(hc_ref)), cudaSuccess);
  SgemmProblem q = p;
  q.alpha = std::fabs(p.alpha);
  q.beta = std::fabs(p.beta);
  q.c = dscale.get() + off;
  ASSERT_EQ(cublas_sgemm(handle, q), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  std::vector<float> got(hc.size()), ref(hc.size()), scale(hc.size());
  ASSERT_EQ(cudaMemcpy(got.data(), dc.get() + off, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(ref.data(), dref.get() + off, ref.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(scale.data(), dscale.get() + off, scale.size() * sizeof(float), cudaMemcpyDeviceToHost),
            cudaSuccess);
  double const tol_factor = gemm_tolerance_factor(s.k);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (sc.is_padding(i)) {
      if (got[i] != poison && bad++ < 5) ADD_FAILURE() << "padding element " << i << " was written: " << got[i];
      continue;
    }
    double const tol = tol_factor * double(scale[i]) + 1e-30;
    double const err = std::fabs(double(got[i]) - double(ref[i]));
    if (!(err <= tol) && bad++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", cuBLAS " << ref[i] << ", |diff| " << err << " > tol "
                    << tol;
    }
  }
  EXPECT_EQ(bad, 0u);
}

// Parameterized by an index into kernels(), the test file's kernel list.
std::vector<SgemmKernel> const& kernels();

class SgemmTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
    ASSERT_EQ(cublasCreate(&handle_), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (handle_ != nullptr) cublasDestroy(handle_);
  }
  void sweep(std::vector<SgemmShape> const& shapes, bool all_variants) {
    unsigned seed = 1;
    for (SgemmShape const s : shapes) {
      for (Major a : {Major::row, Major::col}) {
        for (Major b : {Major::row, Major::col}) {
          for (Major c : {Major::row, Major::col}) {
            check_sgemm(handle_, kernels()[std::size_t(GetParam())], s, Variant{a, b, c, 0, 0, 0.0f}, seed++);
            if (!all_variants) continue;
            check_sgemm(handle_, kernels()[std::size_t(GetParam())], s, Variant{a, b, c, 1, 0, -0.75f}, seed++);
            check_sgemm(handle_, kernels()[std::size_t(GetParam())], s, Variant{a, b, c, 0, 1, 0.5f}, seed++);
          }
        }
      }
    }
  }
  cublasHandle_t handle_ = nullptr;
};

// Small sizes: every variant (also the ones compute-sanitizer runs: --gtest_filter='*Small*').
// (the TEST_P bodies below are instantiated by each including test file)
TEST_P(SgemmTest, SmallSizesAllLayouts) {
  sweep({{1, 1, 1}, {7, 13, 5}, {64, 64, 8}, {128, 128, 16}, {127, 129, 33}, {257, 131, 65}, {3, 200, 1}, {130, 2, 67}},
        true);
}

// Large sizes: 1000^3 and one multiple of every tile, tight and padded.
TEST_P(SgemmTest, LargeSizes) {
  sweep({{1000, 1000, 1000}, {512, 384, 256}}, false);
  for (Major a : {Major::row, Major::col}) {
    check_sgemm(handle_, kernels()[std::size_t(GetParam())], SgemmShape{1000, 1000, 1000},
                Variant{a, Major::row, Major::row, 1, 1, -0.75f}, 99);
  }
}

// K == 0: C = beta C; A and B are not read.
TEST_P(SgemmTest, EmptyK) {
  check_sgemm(handle_, kernels()[std::size_t(GetParam())], SgemmShape{37, 65, 0},
              Variant{Major::row, Major::row, Major::row, 0, 0, 0.5f}, 7);
}

// The parameter name of kernel i.
inline std::string sgemm_kernel_name(::testing::TestParamInfo<int> const& info) {
  return kernels()[std::size_t(info.param)].name;
}

}  // namespace tessera::test
