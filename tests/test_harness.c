/* The harness itself (tests/support): a checker that cannot fail would make
 * every suite pass, so each check is shown to catch the fault it is for;
 * the generators and breakdown injections give what they promise; and a
 * system set of mixed lengths (what a variable-size batch maps to, in its
 * packed and padded interleaved layouts) is built, solved system by system
 * through the scalar API, and checked, padding rows included. */
#include "tt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run `expr` (a check) quietly and expect it to record at least one failure. */
#define EXPECT_CAUGHT(expr, what)                                                   \
  do {                                                                              \
    const int q_ = tt_set_quiet(1);                                                 \
    const long before_ = tt_failures();                                             \
    (void)(expr);                                                                   \
    const long caught_ = tt_failures() - before_;                                   \
    tt_reset_failures();                                                            \
    tt_set_quiet(q_);                                                               \
    if (caught_ == 0) caught_nothing(what);                                         \
  } while (0)

static long g_missed = 0;
static void caught_nothing(const char *what) {
  fprintf(stderr, "[tridi-test] the checker did not catch: %s\n", what);
  ++g_missed;
}

/* ---- the checker catches what it is for -------------------------------------- */

static void test_checker_catches(void **state) {
  (void)state;
  for (int t = 0; t < 2; ++t) {
    const int64_t n = 17, B = 5;
    const int64_t shape[] = {B, n}, st[] = {n + 3, 1};
    tt_layout L;
    tt_layout_shared(&L, "padded rows", t ? TRIDI_F64 : TRIDI_F32, 2, shape, 1, st);
    tt_problem P;
    assert_int_equal(tt_problem_init(&P, &L, tt_case_seed("harness", (uint64_t)t), NULL), 0);
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    tridi_plan plan;
    assert_int_equal(tt_problem_plan(&P, NULL, &plan), TRIDI_SUCCESS);
    char ctx[256];
    tt_problem_str(&P, ctx, sizeof ctx);
    /* a correct solve passes (failures here fail the test) */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    assert_int_equal(tt_failures(), 0);
    unsigned char *xm = tt_xbuf(&P)->mem;
    const size_t es = P.es;
    const int64_t j = tt_elem_index(&P, TT_X, 2, 5);
    /* a described element of x left unwritten (poison) */
    tt_poison(xm + j * (int64_t)es, es, 1);
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "x element not written");
    /* a wrong value: relative error 1e-3 */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    tt_store(xm, es, j, tt_load(xm, es, j) * (1 + 1e-3) + 1e-3);
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "wrong x element");
    /* a wrong value just above the residual bound, in the last system */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    const int64_t jl = tt_elem_index(&P, TT_X, B - 1, n - 1);
    tt_store(xm, es, jl, tt_load(xm, es, jl) + 40.0 * (double)n * (t ? DBL_EPSILON : FLT_EPSILON));
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "x error of 40 n eps");
    /* an element of x outside the described ones (row padding) */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    xm[(tt_elem_index(&P, TT_X, 1, n - 1) + 1) * (int64_t)es] ^= 1;
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "x padding written");
    /* the guard before x */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    xm[0] ^= 1;
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "x guard written");
    /* an input modified, described or padding */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    P.buf[TT_B].mem[tt_elem_index(&P, TT_B, 3, 0) * (int64_t)es] ^= 1;
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "input b modified");
    tt_problem_reset(&P);
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, NULL), "nothing solved");
    /* info */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    I.info[1] = 3;
    EXPECT_CAUGHT(tt_problem_check(&P, ctx, I.info), "wrong info");
    I.info[1] = 0;
    I.info[P.nsys] = 0;
    EXPECT_CAUGHT(tt_info_guards_ok(&I, ctx), "info guard written");
    /* a call that must write nothing */
    tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
    EXPECT_CAUGHT(tt_problem_check_untouched(&P, ctx), "x written where nothing may be");
    /* statuses */
    EXPECT_CAUGHT(tt_expect_status(TRIDI_SUCCESS, TRIDI_ERR_ZERO_PIVOT, ctx), "status");
    tridi_plan_destroy(plan);
    tt_info_free(&I);
    tt_problem_free(&P);
  }
  if (g_missed) fail_msg("%ld fault(s) not caught by the checker", g_missed);
  tt_assert_no_failures();
}

/* ---- generators and injections ------------------------------------------------- */

