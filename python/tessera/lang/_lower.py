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
from .._types import S
from ._trace import fail


def leaves(shape, stride):
    """The (extent, stride) pairs of a layout's flattened modes: ints (static ones as S)."""
    if isinstance(shape, tuple):
        out = []
        for s, d in zip(shape, stride):
            out.extend(leaves(s, d))
        return out
    return [(shape, stride)]


def is_static(x):
    return isinstance(x, S)


def num(x):
    """C++ of an extent or stride: a literal when static, else the kernel's run-time value of it
    (``dyn.v[k]``: the launch passes the value the trace saw; docs/python-kernels.md)."""
    if is_static(x):
        return str(int(x))
    from ._api import _CURRENT

    kt = _CURRENT["kernel"]
    if kt is None:
        fail("a run-time extent or stride outside a kernel")
    return kt.dyn_slot(int(x))


def int_terms(c, sd):
    """C++ terms of an integer coordinate ``c`` (an expression that binds as tightly as a name:
    parenthesized by the caller if need be) into the leaves ``sd``. ``/``, ``%`` and ``*`` share a
    precedence and associate to the left, so ``c / 32 % 4 * 8192`` needs no parentheses."""
    terms = []
    p = 1  # the product of the extents so far: an int, or C++ once a run-time extent joined it
    n = len(sd)
    for k, (s, d) in enumerate(sd):
        last = k == n - 1
        if (is_static(s) and int(s) == 1 and not last) or (is_static(d) and int(d) == 0):
            p = _mul(p, s)
            continue
        e = c if p == 1 else f"{c} / {p if isinstance(p, int) else '(' + p + ')'}"
        if not last:
            e = f"{e} % {num(s)}"
        if not (is_static(d) and int(d) == 1):
            e = f"{e} * {num(d)}"
        terms.append(e)
        p = _mul(p, s)
    return terms


def _mul(p, s):
    if is_static(s) and isinstance(p, int):
        return p * int(s)
    if is_static(s) and int(s) == 1:
        return p
    if p == 1:
        return num(s)
    return f"{p} * {num(s) if not is_static(s) else int(s)}"


def static_offset(c, sd):
    """The offset of a static integer coordinate into static leaves ``sd`` (crd2idx)."""
    off, p, n = 0, 1, len(sd)
    for k, (s, d) in enumerate(sd):
        v = c // p if k == n - 1 else (c // p) % int(s)
        off += v * int(d)
        p *= int(s)
    return off


def _all_static(sd):
    return all(is_static(s) and is_static(d) for s, d in sd)


def coord_offset(coord, shape, stride):
    """(static part, list of run-time terms) of the offset of ``coord`` into (shape, stride); None
    coordinates (slices) contribute nothing. Run-time extents and strides make terms too."""
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
    sd = leaves(shape, stride)
    if _all_static(sd):
        return static_offset(int(coord), sd), []
    return 0, [] if int(coord) == 0 else int_terms(str(int(coord)), sd)


def offset_expr(static, terms):
    """The C++ of static + the terms ('' for a zero offset)."""
    parts = list(terms)
    if static:
        parts.append(str(static))
    return " + ".join(parts)


def element_offsets(layout):
    """The offset of each index of a static layout, in index order (colexicographic)."""
    sd = leaves(_tessera.call("shape", layout), _tessera.call("stride", layout))
    if not _all_static(sd):
        fail(f"this needs a layout of compile-time extents and strides; {layout} has run-time values")
    offs = [0]
    for s, d in sd:
        offs = [o + j * int(d) for j in range(int(s)) for o in offs]
    return offs


def index_to_offset(layout, i):
    """C++ of the offset of index ``i`` (a loop variable) of a static layout: ``i`` itself for a
    compact column-major one."""
    sd = leaves(_tessera.call("shape", layout), _tessera.call("stride", layout))
    p, ident = 1, True
    for s, d in sd:
        if not (is_static(s) and is_static(d)) or (int(s) != 1 and int(d) != p):
            ident = False
        p *= int(s)
    if ident:
        return i
    return " + ".join(int_terms(i, sd)) or "0"


def _pow2(n):
    n = abs(int(n))
    return n & -n if n else 1 << 30


