"""Pictures and analysis from Python are those of `tessera show` and `tessera analyze`."""

import pytest

import tessera
from conftest import run_cli

DRAWN = [
    "(_2,(_2,_2)):(_4,(_2,_1))",
    "make_layout_tv((_4,_4):(_4,_1), (_2,_2):(_2,_1))",
    "composition(Sw<3,0,3>, (_8,_8):(_8,_1))",
    "SM80_16x8x16_F32F16F16F32_TN",
    "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1))",
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))",
]


@pytest.mark.parametrize("expr", DRAWN)
def test_repr_svg_is_tessera_show_svg(cli, expr):
    value = tessera.parse(expr)
    status, out, err = run_cli(cli, ["show", expr, "--format", "svg"])
    assert status == 0, err
    assert value._repr_svg_() == out
    assert out.startswith("<?xml") and "<svg" in out


@pytest.mark.parametrize("fmt", ["ascii", "svg", "html", "latex"])
@pytest.mark.parametrize("expr", [DRAWN[0], DRAWN[1], DRAWN[4]])
def test_show_formats_are_tessera_show(cli, expr, fmt):
    status, out, err = run_cli(cli, ["show", expr, "--format", fmt])
    assert status == 0, err
    assert tessera.show(tessera.parse(expr), fmt) == out
    assert tessera.show(expr, format=fmt) == out


def test_show_tv_on_a_tile_is_tessera_show(cli):
    tv = "((_32,_4),(_8,_4)):((_128,_4),(_16,_1))"
    status, out, err = run_cli(cli, ["show", tv, "--tv", "--tile", "16,256", "--format", "html"])
    assert status == 0, err
    page = tessera.show(tessera.layout(tv), "html", tv=True, tile=(16, 256))
    assert page == out and page.startswith("<!DOCTYPE html>") and "data-tv=\"1\"" in page


def test_repr_svg_is_none_where_nothing_can_be_drawn():
    assert tessera.atom("Copy_Atom<SM75_U32x4_LDSM_N,half_t>")._repr_svg_() is None  # draw it through a tiled copy
    assert tessera.layout("(_512,_512):(_1,_512)")._repr_svg_() is None          # over 65536 cells
    with pytest.raises(tessera.LayoutError, match="through a tiled copy"):
        tessera.show(tessera.atom("Copy_Atom<SM75_U32x4_LDSM_N,half_t>"))
    with pytest.raises(tessera.LayoutError, match="unknown format"):
        tessera.show("_8:_1", "png")


ANALYSES = [
    (["--smem", "(_32,_32):(_32,_1)", "--access", "(_32,_32):(_1,_32)"], dict(smem="(_32,_32):(_32,_1)"), "(_32,_32):(_1,_32)"),
    (["--smem", "(_32,_32):(_1,_32)", "--access", "(_32,_32):(_32,_1)", "--elem-bytes", "2", "--vector", "2"],
     dict(smem="(_32,_32):(_1,_32)", elem_bytes=2, vector=2), "(_32,_32):(_32,_1)"),
    (["--gmem", "(_32,_32):(_32,_1)", "--access", "(_32,_32):(_32,_1)"], dict(gmem="(_32,_32):(_32,_1)"), "(_32,_32):(_32,_1)"),
    (["--smem", "Sw<3,3,3> o (_64,_64):(_64,_1)", "--access",
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))"],
     dict(smem="Sw<3,3,3> o (_64,_64):(_64,_1)"),
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))"),
]


@pytest.mark.parametrize("args, kwargs, access", ANALYSES)
def test_analyze_is_tessera_analyze(cli, args, kwargs, access):
    status, out, err = run_cli(cli, ["analyze"] + args)
    assert status == 0, err
    r = tessera.analyze(access, **kwargs)
    assert r["text"] == out
    # The totals are the sums over the instructions.
    key = "wavefronts" if r["memory"] == "shared" else "sectors"
    assert r["totals"][key] == sum(i[key] for i in r["instructions"])
    assert r["totals"]["ideal"] == sum(i["ideal"] for i in r["instructions"])
    assert r["totals"]["instructions"] == len(r["instructions"])
    assert len(r["cell_heat"]) == r["rows"] * r["cols"]


def test_analyze_heatmaps_are_tessera_analyze(cli):
    for kind in ("ascii", "svg"):
        status, out, err = run_cli(cli, ["analyze", "--smem", "(_32,_32):(_32,_1)", "--access", "(_32,_32):(_1,_32)", "--heatmap", kind])
        assert status == 0, err
        r = tessera.analyze("(_32,_32):(_1,_32)", smem="(_32,_32):(_32,_1)", heatmap=kind)
        assert (r["text"] + r["heatmap"] if kind == "ascii" else r["heatmap"]) == out


