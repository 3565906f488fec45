// Hopper GEMMs (docs/performance.md, "Hopper GEMM"), a ladder kept step by step:
//   gemm_sm90_tma<Cfg, T, TOut>(problem, stream)  step 1: TMA loads into a ring of shared-memory
//                                                 stages completing on mbarriers, wgmma from shared
//                                                 memory, one warpgroup (GemmSm90Config)
//   gemm_sm90_ws<Cfg, T, TOut>(problem, stream)   step 2: warp-specialized: a producer warpgroup
//                                                 (few registers, setmaxnreg) issues the TMA loads,
//                                                 BM/64 consumer warpgroups the wgmmas; full and
//                                                 empty barriers per stage (GemmSm90WsConfig)
//   gemm_sm90_persistent<Cfg, T, TOut>(...)       step 3 (first part): step 2 with one block per SM
//                                                 walking the tiles; the producer runs on into the
//                                                 next tile while the consumers store the last,
//                                                 through shared memory (stmatrix) and TMA stores
//                                                 that run on into the next tile's main loop
//   gemm_sm90_cluster<Cfg, T, TOut>(...)          step 3 (second part): clusters of 2 x 1 blocks
//                                                 along M share B's tile: each block loads half of
//                                                 it and multicasts it to both; a stage is refilled
//                                                 once the consumers of both blocks released it
//   gemm_sm90_pingpong<Cfg, T, TOut>(...)         step 3c: persistent, two consumer warpgroups
//                                                 each owning whole 128 x 128 tiles in turn: one
//                                                 stores while the other multiplies
//   gemm_sm90_stream_k<Cfg, T, TOut>(...)         step 3d: step 3a whose blocks share out the k-tiles
//                                                 of a partial last wave of tiles (stream-K), so
//                                                 that no SM idles at the end
//   gemm_sm90<T, TOut>(problem, stream)           the kernel and tile for the shape (the rule:
//                                                 above gemm_sm90): gemm_sm90_persistent (as fast
//                                                 as the cluster kernel, and simpler) with the
//                                                 tile that keeps the SMs busiest, else the
//                                                 ping-pong kernel or stream-K; stream-K over every
//                                                 tile where there are fewer tiles than SMs (the
//                                                 narrow shapes: few rows or columns, long K)
//   gemm_sm90_fp8<Cfg, T, TOut>(problem, stream)  8-bit float A and B (e4m3, e5m2; K-major) with
//                                                 per-tensor or per-row/column scales
//                                                 (GemmFp8Problem) on the persistent kernels
//   gemm_sm90_fp8_block<Cfg, T, TOut>(problem, ...)  the same with block scales (1 x 128 of A,
//                                                 128 x 128 of B), sums promoted every 128 of K
// D = act(alpha A B + beta C + bias) (GemmProblem) for T = half_t or bfloat16_t, fp32 accumulation,
// TOut = float, half_t or bfloat16_t; any M, N, K >= 1 (TMA reads zeros outside the matrices, the
// epilogue stores only inside D); A and B row- or column-major. Operands TMA cannot address (not
// 16-byte aligned, or a row pitch or row length that is not a multiple of 16 bytes:
// gemm_sm90_tma_addressable) are first packed into aligned buffers; a D that TMA cannot address is
// stored from registers (GemmEpilogue::store_pair).
// Where things are: the kernels (device code) in kernels/gemm/sm90_kernel.cuh, as roles on the
// Hopper skeleton (sm90/: the warp-specialized kernel template, shared storage, tile schedulers,
// launch policy; pipeline/: the TMA ring, the ordered barrier, the TMA-store ring); the
// configurations in kernels/gemm/sm90_config.hpp; the host policy (which configuration for which
// shape, stream-K's split, the raster, the switches) in kernels/gemm/sm90_policy.hpp; this header
// holds the launchers. The persistent kernels (3a-3d) are launched with programmatic dependent
// launch: their set-up overlaps the end of the stream's previous kernel, and each thread waits for
// that kernel before its first access of global memory (TESSERA_GEMM_SM90_PDL=0 turns it off:
// gemm_sm90_dependent_launch_enabled).
#pragma once

#include "tessera/kernels/gemm/sm90_config.hpp"
#include "tessera/kernels/gemm/sm90_kernel.cuh"
#include "tessera/kernels/gemm_epilogue.cuh"
#include "tessera/kernels/gemm_problem.hpp"

