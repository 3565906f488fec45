"""What a traced kernel's tensors become in C++: pointers (global and shared memory) and arrays
(registers) with every offset worked out while tracing. The layout algebra has already run in
Python on static layouts, so the C++ receives its results, not the algebra: a coordinate becomes
index arithmetic (``(tidx % 32) * 8 + tidx / 32 * 8192``), a copy becomes the vector moves its
layouts and proven alignments allow, a tiled copy its instructions, ``gemm`` its multiply-adds.
NVRTC then compiles plain statements instead of instantiating the algebra's templates again (the
thread-value add: 0.6 s -> 0.1 s).

The index arithmetic is the library's ``crd2idx``: an integer coordinate ``c`` of a mode whose
flattened leaves are (s0, d0), (s1, d1), ..., (sn, dn) lands at
``(c % s0) * d0 + (c / s0 % s1) * d1 + ... + (c / (s0 ... sn-1)) * dn`` (the last leaf takes what
is left, without a modulo), and a tuple coordinate sums its modes'.
"""

import math

from .. import _tessera
from ._trace import fail


def leaves(shape, stride):
    """The (extent, stride) pairs of a layout's flattened modes, as ints."""
    if isinstance(shape, tuple):
        out = []
        for s, d in zip(shape, stride):
            out.extend(leaves(s, d))
        return out
    return [(int(shape), int(stride))]


def int_terms(c, sd):
    """C++ terms of a run-time integer coordinate ``c`` (an expression that binds as tightly as a
    name: parenthesized by the caller if need be) into the leaves ``sd``. ``/``, ``%`` and ``*``
    share a precedence and associate to the left, so ``c / 32 % 4 * 8192`` needs no parentheses."""
    terms = []
    p = 1
    n = len(sd)
    for k, (s, d) in enumerate(sd):
        last = k == n - 1
        if (s == 1 and not last) or d == 0:
            p *= s
            continue
        e = c if p == 1 else f"{c} / {p}"
        if not last:
            e = f"{e} % {s}"
        terms.append(e if d == 1 else f"{e} * {d}")
        p *= s
    return terms


def static_offset(c, sd):
    """The offset of a static integer coordinate into the leaves ``sd`` (crd2idx)."""
    off, p, n = 0, 1, len(sd)
    for k, (s, d) in enumerate(sd):
        v = c // p if k == n - 1 else (c // p) % s
        off += v * d
        p *= s
    return off


def coord_offset(coord, shape, stride):
    """(static part, list of run-time terms) of the offset of ``coord`` into (shape, stride); None
    coordinates (slices) contribute nothing."""
    from ._values import Value

    if coord is None:
        return 0, []
    if isinstance(coord, Value):
        c = coord.expr if coord.prec == 0 else f"({coord.expr})"
        return 0, int_terms(c, leaves(shape, stride))
    if isinstance(coord, (tuple, list)):
        st, terms = 0, []
        for c, s, d in zip(coord, shape, stride):
            a, t = coord_offset(c, s, d)
            st += a
            terms += t
        return st, terms
    return static_offset(int(coord), leaves(shape, stride)), []


def offset_expr(static, terms):
    """The C++ of static + the terms ('' for a zero offset)."""
    parts = list(terms)
    if static:
        parts.append(str(static))
    return " + ".join(parts)


def element_offsets(layout):
    """The offset of each index of a static layout, in index order (colexicographic)."""
    sd = leaves(_tessera.call("shape", layout), _tessera.call("stride", layout))
    offs = [0]
    for s, d in sd:
        offs = [o + j * d for j in range(s) for o in offs]
    return offs


def index_to_offset(layout, i):
    """C++ of the offset of index ``i`` (a loop variable) of a static layout: ``i`` itself for a
    compact column-major one."""
    sd = leaves(_tessera.call("shape", layout), _tessera.call("stride", layout))
    p, ident = 1, True
    for s, d in sd:
        if s != 1 and d != p:
            ident = False
        p *= s
    if ident:
        return i
    return " + ".join(int_terms(i, sd)) or "0"


def _pow2(n):
    n = abs(int(n))
    return n & -n if n else 1 << 30


def vector_plan(src_offs, dst_offs, esize, max_bytes):
    """The widest vector (in elements) that moves src -> dst with every vector contiguous in both
    and aligned to its width, at most ``max_bytes`` bytes; 1 when none wider is."""
    n = len(src_offs)
    v = 1
    while v * 2 * esize <= max_bytes and n % (v * 2) == 0:
        w = v * 2
        ok = True
        for j in range(0, n, w):
            s0, d0 = src_offs[j], dst_offs[j]
            if (s0 * esize) % (w * esize) or (d0 * esize) % (w * esize):
                ok = False
                break
            for e in range(1, w):
                if src_offs[j + e] != s0 + e or dst_offs[j + e] != d0 + e:
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            break
        v = w
    return v


