"""The Python values of the algebra: construction, printing, evaluation, slicing, iteration,
equality, hashing and conversion errors (python/tessera/__init__.py, _types.py, src/module.cpp)."""

import pickle

import pytest

import tessera
from tessera import S


def test_static_and_dynamic_integers_print_as_the_library():
    a = tessera.make_layout((S(2), 4), (4, S(1)))
    assert str(a) == "(_2,4):(4,_1)"
    assert repr(a) == "Layout((_2,4):(4,_1))"
    assert str(tessera.make_layout((8, 4), (1, 8))) == "(8,4):(1,8)"
    assert str(tessera.make_layout(S(8))) == "_8:_1"
    assert str(S(8)) == "_8" and repr(S(8)) == "S(8)" and f"{S(8)}" == "_8" and f"{S(8):3d}" == "  8"
    assert S(8) == 8 and hash(S(8)) == hash(8) and isinstance(S(8) + 1, int)
    assert pickle.loads(pickle.dumps(S(3))) == 3 and isinstance(pickle.loads(pickle.dumps(S(3))), S)


def test_parse_the_eval_notation():
    L = tessera.layout("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")
    assert isinstance(L, tessera.Layout)
    assert str(L) == "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"
    assert L == tessera.make_layout(((S(4), S(8)), (S(2), S(2))), ((S(32), S(1)), (S(16), S(8))))
    assert str(tessera.parse("(_8,_64)")) == "(_8,_64)"
    assert str(tessera.layout("(2,3)")) == "(2,3):(_1,2)"  # a shape means its column-major layout


def test_evaluation_keeps_static_ness():
    L = tessera.layout("(_4,_8):(_8,_1)")
    assert L(3) == 24 and type(L(3)) is int          # a dynamic coordinate: a dynamic offset
    assert L(S(3)) == 24 and isinstance(L(S(3)), S)  # a static one: static
    assert L(1, 2) == 10
    assert L((1, 2)) == 10
    A = tessera.layout("((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))")
    assert A(S(2), S(1)) == 10 and isinstance(A(S(2), S(1)), S)  # (2,0) -> 8 in mode 0, (1,0,0) -> 2 in mode 1


def test_slicing_with_none_and_underscore():
    A = tessera.layout("((_3,_2),(_2,_5,_2)):((_4,_1),(_2,_13,_100))")
    assert str(A(2, None)) == "((_2,_5,_2)):((_2,_13,_100))"
    assert A(2, None) == A(2, tessera._)
    assert str(A((None, 1), (0, None, 1))) == "(_3,_5):(_4,_13)"
    assert str(A((1, None), (None, 3, None))) == "(_2,_2,_2):(_1,_2,_100)"


def test_queries():
    L = tessera.layout("(_2,(3,4)):(_1,(2,6))")
    assert L.shape == (2, (3, 4)) and str(L.shape) == "(_2,(3,4))" and isinstance(L.shape, tessera.IntTuple)
    assert L.stride == (1, (2, 6)) and repr(L.stride) == "(S(1), (2, 6))"
    assert L.size() == 24 and type(L.size()) is int
    assert L.rank() == 2 and isinstance(L.rank(), S)
    assert L.depth() == 2
    assert L.cosize() == 24
    assert str(tessera.cosize("(_2,_4):(_4,_1)")) == "_8"
    assert tessera.size(L) == L.size() and str(tessera.rank(L)) == "_2"


def test_modes_indexing_and_iteration():
    L = tessera.layout("(2,(3,4)):(1,(2,6))")
    assert len(L) == 2
    assert [str(m) for m in L] == ["2:1", "(3,4):(2,6)"]
    assert str(L[1]) == "(3,4):(2,6)" and L[-1] == L[1]
    with pytest.raises(IndexError):
        L[2]
    assert [str(m) for m in tessera.layout("_8:_1")] == ["_8:_1"]  # an integer layout is its own mode


