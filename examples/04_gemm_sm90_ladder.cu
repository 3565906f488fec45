// Example 4: the Hopper GEMM ladder (include/tessera/kernels/gemm_sm90.cuh; docs/performance.md,
// "Hopper GEMM"): step 1 TMA loads into a ring of mbarrier stages and wgmma from shared memory,
// step 2 warp specialization (a producer warpgroup, two consumer warpgroups, setmaxnreg), step 3 a
// persistent block per SM whose epilogue goes through shared memory (stmatrix) and TMA stores, with
// 2x1 clusters multicasting B, the ping-pong variant, and stream-K (step 3d). First it prints the layouts the kernels
// are built from; then every step is verified against cublasGemmEx and timed against it in the
// same run.
//   example_04_gemm_sm90_ladder [--sustained N] [--json FILE] [size ...]   (default sizes: 4096 8192)
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "bench/cases/cases.hpp"
#include "tessera/core/print.hpp"
#include "tessera/kernels/gemm_sm90.cuh"

int main(int argc, char** argv) {
  using namespace tessera;
  std::vector<int> sizes;
  std::string json;
  bench::Options o;
  o.repeats = 5;
  o.iters = 5;
  o.progress = true;
  for (int i = 1; i < argc; ++i) {
    std::string const a = argv[i];
    if (a == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else if (a == "--sustained" && i + 1 < argc) {
      o.sustained_launches = std::atoi(argv[++i]);
    } else {
      sizes.push_back(std::atoi(a.c_str()));
    }
  }
  if (sizes.empty()) sizes = {4096, 8192};

  // The pieces (step 2 and 3's 128 x 256 x 64 tile, K-major operands):
  using Op = SM90_64x256x16_F32BF16BF16_SS<>;
  std::cout << "wgmma atom            SM90_64x256x16_F32BF16BF16_SS\n"
            << "  accumulators        " << to_string(MMA_Traits<Op>::CLayout{}) << "  (thread, value) -> m + 64 n\n"
            << "A stage (128 x 64)    " << to_string(kernels::detail::gemm_sm90_load_box<128, 64, true>())
            << "  (m, k) -> element, what TMA writes and wgmma reads\n"
            << "epilogue chunk        " << to_string(kernels::detail::gemm_sm90_epilogue_box<bfloat16_t>())
            << "  (row, column) -> element, written by stmatrix, stored by TMA\n\n";

  try {
    auto cases = bench::gemm_sm90_ladder_cases(sizes);
    auto results = bench::run_cases(cases, o);
    bench::print_table(results, std::cout);
    if (!json.empty()) bench::write_json(bench::make_run_info(o, "custom"), results, json);
    for (auto const& r : results)
      if (!r.verified) return 1;
  } catch (std::exception const& e) {
    std::cerr << "example_04_gemm_sm90_ladder: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
