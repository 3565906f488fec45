#!/bin/sh
# tessera-bench's command line: --version and --help succeed, a wrong option or value exits 2 with
# CLI11's message (a --suite naming no shape class: the suite's own), and a run that cannot run exits 2 saying why: without a GPU "no CUDA device
# visible", with one a --kernels that matches nothing.
#   sh cli.sh <tessera-bench> <expected version>
B=$1
VERSION=$2
fail=0
check() {  # check NAME WANT_STATUS WANT_TEXT -- COMMAND...
  name=$1; want=$2; text=$3; shift 4
  out=$("$@" 2>&1); got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit $got, want $want; output:"; echo "$out"; fail=1
  elif ! printf '%s\n' "$out" | grep -qF -- "$text"; then
    echo "FAIL $name: output lacks \"$text\"; output:"; echo "$out"; fail=1
  else
    echo "ok   $name"
  fi
}
check version 0 "tessera-bench $VERSION" -- "$B" --version
check help 0 "--kernels" -- "$B" --help
check bad-sizes 2 "--sizes" -- "$B" --sizes huge
check bad-option 2 "--no-such-option" -- "$B" --no-such-option
check bad-shapes 2 "--shapes" -- "$B" --shapes 12x
check bad-suite 2 "no shape class 'tall'" -- "$B" --suite tall
check suite-and-shapes 2 "excludes" -- "$B" --suite odd --shapes 64x64x64
if nvidia-smi -L >/dev/null 2>&1; then
  check no-match 2 "no kernel of this run matches --kernels '^no_such_kernel\$'" -- "$B" --kernels '^no_such_kernel$'
else
  check no-gpu 2 "tessera-bench: no CUDA device visible; nothing to run" -- "$B" --quick
fi
exit $fail
