// tessera/runtime/int_tuple.hpp -- IntTuples of the run-time twin (twin of core/int_tuple.hpp).
//
// An IntTuple is an integer, a tuple of IntTuples, or `_` (only inside slicing coordinates):
// ((2,_3),4). rank = number of top-level modes (1 for an integer), depth = nesting depth (0 for an
// integer), size = product of leaves. This header holds their structure queries, arithmetic
// (shape_div, ceil_div, inner_product, prefix_product), comparisons and idx2crd / crd2idx.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "tessera/runtime/integer.hpp"

namespace tessera::rt {

// ---- IntTuple -----------------------------------------------------------------------------------

// An IntTuple is an integer, a tuple of IntTuples, or `_` (only inside slicing coordinates).
class IntTuple {
 public:
  IntTuple() = default;  // the empty tuple ()
  IntTuple(Int i) : kind_(Kind::integer), int_(i) {}  // NOLINT: an Int is an IntTuple
  explicit IntTuple(std::vector<IntTuple> children) : kids_(std::move(children)) {}

  static IntTuple underscore() {
    IntTuple t;
    t.kind_ = Kind::underscore;
    return t;
  }

  bool is_int() const { return kind_ == Kind::integer; }
  bool is_tuple() const { return kind_ == Kind::tuple; }
  bool is_underscore() const { return kind_ == Kind::underscore; }

  // Precondition: is_int().
  Int as_int() const {
    if (!is_int()) fail("expected an integer, got the tuple " + debug_string());
    return int_;
  }
  // Precondition: is_tuple().
  const std::vector<IntTuple>& children() const { return kids_; }
  std::vector<IntTuple>& children() { return kids_; }

  std::string debug_string() const;

