// Example 1: C = A + B in three steps (docs/background.md, "Elementwise add"), each written with
// the layout algebra, each verified and then timed against cudaMemcpyAsync in the same run.
//
//   naive       one element per thread: thread q owns element (q / N, q % N) of the row-major mC.
//   vectorized  zipped_divide(mC, (_1,VEC)) cuts each row into 128-bit vectors; a thread owns one.
//   tv          make_layout_tv(thr, val) gives a (16,256) block tile and the (thread,value) -> (m,n)
//               map inside it; composition(tile, tv) is each thread's view of its block tile.
// The kernels are the library's (include/tessera/kernels/elementwise_add.cuh); this program prints
// the layouts they use and measures them.
//   example_01_elementwise_add [--full]     (--full: 32768 x 32768, else 4096 x 4096)
#include <cstring>
#include <iostream>
#include <regex>

#include "bench/cases/cases.hpp"
#include "tessera/tessera.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  bool const full = argc > 1 && std::strcmp(argv[1], "--full") == 0;
  int const n = full ? 32768 : 4096;
  auto mC = make_layout(make_shape(n, n), make_stride(n, _1{}));  // (m,n) -> offset, row-major fp16
  std::cout << "mC                           = " << mC << "\n"
            << "zipped_divide(mC, (_1,_8))   = " << zipped_divide(mC, make_shape(_1{}, _8{}))
            << "   // ((vector),(m, n/8)): 8 fp16 = 128 bits\n";
  auto tv = make_layout_tv(make_layout(make_shape(_4{}, _32{}), LayoutRight{}),  // (tm,tn) -> thread
                           make_layout(make_shape(_4{}, _8{}), LayoutRight{}));  // (vm,vn) -> value
  std::cout << "make_layout_tv tiler         = " << get<0>(tv) << "\n"
            << "make_layout_tv tv            = " << get<1>(tv) << "   // (thread,value) -> index in the tile\n\n";

  try {
    std::vector<bench::Case> cases;
    for (auto& c : bench::memory_cases(full))
      if (std::regex_search(c.kernel, std::regex("^add_(naive|vectorized|tv)_fp16$"))) cases.push_back(std::move(c));
    bench::Options o;
    auto results = bench::run_cases(cases, o);
    bench::print_table(results, std::cout);
    for (auto const& r : results)
      if (!r.verified) return 1;
  } catch (std::exception const& e) {
    std::cerr << "example_01_elementwise_add: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
