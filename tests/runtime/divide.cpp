// tests/runtime/divide.cpp -- the divides of the run-time twin (runtime/divide.hpp).
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

TEST(RuntimeAlgebra, DivideExamples) {
  EXPECT_EQ(str(logical_divide(L("(_4,_2,_3):(_2,_1,_8)"), L("_4:_2"))), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(str(logical_divide(L("_1000:_1"), L("_128:_1"))), "(_128,_8):(_1,_128)");
  const Layout a = L("(_9,(_4,_8)):(_59,(_13,_1))");
  const Tiler t{L("_3:_3"), L("(_2,_4):(_1,_8)")};
  EXPECT_EQ(str(logical_divide(a, t)), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
  EXPECT_EQ(str(zipped_divide(a, t)), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
  EXPECT_EQ(str(tiled_divide(a, t)), "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))");
  EXPECT_EQ(str(flat_divide(a, t)), "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))");
  EXPECT_EQ(str(zipped_divide(L("(2048,2048):(2048,_1)"), make_tiler(T("(_1,_4)")))),
            "((_1,_4),(2048,512)):((_0,_1),(2048,_4))");
  EXPECT_EQ(str(flat_divide(L("(_4,_2,_3):(_2,_1,_8)"), L("_4:_2"))), "(_2,_2,_2,_3):(_4,_1,_2,_8)");
}


TEST(RuntimeAlgebra, NestedTilersDivideSubModes) {
  // As the core: mode 1 is divided per sub-mode by the nested tiler (_2,_4), and zipped regroups
  // that mode's (tile, rest) pairs first: tiles ((_2,_4)), rests ((_2,_2)) (CuTe's zip2_by).
  EXPECT_EQ(E("zipped_divide((_4,(_4,_8)):(_1,(_4,_16)), (_2,(_2,_4)))"),
            "((_2,(_2,_4)),(_2,(_2,_2))):((_1,(_4,_16)),(_2,(_8,_64)))");
  EXPECT_THROW(logical_divide(L("(_4,_8):(_1,_4)"), Tiler{std::nullopt, L("_2:_1")}), layout_error);  // no `_`
}

}  // namespace
}  // namespace tessera::rt::test
