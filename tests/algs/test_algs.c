/* The parallel algorithms of paper 001 (CR, PCR, RD, CR+PCR,
 * CR+RD) on the REF and CPU backends, for every n, both element types,
 * contiguous, interleaved, randomly strided and in-place layouts.
 *
 * oracle_<layout>:
 *   - CR, PCR, CR+PCR on diagonally dominant systems: tt_problem_check (the
 *     full check of the suite: inputs unchanged, x padding untouched, x
 *     written, residual <= 8 n eps, within 16 n eps of the reference solver
 *     and LAPACK, info 0, status);
 *   - RD and CR+RD on diagonally dominant systems (where RD loses every
 *     digit for n beyond ~10 and overflows beyond ~80 in f32): never silent
 *     garbage: each system is either solved (info 0) with residual
 *     <= 8 n eps and within 80 n eps of LAPACK, or reported: info
 *     TRIDI_INFO_INACCURATE with x written and finite, or an overflow
 *     (-k, k in 1..n), or CR+RD's underflowed c (+k); the status is that of
 *     the lowest failing system;
 *   - every algorithm on a Laplacian-like SPD family on which RD's
 *     recurrence hardly grows (tt_problem_fill_laplacian): CR, PCR, CR+PCR
 *     solved with residual <= 8 n eps; RD, CR+RD solved with residual
 *     <= 8 n eps or reported TRIDI_INFO_INACCURATE (x written);
 *   - REF and CPU (3 threads) rows give bit-identical x and info.
 * rd_small: the cases where RD's old loss test let errors of 1e-10 (f64) and
 *   1e-2 (f32) through as solved: dominant n = 2, 3, 7; and the accuracy
 *   check's other side: systems RD solves well (n = 1, a neutral
 *   recurrence) are not reported.
 * breakdown: per algorithm, a batch with a NaN input, an exactly zero
 *   divisor and an overflow in chosen systems: info exactly as defined in
 *   src/ref/ref_algs.h on those systems (the row where the algorithm defines
 *   it; RD overflow: the kind only), 0 elsewhere, other systems solved, the
 *   status of the lowest failing system, with and without info.
 *
 * Run one group: test_algs <glob>, e.g. test_algs 'oracle_contiguous'. */
#include "ref_algs.h"
#include "tt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int64_t NS[] = {1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 511, 512, 513, 1000, 4097};
#define NNS ((int)(sizeof NS / sizeof NS[0]))

static const tridi_alg ALGS[] = {TRIDI_ALG_CR, TRIDI_ALG_PCR, TRIDI_ALG_RD, TRIDI_ALG_CR_PCR,
                                 TRIDI_ALG_CR_RD};
#define NALGS 5

static int is_rd(tridi_alg alg) { return alg == TRIDI_ALG_RD || alg == TRIDI_ALG_CR_RD; }

static tridi_status plan_for(const tt_problem *P, tridi_backend be, tridi_alg alg,
                             tridi_plan *plan) {
  tridi_options o;
  tridi_options_init(&o);
  o.backend = be;
  o.alg = alg;
  o.pivot = TRIDI_PIVOT_NONE; /* the algorithm alone: nothing solved again with pivoting */
  o.assume_dominant = tridi_alg_requires_dominance(alg);
  if (be == TRIDI_BACKEND_CPU) o.num_threads = 3;
  return tt_problem_plan(P, &o, plan);
}

/* Relative residual and distance to LAPACK of system s. */
static void sys_errors(const tt_problem *P, int64_t s, double *resid, double *dlap) {
  double dl = 0, nl = 0;
  for (int64_t i = 0; i < P->n; ++i) {
    const double xi = tt_problem_get_x(P, s, i), xl = P->xlap[s * P->n + i];
    dl = isfinite(xi) ? fmax(dl, fabs(xi - xl)) : INFINITY;
    nl = fmax(nl, fabs(xl));
  }
  *resid = tt_problem_residual(P, s);
  *dlap = dl / (nl > 0 ? nl : 1.0);
}

