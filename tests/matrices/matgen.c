/* The test-matrix collection: the table, the closed-form and random
 * generators, right-hand sides and property checks (matgen.h).  The
 * randsvd matrices are in matgen_randsvd.c, the references and errors in
 * matgen_ref.c.  Row i is 0-based here; the formulas in docs/matrices.md
 * use the same numbering unless they quote a 1-based source. */
#include "matgen.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* ---- random numbers: splitmix64 ------------------------------------------ */

uint64_t mg_rng_u64(mg_rng *r) {
  uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

double mg_rng_uniform(mg_rng *r, double lo, double hi) {
  return lo + (hi - lo) * (double)(mg_rng_u64(r) >> 11) * 0x1.0p-53;
}

/* Box-Muller, one value per call (u1 in (0, 1], so log is finite). */
double mg_rng_normal(mg_rng *r) {
  const double u1 = (double)((mg_rng_u64(r) >> 11) + 1) * 0x1.0p-53;
  const double u2 = (double)(mg_rng_u64(r) >> 11) * 0x1.0p-53;
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void rng_seed(mg_rng *r, uint64_t seed, uint64_t stream) {
  r->s = seed ^ (stream * UINT64_C(0xd1b54a32d192ed03));
  (void)mg_rng_u64(r);
}

static double sign_rand(mg_rng *r) {
  return (mg_rng_u64(r) >> 63) ? -1.0 : 1.0;
}

/* ---- building blocks ------------------------------------------------------- */

/* a, b, c all U(-1, 1). */
static void fill_uniform(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = mg_rng_uniform(r, -1, 1);
    b[i] = mg_rng_uniform(r, -1, 1);
    c[i] = mg_rng_uniform(r, -1, 1);
  }
}

/* a, c U(-1, 1); b = v. */
static void fill_rand_offdiag(int64_t n, mg_rng *r, double v, double *a, double *b, double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = mg_rng_uniform(r, -1, 1);
    b[i] = v;
    c[i] = mg_rng_uniform(r, -1, 1);
  }
}

/* Toeplitz tridiag(av, bv, cv). */
static void fill_toeplitz(int64_t n, double av, double bv, double cv, double *a, double *b,
                          double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = av;
    b[i] = bv;
    c[i] = cv;
  }
}

/* ---- the standard collection (1..20) ------------------------------------ */

static int gen_uniform(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_uniform(n, r, a, b, c);
  return 0;
}
static int gen_diag_1e8(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_rand_offdiag(n, r, 1e8, a, b, c);
  return 0;
}
/* gallery('lesp', n): 1-based sub 1/k (row k >= 2), diagonal -(2k+3), super
 * k+1 (row k <= n-1). */
static int gen_lesp(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 1.0 / (double)(i + 1);
    b[i] = -(2.0 * (double)i + 5.0);
    c[i] = (double)(i + 2);
  }
  return 0;
}
/* as 1, the subdiagonal of (1-based) row n/2+1 scaled by 1e-50 */
static int gen_tiny_sub_mid(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_uniform(n, r, a, b, c);
  if (n / 2 > 0) a[n / 2] *= 1e-50;
  return 0;
}
/* as 1, each a and c zero with probability 1/2 */
static int gen_sparse_offdiag(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_uniform(n, r, a, b, c);
  for (int64_t i = 0; i < n; ++i) {
    if (mg_rng_u64(r) >> 63) a[i] = 0;
    if (mg_rng_u64(r) >> 63) c[i] = 0;
  }
  return 0;
}
static int gen_diag_64(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_rand_offdiag(n, r, 64, a, b, c);
  return 0;
}
/* inv(gallery('kms', n, rho)): kms(i, j) = rho^|i-j| has the tridiagonal
 * inverse tridiag(-rho, [1, 1+rho^2, ..., 1+rho^2, 1], -rho) / (1 - rho^2). */
