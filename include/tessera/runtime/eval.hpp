// tessera/runtime/eval.hpp -- evaluates `tessera eval` expressions (syntax: parser.hpp,
// docs/eval.md) with the run-time algebra and prints results in the library's format.
//
//   evaluate("composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))")  -> ((_2,_2),_3):((_24,_2),_8)
//   eval_line("size((2,3")                                      -> {false, "error: ... at input column 10"}
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/eval.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "tessera/runtime/parser.hpp"
#include "tessera/runtime/print.hpp"
#include "tessera/runtime/recast.hpp"
#include "tessera/runtime/swizzle.hpp"
#include "tessera/runtime/value.hpp"

namespace tessera::rt {

namespace eval_detail {

// What a value is, with its article, for messages: "an integer 4", "a layout _4:_1", "an MMA atom ...";
// a long value shows its first 200 bytes (detail::shown).
inline std::string kind_name_full(const Value& v);
inline std::string kind_name(const Value& v) {
  const std::string k = kind_name_full(v);
  return k.size() <= 240 ? k : detail::shown(k, 240);
}

inline std::string kind_name_full(const Value& v) {
  if (v.is<IntTuple>()) {
    const auto& t = v.as<IntTuple>();
    if (t.is_int() && t.as_int().is_basis()) return "a basis element " + to_string(t);
    return t.is_int() ? "an integer " + to_string(t) : (t.is_underscore() ? "`_`" : "a tuple " + to_string(t));
  }
  if (v.is<Layout>()) return "a layout " + to_string(v.as<Layout>());
  if (v.is<Swizzle>()) return "a swizzle " + to_string(v.as<Swizzle>());
  if (v.is<ComposedLayout>()) return "a composed layout " + to_string(v.as<ComposedLayout>());
  if (v.is<Bool>()) return "a boolean " + to_string(v.as<Bool>());
  if (v.is<Text>() &&
      (v.as<Text>().text == "LayoutLeft" || v.as<Text>().text == "LayoutRight" || v.as<Text>().text == "X"))
    return "the tag " + v.as<Text>().text;
  if (v.is<ValueTuple>()) return "a value tuple " + to_string(v.as<ValueTuple>());
  if (v.is<MmaAtom>()) return "an MMA atom " + v.as<MmaAtom>().name;
  if (v.is<CopyAtom>()) return "a copy atom " + v.as<CopyAtom>().name;
  if (v.is<TiledMma>()) return "a tiled MMA " + to_string(v.as<TiledMma>());
  if (v.is<TiledCopy>()) return "a tiled copy " + to_string(v.as<TiledCopy>());
  return "text";
}

inline std::size_t value_leaves(const Value& v) {
  if (v.is<IntTuple>()) return leaf_count(v.as<IntTuple>());
  if (v.is<Layout>()) return 2 * leaf_count(v.as<Layout>().shape);
  if (v.is<ComposedLayout>()) return 2 * leaf_count(v.as<ComposedLayout>().inner.shape);
  if (v.is<ValueTuple>()) {
    std::size_t n = 0;
    for (const auto& x : v.as<ValueTuple>().items) n += value_leaves(x);
    return n;
  }
  return 1;
}

// The arguments of one call, with conversions that name the function on failure.
struct Args {
  const std::string& fn;
  const std::vector<Value>& v;

  [[noreturn]] void wrong(std::size_t i, const char* expected) const {
    fail(fn + ": argument " + std::to_string(i + 1) + " is " + kind_name(v[i]) + ", expected " + expected);
  }

