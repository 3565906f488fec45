// gemm_cases.cu -- the tensor-core GEMM cases of `tessera-bench`: kernels::gemm_sm80 (gemm_sm80_*)
// and the Hopper ladder (kernels/gemm_sm90.cuh: step 1 gemm_sm90_tma_*, step 2 gemm_sm90_ws_*,
// step 3 gemm_sm90_persistent_*, gemm_sm90_cluster_*, gemm_sm90_pingpong_*; gemm_sm90_persistent_jit_*: the
// same kernel compiled by the JIT while the benchmark runs; gemm_sm90_jit_*: gemm_sm90 as the JIT's
// host side runs it for tessera.ops.gemm, its kernel compiled for the problem) against cuBLASLt's
// fastest algorithm among its top heuristics (bench/cublaslt_best.hpp: each timed, the fastest kept
// for the shape) and beside it cublasGemmEx (both fp32 compute), on the same inputs in the same run.
// Problem: D = A B, A and B row-major (the layout of a row-major framework's A @ B), bf16 or fp16 in,
// the same type out; M = N = K, or the shapes of --shapes and of the suite (bench/gemm_suite.hpp).
//
// Inputs are uniform in [-1, 1), generated on the device from a hash of the offset, rounded to the
// input type. verify poisons D (all bits set), runs the kernel once, runs cuBLAS into D_ref with an
// fp32 output, and counts on the device the elements outside
//   |D - D_ref| <= gemm_tolerance_factor(K) sum_k |A_ik B_kj| + u_out |D_ref| + underflow_out
// (u_out and underflow_out the output type's unit and subnormal roundoff; the scale from cuBLAS on
// |A|, |B| in fp32); a NaN never passes. The cuBLASLt reference is checked the same way.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bench/cases/cases.hpp"
#include "bench/cases/fill.cuh"
#include "bench/cublaslt_best.hpp"
#include "bench/gemm_suite.hpp"
#include "instances/gemm_sm80.hpp"  // the kernels, compiled once in tessera::instances (instances/table.txt)
#include "instances/gemm_sm90.hpp"
#include "support/cuda_check.hpp"
#include "support/gemm_reference.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/jit/gemm_sm90.hpp"

namespace tessera::bench {

// CUDA checks, device buffers and the cuBLAS reference with its tolerance: tests/support/.
using test::check;
using test::cublas_gemm;
using test::cublas_sgemm;
using test::DeviceBuffer;
using test::gemm_tolerance_factor;
using test::underflow_roundoff;
using test::unit_roundoff;

namespace {

using kernels::GemmProblem;

// The current device's SM count (read once).
int sm_count() {
  static int const sms = [] {
    int device = 0, n = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    return n;
  }();
  return sms;
}

// bad += #{i : !(|d - ref| <= tol * scale + u_out |ref|)}.
template <class TOut>
__global__ void compare_gemm(TOut const* d, float const* ref, float const* scale, std::uint64_t n, double tol,
                             double u_out, double underflow_out, unsigned long long* bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    double const r = ref[i];
    double const err = fabs(double(float(d[i])) - r);
    if (!(err <= tol * double(scale[i]) + u_out * fabs(r) + underflow_out)) atomicAdd(bad, 1ULL);
  }
}

// The buffers, cuBLAS handle and cuBLASLt reference of one problem, shared by the cases of every
// kernel on it.
template <class T>
struct GemmBuffers {
  GemmShape s;
  DeviceBuffer<T> a, b, d;
  DeviceBuffer<float> abs_a, abs_b;
  cublasHandle_t handle = nullptr;
  std::unique_ptr<LtBestGemm> lt;  // row-major D = A B by cuBLASLt's fastest algorithm (chosen at first verify)
  explicit GemmBuffers(GemmShape s_)
      : s(s_),
        a(std::size_t(s_.m) * s_.k),
        b(std::size_t(s_.k) * s_.n),
        d(std::size_t(s_.m) * s_.n),
        abs_a(a.size()),
        abs_b(b.size()) {
    fill_uniform<T><<<1024, 256>>>(a.get(), a.size(), 0x1234, abs_a.get());
    fill_uniform<T><<<1024, 256>>>(b.get(), b.size(), 0x5678, abs_b.get());
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");
    check(cublasCreate(&handle), "cublasCreate");
    LtGemmKey key;
    key.m = s.m;
    key.n = s.n;
    key.k = s.k;
    key.in_type = key.out_type = std::is_same_v<T, half_t> ? CUDA_R_16F : CUDA_R_16BF;
    key.lda = s.k;  // A, B, D row-major, as problem() has them
    key.ldb = s.n;
    key.ldd = s.n;
    lt = std::make_unique<LtBestGemm>(key, a.get(), b.get(), d.get());
  }
  ~GemmBuffers() {
    if (handle) cublasDestroy(handle);
  }
  GemmBuffers(GemmBuffers const&) = delete;
  GemmBuffers& operator=(GemmBuffers const&) = delete;

