// Printing: pointer tags, `<iterator> o <layout>`, and print_tensor's table.
#include "tensor_test_util.hpp"

#include <sstream>

using namespace tessera;

TEST(Print, PointerTagsAndTensorNotation) {
  alignas(16) float f[32] = {};
  std::uint16_t h[4] = {};
  auto g = make_tensor(make_gmem_ptr(f), make_shape(4, 8));
  std::string s = to_string(g);
  EXPECT_EQ(s.rfind("gmem_ptr[32b](0x", 0), 0u) << s;
  EXPECT_NE(s.find(") o (4,8):(_1,4)"), std::string::npos) << s;
  EXPECT_EQ(to_string(make_smem_ptr(h)).rfind("smem_ptr[16b](0x", 0), 0u);
  auto r = make_tensor<double>(make_layout(make_shape(_2{}, _2{})));
  EXPECT_EQ(to_string(r).rfind("rmem_ptr[64b](0x", 0), 0u);
  std::ostringstream os;
  os << g;
  EXPECT_EQ(os.str(), s);
  // The address is printed in hexadecimal, as %p would.
  char expected[64];
  std::snprintf(expected, sizeof expected, "gmem_ptr[32b](%p)", static_cast<void*>(f));
  EXPECT_EQ(to_string(make_gmem_ptr(f)), std::string(expected));
}

TEST(Print, TensorTable) {
  auto t = make_tensor(CountingIterator<int>(0), make_layout(make_shape(_2{}, _3{})));
  EXPECT_EQ(tensor_table(t),
            "counting_iter(0) o (_2,_3):(_1,_2):\n"
            "     0     2     4\n"
            "     1     3     5\n");
  auto r = make_tensor<float>(make_layout(make_shape(_3{})));
  r(0) = 1.5f, r(1) = -2.0f, r(2) = 0.25f;
  std::string s = tensor_table(r);
  EXPECT_NE(s.find(" o (_3):(_1):\n       1.5        -2      0.25\n"), std::string::npos) << s;
}
