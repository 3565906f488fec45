"""The values of a traced kernel: element types, run-time scalars (``Value``), tensors (``Tensor``:
a pointer and a layout, in global, shared or register memory) and element-wise expressions over
register fragments (``FragmentExpr``)."""

import math

from .. import _tessera
from .._types import S, Underscore
from . import _trace
from ._trace import fail

# ---- element types --------------------------------------------------------------------------------


class DType:
    """An element type: its short name (printed in tensors), its C++ type and its width in bits."""

    __slots__ = ("name", "cxx", "width", "kind", "algebra")

    def __init__(self, name, cxx, width, kind, algebra):
        self.name, self.cxx, self.width, self.kind, self.algebra = name, cxx, width, kind, algebra

    @property
    def bytes(self):
        return self.width // 8

    def __repr__(self):
        return f"tessera.{_DTYPE_NAMES[self.name]}"

    __str__ = __repr__

    def __call__(self, x):
        """``tessera.Float32(v)``: the value converted to this type (a run-time value's conversion,
        or a literal of this type)."""
        if isinstance(x, Value):
            return x.to(self)
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return Value(literal(x, self), self, 0)
        fail(f"{self}({type(x).__name__}): converts a number or a run-time value")


Float16 = DType("f16", "__half", 16, "float", "half_t")
BFloat16 = DType("bf16", "__nv_bfloat16", 16, "float", "bfloat16_t")
Float32 = DType("f32", "float", 32, "float", "float")
Float64 = DType("f64", "double", 64, "float", "double")
Int8 = DType("i8", "int8_t", 8, "int", "int8_t")
Int16 = DType("i16", "int16_t", 16, "int", "int16_t")
Int32 = DType("i32", "int", 32, "int", "int32_t")
Int64 = DType("i64", "long long", 64, "int", "int64_t")
Uint8 = DType("u8", "uint8_t", 8, "int", "uint8_t")
Uint32 = DType("u32", "unsigned", 32, "int", "uint32_t")
Boolean = DType("i1", "bool", 8, "bool", "bool")

_DTYPE_NAMES = {
    "f16": "Float16", "bf16": "BFloat16", "f32": "Float32", "f64": "Float64", "i8": "Int8", "i16": "Int16",
    "i32": "Int32", "i64": "Int64", "u8": "Uint8", "u32": "Uint32", "i1": "Boolean",
}

_FROM_FRAMEWORK = {
    "float16": Float16, "bfloat16": BFloat16, "float32": Float32, "float64": Float64, "int8": Int8,
    "int16": Int16, "int32": Int32, "int64": Int64, "uint8": Uint8, "uint32": Uint32, "bool": Boolean,
}


def dtype_of(x):
    """The DType of a framework dtype (``torch.float16``, ``'float16'``, a DType)."""
    if isinstance(x, DType):
        return x
    name = str(x).rsplit(".", 1)[-1]
    d = _FROM_FRAMEWORK.get(name)
    if d is None:
        raise TypeError(f"tessera: no kernel element type for {x!r} (float16, bfloat16, float32, float64, int8-64)")
    return d


def literal(x, dtype):
    """A C++ literal of ``x`` as ``dtype``."""
    if dtype.kind == "bool":
        return "true" if x else "false"
    if dtype.kind == "int":
        return str(int(x)) if dtype.width <= 32 else f"{int(x)}LL"
    v = repr(float(x))
    if v in ("inf", "-inf", "nan"):
        v = {"inf": "INFINITY", "-inf": "-INFINITY", "nan": "NAN"}[v]
    elif "e" not in v and "." not in v:
        v += ".0"
    if dtype is Float32:
        return v + "f" if v[-1].isdigit() else v
    if dtype is Float64:
        return v
    return f"{dtype.cxx}({v}f)"


# ---- run-time scalars -----------------------------------------------------------------------------

# C++ precedence levels (smaller binds tighter) of the operators a Value writes.
_PREC = {"*": 5, "/": 5, "%": 5, "+": 6, "-": 6, "<<": 7, ">>": 7, "<": 9, "<=": 9, ">": 9, ">=": 9,
         "==": 10, "!=": 10, "&": 11, "^": 12, "|": 13}