 private:
  enum class Kind { integer, tuple, underscore };
  Kind kind_ = Kind::tuple;
  Int int_{};
  std::vector<IntTuple> kids_;
};

inline IntTuple make_tuple(std::vector<IntTuple> children) { return IntTuple(std::move(children)); }

// Printing: `_8`, `8`, `(a,b)`, rank-1 tuples `(_8)`, `_` for the slicing wildcard.
inline std::string to_string(const IntTuple& t) {
  if (t.is_int()) return to_string(t.as_int());
  if (t.is_underscore()) return "_";
  std::string out = "(";
  for (std::size_t i = 0; i < t.children().size(); ++i) {
    if (i) out += ",";
    out += to_string(t.children()[i]);
  }
  return out + ")";
}

inline std::string IntTuple::debug_string() const { return to_string(*this); }

namespace detail {

// Mode i of t; an integer is its own mode 0.
inline const IntTuple& mode(const IntTuple& t, std::size_t i) {
  if (t.is_tuple()) return t.children().at(i);
  return t;
}

inline std::size_t rank_of(const IntTuple& t) { return t.is_tuple() ? t.children().size() : 1; }

inline void check_index(const char* fn, const IntTuple& t, std::int64_t i) {
  if (i < 0 || static_cast<std::size_t>(i) >= rank_of(t))
    fail(std::string(fn) + ": mode index " + std::to_string(i) + " is out of range for " +
         to_string(t) + " of rank " + std::to_string(rank_of(t)) + "; use an index in [0, rank)");
}

// Padding to rank N allocates N modes: keep N reasonable.
inline void check_pad_rank(const char* fn, std::int64_t n) {
  if (n > 65536)
    fail(std::string(fn) + ": rank " + std::to_string(n) + " is larger than 65536; pad to a smaller rank");
}

inline void leaves_into(const IntTuple& t, std::vector<IntTuple>& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  for (const auto& c : t.children()) leaves_into(c, out);
}

inline bool all_static(const IntTuple& t) {
  if (t.is_int()) return t.as_int().is_static;
  if (t.is_underscore()) return true;
  return std::all_of(t.children().begin(), t.children().end(), all_static);
}

// Apply f to every integer leaf, keeping the nesting.
inline IntTuple transform_leaves(const IntTuple& t, const std::function<Int(Int)>& f) {
  if (t.is_int()) return f(t.as_int());
  if (t.is_underscore()) return t;
  std::vector<IntTuple> kids;
  for (const auto& c : t.children()) kids.push_back(transform_leaves(c, f));
  return make_tuple(std::move(kids));
}

}  // namespace detail

// ---- static-aware booleans -----------------------------------------------------------------------

// and_(a, b): static when decidable from the static parts (a static false decides alone), as the
// core's and_. and_(_false, true) = _false; and_(_true, false) = false.
inline Bool and_(Bool a, Bool b) {
  if ((a.is_static && !a.value) || (b.is_static && !b.value)) return Bool{false, true};
  return Bool{a.value && b.value, a.is_static && b.is_static};
}

// or_(a, b): static when decidable (a static true decides alone). or_(_true, false) = _true.
inline Bool or_(Bool a, Bool b) {
  if ((a.is_static && a.value) || (b.is_static && b.value)) return Bool{true, true};
  return Bool{a.value || b.value, a.is_static && b.is_static};
}

// rank(t): number of top-level modes, static. rank(((2,3),4)) = _2; rank(8) = _1.
inline Int rank(const IntTuple& t) { return S(static_cast<std::int64_t>(detail::rank_of(t))); }

// depth(t): nesting depth, static. depth(8) = _0; depth(((2,3),4)) = _2.
inline Int depth(const IntTuple& t) {
  if (!t.is_tuple()) return S(0);
  std::int64_t d = 0;
  for (const auto& c : t.children()) d = std::max(d, depth(c).value);
  return S(d + 1);
}

// product(t): product of all leaves, _1 for (); static iff every leaf is static (or a leaf is _0).
// product((2,(_3,4))) = 24.
inline Int product(const IntTuple& t) {
  if (t.is_int()) return t.as_int();
  if (t.is_underscore()) fail("product: `_` has no size; slice it away first");
  Int p = S(1);
  for (const auto& c : t.children()) p = p * product(c);
  return p;
}

// size(t) = product(t).
inline Int size(const IntTuple& t) { return product(t); }

// product_each(t): the product of each top-level mode. product_each(((2,3),4)) = (6,4).
inline IntTuple product_each(const IntTuple& t) {
  if (!t.is_tuple()) return product(t);
  std::vector<IntTuple> kids;
  for (const auto& c : t.children()) kids.push_back(product(c));
  return make_tuple(std::move(kids));
}

// inner_product(a, b): sum of a_i * b_i over congruent leaves. inner_product((2,3),(4,5)) = 23.
inline Int inner_product(const IntTuple& a, const IntTuple& b) {
  if (a.is_int() && b.is_int()) return a.as_int() * b.as_int();
  if (!a.is_tuple() || !b.is_tuple() || a.children().size() != b.children().size())
    fail("inner_product: " + to_string(a) + " and " + to_string(b) +
         " are not congruent; pass two IntTuples with the same nesting");
  Int s = S(0);
  for (std::size_t i = 0; i < a.children().size(); ++i) s = s + inner_product(a.children()[i], b.children()[i]);
  return s;
}

// divides(b, a): b != 0 and a is a multiple of b.
inline bool divides(Int b, Int a) {
  if (b.value == 0) return false;
  if (b.value == -1 || b.value == 1) return true;
  return a.value % b.value == 0;
}

// shape_div(a, b) on integers: Pre: b != 0. a / b if b divides a, else the sign of a / b (1 or -1)
// if a divides b, else an error. Post: static iff both static (as the core: no absorbing rule, so
// shape_div(_0, 4) = 0).
// shape_div(_8,_2) = _4, shape_div(_2,_8) = _1, shape_div(-2,8) = -1.
inline Int shape_div(Int a, Int b) {
  if (b.value == 0)
    fail("shape_div: division by zero in shape_div(" + to_string(a) + ", " + to_string(b) + "); divide by a non-zero extent");
  if (divides(b, a)) return Int{(a / b).value, a.is_static && b.is_static};
  if (divides(a, b)) return Int{(a.value < 0) != (b.value < 0) ? -1 : 1, a.is_static && b.is_static};
  fail("shape_div: " + to_string(a) + " and " + to_string(b) +
       " do not divide one another; use extents where one divides the other");
}

namespace detail {
// The IntTuple structure shared by shape_div and ceil_div: tuple/tuple leafwise, tuple/int folds
// left to right (mode i takes op(a_i, rest), then rest = op(rest, product(a_i))), int/tuple
// divides by the product.
template <class IntOp>
IntTuple divide_like(const char* name, const IntTuple& a, const IntTuple& b, IntOp op) {
  if (a.is_tuple() && b.is_tuple()) {
    if (a.children().size() != b.children().size())
      fail(std::string(name) + ": " + to_string(a) + " and " + to_string(b) + " have different ranks; pass equal ranks");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < a.children().size(); ++i)
      kids.push_back(divide_like(name, a.children()[i], b.children()[i], op));
    return make_tuple(std::move(kids));
  }
  if (a.is_tuple()) {
    Int rest = b.as_int();
    std::vector<IntTuple> kids;
    for (const auto& ai : a.children()) {
      kids.push_back(divide_like(name, ai, IntTuple(rest), op));
      rest = op(rest, product(ai));
    }
    return make_tuple(std::move(kids));
  }
  return op(a.as_int(), product(b));
}
}  // namespace detail

