/* The reference partial-pivoting solver: LAPACK ?gtsv (NRHS = 1) on one
 * strided system, with tridi's info codes.  It is the oracle and the
 * fallback of the pivoting solvers, so it stays a line-by-line transcription
 * of dgtsv (see ref_pivot.h for the contract).
 *
 * dgtsv overwrites its inputs; here they are const and the factor U lives
 * in `work` (diagonal u, superdiagonal du, fill-in du2), the modified
 * right-hand side in x.  The elimination streams: before step k, the
 * variables (dk, uk, rk) hold row k as updated by the previous steps
 * (diagonal, superdiagonal, right-hand side); step k reads row k+1, writes
 * row k of U and of the right-hand side, and leaves row k+1 updated.  x_k is
 * written only after d_{k+1} has been read, so x may be d. */
#include "ref_pivot.h"

#include <math.h>

#define TRIDI_REF_PIVOT(NAME, T, FABS)                                                            \
  int32_t NAME(int64_t n, const T *a, int64_t sa, const T *b, int64_t sb, const T *c, int64_t sc, \
               const T *d, int64_t sd, T *x, int64_t sx, T *work) {                               \
    if (n <= 0) return 0;                                                                         \
    T *const u = work;           /* diagonal of U (dgtsv's D) */                                  \
    T *const du = work + n;      /* first superdiagonal of U (dgtsv's DU) */                      \
    T *const du2 = work + 2 * n; /* fill-in superdiagonal (dgtsv's DL, reused) */                 \
    /* row 0 */                                                                                   \
    T dk = b[0];                                                                                  \
    T uk = n > 1 ? c[0] : (T)0;                                                                   \
    T rk = d[0];                                                                                  \
    if (!isfinite(dk) || !isfinite(uk) || !isfinite(rk)) return -1;                               \
    for (int64_t k = 0; k < n - 1; ++k) {                                                         \
      /* row k+1 of A */                                                                          \
      const T al = a[(k + 1) * sa];                                                               \
      const T bl = b[(k + 1) * sb];                                                               \
      const T cl = k + 1 < n - 1 ? c[(k + 1) * sc] : (T)0;                                        \
      const T dl = d[(k + 1) * sd];                                                               \
      if (!isfinite(al) || !isfinite(bl) || !isfinite(cl) || !isfinite(dl))                       \
        return (int32_t)(-(k + 2));                                                               \
      T nd, nu, nr; /* row k+1 after the step */                                                  \
      if (FABS(dk) >= FABS(al)) {                                                                 \
        /* no interchange: row k is final */                                                      \
        if (dk == (T)0) return (int32_t)(k + 1); /* then al == 0 too: column k is zero */         \
        const T fact = al / dk;                                                                   \
        u[k] = dk;                                                                                \
        du[k] = uk;                                                                               \
        du2[k] = (T)0;                                                                            \
        x[k * sx] = rk;                                                                           \
        nd = bl - fact * uk;                                                                      \
        nu = cl;                                                                                  \
        nr = dl - fact * rk;                                                                      \
      } else {                                                                                    \
        /* interchange rows k and k+1: row k+1 of A becomes row k of U */                         \
        const T fact = dk / al;                                                                   \
        u[k] = al;                                                                                \
        du[k] = bl;                                                                               \
        du2[k] = cl;                                                                              \
        x[k * sx] = dl;                                                                           \
        nd = uk - fact * bl;                                                                      \
        nu = -fact * cl;                                                                          \
        nr = rk - fact * dl;                                                                      \
      }                                                                                           \
      /* |nu| <= |c_{k+1}| (|fact| <= 1 either way): only nd and nr can overflow */               \
      if (!isfinite(nd) || !isfinite(nr)) return (int32_t)(-(k + 2));                             \
      dk = nd;                                                                                    \
      uk = nu;                                                                                    \
      rk = nr;                                                                                    \
    }                                                                                             \
    if (dk == (T)0) return (int32_t)n;                                                            \
    u[n - 1] = dk;                                                                                \
    /* back substitution: U x = d' (dgtsv's order of operations); */                              \
    /* xa = x_{i+1}, xb = x_{i+2} */                                                              \
    T xb = rk / dk;                                                                               \
    if (!isfinite(xb)) return (int32_t)(-n);                                                      \
    x[(n - 1) * sx] = xb;                                                                         \
    if (n == 1) return 0;                                                                         \
    T xa = (x[(n - 2) * sx] - du[n - 2] * xb) / u[n - 2];                                         \
    if (!isfinite(xa)) return (int32_t)(-(n - 1));                                                \
    x[(n - 2) * sx] = xa;                                                                         \
    for (int64_t i = n - 3; i >= 0; --i) {                                                        \
      const T xi = (x[i * sx] - du[i] * xa - du2[i] * xb) / u[i];                                 \
      if (!isfinite(xi)) return (int32_t)(-(i + 1));                                              \
      x[i * sx] = xi;                                                                             \
      xb = xa;                                                                                    \
      xa = xi;                                                                                    \
    }                                                                                             \
    return 0;                                                                                     \
  }

TRIDI_REF_PIVOT(tridi_ref_pivot_f32, float, fabsf)
TRIDI_REF_PIVOT(tridi_ref_pivot_f64, double, fabs)
