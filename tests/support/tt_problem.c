/* Kind-generic test problems: construction, generators, oracle.  The checks
 * are in tt_check.c.  See tt_problem.h. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include "tt_problem.h"

#include "ref_pivot.h" /* the pivoting oracle */

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_buf(const tt_problem *P, int op) { return !(op == TT_X && P->inplace); }

void *tt_ptr(const tt_problem *P, int op) {
  if (op == TT_X && P->inplace) op = TT_D;
  const tt_buf *B = &P->buf[op];
  return B->mem + B->base * (int64_t)P->es;
}

const tt_buf *tt_xbuf(const tt_problem *P) { return P->inplace ? &P->buf[TT_D] : &P->buf[TT_X]; }

int64_t tt_elem_index(const tt_problem *P, int op, int64_t s, int64_t i) {
  const tt_sys *S = &P->sys[s];
  const int64_t e = S->off[op] + i * S->inc[op];
  if (op == TT_X && P->inplace) op = TT_D;
  return P->buf[op].base + e;
}

const char *tt_problem_str(const tt_problem *P, char *buf, size_t len) {
  if (P->kind && P->kind->describe) return P->kind->describe(P, buf, len);
  snprintf(buf, len, "%s %s%s", P->name, tridi_dtype_name(P->dtype), P->inplace ? " in-place" : "");
  return buf;
}

