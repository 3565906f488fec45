// Device tests of gemm_sm90_fp8 (include/tessera/kernels/gemm_sm90.cuh, GemmFp8Problem) against an
// fp32 reference computed on the host, in double, from the dequantized inputs:
//   ref(m,n) = act(alpha sa(m) sb(n) sum_k float(A(m,k)) float(B(k,n)) + beta C(m,n) + bias(n))
// The error bound, for every element (a NaN never passes):
//   |D - ref| <= u_out |ref| + 2^-8 alpha sa(m) sb(n) sum_k |A(m,k) B(k,n)| + underflow_out
// u_out: the output type's unit roundoff (2^-8 bf16, 2^-11 fp16, 2^-24 fp32). The products of 8-bit
// floats are exact in fp32; the 2^-8 term bounds wgmma's fp8 accumulation, whose precision is below
// fp32's (DeepSeek-V3 reports about 14 bits kept on H800, a relative error up to ~2% of the result
// at K = 4096; this bound is about 20x that at K = 4096 for these inputs, and far below the error
// of a wrong element, which is of the order of the whole sum). Inputs that make every partial sum an
// exact small integer (ExactIntegers) are held to u_out |ref| alone. Each test prints the largest
// error seen as a fraction of the accumulation term, so the bound can be tightened from the record.
// Sizes: 1, primes, non-multiples of every tile (M, N odd; K a multiple of 16 but not of the 128-element
// k-tile), several tiles per block. Host-side: the configurations' shared-memory plans, the scales'
// transposition for a column-major D. Without a GPU the device tests skip with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/cuda_check.hpp"
#include "support/gpu_skip.hpp"
#include "tessera/kernels/gemm_sm90.cuh"

namespace {

using namespace tessera;
using namespace tessera::kernels;
namespace kd = tessera::kernels::detail;
using tessera::test::check;
using tessera::test::DeviceBuffer;

// ---- host-only: the plans and the scales' form ---------------------------------------------------

// An fp8 stage is 128 elements of K in the 16-bit types' bytes: the same shared-memory plan.
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90PersistentDefault, float_e4m3_t>() ==
              kd::gemm_sm90_smem_bytes<GemmSm90PersistentDefault, bfloat16_t>());
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90PingpongDefault, float_e5m2_t>() ==
              kd::gemm_sm90_smem_bytes<GemmSm90PingpongDefault, half_t>());
static_assert(kd::kGemmSm90StageBytes<GemmSm90PersistentDefault, float_e4m3_t> == (128 + 256) * 128);
static_assert(kd::kGemmSm90PerUnit<float_e4m3_t> == 2 && kd::kGemmSm90PerUnit<bfloat16_t> == 1);
// The block-scaled configurations fit the 227 KB a block may have: 192 x 128 (the default) and 128 x
// 192 tiles, 4 stages of 40 KB beside 48 / 32 KB of epilogue buffers (a fifth stage would not fit);
// the clustered 128 x 128 tile is the 128 x 128 one's plan.
constexpr int kSmemLimit = 227 * 1024;
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90BlockScaled<GemmSm90PersistentTall>, float_e4m3_t>() <= kSmemLimit);
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90WsConfig<192, 128, 64, 5, true>, float_e4m3_t>() > kSmemLimit);
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90BlockScaled<GemmSm90PersistentWide>, float_e4m3_t>() <= kSmemLimit);
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90BlockScaled<GemmSm90ClusterMedium>, float_e4m3_t>() ==
              kd::gemm_sm90_smem_bytes<GemmSm90BlockScaled<GemmSm90PersistentMedium>, float_e4m3_t>());
static_assert(kd::kGemmSm90StageBytes<GemmSm90PersistentTall, float_e4m3_t> == (192 + 128) * 128);
static_assert(std::is_same_v<kd::GemmSm90Op<float_e4m3_t, 256, GmmaMajor::K, GmmaMajor::K>::type,
                             SM90_64x256x32_F32E4M3E4M3_SS<GmmaMajor::K, GmmaMajor::K>>);

