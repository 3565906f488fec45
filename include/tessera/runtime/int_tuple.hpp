// tessera/runtime/int_tuple.hpp -- IntTuples of the run-time twin (twin of core/int_tuple.hpp).
//
// An IntTuple is an integer, a tuple of IntTuples, or `_` (only inside slicing coordinates):
// ((2,_3),4). rank = number of top-level modes (1 for an integer), depth = nesting depth (0 for an
// integer), size = product of leaves. This header holds their structure queries, arithmetic
// (shape_div, ceil_div, inner_product, prefix_product), comparisons and idx2crd / crd2idx.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/int_tuple.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "tessera/runtime/integer.hpp"

namespace tessera::rt {

// ---- IntTuple -----------------------------------------------------------------------------------

// An IntTuple is an integer, a tuple of IntTuples, or `_` (only inside slicing coordinates). A
// leaf may be a basis element (`_1@0`, an Int with a basis mode): only in the strides of a
// coordinate layout and in the values built from them (make_basis_like).
class IntTuple {
 public:
  IntTuple() = default;                               // the empty tuple ()
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
    fail(std::string(fn) + ": mode index " + std::to_string(i) + " is out of range for " + to_string(t) + " of rank " +
         std::to_string(rank_of(t)) + "; use an index in [0, rank)");
}

// Padding to rank N allocates N modes: keep N reasonable.
inline void check_pad_rank(const char* fn, std::int64_t n) {
  if (n > 65536) fail(std::string(fn) + ": rank " + std::to_string(n) + " is larger than 65536; pad to a smaller rank");
}

inline void leaves_into(const IntTuple& t, std::vector<IntTuple>& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  for (const auto& c : t.children()) leaves_into(c, out);
}

// t holds a basis element somewhere (a stride of a coordinate layout).
inline bool has_basis(const IntTuple& t) {
  if (t.is_int()) return t.as_int().is_basis();
  if (t.is_underscore()) return false;
  return std::any_of(t.children().begin(), t.children().end(), [](const IntTuple& c) { return has_basis(c); });
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
    fail("shape_div: division by zero in shape_div(" + to_string(a) + ", " + to_string(b) +
         "); divide by a non-zero extent");
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
      fail(std::string(name) + ": " + to_string(a) + " and " + to_string(b) +
           " have different ranks; pass equal ranks");
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
// The walk of crd2idx, given how the modes' offsets add: crd2idx adds integers, crd2off
// (layout.hpp) offsets that may be coordinates (basis strides). Acc: Int or IntTuple.
template <class Acc, class Add>
Acc crd2idx_walk(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride, Add const& add) {
  if (crd.is_underscore()) fail("crd2idx: `_` in a coordinate selects a slice, not an index; use slicing");
  if (crd.is_tuple()) {
    if (!shape.is_tuple() || crd.children().size() != shape.children().size())
      fail("crd2idx: coordinate " + to_string(crd) + " does not match shape " + to_string(shape) +
           "; pass one coordinate per mode (or a single index)");
    Acc s = S(0);
    for (std::size_t i = 0; i < crd.children().size(); ++i)
      s = add(s, crd2idx_walk<Acc>(crd.children()[i], shape.children()[i], stride.children()[i], add));
    return s;
  }
  Int c = crd.as_int();
  if (c.is_basis()) fail("crd2idx: the coordinate " + to_string(c) + " is a basis element; coordinates are integers");
  if (shape.is_int()) return c * stride.as_int();
  const auto& ks = shape.children();
  if (ks.empty()) return S(0);
  Acc s = S(0);
  for (std::size_t i = 0; i + 1 < ks.size(); ++i) {
    Int n = product(ks[i]);
    s = add(s, crd2idx_walk<Acc>(c % n, ks[i], stride.children()[i], add));
    c = c / n;
  }
  return add(s, crd2idx_walk<Acc>(c, ks.back(), stride.children().back(), add));
}
inline Int crd2idx_impl(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride) {
  return crd2idx_walk<Int>(crd, shape, stride, [](const Int& a, const Int& b) { return a + b; });
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
    for (std::size_t i = 0; i < idx.children().size(); ++i)
      kids.push_back(idx2crd(idx.children()[i], shape.children()[i]));
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
inline Bool colex_less(const IntTuple& a, const IntTuple& b) {
  return detail::lex_less_leaves("colex_less", a, b, true);
}

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
  if (a.is_int() && b.is_int()) return a.as_int().value == b.as_int().value && a.as_int().basis == b.as_int().basis;
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

// ---- CuTe's tuple and integer functions (twins of core/int_tuple.hpp, issue 9) -------------------

// not_(b): the negation, static iff b is. not_(_true) = _false.
inline Bool not_(Bool b) { return Bool{!b.value, b.is_static}; }

namespace detail {
inline void require_tuple_pair(const char* fn, const IntTuple& a, const IntTuple& b, const char* what) {
  if (!b.is_tuple() || a.children().size() != b.children().size())
    fail(std::string(fn) + ": " + to_string(a) + " and " + to_string(b) + " " + what);
}
}  // namespace detail

// round_up(a, b): a rounded up to a multiple of b; tuples mode by mode (b's missing modes count as
// _1). Pre: b > 0, rank(a) >= rank(b). round_up(13, _4) = 16; round_up((5,6), (4)) = (8,6).
inline IntTuple round_up(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple()) {
    if (b.children().size() > a.children().size())
      fail("round_up(a, b): b = " + to_string(b) + " has more modes than a = " + to_string(a) +
           "; give b at most rank(a) modes (missing ones count as _1)");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < a.children().size(); ++i)
      kids.push_back(round_up(a.children()[i], i < b.children().size() ? b.children()[i] : IntTuple(S(1))));
    return make_tuple(std::move(kids));
  }
  if (!a.is_int() || !b.is_int())
    fail("round_up(a, b): " + to_string(a) + " and " + to_string(b) +
         " pair a tuple with an integer; round a tuple by a tuple of per-mode multiples");
  const Int x = a.as_int(), y = b.as_int();
  if (y.value <= 0)
    fail("round_up(a, b): the multiple b must be positive (got " + to_string(x) + ", " + to_string(y) + ")");
  return ceil_div(x, y) * y;
}

// elem_scale(a, b): each leaf of a times the size of its counterpart in b (b weakly congruent).
// elem_scale((2,3), (4,(2,3))) = (8,18).
inline IntTuple elem_scale(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    detail::require_tuple_pair("elem_scale(a, b)", a, b, "differ in rank; b must be weakly congruent to a");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < a.children().size(); ++i) kids.push_back(elem_scale(a.children()[i], b.children()[i]));
    return make_tuple(std::move(kids));
  }
  return a.as_int() * product(b);
}