/* Largest |x_i| of system s if every x_i is finite, else -1. */
static double x_finite_max(const tt_problem *P, int64_t s) {
  double m = 0;
  for (int64_t i = 0; i < P->n; ++i) {
    const double v = tt_problem_get_x(P, s, i);
    if (!isfinite(v)) return -1;
    m = fmax(m, fabs(v));
  }
  return m;
}

/* Check one run of alg on P; mode 0: dominant, 1: Laplacian-like. */
static void check_run(const tt_problem *P, tridi_alg alg, int mode, tridi_status st,
                      const int32_t *info, const char *ctx) {
  const double eps = P->es == 4 ? FLT_EPSILON : DBL_EPSILON;
  const double n = (double)(P->n > 0 ? P->n : 1);
  if (mode == 0 && !is_rd(alg)) {
    tt_expect_status(st, TRIDI_SUCCESS, ctx);
    tt_problem_check(P, ctx, info);
    return;
  }
  /* what info 0 promises, RD included: backward stable (dominant: condition
   * numbers < 5, so the distance to LAPACK is judged too) */
  const double rtol = TT_RESID_C * n * eps;
  const double ctol = mode == 0 ? 10 * TT_RESID_C * n * eps : INFINITY;
  int64_t low = -1, bad = 0;
  for (int64_t s = 0; s < P->nsys; ++s) {
    if (info[s] == TRIDI_INFO_INACCURATE && is_rd(alg)) {
      /* RD's failed accuracy check: x is written, and finite */
      if (x_finite_max(P, s) < 0 && bad++ < 3)
        tt_fail("%s: system %" PRId64 ": info TRIDI_INFO_INACCURATE but x not finite", ctx, s);
      if (low < 0) low = s;
      continue;
    }
    if (info[s] != 0) {
      /* allowed on the dominant family: RD's products overflow (-k); CR+RD's
       * zero c after CR steps underflowed it (+k) */
      const int allowed = mode == 0 && is_rd(alg) &&
                          (info[s] < 0 || alg == TRIDI_ALG_CR_RD);
      if (!allowed || info[s] > P->n || info[s] < -P->n) {
        if (bad++ < 3)
          tt_fail("%s: system %" PRId64 ": info %" PRId32 " not allowed here", ctx, s, info[s]);
      }
      if (low < 0) low = s;
      continue;
    }
    double res, dl;
    sys_errors(P, s, &res, &dl);
    if (!(res <= rtol && dl <= ctol) && bad++ < 3)
      tt_fail("%s: system %" PRId64 " reported solved (info 0) but residual %.3g (bound %.3g), "
              "distance to LAPACK %.3g (bound %.3g)",
              ctx, s, res, rtol, dl, ctol);
  }
  const tridi_status want = low < 0 ? TRIDI_SUCCESS : tridi_info_status(info[low]);
  tt_expect_status(st, want, ctx);
  if (bad > 3) tt_fail("%s: %" PRId64 " systems wrong in all", ctx, bad);
}

