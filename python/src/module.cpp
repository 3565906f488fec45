// tessera._tessera -- the run-time twin of the layout algebra (tessera::rt), its pictures and its
// access analysis as a Python extension module (pybind11). The public API is the Python package
// around it (python/tessera/__init__.py, docs/python.md); this file only converts values and calls
// the library, so that Python computes exactly what `tessera eval`, `tessera show` and
// `tessera analyze` compute.
//
//   Python value                        rt::Value
//   int / tessera.S(8)                  dynamic 8 / static _8 (an IntTuple leaf); any other
//                                       integer (__index__, e.g. numpy's) is dynamic
//   tuple of integers (nested), None    IntTuple, `_`
//   tuple holding a non-integer, list   ValueTuple (a tiler [L0,L1], a pair)
//   tessera.Bool, bool                  Bool (static or not; a Python bool is dynamic)
//   str                                 the value of that `tessera eval` expression
//   tessera.Text (a str)                text (print_layout's table)
//   Layout, Swizzle, ComposedLayout,    the same (bound classes below)
//   MmaAtom, CopyAtom, TiledMma, TiledCopy
//
// Results come back the other way: static integers as tessera.S, tuples as tessera.IntTuple (a
// tuple that prints in the library's notation), make_layout_tv's pair as tessera.TVLayout.
// Every tessera::layout_error becomes tessera.LayoutError (a ValueError) with the C++ message.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/advise.hpp"
#include "tessera/tools/analyze.hpp"
#include "tessera/tools/check.hpp"
#include "tessera/tools/show_html.hpp"
#include "tessera/version.hpp"

namespace py = pybind11;
namespace rt = tessera::rt;
namespace tt = tessera::tools;

namespace {

// The Python classes of tessera/_types.py that values convert to and from, registered once by the
// package's __init__ (_register_types). Held for the life of the process (never destroyed, so no
// Python object outlives the interpreter in a static destructor).
struct PyTypes {
  py::object S, IntTuple, Bool, ValueTuple, TVLayout, Text, underscore, LayoutError, Basis;
};

PyTypes*& types_slot() {
  static PyTypes* t = nullptr;
  return t;
}

const PyTypes& types() {
  if (types_slot() == nullptr)
    throw std::runtime_error("tessera._tessera is used before `import tessera` registered its types");
  return *types_slot();
}

// ---- Python -> rt::Value ---------------------------------------------------------------------------

// The limits of one converted argument, those of one expression (parser.hpp): nesting and integers,
// so that no Python value builds a deeper or larger value than an expression can.
struct Budget {
  int depth = 0;
  std::size_t integers = 0;
};
constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxIntegers = rt::Parser::kMaxIntegers;

rt::Value to_value(py::handle h, Budget& budget);
rt::Value to_value(py::handle h) {
  Budget budget;
  return to_value(h, budget);
}

// A Python int as an rt::Int (static when it is a tessera.S). Out of int64: a LayoutError, as the
// parser refuses such a literal.
rt::Int to_int(py::handle h) {
  const bool is_static = py::isinstance(h, types().S);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0)
    rt::fail("integer " + std::string(py::str(h)) + " does not fit in int64; Tessera's integers are 64-bit");
  return rt::Int{static_cast<std::int64_t>(v), is_static};
}

// Items of a sequence as values; `ints` tells whether every one is an IntTuple (so that a Python
// tuple of them is an IntTuple, as `(a,b)` is in an expression).
std::vector<rt::Value> items_of(py::handle seq, bool& ints, Budget& budget) {
  if (++budget.depth > kMaxDepth)
    rt::fail("tessera: a tuple or list nested more than " + std::to_string(kMaxDepth) +
             " levels deep; the algebra's values nest less");
  std::vector<rt::Value> out;
  ints = true;
  for (py::handle item : seq) {
    out.push_back(to_value(item, budget));
    ints = ints && out.back().is<rt::IntTuple>();
  }
  --budget.depth;
  return out;
}

