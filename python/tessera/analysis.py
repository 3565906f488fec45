"""The access analysis of ``tessera analyze`` (docs/analyze.md): ``tessera.analysis.analyze``
counts the shared-memory bank conflicts or the global-memory sectors of one warp-wide access
pattern, exactly as the command does, and returns the report as a dict; ``tessera.analysis.advise``
is ``tessera advise`` (docs/advise.md), the swizzle under which a tile's writer and reader are
conflict-free; ``tessera.analysis.check_tma`` is ``tessera check tma``, whether a box layout fits a
TMA tensor map; ``tessera.analysis.check_wgmma`` is ``tessera check wgmma``, whether a tile is a
layout a wgmma descriptor describes; ``tessera.analysis.check_copy`` is ``tessera check copy
--width``, whether a copy between layouts may move vectors of a width; ``tessera.analysis.check_tiled_copy``
is ``tessera check copy --smem --copy``, whether a tiled copy's instructions can run over a
shared-memory tile. ``tessera.analyze``, ``tessera.advise``, ``tessera.check_tma``,
``tessera.check_wgmma``, ``tessera.check_copy`` and ``tessera.check_tiled_copy`` are the same
functions.

    >>> from tessera.analysis import analyze
    >>> r = analyze("(_32,_4):(_1,_32)", gmem="_128:_1")  # thread t reads floats t, t+32, t+64, t+96
    >>> r["totals"]["instructions"], r["totals"]["sectors"], r["totals"]["efficiency"]
    (4, 16, 1.0)
"""

from . import _tessera
from ._types import LayoutError

__all__ = ["advise", "analyze", "check_copy", "check_tiled_copy", "check_tma", "check_wgmma"]


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


def advise(tile, *, write=None, read=None, tma_write=False, column_major=False, write_side=None, read_side=None,
           padding=True, wgmma_read=False, wgmma_block=None, elem_bytes=None):
    """The swizzle advisor of ``tessera advise`` (docs/advise.md) as a dict: the shared-memory layout
    of ``tile`` (a rank-2 shape) under which the tiled copy that writes it (``write``, or TMA with
    ``tma_write=True``) and the one that reads it (``read``) are free of bank conflicts, or the best
    there is, derived by the bank model of ``analyze`` over every candidate.

    ``column_major`` stores the tile with mode 0 contiguous; ``write_side``/``read_side`` ("src" or
    "dst") say which side of a copy is in shared memory where the instruction does not tell;
    ``padding=False`` tries swizzles only. ``wgmma_read=True`` has a wgmma read the tile as an
    operand (MN, K) instead of ``read`` (K-major, or MN-major with ``column_major``; one descriptor
    a block of ``wgmma_block`` MN elements); ``elem_bytes`` gives the element width where no tiled
    copy does (TMA and wgmma alone).

    Keys: elem_bytes, best (a candidate, or None when none is legal), candidates (best first; each:
    layout, swizzle (B, M, S), pad_bytes, extra_bytes, tma_boxes, legal, why_not, write_wavefronts,
    write_ideal, read_wavefronts, read_ideal, excess), text (what ``tessera advise`` prints).

    Precondition: at least one of write (or tma_write) and read (or wgmma_read); one element type.
    Raises LayoutError naming the rule otherwise.

    Example:
        >>> ldsm = ("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, "
        ...         "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))")
        >>> tessera.advise("(_64,_64)", read=ldsm)["best"]["layout"]
        'Sw<3,3,3> o (_64,_64):(_64,_1)'
    """
    return _tessera.advise(tile, write, bool(tma_write), read, bool(column_major), write_side, read_side, bool(padding),
                           bool(wgmma_read), int(wgmma_block or 0), int(elem_bytes or 0))


def check_tma(global_layout, box, *, elem_bytes=2, smem=None):
    """The legality check of ``tessera check tma`` (docs/advise.md) as a dict: whether TMA can move
    boxes laid out in shared memory as ``box`` (a static rank-2 layout, plain or swizzled) from or to
    the 2-D matrix ``global_layout`` (shape and strides in elements) of ``elem_bytes``-byte elements;
    with ``smem``, also whether such boxes fill that shared-memory tile ((m, n) -> element offset in
    the global layout's mode order; plain, or under the box's swizzle): the rules tma_partition
    enforces at compile time (tma.tile, tma.box_layout, tma.box_start).

    Keys: legal (bool), rule ("" when legal, else e.g. "tma.map"), message (what was found, or the
    rule's message with its values and the fix: the library's own, as make_tma_desc raises it).

    Example:
        >>> tessera.check_tma("(4096,4096):(4096,1)", "Sw<3,3,3> o (_64,_64):(_64,_1)")["legal"]
        True
        >>> tessera.check_tma("(4096,4100):(4100,1)", "(_64,_64):(_64,_1)")["rule"]
        'tma.map'
        >>> tessera.check_tma("(4096,4096):(4096,1)", "Sw<3,3,3> o (_128,_64):(_64,_1)",
        ...                   smem="Sw<3,3,3> o (_128,_128):(_128,_1)")["rule"]
        'tma.box_layout'
    """
    return _tessera.check_tma(global_layout, box, int(elem_bytes), smem)


