// Differential test harness: the compile-time algebra (tessera::) against its run-time twin as
// `tessera eval` runs it (tessera::rt::eval_line), on the seeded random operands of the property
// tests (tests/core/random_layouts.hpp: static, mixed and dynamic). For every case both sides must
// print the same text in the reference notation, so the static-ness of every integer is compared
// too, or both must refuse the input: the core with a layout_error or at compile time (a call the
// harness then does not compile, see the *_refused predicates below), the twin with an error line.
//
// The comparisons are registered per `tessera eval` function name by the file that mirrors the
// function's core header (int_tuple.cpp, layout.cpp, composition.cpp, ...); eval_table.cpp runs
// them by iterating over the evaluator's own table (rt::function_names()), so a function added
// to the evaluator without a comparison makes the test fail.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../core/laws_driver.hpp"
#include "tessera/runtime/eval.hpp"

namespace tessera::test {

// What the comparisons of one eval function found.
struct Tally {
  long long agreed = 0, refused_both = 0, disagreed = 0;
  // Cases where the core gives its compile-time convention (it cannot follow a dynamic stride,
  // e.g. right_inverse(4:1) = _1:_0) and the twin, which knows the values, the exact answer; each
  // is checked by the operation's law (check_exact).
  long long twin_exact = 0;
  Coverage cases;                     // operand draws by kind (static, mixed, dynamic)
  std::vector<std::string> examples;  // the first disagreements, for the failure message
};

inline const std::string kRefused = "refused";

// record(t, expr, core): `tessera eval` of expr against the core's printed result (or "refused").
// Defined once, in eval_table.cpp, to keep the many instantiations of check() small.
void record(Tally& t, std::string const& expr, std::string const& core);

// check(t, expr, core): `tessera eval` of expr against core(), the core's printed result; a core
// that throws layout_error refuses.
template <class F>
void check(Tally& t, std::string const& expr, F&& core) {
  std::string c;
  try {
    c = core();
  } catch (layout_error const&) {
    c = kRefused;
  }
  record(t, expr, c);
}

// The law that makes a twin answer exact where it differs from the core's: exact(twin, core)
// with the twin's value (nullopt: the twin refused) and the core's printed result (or kRefused).
using Exact = std::function<bool(std::optional<rt::Value> const& twin, std::string const& core)>;

// The right-inverse law: L(R(i)) == i for every i < size(R).
inline bool right_inverse_law(rt::Layout const& l, rt::Layout const& r) {
  const std::int64_t n = rt::size(r).value;
  if (n > (std::int64_t{1} << 16)) return false;
  for (std::int64_t i = 0; i < n; ++i)
    if (rt::evaluate(l, rt::IntTuple(rt::evaluate(r, rt::IntTuple(rt::D(i))))).value != i) return false;
  return true;
}

// right_inverse(l): the twin's inverse obeys the law and is at least as large as the core's (which
// obeys it too, but stops at the first dynamic stride; a dynamic size-1 mode may make two equally
// large answers, 1:1 and _1:_0).
inline Exact exact_right_inverse(std::string const& l_text) {
  return [l_text](std::optional<rt::Value> const& twin, std::string const& core) {
    if (!twin || core == kRefused || !twin->is<rt::Layout>()) return false;
    const rt::Layout l = rt::evaluate(l_text).as<rt::Layout>();
    const rt::Layout c = rt::evaluate(core).as<rt::Layout>();
    const rt::Layout& r = twin->as<rt::Layout>();
    return right_inverse_law(l, r) && right_inverse_law(l, c) && rt::size(r).value >= rt::size(c).value;
  };
}

// make_layout_tv's (tiler, tv): tv maps [0, size(tv)) one to one onto the tile [0, size(tiler)).
inline bool tv_bijection(rt::Value const& v) {
  if (!v.is<rt::ValueTuple>() || v.as<rt::ValueTuple>().items.size() != 2) return false;
  const auto& items = v.as<rt::ValueTuple>().items;
  if (!items[0].is<rt::IntTuple>() || !items[1].is<rt::Layout>()) return false;
  const rt::Layout& tv = items[1].as<rt::Layout>();
  const std::int64_t n = rt::size(tv).value;
  if (n != rt::size(items[0].as<rt::IntTuple>()).value || n > (std::int64_t{1} << 16)) return false;
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t o = rt::evaluate(tv, rt::IntTuple(rt::D(i))).value;
    if (o < 0 || o >= n || seen[static_cast<std::size_t>(o)]) return false;
    seen[static_cast<std::size_t>(o)] = true;
  }
  return true;
}

