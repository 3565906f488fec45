#!/usr/bin/env python3
"""tessera.ops.scaled_gemm against torch._scaled_mm (cuBLASLt) on the same tensors, in one process.

For each shape (4096^3 and 8192^3 by default) and each kind of scale (per tensor; row-wise: A's per
row, B's per column), e4m3 in, bf16 out, one set of tensors that every contender gets:
  * a (M x K) row-major, b the transpose of a row-major (N x K) weight (K-major, as both take it),
    scales in [0.5, 1.5);
  * contenders: tessera.ops.scaled_gemm(a, b, sa, sb, out=...), torch._scaled_mm(a, b, sa, sb,
    out_dtype=bf16, use_fast_accum=True) ("torch_fast", cuBLASLt's fast accumulation, what
    scaled_gemm's kernel does) and use_fast_accum=False ("torch", cuBLASLt promoting the sums to
    fp32);
  * each is verified first against the float64 product of the dequantized operands, in tiles of
    rows (to bound the memory), every element within 2^-8 |ref| + 2^-8 sum_k |sa a sb b| (the fp8
    accumulation's bound, docs/gemm-fp8.md); a contender that fails is not timed;
  * timing interleaved, so that clocks and temperature are the same for all: burst, `--repeats`
    rounds, each round every contender once (the order rotated each round), each a run of
    `--iters` launches after `--rest` ms idle, the median per contender; sustained, `--sustained`
    rounds of back-to-back runs of about `--sustained-ms` each, contenders alternating with no
    idle, the median per contender.
TFLOP/s = 2 M N K / t. Prints one line per case and writes everything to --json.

  python bench/gemm_fp8_torch.py [--json FILE] [--sizes 4096,8192] [--kinds tensor,row]
"""

import argparse
import json
import subprocess
import sys
import time

