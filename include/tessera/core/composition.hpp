// coalesce, filter and composition: the operations that simplify a layout and compose two.
// Semantics (including which integers stay static): docs/algebra.md.
#pragma once

#include "tessera/core/print.hpp"

namespace tessera {

namespace detail {
// Backward coalesce of the flat modes [0, I] of (os:od) onto the result (ns:nd).
template <int I, class OS, class OD, class NS, class ND>
TESSERA_HOST_DEVICE constexpr auto bw_coalesce(OS const& os, OD const& od, NS const& ns, ND const& nd) {
  if constexpr (I == -1) {
    if constexpr (is_constant_v<1, NS>) {
      return Layout<_1, _0>{};
    } else {
      return make_layout(ns, nd);
    }
  } else if constexpr (is_constant_v<1, tuple_element_t<I, OS>>) {
    return bw_coalesce<I - 1>(os, od, ns, nd);
  } else if constexpr (is_constant_v<1, NS>) {
    return bw_coalesce<I - 1>(os, od, get<I>(os), get<I>(od));
  } else if constexpr (is_constant_v<true, decltype(get<I>(os) * get<I>(od) == get<0>(nd))>) {
    return bw_coalesce<I - 1>(os, od, replace_front(ns, get<I>(os) * get<0>(ns)), replace_front(nd, get<I>(od)));
  } else {
    return bw_coalesce<I - 1>(os, od, prepend(ns, get<I>(os)), prepend(nd, get<I>(od)));
  }
}

}  // namespace detail

// coalesce(L): the same function of 1-D indices with the fewest modes: flattened, static _1
// modes dropped, neighbours s0:d0, s1:d1 merged into s0*s1:d0 when d1 == s0*d0 is statically
// known. Post: size and values equal to L's; depth <= 1.
// coalesce((_2,(_1,_6)):(_1,(_6,_2))) == _12:_1; coalesce((4,8):(_1,4)) == (4,8):(_1,4).
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  constexpr int R = tuple_size_v<decltype(fs)>;
  if constexpr (R == 0) {
    return Layout<_1, _0>{};
  } else {
    return detail::bw_coalesce<R - 2>(fs, fd, get<R - 1>(fs), get<R - 1>(fd));
  }
}

// coalesce(L, profile): a tuple profile coalesces mode i by profile i (modes of L beyond the
// profile are kept as they are); an integer profile coalesces the whole layout.
// coalesce((_2,(_1,_6)):(_1,(_6,_2)), (_1,_1)) == (_2,_6):(_1,_2).
template <class S, class D, class P>
TESSERA_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& l, P const& profile) {
  if constexpr (is_tuple_v<P>) {
    constexpr int RP = tuple_size_v<P>;
    static_assert(RP <= rank_v<S>, "coalesce: the profile has more modes than the layout");
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(coalesce(layout<int(Is)>(l), get<Is>(profile))..., layout<int(RP + Js)>(l)...);
    }(std::make_index_sequence<RP>{}, std::make_index_sequence<rank_v<S> - RP>{});
  } else {
    return coalesce(l);
  }
}

// filter(L): coalesce after static _0-stride modes are given size _1; the layout of L's distinct
// values in order. filter((_4,_2):(_0,_1)) == _2:_1.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto filter(Layout<S, D> const& l) {
  return coalesce(make_layout(filter_zeros(l.stride(), l.shape()), l.stride()));
}

