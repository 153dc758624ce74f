/* The numerics of `tridi accuracy` (tools/accuracy.h): the families'
 * systems (the definitions are in tools/accuracy.c's header comment and
 * docs/accuracy.md), the reference solutions, LAPACK ?gtsv, the judging and
 * the operand layouts.  The systems of a case are independent: each loop
 * over them runs on the OpenMP threads, every system computed exactly as it
 * would be alone (its own seed, its own scratch), so the figures do not
 * depend on the thread count; only the tool's own families, drawn from one
 * stream in order, are made on one thread. */
#include "accuracy.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

void sgtsv_(const int *n, const int *nrhs, float *dl, float *d, float *du, float *b, const int *ldb,
            int *info);
void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b,
            const int *ldb, int *info);

int acc_nfam = ACC_NOWN;
const char *acc_fam_names[ACC_NFAM_MAX] = {"dominant", "close", "laplace"};
const mg_matrix *acc_fam_mat[ACC_NFAM_MAX];

void acc_collect_families(void) {
  acc_nfam = ACC_NOWN;
  for (int k = 0; k < mg_count && acc_nfam < ACC_NFAM_MAX; ++k) {
    if (strcmp(mg_matrices[k].name, "dominant") == 0) continue;
    acc_fam_mat[acc_nfam] = &mg_matrices[k];
    acc_fam_names[acc_nfam++] = mg_matrices[k].name;
  }
}

/* the loops over a case's systems go parallel from this many unknowns */
#define PAR_MIN 4096

int acc_scratch_alloc(acc_scratch *S, int64_t nmax) {
  S->threads = omp_get_max_threads();
  S->nmax = nmax;
  const size_t t = (size_t)S->threads, m = (size_t)nmax;
  S->w = malloc(t * m * 8 * sizeof *S->w);
  S->fw = malloc(t * m * 4 * sizeof *S->fw);
  S->r = malloc(t * m * sizeof *S->r);
  S->xt = malloc(t * m * sizeof *S->xt);
  return S->w && S->fw && S->r && S->xt ? 0 : -1;
}

void acc_scratch_free(acc_scratch *S) {
  free(S->w);
  free(S->fw);
  free(S->r);
  free(S->xt);
  memset(S, 0, sizeof *S);
}

/* this thread's part of the scratch */
static double *thread_w(const acc_scratch *S) {
  return S->w + (size_t)omp_get_thread_num() * (size_t)S->nmax * 8;
}
static float *thread_fw(const acc_scratch *S) {
  return S->fw + (size_t)omp_get_thread_num() * (size_t)S->nmax * 4;
}
static long double *thread_r(const acc_scratch *S) {
  return S->r + (size_t)omp_get_thread_num() * (size_t)S->nmax;
}
static double *thread_xt(const acc_scratch *S) {
  return S->xt + (size_t)omp_get_thread_num() * (size_t)S->nmax;
}

/* splitmix64 */
static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static double urand(uint64_t *s, double lo, double hi) {
  return lo + (hi - lo) * (double)(rng_next(s) >> 11) * 0x1.0p-53;
}

int acc_fill(int fam, int64_t n, int64_t batch, uint64_t *rng, double *a, double *b, double *c,
             double *d, const acc_scratch *S) {
  if (fam >= ACC_NOWN) {
    const uint64_t base = rng_next(rng);
    int bad = 0;
#pragma omp parallel for schedule(dynamic, 1) if (n * batch >= PAR_MIN)
    for (int64_t s = 0; s < batch; ++s) {
      const int64_t o = s * n;
      double *xt = thread_xt(S);
      if (mg_generate(acc_fam_mat[fam], n, base + (uint64_t)s, a + o, b + o, c + o)) {
#pragma omp atomic write
        bad = 1;
        continue;
      }
      mg_xtrue(n, base + (uint64_t)s, xt);
      mg_matvec(n, a + o, b + o, c + o, xt, d + o);
    }
    return bad ? -1 : 0;
  }
  const double nn = (double)n * (double)n;
  for (int64_t s = 0; s < batch; ++s)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = s * n + i;
      if (fam == ACC_FAM_DOMINANT) {
        a[j] = urand(rng, -1, 1);
        c[j] = urand(rng, -1, 1);
        b[j] = urand(rng, 3, 5) * ((rng_next(rng) & 1) ? 1 : -1);
      } else if (fam == ACC_FAM_CLOSE) {
        const double v = urand(rng, 1, 2) * ((rng_next(rng) & 1) ? 1 : -1);
        a[j] = v * (1 + 0.02 * urand(rng, -1, 1));
        b[j] = v * (1 + 0.02 * urand(rng, -1, 1));
        c[j] = v * (1 + 0.02 * urand(rng, -1, 1));
      } else {
        const double v = urand(rng, 1, 2) * ((rng_next(rng) & 1) ? 1 : -1);
        a[j] = -v * (1 - urand(rng, 0, 1) / nn);
        b[j] = v * (2 + (1 + urand(rng, 0, 1)) / nn);
        c[j] = -v * (1 - urand(rng, 0, 1) / nn);
      }
      d[j] = urand(rng, -1, 1);
      if (i == 0) a[j] = 0;
      if (i == n - 1) c[j] = 0;
    }
  return 0;
}

