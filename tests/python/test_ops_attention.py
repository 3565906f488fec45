"""tessera.ops.attention: the Hopper attention forward (attention_forward_sm90) on DLPack tensors.

Tiers, each skipping with its reason where it cannot run:
* where tessera._ops was built (no CUDA needed): every class of bad argument is refused, naming the
  rule, before anything is allocated, compiled or launched (fake CUDA tensors: made-up addresses);
* where NVRTC is found (no GPU needed): the kernel of every head_dim and dtype compiles for sm_90a,
  its static_asserts holding the device's AttentionSm90Params and AttentionSm90Maps (the kernel's two
  arguments), tile, shared memory and TMA boxes to what the host side builds (include/tessera/jit/attention_sm90.hpp);
* where PyTorch and an sm_90 GPU exist: O and LSE against torch's scaled_dot_product_attention in
  fp32 (the math backend; LSE as torch.logsumexp of the same scores) over a sweep of lengths
  (1, 2, 17, 113, 255, 1000 for seq_q and seq_k independently), every head_dim, no mask, top-left
  and bottom-right causal masks (each built explicitly for the reference), GQA groups 1 and 4,
  bfloat16 and float16; layouts, streams, empty outputs, errors.

Tolerance (inputs uniform in [-1, 1], so |O| <= 1): P is rounded to the input type before P V and O
once at the end, so |O - O_exact| <= 2^-8 + 2^-9 for bfloat16 and 2^-11 + 2^-12 for float16
(docs/attention.md); the tests allow 1e-2 and 2e-3. LSE is fp32 throughout: within 2e-3 (absolute)
+ 1e-4 (relative).
"""

import ctypes
import math
import os

import pytest

import tessera
import tessera.ops

# ---- without kernels ------------------------------------------------------------------------------


def test_without_kernels_attention_raises_import_error(monkeypatch):
    monkeypatch.setattr(tessera.ops, "_ops", None)
    monkeypatch.setattr(tessera.ops, "_import_error", ImportError("no module named tessera._ops"))
    with pytest.raises(ImportError, match=r"built without its GPU kernels, or they cannot load here"):
        tessera.ops.attention(1, 2, 3)


needs_ops = pytest.mark.skipif(not tessera.ops.available(), reason="tessera was built without tessera._ops, or it "
                               "cannot load here: %s" % (tessera.ops._import_error,))

# ---- fake CUDA tensors (DLPack capsules over made-up addresses; never launched) -------------------


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_DTYPES = {"float32": (2, 32), "float16": (2, 16), "bfloat16": (4, 16), "int16": (0, 16), "int32": (0, 32),
           "int64": (0, 64)}


class FakeCuda:
    """shape/strides (elements; None: contiguous) at byte address `address` on cuda:`device`
    (DLPack device type `device_type`)."""

    def __init__(self, shape, strides=None, dtype="bfloat16", address=1 << 20, device=0, device_type=2):
        n = len(shape)
        self._shape = (ctypes.c_int64 * max(n, 1))(*shape)
        self._strides = (ctypes.c_int64 * max(n, 1))(*strides) if strides is not None else None
        self.device_type, self.device = device_type, device
        code, bits = _DTYPES[dtype]
        t = _DLTensor(ctypes.c_void_p(address), _DLDevice(device_type, device), n, _DLDataType(code, bits, 1),
                      ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64)),
                      ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64)) if strides is not None else None, 0)
        self._managed = _DLManagedTensor(t, None, None)

    def __dlpack__(self, stream=None):
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (self.device_type, self.device)


def _qkv(b=2, hq=8, hkv=2, sq=100, sk=300, d=128, dtype="bfloat16"):
    return (FakeCuda((b, hq, sq, d), dtype=dtype, address=1 << 20),
            FakeCuda((b, hkv, sk, d), dtype=dtype, address=1 << 32),
            FakeCuda((b, hkv, sk, d), dtype=dtype, address=1 << 36))


NO_DRIVER = r"(the CUDA driver \(libcuda\.so\.1\) is not installed|cuInit failed)"
A = tessera.ops.attention


