// Compiling CUDA C++ that includes Tessera's headers while the program runs (host only).
//
//   auto program = jit::compile(R"(
//     #include "tessera/tessera.hpp"
//     template <class T, class Layout>
//     __global__ void scale(T* x, T a) {
//       auto t = tessera::make_tensor(tessera::make_gmem_ptr(x), Layout{});
//       ...
//     })", {"scale<float, " + jit::spell_type(layout) + ">"});
//   program.kernel(0).launch({.grid = {n / 256}, .block = {256}}, ptr, 2.0f);
//
// compile() instantiates each name expression, compiles for the current device's architecture
// (or CompileOptions::arch) to a cubin, and caches the result in memory and on disk
// (jit/cache.hpp) under a SHA-256 key of the source, the options, the name expressions, the extra
// headers, every Tessera header's content, the architecture and NVRTC's version. A compile error
// throws jit_error with NVRTC's log, whose lines name the program (`program_name(12): error: ...`).
//
// Headers: Tessera's from the directory $TESSERA_INCLUDE_DIR when it is set (a developer editing
// them); else those built into the program (jit/embedded.hpp: a program linking the tessera::jit
// CMake target carries them, and NVRTC gets them from memory); else the directory
// TESSERA_JIT_INCLUDE_DIR names (a build that includes the headers alone may define it). libcu++
// (cuda/std, which Tessera's headers use under NVRTC) from $TESSERA_CCCL_INCLUDE_DIR,
// TESSERA_JIT_CCCL_DIR, $CUDA_HOME/include/cccl, or beside NVRTC's library; the toolkit's include
// directory (cuda_fp16.h, cuda_bf16.h) when one is found.
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/compile.hpp: host only"
#endif

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/jit/cache.hpp"
#include "tessera/jit/embedded.hpp"
#include "tessera/jit/kernel.hpp"
#include "tessera/jit/nvrtc.hpp"
#include "tessera/jit/sha256.hpp"
#include "tessera/version.hpp"

// Whether the program carries Tessera's headers (jit/embedded.hpp; the tessera::jit CMake target
// defines it to 1 and links them).
#ifndef TESSERA_JIT_EMBEDDED_HEADERS
#define TESSERA_JIT_EMBEDDED_HEADERS 0
#endif
// A directory holding Tessera's headers, for a program that does not carry them; "" when unknown.
#ifndef TESSERA_JIT_INCLUDE_DIR
#define TESSERA_JIT_INCLUDE_DIR ""
#endif
// Where the build found libcu++ and the toolkit's headers (set by the tessera::jit CMake target).
#ifndef TESSERA_JIT_CCCL_DIR
#define TESSERA_JIT_CCCL_DIR ""
#endif
#ifndef TESSERA_JIT_CUDA_INCLUDE_DIR
#define TESSERA_JIT_CUDA_INCLUDE_DIR ""
#endif

namespace tessera::jit {

struct CompileOptions {
  std::vector<std::string> options;             // more NVRTC options: -DNAME=1, -I<dir>, -lineinfo, -maxrregcount=N
  std::vector<NvrtcHeader> headers;             // headers from memory, found by #include before any directory
  int arch = 0;                                 // compute capability x 10 (90 = sm_90a); 0: the current device's
  bool cache = true;                            // false: compile now, whatever the caches hold
  bool pch = true;                              // NVRTC's precompiled header within the process (PchDir; NVRTC >= 12.8)
  std::string program_name = "tessera_jit.cu";  // the file name NVRTC's messages give
};

// Where compile() takes the headers from (see the file's comment): Tessera's from `tessera` (a
// directory) or, when `embedded`, from the program itself; libcu++ and the toolkit's from the
// directories `cccl` and `cuda`. Throws jit_error when Tessera's headers or libcu++ cannot be
// found, naming the variable to set.
struct IncludeDirs {
  std::string tessera, cccl, cuda;
  bool embedded = false;

  static bool is_dir(std::string const& p) {
    struct stat st {};
    return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  }
  static bool is_file(std::string const& p) {
    struct stat st {};
    return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }

  static IncludeDirs const& get() {
    static IncludeDirs const dirs = find();
    return dirs;
  }

