// tessera/runtime/algebra.hpp -- composition, complement, inverses, divides, products and the
// other layout operations of docs/algebra.md ("Operations"), run-time twin.
#pragma once

#include <optional>
#include <utility>

#include "tessera/runtime/layout.hpp"

namespace tessera::rt {

// A tiler: one layout per mode of the left operand; nullopt (`_`) keeps that mode as it is.
using Tiler = std::vector<std::optional<Layout>>;

// make_tiler(shape): a shape used as a tiler, one make_layout(s_i) per mode.
// make_tiler((_3,_8)) = [_3:_1, _8:_1].
inline Tiler make_tiler(const IntTuple& shape) {
  Tiler t;
  if (!shape.is_tuple()) {
    t.emplace_back(make_layout(shape));
    return t;
  }
  for (const auto& s : shape.children()) {
    if (s.is_underscore()) t.emplace_back(std::nullopt);
    else t.emplace_back(make_layout(s));
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

// shape_div for composition's n == _1 case: no divisibility requirement (any value is dropped).
inline Int lenient_shape_div(Int a, Int b) {
  if (divides(b, a)) return a / b;
  bool st = a.is_static && b.is_static;
  if (b.value == 0) return Int{1, st};
  std::int64_t q = a.value / b.value;
  return Int{q != 0 ? q : ((a.value < 0) != (b.value < 0) ? -1 : 1), st};
}

inline std::string b_text(Int n, Int r) { return to_string(n) + ":" + to_string(r); }

// General case of composition: A (tuple shape) o n:r.
inline Layout compose_general(const Layout& a, Int n, Int r) {
  auto f = flat_modes(a);
  const bool strict = !is_static_value(n, 1);
  if (r.value < 0)
    fail("composition: stride " + to_string(r) + " of B = " + b_text(n, r) + " is negative (A = " + to_string(a) +
         "); compose with a non-negative stride");
  std::vector<Int> as;
  Int rest = r;
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    Int s = f[i].s;
    if (strict && !divides(s, rest) && !divides(rest, s))
      fail("composition: " + std::string(i ? "remaining stride " : "stride ") + to_string(rest) + " of B = " + b_text(n, r) +
           " and mode size " + to_string(s) + " of A = " + to_string(a) +
           " do not divide one another; use a B whose stride divides (or is a multiple of) the mode sizes of A");
    as.push_back(strict ? shape_div(s, rest) : lenient_shape_div(s, rest));
    rest = strict ? shape_div(rest, s) : lenient_shape_div(rest, s);
  }
  std::vector<Mode> out;
  Int m = n;
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    Int ai = as[i];
    Int b = min(ai, m);
    bool st = m.is_static && ai.is_static;
    if (m.value > ai.value) {
      if (strict && !divides(ai, m))
        fail("composition: remaining size " + to_string(m) + " of B = " + b_text(n, r) + " is not divisible by " +
             to_string(ai) + ", the extent it covers in mode " + std::to_string(i) + " of A = " + to_string(a) +
             "; use a B whose size divides the shape of A");
      m = m / ai;
    } else {
      m = Int{1, st};
    }
    out.push_back(Mode{b, f[i].d * (f[i].s / ai)});
  }
  return bw_coalesce(out, Mode{m, rest * f.back().d});
}

}  // namespace detail