static void run_oracle(const char *name, tt_builder build, int inplace) {
  uint64_t k = 0;
  tt_rng rng;
  for (int t = 0; t < 2; ++t) {
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    for (int in = 0; in < NNS; ++in) {
      const int64_t n = NS[in];
      const int64_t batch = n <= 65 ? 13 : 3;
      for (int mode = 0; mode < 2; ++mode) {
        const uint64_t seed = tt_case_seed(name, k++);
        tt_rng_init(&rng, seed);
        tt_layout L;
        if (!build(&L, dt, n, batch, &rng)) continue;
        L.inplace = inplace;
        if (inplace && !tt_layout_injective(&L, TT_D)) continue;
        tt_problem P;
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        if (mode) tt_problem_fill_laplacian(&P, seed);
        char lstr[400];
        tt_problem_str(&P, lstr, sizeof lstr);
        tt_info I, J;
        tt_info_alloc(&I, P.nsys);
        tt_info_alloc(&J, P.nsys);
        const tt_buf *X = &P.buf[inplace ? TT_D : TT_X];
        const size_t xbytes = (size_t)X->len * P.es;
        unsigned char *xref = malloc(xbytes ? xbytes : 1);
        for (int a = 0; a < NALGS; ++a) {
          for (int be = 0; be < 2; ++be) {
            const tridi_backend B = be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF;
            char ctx[600];
            snprintf(ctx, sizeof ctx, "[%s] [%s/%s] [%s]", lstr, tridi_backend_name(B),
                     tridi_alg_name(ALGS[a]),
                     mode == 0 ? "dominant" : "laplacian-like");
            tridi_plan plan = NULL;
            tridi_status st = plan_for(&P, B, ALGS[a], &plan);
            if (!tt_expect_status(st, TRIDI_SUCCESS, ctx)) continue;
            tridi_plan_info pi;
            memset(&pi, 0, sizeof pi);
            pi.struct_size = sizeof pi;
            if (tridi_plan_get_info(plan, &pi) == TRIDI_SUCCESS && (pi.alg != ALGS[a] || pi.backend != B))
              tt_fail("%s: plan runs %s/%s", ctx, tridi_backend_name(pi.backend), tridi_alg_name(pi.alg));
            tt_problem_reset(&P);
            tt_info *Iu = be ? &J : &I;
            tt_info_poison(Iu);
            st = tt_problem_execute(&P, plan, Iu->info);
            tt_info_guards_ok(Iu, ctx);
            check_run(&P, ALGS[a], mode, st, Iu->info, ctx);
            if (!be) {
              memcpy(xref, X->mem, xbytes);
            } else {
              if (memcmp(xref, X->mem, xbytes) != 0)
                tt_fail("%s: x differs from the REF row's (must be bit-identical)", ctx);
              if (memcmp(I.info, J.info, (size_t)P.nsys * sizeof(int32_t)) != 0)
                tt_fail("%s: info differs from the REF row's", ctx);
            }
            tridi_plan_destroy(plan);
          }
        }
        free(xref);
        tt_info_free(&I);
        tt_info_free(&J);
        tt_problem_free(&P);
      }
    }
  }
  tt_assert_no_failures();
}

static void oracle_contiguous(void **s) { (void)s; run_oracle("algs_contiguous", tt_build_contiguous, 0); }
static void oracle_interleaved(void **s) { (void)s; run_oracle("algs_interleaved", tt_build_interleaved, 0); }
static void oracle_strided(void **s) { (void)s; run_oracle("algs_strided", tt_build_strided, 0); }
static void oracle_inplace(void **s) { (void)s; run_oracle("algs_inplace", tt_build_contiguous, 1); }

/* ---- RD's accuracy check on small systems ------------------------------- */

/* Forced RD and CR+RD on the small diagonally dominant systems where RD once
 * returned 5.7e-10 (f64) and 1.2e-2 (f32) forward errors as solved: every
 * system must be solved to the suite's bounds or reported
 * TRIDI_INFO_INACCURATE (x written), with the status of the lowest one.  The
 * other side: a system whose true backward error is clearly inside the
 * check's bound (4 n eps, less the check's own rounding) must not be
 * reported, and n = 1 never is. */
