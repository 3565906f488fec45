// Exact tests for include/tessera/core/composition.hpp (coalesce, filter, composition).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Coalesce, ReferenceExamples) {
  auto l = make_layout(make_tuple(_2{}, S<1, 6>()), make_tuple(_1{}, S<6, 2>()));
  EXPECT_PRINTS(coalesce(l), "_12:_1");
  EXPECT_PRINTS(coalesce(l, S<1, 1>()), "(_2,_6):(_1,_2)");
  EXPECT_PRINTS(coalesce(make_layout(make_tuple(4, 8), make_tuple(_1{}, 4))), "(4,8):(_1,4)");
  EXPECT_PRINTS(coalesce(make_layout(S<1, 1>())), "_1:_0");
  static_assert(std::is_same_v<decltype(coalesce(l)), Layout<C<12>, C<1>>>);
}

TEST(Filter, DropsStaticZeroStrides) {
  EXPECT_PRINTS(filter(make_layout(S<4, 2>(), S<0, 1>())), "_2:_1");
  EXPECT_PRINTS(filter(make_layout(S<4, 2, 3>(), S<1, 0, 4>())), "_12:_1");
}

TEST(Composition, ReferenceExamples) {
  EXPECT_PRINTS(composition(make_layout(S<6, 2>(), S<8, 2>()), make_layout(S<4, 3>(), S<3, 1>())),
                "((_2,_2),_3):((_24,_2),_8)");
  EXPECT_PRINTS(composition(make_layout(C<20>{}, _2{}), make_layout(S<5, 4>(), S<4, 1>())), "(_5,_4):(_8,_2)");
  EXPECT_PRINTS(composition(make_layout(S<10, 2>(), S<16, 4>()), make_layout(S<5, 4>(), S<1, 5>())),
                "(_5,(_2,_2)):(_16,(_80,_4))");
  EXPECT_PRINTS(
      composition(make_layout(make_tuple(10, 2), make_tuple(16, 4)), make_layout(make_tuple(5, 4), make_tuple(1, 5))),
      "((5,1),(2,2)):((16,4),(80,4))");
  auto A = make_layout(make_tuple(C<12>{}, S<4, 8>()), make_tuple(C<59>{}, S<13, 1>()));
  EXPECT_PRINTS(composition(A, make_tuple(make_layout(_3{}, _4{}), make_layout(_8{}, _2{}))),
                "(_3,(_2,_4)):(_236,(_26,_1))");
  EXPECT_PRINTS(composition(A, S<3, 8>()), "(_3,(_4,_2)):(_59,(_13,_1))");
  EXPECT_PRINTS(composition(make_layout(S<4, 6, 8, 10>(), S<2, 3, 5, 7>()), make_layout(_6{}, C<12>{})),
                "(_2,_3):(_9,_5)");
}

TEST(Composition, StaticResultIsComputedAtCompileTime) {
  using R = decltype(composition(make_layout(S<6, 2>(), S<8, 2>()), make_layout(S<4, 3>(), S<3, 1>())));
  static_assert(std::is_empty_v<R>);
  static_assert(std::is_same_v<R, decltype(make_layout(make_tuple(S<2, 2>(), _3{}), make_tuple(S<24, 2>(), _8{})))>);
}

TEST(Composition, InvalidDynamicCompositionThrowsWithContext) {
  // 6 elements of stride 1 over (4,8):(1,100): 4 does not divide 6, no layout gives A(B(i)).
  auto a = make_layout(make_tuple(4, 8), make_tuple(1, 100));
  EXPECT_THROW(composition(a, make_layout(6, 1)), layout_error);
  try {
    composition(a, make_layout(6, 1));
  } catch (layout_error const& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("composition"), std::string::npos) << m;
    EXPECT_NE(m.find("shape divisibility"), std::string::npos) << m;
  }
  // Stride 3 against a mode of size 4: neither divides the other, and offset 6 leaves mode 0.
  EXPECT_THROW(composition(a, make_layout(3, 3)), layout_error);
  // A single element is always representable (whatever the stride); a static size _1 takes no
  // mode of A, a dynamic 1 takes a size-1 mode of each.
  EXPECT_PRINTS(composition(a, make_layout(_1{}, 3)), "_1:100");
  EXPECT_PRINTS(composition(a, make_layout(1, 3)), "(1,1):(3,100)");
}

TEST(Composition, NegativeStrideOverSeveralModesIsAnError) {
  // B = 4:-4 over (4,8):(1,5): the stride phase divides -4 out of mode 0, leaving the extents -1
  // and -4; the result used to be the non-layout (-1,-4):(-4,-5). The run-time twin refused it
  // (tests/differential); now both do.
  auto a = make_layout(make_tuple(4, 8), make_tuple(1, 5));
  EXPECT_THROW(composition(a, make_layout(4, -4)), layout_error);
  try {
    composition(a, make_layout(4, -4));
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos) << e.what();
  }
  // One mode of A: A(B(i)) = -4*i is a layout, as before.
  EXPECT_PRINTS(composition(make_layout(32, 1), make_layout(4, -4)), "4:-4");
}

// CuTe's results, text for text (docs/algebra.md, composition): A beyond its domain as written,
// size-1 modes with their computed strides, a B whose elements fit inside one mode of A accepted.
TEST(Composition, AgreesWithTheReferenceAtTheEdges) {
  EXPECT_PRINTS(composition(make_layout(S<4, 1>(), S<2, 1>()),
                            make_layout(make_tuple(_4{}, S<2, 4, 2>()), make_tuple(C<16>{}, S<4, 1, 8>()))),
                "(_4,(_2,_4,_2)):(_4,(_1,_2,_2))");
  EXPECT_PRINTS(detail::coalesce_x(make_layout(S<4, 1>(), S<2, 1>())), "(_4,_2):(_2,_1)");
  EXPECT_PRINTS(
      composition(make_layout(make_tuple(S<2, 5, 6>(), _8{}), make_tuple(make_tuple(_8{}, C<192>{}, C<16>{}), _1{})),
                  make_layout(make_tuple(_2{}), make_tuple(_4{}))),
      "(_2):(_384)");
  auto a = make_layout(S<4, 8>(), make_tuple(_1{}, C<100>{}));
  EXPECT_PRINTS(composition(a, make_layout(_2{}, _3{})), "_2:_3");         // offsets 0 and 3 lie in mode 0
  EXPECT_PRINTS(composition(make_layout(_1{}, C<16>{}), _1{}), "_1:_16");  // an integer n is n:_1
  EXPECT_PRINTS(composition(a, make_layout(_1{}, _2{})), "_1:_100");       // a size-1 B keeps its stride
  auto d = make_layout(make_tuple(4, 8), make_tuple(1, 100));
  EXPECT_PRINTS(composition(d, make_layout(2, 3)), "(2,1):(3,100)");
  EXPECT_THROW((void)composition(d, make_layout(3, 3)), layout_error);  // offset 6 leaves mode 0
}
