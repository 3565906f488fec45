// The SGEMM ladder's steps (ladder.cuh), compiled once: tessera::example_sgemm.
#include "sgemm/ladder.cuh"

namespace tessera::examples {

cudaError_t sgemm_step(int v, kernels::SgemmProblem const& problem, cudaStream_t stream) {
  if (v < 1 || v > kSgemmSteps) {
    throw std::invalid_argument("sgemm_step: step " + std::to_string(v) + " does not exist; the ladder has steps 1.." +
                                std::to_string(kSgemmSteps));
  }
  return kernels::launch_sgemm(sgemm_step_name(v), problem, stream,
                               [v](kernels::SgemmProblem const& p, cudaStream_t s) {
                                 switch (v) {
                                   case 1: launch_sgemm_v1(p, s); break;
                                   case 2: kernels::launch_sgemm_tiled<SgemmV2>(p, s); break;
                                   case 3: kernels::launch_sgemm_tiled<SgemmV3>(p, s); break;
                                   case 4: kernels::launch_sgemm_tiled<SgemmV4>(p, s); break;
                                   default: kernels::launch_sgemm_tiled<SgemmV5>(p, s); break;
                                 }
                               });
}

}  // namespace tessera::examples
