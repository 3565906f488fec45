// tests/runtime/algebra.cpp -- the operations of docs/algebra.md: every ALGEBRA.md example
// through the rt API, precondition errors, and the laws on random static/dynamic/mixed layouts.
#include <random>

#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

TEST(RuntimeAlgebra, CompositionExamples) {
  EXPECT_EQ(str(composition(L("(_6,_2):(_8,_2)"), L("(_4,_3):(_3,_1)"))), "((_2,_2),_3):((_24,_2),_8)");
  EXPECT_EQ(str(composition(L("_20:_2"), L("(_5,_4):(_4,_1)"))), "(_5,_4):(_8,_2)");
  EXPECT_EQ(str(composition(L("(_10,_2):(_16,_4)"), L("(_5,_4):(_1,_5)"))), "(_5,(_2,_2)):(_16,(_80,_4))");
  EXPECT_EQ(str(composition(L("(10,2):(16,4)"), L("(5,4):(1,5)"))), "((5,1),(2,2)):((16,4),(80,4))");
  const Layout a = L("(_12,(_4,_8)):(_59,(_13,_1))");
  EXPECT_EQ(str(composition(a, Tiler{L("_3:_4"), L("_8:_2")})), "(_3,(_2,_4)):(_236,(_26,_1))");
  EXPECT_EQ(str(composition(a, T("(_3,_8)"))), "(_3,(_4,_2)):(_59,(_13,_1))");
  EXPECT_EQ(str(composition(L("(_4,_6,_8,_10):(_2,_3,_5,_7)"), L("_6:_12"))), "(_2,_3):(_9,_5)");
  EXPECT_EQ(str(composition(a, Tiler{std::nullopt, L("_8:_2")})), "(_12,(_2,_4)):(_59,(_26,_1))");
}

TEST(RuntimeAlgebra, CompositionErrorsNameTheCondition) {
  try {
    (void)composition(L("(4,8):(1,100)"), L("4:3"));
    FAIL() << "expected an error";
  } catch (const layout_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("composition: stride 3 of B = 4:3 and mode size 4 of A = (4,8):(1,100) do not divide one another"),
              std::string::npos) << m;
  }
  EXPECT_THROW(composition(L("(_4,_8):(_1,_5)"), L("_6:_1")), layout_error);  // 6 > 4 and 4 does not divide 6
  EXPECT_THROW(composition(L("(_4,_8):(_1,_4)"), Tiler{L("_2:_1"), L("_2:_1"), L("_2:_1")}), layout_error);
  // B's modes would carry into one another in A's mixed radix: R(3) would be 2, A(B(3)) is 10
  try {
    (void)composition(L("(_2,_2):(_1,_10)"), L("(_2,_2):(_1,_1)"));
    FAIL() << "expected an error";
  } catch (const layout_error& e) {
    EXPECT_NE(std::string(e.what()).find("carry into one another"), std::string::npos) << e.what();
  }
  // a static _1 size never needs divisibility
  EXPECT_EQ(str(composition(L("(_4,_8):(_1,_5)"), L("_1:_3"))), "_1:_0");
  EXPECT_EQ(str(composition(L("(_4,_8):(_1,_4)"), L("_1:_3"))), "_1:_3");  // A coalesces to _32:_1
}

