// tools/check.hpp: check_tma on the Hopper GEMM's boxes (legal) and on one case of each rule, whose
// messages are those make_tma_desc gives (atom/copy_traits_sm90_tma.cuh, tested on a GPU in
// tests/arch_cuda/copy_traits_sm90_tma.cu) and those of arch/tma_rules.hpp.
#include "tessera/tools/check.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

tessera::tools::CheckResult tma(const char* global, const char* box, int elem_bytes = 2) {
  return tessera::tools::check_tma(tessera::rt::evaluate(global), tessera::rt::evaluate(box), elem_bytes);
}

TEST(CheckTma, TheHopperGemmsBoxesAreLegal) {
  // A K-major operand: 64 x 64 boxes of 128-byte rows under the 128-byte swizzle.
  auto a = tma("(4096,4096):(4096,1)", "Sw<3,3,3> o (_64,_64):(_64,_1)");
  EXPECT_TRUE(a.legal) << a.message;
  EXPECT_EQ(a.rule, "");
  EXPECT_NE(a.message.find("128-byte swizzle"), std::string::npos) << a.message;
  // An M-major one: the box contiguous along mode 0, as the global matrix.
  auto b = tma("(4096,4096):(1,4096)", "Sw<3,3,3> o (_64,_64):(_1,_64)");
  EXPECT_TRUE(b.legal) << b.message;
  EXPECT_NE(b.message.find("rows along mode 0"), std::string::npos) << b.message;
  // fp32 under the 64-byte swizzle: rows of 16 floats.
  EXPECT_TRUE(tma("(1000,4096):(4096,1)", "Sw<2,2,3> o (_32,_16):(_16,_1)", 4).legal);
}

TEST(CheckTma, EachRuleNamedWithItsValues) {
  auto expect = [](const tessera::tools::CheckResult& r, const char* rule, const char* text) {
    EXPECT_FALSE(r.legal);
    EXPECT_EQ(r.rule, rule);
    EXPECT_NE(r.message.find(text), std::string::npos) << r.message;
  };
  expect(tma("(4096,4096,2):(4096,1,0)", "(_64,_64):(_64,_1)"), "tma.rank", "must have rank 2");
  expect(tma("(4096,4096):(1,4096)", "(_64,_64):(_64,_1)"), "tma.inner",
         "the box is contiguous along mode 1 but the global layout (4096,4096):(1,4096) has stride 4096 there");
  expect(tma("(4096,4096):(-4096,1)", "(_64,_64):(_64,_1)"), "tma.pitch_sign", "must be positive, got -4096");
  expect(tma("(4096,4096):(4096,1)", "(_64,_64):(_65,_1)"), "tma.row_order",
         "puts element (1,0) at offset 65, TMA writes it at 64");
  expect(tma("(4096,4096):(4096,1)", "Sw<3,4,3> o (_64,_64):(_64,_1)"), "tma.swizzle",
         "Sw<3,4,3> on 2-byte elements is not a TMA swizzle");
  expect(tma("(4096,4100):(4100,1)", "(_64,_64):(_64,_1)"), "tma.map",
         "the row pitch ld * elem_bytes = 8200 bytes is not a multiple of 16");
  expect(tma("(4096,4096):(4096,1)", "Sw<3,3,3> o (_64,_128):(_128,_1)"), "tma.map",
         "a 128-byte swizzle needs a box inner extent of at most 128 bytes, got 256");
  expect(tma("(4096,4096):(4096,1)", "(_64,_512):(_512,_1)"), "tma.map", "box sizes must be in [1, 256], got 512 x 64");
  expect(tma("(4096,4096):(4096,1)", "(64,64):(64,1)"), "tma.rank", "must be static");
}

}  // namespace
