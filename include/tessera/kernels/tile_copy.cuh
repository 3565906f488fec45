// tile_copy.cuh -- the asynchronous tile copy (docs/background.md, "Tile copy"): each block copies one (tile_m,tile_n)
// tile of an M x N matrix global -> shared with 128-bit cp.async copies, waits for them
// (cp.async.wait_all + __syncthreads), then copies shared -> global with 128-bit accesses.
//
// Configuration (TileCopyConfig): tile_m rows and num_threads threads a block; tile_n columns,
// by default the published program's (num_threads / tile_m) * VEC, VEC = 16 bytes / sizeof(T), so that every
// thread moves one vector per tile; a larger tile_n gives every thread several vectors in flight.
// tile_copy_check(...) names the violated constraint of an invalid configuration (throws
// std::invalid_argument); tile_copy(...) runs it before launching and returns the launch's
// cudaError_t (docs/errors.md). Any M; N * sizeof(T) must be a multiple of 16 (every row starts on a
// 16-byte boundary, which cp.async of 16 bytes requires). Tiles that overhang the matrix are
// predicated with elem_less on an identity tensor. Column-major runs as the transposed row-major
// problem.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the check and the launcher
#include <cuda_runtime.h>

#include <string>
#endif

#include "tessera/arch/copy_sm80.hpp"
#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/common.cuh"