  // scale = sum_k |A_ik B_kj| in fp32 (row-major M x N), by cublasSgemm on |A| and |B|, on the
  // handle's stream: the verification's scale of the rounding error.
  void scale_into(float* scale) const {
    kernels::SgemmProblem sp;
    sp.m = s.m;
    sp.n = s.n;
    sp.k = s.k;
    sp.a = abs_a.get();
    sp.lda = s.k;
    sp.b = abs_b.get();
    sp.ldb = s.n;
    sp.c = scale;
    sp.ldc = s.n;
    check(cublas_sgemm(handle, sp), "cublasSgemm (scale)");
  }

  // Row-major D = A B.
  template <class TOut>
  GemmProblem<T, TOut> problem(TOut* out) const {
    GemmProblem<T, TOut> p;
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    p.a = a.get();
    p.lda = s.k;
    p.b = b.get();
    p.ldb = s.n;
    p.d = out;
    p.ldd = s.n;
    return p;
  }
};

// The program `key` names, compiled by make() at its first use (the JIT's caches in memory and on
// disk), its compile time, registers and local memory reported once on stderr.
template <class Make>
jit::Program const& jit_program(std::string const& key, Make&& make) {
  static std::mutex mutex;
  static std::map<std::string, jit::Program> programs;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = programs.find(key);
  if (it == programs.end()) {
    auto const t0 = std::chrono::steady_clock::now();
    jit::Program p = make();
    double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    jit::KernelInfo const info = p.kernel(0).info();
    std::fprintf(stderr,
                 "gemm_sm90 (JIT): %s: %.2f s (%s), %d registers, %d bytes of local memory, %d of static shared\n",
                 p.kernel(0).name().c_str(), seconds, p.from_disk_cache() ? "from the disk cache" : "NVRTC",
                 info.registers, info.local_bytes, info.static_shared_bytes);
    it = programs.emplace(key, std::move(p)).first;
  }
  return it->second;
}

// The JIT's build of gemm_sm90's kernels: GemmSm90Launch's twin that starts, with the
// configuration and arguments gemm_sm90_launch prepared, the kernel of the same name compiled by
// NVRTC from the same header while the program runs (tessera/jit; docs/jit.md). Each kernel is
// compiled on its first launch (cached in memory and on disk); its compile time, registers and
// local memory are reported once on stderr.
struct JitLaunch {
  static constexpr bool compiled = false;
  template <class Kernel, class... Args>
  cudaError_t operator()(cudaLaunchConfig_t const& c, Kernel, Args const&... args) const {
    jit::LaunchConfig lc;
    lc.grid = {c.gridDim.x, c.gridDim.y, c.gridDim.z};
    lc.block = {c.blockDim.x, c.blockDim.y, c.blockDim.z};
    lc.shared_bytes = unsigned(c.dynamicSmemBytes);
    lc.stream = c.stream;
    for (unsigned i = 0; i < c.numAttrs; ++i) {
      cudaLaunchAttribute const& a = c.attrs[i];
      if (a.id == cudaLaunchAttributeClusterDimension)
        lc.cluster = {a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
      else if (a.id == cudaLaunchAttributeProgrammaticStreamSerialization)
        lc.dependent = a.val.programmaticStreamSerializationAllowed != 0;
      else if (a.id == cudaLaunchAttributeCooperative) lc.cooperative = a.val.cooperative != 0;
      else {
        std::fprintf(stderr, "gemm_sm90 (JIT): launch attribute %d has no JIT form\n", int(a.id));
        return cudaErrorInvalidValue;
      }
    }
    try {
      kernel(Kernel::name()).launch(lc, args...);
    } catch (jit::jit_error const& e) {
      std::fprintf(stderr, "gemm_sm90 (JIT): %s\n", e.what());
      return cudaErrorLaunchFailure;
    }
    return cudaSuccess;
  }

 private:
  static jit::Kernel const& kernel(std::string const& name) {
    return jit_program(name,
                       [&] { return jit::compile("#include \"tessera/kernels/gemm/sm90_kernel.cuh\"\n", {name}); })
        .kernel(0);
  }
};

// The GEMMs measured: name prefix and launcher.
struct Sm80 {
  static constexpr char const* name = "gemm_sm80_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm80(p, st);
  }
};
struct Sm90Tma {  // step 1
  static constexpr char const* name = "gemm_sm90_tma_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_tma(p, st);
  }
};
struct Sm90Ws {  // step 2
  static constexpr char const* name = "gemm_sm90_ws_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_ws(p, st);
  }
};
struct Sm90Cluster {  // step 3 (second part)
  static constexpr char const* name = "gemm_sm90_cluster_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_cluster(p, st);
  }
};
struct Sm90 {  // the default: the persistent kernel with the tile chosen for the shape
  static constexpr char const* name = "gemm_sm90_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90(p, st);
  }
};
// gemm_sm90 without stream-K: the data-parallel kernel of gemm_sm90_pick_data_parallel (what
// gemm_sm90 ran for the narrow shapes before it split their tiles, but for 16384 x 128 x 8192: 128x256
// then, gemm_sm90_persistent_ here), beside gemm_sm90 in the same run.
struct Sm90DataParallel {
  static constexpr char const* name = "gemm_sm90_data_parallel_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    bool const plain16 = kernels::detail::gemm_epilogue_plain(p);
    long long const m = p.cd_major == Major::row ? p.m : p.n, n = p.cd_major == Major::row ? p.n : p.m;
    return kernels::detail::gemm_sm90_pick_launch(kernels::gemm_sm90_pick_data_parallel(m, n, p.k, plain16, sm_count()),
                                                  p, st);
  }
};
struct Sm90Pingpong {  // step 3c
  static constexpr char const* name = "gemm_sm90_pingpong_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_pingpong(p, st);
  }
};
struct Sm90Persistent {  // step 3 (first part)
  static constexpr char const* name = "gemm_sm90_persistent_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_persistent(p, st);
  }
};

