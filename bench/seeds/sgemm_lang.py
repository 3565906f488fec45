#!/usr/bin/env python3
"""The 2-D block-tiling SGEMM (BM = BN = 64, BK = 8, TM = TN = 8, 64 threads) side by side: written
in Tessera's kernel language (examples/python/sgemm.py), the same kernel written by hand in C++ over
the library's headers (SOURCE below) through the JIT, and in CuTeDSL (bench/seeds/cutedsl_programs.py,
when it is installed), with torch.matmul in fp32 (TF32 off) as the in-run reference. Each result is
checked against an fp64 product before timing. The C++ here is specialized on the shapes, as the
Python kernel is; examples/sgemm/v1_blocktile.cuh is the same tiling for run-time sizes (predicated),
which would measure that difference too.

    python3 bench/seeds/sgemm_lang.py [--size 4096] [--repeats 5] [--burst 5] [--sustained 40] [--json out.json]
"""

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))
sys.path.insert(0, HERE)

from compare import gpu_state, time_ms  # noqa: E402

SOURCE = r"""
#include "tessera/tensor/tiling.hpp"
#include "tessera/algorithm/copy.hpp"
#include "tessera/algorithm/gemm.hpp"
using namespace tessera;

// C = alpha A B + beta C, A (M,K), B (K,N), C (M,N) row-major: the published 2-D block tiling.
template <int M, int N, int K>
__global__ void __launch_bounds__(64) sgemm_2d(float const* A, float const* B, float* C, float alpha, float beta) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8, TN = 8;
  auto mA = make_tensor(make_gmem_ptr(A), make_layout(make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, _1{})));
  auto mB = make_tensor(make_gmem_ptr(B), make_layout(make_shape(Int<K>{}, Int<N>{}), make_stride(Int<N>{}, _1{})));
  auto mC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<N>{}, _1{})));
  int const bx = int(blockIdx.x), by = int(blockIdx.y), t = int(threadIdx.x);
  auto gA = local_tile(mA, make_shape(Int<BM>{}, Int<BK>{}), make_coord(by, _));  // (BM,BK,k)
  auto gB = local_tile(mB, make_shape(Int<BK>{}, Int<BN>{}), make_coord(_, bx));  // (BK,BN,k)
  auto gC = local_tile(mC, make_shape(Int<BM>{}, Int<BN>{}), make_coord(by, bx));  // (BM,BN)
  __shared__ alignas(16) float As[BM * BK];
  __shared__ alignas(16) float Bs[BK * BN];
  auto sA = make_tensor(make_smem_ptr(As), make_layout(make_shape(Int<BM>{}, Int<BK>{}), make_stride(Int<BK>{}, _1{})));
  auto sB = make_tensor(make_smem_ptr(Bs), make_layout(make_shape(Int<BK>{}, Int<BN>{}), make_stride(Int<BN>{}, _1{})));
  auto tA = make_layout(make_shape(Int<8>{}, Int<8>{}), make_stride(Int<8>{}, _1{}));
  auto tB = make_layout(make_shape(_1{}, Int<64>{}), make_stride(Int<64>{}, _1{}));
  auto gA_to_r = local_partition(gA, tA, t);
  auto sA_to_w = local_partition(sA, tA, t);
  auto gB_to_r = local_partition(gB, tB, t);
  auto sB_to_w = local_partition(sB, tB, t);
  int const row = t / (BN / TN), col = t % (BN / TN);
  auto sA_to_r = local_tile(sA, make_shape(Int<TM>{}, _1{}), make_coord(row, _));  // (TM,1,BK)
  auto sB_to_r = local_tile(sB, make_shape(_1{}, Int<TN>{}), make_coord(_, col));  // (1,TN,BK)
  auto gC_to_w = local_tile(gC, make_shape(Int<TM>{}, Int<TN>{}), make_coord(row, col));  // (TM,TN)
  auto acc = make_tensor<float>(make_layout(make_shape(Int<TM>{}, Int<TN>{})));
  TESSERA_UNROLL
  for (int i = 0; i < TM * TN; ++i) acc(i) = 0.0f;
  auto rA = make_tensor<float>(make_layout(Int<TM>{}));
  auto rB = make_tensor<float>(make_layout(Int<TN>{}));
  for (int k = 0; k < K / BK; ++k) {
    copy(gA_to_r(_, _, k), sA_to_w);
    copy(gB_to_r(_, _, k), sB_to_w);
    __syncthreads();
    TESSERA_UNROLL
    for (int d = 0; d < BK; ++d) {
      copy(sA_to_r(_, 0, d), rA);
      copy(sB_to_r(0, _, d), rB);
      gemm(rA, rB, acc);
    }
    __syncthreads();
  }
  TESSERA_UNROLL
  for (int i = 0; i < TM * TN; ++i) gC_to_w(i) = alpha * acc(i) + beta * gC_to_w(i);
}
"""


