// tessera/runtime/divide.hpp -- logical, zipped, tiled and flat divide of the run-time twin
// (twin of core/divide.hpp). Mode 0 of a divided layout is "the element inside a tile", mode 1
// "which tile". Semantics: docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/divide.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <string>
#include <utility>
#include <vector>

#include "tessera/runtime/complement.hpp"

namespace tessera::rt {

// logical_divide(A, T) = A o (T, complement(T, size(A))). Result (tile, rest).
// logical_divide((_4,_2,_3):(_2,_1,_8), _4:_2) = ((_2,_2),(_2,_3)):((_4,_1),(_2,_8)).
inline Layout logical_divide(const Layout& a, const Layout& t) {
  Layout c = complement(t, size(a));
  return composition(a, make_layout(std::vector<Layout>{t, c}));
}

inline Layout logical_divide(const Layout& a, const Tiler& t);

namespace detail {
// Per-mode results for a tiler: f(mode i of A, T_i) for the tiler's modes (T_i a layout or a
// nested tiler), A's trailing modes kept separately. `_` is refused: the core has no `_` here.
template <class F>
std::pair<std::vector<Layout>, std::vector<Layout>> per_mode(const char* fn, const Layout& a, const Tiler& t, F f) {
  for (const auto& x : t)
    if (x.kind == Tile::Kind::keep)
      fail(std::string(fn) +
           ": `_` in the tiler is only supported by composition; give a layout or shape for every mode");
  auto ms = modes(a);
  if (t.size() > ms.size())
    fail(std::string(fn) + ": the tiler has " + std::to_string(t.size()) + " modes but " + to_string(a) + " has rank " +
         std::to_string(ms.size()) + "; use a tiler with at most rank(A) modes");
  std::vector<Layout> done, trailing;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (i < t.size()) done.push_back(t[i].kind == Tile::Kind::layout ? f(ms[i], t[i].layout) : f(ms[i], t[i].modes));
    else trailing.push_back(ms[i]);
  }
  return {done, trailing};
}

// The divides apply logical_divide per mode (a nested tiler gives that mode's logical_divide).
inline auto divide_mode = [](const Layout& x, const auto& t) { return logical_divide(x, t); };

enum class Arrange { logical, zipped, tiled, flat };

inline std::vector<Layout> concat(std::vector<Layout> a, const std::vector<Layout>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// zip2_by(L, guide) as the core's: mode i of L (a (tile, rest) pair, or for a nested tiler the
// pairs of its sub-modes, regrouped first) gives its tile to mode 0 and its rest to mode 1; L's
// modes beyond the guide follow in mode 1.
inline Layout zip2_by(const Layout& l, const Tiler& guide) {
  const auto ms = modes(l);
  std::vector<Layout> firsts, seconds;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (i >= guide.size()) {
      seconds.push_back(ms[i]);
      continue;
    }
    const Layout p = guide[i].kind == Tile::Kind::tiler ? zip2_by(ms[i], guide[i].modes) : ms[i];
    firsts.push_back(layout(p, 0));
    seconds.push_back(layout(p, 1));
  }
  return make_layout(std::vector<Layout>{make_layout(firsts), make_layout(seconds)});
}

// The modes of a layout of rank > 1; a layout of rank 1 (an integer or a rank-1 tuple) stays one
// mode as it is.
inline std::vector<Layout> modes_or_whole(const Layout& l) {
  if (l.shape.is_tuple() && l.shape.children().size() != 1) return modes(l);
  return {l};
}

// zipped: Z = zip2_by(per-mode result, tiler); tiled: (Z0, modes of Z1...); flat: (modes of Z0...,
// modes of Z1...), a mode of rank 1 kept whole (docs/algebra.md).
inline Layout arrange(Arrange how, const std::vector<Layout>& pairs, const std::vector<Layout>& trailing,
                      const Tiler& t) {
  const Layout logical = make_layout(concat(pairs, trailing));
  if (how == Arrange::logical) return logical;
  const Layout z = zip2_by(logical, t);
  if (how == Arrange::zipped) return z;
  if (how == Arrange::tiled)
    return make_layout(concat(std::vector<Layout>{layout(z, 0)}, modes_or_whole(layout(z, 1))));
  return make_layout(concat(modes_or_whole(layout(z, 0)), modes_or_whole(layout(z, 1))));
}

// For a single layout operand: zipped is the two-mode result itself, tiled splits mode 1 into
// its top-level modes, flat splits both (a mode of rank 1 kept whole).
inline Layout arrange_single(Arrange how, const Layout& two) {
  if (how == Arrange::tiled)
    return make_layout(concat(std::vector<Layout>{layout(two, 0)}, modes_or_whole(layout(two, 1))));
  if (how != Arrange::flat) return two;
  return make_layout(concat(modes_or_whole(layout(two, 0)), modes_or_whole(layout(two, 1))));
}
}  // namespace detail

