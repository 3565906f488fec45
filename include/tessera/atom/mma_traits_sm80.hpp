// MMA_Traits of the sm_80 tensor-core instructions (arch/mma_sm80.hpp).
//
// Reading the layouts: a thread index t splits as (t%4, t/4), the PTX ISA's threadID_in_group and
// groupID; a value index splits into the modes of the value shape, leftmost fastest. For example
// the accumulator layout of every instruction here, ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)), maps
// lane t, value i = i0 + 2 i1 to 32 (t%4) + (t/4) + 16 i0 + 8 i1 = m + 16 n with
//   m = t/4 + 8 i1   (c0, c1 in row groupID, c2, c3 eight rows lower)
//   n = 2 (t%4) + i0 (two neighbouring columns)
// which is the ISA's fragment of C and D. Every layout below was derived from the ISA's fragment
// formulas and is checked against them, value by value, in tests/atom/mma_traits_sm80.cpp, and on
// the GPU by tests/arch_cuda/mma_sm80.cu.
#pragma once

#include "tessera/arch/mma_sm80.hpp"
#include "tessera/atom/mma_traits.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

namespace detail {
// ((t%4,t/4),(i0,i1)) -> m + 16 n: the 16x8 accumulator fragment, m = t/4 + 8 i1, n = 2 (t%4) + i0.
// Also the A fragment of m16n8k8 with f16 (m + 16 k, k = 2 (t%4) + i0).
using SM80_16x8_Row = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8>>>;
}  // namespace detail

// m16n8k16, f16 inputs, f16 accumulators.
template <>
struct MMA_Traits<SM80_16x8x16_F16F16F16F16_TN> {
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;

  // (M,N,K)
  using Shape_MNK = Shape<_16, _8, _16>;
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // ((t%4,t/4),(i0,i1,i2)) -> m + 16 k: m = t/4 + 8 i1, k = 2 (t%4) + i0 + 8 i2
  using ALayout = Layout<Shape<Shape<_4, _8>, Shape<_2, _2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8, _128>>>;
  // ((t%4,t/4),(i0,i1)) -> n + 8 k: n = t/4, k = 2 (t%4) + i0 + 8 i1
  using BLayout = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_16, _1>, Stride<_8, _64>>>;
  // ((t%4,t/4),(i0,i1)) -> m + 16 n: m = t/4 + 8 i1, n = 2 (t%4) + i0
  using CLayout = detail::SM80_16x8_Row;
};

// m16n8k16, f16 inputs, f32 accumulators: the layouts of the f16-accumulator instruction.
template <>
struct MMA_Traits<SM80_16x8x16_F32F16F16F32_TN> : MMA_Traits<SM80_16x8x16_F16F16F16F16_TN> {
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
};

// m16n8k16, bf16 inputs, f32 accumulators: the same layouts.
template <>
struct MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN> : MMA_Traits<SM80_16x8x16_F16F16F16F16_TN> {
  using ValTypeD = float;
  using ValTypeA = bfloat16_t;
  using ValTypeB = bfloat16_t;
  using ValTypeC = float;
};

// m16n8k8, f16 inputs, f16 accumulators.
template <>
struct MMA_Traits<SM80_16x8x8_F16F16F16F16_TN> {
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;

  // (M,N,K)
  using Shape_MNK = Shape<_16, _8, _8>;
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // ((t%4,t/4),(i0,i1)) -> m + 16 k: m = t/4 + 8 i1, k = 2 (t%4) + i0
  using ALayout = detail::SM80_16x8_Row;
  // ((t%4,t/4),i) -> n + 8 k: n = t/4, k = 2 (t%4) + i
  using BLayout = Layout<Shape<Shape<_4, _8>, _2>, Stride<Stride<_16, _1>, _8>>;
  // ((t%4,t/4),(i0,i1)) -> m + 16 n: m = t/4 + 8 i1, n = 2 (t%4) + i0
  using CLayout = detail::SM80_16x8_Row;
};

// m16n8k8, tf32 inputs (one per 32-bit register), f32 accumulators.
template <>
struct MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN> {
  using ValTypeD = float;
  using ValTypeA = tfloat32_t;
  using ValTypeB = tfloat32_t;
  using ValTypeC = float;

  // (M,N,K)
  using Shape_MNK = Shape<_16, _8, _8>;
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // ((t%4,t/4),(i0,i1)) -> m + 16 k: m = t/4 + 8 i0, k = t%4 + 4 i1
  using ALayout = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_16, _1>, Stride<_8, _64>>>;
  // ((t%4,t/4),i) -> n + 8 k: n = t/4, k = t%4 + 4 i
  using BLayout = Layout<Shape<Shape<_4, _8>, _2>, Stride<Stride<_8, _1>, _32>>;
  // ((t%4,t/4),(i0,i1)) -> m + 16 n: m = t/4 + 8 i1, n = 2 (t%4) + i0
  using CLayout = detail::SM80_16x8_Row;
};

}  // namespace tessera
