#!/bin/sh
# `tessera advise` and `tessera check` end to end: the canonical answers, the TMA rules, errors with a
# caret, exit statuses.
# Usage: advise_cli.sh TESSERA_BINARY WORK_DIR
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
CPASYNC='make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>, (_16,_8):(_8,_1), (_1,_8))'
LDSM='make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))'

"$T" advise --tile '(_64,_64)' --write "$CPASYNC" --read "$LDSM" >"$W/a.txt" 2>&1
status kmajor 0 $?
check kmajor "best:  Sw<3,3,3> o (_64,_64):(_64,_1)  (conflict-free)" "$W/a.txt"
check kmajor_table "        64/64       128/128       0      0  Sw<3,3,3> o (_64,_64):(_64,_1)" "$W/a.txt"

"$T" advise --tile '(_64,_128)' --tma-write --read "$LDSM" --all >"$W/b.txt" 2>&1
status tma_wide 0 $?
check tma_wide "TMA: a 128-byte swizzle needs a box inner extent of at most 128 bytes, got 256" "$W/b.txt"
check tma_wide_all "  illegal: (_64,_128):(_136,_1): TMA writes the box densely: no padding" "$W/b.txt"

"$T" advise --tile '(_64,_64' --read "$LDSM" >"$W/c.txt" 2>&1
status caret 1 $?
check caret "error: --tile: expected ',' or ')'" "$W/c.txt"

"$T" advise --tile '(_64,_64)' >"$W/d.txt" 2>&1
status nothing 1 $?
check nothing "name the instruction that writes the tile" "$W/d.txt"

"$T" advise --tile '(_64,_64)' --read '(_32,_32):(_1,_32)' >"$W/e.txt" 2>&1
status not_a_copy 1 $?
check not_a_copy "error: --read: need a tiled copy" "$W/e.txt"

"$T" advise --tile '(_128,_128)' --tma-write --wgmma-read --elem-bytes 2 >"$W/q.txt" 2>&1
status wgmma 0 $?
check wgmma "read:  wgmma, K-major operand" "$W/q.txt"
check wgmma "best:  tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))  (conflict-free, 2 TMA boxes)" "$W/q.txt"

"$T" advise --tile '(_64,_64)' --tma-write --wgmma-read >"$W/r.txt" 2>&1
status wgmma_no_type 1 $?
check wgmma_no_type "error: advise: TMA and wgmma do not say the element type; give it (--elem-bytes)" "$W/r.txt"

"$T" advise >"$W/f.txt" 2>&1
status usage 2 $?

"$T" check tma --global '(4096,4096):(4096,1)' --box 'Sw<3,3,3> o (_64,_64):(_64,_1)' >"$W/g.txt" 2>&1
status check_legal 0 $?
check check_legal "legal: TMA boxes of 64 rows x 64 elements (rows along mode 1, 128 bytes), 128-byte swizzle" "$W/g.txt"

"$T" check tma --global '(4096,4100):(4100,1)' --box '(_64,_64):(_64,_1)' >"$W/h.txt" 2>&1
status check_pitch 1 $?
check check_pitch "error: illegal (tma.map): the row pitch ld * elem_bytes = 8200 bytes is not a multiple of 16" "$W/h.txt"

# A tile filled by several boxes (--smem): attention's Q tile in two boxes; stored row-major, its
# boxes are not laid out as TMA writes them.
"$T" check tma --global '(4096,4096):(4096,1)' --box 'Sw<3,3,3> o (_128,_64):(_64,_1)' \
  --smem 'tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_128))' >"$W/t1.txt" 2>&1
status check_tile 0 $?
check check_tile "; the tile (128,128) is 2 boxes (1 x 2), each laid out as the box, starting at multiples of 1024 bytes" "$W/t1.txt"
"$T" check tma --global '(4096,4096):(4096,1)' --box 'Sw<3,3,3> o (_128,_64):(_64,_1)' \
  --smem 'Sw<3,3,3> o (_128,_128):(_128,_1)' >"$W/t2.txt" 2>&1
