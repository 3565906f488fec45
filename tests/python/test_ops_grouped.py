"""tessera.ops.grouped_gemm (the Hopper grouped GEMM through the JIT) against a float64 reference
on PyTorch tensors: the offsets, ends and masked forms; empty groups; b with N or K contiguous;
float32 and 16-bit outputs; the argument checks' messages. Needs PyTorch and an sm_90 GPU (skips,
saying why, without them)."""

import pytest

import tessera
import tessera.ops


def _gpu_reason():
    if not tessera.ops.available():
        return "tessera was built without CUDA (no tessera._ops)"
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed (the ops tests compare with torch)"
    if not torch.cuda.is_available():
        return "no CUDA device visible to PyTorch"
    if torch.cuda.get_device_capability(0) != (9, 0):
        return "the GPU is compute capability %d.%d; tessera.ops is built for sm_90a" % torch.cuda.get_device_capability(0)
    return None


GPU_REASON = _gpu_reason()
pytestmark = pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))

if GPU_REASON is None:
    import torch

UNIT = {"float32": 2.0 ** -24, "float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}


def _weights(groups, k, n, dtype, k_contiguous, seed):
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    if k_contiguous:  # the transpose of contiguous (groups, N, K) weights
        return torch.randn(groups, n, k, generator=g, device="cuda").to(dtype).transpose(1, 2)
    return torch.randn(groups, k, n, generator=g, device="cuda").to(dtype)


def _check(d, a_rows, b, k, out_name):
    """d (rows, N) against float64 a_rows @ b[g] for each (rows slice, g) in a_rows."""
    for rows, a, g in a_rows:
        ref = a.double() @ b[g].double()
        scale = a.double().abs() @ b[g].double().abs()
        bound = 2 * k * 2.0 ** -24 * scale + UNIT[out_name] * ref.abs() + 2.0 ** -24
        err = (d[rows].double() - ref).abs()
        assert (err <= bound).all(), "group %d: max error %g exceeds the bound" % (g, (err - bound).max().item())


@pytest.mark.parametrize("form", ["offsets", "ends"])
@pytest.mark.parametrize("k_contiguous", [True, False])
@pytest.mark.parametrize("dtype,out_dtype", [("bfloat16", None), ("float16", "float32"), ("bfloat16", "float32")])
def test_packed_groups(form, k_contiguous, dtype, out_dtype):
    sizes = [0, 1, 13, 64, 129, 0, 200]
    groups, k, n = len(sizes), 136, 264
    dt = getattr(torch, dtype)
    starts = [sum(sizes[:g]) for g in range(groups)]
    total = sum(sizes)
    a = torch.randn(total, k, device="cuda").to(dt)
    b = _weights(groups, k, n, dt, k_contiguous, 7)
    ends = torch.tensor([s + z for s, z in zip(starts, sizes)], dtype=torch.int32, device="cuda")
    if form == "offsets":
        offsets = torch.tensor([0] + ends.tolist(), dtype=torch.int32, device="cuda")
        d = tessera.ops.grouped_gemm(a, b, offsets, out_dtype=out_dtype)
    else:
        d = tessera.ops.grouped_gemm(a, b, ends=ends, out_dtype=out_dtype)
    out_name = out_dtype or dtype
    assert d.shape == (total, n) and d.dtype == getattr(torch, out_name)
    _check(d, [(slice(s, s + z), a[s:s + z], g) for g, (s, z) in enumerate(zip(starts, sizes)) if z > 0], b, k, out_name)


def test_masked_groups_leave_the_rest():
    counts = [0, 5, 64, 100, 128]
    groups, capacity, k, n = len(counts), 128, 72, 136
    a = torch.randn(groups, capacity, k, device="cuda").to(torch.bfloat16)
    b = _weights(groups, k, n, torch.bfloat16, True, 8)
    masked_m = torch.tensor(counts, dtype=torch.int32, device="cuda")
    out = torch.full((groups, capacity, n), -7.0, device="cuda", dtype=torch.bfloat16)
    d = tessera.ops.grouped_gemm(a, b, masked_m=masked_m, out=out, alpha=0.5)
    assert d is out
    for g, c in enumerate(counts):
        ref = 0.5 * (a[g, :c].double() @ b[g].double())
        scale = 0.5 * (a[g, :c].double().abs() @ b[g].double().abs())
        err = (d[g, :c].double() - ref).abs()
        assert (err <= 2 * k * 2.0 ** -24 * scale + 2.0 ** -8 * ref.abs() + 2.0 ** -24).all()
        assert (d[g, c:] == -7.0).all(), "group %d: rows past its count were written" % g


def test_many_small_groups_use_the_small_tile():
    sizes = [(g * 7) % 41 for g in range(256)]  # 0..40 rows: the 64-row tile
    k, n = 264, 128
    total = sum(sizes)
    a = torch.randn(total, k, device="cuda").to(torch.bfloat16)
    b = _weights(256, k, n, torch.bfloat16, True, 9)
    offsets = torch.tensor([0] + [sum(sizes[:g + 1]) for g in range(256)], dtype=torch.int32, device="cuda")
    d = tessera.ops.grouped_gemm(a, b, offsets, out_dtype="float32")
    starts = offsets.tolist()
    _check(d, [(slice(starts[g], starts[g + 1]), a[starts[g]:starts[g + 1]], g) for g in range(256) if sizes[g] > 0], b,
           k, "float32")


def test_refusals_name_the_fix():
    a = torch.ones(4, 12, device="cuda", dtype=torch.bfloat16)
    b = torch.ones(2, 12, 16, device="cuda", dtype=torch.bfloat16)
    offsets = torch.tensor([0, 2, 4], dtype=torch.int32, device="cuda")
    with pytest.raises(ValueError, match="k = 12 is not a multiple of 8"):
        tessera.ops.grouped_gemm(a, b, offsets)
    a = torch.ones(4, 16, device="cuda", dtype=torch.bfloat16)
    b = torch.ones(2, 16, 16, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="exactly one of offsets, ends and masked_m"):
        tessera.ops.grouped_gemm(a, b, offsets, ends=offsets[1:])
    with pytest.raises(TypeError, match="must be int32"):
        tessera.ops.grouped_gemm(a, b, offsets.long())
    with pytest.raises(ValueError, match="3 offsets"):
        tessera.ops.grouped_gemm(a, b, offsets[:2])
