// Device tests of gemm_sm90_grouped (include/tessera/kernels/gemm_sm90_grouped.cuh) against an fp32
// reference computed on the host in double from the same bf16/fp16 inputs:
//   ref(m, n) = alpha sum_k A(m, k) B_g(k, n)   for row m of group g
// Bound for every element (a NaN never passes): |D - ref| <= u_out |ref| + K 2^-22 sum_k |A B|, u_out
// the output's unit roundoff (2^-8 bf16, 2^-11 fp16, 2^-24 fp32): the products are exact in fp32,
// the sum's fp32 rounding grows with K; a wrong element (another group's B, a missed k-tile) is off
// by the order of the whole sum. Rows outside every group, and the rows of a masked group past its
// count, must keep their sentinel. Sweeps: 1, 8, 64, 256 groups; group sizes 0, 1, primes,
// non-multiples of the tiles, 64..4096; the offsets, ends and masked forms; B K-major (G x N x K) and
// N-major (G x K x N); N and K odd multiples of 8; both tiles; the fp8 form (gemm_sm90_grouped_fp8,
// run_fp8_case) with each kind of scale. Without a GPU they skip with the reason. The problem's host
// checks and their messages: tests/kernels/gemm/grouped_problem.cpp.
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
#include "tessera/kernels/gemm_sm90_grouped.cuh"

