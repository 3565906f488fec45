// Tests for include/tessera/algorithm/gemm.hpp on the host: every form of gemm(D, A, B, C) and
// gemm(A, B, C) against plain loops (static, dynamic and mixed extents, D distinct from C and D
// equal to C), batched_gemm, and the errors that name the modes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/algorithm/gemm.hpp"

using namespace tessera;

namespace {
// Deterministic small integers so that float sums are exact.
int val(int i, int salt) { return (i * 7 + salt * 3) % 11 - 5; }

template <class Tn>
void fill_pattern(Tn&& t, int salt) {
  for (int i = 0; i < int(size(t)); ++i) t(i) = float(val(i, salt));
}
}  // namespace

TEST(Gemm, ThreeOperandAgainstLoops) {
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
  auto tA = make_tensor(A.data(), make_shape(M, K), make_stride(K, _1{}));    // (M,K)
  auto tB = make_tensor(Bkn.data(), make_shape(N, K), make_stride(_1{}, N));  // (N,K) over a (K,N) row-major buffer
  auto tC = make_tensor(C.data(), make_shape(M, N), make_stride(N, _1{}));    // (M,N)
  gemm(tA, tB, tC);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = 0.5;
      for (int k = 0; k < K; ++k) ref += A[std::size_t(m * K + k)] * Bkn[std::size_t(k * N + n)];
      EXPECT_EQ(tC(m, n), ref);
    }
  // A batch (M,K,L)x(N,K,L)=>(M,N,L) is batched_gemm
  auto bA = make_tensor<float>(make_layout(make_shape(_2{}, _3{}, _2{})));
  auto bB = make_tensor<float>(make_layout(make_shape(_2{}, _3{}, _2{})));
  auto bC = make_tensor<float>(make_layout(make_shape(_2{}, _2{}, _2{})));
  for (int i = 0; i < 12; ++i) bA(i) = float(i), bB(i) = float(12 - i);
  clear(bC);
  batched_gemm(bA, bB, bC);
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

// Law: gemm(D, A, B, C) == A*B + C element-wise for every form, with D a distinct tensor (C is not
// changed) and with D == C (accumulation), static and dynamic extents.
template <class MakeA, class MakeB, class MakeC, class Ref>
void check_four_operand(MakeA make_a, MakeB make_b, MakeC make_c, Ref ref) {
  auto A = make_a();
  auto B = make_b();
  auto C = make_c();
  auto D = make_c();
  fill_pattern(A, 1);
  fill_pattern(B, 2);
  fill_pattern(C, 3);
  fill_pattern(D, 4);  // overwritten, never read
  gemm(D, A, B, C);
  for (int i = 0; i < int(size(C)); ++i) {
    EXPECT_EQ(C(i), float(val(i, 3))) << "C changed at " << i;
    EXPECT_EQ(D(i), ref(A, B, C, i)) << "D at " << i;
  }
  auto E = make_c();
  fill_pattern(E, 3);
  gemm(A, B, E);  // E += A*B
  for (int i = 0; i < int(size(C)); ++i) EXPECT_EQ(E(i), D(i)) << "3-operand at " << i;
}

TEST(Gemm, FourOperandEveryFormAgainstLoops) {
  // (V)x(V)=>(V)
  check_four_operand([] { return make_tensor<float>(make_shape(_5{})); },
                     [] { return make_tensor<float>(make_shape(_5{})); },
                     [] { return make_tensor<float>(make_shape(_5{})); },
                     [](auto const& A, auto const& B, auto const& C, int v) { return A(v) * B(v) + C(v); });
  // (M)x(N)=>(M,N)
  check_four_operand([] { return make_tensor<float>(make_shape(_3{})); },
                     [] { return make_tensor<float>(make_shape(_4{})); },
                     [] { return make_tensor<float>(make_shape(_3{}, _4{})); },
                     [](auto const& A, auto const& B, auto const& C, int i) {
                       int m = i % 3, n = i / 3;
                       return A(m) * B(n) + C(m, n);
                     });
  // (M,K)x(N,K)=>(M,N), K-major A and M-major B
  check_four_operand([] { return make_tensor<float>(make_layout(make_shape(_3{}, _5{}), LayoutRight{})); },
                     [] { return make_tensor<float>(make_shape(_2{}, _5{})); },
                     [] { return make_tensor<float>(make_shape(_3{}, _2{})); },
                     [](auto const& A, auto const& B, auto const& C, int i) {
                       int m = i % 3, n = i / 3;
                       float s = C(m, n);
                       for (int k = 0; k < 5; ++k) s += A(m, k) * B(n, k);
                       return s;
                     });
  // (V,M)x(V,N)=>(V,M,N): element-wise in V, outer product in (M,N); odd M and N for the serpentine
  check_four_operand([] { return make_tensor<float>(make_shape(_2{}, _3{})); },
                     [] { return make_tensor<float>(make_shape(_2{}, _5{})); },
                     [] { return make_tensor<float>(make_shape(_2{}, _3{}, _5{})); },
                     [](auto const& A, auto const& B, auto const& C, int i) {
                       int v = i % 2, m = (i / 2) % 3, n = i / 6;
                       return A(v, m) * B(v, n) + C(v, m, n);
                     });
  // (V,M,K)x(V,N,K)=>(V,M,N)
  check_four_operand([] { return make_tensor<float>(make_shape(_2{}, _3{}, _4{})); },
                     [] { return make_tensor<float>(make_shape(_2{}, _2{}, _4{})); },
                     [] { return make_tensor<float>(make_shape(_2{}, _3{}, _2{})); },
                     [](auto const& A, auto const& B, auto const& C, int i) {
                       int v = i % 2, m = (i / 2) % 3, n = i / 6;
                       float s = C(v, m, n);
                       for (int k = 0; k < 4; ++k) s += A(v, m, k) * B(v, n, k);
                       return s;
                     });
}

