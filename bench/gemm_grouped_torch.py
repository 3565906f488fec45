#!/usr/bin/env python3
"""tessera.ops.grouped_gemm against PyTorch's grouped GEMM on the same problems, in one process.

For each case (the shapes of `tessera-bench --sizes grouped`), bf16, one set of tensors that every
contender gets:
  * A (tokens x K) packed by expert, B the transposed view of contiguous (G x N x K) weights (each
    expert's weights K-major, as a MoE layer stores them), `ends` the cumulative token counts
    (torch._grouped_mm's `offs`);
  * contenders: tessera.ops.grouped_gemm(a, b, ends=ends), torch._grouped_mm(a, b, offs=ends),
    and a loop of torch.mm over the non-empty groups (one cuBLAS call each);
  * each is verified against an fp32 reference (a[g].float() @ b[g].float()) before it is timed:
    every element within 2^-7 |ref| + K 2^-16 (a bf16 rounding and the fp32 sums' differences; a
    wrong element is off by about sqrt(K) / 3); a contender that fails is not timed;
  * timing interleaved, so that clocks and temperature are the same for all: burst, `--repeats`
    rounds, each round every contender once (the order rotated each round), each a run of
    `--iters` launches after `--rest` ms idle, the median per contender; sustained, `--sustained`
    rounds of back-to-back runs of about `--sustained-ms` each, contenders alternating with no
    idle, the median per contender.
With --fp8 (and torch._scaled_grouped_mm present): e4m3 A and B with row-wise scales (A's per
row, B's per expert and column), bf16 out, torch._scaled_grouped_mm against a loop of
torch._scaled_mm (cuBLASLt), verified against the scaled fp32 product of the e4m3 values within
2^-8 |s| sum |A B| + 2^-8 |s ref| (the fp8 accumulation's bound). tessera's fp8 grouped GEMM has no
Python entry point yet: it is timed by `tessera-bench --sizes grouped` against cuBLASLt.
Token counts: uniform within +-50% of the mean, every 8th group empty (the C++ cases' rule; this
script's own draw, seeded per case). TFLOP/s = 2 tokens N K / t.

  python bench/gemm_grouped_torch.py [--json FILE] [--cases SUBSTR] [--fp8]
"""

import argparse
import json
import random
import subprocess
import sys
import time

import torch_timing  # bench/torch_timing.py, beside this script

CASES = [
    ("nk4096_g8", 8, 4096, 4096, 1024),
    ("nk4096_g64", 64, 4096, 4096, 256),
    ("mixtral_up_64", 8, 14336, 4096, 64),
    ("mixtral_up_1024", 8, 14336, 4096, 1024),
    ("mixtral_down_1024", 8, 4096, 14336, 1024),
] + [
    (f"deepseek_{kind}_{mean}", 256, n, k, mean)
    for mean in (8, 32, 128, 256)
    for kind, n, k in (("up", 2048, 7168), ("down", 7168, 2048))
]


