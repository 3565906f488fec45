// NVRTC, CUDA's run-time compiler, loaded while the program runs (host only).
//
// Nothing links against the CUDA toolkit: the first use opens libnvrtc with dlopen, looking in
// this order at
//   1. $TESSERA_NVRTC_LIBRARY (a path to the library; an error if it cannot be opened),
//   2. the loader's own search (LD_LIBRARY_PATH, the ld cache) for libnvrtc.so.13, .so.12, .so,
//   3. $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64.
// When none opens, Nvrtc::get() throws jit_error saying what to install: the `nvidia-cuda-nvrtc`
// wheel (PyTorch brings it) or a CUDA toolkit.
//
// Nvrtc::compile() turns one CUDA C++ program into PTX (for `-arch=compute_XX`) or a cubin (for
// `-arch=sm_XX`); a compile error is a result (ok == false, with NVRTC's log), not an exception.
// Name expressions (`"tessera::kernels::detail::add_kernel<float, true>"`) are instantiated and
// come back as the lowered (mangled) names to look up in the module: never spell mangled names by
// hand (they differ with NVRTC's standard library).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/nvrtc.hpp: host only (it loads NVRTC); a kernel compiled by NVRTC cannot include it"
#endif

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tessera::jit {

// What the JIT throws: a missing library, a failed load or launch, a refused argument. Compile
// errors in the user's source are results (NvrtcResult::ok), turned into a jit_error with the log
// by the layers above when the caller wants a kernel.
// code(): the CUDA driver's result (CUresult) where the driver refused something, else 0.
struct jit_error : std::runtime_error {
  explicit jit_error(std::string const& what, int code = 0) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_ = 0;
};

// One compile: ok, NVRTC's log (warnings too), the PTX or the cubin (whichever the -arch option
// asked for), and for each name expression given, its lowered name (same order).
struct NvrtcResult {
  bool ok = false;
  std::string log;
  std::string ptx;
  std::string cubin;
  std::vector<std::string> lowered_names;
};

// A header handed to NVRTC from memory: `#include "<name>"` finds `content`.
struct NvrtcHeader {
  std::string name;
  std::string content;
};

class Nvrtc {
 public:
  // The process's NVRTC, opened at the first call (thread-safe). Throws jit_error when no library
  // opens or it lacks an entry point, naming what was tried and what to install.
  static Nvrtc const& get() {
    static Nvrtc const instance;  // a throw here is retried at the next call
    return instance;
  }

  // Whether get() succeeds; `why` receives its message when not.
  static bool available(std::string* why = nullptr) {
    try {
      get();
      return true;
    } catch (jit_error const& e) {
      if (why) *why = e.what();
      return false;
    }
  }

  std::string const& library_path() const { return path_; }

  // The library $TESSERA_NVRTC_LIBRARY names (get() opens exactly that one), or "" when unset:
  // known without opening NVRTC, whose 100 MB take milliseconds to load, so that a program found
  // in the disk cache never loads it (the Python package sets the variable to pip's NVRTC).
  static std::string configured_path() {
    char const* p = std::getenv("TESSERA_NVRTC_LIBRARY");
    return p ? p : "";
  }
  int version_major() const { return major_; }
  int version_minor() const { return minor_; }

  // Compiles `source` (named `program_name` in messages) with `options`; `headers` are found by
  // #include before the include paths. Never throws for errors in the source; throws jit_error
  // when NVRTC itself fails (out of memory, an invalid option is a compile error).
  NvrtcResult compile(std::string const& source, std::string const& program_name,
                      std::vector<std::string> const& options, std::vector<std::string> const& name_expressions = {},
                      std::vector<NvrtcHeader> const& headers = {}) const {
    std::vector<char const*> header_text, header_names, option_ptrs;
    for (auto const& h : headers) {
      header_text.push_back(h.content.c_str());
      header_names.push_back(h.name.c_str());
    }
    for (auto const& o : options) option_ptrs.push_back(o.c_str());

    Program prog;
    check(create_(&prog, source.c_str(), program_name.c_str(), int(headers.size()), header_text.data(),
                  header_names.data()),
          "nvrtcCreateProgram");
    Guard guard{this, &prog};
    for (auto const& e : name_expressions) check(add_name_(prog, e.c_str()), "nvrtcAddNameExpression");

    NvrtcResult r;
    int const status = compile_(prog, int(option_ptrs.size()), option_ptrs.data());
    std::size_t n = 0;
    check(log_size_(prog, &n), "nvrtcGetProgramLogSize");
    r.log.assign(n, '\0');
    if (n) check(log_(prog, r.log.data()), "nvrtcGetProgramLog");
    while (!r.log.empty() && (r.log.back() == '\0' || r.log.back() == '\n')) r.log.pop_back();
    if (status != 0) {
      if (r.log.empty()) r.log = error_string(status);
      return r;
    }
    r.ok = true;
    // PTX exists for compute_XX targets; a cubin for sm_XX ones (then the PTX query fails).
    if (ptx_size_(prog, &n) == 0 && n > 1) {
      r.ptx.assign(n, '\0');
      check(ptx_(prog, r.ptx.data()), "nvrtcGetPTX");
      r.ptx.pop_back();  // the terminating NUL
    }
    if (cubin_size_ && cubin_size_(prog, &n) == 0 && n > 0) {
      r.cubin.assign(n, '\0');
      check(cubin_(prog, r.cubin.data()), "nvrtcGetCUBIN");
    }
    for (auto const& e : name_expressions) {
      char const* lowered = nullptr;
      check(lowered_(prog, e.c_str(), &lowered), "nvrtcGetLoweredName");
      r.lowered_names.emplace_back(lowered ? lowered : "");
    }
    return r;
  }

  Nvrtc(Nvrtc const&) = delete;
  Nvrtc& operator=(Nvrtc const&) = delete;

 private:
  static constexpr char const* kInstall =
      "Install NVRTC: `pip install nvidia-cuda-nvrtc` (PyTorch's CUDA builds already bring it), or a CUDA toolkit "
      "(then set CUDA_HOME), or point TESSERA_NVRTC_LIBRARY at libnvrtc.so";

  using Program = void*;  // nvrtcProgram: a pointer to an opaque struct
  using Result = int;     // nvrtcResult: an enum, 0 on success

  Nvrtc() {
    std::vector<std::string> tried;
    auto try_open = [&](std::string const& name) {
      tried.push_back(name);
      handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle_) path_ = name;
      return handle_ != nullptr;
    };
    if (char const* explicit_path = std::getenv("TESSERA_NVRTC_LIBRARY"); explicit_path && *explicit_path) {
      if (!try_open(explicit_path)) {
        char const* err = dlerror();
        throw jit_error(std::string("NVRTC: TESSERA_NVRTC_LIBRARY=") + explicit_path + " does not open (" +
                        (err ? err : "unknown error") + "). " + kInstall);
      }
    } else {
      bool found = false;
      for (char const* so : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"})
        if ((found = try_open(so))) break;
      for (char const* var : {"CUDA_HOME", "CUDA_PATH"}) {
        char const* root = std::getenv(var);
        if (found || !root || !*root) continue;
        for (char const* so : {"/lib64/libnvrtc.so.13", "/lib64/libnvrtc.so.12", "/lib64/libnvrtc.so"})
          if ((found = try_open(std::string(root) + so))) break;
      }
      if (!found) try_open("/usr/local/cuda/lib64/libnvrtc.so");
    }
    if (!handle_) {
      std::string list;
      for (auto const& t : tried) list += (list.empty() ? "" : ", ") + t;
      throw jit_error("NVRTC (CUDA's run-time compiler) was not found (tried " + list + "). " + kInstall);
    }
    sym(version_, "nvrtcVersion");
    sym(create_, "nvrtcCreateProgram");
    sym(destroy_, "nvrtcDestroyProgram");
    sym(compile_, "nvrtcCompileProgram");
    sym(log_size_, "nvrtcGetProgramLogSize");
    sym(log_, "nvrtcGetProgramLog");
    sym(ptx_size_, "nvrtcGetPTXSize");
    sym(ptx_, "nvrtcGetPTX");
    sym(add_name_, "nvrtcAddNameExpression");
    sym(lowered_, "nvrtcGetLoweredName");
    sym(error_string_, "nvrtcGetErrorString");
    cubin_size_ = reinterpret_cast<decltype(cubin_size_)>(dlsym(handle_, "nvrtcGetCUBINSize"));
    cubin_ = reinterpret_cast<decltype(cubin_)>(dlsym(handle_, "nvrtcGetCUBIN"));
    check(version_(&major_, &minor_), "nvrtcVersion");
    if (major_ < 12)
      throw jit_error("NVRTC " + std::to_string(major_) + "." + std::to_string(minor_) + " at " + path_ +
                      " is too old: Tessera needs NVRTC 12 or newer (C++20, sm_90a)");
  }
  ~Nvrtc() = default;  // the library stays loaded: kernels may outlive any owner

  template <class F>
  void sym(F& f, char const* name) {
    f = reinterpret_cast<F>(dlsym(handle_, name));
    if (!f) throw jit_error(std::string("NVRTC at ") + path_ + " has no " + name + ": a broken or foreign library");
  }

  std::string error_string(Result r) const {
    char const* s = error_string_ ? error_string_(r) : nullptr;
    return s ? s : "NVRTC error " + std::to_string(r);
  }

  void check(Result r, char const* what) const {
    if (r != 0) throw jit_error(std::string(what) + " failed: " + error_string(r));
  }

  struct Guard {
    Nvrtc const* self;
    Program* prog;
    ~Guard() { self->destroy_(prog); }
  };

  void* handle_ = nullptr;
  std::string path_;
  int major_ = 0, minor_ = 0;
  Result (*version_)(int*, int*) = nullptr;
  Result (*create_)(Program*, char const*, char const*, int, char const* const*, char const* const*) = nullptr;
  Result (*destroy_)(Program*) = nullptr;
  Result (*compile_)(Program, int, char const* const*) = nullptr;
  Result (*log_size_)(Program, std::size_t*) = nullptr;
  Result (*log_)(Program, char*) = nullptr;
  Result (*ptx_size_)(Program, std::size_t*) = nullptr;
  Result (*ptx_)(Program, char*) = nullptr;
  Result (*cubin_size_)(Program, std::size_t*) = nullptr;
  Result (*cubin_)(Program, char*) = nullptr;
  Result (*add_name_)(Program, char const*) = nullptr;
  Result (*lowered_)(Program, char const*, char const**) = nullptr;
  char const* (*error_string_)(Result) = nullptr;
};

}  // namespace tessera::jit
