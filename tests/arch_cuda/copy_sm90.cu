// Device tests of include/tessera/arch/copy_sm90.hpp (stmatrix) against its traits
// (include/tessera/atom/copy_traits_sm90.hpp): one warp per variant stores registers of distinct
// 16-bit values, and every element must land where SrcLayout says, the rest of the tile untouched.
//
// The registers: half h of register i of lane t holds 0x8000 + 8 t + 2 i + h. The tile: 32 rows of
// 8 16-bit elements in shared memory in a scrambled row order (tile row r in slot (5 r + 3) % 32,
// slots 32 bytes apart, filled with 0xFFFF first); each lane names its row as DstLayout says: tile
// row DstLayout(lane, 0) / 128.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tessera/atom/copy_traits_sm90.hpp"
#include "warp_test.hpp"

namespace {

using namespace tessera;

constexpr int kRows = 32;       // tile rows held in shared memory (4 matrices of 8 rows)
constexpr int kSlotElems = 16;  // one slot: 8 elements of the row, 8 of padding (32 bytes)
constexpr std::uint16_t kUntouched = 0xFFFF;

TESSERA_HOST_DEVICE constexpr int slot_of_row(int row) { return (5 * row + 3) % kRows; }
TESSERA_HOST_DEVICE constexpr std::uint16_t register_value(int lane, int reg, int half) {
  return std::uint16_t(0x8000 + 8 * lane + 2 * reg + half);
}

template <class Op, std::size_t... I>
__device__ void store(std::uint32_t const (&r)[sizeof...(I)], uint128_t& row, std::index_sequence<I...>) {
  Op::copy(r[I]..., row);
}

// One warp: clear the tile, store every lane's registers, copy all 32 slots out to `out`.
template <class Op>
__global__ void stsm_kernel(std::uint16_t* out) {
  __shared__ alignas(16) std::uint16_t slots[kRows * kSlotElems];
  int const lane = int(threadIdx.x);
  for (int e = 0; e < kSlotElems; ++e) slots[lane * kSlotElems + e] = kUntouched;
  __syncthreads();
  constexpr int n = tessera::test::register_count_v<typename Op::SRegisters>;
  std::uint32_t r[n];
  for (int i = 0; i < n; ++i) {
    r[i] = std::uint32_t(register_value(lane, i, 0)) | (std::uint32_t(register_value(lane, i, 1)) << 16);
  }
  int const row = int(typename Copy_Traits<Op>::DstLayout{}(lane, 0)) / 128;  // the row this lane names
  auto& dst = *reinterpret_cast<uint128_t*>(&slots[slot_of_row(row) * kSlotElems]);
  store<Op>(r, dst, std::make_index_sequence<n>{});
  __syncthreads();
  for (int e = 0; e < kSlotElems; ++e) out[lane * kSlotElems + e] = slots[lane * kSlotElems + e];
}

// Runs Op on the GPU; half h of register i of lane t must be at tile bits SrcLayout(t, 32 i + 16 h)
// ...+15, and every other element of the shared memory must still be untouched.
template <class Op>
void expect_stsm_matches_traits() {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  tessera::test::DeviceArray<std::uint16_t> out(kRows * kSlotElems);
  stsm_kernel<Op><<<1, 32>>>(out.get());
  tessera::test::expect_kernel_ran();
  std::vector<std::uint16_t> const got = out.to_host();
  std::vector<bool> written(got.size(), false);
  typename Copy_Traits<Op>::SrcLayout const src{};  // (lane, bit of the registers) -> tile bit
  constexpr int n = tessera::test::register_count_v<typename Op::SRegisters>;
  for (int t = 0; t < 32; ++t) {
    for (int i = 0; i < n; ++i) {
      for (int h = 0; h < 2; ++h) {
        int const bit = int(src(t, 32 * i + 16 * h));
        ASSERT_EQ(bit % 16, 0) << "an element must start on a 16-bit boundary";
        int const element = bit / 16;
        std::size_t const at = std::size_t(slot_of_row(element / 8) * kSlotElems + element % 8);
        ASSERT_EQ(got[at], register_value(t, i, h)) << "lane " << t << " register " << i << " half " << h
                                                    << ": expected at row " << element / 8 << " column " << element % 8;
        written[at] = true;
      }
    }
  }
  for (std::size_t at = 0; at < got.size(); ++at) {
    if (!written[at]) ASSERT_EQ(got[at], kUntouched) << "slot " << at / kSlotElems << " element " << at % kSlotElems;
  }
}

TEST(ArchCopySm90Device, U32x1Stsm) { expect_stsm_matches_traits<SM90_U32x1_STSM_N>(); }
TEST(ArchCopySm90Device, U32x2Stsm) { expect_stsm_matches_traits<SM90_U32x2_STSM_N>(); }
TEST(ArchCopySm90Device, U32x4Stsm) { expect_stsm_matches_traits<SM90_U32x4_STSM_N>(); }
TEST(ArchCopySm90Device, U16x2StsmTrans) { expect_stsm_matches_traits<SM90_U16x2_STSM_T>(); }
TEST(ArchCopySm90Device, U16x4StsmTrans) { expect_stsm_matches_traits<SM90_U16x4_STSM_T>(); }
TEST(ArchCopySm90Device, U16x8StsmTrans) { expect_stsm_matches_traits<SM90_U16x8_STSM_T>(); }

}  // namespace
