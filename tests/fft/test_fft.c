/* The FFT on the host backends (REF, CPU): against the naive DFT (n <= 1024)
 * and FFTW (n up to 2^20), the round trip, batch layouts with strides and
 * padding (never written), in place, threads, and every bad argument with
 * its exact status.  The error measure is the relative 2-norm error
 * ||y - Y|| / ||Y|| against the oracle Y of the same (rounded) input; the
 * bound is FFT_ERR_C * max(log2 n, 1) * eps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_oracle.h"
#include "tridi.h"
#include "tt_core.h"

/* c of the bound c log2(n) eps (the errors seen: below 0.3 log2(n) eps) */
#define FFT_ERR_C 1.0
#define POISON 0xA5

static double bound(tridi_dtype dt, int64_t n) { return fo_bound(FFT_ERR_C, dt, n); }

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  assert_non_null(p);
  return p;
}

static tridi_fft_plan make(int64_t n, int64_t batch, tridi_dtype dt, tridi_fft_direction dir,
                           tridi_backend be, int threads) {
  tridi_fft_options o;
  tridi_fft_options_init(&o);
  o.backend = be;
  o.num_threads = threads;
  tridi_fft_plan p = NULL;
  const tridi_status st = tridi_fft_plan_create(&p, n, batch, dt, dir, &o);
  if (st) fail_msg("plan n=%lld batch=%lld: %s: %s", (long long)n, (long long)batch,
                   tridi_status_name(st), tridi_last_error());
  return p;
}

/* batch packed transforms of x (doubles, rounded to dt first) against the
 * oracle `oracle` (0: naive DFT, 1: FFTW); returns the largest error */
static double check_against(int64_t n, int64_t batch, tridi_dtype dt, tridi_fft_direction dir,
                            tridi_backend be, int oracle, uint64_t seed) {
  const size_t es = tridi_dtype_size(dt);
  double *x = xmalloc(sizeof(double) * 2 * (size_t)(n * batch));
  double *xr = xmalloc(sizeof(double) * 2 * (size_t)n), *ref = xmalloc(sizeof(double) * 2 * (size_t)n);
  double *got = xmalloc(sizeof(double) * 2 * (size_t)n);
  void *in = xmalloc(es * (size_t)(n * batch)), *out = xmalloc(es * (size_t)(n * batch));
  fo_fill(x, n * batch, seed);
  fo_store(dt, x, n * batch, in, 1);
  memset(out, POISON, es * (size_t)(n * batch));
  tridi_fft_plan p = make(n, batch, dt, dir, be, 0);
  assert_int_equal(tridi_fft_execute(p, in, out, NULL), TRIDI_SUCCESS);
  double worst = 0;
  for (int64_t t = 0; t < batch; ++t) {
    fo_load(dt, (const char *)in + es * (size_t)(t * n), n, 1, xr);
    if (oracle == 0) fo_naive_dft(n, (int)dir, xr, ref);
    else assert_int_equal(fo_fftw(n, (int)dir, xr, ref), 1);
    fo_load(dt, (const char *)out + es * (size_t)(t * n), n, 1, got);
    const double e = fo_rel_err(n, ref, got);
    if (e > worst) worst = e;
  }
  if (!(worst <= bound(dt, n)))
    fail_msg("%s n=%lld batch=%lld dir=%d backend=%s seed=%llu: error %.3g > bound %.3g",
             tridi_dtype_name(dt), (long long)n, (long long)batch, (int)dir,
             tridi_backend_name(be), (unsigned long long)seed, worst, bound(dt, n));
  tridi_fft_plan_destroy(p);
  free(x), free(xr), free(ref), free(got), free(in), free(out);
  return worst;
}

static const tridi_dtype dtypes[] = {TRIDI_C32, TRIDI_C64};
static const tridi_fft_direction dirs[] = {TRIDI_FFT_FORWARD, TRIDI_FFT_INVERSE};

/* n = 1 .. 1024 (every power of two), both directions and dtypes, REF and
 * CPU, against the naive DFT */