  static IncludeDirs find() {
    IncludeDirs d;
    auto env = [](char const* v) -> std::string {
      char const* s = std::getenv(v);
      return s ? s : "";
    };
    std::vector<std::string> tried;
    if (std::string const dir = env("TESSERA_INCLUDE_DIR"); !dir.empty()) {
      // Asked for: a directory that is not one is an error, never the built-in headers instead.
      if (!is_file(dir + "/tessera/tessera.hpp"))
        throw jit_error("TESSERA_INCLUDE_DIR=" + dir +
                        " holds no tessera/tessera.hpp: set it to the directory that holds tessera/ (a checkout's "
                        "include/), or unset it to compile with the headers " +
                        (TESSERA_JIT_EMBEDDED_HEADERS ? "built into the program" : "of the build"));
      d.tessera = dir;
    } else if (TESSERA_JIT_EMBEDDED_HEADERS) {
      d.embedded = true;
    } else if (std::string const built = TESSERA_JIT_INCLUDE_DIR; is_file(built + "/tessera/tessera.hpp")) {
      d.tessera = built;
    } else {
      throw jit_error(std::string("Tessera's headers were not found for the JIT: this program does not carry them "
                                  "(link the tessera::jit CMake target, which builds them in)") +
                      (built.empty() ? "" : " and " + built + " holds no tessera/tessera.hpp") +
                      "; set TESSERA_INCLUDE_DIR to the directory that holds tessera/tessera.hpp");
    }
    std::vector<std::string> roots;
    for (char const* v : {"CUDA_HOME", "CUDA_PATH"})
      if (!env(v).empty()) roots.push_back(env(v) + "/include");
    // Beside NVRTC's library: <root>/lib64/libnvrtc.so or <root>/lib/libnvrtc.so (pip wheels).
    if (std::string lib = Nvrtc::configured_path(); !lib.empty() || Nvrtc::available()) {
      if (lib.empty()) lib = Nvrtc::get().library_path();
      if (lib.find('/') != std::string::npos) {
        std::string const dir = lib.substr(0, lib.rfind('/'));
        roots.push_back(dir.substr(0, dir.rfind('/')) + "/include");
      }
    }
    roots.push_back(TESSERA_JIT_CUDA_INCLUDE_DIR);
    roots.push_back("/usr/local/cuda/include");
    tried.clear();
    for (std::string const& c : {env("TESSERA_CCCL_INCLUDE_DIR"), std::string(TESSERA_JIT_CCCL_DIR)}) {
      if (c.empty()) continue;
      tried.push_back(c);
      if (is_file(c + "/cuda/std/type_traits")) {
        d.cccl = c;
        break;
      }
    }
    for (auto const& r : roots) {
      if (r.empty() || r == "/include") continue;
      if (d.cccl.empty()) {
        tried.push_back(r + "/cccl");
        if (is_file(r + "/cccl/cuda/std/type_traits")) d.cccl = r + "/cccl";
      }
      if (d.cuda.empty() && is_file(r + "/cuda_fp16.h")) d.cuda = r;
    }
    if (d.cccl.empty())
      throw jit_error(
          "libcu++ (cuda/std headers, which Tessera's headers use under NVRTC) was not found (tried: " + join(tried) +
          "); install a CUDA toolkit and set CUDA_HOME, or `pip install nvidia-cuda-cccl`, or set "
          "TESSERA_CCCL_INCLUDE_DIR to the directory that holds cuda/std");
    return d;
  }