namespace detail {
// Right distributivity A o (B0,B1,...) == (A o B0, A o B1, ...) holds only when the offsets of
// B's leaves never carry into one another in A's mixed radix (Tessera rule). Digits: the modes of
// coalesce(A), neighbours that merge by value counted as one; the last digit is unbounded.
inline bool modes_do_not_carry(const std::vector<Mode>& fa, const Layout& b) {
  std::vector<Mode> bl = flat_modes(b);
  if (fa.size() <= 1 || bl.size() <= 1) return true;
  std::vector<std::int64_t> s, d;
  for (std::size_t i = 0; i < fa.size(); ++i) {
    const auto& m = fa[i];
    if (m.s.value == 1 && i + 1 < fa.size()) continue;  // a size-1 digit holds nothing (the last is unbounded)
    if (!s.empty() && (D(d.back()) * D(s.back())).value == m.d.value) {
      s.back() = (D(s.back()) * D(m.s.value)).value;
    } else {
      s.push_back(m.s.value);
      d.push_back(m.d.value);
    }
  }
  std::vector<Int> sum(s.size(), D(0));
  int used = 0;
  for (const auto& m : bl) {
    if (m.s.value <= 1 || m.d.value == 0) continue;
    if (m.d.value < 0) return false;  // negative strides are not analysed: refuse rather than guess
    ++used;
    Int x = D(m.d.value) * D(m.s.value - 1);
    for (std::size_t j = 0; j < s.size(); ++j) {
      const bool last = j + 1 == s.size();
      sum[j] = sum[j] + (last ? x : x % D(s[j]));
      x = last ? D(0) : x / D(s[j]);
    }
  }
  if (used <= 1) return true;
  for (std::size_t j = 0; j + 1 < s.size(); ++j)
    if (sum[j].value >= s[j]) return false;
  return true;
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
    fail("composition: an operand is not a layout (shape and stride not congruent): " + to_string(a) + ", " + to_string(b));
  const std::size_t la = leaf_count(a.shape), lb = leaf_count(b.shape);
  if (la > detail::kMaxLeaves || lb > detail::kMaxLeaves) detail::check_result_size("composition", la * lb);
  detail::check_result_size("composition", la * lb / 16);
  const Layout flat = coalesce(a);
  if (!detail::modes_do_not_carry(detail::flat_modes(flat), b))
    fail("composition: the modes of B = " + to_string(b) + " overlap in the index space of A = " + to_string(a) +
         " (their offsets carry into one another), so A o B is not the mode-by-mode composition; compose with each "
         "mode of B separately or choose a B whose modes reach disjoint parts of A");
  return detail::compose(flat, b);
}

// composition(A, T) with a tiler: mode i of A composed with T_i, trailing modes of A kept.
// Pre: size(T) <= rank(A). (_12,(_4,_8)):(_59,(_13,_1)) o [_3:_4, _8:_2] = (_3,(_2,_4)):(_236,(_26,_1)).
inline Layout composition(const Layout& a, const Tiler& t) {
  auto ms = modes(a);
  if (t.size() > ms.size())
    fail("composition: the tiler has " + std::to_string(t.size()) + " modes but " + to_string(a) + " has rank " +
         std::to_string(ms.size()) + "; use a tiler with at most rank(A) modes");
  std::vector<Layout> out;
  for (std::size_t i = 0; i < ms.size(); ++i)
    out.push_back(i < t.size() && t[i] ? composition(ms[i], *t[i]) : ms[i]);
  return make_layout(out);
}

// composition(A, shape): the shape as a tiler. (_12,(_4,_8)):(_59,(_13,_1)) o (_3,_8) = (_3,(_4,_2)):(_59,(_13,_1)).
inline Layout composition(const Layout& a, const IntTuple& shape) {
  if (!shape.is_tuple()) return composition(a, make_layout(shape));
  return composition(a, make_tiler(shape));
}

// complement(A, M): R strictly increasing, image disjoint from A's (except 0), (A,R) covers [0,M).
// Pre: A injective on its non-zero strides, strides divisible as docs/algebra.md says.
// complement(_4:_2, _24) = (_2,_3):(_1,_8).
inline Layout complement(const Layout& a, const IntTuple& cotarget) {
  Layout f = filter(a);
  auto ms = detail::flat_modes(f);
  if (ms.size() == 1 && is_static_value(ms[0].d, 0)) return coalesce(make_layout(cotarget));
  bool dynamic = false;
  for (const auto& m : ms) dynamic = dynamic || !m.d.is_static;
  dynamic = dynamic && ms.size() > 1;
  if (dynamic)
    for (auto& m : ms) m = detail::Mode{D(m.s.value), D(m.d.value)};
  std::stable_sort(ms.begin(), ms.end(), [](const detail::Mode& x, const detail::Mode& y) { return x.d.value < y.d.value; });
  Int cur = dynamic ? D(1) : S(1);
  std::vector<detail::Mode> out;
  for (const auto& m : ms) {
    if (m.d.value < cur.value || m.d.value <= 0)
      fail("complement: " + to_string(a) + " is not injective (stride " + to_string(m.d) +
           " overlaps the modes below it); complement needs an injective layout, filter or fix its strides");
    if (!divides(cur, m.d))
      fail("complement: stride " + to_string(m.d) + " of " + to_string(a) + " is not divisible by " + to_string(cur) +
           " (the extent of the smaller modes); use strides that are multiples of the smaller modes' extents");
    out.push_back(detail::Mode{m.d / cur, cur});
    cur = m.d * m.s;
  }
  IntTuple rest = ceil_div(cotarget, IntTuple(cur));
  Layout tail{rest, compact_col_major(rest, cur)};
  for (const auto& m : detail::flat_modes(tail)) out.push_back(m);
  return coalesce(detail::from_modes(out));
}

// complement(A) = complement(A, cosize(filter(A))). complement((_2,_2):(_1,_6)) = _3:_2.
inline Layout complement(const Layout& a) { return complement(a, cosize(filter(a))); }

namespace detail {
inline std::vector<Int> prefix_products(const std::vector<Mode>& f) {
  std::vector<Int> r{S(1)};
  for (std::size_t i = 0; i + 1 < f.size(); ++i) r.push_back(r.back() * f[i].s);
  return r;
}
}  // namespace detail

// right_inverse(L): the largest R with L(R(i)) == i (chain of static strides from _1).
// right_inverse((_4,_2):(_1,_16)) = _4:_1.
inline Layout right_inverse(const Layout& l) {
  auto f = detail::flat_modes(coalesce(l));
  auto r = detail::prefix_products(f);
  std::vector<detail::Mode> out;
  std::optional<std::size_t> cur;
  for (std::size_t i = 0; i < f.size() && !cur; ++i)
    if (is_static_value(f[i].d, 1)) cur = i;
  while (cur) {
    const auto& m = f[*cur];
    out.push_back(detail::Mode{m.s, signum(m.d) * r[*cur]});
    bool prod_static = (m.s.is_static && m.d.is_static) || is_static_value(m.s, 0) || is_static_value(m.d, 0);
    if (!prod_static) break;
    Int next = m.s * m.d;
    cur.reset();
    for (std::size_t j = 0; j < f.size() && !cur; ++j)
      if (static_equal(f[j].d, next)) cur = j;
    if (out.size() > f.size()) break;
  }
  if (out.empty()) return Layout{S(1), S(0)};
  return detail::from_modes(out);
}

// left_inverse(L): R with R(L(i)) == i. Pre: L injective, each sorted stride divides the next
// and the next is >= size*stride of the previous. left_inverse((_4,_2):(_1,_16)) = (_16,_2):(_1,_4).
inline Layout left_inverse(const Layout& l) {
  auto f = detail::flat_modes(coalesce(l));
  if (f.size() == 1 && is_static_value(f[0].s, 1)) return Layout{S(1), S(0)};
  auto r = detail::prefix_products(f);
  std::vector<std::size_t> order(f.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return f[x].d.value < f[y].d.value; });
  for (auto i : order)
    if (f[i].d.value <= 0)
      fail("left_inverse: " + to_string(l) + " has stride " + to_string(f[i].d) +
           " <= 0, so it is not injective; left_inverse needs an injective layout with positive strides");
  std::vector<detail::Mode> out{detail::Mode{f[order[0]].d, S(0)}};
  for (std::size_t k = 0; k + 1 < order.size(); ++k) {
    const auto& a = f[order[k]];
    const auto& b = f[order[k + 1]];
    if (!divides(a.d, b.d) || b.d.value < (a.s * a.d).value)
      fail("left_inverse: stride " + to_string(b.d) + " of " + to_string(l) + " must be a multiple of stride " +
           to_string(a.d) + " and >= " + to_string(a.s * a.d) + " (size * stride of the previous mode); the layout is not injective or not invertible this way");
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

// ---- divides ---------------------------------------------------------------------------------

// logical_divide(A, T) = A o (T, complement(T, size(A))). Result (tile, rest).
// logical_divide((_4,_2,_3):(_2,_1,_8), _4:_2) = ((_2,_2),(_2,_3)):((_4,_1),(_2,_8)).
inline Layout logical_divide(const Layout& a, const Layout& t) {
  Layout c = complement(t, size(a));
  return composition(a, make_layout(std::vector<Layout>{t, c}));
}

namespace detail {
inline Tiler require_layouts(const char* fn, const Tiler& t) {
  for (const auto& x : t)
    if (!x) fail(std::string(fn) + ": `_` in the tiler is only supported by composition; give a layout or shape for every mode");
  return t;
}

// Per-mode results for a tuple tiler/operand, trailing modes of A kept separately.
template <class F>
std::pair<std::vector<Layout>, std::vector<Layout>> per_mode(const char* fn, const Layout& a, const Tiler& t, F f) {
  require_layouts(fn, t);
  auto ms = modes(a);
  if (t.size() > ms.size())
    fail(std::string(fn) + ": the tiler has " + std::to_string(t.size()) + " modes but " + to_string(a) +
         " has rank " + std::to_string(ms.size()) + "; use a tiler with at most rank(A) modes");
  std::vector<Layout> done, trailing;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (i < t.size()) done.push_back(f(ms[i], *t[i]));
    else trailing.push_back(ms[i]);
  }
  return {done, trailing};
}

enum class Arrange { logical, zipped, tiled, flat };

inline std::vector<Layout> concat(std::vector<Layout> a, const std::vector<Layout>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Rearrange per-mode (first, second) pairs plus trailing modes like the divides.
inline Layout arrange(Arrange how, const std::vector<Layout>& pairs, const std::vector<Layout>& trailing) {
  if (how == Arrange::logical) return make_layout(concat(pairs, trailing));
  std::vector<Layout> firsts, seconds;
  for (const auto& p : pairs) {
    firsts.push_back(layout(p, 0));
    seconds.push_back(layout(p, 1));
  }
  if (how == Arrange::zipped)
    return make_layout(std::vector<Layout>{make_layout(firsts), make_layout(concat(seconds, trailing))});
  if (how == Arrange::tiled) return make_layout(concat(std::vector<Layout>{make_layout(firsts)}, concat(seconds, trailing)));
  return make_layout(concat(concat(firsts, seconds), trailing));
}

// For a single layout operand: zipped is the two-mode result itself, tiled splits mode 1 into
// its top-level modes, flat splits both (docs/algebra.md).
inline Layout arrange_single(Arrange how, const Layout& two) {
  if (how == Arrange::tiled) return make_layout(concat(std::vector<Layout>{layout(two, 0)}, modes(layout(two, 1))));
  if (how != Arrange::flat) return two;
  return make_layout(concat(modes(layout(two, 0)), modes(layout(two, 1))));
}
}  // namespace detail

// logical_divide(A, [T0,T1,...]): per mode, trailing modes of A kept.
// logical_divide((_9,(_4,_8)):(_59,(_13,_1)), [_3:_3, (_2,_4):(_1,_8)])
//   = ((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1))).
inline Layout logical_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("logical_divide", a, t, [](const Layout& x, const Layout& y) { return logical_divide(x, y); });
  return detail::arrange(detail::Arrange::logical, done, trailing);
}

// zipped_divide: ((tiles...), (rests..., trailing...)). For the A, T above:
// ((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1))).
inline Layout zipped_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("zipped_divide", a, t, [](const Layout& x, const Layout& y) { return logical_divide(x, y); });
  return detail::arrange(detail::Arrange::zipped, done, trailing);
}

