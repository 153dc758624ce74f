/* The cpu_lu_partial_ref rows: the reference pivoting solver (LAPACK
 * ?gtsv, src/ref/ref_pivot.c) one system at a time over OpenMP threads.
 * Scalar kind: the systems in static blocks (tridi_run_systems); variable
 * kind: contiguous ranges of about equal numbers of unknowns, as
 * cpu_var_thomas_ref.  The fallback where the SIMD kernel (cpu_lu.c) does
 * not apply, and the variable kind's pivoting solver. */
#include <stdio.h>

#include "backends.h"

tridi_status tridi_cpu_lu_ref_init(struct tridi_plan_s *plan) {
  const size_t work = tridi_ref_pivot_work_bytes(plan);
  if (work == 0 || (plan->ws_bytes = tridi_run_systems_ws_bytes(plan, work)) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC,
                           "tridi_plan_create: cpu_lu_partial_ref workspace overflows");
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_lu_partial_ref_%s",
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

tridi_status tridi_cpu_lu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  return tridi_run_systems(plan, args, tridi_ref_pivot_solve_system,
                           tridi_ref_pivot_work_bytes(plan));
}
