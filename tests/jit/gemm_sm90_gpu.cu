// tests/jit/gemm_sm90_gpu.cu -- on a GPU: gemm_sm90 through the JIT with its CUDA-free host side
// (jit/gemm_sm90.hpp: NVRTC's kernels, the argument built on the host, the driver's launch) gives
// the same D, bit for bit, as kernels::gemm_sm90 compiled by nvcc (tessera::instances): where
// gemm_sm90 runs stream-K, as its persistent 128x256 kernel, which the JIT runs there. The data are
// small integers (every sum exact in fp32, so the order of additions and the compilers' fused
// multiply-adds cannot tell the two apart: a difference is a wrong argument, box, packing or
// epilogue); one case with random data is compared within a few ulps (where NVRTC and nvcc are
// the same version the two agree exactly). Covers each configuration gemm_sm90 picks on 132 SMs,
// the four type pairs, every pair of operand orders, column-major D, the fused epilogue, and
// operands and D that TMA cannot address (packed, stored from registers). Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "instances/gemm_sm90.hpp"
#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/gemm_sm90.hpp"

namespace tessera::jit {
namespace {

using kernels::GemmProblem;

// One problem: shape, storage orders, whether the epilogue is fused (beta C, bias, an activation),
// and the elements added to every leading dimension (odd: rows TMA cannot address).
struct Case {
  int m, n, k;
  Major a, b, cd;
  bool fused;
  int pad;
  bool integers = true;
  kernels::GemmActivation act = kernels::GemmActivation::relu;
};

template <class T>
struct DeviceMatrix {
  std::vector<T> host;
  T* dev = nullptr;
  DeviceMatrix(std::size_t count, std::mt19937& rng, bool integers, bool poison = false) : host(count) {
    std::uniform_int_distribution<int> small(-2, 2);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (auto& x : host) x = T(integers ? float(small(rng)) : normal(rng));
    if (poison) std::memset(host.data(), 0xff, count * sizeof(T));  // NaN: what no kernel writes
    EXPECT_EQ(cudaMalloc(&dev, count * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(dev, host.data(), count * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceMatrix() { (void)cudaFree(dev); }
  std::vector<T> download() const {
    std::vector<T> out(host.size());
    EXPECT_EQ(cudaMemcpy(out.data(), dev, out.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

// The program of a kernel, compiled once per process.
Program const& program(GemmSm90JitKernel const& k) {
  static std::map<int, Program> programs;
  auto it = programs.find(k.index());
  if (it == programs.end()) {
    CompileOptions o;
    o.arch = 90;
    it = programs
             .emplace(k.index(),
                      compile(gemm_sm90_jit_source(k, gemm_sm90_jit_descriptor_align()), gemm_sm90_jit_names(k), o))
             .first;
  }
  return it->second;
}

template <class T, class TOut>
void check(Case const& c, bool graph = false) {
  SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " pad " +
               std::to_string(c.pad));
  std::mt19937 rng(c.m * 131 + c.n * 7 + c.k);
  auto const ld = [&](Major major, int rows, int cols) { return (major == Major::row ? cols : rows) + c.pad; };
  auto const count = [&](Major major, int rows, int cols) {
    return std::size_t(ld(major, rows, cols)) * std::size_t(major == Major::row ? rows : cols) + 8;
  };
  DeviceMatrix<T> a(count(c.a, c.m, c.k), rng, c.integers), b(count(c.b, c.k, c.n), rng, c.integers);
  DeviceMatrix<TOut> cm(count(c.cd, c.m, c.n), rng, c.integers), bias(std::size_t(c.n) + 8, rng, c.integers);
  DeviceMatrix<TOut> d_nvcc(count(c.cd, c.m, c.n), rng, true, true), d_jit(count(c.cd, c.m, c.n), rng, true, true);
  GemmProblem<T, TOut> p;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  // an odd pad also starts A and B one element past their 16-byte alignment
  p.a = a.dev + (c.pad % 2);
  p.lda = ld(c.a, c.m, c.k);
  p.a_major = c.a;
  p.b = b.dev + (c.pad % 2);
  p.ldb = ld(c.b, c.k, c.n);
  p.b_major = c.b;
  p.ldd = ld(c.cd, c.m, c.n);
  p.cd_major = c.cd;
  if (c.fused) {
    p.alpha = 2.0f;
    p.beta = 0.5f;
    p.c = cm.dev;
    p.ldc = p.ldd;
    p.bias = bias.dev;
    p.activation = c.act;
  }
  int device = 0, sms = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  // nvcc's gemm_sm90
  p.d = d_nvcc.dev;
  ASSERT_EQ(kernels::gemm_sm90(p, nullptr), cudaSuccess);
  // the JIT's, launched directly or (graph) captured into a CUDA graph on a stream and replayed twice
  p.d = d_jit.dev;
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(p, sms);
  Program const& prog = program(k);
  if (!graph) {
    gemm_sm90_jit_launch(p, prog.kernel(0), prog.kernel(1), nullptr, sms);
  } else {
    cudaStream_t stream = nullptr;
    cudaGraph_t g = nullptr;
    cudaGraphExec_t exec = nullptr;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    gemm_sm90_jit_launch(p, prog.kernel(0), prog.kernel(1), stream, sms);
    ASSERT_EQ(cudaStreamEndCapture(stream, &g), cudaSuccess);
    ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
    for (int i = 0; i < 2; ++i) ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(g);
    (void)cudaStreamDestroy(stream);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<TOut> const x = d_nvcc.download(), y = d_jit.download();
  std::size_t differ = 0, first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    bool const same = std::memcmp(&x[i], &y[i], sizeof(TOut)) == 0;
    if (same) continue;
    if (differ++ == 0) first = i;
    double const fx = double(float(x[i])), fy = double(float(y[i]));
    double const rel = std::abs(fx - fy) / std::max(1e-30, std::abs(fx));
    worst = rel > worst || rel != rel ? rel : worst;
  }
  if (c.integers) {
    EXPECT_EQ(differ, 0u) << "first at element " << first << ": nvcc " << float(x[first]) << ", JIT " << float(y[first])
                          << " (" << gemm_sm90_jit_names(k)[0] << ")";
  } else {
    double const ulp = sizeof(TOut) == 4 ? 0x1p-23 : std::is_same_v<TOut, half_t> ? 0x1p-10 : 0x1p-7;
    EXPECT_LE(worst, 4 * ulp) << differ << " elements differ (" << gemm_sm90_jit_names(k)[0] << ")";
  }
}

constexpr Major R = Major::row, C = Major::col;

TEST(JitGemmSm90Gpu, SameAsNvccSmallTilesEveryOrder) {
  TESSERA_REQUIRE_GPU();
  check<half_t, half_t>({97, 61, 53, R, R, R, false, 0});
  check<half_t, half_t>({97, 61, 53, C, C, R, false, 0});
  check<bfloat16_t, float>({97, 61, 53, R, C, C, true, 0});
  check<bfloat16_t, float>({97, 61, 53, C, R, C, true, 0});
  check<bfloat16_t, bfloat16_t>({1, 1, 1, R, C, R, false, 0});
}

TEST(JitGemmSm90Gpu, SameAsNvccPackedOperandsAndRegisterStores) {
  TESSERA_REQUIRE_GPU();
  // odd leading dimensions and pointers off alignment: A and B packed, D stored from registers
  check<half_t, float>({130, 70, 33, R, R, R, true, 1});
  check<bfloat16_t, bfloat16_t>({130, 70, 33, C, C, C, true, 3});
  // padded rows TMA can address (8 elements): no packing, D through TMA
  check<half_t, half_t>({130, 70, 96, R, C, R, true, 8, true, kernels::GemmActivation::none});
}

TEST(JitGemmSm90Gpu, SameAsNvccEveryConfiguration) {
  TESSERA_REQUIRE_GPU();
  check<bfloat16_t, bfloat16_t>({1536, 1536, 256, R, C, R, false, 0});  // 128x128
  check<half_t, half_t>({3072, 3072, 256, C, R, R, false, 0});          // 128x192
  check<bfloat16_t, bfloat16_t>({4096, 4096, 256, R, C, R, false, 0});  // 128x256
  check<bfloat16_t, bfloat16_t>({2560, 2560, 512, R, C, R, false, 0});  // ping-pong
  check<bfloat16_t, float>({2560, 2560, 512, R, C, R, false, 0});       // stream-K
  check<half_t, float>({300, 2500, 200, R, R, C, true, 8});             // column-major D, fused
}

// Stream-K through the JIT: its workspace allocated on the stream for each launch, the partial
// sums added in the same order as nvcc's build (integers: the same bits; random data: a few ulps),
// with the fused epilogue, and captured into a CUDA graph (the workspace a graph allocation) and
// replayed.
TEST(JitGemmSm90Gpu, StreamKSameAsNvcc) {
  TESSERA_REQUIRE_GPU();
  int device = 0, sms = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  if (kernels::gemm_sm90_pick(2304, 2304, 2304, false, sms) != kernels::GemmSm90Pick::stream_k)
    GTEST_SKIP() << "gemm_sm90 picks no stream-K for 2304^3 on " << sms << " SMs";
  check<bfloat16_t, float>({2304, 2304, 2304, R, C, R, false, 0, false});
  check<half_t, float>({2304, 2304, 2304, C, R, R, true, 0, false, kernels::GemmActivation::gelu});
  check<bfloat16_t, float>({2304, 2304, 2304, R, C, R, true, 0}, true);
}

TEST(JitGemmSm90Gpu, RandomDataAndGeluWithinAFewUlps) {
  TESSERA_REQUIRE_GPU();
  check<bfloat16_t, float>({257, 509, 263, R, C, R, true, 0, false, kernels::GemmActivation::gelu});
  check<half_t, half_t>({1536, 1536, 256, C, C, R, true, 0, false, kernels::GemmActivation::gelu_tanh});
}

}  // namespace
}  // namespace tessera::jit
