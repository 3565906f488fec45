// tessera.ops.grouped_gemm: kernels::gemm_sm90_grouped for f16 or bf16 in (the same type or f32
// out), its kernels compiled on first use by the JIT and launched through the driver by
// tessera::jit's gemm_sm90_grouped (include/tessera/jit/gemm_sm90_grouped.hpp): one NVRTC program per
// tile, type pair and major of B (16 in all), holding the grouped kernel and its prepare kernel.
// Host compiler only: no CUDA header, no CUDA runtime.
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"
#include "tessera/jit/gemm_sm90_grouped.hpp"

namespace tessera::python_ops {

namespace {

using jit::GemmSm90GroupedJitKernel;

template <class T, class TOut>
kernels::GemmGroupedProblem<T, TOut> problem(GroupedGemmArgs const& g) {
  kernels::GemmGroupedProblem<T, TOut> p;
  p.groups = g.groups;
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.alpha = g.alpha;
  switch (g.form) {
    case 0: p.form = kernels::GemmGroupedForm::offsets; break;
    case 1: p.form = kernels::GemmGroupedForm::ends; break;
    case 2: p.form = kernels::GemmGroupedForm::masked; break;
    default: throw std::invalid_argument("grouped_gemm: form " + std::to_string(g.form) + " is not 0..2");
  }
  p.rows = g.rows;
  p.a = static_cast<T const*>(g.a);
  p.lda = g.lda;
  p.b = static_cast<T const*>(g.b);
  p.ldb = g.ldb;
  p.stride_b = g.stride_b;
  p.b_major = g.b_row_major ? Major::row : Major::col;
  p.d = static_cast<TOut*>(g.d);
  p.ldd = g.ldd;
  return p;
}

// f(problem<T, TOut>(g)) for g's types.
template <class F>
decltype(auto) with_problem(GroupedGemmArgs const& g, F&& f) {
  if (g.in == DType::f16 && g.out == DType::f16) return f(problem<half_t, half_t>(g));
  if (g.in == DType::f16 && g.out == DType::f32) return f(problem<half_t, float>(g));
  if (g.in == DType::bf16 && g.out == DType::bf16) return f(problem<bfloat16_t, bfloat16_t>(g));
  if (g.in == DType::bf16 && g.out == DType::f32) return f(problem<bfloat16_t, float>(g));
  throw std::invalid_argument(
      "grouped_gemm: the inputs must be float16 or bfloat16 and the output the input type or float32");
}

}  // namespace

detail::OpProgram& detail::grouped_gemm_program(int key) {
  GemmSm90GroupedJitKernel const k = GemmSm90GroupedJitKernel::from_index(key);  // throws out of range
  static std::mutex mutex;
  static std::array<std::unique_ptr<OpProgram>, GemmSm90GroupedJitKernel::kCount> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = programs[std::size_t(key)];
  if (!p)
    p = std::make_unique<OpProgram>(
        "tessera_ops_grouped_gemm.cu",
        [k] { return jit::gemm_sm90_grouped_jit_source(k, jit::gemm_sm90_jit_descriptor_align()); },
        jit::gemm_sm90_grouped_jit_names(k));
  return *p;
}

int grouped_gemm_key(GroupedGemmArgs const& g) {
  return with_problem(g, [&](auto const& p) {
    kernels::detail::check_gemm_grouped_problem("grouped_gemm", p);
    return jit::gemm_sm90_grouped_jit_kernel(p).index();
  });
}

void grouped_gemm(GroupedGemmArgs const& g, void* stream) {
  int const sms = gemm_sms();
  with_problem(g, [&](auto const& p) {
    kernels::detail::check_gemm_grouped_problem("grouped_gemm", p);  // before anything is compiled
    detail::OpProgram& program = detail::grouped_gemm_program(jit::gemm_sm90_grouped_jit_kernel(p).index());
    jit::gemm_sm90_grouped_jit_launch(p, program.kernel(0), program.kernel(1), stream, sms);
  });
}

}  // namespace tessera::python_ops
