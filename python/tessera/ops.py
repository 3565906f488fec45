"""Tessera's GPU kernels on any DLPack tensor (PyTorch, CuPy, JAX, ...): ``tessera.ops``.

    >>> import torch, tessera.ops
    >>> a = torch.randn(1000, 1000, device="cuda")
    >>> c = tessera.ops.add(a, a)                      # a torch.Tensor, like torch.add(a, a)
    >>> d = tessera.ops.copy(a)                        # a tile copy through shared memory (cp.async)

The kernels are those of ``include/tessera/kernels`` (``add``: the vectorized elementwise add;
``sgemm``: the fp32 SGEMM; ``copy``: the cp.async tile copy; ``gemm``: the Hopper tensor-core GEMM
``gemm_sm90``; ``scaled_gemm``: its fp8 form, ``gemm_sm90_fp8``; ``grouped_gemm``: its grouped form
for mixture-of-experts, ``gemm_sm90_grouped``;
``attention`` and ``attention_varlen``: the Hopper attention forward
``attention_forward_sm90``), for sm_90a: they run on H100 and H200 GPUs. They are compiled on their first call
(NVRTC: about a second per op and dtype for ``add``, ``sgemm`` and ``copy``; 4-6 s for each kernel
of ``gemm``, one per tile configuration, dtypes, operand orders and epilogue that the calls need;
kept in the JIT's disk cache, ``TESSERA_CACHE_DIR`` or ``~/.cache/tessera/jit``, so later processes
load them in milliseconds): they need NVRTC at run time (a CUDA toolkit, or the
``nvidia-cuda-nvrtc`` wheel that PyTorch brings), not at install time. When the extension
``tessera._ops`` cannot load, every function here raises ImportError saying why.

Arguments: objects with ``__dlpack__`` and ``__dlpack_device__`` on CUDA devices, all on one
device. Every argument is checked before anything is launched: a wrong dtype is a TypeError, a
wrong shape, stride, device, alignment or an output overlapping an input a ValueError, each
message naming the fix.

Results and streams:

* ``out=`` given: the result is written into it and ``out`` is returned.
* ``out`` omitted, PyTorch inputs: the result is a new ``torch.Tensor`` (allocated by PyTorch's
  caching allocator, like ``torch.empty``) on the first input's device.
* ``out`` omitted, other inputs: the result is a :class:`DeviceArray` (device memory owned by
  tessera) with ``__dlpack__``: ``cupy.from_dlpack(r)``, ``jax.dlpack.from_dlpack(r)``, ...
* The kernel is queued on ``stream``: PyTorch's current stream of the device by default for
  PyTorch inputs (``torch.cuda.current_stream()``), so it is ordered like a torch op; the legacy
  default stream for other inputs; or any stream handle given as ``stream=`` (an int, or an
  object with ``.cuda_stream`` such as ``torch.cuda.Stream`` or ``.ptr`` such as
  ``cupy.cuda.Stream``). On PyTorch's current stream, torch.Tensor arguments are read directly
  (as a torch op reads them, ordered after PyTorch's work on that stream); otherwise every argument
  is exported with ``__dlpack__(stream=that stream)``, so its producer makes it ready for work on
  that stream (DLPack's rule). The call returns once the kernel is queued (asynchronous, like a
  torch op). Tensors that require grad are refused (no autograd graph is recorded).
"""

import numbers
import sys

from . import jit as _jit  # noqa: F401 (sets up where the JIT finds the headers, NVRTC and libcu++)

try:
    from . import _ops
except ImportError as _error:  # built without it (TESSERA_PYTHON_OPS=OFF), or it cannot load here
    _ops = None
    _import_error = _error
else:
    _import_error = None

__all__ = ["add", "sgemm", "copy", "gemm", "scaled_gemm", "grouped_gemm", "attention", "attention_varlen", "available", "DeviceArray"]

#: Device memory tessera.ops allocated for a result (None when the package has no kernels).
DeviceArray = _ops.DeviceArray if _ops is not None else None

_ACTIVATIONS = (None, "none", "relu", "gelu", "gelu_tanh")
_CAUSAL_ALIGNMENTS = {"top_left": 1, "bottom_right": 2}


def available():
    """Whether the kernels were built into this package (``tessera._ops`` exists and loads).

    Precondition: none. Postcondition: False means every function of tessera.ops raises
    ImportError (the reason is in its message); True says nothing about a GPU being present, nor
    about NVRTC (a call that compiles without it raises RuntimeError saying what to install).

    Example:
        >>> isinstance(tessera.ops.available(), bool)
        True
    """
    return _ops is not None


