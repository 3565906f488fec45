// `tessera eval`: evaluate layout-algebra expressions with the run-time twin (docs/eval.md).
//   tessera eval 'composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))'   -> ((_2,_2),_3):((_24,_2),_8)
//   tessera eval 'layout_c(SM80_16x8x16_F32F16F16F32_TN)'           -> ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
//   tessera eval < lines.txt    one output line per input line (blank in, blank out);
//                               a bad line prints "error: <what> at input column N" and the run goes on.
// Exit status: 1 if any expression failed or standard output could not be written, else 0.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "evaluate.hpp"
#include "output.hpp"
#include "tessera/runtime/eval.hpp"

namespace {

// Evaluate one line and print its result line; returns false on an error line.
bool run_line(const std::string& line) {
  const tessera::rt::EvalResult r = tessera::cli::eval_line(line);
  std::cout << r.text << '\n';
  return r.ok;
}

// Reads one line of `in` into `line` (without its '\n'); false at the end of the input. Keeps at
// most limit + 1 bytes and skips the rest of a longer line, so that memory stays bounded whatever
// the input: the evaluator then refuses the too-long line (docs/eval.md, "Limits").
bool read_line(std::istream& in, std::string& line, std::size_t limit) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() <= limit) line.push_back(static_cast<char>(c));
  }
  return any;
}

int run_stdin() {
  bool ok = true;
  std::string line;
  // Stop reading once standard output fails: no later line could be reported.
  while (std::cout && read_line(std::cin, line, tessera::rt::Parser::kMaxInputBytes)) ok = run_line(line) && ok;
  return ok ? 0 : 1;
}

}  // namespace

void register_eval(CLI::App& app) {
  auto expr = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("eval", "Evaluate a layout-algebra expression (stdin: one per line)");
  cmd->add_option("expr", *expr, "expression, e.g. 'coalesce((_2,(_1,_6)):(_1,(_6,_2)))'; omit to read stdin");
  cmd->callback([cmd, expr] {
    const bool from_stdin = cmd->count("expr") == 0;
    const int status = from_stdin ? run_stdin() : (run_line(*expr) ? 0 : 1);
    std::exit(tessera::cli::finish_stdout(status));
  });
}
