/* Internal interface between the core (descriptor, planner, argument checks)
 * and the backends (ref, cpu, cuda).  Not installed. */
#ifndef TRIDI_INTERNAL_H
#define TRIDI_INTERNAL_H

#include "tridi.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ------------------------------------------------------------ */

/* Record a detail message for tridi_last_error() and return `status`. */
tridi_status tridi_set_error(tridi_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Clear the thread's message (every public entry point calls this first). */
void tridi_clear_error(void);

/* ---- descriptor -------------------------------------------------------- */

struct tridi_desc_s {
  tridi_dtype dtype;
  tridi_kind kind;
  /* scalar kind: the N-d layout */
  int rank;
  int axis;
  int64_t shape[TRIDI_MAX_RANK];
  int64_t strides[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  /* variable kind (tridi_desc_create_variable): B = var_nsys lengths */
  int64_t var_nsys;
  int64_t *var_lengths; /* owned */
  tridi_var_layout var_layout;
  int64_t var_rows, var_ld;
};

/* ---- normalised layout: what every backend sees -------------------------
 * Systems have length n along the solve axis; operand k of system s,
 * row i, is at  base_k + off_k(s) + i * axis_stride[k]  (in elements), where
 * off_k(s) = sum_j idx_j(s) * bstride[k][j] and idx_j(s) are the row-major
 * digits of s over the batch extents bext[0..nbatch-1] (the non-axis
 * dimensions in their original order, extent-1 dimensions dropped).  System s
 * is also the index into the info array. */
typedef struct tridi_layout {
  int64_t n;
  int64_t nsys;
  int64_t axis_stride[TRIDI_NUM_OPERANDS];
  int nbatch;
  int64_t bext[TRIDI_MAX_RANK];
  int64_t bstride[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
  /* element offsets (relative to the base pointer) of the lowest and highest
   * element each operand touches (a without row 0, c without row n-1: never
   * read; for n = 1 nothing of a and c); used by the overlap checks.  Valid
   * when n > 0 and nsys > 0. */
  int64_t min_off[TRIDI_NUM_OPERANDS];
  int64_t max_off[TRIDI_NUM_OPERANDS];
  /* gcd of |strides| (elements) over dimensions of extent > 1; 0 if none */
  int64_t stride_gcd[TRIDI_NUM_OPERANDS];
} tridi_layout;

/* Offsets (elements) of system s for all five operands. */
static inline void tridi_layout_offsets(const tridi_layout *L, int64_t s,
                                        int64_t off[TRIDI_NUM_OPERANDS]) {
  for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) off[k] = 0;
  for (int j = L->nbatch - 1; j >= 0; --j) {
    const int64_t e = L->bext[j];
    const int64_t idx = s % e;
    s /= e;
    for (int k = 0; k < TRIDI_NUM_OPERANDS; ++k) off[k] += idx * L->bstride[k][j];
  }
}

/* ---- solvers ------------------------------------------------------------ */

struct tridi_plan_s;

typedef struct tridi_args {
  const void *op[TRIDI_NUM_OPERANDS]; /* a, b, c, d, x (x is written) */
  int32_t *info;                      /* may be NULL */
  void *stream;                       /* cudaStream_t for CUDA plans */
  void *ws;                           /* workspace of plan->ws_bytes bytes, 64-byte aligned */
} tridi_args;

/* AUTO preference of a row that is only taken when its algorithm is forced. */
#define TRIDI_RANK_EXPLICIT (-1)

/* One row of a kind's solver table (src/core/kinds/<kind>.c).  The planner
 * (plan.c) looks at the rows of the plan's kind whose backend is the plan's
 * backend: a forced algorithm keeps the rows of that algorithm, in table
 * order; TRIDI_ALG_AUTO keeps the rows with auto_rank >= 0 and takes, among
 * those that apply, the one of lowest auto_rank (ties: table order). */
typedef struct tridi_solver {
  const char *name;
  tridi_backend backend;
  tridi_alg alg;
  /* AUTO preference, lower is better (the measurement behind each value is
   * in the row's comment); TRIDI_RANK_EXPLICIT: never chosen by AUTO. */
  int auto_rank;
  /* NULL when this solver can run the plan's problem (plan fields set except
   * solver/priv/ws), else a short reason why not ("f64 only", ...). */
  const char *(*applies)(const struct tridi_plan_s *plan);
  /* Prepare: set plan->ws_bytes, plan->kernel_name, plan->priv.  The core
   * allocates the plan's own workspace of plan->ws_bytes afterwards (host
   * memory, or device memory for CUDA).  May be NULL. */
  tridi_status (*init)(struct tridi_plan_s *plan);
  /* Solve.  Arguments were checked by the core (non-NULL, aligned, no bad
   * overlap).  Host backends: fill args->info when non-NULL and return
   * TRIDI_SUCCESS or the status (TRIDI_ERR_ZERO_PIVOT / TRIDI_ERR_NONFINITE /
   * TRIDI_ERR_INACCURATE, tridi_info_status) of the lowest-numbered failing
   * system.  CUDA: enqueue on args->stream and return; the backend has made
   * plan->device current. */
  tridi_status (*execute)(const struct tridi_plan_s *plan, const tridi_args *args);
  /* Release plan->priv.  May be NULL. */
  void (*destroy)(struct tridi_plan_s *plan);
} tridi_solver;

/* ---- problem kinds (src/core/kinds.c) -------------------------------------
 * One row per implemented kind: how its descriptor becomes the plan's
 * problem, how execute-time arguments are checked, and its solver rows. */
typedef struct tridi_kind_ops {
  tridi_kind kind;
  const char *name;
  /* Fill the plan's problem from the descriptor (plan->lay for layouts of
   * regular strides, plan->problem for anything else) and plan->nsys,
   * plan->n_max, plan->unknowns.  Statuses as tridi_plan_create. */
  tridi_status (*normalise)(const struct tridi_desc_s *desc, struct tridi_plan_s *plan);
  /* Overlap rules of the kind, after the core checked NULL and alignment:
   * TRIDI_SUCCESS or TRIDI_ERR_OVERLAP with a message naming fn. */
  tridi_status (*check_overlap)(const struct tridi_plan_s *plan,
                                const void *const ops[TRIDI_NUM_OPERANDS], const char *fn);
  /* Release plan->problem (may be NULL). */
  void (*release)(struct tridi_plan_s *plan);
  const tridi_solver *solvers;
  int num_solvers;
  /* TRIDI_PIVOT_AUTO's second pass (plan.c): solve system s again with the
   * reference pivoting solver (out of place: the inputs are intact), using
   * pivot_work(plan) bytes of scratch; returns that solver's info code.
   * NULL when the kind has no pivoting solver (AUTO then only flags). */
  int32_t (*pivot_system)(const struct tridi_plan_s *plan, const tridi_args *args, int64_t s,
                          void *work);
  size_t (*pivot_work)(const struct tridi_plan_s *plan);
} tridi_kind_ops;

/* The kind's row, NULL for a kind that is not implemented. */
const tridi_kind_ops *tridi_kind_get(tridi_kind kind);

/* ---- backends (src/core/backends.c) -------------------------------------
 * The services each backend gives the core; the only place the core names
 * CUDA. */
typedef struct tridi_backend_ops {
  tridi_backend backend;
  int host; /* 1: execute is synchronous and info is a host array */
  int (*available)(void);
  /* Resolve the backend's options into the plan (CPU: SIMD level and
   * threads; CUDA: device). */
  tridi_status (*resolve)(struct tridi_plan_s *plan, const tridi_options *opts);
  /* Workspace in the backend's memory (64-byte aligned). */
  tridi_status (*ws_alloc)(const struct tridi_plan_s *plan, void **p, size_t bytes);
  void (*ws_free)(const struct tridi_plan_s *plan, void *p);
  /* Run the plan's solver row (CUDA: with plan->device current). */
  tridi_status (*run)(const struct tridi_plan_s *plan, const tridi_args *args);
  /* TRIDI_PIVOT_AUTO's second pass (NULL: the backend has none; AUTO then
   * only flags).  pass_init, at plan time after the row's init: *available
   * = 1 when the pass is available for the plan (then it has set
   * plan->resolve_work, the bytes of workspace it needs after its info
   * array, a multiple of 64, and may have set plan->resolve_priv), 0 when
   * not; a status other than TRIDI_SUCCESS fails the plan.
   * pass_destroy releases plan->resolve_priv (may be NULL).
   * pass_run replaces run() for executes out of place when plan->resolve:
   * the solve, then every system whose info is not 0 solved again with
   * pivoting; args->info NULL: the info array of the workspace (at
   * plan->resolve_off) serves.  Host backends return the status of the
   * lowest-numbered system still failing; CUDA enqueues both on
   * args->stream, without a host synchronisation. */
  tridi_status (*pass_init)(struct tridi_plan_s *plan, int *available);
  void (*pass_destroy)(struct tridi_plan_s *plan);
  tridi_status (*pass_run)(const struct tridi_plan_s *plan, tridi_args *args);
  /* tridi_info_check: the lowest-numbered of the plan's systems whose info
   * is not 0 (*first; -1 when none) and its code (*code; 0 when none).
   * Host backends scan the host array; CUDA reduces the device array on
   * stream, after the work queued there, and waits for that stream only. */
  tridi_status (*info_first)(const struct tridi_plan_s *plan, const int32_t *info, void *stream,
                             int64_t *first, int32_t *code);
} tridi_backend_ops;

/* The backend's row, NULL for AUTO or an unknown value. */
const tridi_backend_ops *tridi_backend_get(tridi_backend backend);

struct tridi_plan_s {
  tridi_dtype dtype;
  size_t esize;
  tridi_kind kind;
  const tridi_kind_ops *kops;
  int64_t nsys;              /* systems (entries of the info array) */
  int64_t n_max;             /* longest system */
  int64_t unknowns;          /* total unknowns over all systems */
  tridi_layout lay;          /* scalar kind: the normalised layout */
  void *problem;             /* other kinds: the kind's problem (kops->release frees it) */
  tridi_backend backend;     /* resolved (never AUTO) */
  const tridi_backend_ops *bops;
  tridi_alg requested_alg;
  tridi_alg alg;             /* solver->alg */
  tridi_pivot pivot;         /* resolved: NONE, PARTIAL, AUTO (forcing LU_PARTIAL gives PARTIAL) */
  int assume_dominant;       /* from the options */
  int growth;                /* non-pivoting Thomas solvers flag growth (TRIDI_INFO_INACCURATE) */
  int resolve;               /* AUTO's second pass runs (the backend's pass_init said so) */
  size_t resolve_off;        /* its part of the workspace: an info array of nsys entries, then */
  size_t resolve_work;       /* resolve_work bytes of the backend's scratch (multiple of 64) */
  void *resolve_priv;        /* the backend's second-pass data (pass_destroy frees it) */
  tridi_simd simd;           /* CPU: resolved SIMD level */
  int num_threads;           /* CPU: resolved thread count (>= 1) */
  int device;                /* CUDA device ordinal */
  const tridi_solver *solver;
  void *priv;                /* solver private data */
  size_t ws_bytes;           /* workspace bytes per execute */
  void *ws;                  /* plan-owned workspace (host or device) */
  void *lock;                /* serialises tridi_execute on ws (opaque mutex) */
  char kernel_name[96];
  char selection[768];       /* how the planner chose (tridi_plan_info.selection) */
};

/* ---- reference solver (src/ref) ----------------------------------------
 * Thomas on one system with strided operands.  work: n elements of scratch.
 * x may equal d (same pointer and stride).  Returns the info code: 0, k > 0
 * (exactly zero pivot at row k, 1-based) or -k (NaN/Inf input at row k or
 * non-finite value produced at row k), or TRIDI_INFO_INACCURATE (growth).
 * Check order in row i: inputs (a_i for i>0, b_i, c_i for i<n-1, d_i)
 * finite, pivot nonzero, c'_i and d'_i finite; then the back substitution
 * from row n-1 down: x_i finite; then growth: with t_i = |a_i| + |c_i|,
 * N_i = (t_i + |a_i c'_{i-1}|) + |u_i| and D_i = t_i + |b_i| (u_i = b_i -
 * a_i c'_{i-1} the pivot, in the element type, a_0 = c_{n-1} = 0),
 * max N_i > TRIDI_GROWTH_LIMIT * max D_i gives TRIDI_INFO_INACCURATE (x is
 * written).  The SIMD kernels compute the indicator with the same
 * operations, except AVX-512, which fuses t_i + |a_i| |c'_{i-1}| into an
 * FMA (as it does u_i). */
int32_t tridi_ref_thomas_f32(int64_t n, const float *a, int64_t sa, const float *b,
                             int64_t sb, const float *c, int64_t sc, const float *d,
                             int64_t sd, float *x, int64_t sx, float *work);
int32_t tridi_ref_thomas_f64(int64_t n, const double *a, int64_t sa, const double *b,
                             int64_t sb, const double *c, int64_t sc, const double *d,
                             int64_t sd, double *x, int64_t sx, double *work);

/* Solve system s of a plan's layout with the reference solver (dtype from
 * the plan).  Returns the info code (TRIDI_INFO_INACCURATE only when
 * plan->growth). */
int32_t tridi_ref_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                               int64_t s, void *work);

/* The growth threshold of the non-pivoting Thomas solvers: a system is
 * flagged (TRIDI_INFO_INACCURATE) when max_i N_i > TRIDI_GROWTH_LIMIT *
 * max_i D_i (tridi.h, tridi_pivot; the evidence for 8 is in
 * docs/matrices.md).  A power of two: the product is exact. */
#define TRIDI_GROWTH_LIMIT 8

/* Solve system s of a plan's layout with the reference pivoting solver
 * (src/ref/ref_pivot.h; work: TRIDI_REF_PIVOT_WORK(n) elements).  Returns
 * the info code. */
int32_t tridi_ref_pivot_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
                                     int64_t s, void *work);

