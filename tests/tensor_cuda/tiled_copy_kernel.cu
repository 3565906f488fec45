// Device test: the tensor layer in __global__ kernels, compared with the host.
//
// 1. A predicated tiled copy of a 100 x 37 row-major float matrix (M, N not multiples of the
//    32 x 16 tile): gmem -> smem -> gmem with local_tile, local_partition and copy_if, the
//    predicates from an identity tensor partitioned like the data.
// 2. Register work on an aligned 64 x 64 matrix: each thread copies a (1,4) row piece from smem to
//    registers (a 128-bit access, reported by copy_vector_bits), applies axpby, a per-thread
//    gemm outer product and reduce, and writes back.
//
// Without a GPU every test is skipped with the reason; the file must still compile for sm_90a.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include "support/gpu_skip.hpp"

#include <string>
#include <vector>

#include "tessera/algorithm/copy.hpp"
#include "tessera/algorithm/functional.hpp"
#include "tessera/algorithm/gemm.hpp"
#include "tessera/tensor/print.hpp"
#include "tessera/tensor/tiling.hpp"

namespace {

using namespace tessera;

using TileShape = decltype(make_shape(_32{}, _16{}));                            // (BM,BN)
using SmemLayout = decltype(make_layout(TileShape{}, LayoutRight{}));            // (BM,BN) -> smem offset
using ThrLayout = decltype(make_layout(make_shape(_8{}, _4{}), LayoutRight{}));  // (TM,TN) -> thr
constexpr int kThreads = 32;

__global__ void tiled_copy_kernel(float const* src, float* dst, int M, int N) {
  __shared__ alignas(16) float smem[decltype(cosize(SmemLayout{}))::value];
  auto shape_mn = make_shape(M, N);
  auto mS = make_tensor(make_gmem_ptr(src), make_layout(shape_mn, LayoutRight{}));  // (M,N)
  auto mD = make_tensor(make_gmem_ptr(dst), make_layout(shape_mn, LayoutRight{}));  // (M,N)
  auto cMN = make_identity_tensor(shape_mn);                                        // (M,N) -> (m,n)
  auto blk = make_coord(int(blockIdx.y), int(blockIdx.x));
  auto gS = local_tile(mS, TileShape{}, blk);                // (BM,BN)
  auto gD = local_tile(mD, TileShape{}, blk);                // (BM,BN)
  auto cT = local_tile(cMN, TileShape{}, blk);               // (BM,BN) -> (m,n)
  auto sT = make_tensor(make_smem_ptr(smem), SmemLayout{});  // (BM,BN)

  int tid = int(threadIdx.x);
  auto tSgS = local_partition(gS, ThrLayout{}, tid);        // (BM/TM,BN/TN)
  auto tSsT = local_partition(sT, ThrLayout{}, tid);        // (BM/TM,BN/TN)
  auto tDgD = local_partition(gD, ThrLayout{}, tid);        // (BM/TM,BN/TN)
  auto tCcT = local_partition(cT, ThrLayout{}, tid);        // (BM/TM,BN/TN) -> (m,n)
  auto pred = make_tensor<bool>(make_layout(shape(tCcT)));  // (BM/TM,BN/TN)
  TESSERA_UNROLL
  for (int i = 0; i < decltype(size(pred))::value; ++i) pred(i) = elem_less(tCcT(i), shape_mn);

  copy_if(pred, tSgS, tSsT);
  __syncthreads();
  copy_if(pred, tSsT, tDgD);
}

// Addition as a host/device function object (a lambda in a kernel is device-only).
struct Plus {
  TESSERA_HOST_DEVICE float operator()(float a, float b) const { return a + b; }
};

using RegShape = decltype(make_shape(_1{}, _4{}));  // (1,4) per thread
__global__ void register_kernel(float const* src, float* dst, float* sums, int* bits) {
  __shared__ alignas(16) float smem[64 * 64];
  auto L = make_layout(make_shape(_64{}, _64{}), LayoutRight{});    // (64,64) -> offset
  auto mS = make_tensor(make_gmem_ptr(src), L);                     // (64,64)
  auto mD = make_tensor(make_gmem_ptr(dst), L);                     // (64,64)
  auto sA = make_tensor(make_smem_ptr(smem), L);                    // (64,64)
  int tid = int(threadIdx.x);                                       // 1024 threads: (64,16)
  auto thr = make_layout(make_shape(_64{}, _16{}), LayoutRight{});  // (64,16) -> thr
  auto tg = local_partition(mS, thr, tid);                          // (1,4)
  auto ts = local_partition(sA, thr, tid);                          // (1,4)
  copy(tg, ts);
  __syncthreads();
  auto c = thread_coord(thr, tid);
  auto sPiece = local_tile(sA, RegShape{}, make_coord(get<0>(c), get<1>(c)));  // (1,4) contiguous
  auto gPiece = local_tile(mD, RegShape{}, make_coord(get<0>(c), get<1>(c)));  // (1,4)
  auto r = make_fragment_like(sPiece);                                         // (1,4) registers
  copy(sPiece, r);
  if (tid == 0) bits[0] = copy_vector_bits(sPiece, r);
  auto ones = make_tensor<float>(make_layout(make_shape(_1{}, _4{})));
  fill(ones, 1.0f);
  axpby(2.0f, r, 1.0f, ones);  // ones = 2r + 1
  auto outer = make_tensor<float>(make_layout(make_shape(_4{}, _4{})));
  clear(outer);
  gemm(ones(0, Underscore{}), ones(0, Underscore{}), outer);  // (4)x(4) => (4,4); `_` is host-only
  sums[tid] = reduce(outer, 0.0f, Plus{});
  copy(ones, gPiece);
}

using tessera::test::no_device_reason;

#define CUDA_OK(expr) ASSERT_EQ((expr), cudaSuccess) << #expr << ": " << cudaGetErrorString(cudaGetLastError())

}  // namespace

