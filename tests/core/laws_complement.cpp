// Property tests for complement, right_inverse, left_inverse and nullspace.
#include "laws_driver.hpp"

using namespace tessera;
using namespace tessera::test;

TEST(Laws, ComplementIsDisjointIncreasingAndCovers) {
  std::mt19937_64 pick_m(5);
  auto c = run_unary<Family::Injective, 2, 300>([&](auto const& a) {
    long long m = static_cast<long long>(cosize(a)) * (1LL << (pick_m() % 3));
    auto r = complement(a, m);
    auto rv = values(r);
    auto av = value_set(values(a));
    for (std::size_t i = 1; i < rv.size(); ++i) {
      EXPECT_LT(rv[i - 1], rv[i]) << "complement(" << a << "," << m << ") = " << r;
      EXPECT_EQ(av.count(rv[i]), 0u) << "complement(" << a << "," << m << ") = " << r;
    }
    auto joint = make_layout(a, r);
    EXPECT_GE(static_cast<long long>(cosize(joint)), m) << a << " , " << r;
    EXPECT_EQ(value_set(values(joint)).size(), static_cast<std::size_t>(size(joint))) << a << " , " << r;
    // Complementing twice gives back the complement.
    auto again = complement(complement(r, cosize(a)), m);
    EXPECT_EQ(values(again), rv) << a << " -> " << r << " -> " << again;
    return true;
  });
  expect_coverage(c, "complement");
}

// L(R(i)) == i for every i in R's domain.
auto const right_inverse_law = [](auto const& l) {
  auto r = right_inverse(l);
  long long n = static_cast<long long>(size(r));
  for (long long i = 0; i < n; ++i) EXPECT_EQ(static_cast<long long>(l(r(i))), i) << l << " ; " << r;
  return true;
};

TEST(Laws, RightInverse) { expect_coverage(run_unary<Family::General, 2, 400>(right_inverse_law), "right_inverse"); }

// Injective layouts exercise the long chains of the inverse.
TEST(Laws, RightInverseOfInjectiveLayouts) {
  expect_coverage(run_unary<Family::Injective, 2, 450>(right_inverse_law), "right_inverse(inj)");
}

TEST(Laws, LeftInverse) {
  auto c = run_unary<Family::Injective, 2, 500>([](auto const& l) {
    auto r = left_inverse(l);
    long long n = static_cast<long long>(size(l));
    for (long long i = 0; i < n; ++i) EXPECT_EQ(static_cast<long long>(r(l(i))), i) << l << " ; " << r;
    return true;
  });
  expect_coverage(c, "left_inverse");
}

TEST(Laws, NullspaceMapsToZero) {
  auto c = run_unary<Family::General, 2, 600>([](auto const& l) {
    auto z = nullspace(l);
    long long n = static_cast<long long>(size(z));
    auto fl = flatten(l);
    for (long long i = 0; i < n; ++i) EXPECT_EQ(static_cast<long long>(fl(z(i))), 0) << l << " ; " << z;
    return true;
  });
  expect_coverage(c, "nullspace");
}
