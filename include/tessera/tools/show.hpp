// tessera/tools/show.hpp -- layout pictures: the grid model and the ascii and LaTeX renderers
// (docs/show.md). Host-only, built on the run-time twin (tessera::rt); show_svg.hpp and
// show_html.hpp add the SVG and HTML renderers, tools/tessera/show.cpp the `tessera show` command.
//
// A Grid is what every renderer draws: rows x cols cells, cell (i,j) holding an offset and, for a
// thread-value (TV) picture, the thread and value that land there.
//
//   Plain layout L      the rank-2 view V of L (below); cell (i,j) = V(i,j).
//                       (_2,(_2,_2)):(_4,(_2,_1)) -> 2x4 cells 0 2 1 3 / 4 6 5 7
//   Coordinate layout   a layout with basis strides (make_identity_layout and its divides):
//                       cell (i,j) is labelled with the coordinate V(i,j), e.g. (1,3), padded
//                       with 0 to the codomain's rank; its key (color, hover group) is that
//                       coordinate's column-major index in coshape(L).
//                       (4,8):(_1@0,_1@1) -> 4x8 cells (0,0) (0,1) .. / (1,0) (1,1) ..
//   Composed F o o o L  the rank-2 view of L; cell (i,j) = F(o + V(i,j)) (swizzled offsets).
//   TV (tiler, tv)      make_layout_tv's pair, or --tv with a tile (M,N): tv maps
//                       (thread,value) -> m + n*M; cell (m,n) is labelled T#/V# for the first
//                       (thread,value) in colexicographic order that maps to it (tv inverted over
//                       the tile); cells no (thread,value) reaches stay empty.
//
// The rank-2 view of a layout (or of a tile shape): an integer or rank-1 layout s:d is drawn as
// one row, (_1,s):(_0,d); a rank-2 layout as is; a rank-r layout with r > 2 as (mode0, rest),
// i.e. group(L, 1, r). A TV layout is viewed as (thread, value) with the same grouping, except
// that a rank-1 tv is (s,_1):(d,_0): every thread holds one value.
//
// A Figure is several TV grids drawn together (panels), for atoms and tiled operations:
//   MMA atom / tiled MMA  A (MxK) left, B (KxN, drawn transposed) on top, C (MxN) below B, each
//                         from layout_a/b/c_tv, the MMA's tile; cells colored by thread index
//   tiled copy            source and destination side by side (layout_s_tv, layout_d_tv)
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/show.hpp: host only (the command's drawings); kernels print with tessera/core/print.hpp"
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/runtime/copy_atom.hpp"
#include "tessera/runtime/layout.hpp"
#include "tessera/runtime/print.hpp"
#include "tessera/runtime/swizzle.hpp"
#include "tessera/runtime/value.hpp"

namespace tessera::tools {

// Pictures hold at most this many cells (a 256x256 tile); larger layouts are an error.
inline constexpr std::int64_t kMaxCells = std::int64_t{1} << 16;

struct Cell {
  std::int64_t offset = 0;   // plain: L(i,j); TV: m + n*M, the index in the tile; coordinate
                             // layout: the coordinate's column-major index in coshape(L)
  std::int64_t thread = -1;  // TV only; -1: no (thread,value) maps here (or a plain layout)
  std::int64_t value = -1;   // TV only
  std::string coord;         // coordinate layouts only: the coordinate L(i,j), e.g. "(1,3)"
};

struct Grid {
  std::string title;  // the notation of what is drawn
  std::int64_t rows = 0, cols = 0;
  bool tv = false;
  bool coords = false;              // a coordinate layout (basis strides): cells hold coordinates
  std::vector<Cell> cells;          // row-major: cells[i * cols + j]
  std::optional<rt::Layout> plain;  // the rank-2 view of a plain layout (ascii = its print_layout)

  const Cell& at(std::int64_t i, std::int64_t j) const { return cells[static_cast<std::size_t>(i * cols + j)]; }
  // The key that colors a cell and that the HTML hover highlights: thread (TV) or offset.
  // -1 for an empty TV cell.
  std::int64_t key(std::int64_t i, std::int64_t j) const { return tv ? at(i, j).thread : at(i, j).offset; }
};

// ---- the fixed palette -------------------------------------------------------------------------

// Twelve light colors, cycled by thread (TV) or offset (plain): color(k) = palette[k mod 12].
// Twelve, not a power of two, so that threads t and t+32 (or offsets a row of 8 or 16 apart)
// differ in color.
inline constexpr const char* kPalette[] = {"AFD6FF", "FFD6A8", "C6EFB4", "F5B7C3", "D9C6F2", "FFF1A8",
                                           "B8ECE6", "E0E0E0", "E8C39E", "D4E79E", "F7C6E8", "A9BCE8"};
inline constexpr std::int64_t kPaletteSize = 12;

// palette_index(k): k mod 12 in [0,12) (also for negative offsets); -1 (an empty TV cell) stays -1.
inline int palette_index(std::int64_t key, bool tv) {
  if (tv && key < 0) return -1;
  return static_cast<int>(((key % kPaletteSize) + kPaletteSize) % kPaletteSize);
}

// ---- rank-2 views ------------------------------------------------------------------------------

namespace show_detail {

inline rt::IntTuple pair(rt::IntTuple a, rt::IntTuple b) { return rt::make_tuple({std::move(a), std::move(b)}); }

inline std::int64_t rank_of(const rt::IntTuple& t) { return static_cast<std::int64_t>(rt::detail::rank_of(t)); }

// The two halves of a layout's rank-2 grouping: (mode0, rest) for rank >= 2.
inline rt::Layout group_rest(const rt::Layout& l) {
  const std::int64_t r = rank_of(l.shape);
  return r == 2 ? l : rt::group(l, 1, r);
}

inline void check_cells(const char* what, const std::string& text, std::int64_t rows, std::int64_t cols) {
  if (rows > kMaxCells || cols > kMaxCells || rows * cols > kMaxCells)
    rt::fail(std::string("show: ") + what + " " + text + " has " + std::to_string(rows) + "x" + std::to_string(cols) +
             " cells, more than " + std::to_string(kMaxCells) +
             "; show a smaller tile (e.g. a slice or layout<0>(zipped_divide(L, tile)))");
}

inline rt::IntTuple crd(std::int64_t i, std::int64_t j) { return pair(rt::D(i), rt::D(j)); }

}  // namespace show_detail

// rank2_view(L): L as a (row, column) layout, by the rule at the top of this file.
// rank2_view(_8:_1) = (_1,_8):(_0,_1); rank2_view((2,3,4):(1,2,6)) = (2,(3,4)):(1,(2,6)).
inline rt::Layout rank2_view(const rt::Layout& l) {
  if (l.shape.is_int()) return rt::Layout{show_detail::pair(rt::S(1), l.shape), show_detail::pair(rt::S(0), l.stride)};
  const std::int64_t r = show_detail::rank_of(l.shape);
  if (r == 0) return rt::Layout{show_detail::pair(rt::S(1), rt::S(1)), show_detail::pair(rt::S(0), rt::S(0))};
  if (r == 1)
    return rt::Layout{show_detail::pair(rt::S(1), l.shape.children()[0]),
                      show_detail::pair(rt::S(0), l.stride.children()[0])};
  return show_detail::group_rest(l);
}

// tv_view(tv): tv as a (thread, value) layout. tv_view(_32:_4) = (_32,_1):(_4,_0).
inline rt::Layout tv_view(const rt::Layout& tv) {
  if (tv.shape.is_int())
    return rt::Layout{show_detail::pair(tv.shape, rt::S(1)), show_detail::pair(tv.stride, rt::S(0))};
  const std::int64_t r = show_detail::rank_of(tv.shape);
  if (r == 0) return rt::Layout{show_detail::pair(rt::S(1), rt::S(1)), show_detail::pair(rt::S(0), rt::S(0))};
  if (r == 1)
    return rt::Layout{show_detail::pair(tv.shape.children()[0], rt::S(1)),
                      show_detail::pair(tv.stride.children()[0], rt::S(0))};
  return show_detail::group_rest(tv);
}

// tile_extent(shape): (M, N) of a tile shape under the rank-2 view rule: (_16,_256) -> (16,256),
// _32 -> (1,32), (4,8,2) -> (4,16).
inline std::pair<std::int64_t, std::int64_t> tile_extent(const rt::IntTuple& shape) {
  if (shape.is_underscore()) rt::fail("show: the tile shape contains `_`; give integers");
  if (shape.is_int()) return {1, rt::size(shape).value};
  const auto& kids = shape.children();
  if (kids.empty()) return {1, 1};
  if (kids.size() == 1) return {1, rt::size(kids[0]).value};
  std::int64_t n = 1;
  for (std::size_t k = 1; k < kids.size(); ++k) n = (rt::D(n) * rt::size(kids[k])).value;
  return {rt::size(kids[0]).value, n};
}

// ---- grids -------------------------------------------------------------------------------------

namespace show_detail {
// The picture of a coordinate layout (basis strides): each cell's coordinate V(i,j), as a tuple of
// the codomain's rank (rank(coshape(L))), and its column-major index in coshape(L) as the key.
inline Grid make_coordinate_grid(const rt::Layout& l) {
  const rt::Layout v = rank2_view(l);
  Grid g;
  g.title = rt::to_string(l);
  g.coords = true;
  g.rows = rt::size(rt::get(v.shape, 0)).value;
  g.cols = rt::size(rt::get(v.shape, 1)).value;
  check_cells("layout", g.title, g.rows, g.cols);
  const rt::IntTuple co = rt::coshape(l);  // one extent per codomain mode
  const std::size_t rank = co.is_tuple() ? co.children().size() : 1;
  g.cells.resize(static_cast<std::size_t>(g.rows * g.cols));
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j) {
      const rt::IntTuple x = rt::evaluate_any(v, crd(i, j));
      Cell& c = g.cells[static_cast<std::size_t>(i * g.cols + j)];
      std::int64_t index = 0, scale = 1;
      c.coord = "(";
      for (std::size_t k = 0; k < rank; ++k) {
        const std::int64_t e = rt::detail::is_coordinate_value(x) ? rt::detail::coordinate_entry(x, k).value : 0;
        const std::int64_t extent = co.is_tuple() ? co.children()[k].as_int().value : co.as_int().value;
        if (k) c.coord += ',';
        c.coord += std::to_string(e);
        index = rt::checked_add(index, rt::checked_mul(e, scale, "show: a coordinate's index"),
                                "show: a coordinate's index");
        scale = rt::checked_mul(scale, extent, "show: a coordinate's index");
      }
      c.coord += ")";
      c.offset = index;
    }
  return g;
}
}  // namespace show_detail

// make_grid(L): the plain picture of L (a coordinate layout: its coordinates). Pre: the view has
// at most kMaxCells cells. make_grid((_2,(_2,_2)):(_4,(_2,_1))): 2x4, row 0 = 0 2 1 3;
// make_grid((2,3):(_1@0,_1@1)): 2x3, row 1 = (1,0) (1,1) (1,2).
inline Grid make_grid(const rt::Layout& l) {
  rt::validate(l);
  if (rt::has_basis_strides(l)) return show_detail::make_coordinate_grid(l);
  const rt::Layout v = rank2_view(l);
  Grid g;
  g.title = rt::to_string(l);
  g.rows = rt::size(rt::get(v.shape, 0)).value;
  g.cols = rt::size(rt::get(v.shape, 1)).value;
  show_detail::check_cells("layout", g.title, g.rows, g.cols);
  g.cells.resize(static_cast<std::size_t>(g.rows * g.cols));
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j)
      g.cells[static_cast<std::size_t>(i * g.cols + j)].offset = rt::evaluate(v, show_detail::crd(i, j)).value;
  g.plain = v;
  return g;
}

