// The kernels of tessera.ops as the extension module (module.cpp) sees them: plain pointers and
// extents, no CUDA types, no CUDA headers, all compiled by the host compiler. add.cpp, sgemm.cpp,
// copy.cpp and gemm.cpp launch kernels of include/tessera/kernels compiled while the program runs
// (tessera::jit: NVRTC, then the CUDA driver), one program per op and element type (gemm: per
// kernel of gemm_sm90 a shape needs), compiled on its first call and cached in memory and on disk
// (jit_programs.hpp).
// Every launching function launches asynchronously on `stream` (a CUstream, which is a
// cudaStream_t: 0 the legacy default stream, 2 the per-thread one) in the current context -- the
// primary context of the tensors' device, which module.cpp makes current, and which the CUDA
// runtime (PyTorch) uses too. It throws std::invalid_argument for arguments outside the
// kernel's contract (before compiling or launching anything) and tessera::jit::jit_error (a
// std::runtime_error) when compiling, loading or launching fails.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::python_ops {

enum class DType { f32, f16, bf16 };

// The programs compiled on first use: add (per DType), sgemm (float32), copy (per element size),
// gemm (per kernel of gemm_sm90: gemm_key), attention (per head_dim and type: attention_key).
enum class Op { add, sgemm, copy, gemm, attention, grouped_gemm, scaled_gemm };

// What prepare() compiled or found: the program's kernels (their name expressions), whether it came
// from the disk cache, NVRTC's time (0 from a cache) and NVRTC's log (warnings).
struct Prepared {
  std::vector<std::string> kernels;
  bool from_disk_cache = false;
  double compile_seconds = 0;
  std::string log;
};

// The key of one program: op and the element type (add: its DType as an int; sgemm: 0; copy: the
// element's bytes, 2 or 4; gemm: gemm_key's number of the kernel, 0..287; attention: attention_key's,
// 0..9). Throws std::invalid_argument for a key that has no program.
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
// Compiles the kernel gemm_key(args, gemm_sms()) names when this process has not (prepare(Op::gemm,
// key): seconds the first time on a machine, then the disk cache) and launches it in the current
// context, with gemm_pack_kernel first for operands TMA cannot address (include/tessera/jit/
// gemm_sm90.hpp); throws tessera::jit::jit_error naming the driver's error when a launch fails.
void gemm(GemmArgs const& args, void* stream);

// The kernel gemm() runs for args on a GPU of `sms` SMs, as its program's key for prepare(Op::gemm,
// key): jit::GemmSm90JitKernel::index() of jit::gemm_sm90_jit_kernel (gemm_sm90_pick's
// configuration; the types; the operands'
// majors; the epilogue's form). Looks at the shape, types, orders and epilogue of args, and at D's
// pointer and ldd (whether TMA can address D); the other pointers may be null.
int gemm_key(GemmArgs const& args, int sms);

// The SM count of the current context's device (the driver; jit_error without one).
int gemm_sms();

// Whether gemm() is here: always (it is compiled on first use; the answer is kept for callers
// written when it was an nvcc build option).
bool have_gemm();

// The attention forward on Hopper (kernels::attention_forward_sm90, attention.cpp over
// include/tessera/jit/attention_sm90.hpp): O = softmax(scale Q K^T [+ causal mask]) V and LSE for
// Q, O (batch, heads_q, seq_q, head_dim) and K, V (batch, heads_kv, seq_k, head_dim) of type
// `dtype` (f16 or bf16), strides in elements along (batch, head, seq) (head_dim's is 1); lse: fp32
// (batch, heads_q, seq_q) contiguous, or null; scale 0: 1/sqrt(head_dim); causal: 0 none, 1
// top_left, 2 bottom_right (kernels::AttentionCausal).
struct AttentionArgs {
  DType dtype = DType::bf16;
  void const* q = nullptr;
  void const* k = nullptr;
  void const* v = nullptr;
  void* o = nullptr;
  float* lse = nullptr;
  int batch = 1, heads_q = 1, heads_kv = 1, seq_q = 1, seq_k = 1, head_dim = 128;
  std::int64_t q_strides[3] = {0, 0, 0}, k_strides[3] = {0, 0, 0}, v_strides[3] = {0, 0, 0}, o_strides[3] = {0, 0, 0};
  float scale = 0.0f;
  int causal = 0;
  // varlen (kernels::AttentionProblem): batch + 1 device offsets into the packed rows; strides'
  // batch unused; seq_q, seq_k the longest sequences; LSE (heads_q, total_q)
  int const* cu_seqlens_q = nullptr;
  int const* cu_seqlens_k = nullptr;
  int total_q = 0, total_k = 0;
};
// kernels::check_attention_problem's rules (std::invalid_argument "fn: <rule> (<values>)"), which
// attention() checks too.
void attention_check(char const* fn, AttentionArgs const& args);
// The program of the kernel for args (prepare(Op::attention, key)): jit::AttentionSm90JitKernel's
// index, 0..13 (head_dim, dtype and the main loop that TESSERA_ATTENTION_LOOP picks: 0..5 plain,
// 6..9 ping-pong, 10..13 overlap; std::invalid_argument for a head_dim without a kernel).
int attention_key(AttentionArgs const& args);
// Compiles the kernel when this process has not (seconds the first time on a machine, then the
// disk cache) and launches it in the current context on `stream`.
void attention(AttentionArgs const& args, void* stream);

