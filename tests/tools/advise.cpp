// tools/advise.hpp: the swizzle advisor on the canonical cases of shared-memory tiles (issue 34):
// ldmatrix from K-major and MN-major fp16 tiles written by 16-byte cp.async, TMA-written tiles
// (its swizzle modes only), a stmatrix epilogue, fp32 columns. The advice must be conflict-free
// where a conflict-free layout exists, the candidates it ranks above must have no fewer excess
// wavefronts, and every verdict must be the bank model's (tools/analyze.hpp, checked on an H200).
#include "tessera/tools/advise.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/atom/names.hpp"
#include "tessera/core/print.hpp"

namespace {

using tessera::tools::Advice;
using tessera::tools::AdviseAccess;
using tessera::tools::AdviseRequest;

AdviseAccess copy(const char* expr) {
  return {tessera::rt::evaluate(expr, tessera::atom_names()).as<tessera::rt::TiledCopy>()};
}

// 16-byte cp.async of fp16: 128 threads, rows of 8 threads x 8 halves (a (16,64) tile per step).
constexpr const char* kCpAsyncRowMajor =
    "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))";
// The same down columns, for a column-major (M contiguous) tile.
constexpr const char* kCpAsyncColMajor =
    "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_8,_16):(_1,_8), (_8,_1))";
constexpr const char* kLdsmA =
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))";
constexpr const char* kLdsmTA =
    "make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))";

// The candidates are ranked: legal ones first, non-decreasing excess among them.
void expect_ranked(const Advice& a) {
  bool seen_illegal = false;
  std::int64_t last = -1;
  for (const auto& c : a.candidates) {
    if (!c.legal) {
      seen_illegal = true;
      EXPECT_FALSE(c.why_not.empty()) << c.spelled;
      continue;
    }
    EXPECT_FALSE(seen_illegal) << "a legal candidate after an illegal one: " << c.spelled;
    EXPECT_GE(c.excess(), last) << c.spelled;
    last = c.excess();
  }
}

const tessera::tools::AdviseCandidate& find(const Advice& a, const std::string& spelled) {
  for (const auto& c : a.candidates)
    if (c.spelled == spelled) return c;
  ADD_FAILURE() << "no candidate " << spelled;
  return a.candidates.front();
}

TEST(Advise, CpAsyncThenLdmatrixOfKMajorFp16IsSw333) {
  AdviseRequest r;
  r.tile = {64, 64};
  r.write = copy(kCpAsyncRowMajor);
  r.read = copy(kLdsmA);
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.elem_bytes, 2);
  // The project's Ampere GEMM's choice: the 128-byte swizzle on fp16 element offsets.
  EXPECT_EQ(a.best().spelled, "Sw<3,3,3> o (_64,_64):(_64,_1)");
  EXPECT_EQ(a.best().excess(), 0);
  EXPECT_EQ(a.best().extra_bytes, 0);
  // Unswizzled: the read is 8-way (32 wavefronts where 4 do, per instruction: the H200 measured it).
  const auto& plain = find(a, "(_64,_64):(_64,_1)");
  ASSERT_TRUE(plain.legal);
  EXPECT_EQ(plain.read_wavefronts, 8 * plain.read_ideal);
  // A swizzle that moves halves within a 16-byte vector breaks both instructions' vectors.
  const auto& split = find(a, "Sw<3,2,3> o (_64,_64):(_64,_1)");
  EXPECT_FALSE(split.legal);
  EXPECT_NE(split.why_not.find("contiguous"), std::string::npos) << split.why_not;
  // Padding by 16 bytes is conflict-free too, but costs 1 KB: ranked after the swizzle.
  const auto& padded = find(a, "(_64,_64):(_72,_1)");
  EXPECT_TRUE(padded.legal);
  EXPECT_EQ(padded.excess(), 0);
  EXPECT_EQ(padded.extra_bytes, 64 * 16);
}

// 64-byte rows (BK = 32): the Ampere GEMM's Sw<2,3,3>, the fewest bits that are conflict-free.
TEST(Advise, CpAsyncThenLdmatrixOf32ColumnsIsSw233) {
  AdviseRequest r;
  r.tile = {64, 32};
  r.write = copy("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_32,_4):(_4,_1), (_1,_8))");
  r.read = copy(kLdsmA);
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.best().spelled, "Sw<2,3,3> o (_64,_32):(_32,_1)");
  EXPECT_EQ(a.best().excess(), 0);
}

TEST(Advise, LdmatrixTransposedOfMnMajorFp16) {
  AdviseRequest r;
  r.tile = {64, 64};
  r.row_major = false;  // M contiguous: an MN-major A
  r.write = copy(kCpAsyncColMajor);
  r.read = copy(kLdsmTA);
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.best().spelled, "Sw<3,3,3> o (_64,_64):(_1,_64)");  // the Ampere GEMM's M/N-major choice
  EXPECT_EQ(a.best().excess(), 0);
  EXPECT_EQ(a.best().extra_bytes, 0);
  EXPECT_GT(find(a, "(_64,_64):(_1,_64)").excess(), 0);
}

