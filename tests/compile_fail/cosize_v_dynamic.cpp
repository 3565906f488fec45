// Compile-fail case: cosize_v of a layout type with dynamic extents.
//
// cosize_v<L> is a compile-time constant (e.g. a shared-memory array bound); a layout with an int
// extent has no such constant. The error says so and points to cosize(l) at run time.
// Control: the static layout.
// EXPECT-ERROR: size_v/cosize_v/depth_v<L>: the value is not static
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  using L = Layout<Shape<int, _8>>;
#else
  using L = Layout<Shape<_16, _8>>;
#endif
  float smem[cosize_v<L>];
  (void)smem;
}
