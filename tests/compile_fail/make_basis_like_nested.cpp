// Compile-fail case: make_basis_like of a shape with a nested mode.
//
// CuTe gives the nested mode ((a,b),c) the basis elements E<0,0>, E<0,1>; Tessera's basis
// elements name a single mode (E<N>), so it refuses instead (docs/algebra.md, Basis strides,
// Tessera rule).
// Control: a flat shape gets one E<i> per mode.
// EXPECT-ERROR: make_basis_like: a nested mode would need a nested basis element
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto b = make_basis_like(make_shape(make_shape(_2{}, _3{}), _4{}));
#else
  auto b = make_basis_like(make_shape(_2{}, _3{}, _4{}));
  static_assert(std::is_same_v<decltype(b), tuple<E<0>, E<1>, E<2>>>);
#endif
  (void)b;
}
