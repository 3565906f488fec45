// The block-tiled SGEMM kernel behind kernels::sgemm, configurable so that each step of the
// example ladder (examples/sgemm/, docs/background.md "SGEMM") is one configuration of it:
//
//   SgemmTiledConfig<128,128, 8, false, 1, false>  128-bit global loads; A stored transposed
//       in shared memory ((m,k) -> k*(BM+pad) + m), so a thread reads its TM values of A with
//       two 128-bit shared loads, like B; (BM,BN) = (128,128), 256 threads, (TM,TN) = (8,8).
//   <128,128, 8, false, 2, false>  + double buffering: two shared stages, the next tile's
//       global loads in flight (in registers) while the current one is multiplied; one barrier.
//   <128,128, 8, true,  2, false>  + warp tiling: a warp owns a (64,32) piece of the block
//       tile and a thread a 2x2 grid of (4,4) pieces spaced 32 rows / 16 columns apart, so a
//       warp's 128-bit shared reads are contiguous (conflict-free broadcasts).
//   <128,128,16, true,  2, true, 16, 8, true>  tuned (SgemmTuned, what sgemm() runs): 128 threads
//       of (16,8) values (4 warps of (128,32)): 6 shared reads per 128 FMAs, up to 255 registers at
//       2 blocks per SM; BK = 16 (half the barriers per FMA); grouped block order (8 block rows
//       sweep the columns together, for L2 reuse); tiles wholly inside the operands loaded without
//       predicates.
//
// Layout of the work (BM=BN=128, BK=8, 256 threads, (8,8) values per thread):
//   gA  = local_tile(mA, (BM,BK), (bm,_))                         // (BM,BK,k)
//   gAv = zipped_divide(gA, vec)     vec = (1,4) K-major / (4,1) M-major   // ((vec),(BM/vm,BK/vk,k))
//   tAgA = local_partition(grid of gAv, thrA, tid)                 // (v,k): this thread's vectors
//   sA  : (m,k) -> k*(BM+pad) + m  (A's k-major rows transposed on the way in)
//   (thr,val) -> m of C:  thr_m(tid) + val_m(i)  (val_m = (4,TM/4):(1,mstep)); the same for n.
// Operand B is handled as an (N,K) tensor, so A and B share one loader.
//
// Any M, N, K: vector loads are used where the whole 4-vector lies inside the matrix and the
// operand is 16-byte aligned with ld % 4 == 0 (a run-time flag), scalar predicated loads
// otherwise; out-of-range elements are stored as 0, so the multiply needs no predicates; the
// store of C is predicated (128-bit where possible). beta == 0 never reads C.
#pragma once

#include "tessera/kernels/common.cuh"
#include "tessera/kernels/sgemm_problem.hpp"

namespace tessera::kernels {

// Configuration of the tiled kernel: a BM x BN block tile, BK deep, (TM,TN) values per thread
// (multiples of 4: each thread holds (TM/4) x (TN/4) pieces of (4,4)). WarpTiled: a warp's 32 lanes
// form an (8,4) grid whose pieces are 32 rows / 16 columns apart (warp tile (8 TM, 4 TN)); else
// each thread's values are one contiguous (TM,TN) block. InteriorFastPath: tiles that lie wholly
// inside an aligned operand are loaded without predicates.
template <int BM_, int BN_, int BK_, bool WarpTiled_, int Stages_, bool GroupedOrder_, int TM_ = 8, int TN_ = 8,
          bool InteriorFastPath_ = false>
struct SgemmTiledConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_;
  static constexpr int TM = TM_, TN = TN_;
  static constexpr bool WarpTiled = WarpTiled_;
  static constexpr int Stages = Stages_;
  static constexpr bool GroupedOrder = GroupedOrder_;
  static constexpr bool InteriorFastPath = InteriorFastPath_;
  static constexpr int kThreads = (BM / TM) * (BN / TN);
  static constexpr int kWarpTileM = 8 * TM, kWarpTileN = 4 * TN;  // when WarpTiled
  static_assert(Stages == 1 || Stages == 2, "SgemmTiledConfig: Stages must be 1 or 2");
  static_assert(BK % 4 == 0 && BM % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0,
                "SgemmTiledConfig: BM, BN, BK, TM and TN must be multiples of the 4-float vector");
  static_assert(!WarpTiled || (BM % kWarpTileM == 0 && BN % kWarpTileN == 0),
                "SgemmTiledConfig: with warp tiling a warp covers (8 TM, 4 TN); BM and BN must be "
                "multiples of it");
  static_assert(WarpTiled || (BM % TM == 0 && BN % TN == 0), "SgemmTiledConfig: TM must divide BM and TN BN");
};

