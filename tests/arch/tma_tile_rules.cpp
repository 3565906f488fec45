// arch/tma_tile_rules.hpp: a shared-memory tile cut into TMA boxes. The project's tiles (the Hopper
// GEMM's operand stages, attention's Q tile) pass; each rule refuses its case, naming the box and
// the element; the compile-time form (all = false) agrees with the full one on them. (The same
// function runs in tma_partition's static_asserts, tests/compile_fail/tma_partition_box_*.cu, and
// in `tessera check tma --smem`, tests/tools/check.cpp.)
#include "tessera/arch/tma_tile_rules.hpp"

#include <gtest/gtest.h>

namespace {

using tessera::tma_tile_violation;
using tessera::TmaTileRule;

// A K-major tile of `rows` x 64 16-bit elements built from boxes of 8 rows (128-byte rows),
// box b at b * step elements: step 512 is tile_to_shape of the box.
struct Rows {
  long long step = 512;
  constexpr long long operator()(long long m, long long k) const { return m % 8 * 64 + m / 8 * step + k; }
};
// TMA's row order for a box of rows of `row` elements (mode 1 contiguous).
struct RowOrder {
  long long row = 64;
  constexpr long long operator()(long long m, long long k) const { return m * row + k; }
};
// Attention's Q tile: tile_to_shape((_8,_64):(_64,_1), (_128,_128)), before the swizzle: columns of
// 64 are 8192 elements apart.
long long q_tile(long long m, long long k) { return m % 8 * 64 + m / 8 * 512 + k % 64 + k / 64 * 8192; }

TEST(TmaTileRules, TheKernelsTilesAreLegal) {
  EXPECT_EQ(tma_tile_violation(Rows{}, 128, 64, RowOrder{}, 128, 64, 2, 128).rule, TmaTileRule::ok);  // one box
  EXPECT_EQ(tma_tile_violation(Rows{}, 128, 64, RowOrder{}, 64, 64, 2, 128).rule, TmaTileRule::ok);  // multicast halves
  EXPECT_EQ(tma_tile_violation(q_tile, 128, 128, RowOrder{}, 128, 64, 2, 128).rule, TmaTileRule::ok);
  static_assert(tma_tile_violation(RowOrder{}, 512, 64, RowOrder{}, 256, 64, 2, 128, false).rule == TmaTileRule::ok);
  static_assert(tessera::tma_row_pitch(32, 2, 128) == 64 && tessera::tma_row_pitch(64, 2, 128) == 64);
  EXPECT_EQ(tessera::tma_row_pitch(16, 1, 32), 32);  // a 16-byte row under the 32-byte swizzle: padded
  EXPECT_EQ(tessera::tma_row_pitch(16, 1, 0), 16);   // unswizzled: rows one after the other
  EXPECT_EQ(tessera::tma_box_align_bytes(0), 128);
  EXPECT_EQ(tessera::tma_box_align_bytes(32), 256);
  EXPECT_EQ(tessera::tma_box_align_bytes(128), 1024);
}

TEST(TmaTileRules, EachRuleNamesTheBoxAndTheElement) {
  // tma.tile: boxes of 48 rows do not divide 128
  EXPECT_EQ(tma_tile_violation(Rows{}, 128, 64, RowOrder{}, 48, 64, 2, 128).rule, TmaTileRule::tile);
  // tma.box_layout: Q stored row-major (rows of 128): box (0,0)'s element (1,0) at 128, TMA writes it at 64
  auto const row_major = [](long long m, long long k) { return m * 128 + k; };
  auto v = tma_tile_violation(row_major, 128, 128, RowOrder{}, 128, 64, 2, 128);
  EXPECT_EQ(v.rule, TmaTileRule::box_layout);
  EXPECT_EQ(v.box_p, 0);
  EXPECT_EQ(v.box_q, 0);
  EXPECT_EQ(v.i, 1);
  EXPECT_EQ(v.j, 0);
  EXPECT_EQ(v.expected, 64);
  EXPECT_EQ(v.got, 128);
  // tma.box_start: boxes of 8 rows 1040 bytes apart: the second box starts off the 1024-byte pattern
  v = tma_tile_violation(Rows{520}, 16, 64, RowOrder{}, 8, 64, 2, 128);
  EXPECT_EQ(v.rule, TmaTileRule::box_start);
  EXPECT_EQ(v.box_p, 1);
  EXPECT_EQ(v.got, 520);
  // unswizzled, 128 bytes is enough: boxes 1152 bytes apart are fine, 1040 are not
  EXPECT_EQ(tma_tile_violation(Rows{576}, 16, 64, RowOrder{}, 8, 64, 2, 0).rule, TmaTileRule::ok);
  EXPECT_EQ(tma_tile_violation(Rows{520}, 16, 64, RowOrder{}, 8, 64, 2, 0).rule, TmaTileRule::box_start);
  // the compile-time probes find the same violations
  EXPECT_EQ(tma_tile_violation(row_major, 128, 128, RowOrder{}, 128, 64, 2, 128, false).rule, TmaTileRule::box_layout);
  EXPECT_EQ(tma_tile_violation(Rows{520}, 16, 64, RowOrder{}, 8, 64, 2, 128, false).rule, TmaTileRule::box_start);
}

}  // namespace
