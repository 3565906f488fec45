// tools/check.hpp: check_tma on the Hopper GEMM's boxes (legal) and on one case of each rule, whose
// messages are those make_tma_desc gives (atom/copy_traits_sm90_tma.cuh, tested on a GPU in
// tests/arch_cuda/copy_traits_sm90_tma.cu) and those of arch/tma_rules.hpp; check_copy on ldmatrix
// over K- and M-major tiles (its verdicts the bank model's, checked on an H200: docs/analyze.md).
#include "tessera/tools/check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tessera/atom/names.hpp"

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

tessera::rt::TiledCopy tiled(const char* expr) {
  return tessera::rt::evaluate(expr, tessera::atom_names()).as<tessera::rt::TiledCopy>();
}
constexpr const char* kLdsm =
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))";

TEST(CheckCopy, LdmatrixOverKMajorTiles) {
  using tessera::rt::evaluate;
  auto plain = tessera::tools::check_copy(evaluate("(_64,_64):(_64,_1)"), tiled(kLdsm));
  EXPECT_TRUE(plain.legal) << plain.message;
  EXPECT_NE(plain.message.find("1024 wavefronts (ideal 128): 8-way bank conflicts"), std::string::npos)
      << plain.message;
  auto swizzled = tessera::tools::check_copy(evaluate("Sw<3,3,3> o (_64,_64):(_64,_1)"), tiled(kLdsm));
  EXPECT_TRUE(swizzled.legal);
  EXPECT_NE(swizzled.message.find("conflict-free"), std::string::npos) << swizzled.message;
}

TEST(CheckCopy, RulesBroken) {
  using tessera::rt::evaluate;
  // M-major: ldmatrix's 16-byte rows are not contiguous; the message names LDSM_T.
  auto m_major = tessera::tools::check_copy(evaluate("(_64,_64):(_1,_64)"), tiled(kLdsm));
  EXPECT_FALSE(m_major.legal);
  EXPECT_EQ(m_major.rule, "copy.vector");
  EXPECT_NE(m_major.message.find("the transposing LDSM_T"), std::string::npos) << m_major.message;
  // A swizzle that moves halves within a row.
  EXPECT_EQ(tessera::tools::check_copy(evaluate("Sw<3,2,3> o (_64,_64):(_64,_1)"), tiled(kLdsm)).rule, "copy.vector");
  // A tile the copy's (32,16) tile does not divide.
  auto small = tessera::tools::check_copy(evaluate("(_8,_8):(_8,_1)"), tiled(kLdsm));
  EXPECT_EQ(small.rule, "copy.tile");
  EXPECT_NE(small.message.find("(mode 0: 32 into 8)"), std::string::npos) << small.message;
  // A copy whose side in shared memory the instruction does not say: a request error.
  EXPECT_THROW((void)tessera::tools::check_copy(
                   evaluate("(_64,_64):(_64,_1)"),
                   tiled("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_1):(_1,_0))")),
               tessera::layout_error);
}

}  // namespace
