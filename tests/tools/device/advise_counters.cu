// advise_counters.cu -- the swizzle advisor's canonical cases (issue 34) on a GPU, for Nsight
// Compute to count their bank conflicts and for the program to check their data.
//
// For each case (a shared-memory tile, the instruction that writes it, the one that reads it) the
// host asks tools::advise for the best layout, and takes also the plain, unswizzled one ("naive").
// For each of the two layouts, tools::analyze_copy gives every instruction's lane addresses and
// the tile cells each lane moves; the kernel `advise_tile` then issues exactly those instructions:
//   write   cp.async 16 B (global -> shared), stmatrix .x1/.x2/.x4, or TMA (one box, the
//           tensor map's swizzle the layout's: 32/64/128-byte or none)
//   read    ldmatrix .x1/.x2/.x4 (.trans or not) or 16-byte ld.shared, `reps` times
// Each launch runs one of three modes: 0 fills the tile with a poison value (st.shared), 1 also
// writes it, 2 also reads it. Nsight Compute's counters of mode 1 minus mode 0 are the write's,
// of mode 2 minus mode 1 the reads'. The kernel is instantiated per pair of instructions, so that
// no launch holds an instruction predicated off (Nsight Compute counts those too), and rep 0 of
// the reads, whose registers go out for the data check, is a loop of its own (no store predicated
// off in the others). advise_counters.py compares the wavefronts of the op_ld (LDS, LDSM), op_st
// (STS, STSM) and LDGSTS counters, the one counter each of these instructions has, and reports
// what the all-instruction counter adds besides (ptxas's `@!PT LDS` before each LDGSTS).
//
// The data check: the registers each read returns must hold the values of the tile cells the
// tiled copy's destination thread-value layout names (tidfrg_d), after a write whose data came
// from the cells its source thread-value layout names (tidfrg_s; TMA: the global matrix). So the
// check does not use the addresses' inverse: it fails when the layout the advice names is not
// what the writer wrote (TMA's swizzle) or when an atom's traits do not match the instruction.
//
// Output (stdout), one line per fact, for tests/tools/device/advise_counters.py:
//   MODEL  case=I variant=V write=KIND write_instr=N write_wav=W write_ideal=D read=KIND read_instr=N
//          read_wav=W read_ideal=D reps=R layout="..."   (the model, over the whole tile)
//   LAUNCH seq=S case=I variant=V mode=M                 (the order ncu numbers the kernels)
//   VERIFY case=I variant=V bad=B of=N                   (bad read registers after mode 2)
// --model-only prints the MODEL lines without a GPU. Without a GPU otherwise: a skip line, exit 0.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/advise.hpp"
#include "tessera/tools/analyze.hpp"

