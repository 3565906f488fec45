// tessera/runtime/composition.hpp -- coalesce, filter and composition of the run-time twin
// (twin of core/composition.hpp). Semantics, static-ness included: docs/algebra.md.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/composition.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "tessera/runtime/print.hpp"

namespace tessera::rt {

// ---- coalesce / filter --------------------------------------------------------------------------

namespace detail {
// s * d == d0 is statically true (s*d static: both static, or one of them _0). A product that
// does not fit int64 cannot equal d0 (which does): no merge, and no overflow error for a value
// the result never holds. merges(_2, _4611686018427387904, _1) = false.
// Basis strides merge only with a basis stride of the same mode (s * _1@0 == _4@0 for s = _4).
inline bool merges(Int s, Int d, Int d0) {
  if (!d0.is_static || d.basis != d0.basis) return false;
  bool prod_static = (s.is_static && d.is_static) || is_static_value(s, 0) || is_static_value(d, 0);
  if (!prod_static) return false;
  std::int64_t prod;
  if (__builtin_mul_overflow(s.value, d.value, &prod)) return false;
  return prod == d0.value;
}

// Backward coalesce of `ms` onto the result that starts as `start` (docs/algebra.md, coalesce).
inline Layout bw_coalesce(const std::vector<Mode>& ms, Mode start) {
  std::deque<Mode> r{start};
  for (std::size_t k = ms.size(); k-- > 0;) {
    const Mode& m = ms[k];
    if (is_static_value(m.s, 1)) continue;
    if (r.size() == 1 && is_static_value(r[0].s, 1)) {
      r[0] = m;
    } else if (merges(m.s, m.d, r[0].d)) {
      r[0] = Mode{m.s * r[0].s, m.d};
    } else {
      r.push_front(m);
    }
  }
  if (r.size() == 1 && is_static_value(r[0].s, 1)) return Layout{S(1), S(0)};
  return from_modes(std::vector<Mode>(r.begin(), r.end()));
}
}  // namespace detail

// coalesce(L): flatten, drop static size-1 modes, merge s0:d0,s1:d1 when d1 == s0*d0 statically.
// Post: same size and values, depth <= 1. coalesce((_2,(_1,_6)):(_1,(_6,_2))) = _12:_1;
// coalesce((4,8):(_1,4)) = (4,8):(_1,4).
inline Layout coalesce(const Layout& l) {
  auto ms = detail::flat_modes(l);
  if (ms.empty()) return Layout{S(1), S(0)};
  detail::Mode last = ms.back();
  ms.pop_back();
  return detail::bw_coalesce(ms, last);
}

namespace detail {
// coalesce_x(L): coalesce that keeps L's function outside its domain too: a last mode of static
// size _1 stands as unbounded (a placeholder size _2) so that its stride stays (core twin:
// detail::coalesce_x). coalesce_x((_4,_1):(_2,_1)) = (_4,_2):(_2,_1).
inline Layout coalesce_x(const Layout& l) {
  auto ms = flat_modes(l);
  if (ms.empty()) return Layout{S(1), S(0)};
  Mode last = ms.back();
  ms.pop_back();
  if (is_static_value(last.s, 1)) last.s = S(2);
  return bw_coalesce(ms, last);
}
}  // namespace detail

// coalesce(L, profile): a tuple profile coalesces mode i with profile i (trailing modes kept),
// an integer profile coalesces the whole layout.
// coalesce((_2,(_1,_6)):(_1,(_6,_2)), (_1,_1)) = (_2,_6):(_1,_2).
inline Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (!profile.is_tuple()) return coalesce(l);
  const auto& ps = profile.children();
  auto ms = modes(l);
  if (ps.size() > ms.size())
    fail("coalesce: profile " + to_string(profile) + " has more modes than " + to_string(l) +
         "; use a profile of rank <= " + std::to_string(ms.size()));
  std::vector<Layout> out;
  for (std::size_t i = 0; i < ms.size(); ++i) out.push_back(i < ps.size() ? coalesce(ms[i], ps[i]) : ms[i]);
  return make_layout(out);
}