  void arity(std::size_t lo, std::size_t hi) const {
    if (v.size() < lo || v.size() > hi) {
      std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      fail(fn + ": takes " + want + " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(v.size()));
    }
  }

  bool is_tuple(std::size_t i) const { return v[i].is<IntTuple>(); }

  IntTuple tuple(std::size_t i) const {
    if (!v[i].is<IntTuple>()) wrong(i, "an integer or a tuple of integers");
    return v[i].as<IntTuple>();
  }

  Int integer(std::size_t i) const {
    if (!v[i].is<IntTuple>() || !v[i].as<IntTuple>().is_int()) wrong(i, "an integer");
    return v[i].as<IntTuple>().as_int();
  }

  std::int64_t index(std::size_t i) const { return integer(i).value; }

  // A boolean (a predicate's result, e.g. congruent(a,b)).
  Bool boolean(std::size_t i) const {
    if (!v[i].is<Bool>()) wrong(i, "a boolean (the result of a predicate such as congruent(a,b))");
    return v[i].as<Bool>();
  }

  // The core's Major tag: LayoutLeft (column-major, false) or LayoutRight (row-major, true).
  bool major(std::size_t i) const {
    if (v[i].is<Text>() && v[i].as<Text>().text == "LayoutLeft") return false;
    if (v[i].is<Text>() && v[i].as<Text>().text == "LayoutRight") return true;
    wrong(i, "LayoutLeft (column-major) or LayoutRight (row-major)");
  }

  const MmaAtom& mma_atom(std::size_t i) const {
    if (!v[i].is<MmaAtom>()) wrong(i, "an MMA atom (e.g. SM80_16x8x16_F32F16F16F32_TN)");
    return v[i].as<MmaAtom>();
  }
  const CopyAtom& copy_atom(std::size_t i) const {
    if (!v[i].is<CopyAtom>()) wrong(i, "a copy atom (e.g. SM75_U32x4_LDSM_N)");
    return v[i].as<CopyAtom>();
  }
  const TiledCopy& tiled_copy(std::size_t i) const {
    if (!v[i].is<TiledCopy>()) wrong(i, "a tiled copy (make_tiled_copy(Copy_Atom<Op,T>, thr, val))");
    return v[i].as<TiledCopy>();
  }
  const TiledMma& tiled_mma(std::size_t i) const {
    if (!v[i].is<TiledMma>()) wrong(i, "a tiled MMA (make_tiled_mma(atom, atom_layout))");
    return v[i].as<TiledMma>();
  }

  Layout layout(std::size_t i) const {
    if (v[i].is<Layout>()) return v[i].as<Layout>();
    if (v[i].is<IntTuple>() && !has_underscore(v[i].as<IntTuple>())) return make_layout(v[i].as<IntTuple>());
    wrong(i, "a layout (or a shape)");
  }

  // Layout or composed layout on the left of composition, divides and products.
  bool composed(std::size_t i) const { return v[i].is<ComposedLayout>(); }

  // The right operand of composition/divide/product: a layout, or a tiler.
  std::variant<Layout, Tiler> right(std::size_t i) const {
    const Value& x = v[i];
    if (x.is<Layout>()) return x.as<Layout>();
    if (x.is<IntTuple>()) {
      const auto& t = x.as<IntTuple>();
      if (t.is_int()) return make_layout(t);
      if (t.is_tuple()) return make_tiler(t);
    }
    if (x.is<ValueTuple>()) return tiler(x.as<ValueTuple>());
    wrong(i, "a layout, a shape or a tiler [L0,L1,...]");
  }

  // A tuple of values as a tiler: layouts, integers (n:_1), `_`, and tuples (nested tilers).
  Tiler tiler(const ValueTuple& t) const {
    Tiler out;
    for (const auto& item : t.items) {
      if (item.is<Layout>()) out.emplace_back(item.as<Layout>());
      else if (item.is<IntTuple>() && item.as<IntTuple>().is_underscore()) out.emplace_back(std::nullopt);
      else if (item.is<IntTuple>() && item.as<IntTuple>().is_tuple()) out.emplace_back(make_tiler(item.as<IntTuple>()));
      else if (item.is<IntTuple>()) out.push_back(Tile::of_integer(item.as<IntTuple>()));
      else if (item.is<ValueTuple>()) out.emplace_back(tiler(item.as<ValueTuple>()));
      else fail(fn + ": tiler element " + kind_name(item) + " is not a layout, shape, tiler or `_`");
    }
    return out;
  }
};

using LayoutOp = std::function<Layout(const Layout&)>;

// Apply op to a layout or to the inner layout of a composed layout.
inline Value on_left(const Args& a, std::size_t i, const LayoutOp& op) {
  if (a.composed(i)) return on_inner(a.v[i].as<ComposedLayout>(), op);
  return op(a.layout(i));
}

// Binary layout operation with a layout-or-tiler right operand.
template <class ByLayout, class ByTiler>
Value binary(const Args& a, ByLayout by_layout, ByTiler by_tiler) {
  a.arity(2, 2);
  auto r = a.right(1);
  return on_left(a, 0, [&](const Layout& l) {
    if (std::holds_alternative<Layout>(r)) return by_layout(l, std::get<Layout>(r));
    return by_tiler(l, std::get<Tiler>(r));
  });
}

template <Layout (*ByLayout)(const Layout&, const Layout&), Layout (*ByTiler)(const Layout&, const Tiler&)>
Value binary_fn(const Args& a) {
  return binary(a, ByLayout, ByTiler);
}

// get(x, i, j, ...) on tuples, layouts and value tuples.
inline Value get_path(const Args& a, Value x) {
  for (std::size_t k = 1; k < a.v.size(); ++k) {
    const std::int64_t i = a.index(k);
    if (x.is<IntTuple>()) x = get(x.as<IntTuple>(), i);
    else if (x.is<Layout>()) x = layout(x.as<Layout>(), i);
    else if (x.is<ComposedLayout>()) x = layout(x.as<ComposedLayout>(), i);
    else if (x.is<ValueTuple>()) {
      const auto& items = x.as<ValueTuple>().items;
      if (i < 0 || static_cast<std::size_t>(i) >= items.size())
        fail(a.fn + ": index " + std::to_string(i) + " is out of range for " + to_string(x) +
             "; use an index in [0, rank)");
      Value next = items[static_cast<std::size_t>(i)];
      x = std::move(next);
    } else {
      fail(a.fn + ": cannot take mode " + std::to_string(i) + " of " + kind_name(x));
    }
  }
  return x;
}

inline std::vector<std::int64_t> indices_from(const Args& a, std::size_t first) {
  std::vector<std::int64_t> out;
  for (std::size_t k = first; k < a.v.size(); ++k) out.push_back(a.index(k));
  return out;
}

inline IntTuple shape_of(const Args& a, std::size_t i) {
  if (a.v[i].is<Layout>()) return a.v[i].as<Layout>().shape;
  if (a.v[i].is<ComposedLayout>()) return a.v[i].as<ComposedLayout>().inner.shape;
  return a.tuple(i);
}

using Fn = std::function<Value(const Args&)>;

// make_shape(a, b, ...) / make_stride / make_coord / make_tile of integers and tuples: the tuple (a,b,...).
inline Value make_tuple_call(const Args& a) {
  std::vector<IntTuple> parts;
  for (std::size_t i = 0; i < a.v.size(); ++i) parts.push_back(a.tuple(i));
  return make_tuple(std::move(parts));
}

inline Value make_layout_call(const Args& a) {
  if (a.v.empty()) fail("make_layout: takes a shape, a shape and a stride, or layouts");
  if (a.v.size() == 1 && a.is_tuple(0)) return make_layout(a.tuple(0));
  if (a.v.size() == 2 && a.is_tuple(0) && a.is_tuple(1)) return make_layout(a.tuple(0), a.tuple(1));
  std::vector<Layout> ls;
  for (std::size_t i = 0; i < a.v.size(); ++i) ls.push_back(a.layout(i));
  return make_layout(ls);
}

inline Value composition_call(const Args& a) {
  a.arity(2, 2);
  if (a.v[0].is<Swizzle>() && a.v[1].is<Swizzle>()) return composition(a.v[0].as<Swizzle>(), a.v[1].as<Swizzle>());
  if (a.v[0].is<Swizzle>()) {
    const Layout l = a.layout(1);
    if (has_basis_strides(l))
      fail("composition: " + to_string(l) +
           " has basis strides (its values are coordinates), but a swizzle acts on "
           "integer offsets; compose the swizzle with the data layout");
    return composition(a.v[0].as<Swizzle>(), l);
  }
  if (a.v[1].is<Swizzle>()) {
    if (a.composed(0))
      fail("composition: the right operand " + to_string(a.v[1].as<Swizzle>()) +
           " of a composed layout would nest two "
           "swizzles (F o off o (L o Sw)), which is no composed layout; compose the swizzles first");
    const Layout l = a.layout(0);
    if (has_basis_strides(l))
      fail("composition: " + to_string(l) +
           " has basis strides (its values are coordinates), but a swizzle as B yields "
           "integer offsets to be mapped by A; compose the swizzle with the data layout");
    return composition(l, a.v[1].as<Swizzle>());
  }
  if (a.v[1].is<IntTuple>() && a.v[1].as<IntTuple>().is_int()) {  // an integer n composes as n:_1
    const Layout b{a.v[1].as<IntTuple>(), S(1)};
    return on_left(a, 0, [&](const Layout& l) { return composition(l, b); });
  }
  return binary(
      a, [](const Layout& l, const Layout& r) { return composition(l, r); },
      [](const Layout& l, const Tiler& t) { return composition(l, t); });
}

inline Value rank_call(const Args& a) {
  a.arity(1, 1);
  if (a.v[0].is<ValueTuple>()) return S(static_cast<std::int64_t>(a.v[0].as<ValueTuple>().items.size()));
  return rank(shape_of(a, 0));
}

inline Value append_call(const Args& a, bool front) {
  a.arity(2, 3);
  const std::int64_t n = a.v.size() == 3 ? a.index(2) : -1;
  if (a.v[0].is<IntTuple>() && a.v[1].is<IntTuple>()) {
    const IntTuple t = a.tuple(0), x = a.tuple(1);
    if (n < 0) return front ? prepend(t, x) : append(t, x);
    return front ? prepend(t, x, n) : append(t, x, n);
  }
  if (a.composed(0) && !front) {
    const ComposedLayout& c = a.v[0].as<ComposedLayout>();
    return n < 0 ? append(c, a.layout(1)) : append(c, a.layout(1), n);
  }
  const Layout l = a.layout(0), x = a.layout(1);
  if (n < 0) return front ? prepend(l, x) : append(l, x);
  return front ? prepend(l, x, n) : append(l, x, n);
}

inline Value predicate(const Args& a, Bool (*f)(const IntTuple&, const IntTuple&)) {
  a.arity(2, 2);
  return f(shape_of(a, 0), shape_of(a, 1));
}

inline Value equal_call(const Args& a) {
  a.arity(2, 2);
  if (a.v[0].is<IntTuple>() && a.v[1].is<IntTuple>()) return equal(a.tuple(0), a.tuple(1));
  return equal(a.layout(0), a.layout(1));
}

inline const std::map<std::string, Fn>& functions() {
  static const std::map<std::string, Fn> table = [] {
    std::map<std::string, Fn> t;
    // One line a function: the table reads as a list (the formatter would spread each lambda).
    // clang-format off
    // IntTuple algebra
    t["rank"] = rank_call;
    t["depth"] = [](const Args& a) { a.arity(1, 1); return Value(depth(shape_of(a, 0))); };
    t["size"] = [](const Args& a) { a.arity(1, 1); return Value(size(shape_of(a, 0))); };
    t["product"] = [](const Args& a) { a.arity(1, 1); return Value(product(shape_of(a, 0))); };
    t["product_each"] = [](const Args& a) { a.arity(1, 1); return Value(product_each(shape_of(a, 0))); };
    t["inner_product"] = [](const Args& a) { a.arity(2, 2); return Value(inner_product(a.tuple(0), a.tuple(1))); };
    t["shape_div"] = [](const Args& a) { a.arity(2, 2); return Value(shape_div(a.tuple(0), a.tuple(1))); };
    t["ceil_div"] = [](const Args& a) { a.arity(2, 2); return Value(ceil_div(a.tuple(0), a.tuple(1))); };
    t["congruent"] = [](const Args& a) { return predicate(a, congruent); };
    t["weakly_congruent"] = [](const Args& a) { return predicate(a, weakly_congruent); };
    t["compatible"] = [](const Args& a) { return predicate(a, compatible); };
    t["elem_less"] = [](const Args& a) { a.arity(2, 2); return Value(elem_less(a.tuple(0), a.tuple(1))); };
    t["colex_less"] = [](const Args& a) { a.arity(2, 2); return Value(colex_less(a.tuple(0), a.tuple(1))); };
    t["lex_less"] = [](const Args& a) { a.arity(2, 2); return Value(lex_less(a.tuple(0), a.tuple(1))); };
    t["crd2idx"] = [](const Args& a) {
      a.arity(2, 3);
      return Value(a.v.size() == 3 ? crd2off(a.tuple(0), a.tuple(1), a.tuple(2)) : IntTuple(crd2idx(a.tuple(0), a.tuple(1))));
    };
    t["idx2crd"] = [](const Args& a) {
      a.arity(2, 3);
      return Value(a.v.size() == 3 ? idx2crd(a.tuple(0), a.tuple(1), a.tuple(2)) : idx2crd(a.tuple(0), a.tuple(1)));
    };
    t["prefix_product"] = [](const Args& a) {
      a.arity(1, 2);
      return Value(a.v.size() == 2 ? prefix_product(a.tuple(0), a.integer(1)) : prefix_product(a.tuple(0)));
    };
    t["equal"] = equal_call;
    // CuTe's integer and tuple functions (issue 9)
    t["round_up"] = [](const Args& a) { a.arity(2, 2); return Value(round_up(a.tuple(0), a.tuple(1))); };
    t["elem_scale"] = [](const Args& a) { a.arity(2, 2); return Value(elem_scale(a.tuple(0), a.tuple(1))); };
    t["filter_zeros"] = [](const Args& a) {
      a.arity(1, 2);
      if (a.is_tuple(0) && !(a.v.size() == 1 && a.v[0].as<IntTuple>().is_int())) {
        return Value(a.v.size() == 2 ? filter_zeros(a.tuple(0), a.tuple(1)) : filter_zeros(a.tuple(0), a.tuple(0)));
      }
      if (a.v.size() == 2) return Value(filter_zeros(a.layout(0), a.tuple(1)));
      return Value(filter_zeros(a.layout(0)));
    };
    t["gcd"] = [](const Args& a) {
      a.arity(1, 64);
      Int g = gcd(a.tuple(a.v.size() - 1));
      for (std::size_t i = a.v.size() - 1; i-- > 0;) g = gcd(gcd(a.tuple(i)), g);
      return Value(g);
    };
    t["lcm"] = [](const Args& a) { a.arity(2, 2); return Value(lcm(a.integer(0), a.integer(1))); };
    t["bit_width"] = [](const Args& a) { a.arity(1, 1); return Value(bit_width(a.integer(0))); };
    t["log_2"] = [](const Args& a) { a.arity(1, 1); return Value(log_2(a.integer(0))); };
    t["crd2crd"] = [](const Args& a) { a.arity(3, 3); return Value(crd2crd(a.tuple(0), a.tuple(1), a.tuple(2))); };
    t["elem_leq"] = [](const Args& a) { a.arity(2, 2); return Value(elem_leq(a.tuple(0), a.tuple(1))); };
    t["elem_gtr"] = [](const Args& a) { a.arity(2, 2); return Value(elem_gtr(a.tuple(0), a.tuple(1))); };
    t["elem_geq"] = [](const Args& a) { a.arity(2, 2); return Value(elem_geq(a.tuple(0), a.tuple(1))); };
    t["lex_leq"] = [](const Args& a) { a.arity(2, 2); return Value(lex_leq(a.tuple(0), a.tuple(1))); };
    t["lex_gtr"] = [](const Args& a) { a.arity(2, 2); return Value(lex_gtr(a.tuple(0), a.tuple(1))); };
    t["lex_geq"] = [](const Args& a) { a.arity(2, 2); return Value(lex_geq(a.tuple(0), a.tuple(1))); };
    t["colex_leq"] = [](const Args& a) { a.arity(2, 2); return Value(colex_leq(a.tuple(0), a.tuple(1))); };
    t["colex_gtr"] = [](const Args& a) { a.arity(2, 2); return Value(colex_gtr(a.tuple(0), a.tuple(1))); };
    t["colex_geq"] = [](const Args& a) { a.arity(2, 2); return Value(colex_geq(a.tuple(0), a.tuple(1))); };
    t["unflatten"] = [](const Args& a) {
      a.arity(2, 2);
      if (a.is_tuple(0)) return Value(unflatten(a.tuple(0), a.tuple(1)));
      return Value(unflatten(a.layout(0), a.tuple(1)));
    };
    t["zip"] = [](const Args& a) {
      a.arity(1, 2);
      if (a.v.size() == 1 && a.composed(0)) return Value(zip(a.v[0].as<ComposedLayout>()));
      if (a.v[0].is<Layout>()) return Value(a.v.size() == 2 ? zip(a.layout(0), a.layout(1)) : zip(a.layout(0)));
      if (a.v.size() == 2) return Value(zip(make_tuple({a.tuple(0), a.tuple(1)})));
      return Value(zip(a.tuple(0)));
    };
    t["front"] = [](const Args& a) { a.arity(1, 1); return Value(front(a.tuple(0))); };
    t["back"] = [](const Args& a) { a.arity(1, 1); return Value(back(a.tuple(0))); };
    t["replace_front"] = [](const Args& a) { a.arity(2, 2); return Value(replace_front(a.tuple(0), a.tuple(1))); };
    t["replace_back"] = [](const Args& a) { a.arity(2, 2); return Value(replace_back(a.tuple(0), a.tuple(1))); };
    // the core's tuple functions with a template index (insert<N>, remove<I>, replace<I>, repeat<N>,
    // make_seq_tuple<N>) take it as a run-time argument, as get(x,i) does for get<I>
    t["sum"] = [](const Args& a) { a.arity(1, 1); return Value(sum(a.tuple(0))); };
    t["wrap"] = [](const Args& a) { a.arity(1, 1); return Value(wrap(a.tuple(0))); };
    t["unwrap"] = [](const Args& a) { a.arity(1, 1); return Value(unwrap(a.tuple(0))); };
    t["reverse"] = [](const Args& a) { a.arity(1, 1); return Value(reverse(a.tuple(0))); };
    t["make_seq_tuple"] = [](const Args& a) { a.arity(1, 1); return Value(make_seq_tuple(a.index(0))); };
    t["repeat"] = [](const Args& a) { a.arity(2, 2); return Value(repeat(a.index(0), a.tuple(1))); };
    t["repeat_like"] = [](const Args& a) { a.arity(2, 2); return Value(repeat_like(a.tuple(0), a.tuple(1))); };
    t["insert"] = [](const Args& a) { a.arity(3, 3); return Value(insert(a.tuple(0), a.index(1), a.tuple(2))); };
    t["remove"] = [](const Args& a) { a.arity(2, 2); return Value(remove(a.tuple(0), a.index(1))); };
    t["replace"] = [](const Args& a) { a.arity(3, 3); return Value(replace(a.tuple(0), a.index(1), a.tuple(2))); };
    t["find"] = [](const Args& a) { a.arity(2, 2); return Value(find(a.tuple(0), a.tuple(1))); };
    t["flatten_to_tuple"] = [](const Args& a) { a.arity(1, 1); return Value(flatten_to_tuple(a.tuple(0))); };
    t["and_"] = [](const Args& a) { a.arity(2, 2); return Value(and_(a.boolean(0), a.boolean(1))); };
    t["or_"] = [](const Args& a) { a.arity(2, 2); return Value(or_(a.boolean(0), a.boolean(1))); };
    t["dice"] = [](const Args& a) {
      a.arity(2, 2);
      // the step: `_1` (keep) or X (drop) per mode, written (_1,X,_1) or [_1,X,_1]
      std::vector<bool> keep;
      auto entry = [&](const Value& x) {
        if (x.is<Text>() && x.as<Text>().text == "X") keep.push_back(false);
        else if (x.is<IntTuple>() && x.as<IntTuple>().is_int()) keep.push_back(true);
        else fail("dice: step entry " + kind_name(x) + " is neither X (drop the mode) nor an integer such as _1 (keep it)");
      };
      if (a.v[0].is<ValueTuple>()) for (const auto& x : a.v[0].as<ValueTuple>().items) entry(x);
      else if (a.v[0].is<IntTuple>() && a.v[0].as<IntTuple>().is_tuple()) for (const auto& x : a.v[0].as<IntTuple>().children()) entry(x);
      else a.wrong(0, "a projection step, a tuple of _1 (keep) and X (drop), e.g. (_1,X,_1)");
      return Value(dice(keep, a.tuple(1)));
    };
    t["tuple_cat"] = [](const Args& a) {
      a.arity(0, 64);
      std::vector<IntTuple> ts;
      for (std::size_t i = 0; i < a.v.size(); ++i) ts.push_back(a.tuple(i));
      return Value(tuple_cat(ts));
    };
    t["min"] = [](const Args& a) { a.arity(2, 2); return Value(min(a.integer(0), a.integer(1))); };
    t["max"] = [](const Args& a) { a.arity(2, 2); return Value(max(a.integer(0), a.integer(1))); };
    t["abs"] = [](const Args& a) { a.arity(1, 1); return Value(abs(a.integer(0))); };
    t["signum"] = [](const Args& a) { a.arity(1, 1); return Value(signum(a.integer(0))); };
    // tensor/tensor.hpp's tuple makers: a tuple of the arguments (make_tile's may be layouts or `_`)
    t["make_shape"] = [](const Args& a) { return make_tuple_call(a); };
    t["make_stride"] = [](const Args& a) { return make_tuple_call(a); };
    t["make_coord"] = [](const Args& a) { return make_tuple_call(a); };
    t["make_tile"] = [](const Args& a) {
      a.arity(0, 64);
      bool ints = true;
      for (std::size_t i = 0; i < a.v.size(); ++i) {
        if (a.v[i].is<IntTuple>()) continue;
        if (!a.v[i].is<Layout>() && !a.v[i].is<ValueTuple>()) a.wrong(i, "a layout, an integer, a shape, a tiler or `_`");
        ints = false;
      }
      if (ints) return make_tuple_call(a);
      (void)a.tiler(ValueTuple{a.v});  // checks every element is a tile
      return Value(ValueTuple{a.v});
    };
    // modes
    t["get"] = [](const Args& a) { a.arity(2, 64); return get_path(a, a.v[0]); };
    t["layout"] = [](const Args& a) {
      a.arity(1, 64);
      return get_path(a, a.composed(0) ? a.v[0] : Value(a.layout(0)));
    };
    t["shape"] = [](const Args& a) { a.arity(1, 64); return get_path(a, shape_of(a, 0)); };
    t["stride"] = [](const Args& a) {
      a.arity(1, 64);
      if (a.composed(0))
        fail("stride: a composed (swizzled) layout has no stride; its offsets are F(offset + L(c)), got " + kind_name(a.v[0]) +
             "; use stride(get_nonswizzle_portion(c)) for the inner layout's strides");
      return get_path(a, a.layout(0).stride);
    };
    t["select"] = [](const Args& a) {
      a.arity(1, 64);
      auto idx = indices_from(a, 1);
      if (a.is_tuple(0)) return Value(select(a.tuple(0), idx));
      return on_left(a, 0, [&](const Layout& l) { return select(l, idx); });
    };
    t["take"] = [](const Args& a) {
      a.arity(3, 3);
      if (a.is_tuple(0)) return Value(take(a.tuple(0), a.index(1), a.index(2)));
      return on_left(a, 0, [&](const Layout& l) { return take(l, a.index(1), a.index(2)); });
    };
    t["group"] = [](const Args& a) {
      a.arity(3, 3);
      if (a.is_tuple(0)) return Value(group(a.tuple(0), a.index(1), a.index(2)));
      return on_left(a, 0, [&](const Layout& l) { return group(l, a.index(1), a.index(2)); });
    };
    t["flatten"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.is_tuple(0)) return Value(flatten(a.tuple(0)));
      return on_left(a, 0, [](const Layout& l) { return flatten(l); });
    };
    t["append"] = [](const Args& a) { return append_call(a, false); };
    t["prepend"] = [](const Args& a) { return append_call(a, true); };
    // construction
    t["make_layout"] = make_layout_call;
    t["make_layout_left"] = [](const Args& a) { a.arity(1, 1); return Value(make_layout(a.tuple(0))); };
    t["make_layout_right"] = [](const Args& a) { a.arity(1, 1); return Value(make_layout_right(a.tuple(0))); };
    t["compact_col_major"] = [](const Args& a) {
      a.arity(1, 2);
      return Value(compact_major(a.tuple(0), a.v.size() == 2 ? a.tuple(1) : IntTuple(S(1)), false));
    };
    t["compact_row_major"] = [](const Args& a) {
      a.arity(1, 2);
      return Value(compact_major(a.tuple(0), a.v.size() == 2 ? a.tuple(1) : IntTuple(S(1)), true));
    };
    t["compact_major"] = [](const Args& a) {
      a.arity(2, 3);
      return Value(compact_major(a.tuple(0), a.v.size() == 3 ? a.tuple(2) : IntTuple(S(1)), a.major(1)));
    };
    t["slice"] = [](const Args& a) {
      a.arity(2, 2);
      const IntTuple c = a.tuple(0);
      if (a.composed(1)) return Value(slice(c, a.v[1].as<ComposedLayout>()));
      if (a.v[1].is<Layout>()) return Value(slice(c, a.v[1].as<Layout>()));
      return Value(slice(c, a.tuple(1)));
    };
    t["slice_and_offset"] = [](const Args& a) {
      a.arity(2, 2);
      const IntTuple c = a.tuple(0);
      if (a.composed(1)) return Value(ValueTuple{{Value(slice(c, a.v[1].as<ComposedLayout>())), Value(S(0))}});
      const Layout l = a.layout(1);
      return Value(ValueTuple{{Value(slice(c, l)), Value(slice_offset(c, l))}});
    };
    t["make_ordered_layout"] = [](const Args& a) { a.arity(2, 2); return Value(make_ordered_layout(a.tuple(0), a.tuple(1))); };
    t["compact_order"] = [](const Args& a) { a.arity(2, 2); return Value(compact_order(a.tuple(0), a.tuple(1))); };
    // coordinate layouts (basis strides, core/arithmetic_tuple.hpp)
    t["make_identity_layout"] = [](const Args& a) { a.arity(1, 1); return Value(make_identity_layout(a.tuple(0))); };
    t["make_basis_like"] = [](const Args& a) { a.arity(1, 1); return Value(make_basis_like(a.tuple(0))); };
    t["basis_get"] = [](const Args& a) { a.arity(2, 2); return Value(basis_get(a.tuple(0), a.tuple(1))); };
    t["make_layout_like"] = [](const Args& a) { a.arity(1, 1); return Value(make_layout_like(a.layout(0))); };
    t["coshape"] = [](const Args& a) { a.arity(1, 1); return Value(coshape(a.layout(0))); };
    t["coprofile"] = [](const Args& a) { a.arity(1, 1); return Value(coprofile(a.layout(0))); };
    t["get_hier_coord"] = [](const Args& a) { a.arity(2, 2); return Value(get_hier_coord(a.layout(0), a.integer(1))); };
    t["get_flat_coord"] = [](const Args& a) { a.arity(2, 2); return Value(get_flat_coord(a.layout(0), a.integer(1))); };
    t["thread_coord"] = [](const Args& a) { a.arity(2, 2); return Value(thread_coord(a.layout(0), a.integer(1))); };
    t["get_1d_coord"] = [](const Args& a) { a.arity(2, 2); return Value(get_1d_coord(a.layout(0), a.integer(1))); };
    t["domain_offset"] = [](const Args& a) {
      a.arity(2, 2);
      if (a.composed(1)) return Value(ValueTuple{{Value(domain_offset(a.tuple(0), a.v[1].as<ComposedLayout>())), Value(S(0))}});
      const Layout l = a.layout(1);
      return Value(ValueTuple{{Value(l), Value(evaluate_any(l, a.tuple(0)))}});
    };
    t["with_shape"] = [](const Args& a) {
      a.arity(2, 64);
      if (a.v.size() == 2) return Value(with_shape(a.layout(0), a.tuple(1)));
      std::vector<IntTuple> shapes;
      for (std::size_t i = 1; i < a.v.size(); ++i) shapes.push_back(a.tuple(i));
      return Value(with_shape(a.layout(0), make_tuple(std::move(shapes))));
    };
    t["tile_unzip"] = [](const Args& a) {
      a.arity(2, 2);
      auto r = a.right(1);
      return on_left(a, 0, [&](const Layout& l) {
        if (std::holds_alternative<Layout>(r)) return tile_unzip(l, std::get<Layout>(r));
        return tile_unzip(l, std::get<Tiler>(r));
      });
    };
    t["evenly_divides"] = [](const Args& a) {
      a.arity(2, 2);
      const IntTuple shape = shape_of(a, 0);
      if (a.is_tuple(1) && a.v[1].as<IntTuple>().is_int()) return Value(evenly_divides(shape, a.integer(1)));
      auto r = a.right(1);
      if (std::holds_alternative<Layout>(r)) return Value(evenly_divides(shape, std::get<Layout>(r)));
      return Value(evenly_divides(shape, std::get<Tiler>(r)));
    };
    t["max_alignment"] = [](const Args& a) { a.arity(1, 1); return Value(max_alignment(a.layout(0))); };
    t["cosize"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.composed(0)) return Value(cosize(a.v[0].as<ComposedLayout>()));
      return Value(cosize(a.layout(0)));
    };
    // algebra
    t["coalesce"] = [](const Args& a) {
      a.arity(1, 2);
      if (a.v.size() == 2) {
        IntTuple p = a.tuple(1);
        return on_left(a, 0, [&](const Layout& l) { return coalesce(l, p); });
      }
      return on_left(a, 0, [](const Layout& l) { return coalesce(l); });
    };
    t["filter"] = [](const Args& a) { a.arity(1, 1); return on_left(a, 0, [](const Layout& l) { return filter(l); }); };
    t["composition"] = composition_call;
    t["complement"] = [](const Args& a) {
      a.arity(1, 2);
      if (a.composed(0)) {
        const ComposedLayout& c = a.v[0].as<ComposedLayout>();
        return Value(a.v.size() == 2 ? complement(c, a.tuple(1)) : complement(c));
      }
      return Value(a.v.size() == 2 ? complement(a.layout(0), a.tuple(1)) : complement(a.layout(0)));
    };
    t["right_inverse"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.v[0].is<Swizzle>()) return Value(right_inverse(a.v[0].as<Swizzle>()));
      if (a.composed(0)) return Value(right_inverse(a.v[0].as<ComposedLayout>()));
      return Value(right_inverse(a.layout(0)));
    };
    t["left_inverse"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.v[0].is<Swizzle>()) return Value(left_inverse(a.v[0].as<Swizzle>()));
      if (a.composed(0)) return Value(left_inverse(a.v[0].as<ComposedLayout>()));
      return Value(left_inverse(a.layout(0)));
    };
    t["logical_divide"] = binary_fn<logical_divide, logical_divide>;
    t["zipped_divide"] = binary_fn<zipped_divide, zipped_divide>;
    t["tiled_divide"] = binary_fn<tiled_divide, tiled_divide>;
    t["flat_divide"] = binary_fn<flat_divide, flat_divide>;
    t["logical_product"] = binary_fn<logical_product, logical_product>;
    t["zipped_product"] = binary_fn<zipped_product, zipped_product>;
    t["tiled_product"] = binary_fn<tiled_product, tiled_product>;
    t["flat_product"] = binary_fn<flat_product, flat_product>;
    t["blocked_product"] = [](const Args& a) {
      a.arity(2, 2);
      Layout b = a.layout(1);
      return on_left(a, 0, [&](const Layout& l) { return blocked_product(l, b); });
    };
    t["raked_product"] = [](const Args& a) {
      a.arity(2, 2);
      Layout b = a.layout(1);
      return on_left(a, 0, [&](const Layout& l) { return raked_product(l, b); });
    };
    t["tile_to_shape"] = [](const Args& a) {
      a.arity(2, 3);
      IntTuple s = a.tuple(1);
      std::optional<IntTuple> order;
      if (a.v.size() == 3) order = a.tuple(2);
      return on_left(a, 0, [&](const Layout& l) { return tile_to_shape(l, s, order); });
    };
    t["make_layout_tv"] = [](const Args& a) {
      a.arity(2, 2);
      auto [tiler, tv] = make_layout_tv(a.layout(0), a.layout(1));
      return Value(ValueTuple{{Value(tiler), Value(tv)}});
    };
    t["upcast"] = [](const Args& a) {
      a.arity(2, 2);
      if (a.v[0].is<Swizzle>()) return Value(upcast(a.v[0].as<Swizzle>(), a.index(1)));
      if (a.composed(0)) return Value(upcast(a.v[0].as<ComposedLayout>(), a.index(1)));
      return Value(upcast(a.layout(0), a.index(1)));
    };
    t["downcast"] = [](const Args& a) {
      a.arity(2, 2);
      if (a.v[0].is<Swizzle>()) return Value(downcast(a.v[0].as<Swizzle>(), a.index(1)));
      if (a.composed(0)) return Value(downcast(a.v[0].as<ComposedLayout>(), a.index(1)));
      return Value(downcast(a.layout(0), a.index(1)));
    };
    t["recast"] = [](const Args& a) {
      a.arity(3, 3);
      if (a.composed(0)) return Value(recast(a.v[0].as<ComposedLayout>(), a.index(1), a.index(2)));
      return Value(recast(a.layout(0), a.index(1), a.index(2)));
    };
    t["max_common_vector"] = [](const Args& a) {
      a.arity(2, 2);
      if (a.composed(0) && a.composed(1))
        return Value(max_common_vector(a.v[0].as<ComposedLayout>(), a.v[1].as<ComposedLayout>()));
      if (a.composed(0)) return Value(max_common_vector(a.v[0].as<ComposedLayout>(), a.layout(1)));
      if (a.composed(1)) return Value(max_common_vector(a.layout(0), a.v[1].as<ComposedLayout>()));
      return Value(max_common_vector(a.layout(0), a.layout(1)));
    };
    t["get_swizzle_portion"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.composed(0)) return Value(get_swizzle_portion(a.v[0].as<ComposedLayout>()));
      return Value(get_swizzle_portion(a.layout(0)));
    };
    t["get_nonswizzle_portion"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.composed(0)) return Value(get_nonswizzle_portion(a.v[0].as<ComposedLayout>()));
      return Value(get_nonswizzle_portion(a.layout(0)));
    };
    t["max_common_layout"] = [](const Args& a) {
      a.arity(2, 2);
      if (a.composed(0) && a.composed(1))
        fail("max_common_layout(Sw o off o L, Sw o off o L): not defined for two composed layouts (as CuTe); "
             "use max_common_vector, or give one operand as a plain layout");
      if (a.composed(0)) return Value(max_common_layout(a.v[0].as<ComposedLayout>(), a.layout(1)));
      if (a.composed(1)) return Value(max_common_layout(a.layout(0), a.v[1].as<ComposedLayout>()));
      return Value(max_common_layout(a.layout(0), a.layout(1)));
    };
    t["nullspace"] = [](const Args& a) { a.arity(1, 1); return Value(nullspace(a.layout(0))); };
    t["print_layout"] = [](const Args& a) {
      a.arity(1, 1);
      std::string s = print_layout(a.layout(0));
      if (!s.empty() && s.back() == '\n') s.pop_back();
      return Value(Text{s});
    };
    // Atoms (the evaluator's names, atom/names.hpp) and tiled MMAs (runtime/mma_atom.hpp)
    t["shape_mnk"] = [](const Args& a) { a.arity(1, 1); return Value(a.mma_atom(0).shape_mnk); };
    t["layout_a"] = [](const Args& a) { a.arity(1, 1); return Value(a.mma_atom(0).a); };
    t["layout_b"] = [](const Args& a) { a.arity(1, 1); return Value(a.mma_atom(0).b); };
    t["layout_c"] = [](const Args& a) { a.arity(1, 1); return Value(a.mma_atom(0).c); };
    // bits for an instruction, elements of T for Copy_Atom<Op,T>
    t["layout_src"] = [](const Args& a) { a.arity(1, 1); return Value(val_layout_src(a.copy_atom(0))); };
    t["layout_dst"] = [](const Args& a) { a.arity(1, 1); return Value(val_layout_dst(a.copy_atom(0))); };
    t["layout_ref"] = [](const Args& a) { a.arity(1, 1); return Value(val_layout_ref(a.copy_atom(0))); };
    t["thr_id"] = [](const Args& a) {
      a.arity(1, 1);
      if (a.v[0].is<CopyAtom>()) return Value(a.v[0].as<CopyAtom>().thr_id);
      return Value(a.mma_atom(0).thr_id);
    };
    t["make_tiled_mma"] = [](const Args& a) {
      a.arity(1, 3);
      const Layout atom_layout = a.v.size() >= 2 ? a.layout(1) : make_layout(make_tuple({IntTuple(S(1)), IntTuple(S(1)), IntTuple(S(1))}));
      std::vector<std::optional<Layout>> perm{std::nullopt, std::nullopt, std::nullopt};
      if (a.v.size() == 3) {
        if (!a.v[2].is<ValueTuple>() && !a.v[2].is<IntTuple>()) a.wrong(2, "a permutation tiler [M,N,K] (`_`, integers or layouts)");
        const std::vector<Value> items = a.v[2].is<ValueTuple>() ? a.v[2].as<ValueTuple>().items : [&] {
          std::vector<Value> out;
          const IntTuple& t3 = a.v[2].as<IntTuple>();
          if (t3.is_tuple()) for (const auto& c : t3.children()) out.emplace_back(c);
          else out.emplace_back(t3);
          return out;
        }();
        if (items.size() != 3)
          fail("make_tiled_mma: the permutation must be a tiler of three modes [M,N,K] (`_` keeps a mode); got " +
               std::to_string(items.size()) + " modes");
        for (std::size_t i = 0; i < 3; ++i) {
          const Value& x = items[i];
          if (x.is<IntTuple>() && x.as<IntTuple>().is_underscore()) continue;
          if (x.is<Layout>()) perm[i] = x.as<Layout>();
          else if (x.is<IntTuple>() && x.as<IntTuple>().is_int()) perm[i] = make_layout(x.as<IntTuple>());
          else fail("make_tiled_mma: permutation mode " + std::to_string(i) + " is " + kind_name(x) + "; write `_`, an integer or a layout");
        }
      }
      return Value(make_tiled_mma(a.mma_atom(0), atom_layout, std::move(perm)));
    };
    t["layout_a_tv"] = [](const Args& a) { a.arity(1, 1); return Value(layout_a_tv(a.tiled_mma(0))); };
    t["layout_b_tv"] = [](const Args& a) { a.arity(1, 1); return Value(layout_b_tv(a.tiled_mma(0))); };
    t["layout_c_tv"] = [](const Args& a) { a.arity(1, 1); return Value(layout_c_tv(a.tiled_mma(0))); };
    t["tile_size"] = [](const Args& a) { a.arity(2, 2); return Value(tile_size(a.tiled_mma(0), a.index(1))); };
    t["thr_layout_vmnk"] = [](const Args& a) { a.arity(1, 1); return Value(a.tiled_mma(0).thr_vmnk); };
    // Tiled copies (runtime/copy_atom.hpp)
    t["make_tiled_copy"] = [](const Args& a) {
      a.arity(2, 3);
      return Value(make_tiled_copy(a.copy_atom(0), a.layout(1), a.v.size() == 3 ? a.layout(2) : make_layout(IntTuple(S(1)))));
    };
    t["make_tiled_copy_A"] = [](const Args& a) { a.arity(2, 2); return Value(make_tiled_copy_a(a.copy_atom(0), a.tiled_mma(1))); };
    t["make_tiled_copy_B"] = [](const Args& a) { a.arity(2, 2); return Value(make_tiled_copy_b(a.copy_atom(0), a.tiled_mma(1))); };
    t["make_tiled_copy_C"] = [](const Args& a) { a.arity(2, 2); return Value(make_tiled_copy_c(a.copy_atom(0), a.tiled_mma(1))); };
    t["layout_s_tv"] = [](const Args& a) { a.arity(1, 1); return Value(layout_s_tv(a.tiled_copy(0))); };
    t["layout_d_tv"] = [](const Args& a) { a.arity(1, 1); return Value(layout_d_tv(a.tiled_copy(0))); };
    t["tidfrg_s"] = [](const Args& a) { a.arity(2, 2); return Value(tidfrg_s(a.tiled_copy(0), a.layout(1))); };
    t["tidfrg_d"] = [](const Args& a) { a.arity(2, 2); return Value(tidfrg_d(a.tiled_copy(0), a.layout(1))); };
    // clang-format on
    return t;
  }();
  return table;
}

}  // namespace eval_detail

