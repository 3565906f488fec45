"""The contracts of the algebra's functions, one entry per function of ``tessera eval``.

The package makes one Python function per name of the evaluator's table
(``tessera._tessera.function_names()``) and gives it the docstring built here; the stubs
(``__init__.pyi``, written by ``scripts/gen_python_stubs.py``) take the signatures from here too.
tests/python checks that the table and this file name the same functions and runs every example.

Each entry: (signature, what it computes, precondition, postcondition, example call, printed result).
Semantics are those of docs/algebra.md and docs/eval.md; arguments may be Python values (ints,
``S(n)``, tuples, lists as tilers, layouts) or ``tessera eval`` expressions as strings.
"""

# Type names used in the signatures (defined in __init__.pyi):
#   IntTupleLike  an int, S(n), None (`_`) or a nested tuple of them
#   LayoutLike    a Layout, or an IntTupleLike shape (its column-major layout), or an expression string
#   TilerLike     a LayoutLike, a shape tuple (a tiler, mode by mode) or a list [L0, L1, ...]
#   Value         any value of the algebra

FUNCTIONS = {
    # ---- IntTuples ---------------------------------------------------------------------------
    "rank": (
        "(x: Value) -> int",
        "The number of top-level modes of a tuple, a layout's shape or a tuple of values (1 for an integer).",
        "none.",
        "a static integer for a tuple or layout (the nesting is always known at compile time).",
        "rank((2, (3, 4)))", "_2"),
    "depth": (
        "(x: IntTupleLike | LayoutLike) -> int",
        "The nesting depth of a tuple or of a layout's shape: 0 for an integer.",
        "none.",
        "a static integer; depth((a, b)) = 1 + max(depth(a), depth(b)).",
        "depth((2, (3, 4)))", "_2"),
    "size": (
        "(x: IntTupleLike | LayoutLike) -> int",
        "The product of all leaves of a tuple, or of a layout's shape: the size of its domain.",
        "no `_` in x; the product fits int64.",
        "static when every leaf is static.",
        "size((S(2), (3, 4)))", "24"),
    "product": (
        "(x: IntTupleLike | LayoutLike) -> int",
        "The product of all leaves (as size).",
        "no `_` in x; the product fits int64.",
        "static when every leaf is static.",
        "product((S(2), (3, 4)))", "24"),
    "product_each": (
        "(x: IntTupleLike | LayoutLike) -> IntTuple",
        "Each top-level mode replaced by the product of its leaves.",
        "no `_` in x.",
        "rank(result) == rank(x), size(result) == size(x), depth(result) <= 1.",
        "product_each((S(2), (3, 4)))", "(_2,12)"),
    "inner_product": (
        "(a: IntTupleLike, b: IntTupleLike) -> int",
        "The sum of the products of matching leaves of a and b.",
        "a and b congruent.",
        "static when every leaf is static.",
        "inner_product((2, 3), (4, 5))", "23"),
    "shape_div": (
        "(a: IntTupleLike, b: IntTupleLike) -> IntTuple",
        "a divided by b leaf by leaf: a / b where b divides a, else +-1 where a divides b (an integer b "
        "divides the leaves of a from the left, carrying what is left).",
        "each divisor and dividend divide one another.",
        "congruent with a.",
        "shape_div((S(12), 4), (S(3), 2))", "(_4,2)"),
    "ceil_div": (
        "(a: IntTupleLike, b: IntTupleLike) -> IntTuple",
        "a divided by b leaf by leaf, rounded up.",
        "b's leaves >= 1; b congruent with a, or an integer.",
        "congruent with a; result * b >= a leaf by leaf.",
        "ceil_div((S(7), 5), (S(2), 2))", "(_4,3)"),
    "congruent": (
        "(a: IntTupleLike | LayoutLike, b: IntTupleLike | LayoutLike) -> Bool",
        "Whether a and b have the same nesting (profile). Layouts compare their shapes.",
        "none.",
        "a static Bool.",
        "congruent((2, (3, 4)), (1, (2, 6)))", "_true"),
    "weakly_congruent": (
        "(a: IntTupleLike | LayoutLike, b: IntTupleLike | LayoutLike) -> Bool",
        "Whether a's profile is a coarsening of b's: an integer of a may stand for a tuple of b.",
        "none.",
        "a static Bool; congruent(a, b) implies weakly_congruent(a, b).",
        "weakly_congruent(8, (2, 4))", "_true"),
    "compatible": (
        "(a: IntTupleLike | LayoutLike, b: IntTupleLike | LayoutLike) -> Bool",
        "Whether size(a) == size(b) and every coordinate of a is a coordinate of b (a's profile coarsens b's "
        "with equal sizes).",
        "none.",
        "static when the sizes are.",
        "compatible(24, (4, 6))", "true"),
    "elem_less": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "Whether every leaf of a is below the matching leaf of b (a lies inside the shape b).",
        "a and b congruent (or a an integer coordinate of a rank-1 b).",
        "static when every compared leaf is static.",
        "elem_less((1, 2), (2, 3))", "true"),
    "colex_less": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "Colexicographic order: compares the last leaves first.",
        "a and b congruent.",
        "a strict order on the coordinates of a shape (the order of their indices).",
        "colex_less((3, 1), (0, 2))", "true"),
    "lex_less": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "Lexicographic order: compares the first leaves first.",
        "a and b congruent.",
        "a strict order.",
        "lex_less((0, 3), (1, 0))", "true"),
    "crd2idx": (
        "(coord: IntTupleLike, shape: IntTupleLike, stride: IntTupleLike | None = None) -> int",
        "The index of a coordinate: the inner product with the stride (column-major compact strides of the "
        "shape when no stride is given); an integer coordinate is first split by idx2crd.",
        "coord is a coordinate of shape (same profile, or an integer); stride congruent with shape.",
        "crd2idx(idx2crd(i, s), s) == i for i < size(s).",
        "crd2idx(16, (3, (2, 3)), (3, (12, 1)))", "17"),
    "idx2crd": (
        "(index: IntTupleLike, shape: IntTupleLike) -> IntTuple",
        "The natural (column-major) coordinate of an index in a shape.",
        "0 <= index < size(shape) for each integer part.",
        "congruent with shape; crd2idx(result, shape) == index.",
        "idx2crd(16, (3, (2, 3)))", "(1,(1,2))"),
    "prefix_product": (
        "(t: IntTupleLike, init: int = S(1)) -> IntTuple",
        "The exclusive prefix products of t's leaves, starting at init: the column-major compact strides.",
        "t has no `_`.",
        "congruent with t; result[0] == init.",
        "prefix_product((2, 3, 4))", "(_1,2,6)"),
    "equal": (
        "(a: IntTupleLike | LayoutLike, b: IntTupleLike | LayoutLike) -> Bool",
        "Whether two tuples, or two layouts (shape and stride), are equal; static when decidable from static "
        "parts, as the C++ operator==.",
        "none.",
        "equal(x, x) is true.",
        "equal('(_2,_4):(_4,_1)', '(2,4):(4,1)')", "true"),
    # ---- modes -------------------------------------------------------------------------------
    "get": (
        "(x: Value, *index: int) -> Value",
        "Mode index[0] of x, then mode index[1] of that, ...: of a tuple, a layout (its sub-layout) or a "
        "tuple of values.",
        "each index in [0, rank) of what it indexes.",
        "get(x, i, j) == get(get(x, i), j).",
        "get((2, (3, 4)), 1, 0)", "3"),
    "layout": (
        "(x: LayoutLike | ComposedLayout, *index: int) -> Layout | ComposedLayout",
        "The layout x (a shape is its column-major layout; a string is parsed), or its sub-layout at mode "
        "index[0], index[1], ... (of Sw o off o L: Sw o off o the sub-layout of L).",
        "each index in [0, rank).",
        "layout(L, i)(c) == L(c_i) for a coordinate c_i of mode i (the other modes at 0).",
        "layout('(2,(3,4)):(1,(2,6))', 1)", "(3,4):(2,6)"),
    "shape": (
        "(x: IntTupleLike | LayoutLike | ComposedLayout, *index: int) -> IntTupleLike",
        "The shape of a layout (or of a tuple, itself), or its mode index[0], index[1], ...",
        "each index in [0, rank).",
        "shape(L, i) == shape(layout(L, i)).",
        "shape('(2,(3,4)):(1,(2,6))', 1)", "(3,4)"),
    "stride": (
        "(x: LayoutLike, *index: int) -> IntTupleLike",
        "The stride of a layout, or its mode index[0], index[1], ... (a composed layout has none: "
        "use stride(get_nonswizzle_portion(c))).",
        "each index in [0, rank); x is no composed layout.",
        "stride(L, i) == stride(layout(L, i)).",
        "stride('(2,(3,4)):(1,(2,6))', 1)", "(2,6)"),
    "select": (
        "(x: IntTupleLike | LayoutLike | ComposedLayout, *index: int) -> IntTupleLike | Layout | ComposedLayout",
        "The modes index... of x, in that order (C++ select<i, j, ...>).",
        "each index in [0, rank(x)).",
        "rank(result) == len(index); mode k of the result is mode index[k] of x.",
        "select('(2,3,5,7):(_1,2,6,30)', 1, 3)", "(3,7):(2,30)"),
    "take": (
        "(x: IntTupleLike | LayoutLike | ComposedLayout, begin: int, end: int) -> IntTupleLike | Layout | ComposedLayout",
        "The modes [begin, end) of x (C++ take<B, E>).",
        "0 <= begin <= end <= rank(x).",
        "rank(result) == end - begin.",
        "take('(2,3,5,7):(_1,2,6,30)', 1, 3)", "(3,5):(2,6)"),
    "group": (
        "(x: IntTupleLike | LayoutLike | ComposedLayout, begin: int, end: int) -> IntTupleLike | Layout | ComposedLayout",
        "x with the modes [begin, end) grouped into one mode (C++ group<B, E>).",
        "0 <= begin <= end <= rank(x).",
        "rank(result) == rank(x) - (end - begin) + 1; same function as x.",
        "group('(2,3,5,7):(_1,2,6,30)', 0, 2)", "((2,3),5,7):((_1,2),6,30)"),
    "flatten": (
        "(x: IntTupleLike | LayoutLike | ComposedLayout) -> IntTupleLike | Layout | ComposedLayout",
        "x with every nesting removed: its leaves as the top-level modes.",
        "none.",
        "depth(result) <= 1; a layout keeps its function.",
        "flatten('((2,3),4):((1,2),6)')", "(2,3,4):(1,2,6)"),
    "append": (
        "(x: IntTupleLike | LayoutLike, y: IntTupleLike | LayoutLike, n: int | None = None) -> IntTupleLike | Layout",
        "x with y added as its last mode; with n, x padded with y up to rank n (C++ append<N>).",
        "n >= rank(x) when given.",
        "rank(result) == rank(x) + 1 (or n).",
        "append('(2,3):(1,2)', '4:6')", "(2,3,4):(1,2,6)"),
    "prepend": (
        "(x: IntTupleLike | LayoutLike, y: IntTupleLike | LayoutLike, n: int | None = None) -> IntTupleLike | Layout",
        "x with y added as its first mode; with n, padded in front up to rank n (C++ prepend<N>).",
        "n >= rank(x) when given.",
        "rank(result) == rank(x) + 1 (or n).",
        "prepend('(2,3):(1,2)', '4:6')", "(4,2,3):(6,1,2)"),
    # ---- construction ------------------------------------------------------------------------
    "make_layout": (
        "(*args: Any) -> Layout",
        "make_layout(shape): the column-major compact layout (static size-1 leaves get stride _0); "
        "make_layout(shape, stride); make_layout(L0, L1, ...): the layouts as the modes of one layout.",
        "shape leaves >= 1; stride congruent with shape; size and largest offset fit int64.",
        "shape(result) == shape; make_layout(shape)(i) == i for i < size(shape).",
        "make_layout((S(2), 4), (4, S(1)))", "(_2,4):(4,_1)"),
    "make_layout_left": (
        "(shape: IntTupleLike) -> Layout",
        "The column-major compact layout of shape (as make_layout(shape)).",
        "shape leaves >= 1.",
        "result(i) == i for every i < size(shape).",
        "make_layout_left((2, 3, 4))", "(2,3,4):(_1,2,6)"),
    "make_layout_right": (
        "(shape: IntTupleLike) -> Layout",
        "The row-major compact layout of shape: the last leaf has stride 1.",
        "shape leaves >= 1.",
        "a bijection onto [0, size(shape)), lexicographic in the coordinates.",
        "make_layout_right((2, 3, 4))", "(2,3,4):(12,4,_1)"),
    "make_ordered_layout": (
        "(shape: IntTupleLike, order: IntTupleLike) -> Layout",
        "The compact layout whose leaves get strides in the given order: the leaf with the smallest order "
        "has stride _1 (ties by position).",
        "order static, one entry per shape leaf; shape leaves >= 1.",
        "a bijection onto [0, size(shape)).",
        "make_ordered_layout((S(2), S(2), S(2), S(2)), (S(0), S(2), S(3), S(1)))", "(_2,_2,_2,_2):(_1,_4,_8,_2)"),
    "cosize": (
        "(L: LayoutLike | ComposedLayout) -> int",
        "L(size(L) - 1) + 1: one past the largest offset (for non-negative strides).",
        "L's strides non-negative for the meaning above.",
        "every L(i) < cosize(L).",
        "cosize('(_2,_4):(_4,_1)')", "_8"),
    # ---- algebra -----------------------------------------------------------------------------
    "coalesce": (
        "(L: LayoutLike | ComposedLayout, profile: IntTupleLike | None = None) -> Layout | ComposedLayout",
        "L with adjacent modes merged where s0*s1:d0 describes both (known statically), size-1 modes "
        "dropped; with a profile, coalesced per mode of the profile.",
        "none.",
        "same size and same function as L; depth(result) <= 1 (without a profile).",
        "coalesce('(_2,(_1,_6)):(_1,(_6,_2))')", "_12:_1"),
    "filter": (
        "(L: LayoutLike | ComposedLayout) -> Layout | ComposedLayout",
        "coalesce(L) after turning its stride-0 modes into size 1: the layout of L's distinct offsets.",
        "none.",
        "the image of the result equals the image of L; no stride-0 modes remain.",
        "filter('(_4,_2):(_0,_1)')", "_2:_1"),
    "composition": (
        "(A: LayoutLike | ComposedLayout | Swizzle, B: TilerLike | Swizzle) -> Layout | ComposedLayout | Swizzle",
        "The layout R with R(i) == A(B(i)) for every i of B's domain; a tiler B (a shape tuple or a list) "
        "composes mode by mode; a swizzle A gives the composed layout A o _0 o B; two swizzles one swizzle; "
        "a static layout A and a swizzle B the swizzled layout Sw' o _0 o A (Sw' moved to the other side).",
        "B's strides and sizes divide (or are multiples of) A's mode sizes as docs/algebra.md says.",
        "R(i) == A(B(i)) for every i < size(B); compatible(B, R).",
        "composition('(_6,_2):(_8,_2)', '(_4,_3):(_3,_1)')", "((_2,_2),_3):((_24,_2),_8)"),
    "complement": (
        "(A: LayoutLike | ComposedLayout, M: IntTupleLike | None = None) -> Layout",
        "The layout R, strictly increasing, whose offsets with A's cover [0, M) (M defaults to cosize(filter(A))); "
        "of Sw o off o L: complement(L, M), in the swizzle's input space.",
        "A injective on its non-zero strides, strides dividing as docs/algebra.md says; M >= 1.",
        "cosize((A, R)) >= M; R(i) != A(j) for i >= 1.",
        "complement('_4:_2', S(24))", "(_2,_3):(_1,_8)"),
    "right_inverse": (
        "(L: LayoutLike | ComposedLayout | Swizzle) -> Layout | ComposedLayout | Swizzle",
        "The largest layout R with L(R(i)) == i (the twin follows dynamic strides by value); of Sw o _0 o L: "
        "composition(right_inverse(L), Sw); a swizzle is its own inverse.",
        "none.",
        "L(R(i)) == i for every i < size(R).",
        "right_inverse('(_4,_2):(_1,_16)')", "_4:_1"),
    "left_inverse": (
        "(L: LayoutLike | ComposedLayout | Swizzle) -> Layout | ComposedLayout | Swizzle",
        "A layout R with R(L(i)) == i; of Sw o _0 o L: composition(left_inverse(L), Sw); a swizzle is its own inverse.",
        "L injective; each sorted stride divides the next, which is >= size * stride of the previous.",
        "R(L(i)) == i for every i < size(L).",
        "left_inverse('(_4,_2):(_1,_16)')", "(_16,_2):(_1,_4)"),
    "logical_divide": (
        "(A: LayoutLike | ComposedLayout, T: TilerLike) -> Layout | ComposedLayout",
        "A o (T, complement(T, size(A))): A split into (tile, rest); per mode for a tiler, A's trailing modes kept.",
        "complement(T, size(A)) exists (T injective, dividing); a tiler has at most rank(A) modes.",
        "layout(result, 0) == composition(A, T) for a layout T; same size as A (rounded up to whole tiles).",
        "logical_divide('_1000:_1', '_128:_1')", "(_128,_8):(_1,_128)"),
    "zipped_divide": (
        "(A: LayoutLike | ComposedLayout, T: TilerLike) -> Layout | ComposedLayout",
        "logical_divide with the tile modes gathered in mode 0 and the rest in mode 1: ((tile), (rest)).",
        "as logical_divide.",
        "rank 2; layout(result, 0) == composition(A, T).",
        "zipped_divide('(2048,2048):(2048,_1)', (S(1), S(4)))", "((_1,_4),(2048,512)):((_0,_1),(2048,_4))"),
    "tiled_divide": (
        "(A: LayoutLike | ComposedLayout, T: TilerLike) -> Layout | ComposedLayout",
        "zipped_divide with the rest modes unpacked: ((tile), rest0, rest1, ...).",
        "as logical_divide.",
        "mode 0 is zipped_divide's mode 0.",
        "tiled_divide('(_9,(_4,_8)):(_59,(_13,_1))', ['_3:_3', '(_2,_4):(_1,_8)'])",
        "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))"),
    "flat_divide": (
        "(A: LayoutLike | ComposedLayout, T: TilerLike) -> Layout | ComposedLayout",
        "zipped_divide with both the tile and the rest modes unpacked: (tile0, tile1, ..., rest0, rest1, ...).",
        "as logical_divide.",
        "same function as zipped_divide.",
        "flat_divide('(_9,(_4,_8)):(_59,(_13,_1))', ['_3:_3', '(_2,_4):(_1,_8)'])",
        "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))"),
    "logical_product": (
        "(A: LayoutLike | ComposedLayout, B: TilerLike) -> Layout | ComposedLayout",
        "(A, complement(A, size(A) * cosize(B)) o B): B copies of A; per mode for a tiler.",
        "complement(A, size(A) * cosize(B)) exists.",
        "layout(result, 0) == A; compatible(B, layout(result, 1)).",
        "logical_product('(_2,_2):(_4,_1)', '_6:_1')", "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))"),
    "zipped_product": (
        "(A: LayoutLike | ComposedLayout, B: TilerLike) -> Layout | ComposedLayout",
        "logical_product with the tile modes gathered in mode 0 and the repeats in mode 1.",
        "as logical_product.",
        "rank 2; layout(result, 0) == A for a layout B.",
        "zipped_product('(_2,_2):(_4,_1)', ['_3:_1', '_2:_1'])", "((_2,_2),(_3,_2)):((_4,_1),(_1,_2))"),
    "tiled_product": (
        "(A: LayoutLike | ComposedLayout, B: TilerLike) -> Layout | ComposedLayout",
        "zipped_product with the repeat modes unpacked: ((tile), rest0, rest1, ...).",
        "as logical_product.",
        "mode 0 is zipped_product's mode 0.",
        "tiled_product('(_2,_2):(_4,_1)', ['_3:_1', '_2:_1'])", "((_2,_2),_3,_2):((_4,_1),_1,_2)"),
    "flat_product": (
        "(A: LayoutLike | ComposedLayout, B: TilerLike) -> Layout | ComposedLayout",
        "zipped_product with every mode unpacked.",
        "as logical_product.",
        "same function as zipped_product.",
        "flat_product('(_2,_2):(_4,_1)', ['_3:_1', '_2:_1'])", "(_2,_2,_3,_2):(_4,_1,_1,_2)"),
    "blocked_product": (
        "(A: LayoutLike | ComposedLayout, B: LayoutLike) -> Layout | ComposedLayout",
        "A repeated as blocks over B: both padded to one rank, mode i = (A_i, B_i) of logical_product.",
        "as logical_product.",
        "size(result) == size(A) * size(B); mode i has size size(A_i) * size(B_i).",
        "blocked_product('(_2,_5):(_5,_1)', '(_3,_4):(_1,_3)')", "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))"),
    "raked_product": (
        "(A: LayoutLike | ComposedLayout, B: LayoutLike) -> Layout | ComposedLayout",
        "A interleaved (raked) over B: as blocked_product with mode i = (B_i, A_i).",
        "as logical_product.",
        "same sizes per mode as blocked_product.",
        "raked_product('(_2,_5):(_5,_1)', '(_3,_4):(_1,_3)')", "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))"),
    "tile_to_shape": (
        "(block: LayoutLike | ComposedLayout, shape: IntTupleLike, order: IntTupleLike | None = None) -> Layout | ComposedLayout",
        "block repeated (blocked_product) over the grid shape / block, column-major or in the given order.",
        "each mode of block divides the matching mode of shape; order static.",
        "product_each(shape(result)) == product_each(shape).",
        "tile_to_shape('(_8,_8):(_8,_1)', (S(64), S(32)))", "((_8,_8),(_8,_4)):((_8,_64),(_1,_512))"),
    "make_layout_tv": (
        "(thr: LayoutLike, val: LayoutLike) -> TVLayout",
        "The pair (tiler, tv): mn = raked_product(thr, val), tiler = product_each(shape(mn)), tv = "
        "(thread, value) -> index in the tiler-shaped tile.",
        "mn is a bijection from the tile onto [0, size(mn)) (thr and val compact).",
        "tv is a bijection from (size(thr), size(val)) onto the tile's indices.",
        "make_layout_tv('(_4,_32):(_32,_1)', '(_4,_8):(_8,_1)')", "((_16,_256),((_32,_4),(_8,_4)):((_128,_4),(_16,_1)))"),
    "upcast": (
        "(L: LayoutLike | ComposedLayout | Swizzle, n: int) -> Layout | ComposedLayout | Swizzle",
        "L in elements n times wider (C++ upcast<N>): each leaf s:d becomes shape_div(s, shape_div(n, |d|)) : "
        "shape_div(d, n); stride-0 leaves stay. Sw<B,M,S> becomes Sw<B,M-log2 n,S>; Sw o off o L: each part.",
        "n >= 1; each stride and n divide one another (and the shape the quotient).",
        "offsets of the result are L's offsets divided by n, one per group of n contiguous elements.",
        "upcast('(_4,_8):(_8,_1)', 2)", "(_4,_4):(_4,_1)"),
    "downcast": (
        "(L: LayoutLike | ComposedLayout | Swizzle, n: int) -> Layout | ComposedLayout | Swizzle",
        "L in elements n times narrower: a static stride-_1 mode grows by n, other strides multiply by n. "
        "Sw<B,M,S> becomes Sw<B,M+log2 n,S>; Sw o off o L: each part.",
        "n >= 1; no dynamic stride equal to 1 (make it static _1).",
        "size(result) == size(L) * n for one stride-1 mode.",
        "downcast('(_4,_8):(_8,_1)', 2)", "(_4,_16):(_16,_1)"),
    "recast": (
        "(L: LayoutLike | ComposedLayout, from_bits: int, to_bits: int) -> Layout | ComposedLayout",
        "L re-expressed for elements of to_bits instead of from_bits: upcast by to/from, or downcast by from/to.",
        "bit widths >= 1, one a multiple of the other.",
        "as upcast or downcast.",
        "recast('(_4,_8):(_8,_1)', 16, 32)", "(_4,_4):(_4,_1)"),
    "max_common_vector": (
        "(A: LayoutLike | ComposedLayout, B: LayoutLike | ComposedLayout) -> int",
        "The largest N with A(right_inverse(B)(n)) == n for every n < N: the consecutive offsets one vector "
        "access moves between A and B (static only; else _1). A swizzled operand bounds it by 2^M and its "
        "offset's alignment.",
        "A and B of equal size.",
        "a static integer dividing size(A).",
        "max_common_vector('(_4,_8):(_1,_4)', '(_4,_8):(_1,_8)')", "_4"),
    "max_common_layout": (
        "(A: LayoutLike, B: LayoutLike) -> Layout",
        "The layout of the indices that A and B both map contiguously (static only; else _1:_0).",
        "A and B of equal size.",
        "size(result) == max_common_vector(A, B).",
        "max_common_layout('(_4,_8):(_1,_4)', '(_4,_8):(_1,_8)')", "_4:_1"),
    "nullspace": (
        "(L: LayoutLike) -> Layout",
        "The layout of the coordinates L maps to offset 0 along its static stride-_0 leaves (_1:_0 if none).",
        "none.",
        "L(result(i)) == 0 for every i.",
        "nullspace('(_2,_4,_3):(_0,_1,_0)')", "(_2,_3):(_1,_8)"),
    "print_layout": (
        "(L: LayoutLike) -> str",
        "The layout's text and the table of L(m, n), as the C++ print_layout prints it.",
        "rank(L) == 2; at most 65536 cells.",
        "the first line is str(L).",
        "print_layout('(_2,(_2,_2)):(_4,(_2,_1))')",
        "(_2,(_2,_2)):(_4,(_2,_1))\n      0   1   2   3 \n    +---+---+---+---+\n 0  | 0 | 2 | 1 | 3 |\n"
        "    +---+---+---+---+\n 1  | 4 | 6 | 5 | 7 |\n    +---+---+---+---+"),
    # ---- atoms ---------------------------------------------------------------------------------
    "shape_mnk": (
        "(atom: MmaAtom | str) -> IntTuple",
        "The (M, N, K) shape of an MMA instruction.",
        "atom is an MMA atom.",
        "a static shape.",
        "shape_mnk('SM80_16x8x16_F32F16F16F32_TN')", "(_16,_8,_16)"),
    "thr_id": (
        "(atom: MmaAtom | CopyAtom | str) -> Layout",
        "The atom's thread layout: thread index -> lane taking part.",
        "an MMA or copy atom.",
        "size(result) is the atom's thread count.",
        "thr_id('SM80_16x8x16_F32F16F16F32_TN')", "_32:_1"),
    "layout_a": (
        "(atom: MmaAtom | str) -> Layout",
        "(thread, value) -> column-major index of A's M x K tile for one MMA instruction.",
        "an MMA atom.",
        "a bijection onto the tile (for the instructions of names.hpp).",
        "layout_a('SM80_16x8x16_F32F16F16F32_TN')", "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"),
    "layout_b": (
        "(atom: MmaAtom | str) -> Layout",
        "(thread, value) -> column-major index of B's N x K tile for one MMA instruction.",
        "an MMA atom.",
        "covers the tile.",
        "layout_b('SM80_16x8x16_F32F16F16F32_TN')", "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))"),
    "layout_c": (
        "(atom: MmaAtom | str) -> Layout",
        "(thread, value) -> column-major index of C's M x N tile for one MMA instruction.",
        "an MMA atom.",
        "a bijection onto the tile.",
        "layout_c('SM80_16x8x16_F32F16F16F32_TN')", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"),
    "layout_src": (
        "(atom: CopyAtom | str) -> Layout",
        "(thread, value) -> bit of the source (in elements of T for Copy_Atom<OP,T>).",
        "a copy atom.",
        "covers the atom's source data.",
        "layout_src('Copy_Atom<SM75_U32x4_LDSM_N,half_t>')", "(_32,_8):(_8,_1)"),
    "layout_dst": (
        "(atom: CopyAtom | str) -> Layout",
        "(thread, value) -> bit of the destination (in elements of T for Copy_Atom<OP,T>).",
        "a copy atom.",
        "covers the atom's destination data.",
        "layout_dst('SM75_U32x4_LDSM_N')", "(_32,(_32,_4)):(_32,(_1,_1024))"),
    "layout_ref": (
        "(atom: CopyAtom | str) -> Layout",
        "The reference (thread, value) layout of a copy atom, which tiled copies partition with.",
        "a copy atom.",
        "equals layout_src or layout_dst of the atom.",
        "layout_ref('SM75_U32x4_LDSM_N')", "(_32,(_32,_4)):(_32,(_1,_1024))"),
    "make_tiled_mma": (
        "(atom: MmaAtom | str, atom_layout: LayoutLike | None = None, permutation: list | None = None) -> TiledMma",
        "The MMA atom repeated over atom_layout ((m, n, k) -> atom, default (_1,_1,_1)), with an optional "
        "permutation [M, N, K] (each `_`, an integer or a layout).",
        "atom_layout and permutation static.",
        "its tile is tile_size(T, 0) x tile_size(T, 1) x tile_size(T, 2).",
        "make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1)))",
        "TiledMMA(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_1,_2,_0), [_,_,_])"),
    "layout_a_tv": (
        "(T: TiledMma) -> Layout",
        "(thread index, value) -> column-major index of the tiled MMA's A tile (M x K).",
        "a tiled MMA.",
        "covers the tile.",
        "layout_a_tv(tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))"),
    "layout_b_tv": (
        "(T: TiledMma) -> Layout",
        "(thread index, value) -> column-major index of the tiled MMA's B tile (N x K).",
        "a tiled MMA.",
        "covers the tile.",
        "layout_b_tv(tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,_8),((_16,_128),(_0,_0)))"),
    "layout_c_tv": (
        "(T: TiledMma) -> Layout",
        "(thread index, value) -> column-major index of the tiled MMA's C tile (M x N).",
        "a tiled MMA.",
        "a bijection onto the tile.",
        "layout_c_tv(tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))"),
    "tile_size": (
        "(T: TiledMma, i: int) -> int",
        "The extent of the tiled MMA's tile along mode i (0: M, 1: N, 2: K).",
        "0 <= i <= 2.",
        "a static integer.",
        "tile_size(tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))), 0)", "_32"),
    "thr_layout_vmnk": (
        "(T: TiledMma) -> Layout",
        "(v, m, n, k) -> thread index: the atom's threads (v) over the atom layout.",
        "a tiled MMA.",
        "size(result) is the tiled MMA's thread count.",
        "thr_layout_vmnk(tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "(_32,_2,_2,_1):(_1,_32,_64,_0)"),
    "make_tiled_copy": (
        "(atom: CopyAtom | str, thr: LayoutLike, val: LayoutLike | None = None) -> TiledCopy",
        "Copy_Atom<OP,T> repeated over the thread layout thr and value layout val (default _1): its tile is "
        "the raked product of thr and val.",
        "atom has an element type; thr and val static; a thread count and values that are multiples of the atom's.",
        "layout_s_tv and layout_d_tv cover its tile.",
        "make_tiled_copy('Copy_Atom<UniversalCopy<uint32_t>,float>', '(_4,_8):(_8,_1)', '(_1,_4):(_1,_1)')",
        "TiledCopy(Copy_Atom<UniversalCopy<uint32_t>,float>, ((_8,_4),_4):((_16,_1),_4), (_4,_32))"),
    "make_tiled_copy_A": (
        "(atom: CopyAtom | str, T: TiledMma) -> TiledCopy",
        "The tiled copy that moves the tiled MMA's A operand with the copy atom (thread-value layout of A).",
        "the atom's threads and values fit T's A layout.",
        "its tile is T's M x K tile.",
        "make_tiled_copy_A('Copy_Atom<SM75_U32x4_LDSM_N,half_t>', "
        "tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "TiledCopy(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),"
        "((_32,_8,_256),(_0,_0))), (_32,_16))"),
    "make_tiled_copy_B": (
        "(atom: CopyAtom | str, T: TiledMma) -> TiledCopy",
        "The tiled copy that moves the tiled MMA's B operand with the copy atom.",
        "the atom's threads and values fit T's B layout.",
        "its tile is T's N x K tile.",
        "make_tiled_copy_B('Copy_Atom<SM75_U32x2_LDSM_N,half_t>', "
        "tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "TiledCopy(Copy_Atom<SM75_U32x2_LDSM_N,half_t>, ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,_8),"
        "((_16,_128),(_0,_0))), (_16,_16))"),
    "make_tiled_copy_C": (
        "(atom: CopyAtom | str, T: TiledMma) -> TiledCopy",
        "The tiled copy that moves the tiled MMA's C operand with the copy atom.",
        "the atom's threads and values fit T's C layout.",
        "its tile is T's M x N tile.",
        "make_tiled_copy_C('Copy_Atom<UniversalCopy<uint32_t>,float>', "
        "tessera.make_tiled_mma('SM80_16x8x16_F32F16F16F32_TN', (S(2), S(2), S(1))))",
        "TiledCopy(Copy_Atom<UniversalCopy<uint32_t>,float>, ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),"
        "((_32,_8),(_0,_0))), (_32,_16))"),
    "layout_s_tv": (
        "(C: TiledCopy) -> Layout",
        "(thread index, value) -> column-major index of the tiled copy's tile, source side.",
        "a tiled copy.",
        "covers the tile.",
        "layout_s_tv(tessera.make_tiled_copy('Copy_Atom<UniversalCopy<uint32_t>,float>', '(_4,_8):(_8,_1)', "
        "'(_1,_4):(_1,_1)'))",
        "((_8,_4),(_1,_4)):((_16,_1),(_0,_4))"),
    "layout_d_tv": (
        "(C: TiledCopy) -> Layout",
        "(thread index, value) -> column-major index of the tiled copy's tile, destination side.",
        "a tiled copy.",
        "covers the tile.",
        "layout_d_tv(tessera.make_tiled_copy('Copy_Atom<UniversalCopy<uint32_t>,float>', '(_4,_8):(_8,_1)', "
        "'(_1,_4):(_1,_1)'))",
        "((_8,_4),(_1,_4)):((_16,_1),(_0,_4))"),
    "tidfrg_s": (
        "(C: TiledCopy, L: LayoutLike) -> Layout",
        "L (tile modes first) partitioned for the source side: (thread index, atom values, (rest...)).",
        "L has at least rank(tiler) modes, each divisible by the tile.",
        "size(result) == size(L).",
        "tidfrg_s(tessera.make_tiled_copy('Copy_Atom<UniversalCopy<uint32_t>,float>', '(_4,_8):(_8,_1)', "
        "'(_1,_4):(_1,_1)'), '(_8,_64):(_64,_1)')",
        "((_8,_4),(_1,_4),(_2,_2)):((_4,_64),(_0,_1),(_256,_32))"),
    "tidfrg_d": (
        "(C: TiledCopy, L: LayoutLike) -> Layout",
        "L (tile modes first) partitioned for the destination side: (thread index, atom values, (rest...)).",
        "L has at least rank(tiler) modes, each divisible by the tile.",
        "size(result) == size(L).",
        "tidfrg_d(tessera.make_tiled_copy('Copy_Atom<UniversalCopy<uint32_t>,float>', '(_4,_8):(_8,_1)', "
        "'(_1,_4):(_1,_1)'), '(_8,_32):(_1,_8)')",
        "((_8,_4),(_1,_4),(_2,_1)):((_32,_1),(_0,_8),(_4,_0))"),
    # ---- CuTe's integer, tuple and layout functions (issue 9) --------------------------------
    "round_up": (
        "(a: IntTupleLike, b: IntTupleLike) -> IntTuple",
        "a rounded up to a multiple of b, mode by mode for tuples (b's missing trailing modes count as _1).",
        "b > 0 at every leaf; rank(a) >= rank(b) for tuples; an integer pairs with an integer.",
        "every leaf is the smallest multiple of b's leaf that is >= a's; static iff both are.",
        "round_up((5, 6), (4,))", "(8,6)"),
    "elem_scale": (
        "(a: IntTupleLike, b: IntTupleLike) -> IntTuple",
        "Each leaf of a multiplied by the size of the matching part of b.",
        "a weakly congruent to b.",
        "congruent with a; product(result) == product(a) * product(b).",
        "elem_scale((2, 3), (4, (2, 3)))", "(8,18)"),
    "filter_zeros": (
        "(a: IntTupleLike | LayoutLike, b: IntTupleLike | None = None) -> IntTuple | Layout",
        "Tuples: b with every part that faces a static _0 of a made _1 (a alone: filter_zeros(a, a)). A "
        "layout: its static _0-stride modes get size _1 (or those where the profile b has a static _0).",
        "a weakly congruent to b.",
        "congruent with b (the layout keeps its strides).",
        "filter_zeros((S(0), 2), (4, 5))", "(_1,5)"),
    "gcd": (
        "(*xs: IntTupleLike) -> int",
        "The greatest common divisor of every leaf of the arguments (CuTe's variadic gcd).",
        "at least one leaf.",
        ">= 0 for two or more leaves; static iff every leaf is static.",
        "gcd(S(6), (S(4), 10))", "2"),
    "lcm": (
        "(a: int, b: int) -> int",
        "The least common multiple of two integers (0 if either is 0).",
        "the result fits int64.",
        "a multiple of both; static iff both are.",
        "lcm(S(4), S(6))", "_12"),
    "bit_width": (
        "(x: int) -> int",
        "The number of bits needed to write x (0 for 0).",
        "x >= 0.",
        "2**(result-1) <= x < 2**result for x > 0; static iff x is.",
        "bit_width(S(8))", "_4"),
    "log_2": (
        "(x: int) -> int",
        "The floor of log2 x: bit_width(x) - 1.",
        "x > 0.",
        "2**result <= x < 2**(result+1); static iff x is.",
        "log_2(9)", "3"),
    "crd2crd": (
        "(coord: IntTupleLike, src: IntTupleLike, dst: IntTupleLike) -> IntTuple",
        "The coordinate of src re-expressed in dst through their column-major index: idx2crd(crd2idx(coord,"
        " src), dst), mode by mode where all three are tuples.",
        "coord is a coordinate of src; tuples of one rank where all three are tuples.",
        "crd2idx(result, dst) == crd2idx(coord, src) (dst large enough).",
        "crd2crd((1, (1, 2)), (3, (2, 3)), (3, 6))", "(1,5)"),
    "elem_leq": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "Whether every leaf of a is at most the matching leaf of b (elem_less's structure; b may have extra"
        " modes).",
        "a tuple a needs a tuple b of at least its rank; an integer an integer.",
        "static when decidable from the static leaves.",
        "elem_leq((1, 3), (1, 4))", "true"),
    "elem_gtr": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "Whether every leaf of a is above the matching leaf of b (elem_less's structure; b may have extra "
        "modes).",
        "a tuple a needs a tuple b of at least its rank; an integer an integer.",
        "static when decidable from the static leaves.",
        "elem_gtr((S(4), S(2)), (S(3), S(2)))", "_false"),
    "elem_geq": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "Whether every leaf of a is at least the matching leaf of b (elem_less's structure; b may have "
        "extra modes).",
        "a tuple a needs a tuple b of at least its rank; an integer an integer.",
        "static when decidable from the static leaves.",
        "elem_geq((S(4), S(2)), (S(3), S(2)))", "_true"),
    "lex_leq": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "The order of the flattened leaves compared from the first: not lex_less(b, a).",
        "as many leaves in a as in b.",
        "static when decidable from the static leaves.",
        "lex_leq((1, 2), (1, 2))", "true"),
    "lex_gtr": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "The order of the flattened leaves compared from the first: lex_less(b, a).",
        "as many leaves in a as in b.",
        "static when decidable from the static leaves.",
        "lex_gtr((S(2), S(0)), (S(1), S(5)))", "_true"),
    "lex_geq": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "The order of the flattened leaves compared from the first: not lex_less(a, b).",
        "as many leaves in a as in b.",
        "static when decidable from the static leaves.",
        "lex_geq((1, 2), (1, 3))", "false"),
    "colex_leq": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "The order of the flattened leaves compared from the last: not colex_less(b, a).",
        "as many leaves in a as in b.",
        "static when decidable from the static leaves.",
        "colex_leq((2, 1), (1, 2))", "true"),
    "colex_gtr": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "The order of the flattened leaves compared from the last: colex_less(b, a).",
        "as many leaves in a as in b.",
        "static when decidable from the static leaves.",
        "colex_gtr((S(2), S(1)), (S(1), S(2)))", "_false"),
    "colex_geq": (
        "(a: IntTupleLike, b: IntTupleLike) -> Bool",
        "The order of the flattened leaves compared from the last: not colex_less(a, b).",
        "as many leaves in a as in b.",
        "static when decidable from the static leaves.",
        "colex_geq((S(1), S(2)), (S(2), S(1)))", "_true"),
    "unflatten": (
        "(f: IntTupleLike | LayoutLike, profile: IntTupleLike) -> IntTuple | Layout",
        "The flat tuple (or the flat layout's shape and stride) regrouped with the nesting of profile.",
        "f flat, with as many elements as profile has leaves.",
        "congruent with profile; flatten(result) == f.",
        "unflatten((2, 3, 4), (1, (1, 1)))", "(2,(3,4))"),
    "zip": (
        "(x: IntTupleLike | LayoutLike, y: IntTupleLike | LayoutLike | None = None) -> IntTuple | Layout",
        "A tuple of equal-rank tuples transposed, ((a,b),(c,d)) -> ((a,c),(b,d)); a tuple of non-tuples is "
        "wrapped; zip(x, y) = zip((x, y)); a layout zips its shape and stride.",
        "every mode a tuple of the rank of the first (when the first is a tuple).",
        "get(get(result, j), i) == get(get(x, i), j).",
        "zip((2, 3), (4, 5))", "((2,4),(3,5))"),
    "front": (
        "(t: IntTupleLike) -> int",
        "The first leaf of t (t itself for an integer).",
        "no empty tuple on the way.",
        "front(t) == get(flatten(t), 0).",
        "front(((2, 3), 4))", "2"),
    "back": (
        "(t: IntTupleLike) -> int",
        "The last leaf of t (t itself for an integer).",
        "no empty tuple on the way.",
        "back(t) is the last leaf of flatten(t).",
        "back((2, (3, 4)))", "4"),
    "replace_front": (
        "(t: IntTupleLike, x: IntTupleLike) -> IntTuple",
        "t with its first top-level mode replaced by x (x for an integer t).",
        "t is not the empty tuple.",
        "same rank as t.",
        "replace_front((2, (3, 4)), S(8))", "(_8,(3,4))"),
    "replace_back": (
        "(t: IntTupleLike, x: IntTupleLike) -> IntTuple",
        "t with its last top-level mode replaced by x (x for an integer t).",
        "t is not the empty tuple.",
        "same rank as t.",
        "replace_back((2, (3, 4)), S(8))", "(2,_8)"),
    "compact_order": (
        "(shape: IntTupleLike, order: IntTupleLike) -> IntTuple",
        "Compact strides for shape laying out the parts of shape at order's leaves by increasing order "
        "(static entries by value, dynamic ones after all static ones, ties by position), each part "
        "column-major.",
        "order weakly congruent to shape.",
        "make_layout(shape, result) is a bijection onto [0, size(shape)).",
        "compact_order((2, 3, 4), (S(1), S(2), S(0)))", "(4,8,_1)"),
    "make_layout_like": (
        "(L: LayoutLike) -> Layout",
        "A compact layout of L's shape whose modes follow the order of L's strides; static _0 strides stay "
        "_0.",
        "integer strides.",
        "same shape as L; a bijection onto [0, n) on the modes of non-zero stride.",
        "make_layout_like('(2,3,4,5):(_0,42,_1,_0)')", "(2,3,4,5):(_0,4,_1,_0)"),
    "coshape": (
        "(L: LayoutLike) -> int | IntTuple",
        "The shape of L's codomain: 1 + sum over leaves of (shape - 1) * |stride|; for basis strides one "
        "extent per codomain mode.",
        "L's strides all integers or all basis elements.",
        "every |L(i)| < result (entry by entry for basis strides); equal to cosize(L) for non-negative "
        "integer strides.",
        "coshape('_4:_-2')", "_7"),
    "coprofile": (
        "(L: LayoutLike) -> int | IntTuple",
        "The profile of L's codomain: _0 for integer strides, _0 per codomain mode for basis strides.",
        "L's strides all integers or all basis elements.",
        "congruent with coshape(L).",
        "coprofile('(4,8):(1,4)')", "_0"),
    "make_identity_layout": (
        "(shape: IntTupleLike) -> Layout",
        "The layout that maps each coordinate to itself: mode i has the strides prefix_product(mode i) "
        "along the basis element E<i> = _1@i (an integer shape gives n:_1). Divided like a data layout, "
        "it gives every element's coordinate.",
        "shape leaves >= 1.",
        "L(c) is c's natural coordinate per top-level mode, a coordinate tuple.",
        "make_identity_layout((4, 8))", "(4,8):(_1@0,_1@1)"),
    "make_basis_like": (
        "(shape: IntTupleLike) -> IntTuple",
        "The basis element E<i> = _1@i for each top-level mode i of shape (_1 for an integer shape).",
        "no mode of shape is a tuple (nested basis elements E<i,j> are not represented).",
        "crd2idx(c, shape, result) is the coordinate c.",
        "make_basis_like((4, 8))", "(_1@0,_1@1)"),
    "basis_get": (
        "(b: Value, t: IntTupleLike) -> IntTuple",
        "The part of t that the basis element b = v@N selects, get(t, N); t itself when b is no basis "
        "element.",
        "N < rank(t) (N = 0 for an integer t).",
        "basis_get(Basis(v, N), t) == get(t, N).",
        "basis_get(tessera.Basis(S(1), 1), (2, (3, 4)))", "(3,4)"),
    "get_hier_coord": (
        "(L: LayoutLike, i: int) -> IntTuple",
        "The natural coordinate (congruent with the shape) at which the compact L reaches offset i.",
        "L compact there and i one of its offsets (checked: an error when L(result) != i).",
        "L(result) == i.",
        "get_hier_coord('((2,2),3):((1,6),2)', 7)", "((1,1),0)"),
    "get_flat_coord": (
        "(L: LayoutLike, i: int) -> IntTuple",
        "The coordinate of offset i with one 1-D index per top-level mode (an integer for a rank-1 L).",
        "L compact there and i one of its offsets (checked: an error when L(result) != i).",
        "L(result) == i.",
        "get_flat_coord('((2,2),3):((1,6),2)', 7)", "(3,0)"),
    "get_1d_coord": (
        "(L: LayoutLike, i: int) -> IntTuple",
        "The column-major 1-D index at which the compact L reaches offset i.",
        "L compact there and i one of its offsets (checked: an error when L(result) != i).",
        "L(result) == i.",
        "get_1d_coord('((2,2),3):((1,6),2)', 7)", "3"),
    "domain_offset": (
        "(coord: IntTupleLike, L: LayoutLike) -> ValueTuple",
        "The pair (L, L(coord)): the layout to use from coord on and the offset to add to the pointer.",
        "coord is a coordinate of L.",
        "get(result, 1) == L(coord).",
        "domain_offset((1, 2), '(4,8):(_1,4)')", "((4,8):(_1,4),9)"),
    "with_shape": (
        "(L: LayoutLike, *shapes: IntTupleLike) -> Layout",
        "L read through a new shape: composition(L, make_layout(shape)) (several shapes: their tuple).",
        "composition's.",
        "shape(result) is the given shape; result(i) == L(i).",
        "with_shape('_32:_1', S(4), S(8))", "(_4,_8):(_1,_4)"),
    "tile_unzip": (
        "(L: LayoutLike, T: TilerLike) -> Layout",
        "The (tile, rest) pairs of L at the tiler's modes regrouped as ((tiles...), (rests..., "
        "trailing...)), as zipped_divide does after logical_divide.",
        "rank(T) <= rank(L); L has a (tile, rest) pair at each mode T covers.",
        "tile_unzip(logical_divide(A, T), T) == zipped_divide(A, T).",
        "tile_unzip('((_2,_3),(_5,_4)):((_1,_2),(_6,_30))', (S(2), S(5)))", "((_2,_5),(_3,_4)):((_1,_6),(_2,_30))"),
    "evenly_divides": (
        "(shape: IntTupleLike | LayoutLike, T: TilerLike) -> Bool",
        "Whether the tiler cuts shape into whole tiles mode by mode (an integer tile b: size == b * "
        "size(ceil_div(shape, b)); a layout tile: via its complement; `_` always; more tiles than modes: "
        "_false).",
        "none.",
        "static when decidable; if true, logical_divide(make_layout(shape), T) pads nothing.",
        "evenly_divides((S(8), S(6)), (S(4), S(3)))", "_true"),
    # ---- the core's tuple functions with a template index, taken as an argument; whole tuples ----
    "insert": (
        "(t: IntTupleLike, n: int, x: IntTupleLike) -> IntTuple",
        "t with x inserted as mode n (C++ insert<N>(t, x)); the modes from n on move up.",
        "t is a tuple (wrap an integer first); 0 <= n <= rank(t).",
        "rank grows by one; get(result, n) == x.",
        "insert((2, 3, 5), 1, S(4))", "(2,_4,3,5)"),
    "remove": (
        "(t: IntTupleLike, i: int) -> IntTuple",
        "t without mode i (C++ remove<I>(t)); an integer is the rank-1 tuple of itself.",
        "0 <= i < rank(t).",
        "rank shrinks by one.",
        "remove((2, 3, 5), 1)", "(2,5)"),
    "replace": (
        "(t: IntTupleLike, i: int, x: IntTupleLike) -> IntTuple",
        "t with mode i replaced by x (C++ replace<I>(t, x)); always a tuple (replace(7, 0, x) == (x)).",
        "0 <= i < rank(t).",
        "rank unchanged; get(result, i) == x.",
        "replace((2, 3, 5), 1, S(8))", "(2,_8,5)"),
    "find": (
        "(t: IntTupleLike, x: IntTupleLike) -> int",
        "The index of the first top-level mode of t statically equal to x (both static, or decided by "
        "structure), as a static integer; rank(t) if none.",
        "none.",
        "a static integer in [0, rank(t)].",
        "find((S(2), S(1), S(3)), S(1))", "_1"),
    "repeat": (
        "(n: int, x: IntTupleLike) -> IntTuple",
        "The tuple of n copies of x (C++ repeat<N>(x)).",
        "n >= 0.",
        "rank(result) == n.",
        "repeat(3, S(0))", "(_0,_0,_0)"),
    "repeat_like": (
        "(t: IntTupleLike, x: IntTupleLike) -> IntTuple",
        "x at every leaf of t.",
        "none.",
        "congruent with t where x is an integer.",
        "repeat_like((1, (2, 3)), S(0))", "(_0,(_0,_0))"),
    "make_seq_tuple": (
        "(n: int) -> IntTuple",
        "The tuple (_0, _1, ..., _{n-1}) (C++ make_seq_tuple<N>()).",
        "n >= 0.",
        "static; rank(result) == n.",
        "make_seq_tuple(3)", "(_0,_1,_2)"),
    "sum": (
        "(t: IntTupleLike) -> int",
        "The sum of all leaves of t (_0 for the empty tuple).",
        "no `_` in t.",
        "static when every leaf is static.",
        "sum((2, (S(3), 4)))", "9"),
    "wrap": (
        "(t: IntTupleLike) -> IntTuple",
        "t if it is a tuple, else the rank-1 tuple (t).",
        "none.",
        "a tuple.",
        "wrap(8)", "(8)"),
    "unwrap": (
        "(t: IntTupleLike) -> IntTupleLike",
        "The element of a rank-1 tuple, recursively; any other t itself.",
        "none.",
        "no rank-1 tuple at the top.",
        "unwrap(((S(8),),))", "_8"),
    "reverse": (
        "(t: IntTupleLike) -> IntTupleLike",
        "The top-level modes of t in reverse order; an integer unchanged.",
        "none.",
        "reverse(reverse(t)) == t.",
        "reverse((2, (3, 4), 5))", "(5,(3,4),2)"),
    "tuple_cat": (
        "(*ts: IntTupleLike) -> IntTuple",
        "The top-level modes of the tuples one after another.",
        "each argument is a tuple (wrap an integer first).",
        "rank(result) == the sum of the ranks.",
        "tuple_cat((2, 3), (), ((4, 5),))", "(2,3,(4,5))"),
    "flatten_to_tuple": (
        "(t: IntTupleLike) -> IntTuple",
        "The tuple of all leaves of t; an integer becomes the rank-1 tuple (t) (flatten keeps it).",
        "none.",
        "depth(result) <= 1; size(result) == size(t).",
        "flatten_to_tuple(5)", "(5)"),
    "and_": (
        "(a: Bool, b: Bool) -> Bool",
        "a and b, static when decidable (a static false decides alone).",
        "a and b are booleans (results of predicates).",
        "static when both are static or one is a static false.",
        "and_(tessera.congruent((2, 3), 1), tessera.equal(4, 4))", "_false"),
    "or_": (
        "(a: Bool, b: Bool) -> Bool",
        "a or b, static when decidable (a static true decides alone).",
        "a and b are booleans (results of predicates).",
        "static when both are static or one is a static true.",
        "or_(tessera.congruent((2, 3), (1, 2)), tessera.equal(4, 4))", "_true"),
    "dice": (
        "(step: Value, t: IntTupleLike) -> IntTupleLike",
        "The modes of t where the projection step has an integer such as _1; those where it has X are "
        "dropped (tensor/tiling.hpp). An integer t is kept whole.",
        "one step entry per mode of a tuple t.",
        "rank(result) == the number of kept modes.",
        "dice('(_1,X,_1)', (64, 64, 8))", "(64,8)"),
    "thread_coord": (
        "(thr: LayoutLike, i: int) -> IntTuple",
        "The coordinate, one 1-D index per top-level mode, of thread i in the thread layout thr (the c with "
        "thr(c) == i; tensor/tiling.hpp).",
        "thr a bijection of [0, size(thr)) (not checked).",
        "thr(result) == i; always a tuple.",
        "thread_coord('(8,8):(8,1)', 10)", "(1,2)"),
    "min": (
        "(a: int, b: int) -> int",
        "The smaller of two integers.",
        "none.",
        "static when both are static.",
        "min(S(2), 5)", "2"),
    "max": (
        "(a: int, b: int) -> int",
        "The larger of two integers.",
        "none.",
        "static when both are static.",
        "max(S(2), S(3))", "_3"),
    "abs": (
        "(a: int) -> int",
        "The absolute value of an integer.",
        "none.",
        "static when a is static.",
        "abs(S(-4))", "_4"),
    "signum": (
        "(a: int) -> int",
        "-1, 0 or 1 by the sign of a.",
        "none.",
        "static when a is static.",
        "signum(-4)", "-1"),
    "make_shape": (
        "(*xs: IntTupleLike) -> IntTuple",
        "The tuple of the arguments (tensor/tensor.hpp: a shape by its role).",
        "none.",
        "rank(result) == the number of arguments.",
        "make_shape(2, S(3))", "(2,_3)"),
    "make_stride": (
        "(*xs: IntTupleLike) -> IntTuple",
        "The tuple of the arguments (a stride by its role).",
        "none.",
        "rank(result) == the number of arguments.",
        "make_stride(S(1), 4)", "(_1,4)"),
    "make_coord": (
        "(*xs: IntTupleLike) -> IntTuple",
        "The tuple of the arguments (a coordinate by its role).",
        "none.",
        "rank(result) == the number of arguments.",
        "make_coord(1, 2)", "(1,2)"),
    "make_tile": (
        "(*xs: TilerLike) -> IntTuple | ValueTuple",
        "A tiler, one tile (a layout, a size or `_`) per mode: the tuple of the arguments.",
        "each argument a layout, an integer, a shape, a tiler or `_`.",
        "usable as the tiler of composition, the divides and the products.",
        "make_tile('_4:_2', S(8))", "(_4:_2,_8)"),
    "compact_col_major": (
        "(shape: IntTupleLike, start: IntTupleLike = S(1)) -> IntTuple",
        "The compact column-major strides of shape from start (exclusive prefix products from the left); "
        "a static size-1 leaf gets _0.",
        "start an integer, or a tuple of shape's rank (one start per mode).",
        "make_layout(shape, result) is compact.",
        "compact_col_major((2, 3, 5, 7))", "(_1,2,6,30)"),
    "compact_row_major": (
        "(shape: IntTupleLike, start: IntTupleLike = S(1)) -> IntTuple",
        "The compact row-major strides of shape from start (from the right).",
        "start an integer, or a tuple of shape's rank.",
        "make_layout(shape, result) is compact.",
        "compact_row_major((2, 3, 4))", "(12,4,_1)"),
    "compact_major": (
        "(shape: IntTupleLike, major: str, start: IntTupleLike = S(1)) -> IntTuple",
        "compact_col_major (major 'LayoutLeft') or compact_row_major ('LayoutRight') from start (C++ "
        "compact_major<Major>); a tuple start gives each top-level mode its own.",
        "major is 'LayoutLeft' or 'LayoutRight'; a tuple start has shape's rank.",
        "as compact_col_major / compact_row_major.",
        "compact_major((2, 3), 'LayoutRight')", "(3,_1)"),
    "slice": (
        "(c: IntTupleLike, x: IntTupleLike | LayoutLike | ComposedLayout) -> IntTuple | Layout | ComposedLayout",
        "The modes of x where the coordinate c has `_` (None); of a layout, its offset at the fixed part is "
        "dropped (slice_and_offset keeps it); of Sw o off o L the offset moves inside the swizzle.",
        "c matches x's nesting where it is a tuple.",
        "slice(c, L)(k) + L(c with `_` -> 0) == L(c with its `_` filled by k).",
        "slice((2, None), '((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))')", "((_2,_5,_2)):((_2,_13,_100))"),
    "slice_and_offset": (
        "(c: IntTupleLike, L: LayoutLike | ComposedLayout) -> ValueTuple",
        "(slice(c, L), L(c with `_` -> 0)); of Sw o off o L: (slice(c, it), _0).",
        "c matches L's nesting where it is a tuple.",
        "slice(c, L)(k) + offset == L(c with its `_` filled by k).",
        "slice_and_offset((2, None), '((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))')",
        "(((_2,_5,_2)):((_2,_13,_100)),8)"),
    # ---- composed (swizzled) layouts ---------------------------------------------------------
    "get_swizzle_portion": (
        "(c: ComposedLayout | LayoutLike) -> Swizzle",
        "The swizzle of Sw o off o L; of a plain layout the identity Sw<0,4,3> (as CuTe's).",
        "none.",
        "a swizzle.",
        "get_swizzle_portion('Sw<3,3,3> o _0 o (_8,_64):(_64,_1)')", "Sw<3,3,3>"),
    "get_nonswizzle_portion": (
        "(c: ComposedLayout | LayoutLike) -> Layout",
        "The inner layout L of Sw o off o L (the offset dropped, as CuTe's); a plain layout itself.",
        "none.",
        "a layout.",
        "get_nonswizzle_portion('Sw<3,3,3> o _0 o (_8,_64):(_64,_1)')", "(_8,_64):(_64,_1)"),
    "max_alignment": (
        "(L: LayoutLike) -> int",
        "The largest N that upcast<N>(L) accepts from L's static part (dynamic shapes count as _1, dynamic "
        "strides as _0).",
        "none.",
        "a static integer dividing size(L)'s static part.",
        "max_alignment('(_4,_8):(_1,_8)')", "_4"),
}


def docstring(name):
    """The docstring of the package's function `name`: what, contract, a worked example (doctest)."""
    signature, what, pre, post, call, result = FUNCTIONS[name]
    lines = [
        name + signature,
        "",
        what,
        "",
        "Precondition: " + (pre if pre == "none." else pre + " A violated one raises tessera.LayoutError with the C++ message."),
        "Postcondition: " + post,
        "",
        "Example:",
        "    >>> print(tessera." + call + ")",
    ]
    lines += ["    " + line for line in result.split("\n")]
    return "\n".join(lines) + "\n"
