// tests/jit/compile.cpp -- jit/compile.hpp and jit/nvrtc.hpp without a GPU (NVRTC compiles for
// sm_90a on any machine): kernels through Tessera's headers, name expressions, errors with the
// program's file and line, cache keys, the disk cache from new processes and from several
// processes at once, the message of a missing NVRTC. Skipped, saying why, where NVRTC is absent.
#include "tessera/jit/compile.hpp"

#include <dirent.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "require.hpp"

namespace tessera::jit {
namespace {

CompileOptions hopper() {
  CompileOptions o;
  o.arch = 90;
  return o;
}

constexpr char const* kScale = R"(
#include "tessera/tessera.hpp"
template <class T, class Layout>
__global__ void scale(T* x, T a) {
  auto t = tessera::make_tensor(tessera::make_gmem_ptr(x), Layout{});
  for (int i = threadIdx.x; i < tessera::size(t); i += blockDim.x) t(i) = a * t(i);
}
)";

TEST(JitCompile, KernelsThroughTesserasHeaders) {
  TESSERA_REQUIRE_NVRTC();
  auto o = hopper();
  o.cache = false;
  std::string const name = "scale<float, tessera::Layout<tessera::Shape<tessera::Int<64>,tessera::Int<32>>>>";
  Program p = compile(kScale, {name, "scale<double, tessera::Layout<tessera::Int<8>>>"}, o);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_FALSE(p.image().is_ptx) << "sm_90a compiles to a cubin";
  EXPECT_EQ(p.image().data.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(p.kernel(0).lowered_name().substr(0, 2), "_Z");
  EXPECT_NE(p.kernel(0).lowered_name(), p.kernel(1).lowered_name());
  EXPECT_EQ(p.kernel(name).name(), name);
  EXPECT_GT(p.compile_seconds(), 0.0);
  EXPECT_THROW(p.kernel("scale<int, int>"), jit_error);
  EXPECT_THROW(p.kernel(2), jit_error);
  bool has_arch = false;
  for (auto const& opt : p.options()) has_arch |= opt == "-arch=sm_90a";
  EXPECT_TRUE(has_arch);
}

TEST(JitCompile, ErrorsNameTheProgramAndLine) {
  TESSERA_REQUIRE_NVRTC();
  auto o = hopper();
  o.program_name = "user_kernel.cu";
  try {
    compile("template <class T>\n__global__ void k(T* x) {\n  x[0] = undeclared_name;\n}\n", {"k<float>"}, o);
    FAIL() << "expected a compile error";
  } catch (jit_error const& e) {
    std::string const m = e.what();
    EXPECT_NE(m.find("user_kernel.cu(3)"), std::string::npos) << m;
    EXPECT_NE(m.find("undeclared_name"), std::string::npos) << m;
    EXPECT_NE(m.find("k<float>"), std::string::npos) << m;
  }
  // Tessera's static checks reach the user through NVRTC's log, message included.
  try {
    compile(R"(#include "tessera/tessera.hpp"
template <int N>
__global__ void k(int* x) {
  TESSERA_REQUIRE(tessera::Int<N>{} == tessera::Int<4>{}, "k: N must be 4");
  x[0] = N;
})",
            {"k<3>"}, o);
    FAIL() << "expected a static_assert";
  } catch (jit_error const& e) {
    EXPECT_NE(std::string(e.what()).find("k: N must be 4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(compile(kScale, {}, o), jit_error);
}

TEST(JitCompile, KeysCoverSourceOptionsNamesAndHeaders) {
  TESSERA_REQUIRE_NVRTC();
  auto o = hopper();
  std::string const src = "template <int N> __global__ void k(int* x) { x[0] = N; }\n";
  std::string const base = compile(src, {"k<1>"}, o).key();
  EXPECT_EQ(compile(src, {"k<1>"}, o).key(), base) << "the same program has the same key";
  EXPECT_NE(compile(src + "// comment\n", {"k<1>"}, o).key(), base);
  EXPECT_NE(compile(src, {"k<2>"}, o).key(), base);
  auto o2 = o;
  o2.options.push_back("-DUNUSED=1");
  EXPECT_NE(compile(src, {"k<1>"}, o2).key(), base);
  auto o3 = o;
  o3.headers.push_back({"extra.h", "// unused"});
  EXPECT_NE(compile(src, {"k<1>"}, o3).key(), base);
  auto o4 = o;
  o4.arch = 80;
  EXPECT_NE(compile(src, {"k<1>"}, o4).key(), base);
}

TEST(JitCompile, HeadersFromMemory) {
  TESSERA_REQUIRE_NVRTC();
  auto o = hopper();
  o.headers.push_back({"params.h", "constexpr int kValue = 42;"});
  Program p = compile("#include \"params.h\"\n__global__ void k(int* x) { x[0] = kValue; }\n", {"k"}, o);
  EXPECT_EQ(p.size(), 1u);
}

using test::child;

std::vector<std::string> list_dir(std::string const& d) {
  std::vector<std::string> v;
  if (DIR* dir = opendir(d.c_str())) {
    while (dirent* e = readdir(dir))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") v.push_back(e->d_name);
    closedir(dir);
  }
  return v;
}

TEST(JitCompile, DiskCacheAcrossProcessesAndConcurrentCompiles) {
  TESSERA_REQUIRE_NVRTC();
  char tmpl[] = "/tmp/tessera-jit-processes-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string const dir = std::string(tmpl) + "/cache";
  std::string const env = "TESSERA_CACHE_DIR=" + dir;
  // Four processes compile the same program at once into an empty cache.
  std::vector<FILE*> procs;
  for (int i = 0; i < 4; ++i) procs.push_back(popen((env + " " + TESSERA_JIT_CHILD + " compile 2>&1").c_str(), "r"));
  std::string key;
  for (FILE* f : procs) {
    ASSERT_NE(f, nullptr);
    std::string out;
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) out += buf;
    EXPECT_EQ(pclose(f), 0) << out;
    auto const at = out.find("key=");
    ASSERT_NE(at, std::string::npos) << out;
    std::string const k = out.substr(at + 4, 64);
    if (key.empty()) key = k;
    EXPECT_EQ(k, key);
  }
  // The program's entry, and the headers' digest where they are read from a directory
  // (compile.hpp, directory_headers_digest; the headers built into the program bring theirs); no
  // temporary file; the precompiled headers' directory (PchDir), emptied by each process as it ended.
  auto files = list_dir(dir);
  files.erase(std::remove(files.begin(), files.end(), "pch"), files.end());
  EXPECT_EQ(files.size(), IncludeDirs::get().embedded ? 1u : 2u);
  EXPECT_NE(std::find(files.begin(), files.end(), key + ".bin"), files.end());
  for (auto const& f : files) EXPECT_TRUE(f.size() == 68 && f.substr(64) == ".bin") << "a stray file: " << f;
  EXPECT_TRUE(list_dir(dir + "/pch").empty());
  // A new process finds it on disk.
  EXPECT_NE(child("compile", env).find("from_disk=1"), std::string::npos);
  // A truncated entry is compiled again, and replaced by a whole one.
  std::string const path = dir + "/" + key + ".bin";
  ASSERT_EQ(truncate(path.c_str(), 100), 0);
  EXPECT_NE(child("compile", env).find("from_disk=0"), std::string::npos);
  EXPECT_NE(child("compile", env).find("from_disk=1"), std::string::npos);
  // TESSERA_CACHE=0: nothing read or written.
  EXPECT_NE(child("compile", env + " TESSERA_CACHE=0").find("from_disk=0"), std::string::npos);
}

// The path of the NVRTC library this process mapped (Nvrtc::get() has loaded it), or "".
static std::string mapped_nvrtc() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (auto at = line.find('/'); at != std::string::npos && line.find("libnvrtc") != std::string::npos &&
                                  line.find("builtins") == std::string::npos)
      return line.substr(at);
  return "";
}

// With TESSERA_NVRTC_LIBRARY naming the library, the cache key holds the file's identity (a stat)
// instead of NVRTC's version, so that a program found on disk never loads NVRTC: a new process
// that finds it leaves libnvrtc unmapped. The same file through a symbolic link is the same key.
TEST(JitCompile, DiskCacheHitsDoNotLoadNvrtc) {
  TESSERA_REQUIRE_NVRTC();
  std::string const lib = mapped_nvrtc();
  ASSERT_FALSE(lib.empty()) << "NVRTC is loaded, but no libnvrtc appears in /proc/self/maps";
  char tmpl[] = "/tmp/tessera-jit-nvrtc-id-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string const link = std::string(tmpl) + "/libnvrtc-link.so";
  ASSERT_EQ(symlink(lib.c_str(), link.c_str()), 0);
  std::string const env = "TESSERA_CACHE_DIR=" + std::string(tmpl) + "/cache TESSERA_NVRTC_LIBRARY=" + lib;
  std::string const first = child("compile", env);
  EXPECT_NE(first.find("from_disk=0"), std::string::npos) << first;
  EXPECT_NE(first.find("nvrtc_loaded=1"), std::string::npos) << first;
  std::string const again = child("compile", env);
  EXPECT_NE(again.find("from_disk=1"), std::string::npos) << again;
  EXPECT_NE(again.find("nvrtc_loaded=0"), std::string::npos) << again;
  std::string const linked =
      child("compile", "TESSERA_CACHE_DIR=" + std::string(tmpl) + "/cache TESSERA_NVRTC_LIBRARY=" + link);
  EXPECT_NE(linked.find("from_disk=1"), std::string::npos) << linked;
  auto key = [](std::string const& out) { return out.substr(out.find("key=") + 4, 64); };
  EXPECT_EQ(key(linked), key(first));
  // Without the variable the key holds NVRTC's version: another key, and NVRTC is loaded to learn it.
  std::string const by_version =
      child("compile", "TESSERA_CACHE_DIR=" + std::string(tmpl) + "/cache env -u TESSERA_NVRTC_LIBRARY");
  EXPECT_NE(key(by_version), key(first)) << by_version;
  EXPECT_NE(by_version.find("nvrtc_loaded=1"), std::string::npos) << by_version;
}

// NVRTC's precompiled headers (PchDir): a private directory per process under the cache (its lock
// held while the process lives), used while the process compiles, removed when it ends, and those
// of ended processes swept away.
TEST(JitCompile, PrecompiledHeadersStayPrivateAndAreCleanedUp) {
  TESSERA_REQUIRE_NVRTC();
  Nvrtc const& nvrtc = Nvrtc::get();
  if (nvrtc.version_major() < 12 || (nvrtc.version_major() == 12 && nvrtc.version_minor() < 8))
    GTEST_SKIP() << "NVRTC " << nvrtc.version_major() << "." << nvrtc.version_minor()
                 << " has no precompiled headers (12.8 and later)";
  char tmpl[] = "/tmp/tessera-jit-pch-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string const dir = std::string(tmpl) + "/cache";
  std::string const env = "TESSERA_CACHE_DIR=" + dir;
  // A directory left by a process that no longer runs (no process has pid 2^31 - 1).
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(mkdir((dir + "/pch").c_str(), 0700), 0);
  std::string const stale = dir + "/pch/2147483647-AbCdEf";
  ASSERT_EQ(mkdir(stale.c_str(), 0700), 0);
  FILE* f = std::fopen((stale + "/tessera_jit_0.pch").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  // The child compiles with precompiled headers ("pch" mode lists its directory while it runs).
  std::string const out = child("pch", env);
  EXPECT_NE(out.find("pch_dir=" + dir + "/pch/"), std::string::npos) << out;
  EXPECT_NE(out.find("mode=700"), std::string::npos) << out;
  EXPECT_NE(out.find(".pch"), std::string::npos) << "NVRTC wrote no precompiled header: " << out;
  // After it: the stale directory and the child's own are gone.
  EXPECT_TRUE(list_dir(dir + "/pch").empty());
  // Programs that open with other #includes or other options than the saved header's are parsed
  // in full, and NVRTC's notes about it stay out of their logs.
  CompileOptions o = hopper();
  o.cache = false;
  char const* const first = "#include \"tessera/tessera.hpp\"\n__global__ void k(int* p) { p[0] = 1; }\n";
  char const* const other = "#include <cuda_fp16.h>\n#include \"tessera/tessera.hpp\"\n__global__ void k(int* p) {}\n";
  EXPECT_EQ(compile(first, {"k"}, o).log(), "");
  EXPECT_EQ(compile(other, {"k"}, o).log(), "");
  o.options = {"-DTESSERA_TEST_ONLY=1"};
  EXPECT_EQ(compile(first, {"k"}, o).log(), "");
  // TESSERA_JIT_PCH=0: no directory.
  EXPECT_NE(child("pch", env + " TESSERA_JIT_PCH=0").find("pch_dir=none"), std::string::npos);
}

TEST(JitCompile, MissingNvrtcSaysWhatToInstall) {
  std::string const out = child("nvrtc", "TESSERA_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13");
  EXPECT_NE(out.find("TESSERA_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13 does not open"), std::string::npos) << out;
  EXPECT_NE(out.find("pip install nvidia-cuda-nvrtc"), std::string::npos) << out;
  EXPECT_NE(out.find("CUDA toolkit"), std::string::npos) << out;
}

}  // namespace
}  // namespace tessera::jit
