// tests/jit/gemm_sm90.cpp -- gemm_sm90 through the JIT with a CUDA-free host side
// (jit/gemm_sm90.hpp), without a GPU: which kernel a problem gets (gemm_sm90_pick's, stream-K
// replaced), the kernel argument the host builds (the tensor maps it asks the driver for, the
// epilogue, the launch), and the programs compiling under NVRTC for sm_90a with their
// static_asserts holding the device's GemmSm90Params and GemmSm90Maps (the kernel's two arguments),
// shared memory and TMA boxes to the host's copies; a drifted copy is a compile error naming the
// member. The launches are tested on a GPU from
// Python (tests/python/test_ops.py, TestGemm). NVRTC's parts skip, saying why, without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/gemm_sm90.hpp"

namespace tessera::jit {
namespace {

using kernels::GemmProblem;
using kernels::GemmSm90Epilogue;
using kernels::GemmSm90Pick;

// The host's copies of the kernel's two arguments: GemmSm90Params, the values (no descriptor: one
// layout), and GemmSm90Maps, the TMA atoms, as the two alignments of TmaDescriptor lay them out (the
// programs check the same numbers against the device structs).
static_assert(offsetof(GemmSm90ParamsHost, ep) == 16 && offsetof(GemmSm90ParamsHost, tma_store_d) == 88 &&
              offsetof(GemmSm90ParamsHost, raster) == 92 && offsetof(GemmSm90ParamsHost, sk) == 96 &&
              offsetof(GemmSm90ParamsHost, scales) == 120 && sizeof(GemmSm90ParamsHost) == 144 &&
              alignof(GemmSm90ParamsHost) == 8);
static_assert(offsetof(GemmSm90MapsHost<128>, tma_b) == 128 && offsetof(GemmSm90MapsHost<128>, tma_d) == 256 &&
              sizeof(GemmSm90MapsHost<128>) == 384 && alignof(GemmSm90MapsHost<128>) == 128);
static_assert(offsetof(GemmSm90MapsHost<64>, tma_d) == 256 && sizeof(GemmSm90MapsHost<64>) == 384 &&
              alignof(GemmSm90MapsHost<64>) == 64);

// A problem with fake device addresses (never dereferenced without a GPU).
template <class T, class TOut>
GemmProblem<T, TOut> problem(int m, int n, int k, Major a, Major b, Major cd) {
  GemmProblem<T, TOut> p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = reinterpret_cast<T const*>(std::uintptr_t(1) << 20);
  p.lda = a == Major::row ? k : m;
  p.a_major = a;
  p.b = reinterpret_cast<T const*>(std::uintptr_t(1) << 28);
  p.ldb = b == Major::row ? n : k;
  p.b_major = b;
  p.d = reinterpret_cast<TOut*>(std::uintptr_t(1) << 36);
  p.ldd = cd == Major::row ? n : m;
  p.cd_major = cd;
  return p;
}

TEST(JitGemmSm90, KernelNumbersRoundTrip) {
  std::vector<bool> seen(GemmSm90JitKernel::kCount);
  for (int i = 0; i < GemmSm90JitKernel::kCount; ++i) {
    GemmSm90JitKernel const k = GemmSm90JitKernel::from_index(i);
    EXPECT_NE(k.epilogue, GemmSm90Epilogue::any) << i;
    EXPECT_EQ(k.index(), i);
  }
  // every field takes part: the 432 kernels are distinct
  for (int c = 0; c < GemmSm90JitKernel::kConfigs; ++c)
    for (int bits = 0; bits < 16; ++bits)
      for (GemmSm90Epilogue e : {GemmSm90Epilogue::tma_plain, GemmSm90Epilogue::tma, GemmSm90Epilogue::registers}) {
        GemmSm90JitKernel const k{GemmSm90Pick(c), (bits & 8) != 0, (bits & 4) != 0,
                                  (bits & 2) != 0, (bits & 1) != 0, e};
        ASSERT_FALSE(seen[k.index()]) << k.index();
        seen[k.index()] = true;
        EXPECT_EQ(GemmSm90JitKernel::from_index(k.index()), k);
      }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), GemmSm90JitKernel::kCount);
  EXPECT_THROW(GemmSm90JitKernel::from_index(GemmSm90JitKernel::kCount), std::invalid_argument);
  EXPECT_THROW(GemmSm90JitKernel::from_index(-1), std::invalid_argument);
  GemmSm90JitKernel any;
  any.epilogue = GemmSm90Epilogue::any;  // nvcc's form: not one the JIT compiles
  EXPECT_THROW((void)any.index(), std::invalid_argument);
}

