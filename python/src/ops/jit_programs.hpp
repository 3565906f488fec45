// The programs of tessera.ops compiled while the program runs (add.cpp, sgemm.cpp, copy.cpp,
// gemm.cpp): one NVRTC program per op and element type (gemm: per kernel of gemm_sm90), its source a few lines that include the kernel's header
// of include/tessera/kernels and check, with static_asserts, the constants the host side launches
// with (so that the launch geometry here cannot drift from the header's unnoticed: a drift is a
// compile error naming the constant). Compiled at the first call for sm_90a (the only target of
// tessera.ops; no GPU needed to compile), by tessera::jit::compile, which caches it in memory and
// on disk ($TESSERA_CACHE_DIR, else ~/.cache/tessera/jit; docs/jit.md): the first call of a process
// that finds it on disk loads it in milliseconds.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "kernels.hpp"
#include "tessera/jit/compile.hpp"

namespace tessera::python_ops::detail {

// One program: its source and name expressions, compiled at the first prepare() (thread-safe). The
// source may be given as a function, called at the first prepare() (gemm's depends on the NVRTC
// found then).
class OpProgram {
 public:
  OpProgram(std::string file_name, std::string source, std::vector<std::string> kernels)
      : file_name_(std::move(file_name)), source_(std::move(source)), names_(std::move(kernels)) {}
  OpProgram(std::string file_name, std::function<std::string()> make_source, std::vector<std::string> kernels)
      : file_name_(std::move(file_name)), make_source_(std::move(make_source)), names_(std::move(kernels)) {}
  OpProgram(OpProgram const&) = delete;
  OpProgram& operator=(OpProgram const&) = delete;

  bool ready() const { return ready_.load(std::memory_order_acquire); }

  Prepared prepare() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!ready_.load(std::memory_order_relaxed)) {
      jit::CompileOptions o;
      o.arch = 90;  // sm_90a, whatever the current device (module.cpp refuses other GPUs first)
      o.program_name = file_name_;
      // No precompiled header: these kernels do real template work, and since the headers parse in
      // 0.3 s saving one costs a process's first compile more than it saves the next ones (gemm's
      // 128x256 kernel: 7.9 s with, 7.4 s without; then 6.9-7.1 s with, 6.6-6.9 s without:
      // docs/performance.md).
      o.pch = false;
      if (make_source_) source_ = make_source_();
      program_ = jit::compile(source_, names_, o);
      ready_.store(true, std::memory_order_release);
    }
    return {names_, program_.from_disk_cache(), program_.compile_seconds(), program_.log()};
  }

  // The i-th name expression's kernel (compiling the program first when needed).
  jit::Kernel const& kernel(std::size_t i) {
    if (!ready()) prepare();
    return program_.kernel(i);
  }

 private:
  std::string file_name_, source_;
  std::function<std::string()> make_source_;
  std::vector<std::string> names_;
  std::mutex mutex_;
  std::atomic<bool> ready_{false};
  jit::Program program_;
};

// The programs, defined beside their launches. add_program(t): add_vectorized_kernel<T, Vec, 4>
// for Vec = true, false. sgemm_program(): the tuned kernel for the four operand orders, then
// sgemm_scale_c_kernel<float>. copy_program(bytes): tile_copy_kernel on 2- or 4-byte elements.
// gemm_program(key): the kernel of gemm_sm90 numbered key (jit::GemmSm90JitKernel::index(), 0..287;
// std::invalid_argument outside), then gemm_pack_kernel of its input type.
OpProgram& add_program(DType t);
OpProgram& sgemm_program();
OpProgram& copy_program(int element_bytes);
OpProgram& gemm_program(int key);
// attention_program(key): the kernel of attention_forward_sm90 numbered key
// (jit::AttentionSm90JitKernel::index(), 0..13: 0..5 plain, 6..9 ping-pong, 10..13 overlap;
// std::invalid_argument outside).
OpProgram& attention_program(int key);
// grouped_gemm_program(key): the grouped kernel numbered key (jit::GemmSm90GroupedJitKernel::index(),
// 0..15; std::invalid_argument outside), then its prepare kernel.
OpProgram& grouped_gemm_program(int key);
// scaled_gemm_program(key): the fp8 kernel numbered key (jit::GemmSm90Fp8JitKernel::index(), 0..107;
// std::invalid_argument outside).
OpProgram& scaled_gemm_program(int key);

inline bool aligned16(void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// kernels::detail::vector_aligned: p 16-byte aligned and every row (of ld elements) too.
inline bool vector_aligned(void const* p, std::int64_t ld, int element_bytes) {
  return aligned16(p) && (ld * element_bytes) % 16 == 0;
}

}  // namespace tessera::python_ops::detail