// shape_div on IntTuples: shape_div((4,6), 8) = (1,3).
inline IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  return detail::divide_like("shape_div", a, b, [](Int x, Int y) { return shape_div(x, y); });
}

// ceil_div(a, b) = (a + b - 1) / b on integers; static iff both static. Pre: b > 0.
// ceil_div(_1000,_128) = _8.
inline Int ceil_div(Int a, Int b) {
  if (b.value <= 0)
    fail("ceil_div: the divisor must be positive (got " + to_string(a) + ", " + to_string(b) +
         "); divide by a positive extent");
  return (a + b - S(1)) / b;
}

// ceil_div on IntTuples, shaped like shape_div: ceil_div((4,6), 8) = (1,3).
inline IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  return detail::divide_like("ceil_div", a, b, [](Int x, Int y) { return ceil_div(x, y); });
}

// congruent(a, b): same nesting profile; always static. congruent((1,(2,3)),(4,(5,6))) = _true.
inline Bool congruent(const IntTuple& a, const IntTuple& b) {
  if (!a.is_tuple() || !b.is_tuple()) return Bool{a.is_tuple() == b.is_tuple(), true};
  if (a.children().size() != b.children().size()) return Bool{false, true};
  for (std::size_t i = 0; i < a.children().size(); ++i)
    if (!congruent(a.children()[i], b.children()[i]).value) return Bool{false, true};
  return Bool{true, true};
}

// weakly_congruent(a, b): an integer in a matches anything in b; always static.
// weakly_congruent((1,2),((3,4),5)) = _true.
inline Bool weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (!a.is_tuple()) return Bool{true, true};
  if (!b.is_tuple() || a.children().size() != b.children().size()) return Bool{false, true};
  for (std::size_t i = 0; i < a.children().size(); ++i)
    if (!weakly_congruent(a.children()[i], b.children()[i]).value) return Bool{false, true};
  return Bool{true, true};
}

// compatible(a, b): size(a) == size(b) and every coordinate of a is one of b. Static iff
// decidable from the static parts (a static false mode decides the whole).
// compatible(24, (4,6)) = true; compatible(((2,3),4), ((2,2),(3,2))) = _false.
inline Bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_int()) return a.as_int() == product(b);
  if (!b.is_tuple() || a.children().size() != b.children().size()) return Bool{false, true};
  Bool r{true, true};
  for (std::size_t i = 0; i < a.children().size(); ++i) r = and_(r, compatible(a.children()[i], b.children()[i]));
  return r;
}

