/* Library information: status strings and names, enum names, sizes,
 * version, backend availability, SIMD detection, plan info, descriptor
 * queries, per-thread last error. */
#include "tt.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void test_status_strings(void **state) {
  (void)state;
  static const char *const names[] = {
      "TRIDI_SUCCESS",           "TRIDI_ERR_NULL_POINTER",        "TRIDI_ERR_INVALID_DTYPE",
      "TRIDI_ERR_INVALID_RANK",  "TRIDI_ERR_INVALID_SHAPE",       "TRIDI_ERR_INVALID_AXIS",
      "TRIDI_ERR_INVALID_STRIDE", "TRIDI_ERR_INVALID_OPERAND",    "TRIDI_ERR_INVALID_OPTION",
      "TRIDI_ERR_OVERLAP",       "TRIDI_ERR_MISALIGNED",          "TRIDI_ERR_NOT_SUPPORTED",
      "TRIDI_ERR_BACKEND_UNAVAILABLE", "TRIDI_ERR_ALLOC",         "TRIDI_ERR_WORKSPACE",
      "TRIDI_ERR_ZERO_PIVOT",    "TRIDI_ERR_NONFINITE",           "TRIDI_ERR_DEVICE",
      "TRIDI_ERR_INTERNAL",      "TRIDI_ERR_INACCURATE"};
  const int count = (int)(sizeof names / sizeof names[0]);
  assert_int_equal(count, TRIDI_ERR_INACCURATE + 1);
  /* the values are stable: appended, never renumbered */
  assert_int_equal(TRIDI_ERR_INTERNAL, 18);
  assert_int_equal(TRIDI_ERR_INACCURATE, 19);
  assert_int_equal(TRIDI_INFO_INACCURATE, INT32_MAX);
  for (int s = 0; s < count; ++s) {
    const char *str = tridi_status_string((tridi_status)s);
    const char *name = tridi_status_name((tridi_status)s);
    assert_non_null(str);
    assert_non_null(name);
    if (!str[0]) tt_fail("tridi_status_string(%d) is empty", s);
    if (strcmp(name, names[s]) != 0)
      tt_fail("tridi_status_name(%d) = \"%s\", expected \"%s\"", s, name, names[s]);
    if (strcmp(str, "unknown status") == 0) tt_fail("tridi_status_string(%d) is \"unknown status\"", s);
    for (int t = 0; t < s; ++t) {
      if (strcmp(str, tridi_status_string((tridi_status)t)) == 0)
        tt_fail("tridi_status_string(%d) and (%d) are both \"%s\"", s, t, str);
      if (strcmp(name, tridi_status_name((tridi_status)t)) == 0)
        tt_fail("tridi_status_name(%d) and (%d) are both \"%s\"", s, t, name);
    }
  }
  const int bad[] = {-1, count, 1000};
  for (int k = 0; k < 3; ++k) {
    assert_string_equal(tridi_status_string((tridi_status)bad[k]), "unknown status");
    assert_string_equal(tridi_status_name((tridi_status)bad[k]), "TRIDI_UNKNOWN_STATUS");
  }
  tt_assert_no_failures();
}

/* names(lo..hi) non-empty, distinct, not "unknown"; out-of-range "unknown" */
typedef const char *(*name_fn)(int);
static const char *backend_name(int v) { return tridi_backend_name((tridi_backend)v); }
static const char *alg_name(int v) { return tridi_alg_name((tridi_alg)v); }
static const char *simd_name(int v) { return tridi_simd_name((tridi_simd)v); }
static const char *dtype_name(int v) { return tridi_dtype_name((tridi_dtype)v); }
static const char *pivot_name(int v) { return tridi_pivot_name((tridi_pivot)v); }

static void check_names(const char *what, name_fn f, int lo, int hi) {
  for (int v = lo; v <= hi; ++v) {
    const char *s = f(v);
    if (!s || !s[0] || strcmp(s, "unknown") == 0) {
      tt_fail("%s(%d) = \"%s\"", what, v, s ? s : "(null)");
      continue;
    }
    for (int u = lo; u < v; ++u)
      if (strcmp(s, f(u)) == 0) tt_fail("%s(%d) and %s(%d) are both \"%s\"", what, v, what, u, s);
  }
  const int bad[] = {lo - 1, hi + 1, 999};
  for (int k = 0; k < 3; ++k) {
    const char *s = f(bad[k]);
    if (!s || strcmp(s, "unknown") != 0)
      tt_fail("%s(%d) = \"%s\", expected \"unknown\"", what, bad[k], s ? s : "(null)");
  }
}