TEST(Advise, TmaWriteTakesOnlyTmaSwizzles) {
  AdviseRequest r;
  r.tile = {64, 64};  // 128-byte rows of fp16
  r.tma_write = true;
  r.read = copy(kLdsmA);
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.best().spelled, "Sw<3,3,3> o (_64,_64):(_64,_1)");  // TMA's 128-byte swizzle
  EXPECT_EQ(a.best().excess(), 0);
  for (const auto& c : a.candidates) {
    if (!c.legal) continue;
    EXPECT_EQ(c.pad_bytes, 0) << c.spelled;
    EXPECT_TRUE(c.bits == 0 || (c.base == 3 && c.shift == 3)) << c.spelled;
  }
  // 256-byte rows: wider than any TMA swizzle's span, so TMA writes them unswizzled only.
  r.tile = {64, 128};
  const Advice b = tessera::tools::advise(r);
  const auto& wide = find(b, "Sw<3,3,3> o (_64,_128):(_128,_1)");
  EXPECT_FALSE(wide.legal);
  EXPECT_NE(wide.why_not.find("TMA: a 128-byte swizzle needs a box inner extent of at most 128 bytes, got 256"),
            std::string::npos)
      << wide.why_not;
  EXPECT_TRUE(find(b, "(_64,_128):(_128,_1)").legal);
  EXPECT_FALSE(find(b, "(_64,_128):(_136,_1)").legal);  // padding: TMA writes densely
  // 64-byte rows: the 64-byte swizzle applies; not the 128-byte one, which TMA would make rows
  // of 128 bytes (tma_row_pitch: a row narrower than the span is padded to it, seen on an H200,
  // issue 34), so the tile's row (1, 0) at element 32 is not where TMA writes it (64).
  r.tile = {64, 32};
  const Advice c = tessera::tools::advise(r);
  EXPECT_TRUE(find(c, "Sw<2,3,3> o (_64,_32):(_32,_1)").legal);
  EXPECT_EQ(c.best().excess(), 0);
  const auto& padded = find(c, "Sw<3,3,3> o (_64,_32):(_32,_1)");
  EXPECT_FALSE(padded.legal);
  EXPECT_NE(padded.why_not.find("element (1,0) is at offset 32, TMA writes it at 64 (tma.box_layout)"),
            std::string::npos)
      << padded.why_not;
}

TEST(Advise, TmaWritesMoreThan256RowsInSeveralBoxes) {
  // TMA's box extents are at most 256: 512 rows are two boxes of 256, each laid out as TMA writes
  // it and starting on the swizzle's 1024-byte pattern (arch/tma_tile_rules.hpp).
  AdviseRequest r;
  r.tile = {512, 64};
  r.tma_write = true;
  r.read = copy(kLdsmA);
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.best().spelled, "Sw<3,3,3> o (_512,_64):(_64,_1)");
  EXPECT_EQ(a.best().tma_boxes, 2);
  EXPECT_EQ(a.best().excess(), 0);
  // 384 rows: two boxes of 192
  r.tile = {384, 64};
  EXPECT_EQ(tessera::tools::advise(r).best().tma_boxes, 2);
  // wgmma's atoms too: a 512 x 128 K-major tile is two columns of atoms, each two boxes of 256 rows
  AdviseRequest w;
  w.tile = {512, 128};
  w.tma_write = true;
  w.wgmma_read = true;
  w.wgmma_block = 64;
  w.elem_bytes = 2;
  const Advice b = tessera::tools::advise(w);
  EXPECT_EQ(b.best().spelled, "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_512,_128))");
  EXPECT_EQ(b.best().tma_boxes, 4);
}

TEST(Advise, StmatrixEpilogueAlone) {
  AdviseRequest r;
  r.tile = {64, 64};
  r.write = copy(
      "make_tiled_copy_C(Copy_Atom<SM90_U32x2_STSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, "
      "(_2,_2,_1)))");
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.best().excess(), 0);
  EXPECT_GT(find(a, "(_64,_64):(_64,_1)").excess(), 0);  // stmatrix rows of 128 bytes collide unswizzled
}