def test_analyze_refusals():
    copy = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))"
    with pytest.raises(tessera.LayoutError, match="leave out elem_bytes and vector"):
        tessera.analyze(copy, smem="(_64,_64):(_64,_1)", elem_bytes=2)
    with pytest.raises(tessera.LayoutError, match="side is for a tiled copy"):
        tessera.analyze("(_32,_32):(_1,_32)", smem="(_32,_32):(_32,_1)", side="src")
    with pytest.raises(tessera.LayoutError, match="element width 3 bytes"):
        tessera.analyze("(_32,_32):(_1,_32)", smem="(_32,_32):(_32,_1)", elem_bytes=3)


CPASYNC = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))"
LDSM = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))"


def test_advise_is_tessera_advise(cli):
    status, out, err = run_cli(cli, ["advise", "--tile", "(_64,_64)", "--write", CPASYNC, "--read", LDSM])
    assert status == 0, err
    a = tessera.advise("(_64,_64)", write=CPASYNC, read=LDSM)
    assert a["text"] == out
    assert a["elem_bytes"] == 2
    assert a["best"]["layout"] == "Sw<3,3,3> o (_64,_64):(_64,_1)" and a["best"]["excess"] == 0
    assert a["best"]["swizzle"] == (3, 3, 3)
    legal = [c for c in a["candidates"] if c["legal"]]
    assert [c["excess"] for c in legal] == sorted(c["excess"] for c in legal)
    assert all(c["why_not"] for c in a["candidates"] if not c["legal"])
    plain = next(c for c in a["candidates"] if c["layout"] == "(_64,_64):(_64,_1)")
    assert plain["read_wavefronts"] == 8 * plain["read_ideal"]


def test_advise_tma_and_refusals():
    a = tessera.advise("(_64,_128)", tma_write=True, read=LDSM)
    assert all(c["pad_bytes"] == 0 for c in a["candidates"] if c["legal"])
    assert any("box inner extent of at most 128 bytes, got 256" in c["why_not"] for c in a["candidates"])
    with pytest.raises(tessera.LayoutError, match="name the instruction"):
        tessera.advise("(_64,_64)")
    with pytest.raises(tessera.LayoutError, match="must be a tiled copy"):
        tessera.advise("(_64,_64)", read="(_32,_32):(_1,_32)")
    with pytest.raises(tessera.LayoutError, match="rank-2 shape"):
        tessera.advise("(_64,_64,_2)", read=LDSM)


def test_check_tma_is_tessera_check(cli):
    cases = [("(4096,4096):(4096,1)", "Sw<3,3,3> o (_64,_64):(_64,_1)", 0),
             ("(4096,4100):(4100,1)", "(_64,_64):(_64,_1)", 1),
             ("(4096,4096):(4096,1)", "(_64,_64):(_65,_1)", 1)]
    for glob, box, want in cases:
        status, out, err = run_cli(cli, ["check", "tma", "--global", glob, "--box", box])
        assert status == want, err
        r = tessera.check_tma(glob, box)
        assert r["legal"] == (want == 0)
        if r["legal"]:
            assert out == "legal: " + r["message"] + "\n" and r["rule"] == ""
        else:
            assert err == "error: illegal (" + r["rule"] + "): " + r["message"] + "\n"
    assert tessera.check_tma("(1000,4096):(4096,1)", "Sw<2,2,3> o (_32,_16):(_16,_1)", elem_bytes=4)["legal"]


def test_check_tma_of_a_tile_is_tessera_check(cli):
    # attention's Q tile in two boxes of 64 columns; stored row-major its boxes are not TMA's; boxes
    # off the 128-byte swizzle's 1024-byte pattern; a box that does not divide the tile.
    glob = "(4096,4096):(4096,1)"
    cases = [("Sw<3,3,3> o (_128,_64):(_64,_1)", "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))", ""),
             ("Sw<3,3,3> o (_128,_64):(_64,_1)", "Sw<3,3,3> o (_128,_128):(_128,_1)", "tma.box_layout"),
             ("Sw<3,3,3> o (_8,_64):(_64,_1)", "Sw<3,3,3> o ((_8,_2),_64):((_64,_520),_1)", "tma.box_start"),
             ("(_48,_64):(_64,_1)", "(_128,_64):(_64,_1)", "tma.tile")]
    for box, smem, rule in cases:
        status, out, err = run_cli(cli, ["check", "tma", "--global", glob, "--box", box, "--smem", smem])
        r = tessera.check_tma(glob, box, smem=smem)
        assert (status, r["rule"], r["legal"]) == ((0 if rule == "" else 1), rule, rule == ""), err
        if r["legal"]:
            assert out == "legal: " + r["message"] + "\n"
            assert "; the tile (128,128) is 2 boxes (1 x 2)" in r["message"]
        else:
            assert err == "error: illegal (" + r["rule"] + "): " + r["message"] + "\n"