// equal(a, b): same structure and values; static when decidable (a static difference, or a
// difference in structure, decides alone), as the core's equal.
// equal((_2,3),(_2,3)) = true; equal((_1,3),(_2,3)) = _false; equal((1,2),(1,2,3)) = _false.
inline Bool equal(const IntTuple& a, const IntTuple& b) {
  if (a.is_underscore() || b.is_underscore()) return Bool{a.is_underscore() && b.is_underscore(), true};
  if (a.is_int() && b.is_int()) return a.as_int() == b.as_int();
  if (!a.is_tuple() || !b.is_tuple() || a.children().size() != b.children().size()) return Bool{false, true};
  Bool r{true, true};
  for (std::size_t i = 0; i < a.children().size(); ++i) r = and_(r, equal(a.children()[i], b.children()[i]));
  return r;
}

// prefix_product(t, init): exclusive products in colexicographic order, nested like t.
// prefix_product((2,(3,4))) = (_1,(2,6)).
inline IntTuple prefix_product(const IntTuple& t, Int init = S(1)) {
  if (!t.is_tuple()) return init;
  std::vector<IntTuple> kids;
  Int cur = init;
  for (const auto& c : t.children()) {
    kids.push_back(prefix_product(c, cur));
    cur = cur * product(c);
  }
  return make_tuple(std::move(kids));
}

// crd2idx(crd, shape, stride): an integer coordinate on a tuple shape is decomposed
// colexicographically (last mode unreduced); a tuple coordinate sums its modes.
// crd2idx(16, (3,(2,3)), (3,(12,1))) = 17.
namespace detail {
inline Int crd2idx_impl(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride) {
  if (crd.is_underscore()) fail("crd2idx: `_` in a coordinate selects a slice, not an index; use slicing");
  if (crd.is_tuple()) {
    if (!shape.is_tuple() || crd.children().size() != shape.children().size())
      fail("crd2idx: coordinate " + to_string(crd) + " does not match shape " + to_string(shape) +
           "; pass one coordinate per mode (or a single index)");
    Int s = S(0);
    for (std::size_t i = 0; i < crd.children().size(); ++i)
      s = s + crd2idx_impl(crd.children()[i], shape.children()[i], stride.children()[i]);
    return s;
  }
  Int c = crd.as_int();
  if (shape.is_int()) return c * stride.as_int();
  const auto& ks = shape.children();
  if (ks.empty()) return S(0);
  Int s = S(0);
  for (std::size_t i = 0; i + 1 < ks.size(); ++i) {
    Int n = product(ks[i]);
    s = s + crd2idx_impl(c % n, ks[i], stride.children()[i]);
    c = c / n;
  }
  return s + crd2idx_impl(c, ks.back(), stride.children().back());
}
}  // namespace detail

inline Int crd2idx(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride) {
  if (!congruent(shape, stride).value)
    fail("crd2idx: shape " + to_string(shape) + " and stride " + to_string(stride) +
         " are not congruent; pass a stride with the nesting of the shape");
  return detail::crd2idx_impl(crd, shape, stride);
}

// idx2crd(idx, shape): colexicographic; every mode but the last takes idx % size(mode), the
// last takes the rest unreduced. A tuple idx maps mode by mode. idx2crd(16,(3,(2,3))) = (1,(1,2)).
inline IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape) {
  if (idx.is_tuple()) {
    if (!shape.is_tuple() || idx.children().size() != shape.children().size())
      fail("idx2crd: index " + to_string(idx) + " does not match shape " + to_string(shape) +
           "; pass an integer or one index per mode");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < idx.children().size(); ++i) kids.push_back(idx2crd(idx.children()[i], shape.children()[i]));
    return make_tuple(std::move(kids));
  }
  Int c = idx.as_int();
  if (!shape.is_tuple()) return c;
  std::vector<IntTuple> kids;
  const auto& ks = shape.children();
  for (std::size_t i = 0; i < ks.size(); ++i) {
    if (i + 1 == ks.size()) {
      kids.push_back(idx2crd(c, ks[i]));
    } else {
      Int n = product(ks[i]);
      kids.push_back(idx2crd(c % n, ks[i]));
      c = c / n;
    }
  }
  return make_tuple(std::move(kids));
}

