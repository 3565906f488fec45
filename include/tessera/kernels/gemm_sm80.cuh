// A tensor-core GEMM written with Tessera's atoms (sm_80 instructions; runs on sm_80 and later):
//   D = act(alpha * A * B + beta * C + bias)   (bias per column, activation: GemmProblem)
// with A (M,K) and B (K,N) of half_t or bfloat16_t, each row- or column-major, fp32 accumulation,
// and C, D (M,N) of float, half_t or bfloat16_t (same type and major for both).
//
// The kernel (one thread block per (BM,BN) tile of D):
//   gmem -> smem   cp.async 128-bit copies (TiledCopy of SM80_CP_ASYNC_CACHEGLOBAL_ZFILL), a ring
//                  of Stages shared-memory tiles, zero-filled outside the matrices; a block whose
//                  tile lies inside M and N loads its full k-tiles without predicates or branches
//                  (the compiler then spreads the copies' address arithmetic between the mma
//                  instructions instead of leaving it in one block that every warp reaches at once);
//   smem layouts   swizzled so that ldmatrix reads are conflict-free (K-major: Sw<2,3,3> rows of 32
//                  or Sw<3,3,3> rows of 64 elements; M/N-major: Sw<3,3,3> columns of 64);
//   smem -> regs   ldmatrix (SM75_U32x4_LDSM_N for K-major operands, SM75_U16x8_LDSM_T for M/N-major),
//                  a TiledCopy made from the TiledMMA (make_tiled_copy_A/B), one k-block ahead;
//   math           mma.sync m16n8k16 (SM80_16x8x16_F32F16F16F32_TN / ..._F32BF16BF16F32_TN), warps in a
//                  (WarpsM, WarpsN) grid, each warp two n8 atoms wide per step;
//   epilogue       act(alpha * acc + beta * C + bias), converted and stored with predicates
//                  (GemmEpilogue, gemm_epilogue.cuh).
// No tensor is indexed by hand: every partition comes from a TiledCopy or the TiledMMA.
//
// Host API (asynchronous on a stream; std::invalid_argument for arguments outside the contract,
// otherwise the launch's cudaError_t -- docs/errors.md):
//   gemm_sm80<T, TOut>(GemmProblem<T, TOut> const&, stream)        the default configuration
//   gemm_sm80<Cfg, T, TOut>(problem, stream)                        any GemmSm80Config
// The fast path needs 16-byte aligned operands whose leading dimensions and contiguous extents are
// multiples of 8 elements; other problems first copy the misaligned operands into padded aligned
// buffers (cudaMallocAsync on the stream), then run the same kernel.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the launchers
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#endif

#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/copy_traits_sm75.hpp"
#include "tessera/atom/copy_traits_sm80.hpp"
#include "tessera/atom/mma_traits_sm80.hpp"
#include "tessera/core/stdlib.hpp"
#include "tessera/kernels/common.cuh"
#include "tessera/kernels/gemm_epilogue.cuh"
#include "tessera/kernels/gemm_problem.hpp"

namespace tessera::kernels {

// The tile configuration: (BM,BN,BK) block tile, Stages shared-memory stages, a (WarpsM,WarpsN)
// grid of warps; each warp computes a (BM/WarpsM, BN/WarpsN) piece of the tile.
template <int BM_, int BN_, int BK_, int Stages_, int WarpsM_, int WarpsN_>
struct GemmSm80Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_, WarpsM = WarpsM_, WarpsN = WarpsN_;
  static constexpr int kThreads = 32 * WarpsM * WarpsN;
  static_assert(BK == 32 || BK == 64, "GemmSm80Config: BK must be 32 or 64 (one swizzled row of the K-major tile)");
  static_assert(BM % (16 * WarpsM) == 0 && BN % (16 * WarpsN) == 0,
                "GemmSm80Config: BM must be a multiple of 16 WarpsM and BN of 16 WarpsN (the tiled MMA's tile)");
  static_assert(BM % 64 == 0 && BN % 64 == 0,
                "GemmSm80Config: BM and BN must be multiples of 64 (the M/N-major smem atom)");
  static_assert(Stages >= 2, "GemmSm80Config: at least two shared-memory stages");
};

