// Compile-fail case: composition whose right operand's size does not split over A's modes.
//
// A = (_4,_8):(_1,_100), B = _6:_1. The shape phase takes min(4, 6) = 4 from mode 0 and needs
// 4 to divide the remaining 6: it does not, so A o B is not a layout (docs/algebra.md,
// composition, Tessera rule). Must fail at compile time naming "shape divisibility".
// Control: B = _8:_1 splits as (_4,_2):(_1,_100).
// EXPECT-ERROR: composition: B's size does not split evenly over A's modes (shape divisibility)
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  auto a = make_layout(make_tuple(_4{}, _8{}), make_tuple(_1{}, C<100>{}));  // (m,n) -> offset
#ifndef TESSERA_CONTROL
  auto r = composition(a, make_layout(_6{}, _1{}));
#else
  auto r = composition(a, make_layout(_8{}, _1{}));
  static_assert(std::is_same_v<decltype(r), Layout<tuple<_4, _2>, tuple<_1, C<100>>>>);
#endif
  (void)r;
}