/* Residual r = d - A x in long double. */
static void residual(int64_t n, const double *a, const double *b, const double *c, const double *d,
                     const double *x, long double *r) {
  for (int64_t i = 0; i < n; ++i) {
    long double v = (long double)d[i] - (long double)b[i] * x[i];
    if (i > 0) v -= (long double)a[i] * x[i - 1];
    if (i < n - 1) v -= (long double)c[i] * x[i + 1];
    r[i] = v;
  }
}

/* One reference solution: dgtsv + two steps of refinement.  Returns 0 when
 * dgtsv failed (singular to working precision). */
static int reference(int64_t n, const double *a, const double *b, const double *c, const double *d,
                     double *x, double *w, long double *r) {
  double *dl = w, *dd = w + n, *du = w + 2 * n, *rhs = w + 3 * n;
  const int ni = (int)n, one = 1;
  int info = 0;
  for (int step = 0; step < 3; ++step) {
    for (int64_t i = 0; i < n; ++i) {
      dd[i] = b[i];
      if (i + 1 < n) {
        dl[i] = a[i + 1];
        du[i] = c[i];
      }
    }
    if (step == 0) {
      memcpy(rhs, d, (size_t)n * sizeof *rhs);
    } else {
      residual(n, a, b, c, d, x, r);
      for (int64_t i = 0; i < n; ++i) rhs[i] = (double)r[i];
    }
    dgtsv_(&ni, &one, dl, dd, du, rhs, &ni, &info);
    if (info != 0) return 0;
    for (int64_t i = 0; i < n; ++i) x[i] = step == 0 ? rhs[i] : x[i] + rhs[i];
  }
  return 1;
}

void acc_reference(int64_t n, int64_t batch, const double *a, const double *b, const double *c,
                   const double *d, double *xref, int *refok, const acc_scratch *S) {
#pragma omp parallel for schedule(dynamic, 1) if (n * batch >= PAR_MIN)
  for (int64_t s = 0; s < batch; ++s) {
    const int64_t o = s * n;
    refok[s] = reference(n, a + o, b + o, c + o, d + o, xref + o, thread_w(S), thread_r(S));
  }
}

void acc_lapack(tridi_dtype dt, int64_t n, int64_t batch, const double *a, const double *b,
                const double *c, const double *d, double *x, int32_t *info, const acc_scratch *S) {
  const int ni = (int)n, one = 1;
#pragma omp parallel for schedule(dynamic, 1) if (n * batch >= PAR_MIN)
  for (int64_t s = 0; s < batch; ++s) {
    const int64_t o = s * n;
    int li = 0;
    if (dt == TRIDI_F32) {
      float *fw = thread_fw(S);
      float *dl = fw, *dd = fw + n, *du = fw + 2 * n, *rhs = fw + 3 * n;
      for (int64_t i = 0; i < n; ++i) {
        dd[i] = (float)b[o + i];
        rhs[i] = (float)d[o + i];
        if (i + 1 < n) {
          dl[i] = (float)a[o + i + 1];
          du[i] = (float)c[o + i];
        }
      }
      sgtsv_(&ni, &one, dl, dd, du, rhs, &ni, &li);
      for (int64_t i = 0; i < n; ++i) x[o + i] = rhs[i];
    } else {
      double *w = thread_w(S);
      double *dl = w, *dd = w + n, *du = w + 2 * n;
      for (int64_t i = 0; i < n; ++i) {
        dd[i] = b[o + i];
        x[o + i] = d[o + i];
        if (i + 1 < n) {
          dl[i] = a[o + i + 1];
          du[i] = c[o + i];
        }
      }
      dgtsv_(&ni, &one, dl, dd, du, x + o, &ni, &li);
    }
    info[s] = li; /* > 0: exactly singular U(li,li) */
  }
}

