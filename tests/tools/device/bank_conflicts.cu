// bank_conflicts.cu -- checks the shared-memory model of `tessera analyze` on a GPU.
//
// For each case the host runs the model (tessera/tools/analyze.hpp), which yields, per
// instruction and lane, the byte address the model assumes. A kernel then issues exactly those
// loads (inline PTX ld.volatile.shared: a plain ld.shared of a loop-invariant address is
// hoisted out of the loop by ptxas, even from an asm volatile statement) `iters` times, one warp
// per block. Profile it with Nsight Compute to count the real wavefronts (docs/analyze.md):
//   ncu --clock-control none --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//       smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
//       ./tessera_bank_conflicts --iters 100
// (for the ldmatrix cases: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum and
// smsp__inst_executed_op_ldsm.sum).
// Without ncu, the program times each case with CUDA events and prints the time per warp-wide
// load relative to the conflict-free 4-byte case (about the wavefronts per instruction when
// the shared-memory pipe is the bottleneck). Without a GPU it prints a skip line and exits 0.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
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

struct Case {
  const char* name;
  const char* smem;    // (m,n) -> element offset
  const char* access;  // (thr,val) -> tile index, or a tiled copy of ldmatrix (then elem_bytes, vector unused)
  int elem_bytes;
  int vector;
  int ldsm = 0;  // 1, 2, 4: `access` is a tiled copy of ldmatrix .x1/.x2/.x4; warp 0's instructions run
};

#define TESSERA_MMA "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))"

// The issue's three known answers, their unswizzled / wrong-unit twins, 8-byte and broadcast.
const Case kCases[] = {
    {"fp32 32x32 row-major, read by columns", "(_32,_32):(_32,_1)", "(_32,_32):(_1,_32)", 4, 1},
    {"fp32 32x32 padded (row stride 33), by columns", "(_32,_32):(_33,_1)", "(_32,_32):(_1,_32)", 4, 1},
    {"fp16 8x64 Sw<3,3,3> (elements; = Sw<3,4,3> bytes), 16B down columns", "Sw<3,3,3> o (_8,_64):(_64,_1)",
     "((_8,_4),(_8,_2)):((_1,_64),(_8,_256))", 2, 8},
    {"fp16 8x64 unswizzled, 16B down columns", "(_8,_64):(_64,_1)", "((_8,_4),(_8,_2)):((_1,_64),(_8,_256))", 2, 8},
    {"fp16 8x64 Sw<3,4,3> on element offsets (wrong units)", "Sw<3,4,3> o (_8,_64):(_64,_1)",
     "((_8,_4),(_8,_2)):((_1,_64),(_8,_256))", 2, 8},
    {"fp32 32x32 row-major, 8B (float2) down columns", "(_32,_32):(_32,_1)", "(_32,(_2,_16)):(_1,(_32,_64))", 4, 2},
    {"fp32 32x32 row-major, 8B (float2) along rows", "(_32,_32):(_32,_1)", "((_16,_2),(_2,_16)):((_64,_1),(_32,_2))", 4,
     2},
    {"fp32 32x32, every lane the same word (broadcast)", "(_32,_32):(_32,_1)", "(_32,_32):(_0,_1)", 4, 1},
    {"ldmatrix.x4 of A from fp16 64x64 K-major, unswizzled", "(_64,_64):(_64,_1)",
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " TESSERA_MMA ")", 2, 8, 4},
    {"ldmatrix.x4 of A from fp16 64x64 K-major, Sw<3,3,3>", "Sw<3,3,3> o (_64,_64):(_64,_1)",
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, " TESSERA_MMA ")", 2, 8, 4},
    {"ldmatrix.x1 of A from fp16 64x64 K-major, unswizzled", "(_64,_64):(_64,_1)",
     "make_tiled_copy_A(Copy_Atom<SM75_U32x1_LDSM_N,half_t>, " TESSERA_MMA ")", 2, 8, 1},
};

