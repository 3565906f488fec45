// Compiled to PTX twice by tests/cuda/CMakeLists.txt, with and without TESSERA_DEVICE_CHECKS: a
// kernel that builds and evaluates layouts with run-time extents (make_layout validates them, the
// composition checks divisibility). Without the macro the PTX must hold no printf and no trap (the
// checks compile to nothing); with it, both (docs/errors.md). check_device_checks.cmake reads the
// two files.
#include "tessera/core/composition.hpp"

__global__ void evaluate_dynamic_layouts(int m, int n, int tile, long long* out) {
  auto a = tessera::make_layout(tessera::make_tuple(m, n), tessera::make_tuple(n, tessera::_1{}));  // (m,n) -> offset
  auto b = tessera::make_layout(tessera::make_tuple(tile, tile), tessera::make_tuple(tessera::_1{}, tile));
  out[threadIdx.x] = tessera::composition(a, b)(int(threadIdx.x));
}
