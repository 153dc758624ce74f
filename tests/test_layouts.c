/* Every layout against the reference solver and LAPACK, for every host
 * backend / algorithm / SIMD level, f32 and f64, in place and out of place.
 *
 * Each case: a diagonally dominant random problem in the layout (NaN in every
 * input element not described and in the ignored a[0] and c[n-1]), x poisoned;
 * for each configuration a plan is made (descriptor destroyed right away),
 * executed, and checked by tt_problem_check (inputs unchanged, x padding
 * untouched, x written, residual, reference, LAPACK, info, status).
 *
 * Run one layout: test_layouts <name>, e.g. test_layouts contiguous. */
#include "tt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int64_t NS[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 1000, 4097};
#define NNS ((int)(sizeof NS / sizeof NS[0]))
/* batch sizes: 1037 = 64*16 + 13 is large and not a multiple of any lane count */
static const int64_t BATCH_SMALL_N[] = {0, 1, 5, 16, 1037};
static const int64_t BATCH_LARGE_N[] = {0, 1, 37};

/* Layout builders (tt_builder): fill L for element type dt, system length
 * n, about `batch` systems; rng for random strides.  Return 0 when they have
 * no layout for these sizes. */

static void run_configs(tt_problem *P, const char *lstr) {
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  tt_info I;
  tt_info_alloc(&I, P->nsys);
  const tridi_status want = tt_problem_expected_status(P);
  for (int c = 0; c < nc; ++c) {
    char ctx[512];
    snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
    tridi_plan plan = NULL;
    tridi_status st = tt_problem_plan(P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan);
    if (!tt_expect_status(st, TRIDI_SUCCESS, ctx)) continue;
    tt_check_plan_info(plan, &cfg[c], P->n, P->nsys, ctx);
    /* cpu/auto runs twice on fresh data: plans are reusable */
    const int reps = strcmp(cfg[c].name, "cpu/auto") == 0 ? 2 : 1;
    for (int r = 0; r < reps; ++r)
      if (tt_problem_solve_check(P, plan, &I, want, ctx)) break;
    tridi_plan_destroy(plan);
  }
  tt_info_free(&I);
}

static void run_layout(const char *name, tt_builder build, int nrandom) {
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t) {
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    for (int in = 0; in < NNS; ++in) {
      const int64_t n = NS[in];
      const int64_t *bs = n <= 64 ? BATCH_SMALL_N : BATCH_LARGE_N;
      const int nb = n <= 64 ? 5 : 3;
      for (int ib = 0; ib < nb; ++ib) {
        for (int rep = 0; rep < nrandom; ++rep) {
          const uint64_t seed = tt_case_seed(name, k++);
          tt_rng rng;
          tt_rng_init(&rng, seed);
          tt_layout L;
          if (!build(&L, dt, n, bs[ib], &rng)) continue;
          for (int inplace = 0; inplace < 2; ++inplace) {
            if (inplace && !tt_layout_injective(&L, TT_D)) continue;
            L.inplace = inplace;
            tt_problem P;
            if (tt_problem_init(&P, &L, seed, NULL)) continue;
            char lstr[400];
            tt_problem_str(&P, lstr, sizeof lstr);
            if (tt_verbose()) fprintf(stderr, "case %s\n", lstr);
            run_configs(&P, lstr);
            tt_problem_free(&P);
          }
        }
      }
    }
  }
  tt_assert_no_failures();
}

/* ---- the layouts ---------------------------------------------------------- */

static int b_contiguous(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {B, n};
  tt_layout_packed(L, "contiguous (B,n) axis 1", dt, 2, shape, 1);
  return 1;
}

static int b_interleaved(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {n, B};
  tt_layout_packed(L, "interleaved (n,B) axis 0", dt, 2, shape, 0);
  return 1;
}

/* Z * X = B with X the largest divisor <= sqrt(B) */
static void split(int64_t B, int64_t *Z, int64_t *X) {
  if (B == 0) {
    *Z = 0;
    *X = 3;
    return;
  }
  int64_t x = 1;
  for (int64_t d = 1; d * d <= B; ++d)
    if (B % d == 0) x = d;
  *X = x;
  *Z = B / x;
}

static int b_middle(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  int64_t Z, X;
  split(B, &Z, &X);
  const int64_t shape[] = {Z, n, X};
  tt_layout_packed(L, "middle axis (Z,n,X) axis 1", dt, 3, shape, 1);
  return 1;
}

