/* The checks of a solve, on any kind's system set: see tt_problem.h. */
#include "tt_problem.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_buf(const tt_problem *P, int op) { return !(op == TT_X && P->inplace); }

static double dtype_eps(const tt_problem *P) { return P->es == 4 ? FLT_EPSILON : DBL_EPSILON; }

/* first element j at which buffer B differs from its original copy */
static int64_t first_change(const tt_buf *B, size_t es) {
  int64_t j = 0;
  while (j < B->len && memcmp(B->mem + j * (int64_t)es, B->orig + j * (int64_t)es, es) == 0) ++j;
  return j;
}

long tt_problem_check_untouched(const tt_problem *P, const char *ctx) {
  const long before = tt_failures();
  for (int op = 0; op < TT_NOPS; ++op) {
    if (!has_buf(P, op)) continue;
    const tt_buf *B = &P->buf[op];
    if (memcmp(B->mem, B->orig, (size_t)B->len * P->es) != 0)
      tt_fail("%s: buffer of %c was modified by a call that must write nothing (first at element "
              "%" PRId64 " of %" PRId64 ")",
              ctx, tt_op_names[op], first_change(B, P->es) - B->base, B->len);
  }
  return tt_failures() - before;
}

/* x: every element outside the described ones bit-for-bit untouched, every
 * described element of a solved system written */
static void check_x_elements(const tt_problem *P, const char *ctx) {
  const size_t es = P->es;
  const tt_buf *X = tt_xbuf(P);
  /* x of a failed system is unspecified: mark its elements (a system
   * flagged TRIDI_INFO_INACCURATE has its x written) */
  unsigned char *failed = NULL;
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int32_t w = tt_problem_want_info(P, s);
    if (!w || w == TRIDI_INFO_INACCURATE || P->sys[s].n == 0) continue;
    if (!failed) failed = calloc((size_t)X->len, 1);
    if (!failed) break;
    for (int64_t i = 0; i < P->sys[s].n; ++i) failed[tt_elem_index(P, TT_X, s, i)] = 1;
  }
  int64_t touched = 0, unwritten = 0, first_t = -1, first_u = -1;
  for (int64_t j = 0; j < X->len; ++j) {
    const unsigned char *m = X->mem + j * (int64_t)es;
    if (!(X->use[j] & TT_USED)) {
      if (memcmp(m, X->orig + j * (int64_t)es, es) != 0) {
        if (!touched++) first_t = j;
      }
    } else if (!P->inplace && tt_is_poison(m, es) && !(failed && failed[j])) {
      if (!unwritten++) first_u = j;
    }
  }
  free(failed);
  if (touched)
    tt_fail("%s: %" PRId64 " element(s) of the x allocation outside the described elements were "
            "written (first at offset %" PRId64 " from the base)",
            ctx, touched, first_t - X->base);
  if (unwritten)
    tt_fail("%s: %" PRId64 " described element(s) of x were not written (first at offset %" PRId64
            " from the base)",
            ctx, unwritten, first_u - X->base);
}

#define TT_MAX(m, v) ((v) > (m) ? (v) : (m))

/* Per system: relative residual against the original inputs (long double),
 * distance to the reference solver and to LAPACK.  Blocks of systems, rows
 * outer: memory order for interleaved and contiguous layouts alike. */