namespace detail {

// Loads the (BP,BK) tiles of one operand, seen as a (P,K) tensor, into shared memory.
// KMajor: k is the contiguous mode of the operand in global memory (row-major A, column-major B);
// then the 4-vectors run along k and are transposed into shared memory with 4 scalar stores.
// Otherwise (M- or N-major) the vectors run along p and land as one 128-bit store.
template <int BP, int BK, int NT, bool KMajor>
struct SgemmTileLoader {
  static constexpr int VP = KMajor ? 1 : 4;         // vector extent along p
  static constexpr int VK = KMajor ? 4 : 1;         // vector extent along k
  static constexpr int GP = BP / VP, GK = BK / VK;  // vector grid of one tile
  static constexpr int kVectors = GP * GK / NT;     // vectors per thread per tile
  static constexpr int kPad = KMajor ? 4 : 0;       // smem row padding: conflict-free transposed stores
  static constexpr int kRow = BP + kPad;            // smem floats per k
  static constexpr int kStageFloats = BK * kRow;    // smem floats per stage
  static_assert(GP * GK % NT == 0, "SgemmTileLoader: the tile's vectors must split evenly among the threads");

  using VecShape = decltype(make_shape(Int<VP>{}, Int<VK>{}));
  // Thread layout over the vector grid, the contiguous direction fastest (coalesced loads).
  static TESSERA_HOST_DEVICE constexpr auto thread_layout() {
    if constexpr (KMajor) {
      static_assert(NT % GK == 0, "SgemmTileLoader: threads must cover whole rows of k-vectors");
      return make_layout(make_shape(Int<NT / GK>{}, Int<GK>{}), LayoutRight{});  // (p,kv) -> thread
    } else {
      static_assert(NT % GP == 0, "SgemmTileLoader: threads must cover whole columns of p-vectors");
      return make_layout(make_shape(Int<GP>{}, Int<NT / GP>{}), LayoutLeft{});  // (pv,k) -> thread
    }
  }
  // (p,k) -> smem offset of one stage: k-major rows of kRow floats (A or B transposed).
  static TESSERA_HOST_DEVICE constexpr auto smem_layout() {
    return make_layout(make_shape(Int<BP>{}, Int<BK>{}), make_stride(_1{}, Int<kRow>{}));
  }
};

// A float4 of global memory at p whose elements are (valid) p[0..3]; invalid elements read as 0.
// full: all four valid and p 16-byte aligned (one 128-bit load).
__device__ __forceinline__ float4 load_vector_predicated(float const* p, bool full, int valid) {
  if (full) return __ldg(reinterpret_cast<float4 const*>(p));
  float4 r = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (valid > 0) r.x = __ldg(p);
  if (valid > 1) r.y = __ldg(p + 1);
  if (valid > 2) r.z = __ldg(p + 2);
  if (valid > 3) r.w = __ldg(p + 3);
  return r;
}

}  // namespace detail

