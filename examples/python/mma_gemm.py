"""A tensor-core GEMM written in Tessera's kernel language with the MMA atoms: C = A @ B^T in fp32
from fp16 A (M, K) and B (N, K), both K-major, on mma.sync m16n8k16 (docs/python-kernels.md).

A block of 128 threads (four warps, 2 x 2 atoms) computes a (128, 128) tile of C. Each step over K
copies a (128, 32) tile of A and of B into shared memory with cp.async (128 bits a copy), then each
thread loads its partitions of them into registers (ldmatrix) and issues the MMAs. With stages=1 a
step waits for its own tiles; with stages=S >= 2 shared memory holds S tiles of A and of B, and the
copies of the next S - 1 steps are in flight while a step computes (a cp.async pipeline). It shows
the vocabulary (make_tiled_mma, get_slice, partition_A/B/C, make_fragment_A/B/C, gemm), not the
library's fast GEMMs (tessera.ops.gemm).

    python3 examples/python/mma_gemm.py [--size 4096] [--stages 1]

Needs a GPU (sm_80 or newer) and PyTorch; tests/python/test_lang.py compiles it without either.
"""

import argparse

import tessera as ts

BM, BN, BK = 128, 128, 32


@ts.kernel
def mma_gemm_kernel(mA, mB, mC, tiled_mma, tiled_copy, swizzle, ldmatrix, stages):
    tidx, _, _ = ts.arch.thread_idx()
    bidx, bidy, _ = ts.arch.block_idx()

    gA = ts.local_tile(mA, (BM, BK), (bidy, None))  # (BM, BK, k)
    gB = ts.local_tile(mB, (BN, BK), (bidx, None))  # (BN, BK, k)
    gC = ts.local_tile(mC, (BM, BN), (bidy, bidx))  # (BM, BN)

    smem = ts.SmemAllocator()
    if stages == 1:
        sA_layout = ts.make_layout((BM, BK), stride=(BK, 1))
        sB_layout = ts.make_layout((BN, BK), stride=(BK, 1))
    else:  # (BM, BK, stages): one tile a stage
        sA_layout = ts.make_layout((BM, BK, stages), stride=(BK, 1, BM * BK))
        sB_layout = ts.make_layout((BN, BK, stages), stride=(BK, 1, BN * BK))
    if swizzle:  # a Python if: decided while tracing
        sA_layout = ts.make_composed_layout(ts.make_swizzle(2, 3, 3), 0, sA_layout)
        sB_layout = ts.make_composed_layout(ts.make_swizzle(2, 3, 3), 0, sB_layout)
    sA = smem.allocate_tensor(ts.Float16, sA_layout, 16)
    sB = smem.allocate_tensor(ts.Float16, sB_layout, 16)

    # global -> shared: each thread copies 8 halves a row, cp.async
    thr_copy = tiled_copy.get_slice(tidx)
    tAgA = thr_copy.partition_S(gA)  # (V, CPY_M, CPY_K, k)
    tAsA = thr_copy.partition_D(sA)  # (V, CPY_M, CPY_K)
    tBgB = thr_copy.partition_S(gB)
    tBsB = thr_copy.partition_D(sB)

    # shared -> registers -> tensor cores
    thr_mma = tiled_mma.get_slice(tidx)
    tCsA = thr_mma.partition_A(sA)  # (V, MMA_M, MMA_K)
    tCsB = thr_mma.partition_B(sB)  # (V, MMA_N, MMA_K)
    tCgC = thr_mma.partition_C(gC)  # (V, MMA_M, MMA_N)
    tCrA = thr_mma.make_fragment_A(tCsA if stages == 1 else tCsA[None, None, None, 0])
    tCrB = thr_mma.make_fragment_B(tCsB if stages == 1 else tCsB[None, None, None, 0])
    tCrC = thr_mma.make_fragment_C(tCgC)
    tCrC.fill(0.0)
    if ldmatrix:  # shared -> registers with ldmatrix: a warp loads 8x8 matrices, a lane names a row
        ldsm_a = ts.make_tiled_copy_A(ts.make_copy_atom(ts.nvgpu.warp.LdMatrix8x8x16bOp(False, 4), ts.Float16), tiled_mma)
        ldsm_b = ts.make_tiled_copy_B(ts.make_copy_atom(ts.nvgpu.warp.LdMatrix8x8x16bOp(False, 2), ts.Float16), tiled_mma)
        thr_ldsm_a, thr_ldsm_b = ldsm_a.get_slice(tidx), ldsm_b.get_slice(tidx)
        tXsA, tXrA = thr_ldsm_a.partition_S(sA), thr_ldsm_a.retile_D(tCrA)
        tXsB, tXrB = thr_ldsm_b.partition_S(sB), thr_ldsm_b.retile_D(tCrB)

    k_tiles = ts.size(gA, mode=[2])
    if stages == 1:
        for k in ts.range(k_tiles):
            ts.copy(tiled_copy, tAgA[None, None, None, k], tAsA)
            ts.copy(tiled_copy, tBgB[None, None, None, k], tBsB)
            ts.arch.cp_async_commit_group()
            ts.arch.cp_async_wait_group(0)
            ts.arch.sync_threads()
            if ldmatrix:
                ts.copy(ldsm_a, tXsA, tXrA)
                ts.copy(ldsm_b, tXsB, tXrB)
            else:  # element copies, as the layouts allow (32-bit: two halves a register)
                ts.copy(tCsA, tCrA)
                ts.copy(tCsB, tCrB)
            ts.gemm(tiled_mma, tCrC, tCrA, tCrB, tCrC)
            ts.arch.sync_threads()
    else:
        for s in range(stages - 1):  # a Python loop: unrolled. Steps 0 .. stages - 2 in flight
            ts.copy(tiled_copy, tAgA[None, None, None, s], tAsA[None, None, None, s])
            ts.copy(tiled_copy, tBgB[None, None, None, s], tBsB[None, None, None, s])
            ts.arch.cp_async_commit_group()
        for k in ts.range(k_tiles):
            ts.arch.cp_async_wait_group(stages - 2)  # this thread's copies of step k have landed
            ts.arch.sync_threads()  # everyone's have; and everyone is done with step k - 1's stage
            nxt = k + (stages - 1)
            with ts.if_(nxt < k_tiles):  # into the stage step k - 1 used
                ts.copy(tiled_copy, tAgA[None, None, None, nxt], tAsA[None, None, None, nxt % stages])
                ts.copy(tiled_copy, tBgB[None, None, None, nxt], tBsB[None, None, None, nxt % stages])
            ts.arch.cp_async_commit_group()  # every step commits a group (empty at the end): wait counts them
            stage = k % stages
            if ldmatrix:
                ts.copy(ldsm_a, tXsA[None, None, None, stage], tXrA)
                ts.copy(ldsm_b, tXsB[None, None, None, stage], tXrB)
            else:
                ts.copy(tCsA[None, None, None, stage], tCrA)
                ts.copy(tCsB[None, None, None, stage], tCrB)
            ts.gemm(tiled_mma, tCrC, tCrA, tCrB, tCrC)

    ts.copy(tCrC, tCgC)


