/* The cuSPARSE-shaped GPU entry points (tridi.h: tridi_cuda_?gtsv_*)
 * against the host reference solver and against cuSPARSE itself on the same
 * device data.  Every device array is allocated with exactly its cuSPARSE
 * size (the last system's last element ends the allocation), so
 *   TRIDI_TEST_DEV_EXACT=1 compute-sanitizer --tool memcheck build/.../test_compat_cuda
 * reports any access outside the storage cuSPARSE defines (scripts/gpu.sh).
 * Per case: residual <= 8 m eps, within 16 m eps of the reference solver
 * (dominant systems), within 64 m eps of cuSPARSE's answer, dl, d, du
 * unchanged, in place in x; two streams (one cached plan each); argument
 * errors; algo 2 of the interleaved batch refused.  algo 1 (pivoting) on
 * systems that are not diagonally dominant, each with a first pivot of
 * 1e-20 (a solve without interchanges misses the residual bound by orders
 * of magnitude): residual <= 8 m eps.  Exit 77 without a GPU. */
#include "tt_dev.h"

#include <cusparse.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUSPARSE_OK(call)                                                            \
  do {                                                                               \
    const cusparseStatus_t s_ = (call);                                              \
    if (s_ != CUSPARSE_STATUS_SUCCESS) fail_msg("%s:%d: %s: %d", __FILE__, __LINE__, #call, (int)s_); \
  } while (0)

enum { STRIDED = 0, INTERLEAVED = 1, NOPIVOT = 2 };

/* element (s, i) of the storage: strided s * stride + i; interleaved
 * i * batch + s; nopivot (one matrix, rhs s of B) */
static int64_t at(int layout, int64_t s, int64_t i, int64_t stride, int64_t batch) {
  return layout == INTERLEAVED ? i * batch + s : s * stride + i;
}

typedef struct host_case {
  size_t es;
  int layout, m, batch;
  int pivot; /* algo 1 of the interleaved batch: matrices that need pivoting */
  int64_t stride; /* STRIDED: batchStride; NOPIVOT: ldb */
  int64_t len[4]; /* elements of dl, d, du, x */
  void *h[4];     /* dl, d, du, x (rhs) on the host */
} host_case;

static void make_case(host_case *C, size_t es, int layout, int m, int batch, int64_t stride,
                      uint64_t seed, int pivot) {
  memset(C, 0, sizeof *C);
  C->es = es;
  C->pivot = pivot;
  C->layout = layout;
  C->m = m;
  C->batch = batch;
  C->stride = stride;
  const int64_t full = layout == INTERLEAVED ? (int64_t)m * batch : (int64_t)(batch - 1) * stride + m;
  for (int k = 0; k < 4; ++k) {
    C->len[k] = layout == NOPIVOT && k < 3 ? m : full;
    C->h[k] = malloc((size_t)C->len[k] * es);
    assert_non_null(C->h[k]);
    for (int64_t j = 0; j < C->len[k]; ++j) tt_store(C->h[k], es, j, NAN); /* gaps */
  }
  tt_rng r;
  tt_rng_init(&r, seed);
  const int nmat = layout == NOPIVOT ? 1 : batch;
  for (int s = 0; s < nmat; ++s)
    for (int i = 0; i < m; ++i) {
      const int64_t e = at(layout, s, i, stride, batch);
      /* cuSPARSE's storage: dl[0] = du[m-1] = 0 */
      tt_store(C->h[0], es, e, i == 0 ? 0.0 : tt_rng_uniform(&r, -1, 1));
      /* dominant: |b| in 3..5; pivot: |b| in 0.5..1.5 against |a|, |c| < 1, and a
       * first pivot of 1e-20 */
      const double bm = pivot ? (i == 0 ? 1e-20 : tt_rng_uniform(&r, 0.5, 1.5))
                              : tt_rng_uniform(&r, 3, 5);
      tt_store(C->h[1], es, e, (tt_rng_u64(&r) & 1 ? -1 : 1) * bm);
      tt_store(C->h[2], es, e, i == m - 1 ? 0.0 : tt_rng_uniform(&r, -1, 1));
    }
  for (int s = 0; s < batch; ++s)
    for (int i = 0; i < m; ++i) tt_store(C->h[3], es, at(layout, s, i, stride, batch), tt_rng_uniform(&r, -1, 1));
}

static void free_case(host_case *C) {
  for (int k = 0; k < 4; ++k) free(C->h[k]);
}

/* device copies of exactly len[k] elements */
static void upload(const host_case *C, void *dev[4]) {
  for (int k = 0; k < 4; ++k) {
    CUDA_OK(cudaMalloc(&dev[k], (size_t)C->len[k] * C->es));
    CUDA_OK(cudaMemcpy(dev[k], C->h[k], (size_t)C->len[k] * C->es, cudaMemcpyHostToDevice));
  }
}

static void *download(const host_case *C, const void *dev, int k) {
  void *h = malloc((size_t)C->len[k] * C->es);
  assert_non_null(h);
  CUDA_OK(cudaMemcpy(h, dev, (size_t)C->len[k] * C->es, cudaMemcpyDeviceToHost));
  return h;
}

/* the host reference (REF backend) solution of the case, m x batch values */
static double *reference(const host_case *C) {
  const int64_t m = C->m, B = C->batch;
  const int nopiv = C->layout == NOPIVOT;
  const int64_t shape[2] = {C->layout == INTERLEAVED ? m : B, C->layout == INTERLEAVED ? B : m};
  tridi_desc desc;
  assert_int_equal(tridi_desc_create(&desc, C->es == 4 ? TRIDI_F32 : TRIDI_F64, 2, shape,
                                     C->layout == INTERLEAVED ? 0 : 1), TRIDI_SUCCESS);
  const int64_t st[2] = {C->layout == INTERLEAVED ? B : C->stride, 1};
  const int64_t bc[2] = {nopiv ? 0 : st[0], 1};
  for (int k = 0; k < 3; ++k) assert_int_equal(tridi_desc_set_strides(desc, (tridi_operand)k, bc), TRIDI_SUCCESS);
  assert_int_equal(tridi_desc_set_strides(desc, TRIDI_OP_D, st), TRIDI_SUCCESS);
  assert_int_equal(tridi_desc_set_strides(desc, TRIDI_OP_X, st), TRIDI_SUCCESS);
  tridi_options o;
  tridi_options_init(&o);
  o.backend = TRIDI_BACKEND_REF;
  o.pivot = C->pivot ? TRIDI_PIVOT_PARTIAL : TRIDI_PIVOT_NONE;
  tridi_plan plan;
  assert_int_equal(tridi_plan_create(&plan, desc, &o), TRIDI_SUCCESS);
  tridi_desc_destroy(desc);
  void *x = malloc((size_t)C->len[3] * C->es);
  assert_non_null(x);
  memcpy(x, C->h[3], (size_t)C->len[3] * C->es);
  assert_int_equal(tridi_execute(plan, C->h[0], C->h[1], C->h[2], x, x, NULL, NULL), TRIDI_SUCCESS);
  tridi_plan_destroy(plan);
  double *out = malloc((size_t)(m * B + 1) * sizeof *out);
  assert_non_null(out);
  for (int64_t s = 0; s < B; ++s)
    for (int64_t i = 0; i < m; ++i) out[s * m + i] = tt_load(x, C->es, at(C->layout, s, i, C->stride, B));
  free(x);
  return out;
}

/* x (the downloaded solution) against the reference and against y (cuSPARSE's) */
static void check(const char *ctx, const host_case *C, const void *x, const double *ref, const void *y) {
  const double eps = C->es == 4 ? FLT_EPSILON : DBL_EPSILON, m = C->m;
  const int nopiv = C->layout == NOPIVOT;
  for (int64_t s = 0; s < C->batch; ++s) {
    double nr = 0, na = 0, nx = 0, nd = 0, dr = 0, dy = 0, nref = 0;
    for (int64_t i = 0; i < C->m; ++i) {
      const int64_t e = at(C->layout, s, i, C->stride, C->batch);
      const int64_t em = nopiv ? i : e;
      const double xi = tt_load(x, C->es, e);
      long double r = (long double)tt_load(C->h[1], C->es, em) * xi - tt_load(C->h[3], C->es, e);
      double ra = fabs(tt_load(C->h[1], C->es, em));
      if (i > 0) {
        const double a = tt_load(C->h[0], C->es, em);
        r += (long double)a * tt_load(x, C->es, at(C->layout, s, i - 1, C->stride, C->batch));
        ra += fabs(a);
      }
      if (i < C->m - 1) {
        const double c = tt_load(C->h[2], C->es, em);
        r += (long double)c * tt_load(x, C->es, at(C->layout, s, i + 1, C->stride, C->batch));
        ra += fabs(c);
      }
      nr = fmax(nr, fabs((double)r));
      na = fmax(na, ra);
      nx = fmax(nx, fabs(xi));
      nd = fmax(nd, fabs(tt_load(C->h[3], C->es, e)));
      dr = fmax(dr, fabs(xi - ref[s * C->m + i]));
      nref = fmax(nref, fabs(ref[s * C->m + i]));
      if (y) dy = fmax(dy, fabs(xi - tt_load(y, C->es, e)));
    }
    const double res = nr / (na * nx + nd);
    /* with pivoting only the residual: the matrices' condition numbers make
     * two backward-stable answers differ by more than a few ulps */
    if (C->pivot) dr = 0;
    if (!(res <= 8 * m * eps) || !(dr <= 16 * m * eps * nref) || (y && !(dy <= 64 * m * eps * nref))) {
      tt_fail("%s system %lld: residual %.3g (bound %.3g), |x - ref| %.3g, |x - cusparse| %.3g", ctx,
              (long long)s, res, 8 * m * eps, dr / nref, dy / nref);
      return;
    }
  }
}

/* cuSPARSE on copies of the device inputs (it may overwrite them) */
static void *cusparse_solve(const host_case *C, void *const dev[4]) {
  cusparseHandle_t h;
  CUSPARSE_OK(cusparseCreate(&h));
  void *cp[4];
  upload(C, cp);
  size_t bytes = 0;
  const int m = C->m, B = C->batch, f = C->es == 4, st = (int)C->stride;
  if (C->layout == STRIDED) {
    CUSPARSE_OK(f ? cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, cp[0], cp[1], cp[2], cp[3], B, st, &bytes)
                  : cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, cp[0], cp[1], cp[2], cp[3], B, st, &bytes));
  } else if (C->layout == INTERLEAVED) {
    CUSPARSE_OK(f ? cusparseSgtsvInterleavedBatch_bufferSizeExt(h, 0, m, cp[0], cp[1], cp[2], cp[3], B, &bytes)
                  : cusparseDgtsvInterleavedBatch_bufferSizeExt(h, 0, m, cp[0], cp[1], cp[2], cp[3], B, &bytes));
  } else {
    CUSPARSE_OK(f ? cusparseSgtsv2_nopivot_bufferSizeExt(h, m, B, cp[0], cp[1], cp[2], cp[3], st, &bytes)
                  : cusparseDgtsv2_nopivot_bufferSizeExt(h, m, B, cp[0], cp[1], cp[2], cp[3], st, &bytes));
  }
  void *buf = NULL;
  CUDA_OK(cudaMalloc(&buf, bytes > 0 ? bytes : 1));
  if (C->layout == STRIDED) {
    CUSPARSE_OK(f ? cusparseSgtsv2StridedBatch(h, m, cp[0], cp[1], cp[2], cp[3], B, st, buf)
                  : cusparseDgtsv2StridedBatch(h, m, cp[0], cp[1], cp[2], cp[3], B, st, buf));
  } else if (C->layout == INTERLEAVED) {
    CUSPARSE_OK(f ? cusparseSgtsvInterleavedBatch(h, 0, m, cp[0], cp[1], cp[2], cp[3], B, buf)
                  : cusparseDgtsvInterleavedBatch(h, 0, m, cp[0], cp[1], cp[2], cp[3], B, buf));
  } else {
    CUSPARSE_OK(f ? cusparseSgtsv2_nopivot(h, m, B, cp[0], cp[1], cp[2], cp[3], st, buf)
                  : cusparseDgtsv2_nopivot(h, m, B, cp[0], cp[1], cp[2], cp[3], st, buf));
  }
  CUDA_OK(cudaDeviceSynchronize());
  void *y = download(C, cp[3], 3);
  for (int k = 0; k < 4; ++k) CUDA_OK(cudaFree(cp[k]));
  CUDA_OK(cudaFree(buf));
  cusparseDestroy(h);
  (void)dev;
  return y;
}

