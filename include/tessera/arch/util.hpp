// What every instruction wrapper in arch/ shares:
//   smem_address(p)             the 32-bit shared-window address of a generic pointer into shared
//                               memory, the address operand of ldmatrix, stmatrix and cp.async
//   detail::device_only(what)   the host body of a device-only instruction: says so and aborts
//
// How a wrapper guards its instruction (arch/*.hpp): the PTX is emitted in the device pass when
// __CUDA_ARCH__ is new enough; in the device pass of an older architecture the wrapper's body holds
// a static_assert on a dependent false, so that only a *use* of the instruction fails to compile,
// with a message naming the instruction, the architecture it needs and the -gencode to build for;
// in the host pass (no __CUDA_ARCH__) the body calls detail::device_only, so host code that merely
// mentions an instruction compiles, and calling one on the host stops with a message.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tessera/core/config.hpp"

namespace tessera {

#if defined(__CUDACC__)
// smem_address(p): the address of *p in the shared state space. Pre: p points into shared memory
// (a __shared__ variable or dynamic shared memory). Post: the value PTX expects for [addr] operands
// of .shared instructions, e.g. smem_address(&tile[0]) == 0 for the first byte of a block's window.
__device__ __forceinline__ std::uint32_t smem_address(void const* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
#endif

namespace detail {
// The host body of a device-only instruction. Pre: none. Post: does not return; prints
// "tessera: <what> runs only on the device (called from host code)" to stderr and aborts. The
// operands are taken (and ignored) so that the wrapper's parameters count as used on the host.
template <class... Operands>
[[noreturn]] inline void device_only(char const* what, Operands const&...) {
  std::fprintf(stderr, "tessera: %s runs only on the device (called from host code)\n", what);
  std::abort();
}
}  // namespace detail

}  // namespace tessera
