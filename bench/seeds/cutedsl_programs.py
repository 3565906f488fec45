"""Tessera's benchmark of the seeds' programs: the four programs in CuTeDSL (nvidia-cutlass-dsl
4.8.1), as the documents this project started from write them, to run beside Tessera's run-time
compiled versions of the same programs.

The seed documents (000_*, 002_*: naive, vectorized and thread-value-layout elementwise add; 003_*:
the cp.async tile copy) write these programs; they are kept as written there, adapted only where
the 4.8.1 API asks for it:

- every host function takes a ``stream`` argument and launches on it (the seeds launch on the
  default stream); ``build`` passes PyTorch's current stream at each call, so ``run()`` is ordered
  with PyTorch's work and can be captured in a CUDA graph;
- the seeds' ``print`` lines (trace-time diagnostics) are left out, so compiling prints nothing.

The driver imports this module; ``AVAILABLE`` says whether CuTeDSL could be imported (``WHY`` says
why not), ``build`` compiles one program for the given PyTorch tensors.

    run, seconds = build("tv_add", [a, b, c])   # fp16, 2-D, row-major, on the GPU
    run()                                        # c = a + b, asynchronously

Shapes the programs need (they do no bounds checks, as in the seeds): ``naive_add``: M*N a multiple
of 256; ``vectorized_add``: N a multiple of 4 and M*N/4 of 256; ``tv_add``: M a multiple of 16 and
N of 256; ``tile_copy``: M a multiple of 32 and N of 128.
"""

import time

PROGRAMS = ("naive_add", "vectorized_add", "tv_add", "tile_copy")

try:
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.utils  # SmemAllocator, as the tile-copy seed spells it
    from cutlass import cute, pipeline
    from cutlass.cute.runtime import from_dlpack

    AVAILABLE = True
    WHY = ""
except Exception as e:  # noqa: BLE001  (any failure to import means "not available")
    AVAILABLE = False
    WHY = f"{type(e).__name__}: {e}"


def version() -> str:
    """The CuTeDSL version, or "" when it is not available."""
    if not AVAILABLE:
        return ""
    return str(getattr(cutlass, "__version__", "unknown"))


