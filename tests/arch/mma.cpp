// Host tests for include/tessera/arch/mma.hpp: UniversalFMA's operands and d = a * b + c.
#include <gtest/gtest.h>

#include <type_traits>

#include "tessera/arch/mma.hpp"

using namespace tessera;

TEST(ArchMma, UniversalFmaOperands) {
  using F = UniversalFMA<double, float, float, double>;
  static_assert(std::is_same_v<F::DRegisters, double[1]> && std::is_same_v<F::ARegisters, float[1]>);
  static_assert(std::is_same_v<F::BRegisters, float[1]> && std::is_same_v<F::CRegisters, double[1]>);
}

TEST(ArchMma, UniversalFmaComputes) {
  float d = 0;
  UniversalFMA<float>::fma(d, 2.0f, 3.0f, 1.0f);
  EXPECT_EQ(d, 7.0f);
  int i = 0;
  UniversalFMA<int>::fma(i, -4, 5, 3);
  EXPECT_EQ(i, -17);
  static_assert([] {
    double r = 0;
    UniversalFMA<double, float, float, double>::fma(r, 0.5f, 0.25f, 1.0);
    return r == 1.125;
  }());
}