struct Sm90PersistentJit {  // step 3, the kernel compiled by the JIT while the benchmark runs
  static constexpr char const* name = "gemm_sm90_persistent_jit_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::detail::gemm_sm90_run<kernels::GemmSm90PersistentDefault>("gemm_sm90_persistent (JIT)", p, st, 0,
                                                                              JitLaunch{});
  }
};

// gemm_sm90 through the JIT's host side (jit/gemm_sm90.hpp, what tessera.ops.gemm runs): the
// kernel gemm_sm90_jit_kernel names for the problem (gemm_sm90's configuration, stream-K's shapes
// on the persistent 128x256 kernel; compiled for the problem's epilogue form), its arguments and
// tensor maps built on the host, launched through the driver.
struct Sm90Jit {
  static constexpr char const* name = "gemm_sm90_jit_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    try {
      static int const sms = [] {
        int device = 0, n = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
        return n;
      }();
      jit::GemmSm90JitKernel const k = jit::gemm_sm90_jit_kernel(p, sms);
      jit::Program const& prog = jit_program("gemm_sm90_jit " + std::to_string(k.index()), [&] {
        return jit::compile(jit::gemm_sm90_jit_source(k, jit::gemm_sm90_jit_descriptor_align()),
                            jit::gemm_sm90_jit_names(k));
      });
      jit::gemm_sm90_jit_launch(p, prog.kernel(0), prog.kernel(1), st, sms);
    } catch (std::exception const& e) {
      std::fprintf(stderr, "gemm_sm90 (JIT): %s\n", e.what());
      return cudaErrorLaunchFailure;
    }
    return cudaSuccess;
  }
};

