// Tests of include/tessera/tools/analyze.hpp: the shared-memory wavefront model and the
// global-memory sector model on the known answers (docs/analyze.md), laws that hold for
// every access, the heat maps, and the errors.
#include <gtest/gtest.h>

#include <string>

#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/analyze.hpp"
#include "xml_check.hpp"

namespace {

using tessera::tools::MemoryKind;
using tessera::tools::Report;

Report shared(const char* memory, const char* access, int elem_bytes, int vector = 1) {
  return tessera::tools::analyze(tessera::rt::evaluate(memory), tessera::rt::evaluate(access),
                                 {MemoryKind::shared, elem_bytes, vector, {}});
}

Report global(const char* memory, const char* access, int elem_bytes, int vector = 1) {
  return tessera::tools::analyze(tessera::rt::evaluate(memory), tessera::rt::evaluate(access),
                                 {MemoryKind::global, elem_bytes, vector, {}});
}

// (thr,val) -> (m,n) index: thread t reads row t of a 32x32 tile, value j is column j.
constexpr const char* kByColumns = "(_32,_32):(_1,_32)";
// thread t reads column t, value j is row j.
constexpr const char* kByRows = "(_32,_32):(_32,_1)";
// fp16 8x64 (128-byte rows) read by 16-byte vectors down columns: thread (r,c) = row r, 16-byte
// chunk c; value (e,k): element e of the chunk, instruction k covers chunks 4k..4k+3.
constexpr const char* kFp16Columns = "((_8,_4),(_8,_2)):((_1,_64),(_8,_256))";

// ---- the three known answers (measured on an H200: docs/analyze.md) ------------------

TEST(AnalyzeShared, Fp32RowMajorReadByColumnsIs32Way) {
  const Report r = shared("(_32,_32):(_32,_1)", kByColumns, 4);
  ASSERT_EQ(r.instructions.size(), 32u);
  for (const auto& in : r.instructions) {
    EXPECT_EQ(in.wavefronts, 32);
    EXPECT_EQ(in.ideal, 1);
  }
  EXPECT_DOUBLE_EQ(r.conflict_degree(), 32.0);
  for (auto a : r.bank_ways) EXPECT_EQ(a, 32);  // instruction j hits bank j with 32 words
}

TEST(AnalyzeShared, Fp32PaddedByOneWordIsConflictFree) {
  const Report r = shared("(_32,_32):(_33,_1)", kByColumns, 4);
  ASSERT_EQ(r.instructions.size(), 32u);
  for (const auto& in : r.instructions) EXPECT_EQ(in.wavefronts, 1);
  EXPECT_DOUBLE_EQ(r.conflict_degree(), 1.0);
}

TEST(AnalyzeShared, Fp16Swizzle128ByteRowsIsConflictFree) {
  // Sw<3,4,3> on byte offsets (16-byte chunk ^= row mod 8) is Sw<3,3,3> on fp16 element offsets.
  const Report r = shared("Sw<3,3,3> o (_8,_64):(_64,_1)", kFp16Columns, 2, 8);
  ASSERT_EQ(r.instructions.size(), 2u);
  for (const auto& in : r.instructions) {
    EXPECT_EQ(in.wavefronts, 4);  // 4 quarter-warps of 8 x 16 bytes
    EXPECT_EQ(in.ideal, 4);
  }
  EXPECT_DOUBLE_EQ(r.conflict_degree(), 1.0);
}

TEST(AnalyzeShared, Fp16Unswizzled128ByteRowsIs8Way) {
  const Report r = shared("(_8,_64):(_64,_1)", kFp16Columns, 2, 8);
  for (const auto& in : r.instructions) EXPECT_EQ(in.wavefronts, 32);
  EXPECT_DOUBLE_EQ(r.conflict_degree(), 8.0);
}

TEST(AnalyzeShared, Swizzle343InByteUnitsEqualsSwizzle333OnFp16) {
  // The same tile in bytes: 8 rows of 128 one-byte elements, 16-byte vectors.
  const Report bytes = shared("Sw<3,4,3> o (_8,_128):(_128,_1)", "((_8,_4),(_16,_2)):((_1,_128),(_8,_512))", 1, 16);
  const Report elems = shared("Sw<3,3,3> o (_8,_64):(_64,_1)", kFp16Columns, 2, 8);
  ASSERT_EQ(bytes.instructions.size(), elems.instructions.size());
  for (std::size_t i = 0; i < bytes.instructions.size(); ++i) {
    EXPECT_EQ(bytes.instructions[i].wavefronts, elems.instructions[i].wavefronts);
    ASSERT_EQ(bytes.instructions[i].lanes.size(), elems.instructions[i].lanes.size());
    for (std::size_t l = 0; l < bytes.instructions[i].lanes.size(); ++l)
      EXPECT_EQ(bytes.instructions[i].lanes[l].address, elems.instructions[i].lanes[l].address);
  }
}

TEST(AnalyzeShared, Swizzle343OnFp16ElementOffsetsIs2Way) {
  // The wrong units: bits 4..6 of the element offset are 32-byte units, and rows pair up.
  const Report r = shared("Sw<3,4,3> o (_8,_64):(_64,_1)", kFp16Columns, 2, 8);
  for (const auto& in : r.instructions) EXPECT_EQ(in.wavefronts, 8);
  EXPECT_DOUBLE_EQ(r.conflict_degree(), 2.0);
}

// ---- other widths, broadcast, several warps --------------------------------------------------

TEST(AnalyzeShared, EightByteAccessesUseHalfWarps) {
  // float2 down columns: each half-warp puts 16 distinct words in each of 2 banks.
  const Report cols = shared("(_32,_32):(_32,_1)", "(_32,(_2,_16)):(_1,(_32,_64))", 4, 2);
  ASSERT_EQ(cols.instructions.size(), 16u);
  for (const auto& in : cols.instructions) {
    EXPECT_EQ(in.wavefronts, 32);
    EXPECT_EQ(in.ideal, 2);
  }
  // float2 along rows: 2 wavefronts, the ideal for 256 bytes.
  const Report rows = shared("(_32,_32):(_32,_1)", "((_16,_2),(_2,_16)):((_64,_1),(_32,_2))", 4, 2);
  for (const auto& in : rows.instructions) EXPECT_EQ(in.wavefronts, 2);
}

TEST(AnalyzeShared, SameWordIsBroadcast) {
  const Report r = shared("(_32,_32):(_32,_1)", "(_32,_32):(_0,_1)", 4);
  for (const auto& in : r.instructions) EXPECT_EQ(in.wavefronts, 1);
  // Two threads in one bank, different words: 2 wavefronts.
  const Report two = shared("(_64):(_1)", "(_32,_2):(_0,_32)", 4);  // all lanes word v*32
  for (const auto& in : two.instructions) EXPECT_EQ(in.wavefronts, 1);
  const Report pair = shared("(_64):(_1)", "((_2,_16),_1):((_32,_0),_0)", 4);  // words 0 and 32
  EXPECT_EQ(pair.instructions.at(0).wavefronts, 2);
}

TEST(AnalyzeShared, ThreadsBeyondOneWarpAreMoreInstructions) {
  // 128 threads = 4 warps, each reads a row of a 128x32 tile... by columns: 32-way per warp.
  const Report r = shared("(_128,_32):(_32,_1)", "(_128,_32):(_1,_128)", 4);
  EXPECT_EQ(r.instructions.size(), 4u * 32u);
  EXPECT_EQ(r.instructions.back().warp, 3);
  EXPECT_DOUBLE_EQ(r.conflict_degree(), 32.0);
  // A partial warp: 8 threads by rows of a padded tile; ideal counts only active lanes.
  const Report p = shared("(_8,_32):(_33,_1)", "(_8,_32):(_1,_8)", 4);
  EXPECT_EQ(p.instructions.at(0).lanes.size(), 8u);
  EXPECT_EQ(p.instructions.at(0).wavefronts, 1);
}

TEST(AnalyzeShared, MakeLayoutTvResultIsAccepted) {
  // make_layout_tv(thr (_32,_1):(_1,_0), val (_1,_4):(_0,_1)) gives (tiler, tv); its tv is used.
  const Report r = tessera::tools::analyze(tessera::rt::evaluate("(_32,_4):(_4,_1)"),
                                           tessera::rt::evaluate("make_layout_tv((_32,_1):(_1,_0), (_1,_4):(_0,_1))"),
                                           {MemoryKind::shared, 4, 4, {}});
  ASSERT_EQ(r.instructions.size(), 1u);
  EXPECT_EQ(r.instructions[0].wavefronts, 4);  // 512 bytes: 4 quarter-warps, conflict-free
  EXPECT_EQ(r.instructions[0].ideal, 4);
}

// Law: wavefronts >= ideal, and every bank's words in a phase never exceed the phase's lanes.
TEST(AnalyzeShared, WavefrontsNeverBelowIdeal) {
  const char* memories[] = {"(_32,_32):(_32,_1)",
                            "(_32,_32):(_33,_1)",
                            "(_32,_32):(_1,_32)",
                            "Sw<3,2,3> o (_32,_32):(_32,_1)",
                            "Sw<2,2,3> o (_32,_32):(_32,_1)",
                            "(_32,_32):(_36,_1)"};
  const char* accesses[] = {kByColumns, kByRows, "(_32,_32):(_0,_1)", "((_4,_8),_32):((_8,_1),_32)"};
  for (const char* m : memories)
    for (const char* a : accesses) {
      const Report r = shared(m, a, 4);
      for (const auto& in : r.instructions) {
        EXPECT_GE(in.wavefronts, in.ideal) << m << " " << a;
        EXPECT_LE(in.wavefronts, 32) << m << " " << a;
      }
    }
}

// ---- global memory ---------------------------------------------------------------------------

// ---- tiled copies: the instruction's own access (the ldmatrix cases; measured on an H200
// by tests/tools/device/bank_conflicts.cu, docs/analyze.md) -----------------------------------

Report copy(const char* memory, const char* tiled_copy, MemoryKind kind = MemoryKind::shared,
            tessera::tools::CopySide side = tessera::tools::CopySide::automatic) {
  return tessera::tools::analyze_copy(
      tessera::rt::evaluate(memory),
      tessera::rt::evaluate(tiled_copy, tessera::atom_names()).as<tessera::rt::TiledCopy>(), kind, side);
}
constexpr const char* kLdsmX4A =
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))";