// make_grid(F o o o L): the rank-2 view of L, each cell holding the swizzled offset F(o + V(i,j)).
// make_grid(Sw<3,3,3> o _0 o (_8,_64):(_64,_1)): row 1 = 72 73 .. 79 64 .. 71 ...
inline Grid make_grid(const rt::ComposedLayout& c) {
  rt::validate(c.inner);
  const rt::Layout v = rank2_view(c.inner);
  Grid g;
  g.title = rt::to_string(c);
  g.rows = rt::size(rt::get(v.shape, 0)).value;
  g.cols = rt::size(rt::get(v.shape, 1)).value;
  show_detail::check_cells("layout", g.title, g.rows, g.cols);
  const rt::ComposedLayout cv{c.swizzle, c.offset, v};
  g.cells.resize(static_cast<std::size_t>(g.rows * g.cols));
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j)
      g.cells[static_cast<std::size_t>(i * g.cols + j)].offset = rt::evaluate(cv, show_detail::crd(i, j)).value;
  return g;
}

// make_tv_grid(tv, M, N, title): tv maps (thread,value) -> m + n*M in an MxN tile; cell (m,n)
// gets the first (thread,value) that maps to it in tv's index order (colexicographic: thread 0
// value 0, thread 1 value 0, ..., i.e. the smallest (value, thread)).
// Pre: every tv(t,v) lies in [0, M*N).
// make_tv_grid(((_32,_4),(_8,_4)):((_128,_4),(_16,_1)), 16, 256): cell (0,0) = T0/V0,
// cell (0,1) = T0/V1, cell (0,8) = T1/V0, cell (4,0) = T32/V0 (tests/tools/golden/tv_seed.txt).
inline Grid make_tv_grid(const rt::Layout& tv, std::int64_t m_extent, std::int64_t n_extent, std::string title) {
  rt::validate(tv);
  if (rt::has_basis_strides(tv))
    rt::fail("show: the TV layout " + rt::to_string(tv) +
             " has basis strides (its values are coordinates); a TV "
             "picture needs (thread,value) -> tile index with integer strides; leave out --tv to draw the coordinates");
  if (m_extent < 1 || n_extent < 1)
    rt::fail("show: tile (" + std::to_string(m_extent) + "," + std::to_string(n_extent) +
             ") has an extent < 1; give a tile M,N with M, N >= 1");
  const rt::Layout v = tv_view(tv);
  Grid g;
  g.title = std::move(title);
  g.tv = true;
  g.rows = m_extent;
  g.cols = n_extent;
  show_detail::check_cells("tile of", g.title, g.rows, g.cols);
  const std::int64_t threads = rt::size(rt::get(v.shape, 0)).value, values = rt::size(rt::get(v.shape, 1)).value;
  if (threads > kMaxCells * 16 || values > kMaxCells * 16 || threads * values > kMaxCells * 16)
    rt::fail("show: TV layout " + rt::to_string(tv) + " has more than " + std::to_string(kMaxCells * 16) +
             " (thread,value) pairs; show a smaller TV layout");
  g.cells.resize(static_cast<std::size_t>(g.rows * g.cols));
  for (std::int64_t t = 0; t < threads; ++t)
    for (std::int64_t val = 0; val < values; ++val) {
      const std::int64_t idx = rt::evaluate(v, show_detail::crd(t, val)).value;
      if (idx < 0 || idx >= rt::checked_mul(m_extent, n_extent, "show: the cells of the tile"))
        rt::fail("show: TV layout " + rt::to_string(tv) + " maps (thread " + std::to_string(t) + ", value " +
                 std::to_string(val) + ") to " + std::to_string(idx) + ", outside the " + std::to_string(m_extent) +
                 "x" + std::to_string(n_extent) + " tile; give the tile the layout indexes (--tile M,N)");
      Cell& c = g.cells[static_cast<std::size_t>((idx % m_extent) * g.cols + idx / m_extent)];
      if (c.thread < 0 || std::make_pair(val, t) < std::make_pair(c.value, c.thread)) {
        c.thread = t;
        c.value = val;
      }
    }
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j)
      g.cells[static_cast<std::size_t>(i * g.cols + j)].offset = i + j * m_extent;
  return g;
}