struct Sm90StreamK {  // step 3d
  static constexpr char const* name = "gemm_sm90_stream_k_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_stream_k(p, st);
  }
};
struct Sm90PersistentWide {  // step 3a with 128x192 tiles
  static constexpr char const* name = "gemm_sm90_persistent_wide_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_persistent<kernels::GemmSm90PersistentWide>(p, st);
  }
};
struct Sm90StreamKMedium {  // step 3d with 128x128 tiles
  static constexpr char const* name = "gemm_sm90_stream_k_medium_";
  template <class T>
  static cudaError_t run(GemmProblem<T, T> const& p, cudaStream_t st) {
    return kernels::gemm_sm90_stream_k<kernels::GemmSm90StreamKMedium>(p, st);
  }
};

// Checks the kernel, then the cuBLASLt reference (its algorithm chosen first, when this shape has
// none yet), against cuBLAS's fp32 product on the same inputs.
template <class Launch, class T>
bool verify_gemm(GemmBuffers<T>& buf, std::string& msg) {
  std::uint64_t const count = std::uint64_t(buf.s.m) * buf.s.n;
  DeviceBuffer<float> ref(count), scale(count);
  DeviceBuffer<unsigned long long> bad(1);
  check(cublasSetStream(buf.handle, nullptr), "cublasSetStream");
  check(cublas_gemm(buf.handle, buf.template problem<float>(ref.get())), "cublasGemmEx (reference)");
  buf.scale_into(scale.get());
  buf.lt->choose();
  for (int who = 0; who < 2; ++who) {  // the kernel, then the reference it is timed against
    check(cudaMemset(buf.d.get(), 0xff, buf.d.bytes()), "poison D");
    if (who == 0) check(Launch::run(buf.template problem<T>(buf.d.get()), nullptr), "kernel launch");
    else buf.lt->run(nullptr);
    check(cudaDeviceSynchronize(), who == 0 ? "kernel" : "cublasLt (the reference)");
    check(cudaMemset(bad.get(), 0, sizeof(unsigned long long)), "cudaMemset");
    compare_gemm<T><<<1024, 256>>>(buf.d.get(), ref.get(), scale.get(), count, gemm_tolerance_factor(buf.s.k),
                                   unit_roundoff<T>(), underflow_roundoff<T>(), bad.get());
    check(cudaGetLastError(), "compare");
    unsigned long long const mismatches = bad.download()[0];
    if (mismatches != 0) {
      msg = std::to_string(mismatches) + " of " + std::to_string(count) + " elements of " +
            (who == 0 ? "the kernel" : "cublasLt's chosen algorithm (the reference)") +
            " differ from cuBLAS beyond the tolerance";
      return false;
    }
  }
  return true;
}

