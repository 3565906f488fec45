// tessera.ops.add: kernels::add_vectorized (four 128-bit vectors a thread) on a flat array, seen as
// one row of n elements; pieces of at most 2^30 elements keep the kernel's int extents (a piece's
// start stays 16-byte aligned when the array's is). The kernel takes 128-bit vectors only where the
// row length is a multiple of the vector (and the pointers are 16-byte aligned), so a piece is run
// as its whole vectors and, apart, the fewer than 16 bytes left at its end.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels.hpp"
#include "tessera/kernels/elementwise_add.cuh"

namespace tessera::python_ops {

namespace {
template <class T>
cudaError_t add_pieces(void const* a, void const* b, void* c, std::int64_t n, cudaStream_t stream) {
  constexpr std::int64_t piece = std::int64_t(1) << 30;
  auto const* pa = static_cast<T const*>(a);
  auto const* pb = static_cast<T const*>(b);
  auto* pc = static_cast<T*>(c);
  constexpr std::int64_t vec = 16 / sizeof(T);
  auto launch = [&](std::int64_t at, std::int64_t len) {
    return kernels::add_vectorized<T, 4>(pa + at, pb + at, pc + at, 1, int(len), Major::row, stream);
  };
  for (std::int64_t i = 0; i < n; i += piece) {
    std::int64_t const len = std::min(piece, n - i);
    std::int64_t const whole = len / vec * vec;
    if (whole > 0)
      if (cudaError_t const e = launch(i, whole); e != cudaSuccess) return e;
    if (len > whole)
      if (cudaError_t const e = launch(i + whole, len - whole); e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t add(DType t, void const* a, void const* b, void* c, std::int64_t n, cudaStream_t stream) {
  if (n < 1) throw std::invalid_argument("add: n must be >= 1, got " + std::to_string(n));
  switch (t) {
    case DType::f32: return add_pieces<float>(a, b, c, n, stream);
    case DType::f16: return add_pieces<__half>(a, b, c, n, stream);
    case DType::bf16: return add_pieces<__nv_bfloat16>(a, b, c, n, stream);
  }
  throw std::invalid_argument("add: unknown element type");
}

}  // namespace tessera::python_ops