namespace detail {
// coalesce_x(L): coalesce that keeps L's function outside its domain too. coalesce drops a last
// mode of static size _1 and with it the stride that L's unreduced last coordinate uses beyond
// size(L); here that mode stands as unbounded (a placeholder size _2) so its stride stays.
// coalesce_x((_4,_1):(_2,_1)) == (_4,_2):(_2,_1); coalesce_x((_4,_1):(_1,_4)) == _8:_1.
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto coalesce_x(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  constexpr int R = tuple_size_v<decltype(fs)>;
  if constexpr (R == 0) {
    return Layout<_1, _0>{};
  } else if constexpr (is_constant_v<1, std::remove_cvref_t<decltype(get<R - 1>(fs))>>) {
    return bw_coalesce<R - 2>(fs, fd, _2{}, get<R - 1>(fd));
  } else {
    return bw_coalesce<R - 2>(fs, fd, get<R - 1>(fs), get<R - 1>(fd));
  }
}

// One step of the general composition: mode s of A, B's remaining stride r and size m. The
// elements r*j (j < m) are right when r and s divide one another, or when they all lie inside this
// mode (m <= ceil(s/r)); the size splits when m <= ceil(s/r) or ceil(s/r) divides m. One element
// (m <= 1) or a zero stride always fits.
TESSERA_HOST_DEVICE constexpr bool step_stride_fits(long long s, long long r, long long m) {
  if (m <= 1 || r == 0) return true;
  return r % s == 0 || s % r == 0 || m <= (s + r - 1) / r;
}
TESSERA_HOST_DEVICE constexpr bool step_shape_fits(long long s, long long r, long long m) {
  if (m <= 1 || r == 0) return true;
  long long const ns = (s + r - 1) / r;
  return m <= ns || m % ns == 0;
}
template <bool Stride, class S, class Rr, class M>
TESSERA_HOST_DEVICE constexpr auto step_fits(S const& s, Rr const& r, M const& m) {
  if constexpr (is_static_int_v<S> && is_static_int_v<Rr> && is_static_int_v<M>) {
    if constexpr (Stride) {
      return C<step_stride_fits(S::value, Rr::value, M::value)>{};
    } else {
      return C<step_shape_fits(S::value, Rr::value, M::value)>{};
    }
  } else {
    auto const x = static_cast<long long>(s), y = static_cast<long long>(r), z = static_cast<long long>(m);
    return Stride ? step_stride_fits(x, y, z) : step_shape_fits(x, y, z);
  }
}
// ceil_div(a, b) for b >= 0 where a dynamic b == 0 gives 1 (a dynamic stride 0: one element).
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto ceil_div_or_one(A const& a, B const& b) {
  if constexpr (is_static_int_v<A> && is_static_int_v<B>) {
    return C<(A::value + B::value - 1) / B::value>{};
  } else {
    using R = std::common_type_t<decltype(value_of(a)), decltype(value_of(b))>;
    return R(b) == 0 ? R(1) : R((R(a) + R(b) - 1) / R(b));
  }
}

template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition_impl(LS const& ls, LD const& ld, RS const& rs, RD const& rd);

// The general case: A = (s0..sk):(d0..dk) flat (coalesce_x), B = n:r. One pass over A's modes
// but the last, with B's remaining size m (from n) and stride r: the mode takes
// new = min(ceil(s/r), m) elements of stride r*d, then m = m/new and r = ceil(r/s); a mode with
// a static size _1 to take (ceil(s/r) or m) is skipped. The rest m goes to A's last mode, which is
// unbounded: m : r*dk, left out when m is static _1 (one mode left: an integer layout).
template <class LS, class LD, class N, class Rr>
TESSERA_HOST_DEVICE constexpr auto composition_general(LS const& ls, LD const& ld, N const& n, Rr const& r) {
  constexpr int R = tuple_size_v<LS>;
  TESSERA_REQUIRE(r >= _0{},
                  "composition: B's stride is negative and A has several modes, so B's elements would "
                  "be split over A's modes in the wrong order; compose with a non-negative stride",
                  ls, ld, n, r);
  auto acc = fold(make_seq_tuple<R - 1>(), make_tuple(tuple<>{}, tuple<>{}, n, r), [&](auto const& st, auto i) {
    constexpr int I = decltype(i)::value;
    auto const& s = get<I>(ls);
    auto const m = get<2>(st);
    auto const rest = get<3>(st);
    TESSERA_REQUIRE(step_fits<true>(s, rest, m),
                    "composition: B's stride and a mode size of A do not divide one another (stride "
                    "divisibility) and B's elements do not fit in that mode, so A o B is not a layout; "
                    "choose a B whose stride divides A's mode sizes or is a multiple of them",
                    ls, ld, n, r);
    TESSERA_REQUIRE(step_fits<false>(s, rest, m),
                    "composition: B's size does not split evenly over A's modes (shape "
                    "divisibility), so A o B is not a layout; choose a B whose size is a multiple "
                    "of A's mode sizes it spans",
                    ls, ld, n, r);
    auto const next_shape = ceil_div_or_one(s, rest);
    auto const next_stride = [&] {
      if constexpr (is_static_int_v<std::remove_cvref_t<decltype(rest)>>) {
        return ceil_div_or_one(rest, s);
      } else {
        using T = std::common_type_t<decltype(value_of(rest)), decltype(value_of(s))>;
        return T(rest) == 0 ? T(0) : T(ceil_div_or_one(rest, s));  // a dynamic stride 0 stays 0
      }
    }();
    if constexpr (is_constant_v<1, std::remove_cvref_t<decltype(next_shape)>> ||
                  is_constant_v<1, std::remove_cvref_t<decltype(m)>>) {
      return make_tuple(get<0>(st), get<1>(st), m, next_stride);
    } else {
      auto const taken = min(next_shape, m);
      return make_tuple(append(get<0>(st), taken), append(get<1>(st), rest * get<I>(ld)), m / taken, next_stride);
    }
  });
  auto const result_shape = get<0>(acc);
  auto const result_stride = get<1>(acc);
  auto const m = get<2>(acc);
  auto const last = get<3>(acc) * get<R - 1>(ld);
  if constexpr (tuple_size_v<std::remove_cvref_t<decltype(result_shape)>> == 0) {
    return make_layout(m, last);
  } else if constexpr (is_constant_v<1, std::remove_cvref_t<decltype(m)>>) {
    return make_layout(unwrap(result_shape), unwrap(result_stride));
  } else {
    return make_layout(append(result_shape, m), append(result_stride, last));
  }
}

template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition_impl(LS const& ls, LD const& ld, RS const& rs, RD const& rd) {
  if constexpr (is_tuple_v<RS>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(composition_impl(ls, ld, get<Is>(rs), get<Is>(rd))...);
    }(std::make_index_sequence<tuple_size_v<RS>>{});
  } else if constexpr (is_constant_v<0, RD>) {
    return Layout<RS, RD>{rs, rd};
  } else if constexpr (!is_tuple_v<LS>) {
    return make_layout(rs, rd * ld);
  } else {
    return composition_general(ls, ld, rs, rd);
  }
}
}  // namespace detail

