/* placeholder */
#include "fft_internal.h"
#include "tridi_internal.h"
extern "C" tridi_status tridi_cuda_fft_init(struct tridi_fft_plan_s *plan) {
  (void)plan;
  return tridi_set_error(TRIDI_ERR_NOT_SUPPORTED, "tridi_fft_plan_create: no CUDA FFT yet");
}
extern "C" tridi_status tridi_cuda_fft_execute(const struct tridi_fft_plan_s *plan, const void *in,
                                               void *out, void *stream) {
  (void)plan, (void)in, (void)out, (void)stream;
  return TRIDI_ERR_INTERNAL;
}
extern "C" void tridi_cuda_fft_destroy(struct tridi_fft_plan_s *plan) { (void)plan; }
