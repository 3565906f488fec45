// Host tests for include/tessera/arch/sfu.hpp: called from host code, each approximation names its
// instruction and stops (tests/arch_cuda/sfu.cu checks the values on the GPU).
#include <gtest/gtest.h>

#include "tessera/arch/sfu.hpp"

TEST(ArchSfuDeathTest, HostCallsNameTheInstruction) {
  EXPECT_DEATH(tessera::ex2_approx(1.0f), "tessera: ex2_approx \\(ex2.approx.ftz.f32\\) runs only on the device");
  EXPECT_DEATH(tessera::rcp_approx(2.0f), "tessera: rcp_approx \\(rcp.approx.ftz.f32\\) runs only on the device");
}
