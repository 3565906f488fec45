"""tessera.ops.scaled_gemm (the Hopper fp8 GEMM through the JIT, docs/gemm-fp8.md).

Without a GPU (and without PyTorch): every argument check, on DLPack stand-ins (float8 tensors are
DLPack 1.1 type codes 10 and 12) and on stand-ins of torch.Tensor read directly; each refusal names
the bad value and the fix, and arguments that pass every check reach the device (without a driver:
the RuntimeError of the first CUDA call). With PyTorch and an sm_90 GPU (skipped, saying why,
otherwise): against a float64 reference from the dequantized operands for every kind of scale,
both fp8 types, every output type, odd sizes, a bias, a column-major out; against
torch._scaled_mm on the same tensors; the errors on real tensors; the docstring's and
docs/gemm-fp8.md's examples."""

import ctypes
import doctest
import pathlib
import re

import pytest

import tessera
import tessera.ops

REPO = pathlib.Path(__file__).resolve().parents[2]

needs_ops = pytest.mark.skipif(not tessera.ops.available(), reason="tessera was built without tessera._ops, or it "
                               "cannot load here: %s" % (getattr(tessera.ops, "_import_error", None),))

# ---- without a GPU: the argument checks --------------------------------------------------------


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
# DLPack's (code, bits): float8_e4m3fn and float8_e5m2 are DLPack 1.1's codes 10 and 12.
_DTYPES = {"float32": (2, 32), "float16": (2, 16), "bfloat16": (4, 16), "float8_e4m3fn": (10, 8),
           "float8_e5m2": (12, 8), "int8": (0, 8)}


class Fake:
    """A DLPack tensor on cuda:`device` at byte address `address` (never dereferenced: every call
    here is refused before the device, or reaches a device that is not there)."""

    def __init__(self, shape, strides=None, dtype="float8_e4m3fn", address=1 << 20, device=0):
        n = len(shape)
        if strides is None:
            strides, step = [0] * n, 1
            for i in reversed(range(n)):
                strides[i], step = step, step * max(shape[i], 1)
        self.shape, self.strides, self.device = tuple(shape), tuple(strides), device
        self._shape = (ctypes.c_int64 * max(n, 1))(*shape)
        self._strides = (ctypes.c_int64 * max(n, 1))(*strides)
        code, bits = _DTYPES[dtype]
        t = _DLTensor(ctypes.c_void_p(address), _DLDevice(2, device), n, _DLDataType(code, bits, 1),
                      ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64)),
                      ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64)), 0)
        self._managed = _DLManagedTensor(t, None, None)

    def __dlpack__(self, stream=None):
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (2, self.device)


def _a(m, k, **kw):
    return Fake((m, k), **kw)


def _b(k, n, address=1 << 26, **kw):  # (K, N) column-major: the transpose of a row-major (N, K)
    return Fake((k, n), (1, kw.pop("ld", k)), address=address, **kw)


def _scale(shape, strides=None, address=1 << 30, dtype="float32"):
    return Fake(shape, strides, dtype=dtype, address=address)


def _out(m, n, dtype="bfloat16", strides=None, address=1 << 32):
    return Fake((m, n), strides, dtype=dtype, address=address)


ONE_A, ONE_B = _scale(()), _scale((1,), address=(1 << 30) + 256)

# What a call whose arguments passed every check says where no GPU driver or no GPU is.
NO_DRIVER = r"(the CUDA driver \(libcuda\.so\.1\) is not installed|cuInit failed)"


