// elementwise_add.cuh -- C = A + B over M x N matrices of __half, __nv_bfloat16 or float, in
// three versions (docs/background.md, "Elementwise add"): one element per thread (naive), one
// 128-bit vector per thread (vectorized: zipped_divide by (1, 16 bytes)), and a thread-value
// layout (tv: make_layout_tv(thr (4,32):(32,1), val (4,8):(8,1)) -> tiler (16,256), zipped_divide
// by the tiler, composition with the TV layout).
//
// Any M, N >= 1: tiles and vectors that overhang the matrix are predicated with an identity tensor
// (elem_less(coordinate, shape)), never rejected. Row- or column-major: all three matrices share
// one Major; a column-major problem is run as the row-major problem of its transpose (the add is
// elementwise, so only the coordinates' names change). Vector accesses are used where the row
// pitch and the three pointers are 16-byte aligned; otherwise the same kernels run element-wise.
//
// Host API (asynchronous on a stream; returns the launch's cudaError_t, throws
// std::invalid_argument for arguments outside the contract -- docs/errors.md):
//   add_naive(A, B, C, M, N, major, stream), add_vectorized(...), add_tv(...)
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#if !defined(__CUDACC_RTC__)  // host only: the launchers
#include <cuda_runtime.h>

#include <string>
#endif

#include "tessera/core/product.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/common.cuh"

namespace tessera::kernels {

namespace detail {

// The sum as the device computes it: one correctly rounded add in the element type.
template <class T>
__device__ __forceinline__ T add_elem(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    return a + b;
  } else {
    return __hadd(a, b);  // __half and __nv_bfloat16: add.rn.f16 / add.rn.bf16
  }
}

// The block of add_naive and add_vectorized's launches (a run-time compiled launch of their
// kernels uses it too: python/src/ops/add.cpp).
inline constexpr int add_threads = 256;

// ---- kernels -------------------------------------------------------------------------------

// Naive: thread q handles element (q / cols, q % cols) of the row-major view.
template <class T>
__global__ void add_naive_kernel(T const* A, T const* B, T* C, int rows, int cols, std::int64_t ld) {
  auto layout = row_layout(rows, cols, ld);         // (m,n) -> offset
  auto mA = make_tensor(make_gmem_ptr(A), layout);  // (M,N)
  auto mB = make_tensor(make_gmem_ptr(B), layout);  // (M,N)
  auto mC = make_tensor(make_gmem_ptr(C), layout);  // (M,N)
  std::int64_t q = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= std::int64_t(rows) * cols) return;
  int m = int(q / cols);
  int n = int(q % cols);
  mC(m, n) = add_elem(mA(m, n), mB(m, n));
}

