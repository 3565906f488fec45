// tessera.ops.add: kernels::detail::add_vectorized_kernel<T, Vec, 4> (four 128-bit vectors a thread)
// compiled on first use (jit_programs.hpp) and launched as kernels::add_vectorized<T, 4> launches
// it, on a flat array seen as one row of n elements; pieces of at most 2^30 elements keep the
// kernel's int extents (a piece's start stays 16-byte aligned when the array's is). The kernel
// takes 128-bit vectors only where the row length is a multiple of the vector (and the pointers are
// 16-byte aligned), so a piece is run as its whole vectors and, apart, the fewer than 16 bytes left
// at its end.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "jit_programs.hpp"
#include "kernels.hpp"

namespace tessera::python_ops {

namespace {

// add_vectorized<T, VPT>'s launch (include/tessera/kernels/elementwise_add.cuh): VPT vectors of 16
// bytes a thread, 256 threads a block, ceil(rows * ceil(cols / VEC) / (256 VPT)) blocks; the
// kernel with Vec = true where detail::vector_ok (the three pointers and the row pitch 16-byte
// aligned), else Vec = false.
constexpr int kVectorsPerThread = 4;  // add.cu's add_vectorized<T, 4> before the JIT
constexpr int kThreads = 256;         // add_vectorized's block (checked in the program: detail::add_threads)

char const* device_type(DType t) {
  switch (t) {
    case DType::f32: return "float";
    case DType::f16: return "__half";
    case DType::bf16: return "__nv_bfloat16";
  }
  return "?";
}

char const* type_tag(DType t) {
  switch (t) {
    case DType::f32: return "float32";
    case DType::f16: return "float16";
    case DType::bf16: return "bfloat16";
  }
  return "?";
}

int element_bytes(DType t) { return t == DType::f32 ? 4 : 2; }

detail::OpProgram make_program(DType t) {
  std::string const type = device_type(t);
  std::string const vpt = std::to_string(kVectorsPerThread);
  return detail::OpProgram(std::string("tessera_ops_add_") + type_tag(t) + ".cu",
                           "#include \"tessera/kernels/elementwise_add.cuh\"\n"
                           "static_assert(tessera::kernels::detail::add_threads == " +
                               std::to_string(kThreads) +
                               ", \"python/src/ops/add.cpp: kThreads must be add_vectorized's block "
                               "(kernels::detail::add_threads)\");\n",
                           {"tessera::kernels::detail::add_vectorized_kernel<" + type + ", true, " + vpt + ">",
                            "tessera::kernels::detail::add_vectorized_kernel<" + type + ", false, " + vpt + ">"});
}

// add_vectorized<T, VPT>(a, b, c, 1, len, Major::row, stream): one row of len elements.
void launch_row(detail::OpProgram& program, int esize, char const* a, char const* b, char const* c, std::int64_t len,
                void* stream) {
  std::int64_t const vec = 16 / esize;
  std::int64_t const total = (len + vec - 1) / vec;  // rows * ceil(cols / VEC), rows = 1
  constexpr std::int64_t per_block = std::int64_t(kThreads) * kVectorsPerThread;
  auto const blocks = static_cast<unsigned>((total + per_block - 1) / per_block);
  bool const vector_ok = detail::vector_aligned(a, len, esize) && detail::vector_aligned(b, len, esize) &&
                         detail::vector_aligned(c, len, esize);
  jit::LaunchConfig cfg;
  cfg.grid = {blocks};
  cfg.block = {unsigned(kThreads)};
  cfg.stream = stream;
  program.kernel(vector_ok ? 0 : 1)
      .launch(cfg, static_cast<void const*>(a), static_cast<void const*>(b), static_cast<void*>(const_cast<char*>(c)),
              1, int(len), len);
}

}  // namespace

detail::OpProgram& detail::add_program(DType t) {
  static OpProgram programs[3] = {make_program(DType::f32), make_program(DType::f16), make_program(DType::bf16)};
  return programs[int(t)];
}

void add(DType t, void const* a, void const* b, void* c, std::int64_t n, void* stream) {
  if (n < 1) throw std::invalid_argument("add: n must be >= 1, got " + std::to_string(n));
  if (t != DType::f32 && t != DType::f16 && t != DType::bf16) throw std::invalid_argument("add: unknown element type");
  detail::OpProgram& program = detail::add_program(t);
  int const esize = element_bytes(t);
  constexpr std::int64_t piece = std::int64_t(1) << 30;
  auto const* pa = static_cast<char const*>(a);
  auto const* pb = static_cast<char const*>(b);
  auto const* pc = static_cast<char const*>(c);
  std::int64_t const vec = 16 / esize;
  auto launch = [&](std::int64_t at, std::int64_t len) {
    launch_row(program, esize, pa + at * esize, pb + at * esize, pc + at * esize, len, stream);
  };
  for (std::int64_t i = 0; i < n; i += piece) {
    std::int64_t const len = std::min(piece, n - i);
    std::int64_t const whole = len / vec * vec;
    if (whole > 0) launch(i, whole);
    if (len > whole) launch(i + whole, len - whole);
  }
}

}  // namespace tessera::python_ops
