// Copy_Traits<Op>: the thread-value layouts of a copy instruction (an arch/ type), which say which
// bits of the instruction's tile each thread's operands carry:
//   ThrID      (logical thr) -> thread index in the group that executes the instruction together
//   SrcLayout  (src-thr, src-val) -> bit    where val runs over the bits of the source registers
//   DstLayout  (dst-thr, dst-val) -> bit    where val runs over the bits of the destination registers
//   RefLayout  (thr, val) -> bit            the reference one of the two, in which a tiled copy
//                                           is expressed (the other is reached through the bits)
// The bits are numbered in one order fixed per instruction (for the warp-wide copies: a tile of
// rows of 128 bits, row after row), so two layouts with the same codomain can be composed with
// each other's inverses. This header holds the primary template and UniversalCopy's traits; the
// other instructions' traits are in copy_traits_sm*.hpp next to the arch/copy_sm*.hpp they describe.
#pragma once

#include "tessera/arch/copy.hpp"
#include "tessera/core/error.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

// Copy_Traits<Op>: specialized for every copy instruction type Op. The primary template is an
// error that names the missing header.
template <class Op>
struct Copy_Traits {
  static_assert(detail::always_false<Op>,
                "Copy_Traits<Op>: no traits for this copy instruction; include the atom/copy_traits_*.hpp of "
                "its architecture (atom/copy_traits_sm75.hpp for SM75_*_LDSM_*, _sm80 for SM80_CP_ASYNC_*, "
                "_sm90 for SM90_*_STSM_*) or specialize Copy_Traits for it");
};

// UniversalCopy<S, D>: one thread moves one value; its value mode runs over the value's bits.
// Example: Copy_Traits<UniversalCopy<uint32_t>>::SrcLayout prints (_1,_32):(_0,_1).
template <class S, class D>
struct Copy_Traits<UniversalCopy<S, D>> {
  // (thr) -> thread index: a single thread
  using ThrID = Layout<_1>;
  // (src-thr,src-val) -> bit: the one thread's source value, bit by bit
  using SrcLayout = Layout<Shape<_1, Int<sizeof_bits_v<S>>>, Stride<_0, _1>>;
  // (dst-thr,dst-val) -> bit: the one thread's destination value, bit by bit
  using DstLayout = Layout<Shape<_1, Int<sizeof_bits_v<D>>>, Stride<_0, _1>>;
  // (thr,val) -> bit: the source view is the reference
  using RefLayout = SrcLayout;
};

}  // namespace tessera