static int b_padded_rows(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {B, n}, st[] = {n + 3, 1};
  tt_layout_shared(L, "padded (B,n) axis 1, row stride n+3", dt, 2, shape, 1, st);
  return 1;
}

static int b_padded_cols(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {n, B}, st[] = {B + 5, 1};
  tt_layout_shared(L, "padded (n,B) axis 0, row stride B+5", dt, 2, shape, 0, st);
  return 1;
}

static int b_padded_middle(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  int64_t Z, X;
  split(B, &Z, &X);
  const int64_t shape[] = {Z, n, X}, st[] = {(n + 1) * (X + 2) + 7, X + 2, 1};
  tt_layout_shared(L, "padded middle axis (Z,n,X) axis 1", dt, 3, shape, 1, st);
  return 1;
}

static int b_negative(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {B, n}, st[] = {-n, -1};
  tt_layout_shared(L, "negative strides (B,n) axis 1, strides (-n,-1)", dt, 2, shape, 1, st);
  return 1;
}

static int b_negative_interleaved(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {n, B}, st[] = {-B, -1};
  tt_layout_shared(L, "negative strides (n,B) axis 0, strides (-B,-1)", dt, 2, shape, 0, st);
  return 1;
}

/* each operand its own strides, signs and padding */
static int b_own_strides(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {B, n};
  tt_layout_packed(L, "own strides per operand (B,n) axis 1", dt, 2, shape, 1);
  const int64_t sa[] = {n, 1};              /* contiguous */
  const int64_t sb[] = {1, B};              /* interleaved */
  const int64_t sc[] = {-(n + 2), 1};       /* padded, negative batch stride */
  const int64_t sd[] = {1, -(B + 1)};       /* interleaved padded, negative axis stride */
  const int64_t sx[] = {2 * n + 1, 2};      /* every other element, padded rows */
  tt_layout_strides(L, TT_A, sa);
  tt_layout_strides(L, TT_B, sb);
  tt_layout_strides(L, TT_C, sc);
  tt_layout_strides(L, TT_D, sd);
  tt_layout_strides(L, TT_X, sx);
  return 1;
}

/* 3-D, each operand a random dimension order, padding and signs */
static int b_random_3d(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  int64_t Z, X;
  split(B, &Z, &X);
  const int64_t shape[] = {Z, n, X};
  tt_layout_packed(L, "random strides per operand (Z,n,X) axis 1", dt, 3, shape, 1);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 3, 0);
  return 1;
}

/* 8-D: the batch spread over seven dimensions, axis 0, 3 or 7 */
static void shape8(int64_t n, int64_t B, int axis, int64_t shape[8]) {
  static const int64_t e0[7] = {2, 1, 0, 3, 1, 1, 2};
  static const int64_t e1[7] = {1, 1, 1, 1, 1, 1, 1};
  static const int64_t e5[7] = {1, 5, 1, 1, 1, 1, 1};
  static const int64_t e16[7] = {2, 1, 2, 2, 1, 2, 1};
  static const int64_t e37[7] = {1, 1, 1, 37, 1, 1, 1};
  static const int64_t ebig[7] = {2, 3, 1, 2, 3, 1, 3}; /* 108 */
  const int64_t *e = B == 0 ? e0 : B == 1 ? e1 : B == 5 ? e5 : B == 16 ? e16 : B == 37 ? e37 : ebig;
  for (int k = 0, j = 0; k < 8; ++k) shape[k] = k == axis ? n : e[j++];
}

static int b_rank8(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  static const int axes[3] = {0, 3, 7};
  const int axis = axes[(n + B) % 3];
  int64_t shape[8];
  shape8(n, B, axis, shape);
  tt_layout_packed(L, "8-D packed", dt, 8, shape, axis);
  return 1;
}

static int b_rank8_random(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  const int axis = (int)tt_rng_int(r, 0, 7);
  int64_t shape[8];
  shape8(n, B, axis, shape);
  tt_layout_packed(L, "8-D random strides per operand", dt, 8, shape, axis);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 2, 0);
  return 1;
}