template <int VB>
__device__ __forceinline__ unsigned load_shared(unsigned addr) {
  if constexpr (VB == 4) {
    unsigned x;
    asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(x) : "r"(addr) : "memory");
    return x;
  } else if constexpr (VB == 8) {
    unsigned x, y;
    asm volatile("ld.volatile.shared.v2.b32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(addr) : "memory");
    return x ^ y;
  } else {
    unsigned x, y, z, w;
    asm volatile("ld.volatile.shared.v4.b32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "r"(addr)
                 : "memory");
    return x ^ y ^ z ^ w;
  }
}

// One warp per block: lane l issues instruction k at byte offset offsets[k*32 + l], iters times.
template <int VB, int NI>
__global__ void shared_loads(const int* offsets, int smem_words, int iters, unsigned* out) {
  extern __shared__ __align__(16) unsigned smem[];
  const int lane = threadIdx.x;
  for (int i = lane; i < smem_words; i += 32) smem[i] = 2654435761u * static_cast<unsigned>(i + 1);
  __syncwarp();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  unsigned addr[NI];
#pragma unroll
  for (int k = 0; k < NI; ++k) addr[k] = base + static_cast<unsigned>(offsets[k * 32 + lane]);
  unsigned acc = 0;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < NI; ++k) acc ^= load_shared<VB>(addr[k]);
  }
  out[blockIdx.x * 32 + lane] = acc;
}

// The same with ldmatrix .xX: lane l gives the row address offsets[k*32 + l] of instruction k
// (lanes that give no address under .x1/.x2 pass 0; the instruction ignores them).
template <int X>
__device__ __forceinline__ unsigned ldsm(unsigned addr) {
  if constexpr (X == 1) {
    unsigned a;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(a) : "r"(addr) : "memory");
    return a;
  } else if constexpr (X == 2) {
    unsigned a, b;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr) : "memory");
    return a ^ b;
  } else {
    unsigned a, b, c, d;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "r"(addr)
                 : "memory");
    return a ^ b ^ c ^ d;
  }
}

// ldmatrix has no .volatile form, so the address moves with the iteration as far as the compiler
// knows: `salt` is 0 at run time (the same addresses every time), but ptxas cannot hoist the loads.
template <int X, int NI>
__global__ void shared_ldsm(const int* offsets, int smem_words, int iters, unsigned* out) {
  const unsigned salt = static_cast<unsigned>(offsets[NI * 32]);  // 0
  extern __shared__ __align__(16) unsigned smem[];
  const int lane = threadIdx.x;
  for (int i = lane; i < smem_words; i += 32) smem[i] = 2654435761u * static_cast<unsigned>(i + 1);
  __syncwarp();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  unsigned addr[NI];
#pragma unroll
  for (int k = 0; k < NI; ++k) addr[k] = base + static_cast<unsigned>(offsets[k * 32 + lane]);
  unsigned acc = 0;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < NI; ++k) acc ^= ldsm<X>(addr[k] + ((static_cast<unsigned>(it) * salt) & 0x70u));
  }
  out[blockIdx.x * 32 + lane] = acc;
}

using Kernel = void (*)(const int*, int, int, unsigned*);

