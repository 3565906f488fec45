// NVML through dlopen (gpu_state.hpp). The entry points and constants used here are NVML's
// documented C API: nvmlInit_v2, nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetClockInfo
// (NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2), nvmlDeviceGetMaxClockInfo, nvmlDeviceGetPowerUsage and
// nvmlDeviceGetEnforcedPowerLimit (milliwatts), nvmlDeviceGetTemperature (NVML_TEMPERATURE_GPU = 0);
// every one returns 0 (NVML_SUCCESS) on success.
#include "bench/gpu_state.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tessera::bench {

namespace {

using Device = void*;  // nvmlDevice_t, an opaque pointer
using InitFn = int (*)();
using HandleByBusIdFn = int (*)(char const*, Device*);
using ClockFn = int (*)(Device, int, unsigned*);
using UnsignedFn = int (*)(Device, unsigned*);
using TemperatureFn = int (*)(Device, int, unsigned*);

// The NVML entry points, loaded once; all null when the library is missing.
struct Nvml {
  HandleByBusIdFn handle_by_bus_id = nullptr;
  ClockFn clock = nullptr, max_clock = nullptr;
  UnsignedFn power = nullptr, power_limit = nullptr;
  TemperatureFn temperature = nullptr;
  bool ok = false;
};

Nvml const& nvml() {
  static Nvml const n = [] {
    Nvml r;
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return r;
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    r.handle_by_bus_id = reinterpret_cast<HandleByBusIdFn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    r.clock = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    r.max_clock = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    r.power = reinterpret_cast<UnsignedFn>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
    r.power_limit = reinterpret_cast<UnsignedFn>(dlsym(lib, "nvmlDeviceGetEnforcedPowerLimit"));
    r.temperature = reinterpret_cast<TemperatureFn>(dlsym(lib, "nvmlDeviceGetTemperature"));
    r.ok = init && r.handle_by_bus_id && r.clock && r.max_clock && r.power && r.power_limit && r.temperature &&
           init() == 0;
    return r;  // the library stays loaded for the life of the process
  }();
  return n;
}

constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;

}  // namespace

GpuState read_gpu_state(int device) {
  GpuState s;
  Nvml const& n = nvml();
  if (!n.ok) return s;
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return s;
  }
  Device d = nullptr;
  if (n.handle_by_bus_id(bus_id, &d) != 0) return s;
  unsigned v = 0;
  s.available = true;
  if (n.clock(d, kClockSm, &v) == 0) s.sm_clock_mhz = v;
  if (n.max_clock(d, kClockSm, &v) == 0) s.sm_clock_max_mhz = v;
  if (n.clock(d, kClockMem, &v) == 0) s.mem_clock_mhz = v;
  if (n.power(d, &v) == 0) s.power_w = v / 1000.0;
  if (n.power_limit(d, &v) == 0) s.power_limit_w = v / 1000.0;
  if (n.temperature(d, kTemperatureGpu, &v) == 0) s.temperature_c = v;
  return s;
}

std::string describe(GpuState const& s) {
  if (!s.available) return "GPU state: NVML not available";
  char buf[160];
  std::snprintf(buf, sizeof buf, "SM %u/%u MHz, mem %u MHz, %.0f W of %.0f W, %u C", s.sm_clock_mhz, s.sm_clock_max_mhz,
                s.mem_clock_mhz, s.power_w, s.power_limit_w, s.temperature_c);
  return buf;
}

GpuSampler::GpuSampler(int device, int period_ms) : device_(device), period_ms_(period_ms) {
  thread_ = std::thread([this] {
    while (running_.load()) {
      GpuState s = read_gpu_state(device_);
      if (!s.available) return;
      readings_.push_back(s);
      std::this_thread::sleep_for(std::chrono::milliseconds(period_ms_));
    }
  });
}

GpuSampler::~GpuSampler() {
  running_.store(false);
  if (thread_.joinable()) thread_.join();
}

GpuSample GpuSampler::stop() {
  running_.store(false);
  if (thread_.joinable()) thread_.join();
  GpuSample r;
  r.readings = int(readings_.size());
  if (readings_.empty()) return r;
  r.sm_clock_min_mhz = readings_.front().sm_clock_mhz;
  for (GpuState const& s : readings_) {
    r.sm_clock_min_mhz = std::min(r.sm_clock_min_mhz, s.sm_clock_mhz);
    r.sm_clock_mean_mhz += s.sm_clock_mhz;
    r.power_mean_w += s.power_w;
    r.power_max_w = std::max(r.power_max_w, s.power_w);
    r.power_limit_w = s.power_limit_w;
  }
  r.sm_clock_mean_mhz /= double(readings_.size());
  r.power_mean_w /= double(readings_.size());
  return r;
}

}  // namespace tessera::bench
