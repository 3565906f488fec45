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

TEST(RuntimeAlgebra, DividingCoordinateLayouts) {
  // A 100 x 37 tensor in (_16,_8) tiles: the tiles overhang, and each element's coordinate tells.
  const Layout id = make_identity_layout(T("(100,37)"));
  EXPECT_EQ(to_string(zipped_divide(id, make_tiler(T("(_16,_8)")))), "((_16,_8),(7,5)):((_1@0,_1@1),(_16@0,_8@1))");
  EXPECT_EQ(to_string(logical_divide(make_identity_layout(T("(_4,_8)")), make_tiler(T("(_2,_4)")))),
            "((_2,_2),(_4,_2)):((_1@0,_2@0),(_1@1,_4@1))");
  EXPECT_EQ(to_string(flat_divide(make_identity_layout(T("(4,8)")), make_tiler(T("(_2,_4)")))),
            "(_2,_4,2,2):(_1@0,_1@1,_2@0,_4@1)");
  EXPECT_EQ(to_string(tiled_divide(make_identity_layout(T("(4,8)")), make_tiler(T("(_2,_4)")))),
            "((_2,_4),2,2):((_1@0,_1@1),_2@0,_4@1)");
  // local_tile: tile (3,2) of the zipped divide, its origin the coordinate (48,16).
  const Layout z = zipped_divide(id, make_tiler(T("(_16,_8)")));
  const IntTuple c = T("(_,(3,2))");
  EXPECT_EQ(to_string(slice(c, z)), "((_16,_8)):((_1@0,_1@1))");
  EXPECT_EQ(to_string(evaluate_any(z, T("(0,(3,2))"))), "(48,16)");
  int inside = 0;
  for (std::int64_t t = 0; t < 35; ++t)
    for (std::int64_t e = 0; e < 128; ++e)
      inside += elem_less(evaluate_any(z, make_tuple({IntTuple(D(e)), IntTuple(D(t))})), T("(100,37)")).value ? 1 : 0;
  EXPECT_EQ(inside, 100 * 37);
  // A coordinate layout has no complement, so it is no tiler and has no products.
  EXPECT_THROW(logical_divide(L("_8:_1"), make_identity_layout(T("(_2)"))), layout_error);
  EXPECT_THROW(logical_product(make_identity_layout(T("(_2,_2)")), L("_2:_1")), layout_error);
}

}  // namespace
}  // namespace tessera::rt::test