#if !defined(__CUDACC_RTC__)  // host only: the launchers (a run-time compiled kernel is launched by its caller)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tessera/kernels/gemm/sm90_policy.hpp"
#include "tessera/sm90/launch.cuh"
#include "tessera/sm90/stream_workspace.cuh"

namespace tessera::kernels {
namespace detail {

// TMA addresses a matrix directly when it starts 16-byte aligned and both its row pitch and its
// row length (the contiguous extent) are multiples of 16 bytes. The row length because a TMA store
// bounds a row in whole 16-byte units: on the H200 a store into a row that ends inside a unit also
// wrote the rest of that unit (the padding after the row); loads are held to the same rule (a
// packed operand's rows are padded with zeros to whole units).
template <class T>
bool gemm_sm90_tma_addressable(T const* p, int ld, int contiguous) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && (std::size_t(ld) * sizeof(T)) % 16 == 0 &&
         (std::size_t(contiguous) * sizeof(T)) % 16 == 0;
}

// How gemm_sm90_launch starts the kernel it has prepared: launch(config, GemmSm90Kernel<...>{},
// args...). The default launches the kernel nvcc compiled (`compiled`: gemm_sm90_launch raises its
// shared-memory limit through the runtime). A launcher with compiled = false starts a run-time
// compiled kernel of the same name instead, with the same configuration and arguments, and raises
// the limit itself (bench/cases/gemm_cases.cu: the JIT's build); nvcc's kernel is then not named,
// so not compiled. Clusters (ClusterM > 1) need the compiled kernel (the occupancy query).
struct GemmSm90Launch {
  static constexpr bool compiled = true;
  template <class Kernel, class... Args>
  cudaError_t operator()(cudaLaunchConfig_t const& config, Kernel, Args const&... args) const {
    return cudaLaunchKernelEx(&config, Kernel::function(), args...);
  }
};

// gemm_sm90_launch<Cfg, T, TOut, AK, BK>(p, ep, stream, sms_limit, launch): the kernel's arguments
// (the values, and the tensor maps from the operands' layouts and the boxes the kernel reads and writes:
// gemm_sm90_load_box, gemm_sm90_epilogue_box; A (M,K), B seen as (N,K), D (M,N)) and its launch
// (sm90::Launch: one block per tile, or per SM for the persistent kernels, whole clusters; the
// persistent kernels with programmatic dependent launch; stream-K cooperative, with the stream's
// workspace). sms_limit: the persistent blocks at most (0: one per SM). scales: the fp8 product's
// (GemmSm90Scales; unused for 16-bit T). An fp8 operand is described to TMA in 16-bit units (element
// pairs, gemm_sm90_unit_t): (M, K/2) with ld/2.
template <class Cfg, class T, class TOut, bool AK, bool BK, class Launch = GemmSm90Launch>
cudaError_t gemm_sm90_launch(GemmProblem<T, TOut> const& p, GemmEpilogue<TOut> const& ep, cudaStream_t stream,
                             int sms_limit, Launch const& launch = {}, GemmSm90Scales const& scales = {}) {
  using Kernel = GemmSm90Kernel<Cfg, T, TOut, AK, BK>;
  using U = gemm_sm90_unit_t<T>;
  constexpr int per = kGemmSm90PerUnit<T>;  // elements a unit
  static_assert(per == 1 || (AK && BK), "gemm_sm90_launch: fp8 operands are K-major only");
  constexpr int cm = gemm_sm90_cluster_m<Cfg>;
  constexpr bool persistent = gemm_sm90_persistent_config<Cfg>;
  typename Kernel::Params params{};
  typename Kernel::Maps maps{};
  params.M = p.m;
  params.N = p.n;
  params.K = p.k / per;  // units (pre, fp8: K even)
  params.ep = ep;
  params.scales = scales;
  // The epilogue through shared memory and TMA where the config has the buffers and D is
  // TMA-addressable, else from registers.
  params.tma_store_d = Cfg::kEpilogueBytes > 0 && gemm_sm90_tma_addressable(p.d, p.ldd, p.n);
  auto const gA = AK ? make_layout(make_shape(p.m, params.K), make_stride(p.lda / per, 1))
                     : make_layout(make_shape(p.m, params.K), make_stride(1, p.lda));
  auto const gB = BK ? make_layout(make_shape(p.n, params.K), make_stride(p.ldb / per, 1))
                     : make_layout(make_shape(p.n, params.K), make_stride(1, p.ldb));
  auto const* a = reinterpret_cast<U const*>(p.a);
  auto const* b = reinterpret_cast<U const*>(p.b);
  maps.tma_a = GemmSm90TmaA<Cfg, T, AK>{make_tma_desc(a, gA, gemm_sm90_load_box<Cfg::BM, Cfg::BK, AK>())};
  maps.tma_b = GemmSm90TmaB<Cfg, T, BK, cm>{make_tma_desc(b, gB, gemm_sm90_load_box<Cfg::BN / cm, Cfg::BK, BK>())};
  auto const gD = make_layout(make_shape(p.m, p.n), make_stride(p.ldd, 1));
  maps.tma_d =
      GemmSm90TmaD<TOut>{params.tma_store_d ? make_tma_desc(p.d, gD, gemm_sm90_epilogue_box<TOut>()) : TmaDescriptor{}};
  constexpr int smem = gemm_sm90_smem_bytes<Cfg, T>();
  int device = 0, sms = 0;
  if (cudaError_t const e = sm90::current_device(device, sms); e != cudaSuccess) return e;
  if (sms_limit > 0) sms = std::min(sms, sms_limit);
  if constexpr (Launch::compiled) {
    if (cudaError_t const e =
            sm90::raise_shared_limit<Kernel>(reinterpret_cast<void const*>(Kernel::function()), smem, device);
        e != cudaSuccess)
      return e;
  }
  unsigned const tiles_m = unsigned((p.m + Cfg::BM - 1) / Cfg::BM), tiles_n = unsigned((p.n + Cfg::BN - 1) / Cfg::BN);
  unsigned blocks = (tiles_m + cm - 1) / cm * cm * tiles_n;  // whole clusters
  if constexpr (persistent)
    blocks = std::min(blocks, unsigned(sms) / cm * cm);  // one block per SM (at most one per tile)
  params.raster = gemm_sm90_raster_rows(sms / cm, Cfg::BM * cm, Cfg::BN);
  sm90::Launch config{dim3(blocks), dim3(Cfg::kThreads), smem, stream};
  if (cm > 1) config.cluster(cm);
  if (persistent && gemm_sm90_dependent_launch_enabled()) config.dependent();
  if constexpr (cm > 1 && persistent) {
    // Not every SM can hold a block of a cluster (the GPCs' SM counts need not be multiples of
    // the cluster size): a persistent grid is only as large as the clusters that fit at once.
    static_assert(Launch::compiled, "gemm_sm90_launch: a cluster's occupancy is asked of the compiled kernel");
    int clusters = 0;
    if (cudaError_t const e = cudaOccupancyMaxActiveClusters(&clusters, Kernel::function(), &config.config());
        e != cudaSuccess)
      return e;
    if (clusters > 0) config.grid(dim3(std::min(blocks, unsigned(clusters) * cm)));
  }
  if constexpr (gemm_sm90_stream_k_config<Cfg>) {
    // The blocks and the tiles they share out (gemm_sm90_stream_k_plan: the last tiles' k-tiles, or,
    // with fewer tiles than SMs, every tile's over up to twice as many blocks as tiles).
    GemmSm90StreamKPlan const plan =
        gemm_sm90_stream_k_plan((long long)tiles_m * tiles_n, (params.K + Cfg::BK - 1) / Cfg::BK, sms);
    if (plan.tiles > 0) {
      // A block waits for others (the owner of a split tile for its contributors): the launch is
      // cooperative (sm90::Launch::cooperative_only). A launch captured into a graph gets no
      // workspace and runs without stream-K, so without waits, a block a tile.
      int const units = plan.units;
      std::size_t const partial_bytes = std::size_t(units) * Cfg::kConsumers * 128 * (Cfg::BN / 2) * sizeof(float);
      return sm90::StreamWorkspaces::get().launch(
          device, stream, partial_bytes, units * Cfg::kConsumers, [&](sm90::StreamWorkspace const& ws) {
            if (ws.flags != nullptr) {
              params.sk = GemmSm90StreamK{reinterpret_cast<float*>(ws.data), ws.flags, ws.epoch, plan.tiles};
              config.grid(dim3(unsigned(units)));
              config.cooperative_only();
            }
            return launch(config.config(), Kernel{}, params, maps);
          });
    }
  }
  return launch(config.config(), Kernel{}, params, maps);
}

// The launchers' common part: checks, row-major D, packing, dispatch on the operands' majors.
template <class Cfg, class T, class TOut, class Launch = GemmSm90Launch>
cudaError_t gemm_sm90_run(char const* fn, GemmProblem<T, TOut> const& problem, cudaStream_t stream, int sms_limit = 0,
                          Launch const& launch = {}) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "gemm_sm90: A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm90: C and D must be float, half_t or bfloat16_t");
  check_gemm_problem(fn, problem);
  GemmProblem<T, TOut> p = gemm_as_row_major_d(problem);
  T* packed[2] = {nullptr, nullptr};
  // Operands TMA cannot address are packed into aligned buffers with rows padded to 8 elements.
  auto pack = [&](T const*& ptr, int& ld, Major major, int rows, int cols, T*& out) -> cudaError_t {
    int const contiguous = major == Major::row ? cols : rows;
    if (gemm_sm90_tma_addressable(ptr, ld, contiguous)) return cudaSuccess;
    int const lines = major == Major::row ? rows : cols;
    int const ld_packed = (contiguous + 7) / 8 * 8;
    std::size_t const count = std::size_t(lines) * std::size_t(ld_packed);
    if (cudaError_t const e = cudaMallocAsync(reinterpret_cast<void**>(&out), count * sizeof(T), stream);
        e != cudaSuccess)
      return e;
    gemm_pack_kernel<T><<<unsigned((count + 255) / 256), 256, 0, stream>>>(ptr, ld, lines, contiguous, out, ld_packed);
    ptr = out;
    ld = ld_packed;
    return cudaGetLastError();
  };
  cudaError_t e = pack(p.a, p.lda, p.a_major, p.m, p.k, packed[0]);
  if (e == cudaSuccess) e = pack(p.b, p.ldb, p.b_major, p.k, p.n, packed[1]);
  if (e == cudaSuccess) {
    bool const ak = p.a_major == Major::row;  // A (M,K) K-major
    bool const bk = p.b_major == Major::col;  // B (K,N) as (N,K): K-major when column-major
    GemmEpilogue<TOut> const ep = make_gemm_epilogue(problem, p);
    if (ak && bk) e = gemm_sm90_launch<Cfg, T, TOut, true, true>(p, ep, stream, sms_limit, launch);
    else if (ak) e = gemm_sm90_launch<Cfg, T, TOut, true, false>(p, ep, stream, sms_limit, launch);
    else if (bk) e = gemm_sm90_launch<Cfg, T, TOut, false, true>(p, ep, stream, sms_limit, launch);
    else e = gemm_sm90_launch<Cfg, T, TOut, false, false>(p, ep, stream, sms_limit, launch);
  }
  for (T* q : packed)
    if (q != nullptr) (void)cudaFreeAsync(q, stream);
  return e;
}

