// tessera::jit's attention backward (include/tessera/jit/attention_bwd_sm90.hpp), without a GPU:
// the programs (the launcher's default configuration: the lean step, dQ by a TMA reduce-add)
// compile under NVRTC with the host's copies of the argument structs (their static_asserts hold), a
// drifted copy is a compile error naming the file, the kernel numbers round-trip, the problem's
// checks are the launcher's, and the arguments (the seven tensor maps among them) are what the nvcc
// launcher passes. The launch itself runs on the device (tests/python/test_attention_backward.py
// through tessera.ops.attention).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/attention_bwd_sm90.hpp"
#include "tessera/jit/compile.hpp"

#if __has_include(<cuda.h>)
#include <cuda.h>
// The enumerators the 2-D encoder adds to the forward's, as cuda.h has them.
static_assert(int(tessera::jit::detail::kAttentionBwdTmaUint32) == int(CU_TENSOR_MAP_DATA_TYPE_UINT32));
static_assert(int(tessera::jit::detail::kAttentionBwdTmaFloat32) == int(CU_TENSOR_MAP_DATA_TYPE_FLOAT32));
static_assert(int(tessera::jit::detail::kAttentionBwdTmaSwizzleNone) == int(CU_TENSOR_MAP_SWIZZLE_NONE));
#endif

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

// The programs name the nvcc launcher's configurations (AttentionBwdSm90Config<D> and <D, false,
// true>: DqTma by default), with its shared memory (docs/attention.md, "Backward: dQ through shared
// memory and a TMA reduce": 32 KB of dQ staging more than the atomics' 166,016 and 100,480 bytes).
TEST(JitAttentionBwdSm90, TheKernelsAreTheLaunchersDefault) {
  std::vector<std::string> const names = attention_bwd_sm90_jit_names({128, true, false});
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[1],
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionBwdSm90Roles<"
            "tessera::kernels::AttentionBwdSm90Config<128, false, false>, tessera::bfloat16_t> >");
  EXPECT_NE(attention_bwd_sm90_jit_names({64, false, true})[1].find("AttentionBwdSm90Config<64, false, true>, "),
            std::string::npos);
  EXPECT_EQ(attention_bwd_sm90_jit_geometry({128, true, false}).smem_bytes, 199680);
  EXPECT_EQ(attention_bwd_sm90_jit_geometry({64, true, true}).smem_bytes, 134144);
  std::string const source = attention_bwd_sm90_jit_source({128, true, false}, 128);
  EXPECT_NE(source.find("AttentionBwdSm90DqMaps<T>"), std::string::npos);
  EXPECT_NE(source.find("\"the offset of M::dq\", 768u"), std::string::npos);  // after six 128-byte maps
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
  std::vector<std::vector<std::uint64_t>> rows;  // the 2-D maps: ptr, inner, outer, ld, box, swizzle, f32
  auto const encode = [&](AttentionSm90TmaMap const& m, void*) { maps.push_back(m); };
  auto const encode_2d = [&](AttentionBwdSm90TmaMap2d const& m, void*) {
    rows.push_back({std::uint64_t(reinterpret_cast<std::uintptr_t>(m.ptr)), m.inner, m.outer, m.ld, m.box_inner,
                    m.box_outer, std::uint64_t(m.swizzle_bytes), std::uint64_t(m.f32)});
  };
  auto const r = attention_bwd_sm90_jit_args<128>(p, encode, encode_2d, 132);
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
  EXPECT_EQ(r.smem_bytes, 199680u);
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
  // make_tma_desc_2d(lse2 / dsum, 4, rows_pad, bh, rows_pad, BM, 1, none) and (DqTma) make_tma_desc_2d(
  // dq_accum, 4, D, bh rows_pad, D, 32, BM, b128, TmaData::f32), the nvcc launcher's calls
  ASSERT_EQ(rows.size(), 3u);  // LSE log2 e, D, the dQ accumulator
  EXPECT_EQ(rows[0],
            (std::vector<std::uint64_t>{ws + std::uint64_t(bh * rows_pad * 128 * 4), 384, 16, 384, 64, 1, 0, 0}));
  EXPECT_EQ(rows[1],
            (std::vector<std::uint64_t>{ws + std::uint64_t(bh * rows_pad * 129 * 4), 384, 16, 384, 64, 1, 0, 0}));
  EXPECT_EQ(rows[2], (std::vector<std::uint64_t>{ws, 128, 16 * 384, 128, 32, 64, 128, 1}));
  EXPECT_EQ(r.map_dq.ptr, p.workspace);

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
  auto const v = attention_bwd_sm90_jit_args<128>(p, encode, encode_2d, 132);
  long long const vrows = kernels::attention_backward_varlen_rows(500, 2);  // 500 + 136 -> 640
  EXPECT_EQ(vrows, 640);
  EXPECT_EQ(v.pre.rows, 8 * vrows);
  EXPECT_EQ(v.main.dk_batch, 0);
  EXPECT_EQ(v.post.dq_batch, 0);
  EXPECT_EQ(v.post.pairs, 8LL * 500 * 64);
  EXPECT_EQ(maps[0].dims[1], 500u);
  EXPECT_EQ(maps[0].dims[3], 1u);
  EXPECT_EQ(maps[2].dims[1], 400u);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][1], 640u);
  EXPECT_EQ(rows[0][2], 8u);
  EXPECT_EQ(rows[2], (std::vector<std::uint64_t>{ws, 128, 8 * 640, 128, 32, 64, 128, 1}));  // heads_q rows

  // head_dim 64, fixed length (batch 3, 5 heads, 1000 queries: rows_pad 1024): rows of 64 floats
  f.cu_seqlens_q = f.cu_seqlens_k = nullptr;
  f.batch = 3;
  f.heads_q = f.heads_kv = 5;
  f.seq_q = f.seq_k = 1000;
  f.head_dim = 64;
  f.causal = kernels::AttentionCausal::none;
  f.q_strides = f.k_strides = f.v_strides = f.o_strides = kernels::attention_dense_strides(5, 1000, 64);
  p.dout_strides = p.dq_strides = p.dk_strides = p.dv_strides = f.q_strides;
  p.workspace_bytes = attention_bwd_sm90_jit_workspace_bytes(p);
  ASSERT_NO_THROW(check_attention_bwd_sm90_jit_problem("f", p));
  maps.clear();
  rows.clear();
  auto const h = attention_bwd_sm90_jit_args<64>(p, encode, encode_2d, 132);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::uint64_t>{ws + std::uint64_t(15 * 1024 * 64 * 4), 1024, 15, 1024, 64, 1, 0, 0}));
  EXPECT_EQ(rows[2], (std::vector<std::uint64_t>{ws, 64, 15 * 1024, 64, 32, 64, 128, 1}));
  EXPECT_EQ(h.smem_bytes, 134144u);
}