def vector_plan(src_offs, dst_offs, esize, max_bytes):
    """The widest vector (in elements) that moves src -> dst with every vector contiguous in both
    and aligned to its width, at most ``max_bytes`` bytes; 1 when none wider is (static offsets)."""
    return _model_plan([(o, ()) for o in src_offs], [(o, ()) for o in dst_offs], esize, max_bytes, [], [])


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
    """Writes one ``instr(dst address, src address)`` a vector of ``width`` bytes (``offsets``:
    the vectors' (source, destination) element offsets in the tensors ``src`` and ``dst``), as a
    loop when the offsets are affine and neither tensor is swizzled."""
    ss = [o[0] for o in offsets]
    dd = [o[1] for o in offsets]
    a_s, a_d = _affine(ss), _affine(dd)
    if len(offsets) > 2 and a_s is not None and a_d is not None and dst.swizzle is None and src.swizzle is None:
        j = b.var("j")
        s_off = _lin(a_s, j.token)
        d_off = _lin(a_d, j.token)
        b.emit("#pragma unroll")
        from ._values import pointer_plus

        b.emit(f"for (int {j.token} = 0; {j.token} < {len(offsets)}; ++{j.token}) "
               f"{instr}({pointer_plus(dst.var.token, d_off)}, {pointer_plus(src.var.token, s_off)});")
        return
    for s_, d_ in offsets:
        b.emit(f"{instr}({dst.address(d_)}, {src.address(s_)});")


def _lin(a_step, j):
    a, step = a_step
    parts = []
    if step:
        parts.append(j if step == 1 else f"{j} * {step}")
    if a:
        parts.append(str(a))
    return " + ".join(parts)


def emit_copy(b, src, dst):
    """dst(i) = src(i) for every index i, with the widest moves both layouts and both pointers'
    proven alignment allow (at most 16 bytes). Offsets are static ints plus multiples of the
    layouts' run-time strides (``_offset_model``); a copy whose offsets are all static is written as
    loops where they are affine."""
    sm, scxx, sdiv = _offset_model(src.layout)
    dm, dcxx, ddiv = _offset_model(dst.layout)
    if len(sm) != len(dm):
        fail(f"a copy of {len(sm)} values into {len(dm)}: {src.layout} into {dst.layout}")
    esize = src.dtype.bytes
    max_bytes = min(16, src.align, dst.align, _swizzle_run_bytes(src), _swizzle_run_bytes(dst))
    # An element-wise copy may visit the elements in any order: in index order, or in the order of
    # either side's offsets (a row of a row-major tile into a row-major fragment is contiguous in
    # both though not in index order); the order with the widest vectors wins.
    best = None
    for order in (None, "src", "dst"):
        idx = list(range(len(sm)))
        if order is not None:
            m = sm if order == "src" else dm
            idx.sort(key=lambda i: (m[i][1], m[i][0], i))
        a, c = [sm[i] for i in idx], [dm[i] for i in idx]
        w = _model_plan(a, c, esize, max_bytes, sdiv, ddiv)
        if best is None or w > best[0]:
            best = (w, a, c)
    v, a, c = best
    s_var, d_var = src.var.token, dst.var.token
    if v == 1:
        a, c = sm, dm  # element by element, in index order
    if not scxx and not dcxx:  # static offsets: loops where they are affine
        so, do = [x[0] for x in a], [x[0] for x in c]
        if v == 1:
            ss, dd = _affine(so), _affine(do)
            if src.swizzle is not None or dst.swizzle is not None:
                ss = dd = None
            if len(so) > 2 and ss is not None and dd is not None:
                j = b.var("j")
                b.emit("#pragma unroll")
                b.emit(f"for (int {j.token} = 0; {j.token} < {len(so)}; ++{j.token}) "
                       f"{d_var}[{_lin(dd, j.token) or '0'}] = {s_var}[{_lin(ss, j.token) or '0'}];")
            else:
                for s_, d_ in zip(so, do):
                    b.emit(f"{d_var}[{dst.index_of(d_)}] = {s_var}[{src.index_of(s_)}];")
            return
        offsets = [(so[i], do[i]) for i in range(0, len(so), v)]
        emit_moves(b, dst, src, offsets, v * esize, f"move_bytes<{v * esize}>")
        return
    for j in range(0, len(a), v):
        se, de = _model_expr(a[j], scxx), _model_expr(c[j], dcxx)
        se = se if not se.lstrip("-").isdigit() else int(se)
        de = de if not de.lstrip("-").isdigit() else int(de)
        if v == 1:
            b.emit(f"{d_var}[{dst.index_of(de)}] = {s_var}[{src.index_of(se)}];")
        else:
            b.emit(f"move_bytes<{v * esize}>({dst.address(de)}, {src.address(se)});")


def _swizzle_run_bytes(t):
    """The bytes a swizzled tensor keeps contiguous and aligned: 2^M elements of Sw<B,M,S> (the
    swizzle moves only bits M and above); no bound for other tensors."""
    if t.swizzle is None or int(t.swizzle.bits) == 0:
        return 1 << 30
    return (1 << int(t.swizzle.base)) * t.dtype.bytes


def _offset_model(layout):
    """For a layout of static extents whose strides may be run-time values: each index's offset as
    (static part, coefficients of the run-time strides), and those strides' C++ (one read each)
    and the powers of two that divide them (in this trace; another divisibility writes other C++)."""
    sd = leaves(_tessera.call("shape", layout), _tessera.call("stride", layout))
    if not all(is_static(s) for s, _ in sd):
        fail(f"a copy needs compile-time extents; {layout} has run-time ones")
    dyn = [k for k, (_, d) in enumerate(sd) if not is_static(d)]
    cxx = [num(sd[k][1]) for k in dyn]
    divs = [_pow2(int(sd[k][1])) for k in dyn]
    model = [(0, (0,) * len(dyn))]
    for k, (s, d) in enumerate(sd):
        out = []
        for j in range(int(s)):
            for st, co in model:
                if k in dyn:
                    pos = dyn.index(k)
                    co = co[:pos] + (co[pos] + j,) + co[pos + 1:]
                    out.append((st, co))
                else:
                    out.append((st + j * int(d), co))
        model = out
    return model, cxx, divs


def _run_lengths(m):
    """For each index of an offset model, how many indices from it on continue its run: the same
    run-time part, the static part one further each (computed once, from the end)."""
    r = [1] * len(m)
    for i in range(len(m) - 2, -1, -1):
        st, co = m[i]
        nst, nco = m[i + 1]
        if nst == st + 1 and nco == co:
            r[i] = r[i + 1] + 1
    return r


def _model_plan(a, c, esize, max_bytes, adiv, cdiv):
    """vector_plan over offset models: a run must share its run-time part and be contiguous and
    aligned in its static part; the run-time part is aligned when every stride it multiplies is."""
    n = len(a)
    sides = [(m, divs, _run_lengths(m)) for m, divs in ((a, adiv), (c, cdiv))]
    v = 1
    while v * 2 * esize <= max_bytes and n % (v * 2) == 0:
        w = v * 2
        wb = w * esize
        for m, divs, runs in sides:
            for j in range(0, n, w):
                if runs[j] < w:
                    return v
                st0, co0 = m[j]
                if (st0 * esize) % wb or any(x and (x * dv * esize) % wb for x, dv in zip(co0, divs)):
                    return v
        v = w
    return v


def _model_expr(entry, cxx):
    st, co = entry
    parts = [c if x == 1 else f"{x} * {c}" for x, c in zip(co, cxx) if x]
    if st or not parts:
        parts.append(str(st))
    return " + ".join(parts)


def plan_tiled_copy(atom, src, dst):
    """The (source, destination) offsets of each instruction of a tiled copy over a thread's
    partitions: one per run of ``atom.bits`` bits, which must be contiguous in both tensors."""
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
    for name, t in (("source", src), ("destination", dst)):
        if e * esize > _swizzle_run_bytes(t):
            fail(f"the copy atom {atom} moves {e * esize} bytes an instruction; the {name}'s swizzle {t.swizzle} keeps "
                 f"runs of {_swizzle_run_bytes(t)} bytes contiguous: use a narrower atom or a swizzle with a larger base")
    return offsets


def emit_tiled_copy(b, atom, src, dst, offsets):
    """The instructions of a tiled copy (``offsets`` from plan_tiled_copy)."""
    nbytes = atom.bits // 8
    if atom.is_async:
        l2 = ", true" if atom.op.cache_mode == "global" else ""
        instr = f"cp_async_bytes<{nbytes}{l2}>"
    else:
        instr = f"move_bytes<{nbytes}>"
    emit_moves(b, dst, src, offsets, nbytes, instr)


