/* Bad arguments of tridi_execute / tridi_execute_ws, each in turn: NULL
 * operands, misaligned pointers, overlapping x (the exact status, a message
 * naming the argument, nothing written), and the accepted corner cases
 * beside them (in place, touching but not overlapping). */
#include "test_args.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- execute ------------------------------------------------------------------ */

static void make_problem(tt_problem *P, tridi_dtype dt, uint64_t k) {
  const int64_t shape[] = {6, 7};
  tt_layout L;
  tt_layout_packed(&L, "args 6x7", dt, 2, shape, 1);
  assert_int_equal(tt_problem_init(P, &L, tt_case_seed("args", k), NULL), 0);
}

static void test_execute_null(void **state) {
  (void)state;
  static const char *const names[] = {"a", "b", "c", "d", "x"};
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  for (int t = 0; t < 2; ++t) {
    tt_problem P;
    make_problem(&P, t ? TRIDI_F64 : TRIDI_F32, (uint64_t)t);
    tt_info I;
    tt_info_alloc(&I, P.nsys);
    for (int c = 0; c < nc; ++c) {
      tridi_plan plan;
      assert_int_equal(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan), TRIDI_SUCCESS);
      char ctx[2048];
      for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) {
        void *p[5];
        for (int j = 0; j < 5; ++j) p[j] = tt_ptr(&P, j);
        p[op] = NULL;
        snprintf(ctx, sizeof ctx, "[%s] tridi_execute with %s = NULL", cfg[c].name, names[op]);
        tt_info_poison(&I);
        expect_(tridi_execute(plan, p[0], p[1], p[2], p[3], p[4], I.info, NULL), TRIDI_ERR_NULL_POINTER,
                names[op], ctx, __LINE__);
        tt_problem_check_untouched(&P, ctx);
        for (int64_t s = 0; s < P.nsys; ++s)
          if (I.info[s] != TT_INFO_POISON) {
            tt_fail("%s: info written", ctx);
            break;
          }
        /* all five NULL too, and with the workspace variant */
        size_t ws = 0;
        assert_int_equal(tridi_plan_workspace_size(plan, &ws), TRIDI_SUCCESS);
        void *w = ws ? tridi_aligned_alloc(ws) : NULL;
        snprintf(ctx, sizeof ctx, "[%s] tridi_execute_ws with %s = NULL", cfg[c].name, names[op]);
        expect_(tridi_execute_ws(plan, p[0], p[1], p[2], p[3], p[4], I.info, NULL, w, ws),
                TRIDI_ERR_NULL_POINTER, names[op], ctx, __LINE__);
        tt_problem_check_untouched(&P, ctx);
        tridi_aligned_free(w);
      }
      snprintf(ctx, sizeof ctx, "[%s] tridi_execute(plan = NULL)", cfg[c].name);
      expect_(tridi_execute(NULL, tt_ptr(&P, 0), tt_ptr(&P, 1), tt_ptr(&P, 2), tt_ptr(&P, 3),
                            tt_ptr(&P, 4), I.info, NULL),
              TRIDI_ERR_NULL_POINTER, "plan", ctx, __LINE__);
      tt_problem_check_untouched(&P, ctx);
      /* the stream argument is ignored by host plans */
      snprintf(ctx, sizeof ctx, "[%s] tridi_execute(stream = non-NULL) on a host plan", cfg[c].name);
      expect_(tridi_execute(plan, tt_ptr(&P, 0), tt_ptr(&P, 1), tt_ptr(&P, 2), tt_ptr(&P, 3), tt_ptr(&P, 4),
                            I.info, (void *)(uintptr_t)0x1234),
              TRIDI_SUCCESS, NULL, ctx, __LINE__);
      tt_problem_check(&P, ctx, I.info);
      tt_problem_reset(&P);
      /* info may be NULL */
      snprintf(ctx, sizeof ctx, "[%s] tridi_execute(info = NULL)", cfg[c].name);
      expect_(tt_problem_execute(&P, plan, NULL), TRIDI_SUCCESS, NULL, ctx, __LINE__);
      tt_problem_check(&P, ctx, NULL);
      tt_problem_reset(&P);
      tridi_plan_destroy(plan);
    }
    /* the other entry points */
    tridi_plan plan;
    assert_int_equal(tt_problem_plan(&P, NULL, &plan), TRIDI_SUCCESS);
    size_t bytes;
    EXPECT(tridi_plan_workspace_size(NULL, &bytes), TRIDI_ERR_NULL_POINTER, "plan");
    EXPECT(tridi_plan_workspace_size(plan, NULL), TRIDI_ERR_NULL_POINTER, "bytes");
    tridi_plan_info pi;
    pi.struct_size = sizeof pi;
    EXPECT(tridi_plan_get_info(NULL, &pi), TRIDI_ERR_NULL_POINTER, "plan");
    EXPECT(tridi_plan_get_info(plan, NULL), TRIDI_ERR_NULL_POINTER, "info");
    pi.struct_size = 0;
    EXPECT(tridi_plan_get_info(plan, &pi), TRIDI_ERR_INVALID_OPTION, "struct_size");
    /* the first release's struct (up to `kernel`) is still served, minus one byte is not */
    const size_t v1 = offsetof(tridi_plan_info, kernel) + sizeof pi.kernel;
    pi.struct_size = v1 - 1;
    EXPECT(tridi_plan_get_info(plan, &pi), TRIDI_ERR_INVALID_OPTION, "struct_size");
    pi.struct_size = v1;
    pi.selection = "untouched";
    EXPECT(tridi_plan_get_info(plan, &pi), TRIDI_SUCCESS, NULL);
    if (strcmp(pi.selection, "untouched") != 0)
      tt_fail("tridi_plan_get_info wrote a field beyond struct_size");
    pi.struct_size = sizeof pi;
    EXPECT(tridi_plan_get_info(plan, &pi), TRIDI_SUCCESS, NULL);
    if (!pi.selection || !strstr(pi.selection, "chosen"))
      tt_fail("tridi_plan_get_info: selection \"%s\" names no chosen row",
              pi.selection ? pi.selection : "(null)");
    tridi_plan_destroy(plan);
    tt_info_free(&I);
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