TEST(GemmSm90Fp8Host, ScalesFollowTheRowMajorForm) {
  float const sa[1] = {2.0f}, sb[1] = {3.0f};
  GemmFp8Problem<float_e4m3_t, bfloat16_t> p;
  p.scale_a = {GemmScaleKind::vector, sa};
  p.scale_b = {GemmScaleKind::tensor, sb};
  auto k = kd::gemm_sm90_scales(p);
  EXPECT_EQ(k.a, sa);
  EXPECT_EQ(k.a_step, 1);
  EXPECT_EQ(k.b, sb);
  EXPECT_EQ(k.b_step, 0);
  p.cd_major = Major::col;  // D^T = B^T A^T: A's row scales scale the computed D's columns
  k = kd::gemm_sm90_scales(p);
  EXPECT_EQ(k.a, sb);
  EXPECT_EQ(k.a_step, 0);
  EXPECT_EQ(k.b, sa);
  EXPECT_EQ(k.b_step, 1);
  p.scale_a.kind = GemmScaleKind::none;  // kind none: no scale, whatever data holds
  k = kd::gemm_sm90_scales(p);
  EXPECT_EQ(k.b, nullptr);
}

// ---- device tests --------------------------------------------------------------------------------

struct Shape {
  int m, n, k;
};
// 1, primes, odd sizes, K not a multiple of the 128-element k-tile, several tiles per block
// (sweeps of one launcher; the larger shapes have K up to 4096).
std::vector<Shape> const kSmall = {{1, 1, 16}, {7, 13, 48}, {64, 256, 128}, {129, 255, 144}, {200, 72, 400}};
std::vector<Shape> const kLarge = {{300, 517, 1040}, {1000, 777, 528}, {256, 384, 4096}, {2048, 1536, 256}};

enum class Inputs { random, integers };

template <class T, class TOut>
struct Fp8Case {
  Shape s;
  GemmScaleKind ka = GemmScaleKind::tensor, kb = GemmScaleKind::tensor;
  Inputs inputs = Inputs::random;
  Major d_major = Major::row;
  bool epilogue = false;  // beta C + bias, relu
};

template <class TOut>
double unit_roundoff() {
  if constexpr (std::is_same_v<TOut, float>) return std::ldexp(1.0, -24);
  else if constexpr (std::is_same_v<TOut, half_t>) return std::ldexp(1.0, -11);
  else return std::ldexp(1.0, -8);
}
template <class TOut>
double underflow_roundoff() {
  if constexpr (std::is_same_v<TOut, half_t>) return std::ldexp(1.0, -25);
  else return 1e-30;
}

// The scale of element i of an operand with scales v of kind `kind` (1 for none).
double scale_of(GemmScaleKind kind, std::vector<float> const& v, int i) {
  if (kind == GemmScaleKind::none) return 1.0;
  return v[kind == GemmScaleKind::vector ? std::size_t(i) : 0];
}
// How many scales an operand of kind `kind` has: A (rows = M) or B (rows = N, per128 = true), K.
std::size_t scale_count(GemmScaleKind kind, int rows, int k, bool per128) {
  if (kind == GemmScaleKind::vector) return std::size_t(rows);
  if (kind == GemmScaleKind::block)
    return std::size_t((k + 127) / 128) * std::size_t(per128 ? (rows + 127) / 128 : rows);
  return 1;
}

