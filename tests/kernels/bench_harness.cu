// Tests of the `tessera bench` harness (tools/tessera/bench/harness.hpp): the reports (table, JSON
// with escaped strings, SVG) need no GPU; run_cases needs one: a case whose verify fails is
// reported unverified and never timed, and a case timed against itself is near 100% of reference.
#include "gpu_skip.hpp"
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

namespace {

using namespace tessera::bench;

using tessera::test::no_device_reason;

std::string slurp(std::string const& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<Result> sample() {
  return {{"add_tv_fp16", "32768x32768", "memory", 1.5, 1.49, 4300.0, 4250.0, 101.2, "GB/s", true},
          {"odd \"name\"\\x", "1x1", "memory", 0, 0, 0, 0, 0, "GB/s", false},
          {"sgemm_v5", "4096x4096x4096", "sgemm", 2.9, 2.8, 47.0, 51.0, 92.2, "TFLOP/s", true}};
}

TEST(BenchHarness, TableMarksUnverifiedCases) {
  std::ostringstream os;
  print_table(sample(), os);
  std::string t = os.str();
  EXPECT_NE(t.find("add_tv_fp16"), std::string::npos);
  EXPECT_NE(t.find("101.2"), std::string::npos);
  EXPECT_NE(t.find("NO (wrong result, not timed)"), std::string::npos);
  EXPECT_NE(t.find("TFLOP/s"), std::string::npos);
}

TEST(BenchHarness, JsonEscapesStrings) {
  std::string path = ::testing::TempDir() + "bench_harness.json";
  write_json(sample(), path);
  std::string j = slurp(path);
  std::remove(path.c_str());
  EXPECT_EQ(j.front(), '[');
  EXPECT_NE(j.find("\"kernel\": \"odd \\\"name\\\"\\\\x\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"verified\": false"), std::string::npos);
  EXPECT_NE(j.find("\"percent_of_ref\": 101.20"), std::string::npos);
  EXPECT_NE(j.find("\"unit\": \"TFLOP/s\""), std::string::npos);
}

TEST(BenchHarness, SvgIsStandaloneWithOneBarPerVerifiedCase) {
  std::string path = ::testing::TempDir() + "bench_harness.svg";
  write_svg(sample(), path);
  std::string s = slurp(path);
  std::remove(path.c_str());
  EXPECT_EQ(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(s.find("</svg>"), std::string::npos);
  EXPECT_NE(s.find("odd &quot;name&quot;"), std::string::npos);
  EXPECT_NE(s.find("wrong result: not timed"), std::string::npos);
  std::size_t bars = 0;
  for (std::size_t at = s.find("<title>"); at != std::string::npos; at = s.find("<title>", at + 1)) ++bars;
  EXPECT_EQ(bars, 2u);
}

TEST(BenchHarness, RunCasesVerifiesBeforeTiming) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  std::size_t const bytes = std::size_t(64) << 20;
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, bytes), cudaSuccess);
  int timed_wrong = 0;
  auto copy = [=](cudaStream_t s) { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s); };
  std::vector<Case> cases(2);
  cases[0] = {"self", "64MiB", "memory", 2.0 * bytes, 0, copy, copy, [](std::string&) { return true; }};
  cases[1] = {"wrong", "64MiB", "memory", 2.0 * bytes, 0, [&](cudaStream_t) { ++timed_wrong; }, copy,
              [](std::string& m) {
                m = "deliberately wrong";
                return false;
              }};
  auto rs = run_cases(cases, 1, 5, 4, false);
  cudaFree(a);
  cudaFree(b);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_TRUE(rs[0].verified);
  EXPECT_GT(rs[0].value, 0);
  EXPECT_EQ(rs[0].unit, "GB/s");
  EXPECT_NEAR(rs[0].percent_of_ref, 100.0, 15.0);
  EXPECT_LE(rs[0].best_ms, rs[0].median_ms);
  EXPECT_FALSE(rs[1].verified);
  EXPECT_EQ(timed_wrong, 0) << "a case that failed verification was launched for timing";
}

}  // namespace
