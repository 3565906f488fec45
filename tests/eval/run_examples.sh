#!/usr/bin/env bash
# run_examples.sh TESSERA EXAMPLES: feed every EXPR of EXAMPLES (lines `EXPR<TAB>EXPECTED`, '#'
# comments and blank lines skipped, `\n` in EXPECTED = newline) to `TESSERA eval` on stdin and
# compare the output with the EXPECTED column exactly. Exit 0 only if all match and eval exits 0.
set -u
tessera=$1
examples=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grep -v -e '^#' -e '^[[:space:]]*$' "$examples" > "$work/cases"
awk -F'\t' '{ print $1 }' "$work/cases" > "$work/exprs"
awk -F'\t' '{ x = $2; gsub(/\\n/, "\n", x); print x }' "$work/cases" > "$work/expected"

"$tessera" eval < "$work/exprs" > "$work/actual"
status=$?

if ! diff -u "$work/expected" "$work/actual"; then
  echo "run_examples: output of 'tessera eval' differs from $examples (see diff above)"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "run_examples: 'tessera eval' exited with $status, expected 0"
  exit 1
fi
echo "run_examples: $(wc -l < "$work/cases") examples match"