struct ShowOptions {
  bool tv = false;                                            // --tv: the layout is (thr,val) -> m + n*M
  std::optional<std::pair<std::int64_t, std::int64_t>> tile;  // --tile M,N
};

// make_grid(value, options): what `tessera show` draws for an evaluated expression:
//   a layout (a shape means its column-major layout) -> plain, or TV with options.tv;
//   a composed layout -> swizzled offsets; make_layout_tv's (tiler, tv) -> TV on the tiler's tile.
// Anything else (a swizzle alone, a number, a tiler) is an error naming what was given.
inline Grid make_grid(const rt::Value& value, const ShowOptions& opt = {}) {
  const auto tv_of = [&](const rt::Layout& tv, std::pair<std::int64_t, std::int64_t> tile, const std::string& title) {
    return make_tv_grid(tv, tile.first, tile.second, title);
  };
  if (value.is<rt::ValueTuple>()) {
    const auto& items = value.as<rt::ValueTuple>().items;
    if (items.size() == 2 && items[0].is<rt::IntTuple>() && items[1].is<rt::Layout>()) {
      const auto tile = opt.tile ? *opt.tile : tile_extent(items[0].as<rt::IntTuple>());
      return tv_of(items[1].as<rt::Layout>(), tile, rt::to_string(value));
    }
    rt::fail("show: cannot draw the tuple " + rt::to_string(value) +
             "; give a layout, a swizzled layout or make_layout_tv's (tiler, tv)");
  }
  if (opt.tile && !opt.tv)  // a tile without --tv would be silently ignored
    rt::fail(
        "show: --tile M,N is the tile of a TV picture; add --tv (EXPR is then a (thread,value) -> index layout) "
        "or leave out --tile to draw " +
        rt::to_string(value) + " as it is");
  if (value.is<rt::ComposedLayout>()) {
    if (opt.tv)
      rt::fail("show: --tv needs a (thread,value) -> index layout, not the swizzled layout " + rt::to_string(value));
    return make_grid(value.as<rt::ComposedLayout>());
  }
  rt::Layout l;
  if (value.is<rt::Layout>()) {
    l = value.as<rt::Layout>();
  } else if (value.is<rt::IntTuple>() && !value.as<rt::IntTuple>().is_underscore()) {
    l = rt::make_layout(value.as<rt::IntTuple>());
  } else {
    rt::fail("show: cannot draw " + rt::to_string(value) +
             "; give a layout, a swizzled layout or make_layout_tv's (tiler, tv)");
  }
  if (opt.tv) {
    if (!opt.tile) rt::fail("show: --tv needs the tile shape the layout indexes; add --tile M,N");
    return tv_of(l, *opt.tile,
                 rt::to_string(l) + " on tile (" + std::to_string(opt.tile->first) + "," +
                     std::to_string(opt.tile->second) + ")");
  }
  return make_grid(l);
}

