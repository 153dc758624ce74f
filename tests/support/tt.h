/* Shared helpers of the tridi test suite (tt_ = "tridi test").
 *
 * - seeds: tt_seed() is the suite seed (env TRIDI_TEST_SEED, else a fixed
 *   default); every failure message carries it so a run can be repeated;
 * - a small deterministic RNG (splitmix64);
 * - layouts (tt_layout): rank, shape, axis, per-operand strides, in place;
 * - problems (tt_problem): one buffer per operand sized for any strides
 *   (negative ones included), filled with diagonally dominant random values,
 *   NaN in every input element that is not described or is ignored (a[0],
 *   c[n-1]), x poisoned with a NaN pattern; the reference-solver and LAPACK
 *   solutions computed once;
 * - checks: inputs bit-for-bit unchanged, every described x element written,
 *   every other element of the x allocation bit-for-bit untouched, relative
 *   residual ||Ax-d||/(||A|| ||x|| + ||d||) <= TT_RESID_C * n * eps per
 *   system, closeness to the reference solver and to LAPACK, info values;
 * - configurations (tt_config): every backend/algorithm/SIMD level this build
 *   and CPU have, for host pointers.
 *
 * Failure messages go to stderr through tt_fail(); a test counts failures
 * and ends with tt_assert_no_failures(), so one run reports every failing
 * case rather than only the first. */
#ifndef TT_H
#define TT_H

#include "tridi.h"
#include "tridi_internal.h" /* tridi_ref_thomas_f32/_f64: the oracle */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs these before its header */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define TT_NOPS TRIDI_NUM_OPERANDS
enum { TT_A = 0, TT_B = 1, TT_C = 2, TT_D = 3, TT_X = 4 };

/* Residual bound: relative residual <= TT_RESID_C * max(n,1) * eps. */
#define TT_RESID_C 8.0
/* Closeness to the reference solver / LAPACK:
 * ||x - y||inf / ||y||inf <= TT_CLOSE_C * max(n,1) * eps. */
#define TT_CLOSE_C 16.0

/* ---- seeds, RNG, failure reporting -------------------------------------- */

/* Suite seed: env TRIDI_TEST_SEED (decimal or 0x hex), else 20261121. */
uint64_t tt_seed(void);
/* A seed for case `k` of test `name` derived from the suite seed. */
uint64_t tt_case_seed(const char *name, uint64_t k);

typedef struct tt_rng {
  uint64_t s;
} tt_rng;
void tt_rng_init(tt_rng *r, uint64_t seed);
uint64_t tt_rng_u64(tt_rng *r);
double tt_rng_uniform(tt_rng *r, double lo, double hi); /* [lo, hi) */
int64_t tt_rng_int(tt_rng *r, int64_t lo, int64_t hi);  /* [lo, hi] */

/* Record one failure: prints "[tridi-test seed=...] <message>" to stderr
 * (the first TT_MAX_MESSAGES only) and counts it. */
void tt_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
#define TT_MAX_MESSAGES 200
/* Failures recorded since the last tt_reset_failures(). */
long tt_failures(void);
void tt_reset_failures(void);
/* cmocka: fail the current test if any failure was recorded (prints how to
 * repeat it) and reset the count. */
void tt_assert_no_failures(void);
/* Verbose when env TRIDI_TEST_VERBOSE is set. */
int tt_verbose(void);

/* Check a status; on mismatch record a failure naming `what` and the
 * library's last error. Returns 1 when equal. */
int tt_expect_status(tridi_status got, tridi_status want, const char *what);

/* ---- layouts -------------------------------------------------------------- */

typedef struct tt_layout {
  char name[160];
  tridi_dtype dtype;
  int rank;
  int axis;
  int64_t shape[TRIDI_MAX_RANK];
  int64_t strides[TT_NOPS][TRIDI_MAX_RANK];
  int inplace; /* x is d: same buffer, strides of d */
} tt_layout;

/* Packed row-major strides for all operands. */
void tt_layout_packed(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis);
/* Set the strides of one operand (strides: rank values). */
void tt_layout_strides(tt_layout *L, int op, const int64_t *strides);
/* tt_layout_packed, then the same strides for every operand. */
void tt_layout_shared(tt_layout *L, const char *name, tridi_dtype dtype, int rank,
                      const int64_t *shape, int axis, const int64_t *strides);
/* Layout builders shared by the algorithm suites (host and GPU): batch
 * systems of length n, contiguous (batch, n) axis 1, interleaved (n, batch)
 * axis 0, or the middle axis of (2, n, batch/2) with random strides, padding
 * and signs per operand.  Return 1 (0: no such layout for these sizes). */
