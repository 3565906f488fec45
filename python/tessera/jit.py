"""Kernels compiled while the program runs (NVRTC), specialized on the tensors they are given.

``tessera.jit`` is the Python face of ``include/tessera/jit/``: it compiles CUDA C++ source that
includes Tessera's headers, instantiates the kernel templates you name, caches the result in memory
and on disk (``TESSERA_CACHE_DIR``; ``TESSERA_CACHE=0`` turns the disk cache off) and launches the
kernels on DLPack tensors (PyTorch, CuPy, JAX) and Python scalars::

    import torch, tessera
    from tessera import jit

    source = r'''
    #include "tessera/tessera.hpp"
    template <class Layout>
    __global__ void scale(float* x, float a) {
      auto t = tessera::make_tensor(tessera::make_gmem_ptr(x), Layout{});
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < tessera::size(t)) t(i) = a * t(i);
    }
    '''
    x = torch.ones(64, 32, device="cuda")
    layout = jit.layout_of(x)                      # (_64,_32):(_32,_1), every integer static
    k = jit.compile(source, [f"scale<{jit.spell(layout)}>"]).kernel(0)
    k(x.numel() // 128, 128, x, 2.0)                # grid, block, then the kernel's arguments

Arguments: a tensor passes its data pointer; a Python ``float`` becomes a 4-byte ``float`` or an
8-byte ``double`` and an ``int`` a 4- or 8-byte integer, as the kernel's parameter at that place
(the driver reports the sizes); ``jit.f32(x)``, ``jit.i64(x)``, ... force a type. A call whose
arguments do not fit the compiled parameters raises ``JitError`` before anything is launched.
The launch goes to ``stream=`` when given, else to PyTorch's current stream when a tensor argument
is a PyTorch tensor, else to the legacy default stream. See docs/jit.md.
"""

import os as _os
import struct as _struct

from . import _tessera

_jit = _tessera._jit

#: Raised for a compile error (with NVRTC's log, naming the program's file and line), a missing
#: NVRTC or GPU driver, and refused or failed launches.
JitError = _jit.JitError

# Tessera's headers are built into the extension modules (include/tessera/jit/embedded.hpp), so
# nothing here points at them; TESSERA_INCLUDE_DIR, when set, makes the JIT read a directory instead.


def _find_pip_cuda_dirs():
    """NVRTC and libcu++ from pip's NVIDIA wheels (``nvidia-cuda-nvrtc``, ``nvidia-cuda-cccl``), when
    present and not overridden: PyTorch's CUDA builds bring NVRTC this way."""
    try:
        import nvidia  # namespace package of NVIDIA's wheels
    except ImportError:
        return
    for root in getattr(nvidia, "__path__", []):
        for sub in ("cu13", "cuda_nvrtc", "cu12"):
            lib_dir = _os.path.join(root, sub, "lib")
            if "TESSERA_NVRTC_LIBRARY" not in _os.environ and _os.path.isdir(lib_dir):
                for name in sorted(_os.listdir(lib_dir), reverse=True):
                    if name.startswith("libnvrtc.so") and "builtins" not in name and "alt" not in name:
                        _os.environ["TESSERA_NVRTC_LIBRARY"] = _os.path.join(lib_dir, name)
                        break
        for sub in ("cu13/include/cccl", "cuda_cccl/include", "cu12/include/cccl", "cu13/include"):
            inc = _os.path.join(root, sub)
            if "TESSERA_CCCL_INCLUDE_DIR" not in _os.environ and _os.path.isfile(
                _os.path.join(inc, "cuda", "std", "type_traits")
            ):
                _os.environ["TESSERA_CCCL_INCLUDE_DIR"] = inc


_find_pip_cuda_dirs()


class _Typed:
    __slots__ = ("data",)

    def __init__(self, fmt, value):
        self.data = _struct.pack(fmt, value)


def f32(x):
    """``x`` passed as a 4-byte float."""
    return _Typed("<f", x)


def f64(x):
    """``x`` passed as an 8-byte double."""
    return _Typed("<d", x)


def i32(x):
    """``x`` passed as a 4-byte signed integer."""
    return _Typed("<i", x)


def i64(x):
    """``x`` passed as an 8-byte signed integer."""
    return _Typed("<q", x)


def u32(x):
    """``x`` passed as a 4-byte unsigned integer."""
    return _Typed("<I", x)


def u64(x):
    """``x`` passed as an 8-byte unsigned integer."""
    return _Typed("<Q", x)


def _data_ptr(t):
    """The device address of a tensor argument, or None when ``t`` is not a tensor."""
    ptr = getattr(t, "data_ptr", None)
    if ptr is not None and callable(ptr):  # PyTorch
        return ptr()
    cai = getattr(t, "__cuda_array_interface__", None)  # CuPy, Numba, ...
    if cai is not None:
        return cai["data"][0]
    return None


