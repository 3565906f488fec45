// TMA tensor maps derived from layouts: the global matrix is a 2-D layout with one unit-stride mode,
// the shared-memory box is the (static) layout the kernel reads it through, swizzled or not; the
// box's extents, the row pitch and the swizzle mode are read off the two layouts, and every
// mismatch is an error that names it. The copies themselves are arch/copy_sm90_tma.cuh's.
//
//   tma_box_params(gmem, box, elem_bytes)   host: what the tensor map needs (TmaBoxParams), checked
//   make_tma_desc(ptr, gmem, box)           host: the tensor map (TmaDescriptor) of ptr's matrix
//   make_tma_copy(Op, ptr, gmem, box)       host: a TmaCopy<Op, T, Box>, the tensor map with its box
//                                           as types (Op: SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST or
//                                           SM90_TMA_STORE); a kernel parameter (__grid_constant__)
//   tma_partition(tma, sX, gX[, rank, n])   device or host: shared-memory tiles and the global
//                                           coordinates of their boxes, (BOX,BOXES,rest...) each;
//                                           with (rank, n), block `rank` of n keeps every n-th box
//   copy(tma.with(bar[, mask]), tXgX, tXsX) one TMA load per box (multicast to `mask`'s blocks)
//   copy(tma, tXsX, tXgX)                   one TMA store per box
//
// The box layout maps the box's coordinates, in the global layout's mode order, to element offsets
// in shared memory. TMA writes the box row by row along the global unit-stride mode ("inner"),
// rows box_inner elements long, and permutes each row's 16-byte units by the swizzle: element
// (inner x, outer y) lands at swz(y pitch + x), pitch = box_inner unswizzled and the swizzle's span
// (in elements) when swizzled: TMA pads a narrower row to the span (arch/tma_tile_rules.hpp's
// tma_row_pitch). So the box layout must be
//   Layout: (x, y) -> y box_inner + x                           (no swizzle)
//   Swizzle<B, M, 3> o Layout, offset 0, with M + log2(elem_bytes) = 4 (16-byte units):
//     the 32-, 64- or 128-byte swizzle for B = 1, 2, 3 (box_inner elem_bytes <= the span),
//     Layout: (x, y) -> y span/elem_bytes + x
// Example: a K-major bf16 operand A (M,K) row-major, ld = K, read in 128 x 64 boxes through the
// canonical stage layout of wgmma (atom/mma_traits_sm90.hpp):
//   auto box = make_composed_layout(Swizzle<3,3,3>{}, _0{}, tile_to_shape(GmmaLayoutKSw128Atom{}.inner(),
//                                   Shape<_128, _64>{}));                     // (m,k) -> offset
//   make_tma_desc(a, make_layout(make_shape(M, K), make_stride(K, _1{})), box)
//     -> inner = K, outer = M, ld = K, box 64 (k) x 128 (m), TmaSwizzle::b128.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: checking a box and encoding its tensor map
#include <algorithm>
#include <stdexcept>
#include <string>
#endif

#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/arch/tma_tile_rules.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/print.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/core/swizzle.hpp"
#include "tessera/tensor/tensor.hpp"

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
#if !defined(__CUDACC_RTC__)  // host only: exceptions, strings
// Throws invalid_argument("make_tma_desc: " + what()) unless ok; the message is built only then
// (tensor maps are made on every launch).
template <class What>
void tma_layout_require(bool ok, What const& what) {
  if (!ok) throw std::invalid_argument("make_tma_desc: " + std::string(what()));
}
#endif  // !__CUDACC_RTC__

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

// The contiguous mode of a static rank-2 box layout, TMA's inner dimension: 0 when the box's
// element (1,0) is at offset 1, else 1. E.g. (_64,_8):(_1,_64) -> 0, (_8,_64):(_64,_1) -> 1.
template <class InnerLayout>
inline constexpr int tma_box_inner_mode = [] {
  constexpr InnerLayout b{};
  return int(decltype(size<0>(b))::value) > 1 && (long long)b(1, 0) == 1 ? 0 : 1;
}();
}  // namespace detail

