// tests/runtime/print.cpp -- print_layout of the run-time twin (runtime/print.hpp), in the exact
// format that the specification and the core share (tests/algebra_reference.hpp).
#include "algebra_reference.hpp"
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeLayout, PrintLayout) {
  EXPECT_EQ(print_layout(L("(_2,(_2,_2)):(_4,(_2,_1))")), tessera::test::kPrintLayoutExample);
  EXPECT_THROW(print_layout(L("_4:_1")), layout_error);
}

TEST(RuntimeLayout, PrintLayoutColumnWidthFollowsTheCore) {
  // The column width is the number of digits of cosize(L) as the core counts them: 1 for a
  // cosize below 10, also a negative one (the twin counted the '-' of "-4" and padded to 2).
  EXPECT_EQ(print_layout(L("(2,3):(-1,-2)")),
            "(2,3):(-1,-2)\n"
            "      0   1   2 \n"
            "    +---+---+---+\n"
            " 0  | 0 | -2 | -4 |\n"
            "    +---+---+---+\n"
            " 1  | -1 | -3 | -5 |\n"
            "    +---+---+---+\n");
}

}  // namespace
}  // namespace tessera::rt::test
