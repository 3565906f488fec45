// tessera::jit's attention backward (include/tessera/jit/attention_bwd_sm90.hpp), without a GPU:
// the programs compile under NVRTC with the host's copies of the argument structs (their
// static_asserts hold), a drifted copy is a compile error naming the file, the kernel numbers
// round-trip, and the problem's checks are the launcher's. The launch itself runs on the device
// (tests/python/test_attention_backward.py through tessera.ops.attention).
#include <gtest/gtest.h>

#include <cmath>
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

// The arguments for a GQA problem (batch 2, 8 query heads on 2 key/value heads, 300 queries, 257
// keys, head_dim 128, bottom-right causal) and its varlen form, with the encoders recorded: what
// kernels::detail::attention_bwd_sm90_launch computes for the same problem.
TEST(JitAttentionBwdSm90, TheArgumentsAreTheLaunchers) {
  AttentionBwdSm90JitProblem p;
  AttentionSm90JitProblem& f = p.fwd;
  auto const at = [](int shift) { return reinterpret_cast<void*>(std::uintptr_t(1) << shift); };
  f.q = at(20);
  f.k = at(24);
  f.v = at(28);
  f.o = at(32);
  f.lse = static_cast<float*>(at(36));
  f.batch = 2;
  f.heads_q = 8;
  f.heads_kv = 2;
  f.seq_q = 300;
  f.seq_k = 257;
  f.head_dim = 128;
  f.causal = kernels::AttentionCausal::bottom_right;
  f.q_strides = f.o_strides = kernels::attention_dense_strides(8, 300, 128);
  f.k_strides = f.v_strides = kernels::attention_dense_strides(2, 257, 128);
  p.dout = at(38);
  p.dq = at(39);
  p.dk = at(40);
  p.dv = at(41);
  p.dout_strides = p.dq_strides = f.q_strides;
  p.dk_strides = p.dv_strides = f.k_strides;
  p.workspace = at(42);
  p.workspace_bytes = attention_bwd_sm90_jit_workspace_bytes(p);
  ASSERT_NO_THROW(check_attention_bwd_sm90_jit_problem("f", p));
  std::vector<AttentionSm90TmaMap> maps;
  std::vector<std::vector<std::uint64_t>> rows;
  auto const encode = [&](AttentionSm90TmaMap const& m, void*) { maps.push_back(m); };
  auto const encode_rows = [&](float const* ptr, std::uint64_t rows_pad, std::uint64_t n, unsigned bm, void*) {
    rows.push_back({std::uint64_t(reinterpret_cast<std::uintptr_t>(ptr)), rows_pad, n, bm});
  };
  auto const r = attention_bwd_sm90_jit_args<128>(p, encode, encode_rows, 132);
  long long const rows_pad = 384, bh = 16;  // 300 rounded up to 128; batch heads_q
  auto const ws = reinterpret_cast<std::uintptr_t>(p.workspace);
  EXPECT_EQ(r.pre.rows, bh * rows_pad);
  EXPECT_EQ(r.pre.rows_pad, rows_pad);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r.pre.dq_accum), ws);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r.pre.lse2), ws + std::uintptr_t(bh * rows_pad * 128 * 4));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r.pre.dsum), ws + std::uintptr_t(bh * rows_pad * 129 * 4));
  EXPECT_EQ(r.pre.o_head, 300 * 128);
  EXPECT_EQ(r.pre_blocks, unsigned(bh * rows_pad / 8));
  EXPECT_EQ(r.main.group, 4);
  EXPECT_EQ(r.main.m_blocks, 5);  // 300 / 64
  EXPECT_EQ(r.main.n_blocks, 3);  // 257 / 128
  EXPECT_EQ(r.main.causal, 1);
  EXPECT_EQ(r.main.bottom_right, 1);
  EXPECT_EQ(r.main.dk_batch, 2LL * 257 * 128);
  EXPECT_FLOAT_EQ(r.main.scale, 1.0f / std::sqrt(128.0f));
  EXPECT_FLOAT_EQ(r.main.scale_log2, r.main.scale * 1.4426950408889634f);
  EXPECT_EQ(r.main_blocks, 3u * 2 * 2);
  EXPECT_EQ(r.threads, 384u);
  EXPECT_EQ(r.post.pairs, bh * 300 * 64);
  EXPECT_EQ(r.post_blocks, 8u * 132);  // ceil(pairs / 256) = 1200, capped at 8 blocks an SM
  ASSERT_EQ(maps.size(), 4u);          // Q, dO, K, V
  EXPECT_EQ(maps[0].ptr, f.q);
  EXPECT_EQ(maps[0].box[1], 64u);
  EXPECT_EQ(maps[0].dims[1], 300u);
  EXPECT_EQ(maps[0].dims[3], 2u);
  EXPECT_EQ(maps[1].ptr, p.dout);
  EXPECT_EQ(maps[2].ptr, f.k);
  EXPECT_EQ(maps[2].box[1], 128u);
  EXPECT_EQ(maps[2].dims[2], 2u);
  EXPECT_EQ(maps[3].ptr, f.v);
  ASSERT_EQ(rows.size(), 2u);  // LSE log2 e, D
  EXPECT_EQ(rows[0], (std::vector<std::uint64_t>{ws + std::uint64_t(bh * rows_pad * 128 * 4), 384, 16, 64}));
  EXPECT_EQ(rows[1], (std::vector<std::uint64_t>{ws + std::uint64_t(bh * rows_pad * 129 * 4), 384, 16, 64}));

  // varlen: one batch of the packed rows, the workspace's rows a head attention_backward_varlen_rows
  f.cu_seqlens_q = static_cast<int const*>(at(12));
  f.cu_seqlens_k = static_cast<int const*>(at(13));
  f.total_q = 500;
  f.total_k = 400;
  f.q_strides = f.o_strides = {0, 128, 8 * 128, 1};
  f.k_strides = f.v_strides = {0, 128, 2 * 128, 1};
  p.dout_strides = p.dq_strides = f.q_strides;
  p.dk_strides = p.dv_strides = f.k_strides;
  p.workspace_bytes = attention_bwd_sm90_jit_workspace_bytes(p);
  ASSERT_NO_THROW(check_attention_bwd_sm90_jit_problem("f", p));
  maps.clear();
  rows.clear();
  auto const v = attention_bwd_sm90_jit_args<128>(p, encode, encode_rows, 132);
  long long const vrows = kernels::attention_backward_varlen_rows(500, 2);  // 500 + 136 -> 640
  EXPECT_EQ(vrows, 640);
  EXPECT_EQ(v.pre.rows, 8 * vrows);
  EXPECT_EQ(v.main.dk_batch, 0);
  EXPECT_EQ(v.post.dq_batch, 0);
  EXPECT_EQ(v.post.pairs, 8LL * 500 * 64);
  EXPECT_EQ(maps[0].dims[1], 500u);
  EXPECT_EQ(maps[0].dims[3], 1u);
  EXPECT_EQ(maps[2].dims[1], 400u);
  EXPECT_EQ(rows[0][1], 640u);
  EXPECT_EQ(rows[0][2], 8u);
}

}  // namespace
}  // namespace tessera::jit
