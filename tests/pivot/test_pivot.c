/* The reference partial-pivoting solver (tridi_ref_pivot_*) and the
 * reference Thomas with the growth indicator (tridi_ref_growth_*), as units:
 *   small       n = 0, 1, 2, 3: exact values, every interchange pattern of
 *               n = 3, the 2 x 2 system a non-pivoting solver gets wrong;
 *   lapack      random systems of every kind of scaling, with zeros and
 *               small integers (exact singularity), f32 and f64, n = 1..1000:
 *               info equal to ?gtsv's, backward error within 10x of its and
 *               at most 8 eps;
 *   strided     strides 1, 2, 3, -1, -3 per operand, x = d, NaN in the
 *               unread a[0], c[n-1] and in the gaps: x bit-for-bit the
 *               contiguous result, inputs, gaps and work past 3n untouched;
 *   nonfinite   NaN/Inf in each operand at each row, overflow produced in
 *               the elimination and in the back substitution: exact codes;
 *   growth      tridi_ref_growth_* = tridi_ref_thomas_* bit for bit (x,
 *               info), G on systems with known values, and the meaning of G:
 *               backward error <= 3 eps G on random systems of any scaling.
 * The test-matrix collection is tested in test_collection.c. */
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

#include "matgen.h"
#include "ref_pivot.h"
#include "tridi_internal.h" /* tridi_ref_thomas_f32/_f64 */

/* ---- failures: counted, the first ones printed ------------------------- */