// ---- figures: atoms and tiled operations --------------------------------------------------------

// One grid of a figure at (row, col) of the figure's panel arrangement.
struct Panel {
  Grid grid;
  int row = 0, col = 0;
};

struct Figure {
  std::string title;
  std::vector<Panel> panels;
};

// transpose(g): rows and columns exchanged (B's NxK tile drawn KxN, as it enters the product).
inline Grid transpose(const Grid& g) {
  Grid t = g;
  t.rows = g.cols;
  t.cols = g.rows;
  t.plain.reset();
  for (std::int64_t i = 0; i < t.rows; ++i)
    for (std::int64_t j = 0; j < t.cols; ++j) t.cells[static_cast<std::size_t>(i * t.cols + j)] = g.at(j, i);
  return t;
}

namespace show_detail {
inline std::string extent(std::int64_t a, std::int64_t b) { return std::to_string(a) + "x" + std::to_string(b); }
}  // namespace show_detail

// make_mma_figure(m): A (M x K), B (K x N: cell (k,n) is B's element (n,k)) and C (M x N) of the
// tiled MMA m, from layout_a_tv / layout_b_tv / layout_c_tv over its tile.
inline Figure make_mma_figure(const rt::TiledMma& m) {
  const std::int64_t M = rt::tile_size(m, 0).value, N = rt::tile_size(m, 1).value, K = rt::tile_size(m, 2).value;
  Figure f;
  f.title = rt::to_string(m);
  f.panels.push_back({make_tv_grid(rt::layout_a_tv(m), M, K,
                                   "A " + show_detail::extent(M, K) + ": " + rt::to_string(rt::layout_a_tv(m))),
                      1, 0});
  Grid b = transpose(make_tv_grid(rt::layout_b_tv(m), N, K, ""));
  b.title = "B " + show_detail::extent(K, N) + " (row k, column n): " + rt::to_string(rt::layout_b_tv(m));
  for (std::int64_t i = 0; i < b.rows; ++i)  // offset: B's index n + k*N, as the layout gives it
    for (std::int64_t j = 0; j < b.cols; ++j) b.cells[static_cast<std::size_t>(i * b.cols + j)].offset = j + i * N;
  f.panels.push_back({std::move(b), 0, 1});
  f.panels.push_back({make_tv_grid(rt::layout_c_tv(m), M, N,
                                   "C " + show_detail::extent(M, N) + ": " + rt::to_string(rt::layout_c_tv(m))),
                      1, 1});
  return f;
}

