#!/usr/bin/env bash
# device_run.sh BUILD_DIR [tests|bench|all]: the device calls of the GPU work.
#   tests: every GPU test binary of BUILD_DIR, compute-sanitizer (memcheck, racecheck) on the small
#          cases;
#   bench: the example programs, the demo, and `tessera-bench --sizes full` twice (the spread
#          between the runs is the noise; the first with a sustained run and JSON).
# Logs go to $OUT (or ./device-out), at most 8 files. The binaries are built on the development
# machine for sm_90a (Release) and carried: that machine has no GPU, so configure BUILD_DIR with
# -DTESSERA_GPU_TARGETS=ON (cmake -S . -B build-device -DTESSERA_GPU_TARGETS=ON), or the GPU tests,
# the examples and tessera-bench are not built.
#   KERNELS   bench case regex (default: all)      SUSTAINED  sustained launches (default 200)
#   REST      idle ms before each burst sample of the first run (default 500: bursts from rest)
set -u
B=${1:-build-device}
O=${OUT:-device-out}
K=${KERNELS:-.}
S=${SUSTAINED:-200}
R=${REST:-500}
P=${2:-all}
mkdir -p "$O"
if [ ! -d "$B/tests/kernels" ] && [ ! -x "$B/bin/tessera-bench" ]; then
  echo "device_run.sh: $B has no GPU targets (no tests/kernels, no bin/tessera-bench): configure it with -DTESSERA_GPU_TARGETS=ON and build it" >&2
  exit 2
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv | tee "$O/gpu.txt"
L=$O/tests.txt
: > "$L"
if [ "$P" != bench ]; then
for t in $(find "$B/tests" -type f -perm -u+x -name 'tessera_*tests' | sort); do
  case $(basename "$t") in
    tessera_core_tests|tessera_runtime_tests|tessera_differential_tests|tessera_tensor_tests|tessera_tools_tests) continue ;;
  esac
  echo "=== $t" >> "$L"; "$t" > "$O/one.txt" 2>&1; rc=$?; cat "$O/one.txt" >> "$L"
  echo "$(basename "$t"): exit $rc :: $(grep -E '^\[  (PASSED|FAILED) ' "$O/one.txt" | tr '\n' ' ')$(grep -c '^\[  SKIPPED \]' "$O/one.txt") skipped"
done
for tool in memcheck racecheck synccheck; do
  for t in tessera_kernel_add_tests tessera_kernel_tile_copy_tests tessera_sgemm_tests tessera_example_sgemm_ladder_tests tessera_bench_tests tessera_gemm_sm80_tests tessera_gemm_sm90_tests tessera_arch_cuda_tests; do
    p=$(find "$B/tests" -type f -name "$t" | head -1)
    [ -n "$p" ] || continue
    echo "=== $tool $t" >> "$L"
    compute-sanitizer --tool $tool "$p" --gtest_filter='ElementwiseAdd.Small*:TileCopy.Small*:*RunCases*:*SmallSizesAllLayouts/sgemm:*SmallSizesAllLayouts/sgemm_v1*:*EmptyK/sgemm:GemmSm80.SmallBf16ToFp32:GemmSm90.SmallBf16ToFp32:GemmSm90Cluster.SmallBf16ToFp32:GemmSm90Pingpong.SmallFp16ToFp16:GemmSm90StreamK5.SmallSplitTilesBf16ToFp32:Arch*:TmaCopyDevice*' > "$O/one.txt" 2>&1; rc=$?
    cat "$O/one.txt" >> "$L"
    echo "$tool $t: exit $rc :: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' "$O/one.txt" | tr '\n' ' ')"
  done
done
rm -f "$O/one.txt"
fi
[ "$P" = tests ] && exit 0
for e in "$B"/bin/example_*; do "$e" >> "$O/examples.txt" 2>&1; echo "$(basename "$e"): exit $?"; done
"$B/bin/tessera" demo > "$O/demo.txt" 2>&1; echo "demo: exit $?"; sed -n '/== 6/,$p' "$O/demo.txt"
"$B/bin/tessera-bench" --sizes full --kernels "$K" --rest "$R" --sustained "$S" --json "$O/bench_full.json" --svg "$O/bench_full.svg" > "$O/bench_full.txt" 2>> "$L"
echo "bench full run 1: exit $?"; cat "$O/bench_full.txt"
"$B/bin/tessera-bench" --sizes full --kernels "$K" > "$O/bench_full2.txt" 2>> "$L"
echo "bench full run 2: exit $?"; cat "$O/bench_full2.txt"
