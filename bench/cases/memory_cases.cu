// memory_cases.cu -- the memory-bound cases of `tessera-bench`: elementwise add (naive,
// vectorized, TV; fp16, bf16, fp32) and the cp.async tile copy, each against an in-run
// cudaMemcpyAsync device-to-device copy of the same number of bytes (read + write). The *_jit
// cases run the same programs compiled by the JIT while the benchmark runs, specialized on the
// run's matrix (the kernels of docs/jit.md, "Kernels specialized on the tensors").
//
// Inputs are generated on the device from a hash of the element's offset, as values whose float
// sum is exact (k/1024 for fp16, k/64 for bf16, k/2^18 for fp32), so the expected C is the one
// correctly rounded add. verify poisons C (all bits set: NaN), runs the kernel once, and a check
// kernel recomputes every expected element from the offset alone (independently of A and B) and
// counts the bit mismatches.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench/cases/cases.hpp"
#include "support/cuda_check.hpp"
#include "tessera/jit/compile.hpp"
#include "tessera/kernels/elementwise_add.cuh"
#include "tessera/kernels/tile_copy.cuh"

namespace tessera::bench {

// CUDA checks, device buffers and the cuBLAS reference with its tolerance: tests/support/.
using test::check;
using test::DeviceBuffer;

namespace {

__host__ __device__ inline std::uint32_t hash32(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

// The value at offset i of input `which` (0: A, 1: B), as a float exactly representable in T.
template <class T>
__device__ float gen_value(std::uint64_t i, int which) {
  std::uint32_t h = hash32(i * 2 + std::uint64_t(which) + 0x9e3779b97f4a7c15ULL);
  if constexpr (std::is_same_v<T, __half>) {
    return float(int(h % 4097u) - 2048) / 1024.0f;
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return float(int(h % 257u) - 128) / 64.0f;
  } else {
    return float(int(h % (1u << 20)) - (1 << 19)) / float(1 << 18);
  }
}

template <class T>
__device__ T to_elem(float v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(v);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(v);
  } else {
    return v;
  }
}

template <class T>
__global__ void fill_kernel(T* p, std::uint64_t n, int which) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    p[i] = to_elem<T>(gen_value<T>(i, which));
}

template <class T>
__device__ bool same_bits(T a, T b) {
  if constexpr (sizeof(T) == 2) {
    return *reinterpret_cast<unsigned short*>(&a) == *reinterpret_cast<unsigned short*>(&b);
  } else {
    return __float_as_uint(a) == __float_as_uint(b);
  }
}

// mismatches += #{i : C[i] != round(A(i) + B(i))} (mode 0) or #{i : D[i] != A(i)} (mode 1).
template <class T>
__global__ void check_kernel(T const* C, std::uint64_t n, int mode, unsigned long long* mismatches) {
  unsigned long long bad = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    float want = mode == 0 ? gen_value<T>(i, 0) + gen_value<T>(i, 1) : gen_value<T>(i, 0);
    if (!same_bits(C[i], to_elem<T>(want))) ++bad;
  }
  if (bad) atomicAdd(mismatches, bad);
}

// Device buffers shared by all cases of one run: A, B, C of `tensor_bytes` each, and the
// reference copy's source and destination.
struct Pool {
  DeviceBuffer<unsigned char> a, b, c, rs, rd;
  DeviceBuffer<unsigned long long> counter{1};
  Pool(std::size_t tensor_bytes, std::size_t ref_bytes)
      : a(tensor_bytes), b(tensor_bytes), c(tensor_bytes), rs(ref_bytes), rd(ref_bytes) {
    check(cudaMemset(rs.get(), 0x3c, ref_bytes), "cudaMemset reference source");
  }
};

template <class T>
unsigned long long count_mismatches(Pool& p, std::uint64_t n, int mode) {
  check(cudaMemset(p.counter.get(), 0, sizeof(unsigned long long)), "cudaMemset counter");
  check_kernel<T><<<1024, 256>>>(reinterpret_cast<T const*>(p.c.get()), n, mode, p.counter.get());
  check(cudaGetLastError(), "check kernel launch");
  return p.counter.download()[0];
}

template <class T>
char const* type_name() {
  if constexpr (std::is_same_v<T, __half>) return "fp16";
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  else return "fp32";
}

