// `tessera advise`: the shared-memory layout under which the instruction that writes a tile and the
// one that reads it are free of bank conflicts, or the best there is (docs/advise.md; the advisor is
// include/tessera/tools/advise.hpp, on the bank model of tools/analyze.hpp).
//   tessera advise --tile '(_64,_64)'
//     --write 'make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))'
//     --read 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))'
//   tessera advise --tile '(_128,_128)' --tma-write --wgmma-read --elem-bytes 2
// Exit status: 0 on success, 1 on a bad expression or request, or when no candidate is legal.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "evaluate.hpp"
#include "output.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/advise.hpp"

namespace {

struct AdviseArgs {
  std::string tile, write, read, write_side, read_side;
  bool column_major = false, tma_write = false, wgmma_read = false, no_padding = false, all = false;
  int elem_bytes = 0, wgmma_block = 0;
};

int run_advise(const AdviseArgs& a) {
  namespace rt = tessera::rt;
  namespace tt = tessera::tools;
  tt::AdviseRequest req;
  rt::Value tile;
  if (!tessera::cli::evaluate_option("--tile", a.tile, tile)) return 1;
  try {
    req.tile = tt::advise_tile(tile);
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  req.row_major = !a.column_major;
  req.tma_write = a.tma_write;
  req.padding = !a.no_padding;
  req.wgmma_read = a.wgmma_read;
  req.wgmma_block = a.wgmma_block;
  req.elem_bytes = a.elem_bytes;
  auto access = [&](const char* option, const std::string& text, const std::string& side,
                    std::optional<tt::AdviseAccess>& out) {
    if (text.empty()) return true;
    rt::Value v;
    if (!tessera::cli::evaluate_option(option, text, v)) return false;
    if (!v.is<rt::TiledCopy>()) {
      std::cerr << "error: " << option << ": need a tiled copy (make_tiled_copy, make_tiled_copy_A/B/C), got "
                << rt::to_string(v) << "\n";
      return false;
    }
    out = tt::AdviseAccess{v.as<rt::TiledCopy>(), tt::copy_side(side, "advise")};
    return true;
  };
  if (!access("--write", a.write, a.write_side, req.write)) return 1;
  if (!access("--read", a.read, a.read_side, req.read)) return 1;
  try {
    const tt::Advice advice = tt::advise(req);
    std::cout << tt::to_text(advice, a.all ? 0 : 12);
    if (a.all)
      for (const auto& c : advice.candidates)
        if (!c.legal) std::cout << "  illegal: " << c.spelled << ": " << c.why_not << "\n";
    if (advice.candidates.empty() || !advice.candidates.front().legal) return 1;
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void register_advise(CLI::App& app) {
  auto args = std::make_shared<AdviseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "advise", "The shared-memory swizzle or padding under which a tile's writer and reader are conflict-free");
  cmd->add_option("--tile", args->tile, "the tile's shape, e.g. '(_64,_64)'")->required();
  cmd->add_flag("--column-major", args->column_major,
                "store the tile with mode 0 contiguous ((M,N):(1,M)); default mode 1 ((M,N):(N,1))");
  cmd->add_option("--write", args->write, "the tiled copy that writes the tile (e.g. cp.async, stmatrix)");
  cmd->add_flag("--tma-write", args->tma_write, "TMA writes the tile (one box): only TMA's swizzles, no padding");
  cmd->add_option("--read", args->read, "the tiled copy that reads the tile (e.g. ldmatrix)");
  cmd->add_flag("--wgmma-read", args->wgmma_read,
                "a wgmma reads the tile as an operand (MN,K): K-major, or MN-major with --column-major");
  cmd->add_option("--wgmma-block", args->wgmma_block,
                  "MN extent of one wgmma descriptor (64 for A, N for B; default: the tile's MN up to 256)");
  cmd->add_option("--elem-bytes", args->elem_bytes,
                  "element width in bytes, where no tiled copy gives it (TMA and wgmma alone): 1, 2 or 4");
  cmd->add_option("--write-side", args->write_side,
                  "the side of --write in shared memory, src or dst (default: "
                  "from the instruction)")
      ->check(CLI::IsMember({"src", "dst"}));
  cmd->add_option("--read-side", args->read_side, "the side of --read in shared memory, src or dst")
      ->check(CLI::IsMember({"src", "dst"}));
  cmd->add_flag("--no-padding", args->no_padding, "try swizzles only");
  cmd->add_flag("--all", args->all, "list every candidate, the illegal ones with their rule");
  cmd->callback([args] { std::exit(tessera::cli::finish_stdout(run_advise(*args))); });
}
