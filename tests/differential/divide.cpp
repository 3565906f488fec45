// Core vs twin for logical, zipped, tiled and flat divide (core/divide.hpp): a random layout
// divided by an injective layout and by its shape as a tiler (nested where the shape is);
// logical_divide also by its modes as a tiler of layouts and by its size. A tiler with more modes
// than the layout is a compile-time error in the core; the twin must refuse it. Each divide is
// also compared on the composed layout Sw o offset o A (core/swizzle.hpp: the divide acts on A).
#include "differential.hpp"

namespace tessera::test {
namespace {

enum class Divide { logical, zipped, tiled, flat };

template <Divide D>
constexpr const char* divide_name() {
  return D == Divide::logical  ? "logical_divide"
         : D == Divide::zipped ? "zipped_divide"
         : D == Divide::tiled  ? "tiled_divide"
                               : "flat_divide";
}

template <Divide D, class A, class T>
void divide(Tally& t, A const& a, T const& tiler) {
  if constexpr (is_tuple_v<T> && !tiler_fits<plain_t<decltype(a.shape())>, T>()) {
    check_refused(t, call(divide_name<D>(), a, tiler));
  } else {
    check(t, call(divide_name<D>(), a, tiler), [&] {
      if constexpr (D == Divide::logical) {
        return str(logical_divide(a, tiler));
      } else if constexpr (D == Divide::zipped) {
        return str(zipped_divide(a, tiler));
      } else if constexpr (D == Divide::tiled) {
        return str(tiled_divide(a, tiler));
      } else {
        return str(flat_divide(a, tiler));
      }
    });
  }
}

template <Divide D>
Coverage divides(Tally& t) {
  return run_binary<Family::General, 2, Family::Injective, 1, kDivide>([&](auto const& a, auto const& b) {
    divide<D>(t, a, b);
    divide<D>(t, a, b.shape());
    if constexpr (D == Divide::logical) {
      divide<D>(t, a, modes_tuple(b));
      divide<D>(t, a, size(b));
    }
    divide<D>(t, swizzled(Swizzle<1, 2, -2>{}, a), b);
    return true;
  });
}

const Register reg_logical_divide("logical_divide", [](Tally& t) { return divides<Divide::logical>(t); });
const Register reg_zipped_divide("zipped_divide", [](Tally& t) { return divides<Divide::zipped>(t); });
const Register reg_tiled_divide("tiled_divide", [](Tally& t) { return divides<Divide::tiled>(t); });
const Register reg_flat_divide("flat_divide", [](Tally& t) { return divides<Divide::flat>(t); });

}  // namespace
}  // namespace tessera::test
