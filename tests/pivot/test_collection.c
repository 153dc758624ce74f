/* The test-matrix collection (tests/matrices) and the reference solvers on
 * it:
 *   properties  every claimed property on the data, for n = 1 .. 1000 and
 *               several seeds: dominance, SPD, symmetry, a[0] = c[n-1] = 0,
 *               finite, deterministic, seed-dependent or not, exactly
 *               singular for odd n, the f32 flush of 1e-50 entries;
 *   closed      the closed forms: lesp(5), kms inverse times kms = I, Dorr's
 *               row sums, Wilkinson's W+, randsvd's singular values (LAPACK
 *               dgesvd) for each mode;
 *   reference   the binary128 reference on integer systems with integer
 *               solutions (exact right-hand sides), cond up to ~1e12;
 *   accuracy    every matrix at n = 512 and small n, f32 and f64: the
 *               reference pivoting solver against ?gtsv (info equal,
 *               backward error within 10x and <= 8 eps, forward error within
 *               10x where ?gtsv has digits);
 *   growth_bounds     G of non-pivoting Thomas <= 2 on strictly row-dominant
 *               matrices, <= 3 on strictly column-dominant ones, 1 on SPD ones
 *               (f64; f32 where the rounded matrix keeps the property);
 *   growth_threshold  on every matrix, n and seed: Thomas's backward error
 *               <= 3 eps G, and G <= 8 (the proposed threshold) => backward
 *               error <= 10 n eps. */
/* cmocka needs setjmp.h, stdarg.h and stddef.h first */
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
#include <string.h>

#include "pivot_case.h"
#include "ref_pivot.h"

static long fails;
#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    if (!(cond)) {                                                        \
      if (++fails <= 30) {                                                \
        fprintf(stderr, "[test_collection] %s:%d: ", __func__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                     \
        fputc('\n', stderr);                                              \
      }                                                                   \
    }                                                                     \
  } while (0)
static int reset_fails(void **state) {
  (void)state;
  fails = 0;
  return 0;
}
#define END_TEST() assert_int_equal(fails, 0)

/* The proposed growth threshold (docs/matrices.md): flag when G > 8. */
#define GROWTH_THRESHOLD 8.0

static const int64_t sizes[] = {1, 2, 3, 4, 5, 8, 16, 33, 64, 100, 128, 512, 1000};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
/* the dense generators are O(n^3): up to 128 here, 512 in `accuracy` */
static int size_ok(const mg_matrix *m, int64_t n) {
  return !(m->props & MG_DENSE) || n <= 128;
}

typedef struct coeffs {
  double *a, *b, *c;
} coeffs;
static coeffs gen(const mg_matrix *m, int64_t n, uint64_t seed) {
  coeffs k;
  k.a = malloc(sizeof(double) * 3 * (size_t)n);
  assert_non_null(k.a);
  k.b = k.a + n;
  k.c = k.b + n;
  assert_int_equal(mg_generate(m, n, seed, k.a, k.b, k.c), 0);
  return k;
}

/* ---- claimed properties ---------------------------------------------------- */