def _refusals():
    """(error, message pattern, call) for each argument check, on a 300 x 520 x 256 problem."""
    m, n, k = 300, 520, 256
    a, b, out = _a(m, k), _b(k, n), _out(m, n)
    sg = tessera.ops.scaled_gemm

    def call(**kw):
        args = dict(a=a, b=b, scale_a=ONE_A, scale_b=ONE_B, out=out)
        args.update(kw)
        return lambda: sg(args.pop("a"), args.pop("b"), args.pop("scale_a"), args.pop("scale_b"), **args)

    return [
        # operand types
        (TypeError, r"scaled_gemm: a is bfloat16; it must be float8_e4m3fn or float8_e5m2 .*quantize it",
         call(a=_a(m, k, dtype="bfloat16"))),
        (TypeError, r"scaled_gemm: b is int8; it must be float8_e4m3fn or float8_e5m2", call(b=_b(k, n, dtype="int8"))),
        (TypeError, r"a is float8_e4m3fn and b float8_e5m2; .*mixed e4m3 x e5m2 is not supported yet.*convert one",
         call(b=_b(k, n, dtype="float8_e5m2"))),
        # shapes
        (ValueError, r"a is \(300, 256\) and b \(128, 520\); the product needs b's rows == a's columns",
         call(b=_b(128, n))),
        (ValueError, r"a must be a matrix \(2-D\)", call(a=Fake((m,)))),
        (ValueError, r"M, N and K must be >= 1", call(a=_a(0, k), out=_out(0, n))),
        (ValueError, r"K = 40 is not a multiple of 16 .*pad a's columns and b's rows with zeros to K = 48",
         call(a=_a(m, 40), b=_b(40, n))),
        # strides and alignment
        (ValueError, r"a has shape \(300, 256\) and strides \(1, 300\); a must be row-major .*a\.contiguous\(\)",
         call(a=Fake((m, k), (1, m)))),
        (ValueError, r"b has shape \(256, 520\) and strides \(520, 1\); b must be column-major .*w\.t\(\)",
         call(b=Fake((k, n), address=1 << 26))),
        (ValueError, r"a's row stride 264 and b's column stride 256 must be multiples of 16 elements",
         call(a=Fake((m, k), (264, 1)))),
        (ValueError, r"a's and b's data must start 16-byte aligned .*\.clone\(\)", call(a=_a(m, k, address=(1 << 20) + 8))),
        # scales
        (TypeError, r"scale_a is bfloat16; it must be float32; scales are float32: convert, e\.g\. scale_a\.float\(\)",
         call(scale_a=_scale((), dtype="bfloat16"))),
        (ValueError, r"scale_a has shape \(300, 3\); for a \(300, 256\) it must be one value .*\(300, 1\) .*\(300, 2\)",
         call(scale_a=_scale((m, 3)))),
        (ValueError, r"scale_b has shape \(520, 1\); for b \(256, 520\) it must be one value .*\(1, 520\) .*\(5, 2\)",
         call(scale_b=_scale((n, 1)))),
        (ValueError, r"scale_a has shape \(300, 1\) and strides \(4, 1\); its 300 values must be contiguous",
         call(scale_a=_scale((m, 1), (4, 1)))),
        (ValueError, r"scale_a has shape \(300, 2\) and scale_b \(1,\); block scales go together .*\(5, 2\)",
         call(scale_a=_scale((m, 2), (1, m)))),
        (ValueError, r"scale_a has shape \(300, 1\) and scale_b \(5, 2\); block scales go together",
         call(scale_a=_scale((m, 1)), scale_b=_scale((5, 2), address=1 << 31))),
        (ValueError, r"scale_a has shape \(300, 2\) and strides \(2, 1\); a's 1 x 128 block scales must be stored "
                     r"M-major, strides \(1, M\) = \(1, 300\) .*scale_a\.t\(\)\.contiguous\(\)\.t\(\)",
         call(scale_a=_scale((m, 2)), scale_b=_scale((5, 2), address=1 << 31))),
        (ValueError, r"scale_b has shape \(5, 2\) and strides \(1, 5\); b's 128 x 128 block scales must be row-major",
         call(scale_a=_scale((m, 2), (1, m)), scale_b=_scale((5, 2), (1, 5), address=1 << 31))),
        # the output and the bias
        (TypeError, r"out_dtype float8_e4m3fn is not bfloat16, float16 or float32", call(out_dtype="float8_e4m3fn")),
        (TypeError, r"out is float16 but the output type is float32; pass an out of that dtype or out_dtype=float16",
         call(out=_out(m, n, "float16"), out_dtype="float32")),
        (TypeError, r"out is float8_e4m3fn; it must be bfloat16, float16 or float32", call(out=_out(m, n, "float8_e4m3fn"))),
        (ValueError, r"out has shape \(520, 300\); it must be \(300, 520\)", call(out=_out(n, m))),
        (ValueError, r"out is column-major; with block scales the result must be row-major",
         call(scale_a=_scale((m, 2), (1, m)), scale_b=_scale((5, 2), address=1 << 31), out=_out(m, n, strides=(1, m)))),
        (ValueError, r"out overlaps a", call(out=_out(m, n, address=(1 << 20) + 64))),
        (TypeError, r"bias is float32 but the output is bfloat16; .*bias\.to\(torch\.bfloat16\)",
         call(bias=_scale((n,), address=1 << 33))),
        (ValueError, r"bias has shape \(300,\); it must be \(520,\)", call(bias=Fake((m,), dtype="bfloat16", address=1 << 33))),
    ]


