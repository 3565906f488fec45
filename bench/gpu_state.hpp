// What the GPU was doing while a benchmark ran: SM and memory clocks, power draw and limit,
// temperature, read through NVML. NVML (libnvidia-ml.so.1, part of the driver) is opened at run
// time, so nothing links against it; where it is missing every reading is "unknown" (0) and
// GpuState::available is false.
//
//   GpuState s = read_gpu_state(device);     one reading now
//   GpuSampler sampler(device, 20);          a thread that reads every 20 ms until stop()
//   GpuSample summary = sampler.stop();      min / mean SM clock, mean / max power over the run
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace tessera::bench {

struct GpuState {
  bool available = false;         // NVML answered for this device
  unsigned sm_clock_mhz = 0;      // current SM clock
  unsigned sm_clock_max_mhz = 0;  // the SM clock's maximum (boost)
  unsigned mem_clock_mhz = 0;     // current memory clock
  double power_w = 0;             // current board power draw
  double power_limit_w = 0;       // enforced power limit
  unsigned temperature_c = 0;     // GPU temperature
};

// One reading of CUDA device `device` (matched to NVML by PCI bus id).
GpuState read_gpu_state(int device);

// "SM 1980/1980 MHz, mem 3201 MHz, 123 W of 700 W, 41 C", or "GPU state: NVML not available".
std::string describe(GpuState const& s);

// Summary of the readings taken while something ran.
struct GpuSample {
  int readings = 0;
  unsigned sm_clock_min_mhz = 0;
  double sm_clock_mean_mhz = 0;
  double power_mean_w = 0, power_max_w = 0;
  double power_limit_w = 0;
};

// Reads the GPU every period_ms on a thread of its own from construction until stop().
class GpuSampler {
 public:
  GpuSampler(int device, int period_ms);
  ~GpuSampler();
  GpuSampler(GpuSampler const&) = delete;
  GpuSampler& operator=(GpuSampler const&) = delete;
  GpuSample stop();

 private:
  int device_, period_ms_;
  std::atomic<bool> running_{true};
  std::vector<GpuState> readings_;
  std::thread thread_;
};

}  // namespace tessera::bench
