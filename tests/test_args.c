/* Bad arguments, each in turn: the exact status, a last-error message that
 * names the argument, and nothing written.  Also the accepted corner cases
 * next to each rejected one (in place, touching but not overlapping, AoS,
 * stride 0 on an extent-1 dimension, ...). */
#include "test_args.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* test_plan_alloc asks for petabytes: under AddressSanitizer let malloc
 * return NULL instead of aborting (ASan reads this hook at start-up; an
 * ASAN_OPTIONS setting of the same flag still wins). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* ---- descriptor ---------------------------------------------------------- */

static tridi_desc sentinel(void) { return (tridi_desc)(uintptr_t)0x10; }

static void test_desc_create(void **state) {
  (void)state;
  const int64_t shape[] = {4, 5, 6};
  tridi_desc d = sentinel();
  EXPECT(tridi_desc_create(NULL, TRIDI_F32, 3, shape, 1), TRIDI_ERR_NULL_POINTER, "desc");
  EXPECT(tridi_desc_create(&d, TRIDI_F32, 3, NULL, 1), TRIDI_ERR_NULL_POINTER, "shape");
  assert_null(d);
  const int bad_dtypes[] = {0, 5, -1, 99};
  for (int k = 0; k < 4; ++k) {
    d = sentinel();
    EXPECT(tridi_desc_create(&d, (tridi_dtype)bad_dtypes[k], 3, shape, 1), TRIDI_ERR_INVALID_DTYPE,
           "dtype");
    assert_null(d);
  }
  d = sentinel();
  EXPECT(tridi_desc_create(&d, TRIDI_C32, 3, shape, 1), TRIDI_ERR_NOT_SUPPORTED, "dtype");
  assert_null(d);
  EXPECT(tridi_desc_create(&d, TRIDI_C64, 3, shape, 1), TRIDI_ERR_NOT_SUPPORTED, "dtype");
  assert_null(d);
  const int bad_ranks[] = {0, -1, TRIDI_MAX_RANK + 1, 1000};
  for (int k = 0; k < 4; ++k) {
    d = sentinel();
    EXPECT(tridi_desc_create(&d, TRIDI_F64, bad_ranks[k], shape, 0), TRIDI_ERR_INVALID_RANK, "rank");
    assert_null(d);
  }
  for (int k = 0; k < 3; ++k) { /* each extent negative in turn */
    int64_t s[] = {4, 5, 6};
    s[k] = k == 2 ? INT64_MIN : -1;
    d = sentinel();
    EXPECT(tridi_desc_create(&d, TRIDI_F64, 3, s, 1), TRIDI_ERR_INVALID_SHAPE, "shape");
    assert_null(d);
  }
  {
    const int64_t big1[] = {INT64_MAX, 2};
    const int64_t big2[] = {INT64_C(1) << 32, INT64_C(1) << 32};
    const int64_t big3[] = {INT64_C(1) << 31, INT64_C(1) << 31, 2, 2};
    EXPECT(tridi_desc_create(&d, TRIDI_F32, 2, big1, 0), TRIDI_ERR_INVALID_SHAPE, "shape");
    EXPECT(tridi_desc_create(&d, TRIDI_F32, 2, big2, 0), TRIDI_ERR_INVALID_SHAPE, "shape");
    EXPECT(tridi_desc_create(&d, TRIDI_F32, 4, big3, 3), TRIDI_ERR_INVALID_SHAPE, "shape");
    assert_null(d);
    const int64_t ok[] = {INT64_MAX, 1}; /* product == INT64_MAX is allowed */
    EXPECT(tridi_desc_create(&d, TRIDI_F32, 2, ok, 1), TRIDI_SUCCESS, NULL);
    tridi_desc_destroy(d);
  }
  const int bad_axes[] = {-1, 3, 8, 1000};
  for (int k = 0; k < 4; ++k) {
    d = sentinel();
    EXPECT(tridi_desc_create(&d, TRIDI_F32, 3, shape, bad_axes[k]), TRIDI_ERR_INVALID_AXIS, "axis");
    assert_null(d);
  }
  /* rank 8 and rank 1 are valid */
  const int64_t s8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
  EXPECT(tridi_desc_create(&d, TRIDI_F32, 8, s8, 7), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  EXPECT(tridi_desc_create(&d, TRIDI_F64, 1, shape, 0), TRIDI_SUCCESS, NULL);
  tridi_desc_destroy(d);
  tt_assert_no_failures();
}

static void test_desc_setters(void **state) {
  (void)state;
  const int64_t shape[] = {4, 5}, st[] = {5, 1};
  tridi_desc d;
  assert_int_equal(tridi_desc_create(&d, TRIDI_F32, 2, shape, 1), TRIDI_SUCCESS);
  EXPECT(tridi_desc_set_strides(NULL, TRIDI_OP_A, st), TRIDI_ERR_NULL_POINTER, "desc");
  EXPECT(tridi_desc_set_strides(d, TRIDI_OP_B, NULL), TRIDI_ERR_NULL_POINTER, "strides");
  const int bad_ops[] = {-1, TRIDI_NUM_OPERANDS, 100};
  for (int k = 0; k < 3; ++k)
    EXPECT(tridi_desc_set_strides(d, (tridi_operand)bad_ops[k], st), TRIDI_ERR_INVALID_OPERAND, "op");
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op)
    EXPECT(tridi_desc_set_strides(d, (tridi_operand)op, st), TRIDI_SUCCESS, NULL);
  /* any int64 is accepted by the setter (checked at plan time) */
  const int64_t wild[] = {INT64_MIN, INT64_MAX};
  EXPECT(tridi_desc_set_strides(d, TRIDI_OP_X, wild), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_desc_set_all_strides(NULL, st), TRIDI_ERR_NULL_POINTER, "desc");
  EXPECT(tridi_desc_set_all_strides(d, NULL), TRIDI_ERR_NULL_POINTER, "strides");
  EXPECT(tridi_desc_set_all_strides(d, st), TRIDI_SUCCESS, NULL);
  EXPECT(tridi_desc_set_kind(NULL, TRIDI_KIND_SCALAR), TRIDI_ERR_NULL_POINTER, "desc");
  const tridi_kind kinds[] = {TRIDI_KIND_BLOCK, TRIDI_KIND_VARIABLE, TRIDI_KIND_TOEPLITZ,
                              TRIDI_KIND_DISTRIBUTED};
  for (int k = 0; k < 4; ++k) EXPECT(tridi_desc_set_kind(d, kinds[k]), TRIDI_ERR_NOT_SUPPORTED, "kind");
  EXPECT(tridi_desc_set_kind(d, TRIDI_KIND_SCALAR), TRIDI_SUCCESS, NULL);
  int64_t ns = 0;
  EXPECT(tridi_desc_num_systems(NULL, &ns), TRIDI_ERR_NULL_POINTER, "desc");
  EXPECT(tridi_desc_num_systems(d, NULL), TRIDI_ERR_NULL_POINTER, "num_systems");
  EXPECT(tridi_desc_num_systems(d, &ns), TRIDI_SUCCESS, NULL);
  assert_int_equal(ns, 4);
  tridi_desc_destroy(d);
  tt_assert_no_failures();
}

