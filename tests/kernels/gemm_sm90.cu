// Device tests of include/tessera/kernels/gemm_sm90.cuh against cublasGemmEx (the sweep and the
// tolerance: support/gemm_check.hpp): gemm_sm90 (the kernel chosen for the shape: the small and
// large sizes take the persistent 64x128 and 128x128 tiles, on 132 SMs 1024 x 768 x 2048 stream-K
// over all its 96 tiles of 64x128, the many-tile sizes 128x256, 128x192, the ping-pong kernel or
// stream-K) on the whole sweep and on several tiles per block,
// gemm_sm90_persistent with its 128x256 tiles on all sizes and with 128x192 tiles on the small,
// large and many-tile sizes, step 3c (gemm_sm90_pingpong) on the small, large and many-tile sizes,
// stream-K on a few SMs; the host-side refusal of invalid problems and the choices of gemm_sm90.
// The ladder's steps 1 and 2, the cluster kernel and stream-K with 128x128 tiles are tested by
// gemm_sm90_ladder.cu (builds with TESSERA_EXTRA_KERNELS); the split of every tile for narrow
// problems by gemm_sm90_narrow.cu.
#include <atomic>
#include <chrono>
#include <thread>

#include "gemm_sm90_shapes.hpp"
#include "instances/gemm_sm90.hpp"  // the kernels, compiled once in tessera::instances
#include "support/gemm_check.hpp"

namespace {

using namespace tessera::test::gemm;

struct Sm90 {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90(p);
  }
};
using GemmSm90 = GemmDeviceTest<Sm90>;
struct Sm90Persistent {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_persistent(p);
  }
};
using GemmSm90Persistent = GemmDeviceTest<Sm90Persistent>;
struct Sm90PersistentWide {  // 128x192 tiles: three 64-column chunks in the epilogue
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_persistent<tessera::kernels::GemmSm90PersistentWide>(p);
  }
};
using GemmSm90PersistentWide = GemmDeviceTest<Sm90PersistentWide>;
struct Sm90Pingpong {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_pingpong(p);
  }
};
using GemmSm90Pingpong = GemmDeviceTest<Sm90Pingpong>;
// Stream-K on a few SMs (sms blocks), so that small problems split tiles over blocks.
template <int Sms, class Cfg = tessera::kernels::GemmSm90StreamKDefault>
struct Sm90StreamK {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_stream_k<Cfg>(p, nullptr, Sms);
  }
};
using GemmSm90StreamK = GemmDeviceTest<Sm90StreamK<0>>;  // every SM
using GemmSm90StreamK5 = GemmDeviceTest<Sm90StreamK<5>>;

// Small sizes: every variant (compute-sanitizer runs these: --gtest_filter='*Small*').
TEST_F(GemmSm90, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90, SmallFp16ToFp32) { this->template sweep<half_t, float>(kSmall, true); }
// Large sizes, tight layouts.
TEST_F(GemmSm90, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }
TEST_F(GemmSm90, LargeFp16ToFp32) { this->template sweep<half_t, float>(kLarge, false); }

TEST_F(GemmSm90, ManyTilesPerBlock) { this->template sweep<bfloat16_t, bfloat16_t>(kManyTiles, false); }
TEST_F(GemmSm90, ManyTilesPerBlockBf16ToFp32) { this->template sweep<bfloat16_t, float>(kManyTiles, false); }
TEST_F(GemmSm90Persistent, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Persistent, LargeFp16ToFp16) { this->template sweep<half_t, half_t>(kLarge, false); }
TEST_F(GemmSm90Persistent, ManyTilesPerBlock) { this->template sweep<bfloat16_t, bfloat16_t>(kManyTiles, false); }
TEST_F(GemmSm90PersistentWide, SmallFp16ToFp32) { this->template sweep<half_t, float>(kSmall, true); }
TEST_F(GemmSm90PersistentWide, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90PersistentWide, LargeFp16ToFp16) { this->template sweep<half_t, half_t>(kLarge, false); }
TEST_F(GemmSm90PersistentWide, ManyTilesPerBlock) { this->template sweep<bfloat16_t, float>(kManyTiles, false); }
TEST_F(GemmSm90Pingpong, ManyTilesPerBlock) { this->template sweep<bfloat16_t, float>(kManyTiles, false); }
TEST_F(GemmSm90Pingpong, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, true); }
TEST_F(GemmSm90Pingpong, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Pingpong, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }

