// tessera/tools/analyze.hpp -- a model of one warp-wide memory instruction over a layout:
// shared-memory bank conflicts (wavefronts per instruction against the ideal) and global-memory
// coalescing (32-byte sectors per request), plus heat maps (ascii, standalone SVG).
// Host-only, on the run-time twin (tessera::rt). The CLI is `tessera analyze` (docs/analyze.md).
//
//   memory layout   (m,n) -> element offset        Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
//   access layout   (thr,val) -> tile index        ((_8,_4),(_8,_2)):((_1,_64),(_8,_256))
//
// The access layout's values are indices into the tile, i.e. the column-major (colexicographic)
// index of (m,n) in the memory layout's shape, exactly what make_layout_tv returns. Threads
// [32w, 32w+32) form warp w. Each thread's values [k*vector, (k+1)*vector) form one vector access
// of vector*elem_bytes bytes; k enumerates the instructions of a warp. So one instruction is
// (warp w, value group k), and the whole access layout is size(val)/vector instructions per warp.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/analyze.hpp: host only (the command's drawings); kernels print with tessera/core/print.hpp"
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tessera/runtime/copy_atom.hpp"
#include "tessera/runtime/layout.hpp"
#include "tessera/runtime/swizzle.hpp"
#include "tessera/runtime/value.hpp"
#include "tessera/tools/xml.hpp"

namespace tessera::tools {

enum class MemoryKind { shared, global };

// One thread's part of one instruction: `bytes` bytes at byte address `address` (base 0, which
// stands for a 128-byte-aligned base), covering the tile cells `cells` (tile indices).
struct LaneAccess {
  int lane = 0;
  std::int64_t address = 0;
  int bytes = 0;
  std::vector<std::int64_t> cells;
};

// One warp-wide instruction and the model's verdict on it.
struct Instruction {
  std::int64_t warp = 0;
  std::int64_t index = 0;         // value group k within the warp
  std::vector<LaneAccess> lanes;  // active lanes only
  std::int64_t wavefronts = 0;    // shared: wavefronts the banks need
  std::int64_t ideal = 0;         // shared: max(1, ceil(bytes / 128)); global: ceil(useful / 32)
  std::int64_t sectors = 0;       // global: distinct 32-byte sectors touched
  std::int64_t useful_bytes = 0;  // distinct bytes requested
};

struct AnalyzeOptions {
  MemoryKind memory = MemoryKind::shared;
  int elem_bytes = 4;
  int vector = 1;
  // Lanes that give an address, by thread index modulo the size (empty: all). A copy atom whose
  // threads repeat another thread's whole access (ldmatrix/stmatrix .x1/.x2: only lanes 0-7 or
  // 0-15 give row addresses) leaves the others out (analyze_copy).
  std::vector<bool> address_lanes;
};

// Which side of a tiled copy is in the analyzed memory: the source (ldmatrix reads shared memory,
// cp.async reads global memory) or the destination (stmatrix and cp.async write shared memory).
enum class CopySide { automatic, source, destination };

// copy_side(text): "src" -> source, "dst" -> destination, "" -> automatic; anything else is a
// layout_error naming `who` and the accepted words. Example: copy_side("dst", "analyze").
inline CopySide copy_side(const std::string& text, const char* who) {
  if (text.empty()) return CopySide::automatic;
  if (text == "src") return CopySide::source;
  if (text == "dst") return CopySide::destination;
  rt::fail(std::string(who) + ": a side must be 'src' or 'dst', got '" + text + "'");
}

struct Report {
  MemoryKind memory = MemoryKind::shared;
  std::string layout_text;  // the memory layout as printed by the library
  std::string access_text;  // the access layout
  int elem_bytes = 4;
  int vector = 1;
  int access_bytes = 4;  // vector * elem_bytes
  std::int64_t threads = 0;
  std::int64_t rows = 1, cols = 1;  // the tile's rank-2 view for heat maps
  std::vector<Instruction> instructions;
  // Heat map per tile cell (rows*cols, column-major): shared -> the ways of the access that
  // touched it (distinct words its bank served in its phase); global -> sectors of its request.
  // 0 = never accessed; with several accesses, the largest.
  std::vector<std::int64_t> cell_heat;
  std::vector<std::int64_t> cell_hits;  // how many accesses touched the cell
  // Shared only: per bank, 4-byte word accesses over all instructions, and the worst ways.
  std::vector<std::int64_t> bank_accesses;
  std::vector<std::int64_t> bank_ways;