static void test_enum_names(void **state) {
  (void)state;
  check_names("tridi_backend_name", backend_name, TRIDI_BACKEND_AUTO, TRIDI_BACKEND_CUDA);
  check_names("tridi_alg_name", alg_name, TRIDI_ALG_AUTO, TRIDI_ALG_LU_PARTIAL);
  check_names("tridi_pivot_name", pivot_name, TRIDI_PIVOT_AUTO, TRIDI_PIVOT_PARTIAL);
  check_names("tridi_simd_name", simd_name, TRIDI_SIMD_AUTO, TRIDI_SIMD_AVX512);
  check_names("tridi_dtype_name", dtype_name, TRIDI_F32, TRIDI_C64);
  tt_assert_no_failures();
}

static void test_dtype_size_version(void **state) {
  (void)state;
  assert_int_equal(tridi_dtype_size(TRIDI_F32), 4);
  assert_int_equal(tridi_dtype_size(TRIDI_F64), 8);
  assert_int_equal(tridi_dtype_size(TRIDI_C32), 8);
  assert_int_equal(tridi_dtype_size(TRIDI_C64), 16);
  assert_int_equal(tridi_dtype_size((tridi_dtype)0), 0);
  assert_int_equal(tridi_dtype_size((tridi_dtype)5), 0);
  int ma = -1, mi = -1, pa = -1;
  tridi_version(&ma, &mi, &pa);
  assert_int_equal(ma, TRIDI_VERSION_MAJOR);
  assert_int_equal(mi, TRIDI_VERSION_MINOR);
  assert_int_equal(pa, TRIDI_VERSION_PATCH);
  tridi_version(NULL, NULL, NULL); /* any pointer may be NULL */
  tridi_version(&ma, NULL, NULL);
  assert_int_equal(ma, TRIDI_VERSION_MAJOR);
}

static void test_backends_simd(void **state) {
  (void)state;
  assert_int_equal(tridi_backend_available(TRIDI_BACKEND_REF), 1);
  assert_int_equal(tridi_backend_available(TRIDI_BACKEND_CPU), 1);
  assert_int_equal(tridi_backend_available((tridi_backend)99), 0);
  const int cuda = tridi_backend_available(TRIDI_BACKEND_CUDA);
  assert_true(cuda == 0 || cuda == 1);
  const tridi_simd s = tridi_cpu_simd_detect();
  assert_true(s >= TRIDI_SIMD_PORTABLE && s <= TRIDI_SIMD_AVX512);
  assert_int_equal(tridi_cpu_simd_detect(), s); /* stable */
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && s < TRIDI_SIMD_AVX512)
    print_message("note: the CPU has AVX-512F but tridi_cpu_simd_detect() = %s\n",
                  tridi_simd_name(s));
  if (s >= TRIDI_SIMD_AVX2 && !__builtin_cpu_supports("avx2"))
    fail_msg("tridi_cpu_simd_detect() = %s on a CPU without AVX2", tridi_simd_name(s));
  if (s >= TRIDI_SIMD_AVX512 && !__builtin_cpu_supports("avx512f"))
    fail_msg("tridi_cpu_simd_detect() = AVX512 on a CPU without AVX-512F");
#endif
}

/* Plan info for every configuration, and for plans that ask for each SIMD
 * level and thread count. */
