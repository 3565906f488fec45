// Device tests of include/tessera/arch/util.hpp: schedule_here keeps every value it is given (an
// operand constraint that wrote without reading would leave garbage), in an unrolled loop of the
// kind it is made for. (The ping-pong GEMM kernel, which relies on it to build without spills, is
// checked by the build: bench/CMakeLists.txt compiles it with ptxas's spill check as an error.)
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/arch/util.hpp"
#include "warp_test.hpp"

namespace {

using tessera::test::DeviceArray;

__global__ void schedule_here_kernel(int const* in, int* out) {
  int const t = int(threadIdx.x);
#pragma unroll
  for (int g = 0; g < 4; ++g) {
    int m = in[t] + 16 * g, n = -in[t] * g;
    unsigned u = unsigned(in[t]) * 3u + unsigned(g);
    tessera::schedule_here(m, n, u);
    out[4 * t + g] = m + 7 * n + int(u);
  }
}

TEST(ArchUtilDevice, ScheduleHereKeepsValues) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  std::vector<int> in(128);
  for (int i = 0; i < 128; ++i) in[i] = i * 1000 - 64000;
  DeviceArray<int> din(in), dout(4 * in.size());
  schedule_here_kernel<<<1, 128>>>(din.get(), dout.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<int> const out = dout.to_host();
  for (int t = 0; t < 128; ++t)
    for (int g = 0; g < 4; ++g) {
      int const expect = (in[t] + 16 * g) + 7 * (-in[t] * g) + int(unsigned(in[t]) * 3u + unsigned(g));
      EXPECT_EQ(out[4 * t + g], expect) << "thread " << t << " group " << g;
    }
}

}  // namespace