#define TESSERA_CHECK_CUDA(call)                                                                       \
  do {                                                                                                 \
    cudaError_t err_ = (call);                                                                         \
    if (err_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, \
                   cudaGetErrorString(err_));                                                          \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

namespace {

namespace tt = tessera::tools;
namespace rt = tessera::rt;

// The instructions the kernel can issue.
enum Kind : int { kNone = 0, kCpAsync16, kStsm, kTma, kLdsm, kLdsmT, kLds128 };
const char* kind_name(int k) {
  switch (k) {
    case kCpAsync16: return "cp.async16";
    case kStsm: return "stmatrix";
    case kTma: return "tma";
    case kLdsm: return "ldmatrix";
    case kLdsmT: return "ldmatrix.trans";
    case kLds128: return "ld.shared.v4";
    default: return "none";
  }
}

// One side's instructions: warp w's instruction k in lane l is slot (w * ni + k) * 32 + l.
struct Side {
  int kind = kNone;
  int x = 0;  // ldmatrix / stmatrix: matrices per instruction (1, 2, 4)
  int warps = 0, ni = 0;
  const int* addr = nullptr;    // byte offset in the tile; -1: the lane gives no address
  const uint4* data = nullptr;  // write: cp.async source / stmatrix registers; read: where rep 0's registers go
};

struct Params {
  Side write, read;
  int mode = 0;  // 0 fill, 1 fill + write, 2 fill + write + reads
  int reps = 1;
  int tile_bytes = 0;  // bytes poisoned (a multiple of 16)
  unsigned tma_bytes = 0;
  const unsigned* salt = nullptr;  // *salt == 0; ptxas does not know it, so reads stay in the loop
  unsigned* sink = nullptr;
};

constexpr unsigned kPoison = 0xffffffffu;

// The instructions are template arguments (the kernel is instantiated per case): with the kind or
// the matrix count a run-time value, ptxas if-converts `x == 4 ? .x4 : .x2` into two predicated
// instructions, and Nsight Compute counts the one predicated off too (an instruction executed by no
// thread still passes the LSU: smsp__inst_executed_op_ldsm and the shared-memory wavefronts
// counted it, the first device run's 2x ldmatrix count and +1 wavefront an instruction).
template <int Kind, int X>
__device__ __forceinline__ void ldsm(unsigned a, unsigned (&r)[4]) {
  if constexpr (Kind == kLdsm && X == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
  else if constexpr (Kind == kLdsm && X == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a)
                 : "memory");
  else if constexpr (Kind == kLdsm)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
  else if constexpr (X == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
  else if constexpr (X == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
}

template <int X>
__device__ __forceinline__ void stsm(unsigned a, const uint4& v) {
  if constexpr (X == 1)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(v.x) : "memory");
  else if constexpr (X == 2)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(v.x), "r"(v.y) : "memory");
  else
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w)
                 : "memory");
}

template <int RK, int RX>
__device__ __forceinline__ void read_one(unsigned at, unsigned (&v)[4]) {
  if constexpr (RK == kLds128)
    asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                 : "r"(at)
                 : "memory");
  else ldsm<RK, RX>(at, v);
}

template <int WK, int WX, int RK, int RX>
__global__ void advise_tile(const __grid_constant__ CUtensorMap tmap, const Params p) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ alignas(8) std::uint64_t bar;
  // The tile 1024-byte aligned (TMA's 128-byte swizzle; the model's banks assume 128).
  const unsigned raw = tessera::smem_address(smem_raw);
  const unsigned base = (raw + 1023u) & ~1023u;
  unsigned char* tile = smem_raw + (base - raw);
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;

  for (int i = tid * 16; i < p.tile_bytes; i += blockDim.x * 16)
    *reinterpret_cast<uint4*>(tile + i) = make_uint4(kPoison, kPoison, kPoison, kPoison);
  if constexpr (WK == kTma) {
    if (tid == 0) {
      tessera::mbarrier_init(&bar, 1);
      tessera::fence_barrier_init();
    }
  }
  __syncthreads();

  if (p.mode >= 1) {
    const Side& w = p.write;
    if constexpr (WK == kTma) {
      if (tid == 0) {
        tessera::mbarrier_arrive_expect_tx(&bar, p.tma_bytes);
        tessera::SM90_TMA_LOAD_2D::copy(&tmap, &bar, tile, 0, 0);
        tessera::mbarrier_wait(&bar, 0);
      }
    } else if (warp < w.warps) {
#pragma unroll 1
      for (int k = 0; k < w.ni; ++k) {
        const int slot = (warp * w.ni + k) * 32 + lane;
        const int a = w.addr[slot];
        if constexpr (WK == kCpAsync16) {
          if (a >= 0)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(base + unsigned(a)), "l"(w.data + slot)
                         : "memory");
        } else {
          stsm<WX>(base + unsigned(a < 0 ? 0 : a), w.data[slot]);
        }
      }
      if constexpr (WK == kCpAsync16) asm volatile("cp.async.commit_group;\ncp.async.wait_all;" ::: "memory");
    }
    __syncthreads();
  }

  if (p.mode >= 2 && warp < p.read.warps) {
    const Side& r = p.read;
    // Rep 0, its registers out for the data check (stores executed by every lane: none predicated
    // off). No loop unrolled: an unrolled loop's remainder is predicated (`@P0 LDSM` for the
    // second of two left), and Nsight Compute counts it where the predicate is off.
#pragma unroll 1
    for (int k = 0; k < r.ni; ++k) {
      const int slot = (warp * r.ni + k) * 32 + lane;
      const int a = r.addr[slot];
      unsigned v[4] = {0, 0, 0, 0};
      read_one<RK, RX>(base + unsigned(a < 0 ? 0 : a), v);
      const_cast<uint4*>(r.data)[slot] = make_uint4(v[0], v[1], v[2], v[3]);
    }
    const unsigned salt = *p.salt;
    unsigned acc = 0;
#pragma unroll 1
    for (int rep = 1; rep < p.reps; ++rep) {
      const unsigned move = (unsigned(rep) * salt) & 0x70u;  // 0 at run time; ptxas does not know it
#pragma unroll 1
      for (int k = 0; k < r.ni; ++k) {
        const int slot = (warp * r.ni + k) * 32 + lane;
        const int a = r.addr[slot];
        unsigned v[4] = {0, 0, 0, 0};
        read_one<RK, RX>(base + unsigned(a < 0 ? 0 : a) + move, v);
        acc ^= v[0] ^ v[1] ^ v[2] ^ v[3];
      }
    }
    if (acc == 0x9e3779b9u) p.sink[tid] = acc;  // keeps the repeated reads' results live
  }
}

