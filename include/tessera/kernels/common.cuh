// Helpers shared by the kernels of this folder (and the example ladders built on them): matrix
// views of a (rows, cols, leading dimension, Major) description, alignment tests for 128-bit
// accesses, a 128-bit register copy, and the launchers' argument checks.
//
// Error policy of every launcher (docs/errors.md): arguments outside the documented contract
// throw std::invalid_argument before anything is launched (the message names the function, the
// condition, the values and the fix); the launch itself returns its cudaError_t.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the launchers' checks
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#endif

#include "tessera/algorithm/copy.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/tensor/tiling.hpp"

namespace tessera::kernels {

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

// The row-major view of a densely stored M x N matrix: rows x cols with leading dimension ld
// (elements). A column-major matrix is the row-major view of its transpose, so an elementwise
// kernel written for rows sees both orders.
struct RowProblem {
  int rows, cols;
  std::int64_t ld;
};

// (rows,cols) -> element offset, unit stride along a row (static _1, so slices along a row are
// static layouts that copy() can vectorize).
TESSERA_HOST_DEVICE auto row_layout(int rows, int cols, std::int64_t ld) {
  return make_layout(make_shape(rows, cols), make_stride(ld, _1{}));
}

// copy_128(src, dst): copy() restricted to 128-bit accesses. The launchers checked the alignment on
// the host, so the element-wise fallback is only a guard and never runs; it keeps the kernels free
// of copy()'s 64/32/16-bit alternatives (fewer registers, less code).
template <class Src, class Dst>
__device__ __forceinline__ void copy_128(Src const& src, Dst&& dst) {
  if (!tessera::detail::copy_vectorized<128>(src, dst)) {
    TESSERA_UNROLL
    for (int i = 0; i < int(decltype(size(src))::value); ++i) dst(i) = src(i);
  }
}

// ---- kernels specialized on a static (M,N) layout (the JIT's instantiations) -----------------

// The largest power of two dividing x (x = 0: 2^30, "any").
TESSERA_HOST_DEVICE constexpr long long pow2_divisor(long long x) {
  if (x < 0) x = -x;
  if (x == 0) return 1LL << 30;
  long long p = 1;
  while (x % (2 * p) == 0) p *= 2;
  return p;
}

// Whether a kernel over the static (M,N) layout L (rank 2, depth 1) can index in int: thread
// indices up to M * N and a block beyond, and offsets up to |stride0| (M-1) + |stride1| (N-1)
// either way (negative strides included).
template <class L>
TESSERA_HOST_DEVICE constexpr bool static_fits_int() {
  constexpr long long limit = 1LL << 31;
  constexpr long long m = decltype(size<0>(L{}))::value, n = decltype(size<1>(L{}))::value;
  constexpr long long s0 = decltype(stride<0>(L{}))::value, s1 = decltype(stride<1>(L{}))::value;
  constexpr long long a0 = s0 < 0 ? -s0 : s0, a1 = s1 < 0 ? -s1 : s1;
  return m * n + 1024 < limit && a0 * (m - 1) + a1 * (n - 1) < limit;
}

// The index type of such a kernel: int where static_fits_int holds (the usual case), else 64-bit.
template <class L>
using static_index_t = std::conditional_t<static_fits_int<L>(), int, std::int64_t>;

#if !defined(__CUDACC_RTC__)  // host only: the launchers' view of a problem and their checks
// row_problem(M, N, major): the row-major view (RowProblem) of an M x N matrix stored as `major`.
inline RowProblem row_problem(int M, int N, Major major) {
  return major == Major::row ? RowProblem{M, N, N} : RowProblem{N, M, M};
}

// aligned16(p): whether p is 16-byte aligned.
template <class T>
bool aligned16(T const* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Whether p and the leading dimension ld (elements) allow aligned 128-bit accesses along the
// contiguous mode: p 16-byte aligned and every row (or column) starting on a 16-byte boundary.
template <class T>
bool vector_aligned(T const* p, std::int64_t ld) {
  return aligned16(p) && (ld * std::int64_t(sizeof(T))) % 16 == 0;
}

// require(ok, fn, what): the launchers' argument check; throws std::invalid_argument("fn: what").
inline void require(bool ok, char const* fn, std::string const& what) {
  if (!ok) throw std::invalid_argument(std::string(fn) + ": " + what);
}

// The M, N >= 1 precondition of the matrix kernels.
inline void require_extents(char const* fn, int M, int N) {
  require(M >= 1 && N >= 1, fn, "M and N must be >= 1, got M = " + std::to_string(M) + ", N = " + std::to_string(N));
}
#endif  // !__CUDACC_RTC__

}  // namespace detail
}  // namespace tessera::kernels