int tt_problem_init_sys(tt_problem *P, const tt_problem_spec *spec, uint64_t seed,
                        const tt_guards *g) {
  memset(P, 0, sizeof *P);
  snprintf(P->name, sizeof P->name, "%s", spec->name ? spec->name : "");
  P->kind = spec->kind;
  P->kind_data = spec->kind_data;
  P->dtype = spec->dtype;
  P->es = tridi_dtype_size(spec->dtype);
  P->inplace = spec->inplace;
  P->nsys = spec->nsys;
  P->seed = seed;
  P->close_c = TT_CLOSE_C;
  const int64_t nsys = spec->nsys;
  P->sys = malloc((size_t)(nsys > 0 ? nsys : 1) * sizeof *P->sys);
  P->row0 = malloc((size_t)(nsys + 1) * sizeof *P->row0);
  if (!P->sys || !P->row0) {
    tt_fail("%s: out of memory (%" PRId64 " systems)", P->name, nsys);
    tt_problem_free(P);
    return -1;
  }
  P->row0[0] = 0;
  for (int64_t s = 0; s < nsys; ++s) {
    P->sys[s] = spec->sys[s];
    if (P->inplace) {
      P->sys[s].off[TT_X] = P->sys[s].off[TT_D];
      P->sys[s].inc[TT_X] = P->sys[s].inc[TT_D];
    }
    const int64_t n = P->sys[s].n;
    if (n > P->n) P->n = n;
    P->row0[s + 1] = P->row0[s] + n;
  }
  P->rows = P->row0[nsys];

  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    /* [lo, hi]: the used elements; [flo, fhi]: the ignored a[0], c[n-1] too.
     * The allocation covers the used ones only, so that an ignored element
     * beyond them (a[0] of the lowest system, c[n-1] of the highest: LAPACK's
     * n-1-long dl and du described with base dl - 1) is outside it and a
     * kernel that reads it is an ASan error (tridi.h: never read). */
    int64_t lo = 0, hi = 0, flo = 0, fhi = 0;
    int any = 0, fany = 0;
    for (int64_t s = 0; s < nsys; ++s) {
      const tt_sys *S = &P->sys[s];
      if (S->n <= 0) continue;
      for (int full = 0; full < 2; ++full) {
        int64_t r0 = 0, r1 = S->n - 1; /* rows of the range */
        if (!full && op == TT_A) r0 = 1;
        if (!full && op == TT_C) r1 = S->n - 2;
        if (r0 > r1) continue;
        const int64_t first = S->off[op] + r0 * S->inc[op], last = S->off[op] + r1 * S->inc[op];
        const int64_t l = first < last ? first : last, h = first < last ? last : first;
        int64_t *plo = full ? &flo : &lo, *phi = full ? &fhi : &hi;
        int *pany = full ? &fany : &any;
        if (!*pany || l < *plo) *plo = l;
        if (!*pany || h > *phi) *phi = h;
        *pany = 1;
      }
    }
    if (!any && fany) lo = hi = fhi + 1; /* only ignored elements: one element above them */
    if (!fany) flo = fhi = lo;
    int64_t lead, tail;
    if (g) {
      lead = g->lead[op];
      tail = g->tail[op];
    } else if (op == TT_X || (op == TT_D && P->inplace)) {
      lead = 3;
      tail = 5;
    } else if (flo < lo) {
      lead = 0; /* ignored elements below the used ones stay outside */
      tail = 0;
    } else {
      lead = (int64_t)((seed + (uint64_t)op) % 4);
      tail = 0;
    }
    tt_buf *B = &P->buf[op];
    B->len = lead + (hi - lo + 1) + tail;
    B->base = lead - lo;
    B->out_lo = lo - flo > lead ? lo - flo - lead : 0;
    B->out_hi = fhi - hi > tail ? fhi - hi - tail : 0;
    const size_t bytes = (size_t)B->len * P->es;
    /* 64-byte aligned allocation of exactly `bytes` (ASan sees overruns), so
     * that the guards alone set the base pointer's alignment */
    void *mem = NULL;
    B->mem = posix_memalign(&mem, 64, bytes) == 0 ? mem : NULL;
    B->orig = malloc(bytes);
    B->use = calloc((size_t)B->len, 1);
    if (!B->mem || !B->orig || !B->use) {
      tt_fail("%s: out of memory (%zu bytes)", P->name, bytes);
      tt_problem_free(P);
      return -1;
    }
  }
  /* use masks */
  for (int64_t s = 0; s < nsys; ++s) {
    const int64_t n = P->sys[s].n;
    for (int op = 0; op < TT_NOPS; ++op) {
      if (!has_buf(P, op)) continue;
      tt_buf *B = &P->buf[op];
      for (int64_t i = 0; i < n; ++i) {
        int bit = TT_USED;
        if ((op == TT_A && i == 0) || (op == TT_C && i == n - 1)) bit = TT_IGNORED;
        const int64_t j = tt_elem_index(P, op, s, i);
        if (j >= 0 && j < B->len) B->use[j] |= (unsigned char)bit; /* else ignored, outside */
      }
    }
  }
  const size_t cells = (size_t)(P->rows > 0 ? P->rows : 1);
  P->xref = malloc(cells * sizeof *P->xref);
  P->xlap = malloc(cells * sizeof *P->xlap);
  P->xpiv = malloc(cells * sizeof *P->xpiv);
  P->ref_info = calloc((size_t)(nsys > 0 ? nsys : 1), sizeof *P->ref_info);
  P->lap_info = calloc((size_t)(nsys > 0 ? nsys : 1), sizeof *P->lap_info);
  P->piv_info = calloc((size_t)(nsys > 0 ? nsys : 1), sizeof *P->piv_info);
  P->pivot = TRIDI_PIVOT_NONE;
  if (!P->xref || !P->xlap || !P->xpiv || !P->ref_info || !P->lap_info || !P->piv_info) {
    tt_fail("%s: out of memory (oracle)", P->name);
    tt_problem_free(P);
    return -1;
  }
  tt_problem_fill_dominant(P, seed);
  return 0;
}