// The note of gemm_sm90's cases: the configuration it runs for the shape (gemm_sm90_pick), after
// `prefix` when one is given.
template <class Launch>
std::string kernel_note(GemmShape sh, std::string const& prefix) {
  if constexpr (!std::is_same_v<Launch, Sm90>) {
    return prefix;
  } else {
    std::string const runs = std::string("gemm_sm90 runs ") +
                             kernels::to_string(kernels::gemm_sm90_pick(sh.m, sh.n, sh.k, true, sm_count()));
    return prefix.empty() ? runs : prefix + "; " + runs;
  }
}

// One case per (shape, kernel) of Launches..., the kernels of a shape sharing its buffers. Each is
// timed against cuBLASLt's fastest algorithm for the shape and beside it cublasGemmEx; notes[i]
// (when given) is reported with shape i's cases.
template <class T, class... Launches>
void add_cases(std::vector<Case>& cases, std::vector<GemmShape> const& shapes, char const* type,
               std::vector<std::string> const& notes = {}) {
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    GemmShape const sh = shapes[i];
    auto buf = std::make_shared<GemmBuffers<T>>(sh);
    auto one = [&]<class Launch>() {
      Case c;
      c.kernel = std::string(Launch::name) + type;
      c.shape = to_string(sh);
      c.group = "gemm";
      c.flops = 2.0 * sh.m * double(sh.n) * sh.k;
      c.bytes = (double(sh.m) * sh.k + double(sh.k) * sh.n + double(sh.m) * sh.n) * sizeof(T);
      c.run = [buf](cudaStream_t st) { check(Launch::run(buf->template problem<T>(buf->d.get()), st), Launch::name); };
      c.reference = [buf](cudaStream_t st) { buf->lt->run(st); };
      c.reference_name = "cublasLt best";
      c.reference_choice = [buf] {
        LtChoice const& ch = buf->lt->choose();
        return ReferenceChoice{ch.index, ch.candidates, ch.detail};
      };
      c.also_against.push_back({"cublasGemmEx", [buf](cudaStream_t st) {
                                  check(cublasSetStream(buf->handle, st), "cublasSetStream");
                                  check(cublas_gemm(buf->handle, buf->template problem<T>(buf->d.get())),
                                        "cublasGemmEx");
                                }});
      c.verify = [buf](std::string& msg) { return verify_gemm<Launch>(*buf, msg); };
      c.note = kernel_note<Launch>(sh, i < notes.size() ? notes[i] : std::string());
      cases.push_back(std::move(c));
    };
    (one.template operator()<Launches>(), ...);
  }
}

// ---- the fused epilogue: D = gelu_tanh(A B + bias) against cublasLt's GELU_BIAS epilogue --------

// ref[i] = gelu_tanh(acc[i] + bias[n]) in fp32 (row-major M x N, n = i % N): the verification's
// reference from cuBLAS's fp32 product.
template <class TOut>
__global__ void gelu_bias_reference(float* ref, float const* acc, TOut const* bias, std::uint64_t n_cols,
                                    std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    double const z = double(acc[i]) + double(float(bias[i % n_cols]));
    ref[i] = float(0.5 * z * (1.0 + tanh(0.7978845608028654 * (z + 0.044715 * z * z * z))));
  }
}

// bad += #{i : !(|d - ref| <= 1.13 tol scale + 8 eps32 |ref| + u_out |ref|)} (1.13: gelu's
// largest slope; 8 eps32: the activation's own error).
template <class TOut>
__global__ void compare_gelu(TOut const* d, float const* ref, float const* scale, std::uint64_t n, double tol,
                             double u_out, double underflow_out, unsigned long long* bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    double const r = ref[i];
    double const err = fabs(double(float(d[i])) - r);
    double const bound =
        1.13 * tol * double(scale[i]) + (8.0 * 1.1920929e-7 + u_out) * (fabs(r) + 1e-3) + underflow_out;
    if (!(err <= bound)) atomicAdd(bad, 1ULL);
  }
}

void check_lt(cublasStatus_t s, char const* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cublasLt status " + std::to_string(int(s)));
}