static void test_execute_misaligned(void **state) {
  (void)state;
  static const char *const names[] = {"a", "b", "c", "d", "x"};
  for (int t = 0; t < 2; ++t) {
    tt_problem P;
    make_problem(&P, t ? TRIDI_F64 : TRIDI_F32, 10 + (uint64_t)t);
    const size_t es = P.es;
    /* copies of the buffers one byte (and, for f64, 4 bytes) off their alignment:
     * each operand in its own block with room for the shift */
    const int64_t len = P.n * P.nsys;
    tridi_plan plan;
    assert_int_equal(tt_problem_plan(&P, NULL, &plan), TRIDI_SUCCESS);
    unsigned char *blk = malloc((size_t)(len + 2) * es * 5);
    assert_non_null(blk);
    for (int shift = 1; shift < (int)es; shift += (es == 8 ? 3 : 1)) {
      for (int op = 0; op < 5; ++op) {
        void *p[5];
        for (int j = 0; j < 5; ++j) p[j] = tt_ptr(&P, j);
        p[op] = blk + (size_t)op * (size_t)(len + 2) * es + (size_t)shift;
        memset(blk, 0x3c, (size_t)(len + 2) * es * 5);
        char ctx[128];
        snprintf(ctx, sizeof ctx, "%s tridi_execute with %s misaligned by %d bytes",
                 tridi_dtype_name(P.dtype), names[op], shift);
        expect_(tridi_execute(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL), TRIDI_ERR_MISALIGNED,
                names[op], ctx, __LINE__);
        tt_problem_check_untouched(&P, ctx);
        for (size_t j = 0; j < (size_t)(len + 2) * es * 5; ++j)
          if (blk[j] != 0x3c) {
            tt_fail("%s: misaligned x was written", ctx);
            break;
          }
      }
    }
    /* order of the checks: NULL before MISALIGNED before OVERLAP */
    unsigned char *bm = (unsigned char *)tt_ptr(&P, TT_B) + 1;
    EXPECT(tridi_execute(plan, NULL, bm, tt_ptr(&P, 2), tt_ptr(&P, 3), tt_ptr(&P, 4), NULL, NULL),
           TRIDI_ERR_NULL_POINTER, "a");
    EXPECT(tridi_execute(plan, tt_ptr(&P, 0), bm, tt_ptr(&P, 2), tt_ptr(&P, 3), tt_ptr(&P, 0), NULL,
                         NULL),
           TRIDI_ERR_MISALIGNED, "b");
    tt_problem_check_untouched(&P, "check order");
    free(blk);
    tridi_plan_destroy(plan);
    tt_problem_free(&P);
  }
  tt_assert_no_failures();
}

