/* `tridi bench --problem fft` (tools/bench_fft.c: options, cases, checks,
 * table and CSV; tools/bench_fft_cuda.cu: the GPU runner and cuFFT).
 * docs/fft.md describes the command.  C linkage. */
#ifndef TRIDI_TOOLS_BENCH_FFT_H
#define TRIDI_TOOLS_BENCH_FFT_H

#include <stdint.h>

#include "tridi.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One timed FFT case: tridi's figures and its baseline's. */
typedef struct bench_fft_result {
  tridi_status status;  /**< first failing status of tridi's plan / execute */
  double ms, ms_min;    /**< median and fastest execute of the whole batch */
  int passes;           /**< tridi_fft_plan_info.passes */
  int threads;          /**< CPU threads (0 on the GPU) */
  char kernel[96];      /**< tridi_fft_plan_info.kernel */
  char baseline[48];    /**< "fftw3_estimate", "cufft"; empty: none ran */
  double baseline_ms;   /**< median of the baseline */
  int baseline_failed;  /**< 1 when the baseline could not run */
} bench_fft_result;

/** `tridi bench --problem fft ...` (argv[0] is "bench"). */
int bench_fft_main(int argc, char **argv);

#ifdef TRIDI_HAVE_CUDA
/** 1 when a CUDA device is visible. */
int bench_fft_cuda_available(void);
/** The GPU's name. */
const char *bench_fft_cuda_device_name(void);
/** Copy bandwidth of the GPU (GB/s, read + write) over `bytes`. */
double bench_fft_cuda_copy_gbps(size_t bytes, int reps);
/** Time tridi's CUDA FFT (and cuFFT when baseline) on the host data `in`
 *  (n * batch packed elements); tridi's result in out, cuFFT's in
 *  base_out (when baseline).  0 on success. */
int bench_fft_cuda_run(int64_t n, int64_t batch, tridi_dtype dt, tridi_fft_direction dir,
                       const void *in, void *out, void *base_out, int reps, int warmup,
                       int device, int baseline, bench_fft_result *res);
#endif

#ifdef __cplusplus
}
#endif
#endif
