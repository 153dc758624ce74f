/* `tridi bench`: the interfaces between the kind-generic driver
 * (tools/bench.c: options; tools/bench_run.c: the sweep, checks, output),
 * the problem kinds (tools/bench_kinds.c: the kind table; tools/bench_scalar.c:
 * the scalar kind; tools/bench_variable.c: the variable-size kind) and the
 * backend runners (tools/bench_cpu.c, tools/bench_cuda.cu).  docs/benchmarks.md
 * describes the command.
 *
 * One case, whatever its kind:
 *
 *   kind    make_case(): the case's systems, allocation sizes and traffic
 *           model (words per unknown); fill(): random diagonally dominant
 *           systems over the whole allocation, x poisoned;
 *   runner  run_case(): plans once with kind->make_desc, warms up, times
 *           opts->reps executes, leaves the solution in data->x (host
 *           memory: a GPU runner copies inputs to the device and x back,
 *           outside the timed region);
 *   kind    check(): the relative residual of every system and the padding
 *           of x (bench_check_rows() does both for any kind whose systems
 *           kind->system() lists);
 *   kind    baselines: each baseline of the runner's backend times another
 *           solver on the same data (bench_baseline_lapack: ?gtsv per system
 *           on the CPU, for any kind; the scalar kind's cuSPARSE calls on the
 *           GPU), checked the same way;
 *   driver  GB/s = words_per_unknown * unknowns * sizeof(T) / time, % of the
 *           copy and of the stream limit measured right before the case,
 *           speed-ups; table and CSV.
 *
 * Adding a kind: a bench_kind row (tools/bench_<kind>.c) and its entry in
 * bench_kinds[] (tools/bench_kinds.c); the driver and the runners do not
 * change.  Sizes and offsets are in elements of the case's dtype.  C linkage:
 * the .cu files include this inside extern "C" { }. */
#ifndef TRIDI_TOOLS_BENCH_H
#define TRIDI_TOOLS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "tridi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_NOPS 5 /**< operands a, b, c, d, x */

typedef struct bench_kind bench_kind;

/** One benchmark case. */
typedef struct bench_case {
  const bench_kind *kind;
  const char *layout;       /**< one of kind->layouts (CSV `layout`) */
  tridi_dtype dtype;        /**< TRIDI_F32 or TRIDI_F64 */
  int64_t n;                /**< the kind's length parameter (scalar: the system length) */
  int64_t batch;            /**< number of systems */
  int64_t nmax;             /**< the longest system (residual bound, scratch) */
  int m;                    /**< block size; 1 for scalar kinds (CSV `m`) */
  int64_t unknowns;         /**< unknowns solved: sum of the lengths, times m */
  double words_per_unknown; /**< traffic model: words of sizeof(T) moved per unknown */
  int launch;               /**< 1: the launch-bound case (one per dtype, whatever n;
                                 timed in microseconds with many repeats) */
  int64_t alloc_elems[BENCH_NOPS]; /**< elements to allocate per operand; every
                                        element a system touches is below it */
  /* the N-d layout of the scalar kind (its descriptor) */
  int rank;                 /**< 2 or 3 */
  int axis;                 /**< the solve axis */
  int64_t shape[TRIDI_MAX_RANK];
  int64_t strides[TRIDI_MAX_RANK]; /**< the same for a, b, c, d, x */
  void *priv;               /**< kind-private data, freed by kind->free_case */
} bench_case;

/** One system of a case: its length and, per operand, the element offset of
 *  row 0 and the distance between rows. */
typedef struct bench_sys {
  int64_t n;
  int64_t off[BENCH_NOPS];
  int64_t inc[BENCH_NOPS];
} bench_sys;

/** Options a runner or baseline obeys (the driver owns the rest). */
typedef struct bench_opts {
  int reps;        /**< timed executes per case (the median is reported), >= 1 */
  int warmup;      /**< untimed executes before timing, >= 0 */
  int threads;     /**< CPU threads for tridi and for the CPU baseline, >= 1 */
  int device;      /**< CUDA device ordinal */
  int verbose;     /**< 1: the runner may print diagnostics on stderr */
  tridi_alg alg;   /**< algorithm to plan (--alg; TRIDI_ALG_AUTO by default) */
  tridi_pivot pivot; /**< pivoting to plan (--pivot; TRIDI_PIVOT_AUTO by default) */
  int assume_dominant; /**< tridi_options.assume_dominant of the plans (--assume-dominant) */
} bench_opts;

/** Host arrays of one case: alloc_elems[op] elements each, 64-byte aligned. */
typedef struct bench_data {
  const void *a, *b, *c, *d; /**< inputs, never modified by a runner */
  void *x;                   /**< output: the runner leaves its solution here */
} bench_data;

