#!/usr/bin/env python3
"""cuDNN's attention backward (PyTorch SDPA, cuDNN backend) on the FlashAttention-3 sweep, and the
ratio of tessera's figures to it.

The shapes are tessera-attention-backward-bench's (bf16, batch x seq = 16k tokens, heads x head_dim
= 2048; head_dim 64 and 128, seq 1k, 4k, 16k, causal and not). Per shape: the forward once, then
bursts of backward passes (torch.autograd.grad of the SDPA output for a fixed dO, retain_graph),
`--warmup` untimed, `--iters` timed back to back with CUDA events around each, the median of
`--repeats` bursts after `--rest` ms idle; TFLOP/s counts the backward as 2.5 times the forward's
4 b h s^2 d (halved for causal). Before timing, cuDNN's gradients are compared with the math
backend's in fp32 on the first (batch, head) (the reference is verified too). With
`--tessera FILE` (the bench's output, same device call), prints tessera / cuDNN per shape.

    python3 bench/attention/backward_cudnn.py --tessera bwd.txt
"""
import argparse
import re
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def burst(fn, warmup, iters, repeats, rest_ms):
    medians = []
    for _ in range(repeats):
        time.sleep(rest_ms / 1000)
        for _ in range(warmup):
            fn()
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(iters + 1)]
        ev[0].record()
        for i in range(iters):
            fn()
            ev[i + 1].record()
        ev[-1].synchronize()
        t = sorted(ev[i].elapsed_time(ev[i + 1]) for i in range(iters))
        medians.append(t[len(t) // 2])
    return sorted(medians)[len(medians) // 2]


def check_reference(q, k, v, do, causal):
    """cuDNN's gradients of (batch 0, head 0) against the math backend in fp32: max |error|."""
    q1, k1, v1, do1 = (t[:1, :1].detach().clone() for t in (q, k, v, do))
    qa, ka, va = (t.clone().requires_grad_() for t in (q1, k1, v1))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        o = F.scaled_dot_product_attention(qa, ka, va, is_causal=causal)
    got = torch.autograd.grad(o, (qa, ka, va), do1)
    qf, kf, vf = (t.float().requires_grad_() for t in (q1, k1, v1))
    with sdpa_kernel(SDPBackend.MATH):
        of = F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal)
    want = torch.autograd.grad(of, (qf, kf, vf), do1.float())
    return max((g.float() - w).abs().max().item() for g, w in zip(got, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rest", type=int, default=200)
    ap.add_argument("--head-dims", default="64,128")
    ap.add_argument("--seqs", default="1024,4096,16384")
    ap.add_argument("--tessera", default=None)
    a = ap.parse_args()
    ours = {}
    if a.tessera:
        pat = re.compile(r"d=(\d+) seq=(\d+) causal=(\d) .* tflops=([\d.]+) verify=(\S+)")
        for line in open(a.tessera):
            m = pat.search(line)
            if m:
                ours[(int(m[1]), int(m[2]), int(m[3]))] = (float(m[4]), line.rstrip().endswith("FAILED"))
    torch.manual_seed(0)
    dev = torch.device("cuda")
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} cuDNN {torch.backends.cudnn.version()}")
    for d in (int(x) for x in a.head_dims.split(",")):
        for s in (int(x) for x in a.seqs.split(",")):
            for causal in (0, 1):
                b, h = 16384 // s, 2048 // d
                q, k, v, do = ((torch.rand(b, h, s, d, device=dev) * 2 - 1).to(torch.bfloat16) for _ in range(4))
                err = check_reference(q, k, v, do, bool(causal))
                q.requires_grad_()
                k.requires_grad_()
                v.requires_grad_()
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    o = F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))

                def bwd():
                    torch.autograd.grad(o, (q, k, v), do, retain_graph=True)

                ms = burst(bwd, a.warmup, a.iters, a.repeats, a.rest)
                tf = 2.5 * 4.0 * b * h * s * s * d / (2 if causal else 1) / (ms * 1e-3) / 1e12
                line = f"cudnn bf16 d={d} seq={s} causal={causal} b={b} h={h} ms={ms:.4f} tflops={tf:.1f} check={err:.3g}"
                if (d, s, causal) in ours:
                    t, failed = ours[(d, s, causal)]
                    line += f" tessera={t:.1f} ratio={t / tf:.3f}" + (" (tessera FAILED verification)" if failed else "")
                print(line, flush=True)
                del o, q, k, v, do
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
