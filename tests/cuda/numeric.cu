// Device tests of include/tessera/core/numeric.hpp: at run time on the device the conversions are
// the cvt instructions, on the host (and in constant evaluation) bit arithmetic. Both must give the
// same value for every input (a NaN may differ only in its payload):
//   - every one of the 65536 binary16 and bfloat16 bit patterns converted to float;
//   - float -> half_t and bfloat16_t for a sweep of float bit patterns: every exponent with a
//     spread of mantissas, and for every finite half and bfloat16 value its neighbours' midpoints
//     (the ties) and the floats one ulp either side of them;
//   - a kernel's constant-evaluated conversion agrees with the same conversion at run time.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "support/gpu_skip.hpp"
#include "tessera/core/numeric.hpp"

namespace {

using namespace tessera;
using tessera::test::no_device_reason;

__global__ void to_float_kernel(std::uint16_t const* bits, int n, float* half_out, float* bf16_out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    half_out[i] = float(half_t::bitcast(bits[i]));
    bf16_out[i] = float(bfloat16_t::bitcast(bits[i]));
  }
}

__global__ void from_float_kernel(float const* in, int n, std::uint16_t* half_out, std::uint16_t* bf16_out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    half_out[i] = half_t(in[i]).raw();
    bf16_out[i] = bfloat16_t(in[i]).raw();
  }
}

// The same conversions folded by the compiler and performed at run time.
__global__ void constant_kernel(float x, std::uint16_t* out) {
  constexpr half_t folded_half(0.1f);
  constexpr bfloat16_t folded_bf16(3.14159f);
  out[0] = folded_half.raw();
  out[1] = half_t(x).raw();
  out[2] = folded_bf16.raw();
  out[3] = bfloat16_t(x * 31.4159f).raw();
}

void check(cudaError_t e, char const* what) { ASSERT_EQ(e, cudaSuccess) << what << ": " << cudaGetErrorString(e); }

template <class T>
struct DeviceArray {
  T* p = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(std::size_t n_) : n(n_) { check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
  ~DeviceArray() { cudaFree(p); }
  void upload(std::vector<T> const& v) {
    check(cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download() const {
    std::vector<T> v(n);
    check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return v;
  }
};

bool same_value(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
bool half_nan(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x03ffu) != 0; }
bool bf16_nan(std::uint16_t h) { return (h & 0x7f80u) == 0x7f80u && (h & 0x007fu) != 0; }

TEST(CudaNumeric, EverySixteenBitPatternToFloatMatchesHost) {
  if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  int const n = 65536;
  std::vector<std::uint16_t> bits(n);
  for (int i = 0; i < n; ++i) bits[i] = std::uint16_t(i);
  DeviceArray<std::uint16_t> dbits(n);
  DeviceArray<float> dhalf(n), dbf16(n);
  dbits.upload(bits);
  to_float_kernel<<<64, 256>>>(dbits.p, n, dhalf.p, dbf16.p);
  check(cudaGetLastError(), "launch");
  std::vector<float> const gh = dhalf.download(), gb = dbf16.download();
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float const wh = float(half_t::bitcast(bits[i])), wb = float(bfloat16_t::bitcast(bits[i]));
    if (!same_value(gh[i], wh) && bad++ < 5)
      ADD_FAILURE() << "half 0x" << std::hex << i << ": device " << gh[i] << ", host " << wh;
    if (!same_value(gb[i], wb) && bad++ < 5)
      ADD_FAILURE() << "bf16 0x" << std::hex << i << ": device " << gb[i] << ", host " << wb;
  }
  EXPECT_EQ(bad, 0);
}

TEST(CudaNumeric, FloatToHalfAndBfloat16MatchHostIncludingTies) {
  if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  std::vector<float> in;
  // Every float exponent (both signs) with a spread of mantissas, specials included.
  for (std::uint32_t e = 0; e < 256; ++e) {
    for (std::uint32_t m : {0u, 1u, 0x1000u, 0x1fffu, 0x2000u, 0x3fffu, 0x7fffu, 0x8000u, 0xffffu, 0x10000u, 0x400000u,
                            0x555555u, 0x7fe000u, 0x7fefffu, 0x7ff000u, 0x7fffffu}) {
      std::uint32_t const u = (e << 23) | m;
      in.push_back(std::bit_cast<float>(u));
      in.push_back(std::bit_cast<float>(u | 0x80000000u));
    }
  }
  // For every finite positive half and bfloat16: the midpoint to the next value up and its float
  // neighbours (both signs): ties to even and the last bit of rounding.
  auto add_midpoints = [&in](float lo, float hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return;
    float const mid = lo + (hi - lo) / 2;  // exact: both are short in float
    for (float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      in.push_back(x);
      in.push_back(-x);
    }
  };
  for (std::uint32_t h = 0; h < 0x7c00u; ++h) {
    add_midpoints(float(half_t::bitcast(std::uint16_t(h))), float(half_t::bitcast(std::uint16_t(h + 1))));
  }
  for (std::uint32_t b = 0; b < 0x7f80u; ++b) {
    add_midpoints(float(bfloat16_t::bitcast(std::uint16_t(b))), float(bfloat16_t::bitcast(std::uint16_t(b + 1))));
  }
  int const n = int(in.size());
  DeviceArray<float> din(n);
  DeviceArray<std::uint16_t> dhalf(n), dbf16(n);
  din.upload(in);
  from_float_kernel<<<256, 256>>>(din.p, n, dhalf.p, dbf16.p);
  check(cudaGetLastError(), "launch");
  std::vector<std::uint16_t> const gh = dhalf.download(), gb = dbf16.download();
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    std::uint16_t const wh = half_t(in[i]).raw(), wb = bfloat16_t(in[i]).raw();
    bool const half_ok = gh[i] == wh || (half_nan(gh[i]) && half_nan(wh));
    bool const bf16_ok = gb[i] == wb || (bf16_nan(gb[i]) && bf16_nan(wb));
    if (!half_ok && bad++ < 5) {
      ADD_FAILURE() << "half_t(" << in[i] << " = 0x" << std::hex << std::bit_cast<std::uint32_t>(in[i])
                    << "): device 0x" << gh[i] << ", host 0x" << wh;
    }
    if (!bf16_ok && bad++ < 5) {
      ADD_FAILURE() << "bfloat16_t(" << in[i] << " = 0x" << std::hex << std::bit_cast<std::uint32_t>(in[i])
                    << "): device 0x" << gb[i] << ", host 0x" << wb;
    }
  }
  EXPECT_EQ(bad, 0) << "of " << n << " inputs";
}

TEST(CudaNumeric, ConstantEvaluationAgreesWithRunTime) {
  if (std::string const reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  DeviceArray<std::uint16_t> out(4);
  constant_kernel<<<1, 1>>>(0.1f, out.p);
  check(cudaGetLastError(), "launch");
  std::vector<std::uint16_t> const got = out.download();
  EXPECT_EQ(got[0], 0x2e66u);  // half 0.1: 0.0999755859375
  EXPECT_EQ(got[1], got[0]);
  EXPECT_EQ(got[2], 0x4049u);  // bfloat16 3.140625
  EXPECT_EQ(got[3], got[2]);
}

}  // namespace
