// Compile-fail case: composition(Sw0, Sw1) where Sw0 reads bits that Sw1 writes.
//
// Sw<1,5,3> xors bit 8 into bit 5; Sw<1,2,3> then reads bit 5 (already changed) into bit 2, so
// Sw<1,2,3> o Sw<1,5,3> xors bit 8 into bit 2 as well: no single swizzle. The error names the
// cause (not only that the masks do not make a swizzle). Control: Sw<1,3,3> o Sw<1,2,3> == Sw<2,2,3>.
// EXPECT-ERROR: Sw0 reads bits that Sw1 writes
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
#ifndef TESSERA_CONTROL
  auto sw = composition(Swizzle<1, 2, 3>{}, Swizzle<1, 5, 3>{});
#else
  auto sw = composition(Swizzle<1, 3, 3>{}, Swizzle<1, 2, 3>{});
#endif
  return sw(0);
}