def _promote(a, b, op):
    if a is b:
        return a
    if a.kind == "bool" and b.kind == "bool":
        return Boolean
    if a.kind == "int" and b.kind == "int":
        return a if a.width >= b.width else b
    fail(
        f"'{op}' of a {a} and a {b}: convert one explicitly (x.to(tessera.{_DTYPE_NAMES[b.name]}) or "
        f"tessera.{_DTYPE_NAMES[a.name]}(x)); the kernel language does not mix element types silently"
    )


class Value:
    """A run-time scalar of a kernel: a C++ expression, its element type, its precedence."""

    __slots__ = ("expr", "dtype", "prec", "__weakref__")
    _tessera_lang = True

    def __init__(self, expr, dtype, prec=0):
        self.expr, self.dtype, self.prec = expr, dtype, prec

    def _operand(self, other, op):
        if isinstance(other, Value):
            return other
        if isinstance(other, bool):
            return Value(literal(other, Boolean), Boolean)
        if isinstance(other, int):
            if self.dtype.kind == "float":
                return Value(literal(other, self.dtype), self.dtype)
            return Value(literal(other, self.dtype if self.dtype.kind == "int" else Int32), self.dtype
                         if self.dtype.kind == "int" else Int32)
        if isinstance(other, float):
            if self.dtype.kind != "float":
                fail(f"'{op}' of a {self.dtype} and a Python float: convert the integer first (x.to(tessera.Float32))")
            return Value(literal(other, self.dtype), self.dtype)
        return NotImplemented

    def _binary(self, other, op, swap=False, result=None):
        o = self._operand(other, op)
        if o is NotImplemented:
            return NotImplemented
        a, b = (o, self) if swap else (self, o)
        dt = _promote(a.dtype, b.dtype, op)
        p = _PREC[op]
        left = a.expr if a.prec <= p else f"({a.expr})"
        right = b.expr if b.prec < p else f"({b.expr})"
        return Value(f"{left} {op} {right}", result or dt, p)

    def __add__(self, o): return self._binary(o, "+")
    def __radd__(self, o): return self._binary(o, "+", True)
    def __sub__(self, o): return self._binary(o, "-")
    def __rsub__(self, o): return self._binary(o, "-", True)
    def __mul__(self, o): return self._binary(o, "*")
    def __rmul__(self, o): return self._binary(o, "*", True)

    def __floordiv__(self, o):
        self._int_only("//")
        return self._binary(o, "/")

    def __rfloordiv__(self, o):
        self._int_only("//")
        return self._binary(o, "/", True)

    def __truediv__(self, o):
        if self.dtype.kind != "float":
            fail("'/' of run-time integers: write // (C++ integer division) or convert to a float first")
        return self._binary(o, "/")

    def __rtruediv__(self, o):
        if self.dtype.kind != "float":
            fail("'/' of run-time integers: write // (C++ integer division) or convert to a float first")
        return self._binary(o, "/", True)

    def __mod__(self, o):
        self._int_only("%")
        return self._binary(o, "%")

    def __rmod__(self, o):
        self._int_only("%")
        return self._binary(o, "%", True)

    def __lshift__(self, o): return self._binary(o, "<<")
    def __rshift__(self, o): return self._binary(o, ">>")
    def __and__(self, o): return self._binary(o, "&")
    def __rand__(self, o): return self._binary(o, "&", True)
    def __or__(self, o): return self._binary(o, "|")
    def __ror__(self, o): return self._binary(o, "|", True)
    def __xor__(self, o): return self._binary(o, "^")
    def __lt__(self, o): return self._binary(o, "<", result=Boolean)
    def __le__(self, o): return self._binary(o, "<=", result=Boolean)
    def __gt__(self, o): return self._binary(o, ">", result=Boolean)
    def __ge__(self, o): return self._binary(o, ">=", result=Boolean)
    def __eq__(self, o): return self._binary(o, "==", result=Boolean)
    def __ne__(self, o): return self._binary(o, "!=", result=Boolean)
    __hash__ = object.__hash__

    def __neg__(self):
        # a negative literal ("-1.0f") is a name's precedence but starts with a minus: -(-1.0f), not --1.0f
        simple = self.prec == 0 and not self.expr.startswith("-")
        return Value(f"-{self.expr}" if simple else f"-({self.expr})", self.dtype, 3)

    def _int_only(self, op):
        if self.dtype.kind != "int":
            fail(f"'{op}' of a {self.dtype}: defined for run-time integers only")

    def to(self, dtype):
        """This value converted to ``dtype`` (``static_cast``)."""
        dtype = dtype_of(dtype)
        if dtype is self.dtype:
            return self
        return Value(f"static_cast<{dtype.cxx}>({self.expr})", dtype, 0)

    def __bool__(self):
        fail(
            "a run-time value decides a Python `if`, `while`, `and`/`or` or `not`: Python control flow "
            "runs while the kernel is traced; write `with tessera.if_(cond):` (and `tessera.else_()`) "
            "for a branch in the kernel, or tessera.where(cond, a, b)"
        )

    def __index__(self):
        fail(
            "a run-time value where Python needs an int (a Python range, a list index, a layout's shape): "
            "loop with tessera.range(...), which becomes a C++ loop; shapes must be compile-time values"
        )

    __int__ = __index__

    def __float__(self):
        fail("a run-time value where Python needs a float: the kernel's values exist only on the GPU")

    def __iter__(self):
        fail("a run-time scalar is not iterable")

    def __str__(self):
        return "?"

    def __repr__(self):
        return f"Value<{self.dtype.name}>(?)"

    def __format__(self, spec):
        return "?"


