// Exact tests for include/tessera/core/complement.hpp (complement, inverses, nullspace).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Complement, ReferenceExamplesWithCotarget24) {
  EXPECT_PRINTS(complement(make_layout(_4{}, _2{}), _24{}), "(_2,_3):(_1,_8)");
  EXPECT_PRINTS(complement(make_layout(_4{}, _1{}), _24{}), "_6:_4");
  EXPECT_PRINTS(complement(make_layout(_6{}, _4{}), _24{}), "_4:_1");
  EXPECT_PRINTS(complement(make_layout(S<4, 6>(), S<1, 4>()), _24{}), "_1:_0");
  EXPECT_PRINTS(complement(make_layout(S<2, 2>(), S<1, 6>()), _24{}), "(_3,_2):(_2,_12)");
}

TEST(Complement, DefaultCotargetAndTupleCotarget) {
  EXPECT_PRINTS(complement(make_layout(S<2, 2>(), S<1, 6>())), "_3:_2");
  EXPECT_PRINTS(complement(make_layout(_4{}, _1{}), S<4, 6>()), "_6:_4");
}

TEST(Complement, DynamicStridesSortAtRunTime) {
  EXPECT_PRINTS(complement(make_layout(make_tuple(2, 2), make_tuple(6, 1)), 24), "(1,3,2):(1,2,12)");
}

TEST(Complement, NonInjectiveIsAnError) {
  EXPECT_THROW(complement(make_layout(make_tuple(4, 2), make_tuple(1, 2)), 24), layout_error);
  try {
    complement(make_layout(make_tuple(4, 2), make_tuple(1, 2)), 24);
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("not injective"), std::string::npos) << e.what();
  }
}

TEST(Inverse, ReferenceExamples) {
  EXPECT_PRINTS(right_inverse(make_layout(S<4, 2>(), S<1, 16>())), "_4:_1");
  EXPECT_PRINTS(left_inverse(make_layout(S<4, 2>(), S<1, 16>())), "(_16,_2):(_1,_4)");
  EXPECT_PRINTS(right_inverse(make_layout(S<4, 8>(), S<8, 1>())), "(_8,_4):(_4,_1)");
  EXPECT_PRINTS(left_inverse(make_layout(_4{}, _2{})), "(_2,_4):(_0,_1)");
}

// A negative stride is taken only as the whole chain, so that L(R(i)) == i (the twin's test:
// tests/runtime/complement.cpp). Before, (_2,_4):(_-4,_1) gave (_4,_2):(_2,_-1), with L(R(5)) == -4.
TEST(Inverse, RightInverseTakesANegativeStrideOnlyAlone) {
  auto a = make_layout(S<2, 4>(), S<-4, 1>());
  auto ra = right_inverse(a);
  EXPECT_PRINTS(ra, "_4:_2");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a(ra(i)), i);
  auto b = make_layout(S<2, 4>(), S<4, -1>());
  auto rb = right_inverse(b);
  EXPECT_PRINTS(rb, "_4:_-2");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b(rb(i)), i);
  auto c = make_layout(S<3, 3>(), S<-1, 3>());
  auto rc = right_inverse(c);
  EXPECT_PRINTS(rc, "_3:_-1");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(c(rc(i)), i);
}

// The law fuzzer's open case (docs/robustness.md), static: the chain stops before the negative
// mode of |d| == 2, so R = _2:_3 and L(R(i)) == i.
TEST(Inverse, RightInverseOfTheLawFuzzersNegativeStrideCase) {
  auto l = make_layout(make_tuple(_3{}, S<2, 5>()), make_tuple(C<-2>{}, S<1, -6>()));
  auto r = right_inverse(l);
  EXPECT_PRINTS(r, "_2:_3");
  for (int i = 0; i < size(r); ++i) EXPECT_EQ(l(r(i)), i);
}

// A codomain size below 1 is an error (the twin's rule, docs/algebra.md): a static one at compile
// time (tests/compile_fail/complement_codomain_below_one.cpp), a dynamic one by an exception.
TEST(Complement, CodomainBelowOneIsAnError) {
  for (long long m : {0LL, -4LL}) {
    try {
      (void)complement(make_layout(_4{}, _1{}), m);
      ADD_FAILURE() << "complement(_4:_1, " << m << ") did not throw";
    } catch (layout_error const& e) {
      EXPECT_EQ(std::string(e.what()),
                "complement: the codomain size M has a leaf below 1, so the complement would hold an empty mode; "
                "give a codomain size >= 1 (e.g. cosize(A)) (got _4:_1, " +
                    std::to_string(m) + ")");
    }
  }
  EXPECT_THROW((void)complement(make_layout(_1{}, _0{}), make_tuple(_2{}, 0)), layout_error);
  EXPECT_PRINTS(complement(make_layout(_4{}, _1{}), _1{}), "_1:_0");  // 1 is a valid (tiny) codomain
}

TEST(Nullspace, ReferenceExample) {
  EXPECT_PRINTS(nullspace(make_layout(S<2, 4, 3>(), S<0, 1, 0>())), "(_2,_3):(_1,_8)");
  EXPECT_PRINTS(nullspace(make_layout(S<2, 4>(), S<1, 2>())), "_1:_0");
}