// cublasLtMatmul with the GELU_BIAS epilogue (tanh-approximated GELU, bias per column of the
// row-major D) on a GemmBuffers' row-major D = A B, its best heuristic's algorithm and 32 MiB of
// workspace. cublasLt is column-major: it computes D^T (N x M) = B^T A^T, bias per row of D^T.
template <class T>
struct LtGeluBias {
  static constexpr cudaDataType_t kType = std::is_same_v<T, half_t> ? CUDA_R_16F : CUDA_R_16BF;
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulAlgo_t algo{};
  DeviceBuffer<unsigned char> workspace{std::size_t(32) << 20};
  LtGeluBias(GemmShape s, T const* bias) {
    check_lt(cublasLtCreate(&lt), "cublasLtCreate");
    check_lt(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    cublasOperation_t const no = CUBLAS_OP_N;
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &no, sizeof(no)), "TRANSA");
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &no, sizeof(no)), "TRANSB");
    cublasLtEpilogue_t const epi = CUBLASLT_EPILOGUE_GELU_BIAS;
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)), "EPILOGUE");
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)),
             "BIAS_POINTER");
    cudaDataType_t const bt = kType;
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof(bt)),
             "BIAS_DATA_TYPE");
    check_lt(cublasLtMatrixLayoutCreate(&la, kType, s.n, s.k, s.n),
             "layout B^T");  // B row-major K x N: N x K col-major
    check_lt(cublasLtMatrixLayoutCreate(&lb, kType, s.k, s.m, s.k),
             "layout A^T");  // A row-major M x K: K x M col-major
    check_lt(cublasLtMatrixLayoutCreate(&ld, kType, s.n, s.m, s.n), "layout D^T");
    check_lt(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    std::size_t const ws = workspace.bytes();
    check_lt(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
             "workspace");
    cublasLtMatmulHeuristicResult_t best{};
    int found = 0;
    check_lt(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, ld, ld, pref, 1, &best, &found),
             "cublasLtMatmulAlgoGetHeuristic");
    if (found < 1) throw std::runtime_error("cublasLt: no algorithm for the GELU_BIAS epilogue");
    algo = best.algo;
  }
  ~LtGeluBias() {
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatmulDescDestroy(op);
    cublasLtDestroy(lt);
  }
  LtGeluBias(LtGeluBias const&) = delete;
  LtGeluBias& operator=(LtGeluBias const&) = delete;
  void run(T const* a, T const* b, T* d, cudaStream_t st) const {
    float const one = 1.0f, zero = 0.0f;
    check_lt(
        cublasLtMatmul(lt, op, &one, b, la, a, lb, &zero, d, ld, d, ld, &algo, workspace.get(), workspace.bytes(), st),
        "cublasLtMatmul");
  }
};