// The epilogue form the JIT compiles for: registers where TMA cannot address D (after the
// row-major-D transposition), else tma_plain for D = alpha A B, else tma.
TEST(JitGemmSm90, PicksTheEpilogueForm) {
  auto const form = [](auto const& p) { return gemm_sm90_jit_kernel(p, 132).epilogue; };
  auto p = problem<bfloat16_t, bfloat16_t>(4096, 4096, 4096, Major::row, Major::row, Major::row);
  EXPECT_EQ(form(p), GemmSm90Epilogue::tma_plain);
  p.alpha = 3.0f;  // alpha alone keeps it plain
  EXPECT_EQ(form(p), GemmSm90Epilogue::tma_plain);
  auto q = p;
  q.activation = kernels::GemmActivation::gelu;
  EXPECT_EQ(form(q), GemmSm90Epilogue::tma);
  q = p;
  q.bias = p.d;
  EXPECT_EQ(form(q), GemmSm90Epilogue::tma);
  q = p;
  q.beta = 0.5f;
  q.c = p.d;
  q.ldc = p.ldd;
  EXPECT_EQ(form(q), GemmSm90Epilogue::tma);
  // D's rows not 16-byte multiples (an odd pitch), or D off its 16-byte alignment: registers
  q = p;
  q.ldd = 4097;
  EXPECT_EQ(form(q), GemmSm90Epilogue::registers);
  q = p;
  q.d = p.d + 1;
  EXPECT_EQ(form(q), GemmSm90Epilogue::registers);
  // a column-major D of M = 100 rows: the computed D^T has rows of 100 bf16 (200 bytes): registers;
  // with fp32 (400 bytes) TMA addresses them
  EXPECT_EQ(form(problem<bfloat16_t, bfloat16_t>(100, 64, 64, Major::row, Major::row, Major::col)),
            GemmSm90Epilogue::registers);
  EXPECT_EQ(form(problem<bfloat16_t, float>(100, 64, 64, Major::row, Major::row, Major::col)),
            GemmSm90Epilogue::tma_plain);
}