_PACK_Q = _struct.Struct("<Q").pack
_PACK_q = _struct.Struct("<q").pack
_PACK_i = _struct.Struct("<i").pack
_PACK_f = _struct.Struct("<f").pack
_PACK_d = _struct.Struct("<d").pack


def _pack(arg, size, index, kernel):
    """The bytes of one kernel argument for a parameter of ``size`` bytes (tensors first: the common
    case of a call)."""
    t = type(arg)
    if t is not float and t is not int and t is not bool:
        ptr = getattr(arg, "data_ptr", None)
        if ptr is not None and callable(ptr):  # PyTorch
            return _PACK_Q(ptr())
        if t is _Typed:
            return arg.data
        if t is bytes:
            return arg
        cai = getattr(arg, "__cuda_array_interface__", None)  # CuPy, Numba, ...
        if cai is not None:
            return _PACK_Q(cai["data"][0])
        if hasattr(arg, "__dlpack__"):
            raise JitError(
                f"{kernel.name}: argument {index} is a DLPack tensor without a device address this module can read "
                "(PyTorch's data_ptr() or __cuda_array_interface__); pass a PyTorch or CuPy tensor"
            )
    elif t is float:
        if size == 4:
            return _PACK_f(arg)
        if size == 8:
            return _PACK_d(arg)
    elif t is bool:
        return _struct.pack("<?", arg) if size == 1 else _struct.pack("<i" if size == 4 else "<q", int(arg))
    else:
        if size == 4:
            return _PACK_i(arg) if arg < 2**31 else _struct.pack("<I", arg)
        if size == 8:
            return _PACK_q(arg) if arg < 2**63 else _PACK_Q(arg)
        if size in (1, 2):
            return _struct.pack("<b" if size == 1 else "<h", arg)
    raise JitError(
        f"{kernel.name}: argument {index} ({t.__name__}) does not fit its {size}-byte parameter; pass a tensor, "
        "a number, or a typed value (tessera.jit.f32, i32, i64, ...)"
    )


class Kernel:
    """A compiled kernel: call it with ``(grid, block, *args)`` and keyword options ``shared``
    (dynamic shared-memory bytes), ``stream``, ``cluster``, ``dependent`` (programmatic dependent
    launch) and ``cooperative``."""

    __slots__ = ("_k", "_sizes")

    def __init__(self, k):
        self._k = k
        self._sizes = None

    @property
    def name(self):
        return self._k.name

    def info(self):
        """Registers, local memory (spills), static shared memory, the most threads per block."""
        return self._k.info()

    def param_sizes(self):
        if self._sizes is None:
            self._sizes = tuple(self._k.param_sizes())
        return self._sizes

    def __call__(self, grid, block, *args, shared=0, stream=None, cluster=1, dependent=False, cooperative=False):
        sizes = self.param_sizes()
        if sizes and len(args) != len(sizes):
            raise JitError(f"{self._k.name}: takes {len(sizes)} arguments, given {len(args)}")
        if sizes:
            packed = [_pack(a, sizes[i], i, self._k) for i, a in enumerate(args)]
        else:
            packed = [_pack(a, 8, i, self._k) for i, a in enumerate(args)]
        if stream is None:
            stream = _default_stream(args)
        elif not isinstance(stream, int):
            stream = getattr(stream, "cuda_stream", None) or getattr(stream, "ptr", 0)
        self._k.launch_packed(grid, block, shared, stream, cluster, dependent, cooperative, packed)

    launch = __call__

    def __repr__(self):
        return f"tessera.jit.Kernel({self._k.name!r})"


_torch_raw_stream = None


def _default_stream(args):
    """PyTorch's current stream on the device of the first PyTorch tensor among ``args``, else 0."""
    global _torch_raw_stream
    for a in args:
        if type(a).__module__ == "torch" and hasattr(a, "data_ptr"):
            if _torch_raw_stream is None:
                import torch

                # The raw handle without building a torch.cuda.Stream (microseconds a call); the
                # public spelling where this private one is missing.
                _torch_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
                    lambda index: torch.cuda.current_stream(index).cuda_stream
                )
            return _torch_raw_stream(a.get_device())
    return 0


class Program:
    """A compiled program: ``kernel(i)`` or ``kernel(name_expression)``, its NVRTC ``log``, its
    cache ``key``, and whether it came ``from_disk_cache``."""

    __slots__ = ("_p", "_kernels")

    def __init__(self, p):
        self._p = p
        self._kernels = {}

    def kernel(self, which=0):
        k = self._kernels.get(which)
        if k is None:
            k = self._kernels[which] = Kernel(self._p.kernel(which))
        return k

    def __getitem__(self, which):
        return self.kernel(which)

    def __len__(self):
        return len(self._p)

    log = property(lambda self: self._p.log)
    key = property(lambda self: self._p.key)
    options = property(lambda self: self._p.options)
    from_disk_cache = property(lambda self: self._p.from_disk_cache)
    compile_seconds = property(lambda self: self._p.compile_seconds)


