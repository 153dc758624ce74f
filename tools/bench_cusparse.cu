/* cuSPARSE baselines of the scalar kind of `tridi bench` (tools/bench.h), on
 * the same data as tridi: gtsv2StridedBatch for systems along the
 * contiguous axis (contig, padded, launch), gtsvInterleavedBatch (algorithm
 * 0, Thomas) for interleaved systems (interleaved; mid3d as one call per z
 * plane); and the pivoting peer, gtsvInterleavedBatch algorithm 1 (LU with
 * partial pivoting) on every layout.  Times are CUDA-event times of the solver calls, median of
 * opts->reps; the copies that give cuSPARSE fresh inputs are not timed.
 * cuSPARSE is linked into the tool only, never into libtridi.  Also tridi's
 * cuSPARSE-shaped drop-ins as rows of their own on the same data. */
#include <cuda_runtime.h>
#include <cusparse.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "bench.h"
#include "bench_cuda.h"
#include "bench_util.h"
}

namespace {

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

/* The timed loop every row shares: on its own non-blocking stream, each
 * repeat runs prep() (fresh inputs: untimed) and then call() between two
 * events; repeats r < 0 are the warm-up.  run() stops at the first call()
 * that fails and returns false. */
struct TimedLoop {
  cudaStream_t s = nullptr;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  double *t;
  int warmup, reps;
  explicit TimedLoop(const bench_opts *opts) : warmup(opts->warmup), reps(opts->reps) {
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    t = (double *)malloc(sizeof(double) * (size_t)(reps > 0 ? reps : 1));
  }
  ~TimedLoop() {
    free(t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaStreamDestroy(s);
  }
  TimedLoop(const TimedLoop &) = delete;
  TimedLoop &operator=(const TimedLoop &) = delete;
  template <class Prep, class Call>
  bool run(Prep prep, Call call) {
    for (int r = -warmup; r < reps; ++r) {
      prep();
      cudaEventRecord(e0, s);
      const bool ok = call();
      cudaEventRecord(e1, s);
      cudaEventSynchronize(e1);
      if (!ok) return false;
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r >= 0) t[r] = ms;
    }
    return true;
  }
  double median() const { return bench_median(t, reps); }
};

/* A row's entry point: the bench's device current, then the row's f32 or
 * f64 instantiation. */
typedef int (*row_fn)(const bench_case *, const bench_opts *, const bench_data *, bench_result *);
int on_device(row_fn f32, row_fn f64, const bench_case *bc, const bench_opts *opts,
              const bench_data *data, bench_result *res) {
  if (cudaSetDevice(opts->device) != cudaSuccess) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  return (bc->dtype == TRIDI_F64 ? f64 : f32)(bc, opts, data, res);
}

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
  if (bench_cuda_upload(bc, data, opts)) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  const size_t bytes = (size_t)bc->alloc_elems[0] * sizeof(T); /* every operand alike */
  T *A = (T *)bench_cuda_operand(0), *B = (T *)bench_cuda_operand(1), *C = (T *)bench_cuda_operand(2),
    *D = (T *)bench_cuda_operand(3), *X = (T *)bench_cuda_operand(4);
  T *dl = (T *)bench_cuda_scratch(0), *dd = (T *)bench_cuda_scratch(1), *du = (T *)bench_cuda_scratch(2);
  const int m = (int)bc->n;
  cusparseHandle_t h = nullptr;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  TimedLoop loop(opts);
  cusparseSetStream(h, loop.s);
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
  const int64_t nsys = bc->batch;
  const cudaStream_t s = loop.s;
  if (cs == CUSPARSE_STATUS_SUCCESS)
    loop.run(
        [&] { /* fresh inputs each repeat (cuSPARSE may overwrite dl, d, du; it does x) */
              cudaMemcpyAsync(dl, A, bytes, cudaMemcpyDeviceToDevice, s);
              cudaMemcpyAsync(dd, B, bytes, cudaMemcpyDeviceToDevice, s);
              cudaMemcpyAsync(du, C, bytes, cudaMemcpyDeviceToDevice, s);
              prep_systems<T><<<(unsigned)((nsys + 255) / 256), 256, 0, s>>>(
                  nsys, bc->n, bc->strides[bc->axis], bc->rank, bc->axis, bc->shape[0], bc->shape[1],
                  bc->rank > 2 ? bc->shape[2] : 1, bc->strides[0], bc->strides[1],
                  bc->rank > 2 ? bc->strides[2] : 0, dl, du, D, X);
        },
        [&] {
          for (int p = 0; p < planes && cs == CUSPARSE_STATUS_SUCCESS; ++p) {
            const int64_t o = (int64_t)p * plane_stride;
            if (interleaved)
              cs = Sp<T>::inter(h, 0, m, dl + o, dd + o, du + o, X + o, batch, work);
            else
              cs = Sp<T>::strided(h, m, dl, dd, du, X, batch, (int)bc->strides[0], work);
          }
          return cs == CUSPARSE_STATUS_SUCCESS;
        });
  const cudaError_t ce = cudaStreamSynchronize(s);
  if (cs != CUSPARSE_STATUS_SUCCESS || ce != cudaSuccess) {
    fprintf(stderr, "tridi bench (cuda): %s failed: cusparse status %d, %s\n", res->baseline,
            (int)cs, cudaGetErrorString(ce));
    res->baseline_status = TRIDI_ERR_DEVICE;
  } else {
    res->baseline_ms = loop.median();
    if (bench_cuda_download_x(bc, data, X, opts)) res->baseline_status = TRIDI_ERR_DEVICE;
  }
  cudaFree(work);
  cusparseDestroy(h);
  return res->baseline_status != TRIDI_SUCCESS;
}

