// fill, clear, axpby, transform and reduce on host tensors (gemm: tests/algorithm/gemm.cpp).
#include "tensor_test_util.hpp"

#include <cmath>
#include <limits>
#include <vector>

using namespace tessera;

TEST(Functional, FillClearAxpbyTransformReduce) {
  auto x = make_tensor<float>(make_layout(make_shape(_4{}, _2{})));
  std::vector<float> ybuf(16, 0.0f);
  auto y = make_tensor(make_gmem_ptr(ybuf.data()), make_shape(4, 2), make_stride(_2{}, 8));  // strided view
  fill(x, 2.0f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(x(i), 2.0f);
  for (int i = 0; i < 8; ++i) y(i) = float(i);
  axpby(3.0f, x, 0.5f, y);  // y = 3x + y/2
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y(i), 6.0f + 0.5f * float(i));
  EXPECT_EQ(ybuf[1], 0.0f);  // untouched gaps of the strided view
  transform(y, [](float a) { return a * 2.0f; });
  EXPECT_EQ(y(3), 2.0f * (6.0f + 1.5f));
  transform(y, x, [](float a) { return a + 1.0f; });
  EXPECT_EQ(x(3), y(3) + 1.0f);
  EXPECT_EQ(reduce(x, 0.0f, [](float a, float b) { return a + b; }), [&] {
    float s = 0;
    for (int i = 0; i < 8; ++i) s += x(i);
    return s;
  }());
  EXPECT_EQ(reduce(make_tensor(CountingIterator<int>(0), make_shape(_5{})), 0, [](int a, int b) { return a + b; }), 10);
  clear(x);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(x(i), 0.0f);
}

// axpby with b == 0 does not read y (BLAS's beta = 0): an output never initialized, NaN included,
// becomes a*x; with b != 0 it reads y and propagates what it reads.
TEST(Functional, AxpbyWithBetaZeroDoesNotReadY) {
  float const nan = std::numeric_limits<float>::quiet_NaN();
  auto x = make_tensor<float>(make_shape(_4{}));
  for (int i = 0; i < 4; ++i) x(i) = float(i);
  std::vector<float> y(4, nan);  // never initialized output
  auto ty = make_tensor(make_gmem_ptr(y.data()), make_shape(4));
  axpby(2.0f, x, 0.0f, ty);  // dynamic beta = 0
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], 2.0f * float(i));
  std::fill(y.begin(), y.end(), nan);
  axpby(3.0f, x, _0{}, ty);  // static beta = 0
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], 3.0f * float(i));
  axpby(1.0f, x, 0.5f, ty);  // beta != 0 reads y
  for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], float(i) + 1.5f * float(i));
  std::fill(y.begin(), y.end(), nan);
  axpby(1.0f, x, 1.0f, ty);  // and propagates what it reads
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(std::isnan(y[i]));
}
