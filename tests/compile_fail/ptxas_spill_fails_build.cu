// Compile-fail case: a kernel whose values do not fit its registers, built with ptxas's checks as
// errors (TESSERA_CUDA_PTXAS_CHECKS, the flags of the compiled Hopper GEMM instances in
// bench/gemm_sm90_instances.hpp). 1024 threads and 2 blocks an SM leave 32 registers a thread for
// 96 live values: ptxas spills, and the build must fail naming the spill -- the proof that those
// flags make a spilling kernel a build error with this nvcc.
// Control: the same kernel with 128 threads a block (up to 255 registers a thread) compiles.
// CUDA-ARCH: 90a
// EXPECT-ERROR: Registers are spilled to local memory
#ifndef TESSERA_CONTROL
#define TESSERA_BOUNDS __launch_bounds__(1024, 2)
#else
#define TESSERA_BOUNDS __launch_bounds__(128)
#endif

__global__ void TESSERA_BOUNDS kernel(float const* in, float* out, int n) {
  float v[96];
#pragma unroll
  for (int i = 0; i < 96; ++i) v[i] = in[threadIdx.x + i * n];
  float s = 0.f;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int i = 0; i < 96; ++i) s += v[i] * v[(i * 7 + r) % 96];
  out[threadIdx.x] = s;
}