  std::int64_t total_wavefronts() const { return sum(&Instruction::wavefronts); }
  std::int64_t total_ideal() const { return sum(&Instruction::ideal); }
  std::int64_t total_sectors() const { return sum(&Instruction::sectors); }
  std::int64_t total_useful_bytes() const { return sum(&Instruction::useful_bytes); }
  // Shared: total wavefronts / total ideal (1 = conflict-free, 32 = 32-way).
  double conflict_degree() const { return ratio(total_wavefronts(), total_ideal()); }
  // Global: useful bytes / sector bytes.
  double efficiency() const { return ratio(total_useful_bytes(), 32 * total_sectors()); }

 private:
  std::int64_t sum(std::int64_t Instruction::*field) const {
    std::int64_t s = 0;
    for (const auto& i : instructions) s += i.*field;
    return s;
  }
  static double ratio(std::int64_t a, std::int64_t b) { return b == 0 ? 0.0 : double(a) / double(b); }
};

namespace analyze_detail {

// A memory layout: a Layout or a ComposedLayout (swizzled), (m,n) -> element offset.
struct MemoryLayout {
  bool composed = false;
  rt::Layout layout;
  rt::ComposedLayout swizzled;

  const rt::Layout& inner() const { return composed ? swizzled.inner : layout; }
  std::int64_t size() const { return rt::size(inner()).value; }
  std::int64_t operator()(std::int64_t idx) const {
    const rt::IntTuple i{rt::D(idx)};
    return composed ? rt::evaluate(swizzled, i).value : rt::evaluate(layout, i).value;
  }
  std::string text() const { return composed ? rt::to_string(swizzled) : rt::to_string(layout); }
};

inline MemoryLayout as_memory_layout(const rt::Value& v) {
  MemoryLayout m;
  if (v.is<rt::Layout>()) {
    m.layout = v.as<rt::Layout>();
  } else if (v.is<rt::ComposedLayout>()) {
    m.composed = true;
    m.swizzled = v.as<rt::ComposedLayout>();
  } else if (v.is<rt::IntTuple>() && !v.as<rt::IntTuple>().is_underscore()) {
    m.layout = rt::make_layout(v.as<rt::IntTuple>());
  } else {
    rt::fail("analyze: the memory layout must be a layout or a swizzled (composed) layout, got " + rt::to_string(v) +
             "; write e.g. (_32,_32):(_32,_1) or Sw<3,3,3> o (_8,_64):(_64,_1)");
  }
  return m;
}

// An access layout: (thr,val) -> tile index; make_layout_tv's (tiler, tv) pair gives its tv.
inline rt::Layout as_access_layout(const rt::Value& v) {
  if (v.is<rt::ValueTuple>() && v.as<rt::ValueTuple>().items.size() == 2 &&
      v.as<rt::ValueTuple>().items[1].is<rt::Layout>())
    return as_access_layout(v.as<rt::ValueTuple>().items[1]);
  if (!v.is<rt::Layout>())
    rt::fail("analyze: the access layout must be a (thread,value) -> tile index layout, got " + rt::to_string(v) +
             "; write e.g. (_32,_32):(_1,_32)");
  const rt::Layout& l = v.as<rt::Layout>();
  if (rt::rank(l).value != 2)
    rt::fail("analyze: the access layout " + rt::to_string(l) + " has rank " + std::to_string(rt::rank(l).value) +
             ", need rank 2 (thread mode, value mode); "
             "group modes, e.g. (_32,(_4,_8)):(_1,(_32,_128))");
  return l;
}

inline bool valid_width(int b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }

// Phase size of a shared-memory access: 32 threads for accesses up to 4 bytes, 16 for 8-byte
// and 8 for 16-byte accesses (docs/analyze.md, "The model").
inline int phase_threads(int access_bytes) { return access_bytes <= 4 ? 32 : (access_bytes == 8 ? 16 : 8); }

}  // namespace analyze_detail

// analyze(memory, access, options): the instructions of the access pattern over the memory layout
// and the model's count for each. Pre: elem_bytes and vector*elem_bytes in {1,2,4,8,16}; size(val)
// divisible by vector; each thread's vector contiguous and aligned in memory; every tile index
// below size(memory). Example: analyze((_32,_32):(_32,_1), (_32,_32):(_1,_32), {shared, 4, 1})
// has 32 instructions of 32 wavefronts each (ideal 1): a 32-way conflict.
inline Report analyze(const rt::Value& memory_value, const rt::Value& access_value, const AnalyzeOptions& opt) {
  using namespace analyze_detail;
  const MemoryLayout mem = as_memory_layout(memory_value);
  const rt::Layout tv = as_access_layout(access_value);
  if (!valid_width(opt.elem_bytes))
    rt::fail("analyze: element width " + std::to_string(opt.elem_bytes) +
             " bytes is not supported; use 1, 2, 4, 8 or 16");
  if (opt.vector < 1 || !valid_width(opt.vector * opt.elem_bytes))
    rt::fail("analyze: a vector of " + std::to_string(opt.vector) + " elements of " + std::to_string(opt.elem_bytes) +
             " bytes is not one memory instruction; the vector must be 1, 2, 4, 8 or 16 bytes");

  Report r;
  r.memory = opt.memory;
  r.layout_text = mem.text();
  r.access_text = rt::to_string(tv);
  r.elem_bytes = opt.elem_bytes;
  r.vector = opt.vector;
  r.access_bytes = opt.vector * opt.elem_bytes;

  const rt::Layout& inner = mem.inner();
  const std::int64_t tile = mem.size();
  r.rows = rt::rank(inner).value >= 2 ? rt::size(rt::shape(inner, 0)).value : 1;
  r.cols = tile / r.rows;
  if (tile > (std::int64_t{1} << 22))
    rt::fail("analyze: the memory layout has " + std::to_string(tile) +
             " elements; the model handles at most 4194304 (one tile, not a whole tensor)");

  const rt::Layout thr = rt::layout(tv, 0), val = rt::layout(tv, 1);
  const std::int64_t nthr = rt::size(thr).value, nval = rt::size(val).value;
  r.threads = nthr;
  if (nval % opt.vector != 0)
    rt::fail("analyze: the value mode " + rt::to_string(val) + " has " + std::to_string(nval) +
             " values, not a multiple of the vector width " + std::to_string(opt.vector) +
             "; use a vector width that divides it");
  const std::int64_t accesses = rt::checked_mul(nthr, nval, "analyze: the number of accesses of " + r.access_text);
  if (accesses > (std::int64_t{1} << 22))
    rt::fail("analyze: the access layout makes " + std::to_string(accesses) +
             " accesses; the model handles at most 4194304");
  const std::int64_t groups = nval / opt.vector, warps = (nthr + 31) / 32;

  r.cell_heat.assign(static_cast<std::size_t>(tile), 0);
  r.cell_hits.assign(static_cast<std::size_t>(tile), 0);
  r.bank_accesses.assign(32, 0);
  r.bank_ways.assign(32, 0);

  for (std::int64_t w = 0; w < warps; ++w) {
    for (std::int64_t k = 0; k < groups; ++k) {
      Instruction ins;
      ins.warp = w;
      ins.index = k;
      for (std::int64_t lane = 0; lane < 32 && 32 * w + lane < nthr; ++lane) {
        const std::int64_t t = 32 * w + lane;
        if (!opt.address_lanes.empty() && !opt.address_lanes[static_cast<std::size_t>(t) % opt.address_lanes.size()])
          continue;
        LaneAccess a;
        a.lane = static_cast<int>(lane);
        a.bytes = r.access_bytes;
        std::int64_t first = 0;
        for (int e = 0; e < opt.vector; ++e) {
          const std::int64_t v = k * opt.vector + e;
          const std::int64_t cell =
              rt::evaluate(tv, rt::make_tuple({rt::IntTuple{rt::D(t)}, rt::IntTuple{rt::D(v)}})).value;
          if (cell < 0 || cell >= tile)
            rt::fail("analyze: thread " + std::to_string(t) + ", value " + std::to_string(v) + " maps to tile index " +
                     std::to_string(cell) + ", outside the memory layout's " + std::to_string(tile) +
                     " elements; the access layout must index the tile of " + r.layout_text);
          const std::int64_t off = mem(cell);
          if (off < 0)
            rt::fail("analyze: tile index " + std::to_string(cell) + " has the negative offset " + std::to_string(off) +
                     "; the model needs non-negative offsets");
          if (e == 0) first = off;
          const auto vector_text = [&] { return "analyze: the offset of thread " + std::to_string(t) + "'s vector"; };
          if (off != rt::checked_add(first, e, vector_text) || (opt.vector > 1 && first % opt.vector != 0))
            rt::fail("analyze: thread " + std::to_string(t) + "'s vector " + std::to_string(k) + " (values " +
                     std::to_string(k * opt.vector) + ".." + std::to_string(k * opt.vector + opt.vector - 1) +
                     ") is not " + std::to_string(opt.vector) + " contiguous, aligned elements in memory (value " +
                     std::to_string(v) + " is at offset " + std::to_string(off) + " after " + std::to_string(first) +
                     "); use a smaller --vector or an access layout whose vector values are contiguous");
          a.cells.push_back(cell);
        }
        // Byte addresses: the offset times the element width, and the last byte of the vector,
        // must fit int64 (a wrapped address would fall into a wrong bank or sector).
        const auto where = [&] {
          return "analyze: the byte address of element offset " + std::to_string(first) + " (" +
                 std::to_string(opt.elem_bytes) + "-byte elements) of " + r.layout_text;
        };
        a.address = rt::checked_mul(first, opt.elem_bytes, where);
        (void)rt::checked_add(a.address, a.bytes - 1, where);
        ins.lanes.push_back(std::move(a));
      }
      const auto active = static_cast<std::int64_t>(ins.lanes.size());
      std::set<std::int64_t> bytes;
      for (const auto& a : ins.lanes)
        for (int b = 0; b < a.bytes; ++b) bytes.insert(a.address + b);
      ins.useful_bytes = static_cast<std::int64_t>(bytes.size());

      if (opt.memory == MemoryKind::shared) {
        // Phase by phase: each bank serves one distinct 4-byte word per wavefront; threads that
        // read the same word share it (broadcast).
        const int phase = phase_threads(r.access_bytes);
        std::vector<std::int64_t> lane_ways(ins.lanes.size(), 0);
        for (int p0 = 0; p0 < 32; p0 += phase) {
          std::map<std::int64_t, std::set<std::int64_t>> words;  // bank -> words
          for (const auto& a : ins.lanes)
            if (a.lane >= p0 && a.lane < p0 + phase)
              for (std::int64_t word = a.address / 4; word <= (a.address + (a.bytes - 1)) / 4; ++word)
                words[word % 32].insert(word);
          std::int64_t worst = 0;
          for (const auto& [bank, ws] : words) {
            const auto n = static_cast<std::int64_t>(ws.size());
            worst = std::max(worst, n);
            r.bank_accesses[static_cast<std::size_t>(bank)] += n;
            r.bank_ways[static_cast<std::size_t>(bank)] = std::max(r.bank_ways[static_cast<std::size_t>(bank)], n);
          }
          ins.wavefronts += worst;
          for (std::size_t i = 0; i < ins.lanes.size(); ++i) {
            const auto& a = ins.lanes[i];
            if (a.lane < p0 || a.lane >= p0 + phase) continue;
            for (std::int64_t word = a.address / 4; word <= (a.address + (a.bytes - 1)) / 4; ++word)
              lane_ways[i] = std::max(lane_ways[i], static_cast<std::int64_t>(words[word % 32].size()));
          }
        }
        ins.ideal = active == 0 ? 0 : std::max<std::int64_t>(1, (active * r.access_bytes + 127) / 128);
        for (std::size_t i = 0; i < ins.lanes.size(); ++i)
          for (auto c : ins.lanes[i].cells) {
            auto& h = r.cell_heat[static_cast<std::size_t>(c)];
            h = std::max(h, lane_ways[i]);
            ++r.cell_hits[static_cast<std::size_t>(c)];
          }
      } else {
        std::set<std::int64_t> sectors;
        for (auto b : bytes) sectors.insert(b / 32);
        ins.sectors = static_cast<std::int64_t>(sectors.size());
        ins.ideal = (ins.useful_bytes + 31) / 32;
        for (const auto& a : ins.lanes)
          for (auto c : a.cells) {
            auto& h = r.cell_heat[static_cast<std::size_t>(c)];
            h = std::max(h, ins.sectors);
            ++r.cell_hits[static_cast<std::size_t>(c)];
          }
      }
      r.instructions.push_back(std::move(ins));
    }
  }
  return r;
}

// ---- tiled copies ------------------------------------------------------------------------------

namespace analyze_detail {
// The side of the copy in memory of this kind: ldmatrix reads shared memory, stmatrix writes it,
// cp.async reads global and writes shared memory; other instructions need the side named.
inline bool source_side(const rt::CopyAtom& atom, MemoryKind memory, CopySide side) {
  if (side != CopySide::automatic) return side == CopySide::source;
  const std::string& n = atom.name;
  if (n.find("_LDSM_") != std::string::npos) return true;
  if (n.find("_STSM_") != std::string::npos) return false;
  if (n.find("CP_ASYNC") != std::string::npos) return memory == MemoryKind::global;
  rt::fail("analyze: say which side of " + n + " is in the analyzed memory: --side src or --side dst");
}
}  // namespace analyze_detail

// analyze_copy(memory, c, kind, side): the instructions of the tiled copy c over the whole memory
// tile (c's tile repeated over it, tidfrg_s/d): each thread's values of one atom are one vector
// access of the atom's width in elements of its type; threads that repeat another thread's whole
// access in the atom (ldmatrix .x1/.x2) give no address. Pre: c's tile divides the memory layout's
// shape; the atom's values of a thread are contiguous and aligned in memory (as the instruction
// needs). analyze_copy(Sw<3,3,3> o (_64,_64):(_64,_1), make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,
// half_t>, mma), shared): conflict-free; unswizzled, 8-way (docs/analyze.md).
inline Report analyze_copy(const rt::Value& memory_value, const rt::TiledCopy& c, MemoryKind memory,
                           CopySide side = CopySide::automatic) {
  using namespace analyze_detail;
  const MemoryLayout mem = as_memory_layout(memory_value);
  const bool src = source_side(c.atom, memory, side);
  const rt::Layout atom_tv = src ? rt::val_layout_src(c.atom) : rt::val_layout_dst(c.atom);
  const std::int64_t atom_thr = rt::size(rt::layout(atom_tv, 0)).value,
                     atom_val = rt::size(rt::layout(atom_tv, 1)).value;
  AnalyzeOptions opt;
  opt.memory = memory;
  if (c.atom.value_bits % 8 != 0)
    rt::fail("analyze: " + c.atom.name + " moves " + std::to_string(c.atom.value_bits) +
             "-bit elements; the model needs whole bytes");
  opt.elem_bytes = c.atom.value_bits / 8;
  opt.vector = static_cast<int>(atom_val);
  // (thr, (CopyV, Rest...)) -> tile index of the memory layout's shape
  const rt::Layout whole = rt::make_layout(mem.inner().shape);
  const rt::Layout part = src ? rt::tidfrg_s(c, whole) : rt::tidfrg_d(c, whole);
  const rt::Layout tv = rt::make_layout(std::vector<rt::Layout>{
      rt::layout(part, 0), rt::make_layout(std::vector<rt::Layout>{rt::layout(part, 1), rt::layout(part, 2)})});
  opt.address_lanes.assign(static_cast<std::size_t>(atom_thr), true);
  for (std::int64_t t = 1; t < atom_thr; ++t)
    for (std::int64_t u = 0; u < t && opt.address_lanes[static_cast<std::size_t>(t)]; ++u) {
      bool same = true;
      for (std::int64_t v = 0; v < atom_val && same; ++v)
        same = rt::evaluate(atom_tv, rt::make_tuple({rt::IntTuple{rt::D(t)}, rt::IntTuple{rt::D(v)}})).value ==
               rt::evaluate(atom_tv, rt::make_tuple({rt::IntTuple{rt::D(u)}, rt::IntTuple{rt::D(v)}})).value;
      if (same) opt.address_lanes[static_cast<std::size_t>(t)] = false;
    }
  Report r;
  try {
    r = analyze(memory_value, rt::Value(tv), opt);
  } catch (const layout_error& e) {
    std::string what = e.what();
    const std::string hint = "use a smaller --vector or an access layout whose vector values are contiguous";
    if (const auto at = what.find(hint); at != std::string::npos)
      what.replace(at, hint.size(),
                   c.atom.name + " moves " + std::to_string(atom_val) +
                       " contiguous elements a thread: use a memory layout where they are (for ldmatrix "
                       "of an MN-major tile, the transposing LDSM_T)");
    rt::fail(what);
  }
  r.access_text = std::string(src ? "source" : "destination") + " of " + rt::to_string(c) +
                  " over the memory tile: " + rt::to_string(tv);
  return r;
}

// ---- text ------------------------------------------------------------------------------------

namespace analyze_detail {
inline std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}
inline std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
// "32-way", "1.5-way"
inline std::string ways(std::int64_t a, std::int64_t b) {
  if (b == 0) return "-";
  if (a % b == 0) return std::to_string(a / b) + "-way";
  std::string s = fixed(double(a) / double(b), 2);
  while (s.back() == '0') s.pop_back();
  return s + "-way";
}
}  // namespace analyze_detail

