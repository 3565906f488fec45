// Tests for include/tessera/algorithm/functional.hpp on the host: the function objects (each
// against its operator, static integers staying static), for_each and the binary transform.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/algorithm/functional.hpp"

using namespace tessera;

TEST(Functors, EachAppliesItsOperator) {
  EXPECT_EQ(plus{}(2, 3), 5);
  EXPECT_EQ(minus{}(2, 3), -1);
  EXPECT_EQ(multiplies{}(2, 3), 6);
  EXPECT_EQ(divides{}(7, 2), 3);
  EXPECT_EQ(modulus{}(7, 2), 1);
  EXPECT_EQ(bit_and{}(6, 3), 2);
  EXPECT_EQ(bit_or{}(6, 3), 7);
  EXPECT_EQ(bit_xor{}(6, 3), 5);
  EXPECT_EQ(left_shift{}(1, 4), 16);
  EXPECT_EQ(right_shift{}(16, 2), 4);
  EXPECT_TRUE(logical_and{}(true, true));
  EXPECT_FALSE(logical_or{}(false, false));
  EXPECT_TRUE(equal_to{}(2, 2));
  EXPECT_TRUE(not_equal_to{}(2, 3));
  EXPECT_TRUE(greater{}(3, 2));
  EXPECT_TRUE(less{}(2, 3));
  EXPECT_TRUE(greater_equal{}(2, 2));
  EXPECT_TRUE(less_equal{}(2, 2));
  EXPECT_EQ(negate{}(2.5f), -2.5f);
  EXPECT_EQ(unary_plus{}(-2), -2);
  EXPECT_EQ(bit_not{}(0u), ~0u);
  EXPECT_TRUE(logical_not{}(false));
  EXPECT_EQ(abs_fn{}(-3.5), 3.5);
  EXPECT_EQ(abs_fn{}(-3), 3);
  EXPECT_EQ(max_fn{}(2.0f, 3.0f), 3.0f);
  EXPECT_EQ(min_fn{}(2.0f, 3.0f), 2.0f);
  EXPECT_EQ(max_fn{}(2, 3), 3);
  EXPECT_EQ(min_fn{}(2, 3), 2);
  EXPECT_EQ((constant_fn<int>{7}(1, 2.0, "x")), 7);
  int x = 4;
  static_assert(std::is_same_v<decltype(identity{}(x)), int&>, "identity forwards an lvalue as an lvalue");
  identity{}(x) = 5;
  EXPECT_EQ(x, 5);
}

TEST(Functors, StaticIntegersStayStatic) {
  static_assert(std::is_same_v<decltype(plus{}(_2{}, _3{})), C<5>>);
  static_assert(std::is_same_v<decltype(multiplies{}(_2{}, _3{})), C<6>>);
  static_assert(std::is_same_v<decltype(max_fn{}(_2{}, _3{})), C<3>>);
  static_assert(std::is_same_v<decltype(min_fn{}(_2{}, _3{})), C<2>>);
  static_assert(std::is_same_v<decltype(abs_fn{}(C<-4>{})), C<4>>);
  EXPECT_EQ(to_string(max_fn{}(_2{}, 5)), "5");
}

TEST(Functional, ForEachVisitsEveryElementInIndexOrder) {
  auto t = make_tensor<int>(make_layout(make_shape(_2{}, _3{}), LayoutRight{}));  // (2,3) row-major
  for (int i = 0; i < 6; ++i) t(i) = i + 1;
  int sum = 0;
  int order[6] = {};
  int n = 0;
  for_each(t, [&](int v) {
    sum += v;
    order[n++] = v;
  });
  EXPECT_EQ(sum, 21);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(order[i], i + 1);  // 1-D index order, not memory order
  for_each(t, [](int& v) { v *= 10; });                    // modifies through references
  EXPECT_EQ(t(1, 2), 60);
}

