// tests/runtime/complement.cpp -- complement and the inverses of the run-time twin
// (runtime/complement.hpp).
#include <functional>

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
  EXPECT_EQ(str(complement(L("(2,2):(1,6)"), T("24"))),
            "(1,3,2):(1,2,12)");  // dynamic strides: all dynamic, no _1 to drop
  EXPECT_THROW(complement(L("(_2,_2):(_1,_1)"), T("_24")), layout_error);  // not injective
  EXPECT_THROW(complement(L("(_2,_3):(_2,_3)"), T("_24")), layout_error);  // 3 not divisible by 4
}

TEST(RuntimeAlgebra, Inverses) {
  EXPECT_EQ(str(right_inverse(L("(_4,_2):(_1,_16)"))), "_4:_1");
  EXPECT_EQ(str(left_inverse(L("(_4,_2):(_1,_16)"))), "(_16,_2):(_1,_4)");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_4,_1)"))), "(_4,_2):(_2,_1)");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_3,_5)"))), "_1:_0");
  EXPECT_THROW(left_inverse(L("(_2,_2):(_1,_1)")), layout_error);
}

// right_inverse with negative strides obeys its law L(R(i)) == i (found by the Python package's law
// test, tests/python/test_laws.py): a negative stride is taken only as the whole chain. Before,
// (_2,_4):(_-4,_1) gave (_4,_2):(_2,_-1), with L(R(5)) == -4.
TEST(RuntimeAlgebra, RightInverseWithNegativeStridesObeysItsLaw) {
  for (const char* text :
       {"_4:_-1", "(_2,_4):(_-4,_1)", "(_2,_4):(_4,_-1)", "(_3,_3):(_-1,_3)", "(_3,_3,_4,_2):(_-1,_3,_7,_2)",
        "(_8,(_4),_8,(_2,_8)):(_0,(_2),_-2,(_-1,_3))", "(4,2):(-1,4)", "(2,4):(-4,1)"}) {
    const Layout l = L(text);
    const Layout r = right_inverse(l);
    for (std::int64_t i = 0; i < size(r).value; ++i)
      EXPECT_EQ(evaluate(l, evaluate(r, D(i))).value, i) << text << " ; " << str(r);
  }
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_4,_-1)"))), "_4:_-2");
  EXPECT_EQ(str(right_inverse(L("(_3,_3):(_-1,_3)"))), "_3:_-1");
  EXPECT_EQ(str(right_inverse(L("(4,2):(1,-4)"))), "4:1");  // stops before the negative mode
}

// The law fuzzer's open case (docs/robustness.md): negative strides in several modes, where the
// chain through a negative mode reached indices below 0. The chain now stops before the
// negative mode of |d| == 2, so R = 2:3 (static: _2:_3) and L(R(i)) == i.
TEST(RuntimeAlgebra, RightInverseOfTheLawFuzzersNegativeStrideCase) {
  for (const char* text : {"(3,(2,5)):(-2,(1,-6))", "(_3,(_2,_5)):(_-2,(_1,_-6))"}) {
    const Layout l = L(text);
    for (const Layout& r : {right_inverse(l), right_inverse_static(l)}) {
      for (std::int64_t i = 0; i < size(r).value; ++i)
        EXPECT_EQ(evaluate(l, evaluate(r, D(i))).value, i) << text << " ; " << str(r);
    }
  }
  EXPECT_EQ(str(right_inverse(L("(3,(2,5)):(-2,(1,-6))"))), "2:3");
  EXPECT_EQ(str(right_inverse_static(L("(3,(2,5)):(-2,(1,-6))"))), "_1:_0");  // no static stride to follow
  EXPECT_EQ(str(right_inverse(L("(_3,(_2,_5)):(_-2,(_1,_-6))"))), "_2:_3");
  EXPECT_EQ(str(right_inverse_static(L("(_3,(_2,_5)):(_-2,(_1,_-6))"))), "_2:_3");
}

// Drift from the core found by reading both side by side; each case prints what the core prints.
TEST(RuntimeAlgebra, InversesAndComplementFollowTheCore) {
  // right_inverse starts at the static stride with |d| == 1 (the twin needed +1 and gave _1:_0).
  EXPECT_EQ(str(right_inverse(L("_4:_-1"))), "_4:_-1");
  EXPECT_EQ(str(right_inverse(L("(_2,_4):(_-4,_1)"))), "_4:_2");
  // A dynamic codomain size below 1 leaves an empty mode: the core's make_layout refuses it.
  EXPECT_THROW(complement(L("4:1"), T("0")), layout_error);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const layout_error& e) {
    return e.what();
  }
  return "(no error)";
}