// The names of the functions `tessera eval` knows, sorted (docs/eval.md lists them). The
// differential test (tests/differential/) compares every one of them with the core algebra.
inline std::vector<std::string> function_names() {
  std::vector<std::string> names;
  for (const auto& entry : eval_detail::functions()) names.push_back(entry.first);
  return names;
}

namespace eval_detail {

// in_step(fn, message): the message of a failure inside the user's call fn. A message that names
// another function, a step of fn the user never called ("complement: ..." inside logical_divide,
// "ceil_div: ..."), is said as a step of fn: "logical_divide: in its step complement: ...".
// in_step("size", "size: takes 1 argument, got 2") is unchanged.
inline std::string in_step(const std::string& fn, const std::string& message) {
  std::size_t e = 0;
  while (e < message.size() && (std::islower(static_cast<unsigned char>(message[e])) != 0 || message[e] == '_' ||
                                std::isdigit(static_cast<unsigned char>(message[e])) != 0))
    ++e;
  if (e == 0 || e + 1 >= message.size() || message[e] != ':' || message[e + 1] != ' ') return message;
  const std::string inner = message.substr(0, e);
  if (inner == fn || inner == "layout") return message;  // its own message; an operand that is no layout
  return fn + ": in its step " + inner + ": " + message.substr(e + 2);
}

inline IntTuple coordinate(const std::vector<Value>& args) {
  std::vector<IntTuple> parts;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is<IntTuple>())
      fail("evaluation: coordinate " + std::to_string(i + 1) + " is " + kind_name(args[i]) +
           ", expected an integer, `_` or a tuple");
    parts.push_back(args[i].as<IntTuple>());
  }
  if (parts.size() == 1) return parts[0];
  return make_tuple(std::move(parts));
}

