// Device test: static Tessera layouts evaluated inside a __global__ kernel.
//
// The kernel evaluates a handful of static layouts (compact, composed, zipped_divide, the TV layout
// of make_layout_tv, a swizzled ComposedLayout, a raw crd2idx, a left_inverse, get_1d_coord of a
// make_layout_like) at every index i of a 128-element domain and writes the offsets to global
// memory; the host evaluates the same layouts with the same code compiled for the host and compares
// element by element. The static_asserts below run
// the algebra at compile time in both the host and the device compilation passes of nvcc.
//
// Without a GPU (cudaGetDeviceCount fails or reports 0 devices) every test is skipped with the
// reason; the file must still compile for sm_90a, which is the point of building it in CI.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include "support/gpu_skip.hpp"

#include <string>
#include <type_traits>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

using namespace tessera;

// ---- the layouts under test (all static: empty types, evaluated at compile time) --------------

// (m,n) -> offset, column-major 8x16.
using Compact = decltype(make_layout(make_tuple(_8{}, _16{})));
// (_6,_2):(_8,_2) o (_4,_3):(_3,_1) == ((_2,_2),_3):((_24,_2),_8)  (docs/algebra.md).
using Composed = decltype(composition(make_layout(make_tuple(_6{}, _2{}), make_tuple(_8{}, _2{})),
                                      make_layout(make_tuple(_4{}, _3{}), make_tuple(_3{}, _1{}))));
// (m,n) -> offset of a 16x8 column-major tensor, split into (_4,_4) tiles: ((tile),(rest)).
using Zipped = decltype(zipped_divide(make_layout(make_tuple(_16{}, _8{})), make_tuple(_4{}, _4{})));
// (thr,val) -> index in a (_4,_32) tile: 32 threads (_4,_8):(_8,_1), each holding (_1,_4) values.
using TV = decltype(get<1>(
    make_layout_tv(make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{})), make_layout(make_tuple(_1{}, _4{})))));
// (m,k) -> swizzled smem offset: Sw<3,3,3> o _0 o (_8,_64):(_64,_1) (the 128-value prefix is used).
using Swizzled =
    decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_tuple(_8{}, _64{}), make_tuple(_64{}, _1{}))));
// raw crd2idx on ((_4,_2),_16):((_1,_64),_4).
using CrdShape = decltype(make_tuple(make_tuple(_4{}, _2{}), _16{}));
using CrdStride = decltype(make_tuple(make_tuple(_1{}, _64{}), _4{}));
// offset -> index: left_inverse((_4,_2):(_1,_16)) == (_16,_2):(_1,_4)  (docs/algebra.md).
using LeftInverse = decltype(left_inverse(make_layout(make_tuple(_4{}, _2{}), make_tuple(_1{}, _16{}))));

// offset -> column-major index of a compact row-major 8x16 layout built by make_layout_like:
// get_1d_coord inverts it (the CuTe functions of issue 9 in device code).
using LikeRowMajor = decltype(make_layout_like(make_layout(make_tuple(_8{}, _16{}), make_tuple(_32{}, _2{}))));

constexpr int kDomain = 128;  // every layout above is evaluated at i in [0, 128)
constexpr int kNumLayouts = 8;

