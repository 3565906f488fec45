// GemmProblem: one mixed-precision GEMM, D = alpha A B + beta C, with A (M,K) and B (K,N) of the
// input type T, C and D (M,N) of the output type TOut, each row- or column-major with its own
// leading dimension; its validation, and the transform that lets a kernel assume a row-major D.
// Shared by the tensor-core kernels (gemm_sm80.cuh) and the benchmark.
#pragma once

#include <stdexcept>
#include <string>

#include "tessera/core/layout.hpp"

namespace tessera::kernels {

// One GEMM call: D = alpha A B + beta C, A (M,K), B (K,N), C and D (M,N).
// Pre: m, n, k >= 1; lda >= the contiguous extent of A (K when row-major, M when column-major),
// likewise ldb, ldc, ldd; a, b, d non-null; c non-null when beta != 0 (C may alias D);
// every matrix has fewer than 2^31 elements.
template <class T, class TOut>
struct GemmProblem {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f;
  T const* a = nullptr;
  int lda = 0;
  Major a_major = Major::row;
  T const* b = nullptr;
  int ldb = 0;
  Major b_major = Major::row;
  float beta = 0.0f;
  TOut const* c = nullptr;
  int ldc = 0;
  TOut* d = nullptr;
  int ldd = 0;
  Major cd_major = Major::row;  // C and D
};

namespace detail {
// Checks p against GemmProblem's preconditions; std::invalid_argument naming the first violated,
// e.g. "gemm_sm80: lda = 3 is too small for the row-major 4x8 matrix A; ld must be >= 8".
template <class T, class TOut>
void check_gemm_problem(char const* fn, GemmProblem<T, TOut> const& p) {
  auto need = [fn](bool ok, std::string const& what) {
    if (!ok) throw std::invalid_argument(std::string(fn) + ": " + what);
  };
  need(p.m >= 1 && p.n >= 1 && p.k >= 1, "m, n and k must be >= 1, got " + std::to_string(p.m) + ", " +
                                             std::to_string(p.n) + ", " + std::to_string(p.k));
  auto check_matrix = [&](char const* name, char const* ld_name, int r, int c, int ld, Major major, void const* ptr) {
    long long const minor = major == Major::row ? c : r;
    long long const major_extent = major == Major::row ? r : c;
    std::string const what = std::string(major == Major::row ? "row" : "column") + "-major " + std::to_string(r) +
                             "x" + std::to_string(c) + " matrix " + name;
    need(ptr != nullptr, std::string(name) + " is null");
    need(ld >= minor, std::string(ld_name) + " = " + std::to_string(ld) + " is too small for the " + what +
                          "; ld must be >= " + std::to_string(minor));
    need(major_extent * static_cast<long long>(ld) < (1LL << 31),
         "the " + what + " spans 2^31 or more elements; offsets are 32-bit: split the problem");
  };
  check_matrix("A", "lda", p.m, p.k, p.lda, p.a_major, p.a);
  check_matrix("B", "ldb", p.k, p.n, p.ldb, p.b_major, p.b);
  check_matrix("D", "ldd", p.m, p.n, p.ldd, p.cd_major, p.d);
  if (p.beta != 0.0f) check_matrix("C", "ldc", p.m, p.n, p.ldc, p.cd_major, p.c);
}

// The row-major-D form of p: a column-major D is computed as D^T = B^T A^T.
template <class T, class TOut>
GemmProblem<T, TOut> gemm_as_row_major_d(GemmProblem<T, TOut> p) {
  if (p.cd_major == Major::row) return p;
  auto flip = [](Major x) { return x == Major::row ? Major::col : Major::row; };
  GemmProblem<T, TOut> q = p;
  q.m = p.n;
  q.n = p.m;
  q.a = p.b;
  q.lda = p.ldb;
  q.a_major = flip(p.b_major);
  q.b = p.a;
  q.ldb = p.lda;
  q.b_major = flip(p.a_major);
  q.cd_major = Major::row;
  return q;
}

}  // namespace detail

}  // namespace tessera::kernels