/* Overlap: all operands inside one arena so every pointer combination is
 * valid memory; the arena must be unchanged after every refused call. */
static void test_execute_overlap(void **state) {
  (void)state;
  const int64_t B = 6, n = 7, N = B * n;
  const int64_t shape[] = {B, n};
  for (int t = 0; t < 2; ++t) {
    const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
    const size_t es = tridi_dtype_size(dt);
    const int64_t len = 12 * N;
    unsigned char *arena = malloc((size_t)len * es), *copy = malloc((size_t)len * es);
    assert_non_null(arena);
    assert_non_null(copy);
    tt_rng rng;
    tt_rng_init(&rng, tt_case_seed("overlap", (uint64_t)t));
    for (int64_t j = 0; j < len; ++j) { /* b (and only b) large: dominant */
      const double v = j >= 3 * N && j < 4 * N ? tt_rng_uniform(&rng, 3.0, 5.0)
                                               : tt_rng_uniform(&rng, -0.5, 0.5);
      if (es == 4) {
        const float f = (float)v;
        memcpy(arena + j * 4, &f, 4);
      } else {
        memcpy(arena + j * 8, &v, 8);
      }
    }
    memcpy(copy, arena, (size_t)len * es);
#define AT(k) ((void *)(arena + (size_t)(k) * es))
    void *a = AT(1 * N), *b = AT(3 * N), *c = AT(5 * N), *d = AT(7 * N);
    tridi_desc desc;
    assert_int_equal(tridi_desc_create(&desc, dt, 2, shape, 1), TRIDI_SUCCESS);
    tridi_plan plan;
    assert_int_equal(tridi_plan_create(&plan, desc, NULL), TRIDI_SUCCESS);
    const struct {
      int64_t xoff; /* x position in the arena, elements */
      const char *what, *word;
    } bad[] = {
        {7 * N + 1, "x = d + 1 (partial overlap with d)", "d"},
        {7 * N - 3, "x = d - 3 (partial overlap with d)", "d"},
        {7 * N - N + 1, "x ends inside d", "d"},
        {1 * N, "x = a", "a"},
        {3 * N + N / 2, "x starts inside b", "b"},
        {5 * N + N - 2, "x overlaps the last element of c that is read (c[n-2])", "c"},
        {1 * N - N + 2, "x overlaps the first element of a that is read (a[1])", "a"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
      char ctx[128];
      snprintf(ctx, sizeof ctx, "%s: %s", tridi_dtype_name(dt), bad[k].what);
      expect_(tridi_execute(plan, a, b, c, d, AT(bad[k].xoff), NULL, NULL), TRIDI_ERR_OVERLAP, bad[k].word,
              ctx, __LINE__);
      if (memcmp(arena, copy, (size_t)len * es)) tt_fail("%s: memory written by a refused call", ctx);
    }
    /* accepted: x sharing only the last system's c[n-1] or the first
     * system's a[0], which are never read (tridi.h) */
    EXPECT(tridi_execute(plan, a, b, c, d, AT(5 * N + N - 1), NULL, NULL), TRIDI_SUCCESS, NULL);
    memcpy(arena, copy, (size_t)len * es);
    EXPECT(tridi_execute(plan, a, b, c, d, AT(1 * N - N + 1), NULL, NULL), TRIDI_SUCCESS, NULL);
    memcpy(arena, copy, (size_t)len * es);
    /* accepted: x touching d / a without sharing an element, x in place */
    EXPECT(tridi_execute(plan, a, b, c, d, AT(8 * N), NULL, NULL), TRIDI_SUCCESS, NULL);
    memcpy(arena, copy, (size_t)len * es);
    EXPECT(tridi_execute(plan, a, b, c, d, AT(0), NULL, NULL), TRIDI_SUCCESS, NULL);
    memcpy(arena, copy, (size_t)len * es);
    EXPECT(tridi_execute(plan, a, b, c, d, d, NULL, NULL), TRIDI_SUCCESS, NULL); /* in place */
    memcpy(arena, copy, (size_t)len * es);
    /* inputs may overlap each other freely */
    EXPECT(tridi_execute(plan, a, b, a, a, AT(10 * N), NULL, NULL), TRIDI_SUCCESS, NULL);
    memcpy(arena, copy, (size_t)len * es);
    tridi_plan_destroy(plan);

    /* x == d but strides differ: not an exact in-place alias */
    const int64_t sq[] = {3, 6}; /* shape (3,6): d row-major, x column-major */
    const int64_t tr[] = {1, 6}, rm[] = {6, 1};
    tridi_desc_destroy(desc);
    assert_int_equal(tridi_desc_create(&desc, dt, 2, sq, 1), TRIDI_SUCCESS);
    (void)rm;
    assert_int_equal(tridi_desc_set_strides(desc, TRIDI_OP_X, tr), TRIDI_SUCCESS);
    assert_int_equal(tridi_plan_create(&plan, desc, NULL), TRIDI_SUCCESS);
    expect_(tridi_execute(plan, a, b, c, d, d, NULL, NULL), TRIDI_ERR_OVERLAP, "d",
            "x == d with other strides", __LINE__);
    if (memcmp(arena, copy, (size_t)len * es)) tt_fail("x == d with other strides: memory written");
    tridi_plan_destroy(plan);
    tridi_desc_destroy(desc);

    /* x interleaved with d (stride 2, offset 1): no shared element, accepted */
    const int64_t s2[] = {2 * n, 2};
    assert_int_equal(tridi_desc_create(&desc, dt, 2, shape, 1), TRIDI_SUCCESS);
    assert_int_equal(tridi_desc_set_strides(desc, TRIDI_OP_D, s2), TRIDI_SUCCESS);
    assert_int_equal(tridi_desc_set_strides(desc, TRIDI_OP_X, s2), TRIDI_SUCCESS);
    assert_int_equal(tridi_plan_create(&plan, desc, NULL), TRIDI_SUCCESS);
    EXPECT(tridi_execute(plan, a, b, c, AT(7 * N), AT(7 * N + 1), NULL, NULL), TRIDI_SUCCESS, NULL);
    memcpy(arena, copy, (size_t)len * es);
    /* ... but at offset 2 they share elements */
    expect_(tridi_execute(plan, a, b, c, AT(7 * N), AT(7 * N + 2), NULL, NULL), TRIDI_ERR_OVERLAP, "d",
            "x interleaved with d at offset 2", __LINE__);
    if (memcmp(arena, copy, (size_t)len * es)) tt_fail("x interleaved with d: memory written");
    tridi_plan_destroy(plan);
    tridi_desc_destroy(desc);

    /* x over a broadcast coefficient (stride 0): b is one row, x covers it */
    const int64_t s0[] = {0, 1};
    assert_int_equal(tridi_desc_create(&desc, dt, 2, shape, 1), TRIDI_SUCCESS);
    assert_int_equal(tridi_desc_set_strides(desc, TRIDI_OP_B, s0), TRIDI_SUCCESS);
    assert_int_equal(tridi_plan_create(&plan, desc, NULL), TRIDI_SUCCESS);
    expect_(tridi_execute(plan, a, AT(9 * N + 5), c, d, AT(9 * N), NULL, NULL), TRIDI_ERR_OVERLAP, "b",
            "x over a broadcast b", __LINE__);
    if (memcmp(arena, copy, (size_t)len * es)) tt_fail("x over a broadcast b: memory written");
    tridi_plan_destroy(plan);
    tridi_desc_destroy(desc);
#undef AT
    free(arena);
    free(copy);
  }
  tt_assert_no_failures();
}


int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_execute_null),
      TT_TEST(test_execute_misaligned),
      TT_TEST(test_execute_overlap),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
