// tools/check.hpp on the library's own kernels (issue 34: the checker never rejects a pair the
// kernels use): every shared-memory tile with the instructions that write and read it, spelled as
// the kernels build them (each case names the function; these headers are CUDA-only, so the
// layouts are restated here through the run-time twin). The wgmma operand tiles of gemm_sm90 and
// attention are CheckWgmma.TheKernelsTilesAreLegalWithMakeGmmaDescsDescriptors (check.cpp), which
// builds them from the same atoms at compile time; the elementwise kernels' copies are
// CheckCopyVector.TheElementwiseKernelsCopiesAreLegal.
#include <gtest/gtest.h>

#include <string>

#include "tessera/atom/names.hpp"
#include "tessera/tools/check.hpp"

namespace {

using tessera::rt::evaluate;

tessera::rt::TiledCopy tiled(const std::string& expr) {
  return evaluate(expr, tessera::atom_names()).as<tessera::rt::TiledCopy>();
}

std::string n(int v) { return "_" + std::to_string(v); }

// gemm_sm80 (kernels/gemm_sm80.cuh) for a (BM, BN, BK) tile and WarpsM x WarpsN warps: the stage
// layouts of gemm_sm80_smem_layout, written by the cp.async copies of gemm_sm80_g2s_copy and read
// by the ldmatrix copies of GemmSm80S2RAtom made from the kernel's tiled MMA.
void expect_gemm_sm80_legal(int bm, int bn, int bk, int warps_m, int warps_n, bool a_k, bool b_k) {
  const int nt = 32 * warps_m * warps_n;
  auto smem = [&](int bp, bool k_major) {
    if (k_major)
      return "tile_to_shape(" +
             std::string(bk == 32 ? "Sw<2,3,3> o (_8,_32):(_32,_1)" : "Sw<3,3,3> o (_8,_64):(_64,_1)") + ", (" + n(bp) +
             "," + n(bk) + "))";
    return "tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (" + n(bp) + "," + n(bk) + "))";
  };
  auto g2s = [&](bool k_major) {
    const std::string atom = "Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>,half_t>";
    if (k_major) {
      const int vk = bk / 8;
      return "make_tiled_copy(" + atom + ", (" + n(nt / vk) + "," + n(vk) + "):(" + n(vk) + ",_1), (_1,_8))";
    }
    return "make_tiled_copy(" + atom + ", (_8," + n(nt / 8) + "):(_1,_8), (_8,_1))";
  };
  const std::string mma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (" + n(warps_m) + "," + n(warps_n) + ",_1), [" +
                          n(16 * warps_m) + "," + n(16 * warps_n) + ",_16])";
  auto s2r = [&](char operand, bool k_major) {
    return std::string("make_tiled_copy_") + operand + "(Copy_Atom<" +
           (k_major ? "SM75_U32x4_LDSM_N" : "SM75_U16x8_LDSM_T") + ",half_t>, " + mma + ")";
  };
  const std::string what = "gemm_sm80 " + std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) +
                           (a_k ? " A K-major" : " A M-major") + (b_k ? ", B K-major" : ", B N-major");
  for (const auto& [operand, bp, k_major] : {std::tuple{'A', bm, a_k}, std::tuple{'B', bn, b_k}}) {
    const auto layout = evaluate(smem(bp, k_major));
    const auto w = tessera::tools::check_copy(layout, tiled(g2s(k_major)));
    EXPECT_TRUE(w.legal) << what << ", " << operand << "'s cp.async over " << smem(bp, k_major) << ": " << w.rule
                         << ": " << w.message;
    const auto r = tessera::tools::check_copy(layout, tiled(s2r(operand, k_major)));
    EXPECT_TRUE(r.legal) << what << ", " << operand << "'s ldmatrix over " << smem(bp, k_major) << ": " << r.rule
                         << ": " << r.message;
    // The model's verdict the kernel's comment states: its ldmatrix reads are conflict-free.
    EXPECT_NE(r.message.find("conflict-free"), std::string::npos) << what << ", " << operand << ": " << r.message;
  }
}

TEST(CheckKernels, GemmSm80TilesCopiesAndLdmatrixAreLegal) {
  expect_gemm_sm80_legal(128, 256, 32, 2, 4, true, true);  // GemmSm80Default, TN
  expect_gemm_sm80_legal(128, 256, 32, 2, 4, false, false);
  expect_gemm_sm80_legal(128, 128, 64, 2, 2, true, false);
  expect_gemm_sm80_legal(64, 64, 64, 2, 2, false, true);
}

tessera::tools::CheckResult tma(const std::string& global, const std::string& box, const std::string& tile,
                                int elem_bytes = 2) {
  return tessera::tools::check_tma(evaluate(global), evaluate(box), elem_bytes, evaluate(tile));
}

// gemm_sm90 (kernels/gemm/sm90_kernel.cuh): the boxes of gemm_sm90_load_box filling the stage
// tiles of gemm_sm90_stage_layout (K-major: the whole BP x 64 tile one box; MN-major: one box a
// 64-wide P chunk), and the epilogue's store box (gemm_sm90_epilogue_box) of a 16-bit and an fp32 D.
TEST(CheckKernels, GemmSm90TmaBoxesFillTheStageTiles) {
  for (int bp : {64, 128, 256}) {
    const std::string p = n(bp);
    auto k = tma("(4096,4096):(4096,1)", "Sw<3,3,3> o (" + p + ",_64):(_64,_1)",
                 "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (" + p + ",_64))");
    EXPECT_TRUE(k.legal) << bp << ": " << k.rule << ": " << k.message;
    auto mn = tma("(4096,4096):(1,4096)", "Sw<3,3,3> o (_64,_64):(_1,_64)",
                  "tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (" + p + ",_64), (_1,_0))");
    EXPECT_TRUE(mn.legal) << bp << ": " << mn.rule << ": " << mn.message;
  }
  auto d16 = tessera::tools::check_tma(evaluate("(4096,4096):(4096,1)"), evaluate("Sw<3,3,3> o (_64,_64):(_64,_1)"), 2);
  EXPECT_TRUE(d16.legal) << d16.message;
  auto d32 = tessera::tools::check_tma(evaluate("(4096,4096):(4096,1)"), evaluate("Sw<3,2,3> o (_64,_32):(_32,_1)"), 4);
  EXPECT_TRUE(d32.legal) << d32.message;
}

// attention_sm90 (kernels/attention/forward_sm90.cuh): Q's tile and the K and V stages, all
// attention_sm90_rows_layout<R, D> (V's B-operand view is the same bytes), loaded by load_rows in
// boxes of R rows x 64 columns, for each head dimension and its BM = 128, BN (AttentionSm90Config).
TEST(CheckKernels, AttentionSm90TmaBoxesFillItsTiles) {
  for (int d : {64, 128, 256}) {
    const int bn = d == 256 ? 64 : 128;
    for (int rows : {128, bn}) {
      const std::string global = "(4096," + std::to_string(d) + "):(" + std::to_string(d) + ",1)";
      auto r = tma(global, "Sw<3,3,3> o (" + n(rows) + ",_64):(_64,_1)",
                   "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (" + n(rows) + "," + n(d) + "))");
      EXPECT_TRUE(r.legal) << "D " << d << ", " << rows << " rows: " << r.rule << ": " << r.message;
    }
  }
}

}  // namespace
