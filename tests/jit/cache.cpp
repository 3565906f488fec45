// tests/jit/cache.cpp -- jit/cache.hpp: entries round-trip; a corrupt, truncated, renamed or
// foreign-keyed entry is never loaded (and is removed); an unsafe directory turns the cache off;
// the size bound evicts the least recently used entries.
#include "tessera/jit/cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace tessera::jit {
namespace {

// A fresh private directory under the test's temporary directory.
std::string fresh_dir(std::string const& name) {
  char tmpl[] = "/tmp/tessera-jit-cache-test-XXXXXX";
  char* base = mkdtemp(tmpl);
  EXPECT_NE(base, nullptr);
  return std::string(base) + "/" + name;
}

std::string key_of(std::string const& s) { return Sha256::of(s); }

CacheEntry entry(std::string image) { return CacheEntry{std::move(image), false, {"_Z4fillIfLi256EEvPT_", "k2"}}; }

std::string read_file(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_file(std::string const& path, std::string const& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(DiskCache, RoundTripAndPrivateDirectory) {
  DiskCache c(fresh_dir("a/b/jit"));
  ASSERT_TRUE(c.enabled()) << c.why_disabled();
  struct stat st {};
  ASSERT_EQ(stat(c.directory().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  std::string const k = key_of("program 1");
  EXPECT_FALSE(c.load(k));
  ASSERT_TRUE(c.store(k, entry(std::string("\x7f"
                                           "ELF\0binary",
                                           10))));
  auto e = c.load(k);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->image, std::string("\x7f"
                                  "ELF\0binary",
                                  10));
  EXPECT_FALSE(e->is_ptx);
  ASSERT_EQ(e->lowered_names.size(), 2u);
  EXPECT_EQ(e->lowered_names[0], "_Z4fillIfLi256EEvPT_");
  ASSERT_EQ(stat(c.entry_path(k).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(DiskCache, DamagedEntriesAreNeverLoaded) {
  DiskCache c(fresh_dir("jit"));
  ASSERT_TRUE(c.enabled()) << c.why_disabled();
  std::string const k = key_of("program 2");
  std::string const image(5000, 'p');
  auto damage = [&](auto&& edit) {
    ASSERT_TRUE(c.store(k, entry(image)));
    std::string bytes = read_file(c.entry_path(k));
    edit(bytes);
    write_file(c.entry_path(k), bytes);
    EXPECT_FALSE(c.load(k));
    EXPECT_NE(access(c.entry_path(k).c_str(), F_OK), 0) << "a damaged entry is removed";
  };
  damage([](std::string& b) { b.resize(b.size() - 1); });  // truncated payload
  damage([](std::string& b) { b.resize(b.size() / 2); });  // truncated in the middle
  damage([](std::string& b) { b.resize(10); });            // truncated header
  damage([](std::string& b) { b.back() ^= 1; });           // one payload bit flipped
  damage([](std::string& b) { b += "x"; });                // trailing bytes
  damage([](std::string& b) { b[0] = 'T'; });              // wrong format line
  damage([](std::string& b) { b.clear(); });               // empty file
  // An entry stored under another key and renamed to this one.
  std::string const other = key_of("program 3");
  ASSERT_TRUE(c.store(other, entry(image)));
  ASSERT_EQ(rename(c.entry_path(other).c_str(), c.entry_path(k).c_str()), 0);
  EXPECT_FALSE(c.load(k));
  // After all that, a good entry loads again.
  ASSERT_TRUE(c.store(k, entry(image)));
  EXPECT_TRUE(c.load(k));
}

TEST(DiskCache, ParseRefusesWhatSerializeDidNotWrite) {
  std::string const k = key_of("p");
  std::string const good = DiskCache::serialize(k, entry("image"));
  EXPECT_TRUE(DiskCache::parse(good, k));
  EXPECT_FALSE(DiskCache::parse(good, key_of("q")));
  for (std::size_t n = 0; n < good.size(); ++n) EXPECT_FALSE(DiskCache::parse(good.substr(0, n), k)) << "prefix " << n;
}

TEST(DiskCache, UnsafeDirectoriesTurnTheCacheOff) {
  std::string const d = fresh_dir("open");
  ASSERT_EQ(mkdir(d.c_str(), 0700), 0);
  ASSERT_EQ(chmod(d.c_str(), 0777), 0);
  DiskCache open_dir(d);
  EXPECT_FALSE(open_dir.enabled());
  EXPECT_NE(open_dir.why_disabled().find("writable by other users"), std::string::npos) << open_dir.why_disabled();
  EXPECT_FALSE(open_dir.store(key_of("x"), entry("x")));

  std::string const target = fresh_dir("real");
  ASSERT_EQ(mkdir(target.c_str(), 0700), 0);
  std::string const link = fresh_dir("link");
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  DiskCache linked(link);
  EXPECT_FALSE(linked.enabled());
  EXPECT_NE(linked.why_disabled().find("not a directory"), std::string::npos) << linked.why_disabled();

  DiskCache off("");
  EXPECT_FALSE(off.enabled());
  EXPECT_FALSE(off.load(key_of("x")));
}

TEST(DiskCache, TrimmedToItsBoundLeastRecentlyUsedFirst) {
  std::string const d = fresh_dir("bounded");
  DiskCache c(d, 10000);
  ASSERT_TRUE(c.enabled());
  std::string const image(3000, 'i');
  std::string const k1 = key_of("1"), k2 = key_of("2"), k3 = key_of("3"), k4 = key_of("4");
  ASSERT_TRUE(c.store(k1, entry(image)));
  usleep(20000);
  ASSERT_TRUE(c.store(k2, entry(image)));
  usleep(20000);
  ASSERT_TRUE(c.store(k3, entry(image)));
  usleep(20000);
  ASSERT_TRUE(c.load(k1));  // k1 is now the most recently used
  usleep(20000);
  ASSERT_TRUE(c.store(k4, entry(image)));  // over 10000 bytes: trimmed to 7500, oldest first
  EXPECT_TRUE(c.load(k1));
  EXPECT_FALSE(c.load(k2));
  EXPECT_TRUE(c.load(k4));
}

TEST(DiskCache, DefaultDirectoryFollowsTheEnvironment) {
  setenv("TESSERA_CACHE_DIR", "/somewhere/jit", 1);
  EXPECT_EQ(DiskCache::default_directory(), "/somewhere/jit");
  setenv("TESSERA_CACHE", "0", 1);
  EXPECT_EQ(DiskCache::default_directory(), "");
  unsetenv("TESSERA_CACHE");
  unsetenv("TESSERA_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(DiskCache::default_directory(), "/xdg/tessera/jit");
}

}  // namespace
}  // namespace tessera::jit