// filter(L) = coalesce(L with every static _0-stride leaf's shape replaced by _1).
// filter((_2,_4,_3):(_0,_1,_0)) = _4:_1.
inline Layout filter(const Layout& l) {
  auto ms = detail::flat_modes(l);
  for (auto& m : ms)
    if (is_static_value(m.d, 0)) m.s = S(1);
  if (ms.empty()) return Layout{S(1), S(0)};
  detail::Mode last = ms.back();
  ms.pop_back();
  return detail::bw_coalesce(ms, last);
}

// ---- composition --------------------------------------------------------------------------------

// A tiler: one entry per mode of the left operand of composition, the divides and the products.
// An entry is a layout, a nested tiler (a tuple inside a tiler: its entries act on the sub-modes
// of that mode, as in the core), or `_`, which keeps the mode as it is (composition only; a
// run-time extension, the core has no `_` in tilers).
struct Tile;
using Tiler = std::vector<Tile>;

struct Tile {
  enum class Kind { keep, layout, tiler };
  Kind kind = Kind::keep;
  Layout layout;            // kind == layout
  std::vector<Tile> modes;  // kind == tiler
  bool integer = false;     // kind == layout made from an integer n: make_layout(n), but n:_1 in composition

  Tile(std::nullopt_t) {}                                       // NOLINT: `_`, keep the mode
  Tile(Layout l) : kind(Kind::layout), layout(std::move(l)) {}  // NOLINT: a layout is a tile
  explicit Tile(Tiler t) : kind(Kind::tiler), modes(std::move(t)) {}
  // An integer n as a tile: make_layout(n) (_1:_0 for a static _1), composition takes it as n:_1.
  static Tile of_integer(const IntTuple& n) {
    Tile t(make_layout(n));
    t.integer = true;
    return t;
  }
};

// make_tiler(shape): a shape used as a tiler: an integer n is make_layout(n) (n:_1 in composition), a tuple mode a
// nested tiler, `_` keeps the mode. make_tiler((_3,_8)) = [_3:_1, _8:_1];
// make_tiler((_3,(_2,_4))) = [_3:_1, [_2:_1, _4:_1]].
inline Tiler make_tiler(const IntTuple& shape) {
  Tiler t;
  if (!shape.is_tuple()) {
    t.push_back(Tile::of_integer(shape));
    return t;
  }
  for (const auto& s : shape.children()) {
    if (s.is_underscore()) t.emplace_back(std::nullopt);
    else if (s.is_tuple()) t.emplace_back(make_tiler(s));
    else t.push_back(Tile::of_integer(s));
  }
  return t;
}

namespace detail {

inline constexpr std::size_t kMaxLeaves = 1u << 16;

inline void check_result_size(const char* fn, std::size_t leaves) {
  if (leaves > kMaxLeaves)
    fail(std::string(fn) + ": the result would have more than " + std::to_string(kMaxLeaves) +
         " modes; simplify the operands (coalesce them) first");
}

inline std::string b_text(Int n, Int r) { return to_string(n) + ":" + to_string(r); }

// ceil_div(a, b) for b >= 0, static iff both are; a b of 0 gives 1 (a dynamic stride 0: one element).
inline Int ceil_div_or_one(Int a, Int b) {
  if (b.value == 0) return Int{1, a.is_static && b.is_static};
  return Int{a.value / b.value + (a.value % b.value != 0 ? 1 : 0), a.is_static && b.is_static};
}

// General case of composition, step by step as the core's composition_general: A = (s0..sk):(d0..dk)
// flat (coalesce_x, a tuple shape), B = n:r. Each mode of A but the last takes
// new = min(ceil(s/r), m) of B's remaining m elements with stride r*d (skipped when ceil(s/r) or m
// is static _1); then m = m/new, r = ceil(r/s). The rest goes to the unbounded last mode.
inline Layout compose_general(const Layout& a, Int n, Int r) {
  const auto f = flat_modes(a);
  if (r.value < 0)
    fail("composition: stride " + to_string(r) + " of B = " + b_text(n, r) + " is negative (A = " + to_string(a) +
         "); compose with a non-negative stride");
  std::vector<Mode> out;
  Int m = n, rest = r;
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    const Int s = f[i].s;
    const std::int64_t sv = s.value, rv = rest.value, mv = m.value;
    if (mv > 1 && rv != 0) {
      const std::int64_t ns = sv / rv + (sv % rv != 0 ? 1 : 0);
      if (rv % sv != 0 && sv % rv != 0 && mv > ns)
        fail("composition: " + std::string(i ? "remaining stride " : "stride ") + to_string(rest) +
             " of B = " + b_text(n, r) + " and mode size " + to_string(s) + " of A = " + to_string(a) +
             " do not divide one another and B's " + to_string(m) +
             " remaining elements do not fit in that mode; use a B whose stride divides (or is a multiple of) the "
             "mode sizes of A");
      if (mv > ns && mv % ns != 0)
        fail("composition: remaining size " + to_string(m) + " of B = " + b_text(n, r) + " is not divisible by " +
             std::to_string(ns) + ", the extent it covers in mode " + std::to_string(i) + " of A = " + to_string(a) +
             "; use a B whose size divides the shape of A");
    }
    const Int next_shape = ceil_div_or_one(s, rest);
    const Int next_stride = (!rest.is_static && rest.value == 0) ? D(0) : ceil_div_or_one(rest, s);
    if (!is_static_value(next_shape, 1) && !is_static_value(m, 1)) {
      const Int taken = min(next_shape, m);
      out.push_back(Mode{taken, rest * f[i].d});
      m = m / taken;
    }
    rest = next_stride;
  }
  const Mode last{m, rest * f.back().d};
  if (out.empty()) return Layout{last.s, last.d};
  if (!is_static_value(m, 1)) out.push_back(last);
  return from_modes(out);
}

