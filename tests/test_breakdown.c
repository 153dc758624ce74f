/* Numerical breakdown: zero pivots (info = row, 1-based) and NaN/Inf inputs
 * or results (info = -row) in chosen systems of a batch.  For every host
 * configuration and several layouts: info is right on exactly those systems,
 * the status is the kind of the lowest-numbered failing system, every other
 * system is solved correctly, and the same with info = NULL.  With
 * pivoting (TRIDI_PIVOT_PARTIAL, and TRIDI_PIVOT_AUTO solving the failed
 * systems again out of place) "right" is the pivoting oracle's info and x:
 * the zero pivots injected here are not singular.  a[0] and
 * c[n-1] are NaN in every system (they must be ignored). */
#include "tt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum kind {
  ZP_B0,     /* b_0 = 0, c_0 != 0: info 1 */
  ZP_EXACT,  /* pivot b_k - a_k c'_{k-1} = 1 - 2 * 0.5 = 0 exactly: info k+1 */
  ZP_ZERO,   /* a_k = b_k = 0: info k+1 */
  NAN_D,     /* d_k = NaN: info -(k+1) */
  NAN_B,     /* b_k = NaN */
  INF_A,     /* a_k = +Inf (k >= 1) */
  NAN_C,     /* c_k = NaN (k <= n-2) */
  NINF_D,    /* d_k = -Inf */
  OVERFLOW,  /* row k decoupled, x_k = d_k / b_k overflows: info -(k+1) */
  TWO,       /* zero pivot at row k and NaN at row k+2: info k+1 (the lower row) */
  TWO_NAN_FIRST, /* NaN at row k and zero pivot at row k+2: info -(k+1) */
  BACK_OVERFLOW  /* forward sweep finite, x_{n-2} = big + big overflows in the back
                    substitution: info -(n-1) */
};

typedef struct inj {
  int64_t s;
  enum kind kind;
  int64_t row;
} inj;

/* Apply one injection; returns the info code it must produce (0: skipped). */
static int32_t apply(tt_problem *P, const inj *j) {
  const int64_t n = P->n, s = j->s, k = j->row;
  const double big = P->es == 4 ? 0.75 * FLT_MAX : 0.75 * DBL_MAX;
  if (s >= P->nsys || k < 0 || k >= n) return 0;
  switch (j->kind) {
    case ZP_B0:
      return tt_problem_zero_pivot(P, s, 0);
    case ZP_EXACT:
      if (k < 1) return 0;
      return tt_problem_zero_pivot(P, s, k);
    case ZP_ZERO:
      if (k > 0) tt_problem_set(P, TT_A, s, k, 0.0);
      tt_problem_set(P, TT_B, s, k, 0.0);
      return (int32_t)(k + 1);
    case NAN_D:
      return tt_problem_nonfinite(P, s, TT_D, k, NAN);
    case NAN_B:
      return tt_problem_nonfinite(P, s, TT_B, k, NAN);
    case INF_A: /* not a_0, which is ignored */
      return tt_problem_nonfinite(P, s, TT_A, k, INFINITY);
    case NAN_C: /* not c_{n-1} */
      return tt_problem_nonfinite(P, s, TT_C, k, NAN);
    case NINF_D:
      return tt_problem_nonfinite(P, s, TT_D, k, -INFINITY);
    case OVERFLOW:
      if (k > 0) tt_problem_set(P, TT_A, s, k, 0.0);
      if (k < n - 1) tt_problem_set(P, TT_C, s, k, 0.0);
      tt_problem_set(P, TT_B, s, k, 1.0 / 1024.0);
      tt_problem_set(P, TT_D, s, k, big);
      return (int32_t)-(k + 1);
    case TWO:
      if (k + 2 >= n) return 0;
      if (k > 0) tt_problem_set(P, TT_A, s, k, 0.0);
      tt_problem_set(P, TT_B, s, k, 0.0);
      tt_problem_set(P, TT_D, s, k + 2, NAN);
      return (int32_t)(k + 1);
    case BACK_OVERFLOW: /* rows n-2, n-1 decoupled from row n-3 */
      if (n < 2) return 0;
      if (n > 2) tt_problem_set(P, TT_A, s, n - 2, 0.0);
      tt_problem_set(P, TT_B, s, n - 2, 1.0);
      tt_problem_set(P, TT_C, s, n - 2, -1.0); /* c' = -1 */
      tt_problem_set(P, TT_D, s, n - 2, big);  /* d' = big */
      tt_problem_set(P, TT_A, s, n - 1, 0.0);
      tt_problem_set(P, TT_B, s, n - 1, 1.0);
      tt_problem_set(P, TT_D, s, n - 1, big); /* x_{n-1} = big, x_{n-2} = 2 big */
      return (int32_t)-(n - 1);
    case TWO_NAN_FIRST:
      if (k + 2 >= n) return 0;
      tt_problem_set(P, TT_D, s, k, NAN);
      tt_problem_set(P, TT_A, s, k + 2, 0.0);
      tt_problem_set(P, TT_B, s, k + 2, 0.0);
      return (int32_t)-(k + 1);
  }
  return 0;
}