/** Result of the checks of one solution. */
typedef struct bench_check {
  double residual; /**< max over systems of ||Ax-d|| / (||A|| ||x|| + ||d||); +inf for NaN/Inf */
  double bound;    /**< the documented bound: 4 * max(nmax, 8) * eps(T) */
  int untouched;   /**< 1 when no element of x outside the systems was written */
} bench_check;

/** Result of one case.  (runner): filled by run_case; (baseline): by a
 *  baseline's run; the driver fills the rest. */
typedef struct bench_result {
  /* tridi */
  double ms;               /**< (runner) median time of one execute, milliseconds */
  double ms_min;           /**< (runner) fastest execute, milliseconds */
  char alg[32];            /**< (runner) tridi_alg_name() of the plan's algorithm */
  char kernel[96];         /**< (runner) tridi_plan_info.kernel */
  int threads;             /**< (runner) threads the plan uses (GPU: 0) */
  tridi_status status;     /**< (runner) first non-success status of plan/execute */
  double gbps;             /**< effective bandwidth: bytes of the traffic model / ms */
  double pct_copy;         /**< 100 * gbps / copy bandwidth */
  double pct_stream;       /**< 100 * gbps / stream limit (NaN where not measured) */
  bench_check chk;         /**< residual, bound, padding of tridi's x */
  /* baseline (one per CSV row) */
  char baseline[48];       /**< (baseline) e.g. "lapack_dgtsv", "cusparse_gtsv2StridedBatch";
                                empty when no baseline ran */
  double baseline_ms;      /**< (baseline) median time of one solve of all systems */
  tridi_status baseline_status; /**< (baseline) TRIDI_SUCCESS, or why it failed (e.g.
                                     TRIDI_ERR_NOT_SUPPORTED for a layout it lacks) */
  double baseline_gbps;    /**< the traffic model / baseline_ms */
  double baseline_residual;/**< max relative residual of the baseline's x */
  double speedup;          /**< baseline_ms / ms */
  /* verdict */
  int ok;                  /**< 1 when verified: status, residual and padding passed */
  char check[32];          /**< "ok", "unstable" (not verified, known unstable
                                algorithm), or why it failed: "RESIDUAL",
                                "PADDING-WRITTEN", a status name */
} bench_result;

/** A baseline: another solver timed on the same data. */
typedef struct bench_baseline {
  const char *name;        /**< what it is (docs, --help), e.g. "LAPACK ?gtsv per system" */
  tridi_backend backend;   /**< the runner it belongs to */
  /** Time it on the case; leave its x in data->x; fill the (baseline) fields.
   *  Returns 0 on success. */
  int (*run)(const bench_case *bc, const bench_opts *opts, const bench_data *data,
             bench_result *res);
} bench_baseline;

/** A problem kind: one row of bench_kinds[] (--problem NAME). */
struct bench_kind {
  const char *name;              /**< --problem value, CSV `problem` */
  const char *const *layouts;    /**< NULL-terminated: --layout values; the default is all */
  const char *help;              /**< --help text describing the layouts */
  /** 0-terminated default --n lists of the kind's length parameter (plain
   *  run, --quick); NULL: the driver's (the scalar lengths). */
  const int64_t *default_n;
  const int64_t *quick_n;
  double words_per_unknown;      /**< the traffic model, copied into each case
                                      (make_case may refine it, e.g. for blocks) */
  /** The case `layout` of dtype dt and length parameter n whose systems take
   *  about `elems` elements per operand.  bc->kind and bc->words_per_unknown
   *  are set on entry.  Returns 0 (non-zero: no such case, skipped). */
  int (*make_case)(bench_case *bc, const char *layout, tridi_dtype dt, int64_t n, int64_t elems);
  /** Frees bc->priv; NULL when make_case allocates nothing. */
  void (*free_case)(bench_case *bc);
  /** System s (0 <= s < batch) of the case. */
  void (*system)(const bench_case *bc, int64_t s, bench_sys *sys);
  /** Inputs over every allocated element, x poisoned (bench_fill_dominant). */
  void (*fill)(const bench_case *bc, uint64_t seed, const bench_data *data, int threads);
  /** Residual and padding of data->x (bench_check_rows); mask: scratch of
   *  alloc_elems[x] bytes. */
  void (*check)(const bench_case *bc, const bench_data *data, int threads, unsigned char *mask,
                bench_check *out);
  /** The tridi descriptor of the case (the runner plans with it and frees it). */
  tridi_status (*make_desc)(const bench_case *bc, tridi_desc *desc);
  /** NULL-terminated; the driver runs those of the runner's backend, each in
   *  its own CSV row. */
  const bench_baseline *const *baselines;
};

