// tessera/runtime/layout.hpp -- layouts of the run-time twin (twin of core/layout.hpp):
// compact strides, validation, construction, evaluation, sub-layouts and slicing.
//
// A Layout is a function from coordinates to offsets given by a shape and a congruent stride,
// printed `(_2,4):(4,_1)`. Strides may be basis elements (`_1@0`, core/arithmetic_tuple.hpp):
// then the layout maps coordinates to coordinates, make_identity_layout((4,8)) = (4,8):(_1@0,_1@1)
// and its value at 13 is the coordinate tuple (1,3) (evaluate_any).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/layout.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <functional>
#include <string>
#include <vector>

#include "tessera/runtime/int_tuple.hpp"

namespace tessera::rt {

// A function from coordinates to offsets; shape and stride are congruent.
struct Layout {
  IntTuple shape;
  IntTuple stride;
};

inline std::string to_string(const Layout& l) { return to_string(l.shape) + ":" + to_string(l.stride); }

// ---- compact strides ----------------------------------------------------------------------------

namespace detail {
// Compact strides visiting the leaves left to right (column-major) or right to left (row-major);
// a static size-1 leaf gets _0.
inline IntTuple compact_major(const IntTuple& shape, Int init, bool row_major) {
  Int cur = init;
  std::function<IntTuple(const IntTuple&)> go = [&](const IntTuple& t) -> IntTuple {
    if (t.is_int()) {
      Int s = t.as_int();
      Int d = is_static_value(s, 1) ? S(0) : cur;
      cur = cur * s;
      return d;
    }
    std::size_t const n = t.children().size();
    std::vector<IntTuple> kids(n);
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t const i = row_major ? n - 1 - k : k;
      kids[i] = go(t.children()[i]);
    }
    return make_tuple(std::move(kids));
  };
  return go(shape);
}
}  // namespace detail

// compact column-major strides of shape starting at init; a static size-1 leaf gets _0.
// compact_col_major((_4,_1,_2)) = (_1,_0,_4); compact_col_major((2,3)) = (_1,2).
inline IntTuple compact_col_major(const IntTuple& shape, Int init = S(1)) {
  return detail::compact_major(shape, init, false);
}

// compact row-major strides: lexicographic over all leaves. compact_row_major((2,3,4)) = (12,4,_1).
inline IntTuple compact_row_major(const IntTuple& shape, Int init = S(1)) {
  return detail::compact_major(shape, init, true);
}

// compact_major<Major>(shape, current) (here with row_major = Major is LayoutRight): the compact
// strides of compact_col_major / compact_row_major starting at current; a tuple current (of
// shape's rank) starts each top-level mode at its own value.
// compact_major((2,3), _1, true) = (3,_1); compact_major((2,3), (_1,10), false) = (_1,10).
inline IntTuple compact_major(const IntTuple& shape, const IntTuple& current, bool row_major) {
  if (current.is_tuple()) {
    if (!shape.is_tuple() || shape.children().size() != current.children().size())
      fail(std::string("compact_major: a tuple current ") + to_string(current) + " needs a shape of its rank, got " +
           to_string(shape) + "; give one start per top-level mode, or one integer");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < shape.children().size(); ++i)
      kids.push_back(compact_major(shape.children()[i], current.children()[i], row_major));
    return make_tuple(std::move(kids));
  }
  if (!current.is_int())
    fail("compact_major: the start " + to_string(current) + " must be an integer or a tuple of them");
  return detail::compact_major(shape, current.as_int(), row_major);
}

// crd2idx with compact column-major strides. crd2idx((1,2), (3,4)) = 7.
inline Int crd2idx(const IntTuple& crd, const IntTuple& shape) { return crd2idx(crd, shape, compact_col_major(shape)); }

// ---- validation ---------------------------------------------------------------------------------

