/* Element offsets beyond 2^31 (and 2^32): systems placed far apart in big
 * sparse mappings (mmap MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE; only
 * the touched pages become memory).  Each case is solved by every host
 * configuration and compared with the reference solver run on the same
 * memory; the elements next to every x element must stay untouched.
 * Skipped (cmocka skip) where the mappings cannot be made. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "tt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define S31 ((INT64_C(1) << 31) + 12345)
#define S30 ((INT64_C(1) << 30) + 7)

typedef struct big_case {
  const char *name;
  int rank, axis;
  int64_t shape[3];
  int64_t strides[3];
  int64_t gap; /* elements between the inputs' base pointers */
} big_case;

static const big_case cases[] = {
    {"batch stride 2^31+12345, (3,n=1000) axis 1", 2, 1, {3, 1000}, {S31, 1}, 1008},
    {"negative batch stride, (3,n=1000) axis 1", 2, 1, {3, 1000}, {-S31, 1}, 1008},
    {"axis stride 2^30+7, (n=5,2) axis 0", 2, 0, {5, 2}, {S30, 1}, 8},
    {"negative axis stride, (n=5,3) axis 0", 2, 0, {5, 3}, {-S30, 1}, 8},
    {"middle axis, (2,n=300,2) strides (2^31+12345,2,1)", 3, 1, {2, 300, 2}, {S31, 2, 1}, 608},
};

