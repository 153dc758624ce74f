#!/usr/bin/env bash
# The main job: build tridi in Release and run `tridi bench`, which verifies
# and benchmarks the library on this machine (the CPU always, the GPU too
# when there is one), against LAPACK (and cuSPARSE on a GPU) in the same run.
# Results: a table on stdout, CSV (and a PNG plot when matplotlib is present)
# under bench/results/.  Extra arguments go to `tridi bench`, e.g.
#   ./scripts/bench.sh --quick
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DTRIDI_BUILD_TESTS=OFF >/dev/null
cmake --build build/bench -j "$jobs"
mkdir -p bench/results
host=$(hostname -s 2>/dev/null || echo host)
csv="bench/results/bench-$(date -u +%Y%m%d-%H%M%S)-${host}.csv"
./build/bench/tools/tridi info
./build/bench/tools/tridi bench --csv "$csv" "$@"
echo "CSV written to $csv"
# plot with the first Python that has matplotlib (a pyenv python3 may lack it)
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import matplotlib' >/dev/null 2>&1; then
    "$py" scripts/plot_bench.py "$csv" -o "${csv%.csv}.png" && echo "plot written to ${csv%.csv}.png"
    break
  fi
done