// The report as text: the inputs, one line per instruction (at most `max_lines`), the totals.
inline std::string to_text(const Report& r, std::size_t max_lines = 64) {
  using namespace analyze_detail;
  const bool sh = r.memory == MemoryKind::shared;
  std::string out;
  out += std::string(sh ? "shared" : "global") + " memory: " + r.layout_text + ", " + std::to_string(r.elem_bytes) +
         "-byte elements\n";
  out += "access: " + r.access_text + ", " + std::to_string(r.threads) + " threads, " +
         std::to_string(r.instructions.size()) + " instructions of " + std::to_string(r.access_bytes) +
         "-byte vectors (" + std::to_string(r.vector) + (r.vector == 1 ? " element" : " elements") + " per thread)\n";
  out += sh ? "instruction  warp  wavefronts  ideal  conflict\n" : "instruction  warp  sectors  ideal  efficiency\n";
  for (std::size_t i = 0; i < r.instructions.size() && i < max_lines; ++i) {
    const auto& in = r.instructions[i];
    out += pad_left(std::to_string(in.index), 11) + pad_left(std::to_string(in.warp), 6);
    if (sh) {
      out += pad_left(std::to_string(in.wavefronts), 12) + pad_left(std::to_string(in.ideal), 7) + "  " +
             ways(in.wavefronts, in.ideal) + "\n";
    } else {
      out +=
          pad_left(std::to_string(in.sectors), 9) + pad_left(std::to_string(in.ideal), 7) +
          pad_left(fixed(in.sectors ? 100.0 * double(in.useful_bytes) / double(32 * in.sectors) : 0.0, 1) + "%", 12) +
          "\n";
    }
  }
  if (r.instructions.size() > max_lines)
    out += "... (" + std::to_string(r.instructions.size() - max_lines) + " more instructions)\n";
  const double n = r.instructions.empty() ? 1.0 : double(r.instructions.size());
  if (sh) {
    const std::int64_t w = r.total_wavefronts(), id = r.total_ideal();
    out += "total: " + std::to_string(w) + " wavefronts for " + std::to_string(r.instructions.size()) +
           " instructions (ideal " + std::to_string(id) + "), " + fixed(double(w) / n, 2) +
           " wavefronts/instruction, " + ways(w, id) + (w == id ? " (conflict-free)" : " (bank conflicts)") + "\n";
  } else {
    out += "total: " + std::to_string(r.total_sectors()) + " sectors for " + std::to_string(r.instructions.size()) +
           " requests (ideal " + std::to_string(r.total_ideal()) + "), " + fixed(double(r.total_sectors()) / n, 2) +
           " sectors/request, coalescing efficiency " + fixed(100.0 * r.efficiency(), 1) + "%\n";
  }
  return out;
}

