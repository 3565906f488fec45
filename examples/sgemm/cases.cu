// The SGEMM examples as benchmark cases (cases.hpp).
#include "sgemm/cases.hpp"

#include <utility>

#include "sgemm/ladder.cuh"
#include "sgemm/tutorial.cuh"

namespace tessera::examples {

std::vector<bench::NamedSgemm> sgemm_ladder() {
  std::vector<bench::NamedSgemm> out;
  for (int v = 1; v <= kSgemmSteps; ++v) {
    out.push_back(
        {sgemm_step_name(v), [v](kernels::SgemmProblem const& p, cudaStream_t s) { return sgemm_step(v, p, s); }});
  }
  return out;
}

std::vector<bench::Case> sgemm_tutorial_cases(std::vector<int> const& sizes) {
  auto launcher = [](TutorialVariant v) -> bench::SgemmLauncher {
    return [v](kernels::SgemmProblem const& p, cudaStream_t s) { return launch_sgemm_tutorial(p, v, s); };
  };
  // The tutorial's C is column-major; NT: A column-major, B row-major; TN: A row-major, B column-major.
  auto cases = bench::sgemm_cases_for(sizes, {{"sgemm_tutorial_nt", launcher(TutorialVariant::nt)}},
                                      bench::SgemmMajors{Major::col, Major::row, Major::col});
  auto tn = bench::sgemm_cases_for(sizes, {{"sgemm_tutorial_tn", launcher(TutorialVariant::tn)}},
                                   bench::SgemmMajors{Major::row, Major::col, Major::col});
  for (auto& c : tn) cases.push_back(std::move(c));
  return cases;
}

std::vector<bench::Case> sgemm_cases(bool full) {
  std::vector<int> const sizes = full ? std::vector<int>{4096, 8192} : std::vector<int>{1024};
  auto cases = bench::sgemm_cases_for(sizes, sgemm_ladder());
  for (auto& c : sgemm_tutorial_cases(full ? std::vector<int>{1024, 4096} : sizes)) cases.push_back(std::move(c));
  return cases;
}

}  // namespace tessera::examples
