// Tests of the CuTe tutorial's SGEMM ported to Tessera (examples/sgemm/tutorial.cuh): the launcher's
// refusals (host, no device needed) and both variants against a host reference on the GPU (skipped
// with the reason where no GPU is visible).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sgemm/tutorial.cuh"
#include "support/cuda_check.hpp"
#include "support/gpu_skip.hpp"

namespace tessera::test {

namespace {
using examples::TutorialVariant;
using kernels::SgemmProblem;

// The problem a variant accepts: C column-major; NT: A column-major, B row-major; TN: the reverse.
SgemmProblem tutorial_problem(TutorialVariant v, int m, int n, int k) {
  SgemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a_major = v == TutorialVariant::nt ? Major::col : Major::row;
  p.b_major = v == TutorialVariant::nt ? Major::row : Major::col;
  p.c_major = Major::col;
  p.lda = p.a_major == Major::row ? k : m;
  p.ldb = p.b_major == Major::row ? n : k;
  p.ldc = m;
  return p;
}
}  // namespace

TEST(SgemmTutorialHost, RefusesWhatTheUnpredicatedKernelCannotDo) {
  for (auto v : {TutorialVariant::nt, TutorialVariant::tn}) {
    auto p = tutorial_problem(v, 256, 128, 64);
    EXPECT_NO_THROW(examples::check_tutorial_problem(p, v));
    auto q = tutorial_problem(v, 200, 128, 64);  // M not a multiple of 128
    EXPECT_THROW(examples::check_tutorial_problem(q, v), std::invalid_argument);
    q = tutorial_problem(v, 256, 128, 60);  // K not a multiple of 8
    EXPECT_THROW(examples::check_tutorial_problem(q, v), std::invalid_argument);
    q = p;
    q.c_major = Major::row;  // the tutorial's C is column-major
    EXPECT_THROW(examples::check_tutorial_problem(q, v), std::invalid_argument);
    q = p;
    q.a_major = q.a_major == Major::row ? Major::col : Major::row;  // the other variant's A
    EXPECT_THROW(examples::check_tutorial_problem(q, v), std::invalid_argument);
  }
}

// C = alpha A B + beta C for M, N, K = 256, 384, 72 (two by three blocks, nine k-tiles), beta = 0
// over a NaN-poisoned C and beta = 0.5, against a double-precision host reference with the
// tolerance 2 (K + 2) eps sum_k |A_ik B_kj| (+ |beta C_ij|).
TEST(SgemmTutorialDevice, BothVariantsAgainstTheHostReference) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  int const M = 256, N = 384, K = 72;
  for (auto v : {TutorialVariant::nt, TutorialVariant::tn}) {
    for (float beta : {0.0f, 0.5f}) {
      SgemmProblem p = tutorial_problem(v, M, N, K);
      p.alpha = 1.5f;
      p.beta = beta;
      std::vector<float> a(std::size_t(M) * K), b(std::size_t(K) * N), c(std::size_t(M) * N);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 13) - 6) / 8.0f;
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 11) - 5) / 4.0f;
      for (std::size_t i = 0; i < c.size(); ++i)
        c[i] = beta == 0.0f ? std::numeric_limits<float>::quiet_NaN() : float(int(i % 9) - 4);
      auto A = [&](int m, int k) {
        return double(a[p.a_major == Major::row ? std::size_t(m) * K + k : std::size_t(k) * M + m]);
      };
      auto B = [&](int k, int n) {
        return double(b[p.b_major == Major::row ? std::size_t(k) * N + n : std::size_t(n) * K + k]);
      };
      test::DeviceBuffer<float> da(a.size()), db(b.size()), dc(c.size());
      da.upload(a);
      db.upload(b);
      dc.upload(c);
      p.a = da.get();
      p.b = db.get();
      p.c = dc.get();
      test::check(examples::launch_sgemm_tutorial(p, v, nullptr), "launch");
      test::check(cudaDeviceSynchronize(), "kernel");
      std::vector<float> out = dc.download();
      int bad = 0;
      for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
          double ref = 0, scale = 0;
          for (int k = 0; k < K; ++k) ref += A(m, k) * B(k, n), scale += std::fabs(A(m, k) * B(k, n));
          double const c0 = beta == 0.0f ? 0.0 : double(c[std::size_t(n) * M + m]);
          ref = 1.5 * ref + beta * c0;
          scale = 1.5 * scale + std::fabs(beta * c0);
          double const got = out[std::size_t(n) * M + m];
          if (!(std::fabs(got - ref) <= 2.0 * (K + 2) * double(std::numeric_limits<float>::epsilon()) * scale)) ++bad;
        }
      EXPECT_EQ(bad, 0) << (v == TutorialVariant::nt ? "nt" : "tn") << " beta " << beta;
    }
  }
}

}  // namespace tessera::test
