#!/usr/bin/env python3
"""tessera.ops.attention against PyTorch's scaled_dot_product_attention (cuDNN and flash backends),
in one process, on the same inputs: the FlashAttention-3 paper's forward sweep.

    python3 bench/attention/compare.py                  # bf16, 18 cases, ~1.5-3 min of GPU time
    python3 bench/attention/compare.py --quick          # 3 cases
    python3 bench/attention/compare.py --fp16 --json out.json
    python3 bench/attention/compare.py --only-extra --held-out --varlen   # held-out shapes, varlen
    python3 bench/attention/compare.py --seqs 1024 --head-dims 64,256     # a part of the sweep

Cases: batch * seq = 16384 tokens, heads * head_dim = 2048, seq in {1024, 4096, 16384}, head_dim
in {64, 128, 256}, causal and not (seq_q == seq_k, so the two causal alignments agree); q, k, v
contiguous (batch, heads, seq, head_dim), standard normal (full-entropy data, as docs/performance.md,
"Method", asks of a benchmark).
Forward TFLOP/s = 4 batch heads seq_q seq_k head_dim / t, halved for causal.

Each case is verified before it is timed: every implementation's output against cuDNN's (max abs
difference reported; over the tolerance, that implementation is not timed for the case, and
tessera's failure is flagged in the table and the JSON). Then two timings, each interleaving the
implementations so that they see the same clocks:
  burst      after --rest seconds of idle GPU, --samples rounds of one sample per implementation in
             rotating order (a sample: enough back-to-back calls for >= 1 ms, timed by CUDA events);
             the median per implementation;
  sustained  blocks of ~--block-ms back to back, alternating implementations, for --sustain seconds;
             the median of the blocks of the second half (once the power cap has pulled the clock).
The SM clock (MHz) is read at the end of the burst and of the sustained run (torch.cuda.clock_rate(),
else pynvml, else not reported), with the enforced power limit. Prints a table; --json writes every figure.
"""

import argparse
import json
import math
import statistics
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import tessera
import tessera.ops

TOKENS, HIDDEN = 16384, 2048
SEQS, HEAD_DIMS = (1024, 4096, 16384), (64, 128, 256)
QUICK = [(4096, 128, False), (4096, 128, True), (16384, 256, False)]
# max |O - O_cudnn|: two 16-bit results of |O| up to ~4 (standard normal inputs; early causal rows
# average few keys), each P rounded to 16 bits and O rounded once: a few units in the last place.
TOLERANCE = {torch.bfloat16: 6e-2, torch.float16: 8e-3}


def sm_clock_mhz():
    """The current SM clock of device 0 in MHz, or None when nothing can read it."""
    try:
        return int(torch.cuda.clock_rate(0))
    except Exception:
        pass
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
        return int(pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM))
    except Exception:
        return None


def power_limit_w():
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
        return pynvml.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0
    except Exception:
        return None


def implementations(q, k, v, causal):
    """name -> a function computing O (no arguments)."""

    def tessera_attention():
        return tessera.ops.attention(q, k, v, causal=causal)

    def sdpa(backend):
        def run():
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

        return run

    return {"tessera": tessera_attention, "cudnn": sdpa(SDPBackend.CUDNN_ATTENTION),
            "flash": sdpa(SDPBackend.FLASH_ATTENTION)}