// filter_zeros(a, b): b with the parts facing a static _0 of a made _1 (all leaves of a facing
// sub-tuple). filter_zeros((_0,2),(4,5)) = (_1,5).
inline IntTuple filter_zeros(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    detail::require_tuple_pair("filter_zeros(a, b)", a, b, "differ in rank; a must be weakly congruent to b");
    std::vector<IntTuple> kids;
    for (std::size_t i = 0; i < a.children().size(); ++i)
      kids.push_back(filter_zeros(a.children()[i], b.children()[i]));
    return make_tuple(std::move(kids));
  }
  if (is_static_value(a.as_int(), 0)) return detail::transform_leaves(b, [](Int) { return S(1); });
  return b;
}

// gcd(a, b) / lcm(a, b) of integers (>= 0; static iff both static); gcd of IntTuples: of every leaf.
// gcd(_12,_18) = _6; gcd(_6,(_4,10)) = 2; lcm(_4,_6) = _12.
inline Int gcd(Int a, Int b) {
  std::int64_t x = a.value < 0 ? -a.value : a.value, y = b.value < 0 ? -b.value : b.value;
  while (y != 0) {
    const std::int64_t r = x % y;
    x = y;
    y = r;
  }
  return Int{x, a.is_static && b.is_static};
}
inline Int gcd(const IntTuple& t) {
  if (t.is_int()) return t.as_int();
  if (t.children().empty()) fail("gcd: the empty tuple has no gcd");
  Int g = gcd(t.children()[0]);
  for (std::size_t i = 1; i < t.children().size(); ++i) g = gcd(g, gcd(t.children()[i]));
  return g;
}
inline Int lcm(Int a, Int b) {
  const bool st = a.is_static && b.is_static;
  if (a.value == 0 || b.value == 0) return Int{0, st};
  const Int g = gcd(a, b);
  return Int{(abs(D(a.value)) / D(g.value) * abs(D(b.value))).value, st};
}

