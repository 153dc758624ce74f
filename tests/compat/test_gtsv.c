/* The LAPACK-compatible entry points tridi_?gtsv and tridi_?gtsv_batch
 * (tridi.h) against LAPACK ?gtsv on the same arguments:
 *   - every array allocated with exactly its LAPACK size (dl, du n-1
 *     elements: AddressSanitizer sees any read of tridi's unused a[0],
 *     c[n-1] described as dl - 1 and du + n - 1);
 *   - random non-dominant matrices (pivoting needed: tiny and zero
 *     diagonals) and dominant ones, f32/f64, n = 0..1000, nrhs = 0..17:
 *     info equal to LAPACK's, backward error <= 16 n eps, and on dominant
 *     matrices x within 16 n eps of LAPACK's; dl, d, du unchanged; the
 *     elements of b outside the n x nrhs block untouched;
 *   - singular matrices: LAPACK's positive info;
 *   - NaN inputs: info 0, that column of x NaN, TRIDI_ERR_NONFINITE;
 *   - each illegal argument: info = -i (every entry of a batch), its
 *     status, nothing written; info NULL;
 *   - batches (packed and padded strides, one singular system): per system
 *     as above; the plan cache: bounded, cleared, shared by threads. */
#include "tt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* exact-size allocation (NULL for 0 elements, as a caller may pass) */
static void *xalloc(size_t es, int64_t count) {
  if (count <= 0) return NULL;
  void *p = malloc((size_t)count * es);
  assert_non_null(p);
  return p;
}

enum { DOMINANT = 0, PIVOTING = 1, SINGULAR = 2 };

/* one system's dl, d, du (exact sizes) */
static void fill_matrix(tt_rng *r, size_t es, int64_t n, void *dl, void *d, void *du, int kind) {
  for (int64_t i = 0; i < n; ++i) {
    double di = kind == DOMINANT ? tt_rng_uniform(r, 3, 5) : tt_rng_uniform(r, -1, 1);
    if (kind != DOMINANT && tt_rng_int(r, 0, 4) == 0) di = tt_rng_int(r, 0, 1) ? 0.0 : 1e-9 * di;
    tt_store(d, es, i, di);
    if (i < n - 1) {
      tt_store(dl, es, i, tt_rng_uniform(r, -1, 1));
      tt_store(du, es, i, tt_rng_uniform(r, -1, 1));
    }
  }
  if (kind == SINGULAR && n >= 2) { /* column k zero: U(k,k) = 0 */
    const int64_t k = tt_rng_int(r, 0, n - 1);
    tt_store(d, es, k, 0.0);
    if (k > 0) tt_store(du, es, k - 1, 0.0);
    if (k < n - 1) tt_store(dl, es, k, 0.0);
  } else if (kind == SINGULAR && n == 1) {
    tt_store(d, es, 0, 0.0);
  }
}

/* LAPACK on copies; returns its info, xl = its solution (n x nrhs, ld n) */
static int lapack(size_t es, int n, int nrhs, const void *dl, const void *d, const void *du,
                  const void *b, int ldb, double *xl) {
  void *l = xalloc(es, n + 1), *dd = xalloc(es, n + 1), *u = xalloc(es, n + 1);
  /* Reference LAPACK's back substitution touches column 1 of b even for
   * nrhs = 0: room for one column at least */
  void *bb = xalloc(es, (int64_t)ldb * (nrhs > 0 ? nrhs : 1) + 1);
  if (n > 1) {
    memcpy(l, dl, (size_t)(n - 1) * es);
    memcpy(u, du, (size_t)(n - 1) * es);
  }
  if (n > 0) memcpy(dd, d, (size_t)n * es);
  if (n > 0 && nrhs > 0) memcpy(bb, b, (size_t)ldb * (size_t)nrhs * es);
  int info = 0;
  if (es == 4) sgtsv_(&n, &nrhs, (float *)l, (float *)dd, (float *)u, (float *)bb, &ldb, &info);
  else dgtsv_(&n, &nrhs, (double *)l, (double *)dd, (double *)u, (double *)bb, &ldb, &info);
  for (int j = 0; j < nrhs; ++j)
    for (int i = 0; i < n; ++i) xl[(size_t)j * n + i] = tt_load(bb, es, (int64_t)j * ldb + i);
  free(l);
  free(dd);
  free(u);
  free(bb);
  return info;
}

