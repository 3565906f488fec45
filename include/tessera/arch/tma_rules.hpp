// The rules a 2-D tensor map must satisfy (those cuTensorMapEncodeTiled enforces for the tiled,
// non-interleaved mode the library uses, and the library's own limit to 1-, 2- and 4-byte
// elements), stated once: make_tma_desc_2d (arch/copy_sm90_tma.cuh)
// refuses what they refuse, with their messages, and the swizzle advisor (tools/advise.hpp) applies
// them to the layouts it considers for a TMA-written tile; the rule of a box's run-time coordinate
// (tma_coordinate_violation). Also here, once, the rules that relate a
// global layout and a shared-memory box layout to such a map (tma_layout_check, tma_row_order_*,
// tma_row_pitch_message):
// tma_box_params (atom/copy_traits_sm90_tma.cuh, on static layouts) and the checker's check_tma
// (tools/check.hpp, on the run-time twin) both call them. Host only, no CUDA headers. TMA's swizzles
// on element offsets (tma_swizzle_bytes) and the rules of a shared-memory tile cut into boxes are
// arch/tma_tile_rules.hpp's (constexpr, host and device: tma_partition checks them at compile time).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/arch/tma_rules.hpp: host only (a tensor map is made on the host)"
#endif

#include <cstdint>
#include <optional>
#include <string>

#include "tessera/arch/tma_tile_rules.hpp"  // tma_swizzle_bytes; how a shared-memory tile is cut into boxes

