// tessera-bench: the GPU benchmark (CUDA builds only). Runs the kernels (elementwise add, tile copy,
// the SGEMM ladder and the CuTe tutorial's SGEMM, the tensor-core GEMMs) with verification,
// warm-up and CUDA-event timing against a reference measured in the same run (bench/harness.hpp).
//   tessera-bench [--kernels REGEX] [--sizes small|full|sweep|fp8|grouped | --shapes MxNxK,... | --suite CLASSES]
//                 [--repeats N] [--iters N] [--warmup N] [--rest MS] [--sustained N] [--json FILE] [--svg FILE]
//   tessera-bench --quick      the short verified run that `tessera demo` starts where a GPU exists
// Exit status: 0 every result verified, 1 a result failed verification or the run failed, 2 a
// wrong command line or no CUDA device. Method and figures: docs/performance.md.
#include <CLI/CLI.hpp>

#include <iostream>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/cases/cases.hpp"
#include "bench/harness.hpp"
#include "examples/sgemm/cases.hpp"
#include "tessera/version.hpp"
#include "tessera_instances.inc"  // TESSERA_INSTANCES_EXTRA (instances/table.txt)

namespace {

// Whether this build compiled the kernel instances of the set `extra` (TESSERA_EXTRA_KERNELS).
constexpr bool kExtraKernels = TESSERA_INSTANCES_EXTRA != 0;

struct BenchOptions {
  std::string kernels = ".*";
  std::string sizes = "small";
  std::string shapes;  // "MxNxK,...": the Hopper GEMMs on these shapes instead of --sizes
  std::string suite;   // "all" or shape classes: gemm_sm90 on the suite's shapes (bench/gemm_suite.hpp)
  std::string json, svg;
  tessera::bench::Options run;
};

int run_bench(BenchOptions const& o, std::ostream& os) {
  using namespace tessera::bench;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::cerr << "tessera-bench: no CUDA device visible; nothing to run\n";
    return 2;
  }
  bool const full = o.sizes == "full";
  bool const sweep = o.sizes == "sweep";
  bool const fp8 = o.sizes == "fp8";
  bool const grouped = o.sizes == "grouped";
  std::vector<GemmShape> const shapes = o.shapes.empty() ? std::vector<GemmShape>{} : parse_gemm_shapes(o.shapes);
  std::vector<SuiteShape> const suite = o.suite.empty() ? std::vector<SuiteShape>{} : gemm_suite(o.suite);
  std::regex const re(o.kernels);
  RunInfo const info = make_run_info(o.run, !shapes.empty()  ? "shapes " + o.shapes
                                            : !suite.empty() ? "suite " + o.suite
                                                             : o.sizes);
  std::vector<Result> results;
  std::size_t matched = 0;
  // One group at a time, so that one group's buffers are freed before the next one's exist.
  for (int g = sweep || fp8 || grouped || !shapes.empty() || !suite.empty() ? 2 : 0; g < 3; ++g) {
    std::vector<Case> all = g == 0            ? memory_cases(full)
                            : g == 1          ? tessera::examples::sgemm_cases(full)
                            : !shapes.empty() ? gemm_shape_cases(shapes)
                            : !suite.empty()  ? gemm_suite_cases(suite)
                            : sweep           ? gemm_sweep_cases()
                            : fp8             ? gemm_fp8_cases({4096, 8192})
                            : grouped         ? gemm_grouped_cases()
                                              : gemm_cases(full);
    std::vector<Case> picked;
    for (auto& c : all)
      if (std::regex_search(c.kernel, re)) picked.push_back(std::move(c));
    all.clear();
    matched += picked.size();
    auto rs = run_cases(picked, o.run);
    results.insert(results.end(), rs.begin(), rs.end());
  }
  if (matched == 0) {
    std::cerr << "tessera-bench: no kernel of this run matches --kernels '" << o.kernels << "'"
              << (kExtraKernels ? ""
                                : " (the Hopper ladder's steps and gemm_sm90_cluster_* are built with "
                                  "-DTESSERA_EXTRA_KERNELS=ON)")
              << "\n";
    return 2;
  }
  os << "device: " << info.device_name << " (" << info.sm_count << " SMs), "
     << (shapes.empty() && suite.empty() ? "sizes: " : "") << info.sizes << ", median of " << o.run.repeats << " x "
     << o.run.iters << " launches";
  if (o.run.rest_ms > 0) os << " (each after " << o.run.rest_ms << " ms idle)";
  if (o.run.sustained_launches > 0)
    os << ", sustained: " << o.run.sustained_launches << " + " << o.run.sustained_launches << " interleaved";
  os << "\nat start: " << describe(info.at_start) << "\n";
  print_table(results, os);
  if (!o.json.empty()) write_json(info, results, o.json);
  if (!o.svg.empty()) write_svg(results, o.svg);
  for (auto const& r : results)
    if (!r.verified) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto opts = std::make_shared<BenchOptions>();
  opts->run.progress = true;
  CLI::App app{"tessera-bench: verify the GPU kernels, then time them against cudaMemcpy / cuBLAS in the same run",
               "tessera-bench"};
  CLI::App* cmd = &app;
  app.set_version_flag("--version", "tessera-bench " TESSERA_VERSION_STRING);
  bool quick = false;
  cmd->add_option("--kernels", opts->kernels, "regular expression selecting kernels by name (e.g. 'add_tv|sgemm')");
  CLI::Option* sizes =
      cmd->add_option(
             "--sizes", opts->sizes,
             "small (quick), full (32768x32768 add/copy, 4096^3 and 8192^3 GEMMs) or sweep (the fastest Hopper "
             "GEMM on 1024^3..16384^3 and M = 128..1024 with N = K = 8192) or fp8 (gemm_sm90_fp8, e4m3 -> bf16, "
             "at 4096^3 and 8192^3 against cuBLASLt's fp8) or grouped (gemm_sm90_grouped on mixture-of-experts shapes "
             "against "
             "a loop of cublasGemmEx and cublasGemmGroupedBatchedEx)")
          ->check(CLI::IsMember({"small", "full", "sweep", "fp8", "grouped"}));
  cmd->add_option("--shapes", opts->shapes,
                  "MxNxK[,MxNxK...]: instead of --sizes, the Hopper GEMMs (persistent, persistent_wide, pingpong, "
                  "stream_k, stream_k_medium, data_parallel (gemm_sm90 without stream-K), gemm_sm90, jit; bf16 and "
                  "fp16) on these shapes")
      ->check([](std::string const& text) {
        try {
          tessera::bench::parse_gemm_shapes(text);
        } catch (std::invalid_argument const& e) {
          return std::string(e.what());
        }
        return std::string();
      })
      ->excludes(sizes);
  CLI::Option* shapes_option = app.get_option("--shapes");
  cmd->add_option("--suite", opts->suite,
                  "all, or shape classes separated by commas (square, small_k, narrow, odd, llm): instead of --sizes, "
                  "gemm_sm90 (bf16 and fp16) on the GEMM shape suite, against the best cuBLASLt algorithm and "
                  "cublasGemmEx")
      ->check([](std::string const& text) {
        try {
          tessera::bench::gemm_suite(text);
        } catch (std::invalid_argument const& e) {
          return std::string(e.what());
        }
        return std::string();
      })
      ->excludes(sizes)
      ->excludes(shapes_option);
  cmd->add_option("--repeats", opts->run.repeats, "timed repeats (the median is reported)")->check(CLI::Range(1, 1000));
  cmd->add_option("--iters", opts->run.iters, "launches per timed repeat")->check(CLI::Range(1, 10000));
  cmd->add_option("--warmup", opts->run.warmup, "untimed warm-up launches")->check(CLI::Range(0, 1000));
  cmd->add_option("--rest", opts->run.rest_ms,
                  "idle milliseconds before each burst sample, so each starts from rest (e.g. 500); 0: back to back")
      ->check(CLI::Range(0, 60000));
  cmd->add_option("--sustained", opts->run.sustained_launches,
                  "also time N launches of each kernel and N of its reference, interleaved (power-capped clocks; "
                  "200 or more), recording SM clock and power")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--json", opts->json, "write the results, the device and its clocks as JSON to FILE");
  cmd->add_option("--svg", opts->svg, "draw % of reference as an SVG bar chart to FILE");
  cmd->add_flag("--quick", quick,
                "the short run of `tessera demo`: the fp16 kernels and the SGEMMs at small sizes, 3 x 3 launches");
  try {
    app.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    int const code = app.exit(e);
    return code == 0 ? 0 : 2;  // --help and --version succeed; any other parse error is a usage error
  }
  if (quick) {
    opts->kernels = "fp16|sgemm";
    opts->run.repeats = 3;
    opts->run.warmup = 1;
    opts->run.iters = 3;
  }
  try {
    return run_bench(*opts, std::cout);
  } catch (std::exception const& e) {
    std::cerr << "tessera-bench: " << e.what() << '\n';
    return 1;
  }
}
