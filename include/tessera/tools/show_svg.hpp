// tessera/tools/show_svg.hpp -- the SVG renderer of layout pictures (docs/show.md).
//
// render_svg(grid): one standalone SVG document: no scripts, no external fonts (the generic
// `monospace` family), no links. The title (the layout's notation) on top, column indices above
// and row indices left of the grid, each cell a rectangle filled with the palette color of its
// key (offset, or thread for TV) and labelled with its offset, T#/V# or coordinate.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/show_svg.hpp: host only (the command's drawings); kernels print with tessera/core/print.hpp"
#endif

#include <string>

#include "tessera/tools/show.hpp"
#include "tessera/tools/xml.hpp"

namespace tessera::tools {

// The geometry every SVG picture uses (pixels).
struct SvgGeometry {
  int cell_w = 0, cell_h = 22;
  int left = 0, top = 0;  // where cell (0,0) starts
  int width = 0, height = 0;
};

inline SvgGeometry svg_geometry(const Grid& g) {
  constexpr int char_w = 7;  // 11px monospace advances about 6.6px
  SvgGeometry s;
  s.cell_w = std::max(24, static_cast<int>(label_width(g)) * char_w + 10);
  const int row_digits = static_cast<int>(std::to_string(std::max<std::int64_t>(g.rows - 1, 0)).size());
  s.left = row_digits * char_w + 16;
  s.top = 48;
  const int grid_w = static_cast<int>(g.cols) * s.cell_w;
  const int title_w = static_cast<int>(g.title.size()) * 8 + 16;  // 13px title: about 7.8px a character
  s.width = std::max(s.left + grid_w + 8, title_w);
  s.height = s.top + static_cast<int>(g.rows) * s.cell_h + 8;
  return s;
}

struct SvgOptions {
  // Add data-i, data-j, data-o (offset), data-t, data-v (TV thread and value), data-c (the
  // coordinate of a coordinate layout) to every cell's rectangle and ids to the groups: what the
  // HTML page's script reads.
  bool data_attributes = false;
};

namespace show_detail {
// The groups of one grid (column and row headers, cells, labels) with cell (0,0) at
// (s.left + dx, s.top + dy); group ids end in `suffix` ("" for a lone grid, "-k" for panel k).
// With data attributes the cell and label groups also carry class "cells" / "labels" (what the
// HTML page's script and style select).
inline void svg_grid_body(std::string& out, const Grid& g, const SvgGeometry& s, int dx, int dy, const SvgOptions& opt,
                          const std::string& suffix) {
  const int left = s.left + dx, top = s.top + dy;
  out += "<g id=\"col-headers" + suffix + "\" text-anchor=\"middle\" fill=\"#555555\">\n";
  for (std::int64_t j = 0; j < g.cols; ++j)
    out += "<text x=\"" + std::to_string(left + static_cast<int>(j) * s.cell_w + s.cell_w / 2) + "\" y=\"" +
           std::to_string(top - 6) + "\">" + std::to_string(j) + "</text>\n";
  out += "</g>\n<g id=\"row-headers" + suffix + "\" text-anchor=\"end\" fill=\"#555555\">\n";
  for (std::int64_t i = 0; i < g.rows; ++i)
    out += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" +
           std::to_string(top + static_cast<int>(i) * s.cell_h + s.cell_h / 2 + 4) + "\">" + std::to_string(i) +
           "</text>\n";
  out += "</g>\n<g id=\"cells" + suffix + "\"" + (opt.data_attributes ? " class=\"cells\"" : "") +
         " stroke=\"#333333\" stroke-width=\"0.5\">\n";
  const std::string cw = std::to_string(s.cell_w), ch = std::to_string(s.cell_h);
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j) {
      const Cell& c = g.at(i, j);
      const int p = palette_index(g.key(i, j), g.tv);
      const int x = left + static_cast<int>(j) * s.cell_w, y = top + static_cast<int>(i) * s.cell_h;
      out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + cw + "\" height=\"" +
             ch + "\" fill=\"#" + (p < 0 ? std::string("ffffff") : std::string(kPalette[p])) + "\"";
      if (opt.data_attributes) {
        out += " data-i=\"" + std::to_string(i) + "\" data-j=\"" + std::to_string(j) + "\" data-o=\"" +
               std::to_string(c.offset) + "\"";
        if (c.thread >= 0)
          out += " data-t=\"" + std::to_string(c.thread) + "\" data-v=\"" + std::to_string(c.value) + "\"";
        if (g.coords) out += " data-c=\"" + xml_escape(c.coord) + "\"";
      }
      out += "/>\n";
    }
  out += "</g>\n<g id=\"labels" + suffix + "\"" + (opt.data_attributes ? " class=\"labels\"" : "") +
         " text-anchor=\"middle\" fill=\"#000000\">\n";
  for (std::int64_t i = 0; i < g.rows; ++i)
    for (std::int64_t j = 0; j < g.cols; ++j) {
      const std::string label = cell_label(g, i, j);
      if (label.empty()) continue;
      out += "<text x=\"" + std::to_string(left + static_cast<int>(j) * s.cell_w + s.cell_w / 2) + "\" y=\"" +
             std::to_string(top + static_cast<int>(i) * s.cell_h + s.cell_h / 2 + 4) + "\">" + label + "</text>\n";
    }
  out += "</g>\n";
}

inline std::string svg_open(int width, int height, const std::string& title, bool xml_declaration) {
  const std::string W = std::to_string(width), H = std::to_string(height);
  std::string out;
  if (xml_declaration) out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + W + "\" height=\"" + H + "\" viewBox=\"0 0 " + W + " " +
         H + "\" font-family=\"monospace\" font-size=\"11\">\n";
  out += "<title>" + xml_escape(title) + "</title>\n";
  out += "<rect width=\"" + W + "\" height=\"" + H + "\" fill=\"#ffffff\"/>\n";
  out += "<text x=\"4\" y=\"16\" font-size=\"13\">" + xml_escape(title) + "</text>\n";
  return out;
}
}  // namespace show_detail