TEST(AnalyzeCopy, LdmatrixX4OfA64x64Fp16TileIs8WayUnswizzled) {
  const Report r = copy("(_64,_64):(_64,_1)", kLdsmX4A);
  EXPECT_EQ(r.elem_bytes, 2);
  EXPECT_EQ(r.access_bytes, 16);  // one 16-byte row address a lane
  EXPECT_EQ(r.threads, 128);
  ASSERT_EQ(r.instructions.size(), 32u);  // 4 warps x (2x4 tiles of 32x16)
  for (const auto& in : r.instructions) {
    EXPECT_EQ(in.lanes.size(), 32u);
    EXPECT_EQ(in.wavefronts, 32);
    EXPECT_EQ(in.ideal, 4);
  }
}

TEST(AnalyzeCopy, LdmatrixX4UnderSw333IsConflictFree) {
  const Report r = copy("Sw<3,3,3> o (_64,_64):(_64,_1)", kLdsmX4A);
  EXPECT_EQ(r.total_wavefronts(), r.total_ideal());
  EXPECT_EQ(r.total_wavefronts(), 32 * 4);
  // every element of the tile is read exactly twice: the two warps along N both load A
  for (auto hits : r.cell_hits) EXPECT_EQ(hits, 2);
}

TEST(AnalyzeCopy, LdmatrixX1GivesEightAddresses) {
  const Report r = copy("(_64,_64):(_64,_1)",
                        "make_tiled_copy_A(Copy_Atom<SM75_U32x1_LDSM_N,half_t>, "
                        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))");
  ASSERT_FALSE(r.instructions.empty());
  for (const auto& in : r.instructions) {
    ASSERT_EQ(in.lanes.size(), 8u);  // lanes 0-7 give the rows of the 8x8 matrix
    EXPECT_EQ(in.lanes.back().lane, 7);
    EXPECT_EQ(in.ideal, 1);
    EXPECT_EQ(in.wavefronts, 8);  // 8 rows 128 bytes apart: the same four banks
  }
  const Report sw = copy("Sw<3,3,3> o (_64,_64):(_64,_1)",
                         "make_tiled_copy_A(Copy_Atom<SM75_U32x1_LDSM_N,half_t>, "
                         "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))");
  EXPECT_EQ(sw.total_wavefronts(), sw.total_ideal());
}