/* ---- plan creation --------------------------------------------------------- */

static tridi_desc make_desc(tridi_dtype dt, int64_t B, int64_t n) {
  const int64_t shape[] = {B, n};
  tridi_desc d = NULL;
  assert_int_equal(tridi_desc_create(&d, dt, 2, shape, 1), TRIDI_SUCCESS);
  return d;
}

static tridi_plan sentinel_plan(void) { return (tridi_plan)(uintptr_t)0x10; }

static void test_plan_options(void **state) {
  (void)state;
  tridi_desc d = make_desc(TRIDI_F64, 4, 5);
  tridi_plan p = sentinel_plan();
  tridi_options o;
  tridi_options_init(&o);
  EXPECT(tridi_plan_create(NULL, d, &o), TRIDI_ERR_NULL_POINTER, "plan");
  EXPECT(tridi_plan_create(&p, NULL, &o), TRIDI_ERR_NULL_POINTER, "desc");
  assert_null(p);
  EXPECT(tridi_plan_create(&p, d, NULL), TRIDI_SUCCESS, NULL); /* NULL options: defaults */
  tridi_plan_destroy(p);

#define BAD_OPTION(field, value, word)                                             \
  do {                                                                              \
    tridi_options_init(&o);                                                         \
    o.field = value;                                                                \
    p = sentinel_plan();                                                            \
    EXPECT(tridi_plan_create(&p, d, &o), TRIDI_ERR_INVALID_OPTION, word);           \
    if (p) {                                                                        \
      tt_fail("line %d: *plan not NULL after a failed tridi_plan_create", __LINE__); \
      p = NULL;                                                                     \
    }                                                                               \
  } while (0)
  /* the first release's struct ended with `flags`: anything shorter is refused */
  BAD_OPTION(struct_size, 0, "struct_size");
  BAD_OPTION(struct_size, offsetof(tridi_options, flags) + sizeof(unsigned int) - 1, "struct_size");
  BAD_OPTION(backend, (tridi_backend)-1, "backend");
  BAD_OPTION(backend, (tridi_backend)4, "backend");
  BAD_OPTION(backend, (tridi_backend)99, "backend");
  BAD_OPTION(alg, (tridi_alg)-1, "alg");
  BAD_OPTION(alg, (tridi_alg)(TRIDI_ALG_LU_PARTIAL + 1), "alg");
  BAD_OPTION(pivot, (tridi_pivot)-1, "pivot");
  BAD_OPTION(pivot, (tridi_pivot)(TRIDI_PIVOT_PARTIAL + 1), "pivot");
  BAD_OPTION(assume_dominant, 2, "assume_dominant");
  BAD_OPTION(assume_dominant, -1, "assume_dominant");
  BAD_OPTION(num_threads, -1, "num_threads");
  BAD_OPTION(simd, (tridi_simd)-1, "simd");
  BAD_OPTION(simd, (tridi_simd)(TRIDI_SIMD_AVX512 + 1), "simd");
  BAD_OPTION(flags, 1u, "flags");
  BAD_OPTION(flags, 0x80000000u, "flags");
  BAD_OPTION(device, -1, "device");
#undef BAD_OPTION
  /* the pivot mode against a forced algorithm, old option structs: tests/pivot/test_modes.c */

  /* algorithms that do not exist for a backend */
  const struct {
    tridi_backend be;
    tridi_alg alg;
  } na[] = {{TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS},          {TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_SHARED},
            {TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_SHUFFLE},  {TRIDI_BACKEND_REF, TRIDI_ALG_THOMAS_PCR},
            {TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_SHARED},   {TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_SHUFFLE},
            {TRIDI_BACKEND_CPU, TRIDI_ALG_THOMAS_PCR},      {TRIDI_BACKEND_AUTO, TRIDI_ALG_THOMAS_SHARED}};
  for (size_t k = 0; k < sizeof na / sizeof na[0]; ++k) {
    tridi_options_init(&o);
    o.backend = na[k].be;
    o.alg = na[k].alg;
    p = sentinel_plan();
    char what[128];
    snprintf(what, sizeof what, "tridi_plan_create(backend %s, alg %s)", tridi_backend_name(na[k].be),
             tridi_alg_name(na[k].alg));
    expect_(tridi_plan_create(&p, d, &o), TRIDI_ERR_NOT_SUPPORTED, tridi_alg_name(na[k].alg), what,
            __LINE__);
    if (p) {
      tridi_plan_destroy(p);
      p = NULL;
    }
  }
  /* SIMD levels beyond the CPU's */
  for (int s = (int)tridi_cpu_simd_detect() + 1; s <= TRIDI_SIMD_AVX512; ++s) {
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CPU;
    o.alg = TRIDI_ALG_THOMAS;
    o.simd = (tridi_simd)s;
    EXPECT(tridi_plan_create(&p, d, &o), TRIDI_ERR_NOT_SUPPORTED, "simd");
  }
  /* CUDA where there is none */
  if (!tridi_backend_available(TRIDI_BACKEND_CUDA)) {
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    p = sentinel_plan();
    EXPECT(tridi_plan_create(&p, d, &o), TRIDI_ERR_BACKEND_UNAVAILABLE, NULL);
    assert_null(p);
    if (!strstr(tridi_last_error(), "CUDA") && !strstr(tridi_last_error(), "cuda"))
      tt_fail("BACKEND_UNAVAILABLE message \"%s\" does not mention CUDA", tridi_last_error());
  } else {
    print_message("note: CUDA is available here; BACKEND_UNAVAILABLE not exercised\n");
  }
  /* reserved kinds cannot reach the planner: set_kind refuses them */
  tridi_desc_destroy(d);
  tt_assert_no_failures();
}

