// Compile-fail case: fp8 block scales on a tile whose columns span more than one 128 x 128 block.
//
// GemmSm90BlockScaled keeps two sets of accumulators and one B scale per tile and k-tile, so BN
// must divide 128 (kernels/gemm/sm90_config.hpp); the 128x256 persistent tile does not. Must fail
// at compile time. Control: the 128x128 tile (GemmSm90Fp8BlockDefault's).
// EXPECT-ERROR: GemmSm90BlockScaled: BN must divide 128
#include "tessera/kernels/gemm/sm90_config.hpp"

using namespace tessera::kernels;

int main() {
#ifndef TESSERA_CONTROL
  using Cfg = GemmSm90BlockScaled<GemmSm90PersistentDefault>;
#else
  using Cfg = GemmSm90BlockScaled<GemmSm90PersistentMedium>;
#endif
  return Cfg::BN == 128 ? 0 : 1;
}
