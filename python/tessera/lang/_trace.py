"""The tracer's state: the C++ being written, the names it gives values, and errors that point at
the user's Python line.

A kernel or launch function is traced by running it in Python with proxy values (``_values``).
Operations on compile-time values (ints, layouts) happen in Python; operations on run-time values
append C++ statements to the current ``Builder``. Values are named after the Python locals that
hold them: ``sys.monitoring`` (or ``sys.settrace``) watches the traced function's frame and, at
each new line, names the run-time values its locals hold (``a_val = gA[mi, ni]`` becomes ``auto a_val = gA(mi, ni);``).
Names appear in the C++ only when it is rendered, so a statement may mention a value before the
value has a name: statements hold placeholders (``Var.token``) replaced at the end.
"""

import linecache
import os
import re
import sys

__all__ = ["KernelError", "Builder", "Var", "current", "user_location", "fail"]


class KernelError(Exception):
    """A kernel or launch function that cannot be compiled, raised while tracing. ``filename`` and
    ``lineno`` name the user's Python line; ``str(e)`` starts with ``file:line:`` and ends with the
    line's text."""

    def __init__(self, message, filename=None, lineno=None):
        self.message = message
        self.filename = filename
        self.lineno = lineno
        where = f"{filename}:{lineno}: " if filename else ""
        text = ""
        if filename and lineno:
            src = linecache.getline(filename, lineno).strip()
            if src:
                text = f"\n    {src}"
        super().__init__(f"{where}{message}{text}")


# The code objects of the functions being traced: errors and #line directives name the innermost
# frame running one of them.
_traced_codes = set()


def user_location():
    """(filename, lineno) of the innermost frame of a traced function, or (None, None)."""
    f = sys._getframe(1)
    while f is not None:
        if f.f_code in _traced_codes:
            return f.f_code.co_filename, f.f_lineno
        f = f.f_back
    return None, None


def fail(message):
    """Raises KernelError at the user's current line (while the values of a line are named, after
    the line ran: that line)."""
    b = state.builder
    filename, lineno = (b.loc_override if b is not None and b.loc_override else None) or user_location()
    raise KernelError(message, filename, lineno)


class Var:
    """A C++ variable whose name is decided later: ``token`` stands for it in statements."""

    __slots__ = ("id", "name", "builder", "block", "dtype")

    def __init__(self, builder):
        self.builder = builder
        self.id = len(builder.vars)
        self.name = None
        self.dtype = None  # the element type of the scalar it holds, when it holds one
        self.block = builder.block_stack[-1]  # the C++ block it is declared in
        builder.vars.append(self)

    @property
    def alive(self):
        return self.block in self.builder.block_stack

    @property
    def token(self):
        return f"\x00{self.id}\x00"

    def __repr__(self):
        return f"Var({self.name or self.id})"


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CXX_RESERVED = frozenset(
    "alignas alignof and asm auto bool break case catch char class const constexpr continue default delete do "
    "double else enum explicit extern false float for friend goto if inline int long namespace new not operator or "
    "private protected public register return short signed sizeof static struct switch template this throw true try "
    "typedef typename union unsigned using virtual void volatile while xor make_tensor make_layout make_shape "
    "make_coord copy size threadIdx blockIdx blockDim gridDim".split()
)


class Builder:
    """The C++ of one kernel: statements (with placeholders), the variables, the headers needed."""

    def __init__(self, name):
        self.name = name
        self.vars = []
        self.lines = []  # (indent, text) with Var tokens
        self.indent = 1
        self.used_names = set()
        self.includes = set()
        self.last_line = None  # (filename, lineno) of the last #line written
        self.open_blocks = []  # what each open '{' is, for the error when one is left open
        self.loc_override = None  # (filename, lineno) statements are attributed to while naming
        self.block_stack = [0]  # ids of the open C++ blocks, the function's body first
        self.blocks = 0
        self.locals = {}  # Python local name -> the C++ variable of a run-time scalar it holds
        self.held = {}  # Python local name -> the Value it held when last named

    def var(self, hint=None):
        v = Var(self)
        if hint:
            self.name_var(v, hint)
        return v

    def name_var(self, v, name):
        if v.name is not None:
            return
        if not _IDENT.match(name) or name in _CXX_RESERVED or name.startswith("__"):
            name = f"{name}_" if _IDENT.match(name) else "v"
        base, k = name, 1
        while name in self.used_names:
            name = f"{base}_{k}"
            k += 1
        self.used_names.add(name)
        v.name = name

    def emit(self, text):
        for m in re.finditer("\x00([0-9]+)\x00", text):
            v = self.vars[int(m.group(1))]
            if not v.alive:
                fail(
                    f"`{v.name or 'a value'}` was made inside a tessera.range loop or tessera.if_ block that has "
                    "ended: give it a value before the block (the block then assigns it) to use it after"
                )
        filename, lineno = self.loc_override or user_location()
        if filename is not None and (filename, lineno) != self.last_line:
            self.lines.append((self.indent, f"#line {lineno} \"{filename}\""))
            src = linecache.getline(filename, lineno).strip()
            if src:
                self.lines.append((self.indent, f"// {src}"))
            self.last_line = (filename, lineno)
        self.lines.append((self.indent, text))

    def open(self, text, what):
        self.emit(text + " {")
        self.indent += 1
        self.open_blocks.append(what)
        self.blocks += 1
        self.block_stack.append(self.blocks)

    def close(self):
        self.indent -= 1
        self.open_blocks.pop()
        self.block_stack.pop()
        self.lines.append((self.indent, "}"))
        self.last_line = None

    def render(self, line_directives=True):
        k = 0
        for v in self.vars:
            if v.name is None:
                while f"t{k}" in self.used_names:
                    k += 1
                self.name_var(v, f"t{k}")
        names = {str(v.id): v.name for v in self.vars}
        out = []
        for indent, text in self.lines:
            if text.startswith("#line"):
                if line_directives:
                    out.append(text)
                continue
            text = re.sub("\x00([0-9]+)\x00", lambda m: names[m.group(1)], text)
            out.append("  " * indent + text)
        return "\n".join(out)