namespace detail {
inline void validate_shape(const char* fn, const IntTuple& shape, const IntTuple& whole) {
  if (shape.is_underscore())
    fail(std::string(fn) + ": shape " + to_string(whole) + " contains `_`; `_` only appears in slicing coordinates");
  if (shape.is_int()) {
    if (shape.as_int().is_basis())
      fail(std::string(fn) + ": shape leaf " + to_string(shape.as_int()) + " of " + to_string(whole) +
           " is a basis element; basis elements are strides (of coordinate layouts, make_identity_layout), "
           "shapes are integers");
    if (shape.as_int().value < 1)
      fail(std::string(fn) + ": shape leaf " + to_string(shape.as_int()) + " of " + to_string(whole) +
           " is < 1 (Tessera rule: shape leaves are >= 1); handle empty problems before building the layout");
    return;
  }
  for (const auto& c : shape.children()) validate_shape(fn, c, whole);
}

inline void max_offset_into(const IntTuple& shape, const IntTuple& stride, Int& acc) {
  if (shape.is_int()) {
    // A basis stride adds to a coordinate, not to an offset: the shape bounds it (as in the core).
    if (stride.as_int().is_basis()) return;
    acc = acc + D(shape.as_int().value - 1) * abs(D(stride.as_int().value));
    return;
  }
  for (std::size_t i = 0; i < shape.children().size(); ++i)
    max_offset_into(shape.children()[i], stride.children()[i], acc);
}
}  // namespace detail

// validate(L): shape and stride congruent, shape leaves >= 1, size and largest offset fit int64.
// Throws error otherwise. validate((4,0):(1,4)) throws (shape leaf 0 < 1).
inline void validate(const Layout& l) {
  detail::validate_shape("layout", l.shape, l.shape);
  if (!congruent(l.shape, l.stride).value)
    fail("layout: shape " + to_string(l.shape) + " and stride " + to_string(l.stride) +
         " are not congruent; give one stride per shape leaf with the same nesting");
  std::vector<IntTuple> leaves;
  detail::leaves_into(l.stride, leaves);
  for (const auto& s : leaves)
    if (s.is_underscore()) fail("layout: stride " + to_string(l.stride) + " contains `_`; strides are integers");
  try {
    (void)product(l.shape);
    Int acc = S(0);
    detail::max_offset_into(l.shape, l.stride, acc);
  } catch (const layout_error&) {
    fail("layout: the size or the largest offset of " + to_string(l) +
         " does not fit in int64; use smaller extents or strides");
  }
}

// ---- construction -------------------------------------------------------------------------------

// make_layout(shape): column-major compact, static size-1 leaves get stride _0.
// Pre: shape leaves >= 1. make_layout((_4,_1,_2)) = (_4,_1,_2):(_1,_0,_4).
inline Layout make_layout(const IntTuple& shape) {
  detail::validate_shape("make_layout", shape, shape);
  Layout l{shape, compact_col_major(shape)};
  validate(l);
  return l;
}

// make_layout(shape, stride): Pre: congruent, leaves >= 1. make_layout((2,4),(4,_1)) = (2,4):(4,_1).
inline Layout make_layout(const IntTuple& shape, const IntTuple& stride) {
  Layout l{shape, stride};
  validate(l);
  return l;
}

// make_layout_right(shape): row-major compact. make_layout_right((2,3,4)) = (2,3,4):(12,4,_1).
inline Layout make_layout_right(const IntTuple& shape) {
  detail::validate_shape("make_layout_right", shape, shape);
  Layout l{shape, compact_row_major(shape)};
  validate(l);
  return l;
}

// make_layout(L0, L1, ...): the layouts as modes. make_layout({_4:_1, _2:_4}) = (_4,_2):(_1,_4).
inline Layout make_layout(const std::vector<Layout>& modes) {
  std::vector<IntTuple> sh, st;
  for (const auto& m : modes) {
    sh.push_back(m.shape);
    st.push_back(m.stride);
  }
  return Layout{make_tuple(std::move(sh)), make_tuple(std::move(st))};
}

// ---- queries ------------------------------------------------------------------------------------

inline Int rank(const Layout& l) { return rank(l.shape); }    // rank((2,(3,4)):(..)) = _2
inline Int depth(const Layout& l) { return depth(l.shape); }  // depth(8:1) = _0
inline Int size(const Layout& l) { return size(l.shape); }    // size((2,4):(4,1)) = 8

// has_basis_strides(L): some stride of L is a basis element (L maps to coordinates).
inline bool has_basis_strides(const Layout& l) { return detail::has_basis(l.stride); }

