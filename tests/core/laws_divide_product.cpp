// Property tests for divides, products and make_layout_tv.
#include "laws_driver.hpp"

using namespace tessera;
using namespace tessera::test;

TEST(Laws, ZippedDivideTileModeIsComposition) {
  auto c = run_binary<Family::General, 2, Family::Injective, 1, 700>([](auto const& a, auto const& t) {
    auto z = zipped_divide(a, t);
    EXPECT_TRUE(bool(layout<0>(z) == composition(a, t))) << a << " / " << t << " = " << z;
    auto full = make_layout(t, complement(t, size(a)));
    auto ld = logical_divide(a, t);
    long long n = static_cast<long long>(size(ld));
    for (long long i = 0; i < n; ++i)
      EXPECT_EQ(static_cast<long long>(ld(i)), static_cast<long long>(a(full(i)))) << a << " / " << t;
    return true;
  });
  expect_coverage(c, "divide");
}

TEST(Laws, LogicalProductKeepsAAndIsCompatibleWithB) {
  auto c = run_binary<Family::Injective, 2, Family::Injective, 1, 800>([](auto const& a, auto const& b) {
    auto p = logical_product(a, b);
    EXPECT_TRUE(bool(layout<0>(p) == a)) << a << " x " << b << " = " << p;
    EXPECT_TRUE(bool(compatible(b.shape(), layout<1>(p).shape()))) << a << " x " << b << " = " << p;
    auto comp = complement(a, size(a) * cosize(b));
    auto p1 = layout<1>(p);
    long long n = static_cast<long long>(size(b));
    for (long long i = 0; i < n; ++i) EXPECT_EQ(static_cast<long long>(p1(i)), static_cast<long long>(comp(b(i))));
    return true;
  });
  expect_coverage(c, "logical_product");
}

TEST(Laws, BlockedAndRakedProductsRearrangeTheLogicalProduct) {
  auto c = run_binary<Family::Injective, 1, Family::Injective, 1, 900>([](auto const& a, auto const& b) {
    constexpr int R =
        rank_v<std::remove_cvref_t<decltype(a.shape())>> > rank_v<std::remove_cvref_t<decltype(b.shape())>>
            ? rank_v<std::remove_cvref_t<decltype(a.shape())>>
            : rank_v<std::remove_cvref_t<decltype(b.shape())>>;
    auto lp = value_set(values(logical_product(append<R>(a), append<R>(b))));
    auto bp = blocked_product(a, b);
    auto rp = raked_product(a, b);
    EXPECT_EQ(value_set(values(bp)), lp) << a << " , " << b;
    EXPECT_EQ(value_set(values(rp)), lp) << a << " , " << b;
    EXPECT_EQ(size(bp), size(a) * size(b));
    return true;
  });
  expect_coverage(c, "blocked/raked");
}
