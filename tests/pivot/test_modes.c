/* Growth detection and the pivoting modes through the public API, on the
 * harness (tests/README.md) with the systems of the test-matrix collection
 * (tests/matrices: every family, dominant or not, in one batch, each system
 * its own matrix and seed), every host configuration (tt_configs: the
 * non-pivoting solvers with TRIDI_PIVOT_NONE, CPU/AUTO and the NULL options
 * with TRIDI_PIVOT_AUTO, the pivoting solvers with _PARTIAL), scalar layouts
 * (contiguous = the SIMD kernels' transposes, interleaved = in-place rows,
 * strided = per-operand random strides and gathers) and variable-size
 * batches (packed and padded interleaved), f32 and f64, out of place and in
 * place:
 *
 *   collection   every execute checked by the harness against the oracle of
 *                the plan's mode (info of every system, status of the
 *                lowest failing one, residual of every solved system, x
 *                written exactly where described); then the property of the
 *                detection: every system is flagged
 *                (TRIDI_INFO_INACCURATE), reported broken down, or solved to
 *                a backward error <= 10 n eps, and no strictly dominant or
 *                SPD system is ever flagged; and bit for bit: every system
 *                the pivoting solver solved (PARTIAL, and AUTO's second
 *                pass) equals the reference pivoting solver's x on the
 *                portable and AVX2 kernels and the reference rows, and AUTO's
 *                solved-again systems on every ISA (the second pass is the
 *                reference solver);
 *   interchanges random systems with many row interchanges (U(-1,1), tiny
 *                and zero diagonals) at tile and group boundaries: the SIMD
 *                pivoting kernel against the reference bit for bit
 *                (portable, AVX2) or to the residual bound (AVX-512, FMA);
 *   auto         TRIDI_PIVOT_AUTO's second pass without an info array (the
 *                solve is run again into the workspace), with a caller's
 *                workspace (tridi_execute_ws), with assume_dominant (nothing
 *                flagged, nothing solved again), in place (flags kept);
 *   precedence   one system with growth and a later NaN gets the NaN's
 *                code; the status is that of the lowest-numbered failing
 *                system whatever the kinds;
 *   options      a forced algorithm against the pivot mode each way
 *                (TRIDI_ERR_INVALID_OPTION naming both), the accepted
 *                neighbours and what the plan then runs, a tridi_options of
 *                the first release's size (its newer fields taken as
 *                defaults whatever the memory behind it holds) and one byte
 *                shorter (refused), the new fields read, pivot names.
 *
 * A system whose G is within 2% of the threshold, or whose elimination
 * meets a computed zero pivot or overflow, is replaced before the solves
 * (fill_collection): the AVX-512 kernels compute u_i with an FMA, so their
 * G and pivots differ from the reference's in the last bits, and those
 * outcomes are not a property either way. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matgen_problem.h"
#include "ref_pivot.h"
#include "tt.h"

/* ---- the variable kind's problems ------------------------------------------- */

typedef struct var_data {
  tridi_var_layout layout;
  int64_t rows, ld;
  int64_t *len;
} var_data;

static tridi_status var_make_desc(const tt_problem *P, tridi_desc *desc) {
  const var_data *v = (const var_data *)P->kind_data;
  return tridi_desc_create_variable(desc, P->dtype, P->nsys, v->len, v->layout, v->rows, v->ld);
}
static void var_free(void *p) {
  var_data *v = (var_data *)p;
  if (v) free(v->len);
  free(v);
}
static const tt_kind var_kind = {
    .name = "variable", .make_desc = var_make_desc, .free_data = var_free};

/* B systems of lengths len[] in a packed or padded interleaved batch. */
static int var_problem(tt_problem *P, tridi_dtype dt, tridi_var_layout lay, int64_t B,
                       const int64_t *len, int inplace, uint64_t seed) {
  var_data *v = calloc(1, sizeof *v);
  tt_sys *sys = calloc((size_t)B, sizeof *sys);
  if (!v || !sys || !(v->len = malloc((size_t)B * sizeof *v->len))) {
    free(sys);
    var_free(v);
    return -1;
  }
  v->layout = lay;
  int64_t off = 0, nmax = 0;
  for (int64_t s = 0; s < B; ++s) nmax = len[s] > nmax ? len[s] : nmax;
  v->rows = lay == TRIDI_VAR_INTERLEAVED ? nmax + 1 : 0;
  v->ld = lay == TRIDI_VAR_INTERLEAVED ? B + 3 : 0;
  for (int64_t s = 0; s < B; ++s) {
    v->len[s] = sys[s].n = len[s];
    for (int op = 0; op < TT_NOPS; ++op) {
      sys[s].off[op] = lay == TRIDI_VAR_INTERLEAVED ? s : off;
      sys[s].inc[op] = lay == TRIDI_VAR_INTERLEAVED ? v->ld : 1;
    }
    off += len[s];
  }
  const tt_problem_spec spec = {
      .kind = &var_kind,
      .name = lay == TRIDI_VAR_INTERLEAVED ? "variable interleaved" : "variable packed",
      .dtype = dt,
      .inplace = inplace,
      .nsys = B,
      .sys = sys,
      .kind_data = v};
  const int rc = tt_problem_init_sys(P, &spec, seed, NULL);
  free(sys);
  return rc;
}

