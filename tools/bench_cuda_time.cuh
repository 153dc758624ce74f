/* CUDA-event timing shared by the GPU bench tools (tools/bench_fft_cuda.cu,
 * bench/tuning/var_floor.cu).  C++ (CUDA) only; include bench_util.h first. */
#ifndef TRIDI_TOOLS_BENCH_CUDA_TIME_CUH
#define TRIDI_TOOLS_BENCH_CUDA_TIME_CUH

#include <cuda_runtime.h>
#include <stdlib.h>

/* The median of `reps` timed runs of f (after `warmup` untimed ones) on
 * stream s, in ms; *best (if not NULL): the fastest run. */
template <class F>
static double bench_cuda_time_ms(F f, int reps, int warmup, cudaStream_t s, double *best) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  double *t = (double *)malloc(sizeof(double) * (size_t)reps);
  for (int i = 0; i < warmup; ++i) f();
  double fastest = 1e300;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(e0, s);
    f();
    cudaEventRecord(e1, s);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t[i] = ms;
    if (ms < fastest) fastest = ms;
  }
  const double med = bench_median(t, reps);
  free(t);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (best) *best = fastest;
  return med;
}

#endif
