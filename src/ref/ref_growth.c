/* The reference Thomas algorithm with the growth indicator
 * G = || |L||U| ||inf / ||A||inf (ref_pivot.h).  The elimination, the
 * solution and the info codes are those of tridi_ref_thomas_f32/_f64 (the
 * same operations in the same order, so x is bit-for-bit the same, and the
 * same flag TRIDI_INFO_INACCURATE when max N_i > 8 max D_i); the indicator
 * is the two running maxima, N_i = |a_i| + |a_i c'_{i-1}| + |u_i| + |c_i|
 * and D_i = |a_i| + |b_i| + |c_i| (added in the order tridi_internal.h
 * gives), from values the elimination has in hand, returned as their
 * ratio: the oracle of the detection that non-pivoting kernels do. */
#include <math.h>

#include "ref_pivot.h"
#include "tridi_internal.h"

#define TRIDI_REF_GROWTH(NAME, T, FABS)                                                            \
  int32_t NAME(int64_t n, const T *a, int64_t sa, const T *b, int64_t sb, const T *c, int64_t sc,  \
               const T *d, int64_t sd, T *x, int64_t sx, T *w, T *growth) {                        \
    *growth = (T)1;                                                                                \
    if (n <= 0) return 0;                                                                          \
    T cp = 0, dp = 0;     /* c'_{i-1}, d'_{i-1} */                                                 \
    T nmax = 0, dmax = 0; /* max N_i, max D_i */                                                   \
    for (int64_t i = 0; i < n; ++i) {                                                              \
      const T ai = i > 0 ? a[i * sa] : (T)0;                                                       \
      const T bi = b[i * sb];                                                                      \
      const T ci = i < n - 1 ? c[i * sc] : (T)0;                                                   \
      const T di = d[i * sd];                                                                      \
      if (!isfinite(ai) || !isfinite(bi) || !isfinite(ci) || !isfinite(di)) {                      \
        *growth = (T)NAN;                                                                          \
        return (int32_t)(-(i + 1));                                                                \
      }                                                                                            \
      const T m = bi - ai * cp; /* the pivot u_i, as the reference Thomas computes it */           \
      if (m == (T)0) {                                                                             \
        *growth = (T)INFINITY;                                                                     \
        return (int32_t)(i + 1);                                                                   \
      }                                                                                            \
      const T t = FABS(ai) + FABS(ci);                                                             \
      const T ni = (t + FABS(ai * cp)) + FABS(m); /* a_i c'_{i-1} = l_i c_{i-1} */                 \
      const T di_ = t + FABS(bi);                                                                  \
      nmax = ni > nmax ? ni : nmax;                                                                \
      dmax = di_ > dmax ? di_ : dmax;                                                              \
      const T r = (T)1 / m;                                                                        \
      cp = ci * r;                                                                                 \
      dp = (di - ai * dp) * r;                                                                     \
      if (!isfinite(cp) || !isfinite(dp) || !isfinite(r)) {                                        \
        *growth = (T)NAN;                                                                          \
        return (int32_t)(-(i + 1));                                                                \
      }                                                                                            \
      w[i] = cp;                                                                                   \
      x[i * sx] = dp;                                                                              \
    }                                                                                              \
    /* dmax > 0: b_0 != 0, else the first pivot was zero */                                        \
    *growth = nmax / dmax;                                                                         \
    T xn = x[(n - 1) * sx];                                                                        \
    for (int64_t i = n - 2; i >= 0; --i) {                                                         \
      xn = x[i * sx] - w[i] * xn;                                                                  \
      if (!isfinite(xn)) return (int32_t)(-(i + 1)); /* G stays: the elimination ended */          \
      x[i * sx] = xn;                                                                              \
    }                                                                                              \
    return nmax > (T)TRIDI_GROWTH_LIMIT * dmax ? TRIDI_INFO_INACCURATE : 0;                        \
  }

TRIDI_REF_GROWTH(tridi_ref_growth_f32, float, fabsf)
TRIDI_REF_GROWTH(tridi_ref_growth_f64, double, fabs)
