// The kernels of tessera.ops as the extension module (module.cpp) sees them: plain pointers and
// extents, no CUDA types, no CUDA headers. Everything here is compiled by the host compiler except
// gemm.cu:
//   * add.cpp, sgemm.cpp, copy.cpp launch kernels of include/tessera/kernels compiled while the
//     program runs (tessera::jit: NVRTC, then the CUDA driver), one program per op and element type,
//     compiled on its first call and cached in memory and on disk (jit_programs.hpp);
//   * gemm.cu (nvcc, sm_90a; only with TESSERA_PYTHON_OPS_GEMM) calls kernels::gemm_sm90, whose
//     kernels come precompiled from tessera::instances; gemm_absent.cpp stands in without it.
// Every launching function launches asynchronously on `stream` (a CUstream, which is a
// cudaStream_t: 0 the legacy default stream, 2 the per-thread one) in the current context -- the
// primary context of the tensors' device, which module.cpp makes current, and which the CUDA
// runtime (gemm.cu, PyTorch) uses too. It throws std::invalid_argument for arguments outside the
// kernel's contract (before compiling or launching anything) and tessera::jit::jit_error (a
// std::runtime_error) when compiling, loading or launching fails.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::python_ops {

enum class DType { f32, f16, bf16 };

// The programs compiled on first use: add (per DType), sgemm (float32), copy (per element size).
enum class Op { add, sgemm, copy };

// What prepare() compiled or found: the program's kernels (their name expressions), whether it came
// from the disk cache, NVRTC's time (0 from a cache) and NVRTC's log (warnings).
struct Prepared {
  std::vector<std::string> kernels;
  bool from_disk_cache = false;
  double compile_seconds = 0;
  std::string log;
};

// The key of one program: op and the element type (add: its DType as an int; sgemm: 0; copy: the
// element's bytes, 2 or 4). Throws std::invalid_argument for a key that has no program.
// prepared(): whether the program is compiled in this process (then prepare() returns at once).
// prepare(): compiles it for sm_90a, or loads it from the disk cache; needs NVRTC, not a GPU.
bool prepared(Op op, int key);
Prepared prepare(Op op, int key);

// c[i] = a[i] + b[i] for i < n (n >= 1): three densely stored arrays of the element type t, each
// element-aligned; any n (launched in pieces of at most 2^30 elements).
void add(DType t, void const* a, void const* b, void* c, std::int64_t n, void* stream);

// One matrix operand: its pointer, leading dimension (elements) and storage order.
struct Matrix {
  void const* ptr = nullptr;
  int ld = 0;
  bool row_major = true;
};

// D = alpha A B + beta D in fp32 (kernels::sgemm's tuned kernel): A (m,k), B (k,n), D (m,n);
// m, n, k >= 0. sgemm_check(): SgemmProblem's preconditions (kernels::detail::check_sgemm_problem's
// messages, after "fn: "), which sgemm() checks too.
void sgemm_check(char const* fn, int m, int n, int k, Matrix a, Matrix b, float* d, int ldd, bool d_row_major);
void sgemm(int m, int n, int k, float alpha, Matrix a, Matrix b, float beta, float* d, int ldd, bool d_row_major,
           void* stream);

// dst = src (kernels::tile_copy: tiles through shared memory with cp.async) for a rows x cols
// row-major matrix of `element_bytes`-byte elements (2 or 4; a column-major matrix is the row-major
// view of its transpose) with leading dimension ld, the same for both. Pre: rows, cols >= 1;
// cols * element_bytes and ld * element_bytes multiples of 16; src and dst 16-byte aligned (module.cpp
// checks these with its messages). Any rows (launched in pieces of at most 65535 tile rows).
void copy(int element_bytes, void const* src, void* dst, int rows, int cols, std::int64_t ld, void* stream);

// The geometry of copy(): rows and columns of one tile (kernels::TileCopyConfig's defaults).
int copy_tile_rows();
int copy_tile_cols(int element_bytes);

// D = act(alpha A B + beta C + bias) on the tensor cores (kernels::gemm_sm90): A, B of type `in`
// (f16 or bf16), C, D and bias of type `out` (`in` or f32); C and D share their storage order; c
// may be null when beta == 0, bias null for none; activation: 0 none, 1 relu, 2 gelu, 3 gelu_tanh
// (kernels::GemmActivation).
struct GemmArgs {
  int m = 0, n = 0, k = 0;
  DType in = DType::bf16, out = DType::bf16;
  float alpha = 1.0f, beta = 0.0f;
  Matrix a, b;
  void const* c = nullptr;
  int ldc = 0;
  void* d = nullptr;
  int ldd = 0;
  bool cd_row_major = true;
  void const* bias = nullptr;
  int activation = 0;
};
// Launches through the CUDA runtime (gemm.cu) in the current context; throws std::runtime_error
// naming the runtime's error when the launch fails. Without the GEMM built: throws saying how to
// build it.
void gemm(GemmArgs const& args, void* stream);

// Whether gemm() was built (the CMake option TESSERA_PYTHON_OPS_GEMM): its instantiations take
// minutes of nvcc, so builds that only test compilation can leave them out.
bool have_gemm();

}  // namespace tessera::python_ops
