// Tests for include/tessera/core/numeric.hpp: widths, layouts of the storage types, known encodings,
// rounding (to nearest, ties to even), infinities and NaN, and round trips of every 16-bit pattern.
// Where the host compiler has _Float16, every conversion of a large sweep of floats is compared with
// the compiler's own float -> _Float16 conversion.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tessera/core/numeric.hpp"

using namespace tessera;

namespace {
std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST(Numeric, WidthsAndLayouts) {
  static_assert(sizeof_bits_v<float> == 32 && sizeof_bits_v<std::uint8_t> == 8 && sizeof_bits_v<double> == 64);
  static_assert(sizeof_bits<std::uint16_t>::value == 16);
  static_assert(sizeof_bits_v<half_t> == 16 && alignof(half_t) == 2);
  static_assert(sizeof_bits_v<bfloat16_t> == 16 && alignof(bfloat16_t) == 2);
  static_assert(sizeof_bits_v<tfloat32_t> == 32 && alignof(tfloat32_t) == 4);
  static_assert(sizeof_bits_v<uint128_t> == 128 && alignof(uint128_t) == 16);
  static_assert(std::is_trivially_copyable_v<half_t> && std::is_trivially_copyable_v<bfloat16_t>);
  static_assert(std::is_trivially_copyable_v<tfloat32_t> && std::is_trivially_copyable_v<uint128_t>);
  static_assert(std::is_standard_layout_v<half_t> && std::is_standard_layout_v<bfloat16_t>);
  // Conversions are explicit both ways.
  static_assert(!std::is_convertible_v<float, half_t> && !std::is_convertible_v<half_t, float>);
  static_assert(std::is_constructible_v<half_t, float> && std::is_constructible_v<float, half_t>);
  // Value-initialized storage types hold zero bits.
  EXPECT_EQ(half_t{}.raw(), 0);
  EXPECT_EQ(bfloat16_t{}.raw(), 0);
  EXPECT_EQ(tfloat32_t{}.raw(), 0u);
}

TEST(Numeric, ConversionsAreConstexpr) {
  static_assert(half_t(1.0f).raw() == 0x3c00);
  static_assert(float(half_t::bitcast(0x3555)) == 0.333251953125f);
  static_assert(bfloat16_t(1.0f).raw() == 0x3f80);
  static_assert(tfloat32_t(1.0f).raw() == 0x3f800000u);
  static_assert(uint128_t{1, 2} == uint128_t{1, 2} && uint128_t{1, 2} != uint128_t{2, 1});
}

TEST(Numeric, HalfKnownEncodings) {
  struct Case {
    float value;
    std::uint16_t bits;
  };
  for (Case c : {Case{0.0f, 0x0000}, Case{-0.0f, 0x8000}, Case{1.0f, 0x3c00}, Case{-2.0f, 0xc000}, Case{0.5f, 0x3800},
                 Case{65504.0f, 0x7bff}, Case{0x1p-14f, 0x0400}, Case{0x1p-24f, 0x0001}, Case{0x1.ff8p-15f, 0x03ff},
                 Case{0.1f, 0x2e66}, Case{3.14159265f, 0x4248}, Case{1.0f / 3.0f, 0x3555}, Case{kInf, 0x7c00},
                 Case{-kInf, 0xfc00}}) {
    EXPECT_EQ(half_t(c.value).raw(), c.bits) << c.value;
    EXPECT_EQ(float(half_t::bitcast(c.bits)), float(half_t(c.value))) << c.value;
  }
  EXPECT_EQ(float(half_t(0.1f)), 0.0999755859375f);
}

TEST(Numeric, HalfRoundsToNearestEven) {
  EXPECT_EQ(half_t(1.0f + 0x1p-11f).raw(), 0x3c00);             // tie between 0x3c00 and 0x3c01: even
  EXPECT_EQ(half_t(1.0f + 3 * 0x1p-11f).raw(), 0x3c02);         // tie between 0x3c01 and 0x3c02: even
  EXPECT_EQ(half_t(1.0f + 0x1p-11f + 0x1p-20f).raw(), 0x3c01);  // just above the tie: up
  EXPECT_EQ(half_t(1.0f + 0x1p-11f - 0x1p-20f).raw(), 0x3c00);  // just below: down
  EXPECT_EQ(half_t(65519.0f).raw(), 0x7bff);                    // below the overflow threshold
  EXPECT_EQ(half_t(65520.0f).raw(), 0x7c00);                    // tie with 65536: to infinity
  EXPECT_EQ(half_t(-1e9f).raw(), 0xfc00);
  EXPECT_EQ(half_t(0x1p-25f).raw(), 0x0000);         // tie between 0 and 2^-24: zero
  EXPECT_EQ(half_t(0x1.000002p-25f).raw(), 0x0001);  // above it: the smallest subnormal
  EXPECT_EQ(half_t(-0x1p-26f).raw(), 0x8000);        // underflow keeps the sign
  EXPECT_EQ(half_t(3 * 0x1p-25f).raw(), 0x0002);     // 1.5 units: tie, to even (2)
  EXPECT_EQ(half_t(0x1.ffcp-15f).raw(), 0x0400);     // rounds up out of the subnormals
  EXPECT_EQ(half_t(1e-30f).raw(), 0x0000);
}

TEST(Numeric, HalfNaN) {
  half_t const n(kNaN);
  EXPECT_EQ(n.raw() & 0x7c00, 0x7c00);
  EXPECT_NE(n.raw() & 0x03ff, 0);
  EXPECT_TRUE(std::isnan(float(n)));
  EXPECT_EQ(half_t(-kNaN).raw() & 0x8000, 0x8000);
  EXPECT_TRUE(std::isnan(float(half_t::bitcast(0x7c01))));        // a signalling half NaN reads as NaN
  EXPECT_TRUE(std::isnan(float(half_t(float_of(0x7f800001u)))));  // a float NaN with a low payload
}

TEST(Numeric, HalfRoundTripsEveryPattern) {
  for (std::uint32_t b = 0; b < 0x10000u; ++b) {
    auto const h = half_t::bitcast(std::uint16_t(b));
    float const f = float(h);
    bool const is_nan = (b & 0x7c00u) == 0x7c00u && (b & 0x03ffu) != 0;
    if (is_nan) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << b;
      ASSERT_EQ(half_t(f).raw() & 0x8000u, b & 0x8000u) << std::hex << b;
      ASSERT_TRUE(std::isnan(float(half_t(f)))) << std::hex << b;
    } else {
      ASSERT_EQ(half_t(f).raw(), b) << std::hex << b;
    }
  }
}