namespace detail {
// The functions that need integer offsets refuse a coordinate layout, naming themselves (the core
// does not compile them on basis strides either).
inline void require_integer_strides(const std::string& fn, const Layout& l) {
  if (has_basis_strides(l))
    fail(fn + ": " + to_string(l) +
         " has basis strides (it maps coordinates to coordinates, like "
         "make_identity_layout's), but " +
         fn +
         " needs integer strides, as in the core; apply it to the data "
         "layout (integer strides) instead");
}
}  // namespace detail

// Evaluation L(c): crd2idx(c, shape, stride). ((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))(2,1) = 10.
// Pre: integer strides (evaluate_any takes any).
inline Int evaluate(const Layout& l, const IntTuple& crd) {
  if (has_basis_strides(l))
    fail("evaluation: " + to_string(l) +
         " has basis strides, so its values are coordinates, not integer offsets; "
         "use evaluate_any (tessera eval: L(c) prints the coordinate)");
  return crd2idx(crd, l.shape, l.stride);
}

// ---- coordinate values (basis strides) ----------------------------------------------------------

namespace detail {
// The rank of an offset as a coordinate: v@N has rank N+1, a coordinate tuple its length.
inline std::size_t coordinate_rank(const IntTuple& x) {
  if (x.is_tuple()) return x.children().size();
  return static_cast<std::size_t>(x.as_int().basis) + 1;
}
// Entry i of an offset as a coordinate of rank >= i: v@N is v at N and _0 elsewhere; a tuple is
// padded with _0.
inline Int coordinate_entry(const IntTuple& x, std::size_t i) {
  if (x.is_tuple()) return i < x.children().size() ? x.children()[i].as_int() : S(0);
  return static_cast<std::size_t>(x.as_int().basis) == i ? plain(x.as_int()) : S(0);
}
inline bool is_coordinate_value(const IntTuple& x) { return x.is_tuple() || x.as_int().is_basis(); }
}  // namespace detail

// offset_add(a, b): the sum of two values of a layout, as the core's crd2idx adds them: integers
// add; basis elements of one mode add (2@0 + 3@0 = 5@0); otherwise basis elements and coordinate
// tuples (the core's ArithmeticTuple) add entry by entry, the shorter padded with _0
// (2@0 + 3@1 = (2,3), (1,2) + 5@1 = (1,7), _1@0 + _0@1 = (_1,_0)); the static _0 is neutral.
// Pre: not an integer (other than _0) with a coordinate: a layout with integer and basis strides
// has no values.
inline IntTuple offset_add(const IntTuple& a, const IntTuple& b) {
  const bool ca = detail::is_coordinate_value(a), cb = detail::is_coordinate_value(b);
  if (!ca && !cb) return a.as_int() + b.as_int();
  if (!ca && is_static_value(a.as_int(), 0)) return b;
  if (!cb && is_static_value(b.as_int(), 0)) return a;
  if (!ca || !cb)
    fail("evaluation: the integer offset " + to_string(ca ? b : a) + " and the coordinate " + to_string(ca ? a : b) +
         " do not add (the layout mixes integer and basis strides); give a layout integer strides or basis strides, "
         "not both");
  if (a.is_int() && b.is_int() && a.as_int().basis == b.as_int().basis) return a.as_int() + b.as_int();
  const std::size_t r = std::max(detail::coordinate_rank(a), detail::coordinate_rank(b));
  std::vector<IntTuple> kids;
  kids.reserve(r);
  for (std::size_t i = 0; i < r; ++i)
    kids.emplace_back(detail::coordinate_entry(a, i) + detail::coordinate_entry(b, i));
  return make_tuple(std::move(kids));
}

namespace detail {
inline IntTuple crd2off_impl(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride) {
  return crd2idx_walk<IntTuple>(crd, shape, stride,
                                [](const IntTuple& a, const IntTuple& b) { return offset_add(a, b); });
}
}  // namespace detail

// crd2off(crd, shape, stride): crd2idx for any strides: an integer for integer strides, a basis
// element or a coordinate tuple for basis strides. crd2off(13, (4,8), (_1@0,_1@1)) = (1,3).
inline IntTuple crd2off(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride) {
  if (!congruent(shape, stride).value)
    fail("crd2idx: shape " + to_string(shape) + " and stride " + to_string(stride) +
         " are not congruent; pass a stride with the nesting of the shape");
  if (!detail::has_basis(stride)) return crd2idx(crd, shape, stride);
  return detail::crd2off_impl(crd, shape, stride);
}

