#!/usr/bin/env python3
"""Compares the advisor's model with Nsight Compute's counters (issue 34; docs/advise.md).

usage: advise_counters.py PROGRAM_OUTPUT NCU_CSV

PROGRAM_OUTPUT is the stdout of `tessera_advise_counters` run under ncu (its MODEL, LAUNCH and
VERIFY lines); NCU_CSV the file of `ncu --csv --log-file NCU_CSV -k regex:advise_tile --metrics ...`.
Each case and layout ran three launches: mode 0 (poison fill), 1 (+ write), 2 (+ reads, `reps`
times). The write's counts are mode 1 minus mode 0, the reads' (mode 2 minus mode 1) / reps; all
shared-memory wavefronts are counted (ldmatrix and stmatrix have no wavefront counter of their own
on sm_90). Prints a table and exits 1 when a measured figure differs from the model by more than 2%
(TMA's barrier waits add a few wavefronts to one launch or another), when an instruction count
differs from the model's, when the data check failed, or when a launch has no counters. Python 3
standard library only.
"""
import csv
import re
import shlex
import sys

TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
# Instruction counters by kind: the first present is used.
INSTR = {
    "ldmatrix": ["smsp__inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_ldsm.sum"],
    "ldmatrix.trans": ["smsp__inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_ldsm.sum"],
    "ld.shared.v4": ["smsp__sass_inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_ld.sum"],
    "stmatrix": ["smsp__inst_executed_op_stsm.sum", "smsp__sass_inst_executed_op_stsm.sum"],
    "cp.async16": ["smsp__inst_executed_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts.sum"],
}
# Bank conflicts by kind: cp.async's shared-memory side has a counter of its own where the device has it.
CONFLICTS_BY_KIND = {
    "cp.async16": ["l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ldgsts.sum", CONFLICTS],
}
TOLERANCE = 0.02


def fields(line):
    out = {}
    for tok in shlex.split(line)[1:]:
        if "=" in tok:
            k, v = tok.split("=", 1)
            out[k] = v
    return out


