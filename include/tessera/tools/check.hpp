// tessera/tools/check.hpp -- the legality checker: whether a (layout, instruction) pair is one the
// hardware accepts, and when not, the rule it breaks, with the values and the fix. Host-only, on
// the run-time twin (tessera::rt). The CLI is `tessera check` (docs/advise.md, "tessera check").
//
//   check_tma(global, box, elem_bytes)   a TMA tensor map of the 2-D matrix `global` read or
//                                        written in boxes laid out in shared memory as `box`
//                                        (plain or swizzled): the functions make_tma_desc's own
//                                        checks call (arch/tma_rules.hpp: the box's contiguous
//                                        mode, its swizzle, TMA's row order), and the tensor map's
//                                        rules (the code make_tma_desc_2d runs).
//   check_wgmma(smem, elem_bytes, ...)  a wgmma operand's shared-memory tile: whether every block a
//                                        descriptor describes is one of the canonical layouts
//                                        (arch/wgmma_rules.hpp, the rules make_gmma_desc's
//                                        static_asserts use), and the descriptors' offsets.
//   check_copy(smem, copy, side)         a tiled copy's instructions over a shared-memory tile:
//                                        every thread's vector contiguous and aligned in it (what
//                                        cp.async, ldmatrix, stmatrix and vector loads need), and
//                                        their bank conflicts (tools/analyze.hpp's model).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/check.hpp: host only"
#endif

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/arch/tma_rules.hpp"
#include "tessera/arch/wgmma_rules.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/runtime/swizzle.hpp"
#include "tessera/tools/analyze.hpp"