// tiled_divide: ((tiles...), rests..., trailing...). ((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1)).
inline Layout tiled_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("tiled_divide", a, t, [](const Layout& x, const Layout& y) { return logical_divide(x, y); });
  return detail::arrange(detail::Arrange::tiled, done, trailing);
}

// flat_divide: (tiles..., rests..., trailing...). (_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1)).
inline Layout flat_divide(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("flat_divide", a, t, [](const Layout& x, const Layout& y) { return logical_divide(x, y); });
  return detail::arrange(detail::Arrange::flat, done, trailing);
}

// Single-layout tilers: zipped is logical_divide; tiled/flat split its modes.
// zipped_divide(_1000:_1, _128:_1) = (_128,_8):(_1,_128).
inline Layout zipped_divide(const Layout& a, const Layout& t) { return logical_divide(a, t); }
inline Layout tiled_divide(const Layout& a, const Layout& t) {
  return detail::arrange_single(detail::Arrange::tiled, logical_divide(a, t));
}
inline Layout flat_divide(const Layout& a, const Layout& t) {
  return detail::arrange_single(detail::Arrange::flat, logical_divide(a, t));
}

// ---- products --------------------------------------------------------------------------------

// logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B).
// logical_product((_2,_2):(_4,_1), _6:_1) = ((_2,_2),(_2,_3)):((_4,_1),(_2,_8)).
inline Layout logical_product(const Layout& a, const Layout& b) {
  IntTuple m = size(a) * cosize(b);
  return make_layout(std::vector<Layout>{a, composition(complement(a, m), b)});
}

