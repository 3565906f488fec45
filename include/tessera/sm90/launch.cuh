// The launch policy of the Hopper kernels (host, CUDA runtime): the current device and its SM
// count (asked once per device), the dynamic shared-memory limit raised once per kernel and
// device, and a launch configuration with the attributes a warp-specialized kernel may need:
// a cluster shape, programmatic dependent launch, a cooperative launch.
//   current_device(device, sms)            the current device and its SM count (cached)
//   raise_shared_limit<Tag>(func, bytes, device)
//                                          cudaFuncAttributeMaxDynamicSharedMemorySize, once per
//                                          (Tag, device): Tag names the kernel (its type)
//   Launch{grid, block, bytes, stream}      a cudaLaunchConfig_t with its attributes kept inside;
//     .cluster(x)                          blocks of a cluster along x
//     .dependent()                         programmatic dependent launch (the kernel waits with
//                                          grid_dependency_wait before touching global memory)
//     .cooperative_only()                  a cooperative launch, alone (every block resident at
//                                          once, or the launch is refused): drops the others
//     .config()                            the configuration to pass to cudaLaunchKernelEx
// Example:
//   sm90::Launch l{dim3(sms), dim3(384), bytes, stream};
//   l.dependent();
//   cudaLaunchKernelEx(&l.config(), kernel, params);
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/sm90/launch.cuh: host only (the launch policy of the Hopper kernels)"
#endif

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

namespace tessera::sm90 {

// The current device and its SM count, asked of the runtime once per device (every launch needs
// them; the attribute query is not free).
inline cudaError_t current_device(int& device, int& sms) {
  static std::atomic<int> cached[64] = {};  // SM counts of devices 0..63; 0: not asked yet
  if (cudaError_t const e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (device >= 0 && device < 64 && (sms = cached[device].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  if (cudaError_t const e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device); e != cudaSuccess)
    return e;
  if (device >= 0 && device < 64) cached[device].store(sms, std::memory_order_relaxed);
  return cudaSuccess;
}

// The kernel's dynamic shared-memory limit raised to `bytes`, once per device (bit d of a set kept
// per Tag: a kernel asks for the same bytes at every launch).
template <class Tag>
cudaError_t raise_shared_limit(void const* func, int bytes, int device) {
  static std::atomic<std::uint64_t> raised{0};
  std::uint64_t const bit = device >= 0 && device < 64 ? std::uint64_t(1) << device : 0;
  if (bit != 0 && (raised.load(std::memory_order_relaxed) & bit) != 0) return cudaSuccess;
  if (cudaError_t const e = cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
      e != cudaSuccess)
    return e;
  raised.fetch_or(bit, std::memory_order_relaxed);
  return cudaSuccess;
}

// A launch configuration and its attributes (not copyable: the configuration points at them).
class Launch {
 public:
  Launch(dim3 grid, dim3 block, int shared_bytes, cudaStream_t stream) {
    config_.gridDim = grid;
    config_.blockDim = block;
    config_.dynamicSmemBytes = std::size_t(shared_bytes);
    config_.stream = stream;
  }
  Launch(Launch const&) = delete;
  Launch& operator=(Launch const&) = delete;

  void cluster(unsigned x) {
    cudaLaunchAttribute& a = attrs_[count_++];
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = x;
    a.val.clusterDim.y = 1;
    a.val.clusterDim.z = 1;
  }
  void dependent() {
    cudaLaunchAttribute& a = attrs_[count_++];
    a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a.val.programmaticStreamSerializationAllowed = 1;
  }
  // A block may wait for others: the driver runs every block at once or refuses the launch
  // (another kernel holding SMs, a partitioned GPU) instead of letting it hang. Alone: a
  // cooperative grid starts whole, so programmatic dependent launch does not apply.
  void cooperative_only() {
    count_ = 0;
    cudaLaunchAttribute& a = attrs_[count_++];
    a.id = cudaLaunchAttributeCooperative;
    a.val.cooperative = 1;
  }
  void grid(dim3 g) { config_.gridDim = g; }
  dim3 grid() const { return config_.gridDim; }
  cudaLaunchConfig_t const& config() {
    config_.attrs = count_ > 0 ? attrs_ : nullptr;
    config_.numAttrs = count_;
    return config_;
  }

 private:
  cudaLaunchConfig_t config_{};
  cudaLaunchAttribute attrs_[3]{};
  unsigned count_ = 0;
};

}  // namespace tessera::sm90