def _module():
    if _ops is None:
        raise ImportError(
            "tessera.ops: this tessera package was built without its GPU kernels, or they cannot load here "
            "(tessera._ops: " + str(_import_error) + "); rebuild it with them, e.g. from the root of a checkout: "
            "python3 -m pip install ./python (no CUDA compiler needed; TESSERA_PYTHON_OPS must not be OFF)"
        )
    return _ops


def _stream_handle(stream):
    """The int handle of a stream argument (int, .cuda_stream, .ptr)."""
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):
        value = getattr(stream, attr, None)
        if isinstance(value, int):
            return value
    raise TypeError(
        "tessera.ops: stream must be an int (a cudaStream_t handle) or a stream object with .cuda_stream "
        "(torch.cuda.Stream) or .ptr (cupy.cuda.Stream), got " + type(stream).__name__
    )


def _torch_of(x):
    """The torch module when x is a torch.Tensor (torch is then already imported), else None."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        return torch
    return None


_torch_state = {}  # "stream": torch's current raw stream of a device index; "allocate": torch's allocator


def _torch_setup(torch):
    """Registers torch's types with _ops (once) and returns the cached helpers."""
    if not _torch_state:
        _ops._register_torch(torch.Tensor, torch.float32, torch.float16, torch.bfloat16)
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # torch's own fast path, when it has one
        if raw is None:
            def raw(index):
                return torch.cuda.current_stream(index).cuda_stream
        dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
        empty_strided = torch.empty_strided

        def allocate(shape, strides, dtype, device):
            t = dtypes.get(dtype)
            if t is None:  # copy's other dtypes: "int16", "uint16", "int32", "complex32", ...
                t = dtypes[dtype] = getattr(torch, dtype)
            return empty_strided(shape, strides, dtype=t, device=device)

        _torch_state.update(stream=raw, allocate=allocate)
    return _torch_state


def _device_array_allocator(handle):
    def allocate(shape, strides, dtype, device):
        return _ops.DeviceArray(shape, strides, dtype, device, handle)

    return allocate


def _context(first, stream):
    """(stream handle, allocate(shape, strides, dtype, device), fast) for an op whose first input is
    `first`. fast: torch.Tensor arguments may be read directly instead of through DLPack, which is
    sound when the kernel runs on PyTorch's current stream (stream=None), where PyTorch's own work
    on them is ordered; with another stream, DLPack's exports make them ready for it."""
    torch = _torch_of(first)
    if torch is not None:
        state = _torch_setup(torch)
        if stream is None:
            index = first.get_device()
            return (state["stream"](index) if index >= 0 else 0), state["allocate"], True
        return _stream_handle(stream), state["allocate"], False
    handle = _stream_handle(0 if stream is None else stream)
    return handle, _device_array_allocator(handle), False


def add(a, b, out=None, *, stream=None):
    """``out = a + b`` elementwise by Tessera's vectorized add kernel (one rounding in the dtype).

    Precondition: a, b (and out) are CUDA DLPack tensors on one device, of one dtype (float32,
    float16 or bfloat16), of one shape (no broadcasting, no type promotion), each densely stored
    (contiguous, or any dense permutation such as a transposed contiguous matrix) with the same
    strides; out is the same memory as a or b, or disjoint from both.
    Postcondition: out[i] == a[i] + b[i] exactly as torch.add computes it (IEEE add rounded to
    nearest even); returns out (a new tensor laid out like a when out is None).

    Example (PyTorch):
        >>> x = torch.arange(6, dtype=torch.float32, device="cuda").reshape(2, 3)
        >>> tessera.ops.add(x, x).tolist()
        [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    """
    ops = _module()
    handle, allocate, fast = _context(a, stream)
    return ops.add(a, b, out, handle, allocate, fast)