namespace tessera {

// A row-major matrix of `outer` rows of `inner` elements, rows `ld` elements apart, read in boxes
// of box_outer rows x box_inner elements, swizzled in shared memory by TMA's 32-, 64- or 128-byte
// mode (swizzle_bytes; 0: none).
struct TmaMatrix2d {
  bool aligned16 = true;  // the matrix's address is not null and 16-byte aligned
  int elem_bytes = 2;
  std::uint64_t inner = 1, outer = 1, ld = 1;
  std::uint32_t box_inner = 1, box_outer = 1;
  int swizzle_bytes = 0;
};

// tma_2d_violation(m): the first rule m breaks, as a message naming the rule, the values and the
// fix; nullopt when TMA accepts m. The rules: a 16-byte aligned address; 1-, 2- or 4-byte
// elements; a non-empty matrix of extents at most 2^32; ld >= inner; a row pitch (ld *
// elem_bytes) below 2^40 and a multiple of 16 bytes; box extents in [1, 256]; a box row (box_inner * elem_bytes) that is a multiple of 16
// bytes and, with a swizzle, at most its span. Example: {.elem_bytes = 2, .inner = 100, .outer =
// 64, .ld = 100, .box_inner = 64, .box_outer = 64} breaks the pitch rule (200 bytes).
inline std::optional<std::string> tma_2d_violation(const TmaMatrix2d& m) {
  constexpr std::uint64_t max_extent = std::uint64_t(1) << 32, max_stride_bytes = std::uint64_t(1) << 40;
  if (!m.aligned16) return std::string("the matrix must start at a 16-byte aligned address");
  if (m.elem_bytes != 1 && m.elem_bytes != 2 && m.elem_bytes != 4)
    return "elements must be 1, 2 or 4 bytes (the library's tensor maps), got " + std::to_string(m.elem_bytes);
  if (m.inner < 1 || m.outer < 1) return std::string("the matrix is empty");
  if (m.inner > max_extent || m.outer > max_extent)
    return "TMA's extents are at most 2^32, got " + std::to_string(m.outer) + " x " + std::to_string(m.inner);
  if (m.ld < m.inner)
    return "ld = " + std::to_string(m.ld) + " is smaller than the row length " + std::to_string(m.inner);
  if (m.outer > 1 && m.ld >= max_stride_bytes / std::uint64_t(m.elem_bytes))
    return "the row pitch ld * elem_bytes must be below 2^40 bytes (TMA strides), got ld = " + std::to_string(m.ld);
  if (m.ld * std::uint64_t(m.elem_bytes) % 16 != 0)
    return "the row pitch ld * elem_bytes = " + std::to_string(m.ld * std::uint64_t(m.elem_bytes)) +
           " bytes is not a multiple of 16 (TMA strides); pad the rows";
  if (m.box_inner < 1 || m.box_inner > 256 || m.box_outer < 1 || m.box_outer > 256)
    return "box sizes must be in [1, 256], got " + std::to_string(m.box_inner) + " x " + std::to_string(m.box_outer);
  const std::uint64_t row_bytes = std::uint64_t(m.box_inner) * std::uint64_t(m.elem_bytes);
  if (row_bytes % 16 != 0)
    return "the box's inner extent " + std::to_string(row_bytes) + " bytes is not a multiple of 16";
  if (m.swizzle_bytes != 0 && m.swizzle_bytes != 32 && m.swizzle_bytes != 64 && m.swizzle_bytes != 128)
    return "TMA swizzles rows of 32, 64 or 128 bytes, got " + std::to_string(m.swizzle_bytes);
  if (m.swizzle_bytes != 0 && row_bytes > std::uint64_t(m.swizzle_bytes))
    return "a " + std::to_string(m.swizzle_bytes) + "-byte swizzle needs a box inner extent of at most " +
           std::to_string(m.swizzle_bytes) + " bytes, got " + std::to_string(row_bytes) +
           "; use a narrower box (or no swizzle)";
  return std::nullopt;
}

// tma_coordinate_violation(inner, elem_bytes): a box's coordinate along the matrix's contiguous
// mode (the first coordinate of cp.async.bulk.tensor, in elements) must put the box's first row at
// a 16-byte aligned address: inner * elem_bytes a multiple of 16 (the matrix's address and its row
// pitch are, by tma_2d_violation's rules). The driver cannot check it (the coordinates come at run
// time) and sm_90 answers a load at another with an illegal instruction, which ends the CUDA
// context (seen on an H200 at 1-byte elements and coordinate 356, issue 34). Coordinates before or
// past the matrix are fine when aligned (TMA fills those elements with zeros). Tiled kernels meet
// the rule by construction: their coordinates are multiples of the box's inner extent, whose bytes
// are a multiple of 16. Example: (356, 1) -> "the box's inner coordinate 356 is at byte 356, not a
// multiple of 16 ...".
inline std::optional<std::string> tma_coordinate_violation(long long inner, int elem_bytes) {
  const long long bytes = inner * elem_bytes;
  if (bytes % 16 == 0) return std::nullopt;
  const long long unit = 16 / (elem_bytes > 0 && 16 % elem_bytes == 0 ? elem_bytes : 1);
  const long long below = bytes >= 0 ? inner / unit * unit : -((-inner + unit - 1) / unit * unit);
  return "the box's inner coordinate " + std::to_string(inner) + " is at byte " + std::to_string(bytes) +
         ", not a multiple of 16 (TMA's global address of a box must be 16-byte aligned; sm_90 raises an "
         "illegal instruction); start boxes at multiples of " +
         std::to_string(unit) + " elements, e.g. " + std::to_string(below) + " or " + std::to_string(below + unit);
}

// What a global layout and a box layout give a tensor map (m), or the first rule they break: rule
// "tma.inner" (the global layout is not contiguous along the box's contiguous mode), "tma.pitch_sign"
// (a row pitch that is not positive) or "tma.swizzle" (a swizzle that is not TMA's), with its
// message; rule nullptr when none. The map's own rules (tma_2d_violation) are not checked here.
struct TmaLayoutCheck {
  const char* rule = nullptr;
  std::string message;
  TmaMatrix2d m;
  int inner_mode = 1;  // the global layout's contiguous mode, the box's rows
};

// tma_layout_check(g0, g1, s0, s1, global_text, inner_mode, b0, b1, bits, base, shift, elem_bytes):
// the rules above for the 2-D matrix of extents (g0, g1) and strides (s0, s1) (its text, for the
// messages, from global_text(): called only on a failure) read in boxes of extents (b0, b1) whose
// contiguous mode is inner_mode (0 when the box's element (1,0) is at offset 1, else 1), swizzled by
// Sw<bits, base, shift> on element offsets (bits = 0: none). On success m holds the map: one row
// (outer = 1) gets the smallest pitch TMA accepts; box extents beyond 2^20 are clamped (they break
// the map's rules either way). Example: (4096,4096):(4096,1) in (64,64) boxes under Sw<3,3,3> on
// 2-byte elements: inner 4096, outer 4096, ld 4096, box 64 x 64, swizzle 128 bytes.
template <class GlobalText>
TmaLayoutCheck tma_layout_check(long long g0, long long g1, long long s0, long long s1, GlobalText const& global_text,
                                int inner_mode, long long b0, long long b1, int bits, int base, int shift,
                                int elem_bytes) {
  TmaLayoutCheck c;
  c.inner_mode = inner_mode;
  long long const s_inner = inner_mode == 0 ? s0 : s1, g_inner = inner_mode == 0 ? g0 : g1;
  if (s_inner != 1 && g_inner != 1) {
    c.rule = "tma.inner";
    c.message = "the box is contiguous along mode " + std::to_string(inner_mode) + " but the global layout " +
                std::string(global_text()) + " has stride " + std::to_string(s_inner) +
                " there (TMA reads rows of contiguous elements)";
    return c;
  }
  long long const inner = g_inner, outer = inner_mode == 0 ? g1 : g0, pitch = inner_mode == 0 ? s1 : s0;
  if (outer != 1 && pitch <= 0) {
    c.rule = "tma.pitch_sign";
    c.message = "the row pitch of " + std::string(global_text()) + " must be positive, got " + std::to_string(pitch);
    return c;
  }
  int const span = tma_swizzle_bytes(bits, base, shift, elem_bytes);
  if (span < 0) {
    int const log_eb = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3;
    c.rule = "tma.swizzle";
    c.message = "the box's swizzle Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," +
                std::to_string(shift) + "> on " + std::to_string(elem_bytes) +
                "-byte elements is not a TMA swizzle (16-byte units permuted within 32-, 64- or 128-byte rows: "
                "Sw<1..3," +
                std::to_string(4 - log_eb) + ",3>)";
    return c;
  }
  long long const one_row_pitch = (inner * elem_bytes + 15) / 16 * 16 / (elem_bytes > 0 ? elem_bytes : 1);
  long long const b_inner = inner_mode == 0 ? b0 : b1, b_outer = inner_mode == 0 ? b1 : b0;
  c.m.aligned16 = true;
  c.m.elem_bytes = elem_bytes;
  c.m.inner = std::uint64_t(inner);
  c.m.outer = std::uint64_t(outer);
  c.m.ld = std::uint64_t(outer == 1 ? one_row_pitch : pitch);
  c.m.box_inner = std::uint32_t(b_inner < (1LL << 20) ? b_inner : (1LL << 20));
  c.m.box_outer = std::uint32_t(b_outer < (1LL << 20) ? b_outer : (1LL << 20));
  c.m.swizzle_bytes = span;
  return c;
}

// tma_row_order_violation(inner_mode, b_inner, b_outer, at, row_pitch): TMA's row order in shared
// memory: the box element (x inner, y outer) at y * row_pitch + x before the swizzle (row_pitch:
// tma_row_pitch, the span in elements when swizzled, b_inner when not or when left at -1), where
// at(i, j) is the box layout's offset of element (i, j) in the global layout's mode order. Returns
// the first row-order index y * b_inner + x out of place, or -1. Example: (_2,_64):(_128,_1) (inner
// mode 1) -> 64 (element (1,0) is at 128); Sw<3,3,3> o (_8,_32):(_32,_1) on 2-byte elements, pitch
// 64 -> 32 (element (1,0) at 32, TMA writes it at 64).
template <class At>
long long tma_row_order_violation(int inner_mode, long long b_inner, long long b_outer, At const& at,
                                  long long row_pitch = -1) {
  long long const pitch = row_pitch < 0 ? b_inner : row_pitch;
  for (long long y = 0; y < b_outer; ++y)
    for (long long x = 0; x < b_inner; ++x)
      if ((inner_mode == 0 ? (long long)at(x, y) : (long long)at(y, x)) != y * pitch + x) return y * b_inner + x;
  return -1;
}

// tma_row_order_message(box_text, inner_mode, b_inner, index, got, row_pitch): the message of rule
// "tma.row_order" for the element at row-order index `index` found at offset `got` (row_pitch as
// tma_row_order_violation's).
inline std::string tma_row_order_message(std::string const& box_text, int inner_mode, long long b_inner,
                                         long long index, long long got, long long row_pitch = -1) {
  long long const x = index % b_inner, y = index / b_inner, pitch = row_pitch < 0 ? b_inner : row_pitch;
  std::string const coord = inner_mode == 0 ? "(" + std::to_string(x) + "," + std::to_string(y) + ")"
                                            : "(" + std::to_string(y) + "," + std::to_string(x) + ")";
  return "the box layout " + box_text + " puts element " + coord + " at offset " + std::to_string(got) +
         ", TMA writes it at " + std::to_string(y * pitch + x) + " (rows of " + std::to_string(b_inner) +
         " elements along the global unit-stride mode, " +
         (pitch == b_inner ? std::string("one after the other)")
                           : std::to_string(pitch) + " elements apart: the swizzle's span)");
}

// tma_row_pitch_message(box_text, inner_mode, b_inner, b_outer, elem_bytes, swizzle_bytes, swizzle_text):
// the message of rule "tma.row_pitch": the box's rows (b_inner elements, fewer bytes than the
// swizzle's span) laid out one after the other, where TMA pads each to the span (tma_row_pitch), so
// that the box takes b_outer x span bytes of shared memory, not b_outer x row bytes; the fixes: the
// row stride of the span, or the swizzle whose span is the row (none below 32 bytes). swizzle_text:
// the box's swizzle as written (e.g. "Sw<3,3,3>"). Example: (_159,_32):(_32,_1) under Sw<3,3,3>, 2-byte
// elements -> "... rows of 64 bytes under the 128-byte swizzle: TMA pads each row to 128 bytes ...".
inline std::string tma_row_pitch_message(std::string const& box_text, int inner_mode, long long b_inner,
                                         long long b_outer, int elem_bytes, int swizzle_bytes,
                                         std::string const& swizzle_text) {
  long long const row_bytes = b_inner * elem_bytes, pitch = tma_row_pitch(b_inner, elem_bytes, swizzle_bytes);
  std::string const row_stride = std::to_string(pitch);
  std::string const fixed =
      swizzle_text + " o " +
      (inner_mode == 0
           ? "(_" + std::to_string(b_inner) + ",_" + std::to_string(b_outer) + "):(_1,_" + row_stride + ")"
           : "(_" + std::to_string(b_outer) + ",_" + std::to_string(b_inner) + "):(_" + row_stride + ",_1)");
  int const log_eb = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3;
  std::string const narrower =
      row_bytes == 32   ? "Sw<1," + std::to_string(4 - log_eb) + ",3> (32 bytes)"
      : row_bytes == 64 ? "Sw<2," + std::to_string(4 - log_eb) + ",3> (64 bytes)"
                        : std::string("no swizzle (no TMA swizzle spans ") + std::to_string(row_bytes) + " bytes)";
  return "the box layout " + box_text + " has rows of " + std::to_string(b_inner) + " elements (" +
         std::to_string(row_bytes) + " bytes) one after the other under the " + std::to_string(swizzle_bytes) +
         "-byte swizzle: TMA pads each row to " + std::to_string(swizzle_bytes) + " bytes in shared memory (row y at " +
         "y * " + std::to_string(swizzle_bytes) + " bytes), so the box takes " + std::to_string(b_outer) + " x " +
         std::to_string(swizzle_bytes) + " = " + std::to_string(b_outer * swizzle_bytes) + " bytes, not " +
         std::to_string(b_outer * row_bytes) + ", and its rows are not where the layout says; lay it out as " + fixed +
         " (and allocate the padded rows), or use " + narrower;
}

}  // namespace tessera
