// tests/jit/attention_sm90.cpp -- attention_forward_sm90 through the JIT with a CUDA-free host side
// (jit/attention_sm90.hpp), without a GPU: which kernel a problem gets, the kernel argument the host
// builds (the 4-D tensor maps it asks the driver for, the shape, the scale, the launch), the
// problem's checks (kernels/attention/problem.hpp's, on the JIT's untyped problem), and the
// programs compiling under NVRTC for sm_90a with their
// static_asserts holding the device's AttentionSm90Params and AttentionSm90Maps (the kernel's two
// arguments), tile, shared memory and TMA boxes to the host's copies; a drifted copy is a compile
// error naming the member. The launches are tested on a
// GPU from Python (tests/python/test_ops_attention.py). NVRTC's part skips, saying why, without
// it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "require.hpp"
#include "tessera/jit/attention_sm90.hpp"
#include "tessera/jit/compile.hpp"

#if __has_include(<cuda.h>)
#include <cuda.h>
// The enumerators the encoder passes, as cuda.h has them.
static_assert(int(tessera::jit::detail::kAttentionTmaUint16) == int(CU_TENSOR_MAP_DATA_TYPE_UINT16));
static_assert(int(tessera::jit::detail::kAttentionTmaInterleaveNone) == int(CU_TENSOR_MAP_INTERLEAVE_NONE));
static_assert(int(tessera::jit::detail::kAttentionTmaSwizzle128B) == int(CU_TENSOR_MAP_SWIZZLE_128B));
static_assert(int(tessera::jit::detail::kAttentionTmaL2Promotion256B) == int(CU_TENSOR_MAP_L2_PROMOTION_L2_256B));
static_assert(int(tessera::jit::detail::kAttentionTmaOobFillNone) == int(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
#endif

namespace tessera::jit {
namespace {

// The host's copies of the kernel's two arguments: AttentionSm90Params, the values (no descriptor:
// one layout), and AttentionSm90Maps, the tensor maps, as the two alignments of TmaDescriptor lay
// them out (the programs check the same numbers against the device structs).
static_assert(offsetof(AttentionSm90ParamsHost, o) == 0 && offsetof(AttentionSm90ParamsHost, lse) == 32 &&
              offsetof(AttentionSm90ParamsHost, lse_head) == 40 && offsetof(AttentionSm90ParamsHost, shape) == 48 &&
              offsetof(AttentionSm90ParamsHost, scale) == 136 && offsetof(AttentionSm90ParamsHost, tiles) == 144 &&
              sizeof(AttentionSm90ParamsHost) == 152 && alignof(AttentionSm90ParamsHost) == 8);
static_assert(offsetof(AttentionSm90MapsHost<128>, k) == 128 && offsetof(AttentionSm90MapsHost<128>, v) == 256 &&
              sizeof(AttentionSm90MapsHost<128>) == 384 && alignof(AttentionSm90MapsHost<128>) == 128);
static_assert(offsetof(AttentionSm90MapsHost<64>, v) == 256 && sizeof(AttentionSm90MapsHost<64>) == 384 &&
              alignof(AttentionSm90MapsHost<64>) == 64);

// A dense problem with fake device addresses (never dereferenced without a GPU).
AttentionSm90JitProblem problem(int batch, int hq, int hkv, int sq, int sk, int d, bool bf16 = true) {
  AttentionSm90JitProblem p;
  p.bf16 = bf16;
  p.q = reinterpret_cast<void const*>(std::uintptr_t(1) << 20);
  p.k = reinterpret_cast<void const*>(std::uintptr_t(1) << 32);
  p.v = reinterpret_cast<void const*>(std::uintptr_t(1) << 36);
  p.o = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  p.lse = reinterpret_cast<float*>(std::uintptr_t(1) << 44);
  p.batch = batch;
  p.heads_q = hq;
  p.heads_kv = hkv;
  p.seq_q = sq;
  p.seq_k = sk;
  p.head_dim = d;
  p.q_strides = p.o_strides = kernels::attention_dense_strides(hq, sq, d);
  p.k_strides = p.v_strides = kernels::attention_dense_strides(hkv, sk, d);
  return p;
}

// p as a varlen problem: 2 sequences packed into 200 query and 400 key rows ((total, heads, d)
// contiguous), the offsets at fake addresses (the checks read no offset).
void varlen(AttentionSm90JitProblem& p) {
  p.cu_seqlens_q = reinterpret_cast<int const*>(std::uintptr_t(1) << 12);
  p.cu_seqlens_k = reinterpret_cast<int const*>(std::uintptr_t(1) << 13);
  p.total_q = 200;
  p.total_k = 400;
  p.q_strides = p.o_strides = {0, p.head_dim, (long long)p.heads_q * p.head_dim, 1};
  p.k_strides = p.v_strides = {0, p.head_dim, (long long)p.heads_kv * p.head_dim, 1};
}

TEST(JitAttentionSm90, KernelNumbersRoundTrip) {
  for (int i = 0; i < AttentionSm90JitKernel::kCount; ++i) EXPECT_EQ(AttentionSm90JitKernel::from_index(i).index(), i);
  EXPECT_THROW(AttentionSm90JitKernel::from_index(AttentionSm90JitKernel::kCount), std::invalid_argument);
  EXPECT_THROW(AttentionSm90JitKernel::from_index(-1), std::invalid_argument);
  AttentionSm90JitKernel const k = attention_sm90_jit_kernel(problem(1, 1, 1, 10, 10, 256, false));
  EXPECT_EQ(k.head_dim, 256);
  EXPECT_FALSE(k.bf16);
  EXPECT_THROW(attention_sm90_jit_kernel(problem(1, 1, 1, 10, 10, 96)), std::invalid_argument);
  for (int i = 0; i < AttentionSm90JitKernel::kCount; ++i) {
    AttentionSm90JitKernel const v = AttentionSm90JitKernel::from_index(i);
    EXPECT_EQ(v.persistent, i >= AttentionSm90JitKernel::kLoops);  // the persistent kernels follow the others
    int const l = i % AttentionSm90JitKernel::kLoops;
    EXPECT_EQ(v.loop == AttentionSm90JitLoop::plain, l < 6);
    if (v.loop == AttentionSm90JitLoop::pingpong) EXPECT_LE(v.head_dim, 128);  // no ping-pong for head_dim 256
  }
  // The schedule: persistent for tiles of up to 2048 keys (kernels::attention_sm90_persistent).
  if (std::getenv("TESSERA_ATTENTION_PERSISTENT") == nullptr) {
    EXPECT_TRUE(attention_sm90_jit_kernel(problem(1, 1, 1, 10, 2048, 64)).persistent);
    EXPECT_FALSE(attention_sm90_jit_kernel(problem(1, 1, 1, 10, 2049, 64)).persistent);
    EXPECT_TRUE(kernels::attention_sm90_persistent(1024));
    EXPECT_FALSE(kernels::attention_sm90_persistent(4096));
  }
  EXPECT_EQ(kernels::attention_sm90_grid(4096, 132, true), 132);
  EXPECT_EQ(kernels::attention_sm90_grid(100, 132, true), 100);
  EXPECT_EQ(kernels::attention_sm90_grid(4096, 132, false), 4096);
  EXPECT_EQ(kernels::attention_sm90_grid(4096, 0, true), 4096);
}

// The main loop's switch: TESSERA_ATTENTION_LOOP, else TESSERA_ATTENTION_PINGPONG=1, else plain; a
// mistyped loop is refused.
TEST(JitAttentionSm90, LoopFromTheEnvironment) {
  EXPECT_EQ(attention_sm90_jit_loop_from(nullptr, nullptr), AttentionSm90JitLoop::plain);
  EXPECT_EQ(attention_sm90_jit_loop_from(nullptr, "0"), AttentionSm90JitLoop::plain);
  EXPECT_EQ(attention_sm90_jit_loop_from(nullptr, "1"), AttentionSm90JitLoop::pingpong);
  EXPECT_EQ(attention_sm90_jit_loop_from("plain", nullptr), AttentionSm90JitLoop::plain);
  EXPECT_EQ(attention_sm90_jit_loop_from("pingpong", nullptr), AttentionSm90JitLoop::pingpong);
  EXPECT_EQ(attention_sm90_jit_loop_from("overlap", nullptr), AttentionSm90JitLoop::overlap);
  EXPECT_EQ(attention_sm90_jit_loop_from("overlap", "1"), AttentionSm90JitLoop::overlap);
  EXPECT_EQ(attention_sm90_jit_loop_from("plain", "1"), AttentionSm90JitLoop::plain);
  EXPECT_THROW(attention_sm90_jit_loop_from("Overlap", nullptr), std::invalid_argument);
  EXPECT_THROW(attention_sm90_jit_loop_from("", nullptr), std::invalid_argument);
  // Without a switch, the head_dim's default: the overlap loop for 128 and 256, plain for 64.
  EXPECT_EQ(attention_sm90_jit_loop_from(nullptr, nullptr, AttentionSm90JitLoop::overlap),
            AttentionSm90JitLoop::overlap);
  EXPECT_EQ(attention_sm90_jit_loop_from("plain", nullptr, AttentionSm90JitLoop::overlap), AttentionSm90JitLoop::plain);
  EXPECT_EQ(attention_sm90_default_loop(128), AttentionSm90JitLoop::overlap);
  EXPECT_EQ(attention_sm90_default_loop(64), AttentionSm90JitLoop::plain);
  EXPECT_EQ(attention_sm90_default_loop(256), AttentionSm90JitLoop::overlap);
}

TEST(JitAttentionSm90, NamesAndGeometry) {
  EXPECT_EQ(attention_sm90_jit_name({128, true}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<128>, tessera::bfloat16_t> >");
  EXPECT_EQ(attention_sm90_jit_name({64, false}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<64>, tessera::half_t> >");
  EXPECT_EQ(attention_sm90_jit_name({128, false, AttentionSm90JitLoop::pingpong}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<128, true>, tessera::half_t> >");
  EXPECT_EQ(attention_sm90_jit_name({64, true, AttentionSm90JitLoop::overlap}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<64, false, true>, tessera::bfloat16_t> >");
  EXPECT_EQ(attention_sm90_jit_name({256, true, AttentionSm90JitLoop::overlap, true}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<256, false, true, true>, tessera::bfloat16_t> >");
  EXPECT_EQ(attention_sm90_jit_name({64, false, AttentionSm90JitLoop::plain, true}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<64, false, false, true>, tessera::half_t> >");
  EXPECT_EQ(attention_sm90_jit_name({128, true, AttentionSm90JitLoop::pingpong, true}),
            "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
            "tessera::kernels::AttentionSm90Config<128, true, false, true>, tessera::bfloat16_t> >");
  // The ping-pong kernels follow the six plain ones, the overlap kernels the ping-pong ones, the
  // persistent kernels all of those.
  EXPECT_EQ((AttentionSm90JitKernel{128, true, AttentionSm90JitLoop::pingpong}).index(), 9);
  EXPECT_EQ((AttentionSm90JitKernel{64, false, AttentionSm90JitLoop::overlap}).index(), 10);
  EXPECT_EQ((AttentionSm90JitKernel{128, true, AttentionSm90JitLoop::overlap}).index(), 13);
  EXPECT_EQ((AttentionSm90JitKernel{256, true, AttentionSm90JitLoop::overlap}).index(), 15);
  EXPECT_EQ((AttentionSm90JitKernel{64, false, AttentionSm90JitLoop::plain, true}).index(), 16);
  EXPECT_EQ((AttentionSm90JitKernel{256, true, AttentionSm90JitLoop::overlap, true}).index(), 31);
  // The overlap loop's geometry is the plain loop's (the same storage).
  EXPECT_EQ(attention_sm90_jit_geometry({128, true, AttentionSm90JitLoop::overlap}).smem_bytes,
            attention_sm90_jit_geometry({128, true}).smem_bytes);
  // docs/attention.md: 80 KB (D = 64), 160 KB (128), 192 KB (256), + barriers + 1 KB to align
  AttentionSm90JitGeometry const g64 = attention_sm90_jit_geometry({64, true});
  AttentionSm90JitGeometry const g128 = attention_sm90_jit_geometry({128, true});
  AttentionSm90JitGeometry const g256 = attention_sm90_jit_geometry({256, false});
  // barriers: 2 rings of 4, Q's full and empty, the ping-pong's 2: 96 bytes
  EXPECT_EQ(g64.smem_bytes, 80 * 1024 + 96 + 1024);
  EXPECT_EQ(g128.smem_bytes, 160 * 1024 + 96 + 1024);
  EXPECT_EQ(g256.smem_bytes, 192 * 1024 + 96 + 1024);
  EXPECT_FALSE(g64.persistent || g128.persistent || g256.persistent);  // a block a tile
  EXPECT_TRUE(attention_sm90_jit_geometry({256, false, AttentionSm90JitLoop::overlap, true}).persistent);
  EXPECT_LE(g256.smem_bytes, 227 * 1024);
  EXPECT_EQ(g64.bn, 128);
  EXPECT_EQ(g256.bn, 64);
  EXPECT_EQ(g128.bm, 128);
  EXPECT_EQ(g128.threads, 384);
  EXPECT_THROW(attention_sm90_jit_source({128, true}, 32), std::invalid_argument);
}

// What the encoder is asked for.
struct Recorder {
  std::vector<AttentionSm90TmaMap>* maps;
  void operator()(AttentionSm90TmaMap const& m, void* out) const {
    maps->push_back(m);
    std::memset(out, 0xab, 128);
  }
};

TEST(JitAttentionSm90, TheArgumentAndItsTensorMaps) {
  // GQA 4, seq_q != seq_k, bottom-right causal, head_dim 128
  AttentionSm90JitProblem p = problem(2, 8, 2, 1000, 300, 128);
  p.causal = kernels::AttentionCausal::bottom_right;
  std::vector<AttentionSm90TmaMap> maps;
  auto const r = attention_sm90_jit_params<128>(attention_sm90_jit_kernel(p), p, Recorder{&maps});
  ASSERT_EQ(maps.size(), 3u);
  // Q: (d, seq, heads, batch) = (128, 1000, 8, 2), strides in bytes, boxes of 64 x 128 rows
  EXPECT_EQ(maps[0].ptr, p.q);
  EXPECT_EQ(maps[0].dims[0], 128u);
  EXPECT_EQ(maps[0].dims[1], 1000u);
  EXPECT_EQ(maps[0].dims[2], 8u);
  EXPECT_EQ(maps[0].dims[3], 2u);
  EXPECT_EQ(maps[0].strides[0], 256u);
  EXPECT_EQ(maps[0].strides[1], 256000u);
  EXPECT_EQ(maps[0].strides[2], 2048000u);
  EXPECT_EQ(maps[0].box[0], 64u);
  EXPECT_EQ(maps[0].box[1], 128u);
  EXPECT_EQ(maps[0].box[2], 1u);
  EXPECT_EQ(maps[0].box[3], 1u);
  EXPECT_EQ(maps[0].swizzle_bytes, 128);
  // K, V: 2 heads of 300 keys, boxes of 64 x 128 keys
  EXPECT_EQ(maps[1].ptr, p.k);
  EXPECT_EQ(maps[2].ptr, p.v);
  EXPECT_EQ(maps[1].dims[1], 300u);
  EXPECT_EQ(maps[1].dims[2], 2u);
  EXPECT_EQ(maps[1].strides[1], 300u * 128 * 2);
  EXPECT_EQ(maps[2].box[1], 128u);
  EXPECT_EQ(r.maps.q.opaque[0], 0xababababababababull);  // the encoder's bytes, where the kernel reads them
  EXPECT_EQ(r.maps.v.opaque[15], 0xababababababababull);
  EXPECT_EQ(r.params.o, p.o);
  EXPECT_EQ(r.params.o_batch, 8LL * 1000 * 128);
  EXPECT_EQ(r.params.o_head, 1000LL * 128);
  EXPECT_EQ(r.params.o_seq, 128);
  EXPECT_EQ(r.params.lse, p.lse);
  EXPECT_EQ(r.params.shape.batch, 2);
  EXPECT_EQ(r.params.shape.heads_q, 8);
  EXPECT_EQ(r.params.shape.group, 4);
  EXPECT_EQ(r.params.shape.seq_q, 1000);
  EXPECT_EQ(r.params.shape.seq_k, 300);
  EXPECT_EQ(r.params.shape.m_blocks, 8);
  EXPECT_TRUE(r.params.shape.causal);
  EXPECT_TRUE(r.params.shape.bottom_right);
  EXPECT_EQ(r.params.shape.cu_seqlens_q, nullptr);
  EXPECT_EQ(r.params.shape.order_pairs.d, 16);  // sms 0: the causal order without groups (every pair)
  EXPECT_EQ(r.params.shape.order_m.d, 8);
  EXPECT_EQ(r.params.shape.order_heads.d, 8);
  EXPECT_EQ(r.params.lse_head, 1000);
  EXPECT_FLOAT_EQ(r.params.scale, 1.0f / std::sqrt(128.0f));
  EXPECT_FLOAT_EQ(r.params.scale_log2, r.params.scale * 1.4426950408889634f);
  EXPECT_EQ(r.params.tiles, 8 * 8 * 2);
  EXPECT_EQ(r.blocks, 8u * 8 * 2);                               // sms 0: a block a tile
  if (std::getenv("TESSERA_ATTENTION_PERSISTENT") == nullptr) {  // the default: at most a block an SM
    EXPECT_EQ((attention_sm90_jit_params<128>(attention_sm90_jit_kernel(p), p, Recorder{&maps}, 100).blocks), 100u);
    EXPECT_EQ((attention_sm90_jit_params<128>(attention_sm90_jit_kernel(p), p, Recorder{&maps}, 200).blocks), 128u);
    // longer tiles (seq_k > 2048): a block a tile, which the hardware balances
    AttentionSm90JitProblem lng = problem(2, 8, 2, 1000, 3000, 128);
    EXPECT_EQ((attention_sm90_jit_params<128>(attention_sm90_jit_kernel(lng), lng, Recorder{&maps}, 100).blocks),
              8u * 8 * 2);
  }
  if (std::getenv("TESSERA_ATTENTION_PERSISTENT") == nullptr &&
      std::getenv("TESSERA_ATTENTION_CAUSAL_ORDER") == nullptr) {
    // the causal order's groups, as the nvcc launcher picks them (kernels::attention_sm90_causal_group):
    // seq 1k, persistent on 132 SMs, 4 pairs; seq 4k, a block a tile, 8 pairs (16 MB of K and V)
    AttentionSm90JitProblem big = problem(16, 16, 16, 1024, 1024, 128);
    big.causal = kernels::AttentionCausal::top_left;
    EXPECT_EQ((attention_sm90_jit_params<128>(attention_sm90_jit_kernel(big), big, Recorder{&maps}, 132)
                   .params.shape.order_pairs.d),
              4);
    big = problem(4, 16, 16, 4096, 4096, 128);
    big.causal = kernels::AttentionCausal::top_left;
    EXPECT_EQ((attention_sm90_jit_params<128>(attention_sm90_jit_kernel(big), big, Recorder{&maps}, 132)
                   .params.shape.order_pairs.d),
              8);
    big.causal = kernels::AttentionCausal::none;  // without a mask: the m-block fastest (groups of one pair)
    EXPECT_EQ((attention_sm90_jit_params<128>(attention_sm90_jit_kernel(big), big, Recorder{&maps}, 132)
                   .params.shape.order_pairs.d),
              1);
  }
  EXPECT_EQ(r.threads, 384u);
  EXPECT_EQ(r.smem_bytes, unsigned(attention_sm90_jit_geometry({128, true}).smem_bytes));
  // top-left: not bottom_right; a given scale is kept; head_dim 256's K boxes are 64 keys
  p.causal = kernels::AttentionCausal::top_left;
  p.scale = 0.3f;
  auto const t = attention_sm90_jit_params<64>(attention_sm90_jit_kernel(p), p, Recorder{&maps});
  EXPECT_TRUE(t.params.shape.causal);
  EXPECT_FALSE(t.params.shape.bottom_right);
  EXPECT_FLOAT_EQ(t.params.scale, 0.3f);
  AttentionSm90JitProblem const d256 = problem(1, 1, 1, 5, 5, 256, false);
  maps.clear();
  auto const u = attention_sm90_jit_params<128>(attention_sm90_jit_kernel(d256), d256, Recorder{&maps});
  EXPECT_EQ(maps[1].box[1], 64u);
  EXPECT_EQ(maps[0].box[1], 128u);
  EXPECT_FALSE(u.params.shape.causal);
  EXPECT_EQ(u.blocks, 1u);
}

TEST(JitAttentionSm90, VarlenMapsSpanThePackedRows) {
  // 3 sequences packed: Q/O (total_q 700, 8 heads, 128), K/V (total_k 900, 2 heads, 128), the
  // longest 400 x 500; the maps are one batch of the packed rows, LSE (heads, total_q)
  AttentionSm90JitProblem p = problem(3, 8, 2, 400, 500, 128);
  int const offsets[2] = {0, 0};  // only their addresses are used here
  p.cu_seqlens_q = &offsets[0];
  p.cu_seqlens_k = &offsets[1];
  p.total_q = 700;
  p.total_k = 900;
  p.q_strides = p.o_strides = {0, 128, 8 * 128, 1};  // (total, heads, d) contiguous: head stride 128
  p.k_strides = p.v_strides = {0, 128, 2 * 128, 1};
  p.causal = kernels::AttentionCausal::bottom_right;
  check_attention_sm90_jit_problem("f", p);
  std::vector<AttentionSm90TmaMap> maps;
  auto const r = attention_sm90_jit_params<128>(attention_sm90_jit_kernel(p), p, Recorder{&maps});
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_EQ(maps[0].dims[1], 700u);
  EXPECT_EQ(maps[0].dims[2], 8u);
  EXPECT_EQ(maps[0].dims[3], 1u);
  EXPECT_EQ(maps[0].strides[0], 8u * 128 * 2);
  EXPECT_EQ(maps[0].strides[1], 128u * 2);
  EXPECT_EQ(maps[1].dims[1], 900u);
  EXPECT_EQ(maps[1].dims[3], 1u);
  EXPECT_EQ(r.params.o_batch, 0);
  EXPECT_EQ(r.params.o_seq, 8 * 128);
  EXPECT_EQ(r.params.lse_head, 700);
  EXPECT_EQ(r.params.shape.cu_seqlens_q, &offsets[0]);
  EXPECT_EQ(r.params.shape.cu_seqlens_k, &offsets[1]);
  EXPECT_EQ(r.params.shape.m_blocks, 4);  // ceil(400 / 128): the longest sequence's tiles
  // the launchers' shared derivation, as problem.hpp's example says, and for the fixed-length form
  kernels::AttentionSm90Extents const e = kernels::attention_sm90_extents(attention_sm90_jit_typed<half_t>(p), 128);
  EXPECT_EQ(e.batch, 1);
  EXPECT_EQ(e.rows_q, 700);
  EXPECT_EQ(e.rows_k, 900);
  EXPECT_EQ(e.o_batch, 0);
  EXPECT_EQ(e.lse_head, 700);
  EXPECT_EQ(e.tiles, 4 * 8 * 3);
  AttentionSm90JitProblem const fixed = problem(2, 8, 2, 1000, 300, 128);
  kernels::AttentionSm90Extents const f = kernels::attention_sm90_extents(attention_sm90_jit_typed<half_t>(fixed), 128);
  EXPECT_EQ(f.batch, 2);
  EXPECT_EQ(f.rows_q, 1000);
  EXPECT_EQ(f.rows_k, 300);
  EXPECT_EQ(f.o_batch, fixed.o_strides.batch);
  EXPECT_EQ(f.lse_head, 1000);
  EXPECT_EQ(f.tiles, 8 * 8 * 2);
  EXPECT_TRUE(r.params.shape.bottom_right);
  EXPECT_EQ(r.blocks, 4u * 8 * 3);
}

TEST(JitAttentionSm90, StridesOverExtentsOfOneReachPastTheTensor) {
  // batch 1, one head, one query: only head_dim's extent is used; the other strides are the
  // problem's anything, replaced by one past the tensor (a multiple of 16 bytes)
  AttentionSm90JitProblem p = problem(1, 1, 1, 1, 40, 64);
  p.q_strides = {3, 5, 7, 1};
  std::vector<AttentionSm90TmaMap> maps;
  (void)attention_sm90_jit_params<128>(attention_sm90_jit_kernel(p), p, Recorder{&maps});
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_EQ(maps[0].strides[0], 128u);
  EXPECT_EQ(maps[0].strides[1], 128u);
  EXPECT_EQ(maps[0].strides[2], 128u);
  // K's seq stride is used (40 keys); its head and batch strides reach past the 40 rows
  EXPECT_EQ(maps[1].strides[0], 128u);
  EXPECT_EQ(maps[1].strides[1], 40u * 128);
  EXPECT_EQ(maps[1].strides[2], 40u * 128);
}

TEST(JitAttentionSm90, AStrideTmaCannotTakeIsRefused) {
  // 2^40 bytes and beyond: the problem's checks pass, TMA's rule does not
  AttentionSm90JitProblem p = problem(2, 2, 1, 4, 4, 64);
  p.q_strides.batch = (1LL << 39);  // elements: 2^40 bytes
  check_attention_sm90_jit_problem("f", p);
  std::vector<AttentionSm90TmaMap> maps;
  try {
    (void)attention_sm90_jit_params<128>(attention_sm90_jit_kernel(p), p, Recorder{&maps});
    FAIL() << "a stride of 2^40 bytes was taken";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(
        std::string(e.what()).find("the tensor map of Q: stride 3 must be a positive multiple of 16 bytes below 2^40"),
        std::string::npos)
        << e.what();
  }
}

// The rules, one broken at a time, with check_attention_problem's messages.
TEST(JitAttentionSm90, TheChecksNameTheBrokenRule) {
  struct Case {
    void (*edit)(AttentionSm90JitProblem&);
    char const* message;
  };
  std::vector<Case> const cases = {
      {[](AttentionSm90JitProblem& p) { p.batch = 0; }, "f: batch must be >= 1 (got 0)"},
      {[](AttentionSm90JitProblem& p) { p.seq_k = -1; }, "f: seq_k must be >= 1 (got -1)"},
      {[](AttentionSm90JitProblem& p) { p.head_dim = 96; }, "f: head_dim must be 64, 128 or 256 (got 96)"},
      {[](AttentionSm90JitProblem& p) { p.heads_kv = 3; },
       "f: heads_kv must divide heads_q (got heads_q = 8, heads_kv = 3)"},
      {[](AttentionSm90JitProblem& p) { p.k = nullptr; }, "f: k must not be null"},
      {[](AttentionSm90JitProblem& p) { p.o = reinterpret_cast<void*>((std::uintptr_t(1) << 40) + 8); },
       "f: o must be 16-byte aligned (got address 1099511627784)"},
      {[](AttentionSm90JitProblem& p) { p.lse = reinterpret_cast<float*>((std::uintptr_t(1) << 44) + 2); },
       "f: lse must be 4-byte aligned (got address 17592186044418)"},
      {[](AttentionSm90JitProblem& p) { p.v_strides.dim = 2; },
       "f: v's head_dim stride must be 1 (TMA reads contiguous rows) (got 2)"},
      {[](AttentionSm90JitProblem& p) { p.k_strides.head = 0; },
       "f: k's head stride must be a positive multiple of 8 elements (16 bytes, for TMA) (got 0)"},
      {[](AttentionSm90JitProblem& p) { p.q_strides.seq = 132; },
       "f: q's seq stride must be a positive multiple of 8 elements (16 bytes, for TMA) (got 132)"},
      {[](AttentionSm90JitProblem& p) { p.o_strides.seq = 64; },
       "f: o's seq stride must be >= head_dim = 128 (got 64)"},
      {[](AttentionSm90JitProblem& p) { p.scale = -1.0f; },
       "f: scale must be 0 (1/sqrt(head_dim)) or positive and finite (got -1.000000)"},
      {[](AttentionSm90JitProblem& p) { p.scale = std::numeric_limits<float>::infinity(); },
       "f: scale must be 0 (1/sqrt(head_dim)) or positive and finite (got inf)"},
      {[](AttentionSm90JitProblem& p) { p.causal = kernels::AttentionCausal(3); },
       "f: causal must be AttentionCausal::none, top_left or bottom_right (got 3)"},
      {[](AttentionSm90JitProblem& p) { p.cu_seqlens_q = reinterpret_cast<int const*>(std::uintptr_t(1) << 12); },
       "f: cu_seqlens_q and cu_seqlens_k must be given together (got cu_seqlens_q set, cu_seqlens_k null)"},
      {[](AttentionSm90JitProblem& p) {
         varlen(p);
         p.cu_seqlens_k = reinterpret_cast<int const*>((std::uintptr_t(1) << 12) + 2);
       },
       "f: cu_seqlens_k must be 4-byte aligned (got address 4098)"},
      {[](AttentionSm90JitProblem& p) {
         varlen(p);
         p.total_k = 0;
       },
       "f: total_k must be >= 1 (got 0)"},
      {[](AttentionSm90JitProblem& p) {
         varlen(p);
         p.total_q = 99;
       },
       "f: the longest sequences cannot exceed the packed rows (got seq_q = 100, total_q = 99, seq_k = 200, total_k "
       "= 400)"},
      {[](AttentionSm90JitProblem& p) {
         varlen(p);
         p.q_strides.seq = 100;
       },
       "f: q's seq stride must be a positive multiple of 8 elements (16 bytes, for TMA) (got 100)"},
  };
  for (Case const& c : cases) {
    AttentionSm90JitProblem p = problem(2, 8, 2, 100, 200, 128);
    c.edit(p);
    try {
      check_attention_sm90_jit_problem("f", p);
      ADD_FAILURE() << "accepted: " << c.message;
    } catch (std::invalid_argument const& e) {
      EXPECT_EQ(std::string(e.what()), c.message);
    }
  }
  // extents of 1 take any stride; a strided (batch, seq, head, d) layout is fine
  AttentionSm90JitProblem p = problem(1, 1, 1, 1, 1, 64);
  p.q_strides = p.k_strides = p.v_strides = p.o_strides = {-5, 0, 3, 1};
  EXPECT_NO_THROW(check_attention_sm90_jit_problem("f", p));
  AttentionSm90JitProblem b = problem(2, 8, 8, 100, 100, 64);
  b.q_strides = b.k_strides = b.v_strides = b.o_strides = {100LL * 8 * 64, 64, 8 * 64, 1};
  EXPECT_NO_THROW(check_attention_sm90_jit_problem("f", b));
  EXPECT_THROW(attention_sm90_jit_launch(problem(1, 1, 1, 1, 1, 96), Kernel{}, nullptr), std::invalid_argument);
}

// ---- the programs ---------------------------------------------------------------------------------

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

// Every head dimension and element type, the ping-pong and overlap loops', a block a tile and persistent
// (32 programs, each ~2-20 s on a fresh machine; the disk cache then): they compile for sm_90a, so the device's AttentionSm90Params and AttentionSm90Maps,
// the kernel's parameters, tile, threads, shared memory and boxes are the host's.
TEST(JitAttentionSm90, ProgramsCompileWithTheHostsLayout) {
  TESSERA_REQUIRE_NVRTC();
  int const align = attention_sm90_jit_descriptor_align();
  EXPECT_EQ(align, Nvrtc::get().version_major() >= 13 ? 128 : 64);
  for (int i = 0; i < AttentionSm90JitKernel::kCount; ++i) {
    AttentionSm90JitKernel const k = AttentionSm90JitKernel::from_index(i);
    std::string const name = attention_sm90_jit_name(k);
    Program const p = compile(attention_sm90_jit_source(k, align), {name}, hopper());
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p.kernel(0).name(), name);
  }
}

// A host copy that drifted from the device structs (here: lse 8 bytes further; K's tensor map one
// descriptor further) does not compile, and the error names the member and the file to update; nor
// does a launch that would pass the two arguments in the other order.
TEST(JitAttentionSm90, ADriftedHostCopyIsACompileError) {
  TESSERA_REQUIRE_NVRTC();
  AttentionSm90JitKernel const k{64, true};
  std::string const good = attention_sm90_jit_source(k, attention_sm90_jit_descriptor_align());
  auto const drifted = [&](std::string const& at, std::string const& to, std::string const& message) {
    std::string source = good;
    std::size_t const i = source.find(at);
    ASSERT_NE(i, std::string::npos) << source;
    source.replace(i, at.size(), to);
    try {
      (void)compile(source, {attention_sm90_jit_name(k)}, hopper());
      FAIL() << "a drifted copy compiled: " << to;
    } catch (jit_error const& e) {
      EXPECT_NE(std::string(e.what()).find(message + " differs from the host's copy in "
                                                     "include/tessera/jit/attention_sm90.hpp"),
                std::string::npos)
          << e.what();
    }
  };
  drifted("\"the offset of AttentionSm90Params::lse\", 32u", "\"the offset of AttentionSm90Params::lse\", 40u",
          "the offset of AttentionSm90Params::lse");
  drifted("\"the offset of AttentionSm90Maps::k\", 128u", "\"the offset of AttentionSm90Maps::k\", 256u",
          "the offset of AttentionSm90Maps::k");
  // the launch's order of the two arguments
  std::string const order = "), void (*)(P, M)>, \"attention_sm90 (JIT): the kernel's parameters are no longer";
  std::string source = good;
  std::size_t const i = source.find(order);
  ASSERT_NE(i, std::string::npos) << source;
  source.replace(i, order.size(), "), void (*)(M, P)>, \"attention_sm90 (JIT): the kernel's parameters are no longer");
  try {
    (void)compile(source, {attention_sm90_jit_name(k)}, hopper());
    FAIL() << "a launch of the arguments in the other order compiled";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "the kernel's parameters are no longer (AttentionSm90Params<T>, AttentionSm90Maps<T>)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tessera::jit
