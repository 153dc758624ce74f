#!/usr/bin/env bash
# Build, test (CTest + compute-sanitizer memcheck/racecheck) and benchmark
# tridi's CUDA backend on a GPU machine, in one go.
#
#   scripts/gpu.sh [STAGES]      STAGES: comma list of build,test,sanitize,bench,varbench,
#                                tune,ctune,accuracy (default build,test,sanitize,bench,varbench)
#
# Environment:
#   OUT            where logs and CSV files go (default ./out-gpu)
#   BUILD          build directory (default build-gpu)
#   BENCH_ARGS     extra arguments of `tridi bench` (e.g. "--quick")
#   VAR_BENCH_ARGS extra arguments of `tridi bench --problem variable`
#   GPU_CMAKE_EXTRA extra CMake arguments of the build stage (e.g.
#                  "-DTRIDI_CUDA_TUNING=ON" for tile sweeps with the same build)
#   SAN_J          sanitize: compute-sanitizer jobs at once (default 6; every
#                  (tool, test group) pair is a job, each its own log under
#                  $OUT/sanitize/)
#   SAN_ONLY       sanitize: an extended regular expression; only the jobs
#                  whose line "TOOL BIN LABEL MAXN GROUP" matches it run
#                  (e.g. 'test_cuda .* test_(interleaved|middle)$')
#   TRIDI_GPU_DEPS folder of .deb files (cmocka, LAPACK) to unpack when the
#                  machine lacks them (default .devcarry/gpudeps, ignored by
#                  git: name .devcarry in the device call's carry list; see
#                  docs/cuda.md)
#
# The lent GPU of this workplace has CUDA, CMake and compilers but neither
# cmocka nor LAPACK; docs/cuda.md says how the .deb files are fetched and
# carried.  Without a GPU the test stage reports the GPU test as skipped and
# the sanitize and bench stages fail.  Everything the run prints is also in $OUT/*.log.
set -u -o pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${OUT:-$ROOT/out-gpu}
BUILD=${BUILD:-$ROOT/build-gpu}
STAGES=",${1:-build,test,sanitize,bench,varbench},"
mkdir -p "$OUT"
SUMMARY=$OUT/summary.log
: >"$SUMMARY"
say() { echo "== $*" | tee -a "$SUMMARY"; }
has() { [[ $STAGES == *",$1,"* ]]; }
t0=$(date +%s)
stamp() { echo "$(( $(date +%s) - t0 ))s"; }

export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  >"$OUT/build.log" 2>&1
say "device: $(sed -n 2p "$OUT/build.log")"