// The scales of an fp8 problem as the kernel takes them, for the row-major-D form: a column-major D
// is computed transposed (D^T = B^T A^T), so A's row scales become the columns' and B's the rows'.
// Block scales (row-major D only) pass their k-block strides: A's M, B's ceil(K/128).
template <class T, class TOut>
GemmSm90Scales gemm_sm90_scales(GemmFp8Problem<T, TOut> const& problem) {
  GemmSm90Scales k;
  if (problem.scale_a.kind == GemmScaleKind::block) {
    k.a = problem.scale_a.data;
    k.a_step = problem.m;
    k.b = problem.scale_b.data;
    k.b_step = (problem.k + 127) / 128;
    return k;
  }
  auto const one = [](GemmScale const& s, float const*& data, int& step) {
    data = s.kind == GemmScaleKind::none ? nullptr : s.data;
    step = s.kind == GemmScaleKind::vector ? 1 : 0;
  };
  bool const flip = problem.cd_major == Major::col;
  one(flip ? problem.scale_b : problem.scale_a, k.a, k.a_step);
  one(flip ? problem.scale_a : problem.scale_b, k.b, k.b_step);
  return k;
}

// The fp8 launchers' common part: the fp8 checks (check_gemm_fp8_problem: K-major operands, 16-byte
// rows; nothing is packed), row-major D, the scales, the K-major kernel.
template <class Cfg, class T, class TOut, class Launch = GemmSm90Launch>
cudaError_t gemm_sm90_fp8_run(char const* fn, GemmFp8Problem<T, TOut> const& problem, cudaStream_t stream,
                              int sms_limit = 0, Launch const& launch = {}) {
  static_assert(is_fp8_v<T>, "gemm_sm90_fp8: A and B must be float_e4m3_t or float_e5m2_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm90_fp8: C and D must be float, half_t or bfloat16_t");
  // Clusters: the producer's multicast moves 16-bit units whatever T is, but only the block-scaled
  // kernel's is tested (tests/kernels/gemm_sm90_fp8.cu, GemmSm90ClusterMedium).
  static_assert(!is_ws_config<Cfg> || Cfg::ClusterM == 1 || gemm_sm90_block_scaled_config<Cfg>,
                "gemm_sm90_fp8: no cluster configurations for fp8 yet (gemm_sm90_fp8_block has them)");
  check_gemm_fp8_problem(fn, problem);
  bool const block = problem.scale_a.kind == GemmScaleKind::block;
  if (block != gemm_sm90_block_scaled_config<Cfg>)
    throw std::invalid_argument(std::string(fn) + (block ? ": block scales are run by gemm_sm90_fp8_block"
                                                         : ": gemm_sm90_fp8_block needs block scales for A and B; "
                                                           "other scales are run by gemm_sm90_fp8"));
  GemmProblem<T, TOut> const& base = problem;
  GemmProblem<T, TOut> const p = gemm_as_row_major_d(base);  // still K-major: (row A, col B) flips to itself
  return gemm_sm90_launch<Cfg, T, TOut, true, true>(p, make_gemm_epilogue(base, p), stream, sms_limit, launch,
                                                    gemm_sm90_scales(problem));
}
}  // namespace detail