using TileKernel = void (*)(CUtensorMap, Params);

// The instantiations the cases use (write kind, its matrices; read kind, its matrices); nullptr for
// another pair.
TileKernel tile_kernel(int wk, int wx, int rk, int rx) {
  if (wk == kCpAsync16 && rk == kLdsm && rx == 4) return advise_tile<kCpAsync16, 0, kLdsm, 4>;
  if (wk == kCpAsync16 && rk == kLdsmT && rx == 4) return advise_tile<kCpAsync16, 0, kLdsmT, 4>;
  if (wk == kStsm && wx == 4 && rk == kLds128) return advise_tile<kStsm, 4, kLds128, 0>;
  if (wk == kStsm && wx == 2 && rk == kLds128) return advise_tile<kStsm, 2, kLds128, 0>;
  if (wk == kTma && rk == kLdsm && rx == 4) return advise_tile<kTma, 0, kLdsm, 4>;
  return nullptr;
}

// ---- the cases -------------------------------------------------------------------------------

#define MMA_F16 "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))"
#define MMA_BF16 "make_tiled_mma(SM80_16x8x16_F32BF16BF16F32_TN, (_2,_2,_1))"
// A warp's C tile 16 x 16 (two atoms along N), as stmatrix.x4 needs.
#define MMA_F16_N16 "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1), [_32,_32,_16])"

struct Case {
  const char* name;
  std::int64_t m, n;
  bool row_major;
  const char* write;                // a tiled copy; nullptr: TMA
  const char* read;                 // a tiled copy
  const char* read_side = nullptr;  // "src" for a universal copy
};

const Case kCases[] = {
    {"K-major fp16 64x64: cp.async 16B -> ldmatrix.x4", 64, 64, true,
     "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))",
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " MMA_F16 ")"},
    {"K-major bf16 64x128: cp.async 16B -> ldmatrix.x4", 64, 128, true,
     "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,bfloat16_t>, (_8,_16):(_16,_1), (_1,_8))",
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,bfloat16_t>, " MMA_BF16 ")"},
    {"MN-major fp16 64x64: cp.async 16B -> ldmatrix.x4.trans", 64, 64, false,
     "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_8,_16):(_1,_8), (_8,_1))",
     "make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T,half_t>, " MMA_F16 ")"},
    {"MN-major bf16 128x64: cp.async 16B -> ldmatrix.x4.trans", 128, 64, false,
     "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,bfloat16_t>, (_16,_8):(_1,_16), (_8,_1))",
     "make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T,bfloat16_t>, " MMA_BF16 ")"},
    {"epilogue fp16 64x64: stmatrix.x4 -> ld.shared 16B", 64, 64, true,
     "make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N,half_t>, " MMA_F16_N16 ")",
     "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))", "src"},
    {"epilogue bf16 64x128: stmatrix.x2 -> ld.shared 16B", 64, 128, true,
     "make_tiled_copy_C(Copy_Atom<SM90_U32x2_STSM_N,bfloat16_t>, " MMA_BF16 ")",
     "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,bfloat16_t>, (_8,_16):(_16,_1), (_1,_8))", "src"},
    {"TMA fp16 64x64 (128-byte rows) -> ldmatrix.x4", 64, 64, true, nullptr,
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " MMA_F16 ")"},
    {"TMA fp16 64x32 (64-byte rows) -> ldmatrix.x4", 64, 32, true, nullptr,
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " MMA_F16 ")"},
    {"TMA bf16 64x16 (32-byte rows) -> ldmatrix.x4", 64, 16, true, nullptr,
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,bfloat16_t>, " MMA_BF16 ")"},
};