// evaluate_any(L, c): L(c) for any strides, as the core computes it: an integer offset, or for
// basis strides the coordinate: (4,8):(_1@0,_1@1) at 13 is (1,3), at (_0,3) is (_0,3);
// _4:_1@1 at 2 is 2@1 (one mode: a basis element).
inline IntTuple evaluate_any(const Layout& l, const IntTuple& crd) { return crd2off(crd, l.shape, l.stride); }

// make_identity_layout(shape): the layout mapping each coordinate to itself: top-level mode i gets
// the strides prefix_product(mode i) along E<i> (an integer shape gives n:_1), as the core.
// make_identity_layout((4,8)) = (4,8):(_1@0,_1@1); make_identity_layout((_4,(2,_4))) =
// (_4,(2,_4)):(_1@0,(_1@1,2@1)). Post: L(c) is c's natural coordinate per top-level mode.
inline Layout make_identity_layout(const IntTuple& shape) {
  detail::validate_shape("make_identity_layout", shape, shape);
  if (!shape.is_tuple()) return make_layout(shape, S(1));
  std::vector<IntTuple> strides;
  for (std::size_t i = 0; i < shape.children().size(); ++i) {
    if (i > 65535) fail("make_identity_layout: more than 65536 modes; a basis element names a mode below 65536");
    const int mode = static_cast<int>(i);
    strides.push_back(
        detail::transform_leaves(prefix_product(shape.children()[i]), [mode](Int d) { return E(d, mode); }));
  }
  return make_layout(shape, make_tuple(std::move(strides)));
}

// make_basis_like(shape): E<i> = _1@i for each top-level mode i; _1 for an integer shape. Pre: no
// mode of shape is a tuple (Tessera's basis elements name one mode; CuTe's nested E<i,j> are not
// represented, as in the core). make_basis_like((4,8)) = (_1@0,_1@1).
inline IntTuple make_basis_like(const IntTuple& shape) {
  if (!shape.is_tuple()) return S(1);
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < shape.children().size(); ++i) {
    if (shape.children()[i].is_tuple())
      fail("make_basis_like: mode " + std::to_string(i) + " of " + to_string(shape) +
           " is a tuple, and a nested mode would need a nested basis element (CuTe's E<i,j>), which Tessera does not "
           "have; flatten the shape or use make_identity_layout");
    if (i > 65535) fail("make_basis_like: more than 65536 modes; a basis element names a mode below 65536");
    out.emplace_back(E(S(1), static_cast<int>(i)));
  }
  return make_tuple(std::move(out));
}

// basis_get(b, t): the part of t that the basis element b = v@N selects, get<N>(t); t itself when
// b is not a basis element. basis_get(_1@1, (2,(3,4))) = (3,4); basis_get(_4, (2,3)) = (2,3).
inline IntTuple basis_get(const IntTuple& b, const IntTuple& t) {
  if (!b.is_int() || !b.as_int().is_basis()) return t;
  const int n = b.as_int().basis;
  if (!t.is_tuple() && n == 0) return t;
  if (!t.is_tuple() || static_cast<std::size_t>(n) >= t.children().size())
    fail("basis_get: the basis element " + to_string(b) + " selects mode " + std::to_string(n) + " of " + to_string(t) +
         ", which has rank " + std::to_string(t.is_tuple() ? t.children().size() : 1) +
         "; use a tuple with more than " + std::to_string(n) + " modes");
  return t.children()[static_cast<std::size_t>(n)];
}

// cosize(L) = L(size(L) - 1) + 1 (non-negative strides). cosize((_2,_4):(_4,_1)) = _8.
// Pre: integer strides (a coordinate layout has coshape instead).
inline Int cosize(const Layout& l) {
  detail::require_integer_strides("cosize", l);
  return evaluate(l, size(l) - S(1)) + S(1);
}

