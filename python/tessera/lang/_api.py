"""Kernels written in Python: ``@tessera.kernel`` (device code), ``@tessera.jit`` (the launch
function, host code), ``tessera.compile`` and the kernel-side vocabulary (thread indices, copy
atoms, shared memory, barriers, loops and branches on run-time values). See docs/python-kernels.md.
"""

import functools
import inspect
import weakref

from .. import _tessera
from .._types import LayoutError, S
from . import _trace
from ._trace import Builder, FrameWatcher, KernelError, fail, state
from ._values import (
    Float32, FragmentExpr, Int32, Int64, Tensor, Value, _dynamic_gcd, as_value, bind, copy_values, dtype_of, fmt_layout,
    static,
)

# ---- tensors given to a launch function -------------------------------------------------------------


class TensorSpec:
    """A tensor's type without its memory: compile for it without a GPU (``tessera.compile(f,
    TensorSpec((2048, 2048), tessera.Float16))``) and call the result later with tensors of that
    dtype, shape and strides whose addresses are aligned to ``align`` bytes. ``dynamic``: the modes
    whose extents (and so the strides that follow from them) the kernel reads at run time, as
    ``mark_dynamic`` says."""

    def __init__(self, shape, dtype, stride=None, align=16, dynamic=()):
        self.dynamic = tuple(dynamic)
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype_of(dtype)
        if stride is None:
            stride, acc = [], 1
            for s in reversed(self.shape):
                stride.append(acc)
                acc *= s
            stride = tuple(reversed(stride))
        self._stride = tuple(int(s) for s in stride)
        self.align = int(align)

    def stride(self):
        return self._stride

    def __repr__(self):
        return f"TensorSpec({self.shape}, {self.dtype}, stride={self._stride}, align={self.align})"


class DynamicTensor:
    """A tensor whose extents in ``modes`` the kernels read at run time (``mark_dynamic``)."""

    def __init__(self, tensor, modes):
        self.tensor = tensor
        rank = len(tensor.shape)
        self.dynamic = tuple(range(rank)) if modes is None else tuple(int(m) for m in modes)
        for m in self.dynamic:
            if not 0 <= m < rank:
                raise ValueError(f"mark_dynamic: mode {m} of a rank-{rank} tensor")
        self.shape, self.dtype = tensor.shape, tensor.dtype

    def stride(self):
        return self.tensor.stride()

    def data_ptr(self):
        return self.tensor.data_ptr()

    def __getattr__(self, name):
        return getattr(self.tensor, name)


def mark_dynamic(tensor, modes=None):
    """``tensor`` with the extents of ``modes`` (every mode by default) and the strides that depend
    on them made run-time values of the kernels (CuTeDSL's ``mark_layout_dynamic``): the generated
    C++ reads them from the launch instead of holding them, so tensors of other extents reuse the
    compiled kernels (a new trace in Python, no new compile). Unit strides stay static."""
    return DynamicTensor(tensor, modes)


def _is_tensor(x):
    return isinstance(x, (TensorSpec, DynamicTensor)) or (
        hasattr(x, "data_ptr") and hasattr(x, "shape") and hasattr(x, "dtype"))


def _alignment(t):
    """The bytes (at most 16) the tensor's address is known aligned to (a TensorSpec says it)."""
    if isinstance(t, TensorSpec):
        return t.align
    if isinstance(t, DynamicTensor):
        return _alignment(t.tensor)
    from .. import jit

    return jit.assumed_alignment(t)


def _host_tensor(t, index):
    from .. import jit

    dtype = dtype_of(t.dtype)
    layout = jit.layout_of(t, dynamic=getattr(t, "dynamic", ()))
    return Tensor(dtype, "gmem", layout, _alignment(t), arg=index)


# ---- kernels --------------------------------------------------------------------------------------


class KernelFunction:
    """A function decorated with ``@tessera.kernel``: device code, traced when a launch function
    launches it (``kernel(args...).launch(grid=..., block=...)``)."""

    def __init__(self, fn, instance=None):
        self.fn = fn
        self.instance = instance
        functools.update_wrapper(self, fn)

    def __get__(self, obj, objtype=None):
        return self if obj is None else KernelFunction(self.fn, obj)

    def __call__(self, *args, **kwargs):
        if state.host is None:
            fail(
                f"kernel {self.fn.__name__} is called outside a launch function: call it inside a @tessera.jit "
                "function, as kernel(args).launch(grid=..., block=...)"
            )
        if self.instance is not None:
            args = (self.instance,) + args
        return KernelCall(self, args, kwargs)


class KernelCall:
    """A kernel with its arguments, waiting for ``.launch(grid=..., block=..., smem=...)``."""

    def __init__(self, kernel, args, kwargs):
        self.kernel, self.args, self.kwargs = kernel, args, kwargs

    def launch(self, grid, block, smem=0, stream=None, **unused):
        if stream is not None:
            fail("launch(stream=...) inside a launch function: pass the stream when calling the compiled function")
        state.host.launch(self, _dims(grid, "grid"), _dims(block, "block"), int(smem))


def _dims(d, what):
    if isinstance(d, (int, S)) and not isinstance(d, bool):
        d = (d,)
    if isinstance(d, Value) or any(isinstance(e, Value) for e in d):
        fail(f"the {what} of a launch is a run-time value; launch sizes are compile-time ints")
    d = tuple(int(e) for e in d) + (1,) * (3 - len(d))
    if len(d) != 3 or any(e < 1 for e in d):
        fail(f"the {what} of a launch must be one to three positive ints, got {d}")
    return d


class _Param:
    """A kernel parameter: a pointer to the data of a launch-function tensor."""

    def __init__(self, var, tensor, kernel_tensor):
        self.var, self.tensor, self.kernel_tensor = var, tensor, kernel_tensor


_STATIC_SMEM = 48 * 1024  # the shared memory a kernel may declare statically
_MAX_SMEM = 227 * 1024  # a block's shared memory on sm_90 (sm_80: 163 KiB, sm_86 and sm_89: 99 KiB)


