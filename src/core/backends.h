/* Entry points each backend provides to the solver table (solvers.c).
 * Each backend owns its own block; see tridi_solver in tridi_internal.h. */
#ifndef TRIDI_BACKENDS_H
#define TRIDI_BACKENDS_H
#include "tridi_internal.h"

/* src/ref: plain Thomas, one system at a time, one thread. */
int tridi_ref_applies(const struct tridi_plan_s *plan);
tridi_status tridi_ref_init(struct tridi_plan_s *plan);
tridi_status tridi_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);

/* src/cpu: OpenMP + SIMD Thomas (lanes across systems, local transposition
 * where systems are contiguous). */
int tridi_cpu_thomas_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cpu_thomas_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_thomas_execute(const struct tridi_plan_s *plan, const tridi_args *args);
void tridi_cpu_thomas_destroy(struct tridi_plan_s *plan);

/* src/cpu: the reference Thomas run over systems with OpenMP (fallback for
 * problems the SIMD kernel does not take, e.g. tiny batches of long systems). */
int tridi_cpu_ref_applies(const struct tridi_plan_s *plan);
tridi_status tridi_cpu_ref_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args);

#ifdef TRIDI_HAVE_CUDA
#include "../cuda/cuda_backend.h" /* declares the CUDA rows' functions */
#endif

#endif
