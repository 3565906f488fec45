#!/usr/bin/env python3
"""The published programs (docs/background.md) compiled while the program runs, side by side:
Tessera's JIT on the library's C++ kernels (tessera.jit, kernels specialized on the tensors' static
layouts), the same programs in Tessera's kernel language (examples/python, "python"), and CuTeDSL
(nvidia-cutlass-dsl 4.8.1, the same programs in its Python, bench/seeds/cutedsl_programs.py), with
PyTorch's add and copy as the in-run reference. One GPU, one process.

    python3 bench/seeds/compare.py [--size 32768] [--repeats 7] [--burst 10] [--sustained 200]
                                   [--json out.json] [--only tessera|python|cutedsl]

Programs (fp16, M = N = size, row-major): naive add (one element a thread), vectorized add
(zipped_divide by (1,4): 4-element vectors), thread-value add (make_layout_tv of (4,32):(32,1) and
(4,8):(8,1): (16,256) tiles), cp.async tile copy (32 rows, 512 threads, 128-bit copies: (32,128)
tiles). Each program's result is checked against torch before it is timed. Bandwidth counts the
bytes the program must move (adds: 2 reads + 1 write; copy: 1 read + 1 write), in GB/s (1e9).

Timing: CUDA events around `burst` launches (after a short rest) and around `sustained` launches,
the programs interleaved round by round, the median of `repeats` rounds. Also reported: each
compile's wall time with empty caches (Tessera: the JIT's caches bypassed; CuTeDSL: cute.compile),
the SM clock and power limit nvidia-smi reports before and after.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SOURCE = r"""
#include <cuda_fp16.h>
#include "tessera/kernels/elementwise_add.cuh"
#include "tessera/kernels/tile_copy.cuh"
"""

PROGRAMS = ("naive_add", "vectorized_add", "tv_add", "tile_copy")
THR = "tessera::Layout<tessera::Shape<tessera::Int<4>,tessera::Int<32>>,tessera::Stride<tessera::Int<32>,tessera::Int<1>>>"
VAL = "tessera::Layout<tessera::Shape<tessera::Int<4>,tessera::Int<8>>,tessera::Stride<tessera::Int<8>,tessera::Int<1>>>"


def gpu_state():
    """SM clock (MHz), power draw and limit (W) as nvidia-smi reports them, or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    q = "clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu"
    try:
        out = subprocess.run([smi, f"--query-gpu={q}", "--format=csv,noheader,nounits"], capture_output=True,
                             text=True, timeout=10).stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return None
    return dict(zip(q.split(","), [v.strip() for v in out.split(",")]))


def tessera_build(program, tensors):
    """(run, compile_seconds, kernel name) for one program through tessera.jit."""
    from tessera import jit

    a = tensors[0]
    layout = jit.spell(jit.layout_of(a))
    align = min(jit.assumed_alignment(t) for t in tensors)
    m, n = a.shape
    if program == "naive_add":
        name = f"tessera::kernels::add_naive_static<__half, {layout}, 256>"
        grid, block = (m * n + 255) // 256, 256
    elif program == "vectorized_add":
        name = f"tessera::kernels::add_vectorized_static<__half, {layout}, 4, 256, {align}>"
        grid, block = (m * n // 4 + 255) // 256, 256
    elif program == "tv_add":
        name = f"tessera::kernels::add_tv_static<__half, {layout}, {THR}, {VAL}, {align}>"
        grid, block = (m // 16) * (n // 256), 128
    elif program == "tile_copy":
        name = f"tessera::kernels::tile_copy_static<__half, {layout}, 32, 512>"
        grid, block = (n // 128, m // 32), 512
    else:
        raise ValueError(program)
    t0 = time.perf_counter()
    jit.compile(SOURCE, [name], cache=False)  # an empty cache's cost: NVRTC and the load
    seconds = time.perf_counter() - t0
    kernel = jit.compile(SOURCE, [name]).kernel(0)
    stream = torch.cuda.current_stream().cuda_stream
    if program == "tile_copy":
        src, dst = tensors

        def run():
            kernel(grid, block, src, dst, stream=stream)
    else:
        x, y, z = tensors

        def run():
            kernel(grid, block, x, y, z, stream=stream)

    return run, seconds, name


def lang_build(program, tensors):
    """(run, compile_seconds, kernel name) for one program written in the kernel language
    (examples/python): tessera.compile with the JIT's caches bypassed, the second of two compiles
    (the first in a process also pays for NVRTC's start)."""
    import tessera as ts

    sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))
    import elementwise_add
    import tile_copy

    fn = {"naive_add": elementwise_add.naive_elementwise_add, "vectorized_add": elementwise_add.vectorized_elementwise_add,
          "tv_add": elementwise_add.elementwise_add, "tile_copy": tile_copy.TensorCopyAsync()}[program]
    import contextlib
    import io

    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):  # the programs print their layouts while traced
            ts.compile(fn, *tensors, cache=False)
        times.append(time.perf_counter() - t0)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled = ts.compile(fn, *tensors)
    stream = torch.cuda.current_stream().cuda_stream

    def run():
        compiled(*tensors, stream=stream)

    return run, times[-1], compiled.kernels[0]


