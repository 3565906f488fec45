// algorithm/copy_rules.hpp: each rule on a small copy (compile time and run time agree), and the law
// of copy's plan built on them (detail::vector_plan): when it holds, its runs cover every element
// once, each run N consecutive, N-aligned offsets on both sides; when it does not, the rules say why.
#include "tessera/algorithm/copy_rules.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tessera/algorithm/copy.hpp"

using namespace tessera;

namespace {
// A strided 1-D side: element i at start + i * step.
struct Strided {
  long long start, step;
  TESSERA_HOST_DEVICE constexpr long long operator()(long long i) const { return start + i * step; }
};
// The inverse of Strided{0, 1} over n elements.
struct IdentityOf {
  long long n;
  TESSERA_HOST_DEVICE constexpr long long operator()(long long o) const { return o >= 0 && o < n ? o : -1; }
};
constexpr auto any_run = [](long long) { return true; };

constexpr CopyRunViolation runs(long long n, int vec, Strided s) {
  return copy_runs_violation(n, vec, n, s, Strided{0, 1}, IdentityOf{n}, any_run);
}
}  // namespace

TEST(CopyRules, WidthsHoldWholeElementsAndMoreThanOne) {
  static_assert(copy_width_ok(128, 16) && copy_width_ok(64, 32) && copy_width_ok(16, 8));
  static_assert(!copy_width_ok(16, 16));  // one element: an ordinary access
  static_assert(!copy_width_ok(32, 64));  // part of an element
  static_assert(!copy_width_ok(96, 32));  // not a width copy tries
  static_assert(!copy_width_ok(128, 0));
  EXPECT_TRUE(copy_width_ok(128, 8));
}

TEST(CopyRules, EachRuleAtItsElement) {
  // Legal: 8 elements at offsets 0..7 in runs of 4.
  static_assert(runs(8, 4, Strided{0, 1}).rule == CopyRule::ok && runs(8, 4, Strided{0, 1}).runs == 2);
  // copy.run_align: the first run starts at source offset 2.
  constexpr CopyRunViolation a = runs(8, 4, Strided{2, 1});
  static_assert(a.rule == CopyRule::run_align && a.index == 0 && a.got == 2);
  // copy.contiguous: stride 2, element 1 at offset 2 where the run needs 1.
  constexpr CopyRunViolation c = runs(8, 4, Strided{0, 2});
  static_assert(c.rule == CopyRule::contiguous && c.lane == 1 && c.other == 1 && c.expected == 1 && c.got == 2);
  // copy.contiguous on the destination: dst offsets 0, 2, 4, ... have no offset 1.
  constexpr auto gap = copy_runs_violation(
      4, 2, 7, Strided{0, 1}, Strided{0, 2}, [](long long o) { return o % 2 == 0 && o < 8 ? o / 2 : -1; }, any_run);
  static_assert(gap.rule == CopyRule::contiguous && gap.other == -1 && gap.got == -1 && gap.dst_offset == 0);
  // copy.cover: a plan with room for one run stops at the second.
  int room = 1;
  const CopyRunViolation full =
      copy_runs_violation(8, 4, 8, Strided{0, 1}, Strided{0, 1}, IdentityOf{8}, [&](long long) { return room-- > 0; });
  EXPECT_EQ(full.rule, CopyRule::cover);
  EXPECT_EQ(full.index, 4);
}

TEST(CopyRules, AnOrphanIsAnElementWhoseRunHasNoStart) {
  // dst offsets {0, 1, 3, 5} (not a layout's, but the rule's case): runs of 2 from 0 only; 3 and 5 orphaned.
  const std::vector<long long> d = {0, 1, 3, 5};
  auto at = [&](long long i) { return d[std::size_t(i)]; };
  auto index_of = [&](long long o) -> long long {
    for (std::size_t k = 0; k < d.size(); ++k)
      if (d[k] == o) return (long long)k;
    return -1;
  };
  const CopyRunViolation v = copy_runs_violation(4, 2, 6, Strided{0, 1}, at, index_of, any_run);
  EXPECT_EQ(v.rule, CopyRule::cover);
  EXPECT_EQ(v.runs, 1);
  EXPECT_EQ(copy_orphan(4, 2, at, index_of), 2);
}

// The plan's law over layouts of every kind the rules see: contiguous, strided, transposed, padded.
template <int N, class LS, class LD>
void expect_plan_law(LS ls, LD ld) {
  constexpr auto plan = detail::vector_plan_v<LS, LD, N>;
  const long long n = size(ld);
  // The same rules at run time, over the layouts as callables.
  std::vector<long long> inv(std::size_t(cosize(ld)) + 1, -1);
  for (long long i = 0; i < n; ++i) inv[std::size_t(ld(i))] = i;
  auto index_of = [&](long long o) { return o >= 0 && o < (long long)inv.size() ? inv[std::size_t(o)] : -1; };
  const CopyRunViolation v = copy_runs_violation(n, N, cosize(ld), ls, ld, index_of, any_run);
  EXPECT_EQ(plan.ok, n % N == 0 && v.rule == CopyRule::ok) << to_string(ls) << " -> " << to_string(ld);
  if (!plan.ok) return;
  std::vector<int> seen(std::size_t(n), 0);
  for (int j = 0; j < int(n / N); ++j) {
    const int i = plan.starts[j];
    EXPECT_EQ(ls(i) % N, 0);
    EXPECT_EQ(ld(i) % N, 0);
    for (int k = 0; k < N; ++k) {
      const long long e = inv[std::size_t(ld(i) + k)];
      ASSERT_GE(e, 0);
      EXPECT_EQ(ls(e), ls(i) + k);
      ++seen[std::size_t(e)];
    }
  }
  for (long long i = 0; i < n; ++i) EXPECT_EQ(seen[std::size_t(i)], 1) << "element " << i;
}

TEST(CopyRules, VectorPlanIsTheRulesAndCoversEveryElementOnce) {
  auto col = make_layout(make_shape(_8{}, _8{}));                 // (_8,_8):(_1,_8)
  auto row = make_layout(make_shape(_8{}, _8{}), LayoutRight{});  // (_8,_8):(_8,_1)
  auto padded = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _12{}));
  auto odd = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _9{}));
  expect_plan_law<4>(col, col);
  expect_plan_law<8>(col, col);
  expect_plan_law<4>(row, row);
  expect_plan_law<4>(row, col);     // the transpose: copy.contiguous
  expect_plan_law<4>(padded, col);  // columns 12 apart: runs of 4 start aligned
  expect_plan_law<8>(padded, col);  // 12 % 8: copy.run_align
  expect_plan_law<2>(odd, col);     // 9 % 2: copy.run_align
  expect_plan_law<4>(col, padded);  // into a padded destination
}