// Copy_Atom<OP,T> (canonical text, no spaces): the copy instruction OP of `names` with element type T.
inline Value copy_atom_by_name(const std::string& name, const Names& names) {
  const std::string inner = name.substr(10, name.size() - 11);  // between "Copy_Atom<" and '>'
  int depth = 0;
  std::size_t comma = std::string::npos;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '<') ++depth;
    else if (inner[i] == '>') --depth;
    else if (inner[i] == ',' && depth == 0) {
      if (comma != std::string::npos) comma = std::string::npos - 1;  // more than two arguments
      else comma = i;
    }
  }
  if (comma == std::string::npos || comma == std::string::npos - 1)
    fail(
        "Copy_Atom takes two template arguments, the instruction and the element type: "
        "Copy_Atom<SM75_U32x4_LDSM_N,half_t>; got " +
        name);
  const std::string op = inner.substr(0, comma), type = inner.substr(comma + 1);
  const auto it = names.find(op);
  if (it == names.end())
    fail("unknown name '" + op + "' in " + name + " (the atoms `tessera eval` knows are listed in docs/eval.md)");
  if (!it->second.is<CopyAtom>()) fail(name + ": " + op + " is not a copy instruction");
  return Value(make_copy_atom(it->second.as<CopyAtom>(), type));
}

