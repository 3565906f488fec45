// `tessera check`: whether a (layout, instruction) pair is legal, and when not, the rule it breaks
// with the values and the fix (include/tessera/tools/check.hpp; docs/advise.md, "tessera check").
//   tessera check tma --global '(4096,4096):(4096,1)' --box 'Sw<3,3,3> o (_64,_64):(_64,_1)' --elem-bytes 2 [--smem TILE]
//   tessera check wgmma --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' [--elem-bytes 2] [--major k|mn] [--block 64]
//   tessera check copy --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, mma)'
//   tessera check copy --src '(_8,_64):(_64,_1)' [--dst L] --width 128 [--elem half_t | --elem-bytes 2] [--align 16]
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
  std::string global, box, smem;
  int elem_bytes = 2;
};

int run_check_tma(const CheckTmaArgs& a) {
  tessera::rt::Value global, box;
  if (!tessera::cli::evaluate_option("--global", a.global, global)) return 1;
  if (!tessera::cli::evaluate_option("--box", a.box, box)) return 1;
  std::optional<tessera::rt::Value> smem;
  if (!a.smem.empty() && !tessera::cli::evaluate_option("--smem", a.smem, smem.emplace())) return 1;
  tessera::tools::CheckResult r;
  try {
    r = tessera::tools::check_tma(global, box, a.elem_bytes, smem);
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
  std::string src, dst, elem;  // a vector copy (--width)
  int width = 0, elem_bytes = 2, align = 16;
};

// check copy --width: one vector width between two layouts (tools::check_copy_vector).
int run_check_copy_vector(const CheckCopyArgs& a) {
  namespace rt = tessera::rt;
  namespace tt = tessera::tools;
  tt::CopyVectorRequest req;
  if (!a.src.empty()) {
    rt::Value v;
    if (!tessera::cli::evaluate_option("--src", a.src, v)) return 1;
    req.src = v;
  }
  if (!a.dst.empty()) {
    rt::Value v;
    if (!tessera::cli::evaluate_option("--dst", a.dst, v)) return 1;
    req.dst = v;
  }
  req.width_bits = a.width;
  req.align_bytes = a.align;
  req.elem_bits = 8 * a.elem_bytes;
  if (!a.elem.empty()) {
    req.elem_bits = rt::type_bits(a.elem);
    if (req.elem_bits == 0) {
      std::cerr << "error: --elem: unknown element type '" << a.elem
                << "'; use half_t, bfloat16_t, tfloat32_t, float, double, [u]int8_t .. [u]int64_t or uint128_t (or "
                   "--elem-bytes N)\n";
      return 1;
    }
  }
  tt::CopyVectorCheck r;
  try {
    r = tt::check_copy_vector(req);
  } catch (const tessera::layout_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return report(r);
}

int run_check_copy(const CheckCopyArgs& a) {
  namespace rt = tessera::rt;
  namespace tt = tessera::tools;
  if (a.width != 0 || !a.src.empty() || !a.dst.empty()) {
    if (a.width == 0 || (a.src.empty() && a.dst.empty())) {
      std::cerr << "error: check copy --width: give the width (--width BITS) and the source or destination layout "
                   "(--src/--dst L; the other side defaults to a compact fragment)\n";
      return 2;
    }
    return run_check_copy_vector(a);
  }
  if (a.smem.empty() || a.copy.empty()) {
    std::cerr << "error: check copy: give a tiled copy over a shared-memory tile (--smem L --copy C), or a vector "
                 "width over a layout (--src/--dst L --width BITS)\n";
    return 2;
  }
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
  t->add_option("--smem", tma->smem,
                "the shared-memory tile the boxes fill, (m,n) -> element offset in the global layout's mode order, "
                "e.g. 'tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))'");
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
  CLI::App* c = cmd->add_subcommand(
      "copy",
      "a tiled copy over a shared-memory tile (its vectors, its bank conflicts), or a copy of one vector width "
      "between layouts (--width: its runs contiguous and aligned)");
  CLI::Option* smem_opt =
      c->add_option("--smem", copy->smem, "the shared-memory layout (m,n) -> element offset, plain or swizzled");
  CLI::Option* copy_opt = c->add_option(
      "--copy", copy->copy, "the tiled copy, e.g. 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, mma)'");
  CLI::Option* side_opt =
      c->add_option("--side", copy->side,
                    "the side of the copy in shared memory, src or dst (default: from the instruction)")
          ->check(CLI::IsMember({"src", "dst"}));
  CLI::Option* src_opt = c->add_option(
      "--src", copy->src,
      "--width: the source layout, plain or swizzled (Sw<B,M,S> o L: a swizzled pointer); default: a compact "
      "fragment of --dst's shape");
  CLI::Option* dst_opt = c->add_option("--dst", copy->dst,
                                       "--width: the destination layout; default: a compact fragment of --src's shape");
  CLI::Option* width_opt =
      c->add_option("--width", copy->width, "--width: the vector width in bits: 8, 16, 32, 64 or 128")
          ->check(CLI::IsMember({8, 16, 32, 64, 128}));
  CLI::Option* elem_opt =
      c->add_option("--elem", copy->elem, "--width: the element type, e.g. half_t, float, int8_t (or --elem-bytes)");
  CLI::Option* elem_bytes_opt =
      c->add_option("--elem-bytes", copy->elem_bytes, "--width: element width in bytes")->capture_default_str();
  CLI::Option* align_opt =
      c->add_option("--align", copy->align, "--width: the alignment of both base pointers in bytes")
          ->capture_default_str();
  elem_opt->excludes(elem_bytes_opt);
  for (CLI::Option* vector_opt : {src_opt, dst_opt, width_opt, elem_opt, elem_bytes_opt, align_opt})
    for (CLI::Option* tiled_opt : {smem_opt, copy_opt, side_opt}) vector_opt->excludes(tiled_opt);
  c->callback([copy] { std::exit(tessera::cli::finish_stdout(run_check_copy(*copy))); });
}
