// Numeric storage types: the element types that instructions move and multiply, as plain bits.
//   sizeof_bits_v<T>   the width of T in bits (8 * sizeof(T))
//   uint128_t          16 bytes, 16-byte aligned: one 128-bit vector (a row of an ldmatrix tile)
//   half_t             IEEE binary16 (the bits of CUDA's __half)
//   bfloat16_t         bfloat16: the top 16 bits of a float (the bits of CUDA's __nv_bfloat16)
//   tfloat32_t         a float whose low 13 mantissa bits are zero: the operand of tf32 MMAs
//   float_e4m3_t       8-bit float, 4 exponent and 3 mantissa bits, no infinity (OCP FP8 E4M3, CUDA's
//                      __nv_fp8_e4m3): the wide-precision fp8 operand of wgmma
//   float_e5m2_t       8-bit float, 5 exponent and 2 mantissa bits (OCP FP8 E5M2, __nv_fp8_e5m2): the
//                      wide-range fp8 operand
// Each is a trivially copyable struct holding its bits, built explicitly from a float (rounded to
// nearest, ties to even) and converted explicitly back to float (exactly). The conversions are
// integer arithmetic on the bits, constexpr, and give the same values on host and device (where, at
// run time, they are the cvt instructions instead; only a NaN's payload may differ); no CUDA header
// is needed. Arithmetic on these types is not defined here: convert to float, compute, convert back.
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

// sizeof_bits<T>::value / sizeof_bits_v<T>: the number of bits T occupies. sizeof_bits_v<float> == 32.
template <class T>
struct sizeof_bits : std::integral_constant<int, int(8 * sizeof(T))> {};
template <class T>
inline constexpr int sizeof_bits_v = sizeof_bits<std::remove_cv_t<T>>::value;

// uint128_t: 128 bits with 16-byte alignment, so that copying one is a single 128-bit access.
// Pre: none. Post: uint128_t{lo, hi} == uint128_t{lo, hi}; sizeof == alignof == 16.
struct alignas(16) uint128_t {
  std::uint64_t lo;  // bits 0..63
  std::uint64_t hi;  // bits 64..127
  TESSERA_HOST_DEVICE friend constexpr bool operator==(uint128_t const& a, uint128_t const& b) {
    return a.lo == b.lo && a.hi == b.hi;
  }
  TESSERA_HOST_DEVICE friend constexpr bool operator!=(uint128_t const& a, uint128_t const& b) { return !(a == b); }
};

