// Device tests of include/tessera/kernels/elementwise_add.cuh: C = A + B for every version
// (naive, vectorized, TV), element type (__half, __nv_bfloat16, float) and major order, over a
// size sweep with 1, primes and non-multiples of every tile (the vector of 8/4 elements, the TV
// tile 16 x 256). Inputs are random values whose float sum is exact (k/1024 for fp16, k/64 for
// bf16, k/2^18 for fp32), so the host's float sum rounded once to T is exactly the device's add:
// the comparison is bitwise for all three types. C is poisoned (all bits set) before the launch
// and followed by guard elements that must stay untouched. Without a GPU every test is skipped.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include "support/gpu_skip.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tessera/kernels/elementwise_add.cuh"

namespace {

using tessera::Major;

using tessera::test::no_device_reason;

template <class T>
T from_float(float v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(v);
  else return v;
}
template <class T>
float to_float(T v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else return float(v);
}
template <class T>
float random_exact(std::mt19937& g) {
  if constexpr (std::is_same_v<T, __half>) return float(int(g() % 4097u) - 2048) / 1024.0f;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return float(int(g() % 257u) - 128) / 64.0f;
  else return float(int(g() % (1u << 20)) - (1 << 19)) / float(1 << 18);
}
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

enum class Version { naive, vectorized, vectorized_x4, tv };
char const* name(Version v) {
  switch (v) {
    case Version::naive: return "naive";
    case Version::vectorized: return "vectorized";
    case Version::vectorized_x4: return "vectorized_x4";
    default: return "tv";
  }
}

template <class T>
cudaError_t launch(Version v, T const* A, T const* B, T* C, int M, int N, Major major) {
  switch (v) {
    case Version::naive: return tessera::kernels::add_naive(A, B, C, M, N, major);
    case Version::vectorized: return tessera::kernels::add_vectorized(A, B, C, M, N, major);
    case Version::vectorized_x4: return tessera::kernels::add_vectorized<T, 4>(A, B, C, M, N, major);
    default: return tessera::kernels::add_tv(A, B, C, M, N, major);
  }
}

// Runs one case; `offset` elements shift every pointer (0: 16-byte aligned; 1: misaligned, the
// element-wise path).
template <class T>
void check_add(Version v, int M, int N, Major major, int offset = 0) {
  SCOPED_TRACE(std::string(name(v)) + " M=" + std::to_string(M) + " N=" + std::to_string(N) +
               (major == Major::row ? " row-major" : " col-major") + " offset=" + std::to_string(offset));
  std::size_t n = std::size_t(M) * N;
  constexpr std::size_t guard = 64;
  std::mt19937 g(unsigned(M * 7919 + N * 31 + int(v)));
  std::vector<T> a(n), b(n), want(n);
  for (std::size_t i = 0; i < n; ++i) {
    float x = random_exact<T>(g), y = random_exact<T>(g);
    a[i] = from_float<T>(x);
    b[i] = from_float<T>(y);
    want[i] = from_float<T>(x + y);  // exact float sum, rounded once: the device's add
  }
  T *dA, *dB, *dC;
  std::size_t bytes = (n + guard + offset) * sizeof(T);
  ASSERT_EQ(cudaMalloc(&dA, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dB, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dC, bytes), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dA + offset, a.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dB + offset, b.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(dC, 0xff, bytes), cudaSuccess);
  ASSERT_EQ(launch<T>(v, dA + offset, dB + offset, dC + offset, M, N, major), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<T> got(n + guard + offset);
  ASSERT_EQ(cudaMemcpy(got.data(), dC, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  T poison;
  std::memset(&poison, 0xff, sizeof poison);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!same_bits(got[offset + i], want[i])) {
      if (bad++ < 5)
        ADD_FAILURE() << "element " << i << ": got " << to_float(got[offset + i]) << ", want " << to_float(want[i]);
    }
  }
  EXPECT_EQ(bad, 0u) << "mismatching elements";
  for (std::size_t i = 0; i < std::size_t(offset); ++i) EXPECT_TRUE(same_bits(got[i], poison)) << "wrote before C";
  for (std::size_t i = offset + n; i < got.size(); ++i)
    EXPECT_TRUE(same_bits(got[i], poison)) << "wrote past C at " << i;
}

// 1, primes, non-multiples of 4/8 (vector) and of 16 x 256 (TV tile), exact multiples, and a
// matrix of several full TV tiles with a partial edge.
std::vector<std::pair<int, int>> const sizes = {{1, 1},     {1, 7},      {7, 1},     {13, 17},  {31, 257},
                                                {17, 256},  {16, 256},   {16, 264},  {64, 512}, {97, 61},
                                                {33, 1031}, {256, 1000}, {127, 2053}};

template <class T>
void sweep(Version v) {
  for (auto [M, N] : sizes) {
    check_add<T>(v, M, N, Major::row);
    check_add<T>(v, M, N, Major::col);
  }
  check_add<T>(v, 37, 520, Major::row, 1);  // misaligned pointers: element-wise path
  check_add<T>(v, 45, 256, Major::col, 1);
}

TEST(ElementwiseAdd, NaiveFp16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__half>(Version::naive);
}
TEST(ElementwiseAdd, NaiveBf16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__nv_bfloat16>(Version::naive);
}
TEST(ElementwiseAdd, NaiveFp32) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<float>(Version::naive);
}
TEST(ElementwiseAdd, VectorizedFp16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__half>(Version::vectorized);
}
TEST(ElementwiseAdd, VectorizedBf16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__nv_bfloat16>(Version::vectorized);
}
TEST(ElementwiseAdd, VectorizedFp32) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<float>(Version::vectorized);
}
TEST(ElementwiseAdd, VectorizedX4AllTypes) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__half>(Version::vectorized_x4);
  sweep<__nv_bfloat16>(Version::vectorized_x4);
  sweep<float>(Version::vectorized_x4);
}
TEST(ElementwiseAdd, TvFp16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__half>(Version::tv);
}
TEST(ElementwiseAdd, TvBf16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__nv_bfloat16>(Version::tv);
}
TEST(ElementwiseAdd, TvFp32) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<float>(Version::tv);
}

// A small case for compute-sanitizer (memcheck / racecheck): --gtest_filter=ElementwiseAdd.Small*
TEST(ElementwiseAdd, SmallAllVersions) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  for (Version v : {Version::naive, Version::vectorized, Version::vectorized_x4, Version::tv}) {
    check_add<__half>(v, 19, 263, Major::row);
    check_add<float>(v, 17, 33, Major::col);
    check_add<__nv_bfloat16>(v, 5, 11, Major::row, 1);
  }
}

TEST(ElementwiseAdd, RejectsEmpty) {
  EXPECT_THROW((void)tessera::kernels::add_tv<float>(nullptr, nullptr, nullptr, 0, 5, Major::row),
               std::invalid_argument);
}

}  // namespace