def test_equality_and_hashing():
    a = tessera.layout("(2,4):(4,1)")
    b = tessera.layout("(_2,_4):(_4,_1)")
    assert a == b and hash(a) == hash(b)  # values, static-ness ignored (as S(2) == 2)
    assert a != tessera.layout("(2,4):(1,2)")
    assert len({a, b, tessera.layout("(2,4):(1,2)")}) == 2
    assert a != "(2,4):(4,1)" and a != (2, 4)
    sw = tessera.Swizzle(3, 3, 3)
    assert sw == tessera.parse("Sw<3,3,3>") and hash(sw) == hash(tessera.Swizzle(3, 3, 3)) and sw != tessera.Swizzle(2, 3, 3)
    atom = tessera.atom("SM80_16x8x16_F32F16F16F32_TN")
    assert atom == tessera.parse("SM80_16x8x16_F32F16F16F32_TN") and len({atom, tessera.atom(atom.name)}) == 1


def test_tuples_booleans_and_pairs():
    assert str(tessera.idx2crd(16, (3, (2, 3)))) == "(1,(1,2))"
    assert str(tessera.product_each((S(2), (3, 4)))) == "(_2,12)"
    assert str(tessera.IntTuple((S(8),))) == "(_8)" and str(tessera.IntTuple(())) == "()"
    r = tessera.congruent((2, (3, 4)), (1, (2, 6)))
    assert isinstance(r, tessera.Bool) and r and r.is_static and str(r) == "_true" and r == True  # noqa: E712
    assert str(tessera.compatible(((2, 3), 4), ((2, 2), (3, 2)))) == "false"
    tv = tessera.make_layout_tv("(_4,_32):(_32,_1)", "(_4,_8):(_8,_1)")
    assert isinstance(tv, tessera.TVLayout)
    tiler, layout = tv
    assert str(tiler) == "(_16,_256)" and tv.tiler == tiler and tv.tv == layout
    assert str(tv) == "((_16,_256),((_32,_4),(_8,_4)):((_128,_4),(_16,_1)))"
    # A TV pair goes back into the algebra as the tuple it is.
    assert str(tessera.get(tv, 1)) == str(layout)


def test_tilers_are_lists_and_value_tuples_round_trip():
    A = "(_12,(_4,_8)):(_59,(_13,_1))"
    assert str(tessera.composition(A, ["_3:_4", "_8:_2"])) == "(_3,(_2,_4)):(_236,(_26,_1))"
    assert str(tessera.composition(A, [tessera.layout("_3:_4"), tessera.layout("_8:_2")])) == "(_3,(_2,_4)):(_236,(_26,_1))"
    assert str(tessera.composition(A, (S(3), S(8)))) == "(_3,(_4,_2)):(_59,(_13,_1))"  # a shape tuple is a tiler
    t = tessera.parse("[_3:_4, _8:_2]")
    assert isinstance(t, tessera.ValueTuple) and str(t) == "(_3:_4,_8:_2)"
    assert str(tessera.composition(A, t)) == "(_3,(_2,_4)):(_236,(_26,_1))"
    # [_4, _8] stays a tiler of integers through a ValueTuple (not the shape (_4,_8)).
    ints = tessera.parse("[_4, _8]")
    assert isinstance(ints, tessera.ValueTuple) and tessera._tessera.to_value_text(ints) == "(_4,_8)"


def test_swizzles_and_composed_layouts():
    sw = tessera.Swizzle(3, 3, 3)
    assert [sw(x) for x in (0, 8, 64, 72, 127)] == [0, 8, 72, 64, 119]
    c = tessera.composition(sw, "(_8,_64):(_64,_1)")
    assert isinstance(c, tessera.ComposedLayout) and str(c) == "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"
    assert c == tessera.ComposedLayout(sw, "(_8,_64):(_64,_1)") == tessera.ComposedLayout(sw, S(0), "(_8,_64):(_64,_1)")
    assert c(1, 8) == tessera.eval("(Sw<3,3,3> o (_8,_64):(_64,_1))(1,8)") == "64" or c(1, 8) == 64
    assert str(c.layout) == "(_8,_64):(_64,_1)" and str(c.offset) == "_0" and c.swizzle == sw
    assert str(c(1, None)) == "Sw<3,3,3> o 64 o (_64):(_1)"