static void test_naive(void **state) {
  (void)state;
  double worst_ratio = 0;
  for (int l = 0; l <= 10; ++l)
    for (int d = 0; d < 2; ++d)
      for (int k = 0; k < 2; ++k)
        for (int b = 0; b < 2; ++b) {
          const int64_t n = (int64_t)1 << l;
          const double e = check_against(n, 3, dtypes[d], dirs[k],
                                         b ? TRIDI_BACKEND_CPU : TRIDI_BACKEND_REF, 0,
                                         (uint64_t)(100 + l * 8 + d * 4 + k * 2 + b));
          const double r = e / bound(dtypes[d], n);
          if (r > worst_ratio) worst_ratio = r;
        }
  printf("naive DFT, n = 1 .. 1024: largest error / bound = %.3f\n", worst_ratio);
}

/* n = 2^11 .. 2^20 against FFTW (skipped without FFTW) */
static void test_fftw(void **state) {
  (void)state;
  if (!fo_have_fftw()) {
    fprintf(stderr, "test_fftw: built without FFTW (libfftw3-dev): skipped\n");
    skip();
  }
  double worst_ratio = 0;
  for (int l = 11; l <= 20; ++l)
    for (int d = 0; d < 2; ++d) {
      const int64_t n = (int64_t)1 << l;
      const int64_t batch = l <= 16 ? 2 : 1;
      const double e = check_against(n, batch, dtypes[d], dirs[l % 2], TRIDI_BACKEND_CPU, 1,
                                     (uint64_t)(1000 + l * 2 + d));
      const double r = e / bound(dtypes[d], n);
      if (r > worst_ratio) worst_ratio = r;
    }
  printf("FFTW, n = 2^11 .. 2^20: largest error / bound = %.3f\n", worst_ratio);
}

/* inverse(forward(x)) / n == x within the bound (twice the one-way one) */
static void test_round_trip(void **state) {
  (void)state;
  for (int d = 0; d < 2; ++d)
    for (int l = 0; l <= 16; l += 3) {
      const tridi_dtype dt = dtypes[d];
      const int64_t n = (int64_t)1 << l, batch = 4;
      const size_t es = tridi_dtype_size(dt);
      double *x = xmalloc(sizeof(double) * 2 * (size_t)(n * batch));
      double *y = xmalloc(sizeof(double) * 2 * (size_t)(n * batch));
      void *a = xmalloc(es * (size_t)(n * batch)), *b = xmalloc(es * (size_t)(n * batch));
      fo_fill(x, n * batch, 7 + (uint64_t)l);
      fo_store(dt, x, n * batch, a, 1);
      fo_load(dt, a, n * batch, 1, x);
      tridi_fft_plan f = make(n, batch, dt, TRIDI_FFT_FORWARD, TRIDI_BACKEND_CPU, 0);
      tridi_fft_plan i = make(n, batch, dt, TRIDI_FFT_INVERSE, TRIDI_BACKEND_CPU, 0);
      assert_int_equal(tridi_fft_execute(f, a, b, NULL), TRIDI_SUCCESS);
      assert_int_equal(tridi_fft_execute(i, b, b, NULL), TRIDI_SUCCESS); /* in place */
      fo_load(dt, b, n * batch, 1, y);
      for (int64_t k = 0; k < 2 * n * batch; ++k) y[k] /= (double)n;
      const double e = fo_rel_err(n * batch, x, y);
      if (!(e <= 2 * bound(dt, n)))
        fail_msg("round trip %s n=%lld: error %.3g > %.3g", tridi_dtype_name(dt), (long long)n, e,
                 2 * bound(dt, n));
      tridi_fft_plan_destroy(f);
      tridi_fft_plan_destroy(i);
      free(x), free(y), free(a), free(b);
    }
}

/* One layout: n, batch, in (stride, dist), out (stride, dist); the result
 * equals the packed transform of the same data bit for bit, the input is
 * unchanged and no output element outside the described ones is written. */
