// tests/runtime/recast.cpp -- upcast, downcast, recast and the common vector of the run-time twin
// (runtime/recast.hpp), with nullspace and make_ordered_layout.
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

TEST(RuntimeAlgebra, Recast) {
  EXPECT_EQ(str(upcast(L("(_4,_8):(_8,_1)"), 2)), "(_4,_4):(_4,_1)");
  EXPECT_EQ(str(downcast(L("(_4,_8):(_8,_1)"), 2)), "(_4,_16):(_16,_1)");
  EXPECT_EQ(str(recast(L("(_4,_8):(_8,_1)"), 16, 32)), "(_4,_4):(_4,_1)");
  EXPECT_EQ(str(recast(L("(_4,_8):(_8,_1)"), 32, 16)), "(_4,_16):(_16,_1)");
  EXPECT_EQ(str(upcast(L("(_4,_8):(_0,_1)"), 2)), "(_4,_4):(_0,_1)");
  EXPECT_THROW(downcast(L("(4,8):(8,1)"), 2), layout_error);
  EXPECT_THROW(upcast(L("(_4,_8):(_3,_1)"), 2), layout_error);
}

TEST(RuntimeAlgebra, CommonVectorAndNullspace) {
  EXPECT_EQ(to_string(max_common_vector(L("(_4,_8):(_1,_4)"), L("(_4,_8):(_1,_8)"))), "_4");
  EXPECT_EQ(to_string(max_common_vector(L("(4,8):(1,4)"), L("(4,8):(1,8)"))), "_1");
  EXPECT_EQ(to_string(max_common_vector(L("(_4,_4):(_4,_1)"), L("(_4,_4):(_4,_1)"))), "_16");  // the whole common image
  EXPECT_EQ(str(max_common_layout(L("(_4,_8):(_1,_4)"), L("(_4,_8):(_1,_8)"))), "_4:_1");
  EXPECT_EQ(str(nullspace(L("(_2,_4,_3):(_0,_1,_0)"))), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(nullspace(L("(_2,_4):(_1,_2)"))), "_1:_0");
  EXPECT_EQ(str(make_ordered_layout(T("(_2,_2,_2,_2)"), T("(_0,_2,_3,_1)"))), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
}

TEST(RuntimeAlgebra, RecastOfEqualWidthsIsUpcastByOne) {
  // As the core's recast<16,16> = upcast<1>: a shape over a dynamic stride becomes dynamic
  // (the twin returned the layout unchanged, (_4,_8):(8,_1)).
  EXPECT_EQ(str(recast(L("(_4,_8):(8,_1)"), 16, 16)), "(4,_8):(8,_1)");
  EXPECT_EQ(str(recast(L("(_4,_8):(_8,_1)"), 16, 16)), "(_4,_8):(_8,_1)");
  // A dynamic stride 0 keeps its mode, the shape made dynamic (as the core's upcast).
  EXPECT_EQ(str(upcast(L("(_4,_8):(_1,0)"), 2)), "(_2,8):(_1,0)");
}

}  // namespace
}  // namespace tessera::rt::test
