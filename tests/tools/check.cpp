// tools/check.hpp: check_tma on the Hopper GEMM's boxes (legal) and on one case of each rule, whose
// messages are those make_tma_desc gives (atom/copy_traits_sm90_tma.cuh, tested on a GPU in
// tests/arch_cuda/copy_traits_sm90_tma.cu) and those of arch/tma_rules.hpp; check_copy on ldmatrix
// over K- and M-major tiles (its verdicts the bank model's, checked on an H200: docs/analyze.md).
#include "tessera/tools/check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/atom/names.hpp"
#include "tessera/core/print.hpp"

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

// ---- check_wgmma ---------------------------------------------------------------------------------

using tessera::GmmaMajor;

tessera::tools::WgmmaCheck wgmma(const std::string& smem, int elem_bytes = 2, int block = 0) {
  return tessera::tools::check_wgmma(tessera::rt::evaluate(smem), elem_bytes, std::nullopt, block);
}

// A static stage layout (without its 128-byte swizzle, as make_gmma_desc takes it) checked at run
// time through its printed form: legal, and every block's descriptor the one make_gmma_desc encodes
// (the compile-time path) for the same block.
template <GmmaMajor Major, int MNBlock, class L>
void expect_same_descriptors(L const& l) {
  using namespace tessera;
  const std::string text = "Sw<3,3,3> o " + to_string(l);
  const tools::WgmmaCheck r = tools::check_wgmma(rt::evaluate(text), 2, Major, MNBlock);
  ASSERT_TRUE(r.legal) << text << ": " << r.message;
  EXPECT_EQ(r.swizzle_bits, 3);
  const int mn = int(size<0>(l)), k = int(size<1>(l));
  ASSERT_EQ(r.blocks.size(), std::size_t(mn / MNBlock) * std::size_t(k / 16)) << text;
  std::size_t i = 0;
  for (int mn0 = 0; mn0 < mn; mn0 += MNBlock)
    for (int k0 = 0; k0 < k; k0 += 16, ++i) {
      const GmmaForm& f = r.blocks[i];
      EXPECT_EQ(f.start, (long long)l(mn0, k0)) << text;
      const std::uint32_t base = 0x4000;
      // K-major: LBO is unused, make_gmma_desc writes 16 bytes there
      const std::uint32_t lbo = Major == GmmaMajor::K ? 16u : std::uint32_t(2 * f.lbo);
      EXPECT_EQ((make_gmma_desc<Major, MNBlock>(base, l, mn0, k0)),
                gmma_desc_bits(base + 2u * std::uint32_t(f.start), lbo, std::uint32_t(2 * f.sbo)))
          << text << " block (" << mn0 << "," << k0 << ")";
    }
}

TEST(CheckWgmma, TheKernelsTilesAreLegalWithMakeGmmaDescsDescriptors) {
  using namespace tessera;
  // gemm_sm90_stage_layout (kernels/gemm/sm90_kernel.cuh): K-major BP x BK, A in blocks of 64 rows,
  // B in one block of BN; MN-major K-rows of 64, a 64-wide chunk's K groups consecutive.
  constexpr auto a_k = tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _64>{});
  expect_same_descriptors<GmmaMajor::K, 64>(a_k);
  expect_same_descriptors<GmmaMajor::K, 256>(tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_256, _64>{}));
  constexpr auto b_mn = tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_128, _64>{}, LayoutRight{});
  expect_same_descriptors<GmmaMajor::MN, 128>(b_mn);
  expect_same_descriptors<GmmaMajor::MN, 64>(b_mn);
  expect_same_descriptors<GmmaMajor::MN, 256>(
      tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_256, _64>{}, LayoutRight{}));
  // attention_sm90_rows_layout<R, D> (kernels/attention/forward_sm90.cuh): Q (BM x D) in blocks of
  // 64 rows, K (BN x D) in one block; attention_sm90_v_layout<BN, D>: V as (D, BN), one block of D.
  expect_same_descriptors<GmmaMajor::K, 64>(tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _128>{}));
  expect_same_descriptors<GmmaMajor::K, 128>(tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _256>{}));
  expect_same_descriptors<GmmaMajor::MN, 128>(
      tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_128, _128>{}, LayoutRight{}));
  expect_same_descriptors<GmmaMajor::MN, 256>(
      tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_256, _64>{}, LayoutRight{}));
  // The message states the form and the offsets.
  auto r = wgmma("Sw<3,3,3> o (_64,_64):(_64,_1)");
  EXPECT_TRUE(r.legal);
  EXPECT_EQ(r.message,
            "K-major 2-byte elements, 128-byte swizzle (Sw<3,3,3> o (_8,_64):(_64,_1) atoms): 4 descriptors of 64 x 16 "
            "blocks, LBO unused, SBO 1024 bytes; the tile must start 1024-byte aligned");
}

