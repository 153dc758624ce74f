/* tridi_execute_ws with caller workspace: the size query, exact / larger /
 * too small / NULL / misaligned workspaces, workspace contents that start as
 * garbage, nothing written past the workspace size, results bitwise equal to
 * tridi_execute; and concurrent executes from several threads (distinct
 * workspaces with tridi_execute_ws, one shared plan with tridi_execute). */
#include "tt.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_TAIL 256 /* guard bytes after the workspace */

static void build(tt_layout *L, int which, tridi_dtype dt, int64_t n, int64_t B) {
  if (which == 0) {
    const int64_t sh[] = {B, n};
    tt_layout_packed(L, "contiguous", dt, 2, sh, 1);
  } else if (which == 1) {
    const int64_t sh[] = {n, B};
    tt_layout_packed(L, "interleaved", dt, 2, sh, 0);
  } else {
    const int64_t sh[] = {B, n}, st[] = {-(n + 3), 1};
    tt_layout_shared(L, "padded negative", dt, 2, sh, 1, st);
  }
}

static void test_workspace(void **state) {
  (void)state;
  static const int64_t sizes[][2] = {{1, 40}, {17, 1037}, {1000, 37}, {4097, 2}, {64, 16}};
  tt_config cfg[2 * TT_MAX_CONFIGS];
  const int nthomas = tt_configs(cfg);
  const int nc = nthomas + tt_alg_configs(cfg + nthomas); /* compared with tridi_execute only */
  uint64_t k = 0;
  int nonzero = 0;
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 3; ++lay)
      for (size_t sz = 0; sz < sizeof sizes / sizeof sizes[0]; ++sz) {
        tt_layout L;
        build(&L, lay, t ? TRIDI_F64 : TRIDI_F32, sizes[sz][0], sizes[sz][1]);
        tt_problem P;
        if (tt_problem_init(&P, &L, tt_case_seed("workspace", k++), NULL)) continue;
        char lstr[400], ctx[600];
        tt_problem_str(&P, lstr, sizeof lstr);
        const tt_buf *X = &P.buf[TT_X];
        const size_t xbytes = (size_t)X->len * P.es;
        unsigned char *xplan = malloc(xbytes);
        assert_non_null(xplan);
        for (int c = 0; c < nc; ++c) {
          snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
          tridi_plan plan;
          if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                                TRIDI_SUCCESS, ctx))
            continue;
          size_t ws = (size_t)-1;
          tt_expect_status(tridi_plan_workspace_size(plan, &ws), TRIDI_SUCCESS, ctx);
          if (ws == (size_t)-1) {
            tridi_plan_destroy(plan);
            continue;
          }
          nonzero += ws > 0;
          /* reference run with the plan's own workspace */
          tt_problem_reset(&P);
          const tridi_status st0 = tt_problem_execute(&P, plan, NULL);
          if (c < nthomas) {
            tt_expect_status(st0, TRIDI_SUCCESS, ctx);
            tt_problem_check(&P, ctx, NULL);
          }
          memcpy(xplan, X->mem, xbytes);

          unsigned char *w = aligned_alloc(64, ((ws + WS_TAIL + 64) / 64) * 64);
          assert_non_null(w);
          void *p[5];
          for (int j = 0; j < 5; ++j) p[j] = tt_ptr(&P, j);
          /* exact size, garbage contents (NaN bytes), guard after */
          for (int pass = 0; pass < 2; ++pass) {
            memset(w, pass ? 0x7f : 0xff, ws + WS_TAIL);
            tt_problem_reset(&P);
            char c2[700];
            snprintf(c2, sizeof c2, "%s execute_ws exact size %zu (fill %#x)", ctx, ws, pass ? 0x7f : 0xff);
            tt_expect_status(tridi_execute_ws(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL,
                                              ws ? w : NULL, ws),
                             st0, c2);
            if (memcmp(xplan, X->mem, xbytes)) tt_fail("%s: x differs from tridi_execute", c2);
            for (size_t j = ws; j < ws + WS_TAIL; ++j)
              if (w[j] != (pass ? 0x7f : 0xff)) {
                tt_fail("%s: workspace written past its %zu bytes (at byte %zu)", c2, ws, j);
                break;
              }
          }
          /* larger than needed */
          tt_problem_reset(&P);
          tt_expect_status(tridi_execute_ws(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL, w, ws + WS_TAIL),
                           st0, ctx);
          if (memcmp(xplan, X->mem, xbytes)) tt_fail("%s: execute_ws with a larger workspace: x differs", ctx);
          tt_problem_reset(&P);
          if (ws > 0) {
            const struct {
              void *w;
              size_t bytes;
              const char *what;
            } bad[] = {{w, ws - 1, "one byte too small"},
                       {w, 0, "size 0"},
                       {NULL, ws, "NULL with the right size"},
                       {NULL, 0, "NULL with size 0"},
                       {w + 8, ws + 64, "8 bytes off 64-byte alignment"},
                       {w + 32, ws + 64, "32 bytes off 64-byte alignment"}};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
              char c2[700];
              snprintf(c2, sizeof c2, "%s execute_ws %s (needs %zu)", ctx, bad[b].what, ws);
              tt_expect_status(tridi_execute_ws(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL, bad[b].w,
                                                bad[b].bytes),
                               TRIDI_ERR_WORKSPACE, c2);
              if (!tridi_last_error()[0] || !strstr(tridi_last_error(), "workspace"))
                tt_fail("%s: last error \"%s\" does not name the workspace", c2, tridi_last_error());
              tt_problem_check_untouched(&P, c2);
            }
            /* argument checks come first: a NULL operand wins over a bad workspace */
            const tridi_status st = tridi_execute_ws(plan, NULL, p[1], p[2], p[3], p[4], NULL, NULL, NULL, 0);
            tt_expect_status(st, TRIDI_ERR_NULL_POINTER, ctx);
          } else {
            /* no workspace needed: NULL is fine, whatever the size says */
            tt_expect_status(tridi_execute_ws(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL, NULL, 0),
                             st0, ctx);
            if (memcmp(xplan, X->mem, xbytes)) tt_fail("%s: execute_ws(NULL, 0): x differs", ctx);
          }
          free(w);
          tridi_plan_destroy(plan);
        }
        free(xplan);
        tt_problem_free(&P);
      }
  if (!nonzero) print_message("note: no plan needed a workspace; the size checks were not exercised\n");
  tt_assert_no_failures();
}

