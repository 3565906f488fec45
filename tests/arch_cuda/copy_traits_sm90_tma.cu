// Host tests of include/tessera/atom/copy_traits_sm90_tma.cuh (no GPU needed; in this CUDA-built
// binary because the header needs the CUDA headers): the tensor map's parameters read off a global
// layout and a shared-memory box layout, and the errors for layouts TMA cannot copy.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tessera/atom/copy_traits_sm90_tma.cuh"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/tensor/tensor.hpp"  // make_shape, make_stride

namespace {

using namespace tessera;

// The canonical wgmma stage tiles, swizzled as TMA writes them.
auto k_major_box() {  // (m,k) 128 x 64, rows of 64 K-elements
  return make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_128, _64>{}));
}
auto mn_major_box() {  // (m,k) 64 x 64, K-rows of 64 M-elements
  return make_composed_layout(Swizzle<3, 3, 3>{}, _0{},
                              tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<_64, _64>{}, LayoutRight{}));
}

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
  EXPECT_EQ(tma_box_params(make_layout(make_shape(1, 5), make_stride(3, 1)), Layout<Shape<_1, _8>, Stride<_8, _1>>{}, 2).ld, 8u);
}

TEST(TmaBoxParams, MismatchesAreErrors) {
  // A column-major matrix read through a K-major box: not contiguous along the box's rows.
  EXPECT_EQ(error_of([] { (void)tma_box_params(make_layout(make_shape(300, 200), make_stride(1, 304)), k_major_box(), 2); }),
            "make_tma_desc: the box is contiguous along mode 1 but the global layout (300,200):(1,304) has stride 304 there "
            "(TMA reads rows of contiguous elements)");
  // Rows 128 elements apart in the box: TMA writes them back to back.
  EXPECT_EQ(error_of([] {
              (void)tma_box_params(make_layout(make_shape(64, 64), make_stride(64, 1)), Layout<Shape<_2, _64>, Stride<_128, _1>>{}, 2);
            }),
            "make_tma_desc: the box layout (_2,_64):(_128,_1) puts element (1,0) at offset 128, TMA writes it at 64 (rows of 64 "
            "elements along the global unit-stride mode, one after the other)");
  // A swizzle on 32-byte units (Sw<3,4,3> on 2-byte elements) is not TMA's.
  auto const wrong = make_composed_layout(Swizzle<3, 4, 3>{}, _0{}, tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<_8, _64>{}));
  EXPECT_EQ(error_of([&] { (void)tma_box_params(make_layout(make_shape(64, 64), make_stride(64, 1)), wrong, 2); }),
            "make_tma_desc: the box's swizzle Sw<3,4,3> on 2-byte elements is not a TMA swizzle (16-byte units permuted within "
            "32-, 64- or 128-byte rows: Sw<1..3,3,3>)");
}

}  // namespace