def time_ms(run, launches):
    """Milliseconds a launch over `launches` back-to-back launches (CUDA events)."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(launches):
        run()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / launches


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=32768)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--burst", type=int, default=10)
    ap.add_argument("--sustained", type=int, default=200)
    ap.add_argument("--rest", type=float, default=0.2, help="seconds of rest before each burst")
    ap.add_argument("--only", choices=("tessera", "python", "cutedsl"), help="time one system only")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()

    torch.manual_seed(0)
    m = n = args.size
    a = torch.randn(m, n, device="cuda", dtype=torch.float16)
    b = torch.randn(m, n, device="cuda", dtype=torch.float16)
    c = torch.empty_like(a)
    expect_add = a + b
    operands = {"naive_add": [a, b, c], "vectorized_add": [a, b, c], "tv_add": [a, b, c], "tile_copy": [a, c]}
    moved = {p: (3 if p != "tile_copy" else 2) * a.numel() * a.element_size() for p in PROGRAMS}

    systems = {}
    if args.only in (None, "tessera"):
        systems["tessera"] = tessera_build
    if args.only in (None, "python"):
        systems["python"] = lang_build
    cutedsl_note = None
    if args.only in (None, "cutedsl"):
        import cutedsl_programs as cd

        if cd.AVAILABLE:
            systems["cutedsl"] = cd.build
            cutedsl_note = cd.version()
        else:
            cutedsl_note = f"not run: {cd.WHY}"
            print(f"CuTeDSL {cutedsl_note}", file=sys.stderr)

    # The in-run reference: torch's add and copy (CUDA kernels of PyTorch).
    runs = {("torch", "add"): lambda: torch.add(a, b, out=c), ("torch", "copy"): lambda: c.copy_(a)}
    compile_s, names = {}, {}
    for system, build in systems.items():
        for p in PROGRAMS:
            run, seconds, *name = build(p, operands[p])
            c.zero_()
            run()
            torch.cuda.synchronize()
            ok = torch.equal(c, a if p == "tile_copy" else expect_add)
            if not ok:
                raise SystemExit(f"{system} {p}: wrong result; nothing timed")
            runs[(system, p)] = run
            compile_s[(system, p)] = seconds
            if name:
                names[(system, p)] = name[0]
    bytes_of = {k: moved[k[1]] if k[1] in moved else (3 if k[1] == "add" else 2) * a.numel() * 2 for k in runs}

    state_before = gpu_state()
    for _ in range(3):  # warm-up
        for run in runs.values():
            run()
    torch.cuda.synchronize()
    burst = {k: [] for k in runs}
    sustained = {k: [] for k in runs}
    for r in range(args.repeats):
        keys = list(runs) if r % 2 == 0 else list(reversed(list(runs)))
        for k in keys:
            time.sleep(args.rest)
            burst[k].append(bytes_of[k] / time_ms(runs[k], args.burst) / 1e6)
        for k in keys:
            sustained[k].append(bytes_of[k] / time_ms(runs[k], args.sustained) / 1e6)
    state_after = gpu_state()

    ref = {p: ("torch", "copy" if p == "tile_copy" else "add") for p in PROGRAMS}
    med = {k: (statistics.median(burst[k]), statistics.median(sustained[k])) for k in runs}
    print(f"{torch.cuda.get_device_name()}, {m}x{n} fp16, medians of {args.repeats} rounds "
          f"(burst {args.burst} launches / sustained {args.sustained}); GB/s")
    print(f"GPU before: {state_before}\nGPU after:  {state_after}")
    header = f"{'program':16} " + " ".join(f"{s + ' burst/sust':>24}" for s in systems) + f" {'torch burst/sust':>20}"
    print(header)
    for p in PROGRAMS:
        cells = []
        for s in systems:
            bb, ss = med[(s, p)]
            cells.append(f"{bb:8.0f} / {ss:6.0f} ({compile_s[(s, p)]:.2f}s)")
        tb, ts = med[ref[p]]
        print(f"{p:16} " + " ".join(f"{x:>24}" for x in cells) + f" {tb:9.0f} / {ts:6.0f}")
    for x, y in (("tessera", "cutedsl"), ("python", "cutedsl"), ("python", "tessera")):
        if x in systems and y in systems:
            print(f"{x} / {y} (burst, sustained): " + ", ".join(
                f"{p} {med[(x, p)][0] / med[(y, p)][0]:.3f}, "
                f"{med[(x, p)][1] / med[(y, p)][1]:.3f}" for p in PROGRAMS))

    if args.json:
        out = {
            "device": torch.cuda.get_device_name(), "size": [m, n], "dtype": "float16",
            "torch": torch.__version__, "cutedsl": cutedsl_note, "repeats": args.repeats,
            "burst_launches": args.burst, "sustained_launches": args.sustained,
            "gpu_before": state_before, "gpu_after": state_after,
            "results": [{"system": k[0], "program": k[1], "burst_gbps": med[k][0], "sustained_gbps": med[k][1],
                         "burst_all": burst[k], "sustained_all": sustained[k],
                         "compile_seconds": compile_s.get(k), "kernel": names.get(k)} for k in runs],
        }
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
