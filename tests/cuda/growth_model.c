/* The host model of the Thomas-PCR hybrid and its growth indicator
 * (growth_model.h).  Each line mirrors src/cuda/scalar/chunk.cuh. */
#include "growth_model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GM_LIMIT 8 /* TRIDI_GROWTH_LIMIT */
#define GM_KY 2.5  /* chunk.cuh's kGrowY */

/* chunk.cuh's GrowAcc<double> keeps its maxima as high words: max Y
 * rounded up to the next high word (Inf from Inf or NaN), max |b| rounded
 * down; GrowAcc<float> keeps them exactly */
static double gm_hi_up(double y) {
  uint64_t u;
  memcpy(&u, &y, sizeof u);
  uint32_t h = (uint32_t)(u >> 32) + 1u;
  if (h > 0x7ff00000u) h = 0x7ff00000u;
  u = (uint64_t)h << 32;
  memcpy(&y, &u, sizeof y);
  return y;
}
static double gm_hi_down(double b) {
  uint64_t u;
  memcpy(&u, &b, sizeof u);
  u &= 0xffffffff00000000ull;
  memcpy(&b, &u, sizeof b);
  return b;
}
static float gm_id(float v) { return v; }
/* max |b| as GrowAcc keeps it: f64 drops the |b| whose high word reads as
 * an f32 NaN (|b| >= 2^1017, fmaxf) */
static double gm_bmax_f64(double m, double b) {
  uint64_t u;
  b = fabs(b);
  memcpy(&u, &b, sizeof u);
  if ((uint32_t)(u >> 32) > 0x7f800000u) return m;
  return b > m ? b : m;
}
static float gm_bmax_f32(float m, float b) { return fabsf(b) > m ? fabsf(b) : m; }