def token_counts(groups, mean, seed):
    rng = random.Random(seed)
    lo, hi = max(1, mean // 2), max(1, mean + mean // 2)
    return [0 if g % 8 == 3 else rng.randint(lo, hi) for g in range(groups)]


def gpu_state():
    try:
        q = "clocks.sm,clocks.max.sm,power.draw,temperature.gpu"
        return subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except Exception as e:  # nvidia-smi missing: say so, time anyway
        return f"nvidia-smi: {e}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", default="")
    ap.add_argument("--repeats", type=int, default=7, help="burst rounds")
    ap.add_argument("--iters", type=int, default=10, help="launches per burst run")
    ap.add_argument("--rest", type=float, default=20.0, help="ms idle before each burst run")
    ap.add_argument("--sustained", type=int, default=3, help="sustained rounds (0: none)")
    ap.add_argument("--sustained-ms", type=float, default=60.0, help="about how long each sustained run lasts")
    ap.add_argument("--cases", default="", help="substring filter on case names")
    ap.add_argument("--fp8", action="store_true", help="also the fp8 row-wise form (torch._scaled_grouped_mm)")
    args = ap.parse_args()

    import torch

    if not torch.cuda.is_available():
        print("gemm_grouped_torch: no CUDA device visible; nothing to run")
        return 2
    dev = torch.device("cuda")
    try:
        import tessera.ops as tops

        ours = getattr(tops, "grouped_gemm", None)
    except Exception as e:  # the package is optional here
        print(f"gemm_grouped_torch: tessera.ops not importable ({e}); timing PyTorch only")
        ours = None
    has_grouped_mm = hasattr(torch, "_grouped_mm")
    has_scaled = hasattr(torch, "_scaled_grouped_mm")
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "grouped_mm": has_grouped_mm,
            "scaled_grouped_mm": has_scaled, "tessera": ours is not None, "gpu_before": gpu_state(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    print(f"device: {info['device']}, torch {info['torch']}, torch._grouped_mm: {has_grouped_mm}, "
          f"torch._scaled_grouped_mm: {has_scaled}, tessera.ops.grouped_gemm: {ours is not None}; "
          f"sm clock, max, W, C: {info['gpu_before']}")

    def time_all(fns):
        """{name: (burst ms, sustained ms)}, interleaved (bench/torch_timing.py)."""
        return torch_timing.time_all(torch, fns, args.repeats, args.iters, args.rest, args.sustained,
                                     args.sustained_ms)

    weights = {}
    results = []
    for name, groups, n, k, mean in CASES:
        if args.cases and args.cases not in name:
            continue
        sizes = token_counts(groups, mean, groups * 1000 + mean + n)
        total = sum(sizes)
        key = (groups, n, k)
        if key not in weights:
            weights.clear()  # one set of weights at a time (DeepSeek's are 7.5 GB)
            torch.cuda.empty_cache()
            torch.manual_seed(groups + n)
            weights[key] = (torch.rand(groups, n, k, device=dev) * 2 - 1).to(torch.bfloat16)
        w = weights[key]  # (G, N, K) contiguous
        b = w.transpose(-2, -1)  # (G, K, N), each b[g] K-major: the form both grouped GEMMs take
        torch.manual_seed(total + n)
        a = (torch.rand(total, k, device=dev) * 2 - 1).to(torch.bfloat16)
        ends = torch.tensor([sum(sizes[: g + 1]) for g in range(groups)], device=dev, dtype=torch.int32)
        starts = [sum(sizes[:g]) for g in range(groups)]
        nz = [g for g in range(groups) if sizes[g] > 0]

        ref = torch.zeros(total, n, device=dev, dtype=torch.float32)
        for g in nz:
            rows = slice(starts[g], starts[g] + sizes[g])
            ref[rows] = a[rows].float() @ b[g].float()
        tol = ref.abs() * 2.0**-7 + k * 2.0**-16

        def bad_count(d):  # a NaN is bad: the comparison is False
            return int((~((d.float() - ref).abs() <= tol)).sum())

        out_loop = torch.empty(total, n, device=dev, dtype=torch.bfloat16)

        def loop():
            for g in nz:
                torch.mm(a[starts[g] : starts[g] + sizes[g]], b[g], out=out_loop[starts[g] : starts[g] + sizes[g]])
            return out_loop

        fns = {"loop": loop}
        if has_grouped_mm:
            fns["torch"] = lambda: torch._grouped_mm(a, b, offs=ends)
        if ours is not None:
            out_ours = torch.empty(total, n, device=dev, dtype=torch.bfloat16)
            fns["tessera"] = lambda: ours(a, b, ends=ends, out=out_ours)

        flops = 2.0 * total * n * k
        row = {"case": name, "groups": groups, "n": n, "k": k, "tokens": total, "mean": mean, "sizes": sizes}
        timed = {}
        for c, fn in fns.items():
            try:
                if c == "tessera":
                    out_ours.fill_(float("nan"))  # every row of a group must be written
                elif c == "loop":
                    out_loop.fill_(float("nan"))
                d = fn()
                torch.cuda.synchronize()
                nbad = bad_count(d)
                row[c + "_bad"] = nbad
                row[c + "_verified"] = nbad == 0
                if nbad == 0:
                    timed[c] = fn
            except Exception as e:
                row[c + "_error"] = str(e).split("\n")[0][:200]
        times = time_all(timed) if timed else {}
        for c, (tb, ts) in times.items():
            row[c + "_tflops"] = flops / tb / 1e9
            row[c + "_sustained_tflops"] = flops / ts / 1e9
        if "tessera" in times:
            for c in ("torch", "loop"):
                if c in times:
                    row[f"tessera_vs_{c}"] = times[c][0] / times["tessera"][0]
                    row[f"tessera_vs_{c}_sustained"] = times[c][1] / times["tessera"][1]
        results.append(row)
        parts = [f"{name:18s} tok {total:6d}"]
        for c in ("tessera", "torch", "loop"):
            if c + "_tflops" in row:
                parts.append(f"{c} {row[c + '_tflops']:6.1f}/{row[c + '_sustained_tflops']:6.1f}")
            elif c + "_error" in row:
                parts.append(f"{c} ERROR {row[c + '_error']}")
            elif row.get(c + "_verified") is False:
                parts.append(f"{c} WRONG ({row[c + '_bad']} bad)")
        for c in ("torch", "loop"):
            if f"tessera_vs_{c}" in row:
                parts.append(f"x{c} {row[f'tessera_vs_{c}']:.3f}/{row[f'tessera_vs_{c}_sustained']:.3f}")
        print("  ".join(parts), flush=True)

        if args.fp8 and has_scaled:
            row8 = {"case": name + "_fp8_rowwise", "groups": groups, "n": n, "k": k, "tokens": total}
            try:
                e4 = torch.float8_e4m3fn
                a8 = a.to(e4)
                w8 = w.to(e4)  # (G, N, K)
                b8 = w8.transpose(-2, -1)
                sa = torch.rand(total, device=dev) + 0.5
                sb = torch.rand(groups, n, device=dev) + 0.5
                ref8 = torch.zeros(total, n, device=dev)
                mag = torch.zeros(total, n, device=dev)
                for g in nz:
                    rows = slice(starts[g], starts[g] + sizes[g])
                    ref8[rows] = (a8[rows].float() @ b8[g].float()) * sa[rows, None] * sb[g][None, :]
                    mag[rows] = (a8[rows].float().abs() @ b8[g].float().abs()) * sa[rows, None] * sb[g][None, :]
                tol8 = mag * 2.0**-8 + ref8.abs() * 2.0**-8
                out8 = torch.empty(total, n, device=dev, dtype=torch.bfloat16)

                def loop8():
                    for g in nz:
                        r = slice(starts[g], starts[g] + sizes[g])
                        out8[r] = torch._scaled_mm(a8[r], b8[g], scale_a=sa[r, None], scale_b=sb[g][None, :],
                                                   out_dtype=torch.bfloat16, use_fast_accum=True)
                    return out8

                fns8 = {"torch": lambda: torch._scaled_grouped_mm(a8, b8, sa, sb, offs=ends, out_dtype=torch.bfloat16,
                                                                   use_fast_accum=True),
                        "loop": loop8}
                timed8 = {}
                for c, fn in fns8.items():
                    try:
                        d = fn()
                        torch.cuda.synchronize()
                        nb = int((~((d.float() - ref8).abs() <= tol8)).sum())
                        row8[c + "_bad"] = nb
                        if nb == 0:
                            timed8[c] = fn
                    except Exception as e:
                        row8[c + "_error"] = str(e).split("\n")[0][:200]
                for c, (tb, ts) in (time_all(timed8) if timed8 else {}).items():
                    row8[c + "_tflops"] = flops / tb / 1e9
                    row8[c + "_sustained_tflops"] = flops / ts / 1e9
                del a8, w8, b8, ref8, mag, tol8, out8
            except Exception as e:
                row8["error"] = str(e).split("\n")[0][:200]
            results.append(row8)
            msg = [f"{c} {row8[c + '_tflops']:6.1f}/{row8[c + '_sustained_tflops']:6.1f}" for c in ("torch", "loop")
                   if c + "_tflops" in row8]
            msg += [f"{c} ERROR {row8[c + '_error']}" for c in ("torch", "loop") if c + "_error" in row8]
            msg += [f"{c} WRONG ({row8[c + '_bad']} bad)" for c in ("torch", "loop") if row8.get(c + "_bad", 0) > 0]
            msg += [f"ERROR {row8['error']}"] if "error" in row8 else []
            print("  fp8 rowwise: " + "  ".join(msg), flush=True)

        del a, ref, tol, out_loop, fns, timed
        if args.json:  # after every case: a run cut short keeps what it measured
            info["gpu_after"] = gpu_state()
            with open(args.json, "w") as f:
                json.dump({**info, "results": results}, f, indent=1)
    print(f"sm clock, max, W, C after: {gpu_state()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