// A layout that maps [0, size) one to one onto [0, size).
inline bool is_bijection(rt::Layout const& l) {
  const std::int64_t n = rt::size(l).value;
  if (n > (std::int64_t{1} << 16)) return false;
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t o = rt::evaluate(l, rt::IntTuple(rt::D(i))).value;
    if (o < 0 || o >= n || seen[static_cast<std::size_t>(o)]) return false;
    seen[static_cast<std::size_t>(o)] = true;
  }
  return true;
}

// make_layout_tv(thr, val): either the core's TV layout is not a bijection onto its tile (its
// right_inverse stopped at a dynamic stride) and the twin's is one, or the twin refuses because
// its precondition fails: raked_product(thr, val) is not a bijection onto [0, size) (the core
// does not check it).
inline Exact exact_tv(std::string const& thr_text, std::string const& val_text) {
  return [thr_text, val_text](std::optional<rt::Value> const& twin, std::string const& core) {
    if (!twin)
      return !is_bijection(
          rt::raked_product(rt::evaluate(thr_text).as<rt::Layout>(), rt::evaluate(val_text).as<rt::Layout>()));
    if (core == kRefused || tv_bijection(rt::evaluate(core))) return false;
    return tv_bijection(*twin);
  };
}

// record_exact(t, expr, core, exact): as record(), but a twin result that differs from the core's
// counts as twin_exact when exact(twin, core) holds. Defined in eval_table.cpp.
void record_exact(Tally& t, std::string const& expr, std::string const& core, Exact const& exact);

// check_exact(t, expr, core, exact): check() for operations where the core may answer by its
// compile-time convention and the twin exactly (right_inverse, make_layout_tv).
template <class F>
void check_exact(Tally& t, std::string const& expr, F&& core, Exact const& exact) {
  std::string c;
  try {
    c = core();
  } catch (layout_error const&) {
    c = kRefused;
  }
  record_exact(t, expr, c, exact);
}

// check_refused(t, expr): the core refuses these operands at compile time (the call would not
// compile, so the harness does not make it); the twin must refuse them too.
inline void check_refused(Tally& t, std::string const& expr) { record(t, expr, kRefused); }

// An operand as text: core values print in the reference notation, strings and numbers as is.
template <class T>
std::string text(T const& x) {
  if constexpr (std::is_same_v<T, std::string>) {
    return x;
  } else if constexpr (std::is_same_v<T, long long> || std::is_same_v<T, long>) {
    return std::to_string(x);
  } else {
    return to_string(x);
  }
}

// The call `name(a, b, ...)` in `tessera eval`'s syntax; operands are printed by the core.
template <class... Ts>
std::string call(const char* name, Ts const&... args) {
  std::string out = std::string(name) + "(";
  bool first = true;
  ((out += (first ? "" : ", ") + text(args), first = false), ...);
  return out + ")";
}

// The seeds of the operand draws, one per kind of comparison (the same draws in every file).
inline constexpr std::uint64_t kUnary = 3000, kBinary = 3100, kInjective = 3200, kDivide = 3300, kProduct = 3400;

// The core's text of a value (what the twin's answer is compared with).
template <class T>
std::string str(T const& x) {
  return to_string(x);
}

// ---- the registry ------------------------------------------------------------------------------

// A comparison runs its operands through check()/check_refused() and returns the operand draws.
using Comparison = std::function<Coverage(Tally&)>;

inline std::multimap<std::string, Comparison>& comparisons() {
  static std::multimap<std::string, Comparison> registry;
  return registry;
}

// Registers comparisons for `tessera eval` function `name` at static initialisation, e.g.
//   const Register reg_rank("rank", [](Tally& t) { return run_unary<...>(...); });
struct Register {
  Register(const char* name, Comparison c) { comparisons().emplace(name, std::move(c)); }
};

// Combines the coverage of two runs.
inline Coverage operator+(Coverage a, Coverage const& b) {
  a.static_cases += b.static_cases;
  a.mixed_cases += b.mixed_cases;
  a.dynamic_cases += b.dynamic_cases;
  a.rejected += b.rejected;
  return a;
}

// ---- operands ----------------------------------------------------------------------------------

template <class T>
using plain_t = std::remove_cvref_t<T>;

