"""Runs a kernel the kernel language generated on the host: its C++ compiled by the host compiler
as a plain function. The blocks run one after the other; a block's threads one after the other,
or, when the kernel has __syncthreads(), as host threads meeting at a std::barrier (its shared
memory one static array the block's threads share). For kernels without asynchronous copies or
tensor-core instructions this checks on a machine without a GPU that the lowered C++ computes what
the program says: its offsets, vector moves, run-time extents and barriers. ``available()`` says
whether a host compiler and the CUDA headers are there."""

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
#include <barrier>
#include <thread>
#include <vector>
struct tessera_host_dim3 { unsigned x, y, z; };
static thread_local tessera_host_dim3 tessera_host_threadIdx;
static tessera_host_dim3 tessera_host_blockIdx;
static std::barrier<>* tessera_host_barrier = nullptr;
#define threadIdx tessera_host_threadIdx
#define blockIdx tessera_host_blockIdx
#define __syncthreads() tessera_host_barrier->arrive_and_wait()

// mma.sync m16n8k16 (fp16 or bf16 in, fp32 accumulators) for a warp of host threads: each lane
// leaves its registers in the warp's slot, the block meets, each lane computes its four results
// from every lane's registers by the PTX ISA's fragment layout, and the block meets again (every
// thread of the block issues the same MMAs in the same order).
struct tessera_host_mma_regs { std::uint32_t a[4], b[2]; };
static tessera_host_mma_regs tessera_host_mma_slot[32][32];  // [warp][lane]
// ldmatrix (.x1/.x2/.x4, .trans or not) for a warp of host threads: each lane leaves the address
// of the row it names, the block meets, each lane gathers its registers by the PTX ISA's layout.
static unsigned short const* tessera_host_ldsm_rows[32][32];  // [warp][lane]
template <int N, bool Trans, class... R>
static void tessera_host_ldsm(tessera::uint128_t const& src, R&... regs) {
  unsigned lane = tessera_host_threadIdx.x % 32, warp = tessera_host_threadIdx.x / 32;
  tessera_host_ldsm_rows[warp][lane] = reinterpret_cast<unsigned short const*>(&src);
  tessera_host_barrier->arrive_and_wait();
  std::uint32_t out[N];
  for (int i = 0; i < N; ++i) {
    unsigned short lo, hi;
    if (!Trans) {  // row lane/4 of matrix i, columns 2 (lane % 4) and + 1
      unsigned short const* row = tessera_host_ldsm_rows[warp][8 * i + lane / 4];
      lo = row[2 * (lane % 4)];
      hi = row[2 * (lane % 4) + 1];
    } else {  // column lane/4 of matrix i, rows 2 (lane % 4) and + 1
      lo = tessera_host_ldsm_rows[warp][8 * i + 2 * (lane % 4)][lane / 4];
      hi = tessera_host_ldsm_rows[warp][8 * i + 2 * (lane % 4) + 1][lane / 4];
    }
    out[i] = std::uint32_t(lo) | (std::uint32_t(hi) << 16);
  }
  tessera_host_barrier->arrive_and_wait();
  int k = 0;
  ((regs = out[k++]), ...);
}

