// A compiled kernel and its launch (host only): the program's binary image (a cubin, or PTX that
// the driver compiles at load), loaded lazily into each context that launches it, and launched
// through cuLaunchKernelEx with grid, block, dynamic shared memory (the attribute raised when a
// launch needs more than the default 48 KiB), cluster dimensions, programmatic dependent launch,
// cooperative launch and a stream.
//
//   jit::Kernel k = program.kernel("add_kernel<float>");
//   k.launch({.grid = {blocks}, .block = {256}, .stream = s}, x_ptr, y_ptr, n);
//
// Arguments are checked before the launch: their number and each one's size against the
// kernel's parameters as the driver reports them (cuFuncGetParamInfo, CUDA 12.4+), so a kernel
// compiled for other operands is refused instead of reading garbage.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/kernel.hpp: host only"
#endif

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tessera/jit/driver.hpp"

namespace tessera::jit {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// How to launch: grid and block in blocks and threads; dynamic shared memory in bytes; a stream
// (a CUstream or cudaStream_t; null is the legacy default stream); cluster dimensions (1,1,1: no
// cluster); dependent: programmatic dependent launch (the kernel may start while the previous
// kernel of the stream finishes; it must wait with griddepcontrol.wait before reading its
// output); cooperative: all blocks resident at once (grid-wide synchronization).
struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned shared_bytes = 0;
  void* stream = nullptr;
  Dim3 cluster;
  bool dependent = false;
  bool cooperative = false;
};

// What the compiler made of a kernel: registers per thread, local memory per thread (spills and
// stack), static shared memory, the most threads a block can have.
struct KernelInfo {
  int registers = 0;
  int local_bytes = 0;
  int static_shared_bytes = 0;
  int max_threads_per_block = 0;
};

// The binary of one compiled program, shared by its kernels.
struct Image {
  std::string data;     // cubin bytes, or PTX text (then `is_ptx`)
  bool is_ptx = false;  // the driver compiles PTX at load (slower; for a GPU newer than the compiler)
  std::string name;     // the program's name, for messages
};

class Kernel {
 public:
  Kernel() = default;
  Kernel(std::shared_ptr<Image const> image, std::string lowered_name, std::string display_name)
      : state_(std::make_shared<State>()) {
    state_->image = std::move(image);
    state_->lowered = std::move(lowered_name);
    state_->display = std::move(display_name);
  }

  explicit operator bool() const { return state_ != nullptr; }
  std::string const& name() const { return require().display; }
  std::string const& lowered_name() const { return require().lowered; }
  Image const& image() const { return *require().image; }

  // The kernel's function in the current context (loaded at the first call there).
  cu::Function function() const {
    State& s = require();
    std::lock_guard<std::mutex> lock(s.mutex);
    return loaded_here(s).function;
  }

  // The kernel's parameter sizes in bytes, as the driver reports them (empty before CUDA 12.4,
  // whose driver cannot say; then launches are not checked). Loads the kernel in this context.
  std::vector<std::size_t> param_sizes() const {
    State& s = require();
    std::lock_guard<std::mutex> lock(s.mutex);
    return loaded_here(s).param_sizes;
  }

  KernelInfo info() const {
    auto const& d = cu::Driver::get();
    cu::Function const f = function();
    KernelInfo k;
    d.check(d.func_get_attribute(&k.registers, cu::kFuncNumRegs, f), "cuFuncGetAttribute");
    d.check(d.func_get_attribute(&k.local_bytes, cu::kFuncLocalSizeBytes, f), "cuFuncGetAttribute");
    d.check(d.func_get_attribute(&k.static_shared_bytes, cu::kFuncSharedSizeBytes, f), "cuFuncGetAttribute");
    d.check(d.func_get_attribute(&k.max_threads_per_block, cu::kFuncMaxThreadsPerBlock, f), "cuFuncGetAttribute");
    return k;
  }

  // Launches with `args` (each passed by value, as the kernel's parameters). Throws jit_error
  // when the arguments do not match the parameters, or the driver refuses the launch.
  template <class... Args>
  void launch(LaunchConfig const& cfg, Args const&... args) const {
    void* ptrs[sizeof...(Args) + 1] = {const_cast<void*>(static_cast<void const*>(&args))...};
    std::size_t const sizes[sizeof...(Args) + 1] = {sizeof(Args)...};
    launch_raw(cfg, ptrs, sizes, sizeof...(Args));
  }

