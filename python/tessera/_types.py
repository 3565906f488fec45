"""The Python values of the algebra that are not bound C++ classes: static integers, integer
tuples, booleans, tuples of values and the slicing wildcard, plus the one exception type.

Each prints (``str``) in the library's notation, exactly as ``tessera eval`` prints it, and is
what the extension module returns for such results (``tessera._tessera`` converts to and from them).
"""

import operator


class S(int):
    """A static integer: known at compile time in the C++ library, printed ``_8``.

    Precondition: ``value`` is an integer (anything with ``__index__``, not a bool).
    Postcondition: ``S(v) == v`` and ``hash(S(v)) == hash(v)``; ``str(S(v)) == "_" + str(v)``;
    passed to the algebra it is the static integer ``_v`` (a plain ``int`` is dynamic).
    Arithmetic on it gives plain (dynamic) ints, as mixing in a run-time value does in C++.

    Example:
        >>> print(tessera.make_layout((tessera.S(2), 4), (4, tessera.S(1))))
        (_2,4):(4,_1)
    """

    __slots__ = ()

    def __new__(cls, value):
        if isinstance(value, bool):
            raise TypeError("tessera.S: a bool is not an integer of the algebra; use S(0) or S(1)")
        return super().__new__(cls, operator.index(value))

    def __repr__(self):
        return "S(%d)" % int(self)

    def __str__(self):
        return "_%d" % int(self)

    def __format__(self, spec):
        return str(self) if spec == "" else int.__format__(int(self), spec)


class Basis:
    """A basis element ``v@N``: the value ``v`` along coordinate mode ``N`` (the core's
    ``ScaledBasis``; ``E<N>`` is ``Basis(S(1), N)``), the stride of a coordinate layout such as
    ``make_identity_layout``'s. Printed as the library prints it: ``_1@0``, ``4@1``.

    Precondition: ``value`` an int (``S(v)`` for a static value), ``mode`` an int in [0, 65535].
    Postcondition: ``str(Basis(v, n)) == str(v) + "@" + str(n)``; equal when value and mode are
    (static-ness ignored, as ``S(8) == 8``).

    Example:
        >>> b = tessera.Basis(tessera.S(1), 1)
        >>> str(b), str(tessera.make_layout((4, 8), (tessera.Basis(tessera.S(1), 0), b)))
        ('_1@1', '(4,8):(_1@0,_1@1)')
    """

    __slots__ = ("value", "mode")

    def __init__(self, value, mode):
        if isinstance(value, bool) or isinstance(mode, bool):
            raise TypeError("tessera.Basis: a bool is not an integer of the algebra")
        self.value = value if isinstance(value, S) else operator.index(value)
        self.mode = operator.index(mode)
        if not 0 <= self.mode <= 65535:
            raise ValueError("tessera.Basis: the mode must be in [0, 65535], got %d" % self.mode)

    def __eq__(self, other):
        if isinstance(other, Basis):
            return int(self.value) == int(other.value) and self.mode == other.mode
        return NotImplemented

    def __hash__(self):
        return hash((int(self.value), self.mode))

    def __repr__(self):
        return "Basis(%r, %d)" % (self.value, self.mode)

    def __str__(self):
        return "%s@%d" % (self.value, self.mode)


class IntTuple(tuple):
    """A tuple of integers (nested) as the algebra returns it: a shape, a stride, a coordinate.

    It is a plain Python tuple (indexing, iteration, ``==``, hashing: static-ness ignored, as
    ``S(8) == 8``) whose ``str`` is the library's notation: ``(_2,4)``, ``(_8)`` for rank 1.

    Example:
        >>> L = tessera.layout("(_2,(3,4)):(_1,(2,6))")
        >>> L.shape == (2, (3, 4)), str(L.shape), repr(L.stride)
        (True, '(_2,(3,4))', '(S(1), (2, 6))')
    """

    __slots__ = ()

    def __str__(self):
        return "(" + ",".join(str(x) for x in self) + ")"


class ValueTuple(tuple):
    """A tuple of values of several kinds: a tiler ``[L0, L1]``, or a pair the algebra returns.

    ``str`` prints it as the library does: ``(_4:_1,_8:_2)``. Passed back to the algebra it is a
    tiler, as a Python list is.
    """

    __slots__ = ()

    def __str__(self):
        return "(" + ",".join(str(x) for x in self) + ")"

    def __repr__(self):
        return type(self).__name__ + "(" + tuple.__repr__(self) + ")"


class TVLayout(ValueTuple):
    """What ``make_layout_tv(thr, val)`` returns: the pair ``(tiler, tv)``, where ``tv`` maps
    (thread, value) to the index of an element in the ``tiler``-shaped tile.

    Unpacks as a pair (``tiler, tv = tessera.make_layout_tv(thr, val)``) and draws as the
    thread-value picture of ``tessera show`` in Jupyter.
    """

    __slots__ = ()

    @property
    def tiler(self):
        """The tile shape, e.g. ``(_16,_256)``."""
        return self[0]

    @property
    def tv(self):
        """The (thread, value) -> tile index layout."""
        return self[1]

    def _repr_svg_(self):
        from . import _tessera

        try:
            return _tessera.show(self, "svg", False, None)
        except LayoutError:
            return None


class Text(str):
    """Text a function returns (print_layout's table). It is a str; passed back to the algebra it
    stays text (as in an expression), where any other str is parsed as an expression."""

    __slots__ = ()


class Bool:
    """A predicate's result, static (``_true``) or not (``true``), as the algebra decides it.

    Behaves as a bool (``if``, ``==`` with bools); ``str`` gives the library's notation.

    Example:
        >>> r = tessera.compatible(24, (4, 6))
        >>> bool(r), str(r), r == True
        (True, 'true', True)
    """

    __slots__ = ("value", "is_static")

    def __init__(self, value, static=False):
        self.value = bool(value)
        self.is_static = bool(static)

    def __bool__(self):
        return self.value

    def __eq__(self, other):
        if isinstance(other, (Bool, bool)):
            return self.value == bool(other)
        return NotImplemented

    def __hash__(self):
        return hash(self.value)

    def __str__(self):
        return ("_" if self.is_static else "") + ("true" if self.value else "false")

    def __repr__(self):
        return "Bool(%r, static=%r)" % (self.value, self.is_static)


class Underscore:
    """The slicing wildcard ``_``: ``L(2, tessera._)`` keeps mode 1 (``None`` does the same)."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "_"

    __str__ = __repr__

    def __reduce__(self):
        return (Underscore, ())


underscore = Underscore()


class LayoutError(ValueError):
    """An impossible request: the C++ library's ``tessera::layout_error``, with its message.

    ``str(e)`` is the whole message, as ``tessera eval`` prints it after ``error: `` (for an
    expression given as text it ends with ``at input column N``); ``e.message`` is the message
    without the column and ``e.column`` the 1-based byte column of the expression text, or None
    when the error does not come from parsing or evaluating text.

    Example:
        >>> try:
        ...     tessera.composition("(4,8):(1,100)", "3:3")
        ... except tessera.LayoutError as e:
        ...     print(e.message.split(" do not")[0], e.column)
        composition: stride 3 of B = 3:3 and mode size 4 of A = (4,8):(1,100) None
    """

    def __init__(self, what, message=None, column=None):
        super().__init__(what)
        self.message = what if message is None else message
        self.column = column
