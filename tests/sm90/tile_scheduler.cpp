// Tests of include/tessera/sm90/tile_scheduler.hpp on the host: the persistent and stream-K
// schedules of StreamKScheduler, with the split of kernels/gemm/sm90_policy.hpp
// (gemm_sm90_stream_k_tiles, gemm_sm90_stream_k_plan), and the grouped schedule of GroupedScheduler. The kernels that run
// them: tests/kernels/gemm_sm90.cu (on a GPU).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/kernels/gemm/sm90_policy.hpp"
#include "tessera/sm90/tile_scheduler.hpp"

namespace {

// Stream-K's split (gemm_sm90_stream_k_plan's blocks and tiles) and the blocks' work: every
// k-tile of every tile is done by exactly one block; a block does its stream-K pieces first, at
// most one of them handed over (its first) and at most one owned split (its last); a split tile
// has one owner, at most three pieces, and its owner's contributors are the blocks holding its
// other pieces.
TEST(StreamKScheduler, CoversEveryKTileOnce) {
  using tessera::kernels::detail::gemm_sm90_stream_k_tiles;
  using tessera::sm90::StreamKScheduler;
  using tessera::sm90::TileWork;
  EXPECT_EQ(gemm_sm90_stream_k_tiles(512, 64, 132), 116);       // 4096^3, 128x256: the last 0.88 wave
  EXPECT_EQ(gemm_sm90_stream_k_tiles(2048, 128, 132), 68);      // 8192^3: the last 0.52 wave
  EXPECT_EQ(gemm_sm90_stream_k_tiles(288, 64, 132), 24 + 132);  // 0.18 wave: one whole wave more
  EXPECT_EQ(gemm_sm90_stream_k_tiles(140, 64, 132), 140);       // 1.06 waves: all of them
  EXPECT_EQ(gemm_sm90_stream_k_tiles(264, 64, 132), 0);         // whole waves
  EXPECT_EQ(gemm_sm90_stream_k_tiles(100, 64, 132), 0);         // fewer tiles than blocks
  EXPECT_EQ(gemm_sm90_stream_k_tiles(512, 3, 132), 0);          // too few k-tiles
  EXPECT_EQ(gemm_sm90_stream_k_tiles(5, 1 << 30, 4), 0);        // iterations beyond an int
  // The launches' plans (gemm_sm90_stream_k_plan): with fewer tiles than SMs, every tile shared
  // over up to twice as many blocks.
  for (int sms : {1, 2, 5, 7, 16, 132}) {
    for (int tiles : {1, 3, 6, 7, 13, 24, 52, 140, 200, 301, 512}) {
      for (int k_tiles : {1, 3, 4, 5, 16, 17, 65, 128}) {
        auto const plan = tessera::kernels::detail::gemm_sm90_stream_k_plan(tiles, k_tiles, sms);
        int const units = plan.units, sk = plan.tiles;
        ASSERT_TRUE(sk >= 0 && sk <= tiles);
        std::string const where = std::to_string(tiles) + " tiles, " + std::to_string(k_tiles) + " k-tiles, " +
                                  std::to_string(units) + " blocks";
        std::vector<int> done(std::size_t(tiles) * k_tiles, 0), owners(std::size_t(tiles), 0),
            pieces(std::size_t(tiles), 0);
        std::vector<std::vector<int>> holders(static_cast<std::size_t>(tiles));
        std::vector<std::vector<TileWork>> work(static_cast<std::size_t>(units));
        for (int u = 0; u < units; ++u) {
          StreamKScheduler const sched{tiles, k_tiles, units, u, sk};
          sched.for_each([&](TileWork const& w, auto) { work[std::size_t(u)].push_back(w); });
        }
        for (int u = 0; u < units; ++u) {
          auto const& ws = work[std::size_t(u)];
          for (std::size_t i = 0; i < ws.size(); ++i) {
            TileWork const w = ws[i];
            ASSERT_TRUE(w.tile >= 0 && w.tile < tiles && w.k0 >= 0 && w.k0 < w.k1 && w.k1 <= k_tiles) << where;
            for (int kt = w.k0; kt < w.k1; ++kt) ++done[std::size_t(w.tile) * k_tiles + kt];
            ++pieces[std::size_t(w.tile)];
            if (w.k0 == 0) ++owners[std::size_t(w.tile)];
            bool const split = w.k0 > 0 || w.k1 < k_tiles;
            if (split) {
              ASSERT_LT(w.tile, sk) << where << ": a split tile outside the stream-K tiles";
              holders[std::size_t(w.tile)].push_back(u);
            }
            if (StreamKScheduler::contributes(w)) {
              EXPECT_EQ(i, 0u) << where << ", block " << u << ": a handed-over piece not first";
            }
            if (StreamKScheduler::owns_split(w, k_tiles)) {
              bool last_split = true;
              for (std::size_t j = i + 1; j < ws.size(); ++j)
                last_split = last_split && ws[j].k0 == 0 && ws[j].k1 == k_tiles;
              EXPECT_TRUE(last_split) << where << ", block " << u << ": work after its owned split";
            }
            if (i > 0 && ws[i - 1].tile >= sk) {
              EXPECT_GE(w.tile, sk) << where << ": stream-K after whole tiles";
            }
          }
        }
        for (int c : done) ASSERT_EQ(c, 1) << where;
        for (int t = 0; t < tiles; ++t) {
          ASSERT_EQ(owners[std::size_t(t)], 1) << where << ", tile " << t;
          EXPECT_LE(pieces[std::size_t(t)], 3) << where << ", tile " << t;
          auto const& h = holders[std::size_t(t)];
          if (h.empty()) continue;
          int const owner = h.front();  // the lowest block holds k-tile 0
          std::vector<int> contributors;
          StreamKScheduler const sched{tiles, k_tiles, units, owner, sk};
          sched.for_each_contributor(t, [&](int u) { contributors.push_back(u); });
          EXPECT_EQ(contributors, std::vector<int>(h.begin() + 1, h.end())) << where << ", tile " << t;
        }
      }
    }
  }
}

// Without stream-K (sk_tiles 0) a unit's work is whole tiles unit, unit + units, ... in order; the
// contract's example (7 tiles of 4 k-tiles, 3 units, 4 shared out) gives the pieces it names.
TEST(StreamKScheduler, PersistentAndTheContractsExample) {
  using tessera::sm90::StreamKScheduler;
  using tessera::sm90::TileWork;
  auto pieces = [](StreamKScheduler const& s) {
    std::vector<std::string> out;
    s.for_each([&](TileWork const& w, auto phase) {
      out.push_back(std::to_string(w.tile) + ":" + std::to_string(w.k0) + "-" + std::to_string(w.k1) +
                    (decltype(phase)::value ? "s" : ""));
    });
    return out;
  };
  EXPECT_EQ(pieces(StreamKScheduler{10, 3, 4, 1, 0}), (std::vector<std::string>{"1:0-3", "5:0-3", "9:0-3"}));
  EXPECT_EQ(pieces(StreamKScheduler{7, 4, 3, 0, 4}), (std::vector<std::string>{"0:0-4s", "1:0-1s", "4:0-4"}));
  EXPECT_EQ(pieces(StreamKScheduler{7, 4, 3, 1, 4}), (std::vector<std::string>{"1:1-4s", "2:0-2s", "5:0-4"}));
  EXPECT_EQ(pieces(StreamKScheduler{7, 4, 3, 2, 4}), (std::vector<std::string>{"2:2-4s", "3:0-4s", "6:0-4"}));
}

// The grouped schedule: over groups of 0 to 9 tiles (empty ones included), every tile of every
// group is visited by exactly one unit, in increasing order within a unit, and locate() names the
// group that owns it and its index there.
TEST(GroupedScheduler, EveryTileOfEveryGroupOnce) {
  using tessera::sm90::GroupedScheduler;
  using tessera::sm90::GroupTile;
  using tessera::sm90::TileWork;
  for (int groups : {1, 2, 5, 17}) {
    for (int units : {1, 3, 8, 132}) {
      std::vector<int> sizes(static_cast<std::size_t>(groups));
      for (int g = 0; g < groups; ++g) sizes[std::size_t(g)] = (g * 7 + groups) % 10;  // 0..9, some empty
      std::vector<int> offsets(1, 0);
      for (int n : sizes) offsets.push_back(offsets.back() + n);
      std::vector<std::vector<int>> seen(static_cast<std::size_t>(groups));
      for (int g = 0; g < groups; ++g) seen[std::size_t(g)].assign(std::size_t(sizes[std::size_t(g)]), 0);
      for (int u = 0; u < units; ++u) {
        GroupedScheduler const s{offsets.data(), groups, 4, units, u};
        int last = -1;
        s.for_each([&](TileWork const& w, auto phase) {
          static_assert(!decltype(phase)::value, "a grouped schedule has whole tiles only");
          EXPECT_GT(w.tile, last);
          EXPECT_EQ(w.k0, 0);
          EXPECT_EQ(w.k1, 4);
          last = w.tile;
          GroupTile const gt = s.locate(w.tile);
          ASSERT_TRUE(gt.group >= 0 && gt.group < groups) << w.tile;
          ASSERT_TRUE(gt.tile >= 0 && gt.tile < sizes[std::size_t(gt.group)])
              << "tile " << w.tile << " located in group " << gt.group << " of " << sizes[std::size_t(gt.group)];
          ++seen[std::size_t(gt.group)][std::size_t(gt.tile)];
        });
      }
      for (int g = 0; g < groups; ++g)
        for (int c : seen[std::size_t(g)]) EXPECT_EQ(c, 1) << groups << " groups, " << units << " units, group " << g;
    }
  }
  // The contract's case: groups of 3, 0 and 2 tiles; global tile 3 is the third group's first.
  int const offsets[] = {0, 3, 3, 5};
  GroupedScheduler const s{offsets, 3, 1, 2, 0};
  EXPECT_EQ(s.tiles(), 5);
  EXPECT_EQ(s.locate(3).group, 2);
  EXPECT_EQ(s.locate(3).tile, 0);
  EXPECT_EQ(s.locate(2).group, 0);
  EXPECT_EQ(s.locate(2).tile, 2);
}

}  // namespace