// transform with three tuples.
template <class A, class B, class Cc, class F>
TESSERA_HOST_DEVICE constexpr auto transform(A const& a, B const& b, Cc const& c, F&& f) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return make_tuple(f(get<Is>(a), get<Is>(b), get<Is>(c))...);
  }(std::make_index_sequence<tuple_size_v<A>>{});
}

template <class T>
struct is_tiler : std::bool_constant<is_layout_v<T> || IntTuple<T>> {};

namespace detail {
// Right distributivity (A o (B0,B1) == (A o B0, A o B1)) holds only when the offsets of B's modes
// never carry into one another in A's mixed radix. This checks it: B's largest offset per leaf is
// split into A's digits (neighbouring digits that merge at run time count as one), and the digit
// sums must stay below the digit sizes (the last digit of A is unbounded).
template <class AS, class AD, class BS, class BD>
TESSERA_HOST_DEVICE constexpr bool modes_do_not_carry(AS const& as, AD const& ad, BS const& bs, BD const& bd) {
  constexpr int NA = tuple_size_v<AS>;
  constexpr int NB = tuple_size_v<BS>;
  if constexpr (NB <= 1 || NA <= 1) {
    return true;
  } else {
    long long s[NA] = {}, d[NA] = {}, sum[NA] = {};
    int k = 0, leaf = 0;
    for_each(transform(as, ad, [](auto const& x, auto const& y) { return make_tuple(x, y); }), [&](auto const& p) {
      long long si = static_cast<long long>(get<0>(p));
      // Basis strides (identity layouts) never merge with a neighbour: give them a unique key.
      long long di = -1 - leaf;
      if constexpr (Integer<std::remove_cvref_t<decltype(get<1>(p))>>) {
        di = static_cast<long long>(get<1>(p));
      }
      if (si == 1 && ++leaf < NA) return;  // a size-1 digit holds nothing (but the last is unbounded)
      if (si != 1) ++leaf;
      if (k > 0 && d[k - 1] * s[k - 1] == di) {
        s[k - 1] *= si;
      } else {
        s[k] = si;
        d[k] = di;
        ++k;
      }
    });
    int used = 0;
    bool ok = true;
    for_each(transform(bs, bd, [](auto const& x, auto const& y) { return make_tuple(x, y); }), [&](auto const& p) {
      long long n = static_cast<long long>(get<0>(p)), r = static_cast<long long>(get<1>(p));
      if (n <= 1 || r == 0) return;
      if (r < 0) {
        ok = false;  // negative strides are not analysed: refuse rather than guess
        return;
      }
      ++used;
      long long x = r * (n - 1);
      for (int j = 0; j < k; ++j) {
        sum[j] += (j == k - 1) ? x : x % s[j];
        x = (j == k - 1) ? 0 : x / s[j];
      }
    });
    for (int j = 0; j + 1 < k; ++j) ok = ok && (used <= 1 || sum[j] < s[j]);
    if (k == 0) ok = true;
    return ok;
  }
}
template <class AS, class AD, class BS, class BD>
TESSERA_HOST_DEVICE constexpr auto check_distributes(AS const& as, AD const& ad, BS const& bs, BD const& bd) {
  if constexpr (is_static_v<AS> && is_static_v<AD> && is_static_v<BS> && is_static_v<BD>) {
    return C<modes_do_not_carry(AS{}, AD{}, BS{}, BD{})>{};
  } else {
    return modes_do_not_carry(as, ad, bs, bd);
  }
}
}  // namespace detail

