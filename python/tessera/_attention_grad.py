"""The autograd of ``tessera.ops.attention``: a ``torch.autograd.Function`` whose forward runs the
Hopper attention forward (``attention_forward_sm90``) and keeps q, k, v, O and LSE, and whose
backward runs ``attention_backward_sm90`` (dQ, dK, dV; docs/attention.md, "Backward") through the
JIT, like the forward. ``tessera.ops.attention`` comes here when PyTorch records gradients and q, k
or v requires grad; nothing here is public.

The backward's kernels cover head_dim 64 and 128 (a head_dim of 256 raises ValueError when the
backward runs) and fixed-length batches; GQA/MQA sums dK and dV over each group's query heads.
"""

import torch

from . import ops as _ops_py


class _Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, code, scale, return_lse, stream):
        ops = _ops_py._module()
        q, k, v = q.detach(), k.detach(), v.detach()  # tessera.ops refuses tensors that record gradients
        handle, allocate, fast = _ops_py._context(q, stream)
        o, lse = ops.attention(q, k, v, code, scale, True, handle, allocate, fast)
        ctx.save_for_backward(q, k, v, o, lse)
        ctx.code, ctx.scale, ctx.stream = code, scale, stream
        if return_lse:
            ctx.mark_non_differentiable(lse)
            return o, lse
        return o

    @staticmethod
    def backward(ctx, do, *unused):
        # O is this Function's output, so the saved O records gradients: tessera.ops refuses such
        # tensors, hence the detach (none of these is differentiated again: no double backward)
        q, k, v, o, lse = (t.detach() for t in ctx.saved_tensors)
        ops = _ops_py._module()
        do = do.detach().contiguous()  # autograd may hand an expanded or permuted gradient
        if q.numel() == 0 or k.numel() == 0:  # no query or no key: nothing flows back
            return torch.zeros_like(q), torch.zeros_like(k), torch.zeros_like(v), None, None, None, None
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        batch, heads_q, seq_q, head_dim = q.shape
        nbytes = ops.attention_backward_workspace_bytes(batch, heads_q, seq_q, head_dim)
        workspace = torch.empty((nbytes + 3) // 4, dtype=torch.float32, device=q.device)
        handle, _, fast = _ops_py._context(q, ctx.stream)
        ops.attention_backward(q, k, v, o, lse, do, dq, dk, dv, workspace, ctx.code, ctx.scale, handle, fast)
        return dq, dk, dv, None, None, None, None


def attention(q, k, v, code, scale, return_lse, stream):
    """O (and LSE with return_lse) of tessera.ops.attention, differentiable in q, k and v."""
    return _Attention.apply(q, k, v, code, scale, return_lse, stream)