// The default: 128x256x32 tiles, 4 stages, 8 warps of 64x64 (the fastest of the configurations
// measured on an H200: docs/performance/log.md, "Tensor-core GEMM").
using GemmSm80Default = GemmSm80Config<128, 256, 32, 4, 2, 4>;

namespace detail {

// The MMA instruction for the input type.
template <class T>
struct GemmSm80Mma;
template <>
struct GemmSm80Mma<half_t> {
  using type = SM80_16x8x16_F32F16F16F32_TN;
};
template <>
struct GemmSm80Mma<bfloat16_t> {
  using type = SM80_16x8x16_F32BF16BF16F32_TN;
};

// The shared-memory layout of one stage of an operand's tile, (BP,BK) -> element offset, swizzled
// so that ldmatrix reads are conflict-free:
//   KMajor:    (8,BK) row-major atoms; Sw<2,3,3> (BK = 32: rows of 64 bytes) or Sw<3,3,3> (BK = 64:
//              rows of 128 bytes) xors the 16-byte chunk with the row.
//   otherwise: (64,8):(1,64) atoms, 8 k-rows of 64 elements along P; Sw<3,3,3>.
// (A chunk-major K-major atom, conflict-free for the cp.async writes as well, and L1-cached copies
// (cp.async.ca) were both measured slower on an H200: docs/performance/log.md, "What limits it".)
template <int BP, int BK, bool KMajor>
TESSERA_HOST_DEVICE constexpr auto gemm_sm80_smem_layout() {
  if constexpr (KMajor) {
    if constexpr (BK == 32) {
      auto atom = composition(Swizzle<2, 3, 3>{}, make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})));
      return tile_to_shape(atom, make_shape(Int<BP>{}, Int<BK>{}));
    } else {
      auto atom = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
      return tile_to_shape(atom, make_shape(Int<BP>{}, Int<BK>{}));
    }
  } else {
    auto atom = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _8{}), make_stride(_1{}, _64{})));
    return tile_to_shape(atom, make_shape(Int<BP>{}, Int<BK>{}));
  }
}

// The gmem -> smem copy of one operand's (BP,BK) tile: 128-bit cp.async, 8 elements per thread
// contiguous along the operand's contiguous mode, threads arranged so that consecutive threads take
// consecutive vectors (coalesced).
// Zfill: the zero-filling variant, which takes a predicate per vector.
template <class T, int BP, int BK, int NT, bool KMajor, bool Zfill>
TESSERA_HOST_DEVICE constexpr auto gemm_sm80_g2s_copy() {
  using Op =
      std::conditional_t<Zfill, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>;
  using Atom = Copy_Atom<Op, T>;
  if constexpr (KMajor) {
    constexpr int VK = BK / 8;  // vectors per row
    return make_tiled_copy(
        Atom{}, make_layout(make_shape(Int<NT / VK>{}, Int<VK>{}), make_stride(Int<VK>{}, _1{})),  // (p,k) -> thr
        make_layout(make_shape(_1{}, _8{})));                                                      // (p,k) -> val
  } else {
    constexpr int VP = 64 / 8;  // vectors per 64-element column piece
    return make_tiled_copy(
        Atom{}, make_layout(make_shape(Int<VP>{}, Int<NT / VP>{}), make_stride(_1{}, Int<VP>{})),  // (p,k) -> thr
        make_layout(make_shape(_8{}, _1{})));                                                      // (p,k) -> val
  }
}

// The smem -> register copy atom of an operand: ldmatrix, transposed for an M/N-major tile.
template <class T, bool KMajor>
using GemmSm80S2RAtom = std::conditional_t<KMajor, Copy_Atom<SM75_U32x4_LDSM_N, T>, Copy_Atom<SM75_U16x8_LDSM_T, T>>;