def sgemm(a, b, out=None, *, stream=None):
    """``out = a @ b`` in fp32 on the CUDA cores (Tessera's tuned SGEMM, no TF32).

    Precondition: a (M, K) and b (K, N) float32 CUDA matrices on one device, each row-major
    (strides (ld, 1), ld >= its columns) or column-major (strides (1, ld), ld >= its rows), e.g.
    any contiguous matrix or its ``.t()``; out, when given, an (M, N) float32 matrix of either order
    that does not overlap a or b. M, N, K >= 0 and below 2^31, each matrix spanning fewer than
    2^31 elements.
    Postcondition: out = a @ b with fp32 products and sums (|error| within about K * 2^-24 *
    sum |a_ik b_kj|); returns out (a new row-major (M, N) tensor when out is None).

    Example (PyTorch):
        >>> a = torch.tensor([[1.0, 2.0]], device="cuda")
        >>> b = torch.tensor([[3.0], [4.0]], device="cuda")
        >>> tessera.ops.sgemm(a, b).tolist()
        [[11.0]]
    """
    ops = _module()
    handle, allocate, fast = _context(a, stream)
    return ops.sgemm(a, b, out, handle, allocate, fast)


def copy(src, out=None, *, stream=None):
    """``out = src``, a 2-D tensor, by Tessera's tile copy: tiles of 32 rows move global -> shared
    memory with 128-bit ``cp.async`` copies, then shared -> global with 128-bit stores.

    Precondition: src (and out) a CUDA matrix of a 2- or 4-byte number dtype (float16, bfloat16,
    int16, uint16, float32, int32, uint32, complex32), row-major (strides (ld, 1), ld >= its
    columns) or column-major (strides (1, ld), ld >= its rows); its unit-stride extent and ld whole
    16-byte vectors (multiples of 8 elements of 2 bytes, 4 of 4 bytes) and its data 16-byte aligned
    (any fresh allocation is); out, when given, of src's dtype, shape and strides, on its device, the
    same memory as src or disjoint from it.
    Postcondition: out holds src's bits, element for element; returns out (a new tensor with src's
    strides when out is None).

    Example (PyTorch):
        >>> x = torch.arange(16, dtype=torch.float32, device="cuda").reshape(2, 8)
        >>> tessera.ops.copy(x).tolist()
        [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]]
    """
    ops = _module()
    handle, allocate, fast = _context(src, stream)
    return ops.copy(src, out, handle, allocate, fast)


def gemm(a, b, c=None, alpha=1.0, beta=None, out=None, out_dtype=None, *, bias=None, activation=None, stream=None):
    """``out = act(alpha * a @ b + beta * c + bias)`` on the Hopper tensor cores (``gemm_sm90``).

    a (M, K) and b (K, N) are float16 or bfloat16 (one dtype); products and sums are fp32; the
    result is rounded once to the output dtype.

    Precondition: CUDA matrices on one device, each row-major (strides (ld, 1)) or column-major
    (strides (1, ld)) with ld >= its contiguous extent; M, N, K >= 1 and below 2^31.
    The output dtype is ``out_dtype`` if given (a str such as "float32" or a torch.dtype), else
    out's, else c's, else the inputs'; it must be the inputs' dtype or float32. c (M, N) and bias
    (N,), contiguous, have the output dtype. beta defaults to 1 when c is given, else 0; beta != 0
    needs c. c and out share one storage order (out may be c itself: an in-place update); out does
    not overlap a, b or bias. activation: None, "relu", "gelu" (the erf form, torch's default) or
    "gelu_tanh" (approximate="tanh"), applied last, in fp32.
    Postcondition: out (M, N) = act(alpha a b + beta c + bias), bias[j] added to column j; returns
    out (new, row-major or in c's order, when out is None). Operands that TMA cannot address
    directly (pointer or rows not 16-byte aligned) are first copied into aligned scratch memory.
    The kernel is gemm_sm90's for the shape (its tile and schedule, stream-K included), compiled
    for the call's epilogue
    (out through TMA or not; alpha a b alone or the whole expression) on the first call that
    needs it: NVRTC, 4-6 s the first time on a machine, then the JIT's disk cache.

    Example (PyTorch):
        >>> a = torch.ones(2, 3, dtype=torch.bfloat16, device="cuda")
        >>> b = torch.ones(3, 4, dtype=torch.bfloat16, device="cuda")
        >>> tessera.ops.gemm(a, b, out_dtype="float32").tolist()
        [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]]
    """
    ops = _module()
    if activation not in _ACTIVATIONS and not isinstance(activation, str):
        raise TypeError("tessera.ops.gemm: activation must be None, 'relu', 'gelu' or 'gelu_tanh', got " + type(activation).__name__)
    if out_dtype is not None and not isinstance(out_dtype, str):
        out_dtype = str(out_dtype).rsplit(".", 1)[-1]  # torch.float32 -> "float32"
    handle, allocate, fast = _context(a, stream)
    return ops.gemm(a, b, c, float(alpha), None if beta is None else float(beta), bias, activation, out, out_dtype, handle, allocate,
                    fast)


