/* The FFT plan (tridi_fft_*) shared by its host side (src/fft/fft_plan.c),
 * the reference / CPU transform (src/ref/fft_ref.c) and the CUDA kernels
 * (src/cuda/fft/).  Not installed. */
#ifndef TRIDI_FFT_INTERNAL_H
#define TRIDI_FFT_INTERNAL_H

#include "tridi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest transform length (2^40): n * (point size) and the scratch stay
 * far from size_t overflow. */
#define TRIDI_FFT_MAX_LOG2N 40

struct tridi_fft_plan_s {
  tridi_backend backend;   /* REF, CPU or CUDA (AUTO resolved) */
  tridi_dtype dtype;       /* TRIDI_C32 or TRIDI_C64 */
  int sign;                /* the exponent's sign: -1 forward, +1 inverse */
  int64_t n, batch;
  int log2n;
  int64_t is, id, os, od;  /* layout in elements, distances resolved (never 0) */
  int64_t in_span[2];      /* lowest and highest element offset of the input */
  int64_t out_span[2];     /* ... of the output */
  int threads;             /* CPU threads (REF: 1; CUDA: 0) */
  int device;              /* CUDA device */
  int passes;              /* tridi_fft_plan_info.passes */
  char kernel[64];         /* tridi_fft_plan_info.kernel */
  size_t scratch_bytes;
  /* host plans: twiddles (n/2 (cos, sin) pairs of the element's real type,
   * at least one) and scratch (2n elements per thread), the lock on it */
  void *twiddles;
  void *scratch;
  void *lock;
  /* CUDA plans: the backend's private plan (src/cuda/fft/fft_cuda.cu) */
  void *cuda;
};

/* ---- reference transform (src/ref/fft_ref.c) ------------------------------- */

/* Number of radix steps of the reference for length n = 2^log2n: radix 4,
 * one radix-2 step last when log2n is odd. */
int tridi_ref_fft_steps(int log2n);
/* Bytes of the twiddle table of length n (max(n/2, 1) pairs of the real type). */
size_t tridi_ref_fft_twiddle_bytes(tridi_dtype dtype, int64_t n);
/* Fill the table: entry k is (cos, sin)(2 pi k / n), k < n/2, computed in
 * long double and rounded once. */
void tridi_ref_fft_twiddles(tridi_dtype dtype, int64_t n, void *table);
/* Transform every batch entry of the plan (host pointers, checked),
 * OpenMP over the batch with plan->threads threads, each with its 2n
 * elements of plan->scratch. */
void tridi_ref_fft_run(const struct tridi_fft_plan_s *plan, const void *in, void *out);

/* ---- CUDA backend (src/cuda/fft/), present when TRIDI_HAVE_CUDA -------------- */
#ifdef TRIDI_HAVE_CUDA
/* Plan the kernels (plan->cuda, passes, kernel, device scratch). */
tridi_status tridi_cuda_fft_init(struct tridi_fft_plan_s *plan);
/* Enqueue the transform on `stream` (device pointers, checked). */
tridi_status tridi_cuda_fft_execute(const struct tridi_fft_plan_s *plan, const void *in, void *out,
                                    void *stream);
/* Free plan->cuda (waits for nothing: the caller's rule). */
void tridi_cuda_fft_destroy(struct tridi_fft_plan_s *plan);
#endif

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_FFT_INTERNAL_H */
