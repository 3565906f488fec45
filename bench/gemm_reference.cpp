// cublas_sgemm: the in-run reference of every SGEMM (gemm_reference.hpp).
#include "bench/gemm_reference.hpp"

namespace tessera::bench {

cublasStatus_t cublas_sgemm(cublasHandle_t h, kernels::SgemmProblem const& p) {
  auto op = [](bool transposed) { return transposed ? CUBLAS_OP_T : CUBLAS_OP_N; };
  if (p.c_major == Major::col) {
    return cublasSgemm(h, op(p.a_major == Major::row), op(p.b_major == Major::row), p.m, p.n, p.k, &p.alpha, p.a,
                       p.lda, p.b, p.ldb, &p.beta, p.c, p.ldc);
  }
  return cublasSgemm(h, op(p.b_major == Major::col), op(p.a_major == Major::col), p.n, p.m, p.k, &p.alpha, p.b,
                     p.ldb, p.a, p.lda, &p.beta, p.c, p.ldc);
}

}  // namespace tessera::bench