@needs_ops
def test_checks_without_a_gpu():
    q, k, v = _qkv()
    f32 = _qkv(dtype="float32")
    d96 = _qkv(d=96)
    cases = [
        (TypeError, r"q is float32; it must be float16 or bfloat16; attention takes float16 or bfloat16",
         lambda: A(*f32)),
        (TypeError, r"q is bfloat16, k float16 and v bfloat16; q, k and v must have one dtype",
         lambda: A(q, _qkv(dtype="float16")[1], v)),
        (ValueError, r"q is on the CPU", lambda: A(FakeCuda((2, 8, 100, 128), device_type=1), k, v)),
        (ValueError, r"q is on cuda:0 and v on cuda:1", lambda: A(q, k, FakeCuda((2, 2, 300, 128), address=1 << 36, device=1))),
        (ValueError, r"q must be 4-D \(batch, heads, seq, head_dim\), got shape \(8, 100, 128\)",
         lambda: A(FakeCuda((8, 100, 128)), k, v)),
        (ValueError, r"q has shape \(2, 8, 100, 128\) and k \(3, 2, 300, 128\); k must be \(batch, heads_kv, seq_k, "
         r"head_dim\) with q's batch and head_dim", lambda: A(q, FakeCuda((3, 2, 300, 128), address=1 << 32), v)),
        (ValueError, r"q has shape .* and k \(2, 2, 300, 64\)", lambda: A(q, FakeCuda((2, 2, 300, 64), address=1 << 32), v)),
        (ValueError, r"k has shape \(2, 2, 300, 128\) and v \(2, 2, 299, 128\); v must have k's shape",
         lambda: A(q, k, FakeCuda((2, 2, 299, 128), address=1 << 36))),
        (ValueError, r"head_dim must be 64, 128 or 256 \(got 96\); the kernel has no other: pad", lambda: A(*d96)),
        (ValueError, r"k's heads \(3\) must divide q's heads \(8\)",
         lambda: A(q, FakeCuda((2, 3, 300, 128), address=1 << 32), FakeCuda((2, 3, 300, 128), address=1 << 36))),
        (ValueError, r"k and v have no keys \(seq_k = 0",
         lambda: A(q, FakeCuda((2, 2, 0, 128), address=1 << 32), FakeCuda((2, 2, 0, 128), address=1 << 36))),
        (ValueError, r"k has strides \(76800, 1, 128, 600\); its head_dim stride must be 1.*k\.contiguous\(\)",
         lambda: A(q, FakeCuda((2, 2, 300, 128), (76800, 1, 128, 600), address=1 << 32), v)),
        (ValueError, r"q's data pointer is not 16-byte aligned.*q\.clone\(\)",
         lambda: A(FakeCuda((2, 8, 100, 128), address=(1 << 20) + 8), k, v)),
        (ValueError, r"data pointer is not aligned to its 2-byte elements",
         lambda: A(FakeCuda((2, 8, 100, 128), address=(1 << 20) + 1), k, v)),
        (ValueError, r"v has strides \(76804, 38402, 128, 1\); the strides of batch, heads and seq must be multiples "
         r"of 8 elements", lambda: A(q, k, FakeCuda((2, 2, 300, 128), (76804, 38402, 128, 1), address=1 << 36))),
        (ValueError, r"negative stride", lambda: A(q, k, FakeCuda((2, 2, 300, 128), (76800, 38400, -128, 1), address=1 << 36))),
        (ValueError, r"q has strides \(6400, 800, 64, 1\); rows of head_dim must not overlap",
         lambda: A(FakeCuda((2, 8, 100, 128), (6400, 800, 64, 1)), k, v)),
        (ValueError, r"scale must be positive and finite \(got -1\.0\); None means 1/sqrt\(head_dim\)",
         lambda: A(q, k, v, scale=-1.0)),
        (ValueError, r"scale must be positive and finite \(got 0\.0\)", lambda: A(q, k, v, scale=0)),
        (ValueError, r"scale must be positive and finite \(got inf\)", lambda: A(q, k, v, scale=math.inf)),
        (ValueError, r"scale must be positive and finite \(got nan\)", lambda: A(q, k, v, scale=math.nan)),
        (ValueError, r"scale must be positive and finite \(got 1e\+300\)", lambda: A(q, k, v, scale=1e300)),
        (TypeError, r"scale must be None or a number, got str", lambda: A(q, k, v, scale="0.1")),
        (ValueError, r"causal_alignment must be 'top_left' \(PyTorch's is_causal\) or 'bottom_right'",
         lambda: A(q, k, v, causal=True, causal_alignment="bottom-right")),
        # the kernel's own rules (kernels::check_attention_problem's message): the grid
        (ValueError, r"tessera\.ops\.attention: too many query tiles: ceil\(seq_q / 128\) heads_q batch = 2147483648 "
         r"must be < 2\^31", lambda: A(FakeCuda((65536, 256, 16384, 64)), FakeCuda((65536, 1, 1, 64), address=1 << 44),
                                       FakeCuda((65536, 1, 1, 64), address=1 << 46))),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


AV = tessera.ops.attention_varlen


def _packed(tq=700, tk=900, hq=8, hkv=2, d=128, batch=3, dtype="bfloat16"):
    """Fake varlen arguments: q (tq, hq, d), k, v (tk, hkv, d), int32 offsets of batch + 1."""
    return (FakeCuda((tq, hq, d), dtype=dtype, address=1 << 20), FakeCuda((tk, hkv, d), dtype=dtype, address=1 << 32),
            FakeCuda((tk, hkv, d), dtype=dtype, address=1 << 36),
            FakeCuda((batch + 1,), dtype="int32", address=1 << 40), FakeCuda((batch + 1,), dtype="int32", address=1 << 41))


@needs_ops
def test_varlen_checks_without_a_gpu():
    q, k, v, cq, ck = _packed()
    cases = [
        (ValueError, r"tessera\.ops\.attention_varlen: q must be 3-D \(total, heads, head_dim\): the sequences packed "
         r"along the first mode, got shape \(1, 700, 8, 128\); pack", lambda: AV(FakeCuda((1, 700, 8, 128)), k, v, cq, ck, 300, 400)),
        (ValueError, r"q has shape \(700, 8, 128\) and k \(900, 2, 64\); k must be \(total_k, heads_kv, head_dim\)",
         lambda: AV(q, FakeCuda((900, 2, 64), address=1 << 32), v, cq, ck, 300, 400)),
        (ValueError, r"k has shape \(900, 2, 128\) and v \(899, 2, 128\)",
         lambda: AV(q, k, FakeCuda((899, 2, 128), address=1 << 36), cq, ck, 300, 400)),
        (ValueError, r"head_dim must be 64, 128 or 256 \(got 96\)", lambda: AV(*_packed(d=96), 300, 400)),
        (ValueError, r"k's heads \(3\) must divide q's heads \(8\)", lambda: AV(*_packed(hkv=3), 300, 400)),
        (TypeError, r"cu_seqlens_q is int64; the offsets must be int32: convert, e\.g\. cu_seqlens_q\.to\(torch\.int32\)",
         lambda: AV(q, k, v, FakeCuda((4,), dtype="int64", address=1 << 40), ck, 300, 400)),
        (ValueError, r"cu_seqlens_k must be a contiguous 1-D tensor of batch \+ 1 >= 2 offsets, got shape \(4, 1\)",
         lambda: AV(q, k, v, cq, FakeCuda((4, 1), dtype="int32", address=1 << 41), 300, 400)),
        (ValueError, r"cu_seqlens_q must be a contiguous 1-D tensor .* got shape \(4,\) and strides \(2,\)",
         lambda: AV(q, k, v, FakeCuda((4,), (2,), dtype="int32", address=1 << 40), ck, 300, 400)),
        (ValueError, r"cu_seqlens_q's data pointer is not 4-byte aligned",
         lambda: AV(q, k, v, FakeCuda((4,), dtype="int32", address=(1 << 40) + 2), ck, 300, 400)),
        (ValueError, r"cu_seqlens_q has 4 offsets and cu_seqlens_k 3; both hold batch \+ 1",
         lambda: AV(q, k, v, cq, FakeCuda((3,), dtype="int32", address=1 << 41), 300, 400)),
        (ValueError, r"cu_seqlens_q is on cuda:0 and cu_seqlens_k on cuda:1|q is on cuda:0 and cu_seqlens_k on cuda:1",
         lambda: AV(q, k, v, cq, FakeCuda((4,), dtype="int32", address=1 << 41, device=1), 300, 400)),
        (ValueError, r"max_seqlen_q = 701 and max_seqlen_k = 400 must be >= 0 and at most the packed rows "
         r"\(total_q = 700, total_k = 900\)", lambda: AV(q, k, v, cq, ck, 701, 400)),
        (TypeError, r"max_seqlen_k must be an int, got float", lambda: AV(q, k, v, cq, ck, 300, 400.0)),
        (ValueError, r"v has strides \(260, 130, 1\); the strides of seq and heads must be multiples of 8 elements",
         lambda: AV(*_packed(d=128)[:2], FakeCuda((900, 2, 128), (260, 130, 1), address=1 << 36), cq, ck, 300, 400)),
        (ValueError, r"q has strides \(64, 8, 1\); rows of head_dim must not overlap",
         lambda: AV(FakeCuda((700, 8, 128), (64, 8, 1)), k, v, cq, ck, 300, 400)),
        (ValueError, r"causal_alignment must be 'top_left'", lambda: AV(q, k, v, cq, ck, 3, 4, True, None, "x")),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


@needs_ops
@pytest.mark.skipif(not tessera.ops.available() or tessera.ops._ops.device_count() > 0,
                    reason="needs tessera._ops and no CUDA device (the fake tensors' addresses are made up)")
def test_valid_arguments_reach_the_device():
    # every check passed: the first driver call (allocating O) says there is no driver
    q, k, v = _qkv()
    for kwargs in ({}, {"causal": True, "causal_alignment": "bottom_right", "return_lse": True, "scale": 0.5}):
        with pytest.raises(RuntimeError, match=NO_DRIVER):
            A(q, k, v, **kwargs)
    # extents of 1 take any stride; (batch, seq, heads, d) storage seen as (batch, heads, seq, d)
    one = FakeCuda((1, 1, 1, 64), (3, 5, 7, 1))
    with pytest.raises(RuntimeError, match=NO_DRIVER):
        A(one, one, one)
    bshd = FakeCuda((2, 4, 10, 64), (10 * 4 * 64, 64, 4 * 64, 1))
    with pytest.raises(RuntimeError, match=NO_DRIVER):
        A(bshd, bshd, bshd)


# ---- compiling without a GPU -------------------------------------------------------------------------


def _nvrtc_reason():
    if not tessera.ops.available():
        return "tessera._ops is not here: %s" % (tessera.ops._import_error,)
    ok, why = tessera.jit.available()
    return None if ok else "NVRTC is not available here: %s" % why


NVRTC_REASON = _nvrtc_reason()
needs_nvrtc = pytest.mark.skipif(NVRTC_REASON is not None, reason=str(NVRTC_REASON))


@needs_nvrtc
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("head_dim", [64, 128, 256])
def test_the_kernel_compiles_for_sm90a_without_a_gpu(head_dim, dtype):
    # one NVRTC program per head_dim and dtype; its static_asserts hold the device's argument, tile,
    # shared memory and TMA boxes to the host's (a few seconds the first time, then the disk cache)
    r = tessera.ops._ops._compile_attention(head_dim, dtype)
    assert set(r) == {"kernels", "key", "in_memory", "from_disk_cache", "compile_seconds", "log"}
    t = "tessera::bfloat16_t" if dtype == "bfloat16" else "tessera::half_t"
    # TESSERA_ATTENTION_LOOP=plain|pingpong|overlap (an A/B switch; else TESSERA_ATTENTION_PINGPONG=1
    # for the ping-pong loop) picks the main loop; without them, the default
    loop = os.environ.get("TESSERA_ATTENTION_LOOP")
    if loop is None:  # the default: the overlap loop for head_dim 128 and 256 (attention_sm90_default_loop)
        default = "plain" if head_dim == 64 else "overlap"
        loop = "pingpong" if os.environ.get("TESSERA_ATTENTION_PINGPONG") == "1" else default
    if head_dim == 256 and loop == "pingpong":  # no ping-pong for head_dim 256: its default
        loop = "overlap"
    # the problem _compile_attention asks about has one key: persistent (attention_sm90_persistent:
    # seq_k <= 2048), unless TESSERA_ATTENTION_PERSISTENT=0
    persistent = os.environ.get("TESSERA_ATTENTION_PERSISTENT") != "0"
    args = {"plain": "", "pingpong": ", true", "overlap": ", false, true"}[loop]
    if persistent:
        args = {"plain": ", false, false", "pingpong": ", true, false", "overlap": ", false, true"}[loop] + ", true"
    assert r["kernels"] == ["tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::AttentionSm90Roles<"
                            "tessera::kernels::AttentionSm90Config<%d%s>, %s> >" % (head_dim, args, t)]
    base = {"plain": 0, "pingpong": 6, "overlap": 10}[loop] + (16 if persistent else 0)
    assert r["key"] == base + {64: 0, 128: 2, 256: 4}[head_dim] + (dtype == "bfloat16")
    again = tessera.ops._ops._compile_attention(head_dim, dtype)
    assert again["in_memory"] and again["key"] == r["key"]


@needs_ops
def test_compile_attention_refuses_what_has_no_kernel():
    for args, message in [((96, "bfloat16"), r"head_dim must be 64, 128 or 256 \(got 96\)"),
                          ((128, "float32"), r"attention runs on float16 or bfloat16, got float32"),
                          ((128, "int8"), r"attention runs on float16 or bfloat16")]:
        with pytest.raises(ValueError, match=message):
            tessera.ops._ops._compile_attention(*args)


# ---- with PyTorch and a Hopper GPU ---------------------------------------------------------------


def _gpu_reason():
    if not tessera.ops.available():
        return "tessera was built without tessera._ops"
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed (the attention tests compare with torch)"
    if not torch.cuda.is_available():
        return "no CUDA device visible to PyTorch"
    if torch.cuda.get_device_capability(0) != (9, 0):
        return "the GPU is compute capability %d.%d; tessera.ops is built for sm_90a" % torch.cuda.get_device_capability(0)
    if NVRTC_REASON is not None:
        return NVRTC_REASON
    return None


GPU_REASON = _gpu_reason()
needs_gpu = pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))