// gemm_sm90_tma<Cfg, T, TOut>(problem, stream), gemm_sm90_ws<Cfg, T, TOut>(problem, stream):
// D = alpha A B + beta C by step 1 / step 2 of the ladder (see the file comment); gemm_sm90 is the
// fastest. Pre: the problem passes check_gemm_problem (else invalid_argument naming the problem);
// a device of compute capability 9.0 (the sm_90a build).
template <class Cfg = GemmSm90Default, class T, class TOut>
cudaError_t gemm_sm90_tma(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(!detail::is_ws_config<Cfg>, "gemm_sm90_tma: give a GemmSm90Config");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_tma", problem, stream);
}
template <class Cfg = GemmSm90WsDefault, class T, class TOut>
cudaError_t gemm_sm90_ws(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_ws_config<Cfg> && !Cfg::Persistent,
                "gemm_sm90_ws: give a GemmSm90WsConfig (not persistent)");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_ws", problem, stream);
}
template <class Cfg = GemmSm90PersistentDefault, class T, class TOut>
cudaError_t gemm_sm90_persistent(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_ws_config<Cfg> && Cfg::Persistent && Cfg::ClusterM == 1,
                "gemm_sm90_persistent: give a GemmSm90WsConfig<..., true>");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_persistent", problem, stream);
}
template <class Cfg = GemmSm90PingpongDefault, class T, class TOut>
cudaError_t gemm_sm90_pingpong(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_pingpong_config<Cfg>, "gemm_sm90_pingpong: give a GemmSm90PingpongConfig");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_pingpong", problem, stream);
}
// gemm_sm90_stream_k<Cfg>(problem, stream, sms): step 3d, gemm_sm90_persistent whose blocks share
// the last tiles' k-tiles out evenly, or with fewer tiles than blocks every tile's (stream-K:
// gemm_sm90_stream_k_plan). sms: the persistent
// blocks at most (0: one per SM). Uses the stream's workspace (sm90::StreamWorkspaces: BM x BN fp32
// values a block, 17 MB for 128x256 tiles on 132 SMs, kept until gemm_sm90_release_workspaces).
template <class Cfg = GemmSm90StreamKDefault, class T, class TOut>
cudaError_t gemm_sm90_stream_k(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr, int sms = 0) {
  static_assert(detail::is_ws_config<Cfg> && Cfg::StreamK,
                "gemm_sm90_stream_k: give a GemmSm90WsConfig<..., true, 1, true>");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_stream_k", problem, stream, sms);
}
// gemm_sm90_release_workspaces(): frees the stream-K workspaces of every stream and device (each
// device is synchronized first); later launches allocate again.
inline cudaError_t gemm_sm90_release_workspaces() { return sm90::StreamWorkspaces::get().release_all(); }
template <class Cfg = GemmSm90ClusterDefault, class T, class TOut>
cudaError_t gemm_sm90_cluster(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(detail::is_ws_config<Cfg> && Cfg::Persistent && Cfg::ClusterM > 1,
                "gemm_sm90_cluster: give a GemmSm90WsConfig<..., true, 2>");
  return detail::gemm_sm90_run<Cfg>("gemm_sm90_cluster", problem, stream);
}
// gemm_sm90_fp8<Cfg>(problem, stream, sms): D = act(alpha sa(m) sb(n) A B + beta C + bias) for 8-bit
// float A and B (GemmFp8Problem: e4m3 or e5m2, K-major, per-tensor or per-row/column scales), fp32
// accumulation (wgmma's: see docs/gemm-fp8.md for its precision), D of float, half_t or bfloat16_t,
// on configuration Cfg (a persistent GemmSm90WsConfig without clusters or stream-K, or a
// GemmSm90PingpongConfig; the
// default is gemm_sm90's 128x256 persistent tile: 128 x 128 fp8 elements of K a stage). sms: the
// persistent blocks at most (0: one per SM). Pre: check_gemm_fp8_problem (else invalid_argument
// naming the violation and the fix, before anything is launched); a device of compute capability
// 9.0. Example: docs/gemm-fp8.md.
template <class Cfg = GemmSm90PersistentDefault, class T, class TOut>
cudaError_t gemm_sm90_fp8(GemmFp8Problem<T, TOut> const& problem, cudaStream_t stream = nullptr, int sms = 0) {
  static_assert(detail::is_pingpong_config<Cfg> ||
                    (detail::gemm_sm90_persistent_config<Cfg> && !detail::gemm_sm90_stream_k_config<Cfg>),
                "gemm_sm90_fp8: give a persistent GemmSm90WsConfig (not stream-K: its fp8 kernel spills, 40 bytes "
                "with 128x256 tiles) or a GemmSm90PingpongConfig");
  return detail::gemm_sm90_fp8_run<Cfg>("gemm_sm90_fp8", problem, stream, sms);
}
// gemm_sm90_fp8_block<Cfg>(problem, stream, sms): gemm_sm90_fp8 with block scales (scale_a and
// scale_b of kind GemmScaleKind::block: A's per 1 x 128 block, B's per 128 x 128, DeepSeek-V3's),
// the tensor cores' fp8 sums of each 128 elements of K promoted to fp32 with their scales (so the
// accuracy holds for long K). Cfg: a persistent GemmSm90WsConfig with BN dividing 128 or 192 (two
// sets of accumulators), clusters allowed; by default GemmSm90PersistentTall (192 x 128 tiles,
// three consumer warpgroups: the fastest on the H200); GemmSm90PersistentMedium (128 x 128),
// GemmSm90PersistentWide (128 x 192) and GemmSm90ClusterMedium (128 x 128, clusters of two) are
// tested too. Pre: as gemm_sm90_fp8, a row-major D.
template <class Cfg = GemmSm90PersistentTall, class T, class TOut>
cudaError_t gemm_sm90_fp8_block(GemmFp8Problem<T, TOut> const& problem, cudaStream_t stream = nullptr, int sms = 0) {
  return detail::gemm_sm90_fp8_run<GemmSm90BlockScaled<Cfg>>("gemm_sm90_fp8_block", problem, stream, sms);
}