Kernel pick_kernel(int vb, std::size_t ni, int ldsm) {
  if (ldsm == 4 && ni == 8) return shared_ldsm<4, 8>;
  if (ldsm == 1 && ni == 32) return shared_ldsm<1, 32>;
  if (ldsm != 0) return nullptr;
  if (vb == 4 && ni == 32) return shared_loads<4, 32>;
  if (vb == 16 && ni == 2) return shared_loads<16, 2>;
  if (vb == 8 && ni == 16) return shared_loads<8, 16>;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  int iters = 2000, blocks = 132 * 16;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--iters")) iters = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--blocks")) blocks = std::atoi(argv[i + 1]);
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: bank_conflicts skipped (model-only build check)\n");
    return 0;
  }
  cudaDeviceProp prop{};
  TESSERA_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d, %d SMs); %d blocks of one warp, %d iterations\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, blocks, iters);

  unsigned* out = nullptr;
  int* offsets = nullptr;
  TESSERA_CHECK_CUDA(cudaMalloc(&out, sizeof(unsigned) * 32 * static_cast<std::size_t>(blocks)));
  TESSERA_CHECK_CUDA(cudaMalloc(&offsets, sizeof(int) * (32 * 32 + 1)));
  TESSERA_CHECK_CUDA(cudaMemset(offsets, 0, sizeof(int) * (32 * 32 + 1)));
  cudaEvent_t start, stop;
  TESSERA_CHECK_CUDA(cudaEventCreate(&start));
  TESSERA_CHECK_CUDA(cudaEventCreate(&stop));

  std::printf("%-3s %-70s %8s %8s %10s\n", "#", "case", "model", "ideal", "ns/load");
  double ns_unit = 0;
  int index = 0;
  for (const Case& c : kCases) {
    namespace tt = tessera::tools;
    tt::Report r;
    if (c.ldsm) {  // the tiled copy's own instructions; one warp per block runs warp 0's
      r = tt::analyze_copy(tessera::rt::evaluate(c.smem),
                           tessera::rt::evaluate(c.access, tessera::atom_names()).as<tessera::rt::TiledCopy>(),
                           tt::MemoryKind::shared);
      std::erase_if(r.instructions, [](const tt::Instruction& in) { return in.warp != 0; });
      r.threads = 32;
    } else {
      r = tt::analyze(tessera::rt::evaluate(c.smem), tessera::rt::evaluate(c.access),
                      {tt::MemoryKind::shared, c.elem_bytes, c.vector, {}});
    }
    const std::size_t ni = r.instructions.size();
    Kernel kernel = pick_kernel(r.access_bytes, ni, c.ldsm);
    if (!kernel || r.threads != 32) {
      std::fprintf(stderr, "case %d: no kernel for %d-byte loads x %zu instructions\n", index, r.access_bytes, ni);
      return 1;
    }
    std::vector<int> host(32 * ni, 0);
    std::int64_t max_addr = 0;
    for (std::size_t k = 0; k < ni; ++k)
      for (const auto& lane : r.instructions[k].lanes) {
        host[k * 32 + static_cast<std::size_t>(lane.lane)] = static_cast<int>(lane.address);
        max_addr = std::max<std::int64_t>(max_addr, lane.address + lane.bytes);
      }
    const int smem_words = static_cast<int>((max_addr + 15) / 16 * 4);
    TESSERA_CHECK_CUDA(cudaMemcpy(offsets, host.data(), sizeof(int) * host.size(), cudaMemcpyHostToDevice));
    const std::size_t smem_bytes = sizeof(unsigned) * static_cast<std::size_t>(smem_words);
    kernel<<<blocks, 32, smem_bytes>>>(offsets, smem_words, iters, out);  // warm-up
    TESSERA_CHECK_CUDA(cudaGetLastError());
    TESSERA_CHECK_CUDA(cudaEventRecord(start));
    kernel<<<blocks, 32, smem_bytes>>>(offsets, smem_words, iters, out);
    TESSERA_CHECK_CUDA(cudaGetLastError());
    TESSERA_CHECK_CUDA(cudaEventRecord(stop));
    TESSERA_CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    TESSERA_CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    // Time per warp-wide load, averaged over the SMs: ms / (loads per SM).
    const double loads_per_sm = double(blocks) * iters * double(ni) / prop.multiProcessorCount;
    const double ns = 1e6 * ms / loads_per_sm;
    if (index == 1) ns_unit = ns;
    std::printf("%-3d %-70s %8.2f %8.2f %10.3f\n", index, c.name, double(r.total_wavefronts()) / double(ni),
                double(r.total_ideal()) / double(ni), ns);
    ++index;
  }
  if (ns_unit > 0) std::printf("(ns/load of case 1, the conflict-free 4-byte load: %.3f = one wavefront)\n", ns_unit);
  TESSERA_CHECK_CUDA(cudaFree(out));
  TESSERA_CHECK_CUDA(cudaFree(offsets));
  return 0;
}
