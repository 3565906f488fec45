// Compile-fail case: shape_div of two static integers where neither divides the other.
//
// shape_div(a, b) is a / b when b divides a and 1 when a divides b; for 6 and 4 neither holds,
// which Tessera rejects (docs/algebra.md, Integers, Tessera rule) instead of rounding.
// Control: shape_div(_6, _3) == _2 and shape_div(_4, _8) == _1.
// EXPECT-ERROR: shape_div: the two integers do not divide one another
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto r = shape_div(_6{}, _4{});
#else
  auto r = shape_div(_6{}, _3{});
  static_assert(std::is_same_v<decltype(r), _2>);
  static_assert(std::is_same_v<decltype(shape_div(_4{}, _8{})), _1>);
#endif
  (void)r;
}
