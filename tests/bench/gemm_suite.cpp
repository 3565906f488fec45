// Tests of the GEMM shape suite (bench/gemm_suite.hpp): a selection is all or some classes, each at
// most once, and yields the suite's shapes in the suite's order with no shape twice; the issue's
// table shapes are in it; a wrong selection is refused naming the piece and the valid names. No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bench/gemm_suite.hpp"

namespace {

using namespace tessera::bench;

bool has(std::vector<SuiteShape> const& suite, int m, int n, int k) {
  return std::any_of(suite.begin(), suite.end(),
                     [&](SuiteShape const& s) { return s.shape.m == m && s.shape.n == n && s.shape.k == k; });
}

TEST(GemmSuite, AllIsEveryClassInOrderWithNoShapeTwice) {
  auto const all = gemm_suite("all");
  auto const classes = gemm_suite_classes();
  ASSERT_FALSE(all.empty());
  // class by class in gemm_suite_classes' order, every class present
  std::size_t at = 0;
  for (SuiteShape const& s : all) {
    auto const c = std::find(classes.begin(), classes.end(), s.shape_class);
    ASSERT_NE(c, classes.end()) << s.shape_class;
    std::size_t const ci = std::size_t(c - classes.begin());
    EXPECT_GE(ci, at) << to_string(s.shape) << " is out of its class's place";
    at = ci;
    EXPECT_GE(s.shape.m, 1);
    EXPECT_GE(s.shape.n, 1);
    EXPECT_GE(s.shape.k, 1);
    EXPECT_FALSE(s.why.empty()) << to_string(s.shape);
  }
  EXPECT_EQ(at, classes.size() - 1);
  std::set<std::tuple<int, int, int>> seen;
  for (SuiteShape const& s : all)
    EXPECT_TRUE(seen.insert({s.shape.m, s.shape.n, s.shape.k}).second) << to_string(s.shape) << " twice";
  // the shapes of issue 33's table
  for (auto [m, n, k] : {std::tuple{3000, 5000, 4000}, std::tuple{10240, 10240, 1024}, std::tuple{8192, 8192, 256},
                         std::tuple{12288, 256, 12288}, std::tuple{512, 12288, 4096}})
    EXPECT_TRUE(has(all, m, n, k)) << m << "x" << n << "x" << k;
}

TEST(GemmSuite, EachClassKeepsItsPromise) {
  for (SuiteShape const& s : gemm_suite("small_k")) {
    EXPECT_GE(s.shape.k, 64) << to_string(s.shape);
    EXPECT_LE(s.shape.k, 1024) << to_string(s.shape);
  }
  for (SuiteShape const& s : gemm_suite("narrow")) {
    int const narrow = std::min(s.shape.m, s.shape.n);
    EXPECT_GE(narrow, 16) << to_string(s.shape);
    EXPECT_LE(narrow, 256) << to_string(s.shape);
    EXPECT_LE(s.shape.k, 16384) << to_string(s.shape);
  }
  for (SuiteShape const& s : gemm_suite("llm")) {
    EXPECT_GE(s.shape.m, 512) << to_string(s.shape);  // tokens
    EXPECT_LE(s.shape.m, 8192) << to_string(s.shape);
  }
  bool some_k_odd = false;
  for (SuiteShape const& s : gemm_suite("odd")) some_k_odd = some_k_odd || s.shape.k % 2 == 1;
  EXPECT_TRUE(some_k_odd);  // operands TMA cannot address as they are
}

TEST(GemmSuite, ASelectionKeepsTheSuitesOrder) {
  auto const two = gemm_suite("odd,small_k");
  ASSERT_FALSE(two.empty());
  EXPECT_EQ(two.front().shape_class, "small_k");
  EXPECT_EQ(two.back().shape_class, "odd");
  EXPECT_EQ(two.size(), gemm_suite("small_k").size() + gemm_suite("odd").size());
  EXPECT_EQ(gemm_suite("odd").front().shape.m, 3000);
  // 8192^3 is both an anchor and Llama-3 70B's o projection at 8192 tokens: once, in its first class
  auto const both = gemm_suite("square,llm");
  EXPECT_EQ(
      std::count_if(both.begin(), both.end(),
                    [](SuiteShape const& s) { return s.shape.m == 8192 && s.shape.n == 8192 && s.shape.k == 8192; }),
      1);
  EXPECT_TRUE(has(gemm_suite("llm"), 8192, 8192, 8192));  // alone, llm keeps it
}

TEST(GemmSuite, AWrongSelectionIsRefusedWithTheReason) {
  auto refused = [](char const* text, char const* why) {
    try {
      gemm_suite(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (std::invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
    }
  };
  refused("tall", "--suite: no shape class 'tall' (all, or some of square, small_k, narrow, odd, llm, with commas)");
  refused("", "no shape class ''");
  refused("narrow,", "no shape class ''");
  refused("all,odd", "no shape class 'all'");
  refused("odd,odd", "shape class 'odd' given twice");
  refused("Odd", "no shape class 'Odd'");
}

TEST(GemmSuite, ShapesAreSpelledAsTheyAreParsed) {
  EXPECT_EQ(to_string(GemmShape{3000, 5000, 4000}), "3000x5000x4000");
  for (SuiteShape const& s : gemm_suite("all")) {
    auto const back = parse_gemm_shapes(to_string(s.shape));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(std::tie(back[0].m, back[0].n, back[0].k), std::tie(s.shape.m, s.shape.n, s.shape.k));
  }
}

}  // namespace
