// bench/gemm_sm90_instances.hpp -- the Hopper GEMM kernels compiled once for the project's own
// programs (tessera bench, the examples, the GPU tests), not in each translation unit that calls a
// launcher of include/tessera/kernels/gemm_sm90.cuh.
//
// Every launcher (gemm_sm90_tma/ws/persistent/cluster/pingpong/stream_k, gemm_sm90) ends in
// detail::gemm_sm90_run<Cfg, T, TOut>, which holds the four kernels of one tile configuration (one
// per pair of operand majors). This header declares those functions `extern template` for the
// ten named configurations and the four type pairs (TESSERA_GEMM_SM90_INSTANCES); the library
// tessera::gemm_sm90_instances (bench/CMakeLists.txt) instantiates them in five translation units
// (launcher families, bench/gemm_sm90_instance.cu.in) that a parallel build compiles side by side;
// each kernel is compiled once instead of once per program.
//
// The instances are compiled with ptxas's checks as errors (TESSERA_CUDA_PTXAS_CHECKS: a register
// spill, or a warning such as C7510 "wgmma serialized" or C7509 "setmaxnreg ignored", fails the
// build), so every kernel a launcher reaches is checked where it is built. One exemption, from the
// spill check only: the ping-pong kernel with fp16 output (bench/CMakeLists.txt says why).
//
// A program that includes this header and calls a launcher with a configuration or type pair not
// listed here compiles that instance itself, as any user of the header-only library does.
#pragma once

#include "tessera/kernels/gemm_sm90.cuh"

// TESSERA_GEMM_SM90_INSTANCES(X): X(Cfg, T, TOut) for every instance the library compiles: the
// configurations listed here are the ones bench/CMakeLists.txt builds (it reads this list and stops
// at configure time when a configuration is missing from its groups or named twice).
#define TESSERA_GEMM_SM90_INSTANCES_OF(X, Cfg) \
  X(Cfg, half_t, half_t)                       \
  X(Cfg, half_t, float)                        \
  X(Cfg, bfloat16_t, bfloat16_t)               \
  X(Cfg, bfloat16_t, float)
#define TESSERA_GEMM_SM90_INSTANCES(X)                             \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90Default)               \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90WsDefault)             \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90PersistentDefault)     \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90PersistentMedium)      \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90PersistentSmall)       \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90PersistentWide)        \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90ClusterDefault)        \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90PingpongDefault)       \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90StreamKDefault)        \
  TESSERA_GEMM_SM90_INSTANCES_OF(X, GemmSm90StreamKMedium)

namespace tessera::kernels::detail {

#define TESSERA_GEMM_SM90_EXTERN(Cfg, T, TOut)                                                        \
  extern template cudaError_t gemm_sm90_run<Cfg, T, TOut>(char const*, GemmProblem<T, TOut> const&, \
                                                          cudaStream_t, int);
TESSERA_GEMM_SM90_INSTANCES(TESSERA_GEMM_SM90_EXTERN)
#undef TESSERA_GEMM_SM90_EXTERN

}  // namespace tessera::kernels::detail
