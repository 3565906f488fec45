// sgemm_cases.cu -- the SGEMM cases of `tessera bench`: every version of the ladder
// (include/tessera/kernels/sgemm.cuh) against cublasSgemm (default math mode, no TF32) in the same
// run. Problem: C = A B, M = N = K, A, B and C row-major, alpha = 1, beta = 0.
//
// Inputs are uniform in [-1, 1), generated on the device from a hash of the offset. verify poisons
// C (NaN), runs the kernel once, runs cuBLAS on the same inputs, and counts on the device the
// elements outside |C - C_ref| <= 2 (K + 2) eps sum_k |A_ik B_kj| (the scale from cuBLAS on |A|,
// |B|); a NaN never passes. The buffers of one shape are shared by its cases (shared_ptr).
#include <cublas_v2.h>

#include <cfloat>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "harness.hpp"
#include "sgemm_cases.hpp"
#include "tessera/kernels/sgemm.cuh"

namespace tessera::bench {

namespace {

void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("sgemm_cases: ") + what + ": " + cudaGetErrorString(e));
}
void check(cublasStatus_t e, char const* what) {
  if (e != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("sgemm_cases: ") + what + ": cuBLAS status " + std::to_string(int(e)));
}

__global__ void fill_uniform_kernel(float* p, std::uint64_t n, std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    p[i] = float(x >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 random bits -> [-1, 1)
  }
}

__global__ void abs_kernel(float const* in, float* out, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    out[i] = fabsf(in[i]);
}

// bad += #{i : !(|c - ref| <= tol_factor * scale)} (NaN fails the comparison).
__global__ void compare_kernel(float const* c, float const* ref, float const* scale, std::uint64_t n, double tol_factor,
                               unsigned long long* bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    double const err = fabs(double(c[i]) - double(ref[i]));
    if (!(err <= tol_factor * double(scale[i]))) atomicAdd(bad, 1ULL);
  }
}

// The device buffers and cuBLAS handle of one M x N x K problem, shared by its cases.
struct SgemmBuffers {
  int m, n, k;
  float *a = nullptr, *b = nullptr, *c = nullptr, *ref = nullptr;
  cublasHandle_t handle = nullptr;
  SgemmBuffers(int m_, int n_, int k_) : m(m_), n(n_), k(k_) {
    check(cudaMalloc(&a, bytes(m, k)), "cudaMalloc A");
    check(cudaMalloc(&b, bytes(k, n)), "cudaMalloc B");
    check(cudaMalloc(&c, bytes(m, n)), "cudaMalloc C");
    check(cudaMalloc(&ref, bytes(m, n)), "cudaMalloc C_ref");
    fill_uniform_kernel<<<1024, 256>>>(a, std::uint64_t(m) * k, 0x1234);
    fill_uniform_kernel<<<1024, 256>>>(b, std::uint64_t(k) * n, 0x5678);
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");
    check(cublasCreate(&handle), "cublasCreate");
  }
  ~SgemmBuffers() {
    if (handle) cublasDestroy(handle);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(ref);
  }
  SgemmBuffers(SgemmBuffers const&) = delete;
  SgemmBuffers& operator=(SgemmBuffers const&) = delete;
  static std::size_t bytes(int r, int c) { return std::size_t(r) * std::size_t(c) * sizeof(float); }

  kernels::SgemmProblem problem(float* out, float const* pa, float const* pb) const {
    kernels::SgemmProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.alpha = 1.0f;
    p.beta = 0.0f;
    p.a = pa;
    p.lda = k;
    p.a_major = kernels::Major::row;
    p.b = pb;
    p.ldb = n;
    p.b_major = kernels::Major::row;
    p.c = out;
    p.ldc = n;
    p.c_major = kernels::Major::row;
    return p;
  }
  // Row-major C = A B through column-major cuBLAS: C^T = B^T A^T.
  void cublas(cudaStream_t s, float* out, float const* pa, float const* pb) const {
    float const one = 1.0f, zero = 0.0f;
    check(cublasSetStream(handle, s), "cublasSetStream");
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, pb, n, pa, k, &zero, out, n), "cublasSgemm");
  }
};

