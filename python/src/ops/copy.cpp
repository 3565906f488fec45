// tessera.ops.copy: kernels::detail::tile_copy_kernel (tiles global -> shared with 128-bit
// cp.async, then shared -> global) compiled on first use (jit_programs.hpp) and launched as
// kernels::tile_copy launches it with the default TileCopyConfig, on unsigned integers of the
// elements' size (a copy moves bits: one program serves every dtype of that size). Rows beyond
// what one grid's y extent covers (65535 tiles) are run in pieces, each one tile_copy launch.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"

namespace tessera::python_ops {

namespace {

// TileCopyConfig's defaults (tile_copy.cuh), checked by the program's static_assert: tile_m rows
// and num_threads threads a block; tile_n derived, (num_threads / tile_m) * VEC, VEC = 16 bytes /
// element, so that every thread moves one vector a tile; tile_m * tile_n elements of dynamic
// shared memory.
constexpr int kTileM = 32;
constexpr int kThreads = 512;
constexpr int kMaxGridY = 65535;

int tile_n(int element_bytes) { return kThreads / kTileM * (16 / element_bytes); }

detail::OpProgram make_program(int element_bytes) {
  std::string const type = element_bytes == 2 ? "unsigned short" : "unsigned int";
  return detail::OpProgram(
      "tessera_ops_copy_" + std::to_string(8 * element_bytes) + "bit.cu",
      "#include \"tessera/kernels/tile_copy.cuh\"\n"
      "static_assert(tessera::kernels::TileCopyConfig{}.tile_m == " +
          std::to_string(kTileM) + " && tessera::kernels::TileCopyConfig{}.num_threads == " + std::to_string(kThreads) +
          " && tessera::kernels::TileCopyConfig{}.tile_n == 0, \"tessera.ops.copy launches TileCopyConfig{} as "
          "(tile_m, num_threads, tile_n) = (" +
          std::to_string(kTileM) + ", " + std::to_string(kThreads) +
          ", derived): update python/src/ops/copy.cpp to the header's defaults\");\n",
      {"tessera::kernels::detail::tile_copy_kernel<" + type + ">"});
}

}  // namespace

detail::OpProgram& detail::copy_program(int element_bytes) {
  static OpProgram programs[2] = {make_program(2), make_program(4)};
  if (element_bytes != 2 && element_bytes != 4)
    throw std::invalid_argument("copy: elements of " + std::to_string(element_bytes) + " bytes; 2 or 4 only");
  return programs[element_bytes == 2 ? 0 : 1];
}

int copy_tile_rows() { return kTileM; }
int copy_tile_cols(int element_bytes) { return tile_n(element_bytes); }

void copy(int element_bytes, void const* src, void* dst, int rows, int cols, std::int64_t ld, void* stream) {
  detail::OpProgram& program = detail::copy_program(element_bytes);
  auto fail = [](std::string const& what) { throw std::invalid_argument("copy: " + what); };
  if (rows < 1 || cols < 1)
    fail("rows and cols must be >= 1, got " + std::to_string(rows) + ", " + std::to_string(cols));
  if ((std::int64_t(cols) * element_bytes) % 16 != 0 || (ld * element_bytes) % 16 != 0 || ld < cols)
    fail("rows of " + std::to_string(cols) + " elements with leading dimension " + std::to_string(ld) +
         " are not whole 16-byte vectors");
  if (!detail::aligned16(src) || !detail::aligned16(dst)) fail("src and dst must be 16-byte aligned");
  int const tn = tile_n(element_bytes);
  jit::LaunchConfig cfg;
  cfg.block = {unsigned(kThreads)};
  cfg.shared_bytes = unsigned(kTileM * tn * element_bytes);
  cfg.stream = stream;
  constexpr int piece = kMaxGridY * kTileM;  // rows a launch covers
  jit::Kernel const& kernel = program.kernel(0);
  for (int r = 0; r < rows; r += std::min(piece, rows - r)) {
    int const len = std::min(piece, rows - r);
    std::int64_t const offset = std::int64_t(r) * ld * element_bytes;
    cfg.grid = {unsigned((std::int64_t(cols) + tn - 1) / tn), unsigned((len + kTileM - 1) / kTileM)};
    kernel.launch(cfg, static_cast<void const*>(static_cast<char const*>(src) + offset),
                  static_cast<void*>(static_cast<char*>(dst) + offset), len, cols, ld, kTileM, tn);
  }
}

}  // namespace tessera::python_ops