  // The same with the arguments as pointers to their values and their sizes.
  void launch_raw(LaunchConfig const& cfg, void** args, std::size_t const* sizes, std::size_t count) const {
    State& s = require();
    auto const& d = cu::Driver::get();
    cu::Function f = nullptr;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      Loaded& l = loaded_here(s);
      f = l.function;
      if (cfg.shared_bytes > 48 * 1024 && cfg.shared_bytes > l.shared_raised) {
        d.check(d.func_set_attribute(f, cu::kFuncMaxDynamicSharedSizeBytes, int(cfg.shared_bytes)),
                "cuFuncSetAttribute(max dynamic shared memory)");
        l.shared_raised = cfg.shared_bytes;
      }
      if (l.params_known) check_arguments(s, l.param_sizes, sizes, count);
    }
    cu::LaunchAttribute attrs[3] = {};
    unsigned n = 0;
    if (cfg.cluster.x * cfg.cluster.y * cfg.cluster.z > 1) {
      attrs[n].id = cu::kLaunchClusterDimension;
      attrs[n].value.cluster_dim = {cfg.cluster.x, cfg.cluster.y, cfg.cluster.z};
      ++n;
    }
    if (cfg.dependent) {
      attrs[n].id = cu::kLaunchProgrammaticStreamSerialization;
      attrs[n].value.programmatic_stream_serialization_allowed = 1;
      ++n;
    }
    if (cfg.cooperative) {
      attrs[n].id = cu::kLaunchCooperative;
      attrs[n].value.cooperative = 1;
      ++n;
    }
    cu::LaunchConfig lc{cfg.grid.x,          cfg.grid.y,
                        cfg.grid.z,          cfg.block.x,
                        cfg.block.y,         cfg.block.z,
                        cfg.shared_bytes,    static_cast<cu::Stream>(cfg.stream),
                        n ? attrs : nullptr, n};
    cu::Result const r = d.launch_kernel_ex(&lc, f, args, nullptr);
    if (r != 0) {
      try {
        d.check(r, "cuLaunchKernelEx");
      } catch (jit_error const& e) {
        throw jit_error("launch of " + s.display + " (grid " + dims(cfg.grid) + ", block " + dims(cfg.block) + ", " +
                            std::to_string(cfg.shared_bytes) + " bytes of dynamic shared memory, cluster " +
                            dims(cfg.cluster) + "): " + e.what(),
                        e.code());
      }
    }
  }

 private:
  struct Loaded {
    cu::Context context = nullptr;
    cu::Module module = nullptr;
    cu::Function function = nullptr;
    std::vector<std::size_t> param_sizes;
    bool params_known = false;
    unsigned shared_raised = 48 * 1024;
  };
  struct State {
    std::shared_ptr<Image const> image;
    std::string lowered, display;
    std::mutex mutex;
    std::deque<Loaded> loaded;  // one per context; a deque keeps references stable
  };

  // The kernel loaded in the current context (loading it there the first time). Pre: s.mutex held.
  static Loaded& loaded_here(State& s) {
    auto const& d = cu::Driver::get();
    cu::Context const ctx = d.current_context();
    for (auto& l : s.loaded)
      if (l.context == ctx) return l;
    Loaded l;
    l.context = ctx;
    std::string log(8192, '\0');
    int options[] = {cu::kJitErrorLogBuffer, cu::kJitErrorLogBufferSizeBytes};
    void* values[] = {log.data(), reinterpret_cast<void*>(log.size())};
    cu::Result const r = d.module_load_data_ex(&l.module, s.image->data.c_str(), 2, options, values);
    if (r != 0) {
      log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
      try {
        d.check(r, "cuModuleLoadDataEx");
      } catch (jit_error const& e) {
        throw jit_error("loading the program " + s.image->name + ": " + e.what() + (log.empty() ? "" : "\n" + log));
      }
    }
    d.check(d.module_get_function(&l.function, l.module, s.lowered.c_str()), "cuModuleGetFunction");
    if (d.func_get_param_info) {
      // The driver reports the count only by refusing the index past the last parameter.
      for (std::size_t i = 0;; ++i) {
        std::size_t offset = 0, size = 0;
        if (d.func_get_param_info(l.function, i, &offset, &size) != 0) break;
        l.param_sizes.push_back(size);
      }
      l.params_known = true;
    }
    s.loaded.push_back(std::move(l));
    return s.loaded.back();
  }

  static void check_arguments(State const& s, std::vector<std::size_t> const& params, std::size_t const* sizes,
                              std::size_t count) {
    bool ok = params.size() == count;
    for (std::size_t i = 0; ok && i < count; ++i) ok = params[i] == sizes[i];
    if (ok) return;
    auto list = [](std::size_t const* v, std::size_t n) {
      std::string t = "(";
      for (std::size_t i = 0; i < n; ++i) t += (i ? ", " : "") + std::to_string(v[i]);
      return t + ")";
    };
    throw jit_error("launch of " + s.display + ": it takes " + std::to_string(params.size()) + " parameters of sizes " +
                    list(params.data(), params.size()) + " bytes, given " + std::to_string(count) +
                    " arguments of sizes " + list(sizes, count) +
                    "; pass the arguments of the compiled specialization (or compile one for these)");
  }

  static std::string dims(Dim3 d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  }

  State& require() const {
    if (!state_) throw jit_error("an empty jit::Kernel (default-constructed): get one from a compiled Program");
    return *state_;
  }

  std::shared_ptr<State> state_;
};

}  // namespace tessera::jit