namespace {

using namespace tessera;
using namespace tessera::kernels;
namespace kd = tessera::kernels::detail;
using tessera::test::check;
using tessera::test::DeviceBuffer;

// ---- host-only: the configurations and the policy ----------------------------------------------

static_assert(kd::gemm_sm90_smem_bytes<GemmSm90GroupedSmall, bfloat16_t>() <= 227 * 1024,
              "the small grouped tile's stages fit the shared memory");
static_assert(kd::gemm_sm90_smem_bytes<GemmSm90GroupedLarge, bfloat16_t>() <= 227 * 1024);

TEST(GemmSm90GroupedHost, PickSmallTilesForSmallGroups) {
  EXPECT_EQ(gemm_sm90_grouped_pick(256 * 32, 256), GemmSm90GroupedPick::small);
  EXPECT_EQ(gemm_sm90_grouped_pick(256 * 64, 256), GemmSm90GroupedPick::small);
  EXPECT_EQ(gemm_sm90_grouped_pick(256 * 64 + 1, 256), GemmSm90GroupedPick::large);
  EXPECT_EQ(gemm_sm90_grouped_pick(8192, 8), GemmSm90GroupedPick::large);
}

// ---- the device tests --------------------------------------------------------------------------

template <class T>
float to_f(T x) {
  return float(x);
}

struct Case {
  std::vector<int> sizes;  // rows of each group (for masked: its valid rows)
  int n = 0, k = 0;
  GemmGroupedForm form = GemmGroupedForm::offsets;
  Major b_major = Major::col;
  int capacity = 0;  // masked
  int lead = 0;      // offsets: rows before group 0 (not written)
  float alpha = 1.0f;
  int launches = 1;  // back to back before the check (the same D each time)
};

template <class Cfg, class T, class TOut>
void run_case(Case const& c, bool pick = false) {
  int const G = int(c.sizes.size()), N = c.n, K = c.k;
  bool const masked = c.form == GemmGroupedForm::masked;
  // the packed rows and each group's [begin, end)
  std::vector<int> begin(G), end(G);
  int total = 0;
  if (masked) {
    for (int g = 0; g < G; ++g) begin[g] = g * c.capacity, end[g] = begin[g] + std::min(c.sizes[g], c.capacity);
    total = G * c.capacity;
  } else {
    int r = c.form == GemmGroupedForm::offsets ? c.lead : 0;
    for (int g = 0; g < G; ++g) begin[g] = r, r += c.sizes[g], end[g] = r;
    total = r;
  }
  std::vector<int> rows;
  if (c.form == GemmGroupedForm::offsets) {
    rows.push_back(G > 0 ? begin[0] : 0);
    for (int g = 0; g < G; ++g) rows.push_back(end[g]);
  } else if (c.form == GemmGroupedForm::ends) {
    rows = end;
  } else {
    rows = c.sizes;
  }
  int const lda = K, ldd = N;
  bool const bcol = c.b_major == Major::col;
  int const ldb = bcol ? K : N;
  long long const stride_b = (long long)(bcol ? N : K) * ldb;
  std::mt19937 rng(1234u + unsigned(G * 7 + N + K));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<T> a(std::size_t(std::max(total, 1)) * lda), b(std::size_t(G) * stride_b);
  for (auto& x : a) x = T(dist(rng));
  for (auto& x : b) x = T(dist(rng));
  TOut const sentinel = TOut(-77.0f);
  std::vector<TOut> d(std::size_t(std::max(total, 1)) * ldd, sentinel);

  DeviceBuffer<T> da(a.size()), db(b.size());
  DeviceBuffer<TOut> dd(d.size());
  DeviceBuffer<int> drows(std::max<std::size_t>(rows.size(), 1));
  da.upload(a);
  db.upload(b);
  dd.upload(d);
  drows.upload(rows);
  GemmGroupedProblem<T, TOut> p;
  p.groups = G;
  p.m = masked ? c.capacity : total;
  p.n = N;
  p.k = K;
  p.alpha = c.alpha;
  p.form = c.form;
  p.rows = drows.get();
  p.a = da.get();
  p.lda = lda;
  p.b = db.get();
  p.ldb = ldb;
  p.stride_b = stride_b;
  p.b_major = c.b_major;
  p.d = dd.get();
  p.ldd = ldd;
  for (int i = 0; i < c.launches; ++i)
    check(pick ? gemm_sm90_grouped(p) : gemm_sm90_grouped<Cfg>(p), "gemm_sm90_grouped");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<TOut> const out = dd.download();

  double const u = std::is_same_v<TOut, float>    ? std::ldexp(1.0, -24)
                   : std::is_same_v<TOut, half_t> ? std::ldexp(1.0, -11)
                                                  : std::ldexp(1.0, -8);
  std::vector<float> af(a.size()), bf(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) af[i] = to_f(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) bf[i] = to_f(b[i]);
  // rows -> group (-1: outside every group)
  std::vector<int> group_of(std::size_t(std::max(total, 1)), -1);
  for (int g = 0; g < G; ++g)
    for (int m = begin[g]; m < end[g]; ++m) group_of[std::size_t(m)] = g;
  unsigned const threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  std::vector<long long> bad(threads, 0);
  std::vector<double> worst(threads, 0.0);
  std::vector<std::string> first(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int m = int(t); m < total; m += int(threads)) {
        int const g = group_of[std::size_t(m)];
        for (int n = 0; n < N; ++n) {
          double const got = to_f(out[std::size_t(m) * ldd + n]);
          if (g < 0) {
            if (got != -77.0) {
              if (bad[t]++ == 0) first[t] = "row " + std::to_string(m) + " (no group) was written";
            }
            continue;
          }
          double s = 0, sabs = 0;
          float const* ar = &af[std::size_t(m) * lda];
          float const* bg = &bf[std::size_t(g) * stride_b];
          for (int k = 0; k < K; ++k) {
            double const bv = bcol ? bg[std::size_t(n) * ldb + k] : bg[std::size_t(k) * ldb + n];
            double const pr = double(ar[k]) * bv;
            s += pr;
            sabs += std::fabs(pr);
          }
          double const ref = c.alpha * s;
          double const tol = u * std::fabs(ref) + K * std::ldexp(1.0, -22) * std::fabs(c.alpha) * sabs + 1e-30;
          double const err = std::fabs(got - ref);
          if (!(err <= tol)) {
            if (bad[t]++ == 0)
              first[t] = "group " + std::to_string(g) + " row " + std::to_string(m) + " col " + std::to_string(n) +
                         ": got " + std::to_string(got) + ", want " + std::to_string(ref);
          } else if (sabs > 0) {
            worst[t] =
                std::max(worst[t], err / (K * std::ldexp(1.0, -22) * std::fabs(c.alpha) * sabs + u * std::fabs(ref)));
          }
        }
      }
    });
  for (auto& th : pool) th.join();
  long long nbad = 0;
  double w = 0;
  std::string msg;
  for (unsigned t = 0; t < threads; ++t) {
    nbad += bad[t];
    w = std::max(w, worst[t]);
    if (msg.empty()) msg = first[t];
  }
  std::printf("  groups %d, rows %d, N %d, K %d, %s, B %s: largest error %.3g of the bound\n", G, total, N, K,
              to_string(c.form), bcol ? "K-major" : "N-major", w);
  EXPECT_EQ(nbad, 0) << nbad << " bad elements; first: " << msg;
}

