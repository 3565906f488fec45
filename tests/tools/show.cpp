// The grid model of `tessera show` (include/tessera/tools/show.hpp): rank-2 views, swizzled
// offsets, TV pictures as the inverse of tv over the tile, colors, limits and errors; the HTML
// page is self-contained.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/show_html.hpp"
#include "xml_check.hpp"

namespace {

namespace rt = tessera::rt;
namespace tt = tessera::tools;

tt::Grid grid(const char* expr, const tt::ShowOptions& opt = {}) { return tt::make_grid(rt::evaluate(expr), opt); }

TEST(ShowView, Rank2ViewRule) {
  EXPECT_EQ(rt::to_string(tt::rank2_view(rt::evaluate("_8:_1").as<rt::Layout>())), "(_1,_8):(_0,_1)");
  EXPECT_EQ(rt::to_string(tt::rank2_view(rt::evaluate("(_8):(_2)").as<rt::Layout>())), "(_1,_8):(_0,_2)");
  EXPECT_EQ(rt::to_string(tt::rank2_view(rt::evaluate("(2,3,4):(1,2,6)").as<rt::Layout>())), "(2,(3,4)):(1,(2,6))");
  EXPECT_EQ(rt::to_string(tt::rank2_view(rt::evaluate("(2,3):(3,1)").as<rt::Layout>())), "(2,3):(3,1)");
  EXPECT_EQ(rt::to_string(tt::tv_view(rt::evaluate("_32:_4").as<rt::Layout>())), "(_32,_1):(_4,_0)");
  EXPECT_EQ(tt::tile_extent(rt::evaluate("(_16,_256)").as<rt::IntTuple>()),
            std::make_pair(std::int64_t{16}, std::int64_t{256}));
  EXPECT_EQ(tt::tile_extent(rt::evaluate("_32").as<rt::IntTuple>()), std::make_pair(std::int64_t{1}, std::int64_t{32}));
  EXPECT_EQ(tt::tile_extent(rt::evaluate("(4,8,2)").as<rt::IntTuple>()),
            std::make_pair(std::int64_t{4}, std::int64_t{16}));
}

TEST(ShowGrid, PlainCellsAreTheLayoutOfTheView) {
  for (const char* e : {"(_2,(_2,_2)):(_4,(_2,_1))", "(3,5,2):(10,1,100)", "_12:_3", "(4,(2,3)):(0,(1,8))"}) {
    const rt::Layout l = rt::evaluate(e).as<rt::Layout>();
    const tt::Grid g = tt::make_grid(l);
    ASSERT_EQ(g.rows * g.cols, rt::size(l).value) << e;
    for (std::int64_t k = 0; k < g.rows * g.cols; ++k)  // index k = i + j*rows (colexicographic)
      EXPECT_EQ(g.at(k % g.rows, k / g.rows).offset, rt::evaluate(l, rt::D(k)).value) << e << " at " << k;
    EXPECT_FALSE(g.tv);
  }
  const tt::Grid row = grid("_5:_2");
  EXPECT_EQ(row.rows, 1);
  EXPECT_EQ(row.cols, 5);
  EXPECT_EQ(row.at(0, 4).offset, 8);
  const tt::Grid shape = grid("(2,3)");  // a shape is its column-major layout
  EXPECT_EQ(shape.at(1, 2).offset, 5);
}

TEST(ShowGrid, SwizzledCellsAreSwizzledOffsets) {
  const rt::Value v = rt::evaluate("composition(Sw<3,3,3>, (_8,_64):(_64,_1))");
  const tt::Grid g = tt::make_grid(v);
  ASSERT_EQ(g.rows, 8);
  ASSERT_EQ(g.cols, 64);
  EXPECT_EQ(g.at(0, 8).offset, 8);
  EXPECT_EQ(g.at(1, 0).offset, 72);
  EXPECT_EQ(g.at(1, 8).offset, 64);
  EXPECT_EQ(g.at(1, 63).offset, 119);
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t j = 0; j < 64; ++j)
      EXPECT_EQ(g.at(i, j).offset,
                rt::evaluate(v.as<rt::ComposedLayout>(), rt::make_tuple({rt::D(i), rt::D(j)})).value);
  EXPECT_EQ(tt::render_ascii(g).substr(0, 35), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)\n");
}

