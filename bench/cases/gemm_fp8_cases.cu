// gemm_fp8_cases.cu -- the fp8 GEMM cases of `tessera-bench` (--sizes fp8): gemm_sm90_fp8
// (kernels/gemm_sm90.cuh), e4m3 A and B, K-major (A row-major, B column-major), bf16 D, against
// cuBLASLt's fastest fp8 algorithm among its top heuristics (bench/cublaslt_best.hpp) with the same
// scaling, in the same run:
//   gemm_sm90_fp8_tensor_e4m3_bf16         per-tensor scales, the persistent 128x256 kernel;
//                                          against cuBLASLt with fast accumulation (the same fp8
//                                          accumulation as ours), beside it cuBLASLt without
//   gemm_sm90_fp8_rowcol_e4m3_bf16         a scale per row of A and per column of B; against
//                                          cuBLASLt's outer-vector scaling with fast accumulation
//                                          where this cuBLASLt offers it for the device, else
//                                          (said in the reference's choice) its per-tensor form
//   gemm_sm90_fp8_pingpong_{tensor,rowcol}_e4m3_bf16  the same two scalings on the ping-pong 128x128
//                                          kernel
//   gemm_sm90_fp8_medium_tensor_e4m3_bf16  per-tensor scales, the persistent 128x128 kernel (6 stages)
//   gemm_sm90_fp8_block_e4m3_bf16          block scales (gemm_sm90_fp8_block's default: 192x128 tiles,
//                                          three consumer warpgroups), verified against cublasSgemm on
//                                          the block-scaled operands in fp32, timed against cuBLASLt's
//                                          per-tensor fp8 (the issue's target: >= 90% of it)
//   gemm_sm90_fp8_block_{medium,wide,cluster}_e4m3_bf16  the same on the other block-scaled
//                                          configurations (kernels/gemm/sm90_config.hpp): 128x128
//                                          tiles, 128x192 tiles (two B scales a tile), 128x128 tiles in
//                                          clusters of two multicasting B
// Inputs are uniform in [-1, 1) rounded to e4m3 (full-entropy data, generated on the device), the
// scales in [0.5, 1.5). verify poisons D, runs the kernel once and checks every element against
// cublasGemmEx on the same values in bf16 (e4m3 values are exact in bf16) with fp32 output, scaled:
//   |D - ref| <= 2^-8 sa sb sum_k |A B| + u_bf16 |ref| + 2^-30
// (the bound of tests/kernels/gemm_sm90_fp8.cu: the fp8 accumulation); the cuBLASLt reference is
// checked the same way.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench/cases/cases.hpp"
#include "bench/cases/fill.cuh"
#include "bench/cublaslt_best.hpp"
#include "support/cuda_check.hpp"
#include "tessera/kernels/gemm_sm90.cuh"

namespace tessera::bench {

using test::check;
using test::DeviceBuffer;

namespace {

using kernels::GemmFp8Problem;
using kernels::GemmScaleKind;

// out[r k + c] = x[r k + c] times its block scale (A: scale[(c / 128) rows + r]; B, b_blocks:
// scale[(r / 128) KB + c / 128]), abs_out its absolute value: the block-scaled operands in fp32.
__global__ void dequant_blocks(float_e4m3_t const* x, int rows, int k, float const* scale, bool b_blocks, float* out,
                               float* abs_out) {
  int const kb_count = (k + 127) / 128;
  std::uint64_t const n = std::uint64_t(rows) * k;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    int const r = int(i / k), c = int(i % k);
    float const sc = b_blocks ? scale[(r / 128) * kb_count + c / 128] : scale[std::size_t(c / 128) * rows + r];
    float const v = float(x[i]) * sc;
    out[i] = v;
    abs_out[i] = fabsf(v);
  }
}

// bad += #{(m,n) : !(|D - s ref| <= 2^-8 |s| mag + u |s ref| + 2^-30)}, s = sa[m sa_step] sb[n sb_step]
// (row-major M x N).
__global__ void compare_fp8(bfloat16_t const* d, float const* ref, float const* mag, float const* sa, int sa_step,
                            float const* sb, int sb_step, int n_cols, std::uint64_t count, unsigned long long* bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    int const m = int(i / n_cols), n = int(i % n_cols);
    double const s = double(sa[m * sa_step]) * double(sb[n * sb_step]);
    double const r = s * double(ref[i]);
    double const err = fabs(double(float(d[i])) - r);
    if (!(err <= 0x1p-8 * fabs(s) * double(mag[i]) + 0x1p-8 * fabs(r) + 0x1p-30)) atomicAdd(bad, 1ULL);
  }
}

