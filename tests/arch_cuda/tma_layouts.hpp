// The canonical wgmma stage tiles and their TMA boxes, shared by the TMA tests
// (copy_traits_sm90_tma.cu on the host, copy_atom_sm90_tma.cu on the GPU).
#pragma once

#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/core/swizzle.hpp"

namespace tessera::test {

// The stage tile of an operand, (BP,64) -> element offset, unswizzled: K-major rows of 64 K, or
// MN-major K-rows of 64 P with the K-rows of one 64-wide P chunk together (gemm_sm90.cuh's stages).
template <int BP, bool KMajor>
TESSERA_HOST_DEVICE constexpr auto stage_tile() {
  if constexpr (KMajor) {
    return tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<Int<BP>, _64>{});
  } else {
    return tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<Int<BP>, _64>{}, LayoutRight{});
  }
}

// Stages of a stage tile one after the other: (BP,64,PIPE) -> element offset.
template <int BP, bool KMajor, int Pipe>
TESSERA_HOST_DEVICE constexpr auto stages() {
  auto const t = stage_tile<BP, KMajor>();
  return make_layout(layout<0>(t), layout<1>(t), Layout<Int<Pipe>, Int<BP * 64>>{});
}

// One TMA box of a (BP,64) stage tile, swizzled as TMA writes it: the whole K-major tile, or one
// 64-wide P chunk of an MN-major one.
template <int BP, bool KMajor>
TESSERA_HOST_DEVICE constexpr auto box_of() {
  return make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, stage_tile<(KMajor ? BP : 64), KMajor>());
}

}  // namespace tessera::test