namespace tessera::kernels {

struct TileCopyConfig {
  int tile_m = 32;        // rows per tile
  int num_threads = 512;  // threads per block
  int tile_n = 0;         // columns per tile; 0: (num_threads / tile_m) * VEC, as in the published program
};

namespace detail {

// Block (bm,bn) copies tile (bm,bn); thread t moves vectors t, t + num_threads, ... of the tile,
// vector v sitting at tile row v / (tile_n/VEC), vector column v % (tile_n/VEC).
template <class T>
__global__ void tile_copy_kernel(T const* src, T* dst, int rows, int cols, std::int64_t ld, int tile_m, int tile_n) {
  constexpr int VEC = 16 / int(sizeof(T));
  extern __shared__ uint4 tile_copy_smem[];
  auto shape_mn = make_shape(rows, cols);
  auto layout = row_layout(rows, cols, ld);  // (m,n) -> offset
  auto tile = make_shape(tile_m, tile_n);    // (TILE_M,TILE_N)
  auto blk = make_coord(int(blockIdx.y), int(blockIdx.x));
  auto gS = local_tile(make_tensor(make_gmem_ptr(src), layout), tile, blk);  // (TILE_M,TILE_N)
  auto gD = local_tile(make_tensor(make_gmem_ptr(dst), layout), tile, blk);  // (TILE_M,TILE_N)
  auto cT = local_tile(make_identity_tensor(shape_mn), tile, blk);           // (TILE_M,TILE_N) -> (m,n)
  auto sT = make_tensor(make_smem_ptr(reinterpret_cast<T*>(tile_copy_smem)),
                        make_layout(tile, make_stride(tile_n, _1{})));  // (TILE_M,TILE_N) row-major

  auto vec = make_shape(_1{}, Int<VEC>{});  // one 128-bit vector
  auto vgS = zipped_divide(gS, vec);        // ((1,VEC),(TILE_M,TILE_N/VEC))
  auto vgD = zipped_divide(gD, vec);        // ((1,VEC),(TILE_M,TILE_N/VEC))
  auto vcT = zipped_divide(cT, vec);        // ((1,VEC),(TILE_M,TILE_N/VEC)) -> (m,n)
  auto vsT = zipped_divide(sT, vec);        // ((1,VEC),(TILE_M,TILE_N/VEC))

  int vec_per_row = tile_n / VEC;
  int vectors = tile_m * vec_per_row;
  // global -> shared: 16-byte cp.async per vector; cols % VEC == 0, so a vector whose first
  // element is inside the matrix lies inside entirely.
  for (int v = int(threadIdx.x); v < vectors; v += int(blockDim.x)) {
    auto vc = make_coord(v / vec_per_row, v % vec_per_row);
    if (elem_less(vcT(make_coord(0, 0), vc), shape_mn)) {
      auto const* src = reinterpret_cast<uint128_t const*>(raw_pointer(vgS(make_coord(0, _), vc).data()));
      auto* dst = reinterpret_cast<uint128_t*>(raw_pointer(vsT(make_coord(0, _), vc).data()));
      SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::copy(*src, *dst);
    }
  }
  cp_async_fence();
  cp_async_wait_all();
  __syncthreads();
  // shared -> global: 128-bit loads from shared memory, 128-bit stores.
  for (int v = int(threadIdx.x); v < vectors; v += int(blockDim.x)) {
    auto vc = make_coord(v / vec_per_row, v % vec_per_row);
    if (elem_less(vcT(make_coord(0, 0), vc), shape_mn)) {
      auto tDsT = vsT(make_coord(0, _), vc);  // (VEC) in shared memory
      auto tDgD = vgD(make_coord(0, _), vc);  // (VEC) in global memory
      copy_128(tDsT, tDgD);
    }
  }
}

}  // namespace detail

// tile_copy_static<T, Layout, TileM, Threads>: the published program as the JIT instantiates it for
// the tensors it is handed (docs/jit.md). Layout: the (M,N) -> element offset layout of src and dst,
// every extent and stride static (tessera.jit.layout_of(t)), unit stride along N. Threads (tm,tn)
// = (TileM, Threads/TileM):(Threads/TileM, 1) each move one 128-bit vector (1,VEC), VEC =
// 16 / sizeof(T): the tile is (TileM, Threads/TileM * VEC). Block (bx,by) copies tile (by,bx)
// global -> shared with cp.async (a TiledCopy of SM80_CP_ASYNC_CACHEGLOBAL), waits, then shared ->
// global with 128-bit stores (a TiledCopy of UniversalCopy<uint128_t>).
// Pre: the tile divides (M,N); src, dst 16-byte aligned; every row starts on a 16-byte boundary.
// Launch: grid (N / TileN, M / TileM), Threads threads, no dynamic shared memory.
template <class T, class Layout, int TileM = 32, int Threads = 512>
__global__ void __launch_bounds__(Threads) tile_copy_static(T const* src, T* dst) {
  constexpr int VEC = 16 / int(sizeof(T));
  constexpr int TPR = Threads / TileM;  // threads a tile row
  constexpr int TileN = TPR * VEC;
  constexpr Layout layout{};
  static_assert(is_static_v<Layout> && rank_v<Layout> == 2,
                "tile_copy_static<T, Layout>: Layout must be a static (M,N) -> offset layout (tessera.jit.layout_of "
                "with no dynamic mode); for run-time extents use tile_copy");
  static_assert(Threads % TileM == 0, "tile_copy_static<T, Layout, TileM, Threads>: TileM must divide Threads");
  static_assert(decltype(stride<1>(layout))::value == 1 && (decltype(stride<0>(layout))::value * sizeof(T)) % 16 == 0,
                "tile_copy_static: mode 1 must have unit stride and every row must start on a 16-byte boundary "
                "(128-bit cp.async); copy the transpose's layout, or pad the rows");
  static_assert(decltype(size<0>(layout))::value % TileM == 0 && decltype(size<1>(layout))::value % TileN == 0,
                "tile_copy_static: the tile (TileM, Threads / TileM * 16 / sizeof(T)) must divide (M,N); use tile_copy "
                "for a ragged matrix");
  static_assert(TileM * TileN * sizeof(T) <= 48 * 1024, "tile_copy_static: the tile must fit 48 KiB of shared memory");

  auto thr = make_layout(make_shape(Int<TileM>{}, Int<TPR>{}), make_stride(Int<TPR>{}, _1{}));  // (tm,tn) -> thr
  auto val = make_layout(make_shape(_1{}, Int<VEC>{}));                                         // (1,VEC) -> val
  auto load = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, T>{}, thr, val);
  auto store = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, T>{}, thr, val);
  auto tile = make_shape(Int<TileM>{}, Int<TileN>{});  // (TileM,TileN)

  auto gS = zipped_divide(make_tensor(make_gmem_ptr(src), layout), tile);  // ((TileM,TileN),(RestM,RestN))
  auto gD = zipped_divide(make_tensor(make_gmem_ptr(dst), layout), tile);  // ((TileM,TileN),(RestM,RestN))
  using I = detail::static_index_t<Layout>;                                // int where every offset fits, else 64-bit
  auto blk = make_coord(I(blockIdx.y), I(blockIdx.x));
  auto blkS = gS(make_coord(_, _), blk);  // (TileM,TileN)
  auto blkD = gD(make_coord(_, _), blk);  // (TileM,TileN)
  __shared__ alignas(16) T smem[TileM * TileN];
  auto sT = make_tensor(make_smem_ptr(smem), make_layout(tile, make_stride(Int<TileN>{}, _1{})));  // (TileM,TileN)

  int const t = int(threadIdx.x);
  auto thr_load = load.get_slice(t);
  copy(load, thr_load.partition_S(blkS), thr_load.partition_D(sT));  // global -> shared, asynchronous
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  auto thr_store = store.get_slice(t);
  copy(store, thr_store.partition_S(sT), thr_store.partition_D(blkD));  // shared -> global
}

