// Copy_Traits of the sm_80 asynchronous copies (arch/copy_sm80.hpp). cp.async is a per-thread
// copy of one 4-, 8- or 16-byte value, so its layouts are those of UniversalCopy of the same width
// (atom/copy_traits.hpp): one thread, the value's bits in order.
// The _ZFILL variants also carry the predicate their copy takes: `pred` (true: copy, false: fill
// the destination with zeros), set per call with `traits.with(pred)`.
#pragma once

#include "tessera/arch/copy_sm80.hpp"
#include "tessera/atom/copy_traits.hpp"

namespace tessera {

// Example: Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>::DstLayout prints (_1,_128):(_0,_1).
template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<S, D>> {
  // (thr) -> thread index: a single thread
  using ThrID = Layout<_1>;
  // (src-thr,src-val) -> bit: the global-memory value, bit by bit
  using SrcLayout = Layout<Shape<_1, Int<sizeof_bits_v<S>>>, Stride<_0, _1>>;
  // (dst-thr,dst-val) -> bit: the shared-memory value, bit by bit
  using DstLayout = Layout<Shape<_1, Int<sizeof_bits_v<D>>>, Stride<_0, _1>>;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<S, D>> {
  // (thr) -> thread index: a single thread
  using ThrID = Layout<_1>;
  // (src-thr,src-val) -> bit: the global-memory value, bit by bit
  using SrcLayout = Layout<Shape<_1, Int<sizeof_bits_v<S>>>, Stride<_0, _1>>;
  // (dst-thr,dst-val) -> bit: the shared-memory value, bit by bit
  using DstLayout = Layout<Shape<_1, Int<sizeof_bits_v<D>>>, Stride<_0, _1>>;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;
};

// The zero-filling variants: the same layouts, plus the predicate for the next copy.
// Example: Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>>{}.with(false).pred == false.
template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>> {
  // (thr) -> thread index: a single thread
  using ThrID = Layout<_1>;
  // (src-thr,src-val) -> bit: the global-memory value, bit by bit
  using SrcLayout = Layout<Shape<_1, Int<sizeof_bits_v<S>>>, Stride<_0, _1>>;
  // (dst-thr,dst-val) -> bit: the shared-memory value, bit by bit
  using DstLayout = Layout<Shape<_1, Int<sizeof_bits_v<D>>>, Stride<_0, _1>>;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;

  bool pred = true;  // true: copy; false: zero-fill the destination, read nothing
  // with(p): these traits with predicate p. Pre: none. Post: with(p).pred == p.
  TESSERA_HOST_DEVICE constexpr Copy_Traits with(bool p) const { return Copy_Traits{p}; }
};

template <class S, class D>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>> {
  // (thr) -> thread index: a single thread
  using ThrID = Layout<_1>;
  // (src-thr,src-val) -> bit: the global-memory value, bit by bit
  using SrcLayout = Layout<Shape<_1, Int<sizeof_bits_v<S>>>, Stride<_0, _1>>;
  // (dst-thr,dst-val) -> bit: the shared-memory value, bit by bit
  using DstLayout = Layout<Shape<_1, Int<sizeof_bits_v<D>>>, Stride<_0, _1>>;
  // (thr,val) -> bit
  using RefLayout = SrcLayout;

  bool pred = true;  // true: copy; false: zero-fill the destination, read nothing
  // with(p): these traits with predicate p. Pre: none. Post: with(p).pred == p.
  TESSERA_HOST_DEVICE constexpr Copy_Traits with(bool p) const { return Copy_Traits{p}; }
};

}  // namespace tessera