TEST_F(GemmSm90StreamK, ManyTilesPerBlock) { this->template sweep<bfloat16_t, bfloat16_t>(kManyTiles, false); }
TEST_F(GemmSm90StreamK5, SplitTilesBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kStreamK5, true); }
TEST_F(GemmSm90StreamK5, SplitTilesFp16ToFp32) { this->template sweep<half_t, float>(kStreamK5, false); }
TEST_F(GemmSm90StreamK5, SmallBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmall, false); }
// Small problems that split tiles on 5 blocks (compute-sanitizer runs this one): 6 tiles all shared
// out (4 and 16 k-tiles), 12 tiles with 7 shared out (9 k-tiles).
std::vector<Shape> const kSmallSplit = {{384, 512, 256}, {700, 300, 520}, {130, 600, 1000}};
TEST_F(GemmSm90StreamK5, SmallSplitTilesBf16ToFp32) { this->template sweep<bfloat16_t, float>(kSmallSplit, false); }

// Stream-K's results do not depend on timing (each owner adds the partial sums in block order):
// repeated launches give the same bits, also on two streams at once (a workspace each) and after
// the workspace grew between two launches queued on one stream; captured into a CUDA graph (which
// runs without stream-K, StreamWorkspaces) and replayed, or with 128x128 tiles, the result is
// the same within the difference of summation order (against cuBLAS is the sweeps' job).
// The operands of the stream-K runs below: 1000 x 700 x 2000, bf16 in, fp32 out, all row-major,
// values k / 128 (k in -128..127) from a fixed sequence; the problem's D is the caller's to set.
struct StreamKOperands {
  static constexpr int m = 1000, n = 700, k = 2000;
  DeviceBuffer<bfloat16_t> a{std::size_t(m) * k}, b{std::size_t(k) * n};
  GemmProblem<bfloat16_t, float> p;
  StreamKOperands() {
    std::vector<bfloat16_t> ha(a.size()), hb(b.size());
    unsigned x = 12345;
    auto rnd = [&] {
      x = x * 1664525u + 1013904223u;
      return bfloat16_t(float(int(x >> 24) - 128) / 128.0f);
    };
    for (auto& v : ha) v = rnd();
    for (auto& v : hb) v = rnd();
    a.upload(ha);
    b.upload(hb);
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = a.get();
    p.lda = k;
    p.b = b.get();
    p.ldb = n;
    p.ldd = n;
  }
};

TEST(GemmSm90StreamKRuns, RepeatableAndGraphSafe) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  StreamKOperands ops;
  int const m = ops.m, n = ops.n;
  DeviceBuffer<float> dd(std::size_t(m) * n);
  GemmProblem<bfloat16_t, float> p = ops.p;
  p.d = dd.get();
  auto run = [&](cudaStream_t st) { return tessera::kernels::gemm_sm90_stream_k(p, st, 5); };
  ASSERT_EQ(run(nullptr), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> const first = dd.download();
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_EQ(cudaMemset(dd.get(), 0xff, dd.bytes()), cudaSuccess);
    ASSERT_EQ(run(nullptr), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_TRUE(dd.download() == first) << "launch " << rep + 2 << " differs from the first";
  }
  cudaStream_t st = nullptr;
  ASSERT_EQ(cudaStreamCreate(&st), cudaSuccess);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal), cudaSuccess);
  cudaError_t const launched = run(st);
  ASSERT_EQ(cudaStreamEndCapture(st, &graph), cudaSuccess);
  ASSERT_EQ(launched, cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_EQ(cudaMemset(dd.get(), 0xff, dd.bytes()), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, st), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(st), cudaSuccess);
    std::vector<float> const got = dd.download();
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, double(std::fabs(got[i] - first[i])) / (1.0 + std::fabs(first[i])));
    EXPECT_LT(worst, 1e-5) << "graph replay " << rep;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  // Two streams at once, each with its own workspace: the same bits as the first launch.
  cudaStream_t st2 = nullptr;
  ASSERT_EQ(cudaStreamCreate(&st2), cudaSuccess);
  DeviceBuffer<float> d2(dd.size());
  GemmProblem<bfloat16_t, float> p2 = p;
  p2.d = d2.get();
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, st, 5), cudaSuccess);
    ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p2, st2, 5), cudaSuccess);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(dd.download() == first) << "stream 1";
  EXPECT_TRUE(d2.download() == first) << "stream 2";
  // A workspace that grows between two launches queued on one stream (128x128 tiles need half the
  // partial sums of 128x256): the first launch still reads the buffer it was given.
  GemmProblem<bfloat16_t, float> p3 = p2;
  ASSERT_EQ(cudaStreamDestroy(st2), cudaSuccess);
  cudaStream_t st3 = nullptr;
  ASSERT_EQ(cudaStreamCreate(&st3), cudaSuccess);
  ASSERT_EQ(cudaMemset(d2.get(), 0xff, d2.bytes()), cudaSuccess);
  ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k<tessera::kernels::GemmSm90StreamKMedium>(p3, st3, 5), cudaSuccess);
  ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, st3, 5), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(st3), cudaSuccess);
  EXPECT_TRUE(dd.download() == first) << "after the workspace grew";
  std::vector<float> const medium = d2.download();
  double worst = 0;
  for (std::size_t i = 0; i < medium.size(); ++i)
    worst = std::max(worst, double(std::fabs(medium[i] - first[i])) / (1.0 + std::fabs(first[i])));
  EXPECT_LT(worst, 1e-5) << "128x128 tiles before the workspace grew";
  cudaStreamDestroy(st3);
  cudaStreamDestroy(st);
  EXPECT_EQ(tessera::kernels::gemm_sm90_release_workspaces(), cudaSuccess);
  ASSERT_EQ(run(nullptr), cudaSuccess);  // allocates again
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(dd.download() == first);
}

