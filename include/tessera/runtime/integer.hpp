// tessera/runtime/integer.hpp -- integers of the run-time twin (twin of core/integer.hpp).
//
// The twin of the algebra (namespace tessera::rt) knows the nesting of a shape only at run time,
// so one program can build and transform any layout (`tessera eval`, the tools). Every integer
// remembers whether the compile-time algebra would know it statically (`_8`) or only at run
// time (`8`), and the arithmetic below follows the core's static rules (docs/algebra.md,
// "Integers"), so the twin prints exactly what the core computes, static-ness included.
//
//   Int    one integer: value + is_static        _8, 8, _-1
//          or a basis element (a stride leaf of a coordinate layout): the value along one
//          coordinate mode, CuTe's ScaledBasis   _1@0, 4@1 (core/arithmetic_tuple.hpp)
//   Bool   a predicate result, static or not     _true, false
//
// Every violated precondition throws tessera::layout_error (core/error.hpp), the one exception
// type of the algebra and its twin, with a message naming the function, the condition, the
// values and the fix.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/integer.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/core/error.hpp"

namespace tessera::rt {

// fail(message): throws tessera::layout_error(message).
[[noreturn]] inline void fail(const std::string& message) { throw layout_error(message); }

// ---- Int ----------------------------------------------------------------------------------------

// An integer, or with basis >= 0 the basis element `value@basis` (ScaledBasis<T,N> of the core:
// the value T along coordinate mode N; E<N> is _1@N). A basis element is a stride leaf only:
// integers scale it (3 * _1@1 = 3@1), equal modes add (2@0 + 3@0 = 5@0), and sums over several
// modes are coordinate tuples (layout.hpp, evaluate_any). Every other operation refuses it.
struct Int {
  std::int64_t value = 0;
  bool is_static = false;
  int basis = -1;  // >= 0: a basis element along this coordinate mode

  bool is_basis() const { return basis >= 0; }
};

inline Int S(std::int64_t v) { return Int{v, true}; }   // static integer `_v`
inline Int D(std::int64_t v) { return Int{v, false}; }  // dynamic integer `v`
// The basis element v@mode: E(S(1), 0) is _1@0, E(D(4), 1) is 4@1.
inline Int E(Int v, int mode) { return Int{v.value, v.is_static, mode}; }
// The value of a basis element (or the integer itself) as a plain integer: plain(_2@1) = _2.
inline Int plain(Int a) { return Int{a.value, a.is_static}; }

// a is the static integer v (never a basis element: _0@1 is not _0).
inline bool is_static_value(Int a, std::int64_t v) { return a.is_static && a.value == v && !a.is_basis(); }

// `_8`, `8`; basis elements as the core prints them: `_1@0`, `4@1`.
inline std::string to_string(Int a) {
  std::string out = (a.is_static ? "_" : "") + std::to_string(a.value);
  if (a.is_basis()) out += "@" + std::to_string(a.basis);
  return out;
}

// Predicate results: static when the compile-time algebra decides them from types alone.
struct Bool {
  bool value = false;
  bool is_static = false;
};

inline std::string to_string(Bool b) { return std::string(b.is_static ? "_" : "") + (b.value ? "true" : "false"); }

// ---- checked integer arithmetic with the static rules of docs/algebra.md ------------------------
// op(static, static) is static; absorbing rules: _0*x, x*_0, _0/x, _0%x, x%_1, x%_-1 are _0.

namespace detail {
inline std::string arith_message(const char* op, Int a, Int b) {
  return "integer overflow: " + to_string(a) + " " + op + " " + to_string(b) +
         " does not fit in int64; use smaller extents";
}
}  // namespace detail

// checked_mul(a, b, what) / checked_add(a, b, what): a * b and a + b of raw int64 offsets, sizes
// and byte counts, or a layout_error "<what>: a * b does not fit in int64; ..." when the exact
// result does not fit. The one helper for every such product in the twin and the tools (analyze,
// show): no product of offsets wraps around silently. `what` is a string, or a function returning
// one (built only on overflow, for hot loops).
// checked_mul(3, 4, "x") = 12; checked_mul(576460752303423488, 16, "analyze: byte address") throws.
namespace detail {
template <class What>
std::string what_text(const What& what) {
  if constexpr (std::is_invocable_v<const What&>) return what();
  else return std::string(what);
}
template <class What>
[[noreturn]] void overflow(const What& what, std::int64_t a, const char* op, std::int64_t b) {
  fail(what_text(what) + ": " + std::to_string(a) + " " + op + " " + std::to_string(b) +
       " does not fit in int64 (integer overflow); use smaller offsets, strides or extents");
}
}  // namespace detail

template <class What>
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const What& what) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) detail::overflow(what, a, "*", b);
  return r;
}

template <class What>
std::int64_t checked_add(std::int64_t a, std::int64_t b, const What& what) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) detail::overflow(what, a, "+", b);
  return r;
}

