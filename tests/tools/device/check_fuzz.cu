// check_fuzz.cu -- the legality checker (tools/check.hpp) against the hardware, over a random
// sample (issue 34): the checker must never accept what the hardware rejects or what
// compute-sanitizer flags.
//
// Each combination of a seeded sample is one of three families, asked of the checker and then,
// where the hardware has an answer, run:
//   tma    a 2-D matrix, a box layout and the box's coordinates (tools::check_tma, and
//          tools::check_tma_coordinate for where the box goes). The hardware's answers: the driver's
//          cuTensorMapEncodeTiled (called directly, not through make_tma_desc_2d, whose own checks
//          are the checker's), then a TMA load of one box (the corner one, partly outside the
//          matrix half the time) whose shared-memory bytes must sit where the box layout says.
//   vector a copy of W-bit vectors from a layout in global memory into a compact fragment, the
//          source pointer exactly `align` bytes aligned (tools::check_copy_vector). Run: each
//          vector a W-bit load of the source run the plan names; the hardware rejects a
//          misaligned vector (a fault), and a run that is not the layout's elements gives wrong data.
//   ldsm   ldmatrix (.x1/.x2/.x4, .trans) tiled copies over fp16 tiles, padded and swizzled
//          (tools::check_copy). Run: each lane's row address is where the layout puts its row;
//          a row address off 16 bytes faults, a row the layout splits gives wrong data.
// TMA loads (the checker's question is whether they fault) and runs that must fault (a misaligned
// access) run in a worker process (this program with --worker), so that a fault ends the worker's
// CUDA context, not the sample: the next combination gets a fresh worker, and every combination
// runs. Under compute-sanitizer only the parent is instrumented (--target-processes
// application-only): it runs the vector and ldmatrix combinations predicted to run clean, and its
// ERROR SUMMARY must be 0 (--report-api-errors no: an encoder's refusal is an answer, not an error).
//
// Output: one line per combination (FUZZ i family verdicts), then the counts:
//   accepted, ran clean            the checker's yes, and the hardware's
//   accepted, FAILED               must be 0: an encode error, a fault, wrong data
//   rejected, hardware rejects     an encode error, a fault, or wrong data
//   rejected, hardware accepts     listed by rule: where the checker is stricter than the hardware
//   rejected, not run              no hardware question (e.g. a vector plan that does not exist)
// Exit status 1 when an accepted combination failed. Without a GPU: a skip line, exit 0.
#include <cuda.h>
#include <cuda_runtime.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tessera/arch/barrier_sm90.hpp"
#include "tessera/arch/copy_sm90_tma.cuh"
#include "tessera/atom/names.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/analyze.hpp"
#include "tessera/tools/check.hpp"

extern char** environ;

namespace {

namespace tt = tessera::tools;
namespace rt = tessera::rt;

// A CUDA error ends the combination (and, for a fault, the process: the context is lost).
struct CudaFailure {
  std::string what;
};
void cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaFailure{std::string(what) + ": " + cudaGetErrorName(e)};
}

// ---- kernels -----------------------------------------------------------------------------------

// The byte every byte of the box's shared memory holds before the load: unlike TMA's zeros for
// elements outside the matrix, so that a byte TMA did not write never passes for one it did.
constexpr unsigned char kUnwritten = 0xa5;

// One box by TMA into 1024-byte aligned shared memory, then every byte of its footprint out.
// tx_bytes: the box's bytes (what TMA counts on the barrier); footprint: the shared memory it
// spans (rows tma_row_pitch apart: a row narrower than the swizzle's span is padded to it),
// filled with kUnwritten first.
__global__ void fuzz_tma(const __grid_constant__ CUtensorMap tmap, int c0, int c1, unsigned tx_bytes,
                         unsigned footprint, unsigned char* out) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ alignas(8) std::uint64_t bar;
  const unsigned raw = tessera::smem_address(smem_raw);
  unsigned char* box = smem_raw + (((raw + 1023u) & ~1023u) - raw);
  for (unsigned i = threadIdx.x; i < footprint; i += blockDim.x) box[i] = kUnwritten;
  tessera::fence_view_async_shared();  // the generic writes before TMA's (the async proxy's)
  __syncthreads();
  if (threadIdx.x == 0) {
    tessera::mbarrier_init(&bar, 1);
    tessera::fence_barrier_init();
    tessera::mbarrier_arrive_expect_tx(&bar, tx_bytes);
    tessera::SM90_TMA_LOAD_2D::copy(&tmap, &bar, box, c0, c1);
    tessera::mbarrier_wait(&bar, 0);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < footprint; i += blockDim.x) out[i] = box[i];
}

