"""Tessera's layout algebra in Python: the run-time twin of the C++ library (tessera::rt), exact to it.

A layout is a function from coordinates to offsets, written ``shape:stride``. Build one from Python
values (``tessera.make_layout((8, 4), (1, 8))``; ``tessera.S(8)`` marks a static integer, printed
``_8``) or from the notation (``tessera.layout("(_2,4):(4,_1)")``). Every function of
``tessera eval`` is a function here under the same name, computing exactly what the C++ library
computes; ``str()`` of every result is what the library prints. Impossible requests raise
``tessera.LayoutError`` (a ``ValueError``) with the library's message.

    >>> import tessera
    >>> a = tessera.make_layout((tessera.S(2), 4), (4, tessera.S(1)))
    >>> print(a, a(1, 3), a.size())
    (_2,4):(4,_1) 7 8
    >>> print(tessera.composition("(_6,_2):(_8,_2)", "(_4,_3):(_3,_1)"))
    ((_2,_2),_3):((_24,_2),_8)

Jupyter draws layouts, TV layouts, MMA atoms, tiled MMAs and tiled copies as the SVG of
``tessera show``. See docs/python.md.
"""

from . import _docs
from ._types import Basis, Bool, IntTuple, LayoutError, S, Text, TVLayout, Underscore, ValueTuple, underscore as _
from . import _types
from . import _tessera
from ._tessera import ComposedLayout, CopyAtom, Layout, MmaAtom, Swizzle, TiledCopy, TiledMma

_tessera._register_types(S, IntTuple, Bool, ValueTuple, TVLayout, Text, _types.underscore, LayoutError, Basis)

__version__ = "0.1.0"

#: The functions of ``tessera eval``, each a function of this module (sorted).
FUNCTIONS = tuple(_tessera.function_names())


def _make_function(name):
    def function(*args):
        return _tessera.call(name, *args)

    function.__name__ = name
    function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = _docs.docstring(name) if name in _docs.FUNCTIONS else None
    return function


for _name in FUNCTIONS:
    globals()[_name] = _make_function(_name)
del _name


def parse(text):
    """The value of one ``tessera eval`` expression, as a Python value.

    Precondition: ``text`` is one expression of docs/eval.md (atoms by their CuTe names).
    Postcondition: ``str(parse(t)) == eval(t)``; a bad expression raises LayoutError with the
    input column (``e.column``).

    Example:
        >>> print(tessera.parse("make_layout_tv((_4,_32):(_32,_1), (_4,_8):(_8,_1))").tv)
        ((_32,_4),(_8,_4)):((_128,_4),(_16,_1))
    """
    return _tessera.parse(text)


def eval(text):  # noqa: A001 (the name of the command it mirrors)
    """Exactly the line ``tessera eval TEXT`` prints for a valid expression ('' for a blank one).

    Precondition: ``text`` is one expression of docs/eval.md.
    Postcondition: the printed result; on an error, LayoutError whose ``str`` is what
    ``tessera eval`` prints after ``error: `` (ending ``at input column N``).

    Example:
        >>> tessera.eval("zipped_divide((2048,2048):(2048,_1), (_1,_4))")
        '((_1,_4),(2048,512)):((_0,_1),(2048,_4))'
    """
    ok, line = _tessera.eval_line(text)
    if ok:
        return line
    _tessera.parse(text)  # raises the LayoutError (with its message and column) that made `line`
    raise LayoutError(line[len("error: "):])


def atom(name):
    """The MMA or copy atom of that CuTe name (``tessera.atom_names()`` lists them), or
    ``Copy_Atom<OP,T>`` for a copy instruction OP and element type T.

    Precondition: a name of atom_names(), or Copy_Atom<OP,T> with OP one of them.
    Postcondition: an MmaAtom or CopyAtom whose str() is the name.

    Example:
        >>> print(tessera.layout_c(tessera.atom("SM80_16x8x16_F32F16F16F32_TN")))
        ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
    """
    return _tessera.atom(name)


