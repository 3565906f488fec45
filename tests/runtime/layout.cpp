// tests/runtime/layout.cpp -- layouts of the run-time twin (runtime/layout.hpp): construction,
// validation, evaluation, sub-layouts, slicing.
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeLayout, PrintFormat) {
  EXPECT_EQ(to_string(make_layout(make_tuple({S(2), D(4)}), make_tuple({D(4), S(1)}))), "(_2,4):(4,_1)");
  EXPECT_EQ(to_string(L("((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))")),
            "((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))");
  EXPECT_EQ(to_string(make_layout(make_tuple({S(8)}), make_tuple({S(1)}))), "(_8):(_1)");
  EXPECT_EQ(to_string(make_layout(IntTuple(S(4)))), "_4:_1");
  EXPECT_EQ(to_string(Swizzle{3, 3, 3}), "Sw<3,3,3>");
  EXPECT_EQ(to_string(ComposedLayout{Swizzle{3, 3, 3}, S(0), L("(_8,_64):(_64,_1)")}),
            "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
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
  EXPECT_EQ(evaluate(a, D(7)).value, evaluate(a, T("(1,1)")).value);                  // 1-D vs R-D
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

TEST(RuntimeLayout, IdentityLayoutsMapCoordinatesToThemselves) {
  const Layout id = make_identity_layout(T("(4,8)"));
  EXPECT_EQ(to_string(id), "(4,8):(_1@0,_1@1)");
  EXPECT_EQ(to_string(evaluate_any(id, T("13"))), "(1,3)");
  EXPECT_EQ(to_string(evaluate_any(id, T("(2,3)"))), "(2,3)");
  EXPECT_EQ(to_string(evaluate_any(id, T("(_0,3)"))), "(_0,3)");
  EXPECT_EQ(to_string(evaluate_any(make_identity_layout(T("(_4,_8)")), T("_5"))), "(_1,_1)");
  EXPECT_EQ(to_string(make_identity_layout(T("(_4,(2,_4))"))), "(_4,(2,_4)):(_1@0,(_1@1,2@1))");
  EXPECT_EQ(to_string(evaluate_any(make_identity_layout(T("(_4,(_2,_4))")), T("(1,5)"))), "(1,5)");
  EXPECT_EQ(to_string(make_identity_layout(T("7"))), "7:_1");
  EXPECT_EQ(to_string(make_identity_layout(T("(_1,4)"))), "(_1,4):(_1@0,_1@1)");
  // One mode: the value is a basis element; integer layouts evaluate to integers.
  EXPECT_EQ(to_string(evaluate_any(L("_4:_1@1"), T("2"))), "2@1");
  EXPECT_EQ(to_string(evaluate_any(L("(_4,_8):(_8,_1)"), T("3"))), "24");
  // Every index of a 64-bit identity layout is its coordinate.
  const Layout big = make_identity_layout(T("(1048576,1048576)"));
  EXPECT_EQ(to_string(evaluate_any(big, T("1099511627775"))), "(1048575,1048575)");
  for (std::int64_t i = 0; i < 32; ++i) {
    const IntTuple c = evaluate_any(id, IntTuple(D(i)));
    EXPECT_EQ(to_string(c), to_string(idx2crd(IntTuple(D(i)), T("(4,8)")))) << i;
  }
}

TEST(RuntimeLayout, CoordinateSums) {
  const IntTuple a = E(D(2), 0), b = E(D(3), 1);
  EXPECT_EQ(to_string(offset_add(a, b)), "(2,3)");
  EXPECT_EQ(to_string(offset_add(T("(1,2)"), E(D(5), 1))), "(1,7)");
  EXPECT_EQ(to_string(offset_add(T("(1)"), E(D(5), 2))), "(1,_0,5)");
  EXPECT_EQ(to_string(offset_add(E(S(1), 0), S(0) * E(S(1), 1))), "(_1,_0)");
  EXPECT_EQ(to_string(offset_add(IntTuple(S(0)), a)), "2@0");
  EXPECT_EQ(to_string(offset_add(IntTuple(D(4)), IntTuple(S(1)))), "5");
  EXPECT_THROW(offset_add(IntTuple(D(1)), a), layout_error);  // integer and basis strides mixed
  EXPECT_THROW(evaluate_any(L("(4,8):(1,_1@0)"), T("5")), layout_error);
}

TEST(RuntimeLayout, BasisLikeAndBasisGet) {
  EXPECT_EQ(to_string(make_basis_like(T("(4,8)"))), "(_1@0,_1@1)");
  EXPECT_EQ(to_string(make_basis_like(T("8"))), "_1");
  EXPECT_THROW(make_basis_like(T("((2,3),4)")), layout_error);
  EXPECT_EQ(to_string(basis_get(E(S(1), 1), T("(2,(3,4))"))), "(3,4)");
  EXPECT_EQ(to_string(basis_get(S(4), T("(2,3)"))), "(2,3)");
  EXPECT_EQ(to_string(basis_get(E(S(1), 0), T("8"))), "8");
  EXPECT_THROW(basis_get(E(S(1), 2), T("(2,3)")), layout_error);
  EXPECT_EQ(to_string(crd2off(T("(2,3)"), T("(4,8)"), make_basis_like(T("(4,8)")))), "(2,3)");
}

TEST(RuntimeLayout, CoshapeOfCoordinateLayouts) {
  EXPECT_EQ(to_string(coshape(make_identity_layout(T("(4,8)")))), "(4,8)");
  EXPECT_EQ(to_string(coshape(make_identity_layout(T("(_4,_8)")))), "(_4,_8)");
  EXPECT_EQ(to_string(coshape(L("_4:_1@1"))), "(_1,_4)");
  EXPECT_EQ(to_string(coprofile(make_identity_layout(T("(4,8)")))), "(_0,_0)");
  EXPECT_EQ(to_string(coshape(L("(_4,_8):(_8,_1)"))), "_32");
  EXPECT_EQ(to_string(coprofile(L("(4,8):(1,4)"))), "_0");
}

TEST(RuntimeLayout, CoordinateLayoutsRefuseIntegerOnlyFunctions) {
  const Layout id = make_identity_layout(T("(4,8)"));
  for (auto f :
       {+[](const Layout& l) { (void)cosize(l); }, +[](const Layout& l) { (void)make_layout_like(l); },
        +[](const Layout& l) { (void)get_hier_coord(l, D(3)); }, +[](const Layout& l) { (void)evaluate(l, T("3")); },
        +[](const Layout& l) { (void)complement(l); }, +[](const Layout& l) { (void)right_inverse(l); },
        +[](const Layout& l) { (void)nullspace(l); }, +[](const Layout& l) { (void)upcast(l, 2); },
        +[](const Layout& l) { (void)max_common_vector(l, l); }, +[](const Layout& l) { (void)max_alignment(l); }}) {
    try {
      f(id);
      ADD_FAILURE() << "no error";
    } catch (const layout_error& e) {
      EXPECT_NE(std::string(e.what()).find("basis strides"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(make_layout(T("(4,8)"), T("(_1@0,_1@1)")).shape.as_int(), layout_error);  // the shape is a tuple
  EXPECT_THROW(make_layout(T("(_1@0,8)")), layout_error);                                // basis elements are strides
  EXPECT_EQ(to_string(slice(T("(_,3)"), id)), "(4):(_1@0)");
}

}  // namespace
}  // namespace tessera::rt::test