// The fused-epilogue case of one shape: gemm_sm90 with a per-column bias and gelu_tanh against
// cublasLt's GELU_BIAS. Both are verified against gelu_tanh(cuBLAS's fp32 A B + bias).
template <class T>
void add_gelu_bias_case(std::vector<Case>& cases, GemmShape sh, char const* type) {
  auto buf = std::make_shared<GemmBuffers<T>>(sh);
  auto bias = std::make_shared<DeviceBuffer<T>>(std::size_t(sh.n));
  auto abs_bias = std::make_shared<DeviceBuffer<float>>(std::size_t(sh.n));
  fill_uniform<T><<<64, 256>>>(bias->get(), bias->size(), 0x9abc, abs_bias->get());
  check(cudaGetLastError(), "fill bias");
  check(cudaDeviceSynchronize(), "fill bias");
  auto lt = std::make_shared<LtGeluBias<T>>(sh, bias->get());
  auto problem = [buf, bias] {
    GemmProblem<T, T> p = buf->template problem<T>(buf->d.get());
    p.bias = bias->get();
    p.activation = kernels::GemmActivation::gelu_tanh;
    return p;
  };
  Case c;
  c.kernel = std::string("gemm_sm90_bias_gelu_") + type;
  c.shape = std::to_string(sh.m) + "x" + std::to_string(sh.n) + "x" + std::to_string(sh.k);
  c.group = "gemm_epilogue";
  c.flops = 2.0 * sh.m * double(sh.n) * sh.k;
  c.bytes = (double(sh.m) * sh.k + double(sh.k) * sh.n + double(sh.m) * sh.n + sh.n) * sizeof(T);
  c.run = [problem](cudaStream_t st) { check(kernels::gemm_sm90(problem(), st), "gemm_sm90 (bias, gelu_tanh)"); };
  c.reference = [buf, lt](cudaStream_t st) { lt->run(buf->a.get(), buf->b.get(), buf->d.get(), st); };
  c.reference_name = "cublasLt GELU_BIAS (first heuristic)";
  c.verify = [buf, bias, lt, problem](std::string& msg) {
    std::uint64_t const count = std::uint64_t(buf->s.m) * buf->s.n;
    DeviceBuffer<float> acc(count), ref(count), scale(count);
    DeviceBuffer<unsigned long long> bad(1);
    check(cublasSetStream(buf->handle, nullptr), "cublasSetStream");
    check(cublas_gemm(buf->handle, buf->template problem<float>(acc.get())), "cublasGemmEx (reference)");
    gelu_bias_reference<T><<<1024, 256>>>(ref.get(), acc.get(), bias->get(), std::uint64_t(buf->s.n), count);
    buf->scale_into(scale.get());
    // the kernel, then the reference library, each against gelu_tanh(A B + bias)
    for (int who = 0; who < 2; ++who) {
      check(cudaMemset(buf->d.get(), 0xff, buf->d.bytes()), "poison D");
      if (who == 0) check(kernels::gemm_sm90(problem(), nullptr), "gemm_sm90 (bias, gelu_tanh)");
      else lt->run(buf->a.get(), buf->b.get(), buf->d.get(), nullptr);
      check(cudaMemset(bad.get(), 0, sizeof(unsigned long long)), "cudaMemset");
      compare_gelu<T><<<1024, 256>>>(buf->d.get(), ref.get(), scale.get(), count, gemm_tolerance_factor(buf->s.k),
                                     unit_roundoff<T>(), underflow_roundoff<T>(), bad.get());
      check(cudaGetLastError(), "compare");
      unsigned long long const mismatches = bad.download()[0];
      if (mismatches != 0) {
        msg = std::to_string(mismatches) + " of " + std::to_string(count) + " elements of " +
              (who == 0 ? "the kernel" : "cublasLt (the reference)") +
              " differ from gelu_tanh(A B + bias) beyond the tolerance";
        return false;
      }
    }
    return true;
  };
  cases.push_back(std::move(c));
}

}  // namespace

