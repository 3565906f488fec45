// Compile-fail case: tile_to_shape with a target that is not a multiple of the block.
//
// Block (_8,_8) cannot cover (_64,_36) with whole copies: 36 is not a multiple of 8
// (docs/algebra.md, tile_to_shape: "must divide exactly"). Must fail at compile time.
// Control: target (_64,_32) gives ((_8,_8),(_8,_4)):((_1,_64),(_8,_512)).
// EXPECT-ERROR: tile_to_shape: a mode of the target shape is not a multiple of the block's
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  auto block = make_layout(make_tuple(_8{}, _8{}));  // (m,n) -> offset in one 8x8 block
#ifndef TESSERA_CONTROL
  auto l = tile_to_shape(block, make_tuple(_64{}, C<36>{}));
#else
  auto l = tile_to_shape(block, make_tuple(_64{}, _32{}));
  static_assert(
      std::is_same_v<decltype(l), Layout<tuple<tuple<_8, _8>, tuple<_8, _4>>, tuple<tuple<_1, _64>, tuple<_8, _512>>>>);
#endif
  (void)l;
}
