// cuBLASLt's fastest algorithm among its top heuristics, chosen by timing and cached per problem
// (cublaslt_best.hpp).
#include "bench/cublaslt_best.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "support/cuda_check.hpp"

namespace tessera::bench {

using test::check;

namespace {

void check_lt(cublasStatus_t s, char const* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuBLASLt reference: ") + what + ": status " + std::to_string(int(s)) + " (" +
                             cublasLtGetStatusString(s) + ")");
}

std::string type_name(cudaDataType_t t) {
  switch (t) {
    case CUDA_R_16F: return "fp16";
    case CUDA_R_16BF: return "bf16";
    case CUDA_R_32F: return "fp32";
    case CUDA_R_8F_E4M3: return "e4m3";
    case CUDA_R_8F_E5M2: return "e5m2";
    default: return "type " + std::to_string(int(t));
  }
}

char const* major_name(Major m) { return m == Major::row ? "row" : "col"; }

// The process's cuBLASLt handle and workspace, made at first use and kept to the end of the
// process (freeing device memory from a static destructor may run after the CUDA runtime has gone).
cublasLtHandle_t lt_handle() {
  static cublasLtHandle_t const handle = [] {
    cublasLtHandle_t h = nullptr;
    check_lt(cublasLtCreate(&h), "cublasLtCreate");
    return h;
  }();
  return handle;
}

struct Workspace {
  void* p = nullptr;
  std::size_t bytes = 0;
};
// The workspace every choice and launch shares; only with the cache's mutex held.
Workspace& workspace() {
  static Workspace ws;
  return ws;
}
// The workspace, grown to at least `bytes` (the device is synchronized before the old one is freed).
Workspace& workspace(std::size_t bytes) {
  Workspace& ws = workspace();
  if (ws.bytes < bytes) {
    check(cudaDeviceSynchronize(), "cuBLASLt reference: synchronize before growing the workspace");
    if (ws.p) check(cudaFree(ws.p), "cuBLASLt reference: free the workspace");
    ws.p = nullptr;
    ws.bytes = 0;
    check(cudaMalloc(&ws.p, bytes), "cuBLASLt reference: allocate the workspace");
    ws.bytes = bytes;
  }
  return ws;
}

// The choice kept for a key (with the candidate count and workspace it was chosen under).
struct Entry {
  cublasLtMatmulAlgo_t algo{};
  LtChoice choice;
};
using CacheKey = std::tuple<LtGemmKey, int, std::size_t>;
std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}
std::map<CacheKey, Entry>& cache() {
  static std::map<CacheKey, Entry> c;
  return c;
}

// An operand X (r x c as the product uses it) stored with major mj, as cuBLASLt takes it: column-major
// storage is op N on an r x c matrix; row-major storage is op T on X^T, a column-major c x r matrix.
struct Operand {
  cublasOperation_t op;
  std::uint64_t rows, cols;
  std::int64_t ld;
};
Operand operand(int r, int c, Major mj, int ld) {
  return mj == Major::col ? Operand{CUBLAS_OP_N, std::uint64_t(r), std::uint64_t(c), ld}
                          : Operand{CUBLAS_OP_T, std::uint64_t(c), std::uint64_t(r), ld};
}
Major flip(Major m) { return m == Major::row ? Major::col : Major::row; }

template <class V>
V algo_attribute(cublasLtMatmulAlgo_t const& algo, cublasLtMatmulAlgoConfigAttributes_t what) {
  V v{};
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, what, &v, sizeof(v), &written) != CUBLAS_STATUS_SUCCESS) return V{};
  return v;
}

std::string describe(cublasLtMatmulAlgo_t const& algo, std::size_t workspace_bytes) {
  std::ostringstream o;
  o << "algo " << algo_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_ID) << ", tile "
    << algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID) << ", stages "
    << algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID) << ", split-K "
    << algo_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM) << ", reduction "
    << algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME) << ", swizzle "
    << algo_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING) << ", cluster "
    << algo_attribute<std::uint16_t>(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID) << ", workspace " << workspace_bytes
    << " B";
  return o.str();
}

int at_least_one(int candidates) {
  if (candidates < 1)
    throw std::invalid_argument("LtBestGemm: candidates must be >= 1, got " + std::to_string(candidates) +
                                " (cuBLASLt's heuristics propose that many algorithms to time)");
  return candidates;
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f ms", ms);
  return buf;
}

}  // namespace

