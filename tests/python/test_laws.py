"""The algebra's laws (ALGEBRA.md, "Laws") on seeded random calls, checked through the Python API
point by point: where the twin returns a result, the result obeys its function's law.

The differential test compares two front ends of the one run-time twin; these laws check the twin
itself on the same kind of random operands.
"""

import collections

import pytest

import tessera
from expressions import RandomExpressions, build

SEED = 7
PER_FUNCTION = 400
MAX_POINTS = 4096

LAW_FUNCTIONS = ["composition", "coalesce", "filter", "right_inverse", "left_inverse", "complement",
                 "zipped_divide", "logical_product", "make_layout_tv", "blocked_product", "raked_product"]


def point(x):
    """A layout's value as a comparable point: an integer offset as is; a coordinate (a basis
    element v@N of a coordinate layout, or a coordinate tuple) as its non-zero entries, so that
    the coordinate 2@1 of one layout equals the tuple (0,2) of another."""
    if isinstance(x, tessera.Basis):
        return (("@", x.mode, int(x.value)),) if int(x.value) != 0 else ()
    if isinstance(x, tuple):
        return tuple(("@", k, int(v)) for k, v in enumerate(x) if int(v) != 0)
    return x


def values(L):
    return [point(L(i)) for i in range(L.size())]


def small(*layouts):
    return all(isinstance(L, tessera.Layout) and L.size() <= MAX_POINTS for L in layouts)


def check(fn, args, result):
    """The law of fn for one call; returns None (holds, or not applicable) or what failed."""
    if fn == "composition":
        A, B = args
        if not (small(A, B) and isinstance(result, tessera.Layout)):
            return None
        # A(B(i)), with A as written (its last coordinate unreduced) where B(i) >= size(A) (docs/algebra.md).
        # A zero stride gives the integer _0 where A gives the coordinate zero: both are no offset.
        def norm(x):
            p = point(x)
            return () if p == 0 else p

        if [norm(result(i)) for i in range(B.size())] != [norm(A(B(i))) for i in range(B.size())]:
            return "R(i) != A(B(i))"
        if not tessera.compatible(B, result):
            return "not compatible(B, R)"
    elif fn == "coalesce" and len(args) == 1:
        (L,) = args
        if small(L) and values(result) != values(L):
            return "coalesce changed the function"
    elif fn == "filter":
        (L,) = args
        if small(L) and sorted(set(values(result))) != sorted(set(values(L))):
            return "filter changed the image"
    elif fn == "right_inverse":
        (L,) = args
        if small(L, result) and any(L(result(i)) != i for i in range(result.size())):
            return "L(R(i)) != i"
    elif fn == "left_inverse":
        (L,) = args
        if small(L) and any(result(L(i)) != i for i in range(L.size())):
            return "R(L(i)) != i"
    elif fn == "complement":
        A = args[0]
        if not small(A, result) or len(args) == 2 and not isinstance(args[1], int):
            return None
        M = args[1] if len(args) == 2 else tessera.cosize(tessera.filter(A))
        image_a = set(values(A))
        r = values(result)
        if any(r[i] >= r[i + 1] for i in range(len(r) - 1)):
            return "R not strictly increasing"
        if any(x in image_a for x in r[1:]):
            return "R(i) == A(j) for some i >= 1"
        if tessera.cosize(tessera.make_layout(A, result)) < M:
            return "cosize((A,R)) < M"
    elif fn == "zipped_divide":
        A, T = args
        if small(A) and isinstance(T, tessera.Layout) and isinstance(result, tessera.Layout):
            if str(result[0]) != str(tessera.composition(A, T)):
                return "layout<0>(zipped_divide(A,T)) != composition(A,T)"
    elif fn in ("logical_product", "blocked_product", "raked_product"):
        A, B = args
        if fn == "logical_product" and isinstance(B, tessera.Layout) and isinstance(result, tessera.Layout):
            if result[0] != A:
                return "layout<0>(logical_product(A,B)) != A"
            if not tessera.compatible(B, result[1]):
                return "not compatible(B, layout<1>(R))"
        if fn != "logical_product" and isinstance(A, tessera.Layout) and small(result):
            if result.size() != A.size() * tessera.size(B):
                return "size(R) != size(A) * size(B)"
    elif fn == "make_layout_tv":
        tiler, tv = result
        n = tessera.size(tiler)
        if n <= MAX_POINTS and sorted(values(tv)) != list(range(n)):
            return "tv is not a bijection onto the tile"
    return None


def test_laws_hold_on_random_calls():
    gen = RandomExpressions(SEED)
    trees = gen.many(PER_FUNCTION * len(LAW_FUNCTIONS), LAW_FUNCTIONS)
    checked = collections.Counter()
    failures = []
    for tree in trees:
        if tree[0] != "call":
            continue
        fn = tree[1]
        try:
            args = [build(k) for k in tree[2]]
            # Shapes as their layouts (a shape tiler becomes a layout: another call, with its own law).
            args = [a if (fn == "complement" and i == 1) or isinstance(a, (tessera.ValueTuple, list))
                    or not isinstance(a, (int, tuple)) else tessera.layout(a) for i, a in enumerate(args)]
            result = getattr(tessera, fn)(*args)
        except (tessera.LayoutError, TypeError):
            continue  # a refusal, or an operand that is no layout: no law to check
        problem = check(fn, args, result)
        checked[fn] += 1
        if problem:
            failures.append("%s(%s) = %s: %s" % (fn, ", ".join(str(a) for a in args), result, problem))
    assert not failures, "%d law failures, the first:\n%s" % (len(failures), "\n".join(failures[:10]))
    for fn in LAW_FUNCTIONS:
        assert checked[fn] >= 20, "only %d successful random calls of %s" % (checked[fn], fn)
