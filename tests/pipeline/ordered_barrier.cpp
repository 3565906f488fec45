// Tests of include/tessera/pipeline/ordered_barrier.hpp on the host: the parities its groups wait
// for, played against a model of mbarriers (a wait for parity p passes once the barrier's latest
// completed phase has parity p), with the groups stepping in every order a seeded generator picks:
// the entries always come in the cyclic order 0, 1, ..., Groups - 1, 0, ... and no group blocks
// forever. The barriers themselves run in the ping-pong GEMM's device tests (tests/kernels).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tessera/pipeline/ordered_barrier.hpp"

namespace {

template <int Groups>
void expect_cyclic_order(unsigned seed) {
  using O = tessera::OrderedBarrier<Groups>;
  std::vector<int> completed(Groups, 0);  // phases completed by each turn barrier (one arrival each)
  std::vector<tessera::OrderedTurn> turns;
  std::vector<bool> inside(Groups, false);
  for (int g = 0; g < Groups; ++g) turns.push_back(O::turn(g));
  auto passes = [&](tessera::OrderedTurn const& t) {
    int const p = O::parity(t);
    int const c = completed[std::size_t(t.group)];
    return p < 0 || (c > 0 && (c - 1) % 2 == p);
  };
  std::mt19937 rng(seed);
  std::vector<int> order;
  for (int step = 0; step < 4000 && order.size() < 300; ++step) {
    int const g = int(rng() % Groups);
    auto& t = turns[std::size_t(g)];
    if (inside[std::size_t(g)]) {  // leave: the next group's turn barrier completes a phase
      ++completed[std::size_t((g + 1) % Groups)];
      inside[std::size_t(g)] = false;
    } else if (passes(t)) {  // enter
      ++t.entries;
      inside[std::size_t(g)] = true;
      order.push_back(g);
    }
  }
  ASSERT_GE(order.size(), 300u) << "the groups blocked (seed " << seed << ")";
  for (std::size_t i = 0; i < order.size(); ++i) ASSERT_EQ(order[i], int(i % Groups)) << "entry " << i;
}

TEST(OrderedBarrier, GroupsEnterInCyclicOrder) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    expect_cyclic_order<2>(seed);
    expect_cyclic_order<3>(seed);
  }
}

TEST(OrderedBarrier, FirstEntriesAndParities) {
  using O = tessera::OrderedBarrier<2>;
  tessera::OrderedTurn a = O::turn(0), b = O::turn(1);
  EXPECT_EQ(O::parity(a), -1);  // group 0 starts
  EXPECT_EQ(O::parity(b), 0);   // group 1 waits for group 0's first leave
  a.entries = 1;
  b.entries = 1;
  EXPECT_EQ(O::parity(a), 0);  // group 1's first leave
  EXPECT_EQ(O::parity(b), 1);
  static_assert(O::kBarriers == 2);
}

}  // namespace
