// sgemm_cases.hpp -- building blocks of the SGEMM benchmark cases (sgemm_cases.cu), for
// `tessera bench` (sgemm_cases(full), declared in harness.hpp) and for drivers that time other
// kernel sets (tests/kernels/sgemm_bench_main.cu).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "harness.hpp"
#include "tessera/kernels/sgemm_common.cuh"

namespace tessera::bench {

// Launches one SGEMM (asynchronously) and returns the launch's error.
using SgemmLauncher = std::function<cudaError_t(kernels::SgemmProblem const&, cudaStream_t)>;
using NamedSgemm = std::pair<std::string, SgemmLauncher>;

// One case per (size, kernel): square row-major C = A B of size^3 against cublasSgemm.
std::vector<Case> sgemm_cases_for(std::vector<int> const& sizes, std::vector<NamedSgemm> const& kernels_to_run);

// The ladder v1..v5 of include/tessera/kernels/sgemm.cuh.
std::vector<NamedSgemm> sgemm_ladder();

}  // namespace tessera::bench
