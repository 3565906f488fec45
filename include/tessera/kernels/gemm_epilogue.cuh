// What the tensor-core GEMMs (gemm_sm80.cuh, gemm_sm90.cuh) share around their main loops:
//   GemmEpilogue<TOut>               the epilogue's parameters and its element operation,
//                                    D = act(alpha acc + beta C + bias), and the paired store of
//                                    two neighbouring columns from registers
//   make_gemm_epilogue(problem, p)   the epilogue of a problem whose row-major-D form is p
//   gemm_block_coord                 the grouped raster of block tiles
//   gemm_pack_kernel                 the aligned copy of an operand that the fast paths cannot read
//   from_float<T>                    fp32 -> the output type
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "tessera/core/config.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/kernels/gemm_problem.hpp"

namespace tessera::kernels::detail {

template <class T>
TESSERA_HOST_DEVICE T from_float(float x) {
  return T(x);
}

// The (m,n) -> block tile of block `bid`: groups of 8 block rows sweep the columns together, so
// consecutive blocks share their A tiles and a group's B tiles stay in L2.
// Example: tiles_m = 10, tiles_n = 3: bids 0..7 are rows 0..7 of column 0, 8..15 rows 0..7 of
// column 1, ..., 24 and 25 rows 8 and 9 of column 0.
TESSERA_HOST_DEVICE void gemm_block_coord(int bid, int tiles_m, int tiles_n, int& bm, int& bn) {
  constexpr int kGroup = 8;
  int const group = bid / (kGroup * tiles_n);
  int const first_m = group * kGroup;
  int const rows = tiles_m - first_m < kGroup ? tiles_m - first_m : kGroup;
  int const in_group = bid % (kGroup * tiles_n);
  bm = first_m + in_group % rows;
  bn = in_group / rows;
}

// dst (rows, ld_dst) = src (rows, cols) with ld_src, zero-padded to ld_dst columns: the packed,
// aligned copy of a misaligned operand (one thread per destination element).
template <class T>
__global__ void gemm_pack_kernel(T const* src, int ld_src, int rows, int cols, T* dst, int ld_dst) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(rows) * ld_dst) return;
  int const r = int(i / ld_dst), c = int(i % ld_dst);
  dst[i] = c < cols ? src[static_cast<long long>(r) * ld_src + c] : T(0.0f);
}

// The epilogue of a GEMM whose D is row-major (M,N) (the kernels' form, gemm_as_row_major_d):
// D(m,n) = act(alpha acc + beta C(m,n) + bias), bias = bias[n], or bias[m] when bias_per_row (the
// problem's D was column-major and is computed transposed). Everything in fp32, then converted.
// Example: alpha = 2, beta = 0, bias[n] = 1, act = relu: acc = -3 gives relu(-6 + 1) = 0, acc = 1
// gives 3. The device tests (tests/kernels/gemm_check.hpp) check it against a double reference.
// A kernel turns its accumulators into D's values a group at a time (values: alpha acc alone when
// `plain`, the whole expression otherwise) and stores them (store, store_pair, or its own path
// through shared memory).
template <class TOut>
struct GemmEpilogue {
  float alpha = 1.0f, beta = 0.0f;
  TOut const* c = nullptr;
  int ldc = 0;
  TOut* d = nullptr;
  int ldd = 0;
  TOut const* bias = nullptr;
  bool bias_per_row = false;
  bool pairs_aligned = false;  // D(m,n), D(m,n+1) can be stored as one pair for every even n
  bool plain = true;           // beta == 0, no bias, no activation: D = alpha acc
  GemmActivation act = GemmActivation::none;

  // The activation of x, branch-free (every element of a tile takes the same straight-line code):
  // erf and tanh from exp, within 2e-7 absolute of the exact functions (erf: the rational
  // approximation of Abramowitz and Stegun 7.1.26, |error| <= 1.5e-7; tanh(u) = 1 - 2 / (e^{2u} + 1)).
  __device__ static float activate(GemmActivation a, float x) {
    bool const is_gelu = a == GemmActivation::gelu;
    // gelu: 1 + erf(x / sqrt 2); gelu_tanh: 1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))
    float const u = is_gelu ? x * 0.70710678118654752f : 0.79788456080286536f * (x + 0.044715f * x * x * x);
    float const z = fabsf(u);
    float const t = __frcp_rn(1.0f + 0.3275911f * z);
    float const poly = ((((1.061405429f * t - 1.453152027f) * t + 1.421413741f) * t - 0.284496736f) * t + 0.254829592f) * t;
    float const erf_u = copysignf(1.0f - poly * __expf(-z * z), u);
    float const tanh_u = 1.0f - 2.0f / (__expf(2.0f * u) + 1.0f);
    float const gelu = 0.5f * x * (1.0f + (is_gelu ? erf_u : tanh_u));
    return a == GemmActivation::none ? x : a == GemmActivation::relu ? fmaxf(x, 0.0f) : gelu;
  }