// Compile-time checks: the algebra ran in the compiler and produced empty (static) types.
static_assert(decltype(size(Compact{}))::value == 128);
static_assert(std::is_empty_v<Compact>);
static_assert(decltype(size(Composed{}))::value == 12);
static_assert(std::is_empty_v<Composed>);
static_assert(std::is_same_v<Composed, Layout<tuple<tuple<_2, _2>, _3>, tuple<tuple<C<24>, _2>, _8>>>);
static_assert(decltype(size(Zipped{}))::value == 128);
static_assert(decltype(size<0>(Zipped{}))::value == 16);
static_assert(std::is_empty_v<Zipped>);
static_assert(decltype(size(TV{}))::value == 128);
static_assert(std::is_empty_v<TV>);
static_assert(std::is_empty_v<Swizzled>);
static_assert(decltype(size(Swizzled{}))::value == 512);
static_assert(decltype(Compact{}(_3{}, _5{}))::value == 43);
static_assert(decltype(crd2idx(C<13>{}, CrdShape{}, CrdStride{}))::value == 69);  // ((1,1),1) -> 1 + 64 + 4
static_assert(decltype(Swizzle<3, 3, 3>{}(C<64>{}))::value == 72);
static_assert(std::is_same_v<LeftInverse, Layout<tuple<_16, _2>, tuple<_1, _4>>>);
static_assert(std::is_same_v<LikeRowMajor, Layout<tuple<_8, _16>, tuple<_16, _1>>>);
static_assert(std::is_same_v<decltype(LikeRowMajor{}.get_hier_coord(C<35>{})), tuple<_2, _3>>);
static_assert(std::is_same_v<decltype(round_up(make_tuple(C<13>{}, _8{}), make_tuple(_4{}))), tuple<C<16>, _8>>);
static_assert(decltype(max_alignment(Compact{}))::value == 128 && decltype(gcd(_12{}, _8{}))::value == 4);
static_assert(decltype(evenly_divides(make_tuple(_16{}, _8{}), make_tuple(_4{}, _4{})))::value);
static_assert(
    std::is_same_v<decltype(nullspace(make_layout(make_tuple(_2{}, _4{}, _3{}), make_tuple(_0{}, _1{}, _0{})))),
                   Layout<tuple<_2, _3>, tuple<_1, _8>>>);

// Offsets of layout k at index i. One function for host and device so both sides run the same
// algebra; the kernel's results must match the host's bit for bit.
TESSERA_HOST_DEVICE long long offset_of(int k, int i) {
  switch (k) {
    case 0: return static_cast<long long>(Compact{}(i));
    case 1: return static_cast<long long>(Composed{}(i % 12));
    case 2: return static_cast<long long>(Zipped{}(i));
    case 3: return static_cast<long long>(TV{}(i));
    case 4: return static_cast<long long>(Swizzled{}(i));
    case 5: return static_cast<long long>(crd2idx(i, CrdShape{}, CrdStride{}));
    case 6: return static_cast<long long>(LeftInverse{}(i % 32));
    default: return static_cast<long long>(LikeRowMajor{}.get_1d_coord(i));
  }
}

// One thread per index: out[k * kDomain + i] = offset of layout k at i.
__global__ void static_layout_kernel(long long* out) {
  int const i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= kDomain) return;
  TESSERA_UNROLL
  for (int k = 0; k < kNumLayouts; ++k) {
    out[k * kDomain + i] = offset_of(k, i);
  }
  // A coordinate evaluated at compile time in device code, stored by thread 0.
  if (i == 0) {
    constexpr auto c = Compact{}(_3{}, _5{});  // static: _43
    static_assert(std::is_empty_v<decltype(c)>);
    out[kNumLayouts * kDomain] = decltype(c)::value;
  }
}

using tessera::test::no_device_reason;