// The configuration is gemm_sm90_pick's for D's tiles as computed (a column-major D transposed),
// the majors those of the row-major-D problem.
TEST(JitGemmSm90, PicksTheConfigurationOfGemmSm90) {
  auto const pick = [](int m, int n, int k) {
    return gemm_sm90_jit_kernel(problem<bfloat16_t, bfloat16_t>(m, n, k, Major::row, Major::row, Major::row), 132)
        .config;
  };
  EXPECT_EQ(pick(4096, 4096, 4096), GemmSm90Pick::large);
  EXPECT_EQ(pick(3072, 3072, 3072), GemmSm90Pick::wide);
  EXPECT_EQ(pick(1536, 1536, 1536), GemmSm90Pick::medium);
  EXPECT_EQ(pick(256, 256, 256), GemmSm90Pick::small);
  EXPECT_EQ(pick(1, 1, 1), GemmSm90Pick::small);
  // 2304^2 with fp32 out: stream-K, as gemm_sm90
  ASSERT_EQ(kernels::gemm_sm90_pick(2304, 2304, 2304, false, 132), GemmSm90Pick::stream_k);
  auto const f32 = problem<bfloat16_t, float>(2304, 2304, 2304, Major::row, Major::row, Major::row);
  EXPECT_EQ(gemm_sm90_jit_kernel(f32, 132).config, GemmSm90Pick::stream_k);
  // where the ping-pong kernel pays (a plain 16-bit product on a few partial waves), it runs
  bool found = false;
  for (int s = 1024; s <= 4096 && !found; s += 128)
    if (kernels::gemm_sm90_pick(s, s, s, true, 132) == GemmSm90Pick::pingpong) {
      EXPECT_EQ(pick(s, s, s), GemmSm90Pick::pingpong) << s;
      // with an epilogue (not plain) or fp32 out, not
      auto relu = problem<bfloat16_t, bfloat16_t>(s, s, s, Major::row, Major::row, Major::row);
      relu.activation = kernels::GemmActivation::relu;
      EXPECT_NE(gemm_sm90_jit_kernel(relu, 132).config, GemmSm90Pick::pingpong) << s;
      found = true;
    }
  EXPECT_TRUE(found) << "no square shape where gemm_sm90_pick takes the ping-pong kernel";
  // a column-major D: (N, M) tiles, A and B swapped and flipped
  auto const col = problem<half_t, float>(64, 4096, 512, Major::row, Major::col, Major::col);
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(col, 132);
  EXPECT_EQ(k.config, kernels::gemm_sm90_pick(4096, 64, 512, false, 132));
  EXPECT_FALSE(k.bf16);
  EXPECT_TRUE(k.out_f32);
  // D^T = B^T A^T: A' = B^T (row-major since B is column-major: K-major), B' = A^T (K-major: A row-major)
  EXPECT_TRUE(k.a_k_major);
  EXPECT_TRUE(k.b_k_major);
  auto const rr = gemm_sm90_jit_kernel(problem<half_t, half_t>(64, 64, 64, Major::col, Major::row, Major::row), 132);
  EXPECT_FALSE(rr.a_k_major);
  EXPECT_FALSE(rr.b_k_major);
}

// What the encoder is asked for: the maps' matrices, pitches, boxes and swizzle.
struct Recorder {
  std::vector<GemmSm90TmaMap>* maps;
  void operator()(GemmSm90TmaMap const& m, void* out) const {
    maps->push_back(m);
    std::memset(out, 0xab, 128);
  }
};

TEST(JitGemmSm90, TheArgumentAndItsTensorMaps) {
  // bf16 in, fp32 out, A row-major (K-major), B row-major (N contiguous: MN-major), on 132 SMs
  auto const p = problem<bfloat16_t, float>(300, 520, 200, Major::row, Major::row, Major::row);
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(p, 132);
  GemmSm90JitGeometry const g = gemm_sm90_jit_geometry(k);
  std::vector<GemmSm90TmaMap> maps;
  auto const r = gemm_sm90_jit_params<128>(k, p, p, 132, Recorder{&maps});
  ASSERT_EQ(maps.size(), 3u);
  // A (M,K) K-major: rows of K, boxes of BM rows x 64 k
  EXPECT_EQ(maps[0].ptr, p.a);
  EXPECT_EQ(maps[0].elem_bytes, 2);
  EXPECT_EQ(maps[0].inner, 200u);
  EXPECT_EQ(maps[0].outer, 300u);
  EXPECT_EQ(maps[0].ld, 200u);
  EXPECT_EQ(maps[0].box_inner, 64u);
  EXPECT_EQ(maps[0].box_outer, unsigned(g.bm));
  EXPECT_EQ(maps[0].swizzle_bytes, 128);
  // B seen as (N,K), N contiguous: rows of N along K, boxes of 64 n x 64 k
  EXPECT_EQ(maps[1].inner, 520u);
  EXPECT_EQ(maps[1].outer, 200u);
  EXPECT_EQ(maps[1].ld, 520u);
  EXPECT_EQ(maps[1].box_inner, 64u);
  EXPECT_EQ(maps[1].box_outer, 64u);
  // D (M,N) fp32 row-major: boxes of 64 rows x 32 columns (128 bytes)
  EXPECT_EQ(maps[2].elem_bytes, 4);
  EXPECT_EQ(maps[2].inner, 520u);
  EXPECT_EQ(maps[2].outer, 300u);
  EXPECT_EQ(maps[2].box_inner, 32u);
  EXPECT_EQ(maps[2].box_outer, 64u);
  EXPECT_TRUE(r.params.tma_store_d);
  EXPECT_EQ(r.maps.tma_a.opaque[0], 0xababababababababull);  // the encoder's bytes, where the kernel reads them
  EXPECT_EQ(r.maps.tma_d.opaque[15], 0xababababababababull);
  EXPECT_EQ(r.params.M, 300);
  EXPECT_EQ(r.params.N, 520);
  EXPECT_EQ(r.params.K, 200);
  EXPECT_EQ(r.params.sk.tiles, 0);  // no stream-K
  EXPECT_EQ(r.params.raster, kernels::detail::gemm_sm90_raster_rows(132, g.bm, g.bn));
  EXPECT_EQ(r.threads, unsigned(g.threads));
  EXPECT_EQ(r.smem_bytes, unsigned(g.smem_bytes));
  EXPECT_EQ(r.blocks, unsigned(std::min(132LL, ((300LL + g.bm - 1) / g.bm) * ((520LL + g.bn - 1) / g.bn))));
  // the plain epilogue: D = alpha A B
  EXPECT_TRUE(r.params.ep.plain);
  EXPECT_EQ(r.params.ep.d, p.d);
  EXPECT_EQ(r.params.ep.last_m, 299);
  EXPECT_EQ(r.params.ep.last_n, 519);
  EXPECT_TRUE(r.params.ep.pairs_aligned);
  EXPECT_FALSE(r.params.ep.bias_per_row);
}

