// `tessera demo`: the layouts of Tessera's first kernels (docs/background.md), computed by the
// compile-time algebra.
//   1. the elementwise-add inputs mA, mB, mC: (2048,2048):(2048,_1), row-major fp16
//   2. the vectorized version: zipped_divide(mA, (_1,_4)) and one thread's slice
//   3. the thread-value version: make_layout_tv, the block tile, the (thread,value) view
//   4. the SGEMM block/thread tiling shapes (BM = BN = 64, BK = 8, TM = TN = 8)
//   5. pictures: print_layout tables, a swizzled shared-memory tile, a TV layout as T#V# cells
//   6. GPU kernels: where a GPU exists and tessera-bench was built beside this command (a CUDA
//      build), its short verified run (`tessera-bench --quick`)
// The output is deterministic (fixed block and thread indices) and is checked by tests/demo.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "output.hpp"
#include "tessera/tessera.hpp"

namespace {

using namespace tessera;

void heading(const std::string& title) { std::cout << "\n== " << title << " ==\n"; }

// `name = value` with the value in the reference notation, then an optional mapping comment.
template <class T>
void show(const std::string& name, T const& x, const std::string& comment = "") {
  std::string line = name + " = " + to_string(x);
  if (!comment.empty()) line += std::string(line.size() < 54 ? 56 - line.size() : 2, ' ') + "// " + comment;
  std::cout << line << '\n';
}

// A print_layout-style table of rows x cols text cells (same frame as tessera::layout_table).
template <class Cell>
std::string grid(long rows, long cols, Cell&& cell) {
  std::vector<std::string> text(static_cast<std::size_t>(rows * cols));
  std::size_t w = std::to_string(cols - 1).size();
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) {
      text[static_cast<std::size_t>(i * cols + j)] = cell(i, j);
      w = std::max(w, text[static_cast<std::size_t>(i * cols + j)].size());
    }
  auto pad = [w](const std::string& s) { return std::string(w - s.size(), ' ') + s; };
  std::string rule = "    +";
  for (long j = 0; j < cols; ++j) rule += std::string(w + 2, '-') + "+";
  std::string out = "    ";
  for (long j = 0; j < cols; ++j) out += "  " + pad(std::to_string(j)) + " ";
  out += "\n" + rule + "\n";
  for (long i = 0; i < rows; ++i) {
    std::string r = std::to_string(i);
    out += std::string(r.size() < 2 ? 2 - r.size() : 0, ' ') + r + "  ";
    for (long j = 0; j < cols; ++j) out += "| " + pad(text[static_cast<std::size_t>(i * cols + j)]) + " ";
    out += "|\n" + rule + "\n";
  }
  return out;
}

// The tensor over a counting iterator: element c is L(c), the offset itself, so a tile's data()
// is its base offset and its layout the offsets from there. Printed `counting_iter(base) o layout`.
template <class L>
auto offsets(L const& layout) {
  return make_tensor(make_counting_iterator(0), layout);
}

void section_inputs() {
  heading("1. Elementwise add: the input tensors");
  std::cout << "A row-major 2048x2048 fp16 matrix; the unit stride is static (_1).\n";
  int const M = 2048, N = 2048;
  auto mA = make_layout(make_tuple(M, N), make_tuple(N, _1{}));  // (m,n) -> element offset
  auto mB = mA;
  auto mC = mA;
  show("mA", mA, "(m,n) -> offset");
  show("mB", mB, "(m,n) -> offset");
  show("mC", mC, "(m,n) -> offset");
  show("mA(1,3)", mA(1, 3), "row 1 starts at 2048");
  show("size(mA)", size(mA));
}

void section_vectorized() {
  heading("2. Vectorized: every thread adds 4 contiguous elements");
  auto mA = make_layout(make_tuple(2048, 2048), make_tuple(2048, _1{}));
  auto gA = zipped_divide(mA, make_tuple(_1{}, _4{}));  // ((vec),(m,n/4)) -> offset
  show("gA = zipped_divide(mA, (_1,_4))", gA, "((1,4),(m,n/4)) -> offset");
  std::cout << "Thread 1000 of a 1-D grid: n = size(mode 1 of the rest) = 512, so (mi,ni) = (1000/512, 1000%512).\n";
  int const tid = 1000, n = 512;
  auto thr = slice_and_offset(make_tuple(_, make_tuple(tid / n, tid % n)), gA);
  show("gA(_,(1,488))", get<0>(thr), "vec -> offset, from the base below");
  show("  base offset", get<1>(thr), "= 1*2048 + 488*4");
}

