"""Runs a kernel the kernel language generated on the host: its C++ compiled by the host compiler
as a plain function, the threads of the grid one after the other. For kernels without barriers,
shared memory or asynchronous copies (the adds, copies between layouts), this checks on a machine
without a GPU that the lowered C++ computes what the program says: its offsets, vector moves and
run-time extents. ``available()`` says whether a host compiler and the CUDA headers are there."""

import ctypes
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
CUDA_INCLUDE = next((p for p in ("/usr/local/cuda/include", "/usr/include") if os.path.isfile(f"{p}/cuda_fp16.h")), None)
CXX = shutil.which("g++") or shutil.which("c++")

_PRELUDE = """
struct tessera_host_dim3 { unsigned x, y, z; };
static tessera_host_dim3 tessera_host_threadIdx, tessera_host_blockIdx;
#define threadIdx tessera_host_threadIdx
#define blockIdx tessera_host_blockIdx
"""


def available():
    if CXX is None:
        return False, "no host C++ compiler"
    if CUDA_INCLUDE is None:
        return False, "no cuda_fp16.h (the CUDA toolkit's headers)"
    return True, ""


def run(compiled, *arrays, kernel=0):
    """Runs launch ``kernel`` of ``compiled`` over ``arrays`` (ctypes arrays, one per tensor
    parameter in order), with the grid, block and run-time values the trace recorded."""
    kt, grid, block, _smem, _binds = compiled._trace.launches[kernel]
    src = compiled.source
    head = re.search(r'extern "C" __global__ void __launch_bounds__\(\d+\) (\w+)\((.*)\) \{', src)
    name, params = head.group(1), [p.strip() for p in head.group(2).split(",")]
    src = src.replace(head.group(0), f'extern "C" void {name}({head.group(2)}) {{')
    src = src.replace("using namespace tessera;", "using namespace tessera;\n" + _PRELUDE, 1)
    calls = []
    for i, p in enumerate(params):
        ty = p.rsplit(" ", 1)[0]
        calls.append(f"*({ty}*)args[{i}]" if ty.startswith("tessera_dyn_") else f"({ty})args[{i}]")
    src += f"""
extern "C" void tessera_host_launch(void** args) {{
  for (unsigned bz = 0; bz < {grid[2]}; ++bz) for (unsigned by = 0; by < {grid[1]}; ++by)
  for (unsigned bx = 0; bx < {grid[0]}; ++bx) for (unsigned tz = 0; tz < {block[2]}; ++tz)
  for (unsigned ty = 0; ty < {block[1]}; ++ty) for (unsigned tx = 0; tx < {block[0]}; ++tx) {{
    blockIdx = {{bx, by, bz}};
    threadIdx = {{tx, ty, tz}};
    {name}({", ".join(calls)});
  }}
}}
"""
    with tempfile.TemporaryDirectory() as d:
        cpp, so = os.path.join(d, "k.cpp"), os.path.join(d, "k.so")
        with open(cpp, "w", encoding="utf-8") as f:
            f.write(src)
        r = subprocess.run([CXX, "-std=c++20", "-O1", "-shared", "-fPIC", "-w", f"-I{REPO / 'include'}",
                            f"-I{CUDA_INCLUDE}", cpp, "-o", so], capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(f"the host compiler refused the generated C++:\n{r.stderr}\n{src}")
        lib = ctypes.CDLL(so)
        ptrs = [ctypes.cast(a, ctypes.c_void_p) for a in arrays]
        if kt.dyn:
            dyn = (ctypes.c_longlong * len(kt.dyn))(*kt.dyn)
            ptrs.append(ctypes.cast(dyn, ctypes.c_void_p))
        argv = (ctypes.c_void_p * len(ptrs))(*[p.value for p in ptrs])
        lib.tessera_host_launch(argv)