/* ---- systems from the collection ------------------------------------------------ */

/* The growth indicator of system s's original inputs (reference Thomas in
 * the problem's type); NaN on a breakdown other than a zero first pivot,
 * Inf on that one. */
static double growth_of(const tt_problem *P, int64_t s) {
  const int64_t n = P->sys[s].n;
  double *v = malloc(sizeof(double) * 7 * (size_t)n);
  float *f = malloc(sizeof(float) * 7 * (size_t)n);
  double g = NAN;
  if (v && f) {
    for (int op = 0; op < 4; ++op)
      for (int64_t i = 0; i < n; ++i) v[op * n + i] = tt_problem_get_orig(P, op, s, i);
    int32_t code;
    if (P->es == 8) {
      code = tridi_ref_growth_f64(n, v, 1, v + n, 1, v + 2 * n, 1, v + 3 * n, 1, v + 4 * n, 1,
                                  v + 5 * n, &g);
    } else {
      float gf;
      mg_to_f32(4 * n, v, f);
      code = tridi_ref_growth_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, f + 4 * n, 1,
                                  f + 5 * n, &gf);
      g = gf;
    }
    if (code != 0 && code != TRIDI_INFO_INACCURATE) g = code == 1 ? INFINITY : NAN;
  }
  free(v);
  free(f);
  return g;
}

/* 1 when the reference pivoting solver fails on system s's original inputs. */
static int pivot_fails(const tt_problem *P, int64_t s) {
  const int64_t n = P->sys[s].n;
  double *v = malloc(sizeof(double) * 8 * (size_t)n);
  float *f = malloc(sizeof(float) * 8 * (size_t)n);
  int32_t code = -1;
  if (v && f) {
    for (int op = 0; op < 4; ++op)
      for (int64_t i = 0; i < n; ++i) v[op * n + i] = tt_problem_get_orig(P, op, s, i);
    if (P->es == 8) {
      code = tridi_ref_pivot_f64(n, v, 1, v + n, 1, v + 2 * n, 1, v + 3 * n, 1, v + 4 * n, 1,
                                 v + 5 * n);
    } else {
      mg_to_f32(4 * n, v, f);
      code = tridi_ref_pivot_f32(n, f, 1, f + n, 1, f + 2 * n, 1, f + 3 * n, 1, f + 4 * n, 1,
                                 f + 5 * n);
    }
  }
  free(v);
  free(f);
  return code != 0;
}

/* Which families a system may come from at length n: the dense randsvd
 * generators are O(n^3) (n <= 64 here); Dorr's matrix, numerically
 * singular, flags or not depending on the last bits of its pivots (FMA or
 * not: docs/matrices.md), so its info is no property to compare (the
 * reference tests in test_collection.c cover it). */
static int usable(const mg_matrix *m, int64_t n) {
  return (!(m->props & MG_DENSE) || n <= 64) && strcmp(m->name, "dorr") != 0;
}

/* 1 when the detection must never flag this family: strictly diagonally
 * dominant by rows or columns, or symmetric positive definite
 * (docs/matrices.md; Dorr, weakly dominant and numerically singular, may be
 * flagged). */
static int never_flagged(const mg_matrix *m) {
  const unsigned p = m->props;
  return (p & MG_SPD) || ((p & (MG_ROW_DOM | MG_COL_DOM)) && !(p & MG_DOM_WEAK));
}

/* Fill every system from the collection: system s takes family fam[s]
 * (chosen round robin among the usable ones, with a seed per system).  A
 * system takes the next family instead when whether it is flagged or breaks
 * down depends on the last bits of the arithmetic: G within 2% of the
 * threshold, a zero pivot or an overflow met by the computed non-pivoting
 * elimination, or any failure of the pivoting one (an exactly singular
 * matrix, or randsvd's in f32: a last pivot exactly 0 without FMA, tiny
 * with it).  Exact zero first pivots (b_0 = 0: zero_diag, rand_diag_0 at
 * even n) stay.  Then the oracles. */
