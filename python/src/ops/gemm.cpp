// tessera.ops.gemm: kernels::gemm_sm90 for the operand types of kernels.hpp (f16 or bf16 in; the
// same type or f32 out), its kernels compiled on first use by the JIT and launched through the
// driver, by tessera::jit's gemm_sm90 (include/tessera/jit/gemm_sm90.hpp): gemm_sm90_pick's
// configuration for the shape (persistent 128x256, 128x192, 128x128, 64x128 or ping-pong 128x128
// tiles, or stream-K with a workspace allocated on the stream for each call), one NVRTC program per
// configuration, type pair, pair of operand majors and epilogue form (288 in all: D through TMA
// with D = alpha A B or the whole epilogue, or D from registers; a problem compiles only its own,
// 4-6 s the first time on a machine, then the JIT's disk cache), the kernel argument built on
// the host and checked against the device code by the program's static_asserts, operands TMA
// cannot address packed first. Host compiler only: no CUDA header, no CUDA runtime.
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"
#include "tessera/jit/gemm_sm90.hpp"

namespace tessera::python_ops {

namespace {

using jit::GemmSm90JitKernel;

template <class T, class TOut>
kernels::GemmProblem<T, TOut> problem(GemmArgs const& g) {
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
  return p;
}

// f(problem<T, TOut>(g)) for g's types.
template <class F>
decltype(auto) with_problem(GemmArgs const& g, F&& f) {
  if (g.in == DType::f16 && g.out == DType::f16) return f(problem<half_t, half_t>(g));
  if (g.in == DType::f16 && g.out == DType::f32) return f(problem<half_t, float>(g));
  if (g.in == DType::bf16 && g.out == DType::bf16) return f(problem<bfloat16_t, bfloat16_t>(g));
  if (g.in == DType::bf16 && g.out == DType::f32) return f(problem<bfloat16_t, float>(g));
  throw std::invalid_argument("gemm: the inputs must be float16 or bfloat16 and the output the input type or float32");
}

}  // namespace

detail::OpProgram& detail::gemm_program(int key) {
  GemmSm90JitKernel const k = GemmSm90JitKernel::from_index(key);  // throws for a key out of range
  static std::mutex mutex;
  static std::array<std::unique_ptr<OpProgram>, GemmSm90JitKernel::kCount> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = programs[std::size_t(key)];
  if (!p)
    p = std::make_unique<OpProgram>(
        "tessera_ops_gemm.cu",
        // the source depends on the NVRTC that compiles it (the descriptors' alignment): made at
        // the first prepare(), where a missing NVRTC is reported like any compile's
        [k] { return jit::gemm_sm90_jit_source(k, jit::gemm_sm90_jit_descriptor_align()); },
        jit::gemm_sm90_jit_names(k));
  return *p;
}

int gemm_sms() {
  auto const& d = jit::cu::Driver::get();
  return d.device_attribute(jit::cu::kDeviceMultiprocessorCount, d.current_device());
}

int gemm_key(GemmArgs const& g, int sms) {
  return with_problem(g, [&](auto const& p) { return jit::gemm_sm90_jit_kernel(p, sms).index(); });
}

void gemm(GemmArgs const& g, void* stream) {
  int const sms = gemm_sms();
  with_problem(g, [&](auto const& p) {
    kernels::detail::check_gemm_problem("gemm", p);  // before anything is compiled
    detail::OpProgram& program = detail::gemm_program(jit::gemm_sm90_jit_kernel(p, sms).index());
    jit::gemm_sm90_jit_launch(p, program.kernel(0), program.kernel(1), stream, sms);
  });
}

bool have_gemm() { return true; }

}  // namespace tessera::python_ops
