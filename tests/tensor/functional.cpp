// fill, clear, axpby, transform, reduce and gemm on host tensors.
#include "tensor_test_util.hpp"

#include <cmath>
#include <limits>
#include <vector>

using namespace tessera;

TEST(Functional, FillClearAxpbyTransformReduce) {
  auto x = make_tensor<float>(make_layout(make_shape(_4{}, _2{})));
  std::vector<float> ybuf(16, 0.0f);
  auto y = make_tensor(make_gmem_ptr(ybuf.data()), make_shape(4, 2), make_stride(_2{}, 8));  // strided view
  fill(x, 2.0f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(x(i), 2.0f);
  for (int i = 0; i < 8; ++i) y(i) = float(i);
  axpby(3.0f, x, 0.5f, y);  // y = 3x + y/2
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y(i), 6.0f + 0.5f * float(i));
  EXPECT_EQ(ybuf[1], 0.0f);  // untouched gaps of the strided view
  transform(y, [](float a) { return a * 2.0f; });
  EXPECT_EQ(y(3), 2.0f * (6.0f + 1.5f));
  transform(y, x, [](float a) { return a + 1.0f; });
  EXPECT_EQ(x(3), y(3) + 1.0f);
  EXPECT_EQ(reduce(x, 0.0f, [](float a, float b) { return a + b; }),
            [&] { float s = 0; for (int i = 0; i < 8; ++i) s += x(i); return s; }());
  EXPECT_EQ(reduce(make_tensor(CountingIterator<int>(0), make_shape(_5{})), 0, [](int a, int b) { return a + b; }), 10);
  clear(x);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(x(i), 0.0f);
}

TEST(Gemm, AllModesAgainstLoops) {
  // (V)x(V)=>(V)
  auto a = make_tensor<int>(make_layout(make_shape(_4{})));
  auto b = make_tensor<int>(make_layout(make_shape(_4{})));
  auto c = make_tensor<int>(make_layout(make_shape(_4{})));
  for (int i = 0; i < 4; ++i) a(i) = i + 1, b(i) = 10 * i, c(i) = 1;
  gemm(a, b, c);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(c(i), 1 + (i + 1) * 10 * i);
  // (M)x(N)=>(M,N)
  auto outer = make_tensor<int>(make_layout(make_shape(_4{}, _4{})));
  clear(outer);
  gemm(a, b, outer);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) EXPECT_EQ(outer(m, n), (m + 1) * 10 * n);
  // (M,K)x(N,K)=>(M,N), mixed static/dynamic, B given as (N,K) view of a (K,N) row-major buffer.
  const int M = 5, N = 3, K = 7;
  std::vector<double> A(M * K), Bkn(K * N), C(M * N, 0.5);
  for (int i = 0; i < M * K; ++i) A[std::size_t(i)] = i % 5 - 2;
  for (int i = 0; i < K * N; ++i) Bkn[std::size_t(i)] = i % 3 + 1;
  auto tA = make_tensor(A.data(), make_shape(M, K), make_stride(K, _1{}));         // (M,K)
  auto tB = make_tensor(Bkn.data(), make_shape(N, K), make_stride(_1{}, N));       // (N,K) over a (K,N) row-major buffer
  auto tC = make_tensor(C.data(), make_shape(M, N), make_stride(N, _1{}));         // (M,N)
  gemm(tA, tB, tC);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = 0.5;
      for (int k = 0; k < K; ++k) ref += A[std::size_t(m * K + k)] * Bkn[std::size_t(k * N + n)];
      EXPECT_EQ(tC(m, n), ref);
    }
  // Batched (M,K,L)x(N,K,L)=>(M,N,L)
  auto bA = make_tensor<float>(make_layout(make_shape(_2{}, _3{}, _2{})));
  auto bB = make_tensor<float>(make_layout(make_shape(_2{}, _3{}, _2{})));
  auto bC = make_tensor<float>(make_layout(make_shape(_2{}, _2{}, _2{})));
  for (int i = 0; i < 12; ++i) bA(i) = float(i), bB(i) = float(12 - i);
  clear(bC);
  gemm(bA, bB, bC);
  for (int l = 0; l < 2; ++l)
    for (int m = 0; m < 2; ++m)
      for (int n = 0; n < 2; ++n) {
        float ref = 0;
        for (int k = 0; k < 3; ++k) ref += bA(m, k, l) * bB(n, k, l);
        EXPECT_EQ(bC(m, n, l), ref);
      }
  // Mismatched K on dynamic extents is an error naming gemm.
  auto tA2 = make_tensor(A.data(), make_shape(M, K - 1));
  EXPECT_THROW(gemm(tA2, tB, tC), layout_error);
}

