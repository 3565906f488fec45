#!/usr/bin/env bash
# device_run.sh BUILD_DIR: the device call of the kernel work -- GPU tests, compute-sanitizer
# (memcheck, racecheck) on the small cases, `tessera bench --sizes full` twice (the spread between
# the two runs is the noise), and the demo's short benchmark. Logs go to $OUT (or ./device-out),
# at most 8 files. The binaries are built on the development machine for sm_90a and carried.
# KERNELS (default 'add|copy') selects the bench cases.
set -u
B=${1:-build-bench}
O=${OUT:-device-out}
K=${KERNELS:-add|copy}
mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu --format=csv | tee "$O/gpu.txt"
T=$B/tests/kernels
L=$O/tests.txt
for t in tessera_kernel_add_tests tessera_kernel_tile_copy_tests tessera_bench_harness_tests; do
  echo "=== $t" >> "$L"; "$T/$t" > "$O/one.txt" 2>&1; rc=$?; cat "$O/one.txt" >> "$L"
  echo "$t: exit $rc"; grep -E "PASSED|FAILED|SKIPPED \]" "$O/one.txt" | head -8
done
for tool in memcheck racecheck; do
  for t in tessera_kernel_add_tests tessera_kernel_tile_copy_tests tessera_bench_harness_tests; do
    echo "=== $tool $t" >> "$L"
    compute-sanitizer --tool $tool "$T/$t" --gtest_filter='*Small*:*RunCases*' > "$O/one.txt" 2>&1; rc=$?
    cat "$O/one.txt" >> "$L"
    echo "$tool $t: exit $rc :: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' "$O/one.txt" | tr '\n' ' ')"
  done
done
rm -f "$O/one.txt"
$B/bin/tessera demo > "$O/demo.txt" 2>&1; echo "demo: exit $?"; sed -n '/== 6/,$p' "$O/demo.txt"
$B/bin/tessera bench --sizes full --kernels "$K" --json "$O/bench_full.json" --svg "$O/bench_full.svg" > "$O/bench_full.txt" 2>> "$L"
echo "bench full run 1: exit $?"; cat "$O/bench_full.txt"; grep -i "fail" "$L" | grep -v "0 fail" | head -5
$B/bin/tessera bench --sizes full --kernels "(add|copy).*fp16" > "$O/bench_full2.txt" 2>> "$L"
echo "bench full run 2 (fp16): exit $?"; cat "$O/bench_full2.txt"