/* one matrix for every right-hand side */
static int b_bcast_matrix(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {B, n}, st[] = {0, 1};
  tt_layout_packed(L, "broadcast matrix: a,b,c strides (0,1)", dt, 2, shape, 1);
  for (int op = TT_A; op <= TT_C; ++op) tt_layout_strides(L, op, st);
  return 1;
}

/* constant diagonals (one value each), interleaved right-hand sides */
static int b_bcast_const(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {n, B}, st[] = {0, 0};
  tt_layout_packed(L, "constant diagonals: a,b,c strides (0,0), (n,B) axis 0", dt, 2, shape, 0);
  for (int op = TT_A; op <= TT_C; ++op) tt_layout_strides(L, op, st);
  return 1;
}

/* one right-hand side for every matrix; a constant along the batch for b */
static int b_bcast_rhs(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  const int64_t shape[] = {B, n}, sd[] = {0, 1}, sb[] = {0, -1};
  tt_layout_packed(L, "broadcast d: d strides (0,1), b strides (0,-1)", dt, 2, shape, 1);
  tt_layout_strides(L, TT_D, sd);
  tt_layout_strides(L, TT_B, sb);
  return 1;
}

/* x (and d) strides (2, q) with q = B rounded up to odd: the two strides
 * interleave (neither exceeds the span of the other) yet no two elements
 * share an address, since gcd(2, q) = 1 and q >= B */
static int b_x_nonnested(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)r;
  if (B < 2 || n < 2) return 0;
  const int64_t shape[] = {B, n}, st[] = {2, B | 1};
  tt_layout_packed(L, "x, d strides (2, B|1): interleaved, not nested", dt, 2, shape, 1);
  tt_layout_strides(L, TT_D, st);
  tt_layout_strides(L, TT_X, st);
  return 1;
}

/* random rank 1..8, extents, axis, strides (inputs may broadcast) */
static int b_fuzz(tt_layout *L, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
  (void)B;
  if (n > 64) return 0;
  const int rank = (int)tt_rng_int(r, 1, 8);
  const int axis = (int)tt_rng_int(r, 0, rank - 1);
  int64_t shape[8];
  int64_t total = n;
  for (int k = 0; k < rank; ++k) {
    if (k == axis) {
      shape[k] = n;
      continue;
    }
    shape[k] = tt_rng_int(r, 1, total > 2000 ? 1 : 5);
    total *= shape[k];
  }
  if (tt_rng_int(r, 0, 30) == 0 && rank > 1) shape[(axis + 1) % rank] = 0; /* sometimes empty */
  tt_layout_packed(L, "fuzz", dt, rank, shape, axis);
  for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 3, op != TT_X);
  return 1;
}

#define LAYOUT_TEST(name, nrandom)                    \
  static void test_##name(void **state) {             \
    (void)state;                                      \
    run_layout(#name, b_##name, nrandom);             \
  }
LAYOUT_TEST(contiguous, 1)
LAYOUT_TEST(interleaved, 1)
LAYOUT_TEST(middle, 1)
LAYOUT_TEST(padded_rows, 1)
LAYOUT_TEST(padded_cols, 1)
LAYOUT_TEST(padded_middle, 1)
LAYOUT_TEST(negative, 1)
LAYOUT_TEST(negative_interleaved, 1)
LAYOUT_TEST(own_strides, 1)
LAYOUT_TEST(random_3d, 1)
LAYOUT_TEST(rank8, 1)
LAYOUT_TEST(rank8_random, 1)
LAYOUT_TEST(bcast_matrix, 1)
LAYOUT_TEST(bcast_const, 1)
LAYOUT_TEST(bcast_rhs, 1)
LAYOUT_TEST(fuzz, 3)
LAYOUT_TEST(x_nonnested, 1)

/* Interleaved array of structures: a, b, c, d, x of each row side by side in
 * one array (same strides, offsets 0..4).  No element is shared, so this is
 * accepted, and it must solve correctly. */