// Stream-K: the tiles shared out (gemm_sm90_stream_k_tiles), the workspace the launch allocates
// (a flag per consumer warpgroup of each block, a 128 x BN/2 slot of partial sums each), a
// cooperative launch without programmatic dependent launch; where the tiles fill whole waves, none.
TEST(JitGemmSm90, StreamKArgumentsAndWorkspace) {
  auto const p = problem<bfloat16_t, float>(2304, 2304, 2304, Major::row, Major::row, Major::row);
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(p, 132);
  ASSERT_EQ(k.config, GemmSm90Pick::stream_k);
  GemmSm90JitGeometry const g = gemm_sm90_jit_geometry(k);
  EXPECT_TRUE(g.stream_k);
  EXPECT_EQ(g.bm, 128);
  EXPECT_EQ(g.bn, 256);
  EXPECT_EQ(g.consumers, 2);
  EXPECT_NE(gemm_sm90_jit_names(k)[0].find("GemmSm90WsConfig<128, 256, 64, 4, true, 1, true>"), std::string::npos);
  std::vector<GemmSm90TmaMap> maps;
  auto const r = gemm_sm90_jit_params<128>(k, p, p, 132, Recorder{&maps});
  int const tiles = 18 * 9;  // 2304/128 x 2304/256
  EXPECT_EQ(r.blocks, 132u);
  EXPECT_EQ(r.params.sk.tiles, kernels::detail::gemm_sm90_stream_k_tiles(tiles, 36, 132));
  EXPECT_GT(r.params.sk.tiles, 0);
  EXPECT_EQ(r.params.sk.epoch, 1u);
  EXPECT_EQ(r.params.sk.flags, nullptr);  // the launch's to fill
  EXPECT_EQ(r.sk_flags, 132 * 2);
  EXPECT_EQ(r.sk_partial_bytes, std::size_t(132) * 2 * 128 * 128 * sizeof(float));
  EXPECT_TRUE(r.cooperative);
  EXPECT_FALSE(r.dependent);
  // 11 x 12 = 132 tiles of 128x256 on 132 SMs: one whole wave, nothing shared out
  auto const whole = problem<bfloat16_t, float>(1408, 3072, 2304, Major::row, Major::row, Major::row);
  GemmSm90JitKernel sk = gemm_sm90_jit_kernel(whole, 132);
  sk.config = GemmSm90Pick::stream_k;
  auto const w = gemm_sm90_jit_params<128>(sk, whole, whole, 132, Recorder{&maps});
  EXPECT_EQ(w.params.sk.tiles, 0);
  EXPECT_EQ(w.sk_flags, 0);
  EXPECT_FALSE(w.cooperative);
  // other configurations: never
  auto const large = gemm_sm90_jit_params<128>(gemm_sm90_jit_kernel(whole, 132), whole, whole, 132, Recorder{&maps});
  EXPECT_EQ(large.params.sk.tiles, 0);
  EXPECT_FALSE(large.cooperative);
}

