// Compile-fail case: complement with a static codomain size below 1.
//
// complement(_4:_1, _0) would be _0:_4 (step 4 of docs/algebra.md appends ceil_div(_0, _4) = _0, an
// empty mode): every leaf of M must be >= 1, as in the run-time twin, where complement(4:1, 0) is
// an error (tests/runtime/complement.cpp).
// Control: complement(_4:_1, _24) == _6:_4.
// EXPECT-ERROR: complement: the codomain size M has a leaf below 1, so the complement would hold an empty mode; give a codomain size >= 1 (e.g. cosize(A))
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto r = complement(make_layout(_4{}, _1{}), _0{});
#else
  auto r = complement(make_layout(_4{}, _1{}), _24{});
  static_assert(std::is_same_v<decltype(r), Layout<_6, _4>>);
#endif
  (void)r;
}
