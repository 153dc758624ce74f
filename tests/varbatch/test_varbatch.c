/* Variable-size batches (TRIDI_KIND_VARIABLE) on the host backends: every
 * length distribution, PACKED and INTERLEAVED, f32/f64, in place and not,
 * against the reference per system (residual, closeness, info, padding and
 * inputs untouched: tt_problem_check); breakdowns reported by their system in
 * the caller's order; every bad argument of tridi_desc_create_variable with
 * its status; overlap rules; the plan's rows and info; thread-count
 * independence.  PACKED lanes that run through system boundaries (the CPU
 * kernel): broken and grown systems among healthy neighbours with garbage in
 * every a_0 and c_{n-1}, a system's bits independent of its neighbours, lane
 * shapes (one long system, length 1 only, empty lanes), x overflowing in the
 * back substitution, on every SIMD level with 1 and 3 threads. */
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
        /* lowest failing system: b_0 = 0 at n = 1; a zero pivot, NaN/Inf in
         * systems of any length */
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

/* Plan P on the CPU Thomas row with each SIMD level this CPU has, 1 and 3
 * threads (TRIDI_PIVOT_NONE: growth flagged, nothing solved again), and
 * check the solve. */
static void solve_cpu_isas(tt_problem *P, tridi_status want, const char *what) {
  const tridi_simd best = tridi_cpu_simd_detect();
  static const tridi_simd levels[3] = {TRIDI_SIMD_PORTABLE, TRIDI_SIMD_AVX2, TRIDI_SIMD_AVX512};
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  char lstr[300], ctx[500];
  tt_problem_str(P, lstr, sizeof lstr);
  for (int li = 0; li < 3; ++li) {
    if (levels[li] != TRIDI_SIMD_PORTABLE && best < levels[li]) continue;
    for (int th = 1; th <= 3; th += 2) {
      tridi_options o;
      tridi_options_init(&o);
      o.backend = TRIDI_BACKEND_CPU;
      o.alg = TRIDI_ALG_THOMAS;
      o.pivot = TRIDI_PIVOT_NONE;
      o.simd = levels[li];
      o.num_threads = th;
      snprintf(ctx, sizeof ctx, "[%s] [cpu/thomas simd %d, %d threads] %s", lstr, (int)levels[li],
               th, what);
      tridi_plan plan;
      if (!tt_expect_status(tt_problem_plan(P, &o, &plan), TRIDI_SUCCESS, ctx)) continue;
      tt_problem_solve_check(P, plan, &I, want, ctx);
      tridi_plan_destroy(plan);
    }
  }
  tt_info_free(&I);
}

/* Growth at row k of system s (1 <= k < n): pivot 1e-3 at row k - 1 (a = 0
 * there), so that a_k c'_{k-1} = 250 and max N_i / max D_i is far above
 * TRIDI_GROWTH_LIMIT. */
static void inject_growth(tt_problem *P, int64_t s, int64_t k) {
  if (k - 1 > 0) tt_problem_set(P, TT_A, s, k - 1, 0.0);
  tt_problem_set(P, TT_B, s, k - 1, 1e-3);
  tt_problem_set(P, TT_C, s, k - 1, 0.5);
  tt_problem_set(P, TT_A, s, k, 0.5);
}

/* PACKED lanes run through system boundaries: breakdowns and growth in
 * systems whose neighbours (in the same lane, or across a lane, group or
 * thread boundary) are healthy; the healthy ones must be solved with info 0
 * and the others get their exact codes.  Many short systems (several a lane)
 * and runs of consecutive bad ones; garbage (huge, Inf, NaN, plausible) in
 * every a_0 and c_{n-1}; every SIMD level, 1 and 3 threads. */
