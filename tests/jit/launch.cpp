// tests/jit/launch.cpp -- jit/kernel.hpp on a GPU: kernels compiled by the JIT from Tessera's
// headers, specialized on spelled layouts, launched and checked; dynamic shared memory above
// 48 KiB, clusters and programmatic dependent launch; arguments that do not fit the compiled
// parameters refused before the launch. Skipped, saying why, without a GPU or NVRTC.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/spell.hpp"
#include "tessera/runtime/eval.hpp"

// The launches name only the LaunchConfig fields they set; the others keep their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera::jit {
namespace {

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(std::size_t n) { EXPECT_EQ(cudaMalloc(&p, n * sizeof(T)), cudaSuccess); }
  ~DeviceBuffer() { cudaFree(p); }
};

constexpr char const* kSource = R"(
#include "tessera/tessera.hpp"
// out(m, n) = a * in(m, n) over a 2-D layout given as a type.
template <class Layout>
__global__ void scale2d(float const* in, float* out, float a) {
  auto tin = tessera::make_tensor(tessera::make_gmem_ptr(in), Layout{});
  auto tout = tessera::make_tensor(tessera::make_gmem_ptr(out), Layout{});
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tessera::size(tin)) tout(i) = a * tin(i);
}
// Copies through dynamic shared memory of `bytes` bytes, one float per thread.
__global__ void through_smem(float const* in, float* out, int bytes) {
  extern __shared__ float smem[];
  int const n = bytes / 4;
  for (int i = threadIdx.x; i < n; i += blockDim.x) smem[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = smem[n - 1 - i];
}
// Writes each block's rank in its cluster.
__global__ void cluster_rank(int* out) {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  if (threadIdx.x == 0) out[blockIdx.x] = int(r);
}
)";

TEST(JitLaunch, SpecializedOnASpelledLayout) {
  TESSERA_REQUIRE_GPU();
  // [snippet:jit_compile]
  // A layout known at run time, every integer made static, spelled as a C++ type.
  rt::Layout const l = make_static(rt::evaluate("(64,32):(32,1)").as<rt::Layout>());
  std::string const name = "scale2d<" + spell_type(l) + ">";
  // Compiled for this GPU (a cubin), cached in memory and on disk.
  Program p = compile(kSource, {name});
  Kernel const& k = p.kernel(name);
  // [end-snippet]
  int const n = 64 * 32;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 97);
  DeviceBuffer<float> din(n), dout(n);
  ASSERT_EQ(cudaMemcpy(din.p, in.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  // [snippet:jit_launch]
  k.launch({.grid = {n / 128}, .block = {128}}, static_cast<float const*>(din.p), dout.p, 3.0f);
  // [end-snippet]
  ASSERT_EQ(cudaMemcpy(out.data(), dout.p, n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  // The layout (64,32):(32,1) maps index i = m + 64 n to offset 32 m + n.
  for (int i = 0; i < n; ++i) {
    int const off = (i % 64) * 32 + i / 64;
    ASSERT_EQ(out[off], 3.0f * in[off]) << "index " << i;
  }
  KernelInfo const info = k.info();
  EXPECT_GT(info.registers, 0);
  EXPECT_EQ(info.local_bytes, 0) << "no spills";
}

TEST(JitLaunch, ArgumentsThatDoNotFitAreRefused) {
  TESSERA_REQUIRE_GPU();
  rt::Layout const l = make_static(rt::evaluate("(8,4):(4,1)").as<rt::Layout>());
  std::string const name = "scale2d<" + spell_type(l) + ">";
  Program p = compile(kSource, {name});
  DeviceBuffer<float> d(32);
  try {
    p.kernel(0).launch({.grid = {1}, .block = {32}}, static_cast<float const*>(d.p), d.p, 2.0);  // a double
    FAIL() << "a double for a float parameter was launched";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find("given 3 arguments of sizes (8, 8, 8)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(p.kernel(0).launch({.grid = {1}, .block = {32}}, d.p, d.p), jit_error);
}

TEST(JitLaunch, DynamicSharedMemoryAbove48KiB) {
  TESSERA_REQUIRE_GPU();
  Program p = compile(kSource, {"through_smem"});
  int const bytes = 160 * 1024;
  int const n = bytes / 4;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = float(i);
  DeviceBuffer<float> din(n), dout(n);
  ASSERT_EQ(cudaMemcpy(din.p, in.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  p.kernel(0).launch({.grid = {1}, .block = {256}, .shared_bytes = unsigned(bytes)}, static_cast<float const*>(din.p),
                     dout.p, bytes);
  ASSERT_EQ(cudaMemcpy(out.data(), dout.p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i]);
}

TEST(JitLaunch, ClustersAndDependentLaunch) {
  TESSERA_REQUIRE_GPU();
  Program p = compile(kSource, {"cluster_rank"});
  DeviceBuffer<int> d(8);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  p.kernel(0).launch({.grid = {8}, .block = {32}, .stream = s, .cluster = {2}}, d.p);
  p.kernel(0).launch({.grid = {8}, .block = {32}, .stream = s, .cluster = {2}, .dependent = true}, d.p);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  std::vector<int> out(8);
  ASSERT_EQ(cudaMemcpy(out.data(), d.p, 32, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int b = 0; b < 8; ++b) EXPECT_EQ(out[b], b % 2) << "block " << b;
  cudaStreamDestroy(s);
  // A cluster that does not divide the grid is the driver's error, reported with the launch.
  try {
    p.kernel(0).launch({.grid = {7}, .block = {32}, .cluster = {2}}, d.p);
    FAIL() << "a grid of 7 in clusters of 2 was launched";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find("cluster (2,1,1)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessera::jit
