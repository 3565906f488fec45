// Example 2: a tile copy through shared memory with cp.async (docs/background.md, "Tile copy").
// Each block copies one (tile_m,tile_n) tile: local_tile picks the block's tile of the source and
// destination, zipped_divide by one 128-bit vector gives the (vector, vector grid) view, and each
// thread issues 16-byte cp.async copies global -> shared, waits, then stores shared -> global.
//
//   tile_copy_seed     (32,512/32*8) tiles: every thread moves one vector per tile.
//   tile_copy_64x256   (64,256) tiles: every thread has several vectors in flight.
// The kernel is the library's (include/tessera/kernels/tile_copy.cuh); this program prints the
// tiling and measures both configurations against cudaMemcpyAsync.
//   example_02_tile_copy [--full]     (--full: 32768 x 32768, else 4096 x 4096)
#include <cstring>
#include <iostream>
#include <regex>

#include "bench/cases/cases.hpp"
#include "tessera/tessera.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  bool const full = argc > 1 && std::strcmp(argv[1], "--full") == 0;
  int const n = full ? 32768 : 4096;
  auto mS = make_layout(make_shape(n, n), make_stride(n, _1{}));  // (m,n) -> offset, row-major fp16
  auto tiles = zipped_divide(mS, make_shape(_64{}, _256{}));      // ((tile),(tiles))
  auto tile = layout<0>(tiles);                                   // (64,256) -> offset: one block's tile
  std::cout << "zipped_divide(mS, (_64,_256))   = " << tiles << "\n"
            << "zipped_divide(tile, (_1,_8))    = " << zipped_divide(tile, make_shape(_1{}, _8{}))
            << "   // ((vector),(64, 256/8)): 8 fp16 = 128 bits\n\n";
  try {
    std::vector<bench::Case> cases;
    for (auto& c : bench::memory_cases(full))
      if (std::regex_search(c.kernel, std::regex("^tile_copy"))) cases.push_back(std::move(c));
    auto results = bench::run_cases(cases, bench::Options{});
    bench::print_table(results, std::cout);
    for (auto const& r : results)
      if (!r.verified) return 1;
  } catch (std::exception const& e) {
    std::cerr << "example_02_tile_copy: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
