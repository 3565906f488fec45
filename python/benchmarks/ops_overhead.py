#!/usr/bin/env python3
"""The call overhead of tessera.ops next to PyTorch's, on a GPU machine with torch.

For a small tensor (1024 elements by default) the kernel takes a few microseconds; what a Python
caller pays is the host time of the call: argument checks, the DLPack exports, the allocation of
the result and the launch. This script prints, for tessera.ops.add and torch.add (and the same with
out=, and gemm next to torch.mm on a small matrix), the median host time of one call over many
calls, and the time per call of a long back-to-back run (host and device together):

    python3 python/benchmarks/ops_overhead.py [--n 1024] [--calls 2000] [--repeats 15]

Timing: a call's host time is time.perf_counter_ns around the call alone (the kernel runs on
asynchronously); to keep the GPU's queue from filling up, torch.cuda.synchronize() runs after every
call, outside the timed region. The back-to-back figure times `calls` calls without any
synchronization in between and one torch.cuda.synchronize() before the clock stops.
"""

import argparse
import statistics
import time

import torch

import tessera
import tessera.ops


def per_call_host_ns(fn, calls):
    samples = []
    for _ in range(calls):
        torch.cuda.synchronize()
        t0 = time.perf_counter_ns()
        fn()
        t1 = time.perf_counter_ns()
        samples.append(t1 - t0)
    torch.cuda.synchronize()
    return statistics.median(samples)


def back_to_back_ns(fn, calls, repeats):
    results = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        results.append((time.perf_counter_ns() - t0) / calls)
    return statistics.median(results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1024, help="elements of the added tensors (default 1024)")
    parser.add_argument("--calls", type=int, default=2000, help="calls per measurement (default 2000)")
    parser.add_argument("--repeats", type=int, default=15, help="back-to-back runs; the median is printed (default 15)")
    args = parser.parse_args()
    if not tessera.ops.available():
        raise SystemExit("tessera.ops is not available: " + str(tessera.ops._import_error))

    a = torch.randn(args.n, device="cuda")
    b = torch.randn(args.n, device="cuda")
    out = torch.empty_like(a)
    assert torch.equal(tessera.ops.add(a, b), torch.add(a, b)), "tessera.ops.add disagrees with torch.add"
    cases = [
        ("tessera.ops.add(a, b)", lambda: tessera.ops.add(a, b)),
        ("torch.add(a, b)", lambda: torch.add(a, b)),
        ("tessera.ops.add(a, b, out=out)", lambda: tessera.ops.add(a, b, out=out)),
        ("torch.add(a, b, out=out)", lambda: torch.add(a, b, out=out)),
    ]
    if tessera.ops._ops.have_gemm():
        x = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
        cases += [
            ("tessera.ops.gemm(x, x) 64^3 bf16", lambda: tessera.ops.gemm(x, x)),
            ("torch.mm(x, x) 64^3 bf16", lambda: torch.mm(x, x)),
        ]
    for _, fn in cases:  # warm-up: first launches, allocator pools, lazy module loading
        for _ in range(50):
            fn()
    torch.cuda.synchronize()

    print("device: %s; torch %s; a, b: %d float32 elements; %d calls" % (torch.cuda.get_device_name(), torch.__version__, args.n, args.calls))
    print("%-36s %22s %26s" % ("call", "median host us/call", "back-to-back us/call"))
    for name, fn in cases:
        host = per_call_host_ns(fn, args.calls) / 1000.0
        b2b = back_to_back_ns(fn, args.calls, args.repeats) / 1000.0
        print("%-36s %22.2f %26.2f" % (name, host, b2b))


if __name__ == "__main__":
    main()