namespace detail {
TESSERA_HOST_DEVICE constexpr std::uint32_t float_bits(float f) { return __builtin_bit_cast(std::uint32_t, f); }
TESSERA_HOST_DEVICE constexpr float bits_float(std::uint32_t u) { return __builtin_bit_cast(float, u); }

// x >> s rounded to nearest, ties to even (1 <= s < 32).
TESSERA_HOST_DEVICE constexpr std::uint32_t shift_right_rne(std::uint32_t x, int s) {
  std::uint32_t const kept = x >> s;
  std::uint32_t const rest = x & ((1u << s) - 1u);
  std::uint32_t const half = 1u << (s - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
}

// float -> binary16 bits, round to nearest even. Overflow gives infinity, tiny values subnormals or
// zero, NaN a quiet NaN (here: with the sign and the top payload bits kept; on the device at run
// time the cvt instruction's canonical NaN 0x7fff).
TESSERA_HOST_DEVICE constexpr std::uint16_t float_to_half_bits(float f) {
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {  // one instruction instead of the bit arithmetic below
    std::uint16_t h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
  }
#endif
  std::uint32_t const x = float_bits(f);
  std::uint32_t const sign = (x >> 16) & 0x8000u;
  std::uint32_t const mag = x & 0x7fffffffu;
  if (mag > 0x7f800000u) {  // NaN
    return static_cast<std::uint16_t>(sign | 0x7e00u | ((mag >> 13) & 0x03ffu));
  }
  if (mag >= 0x38800000u) {  // |f| >= 2^-14: a normal half, or infinity after rounding
    // Re-bias the exponent (127 -> 15) in place, then drop 13 mantissa bits with rounding; a carry
    // out of the mantissa moves into the exponent, which is what rounding up must do.
    std::uint32_t const h = shift_right_rne(mag - 0x38000000u, 13);
    return static_cast<std::uint16_t>(sign | (h >= 0x7c00u ? 0x7c00u : h));
  }
  std::uint32_t const exponent = mag >> 23;  // biased float exponent, <= 112 here
  if (exponent < 102) {                      // |f| < 2^-25: rounds to zero
    return static_cast<std::uint16_t>(sign);
  }
  // A half subnormal counts units of 2^-24: |f| / 2^-24 = significand >> (126 - exponent).
  std::uint32_t const significand = (mag & 0x007fffffu) | 0x00800000u;
  return static_cast<std::uint16_t>(sign | shift_right_rne(significand, int(126 - exponent)));
}

// binary16 bits -> float, exact.
TESSERA_HOST_DEVICE constexpr float half_bits_to_float(std::uint16_t h) {
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
  }
#endif
  std::uint32_t const sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t const exponent = (h >> 10) & 0x1fu;
  std::uint32_t const mantissa = h & 0x03ffu;
  if (exponent == 0x1fu) {  // infinity or NaN
    return bits_float(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    float const m = float(mantissa) * 5.9604644775390625e-8f;
    return sign ? -m : m;
  }
  return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// float -> bfloat16 bits, round to nearest even; NaN stays a (quiet) NaN.
TESSERA_HOST_DEVICE constexpr std::uint16_t float_to_bfloat16_bits(float f) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (!__builtin_is_constant_evaluated()) {  // cvt to bf16 exists from sm_80 on
    std::uint16_t h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
  }
#endif
  std::uint32_t const x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<std::uint16_t>((x >> 16) | 0x0040u);
  }
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

// float -> the bits of an 8-bit float with E exponent bits, Mb mantissa bits and exponent bias
// Bias, round to nearest even, saturating: beyond the largest finite value (MaxBits, positive) and
// for an infinity the result is that value with the sign (as PTX cvt.rn.satfinite); NaN gives NaN
// (NanBits with the sign), tiny values subnormals or zero. The subnormal arithmetic is that of
// float_to_half_bits: a subnormal counts units of 2^(1 - Bias - Mb).
template <int E, int Mb, int Bias, std::uint32_t MaxBits, std::uint32_t NanBits>
TESSERA_HOST_DEVICE constexpr std::uint8_t float_to_fp8_bits(float f) {
  std::uint32_t const x = float_bits(f);
  std::uint32_t const sign = (x >> 24) & 0x80u;
  std::uint32_t const mag = x & 0x7fffffffu;
  if (mag > 0x7f800000u) return static_cast<std::uint8_t>(sign | NanBits);
  std::uint32_t const min_normal = std::uint32_t(127 + 1 - Bias) << 23;  // 2^(1 - Bias) as float bits
  std::uint32_t bits = 0;
  if (mag >= min_normal) {  // re-bias in place, drop 23 - Mb mantissa bits with rounding
    std::uint32_t const h =
        mag >= 0x7f800000u ? MaxBits + 1u : shift_right_rne(mag - (std::uint32_t(127 - Bias) << 23), 23 - Mb);
    bits = h > MaxBits ? MaxBits : h;
  } else {
    int const exponent = int(mag >> 23);
    int const shift = 151 - Bias - Mb - exponent;  // |f| / 2^(1 - Bias - Mb) = significand >> shift
    std::uint32_t const significand = (mag & 0x007fffffu) | (exponent == 0 ? 0u : 0x00800000u);
    bits = shift >= 25 ? 0u : shift_right_rne(significand, shift);
  }
  return static_cast<std::uint8_t>(sign | bits);
}

// The bits of such an 8-bit float -> float, exact. HasInf: the all-ones exponent holds infinities
// and NaNs (E5M2); else only the all-ones pattern is NaN (E4M3).
template <int E, int Mb, int Bias, bool HasInf>
TESSERA_HOST_DEVICE constexpr float fp8_bits_to_float(std::uint8_t b) {
  std::uint32_t const sign = std::uint32_t(b & 0x80u) << 24;
  std::uint32_t const exponent = (b >> Mb) & ((1u << E) - 1u);
  std::uint32_t const mantissa = b & ((1u << Mb) - 1u);
  if (HasInf && exponent == (1u << E) - 1u) return bits_float(sign | 0x7f800000u | (mantissa << (23 - Mb)));
  if (!HasInf && (b & 0x7fu) == 0x7fu) return bits_float(sign | 0x7fc00000u);
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^(1 - Bias - Mb), exact in float
    float const m = float(mantissa) * bits_float(std::uint32_t(127 + 1 - Bias - Mb) << 23);
    return sign ? -m : m;
  }
  return bits_float(sign | ((exponent + std::uint32_t(127 - Bias)) << 23) | (mantissa << (23 - Mb)));
}

// float -> tf32 (as float bits with the low 13 mantissa bits zero), round to nearest even.
TESSERA_HOST_DEVICE constexpr std::uint32_t float_to_tf32_bits(float f) {
  std::uint32_t const x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    return (x | 0x00400000u) & ~0x1fffu;
  }
  return (x + 0x0fffu + ((x >> 13) & 1u)) & ~0x1fffu;
}
}  // namespace detail

