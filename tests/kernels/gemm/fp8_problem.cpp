// Tests of the fp8 GEMM's host-side checks (include/tessera/kernels/gemm_problem.hpp:
// GemmFp8Problem, check_gemm_fp8_problem) on the host: a valid problem passes; each violation is
// refused with a message naming the function, the values and the fix, before any device is asked.
// The kernels themselves: tests/kernels/gemm_sm90_fp8.cu (on a GPU).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tessera/core/numeric.hpp"
#include "tessera/kernels/gemm_problem.hpp"

namespace {

using tessera::bfloat16_t;
using tessera::float_e4m3_t;
using tessera::Major;
using namespace tessera::kernels;

// A valid 100 x 60 x 64 problem over aligned fake addresses (never dereferenced).
GemmFp8Problem<float_e4m3_t, bfloat16_t> valid() {
  GemmFp8Problem<float_e4m3_t, bfloat16_t> p;
  p.m = 100;
  p.n = 60;
  p.k = 64;
  p.a = reinterpret_cast<float_e4m3_t const*>(std::uintptr_t(0x10000));
  p.lda = 64;
  p.a_major = Major::row;
  p.b = reinterpret_cast<float_e4m3_t const*>(std::uintptr_t(0x20000));
  p.ldb = 64;
  p.b_major = Major::col;
  p.d = reinterpret_cast<bfloat16_t*>(std::uintptr_t(0x30000));
  p.ldd = 60;
  return p;
}

// The message check_gemm_fp8_problem throws for p ("" when it passes).
template <class P>
std::string refusal(P const& p) {
  try {
    detail::check_gemm_fp8_problem("gemm_sm90_fp8", p);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(GemmFp8Problem, ValidProblemsPass) {
  EXPECT_EQ(refusal(valid()), "");
  auto p = valid();
  p.cd_major = Major::col;  // a column-major D is computed transposed: still K-major
  p.ldd = 100;
  float const s = 0;
  p.scale_a = {GemmScaleKind::tensor, &s};
  p.scale_b = {GemmScaleKind::vector, &s};
  EXPECT_EQ(refusal(p), "");
}

TEST(GemmFp8Problem, OperandsMustBeKMajor) {
  auto p = valid();
  p.a_major = Major::col;
  p.lda = 100;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: A must be row-major (K-major: the only fp8 form of wgmma); transpose it into a row-major "
            "copy");
  p = valid();
  p.b_major = Major::row;
  p.ldb = 64;
  EXPECT_NE(refusal(p).find("gemm_sm90_fp8: B must be column-major (K-major"), std::string::npos) << refusal(p);
}

TEST(GemmFp8Problem, RowsMustBeWhole16ByteUnits) {
  auto p = valid();
  p.k = 40;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: K = 40 is not a multiple of 16: fp8 rows must be whole 16-byte units (TMA); pad K with "
            "zeros to 48");
  p = valid();
  p.lda = 72;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: lda = 72 and ldb = 64 must be multiples of 16 (16-byte rows for TMA); copy the operand "
            "into a padded buffer");
  p = valid();
  p.b = reinterpret_cast<float_e4m3_t const*>(std::uintptr_t(0x20008));
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: A and B must start 16-byte aligned (TMA); copy the operand into an aligned buffer");
}

TEST(GemmFp8Problem, ScalesNeedTheirData) {
  auto p = valid();
  p.scale_a = {GemmScaleKind::vector, nullptr};
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: scale_a is vector but its data is null; give 100 fp32 values, one per row of A in device "
            "memory, or kind none");
  p = valid();
  p.scale_b = {GemmScaleKind::tensor, nullptr};
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: scale_b is tensor but its data is null; give one fp32 value in device memory, or kind "
            "none");
  p = valid();
  p.scale_b = {static_cast<GemmScaleKind>(7), nullptr};
  EXPECT_EQ(refusal(p), "gemm_sm90_fp8: scale_b.kind 7 is not a GemmScaleKind (none, tensor, vector, block)");
}

TEST(GemmFp8Problem, BlockScalesAreForBothOperandsAndARowMajorD) {
  float const s = 0;
  auto p = valid();
  p.scale_a = {GemmScaleKind::block, &s};
  p.scale_b = {GemmScaleKind::block, &s};
  EXPECT_EQ(refusal(p), "");
  p.scale_b = {GemmScaleKind::vector, &s};
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: block scales are for A and B together (1 x 128 blocks of A, 128 x 128 of B); got scale_a "
            "block and scale_b vector");
  p.scale_b = {GemmScaleKind::block, nullptr};
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: scale_b is block but its data is null; give 1 fp32 values, one per 128 x 128 block of B "
            "in device memory, or kind none");
  p = valid();
  p.k = 256;
  p.lda = p.ldb = 256;
  p.scale_a = {GemmScaleKind::block, nullptr};
  EXPECT_NE(refusal(p).find("give 200 fp32 values, one per 1 x 128 block of A"), std::string::npos) << refusal(p);
  p.scale_a = p.scale_b = {GemmScaleKind::block, &s};
  p.cd_major = Major::col;
  p.ldd = 100;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_fp8: block scales need a row-major D (a column-major D is computed transposed, where A's 1 x "
            "128 blocks would scale the second operand); give a row-major D");
}

// GemmProblem's own checks come first (the same messages as the 16-bit GEMMs').
TEST(GemmFp8Problem, GemmProblemChecksComeFirst) {
  auto p = valid();
  p.k = 0;
  EXPECT_EQ(refusal(p), "gemm_sm90_fp8: m, n and k must be >= 1, got 100, 60, 0");
  p = valid();
  p.lda = 32;
  EXPECT_EQ(refusal(p), "gemm_sm90_fp8: lda = 32 is too small for the row-major 100x64 matrix A; ld must be >= 64");
}

}  // namespace
