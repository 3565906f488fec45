#!/usr/bin/env python3
"""Counts the SASS of the attention backward's step loop, per consumer warp.

Usage: cuobjdump -sass OBJ | scripts/sass_loop_count.py [--filter SUBSTRING] [--list]

For each function whose name holds the filter (default AttentionBwdSm90Roles), the step loop is
the smallest backward branch's range [target, branch] that holds an HGMMA (the consumer's m-block
loop; the outer query-head loop is larger). Within it, forward branches skip sections: one that
holds REDG (or HGMMA and UTMAREDG: DqTma's TMA reduce-add) is the dQ share (head_dim 64: taken
every other step, the other warpgroup's turn), another one that holds no HGMMA and no REDG is
counted as the mask (taken on unmasked steps; DqTma's one-thread reduce-add section too, which
warps 1-3 of a warpgroup skip).
Printed per function: the body's static count; the unmasked step with its dQ share (`full`) and
without (`no_dq`, head_dim 64 only); categories over the unmasked step with its share; the
WARPGROUP.DEPBAR lines between two HGMMAs that accumulate into the same registers (serialized
wgmma). Instructions are counted as issued by one warp (a uniform-datapath instruction counts
as one, as it takes an issue slot too)."""
import re
import sys

INT_OPS = ("IMAD", "IADD3", "IADD", "LOP3", "LEA", "SHF", "IABS", "IMNMX", "SEL", "ISETP", "IMUL", "PRMT", "SGXT",
           "BMSK", "POPC", "FLO")
CATS = [
    ("HGMMA", lambda o: o == "HGMMA"),
    ("MUFU", lambda o: o == "MUFU"),
    ("FP32", lambda o: o in ("FFMA", "FMUL", "FADD", "FSEL", "FSETP", "FMNMX")),
    ("F2FP", lambda o: o == "F2FP"),
    ("STS", lambda o: o == "STS"),
    ("LDS", lambda o: o == "LDS"),
    ("REDG", lambda o: o in ("REDG", "RED")),
    ("R2UR", lambda o: o == "R2UR"),
    ("int", lambda o: o in INT_OPS),
    ("uniform", lambda o: o.startswith("U") and o not in ("UMOV",)),
    ("UMOV", lambda o: o == "UMOV"),
    ("MOV", lambda o: o in ("MOV", "S2R", "S2UR", "CS2R")),
    ("sync", lambda o: o in ("WARPGROUP", "WARPSYNC", "BAR", "SYNCS", "MEMBAR", "FENCE", "DEPBAR", "NOP")),
    ("branch", lambda o: o in ("BRA", "BSSY", "BSYNC", "EXIT", "RET", "CALL")),
]
LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_]+)(\.[^ ]*)?\s*(.*?);")


def functions(text):
    name, body = None, []
    for ln in text.splitlines():
        m = re.search(r"Function : (\S+)", ln)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
            continue
        m = LINE.search(ln)
        if m and name:
            body.append((int(m.group(1), 16), m.group(3), (m.group(3) + (m.group(4) or "") + " " + m.group(5)).strip(),
                         bool(m.group(2))))
    if name:
        yield name, body


def target(ins):
    m = re.search(r"BRA(?:\.\S+)?\s+(?:`\(\S+\)\s*)?0x([0-9a-f]+)", ins[2])
    return int(m.group(1), 16) if m else None


def opcat(op):
    for cat, f in CATS:
        if f(op):
            return cat
    return "other"


def analyse(name, body):
    at = {a: i for i, (a, *_r) in enumerate(body)}
    loops = []
    for i, ins in enumerate(body):
        if ins[1] != "BRA":
            continue
        t = target(ins)
        if t is None or t >= ins[0] or t not in at:
            continue
        j = at[t]
        if any(body[k][1] == "HGMMA" for k in range(j, i + 1)):
            loops.append((i - j, j, i))
    if not loops:
        return None
    _, j, i = min(loops)
    loop = body[j:i + 1]
    skips = []
    for k, ins in enumerate(loop):
        if ins[1] != "BRA" or k == len(loop) - 1:
            continue
        t = target(ins)
        if t is None or t <= ins[0] or t > loop[-1][0]:
            continue
        sec = [x for x in loop[k + 1:] if x[0] < t]
        # the dQ share: its atomics (REDG), or (DqTma) its wgmmas with the TMA reduce-add (UTMAREDG)
        dq_share = any(x[1] == "REDG" for x in sec) or (any(x[1] == "HGMMA" for x in sec)
                                                        and any(x[1] == "UTMAREDG" for x in sec))
        kind = "dq" if dq_share else "mask" if not any(x[1] == "HGMMA" for x in sec) else "other"
        skips.append((kind, ins[0], t, sec))
    masked = set()
    dq = set()
    for kind, _a, _t, sec in skips:
        for x in sec:
            (dq if kind == "dq" else masked if kind == "mask" else set()).add(x[0])
    full = [x for x in loop if x[0] not in masked]
    cats = {}
    for x in full:
        c = opcat(x[1])
        cats[c] = cats.get(c, 0) + 1
    # serialized wgmma: a WARPGROUP.DEPBAR between two HGMMAs of one batch (no gsb0 on the first)
    serial = []
    last_h = None
    for x in body:
        if x[1] == "HGMMA":
            last_h = x
        elif x[1] == "WARPGROUP" and "DEPBAR" in x[2] and last_h is not None and "gsb0" not in last_h[2]:
            serial.append(hex(x[0]))
    return {
        "loop": (hex(loop[0][0]), hex(loop[-1][0])),
        "body": len(loop),
        "full": len(full),
        "no_dq": len([x for x in full if x[0] not in dq]) if dq and any(
            x[1] == "HGMMA" for x in loop if x[0] in dq) else None,
        "skips": [(k, hex(a), hex(t), len(s)) for k, a, t, s in skips],
        "cats": cats,
        "serialized": serial,
    }


def main():
    flt = "AttentionBwdSm90Roles"
    args = sys.argv[1:]
    if "--filter" in args:
        flt = args[args.index("--filter") + 1]
    for name, body in functions(sys.stdin.read()):
        if flt not in name:
            continue
        r = analyse(name, body)
        m = re.search(r"ConfigILi(\d+)E(.*?)EENS_(\w+?)EEEE", name)
        label = f"D{m.group(1)} {m.group(2)} {m.group(3)}" if m else name
        if r is None:
            print(f"{label}: no loop with HGMMA found")
            continue
        cats = " ".join(f"{k}={v}" for k, v in sorted(r["cats"].items(), key=lambda kv: -kv[1]))
        print(f"{label}: loop {r['loop'][0]}..{r['loop'][1]} body {r['body']}, unmasked step {r['full']}"
              + (f" (no dQ turn: {r['no_dq']})" if r["no_dq"] is not None else "")
              + f"; skips {r['skips']}\n    {cats}\n    serialized wgmma (DEPBAR inside a batch): "
              + (", ".join(r["serialized"]) or "none"))


if __name__ == "__main__":
    main()
