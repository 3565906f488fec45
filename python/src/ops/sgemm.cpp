// tessera.ops.sgemm: kernels::sgemm's tuned kernel (sgemm_tiled_kernel<SgemmTuned, ...>, fp32 on the
// CUDA cores) compiled on first use (jit_programs.hpp) and launched as kernels::sgemm launches it:
// launch_sgemm's frame (the problem checked, a column-major C computed as the row-major C^T = B^T
// A^T, nothing for M or N = 0, sgemm_scale_c_kernel for K = 0) around launch_sgemm_tiled<SgemmTuned>
// (include/tessera/kernels/sgemm.cuh and sgemm_tiled.cuh; those headers include the CUDA runtime
// on the host, so the geometry is repeated here, and checked by the program's static_assert).
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"
#include "tessera/kernels/sgemm_problem.hpp"  // host-compilable: SgemmProblem, its check and transform

namespace tessera::python_ops {

namespace {

// SgemmTuned's tile and block (sgemm.cuh), checked by the program's static_assert.
constexpr int kBM = 128, kBN = 128, kThreads = 128;
constexpr int kScaleThreads = 256;  // launch_sgemm's block for K = 0

using kernels::SgemmProblem;

// The problem of sgemm()'s arguments (the launcher's struct, from the CUDA-free
// tessera/kernels/sgemm_problem.hpp, whose checks and transform are used as they are).
SgemmProblem problem(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* d, int ldd, bool d_row) {
  SgemmProblem p;
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
  p.c_major = d_row ? Major::row : Major::col;
  return p;
}

}  // namespace

detail::OpProgram& detail::sgemm_program() {
  static OpProgram program("tessera_ops_sgemm.cu",
                           "#include \"tessera/kernels/sgemm.cuh\"\n"
                           "static_assert(tessera::kernels::SgemmTuned::BM == " +
                               std::to_string(kBM) + " && tessera::kernels::SgemmTuned::BN == " + std::to_string(kBN) +
                               " && tessera::kernels::SgemmTuned::kThreads == " + std::to_string(kThreads) +
                               ", \"tessera.ops.sgemm launches SgemmTuned as (BM, BN, threads) = (" +
                               std::to_string(kBM) + ", " + std::to_string(kBN) + ", " + std::to_string(kThreads) +
                               "): update python/src/ops/sgemm.cpp to the header's configuration\");\n",
                           {"tessera::kernels::sgemm_tiled_kernel<tessera::kernels::SgemmTuned, true, true>",
                            "tessera::kernels::sgemm_tiled_kernel<tessera::kernels::SgemmTuned, true, false>",
                            "tessera::kernels::sgemm_tiled_kernel<tessera::kernels::SgemmTuned, false, true>",
                            "tessera::kernels::sgemm_tiled_kernel<tessera::kernels::SgemmTuned, false, false>",
                            "tessera::kernels::detail::sgemm_scale_c_kernel<float>"});
  return program;
}

void sgemm_check(char const* fn, int m, int n, int k, Matrix a, Matrix b, float* d, int ldd, bool d_row_major) {
  kernels::detail::check_sgemm_problem(fn, problem(m, n, k, 1.0f, a, b, 0.0f, d, ldd, d_row_major));
}

void sgemm(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* d, int ldd, bool d_row_major,
           void* stream) {
  SgemmProblem const given = problem(m, n, k, alpha, a, b, beta, d, ldd, d_row_major);
  kernels::detail::check_sgemm_problem("sgemm", given);
  SgemmProblem const p = kernels::detail::as_row_major_c(given);
  if (p.m == 0 || p.n == 0) return;
  detail::OpProgram& program = detail::sgemm_program();
  jit::LaunchConfig cfg;
  cfg.stream = stream;
  if (p.k == 0) {  // C = beta C, one thread an element
    long long const count = static_cast<long long>(p.m) * p.n;
    cfg.grid = {static_cast<unsigned>((count + kScaleThreads - 1) / kScaleThreads)};
    cfg.block = {unsigned(kScaleThreads)};
    program.kernel(4).launch(cfg, p.m, p.n, p.beta, p.c, p.ldc);
    return;
  }
  // launch_sgemm_tiled<SgemmTuned>: ceil(M/BM) * ceil(N/BN) blocks (1-D); A k-major when row-major,
  // B (seen as (N,K)) k-major when column-major; 128-bit accesses where the operand allows them.
  cfg.grid = {static_cast<unsigned>(((p.m + kBM - 1LL) / kBM) * ((p.n + kBN - 1LL) / kBN))};
  cfg.block = {unsigned(kThreads)};
  bool const ak = p.a_major == Major::row;
  bool const bk = p.b_major == Major::col;
  bool const vec_a = detail::vector_aligned(p.a, p.lda, 4);
  bool const vec_b = detail::vector_aligned(p.b, p.ldb, 4);
  bool const vec_c = detail::vector_aligned(p.c, p.ldc, 4);
  std::size_t const which = (ak ? 0 : 2) + (bk ? 0 : 1);
  program.kernel(which).launch(cfg, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc, vec_a, vec_b,
                               vec_c);
}

}  // namespace tessera::python_ops