static void build(tt_layout *L, int which, tridi_dtype dt, int64_t n, int64_t B) {
  switch (which) {
    case 0: {
      const int64_t sh[] = {B, n};
      tt_layout_packed(L, "contiguous", dt, 2, sh, 1);
      break;
    }
    case 1: {
      const int64_t sh[] = {n, B};
      tt_layout_packed(L, "interleaved", dt, 2, sh, 0);
      break;
    }
    case 2: {
      const int64_t sh[] = {B, n, 1}; /* middle axis with a trailing extent-1 dim, padded */
      const int64_t st[] = {(n + 2) * 3, 3, 1};
      tt_layout_shared(L, "middle padded", dt, 3, sh, 1, st);
      break;
    }
    case 4: { /* middle axis 64 wide, whole lane groups (one of 64 f32, two of 32 f64
                 a row): the CPU kernel's software-pipelined work items (AVX-512) */
      const int64_t X = 64;
      const int64_t sh[] = {(B + X - 1) / X, n, X};
      tt_layout_packed(L, "middle axis, whole groups", dt, 3, sh, 1);
      break;
    }
    default: {
      const int64_t sh[] = {B, n};
      const int64_t sa[] = {-n, 1}, sb[] = {1, -B}, sd[] = {2 * n, -2}, sx[] = {1, B + 1};
      tt_layout_packed(L, "own strides", dt, 2, sh, 1);
      tt_layout_strides(L, TT_A, sa);
      tt_layout_strides(L, TT_B, sb);
      tt_layout_strides(L, TT_D, sd);
      tt_layout_strides(L, TT_X, sx);
      break;
    }
  }
}

/* variant 0: the lowest failing system is a zero pivot; 1: a NaN;
 * 2: only the last system (in the remainder lanes) fails */
static int make_injections(inj *v, int variant, int64_t n, int64_t B) {
  int m = 0;
  const int64_t mid = n / 2, last = n - 1;
  if (variant == 2) {
    v[m++] = (inj){B - 1, NAN_D, last};
    return m;
  }
  if (variant == 0) v[m++] = (inj){3, ZP_B0, 0};
  else v[m++] = (inj){3, NAN_D, mid};
  v[m++] = (inj){5, ZP_EXACT, mid};
  v[m++] = (inj){8, ZP_ZERO, last};
  v[m++] = (inj){11, variant == 0 ? NAN_D : ZP_B0, mid};
  v[m++] = (inj){12, NAN_B, 0};
  v[m++] = (inj){13, INF_A, mid};
  v[m++] = (inj){14, NAN_C, n > 2 ? n - 2 : 0};
  v[m++] = (inj){17, NINF_D, last};
  v[m++] = (inj){20, OVERFLOW, mid};
  v[m++] = (inj){22, TWO, mid > 0 ? mid - 1 : 0};
  v[m++] = (inj){23, TWO_NAN_FIRST, 0};
  v[m++] = (inj){B - 1, ZP_EXACT, last};
  v[m++] = (inj){26, BACK_OVERFLOW, last};
  v[m++] = (inj){B - 2, BACK_OVERFLOW, last};
  return m;
}

