// Seeded random layouts for property tests: the nesting and the static values come from a
// compile-time seed (so static layouts are real static types), dynamic leaves get run-time
// values. Kinds: all-static, mixed (a seed-chosen subset of leaves dynamic), all-dynamic.
//
// Families:
//   general   - shapes 1..8, strides 0 or powers of two (composition of powers of two is always
//               defined, so static cases never hit a compile-time error);
//   injective - strides chosen so the layout is injective with strides that divide one another
//               (valid input for complement, left_inverse, products and divide tilers).
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "tessera/tessera.hpp"

namespace tessera::test {

enum class Kind { Static, Mixed, Dynamic };
enum class Family { General, Injective };

constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}
constexpr std::uint64_t pick(std::uint64_t seed, std::uint64_t k, std::uint64_t n) {
  return mix64(seed * 0x2545F4914F6CDD1DULL ^ mix64(k + 1)) % n;
}

constexpr int max_leaves = 6;

// A layout's description: up to 3 modes, each a leaf (count 0) or a tuple of 2 leaves.
struct Spec {
  int rank = 1;
  bool scalar = false;  // rank-1 integer layout (no tuple)
  int count[3] = {0, 0, 0};
  int leaves = 0;
  long long shape[max_leaves] = {};
  long long stride[max_leaves] = {};
};

// Values for a structure: general or injective family.
constexpr void fill_values(Spec& s, std::uint64_t seed, Family f, int max_shape_log) {
  // Injective layouts get shapes >= 2: a dynamic size-1 mode with a colliding stride is not
  // recognisable as harmless (only a static _1 is).
  int const min_log = f == Family::Injective ? 1 : 0;
  for (int i = 0; i < s.leaves; ++i) {
    s.shape[i] = 1LL << (min_log + int(pick(seed, 100 + i, std::uint64_t(max_shape_log + 1 - min_log))));
  }
  if (f == Family::General) {
    for (int i = 0; i < s.leaves; ++i) {
      s.stride[i] = pick(seed, 200 + i, 8) == 0 ? 0 : (1LL << pick(seed, 300 + i, 6));
    }
  } else {
    // Injective: visit leaves in a random order, each stride = previous extent * 2^gap.
    int order[max_leaves] = {};
    for (int i = 0; i < s.leaves; ++i) order[i] = i;
    for (int i = s.leaves - 1; i > 0; --i) {
      int j = int(pick(seed, 400 + i, std::uint64_t(i + 1)));
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    long long cur = 1LL << pick(seed, 500, 2);
    for (int k = 0; k < s.leaves; ++k) {
      int i = order[k];
      s.stride[i] = cur;
      cur = cur * s.shape[i] * (1LL << pick(seed, 600 + k, 2));
    }
  }
}

constexpr Spec make_spec(std::uint64_t seed, Family f, int max_shape_log = 3) {
  Spec s{};
  s.rank = 1 + int(pick(seed, 1, 3));
  s.scalar = s.rank == 1 && pick(seed, 2, 2) == 0;
  for (int m = 0; m < s.rank; ++m) {
    s.count[m] = (s.scalar || pick(seed, 10 + m, 2) == 0) ? 0 : 2;
    s.leaves += s.count[m] == 0 ? 1 : 2;
  }
  fill_values(s, seed, f, max_shape_log);
  return s;
}

constexpr bool leaf_is_dynamic(std::uint64_t seed, Kind k, int leaf, bool stride) {
  if (k == Kind::Static) return false;
  if (k == Kind::Dynamic) return true;
  return pick(seed, 700 + leaf + (stride ? 16 : 0), 2) == 0;
}

// The C++ type of a spec'd layout: static leaves C<v>, dynamic leaves int.
template <std::uint64_t Seed, Family F, Kind K, int MaxShapeLog>
struct layout_type {
  static constexpr Spec spec = make_spec(Seed, F, MaxShapeLog);
  template <int Leaf, bool IsStride>
  using leaf = std::conditional_t<leaf_is_dynamic(Seed, K, Leaf, IsStride), int,
                                  C<int(IsStride ? spec.stride[Leaf] : spec.shape[Leaf])>>;
  template <int Mode, bool IsStride>
  static constexpr int first_leaf() {
    int n = 0;
    for (int m = 0; m < Mode; ++m) n += spec.count[m] == 0 ? 1 : 2;
    return n;
  }
  template <int Mode, bool IsStride>
  using mode = std::conditional_t<
      spec.count[Mode] == 0, leaf<first_leaf<Mode, IsStride>(), IsStride>,
      tuple<leaf<first_leaf<Mode, IsStride>(), IsStride>, leaf<first_leaf<Mode, IsStride>() + 1, IsStride>>>;
  template <bool IsStride, std::size_t... Ms>
  static auto modes(std::index_sequence<Ms...>) -> tuple<mode<int(Ms), IsStride>...>;
  template <bool IsStride>
  using part =
      std::conditional_t<spec.scalar, leaf<0, IsStride>,
                         decltype(modes<IsStride>(std::make_index_sequence<(spec.rank < 1 ? 1 : spec.rank)>{}))>;
  using shape = part<false>;
  using stride = part<true>;
};

// Fills the dynamic leaves of a default-constructed IntTuple type from a list of values.
template <class T>
T fill_dynamic(long long const* values, int& next) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      // Evaluate left to right: braced initialisation sequences the calls.
      return T{fill_dynamic<tuple_element_t<Is, T>>(values, next)...};
    }(std::make_index_sequence<tuple_size_v<T>>{});
  } else if constexpr (is_static_int_v<T>) {
    ++next;
    return T{};
  } else {
    return T(values[next++]);
  }
}

// A random layout of the given seed/family/kind. Dynamic leaves take values from run-time spec
// `rt_seed` for the general family (any powers of two stay valid) and from the compile-time spec
// for the injective family (so mixed static/dynamic values keep the layout injective), unless
// every leaf is dynamic, where the run-time spec is used whole.
template <std::uint64_t Seed, Family F, Kind K, int MaxShapeLog = 3>
auto random_layout(std::uint64_t rt_seed) {
  using LT = layout_type<Seed, F, K, MaxShapeLog>;
  Spec s = LT::spec;
  if (K == Kind::Dynamic || F == Family::General) {
    Spec r = s;
    fill_values(r, rt_seed, F, MaxShapeLog);
    s = r;
  }
  int next = 0;
  auto shape = fill_dynamic<typename LT::shape>(s.shape, next);
  next = 0;
  auto stride = fill_dynamic<typename LT::stride>(s.stride, next);
  return make_layout(shape, stride);
}

// All values of a layout over its domain, as 64-bit integers.
template <class L>
std::vector<long long> values(L const& l) {
  std::vector<long long> v;
  long long n = static_cast<long long>(size(l));
  v.reserve(std::size_t(n));
  for (long long i = 0; i < n; ++i) v.push_back(static_cast<long long>(l(i)));
  return v;
}

// Calls f(std::integral_constant<uint64_t, Seed0 + i>) for i in [0, N).
template <std::uint64_t Seed0, std::size_t N, class F>
void for_seeds(F&& f) {
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    (f(std::integral_constant<std::uint64_t, Seed0 + Is>{}), ...);
  }(std::make_index_sequence<N>{});
}

}  // namespace tessera::test
