// The benchmark's GEMM reference: cuBLASLt with the fastest of its top heuristics, what a tuned
// framework gets (issue 33: on small-K and narrow shapes it beats cublasGemmEx by 20 % or more).
// For a problem, cublasLtMatmulAlgoGetHeuristic proposes up to `candidates` algorithms that fit a
// workspace; each is launched on the problem's own buffers and timed (CUDA events, a warm-up
// launch, the best of a few short samples), and the fastest is kept, cached for the process by the
// problem's key (shape, types, majors, leading dimensions): every case of that key then runs the same
// algorithm. Ties go to the earlier candidate (0: cuBLASLt's own first choice).
//
// Layouts: cuBLASLt is column-major. A row-major D = A B is computed as the column-major
// D^T (N x M) = B^T A^T, each row-major operand read as its column-major transpose.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <compare>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tessera/core/layout.hpp"  // Major

namespace tessera::bench {

// What picks the algorithm: D (m x n, out_type) = A (m x k) B (k x n), inputs of in_type, fp32
// compute and scaling (alpha 1, beta 0), each matrix with its major and leading dimension. For fp8
// inputs (CUDA_R_8F_E4M3, CUDA_R_8F_E5M2; A row-major and B column-major, cuBLASLt's "TN"), the
// operands' scales (scale: none, one fp32 value per tensor, or one per row of A and column of B:
// cuBLASLt's OUTER_VEC_32F) and whether cuBLASLt may accumulate at the tensor cores' own fp8
// precision (fast_accum, CUBLASLT_MATMUL_DESC_FAST_ACCUM; off, it promotes partial sums to fp32).
enum class LtScale { none, tensor, outer_vector };
struct LtGemmKey {
  int m = 0, n = 0, k = 0;
  cudaDataType_t in_type = CUDA_R_16BF, out_type = CUDA_R_16BF;
  Major a_major = Major::row, b_major = Major::row, d_major = Major::row;
  int lda = 0, ldb = 0, ldd = 0;
  LtScale scale = LtScale::none;
  bool fast_accum = false;
  friend auto operator<=>(LtGemmKey const&, LtGemmKey const&) = default;
};

// The scales' device pointers of an fp8 key (A's and B's: one value each, or M and N values).
struct LtScales {
  void const* a = nullptr;
  void const* b = nullptr;
};

// A key's spelling, every field of it: "MxNxK in->out A row lda, B row ldb, D row ldd", e.g.
// "8192x8192x256 bf16->bf16 A row 256, B row 8192, D row 8192"; an fp8 key adds its scaling and
// accumulation: "... e4m3->bf16 A row 4096, B col 4096, D row 4096, scales outer_vector, fast
// accumulation". Types: fp16, bf16, fp32, e4m3, e5m2, or "type N" for another cudaDataType_t.
std::string to_string(LtGemmKey const& key);

// fastest_candidate(ms): the index of the smallest time among ms, the first one on a tie; times
// that are not finite or not positive (a candidate that failed) never win; -1 when none is valid.
// Example: {0.5, 0.4, 0.4, -1} -> 1; {NAN, 0} -> -1.
int fastest_candidate(std::vector<double> const& ms);

// What the choice was: the winning candidate's index in the heuristic's order, how many were timed,
// and the winner's configuration and times, e.g. "algo 66, tile 25, stages 20, split-K 1, swizzle 0,
// cluster 3, workspace 0 B; 0.412 ms against 0.455 ms for candidate 0".
struct LtChoice {
  int index = -1;
  int candidates = 0;
  std::string detail;
  std::vector<double> ms;  // each candidate's time (ms per launch; -1: it failed)
};

// cuBLASLt's fastest algorithm for one problem, run on that problem's buffers.
class LtBestGemm {
 public:
  // Pre: a, b, d are device buffers of the key's types and shape (d is written while timing);
  // scales' pointers hold the key's scales (fp8 keys with scales).
  LtBestGemm(LtGemmKey const& key, void const* a, void const* b, void* d, int candidates = 16,
             std::size_t workspace_bytes = std::size_t(32) << 20, LtScales scales = {});
  ~LtBestGemm();
  LtBestGemm(LtBestGemm const&) = delete;
  LtBestGemm& operator=(LtBestGemm const&) = delete;

  // Chooses (times the candidates) unless this key's choice is in the process's cache already, then
  // returns it. Synchronizes the device. Throws std::runtime_error when cuBLASLt proposes nothing or
  // every candidate fails.
  LtChoice const& choose();
  // D = A B with the chosen algorithm (choose() first if it has not run), asynchronous on `stream`.
  void run(cudaStream_t stream);

  LtGemmKey const& key() const { return key_; }

 private:
  struct Descriptors;
  LtGemmKey key_;
  void const* a_;
  void const* b_;
  void* d_;
  int candidates_;
  std::size_t workspace_bytes_;
  std::unique_ptr<Descriptors> desc_;
  cublasLtMatmulAlgo_t const* algo_ = nullptr;  // the cache's entry for this key, once chosen
  LtChoice const* choice_ = nullptr;
};

}  // namespace tessera::bench
