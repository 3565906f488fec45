// cublas_sgemm: the in-run reference of every SGEMM (gemm_reference.hpp).
#include "support/gemm_reference.hpp"

namespace tessera::test {

cublasStatus_t cublas_sgemm(cublasHandle_t h, kernels::SgemmProblem const& p) {
  auto op = [](bool transposed) { return transposed ? CUBLAS_OP_T : CUBLAS_OP_N; };
  if (p.c_major == Major::col) {
    return cublasSgemm(h, op(p.a_major == Major::row), op(p.b_major == Major::row), p.m, p.n, p.k, &p.alpha, p.a, p.lda,
                       p.b, p.ldb, &p.beta, p.c, p.ldc);
  }
  return cublasSgemm(h, op(p.b_major == Major::col), op(p.a_major == Major::col), p.n, p.m, p.k, &p.alpha, p.b, p.ldb,
                     p.a, p.lda, &p.beta, p.c, p.ldc);
}

namespace {
template <class T>
constexpr cudaDataType_t cuda_type() {
  if constexpr (std::is_same_v<T, half_t>) return CUDA_R_16F;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return CUDA_R_16BF;
  else return CUDA_R_32F;
}
}  // namespace

template <class T, class TOut>
cublasStatus_t cublas_gemm(cublasHandle_t h, kernels::GemmProblem<T, TOut> const& p) {
  auto op = [](bool transposed) { return transposed ? CUBLAS_OP_T : CUBLAS_OP_N; };
  constexpr cudaDataType_t ti = cuda_type<T>(), to = cuda_type<TOut>();
  // cuBLAS computes D = alpha A B + beta D in place: with beta != 0, C must be D.
  if (p.beta != 0.0f && p.c != p.d) return CUBLAS_STATUS_INVALID_VALUE;
  if (p.cd_major == Major::col) {
    return cublasGemmEx(h, op(p.a_major == Major::row), op(p.b_major == Major::row), p.m, p.n, p.k, &p.alpha, p.a, ti,
                        p.lda, p.b, ti, p.ldb, &p.beta, p.d, to, p.ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
  return cublasGemmEx(h, op(p.b_major == Major::col), op(p.a_major == Major::col), p.n, p.m, p.k, &p.alpha, p.b, ti,
                      p.ldb, p.a, ti, p.lda, &p.beta, p.d, to, p.ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

template cublasStatus_t cublas_gemm(cublasHandle_t, kernels::GemmProblem<half_t, float> const&);
template cublasStatus_t cublas_gemm(cublasHandle_t, kernels::GemmProblem<half_t, half_t> const&);
template cublasStatus_t cublas_gemm(cublasHandle_t, kernels::GemmProblem<half_t, bfloat16_t> const&);
template cublasStatus_t cublas_gemm(cublasHandle_t, kernels::GemmProblem<bfloat16_t, float> const&);
template cublasStatus_t cublas_gemm(cublasHandle_t, kernels::GemmProblem<bfloat16_t, half_t> const&);
template cublasStatus_t cublas_gemm(cublasHandle_t, kernels::GemmProblem<bfloat16_t, bfloat16_t> const&);

}  // namespace tessera::test
