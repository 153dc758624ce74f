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
  int rank;
  int axis;
  int64_t shape[TRIDI_MAX_RANK];
  int64_t strides[TRIDI_NUM_OPERANDS][TRIDI_MAX_RANK];
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
   * element each operand touches; used by the overlap checks.  Valid when
   * n > 0 and nsys > 0. */
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

/* One row of the solver table (src/core/solvers.c).  The planner takes the
 * first row, in table order, whose backend matches, whose alg matches (or any
 * when the request is TRIDI_ALG_AUTO) and whose applies() says yes. */
typedef struct tridi_solver {
  const char *name;
  tridi_backend backend;
  tridi_alg alg;
  /* 1 when this solver can run the plan's problem (plan fields set except
   * solver/priv/ws). */
  int (*applies)(const struct tridi_plan_s *plan);
  /* Prepare: set plan->ws_bytes, plan->kernel_name, plan->priv.  The core
   * allocates the plan's own workspace of plan->ws_bytes afterwards (host
   * memory, or device memory for CUDA).  May be NULL. */
  tridi_status (*init)(struct tridi_plan_s *plan);
  /* Solve.  Arguments were checked by the core (non-NULL, aligned, no bad
   * overlap).  CPU/REF: fill args->info when non-NULL and return
   * TRIDI_SUCCESS or the status (TRIDI_ERR_ZERO_PIVOT / TRIDI_ERR_NONFINITE /
   * TRIDI_ERR_INACCURATE, tridi_info_status) of the lowest-numbered failing
   * system.  CUDA:
   * enqueue on args->stream and return. */
  tridi_status (*execute)(const struct tridi_plan_s *plan, const tridi_args *args);
  /* Release plan->priv.  May be NULL. */
  void (*destroy)(struct tridi_plan_s *plan);
} tridi_solver;

struct tridi_plan_s {
  tridi_dtype dtype;
  size_t esize;
  tridi_kind kind;
  tridi_layout lay;
  tridi_backend backend;     /* resolved (never AUTO) */
  tridi_alg requested_alg;
  tridi_alg alg;             /* solver->alg */
  tridi_simd simd;           /* CPU: resolved SIMD level */
  int num_threads;           /* CPU: resolved thread count (>= 1) */
  int device;                /* CUDA device ordinal */
  const tridi_solver *solver;
  void *priv;                /* solver private data */
  size_t ws_bytes;           /* workspace bytes per execute */
  void *ws;                  /* plan-owned workspace (host or device) */
  void *lock;                /* serialises tridi_execute on ws (opaque mutex) */
  char kernel_name[96];
};

/* The table and its length. */
extern const tridi_solver tridi_solver_table[];
extern const int tridi_solver_count;

/* ---- reference solver (src/ref) ----------------------------------------
 * Thomas on one system with strided operands.  work: n elements of scratch.
 * x may equal d (same pointer and stride).  Returns the info code: 0, k > 0
 * (exactly zero pivot at row k, 1-based) or -k (NaN/Inf input at row k or
 * non-finite value produced at row k).  Check order in row i: inputs
 * (a_i for i>0, b_i, c_i for i<n-1, d_i) finite, pivot nonzero, c'_i and d'_i
 * finite; then the back substitution from row n-1 down: x_i finite. */
int32_t tridi_ref_thomas_f32(int64_t n, const float *a, int64_t sa, const float *b,
                             int64_t sb, const float *c, int64_t sc, const float *d,
                             int64_t sd, float *x, int64_t sx, float *work);
int32_t tridi_ref_thomas_f64(int64_t n, const double *a, int64_t sa, const double *b,
                             int64_t sb, const double *c, int64_t sc, const double *d,
                             int64_t sd, double *x, int64_t sx, double *work);

/* Solve system s of a plan's layout with the reference solver (dtype from
 * the plan).  Returns the info code. */
int32_t tridi_ref_solve_system(const struct tridi_plan_s *plan, const tridi_args *args,
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
#endif

/* ---- small helpers ------------------------------------------------------ */
void *tridi_aligned_alloc(size_t bytes); /* 64-byte aligned, NULL on failure */
void tridi_aligned_free(void *p);

#define TRIDI_ALIGN 64

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_INTERNAL_H */
