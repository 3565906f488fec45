// Compile-fail case: complement of a non-injective static layout.
//
// (_4,_2):(_1,_2) sends (2,0) and (0,1) to the same offset 2: the modes overlap, so no layout
// fills the gaps of its image (docs/algebra.md, complement step 3: "not injective").
// Control: (_2,_2):(_1,_6) with M = _24 has the complement (_3,_2):(_2,_12).
// EXPECT-ERROR: complement: the layout is not injective (two modes overlap)
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto r = complement(make_layout(make_tuple(_4{}, _2{}), make_tuple(_1{}, _2{})));
#else
  auto r = complement(make_layout(make_tuple(_2{}, _2{}), make_tuple(_1{}, _6{})), _24{});
  static_assert(std::is_same_v<decltype(r), Layout<tuple<_3, _2>, tuple<_2, _12>>>);
#endif
  (void)r;
}
