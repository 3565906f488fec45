// tests/runtime/print.cpp -- print_layout of the run-time twin (runtime/print.hpp), in the exact
// format that ALGEBRA.md and the core share (tests/algebra_reference.hpp).
#include "algebra_reference.hpp"
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeLayout, PrintLayout) {
  EXPECT_EQ(print_layout(L("(_2,(_2,_2)):(_4,(_2,_1))")), tessera::test::kPrintLayoutExample);
  EXPECT_THROW(print_layout(L("_4:_1")), layout_error);
}

}  // namespace
}  // namespace tessera::rt::test