// Law: transform(a, b, out, f)(i) == f(a(i), b(i)) for every i, whatever the three layouts; out may
// be one of the inputs.
TEST(Functional, BinaryTransform) {
  auto a = make_tensor<int>(make_layout(make_shape(_3{}, _4{})));
  auto b = make_tensor<int>(make_layout(make_shape(_3{}, _4{}), LayoutRight{}));
  auto out = make_tensor<int>(make_layout(make_shape(_3{}, _4{}), make_stride(_1{}, _3{})));
  for (int i = 0; i < 12; ++i) a(i) = i, b(i) = 100 - 3 * i;
  transform(a, b, out, plus{});
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out(i), i + 100 - 3 * i);
  transform(a, b, out, max_fn{});
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out(i), std::max(i, 100 - 3 * i));
  transform(a, b, a, multiplies{});  // in place
  for (int i = 0; i < 12; ++i) EXPECT_EQ(a(i), i * (100 - 3 * i));
  std::vector<int> small(5);
  auto s = make_tensor(small.data(), make_shape(5));
  EXPECT_THROW(transform(a, b, s, plus{}), layout_error);
}

// Compound assignments assign in place and return the left operand; the folds nest as C++'s fold
// expressions do (checked against the expressions themselves), keep static integers static, and
// assign in place through an assignment operator.
TEST(Functional, CompoundAssignmentsAndFolds) {
  int x = 7;
  int& r = plus_assign{}(x, 3);
  EXPECT_EQ(x, 10);
  EXPECT_EQ(&r, &x);
  minus_assign{}(x, 4);
  multiplies_assign{}(x, 5);
  divides_assign{}(x, 3);
  modulus_assign{}(x, 7);
  EXPECT_EQ(x, ((10 - 4) * 5 / 3) % 7);
  unsigned b = 0b1100;
  bit_and_assign{}(b, 0b1010u);
  bit_or_assign{}(b, 0b0001u);
  bit_xor_assign{}(b, 0b1111u);
  left_shift_assign{}(b, 2u);
  right_shift_assign{}(b, 1u);
  EXPECT_EQ(b, ((((0b1100u & 0b1010u) | 0b0001u) ^ 0b1111u) << 2u) >> 1u);

  EXPECT_EQ(unary_rfold<minus>{}(10, 4, 3), (10 - (4 - 3)));
  EXPECT_EQ(unary_lfold<minus>{}(10, 4, 3), ((10 - 4) - 3));
  EXPECT_EQ(binary_rfold<minus>{}(1, 10, 4), (10 - (4 - 1)));
  EXPECT_EQ(binary_lfold<minus>{}(1, 10, 4), ((1 - 10) - 4));
  EXPECT_EQ(minus_unary_rfold{}(10, 4, 3), 9);
  EXPECT_EQ(divides_unary_lfold{}(64, 4, 2), 8);
  EXPECT_EQ(divides_binary_lfold{}(64, 4, 2), 8);
  EXPECT_EQ(plus_binary_rfold{}(5), 5);  // no t: the init value
  EXPECT_EQ(unary_rfold<plus>{}(2.5), 2.5);
  EXPECT_EQ(less_unary_lfold{}(1, 2, 3), ((1 < 2) < 3));
  static_assert(std::is_same_v<decltype(plus_unary_lfold{}(_2{}, _3{}, _4{})), C<9>>);
  static_assert(multiplies_unary_rfold{}(2, 3, 4) == 24);

  // An assignment fold assigns along the way: (a += (b += c)) and ((a -= b) -= c).
  int a = 1, c = 2, d = 3;
  EXPECT_EQ(plus_assign_unary_rfold{}(a, c, d), 6);
  EXPECT_EQ(a, 6);
  EXPECT_EQ(c, 5);
  int e = 20;
  EXPECT_EQ(minus_assign_unary_lfold{}(e, 3, 4), 13);
  EXPECT_EQ(e, 13);
}
