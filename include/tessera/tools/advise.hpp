// tessera/tools/advise.hpp -- the swizzle advisor: for a shared-memory tile written by one
// instruction and read by another, the layout (a swizzle Sw<B,M,S> of the row- or column-major
// tile, or padded rows) under which both are free of bank conflicts, or the best there is and what
// it costs. Derived by the bank model of tools/analyze.hpp over every candidate, not looked up:
// the answer comes with the table of all candidates tried. Host-only, on the run-time twin
// (tessera::rt). The CLI is `tessera advise` (docs/advise.md).
//
//   tile       (M,N), static                      (_64,_64)
//   write      a tiled copy into shared memory    cp.async: make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, ...)
//              or TMA (boxes of whole lines)
//   read       a tiled copy out of it             ldmatrix: make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, mma)
//              or a wgmma operand (MN,K)          K-major when row-major, MN-major when column-major
//
// Candidates: the tile stored row-major ((M,N):(N,1); mode 1 contiguous, e.g. a K-major A (M,K))
// or column-major ((M,N):(1,M)), as asked; under every swizzle Sw<B,M,S> on element offsets
// (1 <= B <= 5, 0 <= M <= 4, B <= S <= 7) and with rows padded by 4, 8, 16 or 32 bytes. A
// candidate is legal when every access's vector stays contiguous and aligned under it (the
// instruction needs that) and, with a TMA writer, when it is a layout TMA writes: no padding, and
// the swizzle one of TMA's (32-, 64-, 128-byte: Sw<1|2|3, 4 - log2(elem bytes), 3>) with the
// tile's contiguous rows no wider than its span, written in boxes of whole lines (all of them, or
// the fewest equal parts of at most 256 lines, TMA's box extent), each laid out as TMA writes it
// and starting aligned (arch/tma_tile_rules.hpp, the rules tma_partition enforces). Ranked by the excess wavefronts of the write and
// the read together (wavefronts beyond the ideal; 0 = conflict-free), then by the padding's bytes,
// then by simplicity (no swizzle, fewer bits).
//
// A wgmma reader: a candidate is legal when every block a descriptor reads is one of the canonical
// layouts (tools::check_wgmma, the rules of arch/wgmma_rules.hpp that make_gmma_desc enforces), and
// the candidates include the tile built from each canonical atom (tile_to_shape of the 8-row,
// 32/64/128-byte atom, or of the unswizzled core matrix) where the tile's rows are wider than the
// atom's. Its read is modelled a core matrix (8 rows of 16 bytes) at a time: one wavefront when
// the 8 rows fall in distinct 16-byte bank groups. With a TMA writer, each atom column is a box (or
// several, of at most 256 lines);
// among equally conflict-free candidates, fewer boxes rank first (then fewer swizzle bits).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/advise.hpp: host only"
#endif

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/arch/tma_rules.hpp"
#include "tessera/runtime/copy_atom.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/analyze.hpp"
#include "tessera/tools/check.hpp"