# ---- dependencies (cmocka, LAPACK) from carried .deb files ------------------
DEPS_DEBS=${TRIDI_GPU_DEPS:-$ROOT/.devcarry/gpudeps}
CMAKE_EXTRA=()
if { [ ! -f /usr/include/cmocka.h ] || ! ldconfig -p | grep -qE 'liblapack.so|libopenblas.so'; } &&
   [ -d "$DEPS_DEBS" ]; then
  P=/opt/tridi-deps
  for f in "$DEPS_DEBS"/*.deb; do dpkg -x "$f" "$P"; done
  L=$P/usr/lib/x86_64-linux-gnu
  ln -sf lapack/liblapack.so.3 "$L/liblapack.so.3"
  ln -sf lapack/liblapack.so.3 "$L/liblapack.so"
  ln -sf blas/libblas.so.3 "$L/libblas.so.3"
  ln -sf blas/libblas.so.3 "$L/libblas.so"
  ln -sf libcmocka.so.0 "$L/libcmocka.so"
  sed -i -e "s|-L/usr|-L$P/usr|g" -e "s|-I/usr|-I$P/usr|g" -e "s|^prefix=/usr|prefix=$P/usr|" \
    "$L"/pkgconfig/*.pc
  export LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  CMAKE_EXTRA+=(-DCMAKE_PREFIX_PATH=$P/usr -DCMAKE_LIBRARY_PATH=$L -DCMAKE_INCLUDE_PATH=$P/usr/include)
  say "deps: unpacked $(ls "$DEPS_DEBS"/*.deb | wc -l) packages into $P"
fi

rc_all=0
if has build; then
  say "build ($(stamp))"
  rm -rf "$BUILD"
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DTRIDI_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DTRIDI_CUDA_PTXAS_VERBOSE=ON \
    -DTRIDI_BUILD_EXAMPLES=OFF "${CMAKE_EXTRA[@]}" ${GPU_CMAKE_EXTRA:-} >>"$OUT/build.log" 2>&1 \
    || { say "configure FAILED"; tail -30 "$OUT/build.log"; exit 1; }
  cmake --build "$BUILD" -j "$(nproc)" >>"$OUT/build.log" 2>&1 \
    || { say "build FAILED"; grep -E "error" "$OUT/build.log" | head -30; exit 1; }
  say "build ok ($(stamp)); ptxas: $(grep -c ' 0 bytes spill stores' "$OUT/build.log") kernels without spills, $(grep -cE ' [1-9][0-9]* bytes spill stores' "$OUT/build.log") with"
fi

if has test; then
  say "ctest ($(stamp))"
  # the GPU test, and the bench smoke test of the tool; the CPU suite runs in CI
  # CTEST_J tests at once (default 4): they share the GPU, none needs it alone
  (cd "$BUILD" && ctest -j "${CTEST_J:-4}" --output-on-failure -R '^(cuda|tools\.)') >"$OUT/ctest.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && rc_all=1
  say "ctest rc=$rc ($(stamp)): $(grep -E 'tests passed|tests failed' "$OUT/ctest.log")"
  grep -E "Failed|\*\*\*" "$OUT/ctest.log" | head -20 | tee -a "$SUMMARY"
fi

if has sanitize; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  T=$BUILD/tests/cuda/test_cuda
  C=$BUILD/tests/cuda
  SAN=$OUT/sanitize
  rm -rf "$SAN" && mkdir -p "$SAN"
  # Every (tool, cmocka group) pair is one job, SAN_J of them at once
  # (default 6: the GPU is shared, compute-sanitizer is bound by the host
  # CPU); each job its own log, a line "tool LABELgroup rc=N".
  # jobs_of BIN LABEL MC_MAXN RC_MAXN GROUP...: the groups of BIN under
  # memcheck and racecheck, TRIDI_TEST_CUDA_MAXN for each ("-": none); a job
  # line is "TOOL BIN LABEL MAXN GROUP", "-" for an empty field
  jobs_of() {
    local bin=$1 label=${2:--} mc=$3 rc=$4 g
    shift 4
    for g in "$@"; do echo "memcheck $bin $label $mc $g"; done
    for g in "$@"; do echo "racecheck $bin $label $rc $g"; done
  }
  {
    jobs_of "$T" "" 700 300 test_contiguous test_interleaved test_middle test_padded test_tiles \
      test_inplace test_bcast test_empty test_bad_args
    jobs_of "$T" "" 100000 100000 test_breakdown test_many test_graph_capture test_two_streams \
      test_workspace
    # plans of many n alive together (a kernel's shared-memory attribute)
    jobs_of "$T" "" 4096 4096 test_live_plans
    # variable-size batches: tiles, breakdown re-check, long systems in
    # segments (three launches and clusters), interleaved batches of many
    # groups in several bins, graph capture
    jobs_of "$C/test_varbatch_cuda" var. 100000 100000 gpu_distributions gpu_long gpu_breakdown \
      gpu_inter_many gpu_inter_wide gpu_graph gpu_packed_edges gpu_segments
    # the pivoting rows (the partition kernel, v1's tile, streamed and workspace
    # kernels, the exact fallback) and TRIDI_PIVOT_AUTO's second pass
    jobs_of "$C/test_pivot_cuda" pivot. - - gpu_lu_breakdown gpu_lu_layouts gpu_auto gpu_auto_graph gpu_tiles
    # the cuSPARSE-shaped entry points: every device array exactly its
    # cuSPARSE size, so memcheck reports any access outside that storage
    jobs_of "$C/test_compat_cuda" compat. - - test_strided test_interleaved test_interleaved_pivot \
      test_nopivot test_streams test_args
    # tridi_info_check: its reduction, and the capture rule
    jobs_of "$C/test_growth_cuda" growth. - - gpu_info_check_capture
    # the FFT's passes, layouts, graph capture and argument checks
    jobs_of "$C/test_fft_cuda" fft. - - gpu_layouts gpu_naive gpu_graph gpu_args
  } >"$SAN/jobs.all"
  grep -E -- "${SAN_ONLY:-.}" "$SAN/jobs.all" >"$SAN/jobs.txt" || { say "sanitize: SAN_ONLY matches no job"; rc_all=1; }
  # one job: TOOL BIN LABEL MAXN GROUP
  san_job() {
    local tool=$1 bin=$2 label=$3 mx=$4 g=$5 extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    [ "$mx" = - ] && mx=
    [ "$label" = - ] && label=
    env ${mx:+TRIDI_TEST_CUDA_MAXN=$mx} timeout 400 "$CS" --tool "$tool" --error-exitcode 99 \
      "${extra[@]}" "$bin" "$g" >"$SAN/$tool.$label$g.log" 2>&1
    echo "$tool $label$g rc=$?"
  }
  export -f san_job
  export CS SAN
  say "compute-sanitizer memcheck and racecheck, $(wc -l <"$SAN/jobs.txt") jobs, ${SAN_J:-6} at once ($(stamp))"
  # Information, not a failure (beside the pool): do the CUDA kernels read
  # a[0] / c[n-1]?  (tridi.h allows it on the CUDA backend.)  With exact
  # device arrays the ignored elements outside the harness's buffers are
  # outside the device allocation too; memcheck's count says whether a
  # kernel reads them.
  for filt in test_contiguous test_interleaved test_padded test_middle; do
    (TRIDI_TEST_DEV_EXACT=1 TRIDI_TEST_CUDA_MAXN=700 timeout 400 "$CS" --tool memcheck \
      --error-exitcode 99 "$T" "$filt" >"$OUT/sanitize_exact_$filt.log" 2>&1
     echo "memcheck exact $filt rc=$? ($(grep -c 'Invalid __global__ read' "$OUT/sanitize_exact_$filt.log") invalid reads)" \
       >"$SAN/exact_$filt.txt") &
  done
  xargs -P "${SAN_J:-6}" -L 1 bash -c 'san_job "$@"' _ <"$SAN/jobs.txt" >"$SAN/rc.txt"
  wait
  # the lines and logs in the job list's order
  : >"$OUT/sanitize.log"
  while read -r tool bin label mx g; do
    [ "$label" = - ] && label=
    grep -m1 -F "$tool $label$g rc=" "$SAN/rc.txt" | tee -a "$SUMMARY"
    cat "$SAN/$tool.$label$g.log" >>"$OUT/sanitize.log"
  done <"$SAN/jobs.txt"
  grep -q ' rc=[1-9]' "$SAN/rc.txt" && rc_all=1
  [ "$(wc -l <"$SAN/rc.txt")" -eq "$(wc -l <"$SAN/jobs.txt")" ] || { say "sanitize: jobs missing"; rc_all=1; }
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitize.log" | sort | uniq -c | tee -a "$SUMMARY"
  say "compute-sanitizer memcheck, exact arrays: reads of a[0] / c[n-1] ($(stamp))"
  cat "$SAN"/exact_*.txt | tee -a "$SUMMARY"
fi

if has bench; then
  say "bench ($(stamp))"
  "$BUILD/tools/tridi" bench --backend cuda --csv "$OUT/bench_gpu.csv" ${BENCH_ARGS:-} \
    >"$OUT/bench.log" 2>"$OUT/bench_err.log"
  rc=$?
  say "bench rc=$rc ($(stamp))"
  [ $rc -ne 0 ] && rc_all=1
  grep "copy bandwidth" "$OUT/bench_err.log" | tee -a "$SUMMARY"
  cat "$OUT/bench.log"
fi

if has varbench; then
  say "varbench ($(stamp))"
  "$BUILD/tools/tridi" bench --problem variable --backend cuda --csv "$OUT/bench_var_gpu.csv" \
    ${VAR_BENCH_ARGS:-} >"$OUT/bench_var.log" 2>"$OUT/bench_var_err.log"
  rc=$?
  say "varbench rc=$rc ($(stamp))"
  [ $rc -ne 0 ] && rc_all=1
  tail -1 "$OUT/bench_var_err.log" | tee -a "$SUMMARY"
fi

if has accuracy; then
  # the accuracy table on the GPU (docs/accuracy.md, "On the GPU"): exit
  # status 1 when a solver that promises it returned a system with info 0
  # above 10 n eps (the cases are on stderr, in the log)
  say "accuracy ($(stamp))"
  "$BUILD/tools/tridi" accuracy --backend cuda -o "$OUT/accuracy_gpu.csv" \
    2>"$OUT/accuracy_gpu.log"
  rc=$?
  say "accuracy rc=$rc ($(stamp))"
  [ $rc -ne 0 ] && rc_all=1
  head -20 "$OUT/accuracy_gpu.log" | tee -a "$SUMMARY"
  python3 scripts/plot_accuracy.py "$OUT/accuracy_gpu.csv" --table --metric resid_max \
    >"$OUT/accuracy_gpu.md" 2>>"$OUT/accuracy_gpu.log"
fi

if has tune; then
  # tile sweep for src/cuda/tuning.h: a second build whose plans take the
  # tile from TRIDI_CUDA_M / TRIDI_CUDA_THREADS (docs/cuda.md)
  say "tune ($(stamp))"
  TB=$BUILD-tune
  cmake -S . -B "$TB" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DTRIDI_ENABLE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DTRIDI_CUDA_TUNING=ON -DTRIDI_BUILD_TESTS=OFF \
    -DTRIDI_BUILD_EXAMPLES=OFF "${CMAKE_EXTRA[@]}" >"$OUT/build.log" 2>&1 &&
    cmake --build "$TB" -j "$(nproc)" --target tridi_cmd >>"$OUT/build.log" 2>&1 ||
    { say "tune build FAILED"; tail -20 "$OUT/build.log"; }
  : >"$OUT/tune.csv"
  # each config is M:threads[:dtypes] (M = 32 is compiled for f32 only)
  for cfg in ${TUNE_CFGS:-4:128 4:256 8:128 8:256 8:512 16:256 16:512 32:512:f32}; do
    IFS=: read -r m th dts <<<"$cfg"
    dts=${dts:-f32,f64}
    TRIDI_CUDA_M=$m TRIDI_CUDA_THREADS=$th "$TB/tools/tridi" bench --backend cuda --no-baseline \
      --dtype $dts --layout contig,interleaved,mid3d --n ${TUNE_NS:-32,64,128,256,512,1024,2048,4096,8192} \
      --size-mb 512 --reps 5 --quiet --csv "$OUT/tune_one.csv" >/dev/null 2>>"$OUT/build.log"
    sed "1d; s/^/$m,$th,/" "$OUT/tune_one.csv" >>"$OUT/tune.csv"
    say "tune M=$m threads=$th $dts: $(awk -F, 'NR>1 {printf "%s/%s/%s %.0f ", $4, $5, $6, $15}' "$OUT/tune_one.csv")"
  done
  rm -f "$OUT/tune_one.csv"
fi

if has ctune; then
  # cluster-kernel sweep for src/cuda/tuning.h's cluster rows, on the build of
  # the build stage (which needs GPU_CMAKE_EXTRA=-DTRIDI_CUDA_TUNING=ON): each
  # run is DTYPE:LAYOUTS:threads,gbytes,kmax,M (TRIDI_CUDA_CLUSTER)
  say "ctune ($(stamp))"
  : >"$OUT/ctune.csv"
  for run in ${CTUNE_RUNS:-f64:contig:256,0,16,8 f64:contig:128,0,16,16 f64:interleaved,mid3d:256,64,16,16 f32:interleaved,mid3d:256,128,16,16}; do
    dt=${run%%:*} rest=${run#*:}
    lay=${rest%%:*} cfg=${rest#*:}
    TRIDI_CUDA_CLUSTER=$cfg "$BUILD/tools/tridi" bench --backend cuda --no-baseline --dtype "$dt" \
      --layout "$lay" --n ${CTUNE_NS:-4096,8192,16384} --size-mb 512 --reps 5 --quiet \
      --csv "$OUT/ctune_one.csv" >/dev/null 2>>"$OUT/ctune_err.log"
    sed "1d; s/^/\"$cfg\",/" "$OUT/ctune_one.csv" >>"$OUT/ctune.csv"
    echo "ctune $run: $(awk -F, 'NR>1 {printf "%s/%s/n=%s %.1f%%  ", $4, $5, $6, $15}' "$OUT/ctune_one.csv")" | tee -a "$SUMMARY"
  done
  rm -f "$OUT/ctune_one.csv"
fi

# Stage python (not in the default list: scripts/gpu.sh python): the Python
# package built with CUDA (pip, no network: the image's nanobind and
# scikit-build-core) into /tmp/tridi-site, python/tests run there (CuPy and
# PyTorch tests included), then python -m tridi.bench.  Needs no other stage.
if has python; then
  say "python ($(stamp))"
  PY=${PYTHON:-python3}
  SITE=/tmp/tridi-site
  rm -rf "$SITE"
  # Build and test requirements the image may lack (no network there):
  # wheels carried in $TRIDI_PY_WHEELS (default .devcarry/whl; fetch with
  # `pip download` as docs/python.md says) go on PYTHONPATH first.
  WHL=${TRIDI_PY_WHEELS:-.devcarry/whl}
  if compgen -G "$WHL/*.whl" >/dev/null; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/tridi-pydeps "$WHL"/*.whl >"$OUT/python_deps.log" 2>&1 &&
      export PYTHONPATH=/tmp/tridi-pydeps${PYTHONPATH:+:$PYTHONPATH}
  fi
  "$PY" -c 'import numpy, scipy, pytest, hypothesis, nanobind, scikit_build_core' 2>&1 |
    tail -1 | sed 's/^/python deps: /' | tee -a "$SUMMARY"
  "$PY" -m pip install --no-build-isolation --no-deps --target "$SITE" \
    -C cmake.define.TRIDI_ENABLE_CUDA=ON -C cmake.define.CMAKE_CUDA_ARCHITECTURES=90 \
    ./python >"$OUT/python_build.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    say "python build FAILED"; tail -30 "$OUT/python_build.log"; rc_all=1
  else
    (cd python/tests && PYTHONPATH=$SITE${PYTHONPATH:+:$PYTHONPATH} "$PY" -m pytest -q -rs -p no:cacheprovider .) \
      >"$OUT/python_test.log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && rc_all=1
    say "python tests rc=$rc: $(tail -1 "$OUT/python_test.log")"
    grep -E "SKIPPED|FAILED" "$OUT/python_test.log" | head -20 | tee -a "$SUMMARY"
    PYTHONPATH=$SITE${PYTHONPATH:+:$PYTHONPATH} "$PY" -m tridi.bench --csv "$OUT/python_bench.csv" >"$OUT/python_bench.log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && rc_all=1
    say "python bench rc=$rc ($(stamp))"
    cat "$OUT/python_bench.log"
  fi
fi

say "done rc=$rc_all ($(stamp))"
exit $rc_all