// make_copy_figure(c): the source and destination (thread,value) assignments of the tiled copy c
// over its (M,N) tile, side by side.
inline Figure make_copy_figure(const rt::TiledCopy& c) {
  const auto [M, N] = tile_extent(c.tiler);
  Figure f;
  f.title = rt::to_string(c);
  f.panels.push_back({make_tv_grid(rt::layout_s_tv(c), M, N,
                                   "source " + show_detail::extent(M, N) + ": " + rt::to_string(rt::layout_s_tv(c))),
                      0, 0});
  f.panels.push_back(
      {make_tv_grid(rt::layout_d_tv(c), M, N,
                    "destination " + show_detail::extent(M, N) + ": " + rt::to_string(rt::layout_d_tv(c))),
       0, 1});
  return f;
}

// make_figure(value): an MMA atom (as make_tiled_mma(atom)), a tiled MMA or a tiled copy; nullopt
// for anything else (make_grid draws those). A copy atom alone is an error naming the fix.
inline std::optional<Figure> make_figure(const rt::Value& value) {
  if (value.is<rt::MmaAtom>())
    return make_mma_figure(
        rt::make_tiled_mma(value.as<rt::MmaAtom>(), rt::make_layout(rt::make_tuple({rt::S(1), rt::S(1), rt::S(1)}))));
  if (value.is<rt::TiledMma>()) return make_mma_figure(value.as<rt::TiledMma>());
  if (value.is<rt::TiledCopy>()) return make_copy_figure(value.as<rt::TiledCopy>());
  if (value.is<rt::CopyAtom>())
    rt::fail("show: draw a copy atom through a tiled copy: make_tiled_copy(Copy_Atom<" + value.as<rt::CopyAtom>().name +
             ",half_t>, thr, val) or make_tiled_copy_A/B/C(Copy_Atom<...>, tiled_mma)");
  return std::nullopt;
}

