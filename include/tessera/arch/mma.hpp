// The plain multiply-add instruction: one d = a * b + c in a single thread, on host and device.
// Its traits are in atom/mma_traits.hpp; the tensor-core instructions are in mma_sm*.hpp.
//
// An MMA instruction type names its operands as C arrays of register types and wraps one
// instruction in a static member taking them one by one, D first, then A, B and C:
//   using DRegisters = TD[nd];  using ARegisters = TA[na];  using BRegisters = TB[nb];  using CRegisters = TC[nc];
//   static void fma(TD& d0, ..., TA const& a0, ..., TB const& b0, ..., TC const& c0, ...);
#pragma once

#include "tessera/core/config.hpp"

namespace tessera {

// UniversalFMA<D, A = D, B = A, C = D>: d = a * b + c, one element each.
// Pre: a * b + c is defined for A, B, C and converts to D (float, double, integers; the storage
// types of core/numeric.hpp have no arithmetic: convert them to float first).
// Post: d == D(a * b + c). Example: UniversalFMA<float>::fma(d, 2.0f, 3.0f, 1.0f) sets d = 7.
template <class D, class A = D, class B = A, class C = D>
struct UniversalFMA {
  using DRegisters = D[1];
  using ARegisters = A[1];
  using BRegisters = B[1];
  using CRegisters = C[1];

  TESSERA_HOST_DEVICE static constexpr void fma(D& d, A const& a, B const& b, C const& c) { d = a * b + c; }
};

}  // namespace tessera
