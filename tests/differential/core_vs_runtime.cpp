// Differential test: the compile-time algebra (tessera::) and its run-time twin (tessera::rt::)
// must give the same result, printed in the reference notation (so the static-ness of every
// integer is compared too), or both refuse the input. Operands are the seeded random layouts of
// the property tests (static, mixed and dynamic), converted to run-time values.
#include <functional>

#include "../core/laws_driver.hpp"
#include "tessera/runtime/product.hpp"
#include "tessera/runtime/recast.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

template <class T>
rt::IntTuple to_rt(T const& t) {
  if constexpr (is_tuple_v<T>) {
    std::vector<rt::IntTuple> kids;
    for_each(t, [&](auto const& x) { kids.push_back(to_rt(x)); });
    return rt::IntTuple(std::move(kids));
  } else if constexpr (is_static_int_v<T>) {
    return rt::IntTuple(rt::S(T::value));
  } else {
    return rt::IntTuple(rt::D(static_cast<std::int64_t>(t)));
  }
}
template <class S, class D>
rt::Layout to_rt(Layout<S, D> const& l) {
  return rt::Layout{to_rt(l.shape()), to_rt(l.stride())};
}

// Outcome of one side: the printed result, or "refused" when it throws.
template <class F>
std::string outcome(F&& f) {
  try {
    return f();
  } catch (layout_error const&) {  // the core and the twin throw the same type
    return "refused";
  }
}

struct Agreement {
  long long agreed = 0, refused_both = 0, disagreed = 0;
};

// Compares ct() and rt() and records the result; prints the first disagreements.
template <class CT, class RT>
void compare(Agreement& a, const char* op, std::string const& operands, CT&& ct, RT&& rtf) {
  std::string x = outcome(ct), y = outcome(rtf);
  if (x == y) {
    (x == "refused" ? a.refused_both : a.agreed)++;
  } else {
    ++a.disagreed;
    ADD_FAILURE() << op << "(" << operands << "): core " << x << " vs runtime " << y;
  }
}

void report(Agreement const& a, Coverage const& c, const char* op) {
  std::printf("[ diff ] %-16s agreed %lld, both refused %lld, disagreed %lld\n", op, a.agreed, a.refused_both,
              a.disagreed);
  EXPECT_EQ(a.disagreed, 0) << op;
  expect_coverage(c, op);
}

}  // namespace

TEST(Differential, UnaryOperations) {
  Agreement co, fi, ri, nu, up, dn, idx;
  auto c = run_unary<Family::General, 2, 2000>([&](auto const& l) {
    auto r = to_rt(l);
    std::string s = to_string(l);
    compare(co, "coalesce", s, [&] { return to_string(coalesce(l)); }, [&] { return rt::to_string(rt::coalesce(r)); });
    compare(fi, "filter", s, [&] { return to_string(filter(l)); }, [&] { return rt::to_string(rt::filter(r)); });
    compare(ri, "right_inverse", s, [&] { return to_string(right_inverse(l)); },
            [&] { return rt::to_string(rt::right_inverse(r)); });
    compare(nu, "nullspace", s, [&] { return to_string(nullspace(l)); }, [&] { return rt::to_string(rt::nullspace(r)); });
    compare(up, "upcast<2>", s, [&] { return to_string(upcast<2>(l)); }, [&] { return rt::to_string(rt::upcast(r, 2)); });
    compare(dn, "downcast<2>", s, [&] { return to_string(downcast<2>(l)); },
            [&] { return rt::to_string(rt::downcast(r, 2)); });
    compare(idx, "cosize", s, [&] { return to_string(cosize(l)); }, [&] { return rt::to_string(rt::cosize(r)); });
    return true;
  });
  report(co, c, "coalesce");
  report(fi, c, "filter");
  report(ri, c, "right_inverse");
  report(nu, c, "nullspace");
  report(up, c, "upcast");
  report(dn, c, "downcast");
  report(idx, c, "cosize");
}

TEST(Differential, InjectiveOperations) {
  Agreement cm, cd, li;
  std::mt19937_64 pick_m(11);
  auto c = run_unary<Family::Injective, 2, 2100>([&](auto const& l) {
    auto r = to_rt(l);
    std::string s = to_string(l);
    long long m = static_cast<long long>(cosize(l)) * (1LL << (pick_m() % 3));
    compare(cm, "complement", s + ", " + std::to_string(m), [&] { return to_string(complement(l, m)); },
            [&] { return rt::to_string(rt::complement(r, rt::IntTuple(rt::D(m)))); });
    compare(cd, "complement()", s, [&] { return to_string(complement(l)); },
            [&] { return rt::to_string(rt::complement(r)); });
    compare(li, "left_inverse", s, [&] { return to_string(left_inverse(l)); },
            [&] { return rt::to_string(rt::left_inverse(r)); });
    return true;
  });
  report(cm, c, "complement");
  report(cd, c, "complement()");
  report(li, c, "left_inverse");
}

