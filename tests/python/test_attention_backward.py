"""tessera.ops.attention's backward (the autograd Function of tessera/_attention_grad.py over
attention_backward_sm90) on a Hopper GPU, skipping with the reason elsewhere:

* the gradients of q, k and v against PyTorch's fp32 math backend on the same (bf16-valued)
  inputs, for head_dim 64 and 128, no mask, both causal alignments and GQA; each gradient's worst
  error is held to 2^-6 of its largest reference value, and to at most 2x (plus a floor) the error
  of PyTorch's own bf16 SDPA backward against the same fp32 reference;
* a short training loop: two copies of a small transformer block from one initialization, one
  attending with tessera.ops.attention and one with SDPA, trained for 12 AdamW steps on the same
  batches: their losses agree within 2 % at every step, and both decrease.
"""

import pytest

import tessera
import tessera.ops


def _gpu_reason():
    if not tessera.ops.available():
        return "tessera was built without tessera._ops, or it cannot load here: %s" % (tessera.ops._import_error,)
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed (the backward tests compare with torch)"
    if not torch.cuda.is_available():
        return "no CUDA device visible to PyTorch"
    if torch.cuda.get_device_capability(0) != (9, 0):
        major, minor = torch.cuda.get_device_capability(0)
        return "the GPU is compute capability %d.%d; tessera.ops is built for sm_90a" % (major, minor)
    return None


GPU_REASON = _gpu_reason()
pytestmark = pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))

if GPU_REASON is None:
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel


def _sdpa(q, k, v, causal, alignment):
    """SDPA with tessera's masks: top_left is is_causal; bottom_right an explicit boolean mask."""
    group = q.shape[1] // k.shape[1]
    if group > 1:
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    if causal and alignment == "bottom_right":
        sq, sk = q.shape[2], k.shape[2]
        i = torch.arange(sq, device=q.device)[:, None]
        j = torch.arange(sk, device=q.device)[None, :]
        return F.scaled_dot_product_attention(q, k, v, attn_mask=j <= i + (sk - sq))
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def _grads(fn, q, k, v, g):
    q, k, v = (t.detach().clone().requires_grad_(True) for t in (q, k, v))
    out = fn(q, k, v)
    (out.float() * g).sum().backward()
    return out.detach(), q.grad, k.grad, v.grad


CASES = [  # batch, heads_q, heads_kv, seq_q, seq_k, head_dim, causal, alignment
    (2, 4, 4, 256, 256, 64, False, "top_left"),
    (2, 4, 4, 256, 256, 128, True, "top_left"),
    (1, 8, 2, 300, 300, 128, False, "top_left"),
    (1, 4, 1, 200, 333, 64, True, "bottom_right"),
    (2, 2, 2, 129, 77, 128, False, "top_left"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "b%d-hq%d-hkv%d-sq%d-sk%d-d%d-%s" % (
    c[0], c[1], c[2], c[3], c[4], c[5], (c[7] if c[6] else "none")))
def test_gradients_match_the_fp32_math_backend(case):
    b, hq, hkv, sq, sk, d, causal, alignment = case
    gen = torch.Generator(device="cuda").manual_seed(sq * 7 + d)
    q = torch.randn(b, hq, sq, d, device="cuda", generator=gen).bfloat16()
    k = torch.randn(b, hkv, sk, d, device="cuda", generator=gen).bfloat16()
    v = torch.randn(b, hkv, sk, d, device="cuda", generator=gen).bfloat16()
    g = torch.randn(b, hq, sq, d, device="cuda", generator=gen)
    with sdpa_kernel(SDPBackend.MATH):
        _, *ref = _grads(lambda q, k, v: _sdpa(q.float(), k.float(), v.float(), causal, alignment), q, k, v, g)
    _, *got = _grads(lambda q, k, v: tessera.ops.attention(q, k, v, causal=causal, causal_alignment=alignment),
                     q, k, v, g)
    _, *bf16 = _grads(lambda q, k, v: _sdpa(q, k, v, causal, alignment), q, k, v, g)
    for name, x, r, s in zip(("dq", "dk", "dv"), got, ref, bf16):
        assert x.dtype == torch.bfloat16 and x.shape == r.shape, name
        assert torch.isfinite(x).all(), name
        err = (x.float() - r).abs().max().item()
        sdpa_err = (s.float() - r).abs().max().item()
        scale = r.abs().max().item()
        assert err <= scale / 64, "%s: worst error %.3g, largest reference %.3g" % (name, err, scale)
        assert err <= 2 * sdpa_err + scale / 512, "%s: worst error %.3g, SDPA bf16's %.3g" % (name, err, sdpa_err)


class _Block(torch.nn.Module if GPU_REASON is None else object):
    """A pre-norm transformer block (attention and an MLP) whose attention is `attend`."""

    def __init__(self, dim, heads, attend):
        super().__init__()
        self.heads, self.attend = heads, attend
        self.norm1, self.norm2 = torch.nn.LayerNorm(dim), torch.nn.LayerNorm(dim)
        self.qkv, self.proj = torch.nn.Linear(dim, 3 * dim), torch.nn.Linear(dim, dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, s, dim = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.heads, dim // self.heads).permute(2, 0, 3, 1, 4)
        o = self.attend(q.bfloat16(), k.bfloat16(), v.bfloat16()).float()
        x = x + self.proj(o.transpose(1, 2).reshape(b, s, dim))
        return x + self.mlp(self.norm2(x))


def test_a_training_loop_matches_sdpa():
    torch.manual_seed(0)
    dim, heads, seq, batch, steps = 256, 4, 128, 8, 12
    ours = _Block(dim, heads, lambda q, k, v: tessera.ops.attention(q, k, v, causal=True)).cuda()
    theirs = _Block(dim, heads, lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)).cuda()
    theirs.load_state_dict(ours.state_dict())
    opt_ours = torch.optim.AdamW(ours.parameters(), lr=1e-3)
    opt_theirs = torch.optim.AdamW(theirs.parameters(), lr=1e-3)
    gen = torch.Generator(device="cuda").manual_seed(1)
    target_w = torch.randn(dim, device="cuda", generator=gen)
    losses = []
    for _ in range(steps):
        x = torch.randn(batch, seq, dim, device="cuda", generator=gen)
        y = torch.tanh(x.cumsum(1) / seq ** 0.5 @ target_w / dim ** 0.5)[..., None]  # depends on earlier tokens
        pair = []
        for model, opt in ((ours, opt_ours), (theirs, opt_theirs)):
            opt.zero_grad()
            loss = F.mse_loss(model(x)[..., :1], y)  # the block's first feature regresses y
            loss.backward()
            opt.step()
            pair.append(loss.item())
        losses.append(pair)
    for step, (a, b) in enumerate(losses):
        assert abs(a - b) <= 0.02 * b, "step %d: tessera %.5f, SDPA %.5f (all: %s)" % (step, a, b, losses)
    for i in (0, 1):  # both learn: the last three steps' mean loss below the first three's
        first, last = sum(x[i] for x in losses[:3]) / 3, sum(x[i] for x in losses[-3:]) / 3
        assert last < first, losses