static long fails;
#define CHECK(cond, ...)                                             \
  do {                                                               \
    if (!(cond)) {                                                   \
      if (++fails <= 30) {                                           \
        fprintf(stderr, "[test_pivot] %s:%d: ", __func__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                \
        fputc('\n', stderr);                                         \
      }                                                              \
    }                                                                \
  } while (0)
static int reset_fails(void **state) {
  (void)state;
  fails = 0;
  return 0;
}
#define END_TEST() assert_int_equal(fails, 0)

static int bits_eq64(double x, double y) {
  return memcmp(&x, &y, sizeof x) == 0;
}
static int bits_eq32(float x, float y) {
  return memcmp(&x, &y, sizeof x) == 0;
}

/* ---- random systems --------------------------------------------------------- */

enum { K_SCALED, K_ZEROS, K_INTS, K_DOMINANT, NKIND };

/* a, b, c, d (n each; a[0] = c[n-1] = 0) of kind k:
 *   K_SCALED   +-U(1,10) 10^U(-6,6) per entry: no scaling assumption holds;
 *   K_ZEROS    U(-1,1), each entry zero with probability 0.3 (zero columns,
 *              exactly singular systems);
 *   K_INTS     integers in [-2, 2] (exact cancellation to zero pivots);
 *   K_DOMINANT a, c U(-1,1), b = +-U(3,5). */
static void rand_system(mg_rng *r, int kind, int64_t n, double *a, double *b, double *c,
                        double *d) {
  for (int64_t i = 0; i < n; ++i) {
    double *v[4] = {&a[i], &b[i], &c[i], &d[i]};
    for (int k = 0; k < 4; ++k) {
      double x;
      switch (kind) {
        case K_SCALED:
          x = mg_rng_uniform(r, 1, 10) * pow(10.0, mg_rng_uniform(r, -6, 6));
          x = (mg_rng_u64(r) >> 63) ? -x : x;
          break;
        case K_ZEROS:
          x = mg_rng_uniform(r, 0, 1) < 0.3 ? 0 : mg_rng_uniform(r, -1, 1);
          break;
        case K_INTS:
          x = (double)(int)(mg_rng_u64(r) % 5) - 2;
          break;
        default:
          x = mg_rng_uniform(r, -1, 1);
          if (k == 1) x = ((mg_rng_u64(r) >> 63) ? -1 : 1) * mg_rng_uniform(r, 3, 5);
          break;
      }
      *v[k] = x;
    }
  }
  a[0] = 0;
  c[n - 1] = 0;
}

/* ---- n = 0 .. 3 -------------------------------------------------------------- */

static void small(void **state) {
  (void)state;
  double w[16], x[8];
  /* n = 0: nothing read or written */
  for (int k = 0; k < 8; ++k) x[k] = -7;
  CHECK(tridi_ref_pivot_f64(0, NULL, 1, NULL, 1, NULL, 1, NULL, 1, x, 1, w) == 0, "n = 0");
  CHECK(x[0] == -7, "n = 0 wrote x");
  /* n = 1 */
  {
    const double a = NAN, b = 4, c = NAN, d = 3;
    CHECK(tridi_ref_pivot_f64(1, &a, 1, &b, 1, &c, 1, &d, 1, x, 1, w) == 0 && x[0] == 0.75,
          "n = 1: x = %g", x[0]);
    const double z = 0;
    CHECK(tridi_ref_pivot_f64(1, &a, 1, &z, 1, &c, 1, &d, 1, x, 1, w) == 1, "n = 1, b = 0");
    const float af = NAN, bf = -2, cf = NAN, df = 3;
    float xf, wf[3];
    CHECK(tridi_ref_pivot_f32(1, &af, 1, &bf, 1, &cf, 1, &df, 1, &xf, 1, wf) == 0 && xf == -1.5f,
          "n = 1 f32");
  }
  /* [1e-20 1; 1 1] x = (1, 2): without interchanges x = (0, 1) (G ~ 1e20);
   * with them x = (1, 1) to the last bit (the exact solution is
   * (1/(1-1e-20), (1-2e-20)/(1-1e-20))) */
  {
    const double a[2] = {0, 1}, b[2] = {1e-20, 1}, c[2] = {1, 0}, d[2] = {1, 2};
    CHECK(tridi_ref_pivot_f64(2, a, 1, b, 1, c, 1, d, 1, x, 1, w) == 0 && x[0] == 1 && x[1] == 1,
          "2x2: x = (%.17g, %.17g)", x[0], x[1]);
    double g;
    CHECK(tridi_ref_growth_f64(2, a, 1, b, 1, c, 1, d, 1, x, 1, w, &g) == TRIDI_INFO_INACCURATE &&
              x[0] == 0 && x[1] == 1 && g > 1e19,
          "2x2 Thomas: flagged, x = (%g, %g), G = %g", x[0], x[1], g);
  }
  /* exactly representable: [0 2 0; 1 1 1; 0 4 2] x = (1, 2, 3): both steps
   * interchange (|0| < |1|, then |2| < |4|); every operation is exact */
  {
    const double a[3] = {0, 1, 4}, b[3] = {0, 1, 2}, c[3] = {2, 1, 0};
    const double d[3] = {4, 6, 14};
    CHECK(tridi_ref_pivot_f64(3, a, 1, b, 1, c, 1, d, 1, x, 1, w) == 0 && x[0] == 1 && x[1] == 2 &&
              x[2] == 3,
          "3x3 exact: x = (%g, %g, %g)", x[0], x[1], x[2]);
  }
  /* n = 3: all four interchange patterns, random values, against ?gtsv */
  mg_rng r = {20261124};
  int seen[4] = {0, 0, 0, 0};
  for (int t = 0; t < 400; ++t) {
    double a[3], b[3], c[3], d[3], xl[3];
    rand_system(&r, K_SCALED, 3, a, b, c, d);
    /* the pattern the algorithm takes, replayed */
    const int s0 = fabs(b[0]) < fabs(a[1]);
    const double fact = s0 ? b[0] / a[1] : a[1] / b[0];
    const double d1 = s0 ? c[0] - fact * b[1] : b[1] - fact * c[0];
    const int s1 = fabs(d1) < fabs(a[2]);
    seen[2 * s0 + s1]++;
    const int info = tridi_ref_pivot_f64(3, a, 1, b, 1, c, 1, d, 1, x, 1, w);
    const int linfo = mg_lapack_gtsv_f64(3, a, b, c, d, xl);
    CHECK(info == linfo, "n = 3 case %d: info %d, dgtsv %d", t, info, linfo);
    if (info == 0) {
      const double be = mg_backward_error(3, a, b, c, d, x);
      CHECK(be <= 4 * DBL_EPSILON, "n = 3 case %d (pattern %d%d): backward error %.3g", t, s0, s1,
            be);
    }
  }
  for (int p = 0; p < 4; ++p) CHECK(seen[p] > 0, "n = 3: interchange pattern %d never met", p);
  END_TEST();
}

/* ---- against LAPACK ?gtsv ---------------------------------------------------- */

static void lapack(void **state) {
  (void)state;
  static const int64_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 31, 64, 200, 1000};
  const int64_t nmax = 1000;
  double *buf = malloc(sizeof(double) * (size_t)nmax * 9);
  float *fb = malloc(sizeof(float) * (size_t)nmax * 9);
  assert_non_null(buf);
  assert_non_null(fb);
  double *a = buf, *b = a + nmax, *c = b + nmax, *d = c + nmax, *x = d + nmax, *w = x + nmax;
  double *xl = w + 3 * nmax;
  float *fa = fb, *fbb = fa + nmax, *fc = fbb + nmax, *fd = fc + nmax, *fx = fd + nmax;
  float *fw = fx + nmax, *fxl = fw + 3 * nmax;
  double *xd = malloc(sizeof(double) * (size_t)nmax);
  assert_non_null(xd);
  mg_rng r = {4242};
  long cases = 0, singular = 0, same_bits = 0;
  double worst = 0;
  for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in) {
    const int64_t n = ns[in];
    const int reps = n <= 12 ? 60 : 6;
    for (int kind = 0; kind < NKIND; ++kind)
      for (int rep = 0; rep < reps; ++rep) {
        rand_system(&r, kind, n, a, b, c, d);
        /* f64 */
        int info = tridi_ref_pivot_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w);
        int linfo = mg_lapack_gtsv_f64(n, a, b, c, d, xl);
        ++cases;
        CHECK(info == linfo, "f64 kind %d n %lld rep %d: info %d, dgtsv %d", kind, (long long)n,
              rep, info, linfo);
        if (info > 0) ++singular;
        if (info == 0 && linfo == 0) {
          const double be = mg_backward_error(n, a, b, c, d, x);
          const double bl = mg_backward_error(n, a, b, c, d, xl);
          worst = fmax(worst, be / DBL_EPSILON);
          CHECK(be <= 10 * fmax(bl, DBL_EPSILON) && be <= 8 * DBL_EPSILON,
                "f64 kind %d n %lld rep %d: backward error %.3g, dgtsv %.3g", kind, (long long)n,
                rep, be, bl);
          int eq = 1;
          for (int64_t i = 0; i < n; ++i) eq &= bits_eq64(x[i], xl[i]);
          same_bits += eq;
        }
        /* f32: the same values rounded */
        mg_to_f32(n, a, fa);
        mg_to_f32(n, b, fbb);
        mg_to_f32(n, c, fc);
        mg_to_f32(n, d, fd);
        info = tridi_ref_pivot_f32(n, fa, 1, fbb, 1, fc, 1, fd, 1, fx, 1, fw);
        linfo = mg_lapack_gtsv_f32(n, fa, fbb, fc, fd, fxl);
        ++cases;
        CHECK(info == linfo, "f32 kind %d n %lld rep %d: info %d, sgtsv %d", kind, (long long)n,
              rep, info, linfo);
        if (info > 0) ++singular;
        if (info == 0 && linfo == 0) {
          double *ra = w, *rb = w + nmax, *rc = w + 2 * nmax; /* f32 values in double */
          mg_from_f32(n, fa, ra);
          mg_from_f32(n, fbb, rb);
          mg_from_f32(n, fc, rc);
          mg_from_f32(n, fd, d);
          mg_from_f32(n, fx, xd);
          const double be = mg_backward_error(n, ra, rb, rc, d, xd);
          mg_from_f32(n, fxl, xd);
          const double bl = mg_backward_error(n, ra, rb, rc, d, xd);
          CHECK(be <= 10 * fmax(bl, FLT_EPSILON) && be <= 8 * FLT_EPSILON,
                "f32 kind %d n %lld rep %d: backward error %.3g, sgtsv %.3g", kind, (long long)n,
                rep, be, bl);
          int eq = 1;
          for (int64_t i = 0; i < n; ++i) eq &= bits_eq32(fx[i], fxl[i]);
          same_bits += eq;
        }
      }
  }
  fprintf(stderr,
          "[test_pivot] lapack: %ld systems, %ld exactly singular (info > 0, equal to ?gtsv's); "
          "largest f64 backward error %.2f eps; %ld solutions bit-for-bit ?gtsv's\n",
          cases, singular, worst, same_bits);
  CHECK(singular > 20, "only %ld singular systems: the info comparison is weak", singular);
  free(buf);
  free(fb);
  free(xd);
  END_TEST();
}

