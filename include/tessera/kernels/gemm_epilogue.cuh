// What the tensor-core GEMMs (gemm_sm80.cuh, gemm_sm90.cuh) share around their main loops:
//   GemmEpilogue<TOut>               the epilogue's parameters and its element operation,
//                                    D = act(alpha acc + beta C + bias), and the paired store of
//                                    two neighbouring columns from registers
//   make_gemm_epilogue(problem, p)   the epilogue of a problem whose row-major-D form is p
//   gemm_block_coord                 the grouped raster of block tiles
//   gemm_pack_kernel                 the aligned copy of an operand that the fast paths cannot read
//   from_float<T>                    fp32 -> the output type
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the launchers' side
#include <cuda_runtime.h>
#endif

#include "tessera/arch/sfu.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/gemm_problem.hpp"

namespace tessera::kernels::detail {

template <class T>
TESSERA_HOST_DEVICE T from_float(float x) {
  return T(x);
}

// The (m,n) -> block tile of block `bid`: groups of `group` block rows (8 unless given) sweep the
// columns together, so consecutive blocks share their A tiles and a group's B tiles stay in L2.
// Pre: group >= 1.
// Example: tiles_m = 10, tiles_n = 3: bids 0..7 are rows 0..7 of column 0, 8..15 rows 0..7 of
// column 1, ..., 24 and 25 rows 8 and 9 of column 0.
TESSERA_HOST_DEVICE void gemm_block_coord(int bid, int tiles_m, int tiles_n, int& bm, int& bn, int group_rows = 8) {
  int const group = bid / (group_rows * tiles_n);
  int const first_m = group * group_rows;
  int const rows = tiles_m - first_m < group_rows ? tiles_m - first_m : group_rows;
  int const in_group = bid % (group_rows * tiles_n);
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
  bool pairs_aligned = false;   // D(m,n), D(m,n+1) can be stored as one pair for every even n
  bool plain = true;            // beta == 0, no bias, no activation: D = alpha acc
  int last_m = 0, last_n = 0;   // D's last row and column (M - 1, N - 1): where C and bias are read at the latest
  bool fragment_pairs = false;  // C(m,n), C(m,n+1) and bias[n], bias[n+1] can be read as one pair for every even n
  GemmActivation act = GemmActivation::none;

  struct alignas(2 * sizeof(TOut)) Pair {  // two neighbouring elements of a row of C or D, or of bias
    TOut x, y;
  };

  // The activations, each straight-line code of one-instruction approximations (arch/sfu.hpp; a
  // kernel branches once per group on `act`, which every thread shares). Both GELUs as x times a
  // factor in [0, 1] computed without cancellation, from 2^y and a reciprocal, within 3e-7 absolute
  // of the exact factor:
  //   gelu       (1 + erf(u)) / 2, u = x / sqrt 2: erf(|u|) = 1 - q, q = poly(t) e^{-u^2},
  //              t = 1 / (1 + 0.3275911 |u|) (Abramowitz and Stegun 7.1.26, |error| <= 1.5e-7), so
  //              (1 + erf(u)) / 2 = 1 - q/2 for u >= 0 and q/2 for u < 0
  //   gelu_tanh  (1 + tanh(u)) / 2 = 1 / (1 + e^{-2u}), u = sqrt(2/pi) (x + 0.044715 x^3); for
  //              x -> -inf, e^{-2u} = inf and the factor 0
  __device__ static float gelu(float x) {
    float const z = fabsf(x) * 0.70710678118654752f;
    float const t = rcp_approx(1.0f + 0.3275911f * z);
    float const poly =
        ((((1.061405429f * t - 1.453152027f) * t + 1.421413741f) * t - 0.284496736f) * t + 0.254829592f) * t;
    float const half_q = 0.5f * poly * ex2_approx(x * x * -0.72134752044448170f);  // e^{-x^2/2} = 2^{-x^2 log2(e) / 2}
    return x * (x >= 0.0f ? 1.0f - half_q : half_q);
  }
  __device__ static float gelu_tanh(float x) {
    // e^{-2u} = 2^{x (k + k 0.044715 x^2)}, k = -2 sqrt(2/pi) log2(e)
    constexpr float k = -2.3022082f;
    return x * rcp_approx(1.0f + ex2_approx(x * fmaf(x * x, k * 0.044715f, k)));
  }
  // x[i] = act(x[i]) for every i: one loop per activation under one branch.
  template <int K>
  __device__ __forceinline__ void activate(float (&x)[K]) const {
    switch (act) {
      case GemmActivation::relu:
        TESSERA_UNROLL
        for (int k = 0; k < K; ++k) x[k] = fmaxf(x[k], 0.0f);
        break;
      case GemmActivation::gelu:
        TESSERA_UNROLL
        for (int k = 0; k < K; ++k) x[k] = gelu(x[k]);
        break;
      case GemmActivation::gelu_tanh:
        TESSERA_UNROLL
        for (int k = 0; k < K; ++k) x[k] = gelu_tanh(x[k]);
        break;
      default: break;
    }
  }
  // D(m,n)'s value from alpha acc = x (before the conversion to TOut); (m, n) inside D.
  __device__ float value(float x, int m, int n) const {
    if (beta != 0.0f) x += beta * float(c[std::int64_t(m) * ldc + n]);
    if (bias != nullptr) x += float(bias[bias_per_row ? m : n]);
    float v[1] = {x};
    activate(v);
    return v[0];
  }
  // x[k] = D's value of the accumulator src(k) of element coord(k) = (m, n), for k < K. Unrolled,
  // one term of the expression at a time, branch-free: C and bias are read at the coordinates
  // clamped into D (the values of elements outside D are computed from a neighbour's and never
  // stored), in batches of kBatch loads issued before the first is used (more would not fit in
  // registers beside a large tile's accumulators). The values stay in registers; the accumulators
  // are read with constant indices only.
  // Compact: for a kernel whose accumulators leave almost no registers free (gemm_sm80's 128 x 256
  // tile), the expression in a loop that is not unrolled, over a copy of the values in local
  // memory (elements outside D get 0): slower, but it takes few registers and compiles once.
  static constexpr int kBatch = 8;
  template <bool Compact = false, int K, class Src, class Coord>
  __device__ __forceinline__ void values(float (&x)[K], Src const& src, Coord const& coord) const {
    TESSERA_UNROLL
    for (int k = 0; k < K; ++k) x[k] = alpha * src(k);
    if (plain) return;
    if constexpr (Compact) {
#pragma unroll 1
      for (int k = 0; k < K; ++k) {
        auto const mn = coord(k);
        int const m = get<0>(mn), n = get<1>(mn);
        x[k] = m <= last_m && n <= last_n ? value(x[k], m, n) : 0.0f;
      }
      return;
    }
    if (beta != 0.0f) {
      TESSERA_UNROLL
      for (int k0 = 0; k0 < K; k0 += kBatch) {
        float t[kBatch];
        TESSERA_UNROLL
        for (int k = k0; k < k0 + kBatch && k < K; ++k) {
          auto const mn = coord(k);
          t[k - k0] = float(c[std::int64_t(min(int(get<0>(mn)), last_m)) * ldc + min(int(get<1>(mn)), last_n)]);
        }
        TESSERA_UNROLL
        for (int k = k0; k < k0 + kBatch && k < K; ++k) x[k] += beta * t[k - k0];
      }
    }
    if (bias != nullptr) {
      TESSERA_UNROLL
      for (int k0 = 0; k0 < K; k0 += kBatch) {
        float t[kBatch];
        TESSERA_UNROLL
        for (int k = k0; k < k0 + kBatch && k < K; ++k) {
          auto const mn = coord(k);
          t[k - k0] = float(bias[bias_per_row ? min(int(get<0>(mn)), last_m) : min(int(get<1>(mn)), last_n)]);
        }
        TESSERA_UNROLL
        for (int k = k0; k < k0 + kBatch && k < K; ++k) x[k] += t[k - k0];
      }
    }
    activate(x);
  }

  // An accumulator fragment (that of wgmma and mma.sync): two rows m, m + 8 and J column pairs
  // n + 8 j, n + 8 j + 1; its value k = 4 j + 2 h + e is element (m + 8 h, n + 8 j + e).
  // fragment_inside(m, n, rows, cols): the rows x cols elements from (m, n) lie inside D and the
  // fragments in them can read C and bias a pair per load (fragment_pairs, n even).
  __device__ __forceinline__ bool fragment_inside(int m, int n, int rows, int cols) const {
    return m + rows - 1 <= last_m && n + cols - 1 <= last_n && n % 2 == 0 && fragment_pairs;
  }
  // bv = the bias of a fragment of J column pairs from (m, n): bv[j] = (bias[n + 8 j], bias[n + 8 j + 1]),
  // or bv[0] = (bias[m], bias[m + 8]) when bias_per_row; nothing without a bias. Pre: the fragment
  // is inside (fragment_inside). A kernel loads it ahead of fragment_values (the loads' latency
  // overlaps other work).
  template <int J>
  __device__ __forceinline__ void fragment_bias(Pair (&bv)[J], int m, int n) const {
    if (bias == nullptr) return;
    if (bias_per_row) {
      bv[0] = Pair{bias[m], bias[m + 8]};
    } else {
      TESSERA_UNROLL
      for (int j = 0; j < J; ++j) bv[j] = reinterpret_cast<Pair const*>(bias + n)[4 * j];
    }
  }
  // x[k] = D's value of src(k), k < 4 J, for the fragment of J column pairs from (m, n) whose bias
  // is bv[j0 ..] (fragment_bias of a fragment of JB >= j0 + J pairs from (m, n - 8 j0)). `inside`
  // (fragment_inside): C is read a pair per load, all loads issued before the first is used, from
  // two row addresses and constant offsets; otherwise everything as `values` does, with
  // coord(k) = element k's coordinates, and bv is not read.
  template <int J, int JB, class Src, class Coord>
  __device__ __forceinline__ void fragment_values(float (&x)[4 * J], Src const& src, Coord const& coord, int m, int n,
                                                  bool inside, Pair const (&bv)[JB], int j0) const {
    if (plain || !inside) {
      values(x, src, coord);
      return;
    }
    TESSERA_UNROLL
    for (int k = 0; k < 4 * J; ++k) x[k] = alpha * src(k);
    if (beta != 0.0f) {
      Pair cv[2 * J];
      TESSERA_UNROLL
      for (int h = 0; h < 2; ++h) {
        Pair const* row = reinterpret_cast<Pair const*>(c + std::int64_t(m + 8 * h) * ldc + n);
        TESSERA_UNROLL
        for (int j = 0; j < J; ++j) cv[2 * j + h] = row[4 * j];
      }
      TESSERA_UNROLL
      for (int i = 0; i < 2 * J; ++i) {
        x[2 * i] += beta * float(cv[i].x);
        x[2 * i + 1] += beta * float(cv[i].y);
      }
    }
    if (bias != nullptr) {
      TESSERA_UNROLL
      for (int j = 0; j < J; ++j) {
        TESSERA_UNROLL
        for (int h = 0; h < 2; ++h) {
          Pair const b = bias_per_row ? bv[0] : bv[j0 + j];  // constant indices: bv stays in registers
          float const b0 = float(bias_per_row ? (h == 0 ? b.x : b.y) : b.x),
                      b1 = float(bias_per_row ? (h == 0 ? b.x : b.y) : b.y);
          x[4 * j + 2 * h] += b0;
          x[4 * j + 2 * h + 1] += b1;
        }
      }
    }
    activate(x);
  }

  // D(m,n) = x0, D(m,n+1) = x1 (D's values, converted here): one pair store where both are inside
  // the M x N matrix and pairs are aligned, else element by element; only elements inside D are
  // stored (n even or not).
  __device__ void store_pair(float x0, float x1, int m, int n, int M, int N) const {
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
  // and 2j+1 are neighbouring columns of one row (stored as one pair). In groups of 8 values (few
  // registers live beside the accumulators while C and bias are read), or 32 when Compact (values).
  template <int NV, bool Compact = false, class Acc, class Coord>
  __device__ __forceinline__ void store(Acc const& acc, Coord const& coord, int M, int N) const {
    constexpr int Group = Compact ? 32 : 8;
    constexpr int G = NV % Group == 0 ? Group : NV;
    static_assert(NV % G == 0 && G % 2 == 0, "GemmEpilogue::store: an even number of values");
    TESSERA_UNROLL
    for (int g = 0; g < NV / G; ++g) {
      float x[G];
      values<Compact>(
          x, [&](int k) { return acc(g * G + k); }, [&](int k) { return coord(g * G + k); });
      TESSERA_UNROLL
      for (int k = 0; k < G; k += 2) {
        auto const mn = coord(g * G + k);
        store_pair(x[k], x[k + 1], get<0>(mn), get<1>(mn), M, N);
      }
    }
  }
};

#if !defined(__CUDACC_RTC__)  // host only: made by the launcher, passed to the kernel
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
  e.last_m = p.m - 1;
  e.last_n = p.n - 1;
  auto const pair_aligned = [](void const* q) { return reinterpret_cast<std::uintptr_t>(q) % (2 * sizeof(TOut)) == 0; };
  e.fragment_pairs =
      (p.beta == 0.0f || (p.ldc % 2 == 0 && pair_aligned(p.c))) && (p.bias == nullptr || pair_aligned(p.bias));
  e.plain = gemm_epilogue_plain(p);
  return e;
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels::detail