rt::Value to_value(py::handle h, Budget& budget) {
  if (py::isinstance<rt::Layout>(h)) return h.cast<rt::Layout>();
  if (py::isinstance<rt::ComposedLayout>(h)) return h.cast<rt::ComposedLayout>();
  if (py::isinstance<rt::Swizzle>(h)) return h.cast<rt::Swizzle>();
  if (py::isinstance<rt::MmaAtom>(h)) return h.cast<rt::MmaAtom>();
  if (py::isinstance<rt::CopyAtom>(h)) return h.cast<rt::CopyAtom>();
  if (py::isinstance<rt::TiledMma>(h)) return h.cast<rt::TiledMma>();
  if (py::isinstance<rt::TiledCopy>(h)) return h.cast<rt::TiledCopy>();
  const PyTypes& t = types();
  if (h.is_none() || h.is(t.underscore)) return rt::IntTuple::underscore();
  if (py::isinstance<py::bool_>(h)) return rt::Bool{h.cast<bool>(), false};
  if (py::isinstance(h, t.Bool))
    return rt::Bool{py::bool_(h.attr("value")).cast<bool>(), py::bool_(h.attr("is_static")).cast<bool>()};
  if (py::isinstance<py::int_>(h) || PyIndex_Check(h.ptr()) != 0) {
    if (++budget.integers > kMaxIntegers)
      rt::fail("tessera: a value of more than " + std::to_string(kMaxIntegers) +
               " integers; an expression holds at most that many");
  }
  if (py::isinstance<py::int_>(h)) return rt::IntTuple(to_int(h));
  if (py::isinstance(h, t.Basis)) {  // v@N: a tessera.Basis checked its mode on construction
    if (++budget.integers > kMaxIntegers)
      rt::fail("tessera: a value of more than " + std::to_string(kMaxIntegers) +
               " integers; an expression holds at most that many");
    return rt::IntTuple(rt::E(to_int(h.attr("value")), h.attr("mode").cast<int>()));
  }
  if (PyIndex_Check(h.ptr()) != 0) {  // other integers (numpy's): their index, a dynamic integer
    const py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
    if (!i) throw py::error_already_set();
    return rt::IntTuple(to_int(i));
  }
  if (py::isinstance(h, t.Text)) return rt::Text{h.cast<std::string>()};
  if (py::isinstance<py::str>(h)) return rt::evaluate(h.cast<std::string>(), tessera::atom_names());
  bool ints = false;
  if (py::isinstance(h, t.ValueTuple) || py::isinstance<py::list>(h)) {
    // A tessera.ValueTuple stays one (a tiler of integers [_4,_8] is not the shape (_4,_8)); a
    // list is a tiler, as `[...]` is in an expression.
    return rt::ValueTuple{items_of(h, ints, budget)};
  }
  if (py::isinstance<py::tuple>(h)) {
    std::vector<rt::Value> items = items_of(h, ints, budget);
    if (!ints) return rt::ValueTuple{std::move(items)};
    std::vector<rt::IntTuple> kids;
    for (auto& v : items) kids.push_back(v.as<rt::IntTuple>());
    return rt::make_tuple(std::move(kids));
  }
  throw py::type_error(
      "tessera: cannot use " + std::string(py::str(py::type::of(h).attr("__name__"))) + " " + std::string(py::repr(h)) +
      " as a value of the algebra; use an int, tessera.S(n), a tuple, None (for `_`), a list (a tiler), "
      "a layout or an expression string");
}

std::vector<rt::Value> to_values(const py::args& args) {
  std::vector<rt::Value> out;
  Budget budget;  // shared by the arguments of one call, as by the terms of one expression
  for (py::handle a : args) out.push_back(to_value(a, budget));
  return out;
}

// ---- rt::Value -> Python ---------------------------------------------------------------------------

py::object from_int_tuple(const rt::IntTuple& x) {
  const PyTypes& t = types();
  if (x.is_underscore()) return t.underscore;
  if (x.is_int()) {
    const rt::Int i = x.as_int();
    py::object v = i.is_static ? t.S(i.value) : py::int_(i.value);
    return i.is_basis() ? t.Basis(v, i.basis) : v;
  }
  py::tuple kids(x.children().size());
  for (std::size_t k = 0; k < x.children().size(); ++k) kids[k] = from_int_tuple(x.children()[k]);
  return t.IntTuple(kids);
}

py::object from_value(const rt::Value& v) {
  const PyTypes& t = types();
  if (v.is<rt::IntTuple>()) return from_int_tuple(v.as<rt::IntTuple>());
  if (v.is<rt::Layout>()) return py::cast(v.as<rt::Layout>());
  if (v.is<rt::ComposedLayout>()) return py::cast(v.as<rt::ComposedLayout>());
  if (v.is<rt::Swizzle>()) return py::cast(v.as<rt::Swizzle>());
  if (v.is<rt::Bool>()) return t.Bool(v.as<rt::Bool>().value, py::arg("static") = v.as<rt::Bool>().is_static);
  if (v.is<rt::Text>()) return t.Text(v.as<rt::Text>().text);
  if (v.is<rt::MmaAtom>()) return py::cast(v.as<rt::MmaAtom>());
  if (v.is<rt::CopyAtom>()) return py::cast(v.as<rt::CopyAtom>());
  if (v.is<rt::TiledMma>()) return py::cast(v.as<rt::TiledMma>());
  if (v.is<rt::TiledCopy>()) return py::cast(v.as<rt::TiledCopy>());
  const auto& items = v.as<rt::ValueTuple>().items;
  py::tuple kids(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) kids[k] = from_value(items[k]);
  // (tiler, tv): what make_layout_tv returns and what `tessera show` draws as a TV picture.
  const bool tv_pair = items.size() == 2 && items[0].is<rt::IntTuple>() && items[1].is<rt::Layout>();
  return tv_pair ? t.TVLayout(kids) : t.ValueTuple(kids);
}