TEST(Gemm, FragmentFormsWithDynamicExtents) {
  const int V = 1, M = 3, N = 2, K = 4;
  std::vector<float> a(V * M * K), b(V * N * K), c(V * M * N), d(V * M * N);
  auto A = make_tensor(a.data(), make_shape(V, M, K));  // (V,M,K)
  auto B = make_tensor(b.data(), make_shape(V, N, K));  // (V,N,K)
  auto C = make_tensor(c.data(), make_shape(V, M, N));  // (V,M,N)
  auto D = make_tensor(d.data(), make_shape(V, M, N));  // (V,M,N)
  fill_pattern(A, 5);
  fill_pattern(B, 6);
  fill_pattern(C, 7);
  gemm(D, A, B, C);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = C(0, m, n);
      for (int k = 0; k < K; ++k) s += A(0, m, k) * B(0, n, k);
      EXPECT_EQ(D(0, m, n), s);
    }
}

// Rank-3 operands are fragments, not a batch: the batch shapes of the old gemm are refused with a
// message that points at batched_gemm.
TEST(Gemm, RankThreeIsNotABatch) {
  std::vector<float> a(2 * 3 * 4), b(5 * 3 * 4), c(2 * 5 * 4);
  auto A = make_tensor(a.data(), make_shape(2, 3, 4));  // (M,K,L)
  auto B = make_tensor(b.data(), make_shape(5, 3, 4));  // (N,K,L)
  auto C = make_tensor(c.data(), make_shape(2, 5, 4));  // (M,N,L)
  try {
    gemm(A, B, C);
    FAIL() << "a batch passed to gemm was accepted";
  } catch (layout_error const& e) {
    std::string const msg = e.what();
    EXPECT_NE(msg.find("gemm:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("batched_gemm"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(batched_gemm(A, B, C));
}

TEST(Gemm, BatchedFourOperand) {
  auto A = make_tensor<float>(make_shape(_2{}, _3{}, _2{}));  // (M,K,L)
  auto B = make_tensor<float>(make_shape(_4{}, _3{}, _2{}));  // (N,K,L)
  auto C = make_tensor<float>(make_shape(_2{}, _4{}, _2{}));  // (M,N,L)
  auto D = make_tensor<float>(make_shape(_2{}, _4{}, _2{}));  // (M,N,L)
  fill_pattern(A, 1);
  fill_pattern(B, 2);
  fill_pattern(C, 3);
  batched_gemm(D, A, B, C);
  for (int l = 0; l < 2; ++l)
    for (int m = 0; m < 2; ++m)
      for (int n = 0; n < 4; ++n) {
        float s = C(m, n, l);
        for (int k = 0; k < 3; ++k) s += A(m, k, l) * B(n, k, l);
        EXPECT_EQ(D(m, n, l), s);
      }
}

TEST(Gemm, DMustMatchC) {
  std::vector<float> a(6), b(6), c(4), d(4);
  auto A = make_tensor(a.data(), make_shape(2, 3));
  auto B = make_tensor(b.data(), make_shape(2, 3));
  auto C = make_tensor(c.data(), make_shape(2, 2));
  auto D = make_tensor(d.data(), make_shape(4, 1));
  EXPECT_THROW(gemm(D, A, B, C), layout_error);
}

// The (M,K)x(N,K) form walks rows in pairs and columns in serpentine order: every (m, n) is updated
// exactly once per k, for odd and even M and N, static and dynamic extents alike.
template <int M, int N, int K>
void check_rows_in_pairs() {
  auto run = [](auto tA, auto tB, auto tC) {
    fill_pattern(tA, 1);
    fill_pattern(tB, 2);
    clear(tC);
    gemm(tA, tB, tC);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float ref = 0;
        for (int k = 0; k < K; ++k) ref += tA(m, k) * tB(n, k);
        EXPECT_EQ(tC(m, n), ref) << "M=" << M << " N=" << N << " K=" << K << " m=" << m << " n=" << n;
      }
  };
  run(make_tensor<float>(make_shape(Int<M>{}, Int<K>{})), make_tensor<float>(make_shape(Int<N>{}, Int<K>{})),
      make_tensor<float>(make_shape(Int<M>{}, Int<N>{})));
  std::vector<float> a(M * K), b(N * K), c(M * N);
  run(make_tensor(a.data(), make_shape(M, K)), make_tensor(b.data(), make_shape(N, K)),
      make_tensor(c.data(), make_shape(M, N)));
}

TEST(Gemm, RowPairsAndSerpentineColumnsCoverEveryElement) {
  check_rows_in_pairs<1, 1, 1>();
  check_rows_in_pairs<1, 4, 2>();
  check_rows_in_pairs<2, 3, 3>();
  check_rows_in_pairs<3, 5, 2>();
  check_rows_in_pairs<4, 4, 1>();
  check_rows_in_pairs<5, 2, 4>();
  check_rows_in_pairs<7, 8, 3>();
  check_rows_in_pairs<8, 7, 2>();
}
