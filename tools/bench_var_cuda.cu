/* GPU baselines of the variable-size kind of `tridi bench` (tools/bench_var.h),
 * on the same data as tridi:
 *
 *   tridi_pad_to_longest      tridi's CUDA scalar solver on the batch padded
 *                             to its longest system with identity rows (what
 *                             paper 002's cuThomasVBatch does);
 *   cusparse_gtsv2StridedBatch_per_length
 *                             cuSPARSE gtsv2StridedBatch called once per
 *                             distinct length on the systems of that length,
 *                             gathered beforehand into one contiguous batch
 *                             (what a user can do today: no vendor library
 *                             solves a variable batch).  gtsv2StridedBatch
 *                             needs m >= 3: systems of 1 or 2 rows are padded
 *                             to 3 with identity rows and solved with the
 *                             systems of 3.
 *
 * The copies are built on the host (bench_variable.c, shared with the CPU
 * baseline and its tests) and uploaded outside the timed region; so are the
 * solution's download and scatter.  Times are CUDA-event times of the device
 * work, one untimed pass first, then the median of opts->reps passes.  For
 * cuSPARSE a pass is every per-length call back to back on one stream (the
 * right-hand side copied into x before each pass, not timed; the buffer of
 * the largest call allocated once beforehand). */
#include <cuda_runtime.h>
#include <cusparse.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "bench.h"
#include "bench_util.h"
#include "bench_var.h"
}

namespace {

int cuda_fail(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 0;
  fprintf(stderr, "tridi bench (cuda, variable): %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

/* n device arrays of `bytes` each; all or none */
int dev_alloc(void **p, int n, size_t bytes) {
  for (int k = 0; k < n; ++k) p[k] = nullptr;
  for (int k = 0; k < n; ++k)
    if (cuda_fail(cudaMalloc(&p[k], bytes ? bytes : 16), "cudaMalloc")) {
      for (int j = 0; j < k; ++j) cudaFree(p[j]);
      for (int j = 0; j < n; ++j) p[j] = nullptr;
      return 1;
    }
  return 0;
}

void dev_free(void **p, int n) {
  for (int k = 0; k < n; ++k) cudaFree(p[k]);
}

/* n host arrays of `bytes` each (bench_alloc); all or none */
int host_alloc(void **p, int n, size_t bytes) {
  int ok = 1;
  for (int k = 0; k < n; ++k) ok &= (p[k] = bench_alloc(bytes)) != nullptr;
  if (!ok)
    for (int k = 0; k < n; ++k) {
      bench_free(p[k]);
      p[k] = nullptr;
    }
  return !ok;
}

void host_free(void **p, int n) {
  for (int k = 0; k < n; ++k) bench_free(p[k]);
}

/* h[0..3] into d[0..3], `bytes` each, landed before this returns: a
 * pageable cudaMemcpy may return before its DMA does, and the runs' streams
 * are non-blocking (they would not wait for the legacy stream) */
int upload4(void *const *d, void *const *h, size_t bytes) {
  for (int k = 0; k < 4; ++k)
    if (cuda_fail(cudaMemcpy(d[k], h[k], bytes, cudaMemcpyHostToDevice), "upload")) return 1;
  return cuda_fail(cudaDeviceSynchronize(), "upload");
}

/* ---- pad to the longest system ------------------------------------------------- */

int pad_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
            bench_result *res) {
  snprintf(res->baseline, sizeof res->baseline, "tridi_pad_to_longest");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (cudaSetDevice(opts->device) != cudaSuccess) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  const size_t bytes = (size_t)bench_var_pad_elems(bc) * tridi_dtype_size(bc->dtype);
  void *h[4], *d[BENCH_NOPS];
  if (host_alloc(h, 4, bytes)) {
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  if (dev_alloc(d, BENCH_NOPS, bytes)) {
    host_free(h, 4);
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  bench_var_pad_fill(bc, data, h[0], h[1], h[2], h[3], opts->threads);
  tridi_status st = upload4(d, h, bytes) ? TRIDI_ERR_DEVICE : TRIDI_SUCCESS;
  tridi_desc desc = nullptr;
  tridi_plan plan = nullptr;
  if (st == TRIDI_SUCCESS) st = bench_var_pad_desc(bc, &desc);
  if (st == TRIDI_SUCCESS) {
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    o.device = opts->device;
    o.alg = opts->alg;
    o.assume_dominant = tridi_alg_requires_dominance(o.alg);
    st = tridi_plan_create(&plan, desc, &o);
  }
  if (st != TRIDI_SUCCESS)
    fprintf(stderr, "tridi bench (cuda, variable): pad-to-longest: %s\n", tridi_last_error());
  cudaStream_t s = nullptr;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  double *t = (double *)malloc(sizeof(double) * (size_t)opts->reps);
  if (t == nullptr && st == TRIDI_SUCCESS) st = TRIDI_ERR_ALLOC;
  for (int r = -1; r < opts->reps && st == TRIDI_SUCCESS; ++r) {
    cudaEventRecord(e0, s);
    st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], nullptr, s);
    cudaEventRecord(e1, s);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 0) t[r] = ms;
  }
  if (cuda_fail(cudaStreamSynchronize(s), "pad-to-longest execute") && st == TRIDI_SUCCESS)
    st = TRIDI_ERR_DEVICE;
  if (st == TRIDI_SUCCESS) {
    res->baseline_ms = bench_median(t, opts->reps);
    /* the padded x through host memory (h[3], no longer needed), then its
     * systems' rows into the case's x */
    if (cuda_fail(cudaMemcpy(h[3], d[4], bytes, cudaMemcpyDeviceToHost), "download"))
      st = TRIDI_ERR_DEVICE;
    else
      bench_var_pad_unpack_x(bc, h[3], data->x, opts->threads);
  }
  res->baseline_status = st;
  free(t);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  tridi_plan_destroy(plan);
  tridi_desc_destroy(desc);
  dev_free(d, BENCH_NOPS);
  host_free(h, 4);
  return st != TRIDI_SUCCESS;
}

/* ---- cuSPARSE gtsv2StridedBatch once per length ---------------------------------- */

template <typename T>
struct Gtsv2;
template <>
struct Gtsv2<float> {
  static cusparseStatus_t size(cusparseHandle_t h, int m, const float *dl, const float *d,
                               const float *du, const float *x, int bc, int bs, size_t *sz) {
    return cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, bc, bs, sz);
  }
  static cusparseStatus_t solve(cusparseHandle_t h, int m, const float *dl, const float *d,
                                const float *du, float *x, int bc, int bs, void *buf) {
    return cusparseSgtsv2StridedBatch(h, m, dl, d, du, x, bc, bs, buf);
  }
};
template <>
struct Gtsv2<double> {
  static cusparseStatus_t size(cusparseHandle_t h, int m, const double *dl, const double *d,
                               const double *du, const double *x, int bc, int bs, size_t *sz) {
    return cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, bc, bs, sz);
  }
  static cusparseStatus_t solve(cusparseHandle_t h, int m, const double *dl, const double *d,
                                const double *du, double *x, int bc, int bs, void *buf) {
    return cusparseDgtsv2StridedBatch(h, m, dl, d, du, x, bc, bs, buf);
  }
};

