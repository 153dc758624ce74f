/* The test-matrix collection (mg_ = "matrix generator"): tridiagonal
 * matrices that are and are not diagonally dominant, for the tests and the
 * accuracy tools (docs/matrices.md lists each one with its formula and
 * source).
 *
 * A matrix is three arrays of n doubles: row i (0-based) is
 *   a[i] x[i-1] + b[i] x[i] + c[i] x[i+1],   a[0] = c[n-1] = 0.
 * Every generator is deterministic: the same (matrix, n, seed) gives the
 * same bits on one platform (libm's log/cos/sqrt and the linked LAPACK make
 * the bits of the random ones; the closed-form ones are exact formulas).
 * Matrices are generated in double; the f32 systems are those values
 * rounded (mg_round_f32), so an f32 and an f64 solver can be judged on
 * exactly the system they were given.
 *
 * Beside the generators: x_true ~ N(3, 1) and d = A x_true; a
 * higher-precision solution (partial pivoting in binary128 with
 * refinement) for forward errors; forward and backward errors; LAPACK's
 * condition estimate; property checks (dominance, symmetric positive
 * definite); and LAPACK ?gtsv on the same data, the baseline every solver
 * is judged by. */
#ifndef TRIDI_MATGEN_H
#define TRIDI_MATGEN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- properties ---------------------------------------------------------
 * Claimed properties of the generated matrix for every n and seed (the
 * tests check each claim on the data). */
enum {
  MG_ROW_DOM = 1u << 0,      /* diagonally dominant by rows: |b_i| >= |a_i| + |c_i| */
  MG_COL_DOM = 1u << 1,      /* by columns: |b_j| >= |c_{j-1}| + |a_{j+1}| */
  MG_SPD = 1u << 2,          /* symmetric positive definite */
  MG_SYM = 1u << 3,          /* symmetric: a_{i+1} = c_i */
  MG_RANDOM = 1u << 4,       /* the entries depend on the seed */
  MG_DENSE = 1u << 5,        /* made from a dense n x n matrix: O(n^3) time, O(n^2) memory */
  MG_ILL = 1u << 6,          /* condition number about 1e15 or more by construction */
  MG_F32_FLUSH = 1u << 7,    /* some entries are below f32's range: in f32 they are 0
                                and the f32 system is another matrix */
  MG_SINGULAR_ODD = 1u << 8, /* exactly singular for odd n (nonsingular for even n) */
  MG_DOM_WEAK = 1u << 9      /* the dominance is weak: some rows (columns) have
                                |b| = |a| + |c| exactly; the exact-arithmetic growth
                                bounds need a margin in floating point */
};

/* A generator fills a, b, c (n >= 1 each) from the random stream r. */
typedef struct mg_rng {
  uint64_t s;
} mg_rng;
typedef int (*mg_gen_fn)(int64_t n, mg_rng *r, double *a, double *b, double *c);

typedef struct mg_matrix {
  int id;                  /* 1..20: the standard collection (docs/accuracy.md); 21..: more */
  const char *name;        /* short unique name, for command lines */
  const char *formula;     /* what the generator makes, one line */
  const char *nonsingular; /* "yes", "even n", "almost surely", ... */
  unsigned props;          /* MG_* */
  mg_gen_fn gen;
} mg_matrix;

extern const mg_matrix mg_matrices[];
extern const int mg_count;
/* NULL when there is none. */
const mg_matrix *mg_by_id(int id);
const mg_matrix *mg_by_name(const char *name);

/* Fill a, b, c (n elements each) with matrix m for this n and seed.  Returns
 * 0, -1 for n < 1 or a NULL argument, -2 when memory or LAPACK failed
 * (MG_DENSE matrices). */
int mg_generate(const mg_matrix *m, int64_t n, uint64_t seed, double *a, double *b, double *c);

/* ---- right-hand sides and precision -------------------------------------- */

/* x_true: n values ~ N(3, 1) from `seed`. */
void mg_xtrue(int64_t n, uint64_t seed, double *x);
/* d = A x, each row summed in long double and rounded once. */
void mg_matvec(int64_t n, const double *a, const double *b, const double *c, const double *x,
               double *d);
