// The kernels of tessera.ops as the extension module (module.cpp, compiled by the host compiler)
// sees them: plain pointers and extents, no CUDA device types. Each is defined in a .cu file of
// this folder, compiled by nvcc for sm_90a: add.cu (kernels::add_vectorized), sgemm.cu
// (kernels::sgemm), gemm.cu (kernels::gemm_sm90, its tile configurations instantiated in
// gemm_instance.cu.in, one translation unit each). Every function checks its arguments against the
// kernel's contract (std::invalid_argument naming the violated condition), launches asynchronously
// on `stream` on the current device and returns the launch's cudaError_t.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tessera::python_ops {

enum class DType { f32, f16, bf16 };

// c[i] = a[i] + b[i] for i < n (n >= 1): three densely stored arrays of the element type t, each
// element-aligned; any n (launched in pieces of at most 2^30 elements).
cudaError_t add(DType t, void const* a, void const* b, void* c, std::int64_t n, cudaStream_t stream);

// One matrix operand: its pointer, leading dimension (elements) and storage order.
struct Matrix {
  void const* ptr = nullptr;
  int ld = 0;
  bool row_major = true;
};

// D = alpha A B + beta C in fp32 (kernels::sgemm): A (m,k), B (k,n), C = D (m,n); m, n, k >= 0.
cudaError_t sgemm(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* d, int ldd, bool d_row_major,
                  cudaStream_t stream);

// D = act(alpha A B + beta C + bias) on the tensor cores (kernels::gemm_sm90): A, B of type `in`
// (f16 or bf16), C, D and bias of type `out` (`in` or f32); C and D share their storage order; c
// may be null when beta == 0, bias null for none; activation: 0 none, 1 relu, 2 gelu, 3 gelu_tanh
// (kernels::GemmActivation).
struct GemmArgs {
  int m = 0, n = 0, k = 0;
  DType in = DType::bf16, out = DType::bf16;
  float alpha = 1.0f, beta = 0.0f;
  Matrix a, b;
  void const* c = nullptr;
  int ldc = 0;
  void* d = nullptr;
  int ldd = 0;
  bool cd_row_major = true;
  void const* bias = nullptr;
  int activation = 0;
};
cudaError_t gemm(GemmArgs const& args, cudaStream_t stream);

// Whether gemm() was built (the CMake option TESSERA_PYTHON_OPS_GEMM): its instantiations take
// minutes of nvcc, so builds that only test compilation can leave them out.
bool have_gemm();

}  // namespace tessera::python_ops