// With fewer tiles than SMs and long K (8192 x 16 x 8192: 64 tiles of 128x64), gemm_sm90_pick splits
// every tile (stream_k_narrow) and the launch has gemm_sm90_stream_k_plan's blocks: 128, all 64
// tiles shared out, a workspace for 128 blocks of two consumer warpgroups; 12288 x 256 x 12288's 96
// tiles of 128x256 go to every SM; 16 x 8192 x 8192 takes 64x128 tiles (stream_k_small).
TEST(JitGemmSm90, SplitOfEveryTileForNarrowProblems) {
  std::vector<GemmSm90TmaMap> maps;
  auto const p = problem<bfloat16_t, bfloat16_t>(8192, 16, 8192, Major::row, Major::row, Major::row);
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(p, 132);
  ASSERT_EQ(k.config, GemmSm90Pick::stream_k_narrow);
  GemmSm90JitGeometry const g = gemm_sm90_jit_geometry(k);
  EXPECT_TRUE(g.stream_k);
  EXPECT_EQ(g.bm, 128);
  EXPECT_EQ(g.bn, 64);
  EXPECT_EQ(g.consumers, 2);
  EXPECT_NE(gemm_sm90_jit_names(k)[0].find("GemmSm90WsConfig<128, 64, 64, 8, true, 1, true>"), std::string::npos);
  auto const r = gemm_sm90_jit_params<128>(k, p, p, 132, Recorder{&maps});
  EXPECT_EQ(r.blocks, 128u);
  EXPECT_EQ(r.params.sk.tiles, 64);
  EXPECT_EQ(r.sk_flags, 128 * 2);
  EXPECT_EQ(r.sk_partial_bytes, std::size_t(128) * 2 * 128 * 32 * sizeof(float));
  EXPECT_TRUE(r.cooperative);
  EXPECT_FALSE(r.dependent);
  auto const wide = problem<bfloat16_t, float>(12288, 256, 12288, Major::row, Major::row, Major::row);
  GemmSm90JitKernel const kw = gemm_sm90_jit_kernel(wide, 132);
  ASSERT_EQ(kw.config, GemmSm90Pick::stream_k);
  auto const rw = gemm_sm90_jit_params<128>(kw, wide, wide, 132, Recorder{&maps});
  EXPECT_EQ(rw.blocks, 132u);
  EXPECT_EQ(rw.params.sk.tiles, 96);
  auto const rows = problem<half_t, half_t>(16, 8192, 8192, Major::row, Major::row, Major::row);
  GemmSm90JitKernel const kr = gemm_sm90_jit_kernel(rows, 132);
  ASSERT_EQ(kr.config, GemmSm90Pick::stream_k_small);
  EXPECT_EQ(gemm_sm90_jit_geometry(kr).bm, 64);
  auto const rr = gemm_sm90_jit_params<128>(kr, rows, rows, 132, Recorder{&maps});
  EXPECT_EQ(rr.blocks, 128u);
  EXPECT_EQ(rr.params.sk.tiles, 64);
  EXPECT_EQ(rr.sk_flags, 128);
  // a column-major D of 16 rows is the row-major D^T of 16 columns: the same split as 8192 x 16
  auto const col = problem<bfloat16_t, bfloat16_t>(16, 8192, 8192, Major::row, Major::row, Major::col);
  EXPECT_EQ(gemm_sm90_jit_kernel(col, 132).config, GemmSm90Pick::stream_k_narrow);
  // 16384 x 128 x 8192: 128x128 tiles, data-parallel (128 tiles: nearly every SM one)
  auto const n128 = problem<bfloat16_t, bfloat16_t>(16384, 128, 8192, Major::row, Major::row, Major::row);
  GemmSm90JitKernel const km = gemm_sm90_jit_kernel(n128, 132);
  ASSERT_EQ(km.config, GemmSm90Pick::medium);
  auto const rm = gemm_sm90_jit_params<128>(km, n128, n128, 132, Recorder{&maps});
  EXPECT_EQ(rm.blocks, 128u);
  EXPECT_EQ(rm.params.sk.tiles, 0);
  EXPECT_FALSE(rm.cooperative);
}