def bind(value, hint=None):
    """``value`` as a named C++ variable (``auto name = expr;``) unless it is one already."""
    b = _trace.current()
    if value.prec == 0 and value.expr.startswith("\x00") and value.expr.endswith("\x00") and value.expr.count("\x00") == 2:
        return value
    v = b.var(hint)
    b.emit(f"{value.dtype.cxx} {v.token} = {value.expr};")
    value.expr, value.prec = v.token, 0
    return value


# ---- static integers and the C++ they are spelled as -----------------------------------------------


def static(x):
    """``x`` with its Python ints made static (S), recursively in tuples; other values unchanged."""
    if isinstance(x, bool):
        return x
    if isinstance(x, int) and not isinstance(x, S):
        return S(x)
    if isinstance(x, (tuple, list)):
        return tuple(static(e) for e in x)
    return x


def pow2_divisor(n):
    n = abs(int(n))
    return n & -n if n else 1 << 62


def leaves(t):
    if isinstance(t, tuple):
        for e in t:
            yield from leaves(e)
    else:
        yield t


def _zero(coord):
    """``coord`` with run-time values made 0 and None made the algebra's underscore."""
    from .._types import underscore

    if coord is None:
        return underscore
    if isinstance(coord, Value):
        return S(0)
    if isinstance(coord, (tuple, list)):
        return tuple(_zero(c) for c in coord)
    return static(coord)


def _dynamic_gcd(coord, shape, stride):
    """The gcd of the strides that run-time values of ``coord`` multiply (0: none). A run-time
    stride counts by the power of two that divides the value traced (so the C++ depends on that
    divisibility, not on the value: another divisibility writes other C++)."""
    if coord is None:
        return 0
    if isinstance(coord, Value):
        g = 0
        for sh, st in zip(leaves(shape), leaves(stride)):
            if not isinstance(sh, S) or int(sh) != 1:
                g = math.gcd(g, int(st) if isinstance(st, S) else pow2_divisor(int(st)))
        return g
    if isinstance(coord, (tuple, list)):
        if not isinstance(shape, tuple):
            fail(f"the coordinate {fmt_coord(coord)} has more modes than the shape {shape}")
        if len(coord) != len(shape):
            fail(f"a coordinate of {len(coord)} modes indexes a shape of {len(shape)} modes: {fmt_coord(coord)} into {shape}")
        g = 0
        for c, sh, st in zip(coord, shape, stride):
            g = math.gcd(g, _dynamic_gcd(c, sh, st))
        return g
    if int(coord) != 0 and not all(isinstance(x, S) for x in list(leaves(shape)) + list(leaves(stride))):
        g = 0  # a static coordinate times run-time strides: multiples of their divisibility
        for st in leaves(stride):
            if not isinstance(st, S):
                g = math.gcd(g, pow2_divisor(int(st)))
        return g or 1
    return 0


def has_dynamic(coord):
    if isinstance(coord, Value):
        return True
    if isinstance(coord, (tuple, list)):
        return any(has_dynamic(c) for c in coord)
    return False