  static std::string join(std::vector<std::string> const& v) {
    std::string s;
    for (auto const& x : v) s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? "nothing" : s;
  }
};

// The process's disk cache (jit/cache.hpp; its directory read from the environment once).
inline DiskCache const& disk_cache() {
  static DiskCache const disk(DiskCache::default_directory());
  return disk;
}

// NVRTC's automatic precompiled header (-pch, NVRTC 12.8 and later): the first compile of a
// process saves the parsed headers it opens with, and later compiles that open with the same
// headers load them instead of parsing them again (a compile of tessera/tessera.hpp's headers:
// ~1 s -> ~0.15 s; docs/performance.md). NVRTC deletes its PCH files (about 100 MB each) when the
// process exits, so the saving is within a process. PchDir is the process's private directory for
// them, <disk cache>/pch/<pid>-XXXXXX (0700, created by mkdtemp inside the user's checked cache
// directory), holding a lock file the process keeps locked (flock) while it lives: no other
// process uses it, a forked child sees no directory (path() is the creating process's only), and a
// new process removes the directories whose lock it can take (their process is gone). The
// directory is removed at exit unless a compile is using it then. One compile uses it at a time
// (`busy`; a compile that finds it busy runs without PCH). Off with TESSERA_JIT_PCH=0,
// CompileOptions::pch = false, when the disk cache is off, and for programs given headers from
// memory by the caller (CompileOptions::headers): NVRTC does not compare a header from memory with
// the one a saved header was made from, and would take one saved from other contents under the
// same name. The headers built into the program (jit/embedded.hpp) are the same for the life of
// the process, so they keep it on.
class PchDir {
 public:
  // The process's directory; never destroyed (compiles on other threads may outlive static
  // destruction), cleaned up by an atexit handler instead.
  static PchDir& get() {
    static PchDir* const d = new PchDir;
    return *d;
  }
  // "" when unavailable, or in a process forked from the one that made it.
  std::string const& path() const {
    static std::string const none;
    return getpid() == owner_ ? path_ : none;
  }
  std::mutex busy;

  PchDir(PchDir const&) = delete;
  PchDir& operator=(PchDir const&) = delete;