/* v[i] = (double)(float)v[i]: the f32 system's values, kept in double. */
void mg_round_f32(int64_t n, double *v);
/* A test system in f32 (f32 = 1: a, b, c rounded to float in place) or f64:
 * x_true drawn from `seed` into xt, d = A x_true (rounded to float for f32). */
void mg_system(int64_t n, uint64_t seed, int f32, double *a, double *b, double *c, double *xt,
               double *d);
void mg_to_f32(int64_t n, const double *src, float *dst);
void mg_from_f32(int64_t n, const float *src, double *dst);

/* ---- properties of given data -------------------------------------------- */

/* Dominance with a relative slack of `tol` (rounding of the generator):
 * |b_i| >= (|a_i| + |c_i|) (1 - tol) for every row (by columns: b_j against
 * c_{j-1} and a_{j+1}). */
int mg_is_row_dominant(int64_t n, const double *a, const double *b, const double *c, double tol);
int mg_is_col_dominant(int64_t n, const double *a, const double *b, const double *c, double tol);
/* Symmetric (a_{i+1} == c_i exactly) with every pivot of the LDL^T
 * factorisation (long double) positive. */
int mg_is_spd(int64_t n, const double *a, const double *b, const double *c);

/* ---- references and errors (matgen_ref.c) ---------------------------------- */

/* The higher-precision solution of A x = d: Gaussian elimination with
 * partial pivoting (?gtsv's row interchanges) in binary128 (__float128, or
 * long double where that is binary128), then iterative refinement in the
 * same precision.  x is accurate to about cond(A) mg_ref_eps(), relative:
 * 1e-19 at cond 1e15, about 1e-12 for Dorr (cond ~1e22).  Where neither type
 * exists (x86 compilers without __float128) it is long double with a
 * 64-bit significand and mg_ref_eps() says so.  Returns 0 or dgtsv's info
 * k > 0 (exactly zero pivot); -1 when memory ran out. */
int32_t mg_ref_solve(int64_t n, const double *a, const double *b, const double *c, const double *d,
                     long double *x);
/* The unit roundoff of mg_ref_solve's arithmetic (2^-113 or 2^-64). */
double mg_ref_eps(void);
/* LAPACK's estimate of the condition number ||A||inf ||A^-1||inf (dgttrf,
 * dgtcon): within a small factor of the true value while that is below
 * 1/eps of double; Inf when A is exactly singular in dgttrf; NaN on error. */
double mg_cond_inf(int64_t n, const double *a, const double *b, const double *c);
/* ||x - xref||inf / ||xref||inf (0 when both are 0; Inf when x has a
 * NaN/Inf). */
double mg_forward_error(int64_t n, const double *x, const long double *xref);
/* ||A x - d||inf / (||A||inf ||x||inf + ||d||inf), in long double (0 when
 * the residual is 0; Inf when x has a NaN/Inf). */
double mg_backward_error(int64_t n, const double *a, const double *b, const double *c,
                         const double *d, const double *x);
/* LAPACK ?gtsv on copies of the data (inputs unchanged); returns its info,
 * or -1000 when memory ran out. */
int mg_lapack_gtsv_f64(int64_t n, const double *a, const double *b, const double *c,
                       const double *d, double *x);
int mg_lapack_gtsv_f32(int64_t n, const float *a, const float *b, const float *c, const float *d,
                       float *x);

/* ---- random numbers (splitmix64; a stream is {seed}) ------------------- */
uint64_t mg_rng_u64(mg_rng *r);
double mg_rng_uniform(mg_rng *r, double lo, double hi); /* [lo, hi) */
double mg_rng_normal(mg_rng *r);                        /* N(0, 1) */
/* randsvd(n, kappa, mode, 1, 1) (matgen_randsvd.c). */
int mg_randsvd(int64_t n, double kappa, int mode, mg_rng *r, double *a, double *b, double *c);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_MATGEN_H */
