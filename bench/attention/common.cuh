// What the attention timers share (bench/attention/*_bench.cu): ck() exits with the call's name and
// CUDA's message on an error; Dev<T> owns `count` elements of device memory (16 bytes more, so that
// a kernel's 16-byte reads past the end stay inside) and downloads them whole (get) or the first
// `count` (first); time_ms() times bursts of calls with CUDA events.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

namespace tessera::bench::attention {

inline void ck(cudaError_t e, char const* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class T>
struct Dev {
  T* p = nullptr;
  std::size_t n = 0;
  explicit Dev(std::size_t count) : n(count) { ck(cudaMalloc(&p, count * sizeof(T) + 16), "cudaMalloc"); }
  ~Dev() { cudaFree(p); }
  Dev(Dev const&) = delete;
  Dev& operator=(Dev const&) = delete;
  std::vector<T> first(std::size_t count) const {
    std::vector<T> h(count);
    ck(cudaMemcpy(h.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return h;
  }
  std::vector<T> get() const { return first(n); }
};

// The median over `repeats` bursts of the median call time (ms) of `iters` calls of f: each burst
// after `rest_ms` idle, `warmup` untimed calls, then `iters` back to back with an event after each.
inline double time_ms(std::function<cudaError_t()> const& f, int warmup, int iters, int repeats, int rest_ms) {
  std::vector<cudaEvent_t> ev(std::size_t(iters) + 1);
  for (auto& e : ev) ck(cudaEventCreate(&e), "event");
  std::vector<double> medians;
  for (int r = 0; r < repeats; ++r) {
    std::this_thread::sleep_for(std::chrono::milliseconds(rest_ms));
    for (int w = 0; w < warmup; ++w) ck(f(), "warmup");
    ck(cudaEventRecord(ev[0]), "record");
    for (int i = 0; i < iters; ++i) {
      ck(f(), "timed");
      ck(cudaEventRecord(ev[std::size_t(i) + 1]), "record");
    }
    ck(cudaEventSynchronize(ev.back()), "sync");
    std::vector<double> t;
    for (int i = 0; i < iters; ++i) {
      float ms = 0;
      ck(cudaEventElapsedTime(&ms, ev[std::size_t(i)], ev[std::size_t(i) + 1]), "elapsed");
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    medians.push_back(t[t.size() / 2]);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  std::sort(medians.begin(), medians.end());
  return medians[medians.size() / 2];
}

}  // namespace tessera::bench::attention