// A kernel compiled for one epilogue form has left the others out: the host refuses a problem of
// another form before anything is encoded or launched, naming both forms.
TEST(JitGemmSm90, RefusesAProblemOfAnotherEpilogueForm) {
  auto const p = problem<bfloat16_t, bfloat16_t>(256, 256, 128, Major::row, Major::row, Major::row);
  GemmSm90JitKernel k = gemm_sm90_jit_kernel(p, 132);
  ASSERT_EQ(k.epilogue, GemmSm90Epilogue::tma_plain);
  auto biased = p;
  biased.bias = p.d;
  std::vector<GemmSm90TmaMap> maps;
  try {
    (void)gemm_sm90_jit_params<128>(k, biased, biased, 132, Recorder{&maps});
    FAIL() << "a plain kernel took a problem with a bias";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("compiled for the epilogue tessera::kernels::GemmSm90Epilogue::tma_plain, "
                                         "the problem needs tessera::kernels::GemmSm90Epilogue::tma"),
              std::string::npos)
        << e.what();
  }
  k.epilogue = GemmSm90Epilogue::registers;
  EXPECT_THROW((void)gemm_sm90_jit_params<128>(k, p, p, 132, Recorder{&maps}), std::invalid_argument);
  EXPECT_TRUE(maps.empty());  // nothing encoded
  k.epilogue = GemmSm90Epilogue::tma_plain;
  maps.clear();
  EXPECT_NO_THROW((void)gemm_sm90_jit_params<128>(k, p, p, 132, Recorder{&maps}));
  EXPECT_EQ(maps.size(), 3u);
}

TEST(JitGemmSm90, EpilogueOfAColumnMajorD) {
  // a column-major D with C, bias and relu: computed transposed (D^T = B^T A^T), the bias along the
  // computed rows
  auto given = problem<half_t, half_t>(40, 64, 24, Major::row, Major::col, Major::col);
  given.beta = 0.5f;
  given.c = given.d;
  given.ldc = given.ldd;
  given.bias = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 40);
  given.activation = kernels::GemmActivation::relu;
  auto const p = kernels::detail::gemm_as_row_major_d(given);
  GemmSm90JitKernel const k = gemm_sm90_jit_kernel(given, 132);
  EXPECT_TRUE(k.a_k_major);  // A' = B^T, B column-major: rows of K
  EXPECT_TRUE(k.b_k_major);  // B' = A^T, A row-major: columns of K
  std::vector<GemmSm90TmaMap> maps;
  auto const r = gemm_sm90_jit_params<64>(k, given, p, 132, Recorder{&maps});
  EXPECT_TRUE(r.params.ep.bias_per_row);
  EXPECT_FALSE(r.params.ep.plain);
  EXPECT_TRUE(r.params.ep.fragment_pairs);
  EXPECT_EQ(r.params.ep.act, int(kernels::GemmActivation::relu));
  EXPECT_EQ(r.params.ep.beta, 0.5f);
  EXPECT_EQ(r.params.ep.c, given.c);
  EXPECT_EQ(r.params.ep.bias, given.bias);
  EXPECT_EQ(r.params.M, 64);
  EXPECT_EQ(r.params.N, 40);
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_EQ(maps[0].ptr, given.b);
  EXPECT_EQ(maps[0].inner, 24u);
  EXPECT_EQ(maps[0].outer, 64u);
  EXPECT_EQ(maps[1].ptr, given.a);
  EXPECT_EQ(maps[1].inner, 24u);
  EXPECT_EQ(maps[1].outer, 40u);
  EXPECT_EQ(maps[2].inner, 40u);  // D^T row-major: rows of M = 40
  EXPECT_EQ(maps[2].outer, 64u);
  EXPECT_EQ(maps[2].box_inner, 64u);  // 128 bytes of fp16
}