if GPU_REASON is None:
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

LENGTHS = [1, 2, 17, 113, 255, 1000]
TOL = {"bfloat16": 1e-2, "float16": 2e-3}


def _uniform(shape, dtype, seed):
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    return (torch.rand(shape, generator=g, device="cuda") * 2 - 1).to(dtype)


def _mask(sq, sk, causal):
    """The keys each query sees, (sq, sk) bool, or None for all: built explicitly for both alignments."""
    if causal is None:
        return None
    i = torch.arange(sq, device="cuda")[:, None]
    j = torch.arange(sk, device="cuda")[None, :]
    return j <= i if causal == "top_left" else j <= i + (sk - sq)


def _reference(q, k, v, causal, scale):
    """(O, LSE) in fp32: torch's SDPA (math backend) on the inputs as fp32, k and v repeated for GQA;
    a query that sees no key gets O = 0 and LSE = -inf (the kernel's convention; the math path
    gives NaN there)."""
    group = q.shape[1] // k.shape[1]
    qf, kf, vf = q.float(), k.float().repeat_interleave(group, 1), v.float().repeat_interleave(group, 1)
    sq, sk, d = q.shape[2], k.shape[2], q.shape[3]
    s = 1.0 / math.sqrt(d) if scale is None else scale
    mask = _mask(sq, sk, causal)
    with sdpa_kernel(SDPBackend.MATH):
        o = F.scaled_dot_product_attention(qf, kf, vf, attn_mask=mask, scale=s)
    scores = torch.matmul(qf, kf.transpose(-1, -2)) * s
    if mask is not None:
        scores = scores.masked_fill(~mask, -math.inf)
    lse = torch.logsumexp(scores, dim=-1)
    if mask is not None:
        none = ~mask.any(dim=-1)  # (sq,)
        o = o.masked_fill(none[None, None, :, None], 0.0)
        lse = lse.masked_fill(none[None, None, :], -math.inf)
    return o, lse


