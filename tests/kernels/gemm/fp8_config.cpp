// Tests of the fp8 GEMM's configurations on the host (include/tessera/kernels/gemm/sm90_config.hpp):
// the block-scaled wrapper keeps its configuration's tile and plan and is told apart from it, and
// the fp8 element types have their C++ names for a run-time compiler. The shared-memory plans of the
// fp8 kernels (the 16-bit types', in bytes) are static_asserts of tests/kernels/gemm_sm90_fp8.cu.
#include <gtest/gtest.h>

#include "tessera/kernels/gemm/sm90_config.hpp"

namespace {

using namespace tessera::kernels;
namespace kd = tessera::kernels::detail;

TEST(GemmSm90Fp8Config, BlockScaledWrapsAPersistentConfiguration) {
  using B = GemmSm90Fp8BlockDefault;
  static_assert(B::BM == 192 && B::BN == 128 && B::BK == 64 && B::Stages == 4 && B::kConsumers == 3);
  static_assert(B::kEpilogueBytes == GemmSm90PersistentTall::kEpilogueBytes);
  static_assert(kd::gemm_sm90_block_scaled_config<B> && !kd::gemm_sm90_block_scaled_config<GemmSm90PersistentMedium>);
  static_assert(kd::is_ws_config<B> && kd::gemm_sm90_persistent_config<B> && !kd::gemm_sm90_stream_k_config<B>);
  static_assert(kd::gemm_sm90_block_scaled_config<GemmSm90BlockScaled<GemmSm90WsConfig<128, 64, 64, 8, true>>>);
  EXPECT_EQ(kd::gemm_sm90_type_name<tessera::float_e4m3_t>(), "tessera::float_e4m3_t");
  EXPECT_EQ(kd::gemm_sm90_type_name<tessera::float_e5m2_t>(), "tessera::float_e5m2_t");
}

}  // namespace