int cusparse_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                 bench_result *res) {
  return on_device(baseline_t<float>, baseline_t<double>, bc, opts, data, res);
}

/* The pivoting baseline: gtsvInterleavedBatch algorithm 1 (LU with partial
 * pivoting) on the case's systems gathered into the interleaved layout it
 * takes (row i of system s at i B + s; for the interleaved layout the same
 * arrays): gather and scatter are setup, untimed; one thread a system. */
template <typename T>
__global__ void gather_interleaved(int64_t nsys, int64_t n, int64_t as, int rank, int axis, int64_t e0,
                                   int64_t e1, int64_t e2, int64_t s0, int64_t s1, int64_t s2, const T *A,
                                   const T *B, const T *C, const T *D, T *dl, T *dd, T *du, T *xs, bool back,
                                   T *X) {
  const int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  const int64_t ext[3] = {e0, e1, e2}, str[3] = {s0, s1, s2};
  int64_t off = 0, q = s;
  for (int k = rank - 1; k >= 0; --k) {
    if (k == axis) continue;
    off += (q % ext[k]) * str[k];
    q /= ext[k];
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t g = off + i * as, l = i * nsys + s;
    if (back) {
      X[g] = xs[l];
      continue;
    }
    dl[l] = i > 0 ? A[g] : (T)0;
    dd[l] = B[g];
    du[l] = i < n - 1 ? C[g] : (T)0;
    xs[l] = D[g];
  }
}