// The fp8 form (gemm_sm90_grouped_fp8): e4m3 A (rows x K) and B (G x N x K, K-major), scales of each
// kind, against a double reference of the dequantized inputs. Bound (as tests/kernels/gemm_sm90_fp8.cu
// says why): |D - ref| <= u_out |ref| + 2^-8 alpha sa sb sum_k |A B| (wgmma's fp8 accumulation keeps
// fewer bits than fp32); a wrong element is off by the order of the whole sum.
template <class Cfg, class TOut>
void run_fp8_case(std::vector<int> const& sizes, int N, int K, GemmScaleKind ka, GemmScaleKind kb, bool pick = false) {
  using T = float_e4m3_t;
  int const G = int(sizes.size());
  std::vector<int> offsets{0};
  for (int s : sizes) offsets.push_back(offsets.back() + s);
  int const total = offsets.back();
  std::mt19937 rng(77u + unsigned(G + N + K));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<T> a(std::size_t(std::max(total, 1)) * K), b(std::size_t(G) * N * K);
  for (auto& x : a) x = T(dist(rng));
  for (auto& x : b) x = T(dist(rng));
  std::uniform_real_distribution<float> sd(0.5f, 2.0f);
  std::vector<float> sa(ka == GemmScaleKind::vector ? std::max(total, 1) : 1),
      sb(kb == GemmScaleKind::vector ? G * N : G);
  for (auto& x : sa) x = sd(rng);
  for (auto& x : sb) x = sd(rng);
  TOut const sentinel = TOut(-77.0f);
  std::vector<TOut> d(std::size_t(std::max(total, 1)) * N, sentinel);
  DeviceBuffer<T> da(a.size()), db(b.size());
  DeviceBuffer<float> dsa(sa.size()), dsb(sb.size());
  DeviceBuffer<TOut> dd(d.size());
  DeviceBuffer<int> drows(offsets.size());
  da.upload(a);
  db.upload(b);
  dsa.upload(sa);
  dsb.upload(sb);
  dd.upload(d);
  drows.upload(offsets);
  GemmGroupedFp8Problem<T, TOut> p;
  p.groups = G;
  p.m = total;
  p.n = N;
  p.k = K;
  p.alpha = 0.75f;
  p.rows = drows.get();
  p.a = da.get();
  p.lda = K;
  p.b = db.get();
  p.ldb = K;
  p.stride_b = (long long)N * K;
  p.b_major = Major::col;
  p.d = dd.get();
  p.ldd = N;
  p.scale_a = {ka, ka == GemmScaleKind::none ? nullptr : dsa.get()};
  p.scale_b = {kb, kb == GemmScaleKind::none ? nullptr : dsb.get()};
  check(pick ? gemm_sm90_grouped_fp8(p) : gemm_sm90_grouped_fp8<Cfg>(p), "gemm_sm90_grouped_fp8");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<TOut> const out = dd.download();
  double const u = std::is_same_v<TOut, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -8);
  long long bad = 0;
  double worst = 0;
  std::string first;
  for (int g = 0; g < G; ++g)
    for (int m = offsets[g]; m < offsets[g + 1]; ++m)
      for (int n = 0; n < N; ++n) {
        double s = 0, sabs = 0;
        for (int k = 0; k < K; ++k) {
          double const pr =
              double(float(a[std::size_t(m) * K + k])) * double(float(b[(std::size_t(g) * N + n) * K + k]));
          s += pr;
          sabs += std::fabs(pr);
        }
        double const sc = 0.75 * (ka == GemmScaleKind::none ? 1.0 : sa[ka == GemmScaleKind::vector ? m : 0]) *
                          (kb == GemmScaleKind::none ? 1.0 : sb[kb == GemmScaleKind::vector ? g * N + n : g]);
        double const ref = sc * s, acc_bound = std::ldexp(1.0, -8) * sc * sabs;
        double const err = std::fabs(double(float(out[std::size_t(m) * N + n])) - ref);
        if (!(err <= u * std::fabs(ref) + acc_bound + 1e-30)) {
          if (bad++ == 0)
            first = "group " + std::to_string(g) + " row " + std::to_string(m) + " col " + std::to_string(n) +
                    ": got " + std::to_string(float(out[std::size_t(m) * N + n])) + ", want " + std::to_string(ref);
        } else if (acc_bound > 0) {
          worst = std::max(worst, err / acc_bound);
        }
      }
  std::printf("  fp8: groups %d, rows %d, N %d, K %d, scales %s/%s: largest error %.3g of the accumulation term\n", G,
              total, N, K, to_string(ka), to_string(kb), worst);
  EXPECT_EQ(bad, 0) << bad << " bad elements; first: " << first;
}

