/* CUDA runner of `tridi bench` (tools/bench.h): tridi on TRIDI_BACKEND_CUDA
 * for any kind (the kind makes the descriptor), the device copy bandwidth
 * (cudaMemcpy device-to-device and a float4 copy kernel, the higher one is
 * the reference), the device stream limit (one pass that reads four arrays
 * and writes one: the traffic of a tridiagonal solve), and the device
 * buffers the kinds' GPU baselines share (tools/bench_cuda.h; the scalar
 * kind's cuSPARSE calls are in tools/bench_cusparse.cu).
 *
 * Times are CUDA-event times of the device work, median of opts->reps; the
 * launch-bound case is timed as a back-to-back loop of executes (host launch
 * cost included) divided by the count. */
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

/* device buffers reused across cases (grown on demand) */
struct DevBufs {
  void *op[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  void *extra[4] = {nullptr, nullptr, nullptr, nullptr}; /* baseline scratch: dl, d, du copies */
  size_t bytes = 0;
};
DevBufs g_dev;

int check(cudaError_t e, const char *what, const bench_opts *o) {
  if (e == cudaSuccess) return 0;
  if (o == nullptr || o->verbose)
    fprintf(stderr, "tridi bench (cuda): %s: %s\n", what, cudaGetErrorString(e));
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

size_t case_bytes(const bench_case *bc) {
  return (size_t)bench_max_alloc(bc) * tridi_dtype_size(bc->dtype);
}

} /* namespace */

extern "C" int bench_cuda_upload(const bench_case *bc, const bench_data *data,
                                 const bench_opts *o) {
  if (ensure_bufs(case_bytes(bc), o)) return 1;
  const void *src[5] = {data->a, data->b, data->c, data->d, data->x};
  for (int k = 0; k < 5; ++k) {
    const size_t bytes = (size_t)bc->alloc_elems[k] * tridi_dtype_size(bc->dtype);
    if (check(cudaMemcpy(g_dev.op[k], src[k], bytes, cudaMemcpyHostToDevice), "upload", o))
      return 1;
  }
  /* a pageable cudaMemcpy may return before its DMA has landed, and the
   * non-blocking streams the runs use do not wait for the legacy stream */
  return check(cudaDeviceSynchronize(), "upload", o);
}

extern "C" void *bench_cuda_operand(int op) { return g_dev.op[op]; }
extern "C" void *bench_cuda_scratch(int k) { return g_dev.extra[k]; }

extern "C" int bench_cuda_download_x(const bench_case *bc, const bench_data *data, const void *dx,
                                     const bench_opts *o) {
  const size_t bytes = (size_t)bc->alloc_elems[4] * tridi_dtype_size(bc->dtype);
  return check(cudaMemcpy(data->x, dx, bytes, cudaMemcpyDeviceToHost), "download", o);
}

namespace {

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

/* the device's L2 in bytes (0 when unknown): the copy's working set is at
 * least 4 times it, so that the copy does not run from the L2 */
size_t cuda_l2_bytes(void) {
  int dev = 0, l2 = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) != cudaSuccess || l2 < 0)
    return 0;
  return (size_t)l2;
}

double median_ms(double *v, int k) { return bench_median(v, k); }

/* The references' timing: two untimed passes of launch() on the default
 * stream, then the median of reps passes timed with events e0 / e1 (t: reps
 * slots), in ms; -1.0 on a CUDA error (reported through check as `what`). */