// The nearest-even law, checked against the neighbours: for x between two consecutive finite halves
// lo < hi, half_t(x) is the closer one, and the one with an even mantissa on a tie.
TEST(Numeric, HalfIsTheNearestHalf) {
  for (std::uint32_t b = 0; b < 0x7bffu; ++b) {  // positive finite halves lo = b, hi = b + 1
    double const lo = float(half_t::bitcast(std::uint16_t(b)));
    double const hi = float(half_t::bitcast(std::uint16_t(b + 1)));
    double const mid = (lo + hi) / 2;
    for (double x : {lo, hi, mid, lo + (hi - lo) / 4, hi - (hi - lo) / 4}) {
      float const xf = float(x);  // exact: halves and their quarter points are floats
      ASSERT_EQ(double(xf), x);
      std::uint32_t const expect = x < mid ? b : x > mid ? b + 1 : ((b & 1u) ? b + 1 : b);
      ASSERT_EQ(half_t(xf).raw(), expect) << x;
      ASSERT_EQ(half_t(-xf).raw(), expect | 0x8000u) << -x;
    }
  }
}

#if defined(__FLT16_MAX__)
// The host compiler's float -> _Float16 conversion (round to nearest even) as the reference, over
// every 4099th float bit pattern (NaNs compared as NaN).
TEST(Numeric, HalfAgreesWithTheCompilersFloat16) {
  for (std::uint64_t b = 0; b <= 0xffffffffull; b += 4099) {
    float const f = float_of(std::uint32_t(b));
    _Float16 const r = static_cast<_Float16>(f);
    std::uint16_t rb;
    std::memcpy(&rb, &r, 2);
    std::uint16_t const ours = half_t(f).raw();
    if (std::isnan(f)) {
      ASSERT_TRUE(std::isnan(float(half_t::bitcast(ours)))) << std::hex << b;
    } else {
      ASSERT_EQ(ours, rb) << std::hex << b;
      ASSERT_EQ(bits_of(float(half_t::bitcast(ours))), bits_of(static_cast<float>(r))) << std::hex << b;
    }
  }
}
#else
TEST(Numeric, HalfAgreesWithTheCompilersFloat16) { GTEST_SKIP() << "the host compiler has no _Float16"; }
#endif

