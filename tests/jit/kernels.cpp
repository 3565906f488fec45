// tests/jit/kernels.cpp -- the kernels specialized on static layouts (kernels/elementwise_add.cuh:
// add_naive_static, add_vectorized_static, add_tv_static; kernels/tile_copy.cuh:
// tile_copy_static) as the JIT compiles them, without a GPU: layouts spelled from run-time values
// compile for sm_90a, and a layout the kernel cannot take is refused at compile time with the
// kernel's own message. kernels_gpu.cpp launches them. Skipped, saying why, where NVRTC is absent.
#include <gtest/gtest.h>

#include <string>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/spell.hpp"
#include "tessera/runtime/eval.hpp"

namespace tessera::jit {
namespace {

constexpr char const* kSource = R"(
#include <cuda_fp16.h>
#include "tessera/kernels/elementwise_add.cuh"
#include "tessera/kernels/tile_copy.cuh"
)";

// The C++ type of a layout written in the reference notation, every integer static.
std::string layout(char const* text) { return spell_type(make_static(rt::evaluate(text).as<rt::Layout>())); }

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

TEST(JitKernels, StaticLayoutKernelsCompileForHopper) {
  TESSERA_REQUIRE_NVRTC();
  std::string const l = layout("(96,512):(512,1)");
  std::string const thr = layout("(4,32):(32,1)"), val = layout("(4,8):(8,1)");
  std::vector<std::string> const names = {
      "tessera::kernels::add_naive_static<__half, " + l + ">",
      "tessera::kernels::add_vectorized_static<float, " + l + ", 4, 256, 16>",
      "tessera::kernels::add_tv_static<__half, " + l + ", " + thr + ", " + val + ", 16>",
      "tessera::kernels::tile_copy_static<__half, " + l + ", 32, 512>",
  };
  Program const p = compile(kSource, names, hopper());
  ASSERT_EQ(p.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(p.kernel(i).name(), names[i]);
}

// Rows 132 bytes apart (fp16, a pitch of 66): the vectorized add narrows its accesses to 4 bytes,
// and compiles; a layout with a negative stride compiles too (64-bit indices where int would not
// hold the span).
TEST(JitKernels, PaddedAndReversedLayoutsCompile) {
  TESSERA_REQUIRE_NVRTC();
  (void)compile(kSource,
                {"tessera::kernels::add_vectorized_static<__half, " + layout("(32,64):(66,1)") + ", 8, 256, 16>"},
                hopper());
  (void)compile(kSource, {"tessera::kernels::add_naive_static<float, " + layout("(64,64):(-64,1)") + ">"}, hopper());
}

// static_access_bytes: the widest access every vector start keeps aligned (checked where the
// kernels see it, under NVRTC): the row pitch's alignment bounds it, and one row does not.
TEST(JitKernels, AccessWidthFollowsTheRowPitch) {
  TESSERA_REQUIRE_NVRTC();
  std::string const source =
      std::string(kSource) +
      "using tessera::kernels::detail::static_access_bytes;\n"
      "static_assert(static_access_bytes<__half, " +
      layout("(32,64):(66,1)") + ">(16, 16) == 4);\n" + "static_assert(static_access_bytes<__half, " +
      layout("(32,64):(64,1)") + ">(16, 16) == 16);\n" + "static_assert(static_access_bytes<__half, " +
      layout("(32,64):(64,1)") + ">(8, 16) == 8);\n" + "static_assert(static_access_bytes<float, " +
      layout("(1,64):(7,1)") + ">(16, 4) == 4);\n" + "__global__ void none() {}\n";
  EXPECT_NO_THROW((void)compile(source, {"none"}, hopper()));
}

// A layout the kernels cannot take: their static_asserts name the kernel and the fix.
TEST(JitKernels, UnfitLayoutsAreRefusedWithTheKernelsMessage) {
  TESSERA_REQUIRE_NVRTC();
  auto error_of = [](std::string const& name) {
    try {
      (void)compile(kSource, {name}, hopper());
    } catch (jit_error const& e) {
      return std::string(e.what());
    }
    return std::string("compiled");
  };
  std::string const thr = layout("(4,32):(32,1)"), val = layout("(4,8):(8,1)");
  // 20 rows: the (16,256) tile does not divide them.
  EXPECT_NE(error_of("tessera::kernels::add_tv_static<__half, " + layout("(20,512):(512,1)") + ", " + thr + ", " + val +
                     ", 16>")
                .find("add_tv_static: the TV layout's tile must divide (M,N)"),
            std::string::npos);
  // A dynamic extent.
  EXPECT_NE(error_of("tessera::kernels::add_naive_static<float, " +
                     spell_type(make_static(rt::evaluate("(64,64):(64,1)").as<rt::Layout>(), {0})) + ">")
                .find("add_naive_static<T, Layout>: Layout must be a static (M,N) -> offset layout"),
            std::string::npos);
  // Column-major: cp.async's vectors need the unit stride in mode 1.
  EXPECT_NE(error_of("tessera::kernels::tile_copy_static<__half, " + layout("(64,256):(1,64)") + ", 32, 512>")
                .find("tile_copy_static: mode 1 must have unit stride"),
            std::string::npos);
}

}  // namespace
}  // namespace tessera::jit