rt::TiledCopy tiled(const char* expr) { return rt::evaluate(expr, tessera::atom_names()).as<rt::TiledCopy>(); }

tt::CopySide side_of(const char* s) {
  if (s == nullptr) return tt::CopySide::automatic;
  return std::strcmp(s, "src") == 0 ? tt::CopySide::source : tt::CopySide::destination;
}

// The value a tile cell holds: unique, never the poison's halves.
std::uint16_t cell_value(std::int64_t cell) { return static_cast<std::uint16_t>(cell + 1); }

int kind_of(const rt::TiledCopy& c, bool write) {
  const std::string& n = c.atom.name;
  if (n.find("CP_ASYNC") != std::string::npos) return kCpAsync16;
  if (n.find("STSM") != std::string::npos) return kStsm;
  if (n.find("LDSM_T") != std::string::npos) return kLdsmT;
  if (n.find("LDSM") != std::string::npos) return kLdsm;
  if (!write && n.find("UniversalCopy") != std::string::npos) return kLds128;
  return kNone;
}

// Matrices per ldmatrix / stmatrix instruction, from the atom's name (U32x4: 4, U16x8: 4, ...).
int matrices_of(const rt::TiledCopy& c) {
  const std::string& n = c.atom.name;
  if (n.find("U32x1") != std::string::npos || n.find("U16x2") != std::string::npos) return 1;
  if (n.find("U32x2") != std::string::npos || n.find("U16x4") != std::string::npos) return 2;
  return 4;
}

// (thread, value k*vals + e) -> tile cell, for one side of a tiled copy over the tile's shape
// (as tools::analyze_copy builds it); vals = the atom's values a thread on that side.
struct SideTv {
  rt::Layout tv;
  std::int64_t vals = 0;
  std::int64_t cell(std::int64_t t, std::int64_t v) const {
    return rt::evaluate(tv, rt::make_tuple({rt::IntTuple{rt::D(t)}, rt::IntTuple{rt::D(v)}})).value;
  }
};
SideTv side_tv(const rt::TiledCopy& c, const rt::Value& mem, bool src) {
  const tt::analyze_detail::MemoryLayout ml = tt::analyze_detail::as_memory_layout(mem);
  const rt::Layout whole = rt::make_layout(ml.inner().shape);
  const rt::Layout part = src ? rt::tidfrg_s(c, whole) : rt::tidfrg_d(c, whole);
  const rt::Layout atom_tv = src ? rt::val_layout_src(c.atom) : rt::val_layout_dst(c.atom);
  SideTv s;
  s.tv = rt::make_layout(std::vector<rt::Layout>{
      rt::layout(part, 0), rt::make_layout(std::vector<rt::Layout>{rt::layout(part, 1), rt::layout(part, 2)})});
  s.vals = rt::size(rt::layout(atom_tv, 1)).value;
  return s;
}

// A thread's register values of instruction k, packed as the instruction holds them (value e at
// byte e * elem_bytes of the 16 bytes).
uint4 pack(const SideTv& s, std::int64_t t, std::int64_t k) {
  std::uint16_t h[8] = {0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff};
  for (std::int64_t e = 0; e < s.vals && e < 8; ++e) h[e] = cell_value(s.cell(t, k * s.vals + e));
  uint4 v;
  std::memcpy(&v, h, sizeof v);
  return v;
}

