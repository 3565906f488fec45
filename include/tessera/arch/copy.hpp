// The plain copy instruction: one value moved from a source register (or memory word) to a
// destination with an ordinary load/store or move, on host and device. Its traits (thread-value
// layouts) are in atom/copy_traits.hpp; the architecture-specific copies are in copy_sm*.hpp.
//
// An instruction type names its operands as C arrays of register types and wraps one instruction
// in a static member taking them one by one, sources first:
//   using SRegisters = S[n];  using DRegisters = D[m];
//   static void copy(S const& s0, ..., S const& s(n-1), D& d0, ..., D& d(m-1));
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

// UniversalCopy<S, D = S>: dst = src, one value of 8 to 128 bits (a uint8_t ... a uint128_t).
// Pre: 8 <= sizeof_bits_v<S>, sizeof_bits_v<D> <= 128 (checked at compile time); S converts to D.
// Post: dst == D(src). Example: UniversalCopy<uint128_t>::copy(src[i], dst[i]) moves 16 bytes with
// one 128-bit load and one 128-bit store when both are 16-byte aligned (they are: alignas(16)).
template <class S, class D = S>
struct UniversalCopy {
  static_assert(sizeof_bits_v<S> >= 8 && sizeof_bits_v<S> <= 128,
                "UniversalCopy<S, D>: the source type must be 8 to 128 bits wide (e.g. uint32_t, uint128_t); "
                "copy wider values as several 128-bit pieces");
  static_assert(sizeof_bits_v<D> >= 8 && sizeof_bits_v<D> <= 128,
                "UniversalCopy<S, D>: the destination type must be 8 to 128 bits wide (e.g. uint32_t, uint128_t); "
                "copy wider values as several 128-bit pieces");

  using SRegisters = S[1];
  using DRegisters = D[1];

  TESSERA_HOST_DEVICE static constexpr void copy(S const& src, D& dst) { dst = src; }
};

}  // namespace tessera
