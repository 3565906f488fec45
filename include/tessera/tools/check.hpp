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
//   check_copy_vector(request)           a copy of one vector width between two layouts (one given,
//                                        the other a compact fragment): the runs each vector moves
//                                        contiguous and aligned (algorithm/copy_rules.hpp, the rules
//                                        copy's compile-time plan runs), the pointers' alignment.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/tools/check.hpp: host only"
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tessera/algorithm/copy_rules.hpp"
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

// check_tma_coordinate(inner, elem_bytes): whether a TMA load or store of a box may start at
// element `inner` of the matrix's contiguous mode (the instruction's first coordinate): rule
// "tma.coordinate" (arch/tma_rules.hpp's tma_coordinate_violation), the box's first row 16-byte
// aligned. check_tma answers for the tensor map and the box; this, for each place the box goes.
// Example: check_tma_coordinate(356, 1) breaks it; check_tma_coordinate(352, 1) and
// check_tma_coordinate(-8, 2) are legal.
inline CheckResult check_tma_coordinate(long long inner, int elem_bytes) {
  CheckResult r;
  if (const std::optional<std::string> v = tma_coordinate_violation(inner, elem_bytes)) {
    r.rule = "tma.coordinate";
    r.message = *v;
    return r;
  }
  r.legal = true;
  r.message = "the box's inner coordinate " + std::to_string(inner) + " is at byte " +
              std::to_string(inner * elem_bytes) + ", 16-byte aligned";
  return r;
}