@needs_ops
@pytest.mark.parametrize("case", range(len(_refusals())))
def test_each_bad_argument_is_refused_naming_the_fix(case):
    error, message, call = _refusals()[case]
    with pytest.raises(error, match=message):
        call()


needs_no_device = pytest.mark.skipif(not tessera.ops.available() or tessera.ops._ops.device_count() > 0,
                                     reason="needs tessera._ops and no visible GPU (it would launch)")


@needs_no_device
def test_valid_arguments_of_every_scale_kind_reach_the_device():
    # Per tensor, row-wise, mixed and block scales; K <= 128 (one k-block, where a's block scales
    # have a's row-wise shape); a single row and column; a column-major out: all pass the checks.
    m, n, k = 300, 520, 256
    cases = [
        (_a(m, k), _b(k, n), ONE_A, ONE_B, _out(m, n)),
        (_a(m, k), _b(k, n), _scale((m, 1)), _scale((1, n), address=1 << 31), _out(m, n)),
        (_a(m, k), _b(k, n), _scale((m, 1)), ONE_B, _out(m, n, strides=(1, m))),
        (_a(m, k), _b(k, n), _scale((m, 2), (1, m)), _scale((5, 2), address=1 << 31), _out(m, n)),
        (_a(m, 64), _b(64, n), _scale((m, 1)), _scale((5, 1), address=1 << 31), _out(m, n)),
        (_a(1, 16, dtype="float8_e5m2"), _b(16, 1, dtype="float8_e5m2"), _scale((1, 1)), _scale((1, 1), address=1 << 31),
         _out(1, 1, "float32")),
    ]
    for a, b, sa, sb, out in cases:
        with pytest.raises(RuntimeError, match=NO_DRIVER):
            tessera.ops.scaled_gemm(a, b, sa, sb, out=out)


class _FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeTorchTensor:
    """What tessera._ops reads of a torch.Tensor when it skips DLPack (registered in place of
    torch's types for one test)."""

    F32, F16, BF16 = _FakeDtype("float32"), _FakeDtype("float16"), _FakeDtype("bfloat16")
    E4M3, E5M2 = _FakeDtype("float8_e4m3fn"), _FakeDtype("float8_e5m2")

    def __init__(self, shape, strides, dtype, address=1 << 20, device=0):
        self.shape, self._strides, self.dtype = tuple(shape), tuple(strides), dtype
        self._address, self._device, self.requires_grad = address, device, False
        self.device = "cuda:%d" % device

    def element_size(self):
        return {"float32": 4, "float16": 2, "bfloat16": 2, "float8_e4m3fn": 1, "float8_e5m2": 1}[self.dtype.name]

    def get_device(self):
        return self._device

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._address


@pytest.fixture
def fake_torch_types():
    ops = tessera.ops._ops
    ops._register_torch(FakeTorchTensor, FakeTorchTensor.F32, FakeTorchTensor.F16, FakeTorchTensor.BF16)
    yield
    tessera.ops._torch_state.clear()  # the next torch.Tensor registers torch's own types again
    ops._register_torch(None, None, None, None)


