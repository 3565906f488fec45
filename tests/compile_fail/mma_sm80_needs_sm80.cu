// Compile-fail case: an sm_80 tensor-core instruction used in device code built for sm_75.
//
// SM80_16x8x16_F32F16F16F32_TN wraps mma.sync.m16n8k16, which sm_75 lacks; its use must fail in
// the sm_75 device pass with a message naming the instruction, the architecture it needs and the
// -gencode to build for (arch/util.hpp says how the guard works).
// Control: the same kernel without the call, with every instruction header and its traits
// included and the register types used, compiles for sm_75: only a use fails.
// CUDA-ARCH: 75
// EXPECT-ERROR: SM80_16x8x16_F32F16F16F32_TN: mma.sync.m16n8k16 needs sm_80 or newer; build for -gencode arch=compute_80 or later
#include <cstdint>

#include "tessera/atom/copy_traits_sm75.hpp"
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/atom/copy_traits_sm90.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"

using namespace tessera;

__global__ void kernel(float* d, std::uint32_t const* a) {
  using Op = SM80_16x8x16_F32F16F16F32_TN;
  Op::DRegisters acc = {0, 0, 0, 0};
#ifndef TESSERA_CONTROL
  Op::fma(acc[0], acc[1], acc[2], acc[3], a[0], a[1], a[2], a[3], a[4], a[5], acc[0], acc[1], acc[2], acc[3]);
#endif
  for (int i = 0; i < 4; ++i) d[i] = acc[i] + float(size(MMA_Traits<Op>::CLayout{}));
}
