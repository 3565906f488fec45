// The rules a 2-D tensor map must satisfy (those cuTensorMapEncodeTiled enforces for the tiled,
// non-interleaved mode the library uses, and the library's own limit to 1-, 2- and 4-byte
// elements), stated once: make_tma_desc_2d (arch/copy_sm90_tma.cuh)
// refuses what they refuse, with their messages, and the swizzle advisor (tools/advise.hpp) applies
// them to the layouts it considers for a TMA-written tile. Host only, no CUDA headers.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/arch/tma_rules.hpp: host only (a tensor map is made on the host)"
#endif

#include <cstdint>
#include <optional>
#include <string>

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

// tma_swizzle_bytes(B, M, S, elem_bytes): the span of TMA's swizzle mode that Sw<B,M,S> on element
// offsets of elem_bytes-byte elements is (16-byte units permuted within rows of 32, 64 or 128
// bytes: Sw<1|2|3, 4 - log2(elem_bytes), 3>); 0 for no swizzle (B = 0); -1 when it is none of them.
// Example: tma_swizzle_bytes(3, 3, 3, 2) == 128; tma_swizzle_bytes(3, 4, 3, 2) == -1.
inline int tma_swizzle_bytes(int bits, int base, int shift, int elem_bytes) {
  if (bits == 0) return 0;
  const int log_eb = elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : elem_bytes == 8 ? 3 : -1;
  if (log_eb < 0 || bits < 1 || bits > 3 || shift != 3 || base + log_eb != 4) return -1;
  return 16 << bits;
}

}  // namespace tessera