class KernelTrace:
    """One traced kernel: its name, launch shape, parameters and body."""

    def __init__(self, name, block, grid):
        self.name, self.block, self.grid = name, block, grid
        self.builder = Builder(name)
        self.params = []
        self.smem_bytes = 0
        self.smem_allocs = []  # (variable's token, C++ element type, elements, alignment, byte offset)
        self.index = "int"
        self.dyn = []  # the run-time extents and strides the kernel reads, in slot order
        self.dyn_var = None

    def dyn_slot(self, value):
        """C++ that reads one run-time extent or stride; the launch passes ``value`` there."""
        if self.dyn_var is None:
            self.dyn_var = self.builder.var("dyn")
        self.dyn.append(int(value))
        return f"{self.dyn_var.token}.v[{len(self.dyn) - 1}]"

    @property
    def dynamic_smem(self):
        """Whether the kernel's shared memory is dynamic: beyond the 48 KiB a kernel may declare
        statically, its allocations are carved from the launch's dynamic shared memory."""
        return self.smem_bytes > _STATIC_SMEM

    @property
    def dyn_struct(self):
        return f"tessera_dyn_{len(self.dyn)}"

    def source(self, line_directives=True):
        params = []
        for p in self.params:
            const = "" if getattr(p.kernel_tensor.root, "written", False) else " const"
            params.append(f"{p.tensor.dtype.cxx}{const}* {p.var.token}")
        if self.dyn:
            params.append(f"{self.dyn_struct} {self.dyn_var.token}")
        threads = self.block[0] * self.block[1] * self.block[2]
        head = f'extern "C" __global__ void __launch_bounds__({threads}) {self.name}({", ".join(params)}) {{'
        body = self.builder.render(line_directives)
        if self.smem_allocs and self.dynamic_smem:
            align = max(a for _, _, _, a, _ in self.smem_allocs)
            head += (f"\n  extern __shared__ __align__({align}) unsigned char tessera_smem[];  "
                     f"// {self.smem_bytes} bytes, set by the launch")
        for i, (tok, cxx, n, align, off) in enumerate(self.smem_allocs):
            decl = (f"{cxx}* {tok} = reinterpret_cast<{cxx}*>(tessera_smem + {off});" if self.dynamic_smem
                    else f"__shared__ alignas({align}) {cxx} {tok}[{n}];")
            body = body.replace(f"\x01{i}\x01", decl)
        text = head + "\n" + body + "\n}\n"
        names = {str(v.id): v.name for v in self.builder.vars}
        import re

        return re.sub("\x00([0-9]+)\x00", lambda m: names[m.group(1)], text)


def _kernel_current():
    k = _CURRENT["kernel"]
    if k is None:
        fail("this operation runs on the GPU: call it inside a @tessera.kernel function")
    return k


_CURRENT = {"kernel": None}


def _on_line_for(builder):
    def on_line(frame, prev_line):
        builder.loc_override = (frame.f_code.co_filename, prev_line)
        try:
            frame_locals = dict(frame.f_locals)
            for name, val in frame_locals.items():
                if name == "_" or name == "self":
                    continue
                _name_value(builder, name, val, frame_locals=frame_locals)
        finally:
            builder.loc_override = None

    return on_line


def _single_var(builder, val):
    expr = val.expr
    if val.prec == 0 and expr.count("\x00") == 2 and expr.startswith("\x00") and expr.endswith("\x00"):
        return builder.vars[int(expr[1:-1])]
    return None


def _name_value(builder, name, val, in_tuple=False, frame_locals=None):
    """Names what the local ``name`` holds after a line ran. A run-time scalar assigned to a name
    that already holds a live C++ variable assigns that variable (``acc = acc + x`` in a
    tessera.range loop carries acc from one iteration to the next, as in Python). A name that
    takes another name's value (``y = x``) gets its own variable, a copy, so that assigning either
    later leaves the other as Python leaves it; before a variable is assigned, the values other
    names still hold in it move to their own variables (or to a copy)."""
    if isinstance(val, Value):
        own = _single_var(builder, val)
        if in_tuple:  # a tuple's element: named if it has no name yet, nothing more
            if own is None:
                bind(val, name)
            elif own.name is None:
                builder.name_var(own, name)
            return
        if builder.held.get(name) is val:
            return  # the value this name held at the last line: named then
        prev = builder.locals.get(name)
        if prev is not None and prev.alive and own is not prev:
            if prev.dtype is not None and val.dtype is not prev.dtype:
                fail(f"`{name}` held a {prev.dtype} and is assigned a {val.dtype}: convert it "
                     f"({name} = x.to({prev.dtype}))")
            _release(builder, prev, name, frame_locals or {})
            builder.emit(f"{prev.token} = {val.expr};")
            if own is None or own.name is None:
                val.expr, val.prec = prev.token, 0
            builder.held[name] = val
            return
        if own is not None and own.name is not None and own.name != name:
            # `y = x`: y's own variable, a copy of x's value (the value object stays x's variable)
            v = builder.var(name)
            builder.emit(f"{val.dtype.cxx} {v.token} = {val.expr};")
            v.dtype = val.dtype
            builder.locals[name] = v
            builder.held[name] = val
            return
        if own is None:
            bind(val, name)
            own = _single_var(builder, val)
        builder.name_var(own, name)
        own.dtype = val.dtype
        builder.locals[name] = own
        builder.held[name] = val
    elif isinstance(val, Tensor) and val.var is not None:
        builder.name_var(val.var, name)
        ov = getattr(val, "origin_var", None)
        if ov is not None:
            builder.name_var(ov, f"{name}_at")
    elif isinstance(val, FragmentExpr):
        if not getattr(val, "_bound", False):
            val._bound = True
            val.bind(name)
    elif isinstance(val, tuple) and len(val) <= 8:
        for i, e in enumerate(val):
            if isinstance(e, Value):
                _name_value(builder, f"{name}_{i}", e, in_tuple=True)


def _release(builder, var, name, frame_locals):
    """Before ``var`` (the variable of local ``name``) is assigned: the values other locals hold in
    it move to those locals' own variables when these still hold the same value, else to a copy."""
    copy = None
    for other, x in frame_locals.items():
        if other == name:
            continue
        for u in (x if isinstance(x, tuple) and len(x) <= 8 else (x,)):
            if not isinstance(u, Value) or _single_var(builder, u) is not var:
                continue
            mine = builder.locals.get(other)
            if builder.held.get(other) is u and mine is not None and mine.alive and mine is not var:
                u.expr = mine.token
                continue
            if copy is None:
                copy = builder.var()
                builder.emit(f"{u.dtype.cxx} {copy.token} = {var.token};")
            u.expr = copy.token


