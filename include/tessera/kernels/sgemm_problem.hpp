// SgemmProblem: one fp32 GEMM, C = alpha * A * B + beta * C, with A (M,K), B (K,N), C (M,N), each
// row- or column-major with its own leading dimension; its validation and the transform that
// lets every kernel assume a row-major C. Shared by the SGEMM kernel (sgemm.cuh), the example
// ladder built on it (examples/sgemm/) and the benchmark.
//
// Conventions inside the kernels: C is row-major (a column-major C is computed as the row-major
// C^T = B^T A^T by the launcher, which swaps A and B); B is seen as an (N,K) tensor, like A is
// (M,K), so both operands are described by "which of their two modes is contiguous".
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the validation's messages
#include <stdexcept>
#include <string>
#endif

#include "tessera/core/layout.hpp"

namespace tessera::kernels {

// One SGEMM call. Pre: m, n, k >= 0; ld of a row-major (R,C) matrix >= max(1, C), of a column-major
// one >= max(1, R); every matrix has fewer than 2^31 elements (offsets are 32-bit); pointers non-null
// for every matrix that is read or written (A and B when m, n, k > 0; C when m, n > 0).
struct SgemmProblem {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f;
  float const* a = nullptr;
  int lda = 0;
  Major a_major = Major::row;
  float const* b = nullptr;
  int ldb = 0;
  Major b_major = Major::row;
  float beta = 0.0f;
  float* c = nullptr;
  int ldc = 0;
  Major c_major = Major::row;
};

#if !defined(__CUDACC_RTC__)  // host only: what the launcher does before launching
namespace detail {
// Checks p against SgemmProblem's preconditions; throws std::invalid_argument("fn: ...") naming the
// first one violated. check_sgemm_problem("sgemm", p) with p.lda = 3 for a 4x4 row-major A throws
// "sgemm: lda = 3 is too small for the row-major 4x4 matrix A; ld must be >= max(1, 4)".
inline void check_sgemm_problem(char const* fn, SgemmProblem const& p) {
  auto fail = [fn](std::string const& what) { throw std::invalid_argument(std::string(fn) + ": " + what); };
  if (p.m < 0 || p.n < 0 || p.k < 0) {
    fail("m, n and k must be >= 0, got " + std::to_string(p.m) + ", " + std::to_string(p.n) + ", " +
         std::to_string(p.k));
  }
  auto check_matrix = [&](char const* name, char const* ld_name, int r, int c, int ld, Major major) {
    long long const minor = major == Major::row ? c : r;
    long long const major_extent = major == Major::row ? r : c;
    std::string const what = std::string(major == Major::row ? "row" : "column") + "-major " + std::to_string(r) + "x" +
                             std::to_string(c) + " matrix " + name;
    long long const min_ld = minor > 1 ? minor : 1;
    if (ld < min_ld) {
      fail(std::string(ld_name) + " = " + std::to_string(ld) + " is too small for the " + what +
           "; ld must be >= " + std::to_string(min_ld));
    }
    if (major_extent * static_cast<long long>(ld) >= (1LL << 31)) {
      fail("the " + what + " with " + ld_name + " = " + std::to_string(ld) +
           " spans 2^31 or more elements; offsets are 32-bit: split the problem");
    }
  };
  check_matrix("A", "lda", p.m, p.k, p.lda, p.a_major);
  check_matrix("B", "ldb", p.k, p.n, p.ldb, p.b_major);
  check_matrix("C", "ldc", p.m, p.n, p.ldc, p.c_major);
  if (p.m > 0 && p.n > 0 && p.c == nullptr)
    fail("C is null but the problem writes " + std::to_string(p.m) + "x" + std::to_string(p.n) + " elements");
  if (p.m > 0 && p.n > 0 && p.k > 0 && (p.a == nullptr || p.b == nullptr)) fail("A or B is null but k > 0");
}

// The row-major-C form of p: a column-major C is computed as C^T (N,M) = B^T (N,K) A^T (K,M), where
// B^T is B with the other major, and likewise A^T.
inline SgemmProblem as_row_major_c(SgemmProblem p) {
  if (p.c_major == Major::row) return p;
  auto flip = [](Major x) { return x == Major::row ? Major::col : Major::row; };
  SgemmProblem q = p;
  q.m = p.n;
  q.n = p.m;
  q.a = p.b;
  q.lda = p.ldb;
  q.a_major = flip(p.b_major);
  q.b = p.a;
  q.ldb = p.lda;
  q.b_major = flip(p.a_major);
  q.c_major = Major::row;
  return q;
}
}  // namespace detail
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