static void properties(void **state) {
  (void)state;
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    CHECK(m->id == k + 1 && mg_by_id(m->id) == m && mg_by_name(m->name) == m,
          "table row %d: id %d, name %s", k, m->id, m->name);
    for (int in = 0; in < NSIZES; ++in) {
      const int64_t n = sizes[in];
      if (!size_ok(m, n)) continue;
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        coeffs g = gen(m, n, seed), h = gen(m, n, seed), o = gen(m, n, seed + 100);
        const char *nm = m->name;
        CHECK(memcmp(g.a, h.a, sizeof(double) * 3 * (size_t)n) == 0, "%s n %lld: not repeatable",
              nm, (long long)n);
        const int same = memcmp(g.a, o.a, sizeof(double) * 3 * (size_t)n) == 0;
        if (m->props & MG_RANDOM)
          CHECK(n < 2 || !same, "%s n %lld: seeds 1 and 101 give the same matrix", nm,
                (long long)n);
        else
          CHECK(same, "%s n %lld: depends on the seed", nm, (long long)n);
        CHECK(g.a[0] == 0 && g.c[n - 1] == 0, "%s n %lld: a[0] or c[n-1] nonzero", nm,
              (long long)n);
        int finite = 1;
        for (int64_t i = 0; i < n; ++i)
          finite &= isfinite(g.a[i]) && isfinite(g.b[i]) && isfinite(g.c[i]);
        CHECK(finite, "%s n %lld: NaN/Inf", nm, (long long)n);
        if (m->props & MG_ROW_DOM)
          CHECK(mg_is_row_dominant(n, g.a, g.b, g.c, 0), "%s n %lld seed %llu: not row dominant",
                nm, (long long)n, (unsigned long long)seed);
        if (m->props & MG_COL_DOM)
          CHECK(mg_is_col_dominant(n, g.a, g.b, g.c, 0), "%s n %lld seed %llu: not col dominant",
                nm, (long long)n, (unsigned long long)seed);
        if (m->props & MG_SPD)
          CHECK(mg_is_spd(n, g.a, g.b, g.c), "%s n %lld: not SPD", nm, (long long)n);
        if (m->props & MG_SYM)
          for (int64_t i = 0; i + 1 < n; ++i)
            CHECK(g.a[i + 1] == g.c[i], "%s n %lld: not symmetric at %lld", nm, (long long)n,
                  (long long)i);
        if (m->props & MG_SINGULAR_ODD) {
          double *x = malloc(sizeof(double) * (size_t)n);
          assert_non_null(x);
          const int info = mg_lapack_gtsv_f64(n, g.a, g.b, g.c, g.b, x);
          CHECK((n % 2 == 1) == (info > 0), "%s n %lld: dgtsv info %d", nm, (long long)n, info);
          free(x);
        }
        /* the f32 flush: claimed exactly when a nonzero entry rounds to 0 */
        int flushed = 0;
        for (int64_t i = 0; i < 3 * n; ++i) flushed |= g.a[i] != 0 && (float)g.a[i] == 0;
        CHECK(n < 2 || flushed == !!(m->props & MG_F32_FLUSH), "%s n %lld: f32 flush %d", nm,
              (long long)n, flushed);
        free(g.a);
        free(h.a);
        free(o.a);
        if (!(m->props & MG_RANDOM)) break;
      }
    }
  }
  END_TEST();
}

/* ---- closed forms ------------------------------------------------------------ */

/* gfortran passes the lengths of character arguments last, as size_t */
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt, const int *ldvt,
             double *work, const int *lwork, int *info, size_t ljobu, size_t ljobvt);

