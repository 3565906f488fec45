// Every query (rank, depth, size, cosize, shape, stride, get, layout, with and without mode
// indices) on layouts, tensors and composed (swizzled) layouts, static and dynamic: the values,
// the static-ness of the results (rank and depth always static; the others static exactly when
// what they read is), and the law that mode I's sub-layout is the layout restricted to mode I.
#include "tensor_test_util.hpp"

#include <vector>

using namespace tessera;
using tessera::test::v;

namespace {
// The two layouts of the tests: (2,(3,4)) compact, all static and all dynamic.
using StaticL = Layout<Shape<_2, Shape<_3, _4>>>;  // default stride: compact column-major
auto dynamic_l() { return make_layout(make_shape(2, make_shape(3, 4))); }

}  // namespace

TEST(Queries, DefaultStrideOfLayoutTypeIsCompactColumnMajor) {
  static_assert(std::is_same_v<StaticL, Layout<Shape<_2, Shape<_3, _4>>, Stride<_1, Stride<_2, _6>>>>);
  EXPECT_PRINTS(StaticL{}, "(_2,(_3,_4)):(_1,(_2,_6))");
  EXPECT_PRINTS(dynamic_l(), "(2,(3,4)):(_1,(2,6))");
}

TEST(Queries, OnStaticLayouts) {
  StaticL l;
  static_assert(std::is_same_v<decltype(rank(l)), _2>);
  static_assert(std::is_same_v<decltype(rank<0>(l)), _1>);
  static_assert(std::is_same_v<decltype(rank<1>(l)), _2>);
  static_assert(std::is_same_v<decltype(depth(l)), _2>);
  static_assert(std::is_same_v<decltype(depth<0>(l)), _0>);
  static_assert(std::is_same_v<decltype(depth<1>(l)), _1>);
  static_assert(std::is_same_v<decltype(size(l)), C<24>>);
  static_assert(std::is_same_v<decltype(size<0>(l)), _2>);
  static_assert(std::is_same_v<decltype(size<1>(l)), C<12>>);
  static_assert(std::is_same_v<decltype(size<1, 0>(l)), _3>);
  static_assert(std::is_same_v<decltype(cosize(l)), C<24>>);
  static_assert(std::is_same_v<decltype(cosize<1>(l)), C<23>>);  // (_3,_4):(_2,_6): 2*2 + 3*6 + 1
  static_assert(rank_v<Shape<_2, Shape<_3, _4>>> == 2 && depth_v<StaticL> == 2);
  static_assert(size_v<StaticL> == 24 && cosize_v<StaticL> == 24);
  static_assert(cosize_v<Layout<Shape<_8, _4>, Stride<_1, _16>>> == 56);
  EXPECT_PRINTS(shape(l), "(_2,(_3,_4))");
  EXPECT_PRINTS(shape<1>(l), "(_3,_4)");
  EXPECT_PRINTS((shape<1, 1>(l)), "_4");
  EXPECT_PRINTS(stride(l), "(_1,(_2,_6))");
  EXPECT_PRINTS((stride<1, 0>(l)), "_2");
  EXPECT_PRINTS(get<0>(l), "_2:_1");
  EXPECT_PRINTS(get<1>(l), "(_3,_4):(_2,_6)");
  EXPECT_PRINTS((get<1, 1>(l)), "_4:_6");
  EXPECT_PRINTS(layout<1>(l), "(_3,_4):(_2,_6)");
  static_assert(std::is_empty_v<decltype(get<1>(l))>);
}

TEST(Queries, OnDynamicLayouts) {
  auto l = dynamic_l();
  static_assert(std::is_same_v<decltype(rank(l)), _2>);  // rank and depth are static
  static_assert(std::is_same_v<decltype(rank<1>(l)), _2>);
  static_assert(std::is_same_v<decltype(depth(l)), _2>);
  static_assert(std::is_same_v<decltype(depth<1, 0>(l)), _0>);
  static_assert(!is_static_v<decltype(size(l))> && !is_static_v<decltype((size<1, 0>(l)))> &&
                !is_static_v<decltype(cosize(l))>);
  EXPECT_EQ(v(size(l)), 24);
  EXPECT_EQ(v(size<0>(l)), 2);
  EXPECT_EQ(v(size<1>(l)), 12);
  EXPECT_EQ(v((size<1, 1>(l))), 4);
  EXPECT_EQ(v(cosize(l)), 24);
  EXPECT_EQ(v(cosize<1>(l)), 23);
  EXPECT_PRINTS(shape(l), "(2,(3,4))");
  EXPECT_PRINTS((shape<1, 0>(l)), "3");
  EXPECT_PRINTS(stride<1>(l), "(2,6)");
  EXPECT_PRINTS(get<1>(l), "(3,4):(2,6)");
  EXPECT_PRINTS((get<1, 0>(l)), "3:2");
  EXPECT_PRINTS(get<0>(l), "2:_1");
}