std::string to_string(LtGemmKey const& k) {
  return std::to_string(k.m) + "x" + std::to_string(k.n) + "x" + std::to_string(k.k) + " " + type_name(k.in_type) +
         "->" + type_name(k.out_type) + " A " + major_name(k.a_major) + " " + std::to_string(k.lda) + ", B " +
         major_name(k.b_major) + " " + std::to_string(k.ldb) + ", D " + major_name(k.d_major) + " " +
         std::to_string(k.ldd) +
         (k.scale == LtScale::none
              ? std::string()
              : std::string(", scales ") + (k.scale == LtScale::tensor ? "tensor" : "outer_vector")) +
         (k.fast_accum ? ", fast accumulation" : "");
}

int fastest_candidate(std::vector<double> const& ms) {
  int best = -1;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (!std::isfinite(ms[i]) || !(ms[i] > 0)) continue;
    if (best < 0 || ms[i] < ms[std::size_t(best)]) best = int(i);
  }
  return best;
}

// The matmul descriptor and the three layouts of one key.
struct LtBestGemm::Descriptors {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t first = nullptr, second = nullptr, out = nullptr;
  bool swap = false;  // a row-major D: the first operand is B, the second A
  Descriptors(LtGemmKey const& k, LtScales const& scales) {
    // column-major D = A B as it is; row-major D as the column-major D^T (n x m) = B^T A^T
    swap = k.d_major == Major::row;
    Operand const f = swap ? operand(k.n, k.k, flip(k.b_major), k.ldb) : operand(k.m, k.k, k.a_major, k.lda);
    Operand const s = swap ? operand(k.k, k.m, flip(k.a_major), k.lda) : operand(k.k, k.n, k.b_major, k.ldb);
    std::uint64_t const rows = std::uint64_t(swap ? k.n : k.m), cols = std::uint64_t(swap ? k.m : k.n);
    check_lt(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &f.op, sizeof(f.op)), "TRANSA");
    check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &s.op, sizeof(s.op)), "TRANSB");
    check_lt(cublasLtMatrixLayoutCreate(&first, k.in_type, f.rows, f.cols, f.ld), "layout of the first operand");
    check_lt(cublasLtMatrixLayoutCreate(&second, k.in_type, s.rows, s.cols, s.ld), "layout of the second operand");
    check_lt(cublasLtMatrixLayoutCreate(&out, k.out_type, rows, cols, k.ldd), "layout of D");
    if (k.in_type == CUDA_R_8F_E4M3 || k.in_type == CUDA_R_8F_E5M2) {
      std::int8_t const fast = k.fast_accum ? 1 : 0;
      check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof(fast)), "FAST_ACCUM");
    }
    if (k.scale != LtScale::none) {
      // cuBLASLt's first operand is B when swapped: its scales are B's (N values: cuBLASLt's M)
      void const* const first_scale = swap ? scales.b : scales.a;
      void const* const second_scale = swap ? scales.a : scales.b;
      // A scalar scale is cuBLASLt's default mode: set a mode only for the row/column vectors, so
      // that a cuBLASLt without the mode attributes still serves the per-tensor cases.
      if (k.scale != LtScale::tensor) {
        std::int32_t const mode = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
        check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof(mode)),
                 "A_SCALE_MODE");
        check_lt(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof(mode)),
                 "B_SCALE_MODE");
      }
      check_lt(
          cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &first_scale, sizeof(first_scale)),
          "A_SCALE_POINTER");
      check_lt(
          cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &second_scale, sizeof(second_scale)),
          "B_SCALE_POINTER");
    }
  }
  ~Descriptors() {
    if (out) cublasLtMatrixLayoutDestroy(out);
    if (second) cublasLtMatrixLayoutDestroy(second);
    if (first) cublasLtMatrixLayoutDestroy(first);
    if (op) cublasLtMatmulDescDestroy(op);
  }
  Descriptors(Descriptors const&) = delete;
  Descriptors& operator=(Descriptors const&) = delete;
};

LtBestGemm::LtBestGemm(LtGemmKey const& key, void const* a, void const* b, void* d, int candidates,
                       std::size_t workspace_bytes, LtScales scales)
    : key_(key),
      a_(a),
      b_(b),
      d_(d),
      candidates_(at_least_one(candidates)),  // before the descriptors are made
      workspace_bytes_(workspace_bytes),
      desc_(std::make_unique<Descriptors>(key, scales)) {}

LtBestGemm::~LtBestGemm() = default;