static void check_systems(const tt_problem *P, const char *ctx) {
  const size_t es = P->es;
  const double eps = dtype_eps(P);
  const void *xb = tt_ptr(P, TT_X);
  const unsigned char *mo[4];
  for (int op = 0; op < 4; ++op) mo[op] = P->buf[op].orig + P->buf[op].base * (int64_t)es;
  int64_t bad = 0;
  enum { BLK = 64 };
  long double nr[BLK], na[BLK], nx[BLK], nd[BLK];
  double dref[BLK], nref[BLK], dlap[BLK], nlap[BLK];
  int nan_seen[BLK];
  /* per system of the block: length (0: skipped), element offsets, oracles */
  int64_t nq[BLK], oq[BLK][TT_NOPS], iq[BLK][TT_NOPS];
  const double *xrq[BLK], *xlq[BLK];
  for (int64_t s0 = 0; s0 < P->nsys; s0 += BLK) {
    const int nb = (int)(P->nsys - s0 < BLK ? P->nsys - s0 : BLK);
    int64_t nmax = 0;
    for (int q = 0; q < nb; ++q) {
      const int64_t s = s0 + q;
      nr[q] = na[q] = nx[q] = nd[q] = 0;
      dref[q] = nref[q] = dlap[q] = nlap[q] = 0;
      nan_seen[q] = 0;
      nq[q] = tt_problem_want_info(P, s) ? 0 : P->sys[s].n;
      memcpy(oq[q], P->sys[s].off, sizeof oq[q]);
      memcpy(iq[q], P->sys[s].inc, sizeof iq[q]);
      xrq[q] = (tt_problem_pivoted(P, s) ? P->xpiv : P->xref) + P->row0[s];
      xlq[q] = P->lap_info[s] ? NULL : P->xlap + P->row0[s];
      if (nq[q] > nmax) nmax = nq[q];
    }
    for (int64_t i = 0; i < nmax; ++i) {
      for (int q = 0; q < nb; ++q) {
        const int64_t n = nq[q];
        if (i >= n) continue;
        const int64_t *o = oq[q], *inc = iq[q];
        const double xd = tt_load(xb, es, o[TT_X] + i * inc[TT_X]);
        const long double xi = xd;
        const long double bi = tt_load(mo[TT_B], es, o[TT_B] + i * inc[TT_B]);
        const long double di = tt_load(mo[TT_D], es, o[TT_D] + i * inc[TT_D]);
        long double r = bi * xi - di, ra = bi < 0 ? -bi : bi;
        if (i > 0) {
          const long double ai = tt_load(mo[TT_A], es, o[TT_A] + i * inc[TT_A]);
          r += ai * (long double)tt_load(xb, es, o[TT_X] + (i - 1) * inc[TT_X]);
          ra += ai < 0 ? -ai : ai;
        }
        if (i < n - 1) {
          const long double ci = tt_load(mo[TT_C], es, o[TT_C] + i * inc[TT_C]);
          r += ci * (long double)tt_load(xb, es, o[TT_X] + (i + 1) * inc[TT_X]);
          ra += ci < 0 ? -ci : ci;
        }
        if (r < 0) r = -r;
        nr[q] = TT_MAX(nr[q], r);
        na[q] = TT_MAX(na[q], ra);
        nx[q] = TT_MAX(nx[q], (xi < 0 ? -xi : xi));
        nd[q] = TT_MAX(nd[q], (di < 0 ? -di : di));
        nan_seen[q] |= !isfinite(xd);
        const double xr = xrq[q][i];
        dref[q] = TT_MAX(dref[q], fabs(xd - xr));
        nref[q] = TT_MAX(nref[q], fabs(xr));
        if (xlq[q]) {
          const double xl = xlq[q][i];
          dlap[q] = TT_MAX(dlap[q], fabs(xd - xl));
          nlap[q] = TT_MAX(nlap[q], fabs(xl));
        }
      }
    }
    for (int q = 0; q < nb; ++q) {
      const int64_t s = s0 + q;
      const int64_t n = P->sys[s].n;
      if (n == 0 || tt_problem_want_info(P, s)) continue;
      const double rtol = TT_RESID_C * (double)n * eps, ctol = P->close_c * (double)n * eps;
      if (nan_seen[q]) nr[q] = dref[q] = dlap[q] = INFINITY;
      const double rel = (double)(nr[q] / (na[q] * nx[q] + nd[q]));
      const double relref = dref[q] / (nref[q] > 0 ? nref[q] : 1.0);
      const double rellap = dlap[q] / (nlap[q] > 0 ? nlap[q] : 1.0);
      const int close = isinf(ctol) ? !nan_seen[q] : relref <= ctol && rellap <= ctol;
      const int ok = rel <= rtol && close;
      if (ok) {
        tt_note_margin(0, rel / rtol);
        if (!isinf(ctol)) {
          tt_note_margin(1, relref / ctol);
          tt_note_margin(2, rellap / ctol);
        }
      } else {
        if (bad < 3)
          tt_fail("%s: system %" PRId64 " (n = %" PRId64 "): relative residual %.3g (bound %.3g), "
                  "difference to the reference solver %.3g, to LAPACK %.3g (bound %.3g); x[0] = "
                  "%.9g, reference %.9g",
                  ctx, s, n, rel, rtol, relref, rellap, ctol,
                  tt_load(xb, es, P->sys[s].off[TT_X]), xrq[q][0]);
        ++bad;
      }
    }
  }
  if (bad > 3) tt_fail("%s: %" PRId64 " of %" PRId64 " systems wrong in all", ctx, bad, P->nsys);
}

static void check_info(const tt_problem *P, const char *ctx, const int32_t *info) {
  int64_t bad = 0;
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int64_t n = P->sys[s].n;
    const int32_t want = tt_problem_want_info(P, s);
    const int any_ok = P->info_any_row && P->info_any_row[s] && info[s] < 0 && info[s] >= -n;
    if (info[s] != want && !any_ok) {
      if (bad < 3) tt_fail("%s: info[%" PRId64 "] = %" PRId32 ", expected %" PRId32, ctx, s, info[s], want);
      ++bad;
    }
  }
  if (bad > 3) tt_fail("%s: %" PRId64 " info values wrong in all", ctx, bad);
}

long tt_problem_check(const tt_problem *P, const char *ctx, const int32_t *info) {
  const long before = tt_failures();
  /* inputs bit-for-bit unchanged */
  for (int op = 0; op < 4; ++op) {
    if (op == TT_D && P->inplace) continue;
    const tt_buf *B = &P->buf[op];
    if (memcmp(B->mem, B->orig, (size_t)B->len * P->es) != 0)
      tt_fail("%s: input %c was modified (first at element %" PRId64 " from the base)", ctx,
              tt_op_names[op], first_change(B, P->es) - B->base);
  }
  check_x_elements(P, ctx);
  if (P->rows > 0) check_systems(P, ctx);
  if (info) check_info(P, ctx, info);
  return tt_failures() - before;
}