// Vectorized: zipped_divide by (1, VEC) elements (VEC * bits(T) = 128); vector q of the
// ((1,VEC),(M,nvec)) tiling is (q / nvec, q % nvec). Block b's thread t handles the VPT vectors
// q = (b * VPT + k) * blockDim + t, k < VPT (VPT = 1: the published program's one vector per thread; more gives
// each thread more independent loads in flight, each k still coalesced across the warp). A vector
// that overhangs the row end (N not a multiple of VEC) is done element by element under
// elem_less predicates.
template <class T, bool Vec, int VPT>
__global__ void add_vectorized_kernel(T const* A, T const* B, T* C, int rows, int cols, std::int64_t ld) {
  constexpr int VEC = 16 / int(sizeof(T));
  auto tiler = make_shape(_1{}, Int<VEC>{});  // (1,VEC)
  auto shape_mn = make_shape(rows, cols);
  auto layout = row_layout(rows, cols, ld);                               // (m,n) -> offset
  auto gA = zipped_divide(make_tensor(make_gmem_ptr(A), layout), tiler);  // ((1,VEC),(M,nvec))
  auto gB = zipped_divide(make_tensor(make_gmem_ptr(B), layout), tiler);  // ((1,VEC),(M,nvec))
  auto gC = zipped_divide(make_tensor(make_gmem_ptr(C), layout), tiler);  // ((1,VEC),(M,nvec))
  auto cC = zipped_divide(make_identity_tensor(shape_mn), tiler);         // ((1,VEC),(M,nvec)) -> (m,n)

  int nvec = (cols + VEC - 1) / VEC;
  std::int64_t total = std::int64_t(rows) * nvec;
  std::int64_t q0 = std::int64_t(blockIdx.x) * VPT * blockDim.x + threadIdx.x;
  auto frag = make_layout(make_shape(Int<VEC>{}, Int<VPT>{}));  // (VEC,VPT) registers
  auto rA = make_tensor<T>(frag);                               // (VEC,VPT)
  auto rB = make_tensor<T>(frag);                               // (VEC,VPT)
  auto rC = make_tensor<T>(frag);                               // (VEC,VPT)
  bool full = q0 + std::int64_t(VPT - 1) * blockDim.x < total && (cols % VEC == 0);
  if (Vec && full) {
    TESSERA_UNROLL
    for (int k = 0; k < VPT; ++k) {
      std::int64_t q = q0 + std::int64_t(k) * blockDim.x;
      auto blk = make_coord(int(q / nvec), int(q % nvec));
      copy_128(gA(make_coord(0, _), blk), rA(_, k));  // (VEC) : (_1), one 128-bit load
      copy_128(gB(make_coord(0, _), blk), rB(_, k));
    }
    TESSERA_UNROLL
    for (int i = 0; i < VEC * VPT; ++i) rC(i) = add_elem(rA(i), rB(i));
    TESSERA_UNROLL
    for (int k = 0; k < VPT; ++k) {
      std::int64_t q = q0 + std::int64_t(k) * blockDim.x;
      auto blk = make_coord(int(q / nvec), int(q % nvec));
      auto tCgC = gC(make_coord(0, _), blk);  // (VEC) : (_1)
      copy_128(rC(_, k), tCgC);               // one 128-bit store
    }
  } else {
    for (int k = 0; k < VPT; ++k) {
      std::int64_t q = q0 + std::int64_t(k) * blockDim.x;
      if (q >= total) break;
      auto blk = make_coord(int(q / nvec), int(q % nvec));
      auto tAgA = gA(make_coord(0, _), blk);  // (VEC) : (_1)
      auto tBgB = gB(make_coord(0, _), blk);  // (VEC) : (_1)
      auto tCgC = gC(make_coord(0, _), blk);  // (VEC) : (_1)
      auto tCcC = cC(make_coord(0, _), blk);  // (VEC) -> (m,n)
      TESSERA_UNROLL
      for (int i = 0; i < VEC; ++i) {
        if (elem_less(tCcC(i), shape_mn)) tCgC(i) = add_elem(tAgA(i), tBgB(i));
      }
    }
  }
}

// The TV layout of the published program (docs/background.md): 128 threads (4,32):(32,1), each with 4 rows of 8 contiguous values
// (4,8):(8,1). make_layout_tv gives the tiler (16,256) and tv : (thr,val) -> (m,n) in the tile,
// ((32,4),(8,4)):((128,4),(16,1)).
using TvThrLayout = decltype(make_layout(make_shape(_4{}, _32{}), make_stride(_32{}, _1{})));  // (tm,tn) -> thr
using TvValLayout = decltype(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})));    // (vm,vn) -> val
inline constexpr int tv_threads = decltype(size(TvThrLayout{}))::value;                        // 128