TEST(RuntimeAlgebra, ComplementExamples) {
  EXPECT_EQ(str(complement(L("_4:_2"), T("_24"))), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(complement(L("_4:_1"), T("_24"))), "_6:_4");
  EXPECT_EQ(str(complement(L("_6:_4"), T("_24"))), "_4:_1");
  EXPECT_EQ(str(complement(L("(_4,_6):(_1,_4)"), T("_24"))), "_1:_0");
  EXPECT_EQ(str(complement(L("(_2,_2):(_1,_6)"), T("_24"))), "(_3,_2):(_2,_12)");
  EXPECT_EQ(str(complement(L("(_2,_2):(_1,_6)"))), "_3:_2");
  EXPECT_EQ(str(complement(L("_1:_0"), T("(_2,_3)"))), "_6:_1");
  EXPECT_EQ(str(complement(L("(2,2):(1,6)"), T("24"))), "(1,3,2):(1,2,12)");  // dynamic strides: all dynamic, no _1 to drop
  EXPECT_THROW(complement(L("(_2,_2):(_1,_1)"), T("_24")), layout_error);       // not injective
  EXPECT_THROW(complement(L("(_2,_3):(_2,_3)"), T("_24")), layout_error);       // 3 not divisible by 4
}

TEST(RuntimeAlgebra, Inverses) {
  EXPECT_EQ(str(right_inverse(L("(_4,_2):(_1,_16)"))), "_4:_1");
  EXPECT_EQ(str(left_inverse(L("(_4,_2):(_1,_16)"))), "(_16,_2):(_1,_4)");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_4,_1)"))), "(_4,_2):(_2,_1)");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_3,_5)"))), "_1:_0");
  EXPECT_THROW(left_inverse(L("(_2,_2):(_1,_1)")), layout_error);
}

