// tessera::jit's attention backward (include/tessera/jit/attention_bwd_sm90.hpp), without a GPU:
// the programs compile under NVRTC with the host's copies of the argument structs (their
// static_asserts hold), a drifted copy is a compile error naming the file, the kernel numbers
// round-trip, and the problem's checks are the launcher's. The launch itself runs on the device
// (tests/python/test_attention_backward.py through tessera.ops.attention).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/attention_bwd_sm90.hpp"
#include "tessera/jit/compile.hpp"

namespace tessera::jit {
namespace {

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

TEST(JitAttentionBwdSm90, KernelNumbersRoundTrip) {
  for (int i = 0; i < AttentionBwdSm90JitKernel::kCount; ++i)
    EXPECT_EQ(AttentionBwdSm90JitKernel::from_index(i).index(), i);
  EXPECT_THROW(AttentionBwdSm90JitKernel::from_index(8), std::invalid_argument);
}

TEST(JitAttentionBwdSm90, ProgramsCompileWithTheHostsLayout) {
  TESSERA_REQUIRE_NVRTC();
  int const align = attention_sm90_jit_descriptor_align();
  for (int i = 0; i < AttentionBwdSm90JitKernel::kCount; ++i) {
    AttentionBwdSm90JitKernel const k = AttentionBwdSm90JitKernel::from_index(i);
    std::vector<std::string> const names = attention_bwd_sm90_jit_names(k);
    Program const p = compile(attention_bwd_sm90_jit_source(k, align), names, hopper());
    ASSERT_EQ(p.size(), 3u) << i;
    EXPECT_EQ(p.kernel(1).name(), names[1]);
  }
}

TEST(JitAttentionBwdSm90, ADriftedHostCopyIsACompileError) {
  TESSERA_REQUIRE_NVRTC();
  AttentionBwdSm90JitKernel const k{128, true, false};
  std::string source = attention_bwd_sm90_jit_source(k, attention_sm90_jit_descriptor_align());
  std::string const from = "\"the offset of P::dq_accum\", ";
  std::size_t const at = source.find(from);
  ASSERT_NE(at, std::string::npos);
  source.insert(at + from.size(), "8 + ");
  try {
    (void)compile(source, attention_bwd_sm90_jit_names(k), hopper());
    FAIL() << "a drifted host copy compiled";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find("include/tessera/jit/attention_bwd_sm90.hpp"), std::string::npos) << e.what();
  }
}

TEST(JitAttentionBwdSm90, TheChecksAreTheLaunchers) {
  AttentionBwdSm90JitProblem p;
  AttentionSm90JitProblem& f = p.fwd;
  auto* const fake = reinterpret_cast<void*>(std::uintptr_t(1) << 20);
  f.q = f.k = f.v = fake;
  f.o = fake;
  f.lse = static_cast<float*>(fake);
  f.batch = 2;
  f.heads_q = f.heads_kv = 4;
  f.seq_q = f.seq_k = 300;
  f.head_dim = 64;
  f.q_strides = f.k_strides = f.v_strides = f.o_strides = kernels::attention_dense_strides(4, 300, 64);
  p.dout = p.dq = p.dk = p.dv = fake;
  p.dout_strides = p.dq_strides = p.dk_strides = p.dv_strides = f.q_strides;
  p.workspace = fake;
  p.workspace_bytes = attention_bwd_sm90_jit_workspace_bytes(p);
  EXPECT_EQ(p.workspace_bytes, std::size_t(2) * 4 * 384 * 66 * 4);
  EXPECT_NO_THROW(check_attention_bwd_sm90_jit_problem("attention_backward_sm90", p));
  p.workspace_bytes -= 4;
  EXPECT_THROW(check_attention_bwd_sm90_jit_problem("attention_backward_sm90", p), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::jit