// gemm reads its operands through their layouts: the modes say which is M, N or K, the strides may
// be anything. M-major A and N-major B (the tutorial's NT shared-memory tiles), K-major A and B
// (TN), and a mix, all against the same loops.
TEST(Gemm, AnyOperandMajorness) {
  const int M = 6, N = 4, K = 5;
  std::vector<float> a(M * K), b(N * K);
  for (int i = 0; i < M * K; ++i) a[std::size_t(i)] = float(i % 7 - 3);
  for (int i = 0; i < N * K; ++i) b[std::size_t(i)] = float(i % 5 - 1);
  // The same logical A (m,k) = a[m + M k] and B (n,k) = b[n + N k], stored both ways.
  std::vector<float> at(M * K), bt(N * K);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) at[std::size_t(m * K + k)] = a[std::size_t(m + M * k)];
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) bt[std::size_t(n * K + k)] = b[std::size_t(n + N * k)];
  auto aM = make_tensor(a.data(), make_shape(M, K), make_stride(_1{}, M));   // (M,K) M-major
  auto aK = make_tensor(at.data(), make_shape(M, K), make_stride(K, _1{}));  // (M,K) K-major
  auto bN = make_tensor(b.data(), make_shape(N, K), make_stride(_1{}, N));   // (N,K) N-major
  auto bK = make_tensor(bt.data(), make_shape(N, K), make_stride(K, _1{}));  // (N,K) K-major
  auto check = [&](auto const& tA, auto const& tB) {
    auto c = make_tensor<float>(make_layout(make_shape(Int<M>{}, Int<N>{})));
    clear(c);
    gemm(tA, tB, c);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float ref = 0;
        for (int k = 0; k < K; ++k) ref += a[std::size_t(m + M * k)] * b[std::size_t(n + N * k)];
        EXPECT_EQ(c(m, n), ref) << "m=" << m << " n=" << n;
      }
  };
  check(aM, bN);  // NT
  check(aK, bK);  // TN
  check(aM, bK);
  check(aK, bN);
}

// axpby with b == 0 does not read y (BLAS's beta = 0): an output never initialized, NaN included,
// becomes a*x; with b != 0 it reads y and propagates what it reads.
TEST(Functional, AxpbyWithBetaZeroDoesNotReadY) {
  float const nan = std::numeric_limits<float>::quiet_NaN();
  auto x = make_tensor<float>(make_shape(_4{}));
  for (int i = 0; i < 4; ++i) x(i) = float(i);
  std::vector<float> y(4, nan);  // never initialized output
  auto ty = make_tensor(make_gmem_ptr(y.data()), make_shape(4));
  axpby(2.0f, x, 0.0f, ty);  // dynamic beta = 0
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], 2.0f * float(i));
  std::fill(y.begin(), y.end(), nan);
  axpby(3.0f, x, _0{}, ty);  // static beta = 0
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], 3.0f * float(i));
  axpby(1.0f, x, 0.5f, ty);  // beta != 0 reads y
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], float(i) + 1.5f * float(i));
  std::fill(y.begin(), y.end(), nan);
  axpby(1.0f, x, 1.0f, ty);  // and propagates what it reads
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(std::isnan(y[i]));
}