// logical_product(A, [B0,B1,...]): per mode, trailing modes of A kept.
// logical_product((_2,_3):(_1,_2), [_2:_1, _2:_1]) = ((_2,_2),(_3,_2)):((_1,_2),(_2,_1)).
inline Layout logical_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("logical_product", a, t, [](const Layout& x, const Layout& y) { return logical_product(x, y); });
  return detail::arrange(detail::Arrange::logical, done, trailing);
}

// zipped/tiled/flat_product rearrange like the divides.
inline Layout zipped_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("zipped_product", a, t, [](const Layout& x, const Layout& y) { return logical_product(x, y); });
  return detail::arrange(detail::Arrange::zipped, done, trailing);
}
inline Layout tiled_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("tiled_product", a, t, [](const Layout& x, const Layout& y) { return logical_product(x, y); });
  return detail::arrange(detail::Arrange::tiled, done, trailing);
}
inline Layout flat_product(const Layout& a, const Tiler& t) {
  auto [done, trailing] = detail::per_mode("flat_product", a, t, [](const Layout& x, const Layout& y) { return logical_product(x, y); });
  return detail::arrange(detail::Arrange::flat, done, trailing);
}
inline Layout zipped_product(const Layout& a, const Layout& b) { return logical_product(a, b); }
inline Layout tiled_product(const Layout& a, const Layout& b) {
  return detail::arrange_single(detail::Arrange::tiled, logical_product(a, b));
}
inline Layout flat_product(const Layout& a, const Layout& b) {
  return detail::arrange_single(detail::Arrange::flat, logical_product(a, b));
}

