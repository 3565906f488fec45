// tessera.ops.gemm: kernels::gemm_sm90 for the operand types of kernels.hpp (f16 or bf16 in; the
// same type or f32 out). gemm_sm90 picks one of the tile configurations of
// TESSERA_GEMM_SM90_CHOICES (include/tessera/kernels/gemm_sm90.cuh: persistent tiles, ping-pong,
// stream-K) and dispatches on the operands' storage orders: four kernels a configuration and type
// pair, about 5 s of nvcc each. Here they are declared only (extern template); gemm_instance.cu.in
// instantiates them, one configuration (by its index in GemmSm90Choices) and type pair a
// translation unit, so that a parallel build compiles them side by side.
#include <stdexcept>
#include <string>
#include <tuple>

#include "kernels.hpp"
#include "tessera/kernels/gemm_sm90.cuh"

// python/CMakeLists.txt generates one unit per index below TESSERA_OPS_GEMM_CHOICES.
static_assert(std::tuple_size_v<tessera::kernels::GemmSm90Choices> == TESSERA_OPS_GEMM_CHOICES,
              "python/CMakeLists.txt: tessera_ops_gemm_choices must be the number of TESSERA_GEMM_SM90_CHOICES");

namespace tessera::kernels::detail {
// The configurations gemm_sm90 chooses from, for the type pair TESSERA_OPS_T -> TESSERA_OPS_TOUT,
// instantiated elsewhere.
#define TESSERA_OPS_GEMM_EXTERN(Cfg)                                                                                 \
  extern template cudaError_t gemm_sm90_run<Cfg, TESSERA_OPS_T, TESSERA_OPS_TOUT>(                                    \
      char const*, GemmProblem<TESSERA_OPS_T, TESSERA_OPS_TOUT> const&, cudaStream_t, int);
#define TESSERA_OPS_T half_t
#define TESSERA_OPS_TOUT half_t
TESSERA_GEMM_SM90_CHOICES(TESSERA_OPS_GEMM_EXTERN)
#undef TESSERA_OPS_TOUT
#define TESSERA_OPS_TOUT float
TESSERA_GEMM_SM90_CHOICES(TESSERA_OPS_GEMM_EXTERN)
#undef TESSERA_OPS_T
#undef TESSERA_OPS_TOUT
#define TESSERA_OPS_T bfloat16_t
#define TESSERA_OPS_TOUT bfloat16_t
TESSERA_GEMM_SM90_CHOICES(TESSERA_OPS_GEMM_EXTERN)
#undef TESSERA_OPS_TOUT
#define TESSERA_OPS_TOUT float
TESSERA_GEMM_SM90_CHOICES(TESSERA_OPS_GEMM_EXTERN)
#undef TESSERA_OPS_T
#undef TESSERA_OPS_TOUT
#undef TESSERA_OPS_GEMM_EXTERN
}  // namespace tessera::kernels::detail

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

cudaError_t gemm(GemmArgs const& g, cudaStream_t stream) {
  if (g.in == DType::f16 && g.out == DType::f16) return run<half_t, half_t>(g, stream);
  if (g.in == DType::f16 && g.out == DType::f32) return run<half_t, float>(g, stream);
  if (g.in == DType::bf16 && g.out == DType::bf16) return run<bfloat16_t, bfloat16_t>(g, stream);
  if (g.in == DType::bf16 && g.out == DType::f32) return run<bfloat16_t, float>(g, stream);
  throw std::invalid_argument("gemm: the inputs must be float16 or bfloat16 and the output the input type or float32");
}

bool have_gemm() { return true; }

}  // namespace tessera::python_ops