def has_slice(coord):
    if coord is None:
        return True
    if isinstance(coord, (tuple, list)):
        return any(has_slice(c) for c in coord)
    return False


def fmt_coord(c):
    if c is None:
        return "None"
    if isinstance(c, Value):
        return "?"
    if isinstance(c, (tuple, list)):
        return "(" + ",".join(fmt_coord(e) for e in c) + ")"
    return str(int(c))


def check_congruent(coord, shape, what):
    """KernelError when ``coord`` does not fit ``shape`` (an int coordinate may index any mode)."""
    if coord is None or isinstance(coord, Value) or not isinstance(coord, (tuple, list)):
        if not (coord is None or isinstance(coord, (Value, int))):
            fail(f"{what}: a coordinate is ints, run-time ints, None or tuples of them; got {type(coord).__name__}")
        return
    if not isinstance(shape, tuple):
        fail(f"{what}: the coordinate {fmt_coord(coord)} has more modes than the shape {shape}")
    if len(coord) != len(shape):
        fail(f"{what}: a coordinate of {len(coord)} modes for a shape of rank {len(shape)} {shape}")
    for c, s in zip(coord, shape):
        check_congruent(c, s, what)


# ---- tensors --------------------------------------------------------------------------------------

_SPACE_PTR = {"gmem": "gmem_ptr", "smem": "smem_ptr", "rmem": "rmem_ptr"}



def pointer_plus(ptr, index):
    """C++ of ``ptr + index``: a sum of terms gets parentheses, so that it is summed as an index
    (its type fits it: KernelTrace.index) and added to the 64-bit pointer once, not term by term."""
    if not index or index == "0":
        return ptr
    return f"{ptr} + ({index})" if (" + " in index or " - " in index or "^" in index) else f"{ptr} + {index}"