class HostTrace:
    """A launch function being traced: its tensors and the kernels it launches."""

    def __init__(self, fn):
        self.fn = fn
        self.kernels = []
        self.launches = []  # (kernel trace, grid, block, smem, [(arg index, element offset)])
        self.names = set()

    def launch(self, call, grid, block, smem):
        kfn = call.kernel.fn
        base = kfn.__qualname__.replace(".<locals>", "").replace(".", "_")
        name, k = base, 1
        while name in self.names:
            name = f"{base}_{k}"
            k += 1
        self.names.add(name)
        kt = KernelTrace(name, block, grid)
        sig = inspect.signature(kfn)
        try:
            bound = sig.bind(*call.args, **call.kwargs)
        except TypeError as e:
            fail(f"kernel {base}: {e}")
        bound.apply_defaults()
        builder = kt.builder
        kargs = {}
        binds = []
        for pname, val in bound.arguments.items():
            kargs[pname] = self._kernel_arg(kt, pname, val, binds)
        kt.index = "long long" if any(
            int(_tessera.call("cosize", p.kernel_tensor.layout)) >= 2**31 for p in kt.params) else "int"
        prev_b, prev_k = state.builder, _CURRENT["kernel"]
        state.builder, _CURRENT["kernel"] = builder, kt
        try:
            with FrameWatcher(kfn.__code__, _on_line_for(builder)):
                try:
                    result = kfn(**kargs)
                except LayoutError as e:  # the algebra refused something of the kernel's: its line
                    tb, line = e.__traceback__, None
                    while tb is not None:
                        if tb.tb_frame.f_code is kfn.__code__:
                            line = tb.tb_lineno
                        tb = tb.tb_next
                    raise KernelError(str(e), kfn.__code__.co_filename, line) from None
        finally:
            state.builder, _CURRENT["kernel"] = prev_b, prev_k
        if result is not None:
            fail(f"kernel {base} returns a value; a kernel writes its results into tensors")
        if builder.open_blocks:
            fail(f"kernel {base}: a {builder.open_blocks[-1]} was left open (a `break` or `return` inside it?)")
        self.kernels.append(kt)
        if kt.dynamic_smem:  # the allocations' bytes, which the launch must give
            smem += kt.smem_bytes
        self.launches.append((kt, grid, block, smem, binds))

    def _kernel_arg(self, kt, pname, val, binds):
        b = kt.builder
        if isinstance(val, Tensor):
            if val.var is not None:
                fail(f"argument {pname}: a kernel's tensor cannot be passed to another kernel")
            v = b.var(pname)
            ktensor = Tensor(val.dtype, "gmem", val.layout, val.align, var=v)
            b.lines.append((1, f"// {v.token}: {fmt_layout(val.layout)}, {val.align}-byte aligned"))
            kt.params.append(_Param(v, val, ktensor))
            binds.append((val.arg, val.offset, val.dtype.bytes))
            return ktensor
        if isinstance(val, _tessera.Layout):
            from .. import jit

            if jit.dynamic_values(val):
                fail(f"argument {pname}: a layout with run-time values ({val}); pass compile-time layouts")
            return val
        if isinstance(val, (TiledCopy, CopyAtom, TiledMma)):
            val._hint = pname
            return val
        if isinstance(val, Value):
            fail(f"argument {pname}: run-time values of a launch function cannot be passed yet")
        return val  # Python values: compile-time


class JitFunction:
    """A function decorated with ``@tessera.jit``: the launch function. Calling it with tensors
    compiles it for their types (once: the result is kept for each dtype, shape, strides and
    alignment) and runs it; ``tessera.compile(f, *args)`` returns the compiled function."""

    def __init__(self, fn, arch=None, options=(), instance=None):
        self.fn, self.arch, self.options, self.instance = fn, arch, tuple(options), instance
        self._compiled = {}
        functools.update_wrapper(self, fn)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        bound = JitFunction(self.fn, self.arch, self.options, obj)
        bound._compiled = self._compiled
        return bound

    def _key(self, args):
        # the instance by a weak reference: equal to itself only while it lives, so that a later
        # instance at the same address (its id) does not take this one's kernels
        try:
            inst = weakref.ref(self.instance) if self.instance is not None else None
            hash(inst)
        except TypeError:  # no weak references to it, or unhashable: its id
            inst = id(self.instance)
        key = [inst]
        for a in args:
            if _is_tensor(a):
                key.append((str(a.dtype), tuple(a.shape), tuple(a.stride()), _alignment(a),
                            getattr(a, "dynamic", ())))
            else:
                try:
                    hash(a)
                    key.append((type(a), a))
                except TypeError:
                    key.append(id(a))
        return tuple(key)

    def __call__(self, *args, stream=None):
        if state.depth:
            fail("a @tessera.jit function called while another is traced: call it from plain Python")
        key = self._key(args)
        c = self._compiled.get(key)
        if c is None:
            c = self._compiled[key] = compile(self, *args)
        c(*args, stream=stream)


def jit(fn=None, *, arch=None, options=()):
    """Decorates a launch function (``@tessera.jit`` or ``@tessera.jit(arch=90)``)."""
    if fn is None:
        return lambda f: JitFunction(f, arch, options)
    return JitFunction(fn, arch, options)


def kernel(fn):
    """Decorates a kernel: a function traced into CUDA C++ over Tessera's headers."""
    return KernelFunction(fn)


_HEADERS = '#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include "tessera/arch/move.hpp"\n'


