// Compile-fail case: composition whose right operand's stride does not divide A's mode sizes.
//
// A = (_4,_8):(_1,_100), B = _3:_3. Neither of 4 and 3 divides the other and B's offsets 0, 3, 6
// do not all lie in mode 0 (6 >= 4), so A o B is not a layout (docs/algebra.md, composition,
// Tessera rule). With static operands this must be a compile-time error naming "stride
// divisibility". Control: B = _2:_2 (2 divides 4) composes to _2:_2 (and B = _2:_3, whose
// offsets 0 and 3 fit in mode 0, to _2:_3).
// EXPECT-ERROR: composition: B's stride and a mode size of A do not divide one another (stride divisibility)
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  auto a = make_layout(make_tuple(_4{}, _8{}), make_tuple(_1{}, C<100>{}));  // (m,n) -> offset
#ifndef TESSERA_CONTROL
  auto r = composition(a, make_layout(_3{}, _3{}));
#else
  auto r = composition(a, make_layout(_2{}, _2{}));
  static_assert(std::is_same_v<decltype(r), Layout<_2, _2>>);
  static_assert(std::is_same_v<decltype(composition(a, make_layout(_2{}, _3{}))), Layout<_2, _3>>);
#endif
  (void)r;
}