@needs_ops
def test_torch_tensors_read_directly_get_the_same_checks(fake_torch_types):
    T = FakeTorchTensor
    ops = tessera.ops._ops

    def sg(a, b, sa, sb, out):
        return ops.scaled_gemm(a, b, sa, sb, None, out, None, 0, None, True)

    a, b = T((64, 128), (128, 1), T.E4M3), T((128, 32), (1, 128), T.E4M3, address=1 << 24)
    sa, sb = T((), (), T.F32, address=1 << 28), T((), (), T.F32, address=(1 << 28) + 64)
    out = T((64, 32), (32, 1), T.BF16, address=1 << 29)
    cases = [
        (TypeError, r"a is float8_e4m3fn and b float8_e5m2", lambda: sg(a, T((128, 32), (1, 128), T.E5M2, 1 << 24), sa, sb, out)),
        (TypeError, r"a is float16; it must be float8_e4m3fn", lambda: sg(T((64, 128), (128, 1), T.F16), b, sa, sb, out)),
        (ValueError, r"b has shape \(128, 32\) and strides \(32, 1\); b must be column-major",
         lambda: sg(a, T((128, 32), (32, 1), T.E4M3, 1 << 24), sa, sb, out)),
        (ValueError, r"scale_b has shape \(32,\); for b \(128, 32\) it must be one value",
         lambda: sg(a, b, sa, T((32,), (1,), T.F32, 1 << 30), out)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()
    if ops.device_count() == 0:
        with pytest.raises(RuntimeError, match=NO_DRIVER):
            sg(a, b, sa, sb, out)


def _docs_snippet():
    """The Python block of docs/gemm-fp8.md after <!-- python-snippet:scaled_gemm -->."""
    text = (REPO / "docs" / "gemm-fp8.md").read_text()
    found = re.findall(r"<!-- python-snippet:scaled_gemm -->\s*```python\n(.*?)```", text, re.S)
    assert len(found) == 1, "docs/gemm-fp8.md: one ```python block after <!-- python-snippet:scaled_gemm -->"
    return found[0]


def test_the_docs_snippet_is_there_and_checks_its_results():
    code = _docs_snippet()
    compile(code, "docs/gemm-fp8.md", "exec")
    assert "tessera.ops.scaled_gemm(" in code and "assert " in code


# ---- with PyTorch and a Hopper GPU ---------------------------------------------------------------


def _gpu_reason():
    if not tessera.ops.available():
        return "tessera was built without tessera._ops"
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed (the fp8 tests compare with torch)"
    if not hasattr(torch, "float8_e4m3fn"):
        return "this PyTorch has no float8 types"
    if not torch.cuda.is_available():
        return "no CUDA device visible to PyTorch"
    if torch.cuda.get_device_capability(0) != (9, 0):
        return "the GPU is compute capability %d.%d; tessera.ops is built for sm_90a" % torch.cuda.get_device_capability(0)
    return None


GPU_REASON = _gpu_reason()
needs_gpu = pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))

if GPU_REASON is None:
    import torch

UNIT = {"float32": 2.0 ** -24, "float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}


def _fp8(shape, dtype, seed, scale=1.0):
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    return (torch.randn(*shape, generator=g, device="cuda") * scale).to(getattr(torch, dtype))


def _expand_a(sa, m, k):
    """a's scale for each element (m, k), float64, whatever its kind."""
    if sa.numel() == 1:
        return sa.double().reshape(1, 1).expand(m, k)
    if sa.shape == (m, 1):
        return sa.double().expand(m, k)
    return sa.double().repeat_interleave(128, dim=1)[:, :k]  # (M, KB) blocks of 1 x 128


def _expand_b(sb, k, n):
    """b's scale for each element (k, n), float64."""
    if sb.numel() == 1:
        return sb.double().reshape(1, 1).expand(k, n)
    if sb.shape == (1, n):
        return sb.double().expand(k, n)
    return sb.double().t().repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)[:k, :n]  # (NB, KB)