static void rd_small(void **state) {
  (void)state;
  static const int64_t SN[] = {1, 2, 3, 7};
  const tridi_alg algs[] = {TRIDI_ALG_RD, TRIDI_ALG_CR_RD};
  uint64_t k = 0;
  int64_t clear = 0, reported = 0;
  for (int t = 0; t < 2; ++t)
    for (int in = 0; in < 4; ++in)
      for (int mode = 0; mode < 2; ++mode) {
        const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
        const int64_t n = SN[in];
        const double eps = t ? DBL_EPSILON : FLT_EPSILON;
        const uint64_t seed = tt_case_seed("algs_rd_small", k++);
        tt_rng rng;
        tt_rng_init(&rng, seed);
        tt_layout L;
        tt_build_contiguous(&L, dt, n, 200, &rng);
        tt_problem P;
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        if (mode) tt_problem_fill_laplacian(&P, seed);
        tt_info I;
        tt_info_alloc(&I, P.nsys);
        for (int a = 0; a < 2; ++a)
          for (int be = 0; be < 2; ++be) {
            const tridi_backend B = be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF;
            char ctx[200];
            snprintf(ctx, sizeof ctx, "[rd_small %s n=%" PRId64 " %s] [%s/%s]", tridi_dtype_name(dt),
                     n, mode ? "laplacian-like" : "dominant", tridi_backend_name(B),
                     tridi_alg_name(algs[a]));
            tridi_plan plan = NULL;
            if (!tt_expect_status(plan_for(&P, B, algs[a], &plan), TRIDI_SUCCESS, ctx)) continue;
            tt_problem_reset(&P);
            tt_info_poison(&I);
            const tridi_status st = tt_problem_execute(&P, plan, I.info);
            tt_info_guards_ok(&I, ctx);
            tridi_status want = TRIDI_SUCCESS;
            int64_t bad = 0;
            for (int64_t s = 0; s < P.nsys; ++s) {
              double res, dl;
              sys_errors(&P, s, &res, &dl);
              const int32_t got = I.info[s];
              if (res <= (TRIDI_RD_BERR_C * (double)n - 5) * eps) ++clear;
              if (got == TRIDI_INFO_INACCURATE) {
                ++reported;
                if (want == TRIDI_SUCCESS) want = TRIDI_ERR_INACCURATE;
                if (x_finite_max(&P, s) < 0 && bad++ < 3)
                  tt_fail("%s: system %" PRId64 ": inaccurate but x not written (finite)", ctx, s);
                if ((n == 1 || res <= (TRIDI_RD_BERR_C * (double)n - 5) * eps) && bad++ < 3)
                  tt_fail("%s: system %" PRId64 " reported inaccurate with backward error %.3g "
                          "(%.2f n eps)", ctx, s, res, res / ((double)n * eps));
              } else if (got != 0) {
                if (bad++ < 3) tt_fail("%s: system %" PRId64 ": info %" PRId32, ctx, s, got);
              } else if (!(res <= TT_RESID_C * (double)n * eps) ||
                         (mode == 0 && !(dl <= 10 * TT_RESID_C * (double)n * eps))) {
                if (bad++ < 3)
                  tt_fail("%s: system %" PRId64 " reported solved but residual %.3g (bound %.3g), "
                          "distance to LAPACK %.3g (bound %.3g)",
                          ctx, s, res, TT_RESID_C * (double)n * eps, dl,
                          mode == 0 ? 10 * TT_RESID_C * (double)n * eps : INFINITY);
              }
            }
            if (bad > 3) tt_fail("%s: %" PRId64 " systems wrong in all", ctx, bad);
            tt_expect_status(st, want, ctx);
            tridi_plan_destroy(plan);
          }
        tt_info_free(&I);
        tt_problem_free(&P);
      }
  /* neither side of the check may be vacuous on these data */
  if (clear == 0 || reported == 0)
    tt_fail("rd_small: %" PRId64 " clearly accurate and %" PRId64 " reported systems; expected both",
            clear, reported);
  tt_assert_no_failures();
}

/* ---- breakdown ------------------------------------------------------------ */

/* Systems of the batch that get an injection. */
enum { S_NAN = 1, S_ZERO = 3, S_OVF = 5, NSYS_BD = 7 };

/* Inject into P (Laplacian-like data); returns the expected info per kind, 0
 * when the kind cannot be made for this n; *ovf_kind_only: the overflow
 * system's row is not defined exactly for this algorithm (RD). */
