// Laws every thread-value layout of an atom must obey, as reusable checks for tests/atom.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/core/print.hpp"

namespace tessera::test {

// L is a bijection from its (thr,val) domain onto [0, size(L)): every index is hit exactly once.
template <class L>
::testing::AssertionResult is_bijection_onto_tile(L const& l) {
  long long const n = static_cast<long long>(size(l));
  std::vector<int> hits(static_cast<std::size_t>(n), 0);
  for (long long i = 0; i < n; ++i) {
    long long const x = static_cast<long long>(l(i));
    if (x < 0 || x >= n) {
      return ::testing::AssertionFailure()
             << to_string(l) << " maps " << i << " to " << x << ", outside [0, " << n << ")";
    }
    ++hits[static_cast<std::size_t>(x)];
  }
  for (long long x = 0; x < n; ++x) {
    if (hits[static_cast<std::size_t>(x)] != 1) {
      return ::testing::AssertionFailure()
             << to_string(l) << " hits " << x << " " << hits[static_cast<std::size_t>(x)] << " times";
    }
  }
  return ::testing::AssertionSuccess();
}

// A broadcast source (ldmatrix/stmatrix .x1 and .x2): the first `used` threads map bijectively onto
// [0, used * size<1>(L)), and every other thread t maps exactly as thread t % used does.
template <class L>
::testing::AssertionResult is_broadcast_of_first_threads(L const& l, int used) {
  int const threads = static_cast<int>(size<0>(l));
  int const values = static_cast<int>(size<1>(l));
  long long const n = static_cast<long long>(used) * values;
  std::vector<int> hits(static_cast<std::size_t>(n), 0);
  for (int t = 0; t < threads; ++t) {
    for (int v = 0; v < values; ++v) {
      long long const x = static_cast<long long>(l(t, v));
      if (t < used) {
        if (x < 0 || x >= n)
          return ::testing::AssertionFailure() << to_string(l) << ": (" << t << "," << v << ") -> " << x;
        ++hits[static_cast<std::size_t>(x)];
      } else if (x != static_cast<long long>(l(t % used, v))) {
        return ::testing::AssertionFailure() << to_string(l) << ": thread " << t << " differs from thread " << t % used;
      }
    }
  }
  for (long long x = 0; x < n; ++x) {
    if (hits[static_cast<std::size_t>(x)] != 1)
      return ::testing::AssertionFailure()
             << to_string(l) << " hits " << x << " " << hits[static_cast<std::size_t>(x)] << " times";
  }
  return ::testing::AssertionSuccess();
}

// The number of bits a register array type (e.g. std::uint32_t[4]) holds.
template <class Registers>
inline constexpr int register_bits_v = int(8 * sizeof(Registers));

}  // namespace tessera::test
