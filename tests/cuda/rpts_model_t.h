/* The body of rpts_model.c for one element type: included with RM_T (the
 * type), RM_ABS (its fabs), RM_EPS and RM_F (a name suffix) defined. */
#define RM_CAT2(x, y) x##_##y
#define RM_CAT(x, y) RM_CAT2(x, y)
#define RM_FN(name) RM_CAT(name, RM_F)

/* ?gtsv's elimination with row interchanges (NRHS = 1) on copies: what the
 * kernel's one thread does on the top level.  A zero pivot is not tested:
 * its division makes x non-finite, which the acceptance check rejects. */
static int RM_FN(rm_gepp)(int64_t n, const RM_T *a, const RM_T *b, const RM_T *c, const RM_T *d,
                          RM_T *x) {
  RM_T *w = malloc(sizeof(RM_T) * 4 * (size_t)n);
  if (!w) return -1;
  RM_T *bb = w, *cc = w + n, *du2 = w + 2 * n, *dd = w + 3 * n;
  for (int64_t i = 0; i < n; ++i) {
    bb[i] = b[i];
    cc[i] = i < n - 1 ? c[i] : 0;
    dd[i] = d[i];
    du2[i] = 0;
  }
  for (int64_t i = 0; i < n - 1; ++i) {
    const RM_T al = a[i + 1];
    if (RM_ABS(bb[i]) >= RM_ABS(al)) {
      const RM_T f = al / bb[i];
      bb[i + 1] = bb[i + 1] - f * cc[i];
      dd[i + 1] = dd[i + 1] - f * dd[i];
    } else {
      const RM_T f = bb[i] / al;
      bb[i] = al;
      const RM_T t = bb[i + 1];
      bb[i + 1] = cc[i] - f * t;
      if (i < n - 2) {
        du2[i] = cc[i + 1];
        cc[i + 1] = -f * cc[i + 1];
      }
      cc[i] = t;
      const RM_T td = dd[i];
      dd[i] = dd[i + 1];
      dd[i + 1] = td - f * dd[i + 1];
    }
  }
  x[n - 1] = dd[n - 1] / bb[n - 1];
  if (n > 1) x[n - 2] = (dd[n - 2] - cc[n - 2] * x[n - 1]) / bb[n - 2];
  for (int64_t i = n - 3; i >= 0; --i)
    x[i] = (dd[i] - cc[i] * x[i + 1] - du2[i] * x[i + 2]) / bb[i];
  free(w);
  return 0;
}

/* One elimination step of a sweep: the running row s (s0 x_spike + s1 x_lead
 * + s2 x_next = sd) against the next row (ca x_lead + cb x_next + cc x_far =
 * cd); the row with the larger |leading coefficient| is the pivot.  Leaves
 * s in (x_next, x_far) and returns 1 when the next row was the pivot. */
static int RM_FN(rm_step)(RM_T *s0, RM_T *s1, RM_T *s2, RM_T *sd, RM_T ca, RM_T cb, RM_T cc,
                          RM_T cd) {
  if (RM_ABS(ca) > RM_ABS(*s1)) {
    const RM_T r = *s1 / ca;
    *s1 = *s2 - r * cb;
    *s2 = -r * cc;
    *sd = *sd - r * cd;
    return 1;
  }
  const RM_T r = ca / *s1;
  *s0 = -r * *s0;
  *s1 = cb - r * *s2;
  *s2 = cc;
  *sd = cd - r * *sd;
  return 0;
}

