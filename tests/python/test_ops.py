"""tessera.ops: the GPU kernels on DLPack tensors, checked against PyTorch.

Four tiers, each skipping with its reason where it cannot run:
* always: the package imports, and without its kernels every op raises ImportError saying why;
* where tessera._ops was built (it needs no CUDA to build): arguments that are not DLPack tensors,
  and every class of bad argument, are refused before anything is compiled or touches a GPU;
* where NVRTC is found (no GPU needed): the programs that add, sgemm, copy and gemm compile on first
  use compile for sm_90a, with the launch geometry (gemm: the kernel argument's layout, shared
  memory and TMA boxes) the host side assumes (the programs' static_asserts);
* where PyTorch and an sm_90 GPU exist: results against torch (add and copy exactly; sgemm and gemm
  within a tolerance that grows with K), every operand order, awkward sizes, the result and stream
  rules, every class of bad argument, and the examples of the docstrings and of docs/python.md.
"""

import doctest
import math
import os
import pathlib
import re
import subprocess
import sys

import pytest

import tessera
import tessera.ops

REPO = pathlib.Path(__file__).resolve().parents[2]


# ---- without kernels ------------------------------------------------------------------------------


def test_without_kernels_every_op_raises_import_error(monkeypatch):
    monkeypatch.setattr(tessera.ops, "_ops", None)
    monkeypatch.setattr(tessera.ops, "_import_error", ImportError("no module named tessera._ops"))
    assert tessera.ops.available() is False
    for call in (lambda: tessera.ops.add(1, 2), lambda: tessera.ops.sgemm(1, 2), lambda: tessera.ops.gemm(1, 2),
                 lambda: tessera.ops.copy(1)):
        with pytest.raises(ImportError, match=r"built without its GPU kernels, or they cannot load here.*pip install"):
            call()


# ---- with kernels, no GPU needed ------------------------------------------------------------------

needs_ops = pytest.mark.skipif(not tessera.ops.available(), reason="tessera was built without tessera._ops, or it "
                               "cannot load here: %s" % (tessera.ops._import_error,))


def test_the_module_loads_and_reports_its_devices_without_a_gpu():
    # tessera._ops is compiled by the host compiler alone: the package has it wherever it was built
    # (the project's build and pip's), with or without CUDA; no GPU or driver is needed to import it.
    if not tessera.ops.available():
        pytest.skip("tessera._ops is not here: %s" % (tessera.ops._import_error,))
    assert isinstance(tessera.ops._ops.device_count(), int) and tessera.ops._ops.device_count() >= 0
    assert tessera.ops._ops.have_gemm() is True  # compiled on first use, like the others
    assert tessera.ops.__all__ == ["add", "sgemm", "copy", "gemm", "scaled_gemm", "grouped_gemm", "attention",
                                   "attention_varlen", "available", "DeviceArray"]


@needs_ops
@pytest.mark.parametrize("op", ["add", "sgemm", "gemm", "copy"])
def test_a_non_dlpack_argument_is_a_type_error(op):
    if op == "copy":
        with pytest.raises(TypeError, match=r"src must be a DLPack tensor .*got list"):
            tessera.ops.copy([1.0])
        return
    with pytest.raises(TypeError, match=r"a must be a DLPack tensor .*got list"):
        getattr(tessera.ops, op)([1.0], [2.0])


@needs_ops
def test_a_bad_stream_argument_is_a_type_error():
    with pytest.raises(TypeError, match="stream must be an int"):
        tessera.ops.add([1.0], [2.0], stream="fast")


# A DLPack producer in pure Python (ctypes) that claims CUDA memory at a made-up address: the
# argument checks read only shapes, strides, dtypes, devices and addresses, so they run here without
# a GPU, and without torch. An argument list that passes them reaches the device: without a driver
# that is the RuntimeError of the first CUDA call. (Never launched where a device exists.)

import ctypes


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
_DTYPES = {"float32": (2, 32), "float16": (2, 16), "bfloat16": (4, 16), "float64": (2, 64), "int32": (0, 32),
           "int16": (0, 16), "uint16": (1, 16), "int8": (0, 8), "bool": (6, 8)}


class FakeCuda:
    """shape/strides (elements; None: compact row-major) at byte address `address` on cuda:`device`
    (DLPack device type `device_type`). `streams` records the stream each export was asked for."""

    def __init__(self, shape, strides=None, dtype="float32", address=1 << 20, device=0, device_type=2):
        self.shape, self.strides, self.dtype = tuple(shape), strides, dtype
        self.device_type, self.device = device_type, device
        self.streams = []
        n = len(shape)
        self._shape = (ctypes.c_int64 * max(n, 1))(*shape)
        self._strides = (ctypes.c_int64 * max(n, 1))(*strides) if strides is not None else None
        code, bits = _DTYPES[dtype]
        t = _DLTensor(ctypes.c_void_p(address), _DLDevice(device_type, device), n, _DLDataType(code, bits, 1),
                      ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64)),
                      ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64)) if strides is not None else None, 0)
        self._managed = _DLManagedTensor(t, None, None)  # no deleter: nothing to free

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (self.device_type, self.device)