/* ---- strided operands, in place ------------------------------------------ */

/* Buffer for n elements at stride s (negative: element 0 at the high end),
 * gaps and the rest filled with `fill`; returns the pointer to element 0. */
static double *strided(double *buf, int64_t n, int64_t s, const double *v, double fill) {
  const int64_t len = (n - 1) * (s < 0 ? -s : s) + 1;
  for (int64_t k = 0; k < len; ++k) buf[k] = fill;
  double *p = s < 0 ? buf + len - 1 : buf;
  for (int64_t i = 0; i < n; ++i) p[i * s] = v[i];
  return p;
}

static void strided_case(int64_t n, const int64_t st[5], int inplace, const double *a,
                         const double *b, const double *c, const double *d, const double *xref,
                         int32_t iref) {
  const int64_t cap = (n + 1) * 4;
  double *buf = malloc(sizeof(double) * (size_t)cap * 10); /* 5 operands, then a copy */
  double *w = malloc(sizeof(double) * (size_t)(3 * n + 8));
  assert_non_null(buf);
  assert_non_null(w);
  double va[512], vc[512];
  memcpy(va, a, sizeof(double) * (size_t)n);
  memcpy(vc, c, sizeof(double) * (size_t)n);
  va[0] = NAN; /* never read */
  vc[n - 1] = NAN;
  double *pa = strided(buf, n, st[0], va, -1.5);
  double *pb = strided(buf + cap, n, st[1], b, -2.5);
  double *pc = strided(buf + 2 * cap, n, st[2], vc, -3.5);
  double *pd = strided(buf + 3 * cap, n, st[3], d, -4.5);
  double *px = inplace ? pd : strided(buf + 4 * cap, n, st[4], d, -5.5);
  const int64_t sx = inplace ? st[3] : st[4];
  memcpy(buf + 5 * cap, buf, sizeof(double) * (size_t)cap * 5); /* the inputs as they were */
  for (int k = 0; k < 3 * n + 8; ++k) w[k] = 77.25;
  const int32_t info =
      tridi_ref_pivot_f64(n, pa, st[0], pb, st[1], pc, st[2], pd, st[3], px, sx, w);
  CHECK(info == iref, "n %lld strides %lld %lld %lld %lld %lld in place %d: info %d, want %d",
        (long long)n, (long long)st[0], (long long)st[1], (long long)st[2], (long long)st[3],
        (long long)st[4], inplace, info, iref);
  for (int64_t i = 0; i < n && iref == 0; ++i) /* on failure x is unspecified */
    CHECK(bits_eq64(px[i * sx], xref[i]), "n %lld in place %d: x[%lld] = %.17g, contiguous %.17g",
          (long long)n, inplace, (long long)i, px[i * sx], xref[i]);
  /* every input element and every gap as before, except x's elements */
  for (int op = 0; op < 5; ++op) {
    if (op == 4 && inplace) continue;
    double *x0 = (op == 3 && inplace) || op == 4 ? px : NULL;
    const int64_t s = op == 4 ? sx : st[op];
    const int64_t len = (n - 1) * (s < 0 ? -s : s) + 1;
    double *base = buf + op * cap;
    for (int64_t k = 0; k < len; ++k) {
      const double *e = base + k;
      int is_x = 0;
      if (x0) {
        const int64_t off = e - x0;
        is_x = off % sx == 0 && off / sx >= 0 && off / sx < n;
      }
      if (!is_x)
        CHECK(bits_eq64(*e, buf[5 * cap + op * cap + k]), "n %lld operand %d element %lld changed",
              (long long)n, op, (long long)k);
    }
  }
  for (int k = 3 * (int)n; k < 3 * n + 8; ++k)
    CHECK(w[k] == 77.25, "n %lld: work[%d] past 3n written", (long long)n, k);
  free(buf);
  free(w);
}