// bit_width(x): bits needed for x >= 0; log_2(x) = bit_width(x) - 1 for x > 0. Static iff x is.
// bit_width(_8) = _4; log_2(9) = 3.
inline Int bit_width(Int x) {
  if (x.value < 0)
    fail("bit_width(x): x must be >= 0 (bit_width counts the bits of a non-negative value) (got " + to_string(x) + ")");
  std::int64_t n = 0;
  for (std::int64_t v = x.value; v != 0; v >>= 1) ++n;
  return Int{n, x.is_static};
}
inline Int log_2(Int x) {
  if (x.value <= 0)
    fail("log_2(x): x must be positive; log_2 is the floor of log2 x, undefined for x <= 0 (got " + to_string(x) + ")");
  return Int{bit_width(x).value - 1, x.is_static};
}

// idx2crd(i, shape, stride): the coordinate of offset i in the compact layout shape:stride, each
// mode (i / stride) % shape, _0 for a static size-1 mode; an integer stride on a tuple shape is
// compact col-major from it. Pre: no stride 0 on a mode of size > 1. idx2crd(7,(2,4),(4,1)) = (1,3).
inline IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride) {
  if (idx.is_tuple()) {
    if (!shape.is_tuple() || !stride.is_tuple() || idx.children().size() != shape.children().size() ||
        idx.children().size() != stride.children().size())
      fail("idx2crd(i, shape, stride): a tuple i = " + to_string(idx) +
           " needs a shape and a stride of its rank (got " + to_string(shape) + ", " + to_string(stride) + ")");
    std::vector<IntTuple> kids;
    for (std::size_t k = 0; k < idx.children().size(); ++k)
      kids.push_back(idx2crd(idx.children()[k], shape.children()[k], stride.children()[k]));
    return make_tuple(std::move(kids));
  }
  if (shape.is_tuple()) {
    if (!stride.is_tuple()) return idx2crd(idx, shape, prefix_product(shape, stride.as_int()));
    if (shape.children().size() != stride.children().size())
      fail("idx2crd(i, shape, stride): the shape " + to_string(shape) + " and the stride " + to_string(stride) +
           " must have the same rank");
    std::vector<IntTuple> kids;
    for (std::size_t k = 0; k < shape.children().size(); ++k)
      kids.push_back(idx2crd(idx, shape.children()[k], stride.children()[k]));
    return make_tuple(std::move(kids));
  }
  if (stride.is_tuple())
    fail("idx2crd(i, shape, stride): an integer shape needs an integer stride (got " + to_string(stride) + ")");
  const Int s = shape.as_int(), d = stride.as_int();
  if (is_static_value(s, 1)) return S(0);
  if (d.value == 0)
    fail(
        "idx2crd(i, shape, stride): a mode of size > 1 has stride 0, so the layout is not compact and no coordinate "
        "is found; filter_zeros the layout first (got " +
        to_string(s) + ", " + to_string(d) + ")");
  return (idx.as_int() / d) % s;
}

// crd2crd(c, src, dst): idx2crd(crd2idx(c, src), dst), mode by mode where all three are tuples.
// crd2crd((1,2),(2,3),6) = 5; crd2crd(5,6,(2,3)) = (1,2).
inline IntTuple crd2crd(const IntTuple& c, const IntTuple& src,
                        const IntTuple& dst);  // layout.hpp (needs crd2idx(c, shape))

namespace detail {
template <class Cmp>
Bool elem_all(const char* fn, const IntTuple& a, const IntTuple& b, Cmp cmp) {
  if (a.is_tuple()) {
    if (!b.is_tuple() || a.children().size() > b.children().size())
      fail(std::string(fn) + ": the coordinate " + to_string(a) + " has more modes than the bound " + to_string(b) +
           "; compare a coordinate with a bound of at least its rank");
    Bool r{true, true};
    for (std::size_t i = 0; i < a.children().size(); ++i)
      r = and_(r, elem_all(fn, a.children()[i], b.children()[i], cmp));
    return r;
  }
  if (!a.is_int() || !b.is_int())
    fail(std::string(fn) + ": " + to_string(a) + " and " + to_string(b) +
         " are not an integer and an integer; make them congruent");
  const Int x = a.as_int(), y = b.as_int();
  return Bool{cmp(x.value, y.value), x.is_static && y.is_static};
}
}  // namespace detail