static void test_packed_neighbours(void **state) {
  (void)state;
  static const double garbage[4] = {1e30, -INFINITY, NAN, 0.75};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int inplace = 0; inplace < 2; ++inplace)
      for (int L = 6; L <= 60; L *= 10) {
        tt_rng r;
        tt_rng_init(&r, tt_case_seed("var_nb", k));
        const int64_t B = 700;
        int64_t len[700];
        tt_var_lengths(len, B, TT_VAR_UNIFORM, L, &r);
        tt_problem P;
        if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_PACKED, B, len, 0, 0,
                                inplace, tt_case_seed("var_nb_p", k++)))
          continue;
        int32_t want[700];
        for (int64_t s = 0; s < B; ++s) want[s] = 0;
        for (int64_t s = 0; s < B; ++s) {
          tt_problem_set(&P, TT_A, s, 0, garbage[s % 4]);
          tt_problem_set(&P, TT_C, s, len[s] - 1, garbage[(s + 1) % 4]);
        }
        /* every 5th system broken or grown, in turn: zero pivot at row 0, at
         * the last row, in the middle; NaN / Inf in each operand; growth;
         * and a run of three consecutive broken systems */
        for (int64_t s = 2, j = 0; s < B; s += 5, ++j) {
          const int64_t n = len[s];
          switch (j % 8) {
            case 0:
              want[s] = tt_problem_zero_pivot(&P, s, 0);
              break;
            case 1:
              want[s] = tt_problem_zero_pivot(&P, s, n - 1);
              break;
            case 2:
              want[s] = tt_problem_zero_pivot(&P, s, n / 2);
              break;
            case 3:
              want[s] = tt_problem_nonfinite(&P, s, TT_D, n - 1, NAN);
              break;
            case 4:
              want[s] = tt_problem_nonfinite(&P, s, TT_B, n / 2, INFINITY);
              break;
            case 5:
              want[s] = n > 1 ? tt_problem_nonfinite(&P, s, TT_A, n - 1, NAN) : 0;
              break;
            case 6:
              if (n >= 2) {
                inject_growth(&P, s, n - 1);
                want[s] = TRIDI_INFO_INACCURATE;
              }
              break;
            default:
              for (int64_t q = s; q < s + 3 && q < B; ++q)
                want[q] = tt_problem_nonfinite(&P, q, TT_C, 0, -INFINITY);
              break;
          }
        }
        tt_problem_oracle(&P);
        for (int64_t s = 0; s < B; ++s)
          if (P.ref_info[s] != want[s])
            tt_fail("system %" PRId64 " (n = %" PRId64 "): reference info %d, expected %d", s,
                    len[s], (int)P.ref_info[s], (int)want[s]);
        solve_cpu_isas(&P, tt_problem_expected_status(&P), "neighbours");
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

/* A system's x and info do not depend on its neighbours: the same batch
 * solved with broken and grown systems (and other garbage in a_0, c_{n-1})
 * and without them gives the healthy systems the same bits, on every SIMD
 * level and thread count.  (A healthy system taken for broken would be
 * solved again by the reference, whose bits differ from the AVX-512 FMA
 * kernel's.) */
static void test_packed_independence(void **state) {
  (void)state;
  const tridi_simd best = tridi_cpu_simd_detect();
  static const tridi_simd levels[3] = {TRIDI_SIMD_PORTABLE, TRIDI_SIMD_AVX2, TRIDI_SIMD_AVX512};
  for (int t = 0; t < 2; ++t) {
    tt_rng r;
    tt_rng_init(&r, tt_case_seed("var_ind", (uint64_t)t));
    const int64_t B = 600;
    int64_t len[600];
    tt_var_lengths(len, B, TT_VAR_UNIFORM, 12, &r);
    tt_problem P, Q;
    const uint64_t seed = tt_case_seed("var_ind_p", (uint64_t)t);
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    if (tt_var_problem_init(&P, dt, TRIDI_VAR_PACKED, B, len, 0, 0, 0, seed)) continue;
    if (tt_var_problem_init(&Q, dt, TRIDI_VAR_PACKED, B, len, 0, 0, 0, seed)) {
      tt_problem_free(&P);
      continue;
    }
    for (int64_t s = 0; s < B; ++s) {
      tt_problem_set(&P, TT_A, s, 0, s % 2 ? 1e30 : -INFINITY);
      tt_problem_set(&P, TT_C, s, len[s] - 1, s % 2 ? -INFINITY : 1e30);
    }
    for (int64_t s = 1, j = 0; s < B; s += 4, ++j) {
      if (j % 3 == 0)
        tt_problem_zero_pivot(&P, s, len[s] / 2);
      else if (j % 3 == 1)
        tt_problem_nonfinite(&P, s, TT_D, len[s] - 1, NAN);
      else if (len[s] >= 2)
        inject_growth(&P, s, len[s] - 1);
    }
    tt_problem_oracle(&P);
    int32_t *ip = malloc((size_t)B * sizeof *ip), *iq = malloc((size_t)B * sizeof *iq);
    assert_non_null(ip);
    assert_non_null(iq);
    for (int li = 0; li < 3; ++li) {
      if (levels[li] != TRIDI_SIMD_PORTABLE && best < levels[li]) continue;
      for (int th = 1; th <= 3; th += 2) {
        tridi_options o;
        tridi_options_init(&o);
        o.backend = TRIDI_BACKEND_CPU;
        o.alg = TRIDI_ALG_THOMAS;
        o.pivot = TRIDI_PIVOT_NONE;
        o.simd = levels[li];
        o.num_threads = th;
        tridi_plan plan;
        if (!tt_expect_status(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS, "independence"))
          continue;
        tt_problem_reset(&P);
        tt_problem_reset(&Q);
        tt_problem_execute(&P, plan, ip);
        tt_expect_status(tt_problem_execute(&Q, plan, iq), TRIDI_SUCCESS, "independence");
        tridi_plan_destroy(plan);
        const tt_buf *xp = tt_xbuf(&P), *xq = tt_xbuf(&Q);
        int64_t bad = 0;
        for (int64_t s = 0; s < B; ++s) {
          if (P.ref_info[s] != 0) continue;
          int same = ip[s] == 0 && iq[s] == 0;
          for (int64_t i = 0; i < len[s] && same; ++i) {
            const int64_t j = tt_elem_index(&P, TT_X, s, i);
            same = memcmp(xp->mem + j * (int64_t)P.es, xq->mem + j * (int64_t)P.es, P.es) == 0;
          }
          if (!same && bad++ < 3)
            tt_fail("%s simd %d, %d threads: system %" PRId64 " (n = %" PRId64
                    ") differs with "
                    "its neighbours broken (info %d / %d)",
                    t ? "f64" : "f32", (int)levels[li], th, s, len[s], (int)ip[s], (int)iq[s]);
        }
      }
    }
    free(ip);
    free(iq);
    tt_problem_free(&P);
    tt_problem_free(&Q);
  }
  tt_assert_no_failures();
}

