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

}  // namespace
}  // namespace tessera::rt::test
