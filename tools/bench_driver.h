/* The driver of `tridi bench`, split in two: options (tools/bench.c) and
 * the sweep with its output (tools/bench_run.c). */
#ifndef TRIDI_TOOLS_BENCH_DRIVER_H
#define TRIDI_TOOLS_BENCH_DRIVER_H

#include "bench.h"

#define BENCH_MAX_LIST 64
#define BENCH_MAX_LAYOUTS 16
#define BENCH_MAX_ALGS 16

typedef struct bench_config {
  const bench_kind *kind;               /* --problem */
  const bench_runner *runners[4];
  int nrunners;
  tridi_dtype dtypes[2];
  int ndtypes;
  int64_t ns[BENCH_MAX_LIST];
  int nns;
  const char *layouts[BENCH_MAX_LAYOUTS];
  int nlayouts;
  double size_mb;                       /* working set of a case */
  double ref_mb;                        /* working set of copy and stream; 0: default */
  const char *csv_path;
  uint64_t seed;
  int quiet;
  int baseline;                         /* 1: run the kind's baselines */
  int baseline_reps;
  tridi_alg algs[BENCH_MAX_ALGS];       /* --alg: algorithms run on every case, in order */
  int nalgs;
  tridi_pivot pivots[3];                /* --pivot: for each algorithm, in order */
  int npivots;
  bench_opts opts;
} bench_config;

/* Algorithms known to lose accuracy on the benchmark's data (RD, CR+RD:
 * docs/accuracy.md): a case of theirs that fails its check is reported "not
 * verified (known unstable)", not as a failure. */
int bench_known_unstable(tridi_alg alg);

/* 1 when algorithm alg can be asked for with pivoting mode pv (a forced
 * non-pivoting algorithm with partial, or lu_partial with none, cannot). */
int bench_alg_pivot_ok(tridi_alg alg, tridi_pivot pv);

/* Run the sweep; returns the exit status (commands.h). */
int bench_run(const bench_config *cfg);

#endif
