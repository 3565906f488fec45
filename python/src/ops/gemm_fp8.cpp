// tessera.ops.scaled_gemm: kernels::gemm_sm90_fp8 (per-tensor and per-row/column scales) and
// gemm_sm90_fp8_block (DeepSeek-V3's block scales) for e4m3 or e5m2 inputs, bf16, fp16 or fp32 out,
// their kernels compiled on first use by the JIT and launched through the driver by tessera::jit's
// gemm_sm90_fp8 (include/tessera/jit/gemm_sm90_fp8.hpp): one NVRTC program per tile, fp8 type,
// output type and epilogue form (108 in all; a call compiles only its own, seconds the first time on
// a machine, then the JIT's disk cache). Host compiler only: no CUDA header, no CUDA runtime.
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"
#include "tessera/jit/gemm_sm90_fp8.hpp"

namespace tessera::python_ops {

namespace {

using jit::GemmSm90Fp8JitKernel;

kernels::GemmScale scale(int kind, float const* data) {
  switch (kind) {
    case 0: return {kernels::GemmScaleKind::none, nullptr};
    case 1: return {kernels::GemmScaleKind::tensor, data};
    case 2: return {kernels::GemmScaleKind::vector, data};
    case 3: return {kernels::GemmScaleKind::block, data};
    default: throw std::invalid_argument("scaled_gemm: scale kind " + std::to_string(kind) + " is not 0..3");
  }
}

template <class T, class TOut>
kernels::GemmFp8Problem<T, TOut> problem(ScaledGemmArgs const& g) {
  kernels::GemmFp8Problem<T, TOut> p;
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.a = static_cast<T const*>(g.a);
  p.lda = g.lda;
  p.a_major = Major::row;
  p.b = static_cast<T const*>(g.b);
  p.ldb = g.ldb;
  p.b_major = Major::col;
  p.d = static_cast<TOut*>(g.d);
  p.ldd = g.ldd;
  p.cd_major = g.d_row_major ? Major::row : Major::col;
  p.bias = static_cast<TOut const*>(g.bias);
  p.scale_a = scale(g.scale_a_kind, g.scale_a);
  p.scale_b = scale(g.scale_b_kind, g.scale_b);
  return p;
}

template <class T, class F>
decltype(auto) with_out(ScaledGemmArgs const& g, F&& f) {
  switch (g.out) {
    case DType::bf16: return f(problem<T, bfloat16_t>(g));
    case DType::f16: return f(problem<T, half_t>(g));
    case DType::f32: break;
  }
  return f(problem<T, float>(g));
}

// f(problem<T, TOut>(g)) for g's types.
template <class F>
decltype(auto) with_problem(ScaledGemmArgs const& g, F&& f) {
  if (g.e5m2) return with_out<float_e5m2_t>(g, f);
  return with_out<float_e4m3_t>(g, f);
}

}  // namespace

detail::OpProgram& detail::scaled_gemm_program(int key) {
  GemmSm90Fp8JitKernel const k = GemmSm90Fp8JitKernel::from_index(key);  // throws out of range
  static std::mutex mutex;
  static std::array<std::unique_ptr<OpProgram>, GemmSm90Fp8JitKernel::kCount> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = programs[std::size_t(key)];
  if (!p)
    p = std::make_unique<OpProgram>(
        "tessera_ops_scaled_gemm.cu",
        [k] { return jit::gemm_sm90_fp8_jit_source(k, jit::gemm_sm90_jit_descriptor_align()); },
        jit::gemm_sm90_fp8_jit_names(k));
  return *p;
}

int scaled_gemm_key(char const* fn, ScaledGemmArgs const& g, int sms) {
  return with_problem(g, [&](auto const& p) {
    kernels::detail::check_gemm_fp8_problem(fn, p);
    return jit::gemm_sm90_fp8_jit_kernel(p, sms).index();
  });
}

void scaled_gemm(char const* fn, ScaledGemmArgs const& g, void* stream) {
  int const sms = gemm_sms();
  with_problem(g, [&](auto const& p) {
    kernels::detail::check_gemm_fp8_problem(fn, p);  // before anything is compiled
    detail::OpProgram& program = detail::scaled_gemm_program(jit::gemm_sm90_fp8_jit_kernel(p, sms).index());
    jit::gemm_sm90_fp8_jit_launch(p, program.kernel(0), stream, sms, fn);
  });
}

}  // namespace tessera::python_ops
