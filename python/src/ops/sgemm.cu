// tessera.ops.sgemm: kernels::sgemm (fp32 on the CUDA cores) on a problem described by kernels.hpp.
#include "kernels.hpp"
#include "tessera/kernels/sgemm.cuh"

namespace tessera::python_ops {

cudaError_t sgemm(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* d, int ldd, bool d_row_major,
                  cudaStream_t stream) {
  kernels::SgemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.a = static_cast<float const*>(a.ptr);
  p.lda = a.ld;
  p.a_major = a.row_major ? Major::row : Major::col;
  p.b = static_cast<float const*>(b.ptr);
  p.ldb = b.ld;
  p.b_major = b.row_major ? Major::row : Major::col;
  p.beta = beta;
  p.c = d;
  p.ldc = ldd;
  p.c_major = d_row_major ? Major::row : Major::col;
  return kernels::sgemm(p, stream);
}

}  // namespace tessera::python_ops
