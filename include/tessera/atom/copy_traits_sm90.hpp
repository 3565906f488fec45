// Copy_Traits of the sm_90 matrix stores (stmatrix, arch/copy_sm90.hpp). stmatrix is ldmatrix
// run backwards over the same tile and the same bit numbering (atom/copy_traits_sm75.hpp): its
// source registers are ldmatrix's destination registers and its destination rows are ldmatrix's
// source rows. So SrcLayout is the DstLayout of the ldmatrix of the same shape, DstLayout its
// SrcLayout, and the register side is the reference. Checked in tests/atom/copy_traits_sm90.cpp
// (PTX ISA formulas) and tests/arch_cuda/copy_sm90.cu (on the GPU).
#pragma once

#include "tessera/arch/copy_sm90.hpp"
#include "tessera/atom/copy_traits.hpp"
#include "tessera/atom/copy_traits_sm75.hpp"

namespace tessera {

template <>
struct Copy_Traits<SM90_U32x1_STSM_N> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,src-val) -> bit: lane t's register is bits 32t..: (_32,_32):(_32,_1)
  using SrcLayout = Copy_Traits<SM75_U32x1_LDSM_N>::DstLayout;
  // (dst-thr,dst-val) -> bit: lane t names row t % 8: ((_8,_4),_128):((_128,_0),_1)
  using DstLayout = Copy_Traits<SM75_U32x1_LDSM_N>::SrcLayout;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

template <>
struct Copy_Traits<SM90_U32x2_STSM_N> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,(bit,reg)) -> bit: (_32,(_32,_2)):(_32,(_1,_1024))
  using SrcLayout = Copy_Traits<SM75_U32x2_LDSM_N>::DstLayout;
  // (dst-thr,dst-val) -> bit: lane t names tile row t % 16: ((_16,_2),_128):((_128,_0),_1)
  using DstLayout = Copy_Traits<SM75_U32x2_LDSM_N>::SrcLayout;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

template <>
struct Copy_Traits<SM90_U32x4_STSM_N> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // (src-thr,(bit,reg)) -> bit: (_32,(_32,_4)):(_32,(_1,_1024))
  using SrcLayout = Copy_Traits<SM75_U32x4_LDSM_N>::DstLayout;
  // (dst-thr,dst-val) -> bit: lane t names tile row t: (_32,_128):(_128,_1)
  using DstLayout = Copy_Traits<SM75_U32x4_LDSM_N>::SrcLayout;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

template <>
struct Copy_Traits<SM90_U16x2_STSM_T> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // ((t%4,t/4),(bit,half)) -> bit: ((_4,_8),(_16,_2)):((_256,_16),(_1,_128))
  using SrcLayout = Copy_Traits<SM75_U16x2_LDSM_T>::DstLayout;
  // (dst-thr,dst-val) -> bit: lane t names row t % 8
  using DstLayout = Copy_Traits<SM75_U16x2_LDSM_T>::SrcLayout;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

template <>
struct Copy_Traits<SM90_U16x4_STSM_T> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // ((t%4,t/4),(bit,half,reg)) -> bit: ((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))
  using SrcLayout = Copy_Traits<SM75_U16x4_LDSM_T>::DstLayout;
  // (dst-thr,dst-val) -> bit: lane t names tile row t % 16
  using DstLayout = Copy_Traits<SM75_U16x4_LDSM_T>::SrcLayout;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

template <>
struct Copy_Traits<SM90_U16x8_STSM_T> {
  // (thr) -> lane
  using ThrID = Layout<_32>;
  // ((t%4,t/4),(bit,half,reg)) -> bit: ((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))
  using SrcLayout = Copy_Traits<SM75_U16x8_LDSM_T>::DstLayout;
  // (dst-thr,dst-val) -> bit: lane t names tile row t
  using DstLayout = Copy_Traits<SM75_U16x8_LDSM_T>::SrcLayout;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

}  // namespace tessera