class Compiled:
    """A launch function compiled for one set of argument types: call it with tensors of those
    types. ``source`` is the generated CUDA C++, ``kernels`` the kernels' names, ``program`` the
    JIT's program (its log, cache key, compile time)."""

    def __init__(self, name, trace, arg_checks, program, source, nargs, statics=()):
        self.name = name
        self._trace = trace
        self._checks = arg_checks
        self._statics = tuple(statics)  # (index, value) of the compile-time arguments
        self.program = program
        self.source = source
        self._nargs = nargs
        self._launches = []
        if program is not None:
            import struct as _struct

            for kt, grid, block, smem, binds in trace.launches:
                extra = (_struct.pack(f"<{len(kt.dyn)}q", *kt.dyn),) if kt.dyn else ()
                self._launches.append((program.kernel(kt.name), grid, block, smem, tuple(binds), extra))

    @property
    def kernels(self):
        return [kt.name for kt in self._trace.kernels]

    def __call__(self, *args, stream=None):
        args = tuple(a.tensor if type(a) is DynamicTensor else a for a in args)
        if len(args) != self._nargs:
            raise TypeError(f"{self.name}: compiled for {self._nargs} arguments, given {len(args)}")
        for i, dtype, shape, stride, align in self._checks:
            t = args[i]
            if t.dtype != dtype or tuple(t.shape) != shape or tuple(t.stride()) != stride or t.data_ptr() % align:
                raise TypeError(
                    f"{self.name}: argument {i} is a {t.dtype} tensor of shape {tuple(t.shape)}, strides "
                    f"{tuple(t.stride())}, address {t.data_ptr():#x}; it was compiled for {dtype}, {shape}, {stride}, "
                    f"{align}-byte aligned: compile again for this one (calling the @tessera.jit function does)"
                )
        for i, value in self._statics:
            a = args[i]
            if not (a is value or (type(a) is type(value) and _equal(a, value))):
                raise TypeError(
                    f"{self.name}: argument {i} is {a!r}; it was compiled for the compile-time value {value!r}, "
                    "which the kernels hold: compile again for this one (calling the @tessera.jit function does)"
                )
        if stream is None:
            from .. import jit as _jit

            stream = _jit._default_stream(args)
        elif not isinstance(stream, int):
            stream = getattr(stream, "cuda_stream", None) or getattr(stream, "ptr", 0)
        for k, grid, block, smem, binds, extra in self._launches:
            ptrs = [args[i].data_ptr() + off * esize for i, off, esize in binds]
            k(grid, block, *ptrs, *extra, shared=smem, stream=stream)


def compile(f, *args, arch=None, options=(), cache=True):  # noqa: A001 (tessera.compile, as cute.compile)
    """Traces the launch function ``f`` (a ``@tessera.jit`` function) for ``args`` (tensors, or
    TensorSpec without a GPU; other arguments are compile-time values), compiles the kernels it
    launches with the JIT and returns the ``Compiled`` function."""
    from .. import jit as _jit

    call = getattr(type(f), "__call__", None)
    if not isinstance(f, JitFunction) and isinstance(call, JitFunction):  # an object whose __call__ is @jit
        f = call.__get__(f, type(f))
    if not isinstance(f, JitFunction):
        if isinstance(f, KernelFunction):
            raise TypeError("tessera.compile takes the @tessera.jit launch function, not the @tessera.kernel")
        f = JitFunction(f)
    instance_args = (f.instance,) if f.instance is not None else ()
    host = HostTrace(f.fn)
    hargs = []
    checks = []
    for i, a in enumerate(args):
        if _is_tensor(a):
            hargs.append(_host_tensor(a, i))
            if not isinstance(a, TensorSpec):
                checks.append((i, a.dtype, tuple(a.shape), tuple(a.stride()), _alignment(a)))
            else:
                checks.append((i, _TorchDtype(a.dtype), a.shape, a.stride(), a.align))
        else:
            hargs.append(a)
    if state.depth:
        fail("tessera.compile inside a traced function")
    state.depth += 1
    prev = state.host
    state.host = host
    try:
        with FrameWatcher(f.fn.__code__, lambda frame, line: None):
            try:
                f.fn(*instance_args, *hargs)
            except LayoutError as e:
                fl, ln = _trace.user_location()
                raise KernelError(str(e), fl, ln) from None
    finally:
        state.host = prev
        state.depth -= 1
    if not host.launches:
        fail(f"{f.fn.__name__} launches no kernel")
    includes = _HEADERS + "".join(sorted(set().union(*(kt.builder.includes for kt in host.kernels))))
    structs = "".join(
        f"struct {n} {{ long long v[{n.rsplit('_', 1)[1]}]; }};  // run-time extents and strides\n"
        for n in sorted({kt.dyn_struct for kt in host.kernels if kt.dyn})
    )
    head = (
        f"// Generated by tessera.compile from {_trace.short_path(f.fn.__code__.co_filename)}: "
        f"{f.fn.__qualname__}\n{includes}\nusing namespace tessera;\n{structs}\n"
    )
    # The program NVRTC compiles has #line directives (its messages name the Python lines); the
    # source shown to the user has not.
    source = head + "\n".join(kt.source(line_directives=True) for kt in host.kernels)
    readable = head + "\n".join(kt.source(line_directives=False) for kt in host.kernels)
    arch = arch or f.arch
    # A view a program only prints (or a partition it does not use) is a C++ variable never read:
    # NVRTC's warning 177 about it says nothing the user can act on.
    program = _jit.compile(source, [kt.name for kt in host.kernels],
                           options=["--diag-suppress=177"] + list(options or f.options),
                           arch=arch, cache=cache, name=f"{f.fn.__name__}.cu")
    statics = [(i, a) for i, a in enumerate(args) if not _is_tensor(a)]
    compiled = Compiled(f.fn.__qualname__, host, checks, program, readable, len(args), statics)
    if not any(isinstance(a, TensorSpec) for a in args):
        f._compiled.setdefault(f._key(args), compiled)  # calling f with these types reuses it
    return compiled


def _equal(a, b):
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 (a value without a comparison is another value)
        return False


class _TorchDtype:
    """A TensorSpec's dtype as the check of a compiled call compares it (by name)."""

    def __init__(self, dtype):
        from ._values import _FROM_FRAMEWORK

        self.name = next(name for name, d in _FROM_FRAMEWORK.items() if d is dtype)

    def __eq__(self, other):
        return str(other).rsplit(".", 1)[-1] == self.name

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return self.name


# ---- thread and block indices, synchronization ----------------------------------------------------