// launch(stream) launches the kernel once and returns its error.
template <class T>
Case make_case(std::shared_ptr<Pool> pool, std::string kernel, int M, int N, int inputs,
               std::function<cudaError_t(cudaStream_t)> launch) {
  Case c;
  std::uint64_t n = std::uint64_t(M) * N;
  c.kernel = kernel + "_" + type_name<T>();
  c.shape = std::to_string(M) + "x" + std::to_string(N);
  c.group = "memory";
  c.bytes = double(n) * sizeof(T) * (inputs + 1);
  std::string const name = c.kernel;
  c.run = [launch, name](cudaStream_t s) { check(launch(s), name.c_str()); };
  std::size_t ref_half = std::size_t(c.bytes / 2);
  c.reference = [pool, ref_half](cudaStream_t s) {
    check(cudaMemcpyAsync(pool->rd.get(), pool->rs.get(), ref_half, cudaMemcpyDeviceToDevice, s),
          "reference cudaMemcpyAsync");
  };
  c.verify = [pool, n, inputs, launch](std::string& msg) {
    fill_kernel<T><<<4096, 256>>>(reinterpret_cast<T*>(pool->a.get()), n, 0);
    fill_kernel<T><<<4096, 256>>>(reinterpret_cast<T*>(pool->b.get()), n, 1);
    check(cudaMemset(pool->c.get(), 0xff, n * sizeof(T)), "poison C");
    check(cudaDeviceSynchronize(), "fill");
    check(launch(nullptr), "kernel launch");
    check(cudaDeviceSynchronize(), "kernel");
    unsigned long long bad = count_mismatches<T>(*pool, n, inputs == 2 ? 0 : 1);
    if (bad) msg = std::to_string(bad) + " of " + std::to_string(n) + " elements differ from the expected result";
    return bad == 0;
  };
  return c;
}

template <class T>
void add_cases(std::vector<Case>& cs, std::shared_ptr<Pool> pool, int M, int N) {
  auto* A = reinterpret_cast<T const*>(pool->a.get());
  auto* B = reinterpret_cast<T const*>(pool->b.get());
  auto* C = reinterpret_cast<T*>(pool->c.get());
  cs.push_back(make_case<T>(pool, "add_naive", M, N, 2,
                            [=](cudaStream_t s) { return kernels::add_naive(A, B, C, M, N, Major::row, s); }));
  cs.push_back(make_case<T>(pool, "add_vectorized", M, N, 2,
                            [=](cudaStream_t s) { return kernels::add_vectorized(A, B, C, M, N, Major::row, s); }));
  cs.push_back(make_case<T>(pool, "add_vectorized_x4", M, N, 2, [=](cudaStream_t s) {
    return kernels::add_vectorized<T, 4>(A, B, C, M, N, Major::row, s);
  }));
  cs.push_back(make_case<T>(pool, "add_tv", M, N, 2,
                            [=](cudaStream_t s) { return kernels::add_tv(A, B, C, M, N, Major::row, s); }));
}

template <class T>
void copy_case(std::vector<Case>& cs, std::shared_ptr<Pool> pool, int M, int N, kernels::TileCopyConfig cfg,
               std::string name) {
  // The copy reads A and writes C: the check compares C with A.
  auto* S = reinterpret_cast<T const*>(pool->a.get());
  auto* D = reinterpret_cast<T*>(pool->c.get());
  cs.push_back(make_case<T>(pool, name, M, N, 1,
                            [=](cudaStream_t s) { return kernels::tile_copy(S, D, M, N, Major::row, cfg, s); }));
}

// The JIT's build of one kernel of `source`, compiled on the first launch (its compile time is
// reported once on stderr); launch(grid, block, args...) returns cudaErrorLaunchFailure, after
// printing why, when compiling or launching fails.
class JitKernel {
 public:
  JitKernel(std::string source, std::string name) : source_(std::move(source)), name_(std::move(name)) {}
  template <class... Args>
  cudaError_t launch(cudaStream_t s, jit::Dim3 grid, unsigned block, Args const&... args) {
    try {
      if (!program_) {
        auto const t0 = std::chrono::steady_clock::now();
        program_ = std::make_unique<jit::Program>(jit::compile(source_, {name_}));
        std::fprintf(stderr, "JIT: %s: %.2f s (%s)\n", name_.c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                     program_->from_disk_cache() ? "from the disk cache" : "NVRTC");
      }
      jit::LaunchConfig c;
      c.grid = grid;
      c.block = {block};
      c.stream = s;
      program_->kernel(0).launch(c, args...);
      return cudaSuccess;
    } catch (jit::jit_error const& e) {
      std::fprintf(stderr, "JIT: %s\n", e.what());
      return cudaErrorLaunchFailure;
    }
  }