static void closed(void **state) {
  (void)state;
  {
    coeffs g = gen(mg_by_name("lesp"), 5, 1);
    const double a[5] = {0, 1.0 / 2, 1.0 / 3, 1.0 / 4, 1.0 / 5}, b[5] = {-5, -7, -9, -11, -13};
    const double c[5] = {2, 3, 4, 5, 0};
    for (int i = 0; i < 5; ++i)
      CHECK(g.a[i] == a[i] && g.b[i] == b[i] && g.c[i] == c[i], "lesp(5) row %d", i);
    free(g.a);
  }
  {
    coeffs g = gen(mg_by_name("wilkinson"), 5, 1);
    const double b[5] = {2, 1, 0, 1, 2};
    for (int i = 0; i < 5; ++i)
      CHECK(g.b[i] == b[i] && (i == 0 || g.a[i] == 1) && (i == 4 || g.c[i] == 1), "W+ row %d", i);
    free(g.a);
  }
  for (int64_t n = 1; n <= 12; ++n) {
    /* inv(kms(n, 0.5)) * kms(n, 0.5) = I */
    coeffs g = gen(mg_by_name("kms_inv"), n, 1);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = g.b[i] * pow(0.5, fabs((double)(i - j)));
        if (i > 0) s += g.a[i] * pow(0.5, fabs((double)(i - 1 - j)));
        if (i < n - 1) s += g.c[i] * pow(0.5, fabs((double)(i + 1 - j)));
        CHECK(fabs(s - (i == j)) <= 1e-14, "kms n %lld: (T K)(%lld, %lld) = %.17g", (long long)n,
              (long long)i, (long long)j, s);
      }
    free(g.a);
  }
  for (int64_t n = 2; n <= 40; n += 7) {
    /* Dorr: the comparison matrix's row sums are theta (n+1)^2 [1 0 ... 0 1] */
    coeffs g = gen(mg_by_name("dorr"), n, 1);
    const double term = 1e-4 * (double)(n + 1) * (double)(n + 1);
    for (int64_t i = 0; i < n; ++i) {
      const double s = fabs(g.b[i]) - fabs(g.a[i]) - fabs(g.c[i]);
      const double want = (i == 0 || i == n - 1) ? term : 0;
      CHECK(fabs(s - want) <= 1e-12 * (fabs(g.b[i]) + term), "dorr n %lld row %lld: %.17g",
            (long long)n, (long long)i, s);
    }
    free(g.a);
  }
  for (int mode = 1; mode <= 4; ++mode) {
    /* randsvd: the singular values asked for */
    static const char *names[5] = {NULL, "randsvd_1", "randsvd_2", "randsvd_3", "randsvd_4"};
    const int n = 40;
    coeffs g = gen(mg_by_name(names[mode]), n, 7);
    double A[40 * 40], s[40], work[400];
    memset(A, 0, sizeof A);
    for (int i = 0; i < n; ++i) {
      A[i * n + i] = g.b[i];
      if (i > 0) A[(i - 1) * n + i] = g.a[i];
      if (i < n - 1) A[(i + 1) * n + i] = g.c[i];
    }
    int info = 0, lwork = 400, one = 1;
    double dummy;
    dgesvd_("N", "N", &n, &n, A, &n, s, &dummy, &one, &dummy, &one, work, &lwork, &info, 1, 1);
    CHECK(info == 0, "dgesvd info %d", info);
    for (int k = 0; k < n; ++k) {
      const double t = (double)k / (n - 1), kappa = 1e15;
      const double want = mode == 1   ? (k == 0 ? 1 : 1 / kappa)
                          : mode == 2 ? (k == n - 1 ? 1 / kappa : 1)
                          : mode == 3 ? pow(kappa, -t)
                                      : 1 - t * (1 - 1 / kappa);
      CHECK(fabs(s[k] - want) <= 50 * n * DBL_EPSILON,
            "randsvd mode %d: sigma_%d = %.17g, want %.17g", mode, k, s[k], want);
    }
    free(g.a);
  }
  END_TEST();
}

/* ---- the higher-precision reference -------------------------------------------- */

static void reference(void **state) {
  (void)state;
  mg_rng r = {31337};
  enum { N = 200 };
  double a[N], b[N], c[N], d[N], x[N];
  long double xr[N];
  double worst = 0;
  for (int t = 0; t < 300; ++t) {
    const int64_t n = 1 + (int64_t)(mg_rng_u64(&r) % N);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = (double)((int64_t)(mg_rng_u64(&r) % 101) - 50);
      b[i] = (double)((int64_t)(mg_rng_u64(&r) % 101) - 50);
      c[i] = (double)((int64_t)(mg_rng_u64(&r) % 101) - 50);
      x[i] = (double)((int64_t)(mg_rng_u64(&r) % 201) - 100);
    }
    a[0] = c[n - 1] = 0;
    x[0] = 1000;                 /* x != 0 */
    mg_matvec(n, a, b, c, x, d); /* exact: small integers */
    const double cond = mg_cond_inf(n, a, b, c);
    if (!(cond < 1e12)) continue;
    const int32_t info = mg_ref_solve(n, a, b, c, d, xr);
    CHECK(info == 0, "case %d n %lld: info %d (cond %.3g)", t, (long long)n, info, cond);
    if (info) continue;
    const double fe = mg_forward_error(n, x, xr);
    worst = fmax(worst, fe);
    /* x is returned in long double: 2^-63 of rounding, cond 2^-113 of error */
    CHECK(fe <= 0x1.0p-62 + 10 * cond * mg_ref_eps(), "case %d n %lld: error %.3g, cond %.3g", t,
          (long long)n, fe, cond);
  }
  fprintf(stderr, "[test_collection] reference: largest error on exact integer systems %.3g\n",
          worst);
  END_TEST();
}