static void strided_ops(void **state) {
  (void)state;
  static const int64_t ns[] = {1, 2, 3, 17, 100};
  static const int64_t svals[] = {1, 2, 3, -1, -3};
  mg_rng r = {99};
  for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in) {
    const int64_t n = ns[in];
    double a[100], b[100], c[100], d[100], x[100], w[300];
    for (int kind = K_SCALED; kind <= K_INTS; kind += K_INTS - K_SCALED) {
      rand_system(&r, kind, n, a, b, c, d);
      const int32_t iref = tridi_ref_pivot_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w);
      for (int t = 0; t < 40; ++t) {
        int64_t st[5];
        for (int k = 0; k < 5; ++k) st[k] = svals[(t * (k + 1) + k + (int)in) % 5];
        strided_case(n, st, t % 3 == 0, a, b, c, d, x, iref);
      }
    }
  }
  END_TEST();
}

/* ---- NaN / Inf ----------------------------------------------------------------- */

static void nonfinite(void **state) {
  (void)state;
  const double bad[2] = {NAN, INFINITY};
  for (int64_t n = 1; n <= 6; ++n)
    for (int op = 0; op < 4; ++op)
      for (int64_t row = 0; row < n; ++row)
        for (int k = 0; k < 2; ++k) {
          double a[6], b[6], c[6], d[6], x[6], w[18];
          for (int i = 0; i < n; ++i) {
            a[i] = 1;
            b[i] = 4;
            c[i] = -1;
            d[i] = i;
          }
          double *v[4] = {a, b, c, d};
          v[op][row] = bad[k];
          const int read = !((op == 0 && row == 0) || (op == 2 && row == n - 1));
          const int32_t want = read ? (int32_t)(-(row + 1)) : 0;
          int32_t info = tridi_ref_pivot_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w);
          CHECK(info == want, "f64 n %lld operand %d row %lld %s: info %d, want %d", (long long)n,
                op, (long long)row, k ? "Inf" : "NaN", info, want);
          float fa[6], fb[6], fc[6], fd[6], fx[6], fw[18];
          mg_to_f32(n, a, fa);
          mg_to_f32(n, b, fb);
          mg_to_f32(n, c, fc);
          mg_to_f32(n, d, fd);
          info = tridi_ref_pivot_f32(n, fa, 1, fb, 1, fc, 1, fd, 1, fx, 1, fw);
          CHECK(info == want, "f32 n %lld operand %d row %lld: info %d, want %d", (long long)n, op,
                (long long)row, info, want);
        }
  double x[4], w[12];
  {
    /* step 0 without interchange: l = 0.5, u_1 = -1.5e308 - 0.5 * 1.5e308 */
    const double a[2] = {0, 0.5}, b[2] = {1, -1.5e308}, c[2] = {1.5e308, 0}, d[2] = {1, 1};
    CHECK(tridi_ref_pivot_f64(2, a, 1, b, 1, c, 1, d, 1, x, 1, w) == -2, "overflow in step 0");
    /* the right-hand side: -1.5e308 - 0.5 * 1.5e308 */
    const double b2[2] = {1, 1}, c2[2] = {0, 0}, d2[2] = {1.5e308, -1.5e308};
    CHECK(tridi_ref_pivot_f64(2, a, 1, b2, 1, c2, 1, d2, 1, x, 1, w) == -2, "rhs overflow");
    /* the same with an interchange: rows swapped, l = 0.5 */
    const double a3[2] = {0, 2}, b3[2] = {1, 0}, c3[2] = {0, 0}, d3[2] = {-1.5e308, 1.5e308};
    CHECK(tridi_ref_pivot_f64(2, a3, 1, b3, 1, c3, 1, d3, 1, x, 1, w) == -2,
          "rhs overflow after an interchange");
  }
  {
    /* step 0 fine; step 1 (no interchange, l = 0.5) overflows row 2's pivot */
    const double a[3] = {0, 0, 0.5}, b[3] = {1, 1, -1.5e308}, c[3] = {0, 1.5e308, 0};
    const double d[3] = {1, 1, 1};
    CHECK(tridi_ref_pivot_f64(3, a, 1, b, 1, c, 1, d, 1, x, 1, w) == -3, "overflow in step 1");
  }
  {
    /* back substitution: x_0 = 1e10 / 1e-300 */
    const double a[2] = {0, 0}, b[2] = {1e-300, 1}, c[2] = {1, 0}, d[2] = {1e10, 0};
    CHECK(tridi_ref_pivot_f64(2, a, 1, b, 1, c, 1, d, 1, x, 1, w) == -1, "overflow in x_0");
    const float fa[2] = {0, 0}, fb[2] = {1e-30f, 1}, fc[2] = {1, 0}, fd[2] = {1e10f, 0};
    float fx[2], fw[6];
    CHECK(tridi_ref_pivot_f32(2, fa, 1, fb, 1, fc, 1, fd, 1, fx, 1, fw) == -1, "f32 x_0");
  }
  {
    /* the order: row k+1 is read before row k's pivot is tested */
    const double a[4] = {0, 0, 1, 1}, b[4] = {0, 1, 4, 4}, c[4] = {1, 1, 1, 0};
    double d[4] = {1, 1, 1, NAN};
    CHECK(tridi_ref_pivot_f64(4, a, 1, b, 1, c, 1, d, 1, x, 1, w) == 1,
          "zero column 0 before a NaN in row 3");
    d[1] = NAN;
    CHECK(tridi_ref_pivot_f64(4, a, 1, b, 1, c, 1, d, 1, x, 1, w) == -2,
          "NaN in row 1 is read before row 0's pivot");
  }
  END_TEST();
}