  // The value of D(m,n) for the accumulator `acc` (before the conversion to TOut).
  __device__ float value(float acc, int m, int n) const {
    float x = alpha * acc;
    if (beta != 0.0f) x += beta * float(c[std::int64_t(m) * ldc + n]);
    if (bias != nullptr) x += float(bias[bias_per_row ? m : n]);
    return activate(act, x);
  }

  // x[k] = D's value of the accumulator src(k) of element coord(k) = (m, n), for k < K; 0 outside
  // the M x N matrix D (nothing outside it is read). When `plain`, alpha src(k), unrolled: x stays
  // in registers. Otherwise the whole expression, in a loop that is not unrolled, over a copy in
  // local memory: the expression is compiled once, not once per element (compile time and code
  // size), and the accumulators are only ever read with constant indices (they stay in registers).
  template <int K, class Src, class Coord>
  __device__ __forceinline__ void values(float (&x)[K], Src const& src, Coord const& coord, int M, int N) const {
    if (plain) {
      TESSERA_UNROLL
      for (int k = 0; k < K; ++k) x[k] = alpha * src(k);
    } else {
      float u[K];
      TESSERA_UNROLL
      for (int k = 0; k < K; ++k) u[k] = src(k);
#pragma unroll 1
      for (int k = 0; k < K; ++k) {
        auto const mn = coord(k);
        int const m = get<0>(mn), n = get<1>(mn);
        u[k] = m < M && n < N ? value(u[k], m, n) : 0.0f;
      }
      TESSERA_UNROLL
      for (int k = 0; k < K; ++k) x[k] = u[k];
    }
  }

  // D(m,n) = x0, D(m,n+1) = x1 (D's values, converted here): one pair store where both are inside
  // the M x N matrix and pairs are aligned, else element by element; only elements inside D are
  // stored (n even or not).
  __device__ void store_pair(float x0, float x1, int m, int n, int M, int N) const {
    struct alignas(2 * sizeof(TOut)) Pair {
      TOut x, y;
    };
    if (m >= M || n >= N) return;
    bool const both = n + 1 < N;
    TOut* p = d + std::int64_t(m) * ldd + n;
    if (both && pairs_aligned) {
      *reinterpret_cast<Pair*>(p) = Pair{from_float<TOut>(x0), from_float<TOut>(x1)};
    } else {
      p[0] = from_float<TOut>(x0);
      if (both) p[1] = from_float<TOut>(x1);
    }
  }

  // The register epilogue of NV accumulators: acc(v) is the element coord(v) = (m, n); values 2j
  // and 2j+1 are neighbouring columns of one row (stored as one pair). In groups of 32 values.
  template <int NV, class Acc, class Coord>
  __device__ __forceinline__ void store(Acc const& acc, Coord const& coord, int M, int N) const {
    constexpr int G = NV % 32 == 0 ? 32 : NV;
    static_assert(NV % G == 0 && G % 2 == 0, "GemmEpilogue::store: an even number of values");
    TESSERA_UNROLL
    for (int g = 0; g < NV / G; ++g) {
      float x[G];
      values(x, [&](int k) { return acc(g * G + k); }, [&](int k) { return coord(g * G + k); }, M, N);
      TESSERA_UNROLL
      for (int k = 0; k < G; k += 2) {
        auto const mn = coord(g * G + k);
        store_pair(x[k], x[k + 1], get<0>(mn), get<1>(mn), M, N);
      }
    }
  }
};

// The epilogue of `problem` (as the user gave it), whose row-major-D form (gemm_as_row_major_d) is p.
template <class T, class TOut>
GemmEpilogue<TOut> make_gemm_epilogue(GemmProblem<T, TOut> const& problem, GemmProblem<T, TOut> const& p) {
  GemmEpilogue<TOut> e;
  e.alpha = p.alpha;
  e.beta = p.beta;
  e.c = p.c;
  e.ldc = p.ldc;
  e.d = p.d;
  e.ldd = p.ldd;
  e.bias = p.bias;
  e.bias_per_row = problem.cd_major == Major::col;
  e.pairs_aligned = p.ldd % 2 == 0 && reinterpret_cast<std::uintptr_t>(p.d) % (2 * sizeof(TOut)) == 0;
  e.act = p.activation;
  e.plain = p.beta == 0.0f && p.bias == nullptr && p.activation == GemmActivation::none;
  return e;
}

}  // namespace tessera::kernels::detail
