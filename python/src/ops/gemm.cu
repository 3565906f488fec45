// tessera.ops.gemm: kernels::gemm_sm90 for the operand types of kernels.hpp (f16 or bf16 in; the
// same type or f32 out). gemm_sm90 picks one of the tile configurations of
// TESSERA_GEMM_SM90_CHOICES (include/tessera/kernels/gemm_sm90.cuh: persistent tiles, ping-pong,
// stream-K) and dispatches on the operands' storage orders: four kernels a configuration and type
// pair. Here they are declared only (extern template, instances/gemm_sm90.hpp); tessera::instances
// compiles them. The only unit of tessera._ops that nvcc compiles and that uses the CUDA runtime:
// it launches in the runtime's current context, which module.cpp made the device's primary context
// through the driver (the runtime uses it), on the caller's stream (a cudaStream_t is a CUstream).
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "instances/gemm_sm90.hpp"  // the kernels, compiled once in tessera::instances (instances/table.txt)
#include "kernels.hpp"

namespace tessera::python_ops {

namespace {
template <class T, class TOut>
cudaError_t run(GemmArgs const& g, cudaStream_t stream) {
  kernels::GemmProblem<T, TOut> p;
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.alpha = g.alpha;
  p.a = static_cast<T const*>(g.a.ptr);
  p.lda = g.a.ld;
  p.a_major = g.a.row_major ? Major::row : Major::col;
  p.b = static_cast<T const*>(g.b.ptr);
  p.ldb = g.b.ld;
  p.b_major = g.b.row_major ? Major::row : Major::col;
  p.beta = g.beta;
  p.c = static_cast<TOut const*>(g.c);
  p.ldc = g.ldc;
  p.d = static_cast<TOut*>(g.d);
  p.ldd = g.ldd;
  p.cd_major = g.cd_row_major ? Major::row : Major::col;
  p.bias = static_cast<TOut const*>(g.bias);
  switch (g.activation) {
    case 0: p.activation = kernels::GemmActivation::none; break;
    case 1: p.activation = kernels::GemmActivation::relu; break;
    case 2: p.activation = kernels::GemmActivation::gelu; break;
    case 3: p.activation = kernels::GemmActivation::gelu_tanh; break;
    default: throw std::invalid_argument("gemm: activation " + std::to_string(g.activation) + " is not 0..3");
  }
  return kernels::gemm_sm90(p, stream);
}
}  // namespace

void gemm(GemmArgs const& g, void* stream_handle) {
  auto* const stream = static_cast<cudaStream_t>(stream_handle);
  cudaError_t e = cudaSuccess;
  if (g.in == DType::f16 && g.out == DType::f16) e = run<half_t, half_t>(g, stream);
  else if (g.in == DType::f16 && g.out == DType::f32) e = run<half_t, float>(g, stream);
  else if (g.in == DType::bf16 && g.out == DType::bf16) e = run<bfloat16_t, bfloat16_t>(g, stream);
  else if (g.in == DType::bf16 && g.out == DType::f32) e = run<bfloat16_t, float>(g, stream);
  else
    throw std::invalid_argument(
        "gemm: the inputs must be float16 or bfloat16 and the output the input type or float32");
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear a non-sticky error so that the next call starts clean
    throw std::runtime_error(std::string("the kernel launch failed: ") + cudaGetErrorName(e) + " (" +
                             cudaGetErrorString(e) + ")");
  }
}

bool have_gemm() { return true; }

}  // namespace tessera::python_ops
