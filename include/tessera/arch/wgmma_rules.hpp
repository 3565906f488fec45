// The shared-memory layouts a wgmma matrix descriptor can describe (the PTX ISA's canonical
// layouts, "Shared Memory Matrix Layout"), stated once as constexpr functions: make_gmma_desc
// (atom/mma_traits_sm90.hpp) checks its stage layouts with them at compile time, the checker
// (tools/check.hpp, `tessera check wgmma`) and the advisor (tools/advise.hpp) every element of a
// tile at run time. Host and device; no strings (the messages are the callers').
//
// An operand tile is (MN,K) -> element offset. T = 16 / elem_bytes elements make a 16-byte unit; a
// core matrix is 8 rows of one unit (128 bytes). The swizzle is Sw<b, log2 T, 3> on element
// offsets: b = 0 none ("interleave"), 1, 2, 3 the 32-, 64-, 128-byte swizzle, which permutes the
// units within rows of R = 2^b units (R T elements). One descriptor describes a block of
// MN_block x (32 bytes of K) elements starting at element `start`; the canonical forms, before the
// swizzle (the ISA's, in elements):
//   K-major,  none:      (mn,k) -> start + (mn/8) SBO + (mn%8) T   + (k/T) LBO + k%T
//   K-major,  swizzled:  (mn,k) -> start + (mn/8) SBO + (mn%8) R T + k                (LBO unused)
//   MN-major, none:      (mn,k) -> start + (mn/T) SBO + mn%T + (k%8) T   + (k/8) LBO
//   MN-major, swizzled:  (mn,k) -> start + (mn/(R T)) LBO + mn%(R T) + (k%8) R T + (k/8) SBO
// (LBO, SBO: the leading and stride byte offsets over elem_bytes; a field is unused where the block
// has one group along it). The rules, each with its name (the checker reports it):
//   wgmma.elem    1-, 2- or 4-byte elements (e4m3/e5m2, f16/bf16, tf32); MN-major only for 2-byte
//                 ones (wgmma transposes 16-bit operands only)
//   wgmma.swizzle none, or Sw<1|2|3, log2 T, 3> (16-byte units within rows of 32, 64, 128 bytes)
//   wgmma.block   MN_block a positive multiple of 8, at most 256; MN-major swizzled: at most one
//                 swizzle row (R T) or whole rows
//   wgmma.start   the block's first element 16-byte aligned; swizzled, at the start of the swizzle's
//                 8-row pattern (8 R 16 bytes: the descriptor's base offset is 0), K-major's 32
//                 bytes of K within its first row
//   wgmma.core    the first core matrix is the canonical one: T contiguous elements per row, rows
//                 T (none) or R T (swizzled) elements apart
//   wgmma.lbo, wgmma.sbo  the offsets a descriptor encodes: non-negative, multiples of 16 bytes,
//                 below 2^18 bytes (14-bit fields of 16-byte units); swizzled, multiples of the
//                 pattern (8 R 16 bytes), so every group starts at its phase 0
//   wgmma.layout  every element of the block where the canonical form with these offsets puts it
// Example: the Hopper GEMM's K-major fp16 stage tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1),
// (_128,_64)) is the 128-byte form with SBO = 1024 bytes: block (64, 16) starts at element 4112.
#pragma once

#include "tessera/arch/mma_sm90.hpp"  // GmmaMajor
#include "tessera/core/stdlib.hpp"