def _affine(starts):
    """(a, step) when starts[j] == a + j * step for every j, else None."""
    if len(starts) < 2:
        return (starts[0] if starts else 0), 0
    step = starts[1] - starts[0]
    for j, s in enumerate(starts):
        if s != starts[0] + j * step:
            return None
    return starts[0], step


def emit_moves(b, dst, src, offsets, width, instr):
    """Writes one ``instr(dst + d, src + s)`` a vector of ``width`` bytes, as a loop when the
    vectors' offsets are affine."""
    ss = [o[0] for o in offsets]
    dd = [o[1] for o in offsets]
    a_s, a_d = _affine(ss), _affine(dd)
    if len(offsets) > 2 and a_s is not None and a_d is not None:
        j = b.var("j")
        s_off = _lin(a_s, j.token)
        d_off = _lin(a_d, j.token)
        b.emit("#pragma unroll")
        b.emit(f"for (int {j.token} = 0; {j.token} < {len(offsets)}; ++{j.token}) "
               f"{instr}({_plus(dst, d_off)}, {_plus(src, s_off)});")
        return
    for s, d in offsets:
        b.emit(f"{instr}({_plus(dst, str(d) if d else '')}, {_plus(src, str(s) if s else '')});")


def _lin(a_step, j):
    a, step = a_step
    parts = []
    if step:
        parts.append(j if step == 1 else f"{j} * {step}")
    if a:
        parts.append(str(a))
    return " + ".join(parts)


def _plus(base, off):
    return f"{base} + {off}" if off else base


def emit_copy(b, src, dst):
    """dst(i) = src(i) for every index i, with the widest moves both layouts and both pointers'
    proven alignment allow (at most 16 bytes)."""
    so, do = element_offsets(src.layout), element_offsets(dst.layout)
    if len(so) != len(do):
        fail(f"a copy of {len(so)} values into {len(do)}: {src.layout} into {dst.layout}")
    esize = src.dtype.bytes
    max_bytes = min(16, src.align, dst.align)
    # An element-wise copy may visit the elements in any order: in index order, or in the order of
    # either side's offsets (a row of a row-major tile into a row-major fragment is contiguous in
    # both though not in index order); the order with the widest vectors wins.
    best = None
    for order in (None, "src", "dst"):
        if order is None:
            a, c = so, do
        else:
            idx = sorted(range(len(so)), key=(lambda i: (so[i], i)) if order == "src" else (lambda i: (do[i], i)))
            a, c = [so[i] for i in idx], [do[i] for i in idx]
        w = vector_plan(a, c, esize, max_bytes)
        if best is None or w > best[0]:
            best = (w, a, c)
    v, so, do = best
    s_var, d_var = src.var.token, dst.var.token
    if v == 1:  # element by element, in index order: a loop when both sides are affine
        so, do = element_offsets(src.layout), element_offsets(dst.layout)
        ss, dd = _affine(so), _affine(do)
        if len(so) > 2 and ss is not None and dd is not None:
            j = b.var("j")
            b.emit("#pragma unroll")
            b.emit(f"for (int {j.token} = 0; {j.token} < {len(so)}; ++{j.token}) "
                   f"{d_var}[{_lin(dd, j.token) or '0'}] = {s_var}[{_lin(ss, j.token) or '0'}];")
        else:
            for s_, d_ in zip(so, do):
                b.emit(f"{d_var}[{d_}] = {s_var}[{s_}];")
        return
    offsets = [(so[i], do[i]) for i in range(0, len(so), v)]
    emit_moves(b, d_var, s_var, offsets, v * esize, f"move_bytes<{v * esize}>")


def emit_tiled_copy(b, atom, src, dst):
    """The instructions of a tiled copy over a thread's partitions: one ``atom`` instruction per
    run of ``atom.bits`` bits, which must be contiguous and aligned in both tensors."""
    so, do = element_offsets(src.layout), element_offsets(dst.layout)
    if len(so) != len(do):
        fail(f"copy between partitions of {len(so)} and {len(do)} values: {src.layout} and {dst.layout}")
    esize = src.dtype.bytes
    e = atom.bits // (8 * esize)  # elements an instruction moves
    if len(so) % e:
        fail(f"the copy atom moves {e} values an instruction; the partition holds {len(so)}: {src.layout}")
    offsets = []
    for j in range(0, len(so), e):
        for name, offs, t in (("source", so, src), ("destination", do, dst)):
            if any(offs[j + k] != offs[j] + k for k in range(e)):
                fail(
                    f"the copy atom {atom} moves {e} contiguous values an instruction; values {j}..{j + e - 1} "
                    f"of the {name} partition {t.layout} are not contiguous: a layout this atom cannot vectorize "
                    f"(use a narrower atom, or a value layout whose runs of {e} are contiguous)"
                )
            if (offs[j] * esize) % (e * esize):
                fail(f"values {j}.. of the {name} partition start {offs[j]} elements in: not aligned to the atom's "
                     f"{e * esize} bytes")
        offsets.append((so[j], do[j]))
    nbytes = e * esize
    if atom.is_async:
        l2 = ", true" if atom.op.cache_mode == "global" else ""
        instr = f"cp_async_bytes<{nbytes}{l2}>"
    else:
        instr = f"move_bytes<{nbytes}>"
    emit_moves(b, dst.var.token, src.var.token, offsets, nbytes, instr)