LtChoice const& LtBestGemm::choose() {
  if (choice_) return *choice_;
  std::lock_guard<std::mutex> lock(cache_mutex());
  Workspace& ws = workspace(workspace_bytes_);
  CacheKey const ck{key_, candidates_, workspace_bytes_};
  auto it = cache().find(ck);
  if (it == cache().end()) {
    cublasLtHandle_t const lt = lt_handle();
    cublasLtMatmulPreference_t pref = nullptr;
    check_lt(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    std::vector<cublasLtMatmulHeuristicResult_t> proposed(static_cast<std::size_t>(candidates_));
    int found = 0;
    cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                             &workspace_bytes_, sizeof(workspace_bytes_));
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmulAlgoGetHeuristic(lt, desc_->op, desc_->first, desc_->second, desc_->out, desc_->out, pref,
                                          candidates_, proposed.data(), &found);
    cublasLtMatmulPreferenceDestroy(pref);
    check_lt(st, "cublasLtMatmulAlgoGetHeuristic");
    if (found < 1) throw std::runtime_error("cuBLASLt reference: no algorithm proposed for " + to_string(key_));
    proposed.resize(std::size_t(found));

    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cuBLASLt reference: cudaStreamCreate");
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    check(cudaEventCreate(&e1), "cudaEventCreate");
    float const one = 1.0f, zero = 0.0f;
    void const* const first = desc_->swap ? b_ : a_;
    void const* const second = desc_->swap ? a_ : b_;
    auto launch = [&](cublasLtMatmulAlgo_t const& algo) {
      return cublasLtMatmul(lt, desc_->op, &one, first, desc_->first, second, desc_->second, &zero, d_, desc_->out, d_,
                            desc_->out, &algo, ws.p, ws.bytes, s);
    };
    // ms per launch of `n` launches of candidate `algo`, -1 when a launch fails
    auto sample = [&](cublasLtMatmulAlgo_t const& algo, int n) {
      check(cudaEventRecord(e0, s), "cudaEventRecord");
      for (int i = 0; i < n; ++i)
        if (launch(algo) != CUBLAS_STATUS_SUCCESS) {
          check(cudaStreamSynchronize(s), "cuBLASLt reference: a candidate's launch");
          return -1.0;
        }
      check(cudaEventRecord(e1, s), "cudaEventRecord");
      check(cudaEventSynchronize(e1), "cuBLASLt reference: a candidate's launch");
      float t = 0;
      check(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
      return double(t) / n;
    };
    LtChoice choice;
    choice.candidates = found;
    for (auto const& h : proposed) {
      if (h.state != CUBLAS_STATUS_SUCCESS) {
        choice.ms.push_back(-1);
        continue;
      }
      double const first_ms = sample(h.algo, 1);  // the warm-up, timed to size the samples (about 2 ms each)
      if (first_ms <= 0) {
        choice.ms.push_back(-1);
        continue;
      }
      int const n = std::clamp(int(2.0 / first_ms), 1, 20);
      double best = -1;
      for (int r = 0; r < 3; ++r) {
        double const t = sample(h.algo, n);
        if (t <= 0) {
          best = -1;
          break;
        }
        best = best < 0 ? t : std::min(best, t);
      }
      choice.ms.push_back(best);
    }
    cudaEventDestroy(e1);
    cudaEventDestroy(e0);
    cudaStreamDestroy(s);
    choice.index = fastest_candidate(choice.ms);
    if (choice.index < 0)
      throw std::runtime_error("cuBLASLt reference: every one of the " + std::to_string(found) +
                               " algorithms proposed for " + to_string(key_) + " failed to launch");
    auto const& won = proposed[std::size_t(choice.index)];
    choice.detail = describe(won.algo, won.workspaceSize) + "; " + ms_text(choice.ms[std::size_t(choice.index)]) +
                    (choice.index > 0 && choice.ms[0] > 0 ? " against " + ms_text(choice.ms[0]) + " for candidate 0"
                                                          : std::string());
    it = cache().emplace(ck, Entry{won.algo, std::move(choice)}).first;
  }
  algo_ = &it->second.algo;
  choice_ = &it->second.choice;
  return *choice_;
}

void LtBestGemm::run(cudaStream_t stream) {
  if (!choice_) choose();
  std::lock_guard<std::mutex> lock(cache_mutex());
  Workspace const& ws = workspace();
  float const one = 1.0f, zero = 0.0f;
  void const* const first = desc_->swap ? b_ : a_;
  void const* const second = desc_->swap ? a_ : b_;
  check_lt(cublasLtMatmul(lt_handle(), desc_->op, &one, first, desc_->first, second, desc_->second, &zero, d_,
                          desc_->out, d_, desc_->out, algo_, ws.p, ws.bytes, stream),
           "cublasLtMatmul");
}

}  // namespace tessera::bench