void tt_problem_free(tt_problem *P) {
  for (int op = 0; op < TT_NOPS; ++op) {
    free(P->buf[op].mem);
    free(P->buf[op].orig);
    free(P->buf[op].use);
  }
  free(P->sys);
  free(P->row0);
  free(P->xref);
  free(P->xlap);
  free(P->xpiv);
  free(P->ref_info);
  free(P->lap_info);
  free(P->piv_info);
  if (P->kind && P->kind->free_data) P->kind->free_data(P->kind_data);
  else free(P->kind_data);
  memset(P, 0, sizeof *P);
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int tt_problem_injective(const tt_problem *P, int op) {
  if (P->rows == 0) return 1;
  int64_t *v = malloc((size_t)P->rows * sizeof *v);
  if (!v) return 0;
  for (int64_t s = 0; s < P->nsys; ++s)
    for (int64_t i = 0; i < P->sys[s].n; ++i) v[P->row0[s] + i] = tt_elem_index(P, op, s, i);
  qsort(v, (size_t)P->rows, sizeof *v, cmp_i64);
  int ok = 1;
  for (int64_t j = 1; j < P->rows && ok; ++j) ok = v[j] != v[j - 1];
  free(v);
  return ok;
}

/* ---- element access ------------------------------------------------------------ */

int tt_problem_present(const tt_problem *P, int op, int64_t s, int64_t i) {
  const int64_t j = tt_elem_index(P, op, s, i);
  return j >= 0 && j < P->buf[op == TT_X && P->inplace ? TT_D : op].len;
}

void tt_problem_set(tt_problem *P, int op, int64_t s, int64_t i, double v) {
  const int64_t j = tt_elem_index(P, op, s, i);
  if (!tt_problem_present(P, op, s, i)) {
    /* only an ignored a[0] / c[n-1] lies outside the allocation: nothing to set */
    if (!((op == TT_A && i == 0) || (op == TT_C && i == P->sys[s].n - 1)))
      tt_fail("%s: tt_problem_set of element (%" PRId64 ", %" PRId64 ") of operand %d outside "
              "its buffer", P->name, s, i, op);
    return;
  }
  tt_store(P->buf[op].mem, P->es, j, v);
  tt_store(P->buf[op].orig, P->es, j, v);
}

double tt_problem_get_orig(const tt_problem *P, int op, int64_t s, int64_t i) {
  if (!tt_problem_present(P, op, s, i)) return NAN; /* an ignored element outside the buffer */
  return tt_load(P->buf[op].orig, P->es, tt_elem_index(P, op, s, i));
}

double tt_problem_get_x(const tt_problem *P, int64_t s, int64_t i) {
  return tt_load(tt_xbuf(P)->mem, P->es, tt_elem_index(P, TT_X, s, i));
}

double tt_problem_xref(const tt_problem *P, int64_t s, int64_t i) { return P->xref[P->row0[s] + i]; }
double tt_problem_xlap(const tt_problem *P, int64_t s, int64_t i) { return P->xlap[P->row0[s] + i]; }

double tt_problem_residual(const tt_problem *P, int64_t s) {
  const int64_t n = P->sys[s].n;
  double nr = 0, na = 0, nx = 0, nd = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double xi = tt_problem_get_x(P, s, i), bi = tt_problem_get_orig(P, TT_B, s, i);
    const double di = tt_problem_get_orig(P, TT_D, s, i);
    if (!isfinite(xi)) return INFINITY;
    long double r = (long double)bi * xi - di;
    double ra = fabs(bi);
    if (i > 0) {
      const double ai = tt_problem_get_orig(P, TT_A, s, i);
      r += (long double)ai * tt_problem_get_x(P, s, i - 1);
      ra += fabs(ai);
    }
    if (i < n - 1) {
      const double ci = tt_problem_get_orig(P, TT_C, s, i);
      r += (long double)ci * tt_problem_get_x(P, s, i + 1);
      ra += fabs(ci);
    }
    nr = fmax(nr, fabs((double)r));
    na = fmax(na, ra);
    nx = fmax(nx, fabs(xi));
    nd = fmax(nd, fabs(di));
  }
  return nr / (na * nx + nd);
}

/* ---- generators --------------------------------------------------------------- */

void tt_problem_fill_dominant(tt_problem *P, uint64_t seed) {
  tt_rng rng;
  tt_rng_init(&rng, seed);
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    tt_buf *B = &P->buf[op];
    if (op == TT_X) {
      tt_poison(B->mem, P->es, B->len);
    } else {
      for (int64_t j = 0; j < B->len; ++j) {
        double v = NAN;
        if (B->use[j] & TT_USED) {
          if (op == TT_B) {
            v = tt_rng_uniform(&rng, 3.0, 5.0);
            if (tt_rng_u64(&rng) & 1) v = -v;
          } else {
            v = tt_rng_uniform(&rng, -1.0, 1.0);
          }
        }
        tt_store(B->mem, P->es, j, v);
      }
    }
    memcpy(B->orig, B->mem, (size_t)B->len * P->es);
  }
  P->close_c = TT_CLOSE_C;
  tt_problem_oracle(P);
}