/* ---- the pivoting reference against ?gtsv on the collection ----------------- */

static void accuracy_case(const pv_case *c) {
  const char *dt = c->dt == PV_F32 ? "f32" : "f64";
  const char *nm = c->m->name;
  const long long n = (long long)c->n;
  CHECK(c->pivot.info == c->lapack.info, "%s %s n %lld: info %d, ?gtsv %d", nm, dt, n,
        (int)c->pivot.info, (int)c->lapack.info);
  if (c->pivot.info || c->lapack.info) return;
  CHECK(c->pivot.berr <= 10 * fmax(c->lapack.berr, c->eps) && c->pivot.berr <= 8 * c->eps,
        "%s %s n %lld: backward error %.3g, ?gtsv %.3g", nm, dt, n, c->pivot.berr, c->lapack.berr);
  if (c->ref_info == 0 && c->lapack.ferr < 0.1)
    CHECK(c->pivot.ferr <= 10 * fmax(c->lapack.ferr, c->eps),
          "%s %s n %lld: forward error %.3g, ?gtsv %.3g", nm, dt, n, c->pivot.ferr, c->lapack.ferr);
}

static void accuracy(void **state) {
  (void)state;
  static const int64_t ns[] = {512, 2, 3, 5, 64, 100};
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    for (int in = 0; in < 6; ++in) {
      const int seeds = (m->props & MG_RANDOM) && !(ns[in] == 512 && (m->props & MG_DENSE)) ? 2 : 1;
      for (int seed = 1; seed <= seeds; ++seed) {
        coeffs g = gen(m, ns[in], (uint64_t)seed);
        for (int dt = PV_F32; dt <= PV_F64; ++dt) {
          pv_case c;
          assert_int_equal(
              pv_run_coeffs(m, ns[in], (uint64_t)seed, (pv_dtype)dt, g.a, g.b, g.c, &c), 0);
          accuracy_case(&c);
        }
        free(g.a);
      }
    }
  }
  END_TEST();
}

/* ---- the growth indicator on the collection --------------------------------- */

static void growth_bounds(void **state) {
  (void)state;
  double worst[3][2] = {{0}}; /* row, col, SPD; f64, f32 */
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    if (!(m->props & (MG_ROW_DOM | MG_COL_DOM | MG_SPD))) continue;
    for (int in = 0; in < NSIZES; ++in) {
      const int64_t n = sizes[in];
      for (uint64_t seed = 1; seed <= ((m->props & MG_RANDOM) ? 3u : 1u); ++seed) {
        coeffs g = gen(m, n, seed);
        double *w = malloc(sizeof(double) * 10 * (size_t)n);
        float *f = malloc(sizeof(float) * 6 * (size_t)n);
        assert_non_null(w);
        assert_non_null(f);
        double *d = w, *x = w + n, *ws = w + 2 * n, *r = w + 3 * n; /* r: f32 values, 3n */
        for (int64_t i = 0; i < n; ++i) d[i] = 1;
        double g64;
        const int32_t i64 = tridi_ref_growth_f64(n, g.a, 1, g.b, 1, g.c, 1, d, 1, x, 1, ws, &g64);
        mg_to_f32(n, g.a, f);
        mg_to_f32(n, g.b, f + n);
        mg_to_f32(n, g.c, f + 2 * n);
        mg_to_f32(n, d, f + 3 * n);
        float g32;
        const int32_t i32 = tridi_ref_growth_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1,
                                                 f + 4 * n, 1, f + 5 * n, &g32);
        mg_from_f32(3 * n, f, r); /* the f32 matrix, exactly */
        const double *ra = r, *rb = r + n, *rc = r + 2 * n;
        const int weak = !!(m->props & MG_DOM_WEAK);
        struct {
          unsigned prop;
          double bound;
          int keeps32;
        } cl[3] = {
            {MG_ROW_DOM, 2, mg_is_row_dominant(n, ra, rb, rc, 0)},
            {MG_COL_DOM, 3, mg_is_col_dominant(n, ra, rb, rc, 0)},
            {MG_SPD, 1, mg_is_spd(n, ra, rb, rc)},
        };
        for (int p = 0; p < 3; ++p) {
          if (!(m->props & cl[p].prop) || (weak && p < 2)) continue;
          CHECK(i64 == 0 && g64 <= cl[p].bound * (1 + 16 * DBL_EPSILON),
                "%s n %lld seed %llu f64: info %d, G %.17g > %g", m->name, (long long)n,
                (unsigned long long)seed, (int)i64, g64, cl[p].bound);
          if (i64 == 0) worst[p][0] = fmax(worst[p][0], g64);
          if (!cl[p].keeps32) continue; /* rounding to f32 broke the property */
          CHECK(i32 == 0 && g32 <= cl[p].bound * (1 + 16 * FLT_EPSILON),
                "%s n %lld seed %llu f32: info %d, G %.9g > %g", m->name, (long long)n,
                (unsigned long long)seed, (int)i32, (double)g32, cl[p].bound);
          if (i32 == 0) worst[p][1] = fmax(worst[p][1], g32);
        }
        free(g.a);
        free(w);
        free(f);
      }
    }
  }
  fprintf(stderr,
          "[test_collection] growth_bounds: largest G f64/f32: strictly row dominant %.4g/%.4g, "
          "strictly column dominant %.4g/%.4g, SPD %.17g/%.9g\n",
          worst[0][0], worst[0][1], worst[1][0], worst[1][1], worst[2][0], worst[2][1]);
  END_TEST();
}