struct Variant {
  std::string label, layout;
  rt::Value mem;
  tt::Report write, read;
  bool has_write = false;
  int tma_swizzle_bits = 0;
};

struct Plan {  // one case's layout, ready to launch
  Params p{};
  CUtensorMap tmap{};
  int threads = 32;
  std::size_t smem = 0;
  std::vector<uint4> expect;      // read registers per slot
  std::vector<int> expect_bytes;  // bytes of each slot to compare
  uint4* read_out = nullptr;
  std::size_t read_slots = 0;
  std::vector<void*> owned;
};

// Per-slot lane addresses of a report (-1 where a lane gives none).
std::vector<int> addresses(const tt::Report& r, int& warps, int& ni) {
  warps = 0;
  ni = 0;
  for (const auto& in : r.instructions) {
    warps = std::max(warps, int(in.warp) + 1);
    ni = std::max(ni, int(in.index) + 1);
  }
  std::vector<int> a(std::size_t(warps) * ni * 32, -1);
  for (const auto& in : r.instructions)
    for (const auto& l : in.lanes)
      a[(std::size_t(in.warp) * ni + std::size_t(in.index)) * 32 + l.lane] = int(l.address);
  return a;
}

template <class T>
T* upload(const std::vector<T>& v, Plan& plan) {
  T* d = nullptr;
  TESSERA_CHECK_CUDA(cudaMalloc(&d, sizeof(T) * std::max<std::size_t>(v.size(), 1)));
  if (!v.empty()) TESSERA_CHECK_CUDA(cudaMemcpy(d, v.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice));
  plan.owned.push_back(d);
  return d;
}

Plan make_plan(const Case& c, const Variant& v, int eb, int reps, const unsigned* salt, unsigned* sink) {
  Plan plan;
  Params& p = plan.p;
  p.reps = reps;
  p.salt = salt;
  p.sink = sink;
  std::int64_t top = c.m * c.n * eb;
  const rt::TiledCopy rc = tiled(c.read);
  // Write side.
  if (c.write) {
    const rt::TiledCopy wc = tiled(c.write);
    p.write.kind = kind_of(wc, true);
    p.write.x = matrices_of(wc);
    const std::vector<int> a = addresses(v.write, p.write.warps, p.write.ni);
    for (const auto& in : v.write.instructions)
      for (const auto& l : in.lanes) top = std::max<std::int64_t>(top, l.address + l.bytes);
    std::vector<uint4> data(a.size());
    if (p.write.kind == kCpAsync16) {  // the global source of each lane's 16 bytes: its cells, in address order
      for (const auto& in : v.write.instructions)
        for (const auto& l : in.lanes) {
          std::uint16_t h[8];
          for (int e = 0; e < 8; ++e) h[e] = cell_value(l.cells[std::size_t(e)]);
          std::memcpy(&data[(std::size_t(in.warp) * p.write.ni + std::size_t(in.index)) * 32 + l.lane], h, 16);
        }
    } else {  // stmatrix: every lane's registers, from the copy's source (register) thread-value layout
      const SideTv s = side_tv(wc, v.mem, true);
      for (int w = 0; w < p.write.warps; ++w)
        for (int k = 0; k < p.write.ni; ++k)
          for (int l = 0; l < 32; ++l) data[(std::size_t(w) * p.write.ni + k) * 32 + l] = pack(s, 32 * w + l, k);
    }
    p.write.addr = upload(a, plan);
    p.write.data = upload(data, plan);
    plan.threads = std::max(plan.threads, 32 * p.write.warps);
  } else {  // TMA: the global matrix, lines of the tile's contiguous mode; one box, the whole tile
    p.write.kind = kTma;
    const std::int64_t line = c.row_major ? c.n : c.m, lines = c.row_major ? c.m : c.n;
    std::vector<std::uint16_t> g(std::size_t(c.m * c.n));
    for (std::int64_t i = 0; i < c.m; ++i)
      for (std::int64_t j = 0; j < c.n; ++j)
        g[std::size_t(c.row_major ? i * c.n + j : j * c.m + i)] = cell_value(i + c.m * j);
    const std::uint16_t* dg = upload(g, plan);
    const tessera::TmaSwizzle sw = v.tma_swizzle_bits == 3   ? tessera::TmaSwizzle::b128
                                   : v.tma_swizzle_bits == 2 ? tessera::TmaSwizzle::b64
                                   : v.tma_swizzle_bits == 1 ? tessera::TmaSwizzle::b32
                                                             : tessera::TmaSwizzle::none;
    plan.tmap = tessera::make_tma_desc_2d(dg, eb, std::uint64_t(line), std::uint64_t(lines), std::uint64_t(line),
                                          std::uint32_t(line), std::uint32_t(lines), sw);
    p.tma_bytes = unsigned(c.m * c.n * eb);
  }
  // Read side: addresses, and the registers expected from the destination thread-value layout.
  p.read.kind = kind_of(rc, false);
  p.read.x = matrices_of(rc);
  const std::vector<int> ra = addresses(v.read, p.read.warps, p.read.ni);
  for (const auto& in : v.read.instructions)
    for (const auto& l : in.lanes) top = std::max<std::int64_t>(top, l.address + l.bytes);
  const SideTv d = side_tv(rc, v.mem, false);
  plan.expect.resize(ra.size());
  plan.expect_bytes.assign(ra.size(), int(d.vals * eb));
  for (int w = 0; w < p.read.warps; ++w)
    for (int k = 0; k < p.read.ni; ++k)
      for (int l = 0; l < 32; ++l) plan.expect[(std::size_t(w) * p.read.ni + k) * 32 + l] = pack(d, 32 * w + l, k);
  p.read.addr = upload(ra, plan);
  plan.read_slots = ra.size();
  plan.read_out = upload(std::vector<uint4>(ra.size()), plan);
  p.read.data = plan.read_out;
  plan.threads = std::max(plan.threads, 32 * p.read.warps);
  p.tile_bytes = int((top + 15) / 16 * 16);
  plan.smem = std::size_t((top + 1023) / 1024 * 1024 + 1024);
  return plan;
}