static void inject(tt_problem *P, tridi_alg alg, int32_t want[NSYS_BD], int *ovf_kind_only) {
  const int64_t n = P->n;
  const double big = P->es == 4 ? 0.75 * FLT_MAX : 0.75 * DBL_MAX;
  for (int s = 0; s < NSYS_BD; ++s) want[s] = 0;
  /* NaN input at row k: every algorithm checks the inputs first */
  const int64_t kn = n / 2;
  tt_problem_set(P, TT_D, S_NAN, kn, NAN);
  want[S_NAN] = (int32_t)-(kn + 1);
  /* zero divisor */
  const int64_t sw = tridi_alg_switch(alg, P->dtype, n);
  const int rd_path = alg == TRIDI_ALG_RD || (alg == TRIDI_ALG_CR_RD && n <= sw);
  if (rd_path && n >= 2) {
    const int64_t k = (n - 1) / 3; /* < n-1 */
    tt_problem_set(P, TT_C, S_ZERO, k, 0.0);
    want[S_ZERO] = (int32_t)(k + 1);
  } else {
    int64_t k = n / 3;
    k -= k % 2; /* even row: a divisor of the first CR level / PCR step */
    tt_problem_set(P, TT_B, S_ZERO, k, 0.0);
    want[S_ZERO] = (int32_t)(k + 1);
  }
  /* overflow: huge d_0 over a small b_0 */
  tt_problem_set(P, TT_D, S_OVF, 0, big);
  tt_problem_set(P, TT_B, S_OVF, 0, 1e-3);
  if (n > 1) tt_problem_set(P, TT_A, S_OVF, 1, 0.5);
  *ovf_kind_only = is_rd(alg) && n > 1;
  want[S_OVF] = n > 1 ? -2 : -1;
  tt_problem_oracle(P);
}

static void breakdown(void **state) {
  (void)state;
  static const int64_t BNS[] = {1, 2, 3, 5, 31, 33, 64, 65, 513};
  uint64_t k = 0;
  for (int lay = 0; lay < 2; ++lay)
    for (int t = 0; t < 2; ++t)
      for (int in = 0; in < (int)(sizeof BNS / sizeof BNS[0]); ++in)
        for (int a = 0; a < NALGS; ++a) {
          const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
          const int64_t n = BNS[in];
          const uint64_t seed = tt_case_seed("algs_breakdown", k++);
          tt_rng rng;
          tt_rng_init(&rng, seed);
          tt_layout L;
          if (lay) tt_build_interleaved(&L, dt, n, NSYS_BD, &rng);
          else tt_build_contiguous(&L, dt, n, NSYS_BD, &rng);
          tt_problem P;
          if (tt_problem_init(&P, &L, seed, NULL)) continue;
          tt_problem_fill_laplacian(&P, seed);
          int32_t want[NSYS_BD];
          int ovf_kind_only = 0;
          inject(&P, ALGS[a], want, &ovf_kind_only);
          char lstr[400];
          tt_problem_str(&P, lstr, sizeof lstr);
          tt_info I;
          tt_info_alloc(&I, P.nsys);
          for (int be = 0; be < 2; ++be) {
            const tridi_backend B = be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF;
            char ctx[600];
            snprintf(ctx, sizeof ctx, "[breakdown %s] [%s/%s]", lstr, tridi_backend_name(B),
                     tridi_alg_name(ALGS[a]));
            tridi_plan plan = NULL;
            if (!tt_expect_status(plan_for(&P, B, ALGS[a], &plan), TRIDI_SUCCESS, ctx)) continue;
            /* the status of the lowest failing system: system 1 (NaN), unless RD
             * reported system 0 inaccurate; the run with info says which */
            tridi_status want_st = TRIDI_ERR_NONFINITE;
            for (int with_info = 1; with_info >= 0; --with_info) {
              tt_problem_reset(&P);
              tt_info_poison(&I);
              const tridi_status st = tt_problem_execute(&P, plan, with_info ? I.info : NULL);
              if (with_info && is_rd(ALGS[a]) && I.info[0] == TRIDI_INFO_INACCURATE)
                want_st = TRIDI_ERR_INACCURATE;
              tt_expect_status(st, want_st, ctx);
              if (!with_info) continue;
              tt_info_guards_ok(&I, ctx);
              for (int64_t s = 0; s < P.nsys; ++s) {
                const int32_t got = I.info[s];
                double res = 0, dl = 0;
                const double eps = P.es == 4 ? FLT_EPSILON : DBL_EPSILON;
                const double rtol = TT_RESID_C * (double)n * eps;
                const int inacc = got == TRIDI_INFO_INACCURATE && is_rd(ALGS[a]);
                if (s == S_OVF && ovf_kind_only) {
                  /* RD never forms d_0 k_1: NaN/Inf, or a solution (maybe inaccurate) */
                  if (got == 0) sys_errors(&P, s, &res, &dl);
                  if (!(got < 0 && got >= -n) && !(got == 0 && res <= rtol) && !inacc)
                    tt_fail("%s: system %" PRId64 ": info %" PRId32 ", expected a NaN/Inf code in "
                            "-1..-%" PRId64 " or a solution", ctx, s, got, n);
                } else if (want[s] == 0 && inacc) {
                  /* RD's failed accuracy check on a healthy system: x written */
                  if (x_finite_max(&P, s) < 0)
                    tt_fail("%s: system %" PRId64 ": inaccurate but x not finite", ctx, s);
                } else if (got != want[s]) {
                  tt_fail("%s: system %" PRId64 ": info %" PRId32 ", expected %" PRId32, ctx, s, got,
                          want[s]);
                } else if (got == 0) {
                  sys_errors(&P, s, &res, &dl);
                  if (!(res <= rtol))
                    tt_fail("%s: healthy system %" PRId64 " not solved: residual %.3g (bound %.3g)",
                            ctx, s, res, rtol);
                }
              }
            }
            tridi_plan_destroy(plan);
          }
          tt_info_free(&I);
          tt_problem_free(&P);
        }
  tt_assert_no_failures();
}

