// Device tests of the register-A wgmma of include/tessera/arch/mma_sm90.hpp
// (SM90_64xNx16_F32{BF16BF16,F16F16}_RS) against its traits (include/tessera/atom/mma_traits_sm90.hpp):
// one warpgroup loads A (64 x 16) into registers as ALayout says, B (N x 16) into shared memory in
// the canonical K-major 128-byte-swizzled layout (the descriptor from make_gmma_desc), runs one
// wgmma, and writes every accumulator where CLayout says. Small integers make every product and
// sum exact, so D must equal the host's A B exactly.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "warp_test.hpp"

namespace {

using namespace tessera;

// A: 64 x 16 row-major (m, k); B: N x 16 row-major (n, k); D: 64 x N, element (m, n) at m + 64 n.
template <class Op, int N>
__global__ void wgmma_rs_kernel(typename MMA_Traits<Op>::ValTypeA const* A, typename MMA_Traits<Op>::ValTypeB const* B,
                                float* D) {
  using T = typename MMA_Traits<Op>::ValTypeB;
  __shared__ alignas(1024) T sB[N * 64];  // an (N, 64) K-major stage; k >= 16 is zero
  constexpr auto layout = tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<Int<N>, _64>{});  // (n,k) -> offset
  int const t = int(threadIdx.x);
  for (int i = t; i < N * 64; i += 128) {
    int const n = i / 64, k = i % 64;
    sB[Swizzle<3, 3, 3>{}(int(layout(n, k)))] = k < 16 ? B[n * 16 + k] : T(0.0f);  // where the swizzle puts (n,k)
  }
  fence_view_async_shared();  // the stage is read by the wgmma (async proxy)
  __syncthreads();

  typename MMA_Traits<Op>::ALayout const a_layout{};  // (thread, value) -> m + 64 k
  std::uint32_t a[4];
  for (int j = 0; j < 4; ++j) {
    std::uint32_t bits = 0;
    for (int e = 0; e < 2; ++e) {
      int const idx = int(a_layout(t, 2 * j + e));
      bits |= std::uint32_t(__builtin_bit_cast(std::uint16_t, A[(idx % 64) * 16 + idx / 64])) << (16 * e);
    }
    a[j] = bits;
  }
  float d[N / 2];
  std::uint64_t const desc_b = make_gmma_desc<GmmaMajor::K, N>(smem_address(sB), layout, 0, 0);
  for (float& x : d) warpgroup_fence_operand(x);
  warpgroup_arrive();
  Op::fma(a[0], a[1], a[2], a[3], desc_b, d, GmmaScale::zero);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  for (float& x : d) warpgroup_fence_operand(x);
  typename MMA_Traits<Op>::CLayout const c_layout{};  // (thread, value) -> m + 64 n
  for (int i = 0; i < N / 2; ++i) D[int(c_layout(t, i))] = d[i];
}

template <class Op>
void expect_wgmma_rs_exact() {
  using T = typename MMA_Traits<Op>::ValTypeA;
  constexpr int N = int(get<1>(typename MMA_Traits<Op>::Shape_MNK{}));
  SCOPED_TRACE("N = " + std::to_string(N));
  std::vector<T> a(64 * 16), b(std::size_t(N) * 16);
  std::vector<float> fa(a.size()), fb(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) fa[i] = float(int((i * 7 + 3) % 9) - 4), a[i] = T(fa[i]);
  for (std::size_t i = 0; i < b.size(); ++i) fb[i] = float(int((i * 5 + 1) % 7) - 3), b[i] = T(fb[i]);
  tessera::test::DeviceArray<T> da(a), db(b);
  tessera::test::DeviceArray<float> dd(std::vector<float>(std::size_t(64) * N, -1e30f));
  wgmma_rs_kernel<Op, N><<<1, 128>>>(da.get(), db.get(), dd.get());
  tessera::test::expect_kernel_ran();
  std::vector<float> const got = dd.to_host();
  int bad = 0;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n) {
      float want = 0.0f;
      for (int k = 0; k < 16; ++k) want += fa[std::size_t(m) * 16 + k] * fb[std::size_t(n) * 16 + k];
      if (got[std::size_t(m) + 64 * std::size_t(n)] != want && bad++ < 5)
        ADD_FAILURE() << "D(" << m << "," << n << ") = " << got[std::size_t(m) + 64 * std::size_t(n)] << ", want "
                      << want;
    }
  EXPECT_EQ(bad, 0);
}

