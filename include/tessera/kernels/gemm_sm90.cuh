// Hopper GEMM, step 1 of the ladder (docs/performance.md, "Hopper GEMM"): TMA loads into a ring
// of shared-memory stages completing on mbarriers, wgmma from shared memory, one warpgroup.
//   gemm_sm90<T, TOut>(problem, stream)        the default configuration (GemmSm90Default)
//   gemm_sm90<Cfg, T, TOut>(problem, stream)   any GemmSm90Config
// D = alpha A B + beta C for T = half_t or bfloat16_t, fp32 accumulation, TOut = float, half_t or
// bfloat16_t; any M, N, K >= 1 (TMA reads zeros outside the matrices, the epilogue stores only
// inside D); A and B row- or column-major. Operands TMA cannot address (not 16-byte aligned, or a
// row pitch that is not a multiple of 16 bytes) are first packed into aligned buffers.
//
// The block (one warpgroup, 128 threads) computes a BM x BN tile of D:
//   * stage s holds A's BM x BK and B's BN x BK tiles in the canonical 128-byte-swizzled layouts
//     of atom/mma_traits_sm90.hpp (K-major or MN-major after the operand's major), written by TMA
//     boxes of 64 contiguous elements (one swizzle span) and completing on full[s];
//   * thread 0 keeps Stages k-tiles in flight: after the wgmmas of k-tile kt are issued and those of
//     kt-1 have retired (warpgroup_wait<1>), k-tile kt-1+Stages is loaded into kt-1's stage;
//   * per k-tile, BK/16 x BM/64 wgmma m64nBNk16 with descriptors from make_gmma_desc;
//   * the accumulators are partitioned by the tiled MMA of the wgmma atom (partition_C), which
//     gives each thread's (m, n) for the epilogue.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/atom/mma_atom.hpp"
#include "tessera/atom/mma_traits_sm90.hpp"
#include "tessera/kernels/gemm_problem.hpp"
#include "tessera/kernels/gemm_sm80.cuh"
#include "tessera/tensor/tensor.hpp"

namespace tessera::kernels {

// GemmSm90Config<BM, BN, BK, Stages>: the block tile and the depth of the shared-memory ring.
template <int BM_, int BN_, int BK_, int Stages_>
struct GemmSm90Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr int kThreads = 128;  // one warpgroup
  static_assert(BM % 64 == 0 && BM <= 256, "GemmSm90Config: BM must be a multiple of 64 (the wgmma's M), at most 256");
  static_assert(BN % 64 == 0 && BN <= 256, "GemmSm90Config: BN must be 64, 128, 192 or 256 (whole 64-element swizzle spans)");
  static_assert(BK == 64, "GemmSm90Config: BK must be 64 (one 128-byte swizzle span of 16-bit elements)");
  static_assert(Stages >= 2, "GemmSm90Config: at least two stages");
  static_assert(BM / 64 * BN / 2 <= 128, "GemmSm90Config: the accumulators exceed 128 registers a thread");
};

using GemmSm90Default = GemmSm90Config<128, 128, 64, 4>;