/* Plan with the strides of operand `op` set to st; checks the status (and
 * the last error naming `word`) right after tridi_plan_create. */
static void plan_with_(const int64_t *shape, int rank, int axis, int op, const int64_t *st,
                       tridi_dtype dt, tridi_status want, const char *word, const char *what, int line) {
  tridi_desc d = NULL;
  tridi_status s = tridi_desc_create(&d, dt, rank, shape, axis);
  if (!s) s = tridi_desc_set_strides(d, (tridi_operand)op, st);
  if (s) {
    tt_fail("line %d: %s: descriptor set-up failed (%s)", line, what, tridi_status_name(s));
    tridi_desc_destroy(d);
    return;
  }
  tridi_plan p = sentinel_plan();
  s = tridi_plan_create(&p, d, NULL);
  expect_(s, want, word, what, line);
  if (s && p) tt_fail("line %d: %s: *plan not NULL after a failed tridi_plan_create", line, what);
  if (!s) tridi_plan_destroy(p);
  tridi_desc_destroy(d);
}
#define PLAN_WITH(shape, rank, axis, op, st, dt, want, word) \
  plan_with_((shape), (rank), (axis), (op), (st), (dt), (want), (word), #st, __LINE__)

static void test_plan_strides(void **state) {
  (void)state;
  static const char names[] = "abcdx";
  const int64_t shape[] = {4, 5};
  /* x strides that alias */
  const int64_t alias[][2] = {{1, 1}, {0, 1}, {5, 0}, {2, 1}, {4, 1}, {-5, 5}, {1, 3}, {0, 0}};
  for (size_t k = 0; k < sizeof alias / sizeof alias[0]; ++k) {
    char what[96];
    snprintf(what, sizeof what, "x strides (%" PRId64 ",%" PRId64 ") on shape (4,5)", alias[k][0],
             alias[k][1]);
    plan_with_(shape, 2, 1, TRIDI_OP_X, alias[k], TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, "x", what, __LINE__);
  }
  /* the same strides on an input are fine (broadcast / overlapping reads) */
  for (size_t k = 0; k < sizeof alias / sizeof alias[0]; ++k)
    for (int op = 0; op < 4; ++op)
      PLAN_WITH(shape, 2, 1, op, alias[k], TRIDI_F32, TRIDI_SUCCESS, NULL);
  /* x strides that do not alias */
  const int64_t fine[][2] = {{5, 1}, {1, 4}, {-5, -1}, {6, 1}, {1, -4}, {-1, 4}, {10, 2}};
  for (size_t k = 0; k < sizeof fine / sizeof fine[0]; ++k)
    PLAN_WITH(shape, 2, 1, TRIDI_OP_X, fine[k], TRIDI_F64, TRIDI_SUCCESS, NULL);
  /* stride 0 (or anything) on an extent-1 dimension does not alias */
  const int64_t s15[] = {1, 5}, s41[] = {4, 1};
  const int64_t z1[] = {0, 1}, z2[] = {1, 0}, huge[] = {INT64_MAX, 1};
  PLAN_WITH(s15, 2, 1, TRIDI_OP_X, z1, TRIDI_F32, TRIDI_SUCCESS, NULL);
  PLAN_WITH(s41, 2, 1, TRIDI_OP_X, z2, TRIDI_F32, TRIDI_SUCCESS, NULL);
  PLAN_WITH(s15, 2, 1, TRIDI_OP_X, huge, TRIDI_F32, TRIDI_SUCCESS, NULL);
  /* offsets that overflow int64, each operand in turn */
  for (int op = 0; op < TRIDI_NUM_OPERANDS; ++op) {
    const char w[2] = {names[op], 0};
    const int64_t o1[] = {INT64_MAX / 2, 1};        /* 3 * (MAX/2) */
    const int64_t o2[] = {1, -(INT64_MAX / 3)};     /* -4 * (MAX/3) */
    const int64_t o3[] = {INT64_MAX / 5, INT64_MAX / 5}; /* 3*MAX/5 + 4*MAX/5 */
    const int64_t o4[] = {INT64_MAX / 4, 1};        /* 3*MAX/4 elements: bytes overflow */
    const int64_t o5[] = {-(INT64_MAX / 5), -(INT64_MAX / 5)}; /* -3*MAX/5 - 4*MAX/5 */
    const int64_t o6[] = {INT64_MIN, 1};
    PLAN_WITH(shape, 2, 1, op, o5, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, w);
    PLAN_WITH(shape, 2, 1, op, o6, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, w);
    PLAN_WITH(shape, 2, 1, op, o1, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, w);
    PLAN_WITH(shape, 2, 1, op, o2, TRIDI_F64, TRIDI_ERR_INVALID_STRIDE, w);
    PLAN_WITH(shape, 2, 1, op, o3, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, w);
    PLAN_WITH(shape, 2, 1, op, o4, TRIDI_F64, TRIDI_ERR_INVALID_STRIDE, w);
  }
  /* 8-D: sum of eight dimensions overflows though each one fits */
  {
    const int64_t s8[8] = {2, 2, 2, 2, 2, 2, 2, 5};
    int64_t st[8];
    for (int k = 0; k < 7; ++k) st[k] = INT64_MAX / 20 * (k + 1); /* sum 1.4 MAX */
    st[7] = 1;
    PLAN_WITH(s8, 8, 7, TRIDI_OP_B, st, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, "b");
  }
  tt_assert_no_failures();
}

/* x strides that map distinct elements to distinct addresses although no
 * stride exceeds the span of the smaller ones: (3,2) on shape (2,3) gives
 * offsets 0,2,4,3,5,7.  The header promises INVALID_STRIDE only when two
 * elements share an address. */
static void test_plan_strides_injective_interleaved(void **state) {
  (void)state;
  const int64_t shape[] = {2, 3}, st[] = {3, 2};
  PLAN_WITH(shape, 2, 1, TRIDI_OP_X, st, TRIDI_F64, TRIDI_SUCCESS, NULL);
  const int64_t s33[] = {3, 3}, st23[] = {2, 3};         /* 2s+3i on 3x3: distinct */
  PLAN_WITH(s33, 2, 1, TRIDI_OP_X, st23, TRIDI_F32, TRIDI_SUCCESS, NULL);
  const int64_t s43[] = {4, 3};                          /* 2*3+0 == 0+3*2: alias */
  PLAN_WITH(s43, 2, 1, TRIDI_OP_X, st23, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, "x");
  const int64_t s34[] = {3, 4};                          /* 3*2+0 == 0+2*3: alias */
  PLAN_WITH(s34, 2, 1, TRIDI_OP_X, st, TRIDI_F32, TRIDI_ERR_INVALID_STRIDE, "x");
  const int64_t s3d[] = {3, 4, 5}, st3d[] = {7, 3, 2};  /* 7a+3b+2c: 7+0+0 == 0+3+2*2: alias */
  PLAN_WITH(s3d, 3, 2, TRIDI_OP_X, st3d, TRIDI_F64, TRIDI_ERR_INVALID_STRIDE, "x");
  tt_assert_no_failures();
}

/* INT64_MIN (or any other value) as the stride of a dimension of extent 1 or
 * 0 is accepted: such a stride never multiplies a nonzero index.  Every host
 * configuration, the algorithm rows included, plans and solves with it on a
 * batch dimension, on an n = 1 axis, for one operand or all, in place too;
 * INT64_MIN on a dimension of extent 2 stays refused. */
static void test_plan_strides_extent1(void **state) {
  (void)state;
  tt_config cfg[2 * TT_MAX_CONFIGS];
  int nc = tt_configs(cfg);
  nc += tt_alg_configs(cfg + nc);
  const int64_t shape_b[] = {3, 1, 7}, shape_n1[] = {4, 1}, shape_e0[] = {0, 5};
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (int lay = 0; lay < 5; ++lay) {
      const tridi_dtype dt = t ? TRIDI_F64 : TRIDI_F32;
      tt_layout L;
      if (lay < 3) { /* batch dimension of extent 1: one operand (x, then a), all, in place */
        tt_layout_packed(&L, "int64min batch dim", dt, 3, shape_b, 2);
        for (int op = 0; op < TT_NOPS; ++op)
          if (lay == 2 || op == (lay == 0 ? TT_X : TT_A)) L.strides[op][1] = INT64_MIN;
        L.inplace = lay == 2;
      } else if (lay == 3) { /* n = 1: the axis stride */
        tt_layout_packed(&L, "int64min axis n=1", dt, 2, shape_n1, 1);
        for (int op = 0; op < TT_NOPS; ++op) L.strides[op][1] = INT64_MIN;
      } else { /* extent 0: nothing to solve */
        tt_layout_packed(&L, "int64min extent 0", dt, 2, shape_e0, 1);
        for (int op = 0; op < TT_NOPS; ++op) L.strides[op][0] = INT64_MIN;
      }
      tt_problem P;
      if (tt_problem_init(&P, &L, tt_case_seed("args_extent1", k++), NULL)) continue;
      char lstr[400];
      tt_problem_str(&P, lstr, sizeof lstr);
      for (int c = 0; c < nc; ++c) {
        const tridi_alg alg = cfg[c].opts.alg;
        /* RD's results on these dominant systems are judged in tests/algs */
        if (alg == TRIDI_ALG_RD || alg == TRIDI_ALG_CR_RD) continue;
        char ctx[520];
        snprintf(ctx, sizeof ctx, "[%s] [%s]", lstr, cfg[c].name);
        tridi_plan plan = NULL;
        if (!tt_expect_status(tt_problem_plan(&P, cfg[c].null_opts ? NULL : &cfg[c].opts, &plan),
                              TRIDI_SUCCESS, ctx))
          continue;
        tt_info I;
        tt_info_alloc(&I, P.nsys);
        tt_problem_solve_check(&P, plan, &I, TRIDI_SUCCESS, ctx);
        tt_info_free(&I);
        tridi_plan_destroy(plan);
      }
      tt_problem_free(&P);
    }
  /* extent 2: the offset of index 1 is INT64_MIN itself, but the stride's
   * magnitude does not fit: refused, naming the operand */
  const int64_t s23[] = {2, 3}, bad[] = {INT64_MIN, 1};
  PLAN_WITH(s23, 2, 1, TRIDI_OP_C, bad, TRIDI_F64, TRIDI_ERR_INVALID_STRIDE, "c");
  tt_assert_no_failures();
}

/* Systems too long for any workspace: TRIDI_ERR_ALLOC (or, where a solver
 * cannot even size its workspace, ALLOC too), *plan NULL, a message. */
static void test_plan_alloc(void **state) {
  (void)state;
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  const int64_t ns[] = {INT64_C(1) << 50, INT64_C(1) << 60};
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < nc; ++c) {
      const int64_t shape[] = {1, ns[k]};
      tridi_desc d;
      /* 2^60 floats: byte offsets still fit in int64 (2^60 doubles would not) */
      assert_int_equal(tridi_desc_create(&d, k ? TRIDI_F32 : TRIDI_F64, 2, shape, 1), TRIDI_SUCCESS);
      tridi_plan p = sentinel_plan();
      char what[160];
      snprintf(what, sizeof what, "[%s] tridi_plan_create with n = 2^%d", cfg[c].name, k ? 60 : 50);
      expect_(tridi_plan_create(&p, d, cfg[c].null_opts ? NULL : &cfg[c].opts), TRIDI_ERR_ALLOC, NULL, what,
              __LINE__);
      if (p) {
        tt_fail("%s: *plan not NULL after a failure", what);
        if (p != sentinel_plan()) tridi_plan_destroy(p);
      }
      tridi_desc_destroy(d);
    }
  tt_assert_no_failures();
}