static int RM_FN(rm_rec)(int64_t n, int M, int top, const RM_T *a, const RM_T *b, const RM_T *c,
                         const RM_T *d, RM_T *x) {
  const int64_t P = (n + M - 1) / M, np = P * M, nc = 2 * P;
  if (n <= top || nc >= n) return RM_FN(rm_gepp)(n, a, b, c, d, x);
  RM_T *w = malloc(sizeof(RM_T) * (size_t)(4 * np + 5 * nc));
  if (!w) return -1;
  RM_T *pa = w, *pb = pa + np, *pc = pb + np, *pd = pc + np;
  RM_T *ya = pd + np, *yb = ya + nc, *yc = yb + nc, *yd = yc + nc, *y = yd + nc;
  for (int64_t i = 0; i < np; ++i) { /* rows >= n: identity rows, x = 0 */
    pa[i] = i < n && i > 0 ? a[i] : 0;
    pb[i] = i < n ? b[i] : 1;
    pc[i] = i < n - 1 ? c[i] : 0;
    pd[i] = i < n ? d[i] : 0;
  }
  for (int64_t p = 0; p < P; ++p) {
    const RM_T *A = pa + p * M, *B = pb + p * M, *C = pc + p * M, *D = pd + p * M;
    /* downward: row 1 .. M-1 -> the lower coarse row (x_0, x_{M-1}, x_M) */
    RM_T s0 = A[1], s1 = B[1], s2 = C[1], sd = D[1];
    for (int j = 2; j < M; ++j) RM_FN(rm_step)(&s0, &s1, &s2, &sd, A[j], B[j], C[j], D[j]);
    ya[2 * p + 1] = s0;
    yb[2 * p + 1] = s1;
    yc[2 * p + 1] = s2;
    yd[2 * p + 1] = sd;
    /* upward: row M-2 .. 0 -> the upper coarse row (x_{-1}, x_0, x_{M-1}) */
    s0 = C[M - 2];
    s1 = B[M - 2];
    s2 = A[M - 2];
    sd = D[M - 2];
    for (int j = M - 3; j >= 0; --j) RM_FN(rm_step)(&s0, &s1, &s2, &sd, C[j], B[j], A[j], D[j]);
    ya[2 * p] = s2;
    yb[2 * p] = s1;
    yc[2 * p] = s0;
    yd[2 * p] = sd;
  }
  int rc = RM_FN(rm_rec)(nc, M, top, ya, yb, yc, yd, y);
  if (rc) {
    free(w);
    return rc;
  }
  RM_T q1[RM_MAXM], q2[RM_MAXM], q3[RM_MAXM], qd[RM_MAXM], xl[RM_MAXM];
  for (int64_t p = 0; p < P; ++p) {
    const RM_T *A = pa + p * M, *B = pb + p * M, *C = pc + p * M, *D = pd + p * M;
    const RM_T xp = p > 0 ? y[2 * p - 1] : 0, xn = p < P - 1 ? y[2 * p + 2] : 0;
    xl[0] = y[2 * p];
    xl[M - 1] = y[2 * p + 1];
    /* the downward sweep again with x_0 known; pivot rows kept (registers
     * in the kernel): q1 x_{j-1} + q2 x_j + q3 x_{j+1} = qd */
    RM_T s0 = 0, s1 = B[1], s2 = C[1], sd = D[1] - A[1] * xl[0];
    for (int j = 2; j < M - 1; ++j) {
      const RM_T t1 = s1, t2 = s2, td = sd;
      if (RM_FN(rm_step)(&s0, &s1, &s2, &sd, A[j], B[j], C[j], D[j])) {
        q1[j - 1] = A[j];
        q2[j - 1] = B[j];
        q3[j - 1] = C[j];
        qd[j - 1] = D[j];
      } else {
        q1[j - 1] = t1;
        q2[j - 1] = t2;
        q3[j - 1] = 0;
        qd[j - 1] = td;
      }
    }
    if (RM_ABS(A[M - 1]) > RM_ABS(s1))
      xl[M - 2] = (D[M - 1] - B[M - 1] * xl[M - 1] - C[M - 1] * xn) / A[M - 1];
    else
      xl[M - 2] = (sd - s2 * xl[M - 1]) / s1;
    for (int k = M - 3; k >= 1; --k)
      xl[k] = (qd[k] - q2[k] * xl[k + 1] - q3[k] * xl[k + 2]) / q1[k];
    if (M > 3 && RM_ABS(C[0]) > RM_ABS(q1[1]))
      xl[1] = (D[0] - A[0] * xp - B[0] * xl[0]) / C[0];
    for (int j = 0; j < M; ++j)
      if (p * M + j < n) x[p * M + j] = xl[j];
  }
  free(w);
  return 0;
}

/* the acceptance ratio: max |r_i| / (||A|| ||x|| + ||d||) / eps, Inf when x
 * or the bound is not finite */