// Host-only: the layouts print as documented (ties the compile-time types to docs/algebra.md).
TEST(CudaStaticLayout, HostNotation) {
  EXPECT_EQ(to_string(Composed{}), "((_2,_2),_3):((_24,_2),_8)");
  EXPECT_EQ(to_string(Swizzled{}), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(to_string(Compact{}), "(_8,_16):(_1,_8)");
  // The host reference against independent integer formulas.
  for (int i = 0; i < kDomain; ++i) {
    EXPECT_EQ(offset_of(0, i), i) << i;                                           // compact
    long long const inner = (i % 8) * 64 + i / 8;                                 // (_8,_64):(_64,_1)
    EXPECT_EQ(offset_of(4, i), inner ^ ((inner >> 3) & (7 << 3))) << i;           // Sw<3,3,3>
    EXPECT_EQ(offset_of(5, i), (i % 4) + ((i % 8) / 4) * 64 + (i / 8) * 4) << i;  // crd2idx
    EXPECT_EQ(offset_of(6, i), (i % 32) % 16 + ((i % 32) / 16) * 4) << i;         // left_inverse
  }
}

TEST(CudaStaticLayout, KernelMatchesHost) {
  if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  constexpr int n = kNumLayouts * kDomain + 1;
  long long* d_out = nullptr;
  ASSERT_EQ(cudaMalloc(&d_out, n * sizeof(long long)), cudaSuccess);
  ASSERT_EQ(cudaMemset(d_out, 0xff, n * sizeof(long long)), cudaSuccess);
  static_layout_kernel<<<(kDomain + 63) / 64, 64>>>(d_out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<long long> got(n);
  ASSERT_EQ(cudaMemcpy(got.data(), d_out, n * sizeof(long long), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaFree(d_out), cudaSuccess);
  for (int k = 0; k < kNumLayouts; ++k) {
    for (int i = 0; i < kDomain; ++i) {
      ASSERT_EQ(got[k * kDomain + i], offset_of(k, i)) << "layout " << k << " at i = " << i;
    }
  }
  EXPECT_EQ(got[kNumLayouts * kDomain], 43);
}

// ---- dynamic layouts built on the host, evaluated on the device --------------------------------

// The elementwise add's thread-value tiling of a row-major M x N fp16 matrix with run-time extents:
// mA (m,n) -> offset; gA ((TileM,TileN),(RestM,RestN)); tidfrg (thr,val) -> offset in block 0.
struct SeedTiling {
  static auto make(int m, int n) {
    auto mA = make_layout(make_tuple(m, n), make_tuple(n, _1{}));  // (m,n) -> offset
    auto tv = make_layout_tv(make_layout(make_tuple(_4{}, _32{}), make_tuple(_32{}, _1{})),
                             make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{})));
    auto gA = zipped_divide(mA, get<0>(tv));               // ((_16,_256),(m/16,n/256)) -> offset
    auto tidfrg = composition(layout<0>(gA), get<1>(tv));  // (thr,val) -> offset
    return make_tuple(gA, tidfrg);
  }
};
using SeedTilingT = decltype(SeedTiling::make(64, 512));
using GA = std::remove_cvref_t<decltype(get<0>(std::declval<SeedTilingT>()))>;
using TidFrg = std::remove_cvref_t<decltype(get<1>(std::declval<SeedTilingT>()))>;

// Thread t of block b writes, for each of its values v, the offset of (t, v) in block b's tile.
__global__ void dynamic_layout_kernel(GA gA, TidFrg tidfrg, long long* out) {
  int const t = static_cast<int>(threadIdx.x);
  int const b = static_cast<int>(blockIdx.x);
  long long const block_base = static_cast<long long>(gA(make_tuple(_0{}, b)));  // offset of tile b
  for (int v = 0; v < static_cast<int>(size<1>(tidfrg)); ++v) {
    out[(static_cast<long long>(b) * size<0>(tidfrg) + t) * size<1>(tidfrg) + v] = block_base + tidfrg(t, v);
  }
}

TEST(CudaDynamicLayout, ElementwiseAddThreadValueTilingMatchesHost) {
  if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  int const m = 64, n = 512;  // 4 x 2 tiles of (_16,_256)
  auto tiling = SeedTiling::make(m, n);
  GA gA = get<0>(tiling);
  TidFrg tidfrg = get<1>(tiling);
  EXPECT_EQ(to_string(tidfrg), "((_32,_4),(_8,_4)):((_8,2048),(_1,512))");
  int const blocks = static_cast<int>(size<1>(gA));
  int const threads = static_cast<int>(size<0>(tidfrg));
  int const vals = static_cast<int>(size<1>(tidfrg));
  std::size_t const count = std::size_t(blocks) * threads * vals;
  long long* d_out = nullptr;
  ASSERT_EQ(cudaMalloc(&d_out, count * sizeof(long long)), cudaSuccess);
  dynamic_layout_kernel<<<blocks, threads>>>(gA, tidfrg, d_out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<long long> got(count);
  ASSERT_EQ(cudaMemcpy(got.data(), d_out, count * sizeof(long long), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaFree(d_out), cudaSuccess);
  // Every element of the matrix is written exactly once, and (t, v) in tile b is where the host
  // says it is.
  std::vector<int> seen(std::size_t(m) * n, 0);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      for (int v = 0; v < vals; ++v) {
        long long const off = got[(std::size_t(b) * threads + t) * vals + v];
        ASSERT_EQ(off, static_cast<long long>(gA(make_tuple(_0{}, b))) + static_cast<long long>(tidfrg(t, v)));
        ASSERT_GE(off, 0);
        ASSERT_LT(off, static_cast<long long>(m) * n);
        ++seen[std::size_t(off)];
      }
  for (int x : seen) ASSERT_EQ(x, 1);
}

}  // namespace
