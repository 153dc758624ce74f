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
int tridi_cuda_thomas_pcr_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_pcr_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_pcr_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_thomas_pcr_destroy(struct tridi_plan_s *plan);

/* src/cuda/alg_paper001.cu: paper 001's CR, PCR, RD, CR+PCR, CR+RD, one
 * block per system, any n, any layout. */
int tridi_cuda_alg_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_alg_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_alg_destroy(struct tridi_plan_s *plan);

/* src/cuda/alg_thomas.cu: Thomas with one thread per system, no
 * transposition (THOMAS), shared-memory (THOMAS_SHARED) or register-shuffle
 * (THOMAS_SHUFFLE) transposition. */
int tridi_cuda_thomas_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_init(struct tridi_plan_s *plan);
tridi_status tridi_cuda_thomas_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cuda_thomas_destroy(struct tridi_plan_s *plan);

/* The CUDA rows of the solver table (src/core/solvers.c).  With
 * TRIDI_ALG_AUTO the planner takes the first row that applies. */
#define TRIDI_CUDA_SOLVER_ROWS                                                              \
  {"cuda_thomas_pcr", TRIDI_BACKEND_CUDA, TRIDI_ALG_THOMAS_PCR, tridi_cuda_thomas_pcr_applies, \
   tridi_cuda_thomas_pcr_init, tridi_cuda_thomas_pcr_execute, tridi_cuda_thomas_pcr_destroy},  \
  TRIDI_CUDA_ALG_ROWS

/* explicit choices only (after the AUTO row) */
#define TRIDI_CUDA_ALG_ROW_(name, alg, pre)                                                  \
  {name, TRIDI_BACKEND_CUDA, alg, tridi_cuda_##pre##_applies, tridi_cuda_##pre##_init,        \
   tridi_cuda_##pre##_execute, tridi_cuda_##pre##_destroy},
#define TRIDI_CUDA_ALG_ROWS                                                                  \
  TRIDI_CUDA_ALG_ROW_("cuda_thomas", TRIDI_ALG_THOMAS, thomas)                               \
  TRIDI_CUDA_ALG_ROW_("cuda_thomas_shared", TRIDI_ALG_THOMAS_SHARED, thomas)                 \
  TRIDI_CUDA_ALG_ROW_("cuda_thomas_shuffle", TRIDI_ALG_THOMAS_SHUFFLE, thomas)               \
  TRIDI_CUDA_ALG_ROW_("cuda_cr", TRIDI_ALG_CR, alg)                                          \
  TRIDI_CUDA_ALG_ROW_("cuda_pcr", TRIDI_ALG_PCR, alg)                                        \
  TRIDI_CUDA_ALG_ROW_("cuda_rd", TRIDI_ALG_RD, alg)                                          \
  TRIDI_CUDA_ALG_ROW_("cuda_cr_pcr", TRIDI_ALG_CR_PCR, alg)                                  \
  TRIDI_CUDA_ALG_ROW_("cuda_cr_rd", TRIDI_ALG_CR_RD, alg)

#ifdef __cplusplus
}
#endif
#endif /* TRIDI_CUDA_BACKEND_H */