class Tensor:
    """A tensor of a kernel or launch function: element type, memory space, static layout, the
    alignment its pointer is known to have (bytes), and where its data is: a C++ variable in a
    kernel (``var``), or an argument of the launch function and an element offset (``arg``)."""

    _tessera_lang = True

    def __init__(self, dtype, space, layout, align, var=None, arg=None, offset=0, root=None, swizzle=None,
                 origin=(0, ())):
        self.dtype, self.space, self.layout, self.align = dtype, space, layout, align
        self.var, self.arg, self.offset = var, arg, offset
        self.root = root if root is not None else self  # the tensor whose memory this views
        # A swizzled tensor (shared memory allocated with a ComposedLayout Sw o L): ``var`` is the
        # allocation, ``origin`` the view's offset before the swizzle (static int, C++ terms), and
        # element k of the view is at swizzle(origin + layout(k)).
        self.swizzle, self.origin = swizzle, origin

    def index_of(self, k):
        """C++ of the index, from ``var``, of the element at offset ``k`` (an int or C++) of the view."""
        if self.swizzle is None:
            return str(k) if k != "" else "0"
        st, terms = self.origin
        if isinstance(k, int) and not terms:
            return str(int(self.swizzle(S(st + k))))
        parts = list(terms) + ([str(st + k)] if isinstance(k, int) else ([str(st)] if st else []) + [f"({k})"])
        x = " + ".join(p for p in parts if p not in ("0", "")) or "0"
        return swizzle_expr(self.swizzle, x)

    def address(self, k):
        """C++ of the address of the element at offset ``k`` of the view."""
        i = self.index_of(k)
        if i == "0":
            return self.var.token
        return pointer_plus(self.var.token, i)

    def make_view(self, layout, off=0, terms=(), g=0):
        """This tensor viewed through ``layout`` at ``off`` + ``terms`` elements (run-time parts
        multiples of ``g``): a pointer, or for a swizzled tensor a new origin."""
        a = self.align
        if off:
            a = min(a, pow2_divisor(off * self.dtype.bytes))
        if g:
            a = min(a, pow2_divisor(g * self.dtype.bytes))
        if self.var is None:
            if g or terms:
                fail("run-time coordinates select a tile only inside a kernel")
            return Tensor(self.dtype, self.space, layout, a, arg=self.arg, offset=self.offset + off, root=self.root)
        b = _trace.current()
        if self.swizzle is not None:
            st, old = self.origin
            terms = list(old) + list(terms)
            if terms:
                v = b.var()
                b.emit(f"int {v.token} = {' + '.join(terms)};  // origin of {fmt_layout(layout)} in {self.swizzle}")
                terms = [v.token]
                view = Tensor(self.dtype, self.space, layout, a, var=self.var, root=self.root, swizzle=self.swizzle,
                              origin=(st + off, tuple(terms)))
                view.origin_var = v
                return view
            return Tensor(self.dtype, self.space, layout, a, var=self.var, root=self.root, swizzle=self.swizzle,
                          origin=(st + off, ()))
        from ._lower import offset_expr

        v = b.var()
        e = offset_expr(off, list(terms))
        b.emit(f"auto {v.token} = {pointer_plus(self.var.token, e)};  // {fmt_layout(layout)}")
        return Tensor(self.dtype, self.space, layout, a, var=v, root=self.root)

    # -- what the algebra and printing see
    @property
    def element_type(self):
        return self.dtype

    @property
    def _shape(self):
        return _tessera.call("shape", self.layout)

    @property
    def _stride(self):
        return _tessera.call("stride", self.layout)

    @property
    def shape(self):
        """The extents: ints (static ones as S); in a kernel a run-time extent is a run-time value."""
        return kernel_ints(self._shape) if self.var is not None else self._shape

    @property
    def stride(self):
        return kernel_ints(self._stride) if self.var is not None else self._stride

    @property
    def memspace(self):
        return self.space

    @property
    def type(self):
        return self

    @property
    def iterator(self):
        return f"{_SPACE_PTR[self.space]}[{self.dtype.width}b](align<{self.align}>)"

    def __str__(self):
        sw = f"{self.swizzle} o " if self.swizzle is not None else ""
        return f"tensor<{_SPACE_PTR[self.space]}[{self.dtype.width}b] align<{min(self.align, 1 << 20)}> o {sw}{self.layout}>"

    __repr__ = __str__

    def __format__(self, spec):
        return str(self)

    def _kernel_check(self):
        if self.var is None:
            fail("this tensor lives in the launch function (the host): pass it to a kernel to index it")

    # -- indexing and slicing
    def _coord(self, key):
        if isinstance(key, list):
            key = tuple(key)
        shape = self._shape
        rank = len(shape) if isinstance(shape, tuple) else 1
        if isinstance(key, tuple) and rank == 1 and len(key) != 1 and not isinstance(shape, tuple):
            fail(f"a rank-1 tensor indexed with {len(key)} coordinates: {self}")
        if isinstance(key, tuple):
            if len(key) != rank and not (len(key) == 1 and rank == 1):
                fail(
                    f"a rank-{rank} tensor indexed with {len(key)} coordinates {fmt_coord(key)}: {self} "
                    f"takes {rank} (or one integer: the position in its {int(_tessera.call('size', self.layout))} elements)"
                )
            check_congruent(key if rank > 1 else key[0], shape, "tensor index")
        else:
            check_congruent(key, shape, "tensor index")
        return key

    def _slice_layout(self, key):
        """(layout of the slice, static element offset, gcd of the run-time offsets)."""
        z = _zero(key)
        layout = self.layout
        if isinstance(key, tuple) and len(key) == 1 and not isinstance(self._shape, tuple):
            z = z[0]
        if has_slice(key):
            sliced = _tessera.call("slice", z, layout)
        else:
            sliced = None
        zero_c = _zero_slices(z)
        off = int(_tessera.call("crd2idx", zero_c, self._shape, self._stride)) if not isinstance(zero_c, Underscore) else 0
        g = _dynamic_gcd(key if not (isinstance(key, tuple) and len(key) == 1 and not isinstance(self._shape, tuple)) else key[0],
                         self._shape, self._stride)
        return sliced, off, g

    def _aligned(self, off, g):
        a = self.align
        if off:
            a = min(a, pow2_divisor(off * self.dtype.bytes))
        if g:
            a = min(a, pow2_divisor(g * self.dtype.bytes))
        return a

    def __getitem__(self, key):
        key = self._coord(key)
        sliced, off, g = self._slice_layout(key)
        if self.var is None:  # the launch function: views with static offsets only
            if has_dynamic(key):
                fail("run-time coordinates index a tensor only inside a kernel")
            if sliced is None:
                fail("reading an element of a tensor runs on the GPU: do it inside a kernel")
            return Tensor(self.dtype, self.space, sliced, self._aligned(off, 0), arg=self.arg,
                          offset=self.offset + off, root=self.root)
        b = _trace.current()
        if sliced is None:  # an element
            v = b.var()
            b.emit(f"{self.dtype.cxx} {v.token} = {self.var.token}[{self.index_of(self._offset(key))}];")
            return Value(v.token, self.dtype)
        return self._slice_view(key, sliced, g)

    def _slice_view(self, key, sliced, g):
        from ._lower import coord_offset

        st, terms = coord_offset(self._flat_key(key), self._shape, self._stride)
        return self.make_view(sliced, st, terms, g)

    def _flat_key(self, key):
        if isinstance(key, tuple) and len(key) == 1 and not isinstance(self._shape, tuple):
            return key[0]
        return key

    def _offset(self, key):
        """C++ of the element offset of coordinate ``key`` ('' for 0)."""
        from ._lower import coord_offset, offset_expr

        st, terms = coord_offset(self._flat_key(key), self._shape, self._stride)
        return offset_expr(st, terms)

    def _static_off(self, key):
        from ._lower import coord_offset

        return coord_offset(_zero_values(self._flat_key(key)), self._shape, self._stride)[0]

    def __setitem__(self, key, value):
        self._kernel_check()
        key = self._coord(key)
        sliced, off, g = self._slice_layout(key)
        b = _trace.current()
        self.root.written = True
        if sliced is None:
            val = as_value(value, self.dtype, "a store into this tensor")
            b.emit(f"{self.var.token}[{self.index_of(self._offset(key))}] = {val.expr};")
            return
        dst = self if (isinstance(key, tuple) and all(k is None for k in key)) or key is None else None
        if dst is None:
            dst = self._slice_view(key, sliced, g)
        dst.store(value)

    # -- loads and stores of whole tensors
    def load(self):
        """The tensor's values in registers (a fragment of the same shape): a value, as CuTeDSL's
        load is (a fragment's load is a copy of it, so a later store to the fragment leaves it)."""
        self._kernel_check()
        frag = make_fragment(self.layout, self.dtype, like=True)
        copy_values(self, frag)
        return frag

    def store(self, value):
        """Writes ``value`` (a fragment or element-wise expression of this tensor's size and
        element type, or a scalar broadcast to every element) into the tensor."""
        self._kernel_check()
        self.root.written = True
        b = _trace.current()
        if isinstance(value, (Value, int, float)) and not isinstance(value, bool):
            val = as_value(value, self.dtype, "a store into this tensor")
            from ._lower import _affine, _lin, element_offsets

            offs = element_offsets(self.layout)
            aff = _affine(offs) if self.swizzle is None else None
            if aff is not None and len(offs) > 2:
                i = b.var("i")
                b.emit("#pragma unroll")
                b.emit(f"for (int {i.token} = 0; {i.token} < {len(offs)}; ++{i.token}) "
                       f"{self.var.token}[{_lin(aff, i.token) or '0'}] = {val.expr};")
            else:
                for o in offs:
                    b.emit(f"{self.var.token}[{self.index_of(o)}] = {val.expr};")
            return
        if isinstance(value, FragmentExpr):
            value = value.materialize(like=self.layout)
        if not isinstance(value, Tensor):
            fail(f"a tensor stores a fragment, an element-wise expression or a scalar, not {type(value).__name__}")
        if value.dtype is not self.dtype:
            fail(
                f"a {value.dtype} fragment stored into a {self.dtype} tensor: convert it first "
                f"(fragment.to(tessera.{_DTYPE_NAMES[self.dtype.name]}))"
            )
        if int(_tessera.call("size", value.layout)) != int(_tessera.call("size", self.layout)):
            fail(f"a fragment of {_tessera.call('size', value.layout)} values stored into a tensor of "
                 f"{_tessera.call('size', self.layout)}: {value.layout} into {self.layout}")
        copy_values(value, self)

    def fill(self, value):
        self.store(value)

    # -- element-wise arithmetic on fragments (a loaded tensor)
    def _fexpr(self):
        if self.space != "rmem":
            fail("element-wise arithmetic works on fragments: call .load() on a tensor in memory first")
        from ._lower import index_to_offset

        return FragmentExpr(self.layout, self.dtype,
                            lambda i: f"{self.var.token}[{self.index_of(index_to_offset(self.layout, i))}]")

    def __add__(self, o): return self._fexpr() + o
    def __radd__(self, o): return o + self._fexpr()
    def __sub__(self, o): return self._fexpr() - o
    def __rsub__(self, o): return FragmentExpr.lift(o, self._fexpr()) - self._fexpr()
    def __mul__(self, o): return self._fexpr() * o
    def __rmul__(self, o): return self._fexpr() * o
    def __truediv__(self, o): return self._fexpr() / o
    def __neg__(self): return -self._fexpr()

    def to(self, dtype):
        return self._fexpr().to(dtype)

    def __bool__(self):
        fail("a tensor has no truth value in a kernel")

    def __len__(self):
        shape = self._shape
        return len(shape) if isinstance(shape, tuple) else 1