static void run_case(tt_layout *L, int variant, uint64_t seed) {
  if (L->inplace && !tt_layout_injective(L, TT_D)) return;
  tt_problem P;
  if (tt_problem_init(&P, L, seed, NULL)) return;
  inj v[32];
  const int m = make_injections(v, variant, P.n, P.nsys);
  int32_t want[32];
  for (int j = 0; j < m; ++j) want[j] = apply(&P, &v[j]);
  tt_problem_oracle(&P);
  char lstr[400], ctx[600];
  tt_problem_str(&P, lstr, sizeof lstr);
  /* the construction itself, checked against the reference solver */
  for (int j = 0; j < m; ++j)
    if (want[j] && P.ref_info[v[j].s] != want[j])
      tt_fail("[%s] test construction: kind %d at system %" PRId64 " row %" PRId64
              ": reference info %d, intended %d",
              lstr, (int)v[j].kind, v[j].s, v[j].row, P.ref_info[v[j].s], want[j]);
  if (variant != 2 && tt_problem_expected_status(&P) == TRIDI_SUCCESS)
    tt_fail("[%s] no breakdown was injected", lstr);

  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  tt_info I;
  tt_info_alloc(&I, P.nsys);
  for (int c = 0; c < nc; ++c) {
    snprintf(ctx, sizeof ctx, "[%s variant %d] [%s]", lstr, variant, cfg[c].name);
    tridi_plan plan;
    if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                          TRIDI_SUCCESS, ctx))
      continue;
    /* what is expected depends on the plan's pivoting: TRIDI_PIVOT_AUTO out
     * of place and _PARTIAL give the pivoting solver's codes */
    tt_problem_use_plan(&P, plan);
    const tridi_status st_want = tt_problem_expected_status(&P);
    for (int with_info = 1; with_info >= 0; --with_info) {
      tt_problem_reset(&P);
      tt_info_poison(&I);
      const tridi_status st = tt_problem_execute(&P, plan, with_info ? I.info : NULL);
      if (!tt_expect_status(st, st_want, ctx)) continue;
      if (st != TRIDI_SUCCESS && !tridi_last_error()[0])
        tt_fail("%s: breakdown status but tridi_last_error() is empty", ctx);
      tt_problem_check(&P, ctx, with_info ? I.info : NULL);
      if (with_info) {
        tt_info_guards_ok(&I, ctx);
        tt_info_check_agrees(plan, I.info, P.nsys, st, ctx);
      }
    }
    tridi_plan_destroy(plan);
  }
  tt_info_free(&I);
  tt_problem_free(&P);
}

static void test_breakdown(void **state) {
  (void)state;
  static const int64_t ns[] = {1, 2, 3, 5, 17, 64, 300};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 5; ++lay)
      for (size_t in = 0; in < sizeof ns / sizeof ns[0]; ++in)
        for (int variant = 0; variant < 3; ++variant) {
          tt_layout L;
          const int64_t B = 37;
          build(&L, lay, t ? TRIDI_F64 : TRIDI_F32, ns[in], B);
          run_case(&L, variant, tt_case_seed("breakdown", k++));
          if (variant == 0) { /* and in place (x is d) */
            L.inplace = 1;
            run_case(&L, variant, tt_case_seed("breakdown", k++));
          }
        }
  tt_assert_no_failures();
}

/* a large batch: failures spread over lane groups and threads */
static void test_breakdown_large_batch(void **state) {
  (void)state;
  uint64_t k = 0;
  static const int lays[] = {0, 1, 4};
  for (int t = 0; t < 2; ++t)
    for (int li = 0; li < 3; ++li) {
      const int lay = lays[li];
      const int64_t n = 33, B = 1037;
      tt_layout L;
      build(&L, lay, t ? TRIDI_F64 : TRIDI_F32, n, B);
      tt_problem P;
      if (tt_problem_init(&P, &L, tt_case_seed("breakdown_large", k++), NULL)) continue;
      const inj v[] = {{1036, ZP_ZERO, 32}, {517, NAN_D, 0},      {518, ZP_B0, 0},
                       {999, NAN_C, 31},    {640, OVERFLOW, 16},   {129, ZP_EXACT, 9},
                       {700, BACK_OVERFLOW, 32}, {1035, BACK_OVERFLOW, 32}};
      for (size_t j = 0; j < sizeof v / sizeof v[0]; ++j) apply(&P, &v[j]);
      tt_problem_oracle(&P);
      if (tt_problem_expected_status(&P) != TRIDI_ERR_ZERO_PIVOT)
        tt_fail("test construction: expected the lowest failing system (129) to be a zero pivot");
      char lstr[400], ctx[600];
      tt_problem_str(&P, lstr, sizeof lstr);
      tt_config cfg[TT_MAX_CONFIGS];
      const int nc = tt_configs(cfg);
      tt_info I;
      tt_info_alloc(&I, P.nsys);
      for (int c = 0; c < nc; ++c) {
        snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
        tridi_plan plan;
        if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                              TRIDI_SUCCESS, ctx))
          continue;
        tt_problem_use_plan(&P, plan);
        tt_problem_solve_check(&P, plan, &I, tt_problem_expected_status(&P), ctx);
        tridi_plan_destroy(plan);
      }
      tt_info_free(&I);
      tt_problem_free(&P);
    }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_breakdown),
      TT_TEST(test_breakdown_large_batch),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