namespace tessera::tools {

struct CheckResult {
  bool legal = false;
  std::string rule;     // the rule broken ("" when legal), e.g. "tma.pitch"
  std::string message;  // what is wrong, with the values and the fix; or, when legal, what was found
};

namespace check_detail {
inline std::int64_t value(const rt::IntTuple& t) { return t.as_int().value; }
}  // namespace check_detail

// check_tma(global, box, elem_bytes): whether TMA can move boxes laid out in shared memory as `box`
// (a static rank-2 layout, or Sw<B,M,S> composed with one, offset 0) from or to the 2-D matrix
// `global` (shape and strides, in elements; its address taken 16-byte aligned) of elem_bytes-byte
// elements. Rules, in the order checked: rank 2 ("tma.rank"); the box's contiguous mode (where its
// element (1,0) is at offset 1, else mode 1) has unit stride in the global layout ("tma.inner");
// a positive row pitch ("tma.pitch_sign"); a TMA swizzle ("tma.swizzle"); the tensor map's rules
// ("tma.map": arch/tma_rules.hpp); TMA's row order in shared memory: box element (x inner, y
// outer) at y * box_inner + x before the swizzle ("tma.row_order"). Example:
// check_tma((4096,4096):(4096,1), Sw<3,3,3> o (_64,_64):(_64,_1), 2) is legal (the Hopper GEMM's
// operand box); with (_64,_128):(_128,_1) unswizzled also; Sw<3,3,3> o (_64,_128):(_128,_1) breaks
// tma.map (rows of 256 bytes under a 128-byte swizzle).
inline CheckResult check_tma(const rt::Value& global_value, const rt::Value& box_value, int elem_bytes) {
  using check_detail::value;
  CheckResult r;
  auto fail = [&](const char* rule, const std::string& what) {
    r.legal = false;
    r.rule = rule;
    r.message = what;
    return r;
  };
  if (!global_value.is<rt::Layout>()) return fail("tma.rank", "the global layout must be a layout (shape:stride)");
  const rt::Layout& g = global_value.as<rt::Layout>();
  rt::Layout box;
  int bits = 0, base = 0, shift = 0;
  if (box_value.is<rt::ComposedLayout>()) {
    const rt::ComposedLayout& c = box_value.as<rt::ComposedLayout>();
    if (c.offset.value != 0) return fail("tma.swizzle", "a swizzled box layout must have offset 0");
    box = c.inner;
    bits = c.swizzle.bits;
    base = c.swizzle.base;
    shift = c.swizzle.shift;
  } else if (box_value.is<rt::Layout>()) {
    box = box_value.as<rt::Layout>();
  } else {
    return fail("tma.rank", "the box must be a layout or a swizzled layout (Sw<B,M,S> o L)");
  }
  if (rt::rank(g).value != 2)
    return fail("tma.rank", "the global layout " + rt::to_string(g) + " must have rank 2 (rows, columns)");
  if (rt::rank(box).value != 2 || rt::depth(box).value > 1)
    return fail("tma.rank", "the box layout " + rt::to_string(box) +
                                " must have rank 2 and depth 1, in the global layout's mode order");
  if (!rt::detail::all_static(box.shape) || !rt::detail::all_static(box.stride))
    return fail("tma.rank", "the box layout " + rt::to_string(box) + " must be static");

  auto at = [&](const rt::Layout& l, std::int64_t i, std::int64_t j) {
    return rt::evaluate(l, rt::make_tuple({rt::IntTuple{rt::D(i)}, rt::IntTuple{rt::D(j)}})).value;
  };
  const std::int64_t b0 = value(rt::size(rt::layout(box, 0))), b1 = value(rt::size(rt::layout(box, 1)));
  const int inner_mode = b0 > 1 && at(box, 1, 0) == 1 ? 0 : 1;
  const std::int64_t g0 = value(rt::size(rt::layout(g, 0))), g1 = value(rt::size(rt::layout(g, 1)));
  const std::int64_t s0 = value(rt::get(g.stride, 0)), s1 = value(rt::get(g.stride, 1));
  // The rules relating the two layouts to a tensor map, tma_box_params's own (arch/tma_rules.hpp).
  const TmaLayoutCheck lc = tma_layout_check(
      g0, g1, s0, s1, [&] { return rt::to_string(g); }, inner_mode, b0, b1, bits, base, shift, elem_bytes);
  if (lc.rule != nullptr) return fail(lc.rule, lc.message);
  const TmaMatrix2d& m = lc.m;
  if (const std::optional<std::string> v = tma_2d_violation(m)) return fail("tma.map", *v);
  // TMA's row order (after the map's rules: the box is at most 256 x 256 here).
  const std::int64_t b_inner = m.box_inner, b_outer = m.box_outer, inner = std::int64_t(m.inner),
                     outer = std::int64_t(m.outer);
  const int span = m.swizzle_bytes;
  const long long bad = tma_row_order_violation(inner_mode, b_inner, b_outer,
                                                [&](std::int64_t i, std::int64_t j) { return at(box, i, j); });
  if (bad >= 0) {
    const std::int64_t x = bad % b_inner, y = bad / b_inner;
    return fail("tma.row_order", tma_row_order_message(rt::to_string(box), inner_mode, b_inner, bad,
                                                       inner_mode == 0 ? at(box, x, y) : at(box, y, x)));
  }
  r.legal = true;
  r.message = "TMA boxes of " + std::to_string(b_outer) + " rows x " + std::to_string(b_inner) +
              " elements (rows along mode " + std::to_string(inner_mode) + ", " + std::to_string(b_inner * elem_bytes) +
              " bytes), " + (span == 0 ? std::string("unswizzled") : std::to_string(span) + "-byte swizzle") +
              ", over a " + std::to_string(outer) + " x " + std::to_string(inner) + " matrix, row pitch " +
              std::to_string(m.ld * std::uint64_t(elem_bytes)) + " bytes";
  return r;
}

namespace check_detail {
inline const char* gmma_rule_name(GmmaRule r) {
  switch (r) {
    case GmmaRule::ok: return "";
    case GmmaRule::elem: return "wgmma.elem";
    case GmmaRule::swizzle: return "wgmma.swizzle";
    case GmmaRule::block: return "wgmma.block";
    case GmmaRule::start: return "wgmma.start";
    case GmmaRule::core: return "wgmma.core";
    case GmmaRule::lbo: return "wgmma.lbo";
    case GmmaRule::sbo: return "wgmma.sbo";
    case GmmaRule::layout: return "wgmma.layout";
  }
  return "wgmma";
}
inline std::string swizzle_name(int bits) {  // "128-byte swizzle"
  return std::to_string(gmma_span_bytes(bits)) + "-byte swizzle";
}
inline std::string form_name(const std::string& major, int bits) {  // "the K-major 128-byte swizzle form"
  return bits == 0 ? "the unswizzled " + major + " form" : "the " + major + " " + swizzle_name(bits) + " form";
}
inline int log2_of(int v) {
  int k = 0;
  while ((1 << k) < v) ++k;
  return k;
}
// The canonical atom of a form, spelled for tile_to_shape: K-major (8, R T):(R T, 1), MN-major
// (R T, 8):(1, R T), under Sw<b, log2 T, 3> when swizzled.
inline std::string gmma_atom_text(int elem_bytes, GmmaMajor major, int bits) {
  const std::string row = "_" + std::to_string(gmma_row_elems(elem_bytes, bits));
  const std::string inner =
      major == GmmaMajor::K ? "(_8," + row + "):(" + row + ",_1)" : "(" + row + ",_8):(_1," + row + ")";
  if (bits == 0) return inner;
  return "Sw<" + std::to_string(bits) + "," + std::to_string(log2_of(gmma_unit_elems(elem_bytes))) + ",3> o " + inner;
}
}  // namespace check_detail

// check_wgmma's verdict, and when legal the descriptors: the form of every block (MN-block by
// MN-block, K-blocks of 32 bytes within), as make_gmma_desc encodes it.
struct WgmmaCheck : CheckResult {
  GmmaMajor major = GmmaMajor::K;
  int swizzle_bits = 0;  // 0 none, 1..3: 32-, 64-, 128-byte
  int mn_block = 0, k_block = 0;
  std::vector<GmmaForm> blocks;
};

// check_wgmma(smem, elem_bytes, major, mn_block): whether the shared-memory tile `smem` ((MN,K) ->
// element offset: a static rank-2 layout, or Sw<B,M,S> composed with one at offset 0; the tile
// starting 1024-byte aligned) of elem_bytes-byte elements can be read by wgmma through matrix
// descriptors: for every block of mn_block x (32 bytes of K) (mn_block 0: the tile's MN extent up
// to 256, else 64), one of the canonical layouts of arch/wgmma_rules.hpp. major: K (mode 1
// contiguous) or MN; nullopt: the mode with unit stride at (0,0). Rules, in the order checked:
// wgmma.rank (a static rank-2 layout), wgmma.elem, wgmma.swizzle, wgmma.block (the tile's MN a
// multiple of mn_block and K of 32 bytes, too), then per block wgmma.start, wgmma.core, wgmma.lbo,
// wgmma.sbo, wgmma.layout. When legal, the message gives the form and the descriptors' offsets.
// Example: Sw<3,3,3> o (_64,_64):(_64,_1) of fp16 is the K-major 128-byte form (SBO 1024 bytes);
// Sw<3,3,3> o (_64,_128):(_128,_1) breaks wgmma.core (rows of 256 bytes under a 128-byte
// swizzle); tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_64,_128)) is legal.
inline WgmmaCheck check_wgmma(const rt::Value& smem, int elem_bytes, std::optional<GmmaMajor> major = std::nullopt,
                              int mn_block = 0) {
  using namespace check_detail;
  WgmmaCheck r;
  auto fail = [&](GmmaRule rule, const std::string& what) {
    r.legal = false;
    r.rule = gmma_rule_name(rule);
    r.message = what;
    return r;
  };
  auto fail_rank = [&](const std::string& what) {
    r.legal = false;
    r.rule = "wgmma.rank";
    r.message = what;
    return r;
  };
  rt::Layout l;
  int sb = 0, sm = 0, ss = 0;
  if (smem.is<rt::ComposedLayout>()) {
    const rt::ComposedLayout& c = smem.as<rt::ComposedLayout>();
    if (c.offset.value != 0) return fail_rank("a swizzled tile layout must have offset 0");
    l = c.inner;
    sb = c.swizzle.bits;
    sm = c.swizzle.base;
    ss = c.swizzle.shift;
  } else if (smem.is<rt::Layout>()) {
    l = smem.as<rt::Layout>();
  } else {
    return fail_rank("the tile must be a layout or a swizzled layout (Sw<B,M,S> o L), (MN,K) -> element offset");
  }
  if (rt::rank(l).value != 2)
    return fail_rank("the tile layout " + rt::to_string(l) + " must have rank 2: (MN,K) -> element offset");
  if (!rt::detail::all_static(l.shape) || !rt::detail::all_static(l.stride))
    return fail_rank("the tile layout " + rt::to_string(l) + " must be static");
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4)
    return fail(GmmaRule::elem,
                "wgmma reads 1-, 2- or 4-byte elements (e4m3/e5m2, f16/bf16, tf32), got " + std::to_string(elem_bytes));
  const int bits = gmma_swizzle_bits(sb, sm, ss, elem_bytes);
  const int t = gmma_unit_elems(elem_bytes), lt = log2_of(t);
  if (bits < 0)
    return fail(GmmaRule::swizzle, "the tile's swizzle Sw<" + std::to_string(sb) + "," + std::to_string(sm) + "," +
                                       std::to_string(ss) + "> on " + std::to_string(elem_bytes) +
                                       "-byte elements is not a wgmma swizzle (16-byte units permuted within rows "
                                       "of 32, 64 or 128 bytes: Sw<1..3," +
                                       std::to_string(lt) + ",3>); use one of them or none");
  auto at = [&](std::int64_t i, std::int64_t j) {
    return rt::evaluate(l, rt::make_tuple({rt::IntTuple{rt::D(i)}, rt::IntTuple{rt::D(j)}})).value;
  };
  const std::int64_t mn = value(rt::size(rt::layout(l, 0))), kk = value(rt::size(rt::layout(l, 1)));
  if (!major) {
    if (kk > 1 && at(0, 1) - at(0, 0) == 1) major = GmmaMajor::K;
    else if (mn > 1 && at(1, 0) - at(0, 0) == 1) major = GmmaMajor::MN;
    else
      return fail(GmmaRule::core, "neither mode of " + rt::to_string(l) +
                                      " has unit stride at (0,0): a wgmma operand is K-major (mode 1 contiguous) or "
                                      "MN-major (mode 0); build the tile as tile_to_shape(" +
                                      gmma_atom_text(elem_bytes, GmmaMajor::K, 3) + ", (MN,K))");
  }
  const bool k_major = *major == GmmaMajor::K;
  const std::string major_text = k_major ? "K-major" : "MN-major";
  if (!k_major && elem_bytes != 2)
    return fail(GmmaRule::elem, "MN-major operands must have 2-byte elements (wgmma transposes f16/bf16 only), got " +
                                    std::to_string(elem_bytes) + "-byte ones; store the tile K-major");
  const int kb = gmma_k_block(elem_bytes);
  const int block = mn_block > 0 ? mn_block : int(mn <= 256 ? mn : 64);
  const std::string atom = gmma_atom_text(elem_bytes, *major, bits);
  const std::string shape_text = "(_" + std::to_string(mn) + ",_" + std::to_string(kk) + ")";
  // The fix: the tile built from the atom of the widest swizzle up to `up_to` whose rows tile the
  // tile's contiguous extent.
  auto build_fix = [&](int up_to) {
    const std::int64_t contiguous = k_major ? kk : mn;
    for (int b = up_to; b >= 0; --b)
      if (contiguous % gmma_row_elems(elem_bytes, b) == 0)
        return "build the tile as tile_to_shape(" + gmma_atom_text(elem_bytes, *major, b) + ", " + shape_text +
               (k_major ? ")" : ", (_1,_0))");
    return "make the tile's contiguous extent a multiple of " + std::to_string(t) + " elements (16 bytes)";
  };
  if (mn % block != 0 || kk % kb != 0)
    return fail(GmmaRule::block, "the tile's shape " + shape_text + " is not whole blocks of " + std::to_string(block) +
                                     " x " + std::to_string(kb) + " (MN x 32 bytes of K, one descriptor each)");
  const long long pattern = gmma_pattern_bytes(bits);
  GmmaForm first;
  bool same = true;
  int blocks = 0;
  for (std::int64_t mn0 = 0; mn0 < mn; mn0 += block)
    for (std::int64_t k0 = 0; k0 < kk; k0 += kb) {
      ++blocks;
      auto layout_at = [&](int i, int j) { return (long long)at(i, j); };
      const GmmaForm f = gmma_form_of(elem_bytes, *major, bits, layout_at, int(mn0), int(k0), block);
      const std::string where = "block (" + std::to_string(mn0) + "," + std::to_string(k0) + ")";
      const GmmaRule fr = gmma_form_violation(f);
      if (fr == GmmaRule::block)
        return fail(fr, "a block of " + std::to_string(block) +
                            " MN elements: wgmma's MN extents are multiples of 8 "
                            "up to 256" +
                            (!k_major && bits != 0
                                 ? ", and an MN-major block under the " + swizzle_name(bits) + " at most one row of " +
                                       std::to_string(gmma_row_elems(elem_bytes, bits)) + " elements or whole rows"
                                 : std::string()));
      if (fr == GmmaRule::start)
        return fail(fr,
                    where + " starts at element " + std::to_string(f.start) + " (byte " +
                        std::to_string(f.start * elem_bytes) + "): " +
                        (bits == 0 ? std::string("a descriptor's start is 16-byte aligned")
                         : k_major ? "under the " + swizzle_name(bits) + " it must lie in the first row of a " +
                                         std::to_string(pattern) + "-byte pattern, its 32 bytes of K within that row"
                                   : "under the " + swizzle_name(bits) + " it must start a " + std::to_string(pattern) +
                                         "-byte pattern") +
                        "; " + build_fix(bits));
      // The core matrix first: its mistakes are the common ones (rows wider than the swizzle's).
      const GmmaViolation v = gmma_block_violation(f, layout_at, int(mn0), int(k0), true);
      if (v.rule == GmmaRule::core) {
        std::string hint;
        const std::int64_t pitch = k_major ? at(1, 0) - at(0, 0) : at(0, 1) - at(0, 0);
        const std::int64_t pitch_bytes = pitch * elem_bytes;
        if (pitch_bytes == 32 || pitch_bytes == 64 || pitch_bytes == 128)
          hint = "; rows of " + std::to_string(pitch_bytes) + " bytes fit the " + std::to_string(pitch_bytes) +
                 "-byte swizzle: " + build_fix(log2_of(int(pitch_bytes / 16)));
        else if (bits != 0 && pitch_bytes > gmma_span_bytes(bits))
          hint = "; rows of " + std::to_string(pitch_bytes) + " bytes are wider than the " + swizzle_name(bits) +
                 "'s " + std::to_string(gmma_span_bytes(bits)) + ": split them into atoms, " + build_fix(bits);
        else hint = "; " + build_fix(bits);
        return fail(v.rule, where + ": element (" + std::to_string(mn0 + v.mn) + "," + std::to_string(k0 + v.k) +
                                ") is at offset " + std::to_string(v.got) + ", " + form_name(major_text, bits) +
                                " puts it at " + std::to_string(v.expected) + " (core matrices of 8 rows of " +
                                std::to_string(t) + " contiguous elements, rows " +
                                std::to_string(gmma_row_elems(elem_bytes, bits) * elem_bytes) + " bytes apart)" + hint);
      }
      auto field = [&](GmmaRule rule, const char* name, long long elems, const std::string& what) {
        return fail(rule, where + ": " + name + " (" + what + ") is " + std::to_string(elems * elem_bytes) +
                              " bytes; a descriptor holds a non-negative multiple of 16 below 2^18" +
                              (bits == 0 ? std::string()
                                         : ", and under the " + swizzle_name(bits) + " a multiple of its " +
                                               std::to_string(pattern) + "-byte pattern") +
                              "; " + build_fix(bits));
      };
      const char* lbo_what =
          k_major ? "from one 16-byte unit of K to the next"
                  : (bits == 0 ? "from one 8-row group of K to the next" : "from one swizzle row of MN to the next");
      const char* sbo_what =
          k_major ? "from one 8-row group of MN to the next"
                  : (bits == 0 ? "from one 16-byte unit of MN to the next" : "from one 8-row group of K to the next");
      if (fr == GmmaRule::lbo) return field(fr, "LBO", f.lbo, lbo_what);
      if (fr == GmmaRule::sbo) return field(fr, "SBO", f.sbo, sbo_what);
      if (v.rule == GmmaRule::layout)
        return fail(v.rule, where + ": element (" + std::to_string(mn0 + v.mn) + "," + std::to_string(k0 + v.k) +
                                ") is at offset " + std::to_string(v.got) + ", " + form_name(major_text, bits) +
                                " with the block's offsets (LBO " + std::to_string(f.lbo * elem_bytes) + ", SBO " +
                                std::to_string(f.sbo * elem_bytes) + " bytes) puts it at " +
                                std::to_string(v.expected) + " (one descriptor's groups are equally spaced); " +
                                build_fix(bits));
      if (blocks == 1) first = f;
      else if (f.lbo != first.lbo || f.sbo != first.sbo) same = false;
      r.blocks.push_back(f);
    }
  auto offset_text = [&](bool used, long long elems) {
    return used ? std::to_string(elems * elem_bytes) + " bytes" : std::string("unused");
  };
  r.legal = true;
  r.major = *major;
  r.swizzle_bits = bits;
  r.mn_block = block;
  r.k_block = kb;
  r.message = major_text + " " + std::to_string(elem_bytes) + "-byte elements, " +
              (bits == 0 ? std::string("unswizzled") : swizzle_name(bits)) + " (" + atom +
              " atoms): " + std::to_string(blocks) + " descriptor" + (blocks == 1 ? "" : "s") + " of " +
              std::to_string(block) + " x " + std::to_string(kb) + " blocks, LBO " +
              offset_text(gmma_lbo_used(first), first.lbo) + ", SBO " + offset_text(gmma_sbo_used(first), first.sbo) +
              (same ? std::string() : " (block (0,0)'s; other blocks differ)") +
              (bits == 0 ? std::string() : "; the tile must start " + std::to_string(pattern) + "-byte aligned");
  return r;
}