namespace detail {
// gemm_sm90_choice<Cfg>(problem, stream): gemm_sm90's launch of configuration Cfg.
// Pre: Cfg is one of GemmSm90Choices (else it does not compile, naming TESSERA_GEMM_SM90_CHOICES).
// Post: what gemm_sm90_run<Cfg>("gemm_sm90", problem, stream) returns.
// Example: gemm_sm90_choice<GemmSm90PersistentWide>(p, s) launches 128x192 tiles;
// gemm_sm90_choice<GemmSm90Default>(p, s) is a compile-time error (a ladder step, not a choice).
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm90_choice(GemmProblem<T, TOut> const& problem, cudaStream_t stream) {
  static_assert(gemm_sm90_listed<Cfg, GemmSm90Choices>,
                "gemm_sm90 runs a configuration that TESSERA_GEMM_SM90_CHOICES does not list: add it there");
  return gemm_sm90_run<Cfg>("gemm_sm90", problem, stream);
}
}  // namespace detail

namespace detail {
// gemm_sm90_pick_launch(pick, problem, stream): gemm_sm90's launch of the configuration of `pick`.
// Pre: the problem passes check_gemm_problem. Post: what gemm_sm90_choice<Cfg> returns.
template <class T, class TOut>
cudaError_t gemm_sm90_pick_launch(GemmSm90Pick pick, GemmProblem<T, TOut> const& problem, cudaStream_t stream) {
  switch (pick) {
    case GemmSm90Pick::wide: return gemm_sm90_choice<GemmSm90PersistentWide>(problem, stream);
    case GemmSm90Pick::pingpong: return gemm_sm90_choice<GemmSm90PingpongDefault>(problem, stream);
    case GemmSm90Pick::stream_k: return gemm_sm90_choice<GemmSm90StreamKDefault>(problem, stream);
    case GemmSm90Pick::stream_k_medium: return gemm_sm90_choice<GemmSm90StreamKMedium>(problem, stream);
    case GemmSm90Pick::stream_k_small: return gemm_sm90_choice<GemmSm90StreamKSmall>(problem, stream);
    case GemmSm90Pick::stream_k_narrow: return gemm_sm90_choice<GemmSm90StreamKNarrow>(problem, stream);
    case GemmSm90Pick::large: return gemm_sm90_choice<GemmSm90PersistentDefault>(problem, stream);
    case GemmSm90Pick::medium: return gemm_sm90_choice<GemmSm90PersistentMedium>(problem, stream);
    case GemmSm90Pick::small: return gemm_sm90_choice<GemmSm90PersistentSmall>(problem, stream);
    case GemmSm90Pick::tall: break;  // the block-scaled fp8 kernel's tile: never gemm_sm90's
  }
  return cudaErrorInvalidValue;
}
}  // namespace detail

