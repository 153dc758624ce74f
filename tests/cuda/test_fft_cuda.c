/* The FFT's CUDA backend: every power of two n = 1 .. 2^24 (and 2^27 c32),
 * both dtypes and directions, odd batches, against tridi's CPU reference
 * (naive DFT too for n <= 1024) and cuFFT on the same data, with the bound
 * FFT_ERR_C log2(n) eps; layouts with strides and padding (never written),
 * in place; capture into a CUDA graph on a non-default stream; argument
 * checks on device pointers.  Without a GPU every test skips (exit 77). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cuda_runtime_api.h>
#include <cufft.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_oracle.h"
#include "tridi.h"
#include "tt_dev.h"

/* tridi's GPU error against the CPU reference: both O(log2 n eps) */
#define FFT_ERR_C 2.0
#define POISON 0xA5

static double bound(tridi_dtype dt, int64_t n) { return fo_bound(FFT_ERR_C, dt, n); }

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  assert_non_null(p);
  return p;
}

static tridi_fft_plan make(int64_t n, int64_t batch, tridi_dtype dt, tridi_fft_direction dir,
                           const tridi_fft_options *layout, tridi_backend be) {
  tridi_fft_options o;
  if (layout) o = *layout;
  else tridi_fft_options_init(&o);
  o.backend = be;
  tridi_fft_plan p = NULL;
  const tridi_status st = tridi_fft_plan_create(&p, n, batch, dt, dir, &o);
  if (st) fail_msg("plan %s n=%lld batch=%lld: %s: %s", tridi_backend_name(be), (long long)n,
                   (long long)batch, tridi_status_name(st), tridi_last_error());
  return p;
}

/* max over transforms of the relative 2-norm error of got against ref
 * (packed host arrays of dtype dt) */
static double max_err(tridi_dtype dt, int64_t n, int64_t batch, const void *ref, const void *got) {
  const size_t es = tridi_dtype_size(dt);
  double *r = xmalloc(sizeof(double) * 2 * (size_t)n), *g = xmalloc(sizeof(double) * 2 * (size_t)n);
  double worst = 0;
  for (int64_t t = 0; t < batch; ++t) {
    fo_load(dt, (const char *)ref + es * (size_t)(t * n), n, 1, r);
    fo_load(dt, (const char *)got + es * (size_t)(t * n), n, 1, g);
    const double e = fo_rel_err(n, r, g);
    if (!(e <= worst)) worst = e;
  }
  free(r), free(g);
  return worst;
}

