// The grouped GEMM's configurations and tile rule (kernels/gemm_sm90_grouped.cuh launches them).
// Plain C++, no CUDA header: the JIT (jit/gemm_sm90_grouped.hpp) asks the same rule.
//   GemmSm90GroupedLarge, GemmSm90GroupedSmall   the two tiles
//   gemm_sm90_grouped_pick(rows, groups)         which one runs a problem
#pragma once

#include "tessera/kernels/gemm/sm90_config.hpp"

namespace tessera::kernels {

// The grouped kernel's tiles: 128 x 256 (two consumer warpgroups) for groups of more than 64 rows
// on average, 64 x 256 (one consumer warpgroup, five stages) for smaller ones, where a 128-row tile
// would multiply mostly rows of the next group.
using GemmSm90GroupedLarge = GemmSm90WsConfig<128, 256, 64, 4, true>;
using GemmSm90GroupedSmall = GemmSm90WsConfig<64, 256, 64, 5, true>;

enum class GemmSm90GroupedPick { large, small };

// gemm_sm90_grouped_pick(rows, groups): small when the groups average 64 rows or fewer (rows: the
// packed A's rows, or groups x capacity for the masked form, which counts a slot's capacity as its
// rows), else large. Pre: groups >= 1.
// Example: 256 experts, 8192 tokens (32 a group): small; 8 experts, 8192 tokens: large.
inline GemmSm90GroupedPick gemm_sm90_grouped_pick(long long rows, int groups) {
  return rows <= 64LL * groups ? GemmSm90GroupedPick::small : GemmSm90GroupedPick::large;
}

}  // namespace tessera::kernels