// equal(A, B): same shapes and strides, static when decidable, as the core's A == B.
// equal((_2,_4):(_4,_1), (2,4):(4,1)) = true.
inline Bool equal(const Layout& a, const Layout& b) { return and_(equal(a.shape, b.shape), equal(a.stride, b.stride)); }

// a == b: the same structure and values, static-ness ignored (a plain bool for tests and tools).
inline bool operator==(const Layout& a, const Layout& b) {
  return same_values(a.shape, b.shape) && same_values(a.stride, b.stride);
}

// ---- sub-layouts --------------------------------------------------------------------------------

// layout<i>(L): mode i as a layout; layout<0> of an integer layout is itself.
// layout<1>((2,(3,4)):(1,(2,6))) = (3,4):(2,6).
inline Layout layout(const Layout& l, std::int64_t i) { return Layout{get(l.shape, i), get(l.stride, i)}; }
inline IntTuple shape(const Layout& l, std::int64_t i) { return get(l.shape, i); }
inline IntTuple stride(const Layout& l, std::int64_t i) { return get(l.stride, i); }

// select<1,3>((2,3,5,7):(1,2,6,30)) = (3,7):(2,30).
inline Layout select(const Layout& l, const std::vector<std::int64_t>& idx) {
  return Layout{select(l.shape, idx), select(l.stride, idx)};
}
// take<1,3>((2,3,5,7):(1,2,6,30)) = (3,5):(2,6).
inline Layout take(const Layout& l, std::int64_t b, std::int64_t e) {
  return Layout{take(l.shape, b, e), take(l.stride, b, e)};
}
// group<0,2>((2,3,5,7):(1,2,6,30)) = ((2,3),5,7):((1,2),6,30).
inline Layout group(const Layout& l, std::int64_t b, std::int64_t e) {
  return Layout{group(l.shape, b, e), group(l.stride, b, e)};
}
// flatten(((2,3),4):((1,2),6)) = (2,3,4):(1,2,6).
inline Layout flatten(const Layout& l) { return Layout{flatten(l.shape), flatten(l.stride)}; }
// append((2,3):(1,2), 4:6) = (2,3,4):(1,2,6); append<N> pads with x.
inline Layout append(const Layout& l, const Layout& x) {
  return Layout{append(l.shape, x.shape), append(l.stride, x.stride)};
}
inline Layout append(const Layout& l, const Layout& x, std::int64_t n) {
  return Layout{append(l.shape, x.shape, n), append(l.stride, x.stride, n)};
}
// prepend((2,3):(1,2), 4:6) = (4,2,3):(6,1,2).
inline Layout prepend(const Layout& l, const Layout& x) {
  return Layout{prepend(l.shape, x.shape), prepend(l.stride, x.stride)};
}
inline Layout prepend(const Layout& l, const Layout& x, std::int64_t n) {
  return Layout{prepend(l.shape, x.shape, n), prepend(l.stride, x.stride, n)};
}

// The top-level modes of L as layouts (an integer layout is its own single mode).
inline std::vector<Layout> modes(const Layout& l) {
  if (!l.shape.is_tuple()) return {l};
  std::vector<Layout> out;
  for (std::size_t i = 0; i < l.shape.children().size(); ++i)
    out.push_back(Layout{l.shape.children()[i], l.stride.children()[i]});
  return out;
}

// ---- slicing ------------------------------------------------------------------------------------

// has_underscore(c): c contains `_` somewhere.
inline bool has_underscore(const IntTuple& c) {
  if (c.is_underscore()) return true;
  if (c.is_int()) return false;
  for (const auto& k : c.children())
    if (has_underscore(k)) return true;
  return false;
}

namespace detail {
inline void slice_into(const IntTuple& c, const IntTuple& t, std::vector<IntTuple>& out) {
  if (c.is_underscore()) {
    out.push_back(t);
    return;
  }
  if (c.is_int()) return;
  if (!t.is_tuple() || t.children().size() != c.children().size())
    fail("slice: coordinate " + to_string(c) + " does not match " + to_string(t) + "; give one coordinate per mode");
  for (std::size_t i = 0; i < c.children().size(); ++i) slice_into(c.children()[i], t.children()[i], out);
}

inline IntTuple slice(const IntTuple& c, const IntTuple& t) {
  if (c.is_underscore()) return t;
  std::vector<IntTuple> out;
  slice_into(c, t, out);
  return make_tuple(std::move(out));
}

// c with every `_` replaced by _0.
inline IntTuple dice_zero(const IntTuple& c) {
  if (c.is_underscore()) return S(0);
  if (c.is_int()) return c;
  std::vector<IntTuple> kids;
  for (const auto& k : c.children()) kids.push_back(dice_zero(k));
  return make_tuple(std::move(kids));
}
}  // namespace detail