TEST(Numeric, BFloat16KnownEncodingsAndRounding) {
  struct Case {
    float value;
    std::uint16_t bits;
  };
  for (Case c : {Case{0.0f, 0x0000}, Case{-0.0f, 0x8000}, Case{1.0f, 0x3f80}, Case{-2.0f, 0xc000}, Case{0.1f, 0x3dcd},
                 Case{3.14159265f, 0x4049}, Case{kInf, 0x7f80}, Case{-kInf, 0xff80},
                 Case{0x1p-133f, 0x0001},                          // the smallest subnormal
                 Case{std::numeric_limits<float>::max(), 0x7f80},  // rounds past the largest bfloat16
                 Case{0x1.fep127f, 0x7f7f}}) {
    EXPECT_EQ(bfloat16_t(c.value).raw(), c.bits) << c.value;
  }
  EXPECT_EQ(float(bfloat16_t(3.14159265f)), 3.140625f);
  EXPECT_EQ(bfloat16_t(1.0f + 0x1p-8f).raw(), 0x3f80);             // tie: even
  EXPECT_EQ(bfloat16_t(1.0f + 3 * 0x1p-8f).raw(), 0x3f82);         // tie: even
  EXPECT_EQ(bfloat16_t(1.0f + 0x1p-8f + 0x1p-20f).raw(), 0x3f81);  // above the tie: up
}

TEST(Numeric, BFloat16NaNAndRoundTrips) {
  EXPECT_TRUE(std::isnan(float(bfloat16_t(kNaN))));
  EXPECT_TRUE(std::isnan(float(bfloat16_t(float_of(0x7f800001u)))));  // payload only in the low bits
  EXPECT_EQ(bfloat16_t(-kNaN).raw() & 0x8000u, 0x8000u);
  for (std::uint32_t b = 0; b < 0x10000u; ++b) {
    auto const v = bfloat16_t::bitcast(std::uint16_t(b));
    float const f = float(v);
    ASSERT_EQ(bits_of(f), b << 16);  // widening is exact: the bits move up
    if (std::isnan(f)) {
      ASSERT_TRUE(std::isnan(float(bfloat16_t(f))));
    } else {
      ASSERT_EQ(bfloat16_t(f).raw(), b) << std::hex << b;
    }
  }
  // Nearest-even against the neighbours, over a sweep of floats: the result is the bfloat16 closer
  // to x (ties to the even pattern).
  for (std::uint64_t b = 0; b < 0x7f7f0000ull; b += 4099) {
    float const x = float_of(std::uint32_t(b));
    std::uint32_t const lo = std::uint32_t(b) >> 16;
    double const dlo = float_of(lo << 16), dhi = float_of((lo + 1) << 16);
    double const dx = x;
    std::uint32_t const expect = dx - dlo < dhi - dx ? lo : dx - dlo > dhi - dx ? lo + 1 : ((lo & 1u) ? lo + 1 : lo);
    ASSERT_EQ(bfloat16_t(x).raw(), expect) << std::hex << b;
  }
}

