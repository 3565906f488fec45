// Device tests of include/tessera/kernels/sgemm.cuh: every version of the SGEMM ladder against
// cublasSgemm (default math mode: no TF32) on the same inputs.
//
// Sweep: sizes with 1, primes and non-multiples of every tile (1x1x1 ... 1000x1000x1000); A, B and
// C each row- or column-major; leading dimensions tight or padded by one float (no 128-bit
// accesses possible) and pointers offset by one float (misaligned); beta = 0 over a NaN-poisoned C
// (C must not be read, every element must be written) and beta != 0. Tolerance, per element:
//   |C - C_ref| <= 2 (K + 2) eps (|alpha| sum_k |A_ik B_kj| + |beta C_ij|)
// (the K-term rounding bound of both results; the scale comes from cuBLAS on |A|, |B|, |C|).
// Elements of the padding between rows must stay untouched.
//
// Without a GPU every device test is skipped with the reason; the file must still compile.
#include "gpu_skip.hpp"
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tessera/kernels/sgemm.cuh"

namespace {

using tessera::kernels::Major;
using tessera::kernels::SgemmProblem;

using tessera::test::no_device_reason;

// A device buffer of floats (RAII).
struct DeviceFloats {
  float* p = nullptr;
  explicit DeviceFloats(std::size_t n) {
    if (cudaMalloc(&p, (n > 0 ? n : 1) * sizeof(float)) != cudaSuccess) p = nullptr;
  }
  ~DeviceFloats() { cudaFree(p); }
  DeviceFloats(DeviceFloats const&) = delete;
  DeviceFloats& operator=(DeviceFloats const&) = delete;
};

// cublasSgemm for a problem with any majors (cuBLAS is column-major: a row-major C is computed
// as the column-major C^T = B^T A^T).
cublasStatus_t cublas_reference(cublasHandle_t h, SgemmProblem const& p) {
  auto op = [](bool transposed) { return transposed ? CUBLAS_OP_T : CUBLAS_OP_N; };
  if (p.c_major == Major::col) {
    return cublasSgemm(h, op(p.a_major == Major::row), op(p.b_major == Major::row), p.m, p.n, p.k, &p.alpha, p.a,
                       p.lda, p.b, p.ldb, &p.beta, p.c, p.ldc);
  }
  return cublasSgemm(h, op(p.b_major == Major::col), op(p.a_major == Major::col), p.n, p.m, p.k, &p.alpha, p.b,
                     p.ldb, p.a, p.lda, &p.beta, p.c, p.ldc);
}

struct Shape {
  int m, n, k;
};

// A kernel under test: the ladder's versions and the tuning candidates.
struct Kernel {
  std::string name;
  cudaError_t (*run)(SgemmProblem const&);
};
template <int V>
cudaError_t run_version(SgemmProblem const& p) {
  return tessera::kernels::sgemm(V, p);
}
template <class Cfg>
cudaError_t run_config(SgemmProblem const& p) {
  return tessera::kernels::sgemm_tiled<Cfg>(p);
}
std::vector<Kernel> const& kernels_under_test() {
  namespace k = tessera::kernels;
  static std::vector<Kernel> const all = {
      {k::sgemm_version_name(1), run_version<1>},
      {k::sgemm_version_name(2), run_version<2>},
      {k::sgemm_version_name(3), run_version<3>},
      {k::sgemm_version_name(4), run_version<4>},
      {k::sgemm_version_name(5), run_version<5>},
      {"candidate_v4_fast", run_config<k::SgemmCandidateV4Fast>},
      {"candidate_16x8", run_config<k::SgemmCandidate16x8>},
      {"candidate_bk8", run_config<k::SgemmCandidateBk8>},
      {"candidate_bk16_8x16", run_config<k::SgemmCandidateBk16x8x16>},
  };
  return all;
}

// Storage of an (R,C) matrix with a major and a padding of its leading dimension.
struct Storage {
  int rows, cols, ld;
  Major major;
  std::size_t elements() const {
    return std::size_t(major == Major::row ? rows : cols) * std::size_t(ld);
  }
  bool is_padding(std::size_t i) const {  // i beyond the matrix's extent inside its row/column
    return int(i % std::size_t(ld)) >= (major == Major::row ? cols : rows);
  }
};
Storage make_storage(int rows, int cols, Major major, int pad) {
  int const minor = major == Major::row ? cols : rows;
  return Storage{rows, cols, (minor > 1 ? minor : 1) + pad, major};
}

struct Variant {
  Major a, b, c;
  int pad;      // leading-dimension padding (floats)
  int offset;   // pointer offset (floats): 1 = misaligned for 128-bit accesses
  float beta;
};

// Runs version `version` and cuBLAS on the same random inputs; checks every element of C.
void check_sgemm(cublasHandle_t handle, Kernel const& kernel, Shape s, Variant v, unsigned seed) {
  std::string const what = kernel.name + " " + std::to_string(s.m) +
                           "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                           " A=" + (v.a == Major::row ? "row" : "col") + " B=" + (v.b == Major::row ? "row" : "col") +
                           " C=" + (v.c == Major::row ? "row" : "col") + " pad=" + std::to_string(v.pad) +
                           " offset=" + std::to_string(v.offset) + " beta=" + std::to_string(v.beta);
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
  DeviceFloats da(ha.size() + off), db(hb.size() + off), dc(hc.size() + off), dref(hc.size() + off),
      dscale(hc.size() + off);
  ASSERT_TRUE(da.p && db.p && dc.p && dref.p && dscale.p);
  auto upload = [&](DeviceFloats& d, std::vector<float> const& h) {
    return cudaMemcpy(d.p + off, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
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
  p.a = da.p + off;
  p.lda = sa.ld;
  p.a_major = v.a;
  p.b = db.p + off;
  p.ldb = sb.ld;
  p.b_major = v.b;
  p.c = dc.p + off;
  p.ldc = sc.ld;
  p.c_major = v.c;
  ASSERT_EQ(kernel.run(p), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  SgemmProblem r = p;
  r.c = dref.p + off;
  ASSERT_EQ(cublas_reference(handle, r), CUBLAS_STATUS_SUCCESS);
  // The error scale |alpha| |A||B| + |beta| |C|.
  ASSERT_EQ(upload(da, abs_of(ha)), cudaSuccess);
  ASSERT_EQ(upload(db, abs_of(hb)), cudaSuccess);
  ASSERT_EQ(upload(dscale, abs_of(hc_ref)), cudaSuccess);
  SgemmProblem q = p;
  q.alpha = std::fabs(p.alpha);
  q.beta = std::fabs(p.beta);
  q.c = dscale.p + off;
  ASSERT_EQ(cublas_reference(handle, q), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  std::vector<float> got(hc.size()), ref(hc.size()), scale(hc.size());
  ASSERT_EQ(cudaMemcpy(got.data(), dc.p + off, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(ref.data(), dref.p + off, ref.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(scale.data(), dscale.p + off, scale.size() * sizeof(float), cudaMemcpyDeviceToHost),
            cudaSuccess);
  double const eps = std::numeric_limits<float>::epsilon();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (sc.is_padding(i)) {
      if (got[i] != poison && bad++ < 5) ADD_FAILURE() << "padding element " << i << " was written: " << got[i];
      continue;
    }
    double const tol = 2.0 * (s.k + 2) * eps * double(scale[i]) + 1e-30;
    double const err = std::fabs(double(got[i]) - double(ref[i]));
    if (!(err <= tol) && bad++ < 5) {
      ADD_FAILURE() << "element " << i << ": got " << got[i] << ", cuBLAS " << ref[i] << ", |diff| " << err
                    << " > tol " << tol;
    }
  }
  EXPECT_EQ(bad, 0u);
}

class SgemmTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
    ASSERT_EQ(cublasCreate(&handle_), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (handle_ != nullptr) cublasDestroy(handle_);
  }
  void sweep(std::vector<Shape> const& shapes, bool all_variants) {
    unsigned seed = 1;
    for (Shape const s : shapes) {
      for (Major a : {Major::row, Major::col}) {
        for (Major b : {Major::row, Major::col}) {
          for (Major c : {Major::row, Major::col}) {
            check_sgemm(handle_, kernels_under_test()[std::size_t(GetParam())], s, Variant{a, b, c, 0, 0, 0.0f}, seed++);
            if (!all_variants) continue;
            check_sgemm(handle_, kernels_under_test()[std::size_t(GetParam())], s, Variant{a, b, c, 1, 0, -0.75f}, seed++);
            check_sgemm(handle_, kernels_under_test()[std::size_t(GetParam())], s, Variant{a, b, c, 0, 1, 0.5f}, seed++);
          }
        }
      }
    }
  }
  cublasHandle_t handle_ = nullptr;
};

// Small sizes: every variant (also the ones compute-sanitizer runs: --gtest_filter='*Small*').
TEST_P(SgemmTest, SmallSizesAllLayouts) {
  sweep({{1, 1, 1}, {7, 13, 5}, {64, 64, 8}, {128, 128, 16}, {127, 129, 33}, {257, 131, 65}, {3, 200, 1}, {130, 2, 67}},
        true);
}

// Large sizes: 1000^3 and one multiple of every tile, tight and padded.
TEST_P(SgemmTest, LargeSizes) {
  sweep({{1000, 1000, 1000}, {512, 384, 256}}, false);
  for (Major a : {Major::row, Major::col}) {
    check_sgemm(handle_, kernels_under_test()[std::size_t(GetParam())], Shape{1000, 1000, 1000}, Variant{a, Major::row, Major::row, 1, 1, -0.75f}, 99);
  }
}

// K == 0: C = beta C; A and B are not read.
TEST_P(SgemmTest, EmptyK) { check_sgemm(handle_, kernels_under_test()[std::size_t(GetParam())], Shape{37, 65, 0}, Variant{Major::row, Major::row, Major::row, 0, 0, 0.5f}, 7); }

INSTANTIATE_TEST_SUITE_P(Ladder, SgemmTest, ::testing::Range(0, int(kernels_under_test().size())),
                         [](::testing::TestParamInfo<int> const& info) {
                           return kernels_under_test()[std::size_t(info.param)].name;
                         });

// Invalid problems are refused before any launch (no device needed).
TEST(SgemmHost, InvalidProblemsAreRefused) {
  SgemmProblem p;
  p.m = 4;
  p.n = 4;
  p.k = 4;
  p.lda = 3;  // < K for a row-major A
  p.ldb = 4;
  p.ldc = 4;
  float dummy = 0.0f;
  p.a = &dummy;
  p.b = &dummy;
  p.c = &dummy;
  EXPECT_EQ(tessera::kernels::sgemm(1, p), cudaErrorInvalidValue);
  p.lda = 4;
  EXPECT_EQ(tessera::kernels::sgemm(0, p), cudaErrorInvalidValue);
  EXPECT_EQ(tessera::kernels::sgemm(tessera::kernels::kSgemmVersions + 1, p), cudaErrorInvalidValue);
  p.m = -1;
  EXPECT_EQ(tessera::kernels::sgemm(1, p), cudaErrorInvalidValue);
}

}  // namespace