TEST(JitGemmSm90, OneRowAndADNotForTma) {
  // M = 1: A's map is one row, whose pitch is never used (the smallest TMA accepts, not lda); D's
  // rows of 3 fp32 (12 bytes) are no TMA rows: stored from registers, no map
  auto p = problem<bfloat16_t, float>(1, 3, 40, Major::row, Major::col, Major::row);
  p.lda = 1000;
  std::vector<GemmSm90TmaMap> maps;
  auto const r = gemm_sm90_jit_params<128>(gemm_sm90_jit_kernel(p, 132), p, p, 132, Recorder{&maps});
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].outer, 1u);
  EXPECT_EQ(maps[0].ld, 40u);
  EXPECT_FALSE(r.params.tma_store_d);
  EXPECT_EQ(r.blocks, 1u);
  EXPECT_FALSE(r.params.ep.pairs_aligned);  // ldd = 3 is odd
}

TEST(JitGemmSm90, AMatrixTmaCannotAddressIsRefused) {
  // gemm_sm90_jit_launch packs such operands first; the argument refuses them with TMA's rule
  auto p = problem<bfloat16_t, bfloat16_t>(64, 64, 64, Major::row, Major::row, Major::row);
  p.a = reinterpret_cast<bfloat16_t const*>((std::uintptr_t(1) << 20) + 2);
  std::vector<GemmSm90TmaMap> maps;
  try {
    (void)gemm_sm90_jit_params<128>(gemm_sm90_jit_kernel(p, 132), p, p, 132, Recorder{&maps});
    FAIL() << "a misaligned A was taken";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("the tensor map of A: the matrix must start at a 16-byte aligned address"),
              std::string::npos)
        << e.what();
  }
}

TEST(JitGemmSm90, NamesAndGeometry) {
  GemmSm90JitKernel k;
  k.config = GemmSm90Pick::large;
  k.bf16 = true;
  k.out_f32 = false;
  k.a_k_major = true;
  k.b_k_major = false;
  auto const names = gemm_sm90_jit_names(k);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0],
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<"
            "tessera::kernels::GemmSm90WsConfig<128, 256, 64, 4, true, 1, false>, tessera::bfloat16_t, "
            "tessera::bfloat16_t, true, false, tessera::kernels::GemmSm90Epilogue::tma_plain> >");
  k.epilogue = GemmSm90Epilogue::registers;
  EXPECT_NE(gemm_sm90_jit_names(k)[0].find(", true, false, tessera::kernels::GemmSm90Epilogue::registers> >"),
            std::string::npos);
  // each form's name is its qualified enumerator
  using kernels::detail::gemm_sm90_epilogue_name;
  EXPECT_EQ(gemm_sm90_epilogue_name(GemmSm90Epilogue::any), "tessera::kernels::GemmSm90Epilogue::any");
  EXPECT_EQ(gemm_sm90_epilogue_name(GemmSm90Epilogue::tma_plain), "tessera::kernels::GemmSm90Epilogue::tma_plain");
  EXPECT_EQ(gemm_sm90_epilogue_name(GemmSm90Epilogue::tma), "tessera::kernels::GemmSm90Epilogue::tma");
  EXPECT_EQ(gemm_sm90_epilogue_name(GemmSm90Epilogue::registers), "tessera::kernels::GemmSm90Epilogue::registers");
  EXPECT_EQ(names[1], "tessera::kernels::detail::gemm_pack_kernel<tessera::bfloat16_t>");
  k.config = GemmSm90Pick::pingpong;
  EXPECT_NE(gemm_sm90_jit_names(k)[0].find("GemmSm90PingpongRoles<tessera::kernels::GemmSm90PingpongConfig<128, 128"),
            std::string::npos);
  GemmSm90JitGeometry const g = gemm_sm90_jit_geometry(k);
  EXPECT_EQ(g.bm, 128);
  EXPECT_EQ(g.bn, 128);
  EXPECT_EQ(g.threads, 384);
  EXPECT_THROW(gemm_sm90_jit_source(k, 32), std::invalid_argument);
}

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

