// Exact tests for include/tessera/core/int_tuple.hpp (docs/algebra.md: integers, tuples, coordinates).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(IntTuple, RankDepthSize) {
  auto t = make_tuple(make_tuple(2, 3), 4);
  static_assert(decltype(rank(t))::value == 2);
  static_assert(decltype(depth(t))::value == 2);
  static_assert(decltype(depth(5))::value == 0);
  EXPECT_EQ(size(t), 24);
  static_assert(std::is_same_v<decltype(size(S<2, 3, 4>())), C<24>>);
  EXPECT_PRINTS(product_each(make_tuple(make_tuple(2, _3{}), 4)), "(6,4)");
  EXPECT_EQ(inner_product(make_tuple(2, 3), make_tuple(4, 5)), 23);
}

TEST(IntTuple, Coordinates) {
  auto shape = make_tuple(3, make_tuple(2, 3));
  EXPECT_PRINTS(idx2crd(16, shape), "(1,(1,2))");
  EXPECT_EQ(crd2idx(16, shape, make_tuple(3, make_tuple(12, 1))), 17);
  // Static coordinates on static shapes give static offsets.
  static_assert(std::is_same_v<decltype(crd2idx(_5{}, S<2, 4>(), S<4, 1>())), C<6>>);
  for (int i = 0; i < 18; ++i) {
    EXPECT_EQ(crd2idx(idx2crd(i, shape), shape, prefix_product(shape)), i);
  }
}

TEST(IntTuple, Compatible) {
  EXPECT_TRUE(compatible(24, make_tuple(4, 6)));
  EXPECT_TRUE(compatible(make_tuple(4, 6), make_tuple(make_tuple(2, 2), 6)));
  EXPECT_FALSE(compatible(make_tuple(make_tuple(2, 3), 4), make_tuple(make_tuple(2, 2), make_tuple(3, 2))));
  static_assert(decltype(compatible(S<4, 6>(), make_tuple(S<2, 2>(), _6{})))::value);
  static_assert(decltype(congruent(S<4, 6>(), make_tuple(1, 2)))::value);
  static_assert(!decltype(congruent(S<4, 6>(), make_tuple(make_tuple(1, 1), 2)))::value);
  static_assert(decltype(weakly_congruent(make_tuple(1, 2), make_tuple(make_tuple(1, 1), 2)))::value);
}

TEST(IntTuple, ShapeDivAndCeilDiv) {
  EXPECT_PRINTS(shape_div(S<4, 6>(), _8{}), "(_1,_3)");
  EXPECT_PRINTS(shape_div(_3{}, _6{}), "_1");
  EXPECT_PRINTS(ceil_div(make_tuple(4, 6), 4), "(1,6)");
  // A dynamic 0 divided by 4 is 0, as the static _0 / _4 (it used to be 1).
  EXPECT_PRINTS(shape_div(_0{}, _4{}), "_0");
  EXPECT_PRINTS(shape_div(0, 4), "0");
  EXPECT_PRINTS(shape_div(-2, 8), "-1");
  EXPECT_PRINTS(shape_div(C<-2>{}, _8{}), "_-1");
  EXPECT_THROW(shape_div(6, 4), layout_error);
  try {
    shape_div(6, 4);
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("shape_div"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("6, 4"), std::string::npos);
  }
}

TEST(IntTuple, PrefixProductFlattenSelect) {
  EXPECT_PRINTS(prefix_product(make_tuple(2, make_tuple(3, 4))), "(_1,(2,6))");
  EXPECT_PRINTS(flatten(make_tuple(1, make_tuple(2, make_tuple(3)), 4)), "(1,2,3,4)");
  auto t = make_tuple(2, 3, 5, 7);
  EXPECT_PRINTS((select<1, 3>(t)), "(3,7)");
  EXPECT_PRINTS((take<1, 3>(t)), "(3,5)");
  EXPECT_PRINTS((group<0, 2>(t)), "((2,3),5,7)");
  EXPECT_PRINTS(append(t, _1{}), "(2,3,5,7,_1)");
  EXPECT_PRINTS(prepend(t, _1{}), "(_1,2,3,5,7)");
  EXPECT_PRINTS((append<3>(make_tuple(2), _1{})), "(2,_1,_1)");
}

TEST(IntTuple, Comparisons) {
  EXPECT_TRUE(elem_less(make_tuple(1, 2), make_tuple(2, 3)));
  EXPECT_FALSE(elem_less(make_tuple(1, 3), make_tuple(2, 3)));
  EXPECT_TRUE(lex_less(make_tuple(1, 5), make_tuple(2, 0)));
  EXPECT_FALSE(colex_less(make_tuple(1, 5), make_tuple(2, 0)));
  EXPECT_TRUE(colex_less(make_tuple(2, 0), make_tuple(1, 5)));
  // Static when decidable from the types, like compatible and elem_less (lex_less used to be a
  // plain bool even for static operands).
  EXPECT_PRINTS(lex_less(S<1, 2>(), S<2, 1>()), "_true");
  EXPECT_PRINTS(lex_less(make_tuple(_1{}, 5), make_tuple(_2{}, 0)), "_true");  // decided by the first leaf
  EXPECT_PRINTS(lex_less(make_tuple(5, _1{}), make_tuple(3, _2{})), "false");
  EXPECT_PRINTS(lex_less(make_tuple(1, make_tuple(2, 3)), make_tuple(make_tuple(1, 2), 4)),
                "true");  // flattened leaves
  EXPECT_PRINTS(colex_less(S<2, 1>(), S<1, 2>()), "_true");
  EXPECT_PRINTS(colex_less(S<1, 2>(), S<1, 2>()), "_false");
  EXPECT_PRINTS(elem_less(make_tuple(_4{}, 2), make_tuple(_3{}, 5, 7)), "_false");
  EXPECT_PRINTS(elem_less(make_tuple(_2{}, 2), make_tuple(_3{}, 5)), "true");
  static_assert(is_static_v<decltype(lex_less(S<1, 2>(), S<2, 1>()))>);
}

TEST(IntTuple, RoleAliasesNameTuples) {
  // Shape, Stride and Coord are tuple<...>: a static layout type reads as its notation.
  static_assert(std::is_same_v<Shape<_4, _8>, tuple<_4, _8>>);
  static_assert(std::is_same_v<Stride<Stride<_16, _1>, _8>, tuple<tuple<_16, _1>, _8>>);
  static_assert(std::is_same_v<Coord<int, int>, tuple<int, int>>);
  using L = Layout<Shape<Shape<_4, _8>, _2>, Stride<Stride<_16, _1>, _8>>;
  static_assert(std::is_empty_v<L>);
  EXPECT_PRINTS(L{}, "((_4,_8),_2):((_16,_1),_8)");
  EXPECT_PRINTS(Layout<_32>{}, "_32:_1");                           // the default stride is compact
  EXPECT_PRINTS((Layout<Shape<_1, _128>>{}), "(_1,_128):(_0,_1)");  // a size-1 mode gets stride _0
  EXPECT_EQ(L{}(make_tuple(make_tuple(1, 2), 1)), 16 + 2 + 8);
}
