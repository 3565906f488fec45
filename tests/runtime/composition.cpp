// tests/runtime/composition.cpp -- coalesce, filter and composition of the run-time twin
// (runtime/composition.hpp): every worked example of the algebra's specification and the precondition errors.
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

std::string str(const Layout& l) { return to_string(l); }

TEST(RuntimeLayout, Coalesce) {
  EXPECT_EQ(to_string(coalesce(L("(_2,(_1,_6)):(_1,(_6,_2))"))), "_12:_1");
  EXPECT_EQ(to_string(coalesce(L("(_2,(_1,_6)):(_1,(_6,_2))"), T("(_1,_1)"))), "(_2,_6):(_1,_2)");
  EXPECT_EQ(to_string(coalesce(L("(4,8):(_1,4)"))), "(4,8):(_1,4)");
  EXPECT_EQ(to_string(coalesce(L("(_1,_1):(_3,_5)"))), "_1:_0");
  EXPECT_EQ(to_string(coalesce(L("(_4,_1):(_1,_7)"))), "_4:_1");
  EXPECT_EQ(to_string(coalesce(L("(4,_2):(_0,_0)"))), "8:_0");
  EXPECT_EQ(to_string(coalesce(L("(_2,4):(_0,_0)"))), "8:_0");
  EXPECT_EQ(to_string(filter(L("(_2,_4,_3):(_0,_1,_0)"))), "_4:_1");
}

TEST(RuntimeLayout, CoalesceKeepsValues) {
  for (const char* text :
       {"(_2,(_1,_6)):(_1,(_6,_2))", "((2,_3),(_4,5)):((_1,2),(6,24))", "(_3,(_2,_2)):(_2,(_6,_12))"}) {
    const Layout l = L(text);
    const Layout c = coalesce(l);
    ASSERT_EQ(size(c).value, size(l).value) << text;
    EXPECT_LE(depth(c).value, 1) << text;
    for (std::int64_t i = 0; i < size(l).value; ++i)
      EXPECT_EQ(evaluate(c, D(i)).value, evaluate(l, D(i)).value) << text;
  }
}

TEST(RuntimeAlgebra, CompositionExamples) {
  EXPECT_EQ(str(composition(L("(_6,_2):(_8,_2)"), L("(_4,_3):(_3,_1)"))), "((_2,_2),_3):((_24,_2),_8)");
  EXPECT_EQ(str(composition(L("_20:_2"), L("(_5,_4):(_4,_1)"))), "(_5,_4):(_8,_2)");
  EXPECT_EQ(str(composition(L("(_10,_2):(_16,_4)"), L("(_5,_4):(_1,_5)"))), "(_5,(_2,_2)):(_16,(_80,_4))");
  EXPECT_EQ(str(composition(L("(10,2):(16,4)"), L("(5,4):(1,5)"))), "((5,1),(2,2)):((16,4),(80,4))");
  const Layout a = L("(_12,(_4,_8)):(_59,(_13,_1))");
  EXPECT_EQ(str(composition(a, Tiler{L("_3:_4"), L("_8:_2")})), "(_3,(_2,_4)):(_236,(_26,_1))");
  EXPECT_EQ(str(composition(a, T("(_3,_8)"))), "(_3,(_4,_2)):(_59,(_13,_1))");
  EXPECT_EQ(str(composition(L("(_4,_6,_8,_10):(_2,_3,_5,_7)"), L("_6:_12"))), "(_2,_3):(_9,_5)");
  EXPECT_EQ(str(composition(a, Tiler{std::nullopt, L("_8:_2")})), "(_12,(_2,_4)):(_59,(_26,_1))");
}

TEST(RuntimeAlgebra, CompositionErrorsNameTheCondition) {
  try {
    (void)composition(L("(4,8):(1,100)"), L("4:3"));
    FAIL() << "expected an error";
  } catch (const layout_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("composition: stride 3 of B = 4:3 and mode size 4 of A = (4,8):(1,100) do not divide one another"),
              std::string::npos)
        << m;
  }
  EXPECT_THROW(composition(L("(_4,_8):(_1,_5)"), L("_6:_1")), layout_error);  // 6 > 4 and 4 does not divide 6
  EXPECT_THROW(composition(L("(_4,_8):(_1,_4)"), Tiler{L("_2:_1"), L("_2:_1"), L("_2:_1")}), layout_error);
  // B's modes would carry into one another in A's mixed radix: R(3) would be 2, A(B(3)) is 10
  try {
    (void)composition(L("(_2,_2):(_1,_10)"), L("(_2,_2):(_1,_1)"));
    FAIL() << "expected an error";
  } catch (const layout_error& e) {
    EXPECT_NE(std::string(e.what()).find("carry into one another"), std::string::npos) << e.what();
  }
  // a static _1 size never needs divisibility
  EXPECT_EQ(str(composition(L("(_4,_8):(_1,_5)"), L("_1:_3"))), "_1:_5");  // the stride A's last mode gives (CuTe's)
  EXPECT_EQ(str(composition(L("(_4,_8):(_1,_4)"), L("_1:_3"))), "_1:_3");  // A coalesces to _32:_1
}

