// tessera/runtime/value.hpp -- the run-time-structured values of the layout algebra.
//
// The run-time twin of include/tessera/core/: here the nesting of a shape is data, not a type,
// so one program can build and transform any layout (the `tessera eval` command, the tools).
// Every integer remembers whether the compile-time algebra would know it statically (`_8`) or
// only at run time (`8`); docs/algebra.md fixes that bit for every operation.
//
//   Int            one integer: value + is_static           _8, 8, _-1
//   IntTuple       an Int, a tuple of IntTuples, or `_`     ((_2,3),4)
//   Layout         shape:stride, congruent                  (_2,4):(4,_1)
//   Swizzle        Sw<B,M,S>                                Sw<3,3,3>
//   ComposedLayout swizzle o offset o layout                Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
//   Bool           a predicate result, static or not        _true, false
//   Value          any of the above or a tuple of Values    ((_16,_256),(_4,_8):(_8,_1))
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace tessera::rt {

// Every violated precondition of the run-time algebra throws this (message: function,
// condition, offending values, fix).
struct error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

[[noreturn]] inline void fail(const std::string& message) { throw error(message); }

// ---- Int -------------------------------------------------------------------------------------

struct Int {
  std::int64_t value = 0;
  bool is_static = false;
};

inline Int S(std::int64_t v) { return Int{v, true}; }   // static integer `_v`
inline Int D(std::int64_t v) { return Int{v, false}; }  // dynamic integer `v`

inline bool is_static_value(Int a, std::int64_t v) { return a.is_static && a.value == v; }

inline std::string to_string(Int a) {
  return (a.is_static ? "_" : "") + std::to_string(a.value);
}

// Predicate results: static when the compile-time algebra decides them from types alone.
struct Bool {
  bool value = false;
  bool is_static = false;
};

inline std::string to_string(Bool b) {
  return std::string(b.is_static ? "_" : "") + (b.value ? "true" : "false");
}

// ---- checked integer arithmetic with the static rules of docs/algebra.md --------------------
// op(static, static) is static; absorbing rules: _0*x, x*_0, _0/x, _0%x, x%_1, x%_-1 are _0.

namespace detail {
inline std::string arith_message(const char* op, Int a, Int b) {
  return "integer overflow: " + to_string(a) + " " + op + " " + to_string(b) +
         " does not fit in int64; use smaller extents";
}
}  // namespace detail

inline Int operator+(Int a, Int b) {
  std::int64_t r;
  if (__builtin_add_overflow(a.value, b.value, &r)) fail(detail::arith_message("+", a, b));
  return Int{r, a.is_static && b.is_static};
}

inline Int operator-(Int a, Int b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a.value, b.value, &r)) fail(detail::arith_message("-", a, b));
  return Int{r, a.is_static && b.is_static};
}

inline Int operator*(Int a, Int b) {
  if (is_static_value(a, 0) || is_static_value(b, 0)) return S(0);
  std::int64_t r;
  if (__builtin_mul_overflow(a.value, b.value, &r)) fail(detail::arith_message("*", a, b));
  return Int{r, a.is_static && b.is_static};
}

inline Int operator/(Int a, Int b) {
  if (b.value == 0) fail("division by zero: " + to_string(a) + " / " + to_string(b));
  if (is_static_value(a, 0)) return S(0);
  if (a.value == INT64_MIN && b.value == -1) fail(detail::arith_message("/", a, b));
  return Int{a.value / b.value, a.is_static && b.is_static};
}

inline Int operator%(Int a, Int b) {
  if (b.value == 0) fail("modulo by zero: " + to_string(a) + " % " + to_string(b));
  if (is_static_value(a, 0) || is_static_value(b, 1) || is_static_value(b, -1)) return S(0);
  if (b.value == -1) return Int{0, a.is_static && b.is_static};
  return Int{a.value % b.value, a.is_static && b.is_static};
}

inline Int min(Int a, Int b) { return Int{a.value < b.value ? a.value : b.value, a.is_static && b.is_static}; }
inline Int max(Int a, Int b) { return Int{a.value > b.value ? a.value : b.value, a.is_static && b.is_static}; }

inline Int abs(Int a) {
  if (a.value == INT64_MIN) fail("integer overflow: |" + to_string(a) + "| does not fit in int64");
  return Int{a.value < 0 ? -a.value : a.value, a.is_static};
}

inline Int signum(Int a) { return Int{(a.value > 0) - (a.value < 0), a.is_static}; }

inline Bool operator==(Int a, Int b) { return Bool{a.value == b.value, a.is_static && b.is_static}; }
inline Bool operator<(Int a, Int b) { return Bool{a.value < b.value, a.is_static && b.is_static}; }

// True only when `a == b` is known statically (both static and equal).
inline bool static_equal(Int a, Int b) { return a.is_static && b.is_static && a.value == b.value; }

// ---- IntTuple --------------------------------------------------------------------------------

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

// ---- Layout, Swizzle, ComposedLayout -------------------------------------------------------

// A function from coordinates to offsets; shape and stride are congruent.
struct Layout {
  IntTuple shape;
  IntTuple stride;
};

inline std::string to_string(const Layout& l) { return to_string(l.shape) + ":" + to_string(l.stride); }

// Sw<B,M,S>: x ^ ((x >> S) & (((1 << B) - 1) << M)), S < 0 shifts left.
struct Swizzle {
  int bits = 0;
  int base = 0;
  int shift = 0;
};

inline std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

// c -> swizzle(offset + inner(c)).
struct ComposedLayout {
  Swizzle swizzle;
  Int offset;
  Layout inner;
};

inline std::string to_string(const ComposedLayout& c) {
  return to_string(c.swizzle) + " o " + to_string(c.offset) + " o " + to_string(c.inner);
}

// ---- Value -----------------------------------------------------------------------------------

struct Value;

// A tuple of values: tilers `[L0,L1]` and results such as make_layout_tv's (tiler, tv).
struct ValueTuple {
  std::vector<Value> items;
};

// Multi-line text (print_layout).
struct Text {
  std::string text;
};

struct Value {
  std::variant<IntTuple, Layout, Swizzle, ComposedLayout, Bool, ValueTuple, Text> v;

  Value() = default;
  Value(IntTuple t) : v(std::move(t)) {}  // NOLINT: implicit by design
  Value(Int i) : v(IntTuple(i)) {}        // NOLINT
  Value(Layout l) : v(std::move(l)) {}    // NOLINT
  Value(Swizzle s) : v(s) {}              // NOLINT
  Value(ComposedLayout c) : v(std::move(c)) {}  // NOLINT
  Value(Bool b) : v(b) {}                 // NOLINT
  Value(ValueTuple t) : v(std::move(t)) {}  // NOLINT
  Value(Text t) : v(std::move(t)) {}      // NOLINT

  template <class T> bool is() const { return std::holds_alternative<T>(v); }
  template <class T> const T& as() const { return std::get<T>(v); }
};

inline std::string to_string(const Value& value);

inline std::string to_string(const ValueTuple& t) {
  std::string out = "(";
  for (std::size_t i = 0; i < t.items.size(); ++i) {
    if (i) out += ",";
    out += to_string(t.items[i]);
  }
  return out + ")";
}

inline std::string to_string(const Text& t) { return t.text; }

inline std::string to_string(const Value& value) {
  return std::visit([](const auto& x) { return to_string(x); }, value.v);
}

}  // namespace tessera::rt
