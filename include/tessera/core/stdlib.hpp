// The standard library that device code may use: <cstddef>, <cstdint>, <type_traits> and
// <utility>. Every device-usable header includes this instead of those four.
//
// Under nvcc and host compilers these are the standard headers themselves. NVRTC (run-time
// compilation, __CUDACC_RTC__) has no standard library of its own: it finds no <cstdint> or
// <type_traits> at all. There the same facilities come from libcu++ (<cuda/std/...>, found with
// -I<cuda>/include/cccl), and one using-directive makes `std::` reach `cuda::std::`, so that
// `std::uint32_t`, `std::is_same_v` and `std::index_sequence` read the same in both. Injecting into
// `std` is sound only because NVRTC has nothing else there. Host-only facilities (std::string,
// streams, exceptions) are not provided: the code that uses them is compiled out under NVRTC by
// `#if !defined(__CUDACC_RTC__)` (docs/architecture.md, "Headers under NVRTC").
#pragma once

#if defined(__CUDACC_RTC__)
// libcu++'s type-list folds take 16 types a step outside nvcc (10 under nvcc:
// cuda/std/__type_traits/type_list.h), and NVRTC's preprocessor spends about 0.6 s expanding the
// tables for 16 in every program that includes <cuda/std/type_traits>; 10 costs 0.05 s and the
// types computed are the same. (jit::compile passes it as an option too, for programs that include
// libcu++ before Tessera.)
#ifndef _CCCL_META_UNROLL_LIMIT
#define _CCCL_META_UNROLL_LIMIT 10
#endif
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
#include <cuda/std/utility>  // also declares ::std::tuple_size / tuple_element (structured bindings)
namespace std {
using namespace ::cuda::std;
}  // namespace std
#else
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#endif