static int gen_kms_inv(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  const double rho = 0.5, s = 1.0 / (1.0 - rho * rho);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = c[i] = -rho * s;
    b[i] = (i == 0 || i == n - 1) ? s : (1.0 + rho * rho) * s;
  }
  if (n == 1) b[0] = 1.0;
  return 0;
}
static int gen_randsvd_2(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  return mg_randsvd(n, 1e15, 2, r, a, b, c);
}
static int gen_randsvd_3(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  return mg_randsvd(n, 1e15, 3, r, a, b, c);
}
static int gen_randsvd_1(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  return mg_randsvd(n, 1e15, 1, r, a, b, c);
}
static int gen_randsvd_4(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  return mg_randsvd(n, 1e15, 4, r, a, b, c);
}
/* as 1, every a scaled by 1e-50 */
static int gen_tiny_sub(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_uniform(n, r, a, b, c);
  for (int64_t i = 0; i < n; ++i) a[i] *= 1e-50;
  return 0;
}
/* gallery('dorr', n, theta), transcribed from its 1-based formula: h =
 * 1/(n+1), m = floor((n+1)/2), term = theta/h^2; for k <= m: c_k = -term,
 * e_k = c_k - (0.5 - k h)/h; for k > m: e_k = -term, c_k = e_k + (0.5 -
 * k h)/h; d_k = -(c_k + e_k); the matrix is tridiag(c(2:n), d, e(1:n-1)). */
static int gen_dorr(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  const double theta = 1e-4;
  const double h = 1.0 / (double)(n + 1);
  const int64_t m = (n + 1) / 2;
  const double term = theta / (h * h);
  for (int64_t k = 1; k <= n; ++k) {
    double ck, ek;
    if (k <= m) {
      ck = -term;
      ek = ck - (0.5 - (double)k * h) / h;
    } else {
      ek = -term;
      ck = ek + (0.5 - (double)k * h) / h;
    }
    a[k - 1] = ck; /* c(2:n) is the subdiagonal: row k's entry is c_k */
    b[k - 1] = -(ck + ek);
    c[k - 1] = ek;
  }
  return 0;
}
static int gen_rand_diag_1em8(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_rand_offdiag(n, r, 1e-8, a, b, c);
  return 0;
}
static int gen_rand_diag_0(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  fill_rand_offdiag(n, r, 0, a, b, c);
  return 0;
}
static int gen_ones_diag_1em8(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, 1, 1e-8, 1, a, b, c);
  return 0;
}
static int gen_ones_diag_1e8(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, 1, 1e8, 1, a, b, c);
  return 0;
}
static int gen_laplace_4(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, -1, 4, -1, a, b, c);
  return 0;
}
static int gen_nonsym_4(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, -1, 4, 1, a, b, c);
  return 0;
}
static int gen_diag_4_rand_c(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = -1;
    b[i] = 4;
    c[i] = mg_rng_uniform(r, -1, 1);
  }
  return 0;
}

/* ---- more families (21..) --------------------------------------------------- */

/* tools/accuracy.c's dominant family: a, c U(-1, 1), b = +-U(3, 5) */
static int gen_dominant(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = mg_rng_uniform(r, -1, 1);
    b[i] = sign_rand(r) * mg_rng_uniform(r, 3, 5);
    c[i] = mg_rng_uniform(r, -1, 1);
  }
  return 0;
}
/* tridiag(1, 4, 1) with b_0 = 1e-20: without interchanges l_1 = 1e20 */
static int gen_tiny_first_pivot(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, 1, 4, 1, a, b, c);
  b[0] = 1e-20;
  return 0;
}
/* tridiag(1, 0, 1): eigenvalues 2 cos(k pi/(n+1)), one is 0 for odd n */
static int gen_zero_diag(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, 1, 0, 1, a, b, c);
  return 0;
}
static int gen_ones_rand_diag(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = c[i] = 1;
    b[i] = mg_rng_uniform(r, -1, 1);
  }
  return 0;
}
/* Dominant by columns, mostly not by rows: a, c = U(-1, 1) 10^U(-1, 1), then
 * b_j = +-U(1, 1.5) (|c_{j-1}| + |a_{j+1}|) (+-1 when n = 1). */