// callee(args): evaluation or slicing of a layout, a composed layout, or a swizzle applied to an integer.
inline Value apply(const Value& callee, const std::vector<Value>& args) {
  if (args.empty()) fail("evaluation: a layout needs a coordinate, e.g. L(3) or L(1,_)");
  // Parentheses around one function group it: (Sw<3,3,3> o L)(9) applies the composed layout.
  if (callee.is<ValueTuple>() && callee.as<ValueTuple>().items.size() == 1) {
    const Value& inner = callee.as<ValueTuple>().items[0];
    if (inner.is<Layout>() || inner.is<ComposedLayout>() || inner.is<Swizzle>()) return apply(inner, args);
  }
  const IntTuple c = coordinate(args);
  if (callee.is<Swizzle>()) {
    if (!c.is_int()) fail("evaluation: a swizzle takes one integer, got " + to_string(c));
    return apply(callee.as<Swizzle>(), c.as_int());
  }
  if (callee.is<ComposedLayout>()) {
    const auto& cl = callee.as<ComposedLayout>();
    if (has_underscore(c)) return slice(c, cl);
    return evaluate(cl, c);
  }
  Layout l;
  if (callee.is<Layout>()) l = callee.as<Layout>();
  else if (callee.is<IntTuple>() && !has_underscore(callee.as<IntTuple>())) l = make_layout(callee.as<IntTuple>());
  else
    fail("evaluation: cannot apply " + kind_name(callee) +
         " to a coordinate; only layouts, composed layouts and swizzles are functions");
  if (has_underscore(c)) return slice(c, l);
  if (detail::has_basis(c))
    fail("evaluation: the coordinate " + to_string(c) + " holds a basis element; coordinates are integers");
  return evaluate_any(l, c);
}