@ts.jit
def mma_gemm(mA, mB, mC, swizzle=True, ldmatrix=True, stages=1):
    M, K = mA.shape
    N = mB.shape[0]
    if M % BM or N % BN or K % BK:
        raise ValueError(f"the problem ({M}, {N}, {K}) must be a multiple of the tile ({BM}, {BN}, {BK})")
    if stages < 1 or K // BK < stages - 1:
        raise ValueError(f"stages={stages}: 1 or more, and at most K / {BK} + 1 (the steps in flight before the first)")
    op = ts.nvgpu.warp.MmaF16BF16Op(ts.Float16, ts.Float32, (16, 8, 16))
    tiled_mma = ts.make_tiled_mma(op, (2, 2, 1))  # four warps, 2 x 2
    atom = ts.make_copy_atom(ts.nvgpu.cpasync.CopyG2SOp(), ts.Float16, num_bits_per_copy=128)
    tiled_copy = ts.make_tiled_copy_tv(atom, ts.make_layout((32, 4), stride=(4, 1)), ts.make_layout((1, 8)))
    mma_gemm_kernel(mA, mB, mC, tiled_mma, tiled_copy, swizzle, ldmatrix, stages).launch(grid=(N // BN, M // BM, 1), block=(tiled_mma.size, 1, 1))


def main():
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--stages", type=int, default=1, help="1: no pipeline; 2 or more: a cp.async pipeline")
    args = parser.parse_args()
    n = args.size
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    c = torch.empty(n, n, device="cuda", dtype=torch.float32)
    compiled = ts.compile(mma_gemm, a, b, c, True, True, args.stages)
    compiled(a, b, c, True, True, args.stages)
    torch.testing.assert_close(c, a.float() @ b.float().T, rtol=1e-3, atol=1e-2)
    print(f"mma gemm: correct ({compiled.program.compile_seconds:.3f} s to compile)")


if __name__ == "__main__":
    main()