// ---- pictures and analysis ---------------------------------------------------------------------------

tt::Format format_of(const std::string& name) {
  if (name == "ascii") return tt::Format::ascii;
  if (name == "svg") return tt::Format::svg;
  if (name == "html") return tt::Format::html;
  if (name == "latex") return tt::Format::latex;
  rt::fail("show: unknown format " + name + "; use ascii, svg, html or latex");
}

// show(value, format, tv, tile): exactly `tessera show EXPR --format F [--tv] [--tile M,N]`.
std::string show(py::handle x, const std::string& format, bool tv, const py::object& tile) {
  const tt::Format f = format_of(format);
  tt::ShowOptions opt;
  opt.tv = tv;
  if (!tile.is_none()) {
    const auto mn = tile.cast<std::pair<std::int64_t, std::int64_t>>();
    if (mn.first < 1 || mn.second < 1)
      rt::fail("show: tile (" + std::to_string(mn.first) + "," + std::to_string(mn.second) +
               ") is not two positive integers; e.g. tile=(16, 256)");
    opt.tile = mn;
  }
  const rt::Value v = to_value(x);
  if (const auto figure = tt::make_figure(v)) {
    if (opt.tv || opt.tile)
      rt::fail("show: tv and tile are for layouts; an atom, tiled MMA or tiled copy brings its own tiles");
    return tt::render(*figure, f);
  }
  return tt::render(tt::make_grid(v, opt), f);
}

// The SVG of a value for Jupyter, or None where `tessera show` would refuse it (too many cells, a
// copy atom alone): IPython then shows the text.
py::object repr_svg(py::handle self) {
  try {
    return py::str(show(self, "svg", false, py::none()));
  } catch (const tessera::layout_error&) {
    return py::none();
  }
}

py::dict lane_dict(const tt::LaneAccess& l) {
  py::dict d;
  d["lane"] = l.lane;
  d["address"] = l.address;
  d["bytes"] = l.bytes;
  d["cells"] = l.cells;
  return d;
}

py::dict report_dict(const tt::Report& r, const std::string& heatmap) {
  const bool shared = r.memory == tt::MemoryKind::shared;
  py::dict d;
  d["memory"] = shared ? "shared" : "global";
  d["layout"] = r.layout_text;
  d["access"] = r.access_text;
  d["elem_bytes"] = r.elem_bytes;
  d["vector"] = r.vector;
  d["access_bytes"] = r.access_bytes;
  d["threads"] = r.threads;
  d["rows"] = r.rows;
  d["cols"] = r.cols;
  py::list instructions;
  for (const auto& i : r.instructions) {
    py::dict x;
    x["warp"] = i.warp;
    x["index"] = i.index;
    if (shared) {
      x["wavefronts"] = i.wavefronts;
    } else {
      x["sectors"] = i.sectors;
    }
    x["ideal"] = i.ideal;
    x["useful_bytes"] = i.useful_bytes;
    py::list lanes;
    for (const auto& l : i.lanes) lanes.append(lane_dict(l));
    x["lanes"] = lanes;
    instructions.append(x);
  }
  d["instructions"] = instructions;
  d["cell_heat"] = r.cell_heat;
  d["cell_hits"] = r.cell_hits;
  py::dict totals;
  totals["instructions"] = r.instructions.size();
  totals["ideal"] = r.total_ideal();
  totals["useful_bytes"] = r.total_useful_bytes();
  if (shared) {
    d["bank_accesses"] = r.bank_accesses;
    d["bank_ways"] = r.bank_ways;
    totals["wavefronts"] = r.total_wavefronts();
    totals["conflict_degree"] = r.conflict_degree();
    totals["conflict_free"] = r.total_wavefronts() == r.total_ideal();
  } else {
    totals["sectors"] = r.total_sectors();
    totals["efficiency"] = r.efficiency();
  }
  d["totals"] = totals;
  d["text"] = tt::to_text(r);
  if (heatmap == "ascii") d["heatmap"] = tt::heatmap_ascii(r);
  if (heatmap == "svg") d["heatmap"] = tt::heatmap_svg(r);
  return d;
}

