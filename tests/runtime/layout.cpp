// tests/runtime/layout.cpp -- layouts of the run-time twin (runtime/layout.hpp): construction,
// validation, evaluation, sub-layouts, slicing.
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeLayout, PrintFormat) {
  EXPECT_EQ(to_string(make_layout(make_tuple({S(2), D(4)}), make_tuple({D(4), S(1)}))), "(_2,4):(4,_1)");
  EXPECT_EQ(to_string(L("((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))")), "((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))");
  EXPECT_EQ(to_string(make_layout(make_tuple({S(8)}), make_tuple({S(1)}))), "(_8):(_1)");
  EXPECT_EQ(to_string(make_layout(IntTuple(S(4)))), "_4:_1");
  EXPECT_EQ(to_string(Swizzle{3, 3, 3}), "Sw<3,3,3>");
  EXPECT_EQ(to_string(ComposedLayout{Swizzle{3, 3, 3}, S(0), L("(_8,_64):(_64,_1)")}), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  ValueTuple tv{{Value(T("(_16,_256)")), Value(L("((_32,_4),(_8,_4)):((_128,_4),(_16,_1))"))}};
  EXPECT_EQ(to_string(Value(tv)), "((_16,_256),((_32,_4),(_8,_4)):((_128,_4),(_16,_1)))");
}

TEST(RuntimeLayout, CompactLayouts) {
  EXPECT_EQ(to_string(make_layout(T("(_4,_1,_2)"))), "(_4,_1,_2):(_1,_0,_4)");
  EXPECT_EQ(to_string(make_layout(T("(2,3,5,7)"))), "(2,3,5,7):(_1,2,6,30)");
  EXPECT_EQ(to_string(make_layout_right(T("(2,3,4)"))), "(2,3,4):(12,4,_1)");
  EXPECT_EQ(to_string(make_ordered_layout(T("(_2,_2,_2,_2)"), T("(_0,_2,_3,_1)"))), "(_2,_2,_2,_2):(_1,_4,_8,_2)");
  EXPECT_EQ(to_string(make_layout(std::vector<Layout>{L("_4:_1"), L("_2:_4")})), "(_4,_2):(_1,_4)");
}

TEST(RuntimeLayout, Validation) {
  EXPECT_THROW(make_layout(T("(4,0)")), layout_error);
  EXPECT_THROW(make_layout(T("(2,3)"), T("(1,(2,3))")), layout_error);
  EXPECT_THROW(make_layout(T("(4000000000,4000000000)"), T("(1,4000000000)")), layout_error);
  try {
    (void)make_layout(T("(4,0)"));
  } catch (const layout_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("make_layout"), std::string::npos) << m;
    EXPECT_NE(m.find(">= 1"), std::string::npos) << m;
  }
}

TEST(RuntimeLayout, EvaluationAndSizes) {
  const Layout a = L("((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))");
  EXPECT_EQ(to_string(size(a)), "_120");
  EXPECT_EQ(to_string(rank(a)), "_2");
  EXPECT_EQ(to_string(depth(a)), "_2");
  EXPECT_EQ(to_string(cosize(L("(_2,_4):(_4,_1)"))), "_8");
  EXPECT_EQ(evaluate(a, D(7)).value, evaluate(a, T("(1,1)")).value);               // 1-D vs R-D
  EXPECT_EQ(evaluate(a, T("(1,1)")).value, evaluate(a, T("((1,0),(1,0,0))")).value);  // natural
  EXPECT_EQ(to_string(evaluate(a, T("(_1,_1)"))), "_6");
  EXPECT_TRUE(L("(2,4):(4,1)") == L("(_2,_4):(_4,_1)"));
}

TEST(RuntimeLayout, SubLayouts) {
  const Layout a = L("(2,3,5,7):(_1,2,6,30)");
  EXPECT_EQ(to_string(select(a, {1, 3})), "(3,7):(2,30)");
  EXPECT_EQ(to_string(take(a, 1, 3)), "(3,5):(2,6)");
  EXPECT_EQ(to_string(group(a, 0, 2)), "((2,3),5,7):((_1,2),6,30)");
  EXPECT_EQ(to_string(layout(L("(2,(3,4)):(1,(2,6))"), 1)), "(3,4):(2,6)");
  EXPECT_EQ(to_string(flatten(L("((2,3),4):((1,2),6)"))), "(2,3,4):(1,2,6)");
  EXPECT_EQ(to_string(append(L("(2,3):(1,2)"), L("4:6"))), "(2,3,4):(1,2,6)");
  EXPECT_EQ(to_string(prepend(L("(2,3):(1,2)"), L("4:6"))), "(4,2,3):(6,1,2)");
}

TEST(RuntimeLayout, Slicing) {
  const Layout a = L("((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))");
  EXPECT_EQ(to_string(slice(T("(2,_)"), a)), "((_2,_5,_2)):((_2,_13,_100))");
  EXPECT_EQ(to_string(slice(T("((_,1),(0,_,1))"), a)), "(_3,_5):(_4,_13)");
  EXPECT_EQ(to_string(slice(T("((1,_),(_,3,_))"), a)), "(_2,_2,_2):(_1,_2,_100)");
  EXPECT_EQ(to_string(slice_offset(T("(_2,_)"), a)), "_8");
  EXPECT_EQ(to_string(slice_offset(T("(2,_)"), a)), "8");
}

}  // namespace
}  // namespace tessera::rt::test