/* backward error of column x against (dl, d, du, rhs) */
static double backward(size_t es, int64_t n, const void *dl, const void *d, const void *du,
                       const double *rhs, const double *x) {
  double nr = 0, na = 0, nx = 0, nd = 0;
  for (int64_t i = 0; i < n; ++i) {
    long double r = (long double)tt_load(d, es, i) * x[i] - rhs[i];
    double ra = fabs(tt_load(d, es, i));
    if (i > 0) {
      r += (long double)tt_load(dl, es, i - 1) * x[i - 1];
      ra += fabs(tt_load(dl, es, i - 1));
    }
    if (i < n - 1) {
      r += (long double)tt_load(du, es, i) * x[i + 1];
      ra += fabs(tt_load(du, es, i));
    }
    nr = fmax(nr, fabs((double)r));
    na = fmax(na, ra);
    nx = fmax(nx, fabs(x[i]));
    nd = fmax(nd, fabs(rhs[i]));
  }
  return nr / (na * nx + nd + DBL_MIN);
}

/* Check one system (s) solved by tridi: b (ld ldb) against LAPACK on the
 * original rhs0; tinfo: tridi's info. */
static void check_system(const char *ctx, size_t es, int n, int nrhs, const void *dl,
                         const void *d, const void *du, const void *rhs0, const void *b, int ldb,
                         int tinfo, int kind) {
  double *xl = malloc(((size_t)n * (size_t)nrhs + 1) * sizeof *xl);
  double *col = malloc(((size_t)n + 1) * sizeof *col), *r0 = malloc(((size_t)n + 1) * sizeof *r0);
  assert_true(xl && col && r0);
  const int linfo = lapack(es, n, nrhs, dl, d, du, rhs0, ldb, xl);
  if (tinfo != linfo) tt_fail("%s: info %d, LAPACK %d", ctx, tinfo, linfo);
  const double eps = es == 4 ? FLT_EPSILON : DBL_EPSILON;
  if (tinfo == 0 && linfo == 0)
    for (int j = 0; j < nrhs; ++j) {
      double dmax = 0, lmax = 0;
      for (int i = 0; i < n; ++i) {
        col[i] = tt_load(b, es, (int64_t)j * ldb + i);
        r0[i] = tt_load(rhs0, es, (int64_t)j * ldb + i);
        dmax = fmax(dmax, fabs(col[i] - xl[(size_t)j * n + i]));
        lmax = fmax(lmax, fabs(xl[(size_t)j * n + i]));
      }
      const double be = backward(es, n, dl, d, du, r0, col);
      if (!(be <= 16.0 * (n + 1) * eps))
        tt_fail("%s: column %d: backward error %.3g > %.3g", ctx, j, be, 16.0 * (n + 1) * eps);
      if (kind == DOMINANT && !(dmax <= 16.0 * (n + 1) * eps * lmax))
        tt_fail("%s: column %d: |x - x_lapack| = %.3g > %.3g", ctx, j, dmax,
                16.0 * (n + 1) * eps * lmax);
    }
  /* the rows of b past n (ldb > n) untouched */
  for (int j = 0; j < nrhs; ++j)
    for (int i = n; i < ldb; ++i)
      if (memcmp((const char *)b + ((size_t)j * ldb + i) * es,
                 (const char *)rhs0 + ((size_t)j * ldb + i) * es, es))
        tt_fail("%s: b(%d,%d) past n written", ctx, i, j);
  free(xl);
  free(col);
  free(r0);
}