// Runs one case with launcher Run and checks every element against the bound of the file comment;
// returns the largest |D - ref| / (accumulation term) seen.
template <class T, class TOut, class Run>
double run_case(Fp8Case<T, TOut> const& c, Run const& run) {
  int const M = c.s.m, N = c.s.n, K = c.s.k;
  std::mt19937 rng(std::uint32_t(M * 131 + N * 7 + K));
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  std::uniform_int_distribution<int> small(-3, 3);
  // A (M,K) row-major, B stored as (N,K) rows: column-major (K,N), both K-major.
  std::vector<T> a(std::size_t(M) * K), b(std::size_t(N) * K);
  auto draw = [&] {
    // random: values over a range of magnitudes (x 2^e, e in [-5, 3]: subnormals of e4m3 included,
    // sums that stay inside fp16's range at K = 4096)
    if (c.inputs == Inputs::integers) return T(float(small(rng)));
    return T(uni(rng) * std::ldexp(1.0f, int(rng() % 9) - 5));
  };
  for (auto& x : a) x = draw();
  for (auto& x : b) x = draw();
  auto scales = [&](GemmScaleKind kind, std::size_t count) {
    std::vector<float> v(count);
    // powers of two times a fraction (random inputs) or powers of two (integers: stays exact)
    for (auto& x : v)
      x = std::ldexp(c.inputs == Inputs::integers ? 1.0f : 0.75f + 0.5f * std::abs(uni(rng)), int(rng() % 3) - 2);
    return v;
  };
  std::vector<float> const sa = scales(c.ka, scale_count(c.ka, M, K, false)),
                           sb = scales(c.kb, scale_count(c.kb, N, K, true));
  bool const block = c.ka == GemmScaleKind::block;
  int const kblocks = (K + 127) / 128;
  std::vector<TOut> cm, bias;
  float const alpha = c.inputs == Inputs::integers ? 1.0f : 1.5f, beta = c.epilogue ? 0.5f : 0.0f;
  // D (and C) as the problem's major: row-major ldd = N, column-major ldd = M
  int const ldd = c.d_major == Major::row ? N : M;
  auto at = [&](int m, int n) { return c.d_major == Major::row ? std::size_t(m) * ldd + n : std::size_t(n) * ldd + m; };
  if (c.epilogue) {
    cm.resize(std::size_t(M) * N);
    for (auto& x : cm) x = TOut(uni(rng));
    bias.resize(std::size_t(N));  // the problem's bias: bias[n] to column n of D, whatever D's major
    for (auto& x : bias) x = TOut(uni(rng));
  }

  DeviceBuffer<T> da(a.size()), db(b.size());
  DeviceBuffer<float> dsa(sa.size()), dsb(sb.size());
  DeviceBuffer<TOut> dd(std::size_t(M) * N), dc(std::max<std::size_t>(cm.size(), 1)),
      dbias(std::max<std::size_t>(bias.size(), 1));
  da.upload(a);
  db.upload(b);
  dsa.upload(sa);
  dsb.upload(sb);
  if (c.epilogue) {
    dc.upload(cm);
    dbias.upload(bias);
  }
  check(cudaMemset(dd.get(), 0xff, dd.bytes()), "poison D");

  GemmFp8Problem<T, TOut> p;
  p.m = M;
  p.n = N;
  p.k = K;
  p.alpha = alpha;
  p.a = da.get();
  p.lda = K;
  p.a_major = Major::row;
  p.b = db.get();
  p.ldb = K;
  p.b_major = Major::col;
  p.d = dd.get();
  p.ldd = ldd;
  p.cd_major = c.d_major;
  if (c.epilogue) {
    p.beta = beta;
    p.c = dc.get();
    p.ldc = ldd;
    p.bias = dbias.get();  // per column of D (the problem's; computed transposed for a column-major D)
    p.activation = GemmActivation::relu;
  }
  p.scale_a = {c.ka, c.ka == GemmScaleKind::none ? nullptr : dsa.get()};
  p.scale_b = {c.kb, c.kb == GemmScaleKind::none ? nullptr : dsb.get()};
  check(run(p), "gemm_sm90_fp8");
  check(cudaDeviceSynchronize(), "gemm_sm90_fp8 (run)");
  std::vector<TOut> const d = dd.download();

  double const u = unit_roundoff<TOut>(), acc_bound = c.inputs == Inputs::integers ? 0.0 : std::ldexp(1.0, -8);
  // the dequantized inputs, converted once
  std::vector<float> af(a.size()), bf(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) af[i] = float(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) bf[i] = float(b[i]);
  // The sums (and sums of magnitudes) in double, rows shared out over the host's threads: products of
  // fp8 values are exact in float; block scales apply per 128 of K.
  std::vector<double> sums(std::size_t(M) * N), mags(sums.size());
  {
    int const workers = int(std::clamp(std::thread::hardware_concurrency(), 1u, 32u));
    std::vector<std::thread> pool;
    for (int t = 0; t < workers; ++t)
      pool.emplace_back([&, t] {
        for (int m = t; m < M; m += workers)
          for (int n = 0; n < N; ++n) {
            float const* ar = af.data() + std::size_t(m) * K;
            float const* br = bf.data() + std::size_t(n) * K;
            double sum = 0, mag = 0;
            for (int k = 0; k < K; ++k) {
              double const blk = block ? double(sa[std::size_t(k / 128) * M + m]) *
                                             double(sb[std::size_t(n / 128) * kblocks + k / 128])
                                       : 1.0;
              double const x = blk * double(ar[k] * br[k]);
              sum += x;
              mag += std::fabs(x);
            }
            sums[std::size_t(m) * N + n] = sum;
            mags[std::size_t(m) * N + n] = mag;
          }
      });
    for (auto& th : pool) th.join();
  }
  double worst = 0;
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double const sum = sums[std::size_t(m) * N + n], mag = mags[std::size_t(m) * N + n];
      double const s = double(alpha) * (block ? 1.0 : scale_of(c.ka, sa, m) * scale_of(c.kb, sb, n));
      double ref = s * sum, extra = 0;
      if (c.epilogue) {
        double const cb = double(beta) * double(float(cm[at(m, n)])), bb = double(float(bias[n]));
        ref = std::max(ref + cb + bb, 0.0);
        extra = std::ldexp(std::fabs(cb) + std::fabs(bb), -22);  // fp32 arithmetic of the epilogue
      }
      double const got = double(float(d[at(m, n)]));
      double const err = std::fabs(got - ref);
      double const term = std::fabs(s) * mag;
      if (term > 0) worst = std::max(worst, err / term);
      if (!(err <= u * std::fabs(ref) + acc_bound * term + underflow_roundoff<TOut>() + extra)) {
        if (++bad <= 5)
          ADD_FAILURE() << M << "x" << N << "x" << K << " D(" << m << "," << n << ") = " << got << ", reference " << ref
                        << ", error " << err << " (accumulation term " << term << ")";
      }
    }
  EXPECT_EQ(bad, 0) << M << "x" << N << "x" << K << ": " << bad << " elements outside the bound";
  return worst;
}