// check_tma(global, box, elem_bytes): whether TMA can move boxes laid out in shared memory as `box`
// (a static rank-2 layout, or Sw<B,M,S> composed with one, offset 0) from or to the 2-D matrix
// `global` (shape and strides, in elements; its address taken 16-byte aligned) of elem_bytes-byte
// elements. Rules, in the order checked: rank 2 ("tma.rank"); the box's contiguous mode (where its
// element (1,0) is at offset 1, else mode 1) has unit stride in the global layout ("tma.inner");
// a positive row pitch ("tma.pitch_sign"); a TMA swizzle ("tma.swizzle"); the tensor map's rules
// ("tma.map": arch/tma_rules.hpp); TMA's row order in shared memory: box element (x inner, y
// outer) at y * pitch + x before the swizzle ("tma.row_order"), pitch = box_inner unswizzled and the
// swizzle's span when swizzled (arch/tma_tile_rules.hpp's tma_row_pitch: TMA pads a row narrower
// than the span); a swizzled box of such rows laid out one after the other breaks "tma.row_pitch"
// (seen on an H200: TMA wrote rows x span bytes, issue 34). With `smem`, the shared-memory
// tile ((P,Q) -> element offset in the global layout's mode order, static; plain, or under the
// box's swizzle) that the boxes fill, by the rules tma_partition checks at compile time
// (arch/tma_tile_rules.hpp): its swizzle the box's ("tma.swizzle"), the box's shape dividing it
// ("tma.tile"), every box laid out as the box ("tma.box_layout") and starting at a multiple of 128
// bytes, of the swizzle's 8-row pattern when swizzled ("tma.box_start"). Example:
// check_tma((4096,4096):(4096,1), Sw<3,3,3> o (_64,_64):(_64,_1), 2) is legal (the Hopper GEMM's
// operand box); with (_64,_128):(_128,_1) unswizzled also; Sw<3,3,3> o (_64,_128):(_128,_1) breaks
// tma.map (rows of 256 bytes under a 128-byte swizzle); Sw<3,3,3> o (_64,_32):(_32,_1) breaks
// tma.row_pitch (rows of 64 bytes, 128 apart in shared memory: Sw<3,3,3> o (_64,_32):(_64,_1) is
// legal); the box Sw<3,3,3> o (_128,_64):(_64,_1)
// filling the tile tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128)) is legal (2 boxes),
// filling Sw<3,3,3> o (_128,_128):(_128,_1) breaks tma.box_layout.
inline CheckResult check_tma(const rt::Value& global_value, const rt::Value& box_value, int elem_bytes,
                             const std::optional<rt::Value>& smem = std::nullopt) {
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
  // Rows tma_row_pitch apart: a swizzled box's rows are the span apart, padded where narrower.
  const long long pitch = tma_row_pitch(b_inner, elem_bytes, span);
  auto box_at = [&](std::int64_t i, std::int64_t j) { return at(box, i, j); };
  const long long bad = tma_row_order_violation(inner_mode, b_inner, b_outer, box_at, pitch);
  if (bad >= 0) {
    if (pitch != b_inner && tma_row_order_violation(inner_mode, b_inner, b_outer, box_at) < 0)
      return fail("tma.row_pitch", tma_row_pitch_message(rt::to_string(box), inner_mode, b_inner, b_outer, elem_bytes,
                                                         span, rt::to_string(rt::Swizzle{bits, base, shift})));
    const std::int64_t x = bad % b_inner, y = bad / b_inner;
    return fail("tma.row_order", tma_row_order_message(rt::to_string(box), inner_mode, b_inner, bad,
                                                       inner_mode == 0 ? at(box, x, y) : at(box, y, x), pitch));
  }
  std::string tile_text;
  if (smem) {
    // The tile the boxes fill (arch/tma_tile_rules.hpp: the rules tma_partition checks).
    rt::Layout tile;
    if (smem->is<rt::ComposedLayout>()) {
      const rt::ComposedLayout& c = smem->as<rt::ComposedLayout>();
      if (c.offset.value != 0) return fail("tma.swizzle", "a swizzled tile layout must have offset 0");
      if (c.swizzle.bits != bits || (bits != 0 && (c.swizzle.base != base || c.swizzle.shift != shift)))
        return fail("tma.swizzle",
                    "the tile's swizzle " + rt::to_string(c.swizzle) + " is not the box's " +
                        (bits == 0 ? std::string("(none)") : rt::to_string(rt::Swizzle{bits, base, shift})) +
                        ": TMA swizzles every box by the tensor map's one mode");
      tile = c.inner;
    } else if (smem->is<rt::Layout>()) {
      tile = smem->as<rt::Layout>();
    } else {
      return fail("tma.rank", "the tile must be a layout or a swizzled layout (Sw<B,M,S> o L)");
    }
    if (rt::rank(tile).value != 2 || !rt::detail::all_static(tile.shape) || !rt::detail::all_static(tile.stride))
      return fail("tma.rank", "the tile layout " + rt::to_string(tile) +
                                  " must be static and have rank 2, in the global layout's mode order");
    const std::int64_t p = value(rt::size(rt::layout(tile, 0))), q = value(rt::size(rt::layout(tile, 1)));
    const std::string shape = "(" + std::to_string(p) + "," + std::to_string(q) + ")";
    const std::string box_shape = "(" + std::to_string(b0) + "," + std::to_string(b1) + ")";
    const TmaTileViolation v =
        tma_tile_violation([&](long long i, long long j) { return at(tile, i, j); }, p, q,
                           [&](long long i, long long j) { return at(box, i, j); }, b0, b1, elem_bytes, span, true);
    auto byte_text = [&](long long elems) {  // "(byte N)", or nothing where N would not fit in 64 bits
      const long long limit = (std::int64_t(1) << 62) / elem_bytes;
      return elems > -limit && elems < limit ? " (byte " + std::to_string(elems * elem_bytes) + ")" : std::string();
    };
    const std::string box_at = "box (" + std::to_string(v.box_p) + "," + std::to_string(v.box_q) +
                               ") (tile elements (" + std::to_string(v.box_p * b0) + "," +
                               std::to_string(v.box_q * b1) + ") on)";
    const long long align = tma_box_align_bytes(span);
    const std::string box_spelled =
        (bits == 0 ? std::string() : rt::to_string(rt::Swizzle{bits, base, shift}) + " o ") + rt::to_string(box);
    const std::string fix = "build the tile from the box: tile_to_shape(" + box_spelled + ", (_" + std::to_string(p) +
                            ",_" + std::to_string(q) + "))";
    switch (v.rule) {
      case TmaTileRule::ok: break;
      case TmaTileRule::tile:
        return fail("tma.tile", "the box's shape " + box_shape + " does not divide the tile's " + shape + " (mode " +
                                    (p % b0 != 0 ? "0: " + std::to_string(b0) + " into " + std::to_string(p)
                                                 : "1: " + std::to_string(b1) + " into " + std::to_string(q)) +
                                    "); use a box whose extents divide the tile's");
      case TmaTileRule::box_layout:
        return fail("tma.box_layout", box_at + " of the tile " + rt::to_string(tile) + " is not laid out as the box " +
                                          rt::to_string(box) + ": its element (" + std::to_string(v.i) + "," +
                                          std::to_string(v.j) + ") is at offset " + std::to_string(v.got) +
                                          ", TMA writes it at " + std::to_string(v.expected) +
                                          " (the box's first element plus the box's offset of it); " + fix);
      case TmaTileRule::box_start:
        return fail("tma.box_start",
                    box_at + " starts at element " + std::to_string(v.got) + byte_text(v.got) + ", not a multiple of " +
                        std::to_string(align) + " bytes (TMA's shared-memory address is 128-byte aligned" +
                        (span == 0 ? std::string()
                                   : ", and under the " + std::to_string(span) + "-byte swizzle a box starts on its " +
                                         std::to_string(align) +
                                         "-byte pattern, so that TMA's swizzle of the address is the tile's") +
                        "); place the boxes a multiple of " + std::to_string(align) + " bytes apart, e.g. " + fix);
    }
    const std::int64_t n = (p / b0) * (q / b1);
    tile_text = "; the tile " + shape + " is " + std::to_string(n) + (n == 1 ? " box" : " boxes") + " (" +
                std::to_string(p / b0) + " x " + std::to_string(q / b1) + "), each laid out as the box, starting at " +
                "multiples of " + std::to_string(align) + " bytes";
  }
  r.legal = true;
  r.message = "TMA boxes of " + std::to_string(b_outer) + " rows x " + std::to_string(b_inner) +
              " elements (rows along mode " + std::to_string(inner_mode) + ", " + std::to_string(b_inner * elem_bytes) +
              " bytes), " + (span == 0 ? std::string("unswizzled") : std::to_string(span) + "-byte swizzle") +
              ", over a " + std::to_string(outer) + " x " + std::to_string(inner) + " matrix, row pitch " +
              std::to_string(m.ld * std::uint64_t(elem_bytes)) + " bytes" + tile_text;
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
  auto bytes_of = [&](long long elems) {  // elems * elem_bytes, or "beyond 2^62" where it would not fit
    const long long limit = (std::int64_t(1) << 62) / elem_bytes;
    return elems > -limit && elems < limit ? std::to_string(elems * elem_bytes)
                                           : std::string(elems < 0 ? "below -2^62" : "beyond 2^62");
  };
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
                    where + " starts at element " + std::to_string(f.start) + " (byte " + bytes_of(f.start) + "): " +
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
        return fail(rule, where + ": " + name + " (" + what + ") is " + bytes_of(elems) +
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

// ---- check_copy_vector ---------------------------------------------------------------------------

// A copy src -> dst of W-bit vectors (algorithm/copy.hpp's copy, for one W): the two layouts (a
// layout, or Sw<B,M,S> o L for a swizzled pointer over L; one may be left out: a compact fragment
// of the other's shape, (shape) column-major, as make_fragment_like gives), the element width and
// both base pointers' alignment.
struct CopyVectorRequest {
  std::optional<rt::Value> src, dst;
  int width_bits = 128;
  int elem_bits = 16;
  int align_bytes = 16;
};

// check_copy_vector's verdict; when legal, what copy() itself does with these layouts.
struct CopyVectorCheck : CheckResult {
  int width_bits = 0, elem_bits = 0;
  int vector = 0;                   // N: elements a vector
  long long runs = 0;               // vectors the copy moves (when legal)
  int widest_bits = 0;              // the widest width of 128..8 these layouts and pointers allow (else elem_bits)
  bool library_vectorizes = false;  // copy() plans vectors for them (static layouts within its plan's limits)
};

namespace check_detail {
// One side of a copy: a layout flattened to (extent, stride) leaves, and for a swizzled pointer the
// swizzle's M (it keeps 2^M elements together).
struct CopyOperand {
  std::string name, text;  // "source", its layout's text
  rt::Layout layout;
  std::vector<std::int64_t> extents, strides;
  int swizzle_base = -1;  // Sw<B,M,S>'s M; -1: none
  std::string swizzle_text;
  bool given = true;
  bool identity = false;  // a compact column-major fragment: element i at offset i
  bool is_static = true;
  // Element i's offset (column-major coordinates of the flat shape).
  std::int64_t operator()(long long i) const {
    std::int64_t o = 0;
    for (std::size_t m = 0; m < extents.size(); ++m) {
      o += (i % extents[m]) * strides[m];
      i /= extents[m];
    }
    return o;
  }
};

inline CopyOperand copy_side_of(const rt::Value& v, const char* name) {
  CopyOperand c;
  c.name = name;
  if (v.is<rt::ComposedLayout>()) {
    const rt::ComposedLayout& cl = v.as<rt::ComposedLayout>();
    if (cl.offset.value != 0)
      rt::fail(std::string("check copy: a swizzled ") + name + " layout must have offset 0, got " + rt::to_string(v));
    c.layout = cl.inner;
    c.swizzle_base = cl.swizzle.bits == 0 ? -1 : cl.swizzle.base;
    c.swizzle_text = rt::to_string(cl.swizzle);
    c.text = rt::to_string(cl.swizzle) + " o " + rt::to_string(cl.inner);
  } else if (v.is<rt::Layout>()) {
    c.layout = v.as<rt::Layout>();
    c.text = rt::to_string(c.layout);
  } else {
    rt::fail(std::string("check copy: the ") + name + " must be a layout or a swizzled layout (Sw<B,M,S> o L), got " +
             rt::to_string(v));
  }
  if (rt::detail::has_basis(c.layout.stride))
    rt::fail(std::string("check copy: the ") + name + " layout " + c.text +
             " has basis strides; give a layout to offsets");
  std::vector<rt::IntTuple> e, s;
  rt::detail::leaves_into(c.layout.shape, e);
  rt::detail::leaves_into(c.layout.stride, s);
  for (std::size_t m = 0; m < e.size(); ++m) {
    c.extents.push_back(e[m].as_int().value);
    c.strides.push_back(s[m].as_int().value);
  }
  c.is_static = rt::detail::all_static(c.layout.shape) && rt::detail::all_static(c.layout.stride);
  return c;
}

// The compact fragment of a side's shape, (shape) column-major, or ordered by `like`'s strides.
inline CopyOperand compact_side(const CopyOperand& of, const char* name, const CopyOperand* like = nullptr) {
  rt::IntTuple stride;
  if (like == nullptr) {
    stride = rt::compact_col_major(of.layout.shape);
  } else {
    // The order of like's leaves by stride (ties in position order), as compact_order takes it.
    std::vector<std::size_t> by(like->strides.size());
    for (std::size_t m = 0; m < by.size(); ++m) by[m] = m;
    std::stable_sort(by.begin(), by.end(), [&](std::size_t a, std::size_t b) {
      return std::abs(like->strides[a]) < std::abs(like->strides[b]);
    });
    std::vector<std::int64_t> rank(by.size());
    for (std::size_t k = 0; k < by.size(); ++k) rank[by[k]] = std::int64_t(k);
    std::size_t next = 0;
    const rt::IntTuple order =
        rt::detail::transform_leaves(like->layout.shape, [&](rt::Int) { return rt::S(rank[next++]); });
    stride = rt::compact_order(like->layout.shape, order);
  }
  rt::Value v{rt::Layout{of.layout.shape, stride}};
  CopyOperand c = copy_side_of(v, name);
  c.given = false;
  c.identity = like == nullptr;
  return c;
}

inline std::string plural(long long n, const std::string& one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

// The widths of 8..128 bits that hold whole elements of elem_bits, more than one.
inline std::string copy_widths_text(int elem_bits) {
  std::string t;
  for (int w = 8; w <= 128; w *= 2)
    if (copy_width_ok(w, elem_bits)) t += (t.empty() ? "" : ", ") + std::to_string(w);
  return t.empty() ? std::string("none (the element is 64 bits or wider: one access an element)") : t;
}

// dst's offset -> element inverse (the identity for a compact column-major dst, else a table, or a
// sorted list where dst's offsets are sparse), and rule copy.offsets's message when dst maps an
// element to a negative offset or two to one ("" when none). Built once for every width.
struct DstInverse {
  bool identity = false;
  std::int64_t cosize = 0;
  std::vector<std::int32_t> table;  // elements: at most 2^24
  std::vector<std::pair<std::int64_t, long long>> sorted;
  std::string offsets_violation;
  long long operator()(long long o) const {
    if (o < 0 || o >= cosize) return -1;
    if (identity) return o;
    if (!table.empty()) return table[std::size_t(o)];
    auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair<std::int64_t, long long>(o, -1));
    return it != sorted.end() && it->first == o ? it->second : -1;
  }
};

inline DstInverse dst_inverse(const CopyOperand& dst, long long n) {
  DstInverse inv;
  inv.identity = dst.identity;
  inv.cosize = n;
  if (inv.identity) return inv;
  auto repeated = [&](long long a, long long b, std::int64_t o) {
    inv.offsets_violation = "the destination " + dst.text + " puts elements " + std::to_string(a) + " and " +
                            std::to_string(b) + " at offset " + std::to_string(o) +
                            ": a copy writes every destination offset once (a broadcast destination stays element by "
                            "element)";
  };
  std::int64_t hi = -1;
  for (long long i = 0; i < n; ++i) {
    const std::int64_t o = dst(i);
    if (o < 0) {
      inv.offsets_violation = "the destination " + dst.text + " puts element " + std::to_string(i) + " at offset " +
                              std::to_string(o) +
                              ": copy vectorizes non-negative offsets only (negative strides stay element by "
                              "element); reverse the mode in the other layout instead";
      return inv;
    }
    hi = std::max(hi, o);
  }
  inv.cosize = hi + 1;
  if (inv.cosize <= 2 * n + 1024) {  // dense enough for a table
    inv.table.assign(std::size_t(inv.cosize), -1);
    for (long long i = 0; i < n; ++i) {
      std::int32_t& slot = inv.table[std::size_t(dst(i))];
      if (slot != -1) {
        repeated(slot, i, dst(i));
        return inv;
      }
      slot = std::int32_t(i);
    }
    return inv;
  }
  inv.sorted.reserve(std::size_t(n));
  for (long long i = 0; i < n; ++i) inv.sorted.emplace_back(dst(i), i);
  std::sort(inv.sorted.begin(), inv.sorted.end());
  for (std::size_t k = 1; k < inv.sorted.size(); ++k)
    if (inv.sorted[k].first == inv.sorted[k - 1].first) {
      repeated(inv.sorted[k - 1].second, inv.sorted[k].second, inv.sorted[k].first);
      return inv;
    }
  return inv;
}

// The rules for one width; fills r (legal or the first rule broken). widest: the widest width
// these layouts allow (for the fixes; 0: not computed).
inline void check_copy_width(const CopyOperand& src, const CopyOperand& dst, const DstInverse& inv, int width,
                             int elem_bits, int align_bytes, int widest, CopyVectorCheck& r) {
  r.legal = false;
  r.width_bits = width;
  r.elem_bits = elem_bits;
  auto fail_with = [&](CopyRule rule, const std::string& what) {
    static const char* const names[] = {
        "",           "copy.width", "copy.swizzle", "copy.size", "copy.offsets", "copy.run_align", "copy.contiguous",
        "copy.cover", "copy.align"};
    r.rule = names[int(rule)];
    r.message = what;
  };
  const std::string w_text = std::to_string(width) + "-bit vector";
  auto narrower = [&] {
    return widest > elem_bits && widest < width
               ? "a narrower width: " + std::to_string(widest) + " bits is the widest these layouts allow"
               : std::string("a narrower width (none is legal here: element by element)");
  };
  if (!copy_width_ok(width, elem_bits)) {
    fail_with(CopyRule::width, "a " + w_text + " of " + std::to_string(elem_bits) +
                                   "-bit elements: copy moves 8, 16, 32, 64 or 128 bits an access, whole elements "
                                   "and more than one; widths for this element: " +
                                   copy_widths_text(elem_bits));
    return;
  }
  const int vec = width / elem_bits, bytes = width / 8;
  r.vector = vec;
  for (const CopyOperand* c : {&src, &dst}) {
    if (c->swizzle_base < 0) continue;
    const long long kept_bits = (1LL << c->swizzle_base) * elem_bits;
    if (width > kept_bits) {
      fail_with(CopyRule::swizzle, "the " + c->name + "'s swizzle " + c->swizzle_text + " keeps " +
                                       plural(1LL << c->swizzle_base, "element") + " (" +
                                       std::to_string(kept_bits / 8) + " bytes) together, a " + w_text + " moves " +
                                       std::to_string(bytes) + "; use " + narrower() +
                                       ", or a swizzle Sw<B,M,S> with 2^M >= " + std::to_string(vec) + " elements");
      return;
    }
  }
  const long long n = rt::size(src.layout).value;
  if (n % vec != 0) {
    fail_with(CopyRule::size, "the copy's " + plural(n, "element") + " are not whole vectors of " +
                                  std::to_string(vec) + " (" + w_text + "s); use " + narrower() +
                                  ", or pad the tile to a multiple of " + std::to_string(vec));
    return;
  }
  if (!inv.offsets_violation.empty()) {
    fail_with(CopyRule::offsets, inv.offsets_violation);
    return;
  }
  const bool identity = inv.identity;
  const std::int64_t cosize_d = inv.cosize;
  auto index_of = [&](long long o) { return inv(o); };
  auto dst_at = [&](long long i) -> long long { return identity ? i : dst(i); };
  const CopyRunViolation v =
      copy_runs_violation(n, vec, cosize_d, src, dst_at, index_of, [](long long) { return true; });
  // "run 3 (elements 24..31)" for a compact destination, else "the run at destination offset 24 (element 9)".
  auto run_text = [&](long long i, long long od) {
    if (identity)
      return "run " + std::to_string(od / vec) + " (elements " + std::to_string(i) + ".." +
             std::to_string(i + vec - 1) + ")";
    return "the run at destination offset " + std::to_string(od) + " (element " + std::to_string(i) + ")";
  };
  const std::string run_fix =
      "; use " + narrower() + ", or a layout whose runs of " + std::to_string(vec) + " elements are contiguous";
  if (v.rule == CopyRule::run_align) {
    fail_with(v.rule, run_text(v.index, v.dst_offset) + " starts at source offset " + std::to_string(v.got) +
                          " (byte " + std::to_string(v.got * elem_bits / 8) + "), not a multiple of " +
                          std::to_string(vec) + " elements (" + std::to_string(bytes) + " bytes): its " + w_text +
                          " would be misaligned; use " + narrower() + ", or a layout whose runs of " +
                          std::to_string(vec) + " elements start at source offsets that are multiples of " +
                          std::to_string(vec) + " (pad its rows to a multiple of " + std::to_string(vec) + ")");
    return;
  }
  if (v.rule == CopyRule::contiguous) {
    if (v.other < 0)
      fail_with(v.rule, run_text(v.index, v.dst_offset) + ": the destination " + dst.text +
                            " has no element at offset " + std::to_string(v.dst_offset + v.lane) + " (a " + w_text +
                            " writes offsets " + std::to_string(v.dst_offset) + ".." +
                            std::to_string(v.dst_offset + vec - 1) + ")" + run_fix);
    else
      fail_with(v.rule, run_text(v.index, v.dst_offset) + ": element " + std::to_string(v.other) +
                            (identity ? "" : " (destination offset " + std::to_string(v.dst_offset + v.lane) + ")") +
                            " is at source offset " + std::to_string(v.got) + ", a " + w_text + " needs " +
                            std::to_string(v.expected) + " (" + std::to_string(vec) + " consecutive offsets from " +
                            std::to_string(v.expected - v.lane) + " in " + src.text + ")" + run_fix);
    return;
  }
  if (v.rule == CopyRule::cover) {
    const long long i = copy_orphan(n, vec, dst_at, index_of);
    const long long od = i < 0 ? 0 : dst_at(i);
    fail_with(v.rule, "element " + std::to_string(i) + " (destination offset " + std::to_string(od) +
                          ") is in no vector: the destination has no element at offset " +
                          std::to_string(od - od % vec) + ", where its run of " + std::to_string(vec) + " would start" +
                          run_fix);
    return;
  }
  if (align_bytes <= 0 || align_bytes % bytes != 0) {
    fail_with(CopyRule::align, "the base pointers are " + std::to_string(align_bytes) + "-byte aligned, a " + w_text +
                                   " needs " + std::to_string(bytes) + ": align the buffers to " +
                                   std::to_string(bytes) + " bytes (cudaMalloc gives 256), or use " + narrower());
    return;
  }
  r.legal = true;
  r.runs = v.runs;
}
}  // namespace check_detail

// check_copy_vector(req): whether copy(src, dst) (algorithm/copy.hpp) may move req.width_bits bits
// an access: the rules of algorithm/copy_rules.hpp in their order (copy.width, copy.swizzle,
// copy.size, copy.offsets, copy.run_align, copy.contiguous, copy.cover), then copy.align (both base
// pointers aligned to width/8 bytes, req.align_bytes the alignment they have). A side left out is a
// compact fragment of the other's shape ((shape) column-major). Every element is checked (sizes up
// to 2^24). Failures name the rule, the run (its elements or destination offset), the offsets and
// the fix (the widest width that is legal, an alignment, a layout whose runs are contiguous; for a
// fragment in the wrong order, the one in the source's order). When legal the message says what
// copy() does here: the width it picks (the widest legal) and whether it vectorizes at all (static
// layouts within its compile-time plan's limits). Pre: at least one side; both the same size.
// Example: src (_8,_8):(_8,_1) half_t, width 128, fragment (_8,_8):(_1,_8): copy.contiguous (run 0
// is column 0, offsets 0, 8, ...); with the fragment (_8,_8):(_8,_1): legal, 8 vectors.
inline CopyVectorCheck check_copy_vector(const CopyVectorRequest& req) {
  using namespace check_detail;
  if (!req.src && !req.dst) rt::fail("check copy: give the source or the destination layout (or both)");
  if (req.elem_bits <= 0)
    rt::fail("check copy: the element width must be positive, got " + std::to_string(req.elem_bits));
  CopyOperand src, dst;
  if (req.src) src = copy_side_of(*req.src, "source");
  if (req.dst) dst = copy_side_of(*req.dst, "destination");
  if (!req.src) src = compact_side(dst, "source");
  if (!req.dst) dst = compact_side(src, "destination");
  const long long n = rt::size(src.layout).value, nd = rt::size(dst.layout).value;
  if (n != nd)
    rt::fail("check copy: the source " + src.text + " has " + std::to_string(n) + " elements, the destination " +
             dst.text + " " + std::to_string(nd) + "; a copy's sides have the same size");
  if (n > (1LL << 24))
    rt::fail("check copy: " + std::to_string(n) + " elements are more than the checker walks (2^24); check one tile");
  // The widest width these layouts allow (copy_vector_bits's answer), for the fixes and the verdict.
  const DstInverse inv = dst_inverse(dst, n);
  int widest = req.elem_bits;
  for (int w = 128; w >= 8; w /= 2) {
    CopyVectorCheck t;
    check_copy_width(src, dst, inv, w, req.elem_bits, req.align_bytes, 0, t);
    if (t.legal) {
      widest = w;
      break;
    }
  }
  CopyVectorCheck r;
  check_copy_width(src, dst, inv, req.width_bits, req.elem_bits, req.align_bytes, widest, r);
  r.widest_bits = widest;
  // copy() plans vectors at compile time: static layouts, and a destination its plan can invert.
  const long long cosize_d = rt::cosize(dst.layout).value;
  const bool within = cosize_d >= 1 && (cosize_d <= (1LL << 15) || n <= (1LL << 8));
  r.library_vectorizes = src.is_static && dst.is_static && within;
  if (!r.legal) {
    // A fragment in the wrong order: the one in the given side's order, when it makes the copy legal.
    if ((r.rule == "copy.contiguous" || r.rule == "copy.run_align" || r.rule == "copy.cover") &&
        src.given != dst.given) {
      const CopyOperand& given = src.given ? src : dst;
      CopyOperand other = compact_side(given, src.given ? "destination" : "source", &given);
      const CopyOperand& s2 = src.given ? src : other;
      const CopyOperand& d2 = src.given ? other : dst;
      CopyVectorCheck t;
      check_copy_width(s2, d2, dst_inverse(d2, n), req.width_bits, req.elem_bits, req.align_bytes, 0, t);
      if (t.legal)
        r.message += " (here: a " + other.name + " fragment in the " + given.name + "'s order, " + other.text + ")";
    }
    return r;
  }
  const int bytes = req.width_bits / 8;
  r.message = plural(r.runs, "vector") + " of " + std::to_string(req.width_bits) + " bits (" +
              std::to_string(r.vector) + " elements, " + std::to_string(bytes) + " bytes) over " +
              plural(n, "element") + " " + src.text + " -> " + dst.text + ": every run contiguous in both and " +
              std::to_string(bytes) + "-byte aligned";
  if (!r.library_vectorizes)
    r.message += "; copy() itself moves these element by element: " +
                 std::string(!(src.is_static && dst.is_static)
                                 ? "it plans vectors at compile time, from static layouts (write the extents and "
                                   "strides as _N)"
                                 : "its compile-time plan covers a destination of cosize up to 32768 or up to 256 "
                                   "elements (partition the tile first)");
  else if (widest > req.width_bits)
    r.message += "; copy() uses " + std::to_string(widest) + "-bit vectors here (the widest legal)";
  else r.message += "; copy() uses these";
  return r;
}

}  // namespace tessera::tools