class _State:
    __slots__ = ("builder", "host", "depth")

    def __init__(self):
        self.builder = None  # the Builder of the kernel being traced
        self.host = None  # the launch function's trace (_api.HostTrace) while one runs
        self.depth = 0


state = _State()


def current():
    """The Builder of the kernel being traced; KernelError outside a kernel."""
    if state.builder is None:
        fail("this operation runs on the GPU: call it inside a @tessera.kernel function")
    return state.builder


class _Monitoring:
    """Line, return and unwind events of the traced functions' code, through ``sys.monitoring``
    (Python 3.12 and later): unlike ``sys.settrace``, which makes every function call of the
    trace pay for a call event (the trace took 1.7x as long), other code runs unwatched. One tool
    id, taken while some function is traced, serves every watcher."""

    _mon = getattr(sys, "monitoring", None)
    tool = None
    watchers = {}  # code -> FrameWatcher

    @classmethod
    def start(cls, watcher):
        m = cls._mon
        if m is None or os.environ.get("TESSERA_TRACE_WITH_SETTRACE"):
            return False
        if cls.tool is None:
            free = [t for t in (4, 3) if m.get_tool(t) is None]
            if not free:  # every spare tool id in use (by debuggers, coverage, profilers)
                return False
            cls.tool = free[0]
            m.use_tool_id(cls.tool, "tessera.lang")
            m.register_callback(cls.tool, m.events.LINE, cls._on_event)
            m.register_callback(cls.tool, m.events.JUMP, cls._on_jump)
            m.register_callback(cls.tool, m.events.PY_RETURN, cls._on_event)
            # a function left by an exception: settrace reports it as a return (PY_UNWIND cannot
            # be asked of one function's code; others' unwinding only costs a dictionary lookup)
            m.register_callback(cls.tool, m.events.PY_UNWIND, cls._on_event)
            m.set_events(cls.tool, m.events.PY_UNWIND)
        cls.watchers[watcher.code] = watcher
        m.set_local_events(cls.tool, watcher.code, m.events.LINE | m.events.JUMP | m.events.PY_RETURN)
        return True

    @classmethod
    def stop(cls, watcher):
        m = cls._mon
        m.set_local_events(cls.tool, watcher.code, 0)
        del cls.watchers[watcher.code]
        if not cls.watchers:
            m.set_events(cls.tool, 0)
            for e in (m.events.LINE, m.events.JUMP, m.events.PY_RETURN, m.events.PY_UNWIND):
                m.register_callback(cls.tool, e, None)
            m.free_tool_id(cls.tool)
            cls.tool = None

    @classmethod
    def _on_event(cls, code, *_):
        # a new line (LINE), a return (PY_RETURN), an exception leaving the function (PY_UNWIND)
        w = cls.watchers.get(code)
        if w is not None:
            w.step(sys._getframe(1))

    @classmethod
    def _on_jump(cls, code, source, target):
        # LINE comes when the line changes; settrace also reports a line again when a loop jumps
        # back to its start on the same line (`for i in range(4): acc = acc + x`), and so do we.
        w = cls.watchers.get(code)
        if w is not None and target < source and w.line_at(target) == w.line_at(source):
            w.step(sys._getframe(1))


class FrameWatcher:
    """Names run-time values after the locals of the traced function's frame that hold them, at
    each line event (``on_line(frame, the line it ran last)``) and at its return; done with
    ``sys.monitoring`` where Python has it (3.12+), else ``sys.settrace`` (the previous trace
    function restored when done). TESSERA_TRACE_WITH_SETTRACE=1 asks for the second."""

    def __init__(self, code, on_line):
        self.code = code
        self.on_line = on_line
        self.previous = None
        self.monitoring = False
        self.last = {}  # frame -> the line it ran last

    def line_at(self, offset):
        """The line of the instruction at byte ``offset`` of the watched code."""
        if not hasattr(self, "_lines"):
            self._lines = [(start, end, line) for start, end, line in self.code.co_lines()]
        for start, end, line in self._lines:
            if start <= offset < end:
                return line
        return None

    def step(self, frame):
        prev = self.last.get(id(frame))
        if prev is not None:
            self.on_line(frame, prev)
        self.last[id(frame)] = frame.f_lineno

    def _local(self, frame, event, arg):
        if event in ("line", "return"):
            self.step(frame)
        return self._local

    def _global(self, frame, event, arg):
        if frame.f_code is self.code:
            return self._local
        return None

    def __enter__(self):
        _traced_codes.add(self.code)
        self.monitoring = self.code not in _Monitoring.watchers and _Monitoring.start(self)
        if not self.monitoring:
            self.previous = sys.gettrace()
            sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        if self.monitoring:
            _Monitoring.stop(self)
        else:
            sys.settrace(self.previous)
        _traced_codes.discard(self.code)
        return False


def short_path(filename):
    try:
        rel = os.path.relpath(filename)
        return rel if not rel.startswith("..") else filename
    except ValueError:
        return filename
