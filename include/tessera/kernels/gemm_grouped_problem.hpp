// GemmGroupedProblem: many GEMMs of different row counts sharing N and K (a mixture-of-experts
// layer: one per expert), D_g = alpha A_g B_g, and its host checks. The groups' rows lie in one
// packed A and one packed D; how they are cut into groups is the form:
//   GemmGroupedForm::offsets   rows[0..G]: group g is rows [rows[g], rows[g + 1]) (rows[0] usually 0)
//   GemmGroupedForm::ends      rows[0..G-1]: group g is rows [rows[g - 1], rows[g]) with rows[-1] = 0
//                              (torch._grouped_mm's `offs`, cumulative ends)
//   GemmGroupedForm::masked    rows[0..G-1]: fixed capacity m a group; group g is rows
//                              [g m, g m + rows[g]) (masked_m), the rest of its slot not written
// The rows array is in device memory (it usually comes from the router on the device: the host
// never reads it); the kernel clamps every bound into the matrix (a bad array cannot make it read or
// write outside A and D) and an empty group (no rows) is skipped.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: the validation's messages
#include <cstdint>
#include <stdexcept>
#include <string>
#endif

#include "tessera/core/layout.hpp"
#include "tessera/kernels/gemm_problem.hpp"

namespace tessera::kernels {

enum class GemmGroupedForm { offsets, ends, masked };

inline char const* to_string(GemmGroupedForm f) {
  switch (f) {
    case GemmGroupedForm::offsets: return "offsets";
    case GemmGroupedForm::ends: return "ends";
    case GemmGroupedForm::masked: return "masked";
  }
  return "invalid";
}

// One grouped call: for each group g, D_g = alpha A_g B_g, A_g (rows_g, K) and D_g (rows_g, N) row
// blocks of the packed A (row-major, lda) and D (row-major, ldd), B_g (K, N) the g-th of G matrices
// stride_b elements apart: column-major (b_major col: each B_g stored as N rows of K, ldb >= K, the
// weights' usual (G, N, K) layout) or row-major (each B_g stored as K rows of N, ldb >= N: (G, K, N)).
// m: the packed A's and D's rows (offsets and ends forms: total_M), or the capacity of a group
// (masked: A and D have groups x m rows).
// Pre: groups >= 1; n, k >= 1; m >= 0; rows non-null; a, b, d non-null, 16-byte aligned; k and n
// multiples of 8, lda, ldb, ldd multiples of 8 (16-byte rows: TMA) with lda >= k, ldd >= n, ldb as
// above; stride_b a multiple of 8 and at least one matrix (N ldb column-major, K ldb row-major);
// every packed matrix has fewer than 2^31 elements. Bounds in rows outside [0, total rows] are
// clamped by the kernel.
// Example: 3 experts, N = K = 4096, 10, 0 and 7 tokens: form offsets, rows = {0, 10, 10, 17},
// m = 17; A is 17 x 4096, D 17 x 4096, B 3 x 4096 x 4096 (column-major per group, stride_b =
// 4096 * 4096); group 1 is empty.
template <class T, class TOut>
struct GemmGroupedProblem {
  int groups = 0, m = 0, n = 0, k = 0;
  float alpha = 1.0f;
  GemmGroupedForm form = GemmGroupedForm::offsets;
  int const* rows = nullptr;  // device memory: offsets (G + 1), ends (G) or masked_m (G)
  T const* a = nullptr;
  int lda = 0;
  T const* b = nullptr;
  int ldb = 0;
  long long stride_b = 0;
  Major b_major = Major::col;
  TOut* d = nullptr;
  int ldd = 0;
};

// GemmGroupedFp8Problem<T, TOut>: a grouped problem whose A and B are 8-bit floats (T =
// float_e4m3_t or float_e5m2_t), with their scales: D_g(m, n) = alpha sa(m) sb_g(n) sum_k A(m, k)
// B_g(k, n), the sum in fp32, where (GemmScale, fp32 values in device memory):
//   scale_a  none; tensor: data[0] for all of A; vector: data[m], one per packed row of A (total rows
//            values, groups x capacity for the masked form)
//   scale_b  none; tensor: data[g], one per group (each expert's weights their own scale); vector:
//            data[g N + n], one per group and column
// Pre: GemmGroupedProblem's, and what the fp8 wgmma needs: B column-major (each B_g stored N rows of
// K: K-major), k, lda, ldb and stride_b multiples of 16 (16-byte rows of 8-bit elements); scale data
// non-null unless the kind is none; no block scales.
// Example: 2 groups of 1 row, k = 16, A and B all 0.5 (exact in e4m3), scale_a tensor {2}, scale_b
// tensor {1, 3}: D_0 = 2 * 1 * 16 * 0.25 = 8, D_1 = 2 * 3 * 4 = 24.
template <class T, class TOut>
struct GemmGroupedFp8Problem : GemmGroupedProblem<T, TOut> {
  GemmScale scale_a, scale_b;
};

namespace detail {
#if !defined(__CUDACC_RTC__)
// The packed A's and D's rows: m, or groups x m (masked).
template <class T, class TOut>
long long gemm_grouped_total_rows(GemmGroupedProblem<T, TOut> const& p) {
  return p.form == GemmGroupedForm::masked ? (long long)p.groups * p.m : p.m;
}

// Checks p against GemmGroupedProblem's preconditions; std::invalid_argument naming the first
// violated value and the fix, e.g. "gemm_sm90_grouped: k = 12 is not a multiple of 8: rows of A and B
// must be whole 16-byte units (TMA); pad K with zeros to 16".
template <class T, class TOut>
void check_gemm_grouped_problem(char const* fn, GemmGroupedProblem<T, TOut> const& p) {
  auto need = [fn](bool ok, auto const& what) {
    if (!ok) throw std::invalid_argument(std::string(fn) + ": " + std::string(what()));
  };
  auto str = [](long long v) { return std::to_string(v); };
  need(p.groups >= 1, [&] { return "groups = " + str(p.groups) + " must be >= 1"; });
  need(p.n >= 1 && p.k >= 1, [&] { return "n and k must be >= 1, got " + str(p.n) + " and " + str(p.k); });
  need(p.m >= 0, [&] {
    return "m = " + str(p.m) + " must be >= 0 (" +
           (p.form == GemmGroupedForm::masked ? "the capacity of a group" : "the packed A's rows") + ")";
  });
  need(p.form == GemmGroupedForm::offsets || p.form == GemmGroupedForm::ends || p.form == GemmGroupedForm::masked,
       [&] { return "form " + str(static_cast<int>(p.form)) + " is not a GemmGroupedForm (offsets, ends, masked)"; });
  need(p.b_major == Major::row || p.b_major == Major::col,
       [&] { return "b_major " + str(static_cast<int>(p.b_major)) + " is not Major::row or Major::col"; });
  need(p.rows != nullptr, [&] {
    return std::string("rows is null; give the groups' ") +
           (p.form == GemmGroupedForm::offsets ? "offsets (groups + 1 ints)"
            : p.form == GemmGroupedForm::ends  ? "cumulative row ends (groups ints)"
                                               : "valid row counts (groups ints)") +
           " in device memory";
  });
  need(p.a != nullptr && p.b != nullptr && p.d != nullptr, [&] {
    return std::string(p.a == nullptr ? "A" : p.b == nullptr ? "B" : "D") + " is null";
  });
  auto aligned = [](void const* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  need(aligned(p.a) && aligned(p.b) && aligned(p.d), [&] {
    return std::string(!aligned(p.a)   ? "A"
                       : !aligned(p.b) ? "B"
                                       : "D") +
           " must start 16-byte aligned (TMA); copy it into an aligned buffer";
  });
  need(p.k % 8 == 0, [&] {
    return "k = " + str(p.k) +
           " is not a multiple of 8: rows of A and B must be whole 16-byte units (TMA); pad K with zeros to " +
           str((p.k + 7) / 8 * 8);
  });
  need(p.n % 8 == 0, [&] {
    return "n = " + str(p.n) +
           " is not a multiple of 8: rows of D (and of a row-major B) must be whole 16-byte units " +
           "(TMA); pad N to " + str((p.n + 7) / 8 * 8) + " and ignore the extra columns";
  });
  bool const bcol = p.b_major == Major::col;
  long long const b_minor = bcol ? p.k : p.n, b_rows = bcol ? p.n : p.k;
  auto ld_ok = [&](char const* name, int ld, long long minor) {
    need(ld >= minor && ld % 8 == 0, [&] {
      return std::string(name) + " = " + str(ld) + " must be >= " + str(minor) +
             " and a multiple of 8 (16-byte rows for TMA); copy the operand into a padded buffer";
    });
  };
  ld_ok("lda", p.lda, p.k);
  ld_ok("ldb", p.ldb, b_minor);
  ld_ok("ldd", p.ldd, p.n);
  need(p.stride_b >= b_rows * p.ldb && p.stride_b % 8 == 0, [&] {
    return "stride_b = " + str(p.stride_b) + " must be >= " + str(b_rows * p.ldb) + " (" +
           (bcol ? "N x ldb: each B_g is N rows of K" : "K x ldb: each B_g is K rows of N") +
           ") and a multiple of 8 (16 bytes)";
  });
  long long const rows = gemm_grouped_total_rows(p);
  auto small = [&](char const* name, long long r, long long ld) {
    need(r * ld < (1LL << 31), [&] {
      return std::string("the packed ") + name + " (" + str(r) + " rows of " + str(ld) +
             ") spans 2^31 or more elements; offsets are 32-bit: split the groups into several calls";
    });
  };
  small("A", rows, p.lda);
  small("D", rows, p.ldd);
}

// Checks an fp8 grouped problem: check_gemm_grouped_problem, then GemmGroupedFp8Problem's own
// preconditions; std::invalid_argument naming the first violated and the fix, e.g.
// "gemm_sm90_grouped_fp8: k = 24 is not a multiple of 16: fp8 rows must be whole 16-byte units
// (TMA); pad K with zeros to 32".
template <class T, class TOut>
void check_gemm_grouped_fp8_problem(char const* fn, GemmGroupedFp8Problem<T, TOut> const& p) {
  check_gemm_grouped_problem(fn, static_cast<GemmGroupedProblem<T, TOut> const&>(p));
  auto need = [fn](bool ok, auto const& what) {
    if (!ok) throw std::invalid_argument(std::string(fn) + ": " + std::string(what()));
  };
  auto str = [](long long v) { return std::to_string(v); };
  need(p.b_major == Major::col, [] {
    return std::string(
        "B must be column-major (each B_g stored N rows of K: K-major, the only fp8 form of wgmma); transpose the "
        "weights into (groups, N, K)");
  });
  need(p.k % 16 == 0, [&] {
    return "k = " + str(p.k) +
           " is not a multiple of 16: fp8 rows must be whole 16-byte units (TMA); pad K with zeros to " +
           str((p.k + 15) / 16 * 16);
  });
  need(p.lda % 16 == 0 && p.ldb % 16 == 0 && p.stride_b % 16 == 0, [&] {
    return "lda = " + str(p.lda) + ", ldb = " + str(p.ldb) + " and stride_b = " + str(p.stride_b) +
           " must be multiples of 16 (16-byte rows for TMA); copy the operand into a padded buffer";
  });
  auto check_scale = [&](char const* name, GemmScale const& s, std::string const& tensor, std::string const& vector) {
    need(s.kind == GemmScaleKind::none || s.kind == GemmScaleKind::tensor || s.kind == GemmScaleKind::vector, [&] {
      return std::string(name) + ".kind " + (s.kind == GemmScaleKind::block ? std::string("block") : str(int(s.kind))) +
             " is not none, tensor or vector (block scales are not written for the grouped GEMM)";
    });
    need(s.kind == GemmScaleKind::none || s.data != nullptr, [&] {
      return std::string(name) + " is " + to_string(s.kind) + " but its data is null; give " +
             (s.kind == GemmScaleKind::tensor ? tensor : vector) + " in device memory, or kind none";
    });
  };
  check_scale("scale_a", p.scale_a, "one fp32 value",
              str(gemm_grouped_total_rows(p)) + " fp32 values, one per packed row of A");
  check_scale("scale_b", p.scale_b, str(p.groups) + " fp32 values, one per group",
              str((long long)p.groups * p.n) + " fp32 values, one per group and column");
}
#endif  // !__CUDACC_RTC__
}  // namespace detail

}  // namespace tessera::kernels