// C = alpha * A * B + beta * C, C row-major. Grid: ceil(M/BM) * ceil(N/BN) blocks (1-D), block
// Cfg::kThreads. AKMajor: A row-major; BKMajor: B column-major. vec_a / vec_b: the operand allows
// aligned 128-bit loads (16-byte aligned, ld % 4 == 0); vec_c likewise for C.
template <class Cfg, bool AKMajor, bool BKMajor>
__global__ void __launch_bounds__(Cfg::kThreads, 2)  // 256 threads: <= 128 registers; 128: <= 255
    sgemm_tiled_kernel(int M, int N, int K, float alpha, float const* A, int lda, float const* B, int ldb, float beta,
                       float* C, int ldc, bool vec_a, bool vec_b, bool vec_c) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, NT = Cfg::kThreads, Stages = Cfg::Stages;
  using LoadA = detail::SgemmTileLoader<BM, BK, NT, AKMajor>;
  using LoadB = detail::SgemmTileLoader<BN, BK, NT, BKMajor>;

  // ---- which block tile: plain row order, or groups of 8 block rows sweeping the columns -----
  int const tiles_m = (M + BM - 1) / BM;
  int const tiles_n = (N + BN - 1) / BN;
  int const bid = static_cast<int>(blockIdx.x);
  int bm = bid / tiles_n, bn = bid % tiles_n;
  if constexpr (Cfg::GroupedOrder) {
    constexpr int kGroup = 8;
    int const group = bid / (kGroup * tiles_n);
    int const first_m = group * kGroup;
    int const rows = min(tiles_m - first_m, kGroup);
    int const in_group = bid % (kGroup * tiles_n);
    bm = first_m + in_group % rows;
    bn = in_group / rows;
  }

  // ---- global tensors and this thread's share of each tile -----------------------------------
  auto mA = make_tensor(make_gmem_ptr(A), make_matrix_layout<AKMajor>(M, K, lda));                // (M,K)
  auto mB = make_tensor(make_gmem_ptr(B), make_matrix_layout<BKMajor>(N, K, ldb));                // (N,K): B^T's view
  auto cA = make_identity_tensor(make_shape(M, K));                                               // (M,K) -> (m,k)
  auto cB = make_identity_tensor(make_shape(N, K));                                               // (N,K) -> (n,k)
  auto gA = local_tile(mA, make_shape(Int<BM>{}, Int<BK>{}), make_coord(bm, Underscore{}));       // (BM,BK,k)
  auto gB = local_tile(mB, make_shape(Int<BN>{}, Int<BK>{}), make_coord(bn, Underscore{}));       // (BN,BK,k)
  auto tileA_c = local_tile(cA, make_shape(Int<BM>{}, Int<BK>{}), make_coord(bm, Underscore{}));  // (BM,BK,k) -> (m,k)
  auto tileB_c = local_tile(cB, make_shape(Int<BN>{}, Int<BK>{}), make_coord(bn, Underscore{}));  // (BN,BK,k) -> (n,k)

  int const tid = static_cast<int>(threadIdx.x);
  // Vector grids: element (i,j,kt) is the first element of vector (i,j) of k-tile kt.
  auto gAv = zipped_divide(gA, typename LoadA::VecShape{});       // ((vec),(GP,GK,k))
  auto gBv = zipped_divide(gB, typename LoadB::VecShape{});       // ((vec),(GP,GK,k))
  auto cAv = zipped_divide(tileA_c, typename LoadA::VecShape{});  // ((vec),(GP,GK,k)) -> (m,k)
  auto cBv = zipped_divide(tileB_c, typename LoadB::VecShape{});  // ((vec),(GP,GK,k)) -> (n,k)
  auto tAgA = group_modes<0, 2>(
      local_partition(make_tensor(gAv.data(), layout<1>(gAv)), LoadA::thread_layout(), tid));  // (v,k)
  auto tBgB = group_modes<0, 2>(
      local_partition(make_tensor(gBv.data(), layout<1>(gBv)), LoadB::thread_layout(), tid));  // (v,k)
  auto tAcA = group_modes<0, 2>(
      local_partition(make_tensor(cAv.data(), layout<1>(cAv)), LoadA::thread_layout(), tid));  // (v,k) -> (m,k)
  auto tBcB = group_modes<0, 2>(
      local_partition(make_tensor(cBv.data(), layout<1>(cBv)), LoadB::thread_layout(), tid));  // (v,k) -> (n,k)

  // ---- shared memory: Stages x (sA, sB), k-major rows ------------------------------------------
  __shared__ alignas(16) float smem[Stages * (LoadA::kStageFloats + LoadB::kStageFloats)];
  float* const smem_a = smem;                                           // Stages x (BM,BK)
  float* const smem_b = smem + Stages * LoadA::kStageFloats;            // Stages x (BN,BK)
  auto sA0 = make_tensor(make_smem_ptr(smem_a), LoadA::smem_layout());  // (BM,BK), stage 0
  auto sB0 = make_tensor(make_smem_ptr(smem_b), LoadB::smem_layout());  // (BN,BK), stage 0
  auto sAv = zipped_divide(sA0, typename LoadA::VecShape{});            // ((vec),(GP,GK))
  auto sBv = zipped_divide(sB0, typename LoadB::VecShape{});            // ((vec),(GP,GK))
  auto tAsA =
      group_modes<0, 2>(local_partition(make_tensor(sAv.data(), layout<1>(sAv)), LoadA::thread_layout(), tid));  // (v)
  auto tBsB =
      group_modes<0, 2>(local_partition(make_tensor(sBv.data(), layout<1>(sBv)), LoadB::thread_layout(), tid));  // (v)
  static_assert(decltype(size(tAsA))::value == LoadA::kVectors && decltype(size(tBsB))::value == LoadB::kVectors,
                "sgemm_tiled_kernel: each thread loads kVectors vectors of each operand");

  // ---- the (thr,val) -> (m,n) map of C inside the block tile -------------------------------------
  // thr_m / thr_n: thread -> first row / column of its values; val: (4,2):(1,step) -> offset.
  constexpr int TM = Cfg::TM, TN = Cfg::TN;
  auto thr_mn = [] {
    if constexpr (Cfg::WarpTiled) {
      // tid = ln + 4 lm + 32 wn + 32 (BN/WTN) wm: lanes (4,8) covering (32 rows, 16 cols) per
      // piece, warps (BN/WTN, BM/WTM) over (WTM,WTN) = (8 TM, 4 TN) warp tiles. For (8,8) values:
      // (_4,_8,_4,_2):(_0,_4,_0,_64) -> m and (_4,_8,_4,_2):(_4,_0,_32,_0) -> n.
      constexpr int WTM = Cfg::kWarpTileM, WTN = Cfg::kWarpTileN;
      auto shape = make_shape(_4{}, _8{}, Int<BN / WTN>{}, Int<BM / WTM>{});
      return make_tuple(make_layout(shape, make_stride(_0{}, _4{}, _0{}, Int<WTM>{})),   // tid -> m
                        make_layout(shape, make_stride(_4{}, _0{}, Int<WTN>{}, _0{})));  // tid -> n
    } else {
      // tid = tc + (BN/TN) tr: row-major (BM/TM, BN/TN) thread grid, (8,8) contiguous values.
      auto shape = make_shape(Int<BN / Cfg::TN>{}, Int<BM / Cfg::TM>{});
      return make_tuple(make_layout(shape, make_stride(_0{}, Int<Cfg::TM>{})),   // tid -> m
                        make_layout(shape, make_stride(Int<Cfg::TN>{}, _0{})));  // tid -> n
    }
  }();
  constexpr int kStepM = Cfg::WarpTiled ? 32 : 4;
  constexpr int kStepN = Cfg::WarpTiled ? 16 : 4;
  auto val_m = make_layout(make_shape(_4{}, Int<TM / 4>{}), make_stride(_1{}, Int<kStepM>{}));  // i -> m offset
  auto val_n = make_layout(make_shape(_4{}, Int<TN / 4>{}), make_stride(_1{}, Int<kStepN>{}));  // j -> n offset
  int const m0 = static_cast<int>(get<0>(thr_mn)(tid));
  int const n0 = static_cast<int>(get<1>(thr_mn)(tid));

  float acc[TM][TN];
  TESSERA_UNROLL
  for (int i = 0; i < TM; ++i) {
    TESSERA_UNROLL
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  }

  // ---- gmem -> registers -> smem ---------------------------------------------------------------
  float4 ra[LoadA::kVectors];
  float4 rb[LoadB::kVectors];
  // With InteriorFastPath, a tile wholly inside an aligned operand takes unpredicated 128-bit
  // loads; edge tiles (and every tile otherwise) the predicated ones.
  bool const a_rows_inside = vec_a && (bm + 1) * BM <= M;
  bool const b_rows_inside = vec_b && (bn + 1) * BN <= N;
  auto load_tile_predicated = [&](int kt) {
    TESSERA_UNROLL
    for (int v = 0; v < LoadA::kVectors; ++v) {
      auto c = tAcA(v, kt);  // (m,k) of the vector's first element
      int const m = get<0>(c), k = get<1>(c);
      int const valid = m >= M ? 0 : (AKMajor ? min(4, K - k) : (k >= K ? 0 : min(4, M - m)));
      ra[v] = detail::load_vector_predicated(&tAgA(v, kt), vec_a && valid == 4, valid);
    }
    TESSERA_UNROLL
    for (int v = 0; v < LoadB::kVectors; ++v) {
      auto c = tBcB(v, kt);  // (n,k) of the vector's first element
      int const n = get<0>(c), k = get<1>(c);
      int const valid = n >= N ? 0 : (BKMajor ? min(4, K - k) : (k >= K ? 0 : min(4, N - n)));
      rb[v] = detail::load_vector_predicated(&tBgB(v, kt), vec_b && valid == 4, valid);
    }
  };
  auto load_tile = [&](int kt) {
    if constexpr (Cfg::InteriorFastPath) {
      if (a_rows_inside && b_rows_inside && (kt + 1) * BK <= K) {
        TESSERA_UNROLL
        for (int v = 0; v < LoadA::kVectors; ++v) ra[v] = __ldg(reinterpret_cast<float4 const*>(&tAgA(v, kt)));
        TESSERA_UNROLL
        for (int v = 0; v < LoadB::kVectors; ++v) rb[v] = __ldg(reinterpret_cast<float4 const*>(&tBgB(v, kt)));
        return;
      }
    }
    load_tile_predicated(kt);
  };
  auto store_vectors = [](auto const& tXsX, float4 const* r, int stage_offset, auto loader) {
    using Loader = decltype(loader);
    TESSERA_UNROLL
    for (int v = 0; v < Loader::kVectors; ++v) {
      float* s = &tXsX(v) + stage_offset;
      if constexpr (Loader::VK == 4) {  // k-major operand: transpose into the k-major rows
        s[0 * Loader::kRow] = r[v].x;
        s[1 * Loader::kRow] = r[v].y;
        s[2 * Loader::kRow] = r[v].z;
        s[3 * Loader::kRow] = r[v].w;
      } else {
        *reinterpret_cast<float4*>(s) = r[v];
      }
    }
  };
  auto store_tile = [&](int stage) {
    store_vectors(tAsA, ra, stage * LoadA::kStageFloats, LoadA{});
    store_vectors(tBsB, rb, stage * LoadB::kStageFloats, LoadB{});
  };

  // ---- smem -> registers -> FMA ----------------------------------------------------------------
  auto multiply_tile = [&](int stage) {
    float const* sa = smem_a + stage * LoadA::kStageFloats + m0;
    float const* sb = smem_b + stage * LoadB::kStageFloats + n0;
    TESSERA_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      // This k's column of A and row of B: (TM/4) and (TN/4) 128-bit reads, all issued first.
      float4 av[TM / 4], bv[TN / 4];
      TESSERA_UNROLL
      for (int i = 0; i < TM / 4; ++i) av[i] = *reinterpret_cast<float4 const*>(sa + kk * LoadA::kRow + val_m(4 * i));
      TESSERA_UNROLL
      for (int j = 0; j < TN / 4; ++j) bv[j] = *reinterpret_cast<float4 const*>(sb + kk * LoadB::kRow + val_n(4 * j));
      float a[TM], b[TN];
      TESSERA_UNROLL
      for (int i = 0; i < TM / 4; ++i) {
        a[4 * i] = av[i].x;
        a[4 * i + 1] = av[i].y;
        a[4 * i + 2] = av[i].z;
        a[4 * i + 3] = av[i].w;
      }
      TESSERA_UNROLL
      for (int j = 0; j < TN / 4; ++j) {
        b[4 * j] = bv[j].x;
        b[4 * j + 1] = bv[j].y;
        b[4 * j + 2] = bv[j].z;
        b[4 * j + 3] = bv[j].w;
      }
      TESSERA_UNROLL
      for (int i = 0; i < TM; ++i) {
        TESSERA_UNROLL
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
  };

  // ---- main loop ---------------------------------------------------------------------------------
  int const k_tiles = (K + BK - 1) / BK;
  if (k_tiles > 0) {
    load_tile(0);
    store_tile(0);
  }
  __syncthreads();
  for (int kt = 0; kt < k_tiles; ++kt) {
    if constexpr (Stages == 2) {
      int const stage = kt & 1;
      if (kt + 1 < k_tiles) load_tile(kt + 1);  // in flight during the multiply
      multiply_tile(stage);
      if (kt + 1 < k_tiles) store_tile(stage ^ 1);  // the other stage: last read before the previous barrier
      __syncthreads();
    } else {
      multiply_tile(0);
      __syncthreads();
      if (kt + 1 < k_tiles) {
        load_tile(kt + 1);
        store_tile(0);
      }
      __syncthreads();
    }
  }

  // ---- registers -> C: C = alpha acc + beta C, predicated, 128-bit where possible ---------------
  auto mC = make_tensor(make_gmem_ptr(C), make_matrix_layout<true>(M, N, ldc));    // (M,N)
  auto gC = local_tile(mC, make_shape(Int<BM>{}, Int<BN>{}), make_coord(bm, bn));  // (BM,BN)
  int const row0 = bm * BM + m0;
  int const col0 = bn * BN + n0;
  TESSERA_UNROLL
  for (int i = 0; i < TM; ++i) {
    int const row = row0 + val_m(i);
    if (row >= M) continue;
    TESSERA_UNROLL
    for (int jv = 0; jv < TN / 4; ++jv) {
      int const col = col0 + val_n(4 * jv);
      float* c = &gC(m0 + val_m(i), n0 + val_n(4 * jv));
      float const* v = &acc[i][4 * jv];
      if (vec_c && col + 3 < N) {
        float4 out = make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
        if (beta != 0.0f) {
          float4 const old = *reinterpret_cast<float4 const*>(c);
          out.x += beta * old.x;
          out.y += beta * old.y;
          out.z += beta * old.z;
          out.w += beta * old.w;
        }
        *reinterpret_cast<float4*>(c) = out;
      } else {
        TESSERA_UNROLL
        for (int j = 0; j < 4; ++j) {
          if (col + j < N) c[j] = beta == 0.0f ? alpha * v[j] : alpha * v[j] + beta * c[j];
        }
      }
    }
  }
}

