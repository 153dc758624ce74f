/* The cpu_thomas_ref solver row: the reference Thomas (src/ref), one system
 * at a time, with the systems split over OpenMP threads (static schedule).
 * The fallback for problems the SIMD kernel does not take, e.g. a few long
 * systems. */
#include "cpu_thomas.h"
#include "backends.h"

#include <stdio.h>

static size_t work_bytes(const struct tridi_plan_s *plan) {
  return ((size_t)plan->lay.n * plan->esize + 63) & ~(size_t)63;
}

const char *tridi_cpu_ref_applies(const struct tridi_plan_s *plan) {
  (void)plan; /* every scalar problem */
  return NULL;
}

tridi_status tridi_cpu_ref_init(struct tridi_plan_s *plan) {
  if ((uint64_t)plan->lay.n > SIZE_MAX / 2 / plan->esize ||
      (plan->ws_bytes = tridi_run_systems_ws_bytes(plan, work_bytes(plan))) == 0)
    return tridi_set_error(TRIDI_ERR_ALLOC, "tridi_plan_create: cpu_thomas_ref workspace overflows");
  snprintf(plan->kernel_name, sizeof plan->kernel_name, "cpu_thomas_ref_%s",
           plan->dtype == TRIDI_F32 ? "f32" : "f64");
  return TRIDI_SUCCESS;
}

tridi_status tridi_cpu_ref_execute(const struct tridi_plan_s *plan, const tridi_args *args) {
  return tridi_run_systems(plan, args, tridi_ref_solve_system, work_bytes(plan));
}
