"""tessera.jit: kernels compiled by NVRTC from Python. Compiling needs NVRTC only (for sm_90a, on any
machine); launching needs a GPU and PyTorch. Each part skips, saying why, where that is missing."""

import os
import subprocess
import sys

import pytest
from conftest import torch_with_gpu

import tessera
from tessera import jit

ok, why = jit.available()
needs_nvrtc = pytest.mark.skipif(not ok, reason=f"NVRTC is not available: {why}")


torch, no_gpu = torch_with_gpu()
needs_gpu = pytest.mark.skipif(torch is None or not ok, reason=no_gpu or f"NVRTC is not available: {why}")

SCALE = r"""
#include "tessera/tessera.hpp"
template <class Layout>
__global__ void scale(float* x, float a) {
  auto t = tessera::make_tensor(tessera::make_gmem_ptr(x), Layout{});
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tessera::size(t)) t(i) = a * t(i);
}
"""


class Strided:
    """A stand-in tensor for layout_of without a GPU: shape and element strides."""

    def __init__(self, shape, stride):
        self.shape = shape
        self._stride = stride

    def stride(self):
        return self._stride


def test_layout_of_and_its_spelling():
    l = jit.layout_of(Strided((64, 32), (32, 1)))
    assert str(l) == "(_64,_32):(_32,_1)"
    assert jit.spell(l) == (
        "tessera::Layout<tessera::Shape<tessera::Int<64>,tessera::Int<32>>,"
        "tessera::Stride<tessera::Int<32>,tessera::Int<1>>>"
    )
    d = jit.layout_of(Strided((4096, 512), (512, 1)), dynamic=[0])
    assert str(d) == "(4096,_512):(512,_1)"
    d = jit.layout_of(Strided((4096, 512), (512, 1)), dynamic=[1])
    assert str(d) == "(_4096,512):(512,_1)"
    assert jit.dynamic_values(d) == (512, 512)
    assert jit.spell_value(d, "v").count("v[") == 2
    d = jit.layout_of(Strided((4096, 512), (512, 1)), dynamic=[0], dynamic_strides=[])
    assert str(d) == "(4096,_512):(_512,_1)"


@needs_nvrtc
def test_compile_for_hopper_without_a_gpu():
    p = jit.compile(SCALE, ["scale<tessera::Layout<tessera::Int<256>>>"], arch=90)
    assert len(p) == 1
    assert "-arch=sm_90a" in p.options
    assert p.kernel(0).name == "scale<tessera::Layout<tessera::Int<256>>>"
    assert len(p.key) == 64
    # The architecture as NVCC spells it names the same program.
    for spelled in ("sm_90a", "sm_90", "compute_90", "90"):
        assert jit.compile(SCALE, ["scale<tessera::Layout<tessera::Int<256>>>"], arch=spelled).key == p.key
    for wrong, says in (("hopper", "as NVCC spells it"), ("sm_60", "sm_70 and newer"), (60, "sm_70 and newer")):
        with pytest.raises(ValueError, match=says):
            jit.compile(SCALE, ["scale<tessera::Layout<tessera::Int<256>>>"], arch=wrong)


@needs_nvrtc
def test_compile_errors_name_the_file_and_line(tmp_path):
    src = tmp_path / "broken.cu"
    src.write_text("__global__ void k(int* x) {\n  x[0] = not_declared;\n}\n")
    with pytest.raises(jit.JitError) as e:
        jit.compile(str(src), "k", arch=90)
    assert f"{src}(2)" in str(e.value)
    assert "not_declared" in str(e.value)


@needs_nvrtc
def test_compile_with_no_include_directory(tmp_path):
    # The modules carry Tessera's headers: with TESSERA_INCLUDE_DIR unset, a new process elsewhere
    # compiles over tessera/tessera.hpp and passes NVRTC no directory of Tessera's; the variable
    # still reads a directory instead, and one without the headers is an error that names it.
    code = (
        "import os\n"
        "from tessera import jit\n"
        f"p = jit.compile({SCALE!r}, ['scale<tessera::Layout<tessera::Int<64>>>'], arch=90, cache=False)\n"
        "dirs = [o[2:] for o in p.options if o.startswith('-I')]\n"
        "print(sum(os.path.isfile(os.path.join(d, 'tessera', 'tessera.hpp')) for d in dirs))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TESSERA_INCLUDE_DIR"}
    env["TESSERA_CACHE_DIR"] = str(tmp_path / "cache")
    run = lambda env: subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    r = run(env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "0"
    (tmp_path / "empty").mkdir()
    r = run(dict(env, TESSERA_INCLUDE_DIR=str(tmp_path / "empty")))
    assert r.returncode != 0
    assert "holds no tessera/tessera.hpp" in r.stderr


@needs_nvrtc
def test_disk_cache_in_a_new_process(tmp_path):
    code = (
        "from tessera import jit\n"
        f"p = jit.compile({SCALE!r}, ['scale<tessera::Layout<tessera::Int<128>>>'], arch=90)\n"
        "print(int(p.from_disk_cache))\n"
    )
    env = dict(os.environ, TESSERA_CACHE_DIR=str(tmp_path / "cache"))
    run = lambda: subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert run().stdout.strip() == "0"
    assert run().stdout.strip() == "1"


@needs_gpu
def test_launch_on_torch_tensors():
    x = torch.arange(64 * 32, dtype=torch.float32, device="cuda").reshape(64, 32)
    expect = 3 * x
    layout = jit.layout_of(x)
    k = jit.compile(SCALE, [f"scale<{jit.spell(layout)}>"]).kernel(0)
    k(x.numel() // 128, 128, x, 3.0)
    torch.cuda.synchronize()
    assert torch.equal(x, expect)
    assert k.info().local_bytes == 0
    with pytest.raises(jit.JitError, match="takes 2 arguments, given 1"):
        k(1, 32, x)
    with pytest.raises(jit.JitError, match="does not fit"):
        k(1, 32, x, "three")


@needs_gpu
def test_transposed_view_gets_its_own_layout():
    base = torch.arange(16 * 8, dtype=torch.float32, device="cuda").reshape(16, 8)
    x = base.t()  # (8,16):(1,8)
    layout = jit.layout_of(x)
    assert str(layout) == "(_8,_16):(_1,_8)"
    k = jit.compile(SCALE, [f"scale<{jit.spell(layout)}>"]).kernel(0)
    k(1, 128, x, 2.0)
    torch.cuda.synchronize()
    assert torch.equal(base, 2 * torch.arange(16 * 8, dtype=torch.float32, device="cuda").reshape(16, 8))