TEST(CheckWgmma, EveryCanonicalForm) {
  // The ISA's table: K-major and MN-major, unswizzled and each swizzle, built from their atoms.
  EXPECT_TRUE(wgmma("Sw<1,3,3> o (_64,_16):(_16,_1)").legal);
  EXPECT_TRUE(wgmma("Sw<2,3,3> o (_64,_32):(_32,_1)").legal);
  EXPECT_TRUE(wgmma("tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_64,_128))").legal);
  auto interleave = wgmma("tile_to_shape((_8,_8):(_8,_1), (_64,_64))");
  EXPECT_TRUE(interleave.legal) << interleave.message;
  EXPECT_NE(interleave.message.find("unswizzled ((_8,_8):(_8,_1) atoms): 4 descriptors of 64 x 16 blocks, LBO 1024 "
                                    "bytes, SBO 128 bytes"),
            std::string::npos)
      << interleave.message;
  EXPECT_TRUE(wgmma("tile_to_shape((_8,_8):(_1,_8), (_64,_64))").legal);
  EXPECT_TRUE(wgmma("Sw<1,3,3> o tile_to_shape((_16,_8):(_1,_16), (_64,_32))").legal);
  EXPECT_TRUE(wgmma("Sw<2,3,3> o tile_to_shape((_32,_8):(_1,_32), (_64,_32))").legal);
  // column-major atom order: chunks 1024 bytes apart, K groups 2048: other offsets, still canonical
  auto mn = wgmma("Sw<3,3,3> o tile_to_shape((_64,_8):(_1,_64), (_128,_64))");
  EXPECT_TRUE(mn.legal) << mn.message;
  EXPECT_NE(mn.message.find("LBO 1024 bytes, SBO 2048 bytes"), std::string::npos) << mn.message;
  // tf32 and 8-bit elements, K-major: 16-byte units of 4 and 16 elements.
  EXPECT_TRUE(wgmma("Sw<3,2,3> o (_64,_32):(_32,_1)", 4).legal);
  EXPECT_TRUE(wgmma("Sw<3,4,3> o (_64,_128):(_128,_1)", 1).legal);
}

