// prepared() and prepare() of kernels.hpp: the program of an (op, key) pair (jit_programs.hpp).
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"
#include "tessera/jit/attention_sm90.hpp"
#include "tessera/jit/gemm_sm90.hpp"
#include "tessera/jit/gemm_sm90_fp8.hpp"
#include "tessera/jit/gemm_sm90_grouped.hpp"

namespace tessera::python_ops {

namespace {
constexpr int gemm_keys = jit::GemmSm90JitKernel::kCount;

detail::OpProgram& program(Op op, int key) {
  switch (op) {
    case Op::add:
      if (key == int(DType::f32) || key == int(DType::f16) || key == int(DType::bf16))
        return detail::add_program(DType(key));
      break;
    case Op::sgemm:
      if (key == 0) return detail::sgemm_program();
      break;
    case Op::copy:
      if (key == 2 || key == 4) return detail::copy_program(key);
      break;
    case Op::gemm:
      if (key >= 0 && key < gemm_keys) return detail::gemm_program(key);
      break;
    case Op::attention:
      if (key >= 0 && key < jit::AttentionSm90JitKernel::kCount) return detail::attention_program(key);
      break;
    case Op::grouped_gemm:
      if (key >= 0 && key < jit::GemmSm90GroupedJitKernel::kCount) return detail::grouped_gemm_program(key);
      break;
    case Op::scaled_gemm:
      if (key >= 0 && key < jit::GemmSm90Fp8JitKernel::kCount) return detail::scaled_gemm_program(key);
      break;
  }
  throw std::invalid_argument("tessera.ops: no program for op " + std::to_string(int(op)) + " and key " +
                              std::to_string(key));
}
}  // namespace

bool prepared(Op op, int key) { return program(op, key).ready(); }

Prepared prepare(Op op, int key) { return program(op, key).prepare(); }

}  // namespace tessera::python_ops
