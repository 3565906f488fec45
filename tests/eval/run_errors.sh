#!/usr/bin/env bash
# run_errors.sh TESSERA: bad lines print `error: ... at input column N` in place, the run goes on,
# and the exit status is 1; a single bad expression argument also exits 1; atoms are known by name.
set -u
tessera=$1
fail() { echo "run_errors: $*"; exit 1; }

out=$(printf '%s\n' '_4:_1' '(2,3' 'size((2,3))' 'composition((4,8):(1,100), 4:3)' '' 'nosuch(1)' '_8:_1' | "$tessera" eval)
status=$?
[ "$status" -eq 1 ] || fail "exit status $status, expected 1"
mapfile -t lines <<< "$out"
[ "${#lines[@]}" -eq 7 ] || fail "expected 7 output lines, got ${#lines[@]}: $out"
[ "${lines[0]}" = "_4:_1" ] || fail "line 1: ${lines[0]}"
[[ "${lines[1]}" == "error: "*" at input column 5" ]] || fail "line 2: ${lines[1]}"
[ "${lines[2]}" = "6" ] || fail "line 3: ${lines[2]}"
[[ "${lines[3]}" == "error: composition: "*" at input column 1" ]] || fail "line 4: ${lines[3]}"
[ "${lines[4]}" = "" ] || fail "line 5 should be blank: ${lines[4]}"
[[ "${lines[5]}" == "error: unknown function 'nosuch'"*" at input column 1" ]] || fail "line 6: ${lines[5]}"
[ "${lines[6]}" = "_8:_1" ] || fail "line 7: ${lines[6]}"

single=$("$tessera" eval 'coalesce((_2,(_1,_6)):(_1,(_6,_2)))') || fail "single good expression failed"
[ "$single" = "_12:_1" ] || fail "single expression printed $single"
"$tessera" eval '(_2,' > /dev/null && fail "single bad expression exited 0"

# atoms by name (the table of include/tessera/atom/names.hpp reaches the command)
atom=$("$tessera" eval 'layout_c(SM80_16x8x16_F32F16F16F32_TN)') || fail "layout_c of an atom failed"
[ "$atom" = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))" ] || fail "layout_c(SM80_16x8x16_F32F16F16F32_TN) printed $atom"
unknown=$("$tessera" eval 'layout_c(SM80_16x8x16_F32F16F16F32_NT)')
[[ "$unknown" == "error: unknown name 'SM80_16x8x16_F32F16F16F32_NT'"*" at input column 10" ]] || fail "unknown atom: $unknown"
# A failing step is named by the user's call and its operand, with the fix: logical_product by a B
# of cosize < 1 names B and B with its strides reversed (not "complement: the codomain size _0").
lp=$("$tessera" eval 'logical_product(_4:_1,_2:_-1)')
[ "$lp" = "error: logical_product: B = _2:_-1 has cosize _0 < 1 (its negative strides reach below offset 0), so the copies of A = _4:_1 have no room (the codomain size(A)*cosize(B) is empty); give B non-negative strides, e.g. _2:_1 (its negative strides reversed) at input column 1" ] ||
  fail "logical_product by a negative stride: $lp"
# A line past the input limit (1 MiB) is one error line and the run goes on; the reader keeps at
# most the limit of it, so memory stays bounded (a 3 MB line of 1.5 million integers).
long=$( { printf '('; yes '1,' | head -n 1500000 | tr -d '\n'; printf '1)\nsize(4)\n'; } | "$tessera" eval)
status=$?
[ "$status" -eq 1 ] || fail "long line: exit status $status, expected 1"
mapfile -t lines <<< "$long"
[ "${#lines[@]}" -eq 2 ] || fail "long line: expected 2 output lines, got ${#lines[@]}"
[[ "${lines[0]}" == "error: expression too long (more than 1048576 bytes"* ]] || fail "long line: ${lines[0]:0:200}"
[ "${lines[1]}" = "4" ] || fail "line after the long line: ${lines[1]:0:200}"
echo "run_errors: ok"