/* ---- concurrency ----------------------------------------------------------- */

typedef struct job {
  tridi_plan plan;
  const tt_problem *P;
  unsigned char *x; /* this thread's x buffer (same geometry as P's) */
  unsigned char *ws;
  size_t ws_bytes;
  int use_ws;
  int iters;
  tridi_status st;
} job;

static void *worker(void *arg) {
  job *J = arg;
  const tt_problem *P = J->P;
  void *x = J->x + P->buf[TT_X].base * (int64_t)P->es;
  J->st = TRIDI_SUCCESS;
  for (int it = 0; it < J->iters && J->st == TRIDI_SUCCESS; ++it) {
    if (J->use_ws)
      J->st = tridi_execute_ws(J->plan, tt_ptr(P, 0), tt_ptr(P, 1), tt_ptr(P, 2), tt_ptr(P, 3), x, NULL,
                               NULL, J->ws, J->ws_bytes);
    else
      J->st = tridi_execute(J->plan, tt_ptr(P, 0), tt_ptr(P, 1), tt_ptr(P, 2), tt_ptr(P, 3), x, NULL,
                            NULL);
  }
  return NULL;
}

static void test_concurrent(void **state) {
  (void)state;
  enum { NT = 3 };
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 2; ++lay) {
      tt_layout L;
      build(&L, lay, t ? TRIDI_F64 : TRIDI_F32, 65, 531);
      tt_problem P;
      if (tt_problem_init(&P, &L, tt_case_seed("concurrent", (uint64_t)(t * 2 + lay)), NULL)) continue;
      char lstr[400], ctx[600];
      tt_problem_str(&P, lstr, sizeof lstr);
      const size_t xbytes = (size_t)P.buf[TT_X].len * P.es;
      for (int c = 0; c < nc; ++c) {
        tridi_options o = cfg[c].opts;
        if (o.backend == TRIDI_BACKEND_CPU && o.num_threads == 0) o.num_threads = 2;
        for (int use_ws = 0; use_ws < 2; ++use_ws) {
          snprintf(ctx, sizeof ctx, "[%s] [%s] %d threads concurrently, %s", lstr, cfg[c].name, NT,
                   use_ws ? "tridi_execute_ws" : "tridi_execute on one plan");
          tridi_plan plan;
          if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &o, &plan), TRIDI_SUCCESS, ctx))
            continue;
          size_t ws = 0;
          tridi_plan_workspace_size(plan, &ws);
          tt_problem_reset(&P);
          tt_expect_status(tt_problem_execute(&P, plan, NULL), TRIDI_SUCCESS, ctx);
          tt_problem_check(&P, ctx, NULL);
          job J[NT];
          pthread_t th[NT];
          for (int i = 0; i < NT; ++i) {
            J[i] = (job){plan, &P, malloc(xbytes), ws ? aligned_alloc(64, (ws + 63) / 64 * 64) : NULL, ws,
                         use_ws, 8, TRIDI_SUCCESS};
            assert_non_null(J[i].x);
            memcpy(J[i].x, P.buf[TT_X].orig, xbytes);
          }
          for (int i = 0; i < NT; ++i) assert_int_equal(pthread_create(&th[i], NULL, worker, &J[i]), 0);
          for (int i = 0; i < NT; ++i) pthread_join(th[i], NULL);
          for (int i = 0; i < NT; ++i) {
            tt_expect_status(J[i].st, TRIDI_SUCCESS, ctx);
            if (memcmp(J[i].x, P.buf[TT_X].mem, xbytes))
              tt_fail("%s: thread %d's x differs from the serial run", ctx, i);
            free(J[i].x);
            free(J[i].ws);
          }
          tridi_plan_destroy(plan);
        }
      }
      tt_problem_free(&P);
    }
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_workspace),
      TT_TEST(test_concurrent),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
