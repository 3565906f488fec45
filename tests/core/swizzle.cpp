// Exact tests for include/tessera/core/swizzle.hpp (Swizzle, ComposedLayout).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Swizzle, ReferenceValues) {
  Swizzle<3, 3, 3> sw;
  EXPECT_PRINTS(sw, "Sw<3,3,3>");
  const int in[] = {0, 8, 64, 72, 127};
  const int out[] = {0, 8, 72, 64, 119};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sw(in[i]), out[i]);
  static_assert(std::is_same_v<decltype(sw(C<64>{})), C<72>>);
  for (int x = 0; x < 4096; ++x) EXPECT_EQ(sw(sw(x)), x);  // an involution
}

TEST(Swizzle, ComposedLayout) {
  auto cl = composition(Swizzle<3, 3, 3>{}, make_layout(S<8, 64>(), S<64, 1>()));
  EXPECT_PRINTS(cl, "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(cl(1, 8), 64);
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 64; ++n) EXPECT_EQ(cl(m, n), (Swizzle<3, 3, 3>{}(m * 64 + n)));
  auto row = cl(3, _);
  EXPECT_PRINTS(row, "Sw<3,3,3> o 192 o (_64):(_1)");
  EXPECT_PRINTS(cl(_3{}, _), "Sw<3,3,3> o _192 o (_64):(_1)");
  EXPECT_EQ(row(5), cl(3, 5));
  auto tiled = tile_to_shape(cl, S<32, 64>());
  EXPECT_PRINTS(tiled, "Sw<3,3,3> o _0 o ((_8,_4),(_64,_1)):((_64,_512),(_1,_0))");
}
