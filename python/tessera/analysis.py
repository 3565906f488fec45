"""The access analysis of ``tessera analyze`` (docs/analyze.md): ``tessera.analysis.analyze``
counts the shared-memory bank conflicts or the global-memory sectors of one warp-wide access
pattern, exactly as the command does, and returns the report as a dict. ``tessera.analyze`` is the
same function.

    >>> from tessera.analysis import analyze
    >>> r = analyze("(_32,_4):(_1,_32)", gmem="_128:_1")  # thread t reads floats t, t+32, t+64, t+96
    >>> r["totals"]["instructions"], r["totals"]["sectors"], r["totals"]["efficiency"]
    (4, 16, 1.0)
"""

from . import _tessera
from ._types import LayoutError

__all__ = ["analyze"]


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