#if !defined(__CUDACC_RTC__)  // host only: the launch
// Launches the tiled kernel with configuration Cfg for a row-major-C problem.
template <class Cfg>
void launch_sgemm_tiled(SgemmProblem const& p, cudaStream_t stream) {
  unsigned const blocks = static_cast<unsigned>(((p.m + Cfg::BM - 1) / Cfg::BM) * ((p.n + Cfg::BN - 1) / Cfg::BN));
  bool const ak = p.a_major == Major::row;  // A (M,K) k-major
  bool const bk = p.b_major == Major::col;  // B (K,N) seen as (N,K): k-major when column-major
  bool const vec_a = detail::vector_aligned(p.a, p.lda);
  bool const vec_b = detail::vector_aligned(p.b, p.ldb);
  bool const vec_c = detail::vector_aligned(p.c, p.ldc);
  auto launch = [&](auto kernel) {
    kernel<<<blocks, Cfg::kThreads, 0, stream>>>(p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc,
                                                 vec_a, vec_b, vec_c);
  };
  if (ak && bk) launch(sgemm_tiled_kernel<Cfg, true, true>);
  if (ak && !bk) launch(sgemm_tiled_kernel<Cfg, true, false>);
  if (!ak && bk) launch(sgemm_tiled_kernel<Cfg, false, true>);
  if (!ak && !bk) launch(sgemm_tiled_kernel<Cfg, false, false>);
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera::kernels