// ---- heat maps -------------------------------------------------------------------------------

// Heat maps hold at most this many cells (a 256x256 tile), as `tessera show`'s pictures: a larger
// tile is an error naming the fix (the report itself has no such limit).
inline constexpr std::int64_t kMaxHeatmapCells = std::int64_t{1} << 16;

namespace analyze_detail {
inline void check_heatmap_cells(const Report& r) {
  if (r.rows > kMaxHeatmapCells || r.cols > kMaxHeatmapCells || r.rows * r.cols > kMaxHeatmapCells)
    rt::fail("analyze: a heat map of " + r.layout_text + " would have " + std::to_string(r.rows) + "x" +
             std::to_string(r.cols) + " cells, more than " + std::to_string(kMaxHeatmapCells) +
             "; leave out --heatmap, or analyze a smaller tile (e.g. a 256x256 slice of the layout)");
}
}  // namespace analyze_detail

// ascii heat map: the tile's rank-2 view (rows x cols) in print_layout's grid, each cell the
// ways of its access (shared) or the sectors of its request (global), `.` if never accessed;
// shared adds one line per bank: word accesses and worst ways.
// Pre: rows*cols <= kMaxHeatmapCells.
inline std::string heatmap_ascii(const Report& r) {
  using namespace analyze_detail;
  check_heatmap_cells(r);
  const bool sh = r.memory == MemoryKind::shared;
  std::int64_t top = 0;
  for (auto h : r.cell_heat) top = std::max(top, h);
  const std::size_t w = std::max<std::size_t>({std::to_string(top).size(), std::to_string(r.cols - 1).size(), 1});
  const std::size_t rw = std::to_string(r.rows - 1).size();
  std::string out =
      sh ? "heat map: ways of the bank access that touched each cell (1 = conflict-free, . = not accessed)\n"
         : "heat map: 32-byte sectors of the request that touched each cell (. = not accessed)\n";
  std::string head(rw + 4, ' '), rule(rw + 2, ' ');
  for (std::int64_t n = 0; n < r.cols; ++n) {
    head += pad_left(std::to_string(n), w) + "   ";
    rule += "+" + std::string(w + 2, '-');
  }
  rule += "+\n";
  while (!head.empty() && head.back() == ' ') head.pop_back();
  out += head + "\n" + rule;
  for (std::int64_t m = 0; m < r.rows; ++m) {
    out += " " + pad_left(std::to_string(m), rw) + " ";
    for (std::int64_t n = 0; n < r.cols; ++n) {
      const auto h = r.cell_heat[static_cast<std::size_t>(m + n * r.rows)];
      out += "| " + pad_left(h ? std::to_string(h) : ".", w) + " ";
    }
    out += "|\n" + rule;
  }
  if (sh) {
    out += "bank  word accesses  worst ways\n";
    for (int b = 0; b < 32; ++b)
      out += pad_left(std::to_string(b), 4) +
             pad_left(std::to_string(r.bank_accesses[static_cast<std::size_t>(b)]), 15) +
             pad_left(std::to_string(r.bank_ways[static_cast<std::size_t>(b)]), 12) + "\n";
  }
  return out;
}