// elem_less(a, b): every leaf of a is < its counterpart in b (predication: elem_less(coord,
// shape)). A tuple a needs a tuple b with at least as many modes (b's extra modes are ignored),
// an integer a an integer b. Static when decidable (a static false leaf decides alone), as the
// core's elem_less. elem_less((1,2),(3,4)) = true; elem_less((_4,2),(_3,4,5)) = _false.
inline Bool elem_less(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (!b.is_tuple() || a.children().size() > b.children().size())
      fail("elem_less: the coordinate " + to_string(a) + " has more modes than the bound " + to_string(b) +
           "; compare a coordinate with a bound of at least its rank");
    Bool r{true, true};
    for (std::size_t i = 0; i < a.children().size(); ++i) r = and_(r, elem_less(a.children()[i], b.children()[i]));
    return r;
  }
  if (!a.is_int() || !b.is_int())
    fail("elem_less: " + to_string(a) + " and " + to_string(b) +
         " are not an integer and an integer; compare an integer with an integer bound");
  return a.as_int() < b.as_int();
}

namespace detail {
// Leaves [i, n) of two flat leaf lists compared lexicographically: a_i < b_i, or a_i == b_i and
// the rest is less; static when decidable, as the core's lex_less.
inline Bool lex_less_from(const std::vector<IntTuple>& a, const std::vector<IntTuple>& b, std::size_t i) {
  if (i == a.size()) return Bool{false, true};
  const Int x = a[i].as_int(), y = b[i].as_int();
  return or_(x < y, and_(x == y, lex_less_from(a, b, i + 1)));
}

inline Bool lex_less_leaves(const char* fn, const IntTuple& a, const IntTuple& b, bool from_last) {
  std::vector<IntTuple> la, lb;
  leaves_into(a, la);
  leaves_into(b, lb);
  if (la.size() != lb.size())
    fail(std::string(fn) + ": " + to_string(a) + " and " + to_string(b) +
         " have different numbers of leaves; compare IntTuples with the same number of leaves");
  if (from_last) {
    std::reverse(la.begin(), la.end());
    std::reverse(lb.begin(), lb.end());
  }
  return lex_less_from(la, lb, 0);
}
}  // namespace detail

// lex_less(a, b): the flattened leaves compared from the first; Pre: as many leaves in a as in b.
// Static when decidable: lex_less((1,2),(2,1)) = true; lex_less((_1,5),(_2,0)) = _true.
inline Bool lex_less(const IntTuple& a, const IntTuple& b) { return detail::lex_less_leaves("lex_less", a, b, false); }

// colex_less(a, b): the flattened leaves compared from the last. colex_less((2,1),(1,2)) = true.
inline Bool colex_less(const IntTuple& a, const IntTuple& b) { return detail::lex_less_leaves("colex_less", a, b, true); }

// get<i>(t): mode i; get<0> of an integer is the integer. get<1>((2,(3,4))) = (3,4).
inline IntTuple get(const IntTuple& t, std::int64_t i) {
  detail::check_index("get", t, i);
  return detail::mode(t, static_cast<std::size_t>(i));
}

// select<I...>(t): the listed modes as a tuple. select<1,3>((2,3,5,7)) = (3,7).
inline IntTuple select(const IntTuple& t, const std::vector<std::int64_t>& idx) {
  std::vector<IntTuple> kids;
  for (auto i : idx) kids.push_back(get(t, i));
  return make_tuple(std::move(kids));
}

// take<B,E>(t): modes [B,E) as a tuple. take<1,3>((2,3,5,7)) = (3,5).
inline IntTuple take(const IntTuple& t, std::int64_t b, std::int64_t e) {
  if (b < 0 || e < b || static_cast<std::size_t>(e) > detail::rank_of(t))
    fail("take: range [" + std::to_string(b) + "," + std::to_string(e) + ") is not inside the modes of " +
         to_string(t) + "; use 0 <= B <= E <= rank");
  std::vector<IntTuple> kids;
  for (auto i = b; i < e; ++i) kids.push_back(detail::mode(t, static_cast<std::size_t>(i)));
  return make_tuple(std::move(kids));
}

