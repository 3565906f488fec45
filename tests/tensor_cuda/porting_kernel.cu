// Device test: what a CuTe user ports (docs/from-cute.md) inside a __global__ kernel, compared with
// the host: thread0()/block0() over a 2 x 2 grid of (4,2) blocks, the queries (rank, depth, size,
// cosize, get<I> on a layout and a tensor) and TESSERA_STATIC_ASSERT_V in device code, and axpby
// with beta = 0 over a NaN-poisoned output (not read).
//
// Without a GPU every test is skipped with the reason; the file must still compile for sm_90a.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include "support/gpu_skip.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "tessera/tessera.hpp"

namespace {

using namespace tessera;

constexpr int kBlockX = 4, kBlockY = 2, kGridX = 2, kGridY = 2;
constexpr int kThreads = kBlockX * kBlockY * kGridX * kGridY;

// flags[t] = 2 * thread0() + block0() for global thread t; queries[0..5] from thread 0 of block 0.
__global__ void guards_and_queries_kernel(int* flags, long long* queries, float const* x, float* y) {
  int const block = int(blockIdx.x + gridDim.x * blockIdx.y);
  int const t = block * int(blockDim.x * blockDim.y) + int(threadIdx.x + blockDim.x * threadIdx.y);
  flags[t] = 2 * int(thread0()) + int(block0());

  auto l = make_layout(make_shape(_2{}, make_shape(3, _4{})));  // (_2,(3,_4)):(_1,(_2,6))
  auto tx = make_tensor(make_gmem_ptr(x), make_shape(_8{}));
  TESSERA_STATIC_ASSERT_V(rank(l) == _2{} && depth(l) == _2{}, "rank and depth are static");
  TESSERA_STATIC_ASSERT_V(size(tx) == _8{});
  if (thread0()) {
    queries[0] = size(l);
    queries[1] = size<1, 0>(l);
    queries[2] = cosize<1>(l);
    queries[3] = get<1>(l)(5);  // (3,_4):(_2,6) at 5 = (2,1) -> 4 + 6
    queries[4] = rank<1>(l);
    queries[5] = depth(make_tensor(make_gmem_ptr(y), l));
    auto ty = make_tensor(make_gmem_ptr(y), make_shape(_8{}));
    axpby(2.0f, tx, 0.0f, ty);  // y is NaN on entry: not read
  }
}

}  // namespace

TEST(PortingDevice, GuardsQueriesAndAxpby) {
  if (auto why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  int* d_flags = nullptr;
  long long* d_queries = nullptr;
  float *d_x = nullptr, *d_y = nullptr;
  ASSERT_EQ(cudaMalloc(&d_flags, kThreads * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_queries, 6 * sizeof(long long)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_x, 8 * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_y, 8 * sizeof(float)), cudaSuccess);
  std::vector<float> x(8), y(8, std::numeric_limits<float>::quiet_NaN());
  for (int i = 0; i < 8; ++i) x[std::size_t(i)] = float(i);
  ASSERT_EQ(cudaMemcpy(d_x, x.data(), 8 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_y, y.data(), 8 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  guards_and_queries_kernel<<<dim3(kGridX, kGridY), dim3(kBlockX, kBlockY)>>>(d_flags, d_queries, d_x, d_y);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<int> flags(kThreads);
  std::vector<long long> q(6);
  ASSERT_EQ(cudaMemcpy(flags.data(), d_flags, kThreads * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(q.data(), d_queries, 6 * sizeof(long long), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(y.data(), d_y, 8 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  int const per_block = kBlockX * kBlockY;
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(flags[std::size_t(t)], (t == 0 ? 2 : 0) + (t < per_block ? 1 : 0)) << t;
  EXPECT_EQ(q, (std::vector<long long>{24, 3, 23, 10, 2, 2}));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[std::size_t(i)], 2.0f * float(i));
  cudaFree(d_flags);
  cudaFree(d_queries);
  cudaFree(d_x);
  cudaFree(d_y);
}