@needs_ops
def test_checks_without_a_gpu_copy():
    a = FakeCuda((4, 8))  # float32, rows of 32 bytes
    cases = [
        (TypeError, r"src is float64; copy moves numbers of 2 or 4 bytes", lambda: tessera.ops.copy(FakeCuda((4, 8), dtype="float64"))),
        (TypeError, r"src is int8; copy moves numbers of 2 or 4 bytes", lambda: tessera.ops.copy(FakeCuda((4, 16), dtype="int8"))),
        (TypeError, r"src is bool", lambda: tessera.ops.copy(FakeCuda((4, 16), dtype="bool"))),
        (ValueError, r"src is on the CPU", lambda: tessera.ops.copy(FakeCuda((4, 8), device_type=1))),
        (ValueError, r"src must be a matrix \(2-D\), got shape \(32,\)", lambda: tessera.ops.copy(FakeCuda((32,)))),
        (ValueError, r"src has shape \(4, 4\) and strides \(16, 2\); the kernel copies row-major",
         lambda: tessera.ops.copy(FakeCuda((4, 4), (16, 2)))),
        (ValueError, r"src's unit-stride mode has 6 elements of 4 bytes, not whole 16-byte vectors.*multiple of 4",
         lambda: tessera.ops.copy(FakeCuda((4, 6)))),
        (ValueError, r"src's unit-stride mode has 12 elements of 2 bytes.*multiple of 8",
         lambda: tessera.ops.copy(FakeCuda((12, 4), (1, 16), dtype="float16"))),
        (ValueError, r"src's leading dimension 10 .* not a multiple of 16 bytes",
         lambda: tessera.ops.copy(FakeCuda((4, 8), (10, 1)))),
        (ValueError, r"src's data pointer is not 16-byte aligned", lambda: tessera.ops.copy(FakeCuda((4, 8), address=(1 << 20) + 4))),
        (ValueError, r"data pointer is not aligned to its 4-byte elements", lambda: tessera.ops.copy(FakeCuda((4, 8), address=(1 << 20) + 2))),
        (TypeError, r"out is int32 and src float32; out must have src's dtype",
         lambda: tessera.ops.copy(a, out=FakeCuda((4, 8), dtype="int32", address=1 << 24))),
        (ValueError, r"out has shape \(8, 4\); it must be \(4, 8\)", lambda: tessera.ops.copy(a, out=FakeCuda((8, 4), address=1 << 24))),
        (ValueError, r"src is on cuda:0 and out on cuda:1", lambda: tessera.ops.copy(a, out=FakeCuda((4, 8), address=1 << 24, device=1))),
        (ValueError, r"out has strides \(1, 4\) and src \(8, 1\); out must be stored like src",
         lambda: tessera.ops.copy(a, out=FakeCuda((4, 8), (1, 4), address=1 << 24))),
        (ValueError, r"out has strides \(16, 1\) and src \(8, 1\)", lambda: tessera.ops.copy(a, out=FakeCuda((4, 8), (16, 1), address=1 << 24))),
        (ValueError, r"out's data pointer is not 16-byte aligned", lambda: tessera.ops.copy(a, out=FakeCuda((4, 8), address=(1 << 24) + 8))),
        (ValueError, r"out overlaps src without being the same elements", lambda: tessera.ops.copy(a, out=FakeCuda((4, 8), address=(1 << 20) + 64))),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


@needs_ops
def test_bad_arguments_are_refused_before_anything_is_compiled():
    # In a fresh process (this one may have compiled them): every op's checks run first, so a
    # refused call compiles nothing, and the module imports and reports without a GPU.
    code = """
import tessera.ops as o, test_ops as t
calls = [lambda: o.add(t.FakeCuda((4, 6)), t.FakeCuda((4, 6), dtype="float16")),
         lambda: o.add(t.FakeCuda((4, 3), (6, 2)), t.FakeCuda((4, 3), (6, 2))),
         lambda: o.sgemm(t.FakeCuda((8, 6)), t.FakeCuda((4, 6), address=1 << 24)),
         lambda: o.copy(t.FakeCuda((4, 6))),
         lambda: o.copy(t.FakeCuda((4, 8), dtype="int16"), out=t.FakeCuda((4, 8), dtype="uint16", address=1 << 21))]
for call in calls:
    try:
        call()
    except (TypeError, ValueError):
        pass
    else:
        raise AssertionError("accepted")
print(sorted((op, d) for op, d in [("add", "float32"), ("add", "float16"), ("sgemm", "float32"), ("copy", "float32"),
                                   ("copy", "int16")] if o._ops._compiled(op, d)), o.available())
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(pathlib.Path(__file__).parent)] + sys.path))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[] True", p.stdout


def _nvrtc_reason():
    if not tessera.ops.available():
        return "tessera._ops is not here: %s" % (tessera.ops._import_error,)
    ok, why = tessera.jit.available()
    return None if ok else "NVRTC is not available here: %s" % why


NVRTC_REASON = _nvrtc_reason()
needs_nvrtc = pytest.mark.skipif(NVRTC_REASON is not None, reason=str(NVRTC_REASON))


@needs_nvrtc
@pytest.mark.parametrize("op,dtype", [("add", "bfloat16"), ("copy", "float16"), ("sgemm", "float32")])
def test_the_kernels_compile_for_sm90a_without_a_gpu(op, dtype):
    # The programs ops compile on first use, for sm_90a, with NVRTC alone: their static_asserts hold
    # the header's configuration to the geometry the host side launches with. (The first time on a
    # machine: seconds, sgemm's four kernels ~10 s on two cores; then the JIT's disk cache.)
    r = tessera.ops._ops._compile_only(op, dtype)
    assert set(r) == {"kernels", "in_memory", "from_disk_cache", "compile_seconds", "log"}
    assert tessera.ops._ops._compiled(op, dtype)
    expected = {"add": ["tessera::kernels::detail::add_vectorized_kernel<__nv_bfloat16, true, 4>",
                        "tessera::kernels::detail::add_vectorized_kernel<__nv_bfloat16, false, 4>"],
                "copy": ["tessera::kernels::detail::tile_copy_kernel<unsigned short>"],
                "sgemm": ["tessera::kernels::sgemm_tiled_kernel<tessera::kernels::SgemmTuned, %s, %s>" % (a, b)
                          for a in ("true", "false") for b in ("true", "false")]
                + ["tessera::kernels::detail::sgemm_scale_c_kernel<float>"]}[op]
    assert r["kernels"] == expected
    again = tessera.ops._ops._compile_only(op, dtype)
    assert again["in_memory"] and again["kernels"] == expected


# The kernel tessera.ops.gemm runs for a shape, compiled without a GPU: gemm_sm90's configuration
# for the shape on a GPU of `sms` SMs (here an H100's 132), one program per configuration, type pair
# and operand majors; its static_asserts hold the device's kernel arguments (GemmSm90Params,
# GemmSm90Maps), shared memory and TMA boxes to what the host side builds (include/tessera/jit/gemm_sm90.hpp).
# About 4-6 s the first time on a machine (NVRTC), then the disk cache.
GEMM_WS = "tessera::sm90::warp_specialized_kernel<tessera::kernels::detail::GemmSm90WsRoles<"


@needs_nvrtc
def test_the_gemm_kernel_of_a_shape_compiles_for_sm90a_without_a_gpu():
    r = tessera.ops._ops._compile_gemm(100, 70, 30, "bfloat16", "float32", a_row_major=True, b_row_major=False)
    assert set(r) == {"kernels", "key", "in_memory", "from_disk_cache", "compile_seconds", "log"}
    # a small problem: the persistent kernel with 64x128 tiles; A row-major and B column-major are
    # both K-major; D's rows of 70 floats (280 bytes) are not 16-byte multiples, so TMA cannot
    # address them: the kernel stores D from registers
    assert r["kernels"] == [GEMM_WS + "tessera::kernels::GemmSm90WsConfig<64, 128, 64, 8, true, 1, false>, "
                            "tessera::bfloat16_t, float, true, true, tessera::kernels::GemmSm90Epilogue::registers> >",
                            "tessera::kernels::detail::gemm_pack_kernel<tessera::bfloat16_t>"]
    again = tessera.ops._ops._compile_gemm(100, 70, 30, "bfloat16", "float32", a_row_major=True, b_row_major=False)
    assert again["in_memory"] and again["key"] == r["key"]
    # the same kernel for a column-major D of the transposed shape (D^T = B^T A^T: B^T row-major,
    # A^T column-major, so both K-major again)
    t = tessera.ops._ops._compile_gemm(70, 100, 30, "bfloat16", "float32", a_row_major=True, b_row_major=False,
                                       out_row_major=False)
    assert t["key"] == r["key"] and t["in_memory"]
    # 72 columns (288 bytes): D through TMA, D = alpha A B, or with an epilogue
    for plain, form in [(True, "tma_plain"), (False, "tma")]:
        w = tessera.ops._ops._compile_gemm(100, 72, 30, "bfloat16", "float32", a_row_major=True, b_row_major=False,
                                           plain=plain)
        assert w["kernels"][0].endswith(", tessera::kernels::GemmSm90Epilogue::" + form + "> >"), w["kernels"]
        assert w["key"] != r["key"]


@needs_ops
def test_compile_gemm_refuses_what_has_no_kernel():
    for args, message in [((8, 8, 8, "float32"), r"gemm's inputs are float16 or bfloat16"),
                          ((8, 8, 8, "bfloat16", "float16"), r"gemm's output is the inputs' dtype or float32"),
                          ((0, 8, 8, "float16"), r"m, n, k and sms must be >= 1")]:
        with pytest.raises(ValueError, match=message):
            tessera.ops._ops._compile_gemm(*args)


@needs_ops
def test_compile_only_refuses_what_has_no_program():
    for op, dtype, message in [("mul", "float32", r"op must be 'add', 'sgemm' or 'copy'"),
                               ("add", "int32", r"add runs on float32, float16 or bfloat16"),
                               ("sgemm", "float16", r"sgemm runs on float32"),
                               ("copy", "float64", r"copy moves numbers of 2 or 4 bytes"),
                               ("copy", "bool", r"copy moves numbers of 2 or 4 bytes")]:
        with pytest.raises(ValueError, match=message):
            tessera.ops._ops._compile_only(op, dtype)


@needs_ops
def test_without_nvrtc_the_first_call_says_what_to_install():
    code = ("import tessera.ops as o\n"
            "try:\n"
            "    o._ops._compile_only('add', 'float32')\n"
            "except RuntimeError as e:\n"
            "    print(e)\n")
    env = dict(os.environ, TESSERA_NVRTC_LIBRARY="/nonexistent/libnvrtc.so", PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert re.match(r"tessera\._ops\._compile_only: compiling: .*nvrtc", p.stdout, re.I | re.S), p.stdout


needs_no_device = pytest.mark.skipif(not tessera.ops.available() or tessera.ops._ops.device_count() > 0,
                                     reason="needs tessera._ops and no CUDA device (the fake tensors' addresses are made up)")


@needs_ops
def test_checks_without_a_gpu_add():
    a = FakeCuda((4, 6))
    cases = [
        (ValueError, r"a is on the CPU.*a\.cuda\(\)", lambda: tessera.ops.add(FakeCuda((4, 6), device_type=1), a)),
        (TypeError, r"a is float64; it must be float32, float16 or bfloat16", lambda: tessera.ops.add(FakeCuda((4, 6), dtype="float64"), a)),
        (TypeError, r"a is float32 and b float16", lambda: tessera.ops.add(a, FakeCuda((4, 6), dtype="float16"))),
        (ValueError, r"a has shape \(4, 6\) and b \(6,\); the shapes must be equal", lambda: tessera.ops.add(a, FakeCuda((6,)))),
        (ValueError, r"a is on cuda:0 and b on cuda:1", lambda: tessera.ops.add(a, FakeCuda((4, 6), device=1))),
        (ValueError, r"not densely stored", lambda: tessera.ops.add(FakeCuda((4, 3), (6, 2)), FakeCuda((4, 3), (6, 2)))),
        (ValueError, r"a has strides \(1, 4\) and b \(6, 1\)", lambda: tessera.ops.add(FakeCuda((4, 6), (1, 4)), a)),
        (ValueError, r"data pointer is not aligned to its 4-byte elements", lambda: tessera.ops.add(FakeCuda((4, 6), address=(1 << 20) + 2), a)),
        (ValueError, r"negative stride", lambda: tessera.ops.add(FakeCuda((4,), (-1,)), FakeCuda((4,), (-1,)))),
        (ValueError, r"out overlaps a without being the same elements",
         lambda: tessera.ops.add(a, a, out=FakeCuda((4, 6), address=(1 << 20) + 8))),
        (TypeError, r"out is float16 and a float32", lambda: tessera.ops.add(a, a, out=FakeCuda((4, 6), dtype="float16"))),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


@needs_ops
def test_checks_without_a_gpu_sgemm_and_gemm():
    a, b = FakeCuda((8, 6)), FakeCuda((6, 4), address=1 << 24)
    h = FakeCuda((8, 16), dtype="bfloat16")
    g = FakeCuda((16, 24), dtype="bfloat16", address=1 << 24)
    cases = [
        (TypeError, r"a is float16; it must be float32; sgemm is fp32", lambda: tessera.ops.sgemm(FakeCuda((8, 6), dtype="float16"), b)),
        (ValueError, r"the product needs b's rows == a's columns", lambda: tessera.ops.sgemm(a, FakeCuda((4, 6), address=1 << 24))),
        (ValueError, r"b has shape \(6, 4\) and strides \(8, 2\); the kernel takes row-major",
         lambda: tessera.ops.sgemm(a, FakeCuda((6, 4), (8, 2), address=1 << 24))),
        (ValueError, r"a must be a matrix \(2-D\)", lambda: tessera.ops.sgemm(FakeCuda((8,)), b)),
        (ValueError, r"out overlaps a", lambda: tessera.ops.sgemm(a, b, out=FakeCuda((8, 4), address=(1 << 20) + 16))),
    ]
    cases += [
        (TypeError, r"a is float32; it must be float16 or bfloat16", lambda: tessera.ops.gemm(a, b)),
        (TypeError, r"out_dtype float16 is not the inputs' dtype", lambda: tessera.ops.gemm(h, g, out_dtype="float16")),
        (ValueError, r"beta = .* needs c", lambda: tessera.ops.gemm(h, g, beta=2.0)),
        (ValueError, r"bias has shape \(8,\); it must be \(24,\)",
         lambda: tessera.ops.gemm(h, g, bias=FakeCuda((8,), dtype="bfloat16", address=1 << 28))),
        (ValueError, r"c is column-major and out row-major",
         lambda: tessera.ops.gemm(h, g, FakeCuda((8, 24), (1, 8), address=1 << 28), out=FakeCuda((8, 24), address=1 << 29))),
        (ValueError, r"M, N and K must be >= 1", lambda: tessera.ops.gemm(FakeCuda((0, 16), dtype="bfloat16"), g)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


# What a call whose arguments passed every check says where no GPU driver or no GPU is: the CUDA
# driver (opened while the program runs) is missing, or cuInit finds no device.
NO_DRIVER = r"(the CUDA driver \(libcuda\.so\.1\) is not installed|cuInit failed)"


@needs_no_device
def test_valid_arguments_reach_the_device_on_the_callers_stream():
    # add: the legacy default stream unless told (DLPack names it 1); then the first driver call
    # fails for want of a driver, after every check passed.
    a, b, out = FakeCuda((4, 6)), FakeCuda((4, 6), address=1 << 24), FakeCuda((4, 6), address=1 << 28)
    with pytest.raises(RuntimeError, match=r"tessera\.ops\.add: " + NO_DRIVER):
        tessera.ops.add(a, b, out=out)
    assert a.streams == b.streams == out.streams == [1]
    with pytest.raises(RuntimeError, match=NO_DRIVER):
        tessera.ops.add(a, b, out=out, stream=0x1234)
    assert a.streams[-1] == 0x1234
    # transposed operands and a column-major out are matrices too; 1 x n and n x 1 have any strides
    with pytest.raises(RuntimeError, match=r"tessera\.ops\.sgemm: " + NO_DRIVER):
        tessera.ops.sgemm(FakeCuda((8, 6), (1, 8)), FakeCuda((6, 1), (5, 3), address=1 << 24),
                          out=FakeCuda((8, 1), (1, 1), address=1 << 28))
    # copy: a column-major int16 matrix into one stored alike; a DeviceArray result needs the driver
    src = FakeCuda((16, 24), (1, 16), dtype="int16")
    with pytest.raises(RuntimeError, match=r"tessera\.ops\.copy: " + NO_DRIVER):
        tessera.ops.copy(src, out=FakeCuda((16, 24), (1, 16), dtype="int16", address=1 << 24), stream=2)
    assert src.streams == [2]
    with pytest.raises(RuntimeError, match=r"DeviceArray: " + NO_DRIVER):
        tessera.ops.copy(src)
    # gemm: c updated in place (out=c), column-major, float32 out of bfloat16 inputs, bias, activation
    h = FakeCuda((8, 16), (1, 8), dtype="bfloat16")
    g = FakeCuda((16, 24), dtype="bfloat16", address=1 << 24)
    c = FakeCuda((8, 24), (1, 8), address=1 << 28)
    with pytest.raises(RuntimeError, match=r"tessera\.ops\.gemm: " + NO_DRIVER):
        tessera.ops.gemm(h, g, c, alpha=2.0, out=c, bias=FakeCuda((24,), address=1 << 29), activation="gelu_tanh")
    assert c.streams == [1, 1]  # exported once as c, once as out


class _FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeTorchTensor:
    """The attributes tessera._ops reads from a torch.Tensor when it may skip DLPack (registered in
    place of torch's types for one test)."""

    F32, F16, BF16, F64 = _FakeDtype("float32"), _FakeDtype("float16"), _FakeDtype("bfloat16"), _FakeDtype("float64")

    def __init__(self, shape, strides, dtype, address=1 << 20, device=0, requires_grad=False):
        self.shape, self._strides, self.dtype = tuple(shape), tuple(strides), dtype
        self._address, self._device, self.requires_grad = address, device, requires_grad
        self.device = "cuda:%d" % device if device >= 0 else "cpu"

    def element_size(self):
        return {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8}[self.dtype.name]

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
def test_torch_tensors_read_without_dlpack_get_the_same_checks(fake_torch_types):
    T = FakeTorchTensor
    ops = tessera.ops._ops

    def add(a, b, out=None):
        return ops.add(a, b, out, 0, None, True)

    a = T((4, 6), (6, 1), T.F32)
    cases = [
        (ValueError, r"a is on the CPU; .*a\.cuda\(\)", lambda: add(T((4, 6), (6, 1), T.F32, device=-1), a)),
        (ValueError, r"b requires grad; .*b\.detach\(\)", lambda: add(a, T((4, 6), (6, 1), T.F32, requires_grad=True))),
        (TypeError, r"b is float64; it must be float32, float16 or bfloat16", lambda: add(a, T((4, 6), (6, 1), T.F64))),
        (TypeError, r"a is float32 and b bfloat16", lambda: add(a, T((4, 6), (6, 1), T.BF16))),
        (ValueError, r"a has strides \(6, 1\) and b \(1, 4\)", lambda: add(a, T((4, 6), (1, 4), T.F32))),
        (ValueError, r"out overlaps b", lambda: add(a, T((4, 6), (6, 1), T.F32, address=1 << 24),
                                                    T((4, 6), (6, 1), T.F32, address=(1 << 24) + 4))),
    ]
    cases += [
        (TypeError, r"src is float64; copy moves numbers of 2 or 4 bytes", lambda: ops.copy(T((4, 8), (8, 1), T.F64), None, 0, None, True)),
        (ValueError, r"src's unit-stride mode has 6 elements", lambda: ops.copy(a, None, 0, None, True)),
        (TypeError, r"out is bfloat16 and src float16",
         lambda: ops.copy(T((4, 8), (8, 1), T.F16), T((4, 8), (8, 1), T.BF16, address=1 << 24), 0, None, True)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()
    if ops.device_count() == 0:
        with pytest.raises(RuntimeError, match=NO_DRIVER):
            add(a, T((4, 6), (6, 1), T.F32, address=1 << 24), T((4, 6), (6, 1), T.F32, address=1 << 28))


# ---- with PyTorch and a Hopper GPU ---------------------------------------------------------------


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
needs_gpu = pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))

if GPU_REASON is None:
    import torch
    import torch.nn.functional as F

    DTYPES = [torch.float32, torch.float16, torch.bfloat16]


def _gen(seed):
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    return g


def _randn(shape, dtype, seed, major="row"):
    """A random matrix of `shape` stored row-major ("row") or column-major ("col")."""
    g = _gen(seed)
    if major == "row":
        return torch.randn(shape, generator=g, device="cuda").to(dtype)
    return torch.randn(tuple(reversed(shape)), generator=g, device="cuda").to(dtype).t()


class Wrapped:
    """A DLPack tensor that is not a torch.Tensor (as a CuPy or JAX array would be)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


# ---- add ----


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(1,), (7,), (31,), (1024,), (1000003,), (3, 5), (17, 257), (1, 1, 13), (64, 3, 129)])
def test_add_equals_torch(dtype, shape):
    dt = getattr(torch, dtype)
    a = torch.randn(shape, generator=_gen(1), device="cuda").to(dt)
    b = torch.randn(shape, generator=_gen(2), device="cuda").to(dt)
    c = tessera.ops.add(a, b)
    assert isinstance(c, torch.Tensor) and c.dtype == dt and c.shape == a.shape and c.device == a.device
    assert torch.equal(c, torch.add(a, b))


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_add_on_dense_permutations_keeps_the_layout(dtype):
    dt = getattr(torch, dtype)
    a = torch.randn(37, 53, generator=_gen(3), device="cuda").to(dt).t()  # column-major (53, 37)
    b = torch.randn(37, 53, generator=_gen(4), device="cuda").to(dt).t()
    c = tessera.ops.add(a, b)
    assert c.stride() == a.stride()
    assert torch.equal(c, a + b)
    x = torch.randn(4, 5, 6, generator=_gen(5), device="cuda").permute(2, 0, 1)
    y = torch.randn(4, 5, 6, generator=_gen(6), device="cuda").permute(2, 0, 1)
    assert torch.equal(tessera.ops.add(x, y), x + y)


@needs_gpu
def test_add_into_out_and_in_place():
    a = torch.randn(1000, generator=_gen(7), device="cuda")
    b = torch.randn(1000, generator=_gen(8), device="cuda")
    expected = a + b
    out = torch.empty_like(a)
    assert tessera.ops.add(a, b, out=out) is out
    assert torch.equal(out, expected)
    assert tessera.ops.add(a, b, out=a) is a  # out may be an input itself
    assert torch.equal(a, expected)


@needs_gpu
def test_add_misaligned_views_and_empty():
    base = torch.randn(1001, generator=_gen(9), device="cuda", dtype=torch.float16)
    a, b = base[1:], base[:-1]  # 2 bytes off 16-byte alignment: the kernel's element-wise path
    assert torch.equal(tessera.ops.add(a, b), a + b)
    e = torch.empty(0, 3, device="cuda")
    assert tessera.ops.add(e, e).shape == (0, 3)


@needs_gpu
def test_add_beyond_2_to_the_30_elements():
    n = (1 << 30) + 77  # two launches
    a = torch.ones(n, dtype=torch.float16, device="cuda")
    b = torch.full((n,), 2.0, dtype=torch.float16, device="cuda")
    c = tessera.ops.add(a, b)
    assert bool((c == 3.0).all())
    del a, b, c
    torch.cuda.empty_cache()


@needs_gpu
def test_add_of_other_dlpack_tensors_returns_a_device_array():
    a = torch.randn(3, 257, generator=_gen(10), device="cuda")
    b = torch.randn(3, 257, generator=_gen(11), device="cuda")
    r = tessera.ops.add(Wrapped(a), Wrapped(b))
    assert isinstance(r, tessera.ops.DeviceArray)
    assert (r.shape, r.strides, r.dtype, r.device) == ((3, 257), (257, 1), "float32", 0)
    assert r.__dlpack_device__() == (2, 0)
    t = torch.from_dlpack(r)
    del r  # the torch tensor keeps the memory alive
    torch.cuda.synchronize()
    assert torch.equal(t, a + b)


@needs_gpu
def test_add_runs_on_torchs_current_stream():
    a = torch.randn(1 << 20, generator=_gen(12), device="cuda")
    b = torch.randn(1 << 20, generator=_gen(13), device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        c = tessera.ops.add(a, b)
        d = c * 2  # queued after the add on the same stream
    s.synchronize()
    assert torch.equal(d, (a + b) * 2)
    # an explicit stream
    out = torch.empty_like(a)
    tessera.ops.add(a, b, out=out, stream=s)
    s.synchronize()
    assert torch.equal(out, a + b)


@needs_gpu
def test_add_errors():
    a = torch.randn(4, 6, device="cuda")
    cases = [
        (TypeError, r"a must be a DLPack tensor", lambda: tessera.ops.add([1], a)),
        (ValueError, r"a is on the CPU.*a\.cuda\(\)", lambda: tessera.ops.add(a.cpu(), a)),
        (TypeError, r"a is float64; it must be float32, float16 or bfloat16", lambda: tessera.ops.add(a.double(), a.double())),
        (TypeError, r"b is int32", lambda: tessera.ops.add(a, a.int())),
        (TypeError, r"a is float32 and b float16; both must have one dtype", lambda: tessera.ops.add(a, a.half())),
        (ValueError, r"shapes must be equal \(no broadcasting\)", lambda: tessera.ops.add(a, a[0])),
        (ValueError, r"a \(shape \(4, 3\), strides \(6, 2\)\) is not densely stored.*contiguous\(\)",
         lambda: tessera.ops.add(a[:, ::2], a[:, ::2])),
        (ValueError, r"a has strides \(1, 4\) and b \(6, 1\)", lambda: tessera.ops.add(a.t().contiguous().t(), a)),
        (ValueError, r"out has shape \(6, 4\); it must be \(4, 6\)", lambda: tessera.ops.add(a, a, out=a.t().contiguous())),
        (TypeError, r"out is float16 and a float32", lambda: tessera.ops.add(a, a, out=a.half())),
        (ValueError, r"out has strides \(1, 4\) and a \(6, 1\)", lambda: tessera.ops.add(a, a, out=torch.empty(6, 4, device="cuda").t())),
    ]
    buf = torch.randn(25, device="cuda")
    cases.append((ValueError, r"out overlaps a without being the same elements",
                  lambda: tessera.ops.add(buf[:24], buf[:24], out=buf[1:])))
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


@needs_gpu
def test_torch_tensors_are_read_directly_on_torchs_stream_and_through_dlpack_on_another():
    a = torch.randn(16, device="cuda", requires_grad=True)
    with pytest.raises(ValueError, match=r"a requires grad; tessera.ops records no autograd graph: pass a\.detach\(\)"):
        tessera.ops.add(a, a)  # read directly: tessera's message
    with pytest.raises((RuntimeError, BufferError), match=r"detach"):  # BufferError from torch 2.11 on
        tessera.ops.add(a, a, stream=torch.cuda.current_stream())  # through DLPack: torch's export refuses it
    x = a.detach()
    assert torch.equal(tessera.ops.add(x, x, stream=torch.cuda.current_stream()), x + x)


@needs_gpu
@pytest.mark.skipif(GPU_REASON is None and torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_tensors_on_two_devices_are_refused():
    a = torch.randn(8, device="cuda:0")
    b = torch.randn(8, device="cuda:1")
    with pytest.raises(ValueError, match=r"a is on cuda:0 and b on cuda:1; all tensors must be on one device"):
        tessera.ops.add(a, b)


# ---- copy ----


def _bits(t):
    """t's elements as integers of their size (bitwise comparisons: NaNs and signed zeros too)."""
    return t.view(torch.int16 if t.element_size() == 2 else torch.int32)


def _random(shape, dtype, seed):
    if dtype.is_floating_point:
        return torch.randn(shape, generator=_gen(seed), device="cuda").to(dtype)
    return torch.randint(-30000, 30000, shape, generator=_gen(seed), device="cuda").to(dtype)


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int16", "int32"])
@pytest.mark.parametrize("shape", [(1, 8), (7, 8), (32, 64), (33, 136), (1000, 520)])
def test_copy_equals_src(dtype, shape):
    dt = getattr(torch, dtype)
    src = _random(shape, dt, 50)
    out = tessera.ops.copy(src)
    assert isinstance(out, torch.Tensor) and out.dtype == dt and out.shape == src.shape and out.stride() == src.stride()
    assert torch.equal(_bits(out), _bits(src))


@needs_gpu
def test_copy_of_column_major_padded_and_special_values():
    base = torch.randn(40, 64, generator=_gen(51), device="cuda")
    src = base[:, :32]  # rows of 32 elements 64 apart: the result keeps the leading dimension
    out = tessera.ops.copy(src)
    assert out.stride() == (64, 1) and torch.equal(out, src)
    t = torch.randn(24, 40, generator=_gen(52), device="cuda").half().t()  # column-major (40, 24)
    o = torch.empty(24, 40, device="cuda", dtype=torch.float16).t()
    assert tessera.ops.copy(t, out=o) is o and torch.equal(o, t)
    special = torch.tensor([[float("nan"), -0.0, float("inf"), 1e-45] * 2] * 3, device="cuda")
    assert torch.equal(_bits(tessera.ops.copy(special)), _bits(special))
    assert tessera.ops.copy(src, out=src) is src and torch.equal(src, base[:, :32])  # the same elements: no change
    assert tessera.ops.copy(torch.empty(0, 8, device="cuda")).shape == (0, 8)


@needs_gpu
def test_copy_beyond_one_grid_of_tile_rows():
    rows = 65535 * 32 + 37  # two launches
    src = torch.arange(rows * 8, device="cuda", dtype=torch.int32).to(torch.int16).reshape(rows, 8)
    out = tessera.ops.copy(src)
    assert torch.equal(out, src)
    del src, out
    torch.cuda.empty_cache()


@needs_gpu
def test_copy_of_other_dlpack_tensors_and_on_a_stream():
    x = torch.randint(0, 1000, (5, 24), generator=_gen(53), device="cuda").to(torch.int16)
    r = tessera.ops.copy(Wrapped(x))
    assert isinstance(r, tessera.ops.DeviceArray) and (r.shape, r.strides, r.dtype) == ((5, 24), (24, 1), "int16")
    t = torch.from_dlpack(r)
    torch.cuda.synchronize()
    assert torch.equal(t, x)
    s = torch.cuda.Stream()
    a = torch.randn(4096, 64, generator=_gen(54), device="cuda")
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        c = tessera.ops.copy(a)
        d = c * 2
    s.synchronize()
    assert torch.equal(d, a * 2)


@needs_gpu
def test_copy_errors():
    a = torch.randn(4, 8, device="cuda")
    cases = [
        (TypeError, r"src is float64; copy moves numbers of 2 or 4 bytes", lambda: tessera.ops.copy(a.double())),
        (TypeError, r"src is int8", lambda: tessera.ops.copy(a.to(torch.int8))),
        (ValueError, r"src must be a matrix \(2-D\)", lambda: tessera.ops.copy(a[0])),
        (ValueError, r"src's unit-stride mode has 6 elements", lambda: tessera.ops.copy(a[:, :6])),
        (ValueError, r"src has shape \(4, 4\) and strides \(8, 2\)", lambda: tessera.ops.copy(a[:, ::2])),
        (ValueError, r"src's data pointer is not 16-byte aligned", lambda: tessera.ops.copy(torch.randn(40, device="cuda")[1:33].view(4, 8))),
        (TypeError, r"out is float16 and src float32", lambda: tessera.ops.copy(a, out=a.half())),
        (ValueError, r"out has strides \(1, 4\) and src \(8, 1\)", lambda: tessera.ops.copy(a, out=torch.empty(8, 4, device="cuda").t())),
        (ValueError, r"src is on the CPU", lambda: tessera.ops.copy(a.cpu())),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


# ---- sgemm and gemm: references and tolerances ----


def _reference(a, b):
    """a @ b in float64 and the sum of |a_ik b_kj| (for error bounds)."""
    a64, b64 = a.double(), b.double()
    return a64 @ b64, a64.abs() @ b64.abs()


def _assert_close(d, ref, scale, k, unit_out, extra=0.0):
    # fp32 accumulation: |error| <= k * 2^-24 * sum |a b| (a factor 2 of slack); one rounding to the
    # output type: unit_out * |ref| (and half the spacing of float16's subnormals, 2^-25, near 0);
    # `extra`: relative error of an epilogue function in fp32.
    bound = 2 * k * 2.0 ** -24 * scale + (unit_out + extra) * ref.abs() + 2.0 ** -24
    err = (d.double() - ref).abs()
    worst = (err - bound).max().item()
    assert worst <= 0, "max error exceeds the bound by %g (max error %g)" % (worst, err.max().item())


SIZES = [(1, 1, 1), (1, 7, 3), (5, 1, 9), (13, 17, 1), (17, 33, 65), (127, 129, 131), (128, 256, 64), (251, 509, 257),
         (1000, 37, 513)]
MAJORS = [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")]


@needs_gpu
@pytest.mark.parametrize("mnk", SIZES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("majors", MAJORS, ids=lambda m: "%s-%s" % m)
def test_sgemm_against_float64(mnk, majors):
    m, n, k = mnk
    a = _randn((m, k), torch.float32, 20, majors[0])
    b = _randn((k, n), torch.float32, 21, majors[1])
    d = tessera.ops.sgemm(a, b)
    assert d.shape == (m, n) and d.dtype == torch.float32 and d.stride() == (n, 1)
    ref, scale = _reference(a, b)
    _assert_close(d, ref, scale, k, 2.0 ** -24)


@needs_gpu
def test_sgemm_into_a_column_major_out_and_empty_problems():
    a = _randn((70, 45), torch.float32, 22)
    b = _randn((45, 33), torch.float32, 23, "col")
    out = torch.empty(33, 70, device="cuda").t()
    assert tessera.ops.sgemm(a, b, out=out) is out
    ref, scale = _reference(a, b)
    _assert_close(out, ref, scale, 45, 2.0 ** -24)
    z = tessera.ops.sgemm(torch.empty(4, 0, device="cuda"), torch.empty(0, 3, device="cuda"))  # K = 0: zeros
    assert torch.equal(z, torch.zeros(4, 3, device="cuda"))
    assert tessera.ops.sgemm(torch.empty(0, 5, device="cuda"), torch.empty(5, 3, device="cuda")).shape == (0, 3)


@needs_gpu
def test_sgemm_errors():
    a = torch.randn(8, 6, device="cuda")
    b = torch.randn(6, 4, device="cuda")
    cases = [
        (TypeError, r"a is float16; it must be float32; sgemm is fp32", lambda: tessera.ops.sgemm(a.half(), b)),
        (ValueError, r"a must be a matrix \(2-D\), got shape \(8,\)", lambda: tessera.ops.sgemm(a[:, 0], b)),
        (ValueError, r"batched products are not supported", lambda: tessera.ops.sgemm(a[None], b)),
        (ValueError, r"a is \(8, 6\) and b \(4, 6\); the product needs b's rows == a's columns",
         lambda: tessera.ops.sgemm(a, b.t())),
        (ValueError, r"b has shape \(6, 2\) and strides \(4, 2\); the kernel takes row-major .*b\.contiguous\(\)",
         lambda: tessera.ops.sgemm(a, b[:, ::2])),
        (ValueError, r"out has shape \(4, 8\); it must be \(8, 4\)", lambda: tessera.ops.sgemm(a, b, out=torch.empty(4, 8, device="cuda"))),
        (ValueError, r"out overlaps a", lambda: tessera.ops.sgemm(a[:4, :4], b[:4], out=a[:4, 2:6])),
        (ValueError, r"a is on the CPU", lambda: tessera.ops.sgemm(a.cpu(), b)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()


GEMM_TYPES = [("bfloat16", None), ("bfloat16", "float32"), ("float16", None), ("float16", "float32")]
GEMM_SIZES = SIZES + [(1024, 1024, 1024), (256, 8192, 128)]
# A shape for each configuration gemm_sm90 picks on 132 SMs (H100 SXM, H200), with its tile in the
# kernel's name: 128x256, 128x192, 128x128, 64x128 (persistent), the ping-pong kernel (a plain
# 16-bit product on few partial waves), and stream-K (fp32 out, a partial last wave).
GEMM_CONFIGS = [((4096, 4096, 256), "bfloat16", None, "GemmSm90WsConfig<128, 256, 64, 4, true, 1, false>"),
                ((3072, 3072, 256), "float16", None, "GemmSm90WsConfig<128, 192, 64, 4, true, 1, false>"),
                ((1536, 1536, 256), "bfloat16", "float32", "GemmSm90WsConfig<128, 128, 64, 6, true, 1, false>"),
                ((256, 256, 256), "float16", "float32", "GemmSm90WsConfig<64, 128, 64, 8, true, 1, false>"),
                ((2560, 2560, 512), "bfloat16", None, "GemmSm90PingpongConfig<128, 128, 64, 6>"),
                ((2560, 2560, 512), "float16", "float32", "GemmSm90WsConfig<128, 256, 64, 4, true, 1, true>")]


def _sms():
    return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count


def _warm_gemm(cases):
    """Compiles the kernels of cases (m, n, k, dtype, out_dtype or None, a_row, b_row, out_row, plain) in
    parallel threads (NVRTC runs without the GIL; a kernel is ~4-6 s the first time on a machine,
    then the disk cache), so that the tests run at once instead of compiling one by one."""
    import concurrent.futures
    sms = _sms()
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(16, os.cpu_count() or 1)) as pool:
        for f in [pool.submit(tessera.ops._ops._compile_gemm, m, n, k, dt, od or "", ar, br, orow, plain, sms)
                  for (m, n, k, dt, od, ar, br, orow, plain) in cases]:
            f.result()


@needs_gpu
class TestGemm:
    UNIT = {"float32": 2.0 ** -24, "float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}

    @pytest.fixture(scope="class", autouse=True)
    def warm(self):
        cases = [(m, n, k, t[0], t[1], ma == "row", mb == "row", True, True)
                 for (m, n, k) in GEMM_SIZES for (ma, mb) in MAJORS for t in GEMM_TYPES]
        cases += [(m, n, k, dt, od, True, True, True, True) for ((m, n, k), dt, od, _) in GEMM_CONFIGS]
        cases += [(m, n, k, "bfloat16", "float32", True, False, orow, False)
                  for (m, n, k) in [(131, 67, 96)] for orow in (True, False)]
        cases += [(m, n, k, dt, None, ar, br, orow, False) for (m, n, k) in [(97, 61, 53)] for dt in ("float16", "bfloat16")
                  for ar in (True, False) for br in (True, False) for orow in (True, False)]
        _warm_gemm(cases)

    @pytest.mark.parametrize("mnk", GEMM_SIZES, ids=lambda s: "x".join(map(str, s)))
    @pytest.mark.parametrize("majors", MAJORS, ids=lambda m: "%s-%s" % m)
    @pytest.mark.parametrize("types", GEMM_TYPES, ids=lambda t: "%s-%s" % t)
    def test_against_float64(self, mnk, majors, types):
        m, n, k = mnk
        dt = getattr(torch, types[0])
        a = _randn((m, k), dt, 30, majors[0])
        b = _randn((k, n), dt, 31, majors[1])
        d = tessera.ops.gemm(a, b, out_dtype=types[1])
        out_name = types[1] or types[0]
        assert d.dtype == getattr(torch, out_name) and d.shape == (m, n) and d.stride() == (n, 1)
        ref, scale = _reference(a, b)
        _assert_close(d, ref, scale, k, self.UNIT[out_name])

    @pytest.mark.parametrize("activation", [None, "relu", "gelu", "gelu_tanh"])
    @pytest.mark.parametrize("c_major", ["row", "col"])
    def test_epilogue_alpha_beta_c_bias_activation(self, activation, c_major):
        m, n, k = 131, 67, 96
        a = _randn((m, k), torch.bfloat16, 32)
        b = _randn((k, n), torch.bfloat16, 33, "col")
        c = _randn((m, n), torch.float32, 34, c_major)
        bias = torch.randn(n, generator=_gen(35), device="cuda")
        d = tessera.ops.gemm(a, b, c, alpha=0.5, beta=-2.0, bias=bias, activation=activation)
        assert d.dtype == torch.float32 and d.is_contiguous() == (c_major == "row")
        ab, scale = _reference(a, b)
        x = 0.5 * ab - 2.0 * c.double() + bias.double()
        fn = {None: lambda v: v, "relu": F.relu, "gelu": F.gelu, "gelu_tanh": lambda v: F.gelu(v, approximate="tanh")}[activation]
        ref = fn(x)
        # the epilogue's error before the activation (whose slope is at most about 1.13), then the
        # activation's own in fp32
        _assert_close(d, ref, 1.2 * (0.5 * scale + 2 * c.double().abs() + bias.double().abs()), k, 2.0 ** -24, 1e-6)

    @pytest.mark.parametrize("case", GEMM_CONFIGS, ids=lambda c: "x".join(map(str, c[0])) + "-" + c[1] + "-" + str(c[2]))
    def test_each_configuration(self, case):
        # the configuration gemm_sm90 picks for the shape (on 132 SMs: its name is checked), against
        # torch.matmul in float64
        (m, n, k), dt, od, config = case
        r = tessera.ops._ops._compile_gemm(m, n, k, dt, od or "", sms=_sms())
        if _sms() == 132:
            assert config in r["kernels"][0], r["kernels"]
        a = _randn((m, k), getattr(torch, dt), 50)
        b = _randn((k, n), getattr(torch, dt), 51)
        d = tessera.ops.gemm(a, b, out_dtype=od)
        ref, scale = _reference(a, b)
        _assert_close(d, ref, scale, k, self.UNIT[od or dt])

    @pytest.mark.parametrize("dt", ["float16", "bfloat16"])
    @pytest.mark.parametrize("majors", [(ma, mb, mo) for ma in ("row", "col") for mb in ("row", "col") for mo in ("row", "col")],
                             ids=lambda m: "-".join(m))
    @pytest.mark.parametrize("activation", [None, "relu", "gelu", "gelu_tanh"])
    def test_epilogue_with_16_bit_output(self, dt, majors, activation):
        # prime sizes (no tile divides them), C and bias of the 16-bit output type, both orders of D
        m, n, k = 97, 61, 53
        t = getattr(torch, dt)
        a = _randn((m, k), t, 52, majors[0])
        b = _randn((k, n), t, 53, majors[1])
        c = _randn((m, n), t, 54, majors[2])
        bias = torch.randn(n, generator=_gen(55), device="cuda").to(t)
        d = tessera.ops.gemm(a, b, c, alpha=1.5, beta=0.25, bias=bias, activation=activation)
        assert d.dtype == t and d.is_contiguous() == (majors[2] == "row")
        ab, scale = _reference(a, b)
        x = 1.5 * ab + 0.25 * c.double() + bias.double()
        fn = {None: lambda v: v, "relu": F.relu, "gelu": F.gelu, "gelu_tanh": lambda v: F.gelu(v, approximate="tanh")}[activation]
        _assert_close(d, fn(x), 1.2 * (1.5 * scale + 0.25 * c.double().abs() + bias.double().abs()), k, self.UNIT[dt], 1e-6)

    @pytest.mark.parametrize("offset", [0, 1, 3])
    def test_operands_tma_cannot_address_are_packed(self, offset):
        # A and B at addresses 2 * offset bytes past 16-byte alignment, inside buffers whose rows are
        # 67 and 45 elements apart (pitches that are no multiple of 16 bytes): packed by the JIT's
        # gemm_pack_kernel into aligned buffers first; D a padded view (ld 72: TMA's store) or, for
        # offset 3, one whose rows are 2 * 65 bytes apart (stored from registers)
        m, n, k = 70, 40, 66
        bufa = torch.randn(m * 67 + 8, generator=_gen(56), device="cuda").to(torch.bfloat16)
        bufb = torch.randn(k * 45 + 8, generator=_gen(57), device="cuda").to(torch.bfloat16)
        a = bufa[offset:offset + m * 67].view(m, 67)[:, :k]
        b = bufb[offset:offset + k * 45].view(k, 45)[:, :n]
        ld = 72 if offset < 3 else 65
        out = torch.full((m, ld), float("nan"), device="cuda", dtype=torch.bfloat16)
        d = tessera.ops.gemm(a, b, out=out[:, :n])
        ref, scale = _reference(a, b)
        _assert_close(d, ref, scale, k, self.UNIT["bfloat16"])
        assert out[:, n:].isnan().all()  # nothing written beyond D's columns

    def test_a_stream_and_repeated_calls(self):
        # on another stream, ordered after work there; the same kernel called again (no compile)
        a = _randn((300, 200), torch.float16, 58)
        b = _randn((200, 100), torch.float16, 59)
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            d1 = tessera.ops.gemm(a, b)
            d2 = tessera.ops.gemm(a, b)
        s.synchronize()
        assert torch.equal(d1, d2)
        ref, scale = _reference(a, b)
        _assert_close(d1, ref, scale, 200, self.UNIT["float16"])

    def test_in_place_update_of_c_and_beta_default(self):
        a = _randn((64, 40), torch.float16, 36)
        b = _randn((40, 48), torch.float16, 37)
        c = _randn((64, 48), torch.float16, 38)
        c0 = c.clone()
        assert tessera.ops.gemm(a, b, c, out=c) is c  # beta defaults to 1 with c
        ab, scale = _reference(a, b)
        _assert_close(c, ab + c0.double(), scale + c0.double().abs(), 40, 2.0 ** -11)

    def test_other_dlpack_tensors(self):
        a = _randn((33, 65), torch.bfloat16, 39)
        b = _randn((65, 17), torch.bfloat16, 40)
        r = tessera.ops.gemm(Wrapped(a), Wrapped(b), out_dtype="float32")
        assert isinstance(r, tessera.ops.DeviceArray) and r.dtype == "float32"
        d = torch.from_dlpack(r)
        torch.cuda.synchronize()
        ref, scale = _reference(a, b)
        _assert_close(d, ref, scale, 65, 2.0 ** -24)

    def test_errors(self):
        a = torch.randn(8, 16, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(16, 24, device="cuda", dtype=torch.bfloat16)
        c32 = torch.randn(8, 24, device="cuda")
        cases = [
            (TypeError, r"a is float32; it must be float16 or bfloat16; gemm takes", lambda: tessera.ops.gemm(a.float(), b)),
            (TypeError, r"a is bfloat16 and b float16", lambda: tessera.ops.gemm(a, b.half())),
            (TypeError, r"out_dtype float16 is not the inputs' dtype \(bfloat16\) or float32",
             lambda: tessera.ops.gemm(a, b, out_dtype=torch.float16)),
            (ValueError, r"M, N and K must be >= 1", lambda: tessera.ops.gemm(a[:0], b)),
            (ValueError, r"the product needs b's rows == a's columns", lambda: tessera.ops.gemm(a, b[:8])),
            (ValueError, r"beta = .* needs c", lambda: tessera.ops.gemm(a, b, beta=1.0)),
            (TypeError, r"c is float32 but the output is bfloat16", lambda: tessera.ops.gemm(a, b, c32, out_dtype="bfloat16")),
            (ValueError, r"c has shape \(24, 8\); it must be \(8, 24\)", lambda: tessera.ops.gemm(a, b, c32.t().contiguous())),
            (ValueError, r"bias has shape \(8,\); it must be \(24,\)", lambda: tessera.ops.gemm(a, b, c32, bias=c32[0, :8])),
            (TypeError, r"bias is bfloat16 but the output is float32", lambda: tessera.ops.gemm(a, b, c32, bias=b[0])),
            (ValueError, r"bias must be contiguous", lambda: tessera.ops.gemm(a, b, c32, bias=torch.randn(48, device="cuda")[::2])),
            (ValueError, r"activation 'tanh' is not one of", lambda: tessera.ops.gemm(a, b, activation="tanh")),
            (TypeError, r"activation must be None", lambda: tessera.ops.gemm(a, b, activation=1)),
            (ValueError, r"c is column-major and out row-major; they must share one storage order",
             lambda: tessera.ops.gemm(a, b, torch.randn(24, 8, device="cuda").t(), out=torch.empty(8, 24, device="cuda"))),
            (ValueError, r"out overlaps c without being the same elements",
             lambda: tessera.ops.gemm(a, b[:, :12], c32[:, :12], out=c32[:, 1:13])),
            (ValueError, r"a has shape \(8, 8\) and strides \(16, 2\)", lambda: tessera.ops.gemm(a[:, ::2], b[:8])),
        ]
        for error, message, call in cases:
            with pytest.raises(error, match=message):
                call()


# ---- the documentation's examples ----


def _run_doctest(obj, name, globs):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for t in finder.find(obj, name, globs=dict(globs)):
        runner.run(t)
        examples += len(t.examples)
    assert runner.summarize(verbose=False).failed == 0, "%s: examples failed (output above)" % name
    return examples


@needs_gpu
@pytest.mark.parametrize("name", ["add", "sgemm", "copy", "gemm", "grouped_gemm", "available"])
def test_docstring_examples(name):
    obj = getattr(tessera.ops, name)
    for part in ("Precondition:", "Postcondition:", "Example"):
        assert part in obj.__doc__, (name, part)
    assert _run_doctest(obj, name, {"tessera": tessera, "torch": torch}) >= 1


@needs_gpu
def test_module_docstring_examples():
    assert _run_doctest(tessera.ops, "tessera.ops", {"tessera": tessera}) >= 3


@needs_gpu
def test_the_gpu_sessions_of_docs_python_md_run():
    text = (REPO / "docs" / "python.md").read_text()
    sessions = re.findall(r"<!-- gpu-session -->(.*?)<!-- end-gpu-session -->", text, re.S)
    assert sessions, "docs/python.md has no <!-- gpu-session --> block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    attempted = 0
    for i, s in enumerate(sessions):
        test = parser.get_doctest(s, globs, "docs/python.md gpu-session %d" % i, "docs/python.md", 0)
        runner.run(test, clear_globs=False)
        attempted += len(test.examples)
    assert attempted >= 5
    assert runner.summarize(verbose=False).failed == 0