/* +-k/1024 with k in [256, 1023]: sums of two are exact in f32 and f64 */
static double signed_grid(tt_rng *r) {
  const double v = (double)tt_rng_int(r, 256, 1023) / 1024.0;
  return (tt_rng_u64(r) & 1) ? -v : v;
}

void tt_problem_fill_weak(tt_problem *P, uint64_t seed) {
  tt_rng r;
  tt_rng_init(&r, seed ^ UINT64_C(0x3eac));
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int64_t n = P->sys[s].n;
    for (int64_t i = 0; i < n; ++i) {
      double mag = i == 0 ? 0.5 : 0.0; /* strictly dominant in row 0 only */
      if (i > 0) {
        const double a = signed_grid(&r);
        tt_problem_set(P, TT_A, s, i, a);
        mag += fabs(a);
      }
      if (i < n - 1) {
        const double c = signed_grid(&r);
        tt_problem_set(P, TT_C, s, i, c);
        mag += fabs(c);
      }
      tt_problem_set(P, TT_B, s, i, (tt_rng_u64(&r) & 1) ? -mag : mag);
      tt_problem_set(P, TT_D, s, i, tt_rng_uniform(&r, -1, 1));
    }
  }
  P->close_c = INFINITY;
  tt_problem_oracle(P);
}

void tt_problem_fill_laplacian(tt_problem *P, uint64_t seed) {
  tt_rng r;
  tt_rng_init(&r, seed ^ UINT64_C(0x1a9));
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int64_t n = P->sys[s].n;
    const double nn = (double)n * (double)n;
    for (int64_t i = 0; i < n; ++i) {
      double v = tt_rng_uniform(&r, 1.0, 2.0);
      if (tt_rng_u64(&r) & 1) v = -v;
      if (i > 0) tt_problem_set(P, TT_A, s, i, -v * (1 - tt_rng_uniform(&r, 0, 1) / nn));
      tt_problem_set(P, TT_B, s, i, v * (2 + (1 + tt_rng_uniform(&r, 0, 1)) / nn));
      if (i < n - 1) tt_problem_set(P, TT_C, s, i, -v * (1 - tt_rng_uniform(&r, 0, 1) / nn));
      tt_problem_set(P, TT_D, s, i, tt_rng_uniform(&r, -1, 1));
    }
  }
  tt_problem_oracle(P);
}

int32_t tt_problem_zero_pivot(tt_problem *P, int64_t s, int64_t k) {
  const int64_t n = s < P->nsys ? P->sys[s].n : 0;
  if (k < 0 || k >= n) return 0;
  if (k == 0) {
    tt_problem_set(P, TT_B, s, 0, 0.0);
    if (n > 1) tt_problem_set(P, TT_C, s, 0, 0.75);
    return 1;
  }
  tt_problem_set(P, TT_A, s, k - 1, k - 1 > 0 ? 0.0 : NAN); /* m_{k-1} = b_{k-1} = 2 */
  tt_problem_set(P, TT_B, s, k - 1, 2.0);
  tt_problem_set(P, TT_C, s, k - 1, 1.0); /* c'_{k-1} = 0.5 */
  tt_problem_set(P, TT_A, s, k, 2.0);
  tt_problem_set(P, TT_B, s, k, 1.0); /* m_k = 1 - 2 * 0.5 = 0 */
  return (int32_t)(k + 1);
}

int32_t tt_problem_nonfinite(tt_problem *P, int64_t s, int op, int64_t k, double v) {
  const int64_t n = s < P->nsys ? P->sys[s].n : 0;
  if (k < 0 || k >= n || op < TT_A || op > TT_D) return 0;
  if ((op == TT_A && k == 0) || (op == TT_C && k == n - 1)) return 0;
  tt_problem_set(P, op, s, k, v);
  return (int32_t)-(k + 1);
}

/* ---- oracle ----------------------------------------------------------------- */

/* Gather system s of the original inputs into contiguous arrays of the
 * problem's type (4 arrays of n_s elements in `t`, in order a, b, c, d). */