// ---- ascii -------------------------------------------------------------------------------------

// tv_label(cell): "T3/V1", or "" for an empty TV cell.
inline std::string tv_label(const Cell& c) {
  if (c.thread < 0) return "";
  return "T" + std::to_string(c.thread) + "/V" + std::to_string(c.value);
}

// The cell text a renderer prints: the offset (plain), T#/V# (TV) or the coordinate (coordinate
// layout).
inline std::string cell_label(const Grid& g, std::int64_t i, std::int64_t j) {
  if (g.coords) return g.at(i, j).coord;
  return g.tv ? tv_label(g.at(i, j)) : std::to_string(g.at(i, j).offset);
}

// The widest cell label (at least 1).
inline std::size_t label_width(const Grid& g) {
  std::size_t w = 1;
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j) w = std::max(w, cell_label(g, i, j).size());
  return w;
}

// render_ascii(g): plain layouts: exactly rt::print_layout of the rank-2 view (its first line is
// the view, which is the layout itself for rank 2). Swizzled layouts, coordinate layouts and TV
// pictures: the title, then the same table (column headers "  %*d ", rows "%2d  ", cells
// "| %*s ", closed by "|"), with width = the widest label; TV cells hold T#/V#, empty cells
// blanks, coordinate cells their coordinate.
inline std::string render_ascii(const Grid& g) {
  if (g.plain) return rt::print_layout(*g.plain);
  const int width = static_cast<int>(label_width(g));
  std::string out = g.title + "\n    ";
  char buf[96];
  for (std::int64_t n = 0; n < g.cols; ++n) {
    std::snprintf(buf, sizeof buf, "  %*lld ", width, static_cast<long long>(n));
    out += buf;
  }
  out += "\n";
  std::string rule = "    ";
  for (std::int64_t n = 0; n < g.cols; ++n) {
    rule += '+';
    rule.append(static_cast<std::size_t>(width) + 2, '-');
  }
  rule += "+\n";
  for (std::int64_t m = 0; m < g.rows; ++m) {
    out += rule;
    std::snprintf(buf, sizeof buf, "%2lld  ", static_cast<long long>(m));
    out += buf;
    for (std::int64_t n = 0; n < g.cols; ++n) {
      std::snprintf(buf, sizeof buf, "| %*s ", width, cell_label(g, m, n).c_str());
      out += buf;
    }
    out += "|\n";
  }
  return out + rule;
}

