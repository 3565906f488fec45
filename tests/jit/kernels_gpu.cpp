// tests/jit/kernels_gpu.cpp -- the kernels specialized on static layouts, compiled by the JIT and
// launched on a GPU (kernels.cpp compiles them without one): each result checked element by
// element against the host, on tiles that divide the matrix and (naive, vectorized) sizes that do
// not. Skipped, saying why, without a GPU or NVRTC.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/spell.hpp"
#include "tessera/runtime/eval.hpp"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera::jit {
namespace {

constexpr char const* kSource = R"(
#include <cuda_fp16.h>
#include "tessera/kernels/elementwise_add.cuh"
#include "tessera/kernels/tile_copy.cuh"
)";

std::string layout(int m, int n) {
  return spell_type(
      make_static(rt::evaluate("(" + std::to_string(m) + "," + std::to_string(n) + "):(" + std::to_string(n) + ",1)")
                      .as<rt::Layout>()));
}

template <class T>
struct Buffer {
  T* p = nullptr;
  std::size_t n;
  explicit Buffer(std::vector<T> const& host) : n(host.size()) {
    EXPECT_EQ(cudaMalloc(&p, n * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Buffer() { cudaFree(p); }
  std::vector<T> download() const {
    std::vector<T> h(n);
    EXPECT_EQ(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }
};

// a, b with small integers (exact in fp16), c poisoned; returns c after the launch.
template <class T>
std::vector<float> run_add(std::string const& name, int m, int n, unsigned grid, unsigned block) {
  std::vector<T> a(std::size_t(m) * n), b(a.size()), c(a.size(), T(-1.0f));
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = T(float(int(i % 61) - 30));
    b[i] = T(float(int(i % 37)));
  }
  Buffer<T> da(a), db(b), dc(c);
  compile(kSource, {name})
      .kernel(0)
      .launch({.grid = {grid}, .block = {block}}, static_cast<T const*>(da.p), static_cast<T const*>(db.p), dc.p);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> out;
  for (T x : dc.download()) out.push_back(float(x));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (out[i] != float(a[i]) + float(b[i])) {
      ADD_FAILURE() << name << ": c[" << i << "] = " << out[i] << ", expected " << float(a[i]) + float(b[i]);
      break;
    }
  return out;
}

TEST(JitKernelsGpu, NaiveAddAnyExtents) {
  TESSERA_REQUIRE_GPU();
  for (auto [m, n] : {std::pair{64, 256}, std::pair{37, 53}}) {
    unsigned const grid = unsigned((m * n + 255) / 256);
    run_add<__half>("tessera::kernels::add_naive_static<__half, " + layout(m, n) + ">", m, n, grid, 256);
    run_add<float>("tessera::kernels::add_naive_static<float, " + layout(m, n) + ", 128>", m, n,
                   unsigned((m * n + 127) / 128), 128);
  }
}

TEST(JitKernelsGpu, VectorizedAdd) {
  TESSERA_REQUIRE_GPU();
  // 4- and 8-element vectors; 33 x 64 leaves the last block partly idle.
  for (auto [m, n] : {std::pair{64, 512}, std::pair{33, 64}}) {
    for (int vec : {4, 8}) {
      unsigned const grid = unsigned((m * n / vec + 255) / 256);
      run_add<__half>(
          "tessera::kernels::add_vectorized_static<__half, " + layout(m, n) + ", " + std::to_string(vec) + ", 256, 16>",
          m, n, grid, 256);
    }
  }
  // Pointers known 4-byte aligned only: element accesses of the same vectors.
  run_add<__half>("tessera::kernels::add_vectorized_static<__half, " + layout(16, 64) + ", 8, 256, 4>", 16, 64, 1, 256);
}

// Rows padded to a pitch that is not a multiple of the vector (a slice x[:, :N] of a wider array):
// the accesses narrow to what every row start is aligned to, instead of faulting.
TEST(JitKernelsGpu, VectorizedAddOverPaddedRows) {
  TESSERA_REQUIRE_GPU();
  int const m = 32, n = 64, ld = 66;  // fp16 rows 132 bytes apart: 4-byte aligned
  std::vector<__half> a(std::size_t(m) * ld), b(a.size()), c(a.size(), __half(-1.0f));
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = __half(float(int(i % 61) - 30));
    b[i] = __half(float(int(i % 37)));
  }
  Buffer<__half> da(a), db(b), dc(c);
  std::string const l = spell_type(
      make_static(rt::evaluate("(" + std::to_string(m) + "," + std::to_string(n) + "):(" + std::to_string(ld) + ",1)")
                      .as<rt::Layout>()));
  compile(kSource, {"tessera::kernels::add_vectorized_static<__half, " + l + ", 8, 256, 16>"})
      .kernel(0)
      .launch({.grid = {1}, .block = {256}}, static_cast<__half const*>(da.p), static_cast<__half const*>(db.p), dc.p);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<__half> const out = dc.download();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < ld; ++j) {
      std::size_t const k = std::size_t(i) * ld + std::size_t(j);
      float const want = j < n ? float(a[k]) + float(b[k]) : -1.0f;  // the padding untouched
      ASSERT_EQ(float(out[k]), want) << "(" << i << "," << j << ")";
    }
}

TEST(JitKernelsGpu, ThreadValueAdd) {
  TESSERA_REQUIRE_GPU();
  std::string const thr = spell_type(make_static(rt::evaluate("(4,32):(32,1)").as<rt::Layout>()));
  std::string const val = spell_type(make_static(rt::evaluate("(4,8):(8,1)").as<rt::Layout>()));
  int const m = 48, n = 768;  // (16,256) tiles: 3 x 3 blocks
  run_add<__half>("tessera::kernels::add_tv_static<__half, " + layout(m, n) + ", " + thr + ", " + val + ", 16>", m, n,
                  9, 128);
  run_add<float>("tessera::kernels::add_tv_static<float, " + layout(m, n) + ", " + thr + ", " + val + ", 16>", m, n, 9,
                 128);
}

TEST(JitKernelsGpu, TileCopy) {
  TESSERA_REQUIRE_GPU();
  int const m = 96, n = 384;  // (32,128) tiles of fp16: grid (3,3)
  std::vector<__half> src(std::size_t(m) * n), dst(src.size(), __half(-1.0f));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = __half(float(int(i % 2039) - 1000));
  Buffer<__half> ds(src), dd(dst);
  compile(kSource, {"tessera::kernels::tile_copy_static<__half, " + layout(m, n) + ", 32, 512>"})
      .kernel(0)
      .launch({.grid = {3, 3}, .block = {512}}, static_cast<__half const*>(ds.p), dd.p);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<__half> const out = dd.download();
  for (std::size_t i = 0; i < src.size(); ++i) ASSERT_EQ(float(out[i]), float(src[i])) << "dst[" << i << "]";
}

}  // namespace
}  // namespace tessera::jit
