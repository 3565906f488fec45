// The GEMM shape suite of `tessera-bench --suite`: the shape classes where one GEMM kernel can be
// fast on squares and still fall behind the best library algorithm (issue 33). Each shape names its
// class and why it is there; the suite is plain data (no CUDA), so the command checks a selection
// before any device is asked.
//   square   4096^3, 8192^3: the anchors every other run of record has
//   small_k  K = 64 .. 1024 on large M x N: few k-tiles per output tile, so the prologue and the
//            epilogue weigh (the 8192x8192x256 and 10240x10240x1024)
//   narrow   M or N = 16 .. 256 with K up to 16384: few output tiles for the SMs, long K (split-K
//            or stream-K territory; the 12288x256x12288)
//   odd      sizes that are not multiples of the tiles, some not of 8 (the operands packed first;
//            the 3000x5000x4000)
//   llm      the projections of Llama-3 8B (hidden 4096: q/k/v 4096 -> 6144, o 4096 -> 4096,
//            gate+up 4096 -> 28672, down 14336 -> 4096) and 70B (hidden 8192: q/k/v 8192 -> 10240,
//            o 8192 -> 8192, gate 8192 -> 28672, down 28672 -> 8192) at 1024 and 8192 tokens, and a
//            fused q/k/v of hidden 4096 (4096 -> 12288) at 512 tokens (the 512x12288x4096);
//            M = tokens, D = X W with X row-major tokens x in
#pragma once

#include <string>
#include <vector>

#include "bench/harness.hpp"  // GemmShape

namespace tessera::bench {

// One shape of the suite: the shape, its class and why it is there.
struct SuiteShape {
  GemmShape shape;
  std::string shape_class;  // "square", "small_k", "narrow", "odd" or "llm"
  std::string why;          // e.g. "Llama-3 8B down projection, 1024 tokens"
};

// The class names in the suite's order: square, small_k, narrow, odd, llm.
std::vector<std::string> gemm_suite_classes();

// gemm_suite(selection): the suite's shapes of the classes selected, in the suite's order (class
// by class as gemm_suite_classes lists them, then as the class lists its shapes), each shape once.
// selection: "all", or class names separated by commas, each at most once ("small_k,narrow").
// Pre: none. Post: a non-empty list; every shape's sizes >= 1; else std::invalid_argument naming the
// offending piece and the valid names.
// Example: gemm_suite("odd") starts with {3000x5000x4000, "odd", ...}; gemm_suite("tall") throws
// "--suite: no shape class 'tall' (all, or some of square, small_k, narrow, odd, llm, with commas)".
std::vector<SuiteShape> gemm_suite(std::string const& selection);

// "MxNxK": the spelling parse_gemm_shapes reads and the benchmark's cases report, e.g. "3000x5000x4000".
std::string to_string(GemmShape const& s);

}  // namespace tessera::bench
