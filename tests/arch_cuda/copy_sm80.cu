// Device tests of include/tessera/arch/copy_sm80.hpp (cp.async): every variant copies its 4, 8 or
// 16 bytes global -> shared, the _ZFILL variants zero-fill where the predicate is false, and the
// group waits order the copies (after cp_async_wait<1>() the older of two groups has landed).
//
// One warp; lane t copies element t of each source array into shared memory that was filled with
// the byte 0xA5 first. Group 1: the four plain copies; group 2: the three zero-filling copies with
// predicate t % 3 != 0. The kernel reads group 1 back after cp_async_wait<1>(), group 2 after
// cp_async_wait<0>(), and writes what it read to global memory for the host to check.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/atom/copy_traits_sm80.hpp"
#include "warp_test.hpp"

namespace {

using namespace tessera;

constexpr int kLanes = 32;

// The sources, one element a lane each (distinct bytes everywhere), and what the kernel read back.
struct Sources {
  std::uint32_t w32[kLanes];
  std::uint64_t w64[kLanes];
  uint128_t w128[kLanes];
};
struct Results {
  std::uint32_t ca32[kLanes];        // SM80_CP_ASYNC_CACHEALWAYS<uint32_t>
  std::uint64_t ca64[kLanes];        // SM80_CP_ASYNC_CACHEALWAYS<uint64_t>
  uint128_t ca128[kLanes];           // SM80_CP_ASYNC_CACHEALWAYS<uint128_t>
  uint128_t cg128[kLanes];           // SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>
  std::uint32_t ca32_zfill[kLanes];  // SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>
  uint128_t ca128_zfill[kLanes];     // SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>
  uint128_t cg128_zfill[kLanes];     // SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>
};

__global__ void cp_async_kernel(Sources const* src, Results* out) {
  __shared__ Results smem;
  int const t = int(threadIdx.x);
  // Fill the whole destination with 0xA5 bytes, so that a copy that did not happen shows.
  auto* bytes = reinterpret_cast<unsigned char*>(&smem);
  for (int i = t; i < int(sizeof(Results)); i += kLanes) bytes[i] = 0xA5;
  __syncthreads();

  // Group 1: the plain copies.
  SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>::copy(src->w32[t], smem.ca32[t]);
  SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>::copy(src->w64[t], smem.ca64[t]);
  SM80_CP_ASYNC_CACHEALWAYS<uint128_t>::copy(src->w128[t], smem.ca128[t]);
  SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::copy(src->w128[t], smem.cg128[t]);
  cp_async_fence();
  // Group 2: the zero-filling copies.
  bool const pred = t % 3 != 0;
  SM80_CP_ASYNC_CACHEALWAYS_ZFILL<std::uint32_t>::copy(src->w32[t], smem.ca32_zfill[t], pred);
  SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>::copy(src->w128[t], smem.ca128_zfill[t], pred);
  SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>::copy(src->w128[t], smem.cg128_zfill[t], pred);
  cp_async_fence();

  cp_async_wait<1>();  // group 1 has landed (for this thread's own copies)
  out->ca32[t] = smem.ca32[t];
  out->ca64[t] = smem.ca64[t];
  out->ca128[t] = smem.ca128[t];
  out->cg128[t] = smem.cg128[t];
  cp_async_wait<0>();  // and group 2
  out->ca32_zfill[t] = smem.ca32_zfill[t];
  out->ca128_zfill[t] = smem.ca128_zfill[t];
  out->cg128_zfill[t] = smem.cg128_zfill[t];
  cp_async_wait_all();  // nothing left: returns at once
}

Sources make_sources() {
  Sources s{};
  for (int t = 0; t < kLanes; ++t) {
    s.w32[t] = 0x10000000u + std::uint32_t(t) * 0x01010101u;
    s.w64[t] = 0x2000000000000000ull + std::uint64_t(t) * 0x0101010101010101ull;
    s.w128[t] = uint128_t{0x3000000000000000ull + std::uint64_t(t), 0x4000000000000000ull + std::uint64_t(t) * 7};
  }
  return s;
}

TEST(ArchCopySm80Device, CopiesZeroFillsAndWaits) {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  Sources const s = make_sources();
  tessera::test::DeviceArray<Sources> src(std::vector<Sources>{s});
  Results poison;
  std::memset(&poison, 0x5A, sizeof(poison));
  tessera::test::DeviceArray<Results> out(std::vector<Results>{poison});
  cp_async_kernel<<<1, kLanes>>>(src.get(), out.get());
  tessera::test::expect_kernel_ran();
  Results const r = out.to_host()[0];
  uint128_t const zero{0, 0};
  for (int t = 0; t < kLanes; ++t) {
    SCOPED_TRACE("lane " + std::to_string(t));
    EXPECT_EQ(r.ca32[t], s.w32[t]);
    EXPECT_EQ(r.ca64[t], s.w64[t]);
    EXPECT_TRUE(r.ca128[t] == s.w128[t]);
    EXPECT_TRUE(r.cg128[t] == s.w128[t]);
    bool const pred = t % 3 != 0;
    EXPECT_EQ(r.ca32_zfill[t], pred ? s.w32[t] : 0u);
    EXPECT_TRUE(r.ca128_zfill[t] == (pred ? s.w128[t] : zero));
    EXPECT_TRUE(r.cg128_zfill[t] == (pred ? s.w128[t] : zero));
  }
}

// The traits of the copies this test runs: one thread moving the value's bits (host-side check
// that the device test and the traits talk about the same widths).
TEST(ArchCopySm80Device, TraitsWidthsMatchTheCopies) {
  EXPECT_EQ(int(size<1>(Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>>::SrcLayout{})), 32);
  EXPECT_EQ(int(size<1>(Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>>::SrcLayout{})), 64);
  EXPECT_EQ(int(size<1>(Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>::DstLayout{})), 128);
}

}  // namespace