static void fill_collection(tt_problem *P, uint64_t seed, const mg_matrix **fam) {
  int next = (int)(seed % (uint64_t)mg_count);
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int64_t n = P->sys[s].n;
    for (int tries = 0; tries < 2 * mg_count; ++tries) {
      const mg_matrix *m = &mg_matrices[next];
      next = (next + 1) % mg_count;
      if (!usable(m, n) || tt_problem_set_matrix(P, s, m, seed + (uint64_t)s) != 0) continue;
      const double g = growth_of(P, s);
      if (g != g || fabs(g / TRIDI_GROWTH_LIMIT - 1) < 0.02 || pivot_fails(P, s)) continue;
      fam[s] = m;
      break;
    }
  }
  P->close_c = INFINITY; /* ill-conditioned systems: residuals are judged */
  tt_problem_oracle(P);
}

/* ---- one execute, every check ---------------------------------------------------- */

/* 1 when the plan's arithmetic is the reference's operation for operation
 * (no FMA): every REF row, the reference rows over threads, and the SIMD
 * kernels on the portable and AVX2 paths. */
static int plan_is_exact(tridi_plan plan) {
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tridi_plan_get_info(plan, &pi);
  return !(pi.backend == TRIDI_BACKEND_CPU && pi.simd == TRIDI_SIMD_AVX512 &&
           (pi.alg == TRIDI_ALG_THOMAS || pi.alg == TRIDI_ALG_LU_PARTIAL) &&
           strstr(pi.kernel, "_ref") == NULL);
}

/* x of system s equals an oracle's (xref or xpiv) bit for bit (as the
 * problem's type), a zero's sign aside (the variable-batch kernel's last
 * unknown is d' - c' 0, which turns -0 into +0). */
static int x_is_oracle(const tt_problem *P, int64_t s, const double *oracle) {
  for (int64_t i = 0; i < P->sys[s].n; ++i) {
    const double x = tt_problem_get_x(P, s, i), y = oracle[P->row0[s] + i];
    if (!(x == y) && memcmp(&x, &y, sizeof x) != 0) return 0;
  }
  return 1;
}
static int x_is_pivot_oracle(const tt_problem *P, int64_t s) {
  return x_is_oracle(P, s, P->xpiv);
}

static void check_execute(tt_problem *P, tridi_plan plan, const mg_matrix *const *fam, tt_info *I,
                          const char *ctx) {
  tt_problem_use_plan(P, plan);
  tt_problem_solve_check(P, plan, I, tt_problem_expected_status(P), ctx);
  const double eps = P->es == 4 ? FLT_EPSILON : DBL_EPSILON;
  const int exact = plan_is_exact(plan);
  long bad = 0;
  for (int64_t s = 0; s < P->nsys; ++s) {
    const int64_t n = P->sys[s].n;
    const int32_t info = I->info[s];
    const char *name = fam && fam[s] ? fam[s]->name : "?";
    if (info == 0) { /* solved: to 10 n eps */
      const double be = tt_problem_residual(P, s);
      if (!(be <= 10.0 * (double)n * eps) && bad++ < 3)
        tt_fail("%s: system %" PRId64 " (%s, n %" PRId64
                "): info 0 but backward error %.3g > 10 n eps",
                ctx, s, name, n, be);
    }
    if (info == TRIDI_INFO_INACCURATE && fam && fam[s] && never_flagged(fam[s]) && bad++ < 3)
      tt_fail("%s: system %" PRId64 " (%s, n %" PRId64 ") is dominant or SPD but was flagged", ctx,
              s, name, n);
    if (tt_problem_pivoted(P, s) && P->piv_info[s] == 0 &&
        (exact || (P->pivot == TRIDI_PIVOT_AUTO && P->ref_info[s] != 0)) &&
        !x_is_pivot_oracle(P, s) && bad++ < 3)
      tt_fail("%s: system %" PRId64 " (%s, n %" PRId64
              "): x is not the reference pivoting solver's "
              "bit for bit",
              ctx, s, name, n);
    /* the non-pivoting kernels without FMA: the reference Thomas's bits, the
     * flagged systems' included */
    if (exact && !tt_problem_pivoted(P, s) && (info == 0 || info == TRIDI_INFO_INACCURATE) &&
        !x_is_oracle(P, s, P->xref) && bad++ < 3)
      tt_fail("%s: system %" PRId64 " (%s, n %" PRId64
              ", info %d): x is not the reference "
              "Thomas's bit for bit",
              ctx, s, name, n, (int)info);
  }
  if (bad > 3) tt_fail("%s: %ld failures in all", ctx, bad);
}