if AVAILABLE:
    # ---------------------------------------------------------------------------------------------
    # Seed 000/002, "Simple kernel": one thread per element, 256 threads per block.
    @cute.kernel
    def naive_elementwise_add_kernel(
        gA: cute.Tensor,
        gB: cute.Tensor,
        gC: cute.Tensor,
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        bdim, _, _ = cute.arch.block_dim()

        thread_idx = bidx * bdim + tidx

        # Map thread index to logical index of input tensor
        _m, n = gA.shape
        ni = thread_idx % n
        mi = thread_idx // n

        # Map logical index to physical address via tensor layout
        a_val = gA[mi, ni]
        b_val = gB[mi, ni]

        # Perform element-wise addition
        gC[mi, ni] = a_val + b_val

    @cute.jit
    def naive_elementwise_add(
        mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, stream: cuda.CUstream
    ):
        num_threads_per_block = 256

        m, n = mA.shape
        kernel = naive_elementwise_add_kernel(mA, mB, mC)
        kernel.launch(
            grid=((m * n) // num_threads_per_block, 1, 1),
            block=(num_threads_per_block, 1, 1),
            stream=stream,
        )

    # ---------------------------------------------------------------------------------------------
    # Seed 000/002, "Vectorised kernel": zipped_divide by (1, 4), one 4-element vector per thread.
    @cute.kernel
    def vectorized_elementwise_add_kernel(
        gA: cute.Tensor,
        gB: cute.Tensor,
        gC: cute.Tensor,
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        bdim, _, _ = cute.arch.block_dim()

        thread_idx = bidx * bdim + tidx

        # Map thread index to logical index of input tensor
        _m, n = gA.shape[1]  # thread-domain
        ni = thread_idx % n
        mi = thread_idx // n

        # Map logical index to physical address via tensor layout
        a_val = gA[(None, (mi, ni))].load()
        b_val = gB[(None, (mi, ni))].load()

        # Perform element-wise addition
        gC[(None, (mi, ni))] = a_val + b_val

    @cute.jit
    def vectorized_elementwise_add(
        mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, stream: cuda.CUstream
    ):
        threads_per_block = 256

        gA = cute.zipped_divide(mA, (1, 4))
        gB = cute.zipped_divide(mB, (1, 4))
        gC = cute.zipped_divide(mC, (1, 4))

        vectorized_elementwise_add_kernel(gA, gB, gC).launch(
            grid=(cute.size(gC, mode=[1]) // threads_per_block, 1, 1),
            block=(threads_per_block, 1, 1),
            stream=stream,
        )

    # ---------------------------------------------------------------------------------------------
    # Seed 000/002, "Use thread value layout": thr (4,32):(32,1), val (4,8):(8,1), tile (16,256).
    @cute.kernel
    def elementwise_add_kernel(
        gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, tv_layout: cute.Layout
    ):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()

        # slice for thread-block level view
        blk_coord = ((None, None), bidx)

        # logical coord -> address
        blkA = gA[blk_coord]  # (TileM, TileN) -> physical address
        blkB = gB[blk_coord]  # (TileM, TileN) -> physical address
        blkC = gC[blk_coord]  # (TileM, TileN) -> physical address

        # compose for thread-index & value-index to physical mapping
        # tidfrgA = blkA o tv_layout: (tid, vid) -> physical address
        tidfrgA = cute.composition(blkA, tv_layout)
        tidfrgB = cute.composition(blkB, tv_layout)
        tidfrgC = cute.composition(blkC, tv_layout)

        # slice for thread-level view; `None` represent slice of the entire per-thread data
        thr_coord = (tidx, None)

        # slice for threads: vid -> address
        thrA = tidfrgA[thr_coord]  # (V) -> physical address
        thrB = tidfrgB[thr_coord]  # (V) -> physical address
        thrC = tidfrgC[thr_coord]  # (V) -> physical address

        thrC[None] = thrA.load() + thrB.load()

    @cute.jit
    def elementwise_add(
        mA: cute.Tensor,
        mB: cute.Tensor,
        mC: cute.Tensor,
        stream: cuda.CUstream,
    ):
        # mA layout: (M, N):(N, 1)
        # TV layout map thread & value index to (16, 256) logical tile
        #  - contiguous thread index maps to mode-1 because input layout is contiguous on
        #     mode-1 for coalesced load-store
        #  - each thread load 8 contiguous element each row and load 4 rows
        thr_layout = cute.make_layout((4, 32), stride=(32, 1))
        val_layout = cute.make_layout((4, 8), stride=(8, 1))
        tiler_mn, tv_layout = cute.make_layout_tv(thr_layout, val_layout)

        gA = cute.zipped_divide(mA, tiler_mn)  # ((TileM, TileN), (RestM, RestN))
        gB = cute.zipped_divide(mB, tiler_mn)  # ((TileM, TileN), (RestM, RestN))
        gC = cute.zipped_divide(mC, tiler_mn)  # ((TileM, TileN), (RestM, RestN))

        # Launch the kernel asynchronously
        elementwise_add_kernel(gA, gB, gC, tv_layout).launch(
            grid=[cute.size(gC, mode=[1]), 1, 1],
            block=[cute.size(tv_layout, mode=[0]), 1, 1],
            stream=stream,
        )

    # ---------------------------------------------------------------------------------------------
    # Seed 003, TensorCopyAsync: GMEM -> SMEM by cp.async (128-bit), then SMEM -> GMEM.
    class TensorCopyAsync:
        def __init__(self, tile_m: int = 32, num_threads: int = 512):
            if num_threads % tile_m != 0:
                raise ValueError("num_threads must be divisible by tile_m")
            self._tile_m = tile_m
            self._num_threads = num_threads
            self.cta_sync_barrier = pipeline.NamedBarrier(
                barrier_id=1, num_threads=num_threads
            )

        @cute.jit
        def __call__(self, mSrc: cute.Tensor, mDst: cute.Tensor, stream: cuda.CUstream):
            copy_bits = 128
            vector_elems = copy_bits // mSrc.element_type.width
            threads_per_row = self._num_threads // self._tile_m
            tile_n = threads_per_row * vector_elems
            if cutlass.const_expr(
                mSrc.shape[0] % self._tile_m != 0 or mSrc.shape[1] % tile_n != 0
            ):
                raise ValueError(
                    f"mSrc/mDst shape must be divisible by ({self._tile_m}, {tile_n})"
                )

            atom_async_copy = cute.make_copy_atom(
                cute.nvgpu.cpasync.CopyG2SOp(),  # Asynchronous GMEM -> SMEM copy operation
                mSrc.element_type,
                num_bits_per_copy=copy_bits,
            )
            atom_store = cute.make_copy_atom(
                cute.nvgpu.CopyUniversalOp(),  # General-purpose copy operation
                mDst.element_type,
                num_bits_per_copy=copy_bits,
            )

            thr_layout = cute.make_layout(
                (self._tile_m, threads_per_row), stride=(threads_per_row, 1)
            )
            val_layout = cute.make_layout((1, vector_elems))
            tiled_copy_load = cute.make_tiled_copy_tv(
                atom_async_copy, thr_layout, val_layout
            )
            tiled_copy_store = cute.make_tiled_copy_tv(atom_store, thr_layout, val_layout)

            sSrc_layout = cute.make_layout((self._tile_m, tile_n), stride=(tile_n, 1))
            gSrc = cute.zipped_divide(mSrc, (self._tile_m, tile_n))
            gDst = cute.zipped_divide(mDst, (self._tile_m, tile_n))

            tiles_mn = cute.ceil_div(mSrc.shape, (self._tile_m, tile_n))
            self.kernel(
                gSrc,
                gDst,
                sSrc_layout,
                tiled_copy_load,
                tiled_copy_store,
            ).launch(
                grid=[tiles_mn[1], tiles_mn[0], 1],
                block=[self._num_threads, 1, 1],
                stream=stream,
            )

        @cute.kernel
        def kernel(
            self,
            gSrc: cute.Tensor,
            gDst: cute.Tensor,
            sSrc_layout: cute.Layout,
            tiled_copy_load: cute.TiledCopy,
            tiled_copy_store: cute.TiledCopy,
        ):
            tidx, _, _ = cute.arch.thread_idx()
            bidx, bidy, _ = cute.arch.block_idx()

            blkSrc = gSrc[((None, None), (bidy, bidx))]
            blkDst = gDst[((None, None), (bidy, bidx))]

            smem = cutlass.utils.SmemAllocator()
            sSrc = smem.allocate_tensor(gSrc.element_type, sSrc_layout, 16)

            thr_copy_load = tiled_copy_load.get_slice(tidx)
            tSgSrc = thr_copy_load.partition_S(blkSrc)
            tSsSrc = thr_copy_load.partition_D(sSrc)
            cute.copy(tiled_copy_load, tSgSrc, tSsSrc)

            cute.arch.cp_async_commit_group()  # Submit this thread's queued operations
            cute.arch.cp_async_wait_group(0)  # Wait until this thread's operations are done
            self.cta_sync_barrier.arrive_and_wait()  # Sync between all threads in the thread block

            thr_copy_store = tiled_copy_store.get_slice(tidx)
            tSsStore = thr_copy_store.partition_S(sSrc)
            tSgDst = thr_copy_store.partition_D(blkDst)
            cute.copy(tiled_copy_store, tSsStore, tSgDst)


if AVAILABLE:
    # ---------------------------------------------------------------------------------------------
    # The 2-D block-tiling SGEMM (docs/background.md, "SGEMM"; in C++ examples/sgemm/v1_blocktile.cuh),
    # written for this benchmark in CuTeDSL the way examples/python/sgemm.py writes it in Tessera's
    # language: the same tiles (BM = BN = 64, BK = 8, TM = TN = 8, 64 threads), the same
    # partitions, a run-time loop over K's tiles and an unrolled one over the tile's BK columns,
    # outer products in registers.
    SG_BM, SG_BN, SG_BK, SG_TM, SG_TN = 64, 64, 8, 8, 8
    SG_ALPHA, SG_BETA = 1.0, 0.0  # C = alpha A B + beta C, as bench/seeds/sgemm_lang.py runs it

    @cute.kernel
    def sgemm_2d_blocktiling_kernel(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, bidy, _ = cute.arch.block_idx()
        gA = cute.local_tile(mA, (SG_BM, SG_BK), (bidy, None))  # (BM, BK, k)
        gB = cute.local_tile(mB, (SG_BK, SG_BN), (None, bidx))  # (BK, BN, k)
        gC = cute.local_tile(mC, (SG_BM, SG_BN), (bidy, bidx))  # (BM, BN)
        smem = cutlass.utils.SmemAllocator()
        sA = smem.allocate_tensor(cutlass.Float32, cute.make_layout((SG_BM, SG_BK), stride=(SG_BK, 1)), 16)
        sB = smem.allocate_tensor(cutlass.Float32, cute.make_layout((SG_BK, SG_BN), stride=(SG_BN, 1)), 16)
        a_thr = cute.make_layout((8, 8), stride=(8, 1))
        b_thr = cute.make_layout((1, 64), stride=(64, 1))
        gA_to_r = cute.local_partition(gA, a_thr, tidx)
        sA_to_w = cute.local_partition(sA, a_thr, tidx)
        gB_to_r = cute.local_partition(gB, b_thr, tidx)
        sB_to_w = cute.local_partition(sB, b_thr, tidx)
        row = tidx // (SG_BN // SG_TN)
        col = tidx % (SG_BN // SG_TN)
        sA_to_r = cute.local_tile(sA, (SG_TM, 1), (row, None))  # (TM, 1, BK)
        sB_to_r = cute.local_tile(sB, (1, SG_TN), (None, col))  # (1, TN, BK)
        gC_to_w = cute.local_tile(gC, (SG_TM, SG_TN), (row, col))  # (TM, TN)
        acc = cute.make_rmem_tensor_like(gC_to_w)
        acc.fill(0.0)
        tmp_a = cute.make_rmem_tensor((SG_TM,), cutlass.Float32)
        tmp_b = cute.make_rmem_tensor((SG_TN,), cutlass.Float32)
        for k in range(cute.size(gA, mode=[2])):
            cute.autovec_copy(gA_to_r[None, None, k], sA_to_w)
            cute.autovec_copy(gB_to_r[None, None, k], sB_to_w)
            cute.arch.sync_threads()
            for d in cutlass.range_constexpr(SG_BK):
                cute.autovec_copy(sA_to_r[None, 0, d], tmp_a)
                cute.autovec_copy(sB_to_r[0, None, d], tmp_b)
                for m in cutlass.range_constexpr(SG_TM):
                    for n in cutlass.range_constexpr(SG_TN):
                        acc[m, n] = acc[m, n] + tmp_a[m] * tmp_b[n]
            cute.arch.sync_threads()
        gC_to_w.store(SG_ALPHA * acc.load() + SG_BETA * gC_to_w.load())

    @cute.jit
    def sgemm_2d_blocktiling(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, stream: cuda.CUstream):
        M, K = mA.shape
        N = mB.shape[1]
        sgemm_2d_blocktiling_kernel(mA, mB, mC).launch(
            grid=(N // SG_BN, M // SG_BM, 1), block=((SG_BM * SG_BN) // (SG_TM * SG_TN), 1, 1), stream=stream
        )


def _host_function(program: str):
    if program == "naive_add":
        return naive_elementwise_add
    if program == "vectorized_add":
        return vectorized_elementwise_add
    if program == "tv_add":
        return elementwise_add
    if program == "tile_copy":
        return TensorCopyAsync(tile_m=32, num_threads=512)
    if program == "sgemm":
        return sgemm_2d_blocktiling
    raise ValueError(f"unknown program {program!r}; expected one of {PROGRAMS}")


def build(program: str, tensors: list) -> tuple:
    """Compile ``program`` for ``tensors`` and return ``(run, compile_seconds)``.

    ``tensors``: PyTorch CUDA tensors, fp16, 2-D, row-major and contiguous, of one shape (M, N):
    ``[a, b, c]`` for the adds (c = a + b), ``[src, dst]`` for ``tile_copy`` (dst = src). They are
    converted with ``from_dlpack(t, assumed_align=16)`` (static layouts, as in the seeds) and the
    program is compiled for them with ``cute.compile``; ``compile_seconds`` is its wall time.
    ``run()`` launches the compiled program once on those tensors, asynchronously, on PyTorch's
    current stream at the time of the call (so it can be recorded in a CUDA graph).
    """
    if not AVAILABLE:
        raise RuntimeError(f"CuTeDSL is not available: {WHY}")
    import torch

    want = 2 if program == "tile_copy" else 3
    if len(tensors) != want:
        raise ValueError(f"{program} takes {want} tensors, got {len(tensors)}")
    shape = tuple(tensors[0].shape)
    dtype = torch.float32 if program == "sgemm" else torch.float16
    for t in tensors:
        if (
            t.dtype != dtype
            or t.dim() != 2
            or tuple(t.shape) != shape
            or not t.is_cuda
            or not t.is_contiguous()
            or t.data_ptr() % 16 != 0
        ):
            raise ValueError(
                f"{program}: tensors must be {dtype}, 2-D, contiguous, 16-byte aligned CUDA tensors "
                f"of one shape; got {t.dtype}, {tuple(t.shape)}, {t.device}"
            )

    fn = _host_function(program)
    args = [from_dlpack(t, assumed_align=16) for t in tensors]

    streams = {}

    def current_stream():
        handle = torch.cuda.current_stream().cuda_stream
        s = streams.get(handle)
        if s is None:
            s = streams[handle] = cuda.CUstream(handle)
        return s

    start = time.perf_counter()
    compiled = cute.compile(fn, *args, current_stream())
    compile_seconds = time.perf_counter() - start

    def run():
        compiled(*args, current_stream())

    return run, compile_seconds
