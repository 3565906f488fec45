// The bench cases' operands, filled on the device: value i of a stream `seed` is a hash of i, so that
// a case's inputs are the same in every run, on every device and in every case that asks for the
// same stream.
//   fill_uniform_value(i, seed)        a float in [-1, 1): 24 random bits of a 64-bit mix of i
//   fill_scale_value(i, seed)          a scale in [0.5, 1.5)
//   fill_uniform<T>(p, n, seed, abs)   p[i] = T(fill_uniform_value(i)), abs[i] = |p[i]| (abs: optional)
//   fill_fp8<F8>(p, copy, abs, n, seed) p[i] = F8(fill_uniform_value(i)), copy[i] its bf16 value, abs[i]
//                                      |copy[i]|
//   fill_scales(s, n, seed)            s[i] = fill_scale_value(i)
#pragma once

#include <cstdint>

#include "tessera/core/numeric.hpp"

namespace tessera::bench {

__device__ inline float fill_uniform_value(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return float(x >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 random bits -> [-1, 1)
}

__device__ inline float fill_scale_value(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return 0.5f + float(x >> 40) / 16777216.0f;
}

template <class T>
__global__ void fill_uniform(T* p, std::uint64_t n, std::uint64_t seed, float* abs_copy = nullptr) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    T const v(fill_uniform_value(i, seed));  // rounded to T
    p[i] = v;
    if (abs_copy != nullptr) abs_copy[i] = fabsf(float(v));
  }
}

template <class F8>
__global__ void fill_fp8(F8* p, bfloat16_t* copy, bfloat16_t* abs_copy, std::uint64_t n, std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    F8 const v(fill_uniform_value(i, seed));
    p[i] = v;
    copy[i] = bfloat16_t(float(v));
    abs_copy[i] = bfloat16_t(fabsf(float(v)));
  }
}

// (A template, as the others: a kernel defined in a header that several cases include.)
template <class S = float>
__global__ void fill_scales(S* s, int n, std::uint64_t seed) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s[i] = S(fill_scale_value(std::uint64_t(i), seed));
}

}  // namespace tessera::bench
