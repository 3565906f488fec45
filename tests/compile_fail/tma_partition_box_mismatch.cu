// Compile-fail case: tma_partition of a shared-memory tile whose boxes are not laid out as the
// TmaCopy's box.
//
// The TmaCopy moves K-major 64 x 64 boxes (rows of 64 elements, 128-byte swizzle); the tile below
// is (64,64) column-major, so TMA would write its rows where the tile has columns: tma_partition
// must refuse at compile time, naming the mismatch and the fix.
// Control: the same tile laid out as the box (tile_to_shape of the K-major atom) compiles.
// CUDA-ARCH: 90a
// EXPECT-ERROR: tma_partition: tma.box_layout: a box of the shared-memory tile is not laid out as the TmaCopy's box
#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/tensor/tiling.hpp"

using namespace tessera;

using KTile = decltype(tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_64, _64>{}));
using Box = decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, KTile{}));

__global__ void kernel(__grid_constant__ TmaCopy<SM90_TMA_LOAD, half_t, Box> const tma, int M, int K) {
  extern __shared__ half_t smem[];
  __shared__ std::uint64_t bar;
#ifndef TESSERA_CONTROL
  auto const sA = make_tensor(make_smem_ptr(smem), Layout<Shape<_64, _64>, Stride<_1, _64>>{});
#else
  auto const sA = make_tensor(make_smem_ptr(smem), KTile{});
#endif
  auto const gA = local_tile(tma.get_tma_tensor(make_shape(M, K)), Shape<_64, _64>{}, make_coord(0, 0));
  auto const [tAgA, tAsA] = tma_partition(tma, sA, gA);
  if (threadIdx.x == 0) copy(tma.with(&bar), tAgA, tAsA);
}
