// What every instruction wrapper in arch/ shares:
//   smem_address(p)             the 32-bit shared-window address of a generic pointer into shared
//                               memory, the address operand of ldmatrix, stmatrix and cp.async
//   schedule_here(x, ...)       32-bit integers taken as computed at this point: the compiler does
//                               not hoist what depends on them above earlier volatile asm
//   detail::device_only(what)   the host body of a device-only instruction: says so and aborts
//
// How a wrapper guards its instruction (arch/*.hpp): the PTX is emitted in the device pass when
// __CUDA_ARCH__ is new enough; in the device pass of an older architecture the wrapper's body holds
// a static_assert on a dependent false, so that only a *use* of the instruction fails to compile,
// with a message naming the instruction, the architecture it needs and the -gencode to build for;
// in the host pass (no __CUDA_ARCH__) the body calls detail::device_only, so host code that merely
// mentions an instruction compiles, and calling one on the host stops with a message.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: device_only's message
#include <cstdio>
#include <cstdlib>
#endif

#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

#if defined(__CUDACC__)
// smem_address(p): the address of *p in the shared state space. Pre: p points into shared memory
// (a __shared__ variable or dynamic shared memory). Post: the value PTX expects for [addr] operands
// of .shared instructions, e.g. smem_address(&tile[0]) == 0 for the first byte of a block's window.
__device__ __forceinline__ std::uint32_t smem_address(void const* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
#endif

// schedule_here(x, ...): each x (a 32-bit integer) is taken as a new value computed at this point
// of the program (an empty volatile asm that reads and writes it). Volatile asm keeps its order, so
// nothing computed from x after this point (addresses, clamped coordinates) can be moved above the
// volatile asm before it (barriers, stmatrix, TMA), nor share a computation with the same
// expression from before it. Use: an unrolled epilogue whose later groups' address arithmetic the
// compiler would otherwise compute up front and keep live across the earlier groups (in registers
// a kernel lacks: they spill). Pre: none. Post: every x keeps its value; no instruction is emitted.
// Example: `int m = m0 + 16 * w, n = n0; schedule_here(m, n);` before a group's loads at (m, n).
template <class Int>
TESSERA_HOST_DEVICE void schedule_here(Int& x) {
  static_assert(std::is_integral_v<Int> && sizeof(Int) == 4, "schedule_here: 32-bit integers only");
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(x));
#else
  (void)x;
#endif
}
template <class Int, class... Ints>
TESSERA_HOST_DEVICE void schedule_here(Int& x, Ints&... xs) {
  schedule_here(x);
  (schedule_here(xs), ...);
}

#if !defined(__CUDACC_RTC__)  // host only: NVRTC has no host pass, so no wrapper calls it there
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
#endif  // !__CUDACC_RTC__

}  // namespace tessera
