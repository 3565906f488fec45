// Device tests of include/tessera/kernels/sgemm.cuh: sgemm (the tuned kernel) and sgemm_tiled<Cfg>
// for the tuning candidates (the ladder's configurations are tested with the ladder,
// tests/examples/sgemm_ladder.cu), against cublasSgemm
// (tests/kernels/sgemm_check.hpp: the sweep and the tolerance). Without a GPU every device test is
// skipped with the reason; the file must still compile.
#include <stdexcept>

#include "support/sgemm_check.hpp"
#include "tessera/kernels/sgemm.cuh"

namespace tessera::test {

namespace {
template <class Cfg>
cudaError_t run_config(SgemmProblem const& p) {
  return kernels::sgemm_tiled<Cfg>(p);
}
cudaError_t run_sgemm(SgemmProblem const& p) { return kernels::sgemm(p); }
}  // namespace

std::vector<SgemmKernel> const& kernels() {
  using kernels::SgemmTiledConfig;
  static std::vector<SgemmKernel> const all = {
      {"sgemm", run_sgemm},
      {"candidate_v4_fast", run_config<SgemmTiledConfig<128, 128, 8, true, 2, false, 8, 8, true>>},
      {"candidate_16x8", run_config<SgemmTiledConfig<128, 128, 8, true, 2, true, 16, 8, true>>},
      {"candidate_bk8", run_config<SgemmTiledConfig<128, 128, 8, true, 2, true, 8, 16, true>>},
      {"candidate_bk16_8x16", run_config<SgemmTiledConfig<128, 128, 16, true, 2, true, 8, 16, true>>},
  };
  return all;
}

INSTANTIATE_TEST_SUITE_P(Kernels, SgemmTest, ::testing::Range(0, int(kernels().size())), sgemm_kernel_name);

// Invalid problems are refused before any launch, with a message naming the violation (no device
// needed).
TEST(SgemmHost, InvalidProblemsAreRefused) {
  SgemmProblem p;
  p.m = 4;
  p.n = 4;
  p.k = 4;
  p.lda = 3;  // < K for a row-major A
  p.ldb = 4;
  p.ldc = 4;
  float dummy = 0.0f;
  p.a = &dummy;
  p.b = &dummy;
  p.c = &dummy;
  try {
    (void)kernels::sgemm(p);
    ADD_FAILURE() << "lda < K was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "sgemm: lda = 3 is too small for the row-major 4x4 matrix A; ld must be >= 4");
  }
  p.lda = 4;
  p.m = -1;
  EXPECT_THROW((void)kernels::sgemm(p), std::invalid_argument);
  p.m = 4;
  p.c = nullptr;
  EXPECT_THROW((void)kernels::sgemm_tiled<kernels::SgemmTuned>(p), std::invalid_argument);
}

}  // namespace tessera::test