/* Every configuration on problem P. */
static void run_configs(tt_problem *P, const mg_matrix *const *fam, const char *lstr, long *flagged,
                        long *pivoted) {
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  char ctx[600];
  for (int c = 0; c < nc; ++c) {
    snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
    tridi_plan plan;
    if (!tt_expect_status(tt_problem_plan(P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                          TRIDI_SUCCESS, ctx))
      continue;
    check_execute(P, plan, fam, &I, ctx);
    for (int64_t s = 0; s < P->nsys; ++s) {
      *flagged += I.info[s] == TRIDI_INFO_INACCURATE;
      *pivoted += P->pivot == TRIDI_PIVOT_AUTO && tt_problem_pivoted(P, s);
    }
    tridi_plan_destroy(plan);
  }
  tt_info_free(&I);
}

static void test_collection(void **state) {
  (void)state;
  static const int64_t ns[] = {1, 2, 3, 5, 8, 17, 33, 64, 100};
  static const tt_builder builders[] = {tt_build_contiguous, tt_build_interleaved,
                                        tt_build_strided};
  const int64_t B = 70; /* more than a group of 64 f32 lanes: full and partial groups */
  long flagged = 0, pivoted = 0;
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in)
      for (int lay = 0; lay < 5; ++lay)
        for (int inplace = 0; inplace < 2; ++inplace) {
          const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
          const uint64_t seed = tt_case_seed("modes_collection", k++);
          tt_problem P;
          if (lay < 3) {
            tt_rng r;
            tt_rng_init(&r, seed);
            tt_layout L;
            builders[lay](&L, dt, ns[in], B, &r);
            L.inplace = inplace;
            if (inplace && !tt_layout_injective(&L, TT_D)) continue;
            if (tt_problem_init(&P, &L, seed, NULL)) continue;
          } else {
            int64_t len[70];
            tt_rng r;
            tt_rng_init(&r, seed);
            for (int64_t s = 0; s < B; ++s) len[s] = tt_rng_int(&r, 1, ns[in]);
            if (var_problem(&P, dt, lay == 3 ? TRIDI_VAR_PACKED : TRIDI_VAR_INTERLEAVED, B, len,
                            inplace, seed))
              continue;
          }
          const mg_matrix **fam = calloc((size_t)P.nsys, sizeof *fam);
          assert_non_null(fam);
          fill_collection(&P, seed, fam);
          char lstr[400];
          tt_problem_str(&P, lstr, sizeof lstr);
          run_configs(&P, fam, lstr, &flagged, &pivoted);
          free(fam);
          tt_problem_free(&P);
        }
  fprintf(stderr, "[test_modes] collection: %ld systems flagged, %ld solved again by AUTO\n",
          flagged, pivoted);
  if (flagged == 0 || pivoted == 0)
    tt_fail("the collection flagged nothing or AUTO pivoted nothing");
  tt_assert_no_failures();
}

/* ---- interchanges: the SIMD pivoting kernel against the reference ----------------- */

/* Random systems, every entry U(-1,1) (about half the steps interchange);
 * every 7th system with b = 1e-8 b (tiny diagonal), every 11th with a zero
 * diagonal (nonsingular for even n, almost surely). */
static void fill_random(tt_problem *P, uint64_t seed) {
  tt_rng r;
  tt_rng_init(&r, seed);
  for (int64_t s = 0; s < P->nsys; ++s)
    for (int64_t i = 0; i < P->sys[s].n; ++i) {
      double bv = tt_rng_uniform(&r, -1, 1);
      if (s % 7 == 3) bv *= 1e-8;
      if (s % 11 == 5) bv = 0;
      if (i > 0) tt_problem_set(P, TT_A, s, i, tt_rng_uniform(&r, -1, 1));
      tt_problem_set(P, TT_B, s, i, bv);
      if (i < P->sys[s].n - 1) tt_problem_set(P, TT_C, s, i, tt_rng_uniform(&r, -1, 1));
      tt_problem_set(P, TT_D, s, i, tt_rng_uniform(&r, -1, 1));
    }
  P->close_c = INFINITY;
  tt_problem_oracle(P);
}

