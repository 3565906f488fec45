// Printing tensors. print(t) / to_string(t) / operator<< give the reference notation
// `<iterator> o <layout>`, e.g. `gmem_ptr[32b](0x7f12a4000000) o (4,8):(_1,4)`; print_tensor(t)
// adds the values as a table: rows are mode 0, columns mode 1 (further modes are grouped into
// mode 1; a rank-1 tensor is one row). Works on the host and the device (printf).
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: snprintf, tensor_table, operator<<
#include <cstdio>
#include <ostream>
#endif

#include "tessera/tensor/tensor.hpp"

namespace tessera {

namespace detail {
// One value in a fixed-width cell: integers as integers, floating point with %.4g, booleans 0/1.
template <class V>
TESSERA_HOST_DEVICE void cell_format(V const& v, char* buf, int n) {
  (void)n;
  if constexpr (std::is_floating_point_v<V>) {
#if defined(__CUDA_ARCH__)
    (void)buf;
    printf("%10.4g", double(v));
#else
    std::snprintf(buf, std::size_t(n), "%10.4g", double(v));
#endif
  } else if constexpr (std::is_integral_v<V> || is_static_int_v<V>) {
#if defined(__CUDA_ARCH__)
    (void)buf;
    printf("%6lld", static_cast<long long>(v));
#else
    std::snprintf(buf, std::size_t(n), "%6lld", static_cast<long long>(v));
#endif
  } else {
#if defined(__CUDA_ARCH__)
    (void)buf;
    printf(" ?");
#else
    std::snprintf(buf, std::size_t(n), " %s", to_string(v).c_str());
#endif
  }
}
template <class Sink, class V>
TESSERA_HOST_DEVICE void write_cell(Sink& k, V const& v) {
  char buf[64] = {};
  cell_format(v, buf, 64);
#if !defined(__CUDA_ARCH__)
  k.put(buf);
#else
  (void)k;
#endif
}
template <class Sink, class Tn>
TESSERA_HOST_DEVICE void write_tensor_table(Sink& k, Tn const& t) {
  write(k, t);
  k.put(":\n");
  constexpr int R = Tn::rank;
  if constexpr (R == 1) {
    for (long long j = 0; j < static_cast<long long>(size(t)); ++j) write_cell(k, t(j));
    k.put("\n");
  } else {
    auto t2 = make_tensor(t.data(), group<1, R>(t.layout()));  // (mode 0, rest)
    for (long long i = 0; i < static_cast<long long>(size<0>(t2)); ++i) {
      for (long long j = 0; j < static_cast<long long>(size<1>(t2)); ++j) write_cell(k, t2(i, j));
      k.put("\n");
    }
  }
}
}  // namespace detail

// print_tensor(t): the tensor in notation, a colon, then its values. A counting tensor over
// (2,3):(_1,2) prints
//   counting_iter(0) o (2,3):(_1,2):
//        0     2     4
//        1     3     5
template <class E, class L>
TESSERA_HOST_DEVICE void print_tensor(Tensor<E, L> const& t) {
  detail::printf_sink k;
  detail::write_tensor_table(k, t);
}
#if !defined(__CUDACC_RTC__)  // host only: std::string and streams (NVRTC has print_tensor)
// tensor_table(t): print_tensor's text as a string (host).
template <class E, class L>
std::string tensor_table(Tensor<E, L> const& t) {
  return detail::capture([&](auto& k) { detail::write_tensor_table(k, t); });
}

template <class E, class L>
std::ostream& operator<<(std::ostream& os, Tensor<E, L> const& t) {
  return os << to_string(t);
}
#endif  // !__CUDACC_RTC__

}  // namespace tessera
