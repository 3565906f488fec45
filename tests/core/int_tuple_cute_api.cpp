// Tests for the CuTe integer and tuple functions of include/tessera/core/int_tuple.hpp and
// arithmetic_tuple.hpp (issue 9, "Missing API"): laws over ranges of values and nestings, static
// and dynamic operands, and CuTe's results on exact examples (docs/algebra.md, docs/from-cute.md).
#include <numeric>

#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

// ---- integers ------------------------------------------------------------------------------------

TEST(IntegerApi, GcdLcmExactAndStatic) {
  static_assert(std::is_same_v<decltype(gcd(_12{}, Int<18>{})), C<6>>);
  static_assert(std::is_same_v<decltype(lcm(_4{}, _6{})), C<12>>);
  static_assert(std::is_same_v<decltype(gcd(12, Int<18>{})), int>);
  EXPECT_PRINTS(gcd(12, Int<18>{}), "6");
  EXPECT_PRINTS(gcd(_0{}, _0{}), "_0");
  EXPECT_PRINTS(lcm(0, 5), "0");
  EXPECT_PRINTS(gcd(-12, 18), "6");
  // CuTe's variadic gcd over IntTuples: the gcd of every leaf.
  EXPECT_PRINTS(gcd(make_tuple(_4{}, make_tuple(_8{}, _12{}))), "_4");
  EXPECT_PRINTS(gcd(_6{}, make_tuple(_4{}, 10)), "2");
  EXPECT_PRINTS(gcd(_6{}, _4{}, _10{}), "_2");
}

TEST(IntegerApi, GcdLcmLaws) {
  for (int a = -30; a <= 30; ++a) {
    for (int b = -30; b <= 30; ++b) {
      int const g = gcd(a, b), l = lcm(a, b);
      EXPECT_EQ(g, std::gcd(a, b)) << a << "," << b;
      EXPECT_EQ(l, std::lcm(a, b)) << a << "," << b;
      if (g != 0) {
        EXPECT_EQ(a % g, 0);
        EXPECT_EQ(b % g, 0);
      }
      EXPECT_EQ(static_cast<long long>(g) * l, std::abs(static_cast<long long>(a) * b));
    }
  }
}

TEST(IntegerApi, BitWidthAndLog2) {
  static_assert(std::is_same_v<decltype(bit_width(_8{})), C<4>>);
  static_assert(std::is_same_v<decltype(log_2(_8{})), C<3>>);
  static_assert(std::is_same_v<decltype(bit_width(_0{})), C<0>>);
  EXPECT_PRINTS(bit_width(7), "3");
  EXPECT_PRINTS(log_2(9), "3");
  // Law: 2^log_2(x) <= x < 2^(log_2(x)+1), and bit_width(x) == log_2(x) + 1 for x > 0.
  for (long long x = 1; x < (1LL << 20); x = x * 3 / 2 + 1) {
    int const k = log_2(x);
    EXPECT_LE(1LL << k, x);
    EXPECT_LT(x, 1LL << (k + 1));
    EXPECT_EQ(bit_width(x), k + 1);
  }
  EXPECT_THROW(log_2(0), layout_error);
  EXPECT_THROW(bit_width(-1), layout_error);
  try {
    (void)log_2(-4);
    FAIL() << "log_2(-4) did not throw";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("log_2(x): x must be positive"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("-4"), std::string::npos) << e.what();
  }
}

// ---- tuple arithmetic ----------------------------------------------------------------------------

TEST(IntTupleApi, RoundUpExact) {
  EXPECT_PRINTS(round_up(13, _4{}), "16");
  EXPECT_PRINTS(round_up(Int<13>{}, _4{}), "_16");
  EXPECT_PRINTS(round_up(make_tuple(_5{}, make_tuple(7, _8{})), make_tuple(_4{}, make_tuple(2, _3{}))), "(_8,(8,_9))");
  EXPECT_PRINTS(round_up(make_tuple(5, 6), make_tuple(4)), "(8,6)");  // missing modes count as _1
  EXPECT_THROW(round_up(5, 0), layout_error);
}

TEST(IntTupleApi, RoundUpLaw) {
  for (int a = 0; a <= 40; ++a) {
    for (int b = 1; b <= 12; ++b) {
      int const r = round_up(a, b);
      EXPECT_EQ(r % b, 0);
      EXPECT_GE(r, a);
      EXPECT_LT(r - a, b);
      EXPECT_EQ(r, ceil_div(a, b) * b);
    }
  }
}

TEST(IntTupleApi, ElemScale) {
  EXPECT_PRINTS(elem_scale(make_tuple(2, 3), make_tuple(4, make_tuple(2, 3))), "(8,18)");
  EXPECT_PRINTS(elem_scale(_2{}, S<3, 4>()), "_24");
  // Law: product(elem_scale(a, b)) == product(a) * product(b), result congruent with a.
  for (int i = 1; i <= 5; ++i) {
    for (int j = 1; j <= 5; ++j) {
      auto a = make_tuple(i, make_tuple(j, 2));
      auto b = make_tuple(make_tuple(j, 3), make_tuple(i, _2{}));
      auto r = elem_scale(a, b);
      static_assert(decltype(congruent(r, a))::value);
      EXPECT_EQ(product(r), product(a) * product(b));
    }
  }
}

TEST(IntTupleApi, FilterZeros) {
  EXPECT_PRINTS(filter_zeros(make_tuple(_0{}, 2, make_tuple(_0{}, 3)), make_tuple(4, 5, make_tuple(6, 7))),
                "(_1,5,(_1,7))");
  // A _0 facing a sub-tuple turns every leaf of it into _1 (CuTe's repeat_like).
  EXPECT_PRINTS(filter_zeros(make_tuple(_0{}, 1), make_tuple(make_tuple(4, 5), 6)), "((_1,_1),6)");
  EXPECT_PRINTS(filter_zeros(make_tuple(_0{}, 0, _3{})), "(_1,0,_3)");  // only a static _0 counts
}

// ---- tuple algorithms ----------------------------------------------------------------------------

TEST(TupleApi, InsertReplaceFrontBack) {
  auto t = make_tuple(2, make_tuple(3, 4), _5{});
  EXPECT_PRINTS(insert<1>(make_tuple(2, 3, 5), _4{}), "(2,_4,3,5)");
  EXPECT_PRINTS(insert<0>(tuple<>{}, 7), "(7)");
  EXPECT_PRINTS(replace_front(t, _8{}), "(_8,(3,4),_5)");
  EXPECT_PRINTS(replace_back(t, _8{}), "(2,(3,4),_8)");
  EXPECT_PRINTS(replace_back(5, 7), "7");
  EXPECT_PRINTS(front(make_tuple(make_tuple(2, 3), 4)), "2");
  EXPECT_PRINTS(back(t), "_5");
  EXPECT_PRINTS(back(make_tuple(2, make_tuple(3, 4))), "4");
  // Laws: insert then remove is the identity; insert puts x at N; front/back are the flat ends.
  for_each_index<4>([&](auto n) {
    constexpr int N = decltype(n)::value;
    auto u = make_tuple(1, make_tuple(2, 3), 4);
    auto v = insert<N>(u, _9{});
    EXPECT_EQ(get<N>(v), 9);
    EXPECT_TRUE(remove<N>(v) == u);
    EXPECT_EQ(rank(v), rank(u) + 1);
  });
  EXPECT_EQ(front(t), get<0>(flatten(t)));
  EXPECT_EQ(back(t), get<3>(flatten(t)));
}

TEST(TupleApi, ApplyAndZip) {
  EXPECT_EQ(apply(make_tuple(2, 3, 4), [](auto... x) { return (x + ...); }), 9);
  EXPECT_PRINTS(apply(S<2, 3>(), [](auto a, auto b) { return a * b; }), "_6");
  EXPECT_PRINTS(zip(make_tuple(2, 3), make_tuple(4, 5)), "((2,4),(3,5))");
  EXPECT_PRINTS(zip(make_tuple(make_tuple(_1{}, _2{}, _3{}), make_tuple(4, 5, 6))), "((_1,4),(_2,5),(_3,6))");
  EXPECT_PRINTS(zip(make_tuple(2, 3)), "((2,3))");  // CuTe: a tuple of non-tuples is wrapped
  EXPECT_PRINTS(zip(7), "7");
  // Law: zip of a rectangular tuple of tuples is a transpose, so zip(zip(t)) == t.
  auto t = make_tuple(make_tuple(1, 2, 3), make_tuple(4, 5, 6));
  EXPECT_TRUE(zip(zip(t)) == t);
  EXPECT_EQ((get<2, 1>(zip(t))), (get<1, 2>(t)));
}

TEST(TupleApi, Unflatten) {
  EXPECT_PRINTS(unflatten(make_tuple(2, 3, 4, 5), make_tuple(make_tuple(_, _), make_tuple(_, _))), "((2,3),(4,5))");
  EXPECT_PRINTS(unflatten(make_tuple(2, 3, 4), make_tuple(1, make_tuple(1, 1))), "(2,(3,4))");
  EXPECT_PRINTS(unflatten(make_tuple(_7{}), 1), "_7");
  // Law: flatten(unflatten(f, p)) == f and the result is congruent with p.
  auto p = make_tuple(make_tuple(0, make_tuple(0, 0)), 0, make_tuple(0));
  auto f = make_tuple(1, _2{}, 3, 4, _5{});
  auto u = unflatten(f, p);
  static_assert(decltype(congruent(u, p))::value);
  EXPECT_TRUE(flatten(u) == f);
  EXPECT_PRINTS(u, "((1,(_2,3)),4,(_5))");
}