def time_calls(fn, calls):
    """Seconds per call of `calls` back-to-back calls, by CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / 1e3 / calls


def run_case(dtype, seq, head_dim, causal, args):
    batch, heads = TOKENS // seq, HIDDEN // head_dim
    flops = 4.0 * batch * heads * seq * seq * head_dim / (2 if causal else 1)
    g = torch.Generator(device="cuda")
    g.manual_seed(seq * 1000 + head_dim * 2 + causal)
    shape = (batch, heads, seq, head_dim)
    q, k, v = (torch.randn(shape, generator=g, device="cuda", dtype=torch.float32).to(dtype) for _ in range(3))
    impls = implementations(q, k, v, causal)
    if args.no_flash:
        del impls["flash"]
    row = {"dtype": str(dtype).split(".")[-1], "batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim,
           "causal": causal, "flops": flops, "impls": {}}
    return measure(row, impls, "cudnn", dtype, args)


def measure(row, impls, reference, dtype, args):
    """Verifies every implementation against impls[reference], then times the correct ones (burst and
    sustained, interleaved) into row["impls"]; row["flops"] is the work of one call."""
    flops = row["flops"]
    # Verify first: each against the reference (tessera's first call compiles its kernel, or loads it).
    try:
        ref = impls[reference]().float()
        torch.cuda.synchronize()
    except Exception as e:  # the reference refused this configuration: nothing to verify against
        row["error"] = "%s: %s" % (reference, str(e).splitlines()[0] if str(e) else type(e).__name__)
        return row
    live = {}
    for name, fn in impls.items():
        r = {}
        row["impls"][name] = r
        try:
            t0 = time.perf_counter()
            out = fn()
            torch.cuda.synchronize()
            r["first_call_s"] = time.perf_counter() - t0
            diff = (out.float() - ref).abs().max().item() if out.shape == ref.shape else math.nan
        except Exception as e:
            r["ok"], r["error"] = False, (str(e).splitlines()[0] if str(e) else type(e).__name__)
            continue
        r["max_abs_diff"] = diff
        r["ok"] = bool(math.isfinite(diff) and diff <= TOLERANCE[dtype])
        if r["ok"]:
            live[name] = fn
    del ref
    if not live:
        return row

    # Calls per sample: >= 1 ms of work (estimated from a few warm calls).
    per = {}
    for name, fn in live.items():
        fn()
        per[name] = max(1, math.ceil(1e-3 / max(time_calls(fn, 3), 1e-6)))

    # Burst: after a rest, rounds of one sample each, the order rotating.
    torch.cuda.synchronize()
    time.sleep(args.rest)
    names = list(live)
    samples = {n: [] for n in names}
    for i in range(args.samples):
        for n in names[i % len(names):] + names[:i % len(names)]:
            samples[n].append(time_calls(live[n], per[n]))
    row["clock_mhz_burst"] = sm_clock_mhz()  # at the burst's end, the GPU just busy
    for n in names:
        t = statistics.median(samples[n])
        row["impls"][n].update(burst_s=t, burst_tflops=flops / t / 1e12)

    # Sustained: blocks of ~block_ms each, alternating, for `sustain` seconds; the second half's median.
    blocks = {n: [] for n in names}
    block_calls = {n: max(1, round(args.block_ms / 1e3 / row["impls"][n]["burst_s"])) for n in names}
    t_end = time.perf_counter() + args.sustain
    while time.perf_counter() < t_end:
        for n in names:
            blocks[n].append(time_calls(live[n], block_calls[n]))
    row["clock_mhz_sustained"] = sm_clock_mhz()
    for n in names:
        b = blocks[n][len(blocks[n]) // 2:] or blocks[n]
        t = statistics.median(b)
        row["impls"][n].update(sustained_s=t, sustained_tflops=flops / t / 1e12, sustained_blocks=len(blocks[n]))
    return row


# Held-out shapes (not the sweep's): (batch, heads_q, heads_kv, seq_q, seq_k, head_dim, causal). Odd
# lengths, Q and K lengths different, grouped-query attention (8 query heads a key/value head).
HELD_OUT = [(4, 16, 16, 3001, 3001, 128, False), (4, 16, 16, 3001, 3001, 128, True),
            (2, 32, 4, 4096, 4096, 128, False), (2, 32, 4, 4096, 4096, 128, True),
            (8, 16, 2, 1000, 1000, 128, False), (4, 32, 32, 2047, 2047, 64, True),
            (16, 16, 16, 513, 4096, 128, False), (2, 8, 8, 5000, 5000, 256, True)]


def run_held_out(dtype, case, args):
    """A held-out shape against SDPA's cuDNN backend (enable_gqa for grouped heads; causal is
    top-left, PyTorch's is_causal)."""
    b, hq, hkv, sq, sk, d, causal = case
    g = torch.Generator(device="cuda")
    g.manual_seed(hash(case) % (1 << 31))
    q = torch.randn((b, hq, sq, d), generator=g, device="cuda").to(dtype)
    k, v = (torch.randn((b, hkv, sk, d), generator=g, device="cuda").to(dtype) for _ in range(2))
    pairs = sum(min(sk, i + 1) for i in range(sq)) if causal else sq * sk  # (query, key) pairs seen
    row = {"dtype": str(dtype).split(".")[-1], "batch": b, "heads": hq, "heads_kv": hkv, "seq": sq, "seq_k": sk,
           "head_dim": d, "causal": causal, "flops": 4.0 * b * hq * pairs * d, "impls": {}}

    def sdpa(backend):
        def run():
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=hkv != hq)

        return run

    impls = {"tessera": lambda: tessera.ops.attention(q, k, v, causal=causal), "cudnn": sdpa(SDPBackend.CUDNN_ATTENTION)}
    if not args.no_flash:
        impls["flash"] = sdpa(SDPBackend.FLASH_ATTENTION)
    return measure(row, impls, "cudnn", dtype, args)


