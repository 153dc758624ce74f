/* Interface between the generic benchmark driver of the `tridi` command
 * (tools/bench.c) and one runner per backend (tools/bench_cpu.c,
 * tools/bench_cuda.cu).
 *
 * Division of work for one case:
 *
 *   driver  builds the case (layout, shape, strides, allocation size), fills
 *           host arrays a, b, c, d with a random diagonally dominant system
 *           (every element of the allocation, padding included) and poisons x;
 *   runner  run_case(): plans once, warms up, times opts->reps executes and
 *           leaves the solution in data->x (host memory: a GPU runner copies
 *           inputs to the device and x back, outside the timed region);
 *   driver  checks x (relative residual of every system, padding of x left
 *           untouched), poisons x again;
 *   runner  run_baseline() (when opts->baseline): times the baseline solver
 *           (LAPACK ?gtsv / cuSPARSE) on the same data and leaves its solution
 *           in data->x;
 *   driver  checks the baseline's x the same way, derives GB/s, % of copy,
 *           speed-up, and prints / writes CSV.
 *
 * All sizes and strides are in elements of the case's dtype.  All five
 * operands of a case share one layout (same strides, same allocation size).
 * C linkage: bench_cuda.cu includes this inside extern "C" { }.  Helpers
 * (aligned allocation, median, system offsets, byte count) are in
 * bench_util.h.
 */
#ifndef TRIDI_TOOLS_BENCH_H
#define TRIDI_TOOLS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "tridi.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One benchmark case. */
typedef struct bench_case {
  const char *layout;   /**< "contig", "interleaved", "mid3d", "padded" or "launch" */
  tridi_dtype dtype;    /**< TRIDI_F32 or TRIDI_F64 */
  int64_t n;            /**< system length (shape[axis]) */
  int64_t batch;        /**< number of systems (product of the other extents) */
  int rank;             /**< 2 or 3 */
  int64_t shape[TRIDI_MAX_RANK];
  int axis;             /**< the solve axis */
  int64_t strides[TRIDI_MAX_RANK]; /**< element strides, the same for a, b, c, d, x */
  int64_t alloc_elems;  /**< elements to allocate per operand (padding included);
                             every element offset of the layout is < alloc_elems */
} bench_case;

/** Options a runner obeys (the driver owns the rest). */
typedef struct bench_opts {
  int reps;        /**< timed executes per case (the median is reported), >= 1 */
  int warmup;      /**< untimed executes before timing, >= 0 */
  int threads;     /**< CPU threads for tridi and for the CPU baseline, >= 1 */
  int baseline;    /**< 1: run_baseline() will be called */
  int device;      /**< CUDA device ordinal */
  int verbose;     /**< 1: the runner may print diagnostics on stderr */
  tridi_alg alg;   /**< algorithm to plan (--alg; TRIDI_ALG_AUTO by default) */
} bench_opts;

/** Host arrays of one case: alloc_elems elements each, 64-byte aligned. */
typedef struct bench_data {
  const void *a, *b, *c, *d; /**< inputs, never modified by a runner */
  void *x;                   /**< output: the runner leaves its solution here */
} bench_data;

/** Result of one case.  The runner fills the fields marked (runner); the
 *  driver fills the others. */
typedef struct bench_result {
  /* tridi */
  double ms;               /**< (runner) median time of one execute, milliseconds */
  double ms_min;           /**< (runner) fastest execute, milliseconds */
  char alg[32];            /**< (runner) tridi_alg_name() of the plan's algorithm */
  char kernel[96];         /**< (runner) tridi_plan_info.kernel */
  int threads;             /**< (runner) threads the plan uses (GPU: 0) */
  tridi_status status;     /**< (runner) first non-success status of plan/execute */
  double gbps;             /**< effective bandwidth 5*n*batch*sizeof(T) / ms */
  double pct_copy;         /**< 100 * gbps / copy bandwidth of the backend */
  double residual;         /**< max relative residual over the checked systems */
  int untouched_ok;        /**< 1 when no element of x outside the layout was written */
  /* baseline */
  char baseline[48];       /**< (runner) e.g. "lapack_dgtsv", "cusparse_gtsv2StridedBatch";
                                empty when no baseline ran */
  double baseline_ms;      /**< (runner) median time of one baseline solve of all systems */
  tridi_status baseline_status; /**< (runner) TRIDI_SUCCESS, or why the baseline failed
                                     (e.g. TRIDI_ERR_NOT_SUPPORTED for a layout it lacks) */
  double baseline_gbps;    /**< 5*n*batch*sizeof(T) / baseline_ms */
  double baseline_residual;/**< max relative residual of the baseline's x */
  double speedup;          /**< baseline_ms / ms */
  int ok;                  /**< 1 when status, residual and padding checks passed */
} bench_result;

/** A backend runner.  Functions return 0 on success, non-zero on failure (the
 *  status is then in bench_result.status / baseline_status). */
typedef struct bench_runner {
  const char *name;                 /**< "cpu", "cuda" (CSV column `backend`) */
  tridi_backend backend;            /**< TRIDI_BACKEND_CPU, TRIDI_BACKEND_CUDA */
  int (*available)(void);           /**< 1 when the backend can run here */
  const char *(*device_name)(void); /**< CPU model / GPU name, never NULL */
  /** Copy bandwidth in GB/s (1e9 bytes/s) of a copy of `bytes` bytes from one
   *  buffer to another on the backend's memory (CPU: OpenMP memcpy; GPU:
   *  device to device), counting read + write: 2 * bytes / median time of
   *  several copies after a warm-up; <= 0 on failure.  The driver passes half
   *  a case's working set, so both buffers together are as large as a case. */
  double (*copy_gbps)(size_t bytes, const bench_opts *opts);
  /** Time tridi on the case; leave x in data->x; fill the (runner) fields. */
  int (*run_case)(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                  bench_result *res);
  /** Time the baseline on the same data; leave its x in data->x; fill
   *  baseline, baseline_ms, baseline_status.  May be NULL (no baseline). */
  int (*run_baseline)(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                      bench_result *res);
} bench_runner;

/** Fill res->alg, res->kernel and res->threads (0 for a GPU plan) from the
 *  plan's tridi_plan_info (runners call it after planning). */
void bench_note_plan(tridi_plan plan, bench_result *res);

/** The case `layout` ("contig", "interleaved", "mid3d", "padded", "launch") of
 *  dtype dt and length n whose described elements take about `elems` elements
 *  per operand (tools/bench.c). */
void bench_make_case(bench_case *bc, const char *layout, tridi_dtype dt, int64_t n,
                     int64_t elems);
/** Split s at commas in place into items[0..max-1]; the count, or -1 when
 *  there are more than max items. */
int bench_split_list(char *s, char **items, int max);
/** Random diagonally dominant systems over the whole allocation of bc (a, b,
 *  c, d; element k depends only on seed and k) and x poisoned with NaN bytes. */
void bench_fill_data(const bench_case *bc, uint64_t seed, void *a, void *b, void *c, void *d,
                     void *x, int threads);

extern const bench_runner bench_runner_cpu;
#ifdef TRIDI_HAVE_CUDA
extern const bench_runner bench_runner_cuda;
#endif

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_TOOLS_BENCH_H */