// The nvcc launcher refuses (cudaErrorInvalidValue) an accumulator of 2^31 rows or more, whose
// reduce-add row coordinates overflow a 32-bit int; the JIT says so before it encodes a map. Here
// 2^24 heads of 128 rows (each head's accumulator is small: the checks pass).
TEST(JitAttentionBwdSm90, TooManyAccumulatorRowsAreRefused) {
  AttentionBwdSm90JitProblem p;
  AttentionSm90JitProblem& f = p.fwd;
  auto* const fake = reinterpret_cast<void*>(std::uintptr_t(1) << 20);
  f.q = f.k = f.v = fake;
  f.o = fake;
  f.lse = static_cast<float*>(fake);
  f.batch = 1;
  f.heads_q = f.heads_kv = 1 << 24;
  f.seq_q = f.seq_k = 128;
  f.head_dim = 64;
  f.q_strides = f.k_strides = f.v_strides = f.o_strides = kernels::attention_dense_strides(1 << 24, 128, 64);
  p.dout = p.dq = p.dk = p.dv = fake;
  p.dout_strides = p.dq_strides = p.dk_strides = p.dv_strides = f.q_strides;
  p.workspace = fake;
  p.workspace_bytes = attention_bwd_sm90_jit_workspace_bytes(p);
  ASSERT_NO_THROW(check_attention_bwd_sm90_jit_problem("f", p));
  int encoded = 0;
  auto const encode = [&](AttentionSm90TmaMap const&, void*) { ++encoded; };
  auto const encode_2d = [&](AttentionBwdSm90TmaMap2d const&, void*) { ++encoded; };
  try {
    (void)attention_bwd_sm90_jit_args<128>(p, encode, encode_2d, 132);
    FAIL() << "2^31 accumulator rows were accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("rows_pad = 2147483648) must be < 2^31"), std::string::npos) << e.what();
  }
  EXPECT_EQ(encoded, 0);
  f.heads_q = f.heads_kv = (1 << 24) - 1;  // one head fewer: accepted
  f.q_strides = f.k_strides = f.v_strides = f.o_strides = kernels::attention_dense_strides((1 << 24) - 1, 128, 64);
  p.dout_strides = p.dq_strides = p.dk_strides = p.dv_strides = f.q_strides;
  p.workspace_bytes = attention_bwd_sm90_jit_workspace_bytes(p);
  EXPECT_NO_THROW((void)attention_bwd_sm90_jit_args<128>(p, encode, encode_2d, 132));
  EXPECT_EQ(encoded, 7);
}

}  // namespace
}  // namespace tessera::jit
