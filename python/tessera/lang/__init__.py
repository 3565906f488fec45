"""The kernel language: kernels written in Python, traced into CUDA C++ over Tessera's headers and
compiled by the JIT (docs/python-kernels.md). Its names are names of the ``tessera`` module:
``tessera.kernel``, ``tessera.jit`` (the launch-function decorator; also the JIT's module),
``tessera.compile``, ``tessera.arch``, ``tessera.range``, ``tessera.if_``, the copy atoms, ...
"""

from ._trace import KernelError
from ._values import (
    BFloat16, Boolean, DType, Float16, Float32, Float64, FragmentExpr, Int8, Int16, Int32, Int64, Tensor, Uint8,
    Uint32, Value,
)
from ._api import (
    Compiled, DynamicTensor, JitFunction, KernelFunction, NamedBarrier, SmemAllocator, TensorSpec, arch, compile, copy, elif_,
    make_composed_layout, make_swizzle, mark_dynamic,
    else_, gemm, if_, jit, kernel, make_copy_atom, make_fragment, make_fragment_like, make_tiled_copy_tv, nvgpu,
    range, where,
)
from ._algebra import local_partition, local_tile
from . import _lower  # noqa: F401 (imported here, not at a program's first trace: its compile time)

#: The names ``tessera`` takes from this module.
EXPORTS = (
    "KernelError", "TensorSpec", "Compiled", "mark_dynamic", "make_swizzle", "make_composed_layout", "kernel",
    "compile", "arch", "nvgpu", "make_copy_atom",
    "make_tiled_copy_tv", "copy", "gemm", "make_fragment", "make_fragment_like", "SmemAllocator", "NamedBarrier",
    "range", "if_", "elif_", "else_", "where", "local_tile", "local_partition", "BFloat16", "Boolean", "Float16",
    "Float32", "Float64", "Int8", "Int16", "Int32", "Int64", "Uint8", "Uint32",
)


__all__ = list(EXPORTS)
