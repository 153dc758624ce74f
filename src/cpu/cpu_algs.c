/* The CPU rows of CR, PCR, RD, CR+PCR and CR+RD: the reference versions
 * (src/ref/ref_algs.c) with the systems split over OpenMP threads, so that
 * the host backends can compare the algorithms of paper 001 (docs/
 * algorithms.md).  Never chosen by AUTO. */
#include "backends.h"
#include "ref_algs.h"

#include <stdio.h>

tridi_status tridi_cpu_alg_init(struct tridi_plan_s *plan) {
  size_t wb = 0;
  tridi_status st = tridi_ref_alg_work_bytes(plan, &wb);
  if (st) return st;
  if ((plan->ws_bytes = tridi_run_systems_ws_bytes(plan, wb)) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: %s workspace overflows size_t",
                           plan->solver->name);
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_%s_%s", tridi_alg_name(plan->alg),
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

tridi_status tridi_cpu_alg_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  size_t wb = 0;
  if (tridi_ref_alg_work_bytes(plan, &wb)) return TRIDI_ERR_INTERNAL;
  return tridi_run_systems(plan, args, tridi_ref_alg_solve_system, wb);
}
