// Error reporting, the bottom of everything that checks: the exception type, the message format
// and the reference notation that messages (and print.hpp) write values in.
//
// Policy (docs/errors.md): a violated precondition on static operands is a compile-time error
// (TESSERA_REQUIRE -> static_assert); on dynamic operands it throws tessera::layout_error on the
// host, and on the device it is checked only when TESSERA_DEVICE_CHECKS is defined (then it prints
// the message and traps). Every header that checks a precondition includes this one, so any public
// header compiles and links on its own.
#pragma once

#if !defined(__CUDACC_RTC__)  // host only: printf's declaration, the exception, the message string
#include <cstdio>
#include <stdexcept>
#include <string>
#endif

#include "tessera/core/stdlib.hpp"
#include "tessera/core/tuple.hpp"

namespace tessera {

// The exception thrown when a precondition on dynamic operands fails on the host, by the
// compile-time algebra and by its run-time twin (tessera::rt) alike. Its message names the
// function, the violated condition, the offending values and the fix, e.g.
//   "ceil_div: the divisor must be positive (got 7, 0)".
#if !defined(__CUDACC_RTC__)  // host only: device code does not throw (fail, below)
struct layout_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
#endif  // !__CUDACC_RTC__

namespace detail {
template <class T>
inline constexpr bool always_false = false;

// The value of a static boolean type; true for dynamic types (checked at run time instead).
template <class T>
TESSERA_HOST_DEVICE constexpr bool static_truth() {
  if constexpr (std::is_empty_v<T>) {
    return static_cast<bool>(T::value);
  } else {
    return true;
  }
}

// The value of the static boolean type T, for TESSERA_STATIC_ASSERT_V (config.hpp); a dynamic T
// is an error.
template <class T>
TESSERA_HOST_DEVICE constexpr bool static_condition() {
  static_assert(std::is_empty_v<T>,
                "TESSERA_STATIC_ASSERT_V: the condition is not static (it depends on run-time values); "
                "build it from static integers (_8, Int<N>) or check it at run time");
  if constexpr (std::is_empty_v<T>) {
    return static_cast<bool>(T::value);
  } else {
    return true;
  }
}

// ---- the reference notation, written to a sink -------------------------------------------------
// `_8` static, `8` dynamic, `_true`/`true` booleans, `(a,b)` tuples; other types print themselves through a member
// `template <class Sink> void write_to(Sink&) const` (layouts, `_`, basis strides, swizzles,
// tensors).

// A character sink: printf on the device (and for print()), a std::string on the host.
struct printf_sink {
  TESSERA_HOST_DEVICE void put(const char* s) { printf("%s", s); }
  TESSERA_HOST_DEVICE void put_int(long long v) { printf("%lld", v); }
};
#if !defined(__CUDACC_RTC__)  // host only: std::string
// Host-only in effect: its members are host/device only so that nvcc accepts the host/device
// write() instantiated with it (to_string is a host function; the device bodies are empty).
struct string_sink {
  std::string out;
  TESSERA_HOST_DEVICE void put(const char* s) {
#if !defined(__CUDA_ARCH__)
    out += s;
#else
    (void)s;
#endif
  }
  TESSERA_HOST_DEVICE void put_int(long long v) {
#if !defined(__CUDA_ARCH__)
    out += std::to_string(v);
#else
    (void)v;
#endif
  }
};
// The text written by write(sink) into a string (host): one routine serves print and to_string.
template <class F>
std::string capture(F&& write) {
  string_sink k;
  write(k);
  return std::move(k.out);
}
#endif  // !__CUDACC_RTC__
}  // namespace detail

// Types that print themselves provide `template <class Sink> void write_to(Sink&) const`.
template <class T>
concept SelfPrinting = requires(T const& t, detail::printf_sink& k) { t.write_to(k); };

namespace detail {
template <class Sink, class T>
TESSERA_HOST_DEVICE void write(Sink& k, T const& x);

template <class Sink, class... Ts>
TESSERA_HOST_DEVICE void write_tuple(Sink& k, tuple<Ts...> const& t) {
  k.put("(");
  bool first = true;
  for_each(t, [&](auto const& e) {
    if (!first) k.put(",");
    first = false;
    write(k, e);
  });
  k.put(")");
}

// C<true> and C<false>: static booleans, written _true and _false.
template <class T>
inline constexpr bool is_static_bool_v = false;
template <bool b>
inline constexpr bool is_static_bool_v<C<b>> = true;

// write(k, x): x in the reference notation. write(k, make_tuple(_2{}, 4)) puts "(_2,4)".
template <class Sink, class T>
TESSERA_HOST_DEVICE void write(Sink& k, T const& x) {
  if constexpr (is_static_bool_v<T>) {
    k.put(T::value ? "_true" : "_false");  // a static boolean: C<true> is _true
  } else if constexpr (is_static_int_v<T>) {
    k.put("_");
    k.put_int(static_cast<long long>(T::value));
  } else if constexpr (std::is_same_v<T, bool>) {
    k.put(x ? "true" : "false");
  } else if constexpr (is_dynamic_int_v<T>) {
    k.put_int(static_cast<long long>(x));
  } else if constexpr (is_tuple_v<T>) {
    write_tuple(k, x);
  } else if constexpr (SelfPrinting<T>) {
    x.write_to(k);
  } else {
    static_assert(always_false<T>, "print: this type has no reference notation");
  }
}

// fail(msg, values...): reports a violated precondition on dynamic operands.
//   host:   throws layout_error("msg (got v0, v1, ...)"), the values in the reference notation;
//   device: with TESSERA_DEVICE_CHECKS, prints "tessera: msg" and traps; otherwise never called
//           (TESSERA_REQUIRE compiles to nothing on the device).
template <class... Ts>
[[noreturn]] TESSERA_HOST_DEVICE_NOINLINE void fail(const char* msg, Ts const&... values) {
#if !defined(__CUDA_ARCH__)
  string_sink k;
  k.put(msg);
  if constexpr (sizeof...(Ts) > 0) {
    k.put(" (got ");
    bool first = true;
    ((k.put(first ? "" : ", "), first = false, write(k, values)), ...);
    k.put(")");
  }
  throw layout_error(k.out);
#else
  printf("tessera: %s\n", msg);
  ((void)values, ...);
  __trap();
  __builtin_unreachable();
#endif
}
}  // namespace detail
}  // namespace tessera