void section_thread_value() {
  heading("3. Thread-value layout: 128 threads x 32 values per (16,256) tile");
  auto thr = make_layout(make_tuple(_4{}, _32{}), make_tuple(_32{}, _1{}));  // (tm,tn) -> thread
  auto val = make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{}));    // (vm,vn) -> value
  show("thr", thr, "(tm,tn) -> thread id");
  show("val", val, "(vm,vn) -> value id");
  auto tv_pair = make_layout_tv(thr, val);
  auto tiler = get<0>(tv_pair);
  auto tv = get<1>(tv_pair);  // (thread, value) -> index in the (16,256) tile
  show("raked_product(thr, val)", raked_product(thr, val), "(m,n) -> (thread,value) index");
  show("Tiler", tiler);
  show("TV Layout", tv, "(thread,value) -> (m,n) index");

  auto mA = make_layout(make_tuple(2048, 2048), make_tuple(2048, _1{}));
  auto gA = zipped_divide(mA, tiler);  // ((TileM,TileN),(RestM,RestN)) -> offset
  show("gA = zipped_divide(mA, tiler)", gA, "((TileM,TileN),(RestM,RestN))");
  int const bidx = 5, tidx = 37;
  auto blk = slice_and_offset(make_tuple(make_tuple(_, _), bidx), gA);
  auto blkA = get<0>(blk);  // (TileM,TileN) -> offset
  show("blkA = gA((_,_),5)", blkA, "(TileM,TileN) -> offset");
  show("  base offset", get<1>(blk), "= 5*32768");
  auto tidfrgA = composition(blkA, tv);  // (thread,value) -> offset
  show("tidfrgA = composition(blkA, tv)", tidfrgA, "(thread,value) -> offset");
  auto thrA = slice_and_offset(make_tuple(tidx, _), tidfrgA);
  show("thrA = tidfrgA(37,_)", get<0>(thrA), "value -> offset");
  show("  base offset", get<1>(thrA), "thread 37 inside the tile");
}

void section_sgemm() {
  heading("4. SGEMM tiling (M = N = K = 4096, BM = BN = 64, BK = 8, TM = TN = 8)");
  std::cout << "Tensors over counting iterators (element = its offset): local_tile(t, tile, coord) is\n"
               "the block's tile, printed counting_iter(base offset) o layout; block (x,y) = (1,2), thread 9.\n";
  int const M = 4096, N = 4096, K = 4096;
  auto mA = make_layout(make_tuple(M, K), LayoutRight{});  // (m,k) -> offset
  auto mB = make_layout(make_tuple(K, N), LayoutRight{});  // (k,n) -> offset
  auto mC = make_layout(make_tuple(M, N), LayoutRight{});  // (m,n) -> offset
  show("mA", mA, "(M,K) row-major (K-major)");
  show("mB", mB, "(K,N) row-major");
  show("mC", mC, "(M,N) row-major");
  auto blkA = make_tuple(_64{}, _8{});   // (BM,BK)
  auto blkB = make_tuple(_8{}, _64{});   // (BK,BN)
  auto blkC = make_tuple(_64{}, _64{});  // (BM,BN)
  show("zipped_divide(mA, (_64,_8))", zipped_divide(mA, blkA), "((BM,BK),(m,k))");
  show("tiled_divide(mA, (_64,_8))", tiled_divide(mA, blkA), "((BM,BK),m,k)");
  int const bx = 1, by = 2, tid = 9;
  auto gA = local_tile(offsets(mA), blkA, make_coord(by, _));   // (BM,BK,k)
  auto gB = local_tile(offsets(mB), blkB, make_coord(_, bx));   // (BK,BN,k)
  auto gC = local_tile(offsets(mC), blkC, make_coord(by, bx));  // (BM,BN)
  show("gA = local_tile(mA,(BM,BK),(2,_))", gA, "(BM,BK,k)");
  show("gB = local_tile(mB,(BK,BN),(_,1))", gB, "(BK,BN,k)");
  show("gC = local_tile(mC,(BM,BN),(2,1))", gC, "(BM,BN); base = 2*64*4096 + 1*64");
  auto sA = make_layout(blkA, LayoutRight{});  // (BM,BK) -> smem offset
  auto sB = make_layout(blkB, LayoutRight{});  // (BK,BN) -> smem offset
  show("sA", sA, "(BM,BK) -> smem offset");
  show("sB", sB, "(BK,BN) -> smem offset");
  show("cosize(sA)", cosize(sA), "floats of shared memory");
  auto thr_row = tid / 8, thr_col = tid % 8;  // BN / TN = 8 threads per row of C
  auto sA_r = local_tile(offsets(sA), make_tuple(_8{}, _1{}), make_coord(thr_row, _));
  auto sB_r = local_tile(offsets(sB), make_tuple(_1{}, _8{}), make_coord(_, thr_col));
  auto gC_w = local_tile(gC, make_tuple(_8{}, _8{}), make_coord(thr_row, thr_col));
  show("sA_to_r = local_tile(sA,(TM,1),(1,_))", sA_r, "(TM,1,BK)");
  show("sB_to_r = local_tile(sB,(1,TN),(_,1))", sB_r, "(1,TN,BK)");
  show("gC_to_w = local_tile(gC,(TM,TN),(1,1))", gC_w, "(TM,TN)");
}

