// Tests for include/tessera/atom/mma_traits.hpp: UniversalFMA's traits (a 1x1x1 tile, one thread).
#include <gtest/gtest.h>

#include <type_traits>

#include "tessera/atom/mma_traits.hpp"
#include "tessera/core/print.hpp"

using namespace tessera;

TEST(MmaTraits, UniversalFmaIsOneThreadOneElement) {
  using T = MMA_Traits<UniversalFMA<float>>;
  static_assert(std::is_same_v<T::ValTypeD, float> && std::is_same_v<T::ValTypeA, float>);
  static_assert(std::is_same_v<T::ValTypeB, float> && std::is_same_v<T::ValTypeC, float>);
  EXPECT_EQ(to_string(T::Shape_MNK{}), "(_1,_1,_1)");
  EXPECT_EQ(to_string(T::ThrID{}), "_1:_0");
  EXPECT_EQ(to_string(T::ALayout{}), "(_1,_1):(_0,_0)");
  EXPECT_EQ(to_string(T::BLayout{}), "(_1,_1):(_0,_0)");
  EXPECT_EQ(to_string(T::CLayout{}), "(_1,_1):(_0,_0)");
  EXPECT_EQ(int(T::CLayout{}(0, 0)), 0);  // the single element of the 1x1 tile
}

TEST(MmaTraits, UniversalFmaKeepsMixedTypes) {
  using T = MMA_Traits<UniversalFMA<double, float, float, double>>;
  static_assert(std::is_same_v<T::ValTypeD, double> && std::is_same_v<T::ValTypeA, float>);
  static_assert(std::is_same_v<T::ValTypeB, float> && std::is_same_v<T::ValTypeC, double>);
  // Default arguments follow D: UniversalFMA<D> is UniversalFMA<D, D, D, D>.
  static_assert(std::is_same_v<UniversalFMA<int>, UniversalFMA<int, int, int, int>>);
}