typedef struct layout_case {
  const char *name;
  int64_t n, batch, is, id, os, od;
} layout_case;

static int64_t span_of(int64_t n, int64_t batch, int64_t s, int64_t d) {
  if (d == 0) d = n * s;
  return (n - 1) * s + (batch - 1) * d + 1;
}

static void run_layout(const layout_case *c, tridi_dtype dt, tridi_backend be) {
  const size_t es = tridi_dtype_size(dt);
  const int64_t n = c->n, batch = c->batch;
  const int64_t isp = span_of(n, batch, c->is, c->id), osp = span_of(n, batch, c->os, c->od);
  const int64_t id = c->id ? c->id : n * c->is, od = c->od ? c->od : n * c->os;
  double *x = xmalloc(sizeof(double) * 2 * (size_t)isp);
  unsigned char *in = xmalloc(es * (size_t)isp), *in0 = xmalloc(es * (size_t)isp);
  unsigned char *out = xmalloc(es * (size_t)osp), *mask = calloc((size_t)osp, 1);
  unsigned char *pin = xmalloc(es * (size_t)(n * batch)), *pout = xmalloc(es * (size_t)(n * batch));
  assert_non_null(mask);
  fo_fill(x, isp, 31);
  fo_store(dt, x, isp, in, 1);
  memcpy(in0, in, es * (size_t)isp);
  memset(out, POISON, es * (size_t)osp);
  for (int64_t t = 0; t < batch; ++t)
    for (int64_t j = 0; j < n; ++j) {
      memcpy(pin + es * (size_t)(t * n + j), in + es * (size_t)(t * id + j * c->is), es);
      mask[t * od + j * c->os] = 1;
    }
  tridi_fft_options o;
  tridi_fft_options_init(&o);
  o.backend = be;
  o.in_stride = c->is;
  o.in_dist = c->id;
  o.out_stride = c->os;
  o.out_dist = c->od;
  tridi_fft_plan p = NULL, q = NULL;
  tridi_status st = tridi_fft_plan_create(&p, n, batch, dt, TRIDI_FFT_FORWARD, &o);
  if (st) fail_msg("%s: %s: %s", c->name, tridi_status_name(st), tridi_last_error());
  q = make(n, batch, dt, TRIDI_FFT_FORWARD, be, 0);
  assert_int_equal(tridi_fft_execute(p, in, out, NULL), TRIDI_SUCCESS);
  assert_int_equal(tridi_fft_execute(q, pin, pout, NULL), TRIDI_SUCCESS);
  if (memcmp(in, in0, es * (size_t)isp) != 0) fail_msg("%s: the input was modified", c->name);
  for (int64_t e = 0; e < osp; ++e) {
    const unsigned char *v = out + es * (size_t)e;
    if (!mask[e]) {
      for (size_t b = 0; b < es; ++b)
        if (v[b] != POISON) fail_msg("%s %s: padding element %lld written", c->name,
                                     tridi_dtype_name(dt), (long long)e);
    }
  }
  for (int64_t t = 0; t < batch; ++t)
    for (int64_t j = 0; j < n; ++j)
      if (memcmp(out + es * (size_t)(t * od + j * c->os), pout + es * (size_t)(t * n + j), es) != 0)
        fail_msg("%s %s: transform %lld point %lld differs from the packed one", c->name,
                 tridi_dtype_name(dt), (long long)t, (long long)j);
  tridi_fft_plan_destroy(p);
  tridi_fft_plan_destroy(q);
  free(x), free(in), free(in0), free(out), free(mask), free(pin), free(pout);
}

