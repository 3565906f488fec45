"""The kernel language (python/tessera/lang, docs/python-kernels.md): kernels written in Python,
traced into C++ and compiled by NVRTC. Tracing and compiling need no GPU (TensorSpec stands for a
tensor; sm_90a); running the examples needs a GPU and PyTorch. Each part skips, saying why."""

import contextlib
import io
import os
import sys

import pytest
from conftest import torch_with_gpu

import tessera as ts
from tessera import TensorSpec, jit

ok, why = jit.available()
needs_nvrtc = pytest.mark.skipif(not ok, reason=f"NVRTC is not available: {why}")

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")
sys.path.insert(0, os.path.abspath(EXAMPLES))

import elementwise_add  # noqa: E402
import mma_gemm  # noqa: E402
import sgemm  # noqa: E402
import tile_copy  # noqa: E402


torch, no_gpu = torch_with_gpu()
needs_gpu = pytest.mark.skipif(torch is None or not ok, reason=no_gpu or f"NVRTC is not available: {why}")

F16 = TensorSpec((2048, 2048), ts.Float16)


def _compile(fn, *args, **kw):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        c = ts.compile(fn, *args, arch=90, **kw)
    return c, out.getvalue()


# ---- the published programs: what they print while traced, and their C++ -----------------------


@needs_nvrtc
def test_naive_add_reads_like_its_python():
    c, printed = _compile(elementwise_add.naive_elementwise_add, F16, F16, F16)
    assert "mA = tensor<gmem_ptr[16b] align<16> o (_2048,_2048):(_2048,_1)>" in printed
    src = c.source
    assert "#line" not in src
    for line in (
        "int tidx = int(threadIdx.x);",
        "int thread_idx = bidx * 256 + tidx;",  # block_dim is the launch's: compile-time
        "int ni = thread_idx % 2048;",
        "__half a_val = gA[mi * 2048 + ni];",  # the layout's arithmetic, worked out while tracing
        "gC[mi * 2048 + ni] = a_val + b_val;",
        "// gC[mi, ni] = a_val + b_val",
    ):
        assert line in src, line
    # A and B are only read: const pointers; C is written
    assert "__half const* gA, __half const* gB, __half* gC" in src
    assert c.kernels == ["naive_elementwise_add_kernel"]


@needs_nvrtc
def test_vectorized_add_prints_the_slices_alignment():
    c, printed = _compile(elementwise_add.vectorized_elementwise_add, F16, F16, F16)
    assert "gA = tensor<gmem_ptr[16b] align<16> o ((_1,_4),(_2048,_512)):((_0,_1),(_2048,_4))>" in printed
    # a vector of four halves starts at multiples of 8 bytes: 64-bit accesses
    assert "sliced gA = tensor<gmem_ptr[16b] align<8> o ((_1,_4)):((_0,_1))>" in printed
    assert "auto t0 = gA + (mi * 2048 + ni * 4);  // ((_1,_4)):((_0,_1))" in c.source
    assert "move_bytes<8>(a_val, t0);" in c.source


@needs_nvrtc
def test_thread_value_add_prints_what_the_library_computes():
    c, printed = _compile(elementwise_add.elementwise_add, F16, F16, F16)
    assert "Tiler: (_16,_256)" in printed
    assert "TV Layout: ((_32,_4),(_8,_4)):((_128,_4),(_16,_1))" in printed
    assert "gA: tensor<gmem_ptr[16b] align<16> o ((_16,_256),(_128,_8)):((_2048,_1),(_32768,_256))>" in printed
    assert "tidfrgA: tensor<gmem_ptr[16b] align<16> o ((_32,_4),(_8,_4)):((_8,_8192),(_1,_2048))>" in printed
    assert "thrA: tensor<gmem_ptr[16b] align<16> o ((_8,_4)):((_1,_2048))>" in printed
    # the same computation from the algebra directly
    thr = ts.make_layout((ts.S(4), ts.S(32)), (ts.S(32), ts.S(1)))
    val = ts.make_layout((ts.S(4), ts.S(8)), (ts.S(8), ts.S(1)))
    assert str(ts.make_layout_tv(thr, val)[1]) == "((_32,_4),(_8,_4)):((_128,_4),(_16,_1))"
    src = c.source
    # bidx indexes the (128,8) tiles column-major; tidx the TV layout's (32,4) threads
    assert "auto blkA = gA + (bidx % 128 * 32768 + bidx / 128 * 256);  // (_16,_256):(_2048,_1)" in src
    assert "auto tidfrgA = blkA;  // ((_32,_4),(_8,_4)):((_8,_8192),(_1,_2048))" in src
    assert "auto thrA = tidfrgA + (tidx % 32 * 8 + tidx / 32 * 8192);  // ((_8,_4)):((_1,_2048))" in src
    assert "move_bytes<16>(t0 + j * 8, thrA + j * 2048);" in src  # four 128-bit loads a thread
    assert "__launch_bounds__(128)" in c.source


@needs_nvrtc
def test_tile_copy_class_program():
    spec = TensorSpec((8192, 8192), ts.Float16)
    c, _ = _compile(tile_copy.TensorCopyAsync(), spec, spec)
    src = c.source
    assert c.kernels == ["TensorCopyAsync_kernel"]
    assert "__shared__ alignas(16) __half sSrc[4096];  // (_32,_128):(_128,_1)" in src
    assert "auto tSgSrc = blkSrc + (tidx % 16 * 8 + tidx / 16 * 8192);" in src
    assert "cp_async_bytes<16>(tSsSrc, tSgSrc);" in src  # the atom: one 128-bit cp.async a thread
    assert "cp_async_fence();" in src and "cp_async_wait<0>();" in src
    assert "named_barrier_sync(1, 512);" in src
    assert "move_bytes<16>(tSgDst, tSsStore);" in src