TEST(TupleApi, FindAndPredicates) {
  static_assert(std::is_same_v<decltype(find(make_tuple(_2{}, _1{}, _3{}), _1{})), C<1>>);
  static_assert(std::is_same_v<decltype(find(make_tuple(2, _1{}), _4{})), C<2>>);  // none: rank
  static_assert(
      std::is_same_v<decltype(find_if(make_tuple(2, _1{}, 3), [](auto x) { return C<is_static_v<decltype(x)>>{}; })),
                     C<1>>);
  static_assert(std::is_same_v<decltype(find(_3{}, _3{})), C<0>>);
  static_assert(std::is_same_v<decltype(find(_3{}, _4{})), C<1>>);
  auto is_one = [](auto x) { return x == _1{}; };
  EXPECT_PRINTS(any_of(make_tuple(_1{}, 3), is_one), "_true");   // a static true decides
  EXPECT_PRINTS(any_of(make_tuple(_2{}, 1), is_one), "true");    // decided at run time
  EXPECT_PRINTS(all_of(make_tuple(_2{}, 1), is_one), "_false");  // a static false decides
  EXPECT_PRINTS(none_of(S<2, 3>(), is_one), "_true");
  EXPECT_PRINTS(all_of(tuple<>{}, is_one), "_true");
  EXPECT_PRINTS(any_of(tuple<>{}, is_one), "_false");
  // Law: none_of == !any_of, and all_of(t, f) == !any_of(t, !f), over every 3-digit 0/1 tuple.
  for (int m = 0; m < 8; ++m) {
    auto t = make_tuple(m & 1, (m >> 1) & 1, (m >> 2) & 1);
    auto f = [](auto x) { return x == 1; };
    auto g = [](auto x) { return !(x == 1); };
    EXPECT_EQ(bool(none_of(t, f)), !bool(any_of(t, f)));
    EXPECT_EQ(bool(all_of(t, f)), !bool(any_of(t, g)));
    EXPECT_EQ(bool(all_of(t, f)), m == 7);
  }
}

// ---- coordinates ---------------------------------------------------------------------------------

TEST(IntTupleApi, Idx2CrdWithStride) {
  EXPECT_PRINTS(idx2crd(7, make_tuple(2, 4), make_tuple(4, 1)), "(1,3)");
  EXPECT_PRINTS(idx2crd(7, make_tuple(2, 4), 1), "(1,3)");  // integer stride: compact col-major from it
  EXPECT_PRINTS(idx2crd(_7{}, S<2, 4>(), S<4, 1>()), "(_1,_3)");
  EXPECT_PRINTS(idx2crd(5, make_tuple(_1{}, 8), make_tuple(_0{}, 1)), "(_0,5)");  // static size 1: _0
  EXPECT_PRINTS(idx2crd(make_tuple(3, 5), make_tuple(4, make_tuple(2, 3)), make_tuple(1, make_tuple(3, 1))),
                "(3,(1,2))");
  // Law: for every compact layout (any order of the modes), crd2idx(idx2crd(i, s, d), s, d) == i.
  auto shape = make_tuple(2, make_tuple(3, 2), 5);
  int const orders[][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}};
  for (auto const& o : orders) {
    auto stride = compact_order(shape, make_tuple(o[0], make_tuple(o[1], o[2]), o[3]));
    for (int i = 0; i < 60; ++i) {
      auto c = idx2crd(i, shape, stride);
      EXPECT_EQ(crd2idx(c, shape, stride), i) << to_string(stride);
    }
  }
}

TEST(IntTupleApi, Crd2Crd) {
  EXPECT_PRINTS(crd2crd(make_tuple(1, 2), make_tuple(2, 3), 6), "5");
  EXPECT_PRINTS(crd2crd(5, 6, make_tuple(2, 3)), "(1,2)");
  EXPECT_PRINTS(crd2crd(make_tuple(1, make_tuple(1, 2)), make_tuple(3, make_tuple(2, 3)), make_tuple(3, 6)), "(1,5)");
  EXPECT_PRINTS(crd2idx(make_tuple(1, make_tuple(1, 2)), make_tuple(3, make_tuple(2, 3))), "16");
  // Laws: the column-major index is kept, crd2idx(crd2crd(c, s, d), d) == crd2idx(c, s), for an
  // integer or a tuple d (tuples map mode by mode, so their modes have equal sizes), and crd2crd
  // there and back is the identity.
  auto src = make_tuple(make_tuple(2, 3), 4);
  auto dst = make_tuple(6, make_tuple(2, 2));
  for (int i = 0; i < 24; ++i) {
    auto c = idx2crd(i, src);
    EXPECT_EQ(crd2idx(crd2crd(c, src, dst), dst), i);
    EXPECT_EQ(crd2crd(c, src, 24), i);
    EXPECT_TRUE(crd2crd(crd2crd(c, src, dst), dst, src) == c);
  }
}

