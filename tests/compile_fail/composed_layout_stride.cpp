// Compile-fail case: stride of a swizzled (composed) layout.
//
// Sw o offset o L maps c to Sw(offset + L(c)), not a linear function of c, so it has no stride
// (CuTe deletes the function; Tessera says why and what to call). Control: the inner layout's.
// EXPECT-ERROR: a composed (swizzled) layout has no stride
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  auto c = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
#ifndef TESSERA_CONTROL
  auto d = stride(c);
#else
  auto d = stride(get_nonswizzle_portion(c));
#endif
  return int(get<0>(d)) - 64;
}