namespace detail {
inline Layout pad_to_rank(const Layout& l, std::size_t r) {
  if (rank_of(l.shape) >= r) return l;
  return append(l, Layout{S(1), S(0)}, static_cast<std::int64_t>(r));
}

// Mode i of a padded operand (an integer layout of rank 1 is its own mode).
inline Layout mode_i(const Layout& l, std::size_t i, std::size_t r, bool whole_if_rank1) {
  if (r == 1 && whole_if_rank1) return l;
  return layout(l, static_cast<std::int64_t>(i));
}

inline Layout block_or_rake(const Layout& a, const Layout& b, bool raked) {
  const std::size_t r = std::max(rank_of(a.shape), rank_of(b.shape));
  Layout pa = pad_to_rank(a, r), pb = pad_to_rank(b, r);
  Layout p1 = composition(complement(pa, size(pa) * cosize(pb)), pb);
  std::vector<Layout> out;
  for (std::size_t i = 0; i < r; ++i) {
    Layout x = mode_i(pa, i, r, !pa.shape.is_tuple());
    Layout y = mode_i(p1, i, r, !pb.shape.is_tuple());
    out.push_back(raked ? make_layout(std::vector<Layout>{y, x}) : make_layout(std::vector<Layout>{x, y}));
  }
  return make_layout(out);
}
}  // namespace detail