std::vector<Case> gemm_cases(bool full) {
  std::vector<GemmShape> const shapes = full ? std::vector<GemmShape>{{4096, 4096, 4096}, {8192, 8192, 8192}}
                                             : std::vector<GemmShape>{{2048, 2048, 2048}};
  std::vector<Case> cases;
#if TESSERA_INSTANCES_EXTRA  // the ladder's steps 1 and 2 and the cluster kernel (instances/table.txt, set `extra`)
  add_cases<bfloat16_t, Sm80, Sm90Tma, Sm90Ws, Sm90Persistent, Sm90PersistentJit, Sm90Jit, Sm90Cluster, Sm90Pingpong,
            Sm90StreamK>(cases, shapes, "bf16");
  add_cases<half_t, Sm80, Sm90Tma, Sm90Ws, Sm90Persistent, Sm90PersistentJit, Sm90Jit, Sm90Cluster, Sm90Pingpong,
            Sm90StreamK>(cases, shapes, "fp16");
#else
  add_cases<bfloat16_t, Sm80, Sm90Persistent, Sm90PersistentJit, Sm90Jit, Sm90Pingpong, Sm90StreamK>(cases, shapes,
                                                                                                     "bf16");
  add_cases<half_t, Sm80, Sm90Persistent, Sm90PersistentJit, Sm90Jit, Sm90Pingpong, Sm90StreamK>(cases, shapes, "fp16");
#endif
  // Order: the ladder's order of kernels, each with bf16 then fp16, each by size.
  auto rank = [](Case const& c) {
    char const* const order[] = {Sm80::name,        Sm90Tma::name,      Sm90Ws::name,     Sm90Persistent::name,
                                 Sm90Cluster::name, Sm90Pingpong::name, Sm90StreamK::name};
    for (int i = 0; i < 7; ++i)
      if (c.kernel.rfind(order[i], 0) == 0) return 2 * i + (c.kernel.find("fp16") != std::string::npos ? 1 : 0);
    return 14;
  };
  std::stable_sort(cases.begin(), cases.end(), [&](Case const& x, Case const& y) { return rank(x) < rank(y); });
  // The fused epilogue against cublasLt's, after the ladder.
  for (GemmShape const sh : shapes) add_gelu_bias_case<bfloat16_t>(cases, sh, "bf16");
  for (GemmShape const sh : shapes) add_gelu_bias_case<half_t>(cases, sh, "fp16");
  return cases;
}

#if TESSERA_INSTANCES_EXTRA
std::vector<Case> gemm_sm90_ladder_cases(std::vector<int> const& sizes) {
  std::vector<GemmShape> shapes;
  for (int s : sizes) shapes.push_back({s, s, s});
  std::vector<Case> cases;
  add_cases<bfloat16_t, Sm90Tma, Sm90Ws, Sm90Persistent, Sm90Cluster, Sm90Pingpong, Sm90StreamK>(cases, shapes, "bf16");
  add_cases<half_t, Sm90Tma, Sm90Ws, Sm90Persistent, Sm90Cluster, Sm90Pingpong, Sm90StreamK>(cases, shapes, "fp16");
  return cases;
}
#endif

std::vector<Case> gemm_sweep_cases() {
  std::vector<GemmShape> shapes;
  for (int s : {1024, 2048, 3072, 4096, 5120, 8192, 16384}) shapes.push_back({s, s, s});
  for (int m : {128, 256, 512, 1024}) shapes.push_back({m, 8192, 8192});
  std::vector<Case> cases;
  add_cases<bfloat16_t, Sm90Persistent, Sm90Pingpong, Sm90>(cases, shapes, "bf16");
  add_cases<half_t, Sm90Persistent, Sm90Pingpong, Sm90>(cases, shapes, "fp16");
  return cases;
}

std::vector<Case> gemm_shape_cases(std::vector<GemmShape> const& shapes) {
  std::vector<Case> cases;
  add_cases<bfloat16_t, Sm90Persistent, Sm90PersistentWide, Sm90Pingpong, Sm90StreamK, Sm90StreamKMedium,
            Sm90DataParallel, Sm90, Sm90Jit>(cases, shapes, "bf16");
  add_cases<half_t, Sm90Persistent, Sm90PersistentWide, Sm90Pingpong, Sm90StreamK, Sm90StreamKMedium, Sm90DataParallel,
            Sm90, Sm90Jit>(cases, shapes, "fp16");
  return cases;
}

std::vector<Case> gemm_suite_cases(std::vector<SuiteShape> const& suite) {
  std::vector<GemmShape> shapes;
  std::vector<std::string> notes;
  for (SuiteShape const& s : suite) {
    shapes.push_back(s.shape);
    notes.push_back(s.shape_class + ": " + s.why);
  }
  std::vector<Case> cases;
  add_cases<bfloat16_t, Sm90>(cases, shapes, "bf16", notes);
  add_cases<half_t, Sm90>(cases, shapes, "fp16", notes);
  return cases;
}

}  // namespace tessera::bench