// ---- LaTeX (TikZ) ------------------------------------------------------------------------------

// latex_escape(s): s as text for \texttt: _ { } # $ % & ^ ~ \ escaped.
inline std::string latex_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '_': out += "\\_"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '#': out += "\\#"; break;
      case '$': out += "\\$"; break;
      case '%': out += "\\%"; break;
      case '&': out += "\\&"; break;
      case '^': out += "\\^{}"; break;
      case '~': out += "\\~{}"; break;
      case '\\': out += "\\textbackslash{}"; break;
      default: out += ch;
    }
  }
  return out;
}

// render_latex(g): a standalone TikZ document (pdflatex compiles it alone): one unit per cell
// (wider for TV labels), rows downwards, cells filled with the palette (colors c0..c11), row and
// column indices outside the grid, the title above it.
inline std::string render_latex(const Grid& g) {
  // 8pt typewriter characters are about 0.15cm wide: TV cells fit their widest label.
  const double cell_w = g.tv || g.coords ? std::max(1.0, 0.18 * static_cast<double>(label_width(g))) : 1.0;
  char buf[256];
  std::string out =
      "% Generated by tessera show (docs/show.md).\n"
      "\\documentclass[tikz,border=4pt]{standalone}\n"
      "\\usepackage[T1]{fontenc}\n";
  for (std::int64_t k = 0; k < kPaletteSize; ++k)
    out += "\\definecolor{c" + std::to_string(k) + "}{HTML}{" + kPalette[k] + "}\n";
  std::snprintf(buf, sizeof buf,
                "\\begin{document}\n"
                "\\begin{tikzpicture}[x=%.2fcm,y=-0.6cm,every node/.style={font=\\ttfamily\\footnotesize}]\n",
                cell_w);
  out += buf;
  out += "\\node[anchor=south west,inner sep=0pt] at (0,-1.2) {" + latex_escape(g.title) + "};\n";
  for (std::int64_t j = 0; j < g.cols; ++j) {
    std::snprintf(buf, sizeof buf, "\\node at (%lld.5,-0.5) {%lld};\n", static_cast<long long>(j),
                  static_cast<long long>(j));
    out += buf;
  }
  for (std::int64_t i = 0; i < g.rows; ++i) {
    std::snprintf(buf, sizeof buf, "\\node[anchor=east] at (-0.1,%lld.5) {%lld};\n", static_cast<long long>(i),
                  static_cast<long long>(i));
    out += buf;
    for (std::int64_t j = 0; j < g.cols; ++j) {
      const int p = palette_index(g.key(i, j), g.tv);
      std::string fill = "white";
      if (p >= 0) fill = std::string("c").append(std::to_string(p));
      std::snprintf(buf, sizeof buf,
                    "\\filldraw[fill=%s] (%lld,%lld) rectangle +(1,1); \\node at (%lld.5,%lld.5) {%s};\n", fill.c_str(),
                    static_cast<long long>(j), static_cast<long long>(i), static_cast<long long>(j),
                    static_cast<long long>(i), cell_label(g, i, j).c_str());
      out += buf;
    }
  }
  out += "\\end{tikzpicture}\n\\end{document}\n";
  return out;
}