// Streams that come and go (each created, given a stream-K launch, destroyed before its work is
// done) do not pile up workspaces: a device keeps StreamWorkspaces::kKeep, the least recently
// launched stream's freed after its last launch; every result is still the first launch's bits.
TEST(GemmSm90StreamKRuns, ShortLivedStreamsKeepFewWorkspaces) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  StreamKOperands ops;
  int const m = ops.m, n = ops.n;
  GemmProblem<bfloat16_t, float> p = ops.p;
  int const streams = 3 * tessera::sm90::StreamWorkspaces::kKeep;
  std::vector<DeviceBuffer<float>> outs;
  for (int i = 0; i <= streams; ++i) outs.emplace_back(std::size_t(m) * n);
  p.d = outs[0].get();
  ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, nullptr, 5), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> const first = outs[0].download();
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  auto& registry = tessera::sm90::StreamWorkspaces::get();
  for (int i = 1; i <= streams; ++i) {
    cudaStream_t st = nullptr;
    ASSERT_EQ(cudaStreamCreate(&st), cudaSuccess);
    p.d = outs[i].get();
    ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, st, 5), cudaSuccess);
    ASSERT_EQ(cudaStreamDestroy(st), cudaSuccess);  // its work still runs
    EXPECT_LE(registry.count(device), tessera::sm90::StreamWorkspaces::kKeep) << "after stream " << i;
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 1; i <= streams; ++i) EXPECT_TRUE(outs[i].download() == first) << "stream " << i;
  EXPECT_EQ(registry.count(device), tessera::sm90::StreamWorkspaces::kKeep);
  EXPECT_EQ(tessera::kernels::gemm_sm90_release_workspaces(), cudaSuccess);
  EXPECT_EQ(registry.count(device), 0);
}

// A stream's first launch beyond kKeep workspaces frees one whose launches have completed, not the
// least recently launched stream's while its launch still waits: the new stream waits for nothing.
// Stream 0's launch is held back by a host function until the new stream has finished (or 5 s).
// Skipped where launches wait for other streams' work (compute-sanitizer serializes them): the
// hold runs out before the new stream has launched.
TEST(GemmSm90StreamKRuns, EvictionPrefersIdleWorkspaces) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  using tessera::sm90::StreamWorkspaces;
  StreamKOperands ops;
  GemmProblem<bfloat16_t, float> p = ops.p;
  constexpr int keep = StreamWorkspaces::kKeep;
  std::vector<DeviceBuffer<float>> outs;
  for (int i = 0; i <= keep + 1; ++i) outs.emplace_back(std::size_t(ops.m) * ops.n);
  p.d = outs[keep + 1].get();  // the reference, on the default stream
  ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, nullptr, 5), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> const first = outs[keep + 1].download();
  ASSERT_EQ(tessera::kernels::gemm_sm90_release_workspaces(), cudaSuccess);
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  std::vector<cudaStream_t> st(keep + 1, nullptr);
  for (auto& s : st) ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  std::atomic<bool> go{false};
  auto hold = [](void* flag) {
    auto const t0 = std::chrono::steady_clock::now();
    while (!static_cast<std::atomic<bool>*>(flag)->load() &&
           std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  ASSERT_EQ(cudaLaunchHostFunc(st[0], hold, &go), cudaSuccess);
  p.d = outs[0].get();
  auto const held_at = std::chrono::steady_clock::now();
  ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, st[0], 5), cudaSuccess);  // the least recently launched, held
  for (int i = 1; i < keep; ++i) {
    p.d = outs[i].get();
    ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, st[i], 5), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(st[i]), cudaSuccess);
  }
  ASSERT_EQ(StreamWorkspaces::get().count(device), keep);
  p.d = outs[keep].get();
  ASSERT_EQ(tessera::kernels::gemm_sm90_stream_k(p, st[keep], 5), cudaSuccess);  // frees one workspace
  if (std::chrono::steady_clock::now() - held_at > std::chrono::seconds(2)) {    // the hold has run out meanwhile
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (auto s : st) EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
    EXPECT_EQ(tessera::kernels::gemm_sm90_release_workspaces(), cudaSuccess);
    GTEST_SKIP()
        << "launches waited for other streams' work here (compute-sanitizer serializes them): nothing to hold back";
  }
  bool finished = false;
  for (auto const t0 = std::chrono::steady_clock::now();
       std::chrono::steady_clock::now() - t0 < std::chrono::seconds(4);) {
    cudaError_t const state = cudaStreamQuery(st[keep]);
    if (state == cudaSuccess) {
      finished = true;
      break;
    }
    ASSERT_EQ(state, cudaErrorNotReady);
    (void)cudaGetLastError();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(finished) << "the new stream waited for the held stream's launch";
  EXPECT_EQ(cudaStreamQuery(st[0]), cudaErrorNotReady) << "stream 0 was to be held until now";
  (void)cudaGetLastError();
  go = true;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i <= keep; ++i) EXPECT_TRUE(outs[i].download() == first) << "stream " << i;
  EXPECT_EQ(StreamWorkspaces::get().count(device), keep);
  for (auto s : st) EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(tessera::kernels::gemm_sm90_release_workspaces(), cudaSuccess);
}