def run_varlen(dtype, head_dim, causal, args):
    """Variable-length sequences (lengths uniform in [128, 4096], 16384 tokens, heads * head_dim =
    2048) packed as FlashAttention's varlen API takes them: tessera.ops.attention_varlen against
    PyTorch's FlashAttention-2 varlen kernel (aten::_flash_attention_forward with cumulative
    offsets), verified against it. cuDNN through SDPA takes no packed batch; the row's
    cudnn_dense_tflops is cuDNN on one dense batch of the same tokens at the mean length (an
    anchor, not the same work)."""
    heads = HIDDEN // head_dim
    g = torch.Generator(device="cpu")
    g.manual_seed(head_dim * 2 + causal)
    lens = []
    while sum(lens) < TOKENS:
        lens.append(int(torch.randint(128, 4097, (1,), generator=g)))
    lens[-1] -= sum(lens) - TOKENS
    lens = [n for n in lens if n > 0]
    cu = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(len(lens))], dtype=torch.int32, device="cuda")
    gd = torch.Generator(device="cuda")
    gd.manual_seed(7 + head_dim)
    q, k, v = (torch.randn((TOKENS, heads, head_dim), generator=gd, device="cuda").to(dtype) for _ in range(3))
    pairs = sum(n * (n + 1) // 2 if causal else n * n for n in lens)
    row = {"dtype": str(dtype).split(".")[-1], "varlen": lens, "heads": heads, "seq": max(lens), "head_dim": head_dim,
           "causal": causal, "flops": 4.0 * heads * pairs * head_dim, "impls": {}}
    mx = max(lens)

    def fa2():
        return torch.ops.aten._flash_attention_forward(q, k, v, cu, cu, mx, mx, 0.0, causal, False)[0]

    impls = {"tessera": lambda: tessera.ops.attention_varlen(q, k, v, cu, cu, mx, mx, causal=causal), "flash": fa2}
    measure(row, impls, "flash", dtype, args)
    # The dense anchor: cuDNN on (TOKENS / mean, heads, mean, head_dim), its TFLOP/s.
    mean = max(64, round(TOKENS / len(lens) / 64) * 64)
    dense = torch.randn((TOKENS // mean, heads, mean, head_dim), generator=gd, device="cuda").to(dtype)
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        run = lambda: F.scaled_dot_product_attention(dense, dense, dense, is_causal=causal)  # noqa: E731
        run()
        calls = max(1, math.ceil(1e-3 / max(time_calls(run, 3), 1e-6)))
        t = statistics.median(time_calls(run, calls) for _ in range(args.samples))
    row["cudnn_dense_seq"] = mean
    row["cudnn_dense_tflops"] = 4.0 * (TOKENS // mean) * heads * mean * mean * head_dim / (2 if causal else 1) / t / 1e12
    return row


def fmt(r, key):
    if r is None:
        return "-"
    if "error" in r:
        return "error"
    if not r.get("ok"):
        return "WRONG"
    v = r.get(key)
    return "-" if v is None else "%.0f" % v


def print_row(row, note="", ref="cudnn"):
    """One line of the table; t/cdnn is tessera / the reference (`ref`: cuDNN, or flash for varlen)."""
    im = row["impls"]
    t, c, f = im.get("tessera"), im.get("cudnn"), im.get("flash")
    r = im.get(ref)

    def ratio(key):
        if t and r and t.get(key) and r.get(key):
            return "%.2f" % (t[key] / r[key])
        return "-"

    def diff(x):
        return "-" if not x or "max_abs_diff" not in x else "%.2e" % x["max_abs_diff"]

    print("%-8s %6d %4d %6s | %8s %8s | %8s %8s | %8s %8s | %6s %6s | %9s %9s | %4s/%-4s%s%s" % (
        row["dtype"], row["seq"], row["head_dim"], row["causal"], fmt(t, "burst_tflops"), fmt(t, "sustained_tflops"),
        fmt(c, "burst_tflops"), fmt(c, "sustained_tflops"), fmt(f, "burst_tflops"),
        fmt(f, "sustained_tflops"), ratio("burst_tflops"), ratio("sustained_tflops"), diff(t), diff(f),
        row.get("clock_mhz_burst") or "-", row.get("clock_mhz_sustained") or "-",
        ("  " + row["error"]) if "error" in row else
        ("  tessera: " + t["error"]) if t and "error" in t else "", ("  " + note) if note else ""), flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="3 cases: %s" % QUICK)
    p.add_argument("--fp16", action="store_true", help="float16 cases too (after bfloat16)")
    p.add_argument("--json", help="write every figure to this file")
    p.add_argument("--samples", type=int, default=7, help="burst rounds (default 7)")
    p.add_argument("--rest", type=float, default=1.0, help="idle seconds before each burst (default 1)")
    p.add_argument("--sustain", type=float, default=1.5, help="seconds of the sustained run per case (default 1.5)")
    p.add_argument("--block-ms", type=float, default=50.0, help="ms per sustained block (default 50)")
    p.add_argument("--no-flash", action="store_true", help="leave out the flash backend")
    p.add_argument("--held-out", action="store_true", help="also the held-out shapes (odd lengths, GQA): %d cases"
                   % len(HELD_OUT))
    p.add_argument("--varlen", action="store_true", help="also variable-length batches (attention_varlen), "
                   "head_dim 64/128/256, causal and not")
    p.add_argument("--only-extra", action="store_true", help="skip the sweep: only --held-out / --varlen")
    p.add_argument("--seqs", type=lambda v: [int(x) for x in v.split(",")], default=list(SEQS),
                   help="the sweep's sequence lengths, comma-separated (default %s)" % ",".join(map(str, SEQS)))
    p.add_argument("--head-dims", type=lambda v: [int(x) for x in v.split(",")], default=list(HEAD_DIMS),
                   help="the sweep's head dimensions, comma-separated (default %s)" % ",".join(map(str, HEAD_DIMS)))
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        sys.exit("compare.py: no CUDA device")
    cases = QUICK if args.quick else [(s, d, c) for s in args.seqs for d in args.head_dims for c in (False, True)]
    dtypes = [torch.bfloat16] + ([torch.float16] if args.fp16 else [])
    info = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
            "cudnn": torch.backends.cudnn.version(), "tessera": getattr(tessera, "__version__", "?"),
            "power_limit_w": power_limit_w(), "args": vars(args)}
    print("# %s, torch %s, cuDNN %s, power limit %s W" % (info["device"], info["torch"], info["cudnn"],
                                                         info["power_limit_w"]))
    head = "%-8s %6s %4s %6s | %8s %8s | %8s %8s | %8s %8s | %6s %6s | %9s %9s | %9s" % (
        "dtype", "seq", "d", "causal", "tessera", "sust", "cudnn", "sust", "flash", "sust", "t/cdnn", "sust",
        "diff_t", "diff_fl", "MHz b/s")
    print("# TFLOP/s: burst, sustained; t/cdnn: tessera / cuDNN; diff: max |O - O_cudnn|")
    print(head)
    rows = []
    t_start = time.perf_counter()
    for dt in dtypes:
        for seq, d, causal in [] if args.only_extra else cases:
            row = run_case(dt, seq, d, causal, args)
            rows.append(row)
            print_row(row)
    for dt in dtypes:
        for case in HELD_OUT if args.held_out else []:
            row = run_held_out(dt, case, args)
            rows.append(row)
            print_row(row, "held-out b%d hq%d hkv%d %dx%d" % (row["batch"], row["heads"], row["heads_kv"], row["seq"],
                                                              row["seq_k"]))
        for d, causal in [(d, c) for d in HEAD_DIMS for c in (False, True)] if args.varlen else []:
            row = run_varlen(dt, d, causal, args)
            rows.append(row)
            print_row(row, "varlen %d seqs, max %d (cuDNN dense at %d: %.0f)" % (
                len(row["varlen"]), row["seq"], row["cudnn_dense_seq"], row["cudnn_dense_tflops"]), ref="flash")
    info["seconds"] = time.perf_counter() - t_start
    wrong = [r for r in rows if "tessera" in r["impls"] and not r["impls"]["tessera"].get("ok")]
    print("# %d cases in %.0f s; tessera wrong or failed in %d" % (len(rows), info["seconds"], len(wrong)))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"info": info, "cases": rows}, out, indent=1)
        print("# wrote %s" % args.json)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