// Right distributivity A o (B0,B1,...) == (A o B0, A o B1, ...) holds only when the offsets of
// B's leaves never carry into one another in A's mixed radix (Tessera rule), the same check as
// the core's modes_do_not_carry: B's largest offset per leaf is split into A's digits (the modes
// of coalesce(A); size-1 digits but the last are skipped; neighbours that merge at run time count
// as one), and the digit sums must stay below the digit sizes (the last digit is unbounded).
inline bool modes_do_not_carry(const std::vector<Mode>& fa, const Layout& b) {
  const std::vector<Mode> fb = flat_modes(b);
  if (fb.size() <= 1 || fa.size() <= 1) return true;
  std::vector<std::int64_t> s, d;  // A's digits
  for (std::size_t i = 0; i < fa.size(); ++i) {
    // A basis stride (a coordinate layout) never merges with a neighbour: it gets a key of its own,
    // -1 - i, as in the core.
    const std::int64_t si = fa[i].s.value, di = fa[i].d.is_basis() ? -1 - static_cast<std::int64_t>(i) : fa[i].d.value;
    if (si == 1 && i + 1 < fa.size()) continue;  // a size-1 digit holds nothing (but the last is unbounded)
    std::int64_t reach = 0;                      // d*s of the previous digit (no merge if it overflows)
    if (!s.empty() && !__builtin_mul_overflow(d.back(), s.back(), &reach) && reach == di) {
      s.back() *= si;
    } else {
      s.push_back(si);
      d.push_back(di);
    }
  }
  std::vector<std::int64_t> sum(s.size(), 0);
  int used = 0;
  bool ok = true;
  for (const auto& m : fb) {
    const std::int64_t n = m.s.value, r = m.d.value;
    if (n <= 1 || r == 0) continue;
    std::int64_t x = 0;
    if (r < 0 || __builtin_mul_overflow(r, n - 1, &x)) {
      ok = false;  // negative strides (or offsets beyond int64) are not analysed: refuse rather than guess
      continue;
    }
    ++used;
    for (std::size_t j = 0; j < s.size(); ++j) {
      const bool last = j + 1 == s.size();
      if (__builtin_add_overflow(sum[j], last ? x : x % s[j], &sum[j])) ok = false;
      x = last ? 0 : x / s[j];
    }
  }
  for (std::size_t j = 0; j + 1 < s.size(); ++j) ok = ok && (used <= 1 || sum[j] < s[j]);
  return ok;
}