template <typename Launch>
double median_pass_ms(const Launch &launch, int reps, double *t, cudaEvent_t e0, cudaEvent_t e1,
                      const char *what, const bench_opts *opts) {
  for (int r = -2; r < reps; ++r) {
    float ms = 0;
    cudaEventRecord(e0);
    launch();
    cudaEventRecord(e1);
    if (check(cudaGetLastError(), what, opts) || check(cudaEventSynchronize(e1), what, opts) ||
        check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime", opts))
      return -1.0;
    if (r >= 0) t[r] = ms;
  }
  return median_ms(t, reps);
}

/* bytes: the working set; two buffers of half of it */
double cuda_copy_gbps(size_t bytes, const bench_opts *opts) {
  bytes = (bytes / 2 + 255) / 256 * 256;
  void *src = nullptr, *dst = nullptr;
  if (check(cudaMalloc(&src, bytes), "cudaMalloc", opts) ||
      check(cudaMalloc(&dst, bytes), "cudaMalloc", opts)) {
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
  bool ok = t != nullptr;
  for (int method = 0; method < 2 && ok; ++method) {
    const double ms = median_pass_ms(
        [&] {
          if (method == 0)
            cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice);
          else
            copy_f4<<<sms * 8, 512>>>((const float4 *)src, (float4 *)dst, bytes / 16);
        },
        reps, t, e0, e1, "copy", opts);
    ok = ms >= 0;
    if (!ok) break;
    const double g = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
    if (method == 0) memcpy_gbps = g; else kernel_gbps = g;
    if (g > best) best = g;
  }
  if (!ok) best = -1.0;
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

/* x = (a + b) + (c + d) on float4 elements, grid-stride: four arrays read
 * through the read-only path and one written with plain stores, the
 * traffic of a tridiagonal solve (read a, b, c, d; write x) in one pass */
__global__ void stream4_f4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                           const float4 *__restrict__ c, const float4 *__restrict__ d,
                           float4 *__restrict__ x, size_t n4) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x) {
    const float4 p = __ldg(a + i), q = __ldg(b + i), r = __ldg(c + i), s = __ldg(d + i);
    x[i] = make_float4((p.x + q.x) + (r.x + s.x), (p.y + q.y) + (r.y + s.y),
                       (p.z + q.z) + (r.z + s.z), (p.w + q.w) + (r.w + s.w));
  }
}

/* The stream limit: `bytes` split into five arrays (each a multiple of 256
 * bytes, so each 256-byte aligned), four read and one written, 5 arrays
 * counted per pass.  Three launch shapes of the same kernel, the highest is
 * the reference: the copy kernel's (sms * 8 blocks of 512: more blocks than
 * an SM holds at once, so they run in waves), one resident wave (sms times
 * the blocks of 256 an SM holds: every SM full, no tail), and a full grid of
 * one float4 per thread (the loop runs once; blocks retire and new ones
 * start).  On the default stream, as the copy; two untimed passes, then the
 * median of max(10, reps); -1.0 on any CUDA error. */
double cuda_stream_gbps(size_t bytes, const bench_opts *opts) {
  size_t arr = (bytes / 5 + 255) / 256 * 256;
  if (arr == 0) arr = 256;
  const size_t n4 = arr / 16;
  const int reps = opts->reps < 10 ? 10 : opts->reps;
  double *t = (double *)malloc(sizeof(double) * (size_t)reps);
  char *buf = nullptr;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  int dev = 0, sms = 0, per_sm = 0;
  bool ok = t != nullptr && !check(cudaMalloc(&buf, 5 * arr), "cudaMalloc", opts) &&
            !check(cudaMemset(buf, 1, 5 * arr), "cudaMemset", opts) &&
            !check(cudaEventCreate(&e0), "cudaEventCreate", opts) &&
            !check(cudaEventCreate(&e1), "cudaEventCreate", opts) &&
            !check(cudaGetDevice(&dev), "cudaGetDevice", opts) &&
            !check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
                   "cudaDeviceGetAttribute", opts) &&
            !check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream4_f4, 256, 0),
                   "cudaOccupancyMaxActiveBlocksPerMultiprocessor", opts);
  const size_t full = (n4 + 255) / 256;
  const struct {
    unsigned blocks, threads;
  } shape[3] = {{(unsigned)sms * 8u, 512u},
                {(unsigned)sms * (unsigned)(per_sm > 0 ? per_sm : 1), 256u},
                {full < 0x7fffffffu ? (unsigned)full : 0x7fffffffu, 256u}};
  double g[3] = {-1.0, -1.0, -1.0}, best = -1.0;
  const float4 *in = (const float4 *)buf;
  float4 *out = (float4 *)(buf + 4 * arr);
  for (int m = 0; m < 3 && ok; ++m) {
    const double ms = median_pass_ms(
        [&] {
          stream4_f4<<<shape[m].blocks, shape[m].threads>>>(in, in + n4, in + 2 * n4,
                                                             in + 3 * n4, out, n4);
        },
        reps, t, e0, e1, "stream kernel", opts);
    ok = ms >= 0;
    if (ok) g[m] = 5.0 * (double)arr / (ms * 1e-3) / 1e9;
    if (g[m] > best) best = g[m];
  }
  if (ok)
    fprintf(stderr, "# cuda stream limit: copy-kernel grid %.1f GB/s, one wave %.1f GB/s, "
                    "float4 per thread %.1f GB/s (read 4 arrays, write 1, %.0f MiB each; "
                    "median of %d); the highest is the reference\n",
            g[0], g[1], g[2], (double)arr / 1048576.0, reps);
  free(t);
  if (e0) cudaEventDestroy(e0);
  if (e1) cudaEventDestroy(e1);
  cudaFree(buf);
  return ok ? best : -1.0;
}

