// tests/runtime/swizzle.cpp -- swizzles and composed layouts of the run-time twin
// (runtime/swizzle.hpp).
#include "helpers.hpp"

namespace tessera::rt::test {
namespace {

TEST(RuntimeAlgebra, SwizzleAndComposed) {
  const Swizzle sw{3, 3, 3};
  const std::int64_t in[] = {0, 8, 64, 72, 127}, out[] = {0, 8, 72, 64, 119};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(apply(sw, D(in[i])).value, out[i]);
  const ComposedLayout c = composition(sw, L("(_8,_64):(_64,_1)"));
  EXPECT_EQ(to_string(c), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(evaluate(c, T("(1,8)")).value, apply(sw, D(72)).value);
  EXPECT_EQ(to_string(slice(T("(_1,_)"), c)), "Sw<3,3,3> o _64 o (_64):(_1)");
  EXPECT_EQ(to_string(slice(T("(1,_)"), c)), "Sw<3,3,3> o 64 o (_64):(_1)");
  EXPECT_THROW(make_swizzle(3, 3, 1), layout_error);
}

TEST(RuntimeAlgebra, CosizeOfComposedLayout) {
  // As the core: the cosize of the inner layout (the evaluator refused a composed layout).
  EXPECT_EQ(to_string(cosize(composition(Swizzle{3, 3, 3}, L("(_8,_64):(_64,_1)")))), "_512");
  EXPECT_EQ(E("cosize(Sw<3,3,3> o _0 o (_8,_64):(_64,_1))"), "_512");
}

// The twin of core/swizzle.hpp's composed-layout functions: the same results as the core's tests
// (tests/core/swizzle.cpp), the same refusals, and the laws on the function values.
TEST(RuntimeAlgebra, SwizzleMasksAndComposition) {
  EXPECT_EQ(to_string(make_swizzle_from_masks(0b1000, 0b0100)), "Sw<1,2,1>");
  EXPECT_EQ(to_string(make_swizzle_from_masks(0b11000000, 0b00000110)), "Sw<2,1,5>");
  EXPECT_EQ(to_string(make_swizzle_from_masks(0b0100, 0b1000)), "Sw<1,2,-1>");
  EXPECT_EQ(to_string(make_swizzle_from_masks(0, 0)), "Sw<0,0,0>");
  EXPECT_THROW(make_swizzle_from_masks(0b101, 0b11000), layout_error);
  EXPECT_THROW(make_swizzle_from_masks(0b11, 0b110), layout_error);
  EXPECT_EQ(read_mask(Swizzle{3, 4, 3}), 0b1110000000u);
  EXPECT_EQ(write_mask(Swizzle{3, 4, 3}), 0b0001110000u);
  const Swizzle pairs[][2] = {
      {{1, 4, 3}, {2, 2, 3}}, {{2, 2, 3}, {1, 4, 3}}, {{3, 3, 3}, {3, 3, 3}}, {{1, 2, -3}, {1, 3, -3}}};
  for (const auto& p : pairs) {
    const Swizzle c = composition(p[0], p[1]);
    for (std::int64_t x = 0; x < (1 << 12); ++x)
      ASSERT_EQ(apply(c, D(x)).value, apply(p[0], apply(p[1], D(x))).value) << to_string(c);
  }
  EXPECT_EQ(to_string(composition(Swizzle{1, 4, 3}, Swizzle{2, 2, 3})), "Sw<3,2,3>");
  try {
    composition(Swizzle{1, 2, 3}, Swizzle{1, 5, 3});
    FAIL() << "Sw0 reading Sw1's written bits was accepted";
  } catch (layout_error const& e) {
    EXPECT_NE(std::string(e.what()).find("Sw0 reads bits that Sw1 writes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(composition(Swizzle{1, 2, 3}, Swizzle{1, 2, 4}), layout_error);
}

TEST(RuntimeAlgebra, ComposedPortionsComplementCasts) {
  const ComposedLayout c = composition(Swizzle{3, 4, 3}, L("(_8,_64):(_64,_1)"));
  EXPECT_EQ(to_string(get_swizzle_portion(c)), "Sw<3,4,3>");
  EXPECT_EQ(to_string(get_nonswizzle_portion(c)), "(_8,_64):(_64,_1)");
  EXPECT_EQ(to_string(get_swizzle_portion(L("(_8,_64):(_64,_1)"))), "Sw<0,4,3>");
  EXPECT_EQ(to_string(complement(composition(Swizzle{3, 3, 3}, L("(_8,_8):(_1,_16)")), T("_128"))), "_2:_8");
  EXPECT_EQ(to_string(upcast(Swizzle{3, 4, 3}, 2)), "Sw<3,3,3>");
  EXPECT_EQ(to_string(downcast(Swizzle{3, 3, 3}, 2)), "Sw<3,4,3>");
  EXPECT_THROW(upcast(Swizzle{3, 1, 3}, 4), layout_error);
  EXPECT_THROW(upcast(Swizzle{3, 4, 3}, 3), layout_error);
  const ComposedLayout u = upcast(c, 2);
  EXPECT_EQ(to_string(u), "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)");
  for (std::int64_t m = 0; m < 8; ++m)
    for (std::int64_t n = 0; n < 32; ++n)
      ASSERT_EQ(evaluate(u, T("(" + std::to_string(m) + "," + std::to_string(n) + ")")).value * 2,
                evaluate(c, T("(" + std::to_string(m) + "," + std::to_string(2 * n) + ")")).value);
  const ComposedLayout d = downcast(c, 2);
  for (std::int64_t m = 0; m < 8; ++m)
    for (std::int64_t n = 0; n < 128; ++n)
      ASSERT_EQ(evaluate(d, T("(" + std::to_string(m) + "," + std::to_string(n) + ")")).value,
                evaluate(c, T("(" + std::to_string(m) + "," + std::to_string(n / 2) + ")")).value * 2 + n % 2);
  EXPECT_EQ(to_string(upcast(slice(T("(1,_)"), c), 2)), "Sw<3,3,3> o 32 o (_32):(_1)");
  EXPECT_THROW(upcast(ComposedLayout{Swizzle{3, 4, 3}, S(3), L("(_64):(_1)")}, 2), layout_error);
}

TEST(RuntimeAlgebra, ComposedMaxCommonVector) {
  const Layout v = L("(_64):(_1)");
  const ComposedLayout c{Swizzle{3, 2, 3}, S(0), v};
  EXPECT_EQ(to_string(max_common_vector(c, v)), "_4");
  EXPECT_EQ(to_string(max_common_vector(v, c)), "_4");
  EXPECT_EQ(to_string(max_common_vector(c, c)), "_64");
  EXPECT_EQ(to_string(max_common_vector(c, ComposedLayout{Swizzle{3, 4, 3}, S(0), v})), "_4");
  EXPECT_EQ(to_string(max_common_vector(ComposedLayout{Swizzle{3, 4, 3}, S(2), v}, v)), "_2");
}

// The rest of the core's functions on composed layouts (core/swizzle.hpp), in the twin and through
// `tessera eval`. Core agreement: tests/differential/swizzle.cpp.
TEST(RuntimeAlgebra, ComposedLayoutFunctions) {
  const ComposedLayout c = composition(Swizzle{3, 3, 3}, L("(_8,_64):(_64,_1)"));
  EXPECT_EQ(to_string(layout(c, 1)), "Sw<3,3,3> o _0 o _64:_1");
  EXPECT_EQ(E("get(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), 0)"), "Sw<3,3,3> o _0 o _8:_64");
  EXPECT_EQ(E("shape(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), 1)"), "_64");
  EXPECT_NE(E("stride(Sw<3,3,3> o _0 o (_8,_64):(_64,_1))").find("stride: a composed (swizzled) layout has no stride"),
            std::string::npos);
  EXPECT_EQ(E("stride(get_nonswizzle_portion(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)))"), "(_64,_1)");
  EXPECT_EQ(to_string(append(c, L("_2:_512"))), "Sw<3,3,3> o _0 o (_8,_64,_2):(_64,_1,_512)");
  EXPECT_EQ(E("append(Sw<3,3,3> o _0 o _8:_1, _1:_0, 3)"), "Sw<3,3,3> o _0 o (_8,_1,_1):(_1,_0,_0)");
  EXPECT_EQ(E("slice((_,1), Sw<3,3,3> o _0 o (_8,_64):(_64,_1))"), "Sw<3,3,3> o 1 o (_8):(_64)");
  EXPECT_EQ(E("slice_and_offset((_,1), Sw<3,3,3> o _0 o (_8,_64):(_64,_1))"), "(Sw<3,3,3> o 1 o (_8):(_64),_0)");
  EXPECT_EQ(E("domain_offset(1, Sw<3,3,3> o _0 o _64:_1)"), "(Sw<3,3,3> o 1 o _64:_1,_0)");
  EXPECT_EQ(E("complement(Sw<3,3,3> o _0 o (_8,_8):(_1,_16), _128)"), "_2:_8");
  EXPECT_EQ(E("upcast(Sw<3,4,3> o _0 o (_8,_64):(_64,_1), 2)"), "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)");
  EXPECT_EQ(E("recast(Sw<3,4,3> o _0 o (_8,_64):(_64,_1), 16, 32)"), "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)");
  EXPECT_EQ(E("recast(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), 16, 8)"), "Sw<3,4,3> o _0 o (_8,_128):(_128,_1)");
  EXPECT_EQ(E("recast(Sw<3,3,3> o 8 o _64:_1, 16, 16)"), "Sw<3,3,3> o 8 o _64:_1");
  EXPECT_EQ(E("max_common_vector(Sw<3,2,3> o _0 o (_64):(_1), (_64):(_1))"), "_4");
  EXPECT_EQ(E("get_swizzle_portion((_8,_64):(_64,_1))"), "Sw<0,4,3>");
  EXPECT_EQ(E("composition(Sw<1,4,3>, Sw<2,2,3>)"), "Sw<3,2,3>");
  // composition(L, sw): L o sw as a swizzled layout; the transpose swaps the swizzle's direction.
  const ComposedLayout ls = composition(L("(_8,_8):(_8,_1)"), Swizzle{3, 0, 3});
  EXPECT_EQ(to_string(ls), "Sw<3,0,-3> o _0 o (_8,_8):(_8,_1)");
  for (std::int64_t x = 0; x < 64; ++x)
    ASSERT_EQ(evaluate(ls, T(std::to_string(x))).value,
              evaluate(L("(_8,_8):(_8,_1)"), IntTuple(apply(Swizzle{3, 0, 3}, D(x)))).value);
  EXPECT_THROW(composition(L("(8,8):(8,1)"), Swizzle{3, 0, 3}), layout_error);      // not static
  EXPECT_THROW(composition(L("(_4,_8):(_8,_1)"), Swizzle{3, 3, 3}), layout_error);  // smaller than the span
  // right_inverse / left_inverse: c(R(i)) == i and R'(c(i)) == i.
  const ComposedLayout r = right_inverse(c);
  EXPECT_EQ(to_string(r), "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)");
  for (std::int64_t i = 0; i < 512; ++i) ASSERT_EQ(evaluate(c, IntTuple(evaluate(r, T(std::to_string(i))))).value, i);
  const ComposedLayout li = left_inverse(c);
  for (std::int64_t i = 0; i < 512; ++i) ASSERT_EQ(evaluate(li, IntTuple(evaluate(c, T(std::to_string(i))))).value, i);
  EXPECT_EQ(E("right_inverse(Sw<3,3,3>)"), "Sw<3,3,3>");
  EXPECT_NE(E("right_inverse(Sw<3,3,3> o 8 o (_8,_64):(_64,_1))").find("the offset must be _0, got 8"),
            std::string::npos);
  EXPECT_NE(E("left_inverse(Sw<3,3,3> o _0 o (8,64):(64,1))").find("L must be static"), std::string::npos);
}

}  // namespace
}  // namespace tessera::rt::test