def _modes(t):
    """The modes of a tensor's layout as (extent, leaves) pairs (a rank-1 layout: one mode)."""
    shape, stride = _tessera.call("shape", t.layout), _tessera.call("stride", t.layout)
    if not isinstance(shape, tuple):
        return [(int(shape), leaves(shape, stride))]
    return [(int(math.prod(s for s, _ in leaves(sh, st))), leaves(sh, st)) for sh, st in zip(shape, stride)]


def _mode_index(mode, var):
    """C++ of the offset of index ``var`` of a mode: a loop variable walks the mode's leaves."""
    extent, sd = mode
    if len([x for x in sd if x[0] != 1]) <= 1:
        d = next((d for s, d in sd if s != 1), 0)
        return "" if d == 0 else (var if d == 1 else f"{var} * {d}")
    return " + ".join(int_terms(var, sd))


def emit_gemm(b, a, bb, c):
    """C += A * B by the ranks of the operands (the library's gemm): (M) x (N) => (M,N) outer
    product; (M,K) x (N,K) => (M,N); element-wise (V) x (V) => (V)."""
    ma, mb, mc = _modes(a), _modes(bb), _modes(c)
    ra, rb, rc = len(ma), len(mb), len(mc)
    ta, tb, tc = a.var.token, bb.var.token, c.var.token
    if ra == 1 and rb == 1 and rc == 2:
        M, N = ma[0][0], mb[0][0]
        if (mc[0][0], mc[1][0]) != (M, N):
            fail(f"gemm: an outer product of ({M}) and ({N}) into C of shape ({mc[0][0]},{mc[1][0]})")
        m, n = b.var("m"), b.var("n")
        b.emit("#pragma unroll")
        b.open(f"for (int {m.token} = 0; {m.token} < {M}; ++{m.token})", "gemm loop")
        b.emit("#pragma unroll")
        b.emit(f"for (int {n.token} = 0; {n.token} < {N}; ++{n.token}) "
               f"{tc}[{_sum(_mode_index(mc[0], m.token), _mode_index(mc[1], n.token))}] += "
               f"{ta}[{_mode_index(ma[0], m.token) or '0'}] * {tb}[{_mode_index(mb[0], n.token) or '0'}];")
        b.close()
        return
    if ra == 2 and rb == 2 and rc == 2:
        M, K = ma[0][0], ma[1][0]
        N, K2 = mb[0][0], mb[1][0]
        if K != K2 or (mc[0][0], mc[1][0]) != (M, N):
            fail(f"gemm: ({M},{K}) x ({N},{K2}) into ({mc[0][0]},{mc[1][0]}): the modes must be (M,K), (N,K), (M,N)")
        k, m, n = b.var("k"), b.var("m"), b.var("n")
        b.emit("#pragma unroll")
        b.open(f"for (int {k.token} = 0; {k.token} < {K}; ++{k.token})", "gemm loop")
        b.emit("#pragma unroll")
        b.open(f"for (int {m.token} = 0; {m.token} < {M}; ++{m.token})", "gemm loop")
        b.emit("#pragma unroll")
        b.emit(f"for (int {n.token} = 0; {n.token} < {N}; ++{n.token}) "
               f"{tc}[{_sum(_mode_index(mc[0], m.token), _mode_index(mc[1], n.token))}] += "
               f"{ta}[{_sum(_mode_index(ma[0], m.token), _mode_index(ma[1], k.token))}] * "
               f"{tb}[{_sum(_mode_index(mb[0], n.token), _mode_index(mb[1], k.token))}];")
        b.close()
        b.close()
        return
    if ra == 1 and rb == 1 and rc == 1:
        V = ma[0][0]
        if mb[0][0] != V or mc[0][0] != V:
            fail(f"gemm: element-wise ({V}) x ({mb[0][0]}) into ({mc[0][0]})")
        v = b.var("v")
        b.emit("#pragma unroll")
        b.emit(f"for (int {v.token} = 0; {v.token} < {V}; ++{v.token}) {tc}[{_mode_index(mc[0], v.token) or '0'}] += "
               f"{ta}[{_mode_index(ma[0], v.token) or '0'}] * {tb}[{_mode_index(mb[0], v.token) or '0'}];")
        return
    fail(f"gemm of ranks {ra} x {rb} => {rc}: the kernel language has (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N) "
         "and (V)x(V)=>(V)")


def _sum(*parts):
    p = [x for x in parts if x]
    return " + ".join(p) if p else "0"