static tridi_status tridi_solve(const host_case *C, void *const d[4], cudaStream_t stream) {
  const int f = C->es == 4, m = C->m, B = C->batch, st = (int)C->stride;
  if (C->layout == STRIDED)
    return f ? tridi_cuda_sgtsv_strided_batch(m, d[0], d[1], d[2], d[3], B, st, stream)
             : tridi_cuda_dgtsv_strided_batch(m, d[0], d[1], d[2], d[3], B, st, stream);
  const int algo = C->pivot ? 1 : 0;
  if (C->layout == INTERLEAVED)
    return f ? tridi_cuda_sgtsv_interleaved_batch(algo, m, d[0], d[1], d[2], d[3], B, stream)
             : tridi_cuda_dgtsv_interleaved_batch(algo, m, d[0], d[1], d[2], d[3], B, stream);
  return f ? tridi_cuda_sgtsv2_nopivot(m, B, d[0], d[1], d[2], d[3], st, stream)
           : tridi_cuda_dgtsv2_nopivot(m, B, d[0], d[1], d[2], d[3], st, stream);
}

static void run_case(int layout, size_t es, int m, int batch, int64_t stride, uint64_t seed,
                     cudaStream_t stream, int with_cusparse, int pivot) {
  host_case C;
  make_case(&C, es, layout, m, batch, stride, seed, pivot);
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s%s %s m %d batch %d stride %lld",
           layout == STRIDED ? "strided" : layout == INTERLEAVED ? "interleaved" : "nopivot",
           pivot ? " algo 1" : "", es == 4 ? "f32" : "f64", m, batch, (long long)stride);
  void *dev[4];
  upload(&C, dev);
  tt_expect_status(tridi_solve(&C, dev, stream), TRIDI_SUCCESS, ctx);
  CUDA_OK(cudaStreamSynchronize(stream));
  void *x = download(&C, dev[3], 3);
  double *ref = reference(&C);
  void *y = with_cusparse ? cusparse_solve(&C, dev) : NULL;
  check(ctx, &C, x, ref, y);
  for (int k = 0; k < 3; ++k) { /* inputs unchanged */
    void *h = download(&C, dev[k], k);
    if (memcmp(h, C.h[k], (size_t)C.len[k] * es)) tt_fail("%s: input %d modified", ctx, k);
    free(h);
  }
  for (int k = 0; k < 4; ++k) CUDA_OK(cudaFree(dev[k]));
  free(x);
  free(ref);
  free(y);
  free_case(&C);
}

