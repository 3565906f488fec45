// Device tests of gemm_sm90's split of every tile (include/tessera/kernels/gemm_sm90.cuh with the
// policy of kernels/gemm/sm90_policy.hpp: gemm_sm90_pick's stream_k_narrow (128x64 tiles),
// stream_k_medium (128x128), stream_k_small (64x128) and stream_k (128x256) over fewer tiles than
// SMs, gemm_sm90_stream_k_plan's blocks) against cublasGemmEx (the sweep and the tolerance:
// support/gemm_check.hpp): a D of few columns (N = 1, 8, 16, 17, 64, 100, 128, 200, 256) or few rows
// (M = 1, 16, 17, 64), K long (4096, 8192: 64, 128 k-tiles) and short (1000: 16 k-tiles, the
// least that splits; 520: 9, which does not), odd sizes, every pair of majors (a column-major D
// turns a few columns into a few rows: the other kernel); the stream-K configurations called
// directly on few SMs, so that small problems split (compute-sanitizer runs these: *Small*); the
// same bits from launch to launch, and a CUDA graph (which runs without stream-K).
// The host-side choice: tests/kernels/gemm/sm90_policy.cpp. Not yet run on a GPU when written.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "instances/gemm_sm90.hpp"  // the kernels, compiled once in tessera::instances
#include "support/gemm_check.hpp"

namespace {

using namespace tessera::test::gemm;
namespace kn = tessera::kernels;

struct Sm90 {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return kn::gemm_sm90(p);
  }
};
using GemmSm90Narrow = GemmDeviceTest<Sm90>;

// A stream-K configuration on `Sms` blocks at most (gemm_sm90_stream_k: every tile split where the
// tiles are fewer than the blocks and K has 16 k-tiles or more).
template <class Cfg, int Sms>
struct StreamKOn {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return kn::gemm_sm90_stream_k<Cfg>(p, nullptr, Sms);
  }
};
using GemmSm90NarrowSplit7 = GemmDeviceTest<StreamKOn<kn::GemmSm90StreamKNarrow, 7>>;
using GemmSm90SmallSplit7 = GemmDeviceTest<StreamKOn<kn::GemmSm90StreamKSmall, 7>>;
using GemmSm90MediumSplit7 = GemmDeviceTest<StreamKOn<kn::GemmSm90StreamKMedium, 7>>;
using GemmSm90LargeSplit7 = GemmDeviceTest<StreamKOn<kn::GemmSm90StreamKDefault, 7>>;
using GemmSm90NarrowSplitAll = GemmDeviceTest<StreamKOn<kn::GemmSm90StreamKNarrow, 0>>;

// gemm_sm90 on an H200 (132 SMs; elsewhere the same shapes, whichever kernel the policy gives):
//   4099 x {1, 8, 16, 17, 64} x 4096   stream_k_narrow: 33 tiles of 128x64 on 66 blocks, 32 k-tiles each
//   4099 x 16 x 1000                   stream_k_narrow with 16 k-tiles (8 a block)
//   4099 x 64 x 520                    9 k-tiles: no split (64x128 tiles)
//   4099 x 100 x 4096                  stream_k_small: 65 tiles of 64x128 on 130 blocks
//   12000 x {100, 128} x 4096          stream_k_medium: 94 tiles of 128x128 on 132 blocks
//   10240 x {200, 256} x 8192          stream_k: 80 tiles of 128x256 on 132 blocks
//   {1, 16, 17, 64} x 4100 x 4096      stream_k_small (64 x 4100 with K = 1000)
// With a column-major D each is computed transposed: the few columns become few rows.
std::vector<Shape> const kNarrowN = {{4099, 1, 4096},  {4099, 8, 4096},  {4099, 16, 4096}, {4099, 17, 4096},
                                     {4099, 64, 4096}, {4099, 16, 1000}, {4099, 64, 520},  {4099, 100, 4096}};
std::vector<Shape> const kNarrowNWide = {
    {12000, 100, 4096}, {12000, 128, 4096}, {10240, 200, 8192}, {10240, 256, 8192}};
std::vector<Shape> const kNarrowM = {{1, 4100, 4096}, {16, 4100, 4096}, {17, 4100, 4096}, {64, 4100, 1000}};

TEST_F(GemmSm90Narrow, FewColumnsBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kNarrowN, false); }
TEST_F(GemmSm90Narrow, FewColumnsFp16ToFp32) { this->template sweep<half_t, float>(kNarrowN, false); }
TEST_F(GemmSm90Narrow, FewColumnsWideTilesBf16ToFp32) { this->template sweep<bfloat16_t, float>(kNarrowNWide, false); }
TEST_F(GemmSm90Narrow, FewColumnsWideTilesFp16ToFp16) { this->template sweep<half_t, half_t>(kNarrowNWide, false); }
TEST_F(GemmSm90Narrow, FewRowsBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kNarrowM, false); }
TEST_F(GemmSm90Narrow, FewRowsFp16ToFp32) { this->template sweep<half_t, float>(kNarrowM, false); }
// Beta, bias, activations, padded and unaligned operands (packed) on a few of them.
std::vector<Shape> const kNarrowVariants = {{4099, 17, 4096}, {1000, 64, 1000}, {16, 4100, 4096}};
TEST_F(GemmSm90Narrow, EpilogueVariantsBf16ToFp32) { this->template sweep<bfloat16_t, float>(kNarrowVariants, true); }

