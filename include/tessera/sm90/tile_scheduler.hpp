// Tile schedulers of the Hopper kernels: which pieces of work (a tile and a range of its k-tiles)
// a persistent block (or a warpgroup of it) does, and in which order. One interface:
//   for_each(f)   calls f(TileWork, phase) for each piece in order; phase is std::true_type for a
//                 piece that may be part of a tile shared with other blocks, std::false_type for a
//                 whole tile, so that a kernel's loop body compiles once for each and the whole-tile
//                 copy carries no hand-over code
// StreamKScheduler{tiles, k_tiles, units, unit, sk_tiles} is the persistent schedule of unit `unit`
// of `units`: whole tiles unit, unit + units, ...; with sk_tiles > 0 (stream-K) the k-tiles of the
// first sk_tiles tiles are first shared out evenly, in tile order, as one range of sk_tiles *
// k_tiles iterations (unit u takes [begin(u), begin(u + 1))), so that a partial last wave leaves
// no unit idle. A tile split over units is owned by the unit holding its k-tile 0 (owns_split: its
// last piece of that range); the others holding a part of it (their first piece, starting inside
// the tile: contributes) hand their partial sums to the owner, which adds them from
// for_each_contributor's units. How many tiles to share out is the launcher's policy
// (kernels/gemm/sm90_policy.hpp: gemm_sm90_stream_k_tiles).
// GroupedScheduler{tile_offsets, groups, k_tiles, units, unit} is the persistent schedule over
// several problems at once (a grouped GEMM: one per expert of a mixture-of-experts layer, different
// row counts, the same columns and depth): group g owns the global tiles [tile_offsets[g],
// tile_offsets[g + 1]) (prefix sums: an empty group owns none), unit u takes global tiles u,
// u + units, ... as whole tiles, and locate(tile) names the group and the tile within it.
// Host and device; no CUDA header (the host tests walk the schedules).
//
// Example: 7 tiles of 4 k-tiles on 3 units, 4 shared out: iterations 0..15, unit 0 takes 0..4
// (tile 0 whole, k-tile 0 of tile 1: it owns tile 1), unit 1 takes 5..9 (k-tiles 1..3 of tile 1,
// handed to unit 0; k-tiles 0..1 of tile 2, owned), unit 2 takes 10..15; then whole tiles 4 + u.
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera::sm90 {

// One piece of a unit's work: k-tiles [k0, k1) of tile `tile` (the raster index).
struct TileWork {
  int tile, k0, k1;
};

struct StreamKScheduler {
  int tiles, k_tiles, units, unit, sk_tiles;

  // The first stream-K iteration of unit u (iteration i is k-tile i % k_tiles of tile i / k_tiles).
  TESSERA_HOST_DEVICE int begin(int u) const { return int((long long)sk_tiles * k_tiles * u / units); }
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // f may be a host-only function object (the host tests' lambdas)
#endif
  template <class F>
  TESSERA_HOST_DEVICE void for_each(F&& f) const {
    int const end = begin(unit + 1);
    for (int it = begin(unit); it < end;) {
      int const t = it / k_tiles, t0 = t * k_tiles;
      int const e = end < t0 + k_tiles ? end : t0 + k_tiles;
      f(TileWork{t, it - t0, e - t0}, std::true_type{});
      it = e;
    }
    for (int tile = sk_tiles + unit; tile < tiles; tile += units) f(TileWork{tile, 0, k_tiles}, std::false_type{});
  }
  // Whether w is a partial piece that this unit owns (k-tile 0 of a tile split over units) or one
  // that it hands to the owner (starting inside the tile).
  TESSERA_HOST_DEVICE static bool owns_split(TileWork const& w, int k_tiles) { return w.k0 == 0 && w.k1 < k_tiles; }
  TESSERA_HOST_DEVICE static bool contributes(TileWork const& w) { return w.k0 > 0; }
  // The units that hand parts of tile t to its owner (this unit): u = unit + 1, ... while their
  // ranges start inside t, skipping empty ranges; f(u) for each.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // f may be a host-only function object (the host tests' lambdas)
#endif
  template <class F>
  TESSERA_HOST_DEVICE void for_each_contributor(int t, F&& f) const {
    int const t_end = (t + 1) * k_tiles;
    for (int u = unit + 1; u < units && begin(u) < t_end; ++u)
      if (begin(u + 1) > begin(u)) f(u);
  }
};

// A tile of a grouped schedule: its group and its index among the group's tiles.
struct GroupTile {
  int group, tile;
};

struct GroupedScheduler {
  int const* tile_offsets;  // groups + 1 non-decreasing prefix sums, tile_offsets[0] == 0
  int groups, k_tiles, units, unit;

  TESSERA_HOST_DEVICE int tiles() const { return tile_offsets[groups]; }
#if defined(__CUDACC__)
#pragma nv_exec_check_disable  // f may be a host-only function object (the host tests' lambdas)
#endif
  template <class F>
  TESSERA_HOST_DEVICE void for_each(F&& f) const {
    int const n = tiles();
    for (int tile = unit; tile < n; tile += units) f(TileWork{tile, 0, k_tiles}, std::false_type{});
  }
  // The group holding global tile t (0 <= t < tiles()): the last g with tile_offsets[g] <= t, by
  // bisection (empty groups are skipped: their offset equals the next one's).
  TESSERA_HOST_DEVICE GroupTile locate(int t) const {
    int lo = 0, hi = groups - 1;
    while (lo < hi) {
      int const mid = (lo + hi + 1) / 2;
      if (tile_offsets[mid] <= t) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return GroupTile{lo, t - tile_offsets[lo]};
  }
};

}  // namespace tessera::sm90