namespace detail {

// The wgmma for the input type, N = BN, with the operands' majors.
template <class T, int BN, GmmaMajor MA, GmmaMajor MB>
struct GemmSm90Op;
#define TESSERA_GEMM_SM90_OP(N)                                                 \
  template <GmmaMajor MA, GmmaMajor MB>                                         \
  struct GemmSm90Op<bfloat16_t, N, MA, MB> {                                    \
    using type = SM90_64x##N##x16_F32BF16BF16_SS<MA, MB>;                       \
  };                                                                            \
  template <GmmaMajor MA, GmmaMajor MB>                                         \
  struct GemmSm90Op<half_t, N, MA, MB> {                                        \
    using type = SM90_64x##N##x16_F32F16F16_SS<MA, MB>;                         \
  };
TESSERA_GEMM_SM90_OP(64)
TESSERA_GEMM_SM90_OP(128)
TESSERA_GEMM_SM90_OP(192)
TESSERA_GEMM_SM90_OP(256)
#undef TESSERA_GEMM_SM90_OP

// The stage layout of an operand tile (BP x BK), (p,k) -> element offset, without its swizzle:
// K-major: rows of 64 K-elements; MN-major: K-rows of 64 P-elements, the K groups of one 64-wide
// P chunk consecutive (what one TMA box of 64 x BK writes).
template <int BP, int BK, bool KMajor>
TESSERA_HOST_DEVICE constexpr auto gemm_sm90_stage_layout() {
  if constexpr (KMajor) {
    return tile_to_shape(GmmaLayoutKSw128Atom{}.inner(), Shape<Int<BP>, Int<BK>>{});
  } else {
    return tile_to_shape(GmmaLayoutMNSw128Atom{}.inner(), Shape<Int<BP>, Int<BK>>{}, LayoutRight{});
  }
}

template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(128, 1)
    gemm_sm90_kernel(int M, int N, int K, float alpha, float beta, TOut const* C, int ldc, TOut* D, int ldd,
                     __grid_constant__ TmaDescriptor const tma_a, __grid_constant__ TmaDescriptor const tma_b) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages;
  constexpr GmmaMajor MA = AKMajor ? GmmaMajor::K : GmmaMajor::MN;
  constexpr GmmaMajor MB = BKMajor ? GmmaMajor::K : GmmaMajor::MN;
  using Op = typename GemmSm90Op<T, BN, MA, MB>::type;
  constexpr auto sA_layout = gemm_sm90_stage_layout<BM, BK, AKMajor>();  // (BM,BK) -> offset
  constexpr auto sB_layout = gemm_sm90_stage_layout<BN, BK, BKMajor>();  // (BN,BK) -> offset
  constexpr int kStageA = BM * BK, kStageB = BN * BK;                    // elements
  constexpr std::uint32_t kStageBytes = std::uint32_t(kStageA + kStageB) * sizeof(T);
  constexpr int MB_ = BM / 64;  // wgmmas along M

  int const tid = int(threadIdx.x);
  int const tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  int bm = 0, bn = 0;
  gemm_block_coord(int(blockIdx.x), tiles_m, tiles_n, bm, bn);
  int const k_tiles = (K + BK - 1) / BK;

