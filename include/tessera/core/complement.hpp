// complement, right_inverse, left_inverse and nullspace: the operations that reason about a
// layout's image (which offsets it reaches). Semantics: docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)  // NVRTC has no standard library: libcu++'s (core/stdlib.hpp)
#include <cuda/std/array>
#else
#include <array>
#endif

#include "tessera/core/composition.hpp"

namespace tessera {

namespace detail {
// The permutation that sorts the static values of a tuple type ascending (stable).
template <class T>
constexpr auto static_sort_order() {
  constexpr int R = tuple_size_v<T>;
  std::array<long long, R> v{};
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    ((v[Is] = static_cast<long long>(tuple_element_t<Is, T>::value)), ...);
  }(std::make_index_sequence<R>{});
  std::array<int, R> idx{};
  for (int i = 0; i < R; ++i) idx[i] = i;
  for (int i = 1; i < R; ++i) {  // insertion sort: stable, constexpr
    for (int j = i; j > 0 && v[idx[j]] < v[idx[j - 1]]; --j) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  }
  return idx;
}
// Entry I of that permutation, as a variable so that device code reads no std::array member.
template <class T, std::size_t I>
inline constexpr int static_sort_index = static_sort_order<T>()[I];
template <class T, std::size_t... Is>
TESSERA_HOST_DEVICE constexpr auto sort_by_static(T const&, std::index_sequence<Is...>) {
  return make_tuple(C<static_sort_index<T, Is>>{}...);
}
// (_i...) sorted by the static values of t.
template <class T>
TESSERA_HOST_DEVICE constexpr auto static_order(T const& t) {
  return sort_by_static(t, std::make_index_sequence<tuple_size_v<T>>{});
}

template <class T>
inline constexpr bool all_static_leaves_v = is_static_v<T>;

// Runtime sort of (shape, stride) pairs by stride; all values converted to the type V.
template <class V, int R>
struct sorted_modes {
  V s[R > 0 ? R : 1];
  V d[R > 0 ? R : 1];
  int pos[R > 0 ? R : 1];
};
template <class V, class FS, class FD>
TESSERA_HOST_DEVICE constexpr auto sort_modes_dynamic(FS const& fs, FD const& fd) {
  constexpr int R = tuple_size_v<FS>;
  sorted_modes<V, R> m{};
  int i = 0;
  for_each(transform(fs, fd, [](auto const& a, auto const& b) { return make_tuple(a, b); }), [&](auto const& p) {
    m.s[i] = V(get<0>(p));
    m.d[i] = V(get<1>(p));
    m.pos[i] = i;
    ++i;
  });
  for (int a = 1; a < R; ++a) {
    for (int b = a; b > 0 && m.d[b] < m.d[b - 1]; --b) {
      V ts = m.s[b], td = m.d[b];
      int tp = m.pos[b];
      m.s[b] = m.s[b - 1], m.d[b] = m.d[b - 1], m.pos[b] = m.pos[b - 1];
      m.s[b - 1] = ts, m.d[b - 1] = td, m.pos[b - 1] = tp;
    }
  }
  return m;
}

// The complement's modes before coalescing, from sorted (shape, stride) tuples.
template <class SS, class SD, class M, class Orig, class One = _1>
TESSERA_HOST_DEVICE constexpr auto complement_sorted(SS const& ss, SD const& sd, M const& cotarget, Orig const& orig,
                                                     One const& one = {}) {
  auto r = fold(transform(ss, sd, [](auto const& a, auto const& b) { return make_tuple(a, b); }),
                make_tuple(tuple<>{}, tuple<>{}, one), [&](auto const& acc, auto const& mode) {
                  auto cur = get<2>(acc);
                  auto s = get<0>(mode);
                  auto d = get<1>(mode);
                  TESSERA_REQUIRE(d > _0{},
                                  "complement: needs positive strides (filter out stride-0 modes "
                                  "and reverse negative ones first)",
                                  orig);
                  TESSERA_REQUIRE(d >= cur,
                                  "complement: the layout is not injective (two modes overlap), so "
                                  "it has no complement; use an injective layout (filter() removes "
                                  "broadcast modes; a size-1 mode must be static _1 to be ignored)",
                                  orig);
                  TESSERA_REQUIRE(d % cur == _0{},
                                  "complement: a stride is not a multiple of the extent of the "
                                  "smaller modes, so the gaps cannot be tiled by a layout; use "
                                  "strides that are multiples of one another",
                                  orig);
                  return make_tuple(append(get<0>(acc), d / cur), append(get<1>(acc), cur), d * s);
                });
  auto cur = get<2>(r);
  auto rest = ceil_div(cotarget, cur);
  return coalesce(make_layout(append(get<0>(r), rest), append(get<1>(r), compact_col_major(rest, cur))));
}
}  // namespace detail