def scaled_gemm(a, b, scale_a, scale_b, *, out_dtype=None, bias=None, out=None, stream=None):
    """``out = (scale_a * scale_b) * (a @ b) + bias`` for 8-bit float ``a`` and ``b`` on the Hopper
    tensor cores (``gemm_sm90_fp8``, ``gemm_sm90_fp8_block``: docs/gemm-fp8.md), as
    ``torch._scaled_mm(a, b, scale_a, scale_b, bias=bias, out_dtype=out_dtype)`` computes it.

    a (M, K) row-major and b (K, N) column-major (both K-major: the transpose of a row-major (N, K)
    weight, as torch._scaled_mm takes it), both float8_e4m3fn or both float8_e5m2. The scales are
    float32 dequantization factors, their kind read from their shapes:

    * one value each (shape () or (1,)): per tensor;
    * scale_a (M, 1) and/or scale_b (1, N): per row of a, per column of b (mixable with one value);
    * scale_a (M, ceil(K/128)) stored M-major (strides (1, M)) and scale_b (ceil(N/128),
      ceil(K/128)) row-major: DeepSeek-V3's 1 x 128 and 128 x 128 blocks, the fp8 sums promoted to
      fp32 with their scales every 128 elements of K (block scales go together).

    Precondition: CUDA tensors on one device; K a multiple of 16, the row stride of a and the column
    stride of b multiples of 16, a and b 16-byte aligned (pad K with zeros otherwise); M, N >= 1.
    out_dtype "bfloat16" (the default), "float16" or "float32" (or the torch.dtype); out, when
    given, (M, N) of that dtype, row- or column-major (row-major with block scales); bias (N,) of the
    output dtype. Mixed e4m3 x e5m2 operands are refused (not supported yet).
    Postcondition: out (new and row-major when not given) = sa sb sum_k a b + bias, products exact
    and sums in fp32 on the tensor cores (their fp8 accumulation as cuBLASLt's fast-accumulation
    mode, ``use_fast_accum=True``; block scales promote to fp32 every 128 elements of K), rounded
    once. Asynchronous. Compiled on first use (NVRTC, seconds; then the disk cache): one kernel per
    tile, fp8 type, output dtype and epilogue (bias or not, out through TMA or not).

    Example (PyTorch):
        >>> a = torch.full((2, 32), 0.5, device="cuda").to(torch.float8_e4m3fn)
        >>> b = torch.full((4, 32), 0.25, device="cuda").to(torch.float8_e4m3fn).t()
        >>> one = torch.tensor(2.0, device="cuda")
        >>> tessera.ops.scaled_gemm(a, b, one, one).tolist()
        [[16.0, 16.0, 16.0, 16.0], [16.0, 16.0, 16.0, 16.0]]
    """
    if out_dtype is not None and not isinstance(out_dtype, str):
        out_dtype = str(out_dtype).rsplit(".", 1)[-1]  # torch.float32 -> "float32"
    ops = _module()
    handle, allocate, fast = _context(a, stream)
    return ops.scaled_gemm(a, b, scale_a, scale_b, bias, out, out_dtype, handle, allocate, fast)


