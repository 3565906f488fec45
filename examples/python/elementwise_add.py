"""Element-wise addition C = A + B written in Tessera's kernel language, in the three forms the
published CuTeDSL walkthrough teaches (docs/background.md, docs/python-kernels.md): one element a
thread, vectors of four elements a thread (zipped_divide by (1, 4)), and a thread-value layout
(make_layout_tv: each of 128 threads adds 4 rows of 8 elements of a (16, 256) tile).

    python3 examples/python/elementwise_add.py [--size 2048]

Needs a GPU and PyTorch; tests/python/test_lang.py compiles the same kernels without either.
"""

import argparse

import tessera as ts

# ---- one element a thread ---------------------------------------------------------------------


@ts.kernel
def naive_elementwise_add_kernel(gA, gB, gC):
    tidx, _, _ = ts.arch.thread_idx()
    bidx, _, _ = ts.arch.block_idx()
    bdim, _, _ = ts.arch.block_dim()

    thread_idx = bidx * bdim + tidx

    # Map thread index to logical index of input tensor
    m, n = gA.shape
    ni = thread_idx % n
    mi = thread_idx // n

    # Map logical index to physical address via tensor layout
    a_val = gA[mi, ni]
    b_val = gB[mi, ni]

    # Perform element-wise addition
    gC[mi, ni] = a_val + b_val


@ts.jit
def naive_elementwise_add(mA, mB, mC):
    num_threads_per_block = 256

    print(f"[DSL INFO] Input tensors:")
    print(f"[DSL INFO]   mA = {mA}")
    print(f"[DSL INFO]   mB = {mB}")
    print(f"[DSL INFO]   mC = {mC}")

    m, n = mA.shape
    kernel = naive_elementwise_add_kernel(mA, mB, mC)
    kernel.launch(
        grid=((m * n) // num_threads_per_block, 1, 1),
        block=(num_threads_per_block, 1, 1),
    )


# ---- four elements a thread -------------------------------------------------------------------


@ts.kernel
def vectorized_elementwise_add_kernel(gA, gB, gC):
    tidx, _, _ = ts.arch.thread_idx()
    bidx, _, _ = ts.arch.block_idx()
    bdim, _, _ = ts.arch.block_dim()

    thread_idx = bidx * bdim + tidx

    # Map thread index to logical index of input tensor
    m, n = gA.shape[1]  # thread-domain
    ni = thread_idx % n
    mi = thread_idx // n

    # Map logical index to physical address via tensor layout
    a_val = gA[(None, (mi, ni))].load()
    b_val = gB[(None, (mi, ni))].load()
    print(f"[DSL INFO] sliced gA = {gA[(None, (mi, ni))]}")
    print(f"[DSL INFO] sliced gB = {gB[(None, (mi, ni))]}")

    # Perform element-wise addition
    gC[(None, (mi, ni))] = a_val + b_val


@ts.jit
def vectorized_elementwise_add(mA, mB, mC):
    threads_per_block = 256

    gA = ts.zipped_divide(mA, (1, 4))
    gB = ts.zipped_divide(mB, (1, 4))
    gC = ts.zipped_divide(mC, (1, 4))

    print(f"[DSL INFO] Tiled Tensors:")
    print(f"[DSL INFO]   gA = {gA}")
    print(f"[DSL INFO]   gB = {gB}")
    print(f"[DSL INFO]   gC = {gC}")

    vectorized_elementwise_add_kernel(gA, gB, gC).launch(
        grid=(ts.size(gC, mode=[1]) // threads_per_block, 1, 1),
        block=(threads_per_block, 1, 1),
    )


# ---- a thread-value layout --------------------------------------------------------------------


@ts.kernel
def elementwise_add_kernel(gA, gB, gC, tv_layout):
    tidx, _, _ = ts.arch.thread_idx()
    bidx, _, _ = ts.arch.block_idx()

    # slice for thread-block level view
    blk_coord = ((None, None), bidx)

    # logical coord -> address
    blkA = gA[blk_coord]  # (TileM, TileN) -> physical address
    blkB = gB[blk_coord]  # (TileM, TileN) -> physical address
    blkC = gC[blk_coord]  # (TileM, TileN) -> physical address

    # compose for thread-index & value-index to physical mapping
    # tidfrgA = blkA o tv_layout: (tid, vid) -> physical address
    tidfrgA = ts.composition(blkA, tv_layout)
    tidfrgB = ts.composition(blkB, tv_layout)
    tidfrgC = ts.composition(blkC, tv_layout)

    print(f"Composed with TV layout:")
    print(f"  tidfrgA: {tidfrgA.type}")

    # slice for thread-level view: `None` represents the entire per-thread data
    thr_coord = (tidx, None)

    # slice for threads: vid -> address
    thrA = tidfrgA[thr_coord]  # (V) -> physical address
    thrB = tidfrgB[thr_coord]  # (V) -> physical address
    thrC = tidfrgC[thr_coord]  # (V) -> physical address

    print(f"thrA/B/C:")
    print(f"  thrA: {thrA.type}")
    print(f"  thrB: {thrB.type}")
    print(f"  thrC: {thrC.type}")

    thrC[None] = thrA.load() + thrB.load()


@ts.jit
def elementwise_add(mA, mB, mC):
    # mA layout: (M, N):(N, 1)
    # TV layout map thread & value index to (16, 256) logical tile
    #  - contiguous thread index maps to mode-1 because input layout is contiguous on
    #    mode-1 for coalesced load-store
    #  - each thread load 8 contiguous element each row and load 4 rows
    thr_layout = ts.make_layout((4, 32), stride=(32, 1))
    val_layout = ts.make_layout((4, 8), stride=(8, 1))
    tiler_mn, tv_layout = ts.make_layout_tv(thr_layout, val_layout)
    print(f"Tiler: {tiler_mn}")
    print(f"TV Layout: {tv_layout}")

    gA = ts.zipped_divide(mA, tiler_mn)  # ((TileM, TileN), (RestM, RestN))
    gB = ts.zipped_divide(mB, tiler_mn)  # ((TileM, TileN), (RestM, RestN))
    gC = ts.zipped_divide(mC, tiler_mn)  # ((TileM, TileN), (RestM, RestN))

    print(f"Tiled Input Tensors:")
    print(f"  gA: {gA.type}")
    print(f"  gB: {gB.type}")
    print(f"  gC: {gC.type}")

    elementwise_add_kernel(gA, gB, gC, tv_layout).launch(
        grid=[ts.size(gC, mode=[1]), 1, 1],
        block=[ts.size(tv_layout, mode=[0]), 1, 1],
    )


PROGRAMS = {"naive": naive_elementwise_add, "vectorized": vectorized_elementwise_add, "tv": elementwise_add}


def main():
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048)
    args = parser.parse_args()
    M = N = args.size
    a = torch.randn(M, N, device="cuda", dtype=torch.float16)
    b = torch.randn(M, N, device="cuda", dtype=torch.float16)
    for name, program in PROGRAMS.items():
        c = torch.zeros(M, N, device="cuda", dtype=torch.float16)
        compiled = ts.compile(program, a, b, c)
        compiled(a, b, c)
        torch.testing.assert_close(c, a + b)
        print(f"{name}: correct ({compiled.program.compile_seconds:.3f} s to compile)")


if __name__ == "__main__":
    main()