/* One call of at most this many systems: cuSPARSE counts in int. */
int64_t call_limit(int64_t m) { return (int64_t)0x7fffffff / m; }

/* Every per-length call once (a pass), or, with buf == nullptr, the largest
 * buffer any call needs into *need. */
template <typename T>
cusparseStatus_t calls(cusparseHandle_t h, const bench_var_groups *g, T *dl, T *dd, T *du, T *x,
                       void *buf, size_t *need) {
  for (int64_t gi = 0; gi < g->count; ++gi) {
    const int64_t m = g->m[gi], lim = call_limit(m);
    for (int64_t j = 0; j < g->nsys[gi]; j += lim) {
      const int64_t nb = g->nsys[gi] - j < lim ? g->nsys[gi] - j : lim;
      const int64_t o = g->first[gi] + j * m;
      cusparseStatus_t cs;
      if (buf == nullptr) {
        size_t sz = 0;
        cs = Gtsv2<T>::size(h, (int)m, dl + o, dd + o, du + o, x + o, (int)nb, (int)m, &sz);
        if (sz > *need) *need = sz;
      } else {
        cs = Gtsv2<T>::solve(h, (int)m, dl + o, dd + o, du + o, x + o, (int)nb, (int)m, buf);
      }
      if (cs != CUSPARSE_STATUS_SUCCESS) return cs;
    }
  }
  return CUSPARSE_STATUS_SUCCESS;
}

