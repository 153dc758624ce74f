/* Entry points each backend provides to the kinds' solver rows
 * (src/core/kinds/).  Each backend owns its own block; see tridi_solver in
 * tridi_internal.h. */
#ifndef TRIDI_BACKENDS_H
#define TRIDI_BACKENDS_H
#include "tridi_internal.h"

/* src/ref: plain Thomas, one system at a time, one thread. */
const char *tridi_ref_applies(const struct tridi_plan_s *plan);
tridi_status tridi_ref_init(struct tridi_plan_s *plan);
tridi_status tridi_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);

/* src/cpu: OpenMP + SIMD Thomas (lanes across systems, local transposition
 * where systems are contiguous). */
const char *tridi_cpu_thomas_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cpu_thomas_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_thomas_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cpu_thomas_destroy(struct tridi_plan_s *plan);

/* src/cpu: the reference Thomas run over systems with OpenMP (fallback for
 * problems the SIMD kernel does not take, e.g. tiny batches of long systems). */
const char *tridi_cpu_ref_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cpu_ref_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);

/* The pivoting solver (LU with partial pivoting, LAPACK ?gtsv), both kinds:
 * src/ref/ref_lu.c runs the kind's pivot_system on every system in order
 * (REF rows; work: tridi_ref_pivot_work_bytes); src/cpu/pivot/cpu_lu_ref.c
 * over OpenMP threads (scalar: systems in static blocks; variable: balanced
 * by unknowns); src/cpu/pivot/cpu_lu.c is the SIMD kernel (scalar kind). */
size_t tridi_ref_pivot_work_bytes(const struct tridi_plan_s *plan); /* 0 on overflow */
tridi_status tridi_ref_lu_init(struct tridi_plan_s *plan);
tridi_status tridi_ref_lu_execute(const struct tridi_plan_s *plan, const tridi_args *args);
tridi_status tridi_cpu_lu_ref_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_lu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);
tridi_status tridi_cpu_var_lu_ref_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_var_lu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);
const char *tridi_cpu_lu_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cpu_lu_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_lu_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cpu_lu_destroy(struct tridi_plan_s *plan);

/* src/ref/ref_algs.c: CR, PCR, RD, CR+PCR, CR+RD (paper 001) in plain C,
 * the REF rows running the systems in order; src/cpu/cpu_algs.c: the CPU
 * rows, the systems split over OpenMP threads.  The plan's alg selects the
 * algorithm. */
const char *tridi_ref_alg_applies(const struct tridi_plan_s *plan);
tridi_status tridi_ref_alg_init(struct tridi_plan_s *plan);
tridi_status tridi_ref_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args);
tridi_status tridi_cpu_alg_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args);

/* Variable-size batches (src/core/kinds/variable.h): the reference Thomas
 * per system (src/ref/ref_variable.c), and over OpenMP threads with the
 * systems split by unknowns (src/cpu/variable/cpu_var_ref.c). */
tridi_status tridi_ref_var_init(struct tridi_plan_s *plan);
tridi_status tridi_ref_var_execute(const struct tridi_plan_s *plan, const tridi_args *args);
tridi_status tridi_cpu_var_ref_init(struct tridi_plan_s *plan);
/* src/cpu/variable/cpu_var.c: SIMD lanes over systems of similar length. */
const char *tridi_cpu_var_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cpu_var_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_var_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cpu_var_destroy(struct tridi_plan_s *plan);
tridi_status tridi_cpu_var_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);

/* src/cpu/cpu_parallel.c: host solvers that go system by system share this.
 * Each thread keeps its lowest-numbered failing system in a 64-byte slot of
 * the workspace; the execute status is that of the lowest over all threads,
 * so it does not depend on the thread count. */
typedef struct tridi_fail_slot {
  int64_t sys;   /* lowest failing system seen, INT64_MAX when none */
  int32_t info;  /* its info code */
  int32_t internal; /* a solver reported an internal error */
  char pad[64 - sizeof(int64_t) - 2 * sizeof(int32_t)];
} tridi_fail_slot;

void tridi_fail_reset(tridi_fail_slot *slots, int nthr);
/* Record system s's info code (keeps the lowest failing s). */
static inline void tridi_fail_note(tridi_fail_slot *f, int64_t s, int32_t info) {
  if (info != 0 && s < f->sys) {
    f->sys = s;
    f->info = info;
  }
}
/* TRIDI_ERR_INTERNAL if a slot says so, else the status of the lowest failing system. */
tridi_status tridi_fail_status(const tridi_fail_slot *slots, int nthr);
/* Thread t of nt gets items [*b, *e) of `total` (static schedule, contiguous blocks). */
static inline void tridi_static_range(int64_t total, int t, int nt, int64_t *b, int64_t *e) {
  const int64_t q = total / nt, r = total % nt;
  *b = t * q + (t < r ? t : r);
  *e = *b + q + (t < r ? 1 : 0);
}

/* First i in [0, n) with prefix[i] >= v (prefix ascending), n if none. */
static inline int64_t tridi_lower_bound(const int64_t *prefix, int64_t n, int64_t v) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (prefix[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
/* Items [*b, *e) of thread t of nt when items carry weights: prefix[i] is the
 * total weight of items 0 .. i-1 (ascending, n + 1 entries); thread t takes
 * the items that start in the t-th equal share of prefix[n]. */
static inline void tridi_weighted_range(const int64_t *prefix, int64_t n, int64_t t, int64_t nt,
                                        int64_t *b, int64_t *e) {
  const int64_t total = prefix[n];
  /* floor(total * t / nt) without overflow (t <= nt) */
  *b = tridi_lower_bound(prefix, n, total / nt * t + total % nt * t / nt);
  *e = tridi_lower_bound(prefix, n, total / nt * (t + 1) + total % nt * (t + 1) / nt);
}

/* Solve every system of the plan with `fn` (one system at a time; returns
 * the info code, or INT32_MIN for an internal error), systems split over
 * plan->num_threads OpenMP threads.  args->ws holds num_threads slots
 * followed by num_threads x work_bytes (a multiple of 64) of scratch: size it
 * with tridi_run_systems_ws_bytes.  Fills args->info when non-NULL. */
typedef int32_t (*tridi_system_fn)(const struct tridi_plan_s *plan, const tridi_args *args,
                                   int64_t s, void *work);
size_t tridi_run_systems_ws_bytes(const struct tridi_plan_s *plan, size_t work_bytes);
tridi_status tridi_run_systems(const struct tridi_plan_s *plan, const tridi_args *args,
                               tridi_system_fn fn, size_t work_bytes);

/* The general form: items [0, total) split over plan->num_threads OpenMP
 * threads in contiguous blocks; fn(plan, args, ctx, b, e, work, slot)
 * handles items [b, e) with the thread's work_bytes of scratch and failure
 * slot.  Same workspace layout as tridi_run_systems. */
typedef void (*tridi_range_fn)(const struct tridi_plan_s *plan, const tridi_args *args,
                               const void *ctx, int64_t b, int64_t e, void *work,
                               tridi_fail_slot *slot);
tridi_status tridi_run_ranges(const struct tridi_plan_s *plan, const tridi_args *args, int64_t total,
                              tridi_range_fn fn, const void *ctx, size_t work_bytes);

#ifdef TRIDI_HAVE_CUDA
#include "../cuda/cuda_backend.h"       /* declares the CUDA rows' functions */
#include "../cuda/pivot/cuda_pivot.h" /* the pivoting row and AUTO's second pass */
#endif

#endif