template <class Cfg>
struct Launcher {
  int sms = 0;
  template <class T, class TOut>
  cudaError_t operator()(GemmFp8Problem<T, TOut> const& p) const {
    return gemm_sm90_fp8<Cfg>(p, nullptr, sms);
  }
};

template <class Cfg>
struct BlockLauncher {
  int sms = 0;
  template <class T, class TOut>
  cudaError_t operator()(GemmFp8Problem<T, TOut> const& p) const {
    return gemm_sm90_fp8_block<Cfg>(p, nullptr, sms);
  }
};

class GemmSm90Fp8 : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string const why = tessera::test::no_device_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
  template <class T, class TOut, class Run>
  void sweep(std::vector<Shape> const& shapes, Fp8Case<T, TOut> c, Run const& run) {
    double worst = 0;
    for (Shape const& s : shapes) {
      c.s = s;
      worst = std::max(worst, run_case(c, run));
    }
    std::printf("    largest |D - ref| / (scaled sum_k |A B|): %.3g (bound %s)\n", worst,
                c.inputs == Inputs::integers ? "0: exact" : "2^-8 = 0.0039");
  }
};

using Persistent = Launcher<GemmSm90PersistentDefault>;

// Small sizes: each scaling kind, each output type (compute-sanitizer runs these: --gtest_filter='*Small*').
TEST_F(GemmSm90Fp8, SmallE4m3ToBf16TensorScales) { sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{}, Persistent{}); }
TEST_F(GemmSm90Fp8, SmallE4m3ToBf16RowColumnScales) {
  sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::vector}, Persistent{});
}
TEST_F(GemmSm90Fp8, SmallE4m3MixedScalesColumnMajorD) {
  sweep(kSmall,
        Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::tensor, Inputs::random, Major::col},
        Persistent{});
}
TEST_F(GemmSm90Fp8, SmallRowColumnScalesColumnMajorDWithEpilogue) {  // the bias is still per column of D
  sweep(
      kSmall,
      Fp8Case<float_e4m3_t, float>{{}, GemmScaleKind::vector, GemmScaleKind::vector, Inputs::random, Major::col, true},
      Persistent{});
}
TEST_F(GemmSm90Fp8, SmallE5m2ToFp16) {
  sweep(kSmall, Fp8Case<float_e5m2_t, half_t>{{}, GemmScaleKind::none, GemmScaleKind::vector}, Persistent{});
}
TEST_F(GemmSm90Fp8, SmallE4m3ToFp32WithEpilogue) {
  sweep(
      kSmall,
      Fp8Case<float_e4m3_t, float>{{}, GemmScaleKind::vector, GemmScaleKind::vector, Inputs::random, Major::row, true},
      Persistent{});
}
TEST_F(GemmSm90Fp8, SmallExactIntegers) {
  sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::tensor, Inputs::integers},
        Persistent{});
}
TEST_F(GemmSm90Fp8, SmallPingpong) {
  sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::vector},
        Launcher<GemmSm90PingpongDefault>{});
}
TEST_F(GemmSm90Fp8, SmallPersistentOnFiveSms) {  // several tiles per block on every size
  sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::vector},
        Launcher<GemmSm90PersistentDefault>{5});
}
TEST_F(GemmSm90Fp8, SmallPersistent64x128) {  // one consumer warpgroup
  sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::vector},
        Launcher<GemmSm90PersistentSmall>{});
}

