// Tests of the benchmark harness (bench/harness.hpp): the reports (table, JSON with escaped strings,
// SVG; a further reference's column and fields, the reference's choice) need no GPU; run_cases needs
// one: a case whose verify fails is reported unverified and never timed, a case timed against itself
// (and a further reference that is itself) is near 100% of each in its burst and its sustained run,
// what the reference chose is asked after verify, and the GPU's state is read while it runs (where
// NVML is present).
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include "support/gpu_skip.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/harness.hpp"

namespace {

using namespace tessera::bench;

using tessera::test::no_device_reason;

std::string slurp(std::string const& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Result result(std::string kernel, std::string shape, std::string group, double median_ms, double best_ms, double value,
              double ref_value, double percent, std::string unit, bool verified) {
  Result r;
  r.kernel = std::move(kernel);
  r.shape = std::move(shape);
  r.group = std::move(group);
  r.median_ms = median_ms;
  r.best_ms = best_ms;
  r.value = value;
  r.ref_value = ref_value;
  r.percent_of_ref = percent;
  r.unit = std::move(unit);
  r.verified = verified;
  return r;
}

std::vector<Result> sample() {
  return {result("add_tv_fp16", "32768x32768", "memory", 1.5, 1.49, 4300.0, 4250.0, 101.2, "GB/s", true),
          result("odd \"name\"\\x", "1x1", "memory", 0, 0, 0, 0, 0, "GB/s", false),
          result("sgemm_v5", "4096x4096x4096", "sgemm", 2.9, 2.8, 47.0, 51.0, 92.2, "TFLOP/s", true)};
}

// A GEMM result against the best cuBLASLt algorithm and, beside it, cublasGemmEx.
Result gemm_sample() {
  Result r = result("gemm_sm90_bf16", "8192x8192x256", "gemm", 0.1, 0.1, 600.0, 750.0, 80.0, "TFLOP/s", true);
  r.reference = "cublasLt best";
  r.reference_choice = {3, 16, "algo 66, \"tile\" 25"};
  r.also_against = {{"cublasGemmEx", 601.0, 99.83, 0, 0}};
  r.note = "small_k: issue 33's table";
  return r;
}

RunInfo sample_info() {
  RunInfo info;
  info.device_name = "a \"quoted\" GPU";
  info.sm_count = 132;
  info.sizes = "full";
  info.options.sustained_launches = 200;
  info.environment = {{"TESSERA_A", "0"}, {"TESSERA_B", "say \"x\""}};
  return info;
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
  write_json(sample_info(), sample(), path);
  std::string j = slurp(path);
  std::remove(path.c_str());
  EXPECT_EQ(j.front(), '{');
  EXPECT_NE(j.find("\"device\": \"a \\\"quoted\\\" GPU\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"sustained_launches\": 200"), std::string::npos) << j;
  EXPECT_NE(j.find("\"environment\": {\"TESSERA_A\": \"0\", \"TESSERA_B\": \"say \\\"x\\\"\"}"), std::string::npos)
      << j;
  EXPECT_NE(j.find("\"results\": ["), std::string::npos) << j;
  EXPECT_NE(j.find("\"kernel\": \"odd \\\"name\\\"\\\\x\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"verified\": false"), std::string::npos);
  EXPECT_NE(j.find("\"percent_of_ref\": 101.20"), std::string::npos);
  EXPECT_NE(j.find("\"unit\": \"TFLOP/s\""), std::string::npos);
}

TEST(BenchHarness, TableShowsEveryReferencesPercentAndNamesThem) {
  std::vector<Result> rs = sample();
  rs.push_back(gemm_sample());
  std::ostringstream os;
  print_table(rs, os);
  std::string const t = os.str();
  EXPECT_NE(t.find("% cublasGemmEx"), std::string::npos) << t;
  EXPECT_NE(t.find("99.8"), std::string::npos) << t;
  EXPECT_NE(t.find("80.0"), std::string::npos) << t;
  EXPECT_NE(t.find("(reference: cublasLt best; the others' by their group)"), std::string::npos) << t;
  // the cases without a further reference show none
  std::istringstream lines(t);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("add_tv_fp16", 0) == 0) EXPECT_NE(line.find(" -"), std::string::npos) << line;
}

TEST(BenchHarness, JsonRecordsEveryReferenceAndTheChoice) {
  std::string path = ::testing::TempDir() + "bench_harness_refs.json";
  std::vector<Result> rs = sample();
  rs.push_back(gemm_sample());
  write_json(sample_info(), rs, path);
  std::string j = slurp(path);
  std::remove(path.c_str());
  EXPECT_NE(j.find("\"reference\": \"cublasLt best\", \"reference_choice\": {\"index\": 3, \"candidates\": 16, "
                   "\"detail\": \"algo 66, \\\"tile\\\" 25\"}"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"also_against\": [{\"reference\": \"cublasGemmEx\", \"ref_value\": 601.000, \"percent_of_ref\": "
                   "99.83, \"sustained_ref_value\": 0.000, \"sustained_percent_of_ref\": 0.00}]"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"note\": \"small_k: issue 33's table\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"reference_choice\": {\"index\": -1, \"candidates\": 0, \"detail\": \"\"}, \"also_against\": []"),
            std::string::npos)
      << j;  // a fixed reference
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

TEST(BenchHarness, GemmShapesAreParsedOrRefusedWithTheReason) {
  auto const shapes = tessera::bench::parse_gemm_shapes("5120x5120x5120,128x8192x1");
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].m, 5120);
  EXPECT_EQ(shapes[0].n, 5120);
  EXPECT_EQ(shapes[0].k, 5120);
  EXPECT_EQ(shapes[1].m, 128);
  EXPECT_EQ(shapes[1].n, 8192);
  EXPECT_EQ(shapes[1].k, 1);
  EXPECT_EQ(tessera::bench::parse_gemm_shapes("2147483647x1x1")[0].m, 2147483647);
  auto refused = [](char const* text, char const* why) {
    try {
      tessera::bench::parse_gemm_shapes(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (std::invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
    }
  };
  refused("", "not a decimal number");
  refused("64x64", "three sizes");
  refused("64x64x64,", "not a decimal number");
  refused("64x0x64", "a size is 0");
  refused("64x-1x64", "not a decimal number");
  refused("64x64x64x64", "trailing characters");
  refused("64 x64x64", "three sizes");
  refused("2147483648x1x1", "2^31 or more");
  refused("64x64x64;", "trailing characters");
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
  bool verified_first = false, chosen_after_verify = false;
  cases[0].verify = [&](std::string&) { return verified_first = true; };
  cases[0].reference_name = "the copy";
  cases[0].reference_choice = [&] {
    chosen_after_verify = verified_first;
    return ReferenceChoice{1, 2, "the second copy"};
  };
  cases[0].also_against = {{"the copy again", copy}};
  cases[1] = {"wrong",
              "64MiB",
              "memory",
              2.0 * bytes,
              0,
              [&](cudaStream_t) { ++timed_wrong; },
              copy,
              [](std::string& m) {
                m = "deliberately wrong";
                return false;
              }};
  Options o;
  o.warmup = 1;
  o.repeats = 5;
  o.iters = 4;
  o.sustained_launches = 40;
  auto rs = run_cases(cases, o);
  cudaFree(a);
  cudaFree(b);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_TRUE(rs[0].verified);
  EXPECT_GT(rs[0].value, 0);
  EXPECT_EQ(rs[0].unit, "GB/s");
  EXPECT_NEAR(rs[0].percent_of_ref, 100.0, 15.0);
  EXPECT_LE(rs[0].best_ms, rs[0].median_ms);
  EXPECT_EQ(rs[0].sustained_launches, 40);
  EXPECT_NEAR(rs[0].sustained_percent_of_ref, 100.0, 15.0);
  EXPECT_EQ(rs[0].reference, "the copy");
  EXPECT_TRUE(chosen_after_verify);
  EXPECT_EQ(rs[0].reference_choice.index, 1);
  EXPECT_EQ(rs[0].reference_choice.detail, "the second copy");
  ASSERT_EQ(rs[0].also_against.size(), 1u);
  EXPECT_EQ(rs[0].also_against[0].name, "the copy again");
  EXPECT_NEAR(rs[0].also_against[0].percent_of_ref, 100.0, 15.0);
  EXPECT_NEAR(rs[0].also_against[0].sustained_percent_of_ref, 100.0, 15.0);
  if (read_gpu_state(0).available) {
    EXPECT_GT(rs[0].before.sm_clock_mhz, 0u);
    EXPECT_GT(rs[0].before.power_limit_w, 0.0);
  }
  EXPECT_FALSE(rs[1].verified);
  EXPECT_EQ(rs[1].message, "deliberately wrong");
  EXPECT_EQ(timed_wrong, 0) << "a case that failed verification was launched for timing";
}

// NVML either answers with plausible values or says it is unavailable; never garbage.
TEST(BenchGpuState, ReadingIsPlausibleOrUnavailable) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  GpuState const s = read_gpu_state(0);
  if (!s.available) {
    EXPECT_EQ(describe(s), "GPU state: NVML not available");
    return;
  }
  EXPECT_GT(s.sm_clock_max_mhz, 0u);
  EXPECT_LE(s.sm_clock_mhz, s.sm_clock_max_mhz + 100);
  EXPECT_GT(s.power_limit_w, 0.0);
  GpuSampler sampler(0, 5);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  GpuSample const sample = sampler.stop();
  EXPECT_GE(sample.readings, 2);
  EXPECT_GT(sample.sm_clock_mean_mhz, 0.0);
}

}  // namespace
