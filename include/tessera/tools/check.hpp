// tessera/tools/check.hpp -- the legality checker: whether a (layout, instruction) pair is one the
// hardware accepts, and when not, the rule it breaks, with the values and the fix. Host-only, on
// the run-time twin (tessera::rt). The CLI is `tessera check` (docs/advise.md, "tessera check").
//
//   check_tma(global, box, elem_bytes)   a TMA tensor map of the 2-D matrix `global` read or
//                                        written in boxes laid out in shared memory as `box`
//                                        (plain or swizzled): the run-time form of make_tma_desc's
//                                        own checks (atom/copy_traits_sm90_tma.cuh: the box's
//                                        contiguous mode, TMA's row order, its swizzles), then the
//                                        tensor map's rules (arch/tma_rules.hpp, the code
//                                        make_tma_desc_2d runs).
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

#include "tessera/arch/tma_rules.hpp"
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
  const std::int64_t s_inner = inner_mode == 0 ? s0 : s1, g_inner = inner_mode == 0 ? g0 : g1;
  if (s_inner != 1 && g_inner != 1)
    return fail("tma.inner", "the box is contiguous along mode " + std::to_string(inner_mode) +
                                 " but the global layout " + rt::to_string(g) + " has stride " +
                                 std::to_string(s_inner) + " there (TMA reads rows of contiguous elements)");
  const std::int64_t inner = g_inner, outer = inner_mode == 0 ? g1 : g0, pitch = inner_mode == 0 ? s1 : s0;
  if (outer != 1 && pitch <= 0)
    return fail("tma.pitch_sign",
                "the row pitch of " + rt::to_string(g) + " must be positive, got " + std::to_string(pitch));
  const std::int64_t b_inner = inner_mode == 0 ? b0 : b1, b_outer = inner_mode == 0 ? b1 : b0;
  const int span = tma_swizzle_bytes(bits, base, shift, elem_bytes);
  if (span < 0) {
    const int log_eb = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3;
    return fail("tma.swizzle", "the box's swizzle Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," +
                                   std::to_string(shift) + "> on " + std::to_string(elem_bytes) +
                                   "-byte elements is not a TMA swizzle (16-byte units permuted within 32-, 64- or "
                                   "128-byte rows: Sw<1..3," +
                                   std::to_string(4 - log_eb) + ",3>)");
  }
  const std::int64_t one_row_pitch = (inner * elem_bytes + 15) / 16 * 16 / (elem_bytes > 0 ? elem_bytes : 1);
  TmaMatrix2d m;
  m.aligned16 = true;
  m.elem_bytes = elem_bytes;
  m.inner = std::uint64_t(inner);
  m.outer = std::uint64_t(outer);
  m.ld = std::uint64_t(outer == 1 ? one_row_pitch : pitch);
  m.box_inner = std::uint32_t(std::min<std::int64_t>(b_inner, 1 << 20));  // beyond 256 either way
  m.box_outer = std::uint32_t(std::min<std::int64_t>(b_outer, 1 << 20));
  m.swizzle_bytes = span;
  if (const std::optional<std::string> v = tma_2d_violation(m)) return fail("tma.map", *v);
  // TMA's row order (after the map's rules: the box is at most 256 x 256 here).
  for (std::int64_t y = 0; y < b_outer; ++y)
    for (std::int64_t x = 0; x < b_inner; ++x) {
      const std::int64_t got = inner_mode == 0 ? at(box, x, y) : at(box, y, x);
      if (got != y * b_inner + x) {
        const std::string coord = inner_mode == 0 ? "(" + std::to_string(x) + "," + std::to_string(y) + ")"
                                                  : "(" + std::to_string(y) + "," + std::to_string(x) + ")";
        return fail("tma.row_order", "the box layout " + rt::to_string(box) + " puts element " + coord + " at offset " +
                                         std::to_string(got) + ", TMA writes it at " + std::to_string(y * b_inner + x) +
                                         " (rows of " + std::to_string(b_inner) +
                                         " elements along the global unit-stride mode, one after the other)");
      }
    }
  r.legal = true;
  r.message = "TMA boxes of " + std::to_string(b_outer) + " rows x " + std::to_string(b_inner) +
              " elements (rows along mode " + std::to_string(inner_mode) + ", " + std::to_string(b_inner * elem_bytes) +
              " bytes), " + (span == 0 ? std::string("unswizzled") : std::to_string(span) + "-byte swizzle") +
              ", over a " + std::to_string(outer) + " x " + std::to_string(inner) + " matrix, row pitch " +
              std::to_string(m.ld * std::uint64_t(elem_bytes)) + " bytes";
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