/** A backend runner. */
typedef struct bench_runner {
  const char *name;                 /**< "cpu", "cuda" (CSV column `backend`) */
  tridi_backend backend;            /**< TRIDI_BACKEND_CPU, TRIDI_BACKEND_CUDA */
  int (*available)(void);           /**< 1 when the backend can run here */
  const char *(*device_name)(void); /**< CPU model / GPU name, never NULL */
  /** Copy bandwidth in GB/s (1e9 bytes/s) over a working set of `bytes`
   *  bytes (half read, half written), read + write counted; <= 0 on failure. */
  double (*copy_gbps)(size_t bytes, const bench_opts *opts);
  /** The stream limit in GB/s: one pass reading four arrays and writing one
   *  (CPU: non-temporal stores where the ISA has them; GPU: plain stores),
   *  `bytes` bytes in all, 5 arrays counted; <= 0 on failure.  NULL: not
   *  measured. */
  double (*stream_gbps)(size_t bytes, const bench_opts *opts);
  /** Time tridi on the case (kind->make_desc); leave x in data->x; fill the
   *  (runner) fields.  Returns 0 on success. */
  int (*run_case)(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                  bench_result *res);
  /** Frees what the runner keeps between calls (reference buffers); may be NULL. */
  void (*release)(void);
  /** The largest cache between the device and its memory in bytes (CPU: the
   *  last-level cache; CUDA: the L2), read at run time; 0 when unknown.  The
   *  copy and stream references take at least 4 times it.  NULL: unknown. */
  size_t (*cache_bytes)(void);
} bench_runner;

/* ---- the tables ------------------------------------------------------------ */

/** Every kind, NULL-terminated (tools/bench_kinds.c); the first is the default. */
extern const bench_kind *const bench_kinds[];
const bench_kind *bench_find_kind(const char *name);
extern const bench_kind bench_kind_scalar;
extern const bench_kind bench_kind_variable;

extern const bench_runner bench_runner_cpu;
#ifdef TRIDI_HAVE_CUDA
extern const bench_runner bench_runner_cuda;
#endif

/* ---- shared by kinds (tools/bench_sys.c) -------------------------------------- */

/** Random diagonally dominant systems over every allocated element: element
 *  k of a, b, c, d depends only on seed, n and k (not on the thread count):
 *  a, c, d uniform in [-1, 1), b = +-(|a| + |c| + 0.5 + u), u in [0, 1), so
 *  any row whose a, b, c share an index k is dominant; x poisoned with
 *  all-ones bytes (a NaN). */
void bench_fill_dominant(const bench_case *bc, uint64_t seed, const bench_data *data, int threads);
/** Residual of every system (in double) and the padding of x (every element
 *  of x's allocation that no system touches must still hold the poison). */
void bench_check_rows(const bench_case *bc, const bench_data *data, int threads,
                      unsigned char *mask, bench_check *out);
/** LAPACK ?gtsv once per system (each gathered into per-thread scratch and
 *  the solution copied back; OpenMP over systems), for any kind. */
extern const bench_baseline bench_baseline_lapack;
/** tridi's LAPACK drop-in tridi_?gtsv_batch on the scalar kind's layouts of
 *  contiguous systems (tools/bench_dropin.c). */
extern const bench_baseline bench_baseline_dropin_cpu;
#ifdef TRIDI_HAVE_CUDA
/** cuSPARSE on the scalar kind's layouts (tools/bench_cusparse.cu). */
extern const bench_baseline bench_baseline_cusparse_scalar;
/** tridi's cuSPARSE-shaped drop-ins on the same layouts (tools/bench_cusparse.cu). */
extern const bench_baseline bench_baseline_dropin_cuda;
#endif

/** Bytes the case must move: words_per_unknown * unknowns * sizeof(T). */
double bench_bytes(const bench_case *bc);
/** Largest alloc_elems over the operands. */
int64_t bench_max_alloc(const bench_case *bc);
/** Fill res->alg, res->kernel and res->threads (0 for a GPU plan) from the
 *  plan's tridi_plan_info (runners call it after planning). */
void bench_note_plan(tridi_plan plan, bench_result *res);
/** Split s at commas in place into items[0..max-1]: the count; -1 when there
 *  are more than max items, -2 when an item is empty ("32,,64", "32,"). */
int bench_split_list(char *s, char **items, int max);

/* ---- the CPU memory references (tools/bench_memref.c) ------------------------ */

/** Size of the last-level cache in bytes: the larger of
 *  sysconf(_SC_LEVEL3_CACHE_SIZE) and the largest cache in
 *  /sys/devices/system/cpu/cpu0/cache; 0 when unknown. */
size_t bench_llc_bytes(void);
/** Which stream kernel runs here: "avx512 nt", "avx2 nt" or "portable"
 *  (plain stores). */
const char *bench_stream_kind(void);
/** The CPU runner's copy and stream references (bench_runner fields) and
 *  the release of their buffer. */
double bench_cpu_copy_gbps(size_t bytes, const bench_opts *opts);
double bench_cpu_stream_gbps(size_t bytes, const bench_opts *opts);
void bench_cpu_release_refs(void);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_TOOLS_BENCH_H */