static void test_generators(void **state) {
  (void)state;
  static const int64_t ns[] = {1, 2, 3, 33, 1000};
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in)
      for (int lay = 0; lay < 2; ++lay) {
        const int64_t n = ns[in];
        const uint64_t seed = tt_case_seed("generators", k++);
        tt_rng r;
        tt_rng_init(&r, seed);
        tt_layout L;
        if (lay) tt_build_interleaved(&L, t ? TRIDI_F64 : TRIDI_F32, n, 9, &r);
        else tt_build_contiguous(&L, t ? TRIDI_F64 : TRIDI_F32, n, 9, &r);
        tt_problem P;
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        char lstr[300], ctx[400];
        tt_problem_str(&P, lstr, sizeof lstr);
        /* weakly dominant: |b| = |a| + |c| exactly (row 0 strictly), no
         * breakdown, every configuration within the residual bound */
        tt_problem_fill_weak(&P, seed);
        for (int64_t s = 0; s < P.nsys; ++s) {
          for (int64_t i = 0; i < n; ++i) {
            const double a = i > 0 ? fabs(tt_problem_get_orig(&P, TT_A, s, i)) : 0;
            const double c = i < n - 1 ? fabs(tt_problem_get_orig(&P, TT_C, s, i)) : 0;
            const double b = fabs(tt_problem_get_orig(&P, TT_B, s, i));
            if (b != a + c + (i == 0 ? 0.5 : 0.0)) {
              tt_fail("[%s] weak: row %" PRId64 " of system %" PRId64 ": |b| %.17g, |a|+|c| %.17g",
                      lstr, i, s, b, a + c);
              break;
            }
          }
          if (P.ref_info[s]) tt_fail("[%s] weak: reference info %d", lstr, (int)P.ref_info[s]);
        }
        tt_info I;
        tt_info_alloc(&I, P.nsys);
        for (int c = 0; c < nc; ++c) {
          snprintf(ctx, sizeof ctx, "[%s weak] [%s]", lstr, cfg[c].name);
          tridi_plan plan;
          if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                                TRIDI_SUCCESS, ctx))
            continue;
          tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
          tridi_plan_destroy(plan);
        }
        /* injections: the reference solver gives the promised codes */
        tt_problem_fill_dominant(&P, seed);
        int32_t want[9] = {0};
        want[0] = tt_problem_zero_pivot(&P, 0, 0);
        want[1] = tt_problem_zero_pivot(&P, 1, n - 1);
        want[2] = tt_problem_zero_pivot(&P, 2, n / 2);
        want[3] = tt_problem_nonfinite(&P, 3, TT_D, n - 1, NAN);
        want[4] = tt_problem_nonfinite(&P, 4, TT_B, 0, INFINITY);
        want[5] = tt_problem_nonfinite(&P, 5, TT_A, n / 2, -INFINITY);
        want[6] = tt_problem_nonfinite(&P, 6, TT_C, 0, NAN);
        if (tt_problem_nonfinite(&P, 7, TT_A, 0, NAN) || tt_problem_nonfinite(&P, 7, TT_C, n - 1, NAN))
          tt_fail("[%s] an injection into the ignored a_0 or c_{n-1} was accepted", lstr);
        tt_problem_oracle(&P);
        for (int s = 0; s < 9; ++s)
          if (P.ref_info[s] != want[s])
            tt_fail("[%s] injection into system %d: reference info %d, promised %d", lstr, s,
                    (int)P.ref_info[s], (int)want[s]);
        const tridi_status want_st = tt_problem_expected_status(&P);
        for (int c = 0; c < nc; ++c) {
          snprintf(ctx, sizeof ctx, "[%s injections] [%s]", lstr, cfg[c].name);
          tridi_plan plan;
          if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                                TRIDI_SUCCESS, ctx))
            continue;
          tt_problem_solve_check(&P, plan, &I, want_st, ctx);
          tridi_plan_destroy(plan);
        }
        tt_info_free(&I);
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

/* ---- mixed lengths: what a variable-size batch maps to -------------------------- */

/* No descriptor for this kind: the library has none yet; these problems are
 * solved system by system below. */
static tridi_status var_make_desc(const tt_problem *P, tridi_desc *desc) {
  (void)P;
  *desc = NULL;
  return TRIDI_ERR_NOT_SUPPORTED;
}
static const tt_kind var_kind = {.name = "mixed lengths", .make_desc = var_make_desc};