def _check(q, k, v, causal=None, scale=None, where=""):
    kwargs = {"causal": causal is not None, "return_lse": True}
    if causal is not None:
        kwargs["causal_alignment"] = causal
    if scale is not None:
        kwargs["scale"] = scale
    o, lse = tessera.ops.attention(q, k, v, **kwargs)
    b, hq, sq, d = q.shape
    assert o.shape == (b, hq, sq, d) and o.dtype == q.dtype and o.is_contiguous(), where
    assert lse.shape == (b, hq, sq) and lse.dtype == torch.float32 and lse.is_contiguous(), where
    ro, rlse = _reference(q, k, v, causal, scale)
    tol = TOL[str(q.dtype).split(".")[-1]]
    err = (o.float() - ro).abs().max().item()
    assert err <= tol, "%s: max |O - O_ref| = %g > %g" % (where, err, tol)
    finite = torch.isfinite(rlse)
    assert torch.equal(torch.isfinite(lse), finite), "%s: LSE's -inf rows differ" % where
    if finite.any():
        lerr = ((lse - rlse).abs() - 1e-4 * rlse.abs()).masked_fill(~finite, 0).max().item()
        assert lerr <= 2e-3, "%s: max |LSE - LSE_ref| = %g" % (where, lerr)
    return err


