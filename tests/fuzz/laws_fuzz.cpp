// libFuzzer target: the laws of the run-time algebra (docs/algebra.md, "Laws worth
// property-testing") on layouts built from the input bytes (rank 1-3, nested modes, shapes 1-8,
// strides -8..64 with 0, each integer static or dynamic). Every operation either obeys its law or
// refuses with a tessera::layout_error, and a refusal that calls a layout "not injective" must be
// true. A broken law aborts with the operation, its operands and the result.
//   composition   R(i) == A(B(i)) for every i < size(B)
//   complement    R strictly increasing, R(i) != A(j) for i >= 1, (A,R) reaches [0, M) at least
//   right_inverse L(R(i)) == i, negative strides included (R(i) may then be < 0; also
//                 right_inverse_static, the core's rule)
//   left_inverse  R(L(i)) == i (L injective)
//   coalesce      same size and values;  logical_divide: layout<0>(zipped_divide(A,T)) == A o T
//   logical_product  layout<0>(logical_product(A,B)) == A
//   make_layout_tv   tv is a bijection from [0, size(tv)) onto the tile [0, size(tiler))
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "tessera/runtime/eval.hpp"

namespace {

namespace rt = tessera::rt;

[[noreturn]] void broken(const std::string& law, const std::string& what) {
  std::fprintf(stderr, "law broken: %s: %s\n", law.c_str(), what.c_str());
  std::abort();
}

rt::Int integer(FuzzedDataProvider& in, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = in.ConsumeIntegralInRange<std::int64_t>(lo, hi);
  return in.ConsumeBool() ? rt::S(v) : rt::D(v);
}

// A mode: an integer leaf, or (at depth < 2) a tuple of 1-2 leaves.
void mode(FuzzedDataProvider& in, int depth, rt::IntTuple& s, rt::IntTuple& d) {
  if (depth < 2 && in.ConsumeIntegralInRange<int>(0, 3) == 0) {
    std::vector<rt::IntTuple> ss, ds;
    const int n = in.ConsumeIntegralInRange<int>(1, 2);
    for (int i = 0; i < n; ++i) {
      rt::IntTuple a, b;
      mode(in, depth + 1, a, b);
      ss.push_back(a);
      ds.push_back(b);
    }
    s = rt::make_tuple(ss);
    d = rt::make_tuple(ds);
    return;
  }
  s = integer(in, 1, 8);
  d = in.ConsumeIntegralInRange<int>(0, 5) == 0 ? integer(in, -8, 0) : integer(in, 0, 64);
}

rt::Layout layout(FuzzedDataProvider& in) {
  const int r = in.ConsumeIntegralInRange<int>(1, 3);
  if (r == 1) {
    rt::IntTuple s, d;
    mode(in, 1, s, d);
    return rt::make_layout(s, d);
  }
  std::vector<rt::IntTuple> ss, ds;
  for (int i = 0; i < r; ++i) {
    rt::IntTuple s, d;
    mode(in, 0, s, d);
    ss.push_back(s);
    ds.push_back(d);
  }
  return rt::make_layout(rt::make_tuple(ss), rt::make_tuple(ds));
}

std::int64_t at(const rt::Layout& l, std::int64_t i) { return rt::evaluate(l, rt::IntTuple(rt::D(i))).value; }
std::string str(const rt::Layout& l) { return rt::to_string(l); }

bool injective(const rt::Layout& l) {
  std::set<std::int64_t> seen;
  for (std::int64_t i = 0; i < rt::size(l).value; ++i)
    if (!seen.insert(at(l, i)).second) return false;
  return true;
}

// A refusal that claims "not injective" must be true.
void refusal(const std::string& op, const rt::Layout& l, const tessera::layout_error& e) {
  const std::string m = e.what();
  if (m.find("so it is not injective") != std::string::npos && injective(l)) broken(op + " refusal", str(l) + ": " + m);
}

void check_composition(const rt::Layout& a, const rt::Layout& b) {
  rt::Layout r;
  try {
    r = rt::composition(a, b);
  } catch (const tessera::layout_error&) {
    return;
  }
  if (rt::size(r).value != rt::size(b).value) broken("composition size", str(a) + " o " + str(b) + " = " + str(r));
  for (std::int64_t i = 0; i < rt::size(b).value; ++i) {
    const std::int64_t bi = at(b, i);
    if (bi < 0) return;  // A(B(i)) below A's domain: no law to check (beyond it, A is as written)
    if (at(r, i) != at(a, bi))
      broken("composition", str(a) + " o " + str(b) + " = " + str(r) + " at " + std::to_string(i));
  }
}

void check_complement(const rt::Layout& a, std::int64_t m) {
  rt::Layout r;
  try {
    r = rt::complement(a, rt::IntTuple(rt::D(m)));
  } catch (const tessera::layout_error& e) {
    refusal("complement", a, e);
    return;
  }
  const std::string what = "complement(" + str(a) + ", " + std::to_string(m) + ") = " + str(r);
  const std::int64_t n = rt::size(r).value;
  for (std::int64_t i = 1; i < n; ++i)
    if (at(r, i) <= at(r, i - 1)) broken("complement increasing", what);
  std::set<std::int64_t> image;
  for (std::int64_t j = 0; j < rt::size(a).value; ++j) image.insert(at(a, j));
  for (std::int64_t i = 1; i < n; ++i)
    if (image.count(at(r, i))) broken("complement disjoint", what);
  if (!injective(a)) return;
  std::vector<bool> covered(static_cast<std::size_t>(m > 0 ? m : 0), false);
  for (std::int64_t i = 0; i < n; ++i)
    for (auto x : image)
      if (x + at(r, i) >= 0 && x + at(r, i) < m) covered[static_cast<std::size_t>(x + at(r, i))] = true;
  for (std::int64_t k = 0; k < m; ++k)
    if (!covered[static_cast<std::size_t>(k)])
      broken("complement covers [0, M)", what + " misses " + std::to_string(k));
}

bool has_negative_stride(const rt::Layout& l) {
  std::vector<rt::IntTuple> d;
  rt::detail::leaves_into(l.stride, d);
  for (const auto& x : d)
    if (x.as_int().value < 0) return true;
  return false;
}

void check_inverses(const rt::Layout& l) {
  // Negative strides included: right_inverse takes a negative stride only as the whole chain, so
  // that R never reaches an index that L decodes into other coordinates ((3,(2,5)):(-2,(1,-6))
  // once gave an R with L(R(i)) != i; docs/robustness.md). With a negative stride R(i) may be
  // below 0, where L is evaluated as at any index (right_inverse(_4:_-1) = _4:_-1: R(1) = -1,
  // L(-1) = 1, docs/algebra.md); with none, R(i) must lie in [0, size(L)).
  // right_inverse_static is the compile-time algebra's rule (static strides only), the same law.
  const bool negative = has_negative_stride(l);
  for (const bool by_value : {true, false}) {
    try {
      const rt::Layout r = by_value ? rt::right_inverse(l) : rt::right_inverse_static(l);
      for (std::int64_t i = 0; i < rt::size(r).value; ++i) {
        const std::int64_t ri = at(r, i);
        if ((!negative && (ri < 0 || ri >= rt::size(l).value)) || at(l, ri) != i)
          broken(by_value ? "right_inverse" : "right_inverse_static",
                 str(l) + " -> " + str(r) + " at " + std::to_string(i));
      }
    } catch (const tessera::layout_error&) {
    }
  }
  try {
    const rt::Layout r = rt::left_inverse(l);
    if (injective(l))
      for (std::int64_t i = 0; i < rt::size(l).value; ++i)
        if (at(r, at(l, i)) != i) broken("left_inverse", str(l) + " -> " + str(r) + " at " + std::to_string(i));
  } catch (const tessera::layout_error& e) {
    refusal("left_inverse", l, e);
  }
}

void check_coalesce(const rt::Layout& l) {
  try {
    const rt::Layout c = rt::coalesce(l);
    if (rt::size(c).value != rt::size(l).value) broken("coalesce size", str(l) + " -> " + str(c));
    for (std::int64_t i = 0; i < rt::size(l).value; ++i)
      if (at(c, i) != at(l, i)) broken("coalesce", str(l) + " -> " + str(c));
  } catch (const tessera::layout_error&) {
  }
}

void check_divide_product(const rt::Layout& a, const rt::Layout& t) {
  try {
    const rt::Layout z = rt::zipped_divide(a, t);
    const rt::Layout c = rt::composition(a, t);
    const rt::Layout z0 = rt::layout(z, 0);
    if (rt::size(z0).value != rt::size(c).value) broken("zipped_divide", str(a) + " / " + str(t));
    for (std::int64_t i = 0; i < rt::size(c).value; ++i)
      if (at(z0, i) != at(c, i)) broken("zipped_divide", str(a) + " / " + str(t) + " = " + str(z));
  } catch (const tessera::layout_error&) {
  }
  try {
    const rt::Layout p = rt::logical_product(a, t);
    const rt::Layout p0 = rt::layout(p, 0);
    for (std::int64_t i = 0; i < rt::size(a).value; ++i)
      if (at(p0, i) != at(a, i)) broken("logical_product", str(a) + " x " + str(t) + " = " + str(p));
  } catch (const tessera::layout_error&) {
  }
}

void check_tv(const rt::Layout& thr, const rt::Layout& val) {
  try {
    const auto [tiler, tv] = rt::make_layout_tv(thr, val);
    const std::int64_t n = rt::size(tv).value;
    if (n != rt::size(tiler).value) broken("make_layout_tv size", str(thr) + ", " + str(val) + " -> " + str(tv));
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t o = at(tv, i);
      if (o < 0 || o >= n || seen[static_cast<std::size_t>(o)])
        broken("make_layout_tv bijection", str(thr) + ", " + str(val) + " -> " + str(tv));
      seen[static_cast<std::size_t>(o)] = true;
    }
  } catch (const tessera::layout_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  rt::Layout a, b;
  try {
    a = layout(in);
    b = layout(in);
  } catch (const tessera::layout_error&) {
    return 0;
  }
  if (rt::size(a).value > 512 || rt::size(b).value > 512) return 0;  // fast under the sanitizers
  check_coalesce(a);
  check_inverses(a);
  check_complement(a, in.ConsumeIntegralInRange<std::int64_t>(-2, 600));
  check_composition(a, b);
  check_divide_product(a, b);
  check_tv(a, b);
  return 0;
}