// get<I>(L)(i) is L at the coordinate with i in mode I and 0 in the others, for every i.
TEST(Queries, SubLayoutIsTheLayoutOnOneMode) {
  auto check = [](auto const& l) {
    for (int i = 0; i < int(size<0>(l)); ++i) EXPECT_EQ(v(get<0>(l)(i)), v(l(make_coord(i, 0))));
    for (int j = 0; j < int(size<1>(l)); ++j) EXPECT_EQ(v(get<1>(l)(j)), v(l(make_coord(0, j))));
    for (int j = 0; j < int(size<1, 1>(l)); ++j) EXPECT_EQ(v((get<1, 1>(l))(j)), v(l(make_coord(0, make_coord(0, j)))));
  };
  check(StaticL{});
  check(dynamic_l());
  check(make_layout(make_shape(_4{}, make_shape(3, _5{})), make_stride(7, make_stride(_1{}, 100))));
}

TEST(Queries, OnTensors) {
  std::vector<float> buf(24);
  auto ts = make_tensor(make_gmem_ptr(buf.data()), StaticL{});
  auto td = make_tensor(make_gmem_ptr(buf.data()), dynamic_l());
  auto tc = make_tensor(make_counting_iterator(0), StaticL{});  // no memory behind it
  static_assert(std::is_same_v<decltype(rank(ts)), _2> && std::is_same_v<decltype(rank(td)), _2>);
  static_assert(std::is_same_v<decltype(rank<1>(td)), _2> && std::is_same_v<decltype(rank<0>(tc)), _1>);
  static_assert(std::is_same_v<decltype(depth(ts)), _2> && std::is_same_v<decltype(depth(td)), _2>);
  static_assert(std::is_same_v<decltype(depth<1>(td)), _1>);
  static_assert(std::is_same_v<decltype(size(ts)), C<24>> && std::is_same_v<decltype(size<1, 1>(tc)), _4>);
  static_assert(std::is_same_v<decltype(cosize(ts)), C<24>> && std::is_same_v<decltype(cosize<1>(ts)), C<23>>);
  EXPECT_EQ(v(size(td)), 24);
  EXPECT_EQ(v((size<1, 0>(td))), 3);
  EXPECT_EQ(v(cosize<1>(td)), 23);
  EXPECT_PRINTS(shape(td), "(2,(3,4))");
  EXPECT_PRINTS(shape<1>(ts), "(_3,_4)");
  EXPECT_PRINTS((stride<1, 1>(td)), "6");
  EXPECT_PRINTS(layout<1>(td), "(3,4):(2,6)");
  EXPECT_EQ((Tensor<ViewEngine<float*>, StaticL>::rank), 2);
  // A slice's queries are those of the kept modes.
  auto row = td(1, Underscore{});  // ((3,4))
  static_assert(std::is_same_v<decltype(rank(row)), _1>);
  static_assert(std::is_same_v<decltype(depth(row)), _2>);
  EXPECT_EQ(v(size(row)), 12);
}

TEST(Queries, OnComposedLayouts) {
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}));  // (_8,_64) row-major
  EXPECT_PRINTS(sw, "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  static_assert(std::is_same_v<decltype(rank(sw)), _2> && std::is_same_v<decltype(rank<1>(sw)), _1>);
  static_assert(std::is_same_v<decltype(depth(sw)), _1> && std::is_same_v<decltype(depth<0>(sw)), _0>);
  static_assert(std::is_same_v<decltype(size(sw)), C<512>> && std::is_same_v<decltype(size<1>(sw)), C<64>>);
  static_assert(std::is_same_v<decltype(cosize(sw)), C<512>>);
  static_assert(size_v<decltype(sw)> == 512 && cosize_v<decltype(sw)> == 512 && depth_v<decltype(sw)> == 1);
  EXPECT_PRINTS(shape(sw), "(_8,_64)");
  EXPECT_PRINTS(shape<0>(sw), "_8");
  EXPECT_PRINTS(get<0>(sw), "Sw<3,3,3> o _0 o _8:_64");
  EXPECT_PRINTS(layout<1>(sw), "Sw<3,3,3> o _0 o _64:_1");
  // Mode I's composed layout is the composed layout on that mode, the other at 0.
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v(get<0>(sw)(i)), v(sw(i, 0)));
  for (int j = 0; j < 64; ++j) EXPECT_EQ(v(get<1>(sw)(j)), v(sw(0, j)));
  // The same with a dynamic inner layout: the size is dynamic, rank and depth static.
  auto swd = composition(Swizzle<2, 0, 3>{}, make_layout(make_shape(8, 8), LayoutRight{}));
  static_assert(std::is_same_v<decltype(rank(swd)), _2> && std::is_same_v<decltype(depth(swd)), _1>);
  static_assert(!is_static_v<decltype(size(swd))>);
  EXPECT_EQ(v(size(swd)), 64);
  EXPECT_EQ(v(size<1>(swd)), 8);
  EXPECT_EQ(v(cosize(swd)), 64);
  EXPECT_PRINTS(shape(swd), "(8,8)");
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v(get<0>(swd)(i)), v(swd(i, 0)));
  // A slice keeps the swizzle and moves the fixed part into the offset.
  auto r = sw(3, Underscore{});
  static_assert(std::is_same_v<decltype(rank(r)), _1>);
  for (int j = 0; j < 64; ++j) EXPECT_EQ(v(r(j)), v(sw(3, j)));
}