bool verify_case(SgemmBuffers& buf, SgemmLauncher const& launch, std::string& msg) {
  std::uint64_t const count = std::uint64_t(buf.m) * buf.n;
  check(cudaMemset(buf.c, 0xff, SgemmBuffers::bytes(buf.m, buf.n)), "poison C");
  check(launch(buf.problem(buf.c, buf.a, buf.b), nullptr), "kernel launch");
  check(cudaDeviceSynchronize(), "kernel");
  buf.cublas(nullptr, buf.ref, buf.a, buf.b);
  // The scale sum_k |A_ik B_kj|, from cuBLAS on |A| and |B| (temporary buffers).
  float *abs_a = nullptr, *abs_b = nullptr, *scale = nullptr;
  unsigned long long* bad = nullptr;
  check(cudaMalloc(&abs_a, SgemmBuffers::bytes(buf.m, buf.k)), "cudaMalloc |A|");
  check(cudaMalloc(&abs_b, SgemmBuffers::bytes(buf.k, buf.n)), "cudaMalloc |B|");
  check(cudaMalloc(&scale, SgemmBuffers::bytes(buf.m, buf.n)), "cudaMalloc scale");
  check(cudaMalloc(&bad, sizeof(unsigned long long)), "cudaMalloc count");
  abs_kernel<<<1024, 256>>>(buf.a, abs_a, std::uint64_t(buf.m) * buf.k);
  abs_kernel<<<1024, 256>>>(buf.b, abs_b, std::uint64_t(buf.k) * buf.n);
  buf.cublas(nullptr, scale, abs_a, abs_b);
  check(cudaMemset(bad, 0, sizeof(unsigned long long)), "cudaMemset");
  double const tol_factor = 2.0 * (buf.k + 2) * double(FLT_EPSILON);
  compare_kernel<<<1024, 256>>>(buf.c, buf.ref, scale, count, tol_factor, bad);
  check(cudaGetLastError(), "compare");
  unsigned long long mismatches = 0;
  check(cudaMemcpy(&mismatches, bad, sizeof mismatches, cudaMemcpyDeviceToHost), "copy count");
  cudaFree(abs_a);
  cudaFree(abs_b);
  cudaFree(scale);
  cudaFree(bad);
  if (mismatches != 0) {
    msg = std::to_string(mismatches) + " of " + std::to_string(count) +
          " elements differ from cuBLAS by more than 2 (K + 2) eps sum|A||B|";
    return false;
  }
  return true;
}

}  // namespace

std::vector<Case> sgemm_cases_for(std::vector<int> const& sizes, std::vector<NamedSgemm> const& kernels_to_run) {
  std::vector<Case> cases;
  for (int s : sizes) {
    auto buf = std::make_shared<SgemmBuffers>(s, s, s);
    std::string const shape = std::to_string(s) + "x" + std::to_string(s) + "x" + std::to_string(s);
    for (auto const& [name, launch] : kernels_to_run) {
      Case c;
      c.kernel = name;
      c.shape = shape;
      c.group = "sgemm";
      c.flops = 2.0 * s * double(s) * s;
      c.bytes = 3.0 * s * double(s) * sizeof(float);  // A, B read once, C written once
      SgemmLauncher const l = launch;
      c.run = [buf, l](cudaStream_t st) { check(l(buf->problem(buf->c, buf->a, buf->b), st), "kernel launch"); };
      c.reference = [buf](cudaStream_t st) { buf->cublas(st, buf->ref, buf->a, buf->b); };
      c.verify = [buf, l](std::string& msg) { return verify_case(*buf, l, msg); };
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

std::vector<NamedSgemm> sgemm_ladder() {
  std::vector<NamedSgemm> out;
  for (int v = 1; v <= kernels::kSgemmVersions; ++v) {
    out.push_back({kernels::sgemm_version_name(v),
                   [v](kernels::SgemmProblem const& p, cudaStream_t s) { return kernels::sgemm(v, p, s); }});
  }
  return out;
}

std::vector<Case> sgemm_cases(bool full) {
  return sgemm_cases_for(full ? std::vector<int>{4096, 8192} : std::vector<int>{1024}, sgemm_ladder());
}

}  // namespace tessera::bench
