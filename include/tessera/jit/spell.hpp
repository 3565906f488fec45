// Run-time layouts spelled as C++ (host only): the bridge from a layout known while the program
// runs (runtime/, e.g. built from a tensor's shape and strides) to a kernel template compiled for
// it by the JIT.
//
//   rt::Layout l = rt::make_layout(T("(_2048,_2048)"), T("(_2048,_1)"));
//   spell_type(l)   ->  "tessera::Layout<tessera::Shape<tessera::Int<2048>,tessera::Int<2048>>,
//                         tessera::Stride<tessera::Int<2048>,tessera::Int<1>>>"   (one line)
//
// Static integers (`_8`) become tessera::Int<8>, so the kernel's index arithmetic folds at compile
// time; dynamic ones (`8`) become `int`, and their values reach the kernel as arguments:
// spell_value(l, "d") is an expression that builds the layout from an array `d` of the dynamic
// values, in the order dynamic_values(l) lists them (leaves left to right, shape then stride).
//
//   l = (2048,_1):(_1,2048)
//   spell_type(l)        ->  "tessera::Layout<tessera::Shape<int,tessera::Int<1>>,tessera::Stride<tessera::Int<1>,int>>"
//   spell_value(l, "d")  ->  "tessera::make_layout(tessera::make_tuple(int(d[0]),tessera::Int<1>{}),
//                              tessera::make_tuple(tessera::Int<1>{},int(d[1])))"
//   dynamic_values(l)    ->  {2048, 2048}
//
// Basis strides (`_1@0`) spell tessera::ScaledBasis<tessera::Int<1>,0>; swizzled layouts
// tessera::ComposedLayout<tessera::Swizzle<B,M,S>,Offset,Layout>.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/spell.hpp: host only"
#endif

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/jit/nvrtc.hpp"  // jit_error
#include "tessera/runtime/layout.hpp"
#include "tessera/runtime/swizzle.hpp"

namespace tessera::jit {

namespace detail {

inline std::string spell_int(rt::Int i) {
  std::string const base = i.is_static ? "tessera::Int<" + std::to_string(i.value) + ">" : "int";
  if (i.basis < 0) return base;
  return "tessera::ScaledBasis<" + base + "," + std::to_string(i.basis) + ">";
}

inline std::string spell_tuple_type(rt::IntTuple const& t, char const* tuple_name) {
  if (t.is_underscore()) throw jit_error("spell_type: `_` (a slicing wildcard) is not a layout's shape or stride");
  if (t.is_int()) return spell_int(t.as_int());
  std::string s = std::string(tuple_name) + "<";
  for (std::size_t i = 0; i < t.children().size(); ++i)
    s += (i ? "," : "") + spell_tuple_type(t.children()[i], "tessera::tuple");
  return s + ">";
}

inline std::string spell_tuple_value(rt::IntTuple const& t, std::string const& array, int& next) {
  if (t.is_underscore()) throw jit_error("spell_value: `_` (a slicing wildcard) is not a layout's shape or stride");
  if (t.is_int()) {
    rt::Int const i = t.as_int();
    std::string v = i.is_static ? "tessera::Int<" + std::to_string(i.value) + ">{}"
                                : "int(" + array + "[" + std::to_string(next++) + "])";
    if (i.basis < 0) return v;
    return spell_int(i) + "(" + v + ")";
  }
  std::string s = "tessera::make_tuple(";
  for (std::size_t k = 0; k < t.children().size(); ++k)
    s += (k ? "," : "") + spell_tuple_value(t.children()[k], array, next);
  return s + ")";
}

inline void collect_dynamic(rt::IntTuple const& t, std::vector<std::int64_t>& out) {
  if (t.is_int()) {
    if (!t.as_int().is_static) out.push_back(t.as_int().value);
    return;
  }
  for (auto const& c : t.children()) collect_dynamic(c, out);
}

}  // namespace detail

// The C++ type of `l` (Tessera's names, fully qualified, no spaces).
inline std::string spell_type(rt::Layout const& l) {
  return "tessera::Layout<" + detail::spell_tuple_type(l.shape, "tessera::Shape") + "," +
         detail::spell_tuple_type(l.stride, "tessera::Stride") + ">";
}

inline std::string spell_type(rt::Swizzle const& s) {
  return "tessera::Swizzle<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) +
         ">";
}

inline std::string spell_type(rt::ComposedLayout const& c) {
  return "tessera::ComposedLayout<" + spell_type(c.swizzle) + "," + detail::spell_int(c.offset) + "," +
         spell_type(c.inner) + ">";
}

// The dynamic integers of `l`, in the order spell_value reads them.
inline std::vector<std::int64_t> dynamic_values(rt::Layout const& l) {
  std::vector<std::int64_t> v;
  detail::collect_dynamic(l.shape, v);
  detail::collect_dynamic(l.stride, v);
  return v;
}

// An expression of type spell_type(l) that reads the dynamic integers from `array[0..]`.
inline std::string spell_value(rt::Layout const& l, std::string const& array) {
  int next = 0;
  std::string const shape = detail::spell_tuple_value(l.shape, array, next);
  std::string const stride = detail::spell_tuple_value(l.stride, array, next);
  // A rank-0 or integer shape: make_layout of the integers themselves.
  return "tessera::make_layout(" + shape + "," + stride + ")";
}

// `l` with every integer static (as a tensor's shape and strides are when a kernel is specialized
// on them), except the shape leaves whose index (leaves counted left to right) is in
// `dynamic_shape` and the stride leaves in `dynamic_stride`: one kernel compiled for the result
// serves every value of those (e.g. a matrix's row count and row stride).
inline rt::Layout make_static(rt::Layout const& l, std::vector<int> const& dynamic_shape = {},
                              std::vector<int> const& dynamic_stride = {}) {
  auto mark = [](rt::IntTuple const& t, std::vector<int> const& dynamic) {
    int leaf = 0;
    auto go = [&](auto&& self, rt::IntTuple const& x) -> rt::IntTuple {
      if (x.is_int()) {
        rt::Int i = x.as_int();
        i.is_static = std::find(dynamic.begin(), dynamic.end(), leaf++) == dynamic.end();
        return i;
      }
      std::vector<rt::IntTuple> kids;
      for (auto const& c : x.children()) kids.push_back(self(self, c));
      return rt::make_tuple(std::move(kids));
    };
    return go(go, t);
  };
  return rt::Layout{mark(l.shape, dynamic_shape), mark(l.stride, dynamic_stride)};
}

}  // namespace tessera::jit
