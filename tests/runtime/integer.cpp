// tests/runtime/integer.cpp -- integers of the run-time twin (runtime/integer.hpp): the static
// rules, overflow.
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeInt, StaticRules) {
  EXPECT_EQ(to_string(S(2) * S(3)), "_6");
  EXPECT_EQ(to_string(S(2) * D(3)), "6");
  EXPECT_EQ(to_string(S(0) * D(3)), "_0");
  EXPECT_EQ(to_string(D(3) * S(0)), "_0");
  EXPECT_EQ(to_string(S(1) * D(3)), "3");
  EXPECT_EQ(to_string(S(0) / D(3)), "_0");
  EXPECT_EQ(to_string(S(0) % D(3)), "_0");
  EXPECT_EQ(to_string(D(7) % S(1)), "_0");
  EXPECT_EQ(to_string(D(7) % S(-1)), "_0");
  EXPECT_EQ(to_string(D(7) % S(4)), "3");
  EXPECT_EQ(to_string(S(7) + S(-8)), "_-1");
  EXPECT_EQ(to_string(S(7) + D(1)), "8");
}

TEST(RuntimeInt, OverflowThrows) {
  EXPECT_THROW(D(INT64_MAX) * S(2), layout_error);
  EXPECT_THROW(D(INT64_MAX) + D(1), layout_error);
  EXPECT_THROW(D(1) / D(0), layout_error);
  EXPECT_THROW(D(INT64_MIN) / D(-1), layout_error);
}

}  // namespace
}  // namespace tessera::rt::test