static void test_aos(void **state) {
  (void)state;
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t) {
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    for (int in = 0; in < NNS; ++in) {
      const int64_t n = NS[in], B = n <= 64 ? 133 : 7;
      for (int inplace = 0; inplace < 2; ++inplace) {
        /* 4 slots per row in place (x is d), 5 otherwise */
        const int64_t w = inplace ? 4 : 5;
        const int64_t shape[] = {B, n}, st[] = {w * n, w};
        tt_layout L;
        tt_layout_shared(&L, inplace ? "AoS (a,b,c,d|x) interleaved" : "AoS (a,b,c,d,x) interleaved",
                         dt, 2, shape, 1, st);
        L.inplace = inplace;
        tt_problem P;
        const uint64_t seed = tt_case_seed("aos", k++);
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        const size_t es = P.es;
        const int64_t len = w * n * B;
        unsigned char *aos = malloc((size_t)len * es), *copy = malloc((size_t)len * es);
        assert_non_null(aos);
        assert_non_null(copy);
        tt_poison(aos, es, len);
        for (int op = 0; op < 4; ++op) /* copy the operands into their slots */
          for (int64_t j = 0; j < n * B; ++j) {
            const int64_t e = P.buf[op].base + j * w; /* outside: an ignored a[0] / c[n-1] */
            if (e >= 0 && e < P.buf[op].len)
              memcpy(aos + (size_t)(j * w + op) * es, P.buf[op].mem + (size_t)e * es, es);
            else
              tt_store(aos, es, j * w + op, NAN);
          }
        memcpy(copy, aos, (size_t)len * es);
        char lstr[400];
        tt_problem_str(&P, lstr, sizeof lstr);
        tt_config cfg[TT_MAX_CONFIGS];
        const int nc = tt_configs(cfg);
        for (int c = 0; c < nc; ++c) {
          char ctx[512];
          snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
          tridi_plan plan;
          if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                                TRIDI_SUCCESS, ctx))
            continue;
          memcpy(aos, copy, (size_t)len * es);
          const unsigned char *p[5];
          for (int op = 0; op < 5; ++op) p[op] = aos + (size_t)(inplace && op == 4 ? 3 : op) * es;
          tt_expect_status(tridi_execute(plan, p[0], p[1], p[2], p[3], (void *)p[4], NULL, NULL),
                           TRIDI_SUCCESS, ctx);
          tridi_plan_destroy(plan);
          /* inputs untouched */
          for (int64_t j = 0; j < len; ++j) {
            if (j % w == w - 1) continue; /* the x slot */
            if (memcmp(aos + j * (int64_t)es, copy + j * (int64_t)es, es)) {
              tt_fail("%s: input slot %" PRId64 " of row %" PRId64 " modified", ctx, j % w, j / w);
              break;
            }
          }
          /* x back into the problem's x buffer, then the usual checks */
          tt_problem_reset(&P);
          for (int64_t j = 0; j < n * B; ++j)
            memcpy((unsigned char *)tt_ptr(&P, TT_X) + (size_t)(j * w) * es,
                   aos + (size_t)(j * w + w - 1) * es, es);
          tt_problem_check(&P, ctx, NULL);
        }
        free(aos);
        free(copy);
        tt_problem_free(&P);
      }
    }
  }
  tt_assert_no_failures();
}

/* Problems whose x is over 64 MiB: the CPU kernel's large-problem path
 * (non-temporal stores of x, see src/cpu/cpu_thomas.c) with padding rows /
 * columns that must stay untouched.  CPU configurations only (REF is the
 * same code at every size). */