namespace tessera::tools {

// One side's instructions over the tile: a tiled copy (its atom's element type and width), the
// side of it that is in shared memory (automatic: from the instruction, as tools::analyze_copy).
struct AdviseAccess {
  rt::TiledCopy copy;
  CopySide side = CopySide::automatic;
};

struct AdviseRequest {
  std::vector<std::int64_t> tile;     // (M,N): the shared-memory tile
  bool row_major = true;              // mode 1 contiguous ((M,N):(N,1)), else mode 0 ((M,N):(1,M))
  std::optional<AdviseAccess> write;  // the instruction that fills the tile (none with tma_write)
  bool tma_write = false;             // TMA writes the tile (boxes of at most 256 whole lines)
  std::optional<AdviseAccess> read;   // the instruction that reads it
  bool wgmma_read = false;            // or a wgmma reads it as an operand (MN,K) (not with read)
  int wgmma_block = 0;                // MN extent of one descriptor (check_wgmma's; 0: its default)
  int elem_bytes = 0;                 // element bytes where no tiled copy says (TMA and wgmma alone)
  bool padding = true;                // also try padded rows
};

// One candidate layout and the model's verdict on it.
struct AdviseCandidate {
  std::string layout;                 // as the library prints it, e.g. "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)"
  std::string spelled;                // as it is written, e.g. "Sw<3,3,3> o (_64,_64):(_64,_1)"
  int bits = 0, base = 0, shift = 0;  // the swizzle (bits = 0: none)
  std::int64_t pad_bytes = 0;         // bytes added to each row (or column)
  std::int64_t extra_bytes = 0;       // shared memory beyond the tile's own
  std::int64_t tma_boxes = 0;         // with a TMA writer: the boxes that write the tile
  bool legal = true;
  std::string why_not;  // when not legal: the rule it breaks
  std::int64_t write_wavefronts = 0, write_ideal = 0, read_wavefronts = 0, read_ideal = 0;
  std::int64_t excess() const { return (write_wavefronts - write_ideal) + (read_wavefronts - read_ideal); }
};

struct Advice {
  int elem_bytes = 0;
  std::string write_text, read_text;        // the instructions, as given
  std::vector<AdviseCandidate> candidates;  // legal ones first, best first
  // The best legal candidate; throws layout_error when none is legal.
  const AdviseCandidate& best() const {
    if (candidates.empty() || !candidates.front().legal)
      rt::fail("advise: no candidate layout is legal for these instructions (see the table: each names its rule)");
    return candidates.front();
  }
};

// advise_tile(v): the extents of a rank-2 shape value, e.g. (_64,_64) -> {64, 64}, for
// AdviseRequest::tile. Pre: v is a rank-2 IntTuple of integers; else a layout_error saying so.
inline std::vector<std::int64_t> advise_tile(const rt::Value& v) {
  if (!v.is<rt::IntTuple>() || v.as<rt::IntTuple>().is_int() || rt::rank(v.as<rt::IntTuple>()).value != 2)
    rt::fail("advise: the tile must be a rank-2 shape, e.g. (_64,_64); got " + rt::to_string(v));
  std::vector<std::int64_t> tile;
  for (const auto& e : v.as<rt::IntTuple>().children()) {
    if (!e.is_int()) rt::fail("advise: the tile's modes must be integers, got " + rt::to_string(v));
    tile.push_back(e.as_int().value);
  }
  return tile;
}

namespace advise_detail {

inline std::string int_text(std::int64_t v) { return "_" + std::to_string(v); }

// The tile's layout with `pad` elements added to each contiguous line.
inline std::string base_text(const std::vector<std::int64_t>& t, bool row_major, std::int64_t pad) {
  const std::int64_t m = t[0], n = t[1];
  const std::string shape = "(" + int_text(m) + "," + int_text(n) + ")";
  return row_major ? shape + ":(" + int_text(n + pad) + ",_1)" : shape + ":(_1," + int_text(m + pad) + ")";
}

inline int log2_exact(std::int64_t v) {
  int k = 0;
  while ((std::int64_t{1} << k) < v) ++k;
  return (std::int64_t{1} << k) == v ? k : -1;
}

// The element width of an access (its atom's), checked to be whole bytes.
inline int elem_bytes_of(const AdviseAccess& a) {
  if (a.copy.atom.value_bits % 8 != 0)
    rt::fail("advise: " + a.copy.atom.name + " moves " + std::to_string(a.copy.atom.value_bits) +
             "-bit elements; the bank model needs whole bytes");
  return a.copy.atom.value_bits / 8;
}

// The wgmma read of a tile, a core matrix at a time: for every block a descriptor reads (w.blocks)
// and every core matrix in it (8 rows of one 16-byte unit), the wavefronts that read its 8 rows
// (the most rows that fall in one 16-byte bank group at different addresses; 1 when they are
// spread over all 32 banks) and the ideal (1). Pre: w legal for `mem`.
inline void wgmma_read_wavefronts(const rt::Value& mem_value, const WgmmaCheck& w, int eb,
                                  const std::vector<std::int64_t>& tile, std::int64_t& wavefronts,
                                  std::int64_t& ideal) {
  const analyze_detail::MemoryLayout mem = analyze_detail::as_memory_layout(mem_value);
  const int t = gmma_unit_elems(eb);
  const std::int64_t mn_extent = tile[0];
  wavefronts = ideal = 0;
  for (std::int64_t mn0 = 0; mn0 < tile[0]; mn0 += w.mn_block)
    for (std::int64_t k0 = 0; k0 < tile[1]; k0 += w.k_block) {
      const bool k_major = w.major == GmmaMajor::K;
      // core matrices: K-major (8 MN-rows) x (a unit of K); MN-major (a unit of MN) x (8 K-rows)
      const std::int64_t rows_step = k_major ? 8 : t, units_step = k_major ? t : 8;
      for (std::int64_t a = 0; a < w.mn_block; a += rows_step)
        for (std::int64_t b = 0; b < w.k_block; b += units_step) {
          std::int64_t units[8], groups[8];
          for (int r = 0; r < 8; ++r) {
            const std::int64_t mn = mn0 + a + (k_major ? r : 0), k = k0 + b + (k_major ? 0 : r);
            units[r] = mem(mn + mn_extent * k) * eb / 16;
            groups[r] = units[r] % 8;
          }
          std::int64_t worst = 1;
          for (int g = 0; g < 8; ++g) {
            std::int64_t distinct = 0;
            for (int r = 0; r < 8; ++r) {
              if (groups[r] != g) continue;
              bool seen = false;
              for (int q = 0; q < r; ++q) seen = seen || units[q] == units[r];
              distinct += seen ? 0 : 1;
            }
            worst = std::max(worst, distinct);
          }
          wavefronts += worst;
          ideal += 1;
        }
    }
}

// Whether TMA can fill the tile `mem` in boxes of box_lines lines of box_line elements (TMA's row
// order: line after line), by the rules of arch/tma_tile_rules.hpp (tma_partition's): every box
// laid out as TMA writes it and starting aligned. nullopt when it can, else the rule's message.
inline std::optional<std::string> tma_boxes_violation(const rt::Value& mem_value, const std::vector<std::int64_t>& tile,
                                                      bool row_major, std::int64_t box_line, std::int64_t box_lines,
                                                      int eb, int span) {
  const rt::Layout inner = analyze_detail::as_memory_layout(mem_value).inner();
  auto at = [&](long long i, long long j) {
    return rt::evaluate(inner, rt::make_tuple({rt::IntTuple{rt::D(i)}, rt::IntTuple{rt::D(j)}})).value;
  };
  // (m,n) -> offset in a box: rows of box_line along the contiguous mode, tma_row_pitch apart (a row
  // narrower than the swizzle's span is padded to it)
  const long long pitch = tma_row_pitch(box_line, eb, span);
  auto box = [&](long long i, long long j) { return row_major ? i * pitch + j : i + j * pitch; };
  const std::int64_t bp = row_major ? box_lines : box_line, bq = row_major ? box_line : box_lines;
  const TmaTileViolation v = tma_tile_violation(at, tile[0], tile[1], box, bp, bq, eb, span, true);
  const std::string where = "box (" + std::to_string(v.box_p) + "," + std::to_string(v.box_q) + ") of " +
                            std::to_string(bp) + " x " + std::to_string(bq);
  switch (v.rule) {
    case TmaTileRule::ok: return std::nullopt;
    case TmaTileRule::tile:
      return "the box " + std::to_string(bp) + " x " + std::to_string(bq) + " does not divide the tile";
    case TmaTileRule::box_layout:
      return where + ": element (" + std::to_string(v.i) + "," + std::to_string(v.j) + ") is at offset " +
             std::to_string(v.got) + ", TMA writes it at " + std::to_string(v.expected) + " (tma.box_layout)";
    case TmaTileRule::box_start:
      return where + " starts at element " + std::to_string(v.got) + " (" + std::to_string(eb) +
             "-byte elements), not at a multiple of " + std::to_string(tma_box_align_bytes(span)) +
             " bytes (tma.box_start)";
  }
  return std::nullopt;
}

}  // namespace advise_detail

// advise(request): every candidate layout of the tile with the model's wavefronts for the write and
// the read, legal ones first and best first (see the file's comment for the order). Pre: a static
// rank-2 tile; at least one of write (or tma_write) and read; the instructions' element widths
// agree. Example: the (64,64) fp16 row-major tile written by 16-byte cp.async and read by
// ldmatrix.x4 of an A operand: best Sw<3,3,3> o (_64,_64):(_64,_1), conflict-free both ways
// (unswizzled, the read is 8-way).
inline Advice advise(const AdviseRequest& req) {
  using namespace advise_detail;
  if (req.tile.size() != 2 || req.tile[0] < 1 || req.tile[1] < 1)
    rt::fail("advise: the tile must be a rank-2 shape of positive extents, e.g. (_64,_64)");
  if (req.read && req.wgmma_read)
    rt::fail("advise: the tile has one reader: a tiled copy (--read) or a wgmma operand (--wgmma-read)");
  if (!req.read && !req.write && !req.tma_write && !req.wgmma_read)
    rt::fail(
        "advise: name the instruction that writes the tile (--write or --tma-write) or the one that reads it "
        "(--read), or both");
  if (req.write && req.tma_write)
    rt::fail("advise: the tile has one writer: a tiled copy (--write) or TMA (--tma-write)");
  Advice out;
  if (req.write) out.elem_bytes = elem_bytes_of(*req.write);
  if (req.read) {
    const int eb = elem_bytes_of(*req.read);
    if (out.elem_bytes != 0 && eb != out.elem_bytes)
      rt::fail("advise: the write moves " + std::to_string(out.elem_bytes) + "-byte elements and the read " +
               std::to_string(eb) + "-byte ones; a tile holds one element type");
    out.elem_bytes = eb;
  }
  if (req.elem_bytes != 0 && out.elem_bytes != 0 && req.elem_bytes != out.elem_bytes)
    rt::fail("advise: the copies move " + std::to_string(out.elem_bytes) + "-byte elements, not " +
             std::to_string(req.elem_bytes) + " (--elem-bytes)");
  if (out.elem_bytes == 0) out.elem_bytes = req.elem_bytes;
  if (out.elem_bytes == 0)
    rt::fail("advise: TMA and wgmma do not say the element type; give it (--elem-bytes) or a tiled copy (--read)");
  if (req.wgmma_read && out.elem_bytes != 1 && out.elem_bytes != 2 && out.elem_bytes != 4)
    rt::fail("advise: wgmma reads 1-, 2- or 4-byte elements, got " + std::to_string(out.elem_bytes));
  // Which side of each copy is in shared memory: a request error, asked once, not a candidate's.
  if (req.write) (void)analyze_detail::source_side(req.write->copy.atom, MemoryKind::shared, req.write->side);
  if (req.read) (void)analyze_detail::source_side(req.read->copy.atom, MemoryKind::shared, req.read->side);
  if (req.write) out.write_text = rt::to_string(req.write->copy);
  if (req.tma_write) out.write_text = "TMA";
  if (req.read) out.read_text = rt::to_string(req.read->copy);
  if (req.wgmma_read) out.read_text = std::string("wgmma, ") + (req.row_major ? "K-major" : "MN-major") + " operand";

  const int eb = out.elem_bytes;
  const int log_eb = log2_exact(eb);
  const std::int64_t line = req.row_major ? req.tile[1] : req.tile[0];  // elements of a contiguous line
  const std::int64_t lines = req.row_major ? req.tile[0] : req.tile[1];

  std::vector<AdviseCandidate> all;
  // atom_bits >= 0: the tile built from the canonical wgmma atom of that swizzle (tile_to_shape).
  auto consider = [&](int b, int m, int s, std::int64_t pad, int atom_bits = -1) {
    AdviseCandidate c;
    c.bits = b;
    c.base = m;
    c.shift = s;
    c.pad_bytes = pad * eb;
    c.extra_bytes = pad * eb * lines;
    const std::string base = base_text(req.tile, req.row_major, pad);
    const GmmaMajor major = req.row_major ? GmmaMajor::K : GmmaMajor::MN;
    const std::int64_t box_line = atom_bits >= 0 ? gmma_row_elems(eb, atom_bits) : line;  // a TMA box's row
    if (atom_bits >= 0)
      c.spelled = "tile_to_shape(" + check_detail::gmma_atom_text(eb, major, atom_bits) + ", (" +
                  int_text(req.tile[0]) + "," + int_text(req.tile[1]) + ")" + (req.row_major ? "" : ", (_1,_0)") + ")";
    else
      c.spelled =
          b == 0 ? base : "Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + "> o " + base;
    const rt::Value mem = rt::evaluate(c.spelled);
    c.layout = mem.is<rt::ComposedLayout>() ? rt::to_string(mem.as<rt::ComposedLayout>())
                                            : rt::to_string(mem.as<rt::Layout>());
    if (req.tma_write) {
      // TMA writes each box's rows one after the other, swizzled by one of its modes (a row narrower
      // than the swizzle's span padded to it, tma_row_pitch: the tile must have it so); the tensor
      // map's rules (arch/tma_rules.hpp, what make_tma_desc_2d enforces) for the box, and the rules
      // of a tile cut into boxes (arch/tma_tile_rules.hpp, what tma_partition enforces). A box's row
      // is the atom's row (or the whole line); its lines all the tile's, or the fewest equal parts
      // of at most 256 (TMA's box extents).
      const int span = tma_swizzle_bytes(b, m, s, eb);
      std::int64_t box_lines = lines;
      for (std::int64_t k = 1; k <= lines; ++k)
        if (lines % k == 0 && lines / k <= 256) {
          box_lines = lines / k;
          break;
        }
      if (pad != 0) {
        c.legal = false;
        c.why_not = "TMA writes the box densely: no padding";
      } else if (span < 0) {
        c.legal = false;
        c.why_not = "not a TMA swizzle (32/64/128-byte: Sw<1|2|3," + std::to_string(4 - log_eb) + ",3> on " +
                    std::to_string(eb) + "-byte elements)";
      } else if (const auto v =
                     tma_2d_violation({true, eb, std::uint64_t(line), std::uint64_t(lines), std::uint64_t(line),
                                       std::uint32_t(box_line), std::uint32_t(box_lines), span})) {
        c.legal = false;
        c.why_not = "TMA: " + *v;
      } else if (const std::optional<std::string> v =
                     tma_boxes_violation(mem, req.tile, req.row_major, box_line, box_lines, eb, span)) {
        c.legal = false;
        c.why_not = "TMA: " + *v;
      }
      c.tma_boxes = (line / box_line) * (lines / box_lines);
    }
    if (req.wgmma_read && c.legal) {
      const WgmmaCheck w = check_wgmma(mem, eb, major, req.wgmma_block);
      if (!w.legal) {
        c.legal = false;
        c.why_not = "wgmma (" + w.rule + "): " + w.message;
      } else {
        wgmma_read_wavefronts(mem, w, eb, req.tile, c.read_wavefronts, c.read_ideal);
      }
    }
    auto run = [&](const AdviseAccess& a, std::int64_t& wav, std::int64_t& ideal) {
      if (!c.legal) return;
      try {
        const Report r = analyze_copy(mem, a.copy, MemoryKind::shared, a.side);
        wav = r.total_wavefronts();
        ideal = r.total_ideal();
      } catch (const layout_error& e) {
        c.legal = false;
        c.why_not = e.what();
      }
    };
    if (req.write) run(*req.write, c.write_wavefronts, c.write_ideal);
    if (req.read) run(*req.read, c.read_wavefronts, c.read_ideal);
    all.push_back(std::move(c));
  };

  consider(0, 0, 0, 0);
  for (int b = 1; b <= 5; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = b; s <= 7; ++s) consider(b, m, s, 0);
  if (req.padding)
    for (std::int64_t pad_bytes : {4, 8, 16, 32})
      if (pad_bytes % eb == 0) consider(0, 0, 0, pad_bytes / eb);
  // wgmma's canonical atoms, where the tile's contiguous lines hold several of their rows (the
  // plain candidates above are those whose lines are one row).
  if (req.wgmma_read && (eb == 1 || eb == 2 || eb == 4))
    for (int b = 0; b <= 3; ++b) {
      const std::int64_t row = gmma_row_elems(eb, b);
      if (line > row && line % row == 0 && lines % 8 == 0) consider(b, b == 0 ? 0 : 4 - log_eb, b == 0 ? 0 : 3, 0, b);
    }

  std::stable_sort(all.begin(), all.end(), [](const AdviseCandidate& x, const AdviseCandidate& y) {
    if (x.legal != y.legal) return x.legal;
    if (!x.legal) return false;
    if (x.excess() != y.excess()) return x.excess() < y.excess();
    if (x.extra_bytes != y.extra_bytes) return x.extra_bytes < y.extra_bytes;
    if (x.tma_boxes != y.tma_boxes) return x.tma_boxes < y.tma_boxes;
    return x.bits < y.bits;  // then the enumeration order: smaller base, then shift
  });
  out.candidates = std::move(all);
  return out;
}

// The advice as text: the instructions, the best layout with its verdict, and the table of the
// candidates (the legal ones; `max_rows` of them, 0 for all; then how many were illegal and why).
inline std::string to_text(const Advice& a, std::size_t max_rows = 12) {
  using analyze_detail::pad_left;
  std::string s;
  s += "element: " + std::to_string(a.elem_bytes) + " bytes\n";
  if (!a.write_text.empty()) s += "write: " + a.write_text + "\n";
  if (!a.read_text.empty()) s += "read:  " + a.read_text + "\n";
  const bool any = !a.candidates.empty() && a.candidates.front().legal;
  if (any) {
    const AdviseCandidate& b = a.best();
    s += "best:  " + b.spelled + "  (" +
         (b.excess() == 0 ? std::string("conflict-free") : std::to_string(b.excess()) + " excess wavefronts") +
         (b.extra_bytes ? ", " + std::to_string(b.extra_bytes) + " bytes of padding" : std::string()) +
         (b.tma_boxes > 1 ? ", " + std::to_string(b.tma_boxes) + " TMA boxes" : std::string()) + ")\n";
  } else {
    s += "best:  none legal\n";
  }
  s +=
      "\n" + pad_left("write", 14) + pad_left("read", 14) + pad_left("excess", 8) + pad_left("pad B", 7) + "  layout\n";
  std::size_t rows = 0, illegal = 0;
  auto pair = [](std::int64_t w, std::int64_t i) {
    return i == 0 ? std::string("-") : std::to_string(w) + "/" + std::to_string(i);
  };
  for (const auto& c : a.candidates) {
    if (!c.legal) {
      ++illegal;
      continue;
    }
    if (max_rows != 0 && rows >= max_rows) continue;
    ++rows;
    s += pad_left(pair(c.write_wavefronts, c.write_ideal), 14) + pad_left(pair(c.read_wavefronts, c.read_ideal), 14) +
         pad_left(std::to_string(c.excess()), 8) + pad_left(std::to_string(c.pad_bytes), 7) + "  " + c.spelled +
         (c.tma_boxes > 1 ? "  (" + std::to_string(c.tma_boxes) + " TMA boxes)" : std::string()) + "\n";
  }
  std::size_t legal = 0;
  for (const auto& c : a.candidates) legal += c.legal ? 1 : 0;
  if (max_rows != 0 && legal > rows) s += "(" + std::to_string(legal - rows) + " more legal candidates)\n";
  s += "(write, read: wavefronts / ideal over all instructions of the tile; excess: beyond the ideal, both)\n";
  if (illegal == 0) return s;
  // The illegal ones by rule, with one example each.
  struct Rule {
    std::string text, example;
    std::size_t count = 0;
  };
  std::vector<Rule> rules;
  for (const auto& c : a.candidates) {
    if (c.legal) continue;
    const bool vector = c.why_not.find("contiguous, aligned") != std::string::npos;
    const std::string text =
        vector ? "split an instruction's vector (its elements must stay contiguous and aligned)" : c.why_not;
    auto it = std::find_if(rules.begin(), rules.end(), [&](const Rule& r) { return r.text == text; });
    if (it == rules.end()) {
      rules.push_back({text, c.spelled + (vector ? ": " + c.why_not.substr(0, c.why_not.find(';')) : ""), 0});
      it = rules.end() - 1;
    }
    ++it->count;
  }
  s += std::to_string(illegal) + " candidates illegal for these instructions:\n";
  for (const auto& r : rules) s += "  " + std::to_string(r.count) + " " + r.text + ", e.g. " + r.example + "\n";
  return s;
}

}  // namespace tessera::tools
