#!/usr/bin/env bash
# Nsight Compute profile of chosen tridi CUDA cases on the lent GPU (the
# figures of docs/perf-log.md CUDA v20), after `scripts/gpu.sh build`:
#
#   CASES="f32:interleaved:32 f64:contig:4096" OUT=... scripts/gpu-prof.sh
#
# Each case is DTYPE:LAYOUT:N (layouts of `tridi bench`); one solver launch
# of each is profiled (256 MiB working set) and $OUT/prof_DTYPE_LAYOUT_N.txt
# gets the full ncu report; the key lines are printed.  KERNEL (an ncu
# kernel-name regex, default tridi_thomas_pcr) picks the launch and
# BENCH_ARGS adds bench options, e.g.
#   KERNEL=rpts_tile BENCH_ARGS="--pivot partial" CASES=f32:contig:512 scripts/gpu-prof.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out-gpu}
BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
[ -x "$BUILD/tools/tridi" ] || OUT=$OUT bash scripts/gpu.sh build >/dev/null 2>&1
[ -d /opt/tridi-deps ] && export LD_LIBRARY_PATH=/opt/tridi-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
for c in ${CASES:-f32:interleaved:32 f64:interleaved:32 f32:contig:32}; do
  IFS=: read -r dt lay n <<<"$c"
  f=$OUT/prof_${dt}_${lay}_${n}.txt
  ncu --kernel-name "regex:${KERNEL:-tridi_thomas_pcr}" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section InstructionStats \
    --section LaunchStats --section SchedulerStats ${NCU_EXTRA:-} \
    --metrics smsp__inst_executed.sum,sm__cycles_elapsed.avg,dram__bytes.sum \
    "$BUILD/tools/tridi" bench --backend cuda --no-baseline --dtype "$dt" --layout "$lay" --n "$n" \
    --size-mb 256 --reps 2 --quiet ${BENCH_ARGS:-} >"$f" 2>&1
  echo "== $c rc=$?"
  grep -E "${KERNEL:-thomas_pcr}|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|No Eligible|Warp Cycles Per Issued|smsp__inst_executed.sum|dram__bytes.sum" "$f"
done
