// tessera/runtime/complement.hpp -- complement, right_inverse, left_inverse and nullspace of the
// run-time twin (twin of core/complement.hpp). Semantics: docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/complement.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <algorithm>
#include <optional>
#include <vector>

#include "tessera/runtime/composition.hpp"

namespace tessera::rt {

namespace detail {
// Every leaf of a codomain size M is >= 1: complement(A, 0) has no layout to give (its shape
// would hold a 0), so it is an error, never `_0:_4`.
inline void check_cotarget(const char* fn, const Layout& a, const IntTuple& cotarget) {
  std::vector<IntTuple> leaves;
  leaves_into(cotarget, leaves);
  for (const auto& m : leaves)
    if (m.is_underscore() || m.as_int().value < 1)
      fail(std::string(fn) + ": the codomain size " + to_string(cotarget) + " of " + to_string(a) +
           " has a leaf below 1; give a codomain size >= 1 (e.g. cosize(A))");
}
}  // namespace detail

// complement(A, M): R strictly increasing, image disjoint from A's (except 0), (A,R) covers [0,M).
// Pre: A injective on its non-zero strides, strides divisible as docs/algebra.md says; every leaf
// of M >= 1. Modes of size 1 (static or dynamic) hold only offset 0 and do not count for
// injectivity: a size-1 mode that fits no place in the stride order is skipped.
// complement(_4:_2, _24) = (_2,_3):(_1,_8); complement((4,1):(1,1), 8) = (1,2):(1,4) (dynamic: its 1s
// stay); complement(4:1, 0) throws.
inline Layout complement(const Layout& a, const IntTuple& cotarget) {
  detail::require_integer_strides("complement", a);
  detail::check_cotarget("complement", a, cotarget);
  Layout f = filter(a);
  auto ms = detail::flat_modes(f);
  if (ms.size() == 1 && is_static_value(ms[0].d, 0)) return coalesce(make_layout(cotarget));
  bool dynamic = false;
  for (const auto& m : ms) dynamic = dynamic || !m.d.is_static;
  dynamic = dynamic && ms.size() > 1;
  if (dynamic)
    for (auto& m : ms) m = detail::Mode{D(m.s.value), D(m.d.value)};
  std::stable_sort(ms.begin(), ms.end(),
                   [](const detail::Mode& x, const detail::Mode& y) { return x.d.value < y.d.value; });
  Int cur = dynamic ? D(1) : S(1);
  std::vector<detail::Mode> out;
  for (const auto& m : ms) {
    const bool fits = m.d.value > 0 && m.d.value >= cur.value && divides(cur, m.d);
    if (!fits && m.s.value == 1) continue;  // a size-1 mode overlaps nothing
    if (m.d.value == 0)
      fail("complement: " + to_string(a) + " has stride 0 in a mode of size " + to_string(m.s) +
           ", so it is not injective (that mode repeats offset 0); complement needs an injective layout "
           "(a static _0 stride is filtered away; make the stride static or remove the mode)");
    if (m.d.value < 0)
      fail("complement: " + to_string(a) + " has the negative stride " + to_string(m.d) + " in a mode of size " +
           to_string(m.s) + "; complement needs positive strides (reverse that mode first)");
    if (m.d.value < cur.value)
      fail("complement: the modes of " + to_string(a) + " overlap in stride order: stride " + to_string(m.d) +
           " is below " + to_string(cur) +
           ", the extent (size * stride) of the modes below it, so the layout "
           "is not injective or its gaps are not a layout; complement needs each stride >= the extent of the "
           "smaller modes (filter the layout or fix its strides)");
    if (!divides(cur, m.d))
      fail("complement: stride " + to_string(m.d) + " of " + to_string(a) + " is not divisible by " + to_string(cur) +
           " (the extent of the smaller modes); use strides that are multiples of the smaller modes' extents");
    out.push_back(detail::Mode{m.d / cur, cur});
    cur = m.d * m.s;
  }
  IntTuple rest = ceil_div(cotarget, IntTuple(cur));
  Layout tail{rest, compact_col_major(rest, cur)};
  for (const auto& m : detail::flat_modes(tail)) out.push_back(m);
  // Every leaf of M is >= 1 and cur >= 1, so every mode of `rest` is >= 1: no empty mode.
  return coalesce(detail::from_modes(out));
}

// complement(A) = complement(A, cosize(filter(A))). complement((_2,_2):(_1,_6)) = _3:_2.
// A negative stride can make that default codomain < 1: then the error names the stride, not a
// codomain the caller never gave.
inline Layout complement(const Layout& a) {
  detail::require_integer_strides("complement", a);
  const Int m = cosize(filter(a));
  if (m.value < 1)
    fail("complement: " + to_string(a) + " has negative strides (its default codomain cosize(filter(A)) = " +
         to_string(m) + " is below 1); complement needs positive strides (reverse those modes first)");
  return complement(a, m);
}

namespace detail {
inline std::vector<Int> prefix_products(const std::vector<Mode>& f) {
  std::vector<Int> r{S(1)};
  for (std::size_t i = 0; i + 1 < f.size(); ++i) r.push_back(r.back() * f[i].s);
  return r;
}
}  // namespace detail

namespace detail {
// The chain of right_inverse: it starts at the mode with |d| == 1 and goes on to the mode whose
// |d| is s*|d| of the previous one. by_value: every stride and shape counts by its value (the
// twin knows them); otherwise only static ones, as the compile-time algebra, which cannot follow a
// stride it does not know at compile time (it returns _1:_0 for 4:1).
inline Layout right_inverse_chain(const Layout& l, bool by_value) {
  auto f = flat_modes(coalesce(l));
  auto r = prefix_products(f);
  std::vector<Mode> out;
  // By value, a dynamic size-1 mode holds only offset 0: it adds nothing to the chain (and would
  // match its own s*|d| again), so it is skipped, as coalesce drops a static one.
  const auto find = [&](std::int64_t next) {
    std::optional<std::size_t> at;
    for (std::size_t j = 0; j < f.size() && !at; ++j)
      if ((by_value ? f[j].s.value != 1 : f[j].d.is_static) &&
          (f[j].d.value < 0 ? -f[j].d.value : f[j].d.value) == next)
        at = j;
    return at;
  };
  std::optional<std::size_t> cur = find(1);
  while (cur) {
    const auto& m = f[*cur];
    // A negative stride is taken only as the whole chain: an R mixing it with other modes sends
    // some i to an index that L decodes into other coordinates (right_inverse((_2,_4):(_-4,_1))
    // would be (_4,_2):(_2,_-1), with L(R(5)) == -4), so the chain stops before such a mode, and
    // after one it started with (R = s:-r, whose offsets -i*r decode into that mode alone).
    if (m.d.value < 0 && !out.empty()) break;
    out.push_back(Mode{m.s, signum(m.d) * r[*cur]});
    if (m.d.value < 0) break;
    if ((!by_value && !m.s.is_static) || out.size() >= f.size()) break;  // the next stride would be dynamic
    std::int64_t next;
    if (__builtin_mul_overflow(m.s.value, m.d.value < 0 ? -m.d.value : m.d.value, &next)) break;
    cur = find(next);
  }
  if (out.empty()) return Layout{S(1), S(0)};
  return from_modes(out);
}
}  // namespace detail

// right_inverse(L): the largest R with L(R(i)) == i (docs/algebra.md), from the modes chained
// from |d| == 1 by |d_next| == s*|d| (a negative stride gives a negative stride in R). The twin
// knows every value, so it follows dynamic strides too: right_inverse(4:1) = 4:_1, where the
// compile-time algebra (right_inverse_static) gives _1:_0. Post: L(R(i)) == i for i < size(R).
// A negative stride is taken only alone (see right_inverse_chain).
// right_inverse((_4,_2):(_1,_16)) = _4:_1; right_inverse(_4:_-1) = _4:_-1;
// right_inverse((_2,_4):(_-4,_1)) = _4:_2; right_inverse((_2,_4):(_4,_-1)) = _4:_-2.
inline Layout right_inverse(const Layout& l) {
  detail::require_integer_strides("right_inverse", l);
  return detail::right_inverse_chain(l, true);
}

// right_inverse_static(L): the compile-time algebra's right_inverse, which follows only static
// strides and static shapes (right_inverse_static(4:1) = _1:_0): for max_common_layout and
// max_common_vector, whose answers are static vectors.
inline Layout right_inverse_static(const Layout& l) { return detail::right_inverse_chain(l, false); }

// left_inverse(L): R with R(L(i)) == i. Pre: L injective, each sorted stride divides the next
// and the next is >= size*stride of the previous. left_inverse((_4,_2):(_1,_16)) = (_16,_2):(_1,_4).
inline Layout left_inverse(const Layout& l) {
  detail::require_integer_strides("left_inverse", l);
  auto f = detail::flat_modes(coalesce(l));
  if (f.size() == 1 && is_static_value(f[0].s, 1)) return Layout{S(1), S(0)};
  auto r = detail::prefix_products(f);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i].s.value == 1 && f[i].d.value <= 0) continue;  // size 1: holds only offset 0, any stride
    if (f[i].d.value == 0)
      fail(
          "left_inverse: " + to_string(l) + " has a mode of size " + to_string(f[i].s) +
          " with stride 0, so it is not injective (that mode repeats offsets); left_inverse needs an injective layout");
    if (f[i].d.value < 0)
      fail("left_inverse: " + to_string(l) + " has the negative stride " + to_string(f[i].d) +
           "; the layout may be injective, but its offsets go below 0 and no layout (whose domain starts at 0) "
           "maps them back; left_inverse needs positive strides (reverse that mode first)");
    order.push_back(i);
  }
  if (order.empty()) return Layout{S(1), S(0)};
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return f[x].d.value < f[y].d.value; });
  // A size-1 mode that fits no place in the order (between two others) holds only offset 0: skip it.
  for (std::size_t k = 0; k + 1 < order.size();) {
    const auto& a = f[order[k]];
    const auto& b = f[order[k + 1]];
    const bool fits = divides(a.d, b.d) && b.d.value >= (a.s * a.d).value;
    if (!fits && b.s.value == 1) order.erase(order.begin() + static_cast<std::ptrdiff_t>(k + 1));
    else if (!fits && a.s.value == 1) order.erase(order.begin() + static_cast<std::ptrdiff_t>(k));
    else ++k;
  }
  std::vector<detail::Mode> out{detail::Mode{f[order[0]].d, S(0)}};
  for (std::size_t k = 0; k + 1 < order.size(); ++k) {
    const auto& a = f[order[k]];
    const auto& b = f[order[k + 1]];
    if (!divides(a.d, b.d) || b.d.value < (a.s * a.d).value)
      fail("left_inverse: stride " + to_string(b.d) + " of " + to_string(l) + " must be a multiple of stride " +
           to_string(a.d) + " and >= " + to_string(a.s * a.d) +
           " (size * stride of the previous mode); the layout is not injective or not invertible this way");
    out.push_back(detail::Mode{b.d / a.d, r[order[k]]});
  }
  out.push_back(detail::Mode{f[order.back()].s, r[order.back()]});
  // Tessera rule (docs/algebra.md): a rank>1 layout with a dynamic stride is sorted at run time and
  // every integer of the result is dynamic.
  bool dynamic_sort = false;
  for (const auto& m : f) dynamic_sort = dynamic_sort || !m.d.is_static;
  if (f.size() > 1 && dynamic_sort) {
    for (auto& m : out) m.s.is_static = m.d.is_static = false;
  }
  return coalesce(detail::from_modes(out));
}

// nullspace(L): the leaves with static stride _0 as s_i : r_i, r = compact col-major strides of
// flatten(shape(L)); none -> _1:_0. nullspace((_2,_4,_3):(_0,_1,_0)) = (_2,_3):(_1,_8).
inline Layout nullspace(const Layout& l) {
  detail::require_integer_strides("nullspace", l);
  auto f = detail::flat_modes(l);
  std::vector<IntTuple> sh;
  detail::leaves_into(l.shape, sh);
  std::vector<IntTuple> rs;
  detail::leaves_into(compact_col_major(make_tuple(sh)), rs);
  std::vector<detail::Mode> out;
  for (std::size_t i = 0; i < f.size(); ++i)
    if (is_static_value(f[i].d, 0)) out.push_back(detail::Mode{f[i].s, rs[i].as_int()});
  if (out.empty()) return Layout{S(1), S(0)};
  return detail::from_modes(out);
}

}  // namespace tessera::rt
