/* The GPU side of `tridi bench --problem fft` (tools/bench_fft.c): tridi's
 * CUDA FFT and cuFFT (cufftPlanMany, C2C / Z2Z) on the same device data,
 * timed with events on one stream, and the GPU's copy bandwidth. */
#include <cuda_runtime.h>
#include <cufft.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "bench_fft.h"
#include "bench_util.h"
}
#include "bench_cuda_time.cuh"

static int cuda_ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return 1;
  fprintf(stderr, "tridi bench: %s: %s\n", what, cudaGetErrorString(e));
  (void)cudaGetLastError();
  return 0;
}

extern "C" int bench_fft_cuda_available(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n > 0;
}

extern "C" const char *bench_fft_cuda_device_name(void) {
  static char name[256];
  cudaDeviceProp p;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess)
    return "cuda";
  snprintf(name, sizeof name, "%s", p.name);
  return name;
}

__global__ void fft_bench_copy(const float4 *__restrict__ s, float4 *__restrict__ d, size_t n4) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x)
    d[i] = s[i];
}

extern "C" double bench_fft_cuda_copy_gbps(size_t bytes, int reps) {
  const size_t half = (bytes / 2 + 255) / 256 * 256;
  void *a = nullptr, *b = nullptr;
  if (!cuda_ok(cudaMalloc(&a, half), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&b, half), "cudaMalloc")) {
    cudaFree(a);
    return -1.0;
  }
  cudaMemset(a, 1, half);
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const size_t n4 = half / 16;
  double best = 0;
  bench_cuda_time_ms([&] { fft_bench_copy<<<sms * 8, 256>>>((const float4 *)a, (float4 *)b, n4); },
                     reps, 2, 0, &best);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * (double)half / (best * 1e6); /* the fastest copy: the ceiling */
}

extern "C" int bench_fft_cuda_run(int64_t n, int64_t batch, tridi_dtype dt, tridi_fft_direction dir,
                                  const void *in, void *out, void *base_out, int reps, int warmup,
                                  int device, int baseline, bench_fft_result *res) {
  const size_t bytes = tridi_dtype_size(dt) * (size_t)(n * batch);
  void *din = nullptr, *dout = nullptr;
  cudaStream_t s = nullptr;
  if (!cuda_ok(cudaSetDevice(device), "cudaSetDevice") ||
      !cuda_ok(cudaStreamCreate(&s), "cudaStreamCreate") ||
      !cuda_ok(cudaMalloc(&din, bytes), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&dout, bytes), "cudaMalloc")) {
    cudaFree(din);
    if (s) cudaStreamDestroy(s);
    res->status = TRIDI_ERR_DEVICE;
    return 1;
  }
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  tridi_fft_options o;
  tridi_fft_options_init(&o);
  o.backend = TRIDI_BACKEND_CUDA;
  o.device = device;
  tridi_fft_plan p = nullptr;
  res->status = tridi_fft_plan_create(&p, n, batch, dt, dir, &o);
  if (res->status == TRIDI_SUCCESS) {
    tridi_fft_plan_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    tridi_fft_plan_get_info(p, &info);
    res->passes = info.passes;
    res->threads = 0;
    snprintf(res->kernel, sizeof res->kernel, "%s", info.kernel);
    tridi_status st = TRIDI_SUCCESS;
    res->ms = bench_cuda_time_ms(
        [&] {
          const tridi_status e = tridi_fft_execute(p, din, dout, s);
          if (e && !st) st = e;
        },
        reps, warmup, s, &res->ms_min);
    if (st == TRIDI_SUCCESS && cudaStreamSynchronize(s) != cudaSuccess) st = TRIDI_ERR_DEVICE;
    res->status = st;
    cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
    tridi_fft_plan_destroy(p);
  } else {
    fprintf(stderr, "tridi bench: tridi_fft_plan_create: %s\n", tridi_last_error());
  }
  if (baseline) {
    snprintf(res->baseline, sizeof res->baseline, "cufft");
    cufftHandle h;
    int nn = (int)n;
    const cufftType type = dt == TRIDI_C32 ? CUFFT_C2C : CUFFT_Z2Z;
    const int sign = dir == TRIDI_FFT_FORWARD ? CUFFT_FORWARD : CUFFT_INVERSE;
    if (n > INT32_MAX || batch > INT32_MAX ||
        cufftPlanMany(&h, 1, &nn, nullptr, 1, nn, nullptr, 1, nn, type, (int)batch) !=
            CUFFT_SUCCESS) {
      res->baseline_failed = 1;
    } else {
      cufftSetStream(h, s);
      cufftResult cr = CUFFT_SUCCESS;
      double best = 0;
      res->baseline_ms = bench_cuda_time_ms(
          [&] {
            const cufftResult e =
                dt == TRIDI_C32
                    ? cufftExecC2C(h, (cufftComplex *)din, (cufftComplex *)dout, sign)
                    : cufftExecZ2Z(h, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, sign);
            if (e != CUFFT_SUCCESS) cr = e;
          },
          reps, warmup, s, &best);
      if (cr != CUFFT_SUCCESS) res->baseline_failed = 1;
      cudaMemcpy(base_out, dout, bytes, cudaMemcpyDeviceToHost);
      cufftDestroy(h);
    }
  }
  cudaFree(din);
  cudaFree(dout);
  cudaStreamDestroy(s);
  return res->status == TRIDI_SUCCESS ? 0 : 1;
}
