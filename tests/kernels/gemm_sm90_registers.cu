// Compiled by the test kernels.gemm_sm90_no_spills (check_no_spills.cmake) with ptxas -v: every
// Hopper GEMM kernel the launchers reach for these types (4 operand-major combinations each) must
// keep its values in registers and draw none of ptxas's wgmma slowdown warnings (serialized wgmmas,
// ignored setmaxnreg).
#include "tessera/kernels/gemm_sm90.cuh"

namespace {
template <class T, class TOut>
void instantiate() {
  tessera::kernels::GemmProblem<T, TOut> p;
  (void)tessera::kernels::gemm_sm90_tma(p);
  (void)tessera::kernels::gemm_sm90_ws(p);
  (void)tessera::kernels::gemm_sm90_persistent(p);
  (void)tessera::kernels::gemm_sm90_cluster(p);
  (void)tessera::kernels::gemm_sm90_pingpong(p);
  (void)tessera::kernels::gemm_sm90_stream_k(p);
  (void)tessera::kernels::gemm_sm90(p);  // adds the 128x128 and 64x128 persistent kernels
}
}  // namespace

void gemm_sm90_register_check_instances() {
  instantiate<tessera::bfloat16_t, tessera::bfloat16_t>();
  instantiate<tessera::half_t, float>();
}