TEST(ShowGrid, TvCellsInvertTvOverTheTile) {
  const rt::Value v = rt::evaluate("make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1))");
  const tt::Grid g = tt::make_grid(v);
  ASSERT_TRUE(g.tv);
  ASSERT_EQ(g.rows, 16);
  ASSERT_EQ(g.cols, 256);
  const rt::Layout tv = v.as<rt::ValueTuple>().items[1].as<rt::Layout>();
  std::set<std::int64_t> seen;
  for (std::int64_t t = 0; t < 128; ++t)
    for (std::int64_t val = 0; val < 32; ++val) {
      const std::int64_t idx = rt::evaluate(tv, rt::make_tuple({rt::D(t), rt::D(val)})).value;
      const tt::Cell& c = g.at(idx % 16, idx / 16);
      EXPECT_EQ(c.thread, t);
      EXPECT_EQ(c.value, val);
      EXPECT_EQ(c.offset, idx);
      seen.insert(idx);
    }
  EXPECT_EQ(seen.size(), 16u * 256u);  // tv is a bijection onto the tile
  EXPECT_EQ(tt::tv_label(g.at(0, 0)), "T0/V0");
  EXPECT_EQ(tt::cell_label(g, 0, 1), "T0/V1");  // thread 0 holds rows 0..3, columns 0..7
  EXPECT_EQ(tt::cell_label(g, 0, 8), "T1/V0");  // thread mode (_32,_4):(_128,_4): 8 columns, then 4 rows
  EXPECT_EQ(tt::cell_label(g, 4, 0), "T32/V0");
  EXPECT_EQ(g.key(0, 8), 1);
  EXPECT_EQ(tt::palette_index(g.key(0, 8), true), 1);
  // --tv on the tv layout with the tiler as --tile draws the same cells.
  tt::ShowOptions opt;
  opt.tv = true;
  opt.tile = std::make_pair(std::int64_t{16}, std::int64_t{256});
  const tt::Grid g2 = grid("((_32,_4),(_8,_4)):((_128,_4),(_16,_1))", opt);
  ASSERT_EQ(g2.cells.size(), g.cells.size());
  for (std::size_t k = 0; k < g.cells.size(); ++k) {
    EXPECT_EQ(g2.cells[k].thread, g.cells[k].thread);
    EXPECT_EQ(g2.cells[k].value, g.cells[k].value);
  }
  EXPECT_EQ(g2.title, "((_32,_4),(_8,_4)):((_128,_4),(_16,_1)) on tile (16,256)");
}

TEST(ShowGrid, TvBroadcastKeepsTheFirstPairAndLeavesGaps) {
  tt::ShowOptions opt;
  opt.tv = true;
  opt.tile = std::make_pair(std::int64_t{4}, std::int64_t{2});
  const tt::Grid g = grid("(2,2):(0,1)", opt);  // threads 0,1 share indices 0,1; indices 2..7 empty
  EXPECT_EQ(tt::tv_label(g.at(0, 0)), "T0/V0");
  EXPECT_EQ(tt::tv_label(g.at(1, 0)), "T0/V1");
  EXPECT_EQ(tt::tv_label(g.at(2, 0)), "");
  EXPECT_EQ(g.key(2, 0), -1);
  EXPECT_EQ(tt::palette_index(-1, true), -1);
  EXPECT_EQ(tt::render_ascii(g),
            "(2,2):(0,1) on tile (4,2)\n"
            "          0       1 \n"
            "    +-------+-------+\n"
            " 0  | T0/V0 |       |\n"
            "    +-------+-------+\n"
            " 1  | T0/V1 |       |\n"
            "    +-------+-------+\n"
            " 2  |       |       |\n"
            "    +-------+-------+\n"
            " 3  |       |       |\n"
            "    +-------+-------+\n");
}

TEST(ShowGrid, ColorsCycleThroughTheFixedPalette) {
  EXPECT_EQ(tt::palette_index(0, false), 0);
  EXPECT_EQ(tt::palette_index(9, false), 9);
  EXPECT_EQ(tt::palette_index(12, false), 0);
  EXPECT_EQ(tt::palette_index(-1, false), 11);
  EXPECT_EQ(tt::palette_index(13, true), 1);
  EXPECT_EQ(tt::palette_index(-1, true), -1);  // an empty TV cell: white
}

TEST(ShowGrid, LargeLayoutsWithinTheCapRender) {
  const tt::Grid g = grid("(128,256):(256,1)");
  EXPECT_EQ(g.rows * g.cols, 32768);
  EXPECT_EQ(g.at(127, 255).offset, 32767);
  const std::string html = tt::render_html(g);
  EXPECT_NE(html.find("data-i=\"127\" data-j=\"255\" data-o=\"32767\""), std::string::npos);
}

