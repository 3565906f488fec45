#!/usr/bin/env python3
"""PyTorch's grouped GEMM on the shapes of `tessera-bench --sizes grouped`, for comparison.

Times, in one process on one GPU, bf16:
  * torch._grouped_mm(a, b, offs=ends): A (tokens x K) packed by expert, B (G x K x N) as the
    transposed view of the contiguous (G x N x K) weights (the layout the sm90 kernel takes), D
    (tokens x N);
  * a loop of torch.mm over the non-empty groups (one cuBLAS call each);
  * tessera.ops.grouped_gemm on the same tensors (ends=, B the transposed view), when the package
    importable from this Python has it (the JIT compiles its kernels on the first call: seconds).
Each result is checked against the loop before it is timed (max |D - ref| <= 2^-7 |ref| + K 2^-16,
the bound the C++ benchmark uses). Shapes and token distributions are the C++ cases' (the same
means, +-50%, every 8th group empty; this script's own draw). TFLOP/s = 2 tokens N K / t; median
of `--repeats` runs of `--iters` launches after a warm-up; a burst after `--rest` ms idle.

  python bench/gemm_grouped_torch.py [--json FILE] [--repeats 5] [--iters 20] [--rest 20]
"""

import argparse
import json
import random
import sys
import time

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", default="")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--rest", type=float, default=20.0, help="ms idle before each timed burst")
    ap.add_argument("--cases", default="", help="substring filter on case names")
    args = ap.parse_args()

    import torch

    if not torch.cuda.is_available():
        print("gemm_grouped_torch: no CUDA device visible; nothing to run")
        return 2
    dev = torch.device("cuda")
    try:
        import tessera.ops as tops  # noqa: F401

        ours = getattr(tops, "grouped_gemm", None)
    except Exception as e:  # the package is optional here
        print(f"gemm_grouped_torch: tessera.ops not importable ({e}); timing PyTorch only")
        ours = None
    has_grouped_mm = hasattr(torch, "_grouped_mm")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"torch._grouped_mm: {has_grouped_mm}, tessera.ops.grouped_gemm: {ours is not None}")

    def timed(fn):
        fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(args.repeats):
            time.sleep(args.rest / 1000.0)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(args.iters):
                fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / args.iters)
        times.sort()
        return times[len(times) // 2]

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
            torch.manual_seed(groups + n)
            weights[key] = (torch.rand(groups, n, k, device=dev) * 2 - 1).to(torch.bfloat16)
        w = weights[key]  # (G, N, K) contiguous
        a = (torch.rand(total, k, device=dev) * 2 - 1).to(torch.bfloat16)
        ends = torch.tensor([sum(sizes[: g + 1]) for g in range(groups)], device=dev, dtype=torch.int32)
        starts = [sum(sizes[:g]) for g in range(groups)]
        nz = [g for g in range(groups) if sizes[g] > 0]

        def loop(out=None):
            out = torch.empty(total, n, device=dev, dtype=torch.bfloat16) if out is None else out
            for g in nz:
                torch.mm(a[starts[g] : starts[g] + sizes[g]], w[g].t(), out=out[starts[g] : starts[g] + sizes[g]])
            return out

        ref = torch.empty(total, n, device=dev, dtype=torch.float32)
        for g in nz:
            rows = slice(starts[g], starts[g] + sizes[g])
            ref[rows] = a[rows].float() @ w[g].float().t()
        tol = ref.abs() * 2.0**-7 + k * 2.0**-16

        def ok(d):
            return bool(((d.float() - ref).abs() <= tol).all())

        flops = 2.0 * total * n * k
        row = {"case": name, "groups": groups, "n": n, "k": k, "tokens": total, "mean": mean}
        out_loop = torch.empty(total, n, device=dev, dtype=torch.bfloat16)
        row["loop_verified"] = ok(loop(out_loop))
        row["loop_tflops"] = flops / timed(lambda: loop(out_loop)) / 1e9
        if has_grouped_mm:
            try:
                d = torch._grouped_mm(a, w.transpose(-2, -1), offs=ends)
                row["grouped_mm_verified"] = ok(d)
                row["grouped_mm_tflops"] = flops / timed(lambda: torch._grouped_mm(a, w.transpose(-2, -1), offs=ends)) / 1e9
            except Exception as e:
                row["grouped_mm_error"] = str(e).split("\n")[0][:200]
        if ours is not None:
            try:
                d = ours(a, w.transpose(-2, -1), ends=ends)
                row["tessera_verified"] = ok(d)
                row["tessera_tflops"] = flops / timed(lambda: ours(a, w.transpose(-2, -1), ends=ends)) / 1e9
            except Exception as e:
                row["tessera_error"] = str(e).split("\n")[0][:200]
        results.append(row)
        parts = [f"{name:22s} tokens {total:6d}", f"loop {row['loop_tflops']:7.1f}"]
        if "grouped_mm_tflops" in row:
            parts.append(f"_grouped_mm {row['grouped_mm_tflops']:7.1f}" + ("" if row["grouped_mm_verified"] else " (WRONG)"))
        if "grouped_mm_error" in row:
            parts.append("_grouped_mm error: " + row["grouped_mm_error"])
        if "tessera_tflops" in row:
            parts.append(f"tessera {row['tessera_tflops']:7.1f}" + ("" if row["tessera_verified"] else " (WRONG)"))
        if "tessera_error" in row:
            parts.append("tessera error: " + row["tessera_error"])
        print("  ".join(parts) + "  TFLOP/s", flush=True)
        del a, ref, tol, out_loop
        if args.json:  # after every case: a run cut short keeps what it measured
            with open(args.json, "w") as f:
                json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "results": results}, f,
                          indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
