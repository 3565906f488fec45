// Test helpers for the run-time twin: literals parsed by the evaluator, printed comparisons.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tessera/runtime/eval.hpp"

namespace tessera::rt::test {

// A layout literal such as "(_6,_2):(_8,_2)" (a bare shape gives its column-major layout).
inline Layout L(const std::string& text) {
  Value v = evaluate(text);
  if (v.is<IntTuple>()) return make_layout(v.as<IntTuple>());
  return v.as<Layout>();
}

// An IntTuple literal such as "(3,(2,3))".
inline IntTuple T(const std::string& text) { return evaluate(text).as<IntTuple>(); }

// The printed result of one `tessera eval` line.
inline std::string E(const std::string& text) { return eval_line(text).text; }

}  // namespace tessera::rt::test
