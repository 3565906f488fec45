// The GEMM shape suite's data and its selection (gemm_suite.hpp).
#include "bench/gemm_suite.hpp"

#include <algorithm>
#include <stdexcept>

namespace tessera::bench {

namespace {

// The suite, class by class in gemm_suite_classes' order.
std::vector<SuiteShape> const& suite() {
  static std::vector<SuiteShape> const shapes = [] {
    std::vector<SuiteShape> s = {
        {{4096, 4096, 4096}, "square", "anchor"},
        {{8192, 8192, 8192}, "square", "anchor"},
        {{8192, 8192, 64}, "small_k", "one 64-deep k-tile"},
        {{8192, 8192, 128}, "small_k", "two k-tiles"},
        {{8192, 8192, 256}, "small_k", "issue 33's table"},
        {{8192, 8192, 512}, "small_k", "eight k-tiles"},
        {{4096, 4096, 512}, "small_k", "a small product with shallow K"},
        {{16384, 8192, 256}, "small_k", "many output tiles, shallow K"},
        {{10240, 10240, 1024}, "small_k", "issue 33's table"},
        {{16, 8192, 8192}, "narrow", "decode: 16 tokens"},
        {{64, 8192, 16384}, "narrow", "64 rows, K = 16384"},
        {{128, 16384, 4096}, "narrow", "128 rows, wide N"},
        {{256, 8192, 16384}, "narrow", "256 rows, K = 16384"},
        {{8192, 16, 8192}, "narrow", "16 columns"},
        {{8192, 64, 16384}, "narrow", "64 columns, K = 16384"},
        {{16384, 128, 8192}, "narrow", "128 columns"},
        {{12288, 256, 12288}, "narrow", "issue 33's table"},
        {{3000, 5000, 4000}, "odd", "issue 33's table"},
        {{1000, 1000, 1000}, "odd", "no dimension a multiple of 64"},
        {{2049, 2049, 2049}, "odd", "one past a power of two, K odd (packed operands)"},
        {{4095, 4095, 4095}, "odd", "one short of a power of two, K odd (packed operands)"},
        {{7000, 3000, 1001}, "odd", "odd K, short"},
    };
    struct Projection {
      char const* model;
      char const* what;
      int in, out;
    };
    Projection const projections[] = {
        {"Llama-3 8B", "q/k/v", 4096, 6144},    {"Llama-3 8B", "o", 4096, 4096},
        {"Llama-3 8B", "gate+up", 4096, 28672}, {"Llama-3 8B", "down", 14336, 4096},
        {"Llama-3 70B", "q/k/v", 8192, 10240},  {"Llama-3 70B", "o", 8192, 8192},
        {"Llama-3 70B", "gate", 8192, 28672},   {"Llama-3 70B", "down", 28672, 8192},
    };
    for (int tokens : {1024, 8192})
      for (Projection const& p : projections)
        s.push_back({{tokens, p.out, p.in},
                     "llm",
                     std::string(p.model) + " " + p.what + " projection, " + std::to_string(tokens) + " tokens"});
    s.push_back({{512, 12288, 4096}, "llm", "fused q/k/v of hidden 4096, 512 tokens (issue 33's table)"});
    return s;
  }();
  return shapes;
}

std::string class_list() {
  std::string out;
  for (std::string const& c : gemm_suite_classes()) out += (out.empty() ? "" : ", ") + c;
  return out;
}

}  // namespace

std::vector<std::string> gemm_suite_classes() { return {"square", "small_k", "narrow", "odd", "llm"}; }

std::string to_string(GemmShape const& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::vector<SuiteShape> gemm_suite(std::string const& selection) {
  std::vector<std::string> const classes = gemm_suite_classes();
  std::vector<std::string> chosen;
  if (selection == "all") {
    chosen = classes;
  } else {
    std::size_t start = 0;
    while (true) {
      std::size_t const end = std::min(selection.find(',', start), selection.size());
      std::string const piece = selection.substr(start, end - start);
      if (std::find(classes.begin(), classes.end(), piece) == classes.end())
        throw std::invalid_argument("--suite: no shape class '" + piece + "' (all, or some of " + class_list() +
                                    ", with commas)");
      if (std::find(chosen.begin(), chosen.end(), piece) != chosen.end())
        throw std::invalid_argument("--suite: shape class '" + piece + "' given twice in '" + selection + "'");
      chosen.push_back(piece);
      if (end == selection.size()) break;
      start = end + 1;
    }
  }
  std::vector<SuiteShape> out;
  for (std::string const& c : classes) {  // the suite's order, whatever the selection's
    if (std::find(chosen.begin(), chosen.end(), c) == chosen.end()) continue;
    for (SuiteShape const& s : suite()) {
      if (s.shape_class != c) continue;
      bool const seen = std::any_of(out.begin(), out.end(), [&](SuiteShape const& o) {
        return o.shape.m == s.shape.m && o.shape.n == s.shape.n && o.shape.k == s.shape.k;
      });
      if (!seen) out.push_back(s);
    }
  }
  return out;
}

}  // namespace tessera::bench
