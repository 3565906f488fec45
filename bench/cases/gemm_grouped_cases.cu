// gemm_grouped_cases.cu -- the grouped GEMM cases of `tessera-bench` (--sizes grouped):
// gemm_sm90_grouped (kernels/gemm_sm90_grouped.cuh), bf16 A (tokens x K, packed by expert), B
// (G x N x K: each expert's weights K-major), bf16 D, the tile gemm_sm90_grouped picks, against in
// the same run:
//   * "cublasGemmEx loop": one cublasGemmEx per non-empty group (what a framework without a grouped
//     kernel does), the reference the ratio is reported against;
//   * "cublasGemmGroupedBatchedEx": cuBLAS's own grouped call (one problem per group), beside it;
//   * "gemm_sm90_grouped 128x256" and "... 64x256": our kernel with each tile, whichever the rule
//     picks (verified too), beside it: the measurements behind gemm_sm90_grouped_pick.
// And gemm_sm90_grouped_fp8_{tensor,rowcol}_* (e4m3 -> bf16) against a loop of cuBLASLt fp8 GEMMs
// (below, before gemm_grouped_cases).
// Verification before timing: the kernel's D against the loop's fp32 result (cublasGemmEx with an
// fp32 D), every element on the device, |D - ref| <= 2^-7 |ref| + K 2^-16 (a bf16 rounding and the
// two fp32 sums' differences, far below a wrong element's error, which is of the order of
// sqrt(K) / 3 for these inputs); cuBLAS's grouped call is checked the same way (a failure or mismatch
// there is reported on stderr, the call is no longer made, and the case's figure against it is void).
// Shapes: N = K = 4096 with 8 and 64 groups; Mixtral 8x7B's experts (8 of 14336 x 4096: the up
// projection N = 14336, K = 4096, and the down projection N = 4096, K = 14336) at 64 and 1024 tokens
// an expert on average; DeepSeek-V3's (256 of 2048 x 7168: up N = 2048, K = 7168; down N = 7168,
// K = 2048) at 8, 32, 128 and 256 tokens an expert. Tokens per expert are drawn uniformly within
// +-50% of the mean, one group in eight left empty (routing is never even).
#include <cublasLt.h>
#include <cublas_v2.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bench/cases/cases.hpp"
#include "bench/cases/fill.cuh"
#include "bench/cublaslt_best.hpp"
#include "support/cuda_check.hpp"
#include "tessera/kernels/gemm_sm90_grouped.cuh"

namespace tessera::bench {

using test::check;
using test::DeviceBuffer;

namespace {

// Counts the elements of d (rows x n, row-major) outside the bound of ref; the first bad index.
__global__ void grouped_compare(bfloat16_t const* d, float const* ref, std::uint64_t count, float abs_tol,
                                unsigned long long* bad, unsigned long long* first) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    float const r = ref[i], x = float(d[i]);
    if (!(fabsf(x - r) <= 0.0078125f * fabsf(r) + abs_tol)) {
      atomicAdd(bad, 1ULL);
      atomicMin(first, (unsigned long long)i);
    }
  }
}

// The weights of G experts (G x N x K, bf16), shared by the cases of one (G, N, K).
struct GroupedWeights {
  int groups, n, k;
  DeviceBuffer<bfloat16_t> b;
  GroupedWeights(int g, int n_, int k_) : groups(g), n(n_), k(k_), b(std::size_t(g) * n_ * k_) {
    fill_uniform<bfloat16_t><<<2048, 256>>>(b.get(), b.size(), 0x5678 + std::uint64_t(g) * 131 + std::uint64_t(n_));
    check(cudaGetLastError(), "fill");
  }
};

std::shared_ptr<GroupedWeights> weights(int g, int n, int k) {
  static std::map<std::tuple<int, int, int>, std::weak_ptr<GroupedWeights>> cache;
  auto& w = cache[{g, n, k}];
  if (auto s = w.lock()) return s;
  auto s = std::make_shared<GroupedWeights>(g, n, k);
  w = s;
  return s;
}