// slice(c, t) of an IntTuple: the modes of t where c has `_` (an integer c keeps none).
// slice((2,_), (3,(2,5))) = ((2,5)); slice(_, (2,3)) = (2,3); slice(1, 4) = ().
inline IntTuple slice(const IntTuple& c, const IntTuple& t) { return detail::slice(c, t); }

// slice(c, L): keeps the modes where c has `_`. For A = ((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100)):
// slice((2,_), A) = ((_2,_5,_2)):((_2,_13,_100)); slice(((_,1),(0,_,1)), A) = (_3,_5):(_4,_13).
inline Layout slice(const IntTuple& c, const Layout& l) {
  return Layout{detail::slice(c, l.shape), detail::slice(c, l.stride)};
}

// The offset a slice drops: L(c with `_` -> _0). slice_offset((_2,_), A) = _8 for A above.
inline Int slice_offset(const IntTuple& c, const Layout& l) { return evaluate(l, detail::dice_zero(c)); }

// ---- flat modes ---------------------------------------------------------------------------------

namespace detail {
// One flat mode s:d of a layout.
struct Mode {
  Int s, d;
};

inline std::vector<Mode> flat_modes(const Layout& l) {
  std::vector<IntTuple> sh, st;
  leaves_into(l.shape, sh);
  leaves_into(l.stride, st);
  std::vector<Mode> out;
  for (std::size_t i = 0; i < sh.size(); ++i) out.push_back(Mode{sh[i].as_int(), st[i].as_int()});
  return out;
}

inline Layout from_modes(const std::vector<Mode>& ms) {
  if (ms.size() == 1) return Layout{ms[0].s, ms[0].d};
  std::vector<IntTuple> sh, st;
  for (const auto& m : ms) {
    sh.push_back(m.s);
    st.push_back(m.d);
  }
  return Layout{make_tuple(std::move(sh)), make_tuple(std::move(st))};
}
}  // namespace detail

// ---- CuTe's layout functions (twins of core/layout.hpp, issue 9) ---------------------------------

// crd2crd(c, src, dst) (declared in int_tuple.hpp): idx2crd(crd2idx(c, src), dst), mode by mode
// where c, src and dst are all tuples of one rank.
inline IntTuple crd2crd(const IntTuple& c, const IntTuple& src, const IntTuple& dst) {
  if (c.is_tuple() && src.is_tuple() && dst.is_tuple()) {
    if (c.children().size() != src.children().size() || c.children().size() != dst.children().size())
      fail("crd2crd(c, src, dst): a tuple coordinate " + to_string(c) + " needs src and dst shapes of its rank (got " +
           to_string(src) + ", " + to_string(dst) + ")");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < c.children().size(); ++i)
      kids.push_back(crd2crd(c.children()[i], src.children()[i], dst.children()[i]));
    return make_tuple(std::move(kids));
  }
  return idx2crd(IntTuple(crd2idx(c, src)), dst);
}

