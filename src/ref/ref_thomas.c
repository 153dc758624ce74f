/* The reference solver: plain Thomas on one strided system, with the pivot
 * and finiteness checks that define tridi's info codes and the growth
 * indicator that flags an inaccurate elimination (tridi_internal.h says
 * exactly how).  It is the fallback of every backend and the oracle of the
 * test suite, so it stays simple. */
#include "backends.h"

#include <math.h>
#include <string.h>

/* One body for both element types. */
#define TRIDI_REF_THOMAS(NAME, T, FABS)                                                            \
  int32_t NAME(int64_t n, const T *a, int64_t sa, const T *b, int64_t sb, const T *c,        \
               int64_t sc, const T *d, int64_t sd, T *x, int64_t sx, T *w) {                  \
    if (n <= 0) return 0;                                                                      \
    /* forward sweep: w = c', x = d' (x may be d: d_i is read before x_i is written) */       \
    T cp = 0, dp = 0;                                                                          \
    T nmax = 0, dmax = 0; /* growth: max N_i, max D_i */                                       \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      const T ai = i > 0 ? a[i * sa] : (T)0;                                                   \
      const T bi = b[i * sb];                                                                  \
      const T ci = i < n - 1 ? c[i * sc] : (T)0;                                               \
      const T di = d[i * sd];                                                                  \
      if (!isfinite(ai) || !isfinite(bi) || !isfinite(ci) || !isfinite(di))                    \
        return (int32_t)(-(i + 1));                                                            \
      const T acp = ai * cp;                                                                   \
      const T m = bi - acp;                                                                    \
      if (m == (T)0) return (int32_t)(i + 1);                                                  \
      const T t = FABS(ai) + FABS(ci);                                                         \
      const T ni = (t + FABS(acp)) + FABS(m);                                                  \
      const T di_ = t + FABS(bi);                                                              \
      nmax = ni > nmax ? ni : nmax;                                                            \
      dmax = di_ > dmax ? di_ : dmax;                                                          \
      const T r = (T)1 / m;                                                                    \
      cp = ci * r;                                                                             \
      dp = (di - ai * dp) * r;                                                                 \
      if (!isfinite(cp) || !isfinite(dp) || !isfinite(r)) return (int32_t)(-(i + 1));          \
      w[i] = cp;                                                                               \
      x[i * sx] = dp;                                                                          \
    }                                                                                          \
    /* back substitution */                                                                   \
    T xn = x[(n - 1) * sx];                                                                    \
    for (int64_t i = n - 2; i >= 0; --i) {                                                     \
      xn = x[i * sx] - w[i] * xn;                                                              \
      if (!isfinite(xn)) return (int32_t)(-(i + 1));                                           \
      x[i * sx] = xn;                                                                          \
    }                                                                                          \
    return nmax > (T)TRIDI_GROWTH_LIMIT * dmax ? TRIDI_INFO_INACCURATE : 0;                     \
  }

TRIDI_REF_THOMAS(tridi_ref_thomas_f32, float, fabsf)
TRIDI_REF_THOMAS(tridi_ref_thomas_f64, double, fabs)

int32_t tridi_ref_solve_system(const struct tridi_plan_s *plan, const tridi_args *args, int64_t s,
                               void *work) {
  const tridi_layout *L = &plan->lay;
  int64_t off[TRIDI_NUM_OPERANDS];
  tridi_layout_offsets(L, s, off);
  const int64_t *st = L->axis_stride;
  int32_t code;
  if (plan->dtype == TRIDI_F32) {
    const float *const *p = (const float *const *)args->op;
    code = tridi_ref_thomas_f32(L->n, p[0] + off[0], st[0], p[1] + off[1], st[1], p[2] + off[2],
                                st[2], p[3] + off[3], st[3], (float *)args->op[4] + off[4], st[4],
                                (float *)work);
  } else {
    const double *const *p = (const double *const *)args->op;
    code = tridi_ref_thomas_f64(L->n, p[0] + off[0], st[0], p[1] + off[1], st[1], p[2] + off[2],
                                st[2], p[3] + off[3], st[3], (double *)args->op[4] + off[4], st[4],
                                (double *)work);
  }
  return code == TRIDI_INFO_INACCURATE && !plan->growth ? 0 : code;
}

/* ---- the REF backend: every system in order, one thread ---------------- */

const char *tridi_ref_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

tridi_status tridi_ref_init(struct tridi_plan_s *plan) {
  plan->ws_bytes = (size_t)plan->lay.n * plan->esize;
  return TRIDI_SUCCESS;
}

tridi_status tridi_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  tridi_status st = TRIDI_SUCCESS;
  for (int64_t s = 0; s < plan->lay.nsys; ++s) {
    const int32_t code = tridi_ref_solve_system(plan, args, s, args->ws);
    if (args->info) args->info[s] = code;
    if (code && st == TRIDI_SUCCESS) st = tridi_info_status(code);
  }
  return st;
}