/* Exact rows of the less common definitions, on the reference functions. */
static void exact_rows(void **state) {
  (void)state;
  double w[64];
  double x[2];
  /* RD, n = 2: den = a_1 + b_1 (-b_0/c_0) = 1 - 1 = 0 -> +2 */
  {
    const double a[2] = {NAN, 1}, b[2] = {1, 1}, c[2] = {1, NAN}, d[2] = {1, 1};
    int32_t got = tridi_ref_alg_f64(TRIDI_ALG_RD, 2, 2, a, 1, b, 1, c, 1, d, 1, x, 1, w);
    if (got != 2) tt_fail("RD den = 0: info %" PRId32 ", expected 2", got);
  }
  /* CR, n = 3, b_1 = 0: not a divisor (row 1 is kept, its b updated) -> solved */
  {
    const double a[3] = {NAN, 1, 1}, b[3] = {4, 0, 4}, c[3] = {1, 1, NAN}, d[3] = {1, 2, 3};
    double x3[3];
    int32_t got = tridi_ref_alg_f64(TRIDI_ALG_CR, 1, 3, a, 1, b, 1, c, 1, d, 1, x3, 1, w);
    /* exact solution: from rows 0, 2: x0 = (1 - x1)/4, x2 = (3 - x1)/4; row 1:
     * x0 + x2 = 2 -> (4 - 2 x1)/4 = 2 -> x1 = -2, x0 = 0.75, x2 = 1.25 */
    if (got != 0 || fabs(x3[0] - 0.75) > 1e-15 || fabs(x3[1] + 2) > 1e-15 || fabs(x3[2] - 1.25) > 1e-15)
      tt_fail("CR b_1 = 0: info %" PRId32 ", x = %g %g %g (expected 0.75 -2 1.25)", got, x3[0], x3[1],
              x3[2]);
    /* PCR divides by b_1 (neighbour of rows 0 and 2 in step 1) -> +2 */
    got = tridi_ref_alg_f64(TRIDI_ALG_PCR, 3, 3, a, 1, b, 1, c, 1, d, 1, x3, 1, w);
    if (got != 2) tt_fail("PCR b_1 = 0: info %" PRId32 ", expected 2", got);
  }
  /* CR, n = 4, level 1: rows 1 and 3 remain; row 1 (level-1 equation 0) gets
   * b' = 0 exactly and is the divisor of level 1 -> +2 */
  {
    /* b'_1 = b_1 - c_0 a_1/b_0 - a_2 c_1/b_2 = 3 - 1 - 2 = 0 */
    const double a[4] = {NAN, 1, 2, 1}, b[4] = {1, 3, 1, 4}, c[4] = {1, 1, 1, NAN},
                 d[4] = {1, 1, 1, 1};
    double x4[4];
    int32_t got = tridi_ref_alg_f64(TRIDI_ALG_CR, 1, 4, a, 1, b, 1, c, 1, d, 1, x4, 1, w);
    if (got != 2) tt_fail("CR level-1 zero: info %" PRId32 ", expected 2", got);
  }
  tt_assert_no_failures();
}

