// Exact tests for include/tessera/core/layout.hpp: construction, printing, coordinates, slicing,
// validation (docs/algebra.md "Integers", "IntTuples" and coordinates).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Layout, CompactLayoutsPrintExactly) {
  EXPECT_PRINTS(make_layout(S<4, 1, 2>()), "(_4,_1,_2):(_1,_0,_4)");
  EXPECT_PRINTS(make_layout(make_tuple(2, 3, 5, 7)), "(2,3,5,7):(_1,2,6,30)");
  EXPECT_PRINTS(make_layout(make_tuple(2, 3, 4), LayoutRight{}), "(2,3,4):(12,4,_1)");
  EXPECT_PRINTS(make_layout(make_tuple(_2{}, 4), make_tuple(4, _1{})), "(_2,4):(4,_1)");
  EXPECT_PRINTS(make_layout(S<8>(), S<1>()), "(_8):(_1)");
  EXPECT_PRINTS(make_layout(_4{}), "_4:_1");
  EXPECT_PRINTS(make_layout(make_layout(_2{}, _4{}), make_layout(S<3, 2>())), "(_2,(_3,_2)):(_4,(_1,_3))");
}

TEST(Layout, StaticLayoutsAreEmptyAndCompileTime) {
  constexpr auto l = make_layout(S<4, 8>(), S<8, 1>());
  static_assert(std::is_empty_v<decltype(l)>);
  static_assert(std::is_same_v<decltype(size(l)), _32>);
  static_assert(std::is_same_v<decltype(cosize(l)), _32>);
  static_assert(std::is_same_v<decltype(l(_3{}, _2{})), C<26>>);
  static_assert(l(3, 2) == 26);
  static_assert(decltype(l == make_layout(S<4, 8>(), LayoutRight{}))::value);
  static_assert(std::is_same_v<decltype(rank(l)), _2>);
}

TEST(Layout, RankDepthSizeOfDynamicLayouts) {
  // rank(L) used std::declval and did not compile when called (found by tests/differential).
  auto l = make_layout(make_tuple(3, make_tuple(2, 3)), make_tuple(3, make_tuple(12, 1)));
  EXPECT_PRINTS(rank(l), "_2");
  EXPECT_PRINTS(depth(l), "_2");
  EXPECT_PRINTS(size(l), "18");
}

TEST(Layout, EvaluationWithIndexAndCoordinates) {
  auto l = make_layout(make_tuple(3, make_tuple(2, 3)), make_tuple(3, make_tuple(12, 1)));
  EXPECT_EQ(l(16), 17);
  EXPECT_EQ(l(1, make_tuple(1, 2)), 17);
  EXPECT_EQ(l(1, 5), 17);  // R-D coordinate: mode 1 takes a 1-D index
}

TEST(Layout, SubLayouts) {
  auto a = make_layout(make_tuple(2, 3, 5, 7));
  EXPECT_PRINTS((select<1, 3>(a)), "(3,7):(2,30)");
  EXPECT_PRINTS((take<1, 3>(a)), "(3,5):(2,6)");
  EXPECT_PRINTS((group<0, 2>(a)), "((2,3),5,7):((_1,2),6,30)");
  EXPECT_PRINTS((layout<1>(a)), "3:2");
  EXPECT_PRINTS(flatten(group<0, 2>(a)), "(2,3,5,7):(_1,2,6,30)");
}

TEST(Layout, Slicing) {
  auto A = make_layout(make_tuple(S<3, 2>(), S<2, 5, 2>()), make_tuple(S<4, 1>(), S<2, 13, 100>()));
  EXPECT_PRINTS(A, "((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))");
  EXPECT_PRINTS(A(2, _), "((_2,_5,_2)):((_2,_13,_100))");
  EXPECT_PRINTS(A(make_tuple(_, 1), make_tuple(0, _, 1)), "(_3,_5):(_4,_13)");
  EXPECT_PRINTS(A(make_tuple(1, _), make_tuple(_, 3, _)), "(_2,_2,_2):(_1,_2,_100)");
  auto so = slice_and_offset(make_tuple(make_tuple(1, _), make_tuple(_, 3, _)), A);
  EXPECT_EQ(get<1>(so), 4 + 39);
}

TEST(Layout, ValidationRejectsBadShapesAndOverflow) {
  EXPECT_THROW(make_layout(make_tuple(4, 0)), layout_error);
  // 2^32 elements with 32-bit shapes: the size does not fit int.
  EXPECT_THROW(make_layout(make_tuple(65536, 65536)), layout_error);
  try {
    make_layout(make_tuple(65536, 65536));
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("64-bit"), std::string::npos) << e.what();
  }
  // Offsets beyond int with int strides.
  EXPECT_THROW(make_layout(make_tuple(2, 3), make_tuple(1, 1 << 30)), layout_error);
  // 64-bit integers work end to end.
  auto big = make_layout(make_tuple(int64_t(65536), int64_t(65536)), LayoutRight{});
  EXPECT_EQ(size(big), int64_t(1) << 32);
  EXPECT_EQ(big(65535, 65535), (int64_t(1) << 32) - 1);
  EXPECT_EQ(cosize(big), int64_t(1) << 32);
}
