/* CUDA runner of `tridi bench` (tools/bench.h): tridi on TRIDI_BACKEND_CUDA,
 * the device copy bandwidth (cudaMemcpy device-to-device and a float4 copy
 * kernel, the higher one is the reference), and the cuSPARSE baselines on the
 * same data: gtsv2StridedBatch for systems along the contiguous axis
 * (contig, padded, launch), gtsvInterleavedBatch (algorithm 0, Thomas) for
 * interleaved systems (interleaved; mid3d as one call per z plane).
 *
 * Times are CUDA-event times of the device work, median of opts->reps; the
 * launch-bound case is timed as a back-to-back loop of executes (host launch
 * cost included) divided by the count.  cuSPARSE is linked into the tool
 * only, never into libtridi. */
#include <cuda_runtime.h>
#include <cusparse.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "bench.h"
#include "bench_util.h"
}

namespace {

/* device buffers reused across cases (grown on demand) */
struct DevBufs {
  void *op[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  void *extra[4] = {nullptr, nullptr, nullptr, nullptr}; /* baseline scratch: dl, d, du copies */
  size_t bytes = 0;
};
DevBufs g_dev;

int check(cudaError_t e, const char *what, const bench_opts *o) {
  if (e == cudaSuccess) return 0;
  if (o == nullptr || o->verbose) fprintf(stderr, "tridi bench (cuda): %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

int ensure_bufs(size_t bytes, const bench_opts *o) {
  if (bytes <= g_dev.bytes) return 0;
  for (int k = 0; k < 5; ++k) cudaFree(g_dev.op[k]);
  for (int k = 0; k < 4; ++k) cudaFree(g_dev.extra[k]);
  memset(&g_dev, 0, sizeof g_dev);
  for (int k = 0; k < 5; ++k)
    if (check(cudaMalloc(&g_dev.op[k], bytes), "cudaMalloc", o)) return 1;
  for (int k = 0; k < 4; ++k)
    if (check(cudaMalloc(&g_dev.extra[k], bytes), "cudaMalloc", o)) return 1;
  g_dev.bytes = bytes;
  return 0;
}

int upload(const bench_case *bc, const bench_data *data, const bench_opts *o) {
  const size_t bytes = (size_t)bc->alloc_elems * tridi_dtype_size(bc->dtype);
  if (ensure_bufs(bytes, o)) return 1;
  const void *src[5] = {data->a, data->b, data->c, data->d, data->x};
  for (int k = 0; k < 5; ++k)
    if (check(cudaMemcpy(g_dev.op[k], src[k], bytes, cudaMemcpyHostToDevice), "upload", o)) return 1;
  return 0;
}

int download_x(const bench_case *bc, const bench_data *data, void *dx, const bench_opts *o) {
  const size_t bytes = (size_t)bc->alloc_elems * tridi_dtype_size(bc->dtype);
  return check(cudaMemcpy(data->x, dx, bytes, cudaMemcpyDeviceToHost), "download", o);
}

int cuda_available(void) { return tridi_backend_available(TRIDI_BACKEND_CUDA); }

const char *cuda_device_name(void) {
  static char name[256];
  if (name[0]) return name;
  cudaDeviceProp p;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
    snprintf(name, sizeof name, "cuda (unknown device)");
    return name;
  }
  snprintf(name, sizeof name, "%s (sm_%d%d; %d SMs; %.0f MiB)", p.name, p.major, p.minor,
           p.multiProcessorCount, (double)p.totalGlobalMem / 1048576.0);
  for (char *q = name; *q; ++q)
    if (*q == ',') *q = ';';
  return name;
}

__global__ void copy_f4(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

double median_ms(double *v, int k) { return bench_median(v, k); }

double cuda_copy_gbps(size_t bytes, const bench_opts *opts) {
  bytes = (bytes + 255) / 256 * 256;
  void *src = nullptr, *dst = nullptr;
  if (check(cudaMalloc(&src, bytes), "cudaMalloc", opts) || check(cudaMalloc(&dst, bytes), "cudaMalloc", opts)) {
    cudaFree(src);
    return -1.0;
  }
  cudaMemset(src, 1, bytes);
  cudaMemset(dst, 0, bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const int reps = opts->reps < 10 ? 10 : opts->reps;
  double *t = (double *)malloc(sizeof(double) * (size_t)reps);
  double best = -1.0, memcpy_gbps = -1.0, kernel_gbps = -1.0;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  for (int method = 0; method < 2 && t; ++method) {
    for (int r = -2; r < reps; ++r) {
      cudaEventRecord(e0);
      if (method == 0)
        cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice);
      else
        copy_f4<<<sms * 8, 512>>>((const float4 *)src, (float4 *)dst, bytes / 16);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r >= 0) t[r] = ms;
    }
    const double g = 2.0 * (double)bytes / (median_ms(t, reps) * 1e-3) / 1e9;
    if (method == 0) memcpy_gbps = g; else kernel_gbps = g;
    if (g > best) best = g;
  }
  if (cudaGetLastError() != cudaSuccess) best = -1.0;
  fprintf(stderr, "# cuda copy bandwidth: cudaMemcpy D2D %.1f GB/s, float4 kernel %.1f GB/s "
                  "(read+write of %.0f MiB, median of %d); the higher is the reference\n",
          memcpy_gbps, kernel_gbps, (double)bytes / 1048576.0, reps);
  free(t);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(src);
  cudaFree(dst);
  return best;
}

int make_plan(const bench_case *bc, const bench_opts *opts, tridi_plan *plan, tridi_status *st) {
  tridi_desc desc = nullptr;
  *st = tridi_desc_create(&desc, bc->dtype, bc->rank, bc->shape, bc->axis);
  if (*st == TRIDI_SUCCESS) *st = tridi_desc_set_all_strides(desc, bc->strides);
  if (*st == TRIDI_SUCCESS) {
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    o.device = opts->device;
    o.alg = opts->alg;
    *st = tridi_plan_create(plan, desc, &o);
  }
  tridi_desc_destroy(desc);
  if (*st != TRIDI_SUCCESS && opts->verbose)
    fprintf(stderr, "tridi bench (cuda): plan: %s\n", tridi_last_error());
  return *st != TRIDI_SUCCESS;
}

int cuda_run_case(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                  bench_result *res) {
  res->status = TRIDI_SUCCESS;
  res->ms = res->ms_min = NAN;
  res->threads = 0;
  if (cudaSetDevice(opts->device) != cudaSuccess || upload(bc, data, opts)) {
    res->status = TRIDI_ERR_DEVICE;
    return 1;
  }
  tridi_plan plan = nullptr;
  tridi_status st;
  if (make_plan(bc, opts, &plan, &st)) {
    res->status = st;
    return 1;
  }
  bench_note_plan(plan, res);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  void **d = g_dev.op;
  const bool launch = strcmp(bc->layout, "launch") == 0;
  double *t = (double *)malloc(sizeof(double) * (size_t)opts->reps);
  for (int r = -opts->warmup; r < 0 && st == TRIDI_SUCCESS; ++r)
    st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], nullptr, s);
  cudaStreamSynchronize(s);
  if (launch && st == TRIDI_SUCCESS) {
    /* back-to-back executes: the host launch path is what is measured */
    const int loops = 5;
    for (int l = 0; l < loops && st == TRIDI_SUCCESS; ++l) {
      cudaEventRecord(e0, s);
      for (int r = 0; r < opts->reps && st == TRIDI_SUCCESS; ++r)
        st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], nullptr, s);
      cudaEventRecord(e1, s);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      t[l] = ms / opts->reps;
    }
    if (st == TRIDI_SUCCESS) {
      res->ms = median_ms(t, loops);
      res->ms_min = t[0];
      for (int l = 0; l < loops; ++l) res->ms_min = fmin(res->ms_min, t[l]);
    }
  } else {
    for (int r = 0; r < opts->reps && st == TRIDI_SUCCESS; ++r) {
      cudaEventRecord(e0, s);
      st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], nullptr, s);
      cudaEventRecord(e1, s);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      t[r] = ms;
    }
    if (st == TRIDI_SUCCESS) {
      res->ms_min = t[0];
      for (int r = 1; r < opts->reps; ++r) res->ms_min = fmin(res->ms_min, t[r]);
      res->ms = median_ms(t, opts->reps);
    }
  }
  if (st != TRIDI_SUCCESS && opts->verbose)
    fprintf(stderr, "tridi bench (cuda): execute: %s\n", tridi_last_error());
  const cudaError_t ce = cudaStreamSynchronize(s);
  if (st == TRIDI_SUCCESS && ce != cudaSuccess) {
    fprintf(stderr, "tridi bench (cuda): kernel failed: %s\n", cudaGetErrorString(ce));
    st = TRIDI_ERR_DEVICE;
  }
  res->status = st;
  if (st == TRIDI_SUCCESS && download_x(bc, data, d[4], opts)) res->status = TRIDI_ERR_DEVICE;
  free(t);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  tridi_plan_destroy(plan);
  return res->status != TRIDI_SUCCESS;
}

