// Device tests of include/tessera/arch/copy_sm75.hpp (ldmatrix) against its traits
// (include/tessera/atom/copy_traits_sm75.hpp): one warp per variant loads a tile of distinct
// 16-bit values and every register of every lane must hold the elements DstLayout names.
//
// The tile: 32 rows of 8 16-bit elements, value(row, col) = 0xA000 + 8 row + col, stored in shared
// memory in a scrambled row order (tile row r in slot (5 r + 3) % 32, slots 32 bytes apart), so
// that a lane naming the wrong row is seen. Each lane names its row as SrcLayout says: tile row
// SrcLayout(lane, 0) / 128.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tessera/atom/copy_traits_sm75.hpp"
#include "warp_test.hpp"

namespace {

using namespace tessera;

constexpr int kRows = 32;       // tile rows held in shared memory (4 matrices of 8 rows)
constexpr int kSlotElems = 16;  // one slot: 8 elements of the row, 8 of padding (32 bytes)

TESSERA_HOST_DEVICE constexpr int slot_of_row(int row) { return (5 * row + 3) % kRows; }
TESSERA_HOST_DEVICE constexpr std::uint16_t value_at(int row, int col) { return std::uint16_t(0xA000 + 8 * row + col); }

template <class Op, std::size_t... I>
__device__ void load(uint128_t const& row, std::uint32_t (&r)[sizeof...(I)], std::index_sequence<I...>) {
  Op::copy(row, r[I]...);
}

// One warp: fill the scrambled tile, then lane t names its row and stores its registers at
// out[4 t + i].
template <class Op>
__global__ void ldsm_kernel(std::uint32_t* out) {
  __shared__ alignas(16) std::uint16_t slots[kRows * kSlotElems];
  int const lane = int(threadIdx.x);
  for (int col = 0; col < kSlotElems; ++col) {  // lane fills tile row `lane`
    slots[slot_of_row(lane) * kSlotElems + col] = col < 8 ? value_at(lane, col) : std::uint16_t(0xFFFF);
  }
  __syncthreads();
  int const row = int(typename Copy_Traits<Op>::SrcLayout{}(lane, 0)) / 128;  // the row this lane names
  auto const& src = *reinterpret_cast<uint128_t const*>(&slots[slot_of_row(row) * kSlotElems]);
  constexpr int n = tessera::test::register_count_v<typename Op::DRegisters>;
  std::uint32_t r[n];
  load<Op>(src, r, std::make_index_sequence<n>{});
  for (int i = 0; i < n; ++i) out[4 * lane + i] = r[i];
}

// Runs Op on the GPU and checks every 16-bit half of every register of every lane against
// DstLayout: half h of register i of lane t is tile bits DstLayout(t, 32 i + 16 h) ...+15.
template <class Op>
void expect_ldsm_matches_traits() {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  tessera::test::DeviceArray<std::uint32_t> out(std::vector<std::uint32_t>(32 * 4, 0xDEADBEEFu));
  ldsm_kernel<Op><<<1, 32>>>(out.get());
  tessera::test::expect_kernel_ran();
  std::vector<std::uint32_t> const got = out.to_host();
  typename Copy_Traits<Op>::DstLayout const dst{};  // (lane, bit of the registers) -> tile bit
  constexpr int n = tessera::test::register_count_v<typename Op::DRegisters>;
  for (int t = 0; t < 32; ++t) {
    for (int i = 0; i < n; ++i) {
      for (int h = 0; h < 2; ++h) {
        int const bit = int(dst(t, 32 * i + 16 * h));
        ASSERT_EQ(bit % 16, 0) << "an element must start on a 16-bit boundary";
        int const element = bit / 16;  // 8 elements a row
        std::uint16_t const expected = value_at(element / 8, element % 8);
        std::uint16_t const actual = std::uint16_t(got[4 * t + i] >> (16 * h));
        ASSERT_EQ(actual, expected) << "lane " << t << " register " << i << " half " << h << ": expected row "
                                    << element / 8 << " column " << element % 8;
      }
    }
  }
}

TEST(ArchCopySm75Device, U32x1Ldsm) { expect_ldsm_matches_traits<SM75_U32x1_LDSM_N>(); }
TEST(ArchCopySm75Device, U32x2Ldsm) { expect_ldsm_matches_traits<SM75_U32x2_LDSM_N>(); }
TEST(ArchCopySm75Device, U32x4Ldsm) { expect_ldsm_matches_traits<SM75_U32x4_LDSM_N>(); }
TEST(ArchCopySm75Device, U16x2LdsmTrans) { expect_ldsm_matches_traits<SM75_U16x2_LDSM_T>(); }
TEST(ArchCopySm75Device, U16x4LdsmTrans) { expect_ldsm_matches_traits<SM75_U16x4_LDSM_T>(); }
TEST(ArchCopySm75Device, U16x8LdsmTrans) { expect_ldsm_matches_traits<SM75_U16x8_LDSM_T>(); }

}  // namespace
