// Property tests for upcast/downcast, max_common_vector, coordinates and swizzles.
#include "laws_driver.hpp"

using namespace tessera;
using namespace tessera::test;

TEST(Laws, UpcastUndoesDowncast) {
  auto c = run_unary<Family::General, 2, 1000>(
      [](auto const& l) {
        try {
          auto d = downcast<4>(l);
          auto u = upcast<4>(d);
          EXPECT_EQ(values(u), values(l)) << l << " -> " << d << " -> " << u;
          return true;
        } catch (layout_error const&) {
          return false;  // a dynamic unit stride: outside downcast's domain
        }
      },
      700);  // more draws: dynamic unit strides fall outside downcast's domain
  expect_coverage(c, "up/downcast");
}

TEST(Laws, MaxCommonVectorIsContiguousInBoth) {
  auto c = run_binary<Family::Injective, 2, Family::Injective, 2, 1100>([](auto const& a, auto const& b) {
    auto v = static_cast<long long>(max_common_vector(a, b));
    auto inv = right_inverse(b);
    for (long long j = 0; j < v; ++j) {
      EXPECT_EQ(static_cast<long long>(b(inv(j))), j);
      EXPECT_EQ(static_cast<long long>(a(inv(j))), j) << a << " , " << b << " v=" << v;
    }
    auto self = static_cast<long long>(max_common_vector(a, a));
    EXPECT_GE(self, 1);
    return true;
  });
  expect_coverage(c, "max_common_vector");
}

TEST(Laws, Idx2CrdAndCrd2IdxAgreeWithEvaluation) {
  auto c = run_unary<Family::General, 2, 1200>([](auto const& l) {
    long long n = static_cast<long long>(size(l));
    for (long long i = 0; i < n; ++i) {
      auto crd = idx2crd(i, l.shape());
      EXPECT_EQ(static_cast<long long>(crd2idx(crd, l.shape(), l.stride())), static_cast<long long>(l(i))) << l;
      EXPECT_EQ(static_cast<long long>(crd2idx(crd, l.shape(), prefix_product(l.shape()))), i) << l;
    }
    return true;
  });
  expect_coverage(c, "idx2crd/crd2idx");
}

TEST(Laws, SwizzlesAreInvolutions) {
  auto check = [](auto sw, int bits) {
    for (long long x = 0; x < (1LL << bits); ++x) {
      ASSERT_EQ(sw(sw(x)), x);
    }
  };
  check(Swizzle<1, 4, 3>{}, 10);
  check(Swizzle<2, 4, 3>{}, 10);
  check(Swizzle<3, 4, 3>{}, 12);
  check(Swizzle<3, 3, 3>{}, 12);
  check(Swizzle<2, 0, -2>{}, 8);
}
