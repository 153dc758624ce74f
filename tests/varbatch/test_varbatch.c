/* Variable-size batches (TRIDI_KIND_VARIABLE) on the host backends: every
 * length distribution, PACKED and INTERLEAVED, f32/f64, in place and not,
 * against the reference per system (residual, closeness, info, padding and
 * inputs untouched: tt_problem_check); breakdowns reported by their system in
 * the caller's order (the CPU kernel sorts systems by length); every bad
 * argument of tridi_desc_create_variable with its status; overlap rules; the
 * plan's rows and info; thread-count independence. */
#include "tt.h"
#include "tt_variable.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tridi_var_layout k_layouts[2] = {TRIDI_VAR_PACKED, TRIDI_VAR_INTERLEAVED};

/* Plan P with every host configuration and check the solve. */
static void solve_all_configs(tt_problem *P, tridi_status want, const char *what) {
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  char lstr[300], ctx[500];
  tt_problem_str(P, lstr, sizeof lstr);
  for (int c = 0; c < nc; ++c) {
    snprintf(ctx, sizeof ctx, "[%s] [%s] %s", lstr, cfg[c].name, what);
    tridi_plan plan;
    if (!tt_expect_status(tt_problem_plan(P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                          TRIDI_SUCCESS, ctx))
      continue;
    tt_problem_solve_check(P, plan, &I, want, ctx);
    tridi_plan_destroy(plan);
  }
  tt_info_free(&I);
}

static void test_distributions(void **state) {
  (void)state;
  static const int64_t Ls[] = {5, 40, 300};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 2; ++li)
      for (int d = 0; d < TT_VAR_NDIST; ++d)
        for (size_t l = 0; l < sizeof Ls / sizeof Ls[0]; ++l)
          for (int inplace = 0; inplace < 2; ++inplace) {
            tt_rng r;
            tt_rng_init(&r, tt_case_seed("var_dist", k));
            const int64_t L = Ls[l];
            const int64_t B = L >= 300 ? 37 + tt_rng_int(&r, 0, 40) : 150 + tt_rng_int(&r, 0, 100);
            int64_t *len = malloc((size_t)B * sizeof *len);
            assert_non_null(len);
            tt_var_lengths(len, B, (tt_var_dist)d, L, &r);
            tt_problem P;
            const int rc = tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, k_layouts[li], B, len,
                                               tt_rng_int(&r, 0, 5), tt_rng_int(&r, 0, 3), inplace,
                                               tt_case_seed("var_dist_p", k++));
            free(len);
            if (rc) continue;
            solve_all_configs(&P, TRIDI_SUCCESS, tt_var_dist_name((tt_var_dist)d));
            tt_problem_free(&P);
          }
  tt_assert_no_failures();
}

/* Breakdowns in chosen systems: zero pivots and NaN/Inf inputs, reported in
 * the caller's numbering whatever order the kernel solved them in. */
static void test_breakdown(void **state) {
  (void)state;
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 2; ++li)
      for (int inplace = 0; inplace < 2; ++inplace) {
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("var_bd", k));
        const int64_t B = 200;
        int64_t len[200];
        tt_var_lengths(len, B, TT_VAR_UNIFORM, 30, &r);
        len[3] = 1;
        len[7] = 2;
        tt_problem P;
        if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, k_layouts[li], B, len, 2, 1, inplace,
                                tt_case_seed("var_bd_p", k++)))
          continue;
        /* lowest failing system: a zero pivot in a short system at the end
         * of the sorted order; NaN/Inf in a long one; b_0 = 0 at n = 1 */
        int32_t want[6];
        int64_t who[6];
        who[0] = 3; /* n = 1: b_0 = 0 */
        want[0] = tt_problem_zero_pivot(&P, 3, 0);
        who[1] = 7; /* n = 2: NaN d_1 */
        want[1] = tt_problem_nonfinite(&P, 7, TT_D, 1, NAN);
        int64_t s2 = 10;
        while (len[s2] < 8) ++s2;
        who[2] = s2;
        want[2] = tt_problem_zero_pivot(&P, s2, len[s2] / 2);
        int64_t s3 = s2 + 1;
        while (len[s3] < 3) ++s3;
        who[3] = s3;
        want[3] = tt_problem_nonfinite(&P, s3, TT_B, len[s3] - 1, INFINITY);
        int64_t s4 = s3 + 1;
        while (len[s4] < 3) ++s4;
        who[4] = s4;
        want[4] = tt_problem_nonfinite(&P, s4, TT_A, 1, -INFINITY);
        who[5] = B - 1;
        want[5] = tt_problem_nonfinite(&P, B - 1, TT_C, 0, NAN);
        if (len[B - 1] == 1) want[5] = 0; /* c_{n-1} is ignored */
        tt_problem_oracle(&P);
        for (int i = 0; i < 6; ++i)
          if (P.ref_info[who[i]] != want[i])
            tt_fail("injection %d: reference info of system %" PRId64 " is %d, expected %d", i,
                    who[i], (int)P.ref_info[who[i]], (int)want[i]);
        solve_all_configs(&P, tt_problem_expected_status(&P), "breakdown");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

