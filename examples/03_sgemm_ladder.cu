// Example 3: the SGEMM ladder (examples/sgemm/ladder.cuh, docs/background.md "SGEMM"), five steps
// from a block-tiled kernel written the way the layout algebra suggests to the tuned kernel behind
// kernels::sgemm. Every step is verified against cublasSgemm (no TF32) and then timed against it in
// the same run.
//   example_03_sgemm_ladder [--extra] [--sustained N] [--json FILE] [size ...]   (default sizes: 4096 8192)
// --extra adds the tuning candidates measured beside the ladder (docs/performance/log.md, "SGEMM").
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "bench/cases/cases.hpp"
#include "sgemm/cases.hpp"
#include "sgemm/ladder.cuh"

namespace {

using namespace tessera;

template <class Cfg>
bench::NamedSgemm candidate(std::string name) {
  return {std::move(name),
          [](kernels::SgemmProblem const& p, cudaStream_t s) { return kernels::sgemm_tiled<Cfg>(p, s); }};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  bool extra = false;
  std::string json;
  bench::Options o;
  o.repeats = 5;
  o.iters = 5;
  o.progress = true;
  for (int i = 1; i < argc; ++i) {
    std::string const a = argv[i];
    if (a == "--extra") {
      extra = true;
    } else if (a == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else if (a == "--sustained" && i + 1 < argc) {
      o.sustained_launches = std::atoi(argv[++i]);
    } else {
      sizes.push_back(std::atoi(a.c_str()));
    }
  }
  if (sizes.empty()) sizes = {4096, 8192};
  auto kernels_to_run = examples::sgemm_ladder();
  if (extra) {
    kernels_to_run.push_back(candidate<examples::SgemmCandidateV4Fast>("candidate_v4_fast"));
    kernels_to_run.push_back(candidate<examples::SgemmCandidate16x8>("candidate_16x8"));
    kernels_to_run.push_back(candidate<examples::SgemmCandidateBk8>("candidate_bk8"));
    kernels_to_run.push_back(candidate<examples::SgemmCandidateBk16x8x16>("candidate_bk16_8x16"));
  }
  try {
    auto cases = bench::sgemm_cases_for(sizes, kernels_to_run);
    auto results = bench::run_cases(cases, o);
    bench::print_table(results, std::cout);
    if (!json.empty()) bench::write_json(bench::make_run_info(o, "custom"), results, json);
    for (auto const& r : results)
      if (!r.verified) return 1;
  } catch (std::exception const& e) {
    std::cerr << "example_03_sgemm_ladder: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
