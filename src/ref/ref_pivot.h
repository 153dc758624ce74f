/* Reference solvers for systems that are not diagonally dominant: Gaussian
 * elimination with partial pivoting (LAPACK ?gtsv), and the non-pivoting
 * Thomas algorithm with the growth indicator G that detection paths compare
 * against a threshold.  Plain C, one system with strided operands, like the
 * reference Thomas (tridi_ref_thomas_f32/_f64 in src/core/tridi_internal.h):
 * row i of the system is  a[i*sa] x[i-1] + b[i*sb] x[i] + c[i*sc] x[i+1] =
 * d[i*sd];  a[0] and c[(n-1)*sc] are never read; a, b, c, d are never
 * written; x may be d (same pointer and stride).  Strides may be negative.
 *
 * Info codes are tridi's (include/tridi.h): 0 solved; k > 0 exactly zero
 * pivot at row k (1-based); -k a NaN/Inf input in row k or a NaN/Inf
 * produced at row k.  The element type is the arithmetic type throughout. */
#ifndef TRIDI_REF_PIVOT_H
#define TRIDI_REF_PIVOT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- partial pivoting: LAPACK ?gtsv for one right-hand side -------------
 *
 * The same operations, in the same order, as Reference-LAPACK dgtsv with
 * NRHS = 1.  Step k = 0 .. n-2 eliminates the subdiagonal a[k+1] of the
 * rows k and k+1 (row k being the current, already updated, row):
 *   - no interchange when |u_k| >= |a_{k+1}| (u_k the current pivot):
 *       l = a_{k+1} / u_k,  row k+1 -= l * row k;
 *   - otherwise rows k and k+1 are swapped first (|l| < 1 then too); the
 *     swap moves c_{k+1} into row k, two places right of the diagonal: the
 *     one fill-in diagonal du2 of U.
 * Then U x = d' by back substitution:
 *   x_i = (d'_i - du_i x_{i+1} - du2_i x_{i+2}) / u_i.
 *
 * work: TRIDI_REF_PIVOT_WORK(n) elements (3n): the diagonal, superdiagonal
 * and fill-in diagonal of U; its contents on entry do not matter.
 *
 * Check order (first failure wins): row 0's inputs (b_0, c_0 when n > 1,
 * d_0) finite, else -1; then for each step k = 0 .. n-2: row k+1's inputs
 * (a_{k+1}, b_{k+1}, c_{k+1} when k+1 < n-1, d_{k+1}) finite, else -(k+2)
 * (the pivoting step reads row k+1 before it can choose row k's pivot);
 * the chosen pivot of row k nonzero, else k+1 (with partial pivoting a zero
 * pivot means column k of the remaining matrix is zero: A is singular);
 * the updated row k+1 (its diagonal and right-hand side; its superdiagonal
 * is c_{k+1} or -l c_{k+1} with |l| <= 1) finite, else -(k+2); after the last step the last pivot
 * nonzero, else n; then the back substitution from row n-1 down: x_i finite, else -(i+1). On
 * exactly singular matrices with finite values the positive code is dgtsv's info.  On failure x
 * holds partial results. */
#define TRIDI_REF_PIVOT_WORK(n) (3 * (n))
int32_t tridi_ref_pivot_f32(int64_t n, const float *a, int64_t sa, const float *b, int64_t sb,
                            const float *c, int64_t sc, const float *d, int64_t sd, float *x,
                            int64_t sx, float *work);
int32_t tridi_ref_pivot_f64(int64_t n, const double *a, int64_t sa, const double *b, int64_t sb,
                            const double *c, int64_t sc, const double *d, int64_t sd, double *x,
                            int64_t sx, double *work);

/* ---- the growth indicator of non-pivoting elimination -------------------
 *
 * The reference Thomas algorithm (exactly the operations, results and info
 * codes of tridi_ref_thomas_f32/_f64; work: n elements) that also returns,
 * in *growth, the growth indicator
 *   G = max_i N_i / max_i D_i,
 *   N_i = |a_i| + |a_i c'_{i-1}| + |u_i| + |c_i|,   D_i = |a_i| + |b_i| + |c_i|,
 * with u_i = b_i - a_i c'_{i-1} the pivot and c'_i = c_i / u_i (a_0 = 0,
 * c_{n-1} = 0).  N_i is row i of |L||U|, so G = || |L||U| ||inf / ||A||inf
 * >= 1 (up to rounding), and the normwise backward error
 * ||Ax - d||/(||A|| ||x|| + ||d||) of the computed x is at most about
 * 2 eps G (Higham: |dA| <= 4u |L||U| for tridiagonal elimination; measured
 * <= 0.7 eps G on the test collection).  In exact arithmetic G <= 2 when A
 * is diagonally dominant by rows, G <= 3 by columns (Higham: |L||U| <= 3|A|;
 * [1 t; 1 -t] approaches 3), G = 1 when A is symmetric positive definite or
 * an M-matrix.  In floating point these hold while the dominance has a
 * margin; a weakly dominant matrix that is numerically singular (Dorr's,
 * cond >= 1e18) can lose the sign of computed pivots and show G of 10 to
 * 200 (docs/matrices.md).  Computed in the element type.
 * n = 0: G = 1.  On a zero pivot *growth is +Inf; on a NaN/Inf input or
 * a NaN/Inf c'_i, d'_i in the elimination, NaN; when only the back
 * substitution fails (x overflows), G of the completed elimination. */
int32_t tridi_ref_growth_f32(int64_t n, const float *a, int64_t sa, const float *b, int64_t sb,
                             const float *c, int64_t sc, const float *d, int64_t sd, float *x,
                             int64_t sx, float *work, float *growth);
int32_t tridi_ref_growth_f64(int64_t n, const double *a, int64_t sa, const double *b, int64_t sb,
                             const double *c, int64_t sc, const double *d, int64_t sd, double *x,
                             int64_t sx, double *work, double *growth);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_REF_PIVOT_H */