static double RM_FN(rm_ratio)(int64_t n, const RM_T *a, const RM_T *b, const RM_T *c, const RM_T *d,
                              const RM_T *x) {
  RM_T rmax = 0, amax = 0, xmax = 0, dmax = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!isfinite(x[i])) return INFINITY;
    const RM_T xm = i > 0 ? x[i - 1] : 0, xp = i < n - 1 ? x[i + 1] : 0;
    const RM_T ai = i > 0 ? a[i] : 0, ci = i < n - 1 ? c[i] : 0;
    const RM_T r = RM_ABS(((ai * xm + b[i] * x[i]) + ci * xp) - d[i]);
    const RM_T s = (RM_ABS(ai) + RM_ABS(b[i])) + RM_ABS(ci);
    rmax = r > rmax ? r : rmax;
    amax = s > amax ? s : amax;
    xmax = RM_ABS(x[i]) > xmax ? RM_ABS(x[i]) : xmax;
    dmax = RM_ABS(d[i]) > dmax ? RM_ABS(d[i]) : dmax;
  }
  const RM_T bound = amax * xmax + dmax;
  if (!isfinite(bound) || !isfinite(rmax)) return INFINITY;
  if (rmax == 0) return 0;
  return (double)rmax / (double)bound / RM_EPS;
}

/* One step of refinement on the tile: r = d - A x (into the tile's d), A e
 * = r by the same partitioned solve, x += e.  The check after it is the
 * kernel's: the residual r - A e (e of the neighbouring rows from the same
 * solve; d is gone), over ||A|| ||x + e|| + ||d||.  Returns the ratio in
 * eps (Inf when not finite), or -1 when memory ran out. */
static double RM_FN(rm_refine)(int64_t n, int M, int top, const RM_T *a, const RM_T *b,
                               const RM_T *c, const RM_T *d, RM_T *x) {
  RM_T *r = malloc(sizeof(RM_T) * 2 * (size_t)n);
  if (!r) return -1;
  RM_T *e = r + n;
  RM_T amax = 0, dmax = 0;
  for (int64_t i = 0; i < n; ++i) {
    const RM_T xm = i > 0 ? x[i - 1] : 0, xp = i < n - 1 ? x[i + 1] : 0;
    const RM_T ai = i > 0 ? a[i] : 0, ci = i < n - 1 ? c[i] : 0;
    r[i] = d[i] - ((ai * xm + b[i] * x[i]) + ci * xp);
    const RM_T s = (RM_ABS(ai) + RM_ABS(b[i])) + RM_ABS(ci);
    amax = s > amax ? s : amax;
    dmax = RM_ABS(d[i]) > dmax ? RM_ABS(d[i]) : dmax;
  }
  if (RM_FN(rm_rec)(n, M, top, a, b, c, r, e)) {
    free(r);
    return -1;
  }
  RM_T rmax = 0, xmax = 0;
  int finite = 1;
  for (int64_t i = 0; i < n; ++i) {
    const RM_T em = i > 0 ? e[i - 1] : 0, ep = i < n - 1 ? e[i + 1] : 0;
    const RM_T ai = i > 0 ? a[i] : 0, ci = i < n - 1 ? c[i] : 0;
    const RM_T res = RM_ABS(r[i] - ((ai * em + b[i] * e[i]) + ci * ep));
    x[i] = x[i] + e[i];
    finite &= isfinite(x[i]) && isfinite(res);
    rmax = res > rmax ? res : rmax;
    xmax = RM_ABS(x[i]) > xmax ? RM_ABS(x[i]) : xmax;
  }
  free(r);
  const RM_T bound = amax * xmax + dmax;
  if (!finite || !isfinite(bound)) return INFINITY;
  if (rmax == 0) return 0;
  return (double)rmax / (double)bound / RM_EPS;
}

int RM_FN(rm_solve)(int64_t n, int M, int top, int refine, const RM_T *a, const RM_T *b,
                    const RM_T *c, const RM_T *d, RM_T *x, double *ratio) {
  if (M < 4 || M > RM_MAXM || top < 2) return -1;
  const int rc = RM_FN(rm_rec)(n, M, top, a, b, c, d, x);
  if (rc) return rc;
  double q = RM_FN(rm_ratio)(n, a, b, c, d, x);
  /* the kernel refines only where it partitioned (n > top) */
  for (int k = 0; k < refine && q > RM_TAU && isfinite(q) && n > top; ++k) {
    q = RM_FN(rm_refine)(n, M, top, a, b, c, d, x);
    if (q < 0) return -1;
  }
  if (ratio) *ratio = q;
  return q <= RM_TAU ? 0 : 1;
}

#undef RM_FN
#undef RM_CAT
#undef RM_CAT2