/* packed n x batch: the GPU against the CPU reference (and cuFFT's error, printed) */
static void one_case(int64_t n, int64_t batch, tridi_dtype dt, tridi_fft_direction dir, uint64_t seed,
                     int with_cufft) {
  const size_t es = tridi_dtype_size(dt), bytes = es * (size_t)(n * batch);
  double *x = xmalloc(sizeof(double) * 2 * (size_t)(n * batch));
  void *in = xmalloc(bytes), *ref = xmalloc(bytes), *got = xmalloc(bytes), *cu = xmalloc(bytes);
  fo_fill(x, n * batch, seed);
  fo_store(dt, x, n * batch, in, 1);
  tridi_fft_plan pc = make(n, batch, dt, dir, NULL, TRIDI_BACKEND_CPU);
  assert_int_equal(tridi_fft_execute(pc, in, ref, NULL), TRIDI_SUCCESS);
  tridi_fft_plan_destroy(pc);
  void *din = NULL, *dout = NULL;
  CUDA_OK(cudaMalloc(&din, bytes));
  CUDA_OK(cudaMalloc(&dout, bytes));
  CUDA_OK(cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dout, 0xff, bytes));
  tridi_fft_plan pg = make(n, batch, dt, dir, NULL, TRIDI_BACKEND_CUDA);
  assert_int_equal(tridi_fft_execute(pg, din, dout, NULL), TRIDI_SUCCESS);
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(got, dout, bytes, cudaMemcpyDeviceToHost));
  const double e = max_err(dt, n, batch, ref, got);
  double ecu = NAN;
  if (with_cufft && n <= INT32_MAX && batch <= INT32_MAX) {
    cufftHandle h;
    int nn = (int)n;
    if (cufftPlanMany(&h, 1, &nn, NULL, 1, nn, NULL, 1, nn, dt == TRIDI_C32 ? CUFFT_C2C : CUFFT_Z2Z,
                      (int)batch) == CUFFT_SUCCESS) {
      const int sign = dir == TRIDI_FFT_FORWARD ? CUFFT_FORWARD : CUFFT_INVERSE;
      const cufftResult r = dt == TRIDI_C32
                                ? cufftExecC2C(h, (cufftComplex *)din, (cufftComplex *)dout, sign)
                                : cufftExecZ2Z(h, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, sign);
      assert_int_equal(r, CUFFT_SUCCESS);
      CUDA_OK(cudaDeviceSynchronize());
      CUDA_OK(cudaMemcpy(cu, dout, bytes, cudaMemcpyDeviceToHost));
      ecu = max_err(dt, n, batch, ref, cu);
      cufftDestroy(h);
    }
  }
  tridi_fft_plan_info info = {.struct_size = sizeof info};
  assert_int_equal(tridi_fft_plan_get_info(pg, &info), TRIDI_SUCCESS);
  if (!(e <= bound(dt, n)))
    fail_msg("%s n=2^%d batch=%lld dir=%d (%s, %d passes) seed=%llu: error %.3g > bound %.3g (cuFFT: %.3g)",
             tridi_dtype_name(dt), fo_log2(n), (long long)batch, (int)dir, info.kernel, info.passes,
             (unsigned long long)seed, e, bound(dt, n), ecu);
  if (with_cufft)
    printf("%s n=2^%-2d batch=%-8lld passes=%d error %.2e (bound %.2e), cuFFT %.2e\n", tridi_dtype_name(dt),
           fo_log2(n), (long long)batch, info.passes, e, bound(dt, n), ecu);
  tridi_fft_plan_destroy(pg);
  cudaFree(din), cudaFree(dout);
  free(x), free(in), free(ref), free(got), free(cu);
}

static const tridi_dtype dtypes[] = {TRIDI_C32, TRIDI_C64};

/* every n = 2^0 .. 2^20, odd batches, both directions */
static void gpu_sizes(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  for (int d = 0; d < 2; ++d)
    for (int l = 0; l <= 20; ++l) {
      const int64_t n = (int64_t)1 << l;
      const int64_t batch = l <= 12 ? 7 : l <= 16 ? 3 : 1;
      one_case(n, batch, dtypes[d], (l % 2) ? TRIDI_FFT_INVERSE : TRIDI_FFT_FORWARD, 50 + (uint64_t)l, 0);
      one_case(n, 1, dtypes[d], (l % 2) ? TRIDI_FFT_FORWARD : TRIDI_FFT_INVERSE, 90 + (uint64_t)l, 0);
    }
}

/* against cuFFT too, 2^22 elements per case (n = 2^24 and 2^27 c32 alone); the
 * errors printed */
static void gpu_cufft(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  for (int d = 0; d < 2; ++d)
    for (int l = 8; l <= 24; l += 2) {
      const int64_t n = (int64_t)1 << l;
      one_case(n, ((int64_t)1 << 22) >> (l < 22 ? l : 22), dtypes[d], TRIDI_FFT_FORWARD, 200 + (uint64_t)l, 1);
    }
  one_case((int64_t)1 << 27, 1, TRIDI_C32, TRIDI_FFT_FORWARD, 300, 1);
  one_case((int64_t)1 << 13, (int64_t)1 << 14, TRIDI_C32, TRIDI_FFT_INVERSE, 301, 1);
}

/* the naive DFT for small n (the CPU reference is checked against it in
 * tests/fft; this checks the GPU directly) */