static int gen_col_dominant(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  for (int64_t i = 0; i < n; ++i) {
    a[i] = mg_rng_uniform(r, -1, 1) * pow(10.0, mg_rng_uniform(r, -1, 1));
    c[i] = mg_rng_uniform(r, -1, 1) * pow(10.0, mg_rng_uniform(r, -1, 1));
  }
  a[0] = 0;
  c[n - 1] = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double col = (j > 0 ? fabs(c[j - 1]) : 0) + (j < n - 1 ? fabs(a[j + 1]) : 0);
    b[j] = sign_rand(r) * mg_rng_uniform(r, 1, 1.5) * (col > 0 ? col : 1);
  }
  return 0;
}
/* tridiag(-1, 2, -1): the second difference, SPD, cond ~ 0.4 n^2 */
static int gen_spd_laplace(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, -1, 2, -1, a, b, c);
  return 0;
}
/* L D L^T with l_i = U(-2, 2), d_i = 10^U(-1, 1): a_i = c_{i-1} = l_i d_{i-1},
 * b_i = d_i + l_i^2 d_{i-1}.  SPD, rows often not dominant. */
static int gen_spd_random(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  double dprev = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double l = i > 0 ? mg_rng_uniform(r, -2, 2) : 0;
    const double di = pow(10.0, mg_rng_uniform(r, -1, 1));
    a[i] = l * dprev;
    if (i > 0) c[i - 1] = a[i];
    b[i] = di + l * l * dprev;
    dprev = di;
  }
  return 0;
}
/* 10^(-8 + 16 i/(n-1)): scales from 1e-8 to 1e8 */
static double grade(int64_t i, int64_t n) {
  return n > 1 ? pow(10.0, -8.0 + 16.0 * (double)i / (double)(n - 1)) : 1.0;
}
/* the dominant family (21) with row i scaled by grade(i): still dominant by
 * rows, not by columns */
static int gen_graded_rows(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  gen_dominant(n, r, a, b, c);
  for (int64_t i = 0; i < n; ++i) {
    const double s = grade(i, n);
    a[i] *= s;
    b[i] *= s;
    c[i] *= s;
  }
  return 0;
}
/* the dominant family (21) with column j scaled by grade(j): still dominant
 * by columns, not by rows */
static int gen_graded_cols(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  gen_dominant(n, r, a, b, c);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) a[i] *= grade(i - 1, n);
    b[i] *= grade(i, n);
    if (i < n - 1) c[i] *= grade(i + 1, n);
  }
  return 0;
}
/* tridiag(-1, -0.7, -1): the 1-D Helmholtz operator -u'' - k^2 u times h^2
 * with (kh)^2 = 2.7; eigenvalues -0.7 - 2 cos(k pi/(n+1)) in (-2.7, 1.3),
 * never exactly 0 (cos = -0.35 is not at a rational multiple of pi with a
 * small denominator), but some come close as n grows. */
static int gen_helmholtz(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  fill_toeplitz(n, -1, -0.7, -1, a, b, c);
  return 0;
}
/* Wilkinson's W+_n: tridiag(1, |i - (n-1)/2|, 1) */
static int gen_wilkinson(int64_t n, mg_rng *r, double *a, double *b, double *c) {
  (void)r;
  for (int64_t i = 0; i < n; ++i) {
    a[i] = c[i] = 1;
    b[i] = fabs((double)i - 0.5 * (double)(n - 1));
  }
  return 0;
}

/* ---- the table ---------------------------------------------------------- */