template <bool Bf16>
static float tessera_host_half(std::uint32_t reg, int hi) {
  unsigned short bits = static_cast<unsigned short>(hi ? reg >> 16 : reg & 0xffff);
  if (Bf16) {
    std::uint32_t f = std::uint32_t(bits) << 16;
    float x;
    __builtin_memcpy(&x, &f, 4);
    return x;
  }
  __half_raw r;
  r.x = bits;
  return __half2float(__half(r));
}
template <bool Bf16>
static void tessera_host_mma(float& d0, float& d1, float& d2, float& d3, std::uint32_t const& a0,
                             std::uint32_t const& a1, std::uint32_t const& a2, std::uint32_t const& a3,
                             std::uint32_t const& b0, std::uint32_t const& b1, float const& c0, float const& c1,
                             float const& c2, float const& c3) {
  unsigned lane = tessera_host_threadIdx.x % 32, warp = tessera_host_threadIdx.x / 32;
  tessera_host_mma_slot[warp][lane] = {{a0, a1, a2, a3}, {b0, b1}};
  tessera_host_barrier->arrive_and_wait();
  auto A = [&](int row, int k) {  // A is 16 x 16, row-major fragments
    int l = (row % 8) * 4 + (k % 8) / 2;
    int reg = (row >= 8 ? 1 : 0) + (k >= 8 ? 2 : 0);
    return tessera_host_half<Bf16>(tessera_host_mma_slot[warp][l].a[reg], k % 2);
  };
  auto B = [&](int k, int col) {  // B is 16 x 8, column fragments
    int l = col * 4 + (k % 8) / 2;
    return tessera_host_half<Bf16>(tessera_host_mma_slot[warp][l].b[k >= 8 ? 1 : 0], k % 2);
  };
  float c[4] = {c0, c1, c2, c3}, d[4];
  for (int i = 0; i < 4; ++i) {
    int row = int(lane / 4) + (i >= 2 ? 8 : 0), col = int(lane % 4) * 2 + i % 2;
    float acc = c[i];
    for (int k = 0; k < 16; ++k) acc += A(row, k) * B(k, col);
    d[i] = acc;
  }
  tessera_host_barrier->arrive_and_wait();
  d0 = d[0]; d1 = d[1]; d2 = d[2]; d3 = d[3];
}
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
    src = re.sub(r"__shared__ (alignas\(\d+\)) ", r"\1 static ", src)  # one array the block's threads share
    # the dynamic shared memory: one static buffer of the bytes the launch gives
    src = re.sub(r"extern __shared__ __align__\((\d+)\) unsigned char tessera_smem\[\];",
                 lambda m: f"alignas({m.group(1)}) static unsigned char tessera_smem[{max(_smem, 1)}];", src)
    # asynchronous copies complete by the wait, which the host's copies need not do
    src = re.sub(r"cp_async_bytes<(\d+)(, true)?>", r"move_bytes<\1>", src)
    src = src.replace("cp_async_fence();", "").replace("cp_async_wait<0>();", "")
    src = re.sub(r"named_barrier_sync\(\d+, \d+\);", "__syncthreads();", src)
    src = src.replace("SM80_16x8x16_F32F16F16F32_TN::fma(", "tessera_host_mma<false>(")
    src = re.sub(r"SM75_U32x(\d)_LDSM_N::copy\(", r"tessera_host_ldsm<\1, false>(", src)
    src = re.sub(r"SM75_U16x(\d)_LDSM_T::copy\(", lambda m: f"tessera_host_ldsm<{int(m.group(1)) // 2}, true>(", src)
    src = src.replace("SM80_16x8x16_F32BF16BF16F32_TN::fma(", "tessera_host_mma<true>(")
    calls = []
    for i, p in enumerate(params):
        ty = p.rsplit(" ", 1)[0]
        calls.append(f"*({ty}*)args[{i}]" if ty.startswith("tessera_dyn_") else f"({ty})args[{i}]")
    threads = block[0] * block[1] * block[2]
    call = f"{name}({', '.join(calls)});"
    if "__syncthreads()" in src or "tessera_host_mma" in src or "tessera_host_ldsm" in src:
        body = f"""
    std::barrier<> bar({threads});
    tessera_host_barrier = &bar;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < {threads}; ++t)
      pool.emplace_back([&, t] {{
        threadIdx = {{t % {block[0]}, t / {block[0]} % {block[1]}, t / ({block[0]} * {block[1]})}};
        {call}
      }});
    for (auto& th : pool) th.join();"""
    else:
        body = f"""
    for (unsigned t = 0; t < {threads}; ++t) {{
      threadIdx = {{t % {block[0]}, t / {block[0]} % {block[1]}, t / ({block[0]} * {block[1]})}};
      {call}
    }}"""
    src += f"""
extern "C" void tessera_host_launch(void** args) {{
  for (unsigned bz = 0; bz < {grid[2]}; ++bz) for (unsigned by = 0; by < {grid[1]}; ++by)
  for (unsigned bx = 0; bx < {grid[0]}; ++bx) {{
    blockIdx = {{bx, by, bz}};{body}
  }}
}}
"""
    with tempfile.TemporaryDirectory() as d:
        cpp, so = os.path.join(d, "k.cpp"), os.path.join(d, "k.so")
        with open(cpp, "w", encoding="utf-8") as f:
            f.write(src)
        r = subprocess.run([CXX, "-std=c++20", "-O1", "-shared", "-fPIC", "-pthread", "-w", f"-I{REPO / 'include'}",
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
