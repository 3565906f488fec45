"""The layout algebra's functions (``tessera.zipped_divide``, ``tessera.composition``, ...) while a
kernel or launch function is traced: Python ints are compile-time (static) values, tensors are
divided and composed by their layouts (in a kernel, as C++ on the tensor), and the keyword forms
CuTeDSL's programs use (``size(t, mode=[1])``, ``make_layout(shape, stride=...)``) work."""

import math

from .. import _tessera
from .._types import LayoutError, S
from ._trace import fail
from ._values import Tensor, Value, _dynamic_gcd, _zero, has_dynamic, kernel_ints, static

# Functions whose result is a tensor when their first argument is one (the same pointer: no offset).
_TENSOR_VIEWS = {"composition", "zipped_divide", "logical_divide", "tiled_divide", "flat_divide", "flatten",
                 "coalesce", "group_modes", "logical_product", "zipped_product", "tiled_product", "flat_product",
                 "blocked_product", "raked_product"}
# Functions of a tensor's layout whose result is a compile-time value.
_QUERIES = {"size", "shape", "stride", "rank", "depth", "cosize", "layout"}


def _mode(x, mode):
    for m in mode:
        x = _tessera.call("get", x, S(int(m)))
    return x


def call(name, args, kwargs):
    if name == "make_tiled_mma" and args and getattr(args[0], "_tessera_lang", False):
        from ._mma import make_tiled_mma

        return make_tiled_mma(*args, **kwargs)
    if name in ("make_tiled_copy_A", "make_tiled_copy_B") and args and getattr(args[0], "_tessera_lang", False):
        from ._api import make_tiled_copy_operand

        return make_tiled_copy_operand(name[-1], *args, **kwargs)
    if kwargs:
        args = list(args)
        if name == "make_layout" and "stride" in kwargs:
            args.append(kwargs.pop("stride"))
        mode = kwargs.pop("mode", None)
        if kwargs:
            fail(f"tessera.{name}: unknown keyword argument(s) {', '.join(kwargs)}")
        if mode is not None:
            if name not in _QUERIES:
                fail(f"tessera.{name}(..., mode=...): mode= is for size, shape, stride, rank, depth, cosize")
            x = args[0].layout if isinstance(args[0], Tensor) else static(args[0])
            return call(name, (_mode(x, mode),) + tuple(args[1:]), {})
    if args and isinstance(args[0], Tensor):
        t = args[0]
        if name in _QUERIES:
            r = _algebra(name, (t.layout,) + tuple(args[1:]))
            return kernel_ints(r) if t.var is not None and name != "layout" else r
        if name in _TENSOR_VIEWS:
            layout = _algebra(name, (t.layout,) + tuple(args[1:]))
            return _view(t, layout)
        fail(f"tessera.{name} of a tensor: the kernel language applies it to layouts (tensor.layout) only")
    for a in args:
        if isinstance(a, Tensor):
            fail(f"tessera.{name}: a tensor where a layout or int tuple is expected (use its .layout)")
        if has_dynamic(a):
            fail(f"tessera.{name} of a run-time value: the layout algebra runs while tracing, on compile-time values")
    return _algebra(name, args)


def _algebra(name, args):
    try:
        return _tessera.call(name, *(static(a) for a in args))
    except LayoutError as e:
        fail(f"tessera.{name}: {e}")


def _view(t, layout, off=0, terms=(), g=0):
    """The tensor ``t`` viewed through ``layout`` at an offset of ``off`` elements plus the run-time
    ``terms`` (multiples of ``g`` elements): Tensor.make_view."""
    return t.make_view(layout, off, terms, g)


def _project(x, proj):
    if proj is None:
        return x
    if len(proj) != len(x):
        fail(f"proj {proj} has {len(proj)} modes for {len(x)}")
    return tuple(e for e, p in zip(x, proj) if p is not None)


