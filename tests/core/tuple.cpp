// Exact tests for include/tessera/core/tuple.hpp: storage, access and the generic algorithms.
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Tuple, StaticTuplesAreEmptyAndDynamicOnesStoreValues) {
  static_assert(std::is_empty_v<decltype(S<2, 4>())>);
  static_assert(std::is_empty_v<tuple<tuple<_1, _2>, tuple<>>>);
  static_assert(sizeof(tuple<int, _4, int>) == 2 * sizeof(int));
  auto t = make_tuple(3, _4{}, make_tuple(5, _6{}));
  EXPECT_EQ(get<0>(t), 3);
  static_assert(std::is_same_v<decltype(get<1>(t)), _4>);
  EXPECT_EQ((get<2, 0>(t)), 5);
  EXPECT_EQ(get<0>(7), 7);  // an integer is its own mode 0
}

TEST(Tuple, TransformFoldConcatenate) {
  auto t = make_tuple(1, 2, 3);
  EXPECT_PRINTS(transform(t, [](int x) { return x * 10; }), "(10,20,30)");
  EXPECT_EQ(fold(t, 0, [](int a, int x) { return a + x; }), 6);
  EXPECT_PRINTS(tuple_cat(t, make_tuple(_4{}), tuple<>{}), "(1,2,3,_4)");
  int n = 0;
  for_each(t, [&](int x) { n += x; });
  EXPECT_EQ(n, 6);
}

TEST(Tuple, StructuredBindings) {
  // auto [a, b, c] = t binds the elements in order, static ones keeping their types.
  auto const t = tessera::make_tuple(3, tessera::_4{}, tessera::make_tuple(5, 6));
  auto const [a, b, c] = t;
  EXPECT_EQ(a, 3);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(b)>, tessera::_4>);
  EXPECT_EQ(tessera::get<1>(c), 6);
  static_assert(std::tuple_size_v<decltype(t)> == 3);
}