static void gather(const tt_problem *P, int64_t s, void *t) {
  const int64_t n = P->sys[s].n;
  for (int op = 0; op < 4; ++op)
    for (int64_t i = 0; i < n; ++i) {
      char *dst = (char *)t + (size_t)(op * n + i) * P->es;
      if (tt_problem_present(P, op, s, i))
        memcpy(dst, P->buf[op].orig + tt_elem_index(P, op, s, i) * (int64_t)P->es, P->es);
      else
        tt_store(dst, P->es, 0, NAN); /* ignored a[0] / c[n-1] outside the buffer */
    }
}

void tt_problem_oracle(tt_problem *P) {
  const int64_t nmax = P->n;
  if (nmax == 0 || P->nsys == 0) return;
  const size_t es = P->es;
  char *t = malloc((size_t)(4 * nmax) * es); /* a, b, c, d */
  char *w = malloc((size_t)(3 * nmax) * es); /* scratch (the pivoting solver's 3n) */
  char *x = malloc((size_t)nmax * es);
  char *dl = malloc((size_t)(nmax + 1) * es), *dd = malloc((size_t)nmax * es);
  char *du = malloc((size_t)(nmax + 1) * es), *rhs = malloc((size_t)nmax * es);
  if (!t || !w || !x || !dl || !dd || !du || !rhs) {
    tt_fail("%s: out of memory (oracle)", P->name);
  } else {
    for (int64_t s = 0; s < P->nsys; ++s) {
      const int64_t n = P->sys[s].n;
      double *xr = P->xref + P->row0[s], *xl = P->xlap + P->row0[s], *xp = P->xpiv + P->row0[s];
      P->ref_info[s] = P->lap_info[s] = P->piv_info[s] = 0;
      if (n == 0) continue;
      gather(P, s, t);
      int32_t code;
      if (es == 4) {
        const float *f = (const float *)t;
        code = tridi_ref_thomas_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, (float *)x, 1,
                                    (float *)w);
      } else {
        const double *f = (const double *)t;
        code = tridi_ref_thomas_f64(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, (double *)x, 1,
                                    (double *)w);
      }
      P->ref_info[s] = code;
      /* a flagged system's x is written (and kept: tests compare it) */
      for (int64_t i = 0; i < n; ++i)
        xr[i] = code && code != TRIDI_INFO_INACCURATE ? NAN : tt_load(x, es, i);
      if (es == 4) {
        const float *f = (const float *)t;
        code = tridi_ref_pivot_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, (float *)x, 1,
                                   (float *)w);
      } else {
        const double *f = (const double *)t;
        code = tridi_ref_pivot_f64(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, (double *)x, 1,
                                   (double *)w);
      }
      P->piv_info[s] = code;
      for (int64_t i = 0; i < n; ++i) xp[i] = code ? NAN : tt_load(x, es, i);
      /* LAPACK ?gtsv: dl = a[1..n-1], d = b, du = c[0..n-2], b = d */
      memcpy(dl, t + (size_t)1 * es, (size_t)(n - 1) * es);
      memcpy(dd, t + (size_t)n * es, (size_t)n * es);
      memcpy(du, t + (size_t)(2 * n) * es, (size_t)(n - 1) * es);
      memcpy(rhs, t + (size_t)(3 * n) * es, (size_t)n * es);
      const int ni = (int)n, one = 1;
      int info = 0;
      if (es == 4) sgtsv_(&ni, &one, (float *)dl, (float *)dd, (float *)du, (float *)rhs, &ni, &info);
      else dgtsv_(&ni, &one, (double *)dl, (double *)dd, (double *)du, (double *)rhs, &ni, &info);
      P->lap_info[s] = info;
      for (int64_t i = 0; i < n; ++i) xl[i] = info ? NAN : tt_load(rhs, es, i);
    }
  }
  free(t);
  free(w);
  free(x);
  free(dl);
  free(dd);
  free(du);
  free(rhs);
}

void tt_problem_reset(tt_problem *P) {
  for (int op = 0; op < TT_NOPS; ++op)
    if (has_buf(P, op)) memcpy(P->buf[op].mem, P->buf[op].orig, (size_t)P->buf[op].len * P->es);
}