TEST(AnalyzeCopy, SidesAndErrors) {
  // cp.async: global memory is its source; 16-byte rows of a row-major tile coalesce fully
  const Report g =
      copy("(_64,_64):(_64,_1)",
           "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))",
           MemoryKind::global);
  EXPECT_DOUBLE_EQ(g.efficiency(), 1.0);
  auto message = [](auto f) {
    try {
      f();
    } catch (const tessera::layout_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string universal = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>, (_8,_8):(_8,_1), (_1,_8))";
  EXPECT_NE(message([&] { copy("(_64,_64):(_64,_1)", universal.c_str()); }).find("--side src or --side dst"),
            std::string::npos);
  EXPECT_EQ(copy("(_64,_64):(_64,_1)", universal.c_str(), MemoryKind::shared, tessera::tools::CopySide::source)
                .total_wavefronts(),
            copy("(_64,_64):(_64,_1)", universal.c_str(), MemoryKind::shared, tessera::tools::CopySide::destination)
                .total_wavefronts());
  // ldmatrix (not .trans) of an M-major tile: a thread's 8 values are not contiguous
  const std::string e = message([&] { copy("(_64,_64):(_1,_64)", kLdsmX4A); });
  EXPECT_NE(e.find("is not 8 contiguous"), std::string::npos) << e;
  EXPECT_NE(e.find("LDSM_T"), std::string::npos) << e;
}

TEST(AnalyzeGlobal, RowMajorReadByRowsIsFullyCoalesced) {
  const Report r = global("(_32,_32):(_32,_1)", kByRows, 4);
  for (const auto& in : r.instructions) EXPECT_EQ(in.sectors, 4);
  EXPECT_DOUBLE_EQ(r.efficiency(), 1.0);
}

TEST(AnalyzeGlobal, RowMajorReadByColumns) {
  EXPECT_DOUBLE_EQ(global("(_32,_32):(_32,_1)", kByColumns, 4).efficiency(), 0.125);   // 4 of 32 bytes
  EXPECT_DOUBLE_EQ(global("(_32,_32):(_32,_1)", kByColumns, 2).efficiency(), 0.0625);  // 2 of 32
  EXPECT_DOUBLE_EQ(global("(_32,_32):(_32,_1)", kByColumns, 8).efficiency(), 0.25);
  EXPECT_EQ(global("(_32,_32):(_32,_1)", kByColumns, 4).instructions.at(0).sectors, 32);
}

TEST(AnalyzeGlobal, VectorsAndStrides) {
  // 16-byte vectors along rows of a 32x32 fp32 tile: 512 bytes per request = 16 sectors.
  const Report v = global("(_32,_32):(_32,_1)", "((_8,_4),(_4,_8)):((_128,_1),(_32,_4))", 4, 4);
  EXPECT_EQ(v.instructions.at(0).sectors, 16);
  EXPECT_DOUBLE_EQ(v.efficiency(), 1.0);
  // Every other element: half of each sector is used.
  const Report s = global("(_64):(_1)", "(_32,_1):(_2,_0)", 4);
  EXPECT_EQ(s.instructions.at(0).sectors, 8);
  EXPECT_DOUBLE_EQ(s.efficiency(), 0.5);
}

// ---- text and heat maps ----------------------------------------------------------------------

TEST(AnalyzeText, ReportNamesTotals) {
  const std::string t = tessera::tools::to_text(shared("(_32,_32):(_32,_1)", kByColumns, 4));
  EXPECT_NE(t.find("total: 1024 wavefronts for 32 instructions (ideal 32), 32.00 wavefronts/instruction, 32-way (bank "
                   "conflicts)"),
            std::string::npos)
      << t;
  const std::string g = tessera::tools::to_text(global("(_32,_32):(_32,_1)", kByColumns, 4));
  EXPECT_NE(g.find("32.00 sectors/request, coalescing efficiency 12.5%"), std::string::npos) << g;
}

TEST(AnalyzeHeatmap, AsciiGrid) {
  const Report r = shared("(_2,_4):(_4,_1)", "(_4,_2):(_2,_1)", 4);  // thread t reads column t
  const std::string h = tessera::tools::heatmap_ascii(r);
  EXPECT_NE(h.find("     0   1   2   3\n   +---+---+---+---+\n 0 | 1 | 1 | 1 | 1 |\n"), std::string::npos) << h;
  EXPECT_NE(h.find("bank  word accesses  worst ways\n   0              1           1\n"), std::string::npos) << h;
  // Cells never accessed print '.'.
  const std::string part = tessera::tools::heatmap_ascii(shared("(_2,_4):(_4,_1)", "(_2,_1):(_2,_0)", 4));
  EXPECT_NE(part.find(" 0 | 1 | 1 | . | . |"), std::string::npos) << part;
}

TEST(AnalyzeHeatmap, SvgIsStandaloneXml) {
  for (const Report& r :
       {shared("Sw<3,3,3> o (_8,_64):(_64,_1)", kFp16Columns, 2, 8), global("(_32,_32):(_32,_1)", kByColumns, 4)}) {
    const std::string svg = tessera::tools::heatmap_svg(r);
    EXPECT_EQ(tessera::test::xml_error(svg), "") << svg.substr(0, 400);
    EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_EQ(svg.find("href"), std::string::npos);
  }
}

// ---- errors ----------------------------------------------------------------------------------

std::string error_of(const char* memory, const char* access, int elem_bytes, int vector) {
  try {
    (void)shared(memory, access, elem_bytes, vector);
  } catch (const tessera::layout_error& e) {
    return e.what();
  }
  return "";
}

TEST(AnalyzeErrors, MessagesNameTheProblemAndTheFix) {
  EXPECT_NE(error_of("(_32,_32):(_32,_1)", kByRows, 4, 2).find("is not 2 contiguous, aligned elements"),
            std::string::npos);
  EXPECT_NE(error_of("(_32,_32):(_32,_1)", kByColumns, 4, 3).find("the vector must be 1, 2, 4, 8 or 16 bytes"),
            std::string::npos);
  EXPECT_NE(error_of("(_32,_32):(_32,_1)", kByColumns, 3, 1).find("element width 3 bytes is not supported"),
            std::string::npos);
  EXPECT_NE(error_of("(_16,_16):(_16,_1)", kByColumns, 4, 1).find("outside the memory layout's 256 elements"),
            std::string::npos);
  EXPECT_NE(error_of("(_32,_32):(_32,_1)", "_32:_1", 4, 1).find("need rank 2"), std::string::npos);
  EXPECT_NE(error_of("Sw<3,3,3>", kByColumns, 4, 1).find("must be a layout or a swizzled"), std::string::npos);
  EXPECT_NE(error_of("(_32,_32):(_32,_1)", "(_32,_30):(_1,_32)", 4, 4).find("not a multiple of the vector width 4"),
            std::string::npos);
}

// Offsets that fit int64 but whose byte addresses (offset * element width) do not: an error
// naming the address, never a wrapped address (which fell into a negative bank and corrupted
// memory, or counted 3 sectors for two 4-byte accesses).
TEST(AnalyzeErrors, ByteAddressOverflowIsAnError) {
  const std::string fits = "does not fit in int64";
  EXPECT_NE(error_of("(2,1):(576460752303423488,1)", "(2,1):(1,0)", 16, 1)
                .find("byte address of element offset 576460752303423488"),
            std::string::npos);
  EXPECT_NE(error_of("(_32,_32):(288230376151711744,_1)", "(_32,_32):(_1,_32)", 16, 1).find(fits), std::string::npos);
  try {
    (void)global("(2,1):(576460752303423488,1)", "(2,1):(1,0)", 16);
    ADD_FAILURE() << "the global model accepted a wrapped byte address";
  } catch (const tessera::layout_error& e) {
    EXPECT_NE(std::string(e.what()).find(fits), std::string::npos) << e.what();
  }
  // The largest offsets that do fit still work: 2^58 * 16 bytes = 2^62.
  const Report r = global("(2,1):(288230376151711744,1)", "(2,1):(1,0)", 16);
  ASSERT_EQ(r.instructions.size(), 1u);
  EXPECT_EQ(r.instructions[0].sectors, 2);
  EXPECT_EQ(r.instructions[0].useful_bytes, 32);
}

// Heat maps are capped at 65,536 cells like `tessera show`'s pictures (a 2048x2048 tile wrote
// 868 MB of SVG); the report of a large tile still works, and 256x256 is still drawn.
TEST(AnalyzeHeatmap, LargeTilesAreRefused) {
  const Report big = global("(_2048,_2048):(_2048,_1)", "(_32,_1):(_1,_0)", 4);
  EXPECT_EQ(big.rows * big.cols, 2048 * 2048);
  for (auto* render : {&tessera::tools::heatmap_ascii, &tessera::tools::heatmap_svg}) {
    try {
      (void)render(big);
      ADD_FAILURE() << "a 2048x2048 heat map was drawn";
    } catch (const tessera::layout_error& e) {
      EXPECT_NE(std::string(e.what()).find("2048x2048 cells, more than 65536"), std::string::npos) << e.what();
    }
  }
  const Report at_limit = global("(_256,_256):(_256,_1)", "(_32,_1):(_1,_0)", 4);
  EXPECT_NE(tessera::tools::heatmap_svg(at_limit).find("</svg>"), std::string::npos);
  EXPECT_THROW((void)tessera::tools::heatmap_ascii(global("(_1,_65537):(_0,_1)", "(_32,_1):(_1,_0)", 4)),
               tessera::layout_error);
}

}  // namespace