// fp32 32x32 read down columns (a warp a column): 32-way unswizzled; padding one word or the
// 5-bit swizzle Sw<5,0,5> (every row's 32 words XOR the row index) are conflict-free, and the
// swizzle costs no memory.
TEST(Advise, Fp32ColumnsTakeAFiveBitSwizzle) {
  AdviseRequest r;
  r.tile = {32, 32};
  r.read = copy("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_1):(_1,_0), (_1,_32))");
  r.read->side = tessera::tools::CopySide::source;
  const Advice a = tessera::tools::advise(r);
  expect_ranked(a);
  EXPECT_EQ(a.best().spelled, "Sw<5,0,5> o (_32,_32):(_32,_1)");
  EXPECT_EQ(a.best().excess(), 0);
  const auto& plain = find(a, "(_32,_32):(_32,_1)");
  EXPECT_EQ(plain.read_wavefronts, 32 * plain.read_ideal);
  EXPECT_EQ(find(a, "(_32,_32):(_33,_1)").excess(), 0);
}

TEST(Advise, ErrorsNameTheRule) {
  AdviseRequest r;
  r.tile = {64, 64};
  EXPECT_THROW(
      {
        try {
          (void)tessera::tools::advise(r);
        } catch (const tessera::layout_error& e) {
          EXPECT_NE(std::string(e.what()).find("name the instruction"), std::string::npos) << e.what();
          throw;
        }
      },
      tessera::layout_error);
  r.write = copy(kCpAsyncRowMajor);
  r.read = copy("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_1):(_1,_0), (_1,_1))");
  EXPECT_THROW((void)tessera::tools::advise(r), tessera::layout_error);  // fp16 written, fp32 read
  // A copy whose side in shared memory the instruction does not tell: the request names it.
  r.read = copy("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))");
  EXPECT_THROW((void)tessera::tools::advise(r), tessera::layout_error);
  r.read->side = tessera::tools::CopySide::source;
  EXPECT_EQ(tessera::tools::advise(r).best().excess(), 0);
  r.read.reset();
  r.tma_write = true;
  EXPECT_THROW((void)tessera::tools::advise(r), tessera::layout_error);  // two writers
}

// ---- a wgmma reader (the Hopper kernels' operand tiles) --------------------------------------------

AdviseRequest tma_then_wgmma(std::int64_t mn, std::int64_t k, bool k_major) {
  AdviseRequest r;
  r.tile = {mn, k};
  r.row_major = k_major;
  r.tma_write = true;
  r.wgmma_read = true;
  r.elem_bytes = 2;
  return r;
}

// Whether the candidate's layout is, element by element, the static layout `l` under the 128-byte
// swizzle (the kernels' stage layouts, atom/mma_traits_sm90.hpp's atoms).
template <class L>
void expect_same_function(const tessera::tools::AdviseCandidate& c, L const& l) {
  using namespace tessera;
  const rt::Value mine = rt::evaluate(c.spelled);
  const rt::Value theirs = rt::evaluate("Sw<3,3,3> o " + to_string(l));
  const auto a = tools::analyze_detail::as_memory_layout(mine), b = tools::analyze_detail::as_memory_layout(theirs);
  ASSERT_EQ(a.size(), b.size()) << c.spelled;
  for (std::int64_t i = 0; i < a.size(); ++i) ASSERT_EQ(a(i), b(i)) << c.spelled << " at " << i;
}

TEST(AdviseWgmma, TmaThenWgmmaOfAKMajor64x64Fp16TileIsSw333) {
  const Advice a = tessera::tools::advise(tma_then_wgmma(64, 64, true));
  expect_ranked(a);
  EXPECT_EQ(a.read_text, "wgmma, K-major operand");
  // The Hopper GEMM's A and B stage of BK = 64: rows of 128 bytes under the 128-byte swizzle, one box.
  EXPECT_EQ(a.best().spelled, "Sw<3,3,3> o (_64,_64):(_64,_1)");
  EXPECT_EQ(a.best().tma_boxes, 1);
  EXPECT_EQ(a.best().read_wavefronts, a.best().read_ideal);
  EXPECT_EQ(a.best().read_ideal, 64 * 64 / 64);  // one wavefront a core matrix (8 rows of 16 bytes)
  // The narrower swizzles fit only as atoms of their own width: more boxes, ranked after.
  const auto& sw64 = find(a, "tile_to_shape(Sw<2,3,3> o (_8,_32):(_32,_1), (_64,_64))");
  EXPECT_TRUE(sw64.legal) << sw64.why_not;
  EXPECT_EQ(sw64.tma_boxes, 2);
  EXPECT_EQ(find(a, "tile_to_shape((_8,_8):(_8,_1), (_64,_64))").tma_boxes, 8);
  // Rows of 128 bytes are not the unswizzled form's 16-byte core-matrix rows; nor the 64-byte
  // swizzle's rows (TMA refuses that box first).
  const auto& plain = find(a, "(_64,_64):(_64,_1)");
  EXPECT_FALSE(plain.legal);
  EXPECT_NE(plain.why_not.find("wgmma (wgmma.core)"), std::string::npos) << plain.why_not;
  EXPECT_FALSE(find(a, "Sw<2,3,3> o (_64,_64):(_64,_1)").legal);
}