@needs_nvrtc
def test_tile_copy_refuses_a_shape_it_does_not_divide():
    spec = TensorSpec((8192, 8000), ts.Float16)
    with pytest.raises(ValueError, match="must be divisible by"):
        _compile(tile_copy.TensorCopyAsync(), spec, spec)


@needs_nvrtc
def test_sgemm_compiles_with_a_run_time_k_loop():
    spec = TensorSpec((256, 256), ts.Float32)
    c, _ = _compile(sgemm.sgemm_2d_blocktiling, spec, spec, spec, 0.5, 0.25)
    src = c.source
    assert "for (int k = 0; k < 32; ++k) {" in src
    # each of the BK steps (a Python loop, unrolled) is an outer product
    assert src.count("] += tmp_A[m") == sgemm.BK
    assert "auto gA_to_r = gA + ((tidx / 8 % 8) * 256 + (tidx % 8));  // (_8,_1,_32):(_2048,_0,_8)" in src
    # .load() is a value: the accumulators are copied out before the epilogue's arithmetic
    assert "move_bytes<16>(t18 + j_10 * 4, thread_results + j_10 * 4);" in src
    assert "t18[i % 8 * 8 + i / 8] * 0.5f" in src
    assert "move_bytes<16>(gC_to_w + 256, " in src  # rows of C stored 128 bits at a time


@needs_nvrtc
def test_mma_gemm_partitions_are_the_atoms_registers():
    a, b = TensorSpec((256, 128), ts.Float16), TensorSpec((256, 128), ts.Float16)
    c, _ = _compile(mma_gemm.mma_gemm, a, b, TensorSpec((256, 256), ts.Float32), False, False)  # plain copies
    src = c.source
    # m16n8k16: a lane holds A's row lane/4 at columns 2 (lane % 4) + {0, 1}, then row + 8, then
    # columns + 8; warps 0-1 split M (16 rows = 512 halves of sA), warps 2-3 N (stride 0 for A)
    assert "auto tCsA = sA + (tidx % 4 * 2 + tidx / 4 % 8 * 32 + tidx / 32 % 2 * 512);" in src
    assert "move_bytes<4>(tCrA + 2, tCsA + 256);" in src and "move_bytes<4>(tCrA + 4, tCsA + 8);" in src
    assert "auto tCsB = sB + (tidx % 4 * 2 + tidx / 4 % 8 * 32 + tidx / 64 * 256);" in src
    assert "SM80_16x8x16_F32F16F16F32_TN::fma(tCrC[(m + n * 4) * 4]" in src
    assert "cp_async_bytes<16>(tAsA + j * 1024, t0 + j * 4096);" in src


@needs_nvrtc
def test_swizzled_shared_memory_reads_through_the_swizzle():
    a, b = TensorSpec((256, 128), ts.Float16), TensorSpec((256, 128), ts.Float16)
    c, _ = _compile(mma_gemm.mma_gemm, a, b, TensorSpec((256, 256), ts.Float32))
    src = c.source
    assert "__shared__ alignas(16) __half sA[4096];  // Sw<2,3,3> o (_128,_32):(_32,_1)" in src
    # a view of swizzled memory is an origin before the swizzle; each access applies Sw<2,3,3>
    assert "int tCsA_at = tidx % 4 * 2 + tidx / 4 % 8 * 32 + tidx / 32 % 2 * 512;" in src
    assert "cp_async_bytes<16>(sA + ((tAsA_at + 1024) ^ ((tAsA_at + 1024) >> 3 & 24)), t0 + 4096);" in src
    assert "warning" not in c.program.log.lower(), c.program.log  # e.g. the unused partitions tCsA/tCsB
    # ldmatrix: lanes 0-15 name rows 0-15 of a 16 x 16 block, lanes 16-31 the same rows 8 columns on
    assert "int tXsA_at = tidx % 16 * 32 + tidx / 16 % 2 * 8 + tidx / 32 % 2 * 512;" in src
    assert ("SM75_U32x4_LDSM_N::copy(*reinterpret_cast<uint128_t const*>(sA + ((tXsA_at + 1024) ^ ((tXsA_at + 1024) "
            ">> 3 & 24))), ldsm_regs[4], ldsm_regs[5], ldsm_regs[6], ldsm_regs[7]);") in src


@ts.kernel
def _narrow_swizzle_kernel(gS, tiled):
    tidx, _, _ = ts.arch.thread_idx()
    smem = ts.SmemAllocator()
    s = smem.allocate_tensor(ts.Float16, ts.make_composed_layout(ts.make_swizzle(2, 2, 3), 0,
                                                                 ts.make_layout((8, 64), stride=(64, 1))))
    t = tiled.get_slice(tidx)
    ts.copy(tiled, t.partition_S(gS[(None, None), 0]), t.partition_D(s))


@ts.jit
def _narrow_swizzle(x):
    atom = ts.make_copy_atom(ts.nvgpu.cpasync.CopyG2SOp(), x.element_type, num_bits_per_copy=128)
    tiled = ts.make_tiled_copy_tv(atom, ts.make_layout((8, 8), stride=(8, 1)), ts.make_layout((1, 8)))
    _narrow_swizzle_kernel(ts.zipped_divide(x, (8, 64)), tiled).launch(grid=1, block=64)


@needs_nvrtc
def test_error_copy_atom_wider_than_the_swizzles_runs():
    with pytest.raises(ts.KernelError, match=r"swizzle Sw<2,2,3> keeps runs of 8 bytes contiguous"):
        _compile(_narrow_swizzle, TensorSpec((8, 64), ts.Float16))


@ts.jit
def _mma_wrong_types(a, b, c):
    op = ts.nvgpu.warp.MmaF16BF16Op(ts.Float16, ts.Float32, (16, 8, 16))
    _mma_wrong_kernel(a, b, c, ts.make_tiled_mma(op, (2, 2, 1))).launch(grid=1, block=128)