static void gpu_naive(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  for (int d = 0; d < 2; ++d)
    for (int l = 0; l <= 10; ++l) {
      const tridi_dtype dt = dtypes[d];
      const int64_t n = (int64_t)1 << l, batch = 5;
      const size_t es = tridi_dtype_size(dt), bytes = es * (size_t)(n * batch);
      double *x = xmalloc(sizeof(double) * 2 * (size_t)(n * batch)), *xr = xmalloc(sizeof(double) * 2 * (size_t)n);
      double *y = xmalloc(sizeof(double) * 2 * (size_t)n), *g = xmalloc(sizeof(double) * 2 * (size_t)n);
      void *h = xmalloc(bytes), *dbuf = NULL;
      fo_fill(x, n * batch, 400 + (uint64_t)l);
      fo_store(dt, x, n * batch, h, 1);
      CUDA_OK(cudaMalloc(&dbuf, bytes));
      CUDA_OK(cudaMemcpy(dbuf, h, bytes, cudaMemcpyHostToDevice));
      tridi_fft_plan p = make(n, batch, dt, TRIDI_FFT_INVERSE, NULL, TRIDI_BACKEND_CUDA);
      assert_int_equal(tridi_fft_execute(p, dbuf, dbuf, NULL), TRIDI_SUCCESS); /* in place */
      void *r = xmalloc(bytes);
      CUDA_OK(cudaMemcpy(r, dbuf, bytes, cudaMemcpyDeviceToHost));
      for (int64_t t = 0; t < batch; ++t) {
        fo_load(dt, (char *)h + es * (size_t)(t * n), n, 1, xr);
        fo_naive_dft(n, 1, xr, y);
        fo_load(dt, (char *)r + es * (size_t)(t * n), n, 1, g);
        const double e = fo_rel_err(n, y, g);
        if (!(e <= bound(dt, n)))
          fail_msg("naive %s n=%lld t=%lld: %.3g > %.3g", tridi_dtype_name(dt), (long long)n, (long long)t, e,
                   bound(dt, n));
      }
      tridi_fft_plan_destroy(p);
      cudaFree(dbuf);
      free(x), free(xr), free(y), free(g), free(h), free(r);
    }
}

/* strided / padded layouts, in and out of place: the GPU result equals the
 * CPU plan's of the same layout within the bound, and no padding element
 * of the output allocation is written */
