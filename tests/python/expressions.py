"""Expressions of `tessera eval` as syntax trees, for tests that compute them through the Python API.

A tree is what ``tessera._tessera.syntax_tree(text)`` returns for a parsed expression:
``(kind, value, children)`` with kind one of integer (value: int or S), underscore, tuple, tiler,
layout (children: shape, stride), swizzle (value: (B, M, S)), call (value: the function's name),
apply (children: callee, coordinates...), composed (children: the terms), name (value: an atom's
name). ``text(tree)`` prints a tree as an expression; ``build(tree)`` computes it with the Python
API alone (Python ints and tuples, tessera.Layout, the package's functions, calling a layout), so
comparing ``str(build(tree))`` with ``tessera eval``'s line checks the Python layer against the
command. ``RandomExpressions`` makes seeded random trees over every function of the evaluator.
"""

import random

import tessera


# ---- printing and building -------------------------------------------------------------------------

def text(tree):
    """The expression text of a tree (the inverse of syntax_tree, up to spacing)."""
    kind, value, kids = tree
    if kind == "integer":
        return str(value)
    if kind == "underscore":
        return "_"
    if kind == "tuple":
        return "(" + ",".join(text(k) for k in kids) + ")"
    if kind == "tiler":
        return "[" + ",".join(text(k) for k in kids) + "]"
    if kind == "layout":
        return text(kids[0]) + ":" + text(kids[1])
    if kind == "swizzle":
        return "Sw<%d,%d,%d>" % tuple(value)
    if kind == "call":
        return value + "(" + ",".join(text(k) for k in kids) + ")"
    if kind == "apply":
        return text(kids[0]) + "(" + ",".join(text(k) for k in kids[1:]) + ")"
    if kind == "composed":
        return " o ".join(text(k) for k in kids)
    if kind == "name":
        return value
    raise ValueError("unknown node kind " + kind)


def build(tree):
    """The value of a tree computed through the Python API (raises tessera.LayoutError as it does)."""
    kind, value, kids = tree
    if kind == "integer":
        if isinstance(value, tessera.Basis):  # v@N: a basis element
            return value
        return tessera.S(value) if isinstance(value, tessera.S) else int(value)
    if kind == "underscore":
        return None
    if kind == "tuple":
        return tuple(build(k) for k in kids)
    if kind == "tiler":
        return [build(k) for k in kids]
    if kind == "layout":
        return tessera.Layout(build(kids[0]), build(kids[1]))
    if kind == "swizzle":
        return tessera.Swizzle(*value)
    if kind == "call":
        return getattr(tessera, value)(*[build(k) for k in kids])
    if kind == "apply":
        callee = build(kids[0])
        coord = [build(k) for k in kids[1:]]
        functions = (tessera.Layout, tessera.ComposedLayout, tessera.Swizzle)
        if isinstance(callee, tuple) and len(callee) == 1 and isinstance(callee[0], functions):
            callee = callee[0]  # (Sw<..> o L)(c): the parentheses group the function
        if isinstance(callee, functions):
            return callee(*coord)
        # A shape used as a function: the evaluator's generic application.
        return tessera._tessera.apply(callee, *coord)
    if kind == "composed":
        return tessera.ComposedLayout(*[build(k) for k in kids])
    if kind == "name":
        return tessera.atom(value)
    raise ValueError("unknown node kind " + kind)


# ---- tree constructors ---------------------------------------------------------------------------------

def integer(v, static):
    return ("integer", tessera.S(v) if static else v, ())


def tup(*kids):
    return ("tuple", None, tuple(kids))


def tiler(*kids):
    return ("tiler", None, tuple(kids))


def call(name, *args):
    return ("call", name, tuple(args))


UNDERSCORE = ("underscore", None, ())


# ---- random expressions -----------------------------------------------------------------------------

MMA_ATOMS = ["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
             "UniversalFMA<float>", "SM90_64x8x16_F32F16F16_SS", "SM90_64x16x16_F32BF16BF16_RS"]
