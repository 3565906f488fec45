// Printing in the reference notation: `_8` static, `8` dynamic, `(a,b)` tuples, `shape:stride`
// layouts, and print_layout's ASCII table. Works on the host (to_string, operator<<) and the
// device (print, through printf). The notation writer itself is in error.hpp (messages use it).
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: to_string, operator<<, layout_table
#include <cstdio>
#include <ostream>
#include <string>
#endif

#include "tessera/core/layout.hpp"

namespace tessera {

// print(x): prints x with printf, on host or device. print(make_layout(make_shape(_2,4))) -> (_2,4):(_1,_2)
template <class T>
TESSERA_HOST_DEVICE void print(T const& x) {
  detail::printf_sink k;
  detail::write(k, x);
}

// print("text"): prints a string as it is, e.g. print("sA: "); print(sA); print("\n");
TESSERA_HOST_DEVICE void print(char const* s) { printf("%s", s); }

// thread0() / block0(): whether the calling thread is thread 0 of block 0 / is in block 0 (on the
// host, always true): the guard for printing from one thread, if (thread0()) { print(tAgA); }.
TESSERA_HOST_DEVICE bool block0() {
#if defined(__CUDA_ARCH__)
  return blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0;
#else
  return true;
#endif
}
TESSERA_HOST_DEVICE bool thread0() {
#if defined(__CUDA_ARCH__)
  return block0() && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
#else
  return true;
#endif
}

#if !defined(__CUDACC_RTC__)  // host only: std::string and streams (NVRTC has print)
// to_string(x): the reference notation of x, e.g. "(_2,4):(4,_1)".
template <class T>
std::string to_string(T const& x) {
  return detail::capture([&](auto& k) { detail::write(k, x); });
}

template <auto v>
std::ostream& operator<<(std::ostream& os, C<v> const& x) {
  return os << to_string(x);
}
template <class... Ts>
std::ostream& operator<<(std::ostream& os, tuple<Ts...> const& x) {
  return os << to_string(x);
}
template <class S, class D>
std::ostream& operator<<(std::ostream& os, Layout<S, D> const& x) {
  return os << to_string(x);
}
template <class T, int N>
std::ostream& operator<<(std::ostream& os, ScaledBasis<T, N> const& x) {
  return os << to_string(x);
}
#endif  // !__CUDACC_RTC__

namespace detail {
// Number of decimal digits of a non-negative value (at least 1).
TESSERA_HOST_DEVICE constexpr int num_digits(long long v) {
  int d = 1;
  while (v >= 10) {
    v /= 10;
    ++d;
  }
  return d;
}

template <class Sink, class S, class D>
TESSERA_HOST_DEVICE void write_layout_table(Sink& k, Layout<S, D> const& l) {
  static_assert(rank_v<S> == 2, "print_layout: needs a rank-2 layout (group modes first)");
  write(k, l);
  k.put("\n");
  long long const rows = static_cast<long long>(size<0>(l));
  long long const cols = static_cast<long long>(size<1>(l));
  int const w = num_digits(static_cast<long long>(cosize(l)));
  char buf[64];
  auto pad = [&](long long v) {
    int n = num_digits(v < 0 ? -v : v) + (v < 0);
    for (int i = n; i < w; ++i) k.put(" ");
    k.put_int(v);
  };
  k.put("    ");
  for (long long j = 0; j < cols; ++j) {
    k.put("  ");
    pad(j);
    k.put(" ");
  }
  k.put("\n");
  auto rule = [&] {
    k.put("    +");
    for (long long j = 0; j < cols; ++j) {
      for (int i = 0; i < w + 2; ++i) k.put("-");
      k.put("+");
    }
    k.put("\n");
  };
  rule();
  for (long long i = 0; i < rows; ++i) {
    int n = num_digits(i);
    for (int p = n; p < 2; ++p) k.put(" ");
    k.put_int(i);
    k.put("  ");
    for (long long j = 0; j < cols; ++j) {
      k.put("| ");
      pad(static_cast<long long>(l(i, j)));
      k.put(" ");
    }
    k.put("|\n");
    rule();
  }
  (void)buf;
}
}  // namespace detail

// print_layout(L): L in notation, then a table of offsets indexed by (row, column), e.g.
//   (_2,(_2,_2)):(_4,(_2,_1))      (see docs/algebra.md for the exact format)
template <class S, class D>
TESSERA_HOST_DEVICE void print_layout(Layout<S, D> const& l) {
  detail::printf_sink k;
  detail::write_layout_table(k, l);
}
#if !defined(__CUDACC_RTC__)  // host only: std::string (NVRTC has print_layout)
template <class S, class D>
std::string layout_table(Layout<S, D> const& l) {
  return detail::capture([&](auto& k) { detail::write_layout_table(k, l); });
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera
