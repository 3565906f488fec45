// tessera -- the Tessera command: one subcommand per source file in this folder. Host-only: the GPU
// benchmark is its own command, tessera-bench (tools/tessera-bench/, CUDA builds).
//   tessera eval 'EXPR'   evaluate a layout-algebra expression (docs/eval.md)
//   tessera demo          see demo.cpp
//   tessera show 'EXPR'   draw a layout (docs/show.md)
//   tessera analyze ...   bank conflicts / coalescing of an access pattern (docs/analyze.md)
//   tessera advise ...    the swizzle or padding that makes a tile's writer and reader conflict-free
//                         (docs/advise.md)
//   tessera check tma|wgmma|copy ... whether a layout fits an instruction (docs/advise.md, "tessera check")
//   tessera --version     the version
// Exit statuses (output.hpp, README): 0 success, 1 a failed expression, model or write, 2 a wrong
// command line (CLI11's message; --help and --version exit 0).
#include <CLI/CLI.hpp>

#include "output.hpp"
#include "tessera/version.hpp"

void register_eval(CLI::App& app);     // eval.cpp
void register_demo(CLI::App& app);     // demo.cpp
void register_show(CLI::App& app);     // show.cpp
void register_analyze(CLI::App& app);  // analyze.cpp
void register_advise(CLI::App& app);   // advise.cpp
void register_check(CLI::App& app);    // check.cpp

int main(int argc, char** argv) {
  CLI::App app{"tessera: the Tessera layout-algebra toolbox", "tessera"};
  app.set_version_flag("--version", "tessera " TESSERA_VERSION_STRING);
  app.require_subcommand(1);
  register_eval(app);
  register_demo(app);
  register_show(app);
  register_analyze(app);
  register_advise(app);
  register_check(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "successes" (exit code 0); every other parse error is a usage error.
    const int code = app.exit(e);
    return code == 0 ? 0 : tessera::cli::kExitUsage;
  }
  return tessera::cli::finish_stdout(0);
}
