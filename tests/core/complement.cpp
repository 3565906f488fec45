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

TEST(Nullspace, ReferenceExample) {
  EXPECT_PRINTS(nullspace(make_layout(S<2, 4, 3>(), S<0, 1, 0>())), "(_2,_3):(_1,_8)");
  EXPECT_PRINTS(nullspace(make_layout(S<2, 4>(), S<1, 2>())), "_1:_0");
}