static void test_interchanges(void **state) {
  (void)state;
  /* around the tile depths (8, 16, 32, 64 rows) and a long system */
  static const int64_t ns[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, 129, 1000};
  static const tt_builder builders[] = {tt_build_contiguous, tt_build_interleaved,
                                        tt_build_strided};
  static const int64_t batches[] = {5, 67};
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  uint64_t k = 0;
  long swaps = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in)
      for (int lay = 0; lay < 3; ++lay)
        for (int bi = 0; bi < 2; ++bi)
          for (int inplace = 0; inplace < 2; ++inplace) {
            const uint64_t seed = tt_case_seed("modes_interchanges", k++);
            tt_rng r;
            tt_rng_init(&r, seed);
            tt_layout L;
            builders[lay](&L, t ? TRIDI_F64 : TRIDI_F32, ns[in], batches[bi], &r);
            L.inplace = inplace;
            if (inplace && !tt_layout_injective(&L, TT_D)) continue;
            tt_problem P;
            if (tt_problem_init(&P, &L, seed, NULL)) continue;
            fill_random(&P, seed);
            for (int64_t s = 0; s < P.nsys; ++s) swaps += P.ref_info[s] != 0;
            char lstr[400], ctx[600];
            tt_problem_str(&P, lstr, sizeof lstr);
            tt_info I;
            tt_info_alloc(&I, P.nsys);
            for (int c = 0; c < nc; ++c) {
              if (cfg[c].null_opts || cfg[c].opts.pivot != TRIDI_PIVOT_PARTIAL) continue;
              snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
              tridi_plan plan;
              if (!tt_expect_status(tt_problem_plan(&P, &cfg[c].opts, &plan), TRIDI_SUCCESS, ctx))
                continue;
              check_execute(&P, plan, NULL, &I, ctx);
              tridi_plan_destroy(plan);
            }
            tt_info_free(&I);
            tt_problem_free(&P);
          }
  /* the data do need pivoting: Thomas fails or flags on most of them */
  if (swaps == 0) tt_fail("no system of the interchange test needs pivoting");
  tt_assert_no_failures();
}

/* ---- AUTO's second pass ----------------------------------------------------------------- */

static void test_auto(void **state) {
  (void)state;
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 2; ++lay) {
      const uint64_t seed = tt_case_seed("modes_auto", k++);
      tt_rng r;
      tt_rng_init(&r, seed);
      tt_layout L;
      (lay ? tt_build_interleaved : tt_build_contiguous)(&L, t ? TRIDI_F64 : TRIDI_F32, 40, 150,
                                                         &r);
      tt_problem P;
      assert_int_equal(tt_problem_init(&P, &L, seed, NULL), 0);
      const mg_matrix **fam = calloc((size_t)P.nsys, sizeof *fam);
      assert_non_null(fam);
      fill_collection(&P, seed, fam);
      char lstr[400], ctx[600];
      tt_problem_str(&P, lstr, sizeof lstr);
      tt_info I;
      tt_info_alloc(&I, P.nsys);
      for (int be = 0; be < 2; ++be)
        for (int threads = 1; threads <= 3; threads += 2) {
          tridi_options o;
          tridi_options_init(&o);
          o.backend = be ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF;
          o.num_threads = threads;
          tridi_plan plan;
          snprintf(ctx, sizeof ctx, "[%s] [%s, %d threads]", lstr, be ? "cpu" : "ref", threads);
          assert_int_equal(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS);
          tt_problem_use_plan(&P, plan);
          const tridi_status want = tt_problem_expected_status(&P);
          /* with the caller's info */
          check_execute(&P, plan, fam, &I, ctx);
          /* without: the second pass runs the solve again into the workspace */
          tt_problem_reset(&P);
          tt_expect_status(tt_problem_execute(&P, plan, NULL), want, ctx);
          tt_problem_check(&P, ctx, NULL);
          for (int64_t s = 0; s < P.nsys; ++s)
            if (tt_problem_pivoted(&P, s) && P.piv_info[s] == 0 && !x_is_pivot_oracle(&P, s))
              tt_fail("%s, info NULL: system %" PRId64 " was not solved again", ctx, s);
          /* with a workspace of the caller's, of the size the plan asks for */
          size_t wsb = 0;
          tridi_plan_workspace_size(plan, &wsb);
          void *ws = tridi_aligned_alloc(wsb ? wsb : 64);
          assert_non_null(ws);
          memset(ws, 0x7f, wsb);
          tt_problem_reset(&P);
          tt_info_poison(&I);
          tt_expect_status(
              tridi_execute_ws(plan, tt_ptr(&P, TT_A), tt_ptr(&P, TT_B), tt_ptr(&P, TT_C),
                               tt_ptr(&P, TT_D), tt_ptr(&P, TT_X), NULL, NULL, ws, wsb),
              want, ctx);
          tt_problem_check(&P, ctx, NULL);
          tridi_aligned_free(ws);
          tridi_plan_destroy(plan);
          /* assume_dominant: nothing flagged, nothing solved again */
          o.assume_dominant = 1;
          snprintf(ctx, sizeof ctx, "[%s] [%s, %d threads, assume_dominant]", lstr,
                   be ? "cpu" : "ref", threads);
          assert_int_equal(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS);
          tt_problem_use_plan(&P, plan);
          tt_problem_reset(&P);
          tt_info_poison(&I);
          tt_problem_execute(&P, plan, I.info);
          for (int64_t s = 0; s < P.nsys; ++s)
            if (I.info[s] == TRIDI_INFO_INACCURATE ||
                (P.ref_info[s] == TRIDI_INFO_INACCURATE && I.info[s] != 0))
              tt_fail("%s: system %" PRId64 ": info %d (Thomas oracle %d)", ctx, s, (int)I.info[s],
                      (int)P.ref_info[s]);
          tridi_plan_destroy(plan);
        }
      tt_info_free(&I);
      free(fam);
      tt_problem_free(&P);
    }
  tt_assert_no_failures();
}

