// Device tests of the TMA atoms (include/tessera/atom/copy_traits_sm90_tma.cuh: make_tma_copy,
// tma_partition, copy): a tile of a known matrix is loaded through SM90_TMA_LOAD into shared
// memory, and every element must sit where the box layout (with its swizzle) says, zeros where
// the tile lies outside the matrix; a tile is stored through SM90_TMA_STORE, and every element of
// the matrix must hold the tile's value inside the tile and be untouched outside it and outside
// the matrix. K-major tiles are one box; MN-major tiles are two boxes of 64 M-elements.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/tensor/tiling.hpp"
#include "tma_layouts.hpp"
#include "warp_test.hpp"

namespace {

using namespace tessera;

constexpr int kM = 200, kK = 136;  // the matrix; tiles of 128 x 64 at (1, 2) reach past both ends

template <bool KMajor>
TESSERA_HOST_DEVICE constexpr auto stage_tile() {  // (128,64) -> element offset, unswizzled
  return test::stage_tile<128, KMajor>();
}
template <bool KMajor>
TESSERA_HOST_DEVICE constexpr auto box_of() {  // the whole K-major tile, or 64 M-elements of an MN-major one
  return test::box_of<128, KMajor>();
}
template <bool KMajor>
using Tma = TmaCopy<SM90_TMA_LOAD, std::uint16_t, decltype(box_of<KMajor>())>;

std::uint16_t value_at(int m, int k) { return std::uint16_t(1 + m * kK + k); }  // distinct, never 0

// One block: thread 0 loads tile (bm, bk) of the matrix, then every thread copies the 128 x 64
// elements of shared memory out as they lie.
template <bool KMajor>
__global__ void load_kernel(__grid_constant__ Tma<KMajor> const tma, int M, int K, int bm, int bk, std::uint16_t* out) {
  __shared__ alignas(1024) std::uint16_t smem[128 * 64];
  __shared__ std::uint64_t bar;
  int const tid = int(threadIdx.x);
  for (int i = tid; i < 128 * 64; i += blockDim.x) smem[i] = 0xFFFF;
  fence_view_async_shared();  // the fill is ordered before the TMA's writes
  if (tid == 0) {
    mbarrier_init(&bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
  if (tid == 0) {
    auto const sA = make_tensor(make_smem_ptr(smem), stage_tile<KMajor>());  // (128,64) -> smem
    auto const gA =
        local_tile(tma.get_tma_tensor(make_shape(M, K)), Shape<_128, _64>{}, make_coord(bm, bk));  // (128,64) -> (m,k)
    auto const [tAgA, tAsA] = tma_partition(tma, sA, gA);                                          // (BOX,BOXES)
    mbarrier_arrive_expect_tx(&bar, std::uint32_t(size<1>(tAsA)) * Tma<KMajor>::kBoxBytes);
    copy(tma.with(&bar), tAgA, tAsA);
  }
  mbarrier_wait(&bar, 0);
  for (int i = tid; i < 128 * 64; i += blockDim.x) out[i] = smem[i];
}

template <bool KMajor>
void expect_load_matches_layout() {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  // The matrix: K-major row-major (M,K) with ld 136; MN-major column-major with ld 208.
  int const ld = KMajor ? kK : 208;
  std::vector<std::uint16_t> host(std::size_t(KMajor ? kM : kK) * ld, 0);
  for (int m = 0; m < kM; ++m)
    for (int k = 0; k < kK; ++k) host[KMajor ? std::size_t(m) * ld + k : std::size_t(k) * ld + m] = value_at(m, k);
  std::uint16_t *a = nullptr, *out = nullptr;
  ASSERT_EQ(cudaMalloc(&a, host.size() * 2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&out, 128 * 64 * 2), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(a, host.data(), host.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
  auto const gmem = KMajor ? make_layout(make_shape(kM, kK), make_stride(ld, 1))
                           : make_layout(make_shape(kM, kK), make_stride(1, ld));
  Tma<KMajor> const tma = make_tma_copy(SM90_TMA_LOAD{}, static_cast<std::uint16_t const*>(a), gmem, box_of<KMajor>());
  for (int bm = 0; bm < 2; ++bm) {
    for (int bk = 0; bk < 3; ++bk) {
      load_kernel<KMajor><<<1, 128>>>(tma, kM, kK, bm, bk, out);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      std::vector<std::uint16_t> got(128 * 64);
      ASSERT_EQ(cudaMemcpy(got.data(), out, got.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
      // Element (p, q) of the tile: box j = p / BP (BP the box's rows), at the box's offset in the
      // stage, swizzled within the box by the box layout.
      constexpr int BP = KMajor ? 128 : 64;
      auto const box = box_of<KMajor>();
      int bad = 0;
      for (int p = 0; p < 128 && bad < 5; ++p) {
        for (int q = 0; q < 64 && bad < 5; ++q) {
          int const m = 128 * bm + p, k = 64 * bk + q;
          std::uint16_t const want = m < kM && k < kK ? value_at(m, k) : 0;
          int const at = (p / BP) * BP * 64 + int(box(p % BP, q));
          if (got[std::size_t(at)] != want) {
            ADD_FAILURE() << "tile (" << bm << "," << bk << ") element (" << p << "," << q << "): got "
                          << got[std::size_t(at)] << ", want " << want;
            ++bad;
          }
        }
      }
    }
  }
  cudaFree(a);
  cudaFree(out);
}

TEST(TmaCopyDevice, LoadKMajorOneBox) { expect_load_matches_layout<true>(); }
TEST(TmaCopyDevice, LoadMnMajorTwoBoxes) { expect_load_matches_layout<false>(); }

// The store: a (64,128) tile of D (row-major, 16-bit) from two 64 x 64 boxes, 128-byte swizzled.
using StoreBox = decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{}));
using TmaStore = TmaCopy<SM90_TMA_STORE, std::uint16_t, StoreBox>;

__global__ void store_kernel(__grid_constant__ TmaStore const tma, int M, int N, int bm, int bn) {
  __shared__ alignas(1024) std::uint16_t smem[64 * 128];
  int const tid = int(threadIdx.x);
  for (int i = tid; i < 64 * 128; i += blockDim.x) {  // element (r, c) of the tile: 0x4000 + 128 r + c
    int const r = i / 128, c = i % 128;
    smem[(c / 64) * 4096 + int(StoreBox{}(r, c % 64))] = std::uint16_t(0x4000 + 128 * r + c);
  }
  fence_view_async_shared();  // the writes above are read by the TMA
  __syncthreads();
  if (tid == 0) {
    auto const sD =
        make_tensor(make_smem_ptr(smem), Layout<Shape<_64, Shape<_64, _2>>, Stride<_64, Stride<_1, Int<4096>>>>{});
    auto const gD = local_tile(tma.get_tma_tensor(make_shape(M, N)), Shape<_64, _128>{}, make_coord(bm, bn));
    auto const [tDgD, tDsD] = tma_partition(tma, sD, gD);  // (BOX,2)
    copy(tma, tDsD, tDgD);
    tma_store_commit();
    tma_store_wait<0>();
  }
}

TEST(TmaCopyDevice, StoreTwoBoxesClipped) {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  constexpr int M = 100, N = 200, ld = 208;  // tile (1, 1) covers rows 64..127, columns 128..255
  std::uint16_t* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, std::size_t(M) * ld * 2), cudaSuccess);
  ASSERT_EQ(cudaMemset(d, 0, std::size_t(M) * ld * 2), cudaSuccess);
  TmaStore const tma = make_tma_copy(SM90_TMA_STORE{}, static_cast<std::uint16_t const*>(d),
                                     make_layout(make_shape(M, N), make_stride(ld, 1)), StoreBox{});
  store_kernel<<<1, 128>>>(tma, M, N, 1, 1);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint16_t> got(std::size_t(M) * ld);
  ASSERT_EQ(cudaMemcpy(got.data(), d, got.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
  int bad = 0;
  for (int m = 0; m < M && bad < 5; ++m) {
    for (int n = 0; n < ld && bad < 5; ++n) {
      bool const inside = m >= 64 && n >= 128 && n < N;
      std::uint16_t const want = inside ? std::uint16_t(0x4000 + 128 * (m - 64) + (n - 128)) : 0;
      if (got[std::size_t(m) * ld + n] != want) {
        ADD_FAILURE() << "D(" << m << "," << n << "): got " << got[std::size_t(m) * ld + n] << ", want " << want;
        ++bad;
      }
    }
  }
  cudaFree(d);
}

}  // namespace
