#!/bin/sh
# tools.cli_output: how every `tessera` subcommand ends. A failed write to standard output (here
# `> /dev/full`) or to -o FILE gives an `error: cannot write ...` line and exit status 1; a wrong
# command line exits 2; --help and --version exit 0 (README, "The tessera command").
# usage: cli_output.sh TESSERA OUTDIR
set -u
tessera=$1 out=$2
mkdir -p "$out"
fails=0
expect() {  # expect NAME STATUS ACTUAL_STATUS [SUBSTRING FILE]
  if [ "$2" != "$3" ]; then echo "FAIL $1: exit status $3, expected $2"; fails=$((fails + 1)); return; fi
  if [ $# -ge 5 ] && ! grep -qF -- "$4" "$5"; then
    echo "FAIL $1: expected '$4' in:"; cat "$5"; fails=$((fails + 1)); return
  fi
  echo "ok   $1"
}

if [ -w /dev/full ]; then
  "$tessera" eval 'size(4)' >/dev/full 2>"$out/e1.txt"
  expect eval_arg 1 $? "error: cannot write standard output" "$out/e1.txt"
  printf 'size(4)\n_4:_1\n' | "$tessera" eval >/dev/full 2>"$out/e2.txt"
  expect eval_stdin 1 $? "error: cannot write standard output" "$out/e2.txt"
  "$tessera" analyze --smem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' >/dev/full 2>"$out/e3.txt"
  expect analyze 1 $? "error: cannot write standard output" "$out/e3.txt"
  "$tessera" analyze --smem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' -o /dev/full >"$out/e4.out" 2>"$out/e4.txt"
  expect analyze_file 1 $? "error: cannot write /dev/full" "$out/e4.txt"
  "$tessera" advise --tile '(_32,_32)' --read 'make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>,float>, (_32,_1):(_1,_0))' \
    --read-side src >/dev/full 2>"$out/e8.txt"
  expect advise 1 $? "error: cannot write standard output" "$out/e8.txt"
  "$tessera" demo >/dev/full 2>"$out/e5.txt"
  expect demo 1 $? "error: cannot write standard output" "$out/e5.txt"
  "$tessera" show '(_2,(_2,_2)):(_4,(_2,_1))' >/dev/full 2>"$out/e6.txt"
  expect show 1 $? "error: cannot write standard output" "$out/e6.txt"
  "$tessera" show '(_2,(_2,_2)):(_4,(_2,_1))' -f svg -o /dev/full 2>"$out/e7.txt"
  expect show_file 1 $? "error: show: cannot write /dev/full" "$out/e7.txt"
else
  echo "note: /dev/full is missing; the failed-write checks are skipped"
fi

"$tessera" --version >"$out/v.txt" 2>&1
expect version 0 $? "tessera 0." "$out/v.txt"
"$tessera" eval --no-such-option >"$out/u1.txt" 2>&1
expect unknown_option 2 $? "--no-such-option" "$out/u1.txt"
"$tessera" >"$out/u2.txt" 2>&1
expect no_subcommand 2 $? "A subcommand is required" "$out/u2.txt"
"$tessera" show >"$out/u3.txt" 2>&1
expect missing_argument 2 $? "expr is required" "$out/u3.txt"
"$tessera" show --help >"$out/h.txt" 2>&1
expect help 0 $? "--format" "$out/h.txt"
"$tessera" eval 'size(4)' >"$out/ok.txt" 2>&1
expect success 0 $? "4" "$out/ok.txt"
"$tessera" eval 'size(' >"$out/bad.txt" 2>&1
expect bad_expression 1 $? "error: " "$out/bad.txt"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "cli_output: ok"