class _Arch:
    """``tessera.arch``: thread and block indices, barriers, cp.async groups (CuTeDSL's
    ``cute.arch``)."""

    @staticmethod
    def _index(builtin):
        kt = _kernel_current()
        return tuple(Value(f"{kt.index}({builtin}.{c})", Int64 if kt.index != "int" else Int32) for c in "xyz")

    def thread_idx(self):
        """(x, y, z): this thread's index in its block (run-time values)."""
        return self._index("threadIdx")

    def block_idx(self):
        """(x, y, z): this block's index in the grid (run-time values)."""
        return self._index("blockIdx")

    def block_dim(self):
        """(x, y, z): the block's shape, compile-time ints (the kernel is compiled for its launch)."""
        return tuple(S(d) for d in _kernel_current().block)

    def grid_dim(self):
        """(x, y, z): the grid's shape, compile-time ints (the kernel is compiled for its launch)."""
        return tuple(S(d) for d in _kernel_current().grid)

    def lane_idx(self):
        _kernel_current()
        return Value("int(threadIdx.x % 32)", Int32)

    def warp_idx(self):
        _kernel_current()
        return Value("int(threadIdx.x / 32)", Int32)

    def sync_threads(self):
        """__syncthreads(): every thread of the block."""
        _trace.current().emit("__syncthreads();")

    barrier = sync_threads

    def cp_async_commit_group(self):
        """Closes this thread's group of cp.async copies (cp.async.commit_group)."""
        b = _trace.current()
        b.emit("cp_async_fence();")

    def cp_async_wait_group(self, n):
        """Waits until at most ``n`` of this thread's cp.async groups are pending."""
        b = _trace.current()
        if isinstance(n, Value) or not isinstance(n, int) or n < 0:
            fail("cp_async_wait_group(n): n is a compile-time int >= 0")
        b.emit(f"cp_async_wait<{int(n)}>();")


arch = _Arch()


class NamedBarrier:
    """A named barrier (``bar.sync id, n``) of ``num_threads`` threads, as CuTeDSL's
    ``pipeline.NamedBarrier``; barrier 0 is __syncthreads()'s."""

    def __init__(self, barrier_id, num_threads):
        if not (0 <= int(barrier_id) < 16):
            raise ValueError(f"NamedBarrier: barrier_id {barrier_id} is not in [0, 16)")
        if int(num_threads) % 32:
            raise ValueError(f"NamedBarrier: num_threads {num_threads} is not a multiple of 32")
        self.barrier_id, self.num_threads = int(barrier_id), int(num_threads)

    def _include(self):
        b = _trace.current()
        b.includes.add('#include "tessera/arch/barrier_sm90.hpp"\n')
        return b

    def arrive_and_wait(self):
        kt = _kernel_current()
        threads = kt.block[0] * kt.block[1] * kt.block[2]
        if self.num_threads > threads:
            fail(f"NamedBarrier of {self.num_threads} threads in a block of {threads}: it would never open")
        self._include().emit(f"named_barrier_sync({self.barrier_id}, {self.num_threads});")

    wait = arrive_and_wait

    def arrive(self):
        self._include().emit(f"named_barrier_arrive({self.barrier_id}, {self.num_threads});")


# ---- loops and branches on run-time values -----------------------------------------------------------


class range:  # noqa: N801 (tessera.range, as Python's)
    """A C++ ``for`` loop: ``for k in tessera.range(n):`` traces its body once with ``k`` a run-time
    int. Bounds may be run-time values or ints; ``unroll=True`` asks for full unrolling (bounds
    compile-time), ``unroll=k`` for k-fold. A Python ``range`` is unrolled while tracing instead.
    ``break`` and ``return`` cannot leave it."""

    def __init__(self, start, stop=None, step=1, unroll=None):
        if stop is None:
            start, stop = 0, start
        self.start, self.stop, self.step, self.unroll = start, stop, step, unroll
        self._state = 0

    def __iter__(self):
        return self

    def __next__(self):
        b = _trace.current()
        kt = _kernel_current()
        if self._state == 0:
            self._state = 1
            if isinstance(self.step, Value) or int(self.step) <= 0:
                fail("tessera.range: the step must be a compile-time positive int")
            it = kt.index
            dt = Int64 if it != "int" else Int32
            i = b.var()
            self._var = i
            lo = as_value(self.start, dt, "tessera.range's start") if isinstance(self.start, Value) else \
                Value(str(int(self.start)), dt)
            hi = as_value(self.stop, dt, "tessera.range's stop") if isinstance(self.stop, Value) else \
                Value(str(int(self.stop)), dt)
            if lo.dtype is not dt:
                lo = lo.to(dt)
            if hi.dtype is not dt:
                hi = hi.to(dt)
            if self.unroll is True:
                b.emit("#pragma unroll")
            elif self.unroll:
                b.emit(f"#pragma unroll {int(self.unroll)}")
            elif self.unroll is False or self.unroll == 0:
                b.emit("#pragma unroll 1")
            step = "++" + i.token if int(self.step) == 1 else f"{i.token} += {int(self.step)}"
            b.open(f"for ({it} {i.token} = {lo.expr}; {i.token} < {hi.expr}; {step})", "tessera.range loop")
            self._depth = len(b.open_blocks)
            return Value(i.token, dt)
        if self._state == 1:
            self._state = 2
            if len(b.open_blocks) != self._depth:
                fail("a block opened inside the tessera.range loop is still open at its end")
            b.close()
        raise StopIteration


class if_:  # noqa: N801
    """``with tessera.if_(cond):``: a C++ ``if`` on a run-time condition; the body is traced once.
    ``with tessera.elif_(c):`` and ``with tessera.else_():`` may follow it directly."""

    _kind = "if"

    def __init__(self, cond):
        if isinstance(cond, bool):
            fail("tessera.if_ of a Python bool: write a Python `if` (it is decided while tracing)")
        if not isinstance(cond, Value):
            fail(f"tessera.if_ takes a run-time condition, not {type(cond).__name__}")
        self.cond = cond

    def __enter__(self):
        b = _trace.current()
        b.open(f"if ({self.cond.expr})", "tessera.if_ block")
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            _trace.current().close()
        return False


def _reopen(b, text, what):
    if not b.lines or b.lines[-1][1] != "}":
        fail(f"tessera.{what} must follow a `with tessera.if_(...)` block directly")
    indent, _ = b.lines.pop()
    b.lines.append((indent, "} " + text + " {"))
    b.indent += 1
    b.open_blocks.append(f"tessera.{what} block")


class elif_(if_):  # noqa: N801
    def __enter__(self):
        _reopen(_trace.current(), f"else if ({self.cond.expr})", "elif_")
        return self


class else_:  # noqa: N801
    def __enter__(self):
        _reopen(_trace.current(), "else", "else_")
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            _trace.current().close()
        return False