// logical_divide(A, [T0,T1,...]): per mode (T_i a layout or a nested tiler), trailing modes of A kept.
// logical_divide((_9,(_4,_8)):(_59,(_13,_1)), [_3:_3, (_2,_4):(_1,_8)])
//   = ((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1))).
inline Layout logical_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("logical_divide", a, t, detail::divide_mode);
  return detail::arrange(detail::Arrange::logical, done, trailing, t);
}

// zipped_divide: ((tiles...), (rests..., trailing...)). For the A, T above:
// ((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1))).
inline Layout zipped_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("zipped_divide", a, t, detail::divide_mode);
  return detail::arrange(detail::Arrange::zipped, done, trailing, t);
}

// tiled_divide: ((tiles...), rests..., trailing...). ((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1)).
inline Layout tiled_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("tiled_divide", a, t, detail::divide_mode);
  return detail::arrange(detail::Arrange::tiled, done, trailing, t);
}

// flat_divide: (tiles..., rests..., trailing...). (_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1)).
inline Layout flat_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("flat_divide", a, t, detail::divide_mode);
  return detail::arrange(detail::Arrange::flat, done, trailing, t);
}

// Single-layout tilers: zipped is logical_divide; tiled/flat split its modes.
// zipped_divide(_1000:_1, _128:_1) = (_128,_8):(_1,_128).
inline Layout zipped_divide(const Layout& a, const Layout& t) { return logical_divide(a, t); }
inline Layout tiled_divide(const Layout& a, const Layout& t) {
  return detail::arrange_single(detail::Arrange::tiled, logical_divide(a, t));
}
inline Layout flat_divide(const Layout& a, const Layout& t) {
  return detail::arrange_single(detail::Arrange::flat, logical_divide(a, t));
}

// tile_unzip(L, tiler): the (tile, rest) pairs at the tiler's modes regrouped as ((tiles...),
// (rests..., trailing...)); a single-layout tiler leaves L as it is. Pre: rank(tiler) <= rank(L).
inline Layout tile_unzip(const Layout& l, const Tiler& t) {
  const std::size_t r = l.shape.is_tuple() ? l.shape.children().size() : 1;
  if (t.size() > r)
    fail("tile_unzip(L, tiler): the tiler has " + std::to_string(t.size()) + " modes but " + to_string(l) +
         " has rank " + std::to_string(r) + "; give one tile per mode at most");
  return detail::zip2_by(l, t);
}
inline Layout tile_unzip(const Layout& l, const Layout&) { return l; }

// evenly_divides(shape, tile): does the tile cut shape into whole tiles? An integer b: size(a) ==
// b * size(ceil_div(a, b)); a layout b: size(a) == size(b) * size(complement(b, size(a))); `_`:
// _true; a tiler: mode by mode (_false if it has more modes than shape). Static when decidable.
inline Bool evenly_divides(const IntTuple& a, const Tile& t);
inline Bool evenly_divides(const IntTuple& a, Int b) { return size(a) == b * size(ceil_div(a, IntTuple(b))); }
inline Bool evenly_divides(const IntTuple& a, const Layout& b) {
  return size(a) == size(b) * size(complement(b, IntTuple(size(a))));
}
inline Bool evenly_divides(const IntTuple& a, const Tiler& t) {
  const std::size_t r = a.is_tuple() ? a.children().size() : 1;
  if (t.size() > r) return Bool{false, true};
  Bool all{true, true};
  for (std::size_t i = 0; i < t.size(); ++i)
    all = and_(all, evenly_divides(get(a, static_cast<std::int64_t>(i)), t[i]));
  return all;
}
inline Bool evenly_divides(const IntTuple& a, const Tile& t) {
  switch (t.kind) {
    case Tile::Kind::keep: return Bool{true, true};
    case Tile::Kind::tiler: return evenly_divides(a, t.modes);
    case Tile::Kind::layout: break;
  }
  if (t.integer) return evenly_divides(a, t.layout.shape.as_int());
  return evenly_divides(a, t.layout);
}

}  // namespace tessera::rt
