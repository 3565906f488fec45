// GemmProblem: one mixed-precision GEMM, D = act(alpha A B + beta C + bias), with A (M,K) and B (K,N)
// of the input type T, C and D (M,N) of the output type TOut, each row- or column-major with its
// own leading dimension, an optional per-column bias and activation; its validation, and the
// transform that lets a kernel assume a row-major D. Shared by the tensor-core kernels
// (gemm_sm80.cuh, gemm_sm90.cuh, their epilogue gemm_epilogue.cuh) and the benchmark.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the validation's messages
#include <stdexcept>
#include <string>
#endif

#include "tessera/core/layout.hpp"

namespace tessera::kernels {

// The activation of the epilogue, applied last (in fp32, before the conversion to TOut):
//   none        x
//   relu        max(x, 0)
//   gelu        x Phi(x) = x (1 + erf(x / sqrt 2)) / 2          (PyTorch's gelu, approximate='none')
//   gelu_tanh   x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2  (approximate='tanh')
enum class GemmActivation { none, relu, gelu, gelu_tanh };

inline char const* to_string(GemmActivation a) {
  switch (a) {
    case GemmActivation::none: return "none";
    case GemmActivation::relu: return "relu";
    case GemmActivation::gelu: return "gelu";
    case GemmActivation::gelu_tanh: return "gelu_tanh";
  }
  return "invalid";
}

// One GEMM call: D = act(alpha A B + beta C + bias), A (M,K), B (K,N), C and D (M,N), bias a vector
// of N elements added to every row (bias[n] to column n; none when null).
// Pre: m, n, k >= 1; lda >= the contiguous extent of A (K when row-major, M when column-major),
// likewise ldb, ldc, ldd; a, b, d non-null; c non-null when beta != 0 (C may alias D); bias, when
// given, has N elements; every matrix has fewer than 2^31 elements.
// Example: m = n = 2, k = 1, A = (1, 2)^T, B = (3, -4), alpha = 1, beta = 0, bias = (0, 5),
// activation relu: alpha A B = ((3, -4), (6, -8)), + bias = ((3, 1), (6, -3)), D = ((3, 1), (6, 0)).
template <class T, class TOut>
struct GemmProblem {
  int m = 0, n = 0, k = 0;
  float alpha = 1.0f;
  T const* a = nullptr;
  int lda = 0;
  Major a_major = Major::row;
  T const* b = nullptr;
  int ldb = 0;
  Major b_major = Major::row;
  float beta = 0.0f;
  TOut const* c = nullptr;
  int ldc = 0;
  TOut* d = nullptr;
  int ldd = 0;
  Major cd_major = Major::row;  // C and D
  TOut const* bias = nullptr;   // N elements, bias[n] added to column n of D; null: no bias
  GemmActivation activation = GemmActivation::none;
};

// How an fp8 operand is scaled back (its dequantization factor), fp32 values in device memory:
//   GemmScaleKind::none     no scale (1)
//   GemmScaleKind::tensor   data[0], one scale for the whole operand
//   GemmScaleKind::vector   one scale per row of A (data[m], M values) or per column of B (data[n],
//                           N values): the "row-wise" scaling of fp8 training and inference
//   GemmScaleKind::block    DeepSeek-V3's blocks, A and B both (gemm_sm90_fp8_block): A's per 1 x 128
//                           block, data[kb M + m] for row m and k-block kb = k / 128 (ceil(K/128) x M
//                           values, M contiguous); B's per 128 x 128 block, data[(n / 128) KB + kb]
//                           (ceil(N/128) x KB values, KB = ceil(K/128) contiguous); the sums of
//                           each 128 elements of K are promoted to fp32 with their two scales
enum class GemmScaleKind { none, tensor, vector, block };

inline char const* to_string(GemmScaleKind k) {
  switch (k) {
    case GemmScaleKind::none: return "none";
    case GemmScaleKind::tensor: return "tensor";
    case GemmScaleKind::vector: return "vector";
    case GemmScaleKind::block: return "block";
  }
  return "invalid";
}

struct GemmScale {
  GemmScaleKind kind = GemmScaleKind::none;
  float const* data = nullptr;
};

// GemmFp8Problem<T, TOut>: a GemmProblem whose A and B are 8-bit floats (T = float_e4m3_t or
// float_e5m2_t), with their scales: D = act(alpha (sa(m) sb(n) sum_k A(m,k) B(k,n)) + beta C + bias),
// sa(m) and sb(n) after scale_a and scale_b (GemmScale), the sum in fp32.
// Pre: GemmProblem's, and what the fp8 wgmma needs: A row-major and B column-major (both K-major,
// the only fp8 form of wgmma), K, lda and ldb multiples of 16 (16-byte rows, TMA's unit), A and B
// 16-byte aligned; a scale's data non-null unless its kind is none (vector: M values for A, N for B);
// block scales for both operands or neither, with a row-major D (gemm_sm90_fp8_block).
// Example: m = n = 1, k = 16, A = B = sixteen 0.5s (exact in e4m3), scale_a tensor {2}, scale_b
// vector {3}: D = 2 * 3 * 16 * 0.25 = 24.
template <class T, class TOut>
struct GemmFp8Problem : GemmProblem<T, TOut> {
  GemmScale scale_a, scale_b;
};

namespace detail {
// gemm_epilogue_plain(p): true when p's epilogue is D = alpha A B alone: no C term (beta 0), no
// bias, no activation. The kernels' epilogues take a shorter path then, and gemm_sm90 chooses its
// kernel by it. Pre: none (any problem, valid or not; alpha is not looked at). Post: true exactly
// when beta == 0, bias == nullptr and activation == none.
// Example: a default GemmProblem with alpha = 2: true; with beta = 0.5: false.
template <class T, class TOut>
constexpr bool gemm_epilogue_plain(GemmProblem<T, TOut> const& p) {
  return p.beta == 0.0f && p.bias == nullptr && p.activation == GemmActivation::none;
}

#if !defined(__CUDACC_RTC__)  // host only: what the launchers do before launching
// Checks p against GemmProblem's preconditions; std::invalid_argument naming the first violated,
// e.g. "gemm_sm80: lda = 3 is too small for the row-major 4x8 matrix A; ld must be >= 8".
template <class T, class TOut>
void check_gemm_problem(char const* fn, GemmProblem<T, TOut> const& p) {
  // Messages are built only for a failed check (this runs on every launch).
  auto need = [fn](bool ok, auto const& what) {
    if (!ok) throw std::invalid_argument(std::string(fn) + ": " + std::string(what()));
  };
  need(p.m >= 1 && p.n >= 1 && p.k >= 1, [&] {
    return "m, n and k must be >= 1, got " + std::to_string(p.m) + ", " + std::to_string(p.n) + ", " +
           std::to_string(p.k);
  });
  auto check_matrix = [&](char const* name, char const* ld_name, int r, int c, int ld, Major major, void const* ptr) {
    long long const minor = major == Major::row ? c : r;
    long long const major_extent = major == Major::row ? r : c;
    auto const what = [&] {
      return std::string(major == Major::row ? "row" : "column") + "-major " + std::to_string(r) + "x" +
             std::to_string(c) + " matrix " + name;
    };
    need(ptr != nullptr, [&] { return std::string(name) + " is null"; });
    need(ld >= minor, [&] {
      return std::string(ld_name) + " = " + std::to_string(ld) + " is too small for the " + what() +
             "; ld must be >= " + std::to_string(minor);
    });
    need(major_extent * static_cast<long long>(ld) < (1LL << 31),
         [&] { return "the " + what() + " spans 2^31 or more elements; offsets are 32-bit: split the problem"; });
  };
  check_matrix("A", "lda", p.m, p.k, p.lda, p.a_major, p.a);
  check_matrix("B", "ldb", p.k, p.n, p.ldb, p.b_major, p.b);
  check_matrix("D", "ldd", p.m, p.n, p.ldd, p.cd_major, p.d);
  if (p.beta != 0.0f) check_matrix("C", "ldc", p.m, p.n, p.ldc, p.cd_major, p.c);
  need(p.activation == GemmActivation::none || p.activation == GemmActivation::relu ||
           p.activation == GemmActivation::gelu || p.activation == GemmActivation::gelu_tanh,
       [&] {
         return "activation " + std::to_string(static_cast<int>(p.activation)) +
                " is not a GemmActivation (none, relu, gelu, gelu_tanh)";
       });
}

// Checks an fp8 problem: GemmProblem's preconditions (check_gemm_problem), then the fp8 ones
// (GemmFp8Problem); std::invalid_argument naming the first violated and the fix, e.g.
// "gemm_sm90_fp8: A must be row-major (K-major: the only fp8 form of wgmma); transpose it into a
// row-major copy".
template <class T, class TOut>
void check_gemm_fp8_problem(char const* fn, GemmFp8Problem<T, TOut> const& p) {
  check_gemm_problem(fn, static_cast<GemmProblem<T, TOut> const&>(p));
  auto need = [fn](bool ok, auto const& what) {
    if (!ok) throw std::invalid_argument(std::string(fn) + ": " + std::string(what()));
  };
  need(p.a_major == Major::row, [] {
    return std::string("A must be row-major (K-major: the only fp8 form of wgmma); transpose it into a row-major copy");
  });
  need(p.b_major == Major::col, [] {
    return std::string(
        "B must be column-major (K-major: the only fp8 form of wgmma); give B^T's row-major storage as a column-major "
        "B, or transpose it");
  });
  need(p.k % 16 == 0, [&] {
    return "K = " + std::to_string(p.k) +
           " is not a multiple of 16: fp8 rows must be whole 16-byte units (TMA); pad K with zeros to " +
           std::to_string((p.k + 15) / 16 * 16);
  });
  need(p.lda % 16 == 0 && p.ldb % 16 == 0, [&] {
    return "lda = " + std::to_string(p.lda) + " and ldb = " + std::to_string(p.ldb) +
           " must be multiples of 16 (16-byte rows for TMA); copy the operand into a padded buffer";
  });
  auto aligned = [](void const* q) { return reinterpret_cast<unsigned long long>(q) % 16 == 0; };
  need(aligned(p.a) && aligned(p.b), [&] {
    return std::string("A and B must start 16-byte aligned (TMA); copy the operand into an aligned buffer");
  });
  long long const k_blocks = (p.k + 127) / 128;
  auto check_scale = [&](char const* name, GemmScale const& s, int count, char const* per, long long blocks,
                         char const* block) {
    need(s.kind == GemmScaleKind::none || s.kind == GemmScaleKind::tensor || s.kind == GemmScaleKind::vector ||
             s.kind == GemmScaleKind::block,
         [&] {
           return std::string(name) + ".kind " + std::to_string(static_cast<int>(s.kind)) +
                  " is not a GemmScaleKind (none, tensor, vector, block)";
         });
    need(s.kind == GemmScaleKind::none || s.data != nullptr, [&] {
      return std::string(name) + " is " + to_string(s.kind) + " but its data is null; give " +
             (s.kind == GemmScaleKind::tensor   ? std::string("one fp32 value")
              : s.kind == GemmScaleKind::vector ? std::to_string(count) + " fp32 values, one " + per
                                                : std::to_string(blocks) + " fp32 values, one " + block) +
             " in device memory, or kind none";
    });
  };
  check_scale("scale_a", p.scale_a, p.m, "per row of A", k_blocks * p.m, "per 1 x 128 block of A");
  check_scale("scale_b", p.scale_b, p.n, "per column of B", k_blocks * ((p.n + 127) / 128), "per 128 x 128 block of B");
  bool const block_a = p.scale_a.kind == GemmScaleKind::block, block_b = p.scale_b.kind == GemmScaleKind::block;
  need(block_a == block_b, [&] {
    return std::string("block scales are for A and B together (1 x 128 blocks of A, 128 x 128 of B); got scale_a ") +
           to_string(p.scale_a.kind) + " and scale_b " + to_string(p.scale_b.kind);
  });
  need(!block_a || p.cd_major == Major::row, [] {
    return std::string(
        "block scales need a row-major D (a column-major D is computed transposed, where A's 1 x 128 blocks would "
        "scale the second operand); give a row-major D");
  });
}

// The row-major-D form of p: a column-major D is computed as D^T = B^T A^T (the bias then runs
// along the rows of the computed D: the kernels' epilogue is told so, gemm_epilogue.cuh).
template <class T, class TOut>
GemmProblem<T, TOut> gemm_as_row_major_d(GemmProblem<T, TOut> p) {
  if (p.cd_major == Major::row) return p;
  auto flip = [](Major x) { return x == Major::row ? Major::col : Major::row; };
  GemmProblem<T, TOut> q = p;
  q.m = p.n;
  q.n = p.m;
  q.a = p.b;
  q.lda = p.ldb;
  q.a_major = flip(p.b_major);
  q.b = p.a;
  q.ldb = p.lda;
  q.b_major = flip(p.a_major);
  q.cd_major = Major::row;
  return q;
}
#endif  // !__CUDACC_RTC__

}  // namespace detail

}  // namespace tessera::kernels