/* Map an info code to the execute status (0 -> TRIDI_SUCCESS). */
static inline tridi_status tridi_info_status(int32_t info) {
  if (info == 0) return TRIDI_SUCCESS;
  if (info == TRIDI_INFO_INACCURATE) return TRIDI_ERR_INACCURATE;
  return info > 0 ? TRIDI_ERR_ZERO_PIVOT : TRIDI_ERR_NONFINITE;
}

/* ---- CPU backend (src/cpu) ---------------------------------------------- */
tridi_simd tridi_cpu_simd_detect_impl(void);
int tridi_cpu_simd_supported(tridi_simd simd); /* compiled in and the CPU has it */
int tridi_cpu_max_threads(void);

/* ---- CUDA backend (src/cuda), present when TRIDI_HAVE_CUDA ------------- */
#ifdef TRIDI_HAVE_CUDA
int tridi_cuda_available(void);                     /* a device is visible */
tridi_status tridi_cuda_check_device(int device);   /* ordinal valid */
tridi_status tridi_cuda_alloc(void **p, size_t bytes, int device);
void tridi_cuda_free(void *p, int device);
tridi_status tridi_cuda_current_device(int *device, const char *fn); /* cudaGetDevice */
void tridi_cuda_device_sync(int device);                             /* cudaDeviceSynchronize */
#endif

/* ---- vocabularies (names.c): 1 when the value is named ---------------- */
int tridi_alg_valid(tridi_alg alg);
int tridi_backend_valid(tridi_backend backend);
int tridi_simd_valid(tridi_simd simd);
int tridi_pivot_valid(tridi_pivot pivot);
int tridi_alg_pivots(tridi_alg alg); /* 1 for the pivoting algorithm(s) */

/* ---- small helpers ------------------------------------------------------ */
void *tridi_aligned_alloc(size_t bytes); /* 64-byte aligned, NULL on failure */
void tridi_aligned_free(void *p);

#define TRIDI_ALIGN 64

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_INTERNAL_H */
