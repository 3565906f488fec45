// Exact tests for include/tessera/core/recast.hpp (upcast, downcast, recast, max_common_*).
#include "test_util.hpp"

using namespace tessera;
using tessera::test::S;

TEST(Recast, ReferenceExamples) {
  auto l = make_layout(S<4, 8>(), S<8, 1>());
  EXPECT_PRINTS(upcast<2>(l), "(_4,_4):(_4,_1)");
  EXPECT_PRINTS(downcast<2>(l), "(_4,_16):(_16,_1)");
  EXPECT_PRINTS((recast<16, 32>(l)), "(_4,_4):(_4,_1)");
  EXPECT_PRINTS((recast<32, 16>(l)), "(_4,_16):(_16,_1)");
  EXPECT_THROW(downcast<2>(make_layout(make_tuple(4, 8), make_tuple(8, 1))), layout_error);
  EXPECT_THROW(upcast<2>(make_layout(make_tuple(3, 8), make_tuple(1, 3))), layout_error);
}

TEST(MaxCommon, ReferenceExample) {
  EXPECT_PRINTS(max_common_vector(make_layout(S<4, 8>(), S<1, 4>()), make_layout(S<4, 8>(), S<1, 8>())), "_4");
  EXPECT_PRINTS(max_common_layout(make_layout(S<4, 8>(), S<1, 4>()), make_layout(S<4, 8>(), S<1, 8>())), "_4:_1");
  EXPECT_PRINTS(max_common_vector(make_layout(S<4, 8>(), S<8, 1>()), make_layout(S<4, 8>(), S<1, 4>())), "_1");
  // The whole common image counts, not a run of contiguous coordinates from index 0: a transpose
  // against itself agrees on all 16 offsets (docs of max_common_vector).
  EXPECT_PRINTS(max_common_vector(make_layout(S<4, 4>(), S<4, 1>()), make_layout(S<4, 4>(), S<4, 1>())), "_16");
  EXPECT_PRINTS(max_common_vector(make_layout(S<4, 4>(), S<4, 1>()), make_layout(S<4, 4>(), S<1, 4>())), "_1");
}
