// Problem shapes shared by the gemm_sm90 tests (gemm_sm90.cu, gemm_sm90_ladder.cu), beside
// support/gemm_check.hpp's kSmall and kLarge.
#pragma once

#include <vector>

#include "support/gemm_check.hpp"

namespace tessera::test::gemm {

// More tiles than SMs: the persistent blocks walk several tiles each (the ring's phases run on
// across tiles, the producer loads the next tile during the epilogue).
// With clusters of two blocks along M, an odd number of block rows leaves the last cluster's second
// block outside D (1537 rows: 13 block rows).
// K longer than the ring (16 k-tiles) with several tiles a block: the ping-pong warpgroups skip
// each other's tiles in the ring.
// 1536 x 1536 has 72 tiles of 128x256 and 144 of 128x128: gemm_sm90 takes the 128x128 kernel.
// On 132 SMs gemm_sm90 runs 1537 x 4100 x 200 (221 tiles of 128x256, 84 % of two waves busy) on the
// ping-pong kernel with a 16-bit D (gemm_sm90_pingpong_pays: these sweeps' variant is the plain
// product) and on stream-K with an fp32 D (gemm_sm90_stream_k_pays); 2304 x 2560 x 1024 (180 tiles,
// 68 %) on 128x192 tiles with a 16-bit D (gemm_sm90_wide_pays: 91 % of their slots, as for 128x128)
// and on stream-K with an fp32 D.
inline std::vector<Shape> const kManyTiles = {
    {2048, 2560, 64}, {1537, 4100, 200}, {4096, 4096, 16}, {2304, 2560, 1024}, {1536, 1536, 256}};

// Stream-K: 128x256 tiles on 5 blocks: 6 tiles (all shared out), 24 (4 shared: 4.8 k-tiles a
// block of K = 333's 6), 52 (7 shared, K = 4100: 65 k-tiles, the last partial), 4 (fewer tiles than
// blocks: none); 128x128 on 7 blocks: 12 tiles (5 shared), 48 (6), 104 (6), 72 (9: a whole wave
// more). On every SM of an H200 (132), ManyTilesPerBlock splits tiles too (1537 x 4100 x 200: 89
// of 221 tiles shared out, 4 k-tiles each; 2304 x 2560 x 1024: all 180, 16 k-tiles each).
inline std::vector<Shape> const kStreamK5 = {{384, 512, 1000}, {1000, 700, 333}, {1537, 1000, 4100}, {200, 300, 256}};
inline std::vector<Shape> const kStreamK7 = {{384, 512, 1000}, {1000, 700, 333}, {1537, 1000, 4100}, {900, 1100, 520}};

}  // namespace tessera::test::gemm