namespace analyze_detail {
using tools::xml_escape;
// 1 (best) -> green, top -> red; 0 -> light grey.
inline std::string heat_color(std::int64_t h, std::int64_t best, std::int64_t top) {
  if (h == 0) return "#eeeeee";
  const double t = top > best ? double(h - best) / double(top - best) : 0.0;
  const int red = static_cast<int>(80 + 175 * t), green = static_cast<int>(200 - 150 * t), blue = 80;
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", red, green, blue);
  return buf;
}
}  // namespace analyze_detail

// Standalone SVG heat map (no scripts, no external fonts): the tile grid colored from green
// (conflict-free / fewest sectors) to red (worst), each cell labeled and titled with its
// coordinate and value; shared adds a bar per bank (word accesses).
// Pre: rows*cols <= kMaxHeatmapCells.
inline std::string heatmap_svg(const Report& r) {
  using namespace analyze_detail;
  check_heatmap_cells(r);
  const bool sh = r.memory == MemoryKind::shared;
  const int cell = 24, margin = 40;
  std::int64_t top = 0, best = 0;
  for (auto h : r.cell_heat) {
    top = std::max(top, h);
    if (h && (best == 0 || h < best)) best = h;
  }
  const std::int64_t grid_w = r.cols * cell, grid_h = r.rows * cell;
  const std::int64_t bars_h = sh ? 140 : 0;
  const std::int64_t width = std::max<std::int64_t>(grid_w, sh ? 32 * 16 : 0) + 2 * margin;
  const std::int64_t height = grid_h + 2 * margin + 20 + bars_h;
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
       std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
       "\" font-family=\"monospace\" font-size=\"10\">\n";
  o +=
      "<title>" +
      xml_escape(std::string(sh ? "shared" : "global") + " memory " + r.layout_text + " accessed by " + r.access_text) +
      "</title>\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) +
       "\" fill=\"white\"/>\n";
  const std::string caption =
      sh ? "ways per access: " + ways(r.total_wavefronts(), r.total_ideal()) + " overall, " +
               std::to_string(r.total_wavefronts()) + " wavefronts (ideal " + std::to_string(r.total_ideal()) + ")"
         : "sectors per request; coalescing efficiency " + fixed(100.0 * r.efficiency(), 1) + "%";
  o += "<text x=\"" + std::to_string(margin) + "\" y=\"20\">" + xml_escape(caption) + "</text>\n";
  for (std::int64_t m = 0; m < r.rows; ++m)
    for (std::int64_t n = 0; n < r.cols; ++n) {
      const auto idx = static_cast<std::size_t>(m + n * r.rows);
      const auto h = r.cell_heat[idx];
      const std::int64_t x = margin + n * cell, y = margin + m * cell;
      o += "<g><title>(" + std::to_string(m) + "," + std::to_string(n) + ") " + (sh ? "ways " : "sectors ") +
           std::to_string(h) + ", accesses " + std::to_string(r.cell_hits[idx]) + "</title><rect x=\"" +
           std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) + "\" height=\"" +
           std::to_string(cell) + "\" fill=\"" + heat_color(h, best, top) +
           "\" stroke=\"black\" stroke-width=\"0.5\"/>";
      if (h)
        o += "<text x=\"" + std::to_string(x + cell / 2) + "\" y=\"" + std::to_string(y + cell / 2 + 4) +
             "\" text-anchor=\"middle\">" + std::to_string(h) + "</text>";
      o += "</g>\n";
    }
  if (sh) {
    std::int64_t most = 1;
    for (auto a : r.bank_accesses) most = std::max(most, a);
    const std::int64_t base = margin + grid_h + 20 + 110;
    o += "<text x=\"" + std::to_string(margin) + "\" y=\"" + std::to_string(margin + grid_h + 20) +
         "\">word accesses per bank (0..31)</text>\n";
    for (int b = 0; b < 32; ++b) {
      const std::int64_t a = r.bank_accesses[static_cast<std::size_t>(b)], hgt = 100 * a / most;
      o += "<g><title>bank " + std::to_string(b) + ": " + std::to_string(a) + " word accesses, worst " +
           std::to_string(r.bank_ways[static_cast<std::size_t>(b)]) + "-way</title><rect x=\"" +
           std::to_string(margin + 16 * b) + "\" y=\"" + std::to_string(base - hgt) + "\" width=\"14\" height=\"" +
           std::to_string(hgt) + "\" fill=\"" +
           heat_color(r.bank_ways[static_cast<std::size_t>(b)], 1, std::max<std::int64_t>(top, 1)) + "\"/></g>\n";
    }
  }
  o += "</svg>\n";
  return o;
}

}  // namespace tessera::tools
