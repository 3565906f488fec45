// Drivers for the property tests: run a law check over many seeded random layouts of every kind
// (static, mixed, dynamic) and count the cases that were checked.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "random_layouts.hpp"

namespace tessera::test {

inline constexpr long long kMinCasesPerOperation = 10000;

// Case counts per kind, reported so a reader sees what was covered.
struct Coverage {
  long long static_cases = 0, mixed_cases = 0, dynamic_cases = 0, rejected = 0;
  long long total() const { return static_cases + mixed_cases + dynamic_cases; }
  void report(const char* op) const {
    std::printf("[ laws ] %-18s static %lld, mixed %lld, dynamic %lld (rejected inputs: %lld)\n", op, static_cases,
                mixed_cases, dynamic_cases, rejected);
  }
};

// Seeds: NS distinct static layouts (each its own type: the costly part to compile), NM mixed
// layout types with many run-time draws each, and dynamic layouts (few distinct types: the
// nesting repeats) with many run-time draws. Together at least kMinCasesPerOperation cases.
// A mixed type costs the compiler about twice a static one (docs/performance/log.md, "Compile
// cost"), so there are four, each drawn kMixedDrawFactor times as often: as many mixed cases as
// eight types of kDraws draws gave.
inline constexpr std::size_t kStaticSeeds = 16;
inline constexpr std::size_t kMixedSeeds = 4;
inline constexpr int kDraws = 420;
inline constexpr int kMixedDrawFactor = 2;

// Runs check(layout); check returns false when the input is outside the operation's domain
// (counted as rejected).
template <Family F, int MSL, std::uint64_t Seed0, class Check>
Coverage run_unary(Check&& check, int draws = kDraws) {
  Coverage c;
  std::mt19937_64 rng(Seed0 * 7919 + 17);
  for_seeds<Seed0, kStaticSeeds>([&](auto seed) {
    constexpr std::uint64_t S = decltype(seed)::value;
    (check(random_layout<S, F, Kind::Static, MSL>(0)) ? c.static_cases : c.rejected)++;
    // Injective mixed layouts keep their compile-time values, so one draw each.
    int const dyn_draws = F == Family::General ? draws : draws + draws / 2;
    for (int d = 0; d < dyn_draws; ++d)
      (check(random_layout<S, F, Kind::Dynamic, MSL>(rng())) ? c.dynamic_cases : c.rejected)++;
  });
  for_seeds<Seed0 + 500, kMixedSeeds>([&](auto seed) {
    constexpr std::uint64_t S = decltype(seed)::value;
    int const mixed_draws = F == Family::General ? kMixedDrawFactor * draws : 1;
    for (int d = 0; d < mixed_draws; ++d)
      (check(random_layout<S, F, Kind::Mixed, MSL>(rng())) ? c.mixed_cases : c.rejected)++;
  });
  return c;
}

// The same for pairs (A of family FA, B of family FB, same kind).
template <Family FA, int MA, Family FB, int MB, std::uint64_t Seed0, class Check>
Coverage run_binary(Check&& check, int draws = kDraws) {
  Coverage c;
  std::mt19937_64 rng(Seed0 * 104729 + 3);
  for_seeds<Seed0, kStaticSeeds>([&](auto seed) {
    constexpr std::uint64_t S = decltype(seed)::value;
    constexpr std::uint64_t T = S * 31 + 1000003;
    (check(random_layout<S, FA, Kind::Static, MA>(0), random_layout<T, FB, Kind::Static, MB>(0)) ? c.static_cases
                                                                                                 : c.rejected)++;
    for (int d = 0; d < draws; ++d)
      (check(random_layout<S, FA, Kind::Dynamic, MA>(rng()), random_layout<T, FB, Kind::Dynamic, MB>(rng()))
           ? c.dynamic_cases
           : c.rejected)++;
  });
  for_seeds<Seed0 + 500, kMixedSeeds>([&](auto seed) {
    constexpr std::uint64_t S = decltype(seed)::value;
    constexpr std::uint64_t T = S * 31 + 1000003;
    for (int d = 0; d < kMixedDrawFactor * draws; ++d)
      (check(random_layout<S, FA, Kind::Mixed, MA>(rng()), random_layout<T, FB, Kind::Mixed, MB>(rng()))
           ? c.mixed_cases
           : c.rejected)++;
  });
  return c;
}

inline void expect_coverage(Coverage const& c, const char* op) {
  c.report(op);
  EXPECT_GE(c.total(), kMinCasesPerOperation) << op << ": too few cases were checked";
  EXPECT_GT(c.static_cases, 0) << op;
  EXPECT_GT(c.mixed_cases, 0) << op;
  EXPECT_GT(c.dynamic_cases, 0) << op;
}

// True when composition(A, B) of these types is refused at compile time (the operands are static
// and B's modes carry into one another in A): such a call would not compile.
template <class A, class B>
constexpr bool composition_refused_statically() {
  using OK =
      decltype(detail::check_distributes(wrap(detail::coalesce_x(A{}).shape()), wrap(detail::coalesce_x(A{}).stride()),
                                         flatten_to_tuple(B{}.shape()), flatten_to_tuple(B{}.stride())));
  if constexpr (is_static_v<OK>) {
    return !OK::value;
  } else {
    return false;
  }
}

inline std::set<long long> value_set(std::vector<long long> const& v) { return {v.begin(), v.end()}; }

}  // namespace tessera::test
