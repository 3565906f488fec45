// tessera/runtime/recast.hpp -- upcast, downcast, recast, max_common_layout and
// max_common_vector of the run-time twin (twin of core/recast.hpp). Semantics: docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/recast.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <functional>
#include <string>
#include <utility>

#include "tessera/runtime/complement.hpp"
#include "tessera/runtime/divide.hpp"

namespace tessera::rt {

namespace detail {
inline void check_factor(const char* fn, std::int64_t n) {
  if (n < 1) fail(std::string(fn) + ": factor " + std::to_string(n) + " is < 1; use a positive factor");
}
inline Layout transform_modes(const Layout& l, const std::function<Mode(Mode)>& f) {
  std::vector<IntTuple> sh, st;
  std::function<std::pair<IntTuple, IntTuple>(const IntTuple&, const IntTuple&)> go =
      [&](const IntTuple& s, const IntTuple& d) -> std::pair<IntTuple, IntTuple> {
    if (s.is_int()) {
      Mode m = f(Mode{s.as_int(), d.as_int()});
      return {m.s, m.d};
    }
    std::vector<IntTuple> a, b;
    for (std::size_t i = 0; i < s.children().size(); ++i) {
      auto [x, y] = go(s.children()[i], d.children()[i]);
      a.push_back(x);
      b.push_back(y);
    }
    return {make_tuple(std::move(a)), make_tuple(std::move(b))};
  };
  auto [x, y] = go(l.shape, l.stride);
  return Layout{x, y};
}
}  // namespace detail

// upcast<N>(L): elements N times wider; per leaf s:d, d == _0 unchanged (a dynamic d == 0 too, its
// shape made dynamic, as the core), else shape_div(s, shape_div(N, |d|)) : shape_div(d, N). upcast<2>((_4,_8):(_8,_1)) = (_4,_4):(_4,_1).
inline Layout upcast(const Layout& l, std::int64_t n) {
  detail::require_integer_strides("upcast", l);
  detail::check_factor("upcast", n);
  const Int nn = S(n);
  return detail::transform_modes(l, [&](detail::Mode m) {
    if (is_static_value(m.d, 0)) return m;
    if (m.d.value == 0) return detail::Mode{D(m.s.value), D(0)};
    try {
      return detail::Mode{shape_div(m.s, shape_div(nn, abs(m.d))), shape_div(m.d, nn)};
    } catch (const layout_error& e) {
      fail(std::string("upcast: mode ") + to_string(m.s) + ":" + to_string(m.d) + " of " + to_string(l) +
           " cannot be widened by " + std::to_string(n) + " (" + e.what() + "); use a factor that divides the strides");
    }
  });
}

// downcast<N>(L): elements N times narrower; static d == _1 -> s*N:_1, else s:d*N.
// Pre: no dynamic stride equal to 1 (make it static _1). downcast<2>((_4,_8):(_8,_1)) = (_4,_16):(_16,_1).
inline Layout downcast(const Layout& l, std::int64_t n) {
  detail::require_integer_strides("downcast", l);
  detail::check_factor("downcast", n);
  const Int nn = S(n);
  return detail::transform_modes(l, [&](detail::Mode m) {
    if (is_static_value(m.d, 1)) return detail::Mode{m.s * nn, S(1)};
    if (m.d.value == 1)
      fail("downcast: mode " + to_string(m.s) + ":" + to_string(m.d) + " of " + to_string(l) +
           " has a dynamic stride equal to 1 (Tessera rule); make that stride static _1");
    return detail::Mode{m.s, m.d * nn};
  });
}

// recast(L, from_bits, to_bits): upcast by to/from (also for equal widths: upcast by 1, as the
// core) or downcast by from/to. recast((_4,_8):(_8,_1), 16, 32) = (_4,_4):(_4,_1).
inline Layout recast(const Layout& l, std::int64_t from_bits, std::int64_t to_bits) {
  if (from_bits < 1 || to_bits < 1)
    fail("recast: bit widths must be >= 1, got " + std::to_string(from_bits) + " and " + std::to_string(to_bits));
  if (to_bits >= from_bits) {
    if (to_bits % from_bits)
      fail("recast: " + std::to_string(to_bits) + " bits is not a multiple of " + std::to_string(from_bits) +
           "; use widths that divide one another");
    return upcast(l, to_bits / from_bits);
  }
  if (from_bits % to_bits)
    fail("recast: " + std::to_string(from_bits) + " bits is not a multiple of " + std::to_string(to_bits) +
         "; use widths that divide one another");
  return downcast(l, from_bits / to_bits);
}

// ---- common vectors -----------------------------------------------------------------------------

// max_common_layout(A, B): inv = right_inverse_static(B) (static strides only, as the core), C = coalesce(A o inv); inv o layout<0>(C)
// when layout<0>(C) has static shape and static stride _1, else _1:_0.
// max_common_layout((_4,_8):(_1,_4), (_4,_8):(_1,_8)) = _4:_1.
inline Layout max_common_layout(const Layout& a, const Layout& b) {
  detail::require_integer_strides("max_common_layout", a);
  detail::require_integer_strides("max_common_layout", b);
  Layout inv = right_inverse_static(b);
  Layout c = coalesce(composition(a, inv));
  Layout c0 = layout(c, 0);
  if (c0.shape.is_int() && c0.shape.as_int().is_static && is_static_value(c0.stride.as_int(), 1))
    return composition(inv, c0);
  return Layout{S(1), S(0)};
}

// max_common_vector(A, B): the static shape of layout<0>(C) when its stride is _1 and A, B are
// fully static, else _1. max_common_vector((_4,_8):(_1,_4), (_4,_8):(_1,_8)) = _4.
inline Int max_common_vector(const Layout& a, const Layout& b) {
  detail::require_integer_strides("max_common_vector", a);
  detail::require_integer_strides("max_common_vector", b);
  for (const auto* t : {&a.shape, &a.stride, &b.shape, &b.stride})
    if (!detail::all_static(*t)) return S(1);
  Layout c = coalesce(composition(a, right_inverse_static(b)));
  Layout c0 = layout(c, 0);
  if (c0.shape.is_int() && c0.shape.as_int().is_static && is_static_value(c0.stride.as_int(), 1))
    return c0.shape.as_int();
  return S(1);
}

// max_alignment(L): the largest N that upcast<N>(L) accepts as far as L's static part tells
// (dynamic shapes count as _1, dynamic strides as _0): gcd(size<0>(P), stride<1>(P)) for
// P = logical_divide(F, right_inverse(F)), F the static part of coalesce(L).
// max_alignment((_4,_8):(_1,_8)) = _4.
inline Int max_alignment(const Layout& l) {
  detail::require_integer_strides("max_alignment", l);
  const Layout flat = coalesce(l);
  std::vector<IntTuple> fs, fd;
  detail::leaves_into(flat.shape, fs);
  detail::leaves_into(flat.stride, fd);
  for (auto& x : fs)
    if (!x.as_int().is_static) x = S(1);
  for (auto& x : fd)
    if (!x.as_int().is_static) x = S(0);
  const Layout filtered = make_layout(make_tuple(std::move(fs)), make_tuple(std::move(fd)));
  const Layout permuted = logical_divide(filtered, right_inverse(filtered));
  return gcd(size(layout(permuted, 0)), gcd(stride(permuted, 1)));
}

}  // namespace tessera::rt
