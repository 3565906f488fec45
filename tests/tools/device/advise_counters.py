#!/usr/bin/env python3
"""Compares the advisor's model with Nsight Compute's counters (issue 34; docs/advise.md).

usage: advise_counters.py PROGRAM_OUTPUT NCU_CSV

PROGRAM_OUTPUT is the stdout of `tessera_advise_counters` run under ncu (its MODEL, LAUNCH and
VERIFY lines); NCU_CSV the file of `ncu --csv --print-units base --log-file NCU_CSV -k
regex:advise_tile --metrics ...`. Each case and layout ran three launches: mode 0 (poison fill), 1
(+ write), 2 (+ reads, `reps` times). The write's counts are mode 1 minus mode 0, the reads' mode 2
minus mode 1; each is compared exactly (integers, no tolerance) with the model times `reps`:

  side               wavefronts                                   bank conflicts            instructions
  ldmatrix, ld.shared l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld   ..._mem_shared_op_ld    smsp__sass_inst_executed_op_ldsm / _op_shared_ld
  stmatrix           l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st   ..._mem_shared_op_st    smsp__sass_inst_executed_op_shared_stsm
  cp.async 16 B      smsp__sass_data_bytes_mem_shared_op_ldgsts.sum /   ..._mem_shared_op_ldgsts smsp__sass_inst_executed_op_ldgsts
                     smsp__sass_average_data_bytes_per_wavefront_mem_shared_op_ldgsts.ratio

(the instruction's own counter: the all-instruction l1tex__data_pipe_lsu_wavefronts_mem_shared also
counts instructions executed with every lane predicated off, e.g. the three `@!PT LDS` ptxas puts
before each LDGSTS, and the smsp__inst_executed_* counters count those too; the table shows what
the all-instruction counter adds to the instruction's own, per instruction, as "rest/i"). A side
whose counter is missing from the CSV fails (named), as do a data check that failed and a launch
without counters. Exit 0 when every figure matches. Python 3 standard library only.
"""
import csv
import shlex
import sys

TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
# Per kind: (wavefront counter, bank-conflict counter, instruction counter). The wavefront counter
# of cp.async is worked out from two (see wavefronts()).
LDGSTS_BYTES = "smsp__sass_data_bytes_mem_shared_op_ldgsts.sum"
LDGSTS_PER_WAVEFRONT = "smsp__sass_average_data_bytes_per_wavefront_mem_shared_op_ldgsts.ratio"
LDGSTS_WAVEFRONTS = "ldgsts wavefronts"  # LDGSTS_BYTES / LDGSTS_PER_WAVEFRONT
COUNTERS = {
    "ldmatrix": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_ldsm.sum"),
    "ld.shared.v4": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                     "smsp__sass_inst_executed_op_shared_ld.sum"),
    "stmatrix": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                 "smsp__sass_inst_executed_op_shared_stsm.sum"),
    "cp.async16": (LDGSTS_WAVEFRONTS, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
                   "smsp__sass_inst_executed_op_ldgsts.sum"),
}
COUNTERS["ldmatrix.trans"] = COUNTERS["ldmatrix"]


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


def wavefronts(metrics, name):
    """The launch's count of `name`; for cp.async, bytes / bytes per wavefront (0 bytes: 0)."""
    if name != LDGSTS_WAVEFRONTS:
        return metrics.get(name)
    if LDGSTS_BYTES not in metrics or LDGSTS_PER_WAVEFRONT not in metrics:
        return None
    if metrics[LDGSTS_BYTES] == 0:
        return 0.0
    if not metrics[LDGSTS_PER_WAVEFRONT]:
        return None
    # A count of wavefronts is an integer; the ratio comes printed to a few digits (170.667), so the
    # quotient is rounded to the integer when within 0.01 of one, else left as it is (and differs).
    q = metrics[LDGSTS_BYTES] / metrics[LDGSTS_PER_WAVEFRONT]
    return float(round(q)) if abs(q - round(q)) < 0.01 else q


def missing_names(name):
    return [LDGSTS_BYTES, LDGSTS_PER_WAVEFRONT] if name == LDGSTS_WAVEFRONTS else [name]


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

    header = "%-3s %-8s %-34s %-20s %5s %9s %9s %9s %9s %7s %7s  %s" % (
        "#", "variant", "layout", "side", "instr", "model w/i", "ncu w/i", "model c/i", "ncu c/i", "ncu n",
        "rest/i", "verdict")
    print(header)
    print("-" * len(header))
    case_ok = {}
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
            if kind not in COUNTERS:
                failures.append("case %s %s %s: no counters known for %s" % (case, variant, side, kind))
                ok_here = False
                continue
            wname, cname, iname = COUNTERS[kind]
            got = {}
            for label, name in (("wavefronts", wname), ("conflicts", cname), ("instructions", iname)):
                a = wavefronts(after, name)
                b = wavefronts(before, name) if name != LDGSTS_WAVEFRONTS else 0.0
                if a is None or b is None:
                    verdict.append("no %s counter (%s)" % (label, ", ".join(missing_names(name))))
                    got[label] = None
                else:
                    got[label] = a - b
            want = {"wavefronts": wav * times, "conflicts": (wav - ideal) * times, "instructions": n * times}
            for label in ("instructions", "wavefronts", "conflicts"):
                if got[label] is not None and round(got[label], 6) != want[label]:
                    verdict.append("%s %g != %d" % (label, got[label], want[label]))
            rest = None
            if TOTAL in after and TOTAL in before and got["wavefronts"] is not None:
                rest = (after[TOTAL] - before[TOTAL] - got["wavefronts"]) / (n * times)
            text = "; ".join(verdict) if verdict else "match"
            if verdict:
                ok_here = False
                failures.append("case %s %s %s: %s" % (case, variant, side, text))
            per = lambda label: "%.2f" % (got[label] / (n * times)) if got[label] is not None else "n/a"
            layout = m["layout"] if len(m["layout"]) <= 34 else m["layout"][:31] + "..."
            print("%-3s %-8s %-34s %-20s %5d %9.2f %9s %9.2f %9s %7s %7s  %s" % (
                case, variant, layout, side + " " + kind, n, wav / n, per("wavefronts"), (wav - ideal) / n,
                per("conflicts"), "%g" % (got["instructions"] / times) if got["instructions"] is not None else "n/a",
                "%.2f" % rest if rest is not None else "n/a", text))
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
    for f in failures:
        print("FAIL: " + f)
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