/* ---- NULL pointers, one table row per entry point ------------------------- */

/* Valid arguments for every entry point; each row's call passes them but
 * the pointer argument `null_arg` (an index into the row's args) as NULL. */
typedef struct null_env {
  tridi_desc desc;
  tridi_plan plan;
  tt_problem *P;
  void *ws;
  size_t ws_bytes;
} null_env;

static const void *nn(const void *p, int k, int null_arg) { return k == null_arg ? NULL : p; }

static tridi_status call_desc_create(const null_env *E, int k) {
  (void)E;
  const int64_t shape[] = {4, 5};
  tridi_desc d = sentinel();
  const tridi_status st = tridi_desc_create((tridi_desc *)nn(&d, 0, k), TRIDI_F64, 2,
                                            (const int64_t *)nn(shape, 1, k), 1);
  if (k == 1 && d != NULL) tt_fail("tridi_desc_create(shape = NULL): *desc not set to NULL");
  if (st == TRIDI_SUCCESS && k != 0) tridi_desc_destroy(d);
  return st;
}
static tridi_status call_desc_set_strides(const null_env *E, int k) {
  const int64_t st[] = {5, 1};
  return tridi_desc_set_strides((tridi_desc)nn(E->desc, 0, k), TRIDI_OP_C, (const int64_t *)nn(st, 1, k));
}
static tridi_status call_desc_set_all_strides(const null_env *E, int k) {
  const int64_t st[] = {5, 1};
  return tridi_desc_set_all_strides((tridi_desc)nn(E->desc, 0, k), (const int64_t *)nn(st, 1, k));
}
static tridi_status call_desc_set_kind(const null_env *E, int k) {
  return tridi_desc_set_kind((tridi_desc)nn(E->desc, 0, k), TRIDI_KIND_SCALAR);
}
static tridi_status call_desc_num_systems(const null_env *E, int k) {
  int64_t ns = 0;
  return tridi_desc_num_systems((tridi_desc)nn(E->desc, 0, k), (int64_t *)nn(&ns, 1, k));
}
static tridi_status call_plan_create(const null_env *E, int k) {
  tridi_plan p = sentinel_plan();
  const tridi_status st = tridi_plan_create((tridi_plan *)nn(&p, 0, k), (tridi_desc)nn(E->desc, 1, k), NULL);
  if (k == 1 && p != NULL) tt_fail("tridi_plan_create(desc = NULL): *plan not set to NULL");
  if (st == TRIDI_SUCCESS) tridi_plan_destroy(p);
  return st;
}
static tridi_status call_plan_workspace_size(const null_env *E, int k) {
  size_t b = 0;
  return tridi_plan_workspace_size((tridi_plan)nn(E->plan, 0, k), (size_t *)nn(&b, 1, k));
}
static tridi_status call_plan_get_info(const null_env *E, int k) {
  tridi_plan_info pi;
  memset(&pi, 0, sizeof pi);
  pi.struct_size = sizeof pi;
  return tridi_plan_get_info((tridi_plan)nn(E->plan, 0, k), (tridi_plan_info *)nn(&pi, 1, k));
}
static tridi_status call_execute(const null_env *E, int k) {
  const tt_problem *P = E->P;
  return tridi_execute((tridi_plan)nn(E->plan, 0, k), nn(tt_ptr(P, TT_A), 1, k), nn(tt_ptr(P, TT_B), 2, k),
                       nn(tt_ptr(P, TT_C), 3, k), nn(tt_ptr(P, TT_D), 4, k),
                       (void *)nn(tt_ptr(P, TT_X), 5, k), NULL, NULL);
}
static tridi_status call_execute_ws(const null_env *E, int k) {
  const tt_problem *P = E->P;
  return tridi_execute_ws((tridi_plan)nn(E->plan, 0, k), nn(tt_ptr(P, TT_A), 1, k),
                          nn(tt_ptr(P, TT_B), 2, k), nn(tt_ptr(P, TT_C), 3, k),
                          nn(tt_ptr(P, TT_D), 4, k), (void *)nn(tt_ptr(P, TT_X), 5, k), NULL, NULL,
                          E->ws, E->ws_bytes);
}
static tridi_status call_pivot_from_name(const null_env *E, int k) {
  (void)E;
  tridi_pivot pv = TRIDI_PIVOT_NONE;
  return tridi_pivot_from_name((const char *)nn("partial", 0, k), (tridi_pivot *)nn(&pv, 1, k));
}