/* ---- the growth indicator ----------------------------------------------------- */

static void growth(void **state) {
  (void)state;
  enum { N = 300 };
  double a[N], b[N], c[N], d[N], x[N], y[N], w[N];
  float fa[N], fb[N], fc[N], fd[N], fx[N], fy[N], fw[N];
  mg_rng r = {777};
  double worst = 0, g;
  /* bit for bit the reference Thomas; backward error <= 3 eps G */
  for (int t = 0; t < 600; ++t) {
    const int64_t n = 1 + (int64_t)(mg_rng_u64(&r) % (t < 400 ? 8 : N));
    rand_system(&r, t % NKIND, n, a, b, c, d);
    const int32_t i1 = tridi_ref_growth_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w, &g);
    const int32_t i2 = tridi_ref_thomas_f64(n, a, 1, b, 1, c, 1, d, 1, y, 1, w);
    CHECK(i1 == i2, "f64 case %d: info %d, Thomas %d", t, i1, i2);
    /* the flag is G > 8, up to the rounding of the ratio */
    if (i1 == 0 || i1 == TRIDI_INFO_INACCURATE)
      CHECK((i1 == TRIDI_INFO_INACCURATE) == (g > 8) || g == 8, "f64 case %d: info %d with G %.17g",
            t, i1, g);
    if (i1 == 0 || i1 == TRIDI_INFO_INACCURATE) {
      for (int64_t i = 0; i < n; ++i)
        CHECK(bits_eq64(x[i], y[i]), "f64 case %d: x[%lld] differs", t, (long long)i);
      const double be = mg_backward_error(n, a, b, c, d, x);
      worst = fmax(worst, be / (DBL_EPSILON * g));
      CHECK(g >= 1 - 4 * DBL_EPSILON && be <= 3 * DBL_EPSILON * g,
            "f64 case %d n %lld: G %.3g, backward error %.3g", t, (long long)n, g, be);
      /* the proposed threshold (docs/matrices.md): not flagged => 10 n eps */
      CHECK(g > 8 || be <= 10 * (double)n * DBL_EPSILON, "f64 case %d n %lld: G %.3g, berr %.3g", t,
            (long long)n, g, be);
    } else if (i1 > 0) { /* a zero pivot */
      CHECK(isinf(g), "f64 case %d: zero pivot, G = %g", t, g);
    }
    mg_to_f32(n, a, fa);
    mg_to_f32(n, b, fb);
    mg_to_f32(n, c, fc);
    mg_to_f32(n, d, fd);
    float gf;
    const int32_t j1 = tridi_ref_growth_f32(n, fa, 1, fb, 1, fc, 1, fd, 1, fx, 1, fw, &gf);
    const int32_t j2 = tridi_ref_thomas_f32(n, fa, 1, fb, 1, fc, 1, fd, 1, fy, 1, fw);
    CHECK(j1 == j2, "f32 case %d: info %d, Thomas %d", t, j1, j2);
    if (j1 == 0 || j1 == TRIDI_INFO_INACCURATE)
      CHECK((j1 == TRIDI_INFO_INACCURATE) == (gf > 8) || gf == 8, "f32 case %d: info %d with G %.9g",
            t, j1, (double)gf);
    if (j1 == 0 || j1 == TRIDI_INFO_INACCURATE) {
      for (int64_t i = 0; i < n; ++i)
        CHECK(bits_eq32(fx[i], fy[i]), "f32 case %d: x[%lld] differs", t, (long long)i);
      double ra[N], rb[N], rc[N], rd[N], rx[N];
      mg_from_f32(n, fa, ra);
      mg_from_f32(n, fb, rb);
      mg_from_f32(n, fc, rc);
      mg_from_f32(n, fd, rd);
      mg_from_f32(n, fx, rx);
      const double be = mg_backward_error(n, ra, rb, rc, rd, rx);
      CHECK(be <= 3 * FLT_EPSILON * gf, "f32 case %d n %lld: G %.3g, backward error %.3g", t,
            (long long)n, gf, be);
      CHECK(gf > 8 || be <= 10 * (double)n * FLT_EPSILON, "f32 case %d n %lld: G %.3g, berr %.3g",
            t, (long long)n, gf, be);
    }
  }
  fprintf(stderr, "[test_pivot] growth: largest f64 backward error / (eps G) %.3f\n", worst);
  {
    /* where 10 n eps is tightest (n = 2): not flagged (G <= 8) => solved to
     * 10 n eps, and some systems with G <= 64 are not: the threshold could
     * not be 64 */
    long below64 = 0;
    for (int t = 0; t < 50000; ++t) {
      for (int i = 0; i < 2; ++i) {
        double *v[4] = {&a[i], &b[i], &c[i], &d[i]};
        for (int k = 0; k < 4; ++k)
          *v[k] = mg_rng_uniform(&r, -1, 1) * pow(10.0, mg_rng_uniform(&r, -2, 2));
      }
      a[0] = c[1] = 0;
      const int32_t code = tridi_ref_growth_f64(2, a, 1, b, 1, c, 1, d, 1, x, 1, w, &g);
      if (code != 0 && code != TRIDI_INFO_INACCURATE) continue;
      const double be = mg_backward_error(2, a, b, c, d, x);
      CHECK(g > 8 || be <= 20 * DBL_EPSILON, "n = 2 case %d: G %.3g, berr %.3g", t, g, be);
      below64 += g <= 64 && be > 20 * DBL_EPSILON;
    }
    fprintf(stderr, "[test_pivot] growth: n = 2, %ld systems with G <= 64 and berr > 20 eps\n",
            below64);
    CHECK(below64 > 0, "no n = 2 system with G <= 64 and berr > 20 eps");
  }
  /* known values */
  {
    const double one = 1, z = 0;
    CHECK(tridi_ref_growth_f64(1, &z, 1, &one, 1, &z, 1, &one, 1, x, 1, w, &g) == 0 && g == 1,
          "n = 1: G %g", g);
    CHECK(tridi_ref_growth_f64(1, &z, 1, &z, 1, &z, 1, &one, 1, x, 1, w, &g) == 1 && isinf(g),
          "n = 1, b = 0: G %g", g);
  }
  for (double t = 1; t <= 1e6; t *= 10) {
    /* [1 t; 1 -t], weakly dominant by columns: u_1 = -2t, G = (1+3t)/(1+t) */
    const double ea[2] = {0, 1}, eb[2] = {1, -t}, ec[2] = {t, 0}, ed[2] = {1, 1};
    CHECK(tridi_ref_growth_f64(2, ea, 1, eb, 1, ec, 1, ed, 1, x, 1, w, &g) == 0 &&
              fabs(g - (1 + 3 * t) / (1 + t)) <= 4 * DBL_EPSILON * g,
          "[1 t; 1 -t], t = %g: G %.17g", t, g);
  }
  for (int64_t n = 1; n <= N; n += 37) {
    /* SPD: G = 1 */
    for (int64_t i = 0; i < n; ++i) {
      a[i] = c[i] = -1;
      b[i] = 2;
      d[i] = 1;
    }
    CHECK(tridi_ref_growth_f64(n, a, 1, b, 1, c, 1, d, 1, x, 1, w, &g) == 0 &&
              fabs(g - 1) <= 4 * DBL_EPSILON,
          "tridiag(-1, 2, -1), n %lld: G %.17g", (long long)n, g);
  }
  {
    /* strided, NaN in the unread a[0], c[n-1]: same G and x as contiguous */
    double sa[12], sb[12], sc[12], sd[12], sxv[12], g2;
    for (int i = 0; i < 4; ++i) {
      sa[3 * i] = a[i] = i ? 0.5 * i : NAN;
      sb[3 * i] = b[i] = 0.1 + i;
      sc[3 * i] = c[i] = i < 3 ? -1.0 - i : NAN;
      sd[3 * i] = d[i] = i;
    }
    a[0] = 0;
    c[3] = 0;
    tridi_ref_growth_f64(4, a, 1, b, 1, c, 1, d, 1, x, 1, w, &g);
    CHECK(tridi_ref_growth_f64(4, sa, 3, sb, 3, sc, 3, sd, 3, sxv, 3, w, &g2) == 0 && g == g2,
          "strided: G %g, contiguous %g", g2, g);
    for (int i = 0; i < 4; ++i) CHECK(bits_eq64(sxv[3 * i], x[i]), "strided x[%d]", i);
  }
  {
    /* [1e-300 1; 0 1]: c'_0 = 1e300, d'_0 = 1, x_1 = 1e10, x_0 overflows in
     * the back substitution, G (= 1) is kept; a NaN input gives NaN */
    const double ea[2] = {0, 0}, eb[2] = {1e-300, 1}, ec[2] = {1, 0}, ed[2] = {1e-300, 1e10};
    CHECK(tridi_ref_growth_f64(2, ea, 1, eb, 1, ec, 1, ed, 1, x, 1, w, &g) == -1 && g == 1,
          "back substitution overflow: G %g", g);
    const double nd[2] = {NAN, 0};
    CHECK(tridi_ref_growth_f64(2, ea, 1, eb, 1, ec, 1, nd, 1, x, 1, w, &g) == -1 && isnan(g),
          "NaN input: G %g", g);
  }
  END_TEST();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(small, reset_fails),
      cmocka_unit_test_setup(lapack, reset_fails),
      cmocka_unit_test_setup(strided_ops, reset_fails),
      cmocka_unit_test_setup(nonfinite, reset_fails),
      cmocka_unit_test_setup(growth, reset_fails),
  };
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