// Small problems that split on 7 blocks (compute-sanitizer runs these): 300 rows are 3 tiles of 128
// (5 of 64), 1100 of K 18 k-tiles (9 a block on 6 blocks), 1000 exactly 16; 40 of K: 1 k-tile (no
// split); the columns 1, 16, 17, 64, 100, 256.
std::vector<Shape> const kSmallNarrow = {{300, 16, 1100}, {300, 1, 1000}, {257, 17, 1100}, {300, 64, 40}};
std::vector<Shape> const kSmallFewRows = {{16, 300, 1100}, {1, 257, 1000}, {64, 129, 1100}, {5, 300, 40}};
std::vector<Shape> const kSmallMedium = {{300, 100, 1100}, {300, 128, 1000}};
std::vector<Shape> const kSmallLarge = {{300, 256, 1100}, {300, 200, 1000}};
TEST_F(GemmSm90NarrowSplit7, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmallNarrow, true); }
TEST_F(GemmSm90NarrowSplit7, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmallNarrow, true); }
TEST_F(GemmSm90SmallSplit7, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmallFewRows, true); }
TEST_F(GemmSm90SmallSplit7, SmallFp16ToFp32) { this->template sweep<half_t, float>(kSmallFewRows, true); }
TEST_F(GemmSm90MediumSplit7, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmallMedium, true); }
TEST_F(GemmSm90LargeSplit7, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmallLarge, true); }
// The narrow kernel on every SM over more tiles than SMs (the last-wave split) and fewer.
std::vector<Shape> const kNarrowAll = {{40000, 64, 1100}, {20000, 33, 2000}, {8192, 16, 2048}};
TEST_F(GemmSm90NarrowSplitAll, ManyAndFewTilesBf16ToBf16) {
  this->template sweep<bfloat16_t, bfloat16_t>(kNarrowAll, false);
}

// The split's sums do not depend on timing (each owner adds its contributors' partial sums in block
// order): launches of gemm_sm90 give the same bits each time, for each of the four split kernels;
// captured into a CUDA graph (no workspace: the same kernel without the split, a block a tile) and
// replayed, the result is the same within the difference of summation order.
template <class TOut>
void check_repeatable(int m, int n, int k, kn::GemmSm90Pick expect_on_132) {
  DeviceBuffer<bfloat16_t> a(std::size_t(m) * k), b(std::size_t(k) * n);
  DeviceBuffer<TOut> d(std::size_t(m) * n);
  std::vector<bfloat16_t> ha(a.size()), hb(b.size());
  unsigned x = 2024;
  auto rnd = [&] {
    x = x * 1664525u + 1013904223u;
    return bfloat16_t(float(int(x >> 24) - 128) / 128.0f);
  };
  for (auto& v : ha) v = rnd();
  for (auto& v : hb) v = rnd();
  a.upload(ha);
  b.upload(hb);
  GemmProblem<bfloat16_t, TOut> p;
  p.m = m, p.n = n, p.k = k, p.a = a.get(), p.lda = k, p.b = b.get(), p.ldb = n, p.d = d.get(), p.ldd = n;
  std::string const where = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  int device = 0, sms = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  kn::GemmSm90Pick const pick = kn::gemm_sm90_pick(m, n, k, sizeof(TOut) == 2, sms);
  if (sms == 132) {
    EXPECT_EQ(pick, expect_on_132) << where << ": " << kn::to_string(pick);
  }
  ASSERT_EQ(kn::gemm_sm90(p), cudaSuccess) << where;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << where;
  std::vector<TOut> const first = d.download();
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_EQ(cudaMemset(d.get(), 0xff, d.bytes()), cudaSuccess);
    ASSERT_EQ(kn::gemm_sm90(p), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<TOut> const again = d.download();
    EXPECT_EQ(std::memcmp(again.data(), first.data(), first.size() * sizeof(TOut)), 0)
        << where << ": launch " << rep + 2 << " differs from the first";
  }
  cudaStream_t st = nullptr;
  ASSERT_EQ(cudaStreamCreate(&st), cudaSuccess);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal), cudaSuccess);
  cudaError_t const launched = kn::gemm_sm90(p, st);
  ASSERT_EQ(cudaStreamEndCapture(st, &graph), cudaSuccess);
  ASSERT_EQ(launched, cudaSuccess) << where;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  ASSERT_EQ(cudaMemset(d.get(), 0xff, d.bytes()), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, st), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(st), cudaSuccess);
  std::vector<TOut> const got = d.download();
  double worst = 0;
  double const u = sizeof(TOut) == 2 ? 1.0 / 128 : 1e-5;  // a 16-bit D rounds a different sum once more
  for (std::size_t i = 0; i < got.size(); ++i) {
    double const g = double(float(got[i])), f = double(float(first[i]));
    worst = std::max(worst, std::fabs(g - f) / (1.0 + std::fabs(f)));
  }
  EXPECT_LT(worst, u) << where << ": graph replay";
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(st);
}

TEST(GemmSm90NarrowRuns, RepeatableAndGraphSafe) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  using P = kn::GemmSm90Pick;
  check_repeatable<float>(4099, 16, 4096, P::stream_k_narrow);
  check_repeatable<bfloat16_t>(4099, 100, 4096, P::stream_k_small);
  check_repeatable<float>(12000, 100, 4096, P::stream_k_medium);
  check_repeatable<bfloat16_t>(10240, 256, 8192, P::stream_k);
  EXPECT_EQ(kn::gemm_sm90_release_workspaces(), cudaSuccess);
}

}  // namespace