// Programmatic dependent launch: a persistent kernel launched right after the one that writes its
// A (same stream, no synchronization between) reads A only once that grid has completed. D1 is
// filled with NaNs before each chain, so a read before GEMM 1's stores land shows in D2. Each
// chain's D2 must equal, bit for bit, the same chain with a synchronization between the launches.
TEST(GemmSm90DependentLaunch, ChainedProductsSeeTheirInputs) {
  if (std::string const why = tessera::test::no_device_reason(); !why.empty()) GTEST_SKIP() << why;
  constexpr int m = 1024, k1 = 8192, n1 = 512, n2 = 256;
  DeviceBuffer<bfloat16_t> a1(std::size_t(m) * k1), b1(std::size_t(k1) * n1), d1(std::size_t(m) * n1),
      b2(std::size_t(n1) * n2);
  DeviceBuffer<float> d2(std::size_t(m) * n2);
  unsigned x = 7;
  auto fill = [&](DeviceBuffer<bfloat16_t>& buf, float scale) {
    std::vector<bfloat16_t> h(buf.size());
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      v = bfloat16_t(scale * float(int(x >> 24) - 128) / 128.0f);
    }
    buf.upload(h);
  };
  fill(a1, 1.0f);
  fill(b1, 1.0f / 16);
  fill(b2, 1.0f);
  GemmProblem<bfloat16_t, bfloat16_t> g1;
  g1.m = m, g1.n = n1, g1.k = k1, g1.a = a1.get(), g1.lda = k1, g1.b = b1.get(), g1.ldb = n1, g1.d = d1.get(),
  g1.ldd = n1;
  GemmProblem<bfloat16_t, float> g2;
  g2.m = m, g2.n = n2, g2.k = n1, g2.a = d1.get(), g2.lda = n1, g2.b = b2.get(), g2.ldb = n2, g2.d = d2.get(),
  g2.ldd = n2;
  cudaStream_t st = nullptr;
  ASSERT_EQ(cudaStreamCreate(&st), cudaSuccess);
  using Second = cudaError_t (*)(GemmProblem<bfloat16_t, float> const&, cudaStream_t);
  Second const seconds[] = {
      tessera::kernels::gemm_sm90_persistent<tessera::kernels::GemmSm90PersistentDefault, bfloat16_t, float>,
      tessera::kernels::gemm_sm90_pingpong<tessera::kernels::GemmSm90PingpongDefault, bfloat16_t, float>};
  for (int which = 0; which < 2; ++which) {
    auto chain = [&](bool sync_between) {
      EXPECT_EQ(cudaMemsetAsync(d1.get(), 0xff, d1.bytes(), st), cudaSuccess);  // bf16 NaNs
      EXPECT_EQ(cudaMemsetAsync(d2.get(), 0, d2.bytes(), st), cudaSuccess);
      EXPECT_EQ(tessera::kernels::gemm_sm90_persistent(g1, st), cudaSuccess);
      if (sync_between) EXPECT_EQ(cudaStreamSynchronize(st), cudaSuccess);
      EXPECT_EQ(seconds[which](g2, st), cudaSuccess);
      EXPECT_EQ(cudaStreamSynchronize(st), cudaSuccess);
      return d2.download();
    };
    std::vector<float> const want = chain(true);
    for (int rep = 0; rep < 10; ++rep) {
      std::vector<float> const got = chain(false);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < got.size(); ++i) bad += !(got[i] == want[i]);
      EXPECT_EQ(bad, 0u) << (which == 0 ? "persistent" : "ping-pong") << " after persistent, chain " << rep;
    }
  }
  EXPECT_EQ(cudaStreamDestroy(st), cudaSuccess);
}

