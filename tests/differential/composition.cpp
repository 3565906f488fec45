// Core vs twin for coalesce, filter and composition (core/composition.hpp). composition is
// compared with a layout, a shape tiler (nested where the shape is), a tiler of layouts (the
// modes of B) and an integer on the right; what the core refuses at compile time (B's modes
// carrying into one another, a tiler with too many modes) the twin must refuse. Also composition
// with a swizzle on the left, and of a composed layout Sw o offset o A (core/swizzle.hpp).
#include "differential.hpp"

namespace tessera::test {
namespace {

const Register reg_coalesce("coalesce", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("coalesce", l), [&] { return str(coalesce(l)); });
    check(t, call("coalesce", l, l.shape()), [&] { return str(coalesce(l, l.shape())); });  // per mode
    check(t, call("coalesce", l, _1{}), [&] { return str(coalesce(l, _1{})); });
    return true;
  });
});

const Register reg_filter("filter", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    check(t, call("filter", l), [&] { return str(filter(l)); });
    return true;
  });
});

// composition(a, tiler) when the core compiles it, else a refusal the twin must share.
template <class A, class T>
void compose(Tally& t, A const& a, T const& tiler) {
  if constexpr (composition_compiles<A, T>()) {
    check(t, call("composition", a, tiler), [&] { return str(composition(a, tiler)); });
  } else {
    check_refused(t, call("composition", a, tiler));
  }
}

const Register reg_composition("composition", [](Tally& t) {
  return run_binary<Family::General, 2, Family::General, 2, kBinary>([&](auto const& a, auto const& b) {
    compose(t, a, b);
    compose(t, a, b.shape());
    compose(t, a, modes_tuple(b));
    compose(t, a, size(b));
    check(t, call("composition", Swizzle<2, 1, 3>{}, a), [&] { return str(composition(Swizzle<2, 1, 3>{}, a)); });
    auto c = swizzled(Swizzle<2, 1, 3>{}, a);
    if constexpr (composition_compiles<plain_t<decltype(a)>, plain_t<decltype(b)>>()) {
      check(t, call("composition", c, b), [&] { return str(composition(c, b)); });
    } else {
      check_refused(t, call("composition", c, b));
    }
    return true;
  });
});

}  // namespace
}  // namespace tessera::test
