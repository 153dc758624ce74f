/* Identical results, bit for bit, for 1, 2, 3 and 7 threads (and the
 * default), for every CPU algorithm and SIMD level: x (the whole allocation),
 * info and status.  Also: a plan executed twice gives the same bits. */
#include "tt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int THREADS[] = {1, 2, 3, 7, 0};
#define NTHREADS ((int)(sizeof THREADS / sizeof THREADS[0]))

static void build(tt_layout *L, int which, tridi_dtype dt, int64_t n, int64_t B, tt_rng *r) {
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
      const int64_t sh[] = {B > 8 ? B / 8 : 1, n, B > 8 ? 8 : B};
      tt_layout_packed(L, "middle", dt, 3, sh, 1);
      break;
    }
    default: {
      const int64_t sh[] = {B, n};
      tt_layout_packed(L, "random strides", dt, 2, sh, 1);
      for (int op = 0; op < TT_NOPS; ++op) tt_layout_random_strides(L, op, r, 3, op != TT_X);
      break;
    }
  }
}

static void test_threads_bitwise(void **state) {
  (void)state;
  static const int64_t sizes[][2] = {{33, 1037}, {8, 2053}, {1000, 37}, {4097, 3}, {2, 30011}};
  tt_config cfg[2 * TT_MAX_CONFIGS];
  const int nthomas = tt_configs(cfg);
  const int nc = nthomas + tt_alg_configs(cfg + nthomas); /* compared run to run only */
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 4; ++lay)
      for (size_t sz = 0; sz < sizeof sizes / sizeof sizes[0]; ++sz) {
        const uint64_t seed = tt_case_seed("threads", k++);
        tt_rng rng;
        tt_rng_init(&rng, seed);
        tt_layout L;
        build(&L, lay, t ? TRIDI_F64 : TRIDI_F32, sizes[sz][0], sizes[sz][1], &rng);
        tt_problem P;
        if (tt_problem_init(&P, &L, seed, NULL)) continue;
        /* a few breakdowns so that info and status are compared too */
        tt_problem_set(&P, TT_D, P.nsys / 2, P.n / 2, NAN);
        tt_problem_set(&P, TT_B, P.nsys - 1, 0, 0.0);
        tt_problem_oracle(&P);
        char lstr[400], ctx[600];
        tt_problem_str(&P, lstr, sizeof lstr);
        const tt_buf *X = P.inplace ? &P.buf[TT_D] : &P.buf[TT_X];
        const size_t xbytes = (size_t)X->len * P.es;
        unsigned char *x1 = malloc(xbytes);
        int32_t *info1 = malloc((size_t)P.nsys * sizeof *info1);
        tt_info I;
        tt_info_alloc(&I, P.nsys);
        assert_non_null(x1);
        assert_non_null(info1);
        for (int c = 0; c < nc; ++c) {
          if (cfg[c].opts.backend != TRIDI_BACKEND_CPU || cfg[c].opts.num_threads != 0) continue;
          tridi_status st1 = TRIDI_SUCCESS;
          for (int th = 0; th < NTHREADS; ++th) {
            tridi_options o = cfg[c].opts;
            o.num_threads = THREADS[th];
            snprintf(ctx, sizeof ctx, "[%s] [%s] %d threads", lstr, cfg[c].name, THREADS[th]);
            tridi_plan plan;
            if (!tt_expect_status(tt_problem_plan(&P, &o, &plan), TRIDI_SUCCESS, ctx)) continue;
            for (int rep = 0; rep < 2; ++rep) {
              tt_problem_reset(&P);
              tt_info_poison(&I);
              const tridi_status st = tt_problem_execute(&P, plan, I.info);
              if (th == 0 && rep == 0) {
                if (c < nthomas) { /* Thomas family: the reference solver's results and codes */
                  tt_problem_use_plan(&P, plan);
                  tt_expect_status(st, tt_problem_expected_status(&P), ctx);
                  tt_problem_check(&P, ctx, I.info);
                }
                st1 = st;
                memcpy(x1, X->mem, xbytes);
                memcpy(info1, I.info, (size_t)P.nsys * sizeof *info1);
                continue;
              }
              if (st != st1)
                tt_fail("%s (run %d): status %s, with 1 thread %s", ctx, rep, tridi_status_name(st),
                        tridi_status_name(st1));
              if (memcmp(info1, I.info, (size_t)P.nsys * sizeof *info1))
                tt_fail("%s (run %d): info differs from the 1-thread run", ctx, rep);
              if (memcmp(x1, X->mem, xbytes)) {
                int64_t j = 0;
                while (j < X->len && !memcmp(x1 + j * (int64_t)P.es, X->mem + j * (int64_t)P.es, P.es))
                  ++j;
                tt_fail("%s (run %d): x differs bitwise from the 1-thread run (first at offset "
                        "%" PRId64 ")",
                        ctx, rep, j - X->base);
              }
            }
            tridi_plan_destroy(plan);
          }
        }
        tt_info_free(&I);
        free(x1);
        free(info1);
        tt_problem_free(&P);
      }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_threads_bitwise),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