// One case's tokens and outputs; allocated at its first verify (the weights when the case is made).
struct GroupedBuffers {
  std::shared_ptr<GroupedWeights> w;
  std::vector<int> sizes, offsets;  // rows of each group; offsets (G + 1)
  int total = 0;
  DeviceBuffer<bfloat16_t> a, d, d2;
  DeviceBuffer<float> ref;
  DeviceBuffer<int> dev_offsets;
  DeviceBuffer<void const*> ptr_a, ptr_b;
  DeviceBuffer<void*> ptr_d;
  std::vector<int> nz;  // the non-empty groups
  cublasHandle_t handle = nullptr;
  bool ready = false;
  bool batched_ok = true;  // cublasGemmGroupedBatchedEx ran and agreed with the loop at verification
  ~GroupedBuffers() {
    if (handle) cublasDestroy(handle);
  }

  void prepare() {
    if (ready) return;
    ready = true;
    int const G = w->groups, N = w->n, K = w->k;
    a = DeviceBuffer<bfloat16_t>(std::size_t(std::max(total, 1)) * K);
    d = DeviceBuffer<bfloat16_t>(std::size_t(std::max(total, 1)) * N);
    d2 = DeviceBuffer<bfloat16_t>(d.size());
    ref = DeviceBuffer<float>(d.size());
    dev_offsets = DeviceBuffer<int>(offsets.size());
    dev_offsets.upload(offsets);
    fill_uniform<bfloat16_t><<<2048, 256>>>(a.get(), a.size(), 0x1234 + std::uint64_t(total));
    check(cudaGetLastError(), "fill");
    for (int g = 0; g < G; ++g)
      if (sizes[std::size_t(g)] > 0) nz.push_back(g);
    std::vector<void const*> pa, pb;
    std::vector<void*> pd;
    for (int g : nz) {
      pa.push_back(a.get() + std::size_t(offsets[std::size_t(g)]) * K);
      pb.push_back(w->b.get() + std::size_t(g) * N * K);
      pd.push_back(d2.get() + std::size_t(offsets[std::size_t(g)]) * N);
    }
    ptr_a = DeviceBuffer<void const*>(std::max<std::size_t>(pa.size(), 1));
    ptr_b = DeviceBuffer<void const*>(ptr_a.size());
    ptr_d = DeviceBuffer<void*>(ptr_a.size());
    ptr_a.upload(pa);
    ptr_b.upload(pb);
    ptr_d.upload(pd);
    check(cublasCreate(&handle), "cublasCreate");
    check(cudaDeviceSynchronize(), "prepare");
  }

  kernels::GemmGroupedProblem<bfloat16_t, bfloat16_t> problem() const {
    kernels::GemmGroupedProblem<bfloat16_t, bfloat16_t> p;
    p.groups = w->groups;
    p.m = total;
    p.n = w->n;
    p.k = w->k;
    p.form = kernels::GemmGroupedForm::offsets;
    p.rows = dev_offsets.get();
    p.a = a.get();
    p.lda = w->k;
    p.b = w->b.get();
    p.ldb = w->k;
    p.stride_b = (long long)w->n * w->k;
    p.b_major = Major::col;
    p.d = d.get();
    p.ldd = w->n;
    return p;
  }