/* ---- cuSPARSE baselines ---------------------------------------------------- */

/* Copy the described elements of src to dst and zero the ends of dl/du
 * copies: one thread per system (setup, untimed). */
template <typename T>
__global__ void prep_systems(int64_t nsys, int64_t n, int64_t as, int rank, int axis,
                             int64_t e0, int64_t e1, int64_t e2, int64_t s0, int64_t s1, int64_t s2,
                             T *dl, T *du, const T *d, T *x) {
  const int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  const int64_t ext[3] = {e0, e1, e2}, str[3] = {s0, s1, s2};
  int64_t off = 0, q = s;
  for (int k = rank - 1; k >= 0; --k) {
    if (k == axis) continue;
    off += (q % ext[k]) * str[k];
    q /= ext[k];
  }
  dl[off] = 0;
  du[off + (n - 1) * as] = 0;
  for (int64_t i = 0; i < n; ++i) x[off + i * as] = d[off + i * as];
}

template <typename T>
struct Sp;
template <>
struct Sp<float> {
  static cusparseStatus_t strided_size(cusparseHandle_t h, int m, const float *dl, const float *d,
                                       const float *du, const float *x, int bc, int bs, size_t *sz) {
    return cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, bc, bs, sz);
  }
  static cusparseStatus_t strided(cusparseHandle_t h, int m, const float *dl, const float *d,
                                  const float *du, float *x, int bc, int bs, void *buf) {
    return cusparseSgtsv2StridedBatch(h, m, dl, d, du, x, bc, bs, buf);
  }
  static cusparseStatus_t inter_size(cusparseHandle_t h, int algo, int m, float *dl, float *d,
                                     float *du, float *x, int bc, size_t *sz) {
    return cusparseSgtsvInterleavedBatch_bufferSizeExt(h, algo, m, dl, d, du, x, bc, sz);
  }
  static cusparseStatus_t inter(cusparseHandle_t h, int algo, int m, float *dl, float *d, float *du,
                                float *x, int bc, void *buf) {
    return cusparseSgtsvInterleavedBatch(h, algo, m, dl, d, du, x, bc, buf);
  }
};
template <>
struct Sp<double> {
  static cusparseStatus_t strided_size(cusparseHandle_t h, int m, const double *dl, const double *d,
                                       const double *du, const double *x, int bc, int bs, size_t *sz) {
    return cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, bc, bs, sz);
  }
  static cusparseStatus_t strided(cusparseHandle_t h, int m, const double *dl, const double *d,
                                  const double *du, double *x, int bc, int bs, void *buf) {
    return cusparseDgtsv2StridedBatch(h, m, dl, d, du, x, bc, bs, buf);
  }
  static cusparseStatus_t inter_size(cusparseHandle_t h, int algo, int m, double *dl, double *d,
                                     double *du, double *x, int bc, size_t *sz) {
    return cusparseDgtsvInterleavedBatch_bufferSizeExt(h, algo, m, dl, d, du, x, bc, sz);
  }
  static cusparseStatus_t inter(cusparseHandle_t h, int algo, int m, double *dl, double *d,
                                double *du, double *x, int bc, void *buf) {
    return cusparseDgtsvInterleavedBatch(h, algo, m, dl, d, du, x, bc, buf);
  }
};

