// Device tests of include/tessera/arch/mma_sm80.hpp (mma.sync) against its traits
// (include/tessera/atom/mma_traits_sm80.hpp): one warp per instruction multiplies known matrices.
//
// The host places every element where the traits say: value v of lane t of A is the element of the
// column-major M x K tile A at ALayout(t, v) (likewise B, N x K, and C, M x N), converted to the
// instruction's value type and packed into the registers in value order (two 16-bit values a
// register: the lower-numbered one in the low half). The warp runs the instruction once, and value
// v of lane t of D must equal the reference A * B^T + C at CLayout(t, v). Inputs are small integers
// (|a|, |b| <= 3, |c| <= 4), so every product and sum is exact in f16, bf16, tf32 and f32 and the
// comparison is exact. Three input sets per instruction: random, A = identity (then D = B^T + C:
// B's k against C's m) and B = identity (D = A + C: A's k against C's n).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/atom/mma_traits_sm80.hpp"
#include "warp_test.hpp"

namespace {

using namespace tessera;
using tessera::test::register_count_v;

// Register bits <-> register values inside the kernel (accumulators are float or uint32_t).
template <class Reg>
__device__ Reg from_bits(std::uint32_t u) {
  if constexpr (std::is_same_v<Reg, float>) {
    return __uint_as_float(u);
  } else {
    return u;
  }
}
__device__ std::uint32_t to_bits(float f) { return __float_as_uint(f); }
__device__ std::uint32_t to_bits(std::uint32_t u) { return u; }

template <class Op, class RD, class RA, class RB, class RC, std::size_t... I, std::size_t... J, std::size_t... K,
          std::size_t... L>
__device__ void call_fma(RD& d, RA const& a, RB const& b, RC const& c, std::index_sequence<I...>,
                         std::index_sequence<J...>, std::index_sequence<K...>, std::index_sequence<L...>) {
  Op::fma(d[I]..., a[J]..., b[K]..., c[L]...);
}

// One warp: lane t loads its registers from a/b/c (n registers a lane, lane-major), runs the
// instruction and stores its D registers to d.
template <class Op>
__global__ void mma_kernel(std::uint32_t const* a, std::uint32_t const* b, std::uint32_t const* c, std::uint32_t* d) {
  constexpr int nd = register_count_v<typename Op::DRegisters>;
  constexpr int na = register_count_v<typename Op::ARegisters>;
  constexpr int nb = register_count_v<typename Op::BRegisters>;
  constexpr int nc = register_count_v<typename Op::CRegisters>;
  int const lane = int(threadIdx.x);
  typename Op::DRegisters rd;
  typename Op::ARegisters ra;
  typename Op::BRegisters rb;
  typename Op::CRegisters rc;
  for (int i = 0; i < na; ++i) ra[i] = a[lane * na + i];
  for (int i = 0; i < nb; ++i) rb[i] = b[lane * nb + i];
  for (int i = 0; i < nc; ++i) rc[i] = from_bits<std::remove_extent_t<typename Op::CRegisters>>(c[lane * nc + i]);
  call_fma<Op>(rd, ra, rb, rc, std::make_index_sequence<nd>{}, std::make_index_sequence<na>{},
               std::make_index_sequence<nb>{}, std::make_index_sequence<nc>{});
  for (int i = 0; i < nd; ++i) d[lane * nd + i] = to_bits(rd[i]);
}

// The storage bits of x as value type V (float, half_t, bfloat16_t, tfloat32_t), and back.
template <class V>
std::uint32_t storage_bits(float x) {
  if constexpr (std::is_same_v<V, float>) {
    return std::bit_cast<std::uint32_t>(x);
  } else {
    return V(x).raw();
  }
}
template <class V>
float from_storage(std::uint32_t bits) {
  if constexpr (std::is_same_v<V, float>) {
    return std::bit_cast<float>(bits);
  } else if constexpr (sizeof(V) == 2) {
    return float(V::bitcast(std::uint16_t(bits)));
  } else {
    return float(V::bitcast(bits));
  }
}

// Registers of all lanes, lane-major: value v of a lane sits in register v / per, at bit (v % per)
// * width, per = 32 / width values a register.
template <class V, class TV>
std::vector<std::uint32_t> pack(TV const& tv, std::vector<float> const& tile, int registers) {
  constexpr int width = sizeof_bits_v<V>;
  constexpr int per = 32 / width;
  std::vector<std::uint32_t> regs(std::size_t(32 * registers), 0u);
  for (int t = 0; t < 32; ++t) {
    for (int v = 0; v < int(size<1>(tv)); ++v) {
      std::uint32_t const bits = storage_bits<V>(tile[std::size_t(tv(t, v))]);
      regs[std::size_t(t * registers + v / per)] |= bits << (width * (v % per));
    }
  }
  return regs;
}
template <class V>
float unpack(std::vector<std::uint32_t> const& regs, int registers, int t, int v) {
  constexpr int width = sizeof_bits_v<V>;
  constexpr int per = 32 / width;
  std::uint32_t const reg = regs[std::size_t(t * registers + v / per)];
  std::uint32_t const mask = width == 32 ? 0xffffffffu : ((1u << width) - 1u);
  return from_storage<V>((reg >> (width * (v % per))) & mask);
}

enum class Inputs { random, a_identity, b_identity };

template <class Op>
void expect_mma_matches_traits(Inputs inputs) {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  using T = MMA_Traits<Op>;
  int const M = get<0>(typename T::Shape_MNK{});
  int const N = get<1>(typename T::Shape_MNK{});
  int const K = get<2>(typename T::Shape_MNK{});
  // Column-major tiles: A (m,k) at m + k*M, B (n,k) at n + k*N, C and D (m,n) at m + n*M.
  std::vector<float> A(std::size_t(M * K)), B(std::size_t(N * K)), C(std::size_t(M * N));
  std::mt19937 gen(20261121u);
  std::uniform_int_distribution<int> ab(-3, 3), cd(-4, 4);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      A[std::size_t(m + k * M)] = inputs == Inputs::a_identity ? float(m == k) : float(ab(gen));
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      B[std::size_t(n + k * N)] = inputs == Inputs::b_identity ? float(n == k) : float(ab(gen));
  for (auto& x : C) x = float(cd(gen));

  constexpr int nd = register_count_v<typename Op::DRegisters>;
  constexpr int na = register_count_v<typename Op::ARegisters>;
  constexpr int nb = register_count_v<typename Op::BRegisters>;
  constexpr int nc = register_count_v<typename Op::CRegisters>;
  tessera::test::DeviceArray<std::uint32_t> a(pack<typename T::ValTypeA>(typename T::ALayout{}, A, na));
  tessera::test::DeviceArray<std::uint32_t> b(pack<typename T::ValTypeB>(typename T::BLayout{}, B, nb));
  tessera::test::DeviceArray<std::uint32_t> c(pack<typename T::ValTypeC>(typename T::CLayout{}, C, nc));
  tessera::test::DeviceArray<std::uint32_t> d(std::vector<std::uint32_t>(std::size_t(32 * nd), 0xFFFFFFFFu));
  mma_kernel<Op><<<1, 32>>>(a.get(), b.get(), c.get(), d.get());
  tessera::test::expect_kernel_ran();
  std::vector<std::uint32_t> const got = d.to_host();

  typename T::CLayout const cl{};  // (lane, value) -> m + n*M
  for (int t = 0; t < 32; ++t) {
    for (int v = 0; v < int(size<1>(cl)); ++v) {
      int const idx = int(cl(t, v));
      int const m = idx % M, n = idx / M;
      float expected = C[std::size_t(idx)];
      for (int k = 0; k < K; ++k) expected += A[std::size_t(m + k * M)] * B[std::size_t(n + k * N)];
      ASSERT_EQ(unpack<typename T::ValTypeD>(got, nd, t, v), expected)
          << "lane " << t << " value " << v << " (m " << m << ", n " << n << ")";
    }
  }
}

template <class Op>
void expect_mma_matches_traits_on_all_inputs() {
  for (Inputs inputs : {Inputs::random, Inputs::a_identity, Inputs::b_identity}) {
    SCOPED_TRACE(inputs == Inputs::random       ? "random inputs"
                 : inputs == Inputs::a_identity ? "A = identity"
                                                : "B = identity");
    expect_mma_matches_traits<Op>(inputs);
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
  }
}

TEST(ArchMmaSm80Device, M16N8K16F32F16F16F32) {
  expect_mma_matches_traits_on_all_inputs<SM80_16x8x16_F32F16F16F32_TN>();
}
TEST(ArchMmaSm80Device, M16N8K16F32BF16BF16F32) {
  expect_mma_matches_traits_on_all_inputs<SM80_16x8x16_F32BF16BF16F32_TN>();
}
TEST(ArchMmaSm80Device, M16N8K8F32TF32TF32F32) {
  expect_mma_matches_traits_on_all_inputs<SM80_16x8x8_F32TF32TF32F32_TN>();
}
TEST(ArchMmaSm80Device, M16N8K8F16F16F16F16) { expect_mma_matches_traits_on_all_inputs<SM80_16x8x8_F16F16F16F16_TN>(); }
TEST(ArchMmaSm80Device, M16N8K16F16F16F16F16) {
  expect_mma_matches_traits_on_all_inputs<SM80_16x8x16_F16F16F16F16_TN>();
}

}  // namespace