static void test_large(void **state) {
  (void)state;
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  for (int lay = 0; lay < 5; ++lay) {
    tt_layout L;
    if (lay == 4) { /* f32 middle axis, rows of 64 floats (whole lines): 260 x 1031 x 64 floats
                       = 68 MB; x is streamed by the backward sweep itself (AVX-512) */
      const int64_t shape[] = {260, 1031, 64};
      tt_layout_packed(&L, "large middle axis", TRIDI_F32, 3, shape, 1);
    } else if (lay == 3) { /* f32 interleaved: 1031 x 16411 floats = 68 MB */
      const int64_t shape[] = {1031, 16411};
      tt_layout_packed(&L, "large interleaved", TRIDI_F32, 2, shape, 0);
    } else if (lay == 0) { /* f32 contiguous systems, padded rows: 8197 x 2051 floats = 67 MB */
      const int64_t shape[] = {8197, 2051}, st[] = {2051 + 5, 1};
      tt_layout_shared(&L, "large padded rows", TRIDI_F32, 2, shape, 1, st);
    } else if (lay == 1) { /* f64 interleaved, padded: 1031 x 8209 doubles = 68 MB */
      const int64_t shape[] = {1031, 8209}, st[] = {8209 + 7, 1};
      tt_layout_shared(&L, "large padded interleaved", TRIDI_F64, 2, shape, 0, st);
    } else { /* f64 contiguous, in place */
      const int64_t shape[] = {65537, 129};
      tt_layout_packed(&L, "large contiguous in place", TRIDI_F64, 2, shape, 1);
      L.inplace = 1;
    }
    /* x (d when in place) 64-byte aligned, with a cache line of guard before
     * it: the aligned non-temporal stores are taken */
    const int64_t line = 64 / (int64_t)tridi_dtype_size(L.dtype);
    tt_guards g = {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};
    g.lead[TT_X] = g.lead[TT_D] = line;
    g.tail[TT_X] = g.tail[TT_D] = 5;
    tt_problem P;
    if (tt_problem_init(&P, &L, tt_case_seed("large", (uint64_t)lay), &g)) continue;
    char lstr[400];
    tt_problem_str(&P, lstr, sizeof lstr);
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    for (int c = 0; c < nc; ++c) {
      /* the large path is taken with SIMD only: the best level (auto), AVX2, 3 threads */
      if (cfg[c].opts.backend != TRIDI_BACKEND_CPU || cfg[c].opts.alg == TRIDI_ALG_THOMAS_REF ||
          cfg[c].opts.simd == TRIDI_SIMD_PORTABLE || cfg[c].opts.simd == TRIDI_SIMD_AVX512 ||
          strcmp(cfg[c].name, "cpu/thomas") == 0)
        continue;
      char ctx[512];
      snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
      tridi_plan plan;
      if (!tt_expect_status(tt_problem_plan(&P, &cfg[c].opts, &plan), TRIDI_SUCCESS, ctx)) continue;
      tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
      tridi_plan_destroy(plan);
    }
    tt_info_free(&I);
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* Empty problems (an extent 0 anywhere, n = 0 included): success, nothing
 * written, info of n = 0 problems all 0. */
static void test_empty(void **state) {
  (void)state;
  static const int64_t shapes[][3] = {{0, 5, 3}, {4, 0, 3}, {4, 5, 0}, {0, 0, 0}, {1, 0, 1}};
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  for (int t = 0; t < 2; ++t)
    for (int s = 0; s < 5; ++s) {
      tt_layout L;
      tt_layout_packed(&L, "empty", t ? TRIDI_F64 : TRIDI_F32, 3, shapes[s], 1);
      tt_problem P;
      if (tt_problem_init(&P, &L, tt_case_seed("empty", (uint64_t)s), NULL)) continue;
      char lstr[400];
      tt_problem_str(&P, lstr, sizeof lstr);
      tt_info I;
      tt_info_alloc(&I, P.nsys);
      for (int c = 0; c < nc; ++c) {
        char ctx[512];
        snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
        tridi_plan plan;
        if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                              TRIDI_SUCCESS, ctx))
          continue;
        tt_check_plan_info(plan, &cfg[c], P.n, P.nsys, ctx);
        tt_info_poison(&I);
        tt_expect_status(tt_problem_execute(&P, plan, I.info), TRIDI_SUCCESS, ctx);
        tt_problem_check_untouched(&P, ctx);
        tt_info_guards_ok(&I, ctx);
        for (int64_t j = 0; j < P.nsys; ++j)
          if (I.info[j] != 0) {
            tt_fail("%s: info[%" PRId64 "] = %d for an n = 0 system, expected 0", ctx, j, I.info[j]);
            break;
          }
        tridi_plan_destroy(plan);
      }
      tt_info_free(&I);
      tt_problem_free(&P);
    }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_contiguous),    TT_TEST(test_interleaved),
      TT_TEST(test_middle),        TT_TEST(test_padded_rows),
      TT_TEST(test_padded_cols),   TT_TEST(test_padded_middle),
      TT_TEST(test_negative),      TT_TEST(test_negative_interleaved),
      TT_TEST(test_own_strides),   TT_TEST(test_random_3d),
      TT_TEST(test_rank8),         TT_TEST(test_rank8_random),
      TT_TEST(test_bcast_matrix),  TT_TEST(test_bcast_const),
      TT_TEST(test_bcast_rhs),     TT_TEST(test_fuzz),
      TT_TEST(test_x_nonnested), TT_TEST(test_aos),           TT_TEST(test_empty),
      TT_TEST(test_large),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