namespace detail {
// Operations that have no meaning on a basis element refuse it (the core does not compile them).
inline void no_basis(const char* op, Int a, Int b) {
  if (a.is_basis() || b.is_basis())
    fail(std::string("integer arithmetic: ") + to_string(a) + " " + op + " " + to_string(b) +
         " involves a basis element (a stride of a coordinate layout); basis elements are only scaled by integers "
         "and added to one another; use integer strides for this operation");
}
}  // namespace detail

// a + b; two basis elements of one mode add their values (2@0 + 3@0 = 5@0) and the static _0 is
// the neutral element of basis elements (_0 + 2@1 = 2@1), as in the core. Basis elements of
// different modes sum to a coordinate tuple: layout.hpp's offset_add, not an Int.
inline Int operator+(Int a, Int b) {
  if (a.is_basis() || b.is_basis()) {
    if (is_static_value(a, 0)) return b;
    if (is_static_value(b, 0)) return a;
    if (a.basis != b.basis)
      fail("integer arithmetic: " + to_string(a) + " + " + to_string(b) +
           " adds basis elements of different modes (or a basis element and an integer); their sum is a coordinate "
           "tuple, which only the evaluation of a layout (L(c)) forms; give the layout strides all integers or all "
           "basis elements");
    return E(plain(a) + plain(b), a.basis);
  }
  std::int64_t r;
  if (__builtin_add_overflow(a.value, b.value, &r)) fail(detail::arith_message("+", a, b));
  return Int{r, a.is_static && b.is_static};
}

inline Int operator-(Int a, Int b) {
  detail::no_basis("-", a, b);
  std::int64_t r;
  if (__builtin_sub_overflow(a.value, b.value, &r)) fail(detail::arith_message("-", a, b));
  return Int{r, a.is_static && b.is_static};
}

// a * b; an integer times a basis element scales its value (3 * _1@1 = 3@1, _0 * _1@1 = _0@1).
inline Int operator*(Int a, Int b) {
  if (a.is_basis() && b.is_basis())
    fail("integer arithmetic: " + to_string(a) + " * " + to_string(b) +
         " multiplies two basis elements; a basis element is scaled by an integer only");
  if (a.is_basis() || b.is_basis()) return E(plain(a) * plain(b), a.is_basis() ? a.basis : b.basis);
  if (is_static_value(a, 0) || is_static_value(b, 0)) return S(0);
  std::int64_t r;
  if (__builtin_mul_overflow(a.value, b.value, &r)) fail(detail::arith_message("*", a, b));
  return Int{r, a.is_static && b.is_static};
}

inline Int operator/(Int a, Int b) {
  detail::no_basis("/", a, b);
  if (b.value == 0) fail("division by zero: " + to_string(a) + " / " + to_string(b));
  if (is_static_value(a, 0)) return S(0);
  if (a.value == INT64_MIN && b.value == -1) fail(detail::arith_message("/", a, b));
  return Int{a.value / b.value, a.is_static && b.is_static};
}

inline Int operator%(Int a, Int b) {
  detail::no_basis("%", a, b);
  if (b.value == 0) fail("modulo by zero: " + to_string(a) + " % " + to_string(b));
  if (is_static_value(a, 0) || is_static_value(b, 1) || is_static_value(b, -1)) return S(0);
  if (b.value == -1) return Int{0, a.is_static && b.is_static};
  return Int{a.value % b.value, a.is_static && b.is_static};
}

// min/max/abs/signum: static when every operand is static. min(_2, 5) = 2; abs(_-4) = _4.
inline Int min(Int a, Int b) {
  detail::no_basis("min", a, b);
  return Int{a.value < b.value ? a.value : b.value, a.is_static && b.is_static};
}
inline Int max(Int a, Int b) {
  detail::no_basis("max", a, b);
  return Int{a.value > b.value ? a.value : b.value, a.is_static && b.is_static};
}

// abs keeps a basis element's mode: abs(_-2@1) = _2@1 (the core's coshape takes |stride|).
inline Int abs(Int a) {
  if (a.value == INT64_MIN) fail("integer overflow: |" + to_string(a) + "| does not fit in int64");
  return Int{a.value < 0 ? -a.value : a.value, a.is_static, a.basis};
}

inline Int signum(Int a) {
  detail::no_basis("signum", a, S(1));
  return Int{(a.value > 0) - (a.value < 0), a.is_static};
}

// Comparisons: static when both sides are. _2 == _2 is _true; _2 < 3 is true. A basis element
// equals only a basis element of its mode (_1@0 == _1@1 and _1@0 == _1 are _false, as the core's).
inline Bool operator==(Int a, Int b) {
  if (a.basis != b.basis) return Bool{false, true};
  return Bool{a.value == b.value, a.is_static && b.is_static};
}
inline Bool operator<(Int a, Int b) {
  detail::no_basis("<", a, b);
  return Bool{a.value < b.value, a.is_static && b.is_static};
}

// True only when `a == b` is known statically (both static and equal, the same basis mode if any).
inline bool static_equal(Int a, Int b) {
  return a.is_static && b.is_static && a.value == b.value && a.basis == b.basis;
}

}  // namespace tessera::rt
