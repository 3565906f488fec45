"""Writes one device call's attention-backward figures as JSON (docs/performance/): the outputs of
tessera-attention-backward-bench (one file per --variant) and of backward_cudnn.py from the same
call, with the GPU's clocks as nvidia-smi printed them.

    python3 bench/attention/backward_json.py --cudnn cudnn.txt --bench 1=bench_v1.txt 2=bench_v2.txt \
        --clocks "1965 MHz of 1980, 700 W" --date 2026-11-28 --out docs/performance/x.json
"""

import argparse
import json
import re

LINE = re.compile(r"d=(\d+) seq=(\d+) causal=(\d) b=(\d+) h=(\d+) ms=([\d.]+) tflops=([\d.]+)")


def read(path):
    cases = {}
    for line in open(path):
        m = LINE.search(line)
        if m:
            d, seq, causal, b, h, ms, tf = m.groups()
            verify = re.search(r"(verify|check)=(\S+)", line)
            cases[(int(d), int(seq), int(causal))] = {"batch": int(b), "heads": int(h), "ms": float(ms),
                                                      "tflops": float(tf), "check": verify.group(2) if verify else None,
                                                      "failed": "FAILED" in line}
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudnn", required=True)
    ap.add_argument("--bench", nargs="+", required=True, help="VARIANT=FILE")
    ap.add_argument("--clocks", default="")
    ap.add_argument("--date", default="")
    ap.add_argument("--device", default="NVIDIA H200")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    cudnn = read(a.cudnn)
    variants = {v: read(f) for v, f in (x.split("=", 1) for x in a.bench)}
    out = {"info": {"device": a.device, "date": a.date, "clocks": a.clocks,
                    "what": "attention backward, bf16, batch x seq = 16k, heads x head_dim = 2048, bursts; "
                            "TFLOP/s = 2.5 x the forward's 4 b h s^2 d (halved for causal); cuDNN through "
                            "PyTorch SDPA in the same device call",
                    "variants": "tessera-attention-backward-bench --variant: 0 default (lean step, plain "
                                "order), 1 first version, 2 overlap, 3 overlap + 3 stages, 4 lean plain, "
                                "5 lean overlap (before 2026-11-28's lean run: 0 first step with overlap for "
                                "128, 4 lean on that choice, 5 lean on the other)"},
           "cases": []}
    for key in sorted(cudnn):
        d, seq, causal = key
        row = {"head_dim": d, "seq": seq, "causal": bool(causal), "cudnn": cudnn[key], "tessera": {}}
        for v, cases in variants.items():
            if key in cases:
                t = dict(cases[key])
                t["ratio_to_cudnn"] = round(t["tflops"] / cudnn[key]["tflops"], 3)
                row["tessera"][v] = t
        out["cases"].append(row)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
