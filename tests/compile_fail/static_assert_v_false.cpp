// Compile-fail case: TESSERA_STATIC_ASSERT_V on a static condition that is false.
//
// A shared-memory tile of (_64,_8) checked against a (_128,_128,_8) block tiler: the M extents
// differ, so the tile contract fails at compile time with the condition's text and the message.
// Control: a (_128,_8) tile.
// EXPECT-ERROR: TESSERA_STATIC_ASSERT_V(size<0>(sA) == size<0>(tiler)) is false: BLK_M
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  auto tiler = make_shape(_128{}, _128{}, _8{});
#ifndef TESSERA_CONTROL
  auto sA = make_layout(make_shape(_64{}, _8{}));
#else
  auto sA = make_layout(make_shape(_128{}, _8{}));
#endif
  TESSERA_STATIC_ASSERT_V(size<0>(sA) == size<0>(tiler), "BLK_M");
  (void)sA;
}
