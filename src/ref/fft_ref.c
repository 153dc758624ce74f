/* The reference FFT: plain C Stockham radix-4 (radix-2 last step where
 * log2 n is odd), complex f32 and f64, batched with strides, one transform
 * per thread (OpenMP over the batch).  The oracle of the FFT's tests and
 * the CPU backend (fft_ref_body.inc has the algorithm). */
#include <math.h>
#include <omp.h>
#include <stddef.h>
#include <stdint.h>

#include "fft_internal.h"

int tridi_ref_fft_steps(int log2n) {
  return log2n / 2 + log2n % 2;
}

size_t tridi_ref_fft_twiddle_bytes(tridi_dtype dtype, int64_t n) {
  const size_t h = n / 2 > 0 ? (size_t)(n / 2) : 1u;
  return h * tridi_dtype_size(dtype);
}

#define T float
#define FN(x) x##_c32
#include "fft_ref_body.inc"
#undef T
#undef FN
#define T double
#define FN(x) x##_c64
#include "fft_ref_body.inc"
#undef T
#undef FN

void tridi_ref_fft_twiddles(tridi_dtype dtype, int64_t n, void *table) {
  if (dtype == TRIDI_C32)
    twiddles_c32(n, (float *)table);
  else
    twiddles_c64(n, (double *)table);
}

void tridi_ref_fft_run(const struct tridi_fft_plan_s *plan, const void *in, void *out) {
  if (plan->dtype == TRIDI_C32)
    run_c32(plan, (const float *)in, (float *)out);
  else
    run_c64(plan, (const double *)in, (double *)out);
}