static const int MS[] = {3, 8, 33, 100, 1000, 4097};

static void test_strided(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t a = 0; a < sizeof MS / sizeof MS[0]; ++a)
      for (int pad = 0; pad <= 5; pad += 5) {
        const int m = MS[a], batch = m <= 100 ? 1000 : 37;
        run_case(STRIDED, t ? 8 : 4, m, batch, m + pad, tt_case_seed("cstrided", k++), 0, 1, 0);
      }
  tt_assert_no_failures();
}

/* every m of MS, f32 and f64: algo 0 against cuSPARSE, or algo 1 (tridi's
 * pivoting solver on systems that need it; no cuSPARSE comparison: the
 * residual is the property) */
static void interleaved_cases(int pivot) {
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t a = 0; a < sizeof MS / sizeof MS[0]; ++a) {
      const int m = MS[a], batch = m <= 100 ? 1000 : 37;
      run_case(INTERLEAVED, t ? 8 : 4, m, batch, 0, tt_case_seed(pivot ? "cpivot" : "cinter", k++),
               0, !pivot, pivot);
    }
  tt_assert_no_failures();
}

static void test_interleaved(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  interleaved_cases(0);
}

static void test_interleaved_pivot(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  interleaved_cases(1);
}

static void test_nopivot(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  uint64_t k = 0;
  for (int t = 0; t < 2; ++t)
    for (size_t a = 0; a < sizeof MS / sizeof MS[0]; ++a)
      run_case(NOPIVOT, t ? 8 : 4, MS[a], 13, MS[a] + 2, tt_case_seed("cnopiv", k++), 0, 1, 0);
  tt_assert_no_failures();
}