// modes_tuple(L): the top-level modes of L as a tuple of layouts, a tiler of layouts.
template <class S, class D>
auto modes_tuple(Layout<S, D> const& l) {
  if constexpr (is_tuple_v<S>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(layout<int(Is)>(l)...);
    }(std::make_index_sequence<tuple_size_v<S>>{});
  } else {
    return make_tuple(l);
  }
}

// An index into L's domain: static (size - 1) for a static shape, else a dynamic value.
template <class L>
auto last_index(L const& l) {
  return size(l) - _1{};
}
template <class L>
int middle_index(L const& l) {
  return static_cast<int>(size(l)) / 2;
}

// The composed layout Sw o offset o L: a static offset for a static L, else a dynamic one.
template <class Sw, class L>
auto swizzled(Sw const& sw, L const& l) {
  if constexpr (is_static_v<L>) {
    return make_composed_layout(sw, _0{}, l);
  } else {
    return make_composed_layout(sw, middle_index(l), l);
  }
}

// ---- what the core refuses at compile time -----------------------------------------------------

template <class T>
inline constexpr int leaf_count_v = tuple_size_v<decltype(flatten_to_tuple(std::declval<T>()))>;

// Mode I of an IntTuple type (an integer is its own mode 0).
template <class T, std::size_t I>
using mode_t = plain_t<decltype(get<I>(std::declval<T>()))>;

// Same nesting wherever both are tuples (shape_div, ceil_div: tuple/tuple needs equal ranks).
template <class A, class B>
constexpr bool same_rank_where_tuples() {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> != tuple_size_v<B>) {
      return false;
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return (same_rank_where_tuples<tuple_element_t<Is, A>, tuple_element_t<Is, B>>() && ... && true);
      }(std::make_index_sequence<tuple_size_v<A>>{});
    }
  } else {
    return true;
  }
}

// elem_less(a, b) compiles: a tuple a needs a tuple b of at least its rank, an integer a an integer b.
template <class A, class B>
constexpr bool elem_less_compiles() {
  if constexpr (is_tuple_v<A>) {
    if constexpr (!is_tuple_v<B>) {
      return false;
    } else if constexpr (tuple_size_v<A> > tuple_size_v<B>) {
      return false;
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return (elem_less_compiles<tuple_element_t<Is, A>, tuple_element_t<Is, B>>() && ... && true);
      }(std::make_index_sequence<tuple_size_v<A>>{});
    }
  } else {
    return !is_tuple_v<B>;
  }
}

// A coordinate (or index) C fits shape S: a tuple needs a tuple of the same rank, recursively.
template <class Crd, class Shape>
constexpr bool coordinate_fits() {
  if constexpr (is_tuple_v<Crd>) {
    if constexpr (!is_tuple_v<Shape>) {
      return false;
    } else if constexpr (tuple_size_v<Crd> != tuple_size_v<Shape>) {
      return false;
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return (coordinate_fits<tuple_element_t<Is, Crd>, tuple_element_t<Is, Shape>>() && ... && true);
      }(std::make_index_sequence<tuple_size_v<Crd>>{});
    }
  } else {
    return true;
  }
}

// A tiler T fits a layout of shape S: a tuple tiler has at most rank(S) modes, recursively.
template <class Shape, class T>
constexpr bool tiler_fits() {
  if constexpr (is_tuple_v<T>) {
    constexpr int R = rank_v<Shape>;
    if constexpr (int(tuple_size_v<T>) > R) {
      return false;
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return (tiler_fits<mode_t<Shape, Is>, tuple_element_t<Is, T>>() && ... && true);
      }(std::make_index_sequence<tuple_size_v<T>>{});
    }
  } else {
    return true;  // a layout or an integer tile
  }
}

// composition(A, T) compiles: T fits A and no layout tile is refused by the static carry check.
template <class A, class T>
constexpr bool composition_compiles() {
  if constexpr (is_layout_v<T>) {
    return !composition_refused_statically<A, T>();
  } else if constexpr (is_tuple_v<T>) {
    if constexpr (!tiler_fits<typename A::shape_type, T>()) {
      return false;
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return (composition_compiles<plain_t<decltype(layout<int(Is)>(std::declval<A>()))>, tuple_element_t<Is, T>>() &&
                ... && true);
      }(std::make_index_sequence<tuple_size_v<T>>{});
    }
  } else {
    return true;
  }
}

}  // namespace tessera::test
