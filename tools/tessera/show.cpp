// `tessera show`: draw a layout (docs/show.md).
//   tessera show '(_2,(_2,_2)):(_4,(_2,_1))'                       print_layout's table
//   tessera show 'make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1))' --format html -o tv.html
//   tessera show '((_32,_4),(_8,_4)):((_128,_4),(_16,_1))' --tv --tile 16,256 --format svg
//   tessera show 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))' --format svg   A, B, C panels
// A malformed expression prints "error: <what> at input column N", the expression and a caret under
// column N (on stderr); exit status 1 on any error (a failed write too), else 0.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "evaluate.hpp"
#include "output.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/show_html.hpp"

namespace {

struct ShowArgs {
  std::string expr;
  std::string format = "ascii";
  bool tv = false;
  std::string tile;
  std::string output;
};

// "M,N" -> (M, N), both >= 1.
std::pair<std::int64_t, std::int64_t> parse_tile(const std::string& text) {
  const auto bad = [&] {
    tessera::rt::fail("show: --tile " + text + " is not M,N with two positive integers; e.g. --tile 16,256");
  };
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) bad();
  std::int64_t mn[2] = {0, 0};
  const std::string parts[2] = {text.substr(0, comma), text.substr(comma + 1)};
  for (int k = 0; k < 2; ++k) {
    if (parts[k].empty() || parts[k].size() > 9 || parts[k].find_first_not_of("0123456789") != std::string::npos) bad();
    mn[k] = std::stoll(parts[k]);
    if (mn[k] < 1) bad();
  }
  return {mn[0], mn[1]};
}

// The expression (printable, cut around the column when long) and a caret under column `column`.
void print_caret(const std::string& expr, std::size_t column) { std::cerr << tessera::rt::caret_lines(expr, column); }

int run_show(const ShowArgs& a) {
  namespace rt = tessera::rt;
  namespace tt = tessera::tools;
  std::string picture;
  try {
    const std::map<std::string, tt::Format> formats{{"ascii", tt::Format::ascii},
                                                    {"svg", tt::Format::svg},
                                                    {"html", tt::Format::html},
                                                    {"latex", tt::Format::latex}};
    const auto format = formats.find(a.format);
    if (format == formats.end()) rt::fail("show: unknown format " + a.format + "; use ascii, svg, html or latex");
    tt::ShowOptions opt;
    opt.tv = a.tv;
    if (!a.tile.empty()) opt.tile = parse_tile(a.tile);
    const rt::Value v = tessera::cli::evaluate(a.expr);
    if (const auto figure = tt::make_figure(v)) {
      if (a.tv || !a.tile.empty())
        rt::fail("show: --tv and --tile are for layouts; an atom, tiled MMA or tiled copy brings its own tiles");
      picture = tt::render(*figure, format->second);
    } else {
      picture = tt::render(tt::make_grid(v, opt), format->second);
    }
  } catch (const rt::eval_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    print_caret(a.expr, e.column());
    return 1;
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (a.output.empty()) {
    std::cout << picture;
    return 0;  // finish_stdout reports a failed write
  }
  std::ofstream file(a.output, std::ios::binary);
  file << picture;
  file.close();
  if (!file) {
    std::cerr << "error: show: cannot write " << a.output << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void register_show(CLI::App& app) {
  auto args = std::make_shared<ShowArgs>();
  CLI::App* cmd =
      app.add_subcommand("show", "Draw a layout: ascii (print_layout), svg, html (hover, zoom) or latex (TikZ)");
  cmd->add_option("expr", args->expr, "expression (tessera eval syntax), e.g. '(_2,(_2,_2)):(_4,(_2,_1))'")->required();
  cmd->add_option("-f,--format", args->format, "ascii (default), svg, html or latex");
  cmd->add_flag("--tv", args->tv, "EXPR is a (thread,value) -> m + n*M layout on the tile --tile M,N");
  cmd->add_option("--tile", args->tile, "M,N: the tile of a TV picture (default for make_layout_tv: its tiler)");
  cmd->add_option("-o,--output", args->output, "write the picture to FILE instead of standard output");
  cmd->callback([args] {
    const int status = run_show(*args);
    std::exit(tessera::cli::finish_stdout(status));
  });
}