inline Value composed(const std::vector<Value>& terms) {
  if (terms.size() != 2 && terms.size() != 3)
    fail("composed layout: write Sw<B,M,S> o offset o layout (or Sw<B,M,S> o layout), got " +
         std::to_string(terms.size()) + " terms");
  if (!terms[0].is<Swizzle>())
    fail("composed layout: the first term must be a swizzle Sw<B,M,S>, got " + kind_name(terms[0]));
  Int off = S(0);
  if (terms.size() == 3) {
    if (!terms[1].is<IntTuple>() || !terms[1].as<IntTuple>().is_int())
      fail("composed layout: the offset must be an integer, got " + kind_name(terms[1]));
    off = terms[1].as<IntTuple>().as_int();
  }
  const Value& l = terms.back();
  Layout inner;
  if (l.is<Layout>()) inner = l.as<Layout>();
  else if (l.is<IntTuple>() && !has_underscore(l.as<IntTuple>())) inner = make_layout(l.as<IntTuple>());
  else fail("composed layout: the last term must be a layout, got " + kind_name(l));
  if (has_basis_strides(inner))
    fail("composed layout: " + to_string(inner) +
         " has basis strides (its values are coordinates), but a swizzle acts "
         "on integer offsets; use a layout with integer strides");
  return ComposedLayout{terms[0].as<Swizzle>(), off, inner};
}

}  // namespace eval_detail

