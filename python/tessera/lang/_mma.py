"""Tensor-core MMA in the kernel language: ``MmaF16BF16Op`` (mma.sync m16n8k16, fp16 or bf16 inputs,
fp32 accumulators), ``make_tiled_mma(op, atom_layout_mnk)``, a thread's partitions
(``tiled_mma.get_slice(tidx).partition_A(sA)``, ``make_fragment_A``, ...) and
``gemm(tiled_mma, D, A, B, C)``, which writes one ``mma.sync`` a (m, n, k) block.

A thread's partition of a tile is computed in Python from the tiled MMA's thread-value layouts
(the algebra's layout_a_tv / layout_b_tv / layout_c_tv): the tile divided by the tiled MMA's tile,
composed with the TV layout and sliced at the thread: (V, RestM, RestK) for A, where V is the
atom's values in the order its registers take them."""

from .. import _tessera
from .._types import LayoutError, S
from ._trace import fail
from ._values import Tensor, Value, _dynamic_gcd, dtype_of, make_fragment, static

# (ab dtype, acc dtype, shape) -> (the library's atom, its name for the algebra)
_ATOMS = {
    ("f16", "f32", (16, 8, 16)): "SM80_16x8x16_F32F16F16F32_TN",
    ("bf16", "f32", (16, 8, 16)): "SM80_16x8x16_F32BF16BF16F32_TN",
}


class MmaF16BF16Op:
    """mma.sync of fp16 or bf16 inputs with fp32 accumulators, shape (16, 8, 16) (CuTeDSL's
    ``cute.nvgpu.warp.MmaF16BF16Op``): A is K-major (row), B is K-major (col)."""

    _tessera_lang = True

    def __init__(self, ab_dtype, acc_dtype, shape_mnk):
        self.ab, self.acc, self.shape = dtype_of(ab_dtype), dtype_of(acc_dtype), tuple(int(x) for x in shape_mnk)
        key = (self.ab.name, self.acc.name, self.shape)
        if key not in _ATOMS:
            raise ValueError(
                f"MmaF16BF16Op({self.ab}, {self.acc}, {self.shape}): the kernel language has mma.sync "
                "m16n8k16 with Float16 or BFloat16 inputs and Float32 accumulators"
            )
        self.name = _ATOMS[key]

    def __str__(self):
        return self.name


class TiledMma:
    """An MMA atom repeated over a layout of atoms (``make_tiled_mma(op, (2, 2, 1))``: 4 warps in
    2 x 2)."""

    _tessera_lang = True

    def __init__(self, op, atom_layout_mnk=(1, 1, 1)):
        self.op = op
        try:
            self.algebra = _tessera.call("make_tiled_mma", _tessera.atom(op.name),
                                         _tessera.call("make_layout", static(tuple(atom_layout_mnk))))
        except LayoutError as e:
            fail(f"make_tiled_mma({op}, {atom_layout_mnk}): {e}")
        self.tile = tuple(int(_tessera.call("tile_size", self.algebra, S(i))) for i in range(3))
        self.tv = {w: _tessera.call(f"layout_{w.lower()}_tv", self.algebra) for w in "ABC"}
        self.threads = int(_tessera.call("size", _tessera.call("get", self.tv["C"], S(0))))

    @property
    def size(self):
        return self.threads

    def get_slice(self, thr_idx):
        return ThrMma(self, thr_idx)

    get_thread_slice = get_slice

    def __str__(self):
        return str(self.algebra)


def make_tiled_mma(op, atom_layout_mnk=(1, 1, 1)):
    """``op`` repeated over ``atom_layout_mnk`` atoms (M, N, K)."""
    if not isinstance(op, MmaF16BF16Op):
        fail(f"make_tiled_mma takes an MMA op (tessera.nvgpu.warp.MmaF16BF16Op), not {type(op).__name__}")
    return TiledMma(op, atom_layout_mnk)


