// The benchmark harness: verify, warm up, time with CUDA events against a reference measured in
// the same run, and report (text table, JSON, SVG chart). Used by `tessera-bench`, the example
// programs and the GPU tests.
//
// A Case is one kernel at one shape, with its own in-run reference:
//   memory cases: GB/s = bytes / time; reference = cudaMemcpyAsync D2D moving the same bytes;
//   GEMM cases:   TFLOP/s = flops / time (a case with flops > 0); reference = cuBLAS.
// A case may name further references timed beside the first (`also_against`; the GEMMs: the best
// cuBLASLt algorithm first, cublasGemmEx beside it) and is then reported as % of each.
// Rules (docs/performance.md): a case that fails `verify` is never timed. Burst figure: the median
// of `repeats` samples of `iters` back-to-back launches after `warmup` launches, the kernel's and
// the references' samples alternating (K R R K K R ..., with two references K R S S R K ...), each
// after a pause of `rest_ms` when set (a burst from rest, as the GPU runs a short job). Sustained
// figure (Options::sustained_launches = N > 0): N launches of the kernel and N of each reference,
// interleaved in blocks of 10, so all see the same clocks when a long run is power-capped; the GPU's
// SM clock and power are sampled throughout (gpu_state.hpp).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "bench/gpu_state.hpp"

namespace tessera::bench {

// What a reference that chooses among candidates by timing them chose (the best cuBLASLt
// algorithm): the winner's index among the candidates (0: the library's own first choice), how many
// were timed, and what the winner is.
struct ReferenceChoice {
  int index = -1;  // -1: no choice made (a fixed reference)
  int candidates = 0;
  std::string detail;  // e.g. "algo 66, tile 25, ...; 0.4120 ms against 0.4550 ms for candidate 0"
};

// A further reference a case is timed against, beside its first.
struct NamedReference {
  std::string name;                       // e.g. "cublasGemmEx"
  std::function<void(cudaStream_t)> run;  // launches it once (async)
};

struct Case {
  std::string kernel;                     // e.g. "add_tv_fp16"
  std::string shape;                      // e.g. "32768x32768"
  std::string group;                      // the reference's kind, e.g. "memory" (cudaMemcpyAsync) or "sgemm" (cuBLAS)
  double bytes = 0;                       // bytes the kernel must move (read + write), for GB/s
  double flops = 0;                       // 2*M*N*K for GEMMs; > 0 makes the unit TFLOP/s
  std::function<void(cudaStream_t)> run;  // launches the kernel once (async)
  std::function<void(cudaStream_t)> reference;  // launches the in-run reference once
  std::function<bool(std::string&)> verify;  // runs the kernel once, checks every element; false + message on mismatch
  std::string reference_name;                // what `reference` is, e.g. "cublasLt best" (empty: the group says)
  std::function<ReferenceChoice()> reference_choice;  // asked after verify, which makes the choice; may be empty
  std::vector<NamedReference> also_against;           // timed beside `reference`, each reported as % too
  std::string note;  // reported with the result, e.g. "narrow: 16 columns; gemm_sm90 runs persistent 64x128"
};

// A case's rate against one of its further references (Case::also_against).
struct ReferenceRate {
  std::string name;
  double ref_value = 0, percent_of_ref = 0;                      // burst
  double sustained_ref_value = 0, sustained_percent_of_ref = 0;  // sustained (0: not run)
};

struct Result {
  std::string kernel, shape, group, unit;
  bool verified = false;
  std::string message;  // why verification failed
  // Burst: median / best per-launch time, the rate at the median, the reference's rate, the ratio.
  double median_ms = 0, best_ms = 0, value = 0, ref_value = 0, percent_of_ref = 0;
  // Sustained (0 launches: not run): mean per-launch times over the interleaved run.
  int sustained_launches = 0;
  double sustained_ms = 0, sustained_value = 0, sustained_ref_value = 0, sustained_percent_of_ref = 0;
  GpuState before;                          // a reading just before the case was timed
  GpuSample during;                         // readings during the sustained run
  std::string reference;                    // Case::reference_name
  ReferenceChoice reference_choice;         // what the reference chose, when it chooses
  std::vector<ReferenceRate> also_against;  // the further references, in Case::also_against's order
  std::string note;                         // Case::note
};

struct Options {
  int warmup = 3;
  int repeats = 10;            // burst samples; the median is reported
  int iters = 10;              // back-to-back launches per sample
  int rest_ms = 0;             // idle pause before each burst sample (the GPU back at its idle clocks and power)
  int sustained_launches = 0;  // 0: no sustained run; otherwise >= 1 (200 or more to see power capping)
  bool progress = false;       // one line per phase on stderr
  int device = 0;              // the CUDA device whose state is recorded
};

// Runs every case: verify -> (if correct) warm up -> burst timing of kernel and reference ->
// sustained run when asked.
std::vector<Result> run_cases(std::vector<Case>& cases, Options const& options);

// What one run was: the device, its state at the start, the options. Reported with the results.
struct RunInfo {
  std::string device_name;
  int sm_count = 0;
  std::string sizes;  // e.g. "full"
  Options options;
  GpuState at_start;
  // The process's TESSERA_* environment variables (name, value), e.g. TESSERA_GEMM_SM90_PDL=0:
  // switches that change what the kernels do are part of what was measured.
  std::vector<std::pair<std::string, std::string>> environment;
};
RunInfo make_run_info(Options const& options, std::string sizes);

// One GEMM problem shape, M x N x K.
struct GemmShape {
  int m = 0, n = 0, k = 0;
};
// Parses "MxNxK[,MxNxK...]" (each a positive integer below 2^31, e.g. "5120x5120x5120,128x8192x8192");
// throws std::invalid_argument naming the offending piece.
std::vector<GemmShape> parse_gemm_shapes(std::string const& text);

void print_table(std::vector<Result> const&, std::ostream&);
// {"device": ..., "options": {...}, "environment": {...}, "gpu_at_start": {...}, "results": [...]},
// strings escaped; each result with its reference's name, what the reference chose
// ("reference_choice": {"index", "candidates", "detail"}), its rates against the further references
// ("also_against": [{"reference", "ref_value", "percent_of_ref", ...}]) and its note.
void write_json(RunInfo const&, std::vector<Result> const&, std::string const& path);
void write_svg(std::vector<Result> const&, std::string const& path);  // bar chart: % of reference per case

}  // namespace tessera::bench