// complement(A, M): the layout R, strictly increasing, whose image is disjoint from A's (but 0),
// such that (A, R) covers [0, M). M is an integer or a tuple (the codomain shape); by default
// cosize(filter(A)). Pre: A injective, strides multiples of one another; every leaf of M >= 1
// (complement(_4:_1, _0) is a compile-time error, as the twin's complement(4:1, 0) is an error:
// its shape would hold a 0). Post: see the laws.
// complement(4:2, 24) == (_2,_3):(_1,_8); complement((2,2):(1,6), 24) == (_3,_2):(_2,_12).
template <class S, class D, class M>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& a, M const& cotarget) {
  for_each(flatten_to_tuple(cotarget), [&](auto const& m) {
    TESSERA_REQUIRE(m >= _1{},
                    "complement: the codomain size M has a leaf below 1, so the complement would "
                    "hold an empty mode; give a codomain size >= 1 (e.g. cosize(A))",
                    a, cotarget);
  });
  auto f = filter(a);
  using FD = std::remove_cvref_t<decltype(f.stride())>;
  if constexpr (is_constant_v<0, FD>) {
    return coalesce(make_layout(cotarget));
  } else {
    auto fs = wrap(f.shape());
    auto fd = wrap(f.stride());
    constexpr int R = tuple_size_v<decltype(fs)>;
    if constexpr (R == 1 || is_static_v<decltype(fd)>) {
      auto order = detail::static_order([&] {
        if constexpr (R == 1) {
          return make_tuple(_0{});
        } else {
          return fd;
        }
      }());
      auto ss = transform(order, [&](auto i) { return get<decltype(i)::value>(fs); });
      auto sd = transform(order, [&](auto i) { return get<decltype(i)::value>(fd); });
      return detail::complement_sorted(ss, sd, cotarget, a);
    } else {
      // Dynamic strides: sorted at run time; every integer of the result is dynamic.
      using V = std::common_type_t<detail::leaf_common_t<decltype(fs)>, detail::leaf_common_t<decltype(fd)>,
                                   detail::leaf_common_t<M>>;
      auto m = detail::sort_modes_dynamic<V>(fs, fd);
      auto cot = transform_leaf(cotarget, [](auto const& x) { return V(x); });
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return detail::complement_sorted(make_tuple(m.s[Is]...), make_tuple(m.d[Is]...), cot, a, V(1));
      }(std::make_index_sequence<R>{});
    }
  }
}
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto complement(Layout<S, D> const& a) {
  return complement(a, cosize(filter(a)));
}