void print_model(int ci, const Variant& v, int write_kind, int read_kind, int reps) {
  auto instr = [](const tt::Report& r) { return r.instructions.size(); };
  std::printf(
      "MODEL case=%d variant=%s write=%s write_instr=%zu write_wav=%lld write_ideal=%lld read=%s read_instr=%zu "
      "read_wav=%lld read_ideal=%lld reps=%d layout=\"%s\"\n",
      ci, v.label.c_str(), kind_name(write_kind), v.has_write ? instr(v.write) : std::size_t(0),
      v.has_write ? (long long)v.write.total_wavefronts() : 0LL, v.has_write ? (long long)v.write.total_ideal() : 0LL,
      kind_name(read_kind), instr(v.read), (long long)v.read.total_wavefronts(), (long long)v.read.total_ideal(), reps,
      v.layout.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // line by line, also into a file (a timeout keeps what ran)
  bool model_only = false;
  int reps = 8;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--model-only")) model_only = true;
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
  }
  int devices = 0;
  const bool gpu = !model_only && cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  if (!model_only && !gpu) {
    std::printf("no CUDA device: advise_counters skipped (run with --model-only for the model's predictions)\n");
    return 0;
  }
  unsigned *salt = nullptr, *sink = nullptr;
  if (gpu) {
    cudaDeviceProp prop{};
    TESSERA_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
    TESSERA_CHECK_CUDA(cudaMalloc(&salt, sizeof(unsigned)));
    TESSERA_CHECK_CUDA(cudaMemset(salt, 0, sizeof(unsigned)));
    TESSERA_CHECK_CUDA(cudaMalloc(&sink, sizeof(unsigned) * 1024));
  }
  int seq = 0, failures = 0;
  for (int ci = 0; ci < int(std::size(kCases)); ++ci) {
    const Case& c = kCases[ci];
    std::printf("CASE case=%d name=\"%s\"\n", ci, c.name);
    tt::AdviseRequest req;
    req.tile = {c.m, c.n};
    req.row_major = c.row_major;
    if (c.write) req.write = tt::AdviseAccess{tiled(c.write), tt::CopySide::automatic};
    else req.tma_write = true;
    req.read = tt::AdviseAccess{tiled(c.read), side_of(c.read_side)};
    const tt::Advice advice = tt::advise(req);
    const int eb = advice.elem_bytes;
    const tt::AdviseCandidate& best = advice.best();
    const tt::AdviseCandidate* naive = nullptr;
    for (const auto& k : advice.candidates)
      if (k.bits == 0 && k.pad_bytes == 0 && k.spelled.rfind("tile_to_shape", 0) != 0) naive = &k;
    std::vector<Variant> variants;
    for (const tt::AdviseCandidate* k : {&best, naive}) {
      if (k == nullptr || !k->legal) {
        std::printf("NOTE case=%d: the unswizzled layout is not legal here\n", ci);
        continue;
      }
      Variant v;
      v.label = k == &best ? "advised" : "naive";
      v.layout = k->spelled;
      v.mem = rt::evaluate(k->spelled);
      v.tma_swizzle_bits = k->bits;
      if (c.write) {
        v.write = tt::analyze_copy(v.mem, tiled(c.write), tt::MemoryKind::shared);
        v.has_write = true;
      }
      v.read = tt::analyze_copy(v.mem, tiled(c.read), tt::MemoryKind::shared, side_of(c.read_side));
      if (k->bits == best.bits && k->pad_bytes == best.pad_bytes && k != &best) continue;  // the advice is plain
      variants.push_back(std::move(v));
    }
    const int wk = c.write ? kind_of(tiled(c.write), true) : int(kTma);
    const int rk = kind_of(tiled(c.read), false);
    for (const Variant& v : variants) {
      print_model(ci, v, wk, rk, reps);
      if (!gpu) continue;
      Plan plan = make_plan(c, v, eb, reps, salt, sink);
      const TileKernel kernel = tile_kernel(plan.p.write.kind, plan.p.write.x, plan.p.read.kind, plan.p.read.x);
      if (kernel == nullptr) {
        std::printf("case %d: no kernel instantiated for these instructions (tile_kernel)\n", ci);
        return 1;
      }
      TESSERA_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
      for (int mode = 0; mode <= 2; ++mode) {
        plan.p.mode = mode;
        kernel<<<1, plan.threads, plan.smem>>>(plan.tmap, plan.p);
        TESSERA_CHECK_CUDA(cudaGetLastError());
        TESSERA_CHECK_CUDA(cudaDeviceSynchronize());
        std::printf("LAUNCH seq=%d case=%d variant=%s mode=%d\n", seq++, ci, v.label.c_str(), mode);
      }
      std::vector<uint4> got(plan.read_slots);
      TESSERA_CHECK_CUDA(cudaMemcpy(got.data(), plan.read_out, sizeof(uint4) * got.size(), cudaMemcpyDeviceToHost));
      int bad = 0;
      for (std::size_t s = 0; s < got.size(); ++s) {
        if (std::memcmp(&got[s], &plan.expect[s], std::size_t(plan.expect_bytes[s])) == 0) continue;
        if (bad++ < 3) {
          unsigned g[4], e[4];
          std::memcpy(g, &got[s], 16);
          std::memcpy(e, &plan.expect[s], 16);
          std::printf(
              "  mismatch slot %zu (warp %zu, instruction %zu, lane %zu): got %08x %08x %08x %08x, expected "
              "%08x %08x %08x %08x (%d bytes compared)\n",
              s, s / 32 / std::size_t(plan.p.read.ni), s / 32 % std::size_t(plan.p.read.ni), s % 32, g[0], g[1], g[2],
              g[3], e[0], e[1], e[2], e[3], plan.expect_bytes[s]);
        }
      }
      std::printf("VERIFY case=%d variant=%s bad=%d of=%zu\n", ci, v.label.c_str(), bad, got.size());
      failures += bad != 0;
      for (void* q : plan.owned) TESSERA_CHECK_CUDA(cudaFree(q));
    }
  }
  if (gpu) std::printf("data check: %s\n", failures == 0 ? "every read returned the cells its layout names" : "FAILED");
  return failures == 0 ? 0 : 1;
}
