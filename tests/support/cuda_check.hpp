// CUDA error checks and a device buffer, for the GPU tests and the benchmark's verification (tests/support).
//
//   check(e, "what")      throws std::runtime_error("what: <CUDA's message>") unless e == cudaSuccess
//   check(status, "what") the same for a cuBLAS status
//   DeviceBuffer<T> buf(n) n elements of device memory (cudaMalloc, freed by the destructor);
//                          buf.get(), buf.size(), buf.upload(host), buf.download()
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tessera::test {

inline void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(cublasStatus_t s, char const* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
  }
}

// n elements of T in device memory, owned (move-only). A zero-size buffer still holds a valid
// (one-element) allocation, so kernels may be given its pointer.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) : n_(n) { check(cudaMalloc(&p_, (n > 0 ? n : 1) * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  DeviceBuffer(DeviceBuffer const&) = delete;
  DeviceBuffer& operator=(DeviceBuffer const&) = delete;

  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

  // Copies host[0..host.size()) to the start of the buffer (host.size() <= size()).
  void upload(std::vector<T> const& host) {
    if (host.size() > n_) throw std::invalid_argument("DeviceBuffer::upload: more elements than the buffer holds");
    check(cudaMemcpy(p_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "DeviceBuffer::upload");
  }
  // The whole buffer, copied to the host (synchronous).
  std::vector<T> download() const {
    std::vector<T> host(n_);
    check(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "DeviceBuffer::download");
    return host;
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace tessera::test
