// The SGEMM examples as benchmark cases, for tessera-bench and example 3: the ladder's steps
// (ladder.cuh) and the CuTe tutorial's kernel ported to Tessera (tutorial.cuh), each verified
// against cublasSgemm and timed against it in the same run (bench/cases/cases.hpp, sgemm_cases_for).
#pragma once

#include <vector>

#include "bench/cases/cases.hpp"

namespace tessera::examples {

// The ladder v1..v5 as named launchers (v5 is kernels::sgemm).
std::vector<bench::NamedSgemm> sgemm_ladder();

// sgemm_tutorial_nt and sgemm_tutorial_tn, C column-major, on squares of the given sizes
// (multiples of 128).
std::vector<bench::Case> sgemm_tutorial_cases(std::vector<int> const& sizes);

// The ladder at 4096^3 and 8192^3 when full, else 1024^3; the tutorial's kernels at 1024^3 and
// 4096^3 when full, else 1024^3.
std::vector<bench::Case> sgemm_cases(bool full);

}  // namespace tessera::examples