@needs_gpu
@pytest.mark.parametrize("causal", [None, "top_left", "bottom_right"])
@pytest.mark.parametrize("head_dim", [64, 128, 256])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_against_sdpa_in_fp32(dtype, head_dim, causal):
    dt = getattr(torch, dtype)
    seed = 0
    worst = 0.0
    for gqa in (1, 4):
        for sq in LENGTHS:
            for sk in LENGTHS:
                seed += 1
                b, hkv = (2, 1) if gqa == 4 else (1, 2)
                q = _uniform((b, hkv * gqa, sq, head_dim), dt, seed)
                k = _uniform((b, hkv, sk, head_dim), dt, seed + 10000)
                v = _uniform((b, hkv, sk, head_dim), dt, seed + 20000)
                worst = max(worst, _check(q, k, v, causal, where="gqa %d, seq_q %d, seq_k %d" % (gqa, sq, sk)))
    print("%s head_dim %d causal %s: worst max |O - O_ref| %.3g" % (dtype, head_dim, causal, worst))


@needs_gpu
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_a_given_scale_large_values_and_many_heads(dtype):
    dt = getattr(torch, dtype)
    q = _uniform((3, 16, 300, 128), dt, 1)
    k = _uniform((3, 4, 700, 128), dt, 2)
    v = _uniform((3, 4, 700, 128), dt, 3)
    _check(q, k, v, None, scale=0.3, where="scale 0.3")
    _check(q, k, v, "bottom_right", scale=0.05, where="scale 0.05, bottom-right")
    # larger scores (scale 1 on |q.k| up to ~40): the online softmax's rescaling across blocks
    _check(q, k, v, "top_left", scale=1.0, where="scale 1")


