// TMA tensor maps derived from layouts: the global matrix is a 2-D layout with one unit-stride mode,
// the shared-memory box is the (static) layout the kernel reads it through, swizzled or not; the
// box's extents, the row pitch and the swizzle mode are read off the two layouts, and every
// mismatch is an error that names it. The copies themselves are arch/copy_sm90_tma.cuh's.
//
//   tma_box_params(gmem, box, elem_bytes)   host: what the tensor map needs (TmaBoxParams), checked
//   make_tma_desc(ptr, gmem, box)           host: the tensor map (TmaDescriptor) of ptr's matrix
//
// The box layout maps the box's coordinates, in the global layout's mode order, to element offsets
// in shared memory. TMA writes the box row by row along the global unit-stride mode ("inner"),
// rows box_inner elements long, and permutes each row's 16-byte units by the swizzle: element
// (inner x, outer y) lands at swz(y box_inner + x). So the box layout must be
//   Layout: (x, y) -> y box_inner + x                           (no swizzle)
//   Swizzle<B, M, 3> o Layout, offset 0, with M + log2(elem_bytes) = 4 (16-byte units):
//     the 32-, 64- or 128-byte swizzle for B = 1, 2, 3 (box_inner elem_bytes <= the span)
// Example: a K-major bf16 operand A (M,K) row-major, ld = K, read in 128 x 64 boxes through the
// canonical stage layout of wgmma (atom/mma_traits_sm90.hpp):
//   auto box = make_composed_layout(Swizzle<3,3,3>{}, _0{}, tile_to_shape(GmmaLayoutKSw128Atom{}.inner(),
//                                   Shape<_128, _64>{}));                     // (m,k) -> offset
//   make_tma_desc(a, make_layout(make_shape(M, K), make_stride(K, _1{})), box)
//     -> inner = K, outer = M, ld = K, box 64 (k) x 128 (m), TmaSwizzle::b128.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/core/layout.hpp"
#include "tessera/core/print.hpp"
#include "tessera/core/swizzle.hpp"