def test_check_tiled_copy_is_tessera_check(cli):
    cases = [("Sw<3,3,3> o (_64,_64):(_64,_1)", LDSM, [], ""),  # conflict-free
             ("(_64,_64):(_64,_1)", LDSM, [], ""),  # legal, 8-way conflicts
             ("(_64,_64):(_1,_64)", LDSM, [], "copy.vector"),  # M-major: ldmatrix's rows are columns here
             ("(_8,_8):(_8,_1)", LDSM, [], "copy.tile"),
             ("(_32,_32):(_32,_1)", "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_1):(_1,_0))",
              ["--side", "src"], "")]
    for smem, copy, extra, rule in cases:
        status, out, err = run_cli(cli, ["check", "copy", "--smem", smem, "--copy", copy] + extra)
        r = tessera.check_tiled_copy(smem, copy, side=extra[1] if extra else None)
        assert (status, r["rule"], r["legal"]) == ((0 if rule == "" else 1), rule, rule == ""), err
        if r["legal"]:
            assert out == "legal: " + r["message"] + "\n"
        else:
            assert err == "error: illegal (" + r["rule"] + "): " + r["message"] + "\n"
    assert tessera.check_tiled_copy("(_64,_64):(_64,_1)", LDSM)["message"].endswith(
        "1024 wavefronts (ideal 128): 8-way bank conflicts")
    assert tessera.check_tiled_copy(tessera.layout("Sw<3,3,3> o (_64,_64):(_64,_1)"), tessera.parse(LDSM))["legal"]
    with pytest.raises(tessera.LayoutError, match="must be a tiled copy"):
        tessera.check_tiled_copy("(_64,_64):(_64,_1)", "(_32,_32):(_1,_32)")
    with pytest.raises(tessera.LayoutError, match="src"):  # a universal copy does not say its shared side
        tessera.check_tiled_copy("(_32,_32):(_32,_1)",
                                 "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_1):(_1,_0))")
    with pytest.raises(tessera.LayoutError):
        tessera.check_tiled_copy("(_64,_64):(_64,_1)", LDSM, side="shared")


def test_check_wgmma_is_tessera_check(cli):
    cases = [("Sw<3,3,3> o (_64,_64):(_64,_1)", [], 0),
             ("Sw<3,3,3> o (_64,_128):(_128,_1)", [], 1),
             ("tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_128,_64), (_1,_0))", ["--major", "mn", "--block", "64"], 0),
             ("Sw<3,4,3> o (_64,_64):(_64,_1)", [], 1)]
    for smem, extra, want in cases:
        status, out, err = run_cli(cli, ["check", "wgmma", "--smem", smem] + extra)
        assert status == want, err
        major = extra[1] if extra else None
        block = int(extra[3]) if extra else None
        r = tessera.check_wgmma(smem, major=major, block=block)
        assert r["legal"] == (want == 0)
        if r["legal"]:
            assert out == "legal: " + r["message"] + "\n" and r["rule"] == ""
        else:
            assert err == "error: illegal (" + r["rule"] + "): " + r["message"] + "\n"
    # The Hopper GEMM's K-major stage: 128-byte swizzle, 64 x 16 blocks 32 bytes apart along K, SBO 1024.
    r = tessera.check_wgmma("Sw<3,3,3> o (_64,_64):(_64,_1)")
    assert (r["major"], r["swizzle_bytes"], r["mn_block"], r["k_block"]) == ("k", 128, 64, 16)
    assert [b["start_bytes"] for b in r["blocks"]] == [0, 32, 64, 96]
    assert all(b["lbo_bytes"] is None and b["sbo_bytes"] == 1024 for b in r["blocks"])
    # MN-major B of 128 in one descriptor: 64-element chunks 8192 bytes apart (LBO), K groups 1024 (SBO).
    b = tessera.check_wgmma("tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_128,_64), (_1,_0))")["blocks"][0]
    assert (b["lbo_bytes"], b["sbo_bytes"]) == (8192, 1024)
    assert tessera.check_wgmma("Sw<3,2,3> o (_64,_32):(_32,_1)", elem_bytes=4)["legal"]
    assert tessera.check_wgmma("(_64,_64):(_1,_64)", elem_bytes=4)["rule"] == "wgmma.elem"
    with pytest.raises(tessera.LayoutError, match="major must be 'k' or 'mn'"):
        tessera.check_wgmma("Sw<3,3,3> o (_64,_64):(_64,_1)", major="m")


