// The Hopper grouped GEMM's launchers (docs/gemm-grouped.md): D_g = alpha A_g B_g for the groups of
// a GemmGroupedProblem (kernels/gemm_grouped_problem.hpp), one launch of the warp-specialized kernel
// over all groups (kernels/gemm/sm90_grouped_kernel.cuh) after a one-block kernel that turns the groups'
// row bounds into tile prefix sums.
//   gemm_sm90_grouped<Cfg>(problem, stream)   the configuration Cfg (a persistent GemmSm90WsConfig)
//   gemm_sm90_grouped(problem, stream)        the tile for the groups' sizes (gemm_sm90_grouped_pick)
//   gemm_sm90_grouped_fp8[<Cfg>](problem, stream)  8-bit float A and B with scales (GemmGroupedFp8Problem)
// T = half_t or bfloat16_t, TOut = float, half_t or bfloat16_t, fp32 accumulation. Throws
// std::invalid_argument for an invalid problem (check_gemm_grouped_problem); returns the CUDA error
// of an allocation or launch.
#pragma once

#include "tessera/kernels/gemm/sm90_grouped_kernel.cuh"
#include "tessera/kernels/gemm/sm90_grouped_policy.hpp"
#include "tessera/kernels/gemm_grouped_problem.hpp"
#include "tessera/kernels/gemm_sm90.cuh"

#if !defined(__CUDACC_RTC__)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tessera/sm90/launch.cuh"

namespace tessera::kernels {

namespace detail {

// The launch (both element widths): the maps in units of gemm_sm90_unit_t<T> (an fp8 matrix (R, K)
// with ld is described as a 16-bit matrix (R, K/2) with ld/2), the prepare kernel, the grouped kernel.
// scales, b_group_step: the fp8 scales (GemmSm90GroupedParams), unused for 16-bit T.
template <class Cfg, class T, class TOut, bool BK>
cudaError_t gemm_sm90_grouped_launch(GemmGroupedProblem<T, TOut> const& p, cudaStream_t stream, int sms_limit,
                                     GemmSm90Scales const& scales = {}, int b_group_step = 0) {
  using Kernel = GemmSm90GroupedKernel<Cfg, T, TOut, BK>;
  using U = gemm_sm90_unit_t<T>;
  constexpr int per = kGemmSm90PerUnit<T>;  // elements a unit
  long long const total = gemm_grouped_total_rows(p);
  if (total == 0) return cudaSuccess;  // every group empty: nothing to write
  int device = 0, sms = 0;
  if (cudaError_t const e = sm90::current_device(device, sms); e != cudaSuccess) return e;
  if (sms_limit > 0) sms = std::min(sms, sms_limit);
  constexpr int smem = gemm_sm90_smem_bytes<Cfg, T>();
  if (cudaError_t const e =
          sm90::raise_shared_limit<Kernel>(reinterpret_cast<void const*>(Kernel::function()), smem, device);
      e != cudaSuccess)
    return e;

  typename Kernel::Params params{};
  typename Kernel::Maps maps{};
  params.groups = p.groups;
  params.N = p.n;
  params.K = p.k / per;  // units (pre, fp8: K a multiple of 16)
  params.scales = scales;
  params.b_group_step = b_group_step;
  params.ep.alpha = p.alpha;
  params.ep.d = p.d;
  params.ep.ldd = p.ldd;
  params.ep.pairs_aligned = true;  // ldd a multiple of 8, D 16-byte aligned (checked)
  params.ep.plain = true;
  params.ep.last_m = int(total - 1);
  params.ep.last_n = p.n - 1;
  params.tma_store_d = true;  // D is TMA-addressable (checked)
  int const rows_total = int(total);
  maps.tma_a = GemmSm90TmaA<Cfg, T, true>{make_tma_desc(
      reinterpret_cast<U const*>(p.a), make_layout(make_shape(rows_total, params.K), make_stride(p.lda / per, 1)),
      gemm_sm90_load_box<Cfg::BM, Cfg::BK, true>())};
  maps.tma_d = GemmSm90TmaD<TOut>{make_tma_desc(p.d, make_layout(make_shape(rows_total, p.n), make_stride(p.ldd, 1)),
                                                gemm_sm90_epilogue_box<TOut>())};
  {
    // B: (inner, outer, group, 1) with each group's matrix bounded (K-major: (K, N); N-major: (N, K)).
    std::uint64_t const e = sizeof(T);  // strides in bytes; extents in units
    std::uint64_t const dims[4] = {std::uint64_t(BK ? params.K : p.n), std::uint64_t(BK ? p.n : p.k),
                                   std::uint64_t(p.groups), 1};
    std::uint64_t const strides[3] = {std::uint64_t(p.ldb) * e, std::uint64_t(p.stride_b) * e,
                                      std::uint64_t(p.stride_b) * e * std::uint64_t(p.groups)};
    std::uint32_t const box[4] = {64, BK ? std::uint32_t(Cfg::BN) : std::uint32_t(Cfg::BK), 1, 1};
    maps.b = make_tma_desc_4d(p.b, int(sizeof(U)), dims, strides, box, TmaSwizzle::b128);
  }

  // The prepared rows: tile_offsets (groups + 1), begin, end (groups each).
  int* ws = nullptr;
  std::size_t const ints = 3 * std::size_t(p.groups) + 1;
  if (cudaError_t const e = cudaMallocAsync(reinterpret_cast<void**>(&ws), ints * sizeof(int), stream);
      e != cudaSuccess)
    return e;
  params.rows = GemmSm90GroupedRows{ws, ws + p.groups + 1, ws + 2 * p.groups + 1};
  GemmSm90RowsForm const form = p.form == GemmGroupedForm::offsets ? GemmSm90RowsForm::offsets
                                : p.form == GemmGroupedForm::ends  ? GemmSm90RowsForm::ends
                                                                   : GemmSm90RowsForm::masked;
  int const tiles_n = (p.n + Cfg::BN - 1) / Cfg::BN;
  gemm_sm90_grouped_prepare<><<<1, kGemmSm90PrepareThreads, 0, stream>>>(p.rows, form, p.groups, rows_total, p.m,
                                                                         Cfg::BM, tiles_n, params.rows);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) {
    // The tiles are counted on the device: one block per SM, the blocks past the last tile return.
    sm90::Launch config{dim3(unsigned(sms)), dim3(Cfg::kThreads), smem, stream};
    if (gemm_sm90_dependent_launch_enabled()) config.dependent();
    e = cudaLaunchKernelEx(&config.config(), Kernel::function(), params, maps);
  }
  (void)cudaFreeAsync(ws, stream);
  return e;
}

}  // namespace detail

