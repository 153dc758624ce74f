/* Tests of the variable-size kind of `tridi bench` (tools/bench_variable.c)
 * that need no GPU: the length distributions, the fill's NaN poison, and the
 * two copies its baselines solve -- the batch padded to its longest system
 * (solved here by tridi's REF backend through bench_var_pad_desc) and the
 * systems gathered into one contiguous batch per length (the input of the
 * cuSPARSE baseline, solved here by a plain Thomas that also asserts what
 * gtsv2StridedBatch requires: m >= 3, dl = 0 on row 0, du = 0 on the last
 * row).  Each solution is taken back into the case's x and must pass the
 * bench's own check: every system's residual within the bound and no
 * element of x outside the systems written.  Exit status 0 when all pass. */
#include "bench.h"
#include "bench_util.h"
#include "bench_var.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      ++failures;                                                               \
      fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                \
      fprintf(stderr, __VA_ARGS__);                                             \
      fputc('\n', stderr);                                                      \
    }                                                                           \
  } while (0)

static double get(const void *p, int f64, int64_t k) {
  return f64 ? ((const double *)p)[k] : (double)((const float *)p)[k];
}
static void put(void *p, int f64, int64_t k, double v) {
  if (f64) ((double *)p)[k] = v;
  else ((float *)p)[k] = (float)v;
}

typedef struct {
  bench_case bc;
  void *buf[BENCH_NOPS];
  bench_data data;
  unsigned char *mask;
} tcase;

static int open_case(tcase *t, const char *layout, tridi_dtype dt, int64_t L, int64_t elems) {
  memset(t, 0, sizeof *t);
  t->bc.kind = &bench_kind_variable;
  t->bc.words_per_unknown = bench_kind_variable.words_per_unknown;
  if (bench_kind_variable.make_case(&t->bc, layout, dt, L, elems) != 0) return 1;
  const size_t bytes = (size_t)t->bc.alloc_elems[0] * tridi_dtype_size(dt);
  for (int k = 0; k < BENCH_NOPS; ++k) t->buf[k] = bench_alloc(bytes);
  t->mask = bench_alloc((size_t)t->bc.alloc_elems[4]);
  t->data = (bench_data){t->buf[0], t->buf[1], t->buf[2], t->buf[3], t->buf[4]};
  return 0;
}

static void close_case(tcase *t) {
  for (int k = 0; k < BENCH_NOPS; ++k) bench_free(t->buf[k]);
  bench_free(t->mask);
  bench_kind_variable.free_case(&t->bc);
}

static bench_var_dist dist_of(const char *layout) {
  const char *d = strchr(layout, '/') + 1;
  return strcmp(d, "uniform") == 0 ? BENCH_VAR_UNIFORM
         : strcmp(d, "half") == 0  ? BENCH_VAR_HALF
         : strcmp(d, "lognormal") == 0 ? BENCH_VAR_LOGNORMAL
                                       : BENCH_VAR_BIMODAL;
}

/* The case's own description: lengths in range, sums, offsets, ld, rows. */
static void test_shape(const tcase *t, int64_t L, int64_t elems) {
  const bench_case *bc = &t->bc;
  const bench_var_case *v = bench_var_of(bc);
  int64_t lo, hi, sum = 0, nmax = 0;
  bench_var_dist_range(dist_of(bc->layout), L, &lo, &hi);
  for (int64_t s = 0; s < bc->batch; ++s) {
    CHECK(v->len[s] >= lo && v->len[s] <= hi, "%s L=%lld: length %lld outside %lld..%lld",
          bc->layout, (long long)L, (long long)v->len[s], (long long)lo, (long long)hi);
    CHECK(v->off[s] == sum, "%s: offset of system %lld", bc->layout, (long long)s);
    sum += v->len[s];
    if (v->len[s] > nmax) nmax = v->len[s];
  }
  CHECK(bc->batch >= 1 && (sum <= elems || bc->batch == 1), "%s: %lld unknowns for %lld",
        bc->layout, (long long)sum, (long long)elems);
  CHECK(bc->unknowns == sum && bc->nmax == nmax && bc->n == L, "%s: unknowns/nmax/n",
        bc->layout);
  if (v->layout == TRIDI_VAR_INTERLEAVED) {
    CHECK(v->ld >= bc->batch && v->ld % 32 == 0 && v->ld - bc->batch < 32 && v->rows == nmax,
          "%s: ld %lld rows %lld for B %lld", bc->layout, (long long)v->ld, (long long)v->rows,
          (long long)bc->batch);
    CHECK(bc->alloc_elems[4] == v->rows * v->ld, "%s: alloc", bc->layout);
  } else {
    CHECK(bc->alloc_elems[4] == sum && v->rows == 0 && v->ld == 0, "%s: alloc", bc->layout);
  }
}

