// Tessera's headers built into the program, for the JIT (host only).
//
// A program that links the tessera::jit CMake target carries every device-usable header of
// include/tessera (all but jit/, runtime/ and tools/), so that it compiles kernels with no source
// checkout and no include directory: a wheel, an installed command. At build time
// cmake/tessera_embed_headers.cmake writes them into a C++ source (one array of bytes a file) of
// the small library tessera_jit_headers, which defines headers() below; the target defines
// TESSERA_JIT_EMBEDDED_HEADERS=1 for its users, and jit::compile then hands the files to NVRTC as
// headers from memory (`#include "tessera/core/layout.hpp"` finds them by name) instead of an
// -I<dir>. Without that library (a build that includes the headers alone) nothing here is defined
// and the JIT reads the headers from a directory (jit/compile.hpp, IncludeDirs).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/embedded.hpp: host only"
#endif

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/jit/sha256.hpp"

namespace tessera::jit::embedded {

// One file: its name as an #include spells it ("tessera/core/layout.hpp") and its bytes, followed
// by a NUL that `size` leaves out.
struct Header {
  char const* name;
  unsigned char const* data;
  std::size_t size;

  std::string_view content() const { return {reinterpret_cast<char const*>(data), size}; }
};

// The set: `count` files in byte order of their names, and `digest`, their digest() computed at
// build time (64 hex digits), which the JIT's cache keys take in place of reading the files.
struct Headers {
  Header const* files;
  std::size_t count;
  char const* digest;

  Header const* begin() const { return files; }
  Header const* end() const { return files + count; }
};

// Defined by the generated source of tessera_jit_headers (TESSERA_JIT_EMBEDDED_HEADERS).
Headers headers() noexcept;

// The digest of a set of files, given as (name, content) pairs in byte order of their names:
// SHA-256 over "tessera-jit embedded headers 1\n" and, for each file, "<name>\n<SHA-256 of its
// content, hex>\n". The build computes the same (cmake/tessera_embed_headers.cmake), so any edit
// to a header, and any header added or removed, gives another digest.
// Example: no files -> SHA-256("tessera-jit embedded headers 1\n").
inline std::string digest(std::vector<std::pair<std::string_view, std::string_view>> const& files) {
  Sha256 h;
  h.update("tessera-jit embedded headers 1\n");
  for (auto const& [name, content] : files) {
    h.update(name).update("\n");
    h.update(Sha256::of(content)).update("\n");
  }
  return h.hex();
}

}  // namespace tessera::jit::embedded
