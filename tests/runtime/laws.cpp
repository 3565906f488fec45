// tests/runtime/laws.cpp -- the laws of docs/algebra.md on random static, dynamic and mixed
// layouts, run-time twin.
#include <algorithm>
#include <random>

#include "helpers.hpp"
#include "tessera/runtime/algebra.hpp"  // first: the umbrella of the twin compiles on its own

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

struct Gen {
  std::mt19937_64 rng{12345};
  std::int64_t pick(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  }
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
    // The law holds beyond A's domain too, with A as written (its last coordinate unreduced).
    ++checked;
    ASSERT_TRUE(compatible(b.shape, r.shape).value) << str(a) << " o " << str(b) << " = " << str(r);
    for (std::int64_t i = 0; i < size(b).value; ++i)
      ASSERT_EQ(at(r, i), at(a, at(b, i))) << str(a) << " o " << str(b) << " = " << str(r) << " at " << i;
  }
  EXPECT_GT(checked, 200);
}

// Beyond A's domain, A is the function its shape and stride give, its last mode unbounded as
// written (not as coalesce(A) would continue it): A ending in a static size-1 mode, B reaching past
// size(A). composition((_4,_1):(_2,_1), (_4,(_2,_4,_2)):(_16,(_4,_1,_8))) = (_4,(_2,_4,_2)):(_4,(_1,_2,_2)).
TEST(RuntimeAlgebraLaws, CompositionBeyondTheDomainFollowsAAsWritten) {
  Gen g;
  int beyond = 0;
  for (int k = 0; k < 3000; ++k) {
    Layout a = g.layout(false);
    a = append(a, Layout{S(1), S(g.pick(1, 3))});  // a last mode of static size 1 with its own stride
    const Layout b = g.layout(false);
    Layout r;
    try {
      r = composition(a, b);
    } catch (const layout_error&) {
      continue;
    }
    bool past = false;
    for (std::int64_t i = 0; i < size(b).value; ++i) {
      past = past || at(b, i) >= size(a).value;
      ASSERT_EQ(at(r, i), at(a, at(b, i))) << str(a) << " o " << str(b) << " = " << str(r) << " at " << i;
    }
    beyond += past ? 1 : 0;
  }
  EXPECT_GT(beyond, 300);
  EXPECT_EQ(str(composition(L("(_4,_1):(_2,_1)"), L("(_4,(_2,_4,_2)):(_16,(_4,_1,_8))"))),
            "(_4,(_2,_4,_2)):(_4,(_1,_2,_2))");
}

// The composition of one mode B = n:r computed as docs/algebra.md says, without any refusal: each
// mode of A but the last takes min(ceil(s/r), m) elements (skipped when that or m is a static 1),
// the rest goes to the last mode. Returns the (shape, stride) modes and whether the layout, read
// colexicographically with the last mode unbounded, gives A(B(i)) for every i < n.
struct Unchecked {
  std::vector<std::pair<std::int64_t, std::int64_t>> modes;
  bool right = true;
};
Unchecked unchecked_composition(const Layout& a, std::int64_t n, std::int64_t r, bool n_static) {
  std::vector<detail::Mode> f = detail::flat_modes(detail::coalesce_x(a));
  Unchecked u;
  std::int64_t m = n, rest = r;
  bool m_static = n_static, rest_static = n_static;
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    const std::int64_t s = f[i].s.value, c = (s + rest - 1) / rest;
    const bool c_static = f[i].s.is_static && rest_static;
    if (!(c == 1 && c_static) && !(m == 1 && m_static)) {
      const std::int64_t t = std::min(c, m);
      u.modes.emplace_back(t, rest * f[i].d.value);
      m /= t;
      m_static = m_static && c_static;
    }
    rest = (rest + s - 1) / s;
    rest_static = rest_static && f[i].s.is_static;
  }
  u.modes.emplace_back(m, rest * f.back().d.value);
  std::int64_t total = 1;
  for (const auto& md : u.modes) total *= md.first;
  u.right = total == n;  // as many elements as B
  for (std::int64_t i = 0; i < n && u.right; ++i) {
    std::int64_t x = i, v = 0;
    for (std::size_t k = 0; k < u.modes.size(); ++k) {
      const bool last = k + 1 == u.modes.size();
      v += (last ? x : x % u.modes[k].first) * u.modes[k].second;
      x = last ? 0 : x / u.modes[k].first;
    }
    u.right = v == at(a, r * i);
  }
  return u;
}