// analyze(...): `tessera analyze --smem|--gmem MEMORY --access ACCESS [...]` as a dict.
py::dict analyze(py::handle memory, py::handle access, bool shared, const py::object& elem_bytes,
                 const py::object& vector, const py::object& side, const py::object& heatmap) {
  const std::string heat = heatmap.is_none() ? "" : heatmap.cast<std::string>();
  if (!heat.empty() && heat != "ascii" && heat != "svg")
    rt::fail("analyze: heatmap must be None, 'ascii' or 'svg', got '" + heat + "'");
  const rt::Value mem = to_value(memory);
  const rt::Value acc = to_value(access);
  const tt::MemoryKind kind = shared ? tt::MemoryKind::shared : tt::MemoryKind::global;
  tt::Report report;
  if (acc.is<rt::TiledCopy>()) {
    if (!elem_bytes.is_none() || !vector.is_none())
      rt::fail("analyze: a tiled copy brings its element width and vector (its atom); leave out elem_bytes and vector");
    const tt::CopySide cs = tt::copy_side(side.is_none() ? "" : side.cast<std::string>(), "analyze");
    report = tt::analyze_copy(mem, acc.as<rt::TiledCopy>(), kind, cs);
  } else {
    if (!side.is_none()) rt::fail("analyze: side is for a tiled copy given as access");
    tt::AnalyzeOptions opt;
    opt.memory = kind;
    opt.elem_bytes = elem_bytes.is_none() ? 4 : elem_bytes.cast<int>();
    opt.vector = vector.is_none() ? 1 : vector.cast<int>();
    report = tt::analyze(mem, acc, opt);
  }
  return report_dict(report, heat);
}

// advise(...): `tessera advise` as a dict: the best layout, every candidate, the text it prints.
py::dict advise(py::handle tile, py::handle write, bool tma_write, py::handle read, bool column_major,
                const py::object& write_side, const py::object& read_side, bool padding, bool wgmma_read,
                int wgmma_block, int elem_bytes) {
  tt::AdviseRequest req;
  req.tile = tt::advise_tile(to_value(tile));
  auto side_of = [](const py::object& side) {
    return tt::copy_side(side.is_none() ? "" : side.cast<std::string>(), "advise");
  };
  auto access = [&](py::handle x, const py::object& side, const char* what) -> std::optional<tt::AdviseAccess> {
    if (x.is_none()) return std::nullopt;
    const rt::Value v = to_value(x);
    if (!v.is<rt::TiledCopy>())
      rt::fail(std::string("advise: ") + what + " must be a tiled copy (make_tiled_copy, make_tiled_copy_A/B/C), got " +
               rt::to_string(v));
    return tt::AdviseAccess{v.as<rt::TiledCopy>(), side_of(side)};
  };
  req.write = access(write, write_side, "write");
  req.read = access(read, read_side, "read");
  req.tma_write = tma_write;
  req.row_major = !column_major;
  req.padding = padding;
  req.wgmma_read = wgmma_read;
  req.wgmma_block = wgmma_block;
  req.elem_bytes = elem_bytes;
  const tt::Advice a = tt::advise(req);
  py::list candidates;
  for (const auto& c : a.candidates) {
    py::dict d;
    d["layout"] = c.spelled;
    d["swizzle"] = py::make_tuple(c.bits, c.base, c.shift);
    d["pad_bytes"] = c.pad_bytes;
    d["extra_bytes"] = c.extra_bytes;
    d["legal"] = c.legal;
    d["why_not"] = c.why_not;
    d["write_wavefronts"] = c.write_wavefronts;
    d["write_ideal"] = c.write_ideal;
    d["read_wavefronts"] = c.read_wavefronts;
    d["read_ideal"] = c.read_ideal;
    d["excess"] = c.excess();
    d["tma_boxes"] = c.tma_boxes;
    candidates.append(d);
  }
  py::dict out;
  out["elem_bytes"] = a.elem_bytes;
  out["best"] = (a.candidates.empty() || !a.candidates.front().legal) ? py::object(py::none()) : candidates[0];
  out["candidates"] = candidates;
  out["text"] = tt::to_text(a);
  return out;
}

// check_tma(...): `tessera check tma [--smem]` as a dict: legal, rule ("" when legal), message.
py::dict check_tma(py::handle global, py::handle box, int elem_bytes, py::handle smem) {
  std::optional<rt::Value> tile;
  if (!smem.is_none()) tile = to_value(smem);
  const tt::CheckResult r = tt::check_tma(to_value(global), to_value(box), elem_bytes, tile);
  py::dict d;
  d["legal"] = r.legal;
  d["rule"] = r.rule;
  d["message"] = r.message;
  return d;
}

