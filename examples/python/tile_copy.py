"""A tile copy through shared memory, written in Tessera's kernel language as the published
CuTeDSL walkthrough writes it (docs/background.md, docs/python-kernels.md): each block copies one
(tile_m, tile_n) tile of src into shared memory with cp.async (128 bits a thread and copy), waits
on its group and a named barrier, then stores the tile into dst.

    python3 examples/python/tile_copy.py [--size 8192]

Needs a GPU and PyTorch; tests/python/test_lang.py compiles the same kernel without either.
"""

import argparse

import tessera as ts


class TensorCopyAsync:
    def __init__(self, tile_m: int = 32, num_threads: int = 512):
        if num_threads % tile_m != 0:
            raise ValueError("num_threads must be divisible by tile_m")
        self._tile_m = tile_m
        self._num_threads = num_threads
        self.cta_sync_barrier = ts.NamedBarrier(barrier_id=1, num_threads=num_threads)

    @ts.jit
    def __call__(self, mSrc, mDst):
        copy_bits = 128
        vector_elems = copy_bits // mSrc.element_type.width
        threads_per_row = self._num_threads // self._tile_m
        tile_n = threads_per_row * vector_elems
        if mSrc.shape[0] % self._tile_m != 0 or mSrc.shape[1] % tile_n != 0:
            raise ValueError(f"mSrc/mDst shape must be divisible by ({self._tile_m}, {tile_n})")

        atom_async_copy = ts.make_copy_atom(
            ts.nvgpu.cpasync.CopyG2SOp(),  # asynchronous GMEM -> SMEM copy
            mSrc.element_type,
            num_bits_per_copy=copy_bits,
        )
        atom_store = ts.make_copy_atom(
            ts.nvgpu.CopyUniversalOp(),  # plain loads and stores
            mDst.element_type,
            num_bits_per_copy=copy_bits,
        )

        thr_layout = ts.make_layout((self._tile_m, threads_per_row), stride=(threads_per_row, 1))
        val_layout = ts.make_layout((1, vector_elems))
        tiled_copy_load = ts.make_tiled_copy_tv(atom_async_copy, thr_layout, val_layout)
        tiled_copy_store = ts.make_tiled_copy_tv(atom_store, thr_layout, val_layout)

        sSrc_layout = ts.make_layout((self._tile_m, tile_n), stride=(tile_n, 1))
        gSrc = ts.zipped_divide(mSrc, (self._tile_m, tile_n))
        gDst = ts.zipped_divide(mDst, (self._tile_m, tile_n))

        tiles_mn = ts.ceil_div(mSrc.shape, (self._tile_m, tile_n))
        self.kernel(gSrc, gDst, sSrc_layout, tiled_copy_load, tiled_copy_store).launch(
            grid=[tiles_mn[1], tiles_mn[0], 1],
            block=[self._num_threads, 1, 1],
        )

    @ts.kernel
    def kernel(self, gSrc, gDst, sSrc_layout, tiled_copy_load, tiled_copy_store):
        tidx, _, _ = ts.arch.thread_idx()
        bidx, bidy, _ = ts.arch.block_idx()

        blkSrc = gSrc[((None, None), (bidy, bidx))]
        blkDst = gDst[((None, None), (bidy, bidx))]

        smem = ts.SmemAllocator()
        sSrc = smem.allocate_tensor(gSrc.element_type, sSrc_layout, 16)

        thr_copy_load = tiled_copy_load.get_slice(tidx)
        tSgSrc = thr_copy_load.partition_S(blkSrc)
        tSsSrc = thr_copy_load.partition_D(sSrc)
        ts.copy(tiled_copy_load, tSgSrc, tSsSrc)

        ts.arch.cp_async_commit_group()  # submit this thread's queued copies
        ts.arch.cp_async_wait_group(0)  # wait until they are done
        self.cta_sync_barrier.arrive_and_wait()  # every thread of the block

        thr_copy_store = tiled_copy_store.get_slice(tidx)
        tSsStore = thr_copy_store.partition_S(sSrc)
        tSgDst = thr_copy_store.partition_D(blkDst)
        ts.copy(tiled_copy_store, tSsStore, tSgDst)


def main():
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=8192)
    args = parser.parse_args()
    src = torch.randn(args.size, args.size, device="cuda", dtype=torch.float16)
    dst = torch.empty_like(src)
    op = TensorCopyAsync()
    compiled = ts.compile(op, src, dst)
    compiled(src, dst)
    torch.testing.assert_close(dst, src)
    print(f"tile copy: correct ({compiled.program.compile_seconds:.3f} s to compile)")


if __name__ == "__main__":
    main()
