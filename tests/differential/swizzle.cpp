// Core vs twin on composed layouts `Sw<B,M,S> o offset o L` (core/swizzle.hpp): size, rank and
// cosize are those of L. (Composition, the divides, the products and tile_to_shape of a composed
// layout are compared in composition.cpp, divide.cpp and product.cpp, next to the same functions
// on plain layouts, so that the core's instantiations for L are shared.)
#include "differential.hpp"

namespace tessera::test {
namespace {

template <class T>
std::string str(T const& x) {
  return to_string(x);
}

constexpr std::uint64_t kUnary = 3000;

// size, rank and cosize of Sw o offset o L are those of L.
const Register reg_size{"size", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);
    check(t, call("size", c), [&] { return str(size(c)); });
    return true;
  });
}};
const Register reg_rank{"rank", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);
    check(t, call("rank", c), [&] { return str(rank(c)); });
    return true;
  });
}};
const Register reg_cosize{"cosize", [](Tally& t) {
  return run_unary<Family::General, 2, kUnary>([&](auto const& l) {
    auto c = swizzled(Swizzle<2, 1, 3>{}, l);
    check(t, call("cosize", c), [&] { return str(cosize(c)); });
    return true;
  });
}};

}  // namespace
}  // namespace tessera::test
