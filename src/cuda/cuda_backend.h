/* CUDA backend of tridi: the solver-table rows and the device helpers the
 * core calls.  C header (the core is C11); the definitions live in .cu files
 * with C linkage.  Included by src/core/backends.h under TRIDI_HAVE_CUDA. */
#ifndef TRIDI_CUDA_BACKEND_H
#define TRIDI_CUDA_BACKEND_H

#include "tridi_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Thomas-PCR hybrid (src/cuda/scalar/thomas_pcr.cu): every layout, f32/f64,
 * any n.  init() consults the tuning table (src/cuda/tuning.h) and takes the
 * first kernel family of its variant table that accepts the plan (one file
 * each in src/cuda/scalar/). */
const char *tridi_cuda_thomas_pcr_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_pcr_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_pcr_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_thomas_pcr_destroy(struct tridi_plan_s *plan);

/* src/cuda/scalar/cr_pcr_rd.cu: paper 001's CR, PCR, RD, CR+PCR, CR+RD, one
 * block per system, any n, any layout. */
const char *tridi_cuda_alg_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_alg_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_alg_destroy(struct tridi_plan_s *plan);

/* src/cuda/scalar/thomas_simple.cu: Thomas with one thread per system, no
 * transposition (THOMAS), shared-memory (THOMAS_SHARED) or register-shuffle
 * (THOMAS_SHUFFLE) transposition. */
const char *tridi_cuda_thomas_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_thomas_destroy(struct tridi_plan_s *plan);

/* src/cuda/variable/: variable-size batches (tiles of whole systems for
 * PACKED batches, neighbouring systems per block for INTERLEAVED ones,
 * scalar plans for systems longer than the kernels take). */
const char *tridi_cuda_var_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_var_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_var_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_var_destroy(struct tridi_plan_s *plan);

/* Run the plan's solver row with plan->device current (restoring the
 * caller's device afterwards): the CUDA backend's run() (src/core/backends.c). */
tridi_status tridi_cuda_run(const struct tridi_plan_s *plan, const tridi_args *args);

/* The CUDA backend's info_first() (src/cuda/info.cu): the lowest-numbered
 * system of a device info array whose code is not 0, found on stream. */
tridi_status tridi_cuda_info_first(const struct tridi_plan_s *plan, const int32_t *info,
                                   void *stream, int64_t *first, int32_t *code);

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_CUDA_BACKEND_H */
