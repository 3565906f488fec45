// A static precondition violated in a kernel compiled by NVRTC: TESSERA_REQUIRE on static operands
// is a static_assert there as under nvcc, and its message reaches NVRTC's log unchanged (the same
// case as tests/compile_fail/complement_not_injective.cpp, inside a kernel).
// (_4,_2):(_1,_2) sends (2,0) and (0,1) to offset 2: the modes overlap, so no complement exists.
// Control (-DTESSERA_CONTROL): (_2,_2):(_1,_6) with M = _24 has the complement (_3,_2):(_2,_12).
// EXPECT-ERROR: complement: the layout is not injective (two modes overlap)
#include "tessera/core/complement.hpp"

extern "C" __global__ void call(int* out, int n) {
  using namespace tessera;
#ifndef TESSERA_CONTROL
  auto const r = complement(make_layout(make_tuple(_4{}, _2{}), make_tuple(_1{}, _2{})));
#else
  auto const r = complement(make_layout(make_tuple(_2{}, _2{}), make_tuple(_1{}, _6{})), _24{});
  static_assert(std::is_same_v<std::remove_const_t<decltype(r)>, Layout<tuple<_3, _2>, tuple<_2, _12>>>);
#endif
  out[0] = int(r(n));
}
