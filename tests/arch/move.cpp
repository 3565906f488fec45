// Host tests for include/tessera/arch/move.hpp: the units of a move (their sizes and alignments),
// move_bytes moving exactly B bytes of any element type, cp_async_bytes stopping on the host. The
// GPU behaviour runs in every generated program of the kernel language (tests/python/test_lang.py
// runs them on the host too, through tests/python/lang_host.py).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/arch/move.hpp"

using namespace tessera;

template <int B, int E>
constexpr bool unit_is_b_bytes_aligned_to_b() {
  using W = detail::move_unit_t<B, E>;
  return sizeof(W) == B && alignof(W) == B && std::is_trivially_copyable_v<W>;
}

TEST(ArchMove, UnitsAreBBytesAlignedToB) {
  static_assert(unit_is_b_bytes_aligned_to_b<1, 1>());
  static_assert(unit_is_b_bytes_aligned_to_b<2, 2>());
  static_assert(unit_is_b_bytes_aligned_to_b<4, 2>());
  static_assert(unit_is_b_bytes_aligned_to_b<8, 2>());
  static_assert(unit_is_b_bytes_aligned_to_b<16, 1>());
  static_assert(unit_is_b_bytes_aligned_to_b<8, 4>());
  static_assert(unit_is_b_bytes_aligned_to_b<16, 4>());
  static_assert(unit_is_b_bytes_aligned_to_b<16, 8>());
  // Narrow elements move as 32-bit words, wider ones as one integer (move.hpp says why).
  static_assert(std::is_same_v<detail::move_unit_t<16, 2>, detail::move_words32<16>>);
  static_assert(std::is_same_v<detail::move_unit_t<8, 1>, detail::move_words32<8>>);
  static_assert(std::is_same_v<detail::move_unit_t<16, 4>, uint128_t>);
  static_assert(std::is_same_v<detail::move_unit_t<8, 4>, std::uint64_t>);
  static_assert(std::is_same_v<detail::move_unit_t<4, 2>, std::uint32_t>);
}

// B bytes from src + at to dst + at, nothing else written; values of another type than the unit's.
template <int B>
void check_moves_exactly(int at) {
  alignas(16) std::array<unsigned char, 48> src{}, dst{};
  for (int i = 0; i < 48; ++i) src[i] = static_cast<unsigned char>(3 * i + 1);
  dst.fill(0xEE);
  move_bytes<B>(dst.data() + at, src.data() + at);
  for (int i = 0; i < 48; ++i) {
    bool const moved = i >= at && i < at + B;
    EXPECT_EQ(dst[i], moved ? src[i] : 0xEE) << "B = " << B << ", byte " << i;
  }
}

TEST(ArchMove, MovesExactlyBBytes) {
  for (int at : {0, 16}) {
    check_moves_exactly<1>(at + 1);
    check_moves_exactly<2>(at + 2);
    check_moves_exactly<4>(at + 4);
    check_moves_exactly<8>(at + 8);
    check_moves_exactly<16>(at);
  }
}

TEST(ArchMove, MovesElementsOfAnyType) {
  alignas(16) float f[4] = {1.5f, -2.25f, 3.0f, 1e-30f};
  alignas(16) float g[4] = {};
  move_bytes<16>(g, f);
  EXPECT_EQ(std::memcmp(f, g, sizeof f), 0);
  alignas(8) std::int16_t h[4] = {-1, 2, -3, 32767};
  alignas(8) std::int16_t k[4] = {};
  move_bytes<8>(k, h);  // a 64-bit move of four 16-bit values: each arrives whole, in its place
  EXPECT_EQ(k[0], -1);
  EXPECT_EQ(k[1], 2);
  EXPECT_EQ(k[2], -3);
  EXPECT_EQ(k[3], 32767);
}

TEST(ArchMove, CpAsyncStopsOnTheHost) {
  alignas(16) unsigned char src[16] = {}, dst[16] = {};
  EXPECT_DEATH((cp_async_bytes<16>(dst, src)), "cp.async");
  EXPECT_DEATH((cp_async_bytes<16, true>(dst, src)), "cp.async");
}