static void test_layouts(void **state) {
  (void)state;
  static const layout_case cases[] = {
      {"packed", 64, 5, 1, 0, 1, 0},
      {"padded", 32, 4, 1, 40, 1, 37},
      {"interleaved", 16, 6, 6, 1, 6, 1},           /* point j of t at j*batch + t */
      {"strided", 8, 3, 3, 0, 2, 0},                /* every 3rd in, every 2nd out */
      {"in interleaved, out packed", 128, 3, 3, 1, 1, 0},
      {"overlapping input windows", 8, 5, 1, 2, 1, 0}, /* in transforms share points */
      {"n = 1", 1, 7, 2, 3, 1, 0},
      {"n = 2, batch 1, big strides", 2, 1, 1000, 0, 77, 0},
      {"odd log2 n", 512, 2, 2, 0, 1, 600},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    for (int d = 0; d < 2; ++d) {
      run_layout(&cases[i], dtypes[d], TRIDI_BACKEND_REF);
      run_layout(&cases[i], dtypes[d], TRIDI_BACKEND_CPU);
    }
}

/* in place == out of place bit for bit, strided in-place layouts too */
static void test_in_place(void **state) {
  (void)state;
  for (int d = 0; d < 2; ++d) {
    const tridi_dtype dt = dtypes[d];
    const size_t es = tridi_dtype_size(dt);
    const int64_t n = 256, batch = 3, stride = 2, dist = 600, span = (batch - 1) * dist + (n - 1) * stride + 1;
    double *x = xmalloc(sizeof(double) * 2 * (size_t)span);
    unsigned char *a = xmalloc(es * (size_t)span), *b = xmalloc(es * (size_t)span);
    unsigned char *c = xmalloc(es * (size_t)span);
    fo_fill(x, span, 5);
    fo_store(dt, x, span, a, 1);
    memcpy(c, a, es * (size_t)span);
    memcpy(b, a, es * (size_t)span);
    tridi_fft_options o;
    tridi_fft_options_init(&o);
    o.in_stride = o.out_stride = stride;
    o.in_dist = o.out_dist = dist;
    tridi_fft_plan p;
    assert_int_equal(tridi_fft_plan_create(&p, n, batch, dt, TRIDI_FFT_INVERSE, &o), TRIDI_SUCCESS);
    assert_int_equal(tridi_fft_execute(p, a, b, NULL), TRIDI_SUCCESS); /* out of place */
    assert_int_equal(tridi_fft_execute(p, c, c, NULL), TRIDI_SUCCESS); /* in place */
    assert_memory_equal(b, c, es * (size_t)span); /* the gaps untouched in both */
    tridi_fft_plan_destroy(p);
    free(x), free(a), free(b), free(c);
  }
}

/* CPU plans with 1, 2, 3 threads (batch 1, 2, 7) equal REF bit for bit */
static void test_threads(void **state) {
  (void)state;
  const int64_t n = 1024;
  for (int64_t batch = 1; batch <= 7; batch += 3)
    for (int threads = 1; threads <= 3; ++threads) {
      const size_t es = tridi_dtype_size(TRIDI_C64);
      double *x = xmalloc(sizeof(double) * 2 * (size_t)(n * batch));
      void *a = xmalloc(es * (size_t)(n * batch)), *r = xmalloc(es * (size_t)(n * batch));
      void *c = xmalloc(es * (size_t)(n * batch));
      fo_fill(x, n * batch, 9);
      fo_store(TRIDI_C64, x, n * batch, a, 1);
      tridi_fft_plan pr = make(n, batch, TRIDI_C64, TRIDI_FFT_FORWARD, TRIDI_BACKEND_REF, 0);
      tridi_fft_plan pc = make(n, batch, TRIDI_C64, TRIDI_FFT_FORWARD, TRIDI_BACKEND_CPU, threads);
      tridi_fft_plan_info info = {.struct_size = sizeof info};
      assert_int_equal(tridi_fft_plan_get_info(pc, &info), TRIDI_SUCCESS);
      assert_int_equal(info.num_threads, threads < batch ? threads : batch);
      assert_int_equal(tridi_fft_execute(pr, a, r, NULL), TRIDI_SUCCESS);
      assert_int_equal(tridi_fft_execute(pc, a, c, NULL), TRIDI_SUCCESS);
      assert_memory_equal(r, c, es * (size_t)(n * batch));
      tridi_fft_plan_destroy(pr);
      tridi_fft_plan_destroy(pc);
      free(x), free(a), free(r), free(c);
    }
}

/* the plan's description */
static void test_info(void **state) {
  (void)state;
  tridi_fft_plan p = make(1 << 9, 3, TRIDI_C32, TRIDI_FFT_INVERSE, TRIDI_BACKEND_REF, 0);
  tridi_fft_plan_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  assert_int_equal(tridi_fft_plan_get_info(p, &info), TRIDI_SUCCESS);
  assert_int_equal(info.backend, TRIDI_BACKEND_REF);
  assert_int_equal(info.dtype, TRIDI_C32);
  assert_int_equal(info.direction, TRIDI_FFT_INVERSE);
  assert_int_equal(info.n, 512);
  assert_int_equal(info.batch, 3);
  assert_int_equal(info.passes, 5); /* 4 radix-4 steps and one radix-2 */
  assert_int_equal(info.num_threads, 1);
  assert_string_equal(info.kernel, "ref_stockham_r4_c32");
  assert_int_equal(info.scratch_bytes, 2 * 512 * 8);
  info.struct_size = 8;
  assert_int_equal(tridi_fft_plan_get_info(p, &info), TRIDI_ERR_INVALID_OPTION);
  assert_int_equal(tridi_fft_plan_get_info(p, NULL), TRIDI_ERR_NULL_POINTER);
  assert_int_equal(tridi_fft_plan_get_info(NULL, &info), TRIDI_ERR_NULL_POINTER);
  tridi_fft_plan_destroy(p);
  /* AUTO is the CPU */
  tridi_fft_plan q;
  assert_int_equal(tridi_fft_plan_create(&q, 8, 1, TRIDI_C64, TRIDI_FFT_FORWARD, NULL), TRIDI_SUCCESS);
  info.struct_size = sizeof info;
  assert_int_equal(tridi_fft_plan_get_info(q, &info), TRIDI_SUCCESS);
  assert_int_equal(info.backend, TRIDI_BACKEND_CPU);
  assert_int_equal(info.passes, 2);
  tridi_fft_plan_destroy(q);
}

/* status st and a message naming `word` */
static void expect(tridi_status got, tridi_status want, const char *word, int line) {
  if (got != want)
    fail_msg("line %d: %s, expected %s (%s)", line, tridi_status_name(got), tridi_status_name(want),
             tridi_last_error());
  if (want != TRIDI_SUCCESS && strstr(tridi_last_error(), word) == NULL)
    fail_msg("line %d: message '%s' does not name '%s'", line, tridi_last_error(), word);
}
#define EXPECT(call, want, word) expect((call), (want), (word), __LINE__)

static tridi_status create_with(int64_t n, int64_t batch, tridi_dtype dt, int dir,
                                const tridi_fft_options *o) {
  tridi_fft_plan p = (tridi_fft_plan)(uintptr_t)1;
  const tridi_status st = tridi_fft_plan_create(&p, n, batch, dt, (tridi_fft_direction)dir, o);
  if (st == TRIDI_SUCCESS) tridi_fft_plan_destroy(p);
  else if (p != NULL) fail_msg("a failed tridi_fft_plan_create left *plan = %p", (void *)p);
  return st;
}

static void test_bad_args(void **state) {
  (void)state;
  const tridi_fft_direction F = TRIDI_FFT_FORWARD;
  tridi_fft_options o;
  EXPECT(tridi_fft_plan_create(NULL, 8, 1, TRIDI_C32, F, NULL), TRIDI_ERR_NULL_POINTER, "plan");
  EXPECT(create_with(8, 1, (tridi_dtype)9, F, NULL), TRIDI_ERR_INVALID_DTYPE, "dtype");
  EXPECT(create_with(8, 1, TRIDI_F32, F, NULL), TRIDI_ERR_NOT_SUPPORTED, "complex");
  EXPECT(create_with(8, 1, TRIDI_F64, F, NULL), TRIDI_ERR_NOT_SUPPORTED, "complex");
  EXPECT(create_with(8, 1, TRIDI_C32, 0, NULL), TRIDI_ERR_INVALID_OPTION, "direction");
  EXPECT(create_with(8, 1, TRIDI_C32, 2, NULL), TRIDI_ERR_INVALID_OPTION, "direction");
  EXPECT(create_with(0, 1, TRIDI_C32, F, NULL), TRIDI_ERR_INVALID_SHAPE, "n = 0");
  EXPECT(create_with(-4, 1, TRIDI_C32, F, NULL), TRIDI_ERR_INVALID_SHAPE, "n = -4");
  EXPECT(create_with(1000, 1, TRIDI_C32, F, NULL), TRIDI_ERR_NOT_SUPPORTED, "not a power of two");
  EXPECT(create_with(3, 1, TRIDI_C64, F, NULL), TRIDI_ERR_NOT_SUPPORTED, "not a power of two");
  EXPECT(create_with((int64_t)1 << 41, 1, TRIDI_C64, F, NULL), TRIDI_ERR_INVALID_SHAPE, "2^40");
  EXPECT(create_with(8, -1, TRIDI_C32, F, NULL), TRIDI_ERR_INVALID_SHAPE, "batch = -1");
  EXPECT(create_with((int64_t)1 << 40, (int64_t)1 << 30, TRIDI_C32, F, NULL), TRIDI_ERR_INVALID_SHAPE,
         "overflows");
  EXPECT(create_with(8, 0, TRIDI_C32, F, NULL), TRIDI_SUCCESS, ""); /* empty */
  /* options, one wrong field at a time */
  tridi_fft_options_init(&o);
  o.struct_size = 4;
  EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_ERR_INVALID_OPTION, "struct_size");
  tridi_fft_options_init(&o);
  o.backend = (tridi_backend)17;
  EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_ERR_INVALID_OPTION, "backend");
  tridi_fft_options_init(&o);
  o.num_threads = -2;
  EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_ERR_INVALID_OPTION, "num_threads");
  tridi_fft_options_init(&o);
  o.device = -1;
  EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_ERR_INVALID_OPTION, "device");
  tridi_fft_options_init(&o);
  o.flags = 1;
  EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_ERR_INVALID_OPTION, "flags");
  /* layouts */
  const struct {
    int64_t n, batch, is, id, os, od;
    const char *word;
  } bad[] = {
      {8, 2, 0, 0, 1, 0, "in_stride"},   {8, 2, -1, 0, 1, 0, "in_stride"},
      {8, 2, 1, -8, 1, 0, "in_dist"},    {8, 2, 1, 0, 0, 0, "out_stride"},
      {8, 2, 1, 0, 1, -1, "out_dist"},   {8, 2, 1, 0, 1, 4, "maps two points"},
      {8, 3, 1, 0, 2, 3, "maps two points"},
      {1 << 20, 2, INT64_MAX / 4, 0, 1, 0, "overflows"},
      {8, 3, 1, 0, 1, INT64_MAX / 2 + 1, "overflows"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    tridi_fft_options_init(&o);
    o.in_stride = bad[i].is;
    o.in_dist = bad[i].id;
    o.out_stride = bad[i].os;
    o.out_dist = bad[i].od;
    EXPECT(create_with(bad[i].n, bad[i].batch, TRIDI_C32, F, &o), TRIDI_ERR_INVALID_STRIDE,
           bad[i].word);
  }
  /* fine: the same with a batch of one (the distance is never used), an
   * overlapping input, an interleaved output */
  tridi_fft_options_init(&o);
  o.out_dist = 4;
  EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_SUCCESS, "");
  o.out_stride = 2;
  o.out_dist = 1;
  EXPECT(create_with(8, 2, TRIDI_C32, F, &o), TRIDI_SUCCESS, "");
  tridi_fft_options_init(&o);
  o.in_dist = 1;
  EXPECT(create_with(8, 4, TRIDI_C32, F, &o), TRIDI_SUCCESS, "");
  if (!tridi_backend_available(TRIDI_BACKEND_CUDA)) {
    tridi_fft_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    EXPECT(create_with(8, 1, TRIDI_C32, F, &o), TRIDI_ERR_BACKEND_UNAVAILABLE, "CUDA");
  }

  /* execute: NULL, alignment, overlap, in that order, nothing written */
  tridi_fft_plan p;
  assert_int_equal(tridi_fft_plan_create(&p, 16, 2, TRIDI_C64, F, NULL), TRIDI_SUCCESS);
  double *buf = xmalloc(sizeof(double) * 2 * 80);
  memset(buf, POISON, sizeof(double) * 2 * 80);
  EXPECT(tridi_fft_execute(NULL, buf, buf + 64, NULL), TRIDI_ERR_NULL_POINTER, "plan");
  EXPECT(tridi_fft_execute(p, NULL, buf + 64, NULL), TRIDI_ERR_NULL_POINTER, "in");
  EXPECT(tridi_fft_execute(p, buf, NULL, NULL), TRIDI_ERR_NULL_POINTER, "out");
  EXPECT(tridi_fft_execute(p, (char *)buf + 8, buf + 64, NULL), TRIDI_ERR_MISALIGNED, "in");
  EXPECT(tridi_fft_execute(p, buf, (char *)buf + 65 * 8, NULL), TRIDI_ERR_MISALIGNED, "out");
  EXPECT(tridi_fft_execute(p, NULL, (char *)buf + 8, NULL), TRIDI_ERR_NULL_POINTER, "in");
  EXPECT(tridi_fft_execute(p, buf, buf + 62, NULL), TRIDI_ERR_OVERLAP, "overlaps"); /* 1 element */
  EXPECT(tridi_fft_execute(p, buf + 62, buf, NULL), TRIDI_ERR_OVERLAP, "overlaps");
  for (int i = 0; i < 160; ++i) {
    unsigned char v[8];
    memcpy(v, buf + i, 8);
    for (int b = 0; b < 8; ++b) assert_int_equal(v[b], POISON);
  }
  EXPECT(tridi_fft_execute(p, buf, buf + 64, NULL), TRIDI_SUCCESS, ""); /* adjacent: fine */
  tridi_fft_plan_destroy(p);
  /* in place with different layouts */
  tridi_fft_options_init(&o);
  o.out_stride = 2;
  assert_int_equal(tridi_fft_plan_create(&p, 8, 1, TRIDI_C64, F, &o), TRIDI_SUCCESS);
  EXPECT(tridi_fft_execute(p, buf, buf, NULL), TRIDI_ERR_OVERLAP, "in place");
  tridi_fft_plan_destroy(p);
  /* an empty batch: checks, then nothing */
  assert_int_equal(tridi_fft_plan_create(&p, 8, 0, TRIDI_C64, F, NULL), TRIDI_SUCCESS);
  EXPECT(tridi_fft_execute(p, NULL, buf, NULL), TRIDI_ERR_NULL_POINTER, "in");
  memset(buf, POISON, sizeof(double) * 2 * 80);
  EXPECT(tridi_fft_execute(p, buf, buf, NULL), TRIDI_SUCCESS, "");
  for (int i = 0; i < 160; ++i) {
    unsigned char v[8];
    memcpy(v, buf + i, 8);
    for (int b = 0; b < 8; ++b) assert_int_equal(v[b], POISON);
  }
  tridi_fft_plan_destroy(p);
  assert_int_equal(tridi_fft_plan_destroy(NULL), TRIDI_SUCCESS);
  tridi_fft_options_init(NULL);
  free(buf);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TT_TEST(test_naive),   TT_TEST(test_fftw),    TT_TEST(test_round_trip),
      TT_TEST(test_layouts), TT_TEST(test_in_place), TT_TEST(test_threads),
      TT_TEST(test_info),    TT_TEST(test_bad_args),
  };
  return TT_RUN_GROUP(tests, argc, argv);
}
