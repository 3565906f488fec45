#!/bin/sh
# `tessera analyze` end to end: known answers, heat maps, -o, and errors with a caret.
# Usage: analyze_cli.sh TESSERA_BINARY WORK_DIR
set -u
T=$1
W=$2
mkdir -p "$W"
fails=0
check() {  # check NAME EXPECTED_SUBSTRING FILE
  if ! grep -qF -- "$2" "$3"; then
    echo "FAIL $1: expected '$2' in:"; cat "$3"; fails=$((fails + 1))
  fi
}
status() {  # status NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then echo "FAIL $1: exit status $3, expected $2"; fails=$((fails + 1)); fi
}

"$T" analyze --smem '(_32,_32):(_32,_1)' --elem-bytes 4 --access '(_32,_32):(_1,_32)' >"$W/a.txt" 2>&1
status columns 0 $?
check columns "32.00 wavefronts/instruction, 32-way (bank conflicts)" "$W/a.txt"

"$T" analyze --smem '(_32,_32):(_33,_1)' --access '(_32,_32):(_1,_32)' >"$W/b.txt" 2>&1
check padded "1.00 wavefronts/instruction, 1-way (conflict-free)" "$W/b.txt"

"$T" analyze --smem 'Sw<3,3,3> o (_8,_64):(_64,_1)' --elem-bytes 2 --vector 8 \
  --access '((_8,_4),(_8,_2)):((_1,_64),(_8,_256))' --heatmap ascii >"$W/c.txt" 2>&1
check swizzled "4.00 wavefronts/instruction, 1-way (conflict-free)" "$W/c.txt"
check swizzled_heat "bank  word accesses  worst ways" "$W/c.txt"

# a tiled copy as the access: ldmatrix x4 of a 64x64 fp16 tile, unswizzled and under Sw<3,3,3>
LDSM='make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))'
"$T" analyze --smem '(_64,_64):(_64,_1)' --access "$LDSM" >"$W/l.txt" 2>&1
status ldsm 0 $?
check ldsm "32.00 wavefronts/instruction, 8-way (bank conflicts)" "$W/l.txt"
"$T" analyze --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' --access "$LDSM" >"$W/m.txt" 2>&1
check ldsm_swizzled "4.00 wavefronts/instruction, 1-way (conflict-free)" "$W/m.txt"
"$T" analyze --smem '(_64,_64):(_64,_1)' --access "$LDSM" --vector 8 >"$W/n.txt" 2>&1
status ldsm_vector 1 $?
check ldsm_vector "a tiled copy brings its element width and vector" "$W/n.txt"

"$T" analyze --gmem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' --heatmap svg -o "$W/g.svg" >"$W/g.txt" 2>&1
status gmem 0 $?
check gmem "coalescing efficiency 12.5%" "$W/g.txt"
check gmem_svg "<svg xmlns=\"http://www.w3.org/2000/svg\"" "$W/g.svg"

"$T" analyze --smem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' --heatmap svg >"$W/s.svg" 2>&1
check svg_stdout "</svg>" "$W/s.svg"

"$T" analyze --smem '(_32,_32):(_32,_1' --access '(_32,_32):(_1,_32)' >"$W/e1.txt" 2>&1
status parse_error 1 $?
check parse_error "error: --smem: expected ',' or ')', got end of input at input column 18" "$W/e1.txt"
check parse_caret "                   ^" "$W/e1.txt"

"$T" analyze --smem '(_32,_32):(_32,_1)' --access 'foo((_32,_32))' >"$W/e2.txt" 2>&1
status eval_error 1 $?
check eval_error "error: --access: " "$W/e2.txt"
check eval_error_column "at input column 1" "$W/e2.txt"

"$T" analyze --smem '(_32,_32):(_32,_1)' --access '(_32,_32):(_32,_1)' --vector 2 >"$W/e3.txt" 2>&1
status model_error 1 $?
check model_error "error: analyze: thread 0's vector 0" "$W/e3.txt"

"$T" analyze --access '(_32,_32):(_1,_32)' >"$W/e4.txt" 2>&1
status no_memory 1 $?
check no_memory "give exactly one of --smem LAYOUT or --gmem LAYOUT" "$W/e4.txt"

# An empty --smem is an error of --smem (it was reported under --gmem).
"$T" analyze --smem '' --access '(_32,_32):(_1,_32)' >"$W/e5.txt" 2>&1
status empty_smem 1 $?
check empty_smem "error: --smem: empty expression" "$W/e5.txt"
"$T" analyze --gmem '' --access '(_32,_32):(_1,_32)' >"$W/e6.txt" 2>&1
check empty_gmem "error: --gmem: empty expression" "$W/e6.txt"

[ $fails -eq 0 ] && echo "analyze_cli: all checks passed"
exit $fails
