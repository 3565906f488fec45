// tests/jit/gemm_sm90_fp8.cpp -- gemm_sm90_fp8 and gemm_sm90_fp8_block through the JIT with a
// CUDA-free host side (jit/gemm_sm90_fp8.hpp), without a GPU: which kernel an fp8 problem gets, the
// kernels' keys and names, the arguments the host builds (K and the leading dimensions in 16-bit
// units, the TMA maps of 2-byte elements, the scales as kernels::detail::gemm_sm90_scales sets
// them), the refusals, and the programs compiling under NVRTC for sm_90a with the static_asserts of
// gemm_sm90_jit_source holding the device code to the host's copies. The launches are tested on a
// GPU by gemm_sm90_fp8_gpu.cpp and from Python (tests/python/test_ops_fp8.py). NVRTC's parts skip,
// saying why, without it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/gemm_sm90_fp8.hpp"

namespace tessera::jit {
namespace {

using kernels::GemmFp8Problem;
using kernels::GemmScaleKind;
using kernels::GemmSm90Epilogue;
using kernels::GemmSm90Pick;
using Out = GemmSm90Fp8JitKernel::Out;

float const* const kScaleA = reinterpret_cast<float const*>(std::uintptr_t(1) << 12);
float const* const kScaleB = reinterpret_cast<float const*>(std::uintptr_t(1) << 13);

// An fp8 problem, both operands K-major, D row-major, with fake device addresses (never
// dereferenced without a GPU) and per-tensor scales.
template <class T, class TOut>
GemmFp8Problem<T, TOut> problem(int m, int n, int k) {
  GemmFp8Problem<T, TOut> p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = reinterpret_cast<T const*>(std::uintptr_t(1) << 20);
  p.lda = k;
  p.a_major = Major::row;
  p.b = reinterpret_cast<T const*>(std::uintptr_t(1) << 28);
  p.ldb = k;
  p.b_major = Major::col;
  p.d = reinterpret_cast<TOut*>(std::uintptr_t(1) << 36);
  p.ldd = n;
  p.cd_major = Major::row;
  p.scale_a = {GemmScaleKind::tensor, kScaleA};
  p.scale_b = {GemmScaleKind::tensor, kScaleB};
  return p;
}

struct Recorder {
  std::vector<GemmSm90TmaMap>* maps;
  void operator()(GemmSm90TmaMap const& m, void* out) const {
    maps->push_back(m);
    std::memset(out, 0xcd, 128);
  }
};

TEST(JitGemmSm90Fp8, KeysAreDenseAndRefuseWhatHasNoKernel) {
  for (int i = 0; i < GemmSm90Fp8JitKernel::kCount; ++i) {
    GemmSm90Fp8JitKernel const k = GemmSm90Fp8JitKernel::from_index(i);
    EXPECT_EQ(k.index(), i);
    EXPECT_NE(k.config, GemmSm90Pick::stream_k);
    EXPECT_EQ(k.block_scaled, k.config == GemmSm90Pick::tall);  // tall: the block-scaled kernel's alone
  }
  EXPECT_THROW(GemmSm90Fp8JitKernel::from_index(GemmSm90Fp8JitKernel::kCount), std::invalid_argument);
  EXPECT_THROW(GemmSm90Fp8JitKernel::from_index(-1), std::invalid_argument);
  GemmSm90Fp8JitKernel k;
  k.config = GemmSm90Pick::stream_k;
  EXPECT_THROW((void)k.index(), std::invalid_argument);
  k.config = GemmSm90Pick::stream_k_narrow;
  EXPECT_THROW((void)k.index(), std::invalid_argument);
  k.config = GemmSm90Pick::tall;  // without block scales
  EXPECT_THROW((void)k.index(), std::invalid_argument);
  k.config = GemmSm90Pick::medium;
  k.block_scaled = true;  // the block-scaled kernel has the tall tile only
  EXPECT_THROW((void)k.index(), std::invalid_argument);
  k.config = GemmSm90Pick::large;
  k.block_scaled = true;
  EXPECT_THROW((void)k.index(), std::invalid_argument);
  k.block_scaled = false;
  k.epilogue = GemmSm90Epilogue::any;
  EXPECT_THROW((void)k.index(), std::invalid_argument);
}

TEST(JitGemmSm90Fp8, KernelForTheProblem) {
  // 4096^3 e4m3 -> bf16, per-tensor scales, plain: gemm_sm90's 128x256 tile, D through TMA
  auto p = problem<float_e4m3_t, bfloat16_t>(4096, 4096, 4096);
  GemmSm90Fp8JitKernel k = gemm_sm90_fp8_jit_kernel(p, 132);
  EXPECT_EQ(k.config, GemmSm90Pick::large);
  EXPECT_FALSE(k.block_scaled);
  EXPECT_FALSE(k.e5m2);
  EXPECT_EQ(k.out, Out::bf16);
  EXPECT_EQ(k.epilogue, GemmSm90Epilogue::tma_plain);
  // the tile is gemm_sm90_pick's for K in 16-bit units
  EXPECT_EQ(k.config, kernels::gemm_sm90_pick(4096, 4096, 2048, true, 132));
  // where gemm_sm90 would share k-tiles out (stream-K: 2304^3 units, fp32 out), the fp8 kernel runs
  // the persistent 128x256
  auto s = problem<float_e5m2_t, float>(2304, 2304, 4608);
  ASSERT_EQ(kernels::gemm_sm90_pick(2304, 2304, 2304, false, 132), GemmSm90Pick::stream_k);
  GemmSm90Fp8JitKernel const ks = gemm_sm90_fp8_jit_kernel(s, 132);
  EXPECT_EQ(ks.config, GemmSm90Pick::large);
  EXPECT_TRUE(ks.e5m2);
  EXPECT_EQ(ks.out, Out::f32);
  // a bias: the whole epilogue through TMA; an odd N: D from registers
  p.bias = reinterpret_cast<bfloat16_t const*>(std::uintptr_t(1) << 40);
  EXPECT_EQ(gemm_sm90_fp8_jit_kernel(p, 132).epilogue, GemmSm90Epilogue::tma);
  auto o = problem<float_e4m3_t, half_t>(100, 77, 64);
  EXPECT_EQ(gemm_sm90_fp8_jit_kernel(o, 132).epilogue, GemmSm90Epilogue::registers);
  EXPECT_EQ(gemm_sm90_fp8_jit_kernel(o, 132).out, Out::f16);
  // block scales: the block-scaled 192x128 kernel
  p.bias = nullptr;
  p.scale_a = {GemmScaleKind::block, kScaleA};
  p.scale_b = {GemmScaleKind::block, kScaleB};
  k = gemm_sm90_fp8_jit_kernel(p, 132);
  EXPECT_TRUE(k.block_scaled);
  EXPECT_EQ(k.config, GemmSm90Pick::tall);
}

TEST(JitGemmSm90Fp8, Names) {
  GemmSm90Fp8JitKernel k;
  EXPECT_EQ(gemm_sm90_fp8_jit_names(k)[0],
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<"
            "tessera::kernels::GemmSm90WsConfig<128, 256, 64, 4, true, 1, false>, tessera::float_e4m3_t, "
            "tessera::bfloat16_t, true, true, tessera::kernels::GemmSm90Epilogue::tma_plain> >");
  EXPECT_EQ(gemm_sm90_fp8_jit_names(k).size(), 1u);  // no pack kernel: fp8 operands are never packed
  k.block_scaled = true;
  k.config = GemmSm90Pick::tall;
  k.e5m2 = true;
  k.out = Out::f32;
  k.epilogue = GemmSm90Epilogue::registers;
  std::string const name = gemm_sm90_fp8_jit_names(k)[0];
  EXPECT_NE(name.find("GemmSm90WsRoles<tessera::kernels::GemmSm90BlockScaled<tessera::kernels::GemmSm90WsConfig<"),
            std::string::npos)
      << name;
  EXPECT_NE(name.find("tessera::float_e5m2_t, float, true, true, tessera::kernels::GemmSm90Epilogue::registers"),
            std::string::npos)
      << name;
  k = {};
  k.config = GemmSm90Pick::pingpong;
  EXPECT_NE(gemm_sm90_fp8_jit_names(k)[0].find("GemmSm90PingpongRoles<tessera::kernels::GemmSm90PingpongConfig<"),
            std::string::npos);
}

// The arguments: the 16-bit units' problem (K/2, ld/2, 2-byte TMA elements) and the scales.
TEST(JitGemmSm90Fp8, TheArgumentsInUnitsAndTheScales) {
  auto p = problem<float_e4m3_t, bfloat16_t>(300, 520, 256);
  p.lda = 272;  // padded rows: multiples of 16
  p.ldb = 288;
  p.scale_a = {GemmScaleKind::vector, kScaleA};  // one per row of A
  GemmSm90Fp8JitKernel const k = gemm_sm90_fp8_jit_kernel(p, 132);
  GemmSm90JitGeometry const g = gemm_sm90_jit_geometry(detail::gemm_sm90_fp8_jit_shape(k));
  std::vector<GemmSm90TmaMap> maps;
  auto const r = gemm_sm90_fp8_jit_params<128>(k, p, 132, Recorder{&maps});
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_EQ(r.params.K, 128);  // units
  EXPECT_EQ(maps[0].ptr, p.a);
  EXPECT_EQ(maps[0].elem_bytes, 2);
  EXPECT_EQ(maps[0].inner, 128u);
  EXPECT_EQ(maps[0].outer, 300u);
  EXPECT_EQ(maps[0].ld, 136u);
  EXPECT_EQ(maps[0].box_inner, 64u);  // 64 units: 128 fp8 elements of K
  EXPECT_EQ(maps[0].box_outer, unsigned(g.bm));
  EXPECT_EQ(maps[1].ptr, p.b);  // B seen as (N, K/2)
  EXPECT_EQ(maps[1].inner, 128u);
  EXPECT_EQ(maps[1].outer, 520u);
  EXPECT_EQ(maps[1].ld, 144u);
  EXPECT_EQ(maps[2].elem_bytes, 2);  // D bf16
  EXPECT_EQ(maps[2].inner, 520u);
  EXPECT_EQ(r.params.M, 300);
  EXPECT_EQ(r.params.N, 520);
  EXPECT_EQ(r.params.scales.a, kScaleA);
  EXPECT_EQ(r.params.scales.a_step, 1);
  EXPECT_EQ(r.params.scales.b, kScaleB);
  EXPECT_EQ(r.params.scales.b_step, 0);
  EXPECT_EQ(r.params.sk.tiles, 0);
  EXPECT_EQ(r.smem_bytes, unsigned(g.smem_bytes));
  // a column-major D is computed transposed: the scales change roles
  auto c = p;
  c.cd_major = Major::col;
  c.ldd = 304;
  auto const rc = gemm_sm90_fp8_jit_params<128>(gemm_sm90_fp8_jit_kernel(c, 132), c, 132, Recorder{&maps});
  EXPECT_EQ(rc.params.M, 520);
  EXPECT_EQ(rc.params.N, 300);
  EXPECT_EQ(rc.params.scales.a, kScaleB);
  EXPECT_EQ(rc.params.scales.a_step, 0);
  EXPECT_EQ(rc.params.scales.b, kScaleA);
  EXPECT_EQ(rc.params.scales.b_step, 1);
  // no scale for B: a null pointer
  p.scale_b = {};
  EXPECT_EQ(gemm_sm90_fp8_jit_params<128>(k, p, 132, Recorder{&maps}).params.scales.b, nullptr);
  // block scales: their k-block strides, A's M and B's ceil(K/128)
  auto b = problem<float_e4m3_t, bfloat16_t>(300, 520, 400);
  b.scale_a = {GemmScaleKind::block, kScaleA};
  b.scale_b = {GemmScaleKind::block, kScaleB};
  auto const rb = gemm_sm90_fp8_jit_params<64>(gemm_sm90_fp8_jit_kernel(b, 132), b, 132, Recorder{&maps});
  EXPECT_EQ(rb.params.scales.a_step, 300);
  EXPECT_EQ(rb.params.scales.b_step, 4);
  EXPECT_EQ(rb.params.K, 200);
}

TEST(JitGemmSm90Fp8, RefusesAKernelOfOtherTypesOrScales) {
  std::vector<GemmSm90TmaMap> maps;
  auto p = problem<float_e4m3_t, bfloat16_t>(256, 256, 256);
  GemmSm90Fp8JitKernel k = gemm_sm90_fp8_jit_kernel(p, 132);
  k.e5m2 = true;
  EXPECT_THROW((void)gemm_sm90_fp8_jit_params<128>(k, p, 132, Recorder{&maps}), std::invalid_argument);
  k = gemm_sm90_fp8_jit_kernel(p, 132);
  k.out = Out::f32;
  EXPECT_THROW((void)gemm_sm90_fp8_jit_params<128>(k, p, 132, Recorder{&maps}), std::invalid_argument);
  k = gemm_sm90_fp8_jit_kernel(p, 132);
  k.block_scaled = true;
  k.config = GemmSm90Pick::tall;
  EXPECT_THROW((void)gemm_sm90_fp8_jit_params<128>(k, p, 132, Recorder{&maps}), std::invalid_argument);
}

// The launch checks the problem before anything else (check_gemm_fp8_problem, naming the caller):
// no GPU, no driver and no kernel are needed to see the refusal.
TEST(JitGemmSm90Fp8, TheLaunchChecksTheProblemFirst) {
  auto p = problem<float_e4m3_t, bfloat16_t>(64, 64, 40);  // K not a multiple of 16
  try {
    gemm_sm90_fp8_jit_launch(p, Kernel{}, nullptr, 132, "tessera.ops.scaled_gemm");
    FAIL() << "K = 40 was taken";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("tessera.ops.scaled_gemm: K = 40 is not a multiple of 16"), std::string::npos)
        << e.what();
  }
  p = problem<float_e4m3_t, bfloat16_t>(64, 64, 64);
  p.b_major = Major::row;
  p.ldb = 64;
  EXPECT_THROW(gemm_sm90_fp8_jit_launch(p, Kernel{}, nullptr, 132), std::invalid_argument);
}

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

// Both fp8 types, the three outputs, the three epilogue forms, the tiles and the block-scaled
// kernel among four programs: each compiles under NVRTC with its static_asserts holding.
TEST(JitGemmSm90Fp8, ProgramsCompileWithTheHostsLayout) {
  TESSERA_REQUIRE_NVRTC();
  int const align = gemm_sm90_jit_descriptor_align();
  using E = GemmSm90Epilogue;
  std::vector<GemmSm90Fp8JitKernel> const kernels = {
      {GemmSm90Pick::large, false, false, Out::bf16, E::tma_plain},
      {GemmSm90Pick::tall, true, false, Out::bf16, E::tma_plain},
      {GemmSm90Pick::pingpong, false, true, Out::f32, E::tma},
      {GemmSm90Pick::small, false, false, Out::f16, E::registers},
  };
  for (GemmSm90Fp8JitKernel const& k : kernels) {
    std::vector<std::string> const names = gemm_sm90_fp8_jit_names(k);
    Program const p = compile(gemm_sm90_fp8_jit_source(k, align), names, hopper());
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p.kernel(0).name(), names[0]);
  }
}

// A drifted host copy is a compile error in the fp8 programs too (the checks are the bf16 ones).
TEST(JitGemmSm90Fp8, ADriftedHostCopyIsACompileError) {
  TESSERA_REQUIRE_NVRTC();
  GemmSm90Fp8JitKernel const k{GemmSm90Pick::small, false, false, Out::bf16, GemmSm90Epilogue::registers};
  std::string source = gemm_sm90_fp8_jit_source(k, gemm_sm90_jit_descriptor_align());
  std::string const at = "\"the offset of GemmSm90Params::scales\", 120u";
  std::size_t const i = source.find(at);
  ASSERT_NE(i, std::string::npos) << source;
  source.replace(i, at.size(), "\"the offset of GemmSm90Params::scales\", 128u");
  try {
    (void)compile(source, gemm_sm90_fp8_jit_names(k), hopper());
    FAIL() << "a drifted copy compiled";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find("the offset of GemmSm90Params::scales differs from the host's copy"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessera::jit
