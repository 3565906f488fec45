// The ldmatrix/stmatrix layouts against the PTX ISA (ptx_fragments.hpp), shared by the tests of
// atom/copy_traits_sm75.hpp (ldmatrix) and atom/copy_traits_sm90.hpp (stmatrix).
#pragma once

#include <gtest/gtest.h>

#include "ptx_fragments.hpp"
#include "tessera/core/print.hpp"

namespace tessera::test {

// The row side, (thr, bit) -> tile bit: lane t's 128-bit operand is the row it names.
template <class RowsLayout>
void expect_rows_layout_matches_isa(RowsLayout const& l, int matrices) {
  ASSERT_EQ(int(size<0>(l)), 32);
  ASSERT_EQ(int(size<1>(l)), 128);
  for (int t = 0; t < 32; ++t) {
    ptx::MatrixRow const r = ptx::m8n8_row_named_by(t, matrices);
    for (int b = 0; b < 128; ++b) {
      ASSERT_EQ(int(l(t, b)), ptx::m8n8_tile_bit(r.matrix, r.row, 0, b))
          << to_string(l) << " at (" << t << "," << b << ")";
    }
  }
}

// The register side, (thr, 32 i + 16 h + b) -> tile bit: bit b of element h of lane t's register i
// is bit b of the ISA's fragment element h of matrix i.
template <class RegistersLayout>
void expect_registers_layout_matches_isa(RegistersLayout const& l, int matrices, bool trans) {
  ASSERT_EQ(int(size<0>(l)), 32);
  ASSERT_EQ(int(size<1>(l)), 32 * matrices);
  for (int t = 0; t < 32; ++t) {
    for (int i = 0; i < matrices; ++i) {
      for (int h = 0; h < 2; ++h) {
        ptx::RowCol const e = trans ? ptx::m8n8_fragment_trans(t, h) : ptx::m8n8_fragment(t, h);
        for (int b = 0; b < 16; ++b) {
          ASSERT_EQ(int(l(t, 32 * i + 16 * h + b)), ptx::m8n8_tile_bit(i, e.row, e.col, b))
              << to_string(l) << " lane " << t << " register " << i << " half " << h << " bit " << b;
        }
      }
    }
  }
}

}  // namespace tessera::test