static void test_plan_info(void **state) {
  (void)state;
  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  const int64_t shapes[3][2] = {{100, 33}, {33, 100}, {1, 5}};
  for (int t = 0; t < 2; ++t)
    for (int s = 0; s < 3; ++s)
      for (int c = 0; c < nc; ++c) {
        tridi_desc desc;
        assert_int_equal(tridi_desc_create(&desc, t ? TRIDI_F64 : TRIDI_F32, 2, shapes[s], s == 1 ? 0 : 1),
                         TRIDI_SUCCESS);
        tridi_plan plan;
        char ctx[2048];
        snprintf(ctx, sizeof ctx, "plan info [%s] shape (%d,%d)", cfg[c].name, (int)shapes[s][0],
                 (int)shapes[s][1]);
        if (tt_expect_status(tridi_plan_create(&plan, desc, cfg[c].null_opts ? NULL : &cfg[c].opts),
                             TRIDI_SUCCESS, ctx)) {
          tt_check_plan_info(plan, &cfg[c], s == 1 ? 33 : shapes[s][1], s == 1 ? 100 : shapes[s][0],
                             ctx);
          /* fields beyond struct_size untouched: a bigger struct keeps its tail */
          struct {
            tridi_plan_info pi;
            unsigned char tail[32];
          } big;
          memset(&big, 0xab, sizeof big);
          big.pi.struct_size = sizeof big.pi;
          tt_expect_status(tridi_plan_get_info(plan, &big.pi), TRIDI_SUCCESS, ctx);
          for (int j = 0; j < 32; ++j)
            if (big.tail[j] != 0xab) {
              tt_fail("%s: tridi_plan_get_info wrote past struct_size", ctx);
              break;
            }
          tridi_plan_destroy(plan);
        }
        tridi_desc_destroy(desc);
      }
  /* explicit thread counts are reported */
  const int threads[] = {1, 2, 3, 7};
  for (int k = 0; k < 4; ++k) {
    tridi_desc desc;
    const int64_t shape[] = {50, 20};
    assert_int_equal(tridi_desc_create(&desc, TRIDI_F64, 2, shape, 1), TRIDI_SUCCESS);
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CPU;
    o.num_threads = threads[k];
    tridi_plan plan;
    assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_SUCCESS);
    tridi_plan_info pi;
    pi.struct_size = sizeof pi;
    assert_int_equal(tridi_plan_get_info(plan, &pi), TRIDI_SUCCESS);
    assert_int_equal(pi.num_threads, threads[k]);
    assert_int_equal(pi.backend, TRIDI_BACKEND_CPU);
    tridi_plan_destroy(plan);
    tridi_desc_destroy(desc);
  }
  tt_assert_no_failures();
}

static void test_options_init(void **state) {
  (void)state;
  tridi_options o;
  memset(&o, 0x5a, sizeof o);
  tridi_options_init(&o);
  assert_int_equal(o.struct_size, sizeof o);
  assert_int_equal(o.backend, TRIDI_BACKEND_AUTO);
  assert_int_equal(o.alg, TRIDI_ALG_AUTO);
  assert_int_equal(o.num_threads, 0);
  assert_int_equal(o.simd, TRIDI_SIMD_AUTO);
  assert_int_equal(o.device, 0);
  assert_int_equal(o.flags, 0);
  tridi_options_init(NULL); /* ignored */
}

static void test_desc_queries(void **state) {
  (void)state;
  const int64_t shape[] = {3, 4, 5, 6};
  for (int axis = 0; axis < 4; ++axis) {
    tridi_desc d;
    assert_int_equal(tridi_desc_create(&d, TRIDI_F32, 4, shape, axis), TRIDI_SUCCESS);
    assert_non_null(d);
    int64_t ns = -1;
    assert_int_equal(tridi_desc_num_systems(d, &ns), TRIDI_SUCCESS);
    assert_int_equal(ns, 360 / shape[axis]);
    assert_int_equal(tridi_desc_set_kind(d, TRIDI_KIND_SCALAR), TRIDI_SUCCESS);
    assert_int_equal(tridi_desc_destroy(d), TRIDI_SUCCESS);
  }
  const int64_t z[] = {3, 0, 5};
  tridi_desc d;
  assert_int_equal(tridi_desc_create(&d, TRIDI_F64, 3, z, 2), TRIDI_SUCCESS);
  int64_t ns = -1;
  assert_int_equal(tridi_desc_num_systems(d, &ns), TRIDI_SUCCESS);
  assert_int_equal(ns, 0);
  tridi_desc_destroy(d);
  assert_int_equal(tridi_desc_destroy(NULL), TRIDI_SUCCESS);
  assert_int_equal(tridi_plan_destroy(NULL), TRIDI_SUCCESS);
}