// TV: block (bm,bn) owns tile (bm,bn) of zipped_divide(mX, tiler); thread t owns tv(t, _) of it.
// A full tile with aligned rows uses 128-bit accesses (two per 8-value row for fp32); a partial
// tile predicates every value with elem_less.
template <class T, bool Vec>
__global__ void __launch_bounds__(tv_threads)
    add_tv_kernel(T const* A, T const* B, T* C, int rows, int cols, std::int64_t ld) {
  constexpr auto tiler_tv = make_layout_tv(TvThrLayout{}, TvValLayout{});
  constexpr auto tiler = get<0>(tiler_tv);  // (TileM,TileN) = (16,256)
  constexpr auto tv = get<1>(tiler_tv);     // (thr,val) -> (m,n) in the tile
  auto shape_mn = make_shape(rows, cols);
  auto layout = row_layout(rows, cols, ld);  // (m,n) -> offset
  auto blk = make_coord(int(blockIdx.y), int(blockIdx.x));
  auto blkA = local_tile(make_tensor(make_gmem_ptr(A), layout), tiler, blk);  // (TileM,TileN)
  auto blkB = local_tile(make_tensor(make_gmem_ptr(B), layout), tiler, blk);  // (TileM,TileN)
  auto blkC = local_tile(make_tensor(make_gmem_ptr(C), layout), tiler, blk);  // (TileM,TileN)
  auto blkc = local_tile(make_identity_tensor(shape_mn), tiler, blk);         // (TileM,TileN) -> (m,n)

  int tid = int(threadIdx.x);
  // composition with the TV layout, then thread tid's slice, flattened to (VN,VM) = (8,4).
  auto thrA = flatten(composition(blkA, tv)(tid, _));  // (8,4) : (_1,ld)
  auto thrB = flatten(composition(blkB, tv)(tid, _));  // (8,4) : (_1,ld)
  auto thrC = flatten(composition(blkC, tv)(tid, _));  // (8,4) : (_1,ld)
  auto thrc = flatten(composition(blkc, tv)(tid, _));  // (8,4) -> (m,n)

  constexpr auto frag = make_layout(make_shape(size<1>(TvValLayout{}), size<0>(TvValLayout{})));
  auto rA = make_tensor<T>(frag);  // (8,4) registers
  auto rB = make_tensor<T>(frag);  // (8,4)
  auto rC = make_tensor<T>(frag);  // (8,4)
  constexpr int VN = decltype(size<0>(frag))::value;
  constexpr int VM = decltype(size<1>(frag))::value;
  bool full = (int(blockIdx.y) + 1) * int(decltype(get<0>(tiler))::value) <= rows &&
              (int(blockIdx.x) + 1) * int(decltype(get<1>(tiler))::value) <= cols;
  if (Vec && full) {
    TESSERA_UNROLL
    for (int j = 0; j < VM; ++j) copy_128(thrA(_, j), rA(_, j));  // 128-bit loads, all issued first
    TESSERA_UNROLL
    for (int j = 0; j < VM; ++j) copy_128(thrB(_, j), rB(_, j));
    TESSERA_UNROLL
    for (int i = 0; i < VN * VM; ++i) rC(i) = add_elem(rA(i), rB(i));
    TESSERA_UNROLL
    for (int j = 0; j < VM; ++j) copy_128(rC(_, j), thrC(_, j));  // 128-bit stores
  } else {
    TESSERA_UNROLL
    for (int i = 0; i < VN * VM; ++i) {
      if (elem_less(thrc(i), shape_mn)) thrC(i) = add_elem(thrA(i), thrB(i));
    }
  }
}

// ---- specialized on static layouts (run-time compilation) -----------------------------------

template <class L>
inline constexpr bool static_matrix_v = is_static_v<L> && rank_v<L> == 2;

// static_access_bytes<T, L>(want, align): the widest access, up to `want` bytes, that every vector
// starting at a multiple of `want` bytes along a row of the static (M,N) layout L of T can take:
// at most the base pointer's known alignment `align` and what the row pitch keeps aligned (the
// largest power of two dividing stride<0> * sizeof(T); any, for one row). Example: fp16 rows 66
// elements apart (a padded slice): 132-byte pitch, so static_access_bytes(16, 16) == 4.
template <class T, class L>
TESSERA_HOST_DEVICE constexpr long long static_access_bytes(long long want, long long align) {
  constexpr long long pitch = decltype(size<0>(L{}))::value > 1
                                  ? pow2_divisor(decltype(stride<0>(L{}))::value * (long long)sizeof(T))
                                  : 1LL << 30;
  long long const bound = align < pitch ? align : pitch;
  return want < bound ? want : bound;
}

}  // namespace detail

// The published programs (docs/background.md) as the JIT instantiates them for the tensors it is
// handed (docs/jit.md): Layout is the (M,N) -> element offset layout A, B and C share (rank 2,
// depth 1), every extent and stride static (tessera.jit.layout_of(t)), so the index arithmetic
// folds at compile time and a tiling that divides the matrix runs without predicates. Align: the
// bytes every pointer is known aligned to (tessera.jit.assumed_alignment); vector accesses wider
// than it, or than the row pitch's alignment, are not used.

