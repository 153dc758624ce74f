#!/usr/bin/env bash
# The main job: build tridi in Release and run `tridi bench`, which verifies
# and benchmarks the library on this machine (the CPU always, the GPU too
# when there is one), against LAPACK (and cuSPARSE on a GPU) in the same run.
# Results: a table on stdout; CSV and a PNG plot under build/bench/results/,
# or under bench/results/ (the recorded runs that are committed) with
# --record.  The plot needs matplotlib: the first python3 that has it, else
# one installed with pip into a virtual environment (build/plotvenv); where
# neither works (no venv module, no network) the script says that it skipped
# the plot and why.  --no-plot skips it.  Needs no test framework (cmocka):
# scripts/deps.sh bench.  Other arguments go to `tridi bench`:
#   ./scripts/bench.sh --quick
#   ./scripts/bench.sh --record --backend cpu --dtype f64
# Exit status: that of `tridi bench` (0 verified, 1 a case failed, 2 usage).
set -euo pipefail
cd "$(dirname "$0")/.."
record=0 plot=1
args=()
for a in "$@"; do
  case "$a" in
    --record) record=1 ;;
    --no-plot) plot=0 ;;
    *) args+=("$a") ;;
  esac
done
./scripts/deps.sh bench
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
# plot: the first Python that has matplotlib (a pyenv python3 may lack it),
# else a virtual environment with matplotlib from pip
plot_py="" why=""
if [ "$plot" = 1 ]; then
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import matplotlib' >/dev/null 2>&1; then
      plot_py=$py
      break
    fi
  done
  venv=build/plotvenv
  if [ -z "$plot_py" ] && [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
    plot_py=$venv/bin/python
  fi
  if [ -z "$plot_py" ]; then
    if ! command -v python3 >/dev/null 2>&1; then
      why="no python3"
    elif ! python3 -m venv "$venv" >build/plotvenv.log 2>&1; then
      why="python3 -m venv failed (install python3-venv; see build/plotvenv.log)"
    elif ! "$venv/bin/python" -m pip install -q matplotlib >>build/plotvenv.log 2>&1; then
      why="pip install matplotlib into $venv failed (no network?; see build/plotvenv.log)"
    else
      plot_py=$venv/bin/python
    fi
  fi
else
  why="--no-plot"
fi
if [ -n "$plot_py" ] && "$plot_py" scripts/plot_bench.py "$csv" -o "${csv%.csv}.png"; then
  echo "plot written to ${csv%.csv}.png"
else
  [ -n "$why" ] || why="scripts/plot_bench.py failed"
  echo "plot skipped: $why; to plot later: python3 scripts/plot_bench.py $csv -o ${csv%.csv}.png" \
       "(needs matplotlib)"
fi
exit "$rc"
