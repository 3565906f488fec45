// Shared helpers for the tensor tests: offset tensors (a CountingIterator through a layout, so
// each element is its own offset) and string comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tessera/algorithm/copy.hpp"
#include "tessera/algorithm/functional.hpp"
#include "tessera/algorithm/gemm.hpp"
#include "tessera/tensor/print.hpp"
#include "tessera/tensor/tiling.hpp"

namespace tessera::test {
// offsets(L): the tensor whose element at c is L(c) (no memory behind it).
template <class S, class D>
auto offsets(Layout<S, D> const& l) {
  return make_tensor(CountingIterator<long long>(0), l);
}
// v(x): the value of a static or dynamic integer as long long.
template <class T>
long long v(T const& x) {
  return static_cast<long long>(x);
}
}  // namespace tessera::test

// EXPECT_PRINTS(x, "text"): x prints exactly as text in the reference notation.
#define EXPECT_PRINTS(x, text) EXPECT_EQ(::tessera::to_string(x), std::string(text))