@ts.kernel
def _mma_wrong_kernel(gA, gB, gC, tiled_mma):
    tidx, _, _ = ts.arch.thread_idx()
    thr = tiled_mma.get_slice(tidx)
    rA = thr.make_fragment_A(thr.partition_A(gA))
    rB = thr.make_fragment_B(thr.partition_B(gB))
    rC = thr.make_fragment_C(thr.partition_C(gC))
    ts.gemm(tiled_mma, rC, rB, rB, rC)


@needs_nvrtc
def test_mma_gemm_refuses_fragments_of_the_wrong_role():
    with pytest.raises(ts.KernelError, match=r"the A fragment is \(V, rest, rest\) with 8 values"):
        _compile(_mma_wrong_types, TensorSpec((32, 16), ts.Float16), TensorSpec((16, 16), ts.Float16),
                 TensorSpec((32, 16), ts.Float32))
    with pytest.raises(ValueError, match="Float16 or BFloat16 inputs"):
        ts.nvgpu.warp.MmaF16BF16Op(ts.Float32, ts.Float32, (16, 8, 16))


# ---- run-time extents and strides (mark_dynamic) -------------------------------------------------------


@needs_nvrtc
def test_dynamic_extents_write_one_program_for_every_shape():
    import struct

    def comp(program, shape, dynamic):
        spec = TensorSpec(shape, ts.Float16, dynamic=dynamic)
        return _compile(program, spec, spec, spec)[0]

    a = comp(elementwise_add.naive_elementwise_add, (2048, 2048), (0, 1))
    b = comp(elementwise_add.naive_elementwise_add, (1024, 4096), (0, 1))
    assert a.source == b.source and a.program.key == b.program.key  # no new compile for b
    assert "int n = int(dyn.v[1]);" in a.source and "gC[mi * dyn.v[8] + ni] = a_val + b_val;" in a.source
    assert "2048" not in a.source.split("using namespace tessera;")[1].replace("__launch_bounds__", "")
    # the launch carries this trace's values: m, n, then each tensor's row stride
    extra = b._launches[0][5][0]
    values = struct.unpack(f"<{len(extra) // 8}q", extra)
    assert values[:3] == (1024, 4096, 4096)
    # the thread-value add: tiles of a run-time number of rows, still 128-bit moves
    c = comp(elementwise_add.elementwise_add, (2048, 2048), (0,))
    d = comp(elementwise_add.elementwise_add, (4096, 2048), (0,))
    assert c.source == d.source
    assert "move_bytes<16>(t0 + 8, thrA + dyn.v[12]);" in c.source


@ts.kernel
def _dynamic_smem(gX):
    smem = ts.SmemAllocator()
    smem.allocate_tensor(ts.Float32, gX.layout)


@needs_nvrtc
def test_dynamic_extent_where_a_static_one_is_needed():
    _expect_error(_dynamic_smem, "compile-time layout", TensorSpec((32, 8), ts.Float32, dynamic=(0,)),
                  line_text="smem.allocate_tensor(ts.Float32, gX.layout)")


def test_mark_dynamic_checks_its_modes():
    with pytest.raises(ValueError, match="mode 2 of a rank-2 tensor"):
        ts.mark_dynamic(TensorSpec((4, 4), ts.Float32), (2,))


# ---- the generated C++ run on the host (threads one after the other) ------------------------------------

import lang_host  # noqa: E402

host_ok, host_why = lang_host.available()
needs_host_cxx = pytest.mark.skipif(not (ok and host_ok), reason=host_why or f"NVRTC is not available: {why}")


def _floats(n, seed):
    import ctypes
    import random

    rng = random.Random(seed)
    return (ctypes.c_float * n)(*[float(rng.randint(-64, 64)) for _ in range(n)])


@needs_host_cxx
@pytest.mark.parametrize("name", ["naive", "vectorized", "tv"])
@pytest.mark.parametrize("dynamic", [(), (0,)])
def test_the_adds_compute_the_sum(name, dynamic):
    import ctypes

    m, n = 32, 512
    spec = TensorSpec((m, n), ts.Float32, dynamic=dynamic)
    c, _ = _compile(elementwise_add.PROGRAMS[name], spec, spec, spec)
    a, b, out = _floats(m * n, 1), _floats(m * n, 2), (ctypes.c_float * (m * n))()
    lang_host.run(c, a, b, out)
    assert list(out) == [x + y for x, y in zip(a, b)]  # every element, from the host run of the C++