TEST(CheckWgmma, EachRuleNamedWithItsValues) {
  auto expect = [](const tessera::tools::WgmmaCheck& r, const char* rule, const char* text) {
    EXPECT_FALSE(r.legal);
    EXPECT_EQ(r.rule, rule);
    EXPECT_NE(r.message.find(text), std::string::npos) << r.message;
  };
  expect(wgmma("(_64,_64,_2):(_64,_1,_4096)"), "wgmma.rank", "must have rank 2");
  expect(wgmma("(64,64):(64,1)"), "wgmma.rank", "must be static");
  expect(wgmma("Sw<3,3,3> o (_64,_64):(_64,_1)", 3), "wgmma.elem", "1-, 2- or 4-byte elements");
  expect(wgmma("Sw<3,2,3> o (_64,_32):(_1,_64)", 4), "wgmma.elem",
         "MN-major operands must have 2-byte elements (wgmma transposes f16/bf16 only), got 4-byte ones");
  expect(wgmma("Sw<3,4,3> o (_64,_64):(_64,_1)"), "wgmma.swizzle",
         "Sw<3,4,3> on 2-byte elements is not a wgmma swizzle (16-byte units permuted within rows of 32, 64 or 128 "
         "bytes: Sw<1..3,3,3>)");
  expect(wgmma("Sw<3,3,3> o (_64,_24):(_64,_1)"), "wgmma.block", "(_64,_24) is not whole blocks of 64 x 16");
  expect(wgmma("Sw<3,3,3> o (_64,_64):(_64,_1)", 2, 4), "wgmma.block", "multiples of 8 up to 256");
  // The classic mistake: rows of 256 bytes under the 128-byte swizzle.
  expect(wgmma("Sw<3,3,3> o (_64,_128):(_128,_1)"), "wgmma.core",
         "block (0,0): element (1,0) is at offset 128, the K-major 128-byte swizzle form puts it at 64 (core matrices "
         "of 8 rows of 8 contiguous elements, rows 128 bytes apart); rows of 256 bytes are wider than the 128-byte "
         "swizzle's 128: split them into atoms, build the tile as tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), "
         "(_64,_128))");
  // Rows of 64 bytes under the 128-byte swizzle: the 64-byte swizzle is the fix.
  expect(wgmma("Sw<3,3,3> o (_64,_32):(_32,_1)"), "wgmma.core",
         "rows of 64 bytes fit the 64-byte swizzle: build the tile as tile_to_shape(Sw<2,3,3> o (_8,_32):(_32,_1), "
         "(_64,_32))");
  // An MN-major tile whose columns are 64 elements but rows 8 K-rows of 72: the fix keeps its order.
  expect(wgmma("Sw<3,3,3> o (_64,_16):(_1,_72)"), "wgmma.core",
         "rows of 144 bytes are wider than the 128-byte swizzle's 128: split them into atoms, build the tile as "
         "tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_64,_16), (_1,_0))");
  expect(wgmma("(_64,_64):(_64,_1)"), "wgmma.core", "the unswizzled K-major form puts it at 8");
  // 8-row groups 1152 bytes apart: not a whole 1024-byte pattern (SBO), or a block starting mid-pattern.
  expect(wgmma("Sw<3,3,3> o ((_8,_2),_64):((_64,_576),_1)"), "wgmma.sbo",
         "block (0,0): SBO (from one 8-row group of MN to the next) is 1152 bytes; a descriptor holds a non-negative "
         "multiple of 16 below 2^18, and under the 128-byte swizzle a multiple of its 1024-byte pattern");
  expect(wgmma("Sw<3,3,3> o ((_8,_2),_64):((_64,_576),_1)", 2, 8), "wgmma.start",
         "block (8,0) starts at element 576 (byte 1152): under the 128-byte swizzle it must lie in the first row of a "
         "1024-byte pattern");
  // MN-major: 64-element chunks 2176 bytes apart.
  expect(wgmma("Sw<3,3,3> o ((_64,_2),_16):((_1,_1088),_64)"), "wgmma.lbo",
         "block (0,0): LBO (from one swizzle row of MN to the next) is 2176 bytes");
  // 8-row groups at 0, 512, 2048, 2560 elements: one descriptor's groups must be equally spaced.
  expect(wgmma("Sw<3,3,3> o ((_8,(_2,_2)),_64):((_64,(_512,_2048)),_1)"), "wgmma.layout",
         "block (0,0): element (16,0) is at offset 2048, the K-major 128-byte swizzle form with the block's offsets "
         "(LBO 0, SBO 1024 bytes) puts it at 1024");
  EXPECT_TRUE(wgmma("Sw<3,3,3> o ((_8,(_2,_2)),_64):((_64,(_512,_2048)),_1)", 2, 16).legal);  // a block per pair
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
