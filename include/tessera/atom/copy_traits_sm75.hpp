// Copy_Traits of the sm_75 matrix loads (ldmatrix, arch/copy_sm75.hpp).
//
// The bits are numbered over the instruction's tile in shared memory: the rows of its 8x8 matrices
// of 16-bit elements, 128 bits each, matrix 0's rows 0..7 first, then matrix 1's, ...:
//   bit = 1024 * matrix + 128 * row + 16 * column + (bit within the element).
// Source: thread t names one row, its uint128_t (SRegisters = uint128_t[1]), so SrcLayout maps
// (t, b) to 128 * (row t names) + b; for .x1 and .x2 the threads above 8 and 16 repeat the rows of
// the lower threads (the stride-0 mode), as the PTX ISA asks of sm_75 code. Destination: register i
// of thread t holds two elements of matrix i; DstLayout maps (t, 32 * i + b) to their bits.
// How each layout was checked: tests/atom/copy_traits_sm75.cpp (against the PTX ISA's fragment
// formulas) and tests/arch_cuda/copy_sm75.cu (on the GPU).
#pragma once

#include "tessera/arch/copy_sm75.hpp"
#include "tessera/atom/copy_traits.hpp"

namespace tessera {

template <>
struct Copy_Traits<SM75_U32x1_LDSM_N> {
  // (thr) -> lane: the 32 lanes of a warp
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t names row t % 8 (lanes 8..31 repeat lanes 0..7); val: its 128 bits
  using SrcLayout = Layout<Shape<Shape<_8, _4>, _128>, Stride<Stride<_128, _0>, _1>>;
  // (dst-thr,dst-val) -> bit: lane t's register is bits 32t..32t+31: row t/4, columns 2(t%4), 2(t%4)+1
  using DstLayout = Layout<Shape<_32, _32>, Stride<_32, _1>>;
  // (thr,val) -> bit
  using RefLayout = DstLayout;
};

template <>
struct Copy_Traits<SM75_U32x2_LDSM_N> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t names tile row t % 16 (row t % 8 of matrix t/8 % 2); val: its 128 bits
  using SrcLayout = Layout<Shape<Shape<_16, _2>, _128>, Stride<Stride<_128, _0>, _1>>;
  // (dst-thr,(bit,reg)) -> bit: register i of lane t is bits 32t.. of matrix i (1024 bits a matrix)
  using DstLayout = Layout<Shape<_32, Shape<_32, _2>>, Stride<_32, Stride<_1, _1024>>>;
  // (thr,val) -> bit
  using RefLayout = DstLayout;
};

template <>
struct Copy_Traits<SM75_U32x4_LDSM_N> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t names tile row t (row t % 8 of matrix t / 8); val: its 128 bits
  using SrcLayout = Layout<Shape<_32, _128>, Stride<_128, _1>>;
  // (dst-thr,(bit,reg)) -> bit: register i of lane t is bits 32t.. of matrix i
  using DstLayout = Layout<Shape<_32, Shape<_32, _4>>, Stride<_32, Stride<_1, _1024>>>;
  // (thr,val) -> bit
  using RefLayout = DstLayout;
};

template <>
struct Copy_Traits<SM75_U16x2_LDSM_T> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t names row t % 8 (lanes 8..31 repeat lanes 0..7); val: its 128 bits
  using SrcLayout = Layout<Shape<Shape<_8, _4>, _128>, Stride<Stride<_128, _0>, _1>>;
  // ((t%4,t/4),(bit,half)) -> bit: half j of lane t's register is the element at row 2(t%4)+j,
  // column t/4 of the stored matrix: 256 (t%4) + 16 (t/4) + bit + 128 j
  using DstLayout = Layout<Shape<Shape<_4, _8>, Shape<_16, _2>>, Stride<Stride<_256, _16>, Stride<_1, _128>>>;
  // (thr,val) -> bit
  using RefLayout = DstLayout;
};

template <>
struct Copy_Traits<SM75_U16x4_LDSM_T> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t names tile row t % 16; val: its 128 bits
  using SrcLayout = Layout<Shape<Shape<_16, _2>, _128>, Stride<Stride<_128, _0>, _1>>;
  // ((t%4,t/4),(bit,half,reg)) -> bit: as SM75_U16x2_LDSM_T within matrix reg, 1024 bits a matrix
  using DstLayout =
      Layout<Shape<Shape<_4, _8>, Shape<_16, _2, _2>>, Stride<Stride<_256, _16>, Stride<_1, _128, _1024>>>;
  // (thr,val) -> bit
  using RefLayout = DstLayout;
};

template <>
struct Copy_Traits<SM75_U16x8_LDSM_T> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t names tile row t; val: its 128 bits
  using SrcLayout = Layout<Shape<_32, _128>, Stride<_128, _1>>;
  // ((t%4,t/4),(bit,half,reg)) -> bit: as SM75_U16x2_LDSM_T within matrix reg
  using DstLayout =
      Layout<Shape<Shape<_4, _8>, Shape<_16, _2, _4>>, Stride<Stride<_256, _16>, Stride<_1, _128, _1024>>>;
  // (thr,val) -> bit
  using RefLayout = DstLayout;
};

}  // namespace tessera