inline Layout compose(const Layout& a, const Layout& b) {
  if (b.shape.is_tuple()) {
    std::vector<Layout> parts;
    for (const auto& mb : modes(b)) parts.push_back(compose(a, mb));
    return make_layout(parts);
  }
  Int n = b.shape.as_int(), r = b.stride.as_int();
  if (is_static_value(r, 0)) return Layout{n, r};
  if (a.shape.is_int()) return Layout{n, r * a.stride.as_int()};
  return compose_general(a, n, r);  // a is coalesced with a tuple shape
}
}  // namespace detail

// composition(A, B) "A o B": R(i) == A(B(i)) for every i in B's domain, compatible(B, R).
// Pre: the divisibility conditions of docs/algebra.md and, for a B of several modes, no carry
// between its modes in A's index space (Tessera rule), else error.
// (_6,_2):(_8,_2) o (_4,_3):(_3,_1) = ((_2,_2),_3):((_24,_2),_8).
inline Layout composition(const Layout& a, const Layout& b) {
  if (!congruent(a.shape, a.stride).value || !congruent(b.shape, b.stride).value)
    fail("composition: an operand is not a layout (shape and stride not congruent): " + to_string(a) + ", " +
         to_string(b));
  const std::size_t la = leaf_count(a.shape), lb = leaf_count(b.shape);
  if (la > detail::kMaxLeaves || lb > detail::kMaxLeaves) detail::check_result_size("composition", la * lb);
  detail::check_result_size("composition", la * lb / 16);
  const Layout flat = detail::coalesce_x(a);
  // A B with basis strides gives coordinates, not indices into A: only an A of one mode (after
  // coalesce_x) scales them, as the core's composition does (_8:_2 o (4,8):(_1@0,_1@1) =
  // (4,8):(_2@0,_2@1)); the core does not compile any other.
  if (has_basis_strides(b) && flat.shape.is_tuple())
    fail("composition: B = " + to_string(b) +
         " has basis strides (its values are coordinates), but A = " + to_string(a) +
         " has several modes, which take integer indices (as in the core); compose with an integer-strided B, or use a "
         "coordinate layout as A");
  if (!detail::modes_do_not_carry(detail::flat_modes(flat), b))
    fail("composition: the modes of B = " + to_string(b) + " overlap in the index space of A = " + to_string(a) +
         " (their offsets carry into one another), so A o B is not the mode-by-mode composition; compose with each "
         "mode of B separately or choose a B whose modes reach disjoint parts of A");
  return detail::compose(flat, b);
}

// composition(A, T) with a tiler: mode i of A composed with T_i (a layout, or a nested tiler
// applied to the sub-modes of mode i), `_` and trailing modes of A kept. Pre: size(T) <= rank(A).
// (_12,(_4,_8)):(_59,(_13,_1)) o [_3:_4, _8:_2] = (_3,(_2,_4)):(_236,(_26,_1)).
inline Layout composition(const Layout& a, const Tiler& t) {
  auto ms = modes(a);
  if (t.size() > ms.size())
    fail("composition: the tiler has " + std::to_string(t.size()) + " modes but " + to_string(a) + " has rank " +
         std::to_string(ms.size()) + "; use a tiler with at most rank(A) modes");
  std::vector<Layout> out;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (i >= t.size() || t[i].kind == Tile::Kind::keep) out.push_back(ms[i]);
    else if (t[i].kind == Tile::Kind::layout && t[i].integer)
      out.push_back(composition(ms[i], Layout{t[i].layout.shape, S(1)}));
    else if (t[i].kind == Tile::Kind::layout) out.push_back(composition(ms[i], t[i].layout));
    else out.push_back(composition(ms[i], t[i].modes));
  }
  return make_layout(out);
}

// composition(A, shape): the shape as a tiler (make_tiler). (_12,(_4,_8)):(_59,(_13,_1)) o (_3,_8) =
// (_3,(_4,_2)):(_59,(_13,_1)).
inline Layout composition(const Layout& a, const IntTuple& shape) {
  if (!shape.is_tuple()) return composition(a, Layout{shape, S(1)});
  return composition(a, make_tiler(shape));
}

// with_shape(L, shape): L read through a new shape, composition(L, make_layout(shape)).
// with_shape(_32:_1, (_4,_8)) = (_4,_8):(_1,_4).
inline Layout with_shape(const Layout& l, const IntTuple& shape) { return composition(l, make_layout(shape)); }

}  // namespace tessera::rt