def where(cond, a, b):
    """``cond ? a : b`` of run-time values (of one element type)."""
    if not isinstance(cond, Value):
        fail("tessera.where: the condition is a run-time value; for a Python bool write `a if c else b`")
    if isinstance(a, Value):
        bv = as_value(b, a.dtype, "tessera.where's second value")
        av = a
    elif isinstance(b, Value):
        av = as_value(a, b.dtype, "tessera.where's first value")
        bv = b
    else:
        dt = Float32 if isinstance(a, float) or isinstance(b, float) else Int32
        av, bv = as_value(a, dt, "tessera.where"), as_value(b, dt, "tessera.where")
    if av.dtype is not bv.dtype:
        fail(f"tessera.where of a {av.dtype} and a {bv.dtype}: convert one")
    c = cond.expr if cond.prec < 15 else f"({cond.expr})"  # c1 ? x : y ? a : b would nest to the right
    return Value(f"{c} ? {av.expr} : {bv.expr}", av.dtype, 15)


# ---- shared memory --------------------------------------------------------------------------------


class SmemAllocator:
    """Shared memory for a kernel (CuTeDSL's ``cutlass.utils.SmemAllocator``):
    ``allocate_tensor(dtype, layout, byte_alignment)`` returns a shared-memory tensor. Up to 48 KiB
    for the kernel, static arrays; beyond, pointers into the dynamic shared memory at offsets known
    while tracing, whose bytes the launch gives (at most 227 KiB: sm_90's limit)."""

    def allocate_tensor(self, element_type, layout, byte_alignment=16, swizzle=None):
        b = _trace.current()
        kt = _kernel_current()
        dtype = dtype_of(element_type)
        from .. import jit as _jit

        if isinstance(layout, (tuple, int)):
            layout = _tessera.call("make_layout", static(layout))
        swizzle = None
        if isinstance(layout, _tessera.ComposedLayout):  # Sw<B,M,S> o 0 o L: shared memory swizzled
            if int(layout.offset) != 0:
                fail(f"allocate_tensor: a swizzled layout with an offset ({layout}); compose the swizzle with the layout")
            swizzle, layout = layout.swizzle, layout.layout
        if not isinstance(layout, _tessera.Layout):
            fail(f"allocate_tensor: a layout, not {type(layout).__name__}")
        if _jit.dynamic_values(layout):
            fail(f"allocate_tensor needs a compile-time layout (its size is the allocation's); {layout} has run-time values")
        align = int(byte_alignment)
        if align < 1 or align & (align - 1):
            fail(f"allocate_tensor: byte_alignment {align} is not a power of two")
        n = int(_tessera.call("cosize", layout))
        if swizzle is not None and int(swizzle.bits) and n > 1:
            # the swizzle rewrites bits below 2^top of an offset: the largest offset it can reach
            top = int(swizzle.base) + int(swizzle.bits) + max(0, -int(swizzle.shift))
            n = ((n - 1) | ((1 << top) - 1)) + 1
        if align > 1024:
            fail(f"allocate_tensor: byte_alignment {align}; shared memory is aligned to at most 1024 bytes")
        off = -(-kt.smem_bytes // align) * align
        kt.smem_bytes = off + n * dtype.bytes
        if kt.smem_bytes > _MAX_SMEM:
            fail(f"shared memory of this kernel reaches {kt.smem_bytes} bytes; a block has at most {_MAX_SMEM} "
                 "(sm_90; sm_80 166912, sm_86 and sm_89 101376)")
        v = b.var()
        sw = f"{swizzle} o " if swizzle is not None else ""
        # static (__shared__ T v[n]) up to 48 KiB for the kernel, else a pointer into the dynamic
        # shared memory: which, is known when the kernel is traced (KernelTrace.source)
        b.emit(f"\x01{len(kt.smem_allocs)}\x01  // {sw}{fmt_layout(layout)}")
        kt.smem_allocs.append((v.token, dtype.cxx, n, align, off))
        t = Tensor(dtype, "smem", layout, align, var=v, swizzle=swizzle)
        return t


# ---- copy atoms and tiled copies ------------------------------------------------------------------


def make_swizzle(b, m, s):
    """The swizzle Sw<b,m,s>: bits m..m+b of an offset xored with bits m+s..m+s+b (core/swizzle.hpp)."""
    return _tessera.parse(f"Sw<{int(b)},{int(m)},{int(s)}>")


def make_composed_layout(inner, offset, outer):
    """``inner o offset o outer`` (CuTeDSL's argument order): a swizzle over a layout, e.g. shared
    memory allocated so that a tile's rows spread over the banks."""
    if int(offset) != 0:
        fail("make_composed_layout: the kernel language takes offset 0")
    if isinstance(outer, (tuple, int)):
        outer = _tessera.call("make_layout", static(outer))
    try:
        return _tessera.call("composition", inner, outer)
    except LayoutError as e:
        fail(f"make_composed_layout({inner}, {offset}, {outer}): {e}")


class CopyUniversalOp:
    """Loads and stores of one access (ld/st), ``num_bits_per_copy`` bits wide."""

    def _name(self, bits, dtype):
        return f"UniversalCopy<{_uint(bits)}>"


class CopyG2SOp:
    """cp.async: an asynchronous copy from global to shared memory (``cache_mode`` 'always': L1
    and L2, any width; 'global': L2 only, 128 bits)."""

    def __init__(self, cache_mode="always"):
        if cache_mode not in ("always", "global"):
            raise ValueError("CopyG2SOp(cache_mode=...): 'always' or 'global'")
        self.cache_mode = cache_mode

    def _name(self, bits, dtype):
        if bits not in (32, 64, 128):
            fail(f"cp.async copies 32, 64 or 128 bits, not {bits}")
        if self.cache_mode == "global":
            if bits != 128:
                fail("cp.async with cache_mode='global' copies 128 bits only")
            return "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"
        return f"SM80_CP_ASYNC_CACHEALWAYS<{_uint(bits)}>"


class LdMatrix8x8x16bOp:
    """ldmatrix: a warp loads 8x8 matrices of 16-bit values from shared memory into the registers
    an MMA takes (CuTeDSL's ``cute.nvgpu.warp.LdMatrix8x8x16bOp``): each lane names one 16-byte row,
    ``num_matrices`` (1, 2 or 4) matrices a call; ``transpose`` loads them transposed. Tile it with
    ``make_tiled_copy_A`` / ``make_tiled_copy_B`` of the tiled MMA whose fragments it fills."""

    def __init__(self, transpose=False, num_matrices=4):
        if num_matrices not in (1, 2, 4):
            raise ValueError(f"LdMatrix8x8x16bOp(num_matrices={num_matrices}): 1, 2 or 4")
        self.transpose, self.num_matrices = bool(transpose), int(num_matrices)

    def _name(self, bits, dtype):
        if dtype.width != 16:
            fail(f"ldmatrix loads 16-bit values, not {dtype}")
        n = self.num_matrices
        return f"SM75_U16x{2 * n}_LDSM_T" if self.transpose else f"SM75_U32x{n}_LDSM_N"


def _uint(bits):
    names = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t", 128: "uint128_t"}
    if bits not in names:
        fail(f"a copy of {bits} bits: 8, 16, 32, 64 or 128")
    return names[bits]


class _Namespace:
    def __init__(self, **kw):
        self.__dict__.update(kw)


from ._mma import MmaF16BF16Op as _MmaF16BF16Op  # noqa: E402
from ._mma import TiledMma  # noqa: E402

nvgpu = _Namespace(CopyUniversalOp=CopyUniversalOp, cpasync=_Namespace(CopyG2SOp=CopyG2SOp),
                   warp=_Namespace(MmaF16BF16Op=_MmaF16BF16Op, LdMatrix8x8x16bOp=LdMatrix8x8x16bOp))


class CopyAtom:
    """One copy instruction on one element type (``make_copy_atom``)."""

    _tessera_lang = True

    def __init__(self, op, dtype, bits):
        self.op, self.dtype, self.bits = op, dtype, bits
        self.op_name = op._name(bits, dtype)
        if bits % dtype.width:
            fail(f"a copy of {bits} bits moves whole {dtype} elements ({dtype.width} bits): not {bits}")

    @property
    def algebra_name(self):
        return f"Copy_Atom<{self.op_name},{self.dtype.algebra}>"

    @property
    def cxx(self):
        return f"Copy_Atom<{self.op_name}, {self.dtype.cxx}>"

    @property
    def is_async(self):
        return isinstance(self.op, CopyG2SOp)

    @property
    def is_ldmatrix(self):
        return isinstance(self.op, LdMatrix8x8x16bOp)

    def __str__(self):
        return self.algebra_name


def make_copy_atom(op, element_type, num_bits_per_copy=None):
    """A copy atom: ``op`` (tessera.nvgpu.CopyUniversalOp(), tessera.nvgpu.cpasync.CopyG2SOp())
    moving ``num_bits_per_copy`` bits (default: one element) of ``element_type``."""
    dtype = dtype_of(element_type)
    bits = int(num_bits_per_copy or dtype.width)
    if isinstance(op, LdMatrix8x8x16bOp):
        bits = 128  # a lane's row
    return CopyAtom(op, dtype, bits)


class TiledCopy:
    """A copy atom repeated over a thread layout and a value layout (``make_tiled_copy_tv``), or
    over a tiled MMA's threads (``make_tiled_copy_A/B``)."""

    def __init__(self, atom, thr, val, algebra=None):
        self.atom, self.thr, self.val = atom, thr, val
        if algebra is not None:
            self.algebra = algebra
        else:
            try:
                self.algebra = _tessera.call("make_tiled_copy", _tessera.atom(atom.algebra_name), thr, val)
            except LayoutError as e:
                fail(f"make_tiled_copy_tv({atom}, {thr}, {val}): {e}")

    @property
    def size(self):
        return int(_tessera.call("size", self.thr))

    def get_slice(self, thr_idx):
        """The copy as thread ``thr_idx`` does its part (``partition_S``, ``partition_D``)."""
        return ThrCopy(self, thr_idx)

    get_thread_slice = get_slice

    def __str__(self):
        return str(self.algebra)


def make_tiled_copy_operand(which, atom, tiled_mma):
    """``atom`` over the threads of ``tiled_mma`` as they hold its operand ``which`` (A or B):
    CuTe's make_tiled_copy_A / make_tiled_copy_B, e.g. ldmatrix filling the MMA's fragments."""
    if not isinstance(tiled_mma, TiledMma):
        fail(f"make_tiled_copy_{which}({atom}, ...): the second argument is a tiled MMA (make_tiled_mma)")
    try:
        alg = _tessera.call(f"make_tiled_copy_{which}", _tessera.atom(atom.algebra_name), tiled_mma.algebra)
    except LayoutError as e:
        fail(f"make_tiled_copy_{which}({atom}, {tiled_mma}): {e}")
    tc = TiledCopy(atom, None, None, algebra=alg)
    tc.mma = (which, tiled_mma)
    return tc


def make_tiled_copy_tv(atom, thr_layout, val_layout):
    """``atom`` repeated over the threads ``thr_layout`` ((m,n) -> thread) and the values
    ``val_layout`` ((m,n) -> value) each thread moves: CuTe's make_tiled_copy."""
    thr = thr_layout if isinstance(thr_layout, _tessera.Layout) else _tessera.call("make_layout", static(thr_layout))
    val = val_layout if isinstance(val_layout, _tessera.Layout) else _tessera.call("make_layout", static(val_layout))
    return TiledCopy(atom, thr, val)


class ThrCopy:
    """Thread ``thr_idx``'s part of a tiled copy: ``partition_S`` / ``partition_D`` give the values
    it moves of a source / destination tensor."""

    def __init__(self, tiled, thr_idx):
        _kernel_current()
        if not isinstance(thr_idx, (Value, int)) or isinstance(thr_idx, bool):
            fail(f"get_slice takes a thread index (a run-time int or an int), not {type(thr_idx).__name__}")
        self.tiled, self.thr_idx = tiled, thr_idx

    def _partition(self, t, which):
        from ._lower import coord_offset

        if not isinstance(t, Tensor):
            fail(f"partition_{which} takes a tensor, not {type(t).__name__}")
        t._kernel_check()
        try:
            frg = _tessera.call("tidfrg_s" if which == "S" else "tidfrg_d", self.tiled.algebra, t.layout)
        except LayoutError as e:
            fail(f"partition_{which} of {t.layout} by {self.tiled}: {e}")
        shape, stride = _tessera.call("shape", frg), _tessera.call("stride", frg)
        # (thr, frg, rest): thread thr_idx's (frg, rest modes...)
        idx = self.thr_idx
        st, terms = coord_offset(idx, shape[0], stride[0])
        g = _dynamic_gcd(idx, shape[0], stride[0]) if isinstance(idx, Value) else 0
        rest = _tessera.call("get", frg, S(2))
        modes = [_tessera.call("get", frg, S(1))]
        for m in _pyrange(int(_tessera.call("rank", rest))):
            modes.append(_tessera.call("get", rest, S(m)))
        layout = _tessera.call("make_layout", *modes)
        return t.make_view(layout, st, terms, g)

    def retile_D(self, t):  # noqa: N802 (CuTe's name)
        """A fragment of the tiled MMA this copy was made for (make_tiled_copy_A/B), as this
        copy's destination: its values are in the order the copy writes them."""
        mma = getattr(self.tiled, "mma", None)
        if mma is None:
            fail("retile_D: for a tiled copy made with make_tiled_copy_A or make_tiled_copy_B")
        which, tiled_mma = mma
        dtv = _tessera.call("layout_d_tv", self.tiled.algebra)
        if str(_tessera.call("coalesce", dtv)) != str(_tessera.call("coalesce", tiled_mma.tv[which])):
            fail(f"retile_D: this copy writes {dtv}, the MMA's {which} fragment holds {tiled_mma.tv[which]}: "
                 "the kernel language retiles only when the two agree")
        if not isinstance(t, Tensor) or t.space != "rmem":
            fail("retile_D takes the register fragment (make_fragment_A/B)")
        return t

    retile_S = retile_D

    def partition_S(self, t):  # noqa: N802 (CuTe's name)
        return self._partition(t, "S")

    def partition_D(self, t):  # noqa: N802
        return self._partition(t, "D")


def _pyrange(n):
    import builtins

    return builtins.range(n)


def copy(atom_or_src, src, dst=None, pred=None):
    """``copy(tiled_copy, src, dst)``: the tiled copy's instruction over a thread's partitions;
    ``copy(src, dst)``: element by element, vectorized as the pointers' alignment allows."""
    b = _trace.current()
    if dst is None:
        s, d = atom_or_src, src
        for x, what in ((s, "source"), (d, "destination")):
            if not isinstance(x, Tensor):
                fail(f"copy: the {what} is a {type(x).__name__}, not a tensor")
        if s.dtype is not d.dtype:
            fail(f"copy of a {s.dtype} tensor into a {d.dtype} one: convert the values (d.store(s.load().to(...)))")
        d.root.written = True
        copy_values(s, d)
        return
    tc = atom_or_src
    if isinstance(tc, CopyAtom):
        fail("copy(atom, src, dst): pass the tiled copy (make_tiled_copy_tv(atom, thr, val)) whose partitions these are")
    if not isinstance(tc, TiledCopy):
        fail(f"copy's first argument is a tiled copy or a tensor, not {type(tc).__name__}")
    for x, what in ((src, "source"), (dst, "destination")):
        if not isinstance(x, Tensor):
            fail(f"copy: the {what} is a {type(x).__name__}, not a tensor")
        x._kernel_check()
    if src.dtype is not dst.dtype or src.dtype is not tc.atom.dtype:
        fail(f"copy with a {tc.atom.dtype} atom from a {src.dtype} tensor to a {dst.dtype} one")
    if tc.atom.is_ldmatrix:
        if src.space != "smem" or dst.space != "rmem":
            fail(f"ldmatrix copies shared memory into registers; this copy goes {src.space} -> {dst.space}")
        from ._lower import emit_ldmatrix

        emit_ldmatrix(b, tc.atom, src, dst)
        return
    if tc.atom.is_async and (src.space != "gmem" or dst.space != "smem"):
        fail(f"cp.async copies global to shared memory; this copy goes {src.space} -> {dst.space}")
    if int(_tessera.call("size", src.layout)) != int(_tessera.call("size", dst.layout)):
        fail(f"copy between partitions of {_tessera.call('size', src.layout)} and {_tessera.call('size', dst.layout)} values")
    from ._lower import emit_tiled_copy, plan_tiled_copy

    offsets = plan_tiled_copy(tc.atom, src, dst)  # the layouts first: each instruction's values contiguous
    nbytes = tc.atom.bits // 8
    for x, what in ((src, "source"), (dst, "destination")):
        if x.align < nbytes and tc.atom.bits > x.dtype.width:
            fail(
                f"a {tc.atom.bits}-bit copy needs {nbytes}-byte aligned addresses; the {what} {x} is known aligned "
                f"to {x.align} bytes only: use a narrower atom or align the tensor"
            )
    dst.root.written = True
    emit_tiled_copy(b, tc.atom, src, dst, offsets)


# ---- gemm -----------------------------------------------------------------------------------------


def gemm(*args):
    """``gemm(a, b, c)``: C += A * B over register/shared tensors, dispatched on their ranks as the
    C++ library's gemm ((M,K) x (N,K) => (M,N), outer products (M) x (N) => (M,N), ...)."""
    b = _trace.current()
    if args and isinstance(args[0], TiledMma):
        if len(args) != 5:
            fail("tessera.gemm(tiled_mma, d, a, b, c): D = A*B + C over the tiled MMA's fragments")
        from ._mma import emit_mma

        emit_mma(b, args[0], args[1], args[2], args[3], args[4])
        return
    if len(args) != 3:
        fail("tessera.gemm(a, b, c): C += A*B; tessera.gemm(tiled_mma, d, a, b, c) with a tiled MMA")
    a, bb, c = args
    for x, what in ((a, "A"), (bb, "B"), (c, "C")):
        if not isinstance(x, Tensor):
            fail(f"gemm: {what} is a {type(x).__name__}, not a tensor")
    if a.dtype is not bb.dtype:
        fail(f"gemm of a {a.dtype} A and a {bb.dtype} B")
    if c.space != "rmem":
        fail("gemm accumulates into a register fragment (make_fragment)")
    c.root.written = True
    from ._lower import emit_gemm

    emit_gemm(b, a, bb, c)


def make_fragment(layout, dtype):
    """A register tensor of ``dtype`` over ``layout``'s shape (compact), e.g. an accumulator."""
    from ._values import make_fragment as mf

    if isinstance(layout, (tuple, int)):
        layout = _tessera.call("make_layout", static(layout))
    if isinstance(layout, Tensor):
        layout = layout.layout
    return mf(layout, dtype_of(dtype))


def make_fragment_like(t, dtype=None):
    """A register tensor shaped like tensor ``t`` (of ``t``'s element type unless ``dtype``)."""
    if not isinstance(t, Tensor):
        fail("make_fragment_like takes a tensor")
    from ._values import make_fragment as mf

    return mf(t.layout, dtype_of(dtype) if dtype is not None else t.dtype, like=True)