namespace eval_detail {
// v holds a basis element: a layout with basis strides, or a tuple with a basis leaf.
inline bool has_basis_value(const Value& v) {
  if (v.is<IntTuple>()) return detail::has_basis(v.as<IntTuple>());
  if (v.is<Layout>()) return has_basis_strides(v.as<Layout>());
  if (v.is<ValueTuple>())
    return std::any_of(v.as<ValueTuple>().items.begin(), v.as<ValueTuple>().items.end(), has_basis_value);
  return false;
}

// The functions that take coordinate layouts (basis strides) and basis elements, as the core's do
// (docs/eval.md); every other function refuses them with a message naming itself. composition,
// the divides and crd2idx check their other operands themselves (B and the tiler need integer
// strides).
inline bool takes_basis(const std::string& fn) {
  static const std::set<std::string> names = {"rank",
                                              "depth",
                                              "size",
                                              "product_each",
                                              "get",
                                              "layout",
                                              "shape",
                                              "stride",
                                              "select",
                                              "take",
                                              "group",
                                              "flatten",
                                              "append",
                                              "prepend",
                                              "make_layout",
                                              "coalesce",
                                              "filter",
                                              "equal",
                                              "zip",
                                              "unflatten",
                                              "filter_zeros",
                                              "front",
                                              "back",
                                              "replace_front",
                                              "replace_back",
                                              "congruent",
                                              "weakly_congruent",
                                              "compatible",
                                              "crd2idx",
                                              "composition",
                                              "logical_divide",
                                              "zipped_divide",
                                              "tiled_divide",
                                              "flat_divide",
                                              "tile_unzip",
                                              "evenly_divides",
                                              "with_shape",
                                              "domain_offset",
                                              "coshape",
                                              "coprofile",
                                              "make_identity_layout",
                                              "make_basis_like",
                                              "basis_get"};
  return names.count(fn) > 0;
}

inline void check_basis_arguments(const std::string& fn, const std::vector<Value>& args) {
  if (takes_basis(fn)) return;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!has_basis_value(args[i])) continue;
    fail(fn + ": argument " + std::to_string(i + 1) + " is " + kind_name(args[i]) +
         ", which holds basis elements (a coordinate layout such as make_identity_layout's maps coordinates to "
         "coordinates); " +
         fn + " takes integer strides only" +
         (fn == "print_layout" ? " (`tessera show` draws coordinate layouts)" : "; apply it to the data layout"));
  }
}
}  // namespace eval_detail

