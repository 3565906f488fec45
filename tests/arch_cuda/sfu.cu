// Device tests of include/tessera/arch/sfu.hpp: ex2_approx and rcp_approx against exact values in
// double over a sweep of arguments (every power-of-two scale the epilogue's activations reach, and
// the special values), within the bounds the header states.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tessera/arch/sfu.hpp"
#include "warp_test.hpp"

namespace {

using tessera::test::DeviceArray;

__global__ void sfu_kernel(float const* x, float* ex2, float* rcp, int n) {
  int const i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  ex2[i] = tessera::ex2_approx(x[i]);
  rcp[i] = tessera::rcp_approx(x[i]);
}

// The arguments: -126 .. 127 in steps of 1/64 (2^x from the smallest normal to near the largest
// float), 1 + k 2^-12 times every power of two from 2^-120 to 2^120 and their negatives (1/x), the
// specials.
std::vector<float> arguments() {
  std::vector<float> x;
  for (int i = -126 * 64; i <= 127 * 64; ++i) x.push_back(float(i) / 64.0f);
  for (int e = -120; e <= 120; e += 3) {
    for (int k = 0; k < 4096; k += 97) {
      float const v = std::ldexp(1.0f + float(k) / 4096.0f, e);
      x.push_back(v);
      x.push_back(-v);
    }
  }
  x.push_back(std::numeric_limits<float>::infinity());
  x.push_back(-std::numeric_limits<float>::infinity());
  x.push_back(3.0f);  // the header's examples, last: exact
  x.push_back(4.0f);
  return x;
}

void run(std::vector<float> const& x, std::vector<float>& ex2, std::vector<float>& rcp) {
  int const n = int(x.size());
  DeviceArray<float> dx(x), de(x.size()), dr(x.size());
  sfu_kernel<<<(n + 255) / 256, 256>>>(dx.get(), de.get(), dr.get(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ex2 = de.to_host();
  rcp = dr.to_host();
}

TEST(ArchSfuDevice, Ex2AndRcpWithinTheirBounds) {
  if (std::string const why = tessera::test::no_sm90_reason(); !why.empty()) GTEST_SKIP() << why;
  std::vector<float> const x = arguments();
  std::vector<float> ex2, rcp;
  run(x, ex2, rcp);
  int bad_ex2 = 0, bad_rcp = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    double const xi = x[i];
    if (std::isinf(xi)) {
      bad_ex2 += ex2[i] != (xi > 0 ? std::numeric_limits<float>::infinity() : 0.0f);
      bad_rcp += rcp[i] != 0.0f;
      continue;
    }
    if (xi >= -126.0 && xi <= 127.0) {  // 2^x within 2^-22 relative (plus rounding to float)
      double const want = std::exp2(xi);
      if (!(std::fabs(double(ex2[i]) - want) <= (std::ldexp(1.0, -22) + std::ldexp(1.0, -24)) * want)) {
        ++bad_ex2;
        ADD_FAILURE() << "ex2_approx(" << xi << ") = " << ex2[i];
      }
    }
    if (xi == 0.0) {  // 1/0 = inf
      if (rcp[i] != std::numeric_limits<float>::infinity()) {
        ++bad_rcp;
        ADD_FAILURE() << "rcp_approx(0) = " << rcp[i];
      }
      continue;
    }
    double const want = 1.0 / xi;  // 1/x within 1 ulp of float
    double const ulp = std::ldexp(1.0, std::ilogb(want) - 23);
    if (!(std::fabs(double(rcp[i]) - want) <= ulp)) {
      ++bad_rcp;
      ADD_FAILURE() << "rcp_approx(" << xi << ") = " << rcp[i];
    }
  }
  EXPECT_EQ(bad_ex2, 0) << "ex2_approx outside 2^-22 relative on " << bad_ex2 << " of " << x.size() << " arguments";
  EXPECT_EQ(bad_rcp, 0) << "rcp_approx more than 1 ulp off on " << bad_rcp << " of " << x.size() << " arguments";
  std::size_t const last = x.size() - 1;
  EXPECT_EQ(ex2[last - 1], 8.0f);
  EXPECT_EQ(rcp[last], 0.25f);
}

}  // namespace