// render_svg(g, opt): the SVG document (with an XML declaration unless embedded in HTML).
inline std::string render_svg(const Grid& g, const SvgOptions& opt = {}, bool xml_declaration = true) {
  const SvgGeometry s = svg_geometry(g);
  std::string out;
  out.reserve(static_cast<std::size_t>(g.rows * g.cols) * 120 + 2048);
  out += show_detail::svg_open(s.width, s.height, g.title, xml_declaration);
  show_detail::svg_grid_body(out, g, s, 0, 0, opt, "");
  out += "</svg>\n";
  return out;
}

// render_svg(f, opt): the panels of a figure in one document, arranged by their (row, col) with
// every panel's title above its grid; all panels share one cell width.
inline std::string render_svg(const Figure& f, const SvgOptions& opt = {}, bool xml_declaration = true) {
  int rows = 0, cols = 0, cell_w = 24, left = 0;
  std::vector<SvgGeometry> geo;
  for (const Panel& p : f.panels) {
    rows = std::max(rows, p.row + 1);
    cols = std::max(cols, p.col + 1);
    geo.push_back(svg_geometry(p.grid));
    cell_w = std::max(cell_w, geo.back().cell_w);
    left = std::max(left, geo.back().left);
  }
  constexpr int kTitleH = 28, kGap = 24;  // the figure's title line; space between panels
  std::vector<int> w(static_cast<std::size_t>(cols), 0), h(static_cast<std::size_t>(rows), 0);
  for (std::size_t k = 0; k < f.panels.size(); ++k) {
    const Panel& p = f.panels[k];
    geo[k].cell_w = cell_w;
    geo[k].left = left;
    const int title_w = static_cast<int>(p.grid.title.size()) * 7 + 8;
    const int pw = std::max(left + static_cast<int>(p.grid.cols) * cell_w, title_w) + kGap;
    const int ph = geo[k].top + static_cast<int>(p.grid.rows) * geo[k].cell_h + kGap;
    w[static_cast<std::size_t>(p.col)] = std::max(w[static_cast<std::size_t>(p.col)], pw);
    h[static_cast<std::size_t>(p.row)] = std::max(h[static_cast<std::size_t>(p.row)], ph);
  }
  int width = 0, height = kTitleH;
  for (int x : w) width += x;
  for (int y : h) height += y;
  width = std::max(width, static_cast<int>(f.title.size()) * 8 + 16);
  std::string out = show_detail::svg_open(width, height, f.title, xml_declaration);
  for (std::size_t k = 0; k < f.panels.size(); ++k) {
    const Panel& p = f.panels[k];
    int dx = 0, dy = kTitleH;
    for (int c = 0; c < p.col; ++c) dx += w[static_cast<std::size_t>(c)];
    for (int r = 0; r < p.row; ++r) dy += h[static_cast<std::size_t>(r)];
    out += "<text x=\"" + std::to_string(dx + 4) + "\" y=\"" + std::to_string(dy + 14) + "\" font-size=\"12\">" +
           xml_escape(p.grid.title) + "</text>\n";
    show_detail::svg_grid_body(out, p.grid, geo[k], dx, dy, opt, "-" + std::to_string(k));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace tessera::tools