/* One row per entry point: its pointer arguments that must not be NULL, in
 * order (NULL-terminated), and a call that nulls the k-th of them.  A new
 * entry point adds one row. */
static const struct null_row {
  const char *entry;
  const char *args[8];
  tridi_status (*call)(const null_env *E, int k);
} null_rows[] = {
    {"tridi_desc_create", {"desc", "shape", NULL}, call_desc_create},
    {"tridi_desc_set_strides", {"desc", "strides", NULL}, call_desc_set_strides},
    {"tridi_desc_set_all_strides", {"desc", "strides", NULL}, call_desc_set_all_strides},
    {"tridi_desc_set_kind", {"desc", NULL}, call_desc_set_kind},
    {"tridi_desc_num_systems", {"desc", "num_systems", NULL}, call_desc_num_systems},
    {"tridi_plan_create", {"plan", "desc", NULL}, call_plan_create},
    {"tridi_plan_workspace_size", {"plan", "bytes", NULL}, call_plan_workspace_size},
    {"tridi_plan_get_info", {"plan", "info", NULL}, call_plan_get_info},
    {"tridi_execute", {"plan", "a", "b", "c", "d", "x", NULL}, call_execute},
    {"tridi_execute_ws", {"plan", "a", "b", "c", "d", "x", NULL}, call_execute_ws},
    {"tridi_pivot_from_name", {"name", "pivot", NULL}, call_pivot_from_name},
};

