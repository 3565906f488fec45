// arch/tma_rules.hpp: each rule of a 2-D tensor map refuses what it must, with its message, and
// accepts the boxes the project's kernels use; tma_swizzle_bytes names TMA's three swizzles on
// element offsets of every width. (make_tma_desc_2d and the swizzle advisor call these functions;
// the driver's own refusal is checked on a GPU, tests/arch_cuda.)
#include "tessera/arch/tma_rules.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using tessera::tma_2d_violation;
using tessera::TmaMatrix2d;

// The Hopper GEMM's operand box: a 4096 x 4096 bf16 matrix read in 64 x 128 boxes (128-byte rows
// of 64 elements), under the 128-byte swizzle.
TmaMatrix2d gemm_box() { return {true, 2, 4096, 4096, 4096, 64, 128, 128}; }

std::string message(const TmaMatrix2d& m) { return tma_2d_violation(m).value_or("accepted"); }

TEST(TmaRules, TheGemmsBoxesAreAccepted) {
  EXPECT_EQ(message(gemm_box()), "accepted");
  TmaMatrix2d epilogue{true, 2, 4096, 4096, 4096, 32, 64, 64};  // 64-byte rows under the 64-byte swizzle
  EXPECT_EQ(message(epilogue), "accepted");
  TmaMatrix2d one_row{true, 4, 10, 1, 12, 8, 1, 0};  // one row; a pitch of 48 bytes
  EXPECT_EQ(message(one_row), "accepted");
  // the attention backward's dQ reduce-add (DqTma): fp32 accumulator rows of head_dim 128 or 64,
  // boxes of 32 floats (128 bytes) x 64 rows under the 128-byte swizzle
  for (std::uint64_t d : {128u, 64u}) {
    TmaMatrix2d dq{true, 4, d, 16 * 4096, d, 32, 64, 128};
    EXPECT_EQ(message(dq), "accepted") << "head_dim " << d;
  }
}

TEST(TmaRules, EachRuleNamesItsValues) {
  auto broken = [](auto edit) {
    TmaMatrix2d m = gemm_box();
    edit(m);
    return message(m);
  };
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.aligned16 = false; }), "the matrix must start at a 16-byte aligned address");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.elem_bytes = 8; }),
            "elements must be 1, 2 or 4 bytes (the library's tensor maps), got 8");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.outer = 0; }), "the matrix is empty");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.outer = (std::uint64_t(1) << 32) + 1; }),
            "TMA's extents are at most 2^32, got 4294967297 x 4096");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.ld = 100; }), "ld = 100 is smaller than the row length 4096");
  // A pitch of 2^40 bytes, and one whose byte count would wrap around 64 bits: both refused.
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.ld = std::uint64_t(1) << 39; }),
            "the row pitch ld * elem_bytes must be below 2^40 bytes (TMA strides), got ld = 549755813888");
  EXPECT_NE(broken([](TmaMatrix2d& m) {
              m.elem_bytes = 4;
              m.ld = std::uint64_t(1) << 62;
            }).find("below 2^40 bytes"),
            std::string::npos);
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.inner = m.ld = 4100; }),
            "the row pitch ld * elem_bytes = 8200 bytes is not a multiple of 16 (TMA strides); pad the rows");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.box_outer = 257; }), "box sizes must be in [1, 256], got 64 x 257");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.box_inner = 12; }),
            "the box's inner extent 24 bytes is not a multiple of 16");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.swizzle_bytes = 96; }), "TMA swizzles rows of 32, 64 or 128 bytes, got 96");
  EXPECT_EQ(broken([](TmaMatrix2d& m) { m.box_inner = 128; }),
            "a 128-byte swizzle needs a box inner extent of at most 128 bytes, got 256; use a narrower box (or no "
            "swizzle)");
  // The same box unswizzled is accepted: rows of 256 bytes are fine without a swizzle.
  EXPECT_EQ(broken([](TmaMatrix2d& m) {
              m.box_inner = 128;
              m.swizzle_bytes = 0;
            }),
            "accepted");
}

TEST(TmaRules, SwizzleModesOnElementOffsets) {
  using tessera::tma_swizzle_bytes;
  // Sw<B, 4 - log2(elem bytes), 3>: 16-byte units within rows of 32, 64, 128 bytes.
  EXPECT_EQ(tma_swizzle_bytes(3, 3, 3, 2), 128);  // the GEMM's, on fp16 offsets
  EXPECT_EQ(tma_swizzle_bytes(2, 3, 3, 2), 64);
  EXPECT_EQ(tma_swizzle_bytes(1, 2, 3, 4), 32);
  EXPECT_EQ(tma_swizzle_bytes(3, 4, 3, 1), 128);
  EXPECT_EQ(tma_swizzle_bytes(0, 0, 0, 2), 0);
  EXPECT_EQ(tma_swizzle_bytes(3, 4, 3, 2), -1);  // the byte form applied to fp16 offsets: 32-byte units
  EXPECT_EQ(tma_swizzle_bytes(3, 3, 4, 2), -1);  // rows of 256 bytes
  EXPECT_EQ(tma_swizzle_bytes(4, 3, 4, 2), -1);  // four bits: no such mode
}

}  // namespace