namespace detail {
template <class T>
constexpr long long static_value_or_zero() {
  if constexpr (is_static_int_v<T>) {
    return static_cast<long long>(T::value);
  } else {
    return 0;
  }
}
// Indices of the modes chained from static stride 1: each next stride is s*|d| of the previous.
template <class FS, class FD>
constexpr auto inverse_chain() {
  constexpr int R = tuple_size_v<FS>;
  struct result {
    std::array<int, (R > 0 ? R : 1)> idx{};
    int n = 0;
  } res{};
  std::array<bool, R> st{}, sst{};
  std::array<long long, R> dv{}, sv{};
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    ((st[Is] = is_static_int_v<tuple_element_t<Is, FD>>), ...);
    ((sst[Is] = is_static_int_v<tuple_element_t<Is, FS>>), ...);
    ((dv[Is] = static_value_or_zero<tuple_element_t<Is, FD>>()), ...);
    ((sv[Is] = static_value_or_zero<tuple_element_t<Is, FS>>()), ...);
  }(std::make_index_sequence<R>{});
  long long next = 1;
  for (;;) {
    int found = -1;
    for (int i = 0; i < R; ++i) {
      if (st[i] && (dv[i] < 0 ? -dv[i] : dv[i]) == next) {
        found = i;
        break;
      }
    }
    if (found < 0) break;
    // A negative stride is taken only as the whole chain (an R mixing it with other modes sends
    // some i to an index that L decodes into other coordinates): stop before such a mode, and
    // after one the chain started with.
    if (dv[found] < 0 && res.n > 0) break;
    res.idx[res.n++] = found;
    if (dv[found] < 0) break;
    if (!sst[found]) break;  // the next stride would be dynamic: stop after this mode
    next = sv[found] * (dv[found] < 0 ? -dv[found] : dv[found]);
    if (res.n >= R) break;
  }
  return res;
}
// The chain's length and its I-th mode, as variables so that device code calls no host function.
template <class FS, class FD>
inline constexpr int inverse_chain_length = inverse_chain<FS, FD>().n;
template <class FS, class FD, std::size_t I>
inline constexpr int inverse_chain_index = inverse_chain<FS, FD>().idx[I];
}  // namespace detail

// right_inverse(L): the largest layout R (built from L's statically chained modes; a negative
// stride only alone) with L(R(i)) == i for all i < size(R). right_inverse((_4,_2):(_1,_16)) == _4:_1;
// right_inverse((_2,_4):(_-4,_1)) == _4:_2.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const& l) {
  auto f = coalesce(l);
  auto fs = wrap(f.shape());
  auto fd = wrap(f.stride());
  using FS = decltype(fs);
  using FD = decltype(fd);
  constexpr int n = detail::inverse_chain_length<FS, FD>;
  if constexpr (n == 0) {
    return Layout<_1, _0>{};
  } else {
    auto r = prefix_product(fs);
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(unwrap(make_tuple(get<detail::inverse_chain_index<FS, FD, Is>>(fs)...)),
                         unwrap(make_tuple((signum(get<detail::inverse_chain_index<FS, FD, Is>>(fd)) *
                                            get<detail::inverse_chain_index<FS, FD, Is>>(r))...)));
    }(std::make_index_sequence<n>{});
  }
}

namespace detail {
template <class SS, class SD, class SR, class Orig, class Zero = _0>
TESSERA_HOST_DEVICE constexpr auto left_inverse_sorted(SS const& ss, SD const& sd, SR const& sr, Orig const& orig,
                                                       Zero const& zero = {}) {
  constexpr int R = tuple_size_v<SS>;
  // Check injectivity and divisibility between consecutive sorted modes.
  for_each_index<R - 1>([&](auto i) {
    constexpr int I = decltype(i)::value;
    auto d0 = get<I>(sd);
    auto d1 = get<I + 1>(sd);
    TESSERA_REQUIRE(d1 >= get<I>(ss) * d0,
                    "left_inverse: the layout is not injective (two modes overlap); only an "
                    "injective layout has a left inverse (a size-1 mode must be static _1 to be ignored)",
                    orig);
    TESSERA_REQUIRE(d1 % d0 == _0{},
                    "left_inverse: a stride is not a multiple of the next smaller stride, so the "
                    "inverse is not a layout; use strides that are multiples of one another",
                    orig);
  });
  TESSERA_REQUIRE(get<0>(sd) > _0{},
                  "left_inverse: needs positive strides; a stride-0 (broadcast) mode is not injective", orig);
  auto shapes = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(get<0>(sd), (get<Is + 1>(sd) / get<Is>(sd))..., get<R - 1>(ss));
  }(std::make_index_sequence<R - 1>{});
  auto strides = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(zero, get<Is>(sr)...);
  }(std::make_index_sequence<R>{});
  return coalesce(make_layout(shapes, strides));
}
}  // namespace detail

