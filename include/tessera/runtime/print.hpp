// tessera/runtime/print.hpp -- print_layout of the run-time twin (twin of core/print.hpp).
//
// Every value prints itself in the reference notation through to_string (next to its type:
// integer.hpp, int_tuple.hpp, layout.hpp, swizzle.hpp); this header holds the table of a
// rank-2 layout, in the exact format of docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/print.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <cstdint>
#include <string>

#include "tessera/runtime/layout.hpp"

namespace tessera::rt {

// print_layout(L): L's text then the table of L(m,n). Pre: rank(L) == 2, at most 65536 cells.
// Example for (_2,(_2,_2)):(_4,(_2,_1)) -- see docs/eval.md.
inline std::string print_layout(const Layout& l) {
  if (detail::rank_of(l.shape) != 2 || !l.shape.is_tuple())
    fail("print_layout: " + to_string(l) + " has rank " + std::to_string(detail::rank_of(l.shape)) +
         ", not 2; group or select two modes first");
  const std::int64_t rows = size(get(l.shape, 0)).value, cols = size(get(l.shape, 1)).value;
  const auto leaves = static_cast<std::int64_t>(leaf_count(l.shape));
  if (rows > 65536 || cols > 65536 || rows * cols > 65536 || rows * cols * leaves > (std::int64_t{1} << 22))
    fail("print_layout: " + to_string(l) +
         " has more than 65536 cells (or is too deeply split to print); print a smaller tile");
  std::size_t width = 1;  // decimal digits of cosize(L), as the core counts them (1 below 10)
  for (std::int64_t c = cosize(l).value; c >= 10; c /= 10) ++width;
  // v right-aligned in `w` characters (wider values are not cut), as the core's table.
  const auto pad = [](std::int64_t v, std::size_t w) {
    const std::string digits = std::to_string(v);
    return std::string(digits.size() < w ? w - digits.size() : 0, ' ') + digits;
  };
  std::string out = to_string(l) + "\n    ";
  for (std::int64_t n = 0; n < cols; ++n) out += "  " + pad(n, width) + " ";
  out += "\n";
  std::string rule = "    ";
  for (std::int64_t n = 0; n < cols; ++n) rule += "+" + std::string(width + 2, '-');
  rule += "+\n";
  for (std::int64_t m = 0; m < rows; ++m) {
    out += rule + pad(m, 2) + "  ";
    for (std::int64_t n = 0; n < cols; ++n) out += "| " + pad(evaluate(l, make_tuple({D(m), D(n)})).value, width) + " ";
    out += "|\n";
  }
  return out + rule;
}

}  // namespace tessera::rt
