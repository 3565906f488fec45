#!/usr/bin/env python3
"""Tests advise_counters.py (issue 34) on made-up Nsight Compute output, without a GPU.

usage: advise_counters_test.py TESSERA_ADVISE_COUNTERS

Takes the model's side from `tessera_advise_counters --model-only`, writes the program output and
an ncu CSV a run would give where every counter is what the model says (plus what the
all-instruction counter adds: a per-launch constant and ptxas's three `@!PT LDS` per LDGSTS),
and checks that the comparison passes on it, then fails, naming the side, on each of: one read's
bank conflicts off by one a repetition, ldmatrix counted twice (the first device run's symptom),
the cp.async wavefront ratio missing, and a failed data check.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "advise_counters.py")
OP = {"ldmatrix": "ld", "ldmatrix.trans": "ld", "ld.shared.v4": "ld", "stmatrix": "st"}
INSTR = {"ldmatrix": "smsp__sass_inst_executed_op_ldsm.sum", "ldmatrix.trans": "smsp__sass_inst_executed_op_ldsm.sum",
         "ld.shared.v4": "smsp__sass_inst_executed_op_shared_ld.sum",
         "stmatrix": "smsp__sass_inst_executed_op_shared_stsm.sum", "cp.async16": "smsp__sass_inst_executed_op_ldgsts.sum"}


def fields(line):
    import shlex
    return dict(t.split("=", 1) for t in shlex.split(line)[1:] if "=" in t)


def launches(models):
    """{(case, variant, mode): metrics} as the counters would be, from the MODEL lines."""
    out = {}
    for m in models:
        reps = int(m["reps"])
        base = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": 64.0,
                "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": 73.0}
        for mode in range(3):
            c = dict(base)
            def add(name, v):
                c[name] = c.get(name, 0.0) + v
            if mode >= 1 and m["write"] != "tma":
                n, w, i = int(m["write_instr"]), int(m["write_wav"]), int(m["write_ideal"])
                if m["write"] == "cp.async16":
                    add("smsp__sass_data_bytes_mem_shared_op_ldgsts.sum", 16.0 * 32 * n)
                    c["smsp__sass_average_data_bytes_per_wavefront_mem_shared_op_ldgsts.ratio"] = 16.0 * 32 * n / w
                    add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", w - i)
                    add("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 3 * n + 1)  # @!PT LDS, not the write
                else:
                    add("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", w)
                    add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", w - i)
                    add("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", w)
                add(INSTR[m["write"]], n)
            if mode >= 2:
                n, w, i = int(m["read_instr"]), int(m["read_wav"]), int(m["read_ideal"])
                add("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", w * reps)
                add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", (w - i) * reps)
                add("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", w * reps)
                add(INSTR[m["read"]], n * reps)
            for name in list(INSTR.values()) + ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                                                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
                                                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                                "smsp__sass_data_bytes_mem_shared_op_ldgsts.sum"]:
                c.setdefault(name, 0.0)
            c.setdefault("smsp__sass_average_data_bytes_per_wavefront_mem_shared_op_ldgsts.ratio", 0.0)
            out[(m["case"], m["variant"], mode)] = c
    return out


def write_run(d, model_lines, models, counters, bad=None):
    prog, csvp = os.path.join(d, "prog.txt"), os.path.join(d, "ncu.csv")
    seq = 0
    rows = ['"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
            '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"']
    with open(prog, "w") as f:
        for line, m in zip(model_lines, models):
            f.write(line + "\n")
            for mode in range(3):
                f.write("LAUNCH seq=%d case=%s variant=%s mode=%d\n" % (seq, m["case"], m["variant"], mode))
                for name, v in sorted(counters[(m["case"], m["variant"], mode)].items()):
                    rows.append('"%d","1","p","h","advise_tile","1","7","(128, 1, 1)","(1, 1, 1)","0","9.0","x","%s","","%s"'
                                % (seq, name, repr(v)))
                seq += 1
            f.write("VERIFY case=%s variant=%s bad=%d of=1024\n" % (
                m["case"], m["variant"], bad if bad is not None and (m["case"], m["variant"]) == ("0", "advised") else 0))
    with open(csvp, "w") as f:
        f.write("==PROF== Connected\n" + "\n".join(rows) + "\n")
    r = subprocess.run([sys.executable, SCRIPT, prog, csvp], capture_output=True, text=True)
    return r.returncode, r.stdout


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    model = subprocess.run([argv[1], "--model-only"], capture_output=True, text=True, check=True).stdout
    model_lines = [l for l in model.splitlines() if l.startswith("MODEL ")]
    models = [fields(l) for l in model_lines]
    assert len(models) >= 9, model
    failures = []
    with tempfile.TemporaryDirectory() as d:
        good = launches(models)
        rc, out = write_run(d, model_lines, models, good)
        if rc != 0 or "FAIL" in out or "%d of %d cases" % (len({m["case"] for m in models}),
                                                           len({m["case"] for m in models})) not in out:
            failures.append("the matching run did not pass:\n" + out)

        def broken(change, expect, label, bad=None):
            c = {k: dict(v) for k, v in good.items()}
            change(c)
            rc, out = write_run(d, model_lines, models, c, bad)
            if rc != 1 or expect not in out:
                failures.append("%s: exit %d, %r not in the output:\n%s" % (label, rc, expect, out))

        def conflicts(c):  # case 0, naive, read: one more conflict a repetition
            reps = int(models[1]["reps"])
            c[("0", "naive", 2)]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] += reps
        broken(conflicts, "FAIL: case 0 naive read: conflicts", "a conflict more")

        def twice(c):  # ldmatrix counted twice in case 6
            for v in ("advised", "naive"):
                c[("6", v, 2)]["smsp__sass_inst_executed_op_ldsm.sum"] *= 2
        broken(twice, "FAIL: case 6 advised read: instructions", "ldmatrix twice")

        def no_ratio(c):
            for k in c:
                c[k].pop("smsp__sass_average_data_bytes_per_wavefront_mem_shared_op_ldgsts.ratio", None)
        broken(no_ratio, "FAIL: case 1 advised write: no wavefronts counter", "no LDGSTS ratio")

        broken(lambda c: None, "FAIL: case 0 advised: data check 3 of 1024 registers wrong", "a data check", bad=3)
    for f in failures:
        print("FAIL: " + f)
    print("advise_counters.py: %s" % ("every fake run judged right" if not failures else "%d wrong" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
