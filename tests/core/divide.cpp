// Exact tests for include/tessera/core/divide.hpp (docs/algebra.md logical/zipped/tiled/flat divide).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Divide, ReferenceExamples) {
  EXPECT_PRINTS(logical_divide(make_layout(S<4, 2, 3>(), S<2, 1, 8>()), make_layout(_4{}, _2{})),
                "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_PRINTS(logical_divide(make_layout(C<1000>{}, _1{}), make_layout(C<128>{}, _1{})), "(_128,_8):(_1,_128)");
  auto A = make_layout(make_tuple(_9{}, S<4, 8>()), make_tuple(C<59>{}, S<13, 1>()));
  auto T = make_tuple(make_layout(_3{}, _3{}), make_layout(S<2, 4>(), S<1, 8>()));
  EXPECT_PRINTS(logical_divide(A, T), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
  EXPECT_PRINTS(zipped_divide(A, T), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
  EXPECT_PRINTS(tiled_divide(A, T), "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))");
  EXPECT_PRINTS(flat_divide(A, T), "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))");
}

TEST(Divide, SeedVectorizedTiling) {
  auto mA = make_layout(make_tuple(2048, 2048), make_tuple(2048, _1{}));  // row-major fp16 matrix
  EXPECT_PRINTS(mA, "(2048,2048):(2048,_1)");
  EXPECT_PRINTS(zipped_divide(mA, S<1, 4>()), "((_1,_4),(2048,512)):((_0,_1),(2048,_4))");
}

// A rank-1 tuple stays a tuple (docs/algebra.md, divides): tiled and flat keep a mode of rank 1.
TEST(Divide, RankOneTuplesStayTuples) {
  auto v8 = make_layout(make_tuple(_8{}), make_tuple(_1{}));
  EXPECT_PRINTS(tiled_divide(v8, make_tuple(_4{})), "((_4),(_2)):((_1),(_4))");
  EXPECT_PRINTS(flat_divide(make_layout(make_tuple(_2{}), make_tuple(_1{})), make_tuple(_1{})),
                "((_1),(_2)):((_0),(_1))");
  EXPECT_PRINTS(flat_divide(v8, make_tuple(v8)), "(((_8)),(_1)):(((_1)),(_0))");
  EXPECT_PRINTS(
      flat_divide(make_layout(S<1, 4>(), S<1, 1>()), make_tuple(make_layout(make_tuple(_1{}), make_tuple(_1{})),
                                                                make_layout(make_tuple(_4{}), make_tuple(_1{})))),
      "((_1),(_4),_1,_1):((_1),(_1),_0,_0)");
  EXPECT_PRINTS(tiled_divide(make_layout(S<8, 4>(), S<1, 8>()), S<4, 2>()), "((_4,_2),_2,_2):((_1,_8),_4,_16)");
}