// blocked_product(A, B): pad to one rank R, P = logical_product(A', B'), mode i = (P0_i, P1_i).
// blocked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) = ((_2,_3),(_5,_4)):((_5,_10),(_1,_30)).
inline Layout blocked_product(const Layout& a, const Layout& b) { return detail::block_or_rake(a, b, false); }

// raked_product(A, B): mode i = (P1_i, P0_i).
// raked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3)) = ((_3,_2),(_4,_5)):((_10,_5),(_30,_1)).
inline Layout raked_product(const Layout& a, const Layout& b) { return detail::block_or_rake(a, b, true); }

// tile_to_shape(block, shape, order): blocked_product(block, make_ordered_layout(shape / block, order)).
// Pre: each mode of block divides the matching mode of shape.
// tile_to_shape((_8,_8):(_8,_1), (_64,_32)) = ((_8,_8),(_8,_4)):((_8,_64),(_1,_512)).
inline Layout tile_to_shape(const Layout& block, const IntTuple& shape, const std::optional<IntTuple>& order = std::nullopt) {
  detail::validate_shape("tile_to_shape", shape, shape);
  const std::size_t r = detail::rank_of(shape);
  if (detail::rank_of(block.shape) > r)
    fail("tile_to_shape: block " + to_string(block) + " has more modes than the target shape " + to_string(shape) +
         "; use a target of rank >= rank(block)");
  Layout pb = detail::pad_to_rank(block, r);
  IntTuple want = product_each(shape), have = product_each(pb.shape);
  std::vector<IntTuple> wl, hl;
  detail::leaves_into(want, wl);
  detail::leaves_into(have, hl);
  for (std::size_t i = 0; i < wl.size(); ++i)
    if (!divides(hl[i].as_int(), wl[i].as_int()))
      fail("tile_to_shape: block size " + to_string(hl[i]) + " of mode " + std::to_string(i) + " of " + to_string(block) +
           " does not divide the target " + to_string(wl[i]) + " of " + to_string(shape) + "; pick a target that is a multiple of the block");
  IntTuple n = ceil_div(want, have);
  Layout grid = order ? make_ordered_layout(n, *order) : make_layout(n);  // col-major order
  return blocked_product(pb, grid);
}

// make_layout_tv(thr, val): mn = raked_product(thr, val); returns (tiler, tv) with
// tiler = product_each(shape(mn)), tv = right_inverse(mn) o make_layout((size(thr), size(val))).
// make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1)) = ((_16,_256),((_32,_4),(_8,_4)):((_128,_4),(_16,_1))).
inline std::pair<IntTuple, Layout> make_layout_tv(const Layout& thr, const Layout& val) {
  Layout mn = raked_product(thr, val);
  IntTuple tiler = product_each(mn.shape);
  Layout tv = composition(right_inverse(mn), make_layout(make_tuple({size(thr), size(val)})));
  return {tiler, tv};
}

// ---- recasting -------------------------------------------------------------------------------

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