COPY_OPS = ["SM75_U32x4_LDSM_N", "SM75_U32x1_LDSM_N", "SM75_U16x8_LDSM_T", "UniversalCopy<uint32_t>",
            "UniversalCopy<uint128_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "SM90_U32x4_STSM_N"]
ELEMENT_TYPES = ["half_t", "float", "bfloat16_t", "uint8_t", "double"]


class RandomExpressions:
    """Seeded random expressions over every function of the evaluator: mostly well-formed calls
    with small static, dynamic and mixed operands (so that most evaluate), plus a share of wrong
    operands, arities and indices (so that errors are compared too). Operands nest calls."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    # -- integers and tuples --
    def static_p(self):
        return self.r.choice([0.0, 0.5, 1.0, 1.0])

    def leaf(self, values, p):
        return integer(self.r.choice(values), self.r.random() < p)

    def shape(self, p=None, leaves=None, depth=2):
        """A shape of 1..4 top-level modes, each a leaf or a tuple of 2 leaves (depth <= 2)."""
        p = self.static_p() if p is None else p
        values = leaves or [1, 2, 2, 4, 4, 8, 3, 6]
        if self.r.random() < 0.2:
            return self.leaf(values, p)
        modes = []
        for _ in range(self.r.choice([1, 2, 2, 2, 3, 3, 4])):
            if depth > 1 and self.r.random() < 0.3:
                modes.append(tup(*[self.leaf(values, p) for _ in range(self.r.choice([1, 2, 2]))]))
            else:
                modes.append(self.leaf(values, p))
        return tup(*modes)

    def stride_like(self, shape, p, kind):
        """A stride congruent with shape: compact (column- or row-major), powers of two, or random."""
        leaves = []

        def collect(t):
            if t[0] == "tuple":
                for k in t[2]:
                    collect(k)
            else:
                leaves.append(int(t[1]))

        collect(shape)
        if kind == "compact":
            order = list(range(len(leaves)))
            if self.r.random() < 0.4:
                self.r.shuffle(order)
            strides, cur = [0] * len(leaves), 1
            for i in order:
                strides[i] = cur
                cur *= leaves[i]
        elif kind == "pow2":
            strides = [self.r.choice([0, 1, 2, 4, 8, 16, 32, 64]) for _ in leaves]
        else:
            strides = [self.r.choice([0, 1, 2, 3, 5, 7, 12, -1, -2, 100]) for _ in leaves]
        it = iter(strides)

        def rebuild(t):
            if t[0] == "tuple":
                return tup(*[rebuild(k) for k in t[2]])
            return integer(next(it), self.r.random() < p)

        return rebuild(shape)

    def layout(self, kind=None, p=None, depth=2):
        p = self.static_p() if p is None else p
        kind = kind or self.r.choice(["compact", "compact", "compact", "pow2", "pow2", "random"])
        s = self.shape(p, depth=depth)
        return ("layout", None, (s, self.stride_like(s, p, kind)))

    def rank2_layout(self, kind="compact"):
        p = self.static_p()
        s = tup(self.leaf([1, 2, 4, 3], p), self.r.choice([self.leaf([2, 4, 8], p), tup(self.leaf([2, 4], p), self.leaf([2, 3], p))]))
        return ("layout", None, (s, self.stride_like(s, p, kind)))

    def coordinate_for(self, shape, slicing):
        if shape[0] == "tuple":
            return tup(*[self.coordinate_for(k, slicing) for k in shape[2]])
        if slicing and self.r.random() < 0.4:
            return UNDERSCORE
        n = int(shape[1])
        return integer(self.r.randrange(0, n + (1 if self.r.random() < 0.05 else 0)), self.r.random() < 0.5)

    def swizzle(self):
        b = self.r.choice([1, 2, 3])
        return ("swizzle", (b, self.r.choice([0, 1, 2, 3, 4]), self.r.choice([b, 3, 4, -3])), ())

    def composed(self):
        terms = [self.swizzle()]
        if self.r.random() < 0.5:
            terms.append(integer(self.r.choice([0, 0, 8, 16]), self.r.random() < 0.7))
        terms.append(self.layout("compact"))
        return ("composed", None, tuple(terms))

    def tiler_for(self):
        """A right operand of the divides and products: a layout, a shape, or a tiler of modes."""
        c = self.r.random()
        if c < 0.35:
            return self.layout(self.r.choice(["compact", "pow2"]), depth=1)
        if c < 0.6:
            return tup(*[self.leaf([1, 2, 4], self.static_p()) for _ in range(self.r.choice([1, 2]))])
        modes = []
        for _ in range(self.r.choice([1, 2, 2])):
            m = self.r.random()
            if m < 0.6:
                modes.append(self.layout(self.r.choice(["compact", "pow2"]), depth=1))
            elif m < 0.8:
                modes.append(self.leaf([1, 2, 4], self.static_p()))
            else:
                modes.append(UNDERSCORE)
        return tiler(*modes)

    def small_index(self, hi=4):
        return integer(self.r.randrange(-1 if self.r.random() < 0.03 else 0, hi), self.r.random() < 0.3)

    def mma_atom(self):
        return ("name", self.r.choice(MMA_ATOMS), ())

    def copy_atom(self, typed=True):
        op = self.r.choice(COPY_OPS)
        if typed:
            return ("name", "Copy_Atom<%s,%s>" % (op, self.r.choice(ELEMENT_TYPES)), ())
        return ("name", op, ())

    def tiled_mma(self):
        atom_layout = tup(*[integer(self.r.choice([1, 2]), True) for _ in range(3)])
        args = [self.mma_atom()]
        if self.r.random() < 0.8:
            args.append(atom_layout)
        return call("make_tiled_mma", *args)

    def tiled_copy(self):
        c = self.r.random()
        if c < 0.5:
            name = self.r.choice(["make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C"])
            return call(name, self.copy_atom(), self.tiled_mma())
        thr = ("layout", None, (tup(integer(self.r.choice([4, 8, 16, 32]), True), integer(self.r.choice([4, 8]), True)),
                                 tup(integer(8, True), integer(1, True))))
        thr = ("layout", None, (thr[2][0], self.stride_like(thr[2][0], 1.0, "compact")))
        val = ("layout", None, (tup(integer(1, True), integer(self.r.choice([1, 2, 4, 8]), True)), tup(integer(1, True), integer(1, True))))
        return call("make_tiled_copy", self.copy_atom(), thr, val)

    def operand(self):
        """Any layout-ish operand, sometimes a nested call that yields one."""
        c = self.r.random()
        if c < 0.12:
            return call(self.r.choice(["coalesce", "flatten", "filter", "make_layout"]), self.layout())
        if c < 0.2:
            return call("composition", self.layout("compact"), self.layout("pow2", depth=1))
        if c < 0.25:
            return self.shape()
        return self.layout()

    def wrong(self):
        """An operand of the wrong kind."""
        return self.r.choice([self.swizzle(), self.mma_atom(), integer(3, False), UNDERSCORE,
                              tiler(self.layout()), self.composed(), call("congruent", self.shape(), self.shape())])

    # -- one call per function --
    def args(self, fn):
        r = self.r
        L, T, S_ = self.operand, self.tiler_for, self.shape
        table = {
            "rank": lambda: [r.choice([L(), S_(), tiler(L(), L())])],
            "depth": lambda: [r.choice([L(), S_()])],
            "size": lambda: [r.choice([L(), S_(), self.composed()])],
            "product": lambda: [r.choice([L(), S_()])],
            "product_each": lambda: [r.choice([L(), S_()])],
            "inner_product": lambda: self.congruent_pair(),
            "shape_div": lambda: r.choice([self.congruent_pair(), [S_(), integer(r.choice([1, 2, 4]), r.random() < 0.5)]]),
            "ceil_div": lambda: r.choice([self.congruent_pair(), [S_(), integer(r.choice([1, 2, 3]), r.random() < 0.5)]]),
            "congruent": lambda: r.choice([self.congruent_pair(), [S_(), S_()], [L(), L()]]),
            "weakly_congruent": lambda: [S_(), S_()],
            "compatible": lambda: r.choice([[S_(), S_()], [integer(24, False), S_()], self.congruent_pair()]),
            "elem_less": lambda: self.congruent_pair(),
            "colex_less": lambda: self.congruent_pair(),
            "lex_less": lambda: self.congruent_pair(),
            "crd2idx": lambda: self.crd2idx_args(),
            "idx2crd": lambda: [integer(r.randrange(0, 30), r.random() < 0.5), S_()],
            "prefix_product": lambda: [S_()] + ([integer(r.choice([1, 2, 3]), r.random() < 0.5)] if r.random() < 0.4 else []),
            "equal": lambda: r.choice([[L(), L()], self.congruent_pair(), [S_(), L()]]),
            "get": lambda: [r.choice([S_(), L(), tiler(L(), S_()), self.composed()])] + [self.small_index(3) for _ in range(r.choice([1, 1, 2]))],
            "layout": lambda: [r.choice([L(), L(), self.composed()])] + [self.small_index(3) for _ in range(r.choice([0, 1, 1, 2]))],
            "shape": lambda: [r.choice([L(), S_(), self.composed()])] + [self.small_index(3) for _ in range(r.choice([0, 1, 2]))],
            "stride": lambda: [r.choice([L(), self.composed()])] + [self.small_index(3) for _ in range(r.choice([0, 1, 2]))],
            "select": lambda: [r.choice([L(), S_()])] + [self.small_index(4) for _ in range(r.choice([1, 2, 3]))],
            "take": lambda: [r.choice([L(), S_(), self.composed()]), self.small_index(3), self.small_index(5)],
            "group": lambda: [r.choice([L(), S_(), self.composed()]), self.small_index(3), self.small_index(5)],
            "flatten": lambda: [r.choice([L(), S_(), self.composed()])],
            "append": lambda: self.append_args(),
            "prepend": lambda: self.append_args(),
            "make_layout": lambda: r.choice([[S_()], [S_(), S_()], self.layout_and_stride(), [L(), L()], [L(), L(), L()]]),
            "make_layout_left": lambda: [S_()],
            "make_layout_right": lambda: [S_()],
            "make_ordered_layout": lambda: self.ordered_args(),
            "cosize": lambda: [r.choice([L(), self.composed(), S_()])],
            "coalesce": lambda: [r.choice([L(), self.composed()])] + ([self.profile()] if r.random() < 0.3 else []),
            "filter": lambda: [r.choice([L(), self.composed()])],
            "composition": lambda: r.choice([[L(), T()], [L(), L()], [self.swizzle(), self.layout("compact")],
                                              [self.swizzle(), self.swizzle()], [self.layout("pow2"), self.swizzle()],
                                              [self.composed(), T()], [self.layout("compact"), self.layout("compact")],
                                              [self.identity(), T()]]),
            "complement": lambda: [r.choice([self.layout(r.choice(["compact", "pow2"])), self.composed()])] + (
                [r.choice([integer(r.choice([8, 16, 24, 32, 64, 0]), r.random() < 0.5), S_()])] if r.random() < 0.6 else []),
            "right_inverse": lambda: [r.choice([L(), L(), self.composed_static(), self.swizzle()])],
            "left_inverse": lambda: [r.choice([self.layout(r.choice(["compact", "compact", "pow2"])), self.composed_static()])],
            "logical_divide": lambda: [r.choice([L(), self.composed(), self.identity()]), T()],
            "zipped_divide": lambda: [r.choice([L(), self.composed(), self.identity()]), T()],
            "tiled_divide": lambda: [r.choice([L(), self.composed()]), T()],
            "flat_divide": lambda: [r.choice([L(), self.composed()]), T()],
            "logical_product": lambda: [r.choice([L(), self.composed()]), T()],
            "zipped_product": lambda: [r.choice([L(), self.composed()]), T()],
            "tiled_product": lambda: [r.choice([L(), self.composed()]), T()],
            "flat_product": lambda: [r.choice([L(), self.composed()]), T()],
            "blocked_product": lambda: [r.choice([L(), self.composed()]), self.layout("compact")],
            "raked_product": lambda: [r.choice([L(), self.composed()]), self.layout("compact")],
            "tile_to_shape": lambda: self.tile_to_shape_args(),
            "make_layout_tv": lambda: [self.layout("compact", depth=1), self.layout("compact", depth=1)],
            "upcast": lambda: [r.choice([L(), L(), self.composed(), self.swizzle()]), integer(r.choice([1, 2, 4, 0]), r.random() < 0.3)],
            "downcast": lambda: [r.choice([L(), L(), self.composed(), self.swizzle()]), integer(r.choice([1, 2, 4]), r.random() < 0.3)],
            "recast": lambda: [r.choice([L(), L(), self.composed()]), integer(r.choice([8, 16, 32]), False), integer(r.choice([8, 16, 32, 0]), False)],
            "max_common_vector": lambda: [r.choice([L(), self.composed()]), r.choice([L(), self.composed()])],
            "max_common_layout": lambda: [L(), L()],
            "nullspace": lambda: [L()],
            "print_layout": lambda: [self.rank2_layout(r.choice(["compact", "pow2"]))],
            "shape_mnk": lambda: [self.mma_atom()],
            "thr_id": lambda: [r.choice([self.mma_atom(), self.copy_atom(False), self.copy_atom()])],
            "layout_a": lambda: [self.mma_atom()],
            "layout_b": lambda: [self.mma_atom()],
            "layout_c": lambda: [self.mma_atom()],
            "layout_src": lambda: [r.choice([self.copy_atom(False), self.copy_atom()])],
            "layout_dst": lambda: [r.choice([self.copy_atom(False), self.copy_atom()])],
            "layout_ref": lambda: [r.choice([self.copy_atom(False), self.copy_atom()])],
            "make_tiled_mma": lambda: list(self.tiled_mma()[2]),
            "layout_a_tv": lambda: [self.tiled_mma()],
            "layout_b_tv": lambda: [self.tiled_mma()],
            "layout_c_tv": lambda: [self.tiled_mma()],
            "tile_size": lambda: [self.tiled_mma(), self.small_index(3)],
            "thr_layout_vmnk": lambda: [self.tiled_mma()],
            "make_tiled_copy": lambda: list(self.tiled_copy_plain()[2]),
            "make_tiled_copy_A": lambda: [self.copy_atom(), self.tiled_mma()],
            "make_tiled_copy_B": lambda: [self.copy_atom(), self.tiled_mma()],
            "make_tiled_copy_C": lambda: [self.copy_atom(), self.tiled_mma()],
            "layout_s_tv": lambda: [self.tiled_copy()],
            "layout_d_tv": lambda: [self.tiled_copy()],
            "tidfrg_s": lambda: [self.tiled_copy(), self.tile_layout()],
            "tidfrg_d": lambda: [self.tiled_copy(), self.tile_layout()],
            # CuTe's integer, tuple and layout functions (issue 9)
            "round_up": lambda: r.choice([self.congruent_pair(), [integer(r.randrange(0, 30), r.random() < 0.5),
                                                                  integer(r.choice([1, 2, 4, 0]), r.random() < 0.5)]]),
            "elem_scale": lambda: r.choice([self.congruent_pair(), [integer(3, r.random() < 0.5), S_()]]),
            "filter_zeros": lambda: r.choice([[L()], self.congruent_pair(), [S_()]]),
            "gcd": lambda: [r.choice([S_(), integer(r.randrange(0, 30), r.random() < 0.5)])
                            for _ in range(r.choice([1, 2, 3]))],
            "lcm": lambda: [integer(r.randrange(0, 30), r.random() < 0.5), integer(r.randrange(0, 30), r.random() < 0.5)],
            "bit_width": lambda: [integer(r.randrange(0, 100), r.random() < 0.5)],
            "log_2": lambda: [integer(r.randrange(0, 100), r.random() < 0.5)],
            "crd2crd": lambda: [integer(r.randrange(0, 30), r.random() < 0.5), S_(), S_()],
            "elem_leq": lambda: self.congruent_pair(),
            "elem_gtr": lambda: self.congruent_pair(),
            "elem_geq": lambda: self.congruent_pair(),
            "lex_leq": lambda: self.congruent_pair(),
            "lex_gtr": lambda: self.congruent_pair(),
            "lex_geq": lambda: self.congruent_pair(),
            "colex_leq": lambda: self.congruent_pair(),
            "colex_gtr": lambda: self.congruent_pair(),
            "colex_geq": lambda: self.congruent_pair(),
            "unflatten": lambda: r.choice([[call("flatten", L()), S_()], [call("flatten", S_()), S_()]]),
            "zip": lambda: r.choice([[L()], [S_()], [S_(), S_()], [L(), L()]]),
            "front": lambda: [S_()],
            "back": lambda: [S_()],
            "replace_front": lambda: [S_(), S_()],
            "replace_back": lambda: [S_(), S_()],
            "compact_order": lambda: self.congruent_pair(),
            "make_layout_like": lambda: [L()],
            "coshape": lambda: [r.choice([L(), self.identity()])],
            "coprofile": lambda: [r.choice([L(), self.identity()])],
            "make_identity_layout": lambda: [S_()],
            "make_basis_like": lambda: [S_()],
            "basis_get": lambda: [r.choice([self.basis(), integer(4, True)]), S_()],
            "get_hier_coord": lambda: [L(), integer(r.randrange(0, 30), r.random() < 0.5)],
            "get_flat_coord": lambda: [L(), integer(r.randrange(0, 30), r.random() < 0.5)],
            "get_1d_coord": lambda: [L(), integer(r.randrange(0, 30), r.random() < 0.5)],
            "domain_offset": lambda: [integer(r.randrange(0, 30), r.random() < 0.5), r.choice([L(), L(), self.composed()])],
            "with_shape": lambda: [L(), S_()],
            "tile_unzip": lambda: [call("logical_divide", L(), T()), T()],
            "evenly_divides": lambda: [r.choice([L(), S_()]), T()],
            "max_alignment": lambda: [L()],
            # the core's tuple functions with a template index (an argument here), whole tuples, integers
            "insert": lambda: [r.choice([S_(), S_(), integer(3, False)]), self.small_index(4), r.choice([S_(), self.leaf([1, 4], 0.5)])],
            "remove": lambda: [S_(), self.small_index(4)],
            "replace": lambda: [S_(), self.small_index(4), r.choice([S_(), self.leaf([1, 4], 0.5)])],
            "find": lambda: [S_(), self.leaf([1, 2, 4, 8], r.choice([0.0, 1.0, 1.0]))],
            "repeat": lambda: [self.small_index(4), r.choice([S_(), self.leaf([1, 2], 0.5)])],
            "repeat_like": lambda: [S_(), r.choice([S_(), self.leaf([0, 1], 0.5)])],
            "make_seq_tuple": lambda: [self.small_index(5)],
            "sum": lambda: [r.choice([S_(), self.layout_and_stride()[1]])],
            "wrap": lambda: [S_()],
            "unwrap": lambda: [r.choice([S_(), tup(S_()), tup(tup(self.leaf([2, 4], 0.5)))])],
            "reverse": lambda: [S_()],
            "tuple_cat": lambda: [r.choice([S_(), tup()]) for _ in range(r.choice([0, 1, 2, 2, 3]))],
            "min": lambda: [self.leaf([-2, 0, 3, 8], self.static_p()), self.leaf([1, 4, 6], self.static_p())],
            "max": lambda: [self.leaf([-2, 0, 3, 8], self.static_p()), self.leaf([1, 4, 6], self.static_p())],
            "abs": lambda: [self.leaf([-4, -1, 0, 5], self.static_p())],
            "signum": lambda: [self.leaf([-4, -1, 0, 5], self.static_p())],
            "make_shape": lambda: [S_() for _ in range(r.choice([0, 1, 2, 3]))],
            "make_stride": lambda: [S_() for _ in range(r.choice([1, 2]))],
            "make_coord": lambda: [self.leaf([0, 1, 2], self.static_p()) for _ in range(r.choice([1, 2, 3]))],
            "make_tile": lambda: [r.choice([self.layout("compact", depth=1), self.leaf([2, 4], self.static_p()), UNDERSCORE])
                                  for _ in range(r.choice([1, 2]))],
            "compact_col_major": lambda: [S_()] + ([r.choice([self.leaf([1, 2, 3], self.static_p()), S_()])] if r.random() < 0.4 else []),
            "compact_row_major": lambda: [S_()] + ([self.leaf([1, 2, 3], self.static_p())] if r.random() < 0.4 else []),
            "compact_major": lambda: self.compact_major_args(),
            "slice": lambda: self.slice_args(),
            "slice_and_offset": lambda: self.slice_args(tuples=False),
            "flatten_to_tuple": lambda: [r.choice([S_(), self.leaf([2, 4], 0.5)])],
            "and_": lambda: [self.predicate(), self.predicate()],
            "or_": lambda: [self.predicate(), self.predicate()],
            "dice": lambda: self.dice_args(),
            "thread_coord": lambda: [self.layout(r.choice(["compact", "compact", "pow2"])), integer(r.randrange(0, 30), r.random() < 0.5)],
            "get_swizzle_portion": lambda: [r.choice([self.composed(), L()])],
            "get_nonswizzle_portion": lambda: [r.choice([self.composed(), L()])],
        }
        if fn not in table:
            raise KeyError("no argument generator for the evaluator's function %r: add one to tests/python/expressions.py" % fn)
        args = table[fn]()
        # A share of wrong calls: one argument of the wrong kind, or one argument too many or too few.
        c = r.random()
        if c < 0.05 and args:
            args[r.randrange(len(args))] = self.wrong()
        elif c < 0.07:
            args = args + [self.layout()] if r.random() < 0.5 else args[:-1]
        return args

    def basis(self):
        """A basis element v@N (value static or dynamic, a small mode)."""
        value = tessera.S(1) if self.r.random() < 0.7 else self.r.choice([2, 4, tessera.S(2)])
        return ("integer", tessera.Basis(value, self.r.randrange(0, 3)), ())

    def identity(self):
        """make_identity_layout of a random shape: a coordinate layout (basis strides)."""
        return call("make_identity_layout", self.shape())

    def composed_static(self):
        """A composed layout with a static offset _0 and a static inner layout (right_inverse and
        left_inverse take only those)."""
        inner = ("layout", None, (lambda s: (s, self.stride_like(s, 1.0, "compact")))(self.shape(p=1.0, leaves=[2, 4, 8])))
        return ("composed", None, (self.swizzle(), integer(0, True), inner))

    def predicate(self):
        return self.r.choice([call("congruent", self.shape(), self.shape()), call("equal", self.leaf([2, 4], self.static_p()), integer(4, True)),
                              call("elem_less", *self.congruent_pair())])

    def dice_args(self):
        s = self.shape()
        n = len(s[2]) if s[0] == "tuple" else self.r.choice([1, 2])
        if self.r.random() < 0.1:
            n += 1
        step = [("name", "X", ()) if self.r.random() < 0.4 else integer(1, True) for _ in range(n)]
        return [tup(*step), s]

    def compact_major_args(self):
        major = ("name", self.r.choice(["LayoutLeft", "LayoutRight"]), ())
        s = self.shape()
        args = [s, major]
        if self.r.random() < 0.4:
            args.append(self.r.choice([self.leaf([1, 2, 3], self.static_p()), self.stride_like(s, self.static_p(), "pow2")]))
        return args

    def slice_args(self, tuples=True):
        c = self.r.random()
        if c < 0.25:
            operand = self.composed()
            shape = operand[2][-1][2][0]
        else:
            operand = self.layout()
            shape = operand[2][0]
        coord = self.coordinate_for(shape, True)
        if tuples and c > 0.75:
            operand = shape
        return [coord, operand]

    def congruent_pair(self):
        s = self.shape()
        p = self.static_p()
        return [s, self.stride_like(s, p, self.r.choice(["compact", "pow2"]))]

    def crd2idx_args(self):
        s = self.shape()
        crd = self.coordinate_for(s, False) if self.r.random() < 0.7 else integer(self.r.randrange(0, 20), False)
        args = [crd, s]
        if self.r.random() < 0.6:
            args.append(self.stride_like(s, self.static_p(), "pow2"))
        return args

    def append_args(self):
        if self.r.random() < 0.5:
            args = [self.shape(), self.shape()]
        else:
            args = [self.layout(), self.layout(depth=1)]
        if self.r.random() < 0.3:
            args.append(integer(self.r.choice([2, 3, 4, 5]), self.r.random() < 0.5))
        return args

    def layout_and_stride(self):
        s = self.shape()
        return [s, self.stride_like(s, self.static_p(), "pow2")]

    def ordered_args(self):
        s = self.shape(p=1.0, depth=1)
        n = len(s[2]) if s[0] == "tuple" else 1
        order = list(range(n))
        self.r.shuffle(order)
        o = tup(*[integer(v, self.r.random() < 0.9) for v in order]) if s[0] == "tuple" else integer(0, True)
        return [s, o]

    def profile(self):
        return tup(*[integer(1, True) for _ in range(self.r.choice([1, 2, 3]))])

    def tile_to_shape_args(self):
        p = self.static_p()
        block = ("layout", None, (tup(self.leaf([2, 4], p), self.leaf([2, 4], p)), tup(self.leaf([1], p), self.leaf([2, 4], p))))
        block = ("layout", None, (block[2][0], self.stride_like(block[2][0], p, "compact")))
        shape = tup(self.leaf([4, 8, 16, 6], p), self.leaf([4, 8, 12], p))
        args = [block, shape]
        if self.r.random() < 0.3:
            args.append(tup(integer(1, True), integer(0, True)))
        return args

    def tiled_copy_plain(self):
        while True:
            t = self.tiled_copy()
            if t[1] == "make_tiled_copy":
                return t

    def tile_layout(self):
        p = self.static_p()
        s = tup(self.leaf([8, 16, 32, 64], p), self.leaf([8, 16, 32, 64], p))
        return ("layout", None, (s, self.stride_like(s, p, "compact")))

    # -- whole expressions --
    def expression(self, fn):
        """A call of fn, sometimes applied to a coordinate (L(c), with `_` for slicing)."""
        tree = call(fn, *self.args(fn))
        if self.r.random() < 0.05:
            tree = ("apply", None, (tree, self.small_index(4)))
        return tree

    def applied_layout(self):
        lay = self.layout()
        if self.r.random() < 0.2:
            composed = self.composed()
            coord = self.coordinate_for(composed[2][-1][2][0], True)
            lay = tup(composed)  # applied in parentheses: (Sw<..> o L)(c)
        else:
            coord = self.coordinate_for(lay[2][0], True)
        kids = coord[2] if coord[0] == "tuple" and self.r.random() < 0.5 else (coord,)
        return ("apply", None, (lay,) + tuple(kids))

    def many(self, n, functions):
        """n expressions: the functions in turn (each about n / len(functions) times), and a share of
        bare layouts applied to coordinates."""
        out = []
        functions = list(functions)
        k = 0  # counted apart from i, so that no function's turn always falls on an applied layout
        for i in range(n):
            if i % 25 == 24:
                out.append(self.applied_layout())
            else:
                out.append(self.expression(functions[k % len(functions)]))
                k += 1
        return out
