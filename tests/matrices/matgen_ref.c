/* The higher-precision reference solution, the condition estimate, the
 * error measures, and LAPACK ?gtsv on copies of the data (matgen.h).
 *
 * The reference is written independently of the solvers it judges: an LU
 * factorisation with ?gtsv's row interchanges in binary128 (__float128
 * where the compiler has it, else long double: binary128 on aarch64, 64-bit
 * significand on x86 without __float128), kept so that refinement can reuse
 * it, then up to 4 steps of iterative refinement with residuals in the same
 * precision.  Partial pivoting keeps the growth <= 2, so the solution is
 * accurate to about cond(A) u_ref. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matgen.h"

void sgtsv_(const int *n, const int *nrhs, float *dl, float *d, float *du, float *b, const int *ldb,
            int *info);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);
void dgttrf_(const int *n, double *dl, double *d, double *du, double *du2, int *ipiv, int *info);
/* gfortran passes the length of a character argument last, as size_t */
void dgtcon_(const char *norm, const int *n, const double *dl, const double *d, const double *du,
             const double *du2, const int *ipiv, const double *anorm, double *rcond, double *work,
             int *iwork, int *info, size_t norm_len);

#if defined(__SIZEOF_FLOAT128__)
typedef __float128 hp;
#define HP_EPS 0x1.0p-113
#else
typedef long double hp;
#define HP_EPS (LDBL_EPSILON / 2)
#endif

double mg_ref_eps(void) {
  return (double)HP_EPS;
}

typedef long double ld; /* the error measures */

static hp hp_abs(hp v) {
  return v < 0 ? -v : v;
}

/* LU with partial pivoting of a tridiagonal matrix (dgttrf's choice of
 * interchanges): row k of U is u[k] x_k + du[k] x_{k+1} + du2[k] x_{k+2};
 * step k multiplied by l[k] and swapped rows k, k+1 when swap[k]. */
typedef struct lu_hp {
  hp *u, *du, *du2, *l;
  unsigned char *swap;
} lu_hp;

/* Returns 0 or k > 0 (exactly zero pivot at row k, 1-based). */
static int32_t lu_factor(int64_t n, const double *a, const double *b, const double *c, lu_hp *f) {
  hp dk = b[0], uk = n > 1 ? c[0] : 0;
  for (int64_t k = 0; k + 1 < n; ++k) {
    const hp al = a[k + 1], bl = b[k + 1], cl = k + 2 < n ? c[k + 1] : 0;
    if (hp_abs(dk) >= hp_abs(al)) {
      if (dk == 0) return (int32_t)(k + 1);
      const hp fact = al / dk;
      f->u[k] = dk;
      f->du[k] = uk;
      f->du2[k] = 0;
      f->l[k] = fact;
      f->swap[k] = 0;
      dk = bl - fact * uk;
      uk = cl;
    } else {
      const hp fact = dk / al;
      f->u[k] = al;
      f->du[k] = bl;
      f->du2[k] = cl;
      f->l[k] = fact;
      f->swap[k] = 1;
      dk = uk - fact * bl;
      uk = -fact * cl;
    }
  }
  if (dk == 0) return (int32_t)n;
  f->u[n - 1] = dk;
  return 0;
}

/* r := LU \ r */
static void lu_solve(int64_t n, const lu_hp *f, hp *r) {
  for (int64_t k = 0; k + 1 < n; ++k) {
    if (f->swap[k]) {
      const hp t = r[k];
      r[k] = r[k + 1];
      r[k + 1] = t - f->l[k] * r[k + 1];
    } else {
      r[k + 1] -= f->l[k] * r[k];
    }
  }
  r[n - 1] /= f->u[n - 1];
  if (n > 1) r[n - 2] = (r[n - 2] - f->du[n - 2] * r[n - 1]) / f->u[n - 2];
  for (int64_t i = n - 3; i >= 0; --i)
    r[i] = (r[i] - f->du[i] * r[i + 1] - f->du2[i] * r[i + 2]) / f->u[i];
}

int32_t mg_ref_solve(int64_t n, const double *a, const double *b, const double *c, const double *d,
                     long double *xout) {
  if (n < 1) return 0;
  const size_t sz = (size_t)n;
  lu_hp f;
  f.u = malloc(sizeof(hp) * sz);
  f.du = malloc(sizeof(hp) * sz);
  f.du2 = malloc(sizeof(hp) * sz);
  f.l = malloc(sizeof(hp) * sz);
  f.swap = malloc(sz);
  hp *x = malloc(sizeof(hp) * sz);
  hp *r = malloc(sizeof(hp) * sz);
  int32_t info = -1;
  if (f.u && f.du && f.du2 && f.l && f.swap && x && r) {
    info = lu_factor(n, a, b, c, &f);
    if (info == 0) {
      for (int64_t i = 0; i < n; ++i) x[i] = d[i];
      lu_solve(n, &f, x);
      for (int it = 0; it < 4; ++it) {
        for (int64_t i = 0; i < n; ++i) {
          hp s = (hp)d[i] - (hp)b[i] * x[i];
          if (i > 0) s -= (hp)a[i] * x[i - 1];
          if (i < n - 1) s -= (hp)c[i] * x[i + 1];
          r[i] = s;
        }
        lu_solve(n, &f, r);
        hp dxmax = 0, xmax = 0;
        for (int64_t i = 0; i < n; ++i) {
          x[i] += r[i];
          if (hp_abs(r[i]) > dxmax) dxmax = hp_abs(r[i]);
          if (hp_abs(x[i]) > xmax) xmax = hp_abs(x[i]);
        }
        if (!(dxmax > xmax * (hp)HP_EPS)) break;
      }
      for (int64_t i = 0; i < n; ++i) xout[i] = (long double)x[i];
    }
  }
  free(f.u);
  free(f.du);
  free(f.du2);
  free(f.l);
  free(f.swap);
  free(x);
  free(r);
  return info;
}

