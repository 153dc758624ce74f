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

/* issue 4: ref algorithms (src/ref/ref_algs.c): CR, PCR, RD, CR+PCR, CR+RD
 * (paper 001) in plain C; REF rows run the systems in order, CPU rows split
 * them over OpenMP threads.  The plan's alg selects the algorithm. */
int tridi_ref_alg_applies(const struct tridi_plan_s *plan);
tridi_status tridi_ref_alg_init(struct tridi_plan_s *plan);
tridi_status tridi_ref_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args);
tridi_status tridi_cpu_alg_init(struct tridi_plan_s *plan);
tridi_status tridi_cpu_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args);
/* end issue 4 */

#ifdef TRIDI_HAVE_CUDA
#include "../cuda/cuda_backend.h" /* declares the CUDA rows' functions */
#endif

#endif
