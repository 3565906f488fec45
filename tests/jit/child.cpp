// tests/jit/child.cpp -- a separate process for the JIT tests (compile.cpp, embedded.cpp): the disk
// cache seen from a new process, processes compiling the same program at once, a missing NVRTC,
// where the headers come from.
//   tessera_jit_child compile     compiles tests/jit's fixed program for sm_90a, prints
//                                 "from_disk=<0|1> key=<hex> bytes=<image size> embedded=<0|1>
//                                 tessera_dir=<the headers' directory, or none>
//                                 nvrtc_loaded=<0|1>" (whether libnvrtc is mapped into the process)
//   tessera_jit_child pch         compiles it (no cache), then prints "pch_dir=<dir> mode=<octal>
//                                 files=<names>" of its precompiled headers' directory, or
//                                 "pch_dir=none"
//   tessera_jit_child nvrtc       prints "available" or the message of the missing NVRTC
#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tessera/jit/compile.hpp"

// Whether NVRTC's library is mapped into this process (it is loaded).
static bool nvrtc_loaded() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libnvrtc") != std::string::npos && line.find("builtins") == std::string::npos) return true;
  return false;
}

int main(int argc, char** argv) {
  std::string const mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "nvrtc") {
      std::string why;
      std::printf("%s\n", tessera::jit::Nvrtc::available(&why) ? "available" : why.c_str());
      return 0;
    }
    if (mode == "compile" || mode == "pch") {
      tessera::jit::CompileOptions o;
      o.arch = 90;
      o.cache = mode == "compile";
      auto const p = tessera::jit::compile(R"(
#include "tessera/tessera.hpp"
template <class T, int N>
__global__ void fill(T* out) {
  auto t = tessera::make_tensor(tessera::make_gmem_ptr(out), tessera::make_layout(tessera::Int<N>{}));
  for (int i = threadIdx.x; i < N; i += blockDim.x) t(i) = T(i);
}
)",
                                           {"fill<float, 256>"}, o);
      tessera::jit::IncludeDirs const& dirs = tessera::jit::IncludeDirs::get();
      std::printf("from_disk=%d key=%s bytes=%zu embedded=%d tessera_dir=%s nvrtc_loaded=%d\n",
                  p.from_disk_cache() ? 1 : 0, p.key().c_str(), p.image().data.size(), dirs.embedded ? 1 : 0,
                  dirs.tessera.empty() ? "none" : dirs.tessera.c_str(), nvrtc_loaded() ? 1 : 0);
      if (mode == "pch") {
        std::string const& dir = tessera::jit::PchDir::get().path();
        if (dir.empty()) {
          std::printf("pch_dir=none\n");
          return 0;
        }
        struct stat st {};
        stat(dir.c_str(), &st);
        std::string files;
        if (DIR* d = opendir(dir.c_str())) {
          while (dirent* e = readdir(d)) files += std::string(" ") + e->d_name;
          closedir(d);
        }
        std::printf("pch_dir=%s mode=%o files=%s\n", dir.c_str(), unsigned(st.st_mode & 0777), files.c_str());
      }
      return 0;
    }
  } catch (std::exception const& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "usage: tessera_jit_child compile|pch|nvrtc\n");
  return 64;
}