@needs_gpu
def test_strided_layouts_and_the_return_forms():
    # (batch, seq, heads, d) storage seen as (batch, heads, seq, d): the strides pass to TMA as they are
    dt = torch.bfloat16
    q = _uniform((2, 333, 8, 64), dt, 4).transpose(1, 2)
    k = _uniform((2, 129, 2, 64), dt, 5).transpose(1, 2)
    v = _uniform((2, 129, 2, 64), dt, 6).transpose(1, 2)
    assert not q.is_contiguous()
    _check(q, k, v, "top_left", where="bshd")
    # a slice of a longer sequence and of a wider head set
    big = _uniform((2, 6, 400, 128), dt, 7)
    _check(big[:, 1:5, 10:300], big[:, :2, 50:], big[:, 4:, 10:360], None, where="slices")
    o = tessera.ops.attention(q, k, v)
    assert isinstance(o, torch.Tensor) and o.shape == (2, 8, 333, 64)
    o2, lse = tessera.ops.attention(q, k, v, return_lse=True)
    assert torch.equal(o, o2)
    # empty outputs: nothing launched, empty results
    e = tessera.ops.attention(q[:, :, :0], k, v, return_lse=True)
    assert e[0].shape == (2, 8, 0, 64) and e[1].shape == (2, 8, 0)
    assert tessera.ops.attention(q[:0], k[:0], v[:0]).shape == (0, 8, 333, 64)


