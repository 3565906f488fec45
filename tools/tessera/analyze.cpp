// `tessera analyze`: bank conflicts and coalescing of one warp-wide access pattern over a layout
// (docs/analyze.md; the model is include/tessera/tools/analyze.hpp).
//   tessera analyze --smem '(_32,_32):(_32,_1)' --elem-bytes 4 --access '(_32,_32):(_1,_32)'
//   tessera analyze --gmem '(_32,_32):(_32,_1)' --access '(_32,_32):(_32,_1)' --heatmap svg -o heat.svg
//   tessera analyze --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)'
//     --access 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))'
// Exit status: 0 on success, 1 on a bad expression, an access the model rejects or a failed write.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "evaluate.hpp"
#include "output.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/analyze.hpp"

namespace {

struct AnalyzeArgs {
  std::string smem, gmem, access, heatmap, output, side;
  bool shared = false;  // --smem was given (even as ''), so errors name --smem
  int elem_bytes = 4;
  int vector = 1;
  bool given_elem_bytes = false, given_vector = false;
};

int run_analyze(const AnalyzeArgs& a) {
  namespace tt = tessera::tools;
  const bool shared = a.shared;
  tessera::rt::Value memory, access;
  if (!tessera::cli::evaluate_option(shared ? "--smem" : "--gmem", shared ? a.smem : a.gmem, memory)) return 1;
  if (!tessera::cli::evaluate_option("--access", a.access, access)) return 1;
  tt::Report report;
  try {
    const tt::MemoryKind kind = shared ? tt::MemoryKind::shared : tt::MemoryKind::global;
    if (access.is<tessera::rt::TiledCopy>()) {
      if (a.given_elem_bytes || a.given_vector)
        tessera::rt::fail(
            "analyze: a tiled copy brings its element width and vector (its atom); leave out --elem-bytes and "
            "--vector");
      const tt::CopySide side = tt::copy_side(a.side, "analyze");
      report = tt::analyze_copy(memory, access.as<tessera::rt::TiledCopy>(), kind, side);
    } else {
      if (!a.side.empty()) tessera::rt::fail("analyze: --side is for a tiled copy given as --access");
      report = tt::analyze(memory, access, {kind, a.elem_bytes, a.vector, {}});
    }
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  const std::string text = tt::to_text(report);
  std::string heat;
  try {
    if (a.heatmap == "ascii") heat = tt::heatmap_ascii(report);
    if (a.heatmap == "svg") heat = tt::heatmap_svg(report);
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }

  // Without -o: the report (and an ascii heat map) on stdout; an SVG heat map alone on stdout.
  // With -o: the heat map (or, without one, the report) goes to FILE; the report to stdout.
  std::string to_file, to_stdout;
  if (a.output.empty()) {
    to_stdout = a.heatmap == "svg" ? heat : text + heat;
  } else {
    to_file = a.heatmap.empty() ? text : heat;
    to_stdout = text;
  }
  if (!a.output.empty()) {
    std::ofstream f(a.output, std::ios::binary);
    f << to_file;
    f.close();
    if (!f) {
      std::cerr << "error: cannot write " << a.output << "\n";
      return 1;
    }
  }
  std::cout << to_stdout;
  return 0;
}

}  // namespace

void register_analyze(CLI::App& app) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd =
      app.add_subcommand("analyze", "Bank conflicts (shared) or coalescing (global) of a warp access pattern");
  auto* smem = cmd->add_option("--smem", args->smem,
                               "shared-memory layout (m,n) -> element offset, e.g. 'Sw<3,3,3> o (_8,_64):(_64,_1)'");
  auto* gmem =
      cmd->add_option("--gmem", args->gmem, "global-memory layout (m,n) -> element offset (base 128-byte aligned)");
  smem->excludes(gmem);
  cmd->add_option("--access", args->access,
                  "(thread,value) -> tile index layout (32 threads per warp), or a tiled copy, e.g. "
                  "'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(...))'")
      ->required();
  cmd->add_option("--side", args->side,
                  "for a tiled copy: the side in this memory, src or dst (default: from the instruction)")
      ->check(CLI::IsMember({"src", "dst"}));
  cmd->add_option("--elem-bytes", args->elem_bytes, "element width in bytes: 1, 2, 4, 8 or 16")->capture_default_str();
  cmd->add_option("--vector", args->vector, "elements per thread per instruction (vector access)")
      ->capture_default_str();
  cmd->add_option("--heatmap", args->heatmap, "also render a heat map")->check(CLI::IsMember({"ascii", "svg"}));
  cmd->add_option("-o,--output", args->output, "write the heat map (or the report) to FILE");
  cmd->callback([cmd, args] {
    if (cmd->count("--smem") + cmd->count("--gmem") != 1) {
      std::cerr << "error: give exactly one of --smem LAYOUT or --gmem LAYOUT\n";
      std::exit(1);
    }
    args->shared = cmd->count("--smem") > 0;
    args->given_elem_bytes = cmd->count("--elem-bytes") > 0;
    args->given_vector = cmd->count("--vector") > 0;
    const int status = run_analyze(*args);
    std::exit(tessera::cli::finish_stdout(status));
  });
}
