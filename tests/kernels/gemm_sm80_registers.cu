// Compiled by the test kernels.gemm_sm80_no_spills (check_no_spills.cmake) with ptxas -v: every
// instantiation of gemm_sm80's kernel that the launcher can reach for these types (A, B major: 4
// each) must keep its values in registers. A spill in the main loop costs about 8% (a local load
// every k-tile; docs/performance.md).
#include "tessera/kernels/gemm_sm80.cuh"

namespace {
template <class T, class TOut>
void instantiate() {
  tessera::kernels::GemmProblem<T, TOut> p;
  (void)tessera::kernels::gemm_sm80(p);
}
}  // namespace

void gemm_sm80_register_check_instances() {
  instantiate<tessera::bfloat16_t, tessera::bfloat16_t>();
  instantiate<tessera::half_t, tessera::half_t>();
  instantiate<tessera::bfloat16_t, float>();
  instantiate<tessera::half_t, float>();
}
