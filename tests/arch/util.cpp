// Host tests for include/tessera/arch/util.hpp: the host body of a device-only instruction names it
// and stops. (smem_address is device code: tests/arch_cuda uses it through every instruction.)
#include <gtest/gtest.h>

#include "tessera/arch/util.hpp"

TEST(ArchUtilDeathTest, DeviceOnlyNamesTheInstructionAndAborts) {
  int const operand = 1;
  EXPECT_DEATH(tessera::detail::device_only("SOME_OP::copy (some.ptx)", operand, 2.0f),
               "tessera: SOME_OP::copy \\(some.ptx\\) runs only on the device \\(called from host code\\)");
}
