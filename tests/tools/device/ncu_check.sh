#!/usr/bin/env bash
# ncu_check.sh BUILD_DIR: the hardware counters behind docs/analyze.md ("Validation on an H200") and
# docs/performance/log.md (the GEMM's shared-memory pipe). Writes ncu logs to $OUT (or ./device-out).
set -u
B=${1:-build-device}
OUT=${OUT:-device-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
ncu --version | tail -1
$B/tests/tools/tessera_bank_conflicts
# ldmatrix has no wavefront counter of its own (op_ldsm: n/a on sm_90): its wavefronts are all
# shared-memory wavefronts minus those of the stores that fill the buffer (op_st).
M=smsp__inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
ncu --clock-control none --kernel-name regex:shared_ldsm --metrics $M $B/tests/tools/tessera_bank_conflicts --iters 100 --blocks 132 > $OUT/ncu_bank.txt 2>&1; echo "ncu bank rc=$?"
grep -E "op_|mem_shared|shared_ldsm" $OUT/ncu_bank.txt | grep -vE "^==PROF" | sed 's/  */ /g' | head -40
cuobjdump --dump-sass $B/tests/tools/tessera_bank_conflicts 2>/dev/null | grep -cE "LDSM" | sed 's/^/LDSM instructions in the binary: /'
# the GEMM's shared-memory pipe at 4096^3
G=smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,sm__cycles_elapsed.avg,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed,smsp__inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_tensor_op_hmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts.sum.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
ncu --clock-control none --kernel-name regex:gemm_sm80 --launch-skip 1 --launch-count 1 --metrics $G $B/bin/tessera-bench --kernels gemm_sm80_bf16 --sizes full --repeats 1 --iters 1 --warmup 0 > $OUT/ncu_gemm.txt 2>&1; echo "ncu gemm rc=$?"
grep -vE "^==PROF==|^\s*$" $OUT/ncu_gemm.txt | tail -30
