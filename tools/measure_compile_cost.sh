#!/usr/bin/env bash
# Measures what including Tessera costs at compile time and prints a Markdown table
# (docs/performance.md, "Compile cost"). Each row is the median wall time of RUNS compilations of
#   $CXX -std=c++20 -O2 -c <file> -o /dev/null
# timed with hyperfine when installed, else /usr/bin/time -f %e.
# Usage: tools/measure_compile_cost.sh            (CXX=g++ RUNS=5 by default)
#        CXX=clang++ RUNS=9 tools/measure_compile_cost.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CXX=${CXX:-g++}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT

# 1. Baseline: an empty translation unit (the compiler's fixed start-up cost).
: >"${work}/empty.cpp"

# 2. The umbrella header in an otherwise empty translation unit.
printf '#include "tessera/tessera.hpp"\n' >"${work}/include_only.cpp"

# 3. A handful of algebra operations on static layouts, instantiated and evaluated.
cat >"${work}/algebra_ops.cpp" <<'CPP'
#include "tessera/tessera.hpp"
using namespace tessera;
// (thr,val) -> (m,n): 128 threads x (4,8) values, and 32 threads x (1,4) values.
auto tv_a = make_layout_tv(make_layout(make_tuple(_4{}, _32{}), make_tuple(_32{}, _1{})),
                           make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{})));
auto tv_b = make_layout_tv(make_layout(make_tuple(_4{}, _8{}), make_tuple(_8{}, _1{})),
                           make_layout(make_tuple(_1{}, _4{})));
// (m,n) -> offset of a 128x64 tile split into (_16,_8) tiles: ((tile),(rest)).
auto tiles = zipped_divide(make_layout(make_tuple(_128{}, _64{})), make_tuple(_16{}, _8{}));
// (_6,_2):(_8,_2) o (_4,_3):(_3,_1).
auto composed = composition(make_layout(make_tuple(_6{}, _2{}), make_tuple(_8{}, _2{})),
                            make_layout(make_tuple(_4{}, _3{}), make_tuple(_3{}, _1{})));
int offsets(int i) {
  return int(get<1>(tv_a)(i)) + int(get<1>(tv_b)(i % 128)) + int(tiles(i)) + int(composed(i % 12));
}
CPP

# median of the arguments (sorted numerically)
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_one FILE: prints RUNS lines "wall cpu" in seconds (cpu = user + system; it is less
# sensitive than wall time to other jobs on a shared machine)
time_one() {
  local src=$1 i
  local cmd=("${CXX}" -std=c++20 -O2 -I"${root}/include" -c "${src}" -o /dev/null)
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --runs "${RUNS}" --warmup 1 --export-json "${work}/h.json" --style none "${cmd[*]}" >/dev/null
    python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["results"][0]
[print(t, u + s) for t, u, s in zip(r["times"], r["user"] if isinstance(r["user"], list) else [r["user"]] * len(r["times"]),
                                     r["system"] if isinstance(r["system"], list) else [r["system"]] * len(r["times"]))]' "${work}/h.json"
  else
    "${cmd[@]}"  # warm-up (file cache), not counted
    for ((i = 0; i < RUNS; ++i)); do
      /usr/bin/time -f '%e %U %S' -o "${work}/t" "${cmd[@]}"
      awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "${work}/t"
    done
  fi
}

echo "compiler: $("${CXX}" --version | head -n 1)"
echo "command:  ${CXX} -std=c++20 -O2 -I include -c <file> -o /dev/null   (median of ${RUNS} runs)"
echo "cores:    $(nproc)   date: $(date +%F)"
echo
echo "| translation unit | wall median (s) | wall min–max (s) | CPU median (s) |"
echo "| --- | ---: | ---: | ---: |"
for name in empty include_only algebra_ops; do
  mapfile -t rows < <(time_one "${work}/${name}.cpp")
  walls=($(printf '%s\n' "${rows[@]}" | awk '{ print $1 }' | sort -g))
  cpus=($(printf '%s\n' "${rows[@]}" | awk '{ print $2 }'))
  printf '| %s | %s | %s–%s | %s |\n' "${name}.cpp" "$(median "${walls[@]}")" "${walls[0]}" "${walls[-1]}" \
    "$(median "${cpus[@]}")"
done
echo
echo "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg)"
