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
  EXPECT_EQ(str(logical_product(L("(_2,_3):(_1,_2)"), Tiler{L("_2:_1"), L("_2:_1")})),
            "((_2,_2),(_3,_2)):((_1,_2),(_2,_1))");
  EXPECT_EQ(str(zipped_product(L("(_2,_3):(_1,_2)"), Tiler{L("_2:_1"), L("_2:_1")})),
            "((_2,_3),(_2,_2)):((_1,_2),(_2,_1))");
  EXPECT_THROW(tile_to_shape(L("(_3,_3):(_1,_3)"), T("(_8,_9)")), layout_error);
}

// A B whose negative strides make cosize(B) < 1 leaves no room for the copies of A: the error
// names B and the fix (B with its strides reversed), not the complement step inside (which said
// "the codomain size _0 of _4:_1 has a leaf below 1", a codomain the user never gave).
TEST(RuntimeAlgebra, LogicalProductOfANegativeStrideNamesTheFix) {
  const auto error_of = [](const Layout& a, const Layout& b) -> std::string {
    try {
      (void)logical_product(a, b);
    } catch (const layout_error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error_of(L("_4:_1"), L("_2:_-1")),
            "logical_product: B = _2:_-1 has cosize _0 < 1 (its negative strides reach below offset 0), so the copies "
            "of A = _4:_1 have no room (the codomain size(A)*cosize(B) is empty); give B non-negative strides, e.g. "
            "_2:_1 (its negative strides reversed)");
  EXPECT_EQ(error_of(L("4:1"), L("(2,2):(1,-2)")),
            "logical_product: B = (2,2):(1,-2) has cosize 0 < 1 (its negative strides reach below offset 0), so the "
            "copies of A = 4:1 have no room (the codomain size(A)*cosize(B) is empty); give B non-negative strides, "
            "e.g. (2,2):(1,2) (its negative strides reversed)");
  // The suggested B works, and a negative stride that keeps cosize(B) >= 1 is taken as before.
  EXPECT_EQ(str(logical_product(L("_4:_1"), L("_2:_1"))), "(_4,_2):(_1,_4)");
  EXPECT_EQ(str(logical_product(L("_4:_1"), L("(_2,_2):(_-1,_2)"))), "(_4,(_2,_2)):(_1,(_-4,_8))");
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
            "(((1,32),(4,1)),((1,8),(4,1))):(((262144,8),(8192,1)),((32768,1),(2048,1)))");
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

// make_layout_tv with dynamic integers gives the TV layout the static spelling gives (it gave
// ((16,256),(128,32):(_0,_0)): right_inverse stopped at the first dynamic stride), and a TV layout
// that is not a bijection onto its tile is never returned.
TEST(RuntimeProduct, MakeLayoutTvDynamicIsTheStaticAnswer) {
  const auto [tiler, tv] = make_layout_tv(L("(4,32):(32,1)"), L("(4,8):(8,1)"));
  const auto [s_tiler, s_tv] = make_layout_tv(L("(_4,_32):(_32,_1)"), L("(_4,_8):(_8,_1)"));
  EXPECT_TRUE(same_values(tiler, s_tiler)) << to_string(tiler);
  // Dynamic composition keeps its size-1 modes (docs/algebra.md), so the text differs from the
  // static ((_32,_4),(_8,_4)):((_128,_4),(_16,_1)); the function is the same.
  EXPECT_EQ(str(tv), "((32,4,1,1),(1,1,8,4)):((128,4,16,1),(16384,16,16,1))");
  // tv is the static answer at every (thread, value), a bijection onto the 16x256 tile.
  std::vector<bool> seen(4096, false);
  for (std::int64_t i = 0; i < 4096; ++i) {
    const std::int64_t o = evaluate(tv, D(i)).value;
    ASSERT_EQ(o, evaluate(s_tv, D(i)).value) << i;
    ASSERT_TRUE(o >= 0 && o < 4096 && !seen[static_cast<std::size_t>(o)]) << i << " -> " << o;
    seen[static_cast<std::size_t>(o)] = true;
  }
  // right_inverse follows dynamic strides by value: the largest R with L(R(i)) == i.
  EXPECT_EQ(str(right_inverse(L("4:1"))), "4:1");
  EXPECT_EQ(str(right_inverse(L("(2,4):(4,1)"))), "(4,2):(2,1)");
  EXPECT_EQ(str(right_inverse_static(L("4:1"))), "_1:_0");                        // the compile-time algebra's answer
  EXPECT_THROW((void)make_layout_tv(L("(4,8):(1,-4)"), L("2:1")), layout_error);  // offsets below 0
  // thr not a bijection onto [0, size): refused, with the reason.
  try {
    (void)make_layout_tv(L("((_2,_2),(_2,_2)):((_4,_64),(_16,_1))"), L("(_2):(_1)"));
    ADD_FAILURE() << "a TV layout over a non-bijective raked product was returned";
  } catch (const layout_error& e) {
    EXPECT_NE(std::string(e.what()).find("does not reach every index of [0, 32) exactly once"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessera::rt::test
