/* gallery('randsvd', n, kappa, mode, 1, 1): a tridiagonal matrix with
 * prescribed singular values, made as MATLAB's and Octave's gallery make it
 * (Higham's Test Matrix Toolbox):
 *   1. sigma from kappa and mode (Higham's randsvd):
 *        mode 1: one large:  sigma = (1, 1/kappa, ..., 1/kappa)
 *        mode 2: one small:  sigma = (1, ..., 1, 1/kappa)
 *        mode 3: geometric:  sigma_k = kappa^(-k/(n-1)), k = 0 .. n-1
 *        mode 4: arithmetic: sigma_k = 1 - k/(n-1) (1 - 1/kappa)
 *   2. A = U diag(sigma) V^T, U and V Haar-random orthogonal: the Q of the
 *      QR factorisation (LAPACK dgeqrf, dorgqr) of a matrix of N(0, 1)
 *      values, its columns signed by diag(R) (gallery uses qmult, another
 *      Haar sampler);
 *   3. Higham's bandred(A, 1, 1): for j = 1 .. n-2, a Householder
 *      reflection from the left zeroes A(j+2:n, j), one from the right
 *      zeroes A(j, j+2:n).  Orthogonal transformations keep the singular
 *      values, and the result is tridiagonal.
 * O(n^3) time and three n x n matrices of memory: about 0.4 s at n = 512 with the
 * reference LAPACK (dgeqrf, dorgqr), 2.3 s at n = 1000. */
#include <math.h>
#include <stdlib.h>

#include "matgen.h"

/* LAPACK (Fortran calling convention; no character arguments). */
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info);

/* q (n x n, column-major) = a Haar-random orthogonal matrix; tau, n scratch.
 * Returns 0 or -2. */
static int random_orthogonal(int n, mg_rng *r, double *q, double *tau) {
  for (int64_t k = 0; k < (int64_t)n * n; ++k) q[k] = mg_rng_normal(r);
  int info = 0, lwork = -1;
  double wq = 0;
  dgeqrf_(&n, &n, q, &n, tau, &wq, &lwork, &info);
  if (info) return -2;
  lwork = (int)wq > n ? (int)wq : n;
  {
    int lw2 = -1;
    double wq2 = 0;
    dorgqr_(&n, &n, &n, q, &n, tau, &wq2, &lw2, &info);
    if (info) return -2;
    if ((int)wq2 > lwork) lwork = (int)wq2;
  }
  double *work = malloc(sizeof(double) * (size_t)lwork);
  double *sgn = malloc(sizeof(double) * (size_t)n);
  if (!work || !sgn) {
    free(work);
    free(sgn);
    return -2;
  }
  dgeqrf_(&n, &n, q, &n, tau, work, &lwork, &info);
  if (!info) {
    for (int j = 0; j < n; ++j) sgn[j] = q[(int64_t)j * n + j] < 0 ? -1.0 : 1.0;
    dorgqr_(&n, &n, &n, q, &n, tau, work, &lwork, &info);
  }
  if (!info)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) q[(int64_t)j * n + i] *= sgn[j];
  free(work);
  free(sgn);
  return info ? -2 : 0;
}

/* Octave's house(x): v, beta with (I - beta v v^T) x = -s e_1,
 * s = sign(x_1) ||x|| (sign(0) = 1); v = 0, beta = 1 when x = 0.
 * x and v have m elements, x with stride incx. */
static double house(int64_t m, const double *x, int64_t incx, double *v) {
  double ss = 0;
  for (int64_t i = 0; i < m; ++i) {
    v[i] = x[i * incx];
    ss += v[i] * v[i];
  }
  const double s = sqrt(ss) * (v[0] < 0 ? -1.0 : 1.0);
  if (s == 0) return 1.0;
  v[0] += s;
  return 1.0 / (s * v[0]);
}

