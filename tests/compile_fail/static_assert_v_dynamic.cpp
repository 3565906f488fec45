// Compile-fail case: TESSERA_STATIC_ASSERT_V on a condition that depends on run-time values.
//
// size(l) of a layout with a dynamic extent is an int, so `size(l) == _8{}` is a bool known only
// at run time: the macro refuses it with a message saying so, instead of a cascade of errors about
// a missing ::value. Control: a static extent.
// EXPECT-ERROR: TESSERA_STATIC_ASSERT_V: the condition is not static
#include "tessera/tessera.hpp"

using namespace tessera;

int main(int argc, char**) {
#ifndef TESSERA_CONTROL
  auto l = make_layout(make_shape(argc + 7));
#else
  auto l = make_layout(make_shape(_8{}));
#endif
  TESSERA_STATIC_ASSERT_V(size(l) == _8{});
  (void)l;
}