/* Every row, every pointer argument nulled in turn: TRIDI_ERR_NULL_POINTER,
 * tridi_last_error() naming the argument, nothing written; and the same call
 * with no NULL succeeds (the table's calls are valid otherwise). */
static void test_null_table(void **state) {
  (void)state;
  const int64_t shape[] = {4, 5};
  tt_layout L;
  tt_layout_packed(&L, "args 4x5", TRIDI_F64, 2, shape, 1);
  tt_problem P;
  assert_int_equal(tt_problem_init(&P, &L, tt_case_seed("null_table", 0), NULL), 0);
  null_env E = {NULL, NULL, &P, NULL, 0};
  assert_int_equal(tridi_desc_create(&E.desc, TRIDI_F64, 2, shape, 1), TRIDI_SUCCESS);
  assert_int_equal(tridi_plan_create(&E.plan, E.desc, NULL), TRIDI_SUCCESS);
  assert_int_equal(tridi_plan_workspace_size(E.plan, &E.ws_bytes), TRIDI_SUCCESS);
  E.ws = E.ws_bytes ? tridi_aligned_alloc(E.ws_bytes) : NULL;
  for (size_t r = 0; r < sizeof null_rows / sizeof null_rows[0]; ++r) {
    const struct null_row *row = &null_rows[r];
    for (int k = 0; row->args[k]; ++k) {
      char what[160];
      snprintf(what, sizeof what, "%s with %s = NULL", row->entry, row->args[k]);
      expect_(row->call(&E, k), TRIDI_ERR_NULL_POINTER, row->args[k], what, __LINE__);
      tt_problem_check_untouched(&P, what);
    }
    char what_ok[160];
    snprintf(what_ok, sizeof what_ok, "%s with valid arguments", row->entry);
    expect_(row->call(&E, -1), TRIDI_SUCCESS, NULL, what_ok, __LINE__);
    tt_problem_reset(&P);
  }
  tridi_aligned_free(E.ws);
  tridi_plan_destroy(E.plan);
  tridi_desc_destroy(E.desc);
  tt_problem_free(&P);
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_desc_create),
      TT_TEST(test_desc_setters),
      TT_TEST(test_plan_options),
      TT_TEST(test_plan_strides),
      TT_TEST(test_plan_strides_injective_interleaved),
      TT_TEST(test_plan_strides_extent1),
      TT_TEST(test_plan_alloc),
      TT_TEST(test_null_table),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
