// Tests for include/tessera/core/arithmetic_tuple.hpp: basis elements, ArithmeticTuple sums and
// identity layouts, whose divides/compositions must give each element's coordinate.
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(ArithmeticTuple, BasisArithmeticAndPrinting) {
  EXPECT_PRINTS(E<0>{}, "_1@0");
  EXPECT_PRINTS(_2{} * E<1>{}, "_2@1");
  EXPECT_PRINTS(3 * E<1>{}, "3@1");
  EXPECT_PRINTS(E<0>{} + E<1>{}, "(_1,_1)");
  EXPECT_PRINTS(2 * E<0>{} + 3 * E<0>{}, "5@0");
  EXPECT_PRINTS(make_arithmetic_tuple(1, 2) + 5 * E<1>{}, "(1,7)");
  EXPECT_PRINTS(make_arithmetic_tuple(1) + 5 * E<2>{}, "(1,_0,5)");
  static_assert(std::is_empty_v<E<3>>);
  static_assert(decltype(E<0>{} == E<1>{})::value == false);
  static_assert(decltype(_4{} * E<0>{} == _4{} * E<0>{})::value);
}

TEST(ArithmeticTuple, IdentityLayouts) {
  auto id = make_identity_layout(make_tuple(4, 8));
  EXPECT_PRINTS(id, "(4,8):(_1@0,_1@1)");
  EXPECT_PRINTS(id(2, 3), "(2,3)");
  EXPECT_PRINTS(id(13), "(1,3)");
  auto nested = make_identity_layout(make_tuple(_4{}, S<2, 4>()));
  EXPECT_PRINTS(nested, "(_4,(_2,_4)):(_1@0,(_1@1,_2@1))");
  static_assert(std::is_empty_v<decltype(nested)>);
  EXPECT_PRINTS(make_identity_layout(7), "7:_1");
  // 64-bit coordinates.
  auto big = make_identity_layout(make_tuple(int64_t(1) << 20, int64_t(1) << 20));
  EXPECT_PRINTS(big((int64_t(1) << 40) - 1), "(1048575,1048575)");
}

TEST(ArithmeticTuple, PredicatesForAPartialTile) {
  // A 100x37 tensor cut into (_16,_8) tiles: the last tiles overhang, and elem_less against the
  // shape tells which of their elements exist.
  auto shape = make_tuple(100, 37);
  auto tiles = zipped_divide(make_identity_layout(shape), S<16, 8>());  // ((_16,_8),(7,5)) -> (m,n)
  EXPECT_PRINTS(tiles, "((_16,_8),(7,5)):((_1@0,_1@1),(_16@0,_8@1))");
  int inside = 0;
  for (int t = 0; t < size<1>(tiles); ++t)
    for (int e = 0; e < size<0>(tiles); ++e) inside += bool(elem_less(tiles(e, t), shape));
  EXPECT_EQ(inside, 100 * 37);
}

// op(identity)(i) == idx2crd(op(compact)(i), shape): an identity layout divided or composed like
// a compact data layout gives exactly the coordinates of the data layout's elements.
template <class Shape, class Op>
void expect_coordinates_match(Shape const& shape, Op&& op) {
  auto data = op(make_layout(shape));
  auto coords = op(make_identity_layout(shape));
  ASSERT_EQ(size(data), size(coords));
  for (int i = 0; i < int(size(data)); ++i) {
    auto c = coords(i);
    auto expected = idx2crd(static_cast<long long>(data(i)), product_each(shape));
    EXPECT_EQ(static_cast<long long>(get<0>(c)), static_cast<long long>(get<0>(expected))) << i;
    EXPECT_EQ(static_cast<long long>(get<1>(c)), static_cast<long long>(get<1>(expected))) << i;
  }
}

TEST(ArithmeticTuple, IdentityLayoutsFollowTheDataLayout) {
  auto tv = make_layout_tv(make_layout(S<4, 8>(), S<8, 1>()), make_layout(S<2, 4>(), S<4, 1>()));
  expect_coordinates_match(S<32, 64>(), [](auto const& l) { return zipped_divide(l, S<8, 16>()); });
  expect_coordinates_match(make_tuple(32, 64), [](auto const& l) { return zipped_divide(l, S<8, 16>()); });
  expect_coordinates_match(make_tuple(_16{}, 96), [&](auto const& l) {
    return composition(layout<0>(zipped_divide(l, get<0>(tv))), get<1>(tv));
  });
  expect_coordinates_match(make_tuple(48, 40), [](auto const& l) {
    return logical_divide(l, make_tuple(make_layout(_4{}, _2{}), make_layout(S<2, 4>(), S<1, 8>())));
  });
}
