/* The LAPACK-compatible entry points on the test-matrix collection
 * (tests/matrices, docs/matrices.md: dominant, SPD, non-dominant,
 * ill-conditioned and singular families) against LAPACK ?gtsv on the same
 * data, f64 and f32 (the f32 system is the matrix rounded to float):
 *   - tridi_?gtsv (one system) and tridi_?gtsv_batch (every seed of a
 *     family and length in one call, the vectorised pivoting kernel);
 *   - info equal to LAPACK's (a singular-for-odd-n family may meet an
 *     exactly zero pivot in one and not in the other in the batch kernel,
 *     whose rounding differs from LAPACK's by an FMA: both accepted there);
 *   - where both solved: forward error against the binary128 reference
 *     within LAPACK's bound, 2 fe(LAPACK) + 4 (n+1) eps cond(A), and
 *     backward error within max(16 (n+1) eps, 2 be(LAPACK)). */
#include "tt.h"

#include "matgen.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEEDS = 3 };

typedef struct sys {
  double a[1024], b[1024], c[1024], d[1024]; /* the (rounded) system, as doubles */
  long double xref[1024];
  double xl[1024]; /* LAPACK's x */
  int linfo;
} sys;

/* Judge tridi's x (as doubles) of one system against LAPACK and the reference. */
static void judge(const char *ctx, const sys *s, int64_t n, double eps, const double *x, int info,
                  int singular_odd_batch) {
  if (info != s->linfo) {
    if (singular_odd_batch && info > 0 && s->linfo == 0 && n % 2 == 1) return;
    if (singular_odd_batch && info == 0 && s->linfo > 0 && n % 2 == 1) return;
    tt_fail("%s: info %d, LAPACK %d", ctx, info, s->linfo);
    return;
  }
  if (info != 0) return;
  const double cond = mg_cond_inf(n, s->a, s->b, s->c);
  const double fe_l = mg_forward_error(n, s->xl, s->xref);
  const double fe_t = mg_forward_error(n, x, s->xref);
  const double be_l = mg_backward_error(n, s->a, s->b, s->c, s->d, s->xl);
  const double be_t = mg_backward_error(n, s->a, s->b, s->c, s->d, x);
  const double fe_bound = 2.0 * fe_l + 4.0 * (double)(n + 1) * eps * cond;
  const double be_bound = fmax(16.0 * (double)(n + 1) * eps, 2.0 * be_l);
  if (!(fe_t <= fe_bound) && !(isnan(cond) && isfinite(fe_t)))
    tt_fail("%s: forward error %.3g > %.3g (LAPACK %.3g, cond %.3g)", ctx, fe_t, fe_bound, fe_l,
            cond);
  if (!(be_t <= be_bound))
    tt_fail("%s: backward error %.3g > %.3g (LAPACK %.3g)", ctx, be_t, be_bound, be_l);
}

