// Standalone SGEMM benchmark for the device machine (plain nvcc, no CLI11): the ladder of
// include/tessera/kernels/sgemm.cuh plus optional experimental configurations, each verified and
// then timed against cublasSgemm in the same run by the `tessera bench` harness
// (tools/tessera/bench/harness.cu).
//
// Build: nvcc -std=c++20 -O3 -DNDEBUG -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//          -Itools/tessera/bench tests/kernels/sgemm_bench_main.cu tools/tessera/bench/harness.cu \
//          tools/tessera/bench/sgemm_cases.cu -lcublas -o sgemm_bench
// Run:   ./sgemm_bench [--extra] [--json FILE] [size ...]      (default sizes: 4096 8192)
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "sgemm_cases.hpp"
#include "tessera/kernels/sgemm.cuh"

namespace {

using namespace tessera;

// Experimental configurations: candidates for the tuned step, timed beside the ladder.
template <class Cfg>
bench::NamedSgemm experiment(std::string name) {
  return {std::move(name), [](kernels::SgemmProblem const& p, cudaStream_t s) {
            return kernels::sgemm_tiled<Cfg>(p, s);
          }};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  bool extra = false;
  std::string json;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--extra") {
      extra = true;
    } else if (a == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else {
      sizes.push_back(std::atoi(a.c_str()));
    }
  }
  if (sizes.empty()) sizes = {4096, 8192};
  auto kernels_to_run = bench::sgemm_ladder();
  if (extra) {
    kernels_to_run.push_back(experiment<kernels::SgemmCandidateV4Fast>("candidate_v4_fast"));
    kernels_to_run.push_back(experiment<kernels::SgemmCandidate16x8>("candidate_16x8"));
    kernels_to_run.push_back(experiment<kernels::SgemmCandidateBk8>("candidate_bk8"));
    kernels_to_run.push_back(experiment<kernels::SgemmCandidateBk16x8x16>("candidate_bk16_8x16"));
  }
  try {
    auto cases = bench::sgemm_cases_for(sizes, kernels_to_run);
    auto results = bench::run_cases(cases, /*warmup=*/3, /*repeats=*/5, /*iters_per_repeat=*/5, /*progress=*/true);
    bench::print_table(results, std::cout);
    if (!json.empty()) bench::write_json(results, json);
    for (auto const& r : results)
      if (!r.verified) return 1;
  } catch (std::exception const& e) {
    std::cerr << "sgemm_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