// ---- figures as ascii and LaTeX ------------------------------------------------------------------

// render_ascii(f): the title, then each panel's table under its own title (A, B, C or source,
// destination), separated by blank lines.
inline std::string render_ascii(const Figure& f) {
  std::string out = f.title + "\n";
  for (const Panel& p : f.panels) out += "\n" + render_ascii(p.grid);
  return out;
}

// render_latex(f): one standalone TikZ document, the panels placed as in the SVG (MMA: A left, B
// on top, C below B; copy: source, destination), each with its title.
inline std::string render_latex(const Figure& f) {
  int rows = 0, cols = 0;
  for (const Panel& p : f.panels) {
    rows = std::max(rows, p.row + 1);
    cols = std::max(cols, p.col + 1);
  }
  // panel column widths and row heights, in cells (title and gap included)
  std::vector<double> w(static_cast<std::size_t>(cols), 0.0), h(static_cast<std::size_t>(rows), 0.0);
  double cell_w = 1.0;
  for (const Panel& p : f.panels) cell_w = std::max(cell_w, 0.18 * static_cast<double>(label_width(p.grid)));
  for (const Panel& p : f.panels) {
    w[static_cast<std::size_t>(p.col)] =
        std::max(w[static_cast<std::size_t>(p.col)], static_cast<double>(p.grid.cols) + 2);
    h[static_cast<std::size_t>(p.row)] =
        std::max(h[static_cast<std::size_t>(p.row)], static_cast<double>(p.grid.rows) + 3);
  }
  char buf[256];
  std::string out =
      "% Generated by tessera show (docs/show.md).\n"
      "\\documentclass[tikz,border=4pt]{standalone}\n"
      "\\usepackage[T1]{fontenc}\n";
  for (std::int64_t k = 0; k < kPaletteSize; ++k)
    out += "\\definecolor{c" + std::to_string(k) + "}{HTML}{" + kPalette[k] + "}\n";
  std::snprintf(buf, sizeof buf,
                "\\begin{document}\n"
                "\\begin{tikzpicture}[x=%.2fcm,y=-0.6cm,every node/.style={font=\\ttfamily\\footnotesize}]\n",
                cell_w);
  out += buf;
  out += "\\node[anchor=south west,inner sep=0pt] at (0,-2.2) {" + latex_escape(f.title) + "};\n";
  for (const Panel& p : f.panels) {
    double x = 0, y = 0;
    for (int c = 0; c < p.col; ++c) x += w[static_cast<std::size_t>(c)];
    for (int r = 0; r < p.row; ++r) y += h[static_cast<std::size_t>(r)];
    const Grid& g = p.grid;
    std::snprintf(buf, sizeof buf, "\\begin{scope}[shift={(%.1f,%.1f)}]\n", x, y);
    out += buf;
    out += "\\node[anchor=south west,inner sep=0pt] at (0,-1.2) {" + latex_escape(g.title) + "};\n";
    for (std::int64_t i = 0; i < g.rows; ++i)
      for (std::int64_t j = 0; j < g.cols; ++j) {
        const int pi = palette_index(g.key(i, j), true);
        const std::string fill = pi < 0 ? "white" : "c" + std::to_string(pi);
        std::snprintf(buf, sizeof buf,
                      "\\filldraw[fill=%s] (%lld,%lld) rectangle +(1,1); \\node at (%lld.5,%lld.5) {%s};\n",
                      fill.c_str(), static_cast<long long>(j), static_cast<long long>(i), static_cast<long long>(j),
                      static_cast<long long>(i), cell_label(g, i, j).c_str());
        out += buf;
      }
    out += "\\end{scope}\n";
  }
  out += "\\end{tikzpicture}\n\\end{document}\n";
  return out;
}

}  // namespace tessera::tools