import torch_timing  # bench/torch_timing.py, beside this script


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
    ap.add_argument("--sizes", default="4096,8192", help="cube sizes M = N = K")
    ap.add_argument("--kinds", default="tensor,row", help="scales: tensor (per tensor), row (row-wise)")
    ap.add_argument("--repeats", type=int, default=9, help="burst rounds")
    ap.add_argument("--iters", type=int, default=10, help="launches per burst run")
    ap.add_argument("--rest", type=float, default=20.0, help="ms idle before each burst run")
    ap.add_argument("--sustained", type=int, default=3, help="sustained rounds (0: none)")
    ap.add_argument("--sustained-ms", type=float, default=100.0, help="about how long each sustained run lasts")
    args = ap.parse_args()

    import torch

    if not torch.cuda.is_available():
        print("gemm_fp8_torch: no CUDA device visible; nothing to run")
        return 2
    import tessera.ops as tops

    dev = torch.device("cuda")
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
            "gpu_before": gpu_state(), "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            "args": vars(args)}
    print(f"device: {info['device']}, torch {info['torch']} (CUDA {info['cuda']}); sm clock, max, W, C: "
          f"{info['gpu_before']}", flush=True)

    def time_all(fns):
        """{name: (burst ms, sustained ms)}, interleaved (bench/torch_timing.py)."""
        return torch_timing.time_all(torch, fns, args.repeats, args.iters, args.rest, args.sustained,
                                     args.sustained_ms)

    def bad_count(d, a, b, sa, sb):
        """Elements of d (M x N) outside the bound, against float64 on the dequantized operands."""
        m, k = a.shape
        bd = b.double() * sb.double().reshape(-1)[None, :] if sb.numel() > 1 else b.double() * sb.double().reshape(())
        bad = 0
        for r0 in range(0, m, 1024):  # 1024 rows at a time: float64 (1024 x K) and (1024 x N)
            r1 = min(m, r0 + 1024)
            sa_rows = sa.double().reshape(-1)[r0:r1, None] if sa.numel() > 1 else sa.double().reshape(())
            ad = a[r0:r1].double() * sa_rows
            ref = ad @ bd
            acc = ad.abs() @ bd.abs()
            tol = 2.0**-8 * (ref.abs() + acc)
            bad += int((~((d[r0:r1].double() - ref).abs() <= tol)).sum())  # a NaN is bad
            del ad, ref, acc, tol
        return bad

    results = []
    e4 = torch.float8_e4m3fn
    for size in [int(s) for s in args.sizes.split(",") if s]:
        m = n = k = size
        torch.manual_seed(size)
        a = torch.randn(m, k, device=dev).to(e4)
        b = torch.randn(n, k, device=dev).to(e4).t()  # (K, N) column-major
        for kind in [s for s in args.kinds.split(",") if s]:
            if kind == "tensor":
                sa = torch.rand((), device=dev) + 0.5
                sb = torch.rand((), device=dev) + 0.5
            elif kind == "row":
                sa = torch.rand(m, 1, device=dev) + 0.5
                sb = torch.rand(1, n, device=dev) + 0.5
            else:
                raise SystemExit(f"gemm_fp8_torch: unknown kind {kind!r} (tensor, row)")
            outs = {c: torch.empty(m, n, device=dev, dtype=torch.bfloat16) for c in ("tessera",)}
            fns = {
                "tessera": lambda: tops.scaled_gemm(a, b, sa, sb, out=outs["tessera"]),
                "torch_fast": lambda: torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                                       use_fast_accum=True),
                "torch": lambda: torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                                  use_fast_accum=False),
            }
            flops = 2.0 * m * n * k
            row = {"case": f"{size}^3_{kind}", "m": m, "n": n, "k": k, "scales": kind}
            timed = {}
            for c, fn in fns.items():
                try:
                    if c == "tessera":
                        outs[c].fill_(float("nan"))  # every element must be written
                    t0 = time.perf_counter()
                    d = fn()
                    torch.cuda.synchronize()
                    row[c + "_first_call_s"] = time.perf_counter() - t0  # tessera: the compile (or the disk cache)
                    nbad = bad_count(d, a, b, sa, sb)
                    row[c + "_bad"] = nbad
                    row[c + "_verified"] = nbad == 0
                    if nbad == 0:
                        timed[c] = fn
                except Exception as e:
                    row[c + "_error"] = str(e).split("\n")[0][:300]
            times = time_all(timed) if timed else {}
            for c, (tb, ts) in times.items():
                row[c + "_tflops"] = flops / tb / 1e9
                row[c + "_sustained_tflops"] = flops / ts / 1e9
            if "tessera" in times:
                for c in ("torch_fast", "torch"):
                    if c in times:
                        row[f"pct_of_{c}"] = 100.0 * times[c][0] / times["tessera"][0]
                        row[f"pct_of_{c}_sustained"] = 100.0 * times[c][1] / times["tessera"][1]
            row["gpu_after"] = gpu_state()
            results.append(row)
            parts = [f"{row['case']:14s}"]
            for c in ("tessera", "torch_fast", "torch"):
                if c + "_tflops" in row:
                    parts.append(f"{c} {row[c + '_tflops']:7.1f}/{row[c + '_sustained_tflops']:7.1f}")
                elif c + "_error" in row:
                    parts.append(f"{c} ERROR {row[c + '_error']}")
                elif row.get(c + "_verified") is False:
                    parts.append(f"{c} WRONG ({row[c + '_bad']} bad)")
            for c in ("torch_fast", "torch"):
                if f"pct_of_{c}" in row:
                    parts.append(f"%{c} {row[f'pct_of_{c}']:.1f}/{row[f'pct_of_{c}_sustained']:.1f}")
            print("  ".join(parts), flush=True)
            del outs
        del a, b
        torch.cuda.empty_cache()

    info["gpu_after"] = gpu_state()
    doc = {"info": info, "results": results,
           "note": "TFLOP/s burst/sustained; pct_of_X = X's time / tessera's time * 100 (>100: tessera faster)"}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
        print(f"wrote {args.json}")
    ok = all(r.get("tessera_verified") for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