double mg_cond_inf(int64_t n, const double *a, const double *b, const double *c) {
  if (n < 1 || n > INT32_MAX) return NAN;
  const size_t sz = (size_t)n;
  double *w = malloc(sizeof(double) * 7 * sz);
  int *ip = malloc(sizeof(int) * 2 * sz);
  double rcond = NAN;
  if (w && ip) {
    double *dl = w, *dd = w + n, *du = w + 2 * n, *du2 = w + 3 * n, *work = w + 4 * n;
    double anorm = 0;
    for (int64_t i = 0; i < n; ++i) {
      dd[i] = b[i];
      if (i + 1 < n) {
        dl[i] = a[i + 1];
        du[i] = c[i];
      }
      const double row = fabs(b[i]) + (i > 0 ? fabs(a[i]) : 0) + (i < n - 1 ? fabs(c[i]) : 0);
      if (row > anorm) anorm = row;
    }
    const int ni = (int)n;
    int info = 0;
    dgttrf_(&ni, dl, dd, du, du2, ip, &info);
    if (info > 0) {
      rcond = 0;
    } else if (info == 0) {
      dgtcon_("I", &ni, dl, dd, du, du2, ip, &anorm, &rcond, work, ip + n, &info, 1);
      if (info) rcond = NAN;
    }
  }
  free(w);
  free(ip);
  return rcond == 0 ? INFINITY : 1.0 / rcond;
}

double mg_forward_error(int64_t n, const double *x, const long double *xref) {
  ld num = 0, den = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!isfinite(x[i])) return INFINITY;
    num = fmaxl(num, fabsl((ld)x[i] - xref[i]));
    den = fmaxl(den, fabsl(xref[i]));
  }
  if (num == 0) return 0;
  return den > 0 ? (double)(num / den) : INFINITY;
}

double mg_backward_error(int64_t n, const double *a, const double *b, const double *c,
                         const double *d, const double *x) {
  ld rmax = 0, anorm = 0, xmax = 0, dmax = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!isfinite(x[i])) return INFINITY;
    ld ax = (ld)b[i] * x[i];
    ld row = fabsl((ld)b[i]);
    if (i > 0) {
      ax += (ld)a[i] * x[i - 1];
      row += fabsl((ld)a[i]);
    }
    if (i < n - 1) {
      ax += (ld)c[i] * x[i + 1];
      row += fabsl((ld)c[i]);
    }
    rmax = fmaxl(rmax, fabsl(ax - d[i]));
    anorm = fmaxl(anorm, row);
    xmax = fmaxl(xmax, fabsl((ld)x[i]));
    dmax = fmaxl(dmax, fabsl((ld)d[i]));
  }
  const ld den = anorm * xmax + dmax;
  if (rmax == 0) return 0;
  return den > 0 ? (double)(rmax / den) : INFINITY;
}

/* ?gtsv on copies: dl = a[1..n-1], d = b, du = c[0..n-2], rhs = d. */
#define MG_GTSV(NAME, T, FN)                                                  \
  int NAME(int64_t n, const T *a, const T *b, const T *c, const T *d, T *x) { \
    if (n < 1) return 0;                                                      \
    T *w = malloc(sizeof(T) * 3 * (size_t)n);                                 \
    if (!w) return -1000;                                                     \
    T *dl = w, *dd = w + n, *du = w + 2 * n;                                  \
    for (int64_t i = 0; i < n; ++i) {                                         \
      dd[i] = b[i];                                                           \
      x[i] = d[i];                                                            \
      if (i + 1 < n) {                                                        \
        dl[i] = a[i + 1];                                                     \
        du[i] = c[i];                                                         \
      }                                                                       \
    }                                                                         \
    const int ni = (int)n, one = 1;                                           \
    int info = 0;                                                             \
    FN(&ni, &one, dl, dd, du, x, &ni, &info);                                 \
    free(w);                                                                  \
    return info;                                                              \
  }
MG_GTSV(mg_lapack_gtsv_f64, double, dgtsv_)
MG_GTSV(mg_lapack_gtsv_f32, float, sgtsv_)