 private:
  std::string source_, name_;
  std::unique_ptr<jit::Program> program_;
};

template <class T>
char const* cxx_name() {
  if constexpr (std::is_same_v<T, __half>) return "__half";
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return "__nv_bfloat16";
  else return "float";
}

// The add and the seed's tile copy (32 rows, 512 threads), compiled for this M x N row-major matrix.
template <class T>
void jit_cases(std::vector<Case>& cs, std::shared_ptr<Pool> pool, int M, int N) {
  auto* A = reinterpret_cast<T const*>(pool->a.get());
  auto* B = reinterpret_cast<T const*>(pool->b.get());
  auto* C = reinterpret_cast<T*>(pool->c.get());
  std::string const source =
      "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n#include \"tessera/kernels/elementwise_add.cuh\"\n"
      "#include \"tessera/kernels/tile_copy.cuh\"\n";
  auto in = [](long long v) { return "tessera::Int<" + std::to_string(v) + ">"; };
  std::string const t = cxx_name<T>();
  std::string const l = "tessera::Layout<tessera::Shape<" + in(M) + "," + in(N) + ">,tessera::Stride<" + in(N) + "," +
                        in(1) + ">>";  // (M,N):(N,1)
  std::string const thr = "tessera::Layout<tessera::Shape<" + in(4) + "," + in(32) + ">,tessera::Stride<" + in(32) +
                          "," + in(1) + ">>";  // (4,32):(32,1)
  std::string const val = "tessera::Layout<tessera::Shape<" + in(4) + "," + in(8) + ">,tessera::Stride<" + in(8) + "," +
                          in(1) + ">>";  // (4,8):(8,1)
  long long const n = (long long)M * N;
  int const vec = 16 / int(sizeof(T));
  auto add = [&](char const* kernel, std::string const& expr, jit::Dim3 grid, unsigned block) {
    auto k = std::make_shared<JitKernel>(source, expr);
    cs.push_back(
        make_case<T>(pool, kernel, M, N, 2, [=](cudaStream_t s) { return k->launch(s, grid, block, A, B, C); }));
  };
  add("add_naive_jit", "tessera::kernels::add_naive_static<" + t + ", " + l + ">", {unsigned((n + 255) / 256)}, 256);
  add("add_vectorized_jit",
      "tessera::kernels::add_vectorized_static<" + t + ", " + l + ", " + std::to_string(vec) + ", 256, 16>",
      {unsigned((n / vec + 255) / 256)}, 256);
  add("add_tv_jit", "tessera::kernels::add_tv_static<" + t + ", " + l + ", " + thr + ", " + val + ", 16>",
      {unsigned((M / 16) * (N / 256))}, 128);
  if constexpr (sizeof(T) == 2) {
    auto k = std::make_shared<JitKernel>(source, "tessera::kernels::tile_copy_static<" + t + ", " + l + ", 32, 512>");
    unsigned const tile_n = 512 / 32 * unsigned(vec);
    cs.push_back(make_case<T>(pool, "tile_copy_seed_jit", M, N, 1, [=](cudaStream_t s) {
      return k->launch(s, {unsigned(N) / tile_n, unsigned(M) / 32}, 512, A, C);
    }));
  }
}

}  // namespace

std::vector<Case> memory_cases(bool full) {
  int M = full ? 32768 : 4096, N = full ? 32768 : 4096;
  std::size_t n = std::size_t(M) * N;
  // fp32 is the widest element: 3 tensors of 4 bytes, the add's reference copies 1.5 tensors.
  auto pool = std::make_shared<Pool>(n * 4, n * 4 * 3 / 2);
  std::vector<Case> cs;
  add_cases<__half>(cs, pool, M, N);
  add_cases<__nv_bfloat16>(cs, pool, M, N);
  add_cases<float>(cs, pool, M, N);
  copy_case<__half>(cs, pool, M, N, {32, 512, 0}, "tile_copy_seed");
  copy_case<__half>(cs, pool, M, N, {64, 256, 256}, "tile_copy_64x256");
  // M and N are multiples of the tiles (16,256) and (32,128) of the TV add and the tile copy.
  jit_cases<__half>(cs, pool, M, N);
  jit_cases<float>(cs, pool, M, N);
  return cs;
}

}  // namespace tessera::bench