// elem_leq / elem_gtr / elem_geq: every leaf of a is <= / > / >= its counterpart in b (elem_less's
// structure). elem_geq((_4,_2),(_3,_2)) = _true.
inline Bool elem_leq(const IntTuple& a, const IntTuple& b) {
  return detail::elem_all("elem_leq", a, b, [](std::int64_t x, std::int64_t y) { return x <= y; });
}
inline Bool elem_gtr(const IntTuple& a, const IntTuple& b) {
  return detail::elem_all("elem_gtr", a, b, [](std::int64_t x, std::int64_t y) { return x > y; });
}
inline Bool elem_geq(const IntTuple& a, const IntTuple& b) {
  return detail::elem_all("elem_geq", a, b, [](std::int64_t x, std::int64_t y) { return x >= y; });
}
// lex_leq(a,b) = !lex_less(b,a), lex_gtr(a,b) = lex_less(b,a), lex_geq(a,b) = !lex_less(a,b); colex_ alike.
inline Bool lex_leq(const IntTuple& a, const IntTuple& b) { return not_(lex_less(b, a)); }
inline Bool lex_gtr(const IntTuple& a, const IntTuple& b) { return lex_less(b, a); }
inline Bool lex_geq(const IntTuple& a, const IntTuple& b) { return not_(lex_less(a, b)); }
inline Bool colex_leq(const IntTuple& a, const IntTuple& b) { return not_(colex_less(b, a)); }
inline Bool colex_gtr(const IntTuple& a, const IntTuple& b) { return colex_less(b, a); }
inline Bool colex_geq(const IntTuple& a, const IntTuple& b) { return not_(colex_less(a, b)); }

// unflatten(f, profile): the flat f regrouped like profile. unflatten((2,3,4),(1,(1,1))) = (2,(3,4)).
inline IntTuple unflatten(const IntTuple& f, const IntTuple& profile) {
  const std::vector<IntTuple> flat = f.is_tuple() ? f.children() : std::vector<IntTuple>{f};
  for (const auto& x : flat)
    if (x.is_tuple())
      fail("unflatten(f, profile): f = " + to_string(f) + " must be flat (no nested tuples); flatten it first");
  if (leaf_count(profile) != flat.size())
    fail("unflatten(f, profile): f = " + to_string(f) + " must have exactly as many elements as profile " +
         to_string(profile) + " has leaves");
  std::size_t next = 0;
  std::function<IntTuple(const IntTuple&)> go = [&](const IntTuple& p) -> IntTuple {
    if (!p.is_tuple()) return flat[next++];
    std::vector<IntTuple> kids;
    for (const auto& c : p.children()) kids.push_back(go(c));
    return make_tuple(std::move(kids));
  };
  return go(profile);
}

// zip(t): a tuple of equal-rank tuples transposed; a tuple of non-tuples wrapped; an integer kept.
// zip(((2,3),(4,5))) = ((2,4),(3,5)); zip((2,3)) = ((2,3)).
inline IntTuple zip(const IntTuple& t) {
  if (!t.is_tuple() || t.children().empty()) return t;
  const auto& ms = t.children();
  if (!ms[0].is_tuple()) return make_tuple({t});
  const std::size_t r0 = ms[0].children().size();
  for (const auto& m : ms)
    if (!m.is_tuple() || m.children().size() != r0)
      fail("zip: every mode of " + to_string(t) +
           " must be a tuple of the same rank as the first (pad them with append<N>)");
  std::vector<IntTuple> out;
  for (std::size_t j = 0; j < r0; ++j) {
    std::vector<IntTuple> col;
    for (const auto& m : ms) col.push_back(m.children()[j]);
    out.push_back(make_tuple(std::move(col)));
  }
  return make_tuple(std::move(out));
}

