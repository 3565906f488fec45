// Host tests of include/tessera/atom/copy_traits_sm90_tma.cuh (no GPU needed; in this CUDA-built
// binary because the header needs the CUDA headers): the tensor map's parameters read off a global
// layout and a shared-memory box layout, and the errors for layouts TMA cannot copy.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/tensor/tensor.hpp"  // make_shape, make_stride
#include "tessera/tensor/tiling.hpp"  // local_tile
#include "tma_layouts.hpp"

namespace {

using namespace tessera;

using test::box_of;
using test::stages;
// The canonical wgmma stage tiles, swizzled as TMA writes them.
auto k_major_box() { return box_of<128, true>(); }    // (m,k) 128 x 64, rows of 64 K-elements
auto mn_major_box() { return box_of<128, false>(); }  // (m,k) 64 x 64, K-rows of 64 M-elements

std::string error_of(auto&& f) {
  try {
    f();
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TmaBoxParams, KMajorOperand) {
  // A (300, 200) row-major with ld 208 (416 bytes): rows of K.
  TmaBoxParams const p = tma_box_params(make_layout(make_shape(300, 200), make_stride(208, 1)), k_major_box(), 2);
  EXPECT_EQ(p.inner_mode, 1);
  EXPECT_EQ(p.inner, 200u);
  EXPECT_EQ(p.outer, 300u);
  EXPECT_EQ(p.ld, 208u);
  EXPECT_EQ(p.box_inner, 64u);
  EXPECT_EQ(p.box_outer, 128u);
  EXPECT_EQ(p.swizzle, TmaSwizzle::b128);
}

TEST(TmaBoxParams, MNMajorOperand) {
  // A (300, 200) column-major with ld 304: rows of M; one box is a 64-wide M chunk of 64 K-rows.
  TmaBoxParams const p = tma_box_params(make_layout(make_shape(300, 200), make_stride(1, 304)), mn_major_box(), 2);
  EXPECT_EQ(p.inner_mode, 0);
  EXPECT_EQ(p.inner, 300u);
  EXPECT_EQ(p.outer, 200u);
  EXPECT_EQ(p.ld, 304u);
  EXPECT_EQ(p.box_inner, 64u);
  EXPECT_EQ(p.box_outer, 64u);
  EXPECT_EQ(p.swizzle, TmaSwizzle::b128);
}

TEST(TmaBoxParams, SwizzleModesAndPlainBoxes) {
  auto const g = make_layout(make_shape(100, 96), make_stride(96, _1{}));
  // fp32 rows of 32 (128 bytes): 16-byte units are 4 elements, Sw<3,2,3>.
  auto const f32 = make_composed_layout(Swizzle<3, 2, 3>{}, _0{}, Layout<Shape<_64, _32>, Stride<_32, _1>>{});
  EXPECT_EQ(tma_box_params(g, f32, 4).swizzle, TmaSwizzle::b128);
  // 16-bit rows of 32 (64 bytes): Sw<2,3,3>.
  auto const b64 = make_composed_layout(Swizzle<2, 3, 3>{}, _0{}, Layout<Shape<_16, _32>, Stride<_32, _1>>{});
  EXPECT_EQ(tma_box_params(g, b64, 2).swizzle, TmaSwizzle::b64);
  TmaBoxParams const plain = tma_box_params(g, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, 2);
  EXPECT_EQ(plain.swizzle, TmaSwizzle::none);
  EXPECT_EQ(plain.box_inner, 16u);
  EXPECT_EQ(plain.box_outer, 8u);
  // One row: any pitch; the smallest TMA accepts is given.
  EXPECT_EQ(
      tma_box_params(make_layout(make_shape(1, 5), make_stride(3, 1)), Layout<Shape<_1, _8>, Stride<_8, _1>>{}, 2).ld,
      8u);
}

TEST(TmaBoxParams, MismatchesAreErrors) {
  // A column-major matrix read through a K-major box: not contiguous along the box's rows.
  EXPECT_EQ(
      error_of([] { (void)tma_box_params(make_layout(make_shape(300, 200), make_stride(1, 304)), k_major_box(), 2); }),
      "make_tma_desc: the box is contiguous along mode 1 but the global layout (300,200):(1,304) has stride 304 there "
      "(TMA reads rows of contiguous elements)");
  // Rows 128 elements apart in the box: TMA writes them back to back.
  EXPECT_EQ(error_of([] {
              (void)tma_box_params(make_layout(make_shape(64, 64), make_stride(64, 1)),
                                   Layout<Shape<_2, _64>, Stride<_128, _1>>{}, 2);
            }),
            "make_tma_desc: the box layout (_2,_64):(_128,_1) puts element (1,0) at offset 128, TMA writes it at 64 "
            "(rows of 64 "
            "elements along the global unit-stride mode, one after the other)");
  // A swizzle on 32-byte units (Sw<3,4,3> on 2-byte elements) is not TMA's.
  auto const wrong =
      make_composed_layout(Swizzle<3, 4, 3>{}, _0{}, tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_8, _64>{}));
  EXPECT_EQ(error_of([&] { (void)tma_box_params(make_layout(make_shape(64, 64), make_stride(64, 1)), wrong, 2); }),
            "make_tma_desc: the box's swizzle Sw<3,4,3> on 2-byte elements is not a TMA swizzle (16-byte units "
            "permuted within "
            "32-, 64- or 128-byte rows: Sw<1..3,3,3>)");
}

// ---- TmaCopy and tma_partition (host: coordinates and shared-memory addresses only) ---------------

// The box's contiguous mode (TMA's inner dimension), the examples of its contract.
static_assert(tessera::detail::tma_box_inner_mode<Layout<Shape<_64, _8>, Stride<_1, _64>>> == 0);
static_assert(tessera::detail::tma_box_inner_mode<Layout<Shape<_8, _64>, Stride<_64, _1>>> == 1);

TEST(TmaPartition, KMajorTileIsOneBox) {
  using Box = decltype(box_of<128, true>());
  TmaCopy<SM90_TMA_LOAD, bfloat16_t, Box> const tma{};
  static_assert(decltype(tma)::kInnerMode == 1 && decltype(tma)::kBoxBytes == 128 * 64 * 2);
  static bfloat16_t smem[4 * 128 * 64];
  auto const sA = make_tensor(make_smem_ptr(smem), stages<128, true, 4>());  // (128,64,PIPE)
  auto const gA =
      local_tile(tma.get_tma_tensor(make_shape(1000, 700)), Shape<_128, _64>{}, make_coord(3, _));  // (128,64,k)
  auto const [tAgA, tAsA] = tma_partition(tma, sA, gA);
  EXPECT_EQ(int(size<1>(tAsA)), 1);                // BOXES
  EXPECT_EQ(int(size<2>(tAgA)), (700 + 63) / 64);  // k tiles
  EXPECT_EQ(int(size<2>(tAsA)), 4);                // stages
  for (int kt = 0; kt < int(size<2>(tAgA)); ++kt) {
    auto const c = tAgA(0, 0, kt);
    EXPECT_EQ(int(get<0>(c)), 3 * 128);
    EXPECT_EQ(int(get<1>(c)), kt * 64);
  }
  for (int s = 0; s < 4; ++s) EXPECT_EQ(&tAsA(0, 0, s), smem + s * 128 * 64);
}

TEST(TmaPartition, MnMajorTileIsChunksOf64) {
  using Box = decltype(box_of<128, false>());  // (64,64): 64 M-elements by 64 K-rows
  TmaCopy<SM90_TMA_LOAD, half_t, Box> const tma{};
  static_assert(decltype(tma)::kInnerMode == 0 && decltype(tma)::kBoxBytes == 64 * 64 * 2);
  static half_t smem[2 * 128 * 64];
  auto const sA = make_tensor(make_smem_ptr(smem), stages<128, false, 2>());
  auto const gA = local_tile(tma.get_tma_tensor(make_shape(512, 256)), Shape<_128, _64>{}, make_coord(2, _));
  auto const [tAgA, tAsA] = tma_partition(tma, sA, gA);
  ASSERT_EQ(int(size<1>(tAsA)), 2);  // two 64-wide chunks of M
  for (int j = 0; j < 2; ++j) {
    for (int kt = 0; kt < 4; ++kt) {
      EXPECT_EQ(int(get<0>(tAgA(0, j, kt))), 2 * 128 + 64 * j);
      EXPECT_EQ(int(get<1>(tAgA(0, j, kt))), 64 * kt);
    }
    for (int s = 0; s < 2; ++s) EXPECT_EQ(&tAsA(0, j, s), smem + s * 128 * 64 + j * 64 * 64);
  }
}

TEST(TmaPartition, MulticastSharesTheBoxesAmongBlocks) {
  // K-major B (256,64) tile loaded by a cluster of 2 blocks: boxes of 128 rows, one each.
  {
    using Box = decltype(box_of<128, true>());
    TmaCopy<SM90_TMA_LOAD_MULTICAST, bfloat16_t, Box> const tma{};
    static bfloat16_t smem[256 * 64];
    auto const sB = make_tensor(make_smem_ptr(smem), stages<256, true, 1>());
    auto const gB = local_tile(tma.get_tma_tensor(make_shape(1024, 512)), Shape<_256, _64>{}, make_coord(1, _));
    for (int rank = 0; rank < 2; ++rank) {
      auto const [tBgB, tBsB] = tma_partition(tma, sB, gB, rank, Int<2>{});
      ASSERT_EQ(int(size<1>(tBsB)), 1);
      EXPECT_EQ(int(get<0>(tBgB(0, 0, 5))), 256 + 128 * rank);
      EXPECT_EQ(int(get<1>(tBgB(0, 0, 5))), 5 * 64);
      EXPECT_EQ(&tBsB(0, 0, 0), smem + rank * 128 * 64);
    }
  }
  // MN-major B (256,64): four 64-wide chunks; block r of 2 loads chunks r and r + 2.
  {
    using Box = decltype(box_of<256, false>());
    TmaCopy<SM90_TMA_LOAD_MULTICAST, bfloat16_t, Box> const tma{};
    static bfloat16_t smem[256 * 64];
    auto const sB = make_tensor(make_smem_ptr(smem), stages<256, false, 1>());
    auto const gB = local_tile(tma.get_tma_tensor(make_shape(1024, 512)), Shape<_256, _64>{}, make_coord(0, _));
    for (int rank = 0; rank < 2; ++rank) {
      auto const [tBgB, tBsB] = tma_partition(tma, sB, gB, rank, Int<2>{});
      ASSERT_EQ(int(size<1>(tBsB)), 2);
      for (int i = 0; i < 2; ++i) {
        int const chunk = rank + 2 * i;
        EXPECT_EQ(int(get<0>(tBgB(0, i, 1))), 64 * chunk);
        EXPECT_EQ(int(get<1>(tBgB(0, i, 1))), 64);
        EXPECT_EQ(&tBsB(0, i, 0), smem + chunk * 64 * 64);
      }
    }
  }
}

TEST(TmaPartition, StoreBoxesOfAnEpilogueRow) {
  // D row-major, stored in boxes of 64 rows x 64 bf16 columns (128 bytes, 128-byte swizzle) from
  // a (64,128) staging tile of two boxes side by side.
  using Box = decltype(make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{}));
  TmaCopy<SM90_TMA_STORE, bfloat16_t, Box> const tma{};
  static_assert(decltype(tma)::kInnerMode == 1);
  static bfloat16_t smem[64 * 128];
  // (64,128) -> smem: the two boxes 4096 elements apart
  auto const sD =
      make_tensor(make_smem_ptr(smem), Layout<Shape<_64, Shape<_64, _2>>, Stride<_64, Stride<_1, Int<4096>>>>{});
  auto const gD = local_tile(tma.get_tma_tensor(make_shape(300, 1000)), Shape<_64, _128>{}, make_coord(1, 2));
  auto const [tDgD, tDsD] = tma_partition(tma, sD, gD);
  ASSERT_EQ(int(size<1>(tDsD)), 2);
  for (int j = 0; j < 2; ++j) {
    EXPECT_EQ(int(get<0>(tDgD(0, j))), 64);
    EXPECT_EQ(int(get<1>(tDgD(0, j))), 256 + 64 * j);
    EXPECT_EQ(&tDsD(0, j), smem + 4096 * j);
  }
}

}  // namespace
