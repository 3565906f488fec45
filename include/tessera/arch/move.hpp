// Moves of a fixed number of bytes between raw addresses, the accesses the Python kernel language
// writes once its trace has worked out every offset and alignment (docs/python-kernels.md):
//   move_bytes<B>(dst, src)                  one B-byte load and store (B = 1, 2, 4, 8, 16)
//   cp_async_bytes<B>(smem_dst, gmem_src)    one cp.async of B bytes (4, 8, 16), through L1
//   cp_async_bytes<16, true>(...)            the L2-only form (cp.async.cg)
// They are the vector accesses of copy() and of the cp.async atoms (algorithm/copy.hpp,
// arch/copy_sm80.hpp) without a layout: the caller has proved that the bytes are contiguous and
// aligned. Pre for every move: both addresses aligned to B bytes; for cp_async_bytes, src in global
// and dst in shared memory (then cp_async_fence / cp_async_wait, arch/copy_sm80.hpp).
#pragma once

#include "tessera/arch/copy_sm80.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

namespace detail {
template <int B>
struct move_int;  // the unsigned integer of B bytes
template <>
struct move_int<1> {
  using type = unsigned char;
};
template <>
struct move_int<2> {
  using type = unsigned short;
};
template <>
struct move_int<4> {
  using type = std::uint32_t;
};
template <>
struct move_int<8> {
  using type = std::uint64_t;
};
template <>
struct move_int<16> {
  using type = uint128_t;
};

// B bytes as 32-bit words, aligned to B.
template <int B>
struct alignas(B) move_words32 {
  std::uint32_t w[B / 4];
};

// The unit of a B-byte move of elements of E bytes. Elements narrower than a word (fp16, bf16,
// 8-bit) move as 32-bit words: after a load each word stays a register holding two halves, which
// packed instructions (HADD2) use as they are; as a 64- or 128-bit integer the compiler reached
// each half through 64-bit shifts (the thread-value fp16 add: 198 instructions against 62).
// Wider elements move as one integer: for the fp32 SGEMM the words gave a register assignment with
// a third more operand bank conflicts in its FFMA loop (409 against 306 of 576), and 10% less speed
// (H200, 28.0 against 31.2 TFLOP/s).
template <int B, int E>
using move_unit_t = std::conditional_t<(B > 4 && E < 4), move_words32<B>, typename move_int<B>::type>;
}  // namespace detail

// move_bytes<B>(dst, src): the B bytes at src copied to dst with one access each way.
// Pre: B in {1, 2, 4, 8, 16}; dst and src aligned to B bytes. Example: move_bytes<16>(d, s)
// moves eight halves with one 128-bit load and one 128-bit store.
template <int B, class D, class S>
TESSERA_HOST_DEVICE void move_bytes(D* dst, S const* src) {
  static_assert(B == 1 || B == 2 || B == 4 || B == 8 || B == 16, "move_bytes<B>: B is 1, 2, 4, 8 or 16 bytes");
  using W = detail::move_unit_t<B, int(sizeof(D))>;
  *reinterpret_cast<W*>(dst) = *reinterpret_cast<W const*>(src);
}

// cp_async_bytes<B, L2Only>(smem_dst, gmem_src): one cp.async of B bytes (cp.async.ca; with
// L2Only, cp.async.cg, which copies 16 bytes only). Pre: see the file comment.
template <int B, bool L2Only = false, class D, class S>
TESSERA_HOST_DEVICE void cp_async_bytes(D* smem_dst, S const* gmem_src) {
  static_assert(B == 4 || B == 8 || B == 16, "cp_async_bytes<B>: cp.async copies 4, 8 or 16 bytes");
  static_assert(!L2Only || B == 16, "cp_async_bytes<B, true>: cp.async.cg copies 16 bytes only");
  using W = typename detail::move_int<B>::type;
  if constexpr (L2Only) {
    SM80_CP_ASYNC_CACHEGLOBAL<W>::copy(*reinterpret_cast<W const*>(gmem_src), *reinterpret_cast<W*>(smem_dst));
  } else {
    SM80_CP_ASYNC_CACHEALWAYS<W>::copy(*reinterpret_cast<W const*>(gmem_src), *reinterpret_cast<W*>(smem_dst));
  }
}

}  // namespace tessera
