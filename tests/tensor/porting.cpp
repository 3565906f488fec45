// What a CuTe user porting a kernel reaches for, through the umbrella header alone
// (docs/from-cute.md): the Shape/Stride/Step/Coord type names, Layout<Shape<...>> with its
// default stride, cosize_v/size_v/depth_v, TESSERA_STATIC_ASSERT_V, print of strings,
// thread0()/block0(), cp_async_fence()/cp_async_wait<N>().
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/tessera.hpp"

using namespace tessera;

TEST(Porting, TypeNamesForStaticLayouts) {
  using SA = Layout<Shape<_128, _8>>;                  // compact column-major by default
  using SB = Layout<Shape<_128, _8>, Stride<_8, _1>>;  // k-major
  static_assert(std::is_same_v<SA, Layout<Shape<_128, _8>, Stride<_1, _128>>>);
  static_assert(std::is_same_v<SA, decltype(make_layout(make_shape(_128{}, _8{})))>);
  static_assert(std::is_same_v<SB, decltype(make_layout(make_shape(_128{}, _8{}), LayoutRight{}))>);
  static_assert(std::is_same_v<Layout<Shape<_4, _1, _2>>, Layout<Shape<_4, _1, _2>, Stride<_1, _0, _4>>>);
  static_assert(std::is_same_v<Coord<int, _1>, tuple<int, _1>>);
  static_assert(std::is_same_v<Step<_1, X, _1>, tuple<_1, X, _1>>);
  EXPECT_EQ(to_string(SA{}), "(_128,_8):(_1,_128)");
  EXPECT_EQ(to_string(SB{}), "(_128,_8):(_8,_1)");
  // A dynamic shape in the type: the default stride is computed from the values.
  Layout<Shape<int, int>> d(make_shape(3, 5));
  EXPECT_EQ(to_string(d), "(3,5):(_1,3)");
}

TEST(Porting, StaticQueriesAsConstants) {
  using SA = Layout<Shape<_128, _8>, Stride<_1, Int<129>>>;  // padded: one column of 129
  float smem[cosize_v<SA>];                                  // an array bound
  static_assert(sizeof(smem) == sizeof(float) * (127 + 7 * 129 + 1));
  static_assert(size_v<SA> == 1024 && depth_v<SA> == 1 && rank_v<Shape<_128, _8>> == 2);
  (void)smem;
}

TEST(Porting, StaticAssertOnStaticBooleans) {
  auto tiler = make_shape(_128{}, _128{}, _8{});
  auto sA = make_layout(make_shape(_128{}, _8{}), LayoutRight{});
  TESSERA_STATIC_ASSERT_V(size<0>(sA) == size<0>(tiler), "BLK_M");
  TESSERA_STATIC_ASSERT_V(size<1>(sA) == size<2>(tiler));  // message optional
  TESSERA_STATIC_ASSERT_V(rank(tiler) == _3{});
  // A dynamic operand with a static answer is fine too: rank is always static.
  auto dyn = make_layout(make_shape(4, 8));
  TESSERA_STATIC_ASSERT_V(rank(dyn) == _2{});
  (void)sA;
  (void)dyn;
}

TEST(Porting, PrintOfStringsAndGuards) {
  testing::internal::CaptureStdout();
  if (thread0()) {  // on the host: always true
    print("sA: ");
    print(make_layout(make_shape(_2{}, 4)));
    print("\n");
  }
  if (block0()) print("block 0 %d\n");  // a string is printed as it is, not as a format
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "sA: (_2,4):(_1,_2)\nblock 0 %d\n");
}

TEST(Porting, CpAsyncFencesAreReachableAndNoOpsOnTheHost) {
  // The tutorial's main-loop shape: copy, fence, wait, then use. On the host the fences do nothing.
  std::vector<float> g(8, 2.0f), s(8, 0.0f);
  copy(make_tensor(make_gmem_ptr(g.data()), make_shape(_8{})), make_tensor(make_smem_ptr(s.data()), make_shape(_8{})));
  cp_async_fence();
  cp_async_wait<0>();
  cp_async_wait_all();
  EXPECT_EQ(s[7], 2.0f);
}
