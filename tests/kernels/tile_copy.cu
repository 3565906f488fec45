// Device tests of include/tessera/kernels/tile_copy.cuh: dst = src through shared memory with
// 128-bit cp.async, for several (tile_m, num_threads, tile_n) configurations and element types,
// over sizes with 1, primes and non-multiples of every tile (N a multiple of the 16-byte vector,
// which the copy requires), row- and column-major; dst is poisoned and guarded. Invalid
// configurations must throw an error naming the violated constraint. Skipped without a GPU.
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

#include "tessera/kernels/tile_copy.cuh"

namespace {

using tessera::Major;
using tessera::kernels::TileCopyConfig;

using tessera::test::no_device_reason;

template <class T>
void check_copy(int M, int N, Major major, TileCopyConfig cfg) {
  SCOPED_TRACE("M=" + std::to_string(M) + " N=" + std::to_string(N) + (major == Major::row ? " row" : " col") +
               " tile_m=" + std::to_string(cfg.tile_m) + " threads=" + std::to_string(cfg.num_threads) +
               " tile_n=" + std::to_string(cfg.tile_n) + " bytes/elem=" + std::to_string(sizeof(T)));
  std::size_t n = std::size_t(M) * N;
  constexpr std::size_t guard = 64;
  std::mt19937 g(unsigned(M * 131 + N));
  std::vector<std::uint8_t> src(n * sizeof(T));
  for (auto& x : src) x = std::uint8_t(g() % 255);  // never 0xff: poison stays distinguishable per byte
  T *dS, *dD;
  ASSERT_EQ(cudaMalloc(&dS, n * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dD, (n + guard) * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dS, src.data(), src.size(), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(dD, 0xff, (n + guard) * sizeof(T)), cudaSuccess);
  ASSERT_EQ(tessera::kernels::tile_copy(dS, dD, M, N, major, cfg), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint8_t> got((n + guard) * sizeof(T));
  ASSERT_EQ(cudaMemcpy(got.data(), dD, got.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dS);
  cudaFree(dD);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < src.size(); ++i)
    if (got[i] != src[i] && bad++ < 5) ADD_FAILURE() << "byte " << i << " differs";
  EXPECT_EQ(bad, 0u);
  for (std::size_t i = src.size(); i < got.size(); ++i) EXPECT_EQ(got[i], 0xff) << "wrote past dst at byte " << i;
}

template <class T>
void sweep(TileCopyConfig cfg) {
  constexpr int V = 16 / int(sizeof(T));
  // The contiguous extent (N row-major, M column-major) must be a multiple of V; the other one is
  // free: 1, primes, non-multiples of every tile.
  std::vector<std::pair<int, int>> const sizes = {{1, V},       {7, V},       {1, 13 * V}, {31, 7 * V},
                                                  {33, 17 * V}, {97, 41 * V}, {64, 128},   {130, 264}};
  for (auto [a, b] : sizes) {
    check_copy<T>(a, b, Major::row, cfg);
    check_copy<T>(b, a, Major::col, cfg);
  }
}

TEST(TileCopy, SeedConfigFp16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__half>({32, 512, 0});
}
TEST(TileCopy, WideTileFp16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<__half>({64, 256, 256});
}
TEST(TileCopy, Fp32AndBf16) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  sweep<float>({16, 128, 0});
  sweep<__nv_bfloat16>({8, 64, 64});
  sweep<float>({64, 256, 256});  // 64 KB of shared memory: the opt-in (> 48 KB) path
}

// A small case for compute-sanitizer (memcheck / racecheck).
TEST(TileCopy, Small) {
  if (auto why = no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  check_copy<__half>(37, 136, Major::row, {32, 512, 0});
  check_copy<float>(9, 20, Major::row, {16, 64, 0});
}

// Invalid configurations: the message names the constraint. These need no GPU (host checks).
std::string error_of(TileCopyConfig cfg, int M = 64, int N = 64, int max_smem = 48 * 1024, std::uintptr_t addr = 256) {
  auto* p = reinterpret_cast<__half*>(addr);
  try {
    tessera::kernels::tile_copy_check(p, p, M, N, Major::row, cfg, max_smem);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(TileCopy, InvalidConfigurationsNameTheConstraint) {
  EXPECT_NE(error_of({24, 512, 0}).find("num_threads must be divisible by tile_m"), std::string::npos);
  EXPECT_NE(error_of({32, 500, 0}).find("num_threads must be a multiple of 32"), std::string::npos);
  EXPECT_NE(error_of({32, 2048, 0}).find("num_threads must be a multiple of 32 in [32, 1024]"), std::string::npos);
  EXPECT_NE(error_of({32, 256, 12}).find("tile_n must be a positive multiple of 8"), std::string::npos);
  EXPECT_NE(error_of({1, 256, 64}).find("must be a multiple of num_threads"), std::string::npos);
  EXPECT_NE(error_of({256, 256, 1024}).find("bytes of shared memory"), std::string::npos);
  EXPECT_NE(error_of({32, 512, 0}, 64, 100).find("16-byte boundaries"), std::string::npos);
  EXPECT_NE(error_of({32, 512, 0}, 64, 64, 48 * 1024, 258).find("16-byte aligned"), std::string::npos);
  EXPECT_NE(error_of({32, 512, 0}, 0, 64).find("M and N must be >= 1"), std::string::npos);
  EXPECT_EQ(error_of({32, 512, 0}), "");
}

}  // namespace
