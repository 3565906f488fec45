// Shared by every GPU test: why the tests must skip on this machine ("" when a CUDA device is
// usable). GPU tests compile everywhere and skip with this visible reason where no GPU exists.
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace tessera::test {
inline std::string no_device_reason() {
  int n = 0;
  cudaError_t const err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    std::string why = std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorString(err);
    (void)cudaGetLastError();  // clear the sticky error for later tests
    return why;
  }
  if (n == 0) return "no CUDA device: cudaGetDeviceCount returned 0";
  return "";
}
}  // namespace tessera::test