// The grouped GEMM on Hopper (kernels::gemm_sm90_grouped, gemm_grouped.cpp over
// include/tessera/jit/gemm_sm90_grouped.hpp): D_g = alpha A_g B_g for the groups of a packed A
// (rows x k, row-major, lda) and D (rows x n, row-major, ldd), B_g the g-th of `groups` (k x n)
// matrices stride_b elements apart, row-major (ldb >= n) or column-major (ldb >= k); the groups'
// rows in `rows` (device, int32): form 0 offsets (groups + 1), 1 cumulative ends (groups), 2 masked
// counts (groups; m is then a group's capacity, else the packed rows). in: f16 or bf16; out: in or f32.
struct GroupedGemmArgs {
  int groups = 0, m = 0, n = 0, k = 0;
  DType in = DType::bf16, out = DType::bf16;
  float alpha = 1.0f;
  int form = 0;
  int const* rows = nullptr;
  void const* a = nullptr;
  int lda = 0;
  void const* b = nullptr;
  int ldb = 0;
  std::int64_t stride_b = 0;
  bool b_row_major = false;
  void* d = nullptr;
  int ldd = 0;
};
// The program of the kernel for args (prepare(Op::grouped_gemm, key)): jit::GemmSm90GroupedJitKernel's
// index, 0..15. Throws std::invalid_argument for a problem check_gemm_grouped_problem refuses.
int grouped_gemm_key(GroupedGemmArgs const& args);
// Compiles the kernel when this process has not, and launches it in the current context on `stream`.
void grouped_gemm(GroupedGemmArgs const& args, void* stream);

// The fp8 GEMM on Hopper (kernels::gemm_sm90_fp8 and gemm_sm90_fp8_block, gemm_fp8.cpp over
// include/tessera/jit/gemm_sm90_fp8.hpp): D = sa(m) sb(n) A B (+ bias) for A (m x k, row-major, lda)
// and B (k x n, column-major, ldb) both e4m3 (e5m2 false) or both e5m2, D of `out` (bf16, f16 or
// f32), row- or column-major; bias (n values of `out`) or null. Scales: kind 0 none, 1 tensor (one
// fp32 value), 2 vector (m values for A, n for B), 3 block (A: ceil(k/128) x m, m contiguous; B:
// ceil(n/128) x ceil(k/128), k-blocks contiguous) -- kernels::GemmScaleKind's order.
struct ScaledGemmArgs {
  int m = 0, n = 0, k = 0;
  bool e5m2 = false;
  DType out = DType::bf16;
  void const* a = nullptr;
  int lda = 0;
  void const* b = nullptr;
  int ldb = 0;
  void* d = nullptr;
  int ldd = 0;
  bool d_row_major = true;
  void const* bias = nullptr;
  int scale_a_kind = 0, scale_b_kind = 0;
  float const* scale_a = nullptr;
  float const* scale_b = nullptr;
};
// The program of the kernel for args on a GPU of `sms` SMs (prepare(Op::scaled_gemm, key)):
// jit::GemmSm90Fp8JitKernel's index. Throws std::invalid_argument, naming fn, for a problem
// check_gemm_fp8_problem refuses.
int scaled_gemm_key(char const* fn, ScaledGemmArgs const& args, int sms);
// Compiles the kernel when this process has not, and launches it in the current context on `stream`.
void scaled_gemm(char const* fn, ScaledGemmArgs const& args, void* stream);

}  // namespace tessera::python_ops
