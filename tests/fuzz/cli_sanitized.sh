#!/usr/bin/env bash
# sanitize.cli: the `tessera` command built with AddressSanitizer and UndefinedBehaviorSanitizer
# (tessera_cli_sanitized, tests/fuzz/CMakeLists.txt) on a fixed set of hostile invocations: the
# reproducers of issue 13 (offsets whose byte addresses overflow, a 20 MB line of integers, deep
# nesting, huge heat maps, quadratic prepend, output to /dev/full, corner cases of the algebra,
# NUL/ESC/UTF-8 bytes and a 1 MB name), `show` in every format, `analyze` with both heat maps, and
# the command-line tests of tests/tools and tests/eval run with this binary.
# Fails on any sanitizer report (each process writes one to WORK_DIR/logs), on a crash or time-out
# (an exit status other than 0, 1 or 2) and on a failing reused test script.
# usage: cli_sanitized.sh TESSERA WORK_DIR SOURCE_DIR
set -u
T=$1 W=$2 SRC=$3
rm -rf "$W"
mkdir -p "$W/logs"
# A report goes to WORK_DIR/logs/{asan,ubsan}.PID, and the process exits 99, never 0, 1 or 2.
export ASAN_OPTIONS="log_path=$W/logs/asan:exitcode=99:detect_leaks=1:allocator_may_return_null=0"
export UBSAN_OPTIONS="log_path=$W/logs/ubsan:exitcode=99:halt_on_error=1:print_stacktrace=1"
fails=0 n=0

# run NAME IN OUT CMD...: CMD with standard input IN and standard output OUT (a file name;
# "-" = WORK_DIR/N.out), at most 120 s. Exit 0, 1 or 2 is an ending the command chose.
run() {
  local name=$1 in=$2 out=$3
  shift 3
  n=$((n + 1))
  [ "$out" = "-" ] && out="$W/$n.out"
  timeout 120 "$@" <"$in" >"$out" 2>"$W/$n.err"
  local rc=$?
  case $rc in
    0 | 1 | 2) ;;
    *)
      echo "FAIL $name: exit status $rc ($*)"
      head -c 2000 "$W/$n.err"
      fails=$((fails + 1))
      ;;
  esac
}

# ---- tessera eval: one hostile expression a line (eval goes on after an error line) ----------
cat >"$W/eval_lines.txt" <<'EOF'
complement(4:1,0)
complement(_4:_1,_0)
complement(4:1,-4)
complement(_4:_1,(_8,_-1))
complement(_1:_0,_0)
complement(_4:_-1)
print_layout(complement(4:1,1))
make_layout_tv((4,32):(32,1),(4,8):(8,1))
make_layout_tv((_4,_32):(_32,_1),(_4,_8):(_8,_-1))
coalesce(((3,_2),3):((_1,_4611686018427387904),_1))
complement((4,1):(1,1))
left_inverse(_5:_-1)
right_inverse((3,(2,5)):(-2,(1,-6)))
right_inverse((_3,(_2,_5)):(_-2,(_1,_-6)))
logical_product(_4:_1,_2:_-1)
logical_product(4:1,(2,2):(1,-2))
blocked_product(_4:_1,_2:_-1)
prepend((1,2),3,65536)
append((1,2),3,65536)
(9223372036854775807,2):(1,9223372036854775807)
cosize((4611686018427387904,2):(2,1))
size((4294967296,4294967296))
size((_4294967296,_4294967296))
99999999999999999999999
_-9223372036854775808
ceil_div(4,0)
shape_div(_0,_4)
composition((4,8):(1,100), 4:3)
composition((_4,_8):(_1,_5), _4:_-4)
logical_divide((8,8):(8,1), 0)
zipped_divide(_8:_1, _3)
tile_to_shape((_3,_3):(_1,_3), (_8,_9))
recast((4,8):(8,1), 16, 0)
upcast((4,8):(8,1), 0)
Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
(Sw<3,3,3> o _0 o (_8,_64):(_64,_1))(9)
Sw<63,63,63>(1)
Sw<3,3,-70>(1)
(_8,_8):(_8,_1)(99,99)
(_8,_8):(_8,_1)(-1)
layout_c(SM80_16x8x16_F32F16F16F32_TN)
make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))
Copy_Atom<,>
((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))

