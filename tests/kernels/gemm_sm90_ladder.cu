// Device tests of the Hopper GEMM's ladder steps and the configurations gemm_sm90 never chooses
// (include/tessera/kernels/gemm_sm90.cuh): step 1 (gemm_sm90_tma) and step 2 (gemm_sm90_ws) on the
// small sizes and one large type pair, the 2x1 cluster kernel (gemm_sm90_cluster) on the small,
// large and many-tile sizes, stream-K with 128x128 tiles on 7 blocks. Built with the instance set
// `extra` only (TESSERA_EXTRA_KERNELS; instances/table.txt), whose kernels it launches.
#include "gemm_sm90_shapes.hpp"
#include "instances/gemm_sm90.hpp"  // the kernels, compiled once in tessera::instances
#include "support/gemm_check.hpp"

static_assert(TESSERA_INSTANCES_EXTRA,
              "gemm_sm90_ladder.cu launches the instance set `extra`: build it with "
              "-DTESSERA_EXTRA_KERNELS=ON (tests/kernels/CMakeLists.txt)");

namespace {

using namespace tessera::test::gemm;

struct Sm90Tma {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_tma(p);
  }
};
using GemmSm90Tma = GemmDeviceTest<Sm90Tma>;
struct Sm90Ws {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_ws(p);
  }
};
using GemmSm90Ws = GemmDeviceTest<Sm90Ws>;
struct Sm90Cluster {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_cluster(p);
  }
};
using GemmSm90Cluster = GemmDeviceTest<Sm90Cluster>;
// Stream-K on a few SMs (sms blocks), so that small problems split tiles over blocks.
template <int Sms, class Cfg>
struct Sm90StreamK {
  template <class T, class TOut>
  static cudaError_t run(GemmProblem<T, TOut> const& p) {
    return tessera::kernels::gemm_sm90_stream_k<Cfg>(p, nullptr, Sms);
  }
};
using GemmSm90StreamK7Medium = GemmDeviceTest<Sm90StreamK<7, tessera::kernels::GemmSm90StreamKMedium>>;

TEST_F(GemmSm90Tma, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90Tma, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Tma, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }
TEST_F(GemmSm90Ws, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90Ws, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Ws, LargeBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kLarge, false); }
TEST_F(GemmSm90Cluster, ManyTilesPerBlock) { this->template sweep<half_t, half_t>(kManyTiles, false); }
TEST_F(GemmSm90Cluster, SmallFp16ToFp16) { this->template sweep<half_t, half_t>(kSmall, true); }
TEST_F(GemmSm90Cluster, SmallBf16ToBf16) { this->template sweep<bfloat16_t, bfloat16_t>(kSmall, true); }
TEST_F(GemmSm90Cluster, LargeFp16ToFp16) { this->template sweep<half_t, half_t>(kLarge, false); }
TEST_F(GemmSm90StreamK7Medium, SplitTilesFp16ToFp16) { this->template sweep<half_t, half_t>(kStreamK7, true); }

}  // namespace