def _check(d, a, b, sa, sb, out_name, bias=None):
    """d against the float64 product of the dequantized operands, within the documented bound:
    u_out |ref| + 2^-8 sum_k |sa a sb b| (the fp8 accumulation of the tensor cores)."""
    m, k = a.shape
    n = b.shape[1]
    ad = a.double() * _expand_a(sa, m, k)
    bd = b.double() * _expand_b(sb, k, n)
    ref = ad @ bd
    if bias is not None:
        ref = ref + bias.double()
    acc = ad.abs() @ bd.abs()
    bound = UNIT[out_name] * ref.abs() + 2.0 ** -8 * acc + 1e-30
    err = (d.double() - ref).abs()
    worst = (err / bound).max().item()
    assert worst <= 1.0, "error %.3g times the bound (largest error %g)" % (worst, err.max().item())
    return worst


def _scales(kind, m, n, k, seed):
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    kb, nb = (k + 127) // 128, (n + 127) // 128

    def r(*shape):
        return torch.rand(*shape, generator=g, device="cuda") + 0.5

    if kind == "tensor":
        return r(()), r((1,))
    if kind == "row":
        return r(m, 1), r(1, n)
    if kind == "mixed":
        return r(m, 1), r(())
    if kind == "block":
        return r(kb, m).t(), r(nb, kb)  # a's blocks M-major: strides (1, M)
    raise AssertionError(kind)


@needs_gpu
@pytest.mark.parametrize("kind", ["tensor", "row", "mixed", "block"])
@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("mnk", [(300, 520, 256), (1, 1, 16), (129, 77, 400), (512, 384, 1024)])
def test_against_float64(kind, dtype, mnk):
    m, n, k = mnk
    a = _fp8((m, k), dtype, 1)
    b = _fp8((n, k), dtype, 2).t()  # (K, N) column-major
    sa, sb = _scales(kind, m, n, k, 3)
    d = tessera.ops.scaled_gemm(a, b, sa, sb)
    assert d.dtype == torch.bfloat16 and d.shape == (m, n) and d.stride() == (n, 1)
    _check(d, a, b, sa, sb, "bfloat16")


@needs_gpu
@pytest.mark.parametrize("out_dtype", ["bfloat16", "float16", "float32"])
@pytest.mark.parametrize("kind", ["tensor", "row", "block"])
def test_outputs_bias_and_a_column_major_out(out_dtype, kind):
    m, n, k = 200, 264, 384
    dt = getattr(torch, out_dtype)
    a = _fp8((m, k), "float8_e4m3fn", 4)
    b = _fp8((n, k), "float8_e4m3fn", 5).t()
    sa, sb = _scales(kind, m, n, k, 6)
    bias = (torch.randn(n, device="cuda") * 4).to(dt)
    d = tessera.ops.scaled_gemm(a, b, sa, sb, out_dtype=dt, bias=bias)
    assert d.dtype == dt
    _check(d, a, b, sa, sb, out_dtype, bias)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
    assert tessera.ops.scaled_gemm(a, b, sa, sb, out=out, bias=bias) is out
    _check(out, a, b, sa, sb, out_dtype, bias)
    if kind != "block":  # a column-major out: computed transposed, the scales exchanged
        col = torch.full((n, m), float("nan"), device="cuda", dtype=dt).t()
        tessera.ops.scaled_gemm(a, b, sa, sb, out=col, bias=bias)
        _check(col, a, b, sa, sb, out_dtype, bias)


@needs_gpu
def test_exact_sums_and_long_k_with_block_scales():
    # Small integers (exact in fp8 and in fp32 partial sums): the result is exact up to the output's
    # rounding; block scales over K = 8192 hold the bound (sums promoted every 128 elements).
    m, n, k = 256, 256, 512
    a = torch.randint(-2, 3, (m, k), device="cuda").float().to(torch.float8_e4m3fn)
    b = torch.randint(-2, 3, (n, k), device="cuda").float().to(torch.float8_e4m3fn).t()
    one = torch.ones((), device="cuda")
    d = tessera.ops.scaled_gemm(a, b, one, one, out_dtype=torch.float32)
    assert torch.equal(d, a.float() @ b.float())
    m, n, k = 128, 256, 8192
    a, b = _fp8((m, k), "float8_e4m3fn", 7), _fp8((n, k), "float8_e4m3fn", 8).t()
    sa, sb = _scales("block", m, n, k, 9)
    _check(tessera.ops.scaled_gemm(a, b, sa, sb, out_dtype="float32"), a, b, sa, sb, "float32")


