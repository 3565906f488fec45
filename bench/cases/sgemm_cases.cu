// sgemm_cases.cu -- SGEMM cases for tessera-bench: any named SGEMM launchers against cublasSgemm
// (default math mode, no TF32) in the same run. Problem: C = A B, M = N = K, the majors of A, B and
// C given (row-major by default), alpha = 1, beta = 0. The example ladder's steps and the CuTe
// tutorial's kernel are registered by examples/sgemm/cases.cu.
//
// Inputs are uniform in [-1, 1), generated on the device from a hash of the offset. verify poisons
// C (NaN), runs the kernel once, runs cuBLAS on the same inputs, and counts on the device the
// elements outside the tolerance of gemm_reference.hpp (the scale from cuBLAS on |A|, |B|); a NaN
// never passes. The buffers of one shape are shared by its cases (shared_ptr).
#include <cublas_v2.h>

#include <cstdint>
#include <memory>
#include <string>

#include "bench/cases/cases.hpp"
#include "bench/cases/fill.cuh"
#include "support/cuda_check.hpp"
#include "support/gemm_reference.hpp"

namespace tessera::bench {

// CUDA checks, device buffers and the cuBLAS reference with its tolerance: tests/support/.
using test::check;
using test::cublas_sgemm;
using test::DeviceBuffer;
using test::gemm_tolerance_factor;

namespace {

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
  DeviceBuffer<float> a, b, c, ref;
  cublasHandle_t handle = nullptr;
  SgemmBuffers(int m_, int n_, int k_)
      : m(m_),
        n(n_),
        k(k_),
        a(std::size_t(m_) * k_),
        b(std::size_t(k_) * n_),
        c(std::size_t(m_) * n_),
        ref(std::size_t(m_) * n_) {
    fill_uniform<float><<<1024, 256>>>(a.get(), a.size(), 0x1234);
    fill_uniform<float><<<1024, 256>>>(b.get(), b.size(), 0x5678);
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");
    check(cublasCreate(&handle), "cublasCreate");
  }
  ~SgemmBuffers() {
    if (handle) cublasDestroy(handle);
  }
  SgemmBuffers(SgemmBuffers const&) = delete;
  SgemmBuffers& operator=(SgemmBuffers const&) = delete;

  // C = alpha A B + beta C with the given operands, each matrix of the given major (row-major by
  // default); the leading dimensions are the compact ones.
  kernels::SgemmProblem problem(float* out, float const* pa, float const* pb, SgemmMajors mj = {}) const {
    kernels::SgemmProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.alpha = 1.0f;
    p.beta = 0.0f;
    p.a = pa;
    p.a_major = mj.a;
    p.lda = mj.a == Major::row ? k : m;
    p.b = pb;
    p.b_major = mj.b;
    p.ldb = mj.b == Major::row ? n : k;
    p.c = out;
    p.c_major = mj.c;
    p.ldc = mj.c == Major::row ? n : m;
    return p;
  }
  void cublas(cudaStream_t s, float* out, float const* pa, float const* pb, SgemmMajors mj = {}) const {
    check(cublasSetStream(handle, s), "cublasSetStream");
    check(cublas_sgemm(handle, problem(out, pa, pb, mj)), "cublasSgemm");
  }
};

bool verify_case(SgemmBuffers& buf, SgemmLauncher const& launch, SgemmMajors mj, std::string& msg) {
  std::uint64_t const count = std::uint64_t(buf.m) * buf.n;
  check(cudaMemset(buf.c.get(), 0xff, buf.c.bytes()), "poison C");
  check(launch(buf.problem(buf.c.get(), buf.a.get(), buf.b.get(), mj), nullptr), "kernel launch");
  check(cudaDeviceSynchronize(), "kernel");
  buf.cublas(nullptr, buf.ref.get(), buf.a.get(), buf.b.get(), mj);
  // The scale sum_k |A_ik B_kj|, from cuBLAS on |A| and |B|.
  DeviceBuffer<float> abs_a(buf.a.size()), abs_b(buf.b.size()), scale(buf.c.size());
  DeviceBuffer<unsigned long long> bad(1);
  abs_kernel<<<1024, 256>>>(buf.a.get(), abs_a.get(), abs_a.size());
  abs_kernel<<<1024, 256>>>(buf.b.get(), abs_b.get(), abs_b.size());
  buf.cublas(nullptr, scale.get(), abs_a.get(), abs_b.get(), mj);
  check(cudaMemset(bad.get(), 0, sizeof(unsigned long long)), "cudaMemset");
  compare_kernel<<<1024, 256>>>(buf.c.get(), buf.ref.get(), scale.get(), count, gemm_tolerance_factor(buf.k),
                                bad.get());
  check(cudaGetLastError(), "compare");
  unsigned long long const mismatches = bad.download()[0];
  if (mismatches != 0) {
    msg = std::to_string(mismatches) + " of " + std::to_string(count) +
          " elements differ from cuBLAS by more than 2 (K + 2) eps sum|A||B|";
    return false;
  }
  return true;
}

}  // namespace

std::vector<Case> sgemm_cases_for(std::vector<int> const& sizes, std::vector<NamedSgemm> const& kernels_to_run,
                                  SgemmMajors mj) {
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
      c.run = [buf, l, mj](cudaStream_t st) {
        check(l(buf->problem(buf->c.get(), buf->a.get(), buf->b.get(), mj), st), "kernel launch");
      };
      c.reference = [buf, mj](cudaStream_t st) { buf->cublas(st, buf->ref.get(), buf->a.get(), buf->b.get(), mj); };
      c.verify = [buf, l, mj](std::string& msg) { return verify_case(*buf, l, mj, msg); };
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace tessera::bench