template <typename T>
int pivot_baseline_t(const bench_case *bc, const bench_opts *opts, const bench_data *data, bench_result *res) {
  snprintf(res->baseline, sizeof res->baseline, "cusparse_gtsvInterleavedBatch_a1");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (bc->n > 0x7fffffff || bc->batch > 0x7fffffff || bc->rank > 3 ||
      (uint64_t)bc->n * (uint64_t)bc->batch > (uint64_t)bc->alloc_elems[4]) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  if (bench_cuda_upload(bc, data, opts)) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  T *A = (T *)bench_cuda_operand(0), *B = (T *)bench_cuda_operand(1), *C = (T *)bench_cuda_operand(2),
    *D = (T *)bench_cuda_operand(3), *X = (T *)bench_cuda_operand(4);
  T *dl = (T *)bench_cuda_scratch(0), *dd = (T *)bench_cuda_scratch(1), *du = (T *)bench_cuda_scratch(2),
    *xs = (T *)bench_cuda_scratch(3);
  const int m = (int)bc->n, batch = (int)bc->batch;
  cusparseHandle_t h = nullptr;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  TimedLoop loop(opts);
  const cudaStream_t s = loop.s;
  cusparseSetStream(h, s);
  void *work = nullptr;
  size_t wsz = 0;
  cusparseStatus_t cs = Sp<T>::inter_size(h, 1, m, dl, dd, du, xs, batch, &wsz);
  if (cs == CUSPARSE_STATUS_SUCCESS && cudaMalloc(&work, wsz ? wsz : 16) != cudaSuccess)
    cs = CUSPARSE_STATUS_ALLOC_FAILED;
  const int64_t nsys = bc->batch;
  const unsigned grid = (unsigned)((nsys + 255) / 256);
  auto gather = [&](bool back) {
    gather_interleaved<T><<<grid, 256, 0, s>>>(nsys, bc->n, bc->strides[bc->axis], bc->rank, bc->axis,
                                                bc->shape[0], bc->shape[1], bc->rank > 2 ? bc->shape[2] : 1,
                                                bc->strides[0], bc->strides[1], bc->rank > 2 ? bc->strides[2] : 0,
                                                A, B, C, D, dl, dd, du, xs, back, X);
  };
  if (cs == CUSPARSE_STATUS_SUCCESS)
    loop.run([&] { gather(false); }, /* fresh inputs each repeat: cuSPARSE overwrites them */
             [&] {
               cs = Sp<T>::inter(h, 1, m, dl, dd, du, xs, batch, work);
               return cs == CUSPARSE_STATUS_SUCCESS;
             });
  if (cs == CUSPARSE_STATUS_SUCCESS) gather(true);
  const cudaError_t ce = cudaStreamSynchronize(s);
  if (cs != CUSPARSE_STATUS_SUCCESS || ce != cudaSuccess) {
    fprintf(stderr, "tridi bench (cuda): %s failed: cusparse status %d, %s\n", res->baseline, (int)cs,
            cudaGetErrorString(ce));
    res->baseline_status = TRIDI_ERR_DEVICE;
  } else {
    res->baseline_ms = loop.median();
    if (bench_cuda_download_x(bc, data, X, opts)) res->baseline_status = TRIDI_ERR_DEVICE;
  }
  cudaFree(work);
  cusparseDestroy(h);
  return res->baseline_status != TRIDI_SUCCESS;
}

int cusparse_pivot_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
                       bench_result *res) {
  return on_device(pivot_baseline_t<float>, pivot_baseline_t<double>, bc, opts, data, res);
}


/* tridi's cuSPARSE-shaped drop-ins on the same data and the same calls as
 * cuSPARSE's row (tridi_cuda_?gtsv_strided_batch / _interleaved_batch, one
 * call per z plane of mid3d), reading a, b, c where they are (a[0] and
 * c[n-1] are not used), in place in x after x = d (untimed). */
template <typename T>
tridi_status dropin_call(bool inter, int m, const T *dl, const T *d, const T *du, T *x, int batch,
                         int stride, cudaStream_t s);
template <>
tridi_status dropin_call<float>(bool inter, int m, const float *dl, const float *d, const float *du,
                                float *x, int batch, int stride, cudaStream_t s) {
  return inter ? tridi_cuda_sgtsv_interleaved_batch(0, m, dl, d, du, x, batch, s)
               : tridi_cuda_sgtsv_strided_batch(m, dl, d, du, x, batch, stride, s);
}
template <>
tridi_status dropin_call<double>(bool inter, int m, const double *dl, const double *d,
                                 const double *du, double *x, int batch, int stride, cudaStream_t s) {
  return inter ? tridi_cuda_dgtsv_interleaved_batch(0, m, dl, d, du, x, batch, s)
               : tridi_cuda_dgtsv_strided_batch(m, dl, d, du, x, batch, stride, s);
}