/* ---- precedence ----------------------------------------------------------------- */

static void test_precedence(void **state) {
  (void)state;
  const int64_t n = 12, B = 40;
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  for (int t = 0; t < 2; ++t)
    for (int order = 0; order < 3; ++order) {
      tt_layout L;
      tt_build_interleaved(&L, t ? TRIDI_F64 : TRIDI_F32, n, B, NULL);
      tt_problem P;
      assert_int_equal(
          tt_problem_init(&P, &L, tt_case_seed("modes_precedence", 2 * order + t), NULL), 0);
      /* growth: a tiny first pivot (1e-6: G ~ 1e6) */
      const int64_t sg = order == 0 ? 3 : 9, sz = order == 0 ? 9 : 3, sn = 20;
      tt_problem_set(&P, TT_B, sg, 0, 1e-6);
      /* a zero pivot in another system */
      tt_problem_zero_pivot(&P, sz, 4);
      /* growth and then a NaN in one system: the NaN's code */
      tt_problem_set(&P, TT_B, sn, 0, 1e-6);
      tt_problem_nonfinite(&P, sn, TT_D, 7, NAN);
      if (order == 2) tt_problem_set(&P, TT_B, sz, 0, 1e-6); /* growth before the zero pivot */
      tt_problem_oracle(&P);
      if (P.ref_info[sg] != TRIDI_INFO_INACCURATE || P.ref_info[sn] != -8 || P.ref_info[sz] != 5)
        tt_fail("construction: oracle info %d, %d, %d", (int)P.ref_info[sg], (int)P.ref_info[sn],
                (int)P.ref_info[sz]);
      char lstr[400], ctx[600];
      tt_problem_str(&P, lstr, sizeof lstr);
      tt_info I;
      tt_info_alloc(&I, P.nsys);
      for (int c = 0; c < nc; ++c) {
        if (cfg[c].null_opts || cfg[c].opts.pivot != TRIDI_PIVOT_NONE) continue;
        snprintf(ctx, sizeof ctx, "[%s order %d] [%s]", lstr, order, cfg[c].name);
        tridi_plan plan;
        if (!tt_expect_status(tt_problem_plan(&P, &cfg[c].opts, &plan), TRIDI_SUCCESS, ctx))
          continue;
        const tridi_status want = order == 0 ? TRIDI_ERR_INACCURATE : TRIDI_ERR_ZERO_PIVOT;
        tt_problem_solve_check(&P, plan, &I, want, ctx);
        if (I.info[sn] != -8)
          tt_fail("%s: growth then NaN: info %d, expected -8", ctx, (int)I.info[sn]);
        tridi_plan_destroy(plan);
      }
      tt_info_free(&I);
      tt_problem_free(&P);
    }
  tt_assert_no_failures();
}

/* ---- options ---------------------------------------------------------------------- */

/* The pivot mode of the plan made with o (or the status of the refusal). */
static tridi_status plan_pivot(tridi_desc d, const tridi_options *o, tridi_pivot *pv,
                               tridi_alg *alg, int *assume) {
  tridi_plan p = (tridi_plan)(uintptr_t)0x10; /* must be set to NULL on failure */
  const tridi_status st = tridi_plan_create(&p, d, o);
  if (st != TRIDI_SUCCESS) {
    if (p) tt_fail("tridi_plan_create failed (%s) but *plan is not NULL", tridi_status_name(st));
    return st;
  }
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  tt_expect_status(tridi_plan_get_info(p, &pi), TRIDI_SUCCESS, "tridi_plan_get_info");
  *pv = pi.pivot;
  *alg = pi.alg;
  *assume = pi.assume_dominant;
  tridi_plan_destroy(p);
  return st;
}

