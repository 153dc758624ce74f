#!/usr/bin/env bash
# The main job: build tridi in Release and run `tridi bench`, which verifies
# and benchmarks the library on this machine (the CPU always, the GPU too
# when there is one), against LAPACK (and cuSPARSE on a GPU) in the same run.
# Results: a table on stdout; CSV (and a PNG plot when matplotlib is present)
# under build/bench/results/, or under bench/results/ (the recorded runs
# that are committed) with --record.  Other arguments go to `tridi bench`:
#   ./scripts/bench.sh --quick
#   ./scripts/bench.sh --record --backend cpu --dtype f64
# Exit status: that of `tridi bench` (0 verified, 1 a case failed, 2 usage).
set -euo pipefail
cd "$(dirname "$0")/.."
record=0
args=()
for a in "$@"; do
  if [ "$a" = "--record" ]; then record=1; else args+=("$a"); fi
done
./scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DTRIDI_BUILD_TESTS=OFF >/dev/null
cmake --build build/bench -j "$jobs"
outdir=build/bench/results
[ "$record" = 1 ] && outdir=bench/results
mkdir -p "$outdir"
host=$(hostname -s 2>/dev/null || echo host)
csv="$outdir/bench-$(date -u +%Y%m%d-%H%M%S)-${host}.csv"
./build/bench/tools/tridi info
rc=0
./build/bench/tools/tridi bench --csv "$csv" ${args[@]+"${args[@]}"} || rc=$?
echo "CSV written to $csv"
[ "$record" = 1 ] && echo "recorded: add a line for it to bench/results/README.md"
# plot with the first Python that has matplotlib (a pyenv python3 may lack it)
plotted=0
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import matplotlib' >/dev/null 2>&1; then
    "$py" scripts/plot_bench.py "$csv" -o "${csv%.csv}.png" && plotted=1
    break
  fi
done
if [ "$plotted" = 1 ]; then
  echo "plot written to ${csv%.csv}.png"
else
  echo "plot skipped: no python3 here has matplotlib (apt-get install python3-matplotlib, or" \
       "pip install matplotlib in a venv), then: python3 scripts/plot_bench.py $csv -o ${csv%.csv}.png"
fi
exit "$rc"