// half_t: IEEE binary16 (1 sign, 5 exponent, 10 mantissa bits), laid out like CUDA's __half.
// Pre: none (every float converts). Post: float(half_t(x)) is x rounded to the nearest half, ties
// to even; beyond 65504 (from 65520 on) it is infinity; NaN stays NaN.
// Example: half_t(1.0f).raw() == 0x3c00; float(half_t(0.1f)) == 0.0999755859375f.
struct half_t {
  std::uint16_t storage;  // the binary16 bits

  half_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit half_t(float x) : storage(detail::float_to_half_bits(x)) {}
  TESSERA_HOST_DEVICE constexpr explicit operator float() const { return detail::half_bits_to_float(storage); }
  // The value with the given bits: half_t::bitcast(0x7c00) is +infinity.
  TESSERA_HOST_DEVICE static constexpr half_t bitcast(std::uint16_t bits) {
    half_t h{};
    h.storage = bits;
    return h;
  }
  TESSERA_HOST_DEVICE constexpr std::uint16_t raw() const { return storage; }
};

// bfloat16_t: the top half of a float (1 sign, 8 exponent, 7 mantissa bits), laid out like CUDA's
// __nv_bfloat16. Pre: none. Post: float(bfloat16_t(x)) is x rounded to 8 significant bits, ties to
// even; values beyond the largest bfloat16 round to infinity; NaN stays NaN.
// Example: bfloat16_t(1.0f).raw() == 0x3f80; float(bfloat16_t(3.14159f)) == 3.140625f.
struct bfloat16_t {
  std::uint16_t storage;  // the upper 16 bits of the float

  bfloat16_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit bfloat16_t(float x) : storage(detail::float_to_bfloat16_bits(x)) {}
  TESSERA_HOST_DEVICE constexpr explicit operator float() const {
    return detail::bits_float(std::uint32_t(storage) << 16);
  }
  TESSERA_HOST_DEVICE static constexpr bfloat16_t bitcast(std::uint16_t bits) {
    bfloat16_t b{};
    b.storage = bits;
    return b;
  }
  TESSERA_HOST_DEVICE constexpr std::uint16_t raw() const { return storage; }
};