/* ---- solving ---------------------------------------------------------------- */

tridi_status tt_problem_plan(const tt_problem *P, const tridi_options *opts, tridi_plan *plan) {
  tridi_desc desc = NULL;
  *plan = NULL;
  tridi_status st = P->kind->make_desc(P, &desc);
  if (!st) st = tridi_plan_create(plan, desc, opts);
  /* the plan copies the descriptor: scribble on it and free it right away */
  if (desc && P->kind->scribble) P->kind->scribble(desc);
  tridi_desc_destroy(desc);
  return st;
}

tridi_status tt_problem_execute(const tt_problem *P, tridi_plan plan, int32_t *info) {
  return tridi_execute(plan, tt_ptr(P, TT_A), tt_ptr(P, TT_B), tt_ptr(P, TT_C), tt_ptr(P, TT_D),
                       tt_ptr(P, TT_X), info, NULL);
}

void tt_problem_use_plan(tt_problem *P, tridi_plan plan) {
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  if (tridi_plan_get_info(plan, &pi) != TRIDI_SUCCESS) {
    tt_fail("%s: tridi_plan_get_info failed: %s", P->name, tridi_last_error());
    return;
  }
  P->pivot = pi.pivot;
  P->assume_dominant = pi.assume_dominant;
}

int tt_problem_pivoted(const tt_problem *P, int64_t s) {
  if (P->pivot == TRIDI_PIVOT_PARTIAL) return 1;
  return P->pivot == TRIDI_PIVOT_AUTO && !P->assume_dominant && !P->inplace &&
         P->sys[s].n > 0 && P->ref_info[s] != 0;
}

int32_t tt_problem_want_info(const tt_problem *P, int64_t s) {
  if (P->sys[s].n == 0) return 0;
  if (tt_problem_pivoted(P, s)) return P->piv_info[s];
  const int32_t t = P->ref_info[s];
  return t == TRIDI_INFO_INACCURATE && (P->assume_dominant || P->pivot == TRIDI_PIVOT_PARTIAL)
             ? 0
             : t;
}

tridi_status tt_info_expected(const int32_t *info, int64_t nsys, int64_t *first) {
  *first = -1;
  for (int64_t s = 0; s < nsys; ++s)
    if (info[s] != 0) {
      *first = s;
      return tridi_info_status(info[s]);
    }
  return TRIDI_SUCCESS;
}

void tt_info_check_agrees(tridi_plan plan, const int32_t *info, int64_t nsys, tridi_status st,
                          const char *ctx) {
  int64_t want;
  (void)tt_info_expected(info, nsys, &want);
  int64_t first = -2;
  const tridi_status got = tridi_info_check(plan, info, NULL, &first);
  if (got != st || first != want)
    tt_fail("%s: tridi_info_check gave %s, first %" PRId64 "; the execute %s, first %" PRId64, ctx,
            tridi_status_name(got), first, tridi_status_name(st), want);
  if (got != TRIDI_SUCCESS && !strstr(tridi_last_error(), "tridi_info_check: system"))
    tt_fail("%s: tridi_info_check's message: '%s'", ctx, tridi_last_error());
}

long tt_problem_solve_check(tt_problem *P, tridi_plan plan, tt_info *I, tridi_status want,
                            const char *ctx) {
  tt_problem_use_plan(P, plan);
  tt_problem_reset(P);
  tt_info_poison(I);
  const tridi_status st = tt_problem_execute(P, plan, I->info);
  tt_expect_status(st, want, ctx);
  const long f = tt_problem_check(P, ctx, I->info);
  tt_info_guards_ok(I, ctx);
  if (st == TRIDI_SUCCESS || st == TRIDI_ERR_ZERO_PIVOT || st == TRIDI_ERR_NONFINITE ||
      st == TRIDI_ERR_INACCURATE)
    tt_info_check_agrees(plan, I->info, P->nsys, st, ctx);
  return f;
}

tridi_status tt_problem_expected_status(const tt_problem *P) {
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int32_t w = tt_problem_want_info(P, s);
    if (w) return tridi_info_status(w);
  }
  return TRIDI_SUCCESS;
}