def test_print_layout_text_is_text():
    t = tessera.print_layout("(_2,(_2,_2)):(_4,(_2,_1))")
    assert isinstance(t, tessera.Text) and t.startswith("(_2,(_2,_2)):(_4,(_2,_1))\n")
    with pytest.raises(tessera.LayoutError, match="size: argument 1 is text"):
        tessera.size(t)


def test_atoms_and_tiled_operations():
    mma = tessera.atom("SM80_16x8x16_F32F16F16F32_TN")
    assert isinstance(mma, tessera.MmaAtom) and mma.name == str(mma) == "SM80_16x8x16_F32F16F16F32_TN"
    assert str(tessera.layout_c(mma)) == "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"
    assert str(tessera.layout_c("SM80_16x8x16_F32F16F16F32_TN")) == str(tessera.layout_c(mma))
    copy = tessera.atom("Copy_Atom<SM75_U32x4_LDSM_N,half_t>")
    assert isinstance(copy, tessera.CopyAtom) and str(tessera.layout_src(copy)) == "(_32,_8):(_8,_1)"
    tiled = tessera.make_tiled_mma(mma, (S(2), S(2), S(1)))
    assert isinstance(tiled, tessera.TiledMma)
    assert tessera.tile_size(tiled, 0) == 32 and isinstance(tessera.tile_size(tiled, 0), S)
    tc = tessera.make_tiled_copy_A(copy, tiled)
    assert isinstance(tc, tessera.TiledCopy)
    assert "SM75_U32x4_LDSM_N" in tessera.atom_names() and "Copy_Atom<SM75_U32x4_LDSM_N,half_t>" not in tessera.atom_names()


def test_every_eval_function_is_a_module_function():
    # exported by `from tessera import *` unless named like a builtin (test_packaging.py)
    import builtins

    assert len(tessera.FUNCTIONS) >= 80 and list(tessera.FUNCTIONS) == sorted(tessera.FUNCTIONS)
    for name in tessera.FUNCTIONS:
        f = getattr(tessera, name)
        assert callable(f) and f.__name__ == name and (name in tessera.__all__) != hasattr(builtins, name)


# ---- errors ------------------------------------------------------------------------------------------

def test_errors_are_layout_errors_with_the_library_message(cli):
    from conftest import run_cli

    with pytest.raises(tessera.LayoutError) as info:
        tessera.composition(tessera.layout("(4,8):(1,100)"), tessera.layout("3:3"))
    e = info.value
    assert isinstance(e, ValueError) and e.column is None
    status, out, _ = run_cli(cli, ["eval", "composition((4,8):(1,100), 3:3)"])
    assert status == 1 and out == "error: " + e.message + " at input column 1\n"
    assert str(e) == e.message


def test_parse_errors_carry_the_column():
    with pytest.raises(tessera.LayoutError) as info:
        tessera.eval("size((2,3")
    assert str(info.value) == "expected ',' or ')', got end of input at input column 10"
    assert info.value.message == "expected ',' or ')', got end of input" and info.value.column == 10
    with pytest.raises(tessera.LayoutError) as info:
        tessera.size("(2,3")  # a string argument is parsed: its own columns
    assert info.value.column == 5


