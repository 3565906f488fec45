// Compile-fail case: tma_partition of a shared-memory tile whose second box does not start on the
// 128-byte swizzle's 1024-byte pattern.
//
// The TmaCopy moves K-major boxes of 8 rows x 64 fp16 (128-byte rows, 128-byte swizzle: 1024
// bytes). The tile below holds two of them along mode 0 but 1040 bytes apart: TMA would swizzle
// the second box by its address, not as the tile's layout does. tma_partition must refuse at
// compile time (tma.box_start, arch/tma_tile_rules.hpp; `tessera check tma --smem` says the same
// at run time). Control: the boxes 1024 bytes apart (tile_to_shape of the box) compile.
// CUDA-ARCH: 90a
// EXPECT-ERROR: tma_partition: tma.box_start: a box of the shared-memory tile does not start at a multiple of 128
#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/tensor/tiling.hpp"

using namespace tessera;

using BoxLayout = Layout<Shape<_8, _64>, Stride<_64, _1>>;  // (m,k) -> element offset in one box
using Box = decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, BoxLayout{}));

__global__ void kernel(__grid_constant__ TmaCopy<SM90_TMA_LOAD, half_t, Box> const tma, int M, int K) {
  extern __shared__ half_t smem[];
  __shared__ std::uint64_t bar;
#ifndef TESSERA_CONTROL
  using Tile = Layout<Shape<Shape<_8, _2>, _64>, Stride<Stride<_64, Int<520>>, _1>>;  // box 1 at element 520
#else
  using Tile = Layout<Shape<Shape<_8, _2>, _64>, Stride<Stride<_64, _512>, _1>>;  // box 1 at element 512
#endif
  auto const sA = make_tensor(make_smem_ptr(smem), Tile{});
  auto const gA = local_tile(tma.get_tma_tensor(make_shape(M, K)), Shape<_16, _64>{}, make_coord(0, 0));
  auto const [tAgA, tAsA] = tma_partition(tma, sA, gA);
  if (threadIdx.x == 0) copy(tma.with(&bar), tAgA, tAsA);
}