/* the call's status, and a last error that names `word` ("" for none) */
static void expect(tridi_status got, tridi_status want, const char *word, const char *call) {
  tt_expect_status(got, want, call);
  if (word[0] && !strstr(tridi_last_error(), word))
    tt_fail("%s: tridi_last_error() = \"%s\" does not name \"%s\"", call, tridi_last_error(), word);
}
#define EXPECT(call, want, word) expect((call), (want), (word) ? (word) : "", #call)

static void test_desc_args(void **state) {
  (void)state;
  tridi_desc d = (tridi_desc)1;
  const int64_t len[4] = {3, 1, 7, 2}, zero[2] = {4, 0}, neg[2] = {4, -2};
  const int64_t huge[2] = {INT64_MAX, 2};
  EXPECT(tridi_desc_create_variable(NULL, TRIDI_F64, 4, len, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_NULL_POINTER, "desc");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, NULL, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_NULL_POINTER, "lengths");
  if (d != NULL) tt_fail("desc not set to NULL on failure");
  EXPECT(tridi_desc_create_variable(&d, (tridi_dtype)9, 4, len, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_INVALID_DTYPE, "dtype");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_C64, 4, len, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_NOT_SUPPORTED, "complex");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, -1, len, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_INVALID_SHAPE, "num_systems");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 2, zero, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_INVALID_SHAPE, "lengths[1] = 0");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 2, neg, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_INVALID_SHAPE, "lengths[1] = -2");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 2, huge, TRIDI_VAR_PACKED, 0, 0),
         TRIDI_ERR_INVALID_SHAPE, "overflow");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, len, (tridi_var_layout)7, 0, 0),
         TRIDI_ERR_INVALID_OPTION, "layout");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, len, TRIDI_VAR_PACKED, 7, 0),
         TRIDI_ERR_INVALID_STRIDE, "rows");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, len, TRIDI_VAR_PACKED, 0, 4),
         TRIDI_ERR_INVALID_STRIDE, "ld");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, len, TRIDI_VAR_INTERLEAVED, 7, 3),
         TRIDI_ERR_INVALID_STRIDE, "ld = 3");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, len, TRIDI_VAR_INTERLEAVED, 6, 4),
         TRIDI_ERR_INVALID_SHAPE, "exceeds the padded extent");
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 4, len, TRIDI_VAR_INTERLEAVED, INT64_MAX / 2, 4),
         TRIDI_ERR_INVALID_SHAPE, "overflows");
  /* valid ones, and what a variable descriptor refuses */
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 0, NULL, TRIDI_VAR_PACKED, 0, 0), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F32, 4, len, TRIDI_VAR_INTERLEAVED, 7, 4), TRIDI_SUCCESS,
         NULL);
  const int64_t st[1] = {1};
  EXPECT(tridi_desc_set_strides(d, TRIDI_OP_A, st), TRIDI_ERR_NOT_SUPPORTED, "variable");
  EXPECT(tridi_desc_set_all_strides(d, st), TRIDI_ERR_NOT_SUPPORTED, "variable");
  EXPECT(tridi_desc_set_kind(d, TRIDI_KIND_SCALAR), TRIDI_ERR_NOT_SUPPORTED, "kind");
  int64_t ns = 0;
  EXPECT(tridi_desc_num_systems(d, &ns), TRIDI_SUCCESS, NULL);
  if (ns != 4) tt_fail("tridi_desc_num_systems = %" PRId64 ", expected 4", ns);
  /* the plan: info, and its independence from the descriptor */
  tridi_plan plan;
  EXPECT(tridi_plan_create(&plan, d, NULL), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  EXPECT(tridi_plan_get_info(plan, &pi), TRIDI_SUCCESS, NULL);
  if (pi.kind != TRIDI_KIND_VARIABLE || pi.n != 7 || pi.num_systems != 4 || pi.unknowns != 13)
    tt_fail("plan info: kind %d n %" PRId64 " systems %" PRId64 " unknowns %" PRId64, (int)pi.kind,
            pi.n, pi.num_systems, pi.unknowns);
  if (!pi.selection || !strstr(pi.selection, "cpu_var_thomas: chosen"))
    tt_fail("plan selection \"%s\" does not choose cpu_var_thomas", pi.selection ? pi.selection : "");
  tridi_plan_destroy(plan);
  tt_assert_no_failures();
}

