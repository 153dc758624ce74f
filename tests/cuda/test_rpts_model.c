/* The host model of the partitioned pivoting solver (rpts_model.h) on the
 * matrix collection (tests/matrices), f32 and f64, partitions of M = 4, 8,
 * 16 and 32 rows, one-thread elimination at <= 16 rows, n from 2 to 4096,
 * without and with one step of refinement on rejection,
 * against LAPACK ?gtsv on the same systems ("within 10x": backward error <=
 * 10 max(?gtsv's backward error, eps)):
 *   acceptance  every system the acceptance check accepts is within 10x of
 *               ?gtsv (the rejected ones are solved again by the exact
 *               solver);
 *   dominant    strictly row- or column-dominant matrices are accepted
 *               (the fallback is not their common path).
 * Both print, per matrix, how many systems the partitioned solve alone
 * brings within 10x, how many the check rejects, and the largest backward
 * error over ?gtsv's: the table of docs/perf-log.md ("CUDA pivoting v2:
 * partitions").  Runs on the CPU (no GPU needed). */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
/* clang-format on */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "matgen.h"
#include "rpts_model.h"

static long fails;
#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      if (++fails <= 30) {                                                 \
        fprintf(stderr, "[test_rpts_model] %s:%d: ", __func__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                      \
        fputc('\n', stderr);                                               \
      }                                                                    \
    }                                                                      \
  } while (0)

static const int64_t sizes[] = {2,   3,   4,   5,   7,   8,    16,   17,   31,   32,  33,
                                64,  100, 128, 255, 512, 1000, 1024, 2048, 4096};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const int Ms[] = {4, 8, 16, 32};
#define NMS ((int)(sizeof Ms / sizeof Ms[0]))
#define TOP 16

/* per matrix and element type */
typedef struct tally {
  long sys, within, rejected, rejected1, bad_accepted;
  double worst; /* largest berr / max(?gtsv's berr, eps) */
} tally;

/* one system: the model's and ?gtsv's backward errors; returns the model's
 * verdict (0 accepted, 1 rejected) */
static int solve_one(int f64, int M, int refine, int64_t n, const double *a, const double *b, const double *c,
                     const double *d, double *x, float *fw, double *be, double *be_lapack) {
  int r;
  if (f64) {
    r = rm_solve_f64(n, M, TOP, refine, a, b, c, d, x, NULL);
    assert_true(r >= 0);
    double *xl = malloc(sizeof(double) * (size_t)n);
    assert_non_null(xl);
    const int info = mg_lapack_gtsv_f64(n, a, b, c, d, xl);
    *be_lapack = info == 0 ? mg_backward_error(n, a, b, c, d, xl) : NAN;
    free(xl);
  } else {
    float *fa = fw, *fb = fw + n, *fc = fw + 2 * n, *fd = fw + 3 * n, *fx = fw + 4 * n;
    mg_to_f32(n, a, fa);
    mg_to_f32(n, b, fb);
    mg_to_f32(n, c, fc);
    mg_to_f32(n, d, fd);
    r = rm_solve_f32(n, M, TOP, refine, fa, fb, fc, fd, fx, NULL);
    assert_true(r >= 0);
    float *xl = fx + n;
    const int info = mg_lapack_gtsv_f32(n, fa, fb, fc, fd, xl);
    if (info == 0) {
      mg_from_f32(n, xl, x);
      *be_lapack = mg_backward_error(n, a, b, c, d, x);
    } else {
      *be_lapack = NAN;
    }
    mg_from_f32(n, fx, x);
  }
  *be = INFINITY;
  int finite = 1;
  for (int64_t i = 0; i < n; ++i) finite &= isfinite(x[i]) != 0;
  if (finite) *be = mg_backward_error(n, a, b, c, d, x);
  return r;
}