TEST(AdviseWgmma, ReproducesTheAttentionAndGemmTiles) {
  using namespace tessera;
  // attention_sm90_rows_layout<128, 128> (Q's tile, K's stage): D/64 chunks of 128 rows x 64.
  const Advice q = tools::advise(tma_then_wgmma(128, 128, true));
  EXPECT_EQ(q.best().spelled, "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))");
  EXPECT_EQ(q.best().tma_boxes, 2);
  expect_same_function(q.best(), tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _128>{}));
  // gemm_sm90_stage_layout<128, 64, false> (an MN-major B): K-rows of 64, a chunk's K groups together.
  const Advice b = tools::advise(tma_then_wgmma(128, 64, false));
  EXPECT_EQ(b.best().spelled, "tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_128,_64), (_1,_0))");
  expect_same_function(b.best(), tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_128, _64>{}, LayoutRight{}));
  // attention_sm90_v_layout<128, 256> (V as PV's B operand, N = D = 256 in one descriptor).
  AdviseRequest vr = tma_then_wgmma(256, 128, false);
  vr.wgmma_block = 256;
  const Advice v = tools::advise(vr);
  expect_same_function(v.best(), tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_256, _128>{}, LayoutRight{}));
  const std::string text = tools::to_text(q);
  EXPECT_NE(text.find("best:  tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))  (conflict-free, 2 TMA boxes)"),
            std::string::npos)
      << text;
}

TEST(AdviseWgmma, TheReadModelSeesCoreMatrixConflicts) {
  // The model's read on a layout no descriptor describes (rows of 128 bytes, unswizzled), as if it
  // were read a core matrix at a time: the 8 rows of each core matrix in one bank group, 8-way.
  using namespace tessera;
  tools::WgmmaCheck w;
  w.major = GmmaMajor::K;
  w.mn_block = 64;
  w.k_block = 16;
  std::int64_t wav = 0, ideal = 0;
  tools::advise_detail::wgmma_read_wavefronts(rt::evaluate("(_64,_64):(_64,_1)"), w, 2, {64, 64}, wav, ideal);
  EXPECT_EQ(ideal, 64);
  EXPECT_EQ(wav, 8 * 64);
  tools::advise_detail::wgmma_read_wavefronts(rt::evaluate("Sw<3,3,3> o (_64,_64):(_64,_1)"), w, 2, {64, 64}, wav,
                                              ideal);
  EXPECT_EQ(wav, ideal);
}

TEST(AdviseWgmma, Errors) {
  AdviseRequest r = tma_then_wgmma(64, 64, true);
  r.elem_bytes = 0;
  EXPECT_THROW((void)tessera::tools::advise(r), tessera::layout_error);  // no element type
  r = tma_then_wgmma(64, 64, true);
  r.read = copy(kLdsmA);
  EXPECT_THROW((void)tessera::tools::advise(r), tessera::layout_error);  // two readers
}

// The request's pieces from values and words, as the command and the Python binding read them.
TEST(Advise, TileAndSideFromValuesAndWords) {
  EXPECT_EQ(tessera::tools::advise_tile(tessera::rt::evaluate("(_64,_32)")), (std::vector<std::int64_t>{64, 32}));
  EXPECT_THROW((void)tessera::tools::advise_tile(tessera::rt::evaluate("(_64,_32,_2)")), tessera::layout_error);
  EXPECT_THROW((void)tessera::tools::advise_tile(tessera::rt::evaluate("_64:_1")), tessera::layout_error);
  EXPECT_EQ(tessera::tools::copy_side("", "advise"), tessera::tools::CopySide::automatic);
  EXPECT_EQ(tessera::tools::copy_side("src", "advise"), tessera::tools::CopySide::source);
  EXPECT_EQ(tessera::tools::copy_side("dst", "advise"), tessera::tools::CopySide::destination);
  try {
    (void)tessera::tools::copy_side("source", "advise");
    ADD_FAILURE() << "copy_side accepted 'source'";
  } catch (const tessera::layout_error& e) {
    EXPECT_EQ(std::string(e.what()), "advise: a side must be 'src' or 'dst', got 'source'");
  }
}

TEST(Advise, TextNamesTheBestAndTheTable) {
  AdviseRequest r;
  r.tile = {64, 64};
  r.write = copy(kCpAsyncRowMajor);
  r.read = copy(kLdsmA);
  const std::string t = tessera::tools::to_text(tessera::tools::advise(r));
  EXPECT_NE(t.find("best:  Sw<3,3,3> o (_64,_64):(_64,_1)  (conflict-free)"), std::string::npos) << t;
  EXPECT_NE(t.find("excess"), std::string::npos) << t;
  EXPECT_NE(t.find("candidates illegal"), std::string::npos) << t;
}

}  // namespace
