// tessera/tools/show_html.hpp -- the interactive HTML renderer of layout pictures (docs/show.md).
//
// render_html(grid): one self-contained page that works offline (inline CSS and script, the
// picture as inline SVG, no external resources). Hovering a cell shows a tooltip with its
// coordinate (i,j), offset (for a coordinate layout: the coordinate it maps to) and, for TV
// pictures, thread and value, and highlights (class "hl") every cell with the same key: the same
// thread (TV), the same offset (plain; e.g. all cells of a stride-0 mode) or the same coordinate. Mouse wheel zooms about the pointer, dragging pans, and the buttons zoom in,
// zoom out, fit the picture to the window and reset to 1:1; large layouts (128x256) open fitted.
// render(grid, format) picks one of the four renderers (Format: ascii, svg, html, latex).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/show_html.hpp: host only (the command's drawings); kernels print with tessera/core/print.hpp"
#endif

#include <string>

#include "tessera/tools/show_svg.hpp"

namespace tessera::tools {

namespace show_detail {

inline constexpr const char* kHtmlStyle = R"CSS(
html, body { margin: 0; height: 100%; font-family: monospace; background: #f4f4f4; }
#bar { position: fixed; top: 0; left: 0; right: 0; height: 32px; display: flex; gap: 6px;
       align-items: center; padding: 0 8px; background: #ffffff; border-bottom: 1px solid #ccc; z-index: 2; }
#bar button { font-family: monospace; min-width: 32px; }
#bar span { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
#vp { position: fixed; top: 33px; left: 0; right: 0; bottom: 0; overflow: hidden; cursor: grab; }
#vp.drag { cursor: grabbing; }
#vp svg { transform-origin: 0 0; display: block; }
.labels { pointer-events: none; }
.cells rect.hl { stroke: #000000; stroke-width: 2.5; filter: brightness(0.8); }
#tip { position: fixed; pointer-events: none; background: #222222; color: #ffffff; padding: 4px 6px;
       border-radius: 3px; white-space: pre; z-index: 3; }
)CSS";

// The page's script: hover (tooltip + highlight by key), zoom (wheel, buttons) and pan (drag).
inline constexpr const char* kHtmlScript = R"JS(
(function () {
  'use strict';
  var tv = document.body.getAttribute('data-tv') === '1';
  var vp = document.getElementById('vp');
  var svg = vp.querySelector('svg');
  var tip = document.getElementById('tip');
  var groups = new Map();
  function keyOf(r) { return tv ? r.getAttribute('data-t') : r.getAttribute('data-o'); }
  svg.querySelectorAll('g.cells rect').forEach(function (r) {
    var k = keyOf(r);
    if (k === null) return;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  });
  var current = null;
  function unhighlight() {
    if (current !== null) groups.get(current).forEach(function (r) { r.classList.remove('hl'); });
    current = null;
  }
  function tipText(r) {
    var d = function (n) { return r.getAttribute('data-' + n); };
    var s = '(' + d('i') + ',' + d('j') + ')  ' + (d('c') !== null ? 'coordinate ' + d('c') : 'offset ' + d('o'));
    if (tv) s += d('t') === null ? '\nno thread' : '\nthread ' + d('t') + '  value ' + d('v');
    return s;
  }
  function hover(e) {
    var r = e.target;
    if (!r || r.tagName !== 'rect' || !r.parentNode.classList.contains('cells')) { leave(); return; }
    var k = keyOf(r);
    if (k !== current) {
      unhighlight();
      if (k !== null) { current = k; groups.get(k).forEach(function (x) { x.classList.add('hl'); }); }
    }
    tip.textContent = tipText(r);
    tip.hidden = false;
    tip.style.left = (e.clientX + 14) + 'px';
    tip.style.top = (e.clientY + 14) + 'px';
  }
  function leave() { unhighlight(); tip.hidden = true; }
  svg.addEventListener('mouseover', hover);
  svg.addEventListener('mousemove', hover);
  svg.addEventListener('mouseleave', leave);

  var scale = 1, tx = 0, ty = 0;
  var w0 = svg.width.baseVal.value, h0 = svg.height.baseVal.value;
  function apply() { svg.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + scale + ')'; }
  function zoomAt(f, px, py) {
    var s = Math.min(64, Math.max(0.02, scale * f));
    f = s / scale;
    tx = px - (px - tx) * f; ty = py - (py - ty) * f; scale = s; apply();
  }
  function fit() {
    var b = vp.getBoundingClientRect();
    scale = Math.min(1, b.width / w0, b.height / h0); tx = 0; ty = 0; apply();
  }
  vp.addEventListener('wheel', function (e) {
    e.preventDefault();
    var b = vp.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - b.left, e.clientY - b.top);
  }, { passive: false });
  var drag = null;
  vp.addEventListener('mousedown', function (e) {
    if (e.button !== 0) return;
    drag = { x: e.clientX - tx, y: e.clientY - ty }; vp.classList.add('drag'); e.preventDefault();
  });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    tx = e.clientX - drag.x; ty = e.clientY - drag.y; apply();
  });
  window.addEventListener('mouseup', function () { drag = null; vp.classList.remove('drag'); });
  function center(f) { var b = vp.getBoundingClientRect(); zoomAt(f, b.width / 2, b.height / 2); }
  document.getElementById('zin').onclick = function () { center(1.5); };
  document.getElementById('zout').onclick = function () { center(1 / 1.5); };
  document.getElementById('zfit').onclick = fit;
  document.getElementById('z1').onclick = function () { scale = 1; tx = 0; ty = 0; apply(); };
  fit();
})();
)JS";

}  // namespace show_detail