// add_naive_static<T, Layout, Threads>: thread q of the grid adds element (q / N, q % N).
// Launch: ceil(M * N / Threads) blocks of Threads threads.
template <class T, class Layout, int Threads = 256>
__global__ void __launch_bounds__(Threads) add_naive_static(T const* A, T const* B, T* C) {
  static_assert(detail::static_matrix_v<Layout>,
                "add_naive_static<T, Layout>: Layout must be a static (M,N) -> offset layout (tessera.jit.layout_of "
                "with no dynamic mode); for run-time extents use add_naive");
  using I = detail::static_index_t<Layout>;
  constexpr Layout layout{};
  constexpr I M = decltype(size<0>(layout))::value;
  constexpr I N = decltype(size<1>(layout))::value;
  auto mA = make_tensor(make_gmem_ptr(A), layout);  // (M,N)
  auto mB = make_tensor(make_gmem_ptr(B), layout);  // (M,N)
  auto mC = make_tensor(make_gmem_ptr(C), layout);  // (M,N)
  I const q = I(blockIdx.x) * Threads + I(threadIdx.x);
  if constexpr ((M * N) % Threads != 0) {
    if (q >= M * N) return;
  }
  I const m = q / N;
  I const n = q % N;
  mC(m, n) = detail::add_elem(mA(m, n), mB(m, n));
}

// add_vectorized_static<T, Layout, Vec, Threads, Align>: zipped_divide by (1,Vec); thread q of the
// grid adds vector (q / (N/Vec), q % (N/Vec)) of ((1,Vec),(M,N/Vec)), one Vec * sizeof(T)-byte
// access per operand where the layout and Align allow it. Pre: Vec divides N.
// Launch: ceil(M * N / Vec / Threads) blocks of Threads threads.
template <class T, class Layout, int Vec = 16 / int(sizeof(T)), int Threads = 256, int Align = 16>
__global__ void __launch_bounds__(Threads) add_vectorized_static(T const* A, T const* B, T* C) {
  static_assert(detail::static_matrix_v<Layout>,
                "add_vectorized_static<T, Layout, Vec>: Layout must be a static (M,N) -> offset layout "
                "(tessera.jit.layout_of with no dynamic mode); for run-time extents use add_vectorized");
  using I = detail::static_index_t<Layout>;
  constexpr Layout layout{};
  constexpr I M = decltype(size<0>(layout))::value;
  constexpr I N = decltype(size<1>(layout))::value;
  static_assert(Vec >= 1 && N % Vec == 0, "add_vectorized_static<T, Layout, Vec>: Vec must divide N (mode 1's extent)");
  constexpr I NV = N / Vec;
  auto tiler = make_shape(_1{}, Int<Vec>{});                              // (1,Vec)
  auto gA = zipped_divide(make_tensor(make_gmem_ptr(A), layout), tiler);  // ((1,Vec),(M,N/Vec))
  auto gB = zipped_divide(make_tensor(make_gmem_ptr(B), layout), tiler);  // ((1,Vec),(M,N/Vec))
  auto gC = zipped_divide(make_tensor(make_gmem_ptr(C), layout), tiler);  // ((1,Vec),(M,N/Vec))
  I const q = I(blockIdx.x) * Threads + I(threadIdx.x);
  if constexpr ((M * NV) % Threads != 0) {
    if (q >= M * NV) return;
  }
  auto blk = make_coord(q / NV, q % NV);
  auto tAgA = gA(make_coord(0, _), blk);              // (Vec)
  auto tBgB = gB(make_coord(0, _), blk);              // (Vec)
  auto tCgC = gC(make_coord(0, _), blk);              // (Vec)
  auto rA = make_tensor<T>(make_layout(Int<Vec>{}));  // (Vec) registers
  auto rB = make_tensor<T>(make_layout(Int<Vec>{}));  // (Vec)
  auto rC = make_tensor<T>(make_layout(Int<Vec>{}));  // (Vec)
  // Bits an access: the vector, at most what every vector's start is known aligned to.
  constexpr int W = int(detail::static_access_bytes<T, Layout>(Vec * (long long)sizeof(T), Align)) * 8;
  if (!tessera::detail::copy_vectorized<W, true>(tAgA, rA)) copy(tAgA, rA);
  if (!tessera::detail::copy_vectorized<W, true>(tBgB, rB)) copy(tBgB, rB);
  TESSERA_UNROLL
  for (int i = 0; i < Vec; ++i) rC(i) = detail::add_elem(rA(i), rB(i));
  if (!tessera::detail::copy_vectorized<W, true>(rC, tCgC)) copy(rC, tCgC);
}