template <typename T>
int dropin_t(const bench_case *bc, const bench_opts *opts, const bench_data *data, bench_result *res) {
  const bool interleaved = strcmp(bc->layout, "interleaved") == 0 || strcmp(bc->layout, "mid3d") == 0;
  snprintf(res->baseline, sizeof res->baseline, "%s",
           interleaved ? "tridi_cuda_gtsv_interleaved_batch" : "tridi_cuda_gtsv_strided_batch");
  res->baseline_status = TRIDI_SUCCESS;
  res->baseline_ms = NAN;
  if (bc->n > 0x7fffffff || bc->batch > 0x7fffffff || bc->strides[0] > 0x7fffffff) {
    res->baseline_status = TRIDI_ERR_NOT_SUPPORTED;
    return 1;
  }
  if (bench_cuda_upload(bc, data, opts)) {
    res->baseline_status = TRIDI_ERR_DEVICE;
    return 1;
  }
  T *A = (T *)bench_cuda_operand(0), *B = (T *)bench_cuda_operand(1), *C = (T *)bench_cuda_operand(2),
    *D = (T *)bench_cuda_operand(3), *X = (T *)bench_cuda_operand(4);
  T *dl = (T *)bench_cuda_scratch(0), *du = (T *)bench_cuda_scratch(2); /* prep's, unused */
  const int m = (int)bc->n;
  int planes = 1, batch = (int)bc->batch;
  int64_t plane_stride = 0;
  if (strcmp(bc->layout, "mid3d") == 0) {
    planes = (int)bc->shape[0];
    batch = (int)bc->shape[2];
    plane_stride = bc->strides[0];
  }
  const int64_t nsys = bc->batch;
  tridi_status st = TRIDI_SUCCESS;
  { /* the loop's stream must outlive the drop-in plans cached for it: cleared at the end */
    TimedLoop loop(opts);
    const cudaStream_t s = loop.s;
    loop.run(
        [&] {
          prep_systems<T><<<(unsigned)((nsys + 255) / 256), 256, 0, s>>>(
              nsys, bc->n, bc->strides[bc->axis], bc->rank, bc->axis, bc->shape[0], bc->shape[1],
              bc->rank > 2 ? bc->shape[2] : 1, bc->strides[0], bc->strides[1],
              bc->rank > 2 ? bc->strides[2] : 0, dl, du, D, X);
        },
        [&] {
          for (int p = 0; p < planes && st == TRIDI_SUCCESS; ++p) {
            const int64_t o = (int64_t)p * plane_stride;
            st = dropin_call<T>(interleaved, m, A + o, B + o, C + o, X + o, batch, (int)bc->strides[0], s);
          }
          return st == TRIDI_SUCCESS;
        });
    const cudaError_t ce = cudaStreamSynchronize(s);
    if (st != TRIDI_SUCCESS || ce != cudaSuccess) {
      fprintf(stderr, "tridi bench (cuda): %s failed: %s (%s), %s\n", res->baseline,
              tridi_status_name(st), tridi_last_error(), cudaGetErrorString(ce));
      res->baseline_status = st != TRIDI_SUCCESS ? st : TRIDI_ERR_DEVICE;
    } else {
      res->baseline_ms = loop.median();
      if (bench_cuda_download_x(bc, data, X, opts)) res->baseline_status = TRIDI_ERR_DEVICE;
    }
    tridi_gtsv_cache_clear(); /* its plans are per stream, and the loop's stream goes now */
  }
  return res->baseline_status != TRIDI_SUCCESS;
}

int dropin_run(const bench_case *bc, const bench_opts *opts, const bench_data *data,
               bench_result *res) {
  return on_device(dropin_t<float>, dropin_t<double>, bc, opts, data, res);
}

} /* namespace */

extern "C" const bench_baseline bench_baseline_dropin_cuda = {
    "tridi_cuda_?gtsv_strided_batch / _interleaved_batch (the cuSPARSE drop-ins)", TRIDI_BACKEND_CUDA,
    dropin_run,
};

extern "C" const bench_baseline bench_baseline_cusparse_scalar = {
    "cuSPARSE gtsv2StridedBatch / gtsvInterleavedBatch", TRIDI_BACKEND_CUDA, cusparse_run,
};

/* cuSPARSE's batched pivoting solver, the peer of cuda_lu_partial (the
 * pivoting target of docs/accuracy.md): every layout, its systems gathered
 * into the interleaved layout outside the timed call. */
extern "C" const bench_baseline bench_baseline_cusparse_pivot = {
    "cuSPARSE gtsvInterleavedBatch algorithm 1 (LU, partial pivoting)", TRIDI_BACKEND_CUDA,
    cusparse_pivot_run,
};
