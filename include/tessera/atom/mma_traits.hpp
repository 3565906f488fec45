// MMA_Traits<Op>: what an MMA instruction (an arch/ type) computes and which thread holds which
// element of its operands:
//   ValTypeD, ValTypeA, ValTypeB, ValTypeC   the element types of D, A, B and C
//   Shape_MNK                                (M,N,K) of one instruction: D (MxN) = A (MxK) * B (NxK) + C
//   ThrID                                    (logical thr) -> thread index in the executing group
//   ALayout   (thr,val) -> m + k*M           the column-major index in the M x K tile of A
//   BLayout   (thr,val) -> n + k*N           the column-major index in the N x K tile of B
//   CLayout   (thr,val) -> m + n*M           the column-major index in the M x N tile of C and D
// val runs over a thread's elements in register order (register 0's low half first when a
// register holds two), so size<1>(ALayout) * sizeof_bits_v<ValTypeA> is the thread's A register
// bits. This header holds the primary template and UniversalFMA's traits; the tensor-core
// instructions' traits are in mma_traits_sm*.hpp next to the arch/mma_sm*.hpp they describe.
#pragma once

#include "tessera/arch/mma.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/layout.hpp"

namespace tessera {

// MMA_Traits<Op>: specialized for every MMA instruction type Op. The primary template is an error
// that names the missing header.
template <class Op>
struct MMA_Traits {
  static_assert(detail::always_false<Op>,
                "MMA_Traits<Op>: no traits for this MMA instruction; include the atom/mma_traits_*.hpp of its "
                "architecture (atom/mma_traits_sm80.hpp for SM80_*_TN) or specialize MMA_Traits for it");
};

// UniversalFMA<D, A, B, C>: one thread computes one d = a * b + c, a 1x1x1 tile.
// Example: MMA_Traits<UniversalFMA<float>>::CLayout prints (_1,_1):(_0,_0).
template <class D, class A, class B, class C>
struct MMA_Traits<UniversalFMA<D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;

  // (M,N,K) of the instruction
  using Shape_MNK = Shape<_1, _1, _1>;
  // (thr) -> thread index: a single thread
  using ThrID = Layout<_1>;
  // (thr,val) -> m + k*M: the one element of the 1x1 tile
  using ALayout = Layout<Shape<_1, _1>, Stride<_0, _0>>;
  // (thr,val) -> n + k*N
  using BLayout = Layout<Shape<_1, _1>, Stride<_0, _0>>;
  // (thr,val) -> m + n*M
  using CLayout = Layout<Shape<_1, _1>, Stride<_0, _0>>;
};

}  // namespace tessera
