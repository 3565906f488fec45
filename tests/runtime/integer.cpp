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

TEST(RuntimeInt, BasisElements) {
  // The core's ScaledBasis: printed value@mode; integers scale it, one mode adds.
  EXPECT_EQ(to_string(E(S(1), 0)), "_1@0");
  EXPECT_EQ(to_string(E(D(4), 1)), "4@1");
  EXPECT_EQ(to_string(S(2) * E(S(1), 1)), "_2@1");
  EXPECT_EQ(to_string(D(3) * E(S(1), 1)), "3@1");
  EXPECT_EQ(to_string(S(0) * E(S(1), 1)), "_0@1");  // not _0: still a basis element, as in the core
  EXPECT_EQ(to_string(D(2) * E(S(1), 0) + D(3) * E(S(1), 0)), "5@0");
  EXPECT_EQ(to_string(S(0) + E(S(1), 2)), "_1@2");
  EXPECT_EQ(to_string(abs(E(S(-2), 1))), "_2@1");
  EXPECT_FALSE(is_static_value(E(S(0), 0), 0));
  EXPECT_EQ(to_string(E(S(1), 0) == E(S(1), 1)), "_false");
  EXPECT_EQ(to_string(E(S(1), 0) == S(1)), "_false");
  EXPECT_EQ(to_string(E(S(4), 0) == E(S(4), 0)), "_true");
  // Everything else refuses a basis element, naming it.
  EXPECT_THROW(E(S(1), 0) + E(S(1), 1), layout_error);  // a coordinate tuple: layout.hpp's offset_add
  EXPECT_THROW(D(1) + E(S(1), 0), layout_error);
  EXPECT_THROW(E(S(1), 0) * E(S(1), 0), layout_error);
  EXPECT_THROW(E(S(4), 0) / S(2), layout_error);
  EXPECT_THROW(min(E(S(4), 0), S(2)), layout_error);
  try {
    (void)(E(S(4), 0) % S(2));
    ADD_FAILURE() << "no error";
  } catch (const layout_error& e) {
    EXPECT_NE(std::string(e.what()).find("_4@0 % _2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessera::rt::test