TEST(RuntimeAlgebra, DivideExamples) {
  EXPECT_EQ(str(logical_divide(L("(_4,_2,_3):(_2,_1,_8)"), L("_4:_2"))), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(str(logical_divide(L("_1000:_1"), L("_128:_1"))), "(_128,_8):(_1,_128)");
  const Layout a = L("(_9,(_4,_8)):(_59,(_13,_1))");
  const Tiler t{L("_3:_3"), L("(_2,_4):(_1,_8)")};
  EXPECT_EQ(str(logical_divide(a, t)), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
  EXPECT_EQ(str(zipped_divide(a, t)), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
  EXPECT_EQ(str(tiled_divide(a, t)), "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))");
  EXPECT_EQ(str(flat_divide(a, t)), "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))");
  EXPECT_EQ(str(zipped_divide(L("(2048,2048):(2048,_1)"), make_tiler(T("(_1,_4)")))),
            "((_1,_4),(2048,512)):((_0,_1),(2048,_4))");
  EXPECT_EQ(str(flat_divide(L("(_4,_2,_3):(_2,_1,_8)"), L("_4:_2"))), "(_2,_2,_2,_3):(_4,_1,_2,_8)");
}

TEST(RuntimeAlgebra, ProductExamples) {
  EXPECT_EQ(str(logical_product(L("(_2,_2):(_4,_1)"), L("_6:_1"))), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(str(blocked_product(L("(_2,_5):(_5,_1)"), L("(_3,_4):(_1,_3)"))), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
  EXPECT_EQ(str(raked_product(L("(_2,_5):(_5,_1)"), L("(_3,_4):(_1,_3)"))), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
  EXPECT_EQ(str(tile_to_shape(L("(_8,_8):(_8,_1)"), T("(_64,_32)"))), "((_8,_8),(_8,_4)):((_8,_64),(_1,_512))");
  EXPECT_EQ(str(logical_product(L("(_2,_3):(_1,_2)"), Tiler{L("_2:_1"), L("_2:_1")})), "((_2,_2),(_3,_2)):((_1,_2),(_2,_1))");
  EXPECT_EQ(str(zipped_product(L("(_2,_3):(_1,_2)"), Tiler{L("_2:_1"), L("_2:_1")})), "((_2,_3),(_2,_2)):((_1,_2),(_2,_1))");
  EXPECT_THROW(tile_to_shape(L("(_3,_3):(_1,_3)"), T("(_8,_9)")), layout_error);
}

TEST(RuntimeAlgebra, MakeLayoutTv) {
  const Layout thr = L("(_4,_32):(_32,_1)"), val = L("(_4,_8):(_8,_1)");
  EXPECT_EQ(str(raked_product(thr, val)), "((_4,_4),(_8,_32)):((_1024,_32),(_128,_1))");
  auto [tiler, tv] = make_layout_tv(thr, val);
  EXPECT_EQ(to_string(tiler), "(_16,_256)");
  EXPECT_EQ(str(tv), "((_32,_4),(_8,_4)):((_128,_4),(_16,_1))");
  // ALGEBRA.md: the tile (16,256):(2048,1) o tv prints ((32,4),(8,4)):((8,8192),(1,2048)). With a
  // static tile shape docs/algebra.md gives those values; with every integer dynamic it keeps the
  // dynamic size-1 modes (only static _1 modes are dropped by coalesce), see the report/docs.
  EXPECT_EQ(str(composition(L("(_16,_256):(2048,_1)"), tv)), "((_32,_4),(_8,_4)):((_8,8192),(_1,2048))");
  EXPECT_EQ(str(composition(L("(16,256):(2048,1)"), tv)),
            "(((1,32),(4,1)),((1,8),(4,1))):(((32768,8),(8192,1)),((32768,1),(2048,1)))");
}

TEST(RuntimeAlgebra, Recast) {
  EXPECT_EQ(str(upcast(L("(_4,_8):(_8,_1)"), 2)), "(_4,_4):(_4,_1)");
  EXPECT_EQ(str(downcast(L("(_4,_8):(_8,_1)"), 2)), "(_4,_16):(_16,_1)");
  EXPECT_EQ(str(recast(L("(_4,_8):(_8,_1)"), 16, 32)), "(_4,_4):(_4,_1)");
  EXPECT_EQ(str(recast(L("(_4,_8):(_8,_1)"), 32, 16)), "(_4,_16):(_16,_1)");
  EXPECT_EQ(str(upcast(L("(_4,_8):(_0,_1)"), 2)), "(_4,_4):(_0,_1)");
  EXPECT_THROW(downcast(L("(4,8):(8,1)"), 2), layout_error);
  EXPECT_THROW(upcast(L("(_4,_8):(_3,_1)"), 2), layout_error);
}

TEST(RuntimeAlgebra, CommonVectorAndNullspace) {
  EXPECT_EQ(to_string(max_common_vector(L("(_4,_8):(_1,_4)"), L("(_4,_8):(_1,_8)"))), "_4");
  EXPECT_EQ(to_string(max_common_vector(L("(4,8):(1,4)"), L("(4,8):(1,8)"))), "_1");
  EXPECT_EQ(str(max_common_layout(L("(_4,_8):(_1,_4)"), L("(_4,_8):(_1,_8)"))), "_4:_1");
  EXPECT_EQ(str(nullspace(L("(_2,_4,_3):(_0,_1,_0)"))), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(nullspace(L("(_2,_4):(_1,_2)"))), "_1:_0");
  EXPECT_EQ(str(make_ordered_layout(T("(_2,_2,_2,_2)"), T("(_0,_2,_3,_1)"))), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
}

TEST(RuntimeAlgebra, SwizzleAndComposed) {
  const Swizzle sw{3, 3, 3};
  const std::int64_t in[] = {0, 8, 64, 72, 127}, out[] = {0, 8, 72, 64, 119};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(apply(sw, D(in[i])).value, out[i]);
  const ComposedLayout c = composition(sw, L("(_8,_64):(_64,_1)"));
  EXPECT_EQ(to_string(c), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(evaluate(c, T("(1,8)")).value, apply(sw, D(72)).value);
  EXPECT_EQ(to_string(slice(T("(_1,_)"), c)), "Sw<3,3,3> o _64 o (_64):(_1)");
  EXPECT_EQ(to_string(slice(T("(1,_)"), c)), "Sw<3,3,3> o 64 o (_64):(_1)");
  EXPECT_THROW(make_swizzle(3, 3, 1), layout_error);
}

// ---- laws on random layouts ------------------------------------------------------------------

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