// Invalid problems are refused before any launch, with a message naming the violation.
TEST(GemmSm90Host, InvalidProblemsAreRefused) {
  GemmProblem<half_t, float> p;
  p.m = 4;
  p.n = 4;
  p.k = 8;
  half_t dummy[1];
  float out[1];
  p.a = dummy;
  p.lda = 3;  // < K for a row-major A
  p.b = dummy;
  p.ldb = 4;
  p.d = out;
  p.ldd = 4;
  try {
    (void)tessera::kernels::gemm_sm90(p);
    ADD_FAILURE() << "lda < K was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm90: lda = 3 is too small for the row-major 4x8 matrix A; ld must be >= 8");
  }
  p.lda = 8;
  p.k = 0;
  EXPECT_THROW((void)tessera::kernels::gemm_sm90(p), std::invalid_argument);
  p.k = 8;
  p.beta = 1.0f;  // C needed but null
  EXPECT_THROW((void)tessera::kernels::gemm_sm90(p), std::invalid_argument);
  p.beta = 0.0f;
  p.activation = static_cast<tessera::kernels::GemmActivation>(7);
  try {
    (void)tessera::kernels::gemm_sm90(p);
    ADD_FAILURE() << "activation 7 was accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_EQ(std::string(e.what()), "gemm_sm90: activation 7 is not a GemmActivation (none, relu, gelu, gelu_tanh)");
  }
}

// The raster: every block index below tiles_m * tiles_n names a distinct tile, for any group height
// (uneven last groups included), and consecutive indices of a group walk its rows first.
TEST(GemmSm90Host, RasterGroupsCoverEveryTileOnce) {
  for (int tiles_m : {1, 3, 10, 16, 33}) {
    for (int tiles_n : {1, 2, 7, 16}) {
      for (int group : {1, 4, 8, 11, 16, 64}) {
        std::vector<int> seen(std::size_t(tiles_m * tiles_n), 0);
        for (int bid = 0; bid < tiles_m * tiles_n; ++bid) {
          int bm = -1, bn = -1;
          tessera::kernels::detail::gemm_block_coord(bid, tiles_m, tiles_n, bm, bn, group);
          ASSERT_TRUE(bm >= 0 && bm < tiles_m && bn >= 0 && bn < tiles_n)
              << bid << " of " << tiles_m << "x" << tiles_n << " g" << group;
          ++seen[std::size_t(bm * tiles_n + bn)];
        }
        for (int c : seen) EXPECT_EQ(c, 1) << tiles_m << "x" << tiles_n << " group " << group;
      }
    }
  }
  int bm = 0, bn = 0;
  tessera::kernels::detail::gemm_block_coord(17, 32, 16, bm, bn, 16);  // group 0, column 1, row 1
  EXPECT_EQ(bm, 1);
  EXPECT_EQ(bn, 1);
  tessera::kernels::detail::gemm_block_coord(25, 10, 3, bm, bn);  // default 8: the last group's rows 8, 9
  EXPECT_EQ(bm, 9);
  EXPECT_EQ(bn, 0);
}

TEST(GemmSm90Host, PlainEpilogueIsAlphaABAlone) {
  using tessera::kernels::detail::gemm_epilogue_plain;
  tessera::kernels::GemmProblem<bfloat16_t, float> p;
  EXPECT_TRUE(gemm_epilogue_plain(p));
  p.alpha = 2.0f;  // alpha scales the product: still plain
  EXPECT_TRUE(gemm_epilogue_plain(p));
  auto q = p;
  q.beta = 0.5f;
  EXPECT_FALSE(gemm_epilogue_plain(q));
  q = p;
  float const bias = 1.0f;
  q.bias = &bias;
  EXPECT_FALSE(gemm_epilogue_plain(q));
  q = p;
  q.activation = tessera::kernels::GemmActivation::relu;
  EXPECT_FALSE(gemm_epilogue_plain(q));
}

}  // namespace