static void test_single(void **state) {
  (void)state;
  static const int NS[] = {0, 1, 2, 3, 7, 8, 9, 16, 17, 33, 100, 1000};
  static const int RHS[] = {0, 1, 2, 5, 17};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t) {
    const size_t es = t ? 8 : 4;
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; ++a)
      for (size_t q = 0; q < sizeof RHS / sizeof RHS[0]; ++q)
        for (int kind = 0; kind < 3; ++kind) {
          const int n = NS[a], nrhs = RHS[q], ldb = n + (int)(k % 3);
          tt_rng r;
          tt_rng_init(&r, tt_case_seed("gtsv", k++));
          void *dl = xalloc(es, n - 1), *d = xalloc(es, n), *du = xalloc(es, n - 1);
          void *cdl = xalloc(es, n - 1), *cd = xalloc(es, n), *cdu = xalloc(es, n - 1);
          const int64_t bl = (int64_t)(ldb > 0 ? ldb : 1) * nrhs;
          void *b = xalloc(es, bl), *rhs0 = xalloc(es, bl);
          fill_matrix(&r, es, n, dl, d, du, kind);
          for (int64_t i = 0; i < bl; ++i) tt_store(b, es, i, tt_rng_uniform(&r, -1, 1));
          if (bl > 0) memcpy(rhs0, b, (size_t)bl * es);
          if (n > 1) {
            memcpy(cdl, dl, (size_t)(n - 1) * es);
            memcpy(cdu, du, (size_t)(n - 1) * es);
          }
          if (n > 0) memcpy(cd, d, (size_t)n * es);
          int info = 12345;
          const tridi_status st =
              es == 4 ? tridi_sgtsv(n, nrhs, dl, d, du, b, ldb > 0 ? ldb : 1, &info)
                      : tridi_dgtsv(n, nrhs, dl, d, du, b, ldb > 0 ? ldb : 1, &info);
          char ctx[160];
          snprintf(ctx, sizeof ctx, "%sgtsv n %d nrhs %d ldb %d kind %d", es == 4 ? "s" : "d", n,
                   nrhs, ldb, kind);
          const tridi_status want =
              info > 0 ? TRIDI_ERR_ZERO_PIVOT : info == 0 ? TRIDI_SUCCESS : TRIDI_ERR_INTERNAL;
          if (st != want) tt_fail("%s: status %s with info %d", ctx, tridi_status_name(st), info);
          check_system(ctx, es, n, nrhs, dl, d, du, rhs0, b, ldb > 0 ? ldb : 1, info, kind);
          if ((n > 1 && (memcmp(cdl, dl, (size_t)(n - 1) * es) || memcmp(cdu, du, (size_t)(n - 1) * es))) ||
              (n > 0 && memcmp(cd, d, (size_t)n * es)))
            tt_fail("%s: dl, d or du modified", ctx);
          free(dl), free(d), free(du), free(cdl), free(cd), free(cdu), free(b), free(rhs0);
        }
  }
  tt_assert_no_failures();
}

/* A NaN input: info 0 as LAPACK, that column NaN, TRIDI_ERR_NONFINITE. */
static void test_nonfinite(void **state) {
  (void)state;
  for (int nrhs = 1; nrhs <= 3; nrhs += 2) {
    const int n = 40;
    double *dl = xalloc(8, n - 1), *d = xalloc(8, n), *du = xalloc(8, n - 1), *b = xalloc(8, n * nrhs);
    tt_rng r;
    tt_rng_init(&r, tt_case_seed("gtsv_nan", (uint64_t)nrhs));
    fill_matrix(&r, 8, n, dl, d, du, DOMINANT);
    for (int i = 0; i < n * nrhs; ++i) b[i] = tt_rng_uniform(&r, -1, 1);
    b[(nrhs - 1) * n + 7] = NAN; /* the last column's rhs */
    int info = 5;
    tt_expect_status(tridi_dgtsv(n, nrhs, dl, d, du, b, n, &info), TRIDI_ERR_NONFINITE, "NaN rhs");
    assert_int_equal(info, 0);
    for (int i = 0; i < n; ++i) {
      if (!isnan(b[(nrhs - 1) * n + i])) tt_fail("nrhs %d: x[%d] of the NaN column is %g", nrhs, i, b[(nrhs - 1) * n + i]);
      if (nrhs > 1 && !isfinite(b[i])) tt_fail("nrhs %d: x[%d] of a finite column is %g", nrhs, i, b[i]);
    }
    free(dl), free(d), free(du), free(b);
  }
  tt_assert_no_failures();
}