/* two streams: one cached plan each; both solve right */
static void test_streams(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  tridi_gtsv_cache_clear();
  cudaStream_t s[2];
  for (int i = 0; i < 2; ++i) CUDA_OK(cudaStreamCreate(&s[i]));
  for (int it = 0; it < 3; ++it)
    for (int i = 0; i < 2; ++i)
      run_case(STRIDED, 8, 500, 300, 500, (uint64_t)(it * 2 + i), s[i], 0, 0);
  if (tridi_gtsv_cache_size() != 2) tt_fail("cache holds %d plans, expected 2 (one per stream)", tridi_gtsv_cache_size());
  for (int i = 0; i < 2; ++i) CUDA_OK(cudaStreamDestroy(s[i]));
  tridi_gtsv_cache_clear();
  if (tridi_gtsv_cache_size() != 0) tt_fail("cache not cleared");
  tt_assert_no_failures();
}

static void test_args(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  double *p;
  CUDA_OK(cudaMalloc((void **)&p, 64 * sizeof *p));
  tt_expect_status(tridi_cuda_dgtsv_interleaved_batch(2, 8, p, p, p, p + 32, 2, NULL),
                   TRIDI_ERR_NOT_SUPPORTED, "algo 2");
  tt_expect_status(tridi_cuda_dgtsv_interleaved_batch(3, 8, p, p, p, p + 32, 2, NULL),
                   TRIDI_ERR_INVALID_OPTION, "algo 3");
  tt_expect_status(tridi_cuda_dgtsv_strided_batch(-1, p, p, p, p + 32, 2, 8, NULL), TRIDI_ERR_INVALID_SHAPE, "m < 0");
  tt_expect_status(tridi_cuda_dgtsv_strided_batch(8, p, p, p, p + 32, 2, 7, NULL), TRIDI_ERR_INVALID_STRIDE, "stride < m");
  tt_expect_status(tridi_cuda_dgtsv_strided_batch(8, NULL, p, p, p + 32, 2, 8, NULL), TRIDI_ERR_NULL_POINTER, "dl NULL");
  tt_expect_status(tridi_cuda_dgtsv2_nopivot(8, 2, p, p, p, p + 32, 7, NULL), TRIDI_ERR_INVALID_STRIDE, "ldb < m");
  /* x overlapping an input other than in place */
  tt_expect_status(tridi_cuda_dgtsv_strided_batch(8, p, p + 8, p + 16, p + 12, 1, 8, NULL), TRIDI_ERR_OVERLAP, "x overlaps d's neighbour");
  tt_expect_status(tridi_cuda_dgtsv_strided_batch(0, p, p, p, p, 5, 0, NULL), TRIDI_SUCCESS, "m 0");
  CUDA_OK(cudaFree(p));
  tt_assert_no_failures();
}

int main(int argc, char **argv) {
  tt_dev_detect();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strided),  cmocka_unit_test(test_interleaved),
      cmocka_unit_test(test_interleaved_pivot), cmocka_unit_test(test_nopivot),
      cmocka_unit_test(test_streams),  cmocka_unit_test(test_args),
  };
  const int rc = TT_RUN_GROUP(tests, argc, argv);
  tridi_gtsv_cache_clear();
  if (!g_have_gpu) {
    fprintf(stderr, "test_compat_cuda: all tests skipped: %s\n", g_skip_reason);
    return 77;
  }
  return rc;
}
