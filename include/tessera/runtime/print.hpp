// tessera/runtime/print.hpp -- print_layout of the run-time twin (twin of core/print.hpp).
//
// Every value prints itself in the reference notation through to_string (next to its type:
// integer.hpp, int_tuple.hpp, layout.hpp, swizzle.hpp); this header holds the table of a
// rank-2 layout, in the exact format of docs/algebra.md.
#pragma once

#include <cstdio>
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
    fail("print_layout: " + to_string(l) + " has more than 65536 cells (or is too deeply split to print); print a smaller tile");
  const int width = static_cast<int>(std::to_string(cosize(l).value).size());
  std::string out = to_string(l) + "\n    ";
  char buf[64];
  for (std::int64_t n = 0; n < cols; ++n) {
    std::snprintf(buf, sizeof buf, "  %*lld ", width, static_cast<long long>(n));
    out += buf;
  }
  out += "\n";
  const std::string rule = "    " + [&] {
    std::string r;
    for (std::int64_t n = 0; n < cols; ++n) {
      r += '+';
      r.append(static_cast<std::size_t>(width) + 2, '-');
    }
    return r + "+\n";
  }();
  for (std::int64_t m = 0; m < rows; ++m) {
    out += rule;
    std::snprintf(buf, sizeof buf, "%2lld  ", static_cast<long long>(m));
    out += buf;
    for (std::int64_t n = 0; n < cols; ++n) {
      IntTuple c = make_tuple({D(m), D(n)});
      std::snprintf(buf, sizeof buf, "| %*lld ", width, static_cast<long long>(evaluate(l, c).value));
      out += buf;
    }
    out += "|\n";
  }
  return out + rule;
}

}  // namespace tessera::rt
