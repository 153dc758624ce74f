/* CUDA backend of tridi: the solver-table rows and the device helpers the
 * core calls.  C header (the core is C11); the definitions live in .cu files
 * with C linkage.  Included by src/core/backends.h under TRIDI_HAVE_CUDA. */
#ifndef TRIDI_CUDA_BACKEND_H
#define TRIDI_CUDA_BACKEND_H

#include "tridi_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Thomas-PCR hybrid (src/cuda/thomas_pcr.cu): every layout, f32/f64, any n.
 * init() consults the tuning table (src/cuda/tuning.h) and picks the kernel
 * variant: staged register-resident hybrid for n up to what one thread block
 * holds on chip, the streaming chunked kernel beyond. */
int tridi_cuda_thomas_pcr_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_pcr_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_pcr_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_thomas_pcr_destroy(struct tridi_plan_s *plan);

/* The CUDA rows of the solver table (src/core/solvers.c).  With
 * TRIDI_ALG_AUTO the planner takes the first row that applies. */
#define TRIDI_CUDA_SOLVER_ROWS                                                              \
  {"cuda_thomas_pcr", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS_PCR, tridi_cuda_thomas_pcr_applies, \
   tridi_cuda_thomas_pcr_init, tridi_cuda_thomas_pcr_execute, tridi_cuda_thomas_pcr_destroy},

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_CUDA_BACKEND_H */