namespace tessera {

enum class GmmaRule : int { ok = 0, elem, swizzle, block, start, core, lbo, sbo, layout };

// One descriptor's canonical form: what make_gmma_desc encodes, read off a layout (gmma_form_of).
struct GmmaForm {
  int elem_bytes = 2;
  GmmaMajor major = GmmaMajor::K;
  int swizzle_bits = 3;        // 0 none, 1..3: the 32-, 64-, 128-byte swizzle
  int mn_block = 64;           // MN extent of the block
  long long start = 0;         // the block's first element (offset before the swizzle)
  long long lbo = 0, sbo = 0;  // in elements; 0 where unused (gmma_lbo_used, gmma_sbo_used)
};

// The first element of a block where a layout differs from its canonical form (rule ok: none).
struct GmmaViolation {
  GmmaRule rule = GmmaRule::ok;
  int mn = 0, k = 0;                // within the block
  long long expected = 0, got = 0;  // element offsets before the swizzle
};

// Elements of a 16-byte unit (T), of the 32 bytes of K one wgmma reads, of a swizzle row (R T).
TESSERA_HOST_DEVICE constexpr int gmma_unit_elems(int elem_bytes) { return elem_bytes > 0 ? 16 / elem_bytes : 0; }
TESSERA_HOST_DEVICE constexpr int gmma_k_block(int elem_bytes) { return elem_bytes > 0 ? 32 / elem_bytes : 0; }
TESSERA_HOST_DEVICE constexpr int gmma_row_elems(int elem_bytes, int swizzle_bits) {
  return (1 << swizzle_bits) * gmma_unit_elems(elem_bytes);
}
// The swizzle's bytes (32, 64, 128; 16: none, one unit a row) and its 8-row pattern's bytes.
TESSERA_HOST_DEVICE constexpr int gmma_span_bytes(int swizzle_bits) { return 16 << swizzle_bits; }
TESSERA_HOST_DEVICE constexpr int gmma_pattern_bytes(int swizzle_bits) { return 8 * gmma_span_bytes(swizzle_bits); }

// gmma_swizzle_bits(B, M, S, elem_bytes): b of the wgmma swizzle that Sw<B,M,S> on element offsets
// is (Sw<b, log2 T, 3>; Sw<0,..> none); -1 when it is none of them. Example:
// gmma_swizzle_bits(3, 3, 3, 2) == 3, gmma_swizzle_bits(3, 4, 3, 2) == -1 (32-byte units).
TESSERA_HOST_DEVICE constexpr int gmma_swizzle_bits(int bits, int base, int shift, int elem_bytes) {
  if (bits == 0) return 0;
  int const log_eb = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : -1;
  if (log_eb < 0 || bits < 1 || bits > 3 || shift != 3 || base + log_eb != 4) return -1;
  return bits;
}

// Whether the block has two groups along the field's direction (else the descriptor ignores it).
TESSERA_HOST_DEVICE constexpr bool gmma_lbo_used(GmmaForm const& f) {
  if (f.major == GmmaMajor::K) return f.swizzle_bits == 0;  // K-major: the second unit of K
  return f.swizzle_bits == 0 || f.mn_block > gmma_row_elems(f.elem_bytes, f.swizzle_bits);
}
TESSERA_HOST_DEVICE constexpr bool gmma_sbo_used(GmmaForm const& f) {
  if (f.major == GmmaMajor::K) return f.mn_block > 8;
  return f.swizzle_bits != 0 || f.mn_block > gmma_unit_elems(f.elem_bytes);
}

// gmma_canonical_offset(f, mn, k): where the canonical form f puts element (mn, k) of its block,
// before the swizzle (the file's table), modulo 2^64 (offsets read off a hostile layout may be
// huge; the result then differs from the layout's, as it should, without a signed overflow).
TESSERA_HOST_DEVICE constexpr long long gmma_canonical_offset(GmmaForm const& f, int mn, int k) {
  using U = unsigned long long;
  int const t = gmma_unit_elems(f.elem_bytes), row = gmma_row_elems(f.elem_bytes, f.swizzle_bits);
  U const start = U(f.start), lbo = U(f.lbo), sbo = U(f.sbo);
  U r = 0;
  if (f.major == GmmaMajor::K) {
    if (f.swizzle_bits == 0) r = start + U(mn / 8) * sbo + U((mn % 8) * t) + U(k / t) * lbo + U(k % t);
    else r = start + U(mn / 8) * sbo + U((mn % 8) * row + k);
  } else if (f.swizzle_bits == 0) {
    r = start + U(mn / t) * sbo + U(mn % t + (k % 8) * t) + U(k / 8) * lbo;
  } else {
    r = start + U(mn / row) * lbo + U(mn % row + (k % 8) * row) + U(k / 8) * sbo;
  }
  return (long long)r;
}

namespace detail {
// a - b modulo 2^64 (offsets of a hostile layout may be far apart; no signed overflow)
TESSERA_HOST_DEVICE constexpr long long gmma_minus(long long a, long long b) {
  return (long long)((unsigned long long)a - (unsigned long long)b);
}
}  // namespace detail

// gmma_form_of(elem_bytes, major, swizzle_bits, l, mn0, k0, mn_block): the canonical form of the
// block at (mn0, k0) of the layout l ((mn, k) -> element offset before the swizzle, any callable),
// its offsets read off l at the second group along each direction. Whether l is that form:
// gmma_form_violation, then gmma_block_violation.
template <class L>
TESSERA_HOST_DEVICE constexpr GmmaForm gmma_form_of(int elem_bytes, GmmaMajor major, int swizzle_bits, L const& l,
                                                    int mn0, int k0, int mn_block) {
  GmmaForm f;
  f.elem_bytes = elem_bytes;
  f.major = major;
  f.swizzle_bits = swizzle_bits;
  f.mn_block = mn_block;
  f.start = (long long)l(mn0, k0);
  int const t = gmma_unit_elems(elem_bytes), row = gmma_row_elems(elem_bytes, swizzle_bits);
  if (major == GmmaMajor::K) {
    if (gmma_lbo_used(f)) f.lbo = detail::gmma_minus((long long)l(mn0, k0 + t), f.start);
    if (gmma_sbo_used(f)) f.sbo = detail::gmma_minus((long long)l(mn0 + 8, k0), f.start);
  } else {
    int const chunk = swizzle_bits == 0 ? t : row;  // MN elements of one group
    if (swizzle_bits == 0) {
      f.lbo = detail::gmma_minus((long long)l(mn0, k0 + 8), f.start);
      if (gmma_sbo_used(f)) f.sbo = detail::gmma_minus((long long)l(mn0 + chunk, k0), f.start);
    } else {
      f.sbo = detail::gmma_minus((long long)l(mn0, k0 + 8), f.start);
      if (gmma_lbo_used(f)) f.lbo = detail::gmma_minus((long long)l(mn0 + chunk, k0), f.start);
    }
  }
  return f;
}

namespace detail {
// Whether an offset of `elems` elements fits a descriptor's LBO or SBO field (wgmma.lbo, wgmma.sbo).
// Pre: f.elem_bytes is 1, 2 or 4 (the range is checked in elements: no product that overflows).
TESSERA_HOST_DEVICE constexpr bool gmma_field_ok(GmmaForm const& f, long long elems) {
  if (elems < 0 || elems >= (1LL << 18) / f.elem_bytes) return false;
  long long const bytes = elems * f.elem_bytes;
  return bytes % 16 == 0 && (f.swizzle_bits == 0 || bytes % gmma_pattern_bytes(f.swizzle_bits) == 0);
}
// Whether (mn, k) is in the block's first core matrix (K-major: 8 MN-rows of T K-elements;
// MN-major: 8 K-rows of T MN-elements).
TESSERA_HOST_DEVICE constexpr bool gmma_in_core(GmmaForm const& f, int mn, int k) {
  int const t = gmma_unit_elems(f.elem_bytes);
  return f.major == GmmaMajor::K ? (mn < 8 && k < t) : (mn < t && k < 8);
}
}  // namespace detail

// gmma_form_violation(f): the first of the rules wgmma.elem, wgmma.swizzle, wgmma.block, wgmma.start, wgmma.lbo,
// wgmma.sbo that f breaks (those that need only f), or ok.
TESSERA_HOST_DEVICE constexpr GmmaRule gmma_form_violation(GmmaForm const& f) {
  if (f.elem_bytes != 1 && f.elem_bytes != 2 && f.elem_bytes != 4) return GmmaRule::elem;
  if (f.major == GmmaMajor::MN && f.elem_bytes != 2) return GmmaRule::elem;
  if (f.swizzle_bits < 0 || f.swizzle_bits > 3) return GmmaRule::swizzle;
  int const row = gmma_row_elems(f.elem_bytes, f.swizzle_bits);
  if (f.mn_block < 8 || f.mn_block % 8 != 0 || f.mn_block > 256) return GmmaRule::block;
  if (f.major == GmmaMajor::MN && f.swizzle_bits != 0 && f.mn_block > row && f.mn_block % row != 0)
    return GmmaRule::block;
  long long const pattern = gmma_pattern_bytes(f.swizzle_bits), span = gmma_span_bytes(f.swizzle_bits);
  // in elements (16, pattern: multiples of elem_bytes), so that no product overflows
  if (f.start < 0 || f.start % (16 / f.elem_bytes) != 0) return GmmaRule::start;
  if (f.swizzle_bits != 0) {
    long long const phase = f.start % (pattern / f.elem_bytes) * f.elem_bytes;
    if (f.major == GmmaMajor::K ? phase + 32 > span : phase != 0) return GmmaRule::start;
  }
  if (gmma_lbo_used(f) && !detail::gmma_field_ok(f, f.lbo)) return GmmaRule::lbo;
  if (gmma_sbo_used(f) && !detail::gmma_field_ok(f, f.sbo)) return GmmaRule::sbo;
  return GmmaRule::ok;
}

// gmma_block_violation(f, l, mn0, k0, all): the first element of the block at (mn0, k0) where l
// differs from the form f (rule core within the first core matrix, else layout), or ok. all = false
// looks only at what a compile-time check affords: the first core matrix, the first element of every
// group along each direction, and the block's last element.
template <class L>
TESSERA_HOST_DEVICE constexpr GmmaViolation gmma_block_violation(GmmaForm const& f, L const& l, int mn0, int k0,
                                                                 bool all = true) {
  int const kb = gmma_k_block(f.elem_bytes), t = gmma_unit_elems(f.elem_bytes);
  bool const k_major = f.major == GmmaMajor::K;
  int const mn_group = k_major ? 8 : t, k_group = k_major ? t : 8;  // a core matrix's extents
  GmmaViolation v;
  auto differs = [&](int mn, int k, GmmaRule rule) {  // records the first difference
    long long const want = gmma_canonical_offset(f, mn, k), got = (long long)l(mn0 + mn, k0 + k);
    if (want == got) return false;
    v.rule = rule;
    v.mn = mn;
    v.k = k;
    v.expected = want;
    v.got = got;
    return true;
  };
  // the core matrix first, so that its rule is the one named
  for (int mn = 0; mn < mn_group; ++mn)
    for (int k = 0; k < k_group; ++k)
      if (differs(mn, k, GmmaRule::core)) return v;
  if (all) {
    for (int mn = 0; mn < f.mn_block; ++mn)
      for (int k = 0; k < kb; ++k)
        if (!detail::gmma_in_core(f, mn, k) && differs(mn, k, GmmaRule::layout)) return v;
    return v;
  }
  // probes: the first element of every group along each direction, and the block's last element
  for (int mn = mn_group; mn < f.mn_block; mn += mn_group)
    if (differs(mn, 0, GmmaRule::layout)) return v;
  for (int k = k_group; k < kb; k += k_group)
    if (differs(0, k, GmmaRule::layout)) return v;
  (void)differs(f.mn_block - 1, kb - 1, GmmaRule::layout);
  return v;
}

}  // namespace tessera