template <typename T>
int baseline_t(const bench_case *bc, const bench_opts *opts, const bench_data *data, bench_result *res) {
  const bool interleaved = strcmp(bc->layout, "interleaved") == 0 || strcmp(bc->layout, "mid3d") == 0;
  snprintf(res->baseline, sizeof res->baseline, "%s",
           interleaved ? "cusparse_gtsvInterleavedBatch" : "cusparse_gtsv2StridedBatch");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (bc->n < 3 && !interleaved) { /* gtsv2StridedBatch needs m >= 3 */
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  if (bc->n > 0x7fffffff || bc->batch > 0x7fffffff) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  if (upload(bc, data, opts)) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  const size_t bytes = (size_t)bc->alloc_elems * sizeof(T);
  T *A = (T *)g_dev.op[0], *B = (T *)g_dev.op[1], *C = (T *)g_dev.op[2], *D = (T *)g_dev.op[3],
    *X = (T *)g_dev.op[4];
  T *dl = (T *)g_dev.extra[0], *dd = (T *)g_dev.extra[1], *du = (T *)g_dev.extra[2];
  const int m = (int)bc->n;
  cusparseHandle_t h = nullptr;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cusparseSetStream(h, s);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  void *work = nullptr;
  size_t wsz = 0;
  int planes = 1, batch = (int)bc->batch;
  int64_t plane_stride = 0;
  if (strcmp(bc->layout, "mid3d") == 0) {
    planes = (int)bc->shape[0];
    batch = (int)bc->shape[2];
    plane_stride = bc->strides[0];
  }
  cusparseStatus_t cs;
  if (interleaved)
    cs = Sp<T>::inter_size(h, 0, m, dl, dd, du, X, batch, &wsz);
  else
    cs = Sp<T>::strided_size(h, m, dl, dd, du, X, batch, (int)bc->strides[0], &wsz);
  if (cs == CUSPARSE_STATUS_SUCCESS && cudaMalloc(&work, wsz ? wsz : 16) != cudaSuccess)
    cs = CUSPARSE_STATUS_ALLOC_FAILED;
  double *t = (double *)malloc(sizeof(double) * (size_t)(opts->reps > 0 ? opts->reps : 1));
  const int64_t nsys = bc->batch;
  for (int r = -opts->warmup; r < opts->reps && cs == CUSPARSE_STATUS_SUCCESS; ++r) {
    /* fresh inputs each repeat (cuSPARSE may overwrite dl, d, du; it does x) */
    cudaMemcpyAsync(dl, A, bytes, cudaMemcpyDeviceToDevice, s);
    cudaMemcpyAsync(dd, B, bytes, cudaMemcpyDeviceToDevice, s);
    cudaMemcpyAsync(du, C, bytes, cudaMemcpyDeviceToDevice, s);
    prep_systems<T><<<(unsigned)((nsys + 255) / 256), 256, 0, s>>>(
        nsys, bc->n, bc->strides[bc->axis], bc->rank, bc->axis, bc->shape[0], bc->shape[1],
        bc->rank > 2 ? bc->shape[2] : 1, bc->strides[0], bc->strides[1],
        bc->rank > 2 ? bc->strides[2] : 0, dl, du, D, X);
    cudaEventRecord(e0, s);
    for (int p = 0; p < planes && cs == CUSPARSE_STATUS_SUCCESS; ++p) {
      const int64_t o = (int64_t)p * plane_stride;
      if (interleaved)
        cs = Sp<T>::inter(h, 0, m, dl + o, dd + o, du + o, X + o, batch, work);
      else
        cs = Sp<T>::strided(h, m, dl, dd, du, X, batch, (int)bc->strides[0], work);
    }
    cudaEventRecord(e1, s);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 0) t[r] = ms;
  }
  const cudaError_t ce = cudaStreamSynchronize(s);
  if (cs != CUSPARSE_STATUS_SUCCESS || ce != cudaSuccess) {
    fprintf(stderr, "tridi bench (cuda): %s failed: cusparse status %d, %s\n", res->baseline,
            (int)cs, cudaGetErrorString(ce));
    res->baseline_status = TRIDI_ERR_DEVICE;
  } else {
    res->baseline_ms = median_ms(t, opts->reps);
    if (download_x(bc, data, X, opts)) res->baseline_status = TRIDI_ERR_DEVICE;
  }
  free(t);
  cudaFree(work);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  cusparseDestroy(h);
  return res->baseline_status != TRIDI_SUCCESS;
}

int cuda_run_baseline(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                      bench_result *res) {
  if (cudaSetDevice(opts->device) != cudaSuccess) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  return bc->dtype == TRIDI_F64 ? baseline_t<double>(bc, opts, data, res)
                                : baseline_t<float>(bc, opts, data, res);
}

} /* namespace */

extern "C" const bench_runner bench_runner_cuda = {
    "cuda", TRIDI_BACKEND_CUDA, cuda_available, cuda_device_name, cuda_copy_gbps,
    cuda_run_case, cuda_run_baseline,
};
