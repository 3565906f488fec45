// tests/runtime/product.cpp -- the products, tile_to_shape and make_layout_tv of the run-time twin
// (runtime/product.hpp).
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

TEST(RuntimeAlgebra, ProductExamples) {
  EXPECT_EQ(str(logical_product(L("(_2,_2):(_4,_1)"), L("_6:_1"))), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(str(blocked_product(L("(_2,_5):(_5,_1)"), L("(_3,_4):(_1,_3)"))), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
  EXPECT_EQ(str(raked_product(L("(_2,_5):(_5,_1)"), L("(_3,_4):(_1,_3)"))), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
  EXPECT_EQ(str(tile_to_shape(L("(_8,_8):(_8,_1)"), T("(_64,_32)"))), "((_8,_8),(_8,_4)):((_8,_64),(_1,_512))");
  EXPECT_EQ(str(logical_product(L("(_2,_3):(_1,_2)"), Tiler{L("_2:_1"), L("_2:_1")})), "((_2,_2),(_3,_2)):((_1,_2),(_2,_1))");
  EXPECT_EQ(str(zipped_product(L("(_2,_3):(_1,_2)"), Tiler{L("_2:_1"), L("_2:_1")})), "((_2,_3),(_2,_2)):((_1,_2),(_2,_1))");
  EXPECT_THROW(tile_to_shape(L("(_3,_3):(_1,_3)"), T("(_8,_9)")), layout_error);
}

TEST(RuntimeAlgebra, MakeLayoutTv) {
  const Layout thr = L("(_4,_32):(_32,_1)"), val = L("(_4,_8):(_8,_1)");
  EXPECT_EQ(str(raked_product(thr, val)), "((_4,_4),(_8,_32)):((_1024,_32),(_128,_1))");
  auto [tiler, tv] = make_layout_tv(thr, val);
  EXPECT_EQ(to_string(tiler), "(_16,_256)");
  EXPECT_EQ(str(tv), "((_32,_4),(_8,_4)):((_128,_4),(_16,_1))");
  // The specification: the tile (16,256):(2048,1) o tv prints ((32,4),(8,4)):((8,8192),(1,2048)). With a
  // static tile shape docs/algebra.md gives those values; with every integer dynamic it keeps the
  // dynamic size-1 modes (only static _1 modes are dropped by coalesce), see the report/docs.
  EXPECT_EQ(str(composition(L("(_16,_256):(2048,_1)"), tv)), "((_32,_4),(_8,_4)):((_8,8192),(_1,2048))");
  EXPECT_EQ(str(composition(L("(16,256):(2048,1)"), tv)),
            "(((1,32),(4,1)),((1,8),(4,1))):(((32768,8),(8192,1)),((32768,1),(2048,1)))");
}


// Drift from the core found by reading both side by side; each case prints what the core prints.
TEST(RuntimeAlgebra, OrderedLayoutsFollowTheCore) {
  // The order is static in the core (a type): a dynamic one is refused (the twin accepted it).
  EXPECT_THROW(make_ordered_layout(T("(2,3)"), T("(1,0)")), layout_error);
  EXPECT_THROW(tile_to_shape(L("(_2,_2):(_1,_2)"), T("(_4,_4)"), T("(1,0)")), layout_error);
  // A one-leaf order may be a tuple for an integer shape, as in the core (the twin refused it).
  EXPECT_EQ(str(make_ordered_layout(T("8"), T("(_0)"))), "8:_1");
  EXPECT_EQ(str(tile_to_shape(L("_2:_1"), T("_8"))), "((_2,_4)):((_1,_2))");
}

}  // namespace
}  // namespace tessera::rt::test