// Composition refuses a B of one mode exactly when the unchecked result would be wrong (where A,
// as written, is injective on B's offsets; elsewhere equal values can hide a wrong decomposition,
// which is refused all the same), and
// otherwise returns that result, size-1 modes with the stride computed for them (not _0).
// ((_2,_5,_6),_8):((_8,_192,_16),_1) o (_2):(_4) = (_2):(_384): offsets 0 and 4 lie in A's mode of
// size 5 though 2 and 5 do not divide one another.
TEST(RuntimeAlgebraLaws, CompositionRefusesOnlyWrongResults) {
  Gen g;
  int refused = 0, accepted_odd = 0;
  for (int k = 0; k < 6000; ++k) {
    const Layout a = g.layout(true);
    const std::int64_t n = g.pick(1, 12), r = g.pick(1, 13);
    const bool static_b = g.pick(0, 1) == 1;
    const Layout b{Int{n, static_b}, Int{r, static_b}};
    const Unchecked u = unchecked_composition(a, n, r, static_b);
    Layout res;
    try {
      res = composition(a, b);
    } catch (const layout_error&) {
      // A wrong decomposition shows in the values when A, as written, is injective on B's offsets.
      std::vector<std::int64_t> seen;
      for (std::int64_t x = 0; x <= r * (n - 1); ++x) seen.push_back(at(a, x));
      std::sort(seen.begin(), seen.end());
      if (std::adjacent_find(seen.begin(), seen.end()) == seen.end())
        ASSERT_FALSE(u.right) << "refused although right: " << str(a) << " o " << str(b);
      ++refused;
      continue;
    }
    ASSERT_TRUE(u.right) << "accepted although wrong: " << str(a) << " o " << str(b) << " = " << str(res);
    const auto rm = detail::flat_modes(res);
    std::vector<std::pair<std::int64_t, std::int64_t>> got;
    for (const auto& m : rm) got.emplace_back(m.s.value, m.d.value);
    auto want = u.modes;
    if (want.size() > 1 && want.back().first == 1 && got.size() + 1 == want.size())
      want.pop_back();  // a static m of 1 is left out
    ASSERT_EQ(got, want) << str(a) << " o " << str(b) << " = " << str(res);
    bool odd = false;  // accepted with a stride and a mode size that do not divide one another
    for (const auto& m : detail::flat_modes(detail::coalesce_x(a)))
      odd = odd || (m.s.value % r != 0 && r % m.s.value != 0);
    accepted_odd += (odd && n > 1) ? 1 : 0;
  }
  EXPECT_GT(refused, 300);
  EXPECT_GT(accepted_odd, 100);
  EXPECT_EQ(str(composition(L("((_2,_5,_6),_8):((_8,_192,_16),_1)"), L("(_2):(_4)"))), "(_2):(_384)");
}

// A size-1 mode of B keeps the stride composition computes for it: composition(A, (n,_1):(r,q))
// has the mode composition(A, _1:q), whose stride is the one A's last mode gives (not _0), and
// the products that compose with size-1 modes keep them likewise.
// blocked_product((_2,_4):(_8,_1),(_1,_4,_8):(_64,_8,_1)) = ((_2,_1),(_4,_4),(_1,(_2,_4))):((_8,_512),(_1,_64),(_0,(_4,_16))).
TEST(RuntimeAlgebraLaws, SizeOneModesKeepTheirStride) {
  Gen g;
  int nonzero = 0;
  for (int k = 0; k < 2000; ++k) {
    const Layout a = g.layout(false);
    const std::int64_t q = g.pick(1, 40);
    Layout one;
    try {
      one = composition(a, Layout{S(1), S(q)});
    } catch (const layout_error&) {
      continue;
    }
    const Unchecked u = unchecked_composition(a, 1, q, true);
    ASSERT_EQ(str(one), "_1:" + to_string(detail::flat_modes(one)[0].d)) << str(a);
    ASSERT_EQ(detail::flat_modes(one)[0].d.value, u.modes.back().second)
        << str(a) << " o _1:_" << q << " = " << str(one);
    nonzero += detail::flat_modes(one)[0].d.value != 0 ? 1 : 0;
    const Layout b = make_layout(std::vector<Layout>{Layout{S(2), S(1)}, Layout{S(1), S(q)}});
    Layout both;
    try {
      both = composition(a, b);
    } catch (const layout_error&) {
      continue;
    }
    ASSERT_EQ(str(layout(both, 1)), str(one)) << str(a) << " o " << str(b) << " = " << str(both);
  }
  EXPECT_GT(nonzero, 1000);
  EXPECT_EQ(str(blocked_product(L("(_2,_4):(_8,_1)"), L("(_1,_4,_8):(_64,_8,_1)"))),
            "((_2,_1),(_4,_4),(_1,(_2,_4))):((_8,_512),(_1,_64),(_0,(_4,_16)))");
}