// gemm_sm90_grouped<Cfg>(problem, stream, sms_limit): the grouped GEMM with Cfg's tile (a persistent
// GemmSm90WsConfig without clusters or stream-K: GemmSm90GroupedLarge or GemmSm90GroupedSmall).
// sms_limit: the persistent blocks at most (0: one per SM).
// Pre: check_gemm_grouped_problem's (else std::invalid_argument). Post: D_g written for every
// group's valid rows; nothing else of D.
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm90_grouped(GemmGroupedProblem<T, TOut> const& problem, cudaStream_t stream = nullptr,
                              int sms_limit = 0) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "gemm_sm90_grouped: A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm90_grouped: D must be float, half_t or bfloat16_t");
  detail::check_gemm_grouped_problem("gemm_sm90_grouped", problem);
  if (problem.b_major == Major::col)
    return detail::gemm_sm90_grouped_launch<Cfg, T, TOut, true>(problem, stream, sms_limit);
  return detail::gemm_sm90_grouped_launch<Cfg, T, TOut, false>(problem, stream, sms_limit);
}

// gemm_sm90_grouped(problem, stream): the tile gemm_sm90_grouped_pick chooses for the groups' sizes.
template <class T, class TOut>
cudaError_t gemm_sm90_grouped(GemmGroupedProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  detail::check_gemm_grouped_problem("gemm_sm90_grouped", problem);
  if (gemm_sm90_grouped_pick(detail::gemm_grouped_total_rows(problem), problem.groups) == GemmSm90GroupedPick::small)
    return gemm_sm90_grouped<GemmSm90GroupedSmall>(problem, stream);
  return gemm_sm90_grouped<GemmSm90GroupedLarge>(problem, stream);
}

// gemm_sm90_grouped_fp8<Cfg>(problem, stream, sms_limit): the grouped GEMM on 8-bit floats
// (GemmGroupedFp8Problem: e4m3 or e5m2 A and B, B K-major, scales per tensor or row of A and per group
// or group and column of B) with Cfg's tile; gemm_sm90_grouped_fp8(problem, stream) with the tile of
// gemm_sm90_grouped_pick. Pre: check_gemm_grouped_fp8_problem's (else std::invalid_argument).
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm90_grouped_fp8(GemmGroupedFp8Problem<T, TOut> const& problem, cudaStream_t stream = nullptr,
                                  int sms_limit = 0) {
  static_assert(is_fp8_v<T>, "gemm_sm90_grouped_fp8: A and B must be float_e4m3_t or float_e5m2_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm90_grouped_fp8: D must be float, half_t or bfloat16_t");
  detail::check_gemm_grouped_fp8_problem("gemm_sm90_grouped_fp8", problem);
  detail::GemmSm90Scales s;
  s.a = problem.scale_a.kind == GemmScaleKind::none ? nullptr : problem.scale_a.data;
  s.a_step = problem.scale_a.kind == GemmScaleKind::vector ? 1 : 0;
  s.b = problem.scale_b.kind == GemmScaleKind::none ? nullptr : problem.scale_b.data;
  s.b_step = problem.scale_b.kind == GemmScaleKind::vector ? 1 : 0;
  int const b_group_step = problem.scale_b.kind == GemmScaleKind::vector ? problem.n : 1;
  return detail::gemm_sm90_grouped_launch<Cfg, T, TOut, true>(problem, stream, sms_limit, s, b_group_step);
}
template <class T, class TOut>
cudaError_t gemm_sm90_grouped_fp8(GemmGroupedFp8Problem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  detail::check_gemm_grouped_fp8_problem("gemm_sm90_grouped_fp8", problem);
  if (gemm_sm90_grouped_pick(detail::gemm_grouped_total_rows(problem), problem.groups) == GemmSm90GroupedPick::small)
    return gemm_sm90_grouped_fp8<GemmSm90GroupedSmall>(problem, stream);
  return gemm_sm90_grouped_fp8<GemmSm90GroupedLarge>(problem, stream);
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
