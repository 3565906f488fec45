// `tessera demo`: placeholder, replaced by the real demo.
#include <CLI/CLI.hpp>

#include <iostream>

void register_demo(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("demo", "Demonstrations (not built yet)");
  cmd->callback([] { std::cout << "demo: not built yet\n"; });
}
