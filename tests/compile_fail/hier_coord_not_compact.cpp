// Compile-fail case: get_hier_coord of an offset that a static layout does not reach.
//
// (_2,_4):(_8,_1) is not compact (offsets 4..7 are gaps): idx2crd(4, (_2,_4), (_8,_1)) is
// (_0,_0), where the layout gives 0, not 4, so the coordinate would be wrong. Tessera checks
// L(result) == i (docs/algebra.md, Layouts, Tessera rule) instead of returning it, as a
// compile-time error when everything is static.
// Control: the compact (_2,_4):(_4,_1) maps offset 7 back to (_1,_3).
// EXPECT-ERROR: get_hier_coord/get_flat_coord/get_1d_coord: the offset is not reached
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto c = make_layout(make_shape(_2{}, _4{}), make_stride(_8{}, _1{})).get_hier_coord(_4{});
#else
  auto c = make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{})).get_hier_coord(_7{});
  static_assert(std::is_same_v<decltype(c), tuple<_1, _3>>);
#endif
  (void)c;
}