class ThrMma:
    """Thread ``thr_idx``'s part of a tiled MMA."""

    def __init__(self, tiled, thr_idx):
        if not isinstance(thr_idx, (Value, int)) or isinstance(thr_idx, bool):
            fail(f"get_slice takes a thread index, not {type(thr_idx).__name__}")
        self.tiled, self.thr_idx = tiled, thr_idx

    def _partition(self, t, which):
        from ._algebra import _view
        from ._lower import coord_offset

        if not isinstance(t, Tensor):
            fail(f"partition_{which} takes a tensor, not {type(t).__name__}")
        tm, tn, tk = self.tiled.tile
        tile = {"A": (tm, tk), "B": (tn, tk), "C": (tm, tn)}[which]
        shape = _tessera.call("shape", t.layout)
        if not isinstance(shape, tuple) or len(shape) < 2:
            fail(f"partition_{which} takes a tile of rank 2 or more ((rows, columns, ...)); got {t.layout}")
        for ext, til, what in zip(shape, tile, ("rows", "columns")):
            if int(_tessera.call("size", ext)) % til:
                fail(f"partition_{which}: the tile's {what} ({ext}) are not a multiple of the tiled MMA's {til}")
        try:
            z = _tessera.call("zipped_divide", t.layout, static(tile))
            frg = _tessera.call("composition", _tessera.call("get", z, S(0)), self.tiled.tv[which])
        except LayoutError as e:
            fail(f"partition_{which} of {t.layout}: {e}")
        fshape, fstride = _tessera.call("shape", frg), _tessera.call("stride", frg)
        st, terms = coord_offset(self.thr_idx, fshape[0], fstride[0])
        g = _dynamic_gcd(self.thr_idx, fshape[0], fstride[0]) if isinstance(self.thr_idx, Value) else 0
        # (V, rest of rows, rest of columns, the tile's further modes as they are: a pipeline's stages)
        rest = _tessera.call("get", z, S(1))
        modes = [_tessera.call("get", rest, S(i)) for i in range(len(shape))]
        layout = _tessera.call("make_layout", _tessera.call("get", frg, S(1)), *modes)
        return _view(t, layout, st, terms, g)

    def partition_A(self, t):  # noqa: N802 (CuTe's names)
        return self._partition(t, "A")

    def partition_B(self, t):  # noqa: N802
        return self._partition(t, "B")

    def partition_C(self, t):  # noqa: N802
        return self._partition(t, "C")

    def _fragment(self, t, which):
        if not isinstance(t, Tensor):
            fail(f"make_fragment_{which} takes a partition (partition_{which}'s result)")
        dtype = self.tiled.op.acc if which == "C" else self.tiled.op.ab
        return make_fragment(t.layout, dtype)

    def make_fragment_A(self, t):  # noqa: N802
        return self._fragment(t, "A")

    def make_fragment_B(self, t):  # noqa: N802
        return self._fragment(t, "B")

    def make_fragment_C(self, t):  # noqa: N802
        return self._fragment(t, "C")


def _compact(t, what, vals):
    from ._lower import element_offsets

    if t.space != "rmem":
        fail(f"gemm with a tiled MMA reads {what} from registers: copy the partition into make_fragment_{what[0]}")
    if element_offsets(t.layout) != list(range(int(_tessera.call("size", t.layout)))):
        fail(f"gemm: the {what} fragment must be compact (make_fragment_{what[0]}); got {t.layout}")
    shape = _tessera.call("shape", t.layout)
    if len(shape) != 3 or int(_tessera.call("size", shape[0])) != vals:
        fail(f"gemm: the {what} fragment is (V, rest, rest) with {vals} values V; got {t.layout}")
    return int(shape[1]), int(shape[2])


def emit_mma(b, tiled, d, a, bb, c):
    """D = A * B + C over fragments (V,M,K) x (V,N,K) => (V,M,N): one mma.sync a (m, n, k)."""
    op = tiled.op
    for x, dt, what in ((a, op.ab, "A"), (bb, op.ab, "B"), (c, op.acc, "C"), (d, op.acc, "D")):
        if not isinstance(x, Tensor):
            fail(f"gemm: {what} is a {type(x).__name__}, not a fragment")
        if x.dtype is not dt:
            fail(f"gemm with {op}: {what} holds {x.dtype}, the atom takes {dt}")
    m_a, k_a = _compact(a, "A", 8)
    n_b, k_b = _compact(bb, "B", 4)
    m_c, n_c = _compact(c, "C", 4)
    m_d, n_d = _compact(d, "D", 4)
    if k_a != k_b or (m_a, n_b) != (m_c, n_c) or (m_c, n_c) != (m_d, n_d):
        fail(f"gemm: A ({m_a},{k_a}), B ({n_b},{k_b}), C ({m_c},{n_c}) blocks do not agree")
    d.root.written = True
    ta, tb = b.var("tCrA_u32"), b.var("tCrB_u32")
    b.emit(f"std::uint32_t const* {ta.token} = reinterpret_cast<std::uint32_t const*>({a.var.token});")
    b.emit(f"std::uint32_t const* {tb.token} = reinterpret_cast<std::uint32_t const*>({bb.var.token});")
    k, m, n = b.var("k"), b.var("m"), b.var("n")
    b.emit("#pragma unroll")
    b.open(f"for (int {k.token} = 0; {k.token} < {k_a}; ++{k.token})", "gemm loop")
    b.emit("#pragma unroll")
    b.open(f"for (int {m.token} = 0; {m.token} < {m_a}; ++{m.token})", "gemm loop")
    b.emit("#pragma unroll")
    b.open(f"for (int {n.token} = 0; {n.token} < {n_b}; ++{n.token})", "gemm loop")
    ai = f"{ta.token} + ({m.token} + {k.token} * {m_a}) * 4"
    bi = f"{tb.token} + ({n.token} + {k.token} * {n_b}) * 2"
    ci = f"({m.token} + {n.token} * {m_c}) * 4"
    dv, cv = d.var.token, c.var.token
    ar, br = b.var("a_regs"), b.var("b_regs")
    b.emit(f"std::uint32_t const* {ar.token} = {ai};")
    b.emit(f"std::uint32_t const* {br.token} = {bi};")
    A, B = ar.token, br.token
    b.emit(f"{op.name}::fma({dv}[{ci}], {dv}[{ci} + 1], {dv}[{ci} + 2], {dv}[{ci} + 3], {A}[0], {A}[1], {A}[2], "
           f"{A}[3], {B}[0], {B}[1], {cv}[{ci}], {cv}[{ci} + 1], {cv}[{ci} + 2], {cv}[{ci} + 3]);")
    b.close()
    b.close()
    b.close()
    b.includes.add('#include "tessera/arch/mma_sm80.hpp"\n')