def attention(q, k, v, causal=False, scale=None, causal_alignment="top_left", return_lse=False, *, stream=None):
    """``softmax(scale * q @ k^T [+ causal mask]) @ v`` on the Hopper tensor cores (``attention_forward_sm90``,
    a FlashAttention-3-style kernel: docs/attention.md).

    q is (batch, heads_q, seq_q, head_dim), k and v (batch, heads_kv, seq_k, head_dim), float16 or
    bfloat16 (one dtype); products and sums are fp32, P is rounded to the input dtype before P @ v.

    Precondition: CUDA tensors on one device; head_dim 64, 128 or 256 with stride 1; the other
    strides multiples of 8 elements (16 bytes; any contiguous tensor, or a (batch, seq, heads,
    head_dim) one transposed to (batch, heads, seq, head_dim)) and 16-byte aligned data; heads_kv
    divides heads_q (grouped-query attention: query head h reads key/value head
    h // (heads_q // heads_kv)); seq_k >= 1 unless the output is empty; any lengths (no multiple of
    a tile needed). scale: None for 1/sqrt(head_dim), else positive and finite. causal: key j is
    visible to query i iff j <= i (causal_alignment "top_left", PyTorch's is_causal) or
    j <= i + seq_k - seq_q ("bottom_right", FlashAttention's); a query that sees no key gets O = 0
    and LSE = -inf.
    Postcondition: returns O, a new contiguous (batch, heads_q, seq_q, head_dim) tensor of q's dtype,
    or (O, LSE) with return_lse, LSE a new float32 (batch, heads_q, seq_q) tensor holding
    log(sum_j exp(scale q_i . k_j)) over the keys query i sees (natural log). Within 2^-8 + 2^-9
    (bfloat16) or 2^-11 + 2^-12 (float16) of the exact result for inputs in [-1, 1]. The kernel for
    head_dim and dtype is compiled on the first call that needs it: NVRTC, seconds the first time
    on a machine, then the JIT's disk cache.

    Example (PyTorch):
        >>> q = torch.zeros(1, 1, 3, 64, dtype=torch.bfloat16, device="cuda")
        >>> v = torch.arange(3, dtype=torch.bfloat16, device="cuda")[None, None, :, None].expand(1, 1, 3, 64).contiguous()
        >>> tessera.ops.attention(q, q, v, causal=True)[0, 0, :, 0].tolist()
        [0.0, 0.5, 1.0]
    """
    ops = _module()
    code, scale = _attention_args(causal, scale, causal_alignment, "attention")
    torch = _torch_of(q)
    if torch is not None and any(getattr(t, "requires_grad", False) for t in (q, k, v)):
        # differentiable (a torch.autograd.Function): the backward is attention_backward_sm90 through the
        # JIT (head_dim 64 and 128; docs/attention.md, "Backward")
        from . import _attention_grad

        return _attention_grad.attention(q, k, v, code, scale, bool(return_lse), stream)
    handle, allocate, fast = _context(q, stream)
    return ops.attention(q, k, v, code, scale, bool(return_lse), handle, allocate, fast)


def _attention_args(causal, scale, causal_alignment, fn):
    """The causal code (0 none, 1 top_left, 2 bottom_right) and the scale (None or a float)."""
    if causal_alignment not in _CAUSAL_ALIGNMENTS:
        raise ValueError("tessera.ops.%s: causal_alignment must be 'top_left' (PyTorch's is_causal) or "
                         "'bottom_right' (FlashAttention's), got %r" % (fn, causal_alignment))
    if scale is not None:
        if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
            raise TypeError("tessera.ops.%s: scale must be None or a number, got %s" % (fn, type(scale).__name__))
        scale = float(scale)
    return (_CAUSAL_ALIGNMENTS[causal_alignment] if causal else 0), scale


def _fill_no_keys(o, lse):
    """O = 0 and LSE = -inf where no kernel runs (no query, or no key in the whole batch)."""
    if _torch_of(o) is not None:
        o.zero_()
        if lse is not None:
            lse.fill_(float("-inf"))
    elif 0 not in tuple(o.shape):
        raise ValueError("tessera.ops.attention_varlen: no sequence has a key (or a query), so O is 0 and LSE -inf; "
                         "tessera.ops writes those only into PyTorch results: pass PyTorch tensors")


def attention_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal=False, scale=None,
                     causal_alignment="top_left", return_lse=False, *, stream=None):
    """:func:`attention` over a batch of sequences of different lengths packed one after the other
    (FlashAttention's varlen layout), by the same kernel.

    q is (total_q, heads_q, head_dim), k and v (total_k, heads_kv, head_dim): sequence b is rows
    ``cu_seqlens_q[b]:cu_seqlens_q[b + 1]`` of q and ``cu_seqlens_k[b]:cu_seqlens_k[b + 1]`` of k
    and v; cu_seqlens_q and cu_seqlens_k are int32 CUDA tensors of batch + 1 offsets.

    Precondition: as :func:`attention` for the dtypes, head_dim, GQA and alignment (the strides of
    seq and heads multiples of 8 elements); the offsets nondecreasing from 0 to total_q and total_k
    (sequences may be empty; they are read on the GPU, not checked); max_seqlen_q and max_seqlen_k
    at least every sequence's length (rows past max_seqlen_q are not computed). The mask applies
    within each sequence (bottom_right: key j visible to query i iff j <= i + len_k - len_q).
    Postcondition: returns O, a new contiguous (total_q, heads_q, head_dim) tensor of q's dtype, or
    (O, LSE) with return_lse, LSE a new float32 (heads_q, total_q) tensor; each sequence as
    :func:`attention` computes it alone, within the same bounds; a query that sees no key (an empty
    key sequence) gets O = 0 and LSE = -inf. Asynchronous (nothing is read back from the GPU).

    Example (PyTorch): two sequences of 2 and 1 queries, of 1 and 2 keys
        >>> q = torch.zeros(3, 1, 64, dtype=torch.bfloat16, device="cuda")
        >>> v = torch.tensor([1.0, 2.0, 4.0], dtype=torch.bfloat16, device="cuda")[:, None, None].expand(3, 1, 64).contiguous()
        >>> cu = torch.tensor([0, 2, 3], dtype=torch.int32, device="cuda")
        >>> cu_k = torch.tensor([0, 1, 3], dtype=torch.int32, device="cuda")
        >>> tessera.ops.attention_varlen(q, q, v, cu, cu_k, 2, 2)[:, 0, 0].tolist()
        [1.0, 1.0, 3.0]
    """
    ops = _module()
    code, scale = _attention_args(causal, scale, causal_alignment, "attention_varlen")
    for name, value in (("max_seqlen_q", max_seqlen_q), ("max_seqlen_k", max_seqlen_k)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError("tessera.ops.attention_varlen: %s must be an int, got %s" % (name, type(value).__name__))
    handle, allocate, fast = _context(q, stream)
    return ops.attention_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, int(max_seqlen_q), int(max_seqlen_k), code, scale,
                                bool(return_lse), handle, allocate, fast, _fill_no_keys)