// Block scales (1 x 128 of A, 128 x 128 of B, promoted every 128 of K): 128x128 and 128x64 tiles.
TEST_F(GemmSm90Fp8, SmallBlockScales) {
  sweep(kSmall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90PersistentMedium>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesExactIntegersE5m2ToFp32) {
  sweep(kSmall, Fp8Case<float_e5m2_t, float>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90PersistentMedium>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScales128x64ExactIntegers) {  // two N-tiles share each 128-column B scale
  sweep(kSmall, Fp8Case<float_e4m3_t, float>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90WsConfig<128, 64, 64, 8, true>>{});
}

// The block-scaled candidates (kernels/gemm/sm90_config.hpp; the default stays 128x128), each on
// the small sizes (random and exact-integer inputs, whose block scales are powers of two: a scale
// taken from the wrong block shows), on five SMs (several tiles per block) and on the large sizes.
// 192 x 128 tiles, three consumer warpgroups: M = 400 leaves the third row of tiles 16 rows deep.
std::vector<Shape> const kSmallTall = [] {
  auto v = kSmall;
  v.push_back({400, 130, 272});
  v.push_back({577, 64, 1168});
  return v;
}();
// 128 x 192 tiles, two B scales a tile: N = 449 has a tile (columns 192-383) whose blocks 1 and 2
// meet 64 columns in, and one (384-448) whose second block lies past D; N = 640 ends on a tile
// (576-639) that starts mid-block.
std::vector<Shape> const kSmallWide = [] {
  auto v = kSmall;
  v.push_back({129, 449, 400});
  v.push_back({64, 640, 256});
  v.push_back({200, 1000, 1040});
  return v;
}();
TEST_F(GemmSm90Fp8, SmallBlockScalesTall) {
  sweep(kSmallTall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90PersistentTall>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesTallExactIntegersE5m2ToFp32) {
  sweep(kSmallTall, Fp8Case<float_e5m2_t, float>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90PersistentTall>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesTallOnFiveSms) {
  sweep(kSmallTall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90PersistentTall>{5});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesWide) {
  sweep(kSmallWide, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90PersistentWide>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesWideExactIntegersE5m2ToFp32) {
  sweep(kSmallWide, Fp8Case<float_e5m2_t, float>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90PersistentWide>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesWideOnFiveSms) {
  sweep(kSmallWide, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90PersistentWide>{5});
}
// Clusters of two along M, B multicast: M = 1 (one row of tiles) gives each cluster a block past D.
TEST_F(GemmSm90Fp8, SmallBlockScalesCluster) {
  sweep(kSmallTall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90ClusterMedium>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesClusterExactIntegersE5m2ToFp32) {
  sweep(kSmallTall, Fp8Case<float_e5m2_t, float>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90ClusterMedium>{});
}
TEST_F(GemmSm90Fp8, SmallBlockScalesClusterOnSixSms) {  // three clusters, several tiles each
  sweep(kSmallTall, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block, Inputs::integers},
        BlockLauncher<GemmSm90ClusterMedium>{6});
}

// Large sizes.
TEST_F(GemmSm90Fp8, LargeE4m3ToBf16RowColumnScales) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::vector}, Persistent{});
}
TEST_F(GemmSm90Fp8, LargeE5m2ToFp16TensorScales) { sweep(kLarge, Fp8Case<float_e5m2_t, half_t>{}, Persistent{}); }
TEST_F(GemmSm90Fp8, LargeExactIntegers) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::vector, GemmScaleKind::vector, Inputs::integers},
        Persistent{});
}
TEST_F(GemmSm90Fp8, LargeBlockScales) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90PersistentMedium>{});
}
TEST_F(GemmSm90Fp8, LargeBlockScalesTall) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90PersistentTall>{});
}
TEST_F(GemmSm90Fp8, LargeBlockScalesWide) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90PersistentWide>{});
}
TEST_F(GemmSm90Fp8, LargeBlockScalesCluster) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::block, GemmScaleKind::block},
        BlockLauncher<GemmSm90ClusterMedium>{});
}
TEST_F(GemmSm90Fp8, LargePingpong) {
  sweep(kLarge, Fp8Case<float_e4m3_t, bfloat16_t>{{}, GemmScaleKind::tensor, GemmScaleKind::vector},
        Launcher<GemmSm90PingpongDefault>{});
}