// check_tiled_copy(...): `tessera check copy --smem --copy` as a dict: legal, rule, message.
py::dict check_tiled_copy(py::handle smem, py::handle copy, const py::object& side) {
  const rt::Value c = to_value(copy);
  if (!c.is<rt::TiledCopy>())
    rt::fail("check_tiled_copy: copy must be a tiled copy (make_tiled_copy, make_tiled_copy_A/B/C), got " +
             rt::to_string(c));
  const tt::CopySide cs = tt::copy_side(side.is_none() ? "" : side.cast<std::string>(), "check_tiled_copy");
  const tt::CheckResult r = tt::check_copy(to_value(smem), c.as<rt::TiledCopy>(), cs);
  py::dict d;
  d["legal"] = r.legal;
  d["rule"] = r.rule;
  d["message"] = r.message;
  return d;
}

// check_copy(...): `tessera check copy --width` as a dict: legal, rule ("" when legal), message,
// width_bits, vector (elements a vector), widest_bits, library_vectorizes; when legal also runs.
py::dict check_copy_vector(const py::object& src, const py::object& dst, int width_bits, int elem_bytes,
                           const py::object& elem, int align_bytes) {
  tt::CopyVectorRequest req;
  if (!src.is_none()) req.src = to_value(src);
  if (!dst.is_none()) req.dst = to_value(dst);
  req.width_bits = width_bits;
  req.elem_bits = 8 * elem_bytes;
  if (!elem.is_none()) {
    const std::string name = elem.cast<std::string>();
    req.elem_bits = rt::type_bits(name);
    if (req.elem_bits == 0)
      rt::fail("check_copy: unknown element type '" + name +
               "'; use half_t, bfloat16_t, tfloat32_t, float, double, [u]int8_t .. [u]int64_t or uint128_t (or "
               "elem_bytes=N)");
  }
  req.align_bytes = align_bytes;
  const tt::CopyVectorCheck r = tt::check_copy_vector(req);
  py::dict d;
  d["legal"] = r.legal;
  d["rule"] = r.rule;
  d["message"] = r.message;
  d["width_bits"] = r.width_bits;
  d["vector"] = r.vector;
  d["widest_bits"] = r.widest_bits;
  d["library_vectorizes"] = r.library_vectorizes;
  if (r.legal) d["runs"] = r.runs;
  return d;
}

// check_wgmma(...): `tessera check wgmma` as a dict: legal, rule ("" when legal), message; when legal
// also the form (major, swizzle_bytes, mn_block, k_block) and every block's descriptor offsets.
py::dict check_wgmma(py::handle smem, int elem_bytes, const py::object& major, int block) {
  std::optional<tessera::GmmaMajor> m;
  if (!major.is_none()) {
    const std::string text = major.cast<std::string>();
    if (text == "k" || text == "K") m = tessera::GmmaMajor::K;
    else if (text == "mn" || text == "MN") m = tessera::GmmaMajor::MN;
    else rt::fail("check_wgmma: major must be 'k' or 'mn', got '" + text + "'");
  }
  const tt::WgmmaCheck r = tt::check_wgmma(to_value(smem), elem_bytes, m, block);
  py::dict d;
  d["legal"] = r.legal;
  d["rule"] = r.rule;
  d["message"] = r.message;
  if (r.legal) {
    d["major"] = r.major == tessera::GmmaMajor::K ? "k" : "mn";
    d["swizzle_bytes"] = r.swizzle_bits == 0 ? 0 : tessera::gmma_span_bytes(r.swizzle_bits);
    d["mn_block"] = r.mn_block;
    d["k_block"] = r.k_block;
    py::list blocks;
    for (const tessera::GmmaForm& f : r.blocks) {
      py::dict b;
      b["start_bytes"] = f.start * elem_bytes;
      b["lbo_bytes"] = tessera::gmma_lbo_used(f) ? py::object(py::int_(f.lbo * elem_bytes)) : py::object(py::none());
      b["sbo_bytes"] = tessera::gmma_sbo_used(f) ? py::object(py::int_(f.sbo * elem_bytes)) : py::object(py::none());
      blocks.append(b);
    }
    d["blocks"] = blocks;
  }
  return d;
}

// ---- the syntax tree, for tests that rebuild an expression through the Python API ----------------------