// add_tv_static<T, Layout, ThrLayout, ValLayout, Align>: make_layout_tv(ThrLayout, ValLayout) gives
// the tile (TileM,TileN) and tv : (thr,val) -> (m,n) in it; block b owns tile b of
// zipped_divide(mX, tile) (b runs over (RestM,RestN), RestM fastest), thread t owns
// composition(tile, tv)(t, _). Pre: the tile divides (M,N).
// Launch: (M / TileM) * (N / TileN) blocks of size(ThrLayout) threads.
template <class T, class Layout, class ThrLayout, class ValLayout, int Align = 16>
__global__ void __launch_bounds__(decltype(size(ThrLayout{}))::value) add_tv_static(T const* A, T const* B, T* C) {
  static_assert(detail::static_matrix_v<Layout>,
                "add_tv_static<T, Layout, Thr, Val>: Layout must be a static (M,N) -> offset layout "
                "(tessera.jit.layout_of with no dynamic mode); for run-time extents use add_tv");
  using I = detail::static_index_t<Layout>;
  constexpr Layout layout{};
  constexpr auto tiler_tv = make_layout_tv(ThrLayout{}, ValLayout{});
  constexpr auto tiler = get<0>(tiler_tv);  // (TileM,TileN)
  constexpr auto tv = get<1>(tiler_tv);     // (thr,val) -> (m,n) in the tile
  static_assert(decltype(size<0>(layout))::value % decltype(get<0>(tiler))::value == 0 &&
                    decltype(size<1>(layout))::value % decltype(get<1>(tiler))::value == 0,
                "add_tv_static: the TV layout's tile must divide (M,N); use add_tv for a ragged matrix");
  auto gA = zipped_divide(make_tensor(make_gmem_ptr(A), layout), tiler);  // ((TileM,TileN),(RestM,RestN))
  auto gB = zipped_divide(make_tensor(make_gmem_ptr(B), layout), tiler);  // ((TileM,TileN),(RestM,RestN))
  auto gC = zipped_divide(make_tensor(make_gmem_ptr(C), layout), tiler);  // ((TileM,TileN),(RestM,RestN))
  I const b = I(blockIdx.x);
  int const t = int(threadIdx.x);
  auto thrA = composition(gA(make_coord(_, _), b), tv)(t, _);  // (V) -> element of A
  auto thrB = composition(gB(make_coord(_, _), b), tv)(t, _);  // (V)
  auto thrC = composition(gC(make_coord(_, _), b), tv)(t, _);  // (V)
  auto frag = make_layout(tessera::layout<1>(tv).shape());     // (V) registers, compact over the value mode
  auto rA = make_tensor<T>(frag);
  auto rB = make_tensor<T>(frag);
  auto rC = make_tensor<T>(frag);
  // Bits an access: 16 bytes at most, and at most what every thread's rows are known aligned to.
  // Pre: the value layout's runs along mode 1 start at multiples of 16 bytes in the tile (the
  // published layouts' 8 halves or 8 floats a row do).
  constexpr int W = int(detail::static_access_bytes<T, Layout>(16, Align)) * 8;
  if (!tessera::detail::copy_vectorized<W, true>(thrA, rA)) copy(thrA, rA);
  if (!tessera::detail::copy_vectorized<W, true>(thrB, rB)) copy(thrB, rB);
  TESSERA_UNROLL
  for (int i = 0; i < int(decltype(size(frag))::value); ++i) rC(i) = detail::add_elem(rA(i), rB(i));
  if (!tessera::detail::copy_vectorized<W, true>(rC, thrC)) copy(rC, thrC);
}