def read_program(path):
    models, launches, verify, names = [], [], {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("MODEL "):
                models.append(fields(line))
            elif line.startswith("LAUNCH "):
                launches.append(fields(line))
            elif line.startswith("VERIFY "):
                v = fields(line)
                verify[(v["case"], v["variant"])] = (int(v["bad"]), int(v["of"]))
            elif line.startswith("CASE "):
                c = fields(line)
                names[c["case"]] = c["name"]
    return models, launches, verify, names


def number(text):
    text = text.replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def read_ncu(path):
    """{kernel ID: {metric: value}} from ncu's --csv output (lines before the header skipped)."""
    with open(path, errors="replace") as f:
        lines = f.readlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return {}
    out = {}
    for row in csv.DictReader(lines[start:]):
        if not (row.get("ID") or "").isdigit() or row.get("Metric Name") is None:
            continue  # ncu's own messages after the table
        value = number(row.get("Metric Value") or "")  # ncu --print-units base: no K/M scaling
        if value is None:
            continue
        out.setdefault(int(row["ID"]), {})[row["Metric Name"]] = value
    return out


def first(metrics, names):
    for n in names:
        if n in metrics:
            return n
    return None


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    models, launches, verify, names = read_program(argv[1])
    ncu = read_ncu(argv[2])
    failures = []
    if not models:
        print("no MODEL lines in " + argv[1])
        return 1
    if len(ncu) != len(launches):
        failures.append("ncu profiled %d kernels, the program made %d launches" % (len(ncu), len(launches)))
    ids = sorted(ncu)
    by_launch = {}
    for i, l in enumerate(launches):
        if i < len(ids):
            by_launch[(l["case"], l["variant"], int(l["mode"]))] = ncu[ids[i]]

    header = "%-3s %-8s %-34s %-20s %5s %10s %10s %9s %9s %7s  %s" % (
        "#", "variant", "layout", "side", "instr", "model w/i", "ncu w/i", "model c/i", "ncu c/i", "ncu n", "verdict")
    print(header)
    print("-" * len(header))
    case_ok = {}
    unmeasured_sides = []
    for m in models:
        case, variant = m["case"], m["variant"]
        reps = int(m["reps"])
        ms = [by_launch.get((case, variant, k)) for k in range(3)]
        ok_here = True
        if any(x is None for x in ms):
            failures.append("case %s %s: launches missing in the ncu output" % (case, variant))
            case_ok[case] = False
            continue
        rows = []
        if m["write"] != "tma":
            rows.append(("write", m["write"], int(m["write_instr"]), int(m["write_wav"]), int(m["write_ideal"]), ms[0], ms[1], 1))
        rows.append(("read", m["read"], int(m["read_instr"]), int(m["read_wav"]), int(m["read_ideal"]), ms[1], ms[2], reps))
        for side, kind, n, wav, ideal, before, after, times in rows:
            verdict = []
            if TOTAL not in before or TOTAL not in after:
                failures.append("case %s %s: no %s in the ncu output" % (case, variant, TOTAL))
                ok_here = False
                continue
            got_wav = (after[TOTAL] - before[TOTAL]) / times
            cname = first(after, CONFLICTS_BY_KIND.get(kind, [CONFLICTS]))
            got_conf = (after[cname] - before.get(cname, 0)) / times if cname else None
            icount = first(after, INSTR.get(kind, []))
            got_n = (after[icount] - before.get(icount, 0)) / times if icount else None
            model_wi, got_wi = wav / n, got_wav / n
            model_ci = (wav - ideal) / n
            got_ci = got_conf / n if got_conf is not None else None
            if got_n is not None and abs(got_n - n) > 0.5:
                verdict.append("instructions %g != %d" % (got_n, n))
            unmeasured = got_wav == 0 and wav > 0
            if unmeasured:  # e.g. cp.async's shared-memory writes, where the LSU counters leave them out
                unmeasured_sides.append("case %s %s %s %s" % (case, variant, side, kind))
            elif abs(got_wi - model_wi) > TOLERANCE * model_wi:
                verdict.append("wavefronts differ")
            if got_ci is not None and abs(got_ci - model_ci) > TOLERANCE * model_wi:
                verdict.append("conflicts differ")
            text = "; ".join(verdict) if verdict else "wavefronts not counted; conflicts match" if unmeasured else "match"
            if verdict:
                ok_here = False
                failures.append("case %s %s %s: %s" % (case, variant, side, text))
            layout = m["layout"] if len(m["layout"]) <= 34 else m["layout"][:31] + "..."
            print("%-3s %-8s %-34s %-20s %5d %10.2f %10.2f %9.2f %9s %7s  %s" % (
                case, variant, layout, side + " " + kind, n, model_wi, got_wi, model_ci,
                "%.2f" % got_ci if got_ci is not None else "n/a", "%g" % got_n if got_n is not None else "n/a", text))
        bad = verify.get((case, variant))
        if bad is None or bad[0] != 0:
            ok_here = False
            failures.append("case %s %s: data check %s" % (case, variant, "missing" if bad is None else "%d of %d registers wrong" % bad))
        case_ok[case] = case_ok.get(case, True) and ok_here

    print()
    conflict_free = []
    for m in models:
        if m["variant"] == "advised" and int(m["read_wav"]) == int(m["read_ideal"]) and int(m["write_wav"]) == int(m["write_ideal"]):
            conflict_free.append(m["case"])
    matched = [c for c in sorted(set(m["case"] for m in models), key=int) if case_ok.get(c)]
    for c in sorted(set(m["case"] for m in models), key=int):
        print("case %s %-55s advice conflict-free (model): %-3s  model = counters, both layouts: %s" % (
            c, names.get(c, ""), "yes" if c in conflict_free else "no", "yes" if case_ok.get(c) else "NO"))
    print("%d of %d cases: the advice is conflict-free and the model matches the counters (issue 34 asks for 4)" % (
        len([c for c in matched if c in conflict_free]), len(case_ok)))
    for u in unmeasured_sides:
        print("not counted (no wavefronts in %s; compared by bank conflicts only): %s" % (TOTAL, u))
    for f in failures:
        print("FAIL: " + f)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