template <class Cfg, class T, class TOut, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(Cfg::kThreads)
    gemm_sm80_kernel(int M, int N, int K, T const* A, int lda, T const* B, int ldb, GemmEpilogue<TOut> const ep) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, Stages = Cfg::Stages, NT = Cfg::kThreads;
  using Mma = typename GemmSm80Mma<T>::type;

  // ---- the block's tiles --------------------------------------------------------------------
  int const tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  int bm = 0, bn = 0;
  gemm_block_coord(int(blockIdx.x), tiles_m, tiles_n, bm, bn);
  auto mA = make_tensor(make_gmem_ptr(A), make_matrix_layout<AKMajor>(M, K, lda));  // (M,K)
  auto mB = make_tensor(make_gmem_ptr(B), make_matrix_layout<BKMajor>(N, K, ldb));  // (N,K): B seen as B^T
  auto cA = make_identity_tensor(make_shape(M, K));                                 // (M,K) -> (m,k)
  auto cB = make_identity_tensor(make_shape(N, K));                                 // (N,K) -> (n,k)
  auto blk_mk = make_shape(Int<BM>{}, Int<BK>{});
  auto blk_nk = make_shape(Int<BN>{}, Int<BK>{});
  auto gA = local_tile(mA, blk_mk, make_coord(bm, _));   // (BM,BK,k)
  auto gB = local_tile(mB, blk_nk, make_coord(bn, _));   // (BN,BK,k)
  auto gcA = local_tile(cA, blk_mk, make_coord(bm, _));  // (BM,BK,k) -> (m,k)
  auto gcB = local_tile(cB, blk_nk, make_coord(bn, _));  // (BN,BK,k) -> (n,k)

  // ---- shared memory: Stages x (sA, sB), swizzled --------------------------------------------
  extern __shared__ unsigned char gemm_sm80_smem[];
  // The swizzles act on offsets from 1024-byte aligned stages: align the block.
  T* smem = reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(gemm_sm80_smem) + 1023) & ~std::uintptr_t(1023));
  constexpr auto sA_layout = gemm_sm80_smem_layout<BM, BK, AKMajor>();  // (BM,BK) -> offset, one stage
  constexpr auto sB_layout = gemm_sm80_smem_layout<BN, BK, BKMajor>();  // (BN,BK) -> offset, one stage
  constexpr int kStageA = int(decltype(cosize(sA_layout))::value);
  constexpr int kStageB = int(decltype(cosize(sB_layout))::value);
  T* const smem_a = smem;                     // Stages x (BM,BK)
  T* const smem_b = smem + Stages * kStageA;  // Stages x (BN,BK)
  // Stage s of each operand: a tensor whose base holds the stage offset, so that the swizzled
  // offsets inside a stage are the same for every stage (computed once, not per k-tile).
  auto sA_at = [&](int s) { return make_tensor(make_smem_ptr(smem_a + s * kStageA), sA_layout); };  // (BM,BK)
  auto sB_at = [&](int s) { return make_tensor(make_smem_ptr(smem_b + s * kStageB), sB_layout); };  // (BN,BK)

  int const tid = int(threadIdx.x);

  // ---- gmem -> smem partitions ---------------------------------------------------------------
  constexpr auto g2s_A = gemm_sm80_g2s_copy<T, BM, BK, NT, AKMajor, true>();  // zero-filling
  constexpr auto g2s_B = gemm_sm80_g2s_copy<T, BN, BK, NT, BKMajor, true>();
  constexpr auto g2s_A_all = gemm_sm80_g2s_copy<T, BM, BK, NT, AKMajor, false>();  // no predicates
  constexpr auto g2s_B_all = gemm_sm80_g2s_copy<T, BN, BK, NT, BKMajor, false>();
  auto g2s_thr_A = g2s_A.get_slice(tid);
  auto g2s_thr_B = g2s_B.get_slice(tid);
  auto tAgA = g2s_thr_A.partition_S(gA);   // (CPY,CPY_M,CPY_K,k)
  auto tAcA = g2s_thr_A.partition_S(gcA);  // (CPY,CPY_M,CPY_K,k) -> (m,k)
  auto tBgB = g2s_thr_B.partition_S(gB);   // (CPY,CPY_N,CPY_K,k)
  auto tBcB = g2s_thr_B.partition_S(gcB);  // (CPY,CPY_N,CPY_K,k) -> (n,k)
  // Predicates, one per 128-bit vector: its first element inside the matrix (the extent along the
  // contiguous mode is a multiple of 8, so then the whole vector is). For the k-tiles wholly
  // inside K only the row (A) / column (B) matters: computed once.
  auto tApA_m = make_tensor<bool>(make_shape(_1{}, size<1>(tAgA), size<2>(tAgA)));  // (1,CPY_M,CPY_K)
  auto tBpB_n = make_tensor<bool>(make_shape(_1{}, size<1>(tBgB), size<2>(tBgB)));  // (1,CPY_N,CPY_K)
  TESSERA_UNROLL
  for (int i = 0; i < int(decltype(size<1>(tApA_m))::value); ++i) {
    TESSERA_UNROLL
    for (int j = 0; j < int(decltype(size<2>(tApA_m))::value); ++j) tApA_m(0, i, j) = get<0>(tAcA(0, i, j, 0)) < M;
  }
  TESSERA_UNROLL
  for (int i = 0; i < int(decltype(size<1>(tBpB_n))::value); ++i) {
    TESSERA_UNROLL
    for (int j = 0; j < int(decltype(size<2>(tBpB_n))::value); ++j) tBpB_n(0, i, j) = get<0>(tBcB(0, i, j, 0)) < N;
  }
  bool const a_inside = (bm + 1) * BM <= M;  // every row of this block's A tile is in the matrix
  bool const b_inside = (bn + 1) * BN <= N;
  int const k_tiles = (K + BK - 1) / BK;
  int const k_full_tiles = K / BK;
  // This thread's vectors of k-tile 0; k-tile kt is the same view moved by kt k-tile strides.
  auto tAgA0 = tAgA(_, _, _, 0);  // (CPY,CPY_M,CPY_K)
  auto tBgB0 = tBgB(_, _, _, 0);  // (CPY,CPY_N,CPY_K)
  auto const a_tile_step = stride<3>(tAgA);
  auto const b_tile_step = stride<3>(tBgB);
  // Issues one operand's copies of k-tile kt into its stage buffer sX; nothing past the last k-tile.
  // X: the operand's g2s partitioner pieces (view of k-tile 0, step, coordinates, row predicates).
  auto load_operand = [&](auto const& copy_pred, auto const& copy_all, auto const& tXgX0, auto const& step,
                          auto const& tXcX, auto const& tXpX_rows, bool inside, auto const& shape_xk, auto tXsX,
                          int kt) {
    if (kt >= k_tiles) return;
    auto tXgX = make_tensor(tXgX0.data() + kt * step, tXgX0.layout());  // (CPY,CPY_P,CPY_K)
    if (kt < k_full_tiles) {
      if (inside) {
        copy(copy_all, tXgX, tXsX);
      } else {
        copy_if(copy_pred, tXpX_rows, tXgX, tXsX);
      }
    } else {
      // The last, partial k-tile: rows and k.
      auto tXpX = make_tensor<bool>(tXpX_rows.layout());
      TESSERA_UNROLL
      for (int i = 0; i < int(decltype(size<1>(tXpX))::value); ++i) {
        TESSERA_UNROLL
        for (int j = 0; j < int(decltype(size<2>(tXpX))::value); ++j)
          tXpX(0, i, j) = elem_less(tXcX(0, i, j, kt), shape_xk);
      }
      copy_if(copy_pred, tXpX, tXgX, tXsX);
    }
  };
  auto shape_mk = make_shape(M, K);
  auto shape_nk = make_shape(N, K);
  auto load_a = [&](int kt, int stage) {
    load_operand(g2s_A, g2s_A_all, tAgA0, a_tile_step, tAcA, tApA_m, a_inside, shape_mk,
                 g2s_thr_A.partition_D(sA_at(stage)), kt);
  };
  auto load_b = [&](int kt, int stage) {
    load_operand(g2s_B, g2s_B_all, tBgB0, b_tile_step, tBcB, tBpB_n, b_inside, shape_nk,
                 g2s_thr_B.partition_D(sB_at(stage)), kt);
  };

  // ---- the MMA and its register fragments ----------------------------------------------------
  constexpr auto mma =
      make_tiled_mma(MMA_Atom<Mma>{}, make_layout(make_shape(Int<Cfg::WarpsM>{}, Int<Cfg::WarpsN>{}, _1{})),
                     make_tile(Int<16 * Cfg::WarpsM>{}, Int<16 * Cfg::WarpsN>{}, _16{}));
  auto thr_mma = mma.get_slice(tid);
  // Register fragments for two k-blocks of 16 (a ring: the next k-block loads while one multiplies).
  auto sA_k32 = local_tile(sA_at(0), make_shape(Int<BM>{}, _32{}), make_coord(0, 0));  // (BM,32)
  auto sB_k32 = local_tile(sB_at(0), make_shape(Int<BN>{}, _32{}), make_coord(0, 0));  // (BN,32)
  auto tCrA = thr_mma.partition_fragment_A(sA_k32);                                    // (MMA,MMA_M,2)
  auto tCrB = thr_mma.partition_fragment_B(sB_k32);                                    // (MMA,MMA_N,2)
  // fp32 accumulators (MMA,MMA_M,MMA_N) of the block's (BM,BN) tile of D.
  auto acc = thr_mma.partition_fragment_C(make_identity_tensor(make_shape(Int<BM>{}, Int<BN>{})));
  clear(acc);

  // ---- smem -> register partitions (ldmatrix) ------------------------------------------------
  constexpr auto s2r_A = make_tiled_copy_A(GemmSm80S2RAtom<T, AKMajor>{}, mma);
  constexpr auto s2r_B = make_tiled_copy_B(GemmSm80S2RAtom<T, BKMajor>{}, mma);
  auto s2r_thr_A = s2r_A.get_slice(tid);
  auto s2r_thr_B = s2r_B.get_slice(tid);
  auto tXrA = s2r_thr_A.retile_D(tCrA);  // (CPY,MMA_M,MMA_K)
  auto tXrB = s2r_thr_B.retile_D(tCrB);  // (CPY,MMA_N,MMA_K)
  // ldmatrix of k-block kb of stage s into register slot kb % 2.
  auto load_kblock = [&](int s, int kb) {
    copy(s2r_A, s2r_thr_A.partition_S(sA_at(s))(_, _, kb), tXrA(_, _, kb & 1));  // (CPY,MMA_M)
    copy(s2r_B, s2r_thr_B.partition_S(sB_at(s))(_, _, kb), tXrB(_, _, kb & 1));  // (CPY,MMA_N)
  };
  constexpr int KB = BK / 16;  // k-blocks of 16 per tile

  // ---- main loop: Stages-1 tiles in flight, one k-block of registers ahead -------------------
  // Each k-tile's copies are spread over its k-blocks: A's with the first, B's with the second
  // (the first too when there are only two).
  TESSERA_UNROLL
  for (int s = 0; s < Stages - 1; ++s) {
    load_a(s, s);
    load_b(s, s);
    cp_async_fence();
  }
  int read_stage = 0;
  int write_stage = Stages - 1;
  int next_tile = Stages - 1;
  cp_async_wait<Stages - 2>();
  __syncthreads();
  load_kblock(read_stage, 0);
  // The k-block that issues B's copies and commits the group: before the last k-block's wait, so
  // that the wait counts this group (with two k-blocks, together with A's in the first).
  constexpr int kb_b = KB > 2 ? 1 : 0;
  // One k-tile of the main loop. Fast: the block tile lies inside M and N and the k-tile loaded
  // here (next_tile) is a full one: copies without predicates or branches, so that the compiler
  // can spread their address arithmetic between the mma instructions.
  auto k_tile = [&](auto fast) {
    TESSERA_UNROLL
    for (int kb = 0; kb < KB; ++kb) {
      if (kb == KB - 1) {
        // The next stage must have landed (and every thread be done with the one it replaces).
        read_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
        cp_async_wait<Stages - 2>();
        __syncthreads();
      }
      int const kb_next = kb + 1 == KB ? 0 : kb + 1;
      load_kblock(read_stage, kb_next);
      if (kb == 0) {
        if constexpr (decltype(fast)::value) {
          auto tAgA_next = make_tensor(tAgA0.data() + next_tile * a_tile_step, tAgA0.layout());  // (CPY,CPY_M,CPY_K)
          copy(g2s_A_all, tAgA_next, g2s_thr_A.partition_D(sA_at(write_stage)));
        } else {
          load_a(next_tile, write_stage);
        }
      }
      if (kb == kb_b) {
        if constexpr (decltype(fast)::value) {
          auto tBgB_next = make_tensor(tBgB0.data() + next_tile * b_tile_step, tBgB0.layout());  // (CPY,CPY_N,CPY_K)
          copy(g2s_B_all, tBgB_next, g2s_thr_B.partition_D(sB_at(write_stage)));
        } else {
          load_b(next_tile, write_stage);
        }
        cp_async_fence();
        ++next_tile;
        write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
      }
      gemm(mma, acc, tCrA(_, _, kb & 1), tCrB(_, _, kb & 1), acc);
    }
  };
  int kt = 0;
  if (a_inside && b_inside) {
    for (; next_tile < k_full_tiles; ++kt) k_tile(std::true_type{});
  }
  for (; kt < k_tiles; ++kt) k_tile(std::false_type{});
  cp_async_wait<0>();

  // ---- epilogue: D = act(alpha acc + beta C + bias) ----------------------------------------
  auto cD = make_identity_tensor(make_shape(M, N));                                 // (M,N) -> (m,n)
  auto gcD = local_tile(cD, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));  // (BM,BN) -> (m,n)
  auto tCcD = thr_mma.partition_C(gcD);                                             // (MMA,MMA_M,MMA_N) -> (m,n)
  // Values 2j and 2j+1 of a thread are neighbouring columns of one row (the accumulator layout's
  // first value mode has stride 1 along N): stored as one pair (GemmEpilogue::store_pair).
  auto tCgD =
      thr_mma.partition_C(local_tile(make_tensor(make_gmem_ptr(ep.d), make_matrix_layout<true>(M, N, ep.ldd)),
                                     make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn)));  // (MMA,MMA_M,MMA_N)
  static_assert(decltype(get<0>(tCgD.layout())(_1{}) - get<0>(tCgD.layout())(_0{}))::value == 1,
                "gemm_sm80_kernel: accumulator values 2j, 2j+1 must be neighbouring columns of D");
  // Compact (GemmEpilogue::values): the 128 x 256 tile's accumulators leave few registers free.
  ep.template store<int(decltype(size(acc))::value), true>([&](int v) { return acc(v); },
                                                           [&](int v) { return tCcD(v); }, M, N);
}

