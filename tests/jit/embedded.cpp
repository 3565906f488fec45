// tests/jit/embedded.cpp -- Tessera's headers built into the program (jit/embedded.hpp,
// cmake/tessera_embed_headers.cmake): the set is exactly the device-usable headers on disk, byte for
// byte; its digest is their names and contents, and the cache key follows it; a program compiles
// with no include directory at all, and TESSERA_INCLUDE_DIR still reads a directory (a changed
// header there changes the key). Compiling needs NVRTC (skipped, saying why, without it).
#include "tessera/jit/embedded.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "require.hpp"
#include "tessera/jit/compile.hpp"

namespace tessera::jit {
namespace {

namespace fs = std::filesystem;

static_assert(TESSERA_JIT_EMBEDDED_HEADERS, "tessera_jit_tests links tessera::jit, which builds the headers in");

std::string read(fs::path const& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The device-usable headers of the checkout: every .hpp, .cuh and .h under include/tessera but
// those of jit/, runtime/ and tools/ (host only), by name.
std::map<std::string, std::string> headers_on_disk() {
  std::map<std::string, std::string> files;
  fs::path const root = TESSERA_TEST_INCLUDE_DIR;
  for (auto const& e : fs::recursive_directory_iterator(root / "tessera")) {
    std::string const name = fs::relative(e.path(), root).generic_string();
    std::string const ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".hpp" && ext != ".cuh" && ext != ".h")) continue;
    if (name.starts_with("tessera/jit/") || name.starts_with("tessera/runtime/") || name.starts_with("tessera/tools/"))
      continue;
    files[name] = read(e.path());
  }
  return files;
}

std::vector<std::pair<std::string_view, std::string_view>> pairs(embedded::Headers const& set) {
  std::vector<std::pair<std::string_view, std::string_view>> v;
  for (embedded::Header const& h : set) v.emplace_back(h.name, h.content());
  return v;
}

// A header added, removed or edited without the embedded copy following would fail here (the
// build regenerates it from a glob, so it follows; this checks that it does).
TEST(EmbeddedHeaders, AreTheDeviceUsableHeadersOnDisk) {
  embedded::Headers const set = embedded::headers();
  std::map<std::string, std::string> const disk = headers_on_disk();
  ASSERT_GT(disk.size(), 50u);
  std::vector<std::string> names;
  for (embedded::Header const& h : set) {
    names.push_back(h.name);
    EXPECT_EQ(h.data[h.size], 0) << h.name << ": NUL-terminated for NVRTC";
    auto const it = disk.find(h.name);
    if (it == disk.end()) {
      ADD_FAILURE() << h.name << " is embedded but not under " << TESSERA_TEST_INCLUDE_DIR;
      continue;
    }
    EXPECT_TRUE(h.content() == it->second) << h.name << " differs from the file on disk";
  }
  for (auto const& [name, content] : disk)
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name << " is not embedded";
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << "the set is in byte order of the names";
  EXPECT_NE(std::find(names.begin(), names.end(), "tessera/tessera.hpp"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "tessera/kernels/gemm/sm90_kernel.cuh"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "tessera/jit/compile.hpp"), names.end()) << "host only";
}

// The build's digest is embedded::digest() of the names and contents; one byte of one header, a
// name, or a file more or less gives another digest, and the cache keys' header digest follows it.
TEST(EmbeddedHeaders, DigestIsTheirNamesAndContents) {
  embedded::Headers const set = embedded::headers();
  auto files = pairs(set);
  EXPECT_EQ(embedded::digest(files), set.digest) << "the build computed the digest as embedded::digest does";
  EXPECT_EQ(std::string(set.digest).size(), 64u);

  std::string edited(files[3].second);
  edited.back() = edited.back() == ' ' ? '\n' : ' ';
  auto changed = files;
  changed[3].second = edited;
  EXPECT_NE(embedded::digest(changed), set.digest) << "an edited header";
  auto renamed = files;
  std::string const other = std::string(files[3].first) + "x";
  renamed[3].first = other;
  EXPECT_NE(embedded::digest(renamed), set.digest) << "a renamed header";
  auto fewer = files;
  fewer.pop_back();
  EXPECT_NE(embedded::digest(fewer), set.digest) << "a header removed";

  TESSERA_REQUIRE_NVRTC();  // IncludeDirs finds libcu++ beside NVRTC as a last resort
  IncludeDirs const& dirs = IncludeDirs::get();
  if (!dirs.embedded) GTEST_SKIP() << "TESSERA_INCLUDE_DIR is set: this process reads " << dirs.tessera;
  EXPECT_EQ(headers_digest(), embedded_headers_digest(set.digest, dirs));
  EXPECT_NE(embedded_headers_digest(embedded::digest(changed), dirs), headers_digest())
      << "an edited header changes every cache key";
}

// tessera_jit_child compile, under env(1) with `env` (its arguments).
std::string child(std::string const& env) { return test::child("compile", "env " + env); }

std::string key_of(std::string const& out) {
  auto const at = out.find("key=");
  return at == std::string::npos ? "" : out.substr(at + 4, 64);
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "tessera-jit-embedded-XXXXXX").string();
    path = mkdtemp(t.data()) ? fs::path(t) : fs::path();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// With no include directory anywhere (TESSERA_INCLUDE_DIR unset; the build names none), a new
// process compiles a kernel over tessera/tessera.hpp from the headers it carries. The override
// reads a directory instead, refuses one that holds no headers, and a header edited there changes
// the key.
TEST(EmbeddedHeaders, CompileWithNoIncludeDirectoryAndTheOverride) {
  TESSERA_REQUIRE_NVRTC();
  TempDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  std::string const cache = "TESSERA_CACHE_DIR=" + (tmp.path / "cache").string();

  std::string const built_in = child("-u TESSERA_INCLUDE_DIR " + cache);
  EXPECT_NE(built_in.find("embedded=1 tessera_dir=none"), std::string::npos) << built_in;
  EXPECT_NE(built_in.find("from_disk=0"), std::string::npos) << built_in;
  EXPECT_EQ(key_of(child("-u TESSERA_INCLUDE_DIR " + cache)), key_of(built_in));

  fs::create_directories(tmp.path / "empty");
  std::string const empty = child("TESSERA_INCLUDE_DIR=" + (tmp.path / "empty").string() + " " + cache);
  EXPECT_NE(empty.find("holds no tessera/tessera.hpp"), std::string::npos) << empty;

  // A copy of the checkout's headers, then the same with one header edited.
  fs::path const copy = tmp.path / "include";
  fs::create_directories(copy / "tessera");
  fs::copy(fs::path(TESSERA_TEST_INCLUDE_DIR) / "tessera", copy / "tessera", fs::copy_options::recursive);
  std::string const from_copy = child("TESSERA_INCLUDE_DIR=" + copy.string() + " " + cache);
  EXPECT_NE(from_copy.find("embedded=0 tessera_dir=" + copy.string()), std::string::npos) << from_copy;
  ASSERT_EQ(key_of(from_copy).size(), 64u) << from_copy;
  EXPECT_NE(key_of(from_copy), key_of(built_in));
  std::ofstream(copy / "tessera" / "core" / "layout.hpp", std::ios::app) << "// edited\n";
  std::string const edited = child("TESSERA_INCLUDE_DIR=" + copy.string() + " " + cache);
  EXPECT_NE(edited.find("from_disk=0"), std::string::npos) << edited;
  ASSERT_EQ(key_of(edited).size(), 64u) << edited;
  EXPECT_NE(key_of(edited), key_of(from_copy)) << "an edited header compiles anew";
}

}  // namespace
}  // namespace tessera::jit