py::object syntax_tree(const rt::Node& n) {
  using K = rt::Node::Kind;
  static const char* const kinds[] = {"integer", "underscore", "tuple", "tiler",    "layout",
                                      "swizzle", "call",       "apply", "composed", "name"};
  py::list kids;
  for (const auto& k : n.kids) kids.append(syntax_tree(k));
  py::object value = py::none();
  if (n.kind == K::integer) value = from_int_tuple(n.value);
  if (n.kind == K::swizzle) value = py::make_tuple(n.sw[0], n.sw[1], n.sw[2]);
  if (n.kind == K::call || n.kind == K::name) value = py::str(n.name);
  return py::make_tuple(kinds[static_cast<int>(n.kind)], value, py::tuple(kids));
}

// ---- common methods of the bound classes --------------------------------------------------------------

template <class T>
std::string text(const T& x) {
  return rt::to_string(x);
}

// Methods every value class has: str() in the library's notation, repr, and the SVG for Jupyter.
template <class T, class Class>
void common_methods(Class& c, const char* name) {
  c.def("__str__", &text<T>);
  c.def("__repr__", [name](const T& x) { return std::string(name) + "(" + rt::to_string(x) + ")"; });
  c.def(
      "_repr_svg_", [](py::object self) { return repr_svg(self); },
      "The picture of `tessera show --format svg` for Jupyter, or None where it cannot be drawn.");
}

// Equality and hashing on the printed text (every class but Layout, whose == ignores static-ness).
template <class T, class Class>
void text_equality(Class& c) {
  c.def("__eq__", [](const T& a, py::handle b) -> py::object {
    if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::bool_(rt::to_string(a) == rt::to_string(b.cast<T>()));
  });
  c.def("__hash__", [](const T& a) { return py::hash(py::str(rt::to_string(a))); });
}

// f(x) of the evaluator's table for a bound value x: the methods size(), cosize(), rank(), depth().
template <class T>
py::object unary(const char* fn, const T& x) {
  return from_value(rt::call(fn, {rt::Value(x)}));
}

// A layout's text with static markers removed: (_2,4):(4,_1) -> (2,4):(4,1), the key of == and hash
// (equality of values, static-ness ignored, as rt::operator== and as S(8) == 8 in Python).
std::string value_text(const rt::Layout& l) {
  std::string s = rt::to_string(l), out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!(s[i] == '_' && i + 1 < s.size() &&
          (std::isdigit(static_cast<unsigned char>(s[i + 1])) != 0 || s[i + 1] == '-')))
      out += s[i];
  return out;
}

py::object call(const std::string& fn, const py::args& args) { return from_value(rt::call(fn, to_values(args))); }

}  // namespace

void bind_jit(py::module_& m);  // src/jit.cpp

