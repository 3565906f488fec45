// The JIT's disk cache of compiled programs (host only, POSIX).
//
// Where: $TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera/jit, else $HOME/.cache/tessera/jit.
// TESSERA_CACHE=0 turns the disk cache off (programs are then compiled once per process).
//
// What runs must be what was asked for:
//   - the directory is created private (0700) and used only when it is owned by this user and
//     writable by nobody else; otherwise the cache is off, and `why_disabled()` says why;
//   - an entry is found by a key (SHA-256) over everything the program was compiled from (the
//     compiler layer computes it: source, options, name expressions, headers, architecture,
//     NVRTC's version);
//   - an entry records its key, its payload's size and SHA-256; it is loaded only when all three
//     match and the file is a regular file owned by this user, so a truncated, corrupt or foreign
//     entry is compiled again (and replaced), never loaded;
//   - entries are written to a private temporary file in the directory and renamed into place, so
//     processes compiling the same program at once each publish a whole entry and readers never see
//     a partial one.
// Size: after each store the directory is trimmed to $TESSERA_CACHE_MAX_BYTES (default 1 GiB),
// removing the least recently used entries (loads refresh an entry's time).
#pragma once

#if defined(__CUDACC_RTC__)
#error "tessera/jit/cache.hpp: host only"
#endif

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "tessera/jit/sha256.hpp"

namespace tessera::jit {

// What a cache entry holds: the binary image and the lowered names of the name expressions.
struct CacheEntry {
  std::string image;
  bool is_ptx = false;
  std::vector<std::string> lowered_names;
};

class DiskCache {
 public:
  // The default directory ("" when TESSERA_CACHE=0 or no home directory is known).
  static std::string default_directory() {
    if (char const* off = std::getenv("TESSERA_CACHE"); off && std::string(off) == "0") return "";
    if (char const* d = std::getenv("TESSERA_CACHE_DIR"); d && *d) return d;
    if (char const* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tessera/jit";
    if (char const* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tessera/jit";
    return "";
  }

  static std::uint64_t default_max_bytes() {
    if (char const* m = std::getenv("TESSERA_CACHE_MAX_BYTES"); m && *m) {
      char* end = nullptr;
      unsigned long long const v = std::strtoull(m, &end, 10);
      if (end && *end == '\0') return v;
    }
    return std::uint64_t(1) << 30;
  }

  // Opens (creating it private if missing) `directory`; "" makes a disabled cache.
  explicit DiskCache(std::string directory, std::uint64_t max_bytes = default_max_bytes())
      : dir_(std::move(directory)), max_bytes_(max_bytes) {
    if (dir_.empty()) {
      why_ = "the disk cache is off (TESSERA_CACHE=0, or no TESSERA_CACHE_DIR/XDG_CACHE_HOME/HOME)";
      return;
    }
    make_private_directories(dir_);
    struct stat st {};
    if (lstat(dir_.c_str(), &st) != 0) {
      why_ = "the cache directory " + dir_ + " cannot be created: " + std::strerror(errno);
    } else if (!S_ISDIR(st.st_mode)) {
      why_ = "the cache path " + dir_ + " is not a directory (a link or a file)";
    } else if (st.st_uid != geteuid()) {
      why_ = "the cache directory " + dir_ + " belongs to another user";
    } else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
      why_ = "the cache directory " + dir_ + " is writable by other users (chmod 700 it)";
    } else {
      enabled_ = true;
    }
  }

  bool enabled() const { return enabled_; }
  std::string const& why_disabled() const { return why_; }
  std::string const& directory() const { return dir_; }

  // The entry of `key` (64 hex digits), when present and valid; a damaged one is removed.
  std::optional<CacheEntry> load(std::string const& key) const {
    if (!enabled_) return std::nullopt;
    std::string const path = entry_path(key);
    int const fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string bytes;
    struct stat st {};
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size < (off_t(1) << 32);
    if (ok) {
      bytes.resize(std::size_t(st.st_size));
      std::size_t got = 0;
      while (got < bytes.size()) {
        ssize_t const r = read(fd, bytes.data() + got, bytes.size() - got);
        if (r <= 0) break;
        got += std::size_t(r);
      }
      ok = got == bytes.size();
    }
    close(fd);
    std::optional<CacheEntry> e = ok ? parse(bytes, key) : std::nullopt;
    if (!e) {
      unlink(path.c_str());  // damaged or foreign: it is compiled again and replaced
      return std::nullopt;
    }
    utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);  // recently used
    return e;
  }

