// tools/check.hpp: check_tma on the Hopper GEMM's boxes (legal) and on one case of each rule, whose
// messages are those make_tma_desc gives (atom/copy_traits_sm90_tma.cuh, tested on a GPU in
// tests/arch_cuda/copy_traits_sm90_tma.cu) and those of arch/tma_rules.hpp; check_copy on ldmatrix
// over K- and M-major tiles (its verdicts the bank model's, checked on an H200: docs/analyze.md);
// check_copy_vector on one case of each rule of algorithm/copy_rules.hpp, the layouts the
// elementwise kernels copy, and against copy itself (static_vector_ok, copy_vector_bits) over a set
// of static layouts.
#include "tessera/tools/check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tessera/algorithm/copy.hpp"
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
  expect(tma("(4096,4096)", "(_64,_64):(_64,_1)"), "tma.rank", "the global layout must be a layout (shape:stride)");
  expect(tma("(4096,4096):(4096,1)", "(_64,_64)"), "tma.rank", "the box must be a layout or a swizzled layout");
  expect(tma("(4096,4096):(4096,1)", "Sw<3,3,3> o _64 o (_64,_64):(_64,_1)"), "tma.swizzle",
         "a swizzled box layout must have offset 0");
}

// A swizzled box of rows narrower than the swizzle's span: TMA writes row y at y * span bytes (issue
// 34: on an H200 such boxes of 140 to 231 rows wrote past a buffer of rows x row bytes + 1024, an
// illegal address), so the box layout must have the span as its row stride.
TEST(CheckTma, RowsNarrowerThanTheSwizzleArePaddedToItsSpan) {
  // FUZZ 146 of the second device run: rows of 64 bytes under the 128-byte swizzle.
  auto r = tma("(271,96):(104,1)", "Sw<3,3,3> o (_159,_32):(_32,_1)");
  EXPECT_FALSE(r.legal);
  EXPECT_EQ(r.rule, "tma.row_pitch");
  EXPECT_NE(r.message.find("has rows of 32 elements (64 bytes) one after the other under the 128-byte swizzle: TMA "
                           "pads each row to 128 bytes in shared memory"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("so the box takes 159 x 128 = 20352 bytes, not 10176"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("lay it out as Sw<3,3,3> o (_159,_32):(_64,_1)"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("or use Sw<2,3,3> (64 bytes)"), std::string::npos) << r.message;
  // FUZZ 90: rows of 16 bytes (1-byte elements) under the 32-byte swizzle: no swizzle spans 16 bytes.
  auto n = tma("(225,48):(48,1)", "Sw<1,4,3> o (_231,_16):(_16,_1)", 1);
  EXPECT_EQ(n.rule, "tma.row_pitch");
  EXPECT_NE(n.message.find("Sw<1,4,3> o (_231,_16):(_32,_1)"), std::string::npos) << n.message;
  EXPECT_NE(n.message.find("or use no swizzle (no TMA swizzle spans 16 bytes)"), std::string::npos) << n.message;
  // A box contiguous along mode 0 (M-major), FUZZ 180's rows of 64 bytes under the 128-byte swizzle.
  auto m = tma("(59,225):(1,64)", "Sw<3,4,3> o (_64,_140):(_1,_64)", 1);
  EXPECT_EQ(m.rule, "tma.row_pitch");
  EXPECT_NE(m.message.find("Sw<3,4,3> o (_64,_140):(_1,_128)"), std::string::npos) << m.message;
  // The padded layouts are legal; so are one-row boxes, and rows as wide as the span.
  EXPECT_TRUE(tma("(271,96):(104,1)", "Sw<3,3,3> o (_159,_32):(_64,_1)").legal);
  EXPECT_TRUE(tma("(59,225):(1,64)", "Sw<3,4,3> o (_64,_140):(_1,_128)", 1).legal);
  EXPECT_TRUE(tma("(271,96):(104,1)", "Sw<3,3,3> o (_1,_32):(_32,_1)").legal);
  EXPECT_TRUE(tma("(271,96):(104,1)", "Sw<2,3,3> o (_159,_32):(_32,_1)").legal);
  // Padded rows otherwise out of order: tma.row_order, naming where TMA writes the element.
  auto o = tma("(271,96):(104,1)", "Sw<3,3,3> o (_159,_32):(_72,_1)");
  EXPECT_EQ(o.rule, "tma.row_order");
  EXPECT_NE(o.message.find("puts element (1,0) at offset 72, TMA writes it at 64 (rows of 32 elements along the "
                           "global unit-stride mode, 64 elements apart: the swizzle's span)"),
            std::string::npos)
      << o.message;
}

// The box's run-time coordinate (issue 34: an H200 raised an illegal instruction for a box of 1-byte
// elements at inner coordinate 356, a map the driver had accepted).
TEST(CheckTma, CoordinateOfTheBox) {
  using tessera::tools::check_tma_coordinate;
  const tessera::tools::CheckResult bad = check_tma_coordinate(356, 1);
  EXPECT_FALSE(bad.legal);
  EXPECT_EQ(bad.rule, "tma.coordinate");
  EXPECT_NE(bad.message.find("the box's inner coordinate 356 is at byte 356, not a multiple of 16"), std::string::npos)
      << bad.message;
  EXPECT_NE(bad.message.find("start boxes at multiples of 16 elements, e.g. 352 or 368"), std::string::npos)
      << bad.message;
  const tessera::tools::CheckResult half = check_tma_coordinate(-3, 2);
  EXPECT_EQ(half.rule, "tma.coordinate");
  EXPECT_NE(half.message.find("multiples of 8 elements, e.g. -8 or 0"), std::string::npos) << half.message;
  EXPECT_EQ(check_tma_coordinate(4, 4).rule, "");
  EXPECT_TRUE(check_tma_coordinate(4, 4).legal);
  EXPECT_TRUE(check_tma_coordinate(352, 1).legal);
  EXPECT_TRUE(check_tma_coordinate(-8, 2).legal);
  EXPECT_FALSE(check_tma_coordinate(1, 8).legal);
  EXPECT_TRUE(check_tma_coordinate(2, 8).legal);
}

tessera::tools::CheckResult tma_tile(const char* box, const char* smem, const char* global = "(4096,4096):(4096,1)") {
  return tessera::tools::check_tma(tessera::rt::evaluate(global), tessera::rt::evaluate(box), 2,
                                   tessera::rt::evaluate(smem));
}

TEST(CheckTma, TilesOfBoxes) {
  // attention's Q tile: 128 x 128 in boxes of 128 rows x 64 (a column of atoms each)
  auto q = tma_tile("Sw<3,3,3> o (_128,_64):(_64,_1)", "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))");
  EXPECT_TRUE(q.legal) << q.message;
  EXPECT_NE(
      q.message.find("; the tile (128,128) is 2 boxes (1 x 2), each laid out as the box, starting at multiples of "
                     "1024 bytes"),
      std::string::npos)
      << q.message;
  // the GEMM's MN-major B stage: 64-element chunks of 64 K-rows, one box each
  EXPECT_TRUE(tma_tile("Sw<3,3,3> o (_64,_64):(_1,_64)",
                       "tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_128,_64), (_1,_0))", "(4096,4096):(1,4096)")
                  .legal);
  // a plain tile of more than 256 rows in boxes of 256, and the tile given without its swizzle
  EXPECT_TRUE(tma_tile("(_256,_64):(_64,_1)", "(_512,_64):(_64,_1)").legal);
  EXPECT_TRUE(tma_tile("Sw<3,3,3> o (_128,_64):(_64,_1)", "tile_to_shape((_8,_64):(_64,_1), (_128,_128))").legal);
}

TEST(CheckTma, EachTileRuleNamedWithItsValues) {
  auto expect = [](const tessera::tools::CheckResult& r, const char* rule, const char* text) {
    EXPECT_FALSE(r.legal);
    EXPECT_EQ(r.rule, rule);
    EXPECT_NE(r.message.find(text), std::string::npos) << r.message;
  };
  expect(tma_tile("Sw<3,3,3> o (_128,_64):(_64,_1)", "Sw<3,3,3> o (_128,_128):(_128,_1)"), "tma.box_layout",
         "box (0,0) (tile elements (0,0) on) of the tile (_128,_128):(_128,_1) is not laid out as the box "
         "(_128,_64):(_64,_1): its element (1,0) is at offset 128, TMA writes it at 64 (the box's first element plus "
         "the box's offset of it); build the tile from the box: tile_to_shape(Sw<3,3,3> o (_128,_64):(_64,_1), "
         "(_128,_128))");
  expect(tma_tile("Sw<3,3,3> o (_8,_64):(_64,_1)", "Sw<3,3,3> o ((_8,_2),_64):((_64,_520),_1)"), "tma.box_start",
         "box (1,0) (tile elements (8,0) on) starts at element 520 (byte 1040), not a multiple of 1024 bytes (TMA's "
         "shared-memory address is 128-byte aligned, and under the 128-byte swizzle a box starts on its 1024-byte "
         "pattern, so that TMA's swizzle of the address is the tile's)");
  expect(tma_tile("(_8,_64):(_64,_1)", "((_8,_2),_64):((_64,_520),_1)"), "tma.box_start",
         "starts at element 520 (byte 1040), not a multiple of 128 bytes (TMA's shared-memory address is 128-byte "
         "aligned)");
  expect(tma_tile("(_48,_64):(_64,_1)", "(_128,_64):(_64,_1)"), "tma.tile",
         "the box's shape (48,64) does not divide the tile's (128,64) (mode 0: 48 into 128)");
  expect(tma_tile("Sw<3,3,3> o (_128,_64):(_64,_1)", "Sw<2,3,3> o (_128,_128):(_128,_1)"), "tma.swizzle",
         "the tile's swizzle Sw<2,3,3> is not the box's Sw<3,3,3>");
  expect(tma_tile("(_64,_64):(_64,_1)", "(64,64):(64,1)"), "tma.rank", "must be static and have rank 2");
  // the box's own rules come first
  expect(tma_tile("(_64,_64):(_65,_1)", "(_64,_64):(_64,_1)"), "tma.row_order", "puts element (1,0) at offset 65");
}

// ---- check_wgmma ---------------------------------------------------------------------------------

using tessera::GmmaMajor;

tessera::tools::WgmmaCheck wgmma(const std::string& smem, int elem_bytes = 2, int block = 0) {
  return tessera::tools::check_wgmma(tessera::rt::evaluate(smem), elem_bytes, std::nullopt, block);
}

// A static stage layout (without its swizzle, as make_gmma_desc takes it; SwizzleBits 0..3: none,
// the 32-, 64-, 128-byte swizzle) checked at run time through its printed form: legal, and every
// block's descriptor the one make_gmma_desc encodes (the compile-time path) for the same block.
template <GmmaMajor Major, int MNBlock, class L, int ElemBytes = 2, int SwizzleBits = 3>
void expect_same_descriptors(L const& l) {
  using namespace tessera;
  const int log_t = ElemBytes == 1 ? 4 : ElemBytes == 2 ? 3 : 2;
  const std::string text =
      SwizzleBits == 0 ? to_string(l)
                       : "Sw<" + std::to_string(SwizzleBits) + "," + std::to_string(log_t) + ",3> o " + to_string(l);
  const tools::WgmmaCheck r = tools::check_wgmma(rt::evaluate(text), ElemBytes, Major, MNBlock);
  ASSERT_TRUE(r.legal) << text << ": " << r.message;
  EXPECT_EQ(r.swizzle_bits, SwizzleBits);
  const int kb = 32 / ElemBytes, mn = int(size<0>(l)), k = int(size<1>(l));
  ASSERT_EQ(r.blocks.size(), std::size_t(mn / MNBlock) * std::size_t(k / kb)) << text;
  std::size_t i = 0;
  for (int mn0 = 0; mn0 < mn; mn0 += MNBlock)
    for (int k0 = 0; k0 < k; k0 += kb, ++i) {
      const GmmaForm& f = r.blocks[i];
      EXPECT_EQ(f.start, (long long)l(mn0, k0)) << text;
      const std::uint32_t base = 0x4000, eb = ElemBytes;
      // K-major swizzled: LBO is unused, make_gmma_desc writes 16 bytes there; other unused fields 0
      const std::uint32_t lbo = Major == GmmaMajor::K && SwizzleBits != 0 ? 16u
                                : gmma_lbo_used(f)                        ? std::uint32_t(eb * f.lbo)
                                                                          : 0u;
      const std::uint32_t sbo = gmma_sbo_used(f) ? std::uint32_t(eb * f.sbo) : 0u;
      EXPECT_EQ((make_gmma_desc<Major, MNBlock, ElemBytes, SwizzleBits>(base, l, mn0, k0)),
                gmma_desc_bits(base + eb * std::uint32_t(f.start), lbo, sbo, SwizzleBits))
          << text << " block (" << mn0 << "," << k0 << ")";
    }
}

// Every form make_gmma_desc accepts (each swizzle, K- and MN-major, 1-, 2- and 4-byte elements):
// the checker finds the same descriptors.
template <int Bits>
void expect_every_form_agrees() {
  using namespace tessera;
  using KAtom = GmmaLayoutAtom<GmmaMajor::K, Bits>;
  using MNAtom = GmmaLayoutAtom<GmmaMajor::MN, Bits>;
  auto inner = [](auto atom) {
    if constexpr (is_composed_layout<decltype(atom)>::value) return atom.inner();
    else return atom;
  };
  expect_same_descriptors<GmmaMajor::K, 64, decltype(tile_to_shape(inner(KAtom{}), Shape<_128, _64>{})), 2, Bits>(
      tile_to_shape(inner(KAtom{}), Shape<_128, _64>{}));
  expect_same_descriptors<GmmaMajor::K, 128, decltype(tile_to_shape(inner(KAtom{}), Shape<_128, _64>{})), 2, Bits>(
      tile_to_shape(inner(KAtom{}), Shape<_128, _64>{}));
  constexpr auto mn = tile_to_shape(inner(MNAtom{}), Shape<_128, _64>{}, LayoutRight{});
  expect_same_descriptors<GmmaMajor::MN, 64, decltype(mn), 2, Bits>(mn);
  expect_same_descriptors<GmmaMajor::MN, 128, decltype(mn), 2, Bits>(mn);
  constexpr auto tf32 = tile_to_shape(inner(GmmaLayoutAtom<GmmaMajor::K, Bits, 4>{}), Shape<_64, _32>{});
  expect_same_descriptors<GmmaMajor::K, 64, decltype(tf32), 4, Bits>(tf32);
  constexpr auto fp8 = tile_to_shape(inner(GmmaLayoutAtom<GmmaMajor::K, Bits, 1>{}), Shape<_64, _128>{});
  expect_same_descriptors<GmmaMajor::K, 64, decltype(fp8), 1, Bits>(fp8);
}

TEST(CheckWgmma, EveryFormAgreesWithMakeGmmaDesc) {
  expect_every_form_agrees<0>();
  expect_every_form_agrees<1>();
  expect_every_form_agrees<2>();
  expect_every_form_agrees<3>();
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
  // An MN-major block wider than a swizzle row must be whole rows (32 elements under the 64-byte one).
  expect(wgmma("Sw<2,3,3> o tile_to_shape((_32,_8):(_1,_32), (_96,_16), (_1,_0))", 2, 48), "wgmma.block",
         "a block of 48 MN elements: wgmma's MN extents are multiples of 8 up to 256, and an MN-major block under the "
         "64-byte swizzle at most one row of 32 elements or whole rows");
  // An MN-major swizzled block starts its pattern; an unswizzled one 16-byte aligned.
  expect(wgmma("Sw<3,3,3> o (_64,_16):(_1,_64)", 2, 8), "wgmma.start",
         "block (8,0) starts at element 8 (byte 16): under the 128-byte swizzle it must start a 1024-byte pattern; "
         "build the tile as tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_64,_16), (_1,_0))");
  expect(wgmma("((_8,_2),(_8,_2)):((_8,_68),(_1,_136))", 2, 8), "wgmma.start",
         "block (8,0) starts at element 68 (byte 136): a descriptor's start is 16-byte aligned");
  // Neither mode contiguous: no operand.
  expect(wgmma("(_64,_64):(_128,_2)"), "wgmma.core",
         "neither mode of (_64,_64):(_128,_2) has unit stride at (0,0): a wgmma operand is K-major (mode 1 contiguous) "
         "or MN-major (mode 0)");
  // A swizzled tile at an offset, and a value that is no layout.
  expect(wgmma("Sw<3,3,3> o _64 o (_64,_64):(_64,_1)"), "wgmma.rank", "a swizzled tile layout must have offset 0");
  expect(wgmma("(_64,_64)"), "wgmma.rank", "the tile must be a layout or a swizzled layout");
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

// ---- check_copy_vector ---------------------------------------------------------------------------

tessera::tools::CopyVectorCheck vec(const char* src, const char* dst, int width, int elem_bits = 16, int align = 16) {
  tessera::tools::CopyVectorRequest req;
  if (src != nullptr) req.src = tessera::rt::evaluate(src);
  if (dst != nullptr) req.dst = tessera::rt::evaluate(dst);
  req.width_bits = width;
  req.elem_bits = elem_bits;
  req.align_bytes = align;
  return tessera::tools::check_copy_vector(req);
}

TEST(CheckCopyVector, TheElementwiseKernelsCopiesAreLegal) {
  // add_tv_static's thread: 8 contiguous values of 4 rows ((4,8):(8,1) values of the TV layout) in a
  // row-major 4096-wide matrix, into a compact fragment: one 128-bit vector a row of halves.
  auto h = vec("(_8,_4):(_1,_4096)", nullptr, 128);
  EXPECT_TRUE(h.legal) << h.message;
  EXPECT_EQ(h.runs, 4);
  EXPECT_EQ(h.widest_bits, 128);
  EXPECT_TRUE(h.library_vectorizes);
  EXPECT_NE(h.message.find("4 vectors of 128 bits (8 elements, 16 bytes) over 32 elements (_8,_4):(_1,_4096) -> "
                           "(_8,_4):(_1,_8)"),
            std::string::npos)
      << h.message;
  // fp32: two 128-bit vectors a row.
  auto f = vec("(_8,_4):(_1,_4096)", nullptr, 128, 32);
  EXPECT_TRUE(f.legal) << f.message;
  EXPECT_EQ(f.runs, 8);
  // add_vectorized_static: one vector (_8):(_1) of a row, and back.
  EXPECT_TRUE(vec("(_8):(_1)", nullptr, 128).legal);
  EXPECT_TRUE(vec(nullptr, "(_8):(_1)", 128).legal);
  // A cp.async row into the GEMM's 128-byte-swizzled stage: Sw<3,3,3> keeps 8 halves together.
  EXPECT_TRUE(vec("(_8):(_1)", "Sw<3,3,3> o (_8):(_1)", 128).legal);
  // Run-time strides: legal for the hardware, but copy() plans at compile time.
  auto d = vec("(8,4):(1,4096)", nullptr, 128);
  EXPECT_TRUE(d.legal);
  EXPECT_FALSE(d.library_vectorizes);
  EXPECT_NE(d.message.find("copy() itself moves these element by element"), std::string::npos) << d.message;
  // A narrower width than copy() picks.
  auto n64 = vec("(_8,_4):(_1,_4096)", nullptr, 64);
  EXPECT_TRUE(n64.legal);
  EXPECT_NE(n64.message.find("copy() uses 128-bit vectors here (the widest legal)"), std::string::npos) << n64.message;
}

// Every rule but copy.cover, for which no layout is known: with vectors of 2, an element in no
// vector needs an odd offset without its even neighbour while every even offset has its odd one,
// and a search of small 2- and 3-mode layouts (extents up to 3 or 4, strides below 9) finds none; the
// rule is tested on its function, tests/algorithm/copy_rules.cpp (AnOrphanIsAnElementWhoseRunHasNoStart).
TEST(CheckCopyVector, EachRuleNamedWithItsValues) {
  auto expect = [](const tessera::tools::CopyVectorCheck& r, const char* rule, const char* text) {
    EXPECT_FALSE(r.legal);
    EXPECT_EQ(r.rule, rule);
    EXPECT_NE(r.message.find(text), std::string::npos) << r.message;
  };
  expect(vec("(_8):(_1)", nullptr, 16), "copy.width",
         "a 16-bit vector of 16-bit elements: copy moves 8, 16, 32, 64 or 128 bits an access, whole elements and more "
         "than one; widths for this element: 32, 64, 128");
  expect(vec("(_8):(_1)", nullptr, 96), "copy.width", "widths for this element: 32, 64, 128");
  expect(
      vec("Sw<3,2,3> o (_64,_8):(_1,_64)", nullptr, 128), "copy.swizzle",
      "the source's swizzle Sw<3,2,3> keeps 4 elements (8 bytes) together, a 128-bit vector moves 16; use a narrower "
      "width: 64 bits is the widest these layouts allow, or a swizzle Sw<B,M,S> with 2^M >= 8 elements");
  expect(vec("(_4,_3):(_1,_4)", nullptr, 128), "copy.size",
         "the copy's 12 elements are not whole vectors of 8 (128-bit vectors); use a narrower width: 64 bits is the "
         "widest these layouts allow, or pad the tile to a multiple of 8");
  expect(vec(nullptr, "(_8,_8):(_1,_0)", 32), "copy.offsets",
         "the destination (_8,_8):(_1,_0) puts elements 0 and 8 at offset 0: a copy writes every destination offset "
         "once");
  expect(vec(nullptr, "(_8,_2):(_1,_-8)", 32), "copy.offsets", "puts element 8 at offset -8");
  // A sparse destination (offsets far apart: a sorted inverse instead of a table).
  expect(vec(nullptr, "(_2,_2):(_100000,_100000)", 32), "copy.offsets", "puts elements 1 and 2 at offset 100000");
  EXPECT_TRUE(vec("(_8,_4):(_1,_100000)", "(_8,_4):(_1,_100000)", 128).legal);
  expect(vec("(_8,_4):(_1,_8)", "(_8,_4):(_1,_100004)", 128), "copy.run_align",
         "the run at destination offset 100008 (element 12) starts at source offset 12 (byte 24)");
  // Rows of 4100 halves: row 1 starts at 4100, not a multiple of 8.
  expect(vec("(_8,_4):(_1,_4100)", nullptr, 128), "copy.run_align",
         "run 1 (elements 8..15) starts at source offset 4100 (byte 8200), not a multiple of 8 elements (16 bytes): "
         "its 128-bit vector would be misaligned; use a narrower width: 64 bits is the widest these layouts allow, or "
         "a layout whose runs of 8 elements start at source offsets that are multiples of 8");
  // The transpose: a row-major tile into a column-major fragment; the fix names the fragment in the
  // source's order.
  expect(vec("(_8,_8):(_8,_1)", nullptr, 128), "copy.contiguous",
         "run 0 (elements 0..7): element 1 is at source offset 8, a 128-bit vector needs 1 (8 consecutive offsets from "
         "0 in (_8,_8):(_8,_1)); use a narrower width (none is legal here: element by element), or a layout whose "
         "runs of 8 elements are contiguous (here: a destination fragment in the source's order, (_8,_8):(_8,_1))");
  // Rows of 4 with a hole between them: offsets 0..3 and 8..11.
  expect(vec("(_4,_2):(_1,_8)", nullptr, 128), "copy.contiguous",
         "run 0 (elements 0..7): element 4 is at source offset 8, a 128-bit vector needs 4");
  // The same hole in the destination: its offsets 4..7 are missing.
  expect(vec("(_8):(_1)", "(_4,_2):(_1,_8)", 128), "copy.contiguous",
         "the run at destination offset 0 (element 0): the destination (_4,_2):(_1,_8) has no element at offset 4 (a "
         "128-bit vector writes offsets 0..7)");
  expect(vec("(_8):(_1)", "(_8):(_1)", 128, 16, 8), "copy.align",
         "the base pointers are 8-byte aligned, a 128-bit vector needs 16: align the buffers to 16 bytes (cudaMalloc "
         "gives 256), or use a narrower width: 64 bits is the widest these layouts allow");
}

TEST(CheckCopyVector, RequestErrors) {
  EXPECT_THROW((void)vec(nullptr, nullptr, 128), tessera::layout_error);
  EXPECT_THROW((void)vec("(_8):(_1)", "(_4):(_1)", 128), tessera::layout_error);   // sizes differ
  EXPECT_THROW((void)vec("make_shape(_8)", nullptr, 128), tessera::layout_error);  // not a layout
  EXPECT_THROW((void)vec("(_8):(_1)", nullptr, 128, 0), tessera::layout_error);
}

// The checker against copy itself: for static layouts and 16-byte aligned pointers, width W is legal
// exactly when copy's static_vector_ok<W> holds, and the widest legal width is copy_vector_bits.
template <class Src, class Dst>
void expect_tensors_as_copy(Src const& src, Dst const& dst, const std::string& ts, const std::string& td) {
  using namespace tessera;
  using S = std::remove_cvref_t<Src>;
  using D = std::remove_cvref_t<Dst>;
  const int bits = sizeof_bits_v<typename D::value_type>;
  const bool ok[] = {detail::static_vector_ok<8, S, D>(), detail::static_vector_ok<16, S, D>(),
                     detail::static_vector_ok<32, S, D>(), detail::static_vector_ok<64, S, D>(),
                     detail::static_vector_ok<128, S, D>()};
  for (int k = 0, w = 8; w <= 128; ++k, w *= 2) {
    const auto r = vec(ts.c_str(), td.c_str(), w, bits);
    EXPECT_EQ(r.legal, ok[k]) << ts << " -> " << td << " at " << w << " bits: " << r.rule << " " << r.message;
    EXPECT_EQ(r.widest_bits, copy_vector_bits(src, dst)) << ts << " -> " << td;
  }
}

template <class T>
T* aligned_buffer(int which) {
  alignas(256) static T bufs[2][1 << 12] = {};
  return bufs[which];
}

template <class T, class LS, class LD>
void expect_as_copy(LS ls, LD ld) {
  using namespace tessera;
  expect_tensors_as_copy(make_tensor(make_gmem_ptr(aligned_buffer<T>(0)), ls),
                         make_tensor(make_gmem_ptr(aligned_buffer<T>(1)), ld), to_string(ls), to_string(ld));
}

// The same with the destination in swizzled shared memory (a SwizzledPtr: copy.swizzle).
template <class T, int B, int M, int S, class LS, class LD>
void expect_as_copy_swizzled(LS ls, LD ld) {
  using namespace tessera;
  expect_tensors_as_copy(
      make_tensor(make_gmem_ptr(aligned_buffer<T>(0)), ls),
      make_tensor(make_smem_ptr(aligned_buffer<T>(1)), composition(Swizzle<B, M, S>{}, ld)), to_string(ls),
      "Sw<" + std::to_string(B) + "," + std::to_string(M) + "," + std::to_string(S) + "> o " + to_string(ld));
}

TEST(CheckCopyVector, AgreesWithCopy) {
  using namespace tessera;
  auto col = make_layout(make_shape(_8{}, _8{}));
  auto row = make_layout(make_shape(_8{}, _8{}), LayoutRight{});
  auto padded = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _12{}));
  auto odd = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _9{}));
  auto strided = make_layout(make_shape(_8{}, _4{}), make_stride(_2{}, _16{}));
  auto blocked = make_layout(make_shape(make_shape(_4{}, _2{}), _4{}), make_stride(make_shape(_1{}, _16{}), _4{}));
  expect_as_copy<float>(col, col);
  expect_as_copy<float>(row, col);
  expect_as_copy<float>(row, row);
  expect_as_copy<float>(padded, col);
  expect_as_copy<float>(col, padded);
  expect_as_copy<half_t>(padded, col);
  expect_as_copy<half_t>(odd, col);
  expect_as_copy<half_t>(strided, make_layout(make_shape(_8{}, _4{})));
  expect_as_copy<std::uint8_t>(odd, col);
  expect_as_copy<half_t>(blocked, make_layout(make_shape(make_shape(_4{}, _2{}), _4{})));
  expect_as_copy<double>(col, col);
  auto rows64 = make_layout(make_shape(_8{}, _64{}), LayoutRight{});
  expect_as_copy_swizzled<half_t, 3, 3, 3>(rows64, rows64);  // the GEMM's stage: 16-byte units
  expect_as_copy_swizzled<half_t, 3, 2, 3>(rows64, rows64);  // 8-byte units: at most 64 bits
  expect_as_copy_swizzled<float, 2, 2, 3>(row, row);
  expect_as_copy_swizzled<float, 3, 1, 3>(row, col);
}

}  // namespace