#if !defined(__CUDACC_RTC__)  // host only: a tensor map is made on the host and passed to the kernel
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
  static_assert(decltype(rank(Layout<GShape, GStride>{}))::value == 2,
                "make_tma_desc: the global layout must have rank 2 (rows, columns)");
  using Sw = detail::TmaBoxSwizzle<Box>;
  auto const inner_layout = [&] {
    if constexpr (Sw::composed) {
      static_assert(decltype(box.offset())::value == 0, "make_tma_desc: a swizzled box layout must have offset 0");
      return box.inner();
    } else {
      return box;
    }
  }();
  static_assert(is_static_v<std::remove_cvref_t<decltype(inner_layout)>>,
                "make_tma_desc: the box layout must be static");
  static_assert(decltype(rank(inner_layout))::value == 2,
                "make_tma_desc: the box layout must have rank 2, in the global layout's mode order");

  long long const g0 = size<0>(gmem), g1 = size<1>(gmem);
  long long const s0 = stride<0>(gmem), s1 = stride<1>(gmem);
  using InnerLayout = std::remove_cvref_t<decltype(inner_layout)>;
  // The box's contiguous mode is TMA's inner dimension; the rules that relate the two layouts to a
  // tensor map are arch/tma_rules.hpp's (the checker's check_tma runs the same ones).
  TmaBoxParams p;
  p.inner_mode = detail::tma_box_inner_mode<InnerLayout>;
  TmaLayoutCheck const c = tma_layout_check(
      g0, g1, s0, s1, [&] { return to_string(gmem); }, p.inner_mode, (long long)size<0>(inner_layout),
      (long long)size<1>(inner_layout), Sw::bits, Sw::base, Sw::shift, elem_bytes);
  detail::tma_layout_require(c.rule == nullptr, [&] { return c.message; });
  p.inner = c.m.inner;
  p.outer = c.m.outer;
  p.ld = c.m.ld;
  p.box_inner = c.m.box_inner;
  p.box_outer = c.m.box_outer;
  p.swizzle = c.m.swizzle_bytes == 128  ? TmaSwizzle::b128
              : c.m.swizzle_bytes == 64 ? TmaSwizzle::b64
              : c.m.swizzle_bytes == 32 ? TmaSwizzle::b32
                                        : TmaSwizzle::none;
  // TMA's row order: element (x inner, y outer) at y * pitch + x before the swizzle (tma_row_pitch:
  // the span when swizzled). The box layout and the swizzle are static, so this is checked once per
  // box type (the first element out of order, or -1): the pitch is too, as a swizzle passes
  // tma_layout_check only at the one element size its M names.
  long long const pitch = tma_row_pitch(p.box_inner, elem_bytes, c.m.swizzle_bytes);
  static long long const out_of_order = [pitch] {
    InnerLayout const il{};
    int const mode = detail::tma_box_inner_mode<InnerLayout>;
    long long const n0 = size<0>(il), n1 = size<1>(il);
    long long const bi = mode == 0 ? n0 : n1, bo = mode == 0 ? n1 : n0;
    return tma_row_order_violation(
        mode, bi, bo, [&](long long i, long long j) { return (long long)il(i, j); }, pitch);
  }();
  if (out_of_order >= 0) {
    long long const x = out_of_order % p.box_inner, y = out_of_order / p.box_inner;
    long long const got = p.inner_mode == 0 ? (long long)inner_layout(x, y) : (long long)inner_layout(y, x);
    detail::tma_layout_require(false, [&] {
      return tma_row_order_message(to_string(inner_layout), p.inner_mode, p.box_inner, out_of_order, got, pitch);
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
#endif  // !__CUDACC_RTC__

// ---- TMA atoms and tma_partition ------------------------------------------------------------------
//
// A TmaCopy is a tensor map together with the box it moves, as types: the box layout (static) says
// which element of the box lands where in shared memory, so the kernel's tiles are cut into boxes by
// the layout algebra instead of by hand. Example (a K-major bf16 operand A (M,K), 128 x 64 tiles, a
// ring of Stages stages; gemm_sm90.cuh loads this way):
//   host:   auto tma_a = make_tma_copy(SM90_TMA_LOAD{}, a, make_layout(make_shape(M, K), make_stride(K, _1{})), box);
//   kernel: auto gA = local_tile(tma_a.get_tma_tensor(make_shape(M, K)), Shape<_128, _64>{}, make_coord(bm, _));
//                                                                        // (128,64,k) -> (m,k)
//           auto sA = make_tensor(make_smem_ptr(a_smem), stages_layout); // (128,64,PIPE) -> smem
//           auto [tAgA, tAsA] = tma_partition(tma_a, sA, gA);            // (BOX,BOXES,k), (BOX,BOXES,PIPE)
//           copy(tma_a.with(bar), tAgA(_, _, kt), tAsA(_, _, stage));    // one box here: BOXES = 1

// The TMA operations as atoms: the instruction a TmaCopy issues, and its direction.
struct SM90_TMA_LOAD {
  using Instr = SM90_TMA_LOAD_2D;
  static constexpr bool kLoad = true, kMulticast = false;
};
struct SM90_TMA_LOAD_MULTICAST {  // the box is written to the same offset of every block in the mask
  using Instr = SM90_TMA_LOAD_MULTICAST_2D;
  static constexpr bool kLoad = true, kMulticast = true;
};
struct SM90_TMA_STORE {
  using Instr = SM90_TMA_STORE_2D;
  static constexpr bool kLoad = false, kMulticast = false;
};

template <class Op>
concept TmaOp = std::is_same_v<Op, SM90_TMA_LOAD> || std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> ||
                std::is_same_v<Op, SM90_TMA_STORE>;

namespace detail {
// The box layout without its swizzle: (p,q) -> element offset in the box.
template <class Box>
TESSERA_HOST_DEVICE constexpr auto tma_box_inner(Box const& box) {
  if constexpr (TmaBoxSwizzle<Box>::composed) {
    return box.inner();
  } else {
    return box;
  }
}

// Whether two static layouts are the same function of the linear index: their coalesced forms are
// the same type (coalesce merges every mode that continues the one before it and drops size-1
// modes, so equal functions have equal forms).
template <class A, class B>
inline constexpr bool tma_same_function = std::is_same_v<decltype(coalesce(A{})), decltype(coalesce(B{}))>;
}  // namespace detail

template <class Op, class T, class Box>
struct TmaCopy;

// TmaLoad<Op, T, Box>: a TmaCopy's load with its barrier (TmaCopy::with).
template <class Op, class T, class Box>
struct TmaLoad {
  TmaCopy<Op, T, Box> const* tma;
  std::uint64_t* bar;
  std::uint16_t mask;
};

// TmaCopy<Op, T, Box>: the tensor map of one matrix of T, moving boxes laid out in shared memory as
// Box (a static rank-2 layout in the global layout's mode order, or a TMA swizzle composed with
// one: tma_box_params). Trivially copyable: pass it to a kernel as a __grid_constant__ parameter
// (TMA reads the map from the parameter space).
template <class Op, class T, class Box>
struct TmaCopy {
  static_assert(TmaOp<Op>, "TmaCopy: Op must be SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST or SM90_TMA_STORE");
  using op_type = Op;
  using value_type = T;
  using box_type = Box;
  using box_inner_type = decltype(detail::tma_box_inner(Box{}));

  TmaDescriptor desc;

  // The box's contiguous mode (TMA's inner dimension): 0 or 1.
  static constexpr int kInnerMode = detail::tma_box_inner_mode<box_inner_type>;
  // The bytes one box moves (what a load's barrier expects per box).
  static constexpr std::uint32_t kBoxBytes = std::uint32_t(decltype(size(box_inner_type{}))::value * sizeof(T));

  // box_layout(): (p,q) -> element offset in the box, before the swizzle.
  TESSERA_HOST_DEVICE static constexpr auto box_layout() { return box_inner_type{}; }
  // box_shape(): (P,Q) of one box, the sizes of the box layout's two modes.
  TESSERA_HOST_DEVICE static constexpr auto box_shape() {
    return make_shape(size<0>(box_inner_type{}), size<1>(box_inner_type{}));
  }
  TESSERA_HOST_DEVICE TmaDescriptor const* get_tma_descriptor() const { return &desc; }
  // get_tma_tensor(shape): what tma_partition cuts the global matrix with, (m,n) -> (m,n): TMA
  // addresses the matrix by coordinates, not pointers.
  template <class Shape>
  TESSERA_HOST_DEVICE static constexpr auto get_tma_tensor(Shape const& s) {
    return make_identity_tensor(s);
  }

  // with(bar[, mask]): a load issued on `bar` (which expects the bytes: kBoxBytes a box); a
  // multicast one to the blocks of the cluster in `mask`. For copy(tma.with(bar), src, dst).
  TESSERA_HOST_DEVICE TmaLoad<Op, T, Box> with(std::uint64_t* bar, std::uint16_t mask = 0) const {
    static_assert(Op::kLoad, "TmaCopy::with: a TMA store needs no barrier; copy(tma, src, dst)");
    return {this, bar, mask};
  }
};

#if !defined(__CUDACC_RTC__)  // host only: make_tma_desc
// make_tma_copy(op, ptr, gmem, box): the TmaCopy of the matrix at ptr (device memory) laid out as
// `gmem`, moving boxes laid out as `box` (make_tma_desc's preconditions and errors).
template <class Op, class T, class GShape, class GStride, class Box>
  requires TmaOp<Op>
TmaCopy<Op, std::remove_const_t<T>, Box> make_tma_copy(Op, T* ptr, Layout<GShape, GStride> const& gmem,
                                                       Box const& box) {
  return {make_tma_desc(ptr, gmem, box)};
}
#endif  // !__CUDACC_RTC__

// tma_partition(tma, sX, gX): the boxes of shared-memory tiles sX (P,Q,rest...) -> smem and of
// coordinate tiles gX (P,Q,rest...) -> (m,n) (slices of tma.get_tma_tensor). Returns (tXgX, tXsX):
// (BOX,BOXES,rest...) each, BOX the box's (p,q) and BOXES the boxes of one (P,Q) tile
// (tiled_divide by the box's shape). Pre (static_assert, the rules of arch/tma_tile_rules.hpp that
// `tessera check tma --smem` applies at run time, each named): the box's shape divides (P,Q)
// (tma.tile), every box of sX is laid out as the box layout (tma.box_layout; before the swizzle,
// which TMA applies to the address), and every box starts at a multiple of 128 bytes, of the
// swizzle's 8-row pattern when swizzled (tma.box_start; sX itself starts so aligned). Post:
// tXsX(0, j, r...) is box j's first element and tXgX(0, j, r...) its coordinate in the matrix.
// tma_partition(tma, sX, gX, rank, Int<N>{}): block `rank` of N keeps boxes rank, rank + N, ... (a
// multicast load, where each block of a cluster loads its share of a tile shared by all).
template <class Op, class T, class Box, class SE, class SL, class GE, class GL>
TESSERA_HOST_DEVICE constexpr auto tma_partition(TmaCopy<Op, T, Box> const&, Tensor<SE, SL> const& sX,
                                                 Tensor<GE, GL> const& gX) {
  using Tma = TmaCopy<Op, T, Box>;
  constexpr int R = Tensor<SE, SL>::rank;
  static_assert(R >= 2 && Tensor<GE, GL>::rank == R,
                "tma_partition: sX and gX must be (P,Q,rest...) tensors of the same rank");
  constexpr auto box = Tma::box_shape();
  constexpr long long P = decltype(size<0>(sX.layout()))::value, Q = decltype(size<1>(sX.layout()))::value;
  constexpr long long BP = decltype(get<0>(box))::value, BQ = decltype(get<1>(box))::value;
  static_assert(P % BP == 0 && Q % BQ == 0,
                "tma_partition: tma.tile: the box's shape must divide the shared-memory tile's (P,Q)");
  // The boxes' starts (and, at probes, their layouts) by the rules `tessera check tma --smem` runs.
  using STile = std::remove_cvref_t<decltype(make_layout(layout<0>(sX.layout()), layout<1>(sX.layout())))>;
  if constexpr (is_static_v<STile>) {
    using Sw = detail::TmaBoxSwizzle<Box>;
    constexpr TmaTileViolation v =
        tma_tile_violation(STile{}, P, Q, typename Tma::box_inner_type{}, BP, BQ, int(sizeof(T)),
                           tma_swizzle_bytes(Sw::bits, Sw::base, Sw::shift, int(sizeof(T))), false);
    static_assert(
        v.rule != TmaTileRule::box_layout,
        "tma_partition: tma.box_layout: a box of the shared-memory tile is not laid out as the TmaCopy's "
        "box (before its swizzle); build the tile from the box layout (e.g. tile_to_shape of the box's atom)");
    static_assert(v.rule != TmaTileRule::box_start,
                  "tma_partition: tma.box_start: a box of the shared-memory tile does not start at a multiple of 128 "
                  "bytes (with a swizzle, of its 8-row pattern: 256, 512 or 1024 bytes); TMA's shared-memory "
                  "address must be so aligned for the box to be swizzled as the tile");
  }
  auto const sD = group_modes<1, 3>(tiled_divide(sX, box));  // (BOX,BOXES,rest...) -> smem
  auto const gD = group_modes<1, 3>(tiled_divide(gX, box));  // (BOX,BOXES,rest...) -> (m,n)
  using SBox = std::remove_cvref_t<decltype(layout<0>(sD.layout()))>;
  static_assert(is_static_v<SBox>, "tma_partition: the shared-memory tile's layout must be static");
  static_assert(detail::tma_same_function<SBox, typename Tma::box_inner_type>,
                "tma_partition: tma.box_layout: a box of the shared-memory tile is not laid out as the TmaCopy's box "
                "(before its swizzle); build the tile from the box layout (e.g. tile_to_shape of the box's atom)");
  return make_tuple(gD, sD);
}

template <class Op, class T, class Box, class SE, class SL, class GE, class GL, int N>
TESSERA_HOST_DEVICE constexpr auto tma_partition(TmaCopy<Op, T, Box> const& tma, Tensor<SE, SL> const& sX,
                                                 Tensor<GE, GL> const& gX, int rank, Int<N>) {
  auto const [gD, sD] = tma_partition(tma, sX, gX);
  constexpr int boxes = int(decltype(size<1>(sD.layout()))::value);
  static_assert(boxes % N == 0,
                "tma_partition: the blocks must share the boxes of a tile evenly (BOXES a multiple of N)");
  // BOXES -> (N,BOXES/N): (r,i) -> box r + N i; then r = rank.
  using Split = Layout<Shape<Int<N>, Int<boxes / N>>, Stride<_1, Int<N>>>;
  auto split = [&](auto const& t) {
    constexpr int R = std::remove_cvref_t<decltype(t)>::rank;
    return [&]<std::size_t... Js>(std::index_sequence<Js...>) {
      auto const l = t.layout();
      auto const shared = make_tensor(
          t.data(), make_layout(layout<0>(l), composition(layout<1>(l), Split{}), layout<int(2 + Js)>(l)...));
      return shared(_, make_coord(rank, _), ((void)Js, _)...);
    }(std::make_index_sequence<R - 2>{});
  };
  return make_tuple(split(gD), split(sD));
}

namespace detail {
// Box j's coordinate (TMA's (inner, outer) order) and its shared-memory address.
template <class Tma, class G, class S>
TESSERA_HOST_DEVICE auto tma_box_at(G const& g, S const& s, int j) {
  auto const crd = g(0, j);
  int const c0 = int(get<Tma::kInnerMode>(crd)), c1 = int(get<1 - Tma::kInnerMode>(crd));
  return make_tuple(c0, c1, &s(0, j));
}
}  // namespace detail

// copy(tma.with(bar[, mask]), tXgX, tXsX): loads every box of (BOX,BOXES) slices of tma_partition's
// tensors, completing on bar (which expects kBoxBytes a box). One thread issues it.
template <class Op, class T, class Box, class G, class S>
  requires(is_tensor_v<G> && is_tensor_v<std::remove_cvref_t<S>>)
__device__ void copy(TmaLoad<Op, T, Box> const& load, G const& src, S&& dst) {
  using Tma = TmaCopy<Op, T, Box>;
  static_assert(G::rank == 2 && std::remove_cvref_t<S>::rank == 2,
                "copy(tma.with(bar), src, dst): give (BOX,BOXES) slices");
  constexpr int boxes = int(decltype(size<1>(dst.layout()))::value);
  TESSERA_UNROLL
  for (int j = 0; j < boxes; ++j) {
    auto const [c0, c1, p] = detail::tma_box_at<Tma>(src, dst, j);
    if constexpr (Op::kMulticast) {
      Op::Instr::copy(load.tma->get_tma_descriptor(), load.bar, p, c0, c1, load.mask);
    } else {
      Op::Instr::copy(load.tma->get_tma_descriptor(), load.bar, p, c0, c1);
    }
  }
}

// copy(tma, tXsX, tXgX): stores every box of a (BOX,BOXES) slice of shared memory to its
// coordinates; the stores join the thread's bulk group (tma_store_commit, tma_store_wait*).
// Pre: the box's shared memory was written and made visible to TMA (fence_view_async_shared).
template <class T, class Box, class S, class G>
  requires(is_tensor_v<S> && is_tensor_v<G>)
__device__ void copy(TmaCopy<SM90_TMA_STORE, T, Box> const& tma, S const& src, G const& dst) {
  using Tma = TmaCopy<SM90_TMA_STORE, T, Box>;
  static_assert(S::rank == 2 && G::rank == 2, "copy(tma, src, dst): give (BOX,BOXES) slices");
  constexpr int boxes = int(decltype(size<1>(src.layout()))::value);
  TESSERA_UNROLL
  for (int j = 0; j < boxes; ++j) {
    auto const [c0, c1, p] = detail::tma_box_at<Tma>(dst, src, j);
    SM90_TMA_STORE_2D::copy(tma.get_tma_descriptor(), p, c0, c1);
  }
}

}  // namespace tessera