/* The fill: NaN exactly where the solve must not look. */
static void test_poison(const tcase *t) {
  const bench_case *bc = &t->bc;
  const bench_var_case *v = bench_var_of(bc);
  const int f64 = bc->dtype == TRIDI_F64;
  int bad = 0;
  for (int64_t s = 0; s < bc->batch; ++s) {
    bench_sys S;
    bc->kind->system(bc, s, &S);
    const int64_t n = S.n, o = S.off[0], inc = S.inc[0];
    bad += !isnan(get(t->data.a, f64, o)) || !isnan(get(t->data.c, f64, o + (n - 1) * inc));
    for (int64_t i = 0; i < n; ++i) {
      bad += isnan(get(t->data.b, f64, o + i * inc)) || isnan(get(t->data.d, f64, o + i * inc));
      if (i > 0) bad += isnan(get(t->data.a, f64, o + i * inc));
      if (i < n - 1) bad += isnan(get(t->data.c, f64, o + i * inc));
    }
  }
  if (v->layout == TRIDI_VAR_INTERLEAVED)
    for (int64_t i = 0; i < v->rows; ++i)
      for (int64_t s = 0; s < v->ld; ++s)
        if (s >= bc->batch || i >= v->len[s])
          bad += !isnan(get(t->data.b, f64, i * v->ld + s)) || !isnan(get(t->data.d, f64, i * v->ld + s));
  CHECK(bad == 0, "%s %s L=%lld: %d elements poisoned wrongly", bc->layout,
        tridi_dtype_name(bc->dtype), (long long)bc->n, bad);
}

/* The result of a baseline's copy, taken back into x, checked as the bench does. */
static void expect_solved(tcase *t, const char *what) {
  bench_check chk;
  bench_check_rows(&t->bc, &t->data, 2, t->mask, &chk);
  CHECK(chk.residual <= chk.bound && chk.untouched, "%s %s %s L=%lld: residual %.3e (bound %.3e), %s",
        what, t->bc.layout, tridi_dtype_name(t->bc.dtype), (long long)t->bc.n, chk.residual,
        chk.bound, chk.untouched ? "padding untouched" : "PADDING WRITTEN");
}

static void poison_x(tcase *t) {
  memset(t->data.x, 0xFF, (size_t)t->bc.alloc_elems[4] * tridi_dtype_size(t->bc.dtype));
}

/* Padded to the longest system, solved by tridi (REF) through the scalar descriptor. */
static void test_pad(tcase *t) {
  const bench_case *bc = &t->bc;
  const size_t bytes = (size_t)bench_var_pad_elems(bc) * tridi_dtype_size(bc->dtype);
  void *p[BENCH_NOPS];
  for (int k = 0; k < BENCH_NOPS; ++k) p[k] = bench_alloc(bytes);
  bench_var_pad_fill(bc, &t->data, p[0], p[1], p[2], p[3], 2);
  tridi_desc desc = NULL;
  tridi_plan plan = NULL;
  tridi_status st = bench_var_pad_desc(bc, &desc);
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_REF;
  if (st == TRIDI_SUCCESS) st = tridi_plan_create(&plan, desc, &o);
  if (st == TRIDI_SUCCESS) st = tridi_execute(plan, p[0], p[1], p[2], p[3], p[4], NULL, NULL);
  CHECK(st == TRIDI_SUCCESS, "pad %s: %s (%s)", bc->layout, tridi_status_name(st),
        tridi_last_error());
  poison_x(t);
  bench_var_pad_unpack_x(bc, p[4], t->data.x, 2);
  expect_solved(t, "pad-to-longest");
  tridi_plan_destroy(plan);
  tridi_desc_destroy(desc);
  for (int k = 0; k < BENCH_NOPS; ++k) bench_free(p[k]);
}

