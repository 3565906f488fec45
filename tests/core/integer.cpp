// Exact tests for include/tessera/core/integer.hpp: static integers, the absorbing rules,
// static-in static-out integer functions.
#include "test_util.hpp"

using namespace tessera;

TEST(Integer, StaticArithmeticStaysStatic) {
  static_assert(std::is_same_v<decltype(_2{} * _4{}), _8>);
  static_assert(std::is_same_v<decltype(_0{} * 7), _0>);
  static_assert(std::is_same_v<decltype(7 % _1{}), _0>);
  static_assert(std::is_same_v<decltype(_1{} * 7), int>);
  static_assert(std::is_same_v<decltype(min(_2{}, _3{})), _2>);
  EXPECT_PRINTS(_8{}, "_8");
  EXPECT_PRINTS(make_tuple(_2{}, 4), "(_2,4)");
  EXPECT_PRINTS(make_tuple(_8{}), "(_8)");
}

TEST(Integer, FunctionsStayStatic) {
  static_assert(std::is_same_v<decltype(max(_2{}, _3{})), _3>);
  static_assert(std::is_same_v<decltype(abs(Int<-4>{})), _4>);
  static_assert(std::is_same_v<decltype(signum(Int<-4>{})), Int<-1>>);
  static_assert(std::is_same_v<decltype(_0{} / 5), _0>);
  static_assert(std::is_same_v<decltype(_0{} & 5), _0>);
  EXPECT_EQ(max(2, _3{}), 3);
  EXPECT_EQ(abs(-7), 7);
  EXPECT_EQ(signum(-7), -1);
  using namespace tessera::literals;
  static_assert(std::is_same_v<decltype(12_c), C<12>>);
}