class GemmSm90Grouped : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string const why = tessera::test::no_device_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

std::vector<int> random_sizes(int groups, int lo, int hi, unsigned seed, double empty = 0.1) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::uniform_real_distribution<double> coin(0, 1);
  std::vector<int> s(static_cast<std::size_t>(groups));
  for (auto& x : s) x = coin(rng) < empty ? 0 : dist(rng);
  return s;
}

TEST_F(GemmSm90Grouped, OneGroupOneRow) {
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>({{1}, 8, 8});
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>({{1}, 8, 8});
}
TEST_F(GemmSm90Grouped, OneGroupLarge) { run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>({{4096}, 264, 520}); }
TEST_F(GemmSm90Grouped, EightGroupsEdgeSizesOffsets) {
  Case c{{0, 1, 13, 64, 127, 0, 257, 4096}, 392, 136};
  c.lead = 5;  // rows 0..4 belong to no group
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>(c);
}
TEST_F(GemmSm90Grouped, EightGroupsEndsNMajorB) {
  Case c{{3, 0, 129, 64, 65, 191, 0, 1000}, 264, 200};
  c.form = GemmGroupedForm::ends;
  c.b_major = Major::row;
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>(c);
}
TEST_F(GemmSm90Grouped, EightGroupsFp32AndFp16Out) {
  Case c{{7, 31, 0, 100, 64, 128, 255, 97}, 136, 328};
  c.alpha = 0.5f;
  run_case<GemmSm90GroupedLarge, bfloat16_t, float>(c);
  run_case<GemmSm90GroupedSmall, half_t, half_t>(c);
  c.b_major = Major::row;
  run_case<GemmSm90GroupedLarge, half_t, float>(c);
}
TEST_F(GemmSm90Grouped, SixtyFourGroupsRandom) {
  Case c{random_sizes(64, 1, 300, 64u), 520, 264};
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
  c.b_major = Major::row;
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>(c);
}
TEST_F(GemmSm90Grouped, TwoHundredFiftySixGroupsSmall) {
  Case c{random_sizes(256, 1, 64, 256u, 0.2), 264, 1032};
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>(c, /*pick=*/true);
  c.form = GemmGroupedForm::ends;
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
}
// Groups of 129..192 rows: the last row block of each has its lower 64 rows past the group, so the
// 128x256 kernel's second warpgroup skips the tile's multiplies (it takes and hands back the stages
// unread). 400 launches back to back: the first version of that path hung on the H200 within tens
// of launches (a thread one barrier phase behind); the test fails by its timeout then.
TEST_F(GemmSm90Grouped, HalfTilesBackToBack) {
  std::mt19937 rng(77);
  Case c{{}, 256, 1024};
  for (int g = 0; g < 64; ++g) c.sizes.push_back(129 + int(rng() % 64));
  c.launches = 400;
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
}