// composition(A, B) = A o B: the layout R with R(i) == A(B(i)) for all i < size(B) and
// compatible(B, R). B may be a layout, a tiler (tuple of layouts/shapes, one per mode of A,
// trailing modes of A kept) or a shape (n means n:_1 per mode).
// A is read as written beyond its domain (its last coordinate unreduced): coalesce_x, not coalesce.
// Pre: B's elements fit A's modes (stride and shape divisibility, docs/algebra.md); otherwise a
// compile-time error (static) or tessera::layout_error (dynamic), never a wrong layout.
// (_6,_2):(_8,_2) o (_4,_3):(_3,_1) == ((_2,_2),_3):((_24,_2),_8);
// (_4,_1):(_2,_1) o _4:_16 == _4:_4 (A(16) == 4).
template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& a, Layout<RS, RD> const& b) {
  auto flat = detail::coalesce_x(a);
  auto fs = wrap(flat.shape());
  auto fd = wrap(flat.stride());
  TESSERA_REQUIRE(detail::check_distributes(fs, fd, flatten_to_tuple(b.shape()), flatten_to_tuple(b.stride())),
                  "composition: B's modes overlap in A's index space (their offsets carry into one "
                  "another), so A o B is not the mode-by-mode composition; compose with each mode of B "
                  "separately or choose a B whose modes reach disjoint parts of A",
                  a, b);
  return detail::composition_impl(flat.shape(), flat.stride(), b.shape(), b.stride());
}
// composition(A, _) = A: `_` in a tiler keeps the mode, so composition(A, (T0, _)) composes mode 0
// only. composition((_4,_8):(_8,_1), (_2:_2, _)) == (_2,_8):(_16,_1).
template <class LS, class LD>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& a, Underscore) {
  return a;
}
template <class LS, class LD, class T>
  requires(!is_layout_v<T> && !std::is_same_v<T, Underscore>)
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& a, T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    constexpr int RT = tuple_size_v<T>;
    static_assert(RT <= rank_v<LS>,
                  "composition: the tiler has more modes than the layout; give one tile per mode at most");
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(composition(layout<int(Is)>(a), get<Is>(tiler))..., layout<int(RT + Js)>(a)...);
    }(std::make_index_sequence<RT>{}, std::make_index_sequence<rank_v<LS> - RT>{});
  } else {
    static_assert(Integer<T>, "composition: B must be a layout, a tiler (tuple) or an integer");
    return composition(a, make_layout(tiler, _1{}));  // n composes as n:_1 (even a static _1)
  }
}

// Layout::with_shape (declared in layout.hpp): composition(L, make_layout(shape)).
template <class Shape, class Stride>
template <class NewShape>
TESSERA_HOST_DEVICE constexpr auto Layout<Shape, Stride>::with_shape(NewShape const& shape) const {
  static_assert(IntTuple<NewShape>, "with_shape: the new shape must be an IntTuple (an integer or a tuple of them)");
  return composition(*this, make_layout(shape));
}
template <class Shape, class Stride>
template <class S0, class S1, class... Ss>
TESSERA_HOST_DEVICE constexpr auto Layout<Shape, Stride>::with_shape(S0 const& s0, S1 const& s1,
                                                                     Ss const&... ss) const {
  return with_shape(make_tuple(s0, s1, ss...));
}

}  // namespace tessera