/* One batch per length, as the cuSPARSE baseline gets it. */
static void test_groups(tcase *t) {
  const bench_case *bc = &t->bc;
  const bench_var_case *v = bench_var_of(bc);
  const int f64 = bc->dtype == TRIDI_F64;
  bench_var_groups g;
  CHECK(bench_var_groups_make(bc, 3, &g) == 0, "groups_make");
  /* order is a permutation, groups ascend, members have the group's length */
  char *seen = calloc((size_t)bc->batch, 1);
  int64_t p = 0, elems = 0;
  for (int64_t gi = 0; gi < g.count; ++gi) {
    CHECK(g.m[gi] >= 3 && (gi == 0 || g.m[gi] > g.m[gi - 1]), "group %lld length", (long long)gi);
    CHECK(g.first[gi] == elems, "group %lld offset", (long long)gi);
    for (int64_t j = 0; j < g.nsys[gi]; ++j, ++p) {
      const int64_t s = g.order[p];
      CHECK(!seen[s] && (v->len[s] > 3 ? v->len[s] : 3) == g.m[gi] &&
                g.base[p] == g.first[gi] + j * g.m[gi],
            "system %lld in group %lld", (long long)s, (long long)gi);
      seen[s] = 1;
    }
    elems += g.m[gi] * g.nsys[gi];
  }
  CHECK(p == bc->batch && g.first[g.count] == elems, "groups cover %lld of %lld systems",
        (long long)p, (long long)bc->batch);
  free(seen);
  const size_t bytes = (size_t)elems * tridi_dtype_size(bc->dtype);
  void *q[5];
  for (int k = 0; k < 5; ++k) q[k] = bench_alloc(bytes);
  bench_var_gather(bc, &t->data, &g, q[0], q[1], q[2], q[3], 2);
  /* Thomas on each gathered system, in double */
  int bad_ends = 0;
  double *cp = malloc(sizeof(double) * (size_t)(bc->nmax > 3 ? bc->nmax : 3));
  for (int64_t gi = 0; gi < g.count; ++gi)
    for (int64_t j = 0; j < g.nsys[gi]; ++j) {
      const int64_t m = g.m[gi], o = g.first[gi] + j * m;
      bad_ends += get(q[0], f64, o) != 0.0 || get(q[2], f64, o + m - 1) != 0.0;
      double den = get(q[1], f64, o);
      cp[0] = get(q[2], f64, o) / den;
      put(q[4], f64, o, get(q[3], f64, o) / den);
      for (int64_t i = 1; i < m; ++i) {
        const double a = get(q[0], f64, o + i);
        den = get(q[1], f64, o + i) - a * cp[i - 1];
        cp[i] = get(q[2], f64, o + i) / den;
        put(q[4], f64, o + i, (get(q[3], f64, o + i) - a * get(q[4], f64, o + i - 1)) / den);
      }
      for (int64_t i = m - 2; i >= 0; --i)
        put(q[4], f64, o + i, get(q[4], f64, o + i) - cp[i] * get(q[4], f64, o + i + 1));
    }
  CHECK(bad_ends == 0, "%s: %d gathered systems with dl[0] or du[m-1] not 0", bc->layout,
        bad_ends);
  poison_x(t);
  bench_var_scatter_x(bc, &g, q[4], t->data.x, 2);
  expect_solved(t, "per-length batches");
  free(cp);
  for (int k = 0; k < 5; ++k) bench_free(q[k]);
  bench_var_groups_free(&g);
}