// The kernel's dynamic shared memory: the stages of both operands plus the alignment slack.
template <class Cfg, class T>
constexpr int gemm_sm80_smem_bytes() {
  return (Cfg::Stages * (Cfg::BM + Cfg::BN) * Cfg::BK) * int(sizeof(T)) + 1024;
}
static_assert((64 * 32 * 2) % 1024 == 0, "gemm_sm80: a stage of the smallest tile must keep the 1024-byte alignment");

#if !defined(__CUDACC_RTC__)  // host only: the launch and its choice of kernel
// Whether the fast path applies to an operand: 16-byte aligned, ld and contiguous extent multiples
// of 8 elements.
template <class T>
bool gemm_operand_vectorizable(T const* p, int ld, int contiguous_extent) {
  return aligned16(p) && ld % 8 == 0 && contiguous_extent % 8 == 0;
}

template <class Cfg, class T, class TOut, bool AK, bool BK>
cudaError_t gemm_sm80_launch(GemmProblem<T, TOut> const& p, GemmEpilogue<TOut> const& ep, cudaStream_t stream) {
  auto kernel = gemm_sm80_kernel<Cfg, T, TOut, AK, BK>;
  constexpr int smem = gemm_sm80_smem_bytes<Cfg, T>();
  if (cudaError_t const e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      e != cudaSuccess) {
    return e;
  }
  unsigned const blocks = unsigned((p.m + Cfg::BM - 1) / Cfg::BM) * unsigned((p.n + Cfg::BN - 1) / Cfg::BN);
  kernel<<<blocks, Cfg::kThreads, smem, stream>>>(p.m, p.n, p.k, p.a, p.lda, p.b, p.ldb, ep);
  return cudaGetLastError();
}