typedef int (*tt_builder)(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
int tt_build_contiguous(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
int tt_build_interleaved(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
int tt_build_strided(tt_layout *L, tridi_dtype dt, int64_t n, int64_t batch, tt_rng *r);
/* Random strides for one operand: dimensions stored in a random order, each
 * padded by 0..max_pad elements, each negated with probability 1/3; when
 * allow_bcast, each dimension of extent > 1 gets stride 0 with probability
 * 1/6 (never the axis when it would make a coefficient constant... allowed,
 * the values stay dominant). The result never aliases when allow_bcast = 0. */
void tt_layout_random_strides(tt_layout *L, int op, tt_rng *r, int max_pad, int allow_bcast);
int64_t tt_layout_n(const tt_layout *L);
int64_t tt_layout_nsys(const tt_layout *L);
/* 1 when the strides of operand op map distinct elements to distinct
 * addresses (checked exhaustively; only for small problems). */
int tt_layout_injective(const tt_layout *L, int op);
/* Element offsets of row 0 of system s for every operand (system order:
 * row-major over the non-axis dimensions, as tridi's info array). */
void tt_system_offsets(const tt_layout *L, int64_t s, int64_t off[TT_NOPS]);
/* A printable description of a layout ("name f64 shape=(3,5) axis=1 ..."). */
const char *tt_layout_str(const tt_layout *L, char *buf, size_t len);

/* ---- problems --------------------------------------------------------------- */

/* Values of the use mask. */
enum { TT_UNUSED = 0, TT_USED = 1, TT_IGNORED = 2 };

typedef struct tt_buf {
  unsigned char *mem;  /* allocation (len * esize bytes, exactly: ASan sees overruns) */
  unsigned char *orig; /* contents before the solve */
  int64_t len;         /* elements */
  int64_t base;        /* index in mem of element (0,...,0) */
  unsigned char *use;  /* per element: TT_UNUSED / TT_USED / TT_IGNORED bits */
} tt_buf;

typedef struct tt_problem {
  tt_layout L;
  size_t es;
  int64_t n, nsys;
  uint64_t seed;
  tt_buf buf[TT_NOPS]; /* buf[TT_X] unused (len 0) when L.inplace */
  double *xref;        /* reference solver solution, nsys * n */
  int32_t *ref_info;   /* reference solver info, nsys */
  double *xlap;        /* LAPACK solution, nsys * n (NaN where LAPACK failed) */
  int32_t *lap_info;   /* LAPACK info */
  const unsigned char *info_any_row; /* NULL, or (owned by the caller) per system:
                                        1 = tt_problem_check accepts any NaN/Inf
                                        code -1..-n (the row is unspecified) */
} tt_problem;

/* Guards (elements) around each allocation: lead[op] before the lowest
 * described element, tail[op] after the highest.  Allocations are 64-byte
 * aligned, so lead[op] * esize sets the alignment of the lowest element.
 * NULL: defaults (x: 3 and 5, not 64-byte aligned; inputs: 0..3 before, 0
 * after, so ASan sees reads past the end). */
typedef struct tt_guards {
  int64_t lead[TT_NOPS];
  int64_t tail[TT_NOPS];
} tt_guards;

/* Build a problem: allocate, fill, compute the oracles.  Returns 0 on
 * success (-1: out of memory, reported with tt_fail). */
int tt_problem_init(tt_problem *P, const tt_layout *L, uint64_t seed, const tt_guards *g);
void tt_problem_free(tt_problem *P);
/* Base pointer of operand op (x is d's when in place). */
void *tt_ptr(const tt_problem *P, int op);
/* Set element (system s, row i) of operand op (a..d) to v, in the buffer and
 * its original copy.  Call tt_problem_oracle() afterwards. */
void tt_problem_set(tt_problem *P, int op, int64_t s, int64_t i, double v);
double tt_problem_get_orig(const tt_problem *P, int op, int64_t s, int64_t i);
/* Element i of the solution x of system s, as the buffers hold it now. */
double tt_problem_get_x(const tt_problem *P, int64_t s, int64_t i);
/* Relative residual |A x - d|_inf / (|A|_inf |x|_inf + |d|_inf) of system s
 * against the original inputs, in long double; INFINITY if x has an Inf or
 * NaN. */
double tt_problem_residual(const tt_problem *P, int64_t s);
/* A Laplacian-like symmetric positive definite family on which RD's
 * recurrence hardly grows at any n: row i scaled by v_i in +-[1, 2),
 * a_i, c_i = -v_i (1 - u/n^2), b_i = v_i (2 + (1 + u)/n^2), u in [0, 1),
 * d_i in [-1, 1); then the oracles.  (Condition numbers grow like n^2, so
 * only residuals should be judged.) */
void tt_problem_fill_laplacian(tt_problem *P, uint64_t seed);
/* (Re)compute the reference and LAPACK solutions from the original inputs. */
void tt_problem_oracle(tt_problem *P);
/* Restore every buffer to its original contents (x poisoned again). */
void tt_problem_reset(tt_problem *P);
/* Descriptor and plan for this problem (the descriptor is destroyed right
 * after tridi_plan_create: plans must not depend on it).  opts may be NULL. */
tridi_status tt_problem_plan(const tt_problem *P, const tridi_options *opts, tridi_plan *plan);
/* Execute with the problem's pointers. */
tridi_status tt_problem_execute(const tt_problem *P, tridi_plan plan, int32_t *info);

/* Check everything after a solve (see the file comment).  info may be NULL.
 * Systems with ref_info != 0 are not compared (their x is unspecified).
 * Returns the number of failures recorded. */
long tt_problem_check(const tt_problem *P, const char *ctx, const int32_t *info);
/* Check that nothing at all was written: every buffer equals its original. */
long tt_problem_check_untouched(const tt_problem *P, const char *ctx);
/* Expected execute status: breakdown kind of the lowest failing system. */
tridi_status tt_problem_expected_status(const tt_problem *P);

/* info array with guards on both sides, poisoned. */
typedef struct tt_info {
  int32_t *mem;
  int32_t *info; /* mem + TT_INFO_GUARD */
  int64_t nsys;
} tt_info;
#define TT_INFO_GUARD 4
#define TT_INFO_POISON ((int32_t)0x5eadbeef)
void tt_info_alloc(tt_info *I, int64_t nsys);
void tt_info_poison(tt_info *I);
void tt_info_free(tt_info *I);
/* 1 when the guards are intact (records a failure otherwise). */
int tt_info_guards_ok(const tt_info *I, const char *ctx);

/* Reset P, poison I, execute, expect status `want`, check everything
 * (tt_problem_check) and I's guards.  Returns tt_problem_check's count. */
long tt_problem_solve_check(tt_problem *P, tridi_plan plan, tt_info *I, tridi_status want,
                            const char *ctx);

/* Element idx (not bytes) of an f32 (es 4) or f64 (es 8) array, as double. */
double tt_load(const void *base, size_t es, int64_t idx);
void tt_store(void *base, size_t es, int64_t idx, double v);

/* NaN poison patterns, and a test for them. */
extern const uint32_t tt_poison_f32;
extern const uint64_t tt_poison_f64;
void tt_poison(void *p, size_t es, int64_t count);

/* ---- configurations ----------------------------------------------------------- */

typedef struct tt_config {
  char name[64];
  tridi_options opts;
  int null_opts; /* pass opts = NULL (the defaults) */
} tt_config;
#define TT_MAX_CONFIGS 16
/* Every host backend/algorithm/SIMD combination of this build and CPU:
 * defaults (NULL options), REF/AUTO, REF/THOMAS_REF, CPU/AUTO,
 * CPU/THOMAS_REF, CPU/THOMAS with SIMD AUTO and each supported level.
 * Returns the count. */
int tt_configs(tt_config *cfg);
/* The REF and CPU rows of the parallel algorithms (CR, PCR, RD, CR+PCR,
 * CR+RD; tests/algs checks their results and info codes).  The tests that
 * only compare runs with each other (threads, workspaces) add these.
 * Returns the count (at most TT_MAX_CONFIGS). */
int tt_alg_configs(tt_config *cfg);
/* Check what tridi_plan_get_info says against the configuration. */
void tt_check_plan_info(tridi_plan plan, const tt_config *cfg, int64_t n, int64_t nsys,
                        const char *ctx);

/* LAPACK (Fortran calling convention; no hidden string arguments). */
void sgtsv_(const int *n, const int *nrhs, float *dl, float *d, float *du, float *b,
            const int *ldb, int *info);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);

/* Run a cmocka group, optionally filtered by argv[1] (a glob on test names,
 * see cmocka_set_test_filter) so that CTest can run slices in parallel. */
#define TT_RUN_GROUP(tests, argc, argv)                              \
  (((argc) > 1 ? cmocka_set_test_filter((argv)[1]) : (void)0),       \
   cmocka_run_group_tests((tests), tt_group_setup, NULL))
int tt_group_setup(void **state);
/* A cmocka test whose setup clears the failure count (a test that stopped
 * on a cmocka assert must not leak its count into the next). */
#define TT_TEST(f) cmocka_unit_test_setup(f, tt_test_setup)
int tt_test_setup(void **state);

#endif
