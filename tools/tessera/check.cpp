// `tessera check`: whether a (layout, instruction) pair is legal, and when not, the rule it breaks
// with the values and the fix (include/tessera/tools/check.hpp; docs/advise.md, "tessera check").
//   tessera check tma --global '(4096,4096):(4096,1)' --box 'Sw<3,3,3> o (_64,_64):(_64,_1)' --elem-bytes 2
//   tessera check wgmma --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' [--elem-bytes 2] [--major k|mn] [--block 64]
//   tessera check copy --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, mma)'
// Exit status: 0 legal (what was found, on stdout), 1 illegal (`error: illegal (RULE): ...` on stderr)
// or a bad expression, 2 a wrong command line.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "evaluate.hpp"
#include "output.hpp"
#include "tessera/runtime/eval.hpp"
#include "tessera/tools/check.hpp"

namespace {

// The verdict: "legal: ..." on stdout (0), or "error: illegal (RULE): ..." on stderr (1).
int report(const tessera::tools::CheckResult& r) {
  if (r.legal) {
    std::cout << "legal: " << r.message << "\n";
    return 0;
  }
  std::cerr << "error: illegal (" << r.rule << "): " << r.message << "\n";
  return 1;
}

struct CheckTmaArgs {
  std::string global, box;
  int elem_bytes = 2;
};

int run_check_tma(const CheckTmaArgs& a) {
  tessera::rt::Value global, box;
  if (!tessera::cli::evaluate_option("--global", a.global, global)) return 1;
  if (!tessera::cli::evaluate_option("--box", a.box, box)) return 1;
  tessera::tools::CheckResult r;
  try {
    r = tessera::tools::check_tma(global, box, a.elem_bytes);
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return report(r);
}

struct CheckWgmmaArgs {
  std::string smem, major;
  int elem_bytes = 2, block = 0;
};

int run_check_wgmma(const CheckWgmmaArgs& a) {
  tessera::rt::Value smem;
  if (!tessera::cli::evaluate_option("--smem", a.smem, smem)) return 1;
  std::optional<tessera::GmmaMajor> major;
  if (a.major == "k") major = tessera::GmmaMajor::K;
  if (a.major == "mn") major = tessera::GmmaMajor::MN;
  tessera::tools::WgmmaCheck r;
  try {
    r = tessera::tools::check_wgmma(smem, a.elem_bytes, major, a.block);
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return report(r);
}

struct CheckCopyArgs {
  std::string smem, copy, side;
};

int run_check_copy(const CheckCopyArgs& a) {
  namespace rt = tessera::rt;
  namespace tt = tessera::tools;
  rt::Value smem, copy;
  if (!tessera::cli::evaluate_option("--smem", a.smem, smem)) return 1;
  if (!tessera::cli::evaluate_option("--copy", a.copy, copy)) return 1;
  if (!copy.is<rt::TiledCopy>()) {
    std::cerr << "error: --copy: need a tiled copy (make_tiled_copy, make_tiled_copy_A/B/C), got "
              << rt::to_string(copy) << "\n";
    return 1;
  }
  tt::CheckResult r;
  try {
    r = tt::check_copy(smem, copy.as<rt::TiledCopy>(), tt::copy_side(a.side, "check"));
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return report(r);
}

}  // namespace

void register_check(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("check", "Whether a layout fits an instruction, and the rule it breaks if not");
  cmd->require_subcommand(1);
  auto tma = std::make_shared<CheckTmaArgs>();
  CLI::App* t = cmd->add_subcommand("tma", "a TMA tensor map: a 2-D global matrix read or written in boxes");
  t->add_option("--global", tma->global,
                "the global matrix's layout (m,n) -> element offset, e.g. '(4096,4096):(4096,1)'")
      ->required();
  t->add_option("--box", tma->box,
                "the box's layout in shared memory, plain or swizzled, e.g. 'Sw<3,3,3> o (_64,_64):(_64,_1)'")
      ->required();
  t->add_option("--elem-bytes", tma->elem_bytes, "element width in bytes: 1, 2 or 4")->capture_default_str();
  t->callback([tma] { std::exit(tessera::cli::finish_stdout(run_check_tma(*tma))); });
  auto wgmma = std::make_shared<CheckWgmmaArgs>();
  CLI::App* w =
      cmd->add_subcommand("wgmma", "a wgmma operand's shared-memory tile: the descriptor's canonical layouts");
  w->add_option("--smem", wgmma->smem,
                "the tile's layout (MN,K) -> element offset, plain or swizzled, e.g. 'Sw<3,3,3> o (_64,_64):(_64,_1)'")
      ->required();
  w->add_option("--elem-bytes", wgmma->elem_bytes, "element width in bytes: 1, 2 or 4")->capture_default_str();
  w->add_option("--major", wgmma->major, "k (mode 1 contiguous) or mn (default: the mode with unit stride)")
      ->check(CLI::IsMember({"k", "mn"}));
  w->add_option("--block", wgmma->block,
                "MN extent of one descriptor's block (64 for A; N for B; default: the tile's MN up to 256, else 64)");
  w->callback([wgmma] { std::exit(tessera::cli::finish_stdout(run_check_wgmma(*wgmma))); });
  auto copy = std::make_shared<CheckCopyArgs>();
  CLI::App* c = cmd->add_subcommand("copy", "a tiled copy over a shared-memory tile: its vectors, its bank conflicts");
  c->add_option("--smem", copy->smem, "the shared-memory layout (m,n) -> element offset, plain or swizzled")
      ->required();
  c->add_option("--copy", copy->copy,
                "the tiled copy, e.g. 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, mma)'")
      ->required();
  c->add_option("--side", copy->side,
                "the side of the copy in shared memory, src or dst (default: from the instruction)")
      ->check(CLI::IsMember({"src", "dst"}));
  c->callback([copy] { std::exit(tessera::cli::finish_stdout(run_check_copy(*copy))); });
}
