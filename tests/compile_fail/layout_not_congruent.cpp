// Compile-fail case: a Layout whose shape and stride are not congruent.
//
// Shape (_2,_3) has two leaves but the stride _1 is a single integer: there is no stride per
// shape leaf, so shape:stride is not a layout (docs/algebra.md, Layouts). Both the Layout type
// and make_layout(shape, stride) must reject it at compile time.
// Control: (_2,_3):(_1,_2).
// EXPECT-ERROR: Layout: shape and stride must be congruent
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto l = make_layout(make_tuple(_2{}, _3{}), _1{});
#else
  auto l = make_layout(make_tuple(_2{}, _3{}), make_tuple(_1{}, _2{}));
  static_assert(decltype(size(l))::value == 6);
#endif
  (void)l;
}