TEST_F(GemmSm90Grouped, AllGroupsEmpty) {
  Case c{{0, 0, 0}, 64, 64};
  c.lead = 3;  // the offsets start at row 3: D has rows, no group holds any
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
}
TEST_F(GemmSm90Grouped, MaskedCapacity) {
  Case c{{0, 1, 37, 200, 256, 300, 64, 129}, 264, 136};
  c.form = GemmGroupedForm::masked;
  c.capacity = 256;  // 300 is clamped to the capacity
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>(c);
  c.b_major = Major::row;
  run_case<GemmSm90GroupedLarge, bfloat16_t, float>(c, /*pick=*/true);
}
TEST_F(GemmSm90Grouped, MaskedManyGroups) {
  Case c{random_sizes(64, 0, 97, 97u), 392, 264};
  c.form = GemmGroupedForm::masked;
  c.capacity = 97;
  run_case<GemmSm90GroupedSmall, bfloat16_t, bfloat16_t>(c);
}
TEST_F(GemmSm90Grouped, Fp8TensorScales) {
  run_fp8_case<GemmSm90GroupedLarge, bfloat16_t>({0, 1, 37, 128, 200, 0, 64, 300}, 264, 272, GemmScaleKind::tensor,
                                                 GemmScaleKind::tensor);
  run_fp8_case<GemmSm90GroupedSmall, float>({5, 0, 63, 64, 65}, 136, 144, GemmScaleKind::none, GemmScaleKind::tensor);
}
TEST_F(GemmSm90Grouped, Fp8RowAndColumnScales) {
  run_fp8_case<GemmSm90GroupedLarge, bfloat16_t>({17, 129, 0, 255}, 392, 528, GemmScaleKind::vector,
                                                 GemmScaleKind::vector);
  run_fp8_case<GemmSm90GroupedSmall, bfloat16_t>(std::vector<int>(64, 9), 264, 1040, GemmScaleKind::vector,
                                                 GemmScaleKind::tensor, /*pick=*/true);
}
// The example of docs/gemm-grouped.md (docs.grouped_snippets_match shows it there unchanged).
TEST_F(GemmSm90Grouped, DocExample) {
  // [snippet:gemm_grouped_example]
  // Three experts, N = K = 8: expert 0 takes 2 tokens, expert 1 none, expert 2 one. A (3 x 8) is all
  // ones; B_g (stored 8 x 8, K-major) is all g + 1; so every element of D_g is 8 (g + 1).
  int const groups = 3, n = 8, k = 8, tokens = 3;
  std::vector<bfloat16_t> ones(tokens * k, bfloat16_t(1.0f)), weights;
  for (int g = 0; g < groups; ++g) weights.insert(weights.end(), n * k, bfloat16_t(float(g + 1)));
  DeviceBuffer<bfloat16_t> a(tokens * k), b(groups * n * k), d(tokens * n);
  DeviceBuffer<int> offsets(groups + 1);
  a.upload(ones);
  b.upload(weights);
  offsets.upload({0, 2, 2, 3});  // group g: rows [offsets[g], offsets[g + 1]) of A and D
  GemmGroupedProblem<bfloat16_t, bfloat16_t> p;
  p.groups = groups;
  p.m = tokens;  // the packed rows (the masked form: a group's capacity)
  p.n = n;
  p.k = k;
  p.form = GemmGroupedForm::offsets;
  p.rows = offsets.get();
  p.a = a.get();
  p.lda = k;
  p.b = b.get();
  p.ldb = k;
  p.stride_b = n * k;      // elements from B_g to B_g+1
  p.b_major = Major::col;  // each B_g (K x N) stored as N rows of K: (G, N, K) weights
  p.d = d.get();
  p.ldd = n;
  check(gemm_sm90_grouped(p), "gemm_sm90_grouped");  // the tile for 1 row a group: 64 x 256
  std::vector<bfloat16_t> const out = d.download();
  EXPECT_EQ(float(out[0]), 8.0f);           // row 0: group 0
  EXPECT_EQ(float(out[n + 7]), 8.0f);       // row 1: group 0
  EXPECT_EQ(float(out[2 * n + 3]), 24.0f);  // row 2: group 2
  // [end-snippet]
}
TEST_F(GemmSm90Grouped, SmallMemcheck) {  // the compute-sanitizer case: every path at small sizes
  Case c{{0, 1, 70, 129}, 72, 24};
  run_case<GemmSm90GroupedLarge, bfloat16_t, bfloat16_t>(c);
  c.form = GemmGroupedForm::masked;
  c.capacity = 80;
  c.b_major = Major::row;
  run_case<GemmSm90GroupedSmall, bfloat16_t, float>(c);
}

}  // namespace