static void growth_threshold(void **state) {
  (void)state;
  long systems = 0, flagged = 0, bad = 0;
  double worst = 0;
  for (int k = 0; k < mg_count; ++k) {
    const mg_matrix *m = &mg_matrices[k];
    for (int in = 0; in < NSIZES; ++in) {
      const int64_t n = sizes[in];
      if (!size_ok(m, n)) continue;
      for (uint64_t seed = 1; seed <= ((m->props & MG_RANDOM) ? 2u : 1u); ++seed) {
        coeffs g = gen(m, n, seed);
        for (int dt = PV_F32; dt <= PV_F64; ++dt) {
          pv_case c;
          assert_int_equal(pv_run_coeffs(m, n, seed, (pv_dtype)dt, g.a, g.b, g.c, &c), 0);
          if (c.thomas.info != 0) continue; /* reported through info */
          ++systems;
          flagged += c.growth > GROWTH_THRESHOLD;
          bad += c.thomas.berr > pv_berr_bound(&c);
          worst = fmax(worst, c.thomas.berr / (c.eps * c.growth));
          CHECK(c.thomas.berr <= 3 * c.eps * c.growth, "%s %s n %lld: berr %.3g > 3 eps G, G %.3g",
                m->name, dt ? "f64" : "f32", (long long)n, c.thomas.berr, c.growth);
          CHECK(c.growth > GROWTH_THRESHOLD || c.thomas.berr <= pv_berr_bound(&c),
                "%s %s n %lld: not flagged (G %.3g) but berr %.3g > 10 n eps", m->name,
                dt ? "f64" : "f32", (long long)n, c.growth, c.thomas.berr);
        }
        free(g.a);
      }
    }
  }
  fprintf(stderr,
          "[test_collection] growth_threshold: %ld systems solved by Thomas, %ld with G > %g, "
          "%ld with berr > 10 n eps; largest berr / (eps G) %.3f\n",
          systems, flagged, GROWTH_THRESHOLD, bad, worst);
  CHECK(bad > 0 && flagged > bad, "the collection has no systems that need the flag");
  END_TEST();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(properties, reset_fails),
      cmocka_unit_test_setup(closed, reset_fails),
      cmocka_unit_test_setup(reference, reset_fails),
      cmocka_unit_test_setup(accuracy, reset_fails),
      cmocka_unit_test_setup(growth_bounds, reset_fails),
      cmocka_unit_test_setup(growth_threshold, reset_fails),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