// A codomain size below 1 is an error for every spelling (the twin gave (1,0):(_1,4) for the
// dynamic 0 of a single mode, _0:_4 for a static _0, and shapes <= 0 for negative sizes).
TEST(RuntimeAlgebra, ComplementCodomainBelowOneIsAnError) {
  for (const char* m : {"0", "_0", "-4", "_-4", "(4,0)", "(_8,_-1)"}) {
    for (const char* a : {"4:1", "_4:_1", "(2,2):(1,6)", "_1:_0"}) {
      const std::string e = error_of([&] { (void)complement(L(a), T(m)); });
      EXPECT_NE(e.find("has a leaf below 1; give a codomain size >= 1"), std::string::npos)
          << a << ", " << m << ": " << e;
    }
  }
  EXPECT_EQ(str(complement(L("4:1"), T("1"))), "(1,1):(_1,4)");  // 1 is a valid (tiny) codomain
  // Without M, a negative stride makes the default codomain cosize(filter(A)) < 1: the error names
  // the stride, not a codomain the caller never gave.
  const std::string e = error_of([] { (void)complement(L("_4:_-1")); });
  EXPECT_NE(e.find("has negative strides (its default codomain cosize(filter(A)) = _-2 is below 1)"), std::string::npos)
      << e;
}

// Size-1 modes hold only offset 0, so they never make a layout non-injective: complement and
// left_inverse accept them (the twin claimed "(4,1):(1,1) is not injective"), and the result obeys
// its law. A true overlap is still refused, with a message that claims only what is true.
TEST(RuntimeAlgebra, SizeOneModesDoNotCountForInjectivity) {
  const Layout a = L("(4,1):(1,1)");
  const Layout r = complement(a, T("16"));
  EXPECT_EQ(str(r), "(1,4):(1,4)");  // dynamic: the 1s stay, as the core keeps dynamic 1s
  // The law: (A, R) reaches every offset of [0, 16) exactly once.
  std::vector<int> hits(16, 0);
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = 0; j < 4; ++j)
      ++hits[static_cast<std::size_t>(evaluate(a, D(i)).value + evaluate(r, D(j)).value)];
  for (int h : hits) EXPECT_EQ(h, 1);
  EXPECT_EQ(str(complement(L("(1,4):(3,1)"), T("8"))), "(1,2):(1,4)");
  EXPECT_EQ(str(complement(L("(4,1,2):(1,-1,8)"), T("32"))), "(1,2,2):(1,4,16)");
  const Layout li = left_inverse(a);
  for (std::int64_t i = 0; i < 4; ++i) EXPECT_EQ(evaluate(li, evaluate(a, D(i))).value, i);
  const Layout b = L("(2,1,3):(1,5,2)");  // the size-1 mode sits between the others in stride order
  const Layout lb = left_inverse(b);
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(evaluate(lb, evaluate(b, D(i))).value, i) << str(lb);
  // Real overlaps: stride 0 with size > 1 is not injective; interleaved strides are named as such.
  EXPECT_NE(error_of([] {
              (void)complement(L("(2,2):(1,0)"), T("8"));
            }).find("stride 0 in a mode of size 2, so it is not injective"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)complement(L("(2,3):(4,6)"), T("24")); }).find("overlap in stride order"),
            std::string::npos);
}

// left_inverse(_5:_-1): the layout is injective; the refusal says why no left inverse exists
// (negative offsets) instead of calling it non-injective.
TEST(RuntimeAlgebra, LeftInverseOfNegativeStrideSaysWhy) {
  const std::string e = error_of([] { (void)left_inverse(L("_5:_-1")); });
  EXPECT_EQ(e.find("not injective"), std::string::npos) << e;
  EXPECT_NE(e.find("negative stride _-1"), std::string::npos) << e;
  EXPECT_NE(error_of([] { (void)left_inverse(L("(2,2):(1,0)")); }).find("stride 0, so it is not injective"),
            std::string::npos);
  EXPECT_EQ(str(left_inverse(L("(_4,1):(_1,-3)"))), "(1,4):(0,1)");
}

// coalesce does not compute products the result does not need: merging _2:_2^62 after 3:_1
// would need 2 * 2^62, which overflows, and cannot equal the next stride anyway.
TEST(RuntimeAlgebra, CoalesceSkipsProductsItDoesNotNeed) {
  const Layout l = make_layout(T("((3,_2),3)"), T("((_1,_4611686018427387904),_1)"));
  EXPECT_EQ(str(coalesce(l)), "(3,_2,3):(_1,_4611686018427387904,_1)");
  EXPECT_EQ(str(filter(l)), "(3,_2,3):(_1,_4611686018427387904,_1)");
}

}  // namespace
}  // namespace tessera::rt::test