/* The distributions at L = 64 over about 2^22 unknowns: their means and the
 * bimodal split. */
static void test_stats(void) {
  static const struct {
    const char *layout;
    double mean_lo, mean_hi;
  } want[] = {{"packed/uniform", 62.5, 66.5},    /* (2L + 1) / 2 = 64.5 */
              {"packed/half", 47.0, 49.5},       /* (32 + 64) / 2 = 48 */
              {"packed/lognormal", 57.0, 64.0},  /* L less the tail above 8L: ~0.95 L */
              {"packed/bimodal", 38.0, 43.5}};   /* 0.9 * 24 + 0.1 * 192 = 40.8 */
  const int64_t L = 64;
  for (int k = 0; k < 4; ++k) {
    tcase t;
    memset(&t, 0, sizeof t);
    t.bc.kind = &bench_kind_variable;
    CHECK(bench_kind_variable.make_case(&t.bc, want[k].layout, TRIDI_F64, L, 1 << 22) == 0,
          "make_case %s", want[k].layout);
    const bench_var_case *v = bench_var_of(&t.bc);
    const double mean = (double)t.bc.unknowns / (double)t.bc.batch;
    CHECK(mean >= want[k].mean_lo && mean <= want[k].mean_hi, "%s: mean length %.2f", want[k].layout,
          mean);
    if (k == 3) {
      int64_t nlong = 0, ulong = 0;
      for (int64_t s = 0; s < t.bc.batch; ++s)
        if (v->len[s] >= 2 * L) {
          ++nlong;
          ulong += v->len[s];
        }
      const double share = (double)nlong / (double)t.bc.batch;
      const double ushare = (double)ulong / (double)t.bc.unknowns;
      CHECK(share > 0.09 && share < 0.11 && ushare > 0.42 && ushare < 0.52,
            "bimodal: %.3f of the systems long, %.3f of the unknowns", share, ushare);
    }
    if (k == 2) CHECK(t.bc.nmax <= 8 * L, "lognormal: longest %lld", (long long)t.bc.nmax);
    bench_kind_variable.free_case(&t.bc);
  }
}

int main(void) {
  static const int64_t Ls[] = {1, 2, 3, 5, 40};
  static const tridi_dtype dts[] = {TRIDI_F32, TRIDI_F64};
  const int64_t elems = 20000;
  int cases = 0;
  for (int li = 0; bench_kind_variable.layouts[li] != NULL; ++li)
    for (int di = 0; di < 2; ++di)
      for (size_t ni = 0; ni < sizeof Ls / sizeof Ls[0]; ++ni) {
        const char *layout = bench_kind_variable.layouts[li];
        tcase t;
        if (open_case(&t, layout, dts[di], Ls[ni], elems) != 0) {
          CHECK(0, "make_case %s L=%lld", layout, (long long)Ls[ni]);
          continue;
        }
        test_shape(&t, Ls[ni], elems);
        /* the same systems whatever the storage: compare with packed */
        if (strncmp(layout, "interleaved/", 12) == 0) {
          char packed[64];
          snprintf(packed, sizeof packed, "packed/%s", strchr(layout, '/') + 1);
          bench_case pc;
          memset(&pc, 0, sizeof pc);
          pc.kind = &bench_kind_variable;
          CHECK(bench_kind_variable.make_case(&pc, packed, dts[di], Ls[ni], elems) == 0, "packed");
          CHECK(pc.batch == t.bc.batch &&
                    memcmp(bench_var_of(&pc)->len, bench_var_of(&t.bc)->len,
                           (size_t)pc.batch * sizeof(int64_t)) == 0,
                "%s: lengths differ from %s", layout, packed);
          bench_kind_variable.free_case(&pc);
        }
        bench_kind_variable.fill(&t.bc, 7, &t.data, 2);
        test_poison(&t);
        test_pad(&t);
        test_groups(&t);
        close_case(&t);
        ++cases;
      }
  test_stats();
  printf("bench_var_test: %d cases, %d failures\n", cases, failures);
  return failures ? 1 : 0;
}
