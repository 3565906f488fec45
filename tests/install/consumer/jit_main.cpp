// Consumer of an installed Tessera's JIT: the program carries Tessera's device-usable headers
// (tessera::jit links them, built at Tessera's build: include/tessera/jit/embedded.hpp), so it
// needs no include directory to compile kernels. Checks the set it carries; compiling needs NVRTC
// and is tested in tests/jit. Exit 1 on any mismatch.
#include <tessera/jit/compile.hpp>

#include <cstdio>
#include <string>
#include <string_view>

static_assert(TESSERA_JIT_EMBEDDED_HEADERS == 1, "tessera::jit builds Tessera's headers into the program");

int main() {
  tessera::jit::embedded::Headers const set = tessera::jit::embedded::headers();
  bool layout = false, umbrella = false;
  for (tessera::jit::embedded::Header const& h : set) {
    std::string_view const name = h.name;
    if (name == "tessera/core/layout.hpp") layout = h.content().find("make_layout") != std::string_view::npos;
    if (name == "tessera/tessera.hpp") umbrella = h.size > 0;
  }
  std::printf("%zu headers built in, digest %s\n", set.count, set.digest);
  return layout && umbrella && std::string_view(set.digest).size() == 64 ? 0 : 1;
}