  // D_g (row-major rows x N) = A_g (rows x K) B_g^T (B_g stored N x K): in cuBLAS's column-major
  // terms D_g^T (N x rows) = op_T(B_g as K x N) op_N(A_g^T as K x rows).
  template <class Out>
  void loop(cudaStream_t stream, Out* out, cudaDataType_t type) const {
    check(cublasSetStream(handle, stream), "cublasSetStream");
    float const alpha = 1.0f, beta = 0.0f;
    int const N = w->n, K = w->k;
    for (int g : nz) {
      std::size_t const r0 = std::size_t(offsets[std::size_t(g)]);
      check(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, sizes[std::size_t(g)], K, &alpha,
                         w->b.get() + std::size_t(g) * N * K, CUDA_R_16BF, K, a.get() + r0 * K, CUDA_R_16BF, K, &beta,
                         out + r0 * N, type, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx");
    }
  }
  void grouped_batched(cudaStream_t stream) const {
    check(cublasSetStream(handle, stream), "cublasSetStream");
    int const count = int(nz.size());
    if (count == 0 || !batched_ok) return;
    std::vector<cublasOperation_t> ta(std::size_t(count), CUBLAS_OP_T), tb(std::size_t(count), CUBLAS_OP_N);
    std::vector<int> m(std::size_t(count), w->n), n, k(std::size_t(count), w->k), one(std::size_t(count), 1);
    std::vector<int> lda(std::size_t(count), w->k), ldb(std::size_t(count), w->k), ldc(std::size_t(count), w->n);
    std::vector<float> alpha(std::size_t(count), 1.0f), beta(std::size_t(count), 0.0f);
    for (int g : nz) n.push_back(sizes[std::size_t(g)]);
    check(cublasGemmGroupedBatchedEx(handle, ta.data(), tb.data(), m.data(), n.data(), k.data(), alpha.data(),
                                     ptr_b.get(), CUDA_R_16BF, lda.data(), ptr_a.get(), CUDA_R_16BF, ldb.data(),
                                     beta.data(), ptr_d.get(), CUDA_R_16BF, ldc.data(), count, one.data(),
                                     CUBLAS_COMPUTE_32F),
          "cublasGemmGroupedBatchedEx");
  }

  // bad elements of out against ref (synchronous); first: the first bad index
  unsigned long long compare(bfloat16_t const* out, unsigned long long& first) const {
    DeviceBuffer<unsigned long long> c(2);
    std::vector<unsigned long long> init{0, ~0ULL};
    c.upload(init);
    float const abs_tol = float(w->k) * (1.0f / 65536.0f);
    grouped_compare<<<1024, 256>>>(out, ref.get(), std::uint64_t(total) * w->n, abs_tol, c.get(), c.get() + 1);
    check(cudaGetLastError(), "compare");
    auto const r = c.download();
    first = r[1];
    return r[0];
  }
};

// Sizes of `groups` groups around `mean` rows (uniform within +-50%, at least 1), one in eight empty.
std::vector<int> token_counts(int groups, int mean, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(std::max(1, mean / 2), std::max(1, mean + mean / 2));
  std::vector<int> s;
  for (int g = 0; g < groups; ++g) s.push_back(g % 8 == 3 ? 0 : dist(rng));
  return s;
}

Case grouped_case(std::string const& name, int groups, int n, int k, int mean) {
  auto buf = std::make_shared<GroupedBuffers>();
  buf->w = weights(groups, n, k);
  buf->sizes = token_counts(groups, mean, unsigned(groups * 1000 + mean + n));
  buf->offsets.push_back(0);
  for (int s : buf->sizes) buf->offsets.push_back(buf->offsets.back() + s);
  buf->total = buf->offsets.back();
  int lo = 1 << 30, hi = 0;
  for (int s : buf->sizes)
    if (s > 0) lo = std::min(lo, s), hi = std::max(hi, s);
  Case c;
  c.kernel = "gemm_sm90_grouped_" + name;
  c.shape = std::to_string(groups) + "x(" + std::to_string(n) + "x" + std::to_string(k) + ") rows " +
            std::to_string(buf->total);
  c.group = "gemm_grouped";
  c.flops = 2.0 * double(buf->total) * n * k;
  c.bytes = 2.0 * (double(buf->total) * (k + n) + double(groups) * n * k);
  c.note = std::to_string(mean) + " rows a group on average (" + std::to_string(lo) + ".." + std::to_string(hi) +
           ", every 8th empty); tile " +
           (kernels::gemm_sm90_grouped_pick(buf->total, groups) == kernels::GemmSm90GroupedPick::small ? "64x256"
                                                                                                       : "128x256");
  c.reference_name = "cublasGemmEx loop";
  c.run = [buf](cudaStream_t s) { check(kernels::gemm_sm90_grouped(buf->problem(), s), "gemm_sm90_grouped"); };
  // Both tiles, whichever the rule picks, timed in the same run (the data behind gemm_sm90_grouped_pick).
  c.also_against.push_back({"gemm_sm90_grouped 128x256", [buf](cudaStream_t s) {
                              check(kernels::gemm_sm90_grouped<kernels::GemmSm90GroupedLarge>(buf->problem(), s),
                                    "gemm_sm90_grouped 128x256");
                            }});
  c.also_against.push_back({"gemm_sm90_grouped 64x256", [buf](cudaStream_t s) {
                              check(kernels::gemm_sm90_grouped<kernels::GemmSm90GroupedSmall>(buf->problem(), s),
                                    "gemm_sm90_grouped 64x256");
                            }});
  c.reference = [buf](cudaStream_t s) { buf->loop(s, buf->d2.get(), CUDA_R_16BF); };
  c.also_against.push_back({"cublasGemmGroupedBatchedEx", [buf](cudaStream_t s) { buf->grouped_batched(s); }});
  c.verify = [buf, name](std::string& why) {
    buf->prepare();
    buf->loop(nullptr, buf->ref.get(), CUDA_R_32F);
    check(cudaMemset(buf->d.get(), 0xff, buf->d.bytes()), "memset");  // NaN: every element must be written
    check(kernels::gemm_sm90_grouped(buf->problem(), nullptr), "gemm_sm90_grouped");
    check(cudaDeviceSynchronize(), "gemm_sm90_grouped");
    unsigned long long first = 0;
    unsigned long long bad = buf->compare(buf->d.get(), first);
    for (int tile = 0; tile < 2 && bad == 0; ++tile) {  // the two tiles timed beside it
      check(cudaMemset(buf->d.get(), 0xff, buf->d.bytes()), "memset");
      if (tile == 0)
        check(kernels::gemm_sm90_grouped<kernels::GemmSm90GroupedLarge>(buf->problem(), nullptr), "128x256");
      else check(kernels::gemm_sm90_grouped<kernels::GemmSm90GroupedSmall>(buf->problem(), nullptr), "64x256");
      check(cudaDeviceSynchronize(), "gemm_sm90_grouped (a tile)");
      bad = buf->compare(buf->d.get(), first);
      if (bad > 0) why = std::string(tile == 0 ? "the 128x256 tile: " : "the 64x256 tile: ");
    }
    check(cudaMemset(buf->d2.get(), 0xff, buf->d2.bytes()), "memset");
    try {
      buf->grouped_batched(nullptr);
      check(cudaDeviceSynchronize(), "cublasGemmGroupedBatchedEx");
      unsigned long long first2 = 0;
      if (unsigned long long const bad2 = buf->compare(buf->d2.get(), first2); bad2 > 0) {
        std::fprintf(stderr,
                     "tessera-bench: %s: cublasGemmGroupedBatchedEx disagrees with the loop in %llu elements; its "
                     "figure for this case is void\n",
                     name.c_str(), bad2);
        buf->batched_ok = false;
      }
    } catch (std::exception const& e) {
      std::fprintf(stderr,
                   "tessera-bench: %s: cublasGemmGroupedBatchedEx failed (%s); its figure for this case is void\n",
                   name.c_str(), e.what());
      buf->batched_ok = false;
    }
    if (bad == 0) return true;
    why += std::to_string(bad) + " elements outside the bound; the first at row " + std::to_string(first / buf->w->n) +
           ", column " + std::to_string(first % buf->w->n);
    return false;
  };
  return c;
}

// ---- fp8: gemm_sm90_grouped_fp8, e4m3 A and B (K-major), bf16 D ----
// Against a loop of cuBLASLt fp8 GEMMs over the non-empty groups (each group's problem with
// cuBLASLt's first heuristic algorithm, fast accumulation, the same scales: per tensor, A's one and
// B's one per group; or per row of A and per group and column of B, cuBLASLt's outer-vector form),
// in the same run. Verified before timing, both ours and the loop, against the product of the e4m3
// values in bf16 (exact) computed by cublasGemmEx in fp32, scaled:
//   |D - s ref| <= 2^-8 |s| sum_k |A B| + 2^-8 |s ref| + 2^-30  (s = sa(m) sb_g(n))
// (gemm_sm90_fp8's bound: the tensor cores' fp8 accumulation keeps fewer bits than fp32).

// bad += the elements (m, c) of d (rows x n) outside the fp8 bound, s = sa[m sa_step] sb[g b_gstep +
// c b_step] with g = row_group[m].
__global__ void grouped_compare_fp8(bfloat16_t const* d, float const* ref, float const* mag, int const* row_group,
                                    float const* sa, int sa_step, float const* sb, int b_gstep, int b_step, int n,
                                    std::uint64_t count, unsigned long long* bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    int const m = int(i / n), c = int(i % n);
    double const sc = double(sa[m * sa_step]) * double(sb[row_group[m] * b_gstep + c * b_step]);
    double const r = sc * double(ref[i]);
    double const err = fabs(double(float(d[i])) - r);
    if (!(err <= 0x1p-8 * fabs(sc) * double(mag[i]) + 0x1p-8 * fabs(r) + 0x1p-30)) atomicAdd(bad, 1ULL);
  }
}