// ---- comparisons ---------------------------------------------------------------------------------

TEST(IntTupleApi, ElementwiseComparisons) {
  EXPECT_PRINTS(elem_leq(make_tuple(1, 3), make_tuple(1, 4)), "true");
  EXPECT_PRINTS(elem_geq(S<4, 2>(), S<3, 2>()), "_true");
  EXPECT_PRINTS(elem_gtr(S<4, 2>(), S<3, 2>()), "_false");
  EXPECT_PRINTS(elem_leq(make_tuple(_4{}, 2), make_tuple(_3{}, 5)), "_false");  // a static false decides
  EXPECT_PRINTS(elem_leq(make_tuple(1, make_tuple(2, 3)), make_tuple(1, make_tuple(2, 3), 0)), "true");
  // Laws over all pairs of 2-leaf coordinates in [0,3)^2: each is "every leaf", and
  // elem_geq(a,b) == elem_leq(b,a), elem_gtr(a,b) == elem_less(b,a).
  for (int m = 0; m < 81; ++m) {
    auto a = make_tuple(m % 3, (m / 3) % 3);
    auto b = make_tuple((m / 9) % 3, (m / 27) % 3);
    bool const leq = get<0>(a) <= get<0>(b) && get<1>(a) <= get<1>(b);
    EXPECT_EQ(bool(elem_leq(a, b)), leq);
    EXPECT_EQ(bool(elem_geq(a, b)), bool(elem_leq(b, a)));
    EXPECT_EQ(bool(elem_gtr(a, b)), bool(elem_less(b, a)));
    EXPECT_EQ(bool(elem_less(a, b)), get<0>(a) < get<0>(b) && get<1>(a) < get<1>(b));
  }
}

TEST(IntTupleApi, LexColexOrders) {
  EXPECT_PRINTS(lex_leq(make_tuple(1, 2), make_tuple(1, 2)), "true");
  EXPECT_PRINTS(lex_gtr(S<2, 0>(), S<1, 5>()), "_true");
  EXPECT_PRINTS(colex_gtr(S<2, 1>(), S<1, 2>()), "_false");
  EXPECT_PRINTS(colex_geq(S<1, 2>(), S<2, 1>()), "_true");
  // Laws: each order is total (trichotomy), leq == less or equal, geq == !less; colex is lex on
  // the reversed leaves; colex order is the order of column-major indices.
  auto shape = make_tuple(3, make_tuple(2, 2));
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) {
      auto a = idx2crd(i, shape);
      auto b = idx2crd(j, shape);
      int const n = int(bool(lex_less(a, b))) + int(bool(a == b)) + int(bool(lex_gtr(a, b)));
      EXPECT_EQ(n, 1);
      EXPECT_EQ(bool(lex_leq(a, b)), bool(lex_less(a, b)) || bool(a == b));
      EXPECT_EQ(bool(lex_geq(a, b)), !bool(lex_less(a, b)));
      EXPECT_EQ(bool(colex_less(a, b)), i < j);
      EXPECT_EQ(bool(colex_leq(a, b)), i <= j);
      EXPECT_EQ(bool(colex_gtr(a, b)), i > j);
      EXPECT_EQ(bool(colex_geq(a, b)), i >= j);
      EXPECT_EQ(bool(colex_less(a, b)), bool(lex_less(reverse(flatten(a)), reverse(flatten(b)))));
    }
  }
}

// ---- basis elements ------------------------------------------------------------------------------

TEST(ArithmeticTupleApi, MakeBasisLikeAndBasisGet) {
  EXPECT_PRINTS(make_basis_like(make_tuple(4, 8)), "(_1@0,_1@1)");
  EXPECT_PRINTS(make_basis_like(8), "_1");
  EXPECT_PRINTS(basis_get(E<1>{}, make_tuple(2, make_tuple(3, 4))), "(3,4)");
  EXPECT_PRINTS(basis_get(_4{}, make_tuple(2, 3)), "(2,3)");
  // Law: crd2idx(c, shape, make_basis_like(shape)) is c itself (as an ArithmeticTuple), and
  // basis_get(make_basis_like(s)_i, c) == c_i.
  auto shape = make_tuple(3, 5, 2);
  auto basis = make_basis_like(shape);
  for (int i = 0; i < 30; ++i) {
    auto c = idx2crd(i, shape);
    auto r = crd2idx(c, shape, basis);
    EXPECT_EQ(get<0>(r), get<0>(c));
    EXPECT_EQ(get<1>(r), get<1>(c));
    EXPECT_EQ(get<2>(r), get<2>(c));
    EXPECT_EQ(basis_get(get<1>(basis), c), get<1>(c));
  }
}