-- 4:1
EOF
run eval_lines "$W/eval_lines.txt" - "$T" eval
# Generated lines: a NUL byte, an ESC and UTF-8 bytes, a 1 MB name, 100,000 levels of nesting.
{
  printf 'size(4\0)\n'
  printf 'size(\033[31m4)\n'
  printf 'size(\xc3\xa9)\n'
  head -c 1048576 /dev/zero | tr '\0' 'a'
  printf '\n'
  head -c 100000 /dev/zero | tr '\0' '('
  printf '1\n'
} >"$W/eval_bytes.txt"
run eval_bytes "$W/eval_bytes.txt" - "$T" eval
# A line of 10,000,001 integers (20 MB): refused while it is read, memory stays bounded.
{ printf '('; yes '1,' | head -n 10000000 | tr -d '\n'; printf '1)\nsize(4)\n'; } >"$W/eval_long.txt"
run eval_long "$W/eval_long.txt" - "$T" eval
rm -f "$W/eval_long.txt"
# The parser fuzzer's seed corpus, one file a line.
for f in "$SRC"/tests/fuzz/corpus/*; do
  cat "$f"
  printf '\n'
done >"$W/eval_corpus.txt"
run eval_corpus "$W/eval_corpus.txt" - "$T" eval
run eval_arg /dev/null - "$T" eval 'size(4)'
run eval_dash /dev/null - "$T" eval -- '-4:1'

# ---- tessera show: every format, TV pictures, limits, -o -----------------------------------
for fmt in ascii svg html latex; do
  for e in '(_2,(_2,_2)):(_4,(_2,_1))' 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' '(4,3):(-1,-4)' '_1:_0' \
    'complement(4:1,0)' 'size(4)' '(_256,_257):(_1,_256)' '(_2,_2,_2):(_1,_2,_4)' \
    '(9223372036854775807,2):(1,9223372036854775807)' 'make_layout_tv((_4,_32):(_32,_1),(_4,_8):(_8,_1))' ''; do
    run "show $fmt $e" /dev/null - "$T" show -f "$fmt" "$e"
  done
  run "show --tv $fmt" /dev/null - "$T" show -f "$fmt" --tv 'make_layout_tv((_4,_32):(_32,_1),(_4,_8):(_8,_1))'
  run "show --tv --tile $fmt" /dev/null - "$T" show -f "$fmt" --tv --tile 16,8 '((_32,_4),(_8,_4)):((_128,_4),(_16,_1))'
  run "show --tv huge tile $fmt" /dev/null - "$T" show -f "$fmt" --tv --tile 4294967296,4294967296 '(_32,_4):(_1,_32)'
  run "show $fmt > /dev/full" /dev/null /dev/full "$T" show -f "$fmt" '(_8,_8):(_8,_1)'
  run "show $fmt -o /dev/full" /dev/null - "$T" show -f "$fmt" -o /dev/full '(_8,_8):(_8,_1)'
done
run "show --tile without --tv" /dev/null - "$T" show --tile 4,4 '_4:_1'
run "show bad format" /dev/null - "$T" show -f pdf '_4:_1'

# ---- tessera analyze: shared and global memory, both heat maps, overflow, limits ---------------
big='(2,1):(576460752303423488,1)'
for mem in --smem --gmem; do
  for heat in ascii svg; do
    run "analyze $mem overflow $heat" /dev/null - "$T" analyze $mem "$big" --access '(2,1):(1,0)' --elem-bytes 16 --heatmap $heat
    run "analyze $mem overflow static $heat" /dev/null - "$T" analyze $mem '(_32,_32):(288230376151711744,_1)' \
      --access '(_32,_32):(_1,_32)' --elem-bytes 16 --heatmap $heat
    run "analyze $mem 2048x2048 $heat" /dev/null - "$T" analyze $mem '(_2048,_2048):(_2048,_1)' \
      --access '(_32,_32):(_1,_32)' --heatmap $heat
    run "analyze $mem swizzled $heat" /dev/null - "$T" analyze $mem 'Sw<3,3,3> o (_8,_64):(_64,_1)' --elem-bytes 2 \
      --vector 8 --access '((_8,_4),(_8,_2)):((_1,_64),(_8,_256))' --heatmap $heat
    run "analyze $mem negative $heat" /dev/null - "$T" analyze $mem '(_32,_32):(-32,-1)' --access '(_32,_32):(_1,_32)' --heatmap $heat
    run "analyze $mem tiled copy $heat" /dev/null - "$T" analyze $mem 'Sw<3,3,3> o (_64,_64):(_64,_1)' --heatmap $heat \
      --access 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1)))'
  done
  run "analyze $mem too many accesses" /dev/null - "$T" analyze $mem '(_2048,_2048):(_2048,_1)' --access '(_32,(_2048,_128)):(_2048,(_1,_65536))'
  run "analyze $mem empty" /dev/null - "$T" analyze $mem '' --access '(_32,_32):(_1,_32)'
  run "analyze $mem bytes" /dev/null - "$T" analyze $mem $'(_32,\033_32)\xc3' --access '(_32,_32):(_1,_32)'
  run "analyze $mem > /dev/full" /dev/null /dev/full "$T" analyze $mem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' --heatmap svg
  run "analyze $mem -o /dev/full" /dev/null - "$T" analyze $mem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' --heatmap ascii -o /dev/full
done
run "analyze bad width" /dev/null - "$T" analyze --smem '(_32,_32):(_32,_1)' --access '(_32,_32):(_1,_32)' --elem-bytes 3

# ---- the other subcommands and the command line ---------------------------------------------
run "demo" /dev/null - "$T" demo
run "demo > /dev/full" /dev/null /dev/full "$T" demo
run "eval > /dev/full" /dev/null /dev/full "$T" eval 'size(4)'
run "--version" /dev/null - "$T" --version
run "no subcommand" /dev/null - "$T"
run "unknown subcommand" /dev/null - "$T" nosuch

# ---- the command-line tests of tests/tools and tests/eval, with this binary -----------------
script() {  # script NAME CMD...: a reused test script must pass
  local name=$1
  shift
  n=$((n + 1))
  if ! timeout 300 "$@" >"$W/$n.out" 2>&1; then
    echo "FAIL $name"
    tail -20 "$W/$n.out"
    fails=$((fails + 1))
  fi
}
script show_cli sh "$SRC/tests/tools/show_cli.sh" "$T" "$W/show_cli"
script analyze_cli sh "$SRC/tests/tools/analyze_cli.sh" "$T" "$W/analyze_cli"
script cli_output sh "$SRC/tests/tools/cli_output.sh" "$T" "$W/cli_output"
script eval_errors bash "$SRC/tests/eval/run_errors.sh" "$T"
script eval_examples bash "$SRC/tests/eval/run_examples.sh" "$T" "$SRC/tests/eval/algebra_examples.txt"

# ---- sanitizer reports -------------------------------------------------------------------------
reports=$(ls "$W/logs")
if [ -n "$reports" ]; then
  for r in $reports; do
    echo "== sanitizer report $r"
    head -c 4000 "$W/logs/$r"
  done
  fails=$((fails + 1))
fi
echo "cli_sanitized: $n invocations and scripts, $(echo "$reports" | grep -c .) sanitizer reports, $fails failures"
[ "$fails" -eq 0 ]