@needs_gpu
def test_queries_that_see_no_key():
    # bottom-right with seq_q > seq_k: the first seq_q - seq_k queries see nothing: O = 0, LSE = -inf
    dt = torch.float16
    q, k, v = _uniform((1, 2, 300, 128), dt, 8), _uniform((1, 2, 100, 128), dt, 9), _uniform((1, 2, 100, 128), dt, 10)
    o, lse = tessera.ops.attention(q, k, v, causal=True, causal_alignment="bottom_right", return_lse=True)
    assert torch.all(o[:, :, :200] == 0) and torch.all(lse[:, :, :200] == -math.inf)
    assert torch.all(torch.isfinite(lse[:, :, 200:]))
    _check(q, k, v, "bottom_right", where="empty rows")


@needs_gpu
def test_on_a_stream_and_from_other_dlpack_tensors():
    dt = torch.bfloat16
    q, k, v = _uniform((2, 4, 500, 128), dt, 11), _uniform((2, 4, 600, 128), dt, 12), _uniform((2, 4, 600, 128), dt, 13)
    expected = tessera.ops.attention(q, k, v, causal=True)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        on_s = tessera.ops.attention(q, k, v, causal=True)  # PyTorch's current stream: s
    explicit = tessera.ops.attention(q, k, v, causal=True, stream=s)
    s.synchronize()
    torch.cuda.current_stream().wait_stream(s)
    assert torch.equal(on_s, expected) and torch.equal(explicit, expected)

    class Wrapped:
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    torch.cuda.synchronize()
    r = tessera.ops.attention(Wrapped(q), Wrapped(k), Wrapped(v), causal=True)
    assert isinstance(r, tessera.ops.DeviceArray)
    assert torch.equal(torch.from_dlpack(r), expected)


@needs_gpu
def test_errors_on_the_gpu():
    q = _uniform((1, 2, 10, 128), torch.bfloat16, 14)
    with pytest.raises(TypeError, match=r"q is float32; it must be float16 or bfloat16"):
        tessera.ops.attention(q.float(), q.float(), q.float())
    with pytest.raises(ValueError, match=r"head_dim must be 64, 128 or 256 \(got 96\)"):
        tessera.ops.attention(q[..., :96], q[..., :96], q[..., :96])
    with pytest.raises(ValueError, match=r"head_dim stride must be 1"):
        t = q.transpose(2, 3).contiguous().transpose(2, 3)
        tessera.ops.attention(t, q, q)
    with pytest.raises(ValueError, match=r"q's data pointer is not 16-byte aligned"):
        flat = torch.zeros(2 * 10 * 128 + 1, dtype=torch.bfloat16, device="cuda")
        tessera.ops.attention(flat[1:].view(1, 2, 10, 128), q, q)
    # q, k or v requiring grad: no longer refused, the call is differentiable (tests/python/
    # test_attention_backward.py checks its gradients)
    assert tessera.ops.attention(q.clone().requires_grad_(), q, q).requires_grad