def swizzle_expr(sw, x):
    """C++ of Sw<B,M,S> applied to the offset ``x`` (core/swizzle.hpp's Swizzle::apply, written out)."""
    bits, base, shift = int(sw.bits), int(sw.base), int(sw.shift)
    mask = ((1 << bits) - 1) << base
    if bits == 0:
        return x
    x = x if x.replace("_", "").isalnum() or (x.count("\x00") == 2 and x[0] == x[-1] == "\x00") else f"({x})"
    if shift >= 0:
        return f"{x} ^ ({x} >> {shift} & {mask})"
    return f"{x} ^ (({x} & {mask}) << {-shift})"


def kernel_ints(x):
    """``x`` (ints, static ones as S, in tuples) with each run-time int made a run-time value that
    reads the launch's value (so that the kernel's C++ holds no value of a run-time extent)."""
    if isinstance(x, tuple):
        return tuple(kernel_ints(e) for e in x)
    if isinstance(x, int) and not isinstance(x, (S, bool)):
        from ._api import _CURRENT

        kt = _CURRENT["kernel"]
        if kt is not None:
            return Value(f"int({kt.dyn_slot(x)})", Int32)
    return x


def fmt_layout(layout):
    """A layout as the library prints it, run-time ints as '?' (the C++ comments: the generated
    source must not depend on a run-time value)."""

    def f(x):
        if isinstance(x, tuple):
            return "(" + ",".join(f(e) for e in x) + ")"
        return f"_{int(x)}" if isinstance(x, S) else "?"

    shape, stride = _tessera.call("shape", layout), _tessera.call("stride", layout)
    if all(isinstance(x, S) for x in list(leaves(shape)) + list(leaves(stride))):
        return str(layout)
    return f"{f(shape)}:{f(stride)}"