// Vector v: `width` bytes from src + from[v] to out + v * width.
__global__ void fuzz_vector(const unsigned char* src, const long long* from, int n, int width, unsigned char* out) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const unsigned char* p = src + from[v];
  unsigned char* q = out + std::size_t(v) * width;
  switch (width) {
    case 1: *q = *p; break;
    case 2: *reinterpret_cast<unsigned short*>(q) = *reinterpret_cast<const unsigned short*>(p); break;
    case 4: *reinterpret_cast<unsigned*>(q) = *reinterpret_cast<const unsigned*>(p); break;
    case 8: *reinterpret_cast<uint2*>(q) = *reinterpret_cast<const uint2*>(p); break;
    default: *reinterpret_cast<uint4*>(q) = *reinterpret_cast<const uint4*>(p); break;
  }
}

// The tile's bytes into shared memory, then warp w's instructions k: lane l's row address
// addr[(w*ni+k)*32+l] (bytes), its registers to out.
__global__ void fuzz_ldsm(const unsigned char* image, int bytes, int x, int trans, int ni, const int* addr,
                          uint4* out) {
  extern __shared__ __align__(128) unsigned char tile[];
  for (int i = threadIdx.x; i < bytes; i += blockDim.x) tile[i] = image[i];
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned base = tessera::smem_address(tile);
  for (int k = 0; k < ni; ++k) {
    const int slot = (warp * ni + k) * 32 + lane;
    const unsigned a = base + unsigned(addr[slot] < 0 ? 0 : addr[slot]);
    unsigned r[4] = {0, 0, 0, 0};
    if (!trans && x == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
    else if (!trans && x == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
    else if (!trans)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(a));
    else if (x == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
    else if (x == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(a));
    out[slot] = make_uint4(r[0], r[1], r[2], r[3]);
  }
}

// ---- the sample ----------------------------------------------------------------------------------

enum class Hw { not_run, accepted, rejected };

struct Outcome {
  bool legal = false;
  std::string rule;  // the checker's
  Hw hw = Hw::not_run;
  std::string hw_why;       // what the hardware said
  bool cuda_error = false;  // a CUDA call failed (a fault may have ended the context)
  int predicted = -1;       // vector and ldsm: whether every vector/row is contiguous and aligned (-1: not worked out)
  bool must_fault = false;  // the run is expected to fault: run it in a child
};

struct Combo {
  int family = 0;  // 0 tma, 1 vector, 2 ldsm
  std::string text;
  // tma
  int eb = 2, sw_bits = 0, sw_base = 0;
  std::int64_t inner = 0, outer = 0, ld = 0, b_in = 0, b_out = 0, box_stride = 0;
  int c0 = 0, c1 = 0;
  // vector
  std::string src;
  int width = 128, elem_bits = 16, align = 16;
  // ldsm
  std::string smem, copy;
  int x = 4;
  bool trans = false;
};

int pick(std::mt19937_64& g, std::initializer_list<int> v) {
  return *(v.begin() + std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(g));
}
std::int64_t uniform(std::mt19937_64& g, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(g);
}
bool chance(std::mt19937_64& g, double p) { return std::uniform_real_distribution<double>(0, 1)(g) < p; }
std::string s(std::int64_t v) { return std::to_string(v); }

Combo draw(std::mt19937_64& g, int family) {
  Combo c;
  c.family = family;
  if (family == 0) {
    c.eb = chance(g, 0.08) ? 8 : pick(g, {1, 2, 4});
    const int span = pick(g, {0, 32, 64, 128});
    c.sw_bits = span == 0 ? 0 : span == 32 ? 1 : span == 64 ? 2 : 3;
    const int log_eb = c.eb == 1 ? 0 : c.eb == 2 ? 1 : c.eb == 4 ? 2 : 3;
    c.sw_base = 4 - log_eb;
    if (c.sw_bits && chance(g, 0.08)) c.sw_base = std::max(0, c.sw_base - 1);  // not TMA's swizzle
    const std::int64_t row_elems = (span == 0 ? 128 : span) / c.eb;
    const double r = std::uniform_real_distribution<double>(0, 1)(g);
    c.b_in = r < 0.45   ? std::max<std::int64_t>(1, row_elems)
             : r < 0.75 ? pick(g, {8, 16, 32, 64, 128, 256})
                        : uniform(g, 1, 260);
    const std::int64_t room = std::max<std::int64_t>(1, (48 * 1024) / (c.b_in * c.eb));
    c.b_out = chance(g, 0.05) ? uniform(g, 250, 300) : uniform(g, 1, std::min<std::int64_t>(256, room));
    c.inner = chance(g, 0.5) ? c.b_in * uniform(g, 1, 4) : uniform(g, 1, 600);
    c.outer = uniform(g, 1, 300);
    const double p = std::uniform_real_distribution<double>(0, 1)(g);
    c.ld = p < 0.5   ? c.inner
           : p < 0.9 ? c.inner + uniform(g, 1, 16)
                     : std::max<std::int64_t>(1, c.inner - uniform(g, 1, 8));
    if (chance(g, 0.7)) c.ld = (c.ld * c.eb + 15) / 16 * 16 / c.eb;  // a 16-byte pitch more often
    c.box_stride = chance(g, 0.1) ? c.b_in + 8 : c.b_in;             // 10%: not TMA's row order
    // Rows (of whole 16-byte units) narrower than the swizzle's span: TMA pads them to it
    // (tma.row_pitch). Half of those boxes (odd row counts; no draw, so the sample is the second
    // device run's otherwise) take the span as their row stride, the layout TMA writes; the other
    // half keep their rows one after the other, which the checker rejects and the hardware writes
    // elsewhere.
    if (span != 0 && c.box_stride == c.b_in && c.b_in * c.eb < span && c.b_in * c.eb % 16 == 0 && c.b_out % 2 == 1)
      c.box_stride = span / c.eb;
    c.c0 = chance(g, 0.5) ? 0 : int(std::max<std::int64_t>(0, c.inner - c.b_in / 2));
    if (c.c0 != 0 && chance(g, 0.5)) c.c0 = c.c0 * c.eb / 16 * 16 / c.eb;  // half of those 16-byte aligned
    c.c1 = chance(g, 0.5) ? 0 : int(std::max<std::int64_t>(0, c.outer - c.b_out / 2));
    c.text = "global (" + s(c.outer) + "," + s(c.inner) + "):(" + s(c.ld) + ",1), box " +
             (c.sw_bits ? "Sw<" + s(c.sw_bits) + "," + s(c.sw_base) + ",3> o " : "") + "(_" + s(c.b_out) + ",_" +
             s(c.b_in) + "):(_" + s(c.box_stride) + ",_1), " + s(c.eb) + "-byte elements, box at (" + s(c.c0) + "," +
             s(c.c1) + ")";
  } else if (family == 1) {
    c.elem_bits = pick(g, {8, 16, 32});
    c.width = pick(g, {16, 32, 64, 128});
    if (c.width <= c.elem_bits) c.width = 128;
    const int eb = c.elem_bits / 8;
    c.align = std::max(eb, pick(g, {1, 2, 4, 8, 16, 16, 16}));
    const std::int64_t a = pick(g, {1, 2, 4, 8, 16, 3, 6}), b = pick(g, {1, 2, 4, 8});
    switch (pick(g, {0, 1, 2, 3})) {
      case 0: c.src = "(_" + s(a) + ",_" + s(b) + "):(_1,_" + s(a) + ")"; break;                     // compact
      case 1: c.src = "(_" + s(a) + ",_" + s(b) + "):(_1,_" + s(a + uniform(g, 1, 9)) + ")"; break;  // padded
      case 2: c.src = "(_" + s(a) + ",_" + s(b) + "):(_" + s(b * uniform(g, 1, 3) + uniform(g, 0, 4)) + ",_1)"; break;
      default: {  // strided elements
        const std::int64_t sa = uniform(g, 1, 3);
        c.src = "(_" + s(a) + ",_" + s(b) + "):(_" + s(sa) + ",_" + s(a * sa) + ")";
      }
    }
    if (chance(g, 0.15)) c.src = "Sw<" + s(uniform(g, 1, 2)) + "," + s(uniform(g, 0, 3)) + ",3> o " + c.src;
    c.text = "copy of " + s(c.width) + "-bit vectors from " + c.src + " (" + s(c.elem_bits) + "-bit elements, " +
             s(c.align) + "-byte aligned) into a fragment";
  } else {
    c.trans = chance(g, 0.3);
    c.x = pick(g, {1, 2, 4});
    const std::int64_t rows = pick(g, {32, 64}), cols = pick(g, {16, 32, 64});
    const std::int64_t pad = chance(g, 0.6) ? 0 : pick(g, {1, 2, 4, 8, 12});
    std::string base = c.trans ? "(_" + s(rows) + ",_" + s(cols) + "):(_1,_" + s(rows + pad) + ")"
                               : "(_" + s(rows) + ",_" + s(cols) + "):(_" + s(cols + pad) + ",_1)";
    if (chance(g, 0.6)) {
      const std::int64_t b = uniform(g, 1, 3), m = chance(g, 0.7) ? 3 : uniform(g, 0, 4),
                         sh = uniform(g, std::max<std::int64_t>(b, 3), 5);
      base = "Sw<" + s(b) + "," + s(m) + "," + s(sh) + "> o " + base;
    }
    c.smem = base;
    const char* atom = c.trans ? (c.x == 1   ? "SM75_U16x2_LDSM_T"
                                  : c.x == 2 ? "SM75_U16x4_LDSM_T"
                                             : "SM75_U16x8_LDSM_T")
                               : (c.x == 1   ? "SM75_U32x1_LDSM_N"
                                  : c.x == 2 ? "SM75_U32x2_LDSM_N"
                                             : "SM75_U32x4_LDSM_N");
    c.copy = std::string("make_tiled_copy_A(Copy_Atom<") + atom +
             ",half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))";
    c.text = std::string(atom) + " over " + c.smem;
  }
  return c;
}

// ---- each family: the checker, then the hardware --------------------------------------------------

std::uint16_t value16(std::int64_t i) { return static_cast<std::uint16_t>(i * 2654435761u >> 7) | 1u; }

void run_tma(const Combo& c, Outcome& o, bool execute) {
  const std::string box = (c.sw_bits ? "Sw<" + s(c.sw_bits) + "," + s(c.sw_base) + ",3> o " : std::string()) + "(_" +
                          s(c.b_out) + ",_" + s(c.b_in) + "):(_" + s(c.box_stride) + ",_1)";
  const tt::CheckResult r = tt::check_tma(rt::evaluate("(" + s(c.outer) + "," + s(c.inner) + "):(" + s(c.ld) + ",1)"),
                                          rt::evaluate(box), c.eb);
  o.legal = r.legal;
  o.rule = r.rule;
  if (r.legal) {  // where the box goes: its inner coordinate (tma.coordinate)
    const tt::CheckResult at = tt::check_tma_coordinate(c.c0, c.eb);
    o.legal = at.legal;
    o.rule = at.rule;
  }
  if (!execute) return;
  // The hardware's first answer: the driver's encoder, given what the layouts say.
  const std::int64_t bytes = std::max<std::int64_t>(1, c.ld * c.outer * c.eb) + 64;
  unsigned char* g = nullptr;
  cuda(cudaMalloc(&g, std::size_t(bytes)), "cudaMalloc");
  std::vector<unsigned char> host(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(value16(std::int64_t(i)) >> 3);
  cuda(cudaMemcpy(g, host.data(), host.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  const CUtensorMapDataType type = c.eb == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                   : c.eb == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                   : c.eb == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                               : CU_TENSOR_MAP_DATA_TYPE_INT64;
  const CUtensorMapSwizzle sw = c.sw_bits == 3   ? CU_TENSOR_MAP_SWIZZLE_128B
                                : c.sw_bits == 2 ? CU_TENSOR_MAP_SWIZZLE_64B
                                : c.sw_bits == 1 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                 : CU_TENSOR_MAP_SWIZZLE_NONE;
  const cuuint64_t dims[2] = {cuuint64_t(c.inner), cuuint64_t(c.outer)};
  const cuuint64_t strides[1] = {cuuint64_t(c.ld * c.eb)};
  const cuuint32_t boxdim[2] = {cuuint32_t(c.b_in), cuuint32_t(c.b_out)};
  const cuuint32_t estr[2] = {1, 1};
  CUtensorMap map{};
  const CUresult e = tessera::detail::tensor_map_encode_tiled()(
      &map, type, 2, g, dims, strides, boxdim, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (e != CUDA_SUCCESS) {
    o.hw = Hw::rejected;
    o.hw_why = "cuTensorMapEncodeTiled: CUresult " + s(int(e));
    cudaFree(g);
    return;
  }
  // What TMA moves (the barrier's transaction bytes) and the shared memory it writes: rows
  // tma_row_pitch apart (the swizzle's span when swizzled, a narrower row padded to it).
  const std::int64_t box_bytes = c.b_in * c.b_out * c.eb;
  const int span = c.sw_bits == 0 ? 0 : 16 << c.sw_bits;
  const std::int64_t smem_bytes = c.b_out * tessera::tma_row_pitch(c.b_in, c.eb, span) * c.eb;
  if (smem_bytes > 100 * 1024) {
    o.hw = Hw::accepted;
    o.hw_why = "encoded; the box is larger than this test's shared memory, not loaded";
    cudaFree(g);
    return;
  }
  unsigned char* out = nullptr;
  cuda(cudaMalloc(&out, std::size_t(smem_bytes)), "cudaMalloc");
  cuda(cudaFuncSetAttribute(fuzz_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, 101 * 1024 + 1024),
       "cudaFuncSetAttribute");
  fuzz_tma<<<1, 128, std::size_t(smem_bytes + 1024)>>>(map, c.c0, c.c1, unsigned(box_bytes), unsigned(smem_bytes), out);
  cuda(cudaGetLastError(), "launch");
  cuda(cudaDeviceSynchronize(), "TMA load");
  std::vector<unsigned char> got(static_cast<std::size_t>(smem_bytes));
  cuda(cudaMemcpy(got.data(), out, got.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(out);
  cudaFree(g);
  // Where the box layout says each element is, its bytes from the matrix (zero outside it).
  const tt::analyze_detail::MemoryLayout lay = tt::analyze_detail::as_memory_layout(rt::evaluate(box));
  std::int64_t wrong = 0;
  for (std::int64_t y = 0; y < c.b_out; ++y)
    for (std::int64_t x = 0; x < c.b_in; ++x) {
      const std::int64_t off = lay(y + c.b_out * x) * c.eb;  // (y, x): column-major index of (b_out, b_in)
      const std::int64_t gx = c.c0 + x, gy = c.c1 + y;
      for (int b = 0; b < c.eb; ++b) {
        const unsigned char want = gx < c.inner && gy < c.outer ? host[std::size_t((gy * c.ld + gx) * c.eb + b)]
                                                                : static_cast<unsigned char>(0);
        if (off < 0 || off + c.eb > smem_bytes || got[std::size_t(off + b)] != want) ++wrong;
      }
    }
  o.hw = wrong == 0 ? Hw::accepted : Hw::rejected;
  o.hw_why = wrong == 0 ? "encoded, loaded, every element where the layout says"
                        : "encoded and loaded, but " + s(wrong) + " bytes are not where the box layout says";
}

void run_vector(const Combo& c, Outcome& o, bool execute) {
  tt::CopyVectorRequest req;
  req.src = rt::evaluate(c.src);
  req.width_bits = c.width;
  req.elem_bits = c.elem_bits;
  req.align_bytes = c.align;
  const tt::CopyVectorCheck r = tt::check_copy_vector(req);
  o.legal = r.legal;
  o.rule = r.rule;
  // The runs a vector copy would move: fragment offsets o..o+N-1 (element i of the shape at
  // fragment offset i), each one load of the source at the element of fragment offset o.
  const int eb = c.elem_bits / 8, n = c.width / c.elem_bits, wbytes = c.width / 8;
  const tt::analyze_detail::MemoryLayout src = tt::analyze_detail::as_memory_layout(*req.src);
  const std::int64_t size = src.size();
  if (n < 1 || size % n != 0) {
    o.hw = Hw::not_run;
    o.hw_why = "no whole vectors to run";
    return;
  }
  std::int64_t top = 0;
  std::vector<long long> from;
  bool misaligned = false, contiguous = true;
  for (std::int64_t v = 0; v * n < size; ++v) {
    const std::int64_t off = src(v * n);
    if (off < 0) {
      o.hw = Hw::not_run;
      o.hw_why = "a negative offset";
      return;
    }
    top = std::max(top, off + n);
    for (std::int64_t e = 0; e < n; ++e) top = std::max(top, src(v * n + e) + 1);
    from.push_back((long long)(c.align + off * eb));  // the pointer is exactly `align` bytes aligned
    misaligned = misaligned || (c.align + off * eb) % wbytes != 0;
    for (std::int64_t e = 1; e < n; ++e) contiguous = contiguous && src(v * n + e) == off + e;
  }
  o.must_fault = misaligned;
  o.predicted = !misaligned && contiguous;
  if (!execute) return;
  const std::size_t bytes = std::size_t(top * eb + c.align + 64);
  std::vector<unsigned char> host(bytes);
  for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>(value16(std::int64_t(i)) >> 5);
  unsigned char *d = nullptr, *out = nullptr;
  long long* dfrom = nullptr;
  cuda(cudaMalloc(&d, bytes), "cudaMalloc");
  cuda(cudaMalloc(&out, from.size() * std::size_t(wbytes)), "cudaMalloc");
  cuda(cudaMalloc(&dfrom, from.size() * sizeof(long long)), "cudaMalloc");
  cuda(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda(cudaMemcpy(dfrom, from.data(), from.size() * sizeof(long long), cudaMemcpyHostToDevice), "cudaMemcpy");
  fuzz_vector<<<int((from.size() + 127) / 128), 128>>>(d, dfrom, int(from.size()), wbytes, out);
  cuda(cudaGetLastError(), "launch");
  cuda(cudaDeviceSynchronize(), "vector copy");
  std::vector<unsigned char> got(from.size() * std::size_t(wbytes));
  cuda(cudaMemcpy(got.data(), out, got.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(d);
  cudaFree(out);
  cudaFree(dfrom);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < size; ++i)
    for (int b = 0; b < eb; ++b)
      if (got[std::size_t(i * eb + b)] != host[std::size_t(c.align + src(i) * eb + b)]) ++wrong;
  o.hw = wrong == 0 ? Hw::accepted : Hw::rejected;
  o.hw_why =
      wrong == 0 ? "every vector aligned, every element right" : s(wrong) + " bytes wrong (a run is not the layout's)";
}

void run_ldsm(const Combo& c, Outcome& o, bool execute) {
  const rt::Value mem = rt::evaluate(c.smem);
  const rt::TiledCopy copy = rt::evaluate(c.copy, tessera::atom_names()).as<rt::TiledCopy>();
  const tt::CheckResult r = tt::check_copy(mem, copy);
  o.legal = r.legal;
  o.rule = r.rule;
  if (r.rule == "copy.tile") {
    o.hw_why = "the copy does not tile the tile";
    return;
  }
  // Row addresses: lanes 0 .. 8x-1 of each instruction, the layout's offset of the lane's first value.
  const tt::analyze_detail::MemoryLayout lay = tt::analyze_detail::as_memory_layout(mem);
  const rt::Layout whole = rt::make_layout(lay.inner().shape);
  auto tv_of = [&](bool src_side, std::int64_t& vals) {
    const rt::Layout part = src_side ? rt::tidfrg_s(copy, whole) : rt::tidfrg_d(copy, whole);
    vals = rt::size(rt::layout(src_side ? rt::val_layout_src(copy.atom) : rt::val_layout_dst(copy.atom), 1)).value;
    return rt::make_layout(std::vector<rt::Layout>{
        rt::layout(part, 0), rt::make_layout(std::vector<rt::Layout>{rt::layout(part, 1), rt::layout(part, 2)})});
  };
  std::int64_t svals = 0, dvals = 0;
  const rt::Layout stv = tv_of(true, svals), dtv = tv_of(false, dvals);
  auto at = [](const rt::Layout& l, std::int64_t t, std::int64_t v) {
    return rt::evaluate(l, rt::make_tuple({rt::IntTuple{rt::D(t)}, rt::IntTuple{rt::D(v)}})).value;
  };
  const std::int64_t threads = rt::size(rt::layout(stv, 0)).value, total = rt::size(rt::layout(stv, 1)).value;
  const int ni = int(total / svals), warps = int(threads / 32);
  std::vector<int> addr(std::size_t(warps) * ni * 32, -1);
  std::int64_t top = 0;
  for (std::int64_t i = 0; i < lay.size(); ++i) top = std::max(top, lay(i) + 1);
  bool misaligned = false, contiguous = true;
  for (int w = 0; w < warps; ++w)
    for (int k = 0; k < ni; ++k)
      for (int l = 0; l < 8 * c.x; ++l) {
        const std::int64_t a = lay(at(stv, 32 * w + l, std::int64_t(k) * svals)) * 2;
        addr[(std::size_t(w) * ni + k) * 32 + l] = int(a);
        misaligned = misaligned || a % 16 != 0;
        for (std::int64_t e = 1; e < svals; ++e)
          contiguous = contiguous && lay(at(stv, 32 * w + l, std::int64_t(k) * svals + e)) * 2 == a + 2 * e;
        top = std::max(top, a / 2 + 8);
      }
  o.must_fault = misaligned;
  o.predicted = !misaligned && contiguous;
  if (!execute) return;
  const int bytes = int(top * 2 + 128);
  std::vector<unsigned char> image(std::size_t(bytes), 0xee);
  for (std::int64_t i = 0; i < lay.size(); ++i) {
    const std::uint16_t v = value16(i);
    std::memcpy(&image[std::size_t(lay(i) * 2)], &v, 2);
  }
  unsigned char* dimg = nullptr;
  int* daddr = nullptr;
  uint4* dout = nullptr;
  cuda(cudaMalloc(&dimg, image.size()), "cudaMalloc");
  cuda(cudaMalloc(&daddr, addr.size() * sizeof(int)), "cudaMalloc");
  cuda(cudaMalloc(&dout, addr.size() * sizeof(uint4)), "cudaMalloc");
  cuda(cudaMemcpy(dimg, image.data(), image.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda(cudaMemcpy(daddr, addr.data(), addr.size() * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy");
  fuzz_ldsm<<<1, 32 * warps, std::size_t(bytes)>>>(dimg, bytes, c.x, c.trans ? 1 : 0, ni, daddr, dout);
  cuda(cudaGetLastError(), "launch");
  cuda(cudaDeviceSynchronize(), "ldmatrix");
  std::vector<uint4> got(addr.size());
  cuda(cudaMemcpy(got.data(), dout, got.size() * sizeof(uint4), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(dimg);
  cudaFree(daddr);
  cudaFree(dout);
  // Each thread's registers must hold the cells the copy's destination layout names.
  std::int64_t wrong = 0;
  for (int w = 0; w < warps; ++w)
    for (int k = 0; k < ni; ++k)
      for (int l = 0; l < 32; ++l) {
        std::uint16_t h[8];
        std::memcpy(h, &got[(std::size_t(w) * ni + k) * 32 + l], 16);
        for (std::int64_t e = 0; e < dvals && e < 8; ++e)
          if (h[e] != value16(at(dtv, 32 * w + l, k * dvals + e))) ++wrong;
      }
  o.hw = wrong == 0 ? Hw::accepted : Hw::rejected;
  o.hw_why = wrong == 0 ? "every register right" : s(wrong) + " register values wrong";
}

Outcome evaluate(const Combo& c, bool execute) {
  Outcome o;
  try {
    if (c.family == 0) run_tma(c, o, execute);
    if (c.family == 1) run_vector(c, o, execute);
    if (c.family == 2) run_ldsm(c, o, execute);
  } catch (const CudaFailure& f) {
    o.hw = Hw::rejected;
    o.hw_why = f.what;
    o.cuda_error = true;
  } catch (const std::exception& e) {  // the checker refused the request itself (e.g. a layout it cannot take)
    o.legal = false;
    o.rule = "request";
    o.hw = Hw::not_run;
    o.hw_why = e.what();
  }
  return o;
}

std::vector<Combo> sample(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  std::vector<Combo> out;
  for (int i = 0; i < count; ++i) out.push_back(draw(g, i % 5 < 2 ? 0 : i % 5 < 4 ? 1 : 2));
  return out;
}

// The worker: this program with --worker, not instrumented under compute-sanitizer
// (--target-processes application-only). It makes its CUDA context first, then reads combination
// indices on stdin, runs each and answers one line on stdout, "R i hw cuda_error why" (hw: 0 not
// run, 1 accepted, 2 rejected). After a CUDA error it answers and exits: a fault (an illegal
// instruction, a misaligned address) leaves the context unusable, so the next combination gets a
// fresh worker. The parent keeps a spare worker started, so that a fault costs no context start.
struct Worker {
  pid_t pid = -1;
  FILE* to = nullptr;
  FILE* from = nullptr;
};

Worker start_worker(const char* argv0, std::uint64_t seed, int count) {
  Worker w;
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return w;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return w;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addclose(&fa, in[1]);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  const std::string sd = std::to_string(seed), cnt = std::to_string(count);
  std::vector<char*> args = {const_cast<char*>(argv0),
                             const_cast<char*>("--seed"),
                             const_cast<char*>(sd.c_str()),
                             const_cast<char*>("--count"),
                             const_cast<char*>(cnt.c_str()),
                             const_cast<char*>("--worker"),
                             nullptr};
  std::fflush(stdout);
  const int rc = posix_spawn(&w.pid, "/proc/self/exe", &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    w.pid = -1;
    return w;
  }
  w.to = fdopen(in[1], "w");
  w.from = fdopen(out[0], "r");
  return w;
}

void stop_worker(Worker& w) {
  if (w.pid < 0) return;
  if (w.to) std::fclose(w.to);
  if (w.from) std::fclose(w.from);
  int st = 0;
  waitpid(w.pid, &st, 0);
  w = Worker{};
}

// Runs combination i in the worker (starting one where none runs); false when the worker died
// without an answer (then o says how).
bool ask_worker(Worker& w, Worker& spare, const char* argv0, std::uint64_t seed, int count, int i, Outcome& o,
                int& started) {
  if (w.pid < 0) {
    w = spare.pid >= 0 ? spare : start_worker(argv0, seed, count);
    if (spare.pid < 0) ++started;
    spare = start_worker(argv0, seed, count);
    ++started;
  }
  if (w.pid < 0) {
    o.hw = Hw::not_run;
    o.hw_why = "not run: no worker process could be started";
    return false;
  }
  std::fprintf(w.to, "%d\n", i);
  std::fflush(w.to);
  char line[4096];
  int idx = -1, hw = 0, err = 0, used = 0;
  pollfd pf{fileno(w.from), POLLIN, 0};
  if (poll(&pf, 1, 20000) <= 0) {  // 20 s without an answer (a TMA wait that never ends): the worker goes
    kill(w.pid, SIGKILL);
    stop_worker(w);
    o.hw = Hw::rejected;
    o.hw_why = "(worker) no answer in 20 s: stopped";
    return false;
  }
  if (!std::fgets(line, sizeof line, w.from) || std::sscanf(line, "R %d %d %d %n", &idx, &hw, &err, &used) < 3 ||
      idx != i) {
    stop_worker(w);
    o.hw = Hw::rejected;
    o.hw_why = "(worker) died without an answer";
    return false;
  }
  std::string why(line + used);
  while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
  o.hw = hw == 1 ? Hw::accepted : hw == 2 ? Hw::rejected : Hw::not_run;
  o.hw_why = "(worker) " + why;
  o.cuda_error = err != 0;
  if (o.cuda_error) stop_worker(w);  // it exits after a CUDA error
  return true;
}

int worker_main(const std::vector<Combo>& combos) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  cudaFree(nullptr);  // the context, before the first question
  int i = -1;
  while (std::scanf("%d", &i) == 1) {
    Outcome o;
    if (i < 0 || i >= int(combos.size())) o.hw_why = "no such combination";
    else o = evaluate(combos[std::size_t(i)], true);
    for (char& ch : o.hw_why)
      if (ch == '\n') ch = ' ';
    std::printf("R %d %d %d %s\n", i,
                o.hw == Hw::accepted   ? 1
                : o.hw == Hw::rejected ? 2
                                       : 0,
                o.cuda_error ? 1 : 0, o.hw_why.c_str());
    std::fflush(stdout);
    if (o.cuda_error) return 0;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // line by line, also into a file (a timeout keeps what ran)
  std::uint64_t seed = 34;
  int count = 300;
  bool dry = false, worker = false;  // --dry: the checker's verdicts only (no GPU needed)
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--dry")) dry = true;
    if (!std::strcmp(argv[i], "--worker")) worker = true;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--count")) count = std::atoi(argv[i + 1]);
  }
  const std::vector<Combo> combos = sample(seed, count);
  if (worker) return worker_main(combos);
  signal(SIGPIPE, SIG_IGN);  // a worker that died: its pipe's write fails, the answer's read sees the end
  if (dry) {
    std::map<std::string, int> verdicts;
    const char* fams[] = {"tma", "vector", "ldsm"};
    for (int i = 0; i < int(combos.size()); ++i) {
      const Outcome o = evaluate(combos[std::size_t(i)], false);
      std::printf("DRY %d %s checker=%s%s%s: %s%s\n", i, fams[combos[std::size_t(i)].family],
                  o.legal ? "legal" : o.rule.c_str(), o.must_fault ? " (would fault)" : "",
                  o.predicted == 1 ? " (runs right)" : "", combos[std::size_t(i)].text.c_str(),
                  o.rule == "request" ? (" | " + o.hw_why).c_str() : "");
      ++verdicts[std::string(fams[combos[std::size_t(i)].family]) + " " + (o.legal ? "legal" : o.rule)];
      if (o.predicted >= 0)  // the host's prediction of the run: contiguous, aligned vectors or rows
        ++verdicts[std::string(fams[combos[std::size_t(i)].family]) + (o.legal ? " legal" : " rejected") +
                   (o.predicted ? ", runs would be right" : ", runs would fault or be wrong")];
    }
    for (const auto& [v, n] : verdicts) std::printf("  %-24s %d\n", v.c_str(), n);
    return 0;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: check_fuzz skipped\n");
    return 0;
  }
  std::printf("seed %llu, %d combinations (tma, vector, ldsm: 2:2:1)\n", (unsigned long long)seed, count);
  int accepted_clean = 0, accepted_failed = 0, rejected_rejected = 0, rejected_accepted = 0, rejected_not_run = 0;
  std::map<std::string, int> stricter;  // rule -> combinations the hardware accepted
  std::map<std::string, int> rules_seen;
  const char* fams[] = {"tma", "vector", "ldsm"};
  // Where each combination runs: TMA loads (an unexpected illegal instruction ends a context) and
  // runs expected to fault in the worker; the other runs here, under compute-sanitizer when it
  // runs us, unless a fault here ended this context (then in the worker too).
  Worker w, spare;
  int started = 0, in_worker = 0, worker_faults = 0;
  bool here_lost = false;
  std::vector<std::string> failed_lines;
  for (int i = 0; i < int(combos.size()); ++i) {
    const Combo& c = combos[std::size_t(i)];
    Outcome o = evaluate(c, false);
    if (o.rule == "request") {
      // the checker refused the request itself: no hardware question
    } else if (c.family == 0 || o.must_fault || here_lost) {
      const bool legal = o.legal;
      const std::string rule = o.rule;
      ++in_worker;
      ask_worker(w, spare, argv[0], seed, count, i, o, started);
      o.legal = legal;
      o.rule = rule;
      worker_faults += o.cuda_error;
    } else {
      o = evaluate(c, true);
      if (o.cuda_error) {  // an unexpected fault here: a reset, else the rest go to the worker
        cudaDeviceReset();
        void* probe = nullptr;
        here_lost = cudaMalloc(&probe, 16) != cudaSuccess;
        if (!here_lost) cudaFree(probe);
        std::printf("  combination %d: %s; this process's context %s\n", i, o.hw_why.c_str(),
                    here_lost ? "is lost, the rest run in the worker" : "was reset");
      }
    }
    const char* hw = o.hw == Hw::accepted ? "accepts" : o.hw == Hw::rejected ? "rejects" : "not run";
    std::printf("FUZZ %d %s checker=%s hw=%s: %s | %s\n", i, fams[c.family], o.legal ? "legal" : o.rule.c_str(), hw,
                c.text.c_str(), o.hw_why.c_str());
    if (!o.legal) ++rules_seen[std::string(fams[c.family]) + " " + o.rule];
    if (o.legal && o.hw == Hw::accepted) ++accepted_clean;
    else if (o.legal) {
      ++accepted_failed;
      failed_lines.push_back("FUZZ " + std::to_string(i) + " " + fams[c.family] + " hw=" + hw + ": " + c.text + " | " +
                             o.hw_why);
    } else if (o.hw == Hw::rejected) ++rejected_rejected;
    else if (o.hw == Hw::accepted) ++rejected_accepted, ++stricter[std::string(fams[c.family]) + " " + o.rule];
    else ++rejected_not_run;
  }
  std::printf("\naccepted, ran clean:          %d\n", accepted_clean);
  std::printf("accepted, FAILED:             %d (must be 0)\n", accepted_failed);
  std::printf("rejected, hardware rejects:   %d\n", rejected_rejected);
  std::printf("rejected, hardware accepts:   %d\n", rejected_accepted);
  for (const auto& [rule, n] : stricter) std::printf("    %-28s %d\n", rule.c_str(), n);
  std::printf("rejected, not run:            %d\n", rejected_not_run);
  std::printf("run in the worker: %d combinations, %d of them ended its context, %d worker processes started\n",
              in_worker, worker_faults, started);
  stop_worker(w);
  stop_worker(spare);
  for (std::size_t k = 0; k < failed_lines.size() && k < 5; ++k)
    std::printf("%s %s\n", k == 0 ? "first accepted, FAILED:" : "                       ", failed_lines[k].c_str());
  std::printf("rules seen in the rejections:");
  for (const auto& [rule, n] : rules_seen) std::printf(" %s x%d;", rule.c_str(), n);
  std::printf("\n");
  return accepted_failed == 0 ? 0 : 1;
}