@ts.kernel
def _big_smem(gX, gY, rows):
    tidx, _, _ = ts.arch.thread_idx()
    smem = ts.SmemAllocator()
    a = smem.allocate_tensor(ts.Float32, ts.make_layout((rows, 64), stride=(64, 1)), 16)
    b = smem.allocate_tensor(ts.Float32, ts.make_layout((8, 64), stride=(64, 1)), 128)
    for r in range(rows):
        a[r, tidx] = gX[r, tidx]
    ts.arch.sync_threads()
    for r in range(8):
        b[r, tidx] = a[r * (rows // 8), tidx] + a[rows - 1 - r, tidx]
    ts.arch.sync_threads()
    for r in range(8):
        gY[r, tidx] = b[r, tidx]


@ts.jit
def _big_smem_launch(x, y, rows):
    _big_smem(x, y, rows).launch(grid=1, block=64)


@needs_host_cxx
@pytest.mark.parametrize("rows", [64, 256])
def test_shared_memory_beyond_48_kib_is_dynamic(rows):
    import ctypes

    c, _ = _compile(_big_smem_launch, TensorSpec((rows, 64), ts.Float32), TensorSpec((8, 64), ts.Float32), rows)
    smem = rows * 64 * 4 + 8 * 64 * 4  # a, then b at the next multiple of 128 bytes (a's bytes are one)
    launch_smem = c._trace.launches[0][3]
    if rows == 64:  # 18 KiB: static arrays, nothing asked of the launch
        assert "__shared__ alignas(16) float a[4096];" in c.source and "extern __shared__" not in c.source
        assert launch_smem == 0
    else:  # 66 KiB: pointers into the dynamic shared memory, whose bytes the launch gives
        assert "extern __shared__ __align__(128) unsigned char tessera_smem[];" in c.source
        assert "float* a = reinterpret_cast<float*>(tessera_smem + 0);" in c.source
        assert f"float* b = reinterpret_cast<float*>(tessera_smem + {rows * 64 * 4});" in c.source
        assert launch_smem == smem
    x, y = _floats(rows * 64, 7), (ctypes.c_float * (8 * 64))()
    lang_host.run(c, x, y)
    want = [x[(r * (rows // 8)) * 64 + t] + x[(rows - 1 - r) * 64 + t] for r in range(8) for t in range(64)]
    assert list(y) == want


@needs_nvrtc
def test_shared_memory_past_a_blocks_limit_is_refused():
    _expect_error(_big_smem, r"shared memory of this kernel reaches \d+ bytes; a block has at most 232448",
                  TensorSpec((1024, 64), ts.Float32), TensorSpec((8, 64), ts.Float32), 1024,
                  line_text="a = smem.allocate_tensor")


@ts.kernel
def _relayout(gS, gD):
    tidx, _, _ = ts.arch.thread_idx()
    gD[(None, tidx)] = gS[(None, tidx)].load()


@ts.jit
def _relayout_launch(src, dst, src_layout, dst_layout):
    gS = ts.composition(src, src_layout)
    gD = ts.composition(dst, dst_layout)
    _relayout(gS, gD).launch(grid=1, block=ts.size(gS, mode=[1]))


@needs_host_cxx
def test_copies_between_random_layouts_move_every_value():
    # (values, threads) views of two buffers through random permutations of (4, 2, 8, 4)'s modes:
    # the copies' vector plans (any order, any width the layouts allow) must move each value to
    # the place the algebra says.
    import ctypes
    import itertools
    import random

    rng = random.Random(7)
    shape = (4, 2, 8, 4)
    orders = list(itertools.permutations(range(4)))
    for trial in range(6):
        views = []
        for _ in range(2):
            order = rng.choice(orders)
            stride, acc = [0] * 4, 1
            for mode in order:
                stride[mode], acc = acc, acc * shape[mode]
            views.append(ts.make_layout(((ts.S(4), ts.S(2), ts.S(8)), ts.S(4)),
                                        ((ts.S(stride[0]), ts.S(stride[1]), ts.S(stride[2])), ts.S(stride[3]))))
        spec = TensorSpec((256,), ts.Float32)
        c, _ = _compile(_relayout_launch, spec, spec, views[0], views[1])
        src, dst = _floats(256, trial), (ctypes.c_float * 256)()
        lang_host.run(c, src, dst)
        for i in range(256):
            assert dst[int(views[1](i))] == src[int(views[0](i))], (trial, i, views)


@needs_host_cxx
def test_the_sgemm_computes_the_product():
    # 64 host threads a block meeting at __syncthreads: the tiles in shared memory, the
    # partitions, the outer products and the epilogue, checked against the product in Python
    import ctypes

    m, n, k = 128, 64, 32
    A, B = _floats(m * k, 3), _floats(k * n, 4)
    C = _floats(m * n, 5)
    c0 = list(C)
    comp, _ = _compile(sgemm.sgemm_2d_blocktiling, TensorSpec((m, k), ts.Float32), TensorSpec((k, n), ts.Float32),
                       TensorSpec((m, n), ts.Float32), 0.5, 0.25)
    lang_host.run(comp, A, B, C)
    for i in range(m):
        for j in range(n):
            want = 0.5 * sum(A[i * k + p] * B[p * n + j] for p in range(k)) + 0.25 * c0[i * n + j]
            assert C[i * n + j] == pytest.approx(want, rel=1e-6, abs=1e-3), (i, j)
    assert ctypes.sizeof(C) == 4 * m * n


@needs_host_cxx
def test_the_tile_copy_moves_the_tiles():
    # cp.async as a plain move on the host (complete by the wait), the named barrier as the block's
    import ctypes

    m, n = 64, 256
    spec = TensorSpec((m, n), ts.Float16)
    comp, _ = _compile(tile_copy.TensorCopyAsync(), spec, spec)
    src = (ctypes.c_uint16 * (m * n))(*[(i * 7919) % 65536 for i in range(m * n)])
    dst = (ctypes.c_uint16 * (m * n))()
    lang_host.run(comp, src, dst)
    assert list(dst) == list(src)


@needs_host_cxx
@pytest.mark.parametrize("swizzle, ldmatrix, stages", [(True, True, 1), (True, False, 1), (False, True, 1),
                                                       (False, False, 1), (True, True, 2), (True, True, 3),
                                                       (False, False, 3), (True, True, 4)])
def test_the_mma_gemm_computes_the_product(swizzle, ldmatrix, stages):
    # mma.sync emulated on the host by the PTX ISA's m16n8k16 fragment layout, independently of
    # the lowering's partitions: small integers, so every product and sum is exact in fp32
    import ctypes
    import random
    import struct

    def half_bits(x):
        return struct.unpack("<H", struct.pack("<e", float(x)))[0]

    m, n, k = 128, 128, 64 if stages == 1 else 160  # pipelined: 5 steps, more than the stages
    rng = random.Random(11)
    a = [rng.randint(-3, 3) for _ in range(m * k)]
    b = [rng.randint(-3, 3) for _ in range(n * k)]
    comp, _ = _compile(mma_gemm.mma_gemm, TensorSpec((m, k), ts.Float16), TensorSpec((n, k), ts.Float16),
                       TensorSpec((m, n), ts.Float32), swizzle, ldmatrix, stages)
    if stages == 4:  # 64 KiB of shared memory: the dynamic kind
        assert "extern __shared__" in comp.source and comp._trace.launches[0][3] == 2 * 4 * 128 * 32 * 2
    A = (ctypes.c_uint16 * (m * k))(*[half_bits(x) for x in a])
    B = (ctypes.c_uint16 * (n * k))(*[half_bits(x) for x in b])
    C = (ctypes.c_float * (m * n))()
    lang_host.run(comp, A, B, C)
    for i in range(0, m, 7):
        for j in range(n):
            assert C[i * n + j] == sum(a[i * k + p] * b[j * k + p] for p in range(k)), (i, j)


# ---- the lowering: offsets, vectors ------------------------------------------------------------------


def test_offsets_are_the_librarys_crd2idx():
    from tessera.lang import _lower

    for text in ("((_32,_4),(_8,_4)):((_8,_8192),(_1,_2048))", "((_16,_256),(_128,_8)):((_2048,_1),(_32768,_256))",
                 "(_3,(_5,_2),_7):(_70,(_1,_35),_5)", "(_8,_1,_32):(_2048,_0,_8)"):
        layout = ts.parse(text)
        shape, stride = ts.shape(layout), ts.stride(layout)
        size = int(ts.size(layout))
        sd = _lower.leaves(shape, stride)
        expr = " + ".join(_lower.int_terms("c", sd)) or "0"
        for c in list(range(0, size, max(1, size // 97))) + [size - 1]:
            want = int(ts.crd2idx(ts.S(c), shape, stride))
            assert eval(expr.replace("/", "//"), {"c": c}) == want, (text, c)  # noqa: S307
            assert _lower.static_offset(c, sd) == want
        assert _lower.element_offsets(layout) == [int(layout(i)) for i in range(size)]


def test_vector_plan_takes_the_widest_contiguous_aligned_runs():
    from tessera.lang import _lower

    rows = _lower.element_offsets(ts.parse("((_8,_4)):((_1,_2048))"))
    frag = list(range(32))
    assert _lower.vector_plan(rows, frag, 2, 16) == 8  # halves: 16 bytes
    assert _lower.vector_plan(rows, frag, 2, 8) == 4  # a pointer known aligned to 8 bytes
    assert _lower.vector_plan([o + 1 for o in rows], frag, 2, 16) == 1  # odd start: no vector
    assert _lower.vector_plan(_lower.element_offsets(ts.parse("(_8):(_8)")), list(range(8)), 4, 16) == 1


# ---- loops, branches, names ------------------------------------------------------------------------


@ts.kernel
def _loops(gX, n):
    tidx, _, _ = ts.arch.thread_idx()
    acc = gX[tidx, 0]
    for j in ts.range(1, n):
        acc = acc + gX[tidx, j]
    with ts.if_(tidx < 4):
        gX[tidx, 0] = acc
    with ts.else_():
        gX[tidx, 0] = ts.Float32(0.0)


@ts.jit
def _loops_launch(x):
    _loops(x, 16).launch(grid=1, block=32)


@needs_nvrtc
def test_range_and_if_become_cxx_loops_and_branches():
    c, _ = _compile(_loops_launch, TensorSpec((32, 16), ts.Float32))
    src = c.source
    assert "for (int j = 1; j < 16; ++j) {" in src
    assert "if (tidx < 4) {" in src and "} else {" in src
    # acc is carried from one iteration to the next: the loop assigns the variable declared before it
    assert "float acc = gX[tidx * 16];" in src
    assert "    acc = acc + t0;" in src


@ts.kernel
def _aliases(gX):
    tidx, _, _ = ts.arch.thread_idx()
    a = gX[tidx, 0]
    b = a
    a = a * 2.0
    gX[tidx, 1] = b  # a's first value, as in Python
    x = gX[tidx, 2]
    y = gX[tidx, 3]
    x, y = y, x
    gX[tidx, 4] = x
    gX[tidx, 5] = y
    x = y
    y = y + 1.0
    gX[tidx, 6] = x  # y's value before y + 1


@ts.jit
def _aliases_launch(x):
    _aliases(x).launch(grid=1, block=32)


def _run_scalar_kernel(src, name, x):
    """Interprets the straight-line C++ of a scalar kernel (float locals, gX[...] loads and stores)
    for one thread, tidx = 0: what the generated code computes."""
    import re

    env = {"tidx": 0, "gX": x}
    body = src.split(name, 1)[1].split("{\n", 1)[1]
    for line in body.splitlines():
        line = line.strip()
        if not line or line.startswith("//") or line == "}":
            continue
        line = re.sub(r"^(float|int) ", "", line).rstrip(";").replace("int(threadIdx.x)", "0")
        line = re.sub(r"(\d+\.\d+)f", r"\1", line)
        exec(line, {}, env)  # noqa: S102 (C++ statements that are also Python)
    return x


@needs_nvrtc
def test_names_that_share_a_value_keep_pythons_values():
    c, _ = _compile(_aliases_launch, TensorSpec((32, 8), ts.Float32))
    x = _run_scalar_kernel(c.source, "_aliases(", [10.0, 0, 30.0, 40.0, 0, 0, 0, 0])
    assert x[1] == 10.0  # b = a; a = a * 2: b keeps 10
    assert (x[4], x[5]) == (40.0, 30.0)  # x, y = y, x swaps
    assert x[6] == 30.0  # x = y; y = y + 1: x keeps y's value
    # x = y is written by the swap and by the assignment, once each, not again at every later line
    assert [line.strip() for line in c.source.splitlines()].count("x = y;") == 2


@ts.kernel
def _retyped(gX):
    tidx, _, _ = ts.arch.thread_idx()
    acc = gX[tidx, 0]
    acc = tidx
    gX[tidx, 1] = ts.Float32(0.0)


@needs_nvrtc
def test_error_while_naming_points_at_the_assignment():
    _expect_error(_retyped, r"`acc` held a tessera.Float32 and is assigned a tessera.Int32",
                  TensorSpec((32, 8), ts.Float32), line_text="acc = tidx")


@ts.kernel
def _precedence(gX):
    tidx, _, _ = ts.arch.thread_idx()
    gX[tidx, 0] = ts.where(ts.where(tidx < 4, tidx > 8, tidx > 2), ts.Float32(1.0), ts.Float32(2.0))
    gX[tidx, 1] = -ts.Float32(-1.0)


@needs_nvrtc
def test_expressions_keep_pythons_grouping():
    c, _ = _compile(_precedence_launch, TensorSpec((32, 8), ts.Float32))
    # where's condition a where: parenthesized (c1 ? x : y ? a : b would take y ? a : b as the else)
    assert "gX[tidx * 8] = (tidx < 4 ? tidx > 8 : tidx > 2) ? 1.0f : 2.0f;" in c.source
    assert "gX[tidx * 8 + 1] = -(-1.0f);" in c.source  # not --1.0f, a decrement


@ts.jit
def _precedence_launch(x):
    _precedence(x).launch(grid=1, block=32)


@ts.kernel
def _one_line_loops(gX):
    tidx, _, _ = ts.arch.thread_idx()
    acc = gX[tidx, 0]
    for j in range(1, 4): acc = acc + gX[tidx, j]  # noqa: E701 (a loop on one line)
    b = acc
    for j in range(2):
        b = b * 2.0
    gX[tidx, 4] = acc
    gX[tidx, 5] = b


@ts.jit
def _one_line_loops_launch(x):
    _one_line_loops(x).launch(grid=1, block=32)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring is Python 3.12's; 3.11 has settrace only")
def test_monitoring_sees_the_lines_settrace_sees():
    # tests/python/trace_watch.py: the sys.monitoring watcher against settrace's line events (loops
    # on one line and more, nested watchers, an exception); CI runs it too (python.trace_watch)
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "TESSERA_TRACE_WITH_SETTRACE"}
    r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "trace_watch.py")],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


@needs_nvrtc
def test_one_line_loops_name_their_values():
    c, _ = _compile(_one_line_loops_launch, TensorSpec((32, 8), ts.Float32))
    x = _run_scalar_kernel(c.source, "_one_line_loops(", [1.0, 2.0, 3.0, 4.0, 0, 0, 0, 0])
    assert (x[4], x[5]) == (10.0, 40.0)
    if sys.version_info >= (3, 12):  # the same program through settrace
        os.environ["TESSERA_TRACE_WITH_SETTRACE"] = "1"
        try:
            c2, _ = _compile(_one_line_loops_launch, TensorSpec((32, 8), ts.Float32))
        finally:
            del os.environ["TESSERA_TRACE_WITH_SETTRACE"]
        assert c2.source == c.source
        for name in ("_loops_launch", "_aliases_launch", "_precedence_launch"):
            f = globals()[name]
            spec = TensorSpec((32, 16) if name == "_loops_launch" else (32, 8), ts.Float32)
            mon = _compile(f, spec)[0].source
            os.environ["TESSERA_TRACE_WITH_SETTRACE"] = "1"
            try:
                assert _compile(f, spec)[0].source == mon, name
            finally:
                del os.environ["TESSERA_TRACE_WITH_SETTRACE"]


# ---- errors point at the user's line -----------------------------------------------------------------


def _line_of(fn, text):
    import inspect

    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(text)


def _expect_error(kernel_fn, match, *specs, line_text=None):
    @ts.jit
    def launch(*xs):
        kernel_fn(*xs).launch(grid=1, block=32)

    with pytest.raises(ts.KernelError, match=match) as e:
        _compile(launch, *specs)
    if line_text is not None:
        assert e.value.lineno == _line_of(kernel_fn.fn, line_text)
        assert e.value.filename == __file__
        assert line_text in str(e.value)
    return e.value


@ts.kernel
def _bad_rank(gX):
    tidx, _, _ = ts.arch.thread_idx()
    gX[tidx, 0, 1] = ts.Float32(1.0)


@needs_nvrtc
def test_error_wrong_rank_names_the_line():
    _expect_error(_bad_rank, "rank-2 tensor indexed with 3 coordinates", TensorSpec((32, 8), ts.Float32),
                  line_text="gX[tidx, 0, 1] = ts.Float32(1.0)")


@ts.kernel
def _bad_store(gX, gY):
    tidx, _, _ = ts.arch.thread_idx()
    gY[tidx, None] = gX[tidx, None].load()


@needs_nvrtc
def test_error_float_fragment_into_half_tensor():
    _expect_error(_bad_store, r"a tessera.Float32 fragment stored into a tessera.Float16 tensor: convert it first",
                  TensorSpec((32, 8), ts.Float32), TensorSpec((32, 8), ts.Float16),
                  line_text="gY[tidx, None] = gX[tidx, None].load()")


@ts.kernel
def _dynamic_shape(gX):
    tidx, _, _ = ts.arch.thread_idx()
    smem = ts.SmemAllocator()
    smem.allocate_tensor(ts.Float32, ts.make_layout((tidx, 4)))


@needs_nvrtc
def test_error_run_time_value_where_a_static_one_is_needed():
    _expect_error(_dynamic_shape, "run-time value", TensorSpec((32, 8), ts.Float32),
                  line_text="smem.allocate_tensor(ts.Float32, ts.make_layout((tidx, 4)))")


@ts.kernel
def _python_if(gX):
    tidx, _, _ = ts.arch.thread_idx()
    if tidx < 4:
        gX[tidx, 0] = ts.Float32(1.0)


@needs_nvrtc
def test_error_python_if_on_a_run_time_value():
    _expect_error(_python_if, r"tessera.if_", TensorSpec((32, 8), ts.Float32), line_text="if tidx < 4:")


@ts.kernel
def _narrow_vector(gX, gY, tiled):
    pass


@ts.jit
def _wide_atom(x):
    atom = ts.make_copy_atom(ts.nvgpu.cpasync.CopyG2SOp(), x.element_type, num_bits_per_copy=128)
    ts.make_tiled_copy_tv(atom, ts.make_layout((8, 4), stride=(4, 1)), ts.make_layout((1, 4)))


@needs_nvrtc
def test_error_copy_atom_wider_than_the_values_a_thread_moves():
    with pytest.raises(ts.KernelError, match=r"make_tiled_copy_tv") as e:
        _compile(_wide_atom, TensorSpec((32, 32), ts.Float16))
    assert e.value.lineno == _line_of(_wide_atom.fn, "ts.make_tiled_copy_tv(atom")


@ts.kernel
def _misaligned_copy(gSrc, tiled):
    tidx, _, _ = ts.arch.thread_idx()
    smem = ts.SmemAllocator()
    s = smem.allocate_tensor(ts.Float16, ts.make_layout((8, 64), stride=(64, 1)))
    src = gSrc[(None, None), 0]
    t = tiled.get_slice(tidx)
    ts.copy(tiled, t.partition_S(src), t.partition_D(s))


@ts.jit
def _misaligned_launch(x):
    atom = ts.make_copy_atom(ts.nvgpu.cpasync.CopyG2SOp(), x.element_type, num_bits_per_copy=128)
    tiled = ts.make_tiled_copy_tv(atom, ts.make_layout((8, 8), stride=(8, 1)), ts.make_layout((1, 8)))
    g = ts.zipped_divide(x, (8, 64))
    _misaligned_copy(g, tiled).launch(grid=1, block=64)


@needs_nvrtc
def test_error_copy_wider_than_the_proven_alignment():
    # rows of 66 halves: a row starts on a 4-byte boundary only, so 128-bit cp.async cannot be proven
    with pytest.raises(ts.KernelError, match=r"128-bit copy needs 16-byte aligned addresses"):
        _compile(_misaligned_launch, TensorSpec((8, 64), ts.Float16, stride=(66, 1)))


@ts.kernel
def _transposed_copy(gSrc, tiled):
    tidx, _, _ = ts.arch.thread_idx()
    smem = ts.SmemAllocator()
    s = smem.allocate_tensor(ts.Float16, ts.make_layout((8, 64), stride=(1, 8)))  # column-major
    t = tiled.get_slice(tidx)
    ts.copy(tiled, t.partition_S(gSrc[(None, None), 0]), t.partition_D(s))


@ts.jit
def _transposed_launch(x):
    atom = ts.make_copy_atom(ts.nvgpu.cpasync.CopyG2SOp(), x.element_type, num_bits_per_copy=128)
    tiled = ts.make_tiled_copy_tv(atom, ts.make_layout((8, 8), stride=(8, 1)), ts.make_layout((1, 8)))
    _transposed_copy(ts.zipped_divide(x, (8, 64)), tiled).launch(grid=1, block=64)


@needs_nvrtc
def test_error_copy_atom_the_layout_cannot_vectorize():
    # eight halves a row of the source, but down a column of the column-major destination
    with pytest.raises(ts.KernelError, match=r"moves 8 contiguous values an instruction; values 0..7 of the "
                                             r"destination partition") as e:
        _compile(_transposed_launch, TensorSpec((8, 64), ts.Float16))
    assert e.value.lineno == _line_of(_transposed_copy.fn, "ts.copy(tiled, t.partition_S")


@ts.kernel
def _values_kernel(gX, gY):
    tidx, _, _ = ts.arch.thread_idx()
    r = gX[tidx, None].load()
    prev = r.load()  # a value: the fill below leaves it
    r.fill(ts.Float32(0.0))
    s = ts.Float32(2.0)
    e = prev * s  # a local holding an expression is a value too: the change of s below leaves it
    s = s + 1.0
    gY[tidx, None] = e


@ts.jit
def _values_launch(x, y):
    _values_kernel(x, y).launch(grid=1, block=32)


@needs_nvrtc
def test_loads_and_expressions_held_by_locals_are_values():
    spec = TensorSpec((32, 4), ts.Float32)
    src = _compile(_values_launch, spec, spec)[0].source
    body = src.split("// prev = r.load()")[1]
    # prev is a copy of r made before r's fill; e is computed before s changes
    assert body.index("move_bytes<16>(prev, r);") < body.index("r[i] = 0.0f")
    assert body.index("e[i_1] = prev[i_1] * (s);") < body.index("s = s + 1.0f;")


@ts.kernel
def _dead_value(gX):
    tidx, _, _ = ts.arch.thread_idx()
    for j in ts.range(4):
        late = gX[tidx, j]
    gX[tidx, 0] = late


@needs_nvrtc
def test_error_value_made_in_a_block_used_after_it():
    _expect_error(_dead_value, r"`late` was made inside a tessera.range loop", TensorSpec((32, 4), ts.Float32),
                  line_text="gX[tidx, 0] = late")


@ts.kernel
def _bad_algebra(gX):
    ts.composition(ts.make_layout((4, 3), stride=(3, 1)), ts.make_layout((2, 3), stride=(1, 2)))


@needs_nvrtc
def test_error_the_algebra_refuses_names_the_kernels_line():
    e = _expect_error(_bad_algebra, "is not divisible by 2", TensorSpec((32, 4), ts.Float32))
    assert e.lineno == _line_of(_bad_algebra.fn, "ts.composition(")


def test_kernel_outside_a_launch_function():
    with pytest.raises(ts.KernelError, match="outside a launch function"):
        elementwise_add.naive_elementwise_add_kernel(1, 2, 3)


def test_thread_idx_outside_a_kernel():
    with pytest.raises(ts.KernelError, match="inside a @tessera.kernel"):
        ts.arch.thread_idx()


def test_the_languages_names_leave_the_algebras_alone():
    assert not set(ts.lang.EXPORTS) & set(ts.FUNCTIONS)
    assert str(ts.select(ts.make_layout((2, 3, 5)), 0, 2)) == "(2,5):(_1,6)"


def test_algebra_keeps_its_dynamic_ints_outside_tracing():
    assert str(ts.make_layout((4, 32), (32, 1))) == "(4,32):(32,1)"
    with pytest.raises(TypeError):
        ts.make_layout((4, 32), stride=(32, 1))


class _Fake:
    """A stand-in tensor: the compiled function's argument check runs before any launch."""

    def __init__(self, shape, dtype="torch.float16", ptr=0):
        self.shape, self.dtype, self._ptr = shape, dtype, ptr

    def stride(self):
        return (self.shape[1], 1)

    def data_ptr(self):
        return self._ptr


@needs_nvrtc
def test_compiled_refuses_other_shapes_before_launching():
    c, _ = _compile(elementwise_add.naive_elementwise_add, F16, F16, F16)
    bad = _Fake((1024, 2048))
    with pytest.raises(TypeError, match="compiled for float16, \\(2048, 2048\\)"):
        c(bad, bad, bad)
    with pytest.raises(TypeError, match="compiled for 3 arguments"):
        c(bad)


@needs_nvrtc
def test_compiled_refuses_other_compile_time_arguments():
    spec = TensorSpec((256, 256), ts.Float32)
    c, _ = _compile(sgemm.sgemm_2d_blocktiling, spec, spec, spec, 0.5, 0.25)
    assert "* 0.5f" in c.source  # alpha is in the kernel, not an argument of it
    t = _Fake((256, 256), "torch.float32")
    with pytest.raises(TypeError, match="argument 3 is 1.0; it was compiled for the compile-time value 0.5"):
        c(t, t, t, 1.0, 0.25)


class _Scaled:
    """A class whose launch function is a method: its kernels depend on the instance."""

    def __init__(self, scale):
        self.scale = scale

    @ts.jit
    def __call__(self, x):
        _scaled_kernel(x, self.scale).launch(grid=1, block=32)


@ts.kernel
def _scaled_kernel(gX, scale):
    tidx, _, _ = ts.arch.thread_idx()
    gX[tidx, 0] = gX[tidx, 0] * scale


def _jit_key(obj, args):
    return type(obj).__call__.__get__(obj, type(obj))._key(args)


def test_jit_cache_does_not_give_an_instances_kernels_to_a_later_one():
    t = _Fake((32, 8), "torch.float32")
    taken = 0
    for _ in range(20):
        a = _Scaled(2.0)
        key_a, address = _jit_key(a, (t,)), id(a)
        assert _jit_key(a, (t,)) == key_a  # one instance: one key
        del a
        b = _Scaled(3.0)  # CPython often gives it a's freed address
        if id(b) == address:
            taken += 1
            assert _jit_key(b, (t,)) != key_a  # else calling b would run a's kernels (a's scale)
        del b
    assert taken


@needs_nvrtc
def test_jit_module_is_also_the_decorator():
    assert callable(ts.jit) and hasattr(ts.jit, "compile")
    f = ts.jit(lambda x: None)
    assert isinstance(f, ts.lang.JitFunction)


# ---- on the GPU ---------------------------------------------------------------------------------


@needs_gpu
@pytest.mark.parametrize("name", ["naive", "vectorized", "tv"])
def test_elementwise_add_on_the_gpu(name):
    a = torch.randn(512, 1024, device="cuda", dtype=torch.float16)
    b = torch.randn(512, 1024, device="cuda", dtype=torch.float16)
    c = torch.zeros_like(a)
    program = elementwise_add.PROGRAMS[name]
    program(a, b, c)  # compiled for these types on the first call
    torch.cuda.synchronize()
    torch.testing.assert_close(c, a + b)


@needs_gpu
def test_tile_copy_on_the_gpu():
    src = torch.randn(1024, 2048, device="cuda", dtype=torch.float16)
    dst = torch.empty_like(src)
    tile_copy.TensorCopyAsync()(src, dst)
    torch.cuda.synchronize()
    assert torch.equal(dst, src)


@needs_gpu
def test_sgemm_on_the_gpu():
    a = torch.randn(512, 256, device="cuda")
    b = torch.randn(256, 384, device="cuda")
    c = torch.randn(512, 384, device="cuda")
    expected = 0.5 * (a.double() @ b.double()) + 0.25 * c.double()
    sgemm.sgemm_2d_blocktiling(a, b, c, 0.5, 0.25)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), expected, rtol=1e-4, atol=1e-2)


@needs_gpu
def test_dynamic_extents_on_the_gpu():
    for m in (512, 1024):
        a = torch.randn(m, 256, device="cuda", dtype=torch.float16)
        b = torch.randn(m, 256, device="cuda", dtype=torch.float16)
        c = torch.zeros_like(a)
        da, db, dc = (ts.mark_dynamic(t, (0,)) for t in (a, b, c))
        elementwise_add.elementwise_add(da, db, dc)
        torch.cuda.synchronize()
        torch.testing.assert_close(c, a + b)


@needs_gpu
@pytest.mark.parametrize("stages", [1, 3, 4])  # 4: 64 KiB of dynamic shared memory
def test_mma_gemm_on_the_gpu(stages):
    a = torch.randn(256, 192, device="cuda", dtype=torch.float16)
    b = torch.randn(384, 192, device="cuda", dtype=torch.float16)
    c = torch.empty(256, 384, device="cuda", dtype=torch.float32)
    mma_gemm.mma_gemm(a, b, c, True, True, stages)
    torch.cuda.synchronize()
    torch.testing.assert_close(c, a.float() @ b.float().T, rtol=1e-3, atol=1e-2)


@needs_gpu
def test_loops_and_branches_on_the_gpu():
    x = torch.arange(32 * 16, device="cuda", dtype=torch.float32).reshape(32, 16)
    expected = x.clone()
    expected[:4, 0] = x[:4].sum(dim=1)
    expected[4:, 0] = 0
    _loops_launch(x)
    torch.cuda.synchronize()
    torch.testing.assert_close(x, expected)


@needs_nvrtc
def test_the_guides_first_example_runs_as_written():
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python-kernels.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    scope = {}
    exec(compile(block, "docs/python-kernels.md", "exec"), scope)  # noqa: S102 (the guide's own code)
    assert "add_kernel" in scope["compiled"].kernels