// gemm_sm90(problem, stream): the configuration gemm_sm90_pick chooses for the shape (see there:
// the persistent kernel with the tile that keeps the SMs busiest, else 128x192 tiles, the ping-pong
// kernel or stream-K; for fewer tiles than SMs and long K, stream-K splitting every tile), launched;
// a stream-K configuration falls back to gemm_sm90_pick_data_parallel's (the data-parallel kernel)
// when its cooperative launch is refused or its workspace cannot be allocated. The figures of each
// choice: docs/performance.md and docs/performance/log.md.
template <class T, class TOut>
cudaError_t gemm_sm90(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  detail::check_gemm_problem("gemm_sm90", problem);  // invalid problems throw before the device is asked
  int device = 0, sms = 0;
  if (cudaError_t const e = sm90::current_device(device, sms); e != cudaSuccess) return e;
  // the tiles of D as the kernel computes it (row-major: a column-major D is computed transposed)
  long long const m = problem.cd_major == Major::row ? problem.m : problem.n;
  long long const n = problem.cd_major == Major::row ? problem.n : problem.m;
  bool const plain16 = sizeof(TOut) == 2 && detail::gemm_epilogue_plain(problem);
  GemmSm90Pick const pick = gemm_sm90_pick(m, n, problem.k, plain16, sms);
  cudaError_t const e = detail::gemm_sm90_pick_launch(pick, problem, stream);
  if (!gemm_sm90_pick_is_stream_k(pick) || (e != cudaErrorCooperativeLaunchTooLarge && e != cudaErrorMemoryAllocation))
    return e;
  (void)cudaGetLastError();  // not sticky: run the data-parallel kernel instead
  return detail::gemm_sm90_pick_launch(gemm_sm90_pick_data_parallel(m, n, problem.k, plain16, sms), problem, stream);
}

}  // namespace tessera::kernels
#endif  // !__CUDACC_RTC__