TEST(Numeric, TFloat32) {
  EXPECT_EQ(tfloat32_t(1.0f).raw(), 0x3f800000u);
  EXPECT_EQ(float(tfloat32_t(1.0f + 0x1p-10f)), 1.0f + 0x1p-10f);     // 10 mantissa bits: exact
  EXPECT_EQ(float(tfloat32_t(1.0f + 0x1p-11f)), 1.0f);                // tie: even
  EXPECT_EQ(float(tfloat32_t(1.0f + 3 * 0x1p-11f)), 1.0f + 0x1p-9f);  // tie: even
  EXPECT_EQ(float(tfloat32_t(1.0f + 0x1p-11f + 0x1p-20f)), 1.0f + 0x1p-10f);
  EXPECT_EQ(float(tfloat32_t(-3.0f)), -3.0f);
  EXPECT_EQ(float(tfloat32_t(kInf)), kInf);
  EXPECT_EQ(float(tfloat32_t(std::numeric_limits<float>::max())), kInf);  // rounds past the largest
  EXPECT_TRUE(std::isnan(float(tfloat32_t(kNaN))));
  EXPECT_TRUE(std::isnan(float(tfloat32_t(float_of(0x7f800001u)))));  // payload only in the low bits
  EXPECT_EQ(tfloat32_t(-kNaN).raw() & 0x80000000u, 0x80000000u);
  for (std::uint64_t b = 0; b <= 0xffffffffull; b += 65537) {
    float const x = float_of(std::uint32_t(b));
    std::uint32_t const t = tfloat32_t(x).raw();
    ASSERT_EQ(t & 0x1fffu, 0u) << std::hex << b;  // the low 13 bits are always zero
    if (!std::isnan(x) && !std::isinf(float_of(t))) {
      ASSERT_LE(std::fabs(double(float_of(t)) - double(x)), std::ldexp(std::fabs(double(x)), -11)) << std::hex << b;
    }
  }
}

// ---- 8-bit floats --------------------------------------------------------------------------------
namespace {
// An independent decoding of an 8-bit float's bits (E exponent, M mantissa bits, bias B): ldexp of
// the significand; NaN and infinity after the format's rules.
template <int E, int M, int B, bool HasInf>
float decode_fp8(unsigned b) {
  unsigned const e = (b >> M) & ((1u << E) - 1), m = b & ((1u << M) - 1);
  float const s = (b & 0x80u) ? -1.0f : 1.0f;
  if (HasInf && e == (1u << E) - 1) return m == 0 ? s * kInf : kNaN;
  if (!HasInf && (b & 0x7fu) == 0x7fu) return kNaN;
  if (e == 0) return s * std::ldexp(float(m), 1 - B - M);
  return s * std::ldexp(float((1u << M) | m), int(e) - B - M);
}
// The reference rounding: the finite value nearest to x (ties: even bits), saturated to the
// largest finite value; found by searching every non-negative pattern.
template <class T, int E, int M, int B, bool HasInf>
unsigned nearest_fp8(float x) {
  float const a = std::fabs(x);
  unsigned best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (unsigned b = 0; b < 0x80; ++b) {
    float const v = decode_fp8<E, M, B, HasInf>(b);
    if (!std::isfinite(v)) continue;
    double const d = std::fabs(double(v) - double(a));
    if (d < best_d || (d == best_d && (b & 1u) == 0)) {
      best = b;
      best_d = d;
    }
  }
  return best | (std::signbit(x) ? 0x80u : 0u);
}
}  // namespace