def atom_names():
    """The names of the atoms (include/tessera/atom/names.hpp), sorted.

    Example:
        >>> "SM75_U32x4_LDSM_N" in tessera.atom_names()
        True
    """
    return list(_tessera.atom_names())


def show(x, format="svg", *, tv=False, tile=None):  # noqa: A002
    """The picture ``tessera show`` draws (docs/show.md): ``format`` is "svg" (standalone SVG),
    "html" (the interactive page: hover, zoom, pan), "ascii" (print_layout's table) or "latex" (TikZ).

    ``x`` is a layout, a composed (swizzled) layout, make_layout_tv's pair, an MMA atom, a tiled MMA,
    a tiled copy, or an expression string. ``tv=True`` with ``tile=(M, N)`` draws a (thread, value)
    -> index layout on an M x N tile (``--tv --tile M,N``).

    Precondition: at most 65536 cells; tile only with tv (and not for atoms and tiled operations).
    Postcondition: the same text as ``tessera show EXPR --format FORMAT`` prints.

    Example:
        >>> print(tessera.show("(_2,(_2,_2)):(_4,(_2,_1))", "ascii"), end="")
        (_2,(_2,_2)):(_4,(_2,_1))
              0   1   2   3 
            +---+---+---+---+
         0  | 0 | 2 | 1 | 3 |
            +---+---+---+---+
         1  | 4 | 6 | 5 | 7 |
            +---+---+---+---+
    """
    return _tessera.show(x, format, tv, tile)


def analyze(access, *, smem=None, gmem=None, elem_bytes=None, vector=None, side=None, heatmap=None):
    """The access analysis of ``tessera analyze`` (docs/analyze.md) as a dict: shared-memory bank
    conflicts (``smem=``) or global-memory coalescing (``gmem=``) of one warp-wide access pattern.

    ``access`` is a (thread, value) -> tile index layout (or make_layout_tv's pair), or a tiled copy;
    ``smem``/``gmem`` the memory layout (m, n) -> element offset, plain or swizzled. ``elem_bytes``
    (default 4) and ``vector`` (default 1) describe each thread's access, except for a tiled copy,
    which brings its own; ``side`` ("src" or "dst") says which side of a tiled copy is in this memory
    where the instruction does not tell. ``heatmap="ascii"`` or ``"svg"`` adds the heat map.

    Keys: memory, layout, access, elem_bytes, vector, access_bytes, threads, rows, cols,
    instructions (each: warp, index, wavefronts (shared) or sectors (global), ideal, useful_bytes,
    lanes), cell_heat, cell_hits, bank_accesses and bank_ways (shared), totals, text (the report
    ``tessera analyze`` prints), heatmap (when asked for).

    Precondition: exactly one of smem and gmem; the model's (docs/analyze.md): widths of 1, 2, 4, 8
    or 16 bytes, each thread's vector contiguous and aligned, tile indices below size(memory).
    Postcondition: ``text`` is what ``tessera analyze --smem/--gmem M --access A`` prints.

    Example:
        >>> r = tessera.analyze("(_32,_32):(_1,_32)", smem="(_32,_32):(_32,_1)")
        >>> r["totals"]["wavefronts"], r["totals"]["ideal"], r["totals"]["conflict_free"]
        (1024, 32, False)
    """
    if (smem is None) == (gmem is None):
        raise LayoutError("analyze: give exactly one of smem=LAYOUT or gmem=LAYOUT")
    return _tessera.analyze(smem if gmem is None else gmem, access, gmem is None, elem_bytes, vector, side, heatmap)


# The GPU kernels on DLPack tensors (tessera/ops.py); importable without CUDA, raising on use.
from . import ops  # noqa: E402

__all__ = [
    "Basis", "Bool", "ComposedLayout", "CopyAtom", "IntTuple", "Layout", "LayoutError", "MmaAtom", "S", "Swizzle",
    "TVLayout", "Text", "TiledCopy", "TiledMma", "Underscore", "ValueTuple", "FUNCTIONS", "analyze", "atom",
    "atom_names", "eval", "parse", "show",
] + list(FUNCTIONS)