def test_check_copy_is_tessera_check(cli):
    cases = [("(_8,_4):(_1,_4096)", None, ["--width", "128", "--elem", "half_t"], 0),
             ("(_8,_8):(_8,_1)", None, ["--width", "128", "--elem", "half_t"], 1),
             ("(_8,_4):(_1,_4100)", None, ["--width", "128", "--elem", "half_t"], 1),
             ("(_8):(_1)", "Sw<3,2,3> o (_8):(_1)", ["--width", "128", "--elem-bytes", "2"], 1),
             ("(_8,_4):(_1,_4096)", None, ["--width", "128", "--elem", "float", "--align", "8"], 1)]
    for src, dst, extra, want in cases:
        args = ["check", "copy", "--src", src] + (["--dst", dst] if dst else []) + extra
        status, out, err = run_cli(cli, args)
        assert status == want, err
        opts = dict(zip(extra[::2], extra[1::2]))
        r = tessera.check_copy(src, dst, width=int(opts["--width"]), elem=opts.get("--elem"),
                               elem_bytes=int(opts.get("--elem-bytes", 2)), align=int(opts.get("--align", 16)))
        assert r["legal"] == (want == 0)
        if r["legal"]:
            assert out == "legal: " + r["message"] + "\n" and r["rule"] == ""
        else:
            assert err == "error: illegal (" + r["rule"] + "): " + r["message"] + "\n"
    # add_tv_static's thread: 4 rows of 8 halves, one 128-bit vector a row.
    r = tessera.check_copy("(_8,_4):(_1,_4096)", width=128)
    assert (r["legal"], r["runs"], r["vector"], r["widest_bits"], r["library_vectorizes"]) == (True, 4, 8, 128, True)
    # A row-major tile into a column-major fragment: only element by element; the fix names the fragment.
    r = tessera.check_copy("(_8,_8):(_8,_1)", width=128)
    assert (r["rule"], r["widest_bits"]) == ("copy.contiguous", 16)
    assert "a destination fragment in the source's order, (_8,_8):(_8,_1)" in r["message"]
    assert tessera.check_copy("(_8,_8):(_8,_1)", "(_8,_8):(_8,_1)", width=128)["legal"]
    assert tessera.check_copy(dst="(_8):(_1)", width=64, elem_bytes=4)["legal"]
    assert tessera.check_copy("(_8):(_1)", width=128, align=8)["rule"] == "copy.align"
    assert not tessera.check_copy("(8,4):(1,4096)", width=128)["library_vectorizes"]  # run-time strides
    with pytest.raises(tessera.LayoutError, match="give the source or the destination"):
        tessera.check_copy(width=128)
    with pytest.raises(tessera.LayoutError, match="unknown element type 'half'"):
        tessera.check_copy("(_8):(_1)", elem="half")

def test_advise_wgmma_reader(cli):
    args = ["advise", "--tile", "(_128,_128)", "--tma-write", "--wgmma-read", "--elem-bytes", "2"]
    status, out, err = run_cli(cli, args)
    assert status == 0, err
    a = tessera.advise("(_128,_128)", tma_write=True, wgmma_read=True, elem_bytes=2)
    assert a["text"] == out
    # attention's Q tile of 128 rows x 128: two 64-column atoms of the 128-byte swizzle, one box each
    assert a["best"]["layout"] == "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))"
    assert a["best"]["tma_boxes"] == 2 and a["best"]["read_wavefronts"] == a["best"]["read_ideal"]
    boxes = [c["tma_boxes"] for c in a["candidates"] if c["legal"]]
    assert boxes == sorted(boxes)
    b = tessera.advise("(_128,_64)", tma_write=True, wgmma_read=True, column_major=True, elem_bytes=2, wgmma_block=128)
    assert b["best"]["layout"] == "tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_128,_64), (_1,_0))"
    with pytest.raises(tessera.LayoutError, match="one reader"):
        tessera.advise("(_64,_64)", read=LDSM, wgmma_read=True)
    with pytest.raises(tessera.LayoutError, match="do not say the element type"):
        tessera.advise("(_64,_64)", tma_write=True, wgmma_read=True)