#define R MG_RANDOM
const mg_matrix mg_matrices[] = {
    {1, "uniform", "a, b, c ~ U(-1,1)", "almost surely", R, gen_uniform},
    {2, "diag_1e8", "tridiag(a, 1e8, c), a, c ~ U(-1,1)", "yes", R | MG_ROW_DOM | MG_COL_DOM,
     gen_diag_1e8},
    {3, "lesp", "gallery('lesp', n): tridiag(1/(i+1), -(2i+5), i+2), i 0-based", "yes",
     MG_ROW_DOM | MG_COL_DOM, gen_lesp},
    {4, "tiny_sub_mid", "as 1, a at row n/2 (0-based) scaled by 1e-50", "almost surely",
     R | MG_F32_FLUSH, gen_tiny_sub_mid},
    {5, "sparse_offdiag", "as 1, each a and c zero with probability 1/2", "almost surely", R,
     gen_sparse_offdiag},
    {6, "diag_64", "tridiag(a, 64, c), a, c ~ U(-1,1)", "yes", R | MG_ROW_DOM | MG_COL_DOM,
     gen_diag_64},
    {7, "kms_inv", "inv(gallery('kms', n, 0.5)), closed form", "yes",
     MG_ROW_DOM | MG_COL_DOM | MG_SPD | MG_SYM, gen_kms_inv},
    {8, "randsvd_2", "gallery('randsvd', n, 1e15, 2, 1, 1): one small singular value",
     "yes, cond 1e15", R | MG_DENSE | MG_ILL, gen_randsvd_2},
    {9, "randsvd_3", "gallery('randsvd', n, 1e15, 3, 1, 1): geometric singular values",
     "yes, cond 1e15", R | MG_DENSE | MG_ILL, gen_randsvd_3},
    {10, "randsvd_1", "gallery('randsvd', n, 1e15, 1, 1, 1): one large singular value",
     "yes, cond 1e15", R | MG_DENSE | MG_ILL, gen_randsvd_1},
    {11, "randsvd_4", "gallery('randsvd', n, 1e15, 4, 1, 1): arithmetic singular values",
     "yes, cond 1e15", R | MG_DENSE | MG_ILL, gen_randsvd_4},
    {12, "tiny_sub", "as 1, every a scaled by 1e-50", "almost surely", R | MG_F32_FLUSH,
     gen_tiny_sub},
    {13, "dorr", "gallery('dorr', n, 1e-4)", "yes, cond >= 1e18 for n >= 500",
     MG_ROW_DOM | MG_DOM_WEAK, gen_dorr},
    {14, "rand_diag_1e-8", "tridiag(a, 1e-8, c), a, c ~ U(-1,1)", "almost surely", R,
     gen_rand_diag_1em8},
    {15, "rand_diag_0", "tridiag(a, 0, c), a, c ~ U(-1,1)", "even n, almost surely",
     R | MG_SINGULAR_ODD, gen_rand_diag_0},
    {16, "ones_diag_1e-8", "tridiag(1, 1e-8, 1)", "yes", MG_SYM, gen_ones_diag_1em8},
    {17, "ones_diag_1e8", "tridiag(1, 1e8, 1)", "yes", MG_ROW_DOM | MG_COL_DOM | MG_SPD | MG_SYM,
     gen_ones_diag_1e8},
    {18, "laplace_4", "tridiag(-1, 4, -1)", "yes", MG_ROW_DOM | MG_COL_DOM | MG_SPD | MG_SYM,
     gen_laplace_4},
    {19, "nonsym_4", "tridiag(-1, 4, 1)", "yes", MG_ROW_DOM | MG_COL_DOM, gen_nonsym_4},
    {20, "diag_4_rand_c", "tridiag(-1, 4, c), c ~ U(-1,1)", "yes", R | MG_ROW_DOM | MG_COL_DOM,
     gen_diag_4_rand_c},
    {21, "dominant", "a, c ~ U(-1,1), b = +-U(3,5) (tools/accuracy.c's dominant)", "yes",
     R | MG_ROW_DOM | MG_COL_DOM, gen_dominant},
    {22, "tiny_first_pivot", "tridiag(1, 4, 1) with b_0 = 1e-20", "yes", 0, gen_tiny_first_pivot},
    {23, "zero_diag", "tridiag(1, 0, 1)", "even n", MG_SYM | MG_SINGULAR_ODD, gen_zero_diag},
    {24, "ones_rand_diag", "tridiag(1, b, 1), b ~ U(-1,1)", "almost surely", R | MG_SYM,
     gen_ones_rand_diag},
    {25, "col_dominant", "a, c ~ U(-1,1) 10^U(-1,1), b_j = +-U(1,1.5) (|c_{j-1}| + |a_{j+1}|)",
     "yes", R | MG_COL_DOM, gen_col_dominant},
    {26, "spd_laplace", "tridiag(-1, 2, -1)", "yes, cond ~0.4 n^2",
     MG_ROW_DOM | MG_COL_DOM | MG_DOM_WEAK | MG_SPD | MG_SYM, gen_spd_laplace},
    {27, "spd_random", "L D L^T, l ~ U(-2,2), d = 10^U(-1,1)", "yes", R | MG_SPD | MG_SYM,
     gen_spd_random},
    {28, "graded_rows", "21 with row i scaled by 10^(-8+16i/(n-1))", "yes", R | MG_ROW_DOM,
     gen_graded_rows},
    {29, "graded_cols", "21 with column j scaled by 10^(-8+16j/(n-1))", "yes", R | MG_COL_DOM,
     gen_graded_cols},
    {30, "helmholtz", "tridiag(-1, -0.7, -1): indefinite Toeplitz", "yes", MG_SYM, gen_helmholtz},
    {31, "wilkinson", "Wilkinson W+: tridiag(1, |i-(n-1)/2|, 1)", "n > 1", MG_SYM, gen_wilkinson},
};
#undef R
const int mg_count = (int)(sizeof mg_matrices / sizeof mg_matrices[0]);