TEST(ShowErrors, MessagesNameTheProblemAndTheFix) {
  const auto message = [](const char* expr, const tt::ShowOptions& opt = {}) -> std::string {
    try {
      (void)tt::make_grid(rt::evaluate(expr), opt);
    } catch (const tessera::layout_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message("(512,512):(1,512)"),
            "show: layout (512,512):(1,512) has 512x512 cells, more than 65536; show a smaller tile "
            "(e.g. a slice or layout<0>(zipped_divide(L, tile)))");
  EXPECT_EQ(message("Sw<3,3,3>"),
            "show: cannot draw Sw<3,3,3>; give a layout, a swizzled layout or make_layout_tv's (tiler, tv)");
  EXPECT_EQ(message("congruent((2,3),(2,3))"),
            "show: cannot draw _true; give a layout, a swizzled layout or make_layout_tv's (tiler, tv)");
  EXPECT_EQ(
      message("(_4,[_2:_1])"),
      "show: cannot draw the tuple (_4,(_2:_1)); give a layout, a swizzled layout or make_layout_tv's (tiler, tv)");
  tt::ShowOptions tv;
  tv.tv = true;
  EXPECT_EQ(message("(4,2):(1,4)", tv), "show: --tv needs the tile shape the layout indexes; add --tile M,N");
  tv.tile = std::make_pair(std::int64_t{2}, std::int64_t{2});
  EXPECT_EQ(message("(4,2):(1,4)", tv),
            "show: TV layout (4,2):(1,4) maps (thread 0, value 1) to 4, outside the 2x2 tile; give the tile the "
            "layout indexes (--tile M,N)");
}

TEST(ShowHtml, IsSelfContained) {
  const std::string html = tt::render_html(grid("make_layout_tv((_2,_2):(_2,_1), (_2,_1):(_1,_0))"));
  for (const char* external : {"src=", "href=", "@import", "url(", "<link", "https:"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  EXPECT_NE(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("data-t=\"0\" data-v=\"0\""), std::string::npos);
  EXPECT_NE(html.find("<body data-tv=\"1\">"), std::string::npos);
}

}  // namespace

// Figures of atoms and tiled operations: every panel inverts its TV layout over its tile (each cell
// holds a pair that maps to it, and every pair's cell holds a pair); B is drawn transposed.
rt::Value named(const char* expr) { return rt::evaluate(expr, tessera::atom_names()); }

void expect_panel_inverts(const tt::Grid& g, const rt::Layout& tv, std::int64_t m_extent, bool transposed,
                          const char* what) {
  const rt::Layout v = tt::tv_view(tv);
  const std::int64_t threads = rt::size(rt::get(v.shape, 0)).value, values = rt::size(rt::get(v.shape, 1)).value;
  std::set<std::pair<std::int64_t, std::int64_t>> reached;
  for (std::int64_t t = 0; t < threads; ++t)
    for (std::int64_t val = 0; val < values; ++val) {
      const std::int64_t idx = rt::evaluate(v, rt::make_tuple({rt::D(t), rt::D(val)})).value;
      std::int64_t i = idx % m_extent, j = idx / m_extent;
      if (transposed) std::swap(i, j);
      reached.insert({i, j});
      const tt::Cell& c = g.at(i, j);  // the cell shows some pair that maps here
      ASSERT_GE(c.thread, 0) << what;
      std::int64_t ci = rt::evaluate(v, rt::make_tuple({rt::D(c.thread), rt::D(c.value)})).value;
      EXPECT_EQ(ci, idx) << what << ": cell (" << i << "," << j << ") shows T" << c.thread << "/V" << c.value;
    }
  EXPECT_EQ(static_cast<std::int64_t>(reached.size()), g.rows * g.cols) << what << ": every cell is reached";
}

TEST(ShowFigure, TiledMmaPanelsInvertTheirTvLayouts) {
  const rt::TiledMma m =
      named("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1), [_,_32,_])").as<rt::TiledMma>();
  const tt::Figure f = tt::make_mma_figure(m);
  ASSERT_EQ(f.panels.size(), 3u);
  const tt::Grid &a = f.panels[0].grid, &b = f.panels[1].grid, &c = f.panels[2].grid;
  EXPECT_EQ(std::make_pair(a.rows, a.cols), std::make_pair(std::int64_t{32}, std::int64_t{16}));  // M x K
  EXPECT_EQ(std::make_pair(b.rows, b.cols), std::make_pair(std::int64_t{16}, std::int64_t{32}));  // K x N
  EXPECT_EQ(std::make_pair(c.rows, c.cols), std::make_pair(std::int64_t{32}, std::int64_t{32}));  // M x N
  expect_panel_inverts(a, rt::layout_a_tv(m), 32, false, "A");
  expect_panel_inverts(b, rt::layout_b_tv(m), 32, true, "B");
  expect_panel_inverts(c, rt::layout_c_tv(m), 32, false, "C");
  // the PTX fragment: lane 5 holds C rows 1 and 9, columns 2 and 3 of the first 16x8 atom
  EXPECT_EQ(c.at(1, 2).thread, 5);
  EXPECT_EQ(c.at(9, 3).thread, 5);
  EXPECT_EQ(c.at(9, 3).value, 3);
  // an atom alone is its one-atom tiled MMA
  const auto atom = tt::make_figure(named("SM80_16x8x8_F32TF32TF32F32_TN"));
  ASSERT_TRUE(atom.has_value());
  EXPECT_EQ(atom->panels[0].grid.rows * atom->panels[0].grid.cols, 16 * 8);
  EXPECT_EQ(atom->panels[0].grid.at(8, 4).thread, 0);  // a3 of lane 0: row 8, column 4
  EXPECT_EQ(atom->panels[0].grid.at(8, 4).value, 3);
}

TEST(ShowFigure, TiledCopyPanelsAreSourceAndDestination) {
  const rt::TiledCopy c = named(
                              "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, "
                              "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))")
                              .as<rt::TiledCopy>();
  const tt::Figure f = tt::make_copy_figure(c);
  ASSERT_EQ(f.panels.size(), 2u);
  expect_panel_inverts(f.panels[0].grid, rt::layout_s_tv(c), 32, false, "source");
  expect_panel_inverts(f.panels[1].grid, rt::layout_d_tv(c), 32, false, "destination");
  // ldmatrix: thread 17 gives the address of row 1, columns 8..15 of the first 16x16 block
  EXPECT_EQ(f.panels[0].grid.at(1, 8).thread, 17);
  EXPECT_EQ(f.panels[0].grid.at(1, 15).value, 7);
  // the destination is the MMA's A fragment: thread 1 holds row 0, columns 2 and 3
  EXPECT_EQ(f.panels[1].grid.at(0, 3).thread, 1);
}

TEST(ShowFigure, RenderersDrawEveryPanel) {
  const tt::Figure f = *tt::make_figure(named("make_tiled_mma(UniversalFMA<float>, (_2,_2,_1))"));
  const std::string ascii = tt::render_ascii(f);
  EXPECT_EQ(ascii.rfind("TiledMMA(UniversalFMA<float>, (_2,_2,_1):(_1,_2,_0), [_,_,_])\n", 0), 0u) << ascii;
  for (const char* title : {"\nA 2x1: ", "\nB 1x2 (row k, column n): ", "\nC 2x2: "})
    EXPECT_NE(ascii.find(title), std::string::npos) << title << " in\n" << ascii;
  const std::string svg = tt::render_svg(f);
  EXPECT_EQ(tessera::test::xml_error(svg), "") << svg;
  for (const char* id : {"id=\"cells-0\"", "id=\"cells-1\"", "id=\"cells-2\""})
    EXPECT_NE(svg.find(id), std::string::npos) << id;
  const std::string html = tt::render_html(f);
  EXPECT_NE(html.find("class=\"cells\""), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no external resource
  const std::string tex = tt::render_latex(f);
  EXPECT_EQ(std::count(tex.begin(), tex.end(), '\n') > 10, true);
  EXPECT_NE(tex.find("\\begin{scope}"), std::string::npos);
  EXPECT_NE(tex.find("\\end{document}"), std::string::npos);
}

TEST(ShowFigure, ACopyAtomAloneIsAnErrorNamingTheFix) {
  try {
    (void)tt::make_figure(named("SM75_U32x4_LDSM_N"));
    ADD_FAILURE() << "a copy atom alone should not draw";
  } catch (const tessera::layout_error& e) {
    EXPECT_NE(std::string(e.what()).find("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N,half_t>"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(tt::make_figure(rt::evaluate("(_2,_2):(_1,_2)")).has_value());
}

// --tile without --tv was silently ignored for plain and swizzled layouts: it is an error naming
// the fix; make_layout_tv's pair takes --tile as its tile, with or without --tv.
TEST(ShowGrid, TileWithoutTvIsAnError) {
  tessera::tools::ShowOptions opt;
  opt.tile = std::make_pair(std::int64_t{4}, std::int64_t{8});
  for (const char* expr : {"(_4,_8):(_1,_4)", "Sw<3,3,3> o (_8,_64):(_64,_1)"}) {
    try {
      (void)tessera::tools::make_grid(tessera::rt::evaluate(expr), opt);
      ADD_FAILURE() << expr << ": --tile without --tv was accepted";
    } catch (const tessera::layout_error& e) {
      EXPECT_NE(std::string(e.what()).find("--tile M,N is the tile of a TV picture; add --tv"), std::string::npos)
          << e.what();
    }
  }
  opt.tile = std::make_pair(std::int64_t{16}, std::int64_t{256});
  EXPECT_EQ(
      tessera::tools::make_grid(tessera::rt::evaluate("make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1))"), opt).rows,
      16);
}

TEST(ShowGrid, CoordinateLayoutCellsAreTheirCoordinates) {
  // Each cell of an identity layout's picture is labelled with its coordinate (padded to the
  // codomain's rank) and keyed by that coordinate's column-major index in coshape(L).
  const tt::Grid id = grid("make_identity_layout((4,8))");
  EXPECT_TRUE(id.coords);
  ASSERT_EQ(id.rows, 4);
  ASSERT_EQ(id.cols, 8);
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = 0; j < 8; ++j) {
      EXPECT_EQ(id.at(i, j).coord, "(" + std::to_string(i) + "," + std::to_string(j) + ")");
      EXPECT_EQ(id.at(i, j).offset, i + 4 * j);
      EXPECT_EQ(tt::cell_label(id, i, j), id.at(i, j).coord);
    }
  // Divided like data, the cells still name the coordinate each element has in the whole tensor.
  const rt::Layout z = rt::evaluate("zipped_divide(make_identity_layout((6,4)), (_2,_2))").as<rt::Layout>();
  const tt::Grid g = tt::make_grid(z);
  EXPECT_EQ(g.at(1, 5).coord,
            rt::to_string(rt::evaluate_any(z, rt::make_tuple({rt::IntTuple(rt::D(1)), rt::IntTuple(rt::D(5))}))));
  EXPECT_EQ(g.at(1, 5).coord, "(5,2)");
  // One basis mode: the coordinate is padded with 0 (the codomain of _4:_1@1 has rank 2).
  EXPECT_EQ(grid("_4:_1@1").at(0, 3).coord, "(0,3)");
  // Renderers: ascii table with coordinate cells, SVG with data-c, HTML hover by coordinate.
  const std::string ascii = tt::render(grid("make_identity_layout((2,3))"), tt::Format::ascii);
  EXPECT_EQ(ascii,
            "(2,3):(_1@0,_1@1)\n"
            "          0       1       2 \n"
            "    +-------+-------+-------+\n"
            " 0  | (0,0) | (0,1) | (0,2) |\n"
            "    +-------+-------+-------+\n"
            " 1  | (1,0) | (1,1) | (1,2) |\n"
            "    +-------+-------+-------+\n");
  const std::string html = tt::render(grid("make_identity_layout((2,3))"), tt::Format::html);
  EXPECT_NE(html.find("data-c=\"(1,2)\""), std::string::npos);
  EXPECT_NE(html.find("hover: same coordinate"), std::string::npos);
  EXPECT_NE(tt::render(grid("make_identity_layout((2,3))"), tt::Format::latex).find("{(1,2)}"), std::string::npos);
  // A TV picture needs integer offsets.
  try {
    (void)grid("make_identity_layout((2,3))", tt::ShowOptions{true, std::make_pair(std::int64_t{2}, std::int64_t{3})});
    ADD_FAILURE() << "no error";
  } catch (const tessera::layout_error& e) {
    EXPECT_NE(std::string(e.what()).find("leave out --tv to draw the coordinates"), std::string::npos) << e.what();
  }
}

TEST(XmlEscape, EscapesMarkupCharacters) {
  EXPECT_EQ(tessera::tools::xml_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
  EXPECT_EQ(tessera::tools::xml_escape("(_2,4):(4,_1)"), "(_2,4):(4,_1)");
}
