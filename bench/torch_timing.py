"""Interleaved burst and sustained timing of several CUDA callables, for the bench scripts that
compare a tessera.ops call with PyTorch's on the same tensors (bench/gemm_fp8_torch.py,
bench/gemm_grouped_torch.py; PERF.md's method: the contenders interleaved, the order rotated
each round, idle before each burst sample, medians).

    times = time_all(torch, {"tessera": f, "torch": g}, repeats=9, iters=10, rest_ms=20,
                     sustained=3, sustained_ms=100)   # {"tessera": (burst ms, sustained ms), ...}
"""
import time


def run_ms(torch, fn, iters):
    """Mean milliseconds of one call of fn over iters calls back to back, by CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters


def time_all(torch, fns, repeats, iters, rest_ms, sustained, sustained_ms):
    """{name: (burst ms, sustained ms)} for the contenders fns (name -> callable), interleaved.

    Each contender is called once first (a compile on a first call stays out of the figures) and
    estimated over 3 calls. Bursts: `repeats` rounds, each contender in a rotated order, `iters`
    calls after `rest_ms` idle. Sustained: `sustained` rounds of about `sustained_ms` of calls
    each, no idle. The medians of the samples."""
    names = list(fns)
    per = {}
    for n in names:
        fns[n]()
        torch.cuda.synchronize()
        per[n] = max(run_ms(torch, fns[n], 3), 1e-3)
    burst = {n: [] for n in names}
    for r in range(repeats):
        for i in range(len(names)):
            n = names[(i + r) % len(names)]
            time.sleep(rest_ms / 1000.0)
            burst[n].append(run_ms(torch, fns[n], iters))
    sust = {n: [] for n in names}
    for r in range(sustained):
        for i in range(len(names)):
            n = names[(i + r) % len(names)]
            sust[n].append(run_ms(torch, fns[n], max(iters, int(sustained_ms / per[n]))))

    def med(v):
        return sorted(v)[len(v) // 2] if v else 0.0

    return {n: (med(burst[n]), med(sust[n])) for n in names}