status check_tile_layout 1 $?
check check_tile_layout "error: illegal (tma.box_layout): box (0,0) (tile elements (0,0) on) of the tile (_128,_128):(_128,_1)" "$W/t2.txt"
"$T" check tma --global '(4096,4096):(4096,1)' --box 'Sw<3,3,3> o (_8,_64):(_64,_1)' \
  --smem 'Sw<3,3,3> o ((_8,_2),_64):((_64,_520),_1)' >"$W/t3.txt" 2>&1
status check_tile_start 1 $?
check check_tile_start "error: illegal (tma.box_start): box (1,0) (tile elements (8,0) on) starts at element 520 (byte 1040)" "$W/t3.txt"
# Offsets near 2^62 (bytes beyond int64): named without a product that overflows (the sanitized
# command runs this script too, tests/fuzz/cli_sanitized.sh).
"$T" check tma --global '(4096,4096):(4096,1)' --box '(_2,_64):(_64,_1)' \
  --smem '((_2,_2),_64):((_64,_4611686018427387905),_1)' >"$W/t5.txt" 2>&1
status check_tile_huge 1 $?
check check_tile_huge "starts at element 4611686018427387905, not a multiple of 128 bytes" "$W/t5.txt"
"$T" check wgmma --smem '(_8,(_8,_2)):(_8,(_1,_4611686018427387904))' >"$W/t6.txt" 2>&1
status check_wgmma_huge 1 $?
check check_wgmma_huge "error: illegal (wgmma.lbo): block (0,0): LBO (from one 16-byte unit of K to the next) is beyond 2^62 bytes" "$W/t6.txt"
"$T" advise --tile '(_512,_64)' --tma-write --read "$LDSM" >"$W/t4.txt" 2>&1
status advise_512_rows 0 $?
check advise_512_rows "best:  Sw<3,3,3> o (_512,_64):(_64,_1)  (conflict-free, 2 TMA boxes)" "$W/t4.txt"

"$T" check tma --global '(4096,4096):(4096,1)' --box '(_64,_64):(_64,_1' >"$W/i.txt" 2>&1
status check_caret 1 $?
check check_caret "error: --box: expected ',' or ')'" "$W/i.txt"

"$T" check copy --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' --copy "$LDSM" >"$W/k.txt" 2>&1
status check_copy 0 $?
check check_copy "legal: 32 instructions of 16-byte vectors a thread, 128 wavefronts (ideal 128): conflict-free" "$W/k.txt"

"$T" check copy --smem '(_64,_64):(_1,_64)' --copy "$LDSM" >"$W/l.txt" 2>&1
status check_copy_vector 1 $?
check check_copy_vector "error: illegal (copy.vector): analyze: thread 0's vector 0" "$W/l.txt"

"$T" check wgmma --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' >"$W/m.txt" 2>&1
status check_wgmma 0 $?
check check_wgmma "legal: K-major 2-byte elements, 128-byte swizzle (Sw<3,3,3> o (_8,_64):(_64,_1) atoms): 4 descriptors of 64 x 16 blocks, LBO unused, SBO 1024 bytes" "$W/m.txt"

"$T" check wgmma --smem 'Sw<3,3,3> o (_64,_128):(_128,_1)' >"$W/n.txt" 2>&1
status check_wgmma_core 1 $?
check check_wgmma_core "error: illegal (wgmma.core): block (0,0): element (1,0) is at offset 128" "$W/n.txt"

"$T" check wgmma --smem 'tile_to_shape(Sw<3,3,3> o (_64,_8):(_1,_64), (_128,_64), (_1,_0))' --major mn --block 64 >"$W/o.txt" 2>&1
status check_wgmma_mn 0 $?
check check_wgmma_mn "legal: MN-major 2-byte elements, 128-byte swizzle (Sw<3,3,3> o (_64,_8):(_1,_64) atoms): 8 descriptors of 64 x 16 blocks, LBO unused, SBO 1024 bytes" "$W/o.txt"