@pytest.mark.parametrize("call, message", [
    (lambda: tessera.make_layout((4, 0)), "shape leaf 0 of (4,0) is < 1"),
    (lambda: tessera.make_layout((2, 3), (1,)), "are not congruent"),
    (lambda: tessera.layout("(4,8):(1,2)", 2), "mode index 2 is out of range"),
    (lambda: tessera.size(1, 2), "size: takes 1 argument, got 2"),
    (lambda: tessera.complement("(2,2):(1,1)", 8), "complement:"),
    (lambda: tessera.logical_divide("_8:_1", "(2,2):(1,1)"), "logical_divide: in its step complement:"),
    (lambda: tessera.make_layout((65536, 65536, 65536, 65536, 65536)), "does not fit in int64"),
    (lambda: tessera.make_layout(2 ** 70), "does not fit in int64"),
    (lambda: tessera.atom("SM99_NOPE"), "unknown name 'SM99_NOPE'"),
    (lambda: tessera.Swizzle(3, 3, 1), "Sw<3,3,1> is invalid"),
    (lambda: tessera.layout("(_4,_8):(_8,_1)")(4, 0, 1), "does not match"),
    (lambda: tessera.print_layout("(2,3,4):(1,2,6)"), "has rank 3, not 2"),
    (lambda: tessera.show("(_300,_300):(_1,_300)"), "more than 65536"),
    (lambda: tessera.analyze("(_32,_32):(_1,_32)"), "exactly one of smem"),
])
def test_error_cases(call, message):
    with pytest.raises(tessera.LayoutError, match=None) as info:
        call()
    assert message in str(info.value)
    assert str(info.value).isprintable() and len(str(info.value)) < 2100


def test_long_messages_are_bounded_as_the_command_bounds_them():
    big = tessera.make_layout((1,) * 2000)  # its text is far over 2000 bytes
    with pytest.raises(tessera.LayoutError) as info:
        tessera.print_layout(big)
    assert " ... " in str(info.value) and len(str(info.value)) <= 2000


@pytest.mark.parametrize("value", [1.5, {"a": 1}, object(), b"(2,3)"])
def test_values_the_algebra_has_no_use_for_are_type_errors(value):
    with pytest.raises(TypeError, match="cannot use"):
        tessera.size(value)


def test_values_are_bounded_as_expressions_are():
    deep = 1
    for _ in range(100):
        deep = (deep,)
    with pytest.raises(tessera.LayoutError, match="nested more than 64 levels"):
        tessera.size(deep)
    with pytest.raises(tessera.LayoutError, match="more than 65536 integers"):
        tessera.size((1,) * 70000)
    assert tessera.size((1,) * 60000) == 1


def test_other_integers_are_dynamic_integers():
    class Index:  # an integer type of another library (numpy's int64 is one)
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    L = tessera.make_layout((Index(8), Index(4)), (Index(1), S(8)))
    assert str(L) == "(8,4):(1,_8)" and L(Index(3), 1) == 11


def test_bools_are_not_integers():
    with pytest.raises(tessera.LayoutError, match="boolean"):
        tessera.make_layout(True)
    with pytest.raises(TypeError):
        S(True)


def test_basis_elements_and_coordinate_layouts():
    # A basis element v@N (a stride of a coordinate layout) is a tessera.Basis both ways.
    B, S = tessera.Basis, tessera.S
    assert str(B(S(1), 0)) == "_1@0" and str(B(4, 1)) == "4@1" and B(S(4), 1) == B(4, 1)
    L = tessera.make_identity_layout((4, 8))
    assert str(L) == "(4,8):(_1@0,_1@1)" and L.stride == (B(S(1), 0), B(S(1), 1))
    assert str(tessera.make_layout((4, 8), (B(S(1), 0), B(S(1), 1)))) == str(L)
    assert str(L(13)) == "(1,3)" and L(13) == (1, 3)
    assert str(tessera.layout("_4:_1@1")(2)) == "2@1"
    assert str(tessera.zipped_divide(tessera.make_identity_layout((100, 37)), (S(16), S(8)))) == \
        "((_16,_8),(7,5)):((_1@0,_1@1),(_16@0,_8@1))"
    assert str(tessera.basis_get(B(S(1), 1), (2, (3, 4)))) == "(3,4)"
    with pytest.raises(tessera.LayoutError, match="complement: argument 1 is a layout"):
        tessera.complement(L)
    with pytest.raises(ValueError):
        B(S(1), -1)
