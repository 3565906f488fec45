// The attention timers' device memory and error check (bench/attention/*_bench.cu): ck() exits
// with the call's name and CUDA's message on an error; Dev<T> owns `count` elements of device
// memory (16 bytes more, so that a kernel's 16-byte reads past the end stay inside) and downloads
// them whole (get) or the first `count` (first).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
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

}  // namespace tessera::bench::attention
