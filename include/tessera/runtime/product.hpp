// tessera/runtime/product.hpp -- logical, zipped, tiled, flat, blocked and raked products,
// make_ordered_layout, tile_to_shape and make_layout_tv of the run-time twin (twin of
// core/product.hpp). Semantics: docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/product.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "tessera/runtime/divide.hpp"

namespace tessera::rt {

// make_ordered_layout(shape, order): the leaf with the smallest order gets stride _1 (ties by
// position), static size-1 leaves get _0. Pre: order static (as in the core, where it is a type)
// with one entry per shape leaf, nested like shape or flat.
// make_ordered_layout((_2,_2,_2,_2),(_0,_2,_3,_1)) = (_2,_2,_2,_2):(_1,_4,_8,_2).
inline Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order) {
  detail::validate_shape("make_ordered_layout", shape, shape);
  std::vector<IntTuple> sl, ol;
  detail::leaves_into(shape, sl);
  detail::leaves_into(order, ol);
  if (sl.size() != ol.size())
    fail("make_ordered_layout: order " + to_string(order) + " does not match shape " + to_string(shape) +
         "; give one order value per shape leaf");
  if (!detail::all_static(order))
    fail("make_ordered_layout: the order " + to_string(order) +
         " must be static; write it with static integers, e.g. (_1,_0)");
  std::vector<std::size_t> idx(sl.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return ol[a].as_int().value < ol[b].as_int().value; });
  std::vector<Int> strides(sl.size());
  Int cur = S(1);
  for (auto i : idx) {
    Int s = sl[i].as_int();
    strides[i] = is_static_value(s, 1) ? S(0) : cur;
    cur = cur * s;
  }
  std::size_t k = 0;
  IntTuple stride = detail::transform_leaves(shape, [&](Int) { return strides[k++]; });
  return make_layout(shape, stride);
}

// logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B). Pre: cosize(B) >= 1 (only
// negative strides make it smaller: logical_product(_4:_1, _2:_-1) is an error that names B with
// its strides reversed, _2:_1, as the fix).
// logical_product((_2,_2):(_4,_1), _6:_1) = ((_2,_2),(_2,_3)):((_4,_1),(_2,_8)).
inline Layout logical_product(const Layout& a, const Layout& b) {
  const Int cb = cosize(b);
  if (cb.value < 1)
    fail("logical_product: B = " + to_string(b) + " has cosize " + to_string(cb) +
         " < 1 (its negative strides reach below offset 0), so the copies of A = " + to_string(a) +
         " have no room (the codomain size(A)*cosize(B) is empty); give B non-negative strides, e.g. " +
         to_string(Layout{b.shape, detail::transform_leaves(b.stride, [](Int d) { return abs(d); })}) +
         " (its negative strides reversed)");
  IntTuple m = size(a) * cb;
  return make_layout(std::vector<Layout>{a, composition(complement(a, m), b)});
}

inline Layout logical_product(const Layout& a, const Tiler& t);

namespace detail {
// The products apply logical_product per mode (a nested tiler gives that mode's logical_product).
inline auto product_mode = [](const Layout& x, const auto& t) { return logical_product(x, t); };
}  // namespace detail

// logical_product(A, [B0,B1,...]): per mode (B_i a layout or a nested tiler), trailing modes of A kept.
// logical_product((_2,_3):(_1,_2), [_2:_1, _2:_1]) = ((_2,_2),(_3,_2)):((_1,_2),(_2,_1)).
inline Layout logical_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("logical_product", a, t, detail::product_mode);
  return detail::arrange(detail::Arrange::logical, done, trailing, t);
}

// zipped/tiled/flat_product rearrange like the divides.
inline Layout zipped_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("zipped_product", a, t, detail::product_mode);
  return detail::arrange(detail::Arrange::zipped, done, trailing, t);
}
inline Layout tiled_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("tiled_product", a, t, detail::product_mode);
  return detail::arrange(detail::Arrange::tiled, done, trailing, t);
}
inline Layout flat_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("flat_product", a, t, detail::product_mode);
  return detail::arrange(detail::Arrange::flat, done, trailing, t);
}
inline Layout zipped_product(const Layout& a, const Layout& b) { return logical_product(a, b); }
inline Layout tiled_product(const Layout& a, const Layout& b) {
  return detail::arrange_single(detail::Arrange::tiled, logical_product(a, b));
}
inline Layout flat_product(const Layout& a, const Layout& b) {
  return detail::arrange_single(detail::Arrange::flat, logical_product(a, b));
}

namespace detail {
// As the core's zip_product: A and B padded with _1:_0 to one rank R > 1 (append<R>, so an
// integer layout becomes a tuple), P = logical_product(A', B'), mode i = (P0_i, P1_i) or, raked,
// (P1_i, P0_i); at R == 1 with an integer first part (unpadded), the one mode (first, second).
inline Layout block_or_rake(const Layout& a, const Layout& b, bool raked) {
  const std::size_t r = std::max(rank_of(a.shape), rank_of(b.shape));
  const Layout pad{S(1), S(0)};
  // At R == 1 with an integer first part (B's copies for raked, A for blocked) unpadded, the
  // result is the one mode (first, second), the second part kept whole (a tuple stays one).
  if (r == 1) {
    const Layout q = logical_product(a, b);
    const Layout first = layout(q, raked ? 1 : 0), second = layout(q, raked ? 0 : 1);
    if (!first.shape.is_tuple())
      return make_layout(std::vector<Layout>{make_layout(std::vector<Layout>{first, second})});
  }
  const Layout p =
      logical_product(append(a, pad, static_cast<std::int64_t>(r)), append(b, pad, static_cast<std::int64_t>(r)));
  const Layout p0 = layout(p, 0), p1 = layout(p, 1);
  std::vector<Layout> out;
  for (std::size_t i = 0; i < r; ++i) {
    const Layout x = layout(p0, static_cast<std::int64_t>(i)), y = layout(p1, static_cast<std::int64_t>(i));
    out.push_back(raked ? make_layout(std::vector<Layout>{y, x}) : make_layout(std::vector<Layout>{x, y}));
  }
  return make_layout(out);
}
}  // namespace detail