def local_tile(t, tiler, coord, proj=None):
    """Tile ``coord`` of tensor ``t`` divided by ``tiler`` (CuTe's local_tile): a None in ``coord``
    keeps that mode of tiles (``local_tile(mA, (BM, BK), (bidy, None))``: (BM, BK, k)); ``proj``
    (e.g. ``(1, None, 1)``) keeps the modes of tiler and coord where it is not None."""
    if not isinstance(t, Tensor):
        fail("local_tile takes a tensor")
    if not isinstance(tiler, (tuple, list)):
        tiler = (tiler,)
    tiler_p = static(_project(tuple(tiler), proj))
    coord_t = tuple(coord) if isinstance(coord, (tuple, list)) else (coord,)
    coord_p = _project(coord_t, proj)
    if len(coord_p) != len(tiler_p):
        fail(f"local_tile: a coordinate of {len(coord_p)} modes for a tiler of {len(tiler_p)}")
    z = _algebra("zipped_divide", (t.layout, tiler_p))
    shape, stride = _tessera.call("shape", z), _tessera.call("stride", z)
    from .._types import underscore

    rest = coord_p if len(coord_p) > 1 or isinstance(shape[1], tuple) else coord_p[0]
    tile_all = tuple(underscore for _ in shape[0]) if isinstance(shape[0], tuple) else underscore
    czero = _zero(rest)
    layout = _tessera.call("slice", (tile_all, czero), z)
    from ._lower import coord_offset

    off, terms = coord_offset(rest, shape[1], stride[1])
    g = _dynamic_gcd(rest, shape[1], stride[1])
    return _view(t, layout, off, terms, g)


def local_partition(t, thr_layout, index, proj=None):
    """Thread ``index``'s part of tensor ``t`` when ``thr_layout``'s threads tile it (CuTe's
    local_partition): ``t`` divided by thr_layout's shape, at the thread's coordinate."""
    if not isinstance(t, Tensor):
        fail("local_partition takes a tensor")
    if proj is not None:
        fail("local_partition(..., proj=...) is not in the kernel language yet: partition the projected tensor")
    if isinstance(thr_layout, (tuple, int)):
        thr_layout = _tessera.call("make_layout", static(thr_layout))
    tshape = _tessera.call("shape", thr_layout)
    tshape_p = static(_project(tuple(tshape) if isinstance(tshape, tuple) else (tshape,), proj))
    z = _algebra("zipped_divide", (t.layout, tshape_p))
    shape, stride = _tessera.call("shape", z), _tessera.call("stride", z)
    from .._types import underscore

    rest = tuple(underscore for _ in shape[1]) if isinstance(shape[1], tuple) else underscore
    layout = _tessera.call("slice", (S(0) if not isinstance(shape[0], tuple) else tuple(S(0) for _ in shape[0]), rest), z)
    off, terms, g = _thread_offset(thr_layout, index, shape[0], stride[0])
    return _view(t, layout, off, terms, g)


def _thread_offset(thr, index, shape, stride):
    """The offset of thread ``index``'s element of the tile (shape, stride): the thread's
    coordinate is the one thr maps to ``index`` (thr: a compact layout of single-int modes)."""
    from ._lower import leaves

    tsh, tst = _tessera.call("shape", thr), _tessera.call("stride", thr)
    tsh = tsh if isinstance(tsh, tuple) else (tsh,)
    tst = tst if isinstance(tst, tuple) else (tst,)
    shape = shape if isinstance(shape, tuple) else (shape,)
    stride = stride if isinstance(stride, tuple) else (stride,)
    if any(isinstance(x, tuple) for x in tsh) or len(tsh) != len(shape):
        fail(f"local_partition by {thr}: the thread layout's modes must be single ints, one per mode of the tile")
    pairs = sorted((int(d), int(s_)) for s_, d in zip(tsh, tst) if int(s_) != 1)
    p = 1
    for d, s_ in pairs:
        if d != p:
            fail(f"local_partition by {thr}: the thread layout must be compact (every index one thread)")
        p *= s_
    off, terms, g = 0, [], 0
    for s_, d, sh, st in zip(tsh, tst, shape, stride):
        s_, d = int(s_), int(d)
        if s_ == 1:
            continue
        sd = leaves(sh, st)
        if isinstance(index, Value):
            c = index.expr if index.prec == 0 else f"({index.expr})"
            crd = c if d == 1 else f"{c} / {d}"
            crd = f"{crd} % {s_}"  # threads beyond the layout's wrap, as idx2crd's do
            from ._lower import int_terms

            terms += int_terms(crd if crd == c else f"({crd})", sd)
            for ls, ld in sd:
                if ls != 1:
                    g = math.gcd(g, ld)
        else:
            from ._lower import static_offset

            off += static_offset((int(index) // d) % s_, sd)
    return off, terms, g
