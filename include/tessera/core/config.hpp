// Tessera configuration: the library's macros, each with its reason (the version's, for #if tests
// by code built against several versions, are in tessera/version.hpp).
//
// Error reporting (the exception type, message formatting, the policy) lives in error.hpp, the
// bottom of the checking headers; TESSERA_REQUIRE below is its one macro.
//
// Compilers: nvcc, host compilers (g++, clang) and NVRTC, CUDA's run-time compiler, which defines
// __CUDACC_RTC__ (and __CUDA_ARCH__: it has no host pass) and has no standard library. Under NVRTC
// the device-usable headers (all but runtime/, tools/, jit/ and atom/names.hpp) need
//   -std=c++20 -default-device -I<tessera>/include -I<cuda>/include/cccl   (+ -I<cuda>/include)
// -default-device makes the unannotated constexpr functions and template lambdas device code;
// include/cccl holds libcu++, which stands in for the standard headers (core/stdlib.hpp);
// <cuda>/include has cuda_fp16.h and cuda_bf16.h (kernels/elementwise_add.cuh). Host-only code is
// compiled out there by `#if !defined(__CUDACC_RTC__)` (no #else: nvcc and g++ see the code
// unchanged); a host-only header refuses NVRTC with `#error "tessera/<path>: host only ..."`.
// docs/architecture.md, "Headers under NVRTC"; tests/nvrtc/ compiles every header that way.
#pragma once

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

// Dynamic precondition checks: always on the host; on the device only when the user defines
// TESSERA_DEVICE_CHECKS (each check costs a printf, a trap and registers in every kernel that
// evaluates a layout, so release kernels built with plain -O3 carry none). docs/errors.md.
#if defined(__CUDA_ARCH__) && !defined(TESSERA_DEVICE_CHECKS)
#define TESSERA_RUNTIME_CHECKS 0
#else
#define TESSERA_RUNTIME_CHECKS 1
#endif

// TESSERA_REQUIRE(cond, "message", values...) checks a precondition whose truth may be static.
//   cond static  -> static_assert with the message (a compile-time error at the call site);
//   cond dynamic -> on the host, throws tessera::layout_error("message (got v0, v1, ...)");
//                   on the device, with TESSERA_DEVICE_CHECKS, prints the message and traps.
// A macro because static_assert needs the literal message at the place of the check. Needs
// tessera/core/error.hpp (included by every header that checks).
#define TESSERA_REQUIRE(cond, msg, ...)                                       \
  do {                                                                        \
    using tessera_cond_t_ = decltype(cond);                                   \
    if constexpr (::tessera::is_static_v<tessera_cond_t_>) {                  \
      static_assert(::tessera::detail::static_truth<tessera_cond_t_>(), msg); \
    } else if constexpr (TESSERA_RUNTIME_CHECKS) {                            \
      if (!static_cast<bool>(cond)) {                                         \
        ::tessera::detail::fail(msg __VA_OPT__(, ) __VA_ARGS__);              \
      }                                                                       \
    }                                                                         \
  } while (0)

// TESSERA_STATIC_ASSERT_V(cond[, "message"]) checks at compile time a condition that Tessera
// computes as a static boolean (its type is C<true> or C<false>), e.g.
//   TESSERA_STATIC_ASSERT_V(size<0>(sA_layout) == size<0>(cta_tiler), "BLK_M");
// (plain static_assert(cond) does not compile there: cond is an object whose type holds the
// answer). A dynamic condition is a compile-time error saying so (check it at run time instead).
// A macro so that the condition's text is in the message. Needs tessera/core/error.hpp.
#define TESSERA_STATIC_ASSERT_V(cond, ...)                             \
  static_assert(::tessera::detail::static_condition<decltype(cond)>(), \
                "TESSERA_STATIC_ASSERT_V(" #cond ") is false" __VA_OPT__(": " __VA_ARGS__))