"$T" check wgmma --smem 'Sw<3,3,3> o (_64,_64):(_64,_1)' --major x >"$W/p.txt" 2>&1
status check_wgmma_usage 2 $?

"$T" check copy --src '(_8,_4):(_1,_4096)' --width 128 --elem half_t >"$W/s.txt" 2>&1
status check_copy_width 0 $?
check check_copy_width "legal: 4 vectors of 128 bits (8 elements, 16 bytes) over 32 elements (_8,_4):(_1,_4096) -> (_8,_4):(_1,_8)" "$W/s.txt"

"$T" check copy --src '(_8,_4):(_1,_4100)' --width 128 --elem half_t >"$W/t.txt" 2>&1
status check_copy_run_align 1 $?
check check_copy_run_align "error: illegal (copy.run_align): run 1 (elements 8..15) starts at source offset 4100 (byte 8200)" "$W/t.txt"
check check_copy_run_align "64 bits is the widest these layouts allow" "$W/t.txt"

"$T" check copy --src '(_8,_8):(_8,_1)' --width 64 --elem-bytes 4 --align 4 >"$W/u.txt" 2>&1
status check_copy_contiguous 1 $?
check check_copy_contiguous "error: illegal (copy.contiguous): run 0 (elements 0..1): element 1 is at source offset 8, a 64-bit vector needs 1" "$W/u.txt"

"$T" check copy --dst 'Sw<3,2,3> o (_8,_8):(_8,_1)' --width 128 >"$W/v.txt" 2>&1
status check_copy_swizzle 1 $?
check check_copy_swizzle "error: illegal (copy.swizzle): the destination's swizzle Sw<3,2,3> keeps 4 elements (8 bytes) together" "$W/v.txt"

"$T" check copy --src '(_8):(_1)' --width 128 --align 8 >"$W/w.txt" 2>&1
status check_copy_align 1 $?
check check_copy_align "error: illegal (copy.align): the base pointers are 8-byte aligned, a 128-bit vector needs 16" "$W/w.txt"

"$T" check copy --src '(_8):(_1)' --dst '(_4):(_1)' --width 64 >"$W/x.txt" 2>&1
status check_copy_sizes 1 $?
check check_copy_sizes "error: check copy: the source (_8):(_1) has 8 elements, the destination (_4):(_1) 4" "$W/x.txt"

"$T" check copy --src '(_8):(_1' --width 64 >"$W/y.txt" 2>&1
status check_copy_caret 1 $?
check check_copy_caret "error: --src: expected ',' or ')'" "$W/y.txt"

"$T" check copy --src '(_8):(_1)' --width 64 --elem half >"$W/z.txt" 2>&1
status check_copy_elem 1 $?
check check_copy_elem "error: --elem: unknown element type 'half'" "$W/z.txt"

"$T" check copy --src '(_8):(_1)' >"$W/aa.txt" 2>&1
status check_copy_no_width 2 $?
check check_copy_no_width "give the width (--width BITS)" "$W/aa.txt"

"$T" check copy --src '(_8):(_1)' --width 96 >"$W/ab.txt" 2>&1
status check_copy_bad_width 2 $?

"$T" check copy --src '(_8):(_1)' --smem '(_8):(_1)' --width 64 >"$W/ac.txt" 2>&1
status check_copy_both_modes 2 $?

"$T" check copy >"$W/ad.txt" 2>&1
status check_copy_nothing 2 $?
check check_copy_nothing "give a tiled copy over a shared-memory tile (--smem L --copy C), or a vector width" "$W/ad.txt"

"$T" check >"$W/j.txt" 2>&1
status check_usage 2 $?

[ "$fails" -eq 0 ] && echo "advise_cli: all checks passed"
exit "$fails"