// tfloat32_t: TensorFloat-32 kept in 32-bit float storage (1 sign, 8 exponent, 10 mantissa bits;
// the low 13 bits are zero). tf32 MMAs read such 32-bit registers. Pre: none. Post:
// float(tfloat32_t(x)) is x rounded to 11 significant bits, ties to even; NaN stays NaN.
// Example: tfloat32_t(1.0f + 0x1p-11f) == 1.0f (a tie, to even); tfloat32_t(1.0f + 0x1p-10f) is exact.
struct tfloat32_t {
  std::uint32_t storage;  // float bits, low 13 zero

  tfloat32_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit tfloat32_t(float x) : storage(detail::float_to_tf32_bits(x)) {}
  TESSERA_HOST_DEVICE constexpr explicit operator float() const { return detail::bits_float(storage); }
  TESSERA_HOST_DEVICE static constexpr tfloat32_t bitcast(std::uint32_t bits) {
    tfloat32_t t{};
    t.storage = bits;
    return t;
  }
  TESSERA_HOST_DEVICE constexpr std::uint32_t raw() const { return storage; }
};

// float_e4m3_t: OCP FP8 E4M3 (1 sign, 4 exponent bits of bias 7, 3 mantissa bits; no infinity, NaN
// only with every exponent and mantissa bit set), laid out like CUDA's __nv_fp8_e4m3. Finite values
// up to 448; the smallest subnormal 2^-9. Pre: none. Post: float(float_e4m3_t(x)) is x rounded to
// 4 significant bits, ties to even, saturated to +-448 (an infinity too); NaN stays NaN.
// Example: float_e4m3_t(1.0f).raw() == 0x38; float(float_e4m3_t(0.3f)) == 0.3125f;
// float(float_e4m3_t(1000.0f)) == 448.0f.
struct float_e4m3_t {
  std::uint8_t storage;

  float_e4m3_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit float_e4m3_t(float x)
      : storage(detail::float_to_fp8_bits<4, 3, 7, 0x7eu, 0x7fu>(x)) {}
  TESSERA_HOST_DEVICE constexpr explicit operator float() const {
    return detail::fp8_bits_to_float<4, 3, 7, false>(storage);
  }
  TESSERA_HOST_DEVICE static constexpr float_e4m3_t bitcast(std::uint8_t bits) {
    float_e4m3_t v{};
    v.storage = bits;
    return v;
  }
  TESSERA_HOST_DEVICE constexpr std::uint8_t raw() const { return storage; }
  static constexpr float max_finite = 448.0f;
};

// float_e5m2_t: OCP FP8 E5M2 (1 sign, 5 exponent bits of bias 15, 2 mantissa bits: the top byte of
// a binary16), laid out like CUDA's __nv_fp8_e5m2. Finite values up to 57344. Pre: none. Post:
// float(float_e5m2_t(x)) is x rounded to 3 significant bits, ties to even, saturated to +-57344 (an
// infinity too, as cvt.rn.satfinite; an infinity's bits convert back to infinity); NaN stays NaN.
// Example: float_e5m2_t(1.0f).raw() == 0x3c; float(float_e5m2_t(0.3f)) == 0.3125f.
struct float_e5m2_t {
  std::uint8_t storage;

  float_e5m2_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit float_e5m2_t(float x)
      : storage(detail::float_to_fp8_bits<5, 2, 15, 0x7bu, 0x7eu>(x)) {}
  TESSERA_HOST_DEVICE constexpr explicit operator float() const {
    return detail::fp8_bits_to_float<5, 2, 15, true>(storage);
  }
  TESSERA_HOST_DEVICE static constexpr float_e5m2_t bitcast(std::uint8_t bits) {
    float_e5m2_t v{};
    v.storage = bits;
    return v;
  }
  TESSERA_HOST_DEVICE constexpr std::uint8_t raw() const { return storage; }
  static constexpr float max_finite = 57344.0f;
};

// Whether T is one of the 8-bit floats.
template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, float_e4m3_t> || std::is_same_v<T, float_e5m2_t>;

}  // namespace tessera
