/* The kind-independent part of the tridi test harness (tt_ = "tridi test"):
 *
 * - seeds: tt_seed() is the suite seed (env TRIDI_TEST_SEED, else a fixed
 *   default); every failure message carries it so a run can be repeated;
 * - a small deterministic RNG (splitmix64);
 * - failure reports: tt_fail() prints and counts, a test ends with
 *   tt_assert_no_failures(), so one run reports every failing case;
 * - element access and NaN poisoning of f32/f64 arrays;
 * - info arrays with guards;
 * - configurations (tt_config): every host backend/algorithm/SIMD level this
 *   build and CPU have;
 * - LAPACK prototypes and the cmocka glue.
 *
 * Problems (what is solved and how it is checked) are in tt_problem.h; the
 * producers of problems, one per kind, in tests/<kind>/ (tests/scalar/). */
#ifndef TT_CORE_H
#define TT_CORE_H

#include "tridi.h"
#include "tridi_internal.h" /* tridi_ref_thomas_f32/_f64: the oracle */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* cmocka needs these before its header */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define TT_NOPS TRIDI_NUM_OPERANDS
enum { TT_A = 0, TT_B = 1, TT_C = 2, TT_D = 3, TT_X = 4 };
/* "abcdx"[op]: an operand's name in messages */
extern const char tt_op_names[TT_NOPS + 1];

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
/* Quiet (1): tt_fail counts but does not print -- for tests of the checker
 * itself, which provoke failures on purpose.  Returns the previous value. */
int tt_set_quiet(int quiet);
/* Verbose when env TRIDI_TEST_VERBOSE is set. */
int tt_verbose(void);
/* The checker's largest passing ratios to its bounds (residual, reference,
 * LAPACK), printed by tt_assert_no_failures in verbose runs. */
void tt_note_margin(int which, double ratio);

/* Check a status; on mismatch record a failure naming `what` and the
 * library's last error. Returns 1 when equal. */
int tt_expect_status(tridi_status got, tridi_status want, const char *what);

/* ---- elements and poison ---------------------------------------------------- */

/* Element idx (not bytes) of an f32 (es 4) or f64 (es 8) array, as double
 * (inline: the checker calls it for every element). */
static inline double tt_load(const void *base, size_t es, int64_t idx) {
  if (es == 4) {
    float f;
    memcpy(&f, (const char *)base + idx * 4, 4);
    return f;
  }
  double d;
  memcpy(&d, (const char *)base + idx * 8, 8);
  return d;
}
static inline void tt_store(void *base, size_t es, int64_t idx, double v) {
  if (es == 4) {
    const float f = (float)v;
    memcpy((char *)base + idx * 4, &f, 4);
  } else {
    memcpy((char *)base + idx * 8, &v, 8);
  }
}

/* NaN poison patterns, and a test for them. */
extern const uint32_t tt_poison_f32;
extern const uint64_t tt_poison_f64;
void tt_poison(void *p, size_t es, int64_t count);
int tt_is_poison(const void *p, size_t es);

/* ---- info arrays -------------------------------------------------------------- */

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

/* ---- configurations ----------------------------------------------------------- */

typedef struct tt_config {
  char name[64];
  tridi_options opts;
  int null_opts; /* pass opts = NULL (the defaults) */
} tt_config;
#define TT_MAX_CONFIGS 16
/* Every host backend/algorithm/SIMD combination of this build and CPU:
 * defaults (NULL options: TRIDI_PIVOT_AUTO), and with TRIDI_PIVOT_NONE
 * REF/AUTO, REF/THOMAS_REF, CPU/AUTO, CPU/THOMAS_REF, CPU/THOMAS with SIMD
 * AUTO and each supported level; CPU/AUTO with TRIDI_PIVOT_AUTO; with
 * TRIDI_PIVOT_PARTIAL REF/AUTO,
 * CPU/AUTO, CPU/LU_PARTIAL portable and AVX2 (when the CPU has more: AUTO
 * takes the best).  Returns the count. */
int tt_configs(tt_config *cfg);
/* The REF and CPU rows of the parallel algorithms (CR, PCR, RD, CR+PCR,
 * CR+RD; tests/algs checks their results and info codes).  The tests that
 * only compare runs with each other (threads, workspaces) add these.
 * Returns the count (at most TT_MAX_CONFIGS). */
int tt_alg_configs(tt_config *cfg);
/* Check what tridi_plan_get_info says against the configuration. */
void tt_check_plan_info(tridi_plan plan, const tt_config *cfg, int64_t n, int64_t nsys,
                        const char *ctx);

/* ---- LAPACK and cmocka -------------------------------------------------------- */

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