def _zero_values(c):
    """``c`` with run-time values made 0 (the static part of an offset)."""
    if isinstance(c, Value):
        return 0
    if isinstance(c, (tuple, list)):
        return tuple(_zero_values(e) for e in c)
    return c


def _zero_slices(z):
    if isinstance(z, Underscore):
        return S(0)
    if isinstance(z, tuple):
        return tuple(_zero_slices(e) for e in z)
    return z


def as_value(x, dtype, what):
    """``x`` (a Value or a Python number) as a Value of ``dtype``; KernelError when the types differ."""
    if isinstance(x, Value):
        if x.dtype is not dtype:
            fail(
                f"{what}: a {x.dtype} value where a {dtype} is needed; convert it "
                f"(x.to(tessera.{_DTYPE_NAMES[dtype.name]}))"
            )
        return x
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        fail(f"{what}: expected a run-time value or a number, got {type(x).__name__}")
    if isinstance(x, float) and dtype.kind == "int":
        fail(f"{what}: a Python float where a {dtype} is needed")
    return Value(literal(x, dtype), dtype)


def make_fragment(layout, dtype, hint=None, like=False):
    """A register tensor over the compact layout of ``layout``'s shape (column-major; with
    ``like``, in the order of ``layout``'s strides, so that copies to and from it vectorize): an
    array of its size."""
    b = _trace.current()
    shape = _tessera.call("shape", layout)
    compact = _tessera.call("make_layout_like", layout) if like else _tessera.call("make_layout", shape)
    n = int(_tessera.call("size", compact))
    v = b.var(hint)
    b.emit(f"alignas(16) {dtype.cxx} {v.token}[{n}];  // {fmt_layout(compact)}")
    return Tensor(dtype, "rmem", compact, 16, var=v)


