// Tests of the grouped GEMM's host-side checks (include/tessera/kernels/gemm_grouped_problem.hpp:
// GemmGroupedProblem, check_gemm_grouped_problem) on the host: a valid problem passes in every form;
// each violation is refused with a message naming the function, the value and the fix, before any
// device is asked. The kernels themselves: tests/kernels/gemm_sm90_grouped.cu (on a GPU).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tessera/core/numeric.hpp"
#include "tessera/kernels/gemm_grouped_problem.hpp"

namespace {

using tessera::bfloat16_t;
using tessera::Major;
using namespace tessera::kernels;

// A valid problem: 8 groups over 1000 packed rows, N = 4096, K = 1024, B (G, N, K), over aligned
// fake addresses (never dereferenced).
GemmGroupedProblem<bfloat16_t, bfloat16_t> valid() {
  GemmGroupedProblem<bfloat16_t, bfloat16_t> p;
  p.groups = 8;
  p.m = 1000;
  p.n = 4096;
  p.k = 1024;
  p.rows = reinterpret_cast<int const*>(std::uintptr_t(0x40000));
  p.a = reinterpret_cast<bfloat16_t const*>(std::uintptr_t(0x10000));
  p.lda = 1024;
  p.b = reinterpret_cast<bfloat16_t const*>(std::uintptr_t(0x20000));
  p.ldb = 1024;
  p.stride_b = 4096LL * 1024;
  p.b_major = Major::col;
  p.d = reinterpret_cast<bfloat16_t*>(std::uintptr_t(0x30000));
  p.ldd = 4096;
  return p;
}

std::string refusal(GemmGroupedProblem<bfloat16_t, bfloat16_t> const& p) {
  try {
    detail::check_gemm_grouped_problem("gemm_sm90_grouped", p);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(GemmGroupedProblem, ValidProblemsPass) {
  EXPECT_EQ(refusal(valid()), "");
  auto p = valid();
  p.form = GemmGroupedForm::ends;
  EXPECT_EQ(refusal(p), "");
  p.form = GemmGroupedForm::masked;
  p.m = 128;  // capacity: 8 x 128 packed rows
  EXPECT_EQ(refusal(p), "");
  EXPECT_EQ(detail::gemm_grouped_total_rows(p), 1024);
  p = valid();
  p.b_major = Major::row;  // (G, K, N)
  p.ldb = 4096;
  p.stride_b = 1024LL * 4096;
  EXPECT_EQ(refusal(p), "");
  p = valid();
  p.m = 0;  // no rows: every group empty, nothing launched
  EXPECT_EQ(refusal(p), "");
}

TEST(GemmGroupedProblem, CountsAndForm) {
  auto p = valid();
  p.groups = 0;
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: groups = 0 must be >= 1");
  p = valid();
  p.n = 0;
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: n and k must be >= 1, got 0 and 1024");
  p = valid();
  p.m = -1;
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: m = -1 must be >= 0 (the packed A's rows)");
  p.form = GemmGroupedForm::masked;
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: m = -1 must be >= 0 (the capacity of a group)");
  p = valid();
  p.form = static_cast<GemmGroupedForm>(7);
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: form 7 is not a GemmGroupedForm (offsets, ends, masked)");
}

TEST(GemmGroupedProblem, PointersAndAlignment) {
  auto p = valid();
  p.rows = nullptr;
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: rows is null; give the groups' offsets (groups + 1 ints) in device memory");
  p.form = GemmGroupedForm::masked;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: rows is null; give the groups' valid row counts (groups ints) in device memory");
  p = valid();
  p.b = nullptr;
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: B is null");
  p = valid();
  p.d = reinterpret_cast<bfloat16_t*>(std::uintptr_t(0x30008));
  EXPECT_EQ(refusal(p), "gemm_sm90_grouped: D must start 16-byte aligned (TMA); copy it into an aligned buffer");
}

TEST(GemmGroupedProblem, SixteenByteRows) {
  auto p = valid();
  p.k = 1020;
  p.lda = p.ldb = 1020;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: k = 1020 is not a multiple of 8: rows of A and B must be whole 16-byte units (TMA); "
            "pad K with zeros to 1024");
  p = valid();
  p.n = 4090;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: n = 4090 is not a multiple of 8: rows of D (and of a row-major B) must be whole "
            "16-byte units (TMA); pad N to 4096 and ignore the extra columns");
  p = valid();
  p.lda = 1000;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: lda = 1000 must be >= 1024 and a multiple of 8 (16-byte rows for TMA); copy the "
            "operand into a padded buffer");
  p = valid();
  p.ldd = 4100;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: ldd = 4100 must be >= 4096 and a multiple of 8 (16-byte rows for TMA); copy the "
            "operand into a padded buffer");
}