void section_pictures() {
  heading("5. Pictures");
  std::cout << "print_layout of (_2,(_2,_2)):(_4,(_2,_1)): cell (i,j) = L(i,j).\n";
  std::cout << layout_table(
      make_layout(make_tuple(_2{}, make_tuple(_2{}, _2{})), make_tuple(_4{}, make_tuple(_2{}, _1{}))));

  std::cout << "\nA shared-memory tile of 8 rows x 64 fp16, swizzled by Sw<3,3,3>. Each row holds eight\n"
               "16-byte chunks of 8 elements; cell (m,c) = the chunk where element (m,8c) lands.\n";
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_tuple(_8{}, _64{}), make_tuple(_64{}, _1{})));
  std::cout << to_string(sw) << '\n';
  std::cout << grid(8, 8, [&](long m, long c) { return std::to_string((sw(int(m), int(8 * c)) % 64) / 8); });

  std::cout << "\nmake_layout_tv((_2,_4):(_4,_1), (_2,_2):(_2,_1)): cell (m,n) = the thread T and value V\n"
               "that own element (m,n) of the tile (tv inverted on the host).\n";
  auto small = make_layout_tv(make_layout(make_tuple(_2{}, _4{}), make_tuple(_4{}, _1{})),
                              make_layout(make_tuple(_2{}, _2{}), make_tuple(_2{}, _1{})));
  auto tiler = get<0>(small);
  auto tv = get<1>(small);  // (thread,value) -> column-major index in the tile
  show("Tiler", tiler);
  show("TV Layout", tv);
  long const rows = size<0>(tiler), cols = size<1>(tiler);
  std::vector<std::string> owner(static_cast<std::size_t>(rows * cols), "-");
  for (long t = 0; t < long(size<0>(tv)); ++t)
    for (long v = 0; v < long(size<1>(tv)); ++v)
      owner[static_cast<std::size_t>(tv(int(t), int(v)))] = "T" + std::to_string(t) + "V" + std::to_string(v);
  std::cout << grid(rows, cols, [&](long m, long n) { return owner[static_cast<std::size_t>(m + n * rows)]; });
}

void section_gpu() {
  heading("6. GPU kernels");
  const bool gpu = std::filesystem::exists("/dev/nvidia0") || std::system("nvidia-smi -L >/dev/null 2>&1") == 0;
  if (!gpu) {
    std::cout << "GPU: none found — kernel section skipped\n";
    return;
  }
  // The GPU benchmark is its own command, built beside this one in CUDA builds.
  std::error_code ec;
  std::filesystem::path const self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path const bench = self.parent_path() / "tessera-bench";
  if (ec || !std::filesystem::exists(bench)) {
    std::cout << "GPU found: tessera-bench is not built beside this command (a CUDA build builds it: cmake --build "
                 "build --target tessera_bench_cli); nothing run\n";
    return;
  }
  std::cout << "GPU found: short benchmark (tessera-bench --quick: small sizes, every result verified; "
               "tessera-bench --help for more)\n"
            << std::flush;
  std::string quoted;  // the path in single quotes for the shell, a quote in it written '\''
  for (char const c : bench.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  std::string const command = "'" + quoted + "' --quick";
  int const rc = std::system(command.c_str());
  if (rc != 0) std::cout << "short benchmark failed (" << command << ": status " << rc << ")\n";
}

}  // namespace

void register_demo(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("demo", "Print the layouts of Tessera's kernels, computed by the algebra");
  cmd->callback([] {
    std::cout << "Tessera demo: the layouts of Tessera's first kernels (elementwise add, tile copy, SGEMM),\n"
                 "computed by the compile-time algebra. Background: docs/background.md.\n"
                 "Notation: shape:stride, _n a static integer, n a dynamic one.\n";
    section_inputs();
    section_vectorized();
    section_thread_value();
    section_sgemm();
    section_pictures();
    section_gpu();
    std::exit(tessera::cli::finish_stdout(0));
  });
}