  // ---- shared memory: Stages x (A, B), 1024-byte aligned, and the barriers ----------------------
  extern __shared__ unsigned char gemm_sm90_smem[];
  auto* base = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(gemm_sm90_smem) + 1023) & ~std::uintptr_t(1023));
  T* sA = reinterpret_cast<T*>(base);
  T* sB = sA + Stages * kStageA;
  auto* full = reinterpret_cast<std::uint64_t*>(sB + Stages * kStageB);
  if (tid == 0) {
    tma_prefetch_desc(&tma_a);
    tma_prefetch_desc(&tma_b);
    for (int s = 0; s < Stages; ++s) mbarrier_init(&full[s], 1);
    fence_barrier_init();
  }
  __syncthreads();

  // Thread 0: k-tile kt into stage s (A then B, in boxes of 64 contiguous elements).
  auto load = [&](int kt, int s) {
    mbarrier_arrive_expect_tx(&full[s], kStageBytes);
    T* a = sA + s * kStageA;
    T* b = sB + s * kStageB;
    if constexpr (AKMajor) {
      SM90_TMA_LOAD_2D::copy(&tma_a, &full[s], a, kt * BK, bm * BM);
    } else {
      TESSERA_UNROLL
      for (int c = 0; c < BM / 64; ++c) SM90_TMA_LOAD_2D::copy(&tma_a, &full[s], a + c * 64 * BK, bm * BM + 64 * c, kt * BK);
    }
    if constexpr (BKMajor) {
      SM90_TMA_LOAD_2D::copy(&tma_b, &full[s], b, kt * BK, bn * BN);
    } else {
      TESSERA_UNROLL
      for (int c = 0; c < BN / 64; ++c) SM90_TMA_LOAD_2D::copy(&tma_b, &full[s], b + c * 64 * BK, bn * BN + 64 * c, kt * BK);
    }
  };
  if (tid == 0) {
    for (int s = 0; s < Stages && s < k_tiles; ++s) load(s, s);
  }

  // ---- the accumulators: BM/64 wgmma tiles of 64 x BN, BN/2 registers each -------------------
  // Not initialized: the first k-block's wgmmas overwrite them (GmmaScale::zero). Instructions
  // that wrote them between wgmmas would make ptxas serialize the wgmmas (warning C7515).
  float acc[MB_][BN / 2];
  auto fence_acc = [&] {
    TESSERA_UNROLL
    for (int i = 0; i < MB_; ++i) {
      TESSERA_UNROLL
      for (int j = 0; j < BN / 2; ++j) warpgroup_fence_operand(acc[i][j]);
    }
  };
  std::uint32_t const a_base = smem_address(sA), b_base = smem_address(sB);

  // ---- main loop -----------------------------------------------------------------------------
  for (int kt = 0; kt < k_tiles; ++kt) {
    int const s = kt % Stages;
    mbarrier_wait(&full[s], std::uint32_t((kt / Stages) & 1));
    fence_acc();
    warpgroup_arrive();
    TESSERA_UNROLL
    for (int kb = 0; kb < BK / 16; ++kb) {
      std::uint64_t const db = make_gmma_desc<MB, BN>(b_base + std::uint32_t(s * kStageB * sizeof(T)), sB_layout, 0, 16 * kb);
      TESSERA_UNROLL
      for (int mi = 0; mi < MB_; ++mi) {
        std::uint64_t const da = make_gmma_desc<MA, 64>(a_base + std::uint32_t(s * kStageA * sizeof(T)), sA_layout, 64 * mi, 16 * kb);
        Op::fma(da, db, acc[mi], kt == 0 && kb == 0 ? GmmaScale::zero : GmmaScale::one);
      }
    }
    warpgroup_commit_batch();
    fence_acc();
    warpgroup_wait<1>();  // k-tile kt-1's wgmmas have retired: its stage may be refilled
    if (kt >= 1 && kt - 1 + Stages < k_tiles) {
      __syncthreads();  // every warp of the warpgroup is past its wait
      if (tid == 0) load(kt - 1 + Stages, (kt - 1) % Stages);
    }
  }
  warpgroup_wait<0>();
  fence_acc();

  // ---- epilogue: D = alpha acc + beta C, each thread its (m, n) from the tiled MMA ------------
  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  auto thr_mma = mma.get_slice(tid);
  auto cD = make_identity_tensor(make_shape(M, N));                                 // (M,N) -> (m,n)
  auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));  // (BM,BN) -> (m,n)
  auto tCcD = thr_mma.partition_C(gcD);                                             // (V,MB_,1) -> (m,n)
  static_assert(decltype(size<0>(tCcD.layout()))::value == BN / 2 && decltype(size<1>(tCcD.layout()))::value == MB_,
                "gemm_sm90_kernel: the tiled MMA's partition of C must match the wgmma accumulators");
  TESSERA_UNROLL
  for (int mi = 0; mi < MB_; ++mi) {
    TESSERA_UNROLL
    for (int v = 0; v < BN / 2; ++v) {
      auto c = tCcD(v, mi, 0);
      int const m = get<0>(c), n = get<1>(c);
      if (m >= M || n >= N) continue;
      float x = alpha * acc[mi][v];
      if (beta != 0.0f) x += beta * float(C[std::int64_t(m) * ldc + n]);
      D[std::int64_t(m) * ldd + n] = from_float<TOut>(x);
    }
  }
}

template <class Cfg, class T>
constexpr int gemm_sm90_smem_bytes() {
  return Cfg::Stages * (Cfg::BM + Cfg::BN) * Cfg::BK * int(sizeof(T)) + Cfg::Stages * 8 + 1024;
}

// TMA addresses an operand directly when it starts 16-byte aligned and its row pitch is a multiple
// of 16 bytes.
template <class T>
bool gemm_sm90_tma_addressable(T const* p, int ld) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && (std::size_t(ld) * sizeof(T)) % 16 == 0;
}