TEST(GemmGroupedProblem, GroupStrideOfB) {
  auto p = valid();
  p.stride_b = 4096LL * 1024 - 8;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: stride_b = 4194296 must be >= 4194304 (N x ldb: each B_g is N rows of K) and a "
            "multiple of 8 (16 bytes)");
  p.b_major = Major::row;
  p.ldb = 4096;
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: stride_b = 4194296 must be >= 4194304 (K x ldb: each B_g is K rows of N) and a "
            "multiple of 8 (16 bytes)");
}

TEST(GemmGroupedProblem, PackedMatricesCountInInts) {
  auto p = valid();
  p.form = GemmGroupedForm::masked;
  p.groups = 256;
  p.m = 4096;  // 2^20 rows of 4096: 2^32 elements of D
  EXPECT_EQ(refusal(p),
            "gemm_sm90_grouped: the packed D (1048576 rows of 4096) spans 2^31 or more elements; offsets are "
            "32-bit: split the groups into several calls");
}

// The fp8 form: a valid problem (e4m3, K-major B, 16-byte rows) and each fp8 rule.
GemmGroupedFp8Problem<tessera::float_e4m3_t, bfloat16_t> valid_fp8() {
  GemmGroupedFp8Problem<tessera::float_e4m3_t, bfloat16_t> p;
  static_cast<GemmGroupedProblem<tessera::float_e4m3_t, bfloat16_t>&>(p) = {
      8,
      1000,
      4096,
      1024,
      1.0f,
      GemmGroupedForm::offsets,
      reinterpret_cast<int const*>(std::uintptr_t(0x40000)),
      reinterpret_cast<tessera::float_e4m3_t const*>(std::uintptr_t(0x10000)),
      1024,
      reinterpret_cast<tessera::float_e4m3_t const*>(std::uintptr_t(0x20000)),
      1024,
      4096LL * 1024,
      Major::col,
      reinterpret_cast<bfloat16_t*>(std::uintptr_t(0x30000)),
      4096};
  return p;
}
std::string refusal_fp8(GemmGroupedFp8Problem<tessera::float_e4m3_t, bfloat16_t> const& p) {
  try {
    detail::check_gemm_grouped_fp8_problem("gemm_sm90_grouped_fp8", p);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(GemmGroupedFp8Problem, ValidProblemsPass) {
  EXPECT_EQ(refusal_fp8(valid_fp8()), "");
  auto p = valid_fp8();
  float const s = 0;
  p.scale_a = {GemmScaleKind::vector, &s};
  p.scale_b = {GemmScaleKind::tensor, &s};
  EXPECT_EQ(refusal_fp8(p), "");
}

TEST(GemmGroupedFp8Problem, KMajorSixteenByteRows) {
  auto p = valid_fp8();
  p.b_major = Major::row;
  p.ldb = 4096;
  p.stride_b = 1024LL * 4096;
  EXPECT_EQ(refusal_fp8(p),
            "gemm_sm90_grouped_fp8: B must be column-major (each B_g stored N rows of K: K-major, the only fp8 form of "
            "wgmma); transpose the weights into (groups, N, K)");
  p = valid_fp8();
  p.k = p.lda = p.ldb = 1000;  // a multiple of 8, not of 16
  p.stride_b = 4096LL * 1000;
  EXPECT_EQ(refusal_fp8(p),
            "gemm_sm90_grouped_fp8: k = 1000 is not a multiple of 16: fp8 rows must be whole 16-byte units (TMA); pad "
            "K with zeros to 1008");
}

TEST(GemmGroupedFp8Problem, Scales) {
  auto p = valid_fp8();
  p.scale_b = {GemmScaleKind::vector, nullptr};
  EXPECT_EQ(refusal_fp8(p),
            "gemm_sm90_grouped_fp8: scale_b is vector but its data is null; give 32768 fp32 values, one per group and "
            "column in device memory, or kind none");
  p = valid_fp8();
  float const s = 0;
  p.scale_a = {GemmScaleKind::block, &s};
  EXPECT_EQ(refusal_fp8(p),
            "gemm_sm90_grouped_fp8: scale_a.kind block is not none, tensor or vector (block scales are not written for "
            "the grouped GEMM)");
}

}  // namespace
