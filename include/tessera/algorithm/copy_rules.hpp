// The rules a vectorized copy src -> dst follows (algorithm/copy.hpp's conditions), stated once as
// constexpr functions: copy's compile-time plan (detail::vector_plan, on static layouts) and the
// checker's check_copy_vector (tools/check.hpp, `tessera check copy --width`, on the run-time
// twin's layouts) both call them. Host and device; no strings (the messages are the checker's).
//
// A copy of n elements moves W bits per access, N = W / bits(T) elements a vector. The vectors are
// runs of dst's offsets: every dst offset o with o % N == 0 opens a run o, o+1, ..., o+N-1. The rules,
// each with its name (the checker reports it):
//   copy.width      W is 8, 16, 32, 64 or 128, a multiple of the element's bits and wider than one
//                   element (copy_width_ok)
//   copy.swizzle    W/8 bytes at most what a swizzled pointer keeps together (2^M elements of
//                   Sw<B,M,S>)
//   copy.size       n a multiple of N
//   copy.offsets    dst maps its elements to distinct, non-negative offsets
//   copy.run_align  a run's first element is at an offset of src that is a multiple of N
//   copy.contiguous the run's offsets o+1 .. o+N-1 are offsets of dst, and the elements there are at
//                   consecutive offsets of src
//   copy.cover      every element lies in a run (n / N runs)
//   copy.align      both base pointers aligned to W/8 bytes (checked at run time by copy; assumed by
//                   copy_aligned, which checks it on the host)
// Example: src (_8,_8):(_8,_1) (row-major) to dst (_8,_8):(_1,_8) (column-major) with N = 8: run 0
// is dst's offsets 0..7, the elements (0..7, 0), at src offsets 0, 8, 16, ...: copy.contiguous at
// element 1 (expected 1, got 8). With dst (_8,_8):(_8,_1) every run is a row of both: legal.
#pragma once

#include "tessera/core/config.hpp"
#include "tessera/core/stdlib.hpp"

namespace tessera {

enum class CopyRule : int { ok = 0, width, swizzle, size, offsets, run_align, contiguous, cover, align };

// The first element where a copy's runs break a rule (rule ok: none); runs: the runs found before.
struct CopyRunViolation {
  CopyRule rule = CopyRule::ok;
  long long index = 0;              // the run's first element (1-D index); copy.offsets: the element
  long long dst_offset = 0;         // that element's dst offset (the run's start)
  int lane = 0;                     // copy.contiguous: the element of the run (1 .. N-1) that breaks it
  long long expected = 0, got = 0;  // copy.run_align / .contiguous: src offsets (got only for run_align);
                                    // copy.contiguous without a dst element there: got = -1
  long long other = -1;             // copy.contiguous: the element at dst offset + lane (-1: none);
                                    // copy.offsets: the earlier element at the same offset (-1: negative)
  long long runs = 0;
};

// copy_width_ok(width_bits, elem_bits): rule copy.width (the widths copy tries: 128, 64, 32, 16, 8
// bits, each holding whole elements and more than one). Example: copy_width_ok(64, 16) (4 halves);
// not copy_width_ok(16, 16) (one element: an ordinary access), not copy_width_ok(32, 64).
TESSERA_HOST_DEVICE constexpr bool copy_width_ok(int width_bits, int elem_bits) {
  bool const known = width_bits == 8 || width_bits == 16 || width_bits == 32 || width_bits == 64 || width_bits == 128;
  return known && elem_bits > 0 && width_bits % elem_bits == 0 && width_bits > elem_bits;
}

// copy_runs_violation(n, N, cosize_d, s, d, index_of, on_run): rules copy.run_align, copy.contiguous
// and copy.cover for a copy of n elements (n % N == 0, dst's offsets distinct and non-negative)
// from src (s(i): element i's src offset) to dst (d(i): its dst offset; index_of(o): the element at
// dst offset o, or -1; cosize_d: one past dst's largest offset). Runs are found in index order;
// on_run(i) is told each run's first element and returns false to stop (a plan's capacity: rule
// copy.cover). Example: n = 8, N = 4, s(i) = i + 2, d(i) = i: copy.run_align at element 0 (got 2).
template <class S, class D, class IndexOf, class OnRun>
TESSERA_HOST_DEVICE constexpr CopyRunViolation copy_runs_violation(long long n, int vec, long long cosize_d, S const& s,
                                                                   D const& d, IndexOf const& index_of,
                                                                   OnRun&& on_run) {
  CopyRunViolation r;
  for (long long i = 0; i < n; ++i) {
    long long const od = static_cast<long long>(d(i));
    if (od % vec != 0) continue;
    long long const os = static_cast<long long>(s(i));
    r.index = i;
    r.dst_offset = od;
    if (os % vec != 0) {
      r.rule = CopyRule::run_align;
      r.got = os;
      return r;
    }
    if (!on_run(i)) {
      r.rule = CopyRule::cover;
      return r;
    }
    for (int v = 1; v < vec; ++v) {
      long long const j = od + v < cosize_d ? static_cast<long long>(index_of(od + v)) : -1;
      long long const sj = j < 0 ? -1 : static_cast<long long>(s(j));
      if (j < 0 || sj != os + v) {
        r.rule = CopyRule::contiguous;
        r.lane = v;
        r.expected = os + v;
        r.got = sj;
        r.other = j;
        return r;
      }
    }
    ++r.runs;
  }
  if (r.runs * vec != n) r.rule = CopyRule::cover;
  return r;
}

// copy_orphan(n, N, d, index_of): after copy_runs_violation's copy.cover with every run whole, an
// element in no run (its run's start offset d(i) - d(i) % N not an offset of dst), or -1.
template <class D, class IndexOf>
TESSERA_HOST_DEVICE constexpr long long copy_orphan(long long n, int vec, D const& d, IndexOf const& index_of) {
  for (long long i = 0; i < n; ++i) {
    long long const od = static_cast<long long>(d(i));
    if (static_cast<long long>(index_of(od - od % vec)) < 0) return i;
  }
  return -1;
}

}  // namespace tessera