int make_plan(const bench_case *bc, const bench_opts *opts, tridi_plan *plan, tridi_status *st) {
  tridi_desc desc = nullptr;
  *st = bc->kind->make_desc(bc, &desc);
  if (*st == TRIDI_SUCCESS) {
    tridi_options o;
    tridi_options_init(&o);
    o.backend = TRIDI_BACKEND_CUDA;
    o.device = opts->device;
    o.alg = opts->alg;
    o.pivot = opts->pivot;
    o.assume_dominant = opts->assume_dominant || tridi_alg_requires_dominance(o.alg);
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
  if (cudaSetDevice(opts->device) != cudaSuccess || bench_cuda_upload(bc, data, opts)) {
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
  const bool launch = bc->launch != 0;
  /* every execute gets a device info array, as a call that wants to know
   * each system's outcome does: the long-system kernels check their
   * residuals only then (nobody could read the verdict without it) */
  int32_t *info = nullptr;
  if (cudaMalloc((void **)&info, sizeof(int32_t) * (size_t)(bc->batch > 0 ? bc->batch : 1)) !=
      cudaSuccess) {
    (void)cudaGetLastError();
    info = nullptr;
    st = TRIDI_ERR_DEVICE;
  }
  double *t = (double *)malloc(sizeof(double) * (size_t)opts->reps);
  for (int r = -opts->warmup; r < 0 && st == TRIDI_SUCCESS; ++r)
    st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], info, s);
  cudaStreamSynchronize(s);
  if (launch && st == TRIDI_SUCCESS) {
    /* back-to-back executes: the host launch path is what is measured */
    const int loops = 5;
    for (int l = 0; l < loops && st == TRIDI_SUCCESS; ++l) {
      cudaEventRecord(e0, s);
      for (int r = 0; r < opts->reps && st == TRIDI_SUCCESS; ++r)
        st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], info, s);
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
      st = tridi_execute(plan, d[0], d[1], d[2], d[3], d[4], info, s);
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
  if (st == TRIDI_SUCCESS && bench_cuda_download_x(bc, data, d[4], opts))
    res->status = TRIDI_ERR_DEVICE;
  free(t);
  cudaFree(info);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  tridi_plan_destroy(plan);
  return res->status != TRIDI_SUCCESS;
}

} /* namespace */

extern "C" const bench_runner bench_runner_cuda = {
    "cuda",         TRIDI_BACKEND_CUDA, cuda_available, cuda_device_name, cuda_copy_gbps,
    cuda_stream_gbps,
    cuda_run_case,  nullptr,        cuda_l2_bytes,
};