namespace show_detail {
// The page around an inline SVG: `info` is the tool bar's description of the picture.
inline std::string html_page(const std::string& title, const std::string& info, bool tv, const std::string& svg) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"tessera show\">\n<title>" +
      xml_escape(title) + "</title>\n<style>" + kHtmlStyle + "</style>\n</head>\n<body data-tv=\"" + (tv ? "1" : "0") +
      "\">\n<div id=\"bar\"><button id=\"zin\" title=\"zoom in\">+</button>"
      "<button id=\"zout\" title=\"zoom out\">&#8722;</button><button id=\"zfit\" title=\"fit to window\">fit</button>"
      "<button id=\"z1\" title=\"actual size\">1:1</button><span>" +
      xml_escape(title) + " &#8212; " + info + "; wheel zooms, drag pans</span></div>\n<div id=\"vp\">\n";
  out += svg;
  out += "</div>\n<div id=\"tip\" hidden></div>\n<script>";
  out += kHtmlScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}
}  // namespace show_detail

// render_html(g): the page (UTF-8, no external resources).
inline std::string render_html(const Grid& g) {
  return show_detail::html_page(g.title,
                                std::to_string(g.rows) + "&#215;" + std::to_string(g.cols) +
                                    (g.tv       ? ", hover: same thread"
                                     : g.coords ? ", hover: same coordinate"
                                                : ", hover: same offset"),
                                g.tv, render_svg(g, SvgOptions{true}, false));
}

// render_html(f): the figure's panels on one page; hovering a cell highlights the cells of its
// thread in every panel.
inline std::string render_html(const Figure& f) {
  return show_detail::html_page(f.title, std::to_string(f.panels.size()) + " panels, hover: same thread in every panel",
                                true, render_svg(f, SvgOptions{true}, false));
}

enum class Format { ascii, svg, html, latex };

// render(g, format): the picture in one of the four formats.
inline std::string render(const Grid& g, Format f) {
  switch (f) {
    case Format::ascii: return render_ascii(g);
    case Format::svg: return render_svg(g);
    case Format::html: return render_html(g);
    case Format::latex: return render_latex(g);
  }
  return {};
}

inline std::string render(const Figure& f, Format format) {
  switch (format) {
    case Format::ascii: return render_ascii(f);
    case Format::svg: return render_svg(f);
    case Format::html: return render_html(f);
    case Format::latex: return render_latex(f);
  }
  return {};
}

}  // namespace tessera::tools
