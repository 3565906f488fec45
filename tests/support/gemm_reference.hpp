// The GEMM reference and its tolerance, shared by the GEMM tests and the benchmark's verification.
//
// Reference: cuBLAS in its default math mode (no TF32 for fp32), run on the same inputs in the
// same process. Tolerance, per element of C (K-term rounding of both results):
//   |C - C_ref| <= gemm_tolerance_factor(K, eps) * (|alpha| sum_k |A_ik B_kj| + |beta C_ij|)
// with gemm_tolerance_factor(K, eps) = 2 (K + 2) eps; the scale comes from the reference run on
// |A|, |B|, |C| (cublas_sgemm with |alpha|, |beta|). A NaN never passes.
#pragma once

#include <cublas_v2.h>

#include <cfloat>
#include <type_traits>

#include "tessera/core/numeric.hpp"
#include "tessera/kernels/gemm_problem.hpp"
#include "tessera/kernels/sgemm_problem.hpp"

namespace tessera::test {

// 2 (K + 2) eps: the relative error bound of a K-term dot product computed twice (kernel and
// reference), each with eps rounding per term.
inline double gemm_tolerance_factor(int k, double eps = double(FLT_EPSILON)) { return 2.0 * (k + 2) * eps; }

// cublasSgemm on an SgemmProblem with any majors, on the handle's stream (asynchronous). cuBLAS is
// column-major: a row-major C is computed as the column-major C^T = B^T A^T.
cublasStatus_t cublas_sgemm(cublasHandle_t handle, kernels::SgemmProblem const& p);

// cublasGemmEx on a GemmProblem (half_t or bfloat16_t inputs, float / half_t / bfloat16_t output,
// fp32 compute: CUBLAS_COMPUTE_32F), any majors, asynchronous on the handle's stream. cuBLAS works
// in place: with beta != 0, p.c must equal p.d (CUBLAS_STATUS_INVALID_VALUE otherwise).
template <class T, class TOut>
cublasStatus_t cublas_gemm(cublasHandle_t handle, kernels::GemmProblem<T, TOut> const& p);

// The relative precision of a type's rounding: 2^-24 (float), 2^-11 (half_t), 2^-8 (bfloat16_t);
// an output of that type carries up to that relative error more than its fp32 accumulation, plus,
// below the type's normal range, up to underflow_roundoff<T>() absolute (half its subnormal spacing:
// 2^-25 for half_t, negligible for bfloat16_t and float, whose exponent range is fp32's).
template <class T>
constexpr double unit_roundoff() {
  if constexpr (std::is_same_v<T, half_t>) return 1.0 / 2048.0;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return 1.0 / 256.0;
  else return double(FLT_EPSILON) / 2.0;
}
template <class T>
constexpr double underflow_roundoff() {
  if constexpr (std::is_same_v<T, half_t>) return 1.0 / 33554432.0;  // 2^-25
  else return 0.0;
}

}  // namespace tessera::test