/* Solve each system with a rank-1 scalar plan at its own offsets. */
static tridi_status solve_each(const tt_problem *P, const tridi_options *o, int32_t *info) {
  tridi_status first = TRIDI_SUCCESS;
  for (int64_t s = 0; s < P->nsys; ++s) {
    const tt_sys *S = &P->sys[s];
    tridi_desc d = NULL;
    tridi_status st = tridi_desc_create(&d, P->dtype, 1, &S->n, 0);
    for (int op = 0; op < TT_NOPS && !st; ++op)
      st = tridi_desc_set_strides(d, (tridi_operand)op, &S->inc[op]);
    tridi_plan plan = NULL;
    if (!st) st = tridi_plan_create(&plan, d, o);
    tridi_desc_destroy(d);
    if (st) return st;
    const void *p[TT_NOPS];
    for (int op = 0; op < TT_NOPS; ++op)
      p[op] = (const char *)tt_ptr(P, op) + S->off[op] * (int64_t)P->es;
    st = tridi_execute(plan, p[0], p[1], p[2], p[3], (void *)p[4], info ? info + s : NULL, NULL);
    tridi_plan_destroy(plan);
    if (st && !first) first = st;
  }
  return first;
}

static void test_mixed_lengths(void **state) {
  (void)state;
  static const int64_t lens[] = {1, 2, 3, 1000, 64, 17, 3, 1, 255, 2, 33};
  const int64_t B = (int64_t)(sizeof lens / sizeof lens[0]);
  int64_t nmax = 0;
  for (int64_t s = 0; s < B; ++s) nmax = lens[s] > nmax ? lens[s] : nmax;
  tt_sys sys[sizeof lens / sizeof lens[0]];
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 2; ++lay)
      for (int inplace = 0; inplace < 2; ++inplace) {
        /* packed: one after another; padded interleaved: (s, i) at i*ld + s */
        const int64_t ld = B + 2;
        int64_t off = 0;
        for (int64_t s = 0; s < B; ++s) {
          sys[s].n = lens[s];
          for (int op = 0; op < TT_NOPS; ++op) {
            sys[s].off[op] = lay ? s : off;
            sys[s].inc[op] = lay ? ld : 1;
          }
          off += lens[s];
        }
        const tt_problem_spec spec = {.kind = &var_kind,
                                      .name = lay ? "mixed lengths, padded interleaved"
                                                  : "mixed lengths, packed",
                                      .dtype = t ? TRIDI_F64 : TRIDI_F32,
                                      .inplace = inplace,
                                      .nsys = B,
                                      .sys = sys};
        tt_problem P;
        if (tt_problem_init_sys(&P, &spec, tt_case_seed("mixed", k++), NULL)) continue;
        char lstr[300], ctx[400];
        tt_problem_str(&P, lstr, sizeof lstr);
        if (P.n != nmax || P.rows != off) tt_fail("[%s] n %" PRId64 " rows %" PRId64, lstr, P.n, P.rows);
        /* a plan of this kind is refused (the kind's descriptor) */
        tridi_plan none;
        tt_expect_status(tt_problem_plan(&P, NULL, &none), TRIDI_ERR_NOT_SUPPORTED, lstr);
        tt_problem_set(&P, TT_D, 5, 7, NAN); /* one breakdown, reported by its system */
        tt_problem_oracle(&P);
        tt_info I;
        tt_info_alloc(&I, P.nsys);
        for (int c = 0; c < nc; ++c) {
          if (cfg[c].null_opts) continue;
          snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
          tt_problem_reset(&P);
          tt_info_poison(&I);
          tt_expect_status(solve_each(&P, &cfg[c].opts, I.info), TRIDI_ERR_NONFINITE, ctx);
          tt_problem_check(&P, ctx, I.info);
          tt_info_guards_ok(&I, ctx);
          if (I.info[5] != -8) tt_fail("%s: info[5] = %d, expected -8", ctx, (int)I.info[5]);
        }
        /* the padding rows of a short system (i >= n_s) must stay untouched */
        if (lay && !inplace) {
          unsigned char *xm = tt_xbuf(&P)->mem;
          const int64_t j = tt_elem_index(&P, TT_X, 0, 0) + ld; /* row 1 of system 0 (n = 1) */
          xm[j * (int64_t)P.es] ^= 1;
          EXPECT_CAUGHT(tt_problem_check(&P, lstr, I.info), "padding row of a short system written");
        }
        tt_info_free(&I);
        tt_problem_free(&P);
      }
  if (g_missed) fail_msg("%ld fault(s) not caught by the checker", g_missed);
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_checker_catches),
      TT_TEST(test_generators),
      TT_TEST(test_mixed_lengths),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