// One shape's buffers: A (M,K) row-major and B (K,N) column-major in e4m3, their bf16 copies and
// absolute values, D, the scales (per tensor: sa_t, sb_t; per row / column: sa_v, sb_v) and the
// cuBLASLt references.
struct Fp8Buffers {
  GemmShape s;
  DeviceBuffer<float_e4m3_t> a, b;
  DeviceBuffer<bfloat16_t> a16, b16, abs_a16, abs_b16, d;
  DeviceBuffer<float> sa_t{1}, sb_t{1}, sa_v, sb_v, sa_b, sb_b;  // _b: block scales (A 1 x 128, B 128 x 128)
  cublasHandle_t handle = nullptr;
  std::unique_ptr<LtBestGemm> lt_tensor, lt_tensor_exact, lt_vector;
  bool vector_reference = true;  // whether cuBLASLt offers outer-vector scaling here (known after verify)
  explicit Fp8Buffers(GemmShape s_)
      : s(s_),
        a(std::size_t(s_.m) * s_.k),
        b(std::size_t(s_.n) * s_.k),
        a16(a.size()),
        b16(b.size()),
        abs_a16(a.size()),
        abs_b16(b.size()),
        d(std::size_t(s_.m) * s_.n),
        sa_v(std::size_t(s_.m)),
        sb_v(std::size_t(s_.n)),
        sa_b(std::size_t((s_.k + 127) / 128) * s_.m),
        sb_b(std::size_t((s_.k + 127) / 128) * ((s_.n + 127) / 128)) {
    fill_fp8<float_e4m3_t><<<1024, 256>>>(a.get(), a16.get(), abs_a16.get(), a.size(), 0x1234);
    fill_fp8<float_e4m3_t><<<1024, 256>>>(b.get(), b16.get(), abs_b16.get(), b.size(), 0x5678);
    fill_scales<float><<<64, 256>>>(sa_v.get(), s.m, 0x9abc);
    fill_scales<float><<<64, 256>>>(sb_v.get(), s.n, 0xdef0);
    fill_scales<float><<<1, 1>>>(sa_t.get(), 1, 0x1111);
    fill_scales<float><<<1, 1>>>(sb_t.get(), 1, 0x2222);
    fill_scales<float><<<256, 256>>>(sa_b.get(), int(sa_b.size()), 0x3333);
    fill_scales<float><<<64, 256>>>(sb_b.get(), int(sb_b.size()), 0x4444);
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");
    check(cublasCreate(&handle), "cublasCreate");
    LtGemmKey key;
    key.m = s.m;
    key.n = s.n;
    key.k = s.k;
    key.in_type = CUDA_R_8F_E4M3;
    key.out_type = CUDA_R_16BF;
    key.a_major = Major::row;
    key.b_major = Major::col;
    key.lda = key.ldb = s.k;
    key.ldd = s.n;
    key.scale = LtScale::tensor;
    key.fast_accum = true;
    lt_tensor = std::make_unique<LtBestGemm>(key, a.get(), b.get(), d.get(), 16, std::size_t(32) << 20,
                                             LtScales{sa_t.get(), sb_t.get()});
    key.fast_accum = false;
    lt_tensor_exact = std::make_unique<LtBestGemm>(key, a.get(), b.get(), d.get(), 16, std::size_t(32) << 20,
                                                   LtScales{sa_t.get(), sb_t.get()});
    key.fast_accum = true;
    key.scale = LtScale::outer_vector;
    try {  // a cuBLASLt that refuses the outer-vector descriptor: the per-tensor reference (vector_reference)
      lt_vector = std::make_unique<LtBestGemm>(key, a.get(), b.get(), d.get(), 16, std::size_t(32) << 20,
                                               LtScales{sa_v.get(), sb_v.get()});
    } catch (std::exception const& e) {
      std::fprintf(stderr, "tessera-bench: cuBLASLt fp8 outer-vector scaling: %s\n", e.what());
      vector_reference = false;
    }
  }
  ~Fp8Buffers() {
    if (handle) cublasDestroy(handle);
  }
  Fp8Buffers(Fp8Buffers const&) = delete;
  Fp8Buffers& operator=(Fp8Buffers const&) = delete;