// A rank-1 tuple stays a tuple: tiled and flat divide/product split a mode of the zipped result
// only when its rank is above 1 and keep a mode of rank 1 (an integer or a rank-1 tuple) whole;
// values are those of the zipped result in the same order.
// tiled_divide((_8):(_1),(_4)) = ((_4),(_2)):((_1),(_4)); flat_divide((_2):(_1),(_1)) = ((_1),(_2)):((_0),(_1)).
TEST(RuntimeAlgebraLaws, RankOneTuplesStayTuples) {
  Gen g;
  int checked = 0;
  auto rank_of_layout = [](const Layout& l) { return l.shape.is_tuple() ? l.shape.children().size() : std::size_t{1}; };
  for (int k = 0; k < 2000; ++k) {
    Layout a = g.layout(false);
    if (g.pick(0, 1)) a = make_layout(std::vector<Layout>{a});  // a rank-1 tuple around it
    const auto am = modes(a);
    Tiler t;
    for (std::size_t i = 0; i < am.size() && (i == 0 || g.pick(0, 1)); ++i) {
      const std::int64_t n = size(am[i]).value;
      std::int64_t d = g.pick(1, n);
      while (n % d != 0) --d;
      const Layout tile{Int{d, true}, S(1)};
      if (g.pick(0, 1)) t.emplace_back(make_layout(std::vector<Layout>{tile}));  // (d):(_1)
      else t.emplace_back(tile);
    }
    for (int product = 0; product < 2; ++product) {
      Layout z, td, fd;
      try {
        z = product ? zipped_product(a, t) : zipped_divide(a, t);
        td = product ? tiled_product(a, t) : tiled_divide(a, t);
        fd = product ? flat_product(a, t) : flat_divide(a, t);
      } catch (const layout_error&) {
        continue;
      }
      ++checked;
      const Layout z0 = layout(z, 0), z1 = layout(z, 1);
      std::vector<Layout> want_t{z0}, want_f;
      for (const Layout& part : {z0, z1}) {
        const auto ms = rank_of_layout(part) == 1 ? std::vector<Layout>{part} : modes(part);
        want_f.insert(want_f.end(), ms.begin(), ms.end());
      }
      const auto m1 = rank_of_layout(z1) == 1 ? std::vector<Layout>{z1} : modes(z1);
      want_t.insert(want_t.end(), m1.begin(), m1.end());
      ASSERT_EQ(str(td), str(make_layout(want_t))) << str(a);
      ASSERT_EQ(str(fd), str(make_layout(want_f))) << str(a);
      for (std::int64_t i = 0; i < size(z).value; ++i) {
        ASSERT_EQ(at(td, i), at(z, i)) << str(a);
        ASSERT_EQ(at(fd, i), at(z, i)) << str(a);
      }
      ASSERT_EQ(rank_of_layout(z0), t.size()) << str(a);  // one tile per tiler mode, a rank-1 tuple for one
    }
  }
  EXPECT_GT(checked, 1000);
  EXPECT_EQ(E("tiled_divide((_8):(_1),(_4))"), "((_4),(_2)):((_1),(_4))");
  EXPECT_EQ(E("flat_divide((_2):(_1),(_1))"), "((_1),(_2)):((_0),(_1))");
  EXPECT_EQ(E("flat_divide((_8):(_1),[(_8):(_1)])"), "(((_8)),(_1)):(((_1)),(_0))");
  EXPECT_EQ(E("tiled_product((_3):(_1),(_2):(_1))"), "((_3),(_2)):((_1),(_3))");
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
