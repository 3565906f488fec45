// Compile-fail case: composition with a negative stride over a layout of several modes.
//
// A = (_4,_8):(_1,_5), B = _4:_-4. The stride phase of A o B divides -4 out of mode 0 and leaves
// the extents -1 and -4, so the result would not be a layout (docs/algebra.md, composition,
// Tessera rule: r must be non-negative). With static operands this is a compile-time error.
// Control: A = _32:_1 (one mode): A o B = _4:_-4, a layout.
// EXPECT-ERROR: composition: B's stride is negative and A has several modes
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  auto b = make_layout(_4{}, C<-4>{});  // i -> -4i
#ifndef TESSERA_CONTROL
  auto a = make_layout(make_tuple(_4{}, _8{}), make_tuple(_1{}, _5{}));  // (m,n) -> offset
  auto r = composition(a, b);
#else
  auto a = make_layout(C<32>{}, _1{});  // i -> i
  auto r = composition(a, b);
  static_assert(std::is_same_v<decltype(r), Layout<_4, C<-4>>>);
#endif
  (void)r;
}