  // Publishes the entry of `key` (a whole file, renamed into place); false when it could not be
  // written (the program still runs; it is compiled again next time).
  bool store(std::string const& key, CacheEntry const& e) const {
    if (!enabled_) return false;
    std::string const bytes = serialize(key, e);
    std::string tmp = dir_ + "/.tmp-" + key.substr(0, 16) + "-XXXXXX";
    int const fd = mkstemp(tmp.data());  // 0600
    if (fd < 0) return false;
    std::size_t put = 0;
    while (put < bytes.size()) {
      ssize_t const w = write(fd, bytes.data() + put, bytes.size() - put);
      if (w <= 0) break;
      put += std::size_t(w);
    }
    bool const ok = put == bytes.size() && fsync(fd) == 0;
    close(fd);
    if (!ok || rename(tmp.c_str(), entry_path(key).c_str()) != 0) {
      unlink(tmp.c_str());
      return false;
    }
    trim();
    return true;
  }

  std::string entry_path(std::string const& key) const { return dir_ + "/" + key + ".bin"; }

  // The entry file's bytes, exposed for the tests of corrupt and truncated entries.
  static std::string serialize(std::string const& key, CacheEntry const& e) {
    std::string head = std::string(kMagic) + "\n" + key + "\n" + std::to_string(e.image.size()) + " " +
                       Sha256::of(e.image) + " " + (e.is_ptx ? "ptx" : "cubin") + " " +
                       std::to_string(e.lowered_names.size()) + "\n";
    for (auto const& n : e.lowered_names) head += n + "\n";
    return head + e.image;
  }

  static std::optional<CacheEntry> parse(std::string const& bytes, std::string const& key) {
    std::size_t pos = 0;
    auto line = [&](std::string& out) {
      std::size_t const nl = bytes.find('\n', pos);
      if (nl == std::string::npos) return false;
      out = bytes.substr(pos, nl - pos);
      pos = nl + 1;
      return true;
    };
    std::string magic, k, info;
    if (!line(magic) || magic != kMagic || !line(k) || k != key || !line(info)) return std::nullopt;
    char hash[65] = {}, kind[8] = {};
    unsigned long long size = 0, names = 0;
    if (std::sscanf(info.c_str(), "%llu %64s %7s %llu", &size, hash, kind, &names) != 4) return std::nullopt;
    CacheEntry e;
    e.is_ptx = std::string(kind) == "ptx";
    if (!e.is_ptx && std::string(kind) != "cubin") return std::nullopt;
    for (unsigned long long i = 0; i < names; ++i) {
      std::string n;
      if (!line(n)) return std::nullopt;
      e.lowered_names.push_back(n);
    }
    if (bytes.size() - pos != size) return std::nullopt;
    e.image = bytes.substr(pos);
    if (Sha256::of(e.image) != hash) return std::nullopt;
    return e;
  }

 private:
  static constexpr char const* kMagic = "tessera-jit-cache 1";

  static void make_private_directories(std::string const& dir) {
    for (std::size_t i = 1; i <= dir.size(); ++i)
      if (i == dir.size() || dir[i] == '/') mkdir(dir.substr(0, i).c_str(), 0700);
  }

  void trim() const {
    DIR* d = opendir(dir_.c_str());
    if (!d) return;
    struct File {
      std::string path;
      std::uint64_t size;
      struct timespec used;
    };
    std::vector<File> files;
    std::uint64_t total = 0;
    while (dirent* ent = readdir(d)) {
      std::string const name = ent->d_name;
      if (name.size() < 5 || name.compare(name.size() - 4, 4, ".bin") != 0) continue;
      struct stat st {};
      std::string const path = dir_ + "/" + name;
      if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      files.push_back({path, std::uint64_t(st.st_size), st.st_mtim});
      total += std::uint64_t(st.st_size);
    }
    closedir(d);
    if (total <= max_bytes_) return;
    std::sort(files.begin(), files.end(), [](File const& a, File const& b) {
      return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
    });
    for (auto const& f : files) {
      if (total <= max_bytes_ / 4 * 3) break;
      if (unlink(f.path.c_str()) == 0) total -= f.size;
    }
  }

  std::string dir_;
  std::uint64_t max_bytes_;
  bool enabled_ = false;
  std::string why_;
};

}  // namespace tessera::jit