namespace detail {

#if !defined(__CUDACC_RTC__)  // host only: the launchers' choice of kernel
// Whether 128-bit accesses are legal: 16-byte aligned pointers and row pitch.
template <class T>
bool vector_ok(T const* A, T const* B, T const* C, std::int64_t ld) {
  return vector_aligned(A, ld) && vector_aligned(B, ld) && vector_aligned(C, ld);
}
#endif  // !__CUDACC_RTC__

}  // namespace detail

#if !defined(__CUDACC_RTC__)  // host only: the launchers (a run-time compiled kernel is launched by its caller)

// add_naive(A, B, C, M, N, major, stream): C = A + B, one element per thread, 256 threads a block.
template <class T>
cudaError_t add_naive(T const* A, T const* B, T* C, int M, int N, Major major, cudaStream_t stream = nullptr) {
  detail::require_extents("add_naive", M, N);
  auto p = detail::row_problem(M, N, major);
  std::int64_t total = std::int64_t(p.rows) * p.cols;
  constexpr int threads = detail::add_threads;
  auto blocks = static_cast<unsigned>((total + threads - 1) / threads);
  detail::add_naive_kernel<T><<<blocks, threads, 0, stream>>>(A, B, C, p.rows, p.cols, p.ld);
  return cudaGetLastError();
}

// add_vectorized<T, VPT = 1>(A, B, C, M, N, major, stream): C = A + B, VPT 128-bit vectors per
// thread (8 halves or 4 floats each), 256 threads a block; element-wise (still predicated) where
// a vector overhangs a row end or the rows are not 16-byte aligned.
template <class T, int VPT = 1>
cudaError_t add_vectorized(T const* A, T const* B, T* C, int M, int N, Major major, cudaStream_t stream = nullptr) {
  detail::require_extents("add_vectorized", M, N);
  auto p = detail::row_problem(M, N, major);
  constexpr int VEC = 16 / int(sizeof(T));
  std::int64_t total = std::int64_t(p.rows) * ((p.cols + VEC - 1) / VEC);
  constexpr int threads = detail::add_threads;
  auto blocks = static_cast<unsigned>((total + threads * VPT - 1) / (threads * VPT));
  if (detail::vector_ok(A, B, C, p.ld)) {
    detail::add_vectorized_kernel<T, true, VPT><<<blocks, threads, 0, stream>>>(A, B, C, p.rows, p.cols, p.ld);
  } else {
    detail::add_vectorized_kernel<T, false, VPT><<<blocks, threads, 0, stream>>>(A, B, C, p.rows, p.cols, p.ld);
  }
  return cudaGetLastError();
}

// add_tv(A, B, C, M, N, major, stream): C = A + B with the (16,256) TV tiling, 128 threads a block,
// grid (ceil(N/256), ceil(M/16)) of the row-major view. Pre: ceil(M/16) <= 65535 (grid y).
template <class T>
cudaError_t add_tv(T const* A, T const* B, T* C, int M, int N, Major major, cudaStream_t stream = nullptr) {
  detail::require_extents("add_tv", M, N);
  auto p = detail::row_problem(M, N, major);
  unsigned gx = static_cast<unsigned>((p.cols + 255) / 256);
  unsigned gy = static_cast<unsigned>((p.rows + 15) / 16);
  detail::require(gy <= 65535u, "add_tv",
                  "ceil(rows / 16) = " + std::to_string(gy) +
                      " exceeds the grid's y limit 65535; use add_vectorized for more than 1048560 rows");
  dim3 grid(gx, gy);
  if (detail::vector_ok(A, B, C, p.ld)) {
    detail::add_tv_kernel<T, true><<<grid, detail::tv_threads, 0, stream>>>(A, B, C, p.rows, p.cols, p.ld);
  } else {
    detail::add_tv_kernel<T, false><<<grid, detail::tv_threads, 0, stream>>>(A, B, C, p.rows, p.cols, p.ld);
  }
  return cudaGetLastError();
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