// Drift from the core found by reading both side by side; each case prints what the core prints.
TEST(RuntimeAlgebra, CompositionFollowsTheCore) {
  // A B of one element needs no divisibility, also when its size 1 is dynamic (was an error).
  EXPECT_EQ(str(composition(L("(4,8):(1,100)"), L("1:3"))), "(1,1):(3,100)");
  // A negative stride over several modes of A is an error on both sides (the core used to
  // return (-1,-4):(-4,-5)); over one mode it is a layout.
  EXPECT_THROW(composition(L("(4,8):(1,5)"), L("4:-4")), layout_error);
  EXPECT_EQ(str(composition(L("32:1"), L("4:-4"))), "4:-4");
  // A tuple inside a shape tiler is a nested tiler for the sub-modes, not one layout (the twin
  // used to compose mode 1 with (_2,_4):(_1,_2) and print (_2,(_2,_4)):(_1,(_4,_8))).
  const Layout a = L("(_4,(_4,_8)):(_1,(_4,_16))");
  EXPECT_EQ(str(composition(a, T("(_2,(_2,_4))"))), "(_2,(_2,_4)):(_1,(_4,_16))");
  EXPECT_EQ(str(composition(a, Tiler{L("_2:_1"), Tile(Tiler{L("_2:_1"), L("_4:_1")})})), "(_2,(_2,_4)):(_1,(_4,_16))");
  EXPECT_EQ(E("composition((_4,(_4,_8)):(_1,(_4,_16)), [_2:_1, (_2,_4)])"), "(_2,(_2,_4)):(_1,(_4,_16))");
  EXPECT_EQ(E("composition((_4,(_4,_8)):(_1,(_4,_16)), [_2:_1, [_2:_1, _4:_1]])"), "(_2,(_2,_4)):(_1,(_4,_16))");
}

TEST(RuntimeAlgebra, CoordinateLayoutsCoalesceAndCompose) {
  EXPECT_EQ(to_string(coalesce(make_identity_layout(T("(_4,_8)")))), "(_4,_8):(_1@0,_1@1)");
  EXPECT_EQ(to_string(coalesce(L("(_4,_8):(_1@0,_4@0)"))), "_32:_1@0");  // equal basis modes merge
  EXPECT_EQ(to_string(coalesce(L("(_4,_8):(_1@0,_4@1)"))), "(_4,_8):(_1@0,_4@1)");
  EXPECT_EQ(to_string(filter(make_identity_layout(T("(_4,_8)")))), "(_4,_8):(_1@0,_1@1)");
  EXPECT_EQ(to_string(composition(make_identity_layout(T("(_4,_8)")), L("_8:_2"))), "(_2,_4):(_2@0,_1@1)");
  EXPECT_EQ(to_string(composition(make_identity_layout(T("(4,8)")), T("(_2,_4)"))), "(_2,_4):(_1@0,_1@1)");
  // A coordinate layout as B: only an A of one mode scales it (the core compiles nothing else).
  EXPECT_EQ(to_string(composition(L("_8:_2"), make_identity_layout(T("(_4,_8)")))), "(_4,_8):(_2@0,_2@1)");
  EXPECT_THROW(composition(L("(8,2):(2,1)"), make_identity_layout(T("(_4,_8)"))), layout_error);
  // Composition with the identity gives each element's coordinate: R(i) == A(B(i)).
  const Layout id = make_identity_layout(T("(8,6)"));
  const Layout b = L("(_4,_3):(_2,_8)");
  const Layout r = composition(id, b);
  for (std::int64_t i = 0; i < 12; ++i)
    EXPECT_EQ(to_string(evaluate_any(r, IntTuple(D(i)))),
              to_string(evaluate_any(id, IntTuple(evaluate(b, IntTuple(D(i)))))))
        << i;
}

}  // namespace
}  // namespace tessera::rt::test
