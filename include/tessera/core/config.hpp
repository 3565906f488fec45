// Tessera configuration: the project's only macros, and the error channel.
//
// Every macro here has a one-line reason. Errors: a failed precondition on static operands is a
// compile-time error (static_assert), on dynamic operands an exception on the host
// (tessera::layout_error) and, in device debug builds, a printed message plus a trap.
#pragma once

#include <cstdint>
#include <type_traits>
#include <stdexcept>
#include <string>

// Functions callable from host and device code when compiled by nvcc.
#if defined(__CUDACC__)
#define TESSERA_HOST_DEVICE __host__ __device__ __forceinline__
#define TESSERA_HOST_DEVICE_NOINLINE __host__ __device__
#else
#define TESSERA_HOST_DEVICE inline
#define TESSERA_HOST_DEVICE_NOINLINE
#endif

// Loop unrolling hint for fixed-trip loops in device code.
#if defined(__CUDA_ARCH__)
#define TESSERA_UNROLL _Pragma("unroll")
#else
#define TESSERA_UNROLL
#endif

// Namespace-scope constants (like `_`) that device code may use: a __device__ object in the device
// pass, a constexpr one on the host.
#if defined(__CUDA_ARCH__)
#define TESSERA_INLINE_CONSTANT static const __device__
#else
#define TESSERA_INLINE_CONSTANT static constexpr
#endif

namespace tessera {

// The exception thrown when a precondition on dynamic operands fails on the host.
// Its message names the function, the violated condition, the offending values and the fix.
struct layout_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

namespace detail {
template <class T>
inline constexpr bool always_false = false;
// The value of a static boolean type; true for dynamic types (checked at run time instead).
template <class T>
TESSERA_HOST_DEVICE constexpr bool static_truth() {
  if constexpr (std::is_empty_v<T>) {
    return static_cast<bool>(T::value);
  } else {
    return true;
  }
}
}  // namespace detail
}  // namespace tessera

// Dynamic precondition checks run on the host always and on the device in debug builds only.
#if defined(__CUDA_ARCH__) && defined(NDEBUG)
#define TESSERA_RUNTIME_CHECKS 0
#else
#define TESSERA_RUNTIME_CHECKS 1
#endif

// TESSERA_REQUIRE(cond, "message", values...) checks a precondition whose truth may be static.
//   cond static  -> static_assert with the message (a compile-time error at the call site);
//   cond dynamic -> on the host, throws tessera::layout_error("message (got: v0, v1, ...)");
//                   on the device, in debug builds (no NDEBUG), prints the message and traps.
// A macro because static_assert needs the literal message at the place of the check.
#define TESSERA_REQUIRE(cond, msg, ...)                                                     \
  do {                                                                                      \
    using tessera_cond_t_ = decltype(cond);                                                 \
    if constexpr (::tessera::is_static_v<tessera_cond_t_>) {                                \
      static_assert(::tessera::detail::static_truth<tessera_cond_t_>(), msg);               \
    } else if constexpr (TESSERA_RUNTIME_CHECKS) {                                          \
      if (!static_cast<bool>(cond)) {                                                       \
        ::tessera::detail::fail(msg __VA_OPT__(, ) __VA_ARGS__);                            \
      }                                                                                     \
    }                                                                                       \
  } while (0)

namespace tessera::detail {
// Reports a failed dynamic precondition (defined in print.hpp, where values can be printed).
template <class... Ts>
TESSERA_HOST_DEVICE_NOINLINE void fail(const char* msg, Ts const&... values);
}  // namespace tessera::detail
