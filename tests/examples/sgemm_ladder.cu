// Device tests of the example SGEMM ladder (examples/sgemm/ladder.cuh): every step against
// cublasSgemm with the sweep of tests/kernels/sgemm_check.hpp. Without a GPU every device test is
// skipped with the reason; the file must still compile.
#include <stdexcept>

#include "sgemm/ladder.cuh"
#include "support/sgemm_check.hpp"

namespace tessera::test {

namespace {
template <int V>
cudaError_t run_step(SgemmProblem const& p) {
  return examples::sgemm_step(V, p);
}
}  // namespace

std::vector<SgemmKernel> const& kernels() {
  static std::vector<SgemmKernel> const all = {
      {examples::sgemm_step_name(1), run_step<1>}, {examples::sgemm_step_name(2), run_step<2>},
      {examples::sgemm_step_name(3), run_step<3>}, {examples::sgemm_step_name(4), run_step<4>},
      {examples::sgemm_step_name(5), run_step<5>},
  };
  return all;
}

INSTANTIATE_TEST_SUITE_P(Ladder, SgemmTest, ::testing::Range(0, int(kernels().size())), sgemm_kernel_name);

// A step outside the ladder is refused before any launch (no device needed).
TEST(SgemmLadderHost, UnknownStepsAreRefused) {
  SgemmProblem p;
  p.m = p.n = p.k = 4;
  p.lda = p.ldb = p.ldc = 4;
  float dummy = 0.0f;
  p.a = p.b = &dummy;
  p.c = &dummy;
  EXPECT_THROW((void)examples::sgemm_step(0, p), std::invalid_argument);
  EXPECT_THROW((void)examples::sgemm_step(examples::kSgemmSteps + 1, p), std::invalid_argument);
  p.lda = 3;
  EXPECT_THROW((void)examples::sgemm_step(1, p), std::invalid_argument);
}

}  // namespace tessera::test