static void test_options(void **state) {
  (void)state;
  const int64_t shape[2] = {40, 17};
  tridi_desc d = NULL;
  assert_int_equal(tridi_desc_create(&d, TRIDI_F64, 2, shape, 1), TRIDI_SUCCESS);
  tridi_options o;
  tridi_pivot pv;
  tridi_alg alg;
  int assume;
  /* a forced algorithm against the pivot mode, each way: refused, and the
   * message names the algorithm and the pivot field */
  const struct {
    tridi_alg alg;
    tridi_pivot pivot;
  } clash[] = {{TRIDI_ALG_THOMAS, TRIDI_PIVOT_PARTIAL},
               {TRIDI_ALG_THOMAS_REF, TRIDI_PIVOT_PARTIAL},
               {TRIDI_ALG_CR, TRIDI_PIVOT_PARTIAL},
               {TRIDI_ALG_LU_PARTIAL, TRIDI_PIVOT_NONE}};
  for (size_t k = 0; k < sizeof clash / sizeof clash[0]; ++k) {
    tridi_options_init(&o);
    o.alg = clash[k].alg;
    o.pivot = clash[k].pivot;
    tt_expect_status(plan_pivot(d, &o, &pv, &alg, &assume), TRIDI_ERR_INVALID_OPTION,
                     "a forced algorithm against the pivot mode");
    if (!strstr(tridi_last_error(), tridi_alg_name(clash[k].alg)) ||
        !strstr(tridi_last_error(), "pivot"))
      tt_fail("conflicting options (alg %s, pivot %s): the message \"%s\" names neither",
              tridi_alg_name(clash[k].alg), tridi_pivot_name(clash[k].pivot), tridi_last_error());
  }
  /* the accepted neighbours: partial with AUTO or LU_PARTIAL, auto/none with
   * a non-pivoting algorithm, LU_PARTIAL with auto (= partial) */
  const struct {
    tridi_alg alg;
    tridi_pivot pivot, want;
    tridi_alg want_alg;
  } ok[] = {{TRIDI_ALG_AUTO, TRIDI_PIVOT_PARTIAL, TRIDI_PIVOT_PARTIAL, TRIDI_ALG_LU_PARTIAL},
            {TRIDI_ALG_LU_PARTIAL, TRIDI_PIVOT_PARTIAL, TRIDI_PIVOT_PARTIAL, TRIDI_ALG_LU_PARTIAL},
            {TRIDI_ALG_LU_PARTIAL, TRIDI_PIVOT_AUTO, TRIDI_PIVOT_PARTIAL, TRIDI_ALG_LU_PARTIAL},
            {TRIDI_ALG_THOMAS, TRIDI_PIVOT_AUTO, TRIDI_PIVOT_AUTO, TRIDI_ALG_THOMAS},
            {TRIDI_ALG_CR, TRIDI_PIVOT_NONE, TRIDI_PIVOT_NONE, TRIDI_ALG_CR}};
  for (size_t k = 0; k < sizeof ok / sizeof ok[0]; ++k) {
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CPU;
    o.alg = ok[k].alg;
    o.pivot = ok[k].pivot;
    o.assume_dominant = tridi_alg_requires_dominance(ok[k].alg); /* CR: required (below) */
    if (tt_expect_status(plan_pivot(d, &o, &pv, &alg, &assume), TRIDI_SUCCESS, "options") &&
        (pv != ok[k].want || alg != ok[k].want_alg))
      tt_fail("alg %s, pivot %s: the plan runs %s with pivot %s", tridi_alg_name(ok[k].alg),
              tridi_pivot_name(ok[k].pivot), tridi_alg_name(alg), tridi_pivot_name(pv));
  }
  /* CR, PCR and CR+PCR neither pivot nor check their result: refused
   * without the caller's declaration of dominance, with a message that
   * names the algorithm and the option; planned with it, on both host
   * backends.  RD and CR+RD check theirs: planned either way. */
  const tridi_alg unguarded[] = {TRIDI_ALG_CR, TRIDI_ALG_PCR, TRIDI_ALG_CR_PCR};
  for (size_t k = 0; k < sizeof unguarded / sizeof unguarded[0]; ++k)
    for (int be = TRIDI_BACKEND_REF; be <= TRIDI_BACKEND_CPU; ++be)
      for (int pm = 0; pm < 2; ++pm) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "alg %s, backend %s, pivot %s", tridi_alg_name(unguarded[k]),
                 tridi_backend_name((tridi_backend)be), pm ? "auto" : "none");
        tridi_options_init(&o);
        o.backend = (tridi_backend)be;
        o.alg = unguarded[k];
        o.pivot = pm ? TRIDI_PIVOT_AUTO : TRIDI_PIVOT_NONE;
        tt_expect_status(plan_pivot(d, &o, &pv, &alg, &assume), TRIDI_ERR_INVALID_OPTION, ctx);
        if (!strstr(tridi_last_error(), tridi_alg_name(unguarded[k])) ||
            !strstr(tridi_last_error(), "assume_dominant"))
          tt_fail("%s without assume_dominant: the message \"%s\" names neither", ctx,
                  tridi_last_error());
        o.assume_dominant = 1;
        if (tt_expect_status(plan_pivot(d, &o, &pv, &alg, &assume), TRIDI_SUCCESS, ctx) &&
            (alg != unguarded[k] || assume != 1))
          tt_fail("%s, assume_dominant: the plan runs %s, assume_dominant %d", ctx,
                  tridi_alg_name(alg), assume);
      }
  /* the query says which: exactly these three of the valid values */
  for (int a = -1; a <= TRIDI_ALG_LU_PARTIAL + 1; ++a) {
    const int want = a == TRIDI_ALG_CR || a == TRIDI_ALG_PCR || a == TRIDI_ALG_CR_PCR;
    if (tridi_alg_requires_dominance((tridi_alg)a) != want)
      tt_fail("tridi_alg_requires_dominance(%d) = %d", a, tridi_alg_requires_dominance((tridi_alg)a));
  }
  const tridi_alg checked[] = {TRIDI_ALG_RD, TRIDI_ALG_CR_RD};
  for (size_t k = 0; k < sizeof checked / sizeof checked[0]; ++k) {
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CPU;
    o.alg = checked[k];
    o.pivot = TRIDI_PIVOT_NONE;
    tt_expect_status(plan_pivot(d, &o, &pv, &alg, &assume), TRIDI_SUCCESS,
                     tridi_alg_name(checked[k]));
  }
  /* a struct of the first release's size (it ended with `flags`) is
   * accepted, and the newer fields behind it are taken as their defaults
   * whatever the memory holds; one byte shorter is refused */
  tridi_options old;
  tridi_options_init(&old);
  old.struct_size = offsetof(tridi_options, flags) + sizeof(unsigned int);
  memset((char *)&old + old.struct_size, 0x5a, sizeof old - old.struct_size);
  if (tt_expect_status(plan_pivot(d, &old, &pv, &alg, &assume), TRIDI_SUCCESS, "old-size options") &&
      (pv != TRIDI_PIVOT_AUTO || assume != 0))
    tt_fail("old-size options: plan pivot %s, assume_dominant %d; expected the defaults",
            tridi_pivot_name(pv), assume);
  old.struct_size -= 1;
  tt_expect_status(plan_pivot(d, &old, &pv, &alg, &assume), TRIDI_ERR_INVALID_OPTION,
                   "options one byte shorter than the first release's");
  /* the current size: the new fields are read */
  tridi_options_init(&o);
  o.pivot = TRIDI_PIVOT_NONE;
  o.assume_dominant = 1;
  if (tt_expect_status(plan_pivot(d, &o, &pv, &alg, &assume), TRIDI_SUCCESS, "new options") &&
      (pv != TRIDI_PIVOT_NONE || assume != 1))
    tt_fail("options: plan pivot %s, assume_dominant %d; expected none, 1", tridi_pivot_name(pv),
            assume);
  /* the names */
  static const char *const names[] = {"auto", "none", "partial"};
  for (int k = 0; k < 3; ++k) {
    tridi_pivot q = (tridi_pivot)99;
    if (tt_expect_status(tridi_pivot_from_name(names[k], &q), TRIDI_SUCCESS, names[k]) &&
        (q != (tridi_pivot)k || strcmp(tridi_pivot_name(q), names[k]) != 0))
      tt_fail("tridi_pivot_from_name(\"%s\") = %d (%s)", names[k], (int)q, tridi_pivot_name(q));
  }
  tridi_pivot q = TRIDI_PIVOT_NONE;
  tt_expect_status(tridi_pivot_from_name("Partial", &q), TRIDI_ERR_INVALID_OPTION, "Partial");
  if (q != TRIDI_PIVOT_NONE) tt_fail("tridi_pivot_from_name changed *pivot on failure");
  tridi_desc_destroy(d);
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_collection),
      TT_TEST(test_interchanges),
      TT_TEST(test_auto),
      TT_TEST(test_precedence),
      TT_TEST(test_options),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