def grouped_gemm(a, b, offsets=None, *, ends=None, masked_m=None, alpha=1.0, out=None, out_dtype=None, stream=None):
    """``out[g] = alpha * a[g] @ b[g]`` for the groups of a mixture-of-experts layer, in one launch
    (the Hopper grouped GEMM ``gemm_sm90_grouped``: docs/gemm-grouped.md).

    b is (groups, K, N), float16 or bfloat16, each b[g] with N or K contiguous (the transpose of
    contiguous (groups, N, K) weights is the fast, usual form). The groups' rows are given by exactly
    one int32 CUDA tensor:

    * ``offsets`` (groups + 1): a is (rows, K), group g is rows ``offsets[g]:offsets[g + 1]`` of a
      and of the result (rows, N);
    * ``ends`` (groups, cumulative ends: ``torch._grouped_mm``'s ``offs``): group g is rows
      ``ends[g - 1]:ends[g]`` (from 0 for g = 0);
    * ``masked_m`` (groups): a is (groups, capacity, K), group g is the first ``masked_m[g]`` rows
      of a[g]; the result is (groups, capacity, N) and its rows past a group's count are not written.

    Precondition: a and b of one dtype; K and N multiples of 8 and rows of a, b and out 16-byte
    aligned (TMA); the bounds nondecreasing within [0, rows] (they are read on the GPU and clamped
    there, never trusted: a bad bound cannot write outside out). Empty groups are allowed.
    Postcondition: out (new when not given, rows not written by any group left as allocated), of
    ``out_dtype`` (the inputs' dtype or float32; default out's, else the inputs'). Products and
    sums in fp32, rounded once. Asynchronous. Compiled on first use (NVRTC, seconds; then the disk
    cache): one kernel per tile (64 or 128 rows: by the groups' average size), dtypes and b's order.

    Example (PyTorch): two experts, 2 and 1 tokens
        >>> a = torch.ones(3, 8, dtype=torch.bfloat16, device="cuda")
        >>> b = torch.stack([torch.full((8, 8), 1.0), torch.full((8, 8), 2.0)]).to("cuda", torch.bfloat16)
        >>> offsets = torch.tensor([0, 2, 3], dtype=torch.int32, device="cuda")
        >>> tessera.ops.grouped_gemm(a, b, offsets)[:, 0].tolist()
        [8.0, 8.0, 16.0]
    """
    given = [(name, t) for name, t in (("offsets", offsets), ("ends", ends), ("masked_m", masked_m)) if t is not None]
    if len(given) != 1:
        raise ValueError("tessera.ops.grouped_gemm: give exactly one of offsets, ends and masked_m, got "
                         + (", ".join(name for name, _ in given) or "none"))
    form, rows = given[0]
    if form == "masked_m":
        form = "masked"
    if out_dtype is not None and not isinstance(out_dtype, str):
        out_dtype = str(out_dtype).rsplit(".", 1)[-1]  # torch.float32 -> "float32"
    ops = _module()
    handle, allocate, fast = _context(a, stream)
    return ops.grouped_gemm(a, b, rows, form, float(alpha), out, out_dtype, handle, allocate, fast)
