#!/bin/sh
# tools.show_cli: `tessera show` on the command line: the formats, -o, and errors (message with
# the column, the expression, a caret under the column; exit status 1).
# usage: show_cli.sh TESSERA OUTDIR
set -u
tessera=$1 out=$2
mkdir -p "$out"
status=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    printf 'FAIL %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
    status=1
  else
    echo "ok   $1"
  fi
}

actual=$("$tessera" show '(_2,(_2,_2)):(_4,(_2,_1))'; echo "rc=$?")
check ascii "(_2,(_2,_2)):(_4,(_2,_1))
      0   1   2   3 
    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+
rc=0" "$actual"

actual=$("$tessera" show 'zipped_divide(make_identity_layout((4,2)), (_2,_1))'; echo "rc=$?")
check coordinates "((_2,_1),(2,2)):((_1@0,_0),(_2@0,_1@1))
          0       1       2       3 
    +-------+-------+-------+-------+
 0  | (0,0) | (2,0) | (0,1) | (2,1) |
    +-------+-------+-------+-------+
 1  | (1,0) | (3,0) | (1,1) | (3,1) |
    +-------+-------+-------+-------+
rc=0" "$actual"

actual=$("$tessera" show 'coalesce((2,4):(1,2)' 2>&1; echo "rc=$?")
check parse_error "error: expected ',' or ')', got end of input at input column 21
  coalesce((2,4):(1,2)
                      ^
rc=1" "$actual"

actual=$("$tessera" show 'size((2,3)) + 1' 2>&1; echo "rc=$?")
check trailing_error "error: unexpected '+' after the expression at input column 13
  size((2,3)) + 1
              ^
rc=1" "$actual"

actual=$("$tessera" show 'composition((4,8):(1,100), 3:3)' 2>&1; echo "rc=$?")
check algebra_error "error: composition: stride 3 of B = 3:3 and mode size 4 of A = (4,8):(1,100) do not divide one another and B's 3 remaining elements do not fit in that mode; use a B whose stride divides (or is a multiple of) the mode sizes of A at input column 1
  composition((4,8):(1,100), 3:3)
  ^
rc=1" "$actual"

actual=$("$tessera" show '(4,2):(1,4)' --tv 2>&1; echo "rc=$?")
check tv_without_tile "error: show: --tv needs the tile shape the layout indexes; add --tile M,N
rc=1" "$actual"

actual=$("$tessera" show 'UniversalFMA<float>'; echo "rc=$?")
check mma_atom "TiledMMA(UniversalFMA<float>, (_1,_1,_1):(_0,_0,_0), [_,_,_])

A 1x1: (_1,(_1,(_1,_1))):(_0,(_0,(_0,_0)))
          0 
    +-------+
 0  | T0/V0 |
    +-------+

B 1x1 (row k, column n): (_1,(_1,(_1,_1))):(_0,(_0,(_0,_0)))
          0 
    +-------+
 0  | T0/V0 |
    +-------+

C 1x1: (_1,(_1,(_1,_1))):(_0,(_0,(_0,_0)))
          0 
    +-------+
 0  | T0/V0 |
    +-------+
rc=0" "$actual"

actual=$("$tessera" show 'SM75_U32x4_LDSM_N' 2>&1; echo "rc=$?")
check copy_atom_alone "error: show: draw a copy atom through a tiled copy: make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, thr, val) or make_tiled_copy_A/B/C(Copy_Atom<...>, tiled_mma)
rc=1" "$actual"

actual=$("$tessera" show 'SM80_16x8x16_F32F16F16F32_TN' --tv --tile 4,4 2>&1; echo "rc=$?")
check atom_with_tile "error: show: --tv and --tile are for layouts; an atom, tiled MMA or tiled copy brings its own tiles
rc=1" "$actual"

"$tessera" show 'make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>,half_t>, (_4,_8):(_8,_1), (_1,_8))' --format svg -o "$out/copy.svg"
grep -q 'id="cells-1"' "$out/copy.svg" && echo "ok   tiled_copy_svg" || { echo "FAIL tiled_copy_svg"; status=1; }

actual=$("$tessera" show '(4,2):(1,4)' --format png 2>&1; echo "rc=$?")
check bad_format "error: show: unknown format png; use ascii, svg, html or latex
rc=1" "$actual"

actual=$("$tessera" show '(4,2):(1,4)' --tv --tile 4,2; echo "rc=$?")
check tv_tile "(4,2):(1,4) on tile (4,2)
          0       1 
    +-------+-------+
 0  | T0/V0 | T0/V1 |
    +-------+-------+
 1  | T1/V0 | T1/V1 |
    +-------+-------+
 2  | T2/V0 | T2/V1 |
    +-------+-------+
 3  | T3/V0 | T3/V1 |
    +-------+-------+
rc=0" "$actual"

for f in svg html latex; do
  rm -f "$out/p.$f"
  "$tessera" show 'composition(Sw<3,3,3>, (_8,_64):(_64,_1))' --format $f -o "$out/p.$f"
  rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$out/p.$f" ]; then echo "FAIL -o with --format $f (rc=$rc)"; status=1; else echo "ok   -o $f"; fi
done
head -c 5 "$out/p.svg" | grep -q '<?xml' || { echo "FAIL svg header"; status=1; }
grep -q '^<!DOCTYPE html>' "$out/p.html" || { echo "FAIL html doctype"; status=1; }
grep -q 'documentclass\[tikz' "$out/p.latex" || { echo "FAIL latex documentclass"; status=1; }
exit $status