TEST(Numeric, Fp8LayoutsAndKnownEncodings) {
  static_assert(sizeof_bits_v<float_e4m3_t> == 8 && sizeof_bits_v<float_e5m2_t> == 8);
  static_assert(std::is_trivially_copyable_v<float_e4m3_t> && std::is_trivially_copyable_v<float_e5m2_t>);
  static_assert(!std::is_convertible_v<float, float_e4m3_t> && !std::is_convertible_v<float_e5m2_t, float>);
  static_assert(is_fp8_v<float_e4m3_t> && is_fp8_v<float_e5m2_t> && !is_fp8_v<half_t>);
  static_assert(float_e4m3_t(1.0f).raw() == 0x38 && float_e5m2_t(1.0f).raw() == 0x3c);
  static_assert(float(float_e4m3_t(0.3f)) == 0.3125f && float(float_e5m2_t(0.3f)) == 0.3125f);
  EXPECT_EQ(float(float_e4m3_t(1000.0f)), 448.0f);         // saturated
  EXPECT_EQ(float(float_e4m3_t(-kInf)), -448.0f);          // no infinity: saturated
  EXPECT_EQ(float(float_e5m2_t(1e6f)), 57344.0f);          // saturated
  EXPECT_EQ(float(float_e5m2_t::bitcast(0x7c)), kInf);     // an infinity's bits read back as infinity
  EXPECT_EQ(float(float_e4m3_t::bitcast(0x01)), 0x1p-9f);  // the smallest subnormal
  EXPECT_EQ(float(float_e5m2_t::bitcast(0x01)), 0x1p-16f);
  EXPECT_TRUE(std::isnan(float(float_e4m3_t(kNaN))) && std::isnan(float(float_e5m2_t(kNaN))));
  EXPECT_TRUE(std::isnan(float(float_e4m3_t::bitcast(0xff))));
  EXPECT_EQ(float(float_e4m3_t(464.0f)), 448.0f);  // a tie between 448 and 480 (beyond): even, 448
}

// Every pattern decodes as the independent decoder says and converts back to itself (NaNs to a NaN).
TEST(Numeric, Fp8EveryPatternRoundTrips) {
  for (unsigned b = 0; b < 256; ++b) {
    float const x4 = float(float_e4m3_t::bitcast(std::uint8_t(b)));
    float const r4 = decode_fp8<4, 3, 7, false>(b);
    if (std::isnan(r4)) {
      EXPECT_TRUE(std::isnan(x4)) << b;
    } else {
      EXPECT_EQ(bits_of(x4), bits_of(r4)) << b;
      EXPECT_EQ(float_e4m3_t(x4).raw(), b) << b;
    }
    float const x5 = float(float_e5m2_t::bitcast(std::uint8_t(b)));
    float const r5 = decode_fp8<5, 2, 15, true>(b);
    if (std::isnan(r5)) {
      EXPECT_TRUE(std::isnan(x5)) << b;
    } else {
      EXPECT_EQ(bits_of(x5), bits_of(r5)) << b;
      if (std::isfinite(r5)) EXPECT_EQ(float_e5m2_t(x5).raw(), b) << b;
    }
  }
}

// Rounding: for floats over the whole range (every exponent, ties and midpoints included), the
// conversion is the nearest finite value, ties to even, saturated.
TEST(Numeric, Fp8RoundsToNearestEvenSaturating) {
  std::uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (int i = 0; i < 50000; ++i) {
    // exponents 2^-20 .. 2^17, random mantissas; every 8th a midpoint between fp8 neighbours
    std::uint32_t const e = 107 + next() % 38;
    std::uint32_t mant = next() & 0x7fffffu;
    if (i % 8 == 0) mant &= ~0xfffffu;
    float const x = float_of((next() & 0x80000000u) | (e << 23) | mant);
    EXPECT_EQ(float_e4m3_t(x).raw(), (nearest_fp8<float_e4m3_t, 4, 3, 7, false>(x))) << x;
    EXPECT_EQ(float_e5m2_t(x).raw(), (nearest_fp8<float_e5m2_t, 5, 2, 15, true>(x))) << x;
  }
}
