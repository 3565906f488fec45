// Conversions of fp32 values to packed 8-bit floats (PTX cvt.rn.satfinite.e4m3x2.f32, sm_89 and
// later), one instruction a pair:
//   cvt_e4m3x4(b0, b1, b2, b3)   four floats as four OCP E4M3 bytes in one 32-bit register, b0 in
//                                the lowest byte (the order of an 8-bit wgmma's A fragment:
//                                arch/mma_sm90_fp8_rs.hpp), each rounded to nearest (ties to even)
//                                and saturated to +-448; NaN stays NaN
// In host code the body is float_e4m3_t's own conversion (core/numeric.hpp), which gives the same
// bytes: host tests can check what a kernel packs.
// Example: cvt_e4m3x4(1.0f, 0.5f, -2.0f, 1000.0f) == 0x7ec03038u (1.0 = 0x38, 0.5 = 0x30, -2.0 = 0xc0,
// 1000 saturates to 448 = 0x7e).
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

TESSERA_HOST_DEVICE std::uint32_t cvt_e4m3x4(float b0, float b1, float b2, float b3) {
#if defined(__CUDA_ARCH__)
  std::uint32_t r;
  // cvt ... d, a, b puts a in the upper byte of d and b in the lower
  asm("{\n.reg .b16 lo, hi;\n"
      "cvt.rn.satfinite.e4m3x2.f32 lo, %2, %1;\n"
      "cvt.rn.satfinite.e4m3x2.f32 hi, %4, %3;\n"
      "mov.b32 %0, {lo, hi};\n}\n"
      : "=r"(r)
      : "f"(b0), "f"(b1), "f"(b2), "f"(b3));
  return r;
#else
  return std::uint32_t(float_e4m3_t(b0).raw()) | (std::uint32_t(float_e4m3_t(b1).raw()) << 8) |
         (std::uint32_t(float_e4m3_t(b2).raw()) << 16) | (std::uint32_t(float_e4m3_t(b3).raw()) << 24);
#endif
}

}  // namespace tessera