def copy_values(src, dst):
    """dst(i) = src(i) with the widest accesses the layouts and both pointers' alignment allow."""
    from ._lower import emit_copy

    emit_copy(_trace.current(), src, dst)


class FragmentExpr:
    """An element-wise expression over fragments of one shape, written as one loop when stored."""

    _tessera_lang = True

    def __init__(self, layout, dtype, at):
        self.layout, self.dtype, self.at = layout, dtype, at  # at(i) -> C++ of element i

    @staticmethod
    def lift(x, like):
        if isinstance(x, FragmentExpr):
            return x
        if isinstance(x, Tensor):
            return x._fexpr()
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            lit = as_value(x, like.dtype, "a number in an element-wise expression")
            return FragmentExpr(like.layout, like.dtype, lambda i: lit.expr)
        if isinstance(x, Value):
            return FragmentExpr(like.layout, x.dtype, lambda i: f"({x.expr})")
        fail(f"element-wise arithmetic of a fragment and a {type(x).__name__}")

    def _binary(self, other, op, swap=False):
        o = FragmentExpr.lift(other, self)
        a, b = (o, self) if swap else (self, o)
        if a.dtype is not b.dtype:
            fail(
                f"'{op}' of a {a.dtype} fragment and a {b.dtype} one: convert one (x.to(tessera.{_DTYPE_NAMES[b.dtype.name]}))"
            )
        if int(_tessera.call("size", a.layout)) != int(_tessera.call("size", b.layout)):
            fail(f"'{op}' of fragments of {_tessera.call('size', a.layout)} and {_tessera.call('size', b.layout)} values")
        return FragmentExpr(a.layout, a.dtype, lambda i: f"({a.at(i)} {op} {b.at(i)})")

    def __add__(self, o): return self._binary(o, "+")
    def __radd__(self, o): return self._binary(o, "+", True)
    def __sub__(self, o): return self._binary(o, "-")
    def __rsub__(self, o): return self._binary(o, "-", True)
    def __mul__(self, o): return self._binary(o, "*")
    def __rmul__(self, o): return self._binary(o, "*", True)
    def __truediv__(self, o): return self._binary(o, "/")
    def __rtruediv__(self, o): return self._binary(o, "/", True)

    def __neg__(self):
        return FragmentExpr(self.layout, self.dtype, lambda i: f"(-{self.at(i)})")

    def to(self, dtype):
        dtype = dtype_of(dtype)
        if dtype is self.dtype:
            return self
        return FragmentExpr(self.layout, dtype, lambda i: f"static_cast<{dtype.cxx}>({self.at(i)})")

    def bind(self, hint=None):
        """Writes the values now into a fragment that this expression reads from then on: a local
        that holds an element-wise expression is a value (a later change of what it was computed
        from leaves it), as in Python."""
        from ._lower import index_to_offset

        out = self.materialize(hint)
        self.layout = out.layout
        self.at = lambda i: f"{out.var.token}[{index_to_offset(out.layout, i)}]"
        return out

    def materialize(self, hint=None, like=None):
        """The values in a new fragment (compact, or in the stride order of the layout ``like``)."""
        from ._lower import index_to_offset

        b = _trace.current()
        out = make_fragment(like if like is not None else self.layout, self.dtype, hint, like=like is not None)
        i = b.var()
        b.name_var(i, "i")
        n = int(_tessera.call("size", self.layout))
        b.emit("#pragma unroll")
        expr = self.at(i.token)
        if expr.startswith("(") and expr.endswith(")"):
            expr = expr[1:-1]
        b.emit(f"for (int {i.token} = 0; {i.token} < {n}; ++{i.token}) "
               f"{out.var.token}[{index_to_offset(out.layout, i.token)}] = {expr};")
        return out

    def load(self):
        return self.materialize()

    @property
    def shape(self):
        return _tessera.call("shape", self.layout)

    @property
    def element_type(self):
        return self.dtype

    def __str__(self):
        return f"fragment<{self.dtype.name}> o {self.layout}"

    def __bool__(self):
        fail("a fragment has no truth value in a kernel")
