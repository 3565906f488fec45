// tessera/runtime/value.hpp -- the values of the `tessera eval` evaluator.
//
// A Value is anything an expression can produce: an IntTuple, a Layout, a Swizzle, a
// ComposedLayout, a Bool, a tuple of Values (tilers, make_layout_tv's (tiler, tv)), text
// (print_layout), or an atom, tiled MMA or tiled copy (runtime/mma_atom.hpp, runtime/copy_atom.hpp:
// named by the evaluator's name table, made by make_tiled_mma / make_tiled_copy). It prints in the
// library's notation: ((_16,_256),(_4,_8):(_8,_1)); an atom prints as its name.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/runtime/value.hpp: host only (the run-time twin); kernels use the static algebra, tessera/core/"
#endif

#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "tessera/runtime/copy_atom.hpp"
#include "tessera/runtime/swizzle.hpp"

namespace tessera::rt {

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
  std::variant<IntTuple, Layout, Swizzle, ComposedLayout, Bool, ValueTuple, Text, MmaAtom, CopyAtom, TiledMma,
               TiledCopy>
      v;

  Value() = default;
  Value(IntTuple t) : v(std::move(t)) {}        // NOLINT: implicit by design
  Value(Int i) : v(IntTuple(i)) {}              // NOLINT
  Value(Layout l) : v(std::move(l)) {}          // NOLINT
  Value(Swizzle s) : v(s) {}                    // NOLINT
  Value(ComposedLayout c) : v(std::move(c)) {}  // NOLINT
  Value(Bool b) : v(b) {}                       // NOLINT
  Value(ValueTuple t) : v(std::move(t)) {}      // NOLINT
  Value(Text t) : v(std::move(t)) {}            // NOLINT
  Value(MmaAtom a) : v(std::move(a)) {}         // NOLINT
  Value(CopyAtom a) : v(std::move(a)) {}        // NOLINT
  Value(TiledMma m) : v(std::move(m)) {}        // NOLINT
  Value(TiledCopy c) : v(std::move(c)) {}       // NOLINT

  template <class T>
  bool is() const {
    return std::holds_alternative<T>(v);
  }
  template <class T>
  const T& as() const {
    return std::get<T>(v);
  }
};

inline std::string to_string(const Value& value);

// The names an expression may use (atom/names.hpp: the atoms under CuTe's names).
using Names = std::map<std::string, Value, std::less<>>;
inline const Names& no_names() {
  static const Names none;
  return none;
}

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
