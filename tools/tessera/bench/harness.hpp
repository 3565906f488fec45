// harness.hpp -- the `tessera bench` harness: verify, warm up, time with CUDA events, compare
// against an in-run reference, and report (table, JSON, SVG).
//
// A Case is one kernel at one shape. `group` picks the reference and the unit:
//   "memory": GB/s = bytes / time; reference = cudaMemcpyAsync D2D moving the same bytes
//             (read + write counted, so it copies bytes/2).
//   "sgemm":  TFLOP/s = flops / time; reference = cublasSgemm, default math (no TF32).
// The Case supplies its own `reference` launcher; the harness times it exactly like `run`.
// Rules (docs/performance.md, /work/shared/PERF.md): a case that fails `verify` gets no speed;
// median of `repeats` repeats of `iters_per_repeat` back-to-back launches.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace tessera::bench {

struct Case {
  std::string kernel;      // e.g. "add_tv_fp16"
  std::string shape;       // e.g. "32768x32768"
  std::string group;       // "memory" or "sgemm": picks the reference and the unit
  double bytes = 0;        // bytes the kernel must move (read + write), for GB/s
  double flops = 0;        // 2*M*N*K for GEMMs, for TFLOP/s
  std::function<void(cudaStream_t)> run;        // launches the kernel once (async)
  std::function<void(cudaStream_t)> reference;  // launches the in-run reference once (cudaMemcpyAsync D2D / cublasSgemm)
  std::function<bool(std::string&)> verify;     // runs the kernel once, checks the result; false + message on mismatch
};

struct Result {
  std::string kernel, shape, group;
  double median_ms, best_ms, value, ref_value, percent_of_ref;
  std::string unit;
  bool verified;
};

// Runs every case: verify -> (if correct) warm up -> time kernel and reference.
// progress: print one line per case to stderr.
std::vector<Result> run_cases(std::vector<Case>& cases, int warmup, int repeats, int iters_per_repeat,
                              bool progress);
void print_table(std::vector<Result> const&, std::ostream&);
void write_json(std::vector<Result> const&, std::string const& path);  // hand-written JSON, escaped strings
void write_svg(std::vector<Result> const&, std::string const& path);   // bar chart: % of reference per case

// Case providers. memory_cases: elementwise add + tile copy (bench/memory_cases.cu).
// sgemm_cases: SGEMM kernels vs cuBLAS (bench/sgemm_cases.cu). full = the sizes.
std::vector<Case> memory_cases(bool full);
std::vector<Case> sgemm_cases(bool full);

}  // namespace tessera::bench
