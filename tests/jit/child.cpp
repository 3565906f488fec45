// tests/jit/child.cpp -- a separate process for the JIT tests (compile_cache.cpp): the disk cache
// seen from a new process, processes compiling the same program at once, a missing NVRTC.
//   tessera_jit_child compile     compiles tests/jit's fixed program for sm_90a, prints
//                                 "from_disk=<0|1> key=<hex> bytes=<image size>"
//   tessera_jit_child nvrtc       prints "available" or the message of the missing NVRTC
#include <cstdio>
#include <string>

#include "tessera/jit/compile.hpp"

int main(int argc, char** argv) {
  std::string const mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "nvrtc") {
      std::string why;
      std::printf("%s\n", tessera::jit::Nvrtc::available(&why) ? "available" : why.c_str());
      return 0;
    }
    if (mode == "compile") {
      tessera::jit::CompileOptions o;
      o.arch = 90;
      auto const p = tessera::jit::compile(R"(
#include "tessera/tessera.hpp"
template <class T, int N>
__global__ void fill(T* out) {
  auto t = tessera::make_tensor(tessera::make_gmem_ptr(out), tessera::make_layout(tessera::Int<N>{}));
  for (int i = threadIdx.x; i < N; i += blockDim.x) t(i) = T(i);
}
)",
                                           {"fill<float, 256>"}, o);
      std::printf("from_disk=%d key=%s bytes=%zu\n", p.from_disk_cache() ? 1 : 0, p.key().c_str(),
                  p.image().data.size());
      return 0;
    }
  } catch (std::exception const& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
  std::fprintf(stderr, "usage: tessera_jit_child compile|nvrtc\n");
  return 64;
}
