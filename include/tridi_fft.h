/**
 * @file tridi_fft.h
 * The FFT's part of tridi's public C API: batched complex transforms of
 * power-of-two length (tridi_fft_*).  Included by tridi.h; include tridi.h.
 * docs/fft.md describes the layouts, the algorithms and the benchmarks.
 */
#ifndef TRIDI_FFT_H
#define TRIDI_FFT_H

#include "tridi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* FFT: batched complex transforms of power-of-two length                   */
/* ------------------------------------------------------------------------ */
/* A separate plan type with the solvers' rules: every function returns a
 * tridi_status with a message in tridi_last_error(); a plan is immutable and
 * made once (tridi_fft_plan_create), executed many times
 * (tridi_fft_execute), destroyed (tridi_fft_plan_destroy).  Elements are
 * complex numbers stored as (real, imaginary) pairs, as C's float complex /
 * double complex, C++'s std::complex and cuFFT's cufftComplex /
 * cufftDoubleComplex.  docs/fft.md describes the layouts and the algorithm. */

/** Sign of the exponent of an FFT. */
typedef enum tridi_fft_direction {
  /** y[k] = sum_j x[j] exp(-2 pi i j k / n) (FFTW_FORWARD, CUFFT_FORWARD) */
  TRIDI_FFT_FORWARD = -1,
  /** y[k] = sum_j x[j] exp(+2 pi i j k / n), not normalised: the inverse of
   *  the forward transform times n (FFTW_BACKWARD, CUFFT_INVERSE) */
  TRIDI_FFT_INVERSE = 1
} tridi_fft_direction;

/** FFT plan options and batch layout.  Always initialise with
 *  tridi_fft_options_init() and then set fields (struct_size lets later
 *  releases add fields, as in tridi_options).
 *
 *  Layout, in elements (complex numbers), as the solver descriptor's
 *  strides and FFTW's advanced interface: point j of transform t is
 *  in[t * in_dist + j * in_stride] and out[t * out_dist + j * out_stride].
 *  A distance of 0 means packed transforms: n * stride. */
typedef struct tridi_fft_options {
  size_t struct_size;     /**< sizeof(tridi_fft_options), set by tridi_fft_options_init */
  tridi_backend backend;  /**< TRIDI_BACKEND_AUTO (default: the CPU), _REF (the
                               reference, one thread), _CPU (the reference, OpenMP
                               over the batch) or _CUDA (device pointers) */
  int num_threads;        /**< CPU threads; 0 (default) = omp_get_max_threads() */
  int device;             /**< CUDA device ordinal; default 0 */
  unsigned int flags;     /**< reserved, must be 0 */
  int64_t in_stride;      /**< distance between points of the input, >= 1 (default 1) */
  int64_t in_dist;        /**< distance between input transforms, >= 0 (default 0: packed) */
  int64_t out_stride;     /**< distance between points of the output, >= 1 (default 1) */
  int64_t out_dist;       /**< distance between output transforms, >= 0 (default 0: packed) */
} tridi_fft_options;

/** Fill *opts with the defaults (packed transforms, the CPU).  NULL is
 *  ignored. */
TRIDI_API void tridi_fft_options_init(tridi_fft_options *opts);

/** Opaque, immutable FFT plan. */
typedef struct tridi_fft_plan_s *tridi_fft_plan;

/**
 * Plan `batch` complex transforms of length `n` in one direction.
 *
 * The plan owns its twiddle factors and scratch (in-place execution goes
 * through the scratch).  Arguments are checked in this order: plan, dtype,
 * direction, n and batch, options, layout.
 *
 * @param[out] plan   new plan (NULL on failure)
 * @param n           transform length: a power of two, 1 .. 2^40
 * @param batch       number of transforms, >= 0 (0: an empty problem,
 *                    execute succeeds and touches nothing)
 * @param dtype       TRIDI_C32 or TRIDI_C64
 * @param direction   TRIDI_FFT_FORWARD or TRIDI_FFT_INVERSE
 * @param opts        options and layout, or NULL for the defaults
 * @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER (plan),
 *         TRIDI_ERR_INVALID_DTYPE (not a dtype), TRIDI_ERR_NOT_SUPPORTED
 *         (a real dtype; n not a power of two; CUDA: a pass of more than
 *         2^31 - 1 blocks), TRIDI_ERR_INVALID_OPTION
 *         (direction, struct_size, backend, threads, device, flags),
 *         TRIDI_ERR_INVALID_SHAPE (n < 1 or above 2^40, batch < 0, or
 *         n * batch above INT64_MAX), TRIDI_ERR_INVALID_STRIDE (a stride
 *         < 1, a distance < 0, an output layout that maps two points to
 *         one element, or an offset above INT64_MAX),
 *         TRIDI_ERR_BACKEND_UNAVAILABLE, TRIDI_ERR_ALLOC, TRIDI_ERR_DEVICE.
 */