// group<B,E>(t): modes [B,E) become one tuple mode. group<0,2>((2,3,5,7)) = ((2,3),5,7).
inline IntTuple group(const IntTuple& t, std::int64_t b, std::int64_t e) {
  IntTuple mid = take(t, b, e);
  std::vector<IntTuple> kids;
  for (std::int64_t i = 0; i < b; ++i) kids.push_back(detail::mode(t, static_cast<std::size_t>(i)));
  kids.push_back(mid);
  for (auto i = static_cast<std::size_t>(e); i < detail::rank_of(t); ++i) kids.push_back(detail::mode(t, i));
  return make_tuple(std::move(kids));
}

// flatten(t): the tuple of leaves; an integer stays an integer. flatten(((2,3),4)) = (2,3,4).
inline IntTuple flatten(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> leaves;
  detail::leaves_into(t, leaves);
  return make_tuple(std::move(leaves));
}

// append(t, x): t with x as a new last mode (an integer t becomes (t,x)). append((2,3),4) = (2,3,4).
inline IntTuple append(const IntTuple& t, const IntTuple& x) {
  std::vector<IntTuple> kids = t.is_tuple() ? t.children() : std::vector<IntTuple>{t};
  kids.push_back(x);
  return make_tuple(std::move(kids));
}

// append<N>(t, x): t as a tuple (an integer t is wrapped: (t)), padded with x up to rank N.
// append<3>(2, _1) = (2,_1,_1); append<1>(2, _1) = (2).
inline IntTuple append(const IntTuple& t, const IntTuple& x, std::int64_t n) {
  detail::check_pad_rank("append", n);
  std::vector<IntTuple> kids = t.is_tuple() ? t.children() : std::vector<IntTuple>{t};
  while (static_cast<std::int64_t>(kids.size()) < n) kids.push_back(x);
  return make_tuple(std::move(kids));
}

// prepend(t, x): x as a new first mode. prepend((2,3),4) = (4,2,3).
inline IntTuple prepend(const IntTuple& t, const IntTuple& x) {
  std::vector<IntTuple> kids{x};
  if (t.is_tuple()) kids.insert(kids.end(), t.children().begin(), t.children().end());
  else kids.push_back(t);
  return make_tuple(std::move(kids));
}

// prepend<N>(t, x): t as a tuple padded in front with x up to rank N, like append<N> (the core
// has no prepend<N>; this is the twin's mirror image of append<N>). prepend<3>(2, _1) = (_1,_1,2).
inline IntTuple prepend(const IntTuple& t, const IntTuple& x, std::int64_t n) {
  detail::check_pad_rank("prepend", n);
  const std::vector<IntTuple> old = t.is_tuple() ? t.children() : std::vector<IntTuple>{t};
  // The padding first, then t's modes: linear in n (inserting at the front one by one was quadratic).
  const std::size_t pad = n > static_cast<std::int64_t>(old.size()) ? static_cast<std::size_t>(n) - old.size() : 0;
  std::vector<IntTuple> kids(pad, x);
  kids.insert(kids.end(), old.begin(), old.end());
  return make_tuple(std::move(kids));
}

// Structural equality of values (static-ness ignored): (2,_3) equals (_2,3).
inline bool same_values(const IntTuple& a, const IntTuple& b) {
  if (a.is_int() && b.is_int()) return a.as_int().value == b.as_int().value;
  if (a.is_underscore() || b.is_underscore()) return a.is_underscore() && b.is_underscore();
  if (!a.is_tuple() || !b.is_tuple() || a.children().size() != b.children().size()) return false;
  for (std::size_t i = 0; i < a.children().size(); ++i)
    if (!same_values(a.children()[i], b.children()[i])) return false;
  return true;
}

// Number of leaves (integers and `_`) of t.
inline std::size_t leaf_count(const IntTuple& t) {
  if (!t.is_tuple()) return 1;
  std::size_t n = 0;
  for (const auto& c : t.children()) n += leaf_count(c);
  return n;
}

}  // namespace tessera::rt