// Every configuration, both input types, both outputs and all four pairs of majors among nine
// programs (each 4-6 s on the 2-core development machine; the disk cache then): they compile for sm_90a, so the
// device's GemmSm90Params and GemmSm90Maps, the kernel's parameters, shared memory, threads and
// boxes are the host's.
TEST(JitGemmSm90, ProgramsCompileWithTheHostsLayout) {
  TESSERA_REQUIRE_NVRTC();
  int const align = gemm_sm90_jit_descriptor_align();
  EXPECT_EQ(align, Nvrtc::get().version_major() >= 13 ? 128 : 64);
  using E = GemmSm90Epilogue;
  std::vector<GemmSm90JitKernel> const kernels = {
      {GemmSm90Pick::large, true, false, true, false, E::tma_plain},
      {GemmSm90Pick::medium, false, true, true, true, E::tma},
      {GemmSm90Pick::small, true, true, false, false, E::registers},
      {GemmSm90Pick::wide, false, false, false, true, E::tma},
      {GemmSm90Pick::pingpong, true, false, true, true, E::registers},
      {GemmSm90Pick::stream_k, false, true, true, false, E::tma_plain},
      {GemmSm90Pick::stream_k_medium, true, true, true, false, E::tma},
      {GemmSm90Pick::stream_k_small, false, false, true, false, E::registers},
      {GemmSm90Pick::stream_k_narrow, true, false, true, false, E::tma_plain},
  };
  for (GemmSm90JitKernel const& k : kernels) {
    std::vector<std::string> const names = gemm_sm90_jit_names(k);
    Program const p = compile(gemm_sm90_jit_source(k, align), names, hopper());
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p.kernel(0).name(), names[0]);
    EXPECT_EQ(p.kernel(1).name(), names[1]);
  }
}

// A host copy that drifted from the device structs (here: raster one int further; the second TMA
// atom one descriptor further) does not compile, and the error names the member and the file to
// update; nor does a launch that would pass the two arguments in the other order.
TEST(JitGemmSm90, ADriftedHostCopyIsACompileError) {
  TESSERA_REQUIRE_NVRTC();
  GemmSm90JitKernel const k{GemmSm90Pick::small, true, false, true, true};
  std::string const good = gemm_sm90_jit_source(k, gemm_sm90_jit_descriptor_align());
  auto const drifted = [&](std::string const& at, std::string const& to, std::string const& message) {
    std::string source = good;
    std::size_t const i = source.find(at);
    ASSERT_NE(i, std::string::npos) << source;
    source.replace(i, at.size(), to);
    try {
      (void)compile(source, gemm_sm90_jit_names(k), hopper());
      FAIL() << "a drifted copy compiled: " << to;
    } catch (jit_error const& e) {
      EXPECT_NE(
          std::string(e.what()).find(message + " differs from the host's copy in include/tessera/jit/gemm_sm90.hpp"),
          std::string::npos)
          << e.what();
    }
  };
  drifted("\"the offset of GemmSm90Params::raster\", 92u", "\"the offset of GemmSm90Params::raster\", 96u",
          "the offset of GemmSm90Params::raster");
  drifted("\"the offset of GemmSm90Maps::tma_b\", 128u", "\"the offset of GemmSm90Maps::tma_b\", 256u",
          "the offset of GemmSm90Maps::tma_b");
  // the launch's order of the two arguments
  std::string const order = "), void (*)(P, M)>, \"gemm_sm90 (JIT): the kernel's parameters are no longer";
  std::string source = good;
  std::size_t const i = source.find(order);
  ASSERT_NE(i, std::string::npos) << source;
  source.replace(i, order.size(), "), void (*)(M, P)>, \"gemm_sm90 (JIT): the kernel's parameters are no longer");
  try {
    (void)compile(source, gemm_sm90_jit_names(k), hopper());
    FAIL() << "a launch of the arguments in the other order compiled";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find("the kernel's parameters are no longer (GemmSm90Params, GemmSm90Maps)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessera::jit