const mg_matrix *mg_by_id(int id) {
  for (int k = 0; k < mg_count; ++k)
    if (mg_matrices[k].id == id) return &mg_matrices[k];
  return NULL;
}

const mg_matrix *mg_by_name(const char *name) {
  if (!name) return NULL;
  for (int k = 0; k < mg_count; ++k)
    if (strcmp(mg_matrices[k].name, name) == 0) return &mg_matrices[k];
  return NULL;
}

int mg_generate(const mg_matrix *m, int64_t n, uint64_t seed, double *a, double *b, double *c) {
  if (!m || !a || !b || !c || n < 1) return -1;
  mg_rng r;
  rng_seed(&r, seed, (uint64_t)m->id);
  const int rc = m->gen(n, &r, a, b, c);
  if (rc) return rc;
  a[0] = 0;
  c[n - 1] = 0;
  return 0;
}

/* ---- right-hand sides and precision ---------------------------------------- */

void mg_xtrue(int64_t n, uint64_t seed, double *x) {
  mg_rng r;
  rng_seed(&r, seed, 0x78747275ull); /* a stream no matrix id uses */
  for (int64_t i = 0; i < n; ++i) x[i] = 3.0 + mg_rng_normal(&r);
}

void mg_matvec(int64_t n, const double *a, const double *b, const double *c, const double *x,
               double *d) {
  for (int64_t i = 0; i < n; ++i) {
    long double s = (long double)b[i] * x[i];
    if (i > 0) s += (long double)a[i] * x[i - 1];
    if (i < n - 1) s += (long double)c[i] * x[i + 1];
    d[i] = (double)s;
  }
}

void mg_round_f32(int64_t n, double *v) {
  for (int64_t i = 0; i < n; ++i) v[i] = (double)(float)v[i];
}

void mg_system(int64_t n, uint64_t seed, int f32, double *a, double *b, double *c, double *xt,
               double *d) {
  if (f32) {
    mg_round_f32(n, a);
    mg_round_f32(n, b);
    mg_round_f32(n, c);
  }
  mg_xtrue(n, seed, xt);
  mg_matvec(n, a, b, c, xt, d);
  if (f32) mg_round_f32(n, d);
}
void mg_to_f32(int64_t n, const double *src, float *dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = (float)src[i];
}
void mg_from_f32(int64_t n, const float *src, double *dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = (double)src[i];
}

/* ---- properties of given data ---------------------------------------------- */

int mg_is_row_dominant(int64_t n, const double *a, const double *b, const double *c, double tol) {
  for (int64_t i = 0; i < n; ++i) {
    const double off = (i > 0 ? fabs(a[i]) : 0) + (i < n - 1 ? fabs(c[i]) : 0);
    if (!(fabs(b[i]) >= off * (1 - tol))) return 0;
  }
  return 1;
}

int mg_is_col_dominant(int64_t n, const double *a, const double *b, const double *c, double tol) {
  for (int64_t j = 0; j < n; ++j) {
    const double off = (j > 0 ? fabs(c[j - 1]) : 0) + (j < n - 1 ? fabs(a[j + 1]) : 0);
    if (!(fabs(b[j]) >= off * (1 - tol))) return 0;
  }
  return 1;
}

int mg_is_spd(int64_t n, const double *a, const double *b, const double *c) {
  long double p = 0; /* the previous pivot */
  for (int64_t i = 0; i < n; ++i) {
    if (i < n - 1 && a[i + 1] != c[i]) return 0;
    const long double l2 = i > 0 ? (long double)a[i] * a[i] / p : 0;
    p = (long double)b[i] - l2;
    if (!(p > 0)) return 0;
  }
  return 1;
}