def compile(source, names, *, options=(), arch=None, headers=None, cache=True, name="tessera_jit.cu"):
    """Compiles CUDA C++ ``source`` (text, or a path to a ``.cu``/``.cuh`` file) and instantiates the
    kernels ``names`` (name expressions such as ``"scale<float>"``) for ``arch`` (compute capability
    times 10, or as NVCC spells it: ``90`` or ``"sm_90a"``; the current GPU's by default). ``headers``
    maps include names to their text."""
    if isinstance(names, str):
        names = [names]
    if "\n" not in source and source.endswith((".cu", ".cuh", ".cpp")) and _os.path.isfile(source):
        name = source
        with open(source, encoding="utf-8") as f:
            source = f.read()
    hdrs = sorted((headers or {}).items())
    return Program(
        _jit.compile(source, list(names), list(options), _arch_number(arch), hdrs, bool(cache), str(name))
    )


def _arch_number(arch):
    """The compute capability times 10 that ``arch`` names: ``90``, ``"90"``, ``"sm_90"``, ``"sm_90a"``
    or ``"compute_90"`` give 90; ``None`` or ``0`` gives 0 (the current GPU's)."""
    if arch is None or (isinstance(arch, int) and not isinstance(arch, bool)):
        n = arch or 0
    else:
        text = str(arch).strip().lower()
        for prefix in ("sm_", "compute_"):
            text = text.removeprefix(prefix)
        text = text.removesuffix("a")
        if not text.isdigit():
            raise ValueError(
                f"arch={arch!r}: name an architecture as the compute capability times 10 (90) or as NVCC "
                "spells it ('sm_90a', 'sm_90', 'compute_90')"
            )
        n = int(text)
    if n and n < 70:
        raise ValueError(f"arch={arch!r}: the JIT compiles for sm_70 and newer")
    return n


def available():
    """``(True, "")`` when NVRTC loads, else ``(False, why)``."""
    return _jit.nvrtc_available()


def layout_of(tensor, *, dynamic=(), dynamic_strides=None):
    """The layout of ``tensor`` (anything with ``shape`` and ``stride()``/``strides``, e.g. a PyTorch
    tensor), in elements, with every integer static, except the extents of the modes listed in
    ``dynamic`` and the strides of the modes in ``dynamic_strides`` — so that one kernel compiled for
    it serves every value of those. By default, when some extent is dynamic, every stride but unit
    strides is too (a stride depends on the extents of other modes)."""
    from . import S, make_layout

    shape = tuple(int(s) for s in tensor.shape)
    st = tensor.stride() if callable(getattr(tensor, "stride", None)) else None
    if st is None:
        itemsize = getattr(getattr(tensor, "dtype", None), "itemsize", 1)
        st = tuple(int(s) // itemsize for s in tensor.strides)
    st = tuple(int(s) for s in st)
    dynamic = set(dynamic)
    if dynamic_strides is None:
        dynamic_strides = {m for m in range(len(st)) if st[m] != 1} if dynamic else set()
    dynamic_strides = set(dynamic_strides)
    sh = tuple(v if m in dynamic else S(v) for m, v in enumerate(shape))
    sd = tuple(v if m in dynamic_strides else S(v) for m, v in enumerate(st))
    if len(shape) == 1:
        return make_layout(sh[0], sd[0])
    return make_layout(sh, sd)


def assumed_alignment(tensor, limit=16):
    """The largest power of two up to ``limit`` bytes that divides ``tensor``'s address."""
    ptr = _data_ptr(tensor) or 0
    a = limit
    while a > 1 and ptr % a:
        a //= 2
    return a


def spell(layout):
    """The C++ type of ``layout`` (``tessera::Layout<tessera::Shape<tessera::Int<64>,...>,...>``)."""
    return _jit.spell_type(layout)


def spell_value(layout, array="d"):
    """A C++ expression of type ``spell(layout)`` reading its dynamic integers from ``array``."""
    return _jit.spell_value(layout, array)


def dynamic_values(layout):
    """The dynamic integers of ``layout``, in the order ``spell_value`` reads them."""
    return tuple(_jit.dynamic_values(layout))


# `compile` is not in __all__: `from tessera.jit import *` must not replace the builtin.
__all__ = [
    "JitError",
    "Kernel",
    "Program",
    "assumed_alignment",
    "available",
    "dynamic_values",
    "f32",
    "f64",
    "i32",
    "i64",
    "layout_of",
    "spell",
    "spell_value",
    "u32",
    "u64",
]


class _JitModule(type(_os)):
    """This module, callable: ``@tessera.jit`` decorates a launch function of the kernel language
    (tessera.lang.jit; docs/python-kernels.md) while ``tessera.jit.compile`` and the rest compile C++."""

    def __call__(self, fn=None, **kwargs):
        from .lang import jit as _lang_jit

        return _lang_jit(fn, **kwargs)


import sys as _sys  # noqa: E402

_sys.modules[__name__].__class__ = _JitModule