/* the residual tolerance factor (times eps): chunk.cuh's residual_tol */
#ifndef GM_TAUN
#define GM_TAUN(n) ((n) > 64 ? (n) : 64)
#endif
#define GM_HYBRID(NAME, T, FABS, EPS, UP, DN, BMAX)                                              \
  int NAME(int64_t n, int M, int own, double tau, const T *a, const T *b, const T *c, const T *d, \
           T *x, double *g) {                                                                     \
    int64_t P = 1;                                                                             \
    while (P * M < n) P *= 2;                                                                  \
    const int64_t np = P * M;                                                                  \
    T *mem = malloc(sizeof(T) * (size_t)(3 * np + 21 * P));                                    \
    if (!mem) return -1;                                                                       \
    T *dl = mem, *al = dl + np, *gm = al + np;                                                 \
    T *sF = gm + np, *pF = sF + P, *qF = pF + P, *sL = qF + P, *pL = sL + P, *qL = pL + P;       \
    T *w = qL + P, *s = w + P, *pp = s + P, *q = pp + P, *s2 = q + P, *p2 = s2 + P,            \
      *q2 = p2 + P, *nm = q2 + P, *dm = nm + P, *wF = dm + P, *wL = wF + P, *w1 = wL + P,      \
      *s1 = w1 + P, *p1 = s1 + P, *q1 = p1 + P;                                                \
    T gy = 0, bmx = 0, dmx = 0, gmx = 0;                                                  \
    int segs = 0; /* own == 2: a closed segment grew */                                   \
    for (int64_t ch = 0; ch < P; ++ch) {                                                   \
      const int64_t r0 = ch * M;                                                           \
      gy = bmx = 0; /* GrowAcc: max Y, max |b| over the chunk's rows < n */               \
      T av[64], bv[64], cv[64], dv[64];                                                    \
      for (int j = 0; j < M; ++j) {                                                        \
        const int64_t i = r0 + j;                                                          \
        const int in = i < n;                                                              \
        av[j] = in && i > 0 ? a[i] : 0;                                                    \
        bv[j] = in ? b[i] : 1;                                                             \
        cv[j] = in && i < n - 1 ? c[i] : 0;                                                \
        dv[j] = in ? d[i] : 0;                                                             \
      }                                                                                    \
      T dlt = 0, alt = -1, gmt = 0;                                                        \
      /* own == 2 (chunk.cuh's SEG): a row with a = 0 starts a new segment of the            \
       * chunk (a system's first row in a PACKED tile): the segment before it is              \
       * checked alone (2.5 max Y > 8 max |b|), the first one later with the first            \
       * row's N, and the maxima start again */                                              \
      int split = 0;                                                                       \
      T bfirst = 0;                                                                        \
      if (own == 2 && r0 < n) bmx = BMAX(bmx, b[r0]);                                      \
      for (int k = 1; k < M; ++k) {                                                        \
        const T ak = av[k], bk = bv[k], ck = cv[k], dk = dv[k];                            \
        const T u = bk - ak * gmt;                                                         \
        const T xs = ak * alt; /* the spike product, formed first (step_g) */              \
        if (own == 2 && r0 + k < n && ak == 0) {                                           \
          if (!split) bfirst = DN(bmx);                                                    \
          segs |= (T)GM_KY * UP(gy) > (T)GM_LIMIT * DN(bmx);                               \
          split = 1;                                                                       \
          gy = bmx = 0;                                                                    \
        }                                                                                  \
        if (r0 + k < n) { /* rows >= n are not the system's */                             \
          const T yy = FABS(u) + FABS(xs);                                                 \
          gy = yy > gy ? yy : gy;                                                       \
          bmx = BMAX(bmx, bk);                                                             \
        }                                                                                  \
        const T r = (T)1 / u;                                                              \
        if (k < M - 1) {                                                                   \
          gmt = r * ck;                                                                    \
          dlt = r * (dk - ak * dlt);                                                       \
          alt = -r * xs;                                                                   \
          dl[r0 + k] = dlt;                                                                \
          al[r0 + k] = alt;                                                                \
          gm[r0 + k] = gmt;                                                                \
        } else {                                                                           \
          sL[ch] = -xs * r;                                                                \
          pL[ch] = ck * r;                                                                 \
          qL[ch] = (dk - ak * dlt) * r;                                                    \
          w[ch] = wL[ch] = r0 + k < n ? FABS(u) : 0;                                       \
        }                                                                                  \
      }                                                                                    \
      for (int k = M - 3; k >= 1; --k) {                                                   \
        dl[r0 + k] -= gm[r0 + k] * dl[r0 + k + 1];                                         \
        al[r0 + k] -= gm[r0 + k] * al[r0 + k + 1];                                         \
        gm[r0 + k] = -gm[r0 + k] * gm[r0 + k + 1];                                         \
      }                                                                                    \
      {                                                                                    \
        const T a0 = av[0], b0 = bv[0], c0 = cv[0], d0 = dv[0];                            \
        const T d1 = dl[r0 + 1], a1 = al[r0 + 1], g1 = gm[r0 + 1];                         \
        const T u = b0 - c0 * a1;                                                          \
        const T nn = ((FABS(a0) + FABS(c0)) + FABS(c0) * (FABS(a1) + FABS(g1))) + FABS(u); \
        if (r0 < n && own != 2) bmx = BMAX(bmx, b0);                                       \
        wF[ch] = r0 < n ? FABS(u) : 0;                                                     \
        const T inv = (T)1 / u;                                                            \
        sF[ch] = a0 * inv;                                                                 \
        pF[ch] = -c0 * g1 * inv;                                                           \
        qF[ch] = (d0 - c0 * d1) * inv;                                                     \
        const T nf = r0 < n ? nn : 0, ny = r0 < n ? (T)GM_KY * UP(gy) : 0; /* dead: 0 */  \
        if (split) segs |= nf > (T)GM_LIMIT * bfirst; /* the first row's own segment */     \
        nm[ch] = nf > ny && !split ? nf : ny;                                               \
        dm[ch] = DN(bmx);                                                                  \
      }                                                                                    \
    }                                                                                      \
    /* pcr_reduced: the F rows eliminated from the L rows (step 2): P rows                      \
     * L' (s1, p1, q1) in the L unknowns, in original units w1 = |u_L| |den| */                 \
    for (int64_t ch = 0; ch < P; ++ch) {                                                        \
      const T sn = ch + 1 < P ? sF[ch + 1] : 0, pn = ch + 1 < P ? pF[ch + 1] : 0,               \
              qn = ch + 1 < P ? qF[ch + 1] : 0;                                                 \
      const T den = (T)1 - sL[ch] * pF[ch] - pL[ch] * sn;                                       \
      const T nn = w[ch] * ((1 + FABS(sL[ch]) * ((2 + FABS(sF[ch])) + FABS(pF[ch]))) +          \
                            FABS(pL[ch]) * ((2 + FABS(sn)) + FABS(pn)));                        \
      nm[ch] = nn > nm[ch] ? nn : nm[ch];                                                       \
      w1[ch] = w[ch] * FABS(den);                                                               \
      const T r = (T)1 / den;                                                                   \
      s[ch] = s1[ch] = -r * sL[ch] * sF[ch];                                                    \
      pp[ch] = p1[ch] = -r * pL[ch] * pn;                                                       \
      q[ch] = q1[ch] = r * (qL[ch] - sL[ch] * qF[ch] - pL[ch] * qn);                            \
    }                                                                                           \
    /* step 3: PCR (its growth is not tracked: the residual below checks it) */                 \
    for (int64_t h = 1; h < P; h <<= 1) {                                                       \
      for (int64_t ch = 0; ch < P; ++ch) {                                                      \
        const int lo = ch - h >= 0, hi = ch + h < P;                                            \
        const T sm = lo ? s[ch - h] : 0, pm = lo ? pp[ch - h] : 0, qm = lo ? q[ch - h] : 0;     \
        const T sp = hi ? s[ch + h] : 0, pq = hi ? pp[ch + h] : 0, qp = hi ? q[ch + h] : 0;     \
        const T r = (T)1 / ((T)1 - s[ch] * pm - pp[ch] * sp);                                   \
        q2[ch] = r * (q[ch] - s[ch] * qm - pp[ch] * qp);                                        \
        s2[ch] = -r * s[ch] * sm;                                                               \
        p2[ch] = -r * pp[ch] * pq;                                                              \
      }                                                                                         \
      for (int64_t ch = 0; ch < P; ++ch) {                                                      \
        s[ch] = s2[ch];                                                                         \
        pp[ch] = p2[ch];                                                                        \
        q[ch] = q2[ch];                                                                         \
      }                                                                                         \
    }                                                                                           \
    /* the L' rows' residuals in original units (the F rows hold by their                       \
     * back substitution), each against max|b| of the system times its own                      \
     * |y_L| plus its own w1|q1| */                                                             \
    int bad = 0;                                                                                \
    T dall = 0;                                                                                 \
    for (int64_t ch = 0; ch < P; ++ch) dall = dm[ch] > dall ? dm[ch] : dall;                    \
    for (int64_t ch = 0; ch < P; ++ch) {                                                        \
      const T yprev = ch > 0 ? q[ch - 1] : 0, ynext = ch + 1 < P ? q[ch + 1] : 0;               \
      const T rL = q1[ch] - s1[ch] * yprev - q[ch] - p1[ch] * ynext;                            \
      const T dref = own ? dm[ch] : dall;                                                       \
      const T rt = (T)tau * EPS; /* the kernel's order: rt dref first */                        \
      const T tol = (rt * dref) * FABS(q[ch]) + rt * (w1[ch] * FABS(q1[ch]));                    \
      if (P > 2 && !(FABS(rL) * w1[ch] <= tol)) bad = 1; /* pcr_reduced's RESID */             \
    }                                                                                           \
    for (int64_t ch = 0; ch < P; ++ch) {                                                        \
      const T yprev = ch > 0 ? q[ch - 1] : 0;                                                   \
      const T xF = qF[ch] - sF[ch] * yprev - pF[ch] * q[ch], xL = q[ch];                        \
      const int64_t r0 = ch * M;                                                                \
      for (int j = 0; j < M && r0 + j < n; ++j)                                                 \
        x[r0 + j] = j == 0 ? xF : j == M - 1 ? xL : dl[r0 + j] - al[r0 + j] * xF - gm[r0 + j] * xL; \
    }                                                                                           \
    /* max N and max D of the whole system (the kernels: per thread, then a                 \
     * shared-memory maximum per system) */                                                    \
    int grown = 0;                                                                             \
    for (int64_t ch = 0; ch < P; ++ch) dmx = dm[ch] > dmx ? dm[ch] : dmx;                      \
    for (int64_t ch = 0; ch < P; ++ch) {                                                       \
      const T dref = own ? dm[ch] : dmx;                                                       \
      grown |= nm[ch] > (T)GM_LIMIT * dref;                                                    \
      const T gc = own ? (dm[ch] > 0 ? nm[ch] / dm[ch] : 0) : nm[ch];                          \
      gmx = gc > gmx ? gc : gmx;                                                               \
    }                                                                                          \
    if (!own) gmx /= dmx;                                                                      \
    grown |= segs;                                                                             \
    free(mem);                                                                                 \
    if (g) g[0] = (double)gmx;                                                                 \
    return bad | 2 * grown;                                                                    \
  }

GM_HYBRID(gm_hybrid_opt_f64, double, fabs, DBL_EPSILON, gm_hi_up, gm_hi_down, gm_bmax_f64)
GM_HYBRID(gm_hybrid_opt_f32, float, fabsf, FLT_EPSILON, gm_id, gm_id, gm_bmax_f32)

int gm_hybrid_f64(int64_t n, int M, const double *a, const double *b, const double *c,
                  const double *d, double *x, double *g) {
  const int r = gm_hybrid_opt_f64(n, M, 0, GM_TAUN(n), a, b, c, d, x, g);
  return r > 0 ? 1 : r;
}
int gm_hybrid_f32(int64_t n, int M, const float *a, const float *b, const float *c,
                  const float *d, float *x, double *g) {
  const int r = gm_hybrid_opt_f32(n, M, 0, GM_TAUN(n), a, b, c, d, x, g);
  return r > 0 ? 1 : r;
}