TRIDI_API tridi_status tridi_fft_plan_create(tridi_fft_plan *plan, int64_t n, int64_t batch,
                                             tridi_dtype dtype, tridi_fft_direction direction,
                                             const tridi_fft_options *opts);

/**
 * Transform every batch entry of `in` into `out`.
 *
 * Host pointers for CPU/REF plans, device pointers for CUDA plans, each a
 * multiple of the element size (8 bytes for TRIDI_C32, 16 for TRIDI_C64).
 * `out` may be `in` itself when the plan's input and output layouts are the
 * same (in place); otherwise the elements of the two may not share memory.
 * `in` is not modified out of place; nothing outside the described output
 * elements is written.
 *
 * @param plan    plan
 * @param in      input (read only unless it is out)
 * @param out     output
 * @param stream  CUDA plans: the cudaStream_t to enqueue on (NULL = the
 *                legacy default stream); asynchronous, no device-wide
 *                synchronisation, capturable into a CUDA graph.  CPU and REF
 *                plans: ignored (pass NULL); synchronous.
 * @return TRIDI_SUCCESS; TRIDI_ERR_NULL_POINTER, TRIDI_ERR_MISALIGNED,
 *         TRIDI_ERR_OVERLAP (argument checks, in that order, nothing
 *         written); TRIDI_ERR_DEVICE (a launch failed).
 *
 * Concurrent calls on one CPU/REF plan are safe (they take turns on the
 * plan's scratch).  A CUDA plan's scratch is shared by every stream:
 * executes of one plan on several streams must not overlap in time.
 */
TRIDI_API tridi_status tridi_fft_execute(tridi_fft_plan plan, const void *in, void *out,
                                         void *stream);

/** Free a plan.  NULL is accepted and ignored.  The caller must not destroy
 *  a plan while an execute on it is running (on CUDA: still queued).
 *  @return TRIDI_SUCCESS. */
TRIDI_API tridi_status tridi_fft_plan_destroy(tridi_fft_plan plan);

/** What an FFT plan does.  Set struct_size to sizeof(tridi_fft_plan_info)
 *  before the call. */
typedef struct tridi_fft_plan_info {
  size_t struct_size;         /**< set to sizeof(tridi_fft_plan_info) before the call */
  tridi_backend backend;      /**< backend that runs it */
  tridi_dtype dtype;          /**< TRIDI_C32 or TRIDI_C64 */
  tridi_fft_direction direction; /**< its direction */
  int num_threads;            /**< CPU threads used (0 for CUDA plans) */
  int64_t n;                  /**< transform length */
  int64_t batch;              /**< number of transforms */
  int passes;                 /**< passes over memory of one execute: CUDA kernels
                                   launched (each reads and writes every element
                                   once); on the CPU the radix steps of the
                                   reference (each a sweep over a transform) */
  const char *kernel;         /**< name of the code that runs, e.g. "ref_stockham_r4_c32";
                                   valid while the plan lives */
  size_t scratch_bytes;       /**< bytes of scratch the plan owns (host or device) */
} tridi_fft_plan_info;

/** Describe an FFT plan.  @return TRIDI_SUCCESS, TRIDI_ERR_NULL_POINTER,
 *  TRIDI_ERR_INVALID_OPTION (struct_size too small). */
TRIDI_API tridi_status tridi_fft_plan_get_info(tridi_fft_plan plan, tridi_fft_plan_info *info);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_FFT_H */