PYBIND11_MODULE(_tessera, m) {
  m.doc() =
      "The run-time twin of Tessera's layout algebra (tessera::rt), its pictures and access analysis. "
      "Use the package `tessera`, not this module.";
  // The library's version (include/tessera/version.hpp), which is tessera.__version__ and the
  // distribution's version (pyproject.toml reads the same line).
  m.attr("__version__") = TESSERA_VERSION_STRING;

  // tessera.LayoutError (tessera/_types.py): every layout_error, with its message; an eval_error
  // (an expression given as text) also carries the input column.
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    if (types_slot() == nullptr) std::rethrow_exception(p);
    try {
      std::rethrow_exception(p);
    } catch (const rt::eval_error& e) {
      py::object exc = types().LayoutError(e.what(), e.message(), e.column());
      PyErr_SetObject(types().LayoutError.ptr(), exc.ptr());
    } catch (const tessera::layout_error& e) {
      const std::string what = rt::detail::bounded_message(e.what());  // one printable line, as eval's
      py::object exc = types().LayoutError(what, what, py::none());
      PyErr_SetObject(types().LayoutError.ptr(), exc.ptr());
    }
  });

  m.def(
      "_register_types",
      [](py::object S, py::object IntTuple, py::object Bool, py::object ValueTuple, py::object TVLayout,
         py::object Text, py::object underscore, py::object LayoutError, py::object Basis) {
        if (types_slot() == nullptr) types_slot() = new PyTypes{};
        *types_slot() = PyTypes{S, IntTuple, Bool, ValueTuple, TVLayout, Text, underscore, LayoutError, Basis};
      },
      "Called once by tessera/__init__.py with the classes of tessera/_types.py.");

  py::class_<rt::Layout> layout(m, "Layout", "A layout shape:stride, a function from coordinates to offsets.");
  common_methods<rt::Layout>(layout, "Layout");
  layout
      .def(py::init([](py::handle shape, py::handle stride) {
             const rt::Value sh = to_value(shape);
             if (stride.is_none()) {
               if (!sh.is<rt::IntTuple>())
                 rt::fail("Layout: the shape must be an integer or a tuple of integers, got " +
                          rt::eval_detail::kind_name(sh));
               return rt::make_layout(sh.as<rt::IntTuple>());
             }
             // SHAPE:STRIDE, with the messages of the expression `shape:stride`.
             const rt::Value st = to_value(stride);
             if (!sh.is<rt::IntTuple>() || !st.is<rt::IntTuple>())
               rt::fail("layout: write SHAPE:STRIDE with integer tuples, got " + rt::eval_detail::kind_name(sh) +
                        " : " + rt::eval_detail::kind_name(st));
             return rt::make_layout(sh.as<rt::IntTuple>(), st.as<rt::IntTuple>());
           }),
           py::arg("shape"), py::arg("stride") = py::none())
      .def_property_readonly("shape", [](const rt::Layout& l) { return from_int_tuple(l.shape); })
      .def_property_readonly("stride", [](const rt::Layout& l) { return from_int_tuple(l.stride); })
      .def("__eq__",
           [](const rt::Layout& a, py::handle b) -> py::object {
             if (!py::isinstance<rt::Layout>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             return py::bool_(a == b.cast<rt::Layout>());
           })
      .def("__hash__", [](const rt::Layout& a) { return py::hash(py::str(value_text(a))); })
      .def("__len__", [](const rt::Layout& l) { return static_cast<std::size_t>(rt::rank(l).value); })
      .def("__getitem__",
           [](const rt::Layout& l, std::int64_t i) {
             const std::int64_t r = rt::rank(l).value;
             if (i < -r || i >= r)
               throw py::index_error("mode " + std::to_string(i) + " of " + rt::to_string(l) + " of rank " +
                                     std::to_string(r));
             return rt::layout(l, i < 0 ? i + r : i);
           })
      .def("__call__",
           [](const rt::Layout& l, const py::args& coord) { return from_value(rt::apply_value(l, to_values(coord))); })
      .def(
          "size", [](const rt::Layout& l) { return unary("size", l); },
          "size(L): the number of coordinates, product of the shape.")
      .def(
          "cosize", [](const rt::Layout& l) { return unary("cosize", l); }, "cosize(L) = L(size(L) - 1) + 1.")
      .def(
          "rank", [](const rt::Layout& l) { return unary("rank", l); }, "rank(L): the number of top-level modes.")
      .def(
          "depth", [](const rt::Layout& l) { return unary("depth", l); }, "depth(L): the nesting depth of the shape.");

  py::class_<rt::Swizzle> swizzle(m, "Swizzle", "Sw<B,M,S>: x -> x ^ ((x >> S) & (((1 << B) - 1) << M)).");
  common_methods<rt::Swizzle>(swizzle, "Swizzle");
  text_equality<rt::Swizzle>(swizzle);
  swizzle
      .def(py::init([](std::int64_t b, std::int64_t mm, std::int64_t s) { return rt::make_swizzle(b, mm, s); }),
           py::arg("bits"), py::arg("base"), py::arg("shift"))
      .def_property_readonly("bits", [](const rt::Swizzle& s) { return s.bits; })
      .def_property_readonly("base", [](const rt::Swizzle& s) { return s.base; })
      .def_property_readonly("shift", [](const rt::Swizzle& s) { return s.shift; })
      .def("__call__",
           [](const rt::Swizzle& s, const py::args& x) { return from_value(rt::apply_value(s, to_values(x))); });

  py::class_<rt::ComposedLayout> composed(m, "ComposedLayout",
                                          "F o offset o L: c -> F(offset + L(c)), a swizzled layout.");
  common_methods<rt::ComposedLayout>(composed, "ComposedLayout");
  text_equality<rt::ComposedLayout>(composed);
  composed
      .def(py::init([](py::handle sw, py::handle offset_or_layout, py::handle inner) {
             // F o offset o L, or F o L (offset _0): the expression's composed layout and its messages.
             std::vector<rt::Value> terms{to_value(sw), to_value(offset_or_layout)};
             if (!inner.is_none()) terms.push_back(to_value(inner));
             const rt::Value c = rt::eval_detail::composed(terms);
             return c.as<rt::ComposedLayout>();
           }),
           py::arg("swizzle"), py::arg("offset"), py::arg("layout") = py::none())
      .def_property_readonly("swizzle", [](const rt::ComposedLayout& c) { return c.swizzle; })
      .def_property_readonly("offset", [](const rt::ComposedLayout& c) { return from_int_tuple(c.offset); })
      .def_property_readonly("layout", [](const rt::ComposedLayout& c) { return c.inner; })
      .def_property_readonly("shape", [](const rt::ComposedLayout& c) { return from_int_tuple(c.inner.shape); })
      .def("__call__", [](const rt::ComposedLayout& c,
                          const py::args& coord) { return from_value(rt::apply_value(c, to_values(coord))); })
      .def("size", [](const rt::ComposedLayout& c) { return unary("size", c); })
      .def("cosize", [](const rt::ComposedLayout& c) { return unary("cosize", c); })
      .def("rank", [](const rt::ComposedLayout& c) { return unary("rank", c); });

  py::class_<rt::MmaAtom> mma_atom(m, "MmaAtom", "An MMA instruction with its thread-value layouts (atom/names.hpp).");
  common_methods<rt::MmaAtom>(mma_atom, "MmaAtom");
  text_equality<rt::MmaAtom>(mma_atom);
  mma_atom.def_property_readonly("name", [](const rt::MmaAtom& a) { return a.name; });

  py::class_<rt::CopyAtom> copy_atom(m, "CopyAtom",
                                     "A copy instruction with its thread-value layouts (atom/names.hpp).");
  common_methods<rt::CopyAtom>(copy_atom, "CopyAtom");
  text_equality<rt::CopyAtom>(copy_atom);
  copy_atom.def_property_readonly("name", [](const rt::CopyAtom& a) { return a.name; });

  py::class_<rt::TiledMma> tiled_mma(m, "TiledMma", "An MMA atom tiled over an atom layout (make_tiled_mma).");
  common_methods<rt::TiledMma>(tiled_mma, "TiledMma");
  text_equality<rt::TiledMma>(tiled_mma);

  py::class_<rt::TiledCopy> tiled_copy(m, "TiledCopy", "A copy atom tiled over threads and values (make_tiled_copy).");
  common_methods<rt::TiledCopy>(tiled_copy, "TiledCopy");
  text_equality<rt::TiledCopy>(tiled_copy);

  m.def("function_names", &rt::function_names, "The functions of `tessera eval`, sorted.");
  m.def("call", &call, py::arg("fn"), "call(fn, *args): the function fn of `tessera eval` applied to the values args.");
  m.def(
      "apply",
      [](py::handle callee, const py::args& args) {
        return from_value(rt::apply_value(to_value(callee), to_values(args)));
      },
      "apply(x, *coord): x(coord...) as an expression evaluates it (slicing where a coordinate is None).");
  m.def(
      "parse", [](const std::string& text) { return from_value(rt::evaluate(text, tessera::atom_names())); },
      py::arg("text"), "The value of one `tessera eval` expression.");
  m.def(
      "eval_line",
      [](const std::string& text) {
        const rt::EvalResult r = rt::eval_line(text, tessera::atom_names());
        return py::make_tuple(r.ok, r.text);
      },
      py::arg("text"), "(ok, line): what `tessera eval TEXT` prints.");
  m.def(
      "atom", [](const std::string& name) { return from_value(rt::lookup_name(name, tessera::atom_names())); },
      py::arg("name"));
  m.def("atom_names", [] {
    std::vector<std::string> names;
    for (const auto& entry : tessera::atom_names()) names.push_back(entry.first);
    return names;
  });
  m.def("show", &show, py::arg("x"), py::arg("format"), py::arg("tv"), py::arg("tile"));
  m.def("analyze", &analyze, py::arg("memory"), py::arg("access"), py::arg("shared"), py::arg("elem_bytes"),
        py::arg("vector"), py::arg("side"), py::arg("heatmap"));
  m.def("check_tma", &check_tma, py::arg("global_layout"), py::arg("box"), py::arg("elem_bytes"), py::arg("smem"));
  m.def("check_tiled_copy", &check_tiled_copy, py::arg("smem"), py::arg("copy"), py::arg("side"));
  m.def("check_copy_vector", &check_copy_vector, py::arg("src"), py::arg("dst"), py::arg("width_bits"),
        py::arg("elem_bytes"), py::arg("elem"), py::arg("align_bytes"));
  m.def("check_wgmma", &check_wgmma, py::arg("smem"), py::arg("elem_bytes"), py::arg("major"), py::arg("block"));
  m.def("advise", &advise, py::arg("tile"), py::arg("write"), py::arg("tma_write"), py::arg("read"),
        py::arg("column_major"), py::arg("write_side"), py::arg("read_side"), py::arg("padding"), py::arg("wgmma_read"),
        py::arg("wgmma_block"), py::arg("elem_bytes"));
  m.def(
      "syntax_tree", [](const std::string& text) { return syntax_tree(rt::parse(text)); }, py::arg("text"),
      "The parsed expression as nested (kind, value, children) tuples (for tests).");
  m.def(
      "to_value_text", [](py::handle x) { return rt::to_string(to_value(x)); }, py::arg("x"),
      "The text of a Python value converted to a value of the algebra.");
  bind_jit(m);  // tessera._tessera._jit (src/jit.cpp)
}
