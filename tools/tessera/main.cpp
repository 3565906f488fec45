// tessera -- the Tessera command: one subcommand per source file in this folder.
//   tessera eval 'EXPR'   evaluate a layout-algebra expression (docs/eval.md)
//   tessera demo          see demo.cpp
#include <CLI/CLI.hpp>

void register_eval(CLI::App& app);  // eval.cpp
void register_demo(CLI::App& app);  // demo.cpp

int main(int argc, char** argv) {
  CLI::App app{"tessera: the Tessera layout-algebra toolbox", "tessera"};
  app.require_subcommand(1);
  register_eval(app);
  register_demo(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
