// TMA's shared-memory side, stated once as constexpr functions (host and device, no strings; the
// messages are the callers'): which swizzles TMA has on element offsets, and how a shared-memory
// tile is cut into boxes that TMA writes (or reads) one at a time. tma_partition
// (atom/copy_traits_sm90_tma.cuh) checks its tiles with them at compile time, the checker's
// check_tma (tools/check.hpp, `tessera check tma --smem`) and the advisor (tools/advise.hpp) at run
// time; the tensor map's own rules, host only, are arch/tma_rules.hpp's.
//
// A box of bp x bq elements lands in shared memory as TMA's row order: element (x inner, y outer)
// at box offset y * pitch + x before the swizzle, pitch = box_inner unswizzled and the swizzle's
// span in elements when swizzled (tma_row_pitch: a narrower row is padded to the span), the swizzle
// (16-byte units permuted within rows of 32, 64 or 128 bytes) applied to the shared-memory address. A tile (P,Q) -> element offset
// (before the swizzle) of whole boxes is written box by box; the rules, each with its name (the
// checker reports it):
//   tma.tile       the box's shape (bp, bq) divides the tile's (P, Q), mode by mode
//   tma.box_layout every box of the tile laid out as the box: element (i, j) of box (a, b) at
//                  tile(a bp, b bq) + box(i, j)
//   tma.box_start  every box's first element at a multiple of 128 bytes (TMA's shared-memory
//                  alignment) and, swizzled, of the swizzle's 8-row pattern (256, 512, 1024 bytes),
//                  so that each box's swizzle is the tile's (the tile itself starts so aligned)
// Example: attention's Q tile tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128)) in boxes of
// 128 rows x 64 columns: 2 boxes, the second at element 8192 (16384 bytes); stored row-major,
// (_128,_128):(_128,_1), its second box breaks tma.box_layout (element (1,0) of box (0,1) at 192,
// the box puts it at 128 + 64).
#pragma once

#include "tessera/core/config.hpp"

namespace tessera {

// tma_swizzle_bytes(B, M, S, elem_bytes): the span of TMA's swizzle mode that Sw<B,M,S> on element
// offsets of elem_bytes-byte elements is (16-byte units permuted within rows of 32, 64 or 128
// bytes: Sw<1|2|3, 4 - log2(elem_bytes), 3>); 0 for no swizzle (B = 0); -1 when it is none of them.
// Example: tma_swizzle_bytes(3, 3, 3, 2) == 128; tma_swizzle_bytes(3, 4, 3, 2) == -1.
TESSERA_HOST_DEVICE constexpr int tma_swizzle_bytes(int bits, int base, int shift, int elem_bytes) {
  if (bits == 0) return 0;
  int const log_eb = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : elem_bytes == 8 ? 3 : -1;
  if (log_eb < 0 || bits < 1 || bits > 3 || shift != 3 || base + log_eb != 4) return -1;
  return 16 << bits;
}

// tma_row_pitch(box_inner, elem_bytes, swizzle_bytes): the elements from one box row to the next in
// shared memory, as TMA writes a box: box_inner unswizzled; the swizzle's span (32, 64 or 128 bytes)
// when swizzled, whatever the row's own bytes (at most the span, tma.map): TMA pads a narrower row to
// the span (tma.row_pitch). Seen on an H200 (issue 34): boxes of 16-byte rows under the 32-byte
// swizzle and of 64-byte rows under the 128-byte one, 140 to 231 rows, wrote past a shared buffer
// of rows x row bytes + 1024 (an illegal address), the footprint rows x span. Example:
// tma_row_pitch(32, 2, 128) == 64; tma_row_pitch(32, 2, 0) == 32.
TESSERA_HOST_DEVICE constexpr long long tma_row_pitch(long long box_inner, int elem_bytes, int swizzle_bytes) {
  return swizzle_bytes > 0 && elem_bytes > 0 ? swizzle_bytes / elem_bytes : box_inner;
}

// tma_box_align_bytes(swizzle_bytes): the alignment of a box's first byte in shared memory: 128,
// or the swizzle's 8-row pattern (8 x 32, 64, 128 bytes) when swizzled (tma.box_start).
TESSERA_HOST_DEVICE constexpr long long tma_box_align_bytes(int swizzle_bytes) {
  return swizzle_bytes > 0 ? 8LL * swizzle_bytes : 128LL;
}

enum class TmaTileRule : int { ok = 0, tile, box_layout, box_start };

// The first box, and element in it, where a tile breaks a rule (rule ok: none). For box_layout,
// `expected` is where the box puts element (i, j) and `got` where the tile has it (element
// offsets); for box_start, got is the box's first element (expected unused).
struct TmaTileViolation {
  TmaTileRule rule = TmaTileRule::ok;
  long long box_p = 0, box_q = 0;  // the box's index along each mode
  long long i = 0, j = 0;          // the element within the box
  long long expected = 0, got = 0;
};

// tma_tile_violation(tile, P, Q, box, bp, bq, elem_bytes, swizzle_bytes, all): the first rule the
// tile (P,Q) -> element offset (before the swizzle; any callable of two coordinates) breaks when
// written in boxes of bp x bq laid out as box(i, j) (the box's offsets before the swizzle, TMA's
// row order), boxes taken column-major (along P first, as tiled_divide orders them); ok when none.
// all = false looks only at what a compile-time check affords: every box's start and, within each
// box, elements (1,0), (0,1) and (bp-1, bq-1). Example: for the tile (_128,_128):(_128,_1) and
// boxes of (_128,_64):(_64,_1), rule box_layout at box (0,1), element (1,0): expected 192, got 256.
template <class Tile, class Box>
TESSERA_HOST_DEVICE constexpr TmaTileViolation tma_tile_violation(Tile const& tile, long long P, long long Q,
                                                                  Box const& box, long long bp, long long bq,
                                                                  int elem_bytes, int swizzle_bytes, bool all = true) {
  TmaTileViolation v;
  if (bp < 1 || bq < 1 || P % bp != 0 || Q % bq != 0) {
    v.rule = TmaTileRule::tile;
    return v;
  }
  long long const align = tma_box_align_bytes(swizzle_bytes);
  // the alignment in elements (no product that could overflow for a hostile tile's offsets)
  long long const align_elems = elem_bytes > 0 && align % elem_bytes == 0 ? align / elem_bytes : 0;
  for (long long b = 0; b < Q / bq; ++b)
    for (long long a = 0; a < P / bp; ++a) {
      long long const start = (long long)tile(a * bp, b * bq);
      auto differs = [&](long long i, long long j) {  // records the first element out of place
        // start + box(i, j), modulo 2^64 (defined where a hostile tile's offsets would overflow)
        long long const want = (long long)((unsigned long long)start + (unsigned long long)(long long)box(i, j));
        long long const got = (long long)tile(a * bp + i, b * bq + j);
        if (want == got) return false;
        v = {TmaTileRule::box_layout, a, b, i, j, want, got};
        return true;
      };
      if (all) {
        for (long long j = 0; j < bq; ++j)
          for (long long i = 0; i < bp; ++i)
            if (differs(i, j)) return v;
      } else if ((bp > 1 && differs(1, 0)) || (bq > 1 && differs(0, 1)) || differs(bp - 1, bq - 1)) {
        return v;
      }
      if (align_elems > 0 ? start % align_elems != 0 : start * elem_bytes % align != 0) {
        v = {TmaTileRule::box_start, a, b, 0, 0, 0, start};
        return v;
      }
    }
  return v;
}

}  // namespace tessera