// front(t) / back(t): the first / last leaf; replace_front / replace_back: the first / last mode
// replaced (an integer t: x). front(((2,3),4)) = 2; replace_back((2,(3,4)),_8) = (2,_8).
inline IntTuple front(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  if (t.children().empty()) fail("front: the empty tuple has no first element");
  return front(t.children().front());
}
inline IntTuple back(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  if (t.children().empty()) fail("back: the empty tuple has no last element");
  return back(t.children().back());
}
inline IntTuple replace_front(const IntTuple& t, const IntTuple& x) {
  if (!t.is_tuple()) return x;
  if (t.children().empty()) fail("replace_front: the empty tuple has no first mode");
  IntTuple r = t;
  r.children().front() = x;
  return r;
}
inline IntTuple replace_back(const IntTuple& t, const IntTuple& x) {
  if (!t.is_tuple()) return x;
  if (t.children().empty()) fail("replace_back: the empty tuple has no last mode");
  IntTuple r = t;
  r.children().back() = x;
  return r;
}

}  // namespace tessera::rt

namespace tessera::rt {

// ---- tuple functions with a template index in the core, a run-time index here ----------------

// sum(t): the sum of all leaves (_0 for the empty tuple); static when every leaf is.
// sum((2,(_3,4))) = 9; sum(()) = _0.
inline Int sum(const IntTuple& t) {
  if (t.is_underscore()) fail("sum: `_` is no integer; sum takes a tuple of integers, not a slicing coordinate");
  if (t.is_int()) return t.as_int();
  Int s = S(0);
  for (const auto& c : t.children()) s = s + sum(c);
  return s;
}

// wrap(t): t if it is a tuple, else (t). unwrap(t): the element of a rank-1 tuple, recursively,
// else t. wrap(8) = (8); unwrap(((_8))) = _8; unwrap((2,3)) = (2,3).
inline IntTuple wrap(const IntTuple& t) { return t.is_tuple() ? t : make_tuple({t}); }
inline IntTuple unwrap(const IntTuple& t) {
  if (t.is_tuple() && t.children().size() == 1) return unwrap(t.children()[0]);
  return t;
}

// make_seq_tuple<N>() (here make_seq_tuple(N)): (_0, _1, ..., _{N-1}). make_seq_tuple(3) = (_0,_1,_2).
inline IntTuple make_seq_tuple(std::int64_t n) {
  if (n < 0) fail("make_seq_tuple: N = " + std::to_string(n) + " is negative; the tuple (_0,...,_{N-1}) needs N >= 0");
  detail::check_pad_rank("make_seq_tuple", n);
  std::vector<IntTuple> kids;
  for (std::int64_t i = 0; i < n; ++i) kids.emplace_back(S(i));
  return make_tuple(std::move(kids));
}

// reverse(t): the top-level modes in reverse order; an integer is unchanged. reverse((2,(3,4),5)) = (5,(3,4),2).
inline IntTuple reverse(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> kids(t.children().rbegin(), t.children().rend());
  return make_tuple(std::move(kids));
}

// repeat<N>(x) (here repeat(N, x)): the tuple of N copies of x. repeat(3, _0) = (_0,_0,_0).
inline IntTuple repeat(std::int64_t n, const IntTuple& x) {
  if (n < 0) fail("repeat: N = " + std::to_string(n) + " is negative; repeat<N>(x) makes N copies, N >= 0");
  detail::check_pad_rank("repeat", n);
  return make_tuple(std::vector<IntTuple>(static_cast<std::size_t>(n), x));
}

// repeat_like(t, x): x at every leaf of t. repeat_like((1,(2,3)), _0) = (_0,(_0,_0)).
inline IntTuple repeat_like(const IntTuple& t, const IntTuple& x) {
  if (!t.is_tuple()) return x;
  std::vector<IntTuple> kids;
  for (const auto& c : t.children()) kids.push_back(repeat_like(c, x));
  return make_tuple(std::move(kids));
}

namespace detail {
// The top-level modes of t (an integer is its own mode 0).
inline std::vector<IntTuple> modes_of(const IntTuple& t) {
  return t.is_tuple() ? t.children() : std::vector<IntTuple>{t};
}
}  // namespace detail

// insert<N>(t, x) (here insert(t, N, x)): t with x inserted as mode N; modes from N on move up.
// Pre: t is a tuple, 0 <= N <= rank(t). insert((2,3,5), 1, _4) = (2,_4,3,5).
inline IntTuple insert(const IntTuple& t, std::int64_t n, const IntTuple& x) {
  if (!t.is_tuple())
    fail("insert: t = " + to_string(t) + " must be a tuple; wrap an integer first: insert(wrap(t), N, x)");
  const std::int64_t r = static_cast<std::int64_t>(t.children().size());
  if (n < 0 || n > r)
    fail("insert: position " + std::to_string(n) + " is outside [0, " + std::to_string(r) + "] for " + to_string(t) +
         "; insert at a position in [0, rank(t)]");
  std::vector<IntTuple> kids = t.children();
  kids.insert(kids.begin() + n, x);
  return make_tuple(std::move(kids));
}

// remove<I>(t) (here remove(t, I)): t without mode I (an integer is the rank-1 tuple of itself).
// Pre: 0 <= I < rank(t). remove((2,3,5), 1) = (2,5); remove(7, 0) = ().
inline IntTuple remove(const IntTuple& t, std::int64_t i) {
  detail::check_index("remove", t, i);
  std::vector<IntTuple> kids = detail::modes_of(t);
  kids.erase(kids.begin() + i);
  return make_tuple(std::move(kids));
}

// replace<I>(t, x) (here replace(t, I, x)): t with mode I replaced by x, always a tuple (an
// integer t gives (x), as the core's). Pre: 0 <= I < rank(t). replace((2,3,5), 1, _8) = (2,_8,5).
inline IntTuple replace(const IntTuple& t, std::int64_t i, const IntTuple& x) {
  detail::check_index("replace", t, i);
  std::vector<IntTuple> kids = detail::modes_of(t);
  kids[static_cast<std::size_t>(i)] = x;
  return make_tuple(std::move(kids));
}

// find(t, x): the index of the first top-level mode statically equal to x (equal(mode, x) is a
// static true: both static, or decided by structure), as a static integer; rank(t) if none. An
// integer t is its own mode 0. find((_2,_1,_3), _1) = _1; find((2,_1), _4) = _2; find((2,3), 2) = _2
// (a dynamic 2 is not statically equal to anything).
inline Int find(const IntTuple& t, const IntTuple& x) {
  const std::vector<IntTuple> ms = detail::modes_of(t);
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const Bool e = equal(ms[i], x);
    if (e.is_static && e.value) return S(static_cast<std::int64_t>(i));
  }
  return S(static_cast<std::int64_t>(ms.size()));
}

