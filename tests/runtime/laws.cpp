// tests/runtime/laws.cpp -- the laws of docs/algebra.md on random static, dynamic and mixed
// layouts, run-time twin.
#include <random>

#include "tessera/runtime/algebra.hpp"  // first: the umbrella of the twin compiles on its own
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

struct Gen {
  std::mt19937_64 rng{12345};
  std::int64_t pick(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); }
  Int maybe_static(std::int64_t v) { return Int{v, pick(0, 2) != 0}; }

  // A random layout: shape leaves in {1,2,3,4}, strides a random ordering of compact strides,
  // optionally with gaps, some integers dynamic; nested at random.
  Layout layout(bool injective) {
    const auto n = static_cast<std::size_t>(pick(1, 4));
    std::vector<std::int64_t> s(n);
    for (auto& x : s) x = pick(1, 4);
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::int64_t> d(n);
    std::int64_t cur = pick(1, 2);
    for (auto i : order) {
      d[i] = (!injective && pick(0, 5) == 0) ? 0 : cur;
      cur *= s[i] * pick(1, 2);
    }
    std::vector<IntTuple> sh, st;
    for (std::size_t i = 0; i < n; ++i) {
      sh.push_back(maybe_static(s[i]));
      st.push_back(maybe_static(d[i]));
    }
    if (n >= 3 && pick(0, 1)) {  // nest the first two modes
      sh = {make_tuple({sh[0], sh[1]}), sh[2]};
      st = {make_tuple({st[0], st[1]}), st[2]};
    }
    return make_layout(make_tuple(sh), make_tuple(st));
  }
};

std::int64_t at(const Layout& l, std::int64_t i) { return evaluate(l, D(i)).value; }

TEST(RuntimeAlgebraLaws, Composition) {
  Gen g;
  int checked = 0;
  for (int k = 0; k < 3000; ++k) {
    const Layout a = g.layout(false), b = g.layout(false);
    Layout r;
    try {
      r = composition(a, b);
    } catch (const layout_error&) {
      continue;
    }
    // The law holds on A's domain: B's image must lie inside [0, size(A)).
    std::int64_t hi = 0;
    for (std::int64_t i = 0; i < size(b).value; ++i) hi = std::max(hi, at(b, i));
    if (hi >= size(a).value) continue;
    ++checked;
    ASSERT_TRUE(compatible(b.shape, r.shape).value) << str(a) << " o " << str(b) << " = " << str(r);
    for (std::int64_t i = 0; i < size(b).value; ++i)
      ASSERT_EQ(at(r, i), at(a, at(b, i))) << str(a) << " o " << str(b) << " = " << str(r) << " at " << i;
  }
  EXPECT_GT(checked, 200);
}

TEST(RuntimeAlgebraLaws, CoalesceAndFilter) {
  Gen g;
  for (int k = 0; k < 2000; ++k) {
    const Layout a = g.layout(false);
    const Layout c = coalesce(a);
    ASSERT_EQ(size(c).value, size(a).value) << str(a);
    ASSERT_LE(depth(c).value, 1) << str(a);
    for (std::int64_t i = 0; i < size(a).value; ++i) ASSERT_EQ(at(c, i), at(a, i)) << str(a) << " -> " << str(c);
  }
}

TEST(RuntimeAlgebraLaws, Complement) {
  Gen g;
  int checked = 0;
  for (int k = 0; k < 2000; ++k) {
    const Layout a = g.layout(true);
    const std::int64_t m = cosize(a).value * g.pick(1, 3);
    Layout r;
    try {
      r = complement(a, Int{m, g.pick(0, 1) == 1});
    } catch (const layout_error&) {
      continue;
    }
    ++checked;
    for (std::int64_t i = 1; i < size(r).value; ++i) {
      ASSERT_LT(at(r, i - 1), at(r, i)) << "complement(" << str(a) << ", " << m << ") = " << str(r);
      for (std::int64_t j = 0; j < size(a).value; ++j) ASSERT_NE(at(r, i), at(a, j)) << str(a) << " / " << str(r);
    }
    ASSERT_GE(cosize(make_layout(std::vector<Layout>{a, r})).value, m) << str(a) << " / " << str(r);
  }
  EXPECT_GT(checked, 500);
}

TEST(RuntimeAlgebraLaws, Inverses) {
  Gen g;
  for (int k = 0; k < 2000; ++k) {
    const Layout a = g.layout(true);
    const Layout ri = right_inverse(a);
    for (std::int64_t i = 0; i < size(ri).value; ++i) ASSERT_EQ(at(a, at(ri, i)), i) << str(a) << " / " << str(ri);
    Layout li;
    try {
      li = left_inverse(a);
    } catch (const layout_error&) {
      continue;
    }
    for (std::int64_t i = 0; i < size(a).value; ++i) ASSERT_EQ(at(li, at(a, i)), i) << str(a) << " / " << str(li);
  }
}

TEST(RuntimeAlgebraLaws, DivideAndProduct) {
  Gen g;
  int checked = 0;
  for (int k = 0; k < 2000; ++k) {
    const Layout a = g.layout(false), t = g.layout(true);
    try {
      const Layout z = zipped_divide(a, t);
      ASSERT_EQ(str(layout(z, 0)), str(composition(a, t))) << str(a) << " / " << str(t);
      const Layout p = logical_product(a, t);
      ASSERT_EQ(str(layout(p, 0)), str(a));
      ASSERT_TRUE(compatible(t.shape, layout(p, 1).shape).value) << str(a) << " * " << str(t);
      ++checked;
    } catch (const layout_error&) {
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace tessera::rt::test