struct GroupedFp8Buffers {
  int groups, n, k, total = 0;
  bool vector;  // scales per row of A and per group and column of B; else per tensor and per group
  std::vector<int> sizes, offsets, nz;
  DeviceBuffer<float_e4m3_t> a, b;
  DeviceBuffer<bfloat16_t> d;
  DeviceBuffer<float> sa, sb;
  DeviceBuffer<int> dev_offsets, row_group;
  std::vector<std::unique_ptr<LtBestGemm>> lt;  // one per non-empty group
  std::string lt_note;                          // why the loop is cublasGemmEx's (cuBLASLt refused fp8)
  DeviceBuffer<bfloat16_t> a16, b16, d16;       // the bf16 values (for the fallback loop)
  cublasHandle_t handle = nullptr;
  bool ready = false;
  GroupedFp8Buffers(int g, int n_, int k_, bool vec) : groups(g), n(n_), k(k_), vector(vec) {}
  ~GroupedFp8Buffers() {
    if (handle) cublasDestroy(handle);
  }

  kernels::GemmGroupedFp8Problem<float_e4m3_t, bfloat16_t> problem() const {
    kernels::GemmGroupedFp8Problem<float_e4m3_t, bfloat16_t> p;
    p.groups = groups;
    p.m = total;
    p.n = n;
    p.k = k;
    p.form = kernels::GemmGroupedForm::offsets;
    p.rows = dev_offsets.get();
    p.a = a.get();
    p.lda = k;
    p.b = b.get();
    p.ldb = k;
    p.stride_b = (long long)n * k;
    p.b_major = Major::col;
    p.d = d.get();
    p.ldd = n;
    p.scale_a = {vector ? kernels::GemmScaleKind::vector : kernels::GemmScaleKind::tensor, sa.get()};
    p.scale_b = {vector ? kernels::GemmScaleKind::vector : kernels::GemmScaleKind::tensor, sb.get()};
    return p;
  }
  // The reference: the cuBLASLt fp8 loop, or, where cuBLASLt refused it (lt_note), a loop of bf16
  // cublasGemmEx on the same values (what the fp8 kernel saves over bf16).
  void loop(cudaStream_t s) {
    if (lt_note.empty()) {
      for (auto& l : lt) l->run(s);
      return;
    }
    check(cublasSetStream(handle, s), "cublasSetStream");
    float const one = 1.0f, zero = 0.0f;
    for (int g : nz) {
      std::size_t const r0 = std::size_t(offsets[std::size_t(g)]);
      check(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, sizes[std::size_t(g)], k, &one,
                         b16.get() + std::size_t(g) * n * k, CUDA_R_16BF, k, a16.get() + r0 * k, CUDA_R_16BF, k, &zero,
                         d16.get() + r0 * n, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx (fallback loop)");
    }
  }

  // The cuBLASLt loop: one LtBestGemm per non-empty group, chosen (throws where cuBLASLt refuses).
  void make_lt() {
    for (int g : nz) {
      std::size_t const r0 = std::size_t(offsets[std::size_t(g)]);
      LtGemmKey key;
      key.m = sizes[std::size_t(g)];
      key.n = n;
      key.k = k;
      key.in_type = CUDA_R_8F_E4M3;
      key.out_type = CUDA_R_16BF;
      key.a_major = Major::row;
      key.b_major = Major::col;
      key.lda = key.ldb = k;
      key.ldd = n;
      key.scale = vector ? LtScale::outer_vector : LtScale::tensor;
      key.fast_accum = true;
      LtScales const sc{vector ? static_cast<void const*>(sa.get() + r0) : sa.get(),
                        sb.get() + std::size_t(g) * (vector ? n : 1)};
      lt.push_back(std::make_unique<LtBestGemm>(key, a.get() + r0 * k, b.get() + std::size_t(g) * n * k,
                                                d.get() + r0 * n, 1, std::size_t(4) << 20, sc));
    }
    for (auto& l : lt) l->choose();
  }

  // Makes the buffers and the reference loop, and verifies ours and the loop (false + why).
  bool verify(std::string& why) {
    std::size_t const a_elems = std::size_t(std::max(total, 1)) * k, b_elems = std::size_t(groups) * n * k;
    std::size_t const d_elems = std::size_t(std::max(total, 1)) * n;
    if (!ready) {
      ready = true;
      a = DeviceBuffer<float_e4m3_t>(a_elems);
      b = DeviceBuffer<float_e4m3_t>(b_elems);
      d = DeviceBuffer<bfloat16_t>(d_elems);
      sa = DeviceBuffer<float>(vector ? std::size_t(std::max(total, 1)) : 1);
      sb = DeviceBuffer<float>(std::size_t(groups) * (vector ? n : 1));
      dev_offsets = DeviceBuffer<int>(offsets.size());
      dev_offsets.upload(offsets);
      std::vector<int> rg(std::size_t(std::max(total, 1)), 0);
      for (int g = 0; g < groups; ++g)
        for (int r = offsets[std::size_t(g)]; r < offsets[std::size_t(g) + 1]; ++r) rg[std::size_t(r)] = g;
      row_group = DeviceBuffer<int>(rg.size());
      row_group.upload(rg);
      check(cublasCreate(&handle), "cublasCreate");
      for (int g = 0; g < groups; ++g)
        if (sizes[std::size_t(g)] > 0) nz.push_back(g);
    }
    // The bf16 copies and |.| live only while verifying (DeepSeek's weights: 3.7 GB in e4m3).
    a16 = DeviceBuffer<bfloat16_t>(a_elems);
    b16 = DeviceBuffer<bfloat16_t>(b_elems);
    d16 = DeviceBuffer<bfloat16_t>(d_elems);
    DeviceBuffer<bfloat16_t> abs_a16(a_elems), abs_b16(b_elems);
    fill_fp8<float_e4m3_t><<<2048, 256>>>(a.get(), a16.get(), abs_a16.get(), a_elems, 0x1234 + std::uint64_t(total));
    fill_fp8<float_e4m3_t><<<2048, 256>>>(b.get(), b16.get(), abs_b16.get(), b_elems, 0x5678 + std::uint64_t(n));
    fill_scales<float><<<64, 256>>>(sa.get(), int(sa.size()), 0x9abc);
    fill_scales<float><<<64, 256>>>(sb.get(), int(sb.size()), 0xdef0);
    check(cudaGetLastError(), "fill");
    DeviceBuffer<float> ref(d_elems), mag(d_elems);
    check(cublasSetStream(handle, nullptr), "cublasSetStream");
    float const one = 1.0f, zero = 0.0f;
    for (int g : nz) {
      std::size_t const r0 = std::size_t(offsets[std::size_t(g)]);
      for (int which = 0; which < 2; ++which)
        check(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, sizes[std::size_t(g)], k, &one,
                           (which ? abs_b16 : b16).get() + std::size_t(g) * n * k, CUDA_R_16BF, k,
                           (which ? abs_a16 : a16).get() + r0 * k, CUDA_R_16BF, k, &zero,
                           (which ? mag : ref).get() + r0 * n, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx (fp8 reference)");
    }
    if (lt.empty() && lt_note.empty()) {
      try {
        make_lt();
      } catch (std::exception const& e) {
        lt.clear();
        lt_note = e.what();
        std::fprintf(stderr, "tessera-bench: cuBLASLt fp8 loop refused (%s); the reference is a bf16 loop\n", e.what());
      }
    }
    DeviceBuffer<unsigned long long> bad(1);
    for (int who = 0; who < (lt_note.empty() ? 2 : 1); ++who) {
      check(cudaMemset(d.get(), 0xff, d.bytes()), "poison D");
      if (who == 0) check(kernels::gemm_sm90_grouped_fp8(problem(), nullptr), "gemm_sm90_grouped_fp8");
      else loop(nullptr);
      check(cudaDeviceSynchronize(), who == 0 ? "gemm_sm90_grouped_fp8" : "cuBLASLt fp8 loop");
      check(cudaMemset(bad.get(), 0, sizeof(unsigned long long)), "cudaMemset");
      grouped_compare_fp8<<<1024, 256>>>(d.get(), ref.get(), mag.get(), row_group.get(), sa.get(), vector ? 1 : 0,
                                         sb.get(), vector ? n : 1, vector ? 1 : 0, n,
                                         std::uint64_t(total) * std::uint64_t(n), bad.get());
      check(cudaGetLastError(), "compare");
      if (unsigned long long const m = bad.download()[0]; m != 0) {
        why = std::to_string(m) + " elements of " + (who == 0 ? "gemm_sm90_grouped_fp8" : "the cuBLASLt fp8 loop") +
              " outside the fp8 bound";
        return false;
      }
    }
    return true;
  }
};

Case grouped_fp8_case(std::string const& name, int groups, int n, int k, int mean, bool vector) {
  auto buf = std::make_shared<GroupedFp8Buffers>(groups, n, k, vector);
  buf->sizes = token_counts(groups, mean, unsigned(groups * 1000 + mean + n));  // the bf16 case's tokens
  buf->offsets.push_back(0);
  for (int s : buf->sizes) buf->offsets.push_back(buf->offsets.back() + s);
  buf->total = buf->offsets.back();
  Case c;
  c.kernel = "gemm_sm90_grouped_fp8_" + std::string(vector ? "rowcol_" : "tensor_") + name;
  c.shape = std::to_string(groups) + "x(" + std::to_string(n) + "x" + std::to_string(k) + ") rows " +
            std::to_string(buf->total);
  c.group = "gemm_grouped";
  c.flops = 2.0 * double(buf->total) * n * k;
  c.bytes = double(buf->total) * k + 2.0 * double(buf->total) * n + double(groups) * n * k;
  c.note = std::string("e4m3 -> bf16, ") +
           (vector ? "scales per row of A and per group and column of B" : "per-tensor scales (B's one per group)") +
           "; " + std::to_string(mean) + " rows a group on average; tile " +
           (kernels::gemm_sm90_grouped_pick(buf->total, groups) == kernels::GemmSm90GroupedPick::small ? "64x256"
                                                                                                       : "128x256");
  c.reference_name = std::string("cuBLASLt fp8 loop (first heuristic, fast accumulation, ") +
                     (vector ? "outer-vector scales)" : "tensor scales)");
  c.run = [buf](cudaStream_t s) { check(kernels::gemm_sm90_grouped_fp8(buf->problem(), s), "gemm_sm90_grouped_fp8"); };
  c.reference = [buf](cudaStream_t s) { buf->loop(s); };
  c.reference_choice = [buf] {
    return ReferenceChoice{0, 1,
                           buf->lt_note.empty()
                               ? std::string("cuBLASLt's first heuristic for each group")
                               : "cuBLASLt refused fp8 here (" + buf->lt_note +
                                     "): the reference is a loop of bf16 cublasGemmEx on the same values"};
  };
  c.verify = [buf](std::string& why) {
    try {
      return buf->verify(why);
    } catch (std::exception const& e) {  // e.g. no cuBLASLt algorithm for the outer-vector form
      why = std::string("not verified: ") + e.what();
      buf->lt.clear();
      return false;
    }
  };
  return c;
}

}  // namespace

std::vector<Case> gemm_grouped_cases() {
  std::vector<Case> cases;
  cases.push_back(grouped_case("nk4096_g8", 8, 4096, 4096, 1024));
  cases.push_back(grouped_case("nk4096_g64", 64, 4096, 4096, 256));
  cases.push_back(grouped_case("mixtral_up_64", 8, 14336, 4096, 64));
  cases.push_back(grouped_case("mixtral_up_1024", 8, 14336, 4096, 1024));
  cases.push_back(grouped_case("mixtral_down_1024", 8, 4096, 14336, 1024));
  for (int mean : {8, 32, 128, 256}) {
    cases.push_back(grouped_case("deepseek_up_" + std::to_string(mean), 256, 2048, 7168, mean));
    cases.push_back(grouped_case("deepseek_down_" + std::to_string(mean), 256, 7168, 2048, mean));
  }
  // fp8 (kernel names gemm_sm90_grouped_fp8_*: --kernels picks them or leaves them out)
  for (bool vector : {false, true}) {
    cases.push_back(grouped_fp8_case("nk4096_g8", 8, 4096, 4096, 1024, vector));
    cases.push_back(grouped_fp8_case("mixtral_down_1024", 8, 4096, 14336, 1024, vector));
    cases.push_back(grouped_fp8_case("deepseek_up_128", 256, 2048, 7168, 128, vector));
    cases.push_back(grouped_fp8_case("deepseek_down_256", 256, 7168, 2048, 256, vector));
  }
  return cases;
}

}  // namespace tessera::bench