// compact_order(shape, order): compact strides laying the parts of shape at order's leaves out in
// increasing order (static entries by value, dynamic ones after all static ones in position order,
// ties in position order), each part column-major. compact_order((2,3,4),(_1,_2,_0)) = (4,8,_1).
inline IntTuple compact_order(const IntTuple& shape, const IntTuple& order) {
  std::vector<IntTuple> subs;
  std::function<void(const IntTuple&, const IntTuple&)> collect = [&](const IntTuple& s, const IntTuple& o) {
    if (!o.is_tuple()) {
      subs.push_back(s);
      return;
    }
    if (!s.is_tuple() || s.children().size() != o.children().size())
      fail("compact_order(shape, order): order " + to_string(order) + " must be weakly congruent to shape " +
           to_string(shape) + " (same rank at every tuple of order)");
    for (std::size_t i = 0; i < o.children().size(); ++i) collect(s.children()[i], o.children()[i]);
  };
  collect(shape, order);
  std::vector<IntTuple> fo;
  detail::leaves_into(order, fo);
  const std::size_t n = fo.size();
  std::int64_t mx = 0;
  for (const auto& o : fo)
    if (o.as_int().is_static && o.as_int().value > mx) mx = o.as_int().value;
  std::vector<std::int64_t> key(n);
  for (std::size_t i = 0; i < n; ++i)
    key[i] = fo[i].as_int().is_static ? fo[i].as_int().value : mx + 1 + static_cast<std::int64_t>(i);
  std::vector<IntTuple> pieces;
  for (std::size_t k = 0; k < n; ++k) {
    Int start = S(1);
    for (std::size_t j = 0; j < n; ++j)
      start = start * ((key[j] < key[k] || (key[j] == key[k] && j < k)) ? product(subs[j]) : S(1));
    pieces.push_back(compact_col_major(subs[k], start));
  }
  std::size_t next = 0;
  std::function<IntTuple(const IntTuple&)> place = [&](const IntTuple& o) -> IntTuple {
    if (!o.is_tuple()) return pieces[next++];
    std::vector<IntTuple> kids;
    for (const auto& c : o.children()) kids.push_back(place(c));
    return make_tuple(std::move(kids));
  };
  return place(order);
}

// make_layout_like(L): L's shape with compact strides in the order of L's strides (static _0
// strides kept). make_layout_like((2,3,4,5):(_0,42,_1,_0)) = (2,3,4,5):(_0,4,_1,_0).
inline Layout make_layout_like(const Layout& l) {
  detail::require_integer_strides("make_layout_like", l);
  return make_layout(l.shape, compact_order(filter_zeros(l.stride, l.shape), l.stride));
}

namespace detail {
// A sum of strides as a codomain coordinate: v@N becomes the tuple of rank N+1 with v at N.
inline IntTuple as_codomain(const IntTuple& x) {
  if (!x.is_int() || !x.as_int().is_basis()) return x;
  std::vector<IntTuple> kids;
  for (std::size_t i = 0; i < coordinate_rank(x); ++i) kids.emplace_back(coordinate_entry(x, i));
  return make_tuple(std::move(kids));
}
// Sum of a_i * b_i over congruent leaves, from _0 left to right, with offset_add.
inline IntTuple inner_product_any(const IntTuple& a, const IntTuple& b) {
  if (a.is_int() && b.is_int()) return a.as_int() * b.as_int();
  IntTuple s = S(0);
  for (std::size_t i = 0; i < a.children().size(); ++i)
    s = offset_add(s, inner_product_any(a.children()[i], b.children()[i]));
  return s;
}
inline IntTuple stride_sum(const IntTuple& d) {
  if (d.is_int()) return d;
  IntTuple s = S(0);
  for (const auto& c : d.children()) s = offset_add(s, stride_sum(c));
  return s;
}
}  // namespace detail

// coshape(L) = 1 + sum (s_i - 1) * |d_i|: an integer for integer strides, a tuple (one extent per
// codomain mode) for basis strides; coprofile(L): _0 per codomain mode (_0 for integer strides).
// coshape((_4,_8):(_8,_1)) = _32; coshape(_4:_-2) = _7; coshape((4,8):(_1@0,_1@1)) = (4,8);
// coprofile((4,8):(_1@0,_1@1)) = (_0,_0).
inline IntTuple coshape(const Layout& l) {
  const IntTuple m1 = detail::transform_leaves(l.shape, [](Int x) { return x - S(1); });
  const IntTuple d = detail::transform_leaves(l.stride, [](Int x) { return abs(x); });
  if (!congruent(m1, d).value)
    fail("coshape: shape " + to_string(l.shape) + " and stride " + to_string(l.stride) + " are not congruent");
  const IntTuple co = detail::as_codomain(detail::inner_product_any(m1, d));
  return detail::transform_leaves(co, [](Int x) { return x + S(1); });
}
inline IntTuple coprofile(const Layout& l) {
  if (!has_basis_strides(l)) return S(0);
  return detail::transform_leaves(detail::as_codomain(detail::stride_sum(l.stride)), [](Int) { return S(0); });
}

