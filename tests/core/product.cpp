// Exact tests for include/tessera/core/product.hpp (products, tile_to_shape, make_layout_tv).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Product, ReferenceExamples) {
  EXPECT_PRINTS(logical_product(make_layout(S<2, 2>(), S<4, 1>()), make_layout(_6{}, _1{})),
                "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  auto a = make_layout(S<2, 5>(), S<5, 1>());
  auto b = make_layout(S<3, 4>(), S<1, 3>());
  EXPECT_PRINTS(blocked_product(a, b), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
  EXPECT_PRINTS(raked_product(a, b), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
  EXPECT_PRINTS(tile_to_shape(make_layout(S<8, 8>(), S<8, 1>()), S<64, 32>()),
                "((_8,_8),(_8,_4)):((_8,_64),(_1,_512))");
  EXPECT_PRINTS(make_ordered_layout(S<2, 2, 2, 2>(), S<0, 2, 3, 1>()), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
}

TEST(Product, TileToShapeRejectsNonMultiples) {
  EXPECT_THROW(tile_to_shape(make_layout(S<8, 8>(), S<8, 1>()), make_tuple(64, 30)), layout_error);
}

// A B whose negative strides make cosize(B) < 1 leaves no room for the copies of A: refused with a
// message that names B and the fix (static operands: tests/compile_fail/logical_product_negative_stride.cpp).
TEST(Product, LogicalProductOfANegativeStrideNamesTheFix) {
  try {
    (void)logical_product(make_layout(_4{}, _1{}), make_layout(2, -1));
    ADD_FAILURE() << "logical_product(_4:_1, 2:-1) did not throw";
  } catch (layout_error const& e) {
    EXPECT_EQ(std::string(e.what()),
              "logical_product: B has cosize < 1 (its negative strides reach below offset 0), so the copies of A have "
              "no room (the codomain size(A)*cosize(B) is empty); give B non-negative strides (reverse its negative "
              "modes, e.g. _2:_-1 -> _2:_1) (got 2:-1, _4:_1)");
  }
  EXPECT_PRINTS(logical_product(make_layout(_4{}, _1{}), make_layout(2, 1)), "(_4,2):(_1,4)");
}

TEST(LayoutTV, SeedThreadValueLayout) {
  auto thr = make_layout(S<4, 32>(), S<32, 1>());
  auto val = make_layout(S<4, 8>(), S<8, 1>());
  EXPECT_PRINTS(raked_product(thr, val), "((_4,_4),(_8,_32)):((_1024,_32),(_128,_1))");
  auto tv = make_layout_tv(thr, val);
  EXPECT_PRINTS(tv, "((_16,_256),((_32,_4),(_8,_4)):((_128,_4),(_16,_1)))");
  static_assert(std::is_empty_v<decltype(tv)>);
  // The elementwise add composes a (16,256) tile of a row-major 2048-wide matrix with tv. The tile comes
  // out of zipped_divide with static extents (_16,_256); CuTeDSL prints it without underscores.
  auto mA = make_layout(make_tuple(2048, 2048), make_tuple(2048, _1{}));
  auto gA = zipped_divide(mA, get<0>(tv));
  EXPECT_PRINTS(gA, "((_16,_256),(128,8)):((2048,_1),(32768,_256))");
  auto blk = layout<0>(gA);
  auto tidfrg = composition(blk, get<1>(tv));
  EXPECT_PRINTS(tidfrg, "((_32,_4),(_8,_4)):((_8,8192),(_1,2048))");
  EXPECT_PRINTS(tidfrg(5, _), "((_8,_4)):((_1,2048))");
}

// Size-1 modes keep their computed strides, rank-1 tuples stay tuples (docs/algebra.md, products).
TEST(Product, AgreesWithTheReferenceAtTheEdges) {
  EXPECT_PRINTS(
      blocked_product(make_layout(S<2, 4>(), S<8, 1>()), make_layout(S<1, 4, 8>(), make_tuple(C<64>{}, _8{}, _1{}))),
      "((_2,_1),(_4,_4),(_1,(_2,_4))):((_8,_512),(_1,_64),(_0,(_4,_16)))");
  EXPECT_PRINTS(
      tiled_product(make_layout(make_tuple(_3{}), make_tuple(_1{})), make_layout(make_tuple(_2{}), make_tuple(_1{}))),
      "((_3),(_2)):((_1),(_3))");
  EXPECT_PRINTS(raked_product(make_layout(make_tuple(S<4, 1, 2>()), make_tuple(S<2, 2, 8>())), make_layout(_2{}, _1{})),
                "((_2,((_4,_1,_2)))):((_1,((_2,_2,_8))))");
  EXPECT_PRINTS(blocked_product(make_layout(_1{}, _1{}), make_layout(make_tuple(_1{}), make_tuple(_1{}))),
                "((_1,(_1))):((_1,(_0)))");
}