TEST(TensorCuda, PredicatedTiledCopyThroughSmem) {
  if (auto reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  for (auto [M, N] : {std::pair{100, 37}, std::pair{1, 1}, std::pair{64, 32}, std::pair{97, 61}}) {
    std::vector<float> h_src(std::size_t(M) * N), h_dst(std::size_t(M) * N, -1.0f);
    for (std::size_t i = 0; i < h_src.size(); ++i) h_src[i] = float(i) * 0.5f;
    float *d_src = nullptr, *d_dst = nullptr;
    CUDA_OK(cudaMalloc(&d_src, h_src.size() * sizeof(float)));
    CUDA_OK(cudaMalloc(&d_dst, h_dst.size() * sizeof(float)));
    CUDA_OK(cudaMemcpy(d_src, h_src.data(), h_src.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_dst, h_dst.data(), h_dst.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(unsigned(ceil_div(N, 16)), unsigned(ceil_div(M, 32)));
    tiled_copy_kernel<<<grid, kThreads>>>(d_src, d_dst, M, N);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h_dst.data(), d_dst, h_dst.size() * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT_EQ(h_src, h_dst) << M << " x " << N;
    cudaFree(d_src);
    cudaFree(d_dst);
  }
}

TEST(TensorCuda, VectorizedRegisterCopyAxpbyGemmReduce) {
  if (auto reason = no_device_reason(); !reason.empty()) GTEST_SKIP() << reason;
  std::vector<float> h_src(64 * 64), h_dst(64 * 64, 0.0f), h_sums(1024, 0.0f);
  for (std::size_t i = 0; i < h_src.size(); ++i) h_src[i] = float(i % 97) * 0.25f;
  float *d_src = nullptr, *d_dst = nullptr, *d_sums = nullptr;
  int* d_bits = nullptr;
  CUDA_OK(cudaMalloc(&d_src, h_src.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_dst, h_dst.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_sums, h_sums.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_bits, sizeof(int)));
  CUDA_OK(cudaMemcpy(d_src, h_src.data(), h_src.size() * sizeof(float), cudaMemcpyHostToDevice));
  register_kernel<<<1, 1024>>>(d_src, d_dst, d_sums, d_bits);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  int bits = 0;
  CUDA_OK(cudaMemcpy(h_dst.data(), d_dst, h_dst.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(h_sums.data(), d_sums, h_sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&bits, d_bits, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(bits, 128);
  for (std::size_t i = 0; i < h_src.size(); ++i) ASSERT_EQ(h_dst[i], 2.0f * h_src[i] + 1.0f) << i;
  for (int t = 0; t < 1024; ++t) {
    float s = 0.0f;
    for (int i = 0; i < 4; ++i) s += h_dst[std::size_t(t) * 4 + std::size_t(i)];
    EXPECT_FLOAT_EQ(h_sums[std::size_t(t)], s * s) << t;
  }
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_sums);
  cudaFree(d_bits);
}