template <class Cfg, class T, class TOut, bool AK, bool BK>
cudaError_t gemm_sm90_launch(GemmProblem<T, TOut> const& p, cudaStream_t stream) {
  // A (M,K): K-major = row-major rows of K; MN-major = column-major, rows of M. B (K,N) seen as (N,K).
  TmaDescriptor const ta = AK ? make_tma_desc_2d(p.a, sizeof(T), p.k, p.m, p.lda, Cfg::BK, Cfg::BM, TmaSwizzle::b128)
                              : make_tma_desc_2d(p.a, sizeof(T), p.m, p.k, p.lda, 64, Cfg::BK, TmaSwizzle::b128);
  TmaDescriptor const tb = BK ? make_tma_desc_2d(p.b, sizeof(T), p.k, p.n, p.ldb, Cfg::BK, Cfg::BN, TmaSwizzle::b128)
                              : make_tma_desc_2d(p.b, sizeof(T), p.n, p.k, p.ldb, 64, Cfg::BK, TmaSwizzle::b128);
  auto kernel = gemm_sm90_kernel<Cfg, T, TOut, AK, BK>;
  constexpr int smem = gemm_sm90_smem_bytes<Cfg, T>();
  if (cudaError_t const e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem); e != cudaSuccess)
    return e;
  unsigned const blocks = unsigned((p.m + Cfg::BM - 1) / Cfg::BM) * unsigned((p.n + Cfg::BN - 1) / Cfg::BN);
  kernel<<<blocks, Cfg::kThreads, smem, stream>>>(p.m, p.n, p.k, p.alpha, p.beta, p.c, p.ldc, p.d, p.ldd, ta, tb);
  return cudaGetLastError();
}

}  // namespace detail

// gemm_sm90<Cfg, T, TOut>(problem, stream): D = alpha A B + beta C (see the file comment).
// Pre: the problem passes check_gemm_problem; a device of compute capability 9.0 (sm_90a build).
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm90(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>, "gemm_sm90: A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm90: C and D must be float, half_t or bfloat16_t");
  detail::check_gemm_problem("gemm_sm90", problem);
  GemmProblem<T, TOut> p = detail::gemm_as_row_major_d(problem);
  T* packed[2] = {nullptr, nullptr};
  // Operands TMA cannot address are packed into aligned buffers with rows padded to 8 elements.
  auto pack = [&](T const*& ptr, int& ld, Major major, int rows, int cols, T*& out) -> cudaError_t {
    if (detail::gemm_sm90_tma_addressable(ptr, ld)) return cudaSuccess;
    int const contiguous = major == Major::row ? cols : rows;
    int const lines = major == Major::row ? rows : cols;
    int const ld_packed = (contiguous + 7) / 8 * 8;
    std::size_t const count = std::size_t(lines) * std::size_t(ld_packed);
    if (cudaError_t const e = cudaMallocAsync(reinterpret_cast<void**>(&out), count * sizeof(T), stream); e != cudaSuccess) return e;
    detail::gemm_pack_kernel<T><<<unsigned((count + 255) / 256), 256, 0, stream>>>(ptr, ld, lines, contiguous, out, ld_packed);
    ptr = out;
    ld = ld_packed;
    return cudaGetLastError();
  };
  cudaError_t e = pack(p.a, p.lda, p.a_major, p.m, p.k, packed[0]);
  if (e == cudaSuccess) e = pack(p.b, p.ldb, p.b_major, p.k, p.n, packed[1]);
  if (e == cudaSuccess) {
    bool const ak = p.a_major == Major::row;  // A (M,K) K-major
    bool const bk = p.b_major == Major::col;  // B (K,N) as (N,K): K-major when column-major
    if (ak && bk) e = detail::gemm_sm90_launch<Cfg, T, TOut, true, true>(p, stream);
    else if (ak) e = detail::gemm_sm90_launch<Cfg, T, TOut, true, false>(p, stream);
    else if (bk) e = detail::gemm_sm90_launch<Cfg, T, TOut, false, true>(p, stream);
    else e = detail::gemm_sm90_launch<Cfg, T, TOut, false, false>(p, stream);
  }
  for (T* q : packed)
    if (q != nullptr) (void)cudaFreeAsync(q, stream);
  return e;
}

template <class T, class TOut>
cudaError_t gemm_sm90(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  return gemm_sm90<GemmSm90Default>(problem, stream);
}

}  // namespace tessera::kernels