// left_inverse(L): a layout R with R(L(i)) == i for all i < size(L). Pre: L injective with
// strides that are multiples of one another. left_inverse((_4,_2):(_1,_16)) == (_16,_2):(_1,_4).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const& l) {
  auto f = coalesce(l);
  if constexpr (std::is_same_v<decltype(f), Layout<_1, _0>>) {
    return f;
  } else {
    auto fs = wrap(f.shape());
    auto fd = wrap(f.stride());
    auto fr = prefix_product(fs);
    constexpr int R = tuple_size_v<decltype(fs)>;
    if constexpr (R == 1 || is_static_v<decltype(fd)>) {
      auto order = detail::static_order([&] {
        if constexpr (R == 1) {
          return make_tuple(_0{});
        } else {
          return fd;
        }
      }());
      auto pick = [&](auto const& t) { return transform(order, [&](auto i) { return get<decltype(i)::value>(t); }); };
      return detail::left_inverse_sorted(pick(fs), pick(fd), pick(fr), l);
    } else {
      using V = std::common_type_t<detail::leaf_common_t<decltype(fs)>, detail::leaf_common_t<decltype(fd)>>;
      auto m = detail::sort_modes_dynamic<V>(fs, fd);
      V rr[R];
      int k = 0;
      for_each(fr, [&](auto const& x) { rr[k++] = V(x); });
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return detail::left_inverse_sorted(make_tuple(m.s[Is]...), make_tuple(m.d[Is]...), make_tuple(rr[m.pos[Is]]...),
                                           l, V(0));
      }(std::make_index_sequence<R>{});
    }
  }
}

namespace detail {
// Positions of the static _0 strides of a flat stride tuple type (at namespace scope: clang 14
// rejects the constant R inside a local class of a lambda, and device code reads no std::array).
template <class FD>
constexpr auto static_zero_modes() {
  constexpr int R = tuple_size_v<FD>;
  struct res {
    std::array<int, (R > 0 ? R : 1)> idx{};
    int n = 0;
  } r{};
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    ((is_constant_v<0, tuple_element_t<Is, FD>> ? (void)(r.idx[r.n++] = int(Is)) : (void)0), ...);
  }(std::make_index_sequence<R>{});
  return r;
}
template <class FD>
inline constexpr int static_zero_count = static_zero_modes<FD>().n;
template <class FD, std::size_t I>
inline constexpr int static_zero_index = static_zero_modes<FD>().idx[I];
}  // namespace detail

// nullspace(L): the layout of the domain that L sends to 0 through its static stride-_0 leaves:
// modes s_i : r_i with r = compact col-major strides of L's flattened shape.
// nullspace((_2,_4,_3):(_0,_1,_0)) == (_2,_3):(_1,_8).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto nullspace(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  using FD = decltype(fd);
  if constexpr (detail::static_zero_count<FD> == 0) {
    return Layout<_1, _0>{};
  } else {
    auto rs = compact_col_major(fs);
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(unwrap(make_tuple(get<detail::static_zero_index<FD, Is>>(fs)...)),
                         unwrap(make_tuple(get<detail::static_zero_index<FD, Is>>(rs)...)));
    }(std::make_index_sequence<detail::static_zero_count<FD>>{});
  }
}

}  // namespace tessera
