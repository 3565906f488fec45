// tools/tessera/output.hpp -- how every subcommand ends: its standard output flushed and checked.
//
// Exit statuses of `tessera` (README, "The tessera command"): 0 success; 1 an expression, the
// model or writing the output failed (with an `error: ...` line on standard error); 2 the command
// line itself is wrong (an unknown option, a missing argument; CLI11's message).
#pragma once

#include <cerrno>
#include <cstring>
#include <iostream>

namespace tessera::cli {

inline constexpr int kExitFailed = 1;  // an expression, the model or an output write failed
inline constexpr int kExitUsage = 2;   // the command line is wrong

// finish_stdout(status): flushes standard output; if any write to it failed (a full disk,
// `> /dev/full`, a closed pipe) prints "error: cannot write standard output: <reason>" and returns
// kExitFailed, else status. finish_stdout(0) after a good run = 0.
inline int finish_stdout(int status) {
  errno = 0;
  std::cout.flush();
  if (std::cout) return status;
  const int err = errno;
  std::cerr << "error: cannot write standard output"
            << (err != 0 ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
  return kExitFailed;
}

}  // namespace tessera::cli