TEST(Differential, Composition) {
  Agreement co;
  auto c = run_binary<Family::General, 2, Family::General, 2, 2200>([&](auto const& a, auto const& b) {
    constexpr bool statically_refused =
        composition_refused_statically<std::remove_cvref_t<decltype(a)>, std::remove_cvref_t<decltype(b)>>();
    std::string s = to_string(a) + ", " + to_string(b);
    if constexpr (statically_refused) {
      // A compile-time error on the core side; the twin must refuse too.
      compare(co, "composition", s, [&] { return std::string("refused"); },
              [&] { return rt::to_string(rt::composition(to_rt(a), to_rt(b))); });
    } else {
      compare(co, "composition", s, [&] { return to_string(composition(a, b)); },
              [&] { return rt::to_string(rt::composition(to_rt(a), to_rt(b))); });
    }
    return true;
  });
  report(co, c, "composition");
}

TEST(Differential, DividesAndProducts) {
  Agreement ld, zd, td, fd, lp, zp, bp, rp, tp, fp;
  auto c = run_binary<Family::General, 2, Family::Injective, 1, 2300>([&](auto const& a, auto const& t) {
    auto ra = to_rt(a);
    auto rtl = to_rt(t);
    std::string s = to_string(a) + ", " + to_string(t);
    compare(ld, "logical_divide", s, [&] { return to_string(logical_divide(a, t)); },
            [&] { return rt::to_string(rt::logical_divide(ra, rtl)); });
    compare(zd, "zipped_divide", s, [&] { return to_string(zipped_divide(a, t)); },
            [&] { return rt::to_string(rt::zipped_divide(ra, rtl)); });
    compare(td, "tiled_divide", s, [&] { return to_string(tiled_divide(a, t)); },
            [&] { return rt::to_string(rt::tiled_divide(ra, rtl)); });
    compare(fd, "flat_divide", s, [&] { return to_string(flat_divide(a, t)); },
            [&] { return rt::to_string(rt::flat_divide(ra, rtl)); });
    return true;
  });
  report(ld, c, "logical_divide");
  report(zd, c, "zipped_divide");
  report(td, c, "tiled_divide");
  report(fd, c, "flat_divide");
  auto c2 = run_binary<Family::Injective, 1, Family::Injective, 1, 2400>([&](auto const& a, auto const& b) {
    auto ra = to_rt(a);
    auto rb = to_rt(b);
    std::string s = to_string(a) + ", " + to_string(b);
    compare(lp, "logical_product", s, [&] { return to_string(logical_product(a, b)); },
            [&] { return rt::to_string(rt::logical_product(ra, rb)); });
    compare(zp, "zipped_product", s, [&] { return to_string(zipped_product(a, b)); },
            [&] { return rt::to_string(rt::zipped_product(ra, rb)); });
    compare(tp, "tiled_product", s, [&] { return to_string(tiled_product(a, b)); },
            [&] { return rt::to_string(rt::tiled_product(ra, rb)); });
    compare(fp, "flat_product", s, [&] { return to_string(flat_product(a, b)); },
            [&] { return rt::to_string(rt::flat_product(ra, rb)); });
    compare(bp, "blocked_product", s, [&] { return to_string(blocked_product(a, b)); },
            [&] { return rt::to_string(rt::blocked_product(ra, rb)); });
    compare(rp, "raked_product", s, [&] { return to_string(raked_product(a, b)); },
            [&] { return rt::to_string(rt::raked_product(ra, rb)); });
    return true;
  });
  report(lp, c2, "logical_product");
  report(zp, c2, "zipped_product");
  report(tp, c2, "tiled_product");
  report(fp, c2, "flat_product");
  report(bp, c2, "blocked_product");
  report(rp, c2, "raked_product");
}

TEST(Differential, ThreadValueLayoutsAndMaxCommonVector) {
  Agreement tv, mc;
  auto c = run_binary<Family::Injective, 1, Family::Injective, 1, 2500>([&](auto const& thr, auto const& val) {
    std::string s = to_string(thr) + ", " + to_string(val);
    compare(tv, "make_layout_tv", s, [&] { return to_string(make_layout_tv(thr, val)); },
            [&] {
              auto p = rt::make_layout_tv(to_rt(thr), to_rt(val));
              return "(" + rt::to_string(p.first) + "," + rt::to_string(p.second) + ")";
            });
    compare(mc, "max_common_vector", s, [&] { return to_string(max_common_vector(thr, val)); },
            [&] { return rt::to_string(rt::max_common_vector(to_rt(thr), to_rt(val))); });
    return true;
  });
  report(tv, c, "make_layout_tv");
  report(mc, c, "max_common_vector");
}