namespace tessera {

// What a 2-D tensor map needs (make_tma_desc_2d's arguments but the pointer and element size).
struct TmaBoxParams {
  std::uint64_t inner = 0, outer = 0;  // the matrix: `outer` rows of `inner` contiguous elements
  std::uint64_t ld = 0;                // elements from one row to the next
  std::uint32_t box_inner = 0, box_outer = 0;
  TmaSwizzle swizzle = TmaSwizzle::none;
  int inner_mode = 0;  // the global layout's mode that is contiguous (0 or 1)
};

namespace detail {
// Throws invalid_argument("make_tma_desc: " + what()) unless ok; the message is built only then
// (tensor maps are made on every launch).
template <class What>
void tma_layout_require(bool ok, What const& what) {
  if (!ok) throw std::invalid_argument("make_tma_desc: " + std::string(what()));
}

template <class Box>
struct TmaBoxSwizzle {  // a plain layout: no swizzle
  static constexpr int bits = 0, base = 0, shift = 0;
  static constexpr bool composed = false;
};
template <int B, int M, int S, class Offset, class Inner>
struct TmaBoxSwizzle<ComposedLayout<Swizzle<B, M, S>, Offset, Inner>> {
  static constexpr int bits = B, base = M, shift = S;
  static constexpr bool composed = true;
};
}  // namespace detail

// tma_box_params(gmem, box, elem_bytes): the tensor map's parameters for boxes laid out as `box`
// (static, rank 2, or a Swizzle composed with one) of the 2-D matrix `gmem` (run-time or static
// shape and strides, stride 1 along the box's contiguous mode, the other a positive row pitch).
// Errors (std::invalid_argument "make_tma_desc: ..."): the global layout not contiguous along the
// box's contiguous mode; a box that is not TMA's row
// order (the first element that differs is named); a swizzle TMA does not have; the limits of
// make_tma_desc_2d (checked there: pitch a multiple of 16 bytes, box extents 1..256, box rows
// within the swizzle span).
template <class GShape, class GStride, class Box>
TmaBoxParams tma_box_params(Layout<GShape, GStride> const& gmem, Box const& box, int elem_bytes) {
  static_assert(decltype(rank(Layout<GShape, GStride>{}))::value == 2, "make_tma_desc: the global layout must have rank 2 (rows, columns)");
  using Sw = detail::TmaBoxSwizzle<Box>;
  auto const inner_layout = [&] {
    if constexpr (Sw::composed) {
      static_assert(decltype(box.offset())::value == 0, "make_tma_desc: a swizzled box layout must have offset 0");
      return box.inner();
    } else {
      return box;
    }
  }();
  static_assert(is_static_v<std::remove_cvref_t<decltype(inner_layout)>>, "make_tma_desc: the box layout must be static");
  static_assert(decltype(rank(inner_layout))::value == 2, "make_tma_desc: the box layout must have rank 2, in the global layout's mode order");

  long long const g0 = size<0>(gmem), g1 = size<1>(gmem);
  long long const s0 = stride<0>(gmem), s1 = stride<1>(gmem);
  TmaBoxParams p;
  // The box's contiguous mode is TMA's inner dimension; the global matrix must be contiguous there.
  p.inner_mode = int(size<0>(inner_layout)) > 1 && (long long)inner_layout(1, 0) == 1 ? 0 : 1;
  long long const s_inner = p.inner_mode == 0 ? s0 : s1, g_inner = p.inner_mode == 0 ? g0 : g1;
  detail::tma_layout_require(s_inner == 1 || g_inner == 1, [&] {
    return "the box is contiguous along mode " + std::to_string(p.inner_mode) + " but the global layout " + to_string(gmem) +
           " has stride " + std::to_string(s_inner) + " there (TMA reads rows of contiguous elements)";
  });
  long long const inner = p.inner_mode == 0 ? g0 : g1, outer = p.inner_mode == 0 ? g1 : g0;
  long long const pitch = p.inner_mode == 0 ? s1 : s0;
  detail::tma_layout_require(outer == 1 || pitch > 0,
                             [&] { return "the row pitch of " + to_string(gmem) + " must be positive, got " + std::to_string(pitch); });
  p.inner = std::uint64_t(inner);
  p.outer = std::uint64_t(outer);
  // one row: the pitch is never used; the smallest that TMA accepts
  long long const one_row_pitch = (inner * elem_bytes + 15) / 16 * 16 / std::max(elem_bytes, 1);
  p.ld = std::uint64_t(outer == 1 ? one_row_pitch : pitch);

  int const b_inner = p.inner_mode == 0 ? int(size<0>(inner_layout)) : int(size<1>(inner_layout));
  int const b_outer = p.inner_mode == 0 ? int(size<1>(inner_layout)) : int(size<0>(inner_layout));
  p.box_inner = std::uint32_t(b_inner);
  p.box_outer = std::uint32_t(b_outer);

  if constexpr (Sw::composed) {
    int const unit = Sw::base + (elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3);
    detail::tma_layout_require(unit == 4 && Sw::shift == 3 && Sw::bits >= 1 && Sw::bits <= 3, [&] {
      return "the box's swizzle Sw<" + std::to_string(Sw::bits) + "," + std::to_string(Sw::base) + "," + std::to_string(Sw::shift) +
             "> on " + std::to_string(elem_bytes) +
             "-byte elements is not a TMA swizzle (16-byte units permuted within 32-, 64- or "
             "128-byte rows: Sw<1..3," +
             std::to_string(4 - (unit - Sw::base)) + ",3>)";
    });
    p.swizzle = Sw::bits == 3 ? TmaSwizzle::b128 : Sw::bits == 2 ? TmaSwizzle::b64 : TmaSwizzle::b32;
  }
  // TMA's row order: element (x inner, y outer) at y * box_inner + x before the swizzle. The box
  // layout is static, so this is checked once per box type (the first element out of order, or -1).
  static long long const out_of_order = [] {
    using InnerLayout = std::remove_cvref_t<decltype(inner_layout)>;
    InnerLayout const il{};
    int const mode = int(size<0>(il)) > 1 && (long long)il(1, 0) == 1 ? 0 : 1;
    int const bi = mode == 0 ? int(size<0>(il)) : int(size<1>(il)), bo = mode == 0 ? int(size<1>(il)) : int(size<0>(il));
    for (int y = 0; y < bo; ++y)
      for (int x = 0; x < bi; ++x)
        if ((mode == 0 ? (long long)il(x, y) : (long long)il(y, x)) != (long long)y * bi + x) return (long long)y * bi + x;
    return -1LL;
  }();
  if (out_of_order >= 0) {
    int const x = int(out_of_order % b_inner), y = int(out_of_order / b_inner);
    long long const got = p.inner_mode == 0 ? (long long)inner_layout(x, y) : (long long)inner_layout(y, x);
    detail::tma_layout_require(false, [&] {
      std::string const coord = p.inner_mode == 0 ? "(" + std::to_string(x) + "," + std::to_string(y) + ")"
                                                  : "(" + std::to_string(y) + "," + std::to_string(x) + ")";
      return "the box layout " + to_string(inner_layout) + " puts element " + coord + " at offset " + std::to_string(got) +
             ", TMA writes it at " + std::to_string(out_of_order) + " (rows of " + std::to_string(b_inner) +
             " elements along the global unit-stride mode, one after the other)";
    });
  }
  return p;
}

// make_tma_desc(ptr, gmem, box): the tensor map of the matrix at ptr (device memory) laid out as
// `gmem`, read or written in boxes laid out in shared memory as `box` (tma_box_params; then
// make_tma_desc_2d's checks). Pre: a box's shared memory is aligned to 128 bytes (1024 with a
// 128-byte swizzle).
template <class T, class GShape, class GStride, class Box>
TmaDescriptor make_tma_desc(T const* ptr, Layout<GShape, GStride> const& gmem, Box const& box) {
  TmaBoxParams const p = tma_box_params(gmem, box, int(sizeof(T)));
  return make_tma_desc_2d(ptr, int(sizeof(T)), p.inner, p.outer, p.ld, p.box_inner, p.box_outer, p.swizzle);
}

}  // namespace tessera