// flatten_to_tuple(t): the tuple of all leaves; an integer becomes (t), unlike flatten.
// flatten_to_tuple(((2,3),4)) = (2,3,4); flatten_to_tuple(5) = (5).
inline IntTuple flatten_to_tuple(const IntTuple& t) { return t.is_tuple() ? flatten(t) : make_tuple({t}); }

// dice(step, t) (tensor/tiling.hpp): the modes of t where step keeps them (keep[i] false is the
// core's X); an integer t is kept whole. Pre: one step entry per mode of a tuple t.
// dice({true, false, true}, (64,64,8)) = (64,8).
inline IntTuple dice(const std::vector<bool>& keep, const IntTuple& t) {
  if (!t.is_tuple()) return t;
  if (keep.size() != t.children().size())
    fail("dice: the projection step has " + std::to_string(keep.size()) + " entries but " + to_string(t) + " has " +
         std::to_string(t.children().size()) + " modes; give one entry (_1 or X) per mode");
  std::vector<IntTuple> kids;
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i]) kids.push_back(t.children()[i]);
  return make_tuple(std::move(kids));
}

// tuple_cat(a, b, ...): the top-level modes of the tuples one after another. Pre: each is a tuple.
// tuple_cat((2,3), (), ((4,5))) = (2,3,(4,5)).
inline IntTuple tuple_cat(const std::vector<IntTuple>& ts) {
  std::vector<IntTuple> kids;
  for (const auto& t : ts) {
    if (!t.is_tuple())
      fail("tuple_cat: " + to_string(t) + " is not a tuple; tuple_cat joins tuples (wrap an integer first: wrap(x))");
    kids.insert(kids.end(), t.children().begin(), t.children().end());
  }
  return make_tuple(std::move(kids));
}

}  // namespace tessera::rt