// upcast<N>(L): elements N times wider; per leaf s:d, d == _0 unchanged, else
// shape_div(s, shape_div(N, |d|)) : shape_div(d, N). upcast<2>((_4,_8):(_8,_1)) = (_4,_4):(_4,_1).
inline Layout upcast(const Layout& l, std::int64_t n) {
  detail::check_factor("upcast", n);
  const Int nn = S(n);
  return detail::transform_modes(l, [&](detail::Mode m) {
    if (is_static_value(m.d, 0)) return m;
    try {
      return detail::Mode{shape_div(m.s, shape_div(nn, abs(m.d))), shape_div(m.d, nn)};
    } catch (const error& e) {
      fail(std::string("upcast: mode ") + to_string(m.s) + ":" + to_string(m.d) + " of " + to_string(l) +
           " cannot be widened by " + std::to_string(n) + " (" + e.what() + "); use a factor that divides the strides");
    }
  });
}

// downcast<N>(L): elements N times narrower; static d == _1 -> s*N:_1, else s:d*N.
// Pre: no dynamic stride equal to 1 (make it static _1). downcast<2>((_4,_8):(_8,_1)) = (_4,_16):(_16,_1).
inline Layout downcast(const Layout& l, std::int64_t n) {
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

// recast(L, from_bits, to_bits): upcast by to/from or downcast by from/to.
// recast((_4,_8):(_8,_1), 16, 32) = (_4,_4):(_4,_1).
inline Layout recast(const Layout& l, std::int64_t from_bits, std::int64_t to_bits) {
  if (from_bits < 1 || to_bits < 1) fail("recast: bit widths must be >= 1, got " + std::to_string(from_bits) + " and " + std::to_string(to_bits));
  if (from_bits == to_bits) return l;
  if (to_bits > from_bits) {
    if (to_bits % from_bits)
      fail("recast: " + std::to_string(to_bits) + " bits is not a multiple of " + std::to_string(from_bits) + "; use widths that divide one another");
    return upcast(l, to_bits / from_bits);
  }
  if (from_bits % to_bits)
    fail("recast: " + std::to_string(from_bits) + " bits is not a multiple of " + std::to_string(to_bits) + "; use widths that divide one another");
  return downcast(l, from_bits / to_bits);
}

// ---- common vectors, nullspace ---------------------------------------------------------------

// max_common_layout(A, B): inv = right_inverse(B), C = coalesce(A o inv); inv o layout<0>(C)
// when layout<0>(C) has static shape and static stride _1, else _1:_0.
// max_common_layout((_4,_8):(_1,_4), (_4,_8):(_1,_8)) = _4:_1.
inline Layout max_common_layout(const Layout& a, const Layout& b) {
  Layout inv = right_inverse(b);
  Layout c = coalesce(composition(a, inv));
  Layout c0 = layout(c, 0);
  if (c0.shape.is_int() && c0.shape.as_int().is_static && is_static_value(c0.stride.as_int(), 1)) return composition(inv, c0);
  return Layout{S(1), S(0)};
}

// max_common_vector(A, B): the static shape of layout<0>(C) when its stride is _1 and A, B are
// fully static, else _1. max_common_vector((_4,_8):(_1,_4), (_4,_8):(_1,_8)) = _4.
inline Int max_common_vector(const Layout& a, const Layout& b) {
  for (const auto* t : {&a.shape, &a.stride, &b.shape, &b.stride})
    if (!detail::all_static(*t)) return S(1);
  Layout c = coalesce(composition(a, right_inverse(b)));
  Layout c0 = layout(c, 0);
  if (c0.shape.is_int() && c0.shape.as_int().is_static && is_static_value(c0.stride.as_int(), 1)) return c0.shape.as_int();
  return S(1);
}

// nullspace(L): the leaves with static stride _0 as s_i : r_i, r = compact col-major strides of
// flatten(shape(L)); none -> _1:_0. nullspace((_2,_4,_3):(_0,_1,_0)) = (_2,_3):(_1,_8).
inline Layout nullspace(const Layout& l) {
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