  // The row-major D = A B with scales of `vector` (per row / column) or per-tensor kind.
  GemmFp8Problem<float_e4m3_t, bfloat16_t> problem(bool vector) const {
    GemmFp8Problem<float_e4m3_t, bfloat16_t> p;
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    p.a = a.get();
    p.lda = s.k;
    p.a_major = Major::row;
    p.b = b.get();
    p.ldb = s.k;
    p.b_major = Major::col;
    p.d = d.get();
    p.ldd = s.n;
    p.scale_a = {vector ? GemmScaleKind::vector : GemmScaleKind::tensor, vector ? sa_v.get() : sa_t.get()};
    p.scale_b = {vector ? GemmScaleKind::vector : GemmScaleKind::tensor, vector ? sb_v.get() : sb_t.get()};
    return p;
  }

  // The row-major D = A B with block scales (gemm_sm90_fp8_block).
  GemmFp8Problem<float_e4m3_t, bfloat16_t> block_problem() const {
    GemmFp8Problem<float_e4m3_t, bfloat16_t> p = problem(false);
    p.scale_a = {GemmScaleKind::block, sa_b.get()};
    p.scale_b = {GemmScaleKind::block, sb_b.get()};
    return p;
  }

  // out = the row-major M x N product of x (M,K rows) and y (N,K rows) in fp32 (cublasGemmEx, bf16
  // in): column-major out^T (N x M) = y^T-as-stored (op T) times x-as-stored (op N).
  void product(bfloat16_t const* x, bfloat16_t const* y, float* out) const {
    float const one = 1.0f, zero = 0.0f;
    check(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &one, y, CUDA_R_16BF, s.k, x, CUDA_R_16BF, s.k,
                       &zero, out, CUDA_R_32F, s.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx (fp8 reference)");
  }
};

// The row/column case's reference: cuBLASLt's outer-vector scaling, or its per-tensor form where
// this cuBLASLt proposes no algorithm for the former (decided at the first verify).
LtBestGemm& vector_reference(Fp8Buffers& buf) {
  if (buf.vector_reference) {
    try {
      buf.lt_vector->choose();
      return *buf.lt_vector;
    } catch (std::exception const& e) {
      std::fprintf(stderr,
                   "tessera-bench: cuBLASLt fp8 outer-vector scaling: %s; the per-tensor form is the reference\n",
                   e.what());
      buf.vector_reference = false;
    }
  }
  return *buf.lt_tensor;
}

// Checks the kernel, then its reference, against the scaled bf16 product.
template <class Cfg>
bool verify_fp8(Fp8Buffers& buf, bool vector, std::string& msg) {
  std::uint64_t const count = std::uint64_t(buf.s.m) * buf.s.n;
  DeviceBuffer<float> ref(count), mag(count);
  DeviceBuffer<unsigned long long> bad(1);
  check(cublasSetStream(buf.handle, nullptr), "cublasSetStream");
  buf.product(buf.a16.get(), buf.b16.get(), ref.get());
  buf.product(buf.abs_a16.get(), buf.abs_b16.get(), mag.get());
  LtBestGemm& lt = vector ? vector_reference(buf) : *buf.lt_tensor;
  lt.choose();
  bool const lt_vector = vector && buf.vector_reference;
  for (int who = 0; who < 2; ++who) {
    check(cudaMemset(buf.d.get(), 0xff, buf.d.bytes()), "poison D");
    if (who == 0) check(kernels::gemm_sm90_fp8<Cfg>(buf.problem(vector)), "gemm_sm90_fp8");
    else lt.run(nullptr);
    check(cudaDeviceSynchronize(), who == 0 ? "gemm_sm90_fp8" : "cublasLt fp8 (the reference)");
    check(cudaMemset(bad.get(), 0, sizeof(unsigned long long)), "cudaMemset");
    bool const v = who == 0 ? vector : lt_vector;
    compare_fp8<<<1024, 256>>>(buf.d.get(), ref.get(), mag.get(), v ? buf.sa_v.get() : buf.sa_t.get(), v ? 1 : 0,
                               v ? buf.sb_v.get() : buf.sb_t.get(), v ? 1 : 0, buf.s.n, count, bad.get());
    check(cudaGetLastError(), "compare");
    unsigned long long const mismatches = bad.download()[0];
    if (mismatches != 0) {
      msg = std::to_string(mismatches) + " of " + std::to_string(count) + " elements of " +
            (who == 0 ? "gemm_sm90_fp8" : "cublasLt fp8 (the reference)") +
            " differ from the scaled bf16 product beyond the fp8 bound";
      return false;
    }
  }
  return true;
}

template <class Cfg>
Case fp8_case(std::shared_ptr<Fp8Buffers> const& buf, std::string const& name, bool vector) {
  GemmShape const sh = buf->s;
  Case c;
  c.kernel = name;
  c.shape = to_string(sh);
  c.group = "gemm";
  c.flops = 2.0 * sh.m * double(sh.n) * sh.k;
  c.bytes = double(sh.m) * sh.k + double(sh.k) * sh.n + 2.0 * double(sh.m) * sh.n;
  c.run = [buf, vector](cudaStream_t st) {
    check(kernels::gemm_sm90_fp8<Cfg>(buf->problem(vector), st), "gemm_sm90_fp8");
  };
  if (vector) {
    c.reference = [buf](cudaStream_t st) { vector_reference(*buf).run(st); };
    c.reference_name = "cublasLt best fp8 (outer-vector scales, fast accumulation)";
    c.reference_choice = [buf] {
      LtBestGemm& lt = vector_reference(*buf);
      LtChoice const& ch = lt.choose();
      return ReferenceChoice{
          ch.index, ch.candidates,
          (buf->vector_reference ? std::string() : "per-tensor scales (no outer-vector algorithm); ") + ch.detail};
    };
  } else {
    c.reference = [buf](cudaStream_t st) { buf->lt_tensor->run(st); };
    c.reference_name = "cublasLt best fp8 (tensor scales, fast accumulation)";
    c.reference_choice = [buf] {
      LtChoice const& ch = buf->lt_tensor->choose();
      return ReferenceChoice{ch.index, ch.candidates, ch.detail};
    };
    c.also_against.push_back({"cublasLt best fp8 (tensor scales, fp32 accumulation)",
                              [buf](cudaStream_t st) { buf->lt_tensor_exact->run(st); }});
  }
  c.verify = [buf, vector](std::string& msg) { return verify_fp8<Cfg>(*buf, vector, msg); };
  c.note = std::string("e4m3 in, bf16 out, ") + (vector ? "scales per row of A and column of B" : "per-tensor scales");
  return c;
}

// Checks the block-scaled kernel against the product of the block-scaled operands in fp32
// (cublasSgemm, no TF32), with the same bound (the scales inside the sum of magnitudes).
template <class Cfg>
bool verify_fp8_block(Fp8Buffers& buf, std::string& msg) {
  GemmShape const s = buf.s;
  std::uint64_t const count = std::uint64_t(s.m) * s.n;
  DeviceBuffer<float> a32(buf.a.size()), b32(buf.b.size()), abs_a32(buf.a.size()), abs_b32(buf.b.size());
  DeviceBuffer<float> ref(count), mag(count), one(1);
  DeviceBuffer<unsigned long long> bad(1);
  one.upload({1.0f});
  dequant_blocks<<<1024, 256>>>(buf.a.get(), s.m, s.k, buf.sa_b.get(), false, a32.get(), abs_a32.get());
  dequant_blocks<<<1024, 256>>>(buf.b.get(), s.n, s.k, buf.sb_b.get(), true, b32.get(), abs_b32.get());
  check(cudaGetLastError(), "dequantize");
  check(cublasSetStream(buf.handle, nullptr), "cublasSetStream");
  float const alpha = 1.0f, zero = 0.0f;
  for (int which = 0; which < 2; ++which)  // ref, then the sum of magnitudes
    check(cublasSgemm(buf.handle, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &alpha, which ? abs_b32.get() : b32.get(),
                      s.k, which ? abs_a32.get() : a32.get(), s.k, &zero, which ? mag.get() : ref.get(), s.n),
          "cublasSgemm (block-scaled reference)");
  check(cudaMemset(buf.d.get(), 0xff, buf.d.bytes()), "poison D");
  check(kernels::gemm_sm90_fp8_block<Cfg>(buf.block_problem()), "gemm_sm90_fp8_block");
  check(cudaDeviceSynchronize(), "gemm_sm90_fp8_block");
  check(cudaMemset(bad.get(), 0, sizeof(unsigned long long)), "cudaMemset");
  compare_fp8<<<1024, 256>>>(buf.d.get(), ref.get(), mag.get(), one.get(), 0, one.get(), 0, s.n, count, bad.get());
  check(cudaGetLastError(), "compare");
  unsigned long long const mismatches = bad.download()[0];
  if (mismatches != 0) {
    msg = std::to_string(mismatches) + " of " + std::to_string(count) +
          " elements of gemm_sm90_fp8_block differ from the block-scaled fp32 product beyond the fp8 bound";
    return false;
  }
  buf.lt_tensor->choose();
  return true;
}

// The block-scaled kernel (configuration Cfg: by default 128x128 tiles) against cuBLASLt's
// per-tensor fp8 with fast accumulation (issue 33's target for block scaling: >= 90% of the
// per-tensor figure), beside it cuBLASLt's per-tensor fp8 with fp32 promotion (the accumulation
// block scaling also promotes).
template <class Cfg>
Case fp8_block_case(std::shared_ptr<Fp8Buffers> const& buf, std::string const& name, char const* tile) {
  GemmShape const sh = buf->s;
  Case c;
  c.kernel = name;
  c.shape = to_string(sh);
  c.group = "gemm";
  c.flops = 2.0 * sh.m * double(sh.n) * sh.k;
  c.bytes = double(sh.m) * sh.k + double(sh.k) * sh.n + 2.0 * double(sh.m) * sh.n;
  c.run = [buf](cudaStream_t st) {
    check(kernels::gemm_sm90_fp8_block<Cfg>(buf->block_problem(), st), "gemm_sm90_fp8_block");
  };
  c.reference = [buf](cudaStream_t st) { buf->lt_tensor->run(st); };
  c.reference_name = "cublasLt best fp8 (tensor scales, fast accumulation)";
  c.reference_choice = [buf] {
    LtChoice const& ch = buf->lt_tensor->choose();
    return ReferenceChoice{ch.index, ch.candidates, ch.detail};
  };
  c.also_against.push_back({"cublasLt best fp8 (tensor scales, fp32 accumulation)",
                            [buf](cudaStream_t st) { buf->lt_tensor_exact->run(st); }});
  c.verify = [buf](std::string& msg) { return verify_fp8_block<Cfg>(*buf, msg); };
  // (tile: the candidates' tile, said in the note; none for the default's, whose note is unchanged)
  c.note = std::string("e4m3 in, bf16 out, block scales (A 1 x 128, B 128 x 128), promoted every 128 of K; ") +
           (tile != nullptr ? std::string(tile) + "; " : std::string()) + "target >= 90% of the per-tensor reference";
  return c;
}

}  // namespace

