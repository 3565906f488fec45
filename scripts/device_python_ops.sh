#!/usr/bin/env bash
# On a GPU machine (sm_90: H100/H200) with Python, torch, pybind11, scikit-build-core and pytest
# installed: builds and installs the Python package (tessera._ops, whose kernels the JIT compiles
# on first use: no nvcc needed) into a private folder, runs the Python test suite (tests/python,
# the ops tests with torch included) and the call-overhead timing of tessera.ops.add next to
# torch.add. No network is needed (pip builds with what is installed). Run from anywhere:
#
#   OUT=/some/folder scripts/device_python_ops.sh
#
# Writes to $OUT (default: ./device-python-ops-out): build.log (pip and CMake, with the build's
# wall time), pytest.log (the suite, with skip reasons) and pytest.xml, overhead.txt (the timing),
# env.txt (versions, GPU), summary.txt (one line a step, with its exit status and time).
# TESSERA_CLI (the `tessera` command the differential tests compare with) defaults to
# build-device/bin/tessera when that exists. The build uses every core (CMAKE_BUILD_PARALLEL_LEVEL).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
out=${OUT:-$repo/device-python-ops-out}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-ops.XXXXXX")
site="$work/site"
if [ -d /usr/local/cuda/bin ] && ! command -v nvcc >/dev/null; then export PATH="/usr/local/cuda/bin:$PATH"; fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
if [ -z "${TESSERA_CLI:-}" ] && [ -x "$repo/build-device/bin/tessera" ]; then export TESSERA_CLI="$repo/build-device/bin/tessera"; fi

summary="$out/summary.txt"
: >"$summary"
# step NAME LOG CMD...: runs CMD with its output in LOG, records the exit status and wall time.
step() {
  local name=$1 log=$2
  shift 2
  local start end rc=0
  start=$(date +%s.%N)
  "$@" >"$log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  printf '%-10s exit %3d  %7.1f s\n' "$name" "$rc" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" | tee -a "$summary"
  return $rc
}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1
  nvcc --version 2>&1 | tail -1
  python3 -c 'import sys, torch, pybind11; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "pybind11", pybind11.__version__)' 2>&1
  echo "CMAKE_BUILD_PARALLEL_LEVEL=$CMAKE_BUILD_PARALLEL_LEVEL TESSERA_CLI=${TESSERA_CLI:-}"
} >"$out/env.txt"

if ! step build "$out/build.log" timeout 400 python3 -m pip install --no-build-isolation --no-deps -v ./python -t "$site" \
    --config-settings=build-dir="$work/build"; then
  echo "build failed: see $out/build.log" | tee -a "$summary"
  exit 1
fi

export PYTHONPATH="$site"
export PYTHONPYCACHEPREFIX="$work/pycache"
(cd "$work" && python3 -c 'import tessera.ops as o; print("tessera.ops available:", o.available(), "gemm:", o.available() and o._ops.have_gemm(), "devices:", o.available() and o._ops.device_count())' 2>&1 | tee -a "$summary")
# From a folder outside the repository, so that `import tessera` finds the installed package.
(cd "$work" && step pytest "$out/pytest.log" timeout 300 python3 -m pytest -q -rs -p no:cacheprovider \
  --junitxml="$out/pytest.xml" "$repo/tests/python")
(cd "$work" && step overhead "$out/overhead.txt" timeout 120 python3 "$repo/python/benchmarks/ops_overhead.py")
tail -3 "$out/pytest.log" >>"$summary"
cat "$out/overhead.txt" >>"$summary"
rm -rf "$work"