/* bandred(A, 1, 1) on the n x n column-major A. v, w: n scratch each. */
static void bandred_tridiag(int64_t n, double *A, double *v, double *w) {
#define EL(i, j) A[(j)*n + (i)]
  for (int64_t j = 0; j + 2 < n; ++j) {
    /* left: rows j+1 .. n-1, columns j .. n-1 */
    int64_t m = n - j - 1;
    double beta = house(m, &EL(j + 1, j), 1, v);
    for (int64_t k = j; k < n; ++k) {
      double s = 0;
      for (int64_t i = 0; i < m; ++i) s += v[i] * EL(j + 1 + i, k);
      s *= beta;
      for (int64_t i = 0; i < m; ++i) EL(j + 1 + i, k) -= s * v[i];
    }
    for (int64_t i = j + 2; i < n; ++i) EL(i, j) = 0;
    /* right: rows j .. n-1, columns j+1 .. n-1 */
    beta = house(m, &EL(j, j + 1), n, v);
    const int64_t rows = n - j;
    for (int64_t i = 0; i < rows; ++i) w[i] = 0;
    for (int64_t k = 0; k < m; ++k) {
      const double vk = v[k];
      for (int64_t i = 0; i < rows; ++i) w[i] += EL(j + i, j + 1 + k) * vk;
    }
    for (int64_t k = 0; k < m; ++k) {
      const double t = beta * v[k];
      for (int64_t i = 0; i < rows; ++i) EL(j + i, j + 1 + k) -= w[i] * t;
    }
    for (int64_t k = j + 2; k < n; ++k) EL(j, k) = 0;
  }
#undef EL
}

int mg_randsvd(int64_t n, double kappa, int mode, mg_rng *r, double *a, double *b, double *c) {
  if (n < 1 || n > 46340 || kappa < 1 || mode < 1 || mode > 4) return -1;
  const int ni = (int)n;
  const size_t nn = (size_t)n * (size_t)n;
  double *u = malloc(sizeof(double) * nn);
  double *vm = malloc(sizeof(double) * nn);
  double *A = malloc(sizeof(double) * nn);
  double *sig = malloc(sizeof(double) * (size_t)n);
  double *s1 = malloc(sizeof(double) * (size_t)n);
  double *s2 = malloc(sizeof(double) * (size_t)n);
  int rc = -2;
  if (!u || !vm || !A || !sig || !s1 || !s2) goto out;
  for (int64_t k = 0; k < n; ++k) {
    const double t = n > 1 ? (double)k / (double)(n - 1) : 0;
    switch (mode) {
      case 1:
        sig[k] = k == 0 ? 1.0 : 1.0 / kappa;
        break;
      case 2:
        sig[k] = k == n - 1 && n > 1 ? 1.0 / kappa : 1.0;
        break;
      case 3:
        sig[k] = pow(kappa, -t);
        break;
      default:
        sig[k] = 1.0 - t * (1.0 - 1.0 / kappa);
        break;
    }
  }
  if (random_orthogonal(ni, r, u, s1) || random_orthogonal(ni, r, vm, s1)) goto out;
  /* A = U diag(sig) V^T: column j of A = sum_k (sig_k V(j, k)) U(:, k) */
  for (int64_t j = 0; j < n; ++j) {
    double *col = A + j * n;
    for (int64_t i = 0; i < n; ++i) col[i] = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double t = sig[k] * vm[k * n + j];
      const double *uk = u + k * n;
      for (int64_t i = 0; i < n; ++i) col[i] += uk[i] * t;
    }
  }
  bandred_tridiag(n, A, s1, s2);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = i > 0 ? A[(i - 1) * n + i] : 0;
    b[i] = A[i * n + i];
    c[i] = i < n - 1 ? A[(i + 1) * n + i] : 0;
  }
  rc = 0;
out:
  free(u);
  free(vm);
  free(A);
  free(sig);
  free(s1);
  free(s2);
  return rc;
}