std::vector<Case> gemm_fp8_cases(std::vector<int> const& sizes) {
  std::vector<Case> cases;
  for (int n : sizes) {
    auto buf = std::make_shared<Fp8Buffers>(GemmShape{n, n, n});
    cases.push_back(fp8_case<kernels::GemmSm90PersistentDefault>(buf, "gemm_sm90_fp8_tensor_e4m3_bf16", false));
    cases.push_back(fp8_case<kernels::GemmSm90PersistentDefault>(buf, "gemm_sm90_fp8_rowcol_e4m3_bf16", true));
    cases.push_back(fp8_case<kernels::GemmSm90PingpongDefault>(buf, "gemm_sm90_fp8_pingpong_tensor_e4m3_bf16", false));
    cases.push_back(fp8_case<kernels::GemmSm90PingpongDefault>(buf, "gemm_sm90_fp8_pingpong_rowcol_e4m3_bf16", true));
    cases.push_back(fp8_case<kernels::GemmSm90PersistentMedium>(buf, "gemm_sm90_fp8_medium_tensor_e4m3_bf16", false));
    // gemm_sm90_fp8_block's default (192x128 tiles, three consumer warpgroups), then the others
    cases.push_back(fp8_block_case<kernels::GemmSm90PersistentTall>(buf, "gemm_sm90_fp8_block_e4m3_bf16", nullptr));
    cases.push_back(fp8_block_case<kernels::GemmSm90PersistentMedium>(buf, "gemm_sm90_fp8_block_medium_e4m3_bf16",
                                                                      "128x128 tiles"));
    cases.push_back(fp8_block_case<kernels::GemmSm90PersistentWide>(buf, "gemm_sm90_fp8_block_wide_e4m3_bf16",
                                                                    "128x192 tiles, two B scales a tile"));
    cases.push_back(fp8_block_case<kernels::GemmSm90ClusterMedium>(buf, "gemm_sm90_fp8_block_cluster_e4m3_bf16",
                                                                   "128x128 tiles, clusters of 2 multicasting B"));
  }
  return cases;
}

}  // namespace tessera::bench