static void *map_bytes(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void run_case(const big_case *C, tridi_dtype dt, int *skipped) {
  const size_t es = tridi_dtype_size(dt);
  tt_layout L;
  tt_layout_shared(&L, C->name, dt, C->rank, C->shape, C->axis, C->strides);
  const int64_t n = tt_layout_n(&L), nsys = tt_layout_nsys(&L);
  int64_t lo = 0, hi = 0;
  for (int k = 0; k < L.rank; ++k) {
    const int64_t span = (L.shape[k] - 1) * L.strides[0][k];
    if (span > 0) hi += span;
    else lo += span;
  }
  const int64_t in_len = hi - lo + 1 + 4 * C->gap + 2, x_len = hi - lo + 1 + 2;
  unsigned char *mi = map_bytes((size_t)in_len * es);
  unsigned char *mx = mi ? map_bytes((size_t)x_len * es) : NULL;
  if (!mi || !mx) {
    if (mi) munmap(mi, (size_t)in_len * es);
    print_message("note: cannot map %.1f GiB of address space; skipping \"%s\"\n",
                  (double)(in_len + x_len) * (double)es / (1 << 30), C->name);
    *skipped = 1;
    return;
  }
  /* element (0,...,0) of operand k: inputs gap apart, x alone */
  unsigned char *base[TT_NOPS];
  for (int op = 0; op < 4; ++op) base[op] = mi + (size_t)(1 - lo + op * C->gap) * es;
  base[TT_X] = mx + (size_t)(1 - lo) * es;

  tt_rng rng;
  tt_rng_init(&rng, tt_case_seed("bigoffset", (uint64_t)(C - cases) * 2 + (dt == TRIDI_F64)));
  const int64_t sa = L.strides[0][L.axis];
  for (int64_t s = 0; s < nsys; ++s) {
    int64_t off[TT_NOPS];
    tt_system_offsets(&L, s, off);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t e = off[0] + i * sa;
      tt_store(base[TT_A], es, e, i == 0 ? NAN : tt_rng_uniform(&rng, -1, 1));
      double b = tt_rng_uniform(&rng, 3, 5);
      tt_store(base[TT_B], es, e, (tt_rng_u64(&rng) & 1) ? -b : b);
      tt_store(base[TT_C], es, e, i == n - 1 ? NAN : tt_rng_uniform(&rng, -1, 1));
      tt_store(base[TT_D], es, e, tt_rng_uniform(&rng, -1, 1));
    }
  }
  /* reference on the same memory */
  double *xref = malloc((size_t)(n * nsys) * sizeof *xref);
  unsigned char *tmp = malloc((size_t)n * es * 2);
  assert_non_null(xref);
  assert_non_null(tmp);
  for (int64_t s = 0; s < nsys; ++s) {
    int64_t off[TT_NOPS];
    tt_system_offsets(&L, s, off);
    int32_t code;
    if (es == 4) {
      const float *p[4];
      for (int k = 0; k < 4; ++k) p[k] = (const float *)(const void *)base[k] + off[0];
      code = tridi_ref_thomas_f32(n, p[0], sa, p[1], sa, p[2], sa, p[3], sa, (float *)tmp, 1,
                                  (float *)tmp + n);
    } else {
      const double *p[4];
      for (int k = 0; k < 4; ++k) p[k] = (const double *)(const void *)base[k] + off[0];
      code = tridi_ref_thomas_f64(n, p[0], sa, p[1], sa, p[2], sa, p[3], sa, (double *)tmp, 1,
                                  (double *)tmp + n);
    }
    assert_int_equal(code, 0);
    for (int64_t i = 0; i < n; ++i) xref[s * n + i] = tt_load(tmp, es, i);
  }

  tt_config cfg[TT_MAX_CONFIGS];
  const int nc = tt_configs(cfg);
  const double tol = TT_CLOSE_C * (double)n * (es == 4 ? FLT_EPSILON : DBL_EPSILON);
  for (int c = 0; c < nc; ++c) {
    char ctx[300];
    snprintf(ctx, sizeof ctx, "[%s %s] [%s]", C->name, tridi_dtype_name(dt), cfg[c].name);
    tridi_desc desc;
    assert_int_equal(tridi_desc_create(&desc, dt, L.rank, L.shape, L.axis), TRIDI_SUCCESS);
    assert_int_equal(tridi_desc_set_all_strides(desc, C->strides), TRIDI_SUCCESS);
    tridi_plan plan;
    const tridi_status pst = tridi_plan_create(&plan, desc, cfg[c].null_opts ? NULL : &cfg[c].opts);
    tridi_desc_destroy(desc);
    if (!tt_expect_status(pst, TRIDI_SUCCESS, ctx)) continue;
    /* poison x and its neighbours */
    for (int64_t s = 0; s < nsys; ++s) {
      int64_t off[TT_NOPS];
      tt_system_offsets(&L, s, off);
      for (int64_t i = 0; i < n; ++i) tt_poison(base[TT_X] + (off[0] + i * sa - 1) * (int64_t)es, es, 3);
    }
    int32_t info[16];
    for (int j = 0; j < 16; ++j) info[j] = TT_INFO_POISON;
    tt_expect_status(tridi_execute(plan, base[0], base[1], base[2], base[3], base[4], info, NULL),
                     TRIDI_SUCCESS, ctx);
    tridi_plan_destroy(plan);
    for (int64_t s = 0; s < nsys; ++s) {
      if (info[s] != 0) tt_fail("%s: info[%" PRId64 "] = %d", ctx, s, info[s]);
      int64_t off[TT_NOPS];
      tt_system_offsets(&L, s, off);
      double dmax = 0, xmax = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double v = tt_load(base[TT_X], es, off[0] + i * sa);
        dmax = isnan(v) ? INFINITY : fmax(dmax, fabs(v - xref[s * n + i]));
        xmax = fmax(xmax, fabs(xref[s * n + i]));
      }
      if (!(dmax <= tol * xmax))
        tt_fail("%s: system %" PRId64 " (offset %" PRId64 "): difference to the reference %.3g > %.3g", ctx,
                s, off[0], dmax / xmax, tol);
    }
    /* neighbours untouched (they are not described: strides > 1 or system ends) */
    for (int64_t s = 0; s < nsys; ++s) {
      int64_t off[TT_NOPS];
      tt_system_offsets(&L, s, off);
      for (int64_t i = 0; i < n; ++i)
        for (int d = -1; d <= 1; d += 2) {
          const int64_t e = off[0] + i * sa + d;
          int described = 0; /* is e some other described element? */
          for (int64_t s2 = 0; s2 < nsys && !described; ++s2) {
            int64_t o2[TT_NOPS];
            tt_system_offsets(&L, s2, o2);
            const int64_t r = e - o2[0];
            described = sa != 0 && r % sa == 0 && r / sa >= 0 && r / sa < n;
          }
          if (described) continue;
          const unsigned char *q = base[TT_X] + e * (int64_t)es;
          if (es == 4 ? memcmp(q, &tt_poison_f32, 4) : memcmp(q, &tt_poison_f64, 8)) {
            tt_fail("%s: element at offset %" PRId64 " (next to system %" PRId64 " row %" PRId64
                    ") was written",
                    ctx, e, s, i);
            s = nsys;
            break;
          }
        }
    }
  }
  free(xref);
  free(tmp);
  munmap(mi, (size_t)in_len * es);
  munmap(mx, (size_t)x_len * es);
}

static void test_big_offsets(void **state) {
  (void)state;
  int skipped = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    run_case(&cases[k], TRIDI_F32, &skipped);
    run_case(&cases[k], TRIDI_F64, &skipped);
  }
  tt_assert_no_failures();
  if (skipped) skip();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_big_offsets),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