/* Workspace and names: every row has a kernel name and a workspace size. */
static void plan_rows(void **state) {
  (void)state;
  const int64_t shape[2] = {5, 100};
  for (int be = 0; be < 2; ++be)
    for (int a = 0; a < NALGS; ++a) {
      tridi_desc d = NULL;
      tridi_desc_create(&d, TRIDI_F64, 2, shape, 1);
      tridi_options o;
      tridi_options_init(&o);
      o.backend = be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF;
      o.alg = ALGS[a];
      o.assume_dominant = tridi_alg_requires_dominance(ALGS[a]);
      tridi_plan p = NULL;
      if (!tt_expect_status(tridi_plan_create(&p, d, &o), TRIDI_SUCCESS, "plan_rows")) {
        tridi_desc_destroy(d);
        continue;
      }
      tridi_plan_info pi;
      memset(&pi, 0, sizeof pi);
      pi.struct_size = sizeof pi;
      tridi_plan_get_info(p, &pi);
      size_t ws = 0;
      tridi_plan_workspace_size(p, &ws);
      if (!pi.kernel || !strstr(pi.kernel, be ? "cpu_" : "ref_") || ws < 22 * 100 * 8)
        tt_fail("plan_rows: %s/%s kernel %s workspace %zu", tridi_backend_name(o.backend),
                tridi_alg_name(o.alg), pi.kernel ? pi.kernel : "(null)", ws);
      tridi_plan_destroy(p);
      tridi_desc_destroy(d);
    }
  /* AUTO still picks Thomas on both backends */
  for (int be = 0; be < 2; ++be) {
    tridi_desc d = NULL;
    tridi_desc_create(&d, TRIDI_F64, 2, shape, 1);
    tridi_options o;
    tridi_options_init(&o);
    o.backend = be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF;
    tridi_plan p = NULL;
    if (tt_expect_status(tridi_plan_create(&p, d, &o), TRIDI_SUCCESS, "plan_rows auto")) {
      tridi_plan_info pi;
      memset(&pi, 0, sizeof pi);
      pi.struct_size = sizeof pi;
      tridi_plan_get_info(p, &pi);
      if (pi.alg != TRIDI_ALG_THOMAS && pi.alg != TRIDI_ALG_THOMAS_REF)
        tt_fail("plan_rows: AUTO on %s picked %s", tridi_backend_name(o.backend), tridi_alg_name(pi.alg));
    }
    tridi_plan_destroy(p);
    tridi_desc_destroy(d);
  }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oracle_contiguous), cmocka_unit_test(oracle_interleaved),
      cmocka_unit_test(oracle_strided),    cmocka_unit_test(oracle_inplace),
      cmocka_unit_test(breakdown),         cmocka_unit_test(exact_rows),
      cmocka_unit_test(rd_small),
      cmocka_unit_test(plan_rows),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
