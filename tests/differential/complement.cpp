// Core vs twin for complement, right_inverse, left_inverse and nullspace (core/complement.hpp).
// complement and left_inverse take injective layouts (a static non-injective one is a
// compile-time error in the core); right_inverse and nullspace take any layout.
#include "differential.hpp"
#include "static_spelling.hpp"

namespace tessera::test {
namespace {

const Register reg_complement("complement", [](Tally& t) {
  return run_unary<Family::Injective, 2, kInjective>([&](auto const& l) {
    const long long m = static_cast<long long>(cosize(l)) * (1 + static_cast<long long>(size(l)) % 3);
    check(t, call("complement", l), [&] { return str(complement(l)); });
    check(t, call("complement", l, m), [&] { return str(complement(l, m)); });
    check(t, call("complement", l, cosize(l)), [&] { return str(complement(l, cosize(l))); });
    check(t, call("complement", l, make_tuple(cosize(l), _2{})),
          [&] { return str(complement(l, make_tuple(cosize(l), _2{}))); });
    check(t, call("complement", l, 0LL), [&] { return str(complement(l, 0LL)); });  // a codomain below 1
    return true;
  });
});

// The core's right_inverse follows only static strides; the twin follows every stride by value
// (the largest right inverse, docs/algebra.md): where they differ, the twin's must obey the law
// and be larger (check_exact).
const Register reg_right_inverse("right_inverse", [](Tally& t) {
  auto c = run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check_exact(
        t, call("right_inverse", l), [&] { return str(right_inverse(l)); }, exact_right_inverse_or_static(text(l)));
    return true;
  });
  return c + run_unary<Family::Injective, 2, kInjective>([&](auto const& l) {
           check_exact(
               t, call("right_inverse", l), [&] { return str(right_inverse(l)); },
               exact_right_inverse_or_static(text(l)));
           return true;
         });
});

const Register reg_left_inverse("left_inverse", [](Tally& t) {
  return run_unary<Family::Injective, 2, kInjective>([&](auto const& l) {
    check(t, call("left_inverse", l), [&] { return str(left_inverse(l)); });
    return true;
  });
});

const Register reg_nullspace("nullspace", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("nullspace", l), [&] { return str(nullspace(l)); });
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