/* Each illegal argument: info -i, its status, b untouched. */
static void test_args(void **state) {
  (void)state;
  enum { N = 6 };
  double dl[N - 1], d[N], du[N - 1], b[2 * N], b0[2 * N];
  for (int i = 0; i < N; ++i) d[i] = 4;
  for (int i = 0; i < N - 1; ++i) dl[i] = du[i] = 1;
  for (int i = 0; i < 2 * N; ++i) b0[i] = b[i] = i;
  const struct {
    int n, nrhs, ldb, which_null, info;
    tridi_status st;
  } rows[] = {
      {-1, 1, N, 0, -1, TRIDI_ERR_INVALID_SHAPE}, {N, -1, N, 0, -2, TRIDI_ERR_INVALID_SHAPE},
      {N, 1, N - 1, 0, -7, TRIDI_ERR_INVALID_STRIDE}, {N, 1, 0, 0, -7, TRIDI_ERR_INVALID_STRIDE},
      {N, 1, N, 3, -3, TRIDI_ERR_NULL_POINTER},   {N, 1, N, 4, -4, TRIDI_ERR_NULL_POINTER},
      {N, 1, N, 5, -5, TRIDI_ERR_NULL_POINTER},   {N, 1, N, 6, -6, TRIDI_ERR_NULL_POINTER},
  };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k) {
    int info = 99;
    const tridi_status st =
        tridi_dgtsv(rows[k].n, rows[k].nrhs, rows[k].which_null == 3 ? NULL : dl,
                    rows[k].which_null == 4 ? NULL : d, rows[k].which_null == 5 ? NULL : du,
                    rows[k].which_null == 6 ? NULL : b, rows[k].ldb, &info);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "argument row %zu", k);
    tt_expect_status(st, rows[k].st, ctx);
    if (info != rows[k].info) tt_fail("%s: info %d, expected %d", ctx, info, rows[k].info);
    if (memcmp(b, b0, sizeof b)) tt_fail("%s: b written", ctx);
    if (!strstr(tridi_last_error(), "argument")) tt_fail("%s: message '%s'", ctx, tridi_last_error());
  }
  tt_expect_status(tridi_dgtsv(N, 1, dl, d, du, b, N, NULL), TRIDI_ERR_NULL_POINTER, "info NULL");
  /* b overlapping d: an illegal b (-6) */
  int info = 0;
  double m[3 * N];
  for (int i = 0; i < 3 * N; ++i) m[i] = i < N ? 4.0 : 1.0;
  tt_expect_status(tridi_dgtsv(N, 2, dl, m, du, m + 2, N, &info), TRIDI_ERR_OVERLAP, "b overlaps d");
  if (info != -6) tt_fail("b overlaps d: info %d", info);
  /* n = 1 with dl, du NULL (0 elements) is valid */
  double one = 2, rhs = 3;
  tt_expect_status(tridi_dgtsv(1, 1, NULL, &one, NULL, &rhs, 1, &info), TRIDI_SUCCESS, "n 1");
  if (info != 0 || rhs != 1.5) tt_fail("n 1: info %d x %g", info, rhs);
  /* batch: every info entry gets -i */
  int binfo[3] = {7, 7, 7};
  tt_expect_status(tridi_dgtsv_batch(N, 1, 3, dl, N - 2, d, N, du, N - 1, b, N, N, binfo),
                   TRIDI_ERR_INVALID_STRIDE, "stride_dl");
  for (int s = 0; s < 3; ++s)
    if (binfo[s] != -5) tt_fail("batch stride_dl: info[%d] = %d", s, binfo[s]);
  tt_expect_status(tridi_dgtsv_batch(N, 2, 3, dl, N - 1, d, N, du, N - 1, b, N, N, binfo),
                   TRIDI_ERR_INVALID_STRIDE, "stride_b");
  if (binfo[2] != -12) tt_fail("batch stride_b: info %d", binfo[2]);
  tt_expect_status(tridi_dgtsv_batch(N, 1, -1, dl, N - 1, d, N, du, N - 1, b, N, N, binfo),
                   TRIDI_ERR_INVALID_SHAPE, "batch < 0");
  tt_assert_no_failures();
}

/* Batches in LAPACK storage: exact-size arrays, packed or padded strides,
 * one singular system. */