/* last error: empty after success, set after failure, per thread */
static void *other_thread(void *arg) {
  int *ok = arg;
  ok[0] = tridi_last_error()[0] == '\0'; /* a fresh thread sees "" */
  tridi_desc d;
  ok[1] = tridi_desc_create(&d, TRIDI_F32, 0, NULL, 0) == TRIDI_ERR_NULL_POINTER &&
          tridi_last_error()[0] != '\0';
  return NULL;
}

static void test_last_error(void **state) {
  (void)state;
  const int64_t shape[] = {4, -1};
  tridi_desc d = NULL;
  assert_int_equal(tridi_desc_create(&d, TRIDI_F32, 2, shape, 0), TRIDI_ERR_INVALID_SHAPE);
  char saved[512];
  snprintf(saved, sizeof saved, "%s", tridi_last_error());
  assert_true(saved[0] != '\0');
  assert_non_null(strstr(saved, "shape"));
  pthread_t th;
  int ok[2] = {0, 0};
  assert_int_equal(pthread_create(&th, NULL, other_thread, ok), 0);
  pthread_join(th, NULL);
  assert_true(ok[0]);
  assert_true(ok[1]);
  assert_string_equal(tridi_last_error(), saved); /* the other thread's failure is its own */
  const int64_t good[] = {4, 5};
  assert_int_equal(tridi_desc_create(&d, TRIDI_F32, 2, good, 0), TRIDI_SUCCESS);
  assert_string_equal(tridi_last_error(), "");
  tridi_desc_destroy(d);
}

/* tridi_info_check's arguments, and its reading of an info array by hand
 * (the breakdown tests check it against what executes write) */
static void test_info_check(void **state) {
  (void)state;
  const int64_t shape[] = {5, 8}; /* 5 systems of 8 */
  tridi_desc d = NULL;
  assert_int_equal(tridi_desc_create(&d, TRIDI_F64, 2, shape, 1), TRIDI_SUCCESS);
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_CPU;
  tridi_plan plan = NULL;
  assert_int_equal(tridi_plan_create(&plan, d, &o), TRIDI_SUCCESS);
  int32_t info[5] = {0, 0, 0, 0, 0};
  int64_t first = 7;
  assert_int_equal(tridi_info_check(NULL, info, NULL, &first), TRIDI_ERR_NULL_POINTER);
  assert_int_equal(first, -1);
  assert_non_null(strstr(tridi_last_error(), "plan is NULL"));
  assert_int_equal(tridi_info_check(plan, NULL, NULL, NULL), TRIDI_ERR_NULL_POINTER);
  assert_non_null(strstr(tridi_last_error(), "info is NULL"));
  assert_int_equal(tridi_info_check(plan, info, NULL, &first), TRIDI_SUCCESS);
  assert_int_equal(first, -1);
  assert_string_equal(tridi_last_error(), "");
  static const struct {
    int32_t at3, at4;
    tridi_status want;
  } c[] = {{TRIDI_INFO_INACCURATE, 2, TRIDI_ERR_INACCURATE},
           {-6, TRIDI_INFO_INACCURATE, TRIDI_ERR_NONFINITE},
           {1, -1, TRIDI_ERR_ZERO_PIVOT},
           {0, TRIDI_INFO_INACCURATE, TRIDI_ERR_INACCURATE}};
  for (size_t k = 0; k < sizeof c / sizeof c[0]; ++k) {
    info[3] = c[k].at3;
    info[4] = c[k].at4;
    assert_int_equal(tridi_info_check(plan, info, NULL, &first), c[k].want);
    assert_int_equal(first, c[k].at3 ? 3 : 4);
    assert_non_null(strstr(tridi_last_error(), c[k].at3 ? "system 3 " : "system 4 "));
    assert_int_equal(tridi_info_check(plan, info, NULL, NULL), c[k].want); /* first optional */
  }
  tridi_plan_destroy(plan);
  tridi_desc_destroy(d);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_status_strings), TT_TEST(test_enum_names),
      TT_TEST(test_dtype_size_version), TT_TEST(test_backends_simd),
      TT_TEST(test_plan_info),      TT_TEST(test_options_init),
      TT_TEST(test_desc_queries),   TT_TEST(test_last_error),
      TT_TEST(test_info_check),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