@needs_gpu
@pytest.mark.parametrize("kind", ["tensor", "row"])
@pytest.mark.parametrize("fast", [True, False])
def test_against_torch_scaled_mm(kind, fast):
    m, n, k = 1024, 768, 2048
    a, b = _fp8((m, k), "float8_e4m3fn", 10), _fp8((n, k), "float8_e4m3fn", 11).t()
    sa, sb = _scales(kind, m, n, k, 12)
    if kind == "tensor":
        sa, sb = sa.reshape(()), sb.reshape(())
    try:
        ref = torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=fast)
    except RuntimeError as e:
        pytest.skip("torch._scaled_mm refuses these scales here: %s" % str(e).split("\n")[0])
    d = tessera.ops.scaled_gemm(a, b, sa, sb)
    ours = _check(d, a, b, sa, sb, "bfloat16")
    theirs = _check(ref, a, b, sa, sb, "bfloat16")  # cuBLASLt's result holds the same bound
    print("largest error as a fraction of the bound: tessera %.3f, torch._scaled_mm %.3f" % (ours, theirs))


@needs_gpu
def test_errors_on_real_tensors():
    m, n, k = 64, 32, 128
    a, b = _fp8((m, k), "float8_e4m3fn", 13), _fp8((n, k), "float8_e4m3fn", 14).t()
    one = torch.ones((), device="cuda")
    sg = tessera.ops.scaled_gemm
    cases = [
        (TypeError, r"a is bfloat16; it must be float8_e4m3fn or float8_e5m2", lambda: sg(a.bfloat16(), b, one, one)),
        (TypeError, r"a is float8_e4m3fn and b float8_e5m2", lambda: sg(a, b.float().to(torch.float8_e5m2), one, one)),
        (ValueError, r"b must be column-major", lambda: sg(a, b.contiguous(), one, one)),
        (ValueError, r"a must be row-major", lambda: sg(a.t().contiguous().t(), b, one, one)),
        (ValueError, r"K = 120 is not a multiple of 16", lambda: sg(a[:, :120], b[:120], one, one)),
        (TypeError, r"scale_a is float64; it must be float32", lambda: sg(a, b, one.double(), one)),
        (ValueError, r"scale_a has shape \(64, 2\); for a \(64, 128\) it must be one value .*\(64, 1\)",
         lambda: sg(a, b, torch.ones(m, 2, device="cuda"), one)),
        (ValueError, r"scale_a is on the CPU", lambda: sg(a, b, torch.ones(()), one)),
        (ValueError, r"a requires grad", lambda: sg(a.float().requires_grad_().to(torch.float8_e4m3fn), b, one, one)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


@needs_gpu
def test_on_a_stream_and_repeated():
    m, n, k = 256, 256, 256
    a, b = _fp8((m, k), "float8_e4m3fn", 15), _fp8((n, k), "float8_e4m3fn", 16).t()
    sa, sb = _scales("row", m, n, k, 17)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        outs = [tessera.ops.scaled_gemm(a, b, sa, sb) for _ in range(3)]
    s.synchronize()
    for d in outs:
        _check(d, a, b, sa, sb, "bfloat16")
        assert torch.equal(d, outs[0])


@needs_gpu
def test_docstring_example():
    obj = tessera.ops.scaled_gemm
    for part in ("Precondition:", "Postcondition:", "Example"):
        assert part in obj.__doc__, part
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = doctest.DocTestFinder(recurse=False).find(obj, "scaled_gemm", globs={"tessera": tessera, "torch": torch})
    for t in tests:
        runner.run(t)
    assert sum(len(t.examples) for t in tests) >= 1
    assert runner.summarize(verbose=False).failed == 0


@needs_gpu
def test_the_docs_snippet_runs():
    exec(compile(_docs_snippet(), "docs/gemm-fp8.md", "exec"), {})