template <typename T>
int cusparse_t(const bench_case *bc, const bench_opts *opts, const bench_data *data,
               bench_result *res) {
  snprintf(res->baseline, sizeof res->baseline, "cusparse_gtsv2StridedBatch_per_length");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (bc->nmax > 0x7fffffff) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  bench_var_groups g;
  if (bench_var_groups_make(bc, 3, &g)) {
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  const size_t bytes = (size_t)g.first[g.count] * sizeof(T);
  void *h[4], *d[BENCH_NOPS]; /* dl, d, du, rhs; on the device x too */
  if (host_alloc(h, 4, bytes)) {
    bench_var_groups_free(&g);
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  if (dev_alloc(d, BENCH_NOPS, bytes)) {
    host_free(h, 4);
    bench_var_groups_free(&g);
    res->baseline_status = TRIDI_ERR_ALLOC;
    return 1;
  }
  bench_var_gather(bc, data, &g, h[0], h[1], h[2], h[3], opts->threads);
  tridi_status st = upload4(d, h, bytes) ? TRIDI_ERR_DEVICE : TRIDI_SUCCESS;
  T *dl = (T *)d[0], *dd = (T *)d[1], *du = (T *)d[2], *rhs = (T *)d[3], *x = (T *)d[4];
  cusparseHandle_t hs = nullptr;
  cusparseStatus_t cs = cusparseCreate(&hs);
  cudaStream_t s = nullptr;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSetStream(hs, s);
  size_t need = 0;
  void *work = nullptr;
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = calls<T>(hs, &g, dl, dd, du, x, nullptr, &need);
  if (cs == CUSPARSE_STATUS_SUCCESS && cuda_fail(cudaMalloc(&work, need ? need : 16), "cudaMalloc"))
    st = TRIDI_ERR_ALLOC;
  double *t = (double *)malloc(sizeof(double) * (size_t)opts->reps);
  if (t == nullptr && st == TRIDI_SUCCESS) st = TRIDI_ERR_ALLOC;
  for (int r = -1; r < opts->reps && st == TRIDI_SUCCESS && cs == CUSPARSE_STATUS_SUCCESS; ++r) {
    cudaMemcpyAsync(x, rhs, bytes, cudaMemcpyDeviceToDevice, s); /* fresh right-hand sides */
    cudaEventRecord(e0, s);
    cs = calls<T>(hs, &g, dl, dd, du, x, work, &need);
    cudaEventRecord(e1, s);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 0) t[r] = ms;
  }
  const cudaError_t ce = cudaStreamSynchronize(s);
  if (st == TRIDI_SUCCESS && (cs != CUSPARSE_STATUS_SUCCESS || ce != cudaSuccess)) {
    fprintf(stderr, "tridi bench (cuda, variable): %s failed: cusparse status %d, %s\n",
            res->baseline, (int)cs, cudaGetErrorString(ce));
    st = TRIDI_ERR_DEVICE;
  }
  if (st == TRIDI_SUCCESS) {
    res->baseline_ms = bench_median(t, opts->reps);
    if (cuda_fail(cudaMemcpy(h[3], x, bytes, cudaMemcpyDeviceToHost), "download"))
      st = TRIDI_ERR_DEVICE;
    else
      bench_var_scatter_x(bc, &g, h[3], data->x, opts->threads);
  }
  res->baseline_status = st;
  free(t);
  cudaFree(work);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  if (hs != nullptr) cusparseDestroy(hs);
  dev_free(d, BENCH_NOPS);
  host_free(h, 4);
  bench_var_groups_free(&g);
  return st != TRIDI_SUCCESS;
}

int cusparse_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                 bench_result *res) {
  if (cudaSetDevice(opts->device) != cudaSuccess) {
    snprintf(res->baseline, sizeof res->baseline, "cusparse_gtsv2StridedBatch_per_length");
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  return bc->dtype == TRIDI_F64 ? cusparse_t<double>(bc, opts, data, res)
                                : cusparse_t<float>(bc, opts, data, res);
}

} /* namespace */

extern "C" const bench_baseline bench_baseline_var_pad_cuda = {
    "tridi's CUDA scalar solver on the batch padded to its longest system", TRIDI_BACKEND_CUDA,
    pad_run,
};
extern "C" const bench_baseline bench_baseline_var_cusparse = {
    "cuSPARSE gtsv2StridedBatch once per length (systems gathered per length, not timed)",
    TRIDI_BACKEND_CUDA, cusparse_run,
};