// The example of docs/gemm-fp8.md (docs.fp8_snippets_match shows it there unchanged).
TEST_F(GemmSm90Fp8, DocExample) {
  // [snippet:gemm_fp8_example]
  // D (1 x 1, bf16) = sa sb A B: A (1 x 16) and B (16 x 1) sixteen 0.5s in e4m3, both K-major
  std::vector<float_e4m3_t> const halves(16, float_e4m3_t(0.5f));
  DeviceBuffer<float_e4m3_t> a(16), b(16);
  DeviceBuffer<float> sa(1), sb(1);
  DeviceBuffer<bfloat16_t> d(1);
  a.upload(halves);
  b.upload(halves);
  sa.upload({2.0f});
  sb.upload({3.0f});
  GemmFp8Problem<float_e4m3_t, bfloat16_t> p;
  p.m = 1;
  p.n = 1;
  p.k = 16;  // a multiple of 16
  p.a = a.get();
  p.lda = 16;
  p.a_major = Major::row;  // A (M,K) row-major: K-major
  p.b = b.get();
  p.ldb = 16;
  p.b_major = Major::col;  // B (K,N) column-major: K-major
  p.d = d.get();
  p.ldd = 1;
  p.scale_a = {GemmScaleKind::tensor, sa.get()};  // one scale for A
  p.scale_b = {GemmScaleKind::vector, sb.get()};  // one per column of B (N = 1 here)
  check(gemm_sm90_fp8(p), "gemm_sm90_fp8");       // the persistent 128x256 kernel, default stream
  EXPECT_EQ(float(d.download()[0]), 24.0f);       // 2 * 3 * 16 * 0.25
  // [end-snippet]
}

// Refused before launch: the fp8 checks run on the host (their messages: tests/kernels/gemm/fp8_problem.cpp).
TEST(GemmSm90Fp8Refusals, InvalidProblemsThrowBeforeLaunch) {
  GemmFp8Problem<float_e4m3_t, bfloat16_t> p;
  p.m = p.n = 16;
  p.k = 24;  // not a multiple of 16
  p.a = p.b = reinterpret_cast<float_e4m3_t const*>(std::uintptr_t(0x10000));
  p.lda = p.ldb = 32;
  p.b_major = Major::col;
  p.d = reinterpret_cast<bfloat16_t*>(std::uintptr_t(0x20000));
  p.ldd = 16;
  EXPECT_THROW((void)gemm_sm90_fp8(p), std::invalid_argument);
  p.k = 32;  // valid, but block scales go to gemm_sm90_fp8_block, and other scales not
  float const s = 1;
  p.scale_a = p.scale_b = {GemmScaleKind::block, &s};
  EXPECT_THROW((void)gemm_sm90_fp8(p), std::invalid_argument);
  p.scale_a = p.scale_b = {GemmScaleKind::tensor, &s};
  EXPECT_THROW((void)gemm_sm90_fp8_block(p), std::invalid_argument);
}

}  // namespace