// get_hier_coord(L, i) / get_flat_coord(L, i) / get_1d_coord(L, i): the coordinate of offset i in
// a compact L (natural, one index per top-level mode, column-major 1-D). Pre: L(result) == i
// (checked). get_hier_coord((2,4):(4,1), 7) = (1,3).
inline IntTuple get_hier_coord(const Layout& l, Int i) {
  detail::require_integer_strides("get_hier_coord", l);
  const IntTuple c = idx2crd(IntTuple(i), l.shape, l.stride);
  if (crd2idx(c, l.shape, l.stride).value != i.value)
    fail(
        "get_hier_coord/get_flat_coord/get_1d_coord: the offset is not reached by the layout at the coordinate found; "
        "these need a compact layout (a bijection onto [0, size)) and an offset in its image; make the layout compact "
        "(make_layout_like) or use a coordinate (got " +
        to_string(i) + ", " + to_string(l) + ")");
  return c;
}
inline IntTuple get_flat_coord(const Layout& l, Int i) {
  const std::size_t r = l.shape.is_tuple() ? l.shape.children().size() : 1;
  if (r == 1) return crd2crd(get_hier_coord(l, i), l.shape, S(1));
  return crd2crd(get_hier_coord(l, i), l.shape, make_tuple(std::vector<IntTuple>(r, IntTuple(S(1)))));
}
inline Int get_1d_coord(const Layout& l, Int i) { return crd2idx(get_hier_coord(l, i), l.shape); }

// thread_coord(thr, i) (core: tensor/tiling.hpp): the coordinate, one 1-D index per top-level
// mode, of thread i in the thread layout thr (the c with thr(c) == i): each leaf s:d gives
// (i / d) % s (_0 for a static stride _0, 0 for a dynamic one), and a mode's leaves its column-major
// index. Always a tuple. Pre (not checked, as the core): thr a bijection of [0, size(thr)).
// thread_coord((8,8):(8,1), 10) = (1,2).
inline IntTuple thread_coord(const Layout& thr, Int i) {
  std::function<IntTuple(const IntTuple&, const IntTuple&)> leaves = [&](const IntTuple& s,
                                                                         const IntTuple& d) -> IntTuple {
    if (s.is_tuple()) {
      std::vector<IntTuple> kids;
      for (std::size_t k = 0; k < s.children().size(); ++k) kids.push_back(leaves(s.children()[k], d.children()[k]));
      return make_tuple(std::move(kids));
    }
    const Int sl = s.as_int(), dl = d.as_int();
    if (is_static_value(dl, 0)) return S(0);
    if (dl.value == 0) return D(0);
    return (i / dl) % sl;
  };
  const IntTuple shape = thr.shape.is_tuple() ? thr.shape : make_tuple({thr.shape});
  const IntTuple stride = thr.stride.is_tuple() ? thr.stride : make_tuple({thr.stride});
  std::vector<IntTuple> out;
  for (std::size_t m = 0; m < shape.children().size(); ++m) {
    const IntTuple& s = shape.children()[m];
    out.emplace_back(crd2idx(leaves(s, stride.children()[m]), s, compact_col_major(s)));
  }
  return make_tuple(std::move(out));
}

// filter_zeros(L[, profile]): the modes of static _0 stride (of profile) get size _1.
inline Layout filter_zeros(const Layout& l) { return make_layout(filter_zeros(l.stride, l.shape), l.stride); }
inline Layout filter_zeros(const Layout& l, const IntTuple& profile) {
  return make_layout(filter_zeros(profile, l.shape), l.stride);
}

// unflatten(L, profile), zip(L), zip(A, B): on shape and stride alike.
inline Layout unflatten(const Layout& l, const IntTuple& profile) {
  return make_layout(unflatten(l.shape, profile), unflatten(l.stride, profile));
}
inline Layout zip(const Layout& l) { return make_layout(zip(l.shape), zip(l.stride)); }
inline Layout zip(const Layout& a, const Layout& b) {
  return make_layout(zip(make_tuple({a.shape, b.shape})), zip(make_tuple({a.stride, b.stride})));
}

}  // namespace tessera::rt
