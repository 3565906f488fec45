// SGEMM problem description shared by every kernel of the ladder (sgemm_v1_blocktile.cuh,
// sgemm_tiled.cuh) and the launcher (sgemm.cuh): C = alpha * A * B + beta * C in fp32, A (M,K),
// B (K,N), C (M,N), each row- or column-major with its own leading dimension.
//
// Conventions inside the kernels: C is row-major (a column-major C is computed as the row-major
// C^T = B^T A^T by the launcher, which swaps A and B); B is seen as an (N,K) tensor, like A is
// (M,K), so both operands are described by "which of their two modes is contiguous".
#pragma once

#include <cuda_runtime.h>

#include "tessera/kernels/major.hpp"
#include "tessera/tessera.hpp"

namespace tessera::kernels {

// One SGEMM call. Pre: m, n, k >= 0; ld of a row-major (R,C) matrix >= max(1, C), of a column-major
// one >= max(1, R); every matrix has fewer than 2^31 elements (offsets are 32-bit).
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

// The (rows, cols) -> offset layout of a matrix with leading dimension ld: (R,C):(ld,_1) when
// RowMajor, (R,C):(_1,ld) otherwise. make_matrix_layout<true>(4, 8, 8) == (4,8):(8,_1).
template <bool RowMajor>
TESSERA_HOST_DEVICE constexpr auto make_matrix_layout(int rows, int cols, int ld) {
  if constexpr (RowMajor) {
    return make_layout(make_shape(rows, cols), make_stride(ld, _1{}));
  } else {
    return make_layout(make_shape(rows, cols), make_stride(_1{}, ld));
  }
}

namespace detail {
// Whether p (a float pointer) and the leading dimension ld allow aligned 128-bit accesses along
// the contiguous mode: p 16-byte aligned and ld a multiple of 4 floats.
inline bool vector_aligned(float const* p, int ld) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && ld % 4 == 0;
}

// Checks a problem against SgemmProblem's preconditions; cudaErrorInvalidValue when violated.
inline cudaError_t check_problem(SgemmProblem const& p) {
  auto fits = [](int r, int c, int ld, Major major) {
    long long const minor = major == Major::row ? c : r;
    long long const major_extent = major == Major::row ? r : c;
    return ld >= (minor > 1 ? minor : 1) && major_extent * static_cast<long long>(ld) < (1LL << 31);
  };
  if (p.m < 0 || p.n < 0 || p.k < 0) return cudaErrorInvalidValue;
  if (!fits(p.m, p.k, p.lda, p.a_major) || !fits(p.k, p.n, p.ldb, p.b_major) ||
      !fits(p.m, p.n, p.ldc, p.c_major)) {
    return cudaErrorInvalidValue;
  }
  if (p.m > 0 && p.n > 0 && (p.c == nullptr || (p.k > 0 && (p.a == nullptr || p.b == nullptr)))) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
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

}  // namespace tessera::kernels