def check_wgmma(smem, *, elem_bytes=2, major=None, block=None):
    """The legality check of ``tessera check wgmma`` (docs/advise.md) as a dict: whether a wgmma can
    read the shared-memory tile ``smem`` ((MN, K) -> element offset, plain or swizzled, starting
    1024-byte aligned) of ``elem_bytes``-byte elements through matrix descriptors: every block of
    ``block`` MN elements (default: the tile's MN up to 256, else 64) by 32 bytes of K one of the
    canonical layouts. ``major`` is "k" or "mn" (default: the mode with unit stride).

    Keys: legal (bool), rule ("" when legal, else e.g. "wgmma.core"), message (what was found, or the
    rule's message with its values and the fix: the rules make_gmma_desc enforces at compile time);
    when legal also major ("k" or "mn"), swizzle_bytes (0, 32, 64, 128), mn_block, k_block and
    blocks (each block's start_bytes, lbo_bytes, sbo_bytes, None where the descriptor ignores it).

    Example:
        >>> tessera.check_wgmma("Sw<3,3,3> o (_64,_64):(_64,_1)")["blocks"][1]
        {'start_bytes': 32, 'lbo_bytes': None, 'sbo_bytes': 1024}
        >>> tessera.check_wgmma("Sw<3,3,3> o (_64,_128):(_128,_1)")["rule"]
        'wgmma.core'
    """
    return _tessera.check_wgmma(smem, int(elem_bytes), major, int(block or 0))


def check_copy(src=None, dst=None, *, width=128, elem_bytes=2, elem=None, align=16):
    """The legality check of ``tessera check copy --width`` (docs/advise.md) as a dict: whether the
    library's copy from ``src`` to ``dst`` (layouts, plain or swizzled: ``Sw<B,M,S> o L`` for a
    swizzled pointer over L) may move ``width``-bit vectors (8, 16, 32, 64 or 128) of
    ``elem_bytes``-byte elements (or of the type named ``elem``, e.g. "half_t"), both base pointers
    ``align``-byte aligned. A side left out is a compact fragment of the other's shape (column-major,
    as make_fragment_like gives). The rules are those copy's compile-time plan runs
    (include/tessera/algorithm/copy_rules.hpp): copy.width, copy.swizzle, copy.size, copy.offsets,
    copy.run_align, copy.contiguous, copy.cover, then copy.align (the pointers).

    Keys: legal (bool), rule ("" when legal, else e.g. "copy.contiguous"), message (what was found,
    or the rule's message with the run, the offsets and the fix), width_bits, vector (elements a
    vector), widest_bits (the widest width these layouts and pointers allow: the one copy picks),
    library_vectorizes (whether copy plans vectors for them at all: static layouts within its plan's
    limits); when legal also runs (the vectors moved).

    Precondition: src or dst; both the same size. Raises LayoutError otherwise.

    Example:
        >>> tessera.check_copy("(_8,_64):(_64,_1)", "(_8,_64):(_64,_1)", width=128)["runs"]
        64
        >>> r = tessera.check_copy("(_8,_8):(_8,_1)", width=128)  # into a column-major fragment
        >>> r["rule"], r["widest_bits"]
        ('copy.contiguous', 16)
    """
    return _tessera.check_copy_vector(src, dst, int(width), int(elem_bytes), elem, int(align))


def check_tiled_copy(smem, copy, *, side=None):
    """The legality check of ``tessera check copy --smem --copy`` (docs/advise.md) as a dict: whether
    the tiled copy ``copy``'s instructions can run over the shared-memory tile ``smem`` ((m, n) ->
    element offset, plain or swizzled; the copy's tile repeated over it): the copy's tile divides the
    tile (copy.tile), and every thread's values of one atom are contiguous and aligned there
    (copy.vector: cp.async, ldmatrix, stmatrix and vector accesses move them as one). ``side``
    ("src" or "dst") says which side of the copy is in shared memory where the instruction does not.

    Keys: legal (bool), rule ("" when legal, else "copy.tile" or "copy.vector"), message (when legal
    the instructions' bank conflicts, the model of ``analyze``; else the rule's message with the
    thread, the values and the fix).

    Precondition: copy a tiled copy; side given for a copy whose instruction does not say it. Raises
    LayoutError otherwise.

    Example:
        >>> ldsm = ("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, "
        ...         "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))")
        >>> tessera.check_tiled_copy("Sw<3,3,3> o (_64,_64):(_64,_1)", ldsm)["message"]
        '32 instructions of 16-byte vectors a thread, 128 wavefronts (ideal 128): conflict-free'
        >>> tessera.check_tiled_copy("(_64,_64):(_1,_64)", ldsm)["rule"]
        'copy.vector'
    """
    return _tessera.check_tiled_copy(smem, copy, side)