// blocked_product(A, B): pad to one rank R, P = logical_product(A', B'), mode i = (P0_i, P1_i).
// blocked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) = ((_2,_3),(_5,_4)):((_5,_10),(_1,_30)).
inline Layout blocked_product(const Layout& a, const Layout& b) { return detail::block_or_rake(a, b, false); }

// raked_product(A, B): mode i = (P1_i, P0_i).
// raked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) = ((_3,_2),(_4,_5)):((_10,_5),(_30,_1)).
inline Layout raked_product(const Layout& a, const Layout& b) { return detail::block_or_rake(a, b, true); }

// tile_to_shape(block, shape, order): block padded to rank(shape) (append<R>, as in the core),
// n = product_each(shape) / product_each(block) per mode, blocked_product(block, grid) with grid
// = make_ordered_layout(n, order) (column-major without an order). Pre: each mode of block
// divides the matching mode of shape; order static.
// tile_to_shape((_8,_8):(_8,_1), (_64,_32)) = ((_8,_8),(_8,_4)):((_8,_64),(_1,_512)).
inline Layout tile_to_shape(const Layout& block, const IntTuple& shape,
                            const std::optional<IntTuple>& order = std::nullopt) {
  detail::validate_shape("tile_to_shape", shape, shape);
  const std::size_t r = detail::rank_of(shape);
  if (detail::rank_of(block.shape) > r)
    fail("tile_to_shape: block " + to_string(block) + " has more modes than the target shape " + to_string(shape) +
         "; use a target of rank >= rank(block)");
  const Layout pb = append(block, Layout{S(1), S(0)}, static_cast<std::int64_t>(r));
  const IntTuple want = product_each(append(shape, S(1), static_cast<std::int64_t>(r)));
  const IntTuple have = product_each(pb.shape);
  std::vector<IntTuple> n;
  for (std::size_t i = 0; i < r; ++i) {
    const Int w = want.children()[i].as_int(), h = have.children()[i].as_int();
    if (!divides(h, w))
      fail("tile_to_shape: block size " + to_string(h) + " of mode " + std::to_string(i) + " of " + to_string(block) +
           " does not divide the target " + to_string(w) + " of " + to_string(shape) +
           "; pick a target that is a multiple of the block");
    n.push_back(w / h);
  }
  const IntTuple grid_shape = make_tuple(std::move(n));
  const Layout grid = order ? make_ordered_layout(grid_shape, *order) : make_layout(grid_shape);  // col-major
  return blocked_product(pb, grid);
}

// make_layout_tv(thr, val): mn = raked_product(thr, val); returns (tiler, tv) with
// tiler = product_each(shape(mn)), tv = right_inverse(mn) o make_layout((size(thr), size(val))).
// Pre: mn is a bijection from the tile onto [0, size(mn)) (thr and val compact, as in the
// examples), else an error: a TV layout that is not a bijection onto its tile is never returned.
// The twin inverts mn by its values, so dynamic thr and val give the TV layout the static ones do.
// make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1)) = ((_16,_256),((_32,_4),(_8,_4)):((_128,_4),(_16,_1)));
// make_layout_tv((4,32):(32,1), (4,8):(8,1)) = ((16,256),((32,4),(8,4)):((128,4),(16,1))).
inline std::pair<IntTuple, Layout> make_layout_tv(const Layout& thr, const Layout& val) {
  Layout mn = raked_product(thr, val);
  IntTuple tiler = product_each(mn.shape);
  // A negative stride takes mn below 0, so it is no bijection onto [0, size(mn)) (and
  // right_inverse's chain through it can leave the domain): refused before inverting.
  for (const auto& m : detail::flat_modes(mn))
    if (m.d.value < 0 && m.s.value > 1)
      fail("make_layout_tv: raked_product(thr, val) = " + to_string(mn) + " has the negative stride " + to_string(m.d) +
           ", so it is no bijection onto [0, " + std::to_string(size(mn).value) +
           "); use thr and val with non-negative strides");
  const Layout inv = right_inverse(mn);
  // L(R(i)) == i for i < size(R) (right_inverse's postcondition): size(R) == size(mn) means mn
  // reaches every index of [0, size(mn)), so, with size(mn) cells, it is a bijection.
  if (size(inv).value != size(mn).value)
    fail("make_layout_tv: the (m,n) -> (thread,value) layout raked_product(thr, val) = " + to_string(mn) +
         " does not reach every index of [0, " + std::to_string(size(mn).value) + ") exactly once (its inverse " +
         to_string(inv) + " covers " + std::to_string(size(inv).value) +
         "), so no TV layout tiles it; use thr and val "
         "that are bijections onto [0, size), e.g. (_4,_32):(_32,_1) and (_4,_8):(_8,_1)");
  Layout tv = composition(inv, make_layout(make_tuple({size(thr), size(val)})));
  return {tiler, tv};
}

}  // namespace tessera::rt