static void run_batch(size_t es, int n, int nrhs, int batch, int pad, uint64_t seed) {
  const int64_t sdl = n - 1 + pad, sd = n + pad, sdu = n - 1 + 2 * pad;
  const int ldb = n + pad, sb = ldb * nrhs + pad;
  /* each array ends at its last described element */
  const int64_t ldl = batch > 0 && n > 1 ? (batch - 1) * sdl + n - 1 : 0;
  const int64_t ld = batch > 0 ? (batch - 1) * sd + n : 0;
  const int64_t ldu = batch > 0 && n > 1 ? (batch - 1) * sdu + n - 1 : 0;
  const int64_t lb = batch > 0 ? (int64_t)(batch - 1) * sb + (int64_t)ldb * nrhs : 0;
  void *dl = xalloc(es, ldl), *d = xalloc(es, ld), *du = xalloc(es, ldu);
  void *b = xalloc(es, lb), *b0 = xalloc(es, lb);
  int *info = malloc((size_t)(batch > 0 ? batch : 1) * sizeof *info);
  tt_rng r;
  tt_rng_init(&r, seed);
  for (int64_t i = 0; i < ldl; ++i) tt_store(dl, es, i, NAN); /* gaps: NaN */
  for (int64_t i = 0; i < ld; ++i) tt_store(d, es, i, NAN);
  for (int64_t i = 0; i < ldu; ++i) tt_store(du, es, i, NAN);
  for (int64_t i = 0; i < lb; ++i) tt_store(b, es, i, tt_rng_uniform(&r, -1, 1));
  int kinds[64];
  for (int s = 0; s < batch; ++s) {
    kinds[s % 64] = s == batch / 2 ? SINGULAR : (s % 3 == 0 ? DOMINANT : PIVOTING);
    fill_matrix(&r, es, n, (char *)dl + (size_t)(s * sdl) * es, (char *)d + (size_t)(s * sd) * es,
                (char *)du + (size_t)(s * sdu) * es, kinds[s % 64]);
  }
  if (lb > 0) memcpy(b0, b, (size_t)lb * es);
  const tridi_status st =
      es == 4 ? tridi_sgtsv_batch(n, nrhs, batch, dl, sdl, d, sd, du, sdu, b, ldb, sb, info)
              : tridi_dgtsv_batch(n, nrhs, batch, dl, sdl, d, sd, du, sdu, b, ldb, sb, info);
  tridi_status want = TRIDI_SUCCESS;
  for (int s = 0; s < batch && want == TRIDI_SUCCESS; ++s)
    if (info[s] > 0) want = TRIDI_ERR_ZERO_PIVOT;
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%sgtsv_batch n %d nrhs %d batch %d pad %d", es == 4 ? "s" : "d", n,
           nrhs, batch, pad);
  tt_expect_status(st, want, ctx);
  for (int s = 0; s < batch; ++s) {
    char c2[200];
    snprintf(c2, sizeof c2, "%s system %d", ctx, s);
    check_system(c2, es, n, nrhs, (char *)dl + (size_t)(s * sdl) * es, (char *)d + (size_t)(s * sd) * es,
                 (char *)du + (size_t)(s * sdu) * es, (char *)b0 + (size_t)(s * sb) * es,
                 (char *)b + (size_t)(s * sb) * es, ldb, info[s], kinds[s % 64]);
  }
  free(dl), free(d), free(du), free(b), free(b0), free(info);
}

static void test_batch(void **state) {
  (void)state;
  static const int NS[] = {1, 2, 3, 8, 17, 100, 513};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; ++a)
      for (int nrhs = 1; nrhs <= 3; nrhs += 2)
        for (int pad = 0; pad <= 3; pad += 3) {
          const int batch = NS[a] <= 17 ? 61 : 19;
          run_batch(t ? 8 : 4, NS[a], nrhs, batch, pad, tt_case_seed("gtsv_batch", k++));
        }
  run_batch(8, 5, 1, 0, 0, 1); /* empty batch */
  tt_assert_no_failures();
}

/* The plan cache: at most 16 plans, reused, cleared; threads share it. */
typedef struct worker {
  int id;
  long fails;
} worker;

static void *work(void *arg) {
  worker *w = (worker *)arg;
  for (int it = 0; it < 30; ++it) {
    const int n = 20 + (w->id * 7 + it) % 23, batch = 5 + it % 4;
    run_batch(8, n, 1 + it % 2, batch, it % 2, (uint64_t)(w->id * 1000 + it));
  }
  return NULL;
}

static void test_cache(void **state) {
  (void)state;
  tridi_gtsv_cache_clear();
  assert_int_equal(tridi_gtsv_cache_size(), 0);
  run_batch(8, 10, 1, 40, 0, 3);
  const int one = tridi_gtsv_cache_size();
  assert_int_equal(one, 1);
  run_batch(8, 10, 1, 40, 0, 4); /* the same shape: the same plan */
  assert_int_equal(tridi_gtsv_cache_size(), 1);
  for (int n = 2; n < 40; ++n) run_batch(8, n, 1, 3, 0, (uint64_t)n);
  assert_int_equal(tridi_gtsv_cache_size(), 16);
  enum { T = 4 };
  pthread_t th[T];
  worker w[T];
  for (int i = 0; i < T; ++i) {
    w[i].id = i;
    assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < T; ++i) pthread_join(th[i], NULL);
  tridi_gtsv_cache_clear();
  assert_int_equal(tridi_gtsv_cache_size(), 0);
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_single), TT_TEST(test_nonfinite), TT_TEST(test_args),
      TT_TEST(test_batch),  TT_TEST(test_cache),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