#if !defined(__CUDACC_RTC__)  // host only: the check and the launcher
// The configuration tile_copy would launch: tile_n filled in. Throws std::invalid_argument naming
// the violated constraint (and the values) when cfg, the sizes or the pointers cannot run.
// max_smem_bytes: the device's opt-in shared memory per block (0: do not check).
template <class T>
TileCopyConfig tile_copy_check(T const* src, T const* dst, int M, int N, Major major, TileCopyConfig cfg,
                               int max_smem_bytes) {
  constexpr int VEC = 16 / int(sizeof(T));
  auto fail = [](std::string const& what) { detail::require(false, "tile_copy", what); };
  auto p = detail::row_problem(M, N, major);
  if (M < 1 || N < 1) fail("M and N must be >= 1, got M = " + std::to_string(M) + ", N = " + std::to_string(N));
  if (cfg.num_threads < 32 || cfg.num_threads > 1024 || cfg.num_threads % 32 != 0)
    fail("num_threads must be a multiple of 32 in [32, 1024], got " + std::to_string(cfg.num_threads));
  if (cfg.tile_m < 1) fail("tile_m must be >= 1, got " + std::to_string(cfg.tile_m));
  if (cfg.tile_n == 0) {
    if (cfg.num_threads % cfg.tile_m != 0)
      fail("num_threads must be divisible by tile_m when tile_n is derived (tile_n = num_threads / tile_m * " +
           std::to_string(VEC) + "), got num_threads = " + std::to_string(cfg.num_threads) +
           ", tile_m = " + std::to_string(cfg.tile_m) + "; pick a tile_m that divides num_threads or set tile_n");
    cfg.tile_n = cfg.num_threads / cfg.tile_m * VEC;
  }
  if (cfg.tile_n < VEC || cfg.tile_n % VEC != 0)
    fail("tile_n must be a positive multiple of " + std::to_string(VEC) + " (one 128-bit vector of " +
         std::to_string(sizeof(T)) + "-byte elements), got " + std::to_string(cfg.tile_n));
  long long vectors = (long long)cfg.tile_m * (cfg.tile_n / VEC);
  if (vectors % cfg.num_threads != 0)
    fail("the tile's " + std::to_string(vectors) + " vectors (tile_m * tile_n / " + std::to_string(VEC) +
         ") must be a multiple of num_threads = " + std::to_string(cfg.num_threads) +
         " so every thread moves the same number of vectors");
  long long smem = (long long)cfg.tile_m * cfg.tile_n * (long long)sizeof(T);
  if (max_smem_bytes > 0 && smem > max_smem_bytes)
    fail("the tile needs " + std::to_string(smem) + " bytes of shared memory (tile_m * tile_n * " +
         std::to_string(sizeof(T)) + "), more than the device's " + std::to_string(max_smem_bytes) +
         " per block; use a smaller tile");
  if ((p.ld * (long long)sizeof(T)) % 16 != 0)
    fail("rows must start on 16-byte boundaries for 128-bit cp.async: the row length " + std::to_string(p.cols) +
         " times " + std::to_string(sizeof(T)) + " bytes is not a multiple of 16; pad the leading dimension");
  if (!detail::aligned16(src) || !detail::aligned16(dst)) fail("src and dst must be 16-byte aligned");
  long long gy = (p.rows + cfg.tile_m - 1) / cfg.tile_m;
  if (gy > 65535)
    fail("ceil(rows / tile_m) = " + std::to_string(gy) + " exceeds the grid's y limit 65535; use a larger tile_m");
  return cfg;
}

// tile_copy(src, dst, M, N, major, cfg, stream): dst = src through shared memory.
template <class T>
cudaError_t tile_copy(T const* src, T* dst, int M, int N, Major major, TileCopyConfig cfg = {},
                      cudaStream_t stream = nullptr) {
  int dev = 0, max_optin = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
    max_optin = 0;  // no device: the launch below reports the error
  }
  cfg = tile_copy_check(src, dst, M, N, major, cfg, max_optin);
  auto p = detail::row_problem(M, N, major);
  int smem = cfg.tile_m * cfg.tile_n * int(sizeof(T));
  if (smem > 48 * 1024) {
    cudaError_t e =
        cudaFuncSetAttribute(detail::tile_copy_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess) return e;
  }
  dim3 grid(unsigned((p.cols + cfg.tile_n - 1) / cfg.tile_n), unsigned((p.rows + cfg.tile_m - 1) / cfg.tile_m));
  detail::tile_copy_kernel<T>
      <<<grid, cfg.num_threads, smem, stream>>>(src, dst, p.rows, p.cols, p.ld, cfg.tile_m, cfg.tile_n);
  return cudaGetLastError();
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
