// tests/jit/child_process.hpp -- runs tests/jit/child.cpp (tessera_jit_child, whose path the build
// gives as TESSERA_JIT_CHILD) as a new process, for the tests that need one: the disk cache and the
// precompiled headers seen from another process, a missing NVRTC, where the headers come from.
#pragma once

#include <cstdio>
#include <string>

namespace tessera::jit::test {

// `env` (prefixed to the command line: NAME=value pairs, or `env -u NAME ...`) then
// `tessera_jit_child <args>`; returns its output, stderr included.
inline std::string child(std::string const& args, std::string const& env = "") {
  std::string const cmd = env + " " + TESSERA_JIT_CHILD + " " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (f && fgets(buf, sizeof buf, f)) out += buf;
  if (f) pclose(f);
  return out;
}

}  // namespace tessera::jit::test
