// Property tests (docs/algebra.md laws) for coalesce, filter and composition over seeded random
// static, mixed and dynamic layouts.
#include "laws_driver.hpp"

using namespace tessera;
using namespace tessera::test;

TEST(Laws, CoalescePreservesSizeAndValues) {
  auto c = run_unary<Family::General, 2, 1>([](auto const& l) {
    auto r = coalesce(l);
    EXPECT_EQ(size(r), size(l)) << l << " -> " << r;
    EXPECT_EQ(values(r), values(l)) << l << " -> " << r;
    EXPECT_LE(int(decltype(depth(r))::value), 1) << r;
    return true;
  });
  expect_coverage(c, "coalesce");
}

TEST(Laws, FilterKeepsTheImage) {
  auto c = run_unary<Family::General, 2, 100>([](auto const& l) {
    auto r = filter(l);
    EXPECT_EQ(value_set(values(r)), value_set(values(l))) << l << " -> " << r;
    return true;
  });
  expect_coverage(c, "filter");
}

// Would composing leaf by leaf (right distributivity) give A(B(i))? Used to verify rejections.
template <class A, class B>
bool leafwise_composition_is_right(A const& a, B const& b) {
  auto fb = flatten(b);
  auto fs = flatten_to_tuple(fb.shape());
  auto fd = flatten_to_tuple(fb.stride());
  std::vector<std::vector<long long>> parts;
  std::vector<long long> sizes;
  for_each(transform(fs, fd, [](auto const& x, auto const& y) { return make_tuple(x, y); }), [&](auto const& p) {
    auto r = composition(a, make_layout(get<0>(p), get<1>(p)));
    parts.push_back(values(r));
    sizes.push_back(static_cast<long long>(size(r)));
  });
  long long n = static_cast<long long>(size(b));
  for (long long i = 0; i < n; ++i) {
    long long rest = i, sum = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      sum += parts[k][std::size_t(rest % sizes[k])];
      rest /= sizes[k];
    }
    if (sum != static_cast<long long>(a(b(i)))) return false;
  }
  return true;
}

template <class A, class B>
bool check_composition(A const& a, B const& b, long long& justified, long long& unjustified) {
  try {
    auto r = composition(a, b);
    long long n = static_cast<long long>(size(b));
    for (long long i = 0; i < n; ++i) {
      // A as written, also beyond its domain (its last coordinate unreduced): docs/algebra.md.
      EXPECT_EQ(static_cast<long long>(r(i)), static_cast<long long>(a(b(i))))
          << a << " o " << b << " = " << r << " at " << i;
    }
    EXPECT_TRUE(bool(compatible(b.shape(), r.shape()))) << a << " o " << b << " = " << r;
    return true;
  } catch (layout_error const&) {
    if (leafwise_composition_is_right(a, b)) {
      ++unjustified;
      if (unjustified <= 3)
        std::printf("[ laws ] rejected although mode-wise composition is right: %s o %s\n", to_string(a).c_str(),
                    to_string(b).c_str());
    } else {
      ++justified;
    }
    return false;
  }
}

TEST(Laws, CompositionIsFunctionComposition) {
  long long justified_rejections = 0, false_rejections = 0;
  auto c = run_binary<Family::General, 2, Family::General, 2, 200>(
      [&](auto const& a, auto const& b) {
        constexpr bool statically_rejected =
            composition_refused_statically<std::remove_cvref_t<decltype(a)>, std::remove_cvref_t<decltype(b)>>();
        if constexpr (statically_rejected) {
          EXPECT_FALSE(leafwise_composition_is_right(a, b)) << "static rejection not justified: " << a << " o " << b;
          return false;  // rejected at compile time (a static_assert if called)
        } else {
          return check_composition(a, b, justified_rejections, false_rejections);
        }
      },
      500);  // more draws: random B's overlap often and are (rightly) refused
  std::printf("[ laws ] composition rejections: %lld justified (mode-wise result would be wrong), %lld not\n",
              justified_rejections, false_rejections);
  // The carry check is exact for static layouts and may refuse a few dynamic ones whose carries
  // happen to cancel (e.g. through size-1 or stride-0 digits); never more than 1% of the cases.
  EXPECT_LE(false_rejections * 100, c.total()) << "too many valid compositions refused";
  expect_coverage(c, "composition");
}