def _varlen_check(lens_q, lens_k, hq, hkv, d, dtype, causal, seed, where):
    """attention_varlen on packed random sequences against _reference run on each sequence alone."""
    dt = getattr(torch, dtype)
    tq, tk = sum(lens_q), sum(lens_k)
    q = _uniform((tq, hq, d), dt, seed)
    k = _uniform((tk, hkv, d), dt, seed + 10000)
    v = _uniform((tk, hkv, d), dt, seed + 20000)
    cu_q = torch.tensor([0] + list(__import__("itertools").accumulate(lens_q)), dtype=torch.int32, device="cuda")
    cu_k = torch.tensor([0] + list(__import__("itertools").accumulate(lens_k)), dtype=torch.int32, device="cuda")
    kwargs = {"causal": causal is not None, "return_lse": True}
    if causal is not None:
        kwargs["causal_alignment"] = causal
    o, lse = tessera.ops.attention_varlen(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), **kwargs)
    assert o.shape == (tq, hq, d) and o.dtype == dt and lse.shape == (hq, tq) and lse.dtype == torch.float32, where
    tol = TOL[dtype]
    for b, (sq, sk) in enumerate(zip(lens_q, lens_k)):
        if sq == 0:
            continue
        a, c = int(cu_q[b]), int(cu_k[b])
        got_o = o[a:a + sq].permute(1, 0, 2)[None]  # (1, hq, sq, d)
        got_lse = lse[:, a:a + sq][None]
        if sk == 0:
            assert torch.all(got_o == 0) and torch.all(torch.isneginf(got_lse)), "%s: sequence %d without keys" % (where, b)
            continue
        qs = q[a:a + sq].permute(1, 0, 2)[None]
        ks, vs = (t[c:c + sk].permute(1, 0, 2)[None] for t in (k, v))
        ro, rlse = _reference(qs, ks, vs, causal, None)
        err = (got_o.float() - ro).abs().max().item()
        assert err <= tol, "%s: sequence %d (%d x %d): max |O - O_ref| = %g > %g" % (where, b, sq, sk, err, tol)
        finite = torch.isfinite(rlse)
        assert torch.equal(torch.isfinite(got_lse), finite), "%s: sequence %d: LSE's -inf rows differ" % (where, b)
        if finite.any():
            lerr = ((got_lse - rlse).abs() - 1e-4 * rlse.abs()).masked_fill(~finite, 0).max().item()
            assert lerr <= 2e-3, "%s: sequence %d: max |LSE - LSE_ref| = %g" % (where, b, lerr)


@needs_gpu
@pytest.mark.parametrize("causal", [None, "top_left", "bottom_right"])
@pytest.mark.parametrize("head_dim", [64, 128, 256])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_varlen_against_sdpa_per_sequence(dtype, head_dim, causal):
    batches = [([1, 17, 0, 255, 130], [1, 17, 5, 255, 1000]), ([113, 2, 300], [0, 64, 7]), ([5], [1])]
    for i, (lq, lk) in enumerate(batches):
        for gqa in (1, 4):
            _varlen_check(lq, lk, 2 * gqa, 2, head_dim, dtype, causal, 100 * i + gqa,
                          "batch %d gqa %d %s" % (i, gqa, causal))


@needs_gpu
def test_varlen_without_any_key_or_query():
    q = torch.ones(5, 2, 64, dtype=torch.bfloat16, device="cuda")
    empty = torch.empty(0, 2, 64, dtype=torch.bfloat16, device="cuda")
    cu_q = torch.tensor([0, 2, 5], dtype=torch.int32, device="cuda")
    cu_k = torch.zeros(3, dtype=torch.int32, device="cuda")
    o, lse = tessera.ops.attention_varlen(q, empty, empty, cu_q, cu_k, 3, 0, return_lse=True)
    assert torch.all(o == 0) and torch.all(torch.isneginf(lse)) and lse.shape == (2, 5)
    o = tessera.ops.attention_varlen(empty, q, q, torch.zeros(3, dtype=torch.int32, device="cuda"), cu_q, 0, 3)
    assert o.shape == (0, 2, 64)


@needs_gpu
def test_varlen_docstring_example():
    import doctest
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for t in finder.find(tessera.ops.attention_varlen, "attention_varlen", globs={"tessera": tessera, "torch": torch}):
        runner.run(t)
        examples += len(t.examples)
    assert examples >= 1 and runner.summarize(verbose=False).failed == 0


@needs_gpu
def test_docstring_example():
    import doctest
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for part in ("Precondition:", "Postcondition:", "Example"):
        assert part in tessera.ops.attention.__doc__
    examples = 0
    for t in finder.find(tessera.ops.attention, "attention", globs={"tessera": tessera, "torch": torch}):
        runner.run(t)
        examples += len(t.examples)
    assert examples >= 1 and runner.summarize(verbose=False).failed == 0
