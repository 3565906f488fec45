// Device tests of include/tessera/kernels/gemm_sm80.cuh against cublasGemmEx (the sweep and the
// tolerance: gemm_check.hpp), and the host-side refusal of invalid problems.
#include "instances/gemm_sm80.hpp"  // the kernels, compiled once in tessera::instances
#include "support/gemm_check.hpp"

namespace {

using namespace tessera::test::gemm;

struct Sm80 {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm80(p);
  }
};
using GemmSm80 = GemmDeviceTest<Sm80>;

// Small sizes: every variant (compute-sanitizer runs these: --gtest_filter='*Small*').
TEST_F(GemmSm80, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm80, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm80, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm80, SmallFp16ToFp32) { this->template sweep<half_t, float>(kSmall, true); }
// Large sizes, tight layouts.
TEST_F(GemmSm80, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }
TEST_F(GemmSm80, LargeFp16ToFp32) { this->template sweep<half_t, float>(kLarge, false); }

// Invalid problems are refused before any launch, with a message naming the violation.
TEST(GemmSm80Host, InvalidProblemsAreRefused) {
  GemmProblem<half_t, float> p;
  p.m = 4;
  p.n = 4;
  p.k = 8;
  half_t dummy[1];
  float out[1];
  p.a = dummy;
  p.lda = 3;  // < K for a row-major A
  p.b = dummy;
  p.ldb = 4;
  p.d = out;
  p.ldd = 4;
  try {
    (void)tessera::kernels::gemm_sm80(p);
    ADD_FAILURE() << "lda < K was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm80: lda = 3 is too small for the row-major 4x8 matrix A; ld must be >= 8");
  }
  p.lda = 8;
  p.k = 0;
  EXPECT_THROW((void)tessera::kernels::gemm_sm80(p), std::invalid_argument);
  p.k = 8;
  p.beta = 1.0f;  // C needed but null
  EXPECT_THROW((void)tessera::kernels::gemm_sm80(p), std::invalid_argument);
}

}  // namespace
