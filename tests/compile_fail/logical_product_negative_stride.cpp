// Compile-fail case: logical_product with a B whose negative stride makes cosize(B) < 1.
//
// logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B) (docs/algebra.md); for
// B = _2:_-1, cosize(B) = B(1) + 1 = _0, so the copies of A have no room. The error names B and the
// fix (non-negative strides), not the complement step the user never called; the run-time twin says
// the same with B's strides reversed (tests/runtime/product.cpp).
// Control: logical_product(_4:_1, _2:_1) == (_4,_2):(_1,_4).
// EXPECT-ERROR: logical_product: B has cosize < 1 (its negative strides reach below offset 0), so the copies of A have no room (the codomain size(A)*cosize(B) is empty); give B non-negative strides (reverse its negative modes, e.g. _2:_-1 -> _2:_1)
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto r = logical_product(make_layout(_4{}, _1{}), make_layout(_2{}, C<-1>{}));
#else
  auto r = logical_product(make_layout(_4{}, _1{}), make_layout(_2{}, _1{}));
  static_assert(std::is_same_v<decltype(r), Layout<tuple<_4, _2>, tuple<_1, _4>>>);
#endif
  (void)r;
}