/* x overflowing in the back substitution (a finite forward sweep) in
 * systems among healthy neighbours: a = 0, b = 1e-3, c = 0.5 on every row
 * makes c' = 500, so x grows 500-fold a row upwards and overflows far above
 * the last row; the code is the reference's -(i + 1) of the highest
 * non-finite x_i, the neighbours are solved with info 0.  Every SIMD level,
 * 1 and 3 threads. */
static void test_packed_overflow(void **state) {
  (void)state;
  for (int t = 0; t < 2; ++t) {
    const int64_t B = 400, nlong = t ? 160 : 40; /* 500^k overflows at k ~ 114 (f64), 14 (f32) */
    int64_t len[400];
    for (int64_t s = 0; s < B; ++s) len[s] = s % 37 == 5 ? nlong : 1 + (s * 7919) % 30;
    tt_problem P;
    if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_PACKED, B, len, 0, 0, 0,
                            tt_case_seed("var_ovf_p", (uint64_t)t)))
      continue;
    for (int64_t s = 5; s < B; s += 37)
      for (int64_t i = 0; i < nlong; ++i) {
        if (i > 0) tt_problem_set(&P, TT_A, s, i, 0.0);
        tt_problem_set(&P, TT_B, s, i, 1e-3);
        if (i < nlong - 1) tt_problem_set(&P, TT_C, s, i, 0.5);
        tt_problem_set(&P, TT_D, s, i, 1.0);
      }
    tt_problem_oracle(&P);
    for (int64_t s = 0; s < B; ++s) {
      const int over = s % 37 == 5;
      const int32_t ri = P.ref_info[s];
      if (over ? !(ri < 0 && ri > -(nlong - 1)) : ri != 0)
        tt_fail("%s system %" PRId64 ": reference info %d, expected %s", t ? "f64" : "f32", s,
                (int)ri, over ? "an overflow above the last row" : "0");
    }
    solve_cpu_isas(&P, tt_problem_expected_status(&P), "overflow");
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* PACKED lane shapes: one system longer than any lane target, a long one
 * among short ones, systems of length 1 only (every a and c ignored), a few
 * short systems (most lanes of the group empty), and a batch large enough
 * for lanes of the full target; each healthy and with its first and last
 * systems broken. */
static void test_packed_shapes(void **state) {
  (void)state;
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int shape = 0; shape < 5; ++shape)
      for (int bad = 0; bad < 2; ++bad) {
        static int64_t len[40000];
        int64_t B;
        switch (shape) {
          case 0:
            B = 1, len[0] = 20000;
            break;
          case 1:
            B = 3000;
            for (int64_t s = 0; s < B; ++s) len[s] = 1 + s % 9;
            len[1234] = 9000;
            break;
          case 2:
            B = 3000;
            for (int64_t s = 0; s < B; ++s) len[s] = 1;
            break;
          case 3:
            B = 5, len[0] = 3, len[1] = 1, len[2] = 40, len[3] = 2, len[4] = 17;
            break;
          default: /* a batch whose lanes reach the full target of rows */
            B = 40000;
            for (int64_t s = 0; s < B; ++s) len[s] = 1 + (s * 7919) % 30;
            break;
        }
        tt_problem P;
        if (tt_var_problem_init(&P, t ? TRIDI_F64 : TRIDI_F32, TRIDI_VAR_PACKED, B, len, 0, 0, bad,
                                tt_case_seed("var_shape_p", k++)))
          continue;
        if (bad) {
          tt_problem_zero_pivot(&P, 0, len[0] / 2);
          if (B > 1) tt_problem_nonfinite(&P, B - 1, TT_D, 0, NAN);
          tt_problem_oracle(&P);
        }
        solve_cpu_isas(&P, tt_problem_expected_status(&P), "shapes");
        /* (the pivoting configurations' lowest failing system differs) */
        if (!bad) solve_all_configs(&P, TRIDI_SUCCESS, "shapes");
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
      TT_TEST(test_packed_neighbours),
      TT_TEST(test_packed_independence),
      TT_TEST(test_packed_shapes),
      TT_TEST(test_packed_overflow),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