 private:
  PchDir() {
    if (char const* e = std::getenv("TESSERA_JIT_PCH"); e && std::string(e) == "0") return;
    DiskCache const& disk = disk_cache();
    if (!disk.enabled()) return;
    std::string const base = disk.directory() + "/pch";
    mkdir(base.c_str(), 0700);
    struct stat st {};
    if (lstat(base.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) != 0)
      return;
    sweep(base);
    std::string tmpl = base + "/" + std::to_string(getpid()) + "-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) return;
    int const fd = open((tmpl + "/lock").c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (fd >= 0) close(fd);
      remove_tree(tmpl);
      return;
    }
    lock_fd_ = fd;  // held (locked) for the life of the process
    path_ = tmpl;
    owner_ = getpid();
    std::atexit([] { get().cleanup(); });
  }
  // At exit: the directory goes, unless a compile (another thread) is using it right now.
  void cleanup() {
    if (path_.empty() || getpid() != owner_ || !busy.try_lock()) return;
    remove_tree(path_);
    path_.clear();
    busy.unlock();
  }
  // Removes the directories of processes that no longer run: those whose lock file can be locked
  // (the lock dies with its process), or that have none and a name whose pid is not running.
  static void sweep(std::string const& base) {
    DIR* d = opendir(base.c_str());
    if (!d) return;
    std::vector<std::string> names;
    while (dirent* e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    closedir(d);
    for (auto const& name : names) {
      std::string const dir = base + "/" + name;
      struct stat st {};
      if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
      int const fd = open((dir + "/lock").c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
      if (fd >= 0) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) remove_tree(dir);
        close(fd);
        continue;
      }
      char* end = nullptr;
      long const pid = std::strtol(name.c_str(), &end, 10);
      if (end != name.c_str() && *end == '-' && pid > 0 && kill(pid_t(pid), 0) != 0 && errno == ESRCH) remove_tree(dir);
    }
  }
  // Removes a directory of plain files (what NVRTC and PchDir leave in one).
  static void remove_tree(std::string const& dir) {
    if (DIR* d = opendir(dir.c_str())) {
      std::vector<std::string> files;
      while (dirent* e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") files.push_back(dir + "/" + e->d_name);
      closedir(d);
      for (auto const& f : files) unlink(f.c_str());
    }
    rmdir(dir.c_str());
  }
  std::string path_;
  pid_t owner_ = 0;
  int lock_fd_ = -1;
};

// The headers built into the program as NVRTC takes them from memory; empty when it carries none
// or TESSERA_INCLUDE_DIR names a directory to read instead.
inline std::vector<NvrtcHeader> const& embedded_nvrtc_headers() {
  static std::vector<NvrtcHeader> const headers = [] {
    std::vector<NvrtcHeader> v;
#if TESSERA_JIT_EMBEDDED_HEADERS
    if (IncludeDirs::get().embedded)
      for (embedded::Header const& h : embedded::headers()) v.push_back({h.name, std::string(h.content())});
#endif
    return v;
  }();
  return headers;
}

// The digest of everything Tessera's headers are: part of every cache key, so an edited or
// upgraded header compiles anew. Headers built into the program: their digest computed at build
// time (jit/embedded.hpp: every file's name and content), with the libcu++ version and the
// directories of libcu++ and the toolkit; nothing is read but libcu++'s version file.
inline std::string embedded_headers_digest(std::string_view set_digest, IncludeDirs const& dirs) {
  std::ifstream v(dirs.cccl + "/cuda/std/__cccl/version.h", std::ios::binary);
  std::ostringstream ss;
  ss << v.rdbuf();
  return Sha256()
      .field("tessera-jit embedded headers")
      .field(set_digest)
      .field(dirs.cccl)
      .field(ss.str())
      .field(dirs.cuda)
      .hex();
}

// Headers from a directory ($TESSERA_INCLUDE_DIR): SHA-256 over every file's path and content under
// <dir>/tessera, and the same libcu++ version and directories. Computed once per process; a new
// process finds it in the disk cache under a key of the headers' paths, sizes and modification
// times (stat only), so that only a changed tree is read and hashed again (milliseconds saved on
// every program's first launch).
inline std::string directory_headers_digest(IncludeDirs const& dirs) {
  std::vector<std::string> files;
  std::vector<std::string> stack = {"tessera"};
  while (!stack.empty()) {
    std::string const rel = stack.back();
    stack.pop_back();
    DIR* d = opendir((dirs.tessera + "/" + rel).c_str());
    if (!d) continue;
    while (dirent* e = readdir(d)) {
      std::string const name = e->d_name;
      if (name == "." || name == "..") continue;
      std::string const r = rel + "/" + name;
      if (IncludeDirs::is_dir(dirs.tessera + "/" + r)) stack.push_back(r);
      else files.push_back(r);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  std::string const version_file = dirs.cccl + "/cuda/std/__cccl/version.h";
  Sha256 identity;
  identity.field("tessera-jit headers 1").field(dirs.tessera).field(dirs.cccl).field(dirs.cuda);
  for (std::string const& f : files) {
    struct stat st {};
    std::string const path = dirs.tessera + "/" + f;
    if (stat(path.c_str(), &st) != 0) continue;
    identity.field(f)
        .field(std::to_string(st.st_size))
        .field(std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec));
  }
  struct stat vst {};
  if (stat(version_file.c_str(), &vst) == 0)
    identity.field(std::to_string(vst.st_size)).field(std::to_string(vst.st_mtim.tv_sec));
  std::string const memo_key = identity.hex();
  if (auto memo = disk_cache().load(memo_key); memo && memo->image.size() == 64) return memo->image;

  Sha256 h;
  for (auto const& f : files) {
    std::ifstream in(dirs.tessera + "/" + f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    h.field(f).field(ss.str());
  }
  std::ifstream v(version_file, std::ios::binary);
  std::ostringstream ss;
  ss << v.rdbuf();
  h.field(dirs.cccl).field(ss.str()).field(dirs.cuda);
  std::string const hex = h.hex();
  disk_cache().store(memo_key, CacheEntry{hex, false, {}});
  return hex;
}

// The process's headers digest, computed once (the headers' source is fixed for its life).
inline std::string const& headers_digest() {
  static std::string const digest = [] {
    IncludeDirs const& dirs = IncludeDirs::get();
#if TESSERA_JIT_EMBEDDED_HEADERS
    if (dirs.embedded) return embedded_headers_digest(embedded::headers().digest, dirs);
#endif
    return directory_headers_digest(dirs);
  }();
  return digest;
}

// NVRTC's part of a cache key. The library $TESSERA_NVRTC_LIBRARY names: its resolved path, size
// and modification time (a stat; another file or a replaced one is another key), so that a disk
// cache hit never loads NVRTC (6-9 ms on the development machine). Otherwise the loaded library's
// version. Either is fixed for the life of the process.
inline std::string const& nvrtc_identity() {
  static std::string const id = []() -> std::string {
    if (std::string const lib = Nvrtc::configured_path(); !lib.empty()) {
      struct stat st {};
      char* real = realpath(lib.c_str(), nullptr);
      std::string const path = real ? real : lib;
      std::free(real);
      if (stat(path.c_str(), &st) == 0)
        return "file " + path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
               std::to_string(st.st_mtim.tv_nsec);
      // Not a file: get() reports it when a compile needs NVRTC.
    }
    Nvrtc const& nvrtc = Nvrtc::get();
    return "version " + std::to_string(nvrtc.version_major()) + "." + std::to_string(nvrtc.version_minor());
  }();
  return id;
}

// The compute capability (x10) of the current device.
inline int current_arch() {
  auto const& d = cu::Driver::get();
  cu::Device const dev = d.current_device();
  return d.device_attribute(cu::kDeviceComputeCapabilityMajor, dev) * 10 +
         d.device_attribute(cu::kDeviceComputeCapabilityMinor, dev);
}

// A compiled program: its image, NVRTC's log (warnings), and one kernel per name expression.
class Program {
 public:
  Program() = default;

  std::size_t size() const { return names_.size(); }
  // The kernel of the i-th name expression, or of the one spelled `name_expression`.
  Kernel const& kernel(std::size_t i) const {
    if (i >= kernels_.size())
      throw jit_error("jit::Program::kernel(" + std::to_string(i) + "): the program has " +
                      std::to_string(kernels_.size()) + " name expressions");
    return kernels_[i];
  }
  Kernel const& kernel(std::string const& name_expression) const {
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == name_expression) return kernels_[i];
    std::string all;
    for (auto const& n : names_) all += "\n  " + n;
    throw jit_error("jit::Program::kernel: \"" + name_expression +
                    "\" is not one of the name expressions compiled:" + all);
  }

  std::string const& log() const { return log_; }
  std::string const& key() const { return key_; }
  Image const& image() const { return *image_; }
  std::vector<std::string> const& options() const { return options_; }
  bool from_disk_cache() const { return from_disk_; }
  double compile_seconds() const { return seconds_; }

 private:
  friend Program compile(std::string const&, std::vector<std::string> const&, CompileOptions const&);
  std::vector<std::string> names_;
  std::vector<Kernel> kernels_;
  std::shared_ptr<Image const> image_;
  std::string log_, key_;
  std::vector<std::string> options_;
  bool from_disk_ = false;
  double seconds_ = 0;
};

// The NVRTC options compile() uses for `arch` (before CompileOptions::options).
//
// -D_CCCL_META_UNROLL_LIMIT=10: how many types libcu++'s type-list folds take a step
// (cuda/std/__type_traits/type_list.h); it picks 10 under nvcc and 16 elsewhere, NVRTC included,
// and expanding the preprocessor tables for 16 costs NVRTC's front end about 0.6 s in every
// program that includes <cuda/std/type_traits> (0.05 s for 10). The types computed are the same.
inline std::vector<std::string> base_options(int arch) {
  IncludeDirs const& dirs = IncludeDirs::get();
  // sm_90a: Hopper's architecture-specific instructions (wgmma, setmaxnreg) need the `a` target.
  std::string const target = "sm_" + std::to_string(arch) + (arch == 90 ? "a" : "");
  std::vector<std::string> o = {"-std=c++20", "-default-device", "-arch=" + target};
  if (!dirs.embedded) o.push_back("-I" + dirs.tessera);
  o.push_back("-I" + dirs.cccl);
  if (!dirs.cuda.empty()) o.push_back("-I" + dirs.cuda);
  o.push_back("-D_CCCL_META_UNROLL_LIMIT=10");
  return o;
}

inline Program compile(std::string const& source, std::vector<std::string> const& name_expressions,
                       CompileOptions const& opts = {}) {
  if (name_expressions.empty())
    throw jit_error("jit::compile: no name expression: name the kernels to instantiate, e.g. {\"my_kernel<float>\"}");
  int const arch = opts.arch ? opts.arch : current_arch();
  if (arch < 70) throw jit_error("jit::compile: architecture " + std::to_string(arch) + " is below sm_70");
  std::vector<std::string> options = base_options(arch);
  options.insert(options.end(), opts.options.begin(), opts.options.end());

  Sha256 h;
  h.field("tessera-jit 2").field(TESSERA_VERSION_STRING).field(headers_digest());
  h.field(nvrtc_identity());
  h.field(opts.program_name).field(source);
  for (auto const& o : options) h.field(o);
  h.field("names");
  for (auto const& n : name_expressions) h.field(n);
  h.field("headers");
  for (auto const& hd : opts.headers) h.field(hd.name).field(hd.content);
  std::string const key = h.hex();

  static std::mutex memory_mutex;
  static std::map<std::string, Program> memory;
  if (opts.cache) {
    std::lock_guard<std::mutex> lock(memory_mutex);
    if (auto it = memory.find(key); it != memory.end()) return it->second;
  }

  Program p;
  p.names_ = name_expressions;
  p.key_ = key;
  p.options_ = options;
  auto image = std::make_shared<Image>();
  image->name = opts.program_name;
  std::vector<std::string> lowered;
  DiskCache const& disk = disk_cache();
  std::optional<CacheEntry> hit = opts.cache ? disk.load(key) : std::nullopt;
  if (hit && hit->lowered_names.size() == name_expressions.size()) {
    image->data = std::move(hit->image);
    image->is_ptx = hit->is_ptx;
    lowered = std::move(hit->lowered_names);
    p.from_disk_ = true;
  } else {
    Nvrtc const& nvrtc = Nvrtc::get();  // loaded only to compile
    // The precompiled header changes how long NVRTC takes, not what it produces: it is not in the key.
    std::vector<std::string> nvrtc_options = options;
    std::unique_lock<std::mutex> pch_lock;
    bool const pch_supported =
        nvrtc.version_major() > 12 || (nvrtc.version_major() == 12 && nvrtc.version_minor() >= 8);
    if (opts.pch && pch_supported && opts.headers.empty()) {
      PchDir& pch = PchDir::get();
      if (!pch.path().empty()) {
        pch_lock = std::unique_lock<std::mutex>(pch.busy, std::try_to_lock);
        if (pch_lock.owns_lock())
          // 629, 630: a program whose options or first #includes differ from a saved header's (it
          // is parsed in full); 20283: no header could be saved for this program. None concerns
          // the program's code.
          nvrtc_options.insert(nvrtc_options.end(), {"-pch", "--pch-dir=" + pch.path(), "--pch-messages=false",
                                                     "--diag-suppress=629,630,20283"});
      }
    }
    // Headers from memory: the caller's, then those built into the program (a name the caller
    // gives is the caller's).
    std::vector<NvrtcHeader> const* headers = &opts.headers;
    std::vector<NvrtcHeader> all;
    if (std::vector<NvrtcHeader> const& builtin = embedded_nvrtc_headers(); !builtin.empty()) {
      all = opts.headers;
      for (NvrtcHeader const& b : builtin)
        if (std::none_of(opts.headers.begin(), opts.headers.end(),
                         [&](NvrtcHeader const& u) { return u.name == b.name; }))
          all.push_back(b);
      headers = &all;
    }
    auto const t0 = std::chrono::steady_clock::now();
    NvrtcResult r = nvrtc.compile(source, opts.program_name, nvrtc_options, name_expressions, *headers);
    p.seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok) {
      std::string kernels;
      for (auto const& n : name_expressions) kernels += (kernels.empty() ? "" : ", ") + n;
      throw jit_error("jit::compile: NVRTC could not compile " + opts.program_name + " (" + kernels + ") for sm_" +
                      std::to_string(arch) + ":\n" + r.log);
    }
    p.log_ = std::move(r.log);
    image->is_ptx = r.cubin.empty();
    image->data = image->is_ptx ? std::move(r.ptx) : std::move(r.cubin);
    lowered = std::move(r.lowered_names);
    if (opts.cache) disk.store(key, CacheEntry{image->data, image->is_ptx, lowered});
  }
  p.image_ = image;
  for (std::size_t i = 0; i < name_expressions.size(); ++i)
    p.kernels_.emplace_back(image, lowered[i], name_expressions[i]);
  if (opts.cache) {
    std::lock_guard<std::mutex> lock(memory_mutex);
    memory.emplace(key, p);
  }
  return p;
}

// compile() of a file's content; NVRTC's messages name the file.
inline Program compile_file(std::string const& path, std::vector<std::string> const& name_expressions,
                            CompileOptions opts = {}) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw jit_error("jit::compile_file: cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  opts.program_name = path;
  return compile(ss.str(), name_expressions, opts);
}

}  // namespace tessera::jit
