// tests/jit/gemm_sm90_grouped.cpp -- gemm_sm90_grouped through the JIT with a CUDA-free host side
// (jit/gemm_sm90_grouped.hpp), without a GPU: which kernel a problem gets, the kernels' keys, and
// the programs compiling under NVRTC for sm_90a with their static_asserts holding the device's
// GemmSm90GroupedParams and GemmSm90GroupedMaps, the prepare kernel's parameters, the shared memory
// and the boxes to the host's copies; a drifted copy is a compile error naming the member. The
// launches are tested on a GPU from Python (tests/python/test_ops.py, TestGroupedGemm). NVRTC's
// parts skip, saying why, without it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/gemm_sm90_grouped.hpp"

namespace tessera::jit {
namespace {

using kernels::GemmSm90GroupedPick;

// The host's copy of the values: three ints, the epilogue (GemmSm90ParamsHost's), where D goes, the
// three pointers of the prepared rows, the fp8 scales and B's scale step between groups.
static_assert(offsetof(GemmSm90GroupedParamsHost, ep) == 16 && offsetof(GemmSm90GroupedParamsHost, rows) == 96 &&
              offsetof(GemmSm90GroupedParamsHost, scales) == 120 &&
              offsetof(GemmSm90GroupedParamsHost, b_group_step) == 144 && sizeof(GemmSm90GroupedParamsHost) == 152 &&
              alignof(GemmSm90GroupedParamsHost) == 8);
static_assert(offsetof(GemmSm90GroupedMapsHost<128>, b) == 128 && sizeof(GemmSm90GroupedMapsHost<128>) == 384);

TEST(JitGemmSm90Grouped, KeysAreDense) {
  for (int i = 0; i < GemmSm90GroupedJitKernel::kCount; ++i)
    EXPECT_EQ(GemmSm90GroupedJitKernel::from_index(i).index(), i);
  EXPECT_THROW(GemmSm90GroupedJitKernel::from_index(16), std::invalid_argument);
}

TEST(JitGemmSm90Grouped, KernelForTheProblem) {
  kernels::GemmGroupedProblem<bfloat16_t, float> p;
  p.groups = 256;
  p.m = 256 * 32;  // 32 rows a group: the 64-row tile
  p.b_major = Major::row;
  GemmSm90GroupedJitKernel k = gemm_sm90_grouped_jit_kernel(p);
  EXPECT_EQ(k.config, GemmSm90GroupedPick::small);
  EXPECT_TRUE(k.bf16);
  EXPECT_TRUE(k.out_f32);
  EXPECT_FALSE(k.b_k_major);
  p.m = 256 * 65;
  p.form = kernels::GemmGroupedForm::offsets;
  EXPECT_EQ(gemm_sm90_grouped_jit_kernel(p).config, GemmSm90GroupedPick::large);
  p.form = kernels::GemmGroupedForm::masked;  // 256 slots of 16640 rows each
  EXPECT_EQ(gemm_sm90_grouped_jit_kernel(p).config, GemmSm90GroupedPick::large);
  EXPECT_EQ(gemm_sm90_grouped_jit_names(k)[0],
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90GroupedRoles<"
            "tessera::kernels::GemmSm90WsConfig<64, 256, 64, 5, true, 1, false>, tessera::bfloat16_t, float, false> >");
}

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

// Both tiles, both input types and outputs, both majors of B among four programs: each compiles,
// its static_asserts holding, with its two kernels.
TEST(JitGemmSm90Grouped, ProgramsCompileWithTheirChecks) {
  TESSERA_REQUIRE_NVRTC();
  int const align = gemm_sm90_jit_descriptor_align();
  std::vector<GemmSm90GroupedJitKernel> const kernels = {{GemmSm90GroupedPick::large, true, false, true},
                                                         {GemmSm90GroupedPick::small, false, true, false},
                                                         {GemmSm90GroupedPick::large, false, false, false},
                                                         {GemmSm90GroupedPick::small, true, true, true}};
  for (GemmSm90GroupedJitKernel const& k : kernels) {
    std::vector<std::string> const names = gemm_sm90_grouped_jit_names(k);
    Program const p = compile(gemm_sm90_grouped_jit_source(k, align), names, hopper());
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p.kernel(0).name(), names[0]);
    EXPECT_EQ(p.kernel(1).name(), names[1]);
  }
}

// A host copy that drifted from the device structs does not compile, and the error names the member.
TEST(JitGemmSm90Grouped, ADriftedHostCopyIsACompileError) {
  TESSERA_REQUIRE_NVRTC();
  GemmSm90GroupedJitKernel const k{GemmSm90GroupedPick::small, true, false, true};
  std::string const good = gemm_sm90_grouped_jit_source(k, gemm_sm90_jit_descriptor_align());
  auto const drifted = [&](std::string const& at, std::string const& to, std::string const& message) {
    std::string source = good;
    std::size_t const i = source.find(at);
    ASSERT_NE(i, std::string::npos) << source;
    source.replace(i, at.size(), to);
    try {
      (void)compile(source, gemm_sm90_grouped_jit_names(k), hopper());
      FAIL() << "a drifted copy compiled: " << to;
    } catch (jit_error const& e) {
      EXPECT_NE(std::string(e.what()).find(message + " differs from the host's copy in "
                                                     "include/tessera/jit/gemm_sm90_grouped.hpp"),
                std::string::npos)
          << e.what();
    }
  };
  drifted("\"the offset of GemmSm90GroupedParams::rows\", 96u", "\"the offset of GemmSm90GroupedParams::rows\", 104u",
          "the offset of GemmSm90GroupedParams::rows");
  drifted("\"the offset of GemmSm90GroupedMaps::b\", 128u", "\"the offset of GemmSm90GroupedMaps::b\", 256u",
          "the offset of GemmSm90GroupedMaps::b");
}

}  // namespace
}  // namespace tessera::jit
