"""The layout algebra's functions (``tessera.zipped_divide``, ``tessera.composition``, ...) while a
kernel or launch function is traced: Python ints are compile-time (static) values, tensors are
divided and composed by their layouts (in a kernel, as C++ on the tensor), and the keyword forms
CuTeDSL's programs use (``size(t, mode=[1])``, ``make_layout(shape, stride=...)``) work."""

from .. import _tessera
from .._types import LayoutError, S
from . import _trace
from ._trace import fail
from ._values import Tensor, Value, _dynamic_gcd, _zero, _zero_slices, has_dynamic, pow2_divisor, spell, spell_shape, static

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
            return _algebra(name, (t.layout,) + tuple(args[1:]))
        if name in _TENSOR_VIEWS:
            layout = _algebra(name, (t.layout,) + tuple(args[1:]))
            return _view(t, name, layout, args[1:], 0, 0)
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


def _view(t, cxx_name, layout, extra, off, g, cxx_args=None):
    """The tensor ``t`` viewed through ``layout`` (static offset ``off``, run-time offsets multiples
    of ``g`` elements); in a kernel, the C++ ``cxx_name(t, extra...)``."""
    a = t.align
    if off:
        a = min(a, pow2_divisor(off * t.dtype.bytes))
    if g:
        a = min(a, pow2_divisor(g * t.dtype.bytes))
    if t.var is None:
        if g:
            fail("run-time coordinates select a tile only inside a kernel")
        return Tensor(t.dtype, t.space, layout, a, arg=t.arg, offset=t.offset + off, root=t.root)
    b = _trace.current()
    v = b.var()
    args = cxx_args if cxx_args is not None else ", ".join(_spell_arg(x) for x in extra)
    b.emit(f"auto {v.token} = {cxx_name}({t.var.token}{', ' + args if args else ''});")
    return Tensor(t.dtype, t.space, layout, a, var=v, root=t.root)


def _spell_arg(x):
    if isinstance(x, (tuple, list)) and not has_dynamic(x):
        return spell_shape(static(x))
    if isinstance(x, _tessera.Layout):
        from ._api import _CURRENT

        kt = _CURRENT["kernel"]
        if kt is not None and id(x) in kt.statics:
            return kt.statics[id(x)]
    return spell(x)


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
    zeros = _zero_slices((_zero_slices(tile_all), czero))
    off = int(_tessera.call("crd2idx", zeros, shape, stride))
    g = _dynamic_gcd(rest, shape[1], stride[1])
    c_cxx = spell(coord_t if len(coord_t) > 1 else coord_t[0])
    if proj is None:
        cxx = f"{spell_shape(tiler_p)}, {c_cxx}"
    else:
        steps = ", ".join("_1" if p is not None else "X" for p in proj)
        cxx = f"{spell_shape(static(tuple(tiler)))}, {c_cxx}, Step<{steps}>{{}}"
    return _view(t, "local_tile", layout, (), off, g, cxx_args=cxx)


def local_partition(t, thr_layout, index, proj=None):
    """Thread ``index``'s part of tensor ``t`` when ``thr_layout``'s threads tile it (CuTe's
    local_partition): ``t`` divided by thr_layout's shape, at the thread's coordinate."""
    if not isinstance(t, Tensor):
        fail("local_partition takes a tensor")
    if isinstance(thr_layout, (tuple, int)):
        thr_layout = _tessera.call("make_layout", static(thr_layout))
    tshape = _tessera.call("shape", thr_layout)
    tshape_p = static(_project(tuple(tshape) if isinstance(tshape, tuple) else (tshape,), proj))
    z = _algebra("zipped_divide", (t.layout, tshape_p))
    shape, stride = _tessera.call("shape", z), _tessera.call("stride", z)
    from .._types import underscore

    rest = tuple(underscore for _ in shape[1]) if isinstance(shape[1], tuple) else underscore
    layout = _tessera.call("slice", (S(0) if not isinstance(shape[0], tuple) else tuple(S(0) for _ in shape[0]), rest), z)
    # The thread's offset: a coordinate of mode 0 (the thread tile), so a multiple of the gcd of
    # its strides, whichever thread (a static index too: the alignment is kept conservative).
    g = _dynamic_gcd(Value("i", None), shape[0], stride[0])
    off = 0
    kt_thr = _spell_arg(thr_layout)
    if proj is None:
        cxx = f"{kt_thr}, {spell(index)}"
    else:
        steps = ", ".join("_1" if p is not None else "X" for p in proj)
        cxx = f"{kt_thr}, {spell(index)}, Step<{steps}>{{}}"
    return _view(t, "local_partition", layout, (), off, g, cxx_args=cxx)


def _zero_rest(s):
    return tuple(S(0) for _ in s) if isinstance(s, tuple) else S(0)