/* Matrix m at length n, seeds 0..SEEDS-1, in f64 (f32 = 0) or f32. */
static void run_family(const mg_matrix *m, int64_t n, int f32) {
  static sys S[SEEDS];
  const size_t es = f32 ? sizeof(float) : sizeof(double);
  const double eps = f32 ? FLT_EPSILON : DBL_EPSILON;
  const int64_t nm1 = n - 1;
  /* LAPACK storage for the batch: packed, exact sizes (ASan sees any read
   * outside them) */
  char *dl = malloc((size_t)(SEEDS * nm1 + 1) * es), *d = malloc((size_t)(SEEDS * n) * es);
  char *du = malloc((size_t)(SEEDS * nm1 + 1) * es), *b = malloc((size_t)(SEEDS * n) * es);
  char *b1 = malloc((size_t)n * es);
  double *x = malloc((size_t)n * sizeof *x);
  int info[SEEDS];
  assert_true(dl && d && du && b && b1 && x);
  int usable = 1;
  for (int k = 0; k < SEEDS; ++k) {
    sys *s = &S[k];
    const uint64_t seed = 1000u * (uint64_t)m->id + (uint64_t)k;
    if (mg_generate(m, n, seed, s->a, s->b, s->c) != 0) {
      tt_fail("%s n %lld: generator failed", m->name, (long long)n);
      usable = 0;
      break;
    }
    double xt[1024];
    mg_xtrue(n, seed, xt);
    mg_matvec(n, s->a, s->b, s->c, xt, s->d);
    if (f32) {
      mg_round_f32(n, s->a);
      mg_round_f32(n, s->b);
      mg_round_f32(n, s->c);
      mg_round_f32(n, s->d);
    }
    if (mg_ref_solve(n, s->a, s->b, s->c, s->d, s->xref) < 0) {
      tt_fail("%s n %lld: reference failed", m->name, (long long)n);
      usable = 0;
      break;
    }
    if (f32) {
      float fa[1024], fb[1024], fc[1024], fd[1024], fx[1024];
      mg_to_f32(n, s->a, fa), mg_to_f32(n, s->b, fb), mg_to_f32(n, s->c, fc);
      mg_to_f32(n, s->d, fd);
      s->linfo = mg_lapack_gtsv_f32(n, fa, fb, fc, fd, fx);
      mg_from_f32(n, fx, s->xl);
    } else {
      s->linfo = mg_lapack_gtsv_f64(n, s->a, s->b, s->c, s->d, s->xl);
    }
    for (int64_t i = 0; i < n; ++i) {
      if (i < nm1) {
        tt_store(dl, es, k * nm1 + i, s->a[i + 1]);
        tt_store(du, es, k * nm1 + i, s->c[i]);
      }
      tt_store(d, es, k * n + i, s->b[i]);
      tt_store(b, es, k * n + i, s->d[i]);
      tt_store(b1, es, i, s->d[i]);
    }
    /* one system: tridi_?gtsv on exact-size copies of this seed's arrays */
    int inf1 = 12345;
    const tridi_status st =
        f32 ? tridi_sgtsv((int)n, 1, (float *)dl + k * nm1, (float *)d + k * n,
                          (float *)du + k * nm1, (float *)b1, (int)n, &inf1)
            : tridi_dgtsv((int)n, 1, (double *)dl + k * nm1, (double *)d + k * n,
                          (double *)du + k * nm1, (double *)b1, (int)n, &inf1);
    char ctx[128];
    snprintf(ctx, sizeof ctx, "%sgtsv %s n %lld seed %d", f32 ? "s" : "d", m->name, (long long)n, k);
    if ((inf1 == 0) != (st == TRIDI_SUCCESS) && !(inf1 == 0 && st == TRIDI_ERR_NONFINITE))
      tt_fail("%s: status %s with info %d", ctx, tridi_status_name(st), inf1);
    for (int64_t i = 0; i < n; ++i) x[i] = tt_load(b1, es, i);
    judge(ctx, s, n, eps, x, inf1, 0);
  }
  if (usable) {
    const tridi_status st =
        f32 ? tridi_sgtsv_batch((int)n, 1, SEEDS, (float *)dl, nm1, (float *)d, n, (float *)du,
                                nm1, (float *)b, (int)n, n, info)
            : tridi_dgtsv_batch((int)n, 1, SEEDS, (double *)dl, nm1, (double *)d, n,
                                (double *)du, nm1, (double *)b, (int)n, n, info);
    (void)st;
    for (int k = 0; k < SEEDS; ++k) {
      char ctx[128];
      snprintf(ctx, sizeof ctx, "%sgtsv_batch %s n %lld seed %d", f32 ? "s" : "d", m->name,
               (long long)n, k);
      for (int64_t i = 0; i < n; ++i) x[i] = tt_load(b, es, k * n + i);
      judge(ctx, &S[k], n, eps, x, info[k], (m->props & MG_SINGULAR_ODD) != 0);
    }
  }
  free(dl), free(d), free(du), free(b), free(b1), free(x);
}

static void test_collection(void **state) {
  (void)state;
  static const int64_t NS[] = {2, 3, 17, 64, 255, 1024};
  for (int i = 0; i < mg_count; ++i)
    for (size_t j = 0; j < sizeof NS / sizeof NS[0]; ++j) {
      if ((mg_matrices[i].props & MG_DENSE) && NS[j] > 255) continue; /* O(n^3) */
      run_family(&mg_matrices[i], NS[j], 0);
      run_family(&mg_matrices[i], NS[j], 1);
    }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {TT_TEST(test_collection)};
  return TT_RUN_GROUP(tests, argc, argv);
}
