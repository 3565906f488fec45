// Shared by the device tests of the instructions (tests/arch_cuda): why a test must skip, device
// buffers, and calling an instruction with its registers taken from an array.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "support/gpu_skip.hpp"

namespace tessera::test {

// "" when the tests can run: a CUDA device of compute capability 9.0 (the tests are built for
// sm_90a only); otherwise the reason to skip.
inline std::string no_sm90_reason() {
  if (std::string why = no_device_reason(); !why.empty()) return why;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "cudaGetDeviceProperties failed";
  if (prop.major != 9 || prop.minor != 0) {
    return "the device is sm_" + std::to_string(prop.major * 10 + prop.minor) + "; these tests are built for sm_90a";
  }
  return "";
}

// A device array of n elements, filled from / read back into host vectors. Errors are test failures.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) { EXPECT_EQ(cudaMalloc(&ptr_, n * sizeof(T)), cudaSuccess); }
  explicit DeviceArray(std::vector<T> const& host) : DeviceArray(host.size()) {
    EXPECT_EQ(cudaMemcpy(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  DeviceArray(DeviceArray const&) = delete;
  DeviceArray& operator=(DeviceArray const&) = delete;
  ~DeviceArray() { cudaFree(ptr_); }
  T* get() const { return ptr_; }
  std::vector<T> to_host() const {
    std::vector<T> host(n_);
    EXPECT_EQ(cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t n_;
};

// Waits for the kernel just launched; a launch or execution error is a test failure.
inline void expect_kernel_ran() {
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// The number of registers of an operand array type: register_count_v<std::uint32_t[4]> == 4.
template <class Registers>
inline constexpr int register_count_v = int(std::extent_v<Registers>);

}  // namespace tessera::test
