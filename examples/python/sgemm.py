"""C = alpha * A @ B + beta * C in fp32 with 2-D block tiling, written in Tessera's kernel language
after the published CuTe walkthrough of the 2-D block-tiling SGEMM (docs/background.md,
docs/python-kernels.md): a block computes a (BM, BN) tile of C from (BM, BK) tiles of A and (BK, BN)
tiles of B staged in shared memory; each thread computes a (TM, TN) tile of it as a sum of outer
products of a column of A's tile and a row of B's.

    python3 examples/python/sgemm.py [--size 4096]

Row-major A (M, K), B (K, N), C (M, N). Needs a GPU and PyTorch; tests/python/test_lang.py compiles
the same kernel without either.
"""

import argparse

import tessera as ts

BM, BN, BK = 64, 64, 8
TM, TN = 8, 8


@ts.kernel
def sgemm_2d_blocktiling_kernel(mA, mB, mC, alpha, beta):
    tidx, _, _ = ts.arch.thread_idx()
    bidx, bidy, _ = ts.arch.block_idx()

    # blocktiles in gmem
    gA = ts.local_tile(mA, (BM, BK), (bidy, None))  # (BM, BK, k)
    gB = ts.local_tile(mB, (BK, BN), (None, bidx))  # (BK, BN, k)
    gC = ts.local_tile(mC, (BM, BN), (bidy, bidx))  # (BM, BN)

    # blocktiles in smem
    smem = ts.SmemAllocator()
    sA = smem.allocate_tensor(ts.Float32, ts.make_layout((BM, BK), stride=(BK, 1)))
    sB = smem.allocate_tensor(ts.Float32, ts.make_layout((BK, BN), stride=(BN, 1)))

    # the part of gA (gB) each thread loads into sA (sB): consecutive threads along a row
    A_thread_layout = ts.make_layout((8, 8), stride=(8, 1))
    B_thread_layout = ts.make_layout((1, 64), stride=(64, 1))
    gA_to_r = ts.local_partition(gA, A_thread_layout, tidx)  # (8, 1, k)
    sA_to_w = ts.local_partition(sA, A_thread_layout, tidx)  # (8, 1)
    gB_to_r = ts.local_partition(gB, B_thread_layout, tidx)  # (8, 1, k)
    sB_to_w = ts.local_partition(sB, B_thread_layout, tidx)  # (8, 1)

    # the part of sA, sB each thread reads, and the part of gC it writes
    thread_row_C = tidx // (BN // TN)
    thread_col_C = tidx % (BN // TN)
    sA_to_r = ts.local_tile(sA, (TM, 1), (thread_row_C, None))  # (TM, 1, BK)
    sB_to_r = ts.local_tile(sB, (1, TN), (None, thread_col_C))  # (1, TN, BK)
    gC_to_w = ts.local_tile(gC, (TM, TN), (thread_row_C, thread_col_C))  # (TM, TN)

    # registers
    thread_results = ts.make_fragment_like(gC_to_w)
    thread_results.fill(0.0)
    tmp_A = ts.make_fragment((TM,), ts.Float32)
    tmp_B = ts.make_fragment((TN,), ts.Float32)

    num_tiles_k = ts.size(gA, mode=[2])
    for k in ts.range(num_tiles_k):
        ts.copy(gA_to_r[None, None, k], sA_to_w)
        ts.copy(gB_to_r[None, None, k], sB_to_w)
        ts.arch.sync_threads()
        for dot_idx in range(BK):  # a Python loop: unrolled while tracing
            ts.copy(sA_to_r[None, 0, dot_idx], tmp_A)
            ts.copy(sB_to_r[0, None, dot_idx], tmp_B)
            ts.gemm(tmp_A, tmp_B, thread_results)  # outer product: (TM) x (TN) => (TM, TN)
        ts.arch.sync_threads()

    gC_to_w.store(alpha * thread_results.load() + beta * gC_to_w.load())


@ts.jit
def sgemm_2d_blocktiling(mA, mB, mC, alpha=1.0, beta=0.0):
    M, K = mA.shape
    N = mB.shape[1]
    if M % BM or N % BN or K % BK:
        raise ValueError(f"the problem ({M}, {N}, {K}) must be a multiple of the tile ({BM}, {BN}, {BK})")
    sgemm_2d_blocktiling_kernel(mA, mB, mC, alpha, beta).launch(
        grid=(N // BN, M // BM, 1),
        block=((BM * BN) // (TM * TN), 1, 1),
    )


def main():
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096)
    args = parser.parse_args()
    n = args.size
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    c = torch.randn(n, n, device="cuda")
    expected = 0.5 * (a.double() @ b.double()) + 0.25 * c.double()
    compiled = ts.compile(sgemm_2d_blocktiling, a, b, c, 0.5, 0.25)
    compiled(a, b, c, 0.5, 0.25)
    torch.testing.assert_close(c.double(), expected, rtol=1e-4, atol=1e-3 * n ** 0.5)
    print(f"sgemm: correct ({compiled.program.compile_seconds:.3f} s to compile)")


if __name__ == "__main__":
    main()