// check_copy(smem, copy, side): whether the tiled copy's instructions can run over the shared-memory
// tile `smem` (a layout or a swizzled one, (m,n) -> element offset; the copy's tile repeated over
// it): the copy's tile dividing the tile ("copy.tile"), every thread's values of one atom
// contiguous and aligned there ("copy.vector": the instruction moves them as one vector). When
// legal, the message gives the instructions' bank conflicts. side: which side of the copy is in
// shared memory where the instruction does not say (tools::analyze_copy). Example:
// check_copy((_64,_64):(_64,_1), ldmatrix.x4 of A) is legal, 8-way; under Sw<3,2,3> it breaks
// copy.vector (the swizzle moves halves within a 16-byte row).
inline CheckResult check_copy(const rt::Value& smem, const rt::TiledCopy& copy, CopySide side = CopySide::automatic) {
  CheckResult r;
  (void)analyze_detail::source_side(copy.atom, MemoryKind::shared, side);  // a request error: thrown
  // The copy's tile must divide the shared-memory tile, mode by mode.
  const rt::Layout inner = analyze_detail::as_memory_layout(smem).inner();
  const rt::IntTuple& tile = copy.tiler;
  if (!tile.is_int() && rt::rank(tile).value <= rt::rank(inner).value) {
    for (std::int64_t i = 0; i < rt::rank(tile).value; ++i) {
      const std::int64_t t = rt::size(rt::get(tile, i)).value, m = rt::size(rt::layout(inner, i)).value;
      if (t < 1 || m % t != 0) {
        r.rule = "copy.tile";
        r.message = "the copy's tile " + rt::to_string(tile) + " does not divide the shared-memory tile's shape " +
                    rt::to_string(inner.shape) + " (mode " + std::to_string(i) + ": " + std::to_string(t) + " into " +
                    std::to_string(m) + "); use a tile the copy's tile divides";
        return r;
      }
    }
  }
  Report rep;
  try {
    rep = analyze_copy(smem, copy, MemoryKind::shared, side);
  } catch (const layout_error& e) {
    const std::string what = e.what();
    r.rule = what.find("contiguous, aligned") != std::string::npos ? "copy.vector" : "copy.tile";
    r.message = what;
    return r;
  }
  r.legal = true;
  r.message = std::to_string(rep.instructions.size()) + " instructions of " + std::to_string(rep.access_bytes) +
              "-byte vectors a thread, " + std::to_string(rep.total_wavefronts()) + " wavefronts (ideal " +
              std::to_string(rep.total_ideal()) + "): " +
              (rep.total_wavefronts() == rep.total_ideal()
                   ? std::string("conflict-free")
                   : analyze_detail::ways(rep.total_wavefronts(), rep.total_ideal()) + " bank conflicts");
  return r;
}

}  // namespace tessera::tools
