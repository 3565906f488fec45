// Shared helpers for the core tests: static shape builders and string comparison.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tessera/tessera.hpp"

namespace tessera::test {
// S<2,4>() == (_2,_4): a static tuple from values.
template <int... v>
constexpr auto S() {
  return make_tuple(C<v>{}...);
}
}  // namespace tessera::test

// EXPECT_PRINTS(x, "text"): x prints exactly as text in the reference notation.
#define EXPECT_PRINTS(x, text) EXPECT_EQ(::tessera::to_string(x), std::string(text))