def main():
    import tessera as ts
    from tessera import jit

    import sgemm

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--burst", type=int, default=5)
    ap.add_argument("--sustained", type=int, default=40)
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    n = args.size
    torch.manual_seed(0)
    a, b, c0 = (torch.randn(n, n, device="cuda") for _ in range(3))
    alpha, beta = 1.0, 0.0
    c = c0.clone()
    expected = (a.double() @ b.double()).float()

    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        ts.compile(sgemm.sgemm_2d_blocktiling, a, b, c, alpha, beta, cache=False)
    lang_s = time.perf_counter() - t0
    compiled = ts.compile(sgemm.sgemm_2d_blocktiling, a, b, c, alpha, beta)
    name = f"sgemm_2d<{n}, {n}, {n}>"
    t0 = time.perf_counter()
    jit.compile(SOURCE, [name], cache=False)
    cxx_s = time.perf_counter() - t0
    kernel = jit.compile(SOURCE, [name]).kernel(0)
    stream = torch.cuda.current_stream().cuda_stream
    runs = {
        "python": lambda: compiled(a, b, c, alpha, beta, stream=stream),
        "c++": lambda: kernel((n // 64, n // 64), 64, a, b, c, jit.f32(alpha), jit.f32(beta), stream=stream),
        "torch": lambda: torch.matmul(a, b, out=c),
    }
    compile_s = {"python": lang_s, "c++": cxx_s}
    import cutedsl_programs as cd

    if cd.AVAILABLE:  # alpha = 1, beta = 0 there too
        runs["cutedsl"], compile_s["cutedsl"] = cd.build("sgemm", [a, b, c])
    else:
        print(f"CuTeDSL not run: {cd.WHY}")
    for k, run in runs.items():
        c.zero_()
        run()
        torch.cuda.synchronize()
        err = (c - expected).abs().max().item()
        if err > 1e-2 * n ** 0.5 / 8:
            raise SystemExit(f"{k}: wrong result (max error {err}); nothing timed")
    flops = 2.0 * n ** 3
    state_before = gpu_state()
    burst = {k: [] for k in runs}
    sustained = {k: [] for k in runs}
    for r in range(args.repeats):
        keys = list(runs) if r % 2 == 0 else list(reversed(list(runs)))
        for k in keys:
            time.sleep(0.2)
            burst[k].append(flops / time_ms(runs[k], args.burst) / 1e9)
        for k in keys:
            sustained[k].append(flops / time_ms(runs[k], args.sustained) / 1e9)
    state_after = gpu_state()
    med = {k: (statistics.median(burst[k]), statistics.median(sustained[k])) for k in runs}
    print(f"{torch.cuda.get_device_name()}, SGEMM {n}^3 fp32, medians of {args.repeats} rounds; TFLOP/s")
    print(f"GPU before: {state_before}\nGPU after:  {state_after}")
    for k in runs:
        print(f"{k:8} {med[k][0]:8.2f} / {med[k][1]:8.2f}")
    for other in ("c++", "cutedsl"):
        if other in med:
            print(f"python / {other}: {med['python'][0] / med[other][0]:.3f} burst, "
                  f"{med['python'][1] / med[other][1]:.3f} sustained")
    print("compile, caches bypassed: " + ", ".join(f"{k} {v:.2f} s" for k, v in compile_s.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "size": n, "gpu_before": state_before,
                       "gpu_after": state_after, "compile_seconds": compile_s,
                       "results": {k: {"burst_tflops": med[k][0], "sustained_tflops": med[k][1],
                                       "burst_all": burst[k], "sustained_all": sustained[k]} for k in runs}}, f, indent=1)


if __name__ == "__main__":
    main()