// The same with B (N x 16) in shared memory in every canonical form of arch/wgmma_rules.hpp: K- or
// MN-major, unswizzled or under the 32-, 64-, 128-byte swizzle, the stage tile_to_shape of
// GmmaLayoutAtom<MajorB, Bits> and its descriptor from make_gmma_desc (the encoding
// tests/tools/check.cpp compares with `tessera check wgmma` on the CPU). A wrong LBO, SBO or layout
// type reads B from the wrong places: D differs from A B.
template <class Op, int N, GmmaMajor MajorB, int Bits>
__global__ void wgmma_rs_form_kernel(half_t const* A, half_t const* B, float* D) {
  constexpr int K = MajorB == GmmaMajor::K ? 64 : 16;  // K-major: rows of every swizzle's width
  __shared__ alignas(1024) half_t sB[N * K];
  using Atom = GmmaLayoutAtom<MajorB, Bits>;
  constexpr auto inner = [] {
    if constexpr (Bits == 0) return Atom{};
    else return Atom{}.inner();
  }();
  constexpr auto layout = [&] {  // (n,k) -> offset before the swizzle
    if constexpr (MajorB == GmmaMajor::K) return tile_to_shape(inner, Shape<Int<N>, Int<K>>{});
    else return tile_to_shape(inner, Shape<Int<N>, Int<K>>{}, LayoutRight{});
  }();
  int const t = int(threadIdx.x);
  for (int i = t; i < N * K; i += 128) {
    int const n = i / K, k = i % K;
    sB[Swizzle<Bits, 3, 3>{}(int(layout(n, k)))] = k < 16 ? B[n * 16 + k] : half_t(0.0f);
  }
  fence_view_async_shared();
  __syncthreads();
  typename MMA_Traits<Op>::ALayout const a_layout{};  // (thread, value) -> m + 64 k
  std::uint32_t a[4];
  for (int j = 0; j < 4; ++j) {
    std::uint32_t bits = 0;
    for (int e = 0; e < 2; ++e) {
      int const idx = int(a_layout(t, 2 * j + e));
      bits |= std::uint32_t(__builtin_bit_cast(std::uint16_t, A[(idx % 64) * 16 + idx / 64])) << (16 * e);
    }
    a[j] = bits;
  }
  float d[N / 2];
  std::uint64_t const desc_b = make_gmma_desc<MajorB, N, 2, Bits>(smem_address(sB), layout, 0, 0);
  for (float& x : d) warpgroup_fence_operand(x);
  warpgroup_arrive();
  Op::fma(a[0], a[1], a[2], a[3], desc_b, d, GmmaScale::zero);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  for (float& x : d) warpgroup_fence_operand(x);
  typename MMA_Traits<Op>::CLayout const c_layout{};  // (thread, value) -> m + 64 n
  for (int i = 0; i < N / 2; ++i) D[int(c_layout(t, i))] = d[i];
}

template <int N, GmmaMajor MajorB, int Bits>
void expect_wgmma_form_exact() {
  using Op = std::conditional_t<N == 64, SM90_64x64x16_F32F16F16_RS<GmmaMajor::K, MajorB>,
                                SM90_64x128x16_F32F16F16_RS<GmmaMajor::K, MajorB>>;
  SCOPED_TRACE("N = " + std::to_string(N) + (MajorB == GmmaMajor::K ? ", K-major" : ", MN-major") + ", swizzle " +
               (Bits == 0 ? std::string("none") : std::to_string(16 << Bits) + " bytes"));
  std::vector<half_t> a(64 * 16), b(std::size_t(N) * 16);
  std::vector<float> fa(a.size()), fb(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) fa[i] = float(int((i * 7 + 3) % 9) - 4), a[i] = half_t(fa[i]);
  for (std::size_t i = 0; i < b.size(); ++i) fb[i] = float(int((i * 5 + 1) % 7) - 3), b[i] = half_t(fb[i]);
  tessera::test::DeviceArray<half_t> da(a), db(b);
  tessera::test::DeviceArray<float> dd(std::vector<float>(std::size_t(64) * N, -1e30f));
  wgmma_rs_form_kernel<Op, N, MajorB, Bits><<<1, 128>>>(da.get(), db.get(), dd.get());
  tessera::test::expect_kernel_ran();
  std::vector<float> const got = dd.to_host();
  int bad = 0;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n) {
      float want = 0.0f;
      for (int k = 0; k < 16; ++k) want += fa[std::size_t(m) * 16 + k] * fb[std::size_t(n) * 16 + k];
      if (got[std::size_t(m) + 64 * std::size_t(n)] != want && bad++ < 5)
        ADD_FAILURE() << "D(" << m << "," << n << ") = " << got[std::size_t(m) + 64 * std::size_t(n)] << ", want "
                      << want;
    }
  EXPECT_EQ(bad, 0);
}

class ArchMmaSm90Device : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_F(ArchMmaSm90Device, RegisterAMatchesTraits) {
  expect_wgmma_rs_exact<SM90_64x16x16_F32BF16BF16_RS<>>();
  expect_wgmma_rs_exact<SM90_64x64x16_F32BF16BF16_RS<>>();
  expect_wgmma_rs_exact<SM90_64x128x16_F32F16F16_RS<>>();
  expect_wgmma_rs_exact<SM90_64x256x16_F32F16F16_RS<>>();
}

// Written without a GPU at hand (issue 34): the 128-byte forms are those the kernels run; a failure
// of another names the form whose rules (arch/wgmma_rules.hpp, make_gmma_desc) are wrong.
TEST_F(ArchMmaSm90Device, EveryDescriptorFormOfBMatchesTraits) {
  expect_wgmma_form_exact<64, GmmaMajor::K, 0>();
  expect_wgmma_form_exact<64, GmmaMajor::K, 1>();
  expect_wgmma_form_exact<64, GmmaMajor::K, 2>();
  expect_wgmma_form_exact<64, GmmaMajor::K, 3>();
  expect_wgmma_form_exact<128, GmmaMajor::K, 2>();
  expect_wgmma_form_exact<64, GmmaMajor::MN, 0>();
  expect_wgmma_form_exact<64, GmmaMajor::MN, 1>();
  expect_wgmma_form_exact<64, GmmaMajor::MN, 2>();
  expect_wgmma_form_exact<64, GmmaMajor::MN, 3>();
  expect_wgmma_form_exact<128, GmmaMajor::MN, 1>();
  expect_wgmma_form_exact<128, GmmaMajor::MN, 3>();
}

}  // namespace