def emit_ldmatrix(b, atom, src, dst):
    """ldmatrix over a thread's partition of shared memory (its rows: 8 contiguous 16-bit values a
    call) into a fragment (2 x num_matrices values a call, consecutive: the registers)."""
    so = element_offsets(src.layout)
    do = element_offsets(dst.layout)
    regs = atom.op.num_matrices
    per_src, per_dst = 8, 2 * regs
    calls = len(so) // per_src
    if len(so) % per_src or len(do) != calls * per_dst:
        fail(f"ldmatrix x{regs}: a call reads a row of 8 values and writes {per_dst}; the source partition holds "
             f"{len(so)} ({src.layout}), the fragment {len(do)} ({dst.layout})")
    esize = src.dtype.bytes
    if _swizzle_run_bytes(src) < 16:
        fail(f"ldmatrix reads 16-byte rows; the swizzle {src.swizzle} keeps runs of {_swizzle_run_bytes(src)} bytes")
    d32 = b.var(f"{'ldsm'}_regs")
    b.emit(f"std::uint32_t* {d32.token} = reinterpret_cast<std::uint32_t*>({dst.var.token});")
    for j in range(calls):
        row = so[j * per_src:(j + 1) * per_src]
        if any(row[k] != row[0] + k for k in range(per_src)):
            fail(f"ldmatrix: values {j * per_src}..{(j + 1) * per_src - 1} of the source partition {src.layout} are "
                 "not a contiguous row of 8: a layout ldmatrix cannot read")
        if (row[0] * esize) % 16 or src.align < 16:
            fail(f"ldmatrix: the row at offset {row[0]} of {src.layout} is not proven 16-byte aligned")
        out = do[j * per_dst:(j + 1) * per_dst]
        if any(out[k] != out[0] + k for k in range(per_dst)) or out[0] % 2:
            fail(f"ldmatrix: the fragment's values {j * per_dst}.. are not {per_dst} consecutive registers' halves")
        regs_cxx = ", ".join(f"{d32.token}[{out[0] // 2 + r}]" for r in range(regs))
        b.emit(f"{atom.op_name}::copy(*reinterpret_cast<uint128_t const*>({src.address(row[0])}), {regs_cxx});")
    b.includes.add('#include "tessera/arch/copy_sm75.hpp"\n')


def _modes(t):
    """The modes of a tensor's layout as (extent, leaves) pairs (a rank-1 layout: one mode)."""
    shape, stride = _tessera.call("shape", t.layout), _tessera.call("stride", t.layout)
    if not isinstance(shape, tuple):
        return [(int(shape), leaves(shape, stride))]
    return [(int(math.prod(int(s) for s, _ in leaves(sh, st))), leaves(sh, st)) for sh, st in zip(shape, stride)]


def _mode_index(mode, var):
    """C++ of the offset of index ``var`` of a mode: a loop variable walks the mode's leaves."""
    extent, sd = mode
    if len([x for x in sd if int(x[0]) != 1]) <= 1:
        d = next((d for s, d in sd if int(s) != 1), S(0))
        if is_static(d):
            return "" if int(d) == 0 else (var if int(d) == 1 else f"{var} * {int(d)}")
        return f"{var} * {num(d)}"
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
               f"{tc}[{c.index_of(_sum(_mode_index(mc[0], m.token), _mode_index(mc[1], n.token)))}] += "
               f"{ta}[{a.index_of(_mode_index(ma[0], m.token) or '0')}] * "
               f"{tb}[{bb.index_of(_mode_index(mb[0], n.token) or '0')}];")
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
               f"{tc}[{c.index_of(_sum(_mode_index(mc[0], m.token), _mode_index(mc[1], n.token)))}] += "
               f"{ta}[{a.index_of(_sum(_mode_index(ma[0], m.token), _mode_index(ma[1], k.token)))}] * "
               f"{tb}[{bb.index_of(_sum(_mode_index(mb[0], n.token), _mode_index(mb[1], k.token)))}];")
        b.close()
        b.close()
        return
    if ra == 1 and rb == 1 and rc == 1:
        V = ma[0][0]
        if mb[0][0] != V or mc[0][0] != V:
            fail(f"gemm: element-wise ({V}) x ({mb[0][0]}) into ({mc[0][0]})")
        v = b.var("v")
        b.emit("#pragma unroll")
        b.emit(f"for (int {v.token} = 0; {v.token} < {V}; ++{v.token}) {tc}[{c.index_of(_mode_index(mc[0], v.token) or '0')}] += "
               f"{ta}[{a.index_of(_mode_index(ma[0], v.token) or '0')}] * "
               f"{tb}[{bb.index_of(_mode_index(mb[0], v.token) or '0')}];")
        return
    fail(f"gemm of ranks {ra} x {rb} => {rc}: the kernel language has (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N) "
         "and (V)x(V)=>(V)")


def _sum(*parts):
    p = [x for x in parts if x]
    return " + ".join(p) if p else "0"