static void test_overlap_and_empty(void **state) {
  (void)state;
  const int64_t len[3] = {4, 2, 5}; /* 11 unknowns */
  tridi_desc d;
  tridi_plan plan;
  double buf[64]; /* a, b, c, d of 11 unknowns at 0, 11, 22, 33: dominant */
  for (int i = 0; i < 64; ++i) buf[i] = (i >= 11 && i < 22) ? 4.0 : 0.5;
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 3, len, TRIDI_VAR_PACKED, 0, 0), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_plan_create(&plan, d, NULL), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  /* x overlapping a (by one element), and x == d accepted */
  EXPECT(tridi_execute(plan, buf, buf + 11, buf + 22, buf + 33, buf + 10, NULL, NULL), TRIDI_ERR_OVERLAP,
         "x overlaps a");
  EXPECT(tridi_execute(plan, buf, buf + 11, buf + 22, buf + 33, buf + 33, NULL, NULL), TRIDI_SUCCESS, NULL);
  tridi_plan_destroy(plan);
  /* two interleaved batches in one array of pitch 2B: x beside a, accepted */
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 3, len, TRIDI_VAR_INTERLEAVED, 5, 6), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_plan_create(&plan, d, NULL), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  double ab[30], bb[30], cb[30], db[30];
  for (int i = 0; i < 30; ++i) {
    ab[i] = cb[i] = 0.5;
    bb[i] = 4.0;
    db[i] = 1.0;
  }
  EXPECT(tridi_execute(plan, ab, bb, cb, db, ab + 3, NULL, NULL), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_execute(plan, ab, bb, cb, db, ab + 2, NULL, NULL), TRIDI_ERR_OVERLAP, "x overlaps a");
  tridi_plan_destroy(plan);
  /* x right after a's highest described element (system 0, the longest,
   * ends at (5 - 1) * 5 + 0 = 20; the last system at (4 - 1) * 5 + 2 = 17) */
  const int64_t len2[3] = {5, 2, 4};
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F64, 3, len2, TRIDI_VAR_INTERLEAVED, 5, 5), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_plan_create(&plan, d, NULL), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  double arr[21 + 21];
  for (int i = 0; i < 42; ++i) arr[i] = 0.5;
  EXPECT(tridi_execute(plan, arr, bb, cb, db, arr + 21, NULL, NULL), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_execute(plan, arr, bb, cb, db, arr + 20, NULL, NULL), TRIDI_ERR_OVERLAP, "x overlaps a");
  tridi_plan_destroy(plan);
  /* the empty batch: plans, executes, touches nothing */
  EXPECT(tridi_desc_create_variable(&d, TRIDI_F32, 0, NULL, TRIDI_VAR_PACKED, 0, 0), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_plan_create(&plan, d, NULL), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  float one = 1.0f;
  EXPECT(tridi_execute(plan, &one, &one, &one, &one, &one, NULL, NULL), TRIDI_SUCCESS, NULL);
  if (one != 1.0f) tt_fail("the empty batch wrote x");
  tridi_plan_destroy(plan);
  tt_assert_no_failures();
}

/* The same bits with 1, 2 and 3 threads (the groups do not depend on them). */
static void test_threads(void **state) {
  (void)state;
  for (int li = 0; li < 2; ++li) {
    tt_rng r;
    tt_rng_init(&r, tt_case_seed("var_thr", (uint64_t)li));
    int64_t len[500];
    tt_var_lengths(len, 500, TT_VAR_BIMODAL, 60, &r);
    tt_problem P;
    if (tt_var_problem_init(&P, TRIDI_F32, k_layouts[li], 500, len, 3, 0, 0, tt_case_seed("var_thr_p", (uint64_t)li)))
      continue;
    unsigned char *first = NULL;
    const tt_buf *xb = tt_xbuf(&P);
    for (int th = 1; th <= 3; ++th) {
      tridi_options o;
      tridi_options_init(&o);
      o.num_threads = th;
      tridi_plan plan;
      if (!tt_expect_status(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS, "threads")) continue;
      tt_problem_reset(&P);
      tt_expect_status(tt_problem_execute(&P, plan, NULL), TRIDI_SUCCESS, "threads");
      tridi_plan_destroy(plan);
      const size_t bytes = (size_t)xb->len * P.es;
      if (!first) {
        first = malloc(bytes);
        assert_non_null(first);
        memcpy(first, xb->mem, bytes);
      } else if (memcmp(first, xb->mem, bytes) != 0) {
        tt_fail("layout %d: %d threads give other bits than 1 thread", li, th);
      }
    }
    free(first);
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_distributions),
      TT_TEST(test_breakdown),
      TT_TEST(test_desc_args),
      TT_TEST(test_overlap_and_empty),
      TT_TEST(test_threads),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