static int cmp_double(const void *p, const void *q) {
  const double u = *(const double *)p, v = *(const double *)q;
  return (u > v) - (u < v);
}

void acc_judge(int64_t n, int64_t batch, const double *a, const double *b, const double *c,
               const double *d, const double *x, const double *xref, const int32_t *info,
               const int *refok, double bound, double *res, double *fe, const acc_scratch *S,
               acc_stats *st) {
  /* each system's residual and forward error into res[s], fe[s] */
#pragma omp parallel for schedule(dynamic, 1) if (n * batch >= PAR_MIN)
  for (int64_t s = 0; s < batch; ++s) {
    if (info[s] != 0) continue;
    const int64_t o = s * n;
    long double *r = thread_r(S);
    residual(n, a + o, b + o, c + o, d + o, x + o, r);
    long double nr = 0, na = 0, nx = 0, nd = 0, ne = 0, ns = 0;
    for (int64_t i = 0; i < n; ++i) {
      const long double ra = fabsl((long double)a[o + i]) + fabsl((long double)b[o + i]) +
                             fabsl((long double)c[o + i]);
      nr = fmaxl(nr, fabsl(r[i]));
      na = fmaxl(na, ra);
      nx = fmaxl(nx, fabsl((long double)x[o + i]));
      nd = fmaxl(nd, fabsl((long double)d[o + i]));
      if (refok[s]) {
        ne = fmaxl(ne, fabsl((long double)x[o + i] - xref[o + i]));
        ns = fmaxl(ns, fabsl((long double)xref[o + i]));
      }
      if (!isfinite(x[o + i])) nr = ne = INFINITY;
    }
    res[s] = nr == 0 ? 0.0 : (double)(nr / (na * nx + nd));
    fe[s] = (double)(ne / (ns > 0 ? ns : 1));
  }
  /* the counts in order; the judged systems' values moved to the front */
  int64_t k = 0;
  st->failed = st->flagged = st->over = 0;
  st->first_info = 0;
  st->over_max = 0;
  for (int64_t s = 0; s < batch; ++s) {
    st->flagged += info[s] == TRIDI_INFO_INACCURATE;
    if (info[s] != 0) {
      if (!st->failed++) st->first_info = info[s];
      continue;
    }
    if (!(res[s] <= bound)) { /* NaN too */
      ++st->over;
      if (!(res[s] <= st->over_max)) st->over_max = res[s];
    }
    if (!refok[s]) continue;
    res[k] = res[s];
    fe[k] = fe[s];
    ++k;
  }
  if (k == 0) {
    st->res_med = st->res_max = st->fe_med = st->fe_max = NAN;
    return;
  }
  qsort(res, (size_t)k, sizeof *res, cmp_double);
  qsort(fe, (size_t)k, sizeof *fe, cmp_double);
  st->res_med = res[k / 2];
  st->res_max = res[k - 1];
  st->fe_med = fe[k / 2];
  st->fe_max = fe[k - 1];
}

static int64_t lay_index(int lay, int64_t n, int64_t batch, int64_t s, int64_t i) {
  return lay == ACC_LAY_INTER ? i * batch + s : s * n + i;
}

void acc_put_op(tridi_dtype dt, int lay, int64_t n, int64_t batch, const double *v, void *dst) {
#pragma omp parallel for schedule(static) if (n * batch >= PAR_MIN)
  for (int64_t s = 0; s < batch; ++s)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = lay_index(lay, n, batch, s, i);
      if (dt == TRIDI_F32)
        ((float *)dst)[j] = (float)v[s * n + i];
      else
        ((double *)dst)[j] = v[s * n + i];
    }
}

void acc_get_op(tridi_dtype dt, int lay, int64_t n, int64_t batch, const void *src, double *v) {
#pragma omp parallel for schedule(static) if (n * batch >= PAR_MIN)
  for (int64_t s = 0; s < batch; ++s)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = lay_index(lay, n, batch, s, i);
      v[s * n + i] = dt == TRIDI_F32 ? (double)((const float *)src)[j] : ((const double *)src)[j];
    }
}