static void run(int check_acceptance, int check_dominant) {
  tally all = {0, 0, 0, 0, 0, 0};
  printf("| matrix | f32 within 10x | f32 worst | f32 rejected (0 / 1 step) | f64 within 10x | "
         "f64 worst | f64 rejected (0 / 1 step) |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    const int dominant = (m->props & (MG_ROW_DOM | MG_COL_DOM)) && !(m->props & MG_ILL) &&
                         !(m->props & MG_DOM_WEAK);
    tally t[2] = {{0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}};
    for (int in = 0; in < NSIZES; ++in) {
      const int64_t n = sizes[in];
      if ((m->props & MG_DENSE) && n > 128) continue;
      for (uint64_t seed = 1; seed <= ((m->props & MG_RANDOM) ? 2u : 1u); ++seed) {
        double *v = malloc(sizeof(double) * 6 * (size_t)n);
        float *fw = malloc(sizeof(float) * 6 * (size_t)n);
        assert_non_null(v);
        assert_non_null(fw);
        double *a = v, *b = v + n, *c = v + 2 * n, *xt = v + 3 * n, *d = v + 4 * n, *x = v + 5 * n;
        for (int f64 = 0; f64 <= 1; ++f64) {
          assert_int_equal(mg_generate(m, n, seed, a, b, c), 0);
          mg_system(n, seed, !f64, a, b, c, xt, d);
          const double eps = f64 ? DBL_EPSILON : FLT_EPSILON;
          const int dom = dominant && (f64 || ((!(m->props & MG_ROW_DOM) || mg_is_row_dominant(n, a, b, c, 0)) &&
                                               (!(m->props & MG_COL_DOM) || mg_is_col_dominant(n, a, b, c, 0))));
          for (int im = 0; im < NMS; ++im) {
            const int M = Ms[im];
            double be = 0, bl = 0, be1 = 0;
            const int r = solve_one(f64, M, 0, n, a, b, c, d, x, fw, &be, &bl);
            if (isnan(bl)) continue; /* ?gtsv found an exact zero pivot: no baseline */
            const int r1 = solve_one(f64, M, 1, n, a, b, c, d, x, fw, &be1, &bl);
            const double ref = fmax(bl, eps), q = be / ref, q1 = be1 / ref;
            tally *s = &t[f64];
            ++s->sys;
            s->within += q <= 10;
            s->rejected += r == 1;
            s->rejected1 += r1 == 1;
            s->bad_accepted += (r == 0 && !(q <= 10)) + (r1 == 0 && !(q1 <= 10));
            s->worst = fmax(s->worst, q);
            if (check_acceptance) {
              CHECK(r == 1 || q <= 10,
                    "%s %s n %lld M %d seed %llu: accepted, backward error %.3g > 10 max(?gtsv %.3g, eps)",
                    m->name, f64 ? "f64" : "f32", (long long)n, M, (unsigned long long)seed, be, bl);
              CHECK(r1 == 1 || q1 <= 10,
                    "%s %s n %lld M %d seed %llu: accepted after refinement, backward error %.3g > 10 "
                    "max(?gtsv %.3g, eps)",
                    m->name, f64 ? "f64" : "f32", (long long)n, M, (unsigned long long)seed, be1, bl);
            }
            if (check_dominant && dom)
              CHECK(r == 0, "%s %s n %lld M %d seed %llu: dominant but rejected (backward error %.3g)",
                    m->name, f64 ? "f64" : "f32", (long long)n, M, (unsigned long long)seed, be);
          }
        }
        free(v);
        free(fw);
      }
    }
    printf("| %d %s | %ld / %ld | %.3g | %ld / %ld | %ld / %ld | %.3g | %ld / %ld |\n", m->id, m->name,
           t[0].within, t[0].sys, t[0].worst, t[0].rejected, t[0].rejected1, t[1].within, t[1].sys,
           t[1].worst, t[1].rejected, t[1].rejected1);
    for (int f = 0; f < 2; ++f) {
      all.sys += t[f].sys;
      all.within += t[f].within;
      all.rejected += t[f].rejected;
      all.rejected1 += t[f].rejected1;
      all.bad_accepted += t[f].bad_accepted;
    }
  }
  printf("[test_rpts_model] %ld systems: %ld within 10x of ?gtsv without the check, %ld rejected "
         "(%ld after one refinement step), %ld accepted but not within 10x\n",
         all.sys, all.within, all.rejected, all.rejected1, all.bad_accepted);
  fflush(stdout);
  assert_true(all.rejected > 0); /* the collection exercises the check */
}

static void acceptance(void **state) {
  (void)state;
  fails = 0;
  run(1, 0);
  assert_int_equal(fails, 0);
}
static void dominant(void **state) {
  (void)state;
  fails = 0;
  run(0, 1);
  assert_int_equal(fails, 0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(acceptance),
      cmocka_unit_test(dominant),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