static void gpu_layouts(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  static const struct {
    int64_t n, batch, is, id, os, od;
    int inplace;
  } cases[] = {
      {64, 5, 1, 70, 1, 67, 0},       {16, 6, 6, 1, 6, 1, 0},     {1 << 14, 3, 2, 0, 1, 0, 0},
      {1 << 15, 2, 1, 0, 3, 0, 0},    {256, 9, 1, 300, 1, 300, 1}, {1 << 16, 2, 1, 70000, 1, 70000, 1},
      {1 << 19, 1, 1, 0, 1, 0, 1},    {8, 1000, 1000, 1, 1000, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    for (int d = 0; d < 2; ++d) {
      const tridi_dtype dt = dtypes[d];
      const size_t es = tridi_dtype_size(dt);
      const int64_t n = cases[i].n, batch = cases[i].batch;
      const int64_t id = cases[i].id ? cases[i].id : n * cases[i].is, od = cases[i].od ? cases[i].od : n * cases[i].os;
      const int64_t isp = (n - 1) * cases[i].is + (batch - 1) * id + 1;
      const int64_t osp = (n - 1) * cases[i].os + (batch - 1) * od + 1;
      const int64_t span = isp > osp ? isp : osp;
      double *x = xmalloc(sizeof(double) * 2 * (size_t)span);
      unsigned char *hin = xmalloc(es * (size_t)span), *hout = xmalloc(es * (size_t)span);
      unsigned char *cpu = xmalloc(es * (size_t)span), *gpu = xmalloc(es * (size_t)span);
      fo_fill(x, span, 500 + i);
      fo_store(dt, x, span, hin, 1);
      memset(hout, POISON, es * (size_t)span);
      tridi_fft_options o;
      tridi_fft_options_init(&o);
      o.in_stride = cases[i].is, o.in_dist = cases[i].id, o.out_stride = cases[i].os, o.out_dist = cases[i].od;
      tridi_fft_plan pc = make(n, batch, dt, TRIDI_FFT_FORWARD, &o, TRIDI_BACKEND_CPU);
      tridi_fft_plan pg = make(n, batch, dt, TRIDI_FFT_FORWARD, &o, TRIDI_BACKEND_CUDA);
      void *din = NULL, *dout = NULL;
      CUDA_OK(cudaMalloc(&din, es * (size_t)span));
      CUDA_OK(cudaMemcpy(din, hin, es * (size_t)span, cudaMemcpyHostToDevice));
      if (cases[i].inplace) {
        memcpy(cpu, hin, es * (size_t)span);
        assert_int_equal(tridi_fft_execute(pc, cpu, cpu, NULL), TRIDI_SUCCESS);
        assert_int_equal(tridi_fft_execute(pg, din, din, NULL), TRIDI_SUCCESS);
        CUDA_OK(cudaMemcpy(gpu, din, es * (size_t)span, cudaMemcpyDeviceToHost));
      } else {
        memcpy(cpu, hout, es * (size_t)span);
        assert_int_equal(tridi_fft_execute(pc, hin, cpu, NULL), TRIDI_SUCCESS);
        CUDA_OK(cudaMalloc(&dout, es * (size_t)span));
        CUDA_OK(cudaMemcpy(dout, hout, es * (size_t)span, cudaMemcpyHostToDevice));
        assert_int_equal(tridi_fft_execute(pg, din, dout, NULL), TRIDI_SUCCESS);
        CUDA_OK(cudaMemcpy(gpu, dout, es * (size_t)span, cudaMemcpyDeviceToHost));
      }
      /* every element that is not an output point must be as it was */
      unsigned char *mask = calloc((size_t)span, 1);
      assert_non_null(mask);
      for (int64_t t = 0; t < batch; ++t)
        for (int64_t j = 0; j < n; ++j) mask[t * od + j * cases[i].os] = 1;
      for (int64_t e = 0; e < span; ++e)
        if (!mask[e] && memcmp(gpu + es * (size_t)e, cpu + es * (size_t)e, es) != 0)
          fail_msg("layout %zu %s: element %lld outside the output changed", i, tridi_dtype_name(dt), (long long)e);
      /* the transforms, gathered */
      double *r = xmalloc(sizeof(double) * 2 * (size_t)n), *g = xmalloc(sizeof(double) * 2 * (size_t)n);
      for (int64_t t = 0; t < batch; ++t) {
        fo_load(dt, cpu + es * (size_t)(t * od), n, cases[i].os, r);
        fo_load(dt, gpu + es * (size_t)(t * od), n, cases[i].os, g);
        const double e = fo_rel_err(n, r, g);
        if (!(e <= bound(dt, n)))
          fail_msg("layout %zu %s t=%lld: %.3g > %.3g", i, tridi_dtype_name(dt), (long long)t, e, bound(dt, n));
      }
      tridi_fft_plan_destroy(pc);
      tridi_fft_plan_destroy(pg);
      cudaFree(din), cudaFree(dout);
      free(x), free(hin), free(hout), free(cpu), free(gpu), free(mask), free(r), free(g);
    }
}

/* a multi-pass plan (3 passes by default, 2 with clusters in tuning
 * builds) captured into a graph on a non-default stream, replayed
 * twice: the same bits as direct execution */
static void gpu_graph(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  const int64_t n = (int64_t)1 << 22, batch = 2;
  const size_t bytes = 8 * (size_t)(n * batch);
  double *x = xmalloc(sizeof(double) * 2 * (size_t)(n * batch));
  void *h = xmalloc(bytes), *a = xmalloc(bytes), *b = xmalloc(bytes);
  fo_fill(x, n * batch, 77);
  fo_store(TRIDI_C32, x, n * batch, h, 1);
  void *din = NULL, *dout = NULL;
  CUDA_OK(cudaMalloc(&din, bytes));
  CUDA_OK(cudaMalloc(&dout, bytes));
  CUDA_OK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
  tridi_fft_plan p = make(n, batch, TRIDI_C32, TRIDI_FFT_FORWARD, NULL, TRIDI_BACKEND_CUDA);
  tridi_fft_plan_info info = {.struct_size = sizeof info};
  assert_int_equal(tridi_fft_plan_get_info(p, &info), TRIDI_SUCCESS);
  assert_true(info.passes >= 2);
  assert_int_equal(tridi_fft_execute(p, din, dout, NULL), TRIDI_SUCCESS);
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(a, dout, bytes, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemset(dout, 0, bytes));
  CUDA_OK(cudaDeviceSynchronize()); /* the memset, before the non-blocking stream writes dout */
  cudaStream_t s;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  assert_int_equal(tridi_fft_execute(p, din, dout, s), TRIDI_SUCCESS);
  CUDA_OK(cudaStreamEndCapture(s, &g));
  CUDA_OK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 2; ++r) CUDA_OK(cudaGraphLaunch(ge, s));
  CUDA_OK(cudaStreamSynchronize(s));
  CUDA_OK(cudaMemcpy(b, dout, bytes, cudaMemcpyDeviceToHost));
  assert_memory_equal(a, b, bytes);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  tridi_fft_plan_destroy(p);
  cudaFree(din), cudaFree(dout);
  free(x), free(h), free(a), free(b);
}

/* argument checks on device pointers; the plan's description */
static void gpu_args(void **state) {
  (void)state;
  SKIP_WITHOUT_GPU();
  tridi_fft_plan p = make(1 << 20, 2, TRIDI_C64, TRIDI_FFT_FORWARD, NULL, TRIDI_BACKEND_CUDA);
  tridi_fft_plan_info info = {.struct_size = sizeof info};
  assert_int_equal(tridi_fft_plan_get_info(p, &info), TRIDI_SUCCESS);
  assert_int_equal(info.backend, TRIDI_BACKEND_CUDA);
  assert_int_equal(info.num_threads, 0);
  assert_true(info.passes >= 2);
  printf("c64 n=2^20: %s, %d passes, %zu bytes of scratch\n", info.kernel, info.passes, info.scratch_bytes);
  char *d = NULL;
  CUDA_OK(cudaMalloc((void **)&d, (size_t)16 << 21));
  assert_int_equal(tridi_fft_execute(p, d + 8, d + ((size_t)16 << 20), NULL), TRIDI_ERR_MISALIGNED);
  assert_int_equal(tridi_fft_execute(p, d, d + 16, NULL), TRIDI_ERR_OVERLAP);
  assert_int_equal(tridi_fft_execute(p, NULL, d, NULL), TRIDI_ERR_NULL_POINTER);
  tridi_fft_options o;
  tridi_fft_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.device = 1000;
  tridi_fft_plan q = NULL;
  const tridi_status st = tridi_fft_plan_create(&q, 8, 1, TRIDI_C32, TRIDI_FFT_FORWARD, &o);
  assert_true(st == TRIDI_ERR_INVALID_OPTION || st == TRIDI_ERR_BACKEND_UNAVAILABLE || st == TRIDI_ERR_DEVICE);
  assert_null(q);
  cudaFree(d);
  tridi_fft_plan_destroy(p);
}

int main(int argc, char **argv) {
  tt_dev_detect();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpu_sizes),   cmocka_unit_test(gpu_cufft), cmocka_unit_test(gpu_naive),
      cmocka_unit_test(gpu_layouts), cmocka_unit_test(gpu_graph), cmocka_unit_test(gpu_args),
  };
  const int rc = TT_RUN_GROUP(tests, argc, argv);
  if (!g_have_gpu) {
    fprintf(stderr, "test_fft_cuda: all tests skipped: %s\n", g_skip_reason);
    return 77;
  }
  return rc;
}