// Dispatches a row-major-D, vectorizable problem to the kernel for its operand majors.
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm80_dispatch(GemmProblem<T, TOut> const& p, GemmEpilogue<TOut> const& ep, cudaStream_t stream) {
  bool const ak = p.a_major == Major::row;  // A (M,K) K-major
  bool const bk = p.b_major == Major::col;  // B (K,N) seen as (N,K): K-major when column-major
  if (ak && bk) return gemm_sm80_launch<Cfg, T, TOut, true, true>(p, ep, stream);
  if (ak) return gemm_sm80_launch<Cfg, T, TOut, true, false>(p, ep, stream);
  if (bk) return gemm_sm80_launch<Cfg, T, TOut, false, true>(p, ep, stream);
  return gemm_sm80_launch<Cfg, T, TOut, false, false>(p, ep, stream);
}
#endif  // !__CUDACC_RTC__

}  // namespace detail

#if !defined(__CUDACC_RTC__)  // host only: the launchers (a run-time compiled kernel is launched by its caller)

// gemm_sm80<Cfg, T, TOut>(problem, stream): D = act(alpha A B + beta C + bias) (see the file comment).
template <class Cfg, class T, class TOut>
cudaError_t gemm_sm80(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "gemm_sm80: A and B must be half_t or bfloat16_t");
  static_assert(std::is_same_v<TOut, float> || std::is_same_v<TOut, half_t> || std::is_same_v<TOut, bfloat16_t>,
                "gemm_sm80: C and D must be float, half_t or bfloat16_t");
  detail::check_gemm_problem("gemm_sm80", problem);
  GemmProblem<T, TOut> p = detail::gemm_as_row_major_d(problem);
  // Operands the 128-bit copies cannot read directly are packed into aligned, zero-padded buffers.
  struct Packed {
    T* ptr = nullptr;
  } pa, pb;
  auto pack = [&](T const*& ptr, int& ld, Major major, int rows, int cols, Packed& out) -> cudaError_t {
    int const contiguous = major == Major::row ? cols : rows;  // the extent along the contiguous mode
    int const lines = major == Major::row ? rows : cols;
    if (detail::gemm_operand_vectorizable(ptr, ld, contiguous)) return cudaSuccess;
    int const ld_packed = (contiguous + 7) / 8 * 8;
    std::size_t const count = std::size_t(lines) * std::size_t(ld_packed);
    if (cudaError_t const e = cudaMallocAsync(reinterpret_cast<void**>(&out.ptr), count * sizeof(T), stream);
        e != cudaSuccess) {
      return e;
    }
    detail::gemm_pack_kernel<T>
        <<<unsigned((count + 255) / 256), 256, 0, stream>>>(ptr, ld, lines, contiguous, out.ptr, ld_packed);
    ptr = out.ptr;
    ld = ld_packed;
    return cudaGetLastError();
  };
  cudaError_t e = pack(p.a, p.lda, p.a_major, p.m, p.k, pa);
  if (e == cudaSuccess) e = pack(p.b, p.ldb, p.b_major, p.k, p.n, pb);
  if (e == cudaSuccess) e = detail::gemm_sm80_dispatch<Cfg>(p, detail::make_gemm_epilogue(problem, p), stream);
  if (pa.ptr != nullptr) (void)cudaFreeAsync(pa.ptr, stream);
  if (pb.ptr != nullptr) (void)cudaFreeAsync(pb.ptr, stream);
  return e;
}

// gemm_sm80<T, TOut>(problem, stream): the default configuration (GemmSm80Default).
template <class T, class TOut>
cudaError_t gemm_sm80(GemmProblem<T, TOut> const& problem, cudaStream_t stream = nullptr) {
  return gemm_sm80<GemmSm80Default>(problem, stream);
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
