// tessera.ops.attention: kernels::attention_forward_sm90 (the Hopper attention forward, docs/
// attention.md) for f16 or bf16 Q, K, V, its kernel compiled on first use by the JIT and launched
// through the driver, by tessera::jit's attention_sm90 (include/tessera/jit/attention_sm90.hpp):
// one NVRTC program per head dimension (64, 128, 256) and element type (6 in all; a call compiles
// only its own, seconds the first time on a machine, then the JIT's disk cache), the kernel
// argument and its 4-D tensor maps built on the host and checked against the device code by the
// program's static_asserts. Host compiler only: no CUDA header, no CUDA runtime.
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "attention_backward.hpp"
#include "jit_programs.hpp"
#include "kernels.hpp"
#include "tessera/jit/attention_bwd_sm90.hpp"
#include "tessera/jit/attention_sm90.hpp"

namespace tessera::python_ops {

namespace {

using jit::AttentionSm90JitKernel;

jit::AttentionSm90JitProblem problem(AttentionArgs const& a) {
  if (a.dtype != DType::f16 && a.dtype != DType::bf16)
    throw std::invalid_argument("attention: Q, K and V must be float16 or bfloat16");
  jit::AttentionSm90JitProblem p;
  p.bf16 = a.dtype == DType::bf16;
  p.q = a.q;
  p.k = a.k;
  p.v = a.v;
  p.o = a.o;
  p.lse = a.lse;
  p.batch = a.batch;
  p.heads_q = a.heads_q;
  p.heads_kv = a.heads_kv;
  p.seq_q = a.seq_q;
  p.seq_k = a.seq_k;
  p.head_dim = a.head_dim;
  auto const strides = [](std::int64_t const(&s)[3]) { return kernels::AttentionStrides{s[0], s[1], s[2], 1}; };
  p.q_strides = strides(a.q_strides);
  p.k_strides = strides(a.k_strides);
  p.v_strides = strides(a.v_strides);
  p.o_strides = strides(a.o_strides);
  p.scale = a.scale;
  p.causal = kernels::AttentionCausal(a.causal);
  p.cu_seqlens_q = a.cu_seqlens_q;
  p.cu_seqlens_k = a.cu_seqlens_k;
  p.total_q = a.total_q;
  p.total_k = a.total_k;
  return p;
}

}  // namespace

detail::OpProgram& detail::attention_program(int key) {
  AttentionSm90JitKernel const k = AttentionSm90JitKernel::from_index(key);  // throws for a key out of range
  static std::mutex mutex;
  static std::array<std::unique_ptr<OpProgram>, AttentionSm90JitKernel::kCount> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = programs[std::size_t(key)];
  if (!p)
    p = std::make_unique<OpProgram>(
        "tessera_ops_attention.cu",
        // the source depends on the NVRTC that compiles it (the descriptors' alignment): made at
        // the first prepare(), where a missing NVRTC is reported like any compile's
        [k] { return jit::attention_sm90_jit_source(k, jit::attention_sm90_jit_descriptor_align()); },
        std::vector<std::string>{jit::attention_sm90_jit_name(k)});
  return *p;
}

void attention_check(char const* fn, AttentionArgs const& a) { jit::check_attention_sm90_jit_problem(fn, problem(a)); }

int attention_key(AttentionArgs const& a) { return jit::attention_sm90_jit_kernel(problem(a)).index(); }

void attention(AttentionArgs const& a, void* stream) {
  jit::AttentionSm90JitProblem const p = problem(a);
  jit::check_attention_sm90_jit_problem("attention", p);  // before anything is compiled
  detail::OpProgram& program = detail::attention_program(jit::attention_sm90_jit_kernel(p).index());
  jit::attention_sm90_jit_launch(p, program.kernel(0), stream);
}

// ---- the backward (attention_backward.hpp) -------------------------------------------------------

namespace {

jit::AttentionBwdSm90JitProblem backward_problem(AttentionBackwardArgs const& a) {
  jit::AttentionBwdSm90JitProblem p;
  p.fwd = problem(a.fwd);
  auto const strides = [](std::int64_t const(&s)[3]) { return kernels::AttentionStrides{s[0], s[1], s[2], 1}; };
  p.dout = a.dout;
  p.dq = a.dq;
  p.dk = a.dk;
  p.dv = a.dv;
  p.dout_strides = strides(a.dout_strides);
  p.dq_strides = strides(a.dq_strides);
  p.dk_strides = strides(a.dk_strides);
  p.dv_strides = strides(a.dv_strides);
  p.workspace = a.workspace;
  p.workspace_bytes = a.workspace_bytes;
  return p;
}

// The backward's programs: three kernels each (attention_bwd_sm90_jit_names).
detail::OpProgram& attention_backward_program(int key) {
  jit::AttentionBwdSm90JitKernel const k = jit::AttentionBwdSm90JitKernel::from_index(key);
  static std::mutex mutex;
  static std::array<std::unique_ptr<detail::OpProgram>, jit::AttentionBwdSm90JitKernel::kCount> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = programs[std::size_t(key)];
  if (!p)
    p = std::make_unique<detail::OpProgram>(
        "tessera_ops_attention_backward.cu",
        [k] { return jit::attention_bwd_sm90_jit_source(k, jit::attention_sm90_jit_descriptor_align()); },
        jit::attention_bwd_sm90_jit_names(k));
  return *p;
}

}  // namespace

std::size_t attention_backward_workspace_bytes(int batch, int heads_q, int seq_q, int head_dim) {
  jit::AttentionBwdSm90JitProblem p;
  p.fwd.batch = batch;
  p.fwd.heads_q = heads_q;
  p.fwd.seq_q = seq_q;
  p.fwd.head_dim = head_dim;
  return jit::attention_bwd_sm90_jit_workspace_bytes(p);
}

void attention_backward_check(char const* fn, AttentionBackwardArgs const& a) {
  jit::check_attention_bwd_sm90_jit_problem(fn, backward_problem(a));
}

int attention_backward_key(AttentionBackwardArgs const& a) {
  return jit::attention_bwd_sm90_jit_kernel(backward_problem(a)).index();
}

void attention_backward_prepare(int key) { attention_backward_program(key).prepare(); }

void attention_backward(AttentionBackwardArgs const& a, void* stream) {
  jit::AttentionBwdSm90JitProblem const p = backward_problem(a);
  jit::check_attention_bwd_sm90_jit_problem("attention_backward", p);
  detail::OpProgram& program = attention_backward_program(jit::attention_bwd_sm90_jit_kernel(p).index());
  jit::attention_bwd_sm90_jit_launch(p, program.kernel(0), program.kernel(1), program.kernel(2), stream);
}

}  // namespace tessera::python_ops
