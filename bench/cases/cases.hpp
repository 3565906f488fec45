// The cases tessera-bench runs (and the example programs reuse): memory-bound kernels against
// cudaMemcpyAsync, SGEMMs and the tensor-core GEMMs against cuBLAS(Lt), each verified before it is
// timed (harness.hpp). The example ladders' SGEMM cases are in examples/sgemm/cases.hpp.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/gemm_suite.hpp"
#include "bench/harness.hpp"
#include "tessera/kernels/sgemm_problem.hpp"

namespace tessera::bench {

// Elementwise add (naive, vectorized, TV; fp16, bf16, fp32) and the tile copy: 32768^2 when full,
// else 4096^2.
std::vector<Case> memory_cases(bool full);

// Launches one SGEMM (asynchronously) and returns the launch's error.
using SgemmLauncher = std::function<cudaError_t(kernels::SgemmProblem const&, cudaStream_t)>;
using NamedSgemm = std::pair<std::string, SgemmLauncher>;

// The majors of A, B and C in an SGEMM case (row-major by default).
struct SgemmMajors {
  Major a = Major::row, b = Major::row, c = Major::row;
};

// One case per (size, kernel): square C = A B of size^3 (row-major unless mj says otherwise)
// against cublasSgemm.
std::vector<Case> sgemm_cases_for(std::vector<int> const& sizes, std::vector<NamedSgemm> const& kernels_to_run,
                                  SgemmMajors mj = {});

// The tensor-core GEMM cases below run against cuBLASLt's fastest of its top heuristics for the
// shape (bench/cublaslt_best.hpp; named "cublasLt best") and beside it cublasGemmEx, both checked
// with the kernel before timing.

// The tensor-core GEMMs (kernels::gemm_sm80 and the Hopper ladder of kernels/gemm_sm90.cuh, bf16 and
// fp16, row-major): 4096^3 and 8192^3 when full, else 2048^3; and gemm_sm90 with a bias and GELU
// against cuBLASLt's GELU_BIAS epilogue.
std::vector<Case> gemm_cases(bool full);

// The Hopper ladder (steps 1, 2, 3: tma, ws, persistent, cluster, pingpong, stream_k; bf16 and fp16) on squares
// of the given sizes (examples/04_gemm_sm90_ladder.cu). Only in builds with the instance set `extra`
// (TESSERA_EXTRA_KERNELS; instances/table.txt).
std::vector<Case> gemm_sm90_ladder_cases(std::vector<int> const& sizes);

// The fp8 GEMM (gemm_sm90_fp8, e4m3 -> bf16, K-major) on M = N = K = each of `sizes`: per-tensor
// scales and per-row/column scales, each on the persistent 128x256 and the ping-pong 128x128 kernel,
// each against cuBLASLt's fastest fp8 algorithm with the same scaling and fast
// accumulation (per-tensor also beside cuBLASLt's fp32-accumulating form); per-tensor on the persistent
// 128x128 kernel; block scales (gemm_sm90_fp8_block) against the per-tensor reference;
// bench/cases/gemm_fp8_cases.cu.
std::vector<Case> gemm_fp8_cases(std::vector<int> const& sizes);
// The grouped GEMM (gemm_sm90_grouped, bf16, tokens packed by expert; N = K = 4096 with 8 and 64
// groups, Mixtral's and DeepSeek-V3's expert shapes at 8..1024 tokens an expert) against a loop of
// cublasGemmEx over the groups and beside cublasGemmGroupedBatchedEx; bench/cases/gemm_grouped_cases.cu.
std::vector<Case> gemm_grouped_cases();

// The sweep of the Hopper GEMM: gemm_sm90_persistent (128x256 tiles), gemm_sm90_pingpong (128x128)
// and gemm_sm90 (the tile chosen for the shape) on squares 1024^3 .. 16384^3 (the powers of two,
// and 3072^3 and 5120^3 where whole waves of 128x256 tiles leave SMs idle) and the skinny M = 128 ..
// 1024, N = K = 8192.
std::vector<Case> gemm_sweep_cases();

// The Hopper GEMMs (gemm_sm90_persistent, _persistent_wide (128x192 tiles), _pingpong, _stream_k,
// _stream_k_medium (128x128 tiles), _data_parallel (gemm_sm90 without stream-K) and gemm_sm90; bf16
// and fp16, row-major) on the given shapes (`tessera-bench --shapes`).
std::vector<Case> gemm_shape_cases(std::vector<GemmShape> const& shapes);

// gemm_sm90 (bf16 and fp16, row-major) on the suite's shapes (`tessera-bench --suite`;
// bench/gemm_suite.hpp), each case's note naming its class, why the shape is there and the
// configuration gemm_sm90 runs for it.
std::vector<Case> gemm_suite_cases(std::vector<SuiteShape> const& suite);

}  // namespace tessera::bench
