// tests/runtime/complement.cpp -- complement and the inverses of the run-time twin
// (runtime/complement.hpp).
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

TEST(RuntimeAlgebra, ComplementExamples) {
  EXPECT_EQ(str(complement(L("_4:_2"), T("_24"))), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(complement(L("_4:_1"), T("_24"))), "_6:_4");
  EXPECT_EQ(str(complement(L("_6:_4"), T("_24"))), "_4:_1");
  EXPECT_EQ(str(complement(L("(_4,_6):(_1,_4)"), T("_24"))), "_1:_0");
  EXPECT_EQ(str(complement(L("(_2,_2):(_1,_6)"), T("_24"))), "(_3,_2):(_2,_12)");
  EXPECT_EQ(str(complement(L("(_2,_2):(_1,_6)"))), "_3:_2");
  EXPECT_EQ(str(complement(L("_1:_0"), T("(_2,_3)"))), "_6:_1");
  EXPECT_EQ(str(complement(L("(2,2):(1,6)"), T("24"))), "(1,3,2):(1,2,12)");  // dynamic strides: all dynamic, no _1 to drop
  EXPECT_THROW(complement(L("(_2,_2):(_1,_1)"), T("_24")), layout_error);       // not injective
  EXPECT_THROW(complement(L("(_2,_3):(_2,_3)"), T("_24")), layout_error);       // 3 not divisible by 4
}

TEST(RuntimeAlgebra, Inverses) {
  EXPECT_EQ(str(right_inverse(L("(_4,_2):(_1,_16)"))), "_4:_1");
  EXPECT_EQ(str(left_inverse(L("(_4,_2):(_1,_16)"))), "(_16,_2):(_1,_4)");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_4,_1)"))), "(_4,_2):(_2,_1)");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_3,_5)"))), "_1:_0");
  EXPECT_THROW(left_inverse(L("(_2,_2):(_1,_1)")), layout_error);
}


// Drift from the core found by reading both side by side; each case prints what the core prints.
TEST(RuntimeAlgebra, InversesAndComplementFollowTheCore) {
  // right_inverse starts at the static stride with |d| == 1 (the twin needed +1 and gave _1:_0).
  EXPECT_EQ(str(right_inverse(L("_4:_-1"))), "_4:_-1");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_-4,_1)"))), "(_4,_2):(_2,_-1)");
  // A dynamic codomain size below 1 leaves an empty mode: the core's make_layout refuses it.
  EXPECT_THROW(complement(L("4:1"), T("0")), layout_error);
}

}  // namespace
}  // namespace tessera::rt::test
