#!/usr/bin/env python3
"""The costs of tessera.jit on a GPU machine with torch: compiling, loading from the disk cache in a
new process, and calling a compiled kernel, next to torch.add's call.

    python3 python/benchmarks/jit_overhead.py [--calls 2000] [--repeats 15]

Prints (every time a median):
  - compile, empty cache: the thread-value add kernel of the seeds (one sm_90a cubin), in seconds;
  - import to first launch from the disk cache in a new process: `import tessera` (and torch's
    import, timed apart) to the return of the first launch, in milliseconds;
  - a cached kernel's call on a 32x32 fp16 tensor (host time of the call, synchronizing after each
    call outside the timed region), next to torch.add(a, b, out=c) measured the same way.
Each kernel's result is checked against torch before anything is timed.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ADD = r"""
#include "tessera/tessera.hpp"
#include <cuda_fp16.h>
// c = a + b over one layout, one element per thread.
template <class Layout>
__global__ void add(__half const* a, __half const* b, __half* c) {
  auto ta = tessera::make_tensor(tessera::make_gmem_ptr(a), Layout{});
  auto tb = tessera::make_tensor(tessera::make_gmem_ptr(b), Layout{});
  auto tc = tessera::make_tensor(tessera::make_gmem_ptr(c), Layout{});
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tessera::size(ta)) tc(i) = __hadd(ta(i), tb(i));
}
"""

CHILD = r"""
import time
t0 = time.perf_counter()
import torch
a = torch.ones(32, 32, dtype=torch.float16, device="cuda")
c = torch.empty_like(a)
torch.cuda.synchronize()
t1 = time.perf_counter()
import tessera
from tessera import jit
k = jit.compile(SOURCE, ["add<" + jit.spell(jit.layout_of(a)) + ">"]).kernel(0)
k(1, 1024, a, a, c)
t2 = time.perf_counter()
torch.cuda.synchronize()
assert torch.equal(c, a + a)
print(f"{(t1 - t0) * 1e3:.1f} {(t2 - t1) * 1e3:.2f}")
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()

    import torch
    from ops_overhead import per_call_host_ns  # beside this script: the same host-time measure

    from tessera import jit

    cache = tempfile.mkdtemp(prefix="tessera-jit-bench-")
    os.environ["TESSERA_CACHE_DIR"] = cache
    a = torch.randn(32, 32, dtype=torch.float16, device="cuda")
    b = torch.randn(32, 32, dtype=torch.float16, device="cuda")
    c = torch.empty_like(a)
    name = "add<" + jit.spell(jit.layout_of(a)) + ">"

    compile_s = []
    for r in range(5):
        p = jit.compile(ADD + f"// run {r}\n", [name], cache=False)
        compile_s.append(p.compile_seconds)
    k = jit.compile(ADD, [name]).kernel(0)
    k(1, 1024, a, b, c)
    torch.cuda.synchronize()
    assert torch.equal(c, a + b), "the JIT-compiled add disagrees with torch"
    print(f"compile, empty cache (thread-value add, sm_90a cubin): median {statistics.median(compile_s):.3f} s "
          f"(min {min(compile_s):.3f}, max {max(compile_s):.3f}, 5 compiles)")

    env = dict(os.environ, TESSERA_CACHE_DIR=cache)
    code = CHILD.replace("SOURCE", repr(ADD))
    rows = []
    for _ in range(7):
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        rows.append([float(x) for x in out.stdout.split()])
    torch_imp = statistics.median(r[0] for r in rows)
    first = statistics.median(r[1] for r in rows)
    print(f"new process, disk cache: import tessera + compile (cache hit) + first launch: median {first:.2f} ms "
          f"(torch's import and CUDA start before it, apart: {torch_imp:.0f} ms; 7 processes)")

    kernel_ns, torch_ns = [], []
    for _ in range(args.repeats):
        kernel_ns.append(per_call_host_ns(lambda: k(1, 1024, a, b, c), args.calls // args.repeats or 1))
        torch_ns.append(per_call_host_ns(lambda: torch.add(a, b, out=c), args.calls // args.repeats or 1))
    kn, tn = statistics.median(kernel_ns), statistics.median(torch_ns)
    print(f"call on 32x32 fp16: tessera.jit kernel {kn / 1e3:.2f} us, torch.add(out=) {tn / 1e3:.2f} us, "
          f"ratio {kn / tn:.2f}")


if __name__ == "__main__":
    main()
