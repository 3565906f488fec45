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
``tessera show``. Submodules: ``tessera.pictures`` (``show``, the pictures of ``tessera show``),
``tessera.analysis`` (``analyze``, the model of ``tessera analyze``), ``tessera.ops`` (the GPU
kernels on DLPack tensors) and ``tessera.jit`` (kernels compiled while the program runs); ``show`` and ``analyze`` are names of this module too. ``from tessera
import *`` brings every public name except those of Python's builtins (``tessera.sum``,
``tessera.min``, ``tessera.eval``, ... stay reachable as such). See docs/python.md.
"""

import builtins as _builtins

from . import _docs
from ._types import Basis, Bool, IntTuple, LayoutError, S, Text, TVLayout, Underscore, ValueTuple, underscore as _
from . import _types
from . import _tessera
from ._tessera import ComposedLayout, CopyAtom, Layout, MmaAtom, Swizzle, TiledCopy, TiledMma

_tessera._register_types(S, IntTuple, Bool, ValueTuple, TVLayout, Text, _types.underscore, LayoutError, Basis)

#: The library's version, "MAJOR.MINOR.PATCH": include/tessera/version.hpp, compiled into the
#: extension module (the distribution's version is read from the same line).
__version__ = _tessera.__version__

_BUILTIN_NAMES = frozenset(dir(_builtins))

#: The functions of ``tessera eval``, each a function of this module (sorted).
FUNCTIONS = tuple(_tessera.function_names())


def _make_function(name):
    def function(*args, **kwargs):
        if _lang_state.depth or kwargs or (args and getattr(args[0], "_tessera_lang", False)):
            # tracing a kernel (docs/python-kernels.md): tensors, static ints; or the kernel
            # language's objects (make_tiled_mma of an MMA op)
            if not _lang_state.depth and not (args and getattr(args[0], "_tessera_lang", False)):
                raise TypeError(f"tessera.{name} takes no keyword arguments outside a traced kernel")
            return _lang_algebra.call(name, args, kwargs)
        return _tessera.call(name, *args)

    function.__name__ = name
    function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = _docs.docstring(name) if name in _docs.FUNCTIONS else None
    return function


from .lang._trace import state as _lang_state  # noqa: E402
from .lang import _algebra as _lang_algebra  # noqa: E402

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


# The parts beyond the algebra, each a submodule whose functions are also names of this module:
# tessera.pictures (show), tessera.analysis (analyze), tessera.ops, the GPU kernels on DLPack
# tensors (importable without CUDA, raising on use), and tessera.jit, kernels compiled while the
# program runs (importable without NVRTC, raising on use).
from . import analysis, jit, ops, pictures  # noqa: E402
from .analysis import advise, analyze, check_copy, check_tiled_copy, check_tma, check_wgmma  # noqa: E402
from .pictures import show  # noqa: E402
from . import lang  # noqa: E402
from .lang import *  # noqa: E402,F401,F403 (the kernel language: tessera.kernel, tessera.compile, ...)

#: The public names besides the functions of ``tessera eval`` (FUNCTIONS).
_PUBLIC = [
    "Basis", "Bool", "ComposedLayout", "CopyAtom", "IntTuple", "Layout", "LayoutError", "MmaAtom", "S", "Swizzle", "TVLayout",
    "Text", "TiledCopy", "TiledMma", "Underscore", "ValueTuple", "FUNCTIONS", "advise", "analyze", "check_copy", "check_tiled_copy", "check_tma", "check_wgmma",
    "atom", "atom_names", "eval", "parse",
    "show",
    # the kernel language (tessera.lang.EXPORTS; docs/python-kernels.md)
    "KernelError", "TensorSpec", "Compiled", "mark_dynamic", "make_swizzle", "make_composed_layout", "kernel",
    "compile", "arch", "nvgpu", "make_copy_atom",
    "make_tiled_copy_tv", "copy", "gemm", "make_fragment", "make_fragment_like", "SmemAllocator", "NamedBarrier",
    "range", "if_", "elif_", "else_", "where", "local_tile", "local_partition", "BFloat16", "Boolean", "Float16",
    "Float32", "Float64", "Int8", "Int16", "Int32", "Int64", "Uint8", "Uint32",
]

#: What ``from tessera import *`` brings: every public name except those of Python's builtins,
#: which a star import would replace in the importing module (``sum``, ``min``, ``max``, ``abs``,
#: ``filter``, ``zip``, ``slice``, ``eval``, ...): those stay ``tessera.sum`` and so on.
__all__ = [name for name in _PUBLIC + list(FUNCTIONS) if name not in _BUILTIN_NAMES]
