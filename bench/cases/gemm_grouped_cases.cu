// gemm_grouped_cases.cu -- the grouped GEMM cases of `tessera-bench` (--sizes grouped):
// gemm_sm90_grouped (kernels/gemm_sm90_grouped.cuh), bf16 A (tokens x K, packed by expert), B
// (G x N x K: each expert's weights K-major), bf16 D, the tile gemm_sm90_grouped picks, against in
// the same run:
//   * "cublasGemmEx loop": one cublasGemmEx per non-empty group (what a framework without a grouped
//     kernel does), the reference the ratio is reported against;
//   * "cublasGemmGroupedBatchedEx": cuBLAS's own grouped call (one problem per group), beside it.
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
#include <cublas_v2.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "bench/cases/cases.hpp"
#include "support/cuda_check.hpp"
#include "tessera/kernels/gemm_sm90_grouped.cuh"

namespace tessera::bench {

using test::check;
using test::DeviceBuffer;

namespace {

__global__ void grouped_fill(bfloat16_t* p, std::uint64_t n, std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    p[i] = bfloat16_t(float(x >> 40) * (2.0f / 16777216.0f) - 1.0f);  // uniform in [-1, 1)
  }
}

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
    grouped_fill<<<2048, 256>>>(b.get(), b.size(), 0x5678 + std::uint64_t(g) * 131 + std::uint64_t(n_));
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
    grouped_fill<<<2048, 256>>>(a.get(), a.size(), 0x1234 + std::uint64_t(total));
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
  c.reference = [buf](cudaStream_t s) { buf->loop(s, buf->d2.get(), CUDA_R_16BF); };
  c.also_against.push_back({"cublasGemmGroupedBatchedEx", [buf](cudaStream_t s) { buf->grouped_batched(s); }});
  c.verify = [buf, name](std::string& why) {
    buf->prepare();
    buf->loop(nullptr, buf->ref.get(), CUDA_R_32F);
    check(cudaMemset(buf->d.get(), 0xff, buf->d.bytes()), "memset");  // NaN: every element must be written
    check(kernels::gemm_sm90_grouped(buf->problem(), nullptr), "gemm_sm90_grouped");
    check(cudaDeviceSynchronize(), "gemm_sm90_grouped");
    unsigned long long first = 0;
    unsigned long long const bad = buf->compare(buf->d.get(), first);
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
    why = std::to_string(bad) + " elements outside the bound; the first at row " + std::to_string(first / buf->w->n) +
          ", column " + std::to_string(first % buf->w->n);
    return false;
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
  return cases;
}

}  // namespace tessera::bench