namespace eval_detail {
// bounded(v): v, or a layout_error when it holds more integers than a result may (docs/eval.md, "Limits").
inline Value bounded(Value v) {
  if (value_leaves(v) > detail::kMaxLeaves)
    fail("result too large (more than " + std::to_string(detail::kMaxLeaves) + " integers)");
  return v;
}
}  // namespace eval_detail

// The three steps of evaluation that other front ends (the Python module) take one at a time, on
// values they built themselves; evaluate() below is made of them, so both compute the same thing.
// Each throws layout_error with `tessera eval`'s message (without the input column).

// call(fn, args): the call fn(args...) of a function of the table (function_names()), a failure
// inside a step of fn named as that step (in_step), the result bounded. call("size", {(2,3)}) = 6;
// call("composition", {(4,8):(1,100), 2:3}) throws "composition: stride 3 of B = 2:3 ...".
inline Value call(const std::string& fn, const std::vector<Value>& args) {
  const auto& table = eval_detail::functions();
  auto it = table.find(fn);
  if (it == table.end()) fail("unknown function '" + detail::shown(fn) + "' (see docs/eval.md for the list)");
  eval_detail::check_basis_arguments(fn, args);
  Value out;
  try {
    out = it->second(eval_detail::Args{fn, args});
  } catch (const layout_error& e) {
    fail(eval_detail::in_step(fn, e.what()));
  }
  return eval_detail::bounded(std::move(out));
}

// apply_value(callee, args): X(c0, c1, ...): evaluation, or slicing where a coordinate holds `_`, of a
// layout, a composed layout or a swizzle, result bounded. apply_value((_4,_8):(_8,_1), {3}) = 24;
// apply_value((_4,_8):(_8,_1), {_, 2}) = (_4):(_8).
inline Value apply_value(const Value& callee, const std::vector<Value>& args) {
  return eval_detail::bounded(eval_detail::apply(callee, args));
}

// lookup_name(name, names): the value a name stands for (an atom), including the copy atoms
// Copy_Atom<OP,T> of the instructions in names. lookup_name("SM75_U32x4_LDSM_N", atom_names()) is
// that copy atom; an unknown name throws "unknown name ...".
inline Value lookup_name(const std::string& name, const Names& names) {
  // compact_major's Major tags and dice's "drop this mode" marker
  if (name == "LayoutLeft" || name == "LayoutRight" || name == "X") return Text{name};
  auto it = names.find(name);
  if (it == names.end() && name.rfind("Copy_Atom<", 0) == 0 && !names.empty())
    return eval_detail::copy_atom_by_name(name, names);
  if (it == names.end()) {
    if (names.empty())
      fail("unknown name '" + detail::shown(name) +
           "' (this evaluator knows no names; functions are called as f(...))");
    fail("unknown name '" + detail::shown(name) + "' (the atoms `tessera eval` knows are listed in docs/eval.md)");
  }
  return it->second;
}

// evaluate(node): the value of a parsed expression. Throws eval_error (message + column of the
// offending call) for every failure.
inline Value evaluate(const Node& n, const Names& names = no_names()) {
  using K = Node::Kind;
  std::vector<Value> kids;
  for (const auto& k : n.kids) kids.push_back(evaluate(k, names));
  try {
    Value out;
    switch (n.kind) {
      case K::integer: out = n.value; break;
      case K::underscore: out = IntTuple::underscore(); break;
      case K::swizzle: out = make_swizzle(n.sw[0], n.sw[1], n.sw[2]); break;
      case K::tuple: {
        bool ints = std::all_of(kids.begin(), kids.end(), [](const Value& v) { return v.is<IntTuple>(); });
        if (ints) {
          std::vector<IntTuple> parts;
          for (auto& v : kids) parts.push_back(v.as<IntTuple>());
          out = make_tuple(std::move(parts));
        } else {
          out = ValueTuple{kids};
        }
        break;
      }
      case K::tiler: out = ValueTuple{kids}; break;
      case K::layout: {
        if (!kids[0].is<IntTuple>() || !kids[1].is<IntTuple>())
          fail("layout: write SHAPE:STRIDE with integer tuples, got " + eval_detail::kind_name(kids[0]) + " : " +
               eval_detail::kind_name(kids[1]));
        out = make_layout(kids[0].as<IntTuple>(), kids[1].as<IntTuple>());
        break;
      }
      case K::call: out = call(n.name, kids); break;
      case K::apply: {
        std::vector<Value> args(kids.begin() + 1, kids.end());
        out = apply_value(kids[0], args);
        break;
      }
      case K::composed: out = eval_detail::composed(kids); break;
      case K::name: out = lookup_name(n.name, names); break;
    }
    return eval_detail::bounded(std::move(out));
  } catch (const eval_error&) {
    throw;
  } catch (const layout_error& e) {
    throw eval_error(e.what(), n.column);
  }
}

// evaluate(text): parse and evaluate one expression. Throws eval_error.
inline Value evaluate(std::string_view text, const Names& names = no_names()) { return evaluate(parse(text), names); }

struct EvalResult {
  bool ok = false;
  std::string text;  // the printed value, or "error: <what> at input column N"
};

// eval_line(text): one line of `tessera eval`: the printed result, or an error line; never throws
// tessera::layout_error. A blank line gives a blank, successful result.
inline EvalResult eval_line(std::string_view text, const Names& names = no_names()) {
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) return {true, ""};
  try {
    return {true, to_string(evaluate(text, names))};
  } catch (const eval_error& e) {
    return {false, std::string("error: ") + e.what()};
  }
}

}  // namespace tessera::rt
